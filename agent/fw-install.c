// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A persistent copy of a firmware file for the kernel's loader, recorded
 * so that touchfw replaces or removes only what it wrote (fw-install.h).
 */
#include "fw-install.h"

#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "device.h"
#include "fs.h"
#include "settings.h"
#include "state.h"

#define REC_DIR "installed"
#define MAX_FILE (64u << 20)

struct rec {
	char path[512];
	char sha[65];
};

/* A firmware_dirs entry with %r expanded (device-stage.c does the same). */
static void expand_release(const char *in, char *out, size_t size)
{
	struct utsname u;
	const char *p = strstr(in, "%r");

	if (!p || uname(&u) < 0) {
		tf_snprintf(out, size, "%s", in);
		return;
	}
	tf_snprintf(out, size, "%.*s%s%s", (int)(p - in), in, u.release, p + 2);
}

/* The SHA-256 of @path's bytes as hex; -ENOENT when there is no file,
 * -ELOOP for a symbolic link, -EINVAL for no regular file. */
static int file_sha(const char *path, char hex[65])
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	uint8_t sha[crypto_hash_sha256_BYTES];
	struct stat sb;
	char *buf = NULL;
	size_t len = 0;
	int r;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) < 0)
		return -errno;
	if (!S_ISREG(sb.st_mode))
		return -EINVAL;
	r = tf_read_fd(fd, MAX_FILE, &buf, &len);
	if (r < 0)
		return r;
	crypto_hash_sha256(sha, (const uint8_t *)buf, len);
	free(buf);
	tf_hex_encode(sha, sizeof(sha), hex);
	return 0;
}

/* The persistent directory's installed/, opened (and made with @create). */
static int rec_dir(const char *persist_dir, bool create, char *dir, size_t size,
		   struct tf_err *err)
{
	struct tf_state ps = { .dirfd = -1 };
	int fd;

	if (tf_state_open(&ps, persist_dir, create, err) < 0)
		return err->code ? -err->code : -EIO;
	fd = tf_state_subdir(ps.dirfd, ps.dir, REC_DIR, create, err);
	tf_state_close(&ps);
	tf_snprintf(dir, size, "%s/%s", persist_dir, REC_DIR);
	return fd;
}

/* "key = value" of @key in @text into @out ("" when absent). */
static void rec_value(const char *text, const char *key, char *out, size_t size)
{
	size_t kl = strlen(key);
	const char *p = text;

	out[0] = '\0';
	while (p && *p) {
		if (!strncmp(p, key, kl) && !strncmp(p + kl, " = ", 3)) {
			tf_snprintf(out, size, "%.*s", (int)strcspn(p + kl + 3, "\n"),
				    p + kl + 3);
			return;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
}

/* @dev's record: 0, -ENOENT, or -errno. */
static int rec_read(const char *persist_dir, const char *dev, struct rec *rec)
{
	struct tf_err err = { 0 };
	char dir[300], *text = NULL;
	_cleanup_close_ int dfd = rec_dir(persist_dir, false, dir, sizeof(dir), &err);
	int r;

	memset(rec, 0, sizeof(*rec));
	if (dfd < 0)
		return dfd == -ENOENT || err.code == ENOENT ? -ENOENT : dfd;
	r = tf_read_file_at(dfd, dev, 4096, &text, NULL);
	if (r < 0)
		return r;
	rec_value(text, "path", rec->path, sizeof(rec->path));
	rec_value(text, "sha256", rec->sha, sizeof(rec->sha));
	free(text);
	return rec->path[0] && strlen(rec->sha) == 64 ? 0 : -EBADMSG;
}

/* mkdir -p @path (0755). */
static int make_dirs(const char *path)
{
	char buf[512];
	size_t i;

	if (tf_snprintf(buf, sizeof(buf), "%s", path))
		return -ENAMETOOLONG;
	for (i = 1; buf[i]; i++) {
		if (buf[i] != '/')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -errno;
		buf[i] = '/';
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int tf_fw_install(const struct tf_settings *s, const char *dev, const char *name,
		  const char *id, const uint8_t *data, size_t len, bool force, char *msg,
		  size_t msg_size, struct tf_err *err)
{
	uint8_t sha[crypto_hash_sha256_BYTES];
	char want[65], have[65], base_dir[256], path[512], dir[512], rdir[300], found[512];
	char text[800];
	const char *base;
	struct rec rec;
	bool ours, have_rec, already = false;
	unsigned i;
	int r, had, dfd, rfd;

	msg[0] = '\0';
	crypto_hash_sha256(sha, data, len);
	tf_hex_encode(sha, sizeof(sha), want);
	/* the first of the loader's directories that outlives a kernel update */
	base_dir[0] = '\0';
	for (i = 0; i < s->n_firmware_dirs && !base_dir[0]; i++)
		if (!strstr(s->firmware_dirs[i], "%r"))
			tf_snprintf(base_dir, sizeof(base_dir), "%s", s->firmware_dirs[i]);
	if (!base_dir[0] && s->n_firmware_dirs)
		expand_release(s->firmware_dirs[0], base_dir, sizeof(base_dir));
	if (!base_dir[0])
		return tf_err_set(err, ENOENT, "no firmware_dirs in the settings");
	/* a name the loader takes below its directory, nothing above it */
	if (name[0] == '/' || !strcmp(name, "..") || !strncmp(name, "../", 3) ||
	    strstr(name, "/../") ||
	    (strlen(name) >= 3 && !strcmp(name + strlen(name) - 3, "/..")))
		return tf_err_set(err, EINVAL,
				  "'%s': not a file name below the loader's directory", name);
	if (tf_snprintf(path, sizeof(path), "%s/%s", base_dir, name))
		return tf_err_set(err, ENAMETOOLONG, "%s/%s: path too long", base_dir, name);
	base = strrchr(path, '/') + 1;
	tf_snprintf(dir, sizeof(dir), "%.*s", (int)(base - 1 - path), path);
	have_rec = rec_read(s->persist_dir, dev, &rec) == 0;
	r = had = file_sha(path, have);
	ours = have_rec && r == 0 && !strcmp(rec.path, path) && !strcmp(rec.sha, have);
	if (r == 0 && !strcmp(have, want)) {
		already = true;
		snprintf(msg, msg_size, "%s holds %s already: a resume's reload finds it", path,
			 id);
	} else if ((r == 0 || r == -ELOOP || r == -EINVAL) && !ours && !force) {
		snprintf(msg, msg_size,
			 "%s exists and touchfw did not write it (%s): left alone, so a "
			 "resume that reloads the firmware, and a probe without touchfw, "
			 "load that file, not %s; 'touchfw run --force %s' replaces it",
			 path,
			 r == -ELOOP	? "a symbolic link"
			 : r == -EINVAL ? "not a regular file"
			 : have_rec	? "other bytes than touchfw recorded"
					: "touchfw has no record of it",
			 id, dev);
		return 1;
	} else if (r < 0 && r != -ENOENT && r != -ELOOP && r != -EINVAL) {
		return tf_err_set(err, -r, "%s: %s", path, strerror(-r));
	}
	if (!already) {
		r = make_dirs(dir);
		if (r < 0)
			return tf_err_set(err, -r, "%s: %s", dir, strerror(-r));
		dfd = tf_dir_open(dir, err);
		if (dfd < 0)
			return dfd;
		/* a temporary name, renamed over the file: the loader sees the
		 * old file or the new, never a part */
		r = tf_replace_at(dfd, dir, base, data, len, 0644, err);
		close(dfd);
		if (r < 0)
			return r;
		snprintf(msg, msg_size,
			 "installed %s as %s%s, where the loader finds it at a resume and "
			 "every probe ('touchfw forget %s' removes it)",
			 id, path,
			 ours || had == -ENOENT
				 ? ""
				 : " over a file touchfw did not write (--force)",
			 dev);
	}
	/* an older install of touchfw's elsewhere goes, if it still holds
	 * what was recorded */
	if (have_rec && strcmp(rec.path, path) && file_sha(rec.path, have) == 0 &&
	    !strcmp(have, rec.sha))
		unlink(rec.path);
	rfd = rec_dir(s->persist_dir, !already || ours, rdir, sizeof(rdir), err);
	if (rfd < 0 && (!already || ours)) {
		size_t n = strlen(msg);

		snprintf(msg + n, msg_size - n, "; but its record failed: %s", err->msg);
		return 1;
	}
	if (!already || ours) {
		/* the record: what touchfw wrote there */
		snprintf(text, sizeof(text), "path = %s\nsha256 = %s\nblob = %s\n", path, want,
			 id);
		r = tf_replace_at(rfd, rdir, dev, text, strlen(text), 0644, err);
		close(rfd);
		if (r < 0) {
			size_t n = strlen(msg);

			/* the file is there; only 'forget' will not know it */
			snprintf(msg + n, msg_size - n, "; but its record failed: %s",
				 err->msg);
			return 1;
		}
	} else if (rfd >= 0) {
		/* bytes touchfw did not write stay unrecorded */
		unlinkat(rfd, dev, 0);
		close(rfd);
	}
	/* what the loader finds first, with firmware_class.path as it is now */
	if (tf_firmware_find(s->firmware_dirs, s->n_firmware_dirs, s->firmware_class_path, name,
			     found, sizeof(found)) == 0 &&
	    strcmp(found, path) && (file_sha(found, have) < 0 || strcmp(have, want))) {
		size_t n = strlen(msg);

		snprintf(msg + n, msg_size - n,
			 "; but the loader finds %s first, which is not %s: a resume loads "
			 "that one",
			 found, id);
		return 1;
	}
	return 0;
}

int tf_fw_install_forget(const char *persist_dir, const char *dev, char *msg, size_t msg_size)
{
	struct tf_err err = { 0 };
	struct rec rec;
	char have[65], dir[300];
	int r = rec_read(persist_dir, dev, &rec), dfd, removed = 0;

	msg[0] = '\0';
	if (r == -ENOENT)
		return 0;
	if (r == 0) {
		r = file_sha(rec.path, have);
		if (r == 0 && !strcmp(have, rec.sha)) {
			if (unlink(rec.path) < 0) {
				snprintf(msg, msg_size, "%s: can not remove it: %s", rec.path,
					 strerror(errno));
				return -errno;
			}
			snprintf(msg, msg_size, "the firmware file touchfw installed, %s",
				 rec.path);
			removed = 1;
		} else if (r == 0) {
			snprintf(msg, msg_size,
				 "the record of %s (its bytes changed since touchfw wrote it: "
				 "the file is left)",
				 rec.path);
		} else {
			snprintf(msg, msg_size, "the record of %s (no longer there)", rec.path);
		}
	} else {
		snprintf(msg, msg_size, "an unreadable record of an installed firmware file");
	}
	dfd = rec_dir(persist_dir, false, dir, sizeof(dir), &err);
	if (dfd >= 0) {
		unlinkat(dfd, dev, 0);
		close(dfd);
	}
	return removed;
}
