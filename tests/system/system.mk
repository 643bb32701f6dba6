# SPDX-License-Identifier: GPL-2.0-or-later
#
# Checks of touchfw against the host's real udev, systemd and make install
# (tests/system/README.md), included by the top Makefile.  Each is one
# program that tests/run-tests counts as one test; they run in every
# plain `make check-run` (check, check-fast), and check-san runs the one
# that reads its own binaries (below).
#
#   check-udev-rules   udevadm test + umockdev: which events RUN handle-event
#   check-unit         systemd-analyze verify and security (exposure threshold)
#   check-install      make install/uninstall into a scratch root
#   check-fresh-deps   the first `make demo` on a fresh machine (fake apt-get)
#   check-deb          `make deb`, lintian, the .deb's files and scripts
#   check-family-isolation  no family name or id in agent/ outside agent/family/,
#                      nor in the emulator core and the VM modules' emul-core
#   check-family-messages  no family message names the device (its caller does)
#   check-output-seam  nothing in agent/ prints but out.c, log.c and json-exit.c
#   check-fast-path    handle-event's no-op events: libc only, no heap
#   check-no-emulator-client  the built binaries hold no emulator client

SYSTEM_MK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

SYSTEM_CHECKS_ALL := $(SYSTEM_MK_DIR)/check-udev-rules $(SYSTEM_MK_DIR)/check-unit \
	$(SYSTEM_MK_DIR)/check-family-isolation $(SYSTEM_MK_DIR)/check-family-messages \
	$(SYSTEM_MK_DIR)/check-output-seam \
	$(SYSTEM_MK_DIR)/check-no-emulator-client \
	$(SYSTEM_MK_DIR)/check-fast-path \
	$(SYSTEM_MK_DIR)/check-install $(SYSTEM_MK_DIR)/check-fresh-deps \
	$(SYSTEM_MK_DIR)/check-deb
# The sanitizer pass (SAN=1) runs only the one that reads what its build
# made (the binaries): the others check sources, rules, the unit, a build
# or package of their own (check-install and check-fresh-deps build afresh
# without SAN), all as the plain pass of the same `make check` did, at a
# third of the suite's time under load.
SYSTEM_CHECKS := $(if $(filter 1,$(SAN)),$(SYSTEM_MK_DIR)/check-no-emulator-client,\
	$(SYSTEM_CHECKS_ALL))

# What the checks read from the build directory: the rules and the unit as
# install writes them (@BINDIR@ substituted).
SYSTEM_DEPS := $(B)/61-touchfw.rules $(B)/61-touchfw-addonly.rules $(B)/touchfw@.service

check-run: $(SYSTEM_DEPS)

# ---------------------------------------------------------------- VM
# What the touchfw-* VM scenarios (tests/vm/scenarios/touchfw-*.sh) put
# into their images, named there as @B@/...:
#   vm-root/   `make install PREFIX=/usr` as a Debian
#              package would install it, with udev's and systemd's
#              directories under /usr (the image is merged-/usr), from a
#              build directory of its own
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

# What kmod-touchfw-systemd puts into its image: the Debian package as
# `make deb` builds it, unpacked with dpkg-deb -x (the guest has no dpkg),
# lib/ moved under usr/ (the image is merged-/usr, as Debian 12 installs
# are: dpkg writes /lib/udev through the /lib symlink), and its postinst,
# which the scenario runs in the guest as dpkg would on a running system.
VM_DEB := $(B)/vm-deb
.PHONY: touchfw-vm-deb
touchfw-vm-deb:
	@$(MAKE) --no-print-directory B=$(B) deb
	$(q) UNPACK $(VM_DEB)
	@rm -rf $(VM_DEB) && mkdir -p $(VM_DEB)
	@dpkg-deb -x $(B)/deb/touchfw_$(VERSION)_$$(dpkg-architecture -qDEB_HOST_ARCH).deb $(VM_DEB)/root
	@dpkg-deb -e $(B)/deb/touchfw_$(VERSION)_$$(dpkg-architecture -qDEB_HOST_ARCH).deb $(VM_DEB)/DEBIAN
	@if [ -d $(VM_DEB)/root/lib ]; then mkdir -p $(VM_DEB)/root/usr/lib && \
		cp -R $(VM_DEB)/root/lib/. $(VM_DEB)/root/usr/lib/ && rm -rf $(VM_DEB)/root/lib; fi

$(B)/tests/system/sandbox-probe: tests/system/sandbox-probe.c
	@mkdir -p $(@D)
	$(q) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(call pc_libs,libudev,-ludev)

$(B)/tests/system/qemu-at24.dtb: tests/system/qemu-at24.dts
	@mkdir -p $(@D)
	$(q) DTC $@
	$(Q)$(DTC) -q -I dts -O dtb -o $@ $<

# `make check` runs the VM scenarios through check-run (EXTRA_CHECKS);
# `make check-vm` directly (check-vm-run, after deps-check).
check-vm-run: touchfw-vm-root touchfw-vm-deb
check-run: $(if $(findstring check-vm,$(EXTRA_CHECKS)),touchfw-vm-root touchfw-vm-deb)
