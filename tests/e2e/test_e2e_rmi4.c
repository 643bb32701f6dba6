// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End to end on an emulated Synaptics RMI4 touchpad on SMBus: the real
 * touchfw binaries inside an emulated board, judged by the chip model
 * (tests/emul/family/rmi4/model/rmi4_model.c) and the model of rmi_smbus +
 * rmi_core (tests/emul/family/rmi4/drv_rmi_smbus.c), written apart from
 * the agent.  touchfw stages the image, writes its name to rmi4-NN's
 * update_fw, resets the chip out of the bootloader rmi_smbus leaves it in
 * (F01's reset over SMBus with the driver let go), binds rmi4_smbus again
 * and checks the new build id.  The same part on plain I2C (rmi4_i2c):
 * updated through update_fw with no reset of touchfw's (rmi_core's
 * re-probe resets it), and identified unbound with nothing written but
 * the page select and register pointers.  A part with the F34 v5
 * bootloader, updated from either mode through the same update_fw, and
 * images for the other bootloader refused before it.
 */
#include "emub-rmi4.h"
#include "e2e.h"

#include <glob.h>

#include "eeprom_model.h"
#include "emub-eeprom.h"
#include "exitcode.h"
#include "rmi4_model.h"

#define DEV "1-002c"

static struct e2e E;
/* The emulator's log (E.dir/emuboard.log): its uevents, "uevent bind
 * /devices/... (i2c) seq N -> ...", are the driver core's binds. */

#define expect_rc(want, ...)                                                                  \
	do {                                                                                  \
		int rc_ = e2e_touchfw(&E, __VA_ARGS__);                                       \
		if (rc_ != (want))                                                            \
			fprintf(stderr, "exit %d, expected %d; touchfw said:\n%s\n%s\n", rc_, \
				(int)(want), E.out ? E.out : "", E.err ? E.err : "");         \
		assert_int_equal(rc_, (want));                                                \
	} while (0)

static int teardown(void **state)
{
	(void)state;
	e2e_stop(&E);
	return 0;
}

/* The board: a chip at 0x2c on an SMBus adapter with Host Notify, its
 * model and keys @chip_keys, bound by rmi4_smbus. */
static void prepare_smbus(const char *chip_keys)
{
	char *b = NULL;

	assert_true(asprintf(&b,
			     "[board]\n"
			     "name = touchfw e2e RMI4 touchpad board\n"
			     "compatible = touchfw,emul-rmi4\n"
			     "pacing = fast\n"
			     "[adapter 1]\n"
			     "name = touchfw emulated adapter 1\n"
			     "host_notify = true\n"
			     "[chip touchpad]\n"
			     "adapter = 1\n"
			     "address = 0x2c\n"
			     "%s"
			     "compatible = synaptics,rmi4_smbus\n"
			     "driver = rmi4_smbus\n"
			     "power = always-on\n",
			     chip_keys) > 0);
	e2e_prepare(&E, b, NULL);
	free(b);
}

/* The touchpad at 0x2c on an SMBus adapter with Host Notify, @extra chip
 * keys; with @trace every bus transfer in the board's log. */
static void start_ex(const char *extra, bool trace)
{
	char *keys = NULL;

	assert_true(asprintf(&keys, "model = rmi4\n%s", extra ? extra : "") > 0);
	prepare_smbus(keys);
	free(keys);
	e2e_log_on(&E, trace);
	e2e_go(&E);
	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 10000), 0);
}

static void start(const char *extra)
{
	start_ex(extra, false);
}

/* The same touchpad on plain I2C (rmi4.bus = i2c): "syna,rmi4-i2c",
 * bound by rmi4_i2c, its ATTN a level on a GPIO line; @extra chip keys. */
static void start_i2c(const char *extra, bool trace)
{
	char *b = NULL;

	assert_true(asprintf(&b,
			     "[board]\n"
			     "name = touchfw e2e RMI4 touchpad board (I2C)\n"
			     "compatible = touchfw,emul-rmi4\n"
			     "pacing = fast\n"
			     "[adapter 1]\n"
			     "name = touchfw emulated adapter 1\n"
			     "[chip touchpad]\n"
			     "adapter = 1\n"
			     "address = 0x2c\n"
			     "model = rmi4\n"
			     "rmi4.bus = i2c\n"
			     "compatible = syna,rmi4-i2c\n"
			     "driver = rmi4_i2c\n"
			     "chg_gpio = 1\n"
			     "irq_type = level\n"
			     "power = always-on\n"
			     "%s"
			     "[gpiochip]\n"
			     "label = emuboard-gpio\n"
			     "lines = 4\n"
			     "line.1 = TP_ATTN\n",
			     extra ? extra : "") > 0);
	e2e_prepare(&E, b, NULL);
	free(b);
	e2e_log_on(&E, trace);
	e2e_go(&E);
	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 10000), 0);
}

/* The touchpad's uevents of @action ("bind", "unbind") the emulator's
 * driver core has sent so far (the function devices below it have none
 * of their own here). */
static unsigned uevents(const char *action)
{
	char path[400], sys[300], needle[400], *log = NULL;
	const char *p;
	size_t len;
	unsigned n = 0;

	assert_int_equal(emub_wait_board_idle(E.eb, 60000), 0);
	assert_int_equal(emub_dev_syspath(E.eb, "touchpad", sys, sizeof(sys)), 0);
	snprintf(needle, sizeof(needle), "uevent %s %s (i2c)", action, sys + strlen("/sys"));
	snprintf(path, sizeof(path), "%s/emuboard.log", E.dir);
	fflush(E.board_log);
	assert_int_equal(tf_read_file(path, 64 << 20, &log, &len), 0);
	for (p = log; (p = strstr(p, needle)); p++)
		n++;
	free(log);
	return n;
}

struct chip {
	enum rmi4_model_mode mode;
	unsigned build;
	struct rmi4_model_stats stats;
};

static struct chip chip(void)
{
	struct rmi4_model *m;
	struct chip c;

	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 20000), 0);
	emub_lock(E.eb);
	m = emub_chip_rmi4(E.eb, "touchpad");
	assert_non_null(m);
	c.mode = rmi4_model_mode(m);
	c.build = rmi4_model_build_id(m);
	c.stats = *rmi4_model_stats(m);
	emub_unlock(E.eb);
	return c;
}

static void test_older_build_is_flashed_reset_and_rebound(void **state)
{
	struct chip c;
	long long t0;
	unsigned binds, unbinds;

	(void)state;
	start(NULL);
	assert_int_equal(chip().build, 0x1e0f00);
	binds = uevents("bind");
	unbinds = uevents("unbind");
	t0 = e2e_now_ms();
	expect_rc(0, "run", DEV);
	fprintf(stderr, "rmi4 e2e: run to verified input device: %lld ms\n", e2e_now_ms() - t0);
	e2e_said(&E, "update_fw");
	e2e_said(&E, "the chip runs its application after update_fw");
	e2e_said(&E, "1970960");
	c = chip();
	assert_int_equal(c.mode, RMI4_MODEL_APP);
	assert_int_equal(c.build, 1970960);
	assert_true(c.stats.blocks_written > 0);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	/* one unbind and one bind: the one that follows F01's reset (the
	 * rebind after update_fw is that one, not another) */
	assert_int_equal(uevents("unbind") - unbinds, 1);
	assert_int_equal(uevents("bind") - binds, 1);
	expect_rc(0, "run", DEV);
	e2e_said(&E, "running 1970960");
	assert_int_equal(uevents("bind") - binds, 1);
}

static void test_chip_in_bootloader_is_brought_back(void **state)
{
	struct chip c;
	unsigned binds;

	(void)state;
	start("rmi4.build_id = 0\n");
	assert_int_equal(chip().mode, RMI4_MODEL_BL);
	binds = uevents("bind");
	expect_rc(0, "run", DEV);
	assert_int_equal(uevents("bind") - binds, 1);
	assert_int_equal(uevents("unbind"), 1);
	c = chip();
	assert_int_equal(c.mode, RMI4_MODEL_APP);
	assert_int_equal(c.build, 1970960);
}

/* The function devices rmi_core made below rmi4-NN now, "fn01 fn12
 * fn34" (from the board's sysfs, as the agent reads it). */
static void functions(char *out, size_t size)
{
	char sys[300], pattern[400];
	glob_t g;
	size_t i;

	assert_int_equal(emub_dev_syspath(E.eb, "touchpad", sys, sizeof(sys)), 0);
	snprintf(pattern, sizeof(pattern), "%s/sys%s/rmi4-*/rmi4-*.fn*", emub_root(E.eb),
		 sys + strlen("/sys"));
	out[0] = '\0';
	if (glob(pattern, 0, NULL, &g) != 0)
		return;
	for (i = 0; i < g.gl_pathc; i++) {
		const char *fn = strrchr(g.gl_pathv[i], '.') + 1;

		snprintf(out + strlen(out), size - strlen(out), "%s%s", out[0] ? " " : "", fn);
	}
	globfree(&g);
}

/* Newer parts have F12 as their 2D function instead of F11: the
 * application's PDT lists it, the bootloader's does not; touchfw takes
 * F12 for the application as it takes F11, in both directions: an older
 * build flashed and verified, and a part in its bootloader brought back
 * to F12. */
static void test_f12_part_is_updated_and_judged_by_its_functions(void **state)
{
	char fns[64];
	struct chip c;
	unsigned binds;

	(void)state;
	start("rmi4.touch = f12\n");
	functions(fns, sizeof(fns));
	assert_string_equal(fns, "fn01 fn12 fn34");
	expect_rc(0, "run", "--dry-run", DEV);
	e2e_said(&E, "application mode: hardware s3203, firmware 1969920");
	binds = uevents("bind");
	expect_rc(0, "run", DEV);
	e2e_said(&E, "verified: firmware 1969920 -> 1970960");
	assert_int_equal(uevents("bind") - binds, 1);
	c = chip();
	assert_int_equal(c.mode, RMI4_MODEL_APP);
	assert_int_equal(c.build, 1970960);
	functions(fns, sizeof(fns));
	assert_string_equal(fns, "fn01 fn12 fn34");
	teardown(state);

	start("rmi4.touch = f12\nrmi4.build_id = 0\n");
	functions(fns, sizeof(fns));
	assert_string_equal(fns, "fn01 fn34");
	expect_rc(0, "run", DEV);
	e2e_said(&E, "its PDT lists F01 and F34 only: bootloader mode");
	e2e_said(&E, "verified: firmware (bootloader) -> 1970960");
	functions(fns, sizeof(fns));
	assert_string_equal(fns, "fn01 fn12 fn34");
	assert_int_equal(chip().build, 1970960);
}

/* rmi_i2c: touchfw updates the part through rmi4_i2c's update_fw as it
 * does rmi4_smbus's; rmi_core's re-probe reset the chip itself (F01's
 * reset: rmi_i2c has no transport reset), so touchfw sends nothing over
 * the bus; from the bootloader too. */
static void test_i2c_part_is_updated_through_update_fw(void **state)
{
	struct chip c;
	unsigned resets;

	(void)state;
	start_i2c(NULL, false);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	expect_rc(0, "run", "--dry-run", DEV);
	e2e_said(&E, "application mode: hardware s3203, firmware 1969920");
	e2e_said(&E, "driver rmi4_i2c");
	resets = chip().stats.resets;
	expect_rc(0, "run", DEV);
	e2e_said(&E, "asking rmi4_i2c to flash it (update_fw)");
	e2e_said(&E, "verified: firmware 1969920 -> 1970960");
	e2e_not_said(&E, "letting go of");
	c = chip();
	assert_int_equal(c.mode, RMI4_MODEL_APP);
	assert_int_equal(c.build, 1970960);
	assert_int_equal(c.stats.bl_entries, 1);
	assert_true(c.stats.resets > resets); /* rmi_core's, not touchfw's */
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	expect_rc(0, "run", DEV);
	e2e_said(&E, "running 1970960");
	teardown(state);

	start_i2c("rmi4.build_id = 0\n", false);
	assert_int_equal(chip().mode, RMI4_MODEL_BL);
	expect_rc(0, "run", DEV);
	e2e_said(&E, "its PDT lists F01 and F34 only: bootloader mode");
	e2e_said(&E, "verified: firmware (bootloader) -> 1970960");
	c = chip();
	assert_int_equal(c.mode, RMI4_MODEL_APP);
	assert_int_equal(c.build, 1970960);
}

static void assert_untouched(unsigned build)
{
	struct chip c = chip();

	assert_int_equal(c.mode, RMI4_MODEL_APP);
	assert_int_equal(c.build, build);
	assert_int_equal(c.stats.blocks_written, 0);
	assert_int_equal(c.stats.erases, 0);
	assert_int_equal(c.stats.bl_entries, 0);
}

/* Is this lone write message rmi_i2c's page select of page 0 (0xff,
 * 0x00)? */
static bool page0_select(const char *line, size_t n)
{
	return memmem(line, n, " w2@2c=ff 00 ", 13) != NULL;
}

/* Is it rmi_smbus's mapping entry for a read: a block write to command
 * 0x80 + i (i < 8) of 4 bytes, LE16 address, count, flags without write
 * enable (bit 0)?  In the trace: w6@2c=8i 04 lo hi count flags. */
static bool smbus_read_map(const char *line, size_t n)
{
	const char *w = memmem(line, n, " w6@2c=", 7);
	unsigned b[6], i;
	char *end;

	if (!w)
		return false;
	w += 7;
	for (i = 0; i < 6; i++) {
		b[i] = (unsigned)strtoul(w, &end, 16);
		if (end == w)
			return false;
		w = end;
	}
	return b[0] >= 0x80 && b[0] <= 0x87 && b[1] == 4 && !(b[5] & 1);
}

/*
 * The board's trace so far (e2e_log_on with trace): every transfer of
 * touchfw's (user space) to 0x2c is a read -- one short write (a
 * register pointer, a command byte) then the read, in one transfer -- or
 * a lone write @allowed takes as the identification's own.  Returns the
 * lone writes; @reads the reads.
 */
static unsigned user_writes(bool (*allowed)(const char *line, size_t n), unsigned *reads)
{
	char path[400], *log = NULL, *line;
	size_t len;
	unsigned lone = 0;

	*reads = 0;
	fflush(E.board_log);
	snprintf(path, sizeof(path), "%s/emuboard.log", E.dir);
	assert_int_equal(tf_read_file(path, 64 << 20, &log, &len), 0);
	e2e_keep(&E, log);
	for (line = log; *line;) {
		size_t n = strcspn(line, "\n");

		if (memmem(line, n, "i2c-1 user:", 11) && memmem(line, n, "@2c", 3)) {
			if (memmem(line, n, " r", 2)) {
				(*reads)++;
				if (!memmem(line, n, " w1@", 4))
					fail_msg("more than a pointer: %.*s", (int)n, line);
			} else {
				lone++;
				if (!allowed(line, n))
					fail_msg("a write but the identification's: %.*s",
						 (int)n, line);
			}
		}
		line += n + (line[n] ? 1 : 0);
	}
	return lone;
}

/* A board profile for the I2C board: driver rmi4_i2c (the example
 * profile is the SMBus board's, rmi4_smbus). */
static void profile_i2c(void)
{
	char path[400], cmd[1200];

	snprintf(E.boards, sizeof(E.boards), "%s/boards", E.dir);
	assert_int_equal(mkdir(E.boards, 0755), 0);
	snprintf(path, sizeof(path), "%s/emul-rmi4-i2c.dts", E.dir);
	e2e_write(path, "/dts-v1/;\n"
			"/ {\n"
			"\ttouchfw,profile-version = <1>;\n"
			"\tmodel = \"touchfw emulated laptop, RMI4 touchpad on I2C\";\n"
			"\tboard-compatible = \"touchfw,emul-rmi4\";\n"
			"\tcontrollers {\n"
			"\t\t#address-cells = <1>;\n"
			"\t\t#size-cells = <0>;\n"
			"\t\ttouchpad@2c {\n"
			"\t\t\tfamily = \"rmi4\";\n"
			"\t\t\tbus = \"i2c\";\n"
			"\t\t\tadapter-name = \"touchfw emulated adapter 1\";\n"
			"\t\t\treg = <0x2c>;\n"
			"\t\t\tdriver = \"rmi4_i2c\";\n"
			"\t\t\tpower = \"always-on\";\n"
			"\t\t};\n"
			"\t};\n"
			"};\n");
	snprintf(cmd, sizeof(cmd), "dtc -q -I dts -O dtb -o '%s/emul-rmi4-i2c.dtb' '%s'",
		 E.boards, path);
	assert_int_equal(system(cmd), 0);
	e2e_settings(&E, NULL);
}

/*
 * Unbound on plain I2C, a read-only run identifies the part as rmi_i2c
 * would: page 0 selected (the one lone write: 0xff, 0x00), then the PDT
 * and F01's queries up to the build id, as rmi_f01 reads them, and its
 * status, read with one-byte register pointers; nothing else written,
 * the chip not reset.  The dry run shows the build.
 */
static void test_i2c_unbound_part_is_identified_writing_only_page_and_pointers(void **state)
{
	unsigned lone, reads;

	(void)state;
	start_i2c("bound = false\n", true);
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	/* the example profile names rmi4_smbus, which does not speak to
	 * this client: the part is identified, and left */
	expect_rc(TF_EXIT_UNSUPPORTED, "run", "--dry-run", DEV);
	e2e_said(&E, "application mode: hardware s3203, firmware 1969920");
	e2e_said(&E, "can not flash over the bus");
	lone = user_writes(page0_select, &reads);
	assert_true(lone >= 1);
	assert_true(reads >= 4);
	assert_int_equal(chip().stats.resets, 0);
	assert_int_equal(chip().mode, RMI4_MODEL_APP);
}

/*
 * Unbound on plain I2C and running the database's build: the dry run and
 * the run say so from F01's build id, and the run leaves the part as it
 * found it -- unbound, nothing written but the page select and register
 * pointers (the old agent bound rmi4_i2c first, whose probe writes F01).
 */
static void test_i2c_unbound_part_running_the_database_build_is_left_unbound(void **state)
{
	unsigned lone, reads, binds;

	(void)state;
	start_i2c("bound = false\nrmi4.build_id = 1970960\n", true);
	profile_i2c();
	binds = uevents("bind");
	expect_rc(TF_EXIT_OK, "run", "--dry-run", DEV);
	e2e_said(&E, "application mode: hardware s3203, firmware 1970960");
	e2e_said(&E, "up to date (firmware 1970960)");
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "RMI4 on I2C at 0x2c: product s3203, build 1970960");
	e2e_said(&E, "up to date (firmware 1970960)");
	assert_int_equal(uevents("bind") - binds, 0);
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	lone = user_writes(page0_select, &reads);
	assert_true(lone >= 2);
	assert_true(reads >= 8);
	assert_untouched(1970960);
	assert_int_equal(chip().stats.resets, 0);
}

/*
 * Unbound on plain I2C with an older build: the dry run names the way
 * (rmi4_i2c's update_fw, bound first); the run binds rmi4_i2c only then,
 * and updates and verifies the part.  From the bootloader the build is
 * not known (F01 there is the bootloader's): said so, and the part
 * brought back as from a bound one.
 */
static void test_i2c_unbound_older_build_is_bound_for_update_fw(void **state)
{
	struct chip c;

	(void)state;
	start_i2c("bound = false\n", false);
	profile_i2c();
	expect_rc(TF_EXIT_OK, "run", "--dry-run", DEV);
	e2e_said(&E, "application mode: hardware s3203, firmware 1969920");
	e2e_said(&E,
		 "through rmi4_i2c's update_fw as touchfw-rmi4-s3203.img, binding it first");
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "no driver is bound: binding rmi4_i2c for its update_fw");
	e2e_said(&E, "verified: firmware 1969920 -> 1970960");
	c = chip();
	assert_int_equal(c.mode, RMI4_MODEL_APP);
	assert_int_equal(c.build, 1970960);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	teardown(state);

	start_i2c("bound = false\nrmi4.build_id = 0\n", false);
	profile_i2c();
	expect_rc(TF_EXIT_OK, "run", "--dry-run", DEV);
	e2e_said(&E, "product s3203, build not known from the bootloader");
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "verified: firmware (bootloader) -> 1970960");
	c = chip();
	assert_int_equal(c.mode, RMI4_MODEL_APP);
	assert_int_equal(c.build, 1970960);
}

/*
 * Unbound on SMBus: a run identifies the part as rmi_smbus would (the
 * version, then a mapping entry per read: the PDT, F01's queries up to
 * the build id, its status) and, running the database's build, leaves it
 * unbound with nothing else written.  A read-only command writes no
 * mapping entry (a foreign device could take it as data), so the dry run
 * says it did not read the build.
 */
static void test_smbus_unbound_part_running_the_database_build_is_left_unbound(void **state)
{
	unsigned lone, reads, binds;

	(void)state;
	start_ex("bound = false\nrmi4.build_id = 1970960\n", true);
	binds = uevents("bind");
	expect_rc(TF_EXIT_UNSUPPORTED, "run", "--dry-run", DEV);
	e2e_said(&E, "product and build not read");
	e2e_said(&E, "'touchfw run' reads it before anything else");
	assert_true(e2e_traced_no_write(&E, 0x2c, 1) > 0);
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "RMI4 on SMBus at 0x2c: product s3203, build 1970960");
	e2e_said(&E, "up to date (firmware 1970960)");
	assert_int_equal(uevents("bind") - binds, 0);
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	lone = user_writes(smbus_read_map, &reads);
	assert_true(lone >= 4);
	assert_true(reads >= lone);
	assert_untouched(1970960);
	assert_int_equal(chip().stats.resets, 0);
}

/* Unbound on SMBus with an older build: rmi4_smbus bound for update_fw
 * only after the identification read the build; updated and verified. */
static void test_smbus_unbound_older_build_is_bound_for_update_fw(void **state)
{
	struct chip c;

	(void)state;
	start("bound = false\n");
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "RMI4 on SMBus at 0x2c: product s3203, build 1969920");
	e2e_said(&E, "no driver is bound: binding rmi4_smbus for its update_fw");
	e2e_said(&E, "verified: firmware 1969920 -> 1970960");
	c = chip();
	assert_int_equal(c.mode, RMI4_MODEL_APP);
	assert_int_equal(c.build, 1970960);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
}

/* An image file of @product and @build in the test's directory, of the
 * @form the chip model's maker gives (good or broken). */
static const char *image(const char *product, unsigned build, enum rmi4_image_form form)
{
	static char path[400];
	uint8_t img[RMI4_MODEL_IMAGE_MAX];
	uint32_t n = rmi4_model_make_image(img, build, 0x1a2b3c4d, product, form);
	FILE *f;

	snprintf(path, sizeof(path), "%s/rmi4-%s-%u-%d.img", E.dir, product, build, (int)form);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(img, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
	return path;
}

/* The image says its product (the general information container): one
 * for s3204 given by hand to an s3203 is refused before update_fw is
 * written; one for this product goes. */
static void test_image_of_another_product_is_refused_before_any_write(void **state)
{
	(void)state;
	start(NULL);
	expect_rc(TF_EXIT_UNSUPPORTED, "flash", "--firmware",
		  image("s3204", 1970961, RMI4_IMG_GOOD), DEV);
	e2e_said(&E, "the image is for product s3204, the touchpad is product s3203: not sent");
	e2e_said(&E, "the chip was not touched");
	assert_untouched(0x1e0f00);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	expect_rc(TF_EXIT_OK, "flash", "--firmware", image("s3203", 1970961, RMI4_IMG_GOOD),
		  DEV);
	assert_int_equal(chip().build, 1970961);
}

/* Images rmi_f34v7 would refuse (or flash broken): db add and flash
 * refuse them naming the file, and the chip is never written. */
static void test_broken_images_are_refused_naming_the_file(void **state)
{
	/* (a bootloader config of another size than the chip's partition
	 * is well formed: only the chip's table tells, rmi_f34v7 checks it) */
	static const enum rmi4_image_form forms[] = { RMI4_IMG_BAD_HEADER,
						      RMI4_IMG_NO_FLASH_CONFIG };
	size_t i;

	(void)state;
	start(NULL);
	e2e_private_db(&E);
	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		const char *f = image("s3203", 1970962, forms[i]);
		const char *base = strrchr(f, '/') + 1;

		expect_rc(TF_EXIT_BAD_INPUT, "db", "add", f, "--db", E.db, "--board",
			  "touchfw,emul-rmi4");
		e2e_said(&E, base);
		expect_rc(TF_EXIT_BAD_INPUT, "flash", "--firmware", f, DEV);
		e2e_said(&E, base);
	}
	assert_untouched(0x1e0f00);
}

/* The supply drops midway through the flash: rmi_core's re-probe finds
 * the bootloader, touchfw says so (exit 11); the next run flashes it
 * again and brings it back. */
static void test_power_loss_midway_leaves_the_bootloader_and_the_next_run_recovers(void **state)
{
	struct chip c;

	(void)state;
	start("fault.flash_power_loss = 20\n");
	expect_rc(TF_EXIT_BOOTLOADER, "run", DEV);
	c = chip();
	assert_int_equal(c.stats.power_losses, 1);
	assert_int_equal(c.mode, RMI4_MODEL_BL);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	expect_rc(TF_EXIT_OK, "run", DEV);
	c = chip();
	assert_int_equal(c.mode, RMI4_MODEL_APP);
	assert_int_equal(c.build, 1970960);
}

/* A v5 image file (struct rmi_f34_firmware, the chip model's maker) of
 * @product and @build with bootloader version @bl at byte 7. */
static const char *image_v5(const char *product, unsigned build, unsigned bl)
{
	static char path[400];
	uint8_t img[RMI4_MODEL_IMAGE_MAX];
	uint32_t n = rmi4_model_make_image_v5(img, build, 0x0a0b0c0d, product, (uint8_t)bl);
	FILE *f;

	snprintf(path, sizeof(path), "%s/rmi4-v5-%s-%u-%u.img", E.dir, product, build, bl);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(img, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
	return path;
}

/*
 * A part with the F34 v5 bootloader (rmi_f34's bootloader_id "05"):
 * touchfw takes it, checks the v5 image against it, writes update_fw
 * (rmi_f34 enables flash programming, erases all, writes the firmware and
 * config blocks), resets the chip out of the bootloader rmi_smbus leaves
 * it in, binds again and verifies the build rmi_core reads.  The old
 * agent refused the part ("the v5 one is not supported yet").
 */
static void test_v5_part_is_updated_from_application_mode(void **state)
{
	struct chip c;
	unsigned binds;
	long long t0;

	(void)state;
	start("rmi4.bootloader = 5\n");
	expect_rc(0, "run", "--dry-run", DEV);
	e2e_said(&E, "application mode: hardware s3203, firmware 1969920");
	/* the database's s3203 image is a v10 one: refused before update_fw */
	expect_rc(TF_EXIT_UNSUPPORTED, "run", DEV);
	e2e_said(&E, "the image is for bootloader v7 (the v10 container format), the "
		     "touchpad's is 05: not sent");
	assert_untouched(0x1e0f00);
	binds = uevents("bind");
	t0 = e2e_now_ms();
	expect_rc(0, "flash", "--firmware", image_v5("s3203", 1970963, 5), DEV);
	fprintf(stderr, "rmi4 e2e: v5 flash to verified: %lld ms\n", e2e_now_ms() - t0);
	e2e_said(&E, "update_fw");
	e2e_said(&E, "the chip runs its application after update_fw");
	e2e_said(&E, "1970963");
	c = chip();
	assert_int_equal(c.mode, RMI4_MODEL_APP);
	assert_int_equal(c.build, 1970963);
	assert_int_equal(c.stats.bl_entries, 1);
	assert_int_equal(c.stats.erases, 1);
	assert_int_equal(c.stats.blocks_written,
			 RMI4_MODEL_V5_FW_BLOCKS + RMI4_MODEL_V5_CONFIG_BLOCKS);
	assert_int_equal(c.stats.cmd_errors, 0);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	assert_int_equal(uevents("bind") - binds, 1);
}

/* The v5 part in its bootloader (no application): rmi_core binds it (F01
 * status bit 6; the PDT lists F01 and F34), touchfw flashes it there
 * and brings it back. */
static void test_v5_part_in_bootloader_is_brought_back(void **state)
{
	char fns[64];
	struct chip c;

	(void)state;
	start("rmi4.bootloader = 5\nrmi4.build_id = 0\n");
	assert_int_equal(chip().mode, RMI4_MODEL_BL);
	functions(fns, sizeof(fns));
	assert_string_equal(fns, "fn01 fn34");
	expect_rc(0, "flash", "--firmware", image_v5("s3203", 1970963, 5), DEV);
	e2e_said(&E, "its PDT lists F01 and F34 only: bootloader mode");
	c = chip();
	assert_int_equal(c.mode, RMI4_MODEL_APP);
	assert_int_equal(c.build, 1970963);
	assert_int_equal(c.stats.bl_entries, 0);
	functions(fns, sizeof(fns));
	assert_string_equal(fns, "fn01 fn11 fn34");
}

/*
 * Each image for its own bootloader, refused before update_fw: a v10
 * (v7) file for a v5 part -- rmi_f34 would enable flash programming
 * first and refuse the file in the bootloader, leaving the chip there --
 * and a v5 file for a v7 part (rmi_f34v7 refuses it too); a v6 file for
 * the v5 part as well.  The chip is never written.
 */
static void test_images_for_the_other_bootloader_are_refused_before_update_fw(void **state)
{
	(void)state;
	start("rmi4.bootloader = 5\n");
	expect_rc(TF_EXIT_UNSUPPORTED, "flash", "--firmware",
		  image("s3203", 1970961, RMI4_IMG_GOOD), DEV);
	e2e_said(&E, "the image is for bootloader v7 (the v10 container format), the "
		     "touchpad's is 05: not sent");
	e2e_said(&E, "the chip was not touched");
	assert_untouched(0x1e0f00);
	expect_rc(TF_EXIT_UNSUPPORTED, "flash", "--firmware", image_v5("s3203", 1970961, 6),
		  DEV);
	e2e_said(&E, "the image is for bootloader v6 (the v5 format)");
	assert_untouched(0x1e0f00);
	teardown(state);

	start(NULL);
	expect_rc(TF_EXIT_UNSUPPORTED, "flash", "--firmware", image_v5("s3203", 1970961, 5),
		  DEV);
	e2e_said(&E, "the image is for bootloader v5 (the v5 format), the touchpad's is "
		     "V7.0: not sent");
	assert_untouched(0x1e0f00);
}

/* Already running the database's build: nothing is written. */
static void test_same_build_is_left_alone(void **state)
{
	(void)state;
	start("rmi4.build_id = 1970960\n");
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "1970960");
	assert_untouched(1970960);
}

/* A device at 0x2c that is no RMI4 part (a 24C02 of zeros, nothing
 * bound): identified first (its "SMBus version" reads 1), refused, and
 * nothing written but the byte that says which register is read. */
static void test_foreign_device_at_the_address_is_identified_and_refused(void **state)
{
	struct eeprom_model *m;
	unsigned i;

	(void)state;
	prepare_smbus("model = eeprom\n"
		      "bound = false\n"
		      "eeprom.fill = 0x00\n");
	e2e_trace_on(&E);
	e2e_go(&E);
	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 20000), 0);
	expect_rc(TF_EXIT_UNSUPPORTED, "run", DEV);
	e2e_said(&E, "is not a Synaptics RMI4 chip on SMBus");
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	emub_lock(E.eb);
	m = emub_chip_eeprom(E.eb, "touchpad");
	assert_non_null(m);
	assert_int_equal(eeprom_model_stats(m)->write_cycles, 0);
	for (i = 0; i < 256 && eeprom_model_peek(m, (em_u16)i) == 0; i++)
		;
	emub_unlock(E.eb);
	assert_int_equal(i, 256);
	assert_true(e2e_traced_no_write(&E, 0x2c, 1) > 0);
	e2e_stop(&E);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_older_build_is_flashed_reset_and_rebound,
					  teardown),
		cmocka_unit_test_teardown(test_chip_in_bootloader_is_brought_back, teardown),
		cmocka_unit_test_teardown(test_f12_part_is_updated_and_judged_by_its_functions,
					  teardown),
		cmocka_unit_test_teardown(
			test_image_of_another_product_is_refused_before_any_write, teardown),
		cmocka_unit_test_teardown(test_broken_images_are_refused_naming_the_file,
					  teardown),
		cmocka_unit_test_teardown(
			test_power_loss_midway_leaves_the_bootloader_and_the_next_run_recovers,
			teardown),
		cmocka_unit_test_teardown(test_same_build_is_left_alone, teardown),
		cmocka_unit_test_teardown(test_i2c_part_is_updated_through_update_fw, teardown),
		cmocka_unit_test_teardown(
			test_i2c_unbound_part_is_identified_writing_only_page_and_pointers,
			teardown),
		cmocka_unit_test_teardown(
			test_foreign_device_at_the_address_is_identified_and_refused, teardown),
		cmocka_unit_test_teardown(
			test_i2c_unbound_part_running_the_database_build_is_left_unbound,
			teardown),
		cmocka_unit_test_teardown(test_i2c_unbound_older_build_is_bound_for_update_fw,
					  teardown),
		cmocka_unit_test_teardown(
			test_smbus_unbound_part_running_the_database_build_is_left_unbound,
			teardown),
		cmocka_unit_test_teardown(test_smbus_unbound_older_build_is_bound_for_update_fw,
					  teardown),
		cmocka_unit_test_teardown(test_v5_part_is_updated_from_application_mode,
					  teardown),
		cmocka_unit_test_teardown(test_v5_part_in_bootloader_is_brought_back, teardown),
		cmocka_unit_test_teardown(
			test_images_for_the_other_bootloader_are_refused_before_update_fw,
			teardown),
	};

	e2e_test_filter();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
