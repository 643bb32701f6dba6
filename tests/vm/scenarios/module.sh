# SPDX-License-Identifier: GPL-2.0-or-later
# vm-build-module: hello
#
# "module" (busybox init): the harness's own check that an out-of-tree module
# built against Debian's linux-headers package for this kernel loads in the
# VM, unsigned, tainting the kernel (O: out of tree, E: unsigned), takes a
# parameter and unloads.  The emulated-controller test module goes the
# same way.

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
