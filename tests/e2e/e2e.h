/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared fixture of the end-to-end tests: an emulated board (emuboard) and
 * a private touchfw installation around it -- settings, state directories,
 * the built firmware database and board profiles -- so that each test runs
 * the real touchfw binaries inside the board and then inspects the chip
 * model, the emulated kernel and touchfw's state.  Header-only: each test
 * program includes it once.
 */
#ifndef TF_E2E_H
#define TF_E2E_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "emub-mxt.h"
#include "emuboard.h"
#include "util.h"
#include "mxt_model.h"

#define E2E_TIMEOUT_MS 60000

struct e2e {
	struct emub *eb;
	char dir[256]; /* private root: conf, state, persist, db copy */
	char conf[300];
	char build[256];
	char db[300]; /* firmware DB in use */
	char boards[300];
	char *out, *err; /* output of the last touchfw run */
	int rc;
	void *keep[16]; /* freed by e2e_stop (e2e_keep) */
	unsigned nkeep;
	FILE *board_log; /* the board's log (e2e_log_on), closed by e2e_stop */
};

/*
 * Free @p when the test ends (e2e_stop, from its teardown), failed or
 * not: a failing assertion leaves the test by longjmp, and what it held
 * then would be reported by LeakSanitizer on top of the failure.
 * Returns @p.
 */
static inline void *e2e_keep(struct e2e *e, void *p)
{
	if (e->nkeep >= sizeof(e->keep) / sizeof(e->keep[0]))
		fail_msg("e2e_keep: more than %zu buffers",
			 sizeof(e->keep) / sizeof(e->keep[0]));
	e->keep[e->nkeep++] = p;
	return p;
}

static inline long long e2e_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* @pid has not ended (it may be a zombie not yet reaped: that has). */
static inline bool e2e_running(int pid)
{
	siginfo_t si = { 0 };

	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
	       si.si_pid == 0;
}

/*
 * Wait until @cond holds: for a state of the chip model or of touchfw's
 * files that nothing signals, looked at every millisecond, for at most
 * @timeout_ms (generous: a bound, not a timing), then fail naming @what.
 * With @pid > 0, also fail as soon as that process ended first (the
 * state it was to bring about will not come).
 */
#define e2e_wait_until(cond, pid, timeout_ms, what)                                          \
	do {                                                                                 \
		long long end_ = e2e_now_ms() + (timeout_ms);                                \
		while (!(cond)) {                                                            \
			if ((pid) > 0 && !e2e_running(pid))                                  \
				fail_msg("waiting for %s: the program ended first", (what)); \
			if (e2e_now_ms() > end_)                                             \
				fail_msg("waiting for %s: not within %d ms", (what),         \
					 (int)(timeout_ms));                                 \
			usleep(1000);                                                        \
		}                                                                            \
	} while (0)

/* Board text: an mxt224e (or @model) at 0x4a on adapter 1. */
static inline char *e2e_board(const char *compatible, const char *model, const char *state,
			      const char *fw, const char *power, const char *extra)
{
	char *s = NULL;

	if (asprintf(&s,
		     "[board]\n"
		     "name = touchfw e2e board\n"
		     "compatible = %s\n"
		     "pacing = fast\n"
		     "[adapter 1]\n"
		     "name = touchfw emulated adapter 1\n"
		     "speed = 400000\n"
		     "max_transfer = 255\n"
		     "[chip touchscreen]\n"
		     "adapter = 1\n"
		     "address = 0x4a\n"
		     "model = %s\n"
		     "compatible = atmel,maxtouch\n"
		     "driver = atmel_mxt_ts\n"
		     "bound = true\n"
		     "state = %s\n"
		     "fw_version = %s\n"
		     "power = %s\n"
		     "reset_gpio = 0\n"
		     "chg_gpio = 1\n"
		     "%s"
		     "[gpiochip]\n"
		     "label = emuboard-gpio\n"
		     "lines = 8\n"
		     "line.0 = TS_RESET\n"
		     "line.1 = TS_CHG\n",
		     compatible, model, state, fw, power, extra ? extra : "") < 0)
		return NULL;
	return s;
}

static inline void e2e_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* Settings with everything pointing into @e->dir; @extra is appended to
 * the [touchfw] section. */
static inline void e2e_settings(struct e2e *e, const char *extra)
{
	char *text = NULL, path[400];

	assert_true(asprintf(&text,
			     "[touchfw]\n"
			     "handoff = fork\n"
			     "backoff_s = 0\n"
			     "input_timeout_ms = 5000\n"
			     "%s\n"
			     "[paths]\n"
			     "state_dir = %s/state\n"
			     "persist_dir = %s/persist\n"
			     "db_dir = %s\n"
			     "keys_dir = %s/keys\n"
			     "boards_dirs = %s\n"
			     "firmware_dirs = %s/firmware\n"
			     "cmdline = %s/cmdline\n",
			     extra ? extra : "", e->dir, e->dir, e->db, e->build, e->boards,
			     e->dir, e->dir) > 0);
	e2e_write(e->conf, text);
	free(text);
	snprintf(path, sizeof(path), "%s/cmdline", e->dir);
	if (access(path, F_OK) != 0)
		e2e_write(path, "ro quiet\n");
}

/*
 * The board and touchfw's private installation, not started yet (set
 * emuboard options on e->eb, then e2e_go()).  With @handle_event_args not
 * NULL, every uevent runs `touchfw handle-event ARGS` inside the board
 * (udev's RUN stand-in), its output appended to he.log in the private
 * directory.
 */
static inline void e2e_prepare(struct e2e *e, const char *board_text,
			       const char *handle_event_args)
{
	const char *b = getenv("TOUCHFW_BUILD");
	char err[512] = "", path[400], *abs;

	memset(e, 0, sizeof(*e));
	/* Absolute: commands run inside the board from other directories. */
	abs = realpath(b ? b : "build", NULL);
	if (!abs)
		fail_msg("build directory %s: %s (run through tests/run-tests)",
			 b ? b : "build", strerror(errno));
	snprintf(e->build, sizeof(e->build), "%s", abs);
	free(abs);
	snprintf(e->dir, sizeof(e->dir), "/tmp/touchfw-e2e-XXXXXX");
	assert_non_null(mkdtemp(e->dir));
	snprintf(e->conf, sizeof(e->conf), "%s/touchfw.conf", e->dir);
	snprintf(e->db, sizeof(e->db), "%s/firmware-db", e->build);
	snprintf(e->boards, sizeof(e->boards), "%s/boards/examples", e->build);
	snprintf(path, sizeof(path), "%s/firmware", e->dir);
	assert_int_equal(mkdir(path, 0700), 0);
	e2e_settings(e, NULL);
	if (emub_new_from_string(board_text, e->dir, &e->eb, err, sizeof(err)) < 0)
		fail_msg("board: %s", err);
	if (getenv("E2E_LOG"))
		emub_set_log(e->eb, stderr);
	if (handle_event_args) {
		char *cmd = NULL;

		/* --config, as handle-event ignores $TOUCHFW_CONFIG (a
		 * uevent could carry it). */
		assert_true(asprintf(&cmd,
				     "TOUCHFW_LOG_LEVEL=debug '%s/touchfw' --config '%s' "
				     "handle-event %s >>'%s/he.log' 2>&1",
				     e->build, e->conf, handle_event_args, e->dir) > 0);
		emub_set_on_uevent(e->eb, cmd);
		free(cmd);
	}
}

static inline void e2e_go(struct e2e *e)
{
	assert_int_equal(emub_start(e->eb), 0);
}

static inline void e2e_start_ex(struct e2e *e, const char *board_text,
				const char *handle_event_args)
{
	e2e_prepare(e, board_text, handle_event_args);
	e2e_go(e);
}

static inline void e2e_start(struct e2e *e, const char *board_text)
{
	e2e_start_ex(e, board_text, NULL);
}

static inline void e2e_stop(struct e2e *e)
{
	char cmd[400];

	if (e->eb)
		assert_int_equal(emub_oops_count(e->eb), 0);
	emub_free(e->eb);
	if (e->board_log)
		fclose(e->board_log);
	free(e->out);
	free(e->err);
	for (unsigned i = 0; i < e->nkeep; i++)
		free(e->keep[i]);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", e->dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", e->dir);
	memset(e, 0, sizeof(*e));
}

/* touchfw's command line and environment in the board: @ap the arguments
 * (up to NULL), @env extra variables; strings live in @cmd. */
struct e2e_cmd {
	char bin[300];
	const char *argv[34], *envv[16];
};

static inline void e2e_cmd_fill(struct e2e *e, struct e2e_cmd *c, const char *const *env,
				va_list ap)
{
	int i = 0, k = 0;

	snprintf(c->bin, sizeof(c->bin), "%s/touchfw", e->build);
	c->argv[i++] = c->bin;
	c->argv[i++] = "--config";
	c->argv[i++] = e->conf;
	while (i < 32) {
		const char *a = va_arg(ap, const char *);

		if (!a)
			break;
		c->argv[i++] = a;
	}
	c->argv[i] = NULL;
	c->envv[k++] = "TOUCHFW_LOG_LEVEL=debug";
	for (i = 0; env && env[i] && k < 14; i++)
		c->envv[k++] = env[i];
	c->envv[k] = NULL;
}

/* Run touchfw with @args (NULL-terminated) inside the board. */
static inline int e2e_touchfw_env(struct e2e *e, const char *const *env, ...)
{
	struct e2e_cmd c;
	va_list ap;

	va_start(ap, env);
	e2e_cmd_fill(e, &c, env, ap);
	va_end(ap);
	free(e->out);
	free(e->err);
	e->out = e->err = NULL;
	e->rc = emub_run(e->eb, c.argv, c.envv, E2E_TIMEOUT_MS, &e->out, &e->err);
	if (getenv("E2E_VERBOSE"))
		fprintf(stderr, "--- touchfw %s -> %d\n%s%s", c.argv[3], e->rc,
			e->out ? e->out : "", e->err ? e->err : "");
	return e->rc;
}

/* Start touchfw with @args (NULL-terminated) inside the board without
 * waiting (emub_child_wait() and emub_child_stderr() for its end). */
static inline struct emub_child *e2e_spawn(struct e2e *e, ...)
{
	struct emub_child *child = NULL;
	struct e2e_cmd c;
	va_list ap;

	va_start(ap, e);
	e2e_cmd_fill(e, &c, NULL, ap);
	va_end(ap);
	assert_int_equal(emub_spawn(e->eb, c.argv, c.envv, true, &child), 0);
	return child;
}

#define e2e_touchfw(e, ...) e2e_touchfw_env(e, NULL, __VA_ARGS__, NULL)

/* Fail with the last run's whole output on stderr first: cmocka cuts a
 * long message short. */
#define e2e_fail_with_output(e, ...)                                                   \
	do {                                                                           \
		fprintf(stderr, "--- touchfw's output (exit %d):\n%s%s---\n", (e)->rc, \
			(e)->out ? (e)->out : "", (e)->err ? (e)->err : "(none)\n");   \
		fail_msg(__VA_ARGS__);                                                 \
	} while (0)

/* touchfw with @args exits @want (else its output is shown). */
#define e2e_expect(e, want, ...)                                                          \
	do {                                                                              \
		int want_ = (want), rc_ = e2e_touchfw(e, __VA_ARGS__);                    \
		if (rc_ != want_)                                                         \
			e2e_fail_with_output(e, "touchfw exited %d, not %d", rc_, want_); \
	} while (0)

/* The last run's stderr contains @needle. */
static inline void e2e_said(struct e2e *e, const char *needle)
{
	if (!e->err || !strstr(e->err, needle))
		e2e_fail_with_output(e, "expected \"%s\" in touchfw's output (above)", needle);
}

/*
 * @dev's config CRC reads one way -- "0x" and @digits hex digits, its
 * family's width -- in `probe --json`, `probe`'s table and the run log
 * (`run --dry-run`).
 */
static inline void e2e_crc_one_way(struct e2e *e, const char *dev, int digits)
{
	static const char key[] = "\"config_crc\":\"";
	char crc[24], needle[64];
	const char *p, *q;

	e2e_expect(e, 0, "probe", "--json", dev);
	p = e->out ? strstr(e->out, key) : NULL;
	if (!p)
		e2e_fail_with_output(e, "no config_crc in probe --json");
	p += sizeof(key) - 1;
	q = strchr(p, '"');
	if (!q || q - p != 2 + digits || strncmp(p, "0x", 2))
		e2e_fail_with_output(e, "config_crc is not \"0x\" and %d hex digits", digits);
	snprintf(crc, sizeof(crc), "%.*s", (int)(q - p), p);
	e2e_expect(e, 0, "probe", dev);
	snprintf(needle, sizeof(needle), " %s ", crc);
	if (!strstr(e->out, needle))
		e2e_fail_with_output(e, "probe's table does not show the CRC as %s", crc);
	e2e_expect(e, 0, "run", "--dry-run", dev);
	snprintf(needle, sizeof(needle), "config CRC %s", crc);
	e2e_said(e, needle);
}

static inline void e2e_not_said(struct e2e *e, const char *needle)
{
	if (e->err && strstr(e->err, needle))
		e2e_fail_with_output(e, "did not expect \"%s\" in touchfw's output (above)",
				     needle);
}

/*
 * How often one line of @text names @dev: a command quoted for the reader
 * ('touchfw run DEV') and a sysfs path (/DEV) do not count.
 */
static inline unsigned e2e_names_in_line(const char *line, size_t len, const char *dev)
{
	size_t i, n = 0, dl = strlen(dev);
	bool quoted = false;

	for (i = 0; i < len; i++) {
		if (line[i] == '\'')
			quoted = !quoted;
		else if (!quoted && i + dl <= len && !strncmp(line + i, dev, dl) &&
			 (i == 0 || line[i - 1] != '/'))
			n++;
	}
	return (unsigned)n;
}

/* No line of @text names @dev more than once: the log call names the
 * device, messages do not repeat it (issue 14 item 3). */
static inline void e2e_names_device_once(const char *text, const char *dev)
{
	const char *line = text ? text : "";

	while (*line) {
		size_t len = strcspn(line, "\n");
		unsigned n = e2e_names_in_line(line, len, dev);

		if (n > 1)
			fail_msg("this line names %s %u times:\n%.*s", dev, n, (int)len, line);
		line += len + (line[len] ? 1 : 0);
	}
}

/* The line of @text holding @needle names @dev exactly once: an error
 * says which device it is about, and says it once. */
static inline void e2e_error_names_device(const char *text, const char *needle, const char *dev)
{
	const char *at = text ? strstr(text, needle) : NULL, *line;
	size_t len;
	unsigned n;

	if (!at)
		fail_msg("expected \"%s\" in touchfw's output:\n%s", needle,
			 text ? text : "(none)");
	line = at;
	while (line > text && line[-1] != '\n')
		line--;
	len = strcspn(line, "\n");
	n = e2e_names_in_line(line, len, dev);
	if (n != 1)
		fail_msg("this line names %s %u times, not once:\n%.*s", dev, n, (int)len,
			 line);
	e2e_names_device_once(text, dev);
}

/*
 * From the emulator's trace of every bus transfer (emub_set_trace, to the
 * log file @log_path): no user-space transfer to i2c address @addr on
 * adapter 1 wrote data.  A transfer with a write message followed by a
 * read (repeated start) writes a register pointer, which a device that
 * stores bytes (a 24Cxx) takes as the start of a random read, never as
 * data; a lone write message of more than @max_pointer bytes, or of any
 * length without a read after it, is a write.  Returns the transfers seen.
 */
static inline unsigned e2e_trace_no_write(struct e2e *e, const char *log_path, unsigned addr,
					  unsigned max_pointer)
{
	char *log = NULL, *line, tag[8];
	size_t len;
	unsigned seen = 0;

	assert_int_equal(tf_read_file(log_path, 64 << 20, &log, &len), 0);
	e2e_keep(e, log);
	snprintf(tag, sizeof(tag), "@%02x", addr);
	for (line = log; *line;) {
		size_t n = strcspn(line, "\n");
		char *u = memmem(line, n, "i2c-1 user:", 11);

		if (u && memmem(line, n, tag, strlen(tag))) {
			const char *w = u;

			seen++;
			if (!memmem(line, n, " r", 2))
				fail_msg("a write to 0x%02x: %.*s", addr, (int)n, line);
			while ((w = memmem(w, (size_t)(line + n - w), " w", 2))) {
				unsigned wl = (unsigned)strtoul(w + 2, NULL, 10);

				if (wl > max_pointer)
					fail_msg("a write to 0x%02x: %.*s", addr, (int)n, line);
				w += 2;
			}
		}
		line += n + (line[n] ? 1 : 0);
	}
	return seen;
}

/*
 * The board's log, line by line, in @e->dir/emuboard.log: its uevents and
 * driver messages, and with @trace every bus transfer too (for tests that
 * check what touchfw wrote: e2e_traced_no_write).  Between e2e_prepare
 * and e2e_go; e2e_stop closes it.
 */
static inline void e2e_log_on(struct e2e *e, bool trace)
{
	char path[400];

	snprintf(path, sizeof(path), "%s/emuboard.log", e->dir);
	e->board_log = fopen(path, "w");
	assert_non_null(e->board_log);
	setvbuf(e->board_log, NULL, _IOLBF, 0);
	emub_set_log(e->eb, e->board_log);
	emub_set_trace(e->eb, trace);
}

/* The board's log with every bus transfer (e2e_log_on). */
static inline void e2e_trace_on(struct e2e *e)
{
	e2e_log_on(e, true);
}

/* e2e_trace_no_write on the board's log so far (e2e_trace_on). */
static inline unsigned e2e_traced_no_write(struct e2e *e, unsigned addr, unsigned max_pointer)
{
	char path[400];

	assert_non_null(e->board_log);
	fflush(e->board_log);
	snprintf(path, sizeof(path), "%s/emuboard.log", e->dir);
	return e2e_trace_no_write(e, path, addr, max_pointer);
}

/* Chip state, under the emulator's lock. */
struct e2e_chip {
	enum mxt_mode mode;
	uint8_t version, build, bl_status;
	bool app_valid;
	uint32_t ram_crc, nvm_crc;
	struct mxt_model_stats stats;
};

static inline struct e2e_chip e2e_chip(struct e2e *e)
{
	struct e2e_chip c;
	struct mxt_model *m;

	emub_lock(e->eb);
	m = emub_chip_mxt(e->eb, "touchscreen");
	assert_non_null(m);
	c.mode = mxt_model_mode(m);
	c.version = mxt_model_fw_version(m);
	c.build = mxt_model_fw_build(m);
	c.bl_status = mxt_model_bl_status(m);
	c.app_valid = mxt_model_app_valid(m);
	c.ram_crc = mxt_model_config_crc(m);
	c.nvm_crc = mxt_model_nvm_config_crc(m);
	c.stats = *mxt_model_stats(m);
	emub_unlock(e->eb);
	return c;
}

/* How many input devices the emulated spi device @spidev (e.g. "spi1.0")
 * has registered through its driver. */
static inline int e2e_spi_inputs(struct e2e *e, const char *spidev)
{
	char path[600];
	struct dirent *de;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "%s/sys/bus/spi/devices/%s/input", emub_root(e->eb),
		 spidev);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		n += !strncmp(de->d_name, "input", 5);
	closedir(d);
	return n;
}

/* The emulated driver registered an input device for @chip. */
static inline bool e2e_has_input(struct e2e *e, const char *chip)
{
	char node[64];

	return emub_input_node(e->eb, chip, node, sizeof(node)) == 0;
}

/* A file in touchfw's state directory, or NULL. */
static inline char *e2e_state_file(struct e2e *e, const char *name)
{
	char path[400];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/state/%s", e->dir, name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* A run of touchfw on @dev has finished: its result is recorded and its
 * lock is free. */
static inline bool e2e_run_done(struct e2e *e, const char *dev)
{
	char path[400], name[128], *json;
	bool free_lock;
	int fd;

	snprintf(name, sizeof(name), "%s.json", dev);
	json = e2e_state_file(e, name);
	free(json);
	snprintf(path, sizeof(path), "%s/state/%s.lock", e->dir, dev);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	free_lock = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0;
	if (fd >= 0)
		close(fd);
	return json && free_lock;
}

/*
 * Wait for the run handle-event handed off for @dev to finish, then for
 * every uevent so far to have had its handle-event (those of the run's
 * own rebind among them: a second run would have been handed off by
 * then).  On timeout, fail with what handle-event said.  For a test that
 * checks the result, and so that no run is left working on the board
 * when the test takes it down.
 */
static inline void e2e_wait_run_done(struct e2e *e, const char *dev)
{
	long long end = e2e_now_ms() + 120000;

	while (!e2e_run_done(e, dev)) {
		if (e2e_now_ms() > end) {
			char path[400], *he = NULL;
			size_t n;

			snprintf(path, sizeof(path), "%s/he.log", e->dir);
			if (tf_read_file(path, 1 << 20, &he, &n) < 0)
				he = NULL;
			fprintf(stderr, "--- he.log\n%s", he ? he : "(none)\n");
			free(he);
			fail_msg("the run for %s did not finish within 120 s", dev);
		}
		usleep(1000);
	}
	/* the bind uevent of the run's rebind follows the probe the run saw
	 * end in an input device */
	assert_int_equal(emub_wait_board_idle(e->eb, 60000), 0);
	assert_int_equal(emub_wait_uevents_run(e->eb, 60000), 0);
}

/* Copy the built firmware DB into @e->dir so a test may damage it. */
static inline void e2e_private_db(struct e2e *e)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "cp -r '%s/firmware-db' '%s/db'", e->build, e->dir);
	assert_int_equal(system(cmd), 0);
	snprintf(e->db, sizeof(e->db), "%s/db", e->dir);
	e2e_settings(e, NULL);
}

/*
 * Run only the tests whose names match TOUCHFW_TEST_FILTER (a cmocka
 * pattern, '*' and '?'), when it is set: tests/run-tests sets it for a
 * program listed as PROGRAM::PATTERN.  Call before cmocka_run_group_tests.
 */
static inline void e2e_test_filter(void)
{
	const char *f = getenv("TOUCHFW_TEST_FILTER");

	if (f && *f)
		cmocka_set_test_filter(f);
}

#endif /* TF_E2E_H */
