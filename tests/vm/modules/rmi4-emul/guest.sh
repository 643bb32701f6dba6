# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest helpers for the scenarios that use rmi4_emul with Debian's
# rmi_smbus + rmi_core (tests/vm/scenarios/kmod-rmi4-driver.sh; busybox
# ash, sourced after /vm/lib.sh and /vm/emul.sh).  The image carries this
# file as /vm/rmi4-emul.sh.  rmi_core puts the RMI device (rmi4-NN, its
# F01/F34 attributes) and the input device under the i2c client.  The
# image carries the shared helpers as /vm/emul.sh:
#   # vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
#   # vm-image: --file tests/vm/modules/rmi4-emul/guest.sh:/vm/rmi4-emul.sh
. /vm/emul.sh
RMI4_STATE=/sys/kernel/debug/rmi4-emul/state
EMUL_MODULE=rmi4_emul
EMUL_DRIVER_MODULE=rmi_smbus
EMUL_DRIVER=rmi4_smbus
EMUL_STATE=$RMI4_STATE

# The rmi4-NN device directory under the client, "" when none.
rmi4_dev() {
	for _r in "$EMUL_SYS"/rmi4-*; do
		[ -d "$_r" ] && { echo "$_r"; return 0; }
	done
	return 0
}

# The input device's directory (under rmi4-NN), "" when none.
rmi4_input() {
	for _i in "$EMUL_SYS"/rmi4-*/input/input*; do
		[ -d "$_i" ] && { echo "$_i"; return 0; }
	done
	return 0
}

# The function devices rmi_core made below rmi4-NN, "fn01 fn11 fn34".
rmi4_functions() {
	_out=
	for _f in "$(rmi4_dev)"/rmi4-*.fn*; do
		[ -d "$_f" ] && _out="$_out${_out:+ }${_f##*.}"
	done
	echo "$_out"
}

# rmi4_attr NAME: an attribute of the RMI device (firmware_id, product_id,
# bootloader_id, configuration_id, update_fw_status).
rmi4_attr() { cat "$(rmi4_dev)/$1" 2>/dev/null; }

# rmi4_rebind: unbind and bind rmi4_smbus on the client.
rmi4_rebind() {
	echo "$EMUL_DEV" >/sys/bus/i2c/drivers/rmi4_smbus/unbind &&
		echo "$EMUL_DEV" >/sys/bus/i2c/drivers/rmi4_smbus/bind
}

# rmi4_chip_reset: the reset rmi_smbus leaves to PS/2 (debugfs reset).
rmi4_chip_reset() { echo 1 >/sys/kernel/debug/rmi4-emul/reset; }
