// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End to end on an emulated Cypress PIP trackpad at 0x24, Gen5 and Gen6:
 * the real touchfw binaries inside an emulated board, judged by the PIP
 * trackpad model (tests/emul/family/cyapa/model/cyapa_pip_model.c, cfg.gen
 * 5 or 6) and the emulated cyapa driver's Gen5 and Gen6 paths
 * (tests/emul/family/cyapa/drv_cyapa.c), both written from the kernel's
 * cyapa.c, cyapa_gen5.c (the PIP bootloader both use) and cyapa_gen6.c,
 * not from the agent.  cyapa tells the generation by the family and
 * silicon ids of the part's system information ("gen5 operational",
 * "gen6 operational") and takes only an image whose head names that
 * generation.  touchfw stages the image as cyapa.bin and writes that name
 * to update_fw (cyapa checks it, enters the bootloader, initiates it with
 * the image's metadata row, writes 465 rows and launches the application)
 * and verifies firmware_version and the new input device.
 *
 * Each path runs for both generations (test names end in @gen5, @gen6):
 * a bind with older firmware; an erased trackpad in its bootloader
 * brought back by the board; the supply dropping midway (the bootloader
 * stays, the next run recovers); the other generation's image and a Gen3
 * one refused before any write; broken images refused (db add, flash);
 * an unbound trackpad identified reading only, then given to cyapa; one
 * in deep sleep refused unwritten.  Once: a device at 0x24 that is no
 * trackpad, refused unwritten.  The board's profile
 * (touchfw,emul-cyapa-genN) and database are the test's own, made in its
 * private directory.
 */
#include "emub-cyapa.h"
#include "e2e.h"

#include "cyapa_model.h"
#include "cyapa_pip_model.h"
#include "eeprom_model.h"
#include "emub-eeprom.h"
#include "exitcode.h"

#define DEV "1-0024"
#define PRODUCT "CYTRA-103002-00"
#define NEW_FW 0x0301
#define OLD_FW 0x0200
/* The demo database's PIP entries (tests/emul/family/cyapa/manifest.ini):
 * 3.0 for a Gen5 CYTRA-103002-00 and a Gen6 CYTRA-106002-00 on the
 * boards touchfw,emul-cyapa-pip and the VM's touchfw,qemu-cyapa-emul-pip. */
#define DEMO_BOARD "touchfw,emul-cyapa-pip"
#define DEMO_FW 0x0300

static struct e2e E;
static int GEN; /* the trackpad's generation, 5 or 6: setup_gen5/6 */
/* The test runs on the demo database's PIP board with the build's
 * database itself (not a private copy holding 3.1): set by the test,
 * cleared by teardown. */
static bool DEMO_DB;

#define expect_rc(want, ...)                                                                  \
	do {                                                                                  \
		int rc_ = e2e_touchfw(&E, __VA_ARGS__);                                       \
		if (rc_ != (want))                                                            \
			fprintf(stderr, "exit %d, expected %d; touchfw said:\n%s\n%s\n", rc_, \
				(int)(want), E.out ? E.out : "", E.err ? E.err : "");         \
		assert_int_equal(rc_, (want));                                                \
	} while (0)

static int setup_gen5(void **state)
{
	(void)state;
	GEN = 5;
	return 0;
}

static int setup_gen6(void **state)
{
	(void)state;
	GEN = 6;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	e2e_stop(&E);
	DEMO_DB = false;
	return 0;
}

/* The board's compatible, one per generation. */
static const char *board(void)
{
	if (DEMO_DB)
		return DEMO_BOARD;
	return GEN == 6 ? "touchfw,emul-cyapa-gen6" : "touchfw,emul-cyapa-gen5";
}

/* The trackpad's product id: the demo database's Gen6 part is another
 * product than its Gen5 one. */
static const char *product(void)
{
	return DEMO_DB && GEN == 6 ? "CYTRA-106002-00" : PRODUCT;
}

/* touchfw said @fmt, formatted (a generation in it). */
static void said(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void said(const char *fmt, ...)
{
	char text[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	e2e_said(&E, text);
}

/* The board's profile, the test's own (a trackpad of the generation %d
 * at 0x24 served by cyapa; the board's compatible %s), compiled into a
 * boards directory in the private root. */
static const char profile_dts[] =
	"/dts-v1/;\n"
	"/ {\n"
	"	touchfw,profile-version = <1>;\n"
	"	model = \"touchfw e2e Cypress Gen%d trackpad board\";\n"
	"	board-compatible = \"%s\";\n"
	"	controllers {\n"
	"		#address-cells = <1>;\n"
	"		#size-cells = <0>;\n"
	"		touchpad@24 {\n"
	"			family = \"cyapa\";\n"
	"			bus = \"i2c\";\n"
	"			adapter-name = \"touchfw emulated adapter 1\";\n"
	"			reg = <0x24>;\n"
	"			driver = \"cyapa\";\n"
	"			irq-gpio-chip = \"emuboard-gpio\";\n"
	"			irq-gpio-line = <1>;\n"
	"			power = \"always-on\";\n"
	"		};\n"
	"	};\n"
	"};\n";

/* A file in the private directory. */
static const char *write_file(const char *name, const uint8_t *data, size_t len)
{
	static char path[400];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", E.dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return path;
}

/* A PIP image of Generation @gen (5 or 6) for @product, version
 * @maj.@min, named as ChromeOS names them; @damage: 0 none, 1 the
 * metadata CRC, 2 an application row, 3 a record cut.  The path is
 * write_file's: good until the next file. */
static const char *pip_image_gen(int gen, const char *product, unsigned maj, unsigned min,
				 int damage)
{
	static uint8_t f[CYAPA_PIP_FILE_SIZE];
	static const char *const tag[] = { "", "-bad-meta", "-bad-app", "-short" };
	char name[80];
	size_t len = sizeof(f);

	cyapa_pip_make_file(f, gen, product, (uint8_t)maj, (uint8_t)min);
	if (damage == 1)
		f[CYAPA_PIP_FILE_SIZE - CYAPA_PIP_ROW + 60] ^= 0x01;
	else if (damage == 2)
		f[CYAPA_PIP_HEAD_SIZE + 100 * CYAPA_PIP_RECORD_SIZE + 40] ^= 0x01;
	else if (damage == 3)
		len -= 7;
	snprintf(name, sizeof(name), "%s_%u.%u%s.bin", product, maj, min, tag[damage]);
	return write_file(name, f, len);
}

/* An image of the trackpad's own generation. */
static const char *pip_image(const char *product, unsigned maj, unsigned min, int damage)
{
	return pip_image_gen(GEN, product, maj, min, damage);
}

/* A Gen3 image of @product, named as ChromeOS names them. */
static const char *gen3_image(const char *product, unsigned maj, unsigned min)
{
	static uint8_t f[CYAPA_MODEL_FILE_SIZE];
	char name[80];

	cyapa_model_make_file(f, product, (uint8_t)maj, (uint8_t)min);
	snprintf(name, sizeof(name), "%s_%u.%u.bin", product, maj, min);
	return write_file(name, f, sizeof(f));
}

/* Run the agent outside the board (db commands need none). */
static void agent(const char *args)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), "'%s/touchfw-agent' %s >>'%s/agent.log' 2>&1", E.build, args,
		 E.dir);
	assert_int_equal(system(cmd), 0);
}

/* The private database with @file (a PIP or Gen3 image) for the board,
 * signed again. */
static void db_with(const char *file)
{
	char args[1024];

	snprintf(args, sizeof(args), "db add '%s' --db '%s' --board %s", file, E.db, board());
	agent(args);
	snprintf(args, sizeof(args), "db sign --key '%s/keys/build-demo.key' --db '%s'",
		 E.build, E.db);
	agent(args);
}

/* The board: @chip_keys for the chip at 0x24, whose driver is cyapa; the
 * private profile and a private database holding 3.1 for the board (or,
 * DEMO_DB, the build's demo database as it is). */
static void prepare_chip(const char *chip_keys, const char *he_args)
{
	char *b = NULL, path[512], cmd[1200];
	FILE *f;

	assert_true(asprintf(&b,
			     "[board]\n"
			     "name = touchfw e2e Cypress Gen%d trackpad board\n"
			     "compatible = %s\n"
			     "pacing = fast\n"
			     "[adapter 1]\n"
			     "name = touchfw emulated adapter 1\n"
			     "speed = 400000\n"
			     "[chip touchpad]\n"
			     "adapter = 1\n"
			     "address = 0x24\n"
			     "power = always-on\n"
			     "compatible = cypress,cyapa\n"
			     "driver = cyapa\n"
			     "%s"
			     "[gpiochip]\n"
			     "label = emuboard-gpio\n"
			     "lines = 8\n"
			     "line.0 = TP_UNUSED\n"
			     "line.1 = TP_INT\n",
			     GEN, board(), chip_keys) > 0);
	e2e_prepare(&E, b, he_args);
	free(b);
	snprintf(E.boards, sizeof(E.boards), "%s/boards", E.dir);
	assert_int_equal(mkdir(E.boards, 0700), 0);
	snprintf(path, sizeof(path), "%s/emul-cyapa-gen%d.dts", E.dir, GEN);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, profile_dts, GEN, board());
	assert_int_equal(fclose(f), 0);
	snprintf(cmd, sizeof(cmd), "dtc -q -I dts -O dtb -o '%s/emul-cyapa-gen%d.dtb' '%s'",
		 E.boards, GEN, path);
	assert_int_equal(system(cmd), 0);
	if (DEMO_DB) {
		e2e_settings(&E, NULL); /* the boards directory above */
		return;
	}
	e2e_private_db(&E);
	db_with(pip_image(PRODUCT, 3, 1, 0));
}

/* A trackpad of the test's generation (@fw "2.0" or "none": erased, in
 * its bootloader), bound to cyapa or not (@bound), @extra chip keys. */
static void prepare_ex(const char *fw, bool bound, const char *extra, const char *he_args)
{
	char *keys = NULL;

	assert_true(asprintf(&keys,
			     "model = cyapa\n"
			     "cyapa.gen = %d\n"
			     "int_gpio = 1\n"
			     "bound = %s\n"
			     "cyapa.product_id = %s\n"
			     "cyapa.fw_version = %s\n"
			     "%s",
			     GEN, bound ? "true" : "false", product(), fw,
			     extra ? extra : "") > 0);
	prepare_chip(keys, he_args);
	free(keys);
}

/* A trackpad bound to cyapa. */
static void prepare(const char *fw, const char *extra, const char *he_args)
{
	prepare_ex(fw, true, extra, he_args);
}

static void start(const char *fw, const char *extra)
{
	prepare(fw, extra, NULL);
	e2e_go(&E);
	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 20000), 0);
}

struct chip {
	enum cyapa_pip_model_mode mode;
	int fw;
	struct cyapa_pip_model_stats stats;
};

static struct chip chip(void)
{
	struct cyapa_pip_model *m;
	struct chip c;

	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 60000), 0);
	emub_lock(E.eb);
	m = emub_chip_cyapa_pip(E.eb, "touchpad");
	assert_non_null(m);
	c.mode = cyapa_pip_model_mode(m);
	c.fw = cyapa_pip_model_fw_version(m);
	c.stats = *cyapa_pip_model_stats(m);
	emub_unlock(E.eb);
	return c;
}

static void assert_updated_to(int fw)
{
	struct chip c = chip();

	assert_int_equal(c.mode, CYAPA_PIP_APP);
	assert_int_equal(c.fw, fw);
	assert_int_equal(c.stats.initiates, 1);
	assert_int_equal(c.stats.rows_written, CYAPA_PIP_APP_ROWS);
	assert_int_equal(c.stats.row_errors, 0);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	assert_true(e2e_has_input(&E, "touchpad"));
}

static void assert_updated(void)
{
	assert_updated_to(NEW_FW);
}

static void assert_untouched(int fw)
{
	struct chip c = chip();

	assert_int_equal(c.fw, fw);
	assert_int_equal(c.stats.initiates, 0);
	assert_int_equal(c.stats.bl_enters, 0);
	assert_int_equal(c.stats.rows_written, 0);
}

/* ------------------------------------------------------------ paths */

/* At boot: cyapa binds the trackpad (firmware 2.0, "genN operational"),
 * the bind uevent runs handle-event, which hands off to a run; it stages
 * 3.1 of the trackpad's generation as cyapa.bin and writes that name to
 * update_fw; cyapa enters the bootloader, initiates it, writes 465 rows,
 * launches the application and registers a new input device by itself,
 * which touchfw verifies. */
static void test_bind_with_older_firmware_is_updated_through_update_fw(void **state)
{
	char *log;
	long long t0;

	(void)state;
	prepare("2.0", NULL, "");
	t0 = e2e_now_ms();
	e2e_go(&E);
	e2e_wait_run_done(&E, DEV);
	fprintf(stderr,
		"# gen%d: bind -> verified input device: %lld ms (emulated, fast pacing)\n",
		GEN, e2e_now_ms() - t0);
	log = e2e_state_file(&E, DEV ".log");
	assert_non_null(log);
	e2e_keep(&E, log);
	if (!strstr(log, "application mode: hardware " PRODUCT ", firmware 2.0") ||
	    !strstr(log, "/cyapa.bin; asking cyapa to flash it (update_fw)") ||
	    !strstr(log, "verified: firmware 2.0 -> 3.1")) {
		fprintf(stderr, "--- the run said:\n%s", log);
		fail_msg("see the run's log above");
	}
	assert_updated();
	assert_int_equal(chip().stats.bl_enters, 1);
	assert_int_equal(emub_update_fw_count(E.eb, "touchpad"), 1);
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "running 3.1");
	assert_int_equal(chip().stats.initiates, 1);
}

/* How many runs a device's log tells of (each begins with a line
 * "touchfw: DEV: device ..."). */
static unsigned runs_in(const char *log)
{
	static const char head[] = "touchfw: " DEV ": device ";
	unsigned n = 0;
	const char *p;

	for (p = log; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, head, sizeof(head) - 1))
			n++;
	return n;
}

/* The same from the demo database as the build makes it, the
 * emulator's twin of kmod-cyapa-driver's PIP steps: its entries for the
 * PIP board (a Gen5 3.0 for CYTRA-103002-00, a Gen6 3.0 for
 * CYTRA-106002-00, signed with the build's key) are matched by the
 * product cyapa reads, and the run takes the image of the trackpad's own
 * generation: 2.0 -> 3.0 through update_fw, one run. */
static void test_bind_with_older_firmware_is_updated_from_the_demo_database(void **state)
{
	char *log, line[512];
	long long t0;

	(void)state;
	DEMO_DB = true;
	prepare("2.0", NULL, "");
	t0 = e2e_now_ms();
	e2e_go(&E);
	e2e_wait_run_done(&E, DEV);
	fprintf(stderr,
		"# gen%d: bind -> verified input device (demo database): %lld ms (emulated, "
		"fast pacing)\n",
		GEN, e2e_now_ms() - t0);
	log = e2e_state_file(&E, DEV ".log");
	assert_non_null(log);
	e2e_keep(&E, log);
	snprintf(line, sizeof(line), "application mode: hardware %s, firmware 2.0", product());
	if (!strstr(log, line)) {
		fprintf(stderr, "--- the run said:\n%s", log);
		fail_msg("no \"%s\"", line);
	}
	snprintf(line, sizeof(line),
		 "staged cyapa-%s-fw-3.0 as %s/state/firmware/cyapa.bin; asking cyapa to "
		 "flash it (update_fw)",
		 product(), E.dir);
	if (!strstr(log, line) || !strstr(log, "verified: firmware 2.0 -> 3.0")) {
		fprintf(stderr, "--- the run said:\n%s", log);
		fail_msg("see the run's log above");
	}
	assert_updated_to(DEMO_FW);
	assert_int_equal(chip().stats.bl_enters, 1);
	assert_int_equal(emub_update_fw_count(E.eb, "touchpad"), 1);
	assert_int_equal(runs_in(log), 1);
}

/* An erased trackpad: cyapa binds it ("genN bootloader") without an
 * input device; nothing remembered, the board's database names one
 * product: the board decides, update_fw flashes it from there. */
static void test_trackpad_in_its_bootloader_is_brought_back_by_the_board(void **state)
{
	long long t0;

	(void)state;
	start("none", NULL);
	assert_int_equal(chip().mode, CYAPA_PIP_BL);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	assert_false(e2e_has_input(&E, "touchpad"));
	t0 = e2e_now_ms();
	expect_rc(TF_EXIT_OK, "run", DEV);
	fprintf(stderr,
		"# gen%d: run -> verified input device: %lld ms (emulated, fast pacing)\n", GEN,
		e2e_now_ms() - t0);
	said("cyapa bound with the trackpad in its bootloader (gen%d bootloader", GEN);
	e2e_said(&E, "verified: firmware (bootloader) -> 3.1");
	assert_updated();
	assert_int_equal(chip().stats.bl_enters, 0);
}

/* The supply drops as the 100th row command arrives: the row times out,
 * cyapa's update_fw fails, it finds the trackpad in its bootloader (the
 * new metadata, half the rows: no valid application) and stays bound
 * without input.  Exit 11; the next run matches it by the product
 * remembered from its application and brings it back. */
static void test_power_loss_midway_leaves_the_bootloader_and_the_next_run_recovers(void **state)
{
	struct chip c;

	(void)state;
	start("2.0", "fault.bl_power_loss = 100\n");
	expect_rc(TF_EXIT_BOOTLOADER, "run", DEV);
	e2e_said(&E, "the trackpad is left in its bootloader");
	said("gen%d bootloader", GEN);
	c = chip();
	assert_int_equal(c.stats.power_losses, 1);
	assert_int_equal(c.stats.rows_written, 99);
	assert_int_equal(c.mode, CYAPA_PIP_BL);
	assert_int_equal(c.fw, -1);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	assert_false(e2e_has_input(&E, "touchpad"));
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "hardware unknown in bootloader mode: remembered hardware " PRODUCT);
	e2e_said(&E, "verified: firmware (bootloader) -> 3.1");
	c = chip();
	assert_int_equal(c.mode, CYAPA_PIP_APP);
	assert_int_equal(c.fw, NEW_FW);
	assert_true(e2e_has_input(&E, "touchpad"));
}

/* ------------------------------------------------------------ refusals */

/* The other PIP generation's image (a good one: db add takes it) for this
 * trackpad: cyapa would refuse it (cyapa_pip_fw_head_check); touchfw
 * refuses it first, by hand and from the database, before update_fw is
 * written (exit 13).  A Gen3 image in the database for this product:
 * matched by the product id, refused at load as the wrong generation's,
 * never written; given by hand the same. */
static void test_another_generations_image_is_refused_unwritten(void **state)
{
	int other = GEN == 5 ? 6 : 5;
	const char *f;

	(void)state;
	start("2.0", NULL);
	f = pip_image_gen(other, PRODUCT, 4, 2, 0);
	expect_rc(TF_EXIT_UNSUPPORTED, "flash", "--firmware", f, DEV);
	said("a Gen%d image, the trackpad is Gen%d: cyapa would refuse it; not sent", other,
	     GEN);
	db_with(f);
	assert_true(e2e_touchfw(&E, "run", DEV) != TF_EXIT_OK);
	said("a Gen%d image, the trackpad is Gen%d: cyapa would refuse it; not sent", other,
	     GEN);
	assert_untouched(OLD_FW);
	teardown(state);

	start("2.0", NULL);
	f = gen3_image(PRODUCT, 4, 0);
	db_with(f);
	assert_true(e2e_touchfw(&E, "run", DEV) != TF_EXIT_OK);
	said("a Gen3 image, the trackpad is Gen%d: cyapa would refuse it; not sent", GEN);
	expect_rc(TF_EXIT_UNSUPPORTED, "flash", "--firmware", f, DEV);
	said("a Gen3 image, the trackpad is Gen%d: cyapa would refuse it; not sent", GEN);
	assert_untouched(OLD_FW);
	assert_int_equal(emub_update_fw_count(E.eb, "touchpad"), 0);
	assert_true(e2e_has_input(&E, "touchpad"));
}

/* Broken images of the trackpad's generation: refused by db add and by
 * flash, each naming the driver's rule; nothing written.  A good one is
 * taken by db add as an image of its generation. */
static void test_broken_images_are_refused_and_good_ones_described(void **state)
{
	static const char *const why[] = {
		NULL,
		"its metadata row's CRC",
		"its application CRC is",
		"are not whole 133-byte records",
	};
	int d;

	(void)state;
	start("2.0", NULL);
	for (d = 1; d <= 3; d++) {
		const char *f = pip_image(PRODUCT, 3, 2, d);

		expect_rc(TF_EXIT_BAD_INPUT, "db", "add", f, "--db", E.db, "--family", "cyapa",
			  "--board", board());
		e2e_said(&E, why[d]);
		expect_rc(TF_EXIT_BAD_INPUT, "flash", "--firmware", f, DEV);
		e2e_said(&E, why[d]);
	}
	assert_untouched(OLD_FW);
	expect_rc(TF_EXIT_OK, "db", "add", pip_image(PRODUCT, 3, 3, 0), "--db", E.db,
		  "--family", "cyapa", "--board", board());
	said("Cypress Gen%d (PIP) trackpad firmware image", GEN);
}

/* ------------------------------------------------ unbound devices */

/* The board with every bus transfer traced to E.dir/emuboard.log. */
static void go_traced(void)
{
	e2e_trace_on(&E);
	e2e_go(&E);
	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 20000), 0);
}

/* touchfw's transfers to 0x24 wrote no data: register pointers (the HID
 * descriptor's two bytes at most) before reads; how many there were. */
static unsigned transfers_wrote_nothing(void)
{
	return e2e_traced_no_write(&E, 0x24, 2);
}

/* A trackpad with nothing bound (the module loaded late, or unbound by
 * hand): identified over the bus as cyapa's gen5_idle_state_parse does,
 * reading only -- its output buffer read out until it says "no data",
 * then its HID descriptor (report id 0xf7, maximum output 254: a PIP
 * application) -- no command sent: the descriptor does not tell Gen5
 * from Gen6 (the system information would, a command); a dry run stops
 * there; a run gives it to cyapa, which finds "genN operational", and
 * touchfw updates it through update_fw.  So too an erased one (report
 * id 0xff: its bootloader). */
static void test_unbound_trackpad_is_identified_read_only_and_given_to_cyapa(void **state)
{
	(void)state;
	prepare_ex("2.0", false, NULL, NULL);
	go_traced();
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	expect_rc(TF_EXIT_OK, "run", "--dry-run", DEV);
	e2e_said(&E, "PIP trackpad at 0x24 in its application (HID descriptor: report id "
		     "0xf7, maximum output length 254): Gen5 or Gen6, cyapa reads which");
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	assert_true(transfers_wrote_nothing() > 0);
	assert_int_equal(chip().stats.commands, 0);
	assert_untouched(OLD_FW);
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "binding cyapa (it takes a trackpad in either mode)");
	e2e_said(&E, "verified: firmware 2.0 -> 3.1");
	assert_updated();
	assert_true(transfers_wrote_nothing() > 0);
	teardown(state);

	prepare_ex("none", false, NULL, NULL);
	go_traced();
	assert_int_equal(chip().mode, CYAPA_PIP_BL);
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "PIP trackpad at 0x24 in its bootloader (HID descriptor: report id "
		     "0xff, maximum output length 256): Gen5 or Gen6, cyapa reads which");
	said("gen%d bootloader", GEN);
	e2e_said(&E, "verified: firmware (bootloader) -> 3.1");
	assert_updated();
	assert_true(transfers_wrote_nothing() > 0);
}

/* A trackpad cyapa bound and left in deep sleep (nobody had its input
 * device open), then unbound by hand: it says "no data" but gives no HID
 * descriptor until the power command wakes it, which touchfw does not
 * send unbound: refused, nothing written, the message says binding cyapa
 * wakes it. */
static void test_unbound_trackpad_in_deep_sleep_is_refused_unwritten(void **state)
{
	(void)state;
	prepare_ex("2.0", true, NULL, NULL);
	go_traced();
	assert_int_equal(emub_unbind(E.eb, "touchpad"), 0);
	expect_rc(TF_EXIT_UNSUPPORTED, "run", DEV);
	e2e_said(&E, "gives no HID descriptor: a Gen5 or Gen6 trackpad in deep sleep");
	e2e_said(&E, "binding cyapa wakes it");
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	assert_true(transfers_wrote_nothing() > 0);
	assert_untouched(OLD_FW);
}

/* A device at 0x24 that is no trackpad (a 24C02 of zeros, nothing bound):
 * neither a Gen3 state nor PIP's "no data"; refused, and nothing written
 * -- not even the HID descriptor's register, which a 24C02 would take
 * as an address and a byte to store. */
static void test_unbound_foreign_device_at_0x24_is_refused_unwritten(void **state)
{
	struct eeprom_model *m;
	unsigned i;

	(void)state;
	prepare_chip("model = eeprom\n"
		     "bound = false\n"
		     "eeprom.fill = 0x00\n",
		     NULL);
	go_traced();
	expect_rc(TF_EXIT_UNSUPPORTED, "run", DEV);
	e2e_said(&E, "is not a Cypress Gen3 trackpad");
	e2e_said(&E, "nor a PIP one (no \"no data\" (02 00) as PIP answers)");
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	assert_true(transfers_wrote_nothing() > 0);
	emub_lock(E.eb);
	m = emub_chip_eeprom(E.eb, "touchpad");
	assert_non_null(m);
	assert_int_equal(eeprom_model_stats(m)->write_cycles, 0);
	for (i = 0; i < 256 && eeprom_model_peek(m, (em_u16)i) == 0; i++)
		;
	emub_unlock(E.eb);
	assert_int_equal(i, 256);
}

/* One test for one generation, named TEST@genN. */
#define PIP_TEST(f, g)                                        \
	{                                                     \
#f "@gen" #g, f, setup_gen##g, teardown, NULL \
	}
#define BOTH(f) PIP_TEST(f, 5), PIP_TEST(f, 6)

int main(void)
{
	const struct CMUnitTest tests[] = {
		BOTH(test_bind_with_older_firmware_is_updated_through_update_fw),
		BOTH(test_bind_with_older_firmware_is_updated_from_the_demo_database),
		BOTH(test_trackpad_in_its_bootloader_is_brought_back_by_the_board),
		BOTH(test_power_loss_midway_leaves_the_bootloader_and_the_next_run_recovers),
		BOTH(test_another_generations_image_is_refused_unwritten),
		BOTH(test_broken_images_are_refused_and_good_ones_described),
		BOTH(test_unbound_trackpad_is_identified_read_only_and_given_to_cyapa),
		BOTH(test_unbound_trackpad_in_deep_sleep_is_refused_unwritten),
		PIP_TEST(test_unbound_foreign_device_at_0x24_is_refused_unwritten, 5),
	};

	e2e_test_filter();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
