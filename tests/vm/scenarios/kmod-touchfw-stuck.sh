# SPDX-License-Identifier: GPL-2.0-or-later
# vm-build-module: mxt-emul
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --file tests/vm/modules/mxt-emul/guest.sh:/vm/mxt-emul.sh
# vm-image: --bin @B@/touchfw:/usr/local/bin/touchfw
# vm-image: --bin @B@/touchfw-agent:/usr/local/libexec/touchfw/touchfw-agent
# vm-image: --file @B@/61-touchfw.rules:/usr/lib/udev/rules.d/61-touchfw.rules
# vm-image: --dir @B@/firmware-db:/usr/local/share/touchfw/firmware-db
# vm-image: --file @B@/keys/build-demo.pub:/usr/local/etc/touchfw/keys/build-demo.pub
# vm-image: --dtb tests/vm/modules/mxt-emul/boards/qemu-mxt-emul-always-on.dts:/usr/local/etc/touchfw/boards/qemu-mxt-emul.dtb
#
# "kmod-touchfw-stuck" (busybox init): a chip whose bootloader never
# starts the application (mxt_emul stuck_in_bootloader=1), behind the real
# atmel_mxt_ts.  The run flashes the whole image, sees the bootloader still
# answering, and fails with a clear error (left-in-bootloader) and no
# rebind of its own; with max_attempts = 1 that was the last attempt, so
# handle-event refuses every further bind ("gave up"): one run, no loop.
# (kmod-touchfw-faults shows a second attempt succeeding.)
. /vm/mxt-emul.sh

vm_require "modules and debugfs" emul_setup
emul_touchfw_dirs
emul_udev_debug
emul_monitor_start
vm_require "mxt_emul loads (stuck in its bootloader)" emul_load stuck_in_bootloader=1
vm_check "the driver binds without input device" eval \
	'[ "$(emul_driver)" = atmel_mxt_ts ] && [ -z "$(emul_input)" ]'
vm_require "the first run ends" emul_wait_run 60
vm_log "result: $(emul_result)"
vm_check "it failed clearly: left-in-bootloader (exit 11), the new firmware did not start" eval \
	'[ "$(emul_result_field result)" = left-in-bootloader ] &&
		[ "$(emul_result_field exit_code)" = 11 ] &&
		emul_result_has "did not start the new firmware"'
vm_check "the chip took the whole image and stayed in its bootloader" eval \
	'[ "$(emul_state images_completed)" = 1 ] && [ "$(emul_state mode)" = bootloader ]'
vm_figure stuck_run_ms "$(emul_result_field duration_ms)" ms
vm_check "touchfw did not rebind" test "$(emul_bind_count)" = 1

vm_check "touchfw gives up on the device after attempt 1 of 1" \
	emul_log_has "attempt 1 of 1 failed: giving up on this device"

emul_dmesg_mark
vm_require "the driver's next bind" emul_rebind
udevadm settle --timeout=60
vm_check "handle-event refuses it: gave up" eval \
	'emul_handle_event_lines | grep -q "bind: not updating: gave up after 1 failed attempt"'
# udevadm settle above: every event's handle-event has run, and a run one
# of them handed over would be a touchfw process now, or in the log.
vm_check "no second run, the chip untouched" eval \
	'[ "$(emul_runs)" = 1 ] && [ "$(emul_state images_completed)" = 1 ] && ! pidof touchfw-agent'
vm_check "two bind uevents in all, both the driver's: no loop" test "$(emul_bind_count)" = 2
status=$("$TOUCHFW" status 2>&1)
vm_log "touchfw status: $(echo "$status" | tr '\n' '|')"
vm_check "touchfw status shows the failed attempt" eval 'echo "$status" | grep -q "attempts: 1 failed"'
emul_monitor_stop
vm_check "mxt_emul unloads" emul_unload
vm_check "no oops, no warning (taint D, W; kernel log)" vm_no_oops
