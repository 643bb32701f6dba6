# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest helpers for the scenarios that use mxt_emul (tests/vm/scenarios/
# kmod-*.sh; busybox ash, sourced after /vm/lib.sh).  The image carries this
# file as /vm/mxt-emul.sh and the shared helpers as /vm/emul.sh:
#   # vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
#   # vm-image: --file tests/vm/modules/mxt-emul/guest.sh:/vm/mxt-emul.sh
EMUL_MODULE=mxt_emul
EMUL_DRIVER_MODULE=atmel_mxt_ts
EMUL_DRIVER=atmel_mxt_ts
EMUL_STATE=/sys/kernel/debug/mxt-emul/state
EMUL_PROFILE=qemu-mxt-emul
. /vm/emul.sh
