# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernels: 6.12
# vm-build-module: mxt-emul
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --file tests/vm/modules/mxt-emul/guest.sh:/vm/mxt-emul.sh
# vm-image: --bin @B@/tests/vm/spidev-xfer:/usr/bin/spidev-xfer
# vm-image: --bin @B@/touchfw:/usr/local/bin/touchfw
# vm-image: --bin @B@/touchfw-agent:/usr/local/libexec/touchfw/touchfw-agent
# vm-image: --dir @B@/firmware-db:/usr/local/share/touchfw/firmware-db
# vm-image: --file @B@/keys/build-demo.pub:/usr/local/etc/touchfw/keys/build-demo.pub
# vm-image: --dtb tests/vm/modules/mxt-emul/boards/qemu-mxt-emul-spi.dts:/vm/boards/spi.dtb
# vm-image: --dtb tests/vm/modules/mxt-emul/boards/qemu-berlin-spi.dts:/vm/boards/berlin.dtb
# vm-append: spidev.bufsiz=256
#
# "kmod-touchfw-spi" (busybox init): two chips on one real spi controller
# (mxt_emul spi=1 berlin=1: the kernel's spi core, chip-select changes and
# delays; the chip models behind transfer_one), neither bound by a driver
# of Debian's 6.1 kernel, both reached through its built-in spidev with
# the real bufsiz (256 from the kernel command line).  One boot serves the
# three parts; they take turns on the controller and each reads only its
# own chip's counters:
#
# 1. Berlin by hand (chip select 1, modalias gt9916): an empty GT9916
#    answers its version block with patch_pid NOCODE and the byte sum the
#    kernel checks, and takes the device check (8 x 0xAA at 0x10000), read
#    through /dev/spidevB.1 with tools/spidev-xfer in the framing
#    goodix_berlin_spi.c uses.
# 2. maXTouch (chip select 0, modalias mchp_spi_ts): an mXT1664S without
#    firmware.  touchfw run with an always-on profile binds spidev through
#    driver_override, sets mode 3 and 8 MHz on the real /dev/spidevB.0,
#    splits to bufsiz (a frame with the bootloader's 2-byte write header
#    is about 263 bytes and spidev refuses a message over bufsiz with
#    EMSGSIZE), flashes firmware and configuration in the mchp_spi_ts
#    framing, reads the chip back, then unbinds spidev and clears
#    driver_override.  Binding mchp_spi_ts afterwards must fail (no such
#    driver), so the run ends in exit 12 naming it.
# 3. touchfw on the same GT9916 (packet 3's data check fails once): the run
#    binds spidev, reads NOCODE, flashes the database's file by Goodix's
#    ISP sequence (every 4 KiB packet split into transfers with their own
#    addresses), retries the packet whose data check the chip fails
#    (status 0x33), reads the new version back, unbinds spidev and clears
#    driver_override; binding goodix-berlin-spi fails (no such driver:
#    upstream's would fail its probe on an empty chip anyway), exit 12.
#    After `touchfw forget` (the failed bind counted as an attempt) a
#    second run finds the chip current and writes nothing.
# Then, reloaded, a GT9897 (Berlin-A) with firmware answers by hand with 4
# dummy bytes at 0x1000C.  The input-device checks of both families on spi
# are proven in the emulator only (doc/families.md).
. /vm/mxt-emul.sh

vm_require "modules and debugfs" emul_setup
emul_touchfw_dirs
vm_check "spidev is in this kernel (built in)" test -d /sys/bus/spi/drivers/spidev
vm_check "spidev's bufsiz is 256 (spidev.bufsiz= on the command line)" \
	test "$(cat /sys/module/spidev/parameters/bufsiz)" = 256

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
override_clear() {
	case "$(cat "$1/driver_override")" in "" | "(null)") true ;; *) false ;; esac
}

vm_require "mxt_emul loads: mXT1664S without an image on chip select 0, an empty GT9916 on 1 (its packet 3's data check fails once)" \
	vm_modprobe mxt_emul preset=mxt1664s state=noimage client=0 spi=1 \
	berlin=1 berlin_checksum_fail_at=3

# ---- 1. the empty GT9916 by hand
vm_require "the Berlin spi device is there" berlin_find gt9916
vm_check "it is chip select 1 below mxt-emul-spi" eval \
	'case "$BERLIN_DEV" in spi*.1) readlink -f "$BERLIN_SYS" | grep -q "/mxt-emul-spi/spi_master/" ;; *) false ;; esac'
vm_check "no driver binds it (no goodix_berlin_spi here)" test ! -e "$BERLIN_SYS/driver"
vm_check "the model is in its ROM (NOCODE)" test "$(berlin_state mode)" = rom
vm_require "spidev binds it through driver_override" berlin_spidev
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
	'test ! -e "$BERLIN_SYS/driver" && override_clear "$BERLIN_SYS"'

# ---- 2. touchfw flashes the mXT1664S
SPI_DEV=""
for _d in /sys/bus/spi/devices/spi*; do
	[ "$(cat "$_d/modalias" 2>/dev/null)" = spi:mchp_spi_ts ] && SPI_DEV=${_d##*/}
done
vm_require "the maXTouch spi device is there ($SPI_DEV)" test -n "$SPI_DEV"
SPI_SYS=/sys/bus/spi/devices/$SPI_DEV
vm_check "it sits below mxt-emul-spi" eval 'readlink -f "$SPI_SYS" | grep -q "/mxt-emul-spi/spi_master/"'
vm_check "no driver binds it (no mchp_spi_ts here)" test ! -e "$SPI_SYS/driver"
vm_check "the chip is in its bootloader" test "$(emul_state mode)" = bootloader
emul_use_profile spi

udevadm monitor --kernel --property --subsystem-match=spi >/tmp/spi-events.log 2>&1 &
mon=$!
vm_wait 30 "udevadm monitor to listen" vm_netlink_listening "$mon"
/usr/local/bin/touchfw run "$SPI_DEV" >/tmp/run.log 2>&1
rc=$?
vm_wait 30 "udevadm monitor to read every uevent" vm_netlink_drained "$mon"
kill "$mon"
sed 's/^/vm:   /' /tmp/run.log
# ACTION and DRIVER of each spi uevent, one line each
awk '/^KERNEL\[/ { if (a) print a, d; a = ""; d = "" }
	/^ACTION=/ { a = $0 } /^DRIVER=/ { d = $0 }
	END { if (a) print a, d }' /tmp/spi-events.log >/tmp/spi-actions.log
sed 's/^/vm:   uevent: /' /tmp/spi-actions.log
vm_check "the run ends in exit 12: mchp_spi_ts can not be bound in this kernel" test "$rc" = 12
vm_check "touchfw bound the real spidev through driver_override" \
	grep -q "spi: bound spidev (/dev/spidev" /tmp/run.log
vm_check "and set mode 3 and 8 MHz on it" grep -q "mode 3, 8 bits, 8000000 Hz, spidev bufsiz $(cat /sys/module/spidev/parameters/bufsiz)" /tmp/run.log
vm_check "it flashed the whole image" grep -q "flashing: 100%" /tmp/run.log
vm_check "and wrote the configuration" grep -q "config: CRC 0x06F670 verified after reset" /tmp/run.log
vm_check "the chip runs 3.0.10, config CRC 0x06F670 in NVM" eval \
	'[ "$(emul_state mode)" = app ] && [ "$(emul_state fw_version)" = 3.0.10 ] &&
		[ "$(emul_state nvm_config_crc)" = 0x06F670 ]'
vm_check "one image completed, no frame failed" eval \
	'[ "$(emul_state images_completed)" = 1 ] && [ "$(emul_state frames_failed)" = 0 ]'
vm_check "the bind of mchp_spi_ts failed and is named" \
	grep -q "binding driver mchp_spi_ts: .*(no such driver in this kernel)" /tmp/run.log
vm_check "the real spi core sent bind with DRIVER=spidev, then unbind" eval \
	'grep -q "^ACTION=bind DRIVER=spidev\$" /tmp/spi-actions.log &&
		grep -q "^ACTION=unbind" /tmp/spi-actions.log'
vm_check "spidev is unbound again" test ! -e "$SPI_SYS/driver"
vm_check "driver_override is cleared" override_clear "$SPI_SYS"
vm_check "no spidev node is left" eval '! ls /dev/spidev* >/dev/null 2>&1'
vm_check "the GT9916 on chip select 1 saw none of it (still in its ROM, no flash write)" eval \
	'[ "$(berlin_state mode)" = rom ] && [ "$(berlin_state flash_writes)" = 0 ]'

# ---- 3. touchfw flashes the GT9916
vm_check "spidev's bufsiz (256) is far below a 4 KiB packet" \
	test "$(cat /sys/module/spidev/parameters/bufsiz)" -lt 4096
emul_use_profile berlin
/usr/local/bin/touchfw run "$BERLIN_DEV" >/tmp/run-berlin.log 2>&1
rc=$?
sed 's/^/vm:   /' /tmp/run-berlin.log
vm_check "the run ends in exit 12: goodix-berlin-spi can not be bound in this kernel" \
	test "$rc" = 12
vm_check "touchfw bound the real spidev through driver_override" \
	grep -q "spi: bound spidev (/dev/spidev" /tmp/run-berlin.log
vm_check "at 8 MHz, with the real bufsiz" \
	grep -q "mode 0, 8 bits, 8000000 Hz, spidev bufsiz 256" /tmp/run-berlin.log
vm_check "it read the empty chip" grep -q "empty chip: no firmware (patch pid NOCODE" /tmp/run-berlin.log
vm_check "it flashed the whole file" grep -q "flashing: 100%" /tmp/run-berlin.log
vm_check "the chip runs patch 9916, vid 01000002, from its flash" eval \
	'[ "$(berlin_state mode)" = app ] && [ "$(berlin_state patch_pid)" = 9916 ] &&
		[ "$(berlin_state patch_vid)" = 01000002 ]'
vm_check "the ISP ran once and one data check failed (and was retried)" eval \
	'[ "$(berlin_state boots_isp)" = 1 ] && [ "$(berlin_state checksum_fails)" = 1 ]'
vm_check "the bind of goodix-berlin-spi failed and is named" \
	grep -q "binding driver goodix-berlin-spi: .*(no such driver in this kernel)" /tmp/run-berlin.log
vm_check "spidev is unbound again" test ! -e "$BERLIN_SYS/driver"
vm_check "driver_override is cleared" override_clear "$BERLIN_SYS"
vm_check "no spidev node is left" eval '! ls /dev/spidev* >/dev/null 2>&1'
vm_check "the maXTouch on chip select 0 is untouched (3.0.10, one image)" eval \
	'[ "$(emul_state fw_version)" = 3.0.10 ] && [ "$(emul_state images_completed)" = 1 ]'

writes=$(berlin_state flash_writes)
# the failed bind counted as an attempt: without forget the run backs off
vm_check "touchfw forget clears the failed attempt" /usr/local/bin/touchfw forget "$BERLIN_DEV"
/usr/local/bin/touchfw run "$BERLIN_DEV" >/tmp/run2.log 2>&1
rc=$?
sed 's/^/vm:   /' /tmp/run2.log
vm_check "a second run finds it current (exit 0)" test "$rc" = 0
vm_check "and says so" grep -q "up to date (firmware 01000002)" /tmp/run2.log
vm_check "without a flash write" test "$(berlin_state flash_writes)" = "$writes"
vm_check "and leaves no override behind" eval \
	'test ! -e "$BERLIN_SYS/driver" && override_clear "$BERLIN_SYS"'
vm_require "mxt_emul unloads" rmmod mxt_emul

# ---- a GT9897 (Berlin-A) with firmware, by hand
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
