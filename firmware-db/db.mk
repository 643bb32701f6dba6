# SPDX-License-Identifier: GPL-2.0-or-later
#
# The demo firmware database: manifest.ini is source; the blobs are made by
# fwgen (deterministic, so the manifest's hashes hold), and the build signs
# the manifest with a key of its own (build/keys) so the demo and the tests
# exercise signature checking.  Included by the top Makefile.

DB_DIR := $(B)/firmware-db
DB_KEYS := $(B)/keys
# Each family of the emulator adds its blobs (DB_BLOBS +=), the rules that
# make them and its manifest sections (DB_MANIFEST_PARTS +=) in
# tests/emul/family/<name>/db.mk, taken in registry.def's order.
DB_BLOBS :=
DB_MANIFEST_PARTS :=
DB_FAMILIES := $(shell sed -n 's/^EMUB_FAMILY(\(.*\))/\1/p' tests/emul/family/registry.def)
include $(wildcard $(patsubst %,tests/emul/family/%/db.mk,$(DB_FAMILIES)))
DB_OUTPUTS := $(DB_DIR)/manifest.ini $(DB_BLOBS) $(DB_DIR)/manifest.ini.sig

# The [database] section, then the families' entries.
$(DB_DIR)/manifest.ini: firmware-db/manifest.ini $(DB_MANIFEST_PARTS)
	@mkdir -p $(@D)
	$(Q)cat $^ >$@

$(DB_KEYS)/build-demo.key: | $(B)/touchfw-agent
	@rm -rf $(DB_KEYS)
	$(q) KEYGEN $@
	$(Q)$(B)/touchfw-agent db keygen --out $(DB_KEYS) build-demo >/dev/null

$(DB_DIR)/manifest.ini.sig: $(DB_DIR)/manifest.ini $(DB_BLOBS) $(DB_KEYS)/build-demo.key
	$(q) SIGN $@
	$(Q)$(B)/touchfw-agent db sign --key $(DB_KEYS)/build-demo.key --db $(DB_DIR) >/dev/null
