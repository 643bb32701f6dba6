# SPDX-License-Identifier: GPL-2.0-or-later
# vm-build-module: mxt-emul
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --file tests/vm/modules/mxt-emul/guest.sh:/vm/mxt-emul.sh
# vm-image: --file @B@/firmware-db/mxt224e/fw-2.1.AB.fw:/vm/fw/maxtouch.fw
#
# "kmod-driver-update" (busybox init): Debian's atmel_mxt_ts flashes the
# chip model itself.  A chip without a valid image: the driver binds but
# finds only the bootloader ("Could not recover from bootloader mode") and
# registers no input device.  update_fw with a fwgen image as maxtouch.fw
# in firmware_class.path: from that chip (mxt_load_fw's in_bootloader
# path) and from an app-mode chip at 1.0.AA (T6 reset into the bootloader
# first); a frame CRC failure is retried and the update succeeds; a chip
# failing every frame makes the write fail after the driver's 20 retries
# and stays in its bootloader.  fw_version is read only where the driver
# has an info block (it oopses otherwise).
. /vm/mxt-emul.sh

vm_require "modules and debugfs" emul_setup
# No newline: 6.1 would keep it as part of the path.
printf /vm/fw >/sys/module/firmware_class/parameters/path
emul_monitor_start

# update_fw; sets update_rc and update_ms.
update_fw() {
	_t0=$(vm_now_us)
	echo 1 >"$EMUL_SYS/update_fw"
	update_rc=$? # the write(2) status: echo fails when update_fw does
	update_ms=$(vm_us_to_ms $(($(vm_now_us) - _t0)))
	vm_log "update_fw: status $update_rc after $update_ms ms"
}

# ---- a chip without a valid image
emul_dmesg_mark
vm_require "mxt_emul loads (mxt224e, no valid image)" emul_load state=noimage
vm_check "atmel_mxt_ts is bound anyway" test "$(emul_driver)" = atmel_mxt_ts
vm_check "it found the bootloader at 0x24, APP_CRC_FAIL" \
	emul_dmesg_has "Detected bootloader, status:4A, APP_CRC_FAIL"
vm_check "it could not recover from bootloader mode" \
	emul_dmesg_has "Could not recover from bootloader mode"
vm_check "a bind uevent was sent" test "$(emul_bind_count)" = 1
sleep 0.5
vm_check "there is no input device" test -z "$(emul_input)"
vm_check "update_fw exists" test -f "$EMUL_SYS/update_fw"
vm_check "the chip is in its bootloader without an application" eval \
	'[ "$(emul_state mode)" = bootloader ] && [ "$(emul_state app_valid)" = 0 ]'

emul_dmesg_mark
update_fw
vm_figure update_fw_from_bootloader_ms "$update_ms" ms
vm_check "update_fw from the bootloader succeeds" test "$update_rc" = 0
vm_check "the driver says so" emul_dmesg_has "The firmware update succeeded"
vm_check "it re-read the info block: V2.1.AB" emul_dmesg_has "Family: 129 Variant: 1 Firmware V2.1.AB"
vm_check "the new input device appears" vm_wait 10 "input device" emul_has_input
vm_check "fw_version reads 2.1.AB" test "$(cat "$EMUL_SYS/fw_version")" = 2.1.AB
vm_check "the chip completed one image, every frame passed first time" eval \
	'[ "$(emul_state images_completed)" = 1 ] && [ "$(emul_state frames_failed)" = 0 ]'
vm_require "mxt_emul unloads" emul_unload

# ---- an app-mode chip at 1.0.AA
emul_dmesg_mark
vm_require "mxt_emul loads (mxt224e, app mode, 1.0.AA)" emul_load fw_version=1.0.AA
# update_fw does not wait for the asynchronous config callback: written
# before the input device exists, it races the callback's soft reset.
vm_require "the input device appears" vm_wait 10 "input device" emul_has_input
old_input=$(emul_input)
vm_check "fw_version reads 1.0.AA" test "$(cat "$EMUL_SYS/fw_version")" = 1.0.AA
update_fw
vm_figure update_fw_from_app_ms "$update_ms" ms
vm_check "update_fw from application mode succeeds" test "$update_rc" = 0
vm_check "the new input device appears" vm_wait 10 "input device" emul_has_input
vm_check "it is a new one ($old_input -> $(emul_input))" test "$(emul_input)" != "$old_input"
vm_check "fw_version reads 2.1.AB" test "$(cat "$EMUL_SYS/fw_version")" = 2.1.AB
vm_check "the chip entered its bootloader by T6 reset, once" test "$(emul_state bootloader_entries)" = 1
vm_check "no i2c error" eval '! emul_dmesg | grep -q "i2c transfer failed\|i2c send failed\|i2c recv failed"'
vm_require "mxt_emul unloads" emul_unload

# ---- frame 3 fails its CRC check twice
emul_dmesg_mark
vm_require "mxt_emul loads (frame 3 fails twice)" emul_load crc_fail_frame=3 crc_fail_times=2
vm_require "the input device appears" vm_wait 10 "input device" emul_has_input
update_fw
vm_check "update_fw succeeds" test "$update_rc" = 0
vm_check "the driver saw two frame CRC failures" \
	test "$(emul_dmesg | grep -c "Bootloader CRC fail")" = 2
vm_check "the chip refused the frame twice and completed the image" eval \
	'[ "$(emul_state frames_failed)" = 2 ] && [ "$(emul_state images_completed)" = 1 ]'
vm_check "fw_version reads 2.1.AB" eval \
	'vm_wait 10 "input device" emul_has_input && [ "$(cat "$EMUL_SYS/fw_version")" = 2.1.AB ]'
vm_require "mxt_emul unloads" emul_unload

# ---- every frame fails
emul_dmesg_mark
vm_require "mxt_emul loads (every frame fails)" emul_load crc_fail_always=1
vm_require "the input device appears" vm_wait 10 "input device" emul_has_input
update_fw
vm_figure update_fw_crc_fail_always_ms "$update_ms" ms
vm_check "update_fw fails" test "$update_rc" != 0
vm_check "after the driver's retries: Retry count exceeded" emul_dmesg_has "Retry count exceeded"
vm_check "it reports the failure" emul_dmesg_has "The firmware update failed(-22)"
vm_check "the first frame was refused 21 times (20 retries)" test "$(emul_state frames_failed)" = 21
vm_check "the chip is left in its bootloader" test "$(emul_state mode)" = bootloader
vm_check "no input device" test -z "$(emul_input)"
emul_monitor_stop
vm_check "mxt_emul unloads" emul_unload
vm_check "no oops, no warning (taint D, W; kernel log)" vm_no_oops
