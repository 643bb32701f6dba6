# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernels: 6.1 6.12
# vm-build-module: cyapa-emul
# vm-image: --module cyapatp
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --file tests/vm/modules/cyapa-emul/guest.sh:/vm/cyapa-emul.sh
# vm-image: --bin @B@/tests/vm/evdev-query:/usr/bin/evdev-query
# vm-image: --bin @B@/fwgen:/usr/bin/fwgen
#
# "kmod-cyapa-driver" (busybox init): Debian's own cyapa (module cyapatp)
# judges the Cypress Gen3 trackpad model.  cyapa_emul puts touchfw's model
# behind a real i2c adapter and an interrupt and instantiates a "cyapa"
# client at 0x67, the Gen3 address.  fwgen, in the image, makes the
# firmware files.  One boot:
#   1. application mode (firmware 1.0): the driver launches the
#      application from the bootloader the pad powers up in, binds,
#      registers "Cypress APA Trackpad (cyapa)" with the pad's axes and
#      powers the pad off until the input device is opened; opened, the
#      pad is powered up and a touch reaches evdev;
#   2. update_fw with a good 1.2 file: the driver resets the pad into its
#      bootloader, initiates it, writes 480 + 2 blocks, launches the new
#      application and registers a new input device; firmware_version 1.2;
#   3. broken files (header sum, image sum, size) refused with cyapa's own
#      messages before the pad hears a command;
#   4. a pad with an erased flash: bound, "device detected but not
#      operational", no input device, mode "gen3 bootloader idle"; the
#      good file through update_fw brings it up;
#   5. the supply drops at the 100th block: update_fw fails, the pad stays
#      in its bootloader, the driver bound without input; the same file
#      again recovers it;
#   no oops, no warning.
. /vm/cyapa-emul.sh

vm_require "modules and debugfs" emul_setup
emul_fw_debug_on
fwdir=/run/cfw
mkdir -p "$fwdir"
printf %s "$fwdir" >/sys/module/firmware_class/parameters/path
vm_require "fwgen makes the files" eval '
	fwgen cyapa-fw --version 1.2 -o $fwdir/cyapa-1.2.bin &&
	fwgen cyapa-fw --version 1.3 --form bad-header -o $fwdir/bad-header.bin &&
	fwgen cyapa-fw --version 1.3 --form bad-image -o $fwdir/bad-image.bin &&
	fwgen cyapa-fw --version 1.3 --form short -o $fwdir/short.bin'
vm_check "the good file is 30848 bytes (482 blocks of 64)" \
	test "$(wc -c <"$fwdir/cyapa-1.2.bin")" = 30848

# ---- 1. application mode
emul_dmesg_mark
vm_require "cyapa_emul loads (Gen3 at 0x67, firmware 1.0)" emul_load
vm_log "client $EMUL_DEV at $EMUL_DEVPATH"
vm_check "cyapa is bound to the client ${EMUL_BUS}-0067" eval \
	'[ "$(emul_driver)" = cyapa ] && [ "$EMUL_DEV" = "${EMUL_BUS}-0067" ]'
vm_require "the input device appears" vm_wait 10 "input device" emul_has_input
vm_check "its name is Cypress APA Trackpad (cyapa)" \
	test "$(cat "$EMUL_SYS/input/$(emul_input)/name")" = "Cypress APA Trackpad (cyapa)"
vm_check "firmware_version 1.0, product_id CYTRA-116002-00, mode gen3 operational" eval \
	'[ "$(cyapa_attr firmware_version)" = 1.0 ] &&
	 [ "$(cyapa_attr product_id)" = CYTRA-116002-00 ] &&
	 [ "$(cyapa_attr mode)" = "gen3 operational" ]'
vm_log "pad: $(tr '\n' ' ' <"$EMUL_STATE")"
vm_check "the driver launched the application once (the pad is in it)" eval \
	'[ "$(emul_state launches)" = 1 ] && [ "$(emul_state mode)" = app ]'
vm_check "no complaint from cyapa at probe (but the dummy vcc supply)" eval \
	'! emul_dmesg | grep "cyapa $EMUL_DEV" | grep -v "supply vcc not found, using dummy regulator"'
vm_check "ABS_MT_POSITION_X max 1280, Y max 680 (the pad's query block)" eval \
	'[ "$(cyapa_abs_max $ABS_MT_POSITION_X)" = 1280 ] && [ "$(cyapa_abs_max $ABS_MT_POSITION_Y)" = 680 ]'
vm_check "nobody has it open: the driver set power mode off (0x00)" \
	test "$(emul_state power_mode)" = 0x00
vm_check "a frame now is not sensed (the pad is off)" eval '! cyapa_touch "1 10 10 10" 2>/dev/null'
cyapa_events_start 10 /run/ev1
vm_check "opened: cyapa_open set full power (0xfc)" \
	vm_wait 5 "full power" eval '[ "$(emul_state power_mode)" = 0xfc ]'
cyapa_touch "1 640 340 50"
cyapa_events_wait
vm_log "events: $(tr '\n' '|' </run/ev1)"
vm_check "a touch at (640, 340) reaches evdev as ABS_MT_POSITION_X/Y" eval \
	'grep -qx "3 53 640" /run/ev1 && grep -qx "3 54 340" /run/ev1'
vm_check "the driver's interrupt handler read the frame" test "$(emul_state frames_read)" -ge 1
vm_check "closed: the driver set power mode off again" \
	vm_wait 5 "power off" eval '[ "$(emul_state power_mode)" = 0x00 ]'

# ---- 2. update_fw with a good file
input_before=$(emul_input)
emul_dmesg_mark
vm_check "update_fw cyapa-1.2.bin succeeds" cyapa_update cyapa-1.2.bin
vm_figure update_fw_s "$cyapa_update_s" s
vm_log "update_fw took ${cyapa_update_s} s; $(tr '\n' ' ' </run/cyapa-update.err)"
vm_check "the loader gave cyapa the file" \
	emul_fw_loaded "cyapa $EMUL_DEV" cyapa-1.2.bin "$fwdir/cyapa-1.2.bin" "$fwdir/cyapa-1.2.bin"
vm_check "the pad: soft reset, initiate, 482 blocks, terminate, launch; firmware 1.2" eval \
	'[ "$(emul_state soft_resets)" = 1 ] && [ "$(emul_state initiates)" = 1 ] &&
	 [ "$(emul_state blocks_written)" = 482 ] && [ "$(emul_state block_errors)" = 0 ] &&
	 [ "$(emul_state terminates)" = 1 ] && [ "$(emul_state launches)" = 2 ] &&
	 [ "$(emul_state fw_version)" = 1.2 ] && [ "$(emul_state mode)" = app ]'
vm_check "the driver reports firmware_version 1.2, gen3 operational" eval \
	'[ "$(cyapa_attr firmware_version)" = 1.2 ] && [ "$(cyapa_attr mode)" = "gen3 operational" ]'
vm_check "a new input device ($input_before -> $(emul_input))" eval \
	'emul_has_input && [ "$(emul_input)" != "$input_before" ]'
vm_check "no error in the kernel log" eval '! emul_dmesg_has "firmware update failed"'

# ---- 3. files cyapa refuses
for f in bad-header bad-image short; do
	emul_dmesg_mark
	vm_check "update_fw $f.bin fails" eval '! cyapa_update $f.bin'
	vm_log "$f: $(tr '\n' ' ' </run/cyapa-update.err)"
	vm_check "cyapa says Invalid CYAPA firmware image: $f.bin" \
		emul_dmesg_has "Invalid CYAPA firmware image: $f.bin"
done
vm_check "header sum, image sum, size: cyapa's own reasons" eval \
	'dmesg | grep -q "invalid firmware header checksum = " &&
	 dmesg | grep -q "invalid firmware size = 30784, expected 30848"'
vm_check "the pad heard no command: still one initiate, firmware 1.2" eval \
	'[ "$(emul_state initiates)" = 1 ] && [ "$(emul_state soft_resets)" = 1 ] &&
	 [ "$(emul_state fw_version)" = 1.2 ]'
vm_check "the driver re-registered its input device each time" emul_has_input
vm_check "cyapa_emul unloads with the driver bound" emul_unload

# ---- 4. bootloader mode
emul_dmesg_mark
vm_require "cyapa_emul loads (erased flash)" emul_load empty=1
vm_check "cyapa is bound to the client" test "$(emul_driver)" = cyapa
vm_check "cyapa says device detected but not operational" \
	emul_dmesg_has "cyapa $EMUL_DEV: device detected but not operational"
vm_check "no input device" eval 'sleep 1; ! emul_has_input'
vm_check "mode gen3 bootloader idle, firmware_version 0.0, no product_id" eval \
	'[ "$(cyapa_attr mode)" = "gen3 bootloader idle" ] &&
	 [ "$(cyapa_attr firmware_version)" = 0.0 ] && [ -z "$(cyapa_attr product_id)" ]'
vm_check "the pad refused to launch (no valid application)" eval \
	'[ "$(emul_state launch_refused)" -ge 1 ] && [ "$(emul_state mode)" = bl-idle ]'
vm_check "calibrate is refused in the bootloader" eval '! echo 1 2>/dev/null >"$EMUL_SYS/calibrate"'
emul_dmesg_mark
vm_check "update_fw cyapa-1.2.bin from the bootloader succeeds" cyapa_update cyapa-1.2.bin
vm_log "update_fw from the bootloader took ${cyapa_update_s} s"
vm_check "no soft reset was needed; 482 blocks; firmware 1.2" eval \
	'[ "$(emul_state soft_resets)" = 0 ] && [ "$(emul_state blocks_written)" = 482 ] &&
	 [ "$(emul_state fw_version)" = 1.2 ]'
vm_check "the driver: firmware_version 1.2, product_id, gen3 operational, an input device" eval \
	'[ "$(cyapa_attr firmware_version)" = 1.2 ] &&
	 [ "$(cyapa_attr product_id)" = CYTRA-116002-00 ] &&
	 [ "$(cyapa_attr mode)" = "gen3 operational" ] && emul_has_input'
vm_check "cyapa_emul unloads with the driver bound" emul_unload

# ---- 5. the supply drops midway
emul_dmesg_mark
vm_require "cyapa_emul loads (firmware 1.0, the supply drops at block 100)" \
	emul_load power_loss_block=100
vm_require "the input device appears" vm_wait 10 "input device" emul_has_input
vm_check "update_fw fails" eval '! cyapa_update cyapa-1.2.bin'
vm_log "power loss: $(tr '\n' ' ' </run/cyapa-update.err)"
vm_check "cyapa: FW update aborted, write image: -5; then not operational" eval \
	'emul_dmesg_has "FW update aborted, write image: -5" &&
	 emul_dmesg_has "device detected but not operational"'
vm_check "the pad: one power loss, 99 blocks written, no valid application, in its bootloader" eval \
	'[ "$(emul_state power_losses)" = 1 ] && [ "$(emul_state blocks_written)" = 99 ] &&
	 [ "$(emul_state fw_version)" = none ] && [ "$(emul_state mode)" = bl-idle ]'
vm_check "the driver stays bound, without input, gen3 bootloader idle" eval \
	'[ "$(emul_driver)" = cyapa ] && ! emul_has_input &&
	 [ "$(cyapa_attr mode)" = "gen3 bootloader idle" ]'
vm_check "the same file again recovers it: firmware_version 1.2, an input device" eval \
	'cyapa_update cyapa-1.2.bin && [ "$(cyapa_attr firmware_version)" = 1.2 ] &&
	 [ "$(emul_state fw_version)" = 1.2 ] && emul_has_input'
vm_check "cyapa_emul unloads with the driver bound" emul_unload
vm_check "no oops, no warning (taint D, W; kernel log)" vm_no_oops
