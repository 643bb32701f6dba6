/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal structures of the emuboard library, shared by its files:
 * board description, adapters, chips, devices (the driver core's view),
 * pacing and the interfaces the kernel driver models use.
 *
 * Locking: one mutex per board (eb->lock) guards the chip models, the
 * buses, GPIO line state and device state.  Nobody sleeps while holding it;
 * the umockdev ioctl thread only takes it for the duration of one bus
 * transaction.
 */
#ifndef EMUB_PRIV_H
#define EMUB_PRIV_H

#include <glib.h>
#include <umockdev.h>

#include "em_bus.h"
#include "emub-family.h"
#include "emuboard.h"

#define EMUB_MAX_ADAPTERS 8
#define EMUB_MAX_CHIPS 16
#define EMUB_MAX_LINES 256

struct emub;
struct emub_dev;
struct emub_spi;
struct emub_spi_board;

/* ------------------------------------------------------------ board file */

struct emub_adapter_desc {
	int nr;
	char *name;
	guint32 hz;
	guint16 max_transfer; /* 0 = no quirk */
	bool smbus_only;
	/* SMBus Host Notify (I2C_FUNC_SMBUS_HOST_NOTIFY, as i2c-i801): a
	 * client's interrupt may come from the adapter, one per assertion
	 * of its chip's interrupt output (drv_irq_request_host_notify) */
	bool host_notify;
	int nak_errno;	       /* errno of a NAK: ENXIO (default) or EREMOTEIO */
	guint32 host_delay_us; /* fast pacing: model time before each user transfer */
	char *of_path;	       /* its device-tree node, or NULL: /i2c@<nr in hex> */
};

struct emub_chip_desc {
	char *name; /* section name, also the DT node name */
	int adapter;
	guint16 addr;
	char *model;			  /* a registered chip model's name */
	const struct emub_chip_model *cm; /* that model (emub-family.h) */
	void *fam;			  /* its part of the description (cm->fam_size) */
	char **compatible;		  /* NULL-terminated */
	char *driver;			  /* kernel driver to model, NULL = none */
	bool bound;
	bool power_driver;	  /* power = driver */
	int reset_gpio, chg_gpio; /* -1 = not wired */
	bool irq_level;		  /* CHG interrupt type: level-low (else edge) */
	int input_delay_ms;
	bool bind_events;
	int probe_delay_ms;
	/* faults */
	GArray *nak_addrs; /* guint16 */
	bool no_input;
	guint32 slow_factor;
	/* ACPI enumeration (i2c_acpi_new_device): HID, e.g. "ABCD1234"; NULL: DT
	 * or no firmware node.  acpi_path: the namespace path ("path" file). */
	char *acpi_id;
	char *acpi_path;
	/* touchscreen-* properties (DT, or touchscreen_dmi.c's for ACPI) */
	guint32 ts_size_x, ts_size_y; /* 0 = absent */
	bool ts_swapped, ts_inv_x, ts_inv_y;
};

struct emub_line_desc {
	char *name; /* "" = unnamed */
};

struct emub_board_desc {
	char *name;
	char **compatible;
	char *model;
	char **dmi_keys, **dmi_vals;
	bool realtime;
	char **firmware_dirs;
	char *gpio_label;
	int gpio_nlines;
	char *line_names[EMUB_MAX_LINES];
	int nadapters;
	struct emub_adapter_desc adapters[EMUB_MAX_ADAPTERS];
	int nchips;
	struct emub_chip_desc chips[EMUB_MAX_CHIPS];
	struct emub_spi_board *spi; /* [spi N], [spi-chip NAME], [spidev]: emub-spi.h */
};

int emub_board_parse(const char *text, const char *base_dir, struct emub_board_desc *d,
		     char *err, size_t errsz);
void emub_board_desc_clear(struct emub_board_desc *d);

/* ------------------------------------------------------------ runtime */

struct emub_adapter {
	struct emub *eb;
	struct emub_adapter_desc desc;
	struct em_bus bus;
	struct em_bus_counters drv; /* the emulated drivers' share of bus.count */
	guint64 skipped_ns;	    /* fast pacing: model time skipped */
	guint64 idle_run_ns;	 /* fast pacing: model time run for a host's idle wall time */
	guint64 wall_mark_ns;	 /* fast pacing: wall time (monotonic) the clock last moved */
	int retries, timeout_ms; /* I2C_RETRIES, I2C_TIMEOUT: adapter-wide */
	char *devpath;		 /* /devices/platform/emuboard-i2c.N/i2c-N */
	char *devnode;		 /* /dev/i2c-N */
	UMockdevIoctlBase *ioctl;
};

struct emub_chip {
	struct emub *eb;
	struct emub_chip_desc *desc;
	struct emub_adapter *ad;
	const struct em_chip_ops *ops;
	void *model;
	bool powered;
	bool irq_level_now; /* last seen CHG (true = asserted) */
	guint64 now_ns;	    /* model time the chip has seen */
	guint64 busy_ns;
	struct emub_dev *dev;
};

/* A CHG/reset edge as seen on a GPIO line (logical values of the line). */
struct emub_edge {
	guint64 t_ns; /* model time */
	bool rising;  /* physical level went up */
};

/* One line of the emulated gpiochip. */
struct emub_line {
	int offset;
	char *name;
	bool phys; /* physical level */
	/* kernel (driver model) use */
	const char *kernel_consumer; /* "reset", "interrupt", NULL */
	bool kernel_output;
	/* user space (emul socket) use */
	struct emub_gpio_conn *user;
	/* wiring */
	struct emub_chip *reset_of; /* drives this chip's reset (active low) */
	struct emub_chip *chg_of;   /* follows this chip's CHG (active low), or
				     * is its INT pin both ways (cm->int_level) */
};

/* Kernel-side driver model of one driver name. */
struct emub_driver_ops {
	const char *name;
	const char *const *of_match;   /* compatible strings, NULL-terminated */
	const char *const *acpi_match; /* ACPI ids, NULL-terminated; may be NULL */
	/* its i2c_device_id names, NULL-terminated; may be NULL: matched
	 * against the client's name, and (i2c_of_match_device_sysfs) a
	 * compatible's part after the vendor prefix */
	const char *const *i2c_ids;
	int (*probe)(struct emub_dev *d);
	void (*remove)(struct emub_dev *d);
	/* a write to a driver attribute: the store function, run in the
	 * writer's context as sysfs does (the write returns when it does):
	 * 0 for the byte count, or the negative errno the write fails with */
	int (*attr_write)(struct emub_dev *d, const char *attr, const char *buf, size_t len);
	/* a read of a driver attribute (data was read from the file) */
	void (*attr_read)(struct emub_dev *d, const char *attr);
	/* threaded interrupt handler: CHG asserted while the IRQ is enabled */
	void (*irq)(struct emub_dev *d);
	/* deferred work queued with drv_queue_work() */
	void (*work)(struct emub_dev *d, int what);
	/* the board goes away with the driver bound: free d->priv */
	void (*destroy)(struct emub_dev *d);
	/* system sleep (dev_pm_ops' suspend and resume), for drivers that
	 * have them: resume's error is emub_suspend_resume()'s */
	int (*suspend)(struct emub_dev *d);
	int (*resume)(struct emub_dev *d);
};

/* The i2c driver registered under @name (emub-family.h), or NULL. */
const struct emub_driver_ops *emub_find_driver(const char *name);
/* The adapter's device-tree node path: of_path, or /i2c@<nr in hex>. */
char *emub_adapter_of_path(const struct emub_adapter_desc *a);

struct emub_absinfo {
	gint32 value, minimum, maximum, fuzz, flat, resolution;
};

struct emub_input {
	int number;    /* inputN */
	int minor;     /* evdev minor (64 + K) */
	char *devpath; /* of inputN */
	char *evpath;  /* of eventK */
	char *devnode; /* /dev/input/eventK */
	/* what the evdev ioctls answer */
	char *name, *phys;
	guint16 id[4]; /* bustype, vendor, product, version */
	guint64 evbits, keybits[12], absbits, propbits;
	struct emub_absinfo abs[64];
	UMockdevIoctlBase *ioctl;
};

struct emub_attr {
	char *name;
	char *content; /* what a read returns */
	bool writable;
	bool armed_oops; /* a read is a modelled NULL dereference */
};

enum emub_job_kind {
	EMUB_JOB_BIND,
	EMUB_JOB_UNBIND,
	EMUB_JOB_ATTR_WRITE,
	EMUB_JOB_ATTR_READ,
	EMUB_JOB_WORK,
	EMUB_JOB_IRQ,
	EMUB_JOB_REPLUG,
	EMUB_JOB_SLEEP,
	EMUB_JOB_QUIT,
};

/* EMUB_JOB_BIND's what: a probe the kernel starts itself (device added),
 * not a sysfs bind write (0) */
#define EMUB_BIND_AUTOPROBE 1
/* EMUB_JOB_UNBIND's what: the unbind a sysfs write asked for (its writer
 * sees it whole), not one of the emulator's own (0) */
#define EMUB_UNBIND_WRITTEN 1

struct emub_job {
	enum emub_job_kind kind;
	char *attr;
	char *buf;
	size_t len;
	int what;
	gint64 not_before_us; /* wall clock (g_get_monotonic_time) */
	/* for synchronous callers */
	GMutex *done_lock;
	GCond *done_cond;
	bool *done;
	int *result;
};

/* An i2c client device: what the driver core knows about it. */
struct emub_dev {
	struct emub *eb;
	struct emub_chip *chip;
	char name[48];			   /* "1-004a", "i2c-ABCD1234:00" */
	char client_name[32];		   /* ACPI: "ABCD1234:00" (the client's name) */
	char *acpi_node;		   /* ACPI: /devices/LNXSYSTM:00/.../ABCD1234:00 */
	char *devpath;			   /* /devices/... */
	char *of_fullname;		   /* /i2c@1/touchscreen@4a */
	const struct emub_driver_ops *drv; /* driver named by the board */
	/* driver core state, under eb->lock */
	bool bound;
	bool probing;
	bool probe_hold; /* emub_hold_probe: autoprobes wait on idle_cond */
	bool stuck;	 /* a modelled oops left the driver wedged */
	/* An attribute's store is running (worker), and an unbind asked
	 * meanwhile already removed the driver link: __device_release_driver
	 * calls driver_sysfs_remove() before the driver's remove, which then
	 * waits for the store (kernfs drains active references). */
	bool in_attr_write, links_gone;
	/* A written unbind is running: its writer, whose write returns only
	 * once dev->driver is cleared, never finds the address busy. */
	bool unbind_written;
	bool irq_requested, irq_enabled;
	guint64 irq_edges; /* CHG assertion edges seen */
	bool irq_pending;
	unsigned int irq_storm; /* level re-runs while CHG stays asserted */
	int reset_line, chg_line;
	bool int_gpio_held; /* the chg_line is held as a GPIO (con_id "irq") */
	bool have_update_fw;
	int update_fw_count;
	int update_fw_result;
	GPtrArray *attrs; /* struct emub_attr *, driver attributes */
	struct emub_input *input;
	void *priv; /* driver model data */
	/* worker */
	GThread *worker;
	GAsyncQueue *jobs;
	int busy; /* jobs queued or running */
	GCond idle_cond;
};

struct emub_gpio_conn;

struct emub {
	GMutex lock;
	struct emub_board_desc desc;
	char *base_dir;
	bool realtime;
	bool started;
	FILE *log;
	bool trace; /* log every bus transaction ($EMUBOARD_TRACE) */
	char *on_uevent;
	bool on_uevent_after_boot;
	char *keep_dir;
	bool keep;

	UMockdevTestbed *tb;
	/* Driver attributes (paths under sys/) a writer under the board's
	 * shim is writing and will have stored itself (ATTRHOLD, gpio.c):
	 * the inotify paths leave their bytes alone.  Under lock. */
	GHashTable *attr_held;
	char *root; /* testbed root ($UMOCKDEV_DIR) */
	char *sys;  /* root + "/sys" */

	int nadapters;
	struct emub_adapter adapters[EMUB_MAX_ADAPTERS];
	int nchips;
	struct emub_chip chips[EMUB_MAX_CHIPS];

	/* model time */
	guint64 now_ns; /* board model time */
	gint64 t0_us;	/* realtime: wall clock at model time 0 */
	GThread *pacer;
	GCond pacer_cond;
	bool pacer_quit;
	GThread *completer; /* realtime: completes ioctls at their wire end */
	GMutex done_lock;   /* guards completions, completer_run */
	GCond done_cond;    /* a completion was queued first, or stop */
	GQueue completions; /* by due time (i2cdev.c) */
	bool completer_run;
	GMutex serve_lock;	 /* guards serve_pool */
	GThreadPool *serve_pool; /* serve.c: the bus nodes' requests */

	/* Board activity (emub_activity_note_locked): model time nothing
	 * modelled was pending -- no transfer on a wire, no chip operation,
	 * no driver job -- so the board waited for user space. */
	bool act_busy; /* at act_since: a chip or a driver job busy */
	guint64 act_since;
	guint64 xfer_until; /* end of the last transfer's wire time */
	guint64 idle_ns;
	guint64 idle_xfers; /* user transfers that ended an idle stretch */

	/* gpio */
	char *gpio_label;
	int gpio_nlines;
	struct emub_line lines[EMUB_MAX_LINES];
	char *gpio_sock;
	int gpio_listen_fd;
	GPtrArray *gpio_conns;
	bool stopping;
	GCond gpio_cond; /* an edge was queued or a line changed */
	UMockdevIoctlBase *gpio_ioctl;

	/* sysfs */
	char *fw_path_param; /* firmware_class.path as written (newline kept) */
	/* writes to firmware_class.path the service thread has read (a value,
	 * not an empty file) and of those handled (g_atomic_int) */
	int fw_path_reads, fw_path_handled;
	int inotify_fd;
	GHashTable *watches; /* wd -> struct emub_watch * */
	GPtrArray *fifos;    /* struct emub_fifo *: bind, unbind */

	/* service thread */
	GMainContext *ctx;
	GMainLoop *loop;
	GThread *service;

	/* input numbering (input.c: input_no never reused, evdev minors are) */
	int next_input_no;
	guint64 evdev_minors; /* bitmap of used minors - 64 */
	/* the ioctl handlers of removed event nodes, answering ENODEV, kept
	 * on their socket until the minor is used again (input.c) */
	UMockdevIoctlBase *evdev_gone[64];

	/* uevents */
	GMutex uevent_lock;
	guint64 seqnum;
	GAsyncQueue *run_queue; /* --on-uevent */
	GThread *runner;
	/* uevents queued for --on-uevent, and of those the ones whose command
	 * has ended (under uevent_lock; run_cond signalled at each end) */
	guint64 run_queued, run_done;
	GCond run_cond;

	/* oops records */
	GPtrArray *oopses;

	/* children */
	GPtrArray *children;
	GPtrArray *inputs_dead; /* emub_input_free(), freed by emub_free */

	struct emub_spi *spi; /* spi controllers, devices, spidev (emub-spi.h) */
};

/* ------------------------------------------------------------ helpers */

void emub_log(struct emub *eb, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void emub_dev_log(struct emub_dev *d, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
struct emub_chip *emub_find_chip(struct emub *eb, const char *dev);
struct emub_adapter *emub_find_adapter(struct emub *eb, int nr);

/* sysfs.c: files in the testbed, by path below the testbed's /sys */
int emub_sys_write(struct emub *eb, const char *rel, const char *content);
/*
 * A read-only attribute's content, replaced whole: written beside it and
 * renamed over it, so a reader sees the old value or the new one, never
 * an empty or half-written file (sysfs's show() is one call).  Not for a
 * file programs write (uevent, update_fw, bind, ...): a write in flight
 * would land in the replaced file and be lost; those keep emub_sys_write.
 */
int emub_sys_publish(struct emub *eb, const char *rel, const char *content);
int emub_sys_publish_bin(struct emub *eb, const char *rel, const void *buf, size_t len);
int emub_sys_mkdir(struct emub *eb, const char *rel);
int emub_sys_symlink(struct emub *eb, const char *target, const char *rel);
/* The same for the file @name in the folder @dir (both below /sys). */
int emub_sys_write_in(struct emub *eb, const char *dir, const char *name, const char *content);
int emub_sys_publish_in(struct emub *eb, const char *dir, const char *name,
			const char *content);
int emub_sys_symlink_in(struct emub *eb, const char *target, const char *dir, const char *name);
/* devices/platform/@name.@nr, a platform device with @uevent, on the
 * platform bus; its path below /sys (g_free()). */
char *emub_sys_platform_dev(struct emub *eb, const char *name, int nr, const char *uevent);
void emub_sys_remove(struct emub *eb, const char *rel);
char *emub_sys_path(struct emub *eb, const char *rel);
/* The testbed's file sys/@rel as it is (*@len its size), or NULL: g_free() */
char *emub_sys_read(struct emub *eb, const char *rel, gsize *len);
int emub_build_tree(struct emub *eb);
int emub_build_fdt(struct emub *eb, void **blob, size_t *len);
/* The uevent environment of a client device (no ACTION/DEVPATH/...). */
GPtrArray *emub_dev_env(struct emub_dev *d, bool with_driver, bool with_modalias);
void emub_dev_update_uevent_file(struct emub_dev *d);
void emub_watch_add(struct emub *eb, const char *rel_dir, struct emub_dev *d, int kind);
/* A write-only sysfs file every write of which counts: a named pipe read
 * by the service thread, split into names @is_name knows (watch.c). */
int emub_fifo_add(struct emub *eb, const char *rel,
		  bool (*is_name)(struct emub *eb, const char *name),
		  void (*on_value)(struct emub *eb, const char *rel, const char *value));
/* bind and unbind of the i2c driver directory @dir */
int emub_driver_files_add(struct emub *eb, const char *dir);
void emub_watch_remove_dir(struct emub *eb, const char *rel_dir);
int emub_service_start(struct emub *eb);
void emub_service_stop(struct emub *eb);

enum emub_watch_kind {
	EMUB_WATCH_DEVICE,  /* a client device directory */
	EMUB_WATCH_DRIVER,  /* /sys/bus/i2c/drivers/X */
	EMUB_WATCH_FWPARAM, /* /sys/module/firmware_class/parameters */
};

/* uevent.c */
int emub_uevent_send(struct emub *eb, const char *action, const char *devpath,
		     const char *subsystem, GPtrArray *env);
void emub_uevent_runner_start(struct emub *eb);
void emub_uevent_runner_stop(struct emub *eb);

/* clock.c: model time and pacing (eb->lock held unless noted) */
guint64 emub_wall_model_ns(struct emub *eb); /* realtime: model time of "now" */
void emub_sync_locked(struct emub *eb);
void emub_bus_advance_locked(struct emub_adapter *ad, guint64 t);
void emub_advance_all_locked(struct emub *eb, guint64 t);
void emub_activity_note_locked(struct emub *eb, bool user_xfer);
void emub_check_irqs_locked(struct emub *eb);
/* What the buses hold: forwards to the chip model, samples CHG after every
 * message and event (priv = struct emub_chip *). */
extern const struct em_chip_ops emub_chip_wrap_ops;
/* Run one transaction for user space or a driver; returns em_bus_transfer's
 * result; *@end_ns gets the model time the transaction ends. */
int emub_transfer_locked(struct emub_adapter *ad, struct em_msg *msgs, int n, bool driver,
			 guint64 *end_ns);
/* Sleep (realtime) until model time @t; not holding the lock. */
void emub_sleep_until_model(struct emub *eb, guint64 t);
void emub_pacer_start(struct emub *eb);
void emub_pacer_stop(struct emub *eb);
void emub_pacer_kick_locked(struct emub *eb);
/*
 * Wait for a condition that model time can bring (CHG edges): calls
 * @check with the lock held until it returns true or @timeout_ms of model
 * time pass.  Fast pacing jumps over pending chip events; realtime waits.
 * Returns true if @check succeeded.  Called with the lock held.
 */
bool emub_wait_model_locked(struct emub *eb, guint64 timeout_ms, bool (*check)(void *),
			    void *arg);

/* input.c: the board is going away */
void emub_input_teardown(struct emub *eb);

/* serve.c: connect @fn (a UMockdevIoctlBase signal handler) to run on
 * the board's pool of threads instead of umockdev's one thread */
void emub_serve_connect(struct emub *eb, UMockdevIoctlBase *base, const char *signal,
			GCallback fn, gpointer user);
int emub_serve_start(struct emub *eb);
/*
 * When the request the calling thread serves reached the board
 * (CLOCK_MONOTONIC ns), before its arguments were fetched from the caller
 * (umockdev's round trips); 0 outside a served request.  Fast pacing
 * measures a host's idle time up to here, not up to the emulator's own
 * work (clock.c).
 */
guint64 emub_serve_arrival_ns(void);
/*
 * Fast pacing: this much of a host's idle gap is taken for the emulator's
 * and a busy machine's own latency (socket hops, scheduling), not for time
 * the host let pass; only the rest runs chip events (clock.c, spibus.c).
 */
#define EMUB_IDLE_SLACK_NS (20 * G_GUINT64_CONSTANT(1000000))
void emub_serve_stop(struct emub *eb);

/* i2cdev.c */
int emub_i2cdev_attach(struct emub_adapter *ad);
int emub_errno_of_xfer(struct emub_adapter *ad, int em_result);
void emub_completer_start(struct emub *eb);
void emub_completer_stop(struct emub *eb);

/* gpio.c */
int emub_gpio_setup(struct emub *eb);
void emub_gpio_settle(struct emub *eb);
void emub_gpio_teardown(struct emub *eb);
void emub_gpio_chip_edge_locked(struct emub *eb, struct emub_chip *c, bool asserted, guint64 t);
/* Kernel requests of lines: -EBUSY when user space holds them. */
int emub_gpio_kernel_request_locked(struct emub *eb, int line, const char *consumer,
				    bool output, bool phys);
void emub_gpio_kernel_set_locked(struct emub *eb, int line, bool phys);
void emub_gpio_kernel_free_locked(struct emub *eb, int line);
void emub_gpio_kernel_dir_locked(struct emub *eb, int line, bool output, bool phys);
void emub_gpio_apply_locked(struct emub *eb, int line);

/* drvcore.c: the driver core (watch.c: the sysfs writes, drvapi.c: the
 * kernel API of the driver models, input.c: their input devices) */
int emub_devices_create(struct emub *eb);
void emub_devices_stop(struct emub *eb);
void emub_devices_destroy(struct emub *eb);
int emub_dev_queue(struct emub_dev *d, enum emub_job_kind kind, const char *attr,
		   const char *buf, size_t len, int what, int delay_ms, bool wait, int *result);
void emub_chip_power_locked(struct emub_chip *c, bool on);
void emub_chip_reset_locked(struct emub_chip *c, bool held);
/* A both-ways INT pin (cm->int_drive): driven by the host at @level, or
 * left to the chip.  No-op for other chips. */
void emub_chip_int_locked(struct emub_chip *c, bool driven, bool level);
/* Is the chip's INT pin both ways (cm->int_level)? */
bool emub_chip_int_both_ways(const struct emub_chip *c);
/* Whether a writer under the shim holds the attribute @rel (below /sys):
 * its bytes are its own store's (gpio.c ATTRHOLD), not the inotify path's. */
bool emub_attr_held_locked(struct emub *eb, const char *rel);
bool emub_attr_held(struct emub *eb, const char *rel);
void emub_record_oops(struct emub_dev *d, const char *attr);
void emub_dev_queue_irq_locked(struct emub_dev *d);
/* Run the device's threaded interrupt handler now (on its worker). */
void emub_dev_run_irq(struct emub_dev *d);
struct emub_dev *emub_dev_by_name(struct emub *eb, const char *name);
struct emub_attr *emub_attr_find(struct emub_dev *d, const char *name);
void emub_attr_free(struct emub_attr *a);
int emub_dev_sysfs_create(struct emub_dev *d);
void emub_dev_sysfs_remove(struct emub_dev *d);
int emub_inotify_init(struct emub *eb);
char **emub_child_env(struct emub *eb, const char *const *extra);
/* Wait for child @pid to end until @end_us (monotonic µs, < 0: no end):
 * 0 (reaped, *status set), -ETIMEDOUT or -errno (emub.c). */
int emub_pid_wait(pid_t pid, int *status, gint64 end_us);

/* ------------------------------------------------------------ for driver models
 * Run on the device's worker thread, without eb->lock.
 */
int drv_i2c_transfer(struct emub_dev *d, struct em_msg *msgs, int n);
/* the same transaction run by an SMBus controller (no i2c quirks apply) */
int drv_smbus_transfer(struct emub_dev *d, struct em_msg *msgs, int n);
int drv_i2c_master_send(struct emub_dev *d, guint16 addr, const guint8 *buf, guint16 len);
int drv_i2c_master_recv(struct emub_dev *d, guint16 addr, guint8 *buf, guint16 len);
void drv_msleep(struct emub_dev *d, unsigned int ms);
void drv_usleep(struct emub_dev *d, unsigned int us);
/* regulator_bulk_enable/disable of the chip's supplies (no-op if always-on) */
void drv_regulator(struct emub_dev *d, bool on);
/* devm_gpiod_get_optional(dev, "reset", GPIOD_OUT_HIGH): 0 (also if not
 * wired, see *wired), -EBUSY */
int drv_reset_gpio_get(struct emub_dev *d, bool *wired);
void drv_reset_gpio_set(struct emub_dev *d, int logical);
/* devm_request_threaded_irq(..., IRQF_NO_AUTOEN) on the CHG line */
int drv_irq_request(struct emub_dev *d);
/*
 * The client's Host Notify interrupt (I2C_CLIENT_HOST_NOTIFY: i2c-core maps
 * it from the adapter's domain at probe), requested and enabled: each
 * assertion of the chip's interrupt output is one interrupt.  -ENXIO when
 * the adapter has no Host Notify (i2c_smbus_host_notify_to_irq).
 */
int drv_irq_request_host_notify(struct emub_dev *d);
/* Does the client's adapter offer SMBus Host Notify? */
bool drv_adapter_host_notify(struct emub_dev *d);
/*
 * For a chip whose INT pin is both ways: devm_gpiod_get_optional() of the
 * INT ("irq") and RST ("reset") lines as inputs: 0 (also when not wired:
 * *have false), or -EBUSY.  Then gpiod_direction_output()/_input() on them
 * (physical levels: both are active high in such device trees, the model's
 * lines_active_high), and devm_request_threaded_irq() on
 * the INT GPIO the driver holds, enabled, @level true for a level trigger.
 */
int drv_gpio_get_int(struct emub_dev *d, bool *have);
int drv_gpio_get_reset_input(struct emub_dev *d, bool *have);
void drv_gpio_output(struct emub_dev *d, int line, bool phys);
void drv_gpio_input(struct emub_dev *d, int line);
int drv_irq_request_on_gpio(struct emub_dev *d, bool level);
void drv_irq_enable(struct emub_dev *d);
void drv_irq_disable(struct emub_dev *d);
/* devres release: the IRQ and the reset line */
void drv_devres_release(struct emub_dev *d);
/*
 * wait_for_completion_timeout() on a completion the driver's irq handler
 * completes (*@done += 1): runs the threaded irq handler meanwhile, as the
 * kernel's IRQ thread would, and consumes one completion.  0 or -ETIMEDOUT.
 */
int drv_wait_completion(struct emub_dev *d, unsigned int *done, unsigned int timeout_ms);
bool drv_chg_asserted(struct emub_dev *d);
/* request_firmware(): 0 and a g_malloc'ed copy, or -ENOENT. */
int drv_request_firmware(struct emub_dev *d, const char *name, guint8 **data, gsize *len);
/* Driver attributes (sysfs_create_group / remove).  A name with a slash
 * ("child-0/update_fw") is an attribute of a child device of the client,
 * its directory made (and watched) with the first one. */
void drv_attr_add(struct emub_dev *d, const char *name, const char *content, bool writable,
		  bool oops_on_read);
void drv_attr_set(struct emub_dev *d, const char *name, const char *content, bool oops_on_read);
void drv_attrs_remove(struct emub_dev *d);

struct emub_input_desc {
	const char *name;
	const char *phys;
	guint16 bustype, vendor, product, version;
	guint64 evbits, keybits_word5, absbits; /* one word each is enough here */
	guint64 keybits_word0, keybits_word1;
	guint32 propbits;
	/* input_set_abs_params() of the axes in absbits (others 0..0) */
	struct emub_absinfo abs[64];
	/* The input device's parent: a child device the driver made below
	 * the client, named relative to it, for a driver that registers its
	 * input device on a bus device of its own rather than on the i2c
	 * client; NULL: the client itself. */
	const char *parent;
};
/* include/linux/input/mt.h: the tracking ids input_mt hands out wrap here */
#define TRKID_MAX 0xffff
/* input_set_abs_params(@code, @min, @max, 0, 0) into @in */
void drv_input_set_abs(struct emub_input_desc *in, int code, int min, int max);
/* input_mt_init_slots(@nslots, INPUT_MT_DIRECT | ...) into @in: the slot
 * and tracking id axes, BTN_TOUCH and INPUT_PROP_DIRECT (a touchscreen). */
void drv_input_mt_init_direct(struct emub_input_desc *in, int nslots);
int drv_input_register(struct emub_dev *d, const struct emub_input_desc *in);
/*
 * An input device that is gone (or never was registered), freed only when
 * the board is: umockdev's thread may be running its event node's ioctl
 * handler right now, on the struct as its data, and it stops only with
 * the testbed (emub_free).
 */
void emub_input_free(struct emub *eb, struct emub_input *inp);
void emub_inputs_reap(struct emub *eb);
void drv_input_unregister(struct emub_dev *d);
/* queue deferred work (e.g. the async firmware callback) after @delay_ms
 * of wall time */
void drv_queue_work(struct emub_dev *d, int what, int delay_ms);
bool drv_fault_no_input(struct emub_dev *d);
/* A driver's update_fw store is over: record @result (0 or -errno) for
 * emub_update_fw_result() and the log; returns @result. */
int drv_update_fw_done(struct emub_dev *d, int result);
/* .destroy of a driver whose d->priv is one g_malloc'ed block */
void drv_free_priv(struct emub_dev *d);
/* devres_release_all() for a driver whose devm resources are an input
 * device, its regulators and its data, after a probe that enabled the
 * regulators failed or after its remove: the input device unregistered
 * (if one is), the regulators off, d->priv freed. */
void drv_devm_release(struct emub_dev *d);

#endif /* EMUB_PRIV_H */
