# SPDX-License-Identifier: GPL-2.0-or-later
#
# The demo firmware database's rmi4 part (firmware-db/db.mk includes it):
# its blobs, made by fwgen, and its manifest sections (manifest.ini here).

DB_BLOBS += $(DB_DIR)/rmi4/rmi4-s3203-fw-1970960.img \
	$(DB_DIR)/rmi4/rmi4-s3204-fw-1970960.img
DB_MANIFEST_PARTS += tests/emul/family/rmi4/manifest.ini

$(DB_DIR)/rmi4/rmi4-s3203-fw-1970960.img: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen rmi4-fw --id s3203 --version 1970960 -o $@

# Another product's image: touchfw must refuse it for an s3203.
$(DB_DIR)/rmi4/rmi4-s3204-fw-1970960.img: $(B)/fwgen
	@mkdir -p $(@D)
	$(q) FWGEN $@
	$(Q)$(B)/fwgen rmi4-fw --id s3204 --version 1970960 -o $@
