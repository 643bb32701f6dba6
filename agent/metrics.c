// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * touchfw's results as Prometheus metrics (metrics.h): one record per
 * device in the state directory, the text made from all of them.
 */
#include "metrics.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "exitcode.h"
#include "fs.h"

#define MAX_DEVICES 64
#define SUFFIX ".metrics"

struct rec {
	char dev[64];
	char family[48];
	char version[48], config_version[48];
	char firmware_id[64], config_id[64];
	unsigned long long time, duration_ms;
	int exit_code;
	unsigned attempts;
	bool gave_up;
};

int tf_metrics_record(struct tf_state *st, const char *dev, const char *family,
		      const struct tf_flow_result *r, struct tf_err *err)
{
	char name[160], *text = NULL;
	const char *ver = r->version_after[0] ? r->version_after : r->version_before;
	const char *cver = r->config_version_after[0] ? r->config_version_after
						      : r->config_version_before;
	int n, rc;

	if (tf_snprintf(name, sizeof(name), "%s%s", dev, SUFFIX) || strchr(dev, '/'))
		return tf_err_set(err, EINVAL, "%s: not a device name", dev);
	n = asprintf(&text,
		     "family=%s\ntime=%llu\nexit_code=%d\nduration_ms=%llu\nversion=%s\n"
		     "config_version=%s\nfirmware_id=%s\nconfig_id=%s\n",
		     family ? family : "", (unsigned long long)time(NULL), r->exit_code,
		     r->duration_ms, ver, cver, r->fw_id, r->cfg_id);
	if (n < 0)
		return tf_err_set(err, ENOMEM, "%s/%s: out of memory", st->dir, name);
	rc = tf_replace_at(st->dirfd, st->dir, name, text, (size_t)n, 0600, err);
	free(text);
	return rc;
}

static void field(char *dst, size_t size, const char *v)
{
	tf_snprintf(dst, size, "%s", v);
}

/* A record's text into @r (unknown keys are skipped: a newer touchfw's). */
static void parse_rec(char *text, struct rec *r)
{
	char *line, *save = NULL;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *v = strchr(line, '=');

		if (!v)
			continue;
		*v++ = '\0';
		if (!strcmp(line, "family"))
			field(r->family, sizeof(r->family), v);
		else if (!strcmp(line, "time"))
			r->time = strtoull(v, NULL, 10);
		else if (!strcmp(line, "exit_code"))
			r->exit_code = atoi(v);
		else if (!strcmp(line, "duration_ms"))
			r->duration_ms = strtoull(v, NULL, 10);
		else if (!strcmp(line, "version"))
			field(r->version, sizeof(r->version), v);
		else if (!strcmp(line, "config_version"))
			field(r->config_version, sizeof(r->config_version), v);
		else if (!strcmp(line, "firmware_id"))
			field(r->firmware_id, sizeof(r->firmware_id), v);
		else if (!strcmp(line, "config_id"))
			field(r->config_id, sizeof(r->config_id), v);
	}
}

static int by_dev(const void *a, const void *b)
{
	return strcmp(((const struct rec *)a)->dev, ((const struct rec *)b)->dev);
}

/* Every device's record in @st, sorted by device: the count. */
static int read_recs(struct tf_state *st, unsigned max_attempts, struct rec *recs, int max)
{
	int fd = dup(st->dirfd), n = 0;
	DIR *d;
	struct dirent *e;

	if (fd < 0)
		return 0;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return 0;
	}
	rewinddir(d);
	while ((e = readdir(d)) && n < max) {
		size_t len = strlen(e->d_name), sl = strlen(SUFFIX);
		struct rec *r = &recs[n];
		struct tf_attempts a = { 0 };
		struct tf_err aerr = { 0 };
		char *text = NULL;
		size_t tlen;

		if (e->d_name[0] == '.' || len <= sl || strcmp(e->d_name + len - sl, SUFFIX) ||
		    len - sl >= sizeof(r->dev))
			continue;
		memset(r, 0, sizeof(*r));
		memcpy(r->dev, e->d_name, len - sl);
		r->dev[len - sl] = '\0';
		if (tf_read_file_at(st->dirfd, e->d_name, 4096, &text, &tlen) < 0)
			continue;
		parse_rec(text, r);
		free(text);
		/* Corrupt attempts read as at the limit, as status says. */
		tf_state_read_attempts(st, r->dev, &a, &aerr);
		r->attempts = a.count;
		r->gave_up = a.count >= max_attempts;
		n++;
	}
	closedir(d);
	qsort(recs, (size_t)n, sizeof(*recs), by_dev);
	return n;
}

void tf_metrics_label_escape(const char *v, char *out, size_t size)
{
	size_t k = 0;

	for (; *v && k + 3 < size; v++) {
		if (*v == '\\' || *v == '"') {
			out[k++] = '\\';
			out[k++] = *v;
		} else if (*v == '\n') {
			out[k++] = '\\';
			out[k++] = 'n';
		} else {
			out[k++] = *v;
		}
	}
	out[k] = '\0';
}

static void head(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* device="...",family="..." */
static void base(FILE *f, const struct rec *r)
{
	char d[160], fam[112];

	tf_metrics_label_escape(r->dev, d, sizeof(d));
	tf_metrics_label_escape(r->family, fam, sizeof(fam));
	fprintf(f, "device=\"%s\",family=\"%s\"", d, fam);
}

static void text_of(FILE *f, const struct rec *recs, int n)
{
	int i;

	head(f, "touchfw_last_run_timestamp_seconds", "gauge",
	     "When touchfw last recorded a run for the device (Unix time).");
	for (i = 0; i < n; i++) {
		fputs("touchfw_last_run_timestamp_seconds{", f);
		base(f, &recs[i]);
		fprintf(f, "} %llu\n", recs[i].time);
	}
	head(f, "touchfw_last_run_result", "gauge",
	     "The last run's result: 1 with state the name of its exit status (touchfw(8)).");
	for (i = 0; i < n; i++) {
		fputs("touchfw_last_run_result{", f);
		base(f, &recs[i]);
		fprintf(f, ",state=\"%s\"} 1\n", tf_exit_name(recs[i].exit_code));
	}
	head(f, "touchfw_last_run_exit_code", "gauge", "The last run's exit status.");
	for (i = 0; i < n; i++) {
		fputs("touchfw_last_run_exit_code{", f);
		base(f, &recs[i]);
		fprintf(f, "} %d\n", recs[i].exit_code);
	}
	head(f, "touchfw_last_run_duration_seconds", "gauge", "How long the last run took.");
	for (i = 0; i < n; i++) {
		fputs("touchfw_last_run_duration_seconds{", f);
		base(f, &recs[i]);
		fprintf(f, "} %llu.%03llu\n", recs[i].duration_ms / 1000,
			recs[i].duration_ms % 1000);
	}
	head(f, "touchfw_firmware_info", "gauge",
	     "The firmware and configuration the chip ran at the last run's end, as labels.");
	for (i = 0; i < n; i++) {
		char v[112], cv[112], fw[144], cfg[144];

		tf_metrics_label_escape(recs[i].version, v, sizeof(v));
		tf_metrics_label_escape(recs[i].config_version, cv, sizeof(cv));
		tf_metrics_label_escape(recs[i].firmware_id, fw, sizeof(fw));
		tf_metrics_label_escape(recs[i].config_id, cfg, sizeof(cfg));
		fputs("touchfw_firmware_info{", f);
		base(f, &recs[i]);
		fprintf(f,
			",version=\"%s\",config_version=\"%s\",firmware_id=\"%s\",config_id=\"%s\"} 1\n",
			v, cv, fw, cfg);
	}
	head(f, "touchfw_failed_attempts", "gauge",
	     "Failed runs since the device's last success ('touchfw forget' clears them).");
	for (i = 0; i < n; i++) {
		fputs("touchfw_failed_attempts{", f);
		base(f, &recs[i]);
		fprintf(f, "} %u\n", recs[i].attempts);
	}
	head(f, "touchfw_gave_up", "gauge",
	     "1 when max_attempts is reached: no run acts until 'touchfw run --force'.");
	for (i = 0; i < n; i++) {
		fputs("touchfw_gave_up{", f);
		base(f, &recs[i]);
		fprintf(f, "} %d\n", recs[i].gave_up ? 1 : 0);
	}
}

int tf_metrics_text(const struct tf_settings *s, char **text, struct tf_err *err)
{
	struct tf_state st;
	struct rec *recs = calloc(MAX_DEVICES, sizeof(*recs));
	size_t len = 0;
	FILE *f;
	int n = 0;

	*text = NULL;
	if (!recs)
		return tf_err_set(err, ENOMEM, "out of memory");
	if (tf_state_open(&st, s->state_dir, false, NULL) == 0) {
		n = read_recs(&st, s->max_attempts, recs, MAX_DEVICES);
		tf_state_close(&st);
	} else if (access(s->state_dir, F_OK) == 0) {
		free(recs);
		/* exists but can not be trusted or read: say so, not "no devices" */
		return tf_state_open(&st, s->state_dir, false, err);
	}
	f = open_memstream(text, &len);
	if (!f) {
		free(recs);
		return tf_err_set(err, errno, "out of memory");
	}
	text_of(f, recs, n);
	free(recs);
	if (fclose(f) != 0) {
		free(*text);
		*text = NULL;
		return tf_err_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

int tf_metrics_publish(const struct tf_settings *s, struct tf_err *err)
{
	_cleanup_close_ int lock = -1;
	char *text = NULL;
	int rc;

	if (!s->prometheus_dir[0])
		return 0;
	/* Runs of two devices at once: each writes the text of both records,
	 * one after the other, so the last rename holds both. */
	lock = open(s->state_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lock >= 0)
		(void)flock(lock, LOCK_EX);
	rc = tf_metrics_text(s, &text, err);
	if (rc < 0)
		return rc;
	rc = tf_replace_file(s->prometheus_dir, TF_METRICS_FILE, text, strlen(text), 0644, err);
	free(text);
	return rc;
}
