// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * touchfw's spidev transport (agent/spi.c) on the emulated spi bus: the
 * agent's own code runs in a child inside the board (this program as
 * "--child"), the emulator counts what reached the wire.
 *
 * - transactions longer than spidev's bufsiz are split into messages
 *   within it, the data intact and the chip selected once throughout;
 * - a gap (delay_us + cs_change) deselects the chip, also where it falls
 *   on a split;
 * - bufsiz is read from /sys/module/spidev/parameters/bufsiz;
 * - getting a node: spidev is bound through driver_override on an unbound
 *   device and exactly that is undone; a device already bound to spidev
 *   is used and left so; a foreign driver_override or a missing device
 *   are refused with nothing changed.
 */
#include <fcntl.h>
#include <linux/spi/spidev.h>
#include <sys/ioctl.h>

#include "emub-testutil.h"
#include "emuboard-spi.h"
#include "spi.h"

/* ------------------------------------------------------------ child */

static int child_transport(const char *node, const char *what)
{
	struct tf_spi s;
	struct tf_err err = { 0 };
	uint8_t tx[300], rx[300];
	uint32_t loop;
	int r;

	if (tf_spi_open(&s, node, NULL, &err) < 0) {
		printf("open: %s\n", err.msg);
		return 1;
	}
	printf("bufsiz=%zu\n", s.bufsiz);
	loop = s.mode | SPI_LOOP;
	if (ioctl(s.fd, SPI_IOC_WR_MODE32, &loop) < 0) {
		printf("loop: %s\n", strerror(errno));
		return 1;
	}
	for (unsigned i = 0; i < sizeof(tx); i++)
		tx[i] = (uint8_t)(i * 7 + 1);
	memset(rx, 0, sizeof(rx));
	if (!strcmp(what, "long")) {
		r = tf_spi_transfer(&s, tx, rx, sizeof(tx));
		printf("long: %d same=%d messages=%llu\n", r, !memcmp(tx, rx, sizeof(tx)),
		       (unsigned long long)s.stats.messages);
	} else if (!strcmp(what, "gap")) {
		struct tf_spi_xfer x[2] = {
			{ .tx = tx, .len = 6, .delay_us = 1000, .cs_change = true },
			{ .tx = tx + 6, .rx = rx, .len = 10 },
		};

		r = tf_spi_message(&s, x, 2);
		printf("gap: %d same=%d messages=%llu\n", r, !memcmp(tx + 6, rx, 10),
		       (unsigned long long)s.stats.messages);
	} else if (!strcmp(what, "gapsplit")) {
		struct tf_spi_xfer x[2] = {
			{ .tx = tx, .len = 64, .cs_change = true },
			{ .tx = tx + 64, .rx = rx, .len = 10 },
		};

		r = tf_spi_message(&s, x, 2);
		printf("gapsplit: %d messages=%llu\n", r, (unsigned long long)s.stats.messages);
	}
	tf_spi_close(&s);
	return 0;
}

static int child_claim(const char *dev)
{
	struct tf_spidev_claim c;
	struct tf_err err = { 0 };
	int r = tf_spidev_claim(dev, &c, 2000, &err);

	printf("claim: %d %s node=%s override=%d bound=%d\n", r, r ? err.msg : "",
	       r ? "" : c.node, c.set_override, c.bound_spidev);
	if (r == 0 && access(c.node, F_OK) == 0)
		printf("node exists\n");
	r = tf_spidev_release(&c, &err);
	printf("release: %d\n", r);
	return 0;
}

static int child_run(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[0], "transport"))
		return child_transport(argv[1], argv[2]);
	if (argc == 2 && !strcmp(argv[0], "claim"))
		return child_claim(argv[1]);
	return 2;
}

/* ------------------------------------------------------------ tests */

static const char board[] = "[board]\nname = spi-transport\ncompatible = t,spi\n"
			    "[spi 2]\nmax_speed_hz = 8000000\nnum_cs = 4\n"
			    "[spi-chip free]\nbus = 2\nchip_select = 0\n"
			    "[spi-chip raw]\nbus = 2\nchip_select = 1\ndriver = spidev\n"
			    "[spi-chip taken]\nbus = 2\nchip_select = 2\n"
			    "[spidev]\nbufsiz = 64\n";

static char *child(struct emub *eb, const char *const *args)
{
	char *out = NULL;

	assert_int_equal(tu_run_self(eb, &out, args), 0);
	return out;
}

static void test_long_transfer_split_within_bufsiz_one_select(void **state)
{
	struct emub *eb = tu_board_text(board);
	const char *const args[] = { "transport", "/dev/spidev2.1", "long", NULL };
	struct emub_spi_stats st;
	char *out;

	(void)state;
	out = child(eb, args);
	assert_contains(out, "bufsiz=64\n");
	/* 300 bytes: four pieces of 64 and one of 44, each a message */
	assert_contains(out, "long: 0 same=1 messages=5\n");
	g_free(out);
	assert_int_equal(emub_spi_stats(eb, 2, &st), 0);
	assert_int_equal(st.bytes, 300);
	assert_int_equal(st.selects, 1); /* one transaction on the wire */
	assert_false(emub_spi_selected(eb, "raw"));
	emub_free(eb);
}

static void test_gaps_deselect_also_on_a_split(void **state)
{
	struct emub *eb = tu_board_text(board);
	const char *const gap[] = { "transport", "/dev/spidev2.1", "gap", NULL };
	const char *const split[] = { "transport", "/dev/spidev2.1", "gapsplit", NULL };
	struct emub_spi_stats st;
	char *out;

	(void)state;
	out = child(eb, gap);
	assert_contains(out, "gap: 0 same=1 messages=1\n");
	g_free(out);
	assert_int_equal(emub_spi_stats(eb, 2, &st), 0);
	assert_int_equal(st.selects, 2);
	assert_int_equal(st.cs_changes, 1);
	assert_true(st.wire_ns >= 1000000);
	out = child(eb, split);
	/* 64 bytes fill bufsiz: the gap falls on the split */
	assert_contains(out, "gapsplit: 0 messages=2\n");
	g_free(out);
	assert_int_equal(emub_spi_stats(eb, 2, &st), 0);
	assert_int_equal(st.selects, 4);
	assert_false(emub_spi_selected(eb, "raw"));
	emub_free(eb);
}

static void test_claim_binds_spidev_and_release_undoes_it(void **state)
{
	struct emub *eb = tu_board_text(board);
	const char *const args[] = { "claim", "spi2.0", NULL };
	char *out, buf[64], *s;

	(void)state;
	out = child(eb, args);
	assert_contains(out, "claim: 0  node=/dev/spidev2.0 override=1 bound=1\nnode exists\n");
	assert_contains(out, "release: 0\n");
	g_free(out);
	assert_int_equal(emub_spi_driver(eb, "free", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	assert_int_equal(emub_spi_driver_override(eb, "free", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	s = tu_sys_read(eb, "bus/spi/devices/spi2.0/driver_override");
	assert_string_equal(s, "(null)\n");
	g_free(s);
	emub_free(eb);
}

static void test_claim_uses_a_bound_spidev_and_leaves_it(void **state)
{
	struct emub *eb = tu_board_text(board);
	const char *const args[] = { "claim", "spi2.1", NULL };
	char *out, buf[64];

	(void)state;
	out = child(eb, args);
	assert_contains(out, "claim: 0  node=/dev/spidev2.1 override=0 bound=0\nnode exists\n");
	g_free(out);
	assert_int_equal(emub_spi_driver(eb, "raw", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "spidev");
	emub_free(eb);
}

static void test_claim_refusals_change_nothing(void **state)
{
	struct emub *eb = tu_board_text(board);
	const char *const missing[] = { "claim", "spi2.3", NULL };
	const char *const foreign[] = { "claim", "spi2.2", NULL };
	char *out, buf[64];

	(void)state;
	out = child(eb, missing);
	assert_contains(out, "no such spi device (/sys/bus/spi/devices/spi2.3)");
	g_free(out);
	/* somebody else's driver_override is left alone */
	tu_sys_write(eb, "bus/spi/devices/spi2.2/driver_override", "vendor_tool\n");
	emub_spi_settle(eb);
	out = child(eb, foreign);
	assert_contains(out, "driver_override is \"vendor_tool\"; somebody else chose");
	g_free(out);
	assert_int_equal(emub_spi_driver_override(eb, "taken", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "vendor_tool");
	assert_int_equal(emub_spi_driver(eb, "taken", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	emub_free(eb);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_transfer_split_within_bufsiz_one_select),
		cmocka_unit_test(test_gaps_deselect_also_on_a_split),
		cmocka_unit_test(test_claim_binds_spidev_and_release_undoes_it),
		cmocka_unit_test(test_claim_uses_a_bound_spidev_and_leaves_it),
		cmocka_unit_test(test_claim_refusals_change_nothing),
	};

	if (argc > 1 && !strcmp(argv[1], "--child"))
		return child_run(argc - 2, argv + 2);
	tu_init(argv);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
