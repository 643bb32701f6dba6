# SPDX-License-Identifier: GPL-2.0-or-later
# vm-flavour: systemd
# vm-build-module: mxt-emul
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --file tests/vm/modules/mxt-emul/guest.sh:/vm/mxt-emul.sh
# touchfw from its Debian package (make touchfw-vm-deb: dpkg-deb -x of
# the .deb, lib/ under usr/; the guest has no dpkg, the scenario runs the
# package's postinst), then what an OEM image adds on top: its signed DB,
# its key, its board profile.  The package's own settings file is used.
# --bin again for the binaries: it adds the libraries they link.
# vm-image: --dir @B@/vm-deb/root/usr:/usr
# vm-image: --dir @B@/vm-deb/root/etc:/etc
# vm-image: --file @B@/vm-deb/DEBIAN/postinst:/vm/deb/postinst
# vm-image: --file @B@/vm-deb/DEBIAN/conffiles:/vm/deb/conffiles
# vm-image: --bin @B@/vm-deb/root/usr/bin/touchfw:/usr/bin/touchfw
# vm-image: --bin @B@/vm-deb/root/usr/libexec/touchfw/touchfw-agent:/usr/libexec/touchfw/touchfw-agent
# vm-image: --dir @B@/firmware-db:/usr/share/touchfw/firmware-db
# vm-image: --file @B@/keys/build-demo.pub:/etc/touchfw/keys/build-demo.pub
# vm-image: --dtb tests/vm/modules/mxt-emul/boards/qemu-mxt-emul-driver.dts:/etc/touchfw/boards/qemu-mxt-emul.dtb
# handle-event dlopen()s libsystemd.so.0 (Debian's libsystemd0) for sd-bus;
# without it, it falls back to systemctl --no-block.
# vm-image: --bin /lib/x86_64-linux-gnu/libsystemd.so.0:/usr/lib/x86_64-linux-gnu/libsystemd.so.0
#
# "kmod-touchfw-systemd" (systemd 252 as PID 1): the same job as
# kmod-touchfw-bootloader, the way a distribution runs it, installed from
# touchfw's Debian package (debian/, make deb).  The real bind
# uevent of a maXTouch without a valid image reaches the shipped rule;
# `touchfw handle-event` starts touchfw@<device>.service without waiting
# (systemd's private socket, no D-Bus); the unit, in its shipped sandbox
# (systemd/touchfw@.service.in), flashes the chip at its bootloader address
# with atmel_mxt_ts bound, rebinds and verifies the input device; its log
# is in the journal.  The unit's own rebind is ignored; a second bind
# starts a run that writes nothing.  Prints bind uevent -> verified input device.
. /vm/mxt-emul.sh
# Installed by the package, not as PREFIX=/usr/local.
TOUCHFW=/usr/bin/touchfw

vm_require "PID 1 is systemd" test "$(cat /proc/1/comm)" = systemd
vm_check "the package's files are at Debian's paths (rule, template unit, tmpfiles, agent)" eval \
	'[ -s /usr/lib/udev/rules.d/61-touchfw.rules ] && [ -s /usr/lib/systemd/system/touchfw@.service ] &&
	 [ -s /usr/lib/tmpfiles.d/touchfw.conf ] && [ -x /usr/libexec/touchfw/touchfw-agent ] &&
	 [ "$(cat /vm/deb/conffiles)" = /etc/touchfw/touchfw.conf ] && [ -s /etc/touchfw/touchfw.conf ]'
vm_check "the template unit is not enabled (handle-event starts it)" eval \
	'[ -z "$(find /etc/systemd/system -name "touchfw*")" ]'
# As dpkg -i runs it on a running system: reloads udev's rules and
# systemd's units, creates the tmpfiles entry.
vm_check "the package's postinst configure runs (udevadm control --reload, daemon-reload, tmpfiles)" \
	sh -e /vm/deb/postinst configure
vm_check "touchfw --version runs from /usr/bin" eval '"$TOUCHFW" --version | grep -q "0\.1\.0"'
vm_check "tmpfiles made /run/touchfw and /var/lib/touchfw (0700)" eval \
	'[ "$(stat -c %a /run/touchfw)" = 700 ] && [ "$(stat -c %a /var/lib/touchfw)" = 700 ]'
vm_require "modules and debugfs" emul_setup
udevadm control --log-level=debug
emul_monitor_start
vm_require "mxt_emul loads (mxt224e without a valid image)" emul_load state=noimage
unit="touchfw@$(systemd-escape "$EMUL_DEV").service"
vm_log "device $EMUL_DEV, unit $unit"
udevadm settle --timeout=60
# What udevd logged of its RUN program, touchfw handle-event.
he_lines() { journalctl -q -u systemd-udevd.service -o cat | grep "touchfw handle-event"; }
he_said() { he_lines | grep -qF -- "$1"; }
vm_check "handle-event handed the bind to $unit over systemd's private socket" \
	vm_wait 10 "handle-event" he_said "handed to systemd (private socket)"
# A oneshot unit that ended is garbage-collected: systemctl show then
# reports a fresh unit (Result=success whatever happened).  The journal
# keeps systemd's verdict.
unit_journal() { journalctl -q -u "$unit" -o cat; }
unit_done() { unit_journal | grep -q "Deactivated successfully\|Failed with result"; }
vm_require "$unit ran to its end" vm_wait 90 "$unit" unit_done
t_done=$(vm_now_us)
vm_log "journal of $unit:"
unit_journal | sed 's/^/vm:   /'
vm_check "$unit finished successfully" eval \
	'unit_journal | grep -q "Deactivated successfully" && ! unit_journal | grep -q "Failed with result"'
vm_check "it ran in its own cgroup under system-touchfw.slice" eval \
	'journalctl -q -u "$unit" -o verbose | grep -q "^ *_SYSTEMD_CGROUP=/system.slice/system-touchfw.slice/"'
vm_check "its log is in the journal: flashed at 0x24, verified the input device" eval \
	'unit_journal | grep -q "at bootloader address 0x24" &&
		unit_journal | grep -q "verified: firmware (bootloader) -> 2.1.AB"'
vm_check "result ok recorded in /run/touchfw" emul_result_has '"result":"ok"'
vm_check "the real driver registered the input device" emul_has_input
vm_check "touchfw verified it ($(emul_event))" emul_result_has "\"input\":\"$(emul_event)\""
vm_check "the driver reads fw_version 2.1.AB" test "$(cat "$EMUL_SYS/fw_version")" = 2.1.AB
vm_check "config CRC 0xE67ACA in the chip's NVM" test "$(emul_state nvm_config_crc)" = 0xE67ACA
emul_figure_since_bind bind_uevent_to_verified_input_ms "$t_done"
vm_figure touchfw_duration_ms "$(emul_result_field duration_ms)" ms

# The unit's own rebind is ignored; a second bind of ours (a new probe,
# so a new input device) starts the unit again, which finds the chip up to
# date and writes nothing.
frames=$(emul_state frames_passed)
emul_rebind
udevadm settle --timeout=60
# The first bind logged the same line: count them.
handed_twice() {
	test "$(he_lines | grep -cF "bind (driver atmel_mxt_ts): handed to systemd")" = 2
}
vm_check "the second bind is handed to $unit again (twice in all)" \
	vm_wait 10 "the second hand-over" handed_twice
vm_check "the second run finds the chip up to date" \
	vm_wait 30 "second run" eval 'unit_journal | grep -q "up to date (firmware 2.1.AB"'
vm_check "three binds in all, the own rebind ignored" eval \
	'[ "$(emul_bind_count)" = 3 ] && he_said "own rebind"'
vm_check "the chip was not touched again" test "$(emul_state frames_passed)" = "$frames"
vm_check "udevd logged no failure for the device" eval \
	'! journalctl -q -u systemd-udevd.service -p warning | grep -q "$EMUL_DEV"'
vm_log "what udevd's RUN program said:"
he_lines | sed -n "s/^.*'\(.*touchfw handle-event\)'(err) /vm:   /p"
emul_monitor_stop
vm_check "no oops, no warning (taint D, W; kernel log)" vm_no_oops
