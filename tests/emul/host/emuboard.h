/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * emuboard: an emulated board on umockdev.  It gives unmodified programs
 * (touchfw, i2c-tools, libgpiod tools, udev listeners) a fake /sys and /dev
 * with i2c adapters whose i2c-dev nodes behave like drivers/i2c/i2c-dev.c,
 * chips behind them (the families' freestanding models, tests/emul/family/
 * <name>/model), models of the kernel drivers bound to those chips (driver
 * core bind/unbind, the families' drivers), the uevents the kernel would
 * send, an emulated gpiochip and a GPIO socket for touchfw's "emul" GPIO
 * backend.  Each family's own calls (its chip model under emub_lock, its
 * faults, touches) are in its folder's emub-<name>.h.
 *
 * Threads: the library runs a service thread (inotify on sysfs files, the
 * GPIO socket), one worker per bound device (the driver model, written as
 * sequential code like the kernel's), a pacing thread in realtime mode and
 * umockdev's own ioctl thread.  Every function here is safe to call from the
 * test program's main thread while those run.
 *
 * Errors: functions return 0 or a negative errno; creation functions also
 * fill a message buffer.
 */
#ifndef EMUBOARD_H
#define EMUBOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct emub;
struct emub_child;

/* ------------------------------------------------------------ lifecycle */

/*
 * Parse a board description (GKeyFile syntax, see tests/emul/README.md).
 * Relative paths in it (firmware_dirs) are taken relative to the file's
 * directory, or to @base_dir for a string (NULL = current directory).
 */
int emub_new_from_file(const char *path, struct emub **out, char *err, size_t errsz);
int emub_new_from_string(const char *text, const char *base_dir, struct emub **out, char *err,
			 size_t errsz);

/*
 * The board text (an ordinary board file) of a touchfw board profile, a
 * compiled .dtb (host/profile.c): g_free() it; NULL with the message in
 * @err, naming the profile node and property it can not model.
 */
struct emub_profile_opts {
	const char *const *hardware; /* "NODE=ID": the part at NODE (path or name) */
	size_t n_hardware;
	const char *const *fw_version; /* "NODE=VERSION": the firmware it runs */
	size_t n_fw_version;
	bool bootloader;	  /* parts start in their bootloader */
	const char *firmware_dir; /* the board's firmware_dirs, or NULL */
};
char *emub_board_from_profile(const char *dtb, const struct emub_profile_opts *o, char *err,
			      size_t errsz);

/* Options; call before emub_start().  Realtime overrides the board's pacing. */
void emub_set_realtime(struct emub *eb, bool realtime);
/* Keep the testbed directory on emub_free() (copied to @dir if not NULL). */
void emub_set_keep_dir(struct emub *eb, const char *dir);
/* Print kernel-style log lines ("[emuboard] DRIVER 1-004a: ...") to @f. */
void emub_set_log(struct emub *eb, FILE *f);
/* Log every bus transaction too (EMUBOARD_TRACE=1 does it at emub_set_log;
 * needs a log). */
void emub_set_trace(struct emub *eb, bool on);
/* Run @cmd (through /bin/sh -c) for every uevent, those of the start-up
 * probes included, with its environment (a stand-in for udevd's RUN). */
void emub_set_on_uevent(struct emub *eb, const char *cmd);
/* Start that runner only once the start-up probes are done, like a udevd
 * that starts after the kernel bound the boot-time devices (coldplug
 * replays them).  The emuboard program does this. */
void emub_set_on_uevent_after_boot(struct emub *eb, bool after);

/*
 * Build the testbed and start serving it; devices with bound = true are
 * probed before this returns (their bind uevents go to nobody, as at boot
 * before udevd runs; coldplug them with emub_uevent(eb, dev, "add")).
 */
int emub_start(struct emub *eb);
/* Stop everything, remove the testbed (unless kept), free. NULL is fine. */
void emub_free(struct emub *eb);

/* $UMOCKDEV_DIR of the testbed, and the GPIO socket in it (emuboard-gpio.sock). */
const char *emub_root(const struct emub *eb);
const char *emub_gpio_socket(const struct emub *eb);
const char *emub_board_name(const struct emub *eb);
bool emub_realtime(const struct emub *eb);

/*
 * Re-execute the calling program under libumockdev-preload and the GPIO
 * shim (put into LD_PRELOAD, after libasan if that is there) unless it
 * already runs under them or EMUB_NO_REEXEC=1 is set.
 * Needed only by programs that use the testbed in-process (libudev, sysfs
 * reads through the preload); the emulator itself does not need it (its
 * uevents are sent directly to the listeners' sockets).  Returns only if no
 * re-exec was needed or it failed (-errno).
 */
int emub_reexec_under_preload(int argc, char **argv);

/* The path of libemuboard-gpiod.so, the GPIO shim emub_spawn preloads. */
const char *emub_gpiod_preload(void);

/* ------------------------------------------------------------ children */

/*
 * Run @argv inside the board: LD_PRELOAD (umockdev's preload and the GPIO
 * shim added) and UMOCKDEV_DIR set, plus @env ("KEY=VALUE", NULL
 * terminated, may be NULL).  stdout/stderr are captured when @capture is
 * true (read them with emub_child_stdout/stderr after waiting).
 */
int emub_spawn(struct emub *eb, const char *const *argv, const char *const *env, bool capture,
	       struct emub_child **out);
/*
 * Wait up to @timeout_ms (< 0 = forever).  On timeout the child is killed
 * with SIGKILL and -ETIMEDOUT returned.  *@wstatus gets the waitpid status.
 */
int emub_child_wait(struct emub_child *c, int timeout_ms, int *wstatus);
/*
 * Wait up to @timeout_ms until @c (spawned with @capture) has written
 * @needle to its stdout or stderr: a child says it got somewhere ("ready",
 * "opened") by writing, unbuffered or flushed, and the test goes on from
 * there instead of guessing how long that takes.  0; -ECHILD if the
 * child ended without writing it; -ETIMEDOUT; -EINVAL without capture.
 */
int emub_child_wait_output(struct emub_child *c, const char *needle, int timeout_ms);
int emub_child_pid(const struct emub_child *c);
const char *emub_child_stdout(const struct emub_child *c);
const char *emub_child_stderr(const struct emub_child *c);
void emub_child_free(struct emub_child *c);
/*
 * Convenience: spawn, wait, return the exit code (>= 0), -ETIMEDOUT, or
 * 128 + signal.  *@out / *@errout (may be NULL) receive malloc'ed output.
 */
int emub_run(struct emub *eb, const char *const *argv, const char *const *env, int timeout_ms,
	     char **out, char **errout);

/* ------------------------------------------------------------ uevents */

/* Number of live uevent listeners (udev monitors inside the testbed). */
int emub_listeners(struct emub *eb);
/* Wait until at least @n listeners exist; 0 or -ETIMEDOUT. */
int emub_wait_listeners(struct emub *eb, int n, int timeout_ms);
/*
 * Wait until the --on-uevent command (emub_set_on_uevent) of every uevent
 * sent so far has ended, as `udevadm settle` waits for udevd's queue: then
 * what those runs did or handed over is done or started, and a check that
 * a run did not happen can be made.  0 or -ETIMEDOUT.
 */
int emub_wait_uevents_run(struct emub *eb, int timeout_ms);
/* Total uevents sent so far (their SEQNUM of the last one). */
uint64_t emub_seqnum(struct emub *eb);

/*
 * @dev names a chip: its board section name ("touchscreen") or its device
 * name ("1-004a").
 *
 * Driver core, as "echo DEV > /sys/bus/i2c/drivers/DRV/bind|unbind" but
 * synchronous: returns when the driver model finished (the probe's error,
 * -EBUSY if bound already, -ENODEV if nothing to unbind / no match).  The
 * sysfs files themselves work too, asynchronously.
 */
int emub_bind(struct emub *eb, const char *dev);
int emub_unbind(struct emub *eb, const char *dev);
/* A system suspend and resume of the bound device: its driver's suspend,
 * then its resume, as the PM core calls them; returns the resume's error
 * (-ENODEV when nothing is bound). */
int emub_suspend_resume(struct emub *eb, const char *dev);
/* Synthesise a uevent as "echo ACTION > /sys/.../uevent" does ("add" is
 * coldplug: it carries DRIVER= when bound). */
int emub_uevent(struct emub *eb, const char *dev, const char *action);
/*
 * Delete and re-create the client device (as reloading its overlay does):
 * unbind, remove uevent, add uevent (no DRIVER yet), then the driver probes
 * probe_delay_ms later, with a bind uevent only if bind_events = true.
 * Returns after the add uevent; emub_wait_idle() waits for the probe.
 */
int emub_replug(struct emub *eb, const char *dev);
/*
 * @hold true: a probe the kernel starts itself (after emub_replug's add)
 * stops after the driver link is made, as a slow probe would, until this
 * is called with @hold false -- the link is there while the probe runs,
 * so a run started by the add sees a driver that may yet fail its probe.
 * Probes of sysfs bind writes are not held.
 */
int emub_hold_probe(struct emub *eb, const char *dev, bool hold);
/*
 * Handle every sysfs write (bind, unbind, update_fw, uevent, firmware path)
 * that its writer has closed so far.  emub_wait_idle() does this first.
 */
void emub_settle(struct emub *eb);
/* Wait until the device's driver model has no queued or running work
 * (probe, async firmware callback, update_fw, ...). */
int emub_wait_idle(struct emub *eb, const char *dev, int timeout_ms);
/* emub_wait_idle() for every device, after the spi driver core's pending
 * binds (emub_spi_settle): the uevents of what was asked so far are sent. */
int emub_wait_board_idle(struct emub *eb, int timeout_ms);

/* ------------------------------------------------------------ state */

/* "1-004a" for @dev, or NULL. */
const char *emub_dev_name(struct emub *eb, const char *dev);
/* /sys path (as the children see it) of the device. */
int emub_dev_syspath(struct emub *eb, const char *dev, char *buf, size_t sz);
bool emub_dev_bound(struct emub *eb, const char *dev);
/* "/dev/input/eventK" of the device's input device, -ENODEV if none. */
int emub_input_node(struct emub *eb, const char *dev, char *buf, size_t sz);
/* Result of the last write to update_fw: *result = 0 or the -errno the
 * write would have returned.  Returns 0, or -ENOENT if there was none yet.
 * Both wait (up to 60 s) for the device's pending work first. */
int emub_update_fw_result(struct emub *eb, const char *dev, int *result);
/* How many writes to update_fw the driver model has handled. */
int emub_update_fw_count(struct emub *eb, const char *dev);
/* The same without waiting for the device's jobs first. */
int emub_update_fw_count_now(struct emub *eb, const char *dev);

/* Kernel oopses modelled so far (reads of fw_version/hw_version/object with
 * no info block; reads that have returned are counted).  Message of the
 * @i-th or NULL. */
int emub_oops_count(struct emub *eb);
const char *emub_oops_message(struct emub *eb, int i);

/* Closed writes of firmware_class.path the service thread has read a
 * value from, and of those the ones it has handled: where it is while a
 * test holds emub_lock() (test_emuboard_board). */
void emub_fw_path_progress(struct emub *eb, int *read, int *handled);

/* ------------------------------------------------------------ counters */

struct emub_bus_counters {
	uint64_t transactions;
	uint64_t messages;
	uint64_t bytes_written;
	uint64_t bytes_read;
	uint64_t naks;
	uint64_t bus_ns; /* modelled wire time */
};

/* User-space (i2c-dev) and emulated-driver traffic of adapter @nr. */
int emub_adapter_counters(struct emub *eb, int nr, struct emub_bus_counters *user,
			  struct emub_bus_counters *driver);
/* Model time now, and the model time fast pacing skipped on adapter @nr. */
uint64_t emub_model_time_ns(struct emub *eb);
/* Real-time pacing: the wall time now on the board's clock (what model
 * times such as struct emub_spi_gap's are counted in); 0 in fast pacing. */
uint64_t emub_wall_time_ns(struct emub *eb);
uint64_t emub_skipped_ns(struct emub *eb, int nr);
/* Fast pacing: model time adapter @nr ran through because a host let that
 * much wall time pass before its next transfer (the chip events due
 * within it happened; see README "Pacing"). */
uint64_t emub_idle_run_ns(struct emub *eb, int nr);
/* Realtime: model time during which nothing modelled was pending -- no
 * transfer on a wire, no chip operation, no emulated-driver job -- so the
 * board waited for user space (what user space and the emulator cost);
 * *@transfers (may be NULL): the i2c-dev transfers that ended such a wait,
 * each of which carries the emulator's own round trip. */
uint64_t emub_idle_ns(struct emub *eb, uint64_t *transfers);
/* Transactions on adapter @nr that reached one device while another held
 * a unit in part (em_chip_ops.mid_unit, e.g. a bootloader frame):
 * interleaved frames. */
uint64_t emub_adapter_interleaved(struct emub *eb, int nr);
/* Modelled time the chip had an internal operation pending. */
uint64_t emub_chip_busy_ns(struct emub *eb, const char *dev);
/* Write every counter and stat as JSON. */
int emub_write_stats_json(struct emub *eb, FILE *f);

/* ------------------------------------------------------------ chips, faults */

/*
 * Direct access to the chip models (the families' emub-<name>.h).  Hold
 * emub_lock() while touching them: the ioctl, driver and pacing threads
 * use them too.
 */
void emub_lock(struct emub *eb);
void emub_unlock(struct emub *eb);
/* Chip supply as the board sees it. */
bool emub_chip_powered(struct emub *eb, const char *dev);

/* Address NAK fault on adapter @nr (em_bus_set_nak). */
int emub_set_nak(struct emub *eb, int nr, uint16_t addr, bool nak);
/* Fast pacing: @us of model time pass before each user-space transfer on
 * adapter @nr, as for a host program descheduled between transfers. */
int emub_set_host_delay(struct emub *eb, int nr, uint32_t us);
/* Driver fault: the driver binds but registers no input device. */
int emub_set_no_input(struct emub *eb, const char *dev, bool on);
/* Delay between bind and input registration, wall-clock ms. */
int emub_set_input_delay(struct emub *eb, const char *dev, int ms);

#endif /* EMUBOARD_H */
