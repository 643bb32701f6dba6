# SPDX-License-Identifier: GPL-2.0-or-later
#
# touchfw built against libgpiod 2 beside the normal build (tests/gpiod2/
# README.md), included by the top Makefile.  libgpiod 2.1 comes from
# Debian 12's bookworm-backports, unpacked into $(GPIOD2_DIR) by
# tests/gpiod2/fetch (apt with sources and lists of its own; the system's
# libgpiod stays 1.6); the build in $(GPIOD2_B) finds it through a
# libgpiod.pc of its own prefix on PKG_CONFIG_PATH, and runs it from there
# (a run path, TF_RPATH).
#
#   make gpiod2        fetch libgpiod 2.1, build touchfw against it in $(GPIOD2_B)
#   make gpiod2-deb    the Debian package built against it ($(GPIOD2_B)/deb)
#
# `make check-run` (check, check-fast) runs GPIOD2_TESTS, the programs
# that drive GPIO lines through the agent's backend, against that build
# too (not in the sanitizer pass, nor when the normal build is itself
# on libgpiod 2).

GPIOD2_MK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
GPIOD2_DIR ?= $(B)/gpiod2
GPIOD2_B ?= $(B)-gpiod2
GPIOD2_PC_DIR = $(abspath $(GPIOD2_DIR))/pkgconfig
GPIOD2_LIBDIR = $(abspath $(GPIOD2_DIR))/root/usr/lib/$(shell dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null)
# The second build: the same make with libgpiod 2 first on pkg-config's
# path (in the environment: make's $(shell) sees no command-line variable).
GPIOD2_MAKE = PKG_CONFIG_PATH=$(GPIOD2_PC_DIR)$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH)) \
	$(MAKE) --no-print-directory B=$(GPIOD2_B) GPIOD2_DIR=$(GPIOD2_DIR)

# Test programs whose outcome depends on the agent's GPIO backend: they
# request, pulse or wait on lines (tests/gpiod2/README.md says how they
# were found).  check-run runs them all against the second build.
# (test_e2e_faults' test_fault_slow_chip_is_waited_for_after_the_reset_pulse
# depends on it too, but also on the agent reading CHG within ~20 ms of the
# reset's minimum in real time, which a loaded machine misses in either
# build: it is left to the normal build.)
GPIOD2_TESTS := tests/unit/test_reset tests/emul/test_emuboard_gpio tests/e2e/test_e2e_mxt \
	tests/e2e/test_e2e_goodix tests/e2e/test_e2e_tools
GPIOD2_RUN := $(GPIOD2_TESTS)

# Run in check-run when the normal build is on libgpiod 1 and not sanitized.
GPIOD2_CHECK := $(if $(filter 1,$(GPIOD_MAJOR)),$(if $(filter 1,$(SAN)),,1))

.PHONY: gpiod2 gpiod2-fetch gpiod2-deb gpiod2-test-deps gpiod2-check-deps

gpiod2-fetch:
	@$(GPIOD2_MK_DIR)/fetch $(GPIOD2_DIR)

# The two programs are also copied to $(GPIOD2_DIR)/bin, where the VM
# scenario kmod-touchfw-gpiod2 finds them (@B@/gpiod2/bin).
gpiod2: gpiod2-fetch
	+@$(GPIOD2_MAKE) TF_RPATH=$(GPIOD2_LIBDIR) all
	@mkdir -p $(GPIOD2_DIR)/bin && cp $(GPIOD2_B)/touchfw $(GPIOD2_B)/touchfw-agent $(GPIOD2_DIR)/bin/

# check-vm: the scenario above needs that build (every scenario, or one
# named kmod-touchfw-gpiod2).
GPIOD2_VM := $(if $(SCENARIO),$(filter %gpiod2,$(SCENARIO)),1)
check-vm-run: $(if $(GPIOD2_VM),gpiod2)
check-run: $(if $(findstring check-vm,$(EXTRA_CHECKS)),gpiod2)

# Built without a run path: the package's libgpiod3 is the system's.
# dpkg-shlibdeps finds libgpiod.so.3 in the unpacked directory and its
# dependency (libgpiod3) in the shlibs entry libgpiod3 ships.
gpiod2-deb: gpiod2-fetch
	+@$(GPIOD2_MAKE) DEB_SHLIBS_LOCAL=$(abspath $(GPIOD2_DIR))/shlibs \
		DEB_SHLIBDEPS_DIRS=$(GPIOD2_LIBDIR) deb

# What GPIOD2_TESTS need, in the second build (its own make reads the
# flags of libgpiod 2).
gpiod2-check-deps: gpiod2-fetch
	+@$(GPIOD2_MAKE) TF_RPATH=$(GPIOD2_LIBDIR) gpiod2-test-deps
gpiod2-test-deps: $(PROGRAMS) $(EMUL_PROGRAMS) $(BOARD_DTBS) $(DB_OUTPUTS) $(BERLIN_FIXTURES) \
	$(addprefix $(B)/,$(GPIOD2_TESTS))

check-run: $(if $(GPIOD2_CHECK),gpiod2-check-deps)
# ... and the package built against it (tests/system/check-deb --gpiod2)
# in check-rest (.ci/run, after make check): the same checks as check-deb
# on the same sources, its time is a second package build.
REST_CHECKS += $(if $(GPIOD2_CHECK),$(GPIOD2_MK_DIR)/../system/check-deb-gpiod2)
