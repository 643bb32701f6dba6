// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Board profiles (agent/board-*.c, agent/cmd-board-check.c): golden profiles, one
 * fixture per mistake with the exact node path and message expected, the
 * machine identity read from a fake sysroot, /etc-over-/usr/share loading,
 * matching precedence, controller lookup, and corrupt or truncated blobs.
 *
 * Fixtures are the readable .dts files in tests/unit/fixtures/board/,
 * compiled with dtc at run time into a temporary directory; the tree is
 * found through $TOUCHFW_TOP (set by tests/run-tests).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <libfdt.h>

#include "board.h"
#include "cli.h"
#include "cmd.h"
#include "exitcode.h"
#include "family/ids.h"

static char g_tmp[256];
static unsigned g_seq;

/* ------------------------------------------------------------- helpers */

static const char *top(void)
{
	const char *t = getenv("TOUCHFW_TOP");

	return t && *t ? t : ".";
}

static void run_dtc(const char *src, const char *out)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		execlp("dtc", "dtc", "-q", "-I", "dts", "-O", "dtb", "-o", out, src,
		       (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("dtc failed on %s", src);
}

/* A fresh directory below the group's temporary directory. */
static void new_dir(char *out, size_t size, const char *what)
{
	snprintf(out, size, "%s/%s-%u", g_tmp, what, ++g_seq);
	assert_int_equal(mkdir(out, 0755), 0);
}

static void mkdirs(const char *path)
{
	char buf[4096], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
	}
	mkdir(buf, 0755);
}

static void write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

static void read_all(const char *path, char **buf, size_t *len)
{
	assert_int_equal(tf_read_file(path, 16u << 20, buf, len), 0);
}

/* Compile fixtures/board/@name.dts into @out (a path). */
static void compile_fixture(const char *name, char *out, size_t size)
{
	char src[4096];

	snprintf(src, sizeof(src), "%s/tests/unit/fixtures/board/%s.dts", top(), name);
	snprintf(out, size, "%s/%s.dtb", g_tmp, name);
	run_dtc(src, out);
}

static void compile_example(const char *name, char *out, size_t size)
{
	char src[4096];

	snprintf(src, sizeof(src), "%s/boards/examples/%s.dts", top(), name);
	snprintf(out, size, "%s/example-%s.dtb", g_tmp, name);
	run_dtc(src, out);
}

static int parse_file(const char *dtb, struct tf_board_profile **p, struct tf_board_report *rep)
{
	char *buf = NULL;
	size_t len = 0;
	int r;

	read_all(dtb, &buf, &len);
	r = tf_board_parse(buf, len, dtb, p, rep);
	free(buf);
	return r;
}

static int parse_fixture(const char *name, struct tf_board_profile **p,
			 struct tf_board_report *rep)
{
	char dtb[4096];

	compile_fixture(name, dtb, sizeof(dtb));
	return parse_file(dtb, p, rep);
}

static void load_fixture(const char *name, char **buf, size_t *len)
{
	char dtb[4096];

	compile_fixture(name, dtb, sizeof(dtb));
	read_all(dtb, buf, len);
}

/*
 * Write a valid profile whose match rule is @rule (a board-compatible
 * property or a dmi-match node) to @dir/@file, compiled.
 */
static void make_profile_ctrl(const char *dir, const char *file, const char *model,
			      const char *rule, const char *ctrl_extra);

static void make_profile(const char *dir, const char *file, const char *model, const char *rule)
{
	make_profile_ctrl(dir, file, model, rule, "");
}

/* As make_profile, with @ctrl_extra (properties) in the controller node. */
static void make_profile_ctrl(const char *dir, const char *file, const char *model,
			      const char *rule, const char *ctrl_extra)
{
	char src[4096], out[4096], text[2048];

	snprintf(src, sizeof(src), "%s/gen-%u.dts", g_tmp, ++g_seq);
	snprintf(text, sizeof(text),
		 "/dts-v1/;\n"
		 "/ {\n"
		 "\ttouchfw,profile-version = <1>;\n"
		 "\tmodel = \"%s\";\n"
		 "\t%s\n"
		 "\tcontrollers {\n"
		 "\t\t#address-cells = <1>;\n"
		 "\t\t#size-cells = <0>;\n"
		 "\t\ttouchscreen@4a {\n"
		 "\t\t\tfamily = \"mxt\";\n"
		 "\t\t\tbus = \"i2c\";\n"
		 "\t\t\tadapter-name = \"adapter A\";\n"
		 "\t\t\treg = <0x4a>;\n"
		 "\t\t\tpower = \"driver\";\n"
		 "\t\t\t%s\n"
		 "\t\t};\n"
		 "\t};\n"
		 "};\n",
		 model, rule, ctrl_extra);
	write_file(src, text, strlen(text));
	snprintf(out, sizeof(out), "%s/%s", dir, file);
	run_dtc(src, out);
}

static void id_set_compatible(struct tf_board_identity *id, const char *const *c, size_t n)
{
	size_t i;

	id->compatible = calloc(n ? n : 1, sizeof(char *));
	assert_non_null(id->compatible);
	for (i = 0; i < n; i++)
		id->compatible[i] = strdup(c[i]);
	id->n_compatible = n;
}

static void id_set_dmi(struct tf_board_identity *id, enum tf_dmi_key k, const char *v)
{
	snprintf(id->dmi[k], sizeof(id->dmi[k]), "%s", v);
	id->dmi_present[k] = true;
	id->has_dmi = true;
}

static void dump_report(const struct tf_board_report *rep)
{
	size_t i;

	for (i = 0; i < rep->n; i++)
		print_message("  issue %zu: '%s': '%s'\n", i, rep->issues[i].node,
			      rep->issues[i].msg);
}

static bool report_has(const struct tf_board_report *rep, const char *node, const char *msg)
{
	size_t i;

	for (i = 0; i < rep->n; i++)
		if (!strcmp(rep->issues[i].node, node) && strstr(rep->issues[i].msg, msg))
			return true;
	return false;
}

/* Load @dirs and return the set, asserting success. */
static struct tf_board_set *load_dirs(const char *const *dirs, size_t n)
{
	struct tf_board_set *set = NULL;
	struct tf_err err = { 0 };
	int r = tf_board_load(dirs, n, &set, &err);

	if (r)
		fail_msg("tf_board_load: %d %s", r, err.msg);
	return set;
}

/* ------------------------------------------------------------- group */

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static int group_setup(void **state)
{
	const char *t = getenv("TMPDIR");

	(void)state;
	snprintf(g_tmp, sizeof(g_tmp), "%s/test_board-XXXXXX", t && *t ? t : "/tmp");
	return mkdtemp(g_tmp) ? 0 : -1;
}

static int group_teardown(void **state)
{
	(void)state;
	nftw(g_tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

/* ------------------------------------------------------------- golden */

static void test_golden_dt_profile_fields_are_read(void **state)
{
	struct tf_board_profile *p = NULL;
	struct tf_board_report rep;
	const struct tf_controller *c;

	(void)state;
	tf_board_report_init(&rep);
	assert_int_equal(parse_fixture("golden-dt", &p, &rep), 0);
	assert_int_equal(rep.n, 0);
	assert_string_equal(p->name, "golden-dt");
	assert_string_equal(p->model, "Golden DT board");
	assert_int_equal(p->n_compatible, 2);
	assert_string_equal(p->compatible[0], "golden,board-rev2");
	assert_string_equal(p->compatible[1], "golden,board");
	assert_int_equal(p->n_dmi, 0);
	assert_int_equal(p->n_ctrl, 2);

	c = &p->ctrl[0];
	assert_string_equal(c->node_path, "/controllers/touchscreen@4a");
	assert_string_equal(c->family, "mxt");
	assert_string_equal(c->bus, "i2c");
	assert_string_equal(c->adapter_name, "");
	assert_string_equal(c->adapter_path, "/soc/i2c@7000c400");
	assert_int_equal(c->reg, 0x4a);
	assert_true(c->has_bootloader_reg);
	assert_int_equal(c->bootloader_reg, 0x26);
	assert_string_equal(c->driver, "atmel_mxt_ts");
	assert_true(c->has_reset);
	assert_string_equal(c->reset.chip, "gpiochip0");
	assert_int_equal(c->reset.line, 12);
	assert_string_equal(c->reset.name, "");
	assert_true(c->reset.active_low);
	assert_true(c->has_irq);
	assert_string_equal(c->irq.chip, "");
	assert_int_equal(c->irq.line, -1);
	assert_string_equal(c->irq.name, "TS_INT");
	assert_true(c->irq.active_low);
	assert_int_equal(c->power, TF_POWER_DRIVER);
	assert_string_equal(c->firmware_pin, "mxt-golden-fw-2.1");
	assert_string_equal(c->config_pin, "mxt-golden-cfg-7");
	assert_int_equal(c->input_timeout_ms, 5000);
	assert_int_equal(c->flash_timeout_ms, 600000);
	tf_board_free(p);
	tf_board_report_free(&rep);
}

static void test_golden_goodix_profile_fields_are_read(void **state)
{
	struct tf_board_profile *p = NULL;
	struct tf_board_report rep;
	const struct tf_controller *c;

	(void)state;
	tf_board_report_init(&rep);
	assert_int_equal(parse_fixture("golden-goodix", &p, &rep), 0);
	assert_int_equal(rep.n, 0);
	c = &p->ctrl[0];
	assert_string_equal(c->family, "goodix");
	assert_int_equal(c->reg, 0x14);
	assert_string_equal(c->config_name, "acme-panel-7.cfg");
	assert_true(c->swapped_x_y);
	assert_true(c->has_reset);
	assert_true(c->has_irq);
	assert_string_equal(c->irq.name, "TS_INT");
	tf_board_free(p);
	tf_board_report_free(&rep);
	/* Without the two properties: no name, axes as they are. */
	assert_int_equal(parse_fixture("golden-dt", &p, NULL), 0);
	assert_string_equal(p->ctrl[0].config_name, "");
	assert_false(p->ctrl[0].swapped_x_y);
	tf_board_free(p);
}

static void test_golden_dt_spi_controller_is_read(void **state)
{
	struct tf_board_profile *p = NULL;
	const struct tf_controller *c;

	(void)state;
	assert_int_equal(parse_fixture("golden-dt", &p, NULL), 0);
	c = &p->ctrl[1];
	assert_string_equal(c->node_path, "/controllers/touchpad@1");
	assert_string_equal(c->bus, "spi");
	assert_string_equal(c->adapter_name, "spi-golden.0");
	assert_int_equal(c->reg, 1);
	assert_false(c->has_bootloader_reg);
	assert_false(c->has_reset);
	assert_false(c->has_irq);
	assert_string_equal(c->driver, "");
	assert_int_equal(c->power, TF_POWER_ALWAYS_ON);
	assert_int_equal(c->spi_max_hz, 8000000);
	assert_true(c->has_spi_mode);
	assert_int_equal(c->spi_mode, 3);
	assert_int_equal(c->spi_bits, 8);
	tf_board_free(p);
}

static void test_golden_dmi_profile_fields_are_read(void **state)
{
	struct tf_board_profile *p = NULL;

	(void)state;
	assert_int_equal(parse_fixture("golden-dmi", &p, NULL), 0);
	assert_string_equal(p->model, "Golden laptop");
	assert_int_equal(p->n_compatible, 0);
	assert_int_equal(p->n_dmi, 3);
	assert_int_equal(p->dmi[0].key, TF_DMI_SYS_VENDOR);
	assert_int_equal(p->dmi[0].n_patterns, 1);
	assert_string_equal(p->dmi[0].patterns[0], "Golden Corp");
	assert_int_equal(p->dmi[1].key, TF_DMI_PRODUCT_NAME);
	assert_string_equal(p->dmi[1].patterns[0], "Golden Book *");
	assert_int_equal(p->dmi[2].key, TF_DMI_BOARD_NAME);
	assert_int_equal(p->dmi[2].n_patterns, 2);
	assert_string_equal(p->dmi[2].patterns[1], "GB-2");
	assert_int_equal(p->n_ctrl, 1);
	assert_string_equal(p->ctrl[0].adapter_name, "Synopsys DesignWare I2C adapter");
	assert_string_equal(p->ctrl[0].reset.name, "TS_RST");
	assert_false(p->ctrl[0].reset.active_low);
	tf_board_free(p);
}

static void test_board_ids_default_to_board_compatible(void **state)
{
	struct tf_board_profile *p = NULL;

	(void)state;
	assert_int_equal(parse_fixture("golden-dt", &p, NULL), 0);
	assert_int_equal(p->n_board_ids, 2);
	assert_string_equal(p->board_ids[0], "golden,board-rev2");
	assert_string_equal(p->board_ids[1], "golden,board");
	tf_board_free(p);
}

static void test_board_ids_default_to_file_name_for_dmi_profiles(void **state)
{
	struct tf_board_profile *p = NULL;

	(void)state;
	assert_int_equal(parse_fixture("golden-dmi", &p, NULL), 0);
	assert_int_equal(p->n_board_ids, 1);
	assert_string_equal(p->board_ids[0], "golden-dmi");
	tf_board_free(p);
}

static void test_board_ids_given_replace_the_default(void **state)
{
	struct tf_board_profile *p = NULL;
	char dtb[4096];

	(void)state;
	compile_example("contoso-book-14", dtb, sizeof(dtb));
	assert_int_equal(parse_file(dtb, &p, NULL), 0);
	assert_int_equal(p->n_board_ids, 1);
	assert_string_equal(p->board_ids[0], "contoso,book-14");
	tf_board_free(p);
}

static void test_dmi_profile_without_file_name_needs_board_ids(void **state)
{
	struct tf_board_profile *p = NULL;
	struct tf_board_report rep;
	char *buf = NULL;
	size_t len = 0;

	(void)state;
	load_fixture("golden-dmi", &buf, &len);
	tf_board_report_init(&rep);
	assert_int_equal(tf_board_parse(buf, len, NULL, &p, &rep), -EINVAL);
	assert_int_equal(rep.n, 1);
	assert_string_equal(rep.issues[0].node, "/");
	assert_string_equal(rep.issues[0].msg,
			    "board-ids is missing and there is no file name to "
			    "take it from");
	tf_board_report_free(&rep);
	free(buf);
}

static void test_profile_file_name_too_long_is_reported(void **state)
{
	struct tf_board_profile *p = NULL;
	struct tf_board_report rep;
	char path[256];
	char *buf = NULL;
	size_t len = 0;

	(void)state;
	load_fixture("golden-dt", &buf, &len);
	snprintf(path, sizeof(path), "/etc/touchfw/boards/%0100d.dtb", 0);
	tf_board_report_init(&rep);
	assert_int_equal(tf_board_parse(buf, len, path, &p, &rep), -EINVAL);
	assert_int_equal(rep.n, 1);
	assert_string_equal(rep.issues[0].node, "");
	assert_string_equal(rep.issues[0].msg, "file name is too long (at most 63 characters "
					       "before .dtb)");
	tf_board_report_free(&rep);
	free(buf);
}

/* Parse a profile with @n mxt controllers at 0x10, 0x11, ... on one adapter. */
static int parse_n_controllers(unsigned n, struct tf_board_profile **p,
			       struct tf_board_report *rep)
{
	char src[4096], out[4096], *text;
	size_t size = 512 + (size_t)n * 200, at;
	unsigned i;
	int r;

	text = malloc(size);
	assert_non_null(text);
	at = (size_t)snprintf(text, size,
			      "/dts-v1/;\n/ {\n\ttouchfw,profile-version = <1>;\n"
			      "\tmodel = \"many\";\n\tboard-compatible = \"test,many\";\n"
			      "\tcontrollers {\n\t\t#address-cells = <1>;\n"
			      "\t\t#size-cells = <0>;\n");
	for (i = 0; i < n; i++)
		at += (size_t)snprintf(text + at, size - at,
				       "\t\ttouchscreen@%x {\n\t\t\tfamily = \"mxt\";\n"
				       "\t\t\tbus = \"i2c\";\n"
				       "\t\t\tadapter-name = \"adapter A\";\n"
				       "\t\t\treg = <0x%x>;\n\t\t\tpower = \"driver\";\n"
				       "\t\t};\n",
				       0x10 + i, 0x10 + i);
	snprintf(text + at, size - at, "\t};\n};\n");
	snprintf(src, sizeof(src), "%s/gen-%u.dts", g_tmp, ++g_seq);
	write_file(src, text, strlen(text));
	free(text);
	snprintf(out, sizeof(out), "%s/many-%u.dtb", g_tmp, g_seq);
	run_dtc(src, out);
	r = parse_file(out, p, rep);
	return r;
}

/* The controller array holds what the profile has, up to 32 controllers;
 * a 33rd is reported, not written past the array. */
static void test_controllers_up_to_32_are_read(void **state)
{
	static const unsigned counts[] = { 1, 2, 31, 32 };
	struct tf_board_profile *p = NULL;
	struct tf_board_report rep;
	unsigned k, i;

	(void)state;
	for (k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
		tf_board_report_init(&rep);
		if (parse_n_controllers(counts[k], &p, &rep) != 0)
			dump_report(&rep);
		tf_board_report_free(&rep);
		assert_non_null(p);
		assert_int_equal(p->n_ctrl, counts[k]);
		for (i = 0; i < counts[k]; i++) {
			assert_int_equal(p->ctrl[i].reg, 0x10 + i);
			assert_string_equal(p->ctrl[i].family, "mxt");
		}
		tf_board_free(p);
		p = NULL;
	}
	tf_board_report_init(&rep);
	assert_int_equal(parse_n_controllers(33, &p, &rep), -EINVAL);
	assert_null(p);
	assert_true(report_has(&rep, "/controllers/touchscreen@30",
			       "too many controllers (at most 32)"));
	tf_board_report_free(&rep);
}

static void test_timeouts_default_when_not_given(void **state)
{
	struct tf_board_profile *p = NULL;

	(void)state;
	assert_int_equal(parse_fixture("golden-dmi", &p, NULL), 0);
	/* 0: not given, the settings file's values apply */
	assert_int_equal(p->ctrl[0].input_timeout_ms, 0);
	assert_int_equal(p->ctrl[0].flash_timeout_ms, 0);
	tf_board_free(p);
}

static void test_examples_are_all_valid(void **state)
{
	static const char *const examples[] = {
		"acme-tablet-7", "contoso-book-14", "emul-demo",	 "emul-always-on",
		"emul-1664s",	 "emul-gt911",	    "emul-gt911-nogpio", "emul-gt1151",
	};
	size_t i;

	(void)state;
	for (i = 0; i < TF_ARRAY_SIZE(examples); i++) {
		struct tf_board_profile *p = NULL;
		struct tf_board_report rep;
		char dtb[4096];
		int r;

		tf_board_report_init(&rep);
		compile_example(examples[i], dtb, sizeof(dtb));
		r = parse_file(dtb, &p, &rep);
		if (r) {
			print_message("%s:\n", examples[i]);
			dump_report(&rep);
		}
		assert_int_equal(r, 0);
		tf_board_free(p);
		tf_board_report_free(&rep);
	}
}

static void test_example_emul_demo_describes_the_emulated_board(void **state)
{
	struct tf_board_profile *p = NULL;
	const struct tf_controller *c;
	char dtb[4096];

	(void)state;
	compile_example("emul-demo", dtb, sizeof(dtb));
	assert_int_equal(parse_file(dtb, &p, NULL), 0);
	assert_int_equal(p->n_compatible, 1);
	assert_string_equal(p->compatible[0], "touchfw,emul-demo");
	assert_int_equal(p->n_ctrl, 1);
	c = &p->ctrl[0];
	assert_string_equal(c->family, "mxt");
	assert_string_equal(c->bus, "i2c");
	assert_string_equal(c->adapter_name, "touchfw emulated adapter 1");
	assert_int_equal(c->reg, 0x4a);
	assert_false(c->has_bootloader_reg);
	assert_string_equal(c->driver, "atmel_mxt_ts");
	assert_true(c->has_reset);
	assert_string_equal(c->reset.chip, "emuboard-gpio");
	assert_int_equal(c->reset.line, 0);
	assert_true(c->reset.active_low); /* nRESET */
	assert_true(c->has_irq);
	assert_string_equal(c->irq.chip, "emuboard-gpio");
	assert_int_equal(c->irq.line, 1);
	assert_true(c->irq.active_low);
	assert_int_equal(c->power, TF_POWER_DRIVER);
	tf_board_free(p);
}

static void test_example_emul_always_on_differs_in_power_and_compatible(void **state)
{
	struct tf_board_profile *demo = NULL, *aon = NULL;
	struct tf_controller a, b;
	char dtb[4096];

	(void)state;
	compile_example("emul-demo", dtb, sizeof(dtb));
	assert_int_equal(parse_file(dtb, &demo, NULL), 0);
	compile_example("emul-always-on", dtb, sizeof(dtb));
	assert_int_equal(parse_file(dtb, &aon, NULL), 0);
	assert_string_equal(aon->compatible[0], "touchfw,emul-always-on");
	assert_int_equal(aon->n_ctrl, 1);
	assert_int_equal(aon->ctrl[0].power, TF_POWER_ALWAYS_ON);
	a = demo->ctrl[0];
	b = aon->ctrl[0];
	b.power = a.power;
	assert_memory_equal(&a, &b, sizeof(a));
	tf_board_free(demo);
	tf_board_free(aon);
}

/* ------------------------------------------------------------- mistakes */

struct expect {
	const char *node, *msg;
};

/* One fixture, one mistake (or the few one slip causes), exact wording. */
struct bad_case {
	const char *fixture;
	struct expect e[3];
};

/* @msg with "@KNOWN@" replaced by the registry's family names, as the
 * profile checker lists them ("a, b"), so that a new family changes no
 * expectation here. */
static void with_known_families(const char *msg, char *out, size_t size)
{
	const char *at = strstr(msg, "@KNOWN@");
	size_t i, n;

	if (!at) {
		snprintf(out, size, "%s", msg);
		return;
	}
	n = (size_t)snprintf(out, size, "%.*s", (int)(at - msg), msg);
	for (i = 0; tf_family_ids_all[i] && n < size; i++)
		n += (size_t)snprintf(out + n, size - n, "%s%s", i ? ", " : "",
				      tf_family_ids_all[i]->name);
	if (n < size)
		snprintf(out + n, size - n, "%s", at + strlen("@KNOWN@"));
}

static void test_bad_fixture(void **state)
{
	const struct bad_case *bc = *state;
	struct tf_board_profile *p = NULL;
	struct tf_board_report rep;
	size_t n = 0, i;
	int r;

	tf_board_report_init(&rep);
	r = parse_fixture(bc->fixture, &p, &rep);
	while (n < TF_ARRAY_SIZE(bc->e) && bc->e[n].node)
		n++;
	if (r != -EINVAL || rep.n != n) {
		print_message("%s: r=%d, %zu issues:\n", bc->fixture, r, rep.n);
		dump_report(&rep);
	}
	assert_int_equal(r, -EINVAL);
	assert_null(p);
	assert_int_equal(rep.n, n);
	for (i = 0; i < n; i++) {
		char want[512];

		assert_string_equal(rep.issues[i].node, bc->e[i].node);
		with_known_families(bc->e[i].msg, want, sizeof(want));
		assert_string_equal(rep.issues[i].msg, want);
	}
	tf_board_report_free(&rep);
}

static void test_report_collects_every_mistake(void **state)
{
	struct tf_board_profile *p = NULL;
	struct tf_board_report rep;

	(void)state;
	tf_board_report_init(&rep);
	assert_int_equal(parse_fixture("bad-many", &p, &rep), -EINVAL);
	dump_report(&rep);
	assert_int_equal(rep.n, 4);
	assert_true(report_has(&rep, "/", "model is missing"));
	assert_true(report_has(&rep, "/controllers/touchscreen@4a",
			       "reg 0x99 is not a 7-bit i2c address"));
	assert_true(
		report_has(&rep, "/controllers/touchscreen@4a", "power \"on\" is not one of"));
	assert_true(report_has(&rep, "/controllers/touchpad@25",
			       "reset-gpio-chip needs reset-gpio-line"));
	tf_board_report_free(&rep);
}

static void test_report_keeps_at_most_max_issues(void **state)
{
	char buf[16384];
	struct tf_board_profile *p = NULL;
	struct tf_board_report rep;
	int i;

	(void)state;
	/* A root node with 100 unknown properties. */
	assert_int_equal(fdt_create(buf, sizeof(buf)), 0);
	assert_int_equal(fdt_finish_reservemap(buf), 0);
	assert_int_equal(fdt_begin_node(buf, ""), 0);
	for (i = 0; i < 100; i++) {
		char name[16];

		snprintf(name, sizeof(name), "junk-%d", i);
		assert_int_equal(fdt_property_u32(buf, name, (uint32_t)i), 0);
	}
	assert_int_equal(fdt_end_node(buf), 0);
	assert_int_equal(fdt_finish(buf), 0);

	tf_board_report_init(&rep);
	assert_int_equal(tf_board_parse(buf, fdt_totalsize(buf), "x.dtb", &p, &rep), -EINVAL);
	assert_int_equal(rep.n, TF_BOARD_MAX_ISSUES);
	assert_true(rep.n_dropped > 0);
	tf_board_report_free(&rep);
}

static void test_parse_without_report_still_fails(void **state)
{
	struct tf_board_profile *p = NULL;

	(void)state;
	assert_int_equal(parse_fixture("bad-reg-not-7bit", &p, NULL), -EINVAL);
	assert_null(p);
}

/* ------------------------------------------------------------- blobs */

static void expect_blob_rejected(const void *buf, size_t len, const char *msg)
{
	struct tf_board_profile *p = NULL;
	struct tf_board_report rep;

	tf_board_report_init(&rep);
	assert_int_equal(tf_board_parse(buf, len, "x.dtb", &p, &rep), -EINVAL);
	assert_null(p);
	assert_true(rep.n >= 1);
	if (msg && !strstr(rep.issues[0].msg, msg))
		fail_msg("expected '%s', got '%s'", msg, rep.issues[0].msg);
	tf_board_report_free(&rep);
}

static void test_empty_buffer_is_rejected(void **state)
{
	(void)state;
	expect_blob_rejected(NULL, 0, "the file is empty");
	expect_blob_rejected("", 0, "the file is empty");
}

static void test_buffer_shorter_than_header_is_rejected(void **state)
{
	char *buf = NULL;
	size_t len = 0;

	(void)state;
	load_fixture("golden-dt", &buf, &len);
	expect_blob_rejected(buf, 39, "shorter than its header");
	free(buf);
}

static void test_source_text_is_rejected_as_not_compiled(void **state)
{
	static const char text[] = "/dts-v1/;\n/ { touchfw,profile-version = <1>; };\n";

	(void)state;
	expect_blob_rejected(text, sizeof(text) - 1, "no d00dfeed magic");
}

static void test_truncated_dtb_is_rejected_at_every_length(void **state)
{
	char *buf = NULL;
	size_t len = 0, cut;

	(void)state;
	load_fixture("golden-dt", &buf, &len);
	for (cut = 0; cut < len; cut++) {
		/* A fresh exact-size copy, so ASan sees any overread. */
		char *copy = malloc(cut ? cut : 1);

		assert_non_null(copy);
		memcpy(copy, buf, cut);
		expect_blob_rejected(copy, cut, NULL);
		free(copy);
	}
	free(buf);
}

static void test_header_claiming_more_than_the_file_is_rejected(void **state)
{
	char *buf = NULL;
	size_t len = 0;

	(void)state;
	load_fixture("golden-dt", &buf, &len);
	expect_blob_rejected(buf, len - 8, "truncated: the header says");
	free(buf);
}

static void test_trailing_data_is_rejected(void **state)
{
	char *buf = NULL, *big;
	size_t len = 0;

	(void)state;
	load_fixture("golden-dt", &buf, &len);
	big = calloc(1, len + 16);
	assert_non_null(big);
	memcpy(big, buf, len);
	expect_blob_rejected(big, len + 16, "16 bytes of trailing data");
	free(big);
	free(buf);
}

static void test_corrupt_structure_block_is_rejected(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	struct fdt_header *h;

	(void)state;
	load_fixture("golden-dt", &buf, &len);
	h = (struct fdt_header *)buf;
	/* The structure block runs past the end of the blob. */
	h->size_dt_struct = cpu_to_fdt32(fdt_size_dt_struct(buf) + 4096);
	expect_blob_rejected(buf, len, "corrupt device tree blob");
	free(buf);
}

/*
 * Found by fuzz_board: a version 6 header makes libfdt 1.6.1's
 * fdt_check_full() dereference NULL (pre-16 blobs have path names).
 */
static void test_pre_v16_blob_is_rejected_before_libfdt_sees_it(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	struct fdt_header *h;

	(void)state;
	load_fixture("golden-dmi", &buf, &len);
	h = (struct fdt_header *)buf;
	h->version = cpu_to_fdt32(6);
	h->last_comp_version = cpu_to_fdt32(0);
	expect_blob_rejected(buf, len, "version 6 is too old");
	free(buf);
}

/*
 * Found by fuzz_board: a property length of -12 sends libfdt 1.6.1's
 * fdt_check_full() back to the same tag for ever.  Must fail, fast.
 */
static void test_property_length_pointing_backwards_is_rejected(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	uint32_t prop;

	(void)state;
	load_fixture("golden-dt", &buf, &len);
	/* The root node's tag and empty name, then its first property. */
	prop = fdt_off_dt_struct(buf) + 8;
	assert_int_equal(fdt32_ld((const fdt32_t *)(buf + prop)), FDT_PROP);
	*(fdt32_t *)(buf + prop + 4) = cpu_to_fdt32(0xfffffff4u);
	alarm(10);
	expect_blob_rejected(buf, len, "a property value runs off the structure block");
	alarm(0);
	free(buf);
}

static void test_blob_version_16_is_rejected(void **state)
{
	char *buf = NULL;
	size_t len = 0;

	(void)state;
	load_fixture("golden-dt", &buf, &len);
	((struct fdt_header *)buf)->version = cpu_to_fdt32(16);
	expect_blob_rejected(buf, len, "version 16 is too old (at least 17");
	free(buf);
}

static void test_oversized_buffer_is_rejected(void **state)
{
	size_t len = TF_BOARD_MAX_DTB_SIZE + 1;
	char *buf = calloc(1, len);

	(void)state;
	assert_non_null(buf);
	expect_blob_rejected(buf, len, "larger than");
	free(buf);
}

static void test_byte_corruption_never_crashes(void **state)
{
	char *buf = NULL;
	size_t len = 0, i;
	unsigned ok = 0;

	(void)state;
	load_fixture("golden-dt", &buf, &len);
	for (i = 0; i < len; i++) {
		static const unsigned char flips[] = { 0xff, 0x01, 0x80 };
		size_t f;

		for (f = 0; f < sizeof(flips); f++) {
			struct tf_board_profile *p = NULL;
			struct tf_board_report rep;
			int r;

			buf[i] ^= (char)flips[f];
			tf_board_report_init(&rep);
			r = tf_board_parse(buf, len, "x.dtb", &p, &rep);
			assert_true(r == 0 || r == -EINVAL);
			assert_true((r == 0) == (p != NULL));
			if (r == 0)
				ok++;
			else
				assert_true(rep.n > 0);
			tf_board_free(p);
			tf_board_report_free(&rep);
			buf[i] ^= (char)flips[f];
		}
	}
	/* Some flips (in a model string, say) leave a valid profile. */
	assert_true(ok > 0);
	free(buf);
}

static void test_unaligned_buffer_parses(void **state)
{
	struct tf_board_profile *p = NULL;
	char *buf = NULL, *odd;
	size_t len = 0;

	(void)state;
	load_fixture("golden-dt", &buf, &len);
	odd = malloc(len + 1);
	assert_non_null(odd);
	memcpy(odd + 1, buf, len);
	assert_int_equal(tf_board_parse(odd + 1, len, "x.dtb", &p, NULL), 0);
	assert_int_equal(p->n_ctrl, 2);
	tf_board_free(p);
	free(odd);
	free(buf);
}

/* ------------------------------------------------------------- identity */

/* A boot FDT whose root compatible is the NUL-separated @compat. */
static void write_boot_fdt(const char *sysroot, const char *compat, size_t compat_len)
{
	char path[4096], buf[4096];

	assert_int_equal(fdt_create(buf, sizeof(buf)), 0);
	assert_int_equal(fdt_finish_reservemap(buf), 0);
	assert_int_equal(fdt_begin_node(buf, ""), 0);
	assert_int_equal(fdt_property(buf, "compatible", compat, (int)compat_len), 0);
	assert_int_equal(fdt_property_string(buf, "model", "Fake board"), 0);
	assert_int_equal(fdt_begin_node(buf, "chosen"), 0);
	assert_int_equal(fdt_end_node(buf), 0);
	assert_int_equal(fdt_end_node(buf), 0);
	assert_int_equal(fdt_finish(buf), 0);
	snprintf(path, sizeof(path), "%s/sys/firmware", sysroot);
	mkdirs(path);
	snprintf(path, sizeof(path), "%s/sys/firmware/fdt", sysroot);
	write_file(path, buf, fdt_totalsize(buf));
}

static void write_proc_compatible(const char *sysroot, const char *compat, size_t len)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/proc/device-tree", sysroot);
	mkdirs(path);
	snprintf(path, sizeof(path), "%s/proc/device-tree/compatible", sysroot);
	write_file(path, compat, len);
}

static void write_dmi(const char *sysroot, const char *file, const char *value)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/sys/class/dmi/id", sysroot);
	mkdirs(path);
	snprintf(path, sizeof(path), "%s/sys/class/dmi/id/%s", sysroot, file);
	write_file(path, value, strlen(value));
}

#define STRLIST(s) s, sizeof(s)

static void test_identify_reads_root_compatible_from_boot_fdt(void **state)
{
	struct tf_board_identity id;
	char root[512];

	(void)state;
	new_dir(root, sizeof(root), "sysroot");
	write_boot_fdt(root, STRLIST("acme,tablet-7-revb\0acme,tablet-7"));
	assert_int_equal(tf_board_identify(root, &id, NULL), 0);
	assert_int_equal(id.n_compatible, 2);
	assert_string_equal(id.compatible[0], "acme,tablet-7-revb");
	assert_string_equal(id.compatible[1], "acme,tablet-7");
	assert_string_equal(id.compatible_source, "/sys/firmware/fdt");
	assert_false(id.has_dmi);
	tf_board_identity_free(&id);
}

static void test_identify_prefers_boot_fdt_over_proc_device_tree(void **state)
{
	struct tf_board_identity id;
	char root[512];

	(void)state;
	new_dir(root, sizeof(root), "sysroot");
	write_boot_fdt(root, STRLIST("boot,board"));
	write_proc_compatible(root, STRLIST("live,board"));
	assert_int_equal(tf_board_identify(root, &id, NULL), 0);
	assert_int_equal(id.n_compatible, 1);
	assert_string_equal(id.compatible[0], "boot,board");
	tf_board_identity_free(&id);
}

static void test_identify_falls_back_to_proc_device_tree(void **state)
{
	struct tf_board_identity id;
	char root[512];

	(void)state;
	new_dir(root, sizeof(root), "sysroot");
	write_proc_compatible(root, STRLIST("live,board-v2\0live,board"));
	assert_int_equal(tf_board_identify(root, &id, NULL), 0);
	assert_int_equal(id.n_compatible, 2);
	assert_string_equal(id.compatible[0], "live,board-v2");
	assert_string_equal(id.compatible[1], "live,board");
	assert_string_equal(id.compatible_source, "/proc/device-tree/compatible");
	tf_board_identity_free(&id);
}

static void test_identify_falls_back_when_boot_fdt_is_corrupt(void **state)
{
	struct tf_board_identity id;
	char root[512], path[4096];

	(void)state;
	new_dir(root, sizeof(root), "sysroot");
	snprintf(path, sizeof(path), "%s/sys/firmware", root);
	mkdirs(path);
	snprintf(path, sizeof(path), "%s/sys/firmware/fdt", root);
	write_file(path, "\xd0\x0d\xfe\xed garbage", 12);
	write_proc_compatible(root, STRLIST("live,board"));
	assert_int_equal(tf_board_identify(root, &id, NULL), 0);
	assert_int_equal(id.n_compatible, 1);
	assert_string_equal(id.compatible[0], "live,board");
	tf_board_identity_free(&id);
}

static void test_identify_reads_dmi_and_strips_trailing_whitespace(void **state)
{
	struct tf_board_identity id;
	char root[512];

	(void)state;
	new_dir(root, sizeof(root), "sysroot");
	write_dmi(root, "sys_vendor", "Contoso\n");
	write_dmi(root, "product_name", "Book 14 Pro   \n");
	write_dmi(root, "board_name", "CB14-MB\n");
	assert_int_equal(tf_board_identify(root, &id, NULL), 0);
	assert_int_equal(id.n_compatible, 0);
	assert_true(id.has_dmi);
	assert_true(id.dmi_present[TF_DMI_SYS_VENDOR]);
	assert_string_equal(id.dmi[TF_DMI_SYS_VENDOR], "Contoso");
	assert_string_equal(id.dmi[TF_DMI_PRODUCT_NAME], "Book 14 Pro");
	assert_string_equal(id.dmi[TF_DMI_BOARD_NAME], "CB14-MB");
	assert_false(id.dmi_present[TF_DMI_PRODUCT_VERSION]);
	tf_board_identity_free(&id);
}

static void test_identify_empty_sysroot_gives_empty_identity(void **state)
{
	struct tf_board_identity id;
	char root[512];

	(void)state;
	new_dir(root, sizeof(root), "sysroot");
	assert_int_equal(tf_board_identify(root, &id, NULL), 0);
	assert_int_equal(id.n_compatible, 0);
	assert_string_equal(id.compatible_source, "");
	assert_false(id.has_dmi);
	tf_board_identity_free(&id);
}

static void test_identify_ignores_pre_v16_boot_fdt(void **state)
{
	struct tf_board_identity id;
	char root[512], path[4096];
	char *buf = NULL;
	size_t len = 0;

	(void)state;
	new_dir(root, sizeof(root), "sysroot");
	write_boot_fdt(root, "old,board", sizeof("old,board"));
	snprintf(path, sizeof(path), "%s/sys/firmware/fdt", root);
	read_all(path, &buf, &len);
	((struct fdt_header *)buf)->version = cpu_to_fdt32(6);
	((struct fdt_header *)buf)->last_comp_version = cpu_to_fdt32(0);
	write_file(path, buf, len);
	free(buf);
	write_proc_compatible(root, "live,board", sizeof("live,board"));
	assert_int_equal(tf_board_identify(root, &id, NULL), 0);
	assert_int_equal(id.n_compatible, 1);
	assert_string_equal(id.compatible[0], "live,board");
	tf_board_identity_free(&id);
}

/* ------------------------------------------------------------- loading */

static void test_load_reads_every_profile_in_file_name_order(void **state)
{
	struct tf_board_set *set;
	char dir[512];
	const char *dirs[1];

	(void)state;
	new_dir(dir, sizeof(dir), "boards");
	make_profile(dir, "b.dtb", "B", "board-compatible = \"x,b\";");
	make_profile(dir, "a.dtb", "A", "board-compatible = \"x,a\";");
	make_profile(dir, "c.dtb", "C", "board-compatible = \"x,c\";");
	dirs[0] = dir;
	set = load_dirs(dirs, 1);
	assert_int_equal(tf_board_set_count(set), 3);
	assert_string_equal(tf_board_set_get(set, 0)->name, "a");
	assert_string_equal(tf_board_set_get(set, 1)->name, "b");
	assert_string_equal(tf_board_set_get(set, 2)->name, "c");
	assert_int_equal(tf_board_set_invalid_count(set), 0);
	tf_board_set_free(set);
}

static void test_load_etc_overrides_same_file_name_in_usr_share(void **state)
{
	struct tf_board_set *set;
	char etc[512], usr[512], want[4096];
	const char *dirs[2], *by = NULL;

	(void)state;
	new_dir(etc, sizeof(etc), "etc");
	new_dir(usr, sizeof(usr), "usr");
	make_profile(etc, "board.dtb", "from etc", "board-compatible = \"x,b\";");
	make_profile(usr, "board.dtb", "from usr", "board-compatible = \"x,b\";");
	make_profile(usr, "other.dtb", "other", "board-compatible = \"x,o\";");
	dirs[0] = etc;
	dirs[1] = usr;
	set = load_dirs(dirs, 2);
	assert_int_equal(tf_board_set_count(set), 2);
	assert_string_equal(tf_board_set_get(set, 0)->model, "from etc");
	assert_string_equal(tf_board_set_get(set, 1)->model, "other");
	assert_int_equal(tf_board_set_shadowed_count(set), 1);
	snprintf(want, sizeof(want), "%s/board.dtb", usr);
	assert_string_equal(tf_board_set_shadowed_path(set, 0, &by), want);
	snprintf(want, sizeof(want), "%s/board.dtb", etc);
	assert_string_equal(by, want);
	tf_board_set_free(set);
}

static void test_load_empty_file_masks_lower_profile(void **state)
{
	struct tf_board_set *set;
	char etc[512], usr[512], path[4096];
	const char *dirs[2];

	(void)state;
	new_dir(etc, sizeof(etc), "etc");
	new_dir(usr, sizeof(usr), "usr");
	snprintf(path, sizeof(path), "%s/board.dtb", etc);
	write_file(path, "", 0);
	make_profile(usr, "board.dtb", "masked", "board-compatible = \"x,b\";");
	dirs[0] = etc;
	dirs[1] = usr;
	set = load_dirs(dirs, 2);
	assert_int_equal(tf_board_set_count(set), 0);
	assert_int_equal(tf_board_set_invalid_count(set), 0);
	assert_int_equal(tf_board_set_shadowed_count(set), 1);
	tf_board_set_free(set);
}

static void test_load_dev_null_symlink_masks_lower_profile(void **state)
{
	struct tf_board_set *set;
	char etc[512], usr[512], path[4096];
	const char *dirs[2];

	(void)state;
	new_dir(etc, sizeof(etc), "etc");
	new_dir(usr, sizeof(usr), "usr");
	snprintf(path, sizeof(path), "%s/board.dtb", etc);
	assert_int_equal(symlink("/dev/null", path), 0);
	make_profile(usr, "board.dtb", "masked", "board-compatible = \"x,b\";");
	dirs[0] = etc;
	dirs[1] = usr;
	set = load_dirs(dirs, 2);
	assert_int_equal(tf_board_set_count(set), 0);
	assert_int_equal(tf_board_set_invalid_count(set), 0);
	tf_board_set_free(set);
}

static void test_load_invalid_profile_is_reported_and_others_kept(void **state)
{
	struct tf_board_set *set;
	const struct tf_board_report *rep;
	char dir[512], dtb[4096], path[4096];
	char *buf = NULL;
	size_t len = 0;
	const char *dirs[1];

	(void)state;
	new_dir(dir, sizeof(dir), "boards");
	make_profile(dir, "good.dtb", "good", "board-compatible = \"x,g\";");
	compile_fixture("bad-reg-not-7bit", dtb, sizeof(dtb));
	read_all(dtb, &buf, &len);
	snprintf(path, sizeof(path), "%s/bad.dtb", dir);
	write_file(path, buf, len);
	free(buf);
	snprintf(path, sizeof(path), "%s/truncated.dtb", dir);
	write_file(path, "\xd0\x0d\xfe\xed", 4);
	dirs[0] = dir;
	set = load_dirs(dirs, 1);
	assert_int_equal(tf_board_set_count(set), 1);
	assert_string_equal(tf_board_set_get(set, 0)->model, "good");
	assert_int_equal(tf_board_set_invalid_count(set), 2);
	snprintf(path, sizeof(path), "%s/bad.dtb", dir);
	assert_string_equal(tf_board_set_invalid_path(set, 0), path);
	rep = tf_board_set_invalid_report(set, 0);
	assert_int_equal(rep->n, 1);
	assert_string_equal(rep->issues[0].node, "/controllers/touchscreen@4a");
	assert_non_null(strstr(rep->issues[0].msg, "reg 0x99"));
	rep = tf_board_set_invalid_report(set, 1);
	assert_non_null(strstr(rep->issues[0].msg, "shorter than its header"));
	tf_board_set_free(set);
}

static void test_load_invalid_override_still_shadows_lower_profile(void **state)
{
	struct tf_board_set *set;
	char etc[512], usr[512], path[4096];
	const char *dirs[2];

	(void)state;
	new_dir(etc, sizeof(etc), "etc");
	new_dir(usr, sizeof(usr), "usr");
	snprintf(path, sizeof(path), "%s/board.dtb", etc);
	write_file(path, "junk", 4);
	make_profile(usr, "board.dtb", "shipped", "board-compatible = \"x,b\";");
	dirs[0] = etc;
	dirs[1] = usr;
	set = load_dirs(dirs, 2);
	/* The admin meant to replace it: never fall back to the old one. */
	assert_int_equal(tf_board_set_count(set), 0);
	assert_int_equal(tf_board_set_invalid_count(set), 1);
	assert_int_equal(tf_board_set_shadowed_count(set), 1);
	tf_board_set_free(set);
}

static void test_load_missing_directory_is_skipped(void **state)
{
	struct tf_board_set *set;
	char dir[512], missing[4096];
	const char *dirs[2];

	(void)state;
	new_dir(dir, sizeof(dir), "boards");
	make_profile(dir, "a.dtb", "A", "board-compatible = \"x,a\";");
	snprintf(missing, sizeof(missing), "%s/does-not-exist", g_tmp);
	dirs[0] = missing;
	dirs[1] = dir;
	set = load_dirs(dirs, 2);
	assert_int_equal(tf_board_set_count(set), 1);
	tf_board_set_free(set);
}

static void test_load_directory_that_can_not_be_read_is_an_error(void **state)
{
	struct tf_board_set *set = NULL;
	struct tf_err err = { 0 };
	char path[4096];
	const char *dirs[1];

	(void)state;
	snprintf(path, sizeof(path), "%s/not-a-dir-%u", g_tmp, ++g_seq);
	write_file(path, "x", 1);
	dirs[0] = path;
	assert_int_equal(tf_board_load(dirs, 1, &set, &err), -ENOTDIR);
	assert_null(set);
	assert_non_null(strstr(err.msg, path));
}

static void test_load_ignores_files_not_named_dtb(void **state)
{
	struct tf_board_set *set;
	char dir[512], path[4096];
	const char *dirs[1];

	(void)state;
	new_dir(dir, sizeof(dir), "boards");
	make_profile(dir, "a.dtb", "A", "board-compatible = \"x,a\";");
	make_profile(dir, ".hidden.dtb", "H", "board-compatible = \"x,h\";");
	make_profile(dir, "a.dtb.bak", "B", "board-compatible = \"x,b\";");
	snprintf(path, sizeof(path), "%s/README", dir);
	write_file(path, "hi\n", 3);
	dirs[0] = dir;
	set = load_dirs(dirs, 1);
	assert_int_equal(tf_board_set_count(set), 1);
	assert_int_equal(tf_board_set_invalid_count(set), 0);
	tf_board_set_free(set);
}

/* ------------------------------------------------------------- matching */

static void test_match_first_root_compatible_wins(void **state)
{
	static const char *const compat[] = { "acme,tablet-7-revb", "acme,tablet-7" };
	struct tf_board_identity id = { 0 };
	struct tf_board_match_info mi;
	const struct tf_board_profile *p;
	struct tf_board_set *set;
	char dir[512];
	const char *dirs[1];

	(void)state;
	new_dir(dir, sizeof(dir), "boards");
	/* "a" sorts first but names only the generic compatible. */
	make_profile(dir, "a.dtb", "generic", "board-compatible = \"acme,tablet-7\";");
	make_profile(dir, "b.dtb", "rev B", "board-compatible = \"acme,tablet-7-revb\";");
	dirs[0] = dir;
	set = load_dirs(dirs, 1);
	id_set_compatible(&id, compat, 2);
	p = tf_board_match(set, &id, &mi);
	assert_non_null(p);
	assert_string_equal(p->model, "rev B");
	assert_int_equal(mi.kind, TF_BOARD_MATCH_COMPATIBLE);
	assert_int_equal(mi.compatible_index, 0);
	tf_board_identity_free(&id);
	tf_board_set_free(set);
}

static void test_match_tie_goes_to_earlier_directory(void **state)
{
	static const char *const compat[] = { "acme,tablet-7" };
	struct tf_board_identity id = { 0 };
	const struct tf_board_profile *p;
	struct tf_board_set *set;
	char etc[512], usr[512];
	const char *dirs[2];

	(void)state;
	new_dir(etc, sizeof(etc), "etc");
	new_dir(usr, sizeof(usr), "usr");
	make_profile(usr, "a-shipped.dtb", "shipped", "board-compatible = \"acme,tablet-7\";");
	make_profile(etc, "z-local.dtb", "local", "board-compatible = \"acme,tablet-7\";");
	dirs[0] = etc;
	dirs[1] = usr;
	set = load_dirs(dirs, 2);
	id_set_compatible(&id, compat, 1);
	p = tf_board_match(set, &id, NULL);
	assert_non_null(p);
	assert_string_equal(p->model, "local");
	tf_board_identity_free(&id);
	tf_board_set_free(set);
}

/*
 * Issue 15 item 6: two profiles that match equally well and disagree are
 * a conflict (tf_board_match_conflict names the other and what differs);
 * profiles that agree may tie; the same file name in an earlier directory
 * and a strictly better match are the ways one profile overrides another.
 */
static void test_match_conflict_between_equal_profiles(void **state)
{
	static const char *const compat[] = { "acme,tablet-7-revb", "acme,tablet-7" };
	struct tf_board_identity id = { 0 };
	const struct tf_board_profile *p, *o;
	struct tf_board_set *set;
	char etc[512], usr[512], why[600];
	const char *dirs[2];

	(void)state;
	id_set_compatible(&id, compat, 2);
	/* Disagree on a controller property: a conflict, both named. */
	new_dir(usr, sizeof(usr), "c1");
	make_profile_ctrl(usr, "a.dtb", "A",
			  "board-compatible = \"acme,tablet-7\"; board-ids = \"acme,t7\";", "");
	make_profile_ctrl(usr, "b.dtb", "B",
			  "board-compatible = \"acme,tablet-7\"; board-ids = \"acme,t7\";",
			  "input-timeout-ms = <9000>;");
	dirs[0] = usr;
	set = load_dirs(dirs, 1);
	p = tf_board_match(set, &id, NULL);
	assert_non_null(p);
	assert_string_equal(p->model, "A");
	o = tf_board_match_conflict(set, &id, p, why, sizeof(why));
	assert_non_null(o);
	assert_string_equal(o->model, "B");
	assert_non_null(strstr(why, "/controllers/touchscreen@4a input-timeout-ms: 0 in a, "
				    "9000 in b"));
	tf_board_set_free(set);
	/* Disagree on the board ids only (which DB blobs fit). */
	new_dir(usr, sizeof(usr), "c2");
	make_profile(usr, "a.dtb", "A",
		     "board-compatible = \"acme,tablet-7\"; board-ids = \"acme,t7\";");
	make_profile(usr, "b.dtb", "B",
		     "board-compatible = \"acme,tablet-7\"; board-ids = \"acme,t7-lite\";");
	set = load_dirs(dirs, 1);
	p = tf_board_match(set, &id, NULL);
	assert_non_null(tf_board_match_conflict(set, &id, p, why, sizeof(why)));
	assert_non_null(strstr(why, "board-ids: \"acme,t7\" only in a"));
	tf_board_set_free(set);
	/* Agree (only the model differs): no conflict. */
	new_dir(usr, sizeof(usr), "c3");
	make_profile_ctrl(usr, "a.dtb", "A",
			  "board-compatible = \"acme,tablet-7\"; board-ids = \"acme,t7\";", "");
	make_profile_ctrl(usr, "b.dtb", "B",
			  "board-compatible = \"acme,tablet-7\"; board-ids = \"acme,t7\";", "");
	set = load_dirs(dirs, 1);
	p = tf_board_match(set, &id, NULL);
	assert_null(tf_board_match_conflict(set, &id, p, why, sizeof(why)));
	assert_string_equal(why, "");
	tf_board_set_free(set);
	/* The same file name in an earlier directory replaces the shipped one. */
	new_dir(etc, sizeof(etc), "c4-etc");
	new_dir(usr, sizeof(usr), "c4-usr");
	make_profile_ctrl(usr, "a.dtb", "shipped", "board-compatible = \"acme,tablet-7\";", "");
	make_profile_ctrl(etc, "a.dtb", "local", "board-compatible = \"acme,tablet-7\";",
			  "input-timeout-ms = <9000>;");
	dirs[0] = etc;
	dirs[1] = usr;
	set = load_dirs(dirs, 2);
	p = tf_board_match(set, &id, NULL);
	assert_string_equal(p->model, "local");
	assert_null(tf_board_match_conflict(set, &id, p, why, sizeof(why)));
	tf_board_set_free(set);
	/* A more specific compatible string wins outright. */
	new_dir(usr, sizeof(usr), "c5");
	make_profile_ctrl(usr, "a.dtb", "generic", "board-compatible = \"acme,tablet-7\";", "");
	make_profile_ctrl(usr, "b.dtb", "rev B", "board-compatible = \"acme,tablet-7-revb\";",
			  "input-timeout-ms = <9000>;");
	dirs[0] = usr;
	set = load_dirs(dirs, 1);
	p = tf_board_match(set, &id, NULL);
	assert_string_equal(p->model, "rev B");
	assert_null(tf_board_match_conflict(set, &id, p, why, sizeof(why)));
	tf_board_set_free(set);
	tf_board_identity_free(&id);
}

static void test_match_dmi_needs_every_key(void **state)
{
	struct tf_board_identity id = { 0 };
	struct tf_board_set *set;
	char dir[512];
	const char *dirs[1];

	(void)state;
	new_dir(dir, sizeof(dir), "boards");
	make_profile(dir, "laptop.dtb", "laptop",
		     "dmi-match { sys-vendor = \"Contoso\"; "
		     "product-name = \"Book 14\"; };");
	dirs[0] = dir;
	set = load_dirs(dirs, 1);
	id_set_dmi(&id, TF_DMI_SYS_VENDOR, "Contoso");
	id_set_dmi(&id, TF_DMI_PRODUCT_NAME, "Book 15");
	assert_null(tf_board_match(set, &id, NULL));
	id_set_dmi(&id, TF_DMI_PRODUCT_NAME, "Book 14");
	assert_non_null(tf_board_match(set, &id, NULL));
	tf_board_set_free(set);
}

static void test_match_dmi_absent_key_never_matches(void **state)
{
	struct tf_board_identity id = { 0 };
	struct tf_board_set *set;
	char dir[512];
	const char *dirs[1];

	(void)state;
	new_dir(dir, sizeof(dir), "boards");
	make_profile(dir, "laptop.dtb", "laptop",
		     "dmi-match { sys-vendor = \"Contoso\"; "
		     "product-sku = \"*\"; };");
	dirs[0] = dir;
	set = load_dirs(dirs, 1);
	id_set_dmi(&id, TF_DMI_SYS_VENDOR, "Contoso");
	assert_null(tf_board_match(set, &id, NULL));
	tf_board_set_free(set);
}

static void test_match_dmi_glob_and_alternatives(void **state)
{
	struct tf_board_identity id = { 0 };
	struct tf_board_set *set;
	char dir[512];
	const char *dirs[1];

	(void)state;
	new_dir(dir, sizeof(dir), "boards");
	make_profile(dir, "laptop.dtb", "laptop",
		     "dmi-match { product-name = \"Book 1?*\"; "
		     "board-name = \"CB14-MB\", \"CB14-MB2\"; };");
	dirs[0] = dir;
	set = load_dirs(dirs, 1);
	id_set_dmi(&id, TF_DMI_PRODUCT_NAME, "Book 14 Pro");
	id_set_dmi(&id, TF_DMI_BOARD_NAME, "CB14-MB2");
	assert_non_null(tf_board_match(set, &id, NULL));
	id_set_dmi(&id, TF_DMI_BOARD_NAME, "CB14-MB3");
	assert_null(tf_board_match(set, &id, NULL));
	id_set_dmi(&id, TF_DMI_BOARD_NAME, "CB14-MB");
	id_set_dmi(&id, TF_DMI_PRODUCT_NAME, "Book 2");
	assert_null(tf_board_match(set, &id, NULL));
	tf_board_set_free(set);
}

static void test_match_dmi_literal_brackets_match_exactly(void **state)
{
	struct tf_board_identity id = { 0 };
	struct tf_board_set *set;
	char dir[512];
	const char *dirs[1];

	(void)state;
	new_dir(dir, sizeof(dir), "boards");
	make_profile(dir, "laptop.dtb", "laptop",
		     "dmi-match { product-name = \"Book [Gen 2]\"; };");
	dirs[0] = dir;
	set = load_dirs(dirs, 1);
	id_set_dmi(&id, TF_DMI_PRODUCT_NAME, "Book [Gen 2]");
	assert_non_null(tf_board_match(set, &id, NULL));
	tf_board_set_free(set);
}

static void test_match_dmi_with_more_keys_wins(void **state)
{
	struct tf_board_identity id = { 0 };
	struct tf_board_match_info mi;
	const struct tf_board_profile *p;
	struct tf_board_set *set;
	char dir[512];
	const char *dirs[1];

	(void)state;
	new_dir(dir, sizeof(dir), "boards");
	make_profile(dir, "a-family.dtb", "family", "dmi-match { sys-vendor = \"Contoso\"; };");
	make_profile(dir, "b-model.dtb", "model",
		     "dmi-match { sys-vendor = \"Contoso\"; "
		     "product-name = \"Book 14\"; };");
	dirs[0] = dir;
	set = load_dirs(dirs, 1);
	id_set_dmi(&id, TF_DMI_SYS_VENDOR, "Contoso");
	id_set_dmi(&id, TF_DMI_PRODUCT_NAME, "Book 14");
	p = tf_board_match(set, &id, &mi);
	assert_non_null(p);
	assert_string_equal(p->model, "model");
	assert_int_equal(mi.kind, TF_BOARD_MATCH_DMI);
	assert_int_equal(mi.n_dmi_keys, 2);
	tf_board_set_free(set);
}

static void test_match_compatible_beats_dmi(void **state)
{
	static const char *const compat[] = { "contoso,arm-book" };
	struct tf_board_identity id = { 0 };
	const struct tf_board_profile *p;
	struct tf_board_set *set;
	char dir[512];
	const char *dirs[1];

	(void)state;
	new_dir(dir, sizeof(dir), "boards");
	make_profile(dir, "a-dmi.dtb", "by dmi", "dmi-match { sys-vendor = \"Contoso\"; };");
	make_profile(dir, "b-dt.dtb", "by compatible",
		     "board-compatible = \"contoso,arm-book\";");
	dirs[0] = dir;
	set = load_dirs(dirs, 1);
	id_set_compatible(&id, compat, 1);
	id_set_dmi(&id, TF_DMI_SYS_VENDOR, "Contoso");
	p = tf_board_match(set, &id, NULL);
	assert_non_null(p);
	assert_string_equal(p->model, "by compatible");
	tf_board_identity_free(&id);
	tf_board_set_free(set);
}

static void test_match_nothing_returns_null(void **state)
{
	static const char *const compat[] = { "other,board" };
	struct tf_board_identity id = { 0 };
	struct tf_board_match_info mi;
	struct tf_board_set *set;
	char dir[512];
	const char *dirs[1];

	(void)state;
	new_dir(dir, sizeof(dir), "boards");
	make_profile(dir, "a.dtb", "A", "board-compatible = \"x,a\";");
	dirs[0] = dir;
	set = load_dirs(dirs, 1);
	id_set_compatible(&id, compat, 1);
	assert_null(tf_board_match(set, &id, &mi));
	assert_int_equal(mi.kind, TF_BOARD_MATCH_NONE);
	tf_board_identity_free(&id);
	tf_board_set_free(set);
}

/* ------------------------------------------------------------- lookup */

static void test_find_controller_by_adapter_name(void **state)
{
	struct tf_board_profile *p = NULL;
	const struct tf_controller *c;

	(void)state;
	assert_int_equal(parse_fixture("golden-dmi", &p, NULL), 0);
	c = tf_board_find_controller(p, "i2c", "Synopsys DesignWare I2C adapter", NULL, 0x4b);
	assert_non_null(c);
	assert_string_equal(c->node_path, "/controllers/touchscreen@4b");
	assert_null(tf_board_find_controller(p, "i2c", "i915 gmbus dpb", NULL, 0x4b));
	tf_board_free(p);
}

static void test_find_controller_by_adapter_path_with_sysfs_prefix(void **state)
{
	struct tf_board_profile *p = NULL;

	(void)state;
	assert_int_equal(parse_fixture("golden-dt", &p, NULL), 0);
	assert_ptr_equal(tf_board_find_controller(p, "i2c", NULL, "/soc/i2c@7000c400", 0x4a),
			 &p->ctrl[0]);
	assert_ptr_equal(tf_board_find_controller(
				 p, "i2c", NULL,
				 "/sys/firmware/devicetree/base/soc/i2c@7000c400", 0x4a),
			 &p->ctrl[0]);
	assert_ptr_equal(tf_board_find_controller(p, "i2c", NULL,
						  "/proc/device-tree/soc/i2c@7000c400/", 0x4a),
			 &p->ctrl[0]);
	assert_null(tf_board_find_controller(p, "i2c", NULL, "/soc/i2c@7000c500", 0x4a));
	tf_board_free(p);
}

static void test_find_controller_by_path_ignores_adapter_name(void **state)
{
	struct tf_board_profile *p = NULL;

	(void)state;
	assert_int_equal(parse_fixture("golden-dt", &p, NULL), 0);
	/* The profile names this adapter by path; a name proves nothing. */
	assert_null(tf_board_find_controller(p, "i2c", "/soc/i2c@7000c400", NULL, 0x4a));
	tf_board_free(p);
}

static void test_find_controller_needs_same_bus_and_reg(void **state)
{
	struct tf_board_profile *p = NULL;

	(void)state;
	assert_int_equal(parse_fixture("golden-dt", &p, NULL), 0);
	assert_null(tf_board_find_controller(p, "i2c", NULL, "/soc/i2c@7000c400", 0x4b));
	assert_null(tf_board_find_controller(p, "spi", NULL, "/soc/i2c@7000c400", 0x4a));
	assert_ptr_equal(tf_board_find_controller(p, "spi", "spi-golden.0", NULL, 1),
			 &p->ctrl[1]);
	assert_null(tf_board_find_controller(p, "i2c", "spi-golden.0", NULL, 1));
	tf_board_free(p);
}

/* A device without an address (an ACPI-named client): the only
 * controller on its adapter, none when there are two. */
static void test_lookup_controller_without_address(void **state)
{
	struct tf_board_profile *p = NULL;
	struct tf_controller two[2], *own;
	size_t n_own;

	(void)state;
	assert_int_equal(parse_fixture("golden-dmi", &p, NULL), 0);
	assert_ptr_equal(tf_board_lookup_controller(p, "i2c", "Synopsys DesignWare I2C adapter",
						    NULL, false, 0),
			 &p->ctrl[0]);
	assert_ptr_equal(tf_board_lookup_controller(p, "i2c", "Synopsys DesignWare I2C adapter",
						    NULL, true, 0x4b),
			 &p->ctrl[0]);
	/* With an address, only that address. */
	assert_null(tf_board_lookup_controller(p, "i2c", "Synopsys DesignWare I2C adapter",
					       NULL, true, 0x4c));
	assert_null(tf_board_lookup_controller(p, "i2c", "i915 gmbus dpb", NULL, false, 0));
	/* Two controllers on that adapter: which one is not known. */
	own = p->ctrl;
	n_own = p->n_ctrl;
	two[0] = own[0];
	two[1] = own[0];
	two[1].reg = 0x4c;
	p->ctrl = two;
	p->n_ctrl = 2;
	assert_null(tf_board_lookup_controller(p, "i2c", "Synopsys DesignWare I2C adapter",
					       NULL, false, 0));
	assert_ptr_equal(tf_board_lookup_controller(p, "i2c", "Synopsys DesignWare I2C adapter",
						    NULL, true, 0x4c),
			 &two[1]);
	p->ctrl = own;
	p->n_ctrl = n_own;
	tf_board_free(p);
}

/* ------------------------------------------------------------- near misses */

static void explain(const char *dir, const char *compat, const char *adapter, uint16_t reg,
		    const char *driver, char *out, size_t size)
{
	struct tf_board_identity id = { 0 };
	struct tf_board_miss_device d = {
		.bus = "i2c",
		.adapter_name = adapter,
		.has_reg = true,
		.reg = reg,
		.driver = driver,
	};
	const char *dirs[1] = { dir };
	struct tf_board_set *set = load_dirs(dirs, 1);

	id_set_compatible(&id, &compat, 1);
	tf_board_explain_miss(set, &id, &d, out, size);
	print_message("%s\n", out);
	tf_board_identity_free(&id);
	tf_board_set_free(set);
}

static void test_explain_miss_names_the_profile_whose_compatible_differs(void **state)
{
	char dir[512], out[600], want[1200];

	(void)state;
	new_dir(dir, sizeof(dir), "boards");
	make_profile(dir, "a.dtb", "A", "board-compatible = \"x,a\";");
	make_profile_ctrl(dir, "b.dtb", "B", "board-compatible = \"x,b\";",
			  "driver = \"atmel_mxt_ts\";");
	explain(dir, "other,board", "adapter A", 0x4a, "atmel_mxt_ts", out, sizeof(out));
	/* Both are for this device; a is first in file-name order. */
	snprintf(want, sizeof(want),
		 "nearest profile a (%s/a.dtb): its board-compatible \"x,a\" "
		 "differs from this board's \"other,board\"; its controller "
		 "/controllers/touchscreen@4a is this device",
		 dir);
	assert_string_equal(out, want);
}

static void test_explain_miss_prefers_the_profile_for_this_board(void **state)
{
	char dir[512], out[600], want[1200];

	(void)state;
	new_dir(dir, sizeof(dir), "boards");
	make_profile(dir, "a.dtb", "A", "board-compatible = \"x,a\";");
	make_profile_ctrl(dir, "b.dtb", "B", "board-compatible = \"x,b\";", "");
	explain(dir, "x,b", "adapter B", 0x4a, "atmel_mxt_ts", out, sizeof(out));
	snprintf(want, sizeof(want),
		 "nearest profile b (%s/b.dtb) describes this board, but its "
		 "nearest controller /controllers/touchscreen@4a is on adapter "
		 "'adapter A' at 0x4a, not on adapter 'adapter B' at 0x4a",
		 dir);
	assert_string_equal(out, want);
}

static void test_explain_miss_says_the_driver_differs(void **state)
{
	char dir[512], out[600];

	(void)state;
	new_dir(dir, sizeof(dir), "boards");
	make_profile_ctrl(dir, "g.dtb", "G", "board-compatible = \"x,g\";",
			  "driver = \"atmel_mxt_ts\";");
	/* Something else (an EEPROM driver) is bound at that address. */
	explain(dir, "other,board", "adapter A", 0x4a, "at24", out, sizeof(out));
	assert_non_null(strstr(out, "its controller /controllers/touchscreen@4a "
				    "is this device but says driver = "
				    "\"atmel_mxt_ts\", and the device is bound "
				    "to at24"));
}

static void test_explain_miss_with_no_profile_installed(void **state)
{
	char dir[512], out[600];

	(void)state;
	new_dir(dir, sizeof(dir), "boards");
	explain(dir, "x,a", "adapter A", 0x4a, "", out, sizeof(out));
	assert_string_equal(out, "no valid board profile is installed");
}

/* ------------------------------------------------------------- command */

/* Run `touchfw board ARGS...` in-process; its stdout goes to @out. */
static int run_board(char *out, size_t outsz, int argc, ...)
{
	struct tf_cli cli = { 0 };
	char *argv[16];
	char path[4096];
	va_list ap;
	int i, fd, saved, rc;
	ssize_t n;

	assert_true(argc < 15);
	argv[0] = (char *)"board";
	va_start(ap, argc);
	for (i = 1; i <= argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	argv[argc + 1] = NULL;
	cli.command = "board";
	cli.argc = argc + 1;
	cli.argv = argv;
	cli.verbosity = 0;

	snprintf(path, sizeof(path), "%s/stdout-%u", g_tmp, ++g_seq);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(saved >= 0 && fd >= 0);
	dup2(fd, STDOUT_FILENO);
	rc = tf_cmd_board(&cli);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	n = pread(fd, out, outsz - 1, 0);
	close(fd);
	out[n > 0 ? n : 0] = '\0';
	return rc;
}

static void fixture_src(const char *name, char *out, size_t size)
{
	snprintf(out, size, "%s/tests/unit/fixtures/board/%s.dts", top(), name);
}

static void test_cmd_check_prints_every_mistake_with_file_and_node(void **state)
{
	char out[8192], src[4096], line[4600];
	int rc;

	(void)state;
	fixture_src("bad-many", src, sizeof(src));
	rc = run_board(out, sizeof(out), 2, "check", src);
	print_message("%s", out);
	assert_int_equal(rc, TF_EXIT_PROFILE_INVALID);
	snprintf(line, sizeof(line),
		 "%s: /controllers/touchscreen@4a: reg 0x99 is not a 7-bit "
		 "i2c address (0x03..0x77)\n",
		 src);
	assert_non_null(strstr(out, line));
	snprintf(line, sizeof(line),
		 "%s: /controllers/touchpad@25: reset-gpio-chip needs "
		 "reset-gpio-line\n",
		 src);
	assert_non_null(strstr(out, line));
	snprintf(line, sizeof(line), "%s: /: model is missing", src);
	assert_non_null(strstr(out, line));
}

static void test_cmd_check_applies_the_families_rules(void **state)
{
	char out[8192], src[4096], line[4700];
	int rc;

	(void)state;
	fixture_src("bad-goodix-reg", src, sizeof(src));
	rc = run_board(out, sizeof(out), 2, "check", src);
	assert_int_equal(rc, TF_EXIT_PROFILE_INVALID);
	snprintf(line, sizeof(line),
		 "%s: /controllers/touchscreen@4a: reg 0x4a: a Goodix chip answers at 0x14 "
		 "or 0x5d (the level of INT at reset chooses)\n",
		 src);
	assert_non_null(strstr(out, line));
	snprintf(line, sizeof(line),
		 "%s: /controllers/touchscreen@4b: config-name is given, but the mxt driver "
		 "takes no configuration file name from the board\n",
		 src);
	assert_non_null(strstr(out, line));
}

static void test_cmd_check_valid_profiles_exit_ok(void **state)
{
	char out[8192], src[4096], dtb[4096];
	int rc;

	(void)state;
	fixture_src("golden-dt", src, sizeof(src));
	compile_fixture("golden-dmi", dtb, sizeof(dtb));
	rc = run_board(out, sizeof(out), 3, "check", src, dtb);
	assert_int_equal(rc, TF_EXIT_OK);
	assert_non_null(strstr(out, "ok: \"Golden DT board\""));
	assert_non_null(strstr(out, "ok: \"Golden laptop\""));
	assert_non_null(strstr(out, "checked 2 profiles: all valid"));
}

static void test_cmd_check_passes_on_dtc_errors(void **state)
{
	char out[8192], src[4096], line[4600];
	int rc;

	(void)state;
	fixture_src("dtc-syntax-error", src, sizeof(src));
	rc = run_board(out, sizeof(out), 2, "check", src);
	print_message("%s", out);
	assert_int_equal(rc, TF_EXIT_PROFILE_INVALID);
	snprintf(line, sizeof(line), "%s: dtc: Error:", src);
	assert_non_null(strstr(out, line));
	assert_non_null(strstr(out, "syntax error"));
}

static void test_cmd_check_corrupt_dtb_exits_profile_invalid(void **state)
{
	char out[8192], path[4096];
	int rc;

	(void)state;
	snprintf(path, sizeof(path), "%s/corrupt-%u.dtb", g_tmp, ++g_seq);
	write_file(path, "\xd0\x0d\xfe\xed\x00\x00\x10\x00", 8);
	rc = run_board(out, sizeof(out), 2, "check", path);
	assert_int_equal(rc, TF_EXIT_PROFILE_INVALID);
	assert_non_null(strstr(out, "shorter than its header"));
}

static void test_cmd_check_missing_file_exits_bad_input(void **state)
{
	char out[8192], path[4096];
	int rc;

	(void)state;
	snprintf(path, sizeof(path), "%s/no-such-file.dtb", g_tmp);
	rc = run_board(out, sizeof(out), 2, "check", path);
	assert_int_equal(rc, TF_EXIT_BAD_INPUT);
}

static void test_cmd_without_subcommand_is_a_usage_error(void **state)
{
	char out[8192];

	(void)state;
	assert_int_equal(run_board(out, sizeof(out), 0), TF_EXIT_USAGE);
	assert_int_equal(run_board(out, sizeof(out), 1, "check"), TF_EXIT_USAGE);
	assert_int_equal(run_board(out, sizeof(out), 1, "frobnicate"), TF_EXIT_USAGE);
	assert_int_equal(run_board(out, sizeof(out), 2, "check", "--help"), TF_EXIT_OK);
	assert_non_null(strstr(out, "Usage: touchfw board check"));
}

static void test_cmd_identify_shows_matching_profile(void **state)
{
	char out[8192], root[512], dir[512], dtb[4096], want[4600];
	char *buf = NULL;
	size_t len = 0;
	int rc;

	(void)state;
	new_dir(root, sizeof(root), "sysroot");
	write_proc_compatible(root, STRLIST("touchfw,emul-demo"));
	new_dir(dir, sizeof(dir), "boards");
	compile_example("emul-demo", dtb, sizeof(dtb));
	read_all(dtb, &buf, &len);
	snprintf(want, sizeof(want), "%s/emul-demo.dtb", dir);
	write_file(want, buf, len);
	free(buf);
	rc = run_board(out, sizeof(out), 5, "identify", "--sysroot", root, "--boards", dir);
	print_message("%s", out);
	assert_int_equal(rc, TF_EXIT_OK);
	assert_non_null(strstr(out, "\"touchfw,emul-demo\""));
	snprintf(want, sizeof(want),
		 "profile: %s/emul-demo.dtb \"touchfw emulated demo board\" by "
		 "compatible \"touchfw,emul-demo\"",
		 dir);
	assert_non_null(strstr(out, want));
}

/*
 * identify reads the settings file as run does (boards_dirs), and names a
 * device-tree source lying in a profile directory, which is not read.
 */
static void test_cmd_identify_honours_settings_and_names_stray_sources(void **state)
{
	char out[8192], root[512], dir[512], dtb[4096], conf[600], want[4600];
	char *buf = NULL;
	size_t len = 0;
	int rc;

	(void)state;
	new_dir(root, sizeof(root), "sysroot");
	write_proc_compatible(root, STRLIST("touchfw,emul-demo"));
	new_dir(dir, sizeof(dir), "boards");
	compile_example("emul-demo", dtb, sizeof(dtb));
	read_all(dtb, &buf, &len);
	snprintf(want, sizeof(want), "%s/emul-demo.dtb", dir);
	write_file(want, buf, len);
	free(buf);
	/* Sources: one without its blob (ignored, named), one beside it. */
	snprintf(want, sizeof(want), "%s/my-board.dts", dir);
	write_file(want, "/dts-v1/;\n/ { };\n", 18);
	snprintf(want, sizeof(want), "%s/emul-demo.dts", dir);
	write_file(want, "/dts-v1/;\n/ { };\n", 18);
	snprintf(conf, sizeof(conf), "%s/touchfw.conf", dir);
	snprintf(want, sizeof(want), "[paths]\nboards_dirs = %s\n", dir);
	write_file(conf, want, strlen(want));
	setenv("TOUCHFW_CONFIG", conf, 1);
	rc = run_board(out, sizeof(out), 3, "identify", "--sysroot", root);
	unsetenv("TOUCHFW_CONFIG");
	print_message("%s", out);
	assert_int_equal(rc, TF_EXIT_OK);
	snprintf(want, sizeof(want), "profile: %s/emul-demo.dtb", dir);
	assert_non_null(strstr(out, want));
	snprintf(want, sizeof(want),
		 "ignoring %s/my-board.dts: touchfw reads only compiled "
		 "profiles; compile it with dtc (dtc -I dts -O dtb -o "
		 "%s/my-board.dtb %s/my-board.dts) or make, and put the .dtb "
		 "there instead",
		 dir, dir, dir);
	assert_non_null(strstr(out, want));
	assert_null(strstr(out, "emul-demo.dts"));
}

static void test_load_names_sources_without_their_blob(void **state)
{
	char dir[512], path[4096];
	const char *dirs[1];
	struct tf_board_set *set;

	(void)state;
	new_dir(dir, sizeof(dir), "boards");
	make_profile(dir, "a.dtb", "A", "board-compatible = \"x,a\";");
	snprintf(path, sizeof(path), "%s/a.dts", dir);
	write_file(path, "x", 1);
	snprintf(path, sizeof(path), "%s/b.dts", dir);
	write_file(path, "x", 1);
	snprintf(path, sizeof(path), "%s/.hidden.dts", dir);
	write_file(path, "x", 1);
	dirs[0] = dir;
	set = load_dirs(dirs, 1);
	assert_int_equal(tf_board_set_count(set), 1);
	assert_int_equal(tf_board_set_ignored_count(set), 1);
	snprintf(path, sizeof(path), "%s/b.dts", dir);
	assert_string_equal(tf_board_set_ignored_path(set, 0), path);
	tf_board_set_free(set);
}

static void test_cmd_identify_without_match_exits_no_profile(void **state)
{
	char out[8192], root[512], dir[512];
	int rc;

	(void)state;
	new_dir(root, sizeof(root), "sysroot");
	write_dmi(root, "sys_vendor", "Nobody\n");
	new_dir(dir, sizeof(dir), "boards");
	make_profile(dir, "a.dtb", "A", "board-compatible = \"x,a\";");
	rc = run_board(out, sizeof(out), 5, "identify", "--sysroot", root, "--boards", dir);
	assert_int_equal(rc, TF_EXIT_NO_PROFILE);
	assert_non_null(strstr(out, "sys-vendor"));
	assert_non_null(strstr(out, "profile: none"));
}

/* ------------------------------------------------------------- main */

#define CTRL "/controllers/touchscreen@4a"
#define BAD(test, fixture, ...)                               \
	{                                                     \
		.name = #test, .test_func = test_bad_fixture, \
		.initial_state = &(struct bad_case)           \
		{                                             \
			fixture,                              \
			{                                     \
				__VA_ARGS__                   \
			}                                     \
		}                                             \
	}
#define E(node, msg)      \
	{                 \
		node, msg \
	}

/* Firmware templates' placeholders: a dmi-match on one matches every
 * machine built from the template (issue 27 item 7). */
static void test_dmi_placeholders_are_recognised(void **state)
{
	(void)state;
	assert_true(tf_dmi_placeholder("Default string"));
	assert_true(tf_dmi_placeholder("  default STRING \n"));
	assert_true(tf_dmi_placeholder("To be filled by O.E.M."));
	assert_true(tf_dmi_placeholder("System Product Name"));
	assert_true(tf_dmi_placeholder("Not Applicable"));
	assert_true(tf_dmi_placeholder(""));
	assert_false(tf_dmi_placeholder("LENOVO"));
	assert_false(tf_dmi_placeholder("Default string 2"));
	assert_false(tf_dmi_placeholder("ThinkPad X13 Gen 2"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dmi_placeholders_are_recognised),
		cmocka_unit_test(test_golden_dt_profile_fields_are_read),
		cmocka_unit_test(test_golden_dt_spi_controller_is_read),
		cmocka_unit_test(test_golden_dmi_profile_fields_are_read),
		cmocka_unit_test(test_board_ids_default_to_board_compatible),
		cmocka_unit_test(test_board_ids_default_to_file_name_for_dmi_profiles),
		cmocka_unit_test(test_board_ids_given_replace_the_default),
		cmocka_unit_test(test_dmi_profile_without_file_name_needs_board_ids),
		cmocka_unit_test(test_profile_file_name_too_long_is_reported),
		cmocka_unit_test(test_controllers_up_to_32_are_read),
		cmocka_unit_test(test_timeouts_default_when_not_given),
		cmocka_unit_test(test_golden_goodix_profile_fields_are_read),
		cmocka_unit_test(test_examples_are_all_valid),
		cmocka_unit_test(test_cmd_identify_honours_settings_and_names_stray_sources),
		cmocka_unit_test(test_load_names_sources_without_their_blob),
		cmocka_unit_test(test_explain_miss_names_the_profile_whose_compatible_differs),
		cmocka_unit_test(test_explain_miss_prefers_the_profile_for_this_board),
		cmocka_unit_test(test_explain_miss_says_the_driver_differs),
		cmocka_unit_test(test_explain_miss_with_no_profile_installed),
		cmocka_unit_test(test_example_emul_demo_describes_the_emulated_board),
		cmocka_unit_test(test_example_emul_always_on_differs_in_power_and_compatible),

		/* Root node. */
		BAD(test_version_missing_is_reported, "bad-version-missing",
		    E("/", "touchfw,profile-version is missing (write "
			   "touchfw,profile-version = <1>;)")),
		BAD(test_version_unsupported_stops_the_check, "bad-version-unsupported",
		    E("/", "touchfw,profile-version 2 is not supported (this "
			   "touchfw reads version 1)")),
		BAD(test_model_missing_is_reported, "bad-model-missing",
		    E("/", "model is missing (a human-readable board name)")),
		BAD(test_profile_without_match_rule_is_rejected, "bad-no-match-rule",
		    E("/", "needs board-compatible (device-tree boards) or a "
			   "dmi-match node (ACPI boards); neither is given")),
		BAD(test_profile_with_both_match_rules_is_rejected, "bad-both-match-rules",
		    E("/", "has both board-compatible and a dmi-match node; "
			   "give exactly one")),
		BAD(test_root_compatible_points_to_board_compatible, "bad-root-compatible",
		    E("/", "unknown property \"compatible\" (the board's "
			   "compatible strings go in board-compatible)")),
		BAD(test_empty_compatible_entry_is_rejected, "bad-compatible-empty-entry",
		    E("/", "board-compatible entry 2 is empty")),
		BAD(test_duplicate_compatible_is_rejected, "bad-compatible-twice",
		    E("/", "board-compatible lists \"fixture,board\" twice")),
		BAD(test_compatible_with_whitespace_is_rejected, "bad-compatible-whitespace",
		    E("/", "board-compatible entry \"fixture, board\" contains "
			   "whitespace")),
		BAD(test_empty_board_id_is_rejected, "bad-board-ids-empty-entry",
		    E("/", "board-ids entry 1 is empty")),
		BAD(test_misspelt_root_node_suggests_controllers, "bad-root-node-typo",
		    E("/controler", "unknown node (did you mean "
				    "\"controllers\"?)")),
		BAD(test_controllers_node_missing_is_reported, "bad-controllers-missing",
		    E("/", "controllers node is missing")),
		BAD(test_controllers_node_without_controllers_is_rejected,
		    "bad-controllers-empty",
		    E("/controllers", "no controllers: add at least one "
				      "controller node")),
		BAD(test_unknown_property_in_controllers_is_rejected,
		    "bad-controllers-property", E("/controllers", "unknown property \"foo\"")),
		BAD(test_address_cells_other_than_one_is_rejected, "bad-address-cells",
		    E("/controllers", "#address-cells must be <1> (reg is one "
				      "cell)")),

		/* Controller: address. */
		BAD(test_reg_beyond_7_bits_is_rejected, "bad-reg-not-7bit",
		    E(CTRL, "reg 0x99 is not a 7-bit i2c address "
			    "(0x03..0x77)")),
		BAD(test_reserved_i2c_address_is_rejected, "bad-reg-reserved",
		    E(CTRL, "reg 0x2 is not a 7-bit i2c address "
			    "(0x03..0x77)")),
		BAD(test_reg_with_two_cells_is_rejected, "bad-reg-two-cells",
		    E(CTRL, "reg must be one 32-bit number, like reg = "
			    "<0x4a>;")),
		BAD(test_reg_missing_is_reported, "bad-reg-missing",
		    E(CTRL, "reg is missing (the i2c address or spi chip "
			    "select, like reg = <0x4a>;)")),
		BAD(test_unit_address_must_match_reg, "bad-unit-address-mismatch",
		    E(CTRL, "unit address \"4a\" does not match reg 0x4b (name "
			    "the node touchscreen@4b)")),
		BAD(test_spi_chip_select_beyond_255_is_rejected, "bad-spi-chip-select",
		    E(CTRL, "reg 256 is not an spi chip select (0..255)")),
		BAD(test_bootloader_reg_equal_to_reg_is_rejected, "bad-bootloader-reg-same",
		    E(CTRL, "bootloader-reg 0x4a is the same as reg")),
		BAD(test_bootloader_reg_beyond_7_bits_is_rejected,
		    "bad-bootloader-reg-not-7bit",
		    E(CTRL, "bootloader-reg 0x80 is not a 7-bit i2c address "
			    "(0x03..0x77)")),
		BAD(test_spi_settings_on_i2c_are_rejected, "bad-spi-props-on-i2c",
		    E(CTRL, "spi-max-frequency is an spi setting; bus is \"i2c\""),
		    E(CTRL, "spi-cpha is an spi setting; bus is \"i2c\"")),
		BAD(test_spi_setting_values_are_checked, "bad-spi-props-values",
		    E(CTRL, "spi-max-frequency 500 is not 1000..200000000 Hz"),
		    E(CTRL, "spi-cpol is a flag and takes no value (write \"spi-cpol;\")"),
		    E(CTRL, "spi-bits-per-word 33 is not 1..32")),
		BAD(test_bootloader_reg_on_spi_is_rejected, "bad-bootloader-reg-on-spi",
		    E(CTRL, "bootloader-reg is for i2c controllers only")),
		BAD(test_two_controllers_at_one_address_are_rejected,
		    "bad-same-adapter-and-reg",
		    E("/controllers/touchscreen-rear@4a",
		      "same bus, adapter and reg as " CTRL)),
		BAD(test_controller_at_anothers_bootloader_address_is_rejected,
		    "bad-bootloader-reg-collision",
		    E("/controllers/touchpad@26", "reg 0x26 is the bootloader-reg of " CTRL)),

		/* Controller: adapter. */
		BAD(test_adapter_named_twice_is_rejected, "bad-adapter-both",
		    E(CTRL, "give exactly one of adapter-name and "
			    "adapter-path; both are given")),
		BAD(test_adapter_missing_is_reported, "bad-adapter-missing",
		    E(CTRL, "adapter-name or adapter-path is missing (adapters "
			    "are named, never numbered)")),
		BAD(test_relative_adapter_path_is_rejected, "bad-adapter-path-relative",
		    E(CTRL, "adapter-path \"soc/i2c@7000c400\" is not an "
			    "absolute device-tree node path like "
			    "\"/soc/i2c@7000c400\"")),
		BAD(test_adapter_path_copied_from_proc_is_rejected, "bad-adapter-path-proc",
		    E(CTRL, "adapter-path \"/proc/device-tree/soc/i2c@7000c400\" "
			    "is a path in /proc or /sys; write the device-tree "
			    "path \"/soc/i2c@7000c400\"")),
		BAD(test_adapter_name_longer_than_kernel_limit_is_rejected,
		    "bad-adapter-name-too-long",
		    E(CTRL, "adapter-name is longer than 47 characters, more "
			    "than an i2c adapter name can hold")),
		BAD(test_adapter_bus_number_is_refused_with_reason, "bad-adapter-number",
		    E(CTRL, "unknown property \"adapter-nr\" (adapters are "
			    "named by adapter-name or adapter-path, never by "
			    "number: bus numbers change between boots)")),
		BAD(test_adapter_name_that_is_a_bus_number_is_rejected,
		    "bad-adapter-name-bus-number",
		    E(CTRL, "adapter-name \"i2c-3\" is a bus number, and bus numbers "
			    "change between boots (did you mean the adapter's name, "
			    "as in /sys/bus/i2c/devices/i2c-3/name, or its "
			    "device-tree adapter-path?)")),
		BAD(test_misspelt_adapter_name_is_unknown_and_missing, "bad-adapter-name-typo",
		    E(CTRL, "unknown property \"adapter-nmae\" (did you mean "
			    "\"adapter-name\"?)"),
		    E(CTRL, "adapter-name or adapter-path is missing (adapters "
			    "are named, never numbered)")),

		/* Controller: family, bus, driver. */
		BAD(test_unknown_bus_is_rejected, "bad-bus-unknown",
		    E(CTRL, "bus \"i3c\" is not one of \"i2c\", \"spi\"")),
		BAD(test_bus_missing_is_reported, "bad-bus-missing",
		    E(CTRL, "bus is missing (\"i2c\" or \"spi\")")),
		BAD(test_unknown_family_lists_known_ones, "bad-family-unknown",
		    E(CTRL, "family \"acme\" is not supported (known: @KNOWN@)")),
		BAD(test_family_missing_is_reported, "bad-family-missing",
		    E(CTRL, "family is missing (known: @KNOWN@)")),
		BAD(test_string_list_where_one_string_belongs_is_rejected, "bad-family-list",
		    E(CTRL, "family must be a single string, not a list")),
		BAD(test_number_where_string_belongs_is_rejected, "bad-family-number",
		    E(CTRL, "family must be a string, like family = "
			    "\"...\";")),
		BAD(test_empty_string_is_rejected, "bad-family-empty",
		    E(CTRL, "family is empty")),
		BAD(test_controller_compatible_points_to_family_and_driver,
		    "bad-controller-compatible",
		    E(CTRL, "unknown property \"compatible\" (name the "
			    "controller family with family and the kernel "
			    "driver with driver)")),
		BAD(test_driver_with_dashes_suggests_underscores, "bad-driver-dashes",
		    E(CTRL, "driver \"atmel-mxt-ts\" is not a mxt driver (did you "
			    "mean \"atmel_mxt_ts\"? kernel driver names use "
			    "underscores)")),
		BAD(test_driver_of_another_family_is_rejected, "bad-driver-other-family",
		    E(CTRL, "driver \"goodix_ts\" is not a mxt driver (known: "
			    "atmel_mxt_ts, mchp_spi_ts)")),
		BAD(test_driver_name_with_space_is_rejected, "bad-driver-name",
		    E(CTRL, "driver \"atmel mxt\" is not a kernel driver name "
			    "(letters, digits, _ and - only)")),
		BAD(test_pin_that_is_not_a_db_id_is_rejected, "bad-pin-not-an-id",
		    E(CTRL, "firmware-pin \"fw 1\" is not a firmware DB id "
			    "(letters, digits and ._+:- only)")),
		BAD(test_config_name_that_is_a_path_is_rejected, "bad-config-name-path",
		    E(CTRL, "config-name \"../etc/panel.bin\" is not a plain file "
			    "name (letters, digits and ._- only)")),
		BAD(test_swapped_x_y_with_a_value_is_rejected, "bad-swapped-with-value",
		    E(CTRL, "touchscreen-swapped-x-y is a flag and takes no value "
			    "(write \"touchscreen-swapped-x-y;\")")),
		BAD(test_goodix_config_name_property_points_to_config_name,
		    "bad-goodix-config-name-property",
		    E(CTRL, "unknown property \"goodix,config-name\" (a kernel "
			    "binding's name; the profile calls it config-name)")),
		BAD(test_child_node_in_controller_is_rejected, "bad-controller-child-node",
		    E(CTRL "/gpio", "unknown node (a controller has no child "
				    "nodes)")),

		/* Controller: power and timeouts. */
		BAD(test_power_missing_is_reported, "bad-power-missing",
		    E(CTRL, "power is missing: say \"driver\" (the kernel "
			    "driver switches the chip's power; never unbind to "
			    "flash) or \"always-on\"")),
		BAD(test_unknown_power_is_rejected, "bad-power-unknown",
		    E(CTRL, "power \"on\" is not one of \"driver\", "
			    "\"always-on\"")),
		BAD(test_zero_timeout_is_rejected, "bad-timeout-zero",
		    E(CTRL, "input-timeout-ms 0 is out of range (100..600000)")),
		BAD(test_timeout_beyond_bound_is_rejected, "bad-timeout-too-long",
		    E(CTRL, "flash-timeout-ms 7200000 is out of range "
			    "(1000..3600000)")),
		BAD(test_misspelt_timeout_suggests_the_right_name, "bad-timeout-typo",
		    E(CTRL, "unknown property \"input-timeout\" (did you mean "
			    "\"input-timeout-ms\"?)")),

		/* Controller: GPIO lines. */
		BAD(test_gpio_chip_without_line_is_rejected, "bad-gpio-chip-without-line",
		    E(CTRL, "reset-gpio-chip needs reset-gpio-line")),
		BAD(test_gpio_line_without_chip_is_rejected, "bad-gpio-line-without-chip",
		    E(CTRL, "chg-gpio-line needs chg-gpio-chip")),
		BAD(test_irq_line_without_chip_is_rejected, "bad-gpio-irq-line-without-chip",
		    E(CTRL, "irq-gpio-line needs irq-gpio-chip")),
		BAD(test_irq_line_under_both_names_is_rejected, "bad-gpio-irq-and-chg",
		    E(CTRL, "irq-gpio-line and chg-gpio-line name the same property; "
			    "give one")),
		BAD(test_gpio_by_chip_and_name_is_rejected, "bad-gpio-chip-and-name",
		    E(CTRL, "give reset-gpio-chip + reset-gpio-line or "
			    "reset-gpio-name, not both")),
		BAD(test_active_low_without_line_is_rejected, "bad-gpio-active-low-alone",
		    E(CTRL, "reset-active-low without a reset line")),
		BAD(test_active_low_with_value_is_rejected, "bad-gpio-active-low-value",
		    E(CTRL, "chg-active-low is a flag and takes no value "
			    "(write \"chg-active-low;\")")),
		BAD(test_gpio_line_beyond_ngpio_is_rejected, "bad-gpio-line-out-of-range",
		    E(CTRL, "reset-gpio-line 70000 is out of range "
			    "(0..65534)")),
		BAD(test_gpio_name_longer_than_kernel_limit_is_rejected,
		    "bad-gpio-name-too-long",
		    E(CTRL, "reset-gpio-name is longer than 31 characters")),
		BAD(test_reset_and_chg_on_one_line_are_rejected, "bad-gpio-same-line",
		    E(CTRL, "reset and chg name the same GPIO line")),
		BAD(test_kernel_style_gpios_property_is_explained, "bad-gpio-phandle-style",
		    E(CTRL, "unknown property \"reset-gpios\" (name the line "
			    "with reset-gpio-chip + reset-gpio-line, or "
			    "reset-gpio-name; a profile has no GPIO "
			    "phandles)")),

		/* dmi-match. */
		BAD(test_dmi_sysfs_file_name_suggests_property_name, "bad-dmi-key-typo",
		    E("/dmi-match", "unknown property \"product_version\" (did "
				    "you mean \"product-version\"?)")),
		BAD(test_dmi_serial_number_is_refused_with_reason, "bad-dmi-serial",
		    E("/dmi-match", "product-serial identifies one unit, not a "
				    "board model; it can not be matched")),
		BAD(test_dmi_match_without_keys_is_rejected, "bad-dmi-empty",
		    E("/dmi-match", "dmi-match has no keys; add sys-vendor, "
				    "product-name, board-name, ...")),
		BAD(test_dmi_value_with_trailing_space_is_rejected, "bad-dmi-trailing-space",
		    E("/dmi-match", "product-name \"Laptop 14 \" ends in "
				    "whitespace; DMI values are compared with "
				    "trailing whitespace removed, so it would "
				    "never match")),
		BAD(test_child_node_in_dmi_match_is_rejected, "bad-dmi-child-node",
		    E("/dmi-match/bios", "unknown node (dmi-match has no child "
					 "nodes)")),

		cmocka_unit_test(test_report_collects_every_mistake),
		cmocka_unit_test(test_report_keeps_at_most_max_issues),
		cmocka_unit_test(test_parse_without_report_still_fails),

		cmocka_unit_test(test_empty_buffer_is_rejected),
		cmocka_unit_test(test_buffer_shorter_than_header_is_rejected),
		cmocka_unit_test(test_source_text_is_rejected_as_not_compiled),
		cmocka_unit_test(test_truncated_dtb_is_rejected_at_every_length),
		cmocka_unit_test(test_header_claiming_more_than_the_file_is_rejected),
		cmocka_unit_test(test_trailing_data_is_rejected),
		cmocka_unit_test(test_corrupt_structure_block_is_rejected),
		cmocka_unit_test(test_oversized_buffer_is_rejected),
		cmocka_unit_test(test_pre_v16_blob_is_rejected_before_libfdt_sees_it),
		cmocka_unit_test(test_property_length_pointing_backwards_is_rejected),
		cmocka_unit_test(test_blob_version_16_is_rejected),
		cmocka_unit_test(test_byte_corruption_never_crashes),
		cmocka_unit_test(test_unaligned_buffer_parses),

		cmocka_unit_test(test_identify_reads_root_compatible_from_boot_fdt),
		cmocka_unit_test(test_identify_prefers_boot_fdt_over_proc_device_tree),
		cmocka_unit_test(test_identify_falls_back_to_proc_device_tree),
		cmocka_unit_test(test_identify_falls_back_when_boot_fdt_is_corrupt),
		cmocka_unit_test(test_identify_reads_dmi_and_strips_trailing_whitespace),
		cmocka_unit_test(test_identify_empty_sysroot_gives_empty_identity),
		cmocka_unit_test(test_identify_ignores_pre_v16_boot_fdt),

		cmocka_unit_test(test_load_reads_every_profile_in_file_name_order),
		cmocka_unit_test(test_load_etc_overrides_same_file_name_in_usr_share),
		cmocka_unit_test(test_load_empty_file_masks_lower_profile),
		cmocka_unit_test(test_load_dev_null_symlink_masks_lower_profile),
		cmocka_unit_test(test_load_invalid_profile_is_reported_and_others_kept),
		cmocka_unit_test(test_load_invalid_override_still_shadows_lower_profile),
		cmocka_unit_test(test_load_missing_directory_is_skipped),
		cmocka_unit_test(test_load_directory_that_can_not_be_read_is_an_error),
		cmocka_unit_test(test_load_ignores_files_not_named_dtb),

		cmocka_unit_test(test_match_first_root_compatible_wins),
		cmocka_unit_test(test_match_tie_goes_to_earlier_directory),
		cmocka_unit_test(test_match_conflict_between_equal_profiles),
		cmocka_unit_test(test_match_dmi_needs_every_key),
		cmocka_unit_test(test_match_dmi_absent_key_never_matches),
		cmocka_unit_test(test_match_dmi_glob_and_alternatives),
		cmocka_unit_test(test_match_dmi_literal_brackets_match_exactly),
		cmocka_unit_test(test_match_dmi_with_more_keys_wins),
		cmocka_unit_test(test_match_compatible_beats_dmi),
		cmocka_unit_test(test_match_nothing_returns_null),

		cmocka_unit_test(test_find_controller_by_adapter_name),
		cmocka_unit_test(test_find_controller_by_adapter_path_with_sysfs_prefix),
		cmocka_unit_test(test_find_controller_by_path_ignores_adapter_name),
		cmocka_unit_test(test_find_controller_needs_same_bus_and_reg),
		cmocka_unit_test(test_lookup_controller_without_address),

		cmocka_unit_test(test_cmd_check_prints_every_mistake_with_file_and_node),
		cmocka_unit_test(test_cmd_check_applies_the_families_rules),
		cmocka_unit_test(test_cmd_check_valid_profiles_exit_ok),
		cmocka_unit_test(test_cmd_check_passes_on_dtc_errors),
		cmocka_unit_test(test_cmd_check_corrupt_dtb_exits_profile_invalid),
		cmocka_unit_test(test_cmd_check_missing_file_exits_bad_input),
		cmocka_unit_test(test_cmd_without_subcommand_is_a_usage_error),
		cmocka_unit_test(test_cmd_identify_shows_matching_profile),
		cmocka_unit_test(test_cmd_identify_without_match_exits_no_profile),
	};

	return cmocka_run_group_tests_name("board", tests, group_setup, group_teardown);
}
