// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End to end: the bring-up tools on emulated boards -- `touchfw chip`
 * (info, reset, save-config) on a maXTouch and on a Goodix GT911, judged by
 * the chip models (object table, reset counters, the configuration they
 * hold); a saved configuration taken by `db add` and `db check` and
 * written back by `flash --config` as a no-op (same CRC, nothing
 * written); `db add` filling a manifest entry from a blob's own header;
 * `db list` saying what the database offers this board and why not the
 * rest.
 */
#include "emub-goodix.h"
#include "e2e.h"

#include "exitcode.h"
#include "goodix_model.h"

#define DB_CFG_CRC 0xE67ACA /* mxt224e-cfg-2.1.AB */

static struct e2e E;

#define expect_rc(want, ...)                                                                  \
	do {                                                                                  \
		int rc_ = e2e_touchfw(&E, __VA_ARGS__);                                       \
		if (rc_ != (want))                                                            \
			fprintf(stderr, "exit %d, expected %d; touchfw said:\n%s\n%s\n", rc_, \
				(int)(want), E.out ? E.out : "", E.err ? E.err : "");         \
		assert_int_equal(rc_, (want));                                                \
	} while (0)

static void out_has(const char *needle)
{
	if (!E.out || !strstr(E.out, needle))
		fail_msg("expected \"%s\" in touchfw's standard output:\n%s", needle,
			 E.out ? E.out : "(none)");
}

static int teardown(void **state)
{
	(void)state;
	e2e_stop(&E);
	return 0;
}

static void start_mxt(const char *compat, const char *fw)
{
	char *b = e2e_board(compat, "mxt224e", "app", fw, "driver", NULL);

	assert_non_null(b);
	e2e_start(&E, b);
	free(b);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
}

static void start_gt911_ex(bool gpios, const char *extra)
{
	char *b = NULL;

	assert_true(asprintf(&b,
			     "[board]\n"
			     "name = touchfw e2e GT911 board\n"
			     "compatible = touchfw,emul-gt911\n"
			     "pacing = fast\n"
			     "[adapter 1]\n"
			     "name = touchfw emulated adapter 1\n"
			     "speed = 400000\n"
			     "[chip touchscreen]\n"
			     "adapter = 1\n"
			     "address = 0x5d\n"
			     "model = goodix\n"
			     "compatible = goodix,gt911\n"
			     "driver = Goodix-TS\n"
			     "goodix.id = 911\n"
			     "goodix.fw_version = 0x1060\n"
			     "goodix.config_version = 65\n"
			     "goodix.resolution = 800x480\n"
			     "goodix.touches = 5\n"
			     "power = driver\n"
			     "%s%s"
			     "[gpiochip]\n"
			     "label = emuboard-gpio\n"
			     "lines = 8\n"
			     "line.0 = TS_RESET\n"
			     "line.1 = TS_INT\n",
			     gpios ? "reset_gpio = 0\nint_gpio = 1\n" : "",
			     extra ? extra : "") > 0);
	e2e_start(&E, b);
	free(b);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
}

static void start_gt911(bool gpios)
{
	start_gt911_ex(gpios, NULL);
}

static char *path_in(const char *name)
{
	char *p = NULL;

	assert_true(asprintf(&p, "%s/%s", E.dir, name) > 0);
	return p;
}

static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t len;

	assert_int_equal(tf_read_file(path, 1 << 20, &buf, &len), 0);
	return buf;
}

/* An empty private database (signatures off) to add blobs to. */
static char *empty_db(void)
{
	char *dir = path_in("newdb"), *m = NULL;

	assert_int_equal(mkdir(dir, 0755), 0);
	assert_true(asprintf(&m, "%s/manifest.ini", dir) > 0);
	e2e_write(m, "[database]\nformat = 1\ndescription = bench\n");
	free(m);
	return dir;
}

/* ------------------------------------------------------------ chip info */

static void test_chip_info_shows_identity_and_object_table(void **state)
{
	(void)state;
	start_mxt("touchfw,emul-demo", "2.1.AB");
	expect_rc(0, "chip", "1-004a", "info");
	out_has("family:           mxt");
	out_has("mode:             application");
	out_has("hardware:         129.1");
	out_has("firmware:         2.1.AB");
	out_has("profile:          ");
	out_has("objects (");
	out_has("T7 ");
	out_has("T6 ");
	out_has("info CRC:         0x");
	out_has("matrix:");

	expect_rc(0, "chip", "1-004a", "info", "--json");
	out_has("{\"version\":1,");
	out_has("\"device\":\"1-004a\"");
	out_has("\"hardware\":\"129.1\"");
	out_has("\"objects\":[{\"type\":\"T");
	/* CRCs are hex strings. */
	out_has("\"info_crc\":\"0x");
}

static void test_chip_info_of_a_goodix_gives_config_version_and_size(void **state)
{
	(void)state;
	start_gt911(true);
	expect_rc(0, "chip", "1-005d", "info");
	out_has("family:           goodix");
	out_has("hardware:         911");
	out_has("config version:   65");
	out_has("config_length:    186");
	out_has("resolution:       800x480");
}

/*
 * A family's error through `touchfw chip`: the family says what failed,
 * the command says which device, once (issue 14 item 3).  The GT911's
 * configuration reads back with a bad checksum byte.
 */
static void test_chip_names_the_device_once_in_a_family_error(void **state)
{
	(void)state;
	start_gt911_ex(true, "fault.corrupt_readback = true\n");
	expect_rc(TF_EXIT_UNSUPPORTED, "chip", "1-005d", "save-config", "-");
	e2e_error_names_device(E.err, "the chip holds no configuration to save", "1-005d");
	e2e_said(&E, "checksum byte at byte 184");
}

static void test_chip_of_a_missing_device_and_bad_command_line(void **state)
{
	(void)state;
	start_mxt("touchfw,emul-demo", "2.1.AB");
	expect_rc(TF_EXIT_NO_DEVICE, "chip", "1-0077", "info");
	e2e_said(&E, "touch controllers here: 1-004a (atmel_mxt_ts)");
	/* Which device is missing, said once (device.c's message does not). */
	e2e_error_names_device(E.err, "no such i2c or spi device", "1-0077");
	expect_rc(TF_EXIT_USAGE, "chip", "1-004a", "frobnicate");
	expect_rc(TF_EXIT_USAGE, "chip", "1-004a");
	expect_rc(TF_EXIT_USAGE, "chip", "1-004a", "save-config", "-", "--json");
	expect_rc(0, "chip", "--help");
	out_has("save-config");
}

/* flash --help names each family's files from its descriptor
 * (tf_family.flash_*_files), the shared text no family's format. */
static void test_flash_help_takes_the_families_formats(void **state)
{
	(void)state;
	start_mxt("touchfw,emul-demo", "2.1.AB");
	expect_rc(0, "flash", "--help");
	out_has("  mxt     --firmware: an image, .fw or its hex text .enc\n");
	out_has("  mxt     --config: an OBP_RAW configuration (.cfg)\n");
	out_has("  goodix  --config: a configuration block as the driver loads it (.bin)\n");
	out_has("  silead  --firmware: the file silead_ts loads (.fw)\n");
	if (strstr(E.out, "write an OBP_RAW"))
		fail_msg("flash --help names one family's format as everyone's:\n%s", E.out);
}

/* ------------------------------------------------------------ reset */

static void test_chip_reset_mxt_by_command_with_driver_bound(void **state)
{
	unsigned before;

	(void)state;
	start_mxt("touchfw,emul-demo", "2.1.AB");
	before = e2e_chip(&E).stats.resets;
	expect_rc(0, "chip", "1-004a", "reset");
	out_has("reset by command");
	assert_int_equal(e2e_chip(&E).stats.resets, before + 1);
	assert_int_equal(e2e_chip(&E).mode, MXT_MODE_APP);
	assert_true(emub_dev_bound(E.eb, "touchscreen"));
}

static unsigned goodix_resets(void)
{
	unsigned n;

	emub_lock(E.eb);
	n = goodix_model_stats(emub_chip_goodix(E.eb, "touchscreen"))->resets;
	emub_unlock(E.eb);
	return n;
}

static void test_chip_reset_goodix_pulses_the_reset_line(void **state)
{
	unsigned before;
	char node[64];

	(void)state;
	start_gt911(true);
	before = goodix_resets();
	expect_rc(0, "chip", "1-005d", "reset");
	out_has("reset pulse on the profile's reset line");
	out_has("is back");
	assert_true(goodix_resets() > before);
	/* touchfw may see the input device before the emulated driver is
	 * done registering it. */
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	assert_true(emub_dev_bound(E.eb, "touchscreen"));
	assert_int_equal(emub_input_node(E.eb, "touchscreen", node, sizeof(node)), 0);
}

static void test_chip_reset_goodix_without_reset_line_is_unsupported(void **state)
{
	unsigned before;

	(void)state;
	start_gt911(false);
	/* The emul-gt911 profile names the lines; without a profile (the
	 * driver decides the family) there is no line to pulse. */
	snprintf(E.boards, sizeof(E.boards), "%s/none", E.dir);
	assert_int_equal(mkdir(E.boards, 0755), 0);
	e2e_settings(&E, NULL);
	before = goodix_resets();
	expect_rc(TF_EXIT_UNSUPPORTED, "chip", "1-005d", "reset");
	e2e_said(&E, "no reset command and the board profile names no reset line");
	assert_int_equal(goodix_resets(), before);
}

/* ------------------------------------------------------------ save-config */

static void test_mxt_saved_config_goes_into_the_db_and_flashes_as_noop(void **state)
{
	char *cfg, *db, *text, crc[16];
	unsigned backups, writes;

	(void)state;
	start_mxt("touchfw,emul-demo", "2.1.AB");
	cfg = path_in("bench.cfg");
	/* Tune on the bench: here, the DB's configuration goes in first. */
	expect_rc(0, "run", "1-004a");
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	assert_int_equal(e2e_chip(&E).nvm_crc, DB_CFG_CRC);

	expect_rc(0, "chip", "1-004a", "save-config", cfg);
	e2e_said(&E, "config CRC 0xE67ACA");
	text = slurp(cfg);
	assert_true(!strncmp(text, "OBP_RAW V1\n", 11));
	snprintf(crc, sizeof(crc), "\n%06X\n", DB_CFG_CRC);
	assert_non_null(strstr(text, crc));
	free(text);
	/* Never overwritten. */
	expect_rc(TF_EXIT_EXISTS, "chip", "1-004a", "save-config", cfg);

	/* Written back: the same CRC, nothing written. */
	backups = e2e_chip(&E).stats.backups;
	writes = e2e_chip(&E).stats.config_writes;
	expect_rc(0, "flash", "--config", cfg, "1-004a");
	e2e_said(&E, "already has CRC 0xE67ACA");
	assert_int_equal(e2e_chip(&E).stats.backups, backups);
	assert_int_equal(e2e_chip(&E).stats.config_writes, writes);

	/* Into a database, entry filled from the file's own header. */
	db = empty_db();
	expect_rc(0, "db", "add", cfg, "--db", db, "--board", "touchfw,emul-demo");
	out_has("hardware = 129.1");
	out_has("for_version = 2.1.AB");
	out_has("config_crc = 0xE67ACA");
	out_has("info_crc = 0x");
	expect_rc(0, "db", "check", "--db", db, "--signatures", "off");
	out_has("1 blob, 1 ok, 0 failed");
	free(db);
	free(cfg);
}

static void test_mxt_config_saved_from_a_stale_chip_is_what_the_chip_runs(void **state)
{
	char *cfg;
	uint32_t ram;

	(void)state;
	start_mxt("touchfw,emul-demo", "2.1.AB");
	cfg = path_in("stale.cfg");
	ram = e2e_chip(&E).ram_crc;
	assert_int_not_equal(ram, DB_CFG_CRC);
	expect_rc(0, "chip", "1-004a", "save-config", cfg);
	expect_rc(0, "flash", "--config", cfg, "--dry-run", "1-004a");
	expect_rc(0, "flash", "--config", cfg, "1-004a");
	assert_int_equal(e2e_chip(&E).ram_crc, ram);
	assert_int_equal(e2e_chip(&E).stats.backups, 0);
	free(cfg);
}

static void test_goodix_saved_config_goes_into_the_db_and_flashes_as_noop(void **state)
{
	char *cfg, *db;
	struct goodix_model_stats before, after;
	uint8_t *data = NULL;
	size_t len;

	(void)state;
	start_gt911(true);
	cfg = path_in("gt911.bin");
	expect_rc(0, "chip", "1-005d", "save-config", cfg);
	assert_int_equal(tf_read_file(cfg, 4096, (char **)&data, &len), 0);
	assert_int_equal(len, 186);
	assert_int_equal(data[0], 65);	/* the chip's config version */
	assert_int_equal(data[185], 1); /* fresh, as a file has it */
	free(data);

	emub_lock(E.eb);
	before = *goodix_model_stats(emub_chip_goodix(E.eb, "touchscreen"));
	emub_unlock(E.eb);
	expect_rc(0, "flash", "--config", cfg, "1-005d");
	emub_lock(E.eb);
	after = *goodix_model_stats(emub_chip_goodix(E.eb, "touchscreen"));
	emub_unlock(E.eb);
	assert_int_equal(after.config_writes, before.config_writes);

	db = empty_db();
	/* A Goodix blob does not name its chip: the command line must. */
	expect_rc(TF_EXIT_USAGE, "db", "add", cfg, "--db", db);
	e2e_said(&E, "--hardware");
	expect_rc(0, "db", "add", cfg, "--db", db, "--hardware", "911", "--for-version",
		  "0x1060", "--board", "touchfw,emul-gt911");
	out_has("version = 65");
	out_has("family = goodix");
	expect_rc(0, "db", "check", "--db", db, "--signatures", "off");
	free(db);
	free(cfg);
}

/* ------------------------------------------------------------ db add */

static void test_db_add_refuses_what_contradicts_the_header(void **state)
{
	char *cfg, *db;

	(void)state;
	start_mxt("touchfw,emul-demo", "2.1.AB");
	cfg = path_in("c.cfg");
	expect_rc(0, "chip", "1-004a", "save-config", cfg);
	db = empty_db();
	expect_rc(TF_EXIT_BAD_INPUT, "db", "add", cfg, "--db", db, "--hardware", "162.6");
	e2e_said(&E, "the blob says 129.1");
	expect_rc(TF_EXIT_BAD_INPUT, "db", "add", "/etc/passwd", "--db", db, "--family", "mxt");
	expect_rc(TF_EXIT_BAD_INPUT, "db", "add", "/etc/passwd", "--db", db);
	expect_rc(0, "db", "add", cfg, "--db", db, "--id", "bench-cfg");
	/* The same id twice is refused, the manifest left as it was. */
	expect_rc(TF_EXIT_EXISTS, "db", "add", cfg, "--db", db, "--id", "bench-cfg");
	expect_rc(0, "db", "check", "--db", db, "--signatures", "off");
	out_has("1 blob, 1 ok");

	/* A .fw image names neither hardware nor version: both must be
	 * given; it is copied into the database's family folder. */
	{
		char *fw = NULL;

		assert_true(asprintf(&fw, "%s/firmware-db/mxt224e/fw-2.1.AB.fw", E.build) > 0);
		expect_rc(TF_EXIT_USAGE, "db", "add", fw, "--db", db, "--hardware", "129.1");
		e2e_said(&E, "give --version");
		expect_rc(0, "db", "add", fw, "--db", db, "--hardware", "129.1", "--version",
			  "2.1.AB", "--min-from", "1.0.00", "--board", "touchfw,emul-demo");
		out_has("type = firmware");
		out_has("file = mxt/fw-2.1.AB.fw");
		out_has("min_from = 1.0.00");
		expect_rc(0, "db", "check", "--db", db, "--signatures", "off");
		out_has("2 blobs, 2 ok");
		expect_rc(0, "db", "list", "--db", db, "--signatures", "off", "--board");
		out_has("fw-2.1.AB                firmware mxt     hw 129.1      2.1.AB");
		out_has("candidate for /controllers/touchscreen@4a");
		free(fw);
	}
	free(db);
	free(cfg);
}

/* ------------------------------------------------------------ db list */

static void test_db_list_says_what_fits_this_board_and_why_not_the_rest(void **state)
{
	struct e2e_chip before;

	(void)state;
	start_mxt("touchfw,emul-demo", "2.1.AB");
	before = e2e_chip(&E);
	expect_rc(0, "db", "list");
	out_has("mxt224e-fw-2.1.AB");
	out_has("gt911-cfg-72");
	expect_rc(0, "db", "list", "--board");
	out_has("mxt224e-fw-2.1.AB");
	out_has("candidate");
	out_has("gt911-cfg-72");
	out_has("not for board");
	/* Among candidates, what the plan takes for the chip that is here,
	 * and why: the firmware is the chip's already, the config is not. */
	out_has("candidate for /controllers/touchscreen@4a; chosen for 1-004a");
	out_has("plan for 1-004a (/controllers/touchscreen@4a): firmware: ");
	/* Reading only. */
	assert_int_equal(e2e_chip(&E).stats.config_writes, before.stats.config_writes);
	assert_int_equal(e2e_chip(&E).ram_crc, before.ram_crc);
	expect_rc(0, "db", "list", "--board", "--json");
	out_has("{\"version\":1,");
	out_has("\"id\":\"mxt224e-cfg-2.1.AB\"");
	out_has("\"config_crc\":\"0xE67ACA\"");
	out_has("\"chosen_for\":\"1-004a\"");
	out_has("\"plans\":[{\"device\":\"1-004a\"");
}

/* ------------------------------------------------------------ board */

/* A private boards directory with @dts compiled as NAME.dtb. */
static void private_profile(const char *name, const char *dts)
{
	char *src = NULL, *cmd = NULL;

	snprintf(E.boards, sizeof(E.boards), "%s/boards", E.dir);
	mkdir(E.boards, 0755);
	assert_true(asprintf(&src, "%s/%s.dts", E.boards, name) > 0);
	e2e_write(src, dts);
	assert_true(asprintf(&cmd, "dtc -q -I dts -O dtb -o '%s/%s.dtb' '%s'", E.boards, name,
			     src) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(src);
	e2e_settings(&E, NULL);
}

static void test_board_identify_live_checks_the_controllers(void **state)
{
	(void)state;
	start_mxt("touchfw,emul-demo", "2.1.AB");
	expect_rc(0, "board", "identify", "--live");
	out_has("ok   adapter i2c-1");
	out_has("ok   device 1-004a");
	out_has("ok   driver atmel_mxt_ts bound");
	out_has("ok   chip answers: application at 0x4a");
	out_has("ok   reset line emuboard-gpio:0 is there");
	out_has("ok   interrupt line emuboard-gpio:1 is there");
	out_has("live: 1 controller, 0 problems");
}

static void test_board_identify_live_says_what_the_machine_has_instead(void **state)
{
	(void)state;
	start_mxt("touchfw,emul-demo", "2.1.AB");
	/* Three mistakes a bring-up makes: a typo in the adapter's name,
	 * the wrong address, a line name the board does not have. */
	private_profile("typos",
			"/dts-v1/;\n/ {\n\ttouchfw,profile-version = <1>;\n"
			"\tmodel = \"typos\";\n\tboard-compatible = \"touchfw,emul-demo\";\n"
			"\tcontrollers {\n\t\t#address-cells = <1>;\n\t\t#size-cells = <0>;\n"
			"\t\ttouchscreen@4a {\n\t\t\tfamily = \"mxt\";\n\t\t\tbus = \"i2c\";\n"
			"\t\t\tadapter-name = \"touchfw emulated adaptor 1\";\n"
			"\t\t\treg = <0x4a>;\n\t\t\tpower = \"driver\";\n\t\t};\n"
			"\t\ttouchscreen@4b {\n\t\t\tfamily = \"mxt\";\n\t\t\tbus = \"i2c\";\n"
			"\t\t\tadapter-name = \"touchfw emulated adapter 1\";\n"
			"\t\t\treg = <0x4b>;\n\t\t\treset-gpio-name = \"TS_RST\";\n"
			"\t\t\tpower = \"driver\";\n\t\t};\n\t};\n};\n");
	expect_rc(TF_EXIT_PROFILE_INVALID, "board", "identify", "--live");
	out_has("FAIL adapter \"touchfw emulated adaptor 1\" is not on this machine");
	out_has("did you mean adapter-name = \"touchfw emulated adapter 1\"?");
	out_has("FAIL no i2c client 1-004b");
	out_has("did you mean reg = <0x4a>? 1-004a is bound to atmel_mxt_ts there");
	out_has("no chip answers there either: no answer at 0x4b (application)");
	out_has("FAIL reset line: GPIO line \"TS_RST\" not found");
	out_has("live: 2 controllers, 3 problems");
}

static void test_board_init_writes_a_profile_board_check_accepts(void **state)
{
	char *dts, *text;

	(void)state;
	start_gt911(true);
	dts = path_in("new.dts");
	expect_rc(0, "board", "init", "1-005d", "--out", dts);
	text = slurp(dts);
	assert_non_null(strstr(text, "board-compatible = \"touchfw,emul-gt911\";"));
	assert_non_null(strstr(text, "family = \"goodix\";"));
	/* A device-tree board: the adapter by its node, which does not change
	 * with the kernel's naming (issue 22; its name is not written). */
	assert_non_null(strstr(text, "adapter-path = \"/i2c@1\";"));
	assert_null(strstr(text, "adapter-name"));
	assert_non_null(strstr(text, "reg = <0x5d>;"));
	assert_non_null(strstr(text, "driver = \"Goodix-TS\";"));
	free(text);
	expect_rc(0, "board", "check", dts);
	expect_rc(TF_EXIT_EXISTS, "board", "init", "1-005d", "--out", dts);
	expect_rc(TF_EXIT_NO_DEVICE, "board", "init", "1-0077");
	/* The skeleton is the machine's profile: the live check passes. */
	{
		char *src = slurp(dts);

		private_profile("new", src);
		free(src);
	}
	expect_rc(0, "board", "identify", "--live");
	out_has("live: 1 controller, 0 problems");
	free(dts);
}

/* ---------------------------------------------------- issue 27 item 8 */

/*
 * A FIFO given as an input (flash --firmware / --config, with and without
 * --dry-run; board check of a .dtb or a .dts) is refused at once, named,
 * instead of blocking (flash while it holds the device's lock).
 */
static void test_fifo_inputs_are_refused_at_once(void **state)
{
	char *fifo, *dtb, *dts;

	(void)state;
	start_gt911(true);
	fifo = path_in("in.bin");
	dtb = path_in("in.dtb");
	dts = path_in("in.dts");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(mkfifo(dtb, 0600), 0);
	assert_int_equal(mkfifo(dts, 0600), 0);
	expect_rc(TF_EXIT_BAD_INPUT, "flash", "--firmware", fifo, "1-005d");
	e2e_said(&E, "in.bin: a FIFO, not a regular file");
	expect_rc(TF_EXIT_BAD_INPUT, "flash", "--config", fifo, "1-005d");
	e2e_said(&E, "in.bin: a FIFO, not a regular file");
	expect_rc(TF_EXIT_BAD_INPUT, "flash", "--dry-run", "--config", fifo, "1-005d");
	e2e_said(&E, "in.bin: a FIFO, not a regular file");
	expect_rc(TF_EXIT_BAD_INPUT, "board", "check", dtb);
	e2e_said(&E, "in.dtb: a FIFO, not a regular file");
	expect_rc(TF_EXIT_BAD_INPUT, "board", "check", dts);
	e2e_said(&E, "in.dts: a FIFO, not a regular file");
	free(fifo);
	free(dtb);
	free(dts);
}

/* ------------------------------------------------------------ --json */

/* Every reporting command's --json: one document on stdout, a top-level
 * "version", CRCs as hex strings; checked with python3's json module so
 * that a document that does not parse fails. */
static void out_is_json(void)
{
	char *path = path_in("out.json"), *cmd = NULL;

	e2e_write(path, E.out ? E.out : "");
	assert_true(asprintf(&cmd,
			     "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
			     "sys.exit(0 if d[\"version\"] == 1 else 1)' '%s'",
			     path) > 0);
	if (system(cmd) != 0)
		fail_msg("not one JSON document with \"version\": 1:\n%s", E.out ? E.out : "");
	free(cmd);
	free(path);
}

static void test_json_on_every_reporting_command(void **state)
{
	(void)state;
	start_mxt("touchfw,emul-demo", "2.1.AB");
	expect_rc(0, "run", "--json", "1-004a");
	out_is_json();
	out_has("\"device\":\"1-004a\"");
	out_has("\"config_crc_after\":\"0xE67ACA\"");
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	expect_rc(TF_EXIT_BAD_INPUT, "flash", "--json", "--config", "/etc/passwd", "1-004a");
	out_is_json();
	expect_rc(0, "status", "--json");
	out_is_json();
	out_has("\"config_crc\":\"0xE67ACA\"");
	expect_rc(0, "probe", "--json", "1-004a");
	out_is_json();
	expect_rc(0, "chip", "1-004a", "info", "--json");
	out_is_json();
	expect_rc(0, "db", "check", "--json");
	out_is_json();
	out_has("\"config_crc\":\"0xE67ACA\"");
	out_has("\"failed\":0");
	expect_rc(0, "db", "list", "--json");
	out_is_json();
	expect_rc(0, "board", "identify", "--json");
	out_is_json();
	out_has("\"matched_by\":\"compatible\"");
	out_has("\"reg\":\"0x4a\"");
	expect_rc(0, "board", "identify", "--live", "--json");
	out_is_json();
	out_has("\"problems\":0");
	{
		char *bad = path_in("bad.dts"), *good = NULL;

		assert_true(asprintf(&good, "%s/../boards/examples/emul-demo.dts",
				     getenv("TOUCHFW_BUILD") ? getenv("TOUCHFW_BUILD")
							     : "build") > 0);
		if (access(good, R_OK) != 0) {
			free(good);
			assert_true(asprintf(&good, "%s/boards/examples/emul-demo.dts",
					     getenv("TOUCHFW_TOP") ? getenv("TOUCHFW_TOP")
								   : ".") > 0);
		}
		e2e_write(bad, "/dts-v1/;\n/ {\n\ttouchfw,profile-version = <1>;\n"
			       "\tmodel = \"bad\";\n\tboard-compatible = \"x,y\";\n"
			       "\tcontrollers {\n\t\t#address-cells = <1>;\n"
			       "\t\t#size-cells = <0>;\n\t\ttouchscreen@4a {\n"
			       "\t\t\tfamily = \"mxt\";\n\t\t\tbus = \"i2c\";\n"
			       "\t\t\tadapter-name = \"a\";\n\t\t\treg = <0x4a>;\n"
			       "\t\t\tpower = \"sometimes\";\n\t\t};\n\t};\n};\n");
		expect_rc(TF_EXIT_PROFILE_INVALID, "board", "check", "--json", good, bad);
		out_is_json();
		out_has("\"result\":\"ok\",\"model\":\"touchfw emulated demo board\"");
		out_has("\"node\":\"/controllers/touchscreen@4a\"");
		out_has("\"invalid\":1");
		free(good);
		free(bad);
	}
}

/*
 * One JSON document on every exit of every --json command (issue 27 item
 * 9): the error exits printed nothing on standard output (`db list --board
 * --json` with no profile, `chip DEV info --json` for a missing device).
 * Each error exit here prints one document -- the command's own, or
 * {"version": 1, "error": {"exit_code", "result", "message"}} with the
 * exit status, its name and what was said on stderr.
 */
static void out_is_one_json_document(int rc, const char *needle)
{
	char *path = path_in("out.json"), *cmd = NULL;

	e2e_write(path, E.out ? E.out : "");
	assert_true(asprintf(&cmd,
			     "python3 -c 'import json,sys\n"
			     "d = json.load(open(sys.argv[1]))\n"
			     "assert d[\"version\"] == 1\n"
			     "e = d.get(\"error\")\n"
			     "if isinstance(e, dict):\n"
			     "    assert e[\"exit_code\"] == int(sys.argv[2]), e\n"
			     "    assert e[\"result\"] == sys.argv[3], e\n"
			     "    assert sys.argv[4] in e[\"message\"], e\n"
			     "' '%s' %d '%s' '%s'",
			     path, rc, tf_exit_name(rc), needle) > 0);
	if (system(cmd) != 0)
		fail_msg("exit %d: not one JSON document (or its error says otherwise):\n%s\n"
			 "stderr:\n%s",
			 rc, E.out ? E.out : "", E.err ? E.err : "");
	free(cmd);
	free(path);
}

/* The error document itself, not a command's own. */
static void out_is_error_document(int rc, const char *needle)
{
	out_is_one_json_document(rc, needle);
	out_has("{\"version\":1,\"error\":{\"exit_code\":");
}

static void test_json_on_every_error_exit(void **state)
{
	char *empty;

	(void)state;
	start_mxt("touchfw,emul-demo", "2.1.AB");
	empty = path_in("no-boards");
	/* usage errors, before and after --json on the line */
	expect_rc(TF_EXIT_USAGE, "run", "--json");
	out_is_error_document(TF_EXIT_USAGE, "give exactly one DEVICE");
	expect_rc(TF_EXIT_USAGE, "run", "--bogus", "--json", "1-004a");
	out_is_error_document(TF_EXIT_USAGE, "--bogus");
	expect_rc(TF_EXIT_USAGE, "flash", "--json", "1-004a");
	out_is_error_document(TF_EXIT_USAGE, "at least one of --firmware and --config");
	expect_rc(TF_EXIT_USAGE, "chip", "1-004a", "save-config", "-", "--json");
	out_is_error_document(TF_EXIT_USAGE, "--json can not be");
	expect_rc(TF_EXIT_USAGE, "db", "--json");
	out_is_error_document(TF_EXIT_USAGE, "");
	expect_rc(TF_EXIT_USAGE, "board", "check", "--json");
	out_is_error_document(TF_EXIT_USAGE, "no FILE given");
	/* a device that is not there */
	expect_rc(TF_EXIT_NO_DEVICE, "chip", "1-0077", "info", "--json");
	out_is_error_document(TF_EXIT_NO_DEVICE, "1-0077");
	expect_rc(TF_EXIT_NO_DEVICE, "run", "--json", "1-0077");
	out_is_one_json_document(TF_EXIT_NO_DEVICE, "1-0077");
	out_has("\"exit_code\":3");
	expect_rc(TF_EXIT_NO_DEVICE, "status", "--json", "1-0077");
	out_is_one_json_document(TF_EXIT_NO_DEVICE, "1-0077");
	expect_rc(TF_EXIT_NO_DEVICE, "probe", "--json", "1-0077");
	out_is_one_json_document(TF_EXIT_NO_DEVICE, "1-0077");
	/* the database and the keys */
	expect_rc(TF_EXIT_DB_INVALID, "db", "check", "--json", "--db", "/nonexistent");
	out_is_one_json_document(TF_EXIT_DB_INVALID, "/nonexistent");
	expect_rc(TF_EXIT_DB_INVALID, "db", "list", "--json", "--db", "/nonexistent");
	out_is_error_document(TF_EXIT_DB_INVALID, "/nonexistent");
	expect_rc(TF_EXIT_BAD_INPUT, "db", "check", "--json", "--keys", "/nonexistent");
	out_is_error_document(TF_EXIT_BAD_INPUT, "--keys /nonexistent");
	/* no board profile for this machine */
	assert_int_equal(mkdir(empty, 0755), 0);
	snprintf(E.boards, sizeof(E.boards), "%s", empty);
	e2e_settings(&E, NULL);
	{
		int rc = e2e_touchfw(&E, "db", "list", "--board", "--json", NULL);

		assert_int_not_equal(rc, 0);
		out_is_error_document(rc, "");
	}
	{
		int rc = e2e_touchfw(&E, "board", "identify", "--json", NULL);

		if (rc)
			out_is_one_json_document(rc, "");
		else
			out_is_json();
	}
	expect_rc(TF_EXIT_NO_PROFILE, "run", "--json", "1-004a");
	out_is_one_json_document(TF_EXIT_NO_PROFILE, "");
	/* a profile that can not be read */
	{
		int rc = e2e_touchfw(&E, "board", "check", "--json", "/nonexistent.dts", NULL);

		assert_int_not_equal(rc, 0);
		out_is_one_json_document(rc, "");
	}
	free(empty);
}

/* A GT911 at 0x5d bound to Goodix-TS on a board identified by @board_keys
 * (compatible, or dmi.* for an ACPI machine), its adapter named @adapter. */
static void start_gt911_on(const char *board_keys, const char *adapter)
{
	char *b = NULL;

	assert_true(asprintf(&b,
			     "[board]\n"
			     "name = touchfw e2e GT911 board\n"
			     "%s"
			     "pacing = fast\n"
			     "[adapter 1]\n"
			     "name = %s\n"
			     "speed = 400000\n"
			     "[chip touchscreen]\n"
			     "adapter = 1\n"
			     "address = 0x5d\n"
			     "model = goodix\n"
			     "compatible = goodix,gt911\n"
			     "driver = Goodix-TS\n"
			     "goodix.id = 911\n"
			     "goodix.fw_version = 0x1060\n"
			     "goodix.config_version = 65\n"
			     "goodix.resolution = 800x480\n"
			     "goodix.touches = 5\n"
			     "power = driver\n",
			     board_keys, adapter) > 0);
	e2e_start(&E, b);
	free(b);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
}

/*
 * Issue 27 item 7: a machine whose DMI holds a firmware template's
 * placeholders ("Default string", "To be filled by O.E.M.") -- the same on
 * every machine built from it.  board init leaves them out of dmi-match
 * with a warning (and matches on the board keys that do name it); board
 * check warns about a profile that matches one.
 */
static void test_board_init_leaves_dmi_placeholders_out(void **state)
{
	char *dts, *text, *bad;

	(void)state;
	start_gt911_on("dmi.sys_vendor = Default string\n"
		       "dmi.product_name = To be filled by O.E.M.\n"
		       "dmi.board_vendor = Acme\n"
		       "dmi.board_name = Tablet-7 rev B\n",
		       "touchfw emulated adapter 1");
	dts = path_in("new.dts");
	expect_rc(0, "board", "init", "1-005d", "--out", dts);
	if (!E.err ||
	    !strstr(E.err, "DMI sys-vendor is \"Default string\", a firmware "
			   "placeholder") ||
	    !strstr(E.err, "DMI product-name is \"To be filled by O.E.M.\""))
		fail_msg("board init warned:\n%s", E.err ? E.err : "(nothing)");
	text = slurp(dts);
	if (strstr(text, "Default string") || strstr(text, "O.E.M.") ||
	    !strstr(text, "board-vendor = \"Acme\";") ||
	    !strstr(text, "board-name = \"Tablet-7 rev B\";"))
		fail_msg("board init wrote:\n%s", text);
	free(text);
	expect_rc(0, "board", "check", dts);
	assert_true(!E.err || !strstr(E.err, "placeholder"));
	/* A profile written by hand that matches the placeholder: ok, with a
	 * warning naming the key. */
	bad = path_in("placeholder.dts");
	e2e_write(bad,
		  "/dts-v1/;\n/ {\n\ttouchfw,profile-version = <1>;\n"
		  "\tmodel = \"placeholder\";\n"
		  "\tdmi-match {\n\t\tsys-vendor = \"Default string\";\n\t};\n"
		  "\tcontrollers {\n\t\t#address-cells = <1>;\n\t\t#size-cells = <0>;\n"
		  "\t\ttouchscreen@5d {\n\t\t\tfamily = \"goodix\";\n\t\t\tbus = \"i2c\";\n"
		  "\t\t\tadapter-name = \"touchfw emulated adapter 1\";\n"
		  "\t\t\treg = <0x5d>;\n\t\t\tpower = \"driver\";\n\t\t};\n\t};\n};\n");
	expect_rc(0, "board", "check", bad);
	if (!E.err || !strstr(E.err, "/dmi-match: warning: sys-vendor \"Default string\" is "
				     "a firmware placeholder"))
		fail_msg("board check said:\n%s\n%s", E.out ? E.out : "", E.err ? E.err : "");
	free(bad);
	free(dts);
}

/* No raw control character (ESC, BEL, ...) in @text. */
static void no_control_chars(const char *what, const char *text)
{
	for (const char *p = text ? text : ""; *p; p++)
		if (((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
			fail_msg("%s has a raw control character 0x%02x:\n%s", what,
				 (unsigned char)*p, text);
}

/*
 * Issue 27 item 11: an adapter whose sysfs name holds escape sequences
 * (a colour change, a BEL): status, probe, chip info and board identify
 * show them escaped, and board init writes them into its .dts as \xHH
 * (never raw), warning that a profile can not name such an adapter.
 */
static void test_control_characters_in_an_adapter_name_are_escaped(void **state)
{
	char *dts, *text;

	(void)state;
	/* A DMI board: its adapter has no device-tree node, so board init
	 * names it by its name. */
	start_gt911_on("dmi.sys_vendor = Acme\n"
		       "dmi.product_name = Tablet 7\n",
		       "touchfw \x1b[31memulated\x1b[0m adapter\x07 1");
	e2e_touchfw(&E, "status");
	no_control_chars("status's output", E.out);
	no_control_chars("status's messages", E.err);
	e2e_touchfw(&E, "probe", "1-005d");
	no_control_chars("probe's output", E.out);
	no_control_chars("probe's messages", E.err);
	if (!E.out || !strstr(E.out, "touchfw \\x1b[31memulated\\x1b[0m adapter\\x07 1"))
		fail_msg("probe said:\n%s", E.out ? E.out : "(nothing)");
	e2e_touchfw(&E, "chip", "1-005d", "info");
	no_control_chars("chip info's output", E.out);
	no_control_chars("chip info's messages", E.err);
	dts = path_in("new.dts");
	expect_rc(0, "board", "init", "1-005d", "--out", dts);
	text = slurp(dts);
	no_control_chars("board init's .dts", text);
	assert_non_null(
		strstr(text,
		       "adapter-name = \"touchfw \\x1b[31memulated\\x1b[0m adapter\\x07 1\";"));
	free(text);
	/* a profile can not name it (board check refuses control characters
	 * in adapter-name): board init says so */
	if (!E.err || !strstr(E.err, "control characters"))
		fail_msg("board init did not warn:\n%s", E.err ? E.err : "(nothing)");
	expect_rc(TF_EXIT_PROFILE_INVALID, "board", "check", dts);
	no_control_chars("board check's output", E.out);
	/* a profile for this machine whose adapter is not this one: the live
	 * check's "did you mean" names it, escaped */
	private_profile(
		"acme-tablet",
		"/dts-v1/;\n/ {\n\ttouchfw,profile-version = <1>;\n"
		"\tmodel = \"Acme Tablet 7\";\n"
		"\tdmi-match {\n\t\tsys-vendor = \"Acme\";\n"
		"\t\tproduct-name = \"Tablet 7\";\n\t};\n"
		"\tcontrollers {\n\t\t#address-cells = <1>;\n\t\t#size-cells = <0>;\n"
		"\t\ttouchscreen@5d {\n\t\t\tfamily = \"goodix\";\n\t\t\tbus = \"i2c\";\n"
		"\t\t\tadapter-name = \"touchfw emulated adapter 9\";\n"
		"\t\t\treg = <0x5d>;\n\t\t\tpower = \"driver\";\n\t\t};\n\t};\n};\n");
	e2e_touchfw(&E, "board", "identify", "--live");
	no_control_chars("board identify's output", E.out);
	out_has("did you mean adapter-name = \"touchfw \\x1b[31memulated\\x1b[0m adapter\\x07 1\"?");
	free(dts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_json_on_every_error_exit, teardown),
		cmocka_unit_test_teardown(test_chip_info_shows_identity_and_object_table,
					  teardown),
		cmocka_unit_test_teardown(
			test_chip_info_of_a_goodix_gives_config_version_and_size, teardown),
		cmocka_unit_test_teardown(test_chip_names_the_device_once_in_a_family_error,
					  teardown),
		cmocka_unit_test_teardown(test_chip_of_a_missing_device_and_bad_command_line,
					  teardown),
		cmocka_unit_test_teardown(test_flash_help_takes_the_families_formats, teardown),
		cmocka_unit_test_teardown(test_chip_reset_mxt_by_command_with_driver_bound,
					  teardown),
		cmocka_unit_test_teardown(test_chip_reset_goodix_pulses_the_reset_line,
					  teardown),
		cmocka_unit_test_teardown(
			test_chip_reset_goodix_without_reset_line_is_unsupported, teardown),
		cmocka_unit_test_teardown(
			test_mxt_saved_config_goes_into_the_db_and_flashes_as_noop, teardown),
		cmocka_unit_test_teardown(
			test_mxt_config_saved_from_a_stale_chip_is_what_the_chip_runs,
			teardown),
		cmocka_unit_test_teardown(
			test_goodix_saved_config_goes_into_the_db_and_flashes_as_noop,
			teardown),
		cmocka_unit_test_teardown(test_db_add_refuses_what_contradicts_the_header,
					  teardown),
		cmocka_unit_test_teardown(
			test_db_list_says_what_fits_this_board_and_why_not_the_rest, teardown),
		cmocka_unit_test_teardown(test_board_identify_live_checks_the_controllers,
					  teardown),
		cmocka_unit_test_teardown(
			test_board_identify_live_says_what_the_machine_has_instead, teardown),
		cmocka_unit_test_teardown(test_board_init_leaves_dmi_placeholders_out,
					  teardown),
		cmocka_unit_test_teardown(
			test_control_characters_in_an_adapter_name_are_escaped, teardown),
		cmocka_unit_test_teardown(test_board_init_writes_a_profile_board_check_accepts,
					  teardown),
		cmocka_unit_test_teardown(test_json_on_every_reporting_command, teardown),
		cmocka_unit_test_teardown(test_fifo_inputs_are_refused_at_once, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
