# SPDX-License-Identifier: GPL-2.0-or-later
#
# Helpers of the touchfw VM scenarios (sourced after /vm/lib.sh).

# tf_adapter: the i2c-stub adapter's sysfs directory.  Its name, "SMBus
# stub driver", is what the board profile's adapter-name must say.
tf_adapter() {
	for _a in /sys/bus/i2c/devices/i2c-*; do
		[ "$(cat "$_a/name")" = "SMBus stub driver" ] && { echo "$_a"; return 0; }
	done
	return 1
}

# tf_stamp SEQNUM NAME: the time /vm/touchfw/stamp NAME ran for that event.
tf_stamp() { awk -v s="$1" -v n="$2" '$1 == n && $2 == s { print $5; exit }' /run/vm-stamps; }

# tf_timing LABEL EVENTFILE: figures for one event whose RUN list was
# stamp before, touchfw handle-event, stamp after, stamp after2:
#   LABEL_uevent_to_run_start_ms          kernel uevent -> the "before" stamp (udevd's
#                                         queue and the RUN programs before ours)
#   LABEL_uevent_to_handle_event_exit_ms  kernel uevent -> handle-event exited
#   LABEL_handle_event_ms                 handle-event alone: (after - before)
#                                         less one stamp's cost (after2 - after)
tf_timing() {
	_seq=$(vm_event_get "$2" SEQNUM)
	_k=$(vm_kernel_stamp_us "$_seq") || _k=""
	_b=$(tf_stamp "$_seq" before) _a=$(tf_stamp "$_seq" after) _a2=$(tf_stamp "$_seq" after2)
	if [ -z "$_k" ] || [ -z "$_b" ] || [ -z "$_a" ] || [ -z "$_a2" ]; then
		vm_log "no timing for $1 (SEQNUM $_seq): kernel=$_k before=$_b after=$_a after2=$_a2"
		return 1
	fi
	vm_figure "${1}_uevent_to_run_start_ms" "$(vm_us_to_ms $((_b - _k)))" ms
	vm_figure "${1}_uevent_to_handle_event_exit_ms" "$(vm_us_to_ms $((_a - _k)))" ms
	vm_figure "${1}_handle_event_ms" "$(vm_us_to_ms $((_a - _b - (_a2 - _a))))" ms
}
