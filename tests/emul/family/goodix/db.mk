# SPDX-License-Identifier: GPL-2.0-or-later
#
# The demo firmware database's goodix part (firmware-db/db.mk includes it):
# its blobs, made by fwgen, and its manifest sections (manifest.ini here).

DB_BLOBS += $(DB_DIR)/goodix/gt911-cfg-72.bin \
	$(DB_DIR)/goodix/gt1151-cfg-90.bin
DB_MANIFEST_PARTS += tests/emul/family/goodix/manifest.ini

$(DB_DIR)/goodix/gt911-cfg-72.bin: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen goodix-config --id 911 --version 72 --resolution 1024x600 -o $@

$(DB_DIR)/goodix/gt1151-cfg-90.bin: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen goodix-config --id 1151 --version 90 --resolution 1200x1920 --touches 10 -o $@
