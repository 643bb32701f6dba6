# SPDX-License-Identifier: GPL-2.0-or-later
# vm-build-module: mxt-emul
# vm-build-module: goodix-emul
# vm-dt: tests/vm/scenarios/arm64-dt-board.dtsi
# vm-image: --file /lib/udev/rules.d/80-drivers.rules:/usr/lib/udev/rules.d/80-drivers.rules
#
# "arm64-dt-board" (busybox init, arm64: the name says so): a board whose
# device tree describes its touch controllers, as OEMs' ARM boards do
# (issue 22).  Debian's arm64 6.1 kernel on qemu-system-aarch64 -M virt;
# the device tree is QEMU's with arm64-dt-board.dtsi merged in.  The test
# modules, built for that kernel, bind their GPIO chips and i2c adapters
# as DT-matched platform devices; the kernel's OF code makes the clients
# from the adapters' child nodes, udevd loads Debian's drivers by their
# OF modaliases, and atmel_mxt_ts and goodix probe them with the
# interrupt and the GPIO lines the device tree gives (udev's own
# 80-drivers.rules: the kmod builtin loads a driver by MODALIAS).
DT=/proc/device-tree
MXT_NODE=$DT/i2c-mxt/touchscreen@4a
GDX_NODE=$DT/i2c-goodix/touchscreen@5d

# dt_client NODE: the i2c client the kernel made of device-tree node NODE
# (its sysfs directory), by the client's of_node link.
dt_client() {
	for _c in /sys/bus/i2c/devices/*-00*; do
		[ "$(readlink -f "$_c/of_node" 2>/dev/null)" = "$(readlink -f "$1")" ] &&
			{ echo "$_c"; return 0; }
	done
	return 1
}
driver_of() { _d=$(readlink "$1/driver" 2>/dev/null) && echo "${_d##*/}"; }
modalias_of() { cat "$1/modalias"; }
input_of() {
	for _e in "$1"/input/input*/event*; do
		[ -e "$_e" ] && { echo "${_e##*/}"; return 0; }
	done
	return 1
}

vm_check "an arm64 kernel" test "$(uname -m)" = aarch64
vm_check "the live device tree's root compatible is the board's" eval \
	'tr "\0" "\n" <$DT/compatible | head -n 1 | grep -qx "touchfw,qemu-arm64-touch-board"'
vm_check "the kernel made platform devices of the test nodes" eval \
	'[ -e /sys/bus/platform/devices/gpio-mxt ] && [ -e /sys/bus/platform/devices/i2c-goodix ]'
mount -t debugfs -o nosuid,nodev,noexec debugfs /sys/kernel/debug
vm_require "i2c-dev, evdev" eval 'vm_modprobe i2c-dev && vm_modprobe evdev'
vm_require "mxt_emul binds its DT nodes (a chip without a valid image)" \
	vm_modprobe mxt_emul state=noimage adapter_name=mxt-dt-adapter
vm_require "goodix_emul binds its DT nodes" \
	vm_modprobe goodix_emul adapter_name=goodix-dt-adapter
t_loaded=$(vm_now_us)
vm_check "the i2c adapters are the DT nodes' (of_node)" eval \
	'for a in /sys/bus/i2c/devices/i2c-*; do
		case $(cat $a/name) in mxt-dt-adapter) [ "$(readlink -f $a/of_node)" = "$(readlink -f $DT/i2c-mxt)" ] || exit 1 ;; esac
	done'
vm_require "the OF code made the maXTouch client from its node" \
	vm_wait 10 "maXTouch client" eval 'dt_client "$MXT_NODE" >/dev/null'
MXT=$(dt_client "$MXT_NODE")
vm_require "and the Goodix client from its node" \
	vm_wait 10 "Goodix client" eval 'dt_client "$GDX_NODE" >/dev/null'
GDX=$(dt_client "$GDX_NODE")
vm_log "clients: $MXT ($(modalias_of "$MXT")), $GDX ($(modalias_of "$GDX"))"
vm_check "the maXTouch client's modalias is the OF one" \
	test "$(modalias_of "$MXT")" = "of:NtouchscreenT(null)Catmel,maxtouch"
vm_check "the Goodix client's modalias is the OF one" \
	test "$(modalias_of "$GDX")" = "of:NtouchscreenT(null)Cgoodix,gt911"
vm_check "udevd loaded atmel_mxt_ts by it; it bound the maXTouch" \
	vm_wait 30 "atmel_mxt_ts bound" eval '[ "$(driver_of "$MXT")" = atmel_mxt_ts ]'
vm_check "udevd loaded goodix by it; it bound the GT911" \
	vm_wait 30 "goodix bound" eval '[ "$(driver_of "$GDX")" = Goodix-TS ]'
t_bound=$(vm_now_us)
vm_figure dt_modules_to_both_bound_ms "$(vm_us_to_ms $((t_bound - t_loaded)))" ms
vm_log "$(grep -E "mxt|goodix|Goodix" /proc/interrupts | tr -s ' ')"
# The trigger is the one the DT's interrupts cell gives (falling edge):
# atmel_mxt_ts asks for none of its own.
vm_check "atmel_mxt_ts's interrupt is the DT's: the mxt GPIO chip's domain, an edge" eval \
	'grep "mxt-emul-chg" /proc/interrupts | grep -q "Edge *maxtouch"'
vm_check "goodix's is the goodix GPIO chip's" eval \
	'grep "goodix-emul-int" /proc/interrupts | grep -q "gt911"'
vm_check "atmel_mxt_ts found the chip in its bootloader (no input device)" eval \
	'dmesg | grep -q "atmel_mxt_ts.*[Bb]ootloader" && ! input_of "$MXT"'
vm_check "goodix registered its input device" vm_wait 20 "goodix input" eval 'input_of "$GDX" >/dev/null'
vm_log "$(tr '\n' '|' </sys/kernel/debug/gpio)"
# gpiolib's own account: the consumer names are the DT properties' (reset
# of reset-gpios, irq of irq-gpios), the polarity the DT's flag.
vm_check "atmel_mxt_ts holds the DT's reset-gpios: mxt line 0, active low, driven" eval \
	'grep "MXT_RESET" /sys/kernel/debug/gpio | grep -q "|reset *) out .*ACTIVE LOW"'
vm_check "goodix holds the DT's reset-gpios and irq-gpios: goodix lines 0 and 1" eval \
	'grep "GOODIX_RST" /sys/kernel/debug/gpio | grep -q "|reset *)" &&
		grep "GOODIX_INT" /sys/kernel/debug/gpio | grep -q "|irq *)"'
vm_check "no oops, no warning (taint D, W; kernel log)" vm_no_oops
