# SPDX-License-Identifier: GPL-2.0-or-later
# vm-build-module: mxt-emul
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --file tests/vm/modules/mxt-emul/guest.sh:/vm/mxt-emul.sh
# vm-image: --bin @B@/touchfw:/usr/local/bin/touchfw
# vm-image: --bin @B@/touchfw-agent:/usr/local/libexec/touchfw/touchfw-agent
# vm-image: --dir @B@/firmware-db:/usr/local/share/touchfw/firmware-db
# vm-image: --file @B@/keys/build-demo.pub:/usr/local/etc/touchfw/keys/build-demo.pub
# vm-image: --dtb tests/vm/modules/mxt-emul/boards/qemu-berlin-spi.dts:/vm/boards/berlin.dtb
# vm-append: spidev.bufsiz=1024
#
# "kmod-touchfw-berlin" (busybox init): an empty Goodix Berlin GT9916 (the
# chip model behind mxt_emul's real spi controller, berlin=1: chip select
# 1, modalias gt9916) that no driver binds -- Debian's 6.1 kernel has no
# goodix_berlin_spi, and upstream's would fail its probe on an empty chip
# anyway.  touchfw run with an always-on profile binds Debian's built-in
# spidev through driver_override, reads NOCODE, flashes the database's
# file by Goodix's ISP sequence through the real spi core with the real
# bufsiz (1024 from the kernel command line, so every 4 KiB packet is
# split into transfers with their own addresses), retries a packet whose
# data check the chip fails (status 0x33), reads the new version back,
# then unbinds spidev and clears driver_override.  Binding
# goodix-berlin-spi afterwards must fail (no such driver), so the run ends
# in exit 12 naming it: the input-device check of this family is proven
# in the emulator only (doc/families.md).  After `touchfw forget` (the
# failed bind counted as an attempt) a second run finds the chip current
# and writes nothing.
. /vm/mxt-emul.sh

vm_require "modules and debugfs" emul_setup
emul_touchfw_dirs
vm_check "spidev is in this kernel (built in)" test -d /sys/bus/spi/drivers/spidev
vm_check "spidev's bufsiz is 1024 (spidev.bufsiz= on the command line)" \
	test "$(cat /sys/module/spidev/parameters/bufsiz)" = 1024
vm_require "mxt_emul loads with an empty GT9916 (packet 3's data check fails once)" \
	vm_modprobe mxt_emul client=0 berlin=1 berlin_checksum_fail_at=3
BERLIN_DEV=""
for _d in /sys/bus/spi/devices/spi*; do
	[ "$(cat "$_d/modalias" 2>/dev/null)" = spi:gt9916 ] && BERLIN_DEV=${_d##*/}
done
vm_require "the spi device is there ($BERLIN_DEV)" test -n "$BERLIN_DEV"
BERLIN_SYS=/sys/bus/spi/devices/$BERLIN_DEV
berlin_state() { sed -n "s/^$1=//p" /sys/kernel/debug/mxt-emul/berlin; }
vm_check "no driver binds it" test ! -e "$BERLIN_SYS/driver"
vm_check "the model is in its ROM (NOCODE)" test "$(berlin_state mode)" = rom
emul_use_profile berlin

/usr/local/bin/touchfw run "$BERLIN_DEV" >/tmp/run.log 2>&1
rc=$?
sed 's/^/vm:   /' /tmp/run.log
vm_check "the run ends in exit 12: goodix-berlin-spi can not be bound in this kernel" \
	test "$rc" = 12
vm_check "touchfw bound the real spidev through driver_override" \
	grep -q "spi: bound spidev (/dev/spidev" /tmp/run.log
vm_check "at 8 MHz, with the real bufsiz" \
	grep -q "mode 0, 8 bits, 8000000 Hz, spidev bufsiz 1024" /tmp/run.log
vm_check "it read the empty chip" grep -q "empty chip: no firmware (patch pid NOCODE" /tmp/run.log
vm_check "it flashed the whole file" grep -q "flashing: 100%" /tmp/run.log
vm_check "the chip runs patch 9916, vid 01000002, from its flash" eval \
	'[ "$(berlin_state mode)" = app ] && [ "$(berlin_state patch_pid)" = 9916 ] &&
		[ "$(berlin_state patch_vid)" = 01000002 ]'
vm_check "the ISP ran once and one data check failed (and was retried)" eval \
	'[ "$(berlin_state boots_isp)" = 1 ] && [ "$(berlin_state checksum_fails)" = 1 ]'
vm_check "the bind of goodix-berlin-spi failed and is named" \
	grep -q "binding driver goodix-berlin-spi: .*(no such driver in this kernel)" /tmp/run.log
vm_check "spidev is unbound again" test ! -e "$BERLIN_SYS/driver"
vm_check "driver_override is cleared" eval \
	'case "$(cat "$BERLIN_SYS/driver_override")" in ""|"(null)") true ;; *) false ;; esac'
vm_check "no spidev node is left" eval '! ls /dev/spidev* >/dev/null 2>&1'

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
	'test ! -e "$BERLIN_SYS/driver" && case "$(cat "$BERLIN_SYS/driver_override")" in ""|"(null)") true ;; *) false ;; esac'
vm_require "mxt_emul unloads" rmmod mxt_emul
