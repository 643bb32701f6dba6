# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernels: 6.1 6.12
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
# "kmod-touchfw-update" (busybox init): outdated application firmware
# (1.0.AA, the DB has 2.1.AB) on the real atmel_mxt_ts, both ways touchfw
# updates it.  Board profile with power "driver": touchfw stages the blob
# as maxtouch.fw, points firmware_class.path at it, and the real driver
# flashes through update_fw; the config goes the same way as maxtouch.cfg
# on a rebind; the path is restored.  Profile with power "always-on" and
# mxt_emul's GPIO lines: touchfw unbinds, pulses reset, flashes over
# i2c-dev with CHG watched through libgpiod, writes the config and
# rebinds.  Both read the new version back through the driver.  Prints
# bind uevent -> verified input device for each.  Then the bring-up tools
# against the real kernel: board identify --live (GPIO lines looked up
# through libgpiod), chip info, save-config written back as a no-op.
. /vm/mxt-emul.sh

vm_require "modules and debugfs" emul_setup
emul_touchfw_dirs
emul_udev_debug
emul_monitor_start

# ---- power "driver": through the driver's update_fw
emul_use_profile driver
printf /vm/no-firmware-here >/sys/module/firmware_class/parameters/path
emul_dmesg_mark
vm_require "mxt_emul loads (mxt224e, application 1.0.AA)" emul_load fw_version=1.0.AA
vm_require "the run ends" emul_wait_run 60
t_done=$(vm_now_us)
vm_log "result: $(emul_result)"
vm_check "result ok through update_fw, 1.0.AA -> 2.1.AB" eval \
	'[ "$(emul_result_field result)" = ok ] && [ "$(emul_result_field path)" = update_fw ] &&
		[ "$(emul_result_field version_before)" = 1.0.AA ] &&
		[ "$(emul_result_field version_after)" = 2.1.AB ]'
vm_check "the real driver flashed it" emul_dmesg_has "atmel_mxt_ts $EMUL_DEV: The firmware update succeeded"
vm_check "from the maxtouch.fw touchfw staged" emul_log_has "staged mxt224e-fw-2.1.AB as .*/maxtouch.fw"
vm_check "the chip entered its bootloader once (the driver's T6 reset) and took one image" eval \
	'[ "$(emul_state bootloader_entries)" = 1 ] && [ "$(emul_state images_completed)" = 1 ]'
vm_check "the driver applied the staged maxtouch.cfg on the rebind" \
	emul_dmesg_has "atmel_mxt_ts $EMUL_DEV: Config successfully updated"
vm_check "config CRC 0xE67ACA in the chip's RAM and NVM" eval \
	'[ "$(emul_state config_crc)" = 0xE67ACA ] && [ "$(emul_state nvm_config_crc)" = 0xE67ACA ]'
vm_check "firmware_class.path is restored" \
	test "$(cat /sys/module/firmware_class/parameters/path)" = /vm/no-firmware-here
vm_check "nothing is left staged" eval '[ -z "$(ls "$TOUCHFW_STATE/firmware" 2>/dev/null)" ]'
vm_check "the driver reads fw_version 2.1.AB" test "$(cat "$EMUL_SYS/fw_version")" = 2.1.AB
vm_check "touchfw verified the input device the driver registered ($(emul_event))" eval \
	'emul_has_input && [ "$(emul_result_field input)" = "$(emul_event)" ]'
emul_figure_since_bind update_fw_bind_uevent_to_verified_input_ms "$t_done"
vm_check "one run" test "$(emul_runs)" = 1
vm_require "mxt_emul unloads" emul_unload

# ---- power "always-on": unbind, flash over i2c-dev, CHG through libgpiod
emul_use_profile always-on
emul_monitor_stop
emul_monitor_start
# Another boot, as far as touchfw is concerned.  Without this, the
# "verified up to date" marker of the first chip (keyed by the device name
# alone, 0-004a) makes handle-event skip this new chip at 1.0.AA whenever
# the driver's input device registers before handle-event looks.
rm -rf "${TOUCHFW_STATE:?}"/*
emul_dmesg_mark
vm_require "mxt_emul loads (mxt224e, application 1.0.AA)" emul_load fw_version=1.0.AA
vm_require "the run ends" emul_wait_run 60
t_done=$(vm_now_us)
vm_log "result: $(emul_result)"
vm_check "result ok through unbind + flash, 1.0.AA -> 2.1.AB" eval \
	'[ "$(emul_result_field result)" = ok ] && [ "$(emul_result_field path)" = unbind ] &&
		[ "$(emul_result_field version_after)" = 2.1.AB ]'
vm_check "it unbound the driver, pulsed reset on the GPIO line, entered the bootloader" eval \
	'emul_log_has "unbinding atmel_mxt_ts (power is always on)" &&
		emul_log_has "reset pulse on the profile.s reset line" &&
		emul_log_has "entering the bootloader (T6 reset 0xA5)"'
vm_check "it flashed over i2c-dev watching CHG" emul_log_has "at bootloader address 0x24, CHG line watched"
vm_check "CHG edges reached it: the interrupt fired once per frame or more" \
	test "$(emul_state irqs_raised)" -ge "$(emul_result_field frames)"
vm_check "the driver did not flash: no update_fw" eval '! emul_dmesg_has "firmware update"'
vm_check "config CRC 0xE67ACA in the chip's NVM" test "$(emul_state nvm_config_crc)" = 0xE67ACA
vm_check "the driver is bound again and holds the reset line" eval \
	'[ "$(emul_driver)" = atmel_mxt_ts ] && grep -q "MXT_RESET *|reset *) out hi" /sys/kernel/debug/gpio'
vm_check "the driver reads fw_version 2.1.AB" test "$(cat "$EMUL_SYS/fw_version")" = 2.1.AB
vm_check "touchfw verified the input device the driver registered ($(emul_event))" eval \
	'emul_has_input && [ "$(emul_result_field input)" = "$(emul_event)" ]'
emul_figure_since_bind unbind_flash_bind_uevent_to_verified_input_ms "$t_done"
vm_check "one run" test "$(emul_runs)" = 1

# ---- the bring-up tools on the real driver and GPIO chip (libgpiod).  The
# driver holds the reset line; the interrupt it takes as an IRQ
# (interrupts-extended), which libgpiod shows as a free line.
/usr/local/bin/touchfw board identify --live >/tmp/live.txt 2>&1
while IFS= read -r l; do vm_log "live: $l"; done </tmp/live.txt
vm_check "board identify --live: adapter, device, driver, chip, both lines found" eval \
	'grep -q "live: 1 controller, 0 problems" /tmp/live.txt &&
		grep -q "ok   chip answers: application at 0x4a" /tmp/live.txt &&
		grep -q "ok   reset line touchfw-mxt-emul:0 is there (held by" /tmp/live.txt &&
		grep -q "ok   interrupt line touchfw-mxt-emul:1 is there" /tmp/live.txt'
vm_check "chip info reads the object table with the driver bound" eval \
	'/usr/local/bin/touchfw chip "$EMUL_DEV" info | grep -q "^objects ("'
rm -f /tmp/saved.cfg
vm_check "a saved config writes back as a no-op (same CRC)" eval \
	'/usr/local/bin/touchfw chip "$EMUL_DEV" save-config /tmp/saved.cfg &&
		/usr/local/bin/touchfw flash --config /tmp/saved.cfg "$EMUL_DEV" 2>&1 |
		grep -q "already has CRC 0xE67ACA"'
vm_check "the driver stayed bound through all of it" test "$(emul_driver)" = atmel_mxt_ts
vm_log "what udevd's RUN program said:"
emul_handle_event_lines
emul_monitor_stop
vm_check "mxt_emul unloads" emul_unload
vm_check "no oops, no warning (taint D, W; kernel log)" vm_no_oops
