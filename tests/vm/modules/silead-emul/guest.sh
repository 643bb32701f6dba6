# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest helpers for the scenarios that use silead_emul (tests/vm/scenarios/
# kmod-touchfw-silead.sh; busybox ash, sourced after /vm/lib.sh).  The
# image carries this file as /vm/silead-emul.sh, the shared helpers as
# /vm/emul.sh and the evdev tool as /usr/bin/evdev-query:
#   # vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
#   # vm-image: --file tests/vm/modules/silead-emul/guest.sh:/vm/silead-emul.sh
#   # vm-image: --bin @B@/tests/vm/evdev-query:/usr/bin/evdev-query
EMUL_MODULE=silead_emul
EMUL_DRIVER_MODULE=silead
EMUL_DRIVER=silead_ts
EMUL_STATE=/sys/kernel/debug/silead-emul/state
EMUL_PROFILE=qemu-silead-emul
. /vm/emul.sh

SLD_TOUCH=/sys/kernel/debug/silead-emul/touch
ABS_MT_POSITION_X=53
ABS_MT_POSITION_Y=54

# sld_abs_max CODE: the maximum of an absolute axis of the input device.
sld_abs_max() {
	evdev-query "/dev/input/$(emul_event)" abs "$1" | cut -d' ' -f2
}

# sld_touch LINES: the chip reports one frame ("ID X Y" per finger).
sld_touch() { printf '%s\n' "$1" >"$SLD_TOUCH"; }

# sld_events_start COUNT OUT / sld_events_wait: COUNT events of the input
# device into OUT, read in the background.
sld_events_start() {
	rm -f /run/sld-ready
	evdev-query "/dev/input/$(emul_event)" events "$1" 5000 /run/sld-ready >"$2" 2>&1 &
	sld_events_pid=$!
	vm_wait 5 "evdev-query open" test -e /run/sld-ready
}

sld_events_wait() {
	vm_wait 10 "evdev-query done" eval '! kill -0 $sld_events_pid 2>/dev/null'
	wait "$sld_events_pid" 2>/dev/null
}

# emul_add_us: udevadm monitor's stamp of the client's first add uevent (µs).
sld_add_us() {
	emul_monitor_sync
	awk -v dp="$EMUL_DEVPATH" '
		/^KERNEL\[/ { t = $1; sub(/^KERNEL\[/, "", t); sub(/\].*/, "", t)
			if ($2 == "add" && $3 == dp) { printf "%d\n", t * 1000000; exit } }
		' "$EMUL_MONITOR_LOG"
}
