# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest-side helpers for the VM scenarios (busybox ash; sourced by /vm/init,
# /vm/scenario-run and every scenario as /vm/lib.sh).  They keep scenarios
# short: mounting the API filesystems, loading modules, starting udevd,
# waiting for things with a bounded poll, reading the events that
# /vm/log-event recorded, counting checks, printing figures for the host,
# and reporting the verdict to the host as QEMU's exit status through
# isa-debug-exit (one byte written to I/O port 0xf4 through /dev/port).
#
# Lines meant for the host runner start with "vm-": "vm-mark: NAME", "vm-figure:
# NAME VALUE UNIT", "vm-verdict: PASS|FAIL".

export PATH=/usr/sbin:/usr/bin:/sbin:/bin
VM_EVENTS=/run/vm-events
VM_RESULT=/run/vm-result
# isa-debug-exit turns a byte v written to its port into QEMU exit status
# (v << 1) | 1.  Neither value can be produced by QEMU on its own (it exits
# 0 on power-off or a guest panic with -no-reboot, 1 on its own errors).
VM_EXIT_PORT=244 # 0xf4, see run-scenario
VM_EXIT_PASS=16  # QEMU exits 33
VM_EXIT_FAIL=17  # QEMU exits 35

# shellcheck disable=SC1091
[ -r /vm/vm.conf ] && . /vm/vm.conf

vm_log() { echo "vm: $*"; }

# Monotonic clock (CLOCK_MONOTONIC, the clock udevadm monitor stamps events
# with) in microseconds; /proc/uptime has only 10 ms resolution.
vm_now_us() {
	awk '/^now at / { printf "%d\n", $3 / 1000; exit }' /proc/timer_list
}

vm_uptime() { cut -d' ' -f1 /proc/uptime; }

# A named point in time; the host stamps these lines as they arrive.
vm_mark() { echo "vm-mark: $1 uptime=$(vm_uptime)"; }

# A measured figure, printed by the host in its summary.
vm_figure() { echo "vm-figure: $*"; }

# Microseconds as milliseconds with one decimal.
vm_us_to_ms() { awk -v u="$1" 'BEGIN { printf "%.1f", u / 1000 }'; }

vm_mount_api() {
	mkdir -p /proc /sys /dev /run /tmp
	mount -t proc -o nosuid,nodev,noexec proc /proc
	mount -t sysfs -o nosuid,nodev,noexec sysfs /sys
	mount -t devtmpfs -o nosuid,mode=0755 devtmpfs /dev
	mkdir -p /dev/pts /dev/shm
	mount -t devpts -o nosuid,noexec,gid=5,mode=620 devpts /dev/pts
	mount -t tmpfs -o nosuid,nodev,mode=0755 tmpfs /run
	mount -t tmpfs -o nosuid,nodev tmpfs /tmp
	ln -sf /proc/self/fd /dev/fd
}

# modprobe NAME [PARAM=VALUE...], logged; fails the check on error.
vm_modprobe() {
	if modprobe "$@"; then
		vm_log "loaded $*"
	else
		vm_log "modprobe $* failed"
		return 1
	fi
}

# Start systemd-udevd as a daemon (busybox flavour) and wait until it
# answers on its control socket.  Its log goes to the kernel ring buffer
# (dmesg).  The socket file alone is not enough: udevd turns SO_PASSCRED on
# after bind(), and a message that arrives in between carries no
# credentials, reads as uid 65534 and is dropped ("Invalid sender uid") --
# once that was a scenario's `udevadm control --log-level=debug`.  A ping
# that got an answer proves later messages will be heard.
vm_start_udevd() {
	SYSTEMD_LOG_TARGET=kmsg /lib/systemd/systemd-udevd --daemon || return 1
	vm_wait 10 "udevd control socket" test -S /run/udev/control &&
		vm_wait 10 "udevd to answer a ping" udevadm control --ping --timeout=1
}

# Replay every existing device as "add" (what systemd-udev-trigger.service
# does at boot).  The busybox flavour leaves it to the scenarios that want
# it: it costs ~1.8 s under TCG.
vm_coldplug() {
	udevadm trigger --type=subsystems --action=add &&
		udevadm trigger --type=devices --action=add &&
		udevadm settle --timeout=60
}

# vm_wait SECONDS WHAT CMD...: poll CMD every 50 ms until it succeeds;
# on timeout log WHAT and fail.
vm_wait() {
	_vw_deadline=$(($(vm_now_us) + $1 * 1000000))
	_vw_what=$2
	shift 2
	while ! "$@"; do
		if [ "$(vm_now_us)" -ge "$_vw_deadline" ]; then
			vm_log "timed out waiting for $_vw_what"
			return 1
		fi
		sleep 0.05
	done
}

# ---------------------------------------------------------------- events
# /vm/log-event, run by udev rules, leaves one file per event in
# $VM_EVENTS named SEQNUM.ACTION holding RUN_START_US=... and the event's
# environment, KEY=VALUE per line.

# Start a new round: earlier events move to $VM_EVENTS.old, so lookups see
# only what comes next, and figures can still be computed over all of them.
vm_events_reset() {
	mkdir -p "$VM_EVENTS" "$VM_EVENTS.old"
	find "$VM_EVENTS" -mindepth 1 -maxdepth 1 -exec mv {} "$VM_EVENTS.old/" \;
}

# vm_event_find ACTION [KEY=VALUE...]: print the newest event file of that
# action whose environment has every KEY=VALUE line (for "KEY is absent"
# use vm_event_has on the result).
vm_event_find() {
	_ef_action=$1
	shift
	_ef_found=""
	for _ef in "$VM_EVENTS"/*."$_ef_action"; do
		[ -f "$_ef" ] || continue
		_ef_ok=1
		for _ef_kv in "$@"; do
			grep -qxF -- "$_ef_kv" "$_ef" || { _ef_ok=0; break; }
		done
		# Names sort by zero-padded SEQNUM: the last match is the newest.
		[ "$_ef_ok" = 1 ] && _ef_found=$_ef
	done
	[ -n "$_ef_found" ] && echo "$_ef_found"
}

# vm_wait_event SECONDS ACTION [KEY=VALUE...]: wait until such an event was
# recorded; print its file.
vm_wait_event() {
	_we_secs=$1
	shift
	vm_wait "$_we_secs" "event $*" vm_event_find "$@" >/dev/null || return 1
	vm_event_find "$@"
}

# The file of a recorded event, also after vm_events_reset moved it.
vm_event_path() {
	if [ -e "$1" ]; then echo "$1"; else echo "$VM_EVENTS.old/${1##*/}"; fi
}

# vm_event_get FILE KEY: the value of KEY in a recorded event ("" if unset).
vm_event_get() { sed -n "s/^$2=//p" "$(vm_event_path "$1")" | head -n 1; }

# vm_event_has FILE KEY: KEY is present in the recorded event.
vm_event_has() { grep -q "^$2=" "$(vm_event_path "$1")"; }

# ---------------------------------------------------------------- timing
# udevadm monitor stamps each kernel uevent with CLOCK_MONOTONIC when it
# receives it, at the same moment as udevd: the best "the kernel sent it"
# time user space can see.  log-event stamps RUN's start on the same clock.
VM_MONITOR_LOG=/run/vm-monitor.log

# The inodes of PID's sockets.
vm_socket_inodes() {
	ls -l "/proc/$1/fd" 2>/dev/null | sed -n 's/.*socket:\[\([0-9]*\)\].*/\1/p'
}

# vm_netlink_listening PID: PID has a uevent socket (NETLINK_KOBJECT_UEVENT,
# protocol 15) bound to a multicast group (/proc/net/netlink: Eth, Groups,
# Inode): the kernel queues every uevent for it from now on.  What a
# listener (udevadm monitor, mdev -d) is waited for before the action whose
# uevents it is to see, instead of a guess at how long it takes to start.
vm_netlink_listening() {
	for _nl_ino in $(vm_socket_inodes "$1"); do
		awk -v ino="$_nl_ino" '$2 == 15 && $4 != "00000000" && $NF == ino { f = 1 }
			END { exit !f }' /proc/net/netlink && return 0
	done
	return 1
}

# vm_netlink_drained PID: PID has read every uevent queued on its uevent
# sockets (Rmem 0) and sleeps waiting for more: what it read is handled
# (udevadm monitor prints line-buffered, then waits in epoll again).  One
# awk a call (a fork costs tens of ms under TCG): PID's socket inodes are
# looked up once.
vm_netlink_drained() {
	if [ "${_nd_pid:-}" != "$1" ]; then
		_nd_inodes=" $(vm_socket_inodes "$1" | tr '\n' ' ') "
		_nd_pid=$1
	fi
	awk -v inos="$_nd_inodes" '
		FNR == NR { if ($2 == 15 && index(inos, " " $NF " ") && $5 != 0) busy = 1; next }
		/^State:/ { sleeping = $3 == "(sleeping)" }
		END { exit busy || !sleeping }' /proc/net/netlink "/proc/$1/status" 2>/dev/null
}

# vm_monitor_start [SUBSYSTEM]: record kernel uevents with their properties.
# The monitor receives events once its netlink socket is bound to the
# kernel's uevent group: wait for that socket in /proc/net/netlink rather
# than for a time (under load it took more than the 0.3 s once given it,
# and the first event of a scenario went unrecorded).
vm_monitor_start() {
	udevadm monitor --kernel --property ${1:+--subsystem-match="$1"} \
		>"$VM_MONITOR_LOG" 2>&1 &
	vm_monitor_pid=$!
	vm_wait 30 "udevadm monitor to listen" vm_netlink_listening "$vm_monitor_pid"
}

# Stop it once it has written every uevent the kernel sent so far.
vm_monitor_stop() {
	[ -n "${vm_monitor_pid:-}" ] || return 0
	vm_wait 30 "udevadm monitor to read every uevent" vm_netlink_drained "$vm_monitor_pid"
	kill "$vm_monitor_pid" 2>/dev/null
	_nd_pid=""
	wait "$vm_monitor_pid" 2>/dev/null
	vm_monitor_pid=""
}

# The monitor's log holds every uevent the kernel sent so far.
vm_monitor_sync() {
	[ -n "${vm_monitor_pid:-}" ] || return 0
	vm_wait 30 "udevadm monitor to read every uevent" vm_netlink_drained "$vm_monitor_pid"
}

# vm_kernel_stamp_us SEQNUM: the monitor's time for that uevent, in µs.
vm_kernel_stamp_us() {
	vm_monitor_sync
	awk -v want="$1" '
		/^KERNEL\[/ { t = $1; sub(/^KERNEL\[/, "", t); sub(/\].*/, "", t) }
		$0 == "SEQNUM=" want { printf "%d\n", t * 1000000; found = 1; exit }
		END { exit !found }' "$VM_MONITOR_LOG"
}

# vm_uevent_to_run_us EVENTFILE: from the kernel's uevent to RUN's start.
vm_uevent_to_run_us() {
	_ur_k=$(vm_kernel_stamp_us "$(vm_event_get "$1" SEQNUM)") || return 1
	echo $(($(vm_event_get "$1" RUN_START_US) - _ur_k))
}

# ---------------------------------------------------------------- kernel
# The kernel neither oopsed nor warned in this boot.  The taint flags are
# the whole boot's record, lost to no ring buffer wrap: D (bit 7,
# TAINT_DIE: an oops or BUG) and W (bit 9, TAINT_WARN).  Others are
# expected: a test module taints O and E (bits 12, 13).  The log is
# searched too, for what it still holds.
vm_no_oops() {
	_no_t=$(cat /proc/sys/kernel/tainted) || return 1
	_no_ok=0
	if [ $((_no_t >> 7 & 1)) = 1 ]; then
		vm_log "kernel tainted D (oops or BUG), tainted=$_no_t"
		_no_ok=1
	fi
	if [ $((_no_t >> 9 & 1)) = 1 ]; then
		vm_log "kernel tainted W (warning), tainted=$_no_t"
		_no_ok=1
	fi
	if dmesg | grep "Oops\|WARNING\|BUG:\|kernel BUG at"; then
		vm_log "the kernel log has the lines above"
		_no_ok=1
	fi
	return $_no_ok
}

# ---------------------------------------------------------------- verdict
vm_checks=0
vm_fails=0

# vm_check DESCRIPTION CMD...: one check; the scenario goes on either way.
vm_check() {
	_c_desc=$1
	shift
	vm_checks=$((vm_checks + 1))
	if "$@"; then
		echo "vm: ok   $_c_desc"
		vm_save_result
		return 0
	fi
	vm_fails=$((vm_fails + 1))
	echo "vm: FAIL $_c_desc"
	vm_save_result
	# A scenario library may say what it knows (once per failed check).
	if command -v vm_explain_failure >/dev/null 2>&1; then
		vm_explain_failure
	fi
	return 1
}

# vm_require DESCRIPTION CMD...: a check the rest of the scenario needs;
# when it fails the scenario ends there.
vm_require() {
	vm_check "$@" || exit 1
}

vm_save_result() { echo "checks=$vm_checks fails=$vm_fails" >"$VM_RESULT"; }

# Run /vm/scenario.sh in a subshell and decide: PASS only when it exited 0,
# ran at least one check and none failed.  A scenario that checks nothing
# proves nothing.
vm_run_scenario() {
	rm -f "$VM_RESULT"
	vm_mark scenario-start
	_rs_t0=$(vm_now_us)
	(. /vm/scenario.sh)
	_rs_rc=$?
	_rs_t1=$(vm_now_us)
	vm_mark scenario-end
	vm_figure scenario_guest_ms "$(vm_us_to_ms $((_rs_t1 - _rs_t0)))" ms
	_rs_result=$(cat "$VM_RESULT" 2>/dev/null || echo "checks=0 fails=0")
	vm_log "scenario ${VM_SCENARIO:-?} exited $_rs_rc, $_rs_result"
	case "$_rs_rc $_rs_result" in
	"0 checks=0 "*) vm_verdict FAIL "no checks ran" ;;
	"0 checks="*" fails=0") vm_verdict PASS ;;
	*) vm_verdict FAIL "exit $_rs_rc, $_rs_result" ;;
	esac
}

vm_diagnostics() {
	echo "vm: ---- recorded events (earlier rounds first)"
	for _d in "$VM_EVENTS.old"/* "$VM_EVENTS"/*; do
		[ -f "$_d" ] || continue
		echo "vm: ${_d##*/} $(grep -E '^(DEVPATH|DRIVER|SUBSYSTEM)=' "$_d" | tr '\n' ' ')"
	done
	echo "vm: ---- dmesg since /init (last 40 lines)"
	dmesg | sed -n '/Run \/init/,$p' | tail -n 40
}

# vm_verdict PASS|FAIL [WHY]: tell the host and stop the machine.
vm_verdict() {
	_v_code=$VM_EXIT_FAIL
	[ "$1" = PASS ] && _v_code=$VM_EXIT_PASS
	[ "$1" = PASS ] || vm_diagnostics
	if grep -qw vm.shell /proc/cmdline && [ "$$" = 1 ]; then
		echo "vm: verdict $1${2:+ ($2)}; here is a shell, exit it to report"
		setsid cttyhack sh
	fi
	echo "vm-verdict: $1${2:+ ($2)}"
	sync
	# arm64 (the virt machine): through semihosting (tools/semihost-exit.c),
	# with the status isa-debug-exit would give.
	if [ -x /vm/semihost-exit ]; then
		/vm/semihost-exit $(((_v_code << 1) | 1))
		echo "vm: semihosting did not stop the machine"
		poweroff -f
	fi
	# shellcheck disable=SC2059
	printf "\\$(printf %o "$_v_code")" |
		dd of=/dev/port bs=1 seek=$VM_EXIT_PORT count=1 conv=notrunc 2>/dev/null
	# Only reached without isa-debug-exit: stop anyway; the host then sees
	# an exit status without a verdict and fails the run.
	echo "vm: isa-debug-exit did not stop the machine"
	poweroff -f
}
