# SPDX-License-Identifier: GPL-2.0-or-later
# vm-build-module: mxt-emul
# vm-build-module: goodix-emul
# vm-dt: tests/vm/scenarios/arm64-dt-board.dtsi
# vm-image: --file /lib/udev/rules.d/80-drivers.rules:/usr/lib/udev/rules.d/80-drivers.rules
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --bin @BARCH@/tests/vm/evdev-query:/usr/bin/evdev-query
# vm-image: --bin @BARCH@/touchfw:/usr/local/bin/touchfw
# vm-image: --bin @BARCH@/touchfw-agent:/usr/local/libexec/touchfw/touchfw-agent
# vm-image: --file @B@/61-touchfw.rules:/usr/lib/udev/rules.d/61-touchfw.rules
# vm-image: --dir @B@/firmware-db:/usr/local/share/touchfw/firmware-db
# vm-image: --file @B@/keys/build-demo.pub:/usr/local/etc/touchfw/keys/build-demo.pub
# vm-image: --dtb tests/vm/boards/qemu-arm64-touch-board.dts:/usr/local/etc/touchfw/boards/qemu-arm64-touch-board.dtb
# vm-image: --dtb boards/examples/acme-tablet-7.dts:/vm/boards/acme-tablet-7.dtb
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
#
# touchfw, cross-built (make cross: build-arm64) and installed as with
# PREFIX=/usr/local, with the shipped udev rule, the demo DB and the
# board's profile (tests/vm/boards/qemu-arm64-touch-board.dts: the board
# by its root compatible, each controller's adapter by its DT path):
# before the modules load, `board identify` picks the profile by the live
# tree's root compatible, and a profile for another DT board (the
# acme-tablet-7 example) alone matches nothing.  Then the drivers' real
# bind uevents run touchfw: it finds each controller by the profile's
# node, flashes the maXTouch (found in its bootloader) at the bootloader
# address through the bound atmel_mxt_ts, stages the GT911's
# configuration for goodix (which requests it at probe: the DT gives it
# both lines), rebinds each and verifies both input devices.  Then
# `board identify --live` and `board init` on the live tree.  Prints bind
# uevent -> verified input device for each.
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

# /vm/emul.sh's helpers on one client at a time: use_chip SYSDIR STATE.
EMUL_MODULE=none EMUL_DRIVER_MODULE=none EMUL_DRIVER=none EMUL_PROFILE=none
. /vm/emul.sh
use_chip() {
	EMUL_SYS=$1 EMUL_STATE=$2
	EMUL_DEV=${1##*/}
	EMUL_BUS=${EMUL_DEV%%-*}
	EMUL_DEVPATH=$(readlink -f "$EMUL_SYS")
	EMUL_DEVPATH=${EMUL_DEVPATH#/sys}
}
MXT_STATE=/sys/kernel/debug/mxt-emul/state
GDX_STATE=/sys/kernel/debug/goodix-emul/state
BOARDS=/usr/local/etc/touchfw/boards

vm_check "an arm64 kernel" test "$(uname -m)" = aarch64
vm_check "the live device tree's root compatible is the board's" eval \
	'tr "\0" "\n" <$DT/compatible | head -n 1 | grep -qx "touchfw,qemu-arm64-touch-board"'
vm_check "the kernel made platform devices of the test nodes" eval \
	'[ -e /sys/bus/platform/devices/gpio-mxt ] && [ -e /sys/bus/platform/devices/i2c-goodix ]'
mount -t debugfs -o nosuid,nodev,noexec debugfs /sys/kernel/debug
vm_require "i2c-dev, evdev" eval 'vm_modprobe i2c-dev && vm_modprobe evdev'

# ---- the board, by the live device tree
emul_touchfw_dirs
ident=$("$TOUCHFW" board identify 2>&1)
vm_log "board identify: $(echo "$ident" | tr '\n' '|')"
vm_check "touchfw reads the live root compatible (/sys/firmware/fdt)" eval \
	'echo "$ident" | grep -q "^root compatible (/sys/firmware/fdt): \"touchfw,qemu-arm64-touch-board\" \"linux,dummy-virt\"\$"'
vm_check "and picks the board's profile by it" eval \
	'echo "$ident" | grep -q "^profile: $BOARDS/qemu-arm64-touch-board.dtb .* by compatible \"touchfw,qemu-arm64-touch-board\"\$"'
mkdir -p /run/other-boards
cp /vm/boards/acme-tablet-7.dtb /run/other-boards/
other=$("$TOUCHFW" board identify --boards /run/other-boards 2>&1)
other_rc=$?
vm_log "board identify with only acme-tablet-7 (exit $other_rc): $(echo "$other" | tr '\n' '|')"
vm_check "a profile for another DT board (acme-tablet-7) does not match: exit 4, no profile" eval \
	'[ "$other_rc" = 4 ] && echo "$other" | grep -q "profiles: 1 valid" && echo "$other" | grep -q "^profile: none matches this machine;"'

# ---- the drivers' bind uevents run touchfw (the shipped rule)
emul_udev_debug
emul_monitor_start
printf %s /vm/no-firmware-here >/sys/module/firmware_class/parameters/path
vm_require "mxt_emul binds its DT nodes (a chip without a valid image)" \
	vm_modprobe mxt_emul state=noimage adapter_name=mxt-dt-adapter
vm_require "goodix_emul binds its DT nodes (GT911, config version 65, 800x480)" \
	vm_modprobe goodix_emul adapter_name=goodix-dt-adapter cfg_version=65
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
vm_check "atmel_mxt_ts found the chip in its bootloader" eval \
	'dmesg | grep -q "atmel_mxt_ts.*[Bb]ootloader"'

# ---- touchfw's runs: both at once; each one's end as soon as it is seen
t_mxt="" t_gdx=""
# A run writes its result last, after it verified the input device: the
# figure's end.  Done is that and no touchfw left running (either run's).
runs_done() {
	[ -n "$t_mxt" ] || [ ! -s "$TOUCHFW_STATE/${MXT##*/}.json" ] || t_mxt=$(vm_now_us)
	[ -n "$t_gdx" ] || [ ! -s "$TOUCHFW_STATE/${GDX##*/}.json" ] || t_gdx=$(vm_now_us)
	[ -n "$t_mxt" ] && [ -n "$t_gdx" ] && ! pidof touchfw-agent touchfw >/dev/null
}
vm_require "both runs record their results" vm_wait 120 "touchfw's runs" runs_done
use_chip "$MXT" "$MXT_STATE"
vm_log "maXTouch result: $(emul_result)"
vm_check "maXTouch: result ok, path bootloader, 2.1.AB" eval \
	'emul_result_has "\"result\":\"ok\"" && emul_result_has "\"path\":\"bootloader\"" &&
		emul_result_has "\"version_after\":\"2.1.AB\""'
vm_check "maXTouch: found by the profile's node (adapter /i2c-mxt)" \
	emul_log_has "/controllers/touchscreen@4a"
vm_check "maXTouch: flashed at the bootloader address 0x24 with atmel_mxt_ts bound" eval \
	'grep -q "flashing .* at bootloader address 0x24" "$TOUCHFW_STATE/$EMUL_DEV.log" &&
		[ "$(grep -n "flashing:  *100%" "$TOUCHFW_STATE/$EMUL_DEV.log" | cut -d: -f1)" -lt \
		  "$(grep -n "rebind: unbinding" "$TOUCHFW_STATE/$EMUL_DEV.log" | cut -d: -f1)" ]'
vm_check "maXTouch: the chip completed one image, config CRC 0xE67ACA" eval \
	'[ "$(emul_state images_completed)" = 1 ] && [ "$(emul_state config_crc)" = 0xE67ACA ]'
vm_check "maXTouch: atmel_mxt_ts reads fw_version 2.1.AB" test "$(cat "$MXT/fw_version")" = 2.1.AB
vm_check "maXTouch: touchfw verified the input device the driver registered" eval \
	'emul_has_input && emul_result_has "\"input\":\"$(emul_event)\""'
emul_figure_since_bind mxt_bind_uevent_to_verified_input_ms "$t_mxt"
vm_check "maXTouch: one run" test "$(emul_runs)" = 1

use_chip "$GDX" "$GDX_STATE"
vm_log "GT911 result: $(emul_result)"
vm_check "GT911: result ok through the driver's config file" eval \
	'[ "$(emul_result_field result)" = ok ] && [ "$(emul_result_field path)" = driver-config ]'
vm_check "GT911: found by the profile's node (adapter /i2c-goodix)" \
	emul_log_has "/controllers/touchscreen@5d"
vm_check "GT911: the chip applied the DB's configuration (version 0x48, 1024x600), once" eval \
	'[ "$(emul_state config_version)" = 0x48 ] && [ "$(emul_state x_res)" = 1024 ] &&
		[ "$(emul_state y_res)" = 600 ] && [ "$(emul_state configs_applied)" = 1 ]'
vm_check "GT911: the input device's maxima are 1023 and 599" eval \
	'[ "$(evdev-query "/dev/input/$(emul_event)" abs 53 | cut -d" " -f2)" = 1023 ] &&
		[ "$(evdev-query "/dev/input/$(emul_event)" abs 54 | cut -d" " -f2)" = 599 ]'
vm_check "GT911: touchfw verified the input device the driver registered" eval \
	'emul_has_input && [ "$(emul_result_field input)" = "$(emul_event)" ]'
vm_check "GT911: firmware_class.path restored, nothing left staged" eval \
	'[ "$(cat /sys/module/firmware_class/parameters/path)" = /vm/no-firmware-here ] &&
		[ -z "$(ls "$TOUCHFW_STATE/firmware" 2>/dev/null)" ]'
emul_figure_since_bind gt911_bind_uevent_to_verified_input_ms "$t_gdx"
vm_check "GT911: one run" test "$(emul_runs)" = 1
udevadm settle --timeout=60

# ---- what the drivers hold, now that both are bound again (touchfw's
# rebinds free and request the interrupt and the lines)
vm_log "$(grep -E "mxt|goodix|Goodix" /proc/interrupts | tr -s ' ')"
# The trigger is the one the DT's interrupts cell gives (falling edge):
# atmel_mxt_ts asks for none of its own.
vm_check "atmel_mxt_ts's interrupt is the DT's: the mxt GPIO chip's domain, an edge" eval \
	'grep "mxt-emul-chg" /proc/interrupts | grep -q "Edge *maxtouch"'
vm_check "goodix's is the goodix GPIO chip's" eval \
	'grep "goodix-emul-int" /proc/interrupts | grep -q "gt911"'
vm_log "$(tr '\n' '|' </sys/kernel/debug/gpio)"
# gpiolib's own account: the consumer names are the DT properties' (reset
# of reset-gpios, irq of irq-gpios), the polarity the DT's flag.
vm_check "atmel_mxt_ts holds the DT's reset-gpios: mxt line 0, active low, driven" eval \
	'grep "MXT_RESET" /sys/kernel/debug/gpio | grep -q "|reset *) out .*ACTIVE LOW"'
vm_check "goodix holds the DT's reset-gpios and irq-gpios: goodix lines 0 and 1" eval \
	'grep "GOODIX_RST" /sys/kernel/debug/gpio | grep -q "|reset *)" &&
		grep "GOODIX_INT" /sys/kernel/debug/gpio | grep -q "|irq *)"'

# ---- the live checks and a skeleton from the live tree
live=$("$TOUCHFW" board identify --live 2>&1)
live_rc=$?
vm_log "board identify --live (exit $live_rc): $(echo "$live" | tr '\n' '|')"
vm_check "board identify --live: both controllers as the profile says, no problem" eval \
	'[ "$live_rc" = 0 ] && echo "$live" | grep -q "live: 2 controllers, 0 problems" &&
		! echo "$live" | grep -q "FAIL"'
"$TOUCHFW" board init "${MXT##*/}" --out /run/init-mxt.dts >/run/init.out 2>&1
init_rc=$?
vm_log "board init (exit $init_rc): $(tr '\n' '|' </run/init-mxt.dts 2>/dev/null) $(cat /run/init.out)"
vm_check "board init writes a skeleton naming the board by its live root compatible" eval \
	'[ "$init_rc" = 0 ] &&
		grep -q "board-compatible = \"touchfw,qemu-arm64-touch-board\";" /run/init-mxt.dts &&
		grep -q "family = \"mxt\";" /run/init-mxt.dts &&
		grep -q "reg = <0x4a>;" /run/init-mxt.dts &&
		grep -q "driver = \"atmel_mxt_ts\";" /run/init-mxt.dts'
vm_check "board init names the adapter by its DT node, as the profile does" \
	grep -q "adapter-path = \"/i2c-mxt\";" /run/init-mxt.dts
emul_monitor_stop
vm_check "no oops, no warning (taint D, W; kernel log)" vm_no_oops
