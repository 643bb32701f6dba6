// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The shipped example profiles for the emulated boards (emul-NAME.dts in
 * boards/examples) describe those boards (the .board files of
 * tests/emul/boards, found by compatible): each controller's
 * adapter name and address, driver, power and GPIO lines agree with the
 * board's chip, and touchfw, run inside the booted board with the built
 * examples as its profiles, picks the profile and its controller for the
 * chip's device.  Every emulated example must have its board.
 */
#include <dirent.h>
#include <glib.h>

#include "board.h"
#include "e2e.h"

static struct e2e E;

static int teardown(void **state)
{
	(void)state;
	if (E.eb)
		e2e_stop(&E);
	return 0;
}

static const char *top(void)
{
	const char *t = getenv("TOUCHFW_TOP");

	return t && *t ? t : ".";
}

/* The .board file whose [board] compatible is @compat, or NULL. */
static char *board_for(const char *compat)
{
	char dir[4096], *found = NULL;
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/tests/emul/boards", top());
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d))) {
		char path[4400];
		GKeyFile *kf;
		char *c;

		if (!g_str_has_suffix(de->d_name, ".board"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		kf = g_key_file_new();
		assert_true(g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, NULL));
		c = g_key_file_get_string(kf, "board", "compatible", NULL);
		if (c && !strcmp(c, compat)) {
			if (found)
				fail_msg("%s and %s both are board %s", found, path, compat);
			found = strdup(path);
		}
		g_free(c);
		g_key_file_free(kf);
	}
	closedir(d);
	return found;
}

static struct tf_board_profile *example(const char *name)
{
	struct tf_board_profile *p = NULL;
	struct tf_board_report rep;
	char path[4096];
	char *buf = NULL;
	size_t len = 0;

	snprintf(path, sizeof(path), "%s/boards/examples/%s.dtb",
		 getenv("TOUCHFW_BUILD") ? getenv("TOUCHFW_BUILD") : "build", name);
	assert_int_equal(tf_read_file(path, TF_BOARD_MAX_DTB_SIZE, &buf, &len), 0);
	tf_board_report_init(&rep);
	if (tf_board_parse(buf, len, path, &p, &rep))
		fail_msg("%s does not parse (%zu mistakes)", path, rep.n);
	tf_board_report_free(&rep);
	free(buf);
	return p;
}

/* The [chip ...] group of @kf on adapter @nr at @addr, or NULL. */
static char *chip_at(GKeyFile *kf, int nr, unsigned addr)
{
	gchar **groups = g_key_file_get_groups(kf, NULL);
	char *hit = NULL;

	for (gchar **g = groups; *g; g++) {
		char *a;

		if (strncmp(*g, "chip ", 5))
			continue;
		a = g_key_file_get_string(kf, *g, "address", NULL);
		if (g_key_file_get_integer(kf, *g, "adapter", NULL) == nr && a &&
		    strtoul(a, NULL, 0) == addr)
			hit = g_strdup(*g);
		g_free(a);
	}
	g_strfreev(groups);
	return hit;
}

/* The board's adapter number named @name, or -1. */
static int adapter_named(GKeyFile *kf, const char *name)
{
	gchar **groups = g_key_file_get_groups(kf, NULL);
	int nr = -1;

	for (gchar **g = groups; *g; g++) {
		char *n;

		if (strncmp(*g, "adapter ", 8))
			continue;
		n = g_key_file_get_string(kf, *g, "name", NULL);
		if (n && !strcmp(n, name))
			nr = atoi(*g + 8);
		g_free(n);
	}
	g_strfreev(groups);
	return nr;
}

/* A GPIO of the profile against the board's line offset (key @key). */
static void same_line(GKeyFile *kf, const char *chip, const char *key, bool has,
		      const struct tf_gpio_spec *spec, const char *what)
{
	char *label = g_key_file_get_string(kf, "gpiochip", "label", NULL);
	bool board_has;

	/* power_gpio is the board files' name for a Silead chip's shutdown
	 * line, its profile's reset line. */
	if (!strcmp(key, "reset_gpio") && !g_key_file_has_key(kf, chip, key, NULL) &&
	    g_key_file_has_key(kf, chip, "power_gpio", NULL))
		key = "power_gpio";
	/* int_gpio is the board files' name for a Goodix chip's INT line. */
	if (!strcmp(key, "chg_gpio") && !g_key_file_has_key(kf, chip, key, NULL) &&
	    g_key_file_has_key(kf, chip, "int_gpio", NULL))
		key = "int_gpio";
	board_has = g_key_file_has_key(kf, chip, key, NULL);

	if (has != board_has)
		fail_msg("the profile %s a %s line, the board's [%s] %s",
			 has ? "has" : "has no", what, chip,
			 board_has ? "has one" : "has none");
	if (has) {
		int line = g_key_file_get_integer(kf, chip, key, NULL);

		if (spec->name[0])
			fail_msg("%s by line name: compare by chip and line instead", what);
		assert_string_equal(spec->chip, label ? label : "emuboard-gpio");
		if (spec->line != line)
			fail_msg("the profile's %s line is %d, the board's [%s] %s = %d", what,
				 spec->line, chip, key, line);
	}
	g_free(label);
}

/* The .board file whose dmi.* keys match every dmi-match key of @p
 * (exactly: the example profiles use no globs), or NULL. */
static char *board_for_dmi(const struct tf_board_profile *p)
{
	char dir[4096], *found = NULL;
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/tests/emul/boards", top());
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d))) {
		char path[4400], key[80];
		bool all = true;
		GKeyFile *kf;

		if (!g_str_has_suffix(de->d_name, ".board"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		kf = g_key_file_new();
		assert_true(g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, NULL));
		for (size_t i = 0; i < p->n_dmi && all; i++) {
			char *v;
			bool any = false;

			/* the sysfs file: the property's name with _ for - */
			snprintf(key, sizeof(key), "dmi.%s",
				 tf_dmi_key_property(p->dmi[i].key));
			for (char *q = key; *q; q++)
				if (*q == '-')
					*q = '_';
			v = g_key_file_get_string(kf, "board", key, NULL);
			for (size_t j = 0; v && j < p->dmi[i].n_patterns; j++)
				any = any || !strcmp(v, p->dmi[i].patterns[j]);
			all = any;
			g_free(v);
		}
		if (all && p->n_dmi) {
			if (found)
				fail_msg("%s and %s both match the profile's dmi-match", found,
					 path);
			found = strdup(path);
		}
		g_key_file_free(kf);
	}
	closedir(d);
	return found;
}

static void check_example(const char *name)
{
	struct tf_board_profile *p;
	GKeyFile *kf;
	char *board, *text = NULL, dev[32];
	size_t len, k;

	p = example(name);
	assert_true(p->n_compatible > 0 || p->n_dmi > 0);
	board = p->n_compatible ? board_for(p->compatible[0]) : board_for_dmi(p);
	if (!board)
		fail_msg("%s: no tests/emul/boards/*.board has compatible %s", name,
			 p->n_compatible ? p->compatible[0] : "(dmi-match)");
	kf = g_key_file_new();
	assert_true(g_key_file_load_from_file(kf, board, G_KEY_FILE_NONE, NULL));
	for (k = 0; k < p->n_ctrl; k++) {
		const struct tf_controller *c = &p->ctrl[k];
		int nr = adapter_named(kf, c->adapter_name);
		char *chip, *s;

		if (nr < 0)
			fail_msg("%s %s: adapter-name \"%s\": %s has no such adapter", name,
				 c->node_path, c->adapter_name, board);
		chip = chip_at(kf, nr, c->reg);
		if (!chip)
			fail_msg("%s %s: %s has no chip on adapter %d (\"%s\") at 0x%02x", name,
				 c->node_path, board, nr, c->adapter_name, c->reg);
		s = g_key_file_get_string(kf, chip, "driver", NULL);
		assert_string_equal(c->driver, s ? s : "");
		g_free(s);
		s = g_key_file_get_string(kf, chip, "power", NULL);
		assert_string_equal(tf_power_name(c->power), s ? s : "driver");
		g_free(s);
		same_line(kf, chip, "reset_gpio", c->has_reset, &c->reset, "reset");
		same_line(kf, chip, "chg_gpio", c->has_irq, &c->irq, "chg");
		s = g_key_file_get_string(kf, chip, "acpi_id", NULL);
		/* an ACPI client is named after its ACPI device */
		if (s)
			snprintf(dev, sizeof(dev), "i2c-%s:00", s);
		else
			snprintf(dev, sizeof(dev), "%d-%04x", nr, c->reg);
		g_free(s);
		g_free(chip);

		/* touchfw on the booted board picks this profile for the chip. */
		assert_true(g_file_get_contents(board, &text, &len, NULL));
		e2e_start(&E, text);
		g_free(text);
		e2e_touchfw(&E, "run", "--dry-run", dev);
		if (E.rc == 4)
			fail_msg("%s: touchfw found no profile for %s", name, E.err);
		e2e_said(&E, "board profile ");
		e2e_said(&E, name);
		e2e_said(&E, c->node_path);
		e2e_stop(&E);
	}
	g_key_file_free(kf);
	free(board);
	tf_board_free(p);
}

static const char *const examples[] = {
	"emul-demo",	     "emul-always-on",	"emul-1664s",	      "emul-gt911",
	"emul-gt911-nogpio", "emul-gt1151",	"emul-silead-tablet", "emul-elants",
	"emul-elantp",	     "emul-elantp-iap", "emul-elan-laptop",   "emul-elanhid-iap",
	"emul-cyapa",	     "emul-rmi4"
};

static void test_example_emul_demo_matches_its_board(void **state)
{
	(void)state;
	check_example("emul-demo");
}

static void test_example_emul_always_on_matches_its_board(void **state)
{
	(void)state;
	check_example("emul-always-on");
}

static void test_example_emul_1664s_matches_its_board(void **state)
{
	(void)state;
	check_example("emul-1664s");
}

static void test_example_emul_gt911_matches_its_board(void **state)
{
	(void)state;
	check_example("emul-gt911");
}

static void test_example_emul_gt911_nogpio_matches_its_board(void **state)
{
	(void)state;
	check_example("emul-gt911-nogpio");
}

static void test_example_emul_gt1151_matches_its_board(void **state)
{
	(void)state;
	check_example("emul-gt1151");
}

static void test_example_emul_silead_tablet_matches_its_board(void **state)
{
	(void)state;
	check_example("emul-silead-tablet");
}

static void test_example_emul_elants_matches_its_board(void **state)
{
	(void)state;
	check_example("emul-elants");
}

static void test_example_emul_elantp_matches_its_board(void **state)
{
	(void)state;
	check_example("emul-elantp");
}

static void test_example_emul_elantp_iap_matches_its_board(void **state)
{
	(void)state;
	check_example("emul-elantp-iap");
}

static void test_example_emul_elan_laptop_matches_its_board(void **state)
{
	(void)state;
	check_example("emul-elan-laptop");
}

static void test_example_emul_elanhid_iap_matches_its_board(void **state)
{
	(void)state;
	check_example("emul-elanhid-iap");
}

static void test_example_emul_cyapa_matches_its_board(void **state)
{
	(void)state;
	check_example("emul-cyapa");
}

static void test_example_emul_rmi4_matches_its_board(void **state)
{
	(void)state;
	check_example("emul-rmi4");
}

static void test_every_emulated_example_is_checked(void **state)
{
	char dir[4096];
	struct dirent *de;
	DIR *d;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/boards/examples", top());
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d))) {
		size_t i, n = strlen(de->d_name);
		bool listed = false;

		if (strncmp(de->d_name, "emul-", 5) || n < 4 ||
		    strcmp(de->d_name + n - 4, ".dts"))
			continue;
		for (i = 0; i < TF_ARRAY_SIZE(examples); i++)
			if (!strncmp(examples[i], de->d_name, n - 4) && !examples[i][n - 4])
				listed = true;
		if (!listed)
			fail_msg("boards/examples/%s is not checked against its emulated board",
				 de->d_name);
	}
	closedir(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_example_emul_demo_matches_its_board, teardown),
		cmocka_unit_test_teardown(test_example_emul_silead_tablet_matches_its_board,
					  teardown),
		cmocka_unit_test_teardown(test_example_emul_always_on_matches_its_board,
					  teardown),
		cmocka_unit_test_teardown(test_example_emul_1664s_matches_its_board, teardown),
		cmocka_unit_test_teardown(test_example_emul_gt911_matches_its_board, teardown),
		cmocka_unit_test_teardown(test_example_emul_elants_matches_its_board, teardown),
		cmocka_unit_test_teardown(test_example_emul_elantp_matches_its_board, teardown),
		cmocka_unit_test_teardown(test_example_emul_elantp_iap_matches_its_board,
					  teardown),
		cmocka_unit_test_teardown(test_example_emul_elan_laptop_matches_its_board,
					  teardown),
		cmocka_unit_test_teardown(test_example_emul_elanhid_iap_matches_its_board,
					  teardown),
		cmocka_unit_test_teardown(test_example_emul_gt911_nogpio_matches_its_board,
					  teardown),
		cmocka_unit_test_teardown(test_example_emul_gt1151_matches_its_board, teardown),
		cmocka_unit_test_teardown(test_example_emul_cyapa_matches_its_board, teardown),
		cmocka_unit_test_teardown(test_example_emul_rmi4_matches_its_board, teardown),
		cmocka_unit_test(test_every_emulated_example_is_checked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
