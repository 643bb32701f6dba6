# SPDX-License-Identifier: GPL-2.0-or-later
# vm-build-module: mxt-emul
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --file tests/vm/modules/mxt-emul/guest.sh:/vm/mxt-emul.sh
# vm-image: --file @B@/firmware-db/mxt224e/cfg-2.1.AB.cfg:/vm/cfg/maxtouch.cfg
# vm-image: --file @B@/firmware-db/mxt1664s/fw-3.0.10.enc:/vm/fw1664/fw.enc
# vm-image: --bin /usr/sbin/i2ctransfer --bin /usr/bin/gpiomon --bin /usr/bin/gpioinfo --bin /usr/bin/gpioget
# vm-image: --file @B@/firmware-db/mxt224e/fw-2.1.AB.fw:/vm/fw/maxtouch.fw
#
# "kmod-driver-bind" (busybox init): Debian's own atmel_mxt_ts judges the
# chip model.  mxt_emul puts touchfw's maXTouch model behind a real i2c
# adapter, GPIO chip and interrupt; the real driver must bind to it, read
# its info block and object table, apply a maxtouch.cfg from the firmware
# search path at probe (its config CRC then equals the file's), reset it
# through the reset GPIO, take its interrupts and register the input
# device.  Once the driver is unbound, user space reads the chip over
# i2c-dev and watches CHG through libgpiod.  An mxt1664s without an image:
# the driver finds its bootloader at the alternate address (extended id),
# refuses the .enc form in update_fw, flashes the binary one, and binds
# T100.  The module unloads cleanly.  Prints bind uevent -> input device.
#
# Then, in the same boot (each part loads its own chip and sets its own
# firmware search path; kernel-log checks read from a mark), the driver
# flashes the chip model itself: a chip without a valid image: the driver
# binds but finds only the bootloader ("Could not recover from bootloader
# mode") and registers no input device.  update_fw with a fwgen image as
# maxtouch.fw in firmware_class.path: from that chip (mxt_load_fw's
# in_bootloader path) and from an app-mode chip at 1.0.AA (T6 reset into
# the bootloader first); a frame CRC failure is retried and the update
# succeeds; a chip failing every frame makes the write fail after the
# driver's 20 retries and stays in its bootloader.  fw_version is read only
# where the driver has an info block (it oopses otherwise).
. /vm/mxt-emul.sh

vm_require "modules and debugfs" emul_setup
# The DB's config is for firmware 2.1.AB: the chip starts at that version.
cfg=/vm/cfg/maxtouch.cfg
printf /vm/cfg >/sys/module/firmware_class/parameters/path
emul_monitor_start
emul_dmesg_mark
vm_require "mxt_emul loads (mxt224e, app mode, 2.1.AB)" emul_load fw_version=2.1.AB
vm_log "client $EMUL_DEV at $EMUL_DEVPATH"
vm_check "atmel_mxt_ts is bound to the client" test "$(emul_driver)" = atmel_mxt_ts
vm_check "the driver read the info block: Family 129 Variant 1 V2.1.AB, 12 objects" \
	emul_dmesg_has "atmel_mxt_ts $EMUL_DEV: Family: 129 Variant: 1 Firmware V2.1.AB Objects: 12"
vm_check "no i2c error during probe" eval '! emul_dmesg | grep -q "i2c transfer failed\|i2c send failed\|CRC error"'
vm_require "the input device appears" vm_wait 10 "input device" emul_has_input
vm_check "evdev made /dev/input/$(emul_event)" test -c "/dev/input/$(emul_event)"
vm_check "its name is Atmel maXTouch Touchscreen" \
	test "$(cat "$EMUL_SYS/input/$(emul_input)/name")" = "Atmel maXTouch Touchscreen"
vm_check "fw_version reads 2.1.AB" test "$(cat "$EMUL_SYS/fw_version")" = 2.1.AB
vm_check "hw_version reads 129.1" test "$(cat "$EMUL_SYS/hw_version")" = 129.1
vm_check "the object attribute reads every readable object (T6 .. T38)" eval \
	'obj=$(cat "$EMUL_SYS/object") && echo "$obj" | grep -q "^T6:" && echo "$obj" | grep -q "^T38:"'

# maxtouch.cfg at probe: REPORTALL, write, BACKUPNV, reset.
want=$(sed -n 4p "$cfg")
vm_check "the driver applied maxtouch.cfg at probe" emul_dmesg_has "Config successfully updated"
vm_check "the chip's config CRC is the file's (0x$want)" test "$(emul_state config_crc)" = "0x$want"
vm_check "and it was backed up to NVM" test "$(emul_state nvm_config_crc)" = "0x$want"

# Opening the input device starts the chip (T7 power config from the
# file, T6 calibrate); closing it puts it to deep sleep (T7 zeroed).
t7_active() { sed -n '/^T7:/,/^$/p' "$EMUL_SYS/object" | sed -n 's/^.*\[ 0\]: \([0-9a-f]*\) .*/\1/p'; }
cat "/dev/input/$(emul_event)" >/dev/null &
reader=$!
vm_check "while the input device is open, T7 ACTV is the file's (0x20)" \
	vm_wait 30 "T7 ACTV 0x20" eval '[ "$(t7_active)" = 20 ]'
kill "$reader"
wait "$reader" 2>/dev/null
vm_check "closed, the driver put the chip to deep sleep (T7 ACTV 0)" \
	vm_wait 30 "T7 ACTV 0" eval '[ "$(t7_active)" = 00 ]'


# Reset GPIO and CHG interrupt wiring as the driver uses them.
gpio_dbg=$(cat /sys/kernel/debug/gpio)
vm_log "debugfs gpio: $(echo "$gpio_dbg" | grep -A3 touchfw-mxt-emul | tr '\n' '|')"
vm_check "the driver holds the reset line (output, active low, released)" eval \
	'echo "$gpio_dbg" | grep -Eq "MXT_RESET +\|reset +\) out hi ACTIVE LOW"'
# hw_resets counts the reset line only; resets also counts T6 resets and
# bootloader exits, which the probe makes too.
vm_check "its probe pulsed reset: the chip saw its reset line asserted" \
	test "$(emul_state hw_resets)" -ge 1
vm_log "/proc/interrupts: $(grep mxt-emul /proc/interrupts)"
vm_check "the CHG interrupt is the driver's and fired" \
	awk '/mxt-emul/ && / maxtouch$/ { f = 1; ok = $2 > 0 } END { exit !(f && ok) }' /proc/interrupts

bind_us=$(emul_bind_to_input_us) && vm_figure bind_uevent_to_input_ms "$(vm_us_to_ms "$bind_us")" ms
vm_check "bind uevent, then the input device (monitored)" test -n "$bind_us" || grep -E "^KERNEL|^DRIVER|^DEVNAME" "$EMUL_MONITOR_LOG"

# User space once the driver lets go: i2c-dev and the CHG line.
vm_require "unbind atmel_mxt_ts" eval 'echo "$EMUL_DEV" >/sys/bus/i2c/drivers/atmel_mxt_ts/unbind'
info=$(/usr/sbin/i2ctransfer -y "$EMUL_BUS" w2@0x4a 0x00 0x00 r7)
vm_check "i2c-dev reads the info block (81 01 21 AB ...): $info" eval \
	'case "$info" in "0x81 0x01 0x21 0xab "*) true ;; *) false ;; esac'
vm_check "gpioinfo lists MXT_RESET and MXT_CHG, now unused" eval \
	'gpioinfo touchfw-mxt-emul | grep -q "\"MXT_CHG\" *unused *input"'
gpiomon -n 1 -f -F '%e' touchfw-mxt-emul 1 >/run/gpiomon.out 2>&1 &
mon=$!
vm_wait 30 "gpiomon to watch CHG" eval \
	'gpioinfo touchfw-mxt-emul | grep -q "\"MXT_CHG\" *\"gpiomon\""'
# T6 REPORTALL makes the chip queue a message and assert CHG.  T6 is the
# 4th object of the mxt224e table: read its address from the table.
tab=$(/usr/sbin/i2ctransfer -y "$EMUL_BUS" w2@0x4a 0x07 0x00 r24)
t6=""
# shellcheck disable=SC2086 # split the bytes
set -- $tab
while [ $# -ge 6 ]; do
	[ "$1" = 0x06 ] && { t6=$(($2 + 256 * $3)); break; }
	shift 6
done
vm_log "object table: $tab; T6 at $t6"
/usr/sbin/i2ctransfer -y "$EMUL_BUS" w3@0x4a $((t6 + 3 & 255)) $((t6 + 3 >> 8)) 1
vm_wait 5 gpiomon eval '! kill -0 $mon 2>/dev/null'
kill $mon 2>/dev/null
vm_check "libgpiod saw CHG fall (a falling edge event): $(cat /run/gpiomon.out)" \
	test "$(cat /run/gpiomon.out)" = 0
vm_check "CHG reads low (asserted) through libgpiod" test "$(gpioget touchfw-mxt-emul 1)" = 0

vm_require "rebind atmel_mxt_ts" eval 'echo "$EMUL_DEV" >/sys/bus/i2c/drivers/atmel_mxt_ts/bind'
vm_check "the input device is back after the rebind" vm_wait 10 "input device" emul_has_input
vm_check "two bind uevents" test "$(emul_bind_count)" = 2
bind_us=$(emul_bind_to_input_us 2) && vm_figure rebind_uevent_to_input_ms "$(vm_us_to_ms "$bind_us")" ms

# The other preset without an image: family 0xA2, an extended bootloader
# id at the alternate address; the driver then flashes the DB's image,
# which is in the vendor's .enc form: the driver wants binary.
vm_require "mxt_emul unloads" emul_unload
vm_check "client, adapter and GPIO chip are gone" eval \
	'[ ! -e "$EMUL_SYS" ] && ! grep -q touchfw-mxt-emul /sys/kernel/debug/gpio'
emul_dmesg_mark
vm_require "mxt_emul loads (mxt1664s without a valid image)" emul_load preset=mxt1664s state=noimage
vm_check "the driver found no bootloader at 0x24, then one at the alternate address" \
	emul_dmesg_has "Trying alternate bootloader address"
vm_check "status 0x60: extended id, APP_CRC_FAIL" emul_dmesg_has "Detected bootloader, status:60, APP_CRC_FAIL"
vm_check "no input device" test -z "$(emul_input)"
mkdir -p /run/fw1664
printf /run/fw1664 >/sys/module/firmware_class/parameters/path
tr -d '\n' </vm/fw1664/fw.enc >/run/fw1664/maxtouch.fw
vm_check "update_fw refuses the .enc form (uppercase hex only)" eval \
	'! echo 1 >"$EMUL_SYS/update_fw" && emul_dmesg_has "firmware file must be in binary format"'
xxd -r -p </vm/fw1664/fw.enc >/run/fw1664/maxtouch.fw
vm_check "update_fw flashes the binary form" eval 'echo 1 >"$EMUL_SYS/update_fw"'
vm_check "the driver read the info block: Family 162 Variant 6 V3.0.10" \
	emul_dmesg_has "Family: 162 Variant: 6 Firmware V3.0.10 Objects: 12"
vm_check "the input device appears (T100)" vm_wait 10 "input device" emul_has_input
vm_check "fw_version 3.0.10, hw_version 162.6" eval \
	'[ "$(cat "$EMUL_SYS/fw_version")" = 3.0.10 ] && [ "$(cat "$EMUL_SYS/hw_version")" = 162.6 ]'
vm_check "mxt_emul unloads with the driver bound" emul_unload

# An info block whose CRC reads back wrong is not a maXTouch to the driver.
emul_dmesg_mark
binds=$(emul_bind_count)
vm_require "mxt_emul loads (info block CRC corrupt)" emul_load corrupt_info_crc=1
vm_check "the driver refuses it: Info Block CRC error, no bootloader either" eval \
	'emul_dmesg_has "Info Block CRC error" && emul_dmesg_has "Trying alternate bootloader address"'
# The probe is over once udevd handled the client's add (atmel_mxt_ts
# probes synchronously, in the add's device_add or the module load udev
# ran for it), and a bind would have been sent before it returned.
udevadm settle --timeout=60
vm_check "and does not bind (no bind uevent)" eval \
	'[ -z "$(emul_driver)" ] && [ "$(emul_bind_count)" = "$binds" ]'
emul_monitor_stop
vm_check "mxt_emul unloads" emul_unload
vm_check "no oops, no warning (taint D, W; kernel log)" vm_no_oops

# ======== update_fw: the driver flashes the chip (was kmod-driver-update)

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
# mxt_initialize() gave up in the bootloader and returned: no config
# callback is pending that could register an input device later.
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
# No i2c error in the flash.  Once the new firmware runs, the driver
# initialises the chip again with its interrupt on; a CI run (6.1, once
# in many) saw its interrupt thread read the message count and then fail
# to read the messages, the chip answering no read in between (a reset
# in progress): "i2c transfer failed" then "Failed to read 15 messages",
# between the two requests for maxtouch.cfg.  The driver does not keep
# its interrupt thread off the bus while the chip restarts, so that race
# is the driver's with a real chip too: it is logged, not failed; any
# other failed transfer fails the check.
msg_races=$(emul_dmesg | grep -c "Failed to read [0-9]* messages")
[ "$msg_races" = 0 ] || vm_log "the driver's message read raced its own reset $msg_races time(s)"
vm_check "no i2c error in the flash, or in any read but the message reads racing the driver's reset" eval \
	'! emul_dmesg | grep -q "i2c send failed\|i2c recv failed" &&
	 [ "$(emul_dmesg | grep -c "i2c transfer failed")" = "$msg_races" ]'
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
