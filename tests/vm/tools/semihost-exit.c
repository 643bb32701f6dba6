// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * semihost-exit STATUS: end QEMU with exit status STATUS, from an arm64
 * guest (the virt machine has no isa-debug-exit).  QEMU runs with
 * -semihosting-config enable=on,target=native,userspace=on
 * (tests/vm/run-scenario); SYS_EXIT (0x18) with ADP_Stopped_ApplicationExit
 * and a subcode makes QEMU exit with that subcode (Arm's "Semihosting for
 * AArch32 and AArch64", SYS_EXIT; QEMU's target/arm semihosting).  Static,
 * no libc: the guest's /vm/lib.sh runs it as its last act.
 */
#define SYS_EXIT 0x18
#define ADP_STOPPED_APPLICATION_EXIT 0x20026UL

static unsigned long semihost(unsigned long op, void *arg)
{
	register unsigned long x0 __asm__("x0") = op;
	register void *x1 __asm__("x1") = arg;

	__asm__ volatile("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
	return x0;
}

static long sys_exit_group(long code)
{
	register long x0 __asm__("x0") = code;
	register long x8 __asm__("x8") = 94; /* exit_group */

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8) : "memory");
	return x0;
}

static unsigned long parse(const char *s)
{
	unsigned long v = 0;

	while (*s >= '0' && *s <= '9')
		v = v * 10 + (unsigned long)(*s++ - '0');
	return v;
}

/* Entered with sp at argc, argv[] above it (the ELF start-up frame). */
void start_c(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1);
	unsigned long block[2] = { ADP_STOPPED_APPLICATION_EXIT, 1 };

	if (argc > 1)
		block[1] = parse(argv[1]);
	semihost(SYS_EXIT, block);
	/* Only without semihosting: fail, the caller then powers off. */
	sys_exit_group(1);
}

__asm__(".global _start\n"
	"_start:\n"
	"	mov x0, sp\n"
	"	bl start_c\n");
