# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest helpers for the scenarios that use elants_emul with the kernel's
# elants_i2c built from Debian's linux-source (tests/vm/scenarios/
# kmod-touchfw-elan.sh; busybox ash, sourced after /vm/lib.sh and
# /vm/emul.sh).  The image carries this file as /vm/elants-emul.sh.
# A scenario may drive two emulated chips: elants_use makes the shared
# helpers of /vm/emul.sh (EMUL_*) act on this one, and elants_load loads
# it and remembers its adapter and client for later elants_use calls.
ELANTS_STATE=/sys/kernel/debug/elants-emul/state
ELANTS_ADAPTER="touchfw emulated adapter 1"

elants_use() {
	EMUL_MODULE=elants_emul
	EMUL_DRIVER_MODULE=elants_i2c
	EMUL_DRIVER=elants_i2c
	EMUL_STATE=$ELANTS_STATE
	EMUL_ADAPTER_NAME=$ELANTS_ADAPTER
	EMUL_BUS=${elants_bus:-}
	EMUL_DEV=${elants_dev:-}
	EMUL_SYS=${elants_sys:-}
	EMUL_DEVPATH=${elants_devpath:-}
}

# elants_load [PARAM=VALUE...]: emul_load for this chip.
elants_load() {
	elants_use
	emul_load adapter_name="$ELANTS_ADAPTER" "$@" || return 1
	elants_bus=$EMUL_BUS elants_dev=$EMUL_DEV elants_sys=$EMUL_SYS
	elants_devpath=$EMUL_DEVPATH
}
