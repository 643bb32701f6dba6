# SPDX-License-Identifier: GPL-2.0-or-later
# vm-build-module: mxt-emul
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --file tests/vm/modules/mxt-emul/guest.sh:/vm/mxt-emul.sh
# vm-image: --bin @B@/tests/vm/spidev-xfer:/usr/bin/spidev-xfer
#
# "kmod-berlin-spidev" (busybox init): the Goodix Berlin chip model behind a
# real spi controller (mxt_emul berlin=1: chip select 1, modalias gt9916,
# the kernel's spi core and Debian's built-in spidev), read through
# /dev/spidevB.1 in the framing goodix_berlin_spi.c uses.  An empty GT9916
# answers its version block with patch_pid NOCODE and the byte sum the
# kernel checks, and takes the device check (8 x 0xAA at 0x10000); a
# GT9897 (Berlin-A) with firmware answers with 4 dummy bytes at 0x1000C.
# Debian's 6.1 kernel has no goodix_berlin_spi: the device stays unbound
# until spidev is bound through driver_override.  touchfw's own Berlin
# flashing scenario builds on this one.
. /vm/mxt-emul.sh

vm_require "modules and debugfs" emul_setup
vm_check "spidev is in this kernel (built in)" test -d /sys/bus/spi/drivers/spidev

# berlin_find MODALIAS: BERLIN_DEV (spiB.1), BERLIN_SYS, BERLIN_NODE
berlin_find() {
	BERLIN_DEV=""
	for _d in /sys/bus/spi/devices/spi*; do
		[ "$(cat "$_d/modalias" 2>/dev/null)" = "spi:$1" ] && BERLIN_DEV=${_d##*/}
	done
	BERLIN_SYS=/sys/bus/spi/devices/$BERLIN_DEV
	BERLIN_NODE=/dev/spidev${BERLIN_DEV#spi}
	test -n "$BERLIN_DEV"
}
berlin_state() { sed -n "s/^$1=//p" /sys/kernel/debug/mxt-emul/berlin; }
berlin_spidev() {
	echo spidev >"$BERLIN_SYS/driver_override" &&
		echo "$BERLIN_DEV" >/sys/bus/spi/drivers/spidev/bind &&
		vm_wait 5 "$BERLIN_NODE" test -c "$BERLIN_NODE"
}
berlin_release() {
	echo "$BERLIN_DEV" >/sys/bus/spi/drivers/spidev/unbind
	echo >"$BERLIN_SYS/driver_override"
}

vm_require "mxt_emul loads with an empty GT9916 on chip select 1" \
	vm_modprobe mxt_emul client=0 berlin=1
vm_require "the spi device is there" berlin_find gt9916
vm_check "it is chip select 1 below mxt-emul-spi" eval \
	'case "$BERLIN_DEV" in spi*.1) readlink -f "$BERLIN_SYS" | grep -q "/mxt-emul-spi/spi_master/" ;; *) false ;; esac'
vm_check "no driver binds it (no goodix_berlin_spi here)" test ! -e "$BERLIN_SYS/driver"
vm_check "the model is in its ROM" test "$(berlin_state mode)" = rom
vm_require "spidev binds through driver_override" berlin_spidev
# F1, 0x00010014, 3 dummies, 28 bytes: rom_pid BRLD, rom_vid 01, NOCODE,
# byte sum 0x02DD (by hand)
ver=$(spidev-xfer "$BERLIN_NODE" 8000000 F100010014FFFFFF 36)
vm_log "version frame: $ver"
vm_check "the version reads NOCODE with its sum, MISO high in the prefix" test "$ver" = \
	ffffffffffffffff42524c440000010000004e4f434f444500000000000000000000dd02
spidev-xfer "$BERLIN_NODE" 8000000 F000010000AAAAAAAAAAAAAAAA >/dev/null
back=$(spidev-xfer "$BERLIN_NODE" 8000000 F100010000FFFFFF 16)
vm_check "the device check reads back 8 x 0xAA" test "${back#ffffffffffffffff}" = aaaaaaaaaaaaaaaa
berlin_release
vm_check "spidev is unbound and driver_override cleared" eval \
	'test ! -e "$BERLIN_SYS/driver" && case "$(cat "$BERLIN_SYS/driver_override")" in ""|"(null)") true ;; *) false ;; esac'
vm_require "mxt_emul unloads" rmmod mxt_emul

vm_require "mxt_emul loads with a GT9897 running patch_vid 01000001" \
	vm_modprobe mxt_emul client=0 berlin=1 berlin_chip=gt9897 berlin_fw=01000001
vm_require "the spi device is there" berlin_find gt9897
vm_require "spidev binds through driver_override" berlin_spidev
# Berlin-A: F1, 0x0001000C, 4 dummies
ver=$(spidev-xfer "$BERLIN_NODE" 8000000 F10001000CFFFFFFFF 37)
vm_log "version frame: $ver"
vm_check "4 dummies, then rom_pid BRLA, patch_pid 9916, patch_vid 01000001, sum 0x01FD" \
	test "$ver" = ffffffffffffffffff42524c4100000100000039393136000000000100000100000000fd01
vm_check "the model runs its application" test "$(berlin_state mode)" = app
berlin_release
vm_require "mxt_emul unloads" rmmod mxt_emul
