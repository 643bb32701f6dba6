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

# Fixtures of the Silead imports (tests/unit/test_silead_import.c, the e2e
# tests): the emulated tablet's program (seed 1, 4 pages) as silead_ts
# loads it, and the same program as gslx680_ts_acpi's GSLX container,
# Silead's Windows GSL_TS_CFG.h, an Android driver's header (one array,
# and two panels' arrays), the Windows driver's scrambled SileadTouch.fw;
# another tablet's (seed 2) as a GSLX; and files broken the ways fwgen's
# --form names.
SILEAD_FX := $(B)/fixtures/silead
SILEAD_GSLX_BROKEN := reversed truncated bad-size padding version2
SILEAD_TSCFG_BROKEN := bad-register no-page big-number no-array
EMUL_FIXTURES += $(SILEAD_FX)/tablet-1.fw $(SILEAD_FX)/tablet-1.gslx \
	$(SILEAD_FX)/other-2.gslx $(SILEAD_FX)/tablet-1-windows.h \
	$(SILEAD_FX)/tablet-1-android.h $(SILEAD_FX)/tablet-1-android-two.h \
	$(SILEAD_FX)/tablet-1-SileadTouch.fw $(SILEAD_FX)/tablet-1-wrong-key.fw \
	$(foreach f,$(SILEAD_GSLX_BROKEN),$(SILEAD_FX)/tablet-1-$(f).gslx) \
	$(foreach f,$(SILEAD_TSCFG_BROKEN),$(SILEAD_FX)/tablet-1-$(f).h)

$(SILEAD_FX)/tablet-1.fw: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen silead-fw --tag 1 --size 4 -o $@
$(SILEAD_FX)/tablet-1.gslx: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen silead-gslx --tag 1 --size 4 --chip 1680 -o $@
$(SILEAD_FX)/other-2.gslx: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen silead-gslx --tag 2 --size 4 --chip 1680 -o $@
$(SILEAD_FX)/tablet-1-SileadTouch.fw: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen silead-scrambled --tag 1 --size 4 -o $@
$(SILEAD_FX)/tablet-1-wrong-key.fw: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen silead-scrambled --tag 1 --size 4 --form wrong-key -o $@
$(SILEAD_FX)/tablet-1-%.gslx: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen silead-gslx --tag 1 --size 4 --form $* -o $@
$(SILEAD_FX)/tablet-1-%.h: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen silead-tscfg --tag 1 --size 4 --chip gsl3676 --form $* -o $@
