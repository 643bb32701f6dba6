/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Board profiles: which touch controllers a board has, on which adapter and
 * address, with which GPIO lines, and whether its kernel driver owns the
 * chip's power.  OEMs write profiles as device-tree source (.dts files in
 * boards/, documented in boards/README.md); this module reads the compiled
 * blobs with libfdt, identifies the running machine (root compatible from the
 * boot FDT, or DMI on ACPI systems) and picks the profile that describes it.
 *
 * The parser is a pure function over a buffer and is strict: every unknown
 * property or node, every missing or malformed value is reported with the
 * node path, all at once, so `touchfw board check` explains a profile's
 * mistakes in one run.  Nothing here logs.
 */
#ifndef TF_BOARD_H
#define TF_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpio.h"
#include "util.h"

/* The only profile format version this touchfw reads. */
#define TF_BOARD_PROFILE_VERSION 1

/* Bounds of a controller's timeouts (boards/README.md); a profile that
 * gives none leaves them to the settings file. */
#define TF_BOARD_INPUT_TIMEOUT_MIN_MS 100u
#define TF_BOARD_INPUT_TIMEOUT_MAX_MS 600000u
#define TF_BOARD_FLASH_TIMEOUT_MIN_MS 1000u
#define TF_BOARD_FLASH_TIMEOUT_MAX_MS 3600000u
#define TF_BOARD_SPI_HZ_MIN 1000u
#define TF_BOARD_SPI_HZ_MAX 200000000u

/* Largest profile blob accepted; real ones are a few hundred bytes. */
#define TF_BOARD_MAX_DTB_SIZE (1024u * 1024u)

/* Who switches the chip's supplies and reset line (the profile's power
 * property, doc/touchfw-board.5). */
enum tf_power {
	/*
	 * The kernel driver does, on bind and unbind: never unbind to flash;
	 * flash a bootloader-mode chip with the driver bound, or use the
	 * driver's update_fw.
	 */
	TF_POWER_DRIVER,
	/* Supplies are always on: safe to unbind and flash over i2c-dev. */
	TF_POWER_ALWAYS_ON,
};

/*
 * DMI keys a profile may match, named like the files in /sys/class/dmi/id.
 * Serial numbers, UUIDs and asset tags are left out on purpose: they name
 * one unit, not a board.
 */
enum tf_dmi_key {
	TF_DMI_BIOS_VENDOR,
	TF_DMI_BIOS_VERSION,
	TF_DMI_BIOS_DATE,
	TF_DMI_BIOS_RELEASE,
	TF_DMI_EC_FIRMWARE_RELEASE,
	TF_DMI_SYS_VENDOR,
	TF_DMI_PRODUCT_NAME,
	TF_DMI_PRODUCT_VERSION,
	TF_DMI_PRODUCT_FAMILY,
	TF_DMI_PRODUCT_SKU,
	TF_DMI_BOARD_VENDOR,
	TF_DMI_BOARD_NAME,
	TF_DMI_BOARD_VERSION,
	TF_DMI_CHASSIS_VENDOR,
	TF_DMI_CHASSIS_TYPE,
	TF_DMI_CHASSIS_VERSION,
	TF_DMI_KEY_COUNT_,
};

/* Profile property name ("sys-vendor"). */
const char *tf_dmi_key_property(enum tf_dmi_key key);

/* One controller node of a profile, validated. */
struct tf_controller {
	char node_path[256];	 /* "/controllers/touchscreen@4a" */
	char family[16];	 /* a family name (agent/family/) */
	char bus[8];		 /* "i2c" or "spi" */
	char adapter_name[128];	 /* exactly one of adapter_name and */
	char adapter_path[256];	 /* adapter_path is non-empty */
	uint16_t reg;		 /* i2c address or spi chip select */
	bool has_bootloader_reg; /* else the family's rule applies */
	uint16_t bootloader_reg;
	/* hid-descr-addr: the HID descriptor register of a HID-over-I2C
	 * part (ACPI's _DSM gives it to i2c_hid; user space can not read
	 * that), for families with caps.hid_over_i2c */
	bool has_hid_descr_addr;
	uint16_t hid_descr_addr;
	char driver[32]; /* expected kernel driver, "" if not given */
	bool has_reset, has_irq;
	struct tf_gpio_spec reset, irq;
	enum tf_power power;
	char firmware_pin[64], config_pin[64];	     /* firmware DB ids, or "" */
	uint32_t input_timeout_ms, flash_timeout_ms; /* 0: not given, settings apply */
	/* The configuration file name the board's device tree gives the
	 * driver ("vendor,config-name"), "" if none. */
	char config_name[65];
	/* The device tree swaps the axes (touchscreen-swapped-x-y): the
	 * driver's ABS_MT_POSITION_X range is then the panel's Y. */
	bool swapped_x_y;
	/* allow-bus-recovery: touchfw may flash a chip left in its
	 * bootloader over the bus where the driver can not (families with
	 * caps.bus_recovery); the board's maker allows it. */
	bool bus_recovery;
	/* touchscreen-size-x/-y of the board's kernel properties (DT, or
	 * the kernel's DMI table on x86 tablets), 0 if not given: the
	 * driver's ABS_MT_POSITION_X/Y maxima are then size - 1 (swapped
	 * with swapped_x_y). */
	uint32_t size_x, size_y;
	/* spi only: spi-max-frequency (0: not given), spi-cpol/spi-cpha
	 * (has_spi_mode: either given; SPI_CPHA 1 | SPI_CPOL 2), spi-bits-per-word
	 * (0: not given).  What is not given, the device keeps. */
	uint32_t spi_max_hz;
	bool has_spi_mode;
	uint8_t spi_mode;
	uint8_t spi_bits;
};

/* dmi-match: the key's value must equal (or fnmatch) one of @patterns. */
struct tf_dmi_match {
	enum tf_dmi_key key;
	char **patterns;
	size_t n_patterns;
};

struct tf_board_profile {
	char path[4096]; /* the file it came from ("" if none given) */
	char name[64];	 /* file base name without .dtb/.dts */
	char model[128];
	/* DT boards: root compatible strings this profile describes. */
	char **compatible;
	size_t n_compatible;
	/* ACPI boards: every key must match (n_dmi > 0 iff dmi-match given). */
	struct tf_dmi_match *dmi;
	size_t n_dmi;
	/* Ids the firmware DB's "boards =" key refers to; never empty. */
	char **board_ids;
	size_t n_board_ids;
	struct tf_controller *ctrl;
	size_t n_ctrl;
};

/* The running machine, as far as matching is concerned. */
struct tf_board_identity {
	/* Root compatible, most specific first; empty on ACPI machines. */
	char **compatible;
	size_t n_compatible;
	/* Where it came from: "/sys/firmware/fdt", ".../compatible" or "". */
	char compatible_source[64];
	/* DMI values (trailing whitespace removed); absent keys never match. */
	bool has_dmi;
	bool dmi_present[TF_DMI_KEY_COUNT_];
	char dmi[TF_DMI_KEY_COUNT_][256];
};

/* One mistake: the node it is about ("" for the file as a whole). */
struct tf_board_issue {
	char node[256];
	char msg[384];
};

/* Every mistake found in one profile; at most TF_BOARD_MAX_ISSUES kept. */
#define TF_BOARD_MAX_ISSUES 64
struct tf_board_report {
	struct tf_board_issue *issues;
	size_t n;
	size_t n_dropped; /* over the cap, or lost to allocation failure */
};

void tf_board_report_init(struct tf_board_report *rep);
void tf_board_report_free(struct tf_board_report *rep);

/*
 * Parse and validate a compiled profile.  @path names the file (for
 * tf_board_profile.path and the default board id); it may be NULL.  Pure:
 * no I/O.  Returns 0 and *@out, or -EINVAL with every mistake added to
 * @rep (may be NULL), or -ENOMEM.
 */
int tf_board_parse(const void *dtb, size_t len, const char *path, struct tf_board_profile **out,
		   struct tf_board_report *rep);
void tf_board_free(struct tf_board_profile *p);

/*
 * Read the running machine's identity below @sysroot ("" for the real
 * root): root compatible from <sysroot>/sys/firmware/fdt (the boot FDT,
 * readable by root only), else <sysroot>/proc/device-tree/compatible; DMI
 * from <sysroot>/sys/class/dmi/id/<key>.  A machine with neither yields an
 * empty identity, not an error.  Free with tf_board_identity_free().
 */
int tf_board_identify(const char *sysroot, struct tf_board_identity *id, struct tf_err *err);
void tf_board_identity_free(struct tf_board_identity *id);

/*
 * Is @value (a DMI string, or a dmi-match pattern) one of the placeholders
 * firmware vendors' templates leave in boards nobody named ("Default
 * string", "To be filled by O.E.M.", "System Product Name", "Not
 * Applicable", ...)?  Case and surrounding blanks do not count.  A profile
 * matching one matches every such machine.
 */
bool tf_dmi_placeholder(const char *value);

/*
 * All profiles (*.dtb) of @dirs, highest priority first (normally
 * TF_SYSCONFDIR "/boards", then TF_DATADIR "/boards").  A file name in an
 * earlier directory overrides the same name in later ones; an empty file or
 * a symlink to /dev/null there masks it.  Invalid profiles are kept aside
 * with their reports and do not stop the others.  A missing directory is
 * skipped; an unreadable one is an error (it might hold an override).
 * A .dts there is not read (see tf_board_set_ignored_path()).
 */
struct tf_board_set;
int tf_board_load(const char *const *dirs, size_t n_dirs, struct tf_board_set **out,
		  struct tf_err *err);
void tf_board_set_free(struct tf_board_set *set);

/* Valid profiles in precedence order: directory order, then file name. */
size_t tf_board_set_count(const struct tf_board_set *set);
const struct tf_board_profile *tf_board_set_get(const struct tf_board_set *set, size_t i);
/* Profiles that failed to read or parse, with their mistakes. */
size_t tf_board_set_invalid_count(const struct tf_board_set *set);
const char *tf_board_set_invalid_path(const struct tf_board_set *set, size_t i);
const struct tf_board_report *tf_board_set_invalid_report(const struct tf_board_set *set,
							  size_t i);
/*
 * Device-tree sources (*.dts) found in the directories without their
 * compiled .dtb beside them: touchfw reads only compiled profiles, so
 * these are not used -- callers warn, naming the file.
 */
size_t tf_board_set_ignored_count(const struct tf_board_set *set);
const char *tf_board_set_ignored_path(const struct tf_board_set *set, size_t i);
/* The warning for one of them: "ignoring PATH: ... compile it with dtc". */
void tf_board_ignored_message(const char *path, char *buf, size_t size);
/* Files not used because an earlier directory has the same name. */
size_t tf_board_set_shadowed_count(const struct tf_board_set *set);
const char *tf_board_set_shadowed_path(const struct tf_board_set *set, size_t i,
				       const char **by);

/* How a profile matched an identity. */
enum tf_board_match_kind {
	TF_BOARD_MATCH_NONE,
	TF_BOARD_MATCH_COMPATIBLE, /* by a root compatible string */
	TF_BOARD_MATCH_DMI,	   /* by every key of its dmi-match */
};

struct tf_board_match_info {
	enum tf_board_match_kind kind;
	/* COMPATIBLE: index into the identity's list (0 = most specific). */
	size_t compatible_index;
	/* DMI: how many keys the profile's dmi-match has. */
	size_t n_dmi_keys;
};

/*
 * Does @p describe @id?  Fills @info (may be NULL) with how.  A
 * board-compatible profile matches when any of its strings is in the root
 * compatible list; a dmi-match profile when every key matches.
 */
bool tf_board_profile_matches(const struct tf_board_profile *p,
			      const struct tf_board_identity *id,
			      struct tf_board_match_info *info);

/*
 * The profile that describes @id, or NULL.  Precedence: a compatible match
 * beats a DMI match; among compatible matches the one naming the earliest
 * (most specific) root compatible wins; among DMI matches the one with the
 * most keys; remaining ties go to set order (directory, then file name).
 */
const struct tf_board_profile *tf_board_match(const struct tf_board_set *set,
					      const struct tf_board_identity *id,
					      struct tf_board_match_info *info);

/*
 * (board-conflict.c) Another profile of @set that matches @id exactly as
 * well as @pick (the match) does -- a tie only set order would break --
 * and disagrees with it (board ids, a controller, one of its properties);
 * what differs is in @why.  NULL when there is none: profiles that agree
 * may tie.  Callers refuse such a board (exit profile-invalid).
 */
const struct tf_board_profile *tf_board_match_conflict(const struct tf_board_set *set,
						       const struct tf_board_identity *id,
						       const struct tf_board_profile *pick,
						       char *why, size_t size);

/*
 * The controller of @p on @bus ("i2c"/"spi") at @reg whose adapter is
 * @adapter_name (the adapter's sysfs "name") or @adapter_of_path (the DT
 * path of the adapter's of_node; a /sys/firmware/devicetree/base or
 * /proc/device-tree prefix is ignored).  Either may be NULL when unknown.
 */
const struct tf_controller *tf_board_find_controller(const struct tf_board_profile *p,
						     const char *bus, const char *adapter_name,
						     const char *adapter_of_path, uint16_t reg);

/*
 * The controller of @p for a device on @bus and that adapter, as
 * tf_board_find_controller() finds it at @reg, or at 0 when the device has
 * no address (!@has_reg).  ACPI-named clients have no address in their
 * name: for them, when that finds nothing, the only controller on that
 * adapter; NULL if there are several.
 */
const struct tf_controller *tf_board_lookup_controller(const struct tf_board_profile *p,
						       const char *bus,
						       const char *adapter_name,
						       const char *adapter_of_path,
						       bool has_reg, uint16_t reg);

/* A device no profile's controller describes, as the kernel shows it. */
struct tf_board_miss_device {
	const char *bus;	     /* "i2c" / "spi" */
	const char *adapter_name;    /* the adapter's sysfs name, or NULL */
	const char *adapter_of_path; /* its of_node path, or NULL */
	bool has_reg;		     /* ACPI-named clients have none */
	uint16_t reg;
	const char *driver; /* bound driver, "" or NULL if none */
};

/*
 * Why nothing in @set describes @d on the machine @id: the profile that
 * came nearest (board match first, then a controller on the device's
 * adapter and address, then its driver) and what differed -- its
 * board-compatible or dmi-match, the controller's adapter or address, or
 * its driver -- as one sentence in @buf, e.g. "nearest profile x (PATH):
 * its board-compatible "a" differs from this board's "b"; its controller
 * /controllers/touchscreen@4a is this device".  Pure.
 */
void tf_board_explain_miss(const struct tf_board_set *set, const struct tf_board_identity *id,
			   const struct tf_board_miss_device *d, char *buf, size_t size);

/*
 * Why no profile in @set matches the machine @id (`board identify`): the
 * profile that came nearest -- of the kind this machine is identified by
 * (root compatible or DMI), then sharing the most: a vendor prefix of a
 * compatible, dmi-match keys that agree -- and what differed, as one
 * sentence in @buf: "nearest profile x (PATH): its dmi-match sys-vendor
 * "A" differs from this machine's "B" (1 of 2 dmi-match keys agree)".
 * Pure.
 */
void tf_board_explain_board_miss(const struct tf_board_set *set,
				 const struct tf_board_identity *id, char *buf, size_t size);

/* "driver" / "always-on". */
const char *tf_power_name(enum tf_power power);

#endif /* TF_BOARD_H */
