// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fleet monitoring for real (issue 26 item 10): a run on an emulated
 * maXTouch board with prometheus_dir set writes touchfw.prom there (by
 * temporary file and rename), `touchfw status --prometheus` prints the
 * same text, and Debian's prometheus-node-exporter, started on a free
 * localhost port with its textfile collector on that directory, serves the
 * touchfw metrics with node_textfile_scrape_error 0 -- the exporter's own
 * parser is the judge of the format.  Without the package the exporter
 * part is skipped, saying so (make deps installs it).
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>

#include "e2e.h"
#include "exitcode.h"

#define DEV "1-004a"
#define EXPORTER "/usr/bin/prometheus-node-exporter"

static struct e2e E;
static pid_t exporter = -1;

static int teardown(void **state)
{
	(void)state;
	if (exporter > 0) {
		kill(exporter, SIGTERM);
		waitpid(exporter, NULL, 0);
		exporter = -1;
	}
	e2e_stop(&E);
	return 0;
}

/* The board, and settings whose [paths] end with prometheus_dir = @dir
 * (mode @mode), made under E.dir. */
static char *start(const char *state, const char *fw, mode_t mode)
{
	char *b = e2e_board("touchfw,emul-demo", "mxt224e", state, fw, "driver", NULL);
	char *dir = NULL, *line = NULL;
	FILE *f;

	assert_non_null(b);
	e2e_prepare(&E, b, NULL);
	free(b);
	assert_true(asprintf(&dir, "%s/textfile", E.dir) > 0);
	e2e_keep(&E, dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(chmod(dir, mode), 0);
	f = fopen(E.conf, "a");
	assert_non_null(f);
	assert_true(asprintf(&line, "prometheus_dir = %s\n", dir) > 0);
	fputs(line, f);
	free(line);
	fclose(f);
	e2e_go(&E);
	return dir;
}

static char *read_text(const char *path)
{
	char *buf = NULL;

	if (tf_read_file(path, 1 << 20, &buf, NULL) < 0)
		fail_msg("can not read %s", path);
	return buf;
}

/* A line of @text starting with @prefix and holding each of the NULL-ended
 * strings after it. */
static bool has_line(const char *text, const char *prefix, ...)
{
	const char *p = text;

	while (p && *p) {
		size_t n = strcspn(p, "\n");

		if (!strncmp(p, prefix, strlen(prefix))) {
			char *line = strndup(p, n);
			bool all = true;
			const char *s;
			va_list ap;

			va_start(ap, prefix);
			while ((s = va_arg(ap, const char *)))
				if (!strstr(line, s))
					all = false;
			va_end(ap);
			free(line);
			if (all)
				return true;
		}
		p += n;
		if (*p)
			p++;
	}
	return false;
}

static unsigned files_in(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static void test_run_writes_the_textfile_status_prints_it(void **state)
{
	char *dir, path[400], *text;

	(void)state;
	dir = start("app", "1.0.AA", 0755);
	e2e_expect(&E, 0, "run", DEV);
	snprintf(path, sizeof(path), "%s/touchfw.prom", dir);
	text = e2e_keep(&E, read_text(path));
	/* the rename left nothing else behind */
	assert_int_equal(files_in(dir), 1);
	if (!has_line(text, "touchfw_last_run_result{", "device=\"" DEV "\"", "family=\"mxt\"",
		      "state=\"ok\"} 1", NULL) ||
	    !has_line(text, "touchfw_firmware_info{", "device=\"" DEV "\"",
		      "version=\"2.1.AB\"", "} 1", NULL) ||
	    !has_line(text, "touchfw_last_run_exit_code{", "} 0", NULL) ||
	    !has_line(text, "touchfw_failed_attempts{", "} 0", NULL) ||
	    !has_line(text, "# TYPE touchfw_last_run_timestamp_seconds gauge", NULL))
		fail_msg("touchfw.prom lacks the run's metrics:\n%s", text);
	e2e_expect(&E, 0, "status", "--prometheus");
	assert_string_equal(E.out, text);
	e2e_expect(&E, TF_EXIT_USAGE, "status", "--prometheus", DEV);
	e2e_expect(&E, TF_EXIT_USAGE, "probe", "--prometheus");
}

static void test_unsafe_textfile_directory_is_refused_the_run_stands(void **state)
{
	char *dir;

	(void)state;
	dir = start("app", "1.0.AA", 0777);
	e2e_expect(&E, 0, "run", DEV);
	e2e_said(&E, "metrics for Prometheus not written: ");
	e2e_said(&E, dir);
	assert_int_equal(files_in(dir), 0);
}

static void test_status_prometheus_without_runs_gives_the_headers(void **state)
{
	(void)state;
	start("app", "2.1.AB", 0755);
	e2e_expect(&E, 0, "status", "--prometheus");
	assert_non_null(strstr(E.out, "# TYPE touchfw_last_run_result gauge\n"));
	assert_null(strstr(E.out, "touchfw_last_run_result{"));
}

/* A localhost port nobody listens on now. */
static int free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), port;

	assert_true(fd >= 0);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	port = ntohs(a.sin_port);
	close(fd);
	return port;
}

/* GET /metrics from 127.0.0.1:@port: the body, or NULL while nothing
 * answers. */
static char *get_metrics(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	const char req[] = "GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n";
	char *buf = NULL, *body;
	size_t len = 0;
	FILE *m;
	char chunk[4096];
	ssize_t n;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    write(fd, req, sizeof(req) - 1) != (ssize_t)sizeof(req) - 1) {
		close(fd);
		return NULL;
	}
	m = open_memstream(&buf, &len);
	assert_non_null(m);
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		fwrite(chunk, 1, (size_t)n, m);
	fclose(m);
	close(fd);
	body = buf ? strstr(buf, "\r\n\r\n") : NULL;
	if (!buf || strncmp(buf, "HTTP/1.", 7) || !strstr(buf, " 200 ") || !body) {
		free(buf);
		return NULL;
	}
	memmove(buf, body + 4, strlen(body + 4) + 1);
	return buf;
}

static void test_node_exporter_scrapes_the_textfile(void **state)
{
	char *dir, listen[64], coll[480], *metrics = NULL;
	long long until;
	int port;

	(void)state;
	if (access(EXPORTER, X_OK) != 0)
		skip(); /* no prometheus-node-exporter: make deps installs it */
	dir = start("app", "1.0.AA", 0755);
	e2e_expect(&E, 0, "run", DEV);

	port = free_port();
	snprintf(listen, sizeof(listen), "--web.listen-address=127.0.0.1:%d", port);
	snprintf(coll, sizeof(coll), "--collector.textfile.directory=%s", dir);
	exporter = fork();
	assert_true(exporter >= 0);
	if (exporter == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (!getenv("E2E_VERBOSE") && null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execl(EXPORTER, EXPORTER, "--collector.disable-defaults",
		      "--collector.textfile", coll, listen, (char *)NULL);
		_exit(127);
	}
	/* it serves once it listens: try until then, 20 s at most */
	until = e2e_now_ms() + 20000;
	while (!(metrics = get_metrics(port))) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };

		if (waitpid(exporter, NULL, WNOHANG) == exporter) {
			exporter = -1;
			fail_msg("%s ended before serving /metrics on port %d", EXPORTER, port);
		}
		if (e2e_now_ms() > until)
			fail_msg("%s did not serve /metrics on port %d within 20 s", EXPORTER,
				 port);
		nanosleep(&ts, NULL);
	}
	e2e_keep(&E, metrics);
	if (!has_line(metrics, "node_textfile_scrape_error 0", NULL) ||
	    !has_line(metrics, "touchfw_last_run_result{", "device=\"" DEV "\"",
		      "family=\"mxt\"", "state=\"ok\"", "} 1", NULL) ||
	    !has_line(metrics, "touchfw_firmware_info{", "version=\"2.1.AB\"", "} 1", NULL) ||
	    !has_line(metrics, "touchfw_last_run_exit_code{", "} 0", NULL) ||
	    !has_line(metrics, "touchfw_last_run_timestamp_seconds{", "device=\"" DEV "\"",
		      NULL) ||
	    !has_line(metrics, "touchfw_gave_up{", "} 0", NULL) ||
	    !has_line(metrics, "node_textfile_mtime_seconds{", "touchfw.prom", NULL))
		fail_msg("node_exporter's /metrics lacks touchfw's metrics or could not "
			 "parse them:\n%s",
			 metrics);
	if (getenv("E2E_VERBOSE"))
		fprintf(stderr, "%s", metrics);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_run_writes_the_textfile_status_prints_it,
					  teardown),
		cmocka_unit_test_teardown(
			test_unsafe_textfile_directory_is_refused_the_run_stands, teardown),
		cmocka_unit_test_teardown(test_status_prometheus_without_runs_gives_the_headers,
					  teardown),
		cmocka_unit_test_teardown(test_node_exporter_scrapes_the_textfile, teardown),
	};

	e2e_test_filter();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
