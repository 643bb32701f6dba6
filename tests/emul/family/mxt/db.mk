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

# Fixtures of the .xcfg import (tests/unit/test_mxt_xcfg.c, the e2e tests):
# each preset's OBP_RAW configuration and the same configuration as the
# .xcfg Microchip's tools write (maXTouch Studio's, mxt-app's), and .xcfg
# files broken the ways fwgen's --form names.  Made from the chip model.
MXT_XCFG_BROKEN := overflow beyond overlap encrypted devices no-header truncated
MXT_XCFG_CHIPS := mxt224e-2.1.AB mxt1664s-3.0.10
EMUL_FIXTURES += $(foreach c,$(MXT_XCFG_CHIPS),$(B)/fixtures/mxt/$(c).cfg \
		$(B)/fixtures/mxt/$(c)-studio.xcfg $(B)/fixtures/mxt/$(c)-mxt-app.xcfg) \
	$(foreach f,$(MXT_XCFG_BROKEN),$(B)/fixtures/mxt/mxt224e-2.1.AB-$(f).xcfg)

# $(1): chip-version, $(2): the form
define mxt_xcfg_rule
$(B)/fixtures/mxt/$(1)-$(2).xcfg: $(B)/fwgen
	@mkdir -p $$(@D)
	$$(q) FWGEN $$@
	$$(Q)$(B)/fwgen xcfg --chip $(firstword $(subst -, ,$(1))) \
		--version $(lastword $(subst -, ,$(1))) --form $(2) -o $$@
endef
define mxt_cfg_rule
$(B)/fixtures/mxt/$(1).cfg: $(B)/fwgen
	@mkdir -p $$(@D)
	$$(q) FWGEN $$@
	$$(Q)$(B)/fwgen config --chip $(firstword $(subst -, ,$(1))) \
		--version $(lastword $(subst -, ,$(1))) -o $$@
endef
$(foreach c,$(MXT_XCFG_CHIPS),$(eval $(call mxt_cfg_rule,$(c))) \
	$(foreach f,studio mxt-app $(MXT_XCFG_BROKEN),$(eval $(call mxt_xcfg_rule,$(c),$(f)))))
