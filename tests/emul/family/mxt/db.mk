# SPDX-License-Identifier: GPL-2.0-or-later
#
# The demo firmware database's mxt part (firmware-db/db.mk includes it):
# its blobs, made by fwgen, and its manifest sections (manifest.ini here).

DB_BLOBS += $(DB_DIR)/mxt224e/fw-2.1.AB.fw \
	$(DB_DIR)/mxt224e/cfg-2.1.AB.cfg \
	$(DB_DIR)/mxt1664s/fw-3.0.10.enc \
	$(DB_DIR)/mxt1664s/cfg-3.0.10.cfg
DB_MANIFEST_PARTS += tests/emul/family/mxt/manifest.ini

$(DB_DIR)/mxt224e/fw-2.1.AB.fw: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen image --chip mxt224e --version 2.1.AB --size 49152 --frame 256 -o $@

$(DB_DIR)/mxt224e/cfg-2.1.AB.cfg: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen config --chip mxt224e --version 2.1.AB --tag 1 -o $@

$(DB_DIR)/mxt1664s/fw-3.0.10.enc: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen image --chip mxt1664s --version 3.0.10 --size 65536 --frame 256 --enc -o $@

$(DB_DIR)/mxt1664s/cfg-3.0.10.cfg: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen config --chip mxt1664s --version 3.0.10 --tag 1 -o $@
