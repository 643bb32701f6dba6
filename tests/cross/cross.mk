# SPDX-License-Identifier: GPL-2.0-or-later
#
# touchfw cross-built for other Debian architectures with Debian's own
# cross toolchains and multiarch libraries, and its unit tests run under
# qemu-user (doc/HACKING.md, "Cross builds"); included by the top Makefile.
#
#   make cross              build the agent and the unit tests for each
#                           of CROSS_ARCHS, in $(B)-ARCH; check that they
#                           are ARCH executables (tests/cross/check-elf)
#   make check-cross        ... and run the unit tests under qemu-user
#   make deb-cross          the Debian package for each of CROSS_ARCHS
#                           ($(B)-ARCH/deb)
#
# CROSS_ARCHS (default and only one so far: arm64) are Debian
# architectures; another needs its triplet and qemu-user here, its
# packages in tests/cross/deps and its ELF header in check-elf.  (armhf was
# tried and left out: Debian's armhf bookworm-security index failed to
# download from this project's mirror, and a foreign architecture whose
# apt-get update fails breaks every later install.)
# `make deps` installs their packages (tests/cross/deps, which adds the
# architecture to dpkg's first); `make check` runs the unit tests of each
# whose packages are installed and says in one line which it skipped and
# why.  `CROSS_ARCHS=` leaves the cross build out of both.
#
# The cross build is this Makefile, unchanged, through its usual
# variables: CC, AR and PKG_CONFIG of the target's GNU triplet
# (TRIPLET-pkg-config comes with pkgconf:ARCH and searches ARCH's
# multiarch .pc directory), B=$(B)-ARCH.  Host tools stay the host's: dtc,
# BUILD_CC (gen-ids), and fwgen: the unit tests read the fixtures fwgen
# wrote for the native build ($(B)/fixtures).

CROSS_MK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
CROSS_ARCHS ?= arm64
CROSS_KNOWN_ARCHS := arm64

CROSS_TRIPLET_arm64 := aarch64-linux-gnu
CROSS_QEMU_arm64 := qemu-aarch64-static

$(foreach a,$(CROSS_ARCHS),$(if $(filter $(a),$(CROSS_KNOWN_ARCHS)),,\
	$(error CROSS_ARCHS: unknown architecture '$(a)' (known: $(CROSS_KNOWN_ARCHS)))))

cross_b = $(B)-$(1)
cross_triplet = $(CROSS_TRIPLET_$(1))
# libfdt-dev is not multiarch (tests/cross/deps): the link a -dev
# package would have, to the ARCH library libfdt1:ARCH installed (its
# version is the amd64 libfdt-dev's, whose headers the build uses: dpkg
# keeps the copies of a Multi-Arch: same package at one version).
cross_fdt_dir = $(abspath $(call cross_b,$(1)))/libfdt
# The programs the unit tests run on: the test binaries, each through a
# script that starts it under qemu-user ($(B)-ARCH/qemu-ARCH/tests/unit/
# NAME: tests/run-tests names it NAME@qemu-ARCH and gives it that
# directory as TOUCHFW_BUILD, where fixtures/ is the native build's).
cross_unit = $(patsubst $(B)/%,$(call cross_b,$(1))/%,$(UNIT_TESTS))
cross_wrappers = $(patsubst $(B)/%,$(call cross_b,$(1))/qemu-$(1)/%,$(UNIT_TESTS))

# The same make for ARCH.  Command-line variables of this make (CC=clang,
# SAN=1, ...) reach it through MAKEFLAGS: the ones that must be ARCH's
# are set again here.  PKG_CONFIG_PATH would add the build machine's .pc
# files to ARCH's search: it is left out.
cross_make = env -u PKG_CONFIG_PATH $(MAKE) --no-print-directory B=$(call cross_b,$(1)) \
	CROSS_COMPILE=$(call cross_triplet,$(1))- CC=$(call cross_triplet,$(1))-gcc \
	AR=$(call cross_triplet,$(1))-ar PKG_CONFIG=$(call cross_triplet,$(1))-pkg-config \
	LDFLAGS="$(strip $(LDFLAGS) -L$(call cross_fdt_dir,$(1)))" SAN= TF_RPATH= CROSS_CHECK=

# Missing packages of ARCH (empty when it can be built and tested).
cross_missing = $(shell $(CROSS_MK_DIR)/deps missing $(1))
CROSS_SKIP_NOTE = cross: $(1) build and its unit tests under qemu-user skipped: not installed: \
	$(call cross_missing,$(1)) (as root: make deps; CROSS_ARCHS= leaves them out)

.PHONY: cross cross-build check-cross deb-cross cross-deps cross-deps-check check-cross-deps \
	cross-clean $(addprefix cross-triplet-,$(CROSS_KNOWN_ARCHS)) $(addprefix cross-qemu-,$(CROSS_KNOWN_ARCHS)) \
	$(addprefix cross-,$(CROSS_KNOWN_ARCHS)) $(addprefix cross-tests-,$(CROSS_KNOWN_ARCHS)) \
	$(addprefix deb-cross-,$(CROSS_KNOWN_ARCHS)) $(addprefix cross-ready-,$(CROSS_KNOWN_ARCHS))

cross: $(addprefix cross-,$(CROSS_ARCHS))

cross-deps:
	@$(CROSS_MK_DIR)/deps install $(CROSS_ARCHS)
# make check's: as root installs, else leaves it to the note below.
# After deps-check, so that make -j never runs two apt-gets at once.
cross-deps-check: deps-check
	@$(CROSS_MK_DIR)/deps auto $(CROSS_ARCHS)

# What the make for ARCH builds (its B is $(B)-ARCH).
cross-build: all $(UNIT_TESTS)

# ARCH's packages are there, and the libfdt.so link.
$(addprefix cross-ready-,$(CROSS_KNOWN_ARCHS)): cross-ready-%:
	@m=$$($(CROSS_MK_DIR)/deps missing $*); [ -z "$$m" ] || { \
		echo "make cross: the $* cross build needs: $$m (as root: make deps CROSS_ARCHS=$*)" >&2; exit 1; }
	@mkdir -p $(call cross_fdt_dir,$*)
	@ln -sfn /usr/lib/$(call cross_triplet,$*)/libfdt.so.1 $(call cross_fdt_dir,$*)/libfdt.so

# The build prints nothing on stderr but the compiler's and linker's
# warnings (the compiler's are errors, -Werror; the linker's are not):
# anything there fails it.  Then every program must be an ARCH one.
$(addprefix cross-,$(CROSS_KNOWN_ARCHS)): cross-%: cross-ready-%
	+@t=$$(date +%s); \
	$(call cross_make,$*) cross-build 2>$(call cross_b,$*)/stderr.log; rc=$$?; \
	cat $(call cross_b,$*)/stderr.log >&2; \
	[ $$rc = 0 ] || exit $$rc; \
	if [ -s $(call cross_b,$*)/stderr.log ]; then \
		echo "make cross: the $* build printed the above on stderr; it must be warning-free" >&2; exit 1; fi; \
	echo "cross $*: agent and $(words $(UNIT_TESTS)) unit tests built in $(call cross_b,$*) ($$(($$(date +%s) - t))s)"
	@$(CROSS_MK_DIR)/check-elf $* $(call cross_triplet,$*)-readelf \
		$(addprefix $(call cross_b,$*)/,touchfw touchfw-agent) $(call cross_unit,$*)

# The qemu-user scripts.  qemu runs the ARCH binary with the multiarch
# runtime of the build machine (-L /: no prefix; ARCH's loader and
# libraries are libc6:ARCH's and the -dev packages' libraries, at the
# paths a Debian system of that architecture has them), whatever
# QEMU_LD_PREFIX says.
$(addprefix cross-tests-,$(CROSS_KNOWN_ARCHS)): cross-tests-%: cross-% $(EMUL_FIXTURES)
	@mkdir -p $(call cross_b,$*)/qemu-$*
	@ln -sfn $(abspath $(B))/fixtures $(call cross_b,$*)/qemu-$*/fixtures
	@set -e; for t in $(patsubst $(B)/%,%,$(UNIT_TESTS)); do \
		w=$(call cross_b,$*)/qemu-$*/$$t; mkdir -p $$(dirname $$w); \
		printf '#!/bin/sh\n# %s under qemu-user (tests/cross/cross.mk)\nexec %s -L / %s "$$@"\n' \
			"$$t" "$(CROSS_QEMU_$*)" "$(abspath $(call cross_b,$*))/$$t" >$$w.tmp; \
		chmod +x $$w.tmp; mv $$w.tmp $$w; \
	done

# Their own run: tests/run-tests's summaries and totals.
check-cross: $(addprefix cross-tests-,$(CROSS_ARCHS))
	@t=$$(date +%s); B=$(B) tests/run-tests $(foreach a,$(CROSS_ARCHS),$(call cross_wrappers,$(a))) && \
		echo "make check-cross: $(CROSS_ARCHS) unit tests under qemu-user $$(($$(date +%s) - t))s"

# In make check (CROSS_CHECK=1): each of CROSS_ARCHS whose packages are
# installed is built and its unit tests join check-run's programs
# (CROSS_RUN); each of the others is skipped with a one-line note.
# tests/cross/check-deb-ARCH (its Debian package checked as
# tests/system/check-deb checks the native one) runs in check-rest.
# The fixtures are made first, here: the make of cross-tests-ARCH then
# finds them done, not making them beside check-run's other prerequisites.
check-cross-deps: $(EMUL_FIXTURES)
	+@$(foreach a,$(CROSS_ARCHS),$(if $(call cross_missing,$(a)),echo "$(strip $(call CROSS_SKIP_NOTE,$(a)))",\
		t=$$(date +%s) && $(MAKE) --no-print-directory cross-tests-$(a) && \
		echo "cross $(a): build $$(($$(date +%s) - t))s; its unit tests run below as NAME@qemu-$(a)");) true
check-run: $(if $(CROSS_CHECK),check-cross-deps)
CROSS_RUN = $(if $(CROSS_CHECK),$(foreach a,$(CROSS_ARCHS),$(if $(call cross_missing,$(a)),,$(call cross_wrappers,$(a)))))
# Each one's Debian package, checked in check-rest (.ci/run, after make
# check): a cross build of the package, the longest of the system checks.
REST_CHECKS += $(foreach a,$(CROSS_ARCHS),$(if $(call cross_missing,$(a)),,$(wildcard $(CROSS_MK_DIR)/check-deb-$(a))))

# The Debian package for ARCH: `make deb` with dpkg-buildpackage -a ARCH
# (debhelper then passes the cross CC and PKG_CONFIG to the Makefile;
# CROSS_COMPILE in the environment gives it the cross ar), without
# dpkg-checkbuilddeps (-d): libfdt-dev:ARCH can not be installed
# (above); the linker finds libfdt through DEB_LDFLAGS_APPEND.
$(addprefix deb-cross-,$(CROSS_KNOWN_ARCHS)): deb-cross-%: cross-ready-%
	+@$(MAKE) --no-print-directory B=$(call cross_b,$*) deb DEB_BUILD_ARGS="-a$* -Pcross,nocheck -d" \
		DEB_BUILD_ENV="CC=$(call cross_triplet,$*)-gcc CROSS_COMPILE=$(call cross_triplet,$*)- DEB_BUILD_OPTIONS=nocheck DEB_LDFLAGS_APPEND=-L$(call cross_fdt_dir,$*)"
deb-cross: $(addprefix deb-cross-,$(CROSS_ARCHS))

clean: cross-clean
cross-clean:
	rm -rf $(foreach a,$(CROSS_KNOWN_ARCHS),$(call cross_b,$(a)))

# tests/deps and tests/cross/deps on a multiarch machine (fakes only).
SYSTEM_CHECKS += $(if $(filter 1,$(SAN)),,$(CROSS_MK_DIR)/check-deps)

# For scripts: ARCH's triplet and qemu-user.
$(addprefix cross-triplet-,$(CROSS_KNOWN_ARCHS)): cross-triplet-%:
	@echo $(call cross_triplet,$*)
$(addprefix cross-qemu-,$(CROSS_KNOWN_ARCHS)): cross-qemu-%:
	@echo $(CROSS_QEMU_$*)
