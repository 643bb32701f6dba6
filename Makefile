# SPDX-License-Identifier: GPL-2.0-or-later
#
# touchfw build.  Plain GNU make, usable unchanged by distribution packaging
# and Yocto recipes: CC, CROSS_COMPILE, PKG_CONFIG, CFLAGS, CPPFLAGS, LDFLAGS,
# DESTDIR, PREFIX, SYSCONFDIR and the directory variables below are honoured;
# BUILD_CC (default cc) builds the one helper that runs at build time.
#
#   make                  build touchfw (+ its agent) and the boards
#   make check            every test, then all but the VM tests again under
#                         ASan+UBSan (clang), then the fuzz targets
#   make check-fast       every test once, without the VM tests
#   make check-stress     make check with a CPU hog on every core
#   make run-times        tests/run-times (launch order) from the last run
#   make check-format     the C sources formatted as .clang-format says
#   make demo             the end-to-end demo on an emulated board
#   make demo-goodix      the same for a Goodix GT911 with a stale config
#   make demo-silead      an emulated Silead tablet: no firmware file, probe
#                         failed, to a verified input device
#   make demo-elan        an emulated laptop: an Elan touchpad left in IAP
#                         recovered, an Elan touchscreen in recovery updated
#   make demo-rmi4        an emulated laptop's Synaptics RMI4 touchpad from
#                         its bootloader to a verified input device
#   make deps             install missing Debian 12 packages (root), with
#                         the arm64 cross build's (CROSS_ARCHS= leaves them out)
#   make deb              the Debian package (debian/), built in $(B)/deb
#   make cross            the agent and unit tests for arm64 (CROSS_ARCHS),
#                         in $(B)-arm64; make check-cross runs the tests
#                         under qemu-user, make deb-cross the package
#                         (tests/cross/cross.mk)
#   make install          DESTDIR=... PREFIX=... (see "Install" below)
#   make WITH_SYSTEMD=0   without libsystemd (hand-off by systemctl, or a
#                         detached child where systemd does not run)

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

# ---------------------------------------------------------------- install dirs
PREFIX ?= /usr/local
EXEC_PREFIX ?= $(PREFIX)
BINDIR ?= $(EXEC_PREFIX)/bin
LIBEXECDIR ?= $(EXEC_PREFIX)/libexec
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
ifeq ($(PREFIX),/usr)
SYSCONFDIR ?= /etc
else
SYSCONFDIR ?= $(PREFIX)/etc
endif
LOCALSTATEDIR ?= /var
RUNSTATEDIR ?= /run
pc_var = $(shell $(PKG_CONFIG) --variable=$(2) $(1) 2>/dev/null)
UDEVDIR ?= $(or $(call pc_var,udev,udevdir),/lib/udev)
UDEVRULESDIR ?= $(UDEVDIR)/rules.d
SYSTEMDUNITDIR ?= $(or $(call pc_var,systemd,systemdsystemunitdir),/lib/systemd/system)
TMPFILESDIR ?= $(or $(call pc_var,systemd,tmpfilesdir),/usr/lib/tmpfiles.d)
PKGDATADIR ?= $(DATADIR)/touchfw
DOCDIR ?= $(DATADIR)/doc/touchfw
BASHCOMPDIR ?= $(or $(call pc_var,bash-completion,completionsdir),$(DATADIR)/bash-completion/completions)
PKGLIBEXECDIR ?= $(LIBEXECDIR)/touchfw
PKGSYSCONFDIR ?= $(SYSCONFDIR)/touchfw
# Demo firmware and example profiles are for the emulator; a production
# install leaves them out unless asked (INSTALL_EXAMPLES=1).
INSTALL_EXAMPLES ?= 0

# ---------------------------------------------------------------- libraries
pc_cflags = $(shell $(PKG_CONFIG) --cflags $(1) 2>/dev/null)
pc_libs = $(shell $(PKG_CONFIG) --libs $(1) 2>/dev/null || echo $(2))

# libgpiod 1.6 (Debian 12, Ubuntu 22.04) and 2.x (Debian 13, Ubuntu 24.04,
# Fedora, Yocto, Buildroot) have different APIs: the agent compiles one
# backend, agent/gpio-gpiod1.c or agent/gpio-gpiod2.c, as pkg-config's
# libgpiod version says (PKG_CONFIG_PATH picks another libgpiod: make
# gpiod2 below).  TF_RPATH adds a run path to the binaries, for a library
# outside the loader's paths.
GPIOD_VERSION := $(shell $(PKG_CONFIG) --modversion libgpiod 2>/dev/null)
GPIOD_MAJOR := $(if $(filter 0.% 1.%,$(GPIOD_VERSION)),1,$(if $(GPIOD_VERSION),2,1))
# libi2c and libfdt ship no .pc file on Debian 12.
AGENT_LIBS := $(call pc_libs,libudev,-ludev) $(call pc_libs,libgpiod,-lgpiod) \
	$(call pc_libs,libsodium,-lsodium) $(call pc_libs,inih,-linih) \
	$(call pc_libs,libfdt,-lfdt) -li2c
AGENT_PC_CFLAGS := $(call pc_cflags,libudev libgpiod libsodium inih)
# The front end runs for every bind udev sees, and most of its cost is the
# dynamic loader's (bench/README.md): it links only libc (its settings
# parser is touchfw's own) and only the functions it calls, and its
# relative relocations are packed (DT_RELR, binutils >= 2.38, glibc >=
# 2.36) where the linker can: where it links without a word (binutils
# 2.40 for arm64 accepts the option with "warning: -z pack-relative-relocs
# ignored", even under --fatal-warnings).
comma := ,
FRONT_LDFLAGS := $(shell echo 'int main(void){return 0;}' | $(CC) -x c -o /dev/null \
	-Wl$(comma)-z$(comma)pack-relative-relocs - 2>&1 | grep -q . || \
	echo -Wl$(comma)-z$(comma)pack-relative-relocs) -Wl$(comma)--gc-sections
FRONT_LIBS := -ldl
SYSTEMD_CFLAGS := $(if $(filter 1,$(WITH_SYSTEMD)),$(call pc_cflags,libsystemd) -DTF_WITH_SYSTEMD=1,-DTF_WITH_SYSTEMD=0)
TEST_LIBS := $(call pc_libs,cmocka,-lcmocka)
UMOCKDEV_CFLAGS := $(call pc_cflags,umockdev-1.0)
UMOCKDEV_LIBS := $(call pc_libs,umockdev-1.0,-lumockdev -lgobject-2.0 -lglib-2.0)

# ---------------------------------------------------------------- flags
WARN := -Wall -Wextra -Werror -Wformat=2 -Wvla -Wstrict-prototypes \
	-Wmissing-prototypes -Wno-missing-field-initializers
PATH_DEFS := -DTF_VERSION=\"$(VERSION)\" \
	-DTF_SYSCONFDIR=\"$(PKGSYSCONFDIR)\" \
	-DTF_DATADIR=\"$(PKGDATADIR)\" \
	-DTF_LIBEXECDIR=\"$(PKGLIBEXECDIR)\" \
	-DTF_RUNSTATEDIR=\"$(RUNSTATEDIR)/touchfw\" \
	-DTF_LOCALSTATEDIR=\"$(LOCALSTATEDIR)/lib/touchfw\" \
	-DTF_BUILDDIR=\"$(abspath $(B))\"
# The binaries the tests run are the ones `make install` installs: no test
# hooks.  On an emulated board, the board's LD_PRELOAD shim maps the
# agent's installed path to the build's and keeps the board's variables
# in the detached run's environment (tests/emul/exec-preload.c).
# Each function and object in a section of its own, so that the front end
# links (--gc-sections) only what it calls: fewer libc symbols and
# relocations for the dynamic loader at every event (FRONT_LDFLAGS).
TF_CFLAGS := -std=gnu11 -D_GNU_SOURCE $(WARN) -Iagent $(PATH_DEFS) -ffunction-sections \
	-fdata-sections
ifeq ($(SAN),1)
TF_CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
TF_LDFLAGS += -fsanitize=address,undefined
# With clang, also instrument for libFuzzer so the fuzz targets are guided.
ifneq ($(findstring clang,$(CC)),)
TF_CFLAGS += -fsanitize=fuzzer-no-link
endif
endif

TF_LDFLAGS += $(if $(TF_RPATH),-Wl$(comma)-rpath$(comma)$(TF_RPATH))

ALL_CFLAGS = $(TF_CFLAGS) $(CPPFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(TF_LDFLAGS) $(LDFLAGS)

# ---------------------------------------------------------------- sources
# agent/main.c is the small front end (`touchfw`): handle-event and command
# dispatch, libc only, so the udev fast path stays cheap.
# agent/agent-main.c is the full agent (`touchfw-agent`), which the front
# end executes for every other command.
FRONT_MAIN := agent/main.c
AGENT_MAIN := agent/agent-main.c
# agent/family/ holds the controller families, one folder each
# (doc/families.md): a new family needs no Makefile edit.
LIB_SRCS := $(filter-out $(FRONT_MAIN) $(AGENT_MAIN) \
	$(if $(filter 1,$(GPIOD_MAJOR)),agent/gpio-gpiod2.c,agent/gpio-gpiod1.c),\
	$(wildcard agent/*.c agent/family/*.c agent/family/*/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o)

# tests/emul/family/<name>/ holds one family's emulation (tests/emul/README.md):
# its freestanding chip models in model/, its host glue and driver models
# beside them, its fwgen generators (fwgen.c) and demo DB entries (db.mk).
EMUL_FAMILY_DIRS := $(patsubst %/,%,$(wildcard tests/emul/family/*/))
MODEL_SRCS := $(wildcard tests/emul/model/*.c $(addsuffix /model/*.c,$(EMUL_FAMILY_DIRS)))
MODEL_HDRS := $(wildcard tests/emul/model/*.h $(addsuffix /model/*.h,$(EMUL_FAMILY_DIRS)))
MODEL_OBJS := $(MODEL_SRCS:%.c=$(B)/%.o)
MODEL_INC := -Itests/emul/model $(addprefix -I,$(addsuffix /model,$(EMUL_FAMILY_DIRS)))
EMUL_INC := $(MODEL_INC) -Itests/emul -Itests/emul/host -Itests/emul/family \
	$(addprefix -I,$(EMUL_FAMILY_DIRS))
# fwgen's commands: each family's fwgen.c (tests/emul/fwgen.h)
FWGEN_FAMILY_OBJS := $(patsubst %.c,$(B)/%.o,$(wildcard $(addsuffix /fwgen.c,$(EMUL_FAMILY_DIRS))))
EMUL_LIB_SRCS := $(wildcard tests/emul/host/*.c) tests/emul/family/registry.c \
	$(filter-out %/fwgen.c,$(wildcard $(addsuffix /*.c,$(EMUL_FAMILY_DIRS))))
EMUL_LIB_OBJS := $(EMUL_LIB_SRCS:%.c=$(B)/%.o)

UNIT_TESTS := $(patsubst tests/unit/%.c,$(B)/tests/unit/%,$(wildcard tests/unit/test_*.c))
EMUL_TESTS := $(patsubst tests/emul/%.c,$(B)/tests/emul/%,$(wildcard tests/emul/test_*.c))
E2E_TESTS := $(patsubst tests/e2e/%.c,$(B)/tests/e2e/%,$(wildcard tests/e2e/test_*.c))
ALL_TESTS := $(UNIT_TESTS) $(EMUL_TESTS) $(E2E_TESTS)

# boards/*.dts are shipped profiles; boards/examples/*.dts are examples and
# the emulator's boards, installed only with INSTALL_EXAMPLES=1.
BOARD_DTBS := $(patsubst boards/%.dts,$(B)/boards/%.dtb,$(wildcard boards/*.dts boards/examples/*.dts))

# libFuzzer targets: tests/fuzz/fuzz_*.c, built in the clang sanitizer pass.
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(B)/fuzz/%,$(FUZZ_SRCS))
FUZZ_SECONDS ?= 10
FUZZ_JOBS ?= $(shell nproc 2>/dev/null || echo 1)

PROGRAMS := $(B)/touchfw $(B)/touchfw-agent
# The emulated board's LD_PRELOAD shim over libgpiod (tests/emul/gpiod-preload.c).
GPIOD_PRELOAD := $(B)/libemuboard-gpiod.so
EMUL_PROGRAMS := $(if $(EMUL_LIB_SRCS),$(B)/emuboard $(GPIOD_PRELOAD)) $(B)/fwgen

# Keep object files of test programs between runs.
.SECONDARY:

.PHONY: soak soak-run all agent emul boards check check-rest check-fast check-run check-san \
	check-stress run-times check-freestanding check-format format deps deps-check demo demo-run demo-goodix demo-goodix-run demo-silead demo-silead-run demo-elan demo-elan-run demo-rmi4 demo-rmi4-run install \
	uninstall clean fuzz bench bench-run deb

all: $(PROGRAMS) boards

agent: $(PROGRAMS)
boards: $(BOARD_DTBS)
emul: $(EMUL_PROGRAMS)

-include tests/vm/vm.mk
-include tests/system/system.mk
-include firmware-db/db.mk

# ---------------------------------------------------------------- compile
$(B)/agent/%.o: agent/%.c
	@mkdir -p $(@D)
	$(q) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) $(AGENT_PC_CFLAGS) $(SYSTEMD_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/tests/emul/model/%.o: tests/emul/model/%.c
	@mkdir -p $(@D)
	$(q) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# Tests that call libgpiod themselves use the API of TF_GPIOD_MAJOR's.
$(B)/tests/emul/family/%.o: tests/emul/family/%.c
	@mkdir -p $(@D)
	$(q) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) $(EMUL_INC) $(UMOCKDEV_CFLAGS) $(EMUL_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(EMUL_INC) -Itests \
		$(AGENT_PC_CFLAGS) $(UMOCKDEV_CFLAGS) $(EMUL_CFLAGS) -DTF_GPIOD_MAJOR=$(GPIOD_MAJOR) \
		-MMD -MP -c -o $@ $<

# emub.c puts the shim into the board's LD_PRELOAD by its absolute path.
$(B)/tests/emul/host/emub.o: EMUL_CFLAGS = -DEMUB_GPIOD_PRELOAD=\"$(abspath $(GPIOD_PRELOAD))\"

$(B)/bench/%.o: bench/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(EMUL_INC) -Itests \
		$(AGENT_PC_CFLAGS) $(UMOCKDEV_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/libtouchfw.a: $(LIB_OBJS)
	@rm -f $@
	$(q) AR $@
	$(Q)$(AR) rcs $@ $^

$(B)/libemmodel.a: $(MODEL_OBJS)
	@rm -f $@
	$(q) AR $@
	$(Q)$(AR) rcs $@ $^

$(B)/libemuboard.a: $(EMUL_LIB_OBJS) | $(GPIOD_PRELOAD)
	@rm -f $@
	$(q) AR $@
	$(Q)$(AR) rcs $@ $^

# The front end links the archive, so it pulls in only what it uses; a
# dependency on libudev & co. sneaking into the fast path is a link error.
$(B)/touchfw: $(B)/agent/main.o $(B)/libtouchfw.a
	$(q) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(FRONT_LDFLAGS) -o $@ $^ $(FRONT_LIBS)

# The agent is linked the same way (FRONT_LDFLAGS): packed relocations
# and no unused function make its file pages fewer (a flash maps ~20 KiB
# of relocations and ~12 KiB of code less, bench/README.md section 4).
# It links its objects, not the archive, in an order that keeps a run's
# code together: the core first, then the families, then the commands a
# run (cmd-run.c) never executes (board, db, chip, probe, ...).  A page
# fault on the executable maps the whole 64 KiB around it that the page
# cache holds (the kernel's fault-around), so code a flash never runs
# costs memory when it sits between code it runs: a 1 MiB flash maps
# 240-304 KiB of the agent's 340 KiB of code this way, not all of it.
AGENT_CMD_OBJS := $(filter-out $(B)/agent/cmd-run.o,$(filter $(B)/agent/cmd-%,$(LIB_OBJS)))
AGENT_FAMILY_OBJS := $(filter $(B)/agent/family/%,$(LIB_OBJS))
AGENT_OBJS := $(filter-out $(AGENT_CMD_OBJS) $(AGENT_FAMILY_OBJS),$(LIB_OBJS)) \
	$(AGENT_FAMILY_OBJS) $(AGENT_CMD_OBJS)
$(B)/touchfw-agent: $(B)/agent/agent-main.o $(AGENT_OBJS)
	$(q) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(FRONT_LDFLAGS) -o $@ $^ $(AGENT_LIBS) $(FRONT_LIBS)

$(B)/boards/%.dtb: boards/%.dts
	@mkdir -p $(@D)
	$(q) DTC $@
	$(Q)$(DTC) -q -I dts -O dtb -o $@ $<

# ---------------------------------------------------------------- emulator
$(B)/fwgen: $(B)/tests/emul/fwgen.o $(FWGEN_FAMILY_OBJS) $(B)/libemmodel.a
	$(q) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^

$(B)/emuboard: $(B)/tests/emul/emuboard.o $(B)/libemuboard.a $(B)/libemmodel.a
	$(q) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(UMOCKDEV_LIBS) -lfdt -lpthread

# The shim is loaded into every program run on the board, sanitized or not
# (i2c-tools, gpioinfo, the shells of the tests), so it is built without
# the sanitizer flags; it serves the kernel's GPIO uAPI beneath any
# libgpiod and reaches umockdev and libc by dlsym(RTLD_NEXT).
# Its exec part (tests/emul/exec-preload.c) maps the agent's installed
# path to this build's, so it follows the install paths (paths.stamp); its
# uevent part (tests/emul/uevent-preload.c) gives each listener a socket
# name of its own.
$(GPIOD_PRELOAD): tests/emul/gpiod-preload.c tests/emul/exec-preload.c \
		tests/emul/uevent-preload.c $(B)/paths.stamp
	@mkdir -p $(@D)
	$(q) CCLD $@
	$(Q)$(CC) -std=gnu11 -D_GNU_SOURCE $(WARN) $(CFLAGS) \
		-DEMUB_AGENT=\"$(abspath $(B))/touchfw-agent\" \
		-DEMUB_INSTALLED_AGENT=\"$(PKGLIBEXECDIR)/touchfw-agent\" \
		-fPIC -shared $(LDFLAGS) -o $@ $(filter %.c,$^) -ldl -lpthread

# The chip models must stay freestanding (no libc, no allocation) so that a
# test kernel module can compile the same sources: build them that way and
# insist that nothing outside the models is referenced.
check-freestanding: $(B)/freestanding.ok
$(B)/freestanding.ok: $(MODEL_SRCS) $(MODEL_HDRS)
	@rm -rf $(B)/freestanding && mkdir -p $(B)/freestanding
	@set -e; for f in $(MODEL_SRCS); do \
		o=$(B)/freestanding/$$(basename $$f .c).o; \
		$(CC) -std=gnu11 $(WARN) $(MODEL_INC) -ffreestanding -nostdlib -fno-builtin \
			-fno-stack-protector -O2 -c -o $$o $$f; \
	done
	@$(CC) -r -nostdlib -o $(B)/freestanding-all.o $(B)/freestanding/*.o
	@undef=$$(nm -u $(B)/freestanding-all.o | sort -u); \
	if [ -n "$$undef" ]; then \
		echo "chip models reference symbols outside themselves:"; \
		echo "$$undef"; exit 1; fi
	@echo "freestanding: chip models build with -ffreestanding -nostdlib, no external symbols"
	@touch $@

# ---------------------------------------------------------------- tests
TEST_LINK = $(B)/libemuboard.a $(B)/libtouchfw.a $(B)/libemmodel.a

$(B)/tests/unit/%: $(B)/tests/unit/%.o $(B)/libtouchfw.a $(B)/libemmodel.a
	$(q) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(TEST_LIBS) $(AGENT_LIBS) $(FRONT_LIBS)

$(B)/tests/emul/test_%: $(B)/tests/emul/test_%.o $(TEST_LINK)
	$(q) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(TEST_LIBS) $(UMOCKDEV_LIBS) $(AGENT_LIBS) $(FRONT_LIBS) -lpthread

$(B)/tests/e2e/test_%: $(B)/tests/e2e/test_%.o $(TEST_LINK)
	$(q) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(TEST_LIBS) $(UMOCKDEV_LIBS) $(AGENT_LIBS) $(FRONT_LIBS) -lpthread

$(B)/fuzz/%: tests/fuzz/%.c $(B)/libtouchfw.a
	@mkdir -p $(@D)
	$(q) FUZZ $@
	$(Q)$(CC) $(ALL_CFLAGS) $(AGENT_PC_CFLAGS) -fsanitize=fuzzer $(ALL_LDFLAGS) \
		-o $@ $< $(B)/libtouchfw.a $(AGENT_LIBS) $(FRONT_LIBS)

# Each fuzz target runs FUZZ_SECONDS from its seed corpus (tests/fuzz/corpus/
# NAME/, fixtures included); new inputs go to a scratch directory.  FUZZ_JOBS
# (default: the CPUs) run at once, one core each; results in order.
fuzz: $(FUZZ_BINS)
	@FUZZ_JOBS=$(FUZZ_JOBS) tests/run-fuzz $(FUZZ_SECONDS) $(FUZZ_BINS)

TEST_DEPS := $(PROGRAMS) $(EMUL_PROGRAMS) $(BOARD_DTBS) $(ALL_TESTS) $(DB_OUTPUTS) $(EMUL_FIXTURES)

# Runs every test binary under tests/run-tests (cmocka summaries, totals).
check-run: $(TEST_DEPS) $(B)/freestanding.ok
	@B=$(B) SAN=$(SAN) tests/run-tests $(ALL_TESTS) \
		$(if $(GPIOD2_CHECK),$(addprefix $(GPIOD2_B)/,$(GPIOD2_RUN))) \
		$(CROSS_RUN) $(SYSTEM_CHECKS) $(EXTRA_CHECKS)

# The checks build with one job per CPU unless make was given -j (CI runs a
# plain `make check`); tests/run-tests then runs TEST_JOBS programs at once.
NPROC := $(shell nproc 2>/dev/null || echo 1)
CHECK_J = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))

check-fast: deps-check
	@$(MAKE) --no-print-directory check-format
	@$(MAKE) --no-print-directory $(CHECK_J) check-run

# Sanitizer pass: clang, so the tree is also proven warning-free there.
check-san:
	@$(MAKE) --no-print-directory $(CHECK_J) B=build-san SAN=1 CC=$(SAN_CC) check-run
	@$(MAKE) --no-print-directory $(CHECK_J) B=build-san SAN=1 CC=$(SAN_CC) fuzz

# Each pass says how long it took, build included (tests/run-tests says
# how long its programs took).  The plain pass also cross-builds for
# CROSS_ARCHS and runs those unit tests under qemu-user (CROSS_CHECK,
# tests/cross/cross.mk): as root cross-deps-check installs what that
# needs, otherwise an architecture without it is skipped with a note.
#
# The two passes run side by side: the test programs mostly wait (on
# emulated chips at their pace, tests/run-tests), so the sanitizer pass's
# build, tests and fuzzing take the CPU the plain pass leaves, instead of
# starting after it.  The sanitizer pass's output goes to
# build-san/check-san.out and is printed, whole, after the plain pass's;
# make check fails if either failed.
SAN_OUT := build-san/check-san.out
check: deps-check cross-deps-check
	@$(MAKE) --no-print-directory check-format
	@mkdir -p build-san; rm -f $(SAN_OUT).rc; t=$$(date +%s); \
	{ $(MAKE) --no-print-directory check-san >$(SAN_OUT) 2>&1; rc=$$?; \
		echo "make check: sanitizer pass (build, tests, fuzz; beside the plain pass) $$(($$(date +%s) - t))s" >>$(SAN_OUT); \
		echo $$rc >$(SAN_OUT).rc; } & \
	san=$$!; \
	$(MAKE) --no-print-directory $(CHECK_J) check-run EXTRA_CHECKS="$(VM_CHECKS)" CROSS_CHECK=1; prc=$$?; \
	[ $$prc = 0 ] && echo "make check: plain pass (build, tests, VM) $$(($$(date +%s) - t))s"; \
	wait $$san; cat $(SAN_OUT); src=$$(cat $(SAN_OUT).rc 2>/dev/null || echo 1); \
	echo "make check: $$(($$(date +%s) - t))s in all$$( [ $$prc = 0 ] || echo "; the plain pass FAILED")$$( [ $$src = 0 ] || echo "; the sanitizer pass FAILED")"; \
	[ $$prc = 0 ] && [ $$src = 0 ]

# tests/run-times: the typical time of each test program, from the last
# run's $(B)/test-logs/*.secs, longest first (tests/run-tests starts the
# longest first where a fresh clone has no times of its own).  Run it
# after a make check (or check-stress) when programs were added or their
# times changed much; the header stays.
run-times:
	@ls $(B)/test-logs/*.secs >/dev/null 2>&1 || { echo "run-times: no $(B)/test-logs/*.secs: run make check first" >&2; exit 1; }
	@{ sed -n '/^#/p' tests/run-times; \
	  for f in $(B)/test-logs/*.secs; do printf '%s %s\n' "$$(basename "$$f" .secs)" "$$(cat "$$f")"; done | \
	  sort -k2,2gr -k1,1; } >tests/run-times.new && mv tests/run-times.new tests/run-times
	@echo "run-times: tests/run-times has $$(grep -vc '^#' tests/run-times) programs"

# What make check leaves to CI (.ci/run runs it after make check), to keep
# make check's time: the package checks of the second builds (REST_CHECKS:
# libgpiod 2, the cross architectures; check-deb of the normal build stays
# in make check) and every VM scenario under the kernels the default set
# does not boot it with (check-vm-rest).  With it, every check has run.
check-rest: deps-check cross-deps-check
	@t=$$(date +%s); B=$(B) tests/run-tests $(REST_CHECKS) && \
		$(MAKE) --no-print-directory check-vm-rest && \
		echo "make check-rest: other builds' packages, VM matrix $$(($$(date +%s) - t))s"

# make check with a CPU hog on every core (stress-ng) and TEST_JOBS above
# the core count (tests/check-stress): a suite that holds only on a quiet
# machine fails here.
check-stress: deps-check
	@MAKE="$(MAKE)" tests/check-stress

# ---------------------------------------------------------------- soak
# The emulator soak (tests/e2e/test_soak.c) at length; make check runs it
# with its short default.  SOAK_ITER binds per phase (two phases), SOAK_SEED
# to replay one; SOAK_VERBOSE=1 prints each bind, 2 touchfw's output too.
SOAK_ITER ?= 150
SOAK_SEED ?= $(shell date +%s)
soak: deps-check
	@$(MAKE) --no-print-directory soak-run
soak-run: $(TEST_DEPS)
	@TOUCHFW_TOP=$(CURDIR) TOUCHFW_BUILD=$(CURDIR)/$(B) SOAK_ITER=$(SOAK_ITER) \
		SOAK_SEED=$(SOAK_SEED) $(B)/tests/e2e/test_soak

# ---------------------------------------------------------------- format
# Every C source and header under agent/, tests/, bench/ and udev-rules/
# as .clang-format says (clang-format 14, Debian 12's), changing nothing;
# `make format` rewrites them.  Part of `make check` and `make check-fast`.
CLANG_FORMAT ?= clang-format
FORMAT_SRCS = $(sort $(shell find agent tests bench udev-rules -name '*.[ch]' -type f))

check-format:
	@B=$(B) tests/deps install clang-format
	$(q) FORMAT "$(words $(FORMAT_SRCS)) files"
	$(Q)$(CLANG_FORMAT) --dry-run -Werror $(FORMAT_SRCS)

format:
	@B=$(B) tests/deps install clang-format
	$(Q)$(CLANG_FORMAT) -i $(FORMAT_SRCS)

# ---------------------------------------------------------------- bench
$(B)/bench/bench: $(B)/bench/bench.o $(TEST_LINK)
	$(q) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(UMOCKDEV_LIBS) $(AGENT_LIBS) $(FRONT_LIBS) -lfdt -lpthread

# Ratios measured in one run (bench/README.md); no thresholds.
bench: deps-check
	@$(MAKE) --no-print-directory bench-run
bench-run: $(PROGRAMS) $(B)/bench/bench $(BOARD_DTBS) $(DB_OUTPUTS)
	@TOUCHFW_BUILD=$(CURDIR)/$(B) $(B)/bench/bench

# ---------------------------------------------------------------- demo
demo: deps-check
	@$(MAKE) --no-print-directory demo-run
demo-run: $(PROGRAMS) $(EMUL_PROGRAMS) $(BOARD_DTBS) $(DB_OUTPUTS)
	@B=$(B) tests/emul/demo

# The same for a Goodix GT911 with a stale configuration.
demo-goodix: deps-check
	@$(MAKE) --no-print-directory demo-goodix-run
demo-goodix-run: $(PROGRAMS) $(EMUL_PROGRAMS) $(BOARD_DTBS) $(DB_OUTPUTS)
	@B=$(B) tests/emul/demo-goodix

demo-silead: deps-check
	@$(MAKE) --no-print-directory demo-silead-run
demo-silead-run: $(PROGRAMS) $(EMUL_PROGRAMS) $(BOARD_DTBS) $(DB_OUTPUTS)
	@B=$(B) tests/emul/demo-silead

# An emulated laptop: an Elan touchpad left in IAP recovered over i2c-dev,
# an Elan touchscreen in recovery updated through elants_i2c's update_fw.
demo-elan: deps-check
	@$(MAKE) --no-print-directory demo-elan-run
demo-elan-run: $(PROGRAMS) $(EMUL_PROGRAMS) $(BOARD_DTBS) $(DB_OUTPUTS)
	@B=$(B) tests/emul/demo-elan

# An emulated laptop's Synaptics RMI4 touchpad on SMBus, left in its
# bootloader: rmi_core's update_fw, F01's reset, rebound, verified.
demo-rmi4: deps-check
	@$(MAKE) --no-print-directory demo-rmi4-run
demo-rmi4-run: $(PROGRAMS) $(EMUL_PROGRAMS) $(BOARD_DTBS) $(DB_OUTPUTS)
	@B=$(B) tests/emul/demo-rmi4

# ---------------------------------------------------------------- deps
# Debian 12 packages for building, testing and the demo.  The VM tests add
# their own (tests/vm/vm.mk).
DEB_BUILD := gcc make pkg-config libi2c-dev libgpiod-dev libfdt-dev \
	device-tree-compiler libudev-dev libsystemd-dev libinih-dev libsodium-dev
DEB_TEST := clang clang-format libcmocka-dev libumockdev-dev umockdev i2c-tools valgrind \
	udev systemd binutils stress-ng prometheus-node-exporter
# The Debian package (make deb, tests/system/check-deb).
DEB_PKG := dpkg-dev debhelper fakeroot lintian
DEB_ALL = $(DEB_BUILD) $(DEB_TEST) $(DEB_PKG) $(DEB_VM)

# Then the cross build's (tests/cross/deps): as root it adds each of
# CROSS_ARCHS to dpkg's architectures, saying so; CROSS_ARCHS= leaves it out.
deps:
	@B=$(B) tests/deps install $(DEB_ALL)
	@tests/cross/deps install $(CROSS_ARCHS)

# Fast check used by demo/check: installs as root, else explains.
#
# Every goal that needs these packages (demo, check, check-fast, bench,
# check-vm) runs deps-check alone and then builds in a second make
# (GOAL-run, check-run): this make computed the pkg-config flags above
# (umockdev's and GLib's include paths) when it read the Makefile, before
# deps-check could install anything, so on a fresh machine they came out
# empty; the second make reads them afresh.  It also keeps `make -j` from
# compiling while apt-get is still installing headers.
# (tests/system/check-fresh-deps proves it with a fake apt-get.)
deps-check:
	@B=$(B) tests/deps install $(DEB_ALL)

# ---------------------------------------------------------------- install
# The binaries (PATH_DEFS), the udev rule and the unit (BINDIR) carry the
# install paths.  They depend on a stamp that changes only when those paths
# change, so `make && make install PREFIX=/usr` rebuilds them for /usr
# instead of installing a touchfw that looks for its agent and settings
# under /usr/local.
PATHS_STAMP := $(B)/paths.stamp
# The libgpiod built against is part of it: another one rebuilds.
PATHS_NOW = $(PATH_DEFS) BINDIR=$(BINDIR) libgpiod=$(GPIOD_VERSION) $(call pc_cflags,libgpiod)
$(PATHS_STAMP): FORCE
	@mkdir -p $(@D)
	@printf '%s\n' '$(PATHS_NOW)' | cmp -s - $@ || printf '%s\n' '$(PATHS_NOW)' >$@
.PHONY: FORCE
FORCE:
$(LIB_OBJS) $(B)/agent/main.o $(B)/agent/agent-main.o: $(PATHS_STAMP)

# The udev rule and the unit name the binary by its installed path.
SUBST = sed -e 's|@BINDIR@|$(BINDIR)|g'

# The families' drivers and ids (agent/family/*/ids.c) go into the rules
# and the mdev lines through gen-ids, built for the build machine
# (BUILD_CC) from those sources alone, so cross builds work.
BUILD_CC ?= cc
GEN_IDS_SRCS := udev-rules/gen-ids.c agent/family/registry-ids.c \
	$(wildcard agent/family/*/ids.c)
$(B)/gen-ids: $(GEN_IDS_SRCS) agent/family/ids.h agent/family/registry.def agent/event.h
	@mkdir -p $(@D)
	$(q) HOSTCC $@
	$(Q)$(BUILD_CC) -std=gnu11 -D_GNU_SOURCE $(WARN) -Iagent -o $@ $(GEN_IDS_SRCS)

RULES_GEN = $(B)/gen-ids $< >$@.tmp && $(SUBST) $@.tmp >$@ && rm -f $@.tmp
$(B)/61-touchfw.rules: udev-rules/61-touchfw.rules $(PATHS_STAMP) $(B)/gen-ids
	@mkdir -p $(@D)
	$(Q)$(RULES_GEN)
$(B)/61-touchfw-addonly.rules: udev-rules/61-touchfw-addonly.rules $(PATHS_STAMP) $(B)/gen-ids
	@mkdir -p $(@D)
	$(Q)$(RULES_GEN)
$(B)/touchfw-mdev.conf: udev-rules/touchfw-mdev.conf $(PATHS_STAMP) $(B)/gen-ids
	@mkdir -p $(@D)
	$(Q)$(RULES_GEN)
$(B)/touchfw@.service: systemd/touchfw@.service.in $(PATHS_STAMP)
	@mkdir -p $(@D)
	$(Q)$(SUBST) $< >$@

INSTALL_DATA := $(B)/61-touchfw.rules $(B)/61-touchfw-addonly.rules $(B)/touchfw-mdev.conf \
	$(B)/touchfw@.service
# The documentation the man pages point to, under DOCDIR with the tree's
# layout (their links to each other keep working); uncompressed in the
# Debian package too (debian/rules), so the paths the pages give are true.
DOC_FILES := README.md boards/README.md firmware-db/README.md doc/families.md \
	doc/deploying.md doc/duplicates.md doc/json.md doc/tablets.md
SHIPPED_DTBS := $(patsubst boards/%.dts,$(B)/boards/%.dtb,$(wildcard boards/*.dts))
EXAMPLE_DTBS := $(patsubst boards/%.dts,$(B)/boards/%.dtb,$(wildcard boards/examples/*.dts))

# Installed, and removed by uninstall, exactly these paths.
INSTALLED = $(BINDIR)/touchfw $(PKGLIBEXECDIR)/touchfw-agent \
	$(UDEVRULESDIR)/61-touchfw.rules $(SYSTEMDUNITDIR)/touchfw@.service \
	$(TMPFILESDIR)/touchfw.conf $(MANDIR)/man8/touchfw.8 \
	$(MANDIR)/man5/touchfw-board.5 $(MANDIR)/man5/touchfw-db.5 \
	$(BASHCOMPDIR)/touchfw \
	$(PKGDATADIR)/61-touchfw-addonly.rules $(PKGDATADIR)/touchfw-mdev.conf \
	$(PKGDATADIR)/firmware-db/manifest.ini \
	$(addprefix $(DOCDIR)/,$(DOC_FILES)) \
	$(addprefix $(PKGDATADIR)/boards/,$(notdir $(SHIPPED_DTBS))) \
	$(if $(filter 1,$(INSTALL_EXAMPLES)),$(addprefix $(PKGDATADIR)/boards/,$(notdir $(EXAMPLE_DTBS))) \
	  $(addprefix $(PKGDATADIR)/firmware-db/,$(patsubst $(DB_DIR)/%,%,$(DB_BLOBS))) \
	  $(PKGDATADIR)/firmware-db/manifest.ini.sig $(PKGSYSCONFDIR)/keys/build-demo.pub)

install: all $(INSTALL_DATA) $(if $(filter 1,$(INSTALL_EXAMPLES)),$(DB_OUTPUTS))
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(PKGLIBEXECDIR) \
		$(DESTDIR)$(UDEVRULESDIR) $(DESTDIR)$(SYSTEMDUNITDIR) \
		$(DESTDIR)$(TMPFILESDIR) $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(PKGDATADIR)/boards $(DESTDIR)$(PKGDATADIR)/firmware-db
	$(INSTALL) -d -m 0755 $(DESTDIR)$(PKGSYSCONFDIR) $(DESTDIR)$(PKGSYSCONFDIR)/boards \
		$(DESTDIR)$(PKGSYSCONFDIR)/keys
	$(INSTALL) -m 0755 $(B)/touchfw $(DESTDIR)$(BINDIR)/touchfw
	$(INSTALL) -m 0755 $(B)/touchfw-agent $(DESTDIR)$(PKGLIBEXECDIR)/touchfw-agent
	$(INSTALL) -m 0644 $(B)/61-touchfw.rules $(DESTDIR)$(UDEVRULESDIR)/61-touchfw.rules
	$(INSTALL) -m 0644 $(B)/61-touchfw-addonly.rules $(DESTDIR)$(PKGDATADIR)/61-touchfw-addonly.rules
	$(INSTALL) -m 0644 $(B)/touchfw-mdev.conf $(DESTDIR)$(PKGDATADIR)/touchfw-mdev.conf
	$(INSTALL) -m 0644 $(B)/touchfw@.service $(DESTDIR)$(SYSTEMDUNITDIR)/touchfw@.service
	$(INSTALL) -m 0644 systemd/touchfw.tmpfiles $(DESTDIR)$(TMPFILESDIR)/touchfw.conf
	$(INSTALL) -m 0644 doc/touchfw.8 $(DESTDIR)$(MANDIR)/man8/touchfw.8
	$(INSTALL) -m 0644 doc/touchfw-board.5 doc/touchfw-db.5 $(DESTDIR)$(MANDIR)/man5/
	$(INSTALL) -m 0644 shell/bash-completion/touchfw $(DESTDIR)$(BASHCOMPDIR)/touchfw
	for f in $(DOC_FILES); do $(INSTALL) -D -m 0644 $$f $(DESTDIR)$(DOCDIR)/$$f || exit 1; done
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

# Removes exactly what install put there: the files in INSTALLED, the
# settings file only while it is the one install copied (an edited one is
# the administrator's and stays, with its directory), touchfw's own
# directories when empty; not state in /run and /var/lib.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	if cmp -s doc/touchfw.conf $(DESTDIR)$(PKGSYSCONFDIR)/touchfw.conf; then \
		rm -f $(DESTDIR)$(PKGSYSCONFDIR)/touchfw.conf; fi
	-rmdir $(addprefix $(DESTDIR)$(PKGDATADIR)/firmware-db/,$(sort $(dir $(patsubst $(DB_DIR)/%,%,$(DB_BLOBS))))) 2>/dev/null
	-rmdir $(addprefix $(DESTDIR)$(DOCDIR)/,$(filter-out ./,$(sort $(dir $(DOC_FILES))))) \
		$(DESTDIR)$(DOCDIR) 2>/dev/null
	-rmdir $(DESTDIR)$(PKGDATADIR)/firmware-db $(DESTDIR)$(PKGDATADIR)/boards \
		$(DESTDIR)$(PKGDATADIR) $(DESTDIR)$(PKGLIBEXECDIR) \
		$(DESTDIR)$(PKGSYSCONFDIR)/boards $(DESTDIR)$(PKGSYSCONFDIR)/keys \
		$(DESTDIR)$(PKGSYSCONFDIR) 2>/dev/null
	@echo "Removed.  Run: systemctl daemon-reload; udevadm control --reload"

# ---------------------------------------------------------------- deb
# The Debian package (debian/), built from a copy of the tracked and
# untracked-but-not-ignored files (a tracked file deleted in the work tree
# is left out) in $(B)/deb/touchfw-$(VERSION), so that
# dpkg-buildpackage's outputs (.deb, .dsc, .tar.xz, .changes, .buildinfo:
# written to the parent directory) and debian/'s build files stay out of
# the tree.  Source and binary package, unsigned.  It is built against
# the libgpiod pkg-config finds (PKG_CONFIG_PATH is passed on), and its
# Depends names that library's package (dpkg-shlibdeps): libgpiod2 for
# 1.6, libgpiod3 for 2.x.  For a library outside the system's paths and
# packages (make gpiod2-deb), DEB_SHLIBDEPS_DIRS (colon-separated) tells
# dpkg-shlibdeps where it is and DEB_SHLIBS_LOCAL names a shlibs file
# (debian/shlibs.local of the copy) with its package.  DEB_BUILD_ARGS
# are more dpkg-buildpackage options and DEB_BUILD_ENV more environment
# (make deb-cross: -aARCH, tests/cross/cross.mk).
DEB_DIR := $(B)/deb
deb:
	@B=$(B) tests/deps install $(DEB_BUILD) $(DEB_PKG)
	$(q) DEB $(DEB_DIR)
	@rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/touchfw-$(VERSION)
	@git ls-files -z -c -o --exclude-standard | \
		tar -c --null --ignore-failed-read -T - -f - | tar -x -C $(DEB_DIR)/touchfw-$(VERSION)
	$(if $(DEB_SHLIBS_LOCAL),@cp $(DEB_SHLIBS_LOCAL) $(DEB_DIR)/touchfw-$(VERSION)/debian/shlibs.local)
	@cd $(DEB_DIR)/touchfw-$(VERSION) && \
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES -u B -u SAN \
		$(if $(PKG_CONFIG_PATH),PKG_CONFIG_PATH=$(PKG_CONFIG_PATH)) \
		$(if $(DEB_SHLIBDEPS_DIRS),DEB_SHLIBDEPS_DIRS=$(DEB_SHLIBDEPS_DIRS)) $(DEB_BUILD_ENV) \
		dpkg-buildpackage -us -uc -j2 $(DEB_BUILD_ARGS) >../build.log 2>&1 || \
		{ tail -40 ../build.log; echo "make deb: failed, see $(DEB_DIR)/build.log"; exit 1; }
	@ls $(DEB_DIR)/*.deb $(DEB_DIR)/*.changes

clean:
	rm -rf $(B) build-san

# Last: their rules name the programs, tests, boards and fixtures defined above.
-include tests/gpiod2/gpiod2.mk
-include tests/cross/cross.mk

-include $(shell find $(B) -name '*.d' -type f 2>/dev/null)
