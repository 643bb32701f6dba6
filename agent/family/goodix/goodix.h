/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Goodix GT9xx / GT1x (goodix_ts, drivers/input/touchscreen/goodix.c and
 * goodix.h, Linux 6.1): the facts touchfw needs about the chips and their
 * configuration blobs, as data and pure functions over a buffer.  The chip
 * id read at 0x8140 decides where the configuration lives, how long it is
 * and how its checksum is made (goodix_chip_ids, goodix_get_chip_data); a
 * blob is checked exactly as goodix_check_cfg_8/_16 would, and stricter:
 * its length must be the one this chip reads.  Nothing here touches a bus
 * or a file, and nothing here ever repairs a checksum.
 */
#ifndef TF_FAMILY_GOODIX_H
#define TF_FAMILY_GOODIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* Registers (goodix.h): 16-bit addresses, big-endian on the wire. */
#define GOODIX_REG_COMMAND 0x8040
#define GOODIX_REG_ID 0x8140 /* 4 ASCII id bytes, LE16 firmware version */
#define GOODIX_ID_READ_LEN 6
#define GOODIX_ID_MAX_LEN 4
#define GOODIX_GT9X_REG_CONFIG 0x8047
#define GOODIX_GT1X_REG_CONFIG 0x8050

/* Config lengths (goodix.c GOODIX_CONFIG_*_LENGTH). */
#define GOODIX_CONFIG_MIN_LENGTH 186
#define GOODIX_CONFIG_911_LENGTH 186
#define GOODIX_CONFIG_967_LENGTH 228
#define GOODIX_CONFIG_GT9X_LENGTH 240
#define GOODIX_CONFIG_MAX_LENGTH 240

/* Fields of a configuration (goodix.c RESOLUTION_LOC, MAX_CONTACTS_LOC). */
#define GOODIX_CFG_VERSION_LOC 0
#define GOODIX_CFG_RESOLUTION_LOC 1
#define GOODIX_CFG_MAX_CONTACTS_LOC 5

/* goodix_send_cfg: "Let the firmware reconfigure itself, so sleep 10ms". */
#define GOODIX_CONFIG_SETTLE_US 10000

/* I2C addresses, chosen by the INT level while RESET is released
 * (goodix_reset_no_int_sync: INT high -> 0x14, low -> 0x5d). */
#define GOODIX_ADDR_INT_HIGH 0x14
#define GOODIX_ADDR_INT_LOW 0x5d

/* The driver's name in sysfs (goodix_ts_driver.driver.name). */
#define GOODIX_DRIVER_NAME "Goodix-TS"

enum goodix_checksum {
	GOODIX_CHECKSUM_8,  /* goodix_check_cfg_8: byte len-2, fresh at len-1 */
	GOODIX_CHECKSUM_16, /* goodix_check_cfg_16: BE16 at len-3, fresh at len-1 */
};

/* What a chip id means for its configuration (goodix_chip_data). */
struct goodix_chip_data {
	const char *klass; /* "GT911", "GT967", "GT9x", "GT1x": for messages */
	uint16_t config_reg;
	uint16_t config_len;
	enum goodix_checksum checksum;
};

/*
 * The chip data for @id, as goodix_get_chip_data: ids the kernel lists get
 * theirs, every other id the GT9x default (0x8047, 240 bytes, 8-bit).
 */
const struct goodix_chip_data *goodix_chip_data_for(const char *id);

/*
 * Is @id something a chip can have reported and a file name can carry:
 * 1..4 characters of [0-9A-Za-z]?  (The kernel prints whatever the chip
 * says into "goodix_%s_cfg.bin"; touchfw refuses to compute a path from
 * anything else.)
 */
bool goodix_id_valid(const char *id);

/* The product id and firmware version read at 0x8140. */
struct goodix_product {
	char id[GOODIX_ID_MAX_LEN + 1];
	uint16_t fw_version;
};

/*
 * Parse the 6 bytes read at GOODIX_REG_ID: the id ends at the first NUL of
 * its 4 bytes (as goodix_read_version's strscpy), the firmware version is
 * LE16.  -EBADMSG with a message when the id is empty or not printable
 * (a chip that is not a Goodix, or not running its firmware).
 */
int goodix_product_parse(const uint8_t *buf, size_t len, struct goodix_product *p,
			 struct tf_err *err);

/* What touchfw reads out of a valid configuration. */
struct goodix_cfg_info {
	size_t len;
	uint8_t version;       /* byte 0 */
	uint16_t x_res, y_res; /* bytes 1-4, LE16 each */
	uint8_t max_touch;     /* byte 5, low nibble */
	enum goodix_checksum checksum_kind;
	uint16_t checksum; /* as stored: 8-bit or BE16 */
};

/*
 * The checksum goodix_check_cfg_8/_16 expect for @buf of @len bytes.  For
 * the 16-bit kind the kernel's loop sums words up to and including the one
 * at len-4, whose low byte is the checksum's own high byte: the value
 * depends on what is stored there, exactly as the kernel computes it.
 */
uint16_t goodix_cfg_checksum(enum goodix_checksum kind, const uint8_t *buf, size_t len);
/* The checksum stored in @buf (byte len-2, or BE16 at len-3). */
uint16_t goodix_cfg_stored_checksum(enum goodix_checksum kind, const uint8_t *buf, size_t len);

/*
 * Check a configuration blob for a chip whose data is @chip (id @id, for
 * messages), and read its fields.  @name names the file in messages.
 * Refused, with -EBADMSG and a message naming @name, the field, the value
 * expected and the value found: a length other than @chip's (shorter than
 * 186 bytes is "truncated"), a bad checksum, a fresh byte other than 1, a
 * zero resolution or contact count (the driver would fall back to its
 * defaults).  Never modifies or repairs anything.
 */
int goodix_cfg_check(const struct goodix_chip_data *chip, const char *id, const uint8_t *buf,
		     size_t len, const char *name, struct goodix_cfg_info *info,
		     struct tf_err *err);

/*
 * touchfw's digest of a configuration, standing in for the config CRC other
 * families' chips report: CRC-32 (IEEE 802.3) of bytes [0, len-1), the
 * config-fresh byte left out because the chip clears it once it has
 * applied the configuration.  Equal digests mean the same configuration.
 */
uint32_t goodix_cfg_digest(const uint8_t *buf, size_t len);

/*
 * The ABS_MT_POSITION_X/Y maxima goodix_read_config gives the input device
 * for a configuration with @info's resolution (x_res - 1, y_res - 1), then
 * swapped when the board sets touchscreen-swapped-x-y
 * (touchscreen_parse_properties).
 */
void goodix_cfg_axis_max(const struct goodix_cfg_info *info, bool swapped_x_y, int32_t *x_max,
			 int32_t *y_max);

/*
 * The file name goodix_ts_probe requests: "goodix/<config_name>" when the
 * board's goodix,config-name property is set (@config_name not NULL or ""),
 * else "goodix_<id>_cfg.bin".  -EINVAL if @id is not goodix_id_valid or
 * @config_name is not a plain file name; -ENAMETOOLONG if @size is short.
 */
int goodix_cfg_file_name(const char *id, const char *config_name, char *buf, size_t size);
/* A goodix,config-name value touchfw accepts: [A-Za-z0-9._-]+, no "."/"..",
 * at most 64 characters (the kernel's cfg_name buffer is 64 with "goodix/"). */
bool goodix_config_name_valid(const char *name);

/*
 * The firmware database's rule for a Goodix blob (`touchfw db check`, and
 * every read of a blob): only configurations (GT9xx firmware is flashed by
 * vendor tools only); the blob must be a valid configuration for every
 * chip id in @hardware (a 240-byte GT1x blob listed for a 186-byte GT911 is
 * "for another chip"), its version (byte 0) must not be 0 (the vendor
 * driver's "take it whatever you hold", which the chip renumbers), and
 * when @version is given (the manifest's) it must
 * be the blob's byte 0.  -EBADMSG with a message naming @name.
 */
int goodix_blob_check(const char *const *hardware, size_t n_hardware, const char *version,
		      const uint8_t *buf, size_t len, const char *name,
		      struct goodix_cfg_info *info, struct tf_err *err);

/*
 * Versions.  touchfw's scheme for this family, printed and parsed the same:
 *  - a configuration version is byte 0 of the blob, printed in decimal
 *    0..255 as the kernel prints it ("Config version mismatch %d != %d");
 *  - a firmware version is the LE16 at 0x8142, printed as "0x" and four
 *    lowercase hex digits (the kernel logs "version: %04x").
 * Parsing is strict (no blanks, signs, leading zeros or other case).
 */
int goodix_cfg_version_parse(const char *s, uint8_t *v);
int goodix_fw_version_parse(const char *s, uint16_t *v);
void goodix_cfg_version_format(uint8_t v, char *buf, size_t size);
void goodix_fw_version_format(uint16_t v, char *buf, size_t size);

/* ------------------------------------------------------------ family */

struct tf_version;
struct tf_version_scheme;
struct tf_family_ops;
struct tf_blob;
struct tf_family_ids;

/* Drivers and ids (ids.c). */
extern const struct tf_family_ids tf_family_ids_goodix;
/* Configuration and firmware versions (version.c). */
extern const struct tf_version_scheme goodix_version_scheme;
void goodix_version_cfg(uint8_t version, struct tf_version *v);
void goodix_version_fw(uint16_t fw, struct tf_version *v);
/* Manifest rules, on the section and on the bytes (blob.c). */
int goodix_check_blob(const struct tf_blob *b, const char **key, char *msg, size_t size);
int goodix_check_blob_data(const struct tf_blob *b, const uint8_t *data, size_t len, char *msg,
			   size_t size);
struct tf_blob_facts;
int goodix_blob_facts(const uint8_t *data, size_t len, const char *name,
		      struct tf_blob_facts *f, struct tf_err *err);
/* The flow's operations (goodix-ops.c). */
extern const struct tf_family_ops goodix_ops;

#endif /* TF_FAMILY_GOODIX_H */
