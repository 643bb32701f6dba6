# SPDX-License-Identifier: GPL-2.0-or-later
#
# The demo firmware database's cyapa part (firmware-db/db.mk includes it):
# its blobs, made by fwgen, and its manifest sections (manifest.ini here):
# a Gen3 image, and a Gen5 and a Gen6 (PIP) image for the PIP trackpads of
# the VM's and the emulator's PIP boards.

DB_BLOBS += $(DB_DIR)/cyapa/cyapa-CYTRA-116002-00-fw-2.0.bin \
	$(DB_DIR)/cyapa/cyapa-CYTRA-103002-00-fw-3.0.bin \
	$(DB_DIR)/cyapa/cyapa-CYTRA-106002-00-fw-3.0.bin
DB_MANIFEST_PARTS += tests/emul/family/cyapa/manifest.ini

$(DB_DIR)/cyapa/cyapa-CYTRA-116002-00-fw-2.0.bin: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen cyapa-fw --id CYTRA-116002-00 --version 2.0 -o $@

# Gen5: the head names family id 0x91, silicon id 0x02
$(DB_DIR)/cyapa/cyapa-CYTRA-103002-00-fw-3.0.bin: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen cyapa-pip-fw --id CYTRA-103002-00 --version 3.0 -o $@

# Gen6: 0x9b, 0x0b
$(DB_DIR)/cyapa/cyapa-CYTRA-106002-00-fw-3.0.bin: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen cyapa-pip-fw --id CYTRA-106002-00 --version 3.0 --form gen6 -o $@
