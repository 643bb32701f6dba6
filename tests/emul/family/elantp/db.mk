# SPDX-License-Identifier: GPL-2.0-or-later
#
# The demo firmware database's elantp part (firmware-db/db.mk includes it):
# its blobs, made by fwgen, and its manifest sections (manifest.ini here).

DB_BLOBS += $(DB_DIR)/elantp/elantp-18-fw-6.0.bin \
	$(DB_DIR)/elantp/elantp-19-fw-6.0.bin \
	$(DB_DIR)/elantp/elantp-776-fw-6.0.bin
DB_MANIFEST_PARTS += tests/emul/family/elantp/manifest.ini

$(DB_DIR)/elantp/elantp-18-fw-6.0.bin: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen elantp-fw --id 18 --version 6 -o $@

# The VM tests' touchpad part: application from page 496 (16 pages to write).
$(DB_DIR)/elantp/elantp-19-fw-6.0.bin: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen elantp-fw --id 19 --version 6 --iap-start 496 -o $@

# The VM tests' SMBus touchpad: product 776 (0x0308, the unique id whose
# bytes elan_i2c_smbus also reads as sample version 3 and ic type 0x08),
# application from page 496.
$(DB_DIR)/elantp/elantp-776-fw-6.0.bin: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen elantp-fw --id 776 --version 6 --iap-start 496 -o $@
