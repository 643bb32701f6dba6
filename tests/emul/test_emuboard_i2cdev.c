// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * i2c-dev semantics of the emulated adapters, checked with raw ioctls from
 * a child process inside the board (this program run as "--child"), against
 * what drivers/i2c/i2c-dev.c, i2c-core-base.c and i2c-core-smbus.c do:
 * argument checks and their errno, per-file state, EBUSY only for bound
 * clients, quirks, NAK codes, SMBus emulation with PEC, SMBus-only
 * adapters.
 *
 * The child runs a list of commands and prints "CMD -> OK [bytes]" or
 * "CMD -> ENAME" for each:
 *   open:N  slave:A  force:A  tenbit:V  pec:V  retries:V  timeout:V  funcs
 *   rdwr:MSG;MSG...   MSG = wLEN@ADDR=HEX | rLEN@ADDR | rrLEN@ADDR (RECV_LEN)
 *   rdwrn:N (N empty writes to 0x50)  rdwrnull  read:N  write:HEX
 *   smbus:RW:CMD:SIZE[:HEX]  smbusnull:RW:CMD:SIZE  ioctl:NUM
 */
#include <fcntl.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

#include "emub-eeprom.h"
#include "eeprom_model.h"
#include "emub-testutil.h"

/* ------------------------------------------------------------ child */

static int hexbytes(const char *s, guint8 *out, int max)
{
	int n = 0;

	while (s && *s && n < max) {
		unsigned int v;

		if (sscanf(s, "%2x", &v) != 1)
			break;
		out[n++] = (guint8)v;
		s += 2;
		if (*s == ',')
			s++;
	}
	return n;
}

static void print_result(const char *cmd, int r, const guint8 *data, int n)
{
	printf("%s -> ", cmd);
	if (r < 0) {
		printf("%s\n", strerrorname_np(errno));
		return;
	}
	printf("OK");
	for (int i = 0; i < n; i++)
		printf(" %02x", data[i]);
	printf("\n");
}

static int child_run(int argc, char **argv)
{
	int fd = -1;

	for (int i = 0; i < argc; i++) {
		char *cmd = argv[i], *arg = strchr(cmd, ':');
		guint8 data[8300];
		int r = 0, n = 0;

		arg = arg ? arg + 1 : (char *)"";
		errno = 0;
		if (g_str_has_prefix(cmd, "open:")) {
			char *p = g_strdup_printf("/dev/i2c-%s", arg);

			fd = open(p, O_RDWR);
			r = fd;
			g_free(p);
		} else if (g_str_has_prefix(cmd, "slave:")) {
			r = ioctl(fd, I2C_SLAVE, strtoul(arg, NULL, 0));
		} else if (g_str_has_prefix(cmd, "force:")) {
			r = ioctl(fd, I2C_SLAVE_FORCE, strtoul(arg, NULL, 0));
		} else if (g_str_has_prefix(cmd, "tenbit:")) {
			r = ioctl(fd, I2C_TENBIT, strtoul(arg, NULL, 0));
		} else if (g_str_has_prefix(cmd, "pec:")) {
			r = ioctl(fd, I2C_PEC, strtoul(arg, NULL, 0));
		} else if (g_str_has_prefix(cmd, "retries:")) {
			r = ioctl(fd, I2C_RETRIES, strtoul(arg, NULL, 0));
		} else if (g_str_has_prefix(cmd, "timeout:")) {
			r = ioctl(fd, I2C_TIMEOUT, strtoul(arg, NULL, 0));
		} else if (!strcmp(cmd, "funcs")) {
			unsigned long f = 0;

			r = ioctl(fd, I2C_FUNCS, &f);
			printf("funcs=0x%08lx\n", f);
		} else if (g_str_has_prefix(cmd, "rdwr:")) {
			char **parts = g_strsplit(arg, ";", -1);
			struct i2c_msg msgs[8];
			struct i2c_rdwr_ioctl_data d = { .msgs = msgs, .nmsgs = 0 };
			guint8 bufs[8][300];

			memset(bufs, 0xee, sizeof(bufs));
			for (char **p = parts; *p && d.nmsgs < 8; p++) {
				struct i2c_msg *m = &msgs[d.nmsgs];
				unsigned int len, addr;
				bool rd = (*p)[0] == 'r', rl = (*p)[1] == 'r';
				char *eq = strchr(*p, '=');

				sscanf(*p + (rl ? 2 : 1), "%u@%x", &len, &addr);
				m->addr = (guint16)addr;
				m->flags = (rd ? I2C_M_RD : 0) | (rl ? I2C_M_RECV_LEN : 0);
				m->len = (guint16)len;
				m->buf = bufs[d.nmsgs];
				if (rl)
					bufs[d.nmsgs][0] = 1;
				if (eq)
					hexbytes(eq + 1, bufs[d.nmsgs], 300);
				d.nmsgs++;
			}
			r = ioctl(fd, I2C_RDWR, &d);
			for (unsigned int k = 0; k < d.nmsgs; k++)
				if (msgs[k].flags & I2C_M_RD)
					for (int b = 0;
					     b < msgs[k].len && n < (int)sizeof(data); b++)
						data[n++] = bufs[k][b];
			g_strfreev(parts);
		} else if (g_str_has_prefix(cmd, "rdwrn:")) {
			int cnt = atoi(arg);
			struct i2c_msg *msgs = g_new0(struct i2c_msg, cnt ? cnt : 1);
			struct i2c_rdwr_ioctl_data d = { .msgs = msgs, .nmsgs = (guint32)cnt };

			for (int k = 0; k < cnt; k++)
				msgs[k].addr = 0x51;
			r = ioctl(fd, I2C_RDWR, &d);
			g_free(msgs);
		} else if (!strcmp(cmd, "rdwrnull")) {
			struct i2c_rdwr_ioctl_data d = { .msgs = NULL, .nmsgs = 1 };

			r = ioctl(fd, I2C_RDWR, &d);
		} else if (g_str_has_prefix(cmd, "rdwrlen:")) {
			static guint8 big[8200];
			struct i2c_msg m = { .addr = 0x51,
					     .flags = I2C_M_RD,
					     .len = (guint16)atoi(arg),
					     .buf = big };
			struct i2c_rdwr_ioctl_data d = { .msgs = &m, .nmsgs = 1 };

			r = ioctl(fd, I2C_RDWR, &d);
		} else if (g_str_has_prefix(cmd, "read:")) {
			int want = atoi(arg);

			r = (int)read(fd, data, (size_t)want);
			n = r > 0 ? (r > 16 ? 16 : r) : 0;
			if (r >= 0)
				printf("count=%d\n", r);
		} else if (g_str_has_prefix(cmd, "write:")) {
			int len = hexbytes(arg, data, (int)sizeof(data));

			r = (int)write(fd, data, (size_t)len);
			if (r >= 0)
				printf("count=%d\n", r);
		} else if (g_str_has_prefix(cmd, "smbus:") ||
			   g_str_has_prefix(cmd, "smbusnull:")) {
			unsigned int rw = 0, command = 0, size = 0;
			char hex[200] = "";
			union i2c_smbus_data u;
			struct i2c_smbus_ioctl_data a;

			memset(&u, 0, sizeof(u));
			sscanf(arg, "%x:%x:%x:%199s", &rw, &command, &size, hex);
			hexbytes(hex, u.block, (int)sizeof(u.block));
			a.read_write = (guint8)rw;
			a.command = (guint8)command;
			a.size = size;
			a.data = g_str_has_prefix(cmd, "smbusnull:") ? NULL : &u;
			r = ioctl(fd, I2C_SMBUS, &a);
			n = size == I2C_SMBUS_BYTE || size == I2C_SMBUS_BYTE_DATA ? 1
			    : size == I2C_SMBUS_WORD_DATA || size == I2C_SMBUS_PROC_CALL
				    ? 2
				    : u.block[0] + 1;
			memcpy(data, u.block, (size_t)n);
		} else if (g_str_has_prefix(cmd, "ioctl:")) {
			r = ioctl(fd, strtoul(arg, NULL, 0), 0);
		} else {
			printf("%s -> unknown command\n", cmd);
			continue;
		}
		print_result(cmd, r, data, n);
		fflush(stdout);
	}
	return 0;
}

/* ------------------------------------------------------------ tests */

static const char eeprom_board[] =
	"[board]\nname = i2cdev\ncompatible = t,i2cdev\n"
	"[adapter 1]\nspeed = 400000\nmax_transfer = 64\n"
	"[chip spare]\nadapter = 1\naddress = 0x51\nmodel = eeprom\n"
	"compatible = atmel,24c02\npower = always-on\neeprom.fill = 0\n"
	"[chip bound]\nadapter = 1\naddress = 0x50\nmodel = eeprom\n"
	"compatible = atmel,24c02\ndriver = at24\npower = always-on\n";

static char *run(struct emub *eb, const char *const *cmds)
{
	char *out = NULL;

	assert_int_equal(tu_run_self(eb, &out, cmds), 0);
	return out;
}

static void test_slave_address_checks(void **state)
{
	struct emub *eb = tu_board_text(eeprom_board);
	const char *const cmds[] = { "open:1",	   "slave:0x80",  "slave:0x50",	 "force:0x50",
				     "slave:0x51", "tenbit:1",	  "slave:0x3ff", "slave:0x400",
				     "tenbit:0",   "slave:0x3ff", NULL };
	char *out = run(eb, cmds);

	(void)state;
	assert_contains(out, "slave:0x80 -> EINVAL");
	assert_contains(out, "slave:0x50 -> EBUSY"); /* at24 is bound there */
	assert_contains(out, "force:0x50 -> OK");
	assert_contains(out, "slave:0x51 -> OK"); /* no driver: not busy */
	assert_contains(out, "tenbit:1 -> OK\nslave:0x3ff -> OK\nslave:0x400 -> EINVAL");
	assert_contains(out, "tenbit:0 -> OK\nslave:0x3ff -> EINVAL");
	g_free(out);
	/* unbound, the address is free for I2C_SLAVE */
	assert_int_equal(emub_unbind(eb, "bound"), 0);
	{
		const char *const c2[] = { "open:1", "slave:0x50", NULL };

		out = run(eb, c2);
		assert_contains(out, "slave:0x50 -> OK");
		g_free(out);
	}
	emub_free(eb);
}

static void test_rdwr_limits_and_errors(void **state)
{
	struct emub *eb = tu_board_text(eeprom_board);
	const char *const cmds[] = { "open:1",
				     "rdwrn:0",
				     "rdwrn:42",
				     "rdwrn:43",
				     "rdwrnull",
				     "rdwrlen:8193",
				     "rdwrlen:65",
				     "rdwr:w1@0x51=00;r4@0x51",
				     "rdwr:w1@0x33=00;r4@0x33",
				     "rdwr:r4@0x51;w1@0x33=00",
				     "rdwr:rr4@0x51",
				     "rdwr:rr40@0x51",
				     NULL };
	char *out = run(eb, cmds);

	(void)state;
	assert_contains(out, "rdwrn:0 -> EINVAL");
	assert_contains(out, "rdwrn:42 -> OK"); /* I2C_RDWR_IOCTL_MAX_MSGS */
	assert_contains(out, "rdwrn:43 -> EINVAL");
	assert_contains(out, "rdwrnull -> EINVAL");
	assert_contains(out, "rdwrlen:8193 -> EINVAL");
	assert_contains(out, "rdwrlen:65 -> EOPNOTSUPP"); /* max_transfer 64 quirk */
	assert_contains(out, "rdwr:w1@0x51=00;r4@0x51 -> OK 00 00 00 00");
	assert_contains(out, "rdwr:w1@0x33=00;r4@0x33 -> ENXIO");
	/* a failed transfer leaves the read buffer untouched (0xee) */
	assert_contains(out, "rdwr:r4@0x51;w1@0x33=00 -> ENXIO");
	/* RECV_LEN: len must cover buf[0] + 32, else EINVAL; supported it is
	 * not, so a valid one fails in the adapter */
	assert_contains(out, "rdwr:rr4@0x51 -> EINVAL");
	assert_contains(out, "rdwr:rr40@0x51 -> EOPNOTSUPP");
	g_free(out);
	emub_free(eb);
}

static void test_read_write_go_to_the_slave_address(void **state)
{
	struct emub *eb = tu_board_text(eeprom_board);
	const char *const cmds[] = { "open:1",	 "read:1", "force:0x51", "write:0a112233",
				     "write:0a", "read:3", "read:65",	 "open:1",
				     "read:1",	 NULL };
	char *out = run(eb, cmds);

	(void)state;
	/* a new file's client has address 0: general call, nobody acks */
	assert_contains(out, "read:1 -> ENXIO");
	assert_contains(out, "write:0a112233 -> OK");
	assert_contains(out, "count=3\nread:3 -> OK 11 22 33");
	assert_contains(out, "read:65 -> EOPNOTSUPP");
	/* per-file state: the second open starts at address 0 again */
	assert_contains(out, "open:1 -> OK\nread:1 -> ENXIO");
	g_free(out);
	emub_free(eb);
}

static void test_smbus_emulation(void **state)
{
	struct emub *eb = tu_board_text(eeprom_board);
	const char *const cmds[] = { "open:1",
				     "force:0x51",
				     "smbus:0:20:2:5a",	  /* write byte data 0x20 = 0x5a */
				     "smbus:1:20:2",	  /* read byte data */
				     "smbus:0:30:3:3412", /* write word: LE 0x1234 */
				     "smbus:1:30:3",
				     "smbus:1:30:8:04",	 /* i2c block read 4 */
				     "smbus:1:30:8:00",	 /* block[0] = 0: EINVAL */
				     "smbus:1:30:5",	 /* block read: RECV_LEN */
				     "smbus:1:30:9",	 /* bad size */
				     "smbus:2:30:2",	 /* bad read_write */
				     "smbusnull:1:30:2", /* NULL data */
				     "smbus:0:00:0",	 /* quick write */
				     "pec:1",
				     "smbus:1:30:2",	/* the EEPROM sends no PEC */
				     "smbus:0:40:2:77", /* PEC byte written as data */
				     "pec:0",
				     "smbus:1:40:3",
				     "funcs",
				     "ioctl:0x0799",
				     "retries:3",
				     NULL };
	char *out = run(eb, cmds);

	(void)state;
	assert_contains(out, "smbus:0:20:2:5a -> OK");
	assert_contains(out, "smbus:1:20:2 -> OK 5a");
	assert_contains(out, "smbus:1:30:3 -> OK 34 12");
	assert_contains(out, "smbus:1:30:8:04 -> OK 04 34 12 00 00");
	assert_contains(out, "smbus:1:30:8:00 -> EINVAL");
	assert_contains(out, "smbus:1:30:5 -> EOPNOTSUPP");
	assert_contains(out, "smbus:1:30:9 -> EINVAL");
	assert_contains(out, "smbus:2:30:2 -> EINVAL");
	assert_contains(out, "smbusnull:1:30:2 -> EINVAL");
	assert_contains(out, "smbus:0:00:0 -> OK");
	assert_contains(out, "smbus:1:30:2 -> EBADMSG");
	/* write with PEC: 0x40 <- 0x77, 0x41 <- PEC(0xa2 0x40 0x77) */
	assert_contains(out, "smbus:1:40:3 -> OK 77");
	assert_true(g_regex_match_simple("smbus:1:40:3 -> OK 77 [0-9a-f]{2}\n", out, 0, 0));
	assert_contains(out, "funcs=0x0eff0009"); /* I2C | SMBUS_EMUL */
	assert_contains(out, "ioctl:0x0799 -> ENOTTY");
	assert_contains(out, "retries:3 -> OK");
	g_free(out);
	{
		struct eeprom_model *m;
		guint8 pec = 0;
		const guint8 bytes[] = { 0xa2, 0x40, 0x77 };

		/* CRC-8 x^8+x^2+x+1 of address byte, command, data */
		for (size_t i = 0; i < sizeof(bytes); i++) {
			pec ^= bytes[i];
			for (int b = 0; b < 8; b++)
				pec = (guint8)(pec & 0x80 ? (pec << 1) ^ 0x07 : pec << 1);
		}
		emub_lock(eb);
		m = emub_chip_eeprom(eb, "spare");
		assert_int_equal(eeprom_model_peek(m, 0x41), pec);
		emub_unlock(eb);
	}
	emub_free(eb);
}

static void test_smbus_only_adapter_refuses_i2c(void **state)
{
	struct emub *eb = tu_board_file("smbus.board", false);
	const char *const cmds[] = {
		"open:0", "force:0x50", "funcs",	"rdwr:w1@0x50=00;r1@0x50",
		"read:1", "write:00",	"smbus:1:00:2", "smbus:1:00:8:02",
		NULL
	};
	char *out = run(eb, cmds);

	(void)state;
	assert_contains(out, "funcs=0x0eff0008" /* no I2C, no block read */);
	assert_contains(out, "rdwr:w1@0x50=00;r1@0x50 -> EOPNOTSUPP");
	assert_contains(out, "read:1 -> EOPNOTSUPP");
	assert_contains(out, "write:00 -> EOPNOTSUPP");
	assert_contains(out, "smbus:1:00:2 -> OK ff");
	assert_contains(out, "smbus:1:00:8:02 -> OK 02 ff ff");
	g_free(out);
	emub_free(eb);
}

static void test_nak_errno_is_configurable_and_fault_nak_applies(void **state)
{
	struct emub *eb = tu_board_text(
		"[board]\nname = n\ncompatible = t,n\n"
		"[adapter 3]\nnak_errno = EREMOTEIO\n"
		"[chip e]\nadapter = 3\naddress = 0x52\nmodel = eeprom\n"
		"power = always-on\nfault.nak = 0x52\n");
	const char *const cmds[] = { "open:3", "force:0x52", "read:1", NULL };
	char *out = run(eb, cmds);

	(void)state;
	assert_contains(out, "read:1 -> EREMOTEIO");
	g_free(out);
	assert_int_equal(emub_set_nak(eb, 3, 0x52, false), 0);
	out = run(eb, cmds);
	assert_contains(out, "read:1 -> OK ff");
	g_free(out);
	emub_free(eb);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slave_address_checks),
		cmocka_unit_test(test_rdwr_limits_and_errors),
		cmocka_unit_test(test_read_write_go_to_the_slave_address),
		cmocka_unit_test(test_smbus_emulation),
		cmocka_unit_test(test_smbus_only_adapter_refuses_i2c),
		cmocka_unit_test(test_nak_errno_is_configurable_and_fault_nak_applies),
	};

	if (argc > 1 && !strcmp(argv[1], "--child"))
		return child_run(argc - 2, argv + 2);
	tu_init(argv);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
