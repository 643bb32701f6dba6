# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest helpers for the scenario that uses elanhid_emul with Debian's
# i2c-hid-of and hid-multitouch (tests/vm/scenarios/kmod-touchfw-elanhid.sh;
# busybox ash, sourced after /vm/lib.sh and /vm/emul.sh).  The image
# carries this file as /vm/elanhid-emul.sh.
ELANHID_STATE=/sys/kernel/debug/elanhid-emul/state
ELANHID_TOUCH=/sys/kernel/debug/elanhid-emul/touch

elanhid_use() {
	EMUL_MODULE=elanhid_emul
	EMUL_DRIVER_MODULE=i2c-hid-of
	EMUL_DRIVER=i2c_hid_of
	EMUL_STATE=$ELANHID_STATE
}

# elanhid_touch "X Y" | up: one finger on the pad, or lifted.
elanhid_touch() { printf '%s\n' "$1" >"$ELANHID_TOUCH"; }

# elanhid_hid: the hid device i2c_hid made for the client (BBBB:VVVV:PPPP.N).
elanhid_hid() {
	for _h in "$EMUL_SYS"/*:*:*.*; do
		[ -d "$_h" ] && { echo "${_h##*/}"; return 0; }
	done
	return 1
}

# elanhid_event: the event node hid-multitouch registered under it.
elanhid_event() {
	for _e in "$EMUL_SYS"/*:*:*.*/input/input*/event*; do
		[ -e "$_e" ] && { echo "${_e##*/}"; return 0; }
	done
	return 1
}
