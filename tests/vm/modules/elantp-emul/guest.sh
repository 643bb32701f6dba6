# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest helpers for the scenarios that use elantp_emul with Debian's
# elan_i2c (tests/vm/scenarios/kmod-touchfw-elan.sh; busybox ash, sourced
# after /vm/lib.sh and /vm/emul.sh).  The image carries this file as
# /vm/elantp-emul.sh.  Like /vm/elants-emul.sh: elantp_use points the
# shared helpers (EMUL_*) at this chip, elantp_load loads it on its own
# adapter ("touchfw emulated adapter 2", so that it can sit beside
# elants_emul) and remembers its client.
ELANTP_STATE=/sys/kernel/debug/elantp-emul/state
ELANTP_ADAPTER="touchfw emulated adapter 2"

elantp_use() {
	EMUL_MODULE=elantp_emul
	EMUL_DRIVER_MODULE=elan_i2c
	EMUL_DRIVER=elan_i2c
	EMUL_STATE=$ELANTP_STATE
	EMUL_ADAPTER_NAME=$ELANTP_ADAPTER
	EMUL_BUS=${elantp_bus:-}
	EMUL_DEV=${elantp_dev:-}
	EMUL_SYS=${elantp_sys:-}
	EMUL_DEVPATH=${elantp_devpath:-}
}

# elantp_load [PARAM=VALUE...]: emul_load for this chip.
elantp_load() {
	elantp_use
	emul_load adapter_name="$ELANTP_ADAPTER" "$@" || return 1
	elantp_bus=$EMUL_BUS elantp_dev=$EMUL_DEV elantp_sys=$EMUL_SYS
	elantp_devpath=$EMUL_DEVPATH
}
