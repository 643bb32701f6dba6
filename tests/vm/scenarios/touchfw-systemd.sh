# SPDX-License-Identifier: GPL-2.0-or-later
# vm-flavour: systemd
# vm-image: --dir @B@/vm-root:/ --bin @B@/vm-root/usr/bin/touchfw:/usr/bin/touchfw
# vm-image: --bin @B@/vm-root/usr/libexec/touchfw/touchfw-agent:/usr/libexec/touchfw/touchfw-agent
# vm-image: --bin /usr/lib/x86_64-linux-gnu/libsystemd.so.0:/usr/lib/x86_64-linux-gnu/libsystemd.so.0
# vm-image: --bin @B@/tests/system/sandbox-probe:/usr/libexec/touchfw-test/sandbox-probe
# vm-image: --file @B@/tests/system/qemu-at24.dtb:/etc/touchfw/boards/qemu-at24.dtb
#
# "touchfw-systemd" (systemd 252 as PID 1), with touchfw installed as
# `make install PREFIX=/usr` installs it (rule, unit, tmpfiles entry,
# settings, agent) and an OEM rule marking at24 as a candidate: the
# kernel's bind of an at24 on i2c-stub makes the shipped rule run
# `touchfw handle-event`, which hands off through systemd's private socket
# (no D-Bus in this image); touchfw@0\x2d0050.service runs `touchfw run`
# in its sandbox, finds the QEMU board profile (DMI sys_vendor "QEMU")
# naming a maXTouch at that address, and stops with exit 13 because at24
# is not a maXTouch driver; its lines reach the journal with priorities.
# Then tests/system/sandbox-probe runs inside the same unit (a
# drop-in in the image replaces only ExecStart) and checks, from inside,
# everything the agent needs from its sandbox and some of what it refuses.
. /vm/touchfw/lib.sh

vm_require "PID 1 is systemd" test "$(cat /proc/1/comm)" = systemd
vm_require "udevd is active" systemctl is-active --quiet systemd-udevd.service
vm_require "touchfw@.service is installed, running /usr/bin/touchfw" eval \
	'systemctl cat "touchfw@x.service" | grep -qx "ExecStart=/usr/bin/touchfw run -- %I"'
vm_check "the shipped rule is installed with its path" \
	grep -qx 'RUN+="/usr/bin/touchfw handle-event"' /usr/lib/udev/rules.d/61-touchfw.rules
vm_check "tmpfiles made /run/touchfw 0700 at boot" test "$(stat -c %a /run/touchfw 2>/dev/null)" = 700
vm_check "tmpfiles made /var/lib/touchfw 0700 at boot" test "$(stat -c %a /var/lib/touchfw 2>/dev/null)" = 700
vm_check "the board profile matches this machine (touchfw board identify)" eval \
	'touchfw board identify 2>&1 | grep -q "qemu-at24"'

vm_require "i2c-stub loads with a chip at 0x50" vm_modprobe i2c-stub chip_addr=0x50
vm_require "i2c-dev loads" vm_modprobe i2c-dev
vm_require "at24 loads" vm_modprobe at24
for d in i2c spi gpiochip; do
	vm_check "/proc/devices names the $d driver that DeviceAllow=char-$d means" \
		grep -q "^ *[0-9]* $d\$" /proc/devices
done
udevadm settle --timeout=60
adapter=$(tf_adapter)
vm_require "i2c-stub adapter found" test -n "$adapter"
bus=${adapter##*/i2c-}
dev=$bus-0050
devpath=$(readlink -f "$adapter")/$dev
devpath=${devpath#/sys}
unit="touchfw@$(systemd-escape "$dev").service"
vm_log "device $dev, unit $unit"

# udevd logs its RUN programs' output at debug level: handle-event's lines.
udevadm control --log-level=debug
vm_monitor_start i2c
vm_events_reset
t_write=$(vm_now_us)
echo "24c02 0x50" >"$adapter/new_device"
bind=$(vm_wait_event 10 bind "DEVPATH=$devpath")
vm_require "bind of $dev reached udev's RUN programs" test -n "$bind"

unit_done() { [ "$(systemctl show -P ActiveState "$unit")" != activating ] &&
	journalctl -q -u "$unit" -o cat | grep -q "not a mxt driver"; }
vm_check "$unit ran and logged why it stopped" vm_wait 30 "$unit" unit_done
t_done=$(vm_now_us)
vm_figure new_device_to_unit_result_ms "$(vm_us_to_ms $((t_done - t_write)))" ms
vm_monitor_stop
tf_timing bind "$bind"
# The journal once (journalctl costs ~0.2 s a call under TCG).
journalctl -q -u "$unit" -o cat >/run/j-unit
journalctl -q -u "$unit" -p err..err -o cat >/run/j-err
journalctl -q -u "$unit" -p info..info -o cat >/run/j-info
journalctl -q -u "$unit" -o verbose >/run/j-verbose
journalctl -q -u systemd-udevd.service -o cat | grep -F "/usr/bin/touchfw handle-event" |
	grep -F "$dev" >/run/j-udevd
sed 's/^/vm: journal: /' /run/j-unit

sed 's/^/vm: udevd: /' /run/j-udevd
vm_check "handle-event handed $dev to systemd through the private socket" \
	grep -q "bind (driver at24): handed to systemd (private socket)" /run/j-udevd
vm_check "handle-event ran once for the bind" test "$(grep -c "handed to systemd" /run/j-udevd)" = 1
vm_check "the unit stopped with exit 13 (unsupported)" \
	test "$(systemctl show -P ExecMainStatus "$unit")" = 13
vm_check "the agent read the profile, DMI and sysfs: 'bound to driver at24, which is not a mxt driver'" \
	grep -q "$dev: bound to driver at24, which is not a mxt driver" /run/j-unit
vm_check "the agent found the device on i2c-stub's adapter" \
	grep -q "adapter i2c-$bus (SMBus stub driver), driver at24" /run/j-unit
vm_check "the error line is in the journal at priority err (3)" grep -q "not a mxt driver" /run/j-err
vm_check "an info line is in the journal at priority info (6)" grep -q "board profile qemu-at24" /run/j-info
vm_check "no raw <N> prefix reached the journal" eval '! grep -q "^<[0-9]>" /run/j-unit'
vm_check "the unit ran in its own cgroup" \
	grep -q "^ *_SYSTEMD_CGROUP=/system.slice/system-touchfw.slice/" /run/j-verbose

# -------- the sandbox, from inside: the shipped unit, ExecStart replaced
# by a drop-in in the image (etc/systemd/system/touchfw@probe.service.d).
probe="touchfw@probe.service"
# (A finished oneshot is garbage-collected, so its verdict is systemctl's
# exit status and the journal, not `systemctl show -P Result`.)
systemctl start "$probe"
probe_rc=$?
journalctl -q -u "$probe" -o cat | sed 's/^/vm: /'
vm_check "every sandbox check passed inside touchfw@.service (systemctl start: $probe_rc)" eval \
	'[ "$probe_rc" = 0 ] && ! journalctl -q -u "$probe" -o cat | grep -q "Failed with result"'
vm_check "the probe ran all its checks" eval \
	'journalctl -q -u "$probe" -o cat | grep -qx "probe: 0 failed"'
