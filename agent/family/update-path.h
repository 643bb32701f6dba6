/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A family's update path, composed from the services the flow offers.
 *
 * The flow (agent/flow*.c) keeps what every update has: the lock, the
 * board profile, the plan, the attempts, verification and the outcome.
 * How the firmware and the configuration get into the chip is the
 * family's to say, where its driver differs from the others: its
 * struct tf_update_path (tf_family_ops.update_path) answers the flow's
 * questions at fixed points, and does so by calling the services of
 * struct tf_flow_services -- stage a file where the driver looks, write
 * an attribute and follow the driver, rebind, flash over the bus, wait
 * for the input device.  A family without an update path (NULL, or a
 * NULL hook) gets what the flow does from the capabilities alone.
 *
 * This header is the family's side of that contract and includes no flow
 * header: the flow hands its services in, the family never calls the
 * flow by name.  doc/families.md, "The update path", lists the services
 * and the hooks, and which families use which.
 */
#ifndef TF_FAMILY_UPDATE_PATH_H
#define TF_FAMILY_UPDATE_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "family/family.h"

/* The ways firmware goes in: each one a service of the flow. */
enum tf_update_way {
	TF_WAY_NONE,		 /* nothing to write */
	TF_WAY_STAGE_AND_PROBE,	 /* stage the file where the driver looks,
				    make it probe, wait for its input device */
	TF_WAY_DRIVER_ATTR,	 /* stage the file, write the driver's
				    kernel_fw_attr and follow the driver */
	TF_WAY_BOOTLOADER,	 /* the chip in its bootloader: flash it over the
				    bus with the driver bound, then rebind */
	TF_WAY_UNBIND_AND_FLASH, /* unbind, reset, flash and configure over
				    the bus, bind again */
};

/* One update in progress, as a family's path sees it (the flow's). */
struct tf_update {
	struct tf_ctx *c;	    /* the device, its controller, the buses */
	struct tf_chip_state *chip; /* the chip as the flow knows it now */
	/* The message already says what the next run can do (the flow
	 * adds nothing about the chip's state after a failure). */
	bool next_run_said;
	/* Set by driver_fw_write when it has unbound the driver and bound
	 * it again itself (the bind through sv->rebind, after what only the
	 * family does between the two, such as a reset over the bus): the
	 * flow binds no more and judges that bind; @rebind_rc is what
	 * sv->rebind returned.  The flow clears both before the write. */
	bool rebound;
	int rebind_rc;
};

/* "Go on": a hook left the decision to the flow. */
#define TF_UPDATE_GO_ON (-1)

/* A write to kernel_fw_attr that failed, or what failed after it. */
struct tf_update_failure {
	int write;		  /* the attribute write: 0, or negative */
	struct tf_err *err;	  /* the write's error (write < 0) */
	const char *why;	  /* the write's error, or what failed after it */
	struct tf_chip_state *st; /* the chip read again now (when seen) */
	bool seen;		  /* st holds what the chip said */
	int rc;			  /* the exit code of what failed after it, or 0 */
};

/*
 * The services the flow offers a family's path.  Each ends the update
 * with an exit code and its message recorded (0: went on well), as the
 * flow's own steps do; the device is named by the flow's log, never in
 * a message.
 */
struct tf_flow_services {
	/* Before detection: a driver that owns the chip's power and is not
	 * bound is bound first (a dry run refuses instead: it binds nothing),
	 * so that detect() finds the chip powered. */
	int (*bind_driver_first)(struct tf_update *u);
	/* The way the flow takes from the capabilities and the chip's
	 * state when the family has no say. */
	enum tf_update_way (*choose)(struct tf_update *u);
	/* The chip's state again, over the bus or through the bound driver
	 * (0 or negative, @err filled). */
	int (*chip_read)(struct tf_update *u, struct tf_chip_state *st, struct tf_err *err);
	/* Unbind (if bound) and bind the driver again, marked as touchfw's
	 * own bind, with a new watch for its input device.  After an unbind
	 * of its own during the driver's update, the driver the update went
	 * through is the one bound. */
	int (*rebind)(struct tf_update *u);
	/* Wait for the application-mode input device (the watch rebind
	 * started), within the profile's input timeout. */
	int (*wait_input)(struct tf_update *u);
	/* Was the driver unbound under us (by someone else)? */
	bool (*driver_gone)(struct tf_update *u);
	/* The configuration read for this update: staged as @name where the
	 * driver looks, the driver made to probe again (it applies the file
	 * then), its input device waited for, the file unstaged. */
	int (*config_stage_and_rebind)(struct tf_update *u, const char *name);
	/* The configuration staged as @name, @value written to the driver's
	 * attribute @attr (it applies the file then, not at probe), the
	 * driver followed until the chip reports the configuration's CRC,
	 * then a rebind for the input device. */
	int (*config_write_attr_and_follow)(struct tf_update *u, const char *name,
					    const char *attr, const char *value);
	/* The configuration written over the bus with the driver bound
	 * (write_config reads back what the chip took), then a rebind so
	 * that the driver reads it, and the input device. */
	int (*config_over_bus_bound)(struct tf_update *u);
	/* Hold @err against the image on this device when @err->rejected
	 * (else it counts as an attempt only, and says so). */
	void (*record_blob_failure)(struct tf_update *u, const struct tf_err *err);
	/* The update failed where the chip may be left in its bootloader
	 * (the flow looks at it again and completes @msg). */
	int (*fail_bootloader)(struct tf_update *u, const char *msg);
	/* End the update with exit code @code (TF_EXIT_*) and this message. */
	int (*finish)(struct tf_update *u, int code, const char *fmt, ...)
		__attribute__((format(printf, 3, 4)));
	/* A line about this update (TF_LOG_*), the device named by the flow. */
	void (*log)(struct tf_update *u, int prio, const char *fmt, ...)
		__attribute__((format(printf, 3, 4)));
};

/*
 * The family's answers (all optional).  Each gets the services @sv and
 * the update @u.
 */
struct tf_update_path {
	/* Before detection: what makes the chip readable; NULL:
	 * sv->bind_driver_first(u). */
	int (*before_detect)(const struct tf_flow_services *sv, struct tf_update *u);
	/* Which way the firmware goes in; sv->choose(u) is the flow's own
	 * answer.  Called for the dry run's account too: no writes. */
	enum tf_update_way (*choose)(const struct tf_flow_services *sv, struct tf_update *u);
	/* The driver's update through kernel_fw_attr: the write that starts
	 * it, with @name the file staged for the driver to request (for a
	 * driver whose attribute sits on a device it made below the bus's,
	 * or takes the file's name); 0, or negative with @err (-ENOEXEC:
	 * refused before anything was written).  NULL:
	 * kernel_fw_value written to the device's kernel_fw_attr. */
	int (*driver_fw_write)(const struct tf_flow_services *sv, struct tf_update *u,
			       const char *name, struct tf_err *err);
	/* The driver's update through kernel_fw_attr failed (@f): what the
	 * family's driver left behind and what the next run can do.  An exit
	 * code, or TF_UPDATE_GO_ON for the flow's own handling. */
	int (*driver_update_failed)(const struct tf_flow_services *sv, struct tf_update *u,
				    struct tf_update_failure *f);
	/* A configuration through the bound driver: how it takes one.  With
	 * @check_only, every check before the first write and nothing else
	 * (0, or an exit code).  NULL: the driver takes none. */
	int (*config_through_driver)(const struct tf_flow_services *sv, struct tf_update *u,
				     bool check_only);
	/* Does the bound driver apply the kernel_cfg_name file at its probe
	 * (so that a file there may undo touchfw's configuration)?  NULL:
	 * yes, where the family has kernel_cfg. */
	bool (*config_at_probe)(const struct tf_ctx *c);
};

#endif /* TF_FAMILY_UPDATE_PATH_H */
