# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernels: 6.1 6.12
#
# "uevents" (busybox init): the real kernel's driver-core events for an i2c
# client reach a real systemd-udevd and its RUN programs as touchfw expects:
# bind (with DRIVER), unbind (without), the coldplug replay as add (with
# DRIVER), change from a plain trigger, remove; and how long the way from
# the kernel's uevent to the RUN program takes.  An at24 EEPROM on i2c-stub
# stands in for a touch controller: it binds without hardware.  On the way,
# i2c-dev's address check as the agent's bus access meets it.
# At the end, in the same boot (was the scenario "module"): the harness's
# own check that an out-of-tree module built against Debian's
# linux-headers package for this kernel loads in the VM, unsigned,
# tainting the kernel (O: out of tree, E: unsigned), takes a parameter and
# unloads.  The emulated-controller test modules go the same way.  Nothing
# above loads a module from outside the kernel package.
# vm-image: --bin /usr/sbin/i2cget
# vm-build-module: hello

vm_require "i2c-stub loads with a chip at 0x50" vm_modprobe i2c-stub chip_addr=0x50
vm_require "i2c-dev loads" vm_modprobe i2c-dev
vm_require "at24 loads" vm_modprobe at24
udevadm settle --timeout=60

adapter=""
for a in /sys/bus/i2c/devices/i2c-*; do
	[ "$(cat "$a/name")" = "SMBus stub driver" ] && adapter=$a
done
vm_require "i2c-stub adapter found" test -n "$adapter"
bus=${adapter##*/i2c-}
dev=$bus-0050
devpath=$(readlink -f "$adapter")/$dev
devpath=${devpath#/sys}
vm_log "adapter i2c-$bus, device $dev at $devpath"

# Kernel-side timestamps for the latency figures.
vm_monitor_start i2c
vm_events_reset

# -------- instantiate: add, then bind with DRIVER=at24
t_write=$(vm_now_us)
echo "24c02 0x50" >"$adapter/new_device"
bind=$(vm_wait_event 10 bind "DEVPATH=$devpath")
vm_require "bind of $dev reached RUN" test -n "$bind"
vm_check "bind carries DRIVER=at24" grep -qx DRIVER=at24 "$bind"
vm_check "bind carries SUBSYSTEM=i2c" grep -qx SUBSYSTEM=i2c "$bind"
vm_check "bind carries MODALIAS=i2c:24c02" grep -qx MODALIAS=i2c:24c02 "$bind"
vm_check "driver link exists while RUN runs for bind" grep -qx RUN_SYSFS_DRIVER=at24 "$bind"
add=$(vm_event_find add "DEVPATH=$devpath")
vm_require "add of $dev reached RUN" test -n "$add"
vm_check "add came before bind" test "${add##*/}" \< "${bind##*/}"
vm_check "add (before probe) carries no DRIVER" eval '! vm_event_has "$add" DRIVER'

# -------- i2c-dev and a bound client (i2c-tools' i2cget, not busybox's)
vm_check "i2c-tools' i2cget is in the image" eval '/usr/sbin/i2cget -V 2>&1 | grep -q "i2cget version"'
vm_check "I2C_SLAVE on the bound client's address fails with EBUSY" eval \
	'/usr/sbin/i2cget -y "$bus" 0x50 0 2>&1 | grep -q "Device or resource busy"'
vm_check "I2C_SLAVE_FORCE (i2cget -f) reads it" /usr/sbin/i2cget -f -y "$bus" 0x50 0

run_us=$(vm_event_get "$bind" RUN_START_US)
vm_figure new_device_write_to_bind_run_ms "$(vm_us_to_ms $((run_us - t_write)))" ms

# -------- unbind: no DRIVER
vm_events_reset
echo "$dev" >/sys/bus/i2c/drivers/at24/unbind
unbind=$(vm_wait_event 10 unbind "DEVPATH=$devpath")
vm_require "unbind of $dev reached RUN" test -n "$unbind"
vm_check "unbind carries no DRIVER" eval '! vm_event_has "$unbind" DRIVER'
vm_check "driver link is gone while RUN runs for unbind" grep -qx RUN_SYSFS_DRIVER= "$unbind"
vm_check "with no driver bound, I2C_SLAVE works (i2cget without -f)" \
	/usr/sbin/i2cget -y "$bus" 0x50 0
if vm_event_has "$unbind" MODALIAS; then
	vm_log "fact: unbind carries $(grep ^MODALIAS= "$unbind")"
else
	vm_log "fact: unbind carries no MODALIAS"
fi

# -------- rebind through the driver's bind file
vm_events_reset
echo "$dev" >/sys/bus/i2c/drivers/at24/bind
rebind=$(vm_wait_event 10 bind "DEVPATH=$devpath")
vm_require "rebind through drivers/at24/bind delivers bind" test -n "$rebind"
vm_check "rebind carries DRIVER=at24" grep -qx DRIVER=at24 "$rebind"

# -------- coldplug replay: add with DRIVER; a plain trigger sends change
vm_events_reset
udevadm trigger --action=add "/sys$devpath"
replay=$(vm_wait_event 10 add "DEVPATH=$devpath")
vm_require "udevadm trigger --action=add delivers add" test -n "$replay"
vm_check "replayed add carries DRIVER=at24" grep -qx DRIVER=at24 "$replay"
udevadm trigger "/sys$devpath"
change=$(vm_wait_event 10 change "DEVPATH=$devpath")
vm_check "plain udevadm trigger delivers change" test -n "$change"
vm_check "no bind from a replay" eval '! vm_event_find bind "DEVPATH=$devpath" >/dev/null'

# -------- delete: unbind, then remove
vm_events_reset
echo 0x50 >"$adapter/delete_device"
remove=$(vm_wait_event 10 remove "DEVPATH=$devpath")
vm_require "delete_device delivers remove" test -n "$remove"
unbind=$(vm_event_find unbind "DEVPATH=$devpath")
vm_check "unbind came before remove" test -n "$unbind" -a "${unbind##*/}" \< "${remove##*/}"

# -------- latency: the kernel's send time (monitor stamp) -> RUN start.
# The first bind waits in udevd's queue until the RUN of the device's add
# has finished (udevd serialises events of one device), so it is reported
# apart from the rebind, which has nothing before it.
vm_monitor_stop
for pair in "bind_after_add:$bind" "unbind:$unbind" "rebind:$rebind" "remove:$remove"; do
	us=$(vm_uevent_to_run_us "${pair#*:}") || us=""
	vm_check "udevadm monitor saw the kernel's ${pair%%:*}" test -n "$us"
	[ -n "$us" ] && vm_figure "uevent_to_run_ms_${pair%%:*}" "$(vm_us_to_ms "$us")" ms
done

# -------- an out-of-tree module (was the scenario "module")
vm_check "the kernel is $VM_KVER" test "$(uname -r)" = "$VM_KVER"
vm_require "modprobe finds vm_hello in extra/ through modules.dep" \
	grep -q '^extra/vm_hello.ko:' "/lib/modules/$VM_KVER/modules.dep"
unsigned_taint() { echo $(($(cat /proc/sys/kernel/tainted) >> 13 & 1)); }
vm_check "no unsigned module tainted the kernel before" test "$(unsigned_taint)" = 0
vm_require "vm_hello loads" vm_modprobe vm_hello greeting=from-the-harness
vm_check "its init ran with the parameter" eval \
	'dmesg | grep -q "vm_hello: loaded, greeting=from-the-harness"'
vm_check "the module is tainted O and E (out of tree, unsigned)" \
	test "$(cat /sys/module/vm_hello/taint)" = OE
vm_check "the kernel is tainted by it (bit 13, TAINT_UNSIGNED_MODULE)" \
	test "$(unsigned_taint)" = 1
vm_check "vm_hello unloads" rmmod vm_hello
vm_check "its exit ran" eval 'dmesg | grep -q "vm_hello: unloaded"'
