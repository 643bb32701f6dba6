# SPDX-License-Identifier: GPL-2.0-or-later
# vm-build-module: mxt-emul
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --file tests/vm/modules/mxt-emul/guest.sh:/vm/mxt-emul.sh
# vm-image: --bin @B@/gpiod2/bin/touchfw:/usr/local/bin/touchfw
# vm-image: --bin @B@/gpiod2/bin/touchfw-agent:/usr/local/libexec/touchfw/touchfw-agent
# vm-image: --file @B@/61-touchfw.rules:/usr/lib/udev/rules.d/61-touchfw.rules
# vm-image: --dir @B@/firmware-db:/usr/local/share/touchfw/firmware-db
# vm-image: --file @B@/keys/build-demo.pub:/usr/local/etc/touchfw/keys/build-demo.pub
# vm-image: --dtb tests/vm/modules/mxt-emul/boards/qemu-mxt-emul-always-on.dts:/vm/boards/always-on.dtb
#
# "kmod-touchfw-gpiod2" (busybox init): touchfw built against libgpiod 2.1
# (make gpiod2: Debian 12's bookworm-backports, unpacked in the build
# directory; mkimage copies the libgpiod.so.3 ldd finds through the
# agent's run path) on the real kernel's gpiolib and mxt_emul's gpio_chip,
# so that agent/gpio-gpiod2.c meets the kernel's uAPI v2 itself, not the
# emulated boards' shim.  The always-on half of kmod-touchfw-update:
# outdated firmware (1.0.AA), touchfw unbinds atmel_mxt_ts, pulses the
# reset line, flashes over i2c-dev waiting for CHG edges, writes the
# config and rebinds; then board identify --live looks the lines up by
# chip label (walking /dev/gpiochip*, which libgpiod 2 leaves to its
# caller) and names the driver as the reset line's holder.  (chip reset
# uses maXTouch's reset command, not the line: the e2e tests pulse it.)
. /vm/mxt-emul.sh

AGENT=/usr/local/libexec/touchfw/touchfw-agent
vm_require "the agent is the one built against libgpiod 2 (it needs libgpiod.so.3)" eval \
	'grep -qa "libgpiod\.so\.3" "$AGENT" && ! grep -qa "libgpiod\.so\.2" "$AGENT"'
vm_require "modules and debugfs" emul_setup
emul_touchfw_dirs
emul_monitor_start
emul_use_profile always-on
emul_dmesg_mark
vm_require "mxt_emul loads (mxt224e, application 1.0.AA)" emul_load fw_version=1.0.AA
vm_require "the run ends" emul_wait_run 60
vm_log "result: $(emul_result)"
vm_check "result ok through unbind + flash, 1.0.AA -> 2.1.AB" eval \
	'[ "$(emul_result_field result)" = ok ] && [ "$(emul_result_field path)" = unbind ] &&
		[ "$(emul_result_field version_after)" = 2.1.AB ]'
vm_check "it unbound the driver and pulsed reset on the GPIO line (libgpiod 2)" eval \
	'emul_log_has "unbinding atmel_mxt_ts (power is always on)" &&
		emul_log_has "reset pulse on the profile.s reset line"'
vm_check "no line was refused" eval \
	'! emul_log_has "line not available"'
vm_check "it flashed over i2c-dev watching CHG" emul_log_has "at bootloader address 0x24, CHG line watched"
vm_check "CHG edges reached it: the interrupt fired once per frame or more" \
	test "$(emul_state irqs_raised)" -ge "$(emul_result_field frames)"
vm_check "config CRC 0xE67ACA in the chip's NVM" test "$(emul_state nvm_config_crc)" = 0xE67ACA
vm_check "touchfw released both lines: the driver holds reset again, nothing is touchfw's" eval \
	'[ "$(emul_driver)" = atmel_mxt_ts ] && grep -q "MXT_RESET *|reset *) out hi" /sys/kernel/debug/gpio &&
		! grep -q "|touchfw" /sys/kernel/debug/gpio'
vm_check "the driver reads fw_version 2.1.AB" test "$(cat "$EMUL_SYS/fw_version")" = 2.1.AB
vm_check "touchfw verified the input device the driver registered ($(emul_event))" eval \
	'emul_has_input && [ "$(emul_result_field input)" = "$(emul_event)" ]'
vm_check "one run" test "$(emul_runs)" = 1

# ---- lookups by chip label through libgpiod 2 (board identify --live)
/usr/local/bin/touchfw board identify --live >/tmp/live.txt 2>&1
while IFS= read -r l; do vm_log "live: $l"; done </tmp/live.txt
vm_check "board identify --live: both lines found by chip label, the driver's holder named" eval \
	'grep -q "live: 1 controller, 0 problems" /tmp/live.txt &&
		grep -q "ok   reset line touchfw-mxt-emul:0 is there (held by" /tmp/live.txt &&
		grep -q "ok   interrupt line touchfw-mxt-emul:1 is there" /tmp/live.txt'

vm_log "what udevd's RUN program said:"
emul_handle_event_lines
emul_monitor_stop
vm_check "mxt_emul unloads" emul_unload
vm_check "no oops, no warning (taint D, W; kernel log)" vm_no_oops
