# SPDX-License-Identifier: GPL-2.0-or-later
#
# Checks of touchfw against the host's real udev, systemd and make install
# (tests/system/README.md), included by the top Makefile.  Each is one
# program that tests/run-tests counts as one test; they run in every
# `make check-run` (check, check-fast, check-san) and take seconds.
#
#   check-udev-rules   udevadm test + umockdev: which events RUN handle-event
#   check-unit         systemd-analyze verify and security (exposure threshold)
#   check-install      make install/uninstall into a scratch root
#   check-family-isolation  no family name or id in agent/ outside agent/family/

SYSTEM_MK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

SYSTEM_CHECKS := $(SYSTEM_MK_DIR)/check-udev-rules $(SYSTEM_MK_DIR)/check-unit \
	$(SYSTEM_MK_DIR)/check-family-isolation \
	$(SYSTEM_MK_DIR)/check-install

# What the checks read from the build directory: the rules and the unit as
# install writes them (@BINDIR@ substituted).
SYSTEM_DEPS := $(B)/61-touchfw.rules $(B)/61-touchfw-addonly.rules $(B)/touchfw@.service

check-run: $(SYSTEM_DEPS)

# ---------------------------------------------------------------- VM
# What the touchfw-* VM scenarios (tests/vm/scenarios/touchfw-*.sh) put
# into their images, named there as @B@/...:
#   vm-root/   `make install PREFIX=/usr` as a Debian package would install
#              it, with udev's and systemd's directories under /usr (the
#              image is merged-/usr), from a build directory of its own
#              (vm-usr/) so that the compiled-in paths are /usr's;
#   tests/system/sandbox-probe   the unit's sandbox, checked from inside;
#   tests/system/qemu-at24.dtb   a board profile for QEMU's machine.
VM_USR_B := $(B)/vm-usr
VM_ROOT := $(B)/vm-root
TOUCHFW_VM_DEPS := $(B)/tests/system/sandbox-probe $(B)/tests/system/qemu-at24.dtb

.PHONY: touchfw-vm-root
touchfw-vm-root: $(TOUCHFW_VM_DEPS)
	$(q) INSTALL $(VM_ROOT)
	@rm -rf $(VM_ROOT)
	@$(MAKE) --no-print-directory B=$(VM_USR_B) PREFIX=/usr \
		UDEVRULESDIR=/usr/lib/udev/rules.d SYSTEMDUNITDIR=/usr/lib/systemd/system \
		DESTDIR=$(abspath $(VM_ROOT)) install >$(VM_USR_B).log 2>&1 || \
		{ cat $(VM_USR_B).log; exit 1; }

$(B)/tests/system/sandbox-probe: tests/system/sandbox-probe.c
	@mkdir -p $(@D)
	$(q) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(call pc_libs,libudev,-ludev)

$(B)/tests/system/qemu-at24.dtb: tests/system/qemu-at24.dts
	@mkdir -p $(@D)
	$(q) DTC $@
	$(Q)$(DTC) -q -I dts -O dtb -o $@ $<

# `make check` runs the VM scenarios through check-run (EXTRA_CHECKS);
# `make check-vm` directly.
check-vm: touchfw-vm-root
check-run: $(if $(findstring check-vm,$(EXTRA_CHECKS)),touchfw-vm-root)
