# SPDX-License-Identifier: GPL-2.0-or-later
#
# The demo firmware database's cyapa part (firmware-db/db.mk includes it):
# its blob, made by fwgen, and its manifest section (manifest.ini here).

DB_BLOBS += $(DB_DIR)/cyapa/cyapa-CYTRA-116002-00-fw-2.0.bin
DB_MANIFEST_PARTS += tests/emul/family/cyapa/manifest.ini

$(DB_DIR)/cyapa/cyapa-CYTRA-116002-00-fw-2.0.bin: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen cyapa-fw --id CYTRA-116002-00 --version 2.0 -o $@
