// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vm_hello: the VM harness's self-test module.  It proves that an
 * out-of-tree module built against Debian's linux-headers package loads
 * into the kernel the VM tests boot (unsigned, so it taints the kernel),
 * the path the test module with the emulated touch controller takes.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

static char *greeting = "hello";
module_param(greeting, charp, 0444);
MODULE_PARM_DESC(greeting, "word to log when loaded");

static int __init vm_hello_init(void)
{
	pr_info("vm_hello: loaded, greeting=%s\n", greeting);
	return 0;
}

static void __exit vm_hello_exit(void)
{
	pr_info("vm_hello: unloaded\n");
}

module_init(vm_hello_init);
module_exit(vm_hello_exit);

MODULE_DESCRIPTION("touchfw VM harness self-test module");
MODULE_LICENSE("GPL");
