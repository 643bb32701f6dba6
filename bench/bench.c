// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * touchfw benchmarks (bench/README.md).  Everything is measured in one run
 * and printed beside its goal; nothing here is a test with a threshold,
 * because these machines are noisy.
 *
 *  1. The udev fast path: `touchfw handle-event` on the events it must
 *     ignore, wall time (median, interleaved) and instructions (callgrind,
 *     repeatable) as ratios to /bin/true.
 *  2. The emulator's own cost per i2c-dev transfer, measured apart.
 *  3. Flashing by every path -- bootloader with the driver bound (status
 *     polling), unbound with CHG through the GPIO interface, the driver's
 *     update_fw -- on an emulated maXTouch in real-time pacing: flashing
 *     phase and whole command against the modelled bus + device time,
 *     with and without the emulator's cost; peak RSS, libraries vs heap.
 *     And flashing over spi: an mXT1664S behind mchp_spi_ts at 8 MHz, and
 *     a Goodix Berlin GT9916 over spidev with the largest image it takes.
 *  4. Peak RSS for a 1 MiB image.
 *  5. `touchfw run` per family (maXTouch over i2c and spi, Goodix, Silead,
 *     Elan touchscreen and touchpad, Goodix Berlin), from its start to the
 *     verified input device: wall time, the modelled part, and the agent's
 *     own overhead (on i2c the time the board waited for user space, on
 *     spi the wall time less the wire, chip and driver time; both less the
 *     emulator's cost).
 *  6. Several controllers at once: 2 and 4 on separate buses, 2 on one bus
 *     (frames never interleaved).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <linux/spi/spidev.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "berlin_image.h"
#include "emub-mxt.h"
#include "emub-berlin.h"
#include "emuboard.h"
#include "emuboard-spi.h"
#include "mxt_image.h"
#include "mxt_model.h"

extern char **environ;

#define RUNS 41
#define FRAME_BYTES 272
#define IMAGE_BYTES (256 * 1024) /* the spi flash */
#define MIB (1024.0 * 1024.0)

static char build[512], dir[64], conf[300];
static double xfer_cost_s; /* the emulator's cost per i2c-dev transfer */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static __attribute__((noreturn)) void die(const char *what, const char *arg)
{
	fprintf(stderr, "bench: %s %s\n", what, arg);
	exit(1);
}

/* $BENCH_ONLY: a comma-separated list of parts (fast, flash, flash-a,
 * flash-b, flash-c, spi, spi-berlin, memory, family, several) to run; all
 * when unset. */
static bool want(const char *part)
{
	const char *only = getenv("BENCH_ONLY");
	const char *p = only;
	size_t l = strlen(part);

	if (!only || !*only)
		return true;
	while ((p = strstr(p, part))) {
		if ((p == only || p[-1] == ',') && (p[l] == ',' || p[l] == '\0'))
			return true;
		p += l;
	}
	return false;
}

/* ------------------------------------------------------------ fast path */

static double run_once(char *const argv[], char *const envp[])
{
	double t0 = now_s();
	pid_t pid;
	int st;

	posix_spawn_file_actions_t fa;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawn(&pid, argv[0], &fa, NULL, argv, envp) != 0)
		die("can not run", argv[0]);
	posix_spawn_file_actions_destroy(&fa);
	waitpid(pid, &st, 0);
	return now_s() - t0;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	return v[n / 2];
}

/* Instructions of one run under callgrind (repeatable), 0 without valgrind. */
static double instructions(char *const argv[], char *const envp[])
{
	char cmd[4096], out[300], line[512];
	double n = 0;
	size_t l = 0;
	FILE *p;
	int i;

	l += (size_t)snprintf(cmd + l, sizeof(cmd) - l, "env -i");
	for (i = 0; envp[i]; i++)
		l += (size_t)snprintf(cmd + l, sizeof(cmd) - l, " '%s'", envp[i]);
	snprintf(out, sizeof(out), "%s/callgrind.out", dir);
	l += (size_t)snprintf(cmd + l, sizeof(cmd) - l,
			      " valgrind --tool=callgrind --callgrind-out-file=%s", out);
	for (i = 0; argv[i]; i++)
		l += (size_t)snprintf(cmd + l, sizeof(cmd) - l, " '%s'", argv[i]);
	snprintf(cmd + l, sizeof(cmd) - l, " 2>&1 >/dev/null");
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p)) {
		char *r = strstr(line, "refs:");
		char digits[64];
		size_t k = 0;

		if (!r)
			continue;
		for (r += 5; *r && k < sizeof(digits) - 1; r++)
			if (*r >= '0' && *r <= '9')
				digits[k++] = *r;
		digits[k] = '\0';
		n = strtod(digits, NULL);
	}
	if (pclose(p) != 0)
		return 0;
	return n;
}

static void bench_handle_event(const char *heconf)
{
	char bin[600], agent[600], confenv[600];
	char *t_argv[] = { "/bin/true", NULL };
	char *he_argv[] = { bin, "--config", (char *)heconf, "handle-event", NULL };
	char *ag_argv[] = { agent, "--version", NULL };
	char *env_unbind[] = { "ACTION=unbind", "DEVPATH=/devices/x/i2c-1/1-004a",
			       "SUBSYSTEM=i2c", confenv, NULL };
	char *env_other[] = { "ACTION=bind",   "DEVPATH=/devices/x/i2c-1/1-0050",
			      "SUBSYSTEM=i2c", "DRIVER=at24",
			      confenv,	       NULL };
	char *env_ours[] = { "ACTION=bind",   "DEVPATH=/devices/x/i2c-1/1-004a",
			     "SUBSYSTEM=i2c", "DRIVER=atmel_mxt_ts",
			     confenv,	      NULL };
	char **envs[] = { env_unbind, env_other, env_ours };
	const char *names[] = { "unbind event (ignored)",
				"bind of a driver touchfw does not know",
				"bind of atmel_mxt_ts, no profile installed" };
	double t[RUNS], w[3][RUNS], a[RUNS], it;
	double mt;
	int i, k;

	snprintf(bin, sizeof(bin), "%s/touchfw", build);
	snprintf(agent, sizeof(agent), "%s/touchfw-agent", build);
	snprintf(confenv, sizeof(confenv), "TOUCHFW_CONFIG=%s", heconf);
	for (i = 0; i < 5; i++) { /* warm the page cache */
		run_once(t_argv, env_unbind);
		run_once(he_argv, env_ours);
	}
	for (i = 0; i < RUNS; i++) {
		t[i] = run_once(t_argv, env_unbind);
		for (k = 0; k < 3; k++)
			w[k][i] = run_once(he_argv, envs[k]);
		a[i] = run_once(ag_argv, env_unbind);
	}
	mt = median(t, RUNS);
	it = instructions(t_argv, env_unbind);
	printf("1. udev fast path: touchfw handle-event, whole process, as a ratio to /bin/true\n"
	       "   (wall: median of %d, interleaved, /bin/true %.2f ms; instructions: callgrind,\n"
	       "   /bin/true %.0f, each event's ratio to /bin/true run with its environment,\n"
	       "   as tests/system/check-fast-path counts them):\n",
	       RUNS, mt * 1e3, it);
	for (k = 0; k < 3; k++) {
		double tk = it > 0 ? instructions(t_argv, envs[k]) : 0;
		double ik = tk > 0 ? instructions(he_argv, envs[k]) : 0;

		printf("   %-44s wall %5.2f x (goal <= 1.10)  instructions %5.3f x (goal <= 1.10)\n",
		       names[k], median(w[k], RUNS) / mt, tk > 0 ? ik / tk : 0.0);
	}
	printf("   %-44s wall %5.2f x (what the split saves)\n",
	       "for comparison, touchfw-agent --version", median(a, RUNS) / mt);
}

/* ------------------------------------------------------------ boards */

static char *mxt_board(const char *compat, const char *pacing, const char *max_transfer,
		       const char *state, const char *power, const char *irq)
{
	char *s = NULL;

	if (asprintf(
		    &s,
		    "[board]\nname = touchfw benchmark board\ncompatible = %s\npacing = %s\n"
		    "[adapter 1]\nname = touchfw emulated adapter 1\nspeed = 400000\n%s"
		    "[chip touchscreen]\nadapter = 1\naddress = 0x4a\nmodel = mxt224e\n"
		    "compatible = atmel,maxtouch\ndriver = atmel_mxt_ts\nbound = true\n"
		    "state = %s\nfw_version = 1.0.AA\npower = %s\nreset_gpio = 0\nchg_gpio = 1\n%s"
		    "[gpiochip]\nlabel = emuboard-gpio\nlines = 8\nline.0 = TS_RESET\n"
		    "line.1 = TS_CHG\n",
		    compat, pacing, max_transfer, state, power, irq) < 0)
		exit(1);
	return s;
}

/* @n chips in bootloader mode: on adapters 1..n, or all on adapter 1 at
 * 0x4a, 0x4b, ... with @one_bus. */
static char *multi_board(int n, bool one_bus)
{
	char *s = NULL, *t;
	int i;

	if (asprintf(&s,
		     "[board]\nname = touchfw benchmark board, %d controllers\n"
		     "compatible = touchfw,bench-multi\npacing = realtime\n",
		     n) < 0)
		exit(1);
	for (i = 1; i <= (one_bus ? 1 : n); i++) {
		if (asprintf(&t,
			     "%s[adapter %d]\nname = touchfw emulated adapter %d\n"
			     "speed = 400000\nmax_transfer = 255\n",
			     s, i, i) < 0)
			exit(1);
		free(s);
		s = t;
	}
	for (i = 1; i <= n; i++) {
		if (asprintf(
			    &t,
			    "%s[chip ts%d]\nadapter = %d\naddress = 0x%x\nmodel = mxt224e\n"
			    "compatible = atmel,maxtouch\ndriver = atmel_mxt_ts\nbound = true\n"
			    "state = no-image\nfw_version = 1.0.AA\npower = driver\n"
			    "reset_gpio = %d\nchg_gpio = %d\n",
			    s, i, one_bus ? 1 : i, one_bus ? 0x49 + i : 0x4a, 2 * i - 2,
			    2 * i - 1) < 0)
			exit(1);
		free(s);
		s = t;
	}
	if (asprintf(&t, "%s[gpiochip]\nlabel = emuboard-gpio\nlines = %d\n", s, 2 * n) < 0)
		exit(1);
	free(s);
	return t;
}

static struct emub *board_up(const char *text, const char *chip)
{
	struct emub *eb;
	char err[512];

	if (emub_new_from_string(text, dir, &eb, err, sizeof(err)) < 0)
		die("board:", err);
	if (emub_start(eb) < 0 || (chip && emub_wait_idle(eb, chip, 30000) < 0))
		die("the board did not start", "");
	return eb;
}

static void write_image(const char *path, size_t payload, size_t *len, unsigned *frames)
{
	struct mxt_img_header h = { 0x81, 0x01, 0x21, 0xab, 0, 0 };
	uint16_t per_frame = FRAME_BYTES - MXT_IMG_FRAME_OVERHEAD;
	size_t cap = mxt_img_size(payload, per_frame);
	uint8_t *img = malloc(cap);
	FILE *f;

	*len = mxt_img_build(&h, NULL, payload, per_frame, img, cap);
	*frames = (unsigned)((payload + per_frame - 1) / per_frame + 2);
	f = fopen(path, "wb");
	if (!f || fwrite(img, 1, *len, f) != *len || fclose(f))
		die("can not write", path);
	free(img);
}

/* ------------------------------------------------------------ sampler */

#define SAMPLE_US 2000
#define MAX_SAMPLES 60000

struct sample {
	double wall;
	uint64_t written, transactions, bus_ns, busy_ns, idle_ns, idle_xfers;
};

/* Counters of one chip's adapter every SAMPLE_US, and the touchfw
 * process's memory at its largest. */
struct sampler {
	struct emub *eb;
	int adapter;
	const char *chip;
	bool driver_side; /* frames come from the emulated driver (update_fw) */
	pid_t pid;
	volatile int stop;
	int n;
	long rss_kb, anon_kb, file_kb, hwm_kb, own_kb, emul_kb;
	struct sample s[MAX_SAMPLES];
};

/* touchfw-agent's libraries as ldd lists them, "|name|name|". */
static char agent_libs[4096] = "|";

static void find_agent_libs(void)
{
	char cmd[700], line[512];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "ldd '%s/touchfw-agent'", build);
	p = popen(cmd, "r");
	if (!p)
		return;
	while (fgets(line, sizeof(line), p)) {
		char name[256];

		if (sscanf(line, " %255s", name) == 1 &&
		    strlen(agent_libs) + strlen(name) + 2 < sizeof(agent_libs)) {
			char *slash = strrchr(name, '/');

			strcat(agent_libs, slash ? slash + 1 : name);
			strcat(agent_libs, "|");
		}
	}
	pclose(p);
}

/* File-backed RSS of @pid: touchfw's own (its executables and the
 * libraries ldd lists) and the rest (umockdev's preload library and what
 * it loads: the emulator's, absent on a real system). */
static void file_rss(pid_t pid, long *own, long *emul)
{
	char path[64], line[512], cur[256] = "";
	FILE *f;

	*own = *emul = 0;
	snprintf(path, sizeof(path), "/proc/%d/smaps", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *sp = strchr(line, ' ');
		long kb;

		if (sp && strchr(line, '-') && strchr(line, '-') < sp) {
			/* a mapping line: the path is the last field */
			char *p = strrchr(line, ' ');

			cur[0] = '\0';
			if (p && p[1] == '/') {
				char *slash = strrchr(p, '/');

				snprintf(cur, sizeof(cur), "|%s", slash + 1);
				cur[strcspn(cur, "\n")] = '\0';
				strcat(cur, "|");
			}
		} else if (cur[0] && (sscanf(line, "Rss: %ld kB", &kb) == 1 ||
				      sscanf(line, "Anonymous: %ld kB", &kb) == 1)) {
			/* file pages: Rss less the copied-on-write ones */
			if (line[0] == 'A')
				kb = -kb;
			if (strstr(agent_libs, cur) || strstr(cur, "|touchfw"))
				*own += kb;
			else
				*emul += kb;
		}
	}
	fclose(f);
}

static long status_kb(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

static void sample_memory(struct sampler *sm)
{
	char path[64], buf[4096];
	ssize_t n;
	long rss, hwm;
	int fd;

	if (!sm->pid)
		return;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)sm->pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	if (!strstr(buf, "touchfw")) /* not exec'ed yet: the bench's fork */
		return;
	rss = status_kb(buf, "VmRSS:");
	hwm = status_kb(buf, "VmHWM:");
	if (hwm > sm->hwm_kb)
		sm->hwm_kb = hwm;
	if (rss > sm->rss_kb) {
		sm->rss_kb = rss;
		sm->anon_kb = status_kb(buf, "RssAnon:");
		sm->file_kb = status_kb(buf, "RssFile:");
		file_rss(sm->pid, &sm->own_kb, &sm->emul_kb);
	}
}

static void *sampler_main(void *arg)
{
	struct sampler *sm = arg;
	struct emub_bus_counters u, d;

	while (!sm->stop && sm->n < MAX_SAMPLES) {
		struct sample *x = &sm->s[sm->n];
		struct emub_bus_counters *c = sm->driver_side ? &d : &u;

		emub_adapter_counters(sm->eb, sm->adapter, &u, &d);
		x->wall = now_s();
		x->written = c->bytes_written;
		x->transactions = u.transactions;
		x->bus_ns = c->bus_ns;
		x->busy_ns = emub_chip_busy_ns(sm->eb, sm->chip);
		x->idle_ns = emub_idle_ns(sm->eb, &x->idle_xfers);
		sm->n++;
		sample_memory(sm);
		usleep(SAMPLE_US);
	}
	return NULL;
}

/* ------------------------------------------------------------ emulator cost */

/* An address no emulated board here uses: reads of it cost the emulator
 * a round trip and change no chip's state. */
#define EMPTY_ADDR 0x77

/* Child mode: @n one-byte reads from @addr on @dev; prints the seconds. */
static int xfer_loop(const char *dev, int addr, int n)
{
	uint8_t b;
	struct i2c_msg m = { .addr = (uint16_t)addr, .flags = I2C_M_RD, .len = 1, .buf = &b };
	struct i2c_rdwr_ioctl_data x = { .msgs = &m, .nmsgs = 1 };
	int fd = open(dev, O_RDWR), i;
	double t0;

	if (fd < 0)
		return 1;
	t0 = now_s();
	for (i = 0; i < n; i++)
		if (ioctl(fd, I2C_RDWR, &x) != 1 && addr != EMPTY_ADDR)
			return 1;
	printf("%.9f\n", now_s() - t0);
	return 0;
}

/* The emulator's cost per transfer on @eb now: reads of an empty address
 * (NAKed after the address byte) from a child inside the board. */
static double measure_xfer_cost(struct emub *eb, int adapter, int n)
{
	char self[600], dev[32], count[16], addr[8];
	const char *argv[] = { self, "--xfer", dev, addr, count, NULL };
	struct emub_bus_counters u0, u1;
	struct emub_child *c;
	double loop;
	int st;

	snprintf(self, sizeof(self), "%s/bench/bench", build);
	snprintf(dev, sizeof(dev), "/dev/i2c-%d", adapter);
	snprintf(addr, sizeof(addr), "0x%x", EMPTY_ADDR);
	snprintf(count, sizeof(count), "%d", n);
	emub_adapter_counters(eb, adapter, &u0, NULL);
	if (emub_spawn(eb, argv, NULL, true, &c) < 0 || emub_child_wait(c, 60000, &st) < 0 ||
	    !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		die("the transfer loop failed", "");
	emub_adapter_counters(eb, adapter, &u1, NULL);
	loop = strtod(emub_child_stdout(c), NULL);
	emub_child_free(c);
	return (loop - (double)(u1.bus_ns - u0.bus_ns) / 1e9) / n;
}

/* The least of five short loops: the emulator's cost when the machine's
 * load disturbs it least.  Taking it out of touchfw's figures leaves them
 * an upper bound: under load each round trip costs more. */
static double least_xfer_cost(struct emub *eb, int adapter)
{
	double best = 1, c;
	int i;

	for (i = 0; i < 5; i++)
		if ((c = measure_xfer_cost(eb, adapter, 100)) < best)
			best = c;
	return best;
}

/* The same with @n loops at once, one per adapter 1..@n.  Each bus is
 * served on its own (tests/emul/host/serve.c), but every round trip to a
 * calling process still passes umockdev's one thread and the machine's
 * cores, so at once they cost more each. */
static double measure_xfer_cost_n(struct emub *eb, int n, int count)
{
	char self[600], dev[4][32], cnt[16], addr[8];
	const char *argv[4][6];
	struct emub_child *c[4];
	double sum = 0;
	int i, st;

	snprintf(self, sizeof(self), "%s/bench/bench", build);
	snprintf(addr, sizeof(addr), "0x%x", EMPTY_ADDR);
	snprintf(cnt, sizeof(cnt), "%d", count);
	for (i = 0; i < n; i++) {
		snprintf(dev[i], sizeof(dev[i]), "/dev/i2c-%d", i + 1);
		argv[i][0] = self;
		argv[i][1] = "--xfer";
		argv[i][2] = dev[i];
		argv[i][3] = addr;
		argv[i][4] = cnt;
		argv[i][5] = NULL;
		if (emub_spawn(eb, argv[i], NULL, true, &c[i]) < 0)
			die("the transfer loop failed", "");
	}
	for (i = 0; i < n; i++) {
		if (emub_child_wait(c[i], 60000, &st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			die("the transfer loop failed", "");
		sum += strtod(emub_child_stdout(c[i]), NULL);
		emub_child_free(c[i]);
	}
	/* an address byte on the wire: 20 bits at 400 kHz */
	return sum / n / count - 20.0 / 400000.0;
}

/*
 * The emulator's cost per spidev message.  The board's idle clock for spi
 * (emuboard-spi.h) counts the gaps in which a message found the board
 * waiting, and the part of them the emulator saw itself handling it
 * (service_ns: umockdev's round trips for the buffers, the wake-up after
 * the wire, the copies); what it can not see is umockdev passing the
 * request in (from the program's ioctl to the emulator's handler) and the
 * result out (from the emulator's completion to the ioctl's return, the
 * bytes the message read copied back with it, so this part grows with
 * them).  Both are measured here, on the same board: a child inside it
 * sends one-transfer messages to a chip select with no chip (every one
 * finds the board waiting, and the child does nothing between them) and
 * notes when each ioctl was called and returned; against the board's
 * clock, the request's passing is the call to the handler's start
 * (struct emub_spi_gap's entry_ns), the result's the completion of the
 * message before (prev_done_ns) to its return -- for messages reading
 * SPI_COST_SMALL and SPI_COST_LARGE bytes (spidev's default bufsiz, the
 * most one message holds), the median of each.
 *
 * A gap of a run holds the request's passing when it began before the
 * handler started, and the last result's when it began before that
 * result reached the program: a gap that began while the program slept
 * (the chip became ready then) holds the request's passing only, and
 * taking out the result's too would count the program's own lateness as
 * the emulator's.  So each gap gets out what of the two lies in it
 * (spi_gap_cost), never more than it holds beyond what the emulator saw.
 */
#define SPI_COST_NODE "/dev/spidev1.1"
#define SPI_COST_CHIP                                                  \
	"[spi-chip cost]\nbus = 1\nchip_select = 1\ndriver = spidev\n" \
	"max_speed_hz = 8000000\n"
#define SPI_COST_SMALL 8
#define SPI_COST_LARGE 4096
#define SPI_COST_LOOP 200

/* umockdev's passing, seconds: the request in (whatever the message), the
 * result out after a message reading SPI_COST_SMALL and SPI_COST_LARGE. */
struct spi_passing {
	double in, out_small, out_large;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Child mode: @n messages of @len bytes each way on @dev; each one's call
 * and return (CLOCK_MONOTONIC ns) on stdout, a line each. */
static int spi_xfer_loop(const char *dev, int n, int len)
{
	static uint8_t tx[SPI_COST_LARGE], rx[SPI_COST_LARGE];
	static uint64_t at[2 * (SPI_COST_LOOP + 1)];
	struct spi_ioc_transfer x = { .tx_buf = (uintptr_t)tx,
				      .rx_buf = (uintptr_t)rx,
				      .len = (uint32_t)len,
				      .speed_hz = 8000000 };
	int fd = open(dev, O_RDWR), i;

	if (len < 1 || len > SPI_COST_LARGE || n < 1 || n > SPI_COST_LOOP + 1 || fd < 0)
		return 1;
	for (i = 0; i < n; i++) {
		at[2 * i] = mono_ns();
		if (ioctl(fd, SPI_IOC_MESSAGE(1), &x) < 0)
			return 1;
		at[2 * i + 1] = mono_ns();
	}
	for (i = 0; i < n; i++)
		printf("%" PRIu64 " %" PRIu64 "\n", at[2 * i], at[2 * i + 1]);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* umockdev's passing on @eb now after a message reading @len bytes: the
 * medians of the request's and the result's over a loop of such messages
 * (the first, after the child's start, is left out).  The median, as a
 * load spike in a loop says nothing of the cost in the run measured. */
static bool measure_spi_passing(struct emub *eb, int len, double *in, double *out)
{
	char self[600], count[16], size[16];
	const char *argv[] = { self, "--spi-xfer", SPI_COST_NODE, count, size, NULL };
	struct emub_spi_gap g[SPI_COST_LOOP + 1];
	uint64_t call[SPI_COST_LOOP + 1], ret[SPI_COST_LOOP + 1];
	uint64_t pin[SPI_COST_LOOP], pout[SPI_COST_LOOP], off;
	struct emub_spi_stats s0, s1;
	struct emub_child *c;
	const char *p;
	char *end;
	size_t k, n = 0;
	int st;

	snprintf(self, sizeof(self), "%s/bench/bench", build);
	snprintf(count, sizeof(count), "%d", SPI_COST_LOOP + 1);
	snprintf(size, sizeof(size), "%d", len);
	emub_spi_stats(eb, 1, &s0);
	if (emub_spawn(eb, argv, NULL, true, &c) < 0 || emub_child_wait(c, 60000, &st) < 0 ||
	    !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		die("the spidev message loop failed", "");
	/* the board's clock against CLOCK_MONOTONIC (back to back: within
	 * a microsecond or so) */
	off = mono_ns() - emub_wall_time_ns(eb);
	p = emub_child_stdout(c);
	for (int i = 0; i <= SPI_COST_LOOP; i++) {
		call[i] = strtoull(p, &end, 10) - off;
		ret[i] = strtoull(end, &end, 10) - off;
		if (end == p)
			die("the spidev message loop's times are missing", "");
		p = end;
	}
	emub_child_free(c);
	emub_spi_stats(eb, 1, &s1);
	if (s1.idle_messages - s0.idle_messages != SPI_COST_LOOP + 1)
		return false; /* something modelled was pending (the driver's work
			       * after a run): the caller tries again */
	k = emub_spi_idle_unseen(eb, 1, s0.idle_messages, g, SPI_COST_LOOP + 1);
	if (k != SPI_COST_LOOP + 1)
		die("the spidev message loop's gaps are missing", "");
	for (size_t i = 1; i < k; i++) {
		if (g[i].after_rx != (uint32_t)len)
			die("the spidev message loop's gaps do not follow its messages", "");
		pin[n] = g[i].entry_ns > call[i] ? g[i].entry_ns - call[i] : 0;
		pout[n] = ret[i - 1] > g[i].prev_done_ns ? ret[i - 1] - g[i].prev_done_ns : 0;
		n++;
	}
	qsort(pin, n, sizeof(pin[0]), cmp_u64);
	qsort(pout, n, sizeof(pout[0]), cmp_u64);
	*in = (double)pin[n / 2] / 1e9;
	*out = (double)pout[n / 2] / 1e9;
	return true;
}

/* A loop of measure_spi_passing() in which every message found the board
 * waiting: a loop that met modelled work (the rebound driver's, the chip
 * starting) is run again, after a pause, up to 10 times. */
static void measure_spi_passing_quiet(struct emub *eb, int len, double *in, double *out)
{
	for (int i = 0; i < 10; i++) {
		if (measure_spi_passing(eb, len, in, out))
			return;
		usleep(100000);
	}
	die("the spidev message loop did not find the board waiting every time", "");
}

/* For each part, the lesser of @p's and a loop's now (measured before and
 * after a run, as for i2c): taken out of touchfw's figures, they stay an
 * upper bound of its share. */
static void least_spi_passing(struct emub *eb, struct spi_passing *p)
{
	double in, out;

	measure_spi_passing_quiet(eb, SPI_COST_SMALL, &in, &out);
	if (in < p->in)
		p->in = in;
	if (out < p->out_small)
		p->out_small = out;
	measure_spi_passing_quiet(eb, SPI_COST_LARGE, &in, &out);
	if (in < p->in)
		p->in = in;
	if (out < p->out_large)
		p->out_large = out;
}

/* umockdev's passing of a result that read @rx bytes: in proportion
 * between the two sizes measured (never below the small). */
static double spi_out_after(const struct spi_passing *p, uint32_t rx)
{
	double f;

	if (rx <= SPI_COST_SMALL || p->out_large <= p->out_small)
		return p->out_small;
	f = rx >= SPI_COST_LARGE
		    ? 1.0
		    : (double)(rx - SPI_COST_SMALL) / (SPI_COST_LARGE - SPI_COST_SMALL);
	return p->out_small + f * (p->out_large - p->out_small);
}

/* Of umockdev's passing, what lies in gap @g, ns: the request's from the
 * gap's start (or the request's, if later) to the handler's start, the
 * last result's from the gap's start (or the completion, if later) to
 * when it reached the program -- never more than the gap holds beyond
 * what the emulator saw. */
static uint64_t spi_gap_cost(const struct emub_spi_gap *g, const struct spi_passing *p)
{
	uint64_t in = (uint64_t)(p->in * 1e9),
		 out = (uint64_t)(spi_out_after(p, g->after_rx) * 1e9);
	uint64_t c = 0;

	if (g->entry_ns > g->from_ns)
		c += g->entry_ns - g->from_ns < in ? g->entry_ns - g->from_ns : in;
	if (g->prev_done_ns) {
		uint64_t got = g->prev_done_ns + out; /* the result reached the program */

		if (got > g->from_ns)
			c += got -
			     (g->prev_done_ns > g->from_ns ? g->prev_done_ns : g->from_ns);
	}
	return c < g->unseen_ns ? c : g->unseen_ns;
}

/* The emulator's cost between two samples @a and @b of controller 1's
 * counters on @eb: what it saw itself, and umockdev's passing in each
 * gap (spi_gap_cost), so touchfw's share is never taken below 0 and one
 * message's spare never hides another's. */
static double spi_emulator_s(struct emub *eb, const struct emub_spi_stats *a,
			     const struct emub_spi_stats *b, const struct spi_passing *p)
{
	uint64_t first = a->idle_messages, n = b->idle_messages - a->idle_messages, sum = 0;
	struct emub_spi_gap buf[1024];

	while (n) {
		size_t k = emub_spi_idle_unseen(eb, 1, first, buf,
						n < 1024 ? (size_t)n : (size_t)1024);

		if (!k)
			break;
		for (size_t i = 0; i < k; i++)
			sum += spi_gap_cost(&buf[i], p);
		first += k;
		n -= k;
	}
	return (double)(b->service_ns - a->service_ns + sum) / 1e9;
}

/* touchfw's share of each gap between @a and @b (the gap less what the
 * emulator saw and umockdev's passing in it), us: its 50th, 75th and 90th
 * percentiles in @pct.  A few gaps in which the machine gave touchfw no
 * core weigh on the sum, hardly on these. */
static void spi_share_percentiles(struct emub *eb, const struct emub_spi_stats *a,
				  const struct emub_spi_stats *b, const struct spi_passing *p,
				  double pct[3])
{
	uint64_t first = a->idle_messages, n = b->idle_messages - a->idle_messages;
	uint64_t *share = calloc(n ? n : 1, sizeof(*share));
	struct emub_spi_gap buf[1024];
	size_t got = 0;

	if (!share)
		die("out of memory", "");
	while (got < n) {
		size_t k = emub_spi_idle_unseen(eb, 1, first + got, buf,
						n - got < 1024 ? (size_t)(n - got)
							       : (size_t)1024);

		if (!k)
			break;
		for (size_t i = 0; i < k; i++)
			share[got + i] = buf[i].unseen_ns - spi_gap_cost(&buf[i], p);
		got += k;
	}
	qsort(share, got, sizeof(*share), cmp_u64);
	pct[0] = got ? (double)share[got / 2] / 1e3 : 0;
	pct[1] = got ? (double)share[got * 3 / 4] / 1e3 : 0;
	pct[2] = got ? (double)share[got * 9 / 10] / 1e3 : 0;
	free(share);
}

static void bench_emulator_cost(void)
{
	char *text = mxt_board("touchfw,bench", "realtime", "", "app", "driver", "");
	struct emub *eb = board_up(text, "touchscreen");
	uint64_t idle0;
	double quiet;

	idle0 = emub_idle_ns(eb, NULL);
	usleep(200 * 1000);
	quiet = (double)(emub_idle_ns(eb, NULL) - idle0) / 1e6;
	xfer_cost_s = measure_xfer_cost(eb, 1, 2000);
	printf("\n2. the emulator's own cost per i2c-dev transfer (umockdev's socket round trip,\n"
	       "   completion from a timer thread), 2000 reads of an empty address in real-time\n"
	       "   pacing: %.1f us beyond the wire time.  It varies with the machine's load:\n"
	       "   each figure below marked \"touchfw\" takes out the least cost measured on its\n"
	       "   own board just before and after it (5 loops of 100), so that figure is an\n"
	       "   upper bound of touchfw's share.\n"
	       "   The board's idle clock counted %.1f ms of a quiet 200 ms.\n",
	       xfer_cost_s * 1e6, quiet);
	emub_free(eb);
	free(text);
}

/* ------------------------------------------------------------ flashing */

struct result {
	int rc;
	double wall;
	struct emub_bus_counters u, d; /* deltas */
	uint64_t busy_ns, idle_ns, idle_xfers;
	double phase_wall, phase_model;
	uint64_t phase_xfers, phase_idle_xfers, phase_idle_ns;
	long rss_kb, anon_kb, file_kb, hwm_kb, own_kb, emul_kb;
	double xfer_cost; /* the emulator's, on this board, before and after */
	char *err;
};

static void run_measured(struct emub *eb, const char *chip, int adapter, bool driver_side,
			 const char *const *argv, size_t image_len, struct result *r)
{
	struct sampler *sm = calloc(1, sizeof(*sm));
	char confenv[600];
	const char *env[] = { confenv, NULL };
	struct emub_bus_counters u0, d0, u1, d1;
	struct emub_child *child;
	uint64_t busy0, idle0, ix0, ix1, w0;
	pthread_t thr;
	double t0;
	int first = -1, last = -1, i, st;

	memset(r, 0, sizeof(*r));
	r->xfer_cost = least_xfer_cost(eb, adapter);
	snprintf(confenv, sizeof(confenv), "TOUCHFW_CONFIG=%s", conf);
	emub_adapter_counters(eb, adapter, &u0, &d0);
	busy0 = emub_chip_busy_ns(eb, chip);
	idle0 = emub_idle_ns(eb, &ix0);
	sm->eb = eb;
	sm->adapter = adapter;
	sm->chip = chip;
	sm->driver_side = driver_side;
	t0 = now_s();
	if (emub_spawn(eb, argv, env, true, &child) < 0)
		die("can not start", argv[0]);
	sm->pid = emub_child_pid(child);
	pthread_create(&thr, NULL, sampler_main, sm);
	if (emub_child_wait(child, 900000, &st) < 0)
		die("did not finish:", argv[1]);
	r->wall = now_s() - t0;
	r->idle_ns = emub_idle_ns(eb, &ix1) - idle0;
	r->idle_xfers = ix1 - ix0;
	sm->stop = 1;
	pthread_join(thr, NULL);
	r->rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
	emub_adapter_counters(eb, adapter, &u1, &d1);
	r->busy_ns = emub_chip_busy_ns(eb, chip) - busy0;
	r->u.transactions = u1.transactions - u0.transactions;
	r->u.bytes_written = u1.bytes_written - u0.bytes_written;
	r->u.bytes_read = u1.bytes_read - u0.bytes_read;
	r->u.bus_ns = u1.bus_ns - u0.bus_ns;
	r->d.transactions = d1.transactions - d0.transactions;
	r->d.bytes_written = d1.bytes_written - d0.bytes_written;
	r->d.bytes_read = d1.bytes_read - d0.bytes_read;
	r->d.bus_ns = d1.bus_ns - d0.bus_ns;
	r->rss_kb = sm->rss_kb;
	r->anon_kb = sm->anon_kb;
	r->file_kb = sm->file_kb;
	r->hwm_kb = sm->hwm_kb;
	r->own_kb = sm->own_kb;
	r->emul_kb = sm->emul_kb;
	r->err = strdup(emub_child_stderr(child));
	if (getenv("BENCH_VERBOSE"))
		fprintf(stderr, "%s", r->err);
	/* The flashing phase: from the first frame's bytes to the last's. */
	w0 = driver_side ? d0.bytes_written : u0.bytes_written;
	for (i = 0; image_len && i < sm->n; i++) {
		uint64_t w = sm->s[i].written - w0;

		if (first < 0 && w >= 2 * FRAME_BYTES)
			first = i;
		if (w + FRAME_BYTES <= image_len)
			last = i + 1;
	}
	if (first >= 0 && last > first && last < sm->n) {
		r->phase_wall = sm->s[last].wall - sm->s[first].wall;
		r->phase_model = (double)(sm->s[last].bus_ns - sm->s[first].bus_ns +
					  sm->s[last].busy_ns - sm->s[first].busy_ns) /
				 1e9;
		r->phase_xfers = sm->s[last].transactions - sm->s[first].transactions;
		r->phase_idle_xfers = sm->s[last].idle_xfers - sm->s[first].idle_xfers;
		r->phase_idle_ns = sm->s[last].idle_ns - sm->s[first].idle_ns;
	}
	emub_child_free(child);
	free(sm);
	{
		double after = least_xfer_cost(eb, adapter);

		if (after < r->xfer_cost)
			r->xfer_cost = after;
	}
}

static void print_memory(const struct result *r, const char *goal)
{
	printf("   peak RSS of the touchfw process            %5.2f MiB (goal <= %s)\n"
	       "     at its largest (%.2f MiB): anonymous (heap, stacks, libraries' data) %.2f MiB;\n"
	       "     files: touchfw's executable and libraries %.2f MiB, umockdev's preload and\n"
	       "     what it loads (the emulator's; not on a real system) %.2f MiB\n",
	       (double)r->hwm_kb / 1024.0, goal, (double)r->rss_kb / 1024.0,
	       (double)r->anon_kb / 1024.0, (double)r->own_kb / 1024.0,
	       (double)r->emul_kb / 1024.0);
}

static void flash_path(const char *title, const char *board_text, bool driver_side,
		       const char *fw, size_t len, unsigned frames)
{
	const char *argv[7] = { NULL };
	char bin[600];
	struct emub *eb = board_up(board_text, "touchscreen");
	struct result r;
	double modelled, emul;

	snprintf(bin, sizeof(bin), "%s/touchfw", build);
	argv[0] = bin;
	argv[1] = "flash";
	argv[2] = "--firmware";
	argv[3] = fw;
	argv[4] = "1-004a";
	run_measured(eb, "touchscreen", 1, driver_side, argv, len, &r);
	if (r.rc != 0) {
		fprintf(stderr, "touchfw flash failed (%d):\n%s\n", r.rc, r.err);
		exit(1);
	}
	modelled = (double)(r.u.bus_ns + r.d.bus_ns + r.busy_ns) / 1e9;
	printf("\n   %s:\n", title);
	printf("   bytes on the bus per image byte            %5.3f     (goal <= 1.05)\n",
	       (double)(r.u.bytes_written + r.u.bytes_read + r.d.bytes_written +
			r.d.bytes_read) /
		       (double)len);
	printf("   i2c-dev transactions per frame             %5.2f%s\n",
	       (double)r.u.transactions / frames,
	       driver_side ? "     (the frames go through the kernel driver)" : "");
	if (r.phase_model > 0) {
		emul = (double)r.phase_idle_xfers * r.xfer_cost;
		printf("   flashing: wall / modelled bus + device     %5.3f     (%.2f s / %.2f s)\n",
		       r.phase_wall / r.phase_model, r.phase_wall, r.phase_model);
		printf("     touchfw, the emulator's %.2f s out       %5.3f     (goal <= 1.05; %" PRIu64
		       " of %" PRIu64 "\n"
		       "     transfers found the board waiting, %.0f us each)\n",
		       emul, (r.phase_wall - emul) / r.phase_model, r.phase_idle_xfers,
		       r.phase_xfers, r.xfer_cost * 1e6);
	}
	/* The whole command against everything modelled: the time a
	 * transfer, a chip operation or a driver job was pending (the board
	 * was not waiting for user space). */
	modelled = r.wall - (double)r.idle_ns / 1e9;
	emul = (double)r.idle_xfers * r.xfer_cost;
	printf("   whole command: wall / modelled             %5.3f     (%.2f s / %.2f s: bus, chip and the\n"
	       "     driver's delays, detection and rebind included)\n",
	       r.wall / modelled, r.wall, modelled);
	printf("     touchfw, the emulator's %.2f s out       %5.3f     (goal <= 1.07)\n", emul,
	       (r.wall - emul) / modelled);
	{
		/* touchfw's own time: the board waited for it, less the
		 * emulator's round trips; in the flashing phase and around it. */
		double own = (double)r.idle_ns / 1e9 - emul;
		double in = (double)r.phase_idle_ns / 1e9 -
			    (double)r.phase_idle_xfers * r.xfer_cost;

		printf("   touchfw's own time beside the modelled: %.1f ms (%.1f ms the board waited,\n"
		       "     less the emulator's %.1f ms in %" PRIu64 " transfers):\n"
		       "     in the flashing phase %6.1f ms (%.0f us per frame)\n"
		       "     around it             %6.1f ms (goal <= 50: start, detection, rebind,\n"
		       "                                      verified input device)\n",
		       own * 1e3, (double)r.idle_ns / 1e6, emul * 1e3, r.idle_xfers, in * 1e3,
		       in * 1e6 / frames, (own - in) * 1e3);
		/* touchfw's reset pulse: held >= 50 ms (the datasheet, design.md)
		 * and no access before 100 ms after the release (atmel_mxt_ts's
		 * MXT_RESET_INVALID_CHG; design.md), while the emulated chip is
		 * up earlier: the board waits for touchfw for the difference,
		 * which is the chip's timing as the sources give it, not
		 * touchfw's overhead.  Printed apart. */
		if (r.err && strstr(r.err, "reset pulse on the profile's reset line")) {
			double up, req;

			emub_lock(eb);
			up = (double)emub_chip_mxt(eb, "touchscreen")->cfg.t.power_on_ns / 1e9;
			emub_unlock(eb);
			req = 0.050 + (0.100 > up ? 0.100 - up : 0);
			printf("       of which the reset pulse's required minimum beyond the emulated\n"
			       "       chip's start (held 50 ms, first access 100 ms after release, the\n"
			       "       chip up %.0f ms after it): %.0f ms; touchfw around it    %6.1f ms\n"
			       "                                      (goal <= 50)\n",
			       up * 1e3, req * 1e3, (own - in - req) * 1e3);
		}
	}
	print_memory(&r, "4");
	free(r.err);
	emub_free(eb);
}

static void bench_flash(void)
{
	char fw[300], *b;
	size_t len;
	unsigned frames;

	if (!want("flash") && !want("flash-a") && !want("flash-b") && !want("flash-c"))
		return;
	snprintf(fw, sizeof(fw), "%s/bench.fw", dir);
	write_image(fw, 256 * 1024, &len, &frames);
	printf("\n3. flashing a %zu-byte image (%u frames of %d bytes) on an emulated mXT224E,\n"
	       "   400 kHz, real-time pacing, 5 ms programming per frame (the model's default),\n"
	       "   by each path:\n",
	       len, frames, FRAME_BYTES);
	b = mxt_board("touchfw,emul-demo", "realtime", "max_transfer = 255\n", "no-image",
		      "driver", "");
	if (want("flash") || want("flash-a"))
		flash_path(
			"a. bootloader mode, driver bound (it owns CHG): status polling, adapter limit\n"
			"      255 bytes per message",
			b, false, fw, len, frames);
	free(b);
	b = mxt_board("touchfw,emul-always-on", "realtime", "max_transfer = 255\n", "app",
		      "always-on", "irq_type = edge\n");
	if (want("flash") || want("flash-b"))
		flash_path(
			"b. application mode, always-on supply: unbind, flash with CHG through the GPIO\n"
			"      interface",
			b, false, fw, len, frames);
	free(b);
	b = mxt_board("touchfw,emul-demo", "realtime", "", "app", "driver",
		      "irq_type = level\n");
	if (want("flash") || want("flash-c"))
		flash_path(
			"c. application mode, the driver owns power: the driver's update_fw (one\n"
			"      message per frame, so no adapter limit)",
			b, true, fw, len, frames);
	free(b);
}

/* Memory for a 1 MiB image: fast pacing (memory does not depend on it). */
static void bench_memory_1m(void)
{
	char fw[300], bin[600], *b;
	const char *argv[] = { bin, "flash", "--firmware", fw, "1-004a", NULL };
	struct emub *eb;
	struct result r;
	size_t len;
	unsigned frames;

	snprintf(fw, sizeof(fw), "%s/bench-1m.fw", dir);
	snprintf(bin, sizeof(bin), "%s/touchfw", build);
	write_image(fw, 1024 * 1024, &len, &frames);
	b = mxt_board("touchfw,emul-demo", "fast", "max_transfer = 255\n", "no-image", "driver",
		      "");
	eb = board_up(b, "touchscreen");
	run_measured(eb, "touchscreen", 1, false, argv, 0, &r);
	if (r.rc != 0) {
		fprintf(stderr, "touchfw flash (1 MiB) failed (%d):\n%s\n", r.rc, r.err);
		exit(1);
	}
	printf("\n4. memory, a %zu-byte image (bootloader path, fast pacing):\n", len);
	print_memory(&r, "4.5");
	free(r.err);
	emub_free(eb);
	free(b);
}

/*
 * The same on spi: an mXT1664S behind mchp_spi_ts (bound in bootloader
 * mode), always-on power, 8 MHz, spidev's default bufsiz, real-time
 * pacing; touchfw has the driver let go, binds spidev and flashes in
 * Microchip's framing.
 */
static const char spi_board_text[] = "[board]\n"
				     "name = touchfw spi benchmark board\n"
				     "compatible = touchfw,bench-spi\n"
				     "pacing = realtime\n"
				     "[spi 1]\n"
				     "max_speed_hz = 20000000\n"
				     "[spi-chip touchscreen]\n"
				     "bus = 1\n"
				     "chip_select = 0\n"
				     "model = mxt1664s\n"
				     "driver = mchp_spi_ts\n"
				     "state = no-image\n"
				     "spi_mode = 3\n"
				     "max_speed_hz = 8000000\n" SPI_COST_CHIP;

static const char spi_profile[] =
	"/dts-v1/;\n/ {\n\ttouchfw,profile-version = <1>;\n"
	"\tmodel = \"touchfw spi benchmark board\";\n"
	"\tboard-compatible = \"touchfw,bench-spi\";\n"
	"\tcontrollers {\n\t\t#address-cells = <1>;\n\t\t#size-cells = <0>;\n"
	"\t\ttouchscreen@0 {\n\t\t\tfamily = \"mxt\";\n\t\t\tbus = \"spi\";\n"
	"\t\t\tadapter-name = \"emuboard-spi.1\";\n\t\t\treg = <0>;\n"
	"\t\t\tdriver = \"mchp_spi_ts\";\n\t\t\tpower = \"always-on\";\n"
	"\t\t\tspi-max-frequency = <8000000>;\n\t\t\tspi-cpol;\n\t\t\tspi-cpha;\n"
	"\t\t};\n\t};\n};\n";

/* Controller 1's counters every SAMPLE_US (and the Berlin chip's flash
 * writes, on a Berlin board). */
struct spi_sampler {
	struct emub *eb;
	bool berlin;
	volatile int stop;
	int n;
	struct {
		double wall;
		struct emub_spi_stats st;
		uint32_t writes; /* the Berlin chip's flash writes */
	} s[MAX_SAMPLES];
};

static void *spi_sampler_main(void *arg)
{
	struct spi_sampler *sm = arg;

	while (!sm->stop && sm->n < MAX_SAMPLES) {
		emub_spi_stats(sm->eb, 1, &sm->s[sm->n].st);
		if (sm->berlin) {
			emub_lock(sm->eb);
			sm->s[sm->n].writes =
				emub_spi_berlin(sm->eb, "touchscreen")->stats.flash_writes;
			emub_unlock(sm->eb);
		}
		sm->s[sm->n].wall = now_s();
		sm->n++;
		usleep(SAMPLE_US);
	}
	return NULL;
}

static int spi_inputs(struct emub *eb);

/* One spi flash: `touchfw flash` measured on @eb, the emulator's passing
 * cost measured on the same board before and after. */
struct spi_run {
	struct emub *eb;
	double wall;
	struct spi_passing passing;
	struct emub_spi_stats s0, s1;
	struct spi_sampler *sm;
};

static void spi_flash_run(struct emub *eb, bool berlin, const char *const *argv,
			  const char *const *env, const char *what, struct spi_run *r)
{
	struct emub_child *child;
	pthread_t thr;
	double t0;
	int st, rc;

	memset(r, 0, sizeof(*r));
	r->eb = eb;
	r->sm = calloc(1, sizeof(*r->sm));
	if (!r->sm)
		die("out of memory", "");
	emub_spi_settle(eb);
	r->passing.in = r->passing.out_small = r->passing.out_large = 1;
	least_spi_passing(eb, &r->passing);
	emub_spi_stats(eb, 1, &r->s0);
	r->sm->eb = eb;
	r->sm->berlin = berlin;
	pthread_create(&thr, NULL, spi_sampler_main, r->sm);
	t0 = now_s();
	if (emub_spawn(eb, argv, env, true, &child) < 0 ||
	    emub_child_wait(child, 600000, &st) < 0)
		die("did not finish:", what);
	r->wall = now_s() - t0;
	r->sm->stop = 1;
	pthread_join(thr, NULL);
	rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
	emub_spi_stats(eb, 1, &r->s1);
	if (rc != 0 || spi_inputs(eb) < 1) {
		fprintf(stderr, "%s failed (%d):\n%s\n", what, rc, emub_child_stderr(child));
		exit(1);
	}
	if (getenv("BENCH_VERBOSE"))
		fprintf(stderr, "%s", emub_child_stderr(child));
	emub_child_free(child);
	least_spi_passing(eb, &r->passing);
}

/* The flashing window [@first, @last] of @r: wall against the modelled
 * time (the wire, the chip busy: their union), with and without the
 * emulator's cost. */
static void spi_print_window(const struct spi_run *r, int first, int last, const char *extra)
{
	const struct emub_spi_stats *a = &r->sm->s[first].st, *b = &r->sm->s[last].st;
	double pw = r->sm->s[last].wall - r->sm->s[first].wall;
	double pm = (double)(b->active_ns - a->active_ns) / 1e9;
	double emul = spi_emulator_s(r->eb, a, b, &r->passing), pct[3];
	uint64_t idle_msgs = b->idle_messages - a->idle_messages;

	spi_share_percentiles(r->eb, a, b, &r->passing, pct);

	printf("  flashing: wall / modelled wire + chip      %5.3f     (%.3f s / %.3f s%s)\n",
	       pw / pm, pw, pm, extra);
	printf("    touchfw, the emulator's %.3f s out      %5.3f     (goal <= 1.03; %" PRIu64
	       " of %" PRIu64 " spidev\n"
	       "    messages found the board waiting; the emulator's handling it saw %.0f us\n"
	       "    each; umockdev's passing, where the gap holds it: a request %.0f us, a\n"
	       "    result %.0f us after a message reading %d bytes, %.0f us after %d)\n",
	       emul, (pw - emul) / pm, idle_msgs, b->user_messages - a->user_messages,
	       idle_msgs ? (double)(b->service_ns - a->service_ns) / 1e3 / (double)idle_msgs
			 : 0.0,
	       r->passing.in * 1e6, r->passing.out_small * 1e6, SPI_COST_SMALL,
	       r->passing.out_large * 1e6, SPI_COST_LARGE);
	printf("    touchfw's share of each of those gaps: %.0f us in the median, %.0f at the\n"
	       "    75th percentile, %.0f at the 90th\n",
	       pct[0], pct[1], pct[2]);
}

/* The flashing window's figure with the emulator's cost out (-1: no
 * window). */
static double spi_window_ratio(const struct spi_run *r, int first, int last)
{
	const struct emub_spi_stats *a, *b;
	double pw, pm;

	if (first < 0 || last <= first || last >= r->sm->n)
		return -1;
	a = &r->sm->s[first].st;
	b = &r->sm->s[last].st;
	pw = r->sm->s[last].wall - r->sm->s[first].wall;
	pm = (double)(b->active_ns - a->active_ns) / 1e9;
	return pm > 0 ? (pw - spi_emulator_s(r->eb, a, b, &r->passing)) / pm : -1;
}

/*
 * Each spi flash runs SPI_REPEATS times ($BENCH_SPI_REPEATS), each on a
 * board of its own with the emulator's cost measured on it before and
 * after, and the run with the least figure is the one printed
 * (bench/README.md): the machine's load only ever adds to touchfw's share
 * (a core taken away, a wake-up late), never takes from it, so on a busy
 * machine the least of a few runs is the figure nearest touchfw's own,
 * and still an upper bound of it.
 */
#define SPI_REPEATS 5

static int spi_repeats(void)
{
	const char *v = getenv("BENCH_SPI_REPEATS");
	int n = v ? atoi(v) : SPI_REPEATS;

	return n < 1 ? 1 : n > 20 ? 20 : n;
}

/* The figures of every repeat, and the load average when they began. */
static void spi_print_repeats(const double *ratio, int n, const double *load)
{
	printf("    of %d runs (load average %.2f at the first, %.2f at the last):", n, load[0],
	       load[1]);
	for (int i = 0; i < n; i++)
		printf(i && i % 6 == 0 ? "\n      %.3f" : " %.3f", ratio[i]);
	printf("; the least above\n");
}

static double load_now(void)
{
	double l[1];

	return getloadavg(l, 1) == 1 ? l[0] : -1;
}

/* The whole command: wall, the modelled parts, touchfw's own time. */
static void spi_print_whole(const struct spi_run *r)
{
	const struct emub_spi_stats *a = &r->s0, *b = &r->s1;
	double active = (double)(b->active_ns - a->active_ns) / 1e9;
	double emul = spi_emulator_s(r->eb, a, b, &r->passing);

	printf("  whole command: wall                        %.2f s (modelled %.2f s: wire %.2f s,\n"
	       "    chip busy %.2f s, the driver's sleeps %.2f s; the emulator %.2f s)\n",
	       r->wall, active, (double)(b->wire_ns - a->wire_ns) / 1e9,
	       (double)(b->busy_ns - a->busy_ns) / 1e9,
	       (double)(b->driver_ns - a->driver_ns) / 1e9, emul);
}

static void bench_flash_spi(const char *build, const char *dir)
{
	struct mxt_img_header h = { 0xa2, 0x06, 0x30, 0x10, 0, 0 };
	uint16_t per_frame = FRAME_BYTES - MXT_IMG_FRAME_OVERHEAD;
	size_t cap = mxt_img_size(IMAGE_BYTES, per_frame), len;
	uint8_t *img = malloc(cap);
	char path[600], bin[600], confenv[700], conf[600], err[512], cmd[1600];
	const char *argv[] = { bin, "flash", "--firmware", path, "spi1.0", NULL };
	const char *env[] = { confenv, NULL };
	struct spi_run r;
	struct emub *eb;
	double ratio[20], load[2];
	int first = -1, last = -1, i, nrep, best = 0;
	FILE *f;

	len = mxt_img_build(&h, NULL, IMAGE_BYTES, per_frame, img, cap);
	snprintf(path, sizeof(path), "%s/bench-spi.fw", dir);
	f = fopen(path, "wb");
	if (!f || fwrite(img, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
	free(img);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s/spiboards' && printf '%%s' '%s' | "
		 "dtc -q -I dts -O dtb -o '%s/spiboards/spi.dtb' -",
		 dir, spi_profile, dir);
	if (system(cmd) != 0) {
		fprintf(stderr, "dtc failed on the spi profile\n");
		exit(1);
	}
	snprintf(conf, sizeof(conf), "%s/spi.conf", dir);
	f = fopen(conf, "w");
	fprintf(f,
		"[touchfw]\nhandoff = fork\nsignatures = off\n"
		"[paths]\nstate_dir = %s/state\npersist_dir = %s/persist\n"
		"db_dir = %s/db\nboards_dirs = %s/spiboards\ncmdline = %s/cmdline\n",
		dir, dir, dir, dir, dir);
	fclose(f);
	snprintf(bin, sizeof(bin), "%s/touchfw", build);
	snprintf(confenv, sizeof(confenv), "TOUCHFW_CONFIG=%s", conf);
	nrep = spi_repeats();
	load[0] = load_now();
	for (int k = 0; k < nrep; k++) {
		struct spi_run rk;
		int fk = -1, lk = -1;

		if (k == nrep - 1)
			load[1] = load_now();
		if (emub_new_from_string(spi_board_text, dir, &eb, err, sizeof(err)) < 0 ||
		    emub_start(eb) < 0) {
			fprintf(stderr, "spi board: %s\n", err);
			exit(1);
		}
		spi_flash_run(eb, false, argv, env, "touchfw flash (spi)", &rk);
		for (i = 0; i < rk.sm->n; i++) {
			uint64_t b = rk.sm->s[i].st.bytes - rk.s0.bytes;

			if (fk < 0 && b >= 2 * FRAME_BYTES)
				fk = i;
			if (b + FRAME_BYTES <= len)
				lk = i + 1;
		}
		ratio[k] = spi_window_ratio(&rk, fk, lk);
		if (k == 0 || ratio[k] < ratio[best]) {
			if (k) {
				free(r.sm);
				emub_free(r.eb);
			}
			r = rk;
			best = k;
			first = fk;
			last = lk;
		} else {
			free(rk.sm);
			emub_free(eb);
		}
	}
	printf("\nflash over spi: %zu-byte image, frames of %d bytes, 8 MHz, mode 3, real-time\n"
	       "pacing, spidev bufsiz 4096, driver mchp_spi_ts let go and bound again:\n",
	       len, FRAME_BYTES);
	printf("  bytes clocked per image byte               %5.3f\n",
	       (double)(r.s1.bytes - r.s0.bytes) / (double)len);
	if (ratio[best] >= 0) {
		spi_print_window(&r, first, last, "");
		spi_print_repeats(ratio, nrep, load);
	}
	spi_print_whole(&r);
	free(r.sm);
	emub_free(r.eb);
}

/* ------------------------------------------------------------ per family */

static const char gt911_board[] =
	"[board]\nname = touchfw benchmark GT911 board\ncompatible = touchfw,emul-gt911\n"
	"pacing = realtime\n"
	"[adapter 1]\nname = touchfw emulated adapter 1\nspeed = 400000\n"
	"[chip touchscreen]\nadapter = 1\naddress = 0x5d\nmodel = goodix\n"
	"compatible = goodix,gt911\ndriver = Goodix-TS\ngoodix.id = 911\n"
	"goodix.fw_version = 0x1060\ngoodix.config_version = 0x41\n"
	"goodix.resolution = 800x480\ngoodix.touches = 5\ngoodix.trigger = falling\n"
	"power = driver\nreset_gpio = 0\nint_gpio = 1\n"
	"[gpiochip]\nlabel = emuboard-gpio\nlines = 8\nline.0 = TS_RESET\nline.1 = TS_INT\n";

static const char elants_board[] =
	"[board]\nname = touchfw benchmark Elan touchscreen board\n"
	"compatible = touchfw,emul-elants\npacing = realtime\n"
	"[adapter 1]\nname = touchfw emulated adapter 1\nspeed = 400000\n"
	"[chip touchscreen]\nadapter = 1\naddress = 0x10\nmodel = elants\n"
	"compatible = elan,ekth3500\ndriver = elants_i2c\nelants.hw_version = 0x2a1c\n"
	"elants.fw_version = 0x5511\npower = driver\nreset_gpio = 0\nint_gpio = 1\n"
	"[gpiochip]\nlabel = emuboard-gpio\nlines = 8\nline.0 = TS_RESET\nline.1 = TS_INT\n";

static const char elantp_board[] =
	"[board]\nname = touchfw benchmark Elan touchpad board\n"
	"compatible = touchfw,emul-elantp\npacing = realtime\n"
	"[adapter 1]\nname = touchfw emulated adapter 1\nspeed = 400000\n"
	"[chip touchpad]\nadapter = 1\naddress = 0x15\nmodel = elantp\n"
	"compatible = elan,ekth6915\ndriver = elan_i2c\nelantp.product_id = 18\n"
	"elantp.fw_version = 5\npower = driver\nint_gpio = 1\n"
	"[gpiochip]\nlabel = emuboard-gpio\nlines = 8\nline.0 = TP_RESET\nline.1 = TP_INT\n";

/* `touchfw run` on an i2c board: wall time to the verified input device
 * (touchfw's exit 0 and the emulated driver's input device on @chip), and
 * the board's idle clock: what it waited for user space, less the
 * emulator's round trips, is touchfw's own time. */
/*
 * The probe-file path (Silead) waits until the device's driver link has
 * not changed for 300 ms before it stages and binds (agent/flow-detect.c,
 * PROBE_SETTLE_MS): a probe in progress shows only as that link.  A wait
 * by design, printed apart with what touchfw spends around it.
 */
#define PROBE_SETTLE_MS 300

static void family_run(const char *title, const char *board_text, const char *chip,
		       const char *dev, unsigned settle_ms)
{
	char bin[600];
	const char *argv[] = { bin, "run", dev, NULL };
	struct emub *eb = board_up(board_text, chip);
	struct result r;
	char node[64];
	double emul, idle;

	snprintf(bin, sizeof(bin), "%s/touchfw", build);
	run_measured(eb, chip, 1, false, argv, 0, &r);
	if (r.rc != 0 || emub_input_node(eb, chip, node, sizeof(node)) != 0) {
		fprintf(stderr, "touchfw run %s failed (%d):\n%s\n", dev, r.rc, r.err);
		exit(1);
	}
	emul = (double)r.idle_xfers * r.xfer_cost;
	idle = (double)r.idle_ns / 1e9;
	printf("   %-19s %7.0f ms to %s; modelled (bus, chip, driver) %.0f ms;\n"
	       "                       the board waited for user space %.1f ms, of which the\n"
	       "                       emulator %.1f ms (%" PRIu64 " of %" PRIu64
	       " transfers ended a wait):\n"
	       "                       touchfw's own overhead %6.1f ms (goal <= 50)\n",
	       title, r.wall * 1e3, node, (r.wall - idle) * 1e3, idle * 1e3, emul * 1e3,
	       r.idle_xfers, r.u.transactions, (idle - emul) * 1e3);
	if (settle_ms)
		printf("                         of which the %u ms the driver link must stay\n"
		       "                         unchanged before touchfw stages and binds (a\n"
		       "                         probe in progress shows only as that link):\n"
		       "                         touchfw around it %6.1f ms\n",
		       settle_ms, (idle - emul) * 1e3 - settle_ms);
	free(r.err);
	emub_free(eb);
}

/*
 * spi boards: the controller's idle clock and its modelled time (the wire,
 * the chip busy, the emulated drivers' sleeps: emuboard-spi.h); the
 * emulator's cost as in the spi flashing above.  Each board has a chip
 * select with no chip, bound to spidev, for the cost loop.
 */

static const char famspi_mxt_profile[] =
	"/dts-v1/;\n/ {\n\ttouchfw,profile-version = <1>;\n"
	"\tmodel = \"touchfw benchmark spi mXT1664S board\";\n"
	"\tboard-compatible = \"touchfw,bench-spi-1664s\";\n"
	"\tboard-ids = \"touchfw,emul-1664s\";\n"
	"\tcontrollers {\n\t\t#address-cells = <1>;\n\t\t#size-cells = <0>;\n"
	"\t\ttouchscreen@0 {\n\t\t\tfamily = \"mxt\";\n\t\t\tbus = \"spi\";\n"
	"\t\t\tadapter-name = \"emuboard-spi.1\";\n\t\t\treg = <0>;\n"
	"\t\t\tdriver = \"mchp_spi_ts\";\n\t\t\tpower = \"always-on\";\n"
	"\t\t\tspi-max-frequency = <8000000>;\n\t\t\tspi-cpol;\n\t\t\tspi-cpha;\n"
	"\t\t};\n\t};\n};\n";

static const char famspi_berlin_profile[] =
	"/dts-v1/;\n/ {\n\ttouchfw,profile-version = <1>;\n"
	"\tmodel = \"touchfw benchmark gt9916 board\";\n"
	"\tboard-compatible = \"touchfw,emul-berlin\";\n"
	"\tcontrollers {\n\t\t#address-cells = <1>;\n\t\t#size-cells = <0>;\n"
	"\t\ttouchscreen@0 {\n\t\t\tfamily = \"berlin\";\n\t\t\tbus = \"spi\";\n"
	"\t\t\tadapter-name = \"emuboard-spi.1\";\n\t\t\treg = <0>;\n"
	"\t\t\tdriver = \"goodix-berlin-spi\";\n\t\t\tpower = \"always-on\";\n"
	"\t\t\tspi-max-frequency = <8000000>;\n\t\t\tinput-timeout-ms = <3000>;\n"
	"\t\t};\n\t};\n};\n";

static const char famspi_mxt_board[] =
	"[board]\nname = touchfw benchmark spi mXT1664S board\n"
	"compatible = touchfw,bench-spi-1664s\npacing = realtime\n"
	"[spi 1]\nmax_speed_hz = 20000000\n"
	"[spi-chip touchscreen]\nbus = 1\nchip_select = 0\nmodel = mxt1664s\n"
	"driver = mchp_spi_ts\nstate = no-image\nfw_version = 1.0.AA\nspi_mode = 3\n"
	"max_speed_hz = 8000000\n[spidev]\nbufsiz = 4096\n" SPI_COST_CHIP;

/* %s: the firmware the chip runs ("none": an empty chip) */
static const char famspi_berlin_board[] =
	"[board]\nname = touchfw benchmark gt9916 board\n"
	"compatible = touchfw,emul-berlin\npacing = realtime\n"
	"[spi 1]\nmax_speed_hz = 50000000\n"
	"[spi-chip touchscreen]\nbus = 1\nchip_select = 0\nmodel = gt9916\n"
	"compatible = goodix,gt9916\ndriver = goodix-berlin-spi\nbound = true\n"
	"berlin.firmware = %s\nberlin.pid = 9916\nberlin.config_id = 0x11\n"
	"max_speed_hz = 8000000\n[spidev]\nbufsiz = 4096\n" SPI_COST_CHIP;

static char famspi_conf[600];

/* The spi profiles compiled into a boards directory of their own, and a
 * settings file that names it (the database is the build's). */
static void famspi_setup(void)
{
	static const struct {
		const char *name, *text;
	} p[] = { { "mxt-spi", famspi_mxt_profile }, { "berlin", famspi_berlin_profile } };
	char cmd[2400];
	FILE *f;

	if (famspi_conf[0])
		return;
	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
		snprintf(cmd, sizeof(cmd),
			 "mkdir -p '%s/famboards' && printf '%%s' '%s' | "
			 "dtc -q -I dts -O dtb -o '%s/famboards/%s.dtb' -",
			 dir, p[i].text, dir, p[i].name);
		if (system(cmd) != 0)
			die("dtc failed on the profile", p[i].name);
	}
	snprintf(famspi_conf, sizeof(famspi_conf), "%s/famspi.conf", dir);
	f = fopen(famspi_conf, "w");
	if (!f)
		die("can not write", famspi_conf);
	fprintf(f,
		"[touchfw]\nhandoff = fork\nsignatures = off\n"
		"[paths]\nstate_dir = %s/famspi-state\npersist_dir = %s/famspi-persist\n"
		"db_dir = %s/firmware-db\nboards_dirs = %s/famboards\n"
		"firmware_dirs = %s/firmware\ncmdline = %s/cmdline\n",
		dir, dir, build, dir, dir, dir);
	fclose(f);
}

/* Input devices under spi1.0 (the driver's, once it has bound). */
static int spi_inputs(struct emub *eb)
{
	char path[600];
	struct dirent *de;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "%s/sys/bus/spi/devices/spi1.0/input", emub_root(eb));
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		n += !strncmp(de->d_name, "input", 5);
	closedir(d);
	return n;
}

/* The Berlin chip's boots into the ISP or an application so far (0 on a
 * board without one): touchfw waits after each soft reset that starts
 * one.  On the family board the chip is empty, so the soft reset before
 * the CPU hold (followed by 5 ms, not the 100) boots the ROM and is not
 * counted. */
static int berlin_resets(struct emub *eb)
{
	struct berlin_model *m;
	int n;

	emub_lock(eb);
	m = emub_spi_berlin(eb, "touchscreen");
	n = m ? (int)(m->stats.boots_isp + m->stats.boots_app) : 0;
	emub_unlock(eb);
	return n;
}

static void family_run_spi(const char *title, const char *board_text)
{
	char bin[600], confenv[700], err[512];
	const char *argv[] = { bin, "run", "spi1.0", NULL };
	const char *env[] = { confenv, NULL };
	struct spi_run r;
	struct emub *eb;
	double wall, active, emul, own;
	int resets0, resets;

	famspi_setup();
	snprintf(bin, sizeof(bin), "%s/touchfw", build);
	snprintf(confenv, sizeof(confenv), "TOUCHFW_CONFIG=%s", famspi_conf);
	if (emub_new_from_string(board_text, dir, &eb, err, sizeof(err)) < 0 ||
	    emub_start(eb) < 0)
		die("spi board:", err);
	resets0 = berlin_resets(eb);
	spi_flash_run(eb, false, argv, env, title, &r);
	resets = berlin_resets(eb) - resets0;
	wall = r.wall;
	active = (double)(r.s1.active_ns - r.s0.active_ns) / 1e9;
	emul = spi_emulator_s(eb, &r.s0, &r.s1, &r.passing);
	own = wall - active - emul;
	printf("   %-19s %7.0f ms to the driver's input device on spi1.0; modelled %.0f ms:\n"
	       "                       wire %.0f ms, chip busy %.0f ms, the driver's sleeps %.0f ms;\n"
	       "                       the emulator %.1f ms (%" PRIu64 " of %" PRIu64
	       " spidev messages found\n"
	       "                       the board waiting):\n"
	       "                       touchfw's own overhead %6.1f ms (goal <= 50)\n",
	       title, wall * 1e3, active * 1e3, (double)(r.s1.wire_ns - r.s0.wire_ns) / 1e6,
	       (double)(r.s1.busy_ns - r.s0.busy_ns) / 1e6,
	       (double)(r.s1.driver_ns - r.s0.driver_ns) / 1e6, emul * 1e3,
	       r.s1.idle_messages - r.s0.idle_messages, r.s1.user_messages - r.s0.user_messages,
	       own * 1e3);
	/* After each soft reset touchfw waits 100 ms before the version
	 * block means anything (goodix_berlin_core.c's
	 * GOODIX_BERLIN_NORMAL_RESET_DELAY_MS, fwupdate.c's chip_reset(100));
	 * the emulated chip has booted BERLIN_BOOT_NS after it, counted as
	 * busy.  The difference is the sources' timing, printed apart. */
	if (resets > 0) {
		double req = resets * (0.100 - (double)BERLIN_BOOT_NS / 1e9);

		printf("                         of which the 100 ms wait after each of %d soft\n"
		       "                         resets into the ISP or firmware the sources require,\n"
		       "                         beyond the emulated chip's %.0f ms boot: %.0f ms;\n"
		       "                         touchfw around it %6.1f ms (goal <= 50)\n",
		       resets, (double)BERLIN_BOOT_NS / 1e6, req * 1e3, (own - req) * 1e3);
	}
	free(r.sm);
	emub_free(eb);
}

/*
 * Goodix Berlin over spidev: the largest image the emulated GT9916 takes
 * (an application up to the config page at 0x3E000, 248 KiB, and the
 * config), written by `touchfw flash` at 8 MHz while the chip runs older
 * firmware: touchfw has goodix-berlin-spi let go, binds spidev, loads the
 * ISP, writes packets of 4 KiB and binds the driver again.  The flashing
 * phase runs from the chip's first flash write to its last (sampled every
 * 2 ms); modelled: the wire and the chip's busy time (the ack, 2.5 ms a
 * KiB of flash) in that window.
 */
static void bench_flash_berlin(void)
{
	struct berlin_fw_spec spec = {
		.variant = BERLIN_D,
		.pid = "9916",
		.vid = { 0x01, 0x00, 0x00, 0x02 },
		.app_size = BERLIN_APP_MAX,
		.with_config = true,
		.config_id = 0x22,
		.config_version = 1,
		.seed = 1,
	};
	char fw[600], bin[600], confenv[700], err[512], extra[80], *board = NULL;
	const char *argv[] = { bin, "flash", "--firmware", fw, "spi1.0", NULL };
	const char *env[] = { confenv, NULL };
	uint32_t len = berlin_fw_file_size(&spec), final_writes = 0;
	uint8_t *img = malloc(len);
	struct spi_run r;
	struct emub *eb;
	double ratio[20], load[2];
	int first = -1, last = -1, i, nrep, best = 0;
	FILE *f;

	famspi_setup();
	if (!img || berlin_fw_file_build(&spec, img, len) != len)
		die("can not build the Berlin image", "");
	snprintf(fw, sizeof(fw), "%s/bench-berlin.bin", dir);
	f = fopen(fw, "wb");
	if (!f || fwrite(img, 1, len, f) != len || fclose(f))
		die("can not write", fw);
	free(img);
	snprintf(bin, sizeof(bin), "%s/touchfw", build);
	snprintf(confenv, sizeof(confenv), "TOUCHFW_CONFIG=%s", famspi_conf);
	if (asprintf(&board, famspi_berlin_board, "01000001") < 0)
		exit(1);
	nrep = spi_repeats();
	load[0] = load_now();
	for (int k = 0; k < nrep; k++) {
		struct spi_run rk;
		uint32_t wk;
		int fk = -1, lk = -1;

		if (k == nrep - 1)
			load[1] = load_now();
		if (emub_new_from_string(board, dir, &eb, err, sizeof(err)) < 0 ||
		    emub_start(eb) < 0)
			die("Berlin board:", err);
		spi_flash_run(eb, true, argv, env, "touchfw flash (Berlin)", &rk);
		emub_lock(eb);
		wk = emub_spi_berlin(eb, "touchscreen")->stats.flash_writes;
		emub_unlock(eb);
		for (i = 0; i < rk.sm->n; i++) {
			if (fk < 0 && rk.sm->s[i].writes >= 1)
				fk = i;
			if (lk < 0 && rk.sm->s[i].writes >= wk)
				lk = i;
		}
		ratio[k] = spi_window_ratio(&rk, fk, lk);
		if (k == 0 || ratio[k] < ratio[best]) {
			if (k) {
				free(r.sm);
				emub_free(r.eb);
			}
			r = rk;
			best = k;
			first = fk;
			last = lk;
			final_writes = wk;
		} else {
			free(rk.sm);
			emub_free(eb);
		}
	}
	free(board);
	printf("\nflash over spi, Goodix Berlin: a %u-byte file (%u-byte application, the\n"
	       "config, the ISP) on an emulated GT9916 running older firmware, 8 MHz, mode 0,\n"
	       "real-time pacing, spidev bufsiz 4096, packets of 4 KiB, driver\n"
	       "goodix-berlin-spi let go and bound again:\n",
	       len, spec.app_size);
	printf("  bytes clocked per file byte                %5.3f\n",
	       (double)(r.s1.bytes - r.s0.bytes) / (double)len);
	if (ratio[best] >= 0) {
		snprintf(extra, sizeof(extra), ",\n    %u of %u flash writes",
			 r.sm->s[last].writes - r.sm->s[first].writes, final_writes);
		spi_print_window(&r, first, last, extra);
		spi_print_repeats(ratio, nrep, load);
	}
	spi_print_whole(&r);
	free(r.sm);
	emub_free(r.eb);
}

static void bench_families(void)
{
	char *b = mxt_board("touchfw,emul-demo", "realtime", "max_transfer = 255\n", "no-image",
			    "driver", ""),
	     *silead = NULL, *berlin = NULL;

	printf("\n5. per family, `touchfw run` (what the event hands off) from its start to the\n"
	       "   verified input device, real-time pacing; on i2c the modelled delays are\n"
	       "   every moment a transfer, a chip operation or the emulated driver's work was\n"
	       "   pending (the board's idle clock); on spi the controller's wire time, the\n"
	       "   chip's busy time and the emulated driver's sleeps:\n");
	family_run("maXTouch (i2c)", b, "touchscreen", "1-004a", 0);
	free(b);
	family_run_spi("maXTouch (spi)", famspi_mxt_board);
	family_run("Goodix GT911", gt911_board, "touchscreen", "1-005d", 0);
	/* silead_ts loads its file from the board's firmware directory,
	 * where touchfw stages it (the bench's firmware_dirs). */
	if (asprintf(&silead,
		     "[board]\nname = touchfw benchmark Silead tablet\n"
		     "dmi.sys_vendor = touchfw\ndmi.product_name = Emulated Silead Tablet\n"
		     "pacing = realtime\nfirmware_dirs = %s/firmware\n"
		     "[adapter 1]\nname = touchfw emulated adapter 1\nspeed = 400000\n"
		     "[chip touchscreen]\nadapter = 1\naddress = 0x40\nmodel = silead\n"
		     "acpi_id = MSSL1680\ndriver = silead_ts\npower = driver\npower_gpio = 0\n"
		     "chg_gpio = 1\nsilead.firmware_seed = 1/4\n"
		     "silead.firmware_name = gsl1680-emul-tablet.fw\n"
		     "touchscreen.size_x = 1960\ntouchscreen.size_y = 1500\n"
		     "touchscreen.swapped_x_y = true\n"
		     "[gpiochip]\nlabel = emuboard-gpio\nlines = 8\n",
		     dir) < 0)
		exit(1);
	family_run("Silead GSL1680", silead, "touchscreen", "i2c-MSSL1680:00", PROBE_SETTLE_MS);
	free(silead);
	family_run("Elan touchscreen", elants_board, "touchscreen", "1-0010", 0);
	family_run("Elan touchpad", elantp_board, "touchpad", "1-0015", 0);
	if (asprintf(&berlin, famspi_berlin_board, "none") < 0)
		exit(1);
	family_run_spi("Goodix Berlin (spi)", berlin);
	free(berlin);
}

/* ------------------------------------------------------------ several at once */

struct multi {
	double wall;
	int ok;
	uint64_t idle_xfers; /* i2c-dev transfers that found the board waiting */
	double cost1, costn; /* the emulator's per transfer: one loop, n at once */
	double cpu_touchfw;  /* user + system time of the touchfw processes */
	double cpu_emulator; /* of this process: the board, umockdev's thread, timers */
};

static double cpu_s(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static struct multi flash_many(const char *board_text, int n, bool one_bus, int only,
			       const char *fw, uint64_t *interleaved)
{
	struct emub *eb = board_up(board_text, NULL);
	struct emub_child *c[4];
	char bin[600], devs[4][16], chip[8], confenv[600];
	const char *env[] = { confenv, NULL };
	const char *argv[4][6];
	struct multi m = { 0, 0, 0, 0, 0 };
	uint64_t ix0, ix1;
	double t0;
	int i, st;

	snprintf(bin, sizeof(bin), "%s/touchfw", build);
	snprintf(confenv, sizeof(confenv), "TOUCHFW_CONFIG=%s", conf);
	for (i = 0; i < n; i++) {
		snprintf(chip, sizeof(chip), "ts%d", i + 1);
		emub_wait_idle(eb, chip, 30000);
	}
	if (!only && !one_bus) {
		m.cost1 = least_xfer_cost(eb, 1);
		m.costn = 1;
		for (i = 0; i < 3; i++) { /* the least, as for one */
			double c = measure_xfer_cost_n(eb, n, 100);

			if (c < m.costn)
				m.costn = c;
		}
	}
	emub_idle_ns(eb, &ix0);
	m.cpu_touchfw = -cpu_s(RUSAGE_CHILDREN);
	m.cpu_emulator = -cpu_s(RUSAGE_SELF);
	t0 = now_s();
	for (i = 0; i < n; i++) {
		if (only && i + 1 != only)
			continue;
		snprintf(devs[i], sizeof(devs[i]), "%d-%04x", one_bus ? 1 : i + 1,
			 one_bus ? 0x4a + i : 0x4a);
		argv[i][0] = bin;
		argv[i][1] = "flash";
		argv[i][2] = "--firmware";
		argv[i][3] = fw;
		argv[i][4] = devs[i];
		argv[i][5] = NULL;
		if (emub_spawn(eb, argv[i], env, true, &c[i]) < 0)
			die("can not start", bin);
	}
	for (i = 0; i < n; i++) {
		struct mxt_model *mm;

		if (only && i + 1 != only)
			continue;
		if (emub_child_wait(c[i], 900000, &st) < 0 || !WIFEXITED(st) ||
		    WEXITSTATUS(st)) {
			/* Counted (not verified) and shown; the other figures go on. */
			printf("   touchfw flash %s FAILED:\n%s", devs[i],
			       emub_child_stderr(c[i]));
			emub_child_free(c[i]);
			continue;
		}
		if (getenv("BENCH_VERBOSE"))
			fprintf(stderr, "%s done at %.2f s:\n%s", devs[i], now_s() - t0,
				emub_child_stderr(c[i]));
		emub_child_free(c[i]);
		snprintf(chip, sizeof(chip), "ts%d", i + 1);
		emub_wait_idle(eb, chip, 30000);
		emub_lock(eb);
		mm = emub_chip_mxt(eb, chip);
		if (mm && mxt_model_mode(mm) == MXT_MODE_APP &&
		    mxt_model_fw_version(mm) == 0x21 && mxt_model_fw_build(mm) == 0xab)
			m.ok++;
		emub_unlock(eb);
	}
	m.wall = now_s() - t0;
	m.cpu_touchfw += cpu_s(RUSAGE_CHILDREN);
	m.cpu_emulator += cpu_s(RUSAGE_SELF);
	emub_idle_ns(eb, &ix1);
	m.idle_xfers = ix1 - ix0;
	if (getenv("BENCH_VERBOSE")) {
		struct rusage rs, rc;

		getrusage(RUSAGE_SELF, &rs);
		getrusage(RUSAGE_CHILDREN, &rc);
		fprintf(stderr, "cpu so far: emulator %.2f s, children %.2f s\n",
			(double)rs.ru_utime.tv_sec + rs.ru_utime.tv_usec / 1e6 +
				(double)rs.ru_stime.tv_sec + rs.ru_stime.tv_usec / 1e6,
			(double)rc.ru_utime.tv_sec + rc.ru_utime.tv_usec / 1e6 +
				(double)rc.ru_stime.tv_sec + rc.ru_stime.tv_usec / 1e6);
	}
	if (interleaved)
		*interleaved = emub_adapter_interleaved(eb, 1);
	emub_free(eb);
	return m;
}

static void bench_several(void)
{
	char fw[300], *b;
	size_t len;
	unsigned frames;
	int n, i;

	snprintf(fw, sizeof(fw), "%s/bench-64k.fw", dir);
	write_image(fw, 64 * 1024, &len, &frames);
	printf("\n6. several controllers flashed at once, each mXT224E in bootloader mode, driver\n"
	       "   bound, a %zu-byte image, real-time pacing, every one started together (as a\n"
	       "   board with two screens or a touchpad binds them):\n",
	       len);
	for (n = 2; n <= 4; n += 2) {
		double slowest = 0, extra, cpu1 = 0;
		uint64_t xfers = 0;
		struct multi all;

		b = multi_board(n, false);
		for (i = 1; i <= n; i++) {
			struct multi one = flash_many(b, n, false, i, fw, NULL);

			cpu1 += one.cpu_touchfw;
			if (one.wall > slowest) {
				slowest = one.wall;
				xfers = one.idle_xfers;
			}
		}
		all = flash_many(b, n, false, 0, fw, NULL);
		/* Each controller's transfers that found the board waiting
		 * are on its critical path; at once, each of them costs what
		 * the loops at once measured. */
		extra = (double)xfers * (all.costn - all.cost1);
		printf("   %d on separate buses: %.2f s together, slowest alone %.2f s: %5.2f x; "
		       "%d of %d verified\n"
		       "     the emulator's own cost (umockdev's round trips): %.0f us per\n"
		       "     transfer alone, %.0f us with %d at once; %" PRIu64
		       " transfers on each\n"
		       "     controller's critical path: %.2f s of waiting out\n"
		       "     touchfw                                  %5.2f x (goal <= 1.2)\n",
		       n, all.wall, slowest, all.wall / slowest, all.ok, n, all.cost1 * 1e6,
		       all.costn * 1e6, n, xfers, extra, (all.wall - extra) / slowest);
		/* Where the rest goes: the machine's cores.  touchfw's processes
		 * share no lock on this path; if they serialised, their CPU
		 * time would not show it, their waiting would. */
		printf("     CPU time (user + system): touchfw's %d processes %.2f s at once, %.2f s\n"
		       "     one at a time; the emulator (the board's threads, umockdev's thread,\n"
		       "     timers) %.2f s at once; %.2f s of CPU in %.2f s of wall on %ld cores\n",
		       n, all.cpu_touchfw, cpu1, all.cpu_emulator,
		       all.cpu_touchfw + all.cpu_emulator, all.wall,
		       sysconf(_SC_NPROCESSORS_ONLN));
		free(b);
	}
	{
		uint64_t inter = 0;
		struct multi two;

		b = multi_board(2, true);
		two = flash_many(b, 2, true, 0, fw, &inter);
		printf("   2 on one bus (0x4a, 0x4b): %.2f s, %d of 2 verified, %" PRIu64
		       " transactions interleaved\n   mid-frame (goal 0; the emulator's bus sees "
		       "every frame)\n",
		       two.wall, two.ok, inter);
		free(b);
	}
}

int main(int argc, char **argv)
{
	const char *b = getenv("TOUCHFW_BUILD");
	bool only_he = argc > 1 && !strcmp(argv[1], "--handle-event");
	char sub[700], *abs;
	FILE *f;

	if (argc == 5 && !strcmp(argv[1], "--xfer"))
		return xfer_loop(argv[2], (int)strtol(argv[3], NULL, 0), atoi(argv[4]));
	if (argc == 5 && !strcmp(argv[1], "--spi-xfer"))
		return spi_xfer_loop(argv[2], atoi(argv[3]), atoi(argv[4]));
	abs = realpath(b ? b : "build", NULL);
	if (!abs)
		die("build directory not found:", b ? b : "build");
	snprintf(build, sizeof(build), "%s", abs);
	free(abs);
	snprintf(dir, sizeof(dir), "/tmp/touchfw-bench-XXXXXX");
	if (!mkdtemp(dir))
		die("mkdtemp:", strerror(errno));
	snprintf(conf, sizeof(conf), "%s/touchfw.conf", dir);
	f = fopen(conf, "w");
	fprintf(f,
		"[touchfw]\nhandoff = fork\nsignatures = off\n"
		"[paths]\nstate_dir = %s/state\npersist_dir = %s/persist\n"
		"db_dir = %s/firmware-db\nboards_dirs = %s/boards/examples\n"
		"firmware_dirs = %s/firmware\ncmdline = %s/cmdline\n",
		dir, dir, build, build, dir, dir);
	fclose(f);
	snprintf(sub, sizeof(sub), "%s/firmware", dir);
	mkdir(sub, 0700);
	snprintf(sub, sizeof(sub), "%s/cmdline", dir);
	f = fopen(sub, "w");
	fputs("quiet\n", f);
	fclose(f);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (want("fast")) {
		/* handle-event: no profile installed for the fast path's sake. */
		char empty[400], conf2[400];
		FILE *g;

		snprintf(empty, sizeof(empty), "%s/noboards", dir);
		mkdir(empty, 0700);
		snprintf(conf2, sizeof(conf2), "%s/he.conf", dir);
		g = fopen(conf2, "w");
		fprintf(g,
			"[paths]\nstate_dir = %s/state\nboards_dirs = %s\ncmdline = %s/cmdline\n",
			dir, empty, dir);
		fclose(g);
		bench_handle_event(conf2);
	}
	if (!only_he) {
		find_agent_libs();
		bench_emulator_cost();
		bench_flash();
		if (want("spi"))
			bench_flash_spi(build, dir);
		if (want("spi") || want("spi-berlin"))
			bench_flash_berlin();
		if (want("memory"))
			bench_memory_1m();
		if (want("family"))
			bench_families();
		if (want("several"))
			bench_several();
	}
	snprintf(sub, sizeof(sub), "rm -rf '%s'", dir);
	if (system(sub) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return 0;
}
