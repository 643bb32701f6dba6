// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hand-off from handle-event to the long-running update: systemd unit
 * (sd-bus through dlopen, private socket first), systemctl, or a detached
 * child when systemd is not the init system.
 */
#include "handoff.h"

#include "state.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#if TF_WITH_SYSTEMD
#include <systemd/sd-bus.h>
#endif

const char *tf_handoff_how_name(enum tf_handoff_how how)
{
	switch (how) {
	case TF_HANDED_SYSTEMD_PRIVATE:
		return "systemd (private socket)";
	case TF_HANDED_SYSTEMD_BUS:
		return "systemd (system bus)";
	case TF_HANDED_SYSTEMCTL:
		return "systemctl --no-block";
	case TF_HANDED_FORK:
		return "detached process";
	}
	return "?";
}

int tf_unit_name(const char *prefix, const char *dev, char *buf, size_t size)
{
	size_t n = 0, i;

	/* systemd's unit_name_escape(): keep [A-Za-z0-9:_.], '/' -> '-',
	 * everything else (and a leading '.') as \xNN. */
	if (tf_snprintf(buf, size, "%s", prefix))
		return -ENAMETOOLONG;
	n = strlen(buf);
	for (i = 0; dev[i]; i++) {
		unsigned char c = (unsigned char)dev[i];
		bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9') || c == ':' || c == '_' ||
			    (c == '.' && i > 0);

		if (n + 5 >= size)
			return -ENAMETOOLONG;
		if (c == '/')
			buf[n++] = '-';
		else if (keep)
			buf[n++] = (char)c;
		else {
			buf[n++] = '\\';
			buf[n++] = 'x';
			tf_hex_encode(&c, 1, buf + n);
			n += 2;
		}
	}
	buf[n] = '\0';
	return tf_snprintf(buf + n, size - n, ".service");
}

/* Is systemd the init system (the sd_booted() test)? */
static bool systemd_running(void)
{
	struct stat sb;

	return lstat("/run/systemd/system", &sb) == 0 && S_ISDIR(sb.st_mode);
}

#ifndef TF_BUILDDIR
#error "TF_BUILDDIR: the build directory, absolute (Makefile)"
#endif

bool tf_running_from_build_dir(void)
{
	char self[4096], *slash;
	struct stat here, build;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0 || (size_t)n >= sizeof(self) - 1)
		return false;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return false;
	*(slash == self ? slash + 1 : slash) = '\0';
	return stat(self, &here) == 0 && stat(TF_BUILDDIR, &build) == 0 &&
	       here.st_dev == build.st_dev && here.st_ino == build.st_ino;
}

const char *tf_agent_path(void)
{
	return tf_running_from_build_dir() ? TF_BUILDDIR "/touchfw-agent"
					   : TF_LIBEXECDIR "/touchfw-agent";
}

/*
 * The environment of the detached run: a fixed PATH and the log level,
 * nothing else of udev's (the uevent's variables, whatever a rule set).
 */
static const char *const handoff_passed_env[] = {
	"TOUCHFW_LOG_LEVEL",
};

/*
 * The detached run's environment built from @from into @out (@max slots,
 * NULL-terminated; entries point into @from): PATH=TF_HANDOFF_PATH and
 * TOUCHFW_LOG_LEVEL.  Returns the number of entries.
 */
static size_t handoff_env(char **out, size_t max, char *const *from)
{
	size_t n = 0, i, k;

	if (max < 2)
		return 0;
	out[n++] = (char *)"PATH=" TF_HANDOFF_PATH;
	for (i = 0; from && from[i]; i++)
		for (k = 0; k < TF_ARRAY_SIZE(handoff_passed_env) && n + 1 < max; k++) {
			size_t len = strlen(handoff_passed_env[k]);

			if (!strncmp(from[i], handoff_passed_env[k], len) &&
			    from[i][len] == '=')
				out[n++] = from[i];
		}
	out[n] = NULL;
	return n;
}

#if TF_WITH_SYSTEMD
struct sdbus_api {
	void *h;
	int (*bus_new)(sd_bus **);
	int (*set_address)(sd_bus *, const char *);
	int (*start)(sd_bus *);
	int (*open_system)(sd_bus **);
	int (*call_method)(sd_bus *, const char *, const char *, const char *, const char *,
			   sd_bus_error *, sd_bus_message **, const char *, ...);
	sd_bus *(*flush_close_unref)(sd_bus *);
	sd_bus_message *(*message_unref)(sd_bus_message *);
	void (*error_free)(sd_bus_error *);
};

static int sdbus_load(struct sdbus_api *a)
{
	a->h = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
	if (!a->h)
		return -ENOENT;
	*(void **)&a->bus_new = dlsym(a->h, "sd_bus_new");
	*(void **)&a->set_address = dlsym(a->h, "sd_bus_set_address");
	*(void **)&a->start = dlsym(a->h, "sd_bus_start");
	*(void **)&a->open_system = dlsym(a->h, "sd_bus_open_system");
	*(void **)&a->call_method = dlsym(a->h, "sd_bus_call_method");
	*(void **)&a->flush_close_unref = dlsym(a->h, "sd_bus_flush_close_unref");
	*(void **)&a->message_unref = dlsym(a->h, "sd_bus_message_unref");
	*(void **)&a->error_free = dlsym(a->h, "sd_bus_error_free");
	if (!a->bus_new || !a->set_address || !a->start || !a->open_system || !a->call_method ||
	    !a->flush_close_unref || !a->message_unref || !a->error_free) {
		dlclose(a->h);
		return -ENOSYS;
	}
	return 0;
}

static int start_unit(struct sdbus_api *a, sd_bus *bus, const char *unit, struct tf_err *err)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	int r;

	r = a->call_method(bus, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
			   "org.freedesktop.systemd1.Manager", "StartUnit", &e, &reply, "ss",
			   unit, "replace");
	if (r < 0)
		tf_err_set(err, -r, "StartUnit %s: %s", unit,
			   e.message ? e.message : strerror(-r));
	a->error_free(&e);
	if (reply)
		a->message_unref(reply);
	return r < 0 ? r : 0;
}

static int handoff_sdbus(const char *unit, enum tf_handoff_how *how, struct tf_err *err)
{
	struct sdbus_api a;
	sd_bus *bus = NULL;
	int r;

	r = sdbus_load(&a);
	if (r < 0)
		return tf_err_set(err, -r, "libsystemd.so.0 not usable");
	/* The private socket works before dbus-daemon runs (root only). */
	if (access("/run/systemd/private", F_OK) == 0 && a.bus_new(&bus) >= 0) {
		if (a.set_address(bus, "unix:path=/run/systemd/private") >= 0 &&
		    a.start(bus) >= 0) {
			r = start_unit(&a, bus, unit, err);
			a.flush_close_unref(bus);
			if (r == 0) {
				*how = TF_HANDED_SYSTEMD_PRIVATE;
				dlclose(a.h);
				return 0;
			}
		} else {
			a.flush_close_unref(bus);
		}
		bus = NULL;
	}
	r = a.open_system(&bus);
	if (r >= 0) {
		r = start_unit(&a, bus, unit, err);
		a.flush_close_unref(bus);
		if (r == 0)
			*how = TF_HANDED_SYSTEMD_BUS;
	} else {
		tf_err_set(err, -r, "can not reach systemd: %s", strerror(-r));
	}
	dlclose(a.h);
	return r < 0 ? r : 0;
}
#endif

static int handoff_systemctl(const char *unit, char *const *env, struct tf_err *err)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return tf_err_set(err, errno, "fork: %s", strerror(errno));
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
		}
		/* By its path: $PATH is udev's, or the caller's. */
		char *const argv[] = { (char *)"systemctl", (char *)"--no-block",
				       (char *)"start", (char *)unit, NULL };
		char *envp[8];

		handoff_env(envp, TF_ARRAY_SIZE(envp), env);
		execve("/usr/bin/systemctl", argv, envp);
		execve("/bin/systemctl", argv, envp);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return tf_err_set(err, errno, "waitpid: %s", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return tf_err_set(err, EIO, "systemctl --no-block start %s failed", unit);
	return 0;
}

/*
 * Double fork: the grandchild is re-parented to init and survives the udev
 * worker; it gets its own session, /dev/null for input and a log file in
 * the state directory for output.
 */
static int handoff_fork(const struct tf_settings *s, const char *config_path, const char *dev,
			const char *const *args, char *const *env, struct tf_err *err)
{
	char logname[300];
	const char *agent = tf_agent_path();
	struct tf_state st;
	int pfd[2], status, logfd, r;
	pid_t pid;
	char ok;

	/* The log goes into the checked state directory, never through a
	 * symlink or into a FIFO planted there. */
	if (tf_snprintf(logname, sizeof(logname), "%s.log", dev))
		return tf_err_set(err, ENAMETOOLONG, "%s: device name too long", dev);
	r = tf_state_open(&st, s->state_dir, true, err);
	if (r < 0)
		return r;
	logfd = tf_state_open_file(st.dirfd, st.dir, logname, O_WRONLY | O_CREAT | O_APPEND,
				   err);
	tf_state_close(&st);
	if (logfd < 0)
		return logfd;
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		close(logfd);
		return tf_err_set(err, errno, "pipe: %s", strerror(errno));
	}
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		close(logfd);
		return tf_err_set(err, errno, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		const char *argv[32];
		char *envp[16];
		int null, i = 0, k;
		char fail = 'F';

		close(pfd[0]);
		if (setsid() < 0 || (pid = fork()) < 0) {
			if (write(pfd[1], &fail, 1) < 0)
				_exit(1);
			_exit(1);
		}
		if (pid > 0)
			_exit(0);
		signal(SIGHUP, SIG_IGN);
		null = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (null >= 0)
			dup2(null, STDIN_FILENO);
		if (logfd >= 0) {
			dup2(logfd, STDOUT_FILENO);
			dup2(logfd, STDERR_FILENO);
		}
		argv[i++] = "touchfw";
		if (config_path) {
			argv[i++] = "--config";
			argv[i++] = config_path;
		}
		argv[i++] = "run";
		for (k = 0; args && args[k] && i < 27; k++)
			argv[i++] = args[k];
		argv[i++] = "--"; /* a device name is never an option */
		argv[i++] = dev;
		argv[i] = NULL;
		handoff_env(envp, TF_ARRAY_SIZE(envp), env);
		/* On success the close-on-exec pipe just closes. */
		execve(agent, (char *const *)argv, envp);
		fail = 'E';
		if (write(pfd[1], &fail, 1) < 0)
			_exit(127);
		_exit(127);
	}
	close(pfd[1]);
	close(logfd);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (read(pfd[0], &ok, 1) == 1) {
		close(pfd[0]);
		return tf_err_set(err, EIO, "could not start the detached agent %s", agent);
	}
	close(pfd[0]);
	return 0;
}

int tf_handoff(const struct tf_settings *s, const char *config_path, const char *dev,
	       const char *const *args, char *const *env, enum tf_handoff_how *how,
	       struct tf_err *err)
{
	char unit[256];
	bool systemd = s->handoff == TF_HANDOFF_SYSTEMD ||
		       (s->handoff == TF_HANDOFF_AUTO && systemd_running());
	int r;

	if (!systemd) {
		r = handoff_fork(s, config_path, dev, args, env, err);
		if (r == 0)
			*how = TF_HANDED_FORK;
		return r;
	}
	r = tf_unit_name(s->agent_unit, dev, unit, sizeof(unit));
	if (r < 0)
		return tf_err_set(err, -r, "%s: unit name too long", dev);
#if TF_WITH_SYSTEMD
	if (handoff_sdbus(unit, how, err) == 0)
		return 0;
#endif
	r = handoff_systemctl(unit, env, err);
	if (r == 0)
		*how = TF_HANDED_SYSTEMCTL;
	return r;
}
