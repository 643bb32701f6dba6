# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernels: 6.12
# vm-build-module: cyapa-emul
# vm-image: --module cyapatp
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --file tests/vm/modules/cyapa-emul/guest.sh:/vm/cyapa-emul.sh
# vm-image: --bin @B@/tests/vm/evdev-query:/usr/bin/evdev-query
# vm-image: --bin @B@/fwgen:/usr/bin/fwgen
# vm-image: --bin @B@/touchfw:/usr/local/bin/touchfw
# vm-image: --bin @B@/touchfw-agent:/usr/local/libexec/touchfw/touchfw-agent
# vm-image: --file @B@/61-touchfw.rules:/vm/61-touchfw.rules
# vm-image: --dir @B@/firmware-db:/usr/local/share/touchfw/firmware-db
# vm-image: --file @B@/keys/build-demo.pub:/usr/local/etc/touchfw/keys/build-demo.pub
# vm-image: --dtb tests/vm/modules/cyapa-emul/boards/qemu-cyapa-emul.dts:/usr/local/etc/touchfw/boards/qemu-cyapa-emul.dtb
# vm-image: --dtb tests/vm/modules/cyapa-emul/boards/qemu-cyapa-emul-pip.dts:/vm/qemu-cyapa-emul-pip.dtb
#
# "kmod-cyapa-driver" (busybox init): Debian's own cyapa (module cyapatp)
# judges the Cypress Gen3 trackpad model, and touchfw updates the trackpad
# through it.  cyapa_emul puts touchfw's model behind a real i2c adapter
# and an interrupt and instantiates a "cyapa" client at 0x67, the Gen3
# address.  fwgen, in the image, makes the broken firmware files and the
# PIP ones flashed by hand; the good Gen3 one is the demo database's
# CYTRA-116002-00 2.0, its Gen5 and Gen6 images those of the PIP board's
# products.  touchfw's udev rule is in force (copied to
# /run/udev/rules.d) for steps 2 and 5 and the PIP steps' rebinds only,
# so that the driver's own behaviour is seen undisturbed in the others.
# Each Gen3 update_fw takes about 15 s under TCG: three full ones and one
# cut short; four PIP ones follow.  One boot:
#   1. application mode (firmware 1.0): the driver launches the
#      application from the bootloader the pad powers up in, binds,
#      registers "Cypress APA Trackpad (cyapa)" with the pad's axes and
#      powers the pad off until the input device is opened; opened, the
#      pad is powered up and a touch reaches evdev;
#   2. touchfw's rule in force, a rebind: the bind uevent runs touchfw
#      handle-event, whose run stages the database's 2.0 as cyapa.bin and
#      writes that name to update_fw; the driver resets the pad into its
#      bootloader, initiates it, writes 480 + 2 blocks, launches the new
#      application and registers a new input device, which touchfw
#      verifies with firmware_version 2.0; figure: bind uevent -> verified
#      input device;
#   3. broken files (header sum, image sum, size) refused with cyapa's own
#      messages before the pad hears a command;
#   4. a pad with an erased flash: bound, "device detected but not
#      operational", no input device, mode "gen3 bootloader idle"; `touchfw
#      run` (nothing remembered of it: the board's one product) brings it
#      up through update_fw; figure: run start -> verified input device;
#   5. the rule in force, the supply drops at the 100th block: the run the
#      bind started fails (exit 11), the pad stays in its bootloader, the
#      driver bound without input; the next `touchfw run`, matching it by
#      the product id remembered from its application, recovers it;
#   6. a Gen5 (PIP) trackpad (cyapa_emul gen=5; at 0x67 here, the board
#      profile's address -- real Gen5 parts sit at 0x24, which cyapa's
#      PIP detection does not mind): bound "gen5 operational" with an
#      input device; the database's Gen3 2.0 for its product is not sent
#      (touchfw: the wrong generation's image); a broken Gen5 file refused
#      by cyapa's own check; `touchfw flash --firmware` of a Gen5 3.1 made
#      by fwgen goes through update_fw (enter bootloader, initiate, 465
#      rows, launch); figure: flash start -> verified input device;
#      then the PIP board's profile (qemu-cyapa-emul-pip.dts, in place of
#      the Gen3 one for this part of the step) and a Gen5 pad of its own
#      product, CYTRA-103002-00, at 0x24 where real PIP parts sit, running
#      1.0; touchfw's rule in force, a rebind: the bind uevent's run
#      stages the database's Gen5 3.0 for that product as cyapa.bin and
#      writes update_fw (enter bootloader, initiate, 465 rows, launch),
#      and verifies the driver's new input device and 3.0, one run;
#      figure: bind uevent -> verified input device;
#   7. a Gen6 (PIP) trackpad (cyapa_emul gen=6): cyapa tells it from a
#      Gen5 one by its system information's family and silicon ids and
#      binds it "gen6 operational" with an input device (through Gen6's
#      own power commands); the Gen5 3.1 is not sent (touchfw: the wrong
#      generation's image) and cyapa itself refuses it by hand ("firmware
#      image not match TP device"); `touchfw flash --firmware` of a Gen6
#      3.1 (fwgen --form gen6) goes through update_fw (enter bootloader,
#      initiate, 465 rows, launch); figure: flash start -> verified input
#      device; then on the PIP board a Gen6 pad of its own product,
#      CYTRA-106002-00, at 0x24, running 1.0: from a rebind's bind uevent
#      touchfw takes it to the database's Gen6 3.0 through update_fw as
#      for Gen5; figure: bind uevent -> verified input device;
#   no oops, no warning.
. /vm/cyapa-emul.sh

vm_require "modules and debugfs" emul_setup
emul_fw_debug_on
emul_touchfw_dirs
emul_udev_debug
fwdir=/run/cfw
mkdir -p "$fwdir"
printf %s "$fwdir" >/sys/module/firmware_class/parameters/path
DB_BLOB=/usr/local/share/touchfw/firmware-db/cyapa/cyapa-CYTRA-116002-00-fw-2.0.bin
vm_require "fwgen makes the broken files" eval '
	fwgen cyapa-fw --version 1.3 --form bad-header -o $fwdir/bad-header.bin &&
	fwgen cyapa-fw --version 1.3 --form bad-image -o $fwdir/bad-image.bin &&
	fwgen cyapa-fw --version 1.3 --form short -o $fwdir/short.bin'
vm_check "the database's file is 30848 bytes (482 blocks of 64)" \
	test "$(wc -c <"$DB_BLOB")" = 30848

# touchfw's udev rule in force, or not
touchfw_rule_on() {
	mkdir -p /run/udev/rules.d && cp /vm/61-touchfw.rules /run/udev/rules.d/ &&
		udevadm control --reload
}
touchfw_rule_off() {
	rm -f /run/udev/rules.d/61-touchfw.rules && udevadm control --reload
}

# run_from_bind: touchfw's rule in force for one rebind, whose bind
# uevent runs touchfw handle-event; waits for the run's end (t_done) and
# logs its result and the pad's state.  input_before is the input device
# before it; the uevent monitor runs until left_clean.
run_from_bind() {
	input_before=$(emul_input)
	emul_monitor_start
	vm_require "touchfw's rule in force" touchfw_rule_on
	emul_dmesg_mark
	vm_require "a rebind (the bind uevent runs touchfw handle-event)" emul_rebind
	vm_require "the run ends" emul_wait_run 120
	t_done=$(vm_now_us)
	vm_log "result: $(emul_result)"
	vm_log "pad: $(tr '\n' ' ' <"$EMUL_STATE")"
	vm_require "touchfw's rule off again" touchfw_rule_off
}

# left_clean FIGURE: after an update through update_fw from the bind, one
# run and no rebind of touchfw's, the loader's path restored, nothing
# staged, no error from cyapa; FIGURE is the time from the bind to the
# verified input device.
left_clean() {
	vm_check "one run, no rebind by touchfw (the driver's new input device is its own)" eval \
		'[ "$(emul_runs)" = 1 ] && [ "$(emul_bind_count)" = 1 ]'
	vm_check "firmware_class.path is restored, nothing is left staged" eval \
		'[ "$(cat /sys/module/firmware_class/parameters/path)" = "$fwdir" ] &&
		 [ -z "$(find "$TOUCHFW_STATE/firmware" -type f 2>/dev/null)" ]'
	vm_check "no error from cyapa" eval '! emul_dmesg_has "firmware update failed"'
	emul_figure_since_bind "$1" "$t_done"
	emul_monitor_stop
}

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

# ---- 2. touchfw, from the bind uevent, through update_fw
run_from_bind
vm_check "result ok through update_fw, 1.0 -> 2.0" eval \
	'[ "$(emul_result_field result)" = ok ] && [ "$(emul_result_field path)" = update_fw ] &&
	 [ "$(emul_result_field version_before)" = 1.0 ] &&
	 [ "$(emul_result_field version_after)" = 2.0 ]'
vm_check "touchfw read product CYTRA-116002-00, firmware 1.0 from cyapa's attributes" \
	emul_log_has "application mode: hardware CYTRA-116002-00, firmware 1.0"
vm_check "touchfw staged the database's 2.0 as cyapa.bin and wrote update_fw" \
	emul_log_has "staged cyapa-CYTRA-116002-00-fw-2.0 as $TOUCHFW_STATE/firmware/cyapa.bin; asking cyapa to flash it (update_fw)"
vm_check "the loader gave cyapa that file" \
	emul_fw_loaded "cyapa $EMUL_DEV" cyapa.bin "$TOUCHFW_STATE/firmware/cyapa.bin" "$DB_BLOB"
vm_check "the pad: soft reset, initiate, 482 blocks, terminate, launch; firmware 2.0" eval \
	'[ "$(emul_state soft_resets)" = 1 ] && [ "$(emul_state initiates)" = 1 ] &&
	 [ "$(emul_state blocks_written)" = 482 ] && [ "$(emul_state block_errors)" = 0 ] &&
	 [ "$(emul_state terminates)" = 1 ] && [ "$(emul_state fw_version)" = 2.0 ] &&
	 [ "$(emul_state mode)" = app ]'
vm_check "the driver reports firmware_version 2.0, gen3 operational" eval \
	'[ "$(cyapa_attr firmware_version)" = 2.0 ] && [ "$(cyapa_attr mode)" = "gen3 operational" ]'
vm_check "a new input device ($input_before -> $(emul_input)), the one touchfw verified" eval \
	'emul_has_input && [ "$(emul_input)" != "$input_before" ] &&
	 [ "$(emul_result_field input)" = "$(emul_event)" ]'
left_clean cyapa_bind_to_verified_input_ms

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
vm_check "the pad heard no command: still one initiate, firmware 2.0" eval \
	'[ "$(emul_state initiates)" = 1 ] && [ "$(emul_state soft_resets)" = 1 ] &&
	 [ "$(emul_state fw_version)" = 2.0 ]'
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
# The client may have the name it had in step 2 (the adapter's number is
# free again): touchfw would remember its product.  Forgotten, the board
# decides.  A direct run logs to its stderr (/run/tf.out).
vm_check "touchfw forget $EMUL_DEV" eval '"$TOUCHFW" forget "$EMUL_DEV" >/dev/null 2>&1'
emul_dmesg_mark
t_run=$(vm_now_us)
vm_check "touchfw run brings it up (exit 0)" eval '"$TOUCHFW" run "$EMUL_DEV" >/run/tf.out 2>&1'
t_done=$(vm_now_us)
vm_log "result: $(emul_result)"
vm_check "touchfw read the bootloader from cyapa's mode; the board's one product chosen" eval \
	'grep -q "cyapa bound with the trackpad in its bootloader (gen3 bootloader idle; firmware_version 0.0 is the last cyapa read)" /run/tf.out &&
	 grep -q "chip in bootloader mode: newest firmware for this board is 2.0" /run/tf.out &&
	 grep -q "verified: firmware (bootloader) -> 2.0" /run/tf.out'
vm_check "no soft reset was needed; 482 blocks; firmware 2.0" eval \
	'[ "$(emul_state soft_resets)" = 0 ] && [ "$(emul_state blocks_written)" = 482 ] &&
	 [ "$(emul_state fw_version)" = 2.0 ]'
vm_check "the driver: firmware_version 2.0, product_id, gen3 operational, an input device" eval \
	'[ "$(cyapa_attr firmware_version)" = 2.0 ] &&
	 [ "$(cyapa_attr product_id)" = CYTRA-116002-00 ] &&
	 [ "$(cyapa_attr mode)" = "gen3 operational" ] && emul_has_input &&
	 [ "$(emul_result_field input)" = "$(emul_event)" ]'
vm_figure cyapa_run_to_verified_input_ms "$(vm_us_to_ms $((t_done - t_run)))" ms
vm_check "cyapa_emul unloads with the driver bound" emul_unload

# ---- 5. the supply drops midway, touchfw's run from the bind
rm -f "$TOUCHFW_STATE"/*.json "$TOUCHFW_STATE"/*.log
vm_require "touchfw's rule in force" touchfw_rule_on
emul_dmesg_mark
vm_require "cyapa_emul loads (firmware 1.0, the supply drops at block 100)" \
	emul_load power_loss_block=100
vm_require "the run the bind started ends" emul_wait_run 120
vm_require "touchfw's rule off again" touchfw_rule_off
vm_log "result: $(emul_result)"
vm_check "cyapa: FW update aborted, write image: -5; then not operational" eval \
	'emul_dmesg_has "FW update aborted, write image: -5" &&
	 emul_dmesg_has "device detected but not operational"'
vm_check "touchfw: left in its bootloader, the next run tries again (exit 11)" eval \
	'[ "$(emul_result_field exit_code)" = 11 ] &&
	 emul_log_has "the trackpad is left in its bootloader" &&
	 emul_log_has "so the next touchfw run for it tries again"'
vm_check "the pad: one power loss, 99 blocks written, no valid application, in its bootloader" eval \
	'[ "$(emul_state power_losses)" = 1 ] && [ "$(emul_state blocks_written)" = 99 ] &&
	 [ "$(emul_state fw_version)" = none ] && [ "$(emul_state mode)" = bl-idle ]'
vm_check "the driver stays bound, without input, gen3 bootloader idle" eval \
	'[ "$(emul_driver)" = cyapa ] && ! emul_has_input &&
	 [ "$(cyapa_attr mode)" = "gen3 bootloader idle" ]'
vm_check "the next touchfw run recovers it by the remembered product: 2.0, an input device" eval \
	'"$TOUCHFW" run "$EMUL_DEV" >/run/tf.out 2>&1 &&
	 grep -q "gen3 bootloader idle; firmware_version 1.0 is the last cyapa read" /run/tf.out &&
	 grep -q "remembered hardware CYTRA-116002-00" /run/tf.out &&
	 grep -q "verified: firmware (bootloader) -> 2.0" /run/tf.out &&
	 [ "$(cyapa_attr firmware_version)" = 2.0 ] &&
	 [ "$(emul_state fw_version)" = 2.0 ] && emul_has_input'
vm_check "cyapa_emul unloads with the driver bound" emul_unload

# ---- 6. a Gen5 (PIP) trackpad
# pip_loaded GEN: cyapa_emul loaded with a Gen GEN pad at 1.0; cyapa bound
# it, "genGEN operational", with an input device.
pip_loaded() {
	pip_gen=$1
	rm -f "$TOUCHFW_STATE"/*.json "$TOUCHFW_STATE"/*.log
	emul_dmesg_mark
	vm_require "cyapa_emul loads (Gen$pip_gen, firmware 1.0)" emul_load gen="$pip_gen"
	vm_check "cyapa is bound, an input device, gen$pip_gen operational, 1.0, CYTRA-116002-00" eval \
		'[ "$(emul_driver)" = cyapa ] && vm_wait 10 "input device" emul_has_input &&
		 [ "$(cyapa_attr mode)" = "gen$pip_gen operational" ] &&
		 [ "$(cyapa_attr firmware_version)" = 1.0 ] &&
		 [ "$(cyapa_attr product_id)" = CYTRA-116002-00 ]'
	vm_log "pad: $(tr '\n' ' ' <"$EMUL_STATE")"
}

# pip_flashed GEN FILE: touchfw flash --firmware FILE (a 3.1 of that
# generation) takes the pad through its bootloader to 3.1, verified; the
# figure cyapa_genGEN_flash_to_verified_input_ms; the module unloads.
pip_flashed() {
	pip_gen=$1 pip_file=$2
	emul_dmesg_mark
	t_run=$(vm_now_us)
	vm_check "touchfw flash --firmware of a Gen$pip_gen 3.1 (exit 0)" eval \
		'"$TOUCHFW" flash --firmware "$pip_file" "$EMUL_DEV" >/run/tf.out 2>&1'
	t_done=$(vm_now_us)
	vm_log "tf: $(tail -3 /run/tf.out | tr '\n' ' ')"
	vm_log "pad: $(tr '\n' ' ' <"$EMUL_STATE")"
	vm_check "the pad: bootloader entered, one initiate, 465 rows, launched; firmware 3.1" eval \
		'[ "$(emul_state bl_enters)" = 1 ] && [ "$(emul_state initiates)" = 1 ] &&
		 [ "$(emul_state rows_written)" = 465 ] && [ "$(emul_state row_errors)" = 0 ] &&
		 [ "$(emul_state fw_version)" = 3.1 ] && [ "$(emul_state mode)" = app ]'
	vm_check "touchfw verified it; the driver: gen$pip_gen operational, 3.1, an input device" eval \
		'grep -q "verified: firmware 1.0 -> 3.1" /run/tf.out &&
		 [ "$(cyapa_attr mode)" = "gen$pip_gen operational" ] &&
		 [ "$(cyapa_attr firmware_version)" = 3.1 ] && emul_has_input'
	vm_check "no error from cyapa" eval '! emul_dmesg_has "firmware update failed"'
	vm_figure "cyapa_gen${pip_gen}_flash_to_verified_input_ms" "$(vm_us_to_ms $((t_done - t_run)))" ms
	vm_check "cyapa_emul unloads with the driver bound" emul_unload
}

# pip_bind_updated GEN PRODUCT: the PIP board's profile in place of the
# Gen3 one; a Gen GEN pad of PRODUCT at 0x24 (where real PIP parts sit)
# running 1.0, bound by cyapa; touchfw's rule in force, a rebind: the
# bind uevent's run reads product and version from cyapa's attributes,
# stages the database's 3.0 for PRODUCT (an image of generation GEN) as
# cyapa.bin and writes update_fw; cyapa enters the bootloader, initiates
# it, writes 465 rows, launches 3.0 and registers a new input device,
# which touchfw verifies; the figure cyapa_genGEN_bind_to_verified_input_ms;
# the module unloads, the Gen3 profile is back.
CYAPA_PROFILE=/usr/local/etc/touchfw/boards/qemu-cyapa-emul.dtb
pip_bind_updated() {
	pip_gen=$1 pip_id=$2
	pip_blob=/usr/local/share/touchfw/firmware-db/cyapa/cyapa-$pip_id-fw-3.0.bin
	rm -f "$TOUCHFW_STATE"/*.json "$TOUCHFW_STATE"/*.log
	vm_require "the PIP board's profile in place of the Gen3 one" eval \
		'cp "$CYAPA_PROFILE" /run/qemu-cyapa-emul.dtb && cp /vm/qemu-cyapa-emul-pip.dtb "$CYAPA_PROFILE"'
	vm_check "the database's Gen$pip_gen image for $pip_id is 61997 bytes (465 rows and the metadata row)" \
		test "$(wc -c <"$pip_blob")" = 61997
	emul_dmesg_mark
	vm_require "cyapa_emul loads (Gen$pip_gen at 0x24, $pip_id, firmware 1.0)" \
		emul_load gen="$pip_gen" addr=0x24 product_id="$pip_id"
	vm_check "cyapa is bound to ${EMUL_BUS}-0024: an input device, gen$pip_gen operational, 1.0, $pip_id" eval \
		'[ "$(emul_driver)" = cyapa ] && [ "$EMUL_DEV" = "${EMUL_BUS}-0024" ] &&
		 vm_wait 10 "input device" emul_has_input &&
		 [ "$(cyapa_attr mode)" = "gen$pip_gen operational" ] &&
		 [ "$(cyapa_attr firmware_version)" = 1.0 ] &&
		 [ "$(cyapa_attr product_id)" = "$pip_id" ]'
	run_from_bind
	vm_check "result ok through update_fw, 1.0 -> 3.0" eval \
		'[ "$(emul_result_field result)" = ok ] && [ "$(emul_result_field path)" = update_fw ] &&
		 [ "$(emul_result_field version_before)" = 1.0 ] &&
		 [ "$(emul_result_field version_after)" = 3.0 ]'
	vm_check "touchfw read product $pip_id, firmware 1.0 from cyapa's attributes" \
		emul_log_has "application mode: hardware $pip_id, firmware 1.0"
	vm_check "touchfw staged the database's 3.0 as cyapa.bin and wrote update_fw" \
		emul_log_has "staged cyapa-$pip_id-fw-3.0 as $TOUCHFW_STATE/firmware/cyapa.bin; asking cyapa to flash it (update_fw)"
	vm_check "the loader gave cyapa that file" \
		emul_fw_loaded "cyapa $EMUL_DEV" cyapa.bin "$TOUCHFW_STATE/firmware/cyapa.bin" "$pip_blob"
	vm_check "the pad: bootloader entered, one initiate, 465 rows, launched; firmware 3.0" eval \
		'[ "$(emul_state bl_enters)" = 1 ] && [ "$(emul_state initiates)" = 1 ] &&
		 [ "$(emul_state rows_written)" = 465 ] && [ "$(emul_state row_errors)" = 0 ] &&
		 [ "$(emul_state fw_version)" = 3.0 ] && [ "$(emul_state mode)" = app ]'
	vm_check "the driver reports firmware_version 3.0, gen$pip_gen operational" eval \
		'[ "$(cyapa_attr firmware_version)" = 3.0 ] &&
		 [ "$(cyapa_attr mode)" = "gen$pip_gen operational" ]'
	vm_check "a new input device ($input_before -> $(emul_input)), the one touchfw verified" eval \
		'emul_has_input && [ "$(emul_input)" != "$input_before" ] &&
		 [ "$(emul_result_field input)" = "$(emul_event)" ] &&
		 emul_log_has "verified: firmware 1.0 -> 3.0"'
	left_clean "cyapa_gen${pip_gen}_bind_to_verified_input_ms"
	vm_check "cyapa_emul unloads with the driver bound" emul_unload
	vm_require "the Gen3 board's profile back" cp /run/qemu-cyapa-emul.dtb "$CYAPA_PROFILE"
}

vm_require "fwgen makes the Gen5 files" eval '
	fwgen cyapa-pip-fw --id CYTRA-116002-00 --version 3.1 -o $fwdir/CYTRA-116002-00_3.1.bin &&
	fwgen cyapa-pip-fw --id CYTRA-116002-00 --version 3.2 --form bad-app-crc -o $fwdir/pip-bad-app.bin'
pip_loaded 5
vm_check "touchfw does not send the database's Gen3 image to the Gen5 pad" eval \
	'! "$TOUCHFW" run "$EMUL_DEV" >/run/tf.out 2>&1 &&
	 grep -q "a Gen3 image, the trackpad is Gen5: cyapa would refuse it; not sent" /run/tf.out &&
	 [ "$(emul_state initiates)" = 0 ] && [ "$(emul_state bl_enters)" = 0 ]'
emul_dmesg_mark
vm_check "update_fw pip-bad-app.bin fails: cyapa's own application CRC check" eval \
	'! cyapa_update pip-bad-app.bin &&
	 emul_dmesg_has "invalid firmware app crc check" &&
	 [ "$(emul_state initiates)" = 0 ]'
pip_flashed 5 "$fwdir/CYTRA-116002-00_3.1.bin"
pip_bind_updated 5 CYTRA-103002-00

# ---- 7. a Gen6 (PIP) trackpad
vm_require "fwgen makes the Gen6 file" eval '
	mkdir -p $fwdir/g6 &&
	fwgen cyapa-pip-fw --id CYTRA-116002-00 --version 3.1 --form gen6 -o $fwdir/g6/CYTRA-116002-00_3.1.bin'
pip_loaded 6
vm_check "touchfw does not send the Gen5 3.1 to the Gen6 pad (exit 13)" eval \
	'"$TOUCHFW" flash --firmware "$fwdir/CYTRA-116002-00_3.1.bin" "$EMUL_DEV" >/run/tf.out 2>&1;
	 [ $? = 13 ] &&
	 grep -q "a Gen5 image, the trackpad is Gen6: cyapa would refuse it; not sent" /run/tf.out &&
	 [ "$(emul_state initiates)" = 0 ] && [ "$(emul_state bl_enters)" = 0 ]'
emul_dmesg_mark
vm_check "update_fw of the Gen5 file by hand fails: cyapa's own head check" eval \
	'! cyapa_update CYTRA-116002-00_3.1.bin &&
	 emul_dmesg_has "firmware image not match TP device" &&
	 [ "$(emul_state initiates)" = 0 ] && [ "$(emul_state bl_enters)" = 0 ]'
vm_check "the driver re-detected it: gen6 operational, an input device" eval \
	'[ "$(cyapa_attr mode)" = "gen6 operational" ] && vm_wait 10 "input device" emul_has_input'
pip_flashed 6 "$fwdir/g6/CYTRA-116002-00_3.1.bin"
pip_bind_updated 6 CYTRA-106002-00
vm_check "no oops, no warning (taint D, W; kernel log)" vm_no_oops
