# SPDX-License-Identifier: GPL-2.0-or-later
#
# The demo firmware database's silead part (firmware-db/db.mk includes it):
# its blobs, made by fwgen, and its manifest sections (manifest.ini here).

DB_BLOBS += $(DB_DIR)/silead/emul-tablet-1.fw \
	$(DB_DIR)/silead/emul-other-1.fw
DB_MANIFEST_PARTS += tests/emul/family/silead/manifest.ini

# Per-tablet files; the emulated tablet's panel runs seed 1 only
# (tests/emul/boards/silead-tablet.board, silead.firmware_seed = 1/4).
$(DB_DIR)/silead/emul-tablet-1.fw: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen silead-fw --tag 1 --size 4 -o $@
$(DB_DIR)/silead/emul-other-1.fw: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen silead-fw --tag 2 --size 4 -o $@
