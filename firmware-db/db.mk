# SPDX-License-Identifier: GPL-2.0-or-later
#
# The demo firmware database: manifest.ini is source; the blobs are made by
# fwgen (deterministic, so the manifest's hashes hold), and the build signs
# the manifest with a key of its own (build/keys) so the demo and the tests
# exercise signature checking.  Included by the top Makefile.

DB_DIR := $(B)/firmware-db
DB_KEYS := $(B)/keys
DB_BLOBS := $(DB_DIR)/mxt224e/fw-2.1.AB.fw $(DB_DIR)/mxt224e/cfg-2.1.AB.cfg \
	$(DB_DIR)/mxt1664s/fw-3.0.10.enc $(DB_DIR)/mxt1664s/cfg-3.0.10.cfg \
	$(DB_DIR)/goodix/gt911-cfg-72.bin $(DB_DIR)/goodix/gt1151-cfg-90.bin \
	$(DB_DIR)/silead/emul-tablet-1.fw $(DB_DIR)/silead/emul-other-1.fw \
	$(DB_DIR)/elants/elants-2a1c-fw-5512.bin $(DB_DIR)/elantp/elantp-18-fw-6.0.bin \
	$(DB_DIR)/elantp/elantp-19-fw-6.0.bin $(DB_DIR)/berlin/gt9916-fw-01000002.bin
DB_OUTPUTS := $(DB_DIR)/manifest.ini $(DB_BLOBS) $(DB_DIR)/manifest.ini.sig

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

$(DB_DIR)/goodix/gt911-cfg-72.bin: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen goodix-config --id 911 --version 72 --resolution 1024x600 -o $@
$(DB_DIR)/goodix/gt1151-cfg-90.bin: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen goodix-config --id 1151 --version 90 --resolution 1200x1920 --touches 10 -o $@

$(DB_DIR)/elants/elants-2a1c-fw-5512.bin: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen elants-fw --id 2a1c --version 5512 --size 64 -o $@

$(DB_DIR)/elantp/elantp-18-fw-6.0.bin: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen elantp-fw --id 18 --version 6 -o $@
$(DB_DIR)/berlin/gt9916-fw-01000002.bin: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen berlin-fw --chip gt9916 --id 9916 --version 01000002 --size 65536 \
		--config-id 0x22 -o $@

# The VM tests' touchpad part: application from page 496 (16 pages to write).
$(DB_DIR)/elantp/elantp-19-fw-6.0.bin: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen elantp-fw --id 19 --version 6 --iap-start 496 -o $@

$(DB_DIR)/manifest.ini: firmware-db/manifest.ini
	@mkdir -p $(@D)
	$(Q)cp $< $@

$(DB_KEYS)/build-demo.key: | $(B)/touchfw-agent
	@rm -rf $(DB_KEYS)
	$(q) KEYGEN $@
	$(Q)$(B)/touchfw-agent db keygen --out $(DB_KEYS) build-demo >/dev/null

$(DB_DIR)/manifest.ini.sig: $(DB_DIR)/manifest.ini $(DB_BLOBS) $(DB_KEYS)/build-demo.key
	$(q) SIGN $@
	$(Q)$(B)/touchfw-agent db sign --key $(DB_KEYS)/build-demo.key --db $(DB_DIR) >/dev/null

# Silead: per-tablet files; the emulated tablet's panel runs seed 1 only
# (tests/emul/boards/silead-tablet.board, silead.firmware_seed = 1/4).
$(DB_DIR)/silead/emul-tablet-1.fw: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen silead-fw --tag 1 --size 4 -o $@
$(DB_DIR)/silead/emul-other-1.fw: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen silead-fw --tag 2 --size 4 -o $@
