# SPDX-License-Identifier: GPL-2.0-or-later
#
# The demo firmware database's berlin part (firmware-db/db.mk includes it):
# its blobs, made by fwgen, and its manifest sections (manifest.ini here).

DB_BLOBS += $(DB_DIR)/berlin/gt9916-fw-01000002.bin
DB_MANIFEST_PARTS += tests/emul/family/berlin/manifest.ini

$(DB_DIR)/berlin/gt9916-fw-01000002.bin: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen berlin-fw --chip gt9916 --id 9916 --version 01000002 --size 65536 \
		--config-id 0x22 -o $@

# Goodix Berlin fixtures for the emulated GT9916 (tests/emul/boards/berlin-*):
# a firmware file in the container fwupdate.c parses (ISP, application,
# config subsystems) and its config alone in the updater's text form.
# Deterministic, so tests and a manifest can carry fixed hashes.
EMUL_FIXTURES += $(B)/fixtures/berlin/gt9916-9916-01000002.bin \
	$(B)/fixtures/berlin/gt9916-cfg-22.cfg

$(B)/fixtures/berlin/gt9916-9916-01000002.bin: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen berlin-fw --chip gt9916 --id 9916 --version 01000002 --size 65536 \
		--config-id 0x22 -o $@
$(B)/fixtures/berlin/gt9916-cfg-22.cfg: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen berlin-cfg --config-id 0x22 --enc -o $@
