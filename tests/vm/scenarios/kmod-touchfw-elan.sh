# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernels: 6.12
# vm-build-module: elants-i2c
# vm-build-module: elants-emul
# vm-build-module: elantp-emul
# vm-image: --module elan_i2c
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --file tests/vm/modules/elants-emul/guest.sh:/vm/elants-emul.sh
# vm-image: --file tests/vm/modules/elantp-emul/guest.sh:/vm/elantp-emul.sh
# vm-image: --bin @B@/tests/vm/evdev-query:/usr/bin/evdev-query
# vm-image: --bin @B@/touchfw:/usr/local/bin/touchfw
# vm-image: --bin @B@/touchfw-agent:/usr/local/libexec/touchfw/touchfw-agent
# vm-image: --file @B@/61-touchfw.rules:/usr/lib/udev/rules.d/61-touchfw.rules
# vm-image: --dir @B@/firmware-db:/usr/local/share/touchfw/firmware-db
# vm-image: --file @B@/keys/build-demo.pub:/usr/local/etc/touchfw/keys/build-demo.pub
# vm-image: --dtb tests/vm/modules/elants-emul/boards/qemu-elan-emul.dts:/usr/local/etc/touchfw/boards/qemu-elan-emul.dtb
#
# "kmod-touchfw-elan" (busybox init): the real Elan drivers judge touchfw's
# two Elan families in one boot.
#   - Touchscreen: the kernel's elants_i2c, which Debian does not build, is
#     built at test time from Debian's linux-source-6.1 (tests/vm/modules/
#     elants-i2c); elants_emul puts the eKTH model (hardware id 2a1c) with
#     an empty flash behind "touchfw emulated adapter 1" (client
#     "elants_i2c" at 0x10, reset line, interrupt).
#   - Touchpad: Debian's own elan_i2c; elantp_emul puts the touchpad model
#     (product id 19, firmware 5, application from page 496: the driver
#     writes 16 pages at 35 ms each, where product 18's 480 took 22 s
#     under TCG) behind "touchfw emulated adapter 2" (client "elan_i2c" at
#     0x15, interrupt).
# Both modules are loaded together, so the two runs overlap and share the
# firmware loader's path:
#   1. elants_i2c binds in recovery (iap_mode Recovery) with an input
#      device of zero range; elan_i2c binds on firmware 5;
#   2. the shipped rule runs touchfw handle-event on each bind; each run
#      stages the DB's blob under the name its driver computes
#      (elants_i2c_2a1c.bin, elan_i2c_19.0.bin), writes update_fw (the
#      write returns when the driver has flashed), rebinds (both drivers
#      keep their old input device) and verifies the version attributes
#      and the new input device;
#   3. the drivers' own accounts agree (kernel log), the models hold the
#      new firmware, nothing is left staged, the loader's path is back;
#   4. both chips again, their IAP failing midway: each driver's update_fw
#      write fails with EIO and the driver stays bound; touchfw rebinds
#      elants_i2c once (it stays in recovery without resetting the chip,
#      and its next update would not reset it either), whose probe resets
#      the chip into its boot code (iap_mode Recovery, hardware 2a1c), and
#      reports it left in recovery (exit 11, the next run flashes it), and
#      the next run does, once the fault passes; the touchpad's failed
#      update is exit 12, nothing rebound, the message naming the next run
#      as the way on; nothing is left staged;
#   5. the touchpad model again, without firmware (left in IAP), at 0x16,
#      where the profile's touchpad@16 is always-on and allows bus
#      recovery: elan_i2c's probe fails ("device initialize failed"), no
#      bind follows; the shipped rule runs handle-event on the add, the run
#      recovers it over i2c-dev (16 pages from IAP as found), binds
#      elan_i2c and verifies firmware_version 6.0 and the input device;
#   7. the touchpad on SMBus (elantp_emul smbus=1: an SMBus-only adapter
#      with Host Notify, the client as psmouse makes it), judged by
#      elan_i2c's SMBus transport alone (no profile slot there): it binds
#      (Module ID 0x0308, the unique id), update_fw flashes the 16 pages,
#      a page error leaves the part in IAP with the driver bound, a new
#      probe and the probe of a part in IAP fail at the hello packet;
#   8. touchfw on that touchpad at the profile's SMBus slots: the bind's
#      run flashes it through update_fw (5.0 -> 6.0); a touchpad left in
#      IAP at the slot that allows bus recovery is recovered by the add's
#      run over the real i2c-dev with SMBus block transfers, then bound;
#   no oops, no warning.  Figures: bind uevent -> verified input device,
#   per family; add uevent -> verified input device for the recovery.
. /vm/emul.sh
. /vm/elants-emul.sh
. /vm/elantp-emul.sh
ABS_MT_POSITION_X=53
ABS_MT_POSITION_Y=54

# elan_abs_max CODE: the maximum of an absolute axis of the current
# device's input device.
elan_abs_max() {
	evdev-query "/dev/input/$(emul_event)" abs "$1" | cut -d' ' -f2
}

elan_setup() {
	emul_setup && vm_modprobe "$ELANTS_DRIVER_MODULE"
}
ELANTS_DRIVER_MODULE=elants_i2c

elantp_use
vm_require "modules and debugfs (elan_i2c, and elants_i2c built from linux-source)" elan_setup
vm_log "elants_i2c: $(modinfo -F description elants_i2c) ($(modinfo -F filename elants_i2c))"
emul_touchfw_dirs
emul_udev_debug
emul_monitor_start
printf %s /vm/no-firmware-here >/sys/module/firmware_class/parameters/path
emul_dmesg_mark

# ---- 1. both chips, both drivers bind; each bind starts a run
vm_require "elants_emul loads (eKTH 2a1c at 0x10, empty flash)" elants_load fw_version=0
vm_require "elantp_emul loads (touchpad 19 at 0x15, firmware 5, application from page 496)" \
	elantp_load product_id=19 fw_version=5 iap_start_page=496
vm_log "touchscreen $elants_dev ($elants_devpath), touchpad $elantp_dev ($elantp_devpath)"

# Each run records its result after verifying (or failing); poll both and
# note when each appeared.
ts_done="" tp_done=""
elan_runs_done() {
	[ -n "$ts_done" ] || { [ -s "$TOUCHFW_STATE/$elants_dev.json" ] && ts_done=$(vm_now_us); }
	[ -n "$tp_done" ] || { [ -s "$TOUCHFW_STATE/$elantp_dev.json" ] && tp_done=$(vm_now_us); }
	[ -n "$ts_done" ] && [ -n "$tp_done" ] && ! pidof touchfw-agent touchfw >/dev/null
}
udevadm settle --timeout=60
vm_require "both runs end" vm_wait 120 "both touchfw runs" elan_runs_done

# ---- 2. the touchscreen, judged by elants_i2c
elants_use
vm_log "touchscreen result: $(emul_result)"
vm_check "elants_i2c bound the chip in recovery first: touchfw read iap_mode Recovery" \
	emul_log_has "elants_i2c reports recovery mode (no valid application); hardware 2a1c"
vm_check "result ok through update_fw" eval \
	'[ "$(emul_result_field result)" = ok ] && [ "$(emul_result_field path)" = update_fw ]'
vm_check "touchfw staged the DB's blob as elants_i2c_2a1c.bin" \
	emul_log_has "staged elants-2a1c-fw-5512 as /run/touchfw/firmware/elants_i2c_2a1c.bin"
vm_check "elants_i2c requested that file and flashed it (kernel log)" eval \
	'emul_dmesg_has "elants_i2c $elants_dev: requesting fw name = elants_i2c_2a1c.bin" &&
	 emul_dmesg_has "elants_i2c $elants_dev: firmware update completed"'
vm_check "elants_i2c is bound, iap_mode Normal, fw_version 5512, hw_version 2a1c" eval \
	'[ "$(emul_driver)" = elants_i2c ] && [ "$(cat "$EMUL_SYS/iap_mode")" = Normal ] &&
	 [ "$(cat "$EMUL_SYS/fw_version")" = 5512 ] && [ "$(cat "$EMUL_SYS/hw_version")" = 2a1c ]'
vm_check "the chip runs 5512, written in 64 pages in one IAP" eval \
	'[ "$(emul_state mode)" = normal ] && [ "$(emul_state fw_version)" = 5512 ] &&
	 [ "$(emul_state iap_entries)" = 1 ] && [ "$(emul_state pages_written)" = 64 ]'
vm_check "the input device is \"Elan Touchscreen\", axes 0..1920 x 0..1088" eval \
	'[ "$(cat "$EMUL_SYS/input/$(emul_input)/name")" = "Elan Touchscreen" ] &&
	 [ "$(elan_abs_max $ABS_MT_POSITION_X)" = 1920 ] && [ "$(elan_abs_max $ABS_MT_POSITION_Y)" = 1088 ]'
vm_check "touchfw verified that input device ($(emul_event))" \
	test "$(emul_result_field input)" = "$(emul_event)"
vm_check "the driver's bind, touchfw's rebind: two binds" test "$(emul_bind_count)" = 2
emul_figure_since_bind elants_bind_to_verified_input_ms "$ts_done"

# ---- 3. the touchpad, judged by elan_i2c
elantp_use
vm_log "touchpad result: $(emul_result)"
vm_check "elan_i2c bound the touchpad on firmware 5 (its own account)" \
	emul_dmesg_has "elan_i2c $elantp_dev: Elan Touchpad: Module ID: 0x0013, Firmware: 0x0005"
vm_check "result ok through update_fw, 5.0 -> 6.0" eval \
	'[ "$(emul_result_field result)" = ok ] && [ "$(emul_result_field path)" = update_fw ] &&
	 emul_log_has "verified: firmware 5.0 -> 6.0"'
vm_check "touchfw staged the DB's blob as elan_i2c_19.0.bin" \
	emul_log_has "staged elantp-19-fw-6.0 as /run/touchfw/firmware/elan_i2c_19.0.bin"
vm_check "elan_i2c bound again on firmware 6 (kernel log)" \
	emul_dmesg_has "elan_i2c $elantp_dev: Elan Touchpad: Module ID: 0x0013, Firmware: 0x0006"
vm_check "elan_i2c is bound, product_id 19, firmware_version 6.0" eval \
	'[ "$(emul_driver)" = elan_i2c ] && [ "$(cat "$EMUL_SYS/product_id")" = 19.0 ] &&
	 [ "$(cat "$EMUL_SYS/firmware_version")" = 6.0 ]'
vm_check "the touchpad runs 6, written in 16 pages in one IAP" eval \
	'[ "$(emul_state mode)" = main ] && [ "$(emul_state fw_version)" = 6 ] &&
	 [ "$(emul_state iap_entries)" = 1 ] && [ "$(emul_state pages_written)" = 16 ]'
vm_check "the input device is \"Elan Touchpad\", X 0..3052" eval \
	'[ "$(cat "$EMUL_SYS/input/$(emul_input)/name")" = "Elan Touchpad" ] &&
	 [ "$(elan_abs_max $ABS_MT_POSITION_X)" = 3052 ]'
vm_check "touchfw verified that input device ($(emul_event))" \
	test "$(emul_result_field input)" = "$(emul_event)"
vm_check "the driver's bind, touchfw's rebind: two binds" test "$(emul_bind_count)" = 2
emul_figure_since_bind elantp_bind_to_verified_input_ms "$tp_done"

# ---- 4. nothing left behind
vm_check "firmware_class.path is restored" \
	test "$(cat /sys/module/firmware_class/parameters/path)" = /vm/no-firmware-here
vm_check "nothing is left staged" eval \
	'[ -z "$(find "$TOUCHFW_STATE/firmware" -type f 2>/dev/null)" ]'
emul_monitor_stop
elants_use
vm_require "elants_emul unloads" emul_unload
elantp_use
vm_require "elantp_emul unloads" emul_unload

# ---- 5. the flash fails midway: the write to update_fw returns the
# driver's error, the driver stays bound; touchfw rebinds elants_i2c only
rm -rf "${TOUCHFW_STATE:?}"/*
emul_monitor_start
emul_dmesg_mark
vm_require "elants_emul loads again, its IAP refusing pages from the 10th on" \
	elants_load fw_version=0 nak_iap_page=10
vm_require "elantp_emul loads again, a page error from page 500 on" \
	elantp_load product_id=19 fw_version=5 iap_start_page=496 fail_page=500
ts_done="" tp_done=""
udevadm settle --timeout=60
vm_require "both runs end" vm_wait 120 "both touchfw runs" elan_runs_done
elants_use
vm_log "touchscreen result: $(emul_result)"
vm_check "elants_i2c: the IAP failed (EIO), the driver stays bound in recovery" eval \
	'emul_dmesg_has "elants_i2c $elants_dev: firmware update failed: -5" &&
	 [ "$(emul_driver)" = elants_i2c ] && [ "$(cat "$EMUL_SYS/iap_mode")" = Recovery ]'
vm_check "touchfw: the write returned EIO; one rebind; in recovery, the next run flashes it (exit 11)" eval \
	'[ "$(emul_result_field exit_code)" = 11 ] &&
	 emul_log_has "driver update failed: writing update_fw: Input/output error" &&
	 emul_log_has "rebinding it so that a new probe resets the chip" &&
	 emul_log_has "flashes it again" &&
	 [ "$(emul_bind_count)" = 2 ]'
vm_check "the new probe reset the chip into its boot code: recovery, 10 pages written, hw_version 2a1c" eval \
	'[ "$(emul_state mode)" = recovery ] && [ "$(emul_state pages_written)" = 10 ] &&
	 [ "$(cat "$EMUL_SYS/iap_mode")" = Recovery ] &&
	 [ "$(cat "$EMUL_SYS/hw_version")" = 2a1c ]'
# The fault passes; the next run (--force: past the back-off the message
# names) flashes the chip through the real driver's forced IAP.
echo -1 >/sys/kernel/debug/elants-emul/nak_iap_page
vm_check "the next run flashes it through elants_i2c in recovery: 5512, iap_mode Normal" eval \
	'"$TOUCHFW" run --force "$elants_dev" >/dev/null 2>&1 &&
	 [ "$(emul_state mode)" = normal ] && [ "$(emul_state fw_version)" = 5512 ] &&
	 [ "$(cat "$EMUL_SYS/iap_mode")" = Normal ] && [ "$(emul_state iap_entries)" = 2 ]'
elantp_use
vm_log "touchpad result: $(emul_result)"
vm_check "elan_i2c: the IAP reported a failed write (EIO), the driver stays bound (still saying 5.0)" eval \
	'emul_dmesg_has "elan_i2c $elantp_dev: firmware update failed: -5" &&
	 [ "$(emul_driver)" = elan_i2c ] && [ "$(cat "$EMUL_SYS/firmware_version")" = 5.0 ]'
vm_check "touchfw: the write returned EIO, an interruption (exit 12), no rebind" eval \
	'[ "$(emul_result_field exit_code)" = 12 ] &&
	 emul_log_has "driver update failed: writing update_fw: Input/output error" &&
	 emul_log_has "an interruption, not a rejection of elantp-19-fw-6.0" &&
	 emul_log_has "so the next .touchfw run $elantp_dev. tries again; do not unbind elan_i2c" &&
	 [ "$(emul_bind_count)" = 1 ]'
vm_check "the touchpad is left in IAP (4 pages written)" eval \
	'[ "$(emul_state mode)" = iap ] && [ "$(emul_state pages_written)" = 4 ]'
vm_check "nothing is left staged" eval \
	'[ -z "$(find "$TOUCHFW_STATE/firmware" -type f 2>/dev/null)" ]'
emul_monitor_stop
elants_use
vm_check "elants_emul unloads" emul_unload
elantp_use
vm_check "elantp_emul unloads" emul_unload

# ---- 6. a touchpad left in IAP: elan_i2c's probe fails, no bind follows;
# its add uevent starts a run that recovers it over i2c-dev (the profile's
# touchpad@16 is always-on and allows bus recovery), binds elan_i2c and
# verifies
rm -rf "${TOUCHFW_STATE:?}"/*
emul_monitor_start
emul_dmesg_mark
vm_require "elantp_emul loads (touchpad 19 at 0x16, no firmware: left in IAP)" \
	elantp_load addr=0x16 product_id=19 fw_version=0 iap_start_page=496
vm_log "touchpad in IAP: $elantp_dev ($elantp_devpath)"
tp_done=""
elan_recovery_done() {
	emul_run_done && tp_done=$(vm_now_us)
}
udevadm settle --timeout=60
vm_require "the run ends" vm_wait 60 "the recovery run" elan_recovery_done
vm_log "touchpad result: $(emul_result)"
vm_check "elan_i2c's probe failed on the touchpad in IAP (kernel log)" \
	emul_dmesg_has "elan_i2c $elantp_dev: device initialize failed: -5"
vm_check "the add uevent started the run (no bind came before it)" eval \
	'emul_log_has "^touchfw: $elantp_dev: device " && [ "$(emul_runs)" = 1 ]'
vm_check "touchfw found it in IAP at 0x16 and flashed elantp-19-fw-6.0 there" eval \
	'emul_log_has "IAP mode at 0x16" &&
	 emul_log_has "flashing elantp-19-fw-6.0 (6.0) at bootloader address 0x16"'
vm_check "result ok through the bootloader, (bootloader) -> 6.0" eval \
	'[ "$(emul_result_field result)" = ok ] && [ "$(emul_result_field path)" = bootloader ] &&
	 emul_log_has "verified: firmware (bootloader) -> 6.0"'
vm_check "the touchpad runs 6, its 16 pages written from IAP as found" eval \
	'[ "$(emul_state mode)" = main ] && [ "$(emul_state fw_version)" = 6 ] &&
	 [ "$(emul_state iap_entries)" = 0 ] && [ "$(emul_state pages_written)" = 16 ] &&
	 [ "$(emul_state page_errors)" = 0 ]'
vm_check "elan_i2c bound it on firmware 6 (kernel log), one bind: touchfw's" eval \
	'emul_dmesg_has "elan_i2c $elantp_dev: Elan Touchpad: Module ID: 0x0013, Firmware: 0x0006" &&
	 [ "$(emul_driver)" = elan_i2c ] && [ "$(emul_bind_count)" = 1 ]'
vm_check "elan_i2c says product_id 19, firmware_version 6.0" eval \
	'[ "$(cat "$EMUL_SYS/product_id")" = 19.0 ] && [ "$(cat "$EMUL_SYS/firmware_version")" = 6.0 ]'
vm_check "the input device is \"Elan Touchpad\", X 0..3052, the one touchfw verified" eval \
	'[ "$(cat "$EMUL_SYS/input/$(emul_input)/name")" = "Elan Touchpad" ] &&
	 [ "$(elan_abs_max $ABS_MT_POSITION_X)" = 3052 ] &&
	 [ "$(emul_result_field input)" = "$(emul_event)" ]'
_add=$(emul_add_us)
[ -z "$_add" ] || vm_figure elantp_add_to_verified_input_ms "$(vm_us_to_ms $((tp_done - _add)))" ms
emul_monitor_stop
vm_check "elantp_emul unloads" emul_unload
# ---- 7. the touchpad on SMBus, judged by elan_i2c in its SMBus mode:
# elantp_emul smbus=1 puts the model, speaking elan_i2c_smbus's commands,
# behind an SMBus-only adapter with Host Notify ("touchfw emulated adapter
# 3": no profile slot there, so touchfw's runs leave it alone) and makes
# the client as psmouse does; without I2C_FUNC_I2C elan_i2c takes
# elan_smbus_ops.  Its bind, update_fw (the file staged by hand), a page
# error midway, and a touchpad in IAP.
ELANTP_ADAPTER="touchfw emulated adapter 3"
smb_fw=/tmp/elantp-smbus-fw
mkdir -p "$smb_fw"
cp /usr/local/share/touchfw/firmware-db/elantp/elantp-776-fw-6.0.bin "$smb_fw/elan_i2c_776.0.bin"
printf %s "$smb_fw" >/sys/module/firmware_class/parameters/path
elan_smbus_bound() { [ "$(emul_driver)" = elan_i2c ] && [ -n "$(emul_input)" ]; }
emul_dmesg_mark
vm_require "elantp_emul loads on SMBus (product 776, firmware 5, application from page 496)" \
	elantp_load smbus=1 product_id=776 fw_version=5 iap_start_page=496
vm_log "SMBus touchpad $elantp_dev ($elantp_devpath)"
vm_require "elan_i2c binds it" vm_wait 30 "elan_i2c on the SMBus touchpad" elan_smbus_bound
vm_check "elan_i2c's SMBus account: Module ID 0x0308 (the unique id), Firmware 5, Sample 3" \
	emul_dmesg_has "elan_i2c $elantp_dev: Elan Touchpad: Module ID: 0x0308, Firmware: 0x0005, Sample: 0x0003, IAP: 0x0000"
vm_check "the attributes are as over i2c: product_id 776.0, firmware_version 5.0, sample_version 3.0" eval \
	'[ "$(cat "$EMUL_SYS/product_id")" = 776.0 ] && [ "$(cat "$EMUL_SYS/firmware_version")" = 5.0 ] &&
	 [ "$(cat "$EMUL_SYS/sample_version")" = 3.0 ] && [ "$(cat "$EMUL_SYS/iap_version")" = 0.0 ]'
vm_check "the model speaks SMBus, in main mode" eval \
	'[ "$(emul_state transport)" = smbus ] && [ "$(emul_state mode)" = main ]'
vm_check "the input device is \"Elan Touchpad\", X 0..3052" eval \
	'[ "$(cat "$EMUL_SYS/input/$(emul_input)/name")" = "Elan Touchpad" ] &&
	 [ "$(elan_abs_max $ABS_MT_POSITION_X)" = 3052 ]'
vm_check "update_fw over SMBus: the write succeeds" eval 'echo 1 >"$EMUL_SYS/update_fw"'
vm_check "elan_i2c requested elan_i2c_776.0.bin (kernel log)" \
	emul_dmesg_has "elan_i2c $elantp_dev: requesting fw 'elan_i2c_776.0.bin'"
vm_check "firmware_version 6.0; the model runs 6, 16 pages in one IAP, no page error" eval \
	'[ "$(cat "$EMUL_SYS/firmware_version")" = 6.0 ] && [ "$(emul_state mode)" = main ] &&
	 [ "$(emul_state fw_version)" = 6 ] && [ "$(emul_state iap_entries)" = 1 ] &&
	 [ "$(emul_state pages_written)" = 16 ] && [ "$(emul_state page_errors)" = 0 ]'
vm_check "elan_i2c keeps its input device" elan_smbus_bound
vm_check "elantp_emul unloads" emul_unload

emul_dmesg_mark
vm_require "elantp_emul loads on SMBus again, a page error from page 500 on" \
	elantp_load smbus=1 product_id=776 fw_version=5 iap_start_page=496 fail_page=500
vm_require "elan_i2c binds it" vm_wait 30 "elan_i2c on the SMBus touchpad" elan_smbus_bound
vm_check "update_fw fails (EIO): the IAP reported the failed write, elan_i2c reset the IAP" eval \
	'! echo 1 >"$EMUL_SYS/update_fw" 2>/dev/null &&
	 emul_dmesg_has "elan_i2c $elantp_dev: IAP reports failed write" &&
	 emul_dmesg_has "elan_i2c $elantp_dev: firmware update failed: -5"'
vm_check "elan_i2c stays bound, still saying 5.0; the touchpad is in IAP (4 pages written)" eval \
	'[ "$(emul_driver)" = elan_i2c ] && [ "$(cat "$EMUL_SYS/firmware_version")" = 5.0 ] &&
	 [ "$(emul_state mode)" = iap ] && [ "$(emul_state pages_written)" = 4 ]'
echo "$elantp_dev" >/sys/bus/i2c/drivers/elan_i2c/unbind
echo "$elantp_dev" >/sys/bus/i2c/drivers/elan_i2c/bind 2>/dev/null
vm_check "a new probe fails at the hello packet: no driver" eval \
	'emul_dmesg_has "elan_i2c $elantp_dev: hello packet length fail: -5" &&
	 emul_dmesg_has "elan_i2c $elantp_dev: device initialize failed: -5" &&
	 [ -z "$(emul_driver)" ]'
vm_check "elantp_emul unloads" emul_unload

emul_dmesg_mark
vm_require "elantp_emul loads on SMBus without firmware (left in IAP)" \
	elantp_load smbus=1 product_id=776 fw_version=0 iap_start_page=496
elan_smbus_probe_failed() { emul_dmesg_has "elan_i2c $elantp_dev: device initialize failed"; }
vm_check "elan_i2c's probe fails on it (hello packet) and no driver stays" eval \
	'vm_wait 30 "the failing probe" elan_smbus_probe_failed &&
	 emul_dmesg_has "elan_i2c $elantp_dev: hello packet length fail: -5" &&
	 sleep 1 && [ -z "$(emul_driver)" ] && [ "$(emul_state mode)" = iap ]'
vm_check "elantp_emul unloads" emul_unload
printf %s /vm/no-firmware-here >/sys/module/firmware_class/parameters/path

# ---- 8. touchfw on the SMBus touchpad ("touchfw emulated adapter 4",
# the profile's touchpad-smbus slots): at 0x17 on firmware 5 the bind's run
# flashes it through elan_i2c's update_fw; at 0x18 left in IAP (always-on,
# allow-bus-recovery) the add's run recovers it over the real i2c-dev with
# SMBus block transfers as elan_i2c_smbus does, then binds elan_i2c
ELANTP_ADAPTER="touchfw emulated adapter 4"
rm -rf "${TOUCHFW_STATE:?}"/*
emul_monitor_start
emul_dmesg_mark
vm_require "elantp_emul loads on SMBus at a profile slot (product 776, firmware 5)" \
	elantp_load smbus=1 addr=0x17 product_id=776 fw_version=5 iap_start_page=496
udevadm settle --timeout=60
vm_require "the run ends" vm_wait 60 "the SMBus touchpad's run" emul_run_done
vm_log "SMBus touchpad result: $(emul_result)"
vm_check "touchfw read elan_i2c's attributes on SMBus: hardware 776, firmware 5.0" \
	emul_log_has "application mode: hardware 776, firmware 5.0"
vm_check "result ok through update_fw, 5.0 -> 6.0, elan_i2c_776.0.bin staged" eval \
	'[ "$(emul_result_field result)" = ok ] && [ "$(emul_result_field path)" = update_fw ] &&
	 emul_log_has "verified: firmware 5.0 -> 6.0" &&
	 emul_log_has "staged elantp-776-fw-6.0 as /run/touchfw/firmware/elan_i2c_776.0.bin"'
vm_check "elan_i2c bound again on firmware 6 over SMBus (kernel log); the model runs 6, 16 pages" eval \
	'emul_dmesg_has "elan_i2c $elantp_dev: Elan Touchpad: Module ID: 0x0308, Firmware: 0x0006" &&
	 [ "$(emul_state fw_version)" = 6 ] && [ "$(emul_state pages_written)" = 16 ]'
emul_monitor_stop
vm_check "elantp_emul unloads" emul_unload

rm -rf "${TOUCHFW_STATE:?}"/*
emul_monitor_start
emul_dmesg_mark
vm_require "elantp_emul loads on SMBus at 0x18 without firmware (left in IAP)" \
	elantp_load smbus=1 addr=0x18 product_id=776 fw_version=0 iap_start_page=496
udevadm settle --timeout=60
vm_require "the run ends" vm_wait 60 "the SMBus recovery run" emul_run_done
vm_log "SMBus touchpad result: $(emul_result)"
vm_check "elan_i2c's probe failed on it (hello packet; kernel log)" \
	emul_dmesg_has "elan_i2c $elantp_dev: hello packet length fail: -5"
vm_check "touchfw found it in IAP on SMBus and flashed elantp-776-fw-6.0 at 0x18" eval \
	'emul_log_has "IAP mode at 0x18 on SMBus" &&
	 emul_log_has "flashing elantp-776-fw-6.0 (6.0) at bootloader address 0x18"'
vm_check "result ok through the bootloader, (bootloader) -> 6.0" eval \
	'[ "$(emul_result_field result)" = ok ] && [ "$(emul_result_field path)" = bootloader ] &&
	 emul_log_has "verified: firmware (bootloader) -> 6.0"'
vm_check "the touchpad runs 6, 16 pages from IAP as found, no page error" eval \
	'[ "$(emul_state mode)" = main ] && [ "$(emul_state fw_version)" = 6 ] &&
	 [ "$(emul_state iap_entries)" = 0 ] && [ "$(emul_state pages_written)" = 16 ] &&
	 [ "$(emul_state page_errors)" = 0 ]'
vm_check "elan_i2c bound it on firmware 6 over SMBus, product_id 776.0, firmware_version 6.0" eval \
	'emul_dmesg_has "elan_i2c $elantp_dev: Elan Touchpad: Module ID: 0x0308, Firmware: 0x0006" &&
	 [ "$(emul_driver)" = elan_i2c ] && [ "$(cat "$EMUL_SYS/product_id")" = 776.0 ] &&
	 [ "$(cat "$EMUL_SYS/firmware_version")" = 6.0 ]'
vm_check "touchfw verified its input device" \
	test "$(emul_result_field input)" = "$(emul_event)"
emul_monitor_stop
vm_check "elantp_emul unloads" emul_unload
ELANTP_ADAPTER="touchfw emulated adapter 2"

vm_check "no oops, no warning (taint D, W; kernel log)" vm_no_oops
