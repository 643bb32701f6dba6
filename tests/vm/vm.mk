# SPDX-License-Identifier: GPL-2.0-or-later
#
# Real-kernel tests in QEMU (tests/vm/README.md), included by the top
# Makefile: Debian's kernel, the host's udev and systemd in an initramfs,
# one boot per scenario.
#
#   make check-vm                     the default set: each scenario under
#                                     the kernels its "# vm-kernels:" names
#   make check-vm KERNEL=6.12         every scenario under one kernel
#                                     (tests/vm/kernels/6.12)
#   make check-vm-matrix              every scenario under every kernel
#   make check-vm-rest                the matrix less the default set (CI
#                                     runs it after make check)
#   make check-vm SCENARIO=uevents    one (or a space-separated list)
#   make vm-kernel [KERNEL=...]       fetch and unpack the kernel only
#   make vm-headers [KERNEL=...]      install the matching linux-headers

VM_MK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

DEB_VM := $(strip $(shell sed 's/\#.*//' $(VM_MK_DIR)/debian-packages))
VM_CHECKS := $(VM_MK_DIR)/check-vm

.PHONY: check-vm check-vm-run check-vm-matrix check-vm-rest vm-kernel vm-headers

# The kmod-* scenarios put touchfw, its generated udev rules and unit, its
# demo firmware DB and board profiles into the image (DB_OUTPUTS and
# INSTALL_DATA are defined after this file is read: recipe).
# deps-check first, then a make that reads the packages' flags afresh
# (see deps-check in the Makefile).
check-vm: deps-check
	@$(MAKE) --no-print-directory check-vm-run
check-vm-matrix: deps-check
	@$(MAKE) --no-print-directory check-vm-run VM_MATRIX=1
check-vm-rest: deps-check
	@$(MAKE) --no-print-directory check-vm-run VM_MATRIX=rest
check-vm-run: $(PROGRAMS) $(B)/tests/vm/evdev-query $(B)/tests/vm/spidev-xfer
	@$(MAKE) --no-print-directory $(DB_OUTPUTS) $(INSTALL_DATA)
	+@$(MAKE) --no-print-directory vm-cross-arm64
	@B=$(B) SCENARIO="$(SCENARIO)" KERNEL="$(KERNEL)" VM_MATRIX="$(VM_MATRIX)" \
		$(VM_MK_DIR)/check-vm

# The arm64 scenarios (a name with "arm64" in it) run the cross build's
# programs (make cross: $(B)-arm64, tests/cross/cross.mk) and the guest
# tools built for arm64; without the cross packages check-vm skips them,
# saying which are missing.  In make check after the cross build of
# check-cross-deps, never beside it.
.PHONY: vm-cross-arm64
vm-cross-arm64: $(if $(CROSS_CHECK),check-cross-deps)
	+@if [ -z "$(call cross_missing,arm64)" ]; then \
		$(MAKE) --no-print-directory cross-arm64 >/dev/null && \
		$(call cross_make,arm64) $(call cross_b,arm64)/tests/vm/evdev-query; fi

vm-kernel:
	@B=$(B) KERNEL="$(KERNEL)" $(VM_MK_DIR)/fetch-kernel

vm-headers:
	@B=$(B) KERNEL="$(KERNEL)" $(VM_MK_DIR)/build-module --headers

# A guest tool (the image has no evtest): axis ranges and events of an
# evdev node, for the kmod-goodix-* scenarios (# vm-image: --bin @B@/...).
$(B)/tests/vm/evdev-query: $(VM_MK_DIR)/tools/evdev-query.c
	@mkdir -p $(@D)
	$(q) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $<
# Another: one spidev transfer, for the Berlin checks of kmod-touchfw-spi.
$(B)/tests/vm/spidev-xfer: $(VM_MK_DIR)/tools/spidev-xfer.c
	@mkdir -p $(@D)
	$(q) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $<
check-run: $(if $(findstring check-vm,$(EXTRA_CHECKS)),$(B)/tests/vm/evdev-query \
	$(B)/tests/vm/spidev-xfer vm-cross-arm64)
