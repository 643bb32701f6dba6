# SPDX-License-Identifier: GPL-2.0-or-later
# vm-build-module: mxt-emul
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --file tests/vm/modules/mxt-emul/guest.sh:/vm/mxt-emul.sh
# vm-image: --bin @B@/touchfw:/usr/local/bin/touchfw
# vm-image: --bin @B@/touchfw-agent:/usr/local/libexec/touchfw/touchfw-agent
# vm-image: --file @B@/61-touchfw.rules:/usr/lib/udev/rules.d/61-touchfw.rules
# vm-image: --dir @B@/firmware-db:/usr/local/share/touchfw/firmware-db
# vm-image: --file @B@/keys/build-demo.pub:/usr/local/etc/touchfw/keys/build-demo.pub
# vm-image: --dtb tests/vm/modules/mxt-emul/boards/qemu-mxt-emul-driver.dts:/usr/local/etc/touchfw/boards/qemu-mxt-emul.dtb
#
# "kmod-touchfw-bootloader" (busybox init): touchfw's main job on a real
# kernel.  A maXTouch (mxt_emul) without a valid image: Debian's
# atmel_mxt_ts binds without an input device; its real bind uevent goes
# through the shipped udev rule to `touchfw handle-event`, which detaches
# `touchfw run` (no systemd here; handoff = fork); the run flashes the
# DB's firmware at the bootloader address with the driver still bound
# (profile: power "driver"), writes the config, rebinds, and verifies the
# input device the real driver registers.  touchfw's own rebind is
# ignored; a second bind (a new probe) runs again and writes nothing.  Prints bind uevent -> verified input device.
. /vm/mxt-emul.sh

vm_require "modules and debugfs" emul_setup
emul_touchfw_dirs
vm_check "touchfw picks the QEMU board profile" eval \
	'"$TOUCHFW" board identify 2>&1 | grep -q "qemu-mxt-emul"'
emul_udev_debug
emul_monitor_start
vm_require "mxt_emul loads (mxt224e without a valid image)" emul_load state=noimage
vm_check "atmel_mxt_ts bound, without input device" eval \
	'[ "$(emul_driver)" = atmel_mxt_ts ] && [ -z "$(emul_input)" ]'
vm_check "udev ran touchfw handle-event on bind; it handed off to a detached run" \
	vm_wait 10 "handle-event" emul_handle_event_said "bind (driver atmel_mxt_ts): handed to detached process"
vm_require "the run records its result" vm_wait 60 "touchfw run" emul_run_done
t_done=$(vm_now_us)
vm_log "result: $(emul_result)"
vm_check "result ok, path bootloader, 2.1.AB" eval \
	'emul_result_has "\"result\":\"ok\"" && emul_result_has "\"path\":\"bootloader\"" &&
		emul_result_has "\"version_after\":\"2.1.AB\""'
log=$TOUCHFW_STATE/$EMUL_DEV.log
vm_check "it flashed at the bootloader address 0x24 while the driver was bound" eval \
	'grep -q "flashing .* at bootloader address 0x24" "$log" &&
		[ "$(grep -n "flashing:  *100%" "$log" | cut -d: -f1)" -lt \
		  "$(grep -n "rebind: unbinding" "$log" | cut -d: -f1)" ]'
vm_check "the real driver registered the input device" emul_has_input
vm_check "touchfw verified that input device ($(emul_event))" \
	emul_result_has "\"input\":\"$(emul_event)\""
vm_check "the driver reads fw_version 2.1.AB" test "$(cat "$EMUL_SYS/fw_version")" = 2.1.AB
vm_check "the chip completed one image; config CRC 0xE67ACA in RAM and NVM" eval \
	'[ "$(emul_state images_completed)" = 1 ] && [ "$(emul_state config_crc)" = 0xE67ACA ] &&
		[ "$(emul_state nvm_config_crc)" = 0xE67ACA ]'
udevadm settle --timeout=60
vm_check "touchfw's own rebind: a second bind uevent" \
	vm_wait 30 "the monitor to show the second bind" eval '[ "$(emul_bind_count)" = 2 ]'

# What handle-event decided for it, not only what did not happen yet: a
# run it wrongly detached might not have written anything by now.
vm_check "handle-event knew it for touchfw's own rebind" \
	vm_wait 10 "handle-event on the own rebind" \
	emul_handle_event_said "bind: nothing to do: this bind is touchfw's own rebind"
vm_check "and handed nothing over (one hand-over in all)" \
	test "$(emul_handle_event_lines | grep -c "handed to")" = 1
# udevadm settle above: every event's handle-event has run, so a run one of
# them handed over is a touchfw process now, or has written its log.
vm_check "no second run" eval \
	'[ "$(grep -c "^touchfw: $EMUL_DEV: device " "$log")" = 1 ] && ! pidof touchfw-agent touchfw'
emul_figure_since_bind bind_uevent_to_verified_input_ms "$t_done"
vm_figure touchfw_duration_ms "$(emul_result_field duration_ms)" ms

# A second bind (a driver reload): the driver probed again and registered
# a new input device, so handle-event no longer vouches for the chip and
# hands it off; the run reads it, finds it up to date and writes nothing.
frames=$(emul_state frames_passed)
emul_dmesg_mark
rm -f "$TOUCHFW_STATE/$EMUL_DEV.json"
emul_rebind
udevadm settle --timeout=60
vm_check "a second bind after a new probe is handed off" \
	vm_wait 10 "handle-event" emul_handle_event_said "bind (driver atmel_mxt_ts): handed to"
vm_check "the second run finds the chip up to date and writes nothing" eval \
	'vm_wait 20 "second run" emul_result_has "\"path\":\"none\"" &&
		[ "$(emul_state frames_passed)" = "$frames" ] &&
		[ "$(grep -c "^touchfw: $EMUL_DEV: device " "$log")" = 2 ]'
vm_check "the input device is back" vm_wait 10 "input device" emul_has_input
status=$("$TOUCHFW" status 2>&1)
vm_log "touchfw status: $(echo "$status" | tr '\n' '|')"
vm_check "touchfw status shows 2.1.AB and no failed attempt" eval \
	'echo "$status" | grep -q "2.1.AB" && ! echo "$status" | grep -q "attempts: [1-9]"'
vm_log "what udevd's RUN program said:"
emul_handle_event_lines
emul_monitor_stop
vm_check "no oops, no warning (taint D, W; kernel log)" vm_no_oops
