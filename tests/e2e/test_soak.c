// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Soak (issue 15 item 19): many binds of the emulated board, each followed
 * by the run udev would start, with a fault drawn at random from the chip
 * model's knobs (frame CRC failures, power loss mid-flash, a bootloader
 * that never starts the image, a slow chip), the driver unbound mid-flash
 * or touchfw stopped with SIGTERM mid-flash.  After each: the chip is in
 * its application or its bootloader (recoverable: a clean run brings it
 * back, and is made to), no blob failure is recorded for an interruption,
 * the attempt count stays within max_attempts, nothing is left staged,
 * the firmware loader path is the one before, and every file in the state
 * and persistent directories parses with touchfw's own parsers.  Two
 * phases: the driver owns the chip's power (update_fw, bootloader flash
 * with the driver bound), then always-on (unbind, flash over the bus).
 *
 * SOAK_SEED (default 15; `make soak`: the clock) and SOAK_ITER (default 5 binds per
 * phase, what `make check` runs; `make soak` runs more) choose the run; the
 * seed is printed first, so a failure can be replayed.  Prints its counts.
 */
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "emub-mxt.h"
#include "e2e.h"
#include "exitcode.h"
#include "plan.h"
#include "state.h"

static struct e2e E;

enum kind {
	K_NONE,
	K_CRC_ONCE,   /* one frame refused 1-3 times: resent, passes */
	K_CRC_ALWAYS, /* every frame refused: the chip rejects the blob */
	K_POWER_LOSS, /* supply drops after frame k */
	K_STUCK,      /* the bootloader never starts the image */
	K_SLOW,	      /* every busy time x2..x4 */
	K_SIGTERM,    /* touchfw stopped after frame k */
	K_UNBIND,     /* the driver unbound after frame k */
	K_COUNT
};

static const char *const kind_name[K_COUNT] = {
	"none", "crc-once", "crc-always", "power-loss", "stuck", "slow", "sigterm", "unbind",
};

/* Weights: mostly the interruptions and faults a field sees. */
static const unsigned kind_weight[K_COUNT] = { 2, 2, 1, 2, 1, 1, 3, 3 };

struct counts {
	unsigned binds, runs, flashes_ok, interrupted, rejected, limit_hits, recoveries,
		downgrades, late; /* SIGTERM/unbind that came after the run ended */
	unsigned kind[K_COUNT];
	unsigned exit_code[TF_EXIT_MAX_];
};

static uint64_t rng;

static uint64_t rnd(void)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ull;
}

static unsigned rnd_below(unsigned n)
{
	return (unsigned)(rnd() % n);
}

static enum kind draw_kind(void)
{
	unsigned total = 0, r, k;
	const char *only = getenv("SOAK_KIND"); /* replay one kind: its name */

	for (k = 0; only && k < K_COUNT; k++)
		if (!strcmp(only, kind_name[k])) {
			(void)rnd();
			return (enum kind)k;
		}
	for (k = 0; k < K_COUNT; k++)
		total += kind_weight[k];
	r = rnd_below(total);
	for (k = 0; k < K_COUNT; k++) {
		if (r < kind_weight[k])
			return (enum kind)k;
		r -= kind_weight[k];
	}
	return K_NONE;
}

static unsigned env_unsigned(const char *name, unsigned dflt)
{
	const char *v = getenv(name);

	return v && *v ? (unsigned)strtoul(v, NULL, 0) : dflt;
}

static int teardown(void **state)
{
	(void)state;
	e2e_stop(&E);
	return 0;
}

static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t len;

	if (tf_read_file(path, 1 << 20, &buf, &len) != 0)
		return NULL;
	return buf;
}

static void loader_path(char *buf, size_t size)
{
	char path[600], *t;

	snprintf(path, sizeof(path), "%s/sys/module/firmware_class/parameters/path",
		 emub_root(E.eb));
	t = slurp(path);
	snprintf(buf, size, "%s", t ? t : "");
	free(t);
	buf[strcspn(buf, "\n")] = '\0';
}

/* A minimal JSON value check: what touchfw writes must be one object. */
static const char *json_value(const char *p);

static const char *json_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *json_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p && *p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\' && !*++p)
			return NULL;
		p++;
	}
	return *p == '"' ? p + 1 : NULL;
}

static const char *json_value(const char *p)
{
	p = json_ws(p);
	if (*p == '"')
		return json_string(p);
	if (*p == '{' || *p == '[') {
		char close = *p == '{' ? '}' : ']';
		bool obj = *p == '{';

		p = json_ws(p + 1);
		if (*p == close)
			return p + 1;
		for (;;) {
			if (obj) {
				p = json_string(json_ws(p));
				if (!p || *(p = json_ws(p)) != ':')
					return NULL;
				p++;
			}
			p = json_value(p);
			if (!p)
				return NULL;
			p = json_ws(p);
			if (*p == close)
				return p + 1;
			if (*p++ != ',')
				return NULL;
		}
	}
	if (!strncmp(p, "null", 4) || !strncmp(p, "true", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	if (*p == '-' || (*p >= '0' && *p <= '9')) {
		p++;
		while ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E' ||
		       *p == '+' || *p == '-')
			p++;
		return p;
	}
	return NULL;
}

/* Every file of the state directory (@dir) parses; nothing half-written. */
static void check_state_dir(const char *dir, unsigned max_attempts, unsigned *attempts)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	char path[800];

	*attempts = 0;
	if (!d)
		return;
	while ((e = readdir(d))) {
		const char *n = e->d_name, *dot = strrchr(n, '.');
		struct tf_err err = { 0 };
		char *text;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, n);
		if (!strcmp(n, "firmware")) {
			DIR *f = opendir(path);
			struct dirent *fe;

			assert_non_null(f);
			while ((fe = readdir(f)))
				if (fe->d_name[0] != '.')
					fail_msg("left staged: %s/%s", path, fe->d_name);
			closedir(f);
			continue;
		}
		if (n[0] == '.')
			fail_msg("a temporary file was left: %s", path);
		assert_non_null(dot);
		text = slurp(path);
		assert_non_null(text);
		if (!strcmp(dot, ".attempts")) {
			struct tf_attempts a;

			if (tf_attempts_parse(text, &a, &err) < 0)
				fail_msg("%s: %s", path, err.msg);
			if (a.count > max_attempts)
				fail_msg("%s: count %u over max_attempts %u", path, a.count,
					 max_attempts);
			*attempts = a.count;
		} else if (!strcmp(dot, ".json")) {
			const char *end = json_value(text);

			if (!end || *json_ws(end) || json_ws(text)[0] != '{')
				fail_msg("%s is not one JSON object:\n%s", path, text);
		} else if (!strcmp(dot, ".uptodate")) {
			if (strncmp(text, "db=", 3) || !strstr(text, "\ninput=") ||
			    !strstr(text, "\nversions="))
				fail_msg("%s: not an up-to-date record:\n%s", path, text);
		} else if (!strcmp(dot, ".ownbind") || !strcmp(dot, ".waitbind")) {
			uint64_t t;

			if (!tf_marker_parse(text, &t))
				fail_msg("%s: not a marker: '%s'", path, text);
		} else if (!strcmp(dot, ".metrics")) {
			/* the last run's record for status --prometheus
			 * (agent/metrics.c) */
			if (!strstr(text, "family=") || !strstr(text, "\nexit_code=") ||
			    !strstr(text, "\ntime="))
				fail_msg("%s: not a metrics record:\n%s", path, text);
		} else if (strcmp(dot, ".lock") && strcmp(dot, ".log")) {
			fail_msg("unexpected file in the state directory: %s", path);
		}
		free(text);
	}
	closedir(d);
}

/* The results history (persist_dir/history/DEV.jsonl): each line one JSON
 * object, at most 20 of them (agent/state.c's bound). */
static void check_history_dir(const char *dir)
{
	char path[1600];
	struct dirent *e;
	DIR *d = opendir(dir);

	assert_non_null(d);
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		unsigned lines = 0;
		char *text, *line, *next;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (n < 7 || strcmp(e->d_name + n - 6, ".jsonl"))
			fail_msg("unexpected file in the history directory: %s", path);
		text = slurp(path);
		assert_non_null(text);
		for (line = text; *line; line = next) {
			const char *end;

			next = strchr(line, '\n');
			if (!next)
				fail_msg("%s: last line not ended", path);
			*next++ = '\0';
			end = json_value(line);
			if (!end || *json_ws(end) || json_ws(line)[0] != '{')
				fail_msg("%s: line %u is not one JSON object: %s", path,
					 lines + 1, line);
			lines++;
		}
		if (lines > 20)
			fail_msg("%s: %u results, over the bound of 20", path, lines);
		free(text);
	}
	closedir(d);
}

/* Every file of the persistent directory parses; returns the failures
 * recorded against the blob with hash @hex. */
static unsigned check_persist_dir(const char *dir, const char *hex)
{
	char path[1200], sub[700], why[300];
	unsigned total = 0, n;
	struct dirent *e;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		struct tf_hw_hint hint;
		char *text;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "failed"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!strcmp(e->d_name, "history")) {
			check_history_dir(path);
			continue;
		}
		text = slurp(path);
		assert_non_null(text);
		if (strcmp(strrchr(e->d_name, '.') ? strrchr(e->d_name, '.') : "", ".hw") ||
		    tf_hw_hint_parse(text, &hint) < 0)
			fail_msg("unexpected or malformed file in the persistent directory: %s "
				 "('%s')",
				 path, text);
		free(text);
	}
	closedir(d);
	snprintf(sub, sizeof(sub), "%s/failed", dir);
	d = opendir(sub);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		struct tf_err err = { 0 };
		char *text;

		if (e->d_name[0] == '.') {
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				fail_msg("a temporary file was left: %s/%s", sub, e->d_name);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", sub, e->d_name);
		text = slurp(path);
		assert_non_null(text);
		if (tf_failure_record_parse(text, &n, why, sizeof(why), &err) < 0)
			fail_msg("%s: %s", path, err.msg);
		if (strstr(e->d_name, hex))
			total += n;
		free(text);
	}
	closedir(d);
	return total;
}

static void set_faults(enum kind k)
{
	struct mxt_model_faults f = { 0 };

	switch (k) {
	case K_CRC_ONCE:
		f.crc_fail_frame = 1 + rnd_below(150);
		f.crc_fail_times = 1 + rnd_below(3);
		break;
	case K_CRC_ALWAYS:
		f.crc_fail_always = true;
		break;
	case K_POWER_LOSS:
		f.power_loss_after = 1 + rnd_below(180);
		break;
	case K_STUCK:
		f.stuck_in_bootloader = true;
		break;
	case K_SLOW:
		f.slow_factor = 2 + rnd_below(3);
		break;
	default:
		break;
	}
	assert_int_equal(emub_set_mxt_faults(E.eb, "touchscreen", &f), 0);
}

static void clear_faults(void)
{
	set_faults(K_NONE);
}

/* The driver bound (power back for a driver-powered chip), settled. */
static void bound(struct counts *c)
{
	if (!emub_dev_bound(E.eb, "touchscreen")) {
		assert_int_equal(emub_bind(E.eb, "touchscreen"), 0);
		c->binds++;
	}
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 20000), 0);
}

/* Is @pid still running (not yet exited; a zombie has)? */
static bool running(int pid)
{
	char path[64], *text, *p;
	bool r;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	text = slurp(path);
	if (!text)
		return false;
	p = strrchr(text, ')');
	r = p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
	free(text);
	return r;
}

/* Run touchfw to the end; SIGTERM it or unbind the driver once the chip
 * took @after more frames (0: leave it be). */
static int run_with(struct counts *c, enum kind k, unsigned after, char **err_out)
{
	unsigned before = e2e_chip(&E).stats.frames_passed;
	struct emub_child *child = e2e_spawn(&E, "run", "1-004a", NULL);
	bool acted = false;
	int st = 0;

	c->runs++;
	if (k == K_SIGTERM || k == K_UNBIND) {
		for (;;) {
			if (!running(emub_child_pid(child)))
				break; /* over before the frame came */
			if (e2e_chip(&E).stats.frames_passed >= before + after) {
				if (k == K_SIGTERM)
					acted = kill(emub_child_pid(child), SIGTERM) == 0;
				else /* (touchfw may have unbound it itself) */
					acted = emub_unbind(E.eb, "touchscreen") == 0;
				break;
			}
			usleep(1000);
		}
		if (!acted)
			c->late++;
	}
	assert_int_equal(emub_child_wait(child, E2E_TIMEOUT_MS, &st), 0);
	*err_out = strdup(emub_child_stderr(child) ? emub_child_stderr(child) : "");
	emub_child_free(child);
	if (!WIFEXITED(st))
		fail_msg("touchfw ended by signal %d (kind %s):\n%s", WTERMSIG(st),
			 kind_name[k], *err_out);
	return WEXITSTATUS(st);
}

static void phase(const char *compat, const char *power, unsigned iters, struct counts *c,
		  const char *fw_hex)
{
	char *b = e2e_board(compat, "mxt224e", "app", "1.0.AA", power, NULL), *p;
	char old_fw[400], cmd[900], loader_before[300], loader_now[300], state_dir[400],
		persist_dir[400];
	unsigned i, attempts, fails_before, fails_after;
	uint64_t t0;

	assert_non_null(b);
	/* No 255-byte transfer limit: atmel's update_fw sends a frame (263
	 * bytes here) as one message, and the driver path is to be soaked. */
	p = strstr(b, "max_transfer = 255\n");
	assert_non_null(p);
	memmove(p, p + 19, strlen(p + 19) + 1);
	e2e_start(&E, b);
	free(b);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 20000), 0);
	snprintf(state_dir, sizeof(state_dir), "%s/state", E.dir);
	snprintf(persist_dir, sizeof(persist_dir), "%s/persist", E.dir);
	/* An older image to go back to, so that every bind finds work. */
	snprintf(old_fw, sizeof(old_fw), "%s/old.fw", E.dir);
	snprintf(cmd, sizeof(cmd),
		 "'%s/fwgen' image --chip mxt224e --version 1.0.AA "
		 "--size 49152 --frame 256 -o '%s'",
		 E.build, old_fw);
	assert_int_equal(system(cmd), 0);
	loader_path(loader_before, sizeof(loader_before));

	for (i = 0; i < iters; i++) {
		enum kind k = draw_kind();
		unsigned after = 1 + rnd_below(190);
		struct e2e_chip chip;
		char *msg = NULL;
		int rc;

		/* The bind udev would act on. */
		if (emub_dev_bound(E.eb, "touchscreen"))
			assert_int_equal(emub_unbind(E.eb, "touchscreen"), 0);
		bound(c);
		chip = e2e_chip(&E);
		if (chip.mode == MXT_MODE_APP && chip.version == 0x21) {
			clear_faults();
			if (e2e_touchfw(&E, "flash", "--firmware", old_fw, "1-004a") != 0)
				fail_msg("downgrade failed:\n%s", E.err);
			c->downgrades++;
			bound(c);
		}
		fails_before = check_persist_dir(persist_dir, fw_hex);
		c->kind[k]++;
		set_faults(k);
		t0 = tf_now_ms();
		rc = run_with(c, k, after, &msg);
		if (rc < 0 || rc >= TF_EXIT_MAX_)
			fail_msg("exit %d", rc);
		c->exit_code[rc]++;
		clear_faults();
		bound(c);

		/* The invariants. */
		chip = e2e_chip(&E);
		if (getenv("SOAK_VERBOSE"))
			fprintf(stderr,
				"soak: %s %u: %s (after %u frames): exit %d in %llu ms, "
				"mode %d, version 0x%02x\n",
				power, i, kind_name[k], after, rc,
				(unsigned long long)(tf_now_ms() - t0), chip.mode,
				chip.version);
		if (getenv("SOAK_VERBOSE") && atoi(getenv("SOAK_VERBOSE")) > 1)
			fprintf(stderr, "%s", msg);
		if (chip.mode != MXT_MODE_APP && chip.mode != MXT_MODE_BOOTLOADER)
			fail_msg("iteration %u (%s): chip neither in its application nor its "
				 "bootloader (mode %d) after exit %d:\n%s",
				 i, kind_name[k], chip.mode, rc, msg);
		loader_path(loader_now, sizeof(loader_now));
		if (strcmp(loader_before, loader_now))
			fail_msg("iteration %u (%s): firmware_class.path '%s', was '%s'", i,
				 kind_name[k], loader_now, loader_before);
		check_state_dir(state_dir, 3, &attempts);
		fails_after = check_persist_dir(persist_dir, fw_hex);
		if (fails_after > fails_before && !(k == K_CRC_ALWAYS || k == K_STUCK))
			fail_msg("iteration %u (%s): a blob failure was recorded for an "
				 "interruption (exit %d):\n%s",
				 i, kind_name[k], rc, msg);
		if (fails_after > fails_before + 1)
			fail_msg("iteration %u: %u blob failures recorded by one run", i,
				 fails_after - fails_before);
		if (rc == TF_EXIT_OK && chip.mode == MXT_MODE_APP && chip.version == 0x21)
			c->flashes_ok++;
		else if (rc == TF_EXIT_INTERRUPTED || k == K_SIGTERM || k == K_UNBIND ||
			 k == K_POWER_LOSS)
			c->interrupted++;
		else if (fails_after > fails_before)
			c->rejected++;
		if (rc == TF_EXIT_BACKOFF)
			c->limit_hits++;
		free(msg);

		/* Recoverable: a clean run brings the chip back (past the
		 * attempt limit and a blob given up on, with --force, as the
		 * messages say). */
		if (chip.mode != MXT_MODE_APP || chip.version != 0x21) {
			rc = e2e_touchfw(&E, "run", "1-004a");
			c->runs++;
			if (rc == TF_EXIT_BACKOFF || rc == TF_EXIT_NO_FIRMWARE) {
				c->limit_hits += rc == TF_EXIT_BACKOFF;
				rc = e2e_touchfw(&E, "run", "--force", "1-004a");
				c->runs++;
			}
			bound(c);
			chip = e2e_chip(&E);
			if (rc != 0 || chip.mode != MXT_MODE_APP || chip.version != 0x21)
				fail_msg("iteration %u (%s): the chip was not recovered (exit "
					 "%d, mode %d, version 0x%02x):\n%s",
					 i, kind_name[k], rc, chip.mode, chip.version, E.err);
			c->recoveries++;
			check_state_dir(state_dir, 3, &attempts);
			assert_int_equal(attempts, 0);
			(void)check_persist_dir(persist_dir, fw_hex);
		}
	}
	e2e_stop(&E);
}

static void test_soak(void **state)
{
	unsigned iters = env_unsigned("SOAK_ITER", 5), seed, k;
	struct counts c = { 0 };
	char hex[65] = "";

	(void)state;
	seed = env_unsigned("SOAK_SEED", 15);
	rng = 0x9e3779b97f4a7c15ull ^ seed;
	if (!rng)
		rng = 1;
	fprintf(stderr, "soak: SOAK_SEED=%u SOAK_ITER=%u (binds per phase)\n", seed, iters);
	{
		/* The DB's firmware, whose failure records are watched. */
		char path[400], *text;
		const char *p;

		snprintf(path, sizeof(path), "%s/firmware-db/manifest.ini",
			 getenv("TOUCHFW_BUILD") ? getenv("TOUCHFW_BUILD") : "build");
		text = slurp(path);
		assert_non_null(text);
		p = strstr(text, "[mxt224e-fw-2.1.AB]");
		assert_non_null(p);
		p = strstr(p, "sha256 = ");
		assert_non_null(p);
		memcpy(hex, p + 9, 64);
		free(text);
	}
	phase("touchfw,emul-demo", "driver", iters, &c, hex);
	phase("touchfw,emul-always-on", "always-on", iters, &c, hex);
	fprintf(stderr,
		"soak: seed %u: %u binds, %u runs; %u flashes ok, %u interrupted, %u rejected "
		"by the chip, %u recoveries, %u attempt-limit refusals, %u downgrades, %u "
		"signals/unbinds after the run ended\nsoak: faults:",
		seed, c.binds, c.runs, c.flashes_ok, c.interrupted, c.rejected, c.recoveries,
		c.limit_hits, c.downgrades, c.late);
	for (k = 0; k < K_COUNT; k++)
		fprintf(stderr, " %s %u", kind_name[k], c.kind[k]);
	fprintf(stderr, "\nsoak: exit codes:");
	for (k = 0; k < TF_EXIT_MAX_; k++)
		if (c.exit_code[k])
			fprintf(stderr, " %s %u", tf_exit_name((int)k), c.exit_code[k]);
	fprintf(stderr, "\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_soak, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
