# SPDX-License-Identifier: GPL-2.0-or-later
#
# Host-side settings shared by the VM test scripts (sourced, not run).
# It fixes where things live:
#   VM_DIR        build/vm by default (B= or TOUCHFW_BUILD move it; VM_DIR
#                 overrides): downloaded .debs, the unpacked kernel, images,
#                 logs.  Never committed.
#   VM_SRC        this directory (tests/vm), the committed sources.
#   VM_KERNEL_ENV $VM_DIR/kernel.env, written by fetch-kernel: KVER,
#                 KPKG, KPKG_VERSION, KIMAGE, KBOOT, KROOT.
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
VM_KERNEL_ENV=$VM_DIR/kernel.env

vm_msg() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
vm_die() { vm_msg "$*"; exit 1; }

# Install missing Debian packages through the project's one way of doing so.
vm_need() { "$VM_TOP/tests/deps" install "$@" >&2; }

# Make sure a kernel is fetched and load its description.  A kernel
# already there is used as it is (fetch-kernel, which check-vm runs first,
# is what follows Debian's updates).
vm_load_kernel() {
	if [ -r "$VM_KERNEL_ENV" ]; then
		# shellcheck disable=SC1090
		. "$VM_KERNEL_ENV"
		[ -r "$KIMAGE" ] && return 0
	fi
	"$VM_SRC/fetch-kernel" >&2 || vm_die "no kernel"
	# shellcheck disable=SC1090
	. "$VM_KERNEL_ENV"
}
