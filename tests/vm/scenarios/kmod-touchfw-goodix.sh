# SPDX-License-Identifier: GPL-2.0-or-later
# vm-build-module: goodix-emul
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --file tests/vm/modules/goodix-emul/guest.sh:/vm/goodix-emul.sh
# vm-image: --bin @B@/tests/vm/evdev-query:/usr/bin/evdev-query
# vm-image: --bin @B@/touchfw:/usr/local/bin/touchfw
# vm-image: --bin @B@/touchfw-agent:/usr/local/libexec/touchfw/touchfw-agent
# vm-image: --file @B@/61-touchfw.rules:/usr/lib/udev/rules.d/61-touchfw.rules
# vm-image: --dir @B@/firmware-db:/usr/local/share/touchfw/firmware-db
# vm-image: --file @B@/keys/build-demo.pub:/usr/local/etc/touchfw/keys/build-demo.pub
# vm-image: --dtb tests/vm/modules/goodix-emul/boards/qemu-goodix-emul.dts:/vm/boards/gpio.dtb
# vm-image: --dtb tests/vm/modules/goodix-emul/boards/qemu-goodix-emul-nogpio.dts:/vm/boards/nogpio.dtb
#
# "kmod-touchfw-goodix" (busybox init): a GT911 with an old configuration
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
. /vm/goodix-emul.sh

vm_require "modules and debugfs" emul_setup
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
vm_check "the driver loaded the goodix_911_cfg.bin touchfw staged" \
	emul_dmesg_has "Goodix-TS $EMUL_DEV: firmware: direct-loading firmware goodix_911_cfg.bin"
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
