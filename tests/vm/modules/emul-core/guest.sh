# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest helpers shared by the scenarios of the emulated controller modules
# (tests/vm/scenarios/kmod-*.sh; busybox ash, sourced after /vm/lib.sh,
# through the chip's own file: /vm/NAME-emul.sh (modules/NAME-emul/guest.sh),
# which set the EMUL_* names below and source this one, in the image as
# /vm/emul.sh).  They load the module with parameters, find its adapter
# and client, read the chip model's state from debugfs, time kernel
# uevents with udevadm monitor, and look at touchfw's results.
#
# Set by the chip's file:
#   EMUL_MODULE         the module (NAME_emul)
#   EMUL_DRIVER_MODULE  the kernel driver's module
#   EMUL_DRIVER         its driver directory under /sys/bus/i2c/drivers
#   EMUL_STATE          the model's debugfs state file
#   EMUL_PROFILE        file name of touchfw's board profile for it
EMUL_ADAPTER_NAME="touchfw emulated adapter 1"
EMUL_MONITOR_LOG=/run/emul-monitor.log

# Modules and debugfs every scenario of the module needs.
emul_setup() {
	vm_modprobe evdev && vm_modprobe i2c-dev && vm_modprobe "$EMUL_DRIVER_MODULE" ||
		return 1
	grep -q " /sys/kernel/debug debugfs " /proc/mounts ||
		mount -t debugfs -o nosuid,nodev,noexec debugfs /sys/kernel/debug
}

# emul_load [PARAM=VALUE...]: load the module (the client probes during
# the load) and set EMUL_BUS (adapter number), EMUL_DEV (client name, e.g.
# 0-004a), EMUL_SYS (its sysfs directory) and EMUL_DEVPATH.
emul_load() {
	vm_modprobe "$EMUL_MODULE" "$@" || return 1
	EMUL_BUS=""
	for _a in /sys/bus/i2c/devices/i2c-*; do
		[ "$(cat "$_a/name")" = "$EMUL_ADAPTER_NAME" ] && EMUL_BUS=${_a##*/i2c-}
	done
	[ -n "$EMUL_BUS" ] || { vm_log "no adapter named $EMUL_ADAPTER_NAME"; return 1; }
	EMUL_DEV=""
	for _c in /sys/bus/i2c/devices/i2c-"$EMUL_BUS"/"$EMUL_BUS"-00*; do
		[ -e "$_c" ] && EMUL_DEV=${_c##*/}
	done
	[ -n "$EMUL_DEV" ] || { vm_log "no client on i2c-$EMUL_BUS"; return 1; }
	EMUL_SYS=/sys/bus/i2c/devices/$EMUL_DEV
	EMUL_DEVPATH=$(readlink -f "$EMUL_SYS")
	EMUL_DEVPATH=${EMUL_DEVPATH#/sys}
}

emul_unload() { rmmod "$EMUL_MODULE"; }

# emul_state KEY: a value of the model's debugfs state (mode, fw_version,
# config_crc, frames_failed, ...).
emul_state() { sed -n "s/^$1=//p" "$EMUL_STATE"; }

# The driver the client is bound to, "" when none.
emul_driver() {
	_d=$(readlink "$EMUL_SYS/driver" 2>/dev/null) || return 0
	echo "${_d##*/}"
}

# The client's evdev node name (event3), "" when it has no input device.
emul_event() {
	for _e in "$EMUL_SYS"/input/input*/event*; do
		[ -e "$_e" ] && { echo "${_e##*/}"; return 0; }
	done
	return 0
}

emul_has_input() { [ -n "$(emul_event)" ] && [ -c "/dev/input/$(emul_event)" ]; }

# The client's input device name (input5), "" when none.
emul_input() {
	for _i in "$EMUL_SYS"/input/input*; do
		[ -e "$_i" ] && { echo "${_i##*/}"; return 0; }
	done
	return 0
}

# The kernel log since the last emul_dmesg_mark (all of it before the
# first).  The mark leaves the ring buffer alone (no dmesg -c): whole-boot
# checks such as vm_no_oops must still see everything.  It writes a
# numbered line to /dev/kmsg and the log is read from after that line,
# which stays right when the 128 KiB ring buffer wraps (a line count would
# then skip new lines): a mark that was overwritten means every line left
# is newer.  Should the write fail (printk_devkmsg=off), the mark falls
# back to the line count.
EMUL_DMESG_MARK=0
EMUL_DMESG_TAG=""
EMUL_DMESG_SKIP=0
emul_dmesg_mark() {
	EMUL_DMESG_MARK=$((EMUL_DMESG_MARK + 1))
	EMUL_DMESG_TAG="emul guest: kernel log mark $EMUL_DMESG_MARK"
	EMUL_DMESG_SKIP=$(dmesg | wc -l)
	if ! { echo "$EMUL_DMESG_TAG" >/dev/kmsg; } 2>/dev/null ||
		! dmesg | grep -q "] $EMUL_DMESG_TAG\$"; then
		vm_log "kernel log mark $EMUL_DMESG_MARK not written: counting $EMUL_DMESG_SKIP lines instead"
		EMUL_DMESG_TAG=""
	fi
}
emul_dmesg() {
	if [ -n "$EMUL_DMESG_TAG" ]; then
		dmesg | awk -v tag="] $EMUL_DMESG_TAG" '
			{ line[NR] = $0 }
			substr($0, length($0) - length(tag) + 1) == tag { from = NR + 1 }
			END { for (i = from ? from : 1; i <= NR; i++) print line[i] }'
	else
		dmesg | tail -n +$((EMUL_DMESG_SKIP + 1))
	fi
}
emul_dmesg_has() { emul_dmesg | grep -q -- "$1"; }

# The firmware loader's own account of a file it gave a driver.  Debian's
# 6.1 says "firmware: direct-loading firmware NAME" at info level (a Debian
# patch); 6.12 says which file it read ("Loading firmware from PATH") and
# its sha256 ("Loaded FW: NAME, sha256: ...") at debug level only: call
# emul_fw_debug_on first (dynamic debug of the loader; without
# CONFIG_DYNAMIC_DEBUG the control file is missing and nothing changes).
emul_fw_debug_on() {
	echo 'file drivers/base/firmware_loader/main.c +p' \
		>/proc/dynamic_debug/control 2>/dev/null || true
}
# emul_fw_loaded DRIVER-AND-DEV NAME PATH [SAME-BYTES-FILE]: the loader
# gave the device NAME read from PATH (6.12: that path, and, with a file
# given, those bytes: the sha256 it logged; 6.1 names only NAME).
emul_fw_loaded() {
	if emul_dmesg_has "$1: firmware: direct-loading firmware $2\$"; then
		vm_log "loader (6.1 form): $1 direct-loading $2"
		return 0
	fi
	emul_dmesg_has "$1: Loading firmware from $3\$" || return 1
	[ -n "${4:-}" ] || return 0
	emul_dmesg_has "$1: Loaded FW: $2, sha256: $(sha256sum "$4" | cut -d' ' -f1)\$"
}

# Kernel uevents of i2c and input devices, stamped by udevadm monitor
# (CLOCK_MONOTONIC when received, the same moment as udevd).
emul_monitor_start() {
	udevadm monitor --kernel --property --subsystem-match=i2c \
		--subsystem-match=input >"$EMUL_MONITOR_LOG" 2>&1 &
	emul_monitor_pid=$!
	vm_wait 30 "udevadm monitor to listen" vm_netlink_listening "$emul_monitor_pid"
}

# The monitor's log holds every uevent the kernel sent so far (the
# readers below call it first).
emul_monitor_sync() {
	[ -n "${emul_monitor_pid:-}" ] || return 0
	vm_wait 30 "udevadm monitor to read every uevent" vm_netlink_drained "$emul_monitor_pid"
}

# Stop it once it has written every uevent the kernel sent so far.
emul_monitor_stop() {
	[ -n "${emul_monitor_pid:-}" ] || return 0
	vm_wait 30 "udevadm monitor to read every uevent" vm_netlink_drained "$emul_monitor_pid"
	kill "$emul_monitor_pid" 2>/dev/null
	_nd_pid=""
	wait "$emul_monitor_pid" 2>/dev/null
	emul_monitor_pid=""
}

# emul_bind_to_input_us [NTH]: from the NTH (default 1st) bind uevent of
# the client to the "add" of its evdev node in the same binding (between
# the unbind before and the unbind after), in µs.  A driver that registers
# the input device from an asynchronous firmware callback can make the
# figure negative: the input device came first.
emul_bind_to_input_us() {
	emul_monitor_sync
	awk -v dp="$EMUL_DEVPATH" -v nth="${1:-1}" '
		/^KERNEL\[/ { t = $1; sub(/^KERNEL\[/, "", t); sub(/\].*/, "", t)
			action = $2; path = $3
			if (action == "unbind" && path == dp) g++
			next }
		/^DEVNAME=(\/dev\/)?input\/event/ && action == "add" &&
			index(path, dp "/input/") == 1 && !(g in addt) { addt[g] = t }
		/^DRIVER=/ && action == "bind" && path == dp { n++; gen[n] = g; bindt[n] = t }
		END {
			if (!(nth in bindt) || !(gen[nth] in addt)) exit 1
			printf "%d\n", (addt[gen[nth]] - bindt[nth]) * 1000000
		}' "$EMUL_MONITOR_LOG"
}

# How many input devices (their event node's add) the client registered
# since the monitor started.
emul_input_add_count() {
	emul_monitor_sync
	awk -v dp="$EMUL_DEVPATH" '
		/^KERNEL\[/ { action = $2; path = $3 }
		/^DEVNAME=(\/dev\/)?input\/event/ && action == "add" && index(path, dp "/input/") == 1 { n++ }
		END { print n + 0 }' "$EMUL_MONITOR_LOG"
}

# How many bind uevents the client had since the monitor started.
emul_bind_count() {
	emul_monitor_sync
	awk -v dp="$EMUL_DEVPATH" '
		/^KERNEL\[/ { action = $2; path = $3 }
		/^DRIVER=/ && action == "bind" && path == dp { n++ }
		END { print n + 0 }' "$EMUL_MONITOR_LOG"
}

# How many unbind uevents the client had since the monitor started.
emul_unbind_count() {
	emul_monitor_sync
	awk -v dp="$EMUL_DEVPATH" '
		/^KERNEL\[/ && $2 == "unbind" && $3 == dp { n++ }
		END { print n + 0 }' "$EMUL_MONITOR_LOG"
}

# ---------------------------------------------------------------- touchfw
# touchfw installed as with PREFIX=/usr/local (see the kmod-touchfw-*
# scenario headers): binaries in /usr/local/bin, settings, keys and board
# profiles under /usr/local/etc/touchfw, the DB in /usr/local/share/touchfw.
TOUCHFW=/usr/local/bin/touchfw
TOUCHFW_STATE=/run/touchfw

# The directories systemd-tmpfiles makes from touchfw.tmpfiles at boot
# (busybox flavour: no tmpfiles).
emul_touchfw_dirs() {
	mkdir -p "$TOUCHFW_STATE" /var/lib/touchfw &&
		chmod 0700 "$TOUCHFW_STATE" /var/lib/touchfw
}

# The last result touchfw recorded for the client, "" when none.
emul_result() { cat "$TOUCHFW_STATE/$EMUL_DEV.json" 2>/dev/null; }

# emul_result_has JSON_FRAGMENT: e.g. '"result":"ok"'.
emul_result_has() { emul_result | grep -qF -- "$1"; }

# A run is over when its result is recorded and no touchfw is left
# running (busybox has no flock(1) to ask the lock).
emul_run_done() {
	[ -s "$TOUCHFW_STATE/$EMUL_DEV.json" ] && ! pidof touchfw-agent touchfw >/dev/null
}

# udevd logs what RUN programs print only at debug level: turn that on to
# see touchfw handle-event's decisions.  emul_handle_event_said TEXT: it
# said so since the last emul_dmesg_mark.
# In the busybox flavour udevd logs to /dev/kmsg, which ratelimits writers
# unless told otherwise.
emul_udev_debug() {
	echo on >/proc/sys/kernel/printk_devkmsg
	udevadm control --log-level=debug
}
emul_handle_event_said() {
	emul_dmesg | grep "touchfw handle-event" | grep -qF -- "$1"
}

# touchfw's log of the client: every run appends to it.
emul_log() { cat "$TOUCHFW_STATE/$EMUL_DEV.log" 2>/dev/null; }
emul_log_has() { emul_log | grep -q -- "$1"; }
# How many runs touchfw started for the client.
emul_runs() { emul_log | grep -c "^touchfw: $EMUL_DEV: device "; }

# emul_wait_run SECONDS: udev has run handle-event for what happened so
# far, and the run it started (if any) has finished.
emul_wait_run() {
	udevadm settle --timeout=60
	vm_wait "$1" "touchfw run" emul_run_done
}

# On a failed check (vm_check's hook): touchfw's last result and its log of
# the client, once per scenario, so that a failure far away (CI) can be
# understood from the console alone.
emul_explained=0
vm_explain_failure() {
	[ "$emul_explained" = 0 ] || return 0
	emul_explained=1
	vm_log "touchfw result: $(emul_result)"
	emul_log | while IFS= read -r _l; do vm_log "touchfw log: $_l"; done
	# the model's own count of what was done to it (power-ups, resets,
	# words written, starts), and the uevents so far: a failure seen
	# once under load explains itself
	[ -r "$EMUL_STATE" ] && vm_log "model state: $(tr '\n' ' ' <"$EMUL_STATE")"
	[ -r "${EMUL_MONITOR_LOG:-}" ] &&
		grep '^KERNEL\[' "$EMUL_MONITOR_LOG" | while IFS= read -r _l; do vm_log "uevent: $_l"; done
	emul_dmesg | grep -i "$EMUL_DRIVER\|touchfw" | tail -n 30 |
		while IFS= read -r _l; do vm_log "kernel: $_l"; done
}

# A string or number field of touchfw's last result.
emul_result_field() {
	emul_result | sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p"
}

emul_rebind() {
	echo "$EMUL_DEV" >"/sys/bus/i2c/drivers/$EMUL_DRIVER/unbind" &&
		echo "$EMUL_DEV" >"/sys/bus/i2c/drivers/$EMUL_DRIVER/bind"
}

# emul_bind_us [NTH]: udevadm monitor's stamp of the client's NTH bind
# uevent (CLOCK_MONOTONIC, µs).
emul_bind_us() {
	emul_monitor_sync
	awk -v dp="$EMUL_DEVPATH" -v nth="${1:-1}" '
		/^KERNEL\[/ { t = $1; sub(/^KERNEL\[/, "", t); sub(/\].*/, "", t); a = $2; p = $3 }
		/^DRIVER=/ && a == "bind" && p == dp && ++n == nth { printf "%d\n", t * 1000000; exit }
		' "$EMUL_MONITOR_LOG"
}

# emul_add_us: udevadm monitor's stamp of the client's add uevent
# (CLOCK_MONOTONIC, µs); for a client no driver binds.
emul_add_us() {
	emul_monitor_sync
	awk -v dp="$EMUL_DEVPATH" '
		/^KERNEL\[/ { t = $1; sub(/^KERNEL\[/, "", t); sub(/\].*/, "", t)
			if ($2 == "add" && $3 == dp) { printf "%d\n", t * 1000000; exit } }
		' "$EMUL_MONITOR_LOG"
}

# emul_figure_since_bind NAME T_DONE [NTH]: the figure NAME, from the NTH
# bind uevent (default 1) to T_DONE (µs, vm_now_us); none when udevadm
# monitor did not record that bind.
emul_figure_since_bind() {
	_efb_bind=$(emul_bind_us "${3:-1}")
	if [ -n "$_efb_bind" ]; then
		vm_figure "$1" "$(vm_us_to_ms $(($2 - _efb_bind)))" ms
	fi
}

# emul_use_profile NAME: install /vm/boards/NAME.dtb as touchfw's only
# board profile (the kmod-touchfw scenarios carry both variants).
emul_use_profile() {
	mkdir -p /usr/local/etc/touchfw/boards &&
		cp "/vm/boards/$1.dtb" "/usr/local/etc/touchfw/boards/$EMUL_PROFILE.dtb"
}

# What udevd's RUN program (touchfw handle-event) printed, from the kernel
# log since the last emul_dmesg_mark.
emul_handle_event_lines() {
	emul_dmesg | sed -n "s/^.*'\(.*touchfw handle-event\)'(err) /vm:   /p"
}
