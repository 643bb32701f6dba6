# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest helpers for the scenarios that use cyapa_emul with Debian's cyapa
# (module cyapatp; tests/vm/scenarios/kmod-cyapa-driver.sh; busybox ash,
# sourced after /vm/lib.sh).  The image carries this file as
# /vm/cyapa-emul.sh, the shared helpers as /vm/emul.sh, the evdev tool as
# /usr/bin/evdev-query and fwgen (the firmware files) as /usr/bin/fwgen:
#   # vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
#   # vm-image: --file tests/vm/modules/cyapa-emul/guest.sh:/vm/cyapa-emul.sh
#   # vm-image: --bin @B@/tests/vm/evdev-query:/usr/bin/evdev-query
#   # vm-image: --bin @B@/fwgen:/usr/bin/fwgen
EMUL_MODULE=cyapa_emul
EMUL_DRIVER_MODULE=cyapatp
EMUL_DRIVER=cyapa
EMUL_STATE=/sys/kernel/debug/cyapa-emul/state
. /vm/emul.sh

CYAPA_TOUCH=/sys/kernel/debug/cyapa-emul/touch
ABS_MT_POSITION_X=53
ABS_MT_POSITION_Y=54

# cyapa_attr NAME: one of the driver's attributes (firmware_version, ...).
cyapa_attr() { cat "$EMUL_SYS/$1"; }

# cyapa_abs_max CODE: the maximum of an absolute axis of the input device.
cyapa_abs_max() {
	evdev-query "/dev/input/$(emul_event)" abs "$1" | cut -d' ' -f2
}

# cyapa_touch LINES: the pad reports one frame ("ID X Y P" per finger,
# ids 1..15, or "up"); fails when the pad senses nothing (its power mode
# is off while nobody has the input device open).
cyapa_touch() { printf '%s\n' "$1" >"$CYAPA_TOUCH"; }

# cyapa_update NAME: write NAME to the driver's update_fw; returns when
# the driver has flashed and re-detected the pad, with the write's status
# (its error text in /run/cyapa-update.err); the seconds it took in
# cyapa_update_s.
cyapa_update() {
	_t0=$(vm_now_us)
	echo "$1" 2>/run/cyapa-update.err >"$EMUL_SYS/update_fw"
	_rc=$?
	cyapa_update_s=$(( ($(vm_now_us) - _t0) / 1000000 ))
	return $_rc
}

# cyapa_events_start COUNT OUT: read COUNT events of the input device into
# OUT in the background (opening it: cyapa powers the pad up and enables
# its interrupt), returning once it is open.
cyapa_events_start() {
	rm -f /run/cyapa-ready
	evdev-query "/dev/input/$(emul_event)" events "$1" 5000 /run/cyapa-ready >"$2" 2>&1 &
	cyapa_events_pid=$!
	vm_wait 5 "evdev-query open" test -e /run/cyapa-ready
}

cyapa_events_wait() {
	vm_wait 10 "evdev-query done" eval '! kill -0 $cyapa_events_pid 2>/dev/null'
}
