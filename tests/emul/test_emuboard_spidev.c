// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The emulated spi bus and spidev, checked from a child process inside the
 * board (this program run as "--child") with raw ioctls, against what
 * drivers/spi/spidev.c, spi_setup() and __spi_validate() (Linux 6.1) do,
 * and the sysfs side (driver_override, bind/unbind, drivers_probe, the
 * uevents) against drivers/base and drivers/spi/spi.c.
 *
 * The child runs a list of commands and prints "CMD -> OK [bytes]" or
 * "CMD -> ENAME" for each:
 *   open:PATH  mode:V  mode32:V  rdmode  rdmode32  bits:V  rdbits  lsb:V
 *   speed:V  rdspeed  read:N  write:HEX  ioctl:NUM  msgsize:BYTES
 *   msg:XFER;XFER...  XFER = [t|r|x]LEN[=HEX][,cs][,d=US][,s=HZ][,b=BITS]
 *                            [,tn=N][,rn=N]   (t: tx only, r: rx only, x: both)
 *   gone:NODE (wait until NODE disappears)  write-sys:FILE=VALUE
 *   sleep:MS (a host that lets wall time pass)
 */
#include <fcntl.h>
#include <linux/spi/spi.h>
#include <linux/spi/spidev.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "emub-mxt.h"
#include "emub-testutil.h"
#include "emuboard-spi.h"
#include "mxt_image.h"
#include "mxt_model.h"
#include "mxt_spi.h"

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
	}
	return n;
}

static void print_result(const char *cmd, long r, const guint8 *data, int n)
{
	printf("%s -> ", cmd);
	if (r < 0) {
		printf("%s\n", strerrorname_np(errno));
		return;
	}
	printf("OK");
	if (r > 0)
		printf(" =%ld", r);
	for (int i = 0; i < n; i++)
		printf(" %02x", data[i]);
	printf("\n");
}

static int msg_cmd(int fd, const char *arg, guint8 *out, int *nout)
{
	char **parts = g_strsplit(arg, ";", -1);
	struct spi_ioc_transfer x[16];
	static guint8 tx[16][8192], rx[16][8192];
	unsigned int n = 0;
	int r;

	memset(x, 0, sizeof(x));
	memset(rx, 0xee, sizeof(rx));
	for (char **p = parts; *p && n < 16; p++, n++) {
		char **opt = g_strsplit(*p, ",", -1);
		char kind = opt[0][0];
		char *eq = strchr(opt[0], '=');

		x[n].len = (guint32)strtoul(opt[0] + 1, NULL, 10);
		memset(tx[n], 0, sizeof(tx[n]));
		if (eq)
			hexbytes(eq + 1, tx[n], (int)sizeof(tx[n]));
		if (kind == 't' || kind == 'x')
			x[n].tx_buf = (uintptr_t)tx[n];
		if (kind == 'r' || kind == 'x')
			x[n].rx_buf = (uintptr_t)rx[n];
		for (char **o = opt + 1; *o; o++) {
			if (!strcmp(*o, "cs"))
				x[n].cs_change = 1;
			else if (g_str_has_prefix(*o, "d="))
				x[n].delay_usecs = (guint16)atoi(*o + 2);
			else if (g_str_has_prefix(*o, "s="))
				x[n].speed_hz = (guint32)atoi(*o + 2);
			else if (g_str_has_prefix(*o, "b="))
				x[n].bits_per_word = (guint8)atoi(*o + 2);
			else if (g_str_has_prefix(*o, "tn="))
				x[n].tx_nbits = (guint8)atoi(*o + 3);
			else if (g_str_has_prefix(*o, "rn="))
				x[n].rx_nbits = (guint8)atoi(*o + 3);
		}
		g_strfreev(opt);
	}
	g_strfreev(parts);
	/* SPI_IOC_MESSAGE(n) without its VLA (n is known at run time only) */
	r = ioctl(fd, _IOC(_IOC_WRITE, SPI_IOC_MAGIC, 0, n * sizeof(x[0])), x);
	*nout = 0;
	for (unsigned int i = 0; i < n; i++)
		if (x[i].rx_buf)
			for (unsigned int b = 0; b < x[i].len && b < 8 && *nout < 64; b++)
				out[(*nout)++] = rx[i][b];
	return r;
}

static int child_run(int argc, char **argv)
{
	int fd = -1;

	for (int i = 0; i < argc; i++) {
		char *cmd = argv[i], *arg = strchr(cmd, ':');
		guint8 data[8300];
		guint32 v32 = 0;
		guint8 v8 = 0;
		long r = 0;
		int n = 0;

		arg = arg ? arg + 1 : (char *)"";
		errno = 0;
		if (g_str_has_prefix(cmd, "open:")) {
			if (fd >= 0)
				close(fd);
			fd = open(arg, O_RDWR);
			r = fd < 0 ? -1 : 0;
		} else if (g_str_has_prefix(cmd, "mode:")) {
			v8 = (guint8)strtoul(arg, NULL, 0);
			r = ioctl(fd, SPI_IOC_WR_MODE, &v8);
		} else if (g_str_has_prefix(cmd, "mode32:")) {
			v32 = (guint32)strtoul(arg, NULL, 0);
			r = ioctl(fd, SPI_IOC_WR_MODE32, &v32);
		} else if (!strcmp(cmd, "rdmode")) {
			r = ioctl(fd, SPI_IOC_RD_MODE, &v8);
			printf("mode=0x%x\n", v8);
		} else if (!strcmp(cmd, "rdmode32")) {
			r = ioctl(fd, SPI_IOC_RD_MODE32, &v32);
			printf("mode32=0x%x\n", v32);
		} else if (g_str_has_prefix(cmd, "bits:")) {
			v8 = (guint8)strtoul(arg, NULL, 0);
			r = ioctl(fd, SPI_IOC_WR_BITS_PER_WORD, &v8);
		} else if (!strcmp(cmd, "rdbits")) {
			r = ioctl(fd, SPI_IOC_RD_BITS_PER_WORD, &v8);
			printf("bits=%u\n", v8);
		} else if (g_str_has_prefix(cmd, "lsb:")) {
			v8 = (guint8)strtoul(arg, NULL, 0);
			r = ioctl(fd, SPI_IOC_WR_LSB_FIRST, &v8);
		} else if (g_str_has_prefix(cmd, "speed:")) {
			v32 = (guint32)strtoul(arg, NULL, 0);
			r = ioctl(fd, SPI_IOC_WR_MAX_SPEED_HZ, &v32);
		} else if (!strcmp(cmd, "rdspeed")) {
			r = ioctl(fd, SPI_IOC_RD_MAX_SPEED_HZ, &v32);
			printf("speed=%u\n", v32);
		} else if (g_str_has_prefix(cmd, "msg:")) {
			r = msg_cmd(fd, arg, data, &n);
		} else if (!strcmp(cmd, "msg0")) {
			r = ioctl(fd, SPI_IOC_MESSAGE(0), data);
		} else if (g_str_has_prefix(cmd, "msgsize:")) {
			memset(data, 0, sizeof(data));
			r = ioctl(fd, _IOC(_IOC_WRITE, SPI_IOC_MAGIC, 0, strtoul(arg, NULL, 0)),
				  data);
		} else if (g_str_has_prefix(cmd, "read:")) {
			r = read(fd, data, strtoul(arg, NULL, 0));
			n = r > 0 ? (r > 8 ? 8 : (int)r) : 0;
		} else if (g_str_has_prefix(cmd, "write:")) {
			int len = hexbytes(arg, data, (int)sizeof(data));

			r = write(fd, data, (size_t)len);
		} else if (g_str_has_prefix(cmd, "writen:")) {
			memset(data, 0x5a, sizeof(data));
			r = write(fd, data, strtoul(arg, NULL, 0));
		} else if (g_str_has_prefix(cmd, "ioctl:")) {
			r = ioctl(fd, strtoul(arg, NULL, 0), data);
		} else if (g_str_has_prefix(cmd, "write-sys:")) {
			char *eq = strchr(arg, '=');
			int sfd;

			*eq = 0;
			sfd = open(arg, O_WRONLY);
			r = sfd < 0 ? -1 : write(sfd, eq + 1, strlen(eq + 1));
			if (sfd >= 0)
				close(sfd);
			*eq = '=';
		} else if (g_str_has_prefix(cmd, "first-sight:")) {
			/* open the node the moment it shows, as a program that
			 * polls for it (or rescans sysfs) does */
			gint64 end = g_get_monotonic_time() + 15 * G_USEC_PER_SEC;

			fd = -1;
			errno = ETIMEDOUT;
			fprintf(stderr, "looking\n"); /* the test binds now */
			while (g_get_monotonic_time() < end) {
				if (access(arg, F_OK) == 0) {
					fd = open(arg, O_RDWR);
					break;
				}
				g_usleep(20);
			}
			r = fd < 0 ? -1 : ioctl(fd, SPI_IOC_RD_MODE32, &v32);
		} else if (g_str_has_prefix(cmd, "last-sight:")) {
			/* open and ask the node until it is gone, as a program
			 * racing an unbind does: while the node shows it is
			 * spidev's (answers, or ESHUTDOWN), then ENOENT */
			gint64 end = g_get_monotonic_time() + 15 * G_USEC_PER_SEC;
			int opens = 0;

			r = -1;
			errno = ETIMEDOUT;
			while (g_get_monotonic_time() < end) {
				int f = open(arg, O_RDWR);

				if (f < 0) {
					r = errno == ENOENT && opens ? 0 : -1;
					break;
				}
				if (!opens++)
					fprintf(stderr, "opened\n"); /* the test unbinds now */
				if (ioctl(f, SPI_IOC_RD_MODE32, &v32) < 0 &&
				    errno != ESHUTDOWN) {
					close(f);
					break;
				}
				close(f);
			}
		} else if (g_str_has_prefix(cmd, "sleep:")) {
			g_usleep((gulong)strtoul(arg, NULL, 0) * 1000);
		} else if (g_str_has_prefix(cmd, "gone:")) {
			/* the unbind written before is done on the service
			 * thread: the node goes then (a bound: 60 s) */
			gint64 end = g_get_monotonic_time() + 60 * G_USEC_PER_SEC;
			struct stat sb;

			while (stat(arg, &sb) == 0 && g_get_monotonic_time() < end)
				g_usleep(10000);
			r = stat(arg, &sb) < 0 ? 0 : -1;
			errno = ETIMEDOUT;
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

static const char spi_board[] =
	"[board]\nname = spidev\ncompatible = t,spidev\n"
	"[spi 1]\nmax_speed_hz = 20000000\nnum_cs = 2\n"
	"[spi-chip free]\nbus = 1\nchip_select = 0\ncompatible = acme,widget\n"
	"[spi-chip raw]\nbus = 1\nchip_select = 1\ndriver = spidev\n"
	"[spidev]\nbufsiz = 64\n";

static char *run(struct emub *eb, const char *const *cmds)
{
	char *out = NULL;

	assert_int_equal(tu_run_self(eb, &out, cmds), 0);
	return out;
}

static bool node_exists(struct emub *eb, const char *node)
{
	char *p = g_strdup_printf("%s%s", emub_root(eb), node);
	bool r = g_file_test(p, G_FILE_TEST_EXISTS);

	g_free(p);
	return r;
}

/*
 * A program that finds the spidev node by polling opens it the moment it
 * appears: the node must answer its ioctls from then on, as the kernel's
 * does from device_add() on (the same race input.c had).
 */
static void test_spidev_node_answers_when_it_first_shows(void **state)
{
	const char *const args[] = { "first-sight:/dev/spidev1.1", NULL };
	struct emub *eb = tu_board_text(spi_board);

	(void)state;
	for (int round = 0; round < 10; round++) {
		struct emub_child *c;
		char *out;
		int st;

		assert_int_equal(emub_spi_unbind(eb, "raw"), 0);
		c = tu_spawn_self(eb, args, NULL);
		/* it looks for the node before it is there */
		assert_int_equal(emub_child_wait_output(c, "looking\n", 20000), 0);
		assert_int_equal(emub_spi_bind(eb, "raw", "spidev"), 0);
		assert_int_equal(emub_child_wait(c, 20000, &st), 0);
		out = g_strconcat(emub_child_stdout(c), emub_child_stderr(c), NULL);
		emub_child_free(c);
		assert_string_equal(out, "first-sight:/dev/spidev1.1 -> OK\nlooking\n");
		assert_int_equal(st, 0);
		g_free(out);
	}
	emub_free(eb);
}

/* ... and until it is gone, it is spidev's: a program that opens it
 * while spidev unbinds gets an answer, ESHUTDOWN or ENOENT, never a
 * plain file (ENOTTY) whose handler went first. */
static void test_spidev_node_answers_until_it_goes(void **state)
{
	const char *const args[] = { "last-sight:/dev/spidev1.1", NULL };
	struct emub *eb = tu_board_text(spi_board);

	(void)state;
	for (int round = 0; round < 10; round++) {
		struct emub_child *c;
		char *out;
		int st;

		c = tu_spawn_self(eb, args, NULL);
		/* it has the node open, answering, before the unbind starts */
		assert_int_equal(emub_child_wait_output(c, "opened\n", 20000), 0);
		assert_int_equal(emub_spi_unbind(eb, "raw"), 0);
		assert_int_equal(emub_child_wait(c, 20000, &st), 0);
		out = g_strconcat(emub_child_stdout(c), emub_child_stderr(c), NULL);
		emub_child_free(c);
		assert_string_equal(out, "last-sight:/dev/spidev1.1 -> OK\nopened\n");
		assert_int_equal(st, 0);
		g_free(out);
		assert_int_equal(emub_spi_bind(eb, "raw", "spidev"), 0);
	}
	emub_free(eb);
}

static void test_sysfs_layout(void **state)
{
	struct emub *eb = tu_board_text(spi_board);
	char *s;

	(void)state;
	assert_string_equal(emub_spi_dev_name(eb, "free"), "spi1.0");
	s = tu_sys_read(eb, "bus/spi/devices/spi1.0/modalias");
	assert_string_equal(s, "spi:widget\n"); /* of_modalias_node(): no vendor */
	g_free(s);
	s = tu_sys_read(eb, "bus/spi/devices/spi1.0/driver_override");
	assert_string_equal(s, "(null)\n");
	g_free(s);
	s = tu_sys_read(eb, "bus/spi/devices/spi1.0/uevent");
	assert_string_equal(s, "MODALIAS=spi:widget\n");
	g_free(s);
	s = tu_sys_read(eb, "module/spidev/parameters/bufsiz");
	assert_string_equal(s, "64\n");
	g_free(s);
	/* the device bound at start has its node; the free one none */
	s = tu_sys_read(eb, "bus/spi/devices/spi1.1/uevent");
	assert_string_equal(s, "DRIVER=spidev\nMODALIAS=spi:raw\n");
	g_free(s);
	s = tu_sys_read(eb, "class/spidev/spidev1.1/dev");
	assert_non_null(s);
	assert_true(g_str_has_prefix(s, "153:"));
	g_free(s);
	assert_true(node_exists(eb, "/dev/spidev1.1"));
	assert_false(node_exists(eb, "/dev/spidev1.0"));
	/* sysfs paths as the kernel's: controller class spi_master */
	assert_int_equal(tu_sh(eb, &s,
			       "readlink -f /sys/bus/spi/devices/spi1.0; "
			       "readlink /sys/bus/spi/devices/spi1.1/driver; "
			       "ls /sys/bus/spi/drivers/spidev"),
			 0);
	assert_contains(s, "/sys/devices/platform/emuboard-spi.1/spi_master/spi1/spi1.0\n");
	assert_contains(s, "bus/spi/drivers/spidev\n");
	assert_contains(s, "spi1.1");
	g_free(s);
	emub_free(eb);
}

static void test_driver_override_bind_unbind_and_events(void **state)
{
	struct emub *eb = NULL;
	char err[256], *tmp = tu_tmpdir(), *log = g_strdup_printf("%s/ev", tmp), *cmd, *s;
	char drv[32];

	(void)state;
	assert_int_equal(emub_new_from_string(spi_board, tu_top(), &eb, err, sizeof(err)), 0);
	cmd = g_strdup_printf(
		"echo \"$ACTION $SUBSYSTEM $DEVPATH DRIVER=$DRIVER MODALIAS=$MODALIAS"
		" DEVNAME=$DEVNAME\" >> %s",
		log);
	emub_set_on_uevent(eb, cmd);
	emub_set_on_uevent_after_boot(eb, true);
	if (getenv("EMUB_TEST_LOG"))
		emub_set_log(eb, stderr);
	assert_int_equal(emub_start(eb), 0);

	/* bind without an override: spidev does not match, nothing happens */
	assert_int_equal(tu_sh(eb, NULL, "echo spi1.0 > /sys/bus/spi/drivers/spidev/bind"), 0);
	assert_int_equal(emub_spi_driver(eb, "free", drv, sizeof(drv)), 0);
	assert_string_equal(drv, "");
	/* driver_override, then bind: the node appears */
	assert_int_equal(tu_sh(eb, NULL,
			       "echo spidev > /sys/bus/spi/devices/spi1.0/driver_override"
			       " && echo spi1.0 > /sys/bus/spi/drivers/spidev/bind"),
			 0);
	assert_int_equal(emub_spi_driver(eb, "free", drv, sizeof(drv)), 0);
	assert_string_equal(drv, "spidev");
	assert_int_equal(emub_spi_driver_override(eb, "free", drv, sizeof(drv)), 0);
	assert_string_equal(drv, "spidev");
	assert_true(node_exists(eb, "/dev/spidev1.0"));
	s = tu_sys_read(eb, "bus/spi/devices/spi1.0/driver_override");
	assert_string_equal(s, "spidev\n");
	g_free(s);
	/* unbind, clear the override: the node goes; nothing rebinds */
	assert_int_equal(tu_sh(eb, NULL,
			       "echo spi1.0 > /sys/bus/spi/drivers/spidev/unbind && "
			       "echo > /sys/bus/spi/devices/spi1.0/driver_override && "
			       "echo spi1.0 > /sys/bus/spi/drivers_probe"),
			 0);
	emub_spi_settle(eb);
	assert_false(node_exists(eb, "/dev/spidev1.0"));
	s = tu_sys_read(eb, "bus/spi/devices/spi1.0/driver_override");
	assert_string_equal(s, "(null)\n");
	g_free(s);
	assert_int_equal(emub_spi_driver(eb, "free", drv, sizeof(drv)), 0);
	assert_string_equal(drv, "");
	/* drivers_probe binds the board's driver of the other device again */
	assert_int_equal(emub_spi_unbind(eb, "raw"), 0);
	assert_int_equal(emub_spi_unbind(eb, "raw"), -ENODEV);
	assert_int_equal(tu_sh(eb, NULL, "echo spi1.1 > /sys/bus/spi/drivers_probe"), 0);
	assert_int_equal(emub_spi_driver(eb, "raw", drv, sizeof(drv)), 0);
	assert_string_equal(drv, "spidev");
	emub_free(eb);

	assert_true(g_file_get_contents(log, &s, NULL, NULL));
	/* probe's class device first, then bind; remove before unbind */
	assert_string_equal(
		s,
		"add spidev /devices/platform/emuboard-spi.1/spi_master/spi1/spi1.0/spidev/spidev1.0"
		" DRIVER= MODALIAS= DEVNAME=spidev1.0\n"
		"bind spi /devices/platform/emuboard-spi.1/spi_master/spi1/spi1.0 DRIVER=spidev "
		"MODALIAS=spi:widget DEVNAME=\n"
		"remove spidev /devices/platform/emuboard-spi.1/spi_master/spi1/spi1.0/spidev/"
		"spidev1.0 DRIVER= MODALIAS= DEVNAME=spidev1.0\n"
		"unbind spi /devices/platform/emuboard-spi.1/spi_master/spi1/spi1.0 DRIVER= "
		"MODALIAS= DEVNAME=\n"
		"remove spidev /devices/platform/emuboard-spi.1/spi_master/spi1/spi1.1/spidev/"
		"spidev1.1 DRIVER= MODALIAS= DEVNAME=spidev1.1\n"
		"unbind spi /devices/platform/emuboard-spi.1/spi_master/spi1/spi1.1 DRIVER= "
		"MODALIAS= DEVNAME=\n"
		"add spidev /devices/platform/emuboard-spi.1/spi_master/spi1/spi1.1/spidev/spidev1.1"
		" DRIVER= MODALIAS= DEVNAME=spidev1.1\n"
		"bind spi /devices/platform/emuboard-spi.1/spi_master/spi1/spi1.1 DRIVER=spidev "
		"MODALIAS=spi:raw DEVNAME=\n");
	g_free(s);
	g_free(cmd);
	g_free(log);
	tu_rmdir(tmp);
}

static void test_mode_bits_speed_ioctls(void **state)
{
	struct emub *eb = tu_board_text(spi_board);
	const char *const cmds[] = {
		"open:/dev/spidev1.1",
		"rdmode",
		"rdbits",
		"rdspeed",
		"mode:3",
		"rdmode",
		"mode32:0x10",	   /* SPI_3WIRE: the controller lacks it */
		"mode32:0x100000", /* outside SPI_MODE_MASK */
		"mode32:0x304",	   /* CS_HIGH + TX_DUAL|TX_QUAD: dual with quad */
		"mode32:0x104",	   /* CS_HIGH + TX_DUAL: dual dropped */
		"rdmode32",
		"bits:9",
		"bits:16",
		"rdbits",
		"bits:0",
		"rdbits",
		"speed:0",
		"speed:99000000",
		"rdspeed",
		"lsb:1",
		"rdmode",
		"mode:0",
		"open:/dev/spidev1.1",
		"rdmode", /* the mode is the device's */
		NULL
	};
	char *out;

	(void)state;
	out = run(eb, cmds);
	assert_contains(out, "mode=0x0\nrdmode -> OK\n");
	assert_contains(out, "bits=8\nrdbits -> OK\n");
	assert_contains(out, "speed=20000000\n"); /* max_speed_hz of the controller */
	assert_contains(out, "mode:3 -> OK\nmode=0x3\n");
	assert_contains(out, "mode32:0x10 -> EINVAL\n");
	assert_contains(out, "mode32:0x100000 -> EINVAL\n");
	assert_contains(out, "mode32:0x304 -> EINVAL\n");
	assert_contains(out, "mode32:0x104 -> OK\nmode32=0x4\n");
	assert_contains(out, "bits:9 -> EINVAL\nbits:16 -> OK\nbits=16\n");
	assert_contains(out, "bits:0 -> OK\nbits=8\n");
	assert_contains(out, "speed:0 -> EINVAL\nspeed:99000000 -> OK\nspeed=99000000\n");
	assert_contains(out, "lsb:1 -> OK\nmode=0xc\n");
	assert_contains(out, "mode:0 -> OK\nopen:/dev/spidev1.1 -> OK\nmode=0x0\n");
	g_free(out);
	emub_free(eb);
}

static void test_message_checks_and_bufsiz(void **state)
{
	struct emub *eb = tu_board_text(spi_board);
	const char *const cmds[] = { "open:/dev/spidev1.1",
				     "msg:r64",
				     "msg:r65",
				     "msg:t64;r64",
				     "msg:r30;r30", /* 32 + 32 after ARCH_KMALLOC_MINALIGN */
				     "msg:r20;r20;r20",	   /* 24 * 3 = 72 > 64 */
				     "msg:t33;t30",	   /* 40 + 32 */
				     "msg:x3=aabbcc,b=16", /* half a 16-bit word */
				     "msg:t4,tn=2",
				     "msg:r4,rn=4",
				     "msg:t4,tn=1",
				     "msg0",
				     "msgsize:33",
				     "ioctl:0x40206b01", /* SPI_IOC_MESSAGE with nr 1 */
				     "ioctl:0x80017001", /* another type */
				     "read:64",
				     "read:65",
				     "writen:64",
				     "writen:65",
				     "msg:x4=01020304", /* nobody drives MISO */
				     NULL };
	char *out;

	(void)state;
	out = run(eb, cmds);
	assert_contains(out, "msg:r64 -> OK =64 ff");
	assert_contains(out, "msg:r65 -> EMSGSIZE\n");
	assert_contains(out, "msg:t64;r64 -> OK =128 ff");
	assert_contains(out, "msg:r30;r30 -> OK =60 ff");
	assert_contains(out, "msg:r20;r20;r20 -> EMSGSIZE\n");
	assert_contains(out, "msg:t33;t30 -> EMSGSIZE\n");
	assert_contains(out, "msg:x3=aabbcc,b=16 -> EINVAL\n");
	assert_contains(out, "msg:t4,tn=2 -> EINVAL\n");
	assert_contains(out, "msg:r4,rn=4 -> EINVAL\n");
	assert_contains(out, "msg:t4,tn=1 -> OK =4\n");
	assert_contains(out, "msg0 -> OK\n");
	assert_contains(out, "msgsize:33 -> EINVAL\n");
	assert_contains(out, "ioctl:0x40206b01 -> ENOTTY\n");
	assert_contains(out, "ioctl:0x80017001 -> ENOTTY\n");
	assert_contains(out, "read:64 -> OK =64 ff ff");
	assert_contains(out, "read:65 -> EMSGSIZE\n");
	assert_contains(out, "writen:64 -> OK =64\n");
	assert_contains(out, "writen:65 -> EMSGSIZE\n");
	assert_contains(out, "msg:x4=01020304 -> OK =4 ff ff ff ff\n");
	g_free(out);
	emub_free(eb);
}

static void test_loopback_words_and_lsb_first(void **state)
{
	struct emub *eb = tu_board_text(spi_board);
	const char *const cmds[] = { "open:/dev/spidev1.1",
				     "mode:0x20", /* SPI_LOOP */
				     "msg:x4=01020304",
				     "msg:t2=aabb;r2",
				     "msg:x4=01020304,b=16", /* words: wire order and back */
				     "lsb:1",
				     "msg:x2=0180",
				     NULL };
	char *out;
	struct emub_spi_stats st;

	(void)state;
	out = run(eb, cmds);
	assert_contains(out, "mode:0x20 -> OK\n");
	assert_contains(out, "msg:x4=01020304 -> OK =4 01 02 03 04\n");
	/* rx in a transfer without tx: zeros shifted out come back */
	assert_contains(out, "msg:t2=aabb;r2 -> OK =4 00 00\n");
	assert_contains(out, "msg:x4=01020304,b=16 -> OK =4 01 02 03 04\n");
	assert_contains(out, "msg:x2=0180 -> OK =2 01 80\n");
	g_free(out);
	assert_int_equal(emub_spi_stats(eb, 1, &st), 0);
	assert_int_equal(st.messages, 4);
	assert_int_equal(st.transfers, 5);
	assert_int_equal(st.bytes, 14);
	assert_int_equal(st.user_messages, 4); /* all of them through spidev */
	assert_int_equal(st.driver_ns, 0);
	emub_free(eb);
}

static void test_cs_change_delays_and_wire_time(void **state)
{
	struct emub *eb = tu_board_text(spi_board);
	const char *const cmds1[] = { "open:/dev/spidev1.1", "speed:1000000",
				      "msg:t6,cs,d=1000;r10", NULL };
	const char *const cmds2[] = { "open:/dev/spidev1.1", "msg:t1,cs", NULL };
	struct emub_spi_stats st;
	char *out;

	(void)state;
	out = run(eb, cmds1);
	assert_contains(out, "-> OK =16 ff");
	g_free(out);
	assert_int_equal(emub_spi_stats(eb, 1, &st), 0);
	assert_int_equal(st.cs_changes, 1);
	/* 16 bytes at 1 MHz, 1000 us delay, 10 us chip-select gap */
	assert_int_equal(st.wire_ns, 128000 + 1000000 + 10000);
	assert_false(emub_spi_selected(eb, "raw"));
	/* cs_change on the last transfer keeps the chip selected */
	out = run(eb, cmds2);
	assert_contains(out, "msg:t1,cs -> OK =1\n");
	g_free(out);
	assert_true(emub_spi_selected(eb, "raw"));
	emub_free(eb);
}

static void test_unbound_spidev_file_is_shut_down(void **state)
{
	struct emub *eb = tu_board_text(spi_board);
	const char *const cmds[] = { "open:/dev/spidev1.1",
				     "msg:t1",
				     "write-sys:/sys/bus/spi/drivers/spidev/unbind=spi1.1",
				     "gone:/dev/spidev1.1",
				     "rdmode",
				     "msg:t1",
				     NULL };
	char *out;

	(void)state;
	out = run(eb, cmds);
	assert_contains(out, "gone:/dev/spidev1.1 -> OK\n");
	assert_contains(out, "rdmode -> ESHUTDOWN\nmsg:t1 -> ESHUTDOWN\n");
	g_free(out);
	emub_free(eb);
}

static void test_board_errors(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "[board]\nname=x\ncompatible=a,b\n[spi 0]\n[spi-chip c]\nbus = 1\nchip_select = 0\n",
		  "[spi-chip c] bus: no [spi 1]" },
		{ "[board]\nname=x\ncompatible=a,b\n[spi 0]\nnum_cs = 1\n[spi-chip c]\nbus = 0\n"
		  "chip_select = 1\n",
		  "[spi-chip c] chip_select: 1 is beyond [spi 0] num_cs = 1" },
		{ "[board]\nname=x\ncompatible=a,b\n[spi 0]\n[spi-chip c]\nbus = 0\nchip_select = 0\n"
		  "[spi-chip d]\nbus = 0\nchip_select = 0\n",
		  "[spi-chip d] chip_select: 0 is taken by [spi-chip c]" },
		{ "[board]\nname=x\ncompatible=a,b\n[spi 0]\n[spi-chip c]\nbus = 0\nchip_select = 0\n"
		  "driver = mystery\n",
		  "[spi-chip c] driver: \"mystery\" is not a modelled spi driver" },
		{ "[board]\nname=x\ncompatible=a,b\n[spi 0]\nspeed = 1\n",
		  "[spi 0]: unknown key \"speed\"" },
		{ "[board]\nname=x\ncompatible=a,b\n[spi 0]\n[spidev]\nbufsiz = -1\n",
		  "[spidev] bufsiz: \"-1\" is not 0..4194304" },
		{ "[board]\nname=x\ncompatible=a,b\n",
		  "board has no [adapter N] or [spi N] section" },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct emub *eb = NULL;
		char err[256] = "";

		assert_int_equal(emub_new_from_string(cases[i].text, NULL, &eb, err,
						      sizeof(err)),
				 -EINVAL);
		assert_contains(err, cases[i].msg);
	}
}

/* ------------------------------------------------------------ maXTouch over spi */

static const char mxt_board[] =
	"[board]\nname = mxt-spi\ncompatible = t,spi\n"
	"[spi 1]\nmax_speed_hz = 20000000\n"
	"[spi-chip ts]\nbus = 1\nchip_select = 0\nmodel = mxt1664s\ndriver = spidev\n"
	"spi_mode = 3\nmax_speed_hz = 8000000\nfault.crc_reply_at = 3\n"
	"[spi-chip bl]\nbus = 1\nchip_select = 1\nmodel = mxt1664s\ndriver = spidev\n"
	"spi_mode = 3\nmax_speed_hz = 8000000\nstate = no-image\n";

#define FF13 "ffffffffffffffffffffffffff"

static void test_mxt_spi_framing_against_the_model(void **state)
{
	struct emub *eb = tu_board_text(mxt_board);
	const char *const cmds[] = {
		"open:/dev/spidev1.0",
		/* read 7 bytes at 0: header with its CRC8, a gap, 6 + 7 bytes out */
		"msg:t6=0200000700ed,cs,d=1000;x13=" FF13,
		/* a wrong header CRC: invalid CRC */
		"msg:t6=0200000700ee,cs,d=1000;x13=" FF13,
		/* the third request: the board's fault answers 0x08 */
		"msg:t6=0200000700ed,cs,d=1000;x13=" FF13,
		/* mode 0 against a mode-3 chip: the bytes arrive a bit late */
		"mode:0", "msg:t6=0200000700ed,cs,d=1000;x13=" FF13, "mode:3",
		/* a bootloader read of a chip in its application: nobody answers */
		"msg:x5=0100000000", "open:/dev/spidev1.1",
		/* the bootloader answers from the third byte */
		"mode:3", "msg:x5=0100000000", "msg:x5=0100000000",
		/* the application framing gets no answer from a bootloader */
		"msg:t6=0200000700ed,cs,d=1000;x13=" FF13,
		/* the response asked for 100 us after the request: not ready
		 * (0xFF), the request lost; 600 us: answered */
		"open:/dev/spidev1.0", "mode:3", "msg:t6=0200000700ed,cs,d=100;x13=" FF13,
		"msg:t6=0200000700ed,cs,d=600;x13=" FF13, NULL
	};
	struct mxt_spi *ts;
	char *out;

	(void)state;
	out = run(eb, cmds);
	emub_lock(eb);
	ts = emub_spi_mxt(eb, "ts");
	assert_int_equal(ts->stats.early_responses, 1);
	emub_unlock(eb);
	assert_contains(out, "msg:t6=0200000700ed,cs,d=100;x13=" FF13
			     " -> OK =19 ff ff ff ff ff ff ff ff\n"
			     "msg:t6=0200000700ed,cs,d=600;x13=" FF13
			     " -> OK =19 82 00 00 07 00 26 a2 06\n");
	assert_contains(out, "msg:t6=0200000700ed,cs,d=1000;x13=" FF13
			     " -> OK =19 82 00 00 07 00 26 a2 06\n");
	assert_contains(out, "msg:t6=0200000700ee,cs,d=1000;x13=" FF13
			     " -> OK =19 08 00 00 07 00 50 ff ff\n");
	/* (the fault is the third request of the board: this one) */
	assert_contains(out, "mode:3 -> OK\nmsg:x5=0100000000 -> OK =5 ff ff ff ff ff\n");
	/* mode 0: the chip samples the header a bit late, answers "invalid
	 * CRC", and that answer reaches the host a bit late too */
	assert_contains(out, "mode:0 -> OK\nmsg:t6=0200000700ed,cs,d=1000;x13=" FF13
			     " -> OK =19 84 00 00");
	/* APP_CRC_FAIL | extended id, the mXT1664S preset's id 0x13 version 2;
	 * then WAITING_BOOTLOAD_CMD */
	assert_contains(out, "mode:3 -> OK\nmsg:x5=0100000000 -> OK =5 ff ff 60 13 02\n"
			     "msg:x5=0100000000 -> OK =5 ff ff e0 13 02\n");
	assert_contains(out,
			"msg:t6=0200000700ed,cs,d=1000;x13=" FF13 " -> OK =19 ff ff ff ff ff "
			"ff ff ff\n");
	g_free(out);
	emub_free(eb);
}

/* An application-mode write request of one byte, then its response frame
 * 1 ms later: two transfers of a child's msg: command. */
static char *mxt_spi_write1(guint16 reg, guint8 v)
{
	guint8 h[5] = { MXT_SPI_WRITE_REQ, (guint8)reg, (guint8)(reg >> 8), 1, 0 };

	return g_strdup_printf("t7=%02x%02x%02x%02x%02x%02x%02x,cs,d=1000;x6=ffffffffffff",
			       h[0], h[1], h[2], h[3], h[4], mxt_spi_model_crc8(h, 5), v);
}

/*
 * Fast pacing, spidev: a host's sleep is time for the chip too (issue 27,
 * item 13).  One message sends BACKUPNV, then RESET (which waits for the
 * backup: two chip operations in a row); then 200 ms of wall time, then
 * one info-block read: the chip has backed up, reset and booted, as in
 * real time.  When only the next chip event ran before each message, the
 * read met a chip in reset (all 0xFF).
 */
static void test_mxt_spi_host_sleep_lets_the_chip_finish(void **state)
{
	struct emub *eb = tu_board_text("[board]\nname = mxt-spi\ncompatible = t,spi\n"
					"[spi 1]\nmax_speed_hz = 20000000\n"
					"[spi-chip ts]\nbus = 1\nchip_select = 0\n"
					"model = mxt1664s\ndriver = spidev\nspi_mode = 3\n"
					"max_speed_hz = 8000000\n");
	struct emub_spi_stats st;
	guint16 t6 = 0;
	char *backup, *reset, *both, *out;

	(void)state;
	emub_lock(eb);
	assert_true(mxt_model_object(emub_spi_mxt(eb, "ts")->m, 6, &t6, NULL));
	emub_unlock(eb);
	backup = mxt_spi_write1((guint16)(t6 + 1), 0x55);
	reset = mxt_spi_write1(t6, 0x01);
	both = g_strdup_printf("msg:%s,cs;%s", backup, reset);
	{
		const char *const cmds[] = { "open:/dev/spidev1.0",
					     "mode:3",
					     both,
					     "sleep:200",
					     "msg:t6=0200000700ed,cs,d=1000;x13=" FF13,
					     NULL };

		out = run(eb, cmds);
	}
	assert_contains(out, "sleep:200 -> OK\nmsg:t6=0200000700ed,cs,d=1000;x13=" FF13
			     " -> OK =19 82 00 00 07 00 26 a2 06\n");
	emub_lock(eb);
	assert_int_equal(mxt_model_stats(emub_spi_mxt(eb, "ts")->m)->backups, 1);
	emub_unlock(eb);
	assert_int_equal(emub_spi_stats(eb, 1, &st), 0);
	assert_true(st.idle_run_ns > 0);
	g_free(out);
	g_free(backup);
	g_free(reset);
	g_free(both);
	emub_free(eb);
}

static unsigned mxt_spi_bl_frames(struct emub *eb)
{
	return mxt_model_stats(emub_spi_mxt(eb, "ts")->m)->frames_passed;
}

/* A kernel's write to update_fw returns when mxt_update_fw_store() does
 * (mxt_load_fw() and the info block read), with its error: the writer sees
 * the result, and the driver has finished by then (no settling first). */
static int mchp_update_fw(struct emub *eb)
{
	int res = 1, before = emub_spi_update_fw_count_now(eb, "ts");
	int st = tu_sh(eb, NULL, "echo 1 > /sys/bus/spi/devices/spi1.0/update_fw 2>/dev/null");

	assert_int_equal(emub_spi_update_fw_count_now(eb, "ts"), before + 1);
	assert_int_equal(emub_spi_update_fw_result(eb, "ts", &res), 0);
	assert_int_equal(st != 0, res != 0);
	return res;
}

/* mchp_spi_ts's update_fw: binary maxtouch.fw only, flashed over the bus in
 * its framing; no input device until an unbind and bind. */
static void test_mchp_update_fw(void **state)
{
	char *dir = tu_tmpdir(), *board, *path, *s;
	struct mxt_img_header h = { 0xa2, 0x06, 0x30, 0x10, 0, 0 };
	size_t cap = mxt_img_size(4000, 200), len;
	guint8 *img = g_malloc(cap);
	struct emub *eb;

	(void)state;
	len = mxt_img_build(&h, NULL, 4000, 200, img, cap);
	board = g_strdup_printf("[board]\nname = mchp\ncompatible = t,spi\nfirmware_dirs = %s\n"
				"[spi 1]\n[spi-chip ts]\nbus = 1\nchip_select = 0\n"
				"model = mxt1664s\ndriver = mchp_spi_ts\nstate = no-image\n"
				"spi_mode = 3\nmax_speed_hz = 8000000\n",
				dir);
	eb = tu_board_text(board);
	/* bound in bootloader mode: no input device */
	s = tu_sys_read(eb, "bus/spi/devices/spi1.0/uevent");
	assert_string_equal(s, "DRIVER=mchp_spi_ts\nMODALIAS=spi:ts\n");
	g_free(s);
	assert_int_equal(tu_sh(eb, NULL, "test ! -e /sys/bus/spi/devices/spi1.0/input"), 0);
	/* an ASCII .enc is refused (-EINVAL), but the write returns the
	 * error of the info block read that follows (a chip still in its
	 * bootloader: -EIO), as mxt_update_fw_store does */
	path = g_strdup_printf("%s/maxtouch.fw", dir);
	assert_true(g_file_set_contents(path, "0A1B2C3D", -1, NULL));
	assert_int_equal(mchp_update_fw(eb), -EIO);
	emub_lock(eb);
	assert_int_equal(mxt_spi_bl_frames(eb), 0);
	emub_unlock(eb);
	/* the binary image flashes */
	assert_true(g_file_set_contents(path, (const char *)img, (gssize)len, NULL));
	assert_int_equal(mchp_update_fw(eb), 0);
	emub_lock(eb);
	assert_int_equal(mxt_model_mode(emub_spi_mxt(eb, "ts")->m), MXT_MODE_APP);
	assert_int_equal(mxt_model_fw_version(emub_spi_mxt(eb, "ts")->m), 0x30);
	emub_unlock(eb);
	/* the driver does not register its input device again by itself */
	assert_int_equal(tu_sh(eb, NULL, "test ! -e /sys/bus/spi/devices/spi1.0/input"), 0);
	assert_int_equal(emub_spi_unbind(eb, "ts"), 0);
	assert_int_equal(emub_spi_bind(eb, "ts", "mchp_spi_ts"), 0);
	assert_int_equal(tu_sh(eb, NULL,
			       "ls /sys/bus/spi/devices/spi1.0/input | grep -q input"),
			 0);
	emub_free(eb);
	g_free(path);
	g_free(board);
	g_free(img);
	tu_rmdir(dir);
}

/* mchp_spi_ts's update_cfg clears the chip's configuration (zeros and a
 * backup to NVM) before it even requests maxtouch.cfg: without the file
 * the write fails with ENOENT and the chip is left cleared. */
static void test_mchp_update_cfg_clears_before_requesting_the_file(void **state)
{
	char *dir = tu_tmpdir(), *board;
	struct mxt_model_stats before;
	struct emub *eb;
	int res = 0, st;

	(void)state;
	board = g_strdup_printf("[board]\nname = mchp\ncompatible = t,spi\nfirmware_dirs = %s\n"
				"[spi 1]\n[spi-chip ts]\nbus = 1\nchip_select = 0\n"
				"model = mxt1664s\ndriver = mchp_spi_ts\nstate = app\n"
				"spi_mode = 3\nmax_speed_hz = 8000000\n",
				dir);
	eb = tu_board_text(board);
	emub_lock(eb);
	before = *mxt_model_stats(emub_spi_mxt(eb, "ts")->m);
	emub_unlock(eb);
	st = tu_sh(eb, NULL, "echo 1 > /sys/bus/spi/devices/spi1.0/update_cfg 2>/dev/null");
	assert_int_not_equal(st, 0);
	assert_int_equal(emub_spi_update_cfg_result(eb, "ts", &res), 0);
	assert_int_equal(res, -ENOENT);
	emub_lock(eb);
	assert_int_equal(mxt_model_stats(emub_spi_mxt(eb, "ts")->m)->backups,
			 before.backups + 1);
	emub_unlock(eb);
	emub_free(eb);
	g_free(board);
	tu_rmdir(dir);
}

/* The spi core keeps, per attribute a driver's store_attrs names, the last
 * write's result and how many ran: two failed update_cfg writes leave
 * update_cfg at 2 and update_fw, never written, with no result. */
static void test_spi_store_results_are_kept_per_attribute(void **state)
{
	char *dir = tu_tmpdir(), *board;
	struct emub *eb;
	int res = 0;

	(void)state;
	board = g_strdup_printf("[board]\nname = mchp\ncompatible = t,spi\nfirmware_dirs = %s\n"
				"[spi 1]\n[spi-chip ts]\nbus = 1\nchip_select = 0\n"
				"model = mxt1664s\ndriver = mchp_spi_ts\nstate = app\n"
				"spi_mode = 3\nmax_speed_hz = 8000000\n",
				dir);
	eb = tu_board_text(board);
	for (int i = 0; i < 2; i++)
		assert_int_not_equal(
			tu_sh(eb, NULL,
			      "echo 1 > /sys/bus/spi/devices/spi1.0/update_cfg 2>/dev/null"),
			0);
	assert_int_equal(emub_spi_attr_result(eb, "ts", "update_cfg", &res), 0);
	assert_int_equal(res, -ENOENT);
	assert_int_equal(emub_spi_attr_count_now(eb, "ts", "update_cfg"), 2);
	assert_int_equal(emub_spi_attr_count_now(eb, "ts", "update_fw"), 0);
	assert_int_equal(emub_spi_update_fw_result(eb, "ts", &res), -ENOENT);
	assert_int_equal(emub_spi_attr_result(eb, "nosuch", "update_cfg", &res), -ENODEV);
	emub_free(eb);
	g_free(board);
	tu_rmdir(dir);
}

/*
 * The idle clock (emuboard-spi.h), real-time pacing: a spidev message that
 * begins with nothing modelled pending found the board waiting for user
 * space, and only the emulator's own handling of it is counted apart; one
 * that begins while the chip checks or programs a frame did not.  The
 * modelled time counts a chip busy during a read once.
 */
static void test_idle_clock_counts_only_waits_for_user_space(void **state)
{
	static const char board[] =
		"[board]\nname = idle\ncompatible = t,spi\npacing = realtime\n"
		"[spi 1]\nmax_speed_hz = 20000000\n"
		"[spi-chip bl]\nbus = 1\nchip_select = 0\nmodel = mxt1664s\ndriver = spidev\n"
		"spi_mode = 3\nmax_speed_hz = 8000000\nstate = no-image\n"
		"[spi-chip raw]\nbus = 1\nchip_select = 1\ndriver = spidev\n";
	struct mxt_img_header h = { 0xa2, 0x06, 0x30, 0x10, 0, 0 };
	size_t cap = mxt_img_size(1000, 200);
	guint8 *img = g_malloc(cap);
	const char *raw[] = { "open:/dev/spidev1.1", "msg:x8", "msg:t16",
			      "msg:t4;r4",	     "msg:x8", NULL };
	const char *cmds[64] = { "open:/dev/spidev1.0", "mode:3",	   "msg:x3=010000",
				 "msg:x3=010000",	"msg:t4=0000dcaa", "msg:x3=010000" };
	struct emub_spi_stats s0, s1, s2;
	struct emub_spi_gap gaps[8];
	/* what the message before each read (umockdev copies it back unseen) */
	static const uint32_t after_rx[4] = { 0, 8, 0, 4 };
	uint64_t rest = 0;
	GString *frame = g_string_new("msg:t");
	unsigned int n = 6, busy = 0, flen;
	gint64 t0, t1;
	struct emub *eb;
	char *out, *p;
	bool pass_seen = false;

	(void)state;
	assert_true(mxt_img_build(&h, NULL, 1000, 200, img, cap) > 0);
	/* the first (header) frame, after the bootloader write's 00 00 */
	flen = (unsigned int)(img[0] << 8 | img[1]) + 2;
	g_string_append_printf(frame, "%u=0000", flen + 2);
	for (unsigned int i = 0; i < flen; i++)
		g_string_append_printf(frame, "%02x", img[i]);
	cmds[n++] = frame->str;
	while (n < 40)
		cmds[n++] = "msg:x3=010000";
	cmds[n] = NULL;
	t0 = g_get_monotonic_time(); /* before the board's clock starts */
	eb = tu_board_text(board);
	assert_int_equal(emub_spi_stats(eb, 1, &s0), 0);
	/* no chip behind chip select 1: every message finds the board waiting */
	out = run(eb, raw);
	g_free(out);
	assert_int_equal(emub_spi_stats(eb, 1, &s1), 0);
	assert_int_equal(s1.user_messages - s0.user_messages, 4);
	assert_int_equal(s1.idle_messages - s0.idle_messages, 4);
	assert_true(s1.service_ns - s0.service_ns > 0);
	assert_true(s1.service_ns - s0.service_ns <= s1.idle_ns - s0.idle_ns);
	assert_int_equal(s1.active_ns - s0.active_ns, s1.wire_ns - s0.wire_ns);
	/* each gap: what the emulator saw of it, and the rest */
	assert_int_equal(emub_spi_idle_unseen(eb, 1, s0.idle_messages, gaps, 8), 4);
	for (int i = 0; i < 4; i++) {
		rest += gaps[i].unseen_ns;
		assert_int_equal(gaps[i].after_rx, after_rx[i]);
		/* where the unseen part can lie: the gap, the handler's start
		 * before its wire, the last message completed after its own
		 * wire began (bench/ takes out what of umockdev's passing
		 * lies in the gap) */
		assert_true(gaps[i].from_ns < gaps[i].to_ns);
		assert_true(gaps[i].unseen_ns <= gaps[i].to_ns - gaps[i].from_ns);
		assert_true(gaps[i].entry_ns <= gaps[i].to_ns);
		if (i)
			assert_true(gaps[i].prev_done_ns >= gaps[i - 1].to_ns &&
				    gaps[i].prev_done_ns <= gaps[i].to_ns);
	}
	assert_int_equal(rest + s1.service_ns - s0.service_ns, s1.idle_ns - s0.idle_ns);
	/* a frame, then status reads while the chip checks and programs it */
	out = run(eb, cmds);
	t1 = g_get_monotonic_time();
	assert_int_equal(emub_spi_stats(eb, 1, &s2), 0);
	assert_int_equal(s2.user_messages - s1.user_messages, 38);
	/* reads that saw the check, or PASS again (programming still going:
	 * the first PASS read would have moved a finished chip on) */
	for (p = out; (p = strstr(p, "msg:x3=010000 -> OK =3 ")); p++) {
		unsigned int b = (unsigned int)strtoul(p + 29, NULL, 16);

		if (b == MXT_BL_FRAME_CRC_CHECK || (b == MXT_BL_FRAME_CRC_PASS && pass_seen))
			busy++;
		pass_seen = pass_seen || b == MXT_BL_FRAME_CRC_PASS;
	}
	assert_true(pass_seen);
	g_free(out);
	assert_true(s2.idle_messages - s1.idle_messages <= 38 - busy);
	/* the frame's programming (5 ms) counted, once beside the reads */
	assert_true(s2.busy_ns - s1.busy_ns >= 5000000);
	assert_true(s2.active_ns - s1.active_ns <
		    s2.wire_ns - s1.wire_ns + s2.busy_ns - s1.busy_ns);
	assert_true(s2.active_ns - s1.active_ns >= s2.busy_ns - s1.busy_ns);
	/* waiting and modelled never overlap */
	assert_true((s2.active_ns - s0.active_ns) + (s2.idle_ns - s0.idle_ns) <=
		    (guint64)(t1 - t0) * 1000);
	emub_free(eb);
	g_string_free(frame, TRUE);
	g_free(img);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysfs_layout),
		cmocka_unit_test(test_driver_override_bind_unbind_and_events),
		cmocka_unit_test(test_mode_bits_speed_ioctls),
		cmocka_unit_test(test_message_checks_and_bufsiz),
		cmocka_unit_test(test_loopback_words_and_lsb_first),
		cmocka_unit_test(test_cs_change_delays_and_wire_time),
		cmocka_unit_test(test_unbound_spidev_file_is_shut_down),
		cmocka_unit_test(test_board_errors),
		cmocka_unit_test(test_mxt_spi_framing_against_the_model),
		cmocka_unit_test(test_mxt_spi_host_sleep_lets_the_chip_finish),
		cmocka_unit_test(test_mchp_update_fw),
		cmocka_unit_test(test_spidev_node_answers_when_it_first_shows),
		cmocka_unit_test(test_spidev_node_answers_until_it_goes),
		cmocka_unit_test(test_mchp_update_cfg_clears_before_requesting_the_file),
		cmocka_unit_test(test_spi_store_results_are_kept_per_attribute),
		cmocka_unit_test(test_idle_clock_counts_only_waits_for_user_space),
	};

	if (argc > 1 && !strcmp(argv[1], "--child"))
		return child_run(argc - 2, argv + 2);
	tu_init(argv);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
