// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * touchfw's GPIO interface (agent/gpio.h, libgpiod 1.6 or 2 underneath, as
 * the build has it) from a child inside the board, its line requests
 * served by the board's GPIO socket through libemuboard-gpiod.so
 * (tests/emul/gpiod-preload.c, the kernel's uAPI): lines held by
 * the kernel driver model are busy, the reset output resets the chip, the
 * CHG input reports the chip's interrupt edges, and a line user space holds
 * makes the driver's probe fail, as with gpiolib.
 *
 * Child commands (one line of output each):
 *   in:SPEC  out:SPEC:VALUE  get:I  set:I:V  wait:I:MS  rel:I  drain  sleep:MS
 *   SPEC = name=NAME | chip=LABEL,line=N ; ",al" appended = active low
 */
#include <fcntl.h>
#include <gpiod.h>
#include <linux/i2c-dev.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

#include "emub-mxt.h"
#include "emub-testutil.h"
#include "gpio.h"
#include "mxt_model.h"

static void parse_spec(const char *s, struct tf_gpio_spec *spec)
{
	char **kv = g_strsplit(s, ",", -1);

	memset(spec, 0, sizeof(*spec));
	spec->line = -1;
	for (char **p = kv; *p; p++) {
		if (g_str_has_prefix(*p, "name="))
			g_strlcpy(spec->name, *p + 5, sizeof(spec->name));
		else if (g_str_has_prefix(*p, "chip="))
			g_strlcpy(spec->chip, *p + 5, sizeof(spec->chip));
		else if (g_str_has_prefix(*p, "line="))
			spec->line = atoi(*p + 5);
		else if (!strcmp(*p, "al"))
			spec->active_low = true;
	}
	g_strfreev(kv);
}

/* read and drop the chip's pending messages: T44 count, then T5 */
static int drain(void)
{
	int fd = open("/dev/i2c-1", O_RDWR);
	guint8 cnt = 0, msg[10];

	if (fd < 0 || ioctl(fd, I2C_SLAVE_FORCE, 0x4a) < 0)
		return -1;
	/* mxt224e preset: T44 at 0x00ea? ask the chip: info + object table */
	{
		guint8 tab[7 + 12 * 6];
		guint16 t44 = 0, t5 = 0;

		if (write(fd, "\0\0", 2) != 2 ||
		    read(fd, tab, sizeof(tab)) != (ssize_t)sizeof(tab))
			return -1;
		for (int i = 0; i < tab[6]; i++) {
			const guint8 *e = tab + 7 + i * 6;

			if (e[0] == 44)
				t44 = (guint16)(e[1] | e[2] << 8);
			if (e[0] == 5)
				t5 = (guint16)(e[1] | e[2] << 8);
		}
		do {
			guint8 p[2] = { t44 & 0xff, t44 >> 8 };

			if (write(fd, p, 2) != 2 || read(fd, &cnt, 1) != 1)
				return -1;
			p[0] = t5 & 0xff;
			p[1] = t5 >> 8;
			for (int i = 0; i < cnt; i++)
				if (write(fd, p, 2) != 2 || read(fd, msg, 9) != 9)
					return -1;
		} while (cnt);
	}
	close(fd);
	return 0;
}

static int child_gpio(int argc, char **argv)
{
	struct tf_gpio_line *lines[8] = { 0 };
	int n = 0;

	for (int i = 0; i < argc; i++) {
		char **a = g_strsplit(argv[i], ":", -1);
		struct tf_err err = { 0 };
		struct tf_gpio_spec spec;
		int r = 0;

		if (!strcmp(a[0], "in") || !strcmp(a[0], "out")) {
			parse_spec(a[1], &spec);
			if (!strcmp(a[0], "in"))
				r = tf_gpio_request_input(&spec, "test", &lines[n], &err);
			else
				r = tf_gpio_request_output(&spec, atoi(a[2]), "test", &lines[n],
							   &err);
			if (!r)
				n++;
		} else if (!strcmp(a[0], "get")) {
			r = tf_gpio_get(lines[atoi(a[1])]);
		} else if (!strcmp(a[0], "set")) {
			r = tf_gpio_set(lines[atoi(a[1])], atoi(a[2]));
		} else if (!strcmp(a[0], "wait")) {
			r = tf_gpio_wait_edge(lines[atoi(a[1])], atoi(a[2]));
		} else if (!strcmp(a[0], "rel")) {
			tf_gpio_release(lines[atoi(a[1])]);
			lines[atoi(a[1])] = NULL;
		} else if (!strcmp(a[0], "drain")) {
			r = drain();
		} else if (!strcmp(a[0], "sleep")) {
			g_usleep((gulong)atoi(a[1]) * 1000);
		}
		if (r < 0)
			printf("%s -> %s\n", argv[i], strerrorname_np(-r));
		else
			printf("%s -> %d\n", argv[i], r);
		fflush(stdout);
		g_strfreev(a);
	}
	for (int i = 0; i < 8; i++)
		tf_gpio_release(lines[i]);
	return 0;
}

/*
 * libgpiod directly, as a program other than touchfw would, with the API
 * of the libgpiod this build has (TF_GPIOD_MAJOR, from the Makefile).
 * libgpiod 1.6: a line is requested once per handle, closing its chip
 * releases it.  libgpiod 2: a request outlives its chip handle and ends
 * with its release.  Either way the kernel (here the board) refuses a
 * second request of a held line.
 */
#if TF_GPIOD_MAJOR >= 2
static struct gpiod_line_request *request_v2(struct gpiod_chip *chip, unsigned int offset,
					     const char *consumer)
{
	struct gpiod_line_settings *s = gpiod_line_settings_new();
	struct gpiod_line_config *lc = gpiod_line_config_new();
	struct gpiod_request_config *rc = gpiod_request_config_new();
	struct gpiod_line_request *r = NULL;

	if (s && lc && rc &&
	    !gpiod_line_settings_set_direction(s, GPIOD_LINE_DIRECTION_INPUT) &&
	    !gpiod_line_settings_set_edge_detection(s, GPIOD_LINE_EDGE_BOTH) &&
	    !gpiod_line_config_add_line_settings(lc, &offset, 1, s)) {
		gpiod_request_config_set_consumer(rc, consumer);
		r = gpiod_chip_request_lines(chip, rc, lc);
	}
	gpiod_line_settings_free(s);
	gpiod_line_config_free(lc);
	gpiod_request_config_free(rc);
	return r;
}

static const char *req_result(struct gpiod_line_request *r)
{
	return r ? "0" : strerrorname_np(errno);
}

static int child_libgpiod(void)
{
	struct gpiod_chip *ca = gpiod_chip_open("/dev/gpiochip0");
	struct gpiod_chip *cb = gpiod_chip_open("/dev/gpiochip0");
	struct gpiod_line_request *a, *b;
	int off;

	if (!ca || !cb)
		return printf("open: %s\n", strerror(errno)), 1;
	off = gpiod_chip_get_line_offset_from_name(ca, "TS_CHG");
	if (off < 0)
		return printf("find: %s\n", strerror(errno)), 1;
	a = request_v2(ca, (unsigned int)off, "a");
	printf("a in -> %s\n", req_result(a));
	b = request_v2(ca, (unsigned int)off, "a");
	printf("a again -> %s\n", req_result(b));
	b = request_v2(cb, (unsigned int)off, "b");
	printf("b while a holds it -> %s\n", req_result(b));
	gpiod_chip_close(ca); /* a's request stays */
	b = request_v2(cb, (unsigned int)off, "b");
	printf("b after a's chip closed -> %s\n", req_result(b));
	gpiod_line_request_release(a);
	b = request_v2(cb, (unsigned int)off, "b");
	printf("b after a released -> %s\n", req_result(b));
	printf("b value -> %d\n",
	       b ? (int)gpiod_line_request_get_value(b, (unsigned int)off) : -1);
	if (b)
		gpiod_line_request_release(b);
	gpiod_chip_close(cb);
	return 0;
}
#else
static int child_libgpiod(void)
{
	struct gpiod_line *a = gpiod_line_find("TS_CHG"), *b = gpiod_line_find("TS_CHG");

	if (!a || !b)
		return printf("find: %s\n", strerror(errno)), 1;
	printf("a in -> %d\n", gpiod_line_request_both_edges_events_flags(a, "a", 0));
	printf("a again -> %s\n",
	       gpiod_line_request_input(a, "a") < 0 ? strerrorname_np(errno) : "0");
	printf("b while a holds it -> %s\n",
	       gpiod_line_request_both_edges_events_flags(b, "b", 0) < 0
		       ? strerrorname_np(errno)
		       : "0");
	gpiod_line_close_chip(a); /* releases a's line */
	printf("b after a's chip closed -> %d\n",
	       gpiod_line_request_both_edges_events_flags(b, "b", 0));
	printf("b value -> %d\n", gpiod_line_get_value(b));
	gpiod_line_release(b);
	gpiod_line_close_chip(b);
	return 0;
}
#endif

/* ------------------------------------------------------------ tests */

static char *gpio(struct emub *eb, const char *const *cmds)
{
	GPtrArray *a = g_ptr_array_new();
	char *out = NULL;

	g_ptr_array_add(a, (char *)"gpio");
	for (; *cmds; cmds++)
		g_ptr_array_add(a, (char *)*cmds);
	g_ptr_array_add(a, NULL);
	assert_int_equal(tu_run_self(eb, &out, (const char *const *)a->pdata), 0);
	g_ptr_array_free(a, TRUE);
	return out;
}

static void test_lines_held_by_bound_driver_are_busy(void **state)
{
	struct emub *eb = tu_board_file("demo.board", false);
	const char *const cmds[] = { "out:name=TS_RESET,al:0", "in:name=TS_CHG,al", NULL };
	char *out = gpio(eb, cmds);

	(void)state;
	assert_contains(out, "out:name=TS_RESET,al:0 -> EBUSY");
	assert_contains(out, "in:name=TS_CHG,al -> EBUSY");
	g_free(out);
	assert_int_equal(emub_unbind(eb, "touchscreen"), 0);
	out = gpio(eb, cmds);
	assert_contains(out, "out:name=TS_RESET,al:0 -> 0");
	assert_contains(out, "in:name=TS_CHG,al -> 0");
	g_free(out);
	emub_free(eb);
}

static void test_reset_output_and_chg_edges_follow_the_chip(void **state)
{
	struct emub *eb = tu_board_file("always-on.board", false);
	const char *const cmds[] = { "in:chip=emuboard-gpio,line=1,al",
				     "out:chip=gpiochip0,line=0,al:1", /* hold in reset */
				     "get:0",
				     "wait:0:50",
				     "set:1:0", /* release: the chip boots, queues T6 */
				     "wait:0:500",
				     "get:0",
				     "drain", /* reading the messages releases CHG */
				     "wait:0:500",
				     "wait:0:50",
				     NULL };
	char *out;
	unsigned hw_resets;

	(void)state;
	assert_int_equal(emub_unbind(eb, "touchscreen"), 0);
	emub_lock(eb);
	hw_resets = mxt_model_stats(emub_chip_mxt(eb, "touchscreen"))->hw_resets;
	emub_unlock(eb);
	out = gpio(eb, cmds);
	assert_contains(out, "in:chip=emuboard-gpio,line=1,al -> 0");
	assert_contains(out, "get:0 -> 0\nwait:0:50 -> 0\n");
	assert_contains(out, "set:1:0 -> 0\nwait:0:500 -> 1\nget:0 -> 1\n");
	assert_contains(out, "drain -> 0\nwait:0:500 -> 2\nwait:0:50 -> 0\n");
	g_free(out);
	emub_lock(eb);
	assert_int_equal(mxt_model_mode(emub_chip_mxt(eb, "touchscreen")), MXT_MODE_APP);
	/* The line user space held reset the chip, once. */
	assert_int_equal(mxt_model_stats(emub_chip_mxt(eb, "touchscreen"))->hw_resets,
			 hw_resets + 1);
	emub_unlock(eb);
	emub_free(eb);
}

static void test_line_held_by_user_space_fails_the_probe(void **state)
{
	struct emub *eb = tu_board_file("always-on.board", false);
	const char *const args[] = { "gpio", "in:name=TS_CHG,al", "sleep:3000", NULL };
	struct emub_child *c;
	char *out = NULL;
	int held = 0;

	(void)state;
	assert_int_equal(emub_unbind(eb, "touchscreen"), 0);
	c = tu_spawn_self(eb, args, NULL);
	for (int i = 0; i < 200 && !held; i++) {
		tu_sh(eb, &out, "gpioinfo gpiochip0");
		held = g_regex_match_simple("\"TS_CHG\" +\"test\"", out, 0, 0);
		g_free(out);
		g_usleep(10000);
	}
	assert_true(held);
	/* devm_request_threaded_irq on a line user space watches: EBUSY */
	assert_int_equal(emub_bind(eb, "touchscreen"), -EBUSY);
	assert_false(emub_dev_bound(eb, "touchscreen"));
	emub_child_free(c); /* closing the connection releases the line */
	g_usleep(50000);
	assert_int_equal(emub_bind(eb, "touchscreen"), 0);
	emub_free(eb);
}

static void test_unknown_lines(void **state)
{
	struct emub *eb = tu_board_file("demo.board", false);
	const char *const cmds[] = { "in:name=NOPE", "in:chip=nochip,line=0",
				     "in:chip=emuboard-gpio,line=99", NULL };
	char *out = gpio(eb, cmds);

	(void)state;
	assert_contains(out, "in:name=NOPE -> ENOENT");
	/* libgpiod's lookup: neither a label nor a name in /dev */
	assert_contains(out, "in:chip=nochip,line=0 -> ENOENT");
	assert_contains(out, "in:chip=emuboard-gpio,line=99 -> EINVAL");
	g_free(out);
	emub_free(eb);
}

static void test_libgpiod_requests_and_close(void **state)
{
	struct emub *eb = tu_board_file("demo.board", false);
	const char *const args[] = { "libgpiod", NULL };
	char *out = NULL;

	(void)state;
	assert_int_equal(emub_unbind(eb, "touchscreen"), 0);
	assert_int_equal(tu_run_self(eb, &out, args), 0);
	assert_contains(out, "a in -> 0\n");
	/* the line is held: libgpiod 1.6 refuses its own handle's second
	 * request; the board, as the kernel, any second request */
	assert_contains(out, "a again -> EBUSY\n");
	assert_contains(out, "b while a holds it -> EBUSY\n");
#if TF_GPIOD_MAJOR >= 2
	assert_contains(out, "b after a's chip closed -> EBUSY\n");
	assert_contains(out, "b after a released -> 0\n");
#else
	assert_contains(out, "b after a's chip closed -> 0\n");
#endif
	/* CHG is not asserted: logical 0 on an input requested active high
	 * reads the physical level, high */
	assert_contains(out, "b value -> 1\n");
	g_free(out);
	emub_free(eb);
}

/* libgpiod's own lookups list /dev: through the shim they see the board's. */
static void test_libgpiod_lookups_see_the_board(void **state)
{
	struct emub *eb = tu_board_file("demo.board", false);
	char *out = NULL;

	(void)state;
	assert_int_equal(tu_sh(eb, &out, "gpiofind TS_CHG"), 0);
	assert_string_equal(out, "gpiochip0 1\n");
	g_free(out);
	assert_int_equal(tu_sh(eb, &out, "gpiodetect"), 0);
	assert_string_equal(out, "gpiochip0 [emuboard-gpio] (8 lines)\n");
	g_free(out);
	assert_int_equal(tu_sh(eb, &out, "gpioinfo emuboard-gpio | head -1"), 0);
	assert_string_equal(out, "gpiochip0 - 8 lines:\n");
	g_free(out);
	emub_free(eb);
}

/*
 * Without a board the shim hands every call to the real libgpiod: the
 * host's lookups answer (this machine has no such line or chip).
 */
static void test_without_a_board_calls_reach_libgpiod(void **state)
{
	char *argv[] = { tu_self,
			 "--child",
			 "gpio",
			 "in:name=TOUCHFW_NO_SUCH_LINE",
			 "in:chip=/dev/touchfw-no-such-chip,line=0",
			 NULL };
	char **env = g_environ_unsetenv(g_get_environ(), "UMOCKDEV_DIR");
	char *out = NULL;
	int st = -1;

	(void)state;
	env = g_environ_setenv(env, "LD_PRELOAD", emub_gpiod_preload(), TRUE);
	env = g_environ_setenv(env, "EMUB_NO_REEXEC", "1", TRUE);
	assert_true(g_spawn_sync(NULL, argv, env, 0, NULL, NULL, &out, NULL, &st, NULL));
	assert_int_equal(st, 0);
	assert_contains(out, "in:name=TOUCHFW_NO_SUCH_LINE -> ENOENT");
	assert_contains(out, "in:chip=/dev/touchfw-no-such-chip,line=0 -> ENOENT");
	g_free(out);
	g_strfreev(env);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_held_by_bound_driver_are_busy),
		cmocka_unit_test(test_reset_output_and_chg_edges_follow_the_chip),
		cmocka_unit_test(test_line_held_by_user_space_fails_the_probe),
		cmocka_unit_test(test_unknown_lines),
		cmocka_unit_test(test_libgpiod_lookups_see_the_board),
		cmocka_unit_test(test_libgpiod_requests_and_close),
		cmocka_unit_test(test_without_a_board_calls_reach_libgpiod),
	};

	if (argc > 2 && !strcmp(argv[1], "--child") && !strcmp(argv[2], "gpio"))
		return child_gpio(argc - 3, argv + 3);
	if (argc > 2 && !strcmp(argv[1], "--child") && !strcmp(argv[2], "libgpiod"))
		return child_libgpiod();
	tu_init(argv);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
