// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End to end: a database made from nothing with `touchfw db init`, every
 * family's blobs added with `touchfw db add` -- the files the drivers load
 * (Silead, Elan touchscreen and touchpad blobs, whose headers say little)
 * and the formats people have, converted (a maXTouch .xcfg; a Silead GSLX
 * container, GSL_TS_CFG.h, the scrambled SileadTouch.fw) with the
 * original's SHA-256 kept in the manifest -- `touchfw db check` on it,
 * `touchfw db remove` taking blobs out, and `touchfw run` on the emulated
 * boards loading the converted blobs: the Silead chip model runs its
 * program only when it is the tablet's, the maXTouch model reports the
 * configuration's CRC.  The files come from fwgen (each emulator family's
 * db.mk), made from the chip models.
 */
#include "emub-silead.h"
#include "e2e.h"

#include <sodium.h>
#include <sys/stat.h>

#include "exitcode.h"
#include "silead_model.h"

#define SILEAD_DEV "i2c-MSSL1680:00"
#define SILEAD_BOARD "touchfw,emul-silead-tablet"

static struct e2e E;
static char DB[400];

#define expect_rc(want, ...)                                                           \
	do {                                                                           \
		int rc_ = e2e_touchfw(&E, __VA_ARGS__);                                \
		if (rc_ != (want))                                                     \
			fail_msg("touchfw exit %d, expected %d; it said:\n%s%s", rc_,  \
				 (int)(want), E.out ? E.out : "", E.err ? E.err : ""); \
	} while (0)

static int teardown(void **state)
{
	(void)state;
	if (E.dir[0])
		e2e_stop(&E);
	return 0;
}

/* The emulated Silead tablet (as test_e2e_silead.c's), no file staged. */
static void start_tablet(void)
{
	char *b = NULL, err[512] = "";

	e2e_prepare(&E, "[board]\nname = placeholder\ncompatible = a,b\n[adapter 9]\n", NULL);
	emub_free(E.eb);
	E.eb = NULL;
	assert_true(asprintf(&b,
			     "[board]\n"
			     "name = touchfw e2e Silead tablet\n"
			     "dmi.sys_vendor = touchfw\n"
			     "dmi.product_name = Emulated Silead Tablet\n"
			     "pacing = fast\n"
			     "firmware_dirs = %s/firmware\n"
			     "[adapter 1]\n"
			     "name = touchfw emulated adapter 1\n"
			     "speed = 400000\n"
			     "[chip touchscreen]\n"
			     "adapter = 1\n"
			     "address = 0x40\n"
			     "model = silead\n"
			     "acpi_id = MSSL1680\n"
			     "driver = silead_ts\n"
			     "power = driver\n"
			     "power_gpio = 0\n"
			     "chg_gpio = 1\n"
			     "silead.firmware_seed = 1/4\n"
			     "silead.firmware_name = gsl1680-emul-tablet.fw\n"
			     "touchscreen.size_x = 1960\n"
			     "touchscreen.size_y = 1500\n"
			     "touchscreen.swapped_x_y = true\n"
			     "[gpiochip]\n"
			     "lines = 8\n",
			     E.dir) > 0);
	if (emub_new_from_string(b, E.dir, &E.eb, err, sizeof(err)) < 0)
		fail_msg("board: %s", err);
	if (getenv("E2E_LOG"))
		emub_set_log(E.eb, stderr);
	free(b);
	e2e_go(&E);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
}

/* The mxt224e of the demo board, running firmware 2.1.AB. */
static void start_mxt(void)
{
	char *b = e2e_board("touchfw,emul-demo", "mxt224e", "app", "2.1.AB", "driver", NULL);

	assert_non_null(b);
	e2e_start(&E, b);
	free(b);
}

/* A new empty database in the test's directory, the settings' db_dir. */
static void new_db(const char *name)
{
	assert_int_equal(tf_snprintf(DB, sizeof(DB), "%s/%s", E.dir, name), 0);
	assert_int_equal(tf_snprintf(E.db, sizeof(E.db), "%s", DB), 0);
	e2e_settings(&E, NULL);
	expect_rc(TF_EXIT_OK, "db", "init", DB);
}

/* Signed with the build's demo key, which the tests' settings trust. */
static void sign_db(void)
{
	char key[400];

	snprintf(key, sizeof(key), "%s/keys/build-demo.key", E.build);
	expect_rc(TF_EXIT_OK, "db", "sign", "--key", key, "--db", DB);
}

/* A build fixture copied into the test's directory as @as; its path. */
static char *fixture(const char *sub, const char *name, const char *as)
{
	static char path[600];
	char cmd[1400];

	snprintf(path, sizeof(path), "%s/%s", E.dir, as);
	snprintf(cmd, sizeof(cmd), "cp '%s/%s/%s' '%s'", E.build, sub, name, path);
	assert_int_equal(system(cmd), 0);
	return path;
}

static char *read_all(const char *path, size_t *len)
{
	char *buf = NULL;

	if (tf_read_file(path, 1 << 22, &buf, len) < 0)
		fail_msg("%s: can not read", path);
	return buf;
}

static void sha256_of(const char *path, char hex[65])
{
	uint8_t d[32];
	size_t len;
	char *buf = read_all(path, &len);

	assert_true(sodium_init() >= 0);
	crypto_hash_sha256(d, (const uint8_t *)buf, len);
	tf_hex_encode(d, 32, hex);
	free(buf);
}

static char *manifest(void)
{
	char path[500];
	size_t n;

	snprintf(path, sizeof(path), "%s/manifest.ini", DB);
	return read_all(path, &n);
}

/* The manifest has the line "@key = @value". */
static void manifest_has(const char *key, const char *value)
{
	char *m = manifest(), line[300];

	snprintf(line, sizeof(line), "\n%s = %s\n", key, value);
	if (!strstr(m, line))
		fail_msg("manifest.ini has no '%s = %s':\n%s", key, value, m);
	free(m);
}

static void manifest_lacks(const char *text)
{
	char *m = manifest();

	if (strstr(m, text))
		fail_msg("manifest.ini still has '%s':\n%s", text, m);
	free(m);
}

/*
 * Standard output is one JSON document of schema version 1 for which the
 * Python expression @cond holds: d is the document, a is @a.
 */
static void out_json_holds(const char *cond, const char *a)
{
	char doc[500], script[500], *cmd = NULL, *py = NULL;

	snprintf(doc, sizeof(doc), "%s/out.json", E.dir);
	snprintf(script, sizeof(script), "%s/check.py", E.dir);
	e2e_write(doc, E.out ? E.out : "");
	assert_true(asprintf(&py,
			     "import json, sys\n"
			     "d = json.load(open(sys.argv[1]))\n"
			     "a = sys.argv[2]\n"
			     "assert d['version'] == 1, d\n"
			     "assert %s, d\n",
			     cond) > 0);
	e2e_write(script, py);
	assert_true(asprintf(&cmd, "python3 '%s' '%s' '%s'", script, doc, a ? a : "") > 0);
	if (system(cmd) != 0)
		e2e_fail_with_output(&E, "standard output is not the JSON document where %s",
				     cond);
	free(cmd);
	free(py);
}

static bool exists(const char *rel)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/%s", DB, rel);
	return access(path, F_OK) == 0;
}

static struct silead_model_stats silead_chip(bool *ok)
{
	struct silead_model *m;
	struct silead_model_stats s;

	emub_lock(E.eb);
	m = emub_chip_silead(E.eb, "touchscreen");
	assert_non_null(m);
	*ok = silead_model_program_ok(m);
	s = *silead_model_stats(m);
	emub_unlock(E.eb);
	return s;
}

/* ------------------------------------------------------------ item 3 */

/* db init: a database that loads, its modes set whatever the umask. */
static void test_init(void **state)
{
	char path[500];
	struct stat st;
	mode_t old;

	(void)state;
	start_mxt();
	old = umask(077);
	snprintf(DB, sizeof(DB), "%s/db", E.dir);
	expect_rc(TF_EXIT_OK, "db", "init", DB);
	umask(old);
	e2e_said(&E, "db add");
	assert_int_equal(stat(DB, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	snprintf(path, sizeof(path), "%s/manifest.ini", DB);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	manifest_has("format", "1");
	expect_rc(TF_EXIT_OK, "db", "check", "--db", DB, "--signatures", "off");
	/* never over an existing one */
	expect_rc(TF_EXIT_EXISTS, "db", "init", DB);
	e2e_said(&E, "manifest.ini");
	expect_rc(TF_EXIT_USAGE, "db", "init");
}

/*
 * Silead, Elan touchscreen and Elan touchpad blobs added: what their
 * files say (or their names, as the drivers request them), the rest from
 * the command line; a Silead blob needs its tablet (--board).
 */
static void test_add_every_family(void **state)
{
	char *fw;

	(void)state;
	start_mxt();
	new_db("db");
	fw = fixture("fixtures/silead", "tablet-1.fw", "gsl1680-emul-tablet.fw");
	expect_rc(TF_EXIT_USAGE, "db", "add", fw, "--version", "1");
	e2e_said(&E, "--board");
	expect_rc(TF_EXIT_OK, "db", "add", fw, "--board", SILEAD_BOARD, "--version", "1");
	e2e_said(&E, "hardware gsl1680: the chip its file name names");
	manifest_has("family", "silead");
	manifest_has("hardware", "gsl1680");
	manifest_has("file", "silead/gsl1680-emul-tablet.fw");

	fw = fixture("firmware-db/elants", "elants-2a1c-fw-5512.bin", "elants_i2c_2a1c.bin");
	expect_rc(TF_EXIT_USAGE, "db", "add", fw);
	e2e_said(&E, "--version");
	expect_rc(TF_EXIT_OK, "db", "add", fw, "--version", "5512");
	manifest_has("hardware", "2a1c");
	manifest_has("file", "elants/elants_i2c_2a1c.bin");

	fw = fixture("firmware-db/elantp", "elantp-18-fw-6.0.bin", "touchpad.bin");
	expect_rc(TF_EXIT_OK, "db", "add", fw, "--family", "elantp", "--hardware", "18",
		  "--version", "6.0", "--id", "tp");
	manifest_has("hardware", "18");
	manifest_has("version", "6.0");

	expect_rc(TF_EXIT_OK, "db", "check", "--db", DB, "--signatures", "off");
	expect_rc(TF_EXIT_OK, "db", "list", "--db", DB, "--signatures", "off");
	assert_non_null(strstr(E.out, "gsl1680-emul-tablet"));
	assert_non_null(strstr(E.out, "elants_i2c_2a1c"));
	assert_non_null(strstr(E.out, "tp "));
}

/* db remove: the section goes, and its file once no section uses it. */
static void test_remove(void **state)
{
	char *fw;

	(void)state;
	start_mxt();
	new_db("db");
	fw = fixture("fixtures/silead", "tablet-1.fw", "gsl1680-emul-tablet.fw");
	expect_rc(TF_EXIT_OK, "db", "add", fw, "--board", SILEAD_BOARD, "--version", "1",
		  "--id", "a");
	{
		/* a comment introducing the next section stays with it */
		char path[500];
		FILE *f;

		snprintf(path, sizeof(path), "%s/manifest.ini", DB);
		f = fopen(path, "a");
		assert_non_null(f);
		fputs("\n; the other tablet's\n", f);
		assert_int_equal(fclose(f), 0);
	}
	expect_rc(TF_EXIT_OK, "db", "add", fw, "--board", "touchfw,other", "--version", "1",
		  "--id", "b");
	assert_true(exists("silead/gsl1680-emul-tablet.fw"));
	expect_rc(TF_EXIT_OK, "db", "remove", "a", "--db", DB);
	manifest_lacks("[a]");
	manifest_has("format", "1");
	{
		char *m = manifest();

		assert_non_null(strstr(m, "; the other tablet's\n"));
		assert_non_null(strstr(m, "[b]\n"));
		free(m);
	}
	e2e_said(&E, "used by 'b'");
	assert_true(exists("silead/gsl1680-emul-tablet.fw"));
	expect_rc(TF_EXIT_OK, "db", "check", "--db", DB, "--signatures", "off");
	expect_rc(TF_EXIT_OK, "db", "remove", "b", "--db", DB);
	manifest_lacks("[b]");
	assert_false(exists("silead/gsl1680-emul-tablet.fw"));
	expect_rc(TF_EXIT_OK, "db", "check", "--db", DB, "--signatures", "off");
	expect_rc(TF_EXIT_NO_FIRMWARE, "db", "remove", "b", "--db", DB);
	e2e_said(&E, "no blob 'b'");
}

/* ------------------------------------------------------------ item 4 */

/*
 * A GSLX container and the scrambled SileadTouch.fw, each added into a
 * new database and run on the tablet: staged, loaded, the chip runs the
 * tablet's program.  The GSL_TS_CFG.h forms convert to the same bytes.
 */
static void silead_format_runs(const char *name, const char *as, const char *hw)
{
	char want[65], got[65], src[65], blob[600], *fw;
	bool ok;

	start_tablet();
	new_db("db");
	fw = fixture("fixtures/silead", name, as);
	sha256_of(fw, src);
	if (!hw) {
		expect_rc(TF_EXIT_OK, "db", "add", fw, "--board", SILEAD_BOARD, "--version",
			  "1", "--id", "tablet");
	} else {
		expect_rc(TF_EXIT_USAGE, "db", "add", fw, "--board", SILEAD_BOARD, "--version",
			  "1", "--id", "tablet");
		e2e_said(&E, "give --hardware (silead_ts's ids:");
		expect_rc(TF_EXIT_OK, "db", "add", fw, "--board", SILEAD_BOARD, "--version",
			  "1", "--id", "tablet", "--hardware", hw);
	}
	e2e_said(&E, "converted");
	manifest_has("source_sha256", src);
	expect_rc(TF_EXIT_OK, "db", "check", "--db", DB, "--signatures", "off");
	/* the converted blob is the tablet's program as silead_ts loads it */
	snprintf(blob, sizeof(blob), "%s/silead/tablet.fw", DB);
	sha256_of(blob, got);
	sha256_of(fixture("fixtures/silead", "tablet-1.fw", "plain.fw"), want);
	assert_string_equal(got, want);
	sign_db();
	expect_rc(TF_EXIT_OK, "run", SILEAD_DEV);
	e2e_said(&E, "verified");
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	assert_int_equal(silead_chip(&ok).words_written, 4 * 32);
	assert_true(ok);
	e2e_stop(&E);
}

static void test_silead_gslx_and_scrambled_run(void **state)
{
	bool ok = true;

	(void)state;
	silead_format_runs("tablet-1.gslx", "gslx680-tablet.fw", NULL);
	silead_format_runs("tablet-1-SileadTouch.fw", "SileadTouch.fw", "gsl1680");
	/* the chip tells programs apart: another tablet's loads, never fits */
	start_tablet();
	new_db("db");
	expect_rc(TF_EXIT_OK, "db", "add", fixture("fixtures/silead", "other-2.gslx", "o.gslx"),
		  "--board", SILEAD_BOARD, "--version", "1");
	sign_db();
	e2e_touchfw(&E, "run", SILEAD_DEV);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	assert_int_equal(silead_chip(&ok).words_written, 4 * 32);
	assert_false(ok);
}

static void test_silead_headers(void **state)
{
	static const struct {
		const char *name, *part, *hw;
	} cases[] = {
		{ "tablet-1-windows.h", NULL, "gsl1680" },
		{ "tablet-1-android.h", NULL, "gsl3670" },
		{ "tablet-1-android-two.h", "GSL3676_FW", "gsl3670" },
	};
	char want[65], got[65], blob[600], *fw;

	(void)state;
	start_mxt();
	sha256_of(fixture("fixtures/silead", "tablet-1.fw", "plain.fw"), want);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		new_db(i == 0 ? "db0" : i == 1 ? "db1" : "db2");
		fw = fixture("fixtures/silead", cases[i].name, "GSL_TS_CFG.h");
		if (i == 0) {
			/* the Windows header names no chip */
			expect_rc(TF_EXIT_USAGE, "db", "add", fw, "--board", SILEAD_BOARD,
				  "--version", "1");
			e2e_said(&E, "--hardware");
			expect_rc(TF_EXIT_OK, "db", "add", fw, "--board", SILEAD_BOARD,
				  "--version", "1", "--id", "tablet", "--hardware", "gsl1680");
		} else if (!cases[i].part) {
			/* the Android header's names its chip */
			expect_rc(TF_EXIT_OK, "db", "add", fw, "--board", SILEAD_BOARD,
				  "--version", "1", "--id", "tablet");
		} else {
			expect_rc(TF_EXIT_BAD_INPUT, "db", "add", fw, "--board", SILEAD_BOARD,
				  "--version", "1", "--id", "tablet");
			e2e_said(&E, "--part NAME");
			expect_rc(TF_EXIT_OK, "db", "add", fw, "--board", SILEAD_BOARD,
				  "--version", "1", "--id", "tablet", "--part", cases[i].part,
				  "--hardware", cases[i].hw);
		}
		if (i == 1)
			e2e_said(&E,
				 "names the chip gsl3676, which is not one of silead_ts's ids");
		manifest_has("hardware", cases[i].hw);
		expect_rc(TF_EXIT_OK, "db", "check", "--db", DB, "--signatures", "off");
		snprintf(blob, sizeof(blob), "%s/silead/tablet.fw", DB);
		sha256_of(blob, got);
		assert_string_equal(got, want);
	}
	/* broken: refused naming the line, nothing added */
	new_db("db3");
	fw = fixture("fixtures/silead", "tablet-1-bad-register.h", "bad.h");
	expect_rc(TF_EXIT_BAD_INPUT, "db", "add", fw, "--family", "silead", "--board",
		  SILEAD_BOARD, "--version", "1");
	e2e_said(&E, "line 14");
	manifest_lacks("[bad]");
	/* found without --family: the Silead import's error alone */
	fw = fixture("fixtures/silead", "tablet-1-truncated.gslx", "bad.gslx");
	expect_rc(TF_EXIT_BAD_INPUT, "db", "add", fw, "--board", SILEAD_BOARD, "--version",
		  "1");
	e2e_said(&E, "bad.gslx: 452 bytes, but a GSLX file of 4 pages has 552");
	e2e_not_said(&E, "no blob a family touchfw knows");
	manifest_lacks("[bad]");
}

/* An .xcfg: converted to OBP_RAW, added, checked, written by a run; the
 * chip then reports the configuration's CRC. */
static void test_mxt_xcfg_runs(void **state)
{
	char src[65], *fw, *cfg = NULL;
	size_t n;
	struct e2e_chip c;

	(void)state;
	start_mxt();
	new_db("db");
	fw = fixture("fixtures/mxt", "mxt224e-2.1.AB-studio.xcfg", "tuned.xcfg");
	sha256_of(fw, src);
	expect_rc(TF_EXIT_OK, "db", "add", fw);
	e2e_said(&E, "converted from .xcfg");
	manifest_has("type", "config");
	manifest_has("hardware", "129.1");
	manifest_has("for_version", "2.1.AB");
	manifest_has("source_sha256", src);
	manifest_has("file", "mxt/tuned.cfg");
	/* the converted file is the OBP_RAW the configuration is */
	cfg = read_all(fixture("fixtures/mxt", "mxt224e-2.1.AB.cfg", "want.cfg"), &n);
	{
		char path[600], *got;
		size_t gl;

		snprintf(path, sizeof(path), "%s/mxt/tuned.cfg", DB);
		got = read_all(path, &gl);
		assert_int_equal(gl, n);
		assert_memory_equal(got, cfg, n);
		free(got);
	}
	free(cfg);
	expect_rc(TF_EXIT_OK, "db", "check", "--db", DB, "--signatures", "off");
	assert_int_not_equal(e2e_chip(&E).nvm_crc, 0xE67ACA);
	sign_db();
	expect_rc(TF_EXIT_OK, "run", "1-004a");
	e2e_said(&E, "config: write tuned");
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	c = e2e_chip(&E);
	assert_int_equal(c.nvm_crc, 0xE67ACA);
	/* a broken one: refused naming the line; the database as it was */
	fw = fixture("fixtures/mxt", "mxt224e-2.1.AB-overflow.xcfg", "broken.xcfg");
	expect_rc(TF_EXIT_BAD_INPUT, "db", "add", fw);
	e2e_said(&E, "broken.xcfg: line 38: T7 instance 0: 256 does not fit in 1 byte");
	/* the format is known: its error alone, not every family's "not mine" */
	e2e_not_said(&E, "no blob a family touchfw knows");
	e2e_not_said(&E, "Goodix");
	manifest_lacks("[broken]");
}

/* ------------------------------------------------------ issue 27 item 1 */

/* @path holds exactly @text. */
static void file_is(const char *path, const char *text)
{
	size_t n;
	char *got = read_all(path, &n);

	if (n != strlen(text) || memcmp(got, text, n))
		fail_msg("%s changed: '%.*s'", path, (int)n, got);
	free(got);
}

/*
 * What db add, db remove and db sign write goes only where they mean: a
 * symlink planted under the old fixed temporary name (or the blob's name)
 * is never written through, and a database directory others may write
 * (not sticky) gets nothing at all.
 */
static void test_writes_no_planted_link(void **state)
{
	char victim[500], link[600], key[400], *fw;
	struct stat st;
	FILE *f;

	(void)state;
	start_mxt();
	new_db("db");
	snprintf(victim, sizeof(victim), "%s/victim", E.dir);
	f = fopen(victim, "w");
	assert_non_null(f);
	fputs("precious\n", f);
	assert_int_equal(fclose(f), 0);
	snprintf(link, sizeof(link), "%s/.manifest.ini.add", DB);
	assert_int_equal(symlink(victim, link), 0);
	assert_int_equal(mkdir(strcat(strcpy(link, DB), "/silead"), 0755), 0);
	strcat(link, "/planted.fw");
	assert_int_equal(symlink(victim, link), 0);

	fw = fixture("fixtures/silead", "tablet-1.fw", "gsl1680-emul-tablet.fw");
	expect_rc(TF_EXIT_OK, "db", "add", fw, "--board", SILEAD_BOARD, "--version", "1",
		  "--id", "a");
	file_is(victim, "precious\n");
	manifest_has("file", "silead/gsl1680-emul-tablet.fw");
	snprintf(link, sizeof(link), "%s/.manifest.ini.add", DB);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	/* a blob name that is a planted link: refused, nothing written */
	fw = fixture("fixtures/silead", "tablet-1.fw", "planted.fw");
	expect_rc(TF_EXIT_EXISTS, "db", "add", fw, "--board", "touchfw,other", "--hardware",
		  "gsl1680", "--version", "1", "--id", "b");
	e2e_said(&E, "planted.fw exists; not overwritten");
	file_is(victim, "precious\n");
	manifest_lacks("[b]");

	/* group- or world-writable and not sticky: nothing made there */
	assert_int_equal(chmod(DB, 0777), 0);
	fw = fixture("fixtures/silead", "tablet-1.fw", "other.fw");
	expect_rc(TF_EXIT_PERMISSION, "db", "add", fw, "--board", "touchfw,other", "--hardware",
		  "gsl1680", "--version", "1", "--id", "c");
	e2e_said(&E, "writable by group or others and not sticky (mode 0777)");
	manifest_lacks("[c]");
	assert_false(exists("silead/other.fw"));
	snprintf(key, sizeof(key), "%s/keys/build-demo.key", E.build);
	assert_int_not_equal(e2e_touchfw(&E, "db", "sign", "--key", key, "--db", DB), 0);
	e2e_said(&E, "writable by group or others and not sticky");
	assert_false(exists("manifest.ini.sig"));
	assert_int_not_equal(e2e_touchfw(&E, "db", "remove", "a", "--db", DB), 0);
	e2e_said(&E, "writable by group or others and not sticky");
	manifest_has("file", "silead/gsl1680-emul-tablet.fw");
	/* sticky, as /tmp: others can not move what touchfw made */
	assert_int_equal(chmod(DB, 01777), 0);
	expect_rc(TF_EXIT_OK, "db", "add", fw, "--board", "touchfw,other", "--hardware",
		  "gsl1680", "--version", "1", "--id", "c");
	assert_int_equal(chmod(DB, 0755), 0);
	sign_db();
	file_is(victim, "precious\n");
}

/* issue 27 item 8: a FIFO as db add's FILE is refused at once, named. */
static void test_add_fifo_refused(void **state)
{
	char fifo[500];

	(void)state;
	start_mxt();
	new_db("db");
	snprintf(fifo, sizeof(fifo), "%s/blob.fw", E.dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	expect_rc(TF_EXIT_BAD_INPUT, "db", "add", fifo, "--board", SILEAD_BOARD, "--version",
		  "1");
	e2e_said(&E, "blob.fw: a FIFO, not a regular file");
}

/* ------------------------------------------------------------ --json */

/*
 * db init, db add and db remove with --json (issue 26 item 9): one
 * document each on standard output saying what was written -- in place
 * of the manifest section db add prints without it -- and the error
 * document when they fail.
 */
static void test_json_documents(void **state)
{
	char src[65], *fw;

	(void)state;
	start_mxt();
	snprintf(DB, sizeof(DB), "%s/db", E.dir);
	assert_int_equal(tf_snprintf(E.db, sizeof(E.db), "%s", DB), 0);
	e2e_settings(&E, NULL);
	expect_rc(TF_EXIT_OK, "db", "init", DB, "--json", "--description", "bench boards");
	out_json_holds("d['db'] == a and d['manifest'] == a + '/manifest.ini' and "
		       "d['format'] == 1 and d['description'] == 'bench boards' and "
		       "d['made_dir'] is True",
		       DB);
	expect_rc(TF_EXIT_EXISTS, "db", "init", "--json", DB);
	out_json_holds("d['error']['exit_code'] == 18 and d['error']['result'] == 'exists' "
		       "and 'manifest.ini exists' in d['error']['message']",
		       NULL);

	/* converted: the entry as the manifest has it, and its source */
	fw = fixture("fixtures/mxt", "mxt224e-2.1.AB-studio.xcfg", "tuned.xcfg");
	sha256_of(fw, src);
	expect_rc(TF_EXIT_OK, "db", "add", "--json", fw);
	out_json_holds(
		"d['blob']['id'] == 'tuned' and d['blob']['type'] == 'config' and "
		"d['blob']['family'] == 'mxt' and d['blob']['hardware'] == ['129.1'] and "
		"d['blob']['for_version'] == '2.1.AB' and "
		"d['blob']['file'] == 'mxt/tuned.cfg' and d['blob']['boards'] == [] and "
		"d['blob']['config_crc'] == '0xE67ACA' and len(d['blob']['sha256']) == 64 "
		"and d['converted_from'] and d['source_sha256'] == a and "
		"d['copied'] is True and d['signature_stale'] is False",
		src);
	manifest_has("source_sha256", src);
	expect_rc(TF_EXIT_EXISTS, "db", "add", "--json", fw);
	out_json_holds("d['error']['exit_code'] == 18 and 'tuned' in d['error']['message']",
		       NULL);

	/* one file for two entries: the second finds it there */
	fw = fixture("firmware-db/elants", "elants-2a1c-fw-5512.bin", "elants_i2c_2a1c.bin");
	expect_rc(TF_EXIT_OK, "db", "add", fw, "--version", "5512", "--id", "e1", "--json");
	out_json_holds("d['blob']['id'] == 'e1' and d['blob']['hardware'] == ['2a1c'] and "
		       "d['blob']['version'] == '5512' and d['converted_from'] is None and "
		       "d['source_sha256'] is None and d['copied'] is True",
		       NULL);
	expect_rc(TF_EXIT_OK, "db", "add", fw, "--version", "5512", "--id", "e2", "--board",
		  "touchfw,other", "--json");
	out_json_holds(
		"d['blob']['id'] == 'e2' and d['blob']['boards'] == [a] and "
		"d['blob']['file'] == 'elants/elants_i2c_2a1c.bin' and d['copied'] is False",
		"touchfw,other");

	/* removed: what went, what stayed and why */
	sign_db();
	expect_rc(TF_EXIT_OK, "db", "remove", "--json", "e1", "--db", DB);
	out_json_holds(
		"d['id'] == 'e1' and d['db'] == a and "
		"d['file'] == 'elants/elants_i2c_2a1c.bin' and d['file_deleted'] is False "
		"and d['used_by'] == 'e2' and d['error'] is None and "
		"d['signature_stale'] is True",
		DB);
	expect_rc(TF_EXIT_OK, "db", "remove", "--json", "e2", "--db", DB);
	out_json_holds("d['file_deleted'] is True and d['used_by'] is None", NULL);
	assert_false(exists("elants/elants_i2c_2a1c.bin"));
	expect_rc(TF_EXIT_NO_FIRMWARE, "db", "remove", "--json", "e2", "--db", DB);
	out_json_holds("d['error']['exit_code'] == 5 and d['error']['result'] == 'no-firmware'",
		       NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_init, teardown),
		cmocka_unit_test_teardown(test_add_every_family, teardown),
		cmocka_unit_test_teardown(test_remove, teardown),
		cmocka_unit_test_teardown(test_silead_gslx_and_scrambled_run, teardown),
		cmocka_unit_test_teardown(test_silead_headers, teardown),
		cmocka_unit_test_teardown(test_mxt_xcfg_runs, teardown),
		cmocka_unit_test_teardown(test_json_documents, teardown),
		cmocka_unit_test_teardown(test_writes_no_planted_link, teardown),
		cmocka_unit_test_teardown(test_add_fifo_refused, teardown),
	};

	e2e_test_filter();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
