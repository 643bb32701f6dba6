# SPDX-License-Identifier: GPL-2.0-or-later
#
# The demo firmware database's elants part (firmware-db/db.mk includes it):
# its blobs, made by fwgen, and its manifest sections (manifest.ini here).

DB_BLOBS += $(DB_DIR)/elants/elants-2a1c-fw-5512.bin
DB_MANIFEST_PARTS += tests/emul/family/elants/manifest.ini

$(DB_DIR)/elants/elants-2a1c-fw-5512.bin: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen elants-fw --id 2a1c --version 5512 --size 64 -o $@
