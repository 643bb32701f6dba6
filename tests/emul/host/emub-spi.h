/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The emulated spi subsystem, internal to the emuboard library: board
 * sections [spi N], [spi-chip NAME] and [spidev], spi controllers and their
 * devices in sysfs (spibus.c: the spi core's view, driver_override,
 * bind/unbind, uevents) and spidev (spidev.c: the character device with
 * drivers/spi/spidev.c's ioctl semantics).  Kept apart from the i2c code;
 * the rest of the library calls only the hooks declared here.
 */
#ifndef EMUB_SPI_H
#define EMUB_SPI_H

#include <glib.h>
#include <umockdev.h>

#include "em_spi.h"
#include "emuboard-spi.h"

struct emub;
struct emub_board_desc;

#define EMUB_SPI_MAX_CTLRS 8
#define EMUB_SPI_MAX_DEVS 16
#define SPIDEV_MAJOR 153
#define SPIDEV_MINORS 32

struct emub_spi_ctlr_desc {
	int nr;
	guint32 max_hz, min_hz;
	guint32 num_cs;
};

struct emub_spi_dev_desc {
	char *name; /* section name, also the DT node name */
	int bus;
	guint32 cs;
	char *model;	   /* chip model: "none" (nothing drives MISO) or a family's */
	char **compatible; /* NULL-terminated; modalias from the first */
	char *driver;	   /* driver named by the board ("spidev" or a family's), NULL = none */
	bool bound;
	guint32 mode;	/* spi-cpol / spi-cpha / spi-cs-high / spi-lsb-first */
	guint32 max_hz; /* spi-max-frequency, 0 = the controller's */
	bool no_input;	/* fault.no_input: its driver registers no input device */
	const struct emub_spi_chip_model *cm; /* the model, NULL for "none" */
	void *fam;			      /* its part of the description (cm->fam_size) */
};

struct emub_spi_board {
	int nctlrs;
	struct emub_spi_ctlr_desc ctlrs[EMUB_SPI_MAX_CTLRS];
	int ndevs;
	struct emub_spi_dev_desc devs[EMUB_SPI_MAX_DEVS];
	guint32 bufsiz; /* spidev.bufsiz, default 4096 */
	bool no_spidev; /* [spidev] available = false: a kernel without it */
};

struct emub_spi_ctlr {
	struct emub *eb;
	struct emub_spi_ctlr_desc *desc;
	char *devpath;	       /* /devices/platform/emuboard-spi.N/spi_master/spiN */
	guint64 now_ns;	       /* model time the controller's chips have seen */
	guint64 covered_until; /* stats.active_ns counted up to here */
	GArray *unseen;	       /* struct emub_spi_gap per idle message (emub_spi_idle_unseen) */
	guint64 wall_mark_ns;  /* fast pacing: wall time (monotonic) now_ns last moved */
	struct emub_spi_stats stats;
};

struct emub_spi_dev {
	struct emub *eb;
	struct emub_spi_ctlr *ctlr;
	struct emub_spi_dev_desc *desc;
	char name[32]; /* "spi1.0" */
	char *devpath;
	char *modalias;	       /* "spi:NAME" */
	char *driver_override; /* NULL = none */
	const char *driver;    /* bound driver, NULL = none */
	/* struct spi_device */
	guint32 mode;
	guint8 bits_per_word;
	guint32 max_speed_hz;
	/* the chip */
	const struct em_spi_ops *ops;
	void *model;
	bool selected;	  /* chip select active (kept after cs_change on the last transfer) */
	guint64 chip_now; /* model time the chip has seen */
	guint64 end_ns;	  /* model time the last message ended */
	/* the idle clock (emuboard-spi.h, idle_ns): model times */
	guint64 chip_idle_at; /* the chip's last operation ended (busy: chip_now) */
	guint64 gap_from;     /* the last message found the board waiting from here */
	guint64 gap_ns;	      /* ... for this long up to its wire's start (0: not) */
	guint64 tail_from;    /* the last user message's wire ended */
	guint64 tail_to;      /* ... and the emulator completed it */
	guint32 tail_rx;      /* ... having read this many bytes (umockdev copies
			       * them back after the completion) */
	/* spidev */
	int minor;		 /* -1 = spidev not bound */
	guint32 speed_hz;	 /* spidev_data.speed_hz */
	unsigned int generation; /* bumps at every spidev unbind */
	char *spidev_path;	 /* devpath of spidevB.C */
	char *devnode;		 /* /dev/spidevB.C */
	/* the node's ioctl emulation: attached at the first spidev probe and
	 * kept (for that node path) until the board stops, so a file opened
	 * before an unbind gets ESHUTDOWN, never a vanished handler */
	UMockdevIoctlBase *ioctl;
	char *ioctl_node;
	/* the bound driver's: an input device (drv_input_register) */
	struct emub_dev *idev;
	void *drv_priv; /* the spi driver model's data (emub_spi_driver) */
	/* each driver attribute a store ran for: struct emub_spi_store */
	GPtrArray *stores;
};

/* The writes to one driver attribute its store handled (any driver's,
 * kept across binds). */
struct emub_spi_store {
	int result;	    /* what the last one returned: 0 or -errno */
	unsigned int count; /* how many */
	char attr[];
};

struct emub_spi {
	struct emub_spi_board *b;
	int nctlrs;
	struct emub_spi_ctlr ctlrs[EMUB_SPI_MAX_CTLRS];
	int ndevs;
	struct emub_spi_dev devs[EMUB_SPI_MAX_DEVS];
	guint32 minors; /* spidev minors in use */
	int inotify_fd;
	GHashTable *watches; /* wd -> char * (directory below /sys) */
	GSource *source;
};

/* board.c hooks (spibus.c) */
/* Parse a [spi N] / [spi-chip NAME] / [spidev] section: 0, -EINVAL with
 * @err, or 1 if @grp is none of those. */
int emub_spi_parse_group(GKeyFile *kf, const char *grp, struct emub_board_desc *d, char *err,
			 size_t errsz);
int emub_spi_check(struct emub_board_desc *d, char *err, size_t errsz);
bool emub_spi_has_controllers(const struct emub_board_desc *d);
void emub_spi_board_free(struct emub_spi_board *b);

/* gpio.c hook (spibus.c): the board's shim wrote to @rel (below /sys) and
 * waits for the store function: 0 with *@res what the write returns (0 or
 * -errno) once the driver model's store has run, or 1 when @rel is no
 * writable attribute of a bound spi driver (a plain file write). */
int emub_spi_attr_write(struct emub *eb, const char *rel, int *res);
/* Whether @rel (below /sys) is such an attribute. */
bool emub_spi_is_store_attr(struct emub *eb, const char *rel);

/* emub.c hooks (spibus.c) */
int emub_spi_start(struct emub *eb);
void emub_spi_stop(struct emub *eb);

/* The driver core's view of @d the shared driver helpers take (input
 * devices, request_firmware), made at the first probe (spibus.c). */
struct emub_dev *emub_spi_input_dev(struct emub_spi_dev *d);

/* An emulated spi driver's msleep(@ms), without eb->lock (spibus.c). */
void emub_spi_driver_msleep(struct emub_spi_dev *d, unsigned int ms);

/* spidev.c: the ioctl emulation of d->devnode (kept from an earlier
 * binding when it serves the same node); detach at the board's stop. */
int emub_spidev_attach(struct emub_spi_dev *d);
void emub_spidev_detach(struct emub_spi_dev *d);
/* Run one message on the controller (eb->lock held): the transfers' tx
 * bytes out, rx in; returns 0 or -errno. */
struct emub_spi_xfer {
	const guint8 *tx; /* NULL: zeros shifted out */
	guint8 *rx;	  /* NULL: MISO ignored */
	guint32 len;
	guint32 speed_hz;
	guint8 bits_per_word;
	bool cs_change;
	guint32 delay_us;
	guint32 word_delay_us;
};
int emub_spi_message_locked(struct emub_spi_dev *d, struct emub_spi_xfer *x, unsigned int n);
/* After a user message (eb->lock held): count it, and its gap on the idle
 * clock with the emulator's handling seen in it (its handler started at
 * model time @entry_ns; it reads @rx bytes). */
void emub_spi_user_message_locked(struct emub_spi_dev *d, guint64 entry_ns, guint32 rx);
/* Its completion is due now: the emulator's handling after its wire. */
void emub_spi_user_done(struct emub_spi_dev *d);

/* Fast pacing, before a user-space (spidev) message: the chip events due
 * within the wall time the host let pass since the controller's clock last
 * moved run first (as clock.c does for i2c-dev transfers). */
void emub_spi_run_idle_time_locked(struct emub_spi_dev *d);

#endif /* EMUB_SPI_H */
