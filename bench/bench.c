// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * touchfw benchmarks.  Everything is printed as ratios measured in one run,
 * because these machines are noisy: no absolute threshold is checked.
 *
 *  1. The udev fast path: `touchfw handle-event` on events it must ignore,
 *     whole-process wall time as a ratio to /bin/true (median of N each,
 *     interleaved), and the full agent's start-up for comparison.
 *  2. Flashing: a 256 KiB synthetic image in frames of 272 bytes, on an
 *     emulated maXTouch in real-time pacing at 400 kHz with 5 ms programming
 *     per frame (the model's default), through an adapter limited to 255
 *     bytes per message: bytes on the bus per image byte, transactions per
 *     frame, wall time as a ratio to the modelled bus + device time, and the
 *     peak RSS of the touchfw process.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emuboard.h"
#include "emuboard-spi.h"
#include "mxt_image.h"
#include "mxt_model.h"

extern char **environ;

#define RUNS 41
#define IMAGE_BYTES (256 * 1024)
#define FRAME_BYTES 272

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double run_once(char *const argv[], char *const envp[])
{
	double t0 = now_s();
	pid_t pid;
	int st;

	posix_spawn_file_actions_t fa;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	if (posix_spawn(&pid, argv[0], &fa, NULL, argv, envp) != 0) {
		perror(argv[0]);
		exit(1);
	}
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

static void bench_handle_event(const char *build, const char *conf)
{
	char bin[512], agent[512], confenv[600];
	char *t_argv[] = { "/bin/true", NULL };
	char *he_argv[] = { bin, "--config", (char *)conf, "handle-event", NULL };
	char *ag_argv[] = { agent, "--version", NULL };
	char *env_unbind[] = { "ACTION=unbind", "DEVPATH=/devices/x/i2c-1/1-004a",
			       "SUBSYSTEM=i2c", confenv, NULL };
	char *env_other[] = { "ACTION=bind", "DEVPATH=/devices/x/i2c-1/1-0050",
			      "SUBSYSTEM=i2c", "DRIVER=at24", confenv, NULL };
	char *env_ours[] = { "ACTION=bind", "DEVPATH=/devices/x/i2c-1/1-004a",
			     "SUBSYSTEM=i2c", "DRIVER=atmel_mxt_ts", confenv, NULL };
	double t[RUNS], u[RUNS], o[RUNS], w[RUNS], a[RUNS];
	double mt;
	int i;

	snprintf(bin, sizeof(bin), "%s/touchfw", build);
	snprintf(agent, sizeof(agent), "%s/touchfw-agent", build);
	snprintf(confenv, sizeof(confenv), "TOUCHFW_CONFIG=%s", conf);
	for (i = 0; i < 5; i++) { /* warm the page cache */
		run_once(t_argv, env_unbind);
		run_once(he_argv, env_unbind);
	}
	for (i = 0; i < RUNS; i++) {
		t[i] = run_once(t_argv, env_unbind);
		u[i] = run_once(he_argv, env_unbind);
		o[i] = run_once(he_argv, env_other);
		w[i] = run_once(he_argv, env_ours);
		a[i] = run_once(ag_argv, env_unbind);
	}
	mt = median(t, RUNS);
	printf("handle-event, whole process, median of %d, as a ratio to /bin/true (%.2f ms):\n",
	       RUNS, mt * 1e3);
	printf("  unbind event (ignored)                     %5.2f x   (goal <= 2)\n",
	       median(u, RUNS) / mt);
	printf("  bind of a driver touchfw does not know     %5.2f x\n", median(o, RUNS) / mt);
	printf("  bind of atmel_mxt_ts, no profile installed %5.2f x\n", median(w, RUNS) / mt);
	printf("  for comparison, touchfw-agent --version    %5.2f x   (what the split saves)\n",
	       median(a, RUNS) / mt);
}

static const char board_text[] =
	"[board]\n"
	"name = touchfw benchmark board\n"
	"compatible = touchfw,emul-demo\n"
	"pacing = realtime\n"
	"[adapter 1]\n"
	"name = touchfw emulated adapter 1\n"
	"speed = 400000\n"
	"max_transfer = 255\n"
	"[chip touchscreen]\n"
	"adapter = 1\n"
	"address = 0x4a\n"
	"model = mxt224e\n"
	"compatible = atmel,maxtouch\n"
	"driver = atmel_mxt_ts\n"
	"bound = true\n"
	"state = no-image\n"
	"fw_version = 1.0.AA\n"
	"power = driver\n"
	"reset_gpio = 0\n"
	"chg_gpio = 1\n"
	"[gpiochip]\n"
	"label = emuboard-gpio\n"
	"lines = 8\n"
	"line.0 = TS_RESET\n"
	"line.1 = TS_CHG\n";

/*
 * The flashing phase alone, seen from the emulator: a sampler records
 * counters every SAMPLE_US while touchfw runs; the phase runs from the
 * first frame's bytes to the last frame's, and its modelled time is the
 * bus time plus the chip's busy time inside that window.
 */
#define SAMPLE_US 2000
#define MAX_SAMPLES 20000

struct sample {
	double wall;
	uint64_t written, bus_ns, busy_ns;
};

struct sampler {
	struct emub *eb;
	volatile int stop;
	int n;
	struct sample s[MAX_SAMPLES];
};

static void *sampler_main(void *arg)
{
	struct sampler *sm = arg;
	struct emub_bus_counters u, d;

	while (!sm->stop && sm->n < MAX_SAMPLES) {
		struct sample *x = &sm->s[sm->n];

		emub_adapter_counters(sm->eb, 1, &u, &d);
		x->wall = now_s();
		x->written = u.bytes_written;
		x->bus_ns = u.bus_ns;
		x->busy_ns = emub_chip_busy_ns(sm->eb, "touchscreen");
		sm->n++;
		usleep(SAMPLE_US);
	}
	return NULL;
}

static void bench_flash(const char *build, const char *dir, const char *conf)
{
	struct sampler *sm = calloc(1, sizeof(*sm));
	pthread_t thr;
	int first = -1, last = -1, i;
	struct mxt_img_header h = { 0x81, 0x01, 0x21, 0xab, 0, 0 };
	uint16_t per_frame = FRAME_BYTES - MXT_IMG_FRAME_OVERHEAD;
	size_t cap = mxt_img_size(IMAGE_BYTES, per_frame), len;
	uint8_t *img = malloc(cap);
	char path[600], bin[512], confenv[600], err[512];
	const char *argv[] = { bin, "flash", "--firmware", path, "1-004a", NULL };
	const char *env[] = { confenv, NULL };
	struct emub_bus_counters u0, d0, u1, d1;
	struct emub *eb;
	struct emub_child *child;
	struct rusage ru;
	uint64_t busy0, busy1;
	double t0, wall, modelled;
	unsigned frames;
	FILE *f;
	int st, rc;

	len = mxt_img_build(&h, NULL, IMAGE_BYTES, per_frame, img, cap);
	frames = (unsigned)((IMAGE_BYTES + per_frame - 1) / per_frame + 2);
	snprintf(path, sizeof(path), "%s/bench.fw", dir);
	f = fopen(path, "wb");
	if (!f || fwrite(img, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
	free(img);
	snprintf(bin, sizeof(bin), "%s/touchfw", build);
	snprintf(confenv, sizeof(confenv), "TOUCHFW_CONFIG=%s", conf);
	if (emub_new_from_string(board_text, dir, &eb, err, sizeof(err)) < 0) {
		fprintf(stderr, "board: %s\n", err);
		exit(1);
	}
	if (emub_start(eb) < 0 || emub_wait_idle(eb, "touchscreen", 30000) < 0) {
		fprintf(stderr, "board did not start\n");
		exit(1);
	}
	emub_adapter_counters(eb, 1, &u0, &d0);
	busy0 = emub_chip_busy_ns(eb, "touchscreen");
	sm->eb = eb;
	pthread_create(&thr, NULL, sampler_main, sm);
	t0 = now_s();
	if (emub_spawn(eb, argv, env, true, &child) < 0 ||
	    emub_child_wait(child, 600000, &st) < 0) {
		fprintf(stderr, "touchfw flash did not finish\n");
		exit(1);
	}
	wall = now_s() - t0;
	sm->stop = 1;
	pthread_join(thr, NULL);
	rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
	getrusage(RUSAGE_CHILDREN, &ru);
	emub_adapter_counters(eb, 1, &u1, &d1);
	busy1 = emub_chip_busy_ns(eb, "touchscreen");
	if (rc != 0) {
		fprintf(stderr, "touchfw flash failed (%d):\n%s\n", rc, emub_child_stderr(child));
		exit(1);
	}
	if (getenv("BENCH_VERBOSE"))
		fprintf(stderr, "%s", emub_child_stderr(child));
	modelled = (double)(u1.bus_ns - u0.bus_ns + busy1 - busy0) / 1e9;
	printf("\nflash: %zu-byte image, %u frames of %d bytes, 400 kHz, real-time pacing,\n"
	       "5 ms programming per frame, adapter limit 255 bytes per message:\n",
	       len, frames, FRAME_BYTES);
	printf("  bytes on the bus per image byte            %5.3f     (goal <= 1.05)\n",
	       (double)(u1.bytes_written - u0.bytes_written + u1.bytes_read - u0.bytes_read) /
		       (double)len);
	printf("  i2c-dev transactions per frame             %5.2f\n",
	       (double)(u1.transactions - u0.transactions) / frames);
	for (i = 0; i < sm->n; i++) {
		uint64_t w = sm->s[i].written - u0.bytes_written;

		if (first < 0 && w >= 2 * FRAME_BYTES)
			first = i;
		if (w + FRAME_BYTES <= len)
			last = i + 1;
	}
	if (first >= 0 && last > first && last < sm->n) {
		double pw = sm->s[last].wall - sm->s[first].wall;
		double pm = (double)(sm->s[last].bus_ns - sm->s[first].bus_ns +
				     sm->s[last].busy_ns - sm->s[first].busy_ns) / 1e9;

		printf("  flashing: wall / modelled bus + device     %5.3f     (goal <= 1.10; %.2f s / %.2f s)\n",
		       pw / pm, pw, pm);
	}
	printf("  whole command: wall / modelled             %5.3f     (%.2f s / %.2f s: adds detection,\n"
	       "    the rebind and the kernel driver's probe delays)\n",
	       wall / modelled, wall, modelled);
	printf("  peak RSS of the touchfw process            %5.2f MiB (goal <= 8)\n",
	       (double)ru.ru_maxrss / 1024.0);
	emub_child_free(child);
	emub_free(eb);
	free(sm);
}

/*
 * The same on spi: an mXT1664S behind mchp_spi_ts (bound in bootloader
 * mode), always-on power, 8 MHz, spidev's default bufsiz, real-time
 * pacing; touchfw has the driver let go, binds spidev and flashes in
 * Microchip's framing.  Modelled time: the wire (bits at 8 MHz, the 1 ms
 * chip-select gaps touchfw asks for, delays) plus the chip's busy time.
 */
static const char spi_board_text[] =
	"[board]\n"
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
	"max_speed_hz = 8000000\n";

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

struct spi_sampler {
	struct emub *eb;
	volatile int stop;
	int n;
	struct { double wall; uint64_t bytes, wire_ns, busy_ns; } s[MAX_SAMPLES];
};

static void *spi_sampler_main(void *arg)
{
	struct spi_sampler *sm = arg;
	struct emub_spi_stats st;

	while (!sm->stop && sm->n < MAX_SAMPLES) {
		emub_spi_stats(sm->eb, 1, &st);
		sm->s[sm->n].wall = now_s();
		sm->s[sm->n].bytes = st.bytes;
		sm->s[sm->n].wire_ns = st.wire_ns;
		sm->s[sm->n].busy_ns = st.busy_ns;
		sm->n++;
		usleep(SAMPLE_US);
	}
	return NULL;
}

static void bench_flash_spi(const char *build, const char *dir)
{
	struct spi_sampler *sm = calloc(1, sizeof(*sm));
	struct mxt_img_header h = { 0xa2, 0x06, 0x30, 0x10, 0, 0 };
	uint16_t per_frame = FRAME_BYTES - MXT_IMG_FRAME_OVERHEAD;
	size_t cap = mxt_img_size(IMAGE_BYTES, per_frame), len;
	uint8_t *img = malloc(cap);
	char path[600], bin[512], confenv[700], conf[600], err[512], cmd[1600];
	const char *argv[] = { bin, "flash", "--firmware", path, "spi1.0", NULL };
	const char *env[] = { confenv, NULL };
	struct emub_spi_stats s0, s1;
	struct emub_child *child;
	struct emub *eb;
	pthread_t thr;
	int first = -1, last = -1, i, st, rc;
	double t0, wall;
	FILE *f;

	len = mxt_img_build(&h, NULL, IMAGE_BYTES, per_frame, img, cap);
	snprintf(path, sizeof(path), "%s/bench-spi.fw", dir);
	f = fopen(path, "wb");
	if (!f || fwrite(img, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
	free(img);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/spiboards' && printf '%%s' '%s' | "
		 "dtc -q -I dts -O dtb -o '%s/spiboards/spi.dtb' -", dir, spi_profile, dir);
	if (system(cmd) != 0) {
		fprintf(stderr, "dtc failed on the spi profile\n");
		exit(1);
	}
	snprintf(conf, sizeof(conf), "%s/spi.conf", dir);
	f = fopen(conf, "w");
	fprintf(f, "[touchfw]\nhandoff = fork\nsignatures = off\n"
		"[paths]\nstate_dir = %s/state\npersist_dir = %s/persist\n"
		"db_dir = %s/db\nboards_dirs = %s/spiboards\ncmdline = %s/cmdline\n",
		dir, dir, dir, dir, dir);
	fclose(f);
	snprintf(bin, sizeof(bin), "%s/touchfw", build);
	snprintf(confenv, sizeof(confenv), "TOUCHFW_CONFIG=%s", conf);
	if (emub_new_from_string(spi_board_text, dir, &eb, err, sizeof(err)) < 0 ||
	    emub_start(eb) < 0) {
		fprintf(stderr, "spi board: %s\n", err);
		exit(1);
	}
	emub_spi_stats(eb, 1, &s0);
	sm->eb = eb;
	pthread_create(&thr, NULL, spi_sampler_main, sm);
	t0 = now_s();
	if (emub_spawn(eb, argv, env, true, &child) < 0 ||
	    emub_child_wait(child, 600000, &st) < 0) {
		fprintf(stderr, "touchfw flash (spi) did not finish\n");
		exit(1);
	}
	wall = now_s() - t0;
	sm->stop = 1;
	pthread_join(thr, NULL);
	rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
	emub_spi_stats(eb, 1, &s1);
	if (rc != 0) {
		fprintf(stderr, "touchfw flash (spi) failed (%d):\n%s\n", rc,
			emub_child_stderr(child));
		exit(1);
	}
	if (getenv("BENCH_VERBOSE"))
		fprintf(stderr, "%s", emub_child_stderr(child));
	printf("\nflash over spi: %zu-byte image, frames of %d bytes, 8 MHz, mode 3, real-time\n"
	       "pacing, spidev bufsiz 4096, driver mchp_spi_ts let go and bound again:\n",
	       len, FRAME_BYTES);
	printf("  bytes clocked per image byte               %5.3f\n",
	       (double)(s1.bytes - s0.bytes) / (double)len);
	for (i = 0; i < sm->n; i++) {
		uint64_t b = sm->s[i].bytes - s0.bytes;

		if (first < 0 && b >= 2 * FRAME_BYTES)
			first = i;
		if (b + FRAME_BYTES <= len)
			last = i + 1;
	}
	if (first >= 0 && last > first && last < sm->n) {
		double pw = sm->s[last].wall - sm->s[first].wall;
		double pm = (double)(sm->s[last].wire_ns - sm->s[first].wire_ns +
				     sm->s[last].busy_ns - sm->s[first].busy_ns) / 1e9;

		printf("  flashing: wall / modelled bus + device     %5.3f     (goal <= 1.10; %.2f s / %.2f s)\n",
		       pw / pm, pw, pm);
	}
	printf("  whole command: wall                        %.2f s\n", wall);
	emub_child_free(child);
	emub_free(eb);
	free(sm);
}

int main(int argc, char **argv)
{
	const char *build = getenv("TOUCHFW_BUILD");
	char dir[] = "/tmp/touchfw-bench-XXXXXX", conf[300], sub[400];
	bool only_he = argc > 1 && !strcmp(argv[1], "--handle-event");
	FILE *f;

	if (!build)
		build = "build";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(conf, sizeof(conf), "%s/touchfw.conf", dir);
	f = fopen(conf, "w");
	fprintf(f,
		"[touchfw]\nhandoff = fork\nsignatures = off\n"
		"[paths]\nstate_dir = %s/state\npersist_dir = %s/persist\n"
		"db_dir = %s/db\nboards_dirs = %s/boards/examples\n"
		"firmware_dirs = %s\ncmdline = %s/cmdline\n",
		dir, dir, dir, build, dir, dir);
	fclose(f);
	snprintf(sub, sizeof(sub), "%s/cmdline", dir);
	f = fopen(sub, "w");
	fputs("quiet\n", f);
	fclose(f);
	{
		/* handle-event: no profile installed for the fast path's sake. */
		char empty[400], conf2[400];
		FILE *g;

		snprintf(empty, sizeof(empty), "%s/noboards", dir);
		mkdir(empty, 0700);
		snprintf(conf2, sizeof(conf2), "%s/he.conf", dir);
		g = fopen(conf2, "w");
		fprintf(g, "[paths]\nstate_dir = %s/state\nboards_dirs = %s\ncmdline = %s/cmdline\n",
			dir, empty, dir);
		fclose(g);
		bench_handle_event(build, conf2);
	}
	if (!only_he) {
		bench_flash(build, dir, conf);
		bench_flash_spi(build, dir);
	}
	snprintf(sub, sizeof(sub), "rm -rf '%s'", dir);
	if (system(sub) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return 0;
}
