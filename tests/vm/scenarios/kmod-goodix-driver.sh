# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernels: 6.12
# vm-build-module: goodix-emul
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --file tests/vm/modules/goodix-emul/guest.sh:/vm/goodix-emul.sh
# vm-image: --bin @B@/tests/vm/evdev-query:/usr/bin/evdev-query
# vm-image: --bin /usr/sbin/i2ctransfer
# vm-image: --bin @B@/touchfw:/usr/local/bin/touchfw
# vm-image: --bin @B@/touchfw-agent:/usr/local/libexec/touchfw/touchfw-agent
# vm-image: --file @B@/61-touchfw.rules:/vm/61-touchfw.rules
# vm-image: --dir @B@/firmware-db:/usr/local/share/touchfw/firmware-db
# vm-image: --file @B@/keys/build-demo.pub:/usr/local/etc/touchfw/keys/build-demo.pub
# vm-image: --dtb tests/vm/modules/goodix-emul/boards/qemu-goodix-emul.dts:/vm/boards/gpio.dtb
# vm-image: --dtb tests/vm/modules/goodix-emul/boards/qemu-goodix-emul-nogpio.dts:/vm/boards/nogpio.dtb
#
# "kmod-goodix-driver" (busybox init): Debian's own goodix_ts judges the
# Goodix model.  goodix_emul puts touchfw's GT911 model behind a real i2c
# adapter, a GPIO chip (INT both ways, RST) and an interrupt, and gives
# the client both lines, so the driver resets the chip at probe (INT
# driven to choose the address), asks for goodix_911_cfg.bin and registers
# the input device after probe returned.  One boot:
#   1. no config file: bound, the INT-selected address (the chip's strap
#      address is the other one), input device after the bind uevent, axis
#      maxima from the chip's own config, a touch reaches evdev;
#   2. unbound: i2c-dev reads id and config at that address only; a config
#      made from it (new version and resolution) as goodix_911_cfg.bin,
#      rebind: the driver sends it, the chip applies it, the axes follow;
#   3. the same file with a wrong checksum: the driver refuses it before
#      the chip sees a byte, binds, and registers no input device;
#   4. reloaded at 0x14 with a level-low INT: address, axes, a touch
#      through a level interrupt without a storm; unload with the driver
#      bound;
#   5. a GT1x (1151): config at 0x8050, 240 bytes, axes from it;
#   no oops, no warning.
# Then, in the same boot, touchfw on the same model (was
# kmod-touchfw-goodix): the shipped rule is installed only now (udevd
# reloaded), so nothing above ran touchfw, and /run/touchfw is empty until
# then.
. /vm/goodix-emul.sh

vm_require "modules and debugfs" emul_setup
emul_fw_debug_on
fwdir=/run/gfw
mkdir -p "$fwdir"
printf %s "$fwdir" >/sys/module/firmware_class/parameters/path
emul_monitor_start

# ---- 1. the chip's own config (no goodix_911_cfg.bin anywhere)
emul_dmesg_mark
vm_require "goodix_emul loads (GT911 at 0x5d, strap 0x14, 800x480, 5 points)" emul_load
vm_log "client $EMUL_DEV at $EMUL_DEVPATH"
vm_check "goodix_ts (Goodix-TS) is bound to the client" test "$(emul_driver)" = Goodix-TS
vm_require "the input device appears" vm_wait 10 "input device" emul_has_input
vm_check "the driver read id and version: ID 911, version 1060" \
	emul_dmesg_has "Goodix-TS $EMUL_DEV: ID 911, version: 1060"
vm_check "no i2c error during probe" eval '! emul_dmesg | grep -q "Error reading\|Error writing\|I2C communication failure"'
vm_check "the driver asked for goodix_911_cfg.bin, found none, sent nothing" eval \
	'emul_dmesg_has "goodix_911_cfg.bin failed with error -2" && [ "$(emul_state config_writes)" = 0 ]'
vm_check "its reset made the chip take the INT-selected address 0x5d (strap 0x14)" eval \
	'[ "$(emul_state addr)" = 0x5d ] && [ "$(emul_state resets)" -ge 1 ]'
vm_check "its name is Goodix Capacitive TouchScreen" \
	test "$(cat "$EMUL_SYS/input/$(emul_input)/name")" = "Goodix Capacitive TouchScreen"
vm_check "ABS_MT_POSITION_X max 799, Y max 479 (the chip's 800x480 config, minus one)" eval \
	'[ "$(gdx_abs_max $ABS_MT_POSITION_X)" = 799 ] && [ "$(gdx_abs_max $ABS_MT_POSITION_Y)" = 479 ]'
bind_us=$(emul_bind_to_input_us) && vm_figure bind_uevent_to_input_ms "$(vm_us_to_ms "$bind_us")" ms
vm_check "bind uevent first, then the input device (${bind_us:-?} us)" \
	eval '[ -n "$bind_us" ] && [ "$bind_us" -gt 0 ]'
gpio_dbg=$(cat /sys/kernel/debug/gpio)
vm_log "debugfs gpio: $(echo "$gpio_dbg" | grep -A3 touchfw-goodix-emul | tr '\n' '|')"
vm_check "the driver holds INT (irq, back to input) and RST (reset, released to input)" eval \
	'echo "$gpio_dbg" | grep -Eq "GOODIX_INT +\|irq +\) in" &&
	 echo "$gpio_dbg" | grep -Eq "GOODIX_RST +\|reset +\) in"'
vm_log "/proc/interrupts: $(grep goodix-emul /proc/interrupts)"
# /proc/interrupts says Edge/Level only with GENERIC_IRQ_SHOW_LEVEL (not x86).
irq_type() { cat "/sys/kernel/irq/$(emul_state irq)/type"; }
vm_check "the INT interrupt is the driver's, falling edge (config trigger 1): $(irq_type)" eval \
	'grep -q "goodix-emul-int.*GDIX1001:00" /proc/interrupts && [ "$(irq_type)" = edge ]'
vm_check "the interrupt fires on falling edges only (the model's trigger records it)" \
	test "$(emul_state irq_trigger)" = falling
gdx_events_start 8 /run/ev1
gdx_touch "0 123 234 20"
gdx_events_wait
vm_log "events: $(tr '\n' '|' </run/ev1)"
vm_check "a touch at (123, 234) reaches evdev as ABS_MT_POSITION_X/Y" eval \
	'grep -qx "3 53 123" /run/ev1 && grep -qx "3 54 234" /run/ev1'
vm_check "the chip saw the frame read" test "$(emul_state touch_frames)" -ge 1
gdx_touch up

# ---- 2. a config file made from the chip's own, sent at the next probe
vm_require "unbind goodix_ts" eval 'echo "$EMUL_DEV" >/sys/bus/i2c/drivers/Goodix-TS/unbind'
id=$(gdx_i2c_read 0x5d 0x8140 6)
vm_check "i2c-dev reads id and version at 0x5d: $id" test "$id" = "0x39 0x31 0x31 0x00 0x60 0x10"
vm_check "nothing answers at 0x14" eval '! gdx_i2c_read 0x14 0x8140 1 2>/dev/null'
cfg=$(gdx_i2c_read 0x5d 0x8047 186)
old_ver=$(echo "$cfg" | cut -d' ' -f1)
new_ver=$((old_ver + 1))
vm_log "chip config: version $old_ver, $(echo "$cfg" | wc -w) bytes"
echo "$cfg" | gdx_make_config "$new_ver" 1024 600 >/run/cfg.hex
xxd -r -p </run/cfg.hex >"$fwdir/goodix_911_cfg.bin"
vm_check "goodix_911_cfg.bin: 186 bytes, version $new_ver, 1024x600" \
	test "$(wc -c <"$fwdir/goodix_911_cfg.bin")" = 186
emul_dmesg_mark
vm_require "rebind goodix_ts" eval 'echo "$EMUL_DEV" >/sys/bus/i2c/drivers/Goodix-TS/bind'
vm_require "the input device is back" vm_wait 10 "input device" emul_has_input
vm_check "the driver sent the file: the chip applied one config, no checksum or version refusal" eval \
	'[ "$(emul_state configs_applied)" = 1 ] && [ "$(emul_state configs_bad_checksum)" = 0 ] &&
	 [ "$(emul_state configs_old_version)" = 0 ]'
vm_check "the chip's config is the file's (version $(printf 0x%02x $new_ver), 1024x600; fresh byte cleared)" eval \
	'[ "$(emul_state config_version)" = "$(printf 0x%02x $new_ver)" ] &&
	 [ "$(emul_state config | cut -c1-370)" = "$(cut -c1-370 /run/cfg.hex)" ] &&
	 [ "$(emul_state x_res)" = 1024 ] && [ "$(emul_state y_res)" = 600 ]'
vm_check "ABS_MT_POSITION_X max 1023, Y max 599 (read back from the chip after the send)" eval \
	'[ "$(gdx_abs_max $ABS_MT_POSITION_X)" = 1023 ] && [ "$(gdx_abs_max $ABS_MT_POSITION_Y)" = 599 ]'
vm_check "two bind uevents" test "$(emul_bind_count)" = 2
bind_us=$(emul_bind_to_input_us 2) && vm_figure rebind_with_cfg_to_input_ms "$(vm_us_to_ms "$bind_us")" ms
vm_check "bind uevent first, then the input device (${bind_us:-?} us)" \
	eval '[ -n "$bind_us" ] && [ "$bind_us" -gt 0 ]'

# ---- 3. a config file the driver must refuse
vm_require "unbind goodix_ts" eval 'echo "$EMUL_DEV" >/sys/bus/i2c/drivers/Goodix-TS/unbind'
writes=$(emul_state config_writes)
# The checksum byte (len-2) off by one.
awk '{ c = substr($0, 369, 2); v = (index("0123456789abcdef", substr(c, 1, 1)) - 1) * 16 + index("0123456789abcdef", substr(c, 2, 1)) - 1
		printf "%s%02x%s\n", substr($0, 1, 368), (v + 1) % 256, substr($0, 371) }' </run/cfg.hex >/run/bad.hex
xxd -r -p </run/bad.hex >"$fwdir/goodix_911_cfg.bin"
emul_dmesg_mark
adds=$(emul_input_add_count)
vm_require "rebind goodix_ts" eval 'echo "$EMUL_DEV" >/sys/bus/i2c/drivers/Goodix-TS/bind'
vm_check "the driver refuses the file: The checksum of the config fw is not correct" \
	vm_wait 10 "checksum message" emul_dmesg_has "The checksum of the config fw is not correct"
vm_check "it stays bound (three bind uevents)" eval \
	'[ "$(emul_driver)" = Goodix-TS ] && [ "$(emul_bind_count)" = 3 ]'
vm_check "but registers no input device (goodix_config_cb gives up)" test -z "$(emul_input)"
vm_check "the chip saw no config write" test "$(emul_state config_writes)" = "$writes"

# ---- 4. the other address, a level-low INT
vm_check "goodix_emul unloads with the driver bound" emul_unload
# goodix_ts_remove() waited for the config callback: had it registered an
# input device after all, its add uevent would be in the monitor's log now.
vm_check "no input device came while it was bound with the refused file" \
	test "$(emul_input_add_count)" = "$adds"
emul_monitor_stop
vm_check "client, adapter and GPIO chip are gone" eval \
	'[ ! -e "$EMUL_SYS" ] && ! grep -q touchfw-goodix-emul /sys/kernel/debug/gpio'
rm -f "$fwdir/goodix_911_cfg.bin"
emul_dmesg_mark
vm_require "goodix_emul loads (0x14, strap 0x5d, INT level low)" emul_load addr=0x14 trigger=2
vm_check "bound at 0x14: the chip took the INT-selected address" eval \
	'[ "$(emul_driver)" = Goodix-TS ] && [ "$EMUL_DEV" = "${EMUL_BUS}-0014" ] && [ "$(emul_state addr)" = 0x14 ]'
vm_require "the input device appears" vm_wait 10 "input device" emul_has_input
vm_check "the INT interrupt is level-triggered, low (config trigger 2): $(irq_type)" eval \
	'[ "$(irq_type)" = level ] && [ "$(emul_state irq_trigger)" = low ]'

irqs0=$(emul_state irqs_raised)
gdx_events_start 8 /run/ev2
gdx_touch "1 300 200 20"
gdx_events_wait
vm_log "events: $(tr '\n' '|' </run/ev2)"
vm_check "a touch at (300, 200) reaches evdev through the level interrupt" eval \
	'grep -qx "3 53 300" /run/ev2 && grep -qx "3 54 200" /run/ev2'
# INT back high (the level ended): no further interrupt can come for it.
vm_wait 30 "INT released" eval '[ "$(emul_state int_high)" = 1 ]'
irqs=$(($(emul_state irqs_raised) - irqs0))
vm_log "interrupts raised for one frame: $irqs"
vm_check "the handler's release of the buffer ends the level: one interrupt for one frame ($irqs)" test "$irqs" = 1
vm_check "goodix_emul unloads with the driver bound" emul_unload

# ---- 5. a GT1x part: config at 0x8050, 240 bytes, 16-bit checksum
emul_dmesg_mark
vm_require "goodix_emul loads (GT1151, 1280x720)" emul_load id=1151 x_res=1280 y_res=720
vm_require "the input device appears" vm_wait 10 "input device" emul_has_input
vm_check "the driver read ID 1151; the chip's config is 240 bytes at 0x8050" eval \
	'emul_dmesg_has "Goodix-TS $EMUL_DEV: ID 1151, version: 1060" &&
	 [ "$(emul_state config_addr)" = 0x8050 ] && [ "$(emul_state config_len)" = 240 ]'
vm_check "ABS_MT_POSITION_X max 1279, Y max 719 (read from 0x8050)" eval \
	'[ "$(gdx_abs_max $ABS_MT_POSITION_X)" = 1279 ] && [ "$(gdx_abs_max $ABS_MT_POSITION_Y)" = 719 ]'
vm_check "goodix_emul unloads with the driver bound" emul_unload
vm_check "no oops, no warning (taint D, W; kernel log)" vm_no_oops

# ======== touchfw on the model (was kmod-touchfw-goodix)
# A GT911 with an old configuration
# (version 65, 800x480; the DB has version 72, 1024x600) behind Debian's
# goodix_ts, both ways touchfw writes it, from the real bind uevent through
# the shipped rule and a detached run:
#   1. the driver has INT and RST (it loads goodix_911_cfg.bin at every
#      probe): touchfw stages the DB's configuration under that name,
#      points firmware_class.path at it and rebinds; the driver sends it;
#   2. no GPIOs (the driver asks for no file): touchfw writes it over
#      i2c-dev with the driver bound, reads it back, rebinds;
# each verified by the new input device's axis maxima and the chip's own
# state; 3. a private copy of the DB whose blob has a wrong checksum (the
# manifest made to agree): refused before the chip sees a byte; 4. `touchfw
# chip` info, and reset through the RST line with the real driver.

vm_require "the shipped rule is installed, udevd reloaded" eval \
	'mkdir -p /usr/lib/udev/rules.d &&
		cp /vm/61-touchfw.rules /usr/lib/udev/rules.d/61-touchfw.rules && udevadm control --reload'
emul_touchfw_dirs
emul_udev_debug
emul_monitor_start
new_cfg_ok() {
	[ "$(emul_state config_version)" = 0x48 ] && [ "$(emul_state x_res)" = 1024 ] &&
		[ "$(emul_state y_res)" = 600 ] && [ "$(emul_state configs_applied)" = 1 ]
}
axes_ok() {
	[ "$(gdx_abs_max $ABS_MT_POSITION_X)" = 1023 ] && [ "$(gdx_abs_max $ABS_MT_POSITION_Y)" = 599 ]
}

# ---- 1. INT and RST given to the driver: the driver's own config file
emul_use_profile gpio
printf %s /vm/no-firmware-here >/sys/module/firmware_class/parameters/path
emul_dmesg_mark
vm_require "goodix_emul loads (GT911, config version 65, 800x480)" emul_load cfg_version=65
vm_require "the run ends" emul_wait_run 60
t_done=$(vm_now_us)
vm_log "result: $(emul_result)"
vm_check "result ok through the driver's config file, 65 -> 72" eval \
	'[ "$(emul_result_field result)" = ok ] && [ "$(emul_result_field path)" = driver-config ]'
vm_check "the driver loaded the goodix_911_cfg.bin touchfw staged (the DB's bytes)" \
	emul_fw_loaded "Goodix-TS $EMUL_DEV" goodix_911_cfg.bin \
	"$TOUCHFW_STATE/firmware/goodix_911_cfg.bin" /usr/local/share/touchfw/firmware-db/goodix/gt911-cfg-72.bin
vm_check "the chip applied the DB's configuration (version 0x48, 1024x600), once" new_cfg_ok
vm_check "the input device's maxima are 1023 and 599" axes_ok
vm_check "touchfw verified the input device the driver registered ($(emul_event))" eval \
	'emul_has_input && [ "$(emul_result_field input)" = "$(emul_event)" ]'
vm_check "firmware_class.path is restored" \
	test "$(cat /sys/module/firmware_class/parameters/path)" = /vm/no-firmware-here
vm_check "nothing is left staged" eval '[ -z "$(ls "$TOUCHFW_STATE/firmware" 2>/dev/null)" ]'
emul_figure_since_bind driver_config_bind_uevent_to_verified_input_ms "$t_done"
vm_check "one run; touchfw's own rebind started nothing" eval \
	'[ "$(emul_runs)" = 1 ] && [ "$(emul_bind_count)" = 2 ]'
vm_require "goodix_emul unloads" emul_unload

# ---- 2. no GPIOs: written over i2c-dev with the driver bound
emul_use_profile nogpio
rm -rf "${TOUCHFW_STATE:?}"/* # another boot, as far as touchfw is concerned
emul_monitor_stop
emul_monitor_start
emul_dmesg_mark
vm_require "goodix_emul loads (no GPIOs, at its strap address 0x5d)" \
	emul_load cfg_version=65 gpios=0 strap=0x5d
vm_require "the run ends" emul_wait_run 60
t_done=$(vm_now_us)
vm_log "result: $(emul_result)"
vm_check "result ok over the bus, 65 -> 72" eval \
	'[ "$(emul_result_field result)" = ok ] && [ "$(emul_result_field path)" = bus-config ]'
vm_check "the driver asked for no file" eval '! emul_dmesg_has goodix_911_cfg.bin'
vm_check "the chip applied the DB's configuration (version 0x48, 1024x600), once" new_cfg_ok
vm_check "the input device's maxima are 1023 and 599" axes_ok
emul_figure_since_bind bus_config_bind_uevent_to_verified_input_ms "$t_done"
vm_check "one run; touchfw's own rebind started nothing" eval \
	'[ "$(emul_runs)" = 1 ] && [ "$(emul_bind_count)" = 2 ]'
vm_require "goodix_emul unloads" emul_unload

# ---- 3. a blob with a wrong checksum, the manifest made to agree
emul_use_profile gpio
rm -rf "${TOUCHFW_STATE:?}"/*
cp -r /usr/local/share/touchfw/firmware-db /run/gdb
f=/run/gdb/goodix/gt911-cfg-72.bin
printf '\001' | dd of=$f bs=1 seek=184 conv=notrunc 2>/dev/null
sum=$(sha256sum $f | cut -d' ' -f1)
sed -i "/^\[gt911-cfg-72\]/,/^sha256/s/^sha256 = .*/sha256 = $sum/" /run/gdb/manifest.ini
cat >/usr/local/etc/touchfw/touchfw.conf <<EOC
[touchfw]
handoff = fork
signatures = off
backoff_s = 0
[paths]
db_dir = /run/gdb
EOC
emul_dmesg_mark
vm_require "goodix_emul loads (GT911, config version 65)" emul_load cfg_version=65
vm_require "the run ends" emul_wait_run 60
vm_log "result: $(emul_result)"
vm_check "touchfw refuses the blob (db-invalid) and names the byte" eval \
	'[ "$(emul_result_field result)" = db-invalid ] && emul_log_has "checksum byte at byte 184 is 0x01"'
vm_check "before the chip is touched: no config write, no unbind, still bound" eval \
	'[ "$(emul_state config_writes)" = 0 ] && [ "$(emul_state config_version)" = 0x41 ] &&
	 ! emul_log_has unbinding && [ "$(emul_driver)" = Goodix-TS ]'

# ---- 4. the bring-up tools: chip info, and chip reset on the RST line
# (libgpiod, the driver unbound around the pulse and bound again)
vm_check "chip info: the chip's config version and length" eval \
	'/usr/local/bin/touchfw chip "$EMUL_DEV" info >/tmp/info.txt 2>&1 &&
		grep -q "config version:   65" /tmp/info.txt && grep -q "config_length:    186" /tmp/info.txt'
resets=$(emul_state resets)
/usr/local/bin/touchfw chip "$EMUL_DEV" reset >/tmp/reset.txt 2>&1
rc=$?
while IFS= read -r l; do vm_log "reset: $l"; done </tmp/reset.txt
vm_check "chip reset: a pulse on the RST line, the input device back" eval \
	'[ $rc = 0 ] && grep -q "reset pulse on the profile.s reset line" /tmp/reset.txt &&
		grep -q "is back" /tmp/reset.txt'
vm_check "the chip saw the reset, the driver is bound again" eval \
	'[ "$(emul_state resets)" -gt "$resets" ] && [ "$(emul_driver)" = Goodix-TS ]'
emul_monitor_stop
vm_check "goodix_emul unloads" emul_unload
vm_check "no oops, no warning (taint D, W; kernel log)" vm_no_oops
