# SPDX-License-Identifier: GPL-2.0-or-later
#
# touchfw build.  Plain GNU make, usable unchanged by distribution packaging
# and Yocto recipes: CC, CROSS_COMPILE, PKG_CONFIG, CFLAGS, CPPFLAGS, LDFLAGS,
# DESTDIR, PREFIX, SYSCONFDIR and the directory variables below are honoured.
#
#   make                  build touchfw (+ its agent), boards, demo firmware DB
#   make check            every test, then again under ASan+UBSan (clang)
#   make check-fast       every test once, without the VM tests
#   make demo             the end-to-end demo on an emulated board
#   make deps             install missing Debian 12 packages (root)
#   make install          DESTDIR=... PREFIX=... (see "Install" below)
#   make WITH_SYSTEMD=0   no systemd hand-off code (detached child only)

VERSION := 0.1.0

# ---------------------------------------------------------------- tools
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
AR ?= $(CROSS_COMPILE)ar
ifeq ($(origin AR),default)
AR := $(CROSS_COMPILE)ar
endif
PKG_CONFIG ?= pkg-config
DTC ?= dtc
INSTALL ?= install
CFLAGS ?= -O2 -g
SAN_CC ?= clang

WITH_SYSTEMD ?= 1

# Build directory; the sanitizer pass uses its own.
B ?= build
# V=1 shows full command lines.
ifeq ($(V),1)
Q :=
q = @:
else
Q := @
q = @printf '  %-7s %s\n'
endif

# ---------------------------------------------------------------- install
# The udev rule and the unit name the binary by its installed path.
SUBST = sed -e 's|@BINDIR@|$(BINDIR)|g'

$(B)/61-touchfw.rules: udev-rules/61-touchfw.rules
	$(Q)$(SUBST) $< >$@
$(B)/61-touchfw-addonly.rules: udev-rules/61-touchfw-addonly.rules
	$(Q)$(SUBST) $< >$@
$(B)/touchfw@.service: systemd/touchfw@.service.in
	$(Q)$(SUBST) $< >$@

INSTALL_DATA := $(B)/61-touchfw.rules $(B)/61-touchfw-addonly.rules $(B)/touchfw@.service
SHIPPED_DTBS := $(patsubst boards/%.dts,$(B)/boards/%.dtb,$(wildcard boards/*.dts))
EXAMPLE_DTBS := $(patsubst boards/%.dts,$(B)/boards/%.dtb,$(wildcard boards/examples/*.dts))

# Installed, and removed by uninstall, exactly these paths.
INSTALLED = $(BINDIR)/touchfw $(PKGLIBEXECDIR)/touchfw-agent \
	$(UDEVRULESDIR)/61-touchfw.rules $(SYSTEMDUNITDIR)/touchfw@.service \
	$(TMPFILESDIR)/touchfw.conf $(MANDIR)/man8/touchfw.8 \
	$(PKGDATADIR)/61-touchfw-addonly.rules \
	$(PKGDATADIR)/firmware-db/manifest.ini \
	$(addprefix $(PKGDATADIR)/boards/,$(notdir $(SHIPPED_DTBS))) \
	$(if $(filter 1,$(INSTALL_EXAMPLES)),$(addprefix $(PKGDATADIR)/boards/,$(notdir $(EXAMPLE_DTBS))) \
	  $(addprefix $(PKGDATADIR)/firmware-db/,$(patsubst $(DB_DIR)/%,%,$(DB_BLOBS))) \
	  $(PKGDATADIR)/firmware-db/manifest.ini.sig $(PKGSYSCONFDIR)/keys/build-demo.pub)

install: all $(INSTALL_DATA) $(if $(filter 1,$(INSTALL_EXAMPLES)),$(DB_OUTPUTS))
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(PKGLIBEXECDIR) \
		$(DESTDIR)$(UDEVRULESDIR) $(DESTDIR)$(SYSTEMDUNITDIR) \
		$(DESTDIR)$(TMPFILESDIR) $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(PKGDATADIR)/boards $(DESTDIR)$(PKGDATADIR)/firmware-db
	$(INSTALL) -d -m 0755 $(DESTDIR)$(PKGSYSCONFDIR) $(DESTDIR)$(PKGSYSCONFDIR)/boards \
		$(DESTDIR)$(PKGSYSCONFDIR)/keys
	$(INSTALL) -m 0755 $(B)/touchfw $(DESTDIR)$(BINDIR)/touchfw
	$(INSTALL) -m 0755 $(B)/touchfw-agent $(DESTDIR)$(PKGLIBEXECDIR)/touchfw-agent
	$(INSTALL) -m 0644 $(B)/61-touchfw.rules $(DESTDIR)$(UDEVRULESDIR)/61-touchfw.rules
	$(INSTALL) -m 0644 $(B)/61-touchfw-addonly.rules $(DESTDIR)$(PKGDATADIR)/61-touchfw-addonly.rules
	$(INSTALL) -m 0644 $(B)/touchfw@.service $(DESTDIR)$(SYSTEMDUNITDIR)/touchfw@.service
	$(INSTALL) -m 0644 systemd/touchfw.tmpfiles $(DESTDIR)$(TMPFILESDIR)/touchfw.conf
	$(INSTALL) -m 0644 doc/touchfw.8 $(DESTDIR)$(MANDIR)/man8/touchfw.8
	test -e $(DESTDIR)$(PKGSYSCONFDIR)/touchfw.conf || \
		$(INSTALL) -m 0644 doc/touchfw.conf $(DESTDIR)$(PKGSYSCONFDIR)/touchfw.conf
	$(if $(SHIPPED_DTBS),$(INSTALL) -m 0644 $(SHIPPED_DTBS) $(DESTDIR)$(PKGDATADIR)/boards/)
ifeq ($(INSTALL_EXAMPLES),1)
	$(INSTALL) -m 0644 $(EXAMPLE_DTBS) $(DESTDIR)$(PKGDATADIR)/boards/
	cd $(DB_DIR) && for f in manifest.ini manifest.ini.sig $(patsubst $(DB_DIR)/%,%,$(DB_BLOBS)); do \
		$(INSTALL) -D -m 0644 $$f $(DESTDIR)$(PKGDATADIR)/firmware-db/$$f; done
	$(INSTALL) -m 0644 $(DB_KEYS)/build-demo.pub $(DESTDIR)$(PKGSYSCONFDIR)/keys/
else
	$(INSTALL) -m 0644 firmware-db/empty-manifest.ini $(DESTDIR)$(PKGDATADIR)/firmware-db/manifest.ini
endif
	@echo
	@echo "Installed.  To take effect on a running system:"
	@echo "  systemd-tmpfiles --create touchfw.conf"
	@echo "  systemctl daemon-reload"
	@echo "  udevadm control --reload"
	@echo "  udevadm trigger --action=add --subsystem-match=i2c --subsystem-match=spi"
	@echo "The settings file $(PKGSYSCONFDIR)/touchfw.conf is kept if it exists."

# Removes exactly what install put there (not the settings file, which is
# the administrator's, nor state in /run and /var/lib).
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	-rmdir $(DESTDIR)$(PKGDATADIR)/firmware-db/mxt224e $(DESTDIR)$(PKGDATADIR)/firmware-db/mxt1664s 2>/dev/null
	-rmdir $(DESTDIR)$(PKGDATADIR)/firmware-db $(DESTDIR)$(PKGDATADIR)/boards \
		$(DESTDIR)$(PKGDATADIR) $(DESTDIR)$(PKGLIBEXECDIR) \
		$(DESTDIR)$(PKGSYSCONFDIR)/boards $(DESTDIR)$(PKGSYSCONFDIR)/keys 2>/dev/null
	@echo "Removed.  Run: systemctl daemon-reload; udevadm control --reload"

clean:
	rm -rf $(B) build-san

-include $(shell find $(B) -name '*.d' -type f 2>/dev/null)
