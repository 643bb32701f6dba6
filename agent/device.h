/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's view of a controller: its sysfs device, adapter, bound
 * driver, driver bind/unbind files, the driver's attributes, its input
 * children, and the firmware loader's search path for kernel-assisted
 * updates.  Waiting for the application-mode input device subscribes to
 * udev (libudev) first, then looks at sysfs, then waits -- never trusting
 * udev's database alone, which may lag behind or miss the event (no udevd,
 * containers).
 */
#ifndef TF_DEVICE_H
#define TF_DEVICE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "sysfs.h"
#include "util.h"

struct tf_device {
	char name[64];	/* "1-004a", "i2c-ABCD0001:00", "spi1.0" */
	char subsys[8]; /* "i2c" or "spi" */
	char syspath[PATH_MAX];
	int adapter_nr; /* i2c-N */
	bool has_addr;
	uint16_t addr;
	char driver[64]; /* "" when unbound */
	char adapter_name[128];
	char adapter_of_path[256]; /* DT path of the adapter, "" if none */
	char modalias[256];
	char compatible[128]; /* first of_node compatible, "" if none */
};

int tf_device_lookup(const char *name, struct tf_device *d, struct tf_err *err);
/* Re-read the driver link. */
void tf_device_refresh(struct tf_device *d);

/* Bounds on bind/unbind taking effect (a probe may wait seconds: a driver
 * may spend 3 s trying to leave a bootloader). */
#define TF_UNBIND_TIMEOUT_MS 5000
#define TF_BIND_TIMEOUT_MS 15000

int tf_device_unbind(struct tf_device *d, struct tf_err *err);
int tf_device_bind(struct tf_device *d, const char *driver, struct tf_err *err);

/* Driver attribute files (e.g. update_fw); the caller knows which are safe. */
int tf_device_attr_write(const struct tf_device *d, const char *attr, const char *value,
			 struct tf_err *err);

/*
 * Wait until the device has a driver bound, for udev setups without bind
 * events.  The driver link exists during probe already (also one that
 * fails), so "bound" means: link present and unchanged for @settle_ms, and,
 * for drivers that register input in probe, an input device.
 */
int tf_device_wait_bound(struct tf_device *d, int timeout_ms, int settle_ms,
			 struct tf_err *err);

/* Watching for the application-mode input device. */
struct tf_input_watch;
/* Subscribe to udev/kernel events and remember the inputs that exist now. */
int tf_input_watch_start(const struct tf_device *d, struct tf_input_watch **w,
			 struct tf_err *err);
/*
 * Wait up to @timeout_ms for an input device below @d that was not there
 * when the watch started, with its eventN node.  Fills @node.  Returns 0,
 * -ETIMEDOUT, or -ENODEV when the device itself went away.
 */
int tf_input_watch_wait(struct tf_input_watch *w, int timeout_ms, struct tf_input_node *node,
			struct tf_err *err);
void tf_input_watch_free(struct tf_input_watch *w);

/*
 * The range the driver gave absolute axis @axis (ABS_*) of /dev/input/@event
 * ("event3"), read with EVIOCGABS as libevdev does.  Returns 0, or -errno
 * with the node named in @err (-EINVAL: the device has no such axis).
 */
int tf_input_abs_range(const char *event, unsigned axis, int32_t *min, int32_t *max,
		       struct tf_err *err);

/*
 * Kernel-assisted update staging: put @data as @name in a touchfw-owned
 * directory and point the firmware loader there (firmware_class.path,
 * written without a newline), restoring the previous value afterwards.  A
 * distribution's /lib/firmware files are never touched.
 */
struct tf_fw_stage {
	char param[256]; /* the sysfs parameter file */
	char dir[300];
	char file[400];
	char saved[256]; /* previous value, restored by unstage */
	char name[128];	 /* the staged file's name in dir ("x.bin", "vendor/x.fw") */
	int lock_fd;
	int dir_fd;	  /* dir, opened and checked as state dirs are */
	int sub_fd;	  /* name's one subdirectory in dir, else -1 */
	const char *base; /* name's last component (in sub_fd, else dir_fd) */
	bool active;
	/* tf_fw_stage() failed on touchfw's own files -- the state directory,
	 * its firmware/, the staging lock or the staged file (untrusted, or
	 * not writable) -- not on the kernel's loader: exit state-unusable. */
	bool state_unusable;
};
int tf_fw_stage(struct tf_fw_stage *st, const char *param, const char *state_dir,
		const char *dev, const char *name, const uint8_t *data, size_t len,
		struct tf_err *err);
void tf_fw_unstage(struct tf_fw_stage *st);
/*
 * At start: undo what a run killed mid-update (kill -9, power cut) left --
 * @param pointing at @state_dir/firmware is reset to empty, files staged
 * there are removed -- unless another run holds the staging lock.  Returns
 * how many things were repaired, described in @what.
 */
int tf_fw_repair(const char *param, const char *state_dir, char *what, size_t size);

/*
 * The number of the i2c adapter named @name (its sysfs "name") or whose
 * of_node is the DT path @of_path; -ENODEV if none.
 */
int tf_i2c_adapter_find(const char *name, const char *of_path);

/* First existing "@dir/@name" in the firmware search path, or -ENOENT. */
int tf_firmware_find(const char (*dirs)[256], unsigned n, const char *class_param,
		     const char *name, char *out, size_t size);

#endif /* TF_DEVICE_H */
