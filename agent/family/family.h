/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A controller family, the one unit of extension: everything touchfw knows
 * about one kind of chip lives in its folder agent/family/<name>/ and is
 * reached through one struct tf_family -- its ids (ids.h), version scheme,
 * manifest rules, capabilities and operations.  registry.c lists the
 * families (from registry.def); the rest of the agent asks the registry and
 * chooses what to do from the capabilities, never from a family's name.
 * The flow calls the operations in a fixed order; model differences inside
 * a family are data.  doc/families.md says how to add a family.
 */
#ifndef TF_FAMILY_H
#define TF_FAMILY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "device.h"
#include "family/ids.h"
#include "gpio.h"
#include "i2c.h"
#include "spi.h"
#include "util.h"
#include "version.h"

/* Room for a file name a driver requests (kernel_fw_name, kernel_cfg_name). */
#define TF_FW_NAME_MAX 128

enum tf_chip_mode {
	TF_CHIP_ABSENT,	    /* answers at none of its addresses */
	TF_CHIP_APP,	    /* application firmware running */
	TF_CHIP_BOOTLOADER, /* bootloader only (no or stale firmware) */
};
/* "application", "bootloader" or "absent" (registry.c). */
const char *tf_chip_mode_name(enum tf_chip_mode m);

/* What detect() found, in family-independent terms. */
struct tf_chip_state {
	enum tf_chip_mode mode;
	char hw[32]; /* hardware id, "" when unknown (bootloader) */
	bool has_version;
	struct tf_version version;
	char version_str[48];
	bool has_info_crc, has_config_crc;
	uint32_t info_crc, config_crc;
	/* Families whose configurations carry a version the chip reports
	 * (caps.config_versioned): the chip's, when it holds a valid one. */
	bool has_config_version;
	struct tf_version config_version;
	char config_version_str[TF_VERSION_STR_MAX];
	/* Application mode by its driver's word (bound), but the chip says
	 * its program does not run now (a family that can read that). */
	bool not_running;
	/* The chip keeps no program of its own: what it runs is the file its
	 * driver loads at every probe (kernel_fw_name, from kernel_firmware),
	 * and the probe fails without it; detect() read nothing from the bus
	 * then, and the proof of an update is the driver's input device. */
	bool program_from_driver;
	uint16_t bl_addr; /* bootloader address found / to use */
	/* The bootloader's id in the family's canonical form (a manifest's
	 * bootloader_id is compared with it), "" when not read. */
	char bl_id[16];
	char detail[160]; /* e.g. "bootloader at 0x24: APP_CRC_FAIL" */
};

struct tf_update_path;

/* Progress of a firmware write, for the progress bar and logs. */
struct tf_progress {
	size_t done, total; /* frames */
	size_t bytes, total_bytes;
	unsigned retries;
};
typedef void (*tf_progress_fn)(void *user, const struct tf_progress *p);

/* Everything an operation may use; owned by the flow. */
struct tf_ctx {
	struct tf_device dev;
	const struct tf_controller *ctrl;
	struct tf_i2c *bus; /* i2c devices: NULL until the flow opens it */
	struct tf_spi spi;  /* spi devices: the spidev transport */
	bool spi_open;
	struct tf_gpio_line *irq; /* only when no driver holds the line */
	struct tf_gpio_line *reset;
	bool force;
	uint32_t flash_timeout_ms;
	tf_progress_fn progress;
	void *progress_user;
	void *priv; /* the family's per-run state */
	/*
	 * A read-only command (probe, status, run --dry-run, board identify
	 * --live, chip info and save-config): detect() sends no write that
	 * changes a chip's state (a reset, a mode switch) -- register
	 * pointers before a read are all it may write -- and says what it
	 * can not tell without one (doc/families.md, "What detection
	 * writes").  Callers send nothing to a device another driver holds.
	 */
	bool read_only;
};

/*
 * What a chip says about itself beyond tf_chip_state, for `touchfw chip
 * info`: named fields in the family's words, and at most one table (the
 * object table of a chip that has one).  Values are text as people read
 * them; CRCs as "0x" hex.
 */
#define TF_CHIP_INFO_FIELDS 24
#define TF_CHIP_INFO_COLS 6
#define TF_CHIP_INFO_ROWS 256
struct tf_chip_info {
	size_t n_fields;
	struct {
		char key[24]; /* a JSON-safe name: [a-z0-9_] */
		char value[96];
	} field[TF_CHIP_INFO_FIELDS];
	char table[24]; /* "objects"; "" when there is no table */
	size_t n_cols, n_rows;
	char col[TF_CHIP_INFO_COLS][16];
	char cell[TF_CHIP_INFO_ROWS][TF_CHIP_INFO_COLS][16];
};

/*
 * What a blob's own bytes say about it, for `touchfw db add`: what the
 * bytes do not tell stays empty (n_hardware 0, version ""), and the
 * command line must supply it.
 */
#define TF_BLOB_FACTS_HW 8
#define TF_BLOB_FACTS_NOTES 6
struct tf_blob_facts {
	bool is_config; /* else firmware */
	size_t n_hardware;
	char hardware[TF_BLOB_FACTS_HW][32];
	char version[48];     /* firmware: its version; config: its version, if any */
	char for_version[48]; /* config: the firmware it was made for */
	bool has_info_crc, has_config_crc;
	uint32_t info_crc, config_crc;
	char ext[8];	/* usual file name extension, "cfg" */
	char what[160]; /* one line for people */
	/* hardware[] is the family's reading of a name (the file's name, a
	 * chip name in its text), not what a header says: the command line
	 * may name other hardware. */
	bool hardware_guessed;
	/* With no hardware: what --hardware takes, in the family's words
	 * ("silead_ts's ids: gsl1680, ..."); "": the id `touchfw chip DEV
	 * info` shows. */
	char hardware_hint[120];
	/* import_blob: the format the file was in ("maXTouch .xcfg"); "" for
	 * a blob taken as it is. */
	char source_format[64];
	/* More lines for people: what a conversion did, a name mapped, what
	 * the source said that the blob does not keep (tf_blob_facts_note). */
	size_t n_notes;
	char note[TF_BLOB_FACTS_NOTES][240];
};

/* Add a line to @f's notes (dropped beyond TF_BLOB_FACTS_NOTES). */
void tf_blob_facts_note(struct tf_blob_facts *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The operations.  Optional ones may be NULL; the flow checks. */
struct tf_family_ops {
	/* Optional: set up / tear down c->priv. */
	int (*init)(struct tf_ctx *c, struct tf_err *err);
	void (*fini)(struct tf_ctx *c);
	/* Mode, versions, CRCs -- reading only, safe with the driver bound. */
	int (*detect)(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err);
	/* Optional: the same, from what the bound driver c->dev.driver shows
	 * in its own sysfs attributes, for a device no bus reaches while the
	 * driver holds it (spi: spidev only binds without it).  The bootloader
	 * has no hardware id there.  -EOPNOTSUPP: this driver shows nothing
	 * usable; -ENOENT: an attribute is missing (the flow looks again for
	 * a moment: a probe creates them after the driver link). */
	int (*detect_driver)(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err);

	/* Blobs: parse and check; *img / *cfg are family-private.
	 * load_firmware takes @data (malloc()ed) whatever it returns: it
	 * keeps it in *img or frees it, so an image is held once. */
	int (*load_firmware)(struct tf_ctx *c, uint8_t *data, size_t len, const char *name,
			     void **img, struct tf_err *err);
	void (*free_firmware)(void *img);
	/* With caps.kernel_fw_attr: the binary the driver wants (e.g. .enc
	 * decoded) and the file name it requests, as the driver computes it
	 * from the chip (@st: what detect() found). */
	void (*kernel_firmware)(void *img, const uint8_t **data, size_t *len);
	int (*kernel_fw_name)(struct tf_ctx *c, const struct tf_chip_state *st, char *buf,
			      size_t size, struct tf_err *err);
	/* Optional, with caps.kernel_fw_attr: did the driver's error @code
	 * (positive errno from writing the attribute) mean the driver or the
	 * chip refused the image, rather than an interruption?  @after: what
	 * detect() finds now, NULL when it failed.  NULL op: never a refusal
	 * (the update counts as an attempt only). */
	bool (*kernel_fw_rejected)(int code, const struct tf_chip_state *after);
	/* Configurations (with caps.bus_config or caps.kernel_cfg): parse one;
	 * @want_crc gets the CRC the chip will report. */
	int (*load_config)(struct tf_ctx *c, const uint8_t *data, size_t len, const char *name,
			   void **cfg, uint32_t *want_crc, struct tf_err *err);
	/* Optional: check a parsed config against the chip as it is now (app
	 * mode). */
	int (*check_config)(struct tf_ctx *c, void *cfg, struct tf_err *err);
	void (*free_config)(void *cfg);
	/* With caps.kernel_cfg: the file the driver loads at probe. */
	int (*kernel_cfg_name)(struct tf_ctx *c, const struct tf_chip_state *st, char *buf,
			       size_t size, struct tf_err *err);

	/* With caps.bus_flash; the driver must not be driving the chip. */
	int (*enter_bootloader)(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err);
	/* -ENOEXEC (err->code ENOEXEC): refused before anything was
	 * written, the image being for another chip than @st (in a
	 * bus_recovery the flow then exits 13, the chip untouched). */
	int (*write_firmware)(struct tf_ctx *c, const struct tf_chip_state *st, void *img,
			      struct tf_err *err);
	int (*leave_bootloader)(struct tf_ctx *c, const struct tf_chip_state *st,
				struct tf_err *err);
	/* With caps.bus_config (and, where the family's update path says so,
	 * also while the driver is bound).  Verifies what the chip took, by
	 * reading back. */
	int (*write_config)(struct tf_ctx *c, void *cfg, struct tf_err *err);
	/* Optional: the ABS_MT_POSITION_X/Y maxima the driver gives its input
	 * device once the chip runs @cfg; the flow checks them on the new
	 * event node (EVIOCGABS), which proves the driver took @cfg. */
	int (*expected_axes)(struct tf_ctx *c, void *cfg, int32_t *x_max, int32_t *y_max);
	/* Optional, with caps.reset.drive_int: the logical INT level for the
	 * reset pulse when it depends on the chip (an address it latches),
	 * instead of caps.reset.int_level. */
	int (*reset_int_level)(struct tf_ctx *c);

	/* Optional: the family's update path, composed from the flow's
	 * services where its driver differs (family/update-path.h). */
	const struct tf_update_path *update_path;

	/* Bring-up tools (`touchfw chip`); all optional. */
	/* After detect() found the chip: fill @info (fields, table). */
	int (*chip_info)(struct tf_ctx *c, const struct tf_chip_state *st,
			 struct tf_chip_info *info, struct tf_err *err);
	/* A reset by command over the bus, safe with the driver bound; returns
	 * when the chip answers again.  NULL: the reset line (caps.reset). */
	int (*soft_reset)(struct tf_ctx *c, struct tf_err *err);
	/* The chip's configuration as it runs now (after detect() found it in
	 * application mode), as a blob load_config and the firmware database
	 * accept, with the same config CRC: *@data is malloc()ed. */
	int (*save_config)(struct tf_ctx *c, uint8_t **data, size_t *len, struct tf_err *err);
	/* One object of the chip's object table by its name (a maXTouch
	 * "T7"), instance @inst, after detect() found the chip in application
	 * mode: *@addr its address, *@size its size (at most
	 * TF_OBJECT_MAX), @buf its bytes as the chip has them now.  -ENOENT
	 * with @err naming what the table has when there is no such object
	 * or instance, -EINVAL for a name that is none. */
	int (*object_read)(struct tf_ctx *c, const char *name, unsigned inst, uint16_t *addr,
			   uint8_t buf[], size_t *size, struct tf_err *err);
	/* Write @n bytes at offset @off of that object, into the chip's RAM
	 * (not backed up to its NVM), and read them back: -ERANGE past the
	 * object's end (by the object table), -EPERM for an object that is
	 * no configuration (messages, commands, diagnostics). */
	int (*object_write)(struct tf_ctx *c, const char *name, unsigned inst, size_t off,
			    const uint8_t *data, size_t n, struct tf_err *err);
};

#define TF_OBJECT_MAX 256

/* Buses the family's own code can work over. */
enum tf_transport {
	TF_TRANSPORT_I2C = 1u << 0,   /* plain I2C transfers (I2C_RDWR) */
	TF_TRANSPORT_SMBUS = 1u << 1, /* SMBus-only adapters are enough */
	TF_TRANSPORT_SPI = 1u << 2,
};

/* The profile's lines (reset, interrupt/CHG). */
enum tf_line {
	TF_LINE_RESET = 1u << 0,
	TF_LINE_INT = 1u << 1,
};

struct tf_family_caps {
	unsigned transports;   /* TF_TRANSPORT_* */
	unsigned lines_needed; /* TF_LINE_*: bus paths are refused without them */
	/* Flashes firmware over the bus itself (enter_bootloader,
	 * write_firmware, leave_bootloader); the log says how it enters. */
	bool bus_flash;
	const char *enter_bootloader_desc; /* "how", for the log */
	/* detect() may find the chip in a bootloader instead of its
	 * application (then only bus flashing helps). */
	bool bootloader_mode;
	/*
	 * Bus flashing only to recover a chip left in its bootloader, which
	 * its driver's probe refuses (so no driver is bound and none can
	 * flash it): write_firmware from the bootloader as found, then
	 * leave_bootloader; never entering it from the application.  Done
	 * only where the board profile allows it (tf_controller.bus_recovery,
	 * the profile's allow-bus-recovery), as a fault there is the
	 * vendor's to support.
	 */
	bool bus_recovery;
	bool bus_config; /* writes configuration over the bus (write_config) */
	/* The kernel driver flashes a file it requests (kernel_fw_name) when
	 * @kernel_fw_value is written to its attribute @kernel_fw_attr;
	 * NULL: the driver has no such interface. */
	const char *kernel_fw_attr;
	const char *kernel_fw_value;
	/* Drivers (of ids->drivers) that register no input device again
	 * after a write to kernel_fw_attr: the flow unbinds and binds them
	 * afterwards.  NULL-terminated; NULL: none. */
	const char *const *kernel_fw_rebind;
	/* The driver applies a configuration file (kernel_cfg_name), at its
	 * probe or as the family's update path says (update_path
	 * config_through_driver); kernel_cfg_name may still refuse
	 * (-EOPNOTSUPP) on a board where the driver requests none. */
	bool kernel_cfg;
	/* Configurations carry a version the chip reports
	 * (tf_chip_state.config_version, the manifest's version parsed by the
	 * family's scheme); the plan chooses by it (plan.h). */
	bool config_versioned;
	/* The board can name the driver's configuration file (profile
	 * config-name); other families refuse a profile that gives one. */
	bool config_name;
	/* Installs no firmware at all, only configurations (no firmware
	 * interface in the driver, no bus flashing). */
	bool config_only;
	/* HID over I2C: the chip's HID descriptor register may be given by
	 * the profile (hid-descr-addr). */
	bool hid_over_i2c;
	/* The reset pulse touchfw gives when it owns the chip (gpio.h). */
	struct tf_reset_seq reset;
};

struct tf_blob;

struct tf_family {
	const struct tf_family_ids *ids;	 /* ids->name is the family's name */
	const struct tf_version_scheme *version; /* NULL: dotted */
	/*
	 * Optional: the family's rules for a manifest blob (hardware-id syntax,
	 * CRC widths, lengths), after the generic checks passed.  Returns 0, or
	 * -EINVAL with *@key the manifest key at fault and @msg the reason.
	 */
	int (*check_blob)(const struct tf_blob *b, const char **key, char *msg, size_t size);
	/*
	 * Optional: the family's rules for a blob's bytes (lengths, checksums,
	 * the version inside), checked whenever a blob is read or verified
	 * (`db check` too).  Returns 0, or -EBADMSG with the reason in @msg.
	 */
	int (*check_blob_data)(const struct tf_blob *b, const uint8_t *data, size_t len,
			       char *msg, size_t size);
	/*
	 * Optional: the family's rules for a board profile's controller node
	 * (addresses its chips can have, ...).  0, or -EINVAL with @msg.
	 */
	int (*check_controller)(const struct tf_controller *ctl, char *msg, size_t size);
	/*
	 * Optional: what a blob's bytes say (`db add`).  0, or -EBADMSG with
	 * @err naming @name when the bytes are not a blob of this family.
	 */
	int (*blob_facts)(const uint8_t *data, size_t len, const char *name,
			  struct tf_blob_facts *f, struct tf_err *err);
	/*
	 * Optional: turn @data, a file in a format people have that the
	 * driver does not load (a vendor tool's text, another driver's
	 * container), into the blob the driver loads (`db add`): *@out
	 * (malloc()ed), with its facts in @f as blob_facts gives them plus
	 * what only the source said (f->source_format, notes, f->ext the
	 * converted blob's).  @part picks one of several blobs a file holds
	 * (NULL: it must hold one).  0; -EMEDIUMTYPE: @data is in none of
	 * these formats (blob_facts takes it as it is); -EBADMSG with @err
	 * naming @name and the place at fault.
	 */
	int (*import_blob)(const uint8_t *data, size_t len, const char *name, const char *part,
			   uint8_t **out, size_t *out_len, struct tf_blob_facts *f,
			   struct tf_err *err);
	/*
	 * Optional, for people whose chip has no firmware in the database:
	 * where a board's own file comes from, in the family's words (the
	 * vendor's driver package, a community collection), one sentence.
	 */
	const char *firmware_source;
	/*
	 * Optional: what a verified update of this family can not prove, in
	 * its words, said with every "verified" (doc/families.md, "What
	 * 'verified' proves").
	 */
	const char *unproven;
	/*
	 * The width in bits of the CRCs the family's chips report
	 * (tf_chip_state, a manifest's info_crc/config_crc): every place
	 * that shows one formats it by this (tf_crc_text), so a family's
	 * CRC reads one way in log, table and JSON.  0: 32 (or no CRCs).
	 */
	unsigned crc_bits;
	/*
	 * Optional: manifest keys of a blob section that are this family's
	 * words ("info_crc": a maXTouch info block's CRC), NULL-terminated.
	 * The shared manifest parser reads such a key's value but refuses it
	 * in the sections of families that do not list it.
	 */
	const char *const *manifest_keys;
	/* Optional: the chip's interrupt line in the family's words ("CHG"),
	 * for the log; NULL: "interrupt". */
	const char *irq_line;
	/* Optional: the files `touchfw flash` takes, in the family's words,
	 * for its --help: --firmware's ("image .fw or .enc") and --config's
	 * ("OBP_RAW .cfg"); NULL: none the family takes by hand. */
	const char *flash_firmware_files, *flash_config_files;
	struct tf_family_caps caps;
	const struct tf_family_ops *ops;
};

/* @f's crc_bits; 0 (taken as 32) for no family. */
static inline unsigned tf_family_crc_bits(const struct tf_family *f)
{
	return f ? f->crc_bits : 0;
}

/* All families, registry order (registry.def), NULL-terminated. */
extern const struct tf_family *const tf_families[];
/* By name (a profile's family), NULL if none. */
const struct tf_family *tf_family_by_name(const char *name);
/* The family whose ids list @driver, NULL if none. */
const struct tf_family *tf_family_by_driver(const char *driver);
/* Does @f list @key in its manifest_keys? */
bool tf_family_has_manifest_key(const struct tf_family *f, const char *key);
/* Is @driver one of @f's kernel drivers? */
bool tf_family_has_driver(const struct tf_family *f, const char *driver);
/*
 * Is @f complete: every operation its capabilities promise is there?
 * 0, or -EINVAL with the reason in @why.  (The unit tests hold every
 * registered family to it.)
 */
int tf_family_check(const struct tf_family *f, char *why, size_t size);
/*
 * Does the profile's controller @ctl suit its family @f: generic rules from
 * the capabilities (config-name only where the driver takes one) and the
 * family's check_controller.  0, or -EINVAL with the reason in @msg.
 */
int tf_family_check_controller(const struct tf_family *f, const struct tf_controller *ctl,
			       char *msg, size_t size);

/*
 * The bound driver's attribute @name (c->dev.syspath/@name) into @buf,
 * trailing newline and blanks cut (driver-attr.c).  One missing or empty
 * is read again for up to @wait_ms while the driver link stays: a driver's
 * attributes come at the end of its probe or after it, and the link exists
 * during the probe.  0; -EIO naming the attribute; -ENODEV when the link
 * went away (or to another driver) meanwhile: the probe failed.
 */
int tf_driver_attr_wait(const struct tf_ctx *c, const char *name, char *buf, size_t size,
			unsigned wait_ms, struct tf_err *err);

/*
 * A firmware image that is the file's bytes as they are (plain-image.c),
 * for families whose driver loads the file itself: load_firmware checks
 * the bytes, then hands them to tf_plain_image_take(), which keeps them
 * as *@img (or frees them when it can not); tf_plain_image_free and
 * tf_plain_image_bytes serve as free_firmware and kernel_firmware.
 */
int tf_plain_image_take(uint8_t *data, size_t len, void **img, struct tf_err *err);
void tf_plain_image_free(void *img);
void tf_plain_image_bytes(void *img, const uint8_t **data, size_t *len);

#endif /* TF_FAMILY_H */
