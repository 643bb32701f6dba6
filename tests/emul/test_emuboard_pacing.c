// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pacing, counters and the emuboard program.  Fast pacing skips device
 * busy time; realtime makes a transfer last its wire time, a write cycle
 * NAK, a CHG edge come when the chip raises it (slower with the slow_factor
 * fault).  Counters keep user-space and driver traffic apart and model the
 * wire time exactly; the program reports them as JSON and fails loudly on
 * a modelled oops.
 */
#include <fcntl.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emub-testutil.h"
#include "gpio.h"
#include "mxt_image.h"
#include "mxt_model.h"

static gint64 now_us(void)
{
	return g_get_monotonic_time();
}

/* Read the bootloader's status byte until @want (under @mask) comes, at
 * most @tries reads; returns the last status read, -1 on an error. */
static int bl_poll(int fd, guint8 mask, guint8 want, int tries)
{
	guint8 s = 0;

	while (tries-- > 0) {
		if (read(fd, &s, 1) != 1)
			return -1;
		if ((s & mask) == want)
			return s;
	}
	return s;
}

/*
 * A vendor tool's flash on i2c-dev, as mxt-app does it: unlock, then per
 * frame wait for WAITING_FRAME_DATA, send the frame whole, read the verdict
 * (a read skips to the chip's next event in fast pacing, so a bounded poll
 * is enough).  Ends right after the last FRAME_CRC_PASS is read.
 */
static int flash_mxt224e(const char *dev)
{
	struct mxt_img_header h = { 0x81, 0x01, 0x21, 0x03, 0, 0 };
	size_t cap = mxt_img_size(2000, 250), len, pos = 0;
	guint8 *img = g_malloc(cap);
	int fd = open(dev, O_RDWR), s, frames = 0;

	len = mxt_img_build(&h, NULL, 2000, 250, img, cap);
	if (fd < 0 || !len || ioctl(fd, I2C_SLAVE_FORCE, 0x24) < 0)
		return 1;
	s = bl_poll(fd, 0xc0, MXT_BL_WAITING_BOOTLOAD_CMD, 100);
	if (s < 0 || (s & 0xc0) != MXT_BL_WAITING_BOOTLOAD_CMD || write(fd, "\xdc\xaa", 2) != 2)
		return 1;
	while (pos < len) {
		size_t fl = (size_t)(img[pos] << 8 | img[pos + 1]) + 2;

		s = bl_poll(fd, 0xc0, MXT_BL_WAITING_FRAME_DATA, 100);
		if (s < 0 || (s & 0xc0) != MXT_BL_WAITING_FRAME_DATA ||
		    write(fd, img + pos, fl) != (ssize_t)fl)
			return 1;
		s = bl_poll(fd, 0xff, MXT_BL_FRAME_CRC_PASS, 100);
		if (s != MXT_BL_FRAME_CRC_PASS) {
			printf("frame %d: status 0x%02x\n", frames, s);
			return 1;
		}
		pos += fl;
		frames++;
	}
	printf("flashed %d frames\n", frames);
	g_free(img);
	close(fd);
	return 0;
}

static int child_main(int argc, char **argv)
{
	if (!strcmp(argv[0], "mxt-flash"))
		return flash_mxt224e("/dev/i2c-1");
	if (!strcmp(argv[0], "eeprom-cycle")) {
		int fd = open("/dev/i2c-1", O_RDWR);
		ssize_t r;

		if (fd < 0 || ioctl(fd, I2C_SLAVE_FORCE, 0x51) < 0)
			return 1;
		r = write(fd, "\x00\x11", 2);
		printf("write data -> %s\n", r == 2 ? "OK" : strerrorname_np(errno));
		r = write(fd, "\x00", 1);
		printf("write at once -> %s\n", r == 1 ? "OK" : strerrorname_np(errno));
		g_usleep(60000); /* past the EEPROM's modelled write cycle: time is the subject
				  */
		r = write(fd, "\x00", 1);
		printf("write after 60 ms -> %s\n", r == 1 ? "OK" : strerrorname_np(errno));
		return 0;
	}
	if (!strcmp(argv[0], "bigread") && argc > 1) {
		size_t n = strtoul(argv[1], NULL, 0);
		guint8 *buf = g_malloc(n);
		int fd = open("/dev/i2c-1", O_RDWR);
		gint64 t0;
		ssize_t r;

		if (fd < 0 || ioctl(fd, I2C_SLAVE_FORCE, 0x51) < 0)
			return 1;
		t0 = now_us();
		r = read(fd, buf, n);
		printf("read %zd in %" G_GINT64_FORMAT " us\n", r, now_us() - t0);
		g_free(buf);
		return 0;
	}
	if (!strcmp(argv[0], "timed-read") && argc > 3) {
		/* one I2C_RDWR read of N bytes from ADDR on DEV; prints when it
		 * returned (CLOCK_MONOTONIC, the same clock in every process) */
		size_t n = strtoul(argv[3], NULL, 0);
		guint8 *buf = g_malloc(n);
		struct i2c_msg m = { .addr = (guint16)strtoul(argv[2], NULL, 0),
				     .flags = I2C_M_RD,
				     .len = (guint16)n,
				     .buf = buf };
		struct i2c_rdwr_ioctl_data x = { .msgs = &m, .nmsgs = 1 };
		int fd = open(argv[1], O_RDWR), r;

		if (fd < 0)
			return 1;
		r = ioctl(fd, I2C_RDWR, &x);
		printf("returned %d at %" G_GINT64_FORMAT " us\n", r, now_us());
		g_free(buf);
		return 0;
	}
	if (!strcmp(argv[0], "chg-after-reset")) {
		struct tf_gpio_spec chg = { .line = -1, .name = "TS_CHG", .active_low = true };
		struct tf_gpio_spec rst = { .line = -1,
					    .name = "TS_RESET",
					    .active_low = true };
		struct tf_gpio_line *c = NULL, *r = NULL;
		struct tf_err err;
		gint64 t0;
		int e;

		if (tf_gpio_request_input(&chg, "t", &c, &err) ||
		    tf_gpio_request_output(&rst, 1, "t", &r, &err)) {
			printf("request: %s\n", err.msg);
			return 1;
		}
		/* reset held 10 ms, a pulse the chip takes (the test counts it
		 * in model time); its CHG edge was queued before the request
		 * was granted */
		g_usleep(10000);
		while (tf_gpio_wait_edge(c, 0) > 0)
			; /* CHG dropped when reset was asserted */
		t0 = now_us();
		tf_gpio_set(r, 0);
		e = tf_gpio_wait_edge(c, 2000);
		printf("edge %d after %" G_GINT64_FORMAT " us\n", e, now_us() - t0);
		tf_gpio_release(c);
		tf_gpio_release(r);
		return 0;
	}
	return 2;
}

/* ------------------------------------------------------------ tests */

#define PACING_BOARD "[board]\nname = pacing\ncompatible = t,pacing\n"
#define SPARE_EEPROM                                                  \
	"[chip spare]\nadapter = 1\naddress = 0x51\nmodel = eeprom\n" \
	"compatible = atmel,24c02\npower = always-on\n"               \
	"eeprom.write_cycle_ms = 50\n" /* a slow part: robust timing */

static const char eeprom_board[] = PACING_BOARD "[adapter 1]\nspeed = 100000\n" SPARE_EEPROM;
static const char slow_host_board[] = PACING_BOARD "[adapter 1]\nspeed = 100000\n"
						   "host_delay_us = 70000\n" SPARE_EEPROM;

static struct emub *board(const char *text, bool realtime)
{
	struct emub *eb = NULL;
	char err[256];

	assert_int_equal(emub_new_from_string(text, tu_top(), &eb, err, sizeof(err)), 0);
	emub_set_realtime(eb, realtime);
	assert_int_equal(emub_start(eb), 0);
	return eb;
}

static long number_after(const char *out, const char *prefix)
{
	const char *p = strstr(out, prefix);

	assert_non_null(p);
	return strtol(p + strlen(prefix), NULL, 10);
}

static void test_fast_pacing_skips_the_write_cycle(void **state)
{
	struct emub *eb = board(eeprom_board, false);
	const char *const args[] = { "eeprom-cycle", NULL };
	char *out;

	(void)state;
	assert_int_equal(tu_run_self(eb, &out, args), 0);
	assert_contains(out, "write data -> OK\nwrite at once -> OK\n");
	g_free(out);
	/* the 50 ms write cycle was skipped, not waited for (a host that
	 * was descheduled between the writes waited for part of it) */
	assert_true(emub_skipped_ns(eb, 1) + emub_idle_run_ns(eb, 1) >= 50000000);
	assert_true(emub_chip_busy_ns(eb, "spare") >= 50000000);
	emub_free(eb);
}

static void test_realtime_write_cycle_is_naked(void **state)
{
	struct emub *eb = board(eeprom_board, true);
	const char *const args[] = { "eeprom-cycle", NULL };
	char *out;

	(void)state;
	assert_int_equal(tu_run_self(eb, &out, args), 0);
	assert_contains(out,
			"write data -> OK\nwrite at once -> ENXIO\nwrite after 60 ms -> OK\n");
	g_free(out);
	assert_int_equal(emub_skipped_ns(eb, 1), 0);
	emub_free(eb);
}

/* Wire time the model counted for user-space transfers on adapter 1. */
static uint64_t user_bus_ns(struct emub *eb)
{
	struct emub_bus_counters u;

	assert_int_equal(emub_adapter_counters(eb, 1, &u, NULL), 0);
	return u.bus_ns;
}

static void test_realtime_transfer_lasts_its_wire_time(void **state)
{
	const char *const args[] = { "bigread", "4000", NULL };
	/* START + address/ACK + 9 bits per byte + STOP at 100 kHz */
	const long wire_us = (1 + 9 + 9 * 4000 + 1) * 10;
	const uint64_t wire_ns = (uint64_t)wire_us * 1000;
	struct emub *eb;
	uint64_t t0;
	char *out;
	long us;

	(void)state;
	eb = board(eeprom_board, true);
	t0 = emub_model_time_ns(eb);
	assert_int_equal(tu_run_self(eb, &out, args), 0);
	/* the read returns no earlier than its wire time... */
	us = number_after(out, "read 4000 in ");
	assert_true(us >= wire_us);
	g_free(out);
	/* ...which the model counts exactly (a longer one would be waited
	 * for too); model time is wall time, so it ran on past the wire time
	 * while the child started */
	assert_int_equal(user_bus_ns(eb), wire_ns);
	assert_true(emub_model_time_ns(eb) - t0 > wire_ns);
	emub_free(eb);

	/* fast: the same wire time, and model time moved by exactly that:
	 * no wall time (the child's start, a wait for the wire) counts */
	eb = board(eeprom_board, false);
	t0 = emub_model_time_ns(eb);
	assert_int_equal(tu_run_self(eb, &out, args), 0);
	assert_contains(out, "read 4000 in ");
	g_free(out);
	assert_int_equal(user_bus_ns(eb), wire_ns);
	assert_int_equal(emub_model_time_ns(eb) - t0, wire_ns);
	emub_free(eb);
}

/* Two adapters: a slow one with an EEPROM, a fast one with nothing on it. */
static const char two_bus_board[] = PACING_BOARD "[adapter 1]\nspeed = 100000\n"
						 "[adapter 2]\nspeed = 400000\n" SPARE_EEPROM;

static gint64 returned_at(struct emub_child *c)
{
	const char *p;
	int st;

	assert_int_equal(emub_child_wait(c, 20000, &st), 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	p = strstr(emub_child_stdout(c), " at ");
	assert_non_null(p);
	return g_ascii_strtoll(p + 4, NULL, 10);
}

/*
 * Realtime: a transfer completes when its own wire time is over, whatever
 * is on the wire of another bus.  A 8000-byte read at 100 kHz (720 ms) is
 * on bus 1 when an address-only transfer starts on bus 2: the short one
 * returns first.  (The completions thread used to sleep until the
 * earliest completion queued when it looked, so the short one waited for
 * the long one to end.)
 */
static void test_realtime_buses_complete_independently(void **state)
{
	const char *const long_args[] = { "timed-read", "/dev/i2c-1", "0x51", "8000", NULL };
	const char *const short_args[] = { "timed-read", "/dev/i2c-2", "0x77", "1", NULL };
	struct emub *eb = board(two_bus_board, true);
	struct emub_bus_counters u = { 0 };
	struct emub_child *lc, *sc;
	gint64 long_end, short_end;
	int i;

	(void)state;
	lc = tu_spawn_self(eb, long_args, NULL);
	/* wait until the long read is on the wire (the model ran it) */
	for (i = 0; i < 10000 && u.bytes_read < 8000; i++) {
		g_usleep(1000);
		assert_int_equal(emub_adapter_counters(eb, 1, &u, NULL), 0);
	}
	assert_int_equal(u.bytes_read, 8000);
	sc = tu_spawn_self(eb, short_args, NULL);
	short_end = returned_at(sc);
	long_end = returned_at(lc);
	assert_true(short_end < long_end);
	emub_child_free(sc);
	emub_child_free(lc);
	emub_free(eb);
}

/*
 * A request is served without umockdev's one thread waiting on the caller:
 * a client that stops answering while its I2C_RDWR argument is read (a
 * descheduled or stopped process) holds up no other bus.  The stalled
 * client speaks umockdev's preload protocol itself (libumockdev-preload.c:
 * requests and replies of three longs, READ_MEM answered with the bytes).
 */
static void test_a_stalled_client_holds_no_other_bus(void **state)
{
	const char *const args[] = { "timed-read", "/dev/i2c-2", "0x77", "1", NULL };
	struct emub *eb = board(two_bus_board, false);
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	unsigned long req[3] = { 1 /* IOCTL */, I2C_RDWR, 0x1000 }, rep[3];
	struct i2c_rdwr_ioctl_data none = { 0 }; /* no messages: EINVAL */
	struct emub_child *c;
	int fd, st, r;

	(void)state;
	g_snprintf(a.sun_path, sizeof(a.sun_path), "%s/ioctl/dev/i2c-1", emub_root(eb));
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(send(fd, req, sizeof(req), 0), sizeof(req));
	/* the emulator asks for the argument; no answer for now */
	assert_int_equal(recv(fd, rep, sizeof(rep), MSG_WAITALL), sizeof(rep));
	assert_int_equal(rep[0], 5 /* READ_MEM */);
	assert_int_equal(rep[1], 0x1000);
	assert_int_equal(rep[2], sizeof(none));

	c = tu_spawn_self(eb, args, NULL);
	r = emub_child_wait(c, 10000, &st);
	/* answer, so the stalled request ends either way: EINVAL, as i2c-dev */
	assert_int_equal(send(fd, &none, sizeof(none), 0), sizeof(none));
	assert_int_equal(recv(fd, rep, sizeof(rep), MSG_WAITALL), sizeof(rep));
	assert_int_equal(rep[0], 3 /* DONE */);
	assert_int_equal((long)rep[1], -1);
	assert_int_equal(rep[2], EINVAL);
	close(fd);
	assert_int_equal(r, 0); /* the other bus's transfer was served meanwhile */
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_contains(emub_child_stdout(c), "returned -1 at ");
	emub_child_free(c);
	emub_free(eb);
}

static void test_chg_edge_comes_when_the_chip_boots(void **state)
{
	const char *const args[] = { "chg-after-reset", NULL };
	static const char *const boards[] = {
		"[board]\nname = chg\ncompatible = t,chg\n[adapter 1]\n[chip touchscreen]\n"
		"adapter = 1\naddress = 0x4a\nmodel = mxt224e\ncompatible = atmel,maxtouch\n"
		"power = always-on\nreset_gpio = 0\nchg_gpio = 1\n"
		"[gpiochip]\nline.0 = TS_RESET\nline.1 = TS_CHG\n",
		"[board]\nname = chg\ncompatible = t,chg\n[adapter 1]\n[chip touchscreen]\n"
		"adapter = 1\naddress = 0x4a\nmodel = mxt224e\ncompatible = atmel,maxtouch\n"
		"power = always-on\nreset_gpio = 0\nchg_gpio = 1\nfault.slow_factor = 10\n"
		"[gpiochip]\nline.0 = TS_RESET\nline.1 = TS_CHG\n",
	};
	const uint64_t boot_ns = 40000000; /* the model's power_on_ns */
	struct emub *eb;
	uint64_t t0;
	char *out;
	long us;

	(void)state;
	/* realtime: the edge comes no earlier than the boot, and the chip was
	 * busy booting for exactly the modelled 40 ms (power_on_ns) */
	eb = board(boards[0], true);
	t0 = emub_model_time_ns(eb);
	assert_int_equal(tu_run_self(eb, &out, args), 0);
	us = number_after(out, "edge 1 after ");
	assert_true(us >= 39000);
	g_free(out);
	assert_int_equal(emub_chip_busy_ns(eb, "touchscreen"), boot_ns);
	/* model time is wall time: the child's 10 ms with reset held count */
	assert_true(emub_model_time_ns(eb) - t0 >= boot_ns + 10000000);
	emub_free(eb);
	/* slow_factor 10: 400 ms */
	eb = board(boards[1], true);
	assert_int_equal(tu_run_self(eb, &out, args), 0);
	us = number_after(out, "edge 1 after ");
	assert_true(us >= 399000);
	g_free(out);
	assert_int_equal(emub_chip_busy_ns(eb, "touchscreen"), 10 * boot_ns);
	emub_free(eb);
	/* fast: the wait jumps to the boot; model time moves by the boot
	 * time alone, not by the child's 10 ms sleep or any wall time */
	eb = board(boards[0], false);
	t0 = emub_model_time_ns(eb);
	assert_int_equal(tu_run_self(eb, &out, args), 0);
	assert_contains(out, "edge 1 after ");
	g_free(out);
	assert_int_equal(emub_chip_busy_ns(eb, "touchscreen"), boot_ns);
	assert_int_equal(emub_model_time_ns(eb) - t0, boot_ns);
	emub_free(eb);
}

static void test_counters_keep_driver_and_user_apart(void **state)
{
	struct emub *eb = tu_board_file("app.board", false);
	struct emub_bus_counters u, d;
	char *out;

	(void)state;
	assert_int_equal(emub_wait_idle(eb, "touchscreen", 10000), 0);
	assert_int_equal(emub_adapter_counters(eb, 1, &u, &d), 0);
	assert_int_equal(u.transactions, 0);
	assert_true(d.transactions > 10); /* the probe's own traffic */
	assert_int_equal(tu_sh(eb, &out, "i2ctransfer -f -y 1 w2@0x4a 0 0 r1"), 0);
	assert_string_equal(out, "0x81\n"); /* family id */
	g_free(out);
	assert_int_equal(emub_adapter_counters(eb, 1, &u, NULL), 0);
	assert_int_equal(u.transactions, 1);
	assert_int_equal(u.messages, 2);
	assert_int_equal(u.bytes_written, 2);
	assert_int_equal(u.bytes_read, 1);
	/* (1 + 9 + 2 * 9) + (1 + 9 + 9) + 1 bits at 400 kHz */
	assert_int_equal(u.bus_ns, 48 * 2500);
	emub_free(eb);
}

/* A host descheduled between transfers: in fast pacing each user-space
 * transfer starts host_delay_us of model time later; driver traffic and
 * the wire time are not affected. */
static void test_fast_pacing_host_delay(void **state)
{
	struct emub *eb = board(slow_host_board, false);
	uint64_t t0, wire0;
	char *out;

	(void)state;
	t0 = emub_model_time_ns(eb);
	wire0 = user_bus_ns(eb);
	assert_int_equal(tu_sh(eb, &out,
			       "i2ctransfer -f -y 1 w1@0x51 0 r1 && "
			       "i2ctransfer -f -y 1 w1@0x51 0 r1"),
			 0);
	g_free(out);
	/* two transfers, each 70 ms late, plus their wire time */
	assert_int_equal(emub_model_time_ns(eb) - t0,
			 2 * 70000000ULL + user_bus_ns(eb) - wire0);
	/* run-time change, 0 switches it off */
	assert_int_equal(emub_set_host_delay(eb, 1, 0), 0);
	assert_int_equal(emub_set_host_delay(eb, 1, 2000000), -EINVAL);
	assert_int_equal(emub_set_host_delay(eb, 7, 10), -EINVAL);
	t0 = emub_model_time_ns(eb);
	wire0 = user_bus_ns(eb);
	assert_int_equal(tu_sh(eb, &out, "i2ctransfer -f -y 1 w1@0x51 0 r1"), 0);
	g_free(out);
	assert_int_equal(emub_model_time_ns(eb) - t0, user_bus_ns(eb) - wire0);
	emub_free(eb);
}

/*
 * Fast pacing, a host's sleep is time for the chip too (issue 27, item 13):
 * after the last frame's verdict the chip still has its end-of-flash pulse
 * and its reset into the new firmware ahead; a tool that waits the chip's
 * boot time on the wall clock and reads the info block once finds the new
 * firmware, as in real time -- it got a NAK when only the next chip event
 * ran before each transfer.
 */
static const char mxt_no_image_board[] = PACING_BOARD
	"[adapter 1]\n[chip touchscreen]\nadapter = 1\naddress = 0x4a\n"
	"model = mxt224e\ncompatible = atmel,maxtouch\npower = always-on\n"
	"state = no-image\n";

static void test_fast_pacing_host_sleep_lets_the_chip_boot(void **state)
{
	struct emub *eb = board(mxt_no_image_board, false);
	const char *const args[] = { "mxt-flash", NULL };
	char *out;

	(void)state;
	assert_int_equal(tu_run_self(eb, &out, args), 0);
	assert_contains(out, "flashed ");
	g_free(out);
	/* end-of-flash pulse 1 ms, then the 60 ms reset into the app: 0.2 s
	 * of wall time is more than enough, and nothing else happens */
	assert_int_equal(tu_sh(eb, &out, "sleep 0.2; i2ctransfer -f -y 1 w2@0x4a 0 0 r4"), 0);
	assert_string_equal(out, "0x81 0x01 0x21 0x03\n");
	g_free(out);
	assert_true(emub_idle_run_ns(eb, 1) > 0);
	emub_free(eb);
}

static void test_stats_json(void **state)
{
	struct emub *eb = tu_board_file("demo.board", false);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(emub_write_stats_json(eb, f), 0);
	fclose(f);
	assert_contains(buf, "\"board\": \"touchfw emulated demo board\"");
	assert_contains(buf, "\"pacing\": \"fast\"");
	assert_contains(buf, "\"user\": {\"transactions\": 0,");
	assert_contains(buf, "\"model\": \"mxt224e\"");
	/* model init, power-up at probe, the probe's 0x01 0x01 */
	assert_contains(buf, "\"bootloader_entries\": 3");
	/* the 0x01 0x01 left the bootloader: a reset, not of the reset line */
	assert_contains(buf, "\"resets\": 1, \"hw_resets\": 0,");
	assert_contains(buf, "\"oopses\": []");
	free(buf);
	emub_free(eb);
}

static char *program(void)
{
	const char *b = getenv("TOUCHFW_BUILD");

	return b ? g_build_filename(b, "emuboard", NULL)
		 : g_build_filename(tu_top(), "build", "emuboard", NULL);
}

static void test_program_runs_command_and_writes_stats(void **state)
{
	char *prog = program(),
	     *board = g_strdup_printf("%s/tests/emul/boards/app.board", tu_top());
	char *dir = tu_tmpdir(), *stats = g_build_filename(dir, "stats.json", NULL),
	     *json = NULL;
	char *argv[] = { prog, "--stats", stats, board,
			 "--", "sh",	  "-c",	 "i2ctransfer -f -y 1 w2@0x4a 0 0 r1 && exit 7",
			 NULL };
	char *out = NULL;
	int st = 0;

	(void)state;
	assert_true(g_spawn_sync(NULL, argv, NULL, 0, NULL, NULL, &out, NULL, &st, NULL));
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 7);
	assert_string_equal(out, "0x81\n");
	assert_true(g_file_get_contents(stats, &json, NULL, NULL));
	assert_contains(
		json, "\"user\": {\"transactions\": 1, \"messages\": 2, \"bytes_written\": 2, "
		      "\"bytes_read\": 1");
	g_free(json);
	g_free(out);
	g_free(stats);
	tu_rmdir(dir);
	g_free(board);
	g_free(prog);
}

static void test_program_fails_loudly_on_oops(void **state)
{
	char *prog = program(),
	     *board = g_strdup_printf("%s/tests/emul/boards/demo.board", tu_top());
	char *argv[] = { prog, board, "--", "cat", "/sys/bus/i2c/devices/1-004a/hw_version",
			 NULL };
	char *err = NULL;
	int st = 0;

	(void)state;
	assert_true(g_spawn_sync(NULL, argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
				 &err, &st, NULL));
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 99);
	assert_contains(err, "the emulated kernel OOPSED");
	assert_contains(err, "hw_version");
	g_free(err);
	g_free(board);
	g_free(prog);
}

static void test_program_on_uevent_starts_after_boot(void **state)
{
	char *prog = program(),
	     *board = g_strdup_printf("%s/tests/emul/boards/app.board", tu_top());
	char *argv[] = { prog,
			 "--on-uevent",
			 "echo \"RUN $ACTION $SUBSYSTEM ${DRIVER:-none}\"",
			 board,
			 "--",
			 "sh",
			 "-c",
			 "echo add > /sys/bus/i2c/devices/1-004a/uevent",
			 NULL };
	char *out = NULL;
	int st = 0;

	(void)state;
	assert_true(g_spawn_sync(NULL, argv, NULL, 0, NULL, NULL, &out, NULL, &st, NULL));
	assert_int_equal(st, 0);
	/* the boot-time bind and input adds happened before "udevd" ran */
	assert_string_equal(out, "RUN add i2c atmel_mxt_ts\n");
	g_free(out);
	g_free(board);
	g_free(prog);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fast_pacing_skips_the_write_cycle),
		cmocka_unit_test(test_realtime_write_cycle_is_naked),
		cmocka_unit_test(test_realtime_transfer_lasts_its_wire_time),
		cmocka_unit_test(test_realtime_buses_complete_independently),
		cmocka_unit_test(test_a_stalled_client_holds_no_other_bus),
		cmocka_unit_test(test_chg_edge_comes_when_the_chip_boots),
		cmocka_unit_test(test_counters_keep_driver_and_user_apart),
		cmocka_unit_test(test_fast_pacing_host_delay),
		cmocka_unit_test(test_fast_pacing_host_sleep_lets_the_chip_boot),
		cmocka_unit_test(test_stats_json),
		cmocka_unit_test(test_program_runs_command_and_writes_stats),
		cmocka_unit_test(test_program_fails_loudly_on_oops),
		cmocka_unit_test(test_program_on_uevent_starts_after_boot),
	};

	if (argc > 2 && !strcmp(argv[1], "--child"))
		return child_main(argc - 2, argv + 2);
	tu_init(argv);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
