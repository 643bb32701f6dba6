# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernels: 6.12
# vm-build-module: mxt-emul
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --file tests/vm/modules/mxt-emul/guest.sh:/vm/mxt-emul.sh
# vm-image: --bin @B@/touchfw:/usr/local/bin/touchfw
# vm-image: --bin @B@/touchfw-agent:/usr/local/libexec/touchfw/touchfw-agent
# vm-image: --file @B@/61-touchfw.rules:/usr/lib/udev/rules.d/61-touchfw.rules
# vm-image: --dir @B@/firmware-db:/usr/local/share/touchfw/firmware-db
# vm-image: --file @B@/keys/build-demo.pub:/usr/local/etc/touchfw/keys/build-demo.pub
# vm-image: --dtb tests/vm/modules/mxt-emul/boards/qemu-mxt-emul-driver.dts:/vm/boards/driver.dtb
# vm-image: --dtb tests/vm/modules/mxt-emul/boards/qemu-mxt-emul-always-on.dts:/vm/boards/always-on.dtb
#
# "kmod-touchfw-faults" (busybox init): faults injected through mxt_emul's
# parameters, with the real atmel_mxt_ts and real bind uevents.  Power
# lost after frame 50 of a bootloader flash (driver bound): the chip comes
# back in its bootloader without an image, touchfw records a clear
# failure and rebinds nothing; the driver's next bind (here a rebind)
# brings the second attempt (backoff_s = 0, max_attempts = 2), which
# flashes the whole image and verifies the input device.  A frame whose
# CRC check fails twice (unbind + flash with CHG watched): touchfw resends
# it and the update succeeds.  Then (was kmod-touchfw-stuck) a chip whose
# bootloader never starts the application (stuck_in_bootloader=1), with
# max_attempts = 1 as if after a reboot: the run flashes the whole image,
# sees the bootloader still answering, and fails with a clear error
# (left-in-bootloader) and no rebind of its own; that was the last attempt,
# so handle-event refuses every further bind ("gave up"): one run, no loop.
. /vm/mxt-emul.sh

vm_require "modules and debugfs" emul_setup
emul_touchfw_dirs
emul_udev_debug

# ---- power loss mid-flash
emul_use_profile driver
emul_monitor_start
vm_require "mxt_emul loads (no valid image, power lost after frame 50)" \
	emul_load state=noimage power_loss_after=50
vm_require "the first run ends" emul_wait_run 60
vm_log "result: $(emul_result)"
vm_check "it failed clearly: left-in-bootloader (exit 11), the bootloader restarted at frame 50" eval \
	'[ "$(emul_result_field result)" = left-in-bootloader ] &&
		[ "$(emul_result_field exit_code)" = 11 ] &&
		emul_result_has "the bootloader restarted at frame 50"'
vm_check "the chip lost power once and is in its bootloader without an image" eval \
	'[ "$(emul_state power_losses)" = 1 ] && [ "$(emul_state mode)" = bootloader ] &&
		[ "$(emul_state app_valid)" = 0 ]'
vm_check "touchfw did not rebind: one bind uevent, the driver's" test "$(emul_bind_count)" = 1
vm_check "touchfw status counts 1 failed attempt" eval \
	'"$TOUCHFW" status 2>&1 | grep -q "attempts: 1 failed"'
vm_check "no input device" test -z "$(emul_input)"
emul_dmesg_mark
vm_require "the driver's next bind" emul_rebind
vm_check "the driver again finds only the bootloader" \
	emul_dmesg_has "Could not recover from bootloader mode"
vm_require "the second run ends" emul_wait_run 60
t_done=$(vm_now_us)
vm_check "handle-event handed that bind over (attempt 2 of 2 allowed)" eval \
	'emul_handle_event_lines | grep -q "bind (driver atmel_mxt_ts): handed to detached process"'
vm_log "result: $(emul_result)"
vm_check "the second attempt succeeded: ok, 2.1.AB, the whole image" eval \
	'[ "$(emul_result_field result)" = ok ] && [ "$(emul_result_field version_after)" = 2.1.AB ] &&
		[ "$(emul_result_field frames)" = 194 ] && [ "$(emul_state images_completed)" = 1 ]'
vm_check "the driver registered the input device and reads 2.1.AB" eval \
	'emul_has_input && [ "$(cat "$EMUL_SYS/fw_version")" = 2.1.AB ]'
vm_check "two runs in all" test "$(emul_runs)" = 2
emul_figure_since_bind recovery_bind_uevent_to_verified_input_ms "$t_done" 2
vm_check "the failed attempt is forgotten after success" eval \
	'! "$TOUCHFW" status 2>&1 | grep -q "attempts: [1-9]"'
emul_monitor_stop
vm_require "mxt_emul unloads" emul_unload

# ---- a frame CRC failure, twice
emul_use_profile always-on
rm -rf "${TOUCHFW_STATE:?}"/* # another boot (see kmod-touchfw-update)
vm_require "mxt_emul loads (application 1.0.AA, frame 5 fails its CRC twice)" \
	emul_load fw_version=1.0.AA crc_fail_frame=5 crc_fail_times=2
vm_require "the run ends" emul_wait_run 60
vm_log "result: $(emul_result)"
vm_check "ok through unbind + flash, with 2 retries" eval \
	'[ "$(emul_result_field result)" = ok ] && [ "$(emul_result_field path)" = unbind ] &&
		[ "$(emul_result_field retries)" = 2 ]'
vm_check "the chip refused the frame twice, then took the whole image" eval \
	'[ "$(emul_state frames_failed)" = 2 ] && [ "$(emul_state images_completed)" = 1 ]'
vm_check "the driver reads fw_version 2.1.AB, input device verified" eval \
	'emul_has_input && [ "$(cat "$EMUL_SYS/fw_version")" = 2.1.AB ] &&
		[ "$(emul_result_field input)" = "$(emul_event)" ]'
vm_log "what udevd's RUN program said:"
emul_handle_event_lines
vm_require "mxt_emul unloads" emul_unload

# ---- a bootloader that never starts the application (one attempt only)
rm -rf "${TOUCHFW_STATE:?}"/* # another boot, with other settings
sed 's/^max_attempts = .*/max_attempts = 1/' /usr/local/etc/touchfw/touchfw.conf >/run/touchfw.conf &&
	cat /run/touchfw.conf >/usr/local/etc/touchfw/touchfw.conf
vm_require "settings: max_attempts = 1" grep -qx "max_attempts = 1" /usr/local/etc/touchfw/touchfw.conf
emul_monitor_start
emul_dmesg_mark
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
