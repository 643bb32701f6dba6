# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernels: 6.12
# vm-kernels-possible: 6.12
# vm-build-module: elanhid-emul
# vm-image: --module i2c-hid-of
# vm-image: --module hid-multitouch
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --file tests/vm/modules/elanhid-emul/guest.sh:/vm/elanhid-emul.sh
# vm-image: --bin @B@/tests/vm/evdev-query:/usr/bin/evdev-query
# vm-image: --bin @B@/touchfw:/usr/local/bin/touchfw
# vm-image: --bin @B@/touchfw-agent:/usr/local/libexec/touchfw/touchfw-agent
# vm-image: --file @B@/61-touchfw.rules:/usr/lib/udev/rules.d/61-touchfw.rules
# vm-image: --dir @B@/firmware-db:/usr/local/share/touchfw/firmware-db
# vm-image: --file @B@/keys/build-demo.pub:/usr/local/etc/touchfw/keys/build-demo.pub
# vm-image: --dtb tests/vm/modules/elanhid-emul/boards/qemu-elanhid-emul.dts:/usr/local/etc/touchfw/boards/qemu-elanhid-emul.dtb
#
# "kmod-touchfw-elanhid" (busybox init, 6.12 only: Debian's 6.1 has no
# i2c-hid-of, and an ACPI node with _DSM for i2c-hid-acpi can not be made
# by a module): the real i2c_hid and hid-multitouch judge touchfw's
# recovery of an Elan HID touchpad left in IAP.
#   1. elanhid_emul puts the touchpad model (module 241, no firmware: IAP,
#      its HID descriptor all 0xFF) behind "touchfw emulated adapter 1" as
#      a "hid-over-i2c" client at 0x15 with a software node giving
#      hid-descr-addr = 1 and a level-low interrupt; i2c-hid-of's probe
#      fails ("unexpected HID descriptor bcdVersion"): no driver, no hidraw;
#   2. the shipped rule runs touchfw handle-event on the add (no bind
#      follows); the run identifies the Elan IAP, recovers it over the
#      real i2c-dev (16 pages of 128 bytes), binds i2c_hid_of and verifies
#      version 6.0 and hid-multitouch's input device;
#   3. the real drivers' view: i2c_hid_of bound, a hid device with a
#      hidraw node, hid-multitouch's input device with X 0..3209, the
#      model's input mode set to 3 (multi-touch) by hid-multitouch;
#   4. a touch on the model reaches evdev as ABS_MT_POSITION_X/Y;
#   no oops, no warning.  Figure: add uevent -> verified input device.
. /vm/emul.sh
. /vm/elanhid-emul.sh
ABS_MT_POSITION_X=53
ABS_MT_POSITION_Y=54

elanhid_use
elanhid_setup() {
	emul_setup && vm_modprobe hid-multitouch
}
vm_require "modules and debugfs (i2c-hid-of, hid-multitouch)" elanhid_setup
emul_touchfw_dirs
emul_udev_debug

# ---- 1-2. a touchpad left in IAP: i2c_hid's probe fails; its add uevent
# starts a run that recovers it
emul_monitor_start
emul_dmesg_mark
vm_require "elanhid_emul loads (module 241 at 0x15, no firmware: left in IAP)" \
	emul_load fw_version=0
vm_log "touchpad in IAP: $EMUL_DEV ($EMUL_DEVPATH)"
tp_done=""
hid_recovery_done() {
	emul_run_done && tp_done=$(vm_now_us)
}
udevadm settle --timeout=60
vm_require "the run ends" vm_wait 90 "the recovery run" hid_recovery_done
vm_log "result: $(emul_result)"
vm_log "kernel: $(emul_dmesg | grep -i "hid\|$EMUL_DEV" | tail -n 12 | tr '\n' '|')"
vm_check "i2c_hid's probe refused the touchpad in IAP (kernel log)" \
	emul_dmesg_has "unexpected HID descriptor bcdVersion (0xffff)"
vm_check "the add uevent started the run (no bind came before it)" eval \
	'emul_log_has "^touchfw: $EMUL_DEV: device " && [ "$(emul_runs)" = 1 ]'
vm_check "touchfw identified the Elan IAP and flashed elanhid-241-fw-6.0" eval \
	'emul_log_has "Elan IAP at 0x15" &&
	 emul_log_has "flashing elanhid-241-fw-6.0 (6.0) at bootloader address 0x15"'
vm_check "result ok through the bootloader, (bootloader) -> 6.0" eval \
	'[ "$(emul_result_field result)" = ok ] && [ "$(emul_result_field path)" = bootloader ] &&
	 emul_log_has "verified: firmware (bootloader) -> 6.0"'
vm_check "the touchpad runs 6, its 16 pages written" eval \
	'[ "$(emul_state mode)" = main ] && [ "$(emul_state fw_version)" = 6 ] &&
	 [ "$(emul_state pages_written)" = 16 ] && [ "$(emul_state page_errors)" = 0 ]'
# ---- 3. what the real drivers made of it
vm_check "i2c_hid_of is bound, with a hid device and a hidraw node" eval \
	'[ "$(emul_driver)" = i2c_hid_of ] && h=$(elanhid_hid) &&
	 ls "$EMUL_SYS/$h/hidraw/" | grep -q "^hidraw"'
ev=$(elanhid_event)
vm_log "hid device $(elanhid_hid), event node ${ev:-none}"
h=$(elanhid_hid)
vm_log "hid device's uevent: $(tr '\n' '|' <"$EMUL_SYS/$h/uevent")"
for _i in "$EMUL_SYS"/input/input* "$EMUL_SYS/$h"/input/input*; do
	[ -e "$_i" ] && vm_log "input device ${_i#"$EMUL_SYS"/}: $(cat "$_i/name")"
done
# what the emulator's i2c_hid model (tests/emul/family/elanhid/drv_i2c_hid.c)
# makes too: hid-core's name, BUS_I2C, the descriptor's ids; the input
# device below it, none on the client
vm_check "the hid device is 0018:04F3:3195.NNNN, hid-multitouch's, its input device below it, none on the client" eval \
	'echo "$h" | grep -q "^0018:04F3:3195\.[0-9A-F]\{4\}\$" &&
	 [ "$(basename "$(readlink "$EMUL_SYS/$h/driver")")" = hid-multitouch ] &&
	 [ ! -e "$EMUL_SYS/input" ] && [ -n "$ev" ]'
vm_check "hid-multitouch's input device: X 0..3209, the one touchfw verified" eval \
	'[ -n "$ev" ] &&
	 [ "$(evdev-query "/dev/input/$ev" abs $ABS_MT_POSITION_X | cut -d" " -f2)" = 3209 ] &&
	 [ "$(emul_result_field input)" = "$ev" ]'
vm_check "hid-multitouch set the input mode to 3 (multi-touch)" eval \
	'[ "$(emul_state input_mode)" = 3 ]'
# ---- 4. a touch reaches evdev
rm -f /run/hid-ready
evdev-query "/dev/input/$ev" events 6 5000 /run/hid-ready >/run/hid-ev 2>&1 &
hid_ev_pid=$!
vm_wait 5 "evdev-query open" test -e /run/hid-ready
elanhid_touch "1234 567"
vm_wait 10 "evdev-query done" eval '! kill -0 $hid_ev_pid 2>/dev/null'
wait "$hid_ev_pid" 2>/dev/null
vm_log "events: $(tr '\n' '|' </run/hid-ev)"
vm_check "a touch at (1234, 567) reaches evdev as ABS_MT_POSITION_X/Y" eval \
	'grep -q "3 $ABS_MT_POSITION_X 1234" /run/hid-ev && grep -q "3 $ABS_MT_POSITION_Y 567" /run/hid-ev'
elanhid_touch up
_add=$(emul_add_us)
[ -z "$_add" ] || vm_figure elanhid_add_to_verified_input_ms "$(vm_us_to_ms $((tp_done - _add)))" ms
emul_monitor_stop
vm_check "elanhid_emul unloads" emul_unload
vm_check "no oops, no warning (taint D, W; kernel log)" vm_no_oops
