# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernels: 6.12
# vm-build-module: silead-emul
# vm-image: --module silead
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --file tests/vm/modules/silead-emul/guest.sh:/vm/silead-emul.sh
# vm-image: --bin @B@/tests/vm/evdev-query:/usr/bin/evdev-query
# vm-image: --bin @B@/touchfw:/usr/local/bin/touchfw
# vm-image: --bin @B@/touchfw-agent:/usr/local/libexec/touchfw/touchfw-agent
# vm-image: --file @B@/61-touchfw.rules:/usr/lib/udev/rules.d/61-touchfw.rules
# vm-image: --dir @B@/firmware-db:/usr/local/share/touchfw/firmware-db
# vm-image: --file @B@/keys/build-demo.pub:/usr/local/etc/touchfw/keys/build-demo.pub
# vm-image: --dtb tests/vm/modules/silead-emul/boards/qemu-silead-emul.dts:/usr/local/etc/touchfw/boards/qemu-silead-emul.dtb
#
# "kmod-touchfw-silead" (busybox init): Debian's own silead judges the
# Silead model and touchfw's staging.  silead_emul puts a GSL1680 model
# behind a real i2c adapter with a power GPIO and an interrupt, as the
# client "gsl1680" (bound by i2c id: the emulated adapter has no ACPI
# node) with the properties the kernel's DMI table gives a tablet
# (firmware-name gsl1680-emul-tablet.fw, 1960x1500, swapped).  There is no
# such file anywhere:
#   1. the driver's probe fails ("Firmware request error"): the kernel sent
#      add, no bind, the driver is not bound, no input device;
#   2. the shipped rule runs touchfw handle-event on that add; the detached
#      run stages the DB's blob for this board under the name the driver
#      requests and binds silead: the driver loads it into the chip, the
#      chip runs the panel's program, the input device has the profile's
#      axes, a touch reaches evdev (swapped as the properties say);
#   3. the loader's path is restored and nothing is left staged;
#   4. another tablet's file where the loader looks: the driver binds with
#      it, the chip runs a program that is not the panel's; the add (which
#      comes before the probe) runs touchfw, which finds the driver bound
#      with that file, stages the board's blob in front of it, rebinds,
#      and the chip runs the panel's program; that file is left untouched;
#   no oops, no warning.  Figure: add uevent -> verified input device.
. /vm/silead-emul.sh

vm_require "modules and debugfs" emul_setup
emul_touchfw_dirs
emul_udev_debug
emul_monitor_start
printf %s /vm/no-firmware-here >/sys/module/firmware_class/parameters/path
emul_dmesg_mark

# ---- 1. no file: the probe fails, only add
vm_require "silead_emul loads (GSL1680 at 0x40, firmware-name gsl1680-emul-tablet.fw)" emul_load
vm_log "client $EMUL_DEV at $EMUL_DEVPATH, modalias $(cat "$EMUL_SYS/modalias")"
vm_check "the client's modalias is i2c:gsl1680" test "$(cat "$EMUL_SYS/modalias")" = i2c:gsl1680
vm_require "the run ends" emul_wait_run 90
t_done=$(vm_now_us)
vm_check "silead's own probe failed without the file: Firmware request error -2" \
	emul_dmesg_has "silead_ts $EMUL_DEV: Firmware request error -2"
vm_check "the kernel sent add for the client; the only bind is the one touchfw made" \
	eval 'grep -q "^KERNEL\[.*\] add  *$EMUL_DEVPATH (i2c)" "$EMUL_MONITOR_LOG" &&
	      [ "$(emul_bind_count)" = 1 ] && emul_log_has "rebind: binding silead_ts"'
vm_check "handle-event took the add (no bind follows a failed probe)" \
	emul_handle_event_said "add (driver none yet): handed to detached process"

# ---- 2. touchfw's result, judged by the real driver and the model
vm_log "result: $(emul_result)"
vm_check "result ok through the driver's probe" eval \
	'[ "$(emul_result_field result)" = ok ] && [ "$(emul_result_field path)" = driver-probe ]'
vm_check "silead is bound" test "$(emul_driver)" = silead_ts
vm_check "the driver loaded silead/gsl1680-emul-tablet.fw, the file touchfw staged" \
	emul_log_has "staged silead-emul-tablet-1 as /run/touchfw/firmware/silead/gsl1680-emul-tablet.fw"
vm_check "the chip runs the panel's program (4 pages, 128 words, status OK)" eval \
	'[ "$(emul_state program_ok)" = 1 ] && [ "$(emul_state words_written)" -ge 128 ]'
vm_check "the input device is silead_ts" \
	test "$(cat "$EMUL_SYS/input/$(emul_input)/name")" = silead_ts
vm_check "its ABS_MT_POSITION_X/Y maxima are 1499 and 1959 (1500x1960 after the swap)" eval \
	'[ "$(sld_abs_max $ABS_MT_POSITION_X)" = 1499 ] && [ "$(sld_abs_max $ABS_MT_POSITION_Y)" = 1959 ]'
vm_check "touchfw verified that input device ($(emul_event))" eval \
	'[ "$(emul_result_field input)" = "$(emul_event)" ] &&
	 emul_log_has "ABS_MT_POSITION_X/Y maxima 1499/1959, as the board profile gives"'
sld_events_start 8 /run/ev1
sld_touch "0 100 200"
sld_events_wait
vm_log "events: $(tr '\n' '|' </run/ev1)"
vm_check "a touch at chip (100, 200) reaches evdev swapped: X 200, Y 100" eval \
	'grep -qx "3 53 200" /run/ev1 && grep -qx "3 54 100" /run/ev1'
vm_check "the chip saw the frame read" test "$(emul_state frames_read)" -ge 1
add_us=$(sld_add_us)
[ -z "$add_us" ] || vm_figure add_uevent_to_verified_input_ms "$(vm_us_to_ms $((t_done - add_us)))" ms

# ---- 3. nothing left behind
vm_check "firmware_class.path is restored" \
	test "$(cat /sys/module/firmware_class/parameters/path)" = /vm/no-firmware-here
vm_check "nothing is left staged" eval \
	'[ -z "$(find "$TOUCHFW_STATE/firmware" -type f 2>/dev/null)" ]'
vm_check "one run" test "$(emul_runs)" = 1
vm_require "silead_emul unloads" emul_unload

# ---- 4. another tablet's file where the loader looks: the driver binds
# with it (the chip runs, but it is not the panel's program); touchfw
# shadows it with the board's blob and rebinds
rm -rf "${TOUCHFW_STATE:?}"/*
mkdir -p /vm/no-firmware-here/silead
cp /usr/local/share/touchfw/firmware-db/silead/emul-other-1.fw \
	/vm/no-firmware-here/silead/gsl1680-emul-tablet.fw
sum_before=$(sha256sum /vm/no-firmware-here/silead/gsl1680-emul-tablet.fw)
emul_monitor_stop
emul_monitor_start
emul_dmesg_mark
vm_require "silead_emul loads again" emul_load
vm_require "the run ends" emul_wait_run 90
vm_log "result: $(emul_result)"
vm_log "binds: $(emul_bind_count); handle-event: $(emul_handle_event_lines | tr '\n' '|')"
vm_check "the driver bound with the other tablet's file, and touchfw rebound it: two binds" \
	test "$(emul_bind_count)" = 2
# The add comes before the probe, so it is the add that starts the run;
# the driver's own bind finds touchfw at work (in handle-event, or, when
# it was handed off before the add's run took the device's lock, in its
# own run: exit 8, locked), or a run that finds the driver has not probed
# since touchfw verified it.  Under load udevd may run handle-event for the
# driver's bind only once the run is rebinding (it takes it for touchfw's
# own) or is over (verified up to date), and touchfw's rebind is then the
# one found verified: either way both binds' handle-event said "nothing to
# do".  Whichever it was, one staging, no second update.
binds_idle=$(emul_dmesg | grep "touchfw handle-event" | grep -c "bind: nothing to do")
vm_check "the add ran touchfw; the driver's own bind changed nothing more" eval \
	'emul_handle_event_said "add (driver none yet): handed to detached process" &&
	 { [ "$binds_idle" = 2 ] ||
	   emul_log_has "another touchfw is working on this device (exit 8, locked)" ||
	   emul_log_has "silead_ts has not probed since a run verified input"; } &&
	 [ "$(emul_log | grep -c "staged silead-emul-tablet-1")" = 1 ]'
vm_check "touchfw saw that file is not the board's and shadowed it" \
	emul_log_has "gsl1680-emul-tablet.fw exists and is not silead-emul-tablet-1"
vm_check "result ok through the driver's probe, after a rebind" eval \
	'[ "$(emul_result_field result)" = ok ] && [ "$(emul_result_field path)" = driver-probe ] &&
	 emul_log_has "rebind: unbinding silead_ts"'
vm_check "the chip now runs the panel's program" test "$(emul_state program_ok)" = 1
vm_check "the distribution's file is untouched" \
	test "$(sha256sum /vm/no-firmware-here/silead/gsl1680-emul-tablet.fw)" = "$sum_before"
vm_check "firmware_class.path is restored" \
	test "$(cat /sys/module/firmware_class/parameters/path)" = /vm/no-firmware-here
emul_monitor_stop
vm_check "silead_emul unloads" emul_unload
vm_check "no oops, no warning (taint D, W; kernel log)" vm_no_oops
