# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernels: 6.12
# vm-build-module: rmi4-emul
# vm-build-module: rmi4-i2c
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --file tests/vm/modules/rmi4-emul/guest.sh:/vm/rmi4-emul.sh
# vm-image: --bin @B@/fwgen:/usr/bin/fwgen
# vm-image: --bin @B@/tests/vm/evdev-query:/usr/bin/evdev-query
# vm-image: --module rmi_smbus
# vm-image: --bin @B@/touchfw:/usr/local/bin/touchfw
# vm-image: --bin @B@/touchfw-agent:/usr/local/libexec/touchfw/touchfw-agent
# vm-image: --file @B@/61-touchfw.rules:/vm/61-touchfw.rules
# vm-image: --dir @B@/firmware-db:/usr/local/share/touchfw/firmware-db
# vm-image: --file @B@/keys/build-demo.pub:/usr/local/etc/touchfw/keys/build-demo.pub
# vm-image: --dtb tests/vm/modules/rmi4-emul/boards/qemu-rmi4-emul.dts:/usr/local/etc/touchfw/boards/qemu-rmi4-emul.dtb
# vm-image: --dtb tests/vm/modules/rmi4-emul/boards/qemu-rmi4-i2c-emul.dts:/vm/qemu-rmi4-i2c-emul.dtb
#
# "kmod-rmi4-driver" (busybox init): Debian's own rmi_smbus + rmi_core
# judge the Synaptics RMI4 model.  rmi4_emul puts touchfw's RMI4 SMBus
# touchpad model (F01, F34 v7 bootloader -- v5 in step 9, F11 in the application) behind an SMBus adapter with
# Host Notify and instantiates "rmi4_smbus" as psmouse's InterTouch does
# (I2C_CLIENT_HOST_NOTIFY, platform data).  One boot:
#   1. application mode: the driver binds, scans the PDT, F01 and F34
#      probe (product id, build id, bootloader V7.0, configuration id), the
#      function devices fn01 fn11 fn34, F11 gives the input device
#      "Synaptics s3203" its axes, its interrupt is Host Notify;
#   2. update_fw with a good fwgen image: rmi_f34v7 enters the
#      bootloader, erases all (one command), rewrites the partition table
#      and the bootloader config it read back, writes core code and
#      config (every command completed by a Host Notify); the
#      driver re-probes and finds the chip in its bootloader: rmi_smbus
#      never resets the chip (PS/2 does); after the reset the rebound
#      driver reads the new build id;
#   3. a chip without an application: the driver binds with "Device in
#      bootloader mode" (fn01 and fn34 only) and update_fw brings it to application mode;
#   4. broken images: a bad header or no flash config refused before the
#      chip is touched; a bootloader config of the wrong size refused
#      after entering the bootloader (the write still returns success: the
#      re-probe's result); a bad core code CRC flashed, the chip's
#      bootloader refuses to start it;
#   5. power lost mid-flash: the update fails, the chip stays in its
#      bootloader across a reset; a second update recovers it;
#   6. touchfw, its udev rule in force, from the bind uevent: in
#      application mode (1969920 -> the database's 1970960) and in the
#      bootloader (no application), through rmi4-NN's update_fw, F01's
#      reset over i2c-dev with the driver let go, rmi4_smbus bound again
#      (one unbind/bind pair per update: the kernel's uevents counted),
#      the input device (below rmi4-NN) and F11 verified; figure: bind
#      uevent -> verified input device;
#   7. F12 (rmi4_emul touch=f12, the 2D function newer parts have): rmi_f12
#      reads query 0 and the three register descriptors, control 8 (the
#      sensor tuning: maxima, pitch, electrodes), sizes the data packet
#      from data 1; rmi_2d_sensor gives the input device F12's axes
#      (ABS_MT_POSITION_X/Y 0..4100/0..2300, five slots, direct: the
#      platform data names no touchpad); touchfw updates it from the bind
#      uevent through update_fw as in 6 and verifies the F12 input device;
#   8. rmi_i2c (rmi4_emul bus=i2c: a plain I2C adapter, "rmi4_i2c" with the
#      ATTN line's level interrupt; rmi_i2c built from Debian's
#      linux-source, which Debian's kernels leave out): rmi_i2c sets page
#      0 and registers the sensor, rmi_core's initial reset is F01's
#      command (no transport reset), the same attributes, functions and
#      input device; update_fw flashes it and the re-probe's reset starts
#      the new build at once (no reset of ours, no rebind); touchfw (the
#      rmi4_i2c profile put in place) updates it from the bind uevent;
#   9. F34 v5 (rmi4_emul bootloader=5: F34 function version 0, which
#      rmi_f34's own v5 code serves): its probe (bootloader_id the two id
#      bytes "05", configuration_id), update_fw with a v5 file (enable
#      flash programming, re-probe in the bootloader, erase all, 16
#      firmware and 4 config blocks, one command each, every command's
#      timeout waited out: rmi_f34 puts no F34 bit in rmi_core's interrupt
#      mask), the chip left in its bootloader; a v10 file refused only in
#      the bootloader ("Bad firmware image"); then touchfw: a v10 image
#      refused before update_fw, a v5 one flashed through update_fw, the
#      chip reset and rebound, verified; the same from the bootloader;
#   no oops, no warning.
. /vm/rmi4-emul.sh

vm_require "modules and debugfs" emul_setup
emul_touchfw_dirs
fwdir=/run/rfw
mkdir -p "$fwdir"
printf %s "$fwdir" >/sys/module/firmware_class/parameters/path
vm_require "fwgen makes the images" eval '
	fwgen rmi4-fw --version 0x1e0f01 --config-id 0x1a2b3c4e -o $fwdir/new.img &&
	fwgen rmi4-fw --version 0x1e0f02 -o $fwdir/new2.img &&
	fwgen rmi4-fw --version 0x1e0f03 --form bad-header -o $fwdir/bad-header.img &&
	fwgen rmi4-fw --version 0x1e0f03 --form no-flash-config -o $fwdir/no-fl.img &&
	fwgen rmi4-fw --version 0x1e0f03 --form bl-config-size -o $fwdir/bl-size.img &&
	fwgen rmi4-fw --version 0x1e0f03 --form bad-checksum -o $fwdir/bad-crc.img'

# rmi4_update FILE: write FILE to update_fw, remember the write's status.
rmi4_update() {
	_t0=$(vm_now_us)
	echo "$1" >"$(rmi4_dev)/update_fw"
	upd_rc=$?
	upd_ms=$((($(vm_now_us) - _t0) / 1000))
	vm_log "update_fw $1: status $upd_rc after $upd_ms ms"
}
app_ok() { # BUILD: application mode, the driver says so
	[ "$(emul_state mode)" = app ] && [ "$(rmi4_attr firmware_id)" = "$1" ] &&
		! emul_dmesg_has "Device in bootloader mode"
}

# ---- 1. application mode
emul_dmesg_mark
vm_require "rmi4_emul loads (s3203, build 0x1e0f00, application)" emul_load
vm_log "client $EMUL_DEV at $EMUL_DEVPATH"
vm_check "rmi4_smbus is bound to the client" test "$(emul_driver)" = rmi4_smbus
vm_require "the RMI device appears" vm_wait 10 "rmi4 device" eval '[ -n "$(rmi4_dev)" ]'
vm_check "rmi_smbus: registering SMbus-connected sensor" \
	emul_dmesg_has "rmi4_smbus $EMUL_DEV: registering SMbus-connected sensor"
vm_check "F01: found RMI device, manufacturer: Synaptics, product: s3203, fw id: 1969920" \
	emul_dmesg_has "found RMI device, manufacturer: Synaptics, product: s3203, fw id: 1969920"
vm_check "not in bootloader mode" eval '! emul_dmesg_has "bootloader mode"'
errs=$(emul_dmesg | grep "rmi4_smbus\|rmi4-" | grep "Failed\|failed\|status=")
[ -z "$errs" ] || vm_log "errors: $errs"
vm_check "no i2c or F34 error" test -z "$errs"
vm_check "firmware_id 1969920, product_id s3203" eval \
	'[ "$(rmi4_attr firmware_id)" = 1969920 ] && [ "$(rmi4_attr product_id)" = s3203 ]'
vm_check "bootloader_id V7.0, configuration_id 1a2b3c4d, update_fw_status 0" eval \
	'[ "$(rmi4_attr bootloader_id)" = V7.0 ] && [ "$(rmi4_attr configuration_id)" = 1a2b3c4d ] &&
	 [ "$(rmi4_attr update_fw_status)" = 0 ]'
vm_require "an input device appears" vm_wait 10 "input device" eval '[ -n "$(rmi4_input)" ]'
vm_check "its name is Synaptics s3203" test "$(cat "$(rmi4_input)/name")" = "Synaptics s3203"
vm_log "function devices: $(rmi4_functions); input abs: $(cat "$(rmi4_input)/capabilities/abs"), key: $(cat "$(rmi4_input)/capabilities/key"), properties: $(cat "$(rmi4_input)/properties")"
vm_check "rmi_core made the function devices fn01 fn11 fn34 (the application's PDT)" \
	test "$(rmi4_functions)" = "fn01 fn11 fn34"
vm_check "F11 probed: no F11 error, the input device has axes" eval \
	'! emul_dmesg_has "fn11.*fail" && [ "$(cat "$(rmi4_input)/capabilities/abs")" != 0 ]'
vm_log "/proc/interrupts: $(grep rmi4_smbus /proc/interrupts)"
vm_check "its interrupt is the adapter's Host Notify one" eval \
	'grep -q "rmi4_smbus" /proc/interrupts'
vm_check "the chip read its partition table over SMBus (4 blocks)" \
	test "$(emul_state blocks_read)" = 4

# ---- 2. update_fw with a good image
emul_dmesg_mark
n0=$(emul_state host_notifies)
rmi4_update new.img
vm_check "the write succeeds" test "$upd_rc" = 0
vm_figure update_fw_ms "$upd_ms" ms
vm_check "rmi_f34v7: Firmware image OK ... Partition table programmed ... Firmware update complete" eval \
	'emul_dmesg_has "Firmware image OK" && emul_dmesg_has "Partition table programmed" &&
	 emul_dmesg_has "Firmware update complete"'
vm_check "the chip entered its bootloader once, had one erase-all, was written 78 blocks" eval \
	'[ "$(emul_state bl_entries)" = 1 ] && [ "$(emul_state erases)" = 1 ] &&
	 [ "$(emul_state blocks_written)" = 78 ] && [ "$(emul_state cmd_errors)" = 0 ]'
# enter bootloader, the re-probe's partition table read, erase all, the
# bootloader config read, 1 + 1 + 16 + 2 writes of 4 blocks, the last
# re-probe's partition table read
vm_check "one Host Notify per flash command: 25" test $(($(emul_state host_notifies) - n0)) = 25
vm_check "the re-probe finds it in its bootloader (rmi_smbus sends no reset)" eval \
	'emul_dmesg_has "Device in bootloader mode" && [ "$(emul_state mode)" = bootloader ]'
emul_dmesg_mark
vm_require "the chip is reset (the PS/2 side's job), rmi4_smbus rebound" eval 'rmi4_chip_reset && rmi4_rebind'
vm_require "the RMI device is back" vm_wait 10 "rmi4 device" eval '[ -n "$(rmi4_attr firmware_id)" ]'
vm_check "application mode, build id 1969921 (0x1e0f01)" app_ok 1969921
vm_check "F01 says fw id: 1969921; configuration_id 1a2b3c4e" eval \
	'emul_dmesg_has "product: s3203, fw id: 1969921" && [ "$(rmi4_attr configuration_id)" = 1a2b3c4e ]'
vm_require "emul unloads with the driver bound" emul_unload

# ---- 3. no application: bound in bootloader mode, flashed from there
emul_dmesg_mark
vm_require "rmi4_emul loads (no application)" emul_load build_id=0
vm_require "the RMI device appears" vm_wait 10 "rmi4 device" eval '[ -n "$(rmi4_dev)" ]'
vm_check "rmi_core binds it: Device in bootloader mode" eval \
	'[ "$(emul_driver)" = rmi4_smbus ] && emul_dmesg_has "rmi4-[0-9]*: Device in bootloader mode"'
vm_check "fw id 0, bootloader_id V7.0" eval \
	'[ "$(rmi4_attr firmware_id)" = 0 ] && [ "$(rmi4_attr bootloader_id)" = V7.0 ]'
vm_log "function devices: $(rmi4_functions); input: $(rmi4_input), abs: $(cat "$(rmi4_input)/capabilities/abs" 2>/dev/null)"
vm_check "in its bootloader only fn01 and fn34 (the bootloader's PDT)" \
	test "$(rmi4_functions)" = "fn01 fn34"
emul_dmesg_mark
rmi4_update new2.img
vm_check "update_fw from the bootloader: complete, no bootloader entry needed" eval \
	'[ $upd_rc = 0 ] && emul_dmesg_has "Firmware update complete" && [ "$(emul_state bl_entries)" = 0 ]'
emul_dmesg_mark
vm_require "reset, rebind" eval 'rmi4_chip_reset && rmi4_rebind'
vm_require "the RMI device is back" vm_wait 10 "rmi4 device" eval '[ -n "$(rmi4_attr firmware_id)" ]'
vm_check "application mode, build id 1969922" app_ok 1969922
vm_require "emul unloads" emul_unload

# ---- 4. broken images
emul_dmesg_mark
vm_require "rmi4_emul loads (application, build 0x1e0f00)" emul_load
vm_require "the RMI device appears" vm_wait 10 "rmi4 device" eval '[ -n "$(rmi4_dev)" ]'
rmi4_update bad-header.img
vm_check "a bad header: the write fails, Unsupported image file format 0F" eval \
	'[ $upd_rc != 0 ] && emul_dmesg_has "Unsupported image file format 0F"'
rmi4_update no-fl.img
vm_check "no flash config: the write fails, No flash config in fw image" eval \
	'[ $upd_rc != 0 ] && emul_dmesg_has "No flash config in fw image"'
vm_check "the chip saw neither: no bootloader entry, no erase, application" eval \
	'[ "$(emul_state bl_entries)" = 0 ] && [ "$(emul_state erases)" = 0 ] && [ "$(emul_state mode)" = app ]'
emul_dmesg_mark
rmi4_update bl-size.img
vm_check "bootloader config size: Bootloader config size mismatch, update failed" eval \
	'emul_dmesg_has "Bootloader config size mismatch" && emul_dmesg_has "Firmware update failed, status: -22"'
vm_log "the write's status: $upd_rc (rmi_firmware_update returns the re-probe's result)"
vm_check "after entering the bootloader, before any erase: the chip is left there" eval \
	'[ "$(emul_state bl_entries)" = 1 ] && [ "$(emul_state erases)" = 0 ] && [ "$(emul_state mode)" = bootloader ]'
emul_dmesg_mark
vm_require "reset, rebind" eval 'rmi4_chip_reset && rmi4_rebind'
vm_require "the RMI device is back" vm_wait 10 "rmi4 device" eval '[ -n "$(rmi4_attr firmware_id)" ]'
vm_check "its application untouched: build id 1969920" app_ok 1969920
emul_dmesg_mark
rmi4_update bad-crc.img
vm_check "a bad core code CRC: the kernel flashes it (it checks no checksum)" eval \
	'[ $upd_rc = 0 ] && emul_dmesg_has "Firmware update complete"'
emul_dmesg_mark
vm_require "reset, rebind" eval 'rmi4_chip_reset && rmi4_rebind'
vm_require "the RMI device is back" vm_wait 10 "rmi4 device" eval '[ -n "$(rmi4_dev)" ]'
vm_check "the chip's bootloader refuses to start it: Device in bootloader mode" eval \
	'emul_dmesg_has "Device in bootloader mode" && [ "$(emul_state mode)" = bootloader ] &&
	 [ "$(emul_state boots_bl)" -ge 1 ]'
vm_require "emul unloads" emul_unload

# ---- 5. power lost mid-flash
emul_dmesg_mark
vm_require "rmi4_emul loads (supply drops at the 40th block)" emul_load power_loss_block=40
vm_require "the RMI device appears" vm_wait 10 "rmi4 device" eval '[ -n "$(rmi4_dev)" ]'
rmi4_update new.img
vm_check "the update fails (Firmware update failed), the chip lost power once" eval \
	'emul_dmesg_has "Firmware update failed" && [ "$(emul_state power_losses)" = 1 ]'
emul_dmesg_mark
vm_require "reset, rebind" eval 'rmi4_chip_reset && rmi4_rebind'
vm_require "the RMI device is back" vm_wait 10 "rmi4 device" eval '[ -n "$(rmi4_dev)" ]'
vm_check "it stays in its bootloader: Device in bootloader mode" eval \
	'emul_dmesg_has "Device in bootloader mode" && [ "$(emul_state mode)" = bootloader ]'
emul_dmesg_mark
rmi4_update new.img
vm_check "a second update completes" eval '[ $upd_rc = 0 ] && emul_dmesg_has "Firmware update complete"'
emul_dmesg_mark
vm_require "reset, rebind" eval 'rmi4_chip_reset && rmi4_rebind'
vm_require "the RMI device is back" vm_wait 10 "rmi4 device" eval '[ -n "$(rmi4_attr firmware_id)" ]'
vm_check "application mode, build id 1969921" app_ok 1969921
vm_check "rmi4_emul unloads with the driver bound" emul_unload

# ---- 6. touchfw from the bind uevent, application and bootloader
touchfw_rule_on() {
	mkdir -p /run/udev/rules.d && cp /vm/61-touchfw.rules /run/udev/rules.d/ &&
		udevadm control --reload
}
touchfw_rule_off() {
	rm -f /run/udev/rules.d/61-touchfw.rules && udevadm control --reload
}
# ---- 7. F12 as the application's 2D function
rmi4_event() {
	for _e in "$(rmi4_input)"/event*; do
		[ -e "$_e" ] && { echo "/dev/input/${_e##*/}"; return 0; }
	done
	return 0
}
rmi4_abs() { evdev-query "$(rmi4_event)" abs "$1"; } # CODE: "MIN MAX"
emul_dmesg_mark
vm_require "rmi4_emul loads (touch=f12, build 1969920)" emul_load touch=f12
vm_require "the RMI device appears" vm_wait 10 "rmi4 device" eval '[ -n "$(rmi4_dev)" ]'
vm_require "an input device appears" vm_wait 10 "input device" eval '[ -n "$(rmi4_event)" ]'
vm_log "f12: function devices: $(rmi4_functions); input abs: $(cat "$(rmi4_input)/capabilities/abs"), properties: $(cat "$(rmi4_input)/properties"); x: $(rmi4_abs 53), y: $(rmi4_abs 54), slots: $(rmi4_abs 47)"
errs=$(emul_dmesg | grep "rmi4_smbus\|rmi4-" | grep -i "Failed\|fail\|does not\|undefined\|should be")
[ -z "$errs" ] || vm_log "f12: errors: $errs"
vm_check "f12: rmi_f12 probed without complaint (descriptors, control 8)" test -z "$errs"
vm_check "f12: rmi_core made fn01 fn12 fn34" test "$(rmi4_functions)" = "fn01 fn12 fn34"
vm_check "f12: ABS_MT_POSITION_X 0..4100, ABS_MT_POSITION_Y 0..2300 (control 8)" eval \
	'[ "$(rmi4_abs 53)" = "0 4100" ] && [ "$(rmi4_abs 54)" = "0 2300" ]'
vm_check "f12: five slots (data 1's subpackets), pressure 0..255" eval \
	'[ "$(rmi4_abs 47)" = "0 4" ] && [ "$(rmi4_abs 58)" = "0 255" ]'
vm_check "f12: INPUT_PROP_DIRECT (no touchpad in the platform data)" \
	test "$(cat "$(rmi4_input)/properties")" = 2
vm_check "f12: rmi4_emul unloads with the driver bound" emul_unload

for how in application bootloader f12; do
	rm -f "$TOUCHFW_STATE"/*.json "$TOUCHFW_STATE"/*.log
	emul_dmesg_mark
	if [ $how = application ]; then
		vm_require "rmi4_emul loads (build 1969920)" emul_load
	elif [ $how = f12 ]; then
		vm_require "rmi4_emul loads (build 1969920, F12)" emul_load touch=f12
	else
		vm_require "rmi4_emul loads (no application)" emul_load build_id=0
	fi
	fns="fn01 fn11 fn34"
	[ $how = f12 ] && fns="fn01 fn12 fn34"
	vm_require "the RMI device appears" vm_wait 10 "rmi4 device" eval '[ -n "$(rmi4_dev)" ]'
	emul_monitor_start
	vm_require "touchfw's rule in force" touchfw_rule_on
	vm_require "a rebind (the bind uevent runs touchfw handle-event)" emul_rebind
	vm_require "the run ends" emul_wait_run 180
	t_done=$(vm_now_us)
	vm_require "touchfw's rule off again" touchfw_rule_off
	vm_log "$how: result: $(emul_result)"
	vm_log "$how: touchfw said: $(emul_log | tr '\n' '|')"
	vm_check "$how: result ok through update_fw, -> 1970960" eval \
		'[ "$(emul_result_field result)" = ok ] && [ "$(emul_result_field path)" = update_fw ] &&
		 [ "$(emul_result_field version_after)" = 1970960 ]'
	vm_check "$how: touchfw read the mode from the function devices" eval \
		'if [ $how = bootloader ]; then emul_log_has "its PDT lists F01 and F34 only: bootloader mode";
		 else emul_log_has "application mode: hardware s3203, firmware 1969920"; fi'
	vm_check "$how: the chip runs build 1970960, rmi_core says so, $fns" eval \
		'[ "$(emul_state mode)" = app ] && [ "$(rmi4_attr firmware_id)" = 1970960 ] &&
		 [ "$(rmi4_functions)" = "$fns" ]'
	vm_check "$how: the input device touchfw verified is rmi_core's, below rmi4-NN" eval \
		'[ -n "$(rmi4_input)" ] && [ -e "$(rmi4_input)/$(emul_result_field input)" ]'
	# the rebind above, then touchfw's one pair: bring_back binds through
	# the flow's rebind, and the flow binds no more (a second pair: three)
	vm_log "$how: $(emul_unbind_count) unbind and $(emul_bind_count) bind uevents of the client"
	vm_check "$how: touchfw's update made one unbind/bind pair of rmi4_smbus (two with the rebind that ran it)" eval \
		'[ "$(emul_unbind_count)" = 2 ] && [ "$(emul_bind_count)" = 2 ] && [ "$(emul_runs)" = 1 ]'
	emul_figure_since_bind rmi4_${how}_bind_to_verified_input_ms "$t_done"
	emul_monitor_stop
	vm_check "$how: rmi4_emul unloads with the driver bound" emul_unload
done
# ---- 8. rmi_i2c: the same part on plain I2C
EMUL_DRIVER=rmi4_i2c
vm_require "rmi_i2c (built from linux-source) loads" vm_modprobe rmi_i2c
emul_dmesg_mark
vm_require "rmi4_emul loads (bus=i2c, build 1969920)" emul_load bus=i2c
vm_check "i2c: rmi4_i2c is bound to the client" test "$(emul_driver)" = rmi4_i2c
vm_require "i2c: the RMI device appears" vm_wait 10 "rmi4 device" eval '[ -n "$(rmi4_attr firmware_id)" ]'
vm_check "i2c: rmi_i2c: registering I2C-connected sensor" \
	emul_dmesg_has "rmi4_i2c $EMUL_DEV: registering I2C-connected sensor"
vm_check "i2c: F01: found RMI device, product: s3203, fw id: 1969920" \
	emul_dmesg_has "found RMI device, manufacturer: Synaptics, product: s3203, fw id: 1969920"
errs=$(emul_dmesg | grep "rmi4_i2c\|rmi4-" | grep -i "Failed\|fail\|error")
[ -z "$errs" ] || vm_log "i2c: errors: $errs"
vm_check "i2c: no transfer or F34 error" test -z "$errs"
vm_check "i2c: bootloader_id V7.0, configuration_id 1a2b3c4d" eval \
	'[ "$(rmi4_attr bootloader_id)" = V7.0 ] && [ "$(rmi4_attr configuration_id)" = 1a2b3c4d ]'
vm_require "i2c: an input device appears" vm_wait 10 "input device" eval '[ -n "$(rmi4_input)" ]'
vm_log "i2c: function devices: $(rmi4_functions); /proc/interrupts: $(grep rmi4 /proc/interrupts | tr -s ' ')"
vm_check "i2c: fn01 fn11 fn34, the input device has F11's axes" eval \
	'[ "$(rmi4_functions)" = "fn01 fn11 fn34" ] && [ "$(cat "$(rmi4_input)/capabilities/abs")" != 0 ]'
vm_check "i2c: its interrupt is the client's own (rmi4_i2c in /proc/interrupts), the adapter has no Host Notify" eval \
	'grep -q "rmi4_i2c" /proc/interrupts && [ -z "$(emul_state host_notifies)" ]'
vm_check "i2c: rmi_core's initial reset reached the chip (F01's command)" \
	test "$(emul_state resets)" -ge 1
emul_dmesg_mark
r0=$(emul_state resets)
rmi4_update new.img
vm_figure i2c_update_fw_ms "$upd_ms" ms
vm_check "i2c: update_fw: the write succeeds, Firmware update complete" eval \
	'[ "$upd_rc" = 0 ] && emul_dmesg_has "Firmware update complete"'
vm_check "i2c: entered its bootloader once, one erase-all, 78 blocks, no command error" eval \
	'[ "$(emul_state bl_entries)" = 1 ] && [ "$(emul_state erases)" = 1 ] &&
	 [ "$(emul_state blocks_written)" = 78 ] && [ "$(emul_state cmd_errors)" = 0 ]'
vm_check "i2c: the re-probe reset the chip itself: application, fw id 1969921, no rebind" eval \
	'[ "$(emul_state resets)" -gt "$r0" ] && [ "$(emul_state mode)" = app ] &&
	 [ "$(rmi4_attr firmware_id)" = 1969921 ] && [ "$(rmi4_functions)" = "fn01 fn11 fn34" ]'
vm_check "i2c: rmi4_emul unloads with the driver bound" emul_unload

rm -f "$TOUCHFW_STATE"/*.json "$TOUCHFW_STATE"/*.log
cp /usr/local/etc/touchfw/boards/qemu-rmi4-emul.dtb /run/qemu-rmi4-emul.dtb &&
	cp /vm/qemu-rmi4-i2c-emul.dtb /usr/local/etc/touchfw/boards/qemu-rmi4-emul.dtb
emul_dmesg_mark
vm_require "rmi4_emul loads (bus=i2c, build 1969920)" emul_load bus=i2c
vm_require "i2c: the RMI device appears" vm_wait 10 "rmi4 device" eval '[ -n "$(rmi4_attr firmware_id)" ]'
emul_monitor_start
vm_require "touchfw's rule in force" touchfw_rule_on
vm_require "a rebind (the bind uevent runs touchfw handle-event)" emul_rebind
vm_require "the run ends" emul_wait_run 180
t_done=$(vm_now_us)
vm_require "touchfw's rule off again" touchfw_rule_off
cp /run/qemu-rmi4-emul.dtb /usr/local/etc/touchfw/boards/qemu-rmi4-emul.dtb
vm_log "i2c: result: $(emul_result)"
vm_log "i2c: touchfw said: $(emul_log | tr '\n' '|')"
vm_check "i2c: touchfw: result ok through update_fw, -> 1970960" eval \
	'[ "$(emul_result_field result)" = ok ] && [ "$(emul_result_field path)" = update_fw ] &&
	 [ "$(emul_result_field version_after)" = 1970960 ]'
vm_check "i2c: touchfw let rmi_core reset the chip (no unbind and reset of its own)" eval \
	'! emul_log_has "letting go of"'
vm_check "i2c: the chip runs 1970960, rmi_core says so, fn01 fn11 fn34" eval \
	'[ "$(emul_state mode)" = app ] && [ "$(rmi4_attr firmware_id)" = 1970960 ] &&
	 [ "$(rmi4_functions)" = "fn01 fn11 fn34" ]'
vm_check "i2c: the input device touchfw verified is rmi_core's, below rmi4-NN" eval \
	'[ -n "$(rmi4_input)" ] && [ -e "$(rmi4_input)/$(emul_result_field input)" ]'
vm_log "i2c: $(emul_unbind_count) unbind and $(emul_bind_count) bind uevents of the client, $(emul_runs) run(s)"
# rmi_core keeps its input device across update_fw: touchfw's one
# unbind/bind pair (the flow's rebind), with the scenario's rebind two
vm_check "i2c: one touchfw run, one unbind/bind pair of its own" eval \
	'[ "$(emul_runs)" = 1 ] && [ "$(emul_unbind_count)" = 2 ] && [ "$(emul_bind_count)" = 2 ]'

emul_figure_since_bind rmi4_i2c_bind_to_verified_input_ms "$t_done"
emul_monitor_stop
vm_check "i2c: rmi4_emul unloads with the driver bound" emul_unload
# ---- 9. F34 v5: rmi_f34's own code (function version 0)
EMUL_DRIVER=rmi4_smbus
v5_app() { # BUILD: the chip runs it and rmi_core read it
	[ "$(emul_state mode)" = app ] && [ "$(rmi4_attr firmware_id)" = "$1" ]
}
vm_require "fwgen makes the v5 images" eval '
	fwgen rmi4-v5-fw --version 0x1e0f05 --config-id 0x0a0b0c0d -o $fwdir/v5.img &&
	fwgen rmi4-v5-fw --version 0x1e0f06 -o $fwdir/v5b.img &&
	fwgen rmi4-v5-fw --version 0x1e0f07 -o $fwdir/v5c.img'
rm -f "$TOUCHFW_STATE"/*.json "$TOUCHFW_STATE"/*.log
emul_dmesg_mark
vm_require "v5: rmi4_emul loads (bootloader=5, build 1969920)" emul_load bootloader=5
vm_require "v5: the RMI device appears" vm_wait 10 "rmi4 device" eval '[ -n "$(rmi4_attr firmware_id)" ]'
vm_log "v5: bootloader_id '$(rmi4_attr bootloader_id)', configuration_id '$(rmi4_attr configuration_id)', functions: $(rmi4_functions)"
vm_check "v5: rmi_f34 probed it: bootloader_id 05, configuration_id 1a2b3c4d, fw id 1969920" eval \
	'[ "$(rmi4_attr bootloader_id)" = 05 ] && [ "$(rmi4_attr configuration_id)" = 1a2b3c4d ] &&
	 [ "$(rmi4_attr firmware_id)" = 1969920 ]'
vm_check "v5: fn01 fn11 fn34, application mode" eval \
	'[ "$(rmi4_functions)" = "fn01 fn11 fn34" ] && app_ok 1969920'
errs=$(emul_dmesg | grep "rmi4_smbus\|rmi4-" | grep -i "Failed\|fail\|error")
[ -z "$errs" ] || vm_log "v5: errors: $errs"
vm_check "v5: no probe error" test -z "$errs"
emul_dmesg_mark
rmi4_update v5.img
vm_figure rmi4_v5_update_fw_ms "$upd_ms" ms
vm_log "v5: kernel said: $(emul_dmesg | grep 'rmi4' | sed 's/^\[[^]]*\] //' | tr '\n' '|')"
vm_log "v5: chip: $(tr '\n' ' ' <"$RMI4_STATE")"
vm_check "v5: update_fw: the write succeeds; Firmware image OK, Erasing firmware, Writing firmware (256 bytes), Writing config (64 bytes), Firmware update complete" eval \
	'[ "$upd_rc" = 0 ] && emul_dmesg_has "Firmware image OK" && emul_dmesg_has "Erasing firmware" &&
	 emul_dmesg_has "Writing firmware (256 bytes)" && emul_dmesg_has "Writing config (64 bytes)" &&
	 emul_dmesg_has "Firmware update complete"'
vm_check "v5: one bootloader entry, one erase-all, 20 blocks, no command error" eval \
	'[ "$(emul_state bl_entries)" = 1 ] && [ "$(emul_state erases)" = 1 ] &&
	 [ "$(emul_state blocks_written)" = 20 ] && [ "$(emul_state cmd_errors)" = 0 ]'
vm_check "v5: the re-probe finds the bootloader (F01 status), fn01 fn34, bootloader_id 05" eval \
	'emul_dmesg_has "Device in bootloader mode" && [ "$(emul_state mode)" = bootloader ] &&
	 [ "$(rmi4_functions)" = "fn01 fn34" ] && [ "$(rmi4_attr bootloader_id)" = 05 ]'
emul_dmesg_mark
vm_require "v5: reset, rebind" eval 'rmi4_chip_reset && rmi4_rebind'
vm_require "v5: the RMI device is back" vm_wait 10 "rmi4 device" eval '[ -n "$(rmi4_attr firmware_id)" ]'
vm_check "v5: application mode, build id 1969925, configuration_id 0a0b0c0d" eval \
	'app_ok 1969925 && [ "$(rmi4_attr configuration_id)" = 0a0b0c0d ]'
emul_dmesg_mark
rmi4_update new.img
vm_log "v5: a v10 file: status $upd_rc; kernel said: $(emul_dmesg | grep 'rmi4' | sed 's/^\[[^]]*\] //' | tr '\n' '|')"
vm_check "v5: a v10 file is refused only in the bootloader: Bad firmware image, nothing erased, the chip left there" eval \
	'emul_dmesg_has "Bad firmware image: config size 32, expected 64" &&
	 [ "$(emul_state bl_entries)" = 2 ] && [ "$(emul_state erases)" = 1 ] &&
	 [ "$(emul_state mode)" = bootloader ]'
emul_dmesg_mark
vm_require "v5: reset, rebind" eval 'rmi4_chip_reset && rmi4_rebind'
vm_require "v5: the RMI device is back" vm_wait 10 "rmi4 device" eval '[ -n "$(rmi4_attr firmware_id)" ]'
vm_check "v5: build 1969925 still" app_ok 1969925
vm_check "v5: touchfw refuses the v10 image for the v5 part before update_fw" eval \
	'! "$TOUCHFW" flash --firmware "$fwdir/new.img" "$EMUL_DEV" >/run/tf.out 2>&1 &&
	 grep -q "the image is for bootloader v7 (the v10 container format), the touchpad.s is 05: not sent" /run/tf.out &&
	 [ "$(emul_state bl_entries)" = 2 ] && v5_app 1969925'
vm_log "v5: touchfw said: $(tr '\n' '|' </run/tf.out)"
t_run=$(vm_now_us)
vm_check "v5: touchfw flash --firmware of a v5 file (exit 0)" eval \
	'"$TOUCHFW" flash --firmware "$fwdir/v5b.img" "$EMUL_DEV" >/run/tf.out 2>&1'
t_done=$(vm_now_us)
vm_log "v5: touchfw said: $(tr '\n' '|' </run/tf.out)"
vm_figure rmi4_v5_flash_to_verified_input_ms "$(vm_us_to_ms $((t_done - t_run)))" ms
vm_check "v5: touchfw went through update_fw and reset the chip out of the bootloader" eval \
	'grep -q "update_fw" /run/tf.out && grep -q "the chip runs its application after update_fw" /run/tf.out'
vm_check "v5: the chip runs 1969926, rmi_core says so, fn01 fn11 fn34, an input device" eval \
	'v5_app 1969926 && [ "$(rmi4_functions)" = "fn01 fn11 fn34" ] && [ -n "$(rmi4_input)" ]'
vm_check "v5: rmi4_emul unloads with the driver bound" emul_unload
rm -f "$TOUCHFW_STATE"/*.json "$TOUCHFW_STATE"/*.log
emul_dmesg_mark
vm_require "v5: rmi4_emul loads (bootloader=5, no application)" emul_load bootloader=5 build_id=0
vm_require "v5: the RMI device appears" vm_wait 10 "rmi4 device" eval '[ -n "$(rmi4_dev)" ]'
vm_check "v5 bootloader: rmi_core binds it (Device in bootloader mode), fn01 fn34" eval \
	'emul_dmesg_has "Device in bootloader mode" && [ "$(rmi4_functions)" = "fn01 fn34" ]'
t_run=$(vm_now_us)
vm_check "v5 bootloader: touchfw flash --firmware brings it back (exit 0)" eval \
	'"$TOUCHFW" flash --firmware "$fwdir/v5c.img" "$EMUL_DEV" >/run/tf.out 2>&1'
t_done=$(vm_now_us)
vm_log "v5 bootloader: touchfw said: $(tr '\n' '|' </run/tf.out)"
vm_figure rmi4_v5_bl_flash_to_verified_input_ms "$(vm_us_to_ms $((t_done - t_run)))" ms
vm_check "v5 bootloader: the chip runs 1969927, fn01 fn11 fn34" eval \
	'v5_app 1969927 && [ "$(rmi4_functions)" = "fn01 fn11 fn34" ]'
vm_check "v5 bootloader: rmi4_emul unloads with the driver bound" emul_unload

vm_check "no oops, no warning (taint D, W; kernel log)" vm_no_oops
