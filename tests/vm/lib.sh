# SPDX-License-Identifier: GPL-2.0-or-later
#
# Host-side settings shared by the VM test scripts (sourced, not run).
# It fixes where things live:
#   VM_DIR        build/vm by default (B= or TOUCHFW_BUILD move it; VM_DIR
#                 overrides): downloaded .debs, the unpacked kernels, images,
#                 logs.  Never committed.
#   VM_SRC        this directory (tests/vm), the committed sources.
#   VM_KERNEL     the kernel selector: $KERNEL, else VM_DEFAULT_KERNEL; a
#                 file of that name in tests/vm/kernels names the Debian
#                 metapackage (KERNEL_META) and architecture (KERNEL_ARCH).
#   VM_KERNEL_ENV $VM_DIR/kernel-$VM_KERNEL.env, written by fetch-kernel:
#                 KVER, KPKG, KPKG_VERSION, KIMAGE, KBOOT, KROOT, KARCH.
# Everything built for a kernel is cached under its version (KVER, which
# for Debian names the architecture too: 6.1.0-57-amd64), so kernels sit
# side by side: kernel/KVER (the unpacked package), image/KVER (cached
# layers), modules/KVER (out-of-tree module builds); runs under
# run/SELECTOR/NAME.
# and gives a few helpers for messages and for reading that kernel.env.

VM_SRC=$(cd "$(dirname "$0")" && pwd)
VM_TOP=$(cd "$VM_SRC/../.." && pwd)
if [ -z "${VM_DIR:-}" ]; then
	if [ -n "${TOUCHFW_BUILD:-}" ]; then
		VM_DIR=$TOUCHFW_BUILD/vm
	else
		VM_DIR=$VM_TOP/${B:-build}/vm
	fi
fi
case $VM_DIR in /*) ;; *) VM_DIR=$PWD/$VM_DIR ;; esac
VM_DEFAULT_KERNEL=6.1

vm_msg() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
vm_die() { vm_msg "$*"; exit 1; }

# Install missing Debian packages through the project's one way of doing so.
vm_need() { "$VM_TOP/tests/deps" install "$@" >&2; }

# The selectors there are: every file of tests/vm/kernels.
vm_kernels() { (cd "$VM_SRC/kernels" && ls | sort -V); }

# The architecture a scenario boots (its kernel's and its programs'): one
# whose name has "arm64" in it is an arm64 scenario (issue 22's board, on
# qemu-system-aarch64 -M virt), every other one amd64.
vm_scenario_arch() {
	case ${1##*/} in
	*arm64*) echo arm64 ;;
	*) echo amd64 ;;
	esac
}

# The architecture of kernel selector SEL (its file's ARCH=).
vm_kernel_arch() { sed -n 's/^ARCH=//p' "$VM_SRC/kernels/$1" 2>/dev/null; }

# vm_kernel_for_arch SEL ARCH: the selector to boot for a scenario of ARCH
# when SEL is asked for: SEL itself when it is of ARCH, else SEL-ARCH when
# tests/vm/kernels has it (KERNEL=6.1 boots an arm64 scenario under
# 6.1-arm64), else nothing (that scenario has no such kernel).
vm_kernel_for_arch() {
	if [ "$(vm_kernel_arch "$1")" = "$2" ]; then
		echo "$1"
	elif [ "$(vm_kernel_arch "$1-$2")" = "$2" ]; then
		echo "$1-$2"
	fi
}

# vm_select_kernel SEL: read tests/vm/kernels/SEL and point VM_KERNEL_ENV
# at its cache entry.  Every script selects $KERNEL (or the default) when
# it sources this file; check-vm selects each kernel in turn.
vm_select_kernel() {
	case $1 in
	"" | *[!A-Za-z0-9._-]* | .*) vm_die "bad kernel selector '$1'" ;;
	esac
	[ -f "$VM_SRC/kernels/$1" ] ||
		vm_die "no kernel '$1' in tests/vm/kernels (there are: $(vm_kernels | tr '\n' ' '))"
	META="" ARCH=""
	# shellcheck disable=SC1090
	. "$VM_SRC/kernels/$1"
	[ -n "$META" ] && [ -n "$ARCH" ] || vm_die "tests/vm/kernels/$1: META= and ARCH= needed"
	VM_KERNEL=$1 KERNEL_META=$META KERNEL_ARCH=$ARCH
	VM_KERNEL_ENV=$VM_DIR/kernel-$VM_KERNEL.env
}
vm_select_kernel "${KERNEL:-$VM_DEFAULT_KERNEL}"

# Make sure the selected kernel is fetched and load its description.  A
# kernel already there is used as it is (fetch-kernel, which check-vm runs
# first, is what follows Debian's updates).
vm_load_kernel() {
	if [ -r "$VM_KERNEL_ENV" ]; then
		# shellcheck disable=SC1090
		. "$VM_KERNEL_ENV"
		[ -r "$KIMAGE" ] && return 0
	fi
	KERNEL=$VM_KERNEL "$VM_SRC/fetch-kernel" >&2 || vm_die "no kernel"
	# shellcheck disable=SC1090
	. "$VM_KERNEL_ENV"
}

# Does the selected kernel's package ship module NAME (a driver Debian
# builds in one kernel and not in another)?
vm_kernel_has_module() {
	modprobe -d "$KROOT" -S "$KVER" --show-depends "$1" >/dev/null 2>&1
}
