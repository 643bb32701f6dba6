# SPDX-License-Identifier: GPL-2.0-or-later
# vm-flavour: systemd
#
# "systemd" (systemd 252 as PID 1): a udev rule's RUN program on bind starts
# testunit@<escaped device>.service with `systemctl start --no-block`; the
# unit really runs, outside udevd, and its output reaches the journal,
# where `journalctl -u` finds it; tmpfiles.d entries are applied at boot.
# The groundwork for touchfw@.service and its /run/touchfw.

vm_require "PID 1 is systemd" test "$(cat /proc/1/comm)" = systemd
vm_require "journald is active" systemctl is-active --quiet systemd-journald.service
vm_require "udevd is active" systemctl is-active --quiet systemd-udevd.service
vm_check "coldplug ran" systemctl is-active --quiet systemd-udev-trigger.service
vm_check "tmpfiles.d entries are applied at boot (/run/vm-tmpfiles, 0700)" \
	test "$(stat -c %a /run/vm-tmpfiles 2>/dev/null)" = 700

vm_require "i2c-stub loads with a chip at 0x50" vm_modprobe i2c-stub chip_addr=0x50
vm_require "at24 loads" vm_modprobe at24
udevadm settle --timeout=60
adapter=""
for a in /sys/bus/i2c/devices/i2c-*; do
	[ "$(cat "$a/name")" = "SMBus stub driver" ] && adapter=$a
done
vm_require "i2c-stub adapter found" test -n "$adapter"
dev=${adapter##*/i2c-}-0050
devpath=$(readlink -f "$adapter")/$dev
devpath=${devpath#/sys}
unit="testunit@$(systemd-escape "$dev").service"
vm_log "device $dev, unit $unit"

vm_events_reset
t_write=$(vm_now_us)
echo "24c02 0x50" >"$adapter/new_device"
bind=$(vm_wait_event 10 bind "DEVPATH=$devpath")
vm_require "bind of $dev reached RUN" test -n "$bind"

unit_logged() {
	journalctl -q -u "$unit" -o cat 2>/dev/null | grep -q "^testunit: ran for $dev, driver at24,"
}
vm_check "$unit ran and its line reached the journal" vm_wait 20 "$unit in the journal" unit_logged
t_logged=$(vm_now_us)
vm_figure new_device_to_unit_in_journal_ms "$(vm_us_to_ms $((t_logged - t_write)))" ms
vm_log "journal: $(journalctl -q -u "$unit" -o cat | grep "^testunit:")"
starts=$(journalctl -q -t vm-start-testunit -o cat | grep -c " of $dev ")
seqnum=$(vm_event_get "$bind" SEQNUM)
vm_check "the RUN program started the unit once, on bind $seqnum (started $starts times)" eval \
	'[ "$starts" = 1 ] && journalctl -q -t vm-start-testunit -o cat |
		grep -qxF "bind of $dev (DRIVER=at24, SEQNUM=$seqnum): starting $unit"'
# A finished oneshot is garbage-collected (systemctl show would describe a
# fresh unit): systemd's verdict is in the journal.
unit_done() { journalctl -q -u "$unit" -o cat | grep -q "Deactivated successfully\|Failed with result"; }
vm_wait 20 "$unit to end" unit_done
vm_check "$unit finished successfully" eval \
	'journalctl -q -u "$unit" -o cat | grep -q "Deactivated successfully" &&
		! journalctl -q -u "$unit" -o cat | grep -q "Failed with result"'
vm_check "the unit ran in its own cgroup, not udevd's" eval \
	'journalctl -q -u "$unit" -o verbose | grep -q "^ *_SYSTEMD_CGROUP=/system.slice/system-testunit.slice/"'
vm_check "udevd logged no failure for the event" eval \
	'! journalctl -q -u systemd-udevd.service -p warning | grep -q "$dev"'
