# SPDX-License-Identifier: GPL-2.0-or-later
# vm-image: --dir @B@/vm-root:/ --bin @B@/vm-root/usr/bin/touchfw:/usr/bin/touchfw
# vm-image: --bin @B@/vm-root/usr/libexec/touchfw/touchfw-agent:/usr/libexec/touchfw/touchfw-agent
# vm-image: --bin /usr/bin/systemd-hwdb:/usr/bin/systemd-hwdb
#
# "touchfw-plumbing" (busybox init, a real systemd-udevd 252): touchfw
# installed as `make install PREFIX=/usr` installs it, with no board
# profile, and an OEM hwdb entry (touchfw:i2c:24c02, compiled in the guest
# with systemd-hwdb update) marking the 24c02 EEPROM as a candidate.  The
# kernel's bind of that at24 makes the SHIPPED rule run `touchfw
# handle-event` with the kernel's real environment; it finds no profile
# and does nothing, which it says at debug level.  Each claim comes from
# what touchfw logged (udevd, restarted with debug logging, records its
# RUN programs' output): bind and coldplug's add with DRIVER reach it;
# add before probe, unbind, change and remove do not; an unmarked at24
# (24c01) never does.  Also: how long from the uevent to handle-event's
# exit.
. /vm/touchfw/lib.sh

vm_require "the shipped rule is installed with its path" \
	grep -qx 'RUN+="/usr/bin/touchfw handle-event"' /usr/lib/udev/rules.d/61-touchfw.rules
vm_require "systemd-hwdb update compiles the OEM's hwdb entry" systemd-hwdb update
vm_check "the hwdb answers touchfw:i2c:24c02 with TOUCHFW_CANDIDATE=1" eval \
	'systemd-hwdb query touchfw:i2c:24c02 | grep -qx TOUCHFW_CANDIDATE=1'
vm_check "the hwdb has nothing for touchfw:i2c:24c01" eval \
	'[ -z "$(systemd-hwdb query touchfw:i2c:24c01)" ]'

# udevd with debug logging to a file: it logs each RUN program's output.
udevadm control --exit
vm_wait 10 "udevd to exit" eval '! pidof systemd-udevd >/dev/null'
SYSTEMD_LOG_LEVEL=debug SYSTEMD_LOG_TARGET=console \
	/lib/systemd/systemd-udevd >/run/udevd.log 2>&1 &
vm_require "udevd restarted with debug logging" \
	vm_wait 10 "udevd control socket" test -S /run/udev/control

vm_require "i2c-stub loads with chips at 0x50 and 0x51" vm_modprobe i2c-stub chip_addr=0x50,0x51
vm_require "at24 loads" vm_modprobe at24
udevadm settle --timeout=60
adapter=$(tf_adapter)
vm_require "i2c-stub adapter found" test -n "$adapter"
bus=${adapter##*/i2c-}
dev=$bus-0050
other=$bus-0051
devpath=$(readlink -f "$adapter")/$dev
devpath=${devpath#/sys}

# touchfw's lines for a device, as udevd recorded them, and how many times
# udevd started touchfw for it.
tf_said() { grep -F "'/usr/bin/touchfw handle-event'(err) 'touchfw: $1: " /run/udevd.log; }
tf_runs() { grep -cF "$1: Starting '/usr/bin/touchfw handle-event'" /run/udevd.log; }
# tf_event_done EVENTFILE: udevd finished that event (its RUN programs all
# ran: the "after2" stamp for its SEQNUM).
tf_event_done() { [ -n "$(tf_stamp "$(vm_event_get "$1" SEQNUM)" after2)" ]; }

vm_monitor_start i2c
vm_events_reset

# -------- bind: the shipped rule runs touchfw, which finds no profile
echo "24c02 0x50" >"$adapter/new_device"
bind=$(vm_wait_event 10 bind "DEVPATH=$devpath")
vm_require "bind of $dev reached udev's RUN programs" test -n "$bind"
vm_wait 10 "touchfw's line for the bind" eval 'tf_said "$dev" | grep -q " bind "'
tf_said "$dev" | sed 's/^/vm: udevd: /'
vm_check "touchfw handled the bind with the kernel's environment: no board profile, nothing to do" eval \
	'tf_said "$dev" | grep -qF "touchfw: $dev: bind $devpath: nothing to do: no board profile is installed"'
vm_check "touchfw ran once so far: not for the add before probe (no DRIVER)" \
	test "$(tf_runs "$dev")" = 1
add=$(vm_event_find add "DEVPATH=$devpath")
vm_check "... although that add reached udev" test -n "$add"

# -------- unbind, then bind again through the driver's files
vm_events_reset
echo "$dev" >/sys/bus/i2c/drivers/at24/unbind
vm_check "unbind reached udev" eval 'vm_wait_event 10 unbind "DEVPATH=$devpath" >/dev/null'
echo "$dev" >/sys/bus/i2c/drivers/at24/bind
rebind=$(vm_wait_event 10 bind "DEVPATH=$devpath")
vm_require "the rebind reached udev" test -n "$rebind"
vm_wait 10 "the rebind's RUN programs" tf_event_done "$rebind"
vm_check "touchfw ran for the rebind but not for the unbind (2 runs)" test "$(tf_runs "$dev")" = 2
vm_monitor_stop
# The first bind waits in udevd's queue for the add's RUN programs; the
# rebind has nothing before it.
tf_timing bind "$bind" || vm_check "timing figures for the bind" false
tf_timing rebind "$rebind" || vm_check "timing figures for the rebind" false

# -------- coldplug replays add with DRIVER; a plain trigger sends change
vm_events_reset
udevadm trigger --action=add "/sys$devpath"
replay=$(vm_wait_event 10 add "DEVPATH=$devpath")
vm_require "the replayed add reached udev" test -n "$replay"
vm_wait 10 "the add's RUN programs" tf_event_done "$replay"
vm_check "touchfw handled coldplug's add (DRIVER=at24)" eval \
	'tf_said "$dev" | grep -qF "touchfw: $dev: add $devpath: nothing to do: no board profile is installed"'
udevadm trigger "/sys$devpath"
vm_check "the change reached udev" eval 'vm_wait_event 10 change "DEVPATH=$devpath" >/dev/null'
udevadm settle --timeout=60

# -------- an unmarked at24 never reaches touchfw
echo "24c01 0x51" >"$adapter/new_device"
obind=$(vm_wait_event 10 bind "DEVPATH=${devpath%/*}/$other")
vm_require "bind of the unmarked $other reached udev" test -n "$obind"
vm_check "the unmarked $other is bound to at24" grep -qx DRIVER=at24 "$obind"
vm_wait 10 "$other's RUN programs" tf_event_done "$obind"
vm_check "touchfw never ran for the unmarked $other" test "$(tf_runs "$other")" = 0

# -------- delete: unbind, remove
vm_events_reset
echo 0x50 >"$adapter/delete_device"
vm_check "remove of $dev reached udev" eval 'vm_wait_event 10 remove "DEVPATH=$devpath" >/dev/null'
udevadm settle --timeout=60
vm_check "touchfw ran for bind, rebind and coldplug's add only (3 runs): not for change, unbind, remove" \
	test "$(tf_runs "$dev")" = 3
tf_said "$dev" | sed 's/^/vm: udevd: /'
vm_check "udevd reported no failure of touchfw" eval \
	'! grep -F "/usr/bin/touchfw handle-event" /run/udevd.log | grep -qi "failed"'
