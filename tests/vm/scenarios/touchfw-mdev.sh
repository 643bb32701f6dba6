# SPDX-License-Identifier: GPL-2.0-or-later
# vm-image: --dir @B@/vm-root:/ --bin @B@/vm-root/usr/bin/touchfw:/usr/bin/touchfw
# vm-image: --bin @B@/vm-root/usr/libexec/touchfw/touchfw-agent:/usr/libexec/touchfw/touchfw-agent
# vm-image: --file @B@/tests/system/qemu-at24.dtb:/etc/touchfw/boards/qemu-at24.dtb
#
# "touchfw-mdev" (busybox init, udevd stopped, busybox 1.35 `mdev -d` as
# the device manager, no systemd): the lines of the installed
# /usr/share/touchfw/touchfw-mdev.conf (udev-rules/touchfw-mdev.conf), with
# at24 standing in for a maXTouch.  Bind mode: mdev runs the "*" command
# for bind with DRIVER (not for add before probe, unbind, remove), and
# handle-event hands off to a detached `touchfw run`, which finds the QEMU
# profile and stops at "not a mxt driver" (its log in /run/touchfw).
# Add-only mode: the "@" command runs on add only, and the detached
# `touchfw run --wait-bind` waits for the driver, then finds no controller
# for that address in the profile.  The shipped file itself must parse:
# mdev dies on a line it can not read.
. /vm/touchfw/lib.sh

udevadm control --exit
vm_wait 10 "udevd to exit" eval '! pidof systemd-udevd >/dev/null'
# The shipped lines as they are, and again adapted to at24: the match on
# the driver (bind mode) or the modalias (add-only) changed, the command
# given TOUCHFW_CANDIDATE=1 (at24 is not a driver touchfw lists), debug
# logging and its stderr in a file; everything else as shipped.
shipped=/usr/share/touchfw/touchfw-mdev.conf
bind_line=$(sed -n 's%^\(-SUBSYSTEM=i2c|spi;\$DRIVER=\)^[^ ]*\$\( 0:0 600 [*@$]\)\(/usr/bin/touchfw handle-event\)$%\1^at24$\2TOUCHFW_CANDIDATE=1 TOUCHFW_LOG_LEVEL=debug \3 2>>/run/tf-bind.log%p' "$shipped")
add_line=$(sed -n 's%^#\(-SUBSYSTEM=i2c|spi;\$MODALIAS=\)^(of:.*\$\( 0:0 600 [*@$]\)\(/usr/bin/touchfw handle-event --add-only\)$%\1^i2c:24c01$\2TOUCHFW_CANDIDATE=1 TOUCHFW_LOG_LEVEL=debug \3 2>>/run/tf-add.log%p' "$shipped")
vm_require "the shipped bind-mode line adapts to at24" test -n "$bind_line"
vm_require "the shipped add-only line adapts to at24" test -n "$add_line"
{ grep -v '^#' "$shipped"; echo "$bind_line"; echo "$add_line"; cat /vm/touchfw-mdev/test.conf; } >/etc/mdev.conf
sed 's/^/vm: mdev.conf: /' /etc/mdev.conf
mdev -d -f &
mdev_pid=$!
vm_require "mdev -d listens for uevents with the shipped lines in /etc/mdev.conf" \
	vm_wait 30 "mdev -d to listen" vm_netlink_listening "$mdev_pid"

vm_require "i2c-stub loads with chips at 0x50 and 0x51" vm_modprobe i2c-stub chip_addr=0x50,0x51
vm_require "at24 loads" vm_modprobe at24
adapter=$(tf_adapter)
vm_require "i2c-stub adapter found" test -n "$adapter"
bus=${adapter##*/i2c-}
dev=$bus-0050
dev2=$bus-0051

actions_seen() { grep -qx "$1" /run/mdev-actions.log 2>/dev/null; }

# -------- bind mode: 24c02 at 0x50, described by the QEMU profile
echo "24c02 0x50" >"$adapter/new_device"
vm_require "mdev saw the bind of $dev" vm_wait 10 "bind in mdev" actions_seen "bind $dev at24"
vm_check "mdev runs \"*\" commands for add before probe too (no DRIVER)" actions_seen "add $dev nodriver"
run_done() { grep -q "not a mxt driver" "/run/touchfw/$1.log" 2>/dev/null; }
vm_check "the detached touchfw run for $dev finished" vm_wait 20 "touchfw run" run_done "$dev"
sed 's/^/vm: tf-bind: /' /run/tf-bind.log
sed "s/^/vm: run $dev: /" "/run/touchfw/$dev.log"
vm_check "handle-event ran once, for the bind, and handed to a detached process" eval \
	'[ "$(grep -c . /run/tf-bind.log)" = 1 ] &&
	 grep -q "touchfw: $dev: bind (driver at24): handed to detached process" /run/tf-bind.log'
vm_check "the detached run read the profile and stopped at the driver check" \
	grep -q "$dev: bound to driver at24, which is not a mxt driver" "/run/touchfw/$dev.log"

echo "$dev" >/sys/bus/i2c/drivers/at24/unbind
vm_require "mdev saw the unbind" vm_wait 10 "unbind in mdev" actions_seen "unbind $dev nodriver"
echo 0x50 >"$adapter/delete_device"
vm_require "mdev saw the remove" vm_wait 10 "remove in mdev" actions_seen "remove $dev nodriver"
vm_check "handle-event did not run for unbind and remove" test "$(grep -c . /run/tf-bind.log)" = 1

# -------- add-only mode: 24c01 at 0x51, not in the profile
echo "24c01 0x51" >"$adapter/new_device"
vm_require "mdev saw the bind of $dev2" vm_wait 10 "bind in mdev" actions_seen "bind $dev2 at24"
run2_done() { grep -q "has no controller" "/run/touchfw/$dev2.log" 2>/dev/null; }
vm_check "the detached touchfw run --wait-bind for $dev2 finished" vm_wait 20 "touchfw run" run2_done
sed 's/^/vm: tf-add: /' /run/tf-add.log
sed "s/^/vm: run $dev2: /" "/run/touchfw/$dev2.log"
vm_check "handle-event --add-only ran once, for the add without a driver, and handed off" eval \
	'[ "$(grep -c . /run/tf-add.log)" = 1 ] &&
	 grep -q "touchfw: $dev2: add (driver none yet): handed to detached process" /run/tf-add.log'
vm_check "the run found the bound driver and no controller at 0x51 in the profile" eval \
	'grep -q "driver at24" "/run/touchfw/$dev2.log" &&
	 grep -q "has no controller on adapter .SMBus stub driver. at 0x51" "/run/touchfw/$dev2.log"'
vm_check "mdev is still running (every line of /etc/mdev.conf parsed)" kill -0 "$mdev_pid"
