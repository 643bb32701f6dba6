// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End to end on an emulated Cypress Gen3 trackpad: the real touchfw
 * binaries inside an emulated board, judged by the trackpad model
 * (tests/emul/family/cyapa/model/cyapa_model.c) and the emulated cyapa
 * driver (tests/emul/family/cyapa/drv_cyapa.c), both written from the
 * kernel's cyapa.c and cyapa_gen3.c, not from the agent.  touchfw never
 * sends the trackpad a command: it stages the image as cyapa.bin, writes
 * that name to update_fw (the write returns when the driver has flashed
 * and detected the trackpad again) and verifies firmware_version and the
 * driver's new input device.  Paths: a bind with older firmware; a
 * trackpad in its bootloader (cyapa binds it "not operational"), matched
 * by the product id remembered from its application, or by the board
 * when nothing is remembered; faults: the supply dropping midway (the
 * trackpad left in its bootloader, the next run brings it back); refusals:
 * an image for another product, broken images (db add, db check, flash),
 * a foreign device at 0x67.
 */
#include "emub-cyapa.h"
#include "e2e.h"

#include "cyapa_model.h"
#include "eeprom_model.h"
#include "emub-eeprom.h"
#include "exitcode.h"

#define DEV "1-0067"
#define PRODUCT "CYTRA-116002-00"
#define DB_FW 0x0200 /* cyapa-CYTRA-116002-00-fw-2.0 in the demo database */
#define OLD_FW 0x0100

static struct e2e E;

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

/* The board text: the trackpad at 0x67 with @chip_keys (model, driver,
 * cyapa.* keys), powered by the platform (cyapa reads it before it
 * switches vcc). */
static char *board(const char *chip_keys)
{
	char *b = NULL;

	assert_true(asprintf(&b,
			     "[board]\n"
			     "name = touchfw e2e Cypress trackpad board\n"
			     "compatible = touchfw,emul-cyapa\n"
			     "pacing = fast\n"
			     "[adapter 1]\n"
			     "name = touchfw emulated adapter 1\n"
			     "speed = 400000\n"
			     "[chip touchpad]\n"
			     "adapter = 1\n"
			     "address = 0x67\n"
			     "power = always-on\n"
			     "%s"
			     "[gpiochip]\n"
			     "label = emuboard-gpio\n"
			     "lines = 8\n"
			     "line.0 = TP_UNUSED\n"
			     "line.1 = TP_INT\n",
			     chip_keys) > 0);
	return b;
}

/* A Gen3 trackpad bound to cyapa: @fw "1.0", or "none" (erased: in its
 * bootloader); @extra more chip keys; @he_args not NULL: every uevent
 * runs handle-event (udev's RUN). */
static void prepare(const char *fw, const char *extra, const char *he_args)
{
	char *keys = NULL, *b;

	assert_true(asprintf(&keys,
			     "model = cyapa\n"
			     "compatible = cypress,cyapa\n"
			     "driver = cyapa\n"
			     "bound = true\n"
			     "int_gpio = 1\n"
			     "cyapa.fw_version = %s\n"
			     "%s",
			     fw, extra ? extra : "") > 0);
	b = board(keys);
	free(keys);
	e2e_prepare(&E, b, he_args);
	free(b);
}

static void start(const char *fw, const char *extra)
{
	prepare(fw, extra, NULL);
	e2e_go(&E);
	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 20000), 0);
}

struct chip {
	enum cyapa_model_mode mode;
	int fw; /* major << 8 | minor, -1: no valid application */
	struct cyapa_model_stats stats;
};

static struct chip chip(void)
{
	struct cyapa_model *m;
	struct chip c;

	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 60000), 0);
	emub_lock(E.eb);
	m = emub_chip_cyapa(E.eb, "touchpad");
	assert_non_null(m);
	c.mode = cyapa_model_mode(m);
	c.fw = cyapa_model_fw_version(m);
	c.stats = *cyapa_model_stats(m);
	emub_unlock(E.eb);
	return c;
}

/* The trackpad runs the database's 2.0, cyapa bound with an input device. */
static void assert_updated(unsigned initiates)
{
	struct chip c = chip();

	assert_int_equal(c.mode, CYAPA_MODEL_APP);
	assert_int_equal(c.fw, DB_FW);
	assert_int_equal(c.stats.initiates, initiates);
	assert_int_equal(c.stats.block_errors, 0);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	assert_true(e2e_has_input(&E, "touchpad"));
}

/* Nothing reached the trackpad's bootloader. */
static void assert_untouched(int fw)
{
	struct chip c = chip();

	assert_int_equal(c.fw, fw);
	assert_int_equal(c.stats.initiates, 0);
	assert_int_equal(c.stats.soft_resets, 0);
	assert_int_equal(c.stats.blocks_written, 0);
}

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

/* A Gen3 image of @product, version @maj.@min, in the private directory
 * as ChromeOS names them (PRODUCT_VERSION.bin); @damage: 0 none, 1 the
 * header sum, 2 the image sum, 3 a block short. */
static const char *image(const char *product, unsigned maj, unsigned min, int damage)
{
	static uint8_t f[CYAPA_MODEL_FILE_SIZE];
	static const char *const tag[] = { "", "-bad-header", "-bad-image", "-short" };
	char name[80];
	size_t len = sizeof(f);

	cyapa_model_make_file(f, product, (em_u8)maj, (em_u8)min);
	if (damage == 1)
		f[1] ^= 0x01;
	else if (damage == 2)
		f[CYAPA_MODEL_FILE_SIZE - 1] ^= 0x01;
	else if (damage == 3)
		len -= CYAPA_MODEL_BLOCK;
	snprintf(name, sizeof(name), "%s_%u.%u%s.bin", product, maj, min, tag[damage]);
	return write_file(name, f, len);
}

/* Sign the private database again after a change (the build's key). */
static void resign(void)
{
	char cmd[1024];

	snprintf(
		cmd, sizeof(cmd),
		"'%s/touchfw-agent' db sign --key '%s/keys/build-demo.key' --db '%s' >/dev/null",
		E.build, E.build, E.db);
	assert_int_equal(system(cmd), 0);
}

/* ------------------------------------------------------------ paths */

/* At boot: cyapa binds the trackpad (firmware 1.0), the bind uevent runs
 * handle-event, which hands off to a run; it stages the database's 2.0 as
 * cyapa.bin and writes that name to update_fw; cyapa flashes 482 blocks
 * and registers a new input device by itself (no rebind). */
static void test_bind_with_older_firmware_is_updated_through_update_fw(void **state)
{
	char *log, *json;
	long long t0;

	(void)state;
	prepare("1.0", NULL, "");
	t0 = e2e_now_ms();
	e2e_go(&E);
	e2e_wait_run_done(&E, DEV);
	fprintf(stderr, "# bind -> verified input device: %lld ms (emulated, fast pacing)\n",
		e2e_now_ms() - t0);
	log = e2e_state_file(&E, DEV ".log");
	assert_non_null(log);
	e2e_keep(&E, log);
	if (!strstr(log, "application mode: hardware " PRODUCT ", firmware 1.0") ||
	    !strstr(log, "/cyapa.bin; asking cyapa to flash it (update_fw)") ||
	    !strstr(log, "verified: firmware 1.0 -> 2.0")) {
		fprintf(stderr, "--- the run said:\n%s", log);
		fail_msg("see the run's log above");
	}
	assert_updated(1);
	assert_int_equal(chip().stats.blocks_written, 482);
	assert_int_equal(chip().stats.soft_resets, 1);
	json = e2e_state_file(&E, DEV ".json");
	assert_non_null(json);
	e2e_keep(&E, json);
	assert_non_null(strstr(json, "\"path\":\"update_fw\""));
	assert_non_null(strstr(json, "\"version_after\":\"2.0\""));
	/* one bind: cyapa's own; one update_fw */
	assert_int_equal(emub_update_fw_count(E.eb, "touchpad"), 1);
	/* a second run has nothing to do */
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "running 2.0");
	assert_int_equal(chip().stats.initiates, 1);
}

static void test_dry_run_names_update_fw_and_cyapa_bin(void **state)
{
	(void)state;
	start("1.0", NULL);
	expect_rc(TF_EXIT_OK, "run", "--dry-run", DEV);
	e2e_said(&E, "through cyapa's update_fw as cyapa.bin");
	assert_untouched(OLD_FW);
}

/* An erased trackpad: cyapa binds it in its bootloader without an input
 * device; nothing is remembered, the board's database names one product
 * for this board: the board decides. */
static void test_trackpad_in_its_bootloader_is_brought_back_by_the_board(void **state)
{
	long long t0;

	(void)state;
	start("none", NULL);
	assert_int_equal(chip().mode, CYAPA_MODEL_BL_IDLE);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	assert_false(e2e_has_input(&E, "touchpad"));
	t0 = e2e_now_ms();
	expect_rc(TF_EXIT_OK, "run", DEV);
	fprintf(stderr, "# run -> verified input device: %lld ms (emulated, fast pacing)\n",
		e2e_now_ms() - t0);
	e2e_said(&E, "cyapa bound with the trackpad in its bootloader (gen3 bootloader idle");
	e2e_said(&E, "chip in bootloader mode: newest firmware for this board is 2.0");
	e2e_said(&E, "verified: firmware (bootloader) -> 2.0");
	assert_updated(1);
	/* from the bootloader: no soft reset needed */
	assert_int_equal(chip().stats.soft_resets, 0);
}

/* The same where the database has two products for the board: a
 * bootloader does not say which it is, so nothing is written and the
 * message says how to pin one. */
static void test_bootloader_with_two_products_for_the_board_is_not_guessed(void **state)
{
	(void)state;
	start("none", NULL);
	e2e_private_db(&E);
	expect_rc(TF_EXIT_OK, "db", "add", image("CYTRA-101003-00", 3, 0, 0), "--db", E.db,
		  "--board", "touchfw,emul-cyapa");
	resign();
	expect_rc(TF_EXIT_NO_FIRMWARE, "run", DEV);
	e2e_said(&E, "more than one hardware on this board");
	assert_untouched(-1);
	assert_int_equal(chip().mode, CYAPA_MODEL_BL_IDLE);
}

/* ------------------------------------------------------------ faults */

/* The supply drops as the 100th block arrives: cyapa's update_fw fails,
 * it detects the trackpad again in its bootloader and stays bound
 * without input.  touchfw says so (exit 11); its next run, matching the
 * trackpad by the product id remembered from its application, brings it
 * back. */
static void test_power_loss_midway_leaves_the_bootloader_and_the_next_run_recovers(void **state)
{
	struct chip c;

	(void)state;
	start("1.0", "fault.bl_power_loss = 100\n");
	expect_rc(TF_EXIT_BOOTLOADER, "run", DEV);
	e2e_said(&E, "the trackpad is left in its bootloader");
	e2e_said(&E, "so the next touchfw run for it tries again");
	c = chip();
	assert_int_equal(c.stats.power_losses, 1);
	assert_int_equal(c.stats.blocks_written, 99);
	assert_int_equal(c.mode, CYAPA_MODEL_BL_IDLE);
	assert_int_equal(c.fw, -1);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	assert_false(e2e_has_input(&E, "touchpad"));
	expect_rc(TF_EXIT_OK, "run", DEV);
	/* cyapa's firmware_version still says 1.0 (it keeps the last it read
	 * where the bootloader shows none): not taken for the flash's */
	e2e_said(&E, "cyapa bound with the trackpad in its bootloader (gen3 bootloader idle; "
		     "firmware_version 1.0 is the last cyapa read)");
	e2e_said(&E, "hardware unknown in bootloader mode: remembered hardware " PRODUCT);
	e2e_said(&E, "verified: firmware (bootloader) -> 2.0");
	assert_updated(2);
}

/* ------------------------------------------------------------ refusals */

/* The image does not say its product: the database does.  A trackpad of
 * another product gets nothing from this board's database; the other
 * product's newer image is not given to this one. */
static void test_image_for_another_product_is_not_sent(void **state)
{
	(void)state;
	start("1.0", "cyapa.product_id = CYTRA-999999-00\n");
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "no firmware for hardware CYTRA-999999-00");
	assert_untouched(OLD_FW);
	e2e_stop(&E);

	start("1.0", NULL);
	e2e_private_db(&E);
	expect_rc(TF_EXIT_OK, "db", "add", image("CYTRA-101003-00", 3, 0, 0), "--db", E.db,
		  "--board", "touchfw,emul-cyapa");
	e2e_said(&E, "product id CYTRA-101003-00 and version 3.0: from its file name");
	resign();
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "verified: firmware 1.0 -> 2.0");
	assert_updated(1);
}

/* The same given by hand (flash --firmware, no manifest to match): the
 * image does not say its product, but a file named as ChromeOS names
 * them does; one named for another product is not sent. */
static void test_image_named_for_another_product_given_by_hand_is_not_sent(void **state)
{
	(void)state;
	start("1.0", NULL);
	expect_rc(TF_EXIT_UNSUPPORTED, "flash", "--firmware", image("CYTRA-101003-00", 3, 0, 0),
		  DEV);
	e2e_said(&E, "its file name says it is for CYTRA-101003-00, the trackpad is " PRODUCT
		     ": not sent; the trackpad was not touched");
	assert_untouched(OLD_FW);
	assert_true(e2e_has_input(&E, "touchpad"));
	/* named for this product, it goes */
	expect_rc(TF_EXIT_OK, "flash", "--firmware", image(PRODUCT, 3, 0, 0), DEV);
	e2e_said(&E, "verified: firmware 1.0 -> 3.0");
}

/* The driver's three checks (cyapa_gen3_check_fw), made before anything
 * is written: db add refuses such a file, db check a database holding
 * one, a run on that database and a hand-given one never reach the
 * trackpad. */
static void test_broken_images_are_refused_and_never_written(void **state)
{
	static const char *const why[] = { NULL, "its header checksum (bytes 0-1)",
					   "its image checksum (bytes 126-127)",
					   "30784 bytes: a Gen3 cyapa image is 30848 bytes" };
	char cmd[2048];
	int d;

	(void)state;
	start("1.0", NULL);
	e2e_private_db(&E);
	for (d = 1; d <= 3; d++) {
		const char *f = image(PRODUCT, 3, 0, d);

		expect_rc(TF_EXIT_BAD_INPUT, "db", "add", f, "--db", E.db, "--board",
			  "touchfw,emul-cyapa");
		e2e_said(&E, why[d]);
		expect_rc(TF_EXIT_BAD_INPUT, "flash", "--firmware", f, DEV);
		e2e_said(&E, why[d]);
	}
	assert_untouched(OLD_FW);
	/* The database's own blob damaged (hash and signature made again, as
	 * a careless packager would): db check names the driver's rule, the
	 * run refuses it. */
	snprintf(
		cmd, sizeof(cmd),
		"f='%s/cyapa/cyapa-CYTRA-116002-00-fw-2.0.bin' && "
		"printf '\\001' | dd of=\"$f\" bs=1 seek=1 conv=notrunc status=none && "
		"sum=$(sha256sum \"$f\" | cut -d' ' -f1) && "
		"sed -i \"/cyapa-CYTRA-116002-00-fw-2.0.bin/,/^sha256/s/^sha256 = .*/sha256 = $sum/\" "
		"'%s/manifest.ini'",
		E.db, E.db);
	assert_int_equal(system(cmd), 0);
	resign();
	expect_rc(TF_EXIT_DB_INVALID, "db", "check", "--db", E.db);
	assert_non_null(E.out);
	if (!strstr(E.out,
		    "cyapa-CYTRA-116002-00-fw-2.0.bin ([cyapa-CYTRA-116002-00-fw-2.0]") ||
	    !strstr(E.out, "its header checksum (bytes 0-1) is 0x0101"))
		e2e_fail_with_output(&E, "db check did not name the broken blob");
	e2e_touchfw(&E, "run", DEV);
	assert_true(E.rc != TF_EXIT_OK);
	e2e_said(&E, "its header checksum (bytes 0-1)");
	assert_untouched(OLD_FW);
	assert_true(e2e_has_input(&E, "touchpad"));
}

/* ------------------------------------------------ unbound devices */

static void start_traced(const char *chip_keys)
{
	char *b = board(chip_keys);

	e2e_prepare(&E, b, NULL);
	free(b);
	e2e_trace_on(&E);
	e2e_go(&E);
	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 20000), 0);
}

static void assert_eeprom_untouched(unsigned char fill)
{
	struct eeprom_model *m;
	unsigned i;

	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 20000), 0);
	emub_lock(E.eb);
	m = emub_chip_eeprom(E.eb, "touchpad");
	assert_non_null(m);
	assert_int_equal(eeprom_model_stats(m)->write_cycles, 0);
	for (i = 0; i < 256 && eeprom_model_peek(m, (em_u16)i) == fill; i++)
		;
	emub_unlock(E.eb);
	assert_int_equal(i, 256);
}

/* A 24C02 at 0x67 bound to at24: not cyapa's, refused unasked. */
static void test_eeprom_bound_to_at24_at_0x67_is_refused_untouched(void **state)
{

	(void)state;
	start_traced("model = eeprom\n"
		     "compatible = atmel,24c02\n"
		     "driver = at24\n"
		     "bound = true\n"
		     "eeprom.fill = 0x10\n");
	expect_rc(TF_EXIT_UNSUPPORTED, "run", DEV);
	e2e_said(&E, "bound to driver at24, which is not a cyapa driver");
	expect_rc(TF_EXIT_UNSUPPORTED, "run", "--force", DEV);
	assert_eeprom_untouched(0x10);
	assert_int_equal(e2e_traced_no_write(&E, 0x67, 0), 0);
}

/* A device that is no trackpad at 0x67 with nothing bound (a 24C02 of
 * zeros: neither a Gen3 bootloader's state nor an application's): read,
 * refused, nothing written -- not even the 00 00 cyapa writes to make a
 * part refresh its state. */
static void test_unbound_foreign_device_at_0x67_is_read_and_refused(void **state)
{

	(void)state;
	start_traced("model = eeprom\n"
		     "compatible = cypress,cyapa\n"
		     "driver = cyapa\n"
		     "bound = false\n"
		     "eeprom.fill = 0x00\n");
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	expect_rc(TF_EXIT_UNSUPPORTED, "run", DEV);
	e2e_said(&E, "is not a Cypress Gen3 trackpad");
	assert_eeprom_untouched(0x00);
	/* asked: a one-byte register pointer, then reads */
	assert_true(e2e_traced_no_write(&E, 0x67, 1) > 0);
}

/* A Gen3 trackpad with nothing bound (the module loaded late, or
 * unbound by hand) sits in its bootloader, where it powers up: a dry run
 * reads its registers and writes nothing; a run gives it to cyapa, which
 * launches its application, and updates it through update_fw.  So too
 * an erased one. */
static void test_unbound_trackpad_is_given_to_cyapa_and_updated(void **state)
{

	(void)state;
	start_traced("model = cyapa\n"
		     "compatible = cypress,cyapa\n"
		     "driver = cyapa\n"
		     "bound = false\n"
		     "int_gpio = 1\n"
		     "cyapa.fw_version = 1.0\n");
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	expect_rc(TF_EXIT_OK, "run", "--dry-run", DEV);
	e2e_said(&E, "Gen3 bootloader at 0x67 (status 0x11, error 0x00): its application's "
		     "checksum is valid");
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	assert_true(e2e_traced_no_write(&E, 0x67, 1) > 0);
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "binding cyapa (it takes a trackpad in either mode)");
	e2e_said(&E, "verified: firmware 1.0 -> 2.0");
	assert_updated(1);
	e2e_stop(&E);

	start_traced("model = cyapa\n"
		     "compatible = cypress,cyapa\n"
		     "driver = cyapa\n"
		     "bound = false\n"
		     "int_gpio = 1\n"
		     "cyapa.fw_version = none\n");
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E,
		 "no valid application; cyapa binds it without an input device; binding cyapa");
	e2e_said(&E, "verified: firmware (bootloader) -> 2.0");
	assert_updated(1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(
			test_bind_with_older_firmware_is_updated_through_update_fw, teardown),
		cmocka_unit_test_teardown(test_dry_run_names_update_fw_and_cyapa_bin, teardown),
		cmocka_unit_test_teardown(
			test_trackpad_in_its_bootloader_is_brought_back_by_the_board, teardown),
		cmocka_unit_test_teardown(
			test_bootloader_with_two_products_for_the_board_is_not_guessed,
			teardown),
		cmocka_unit_test_teardown(
			test_power_loss_midway_leaves_the_bootloader_and_the_next_run_recovers,
			teardown),
		cmocka_unit_test_teardown(test_image_for_another_product_is_not_sent, teardown),
		cmocka_unit_test_teardown(
			test_image_named_for_another_product_given_by_hand_is_not_sent,
			teardown),
		cmocka_unit_test_teardown(test_broken_images_are_refused_and_never_written,
					  teardown),
		cmocka_unit_test_teardown(
			test_eeprom_bound_to_at24_at_0x67_is_refused_untouched, teardown),
		cmocka_unit_test_teardown(
			test_unbound_foreign_device_at_0x67_is_read_and_refused, teardown),
		cmocka_unit_test_teardown(test_unbound_trackpad_is_given_to_cyapa_and_updated,
					  teardown),
	};

	e2e_test_filter();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
