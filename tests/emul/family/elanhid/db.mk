# SPDX-License-Identifier: GPL-2.0-or-later
#
# The demo firmware database's elanhid part (firmware-db/db.mk includes it):
# its blob, made by fwgen, and its manifest section (manifest.ini here).
# Module 241 (0xf1), application from page 496: 16 pages of 128 bytes.

DB_BLOBS += $(DB_DIR)/elanhid/elanhid-241-fw-6.0.bin
DB_MANIFEST_PARTS += tests/emul/family/elanhid/manifest.ini

$(DB_DIR)/elanhid/elanhid-241-fw-6.0.bin: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen elanhid-fw --id 241 --version 6 --iap-start 496 -o $@
