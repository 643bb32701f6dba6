# SPDX-License-Identifier: GPL-2.0-or-later
# vm-build-module: mxt-emul
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --file tests/vm/modules/mxt-emul/guest.sh:/vm/mxt-emul.sh
# vm-image: --bin @B@/touchfw:/usr/local/bin/touchfw
# vm-image: --bin @B@/touchfw-agent:/usr/local/libexec/touchfw/touchfw-agent
# vm-image: --dir @B@/firmware-db:/usr/local/share/touchfw/firmware-db
# vm-image: --file @B@/keys/build-demo.pub:/usr/local/etc/touchfw/keys/build-demo.pub
# vm-image: --dtb tests/vm/modules/mxt-emul/boards/qemu-mxt-emul-spi.dts:/vm/boards/spi.dtb
# vm-append: spidev.bufsiz=256
#
# "kmod-touchfw-spi" (busybox init): an mXT1664S without firmware on a real
# spi controller (mxt_emul spi=1: the kernel's spi core, chip-select
# changes and delays; the chip model's spi personality behind
# transfer_one), a device whose modalias is mchp_spi_ts -- a driver Debian's
# kernel does not have, so it stays unbound.  touchfw run with an
# always-on profile binds Debian's built-in spidev through driver_override,
# sets mode 3 and 8 MHz on the real /dev/spidevB.C, splits to the real
# bufsiz (256 from the kernel command line: a frame with the bootloader's
# 2-byte write header is about 263 bytes and spidev refuses a message over
# bufsiz with EMSGSIZE), flashes
# firmware and configuration in the mchp_spi_ts framing,
# reads the chip back, then unbinds spidev and clears driver_override.
# Binding mchp_spi_ts afterwards must fail (no such driver), so the run
# ends in exit 12 naming it: the input-device check of this family on spi
# is proven in the emulator only (doc/families.md).
. /vm/mxt-emul.sh

vm_require "modules and debugfs" emul_setup
emul_touchfw_dirs
vm_check "spidev is in this kernel (built in)" test -d /sys/bus/spi/drivers/spidev
vm_check "spidev's bufsiz is 256 (spidev.bufsiz= on the command line)" \
	test "$(cat /sys/module/spidev/parameters/bufsiz)" = 256
vm_require "mxt_emul loads with its spi controller (mXT1664S, no image)" \
	vm_modprobe mxt_emul preset=mxt1664s state=noimage client=0 spi=1
SPI_DEV=""
for _d in /sys/bus/spi/devices/spi*; do
	[ "$(cat "$_d/modalias" 2>/dev/null)" = spi:mchp_spi_ts ] && SPI_DEV=${_d##*/}
done
vm_require "the spi device is there ($SPI_DEV)" test -n "$SPI_DEV"
SPI_SYS=/sys/bus/spi/devices/$SPI_DEV
vm_check "it sits below mxt-emul-spi" eval 'readlink -f "$SPI_SYS" | grep -q "/mxt-emul-spi/spi_master/"'
vm_check "no driver binds it (no mchp_spi_ts here)" test ! -e "$SPI_SYS/driver"
vm_check "the chip is in its bootloader" test "$(emul_state mode)" = bootloader
emul_use_profile spi

udevadm monitor --kernel --property --subsystem-match=spi >/tmp/spi-events.log 2>&1 &
mon=$!
sleep 0.3 # it needs ~0.2 s before it receives events
/usr/local/bin/touchfw run "$SPI_DEV" >/tmp/run.log 2>&1
rc=$?
sleep 0.3
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
vm_check "driver_override is cleared" eval \
	'case "$(cat "$SPI_SYS/driver_override")" in ""|"(null)") true ;; *) false ;; esac'
vm_check "no spidev node is left" eval '! ls /dev/spidev* >/dev/null 2>&1'
vm_require "mxt_emul unloads" rmmod mxt_emul
