/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * maXTouch (atmel_mxt_ts) support: the info block, firmware images (.fw
 * binary and the vendor's .enc hex form), OBP_RAW configuration files, and
 * the bootloader and object protocols over i2c-dev.  Facts from
 * drivers/input/touchscreen/atmel_mxt_ts.c (Linux 6.1); the parsers are
 * pure functions over a buffer.
 */
#ifndef TF_FAMILY_MXT_H
#define TF_FAMILY_MXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define MXT_INFO_SIZE 7
#define MXT_OBJ_ENTRY 6
#define MXT_INFO_CRC_SIZE 3
#define MXT_MAX_OBJECTS 255

/* Object types touchfw cares about (atmel_mxt_ts.c, mxt-app). */
#define MXT_T3 3
#define MXT_T4 4
#define MXT_T5 5
#define MXT_T6 6
#define MXT_T7 7
#define MXT_T37 37
#define MXT_T44 44
#define MXT_T53 53
#define MXT_T160 160
#define MXT_T144 144 /* over spi: write data carries a CRC8 (mchp_spi_ts) */
#define MXT_T71 71

/* Bootloader status (atmel_mxt_ts.c). */
#define MXT_WAITING_BOOTLOAD_CMD 0xc0
#define MXT_WAITING_FRAME_DATA 0x80
#define MXT_APP_CRC_FAIL 0x40
#define MXT_FRAME_CRC_CHECK 0x02
#define MXT_FRAME_CRC_FAIL 0x03
#define MXT_FRAME_CRC_PASS 0x04
#define MXT_BOOT_STATUS_MASK 0x3f
#define MXT_BOOT_EXTENDED_ID 0x20

struct mxt_object {
	uint8_t type;
	uint16_t start;
	uint16_t size; /* per instance */
	uint16_t instances;
	uint8_t report_ids; /* per instance */
};

struct mxt_info {
	uint8_t family, variant, version, build, matrix_x, matrix_y;
	uint8_t num_objects;
	struct mxt_object obj[MXT_MAX_OBJECTS];
	uint32_t crc_read, crc_calc;
	uint16_t cfg_start; /* end of the info block: where the kernel's image starts */
	uint16_t crc_start; /* T71, else T7: where the config CRC starts */
	uint16_t mem_size;  /* end of object memory */
	uint16_t t5, t5_size, t6, t44;
	uint8_t t6_rid;
};

uint32_t mxt_crc24(const uint8_t *p, size_t n);
/*
 * Parse a whole info block (7 bytes + objects + CRC) from @buf.  Fails if it
 * is short, the CRC is zero or wrong (-EBADMSG), or the object table is not
 * usable (no T5/T6, T5 not right after T44, overlapping objects).
 */
int mxt_info_parse(const uint8_t *buf, size_t len, struct mxt_info *info, struct tf_err *err);
const struct mxt_object *mxt_info_object(const struct mxt_info *info, uint8_t type);
/* "M.m.BB" as atmel's fw_version prints it; "F.V" as hw_version does. */
void mxt_version_string(uint8_t version, uint8_t build, char *buf, size_t size);
void mxt_hw_string(uint8_t family, uint8_t variant, char *buf, size_t size);
/* Bootloader address for @app; @alt picks app - 0x24; 0 if unmapped. */
uint16_t mxt_bootloader_addr(uint16_t app, bool alt);
/* Is @s a status byte a maXTouch bootloader can send? */
bool mxt_status_plausible(uint8_t s);
const char *mxt_status_name(uint8_t s);

/* ------------------------------------------------------------ images */

enum mxt_fw_form { MXT_FW_AUTO, MXT_FW_BINARY, MXT_FW_ENC };

struct mxt_fw {
	uint8_t *data; /* binary frames */
	size_t len;
	size_t frames;
	size_t max_frame;
	bool was_enc;
};

/*
 * Accept a .fw (binary frames) or .enc (ASCII hex of the same bytes, one
 * string, optional trailing newline).  .enc is decoded strictly: odd length
 * or a non-hex character is an error naming the offset.  The frame chain
 * must cover the data exactly: a truncated last frame is an error.
 */
int mxt_fw_parse(const uint8_t *buf, size_t len, enum mxt_fw_form form, struct mxt_fw *fw,
		 struct tf_err *err);
/* The same, taking @buf (malloc()ed): a binary image is kept as it is, not
 * copied (so a large image is held once); freed on error and for .enc. */
int mxt_fw_parse_owned(uint8_t *buf, size_t len, enum mxt_fw_form form, struct mxt_fw *fw,
		       struct tf_err *err);
void mxt_fw_free(struct mxt_fw *fw);
/* Length of the frame at @off (header + payload), 0 if none. */
size_t mxt_fw_frame_len(const struct mxt_fw *fw, size_t off);

/* ------------------------------------------------------------ OBP_RAW */

struct mxt_cfg_obj {
	uint16_t type, instance, size;
	uint8_t *data;
	unsigned line;
};

struct mxt_cfg {
	uint8_t info[MXT_INFO_SIZE];
	uint32_t info_crc, config_crc;
	size_t n;
	struct mxt_cfg_obj *obj;
};

int mxt_cfg_parse(const char *buf, size_t len, struct mxt_cfg *cfg, struct tf_err *err);
void mxt_cfg_free(struct mxt_cfg *cfg);

/*
 * Lay the configuration out for a chip with @info, from the end of the info
 * block to info->mem_size, zero-filled where the file says nothing (as the
 * kernel's mxt_prepare_cfg_mem).  Stricter than the kernel: family and
 * variant must match, and so must the info-block CRC unless @force; objects
 * the chip lacks, oversize objects or bad instances are errors; the file's
 * config CRC, when not zero, must match the contents.  Entries for
 * volatile objects are skipped (not configuration; a non-zero T6 byte would
 * be a command).  *@mem covers [*@start, *@start + *@len); *@crc is the CRC24
 * from info->crc_start (T71 or T7) to the end, as the chip reports it.
 */
int mxt_cfg_image(const struct mxt_cfg *cfg, const struct mxt_info *info, bool force,
		  uint8_t **mem, uint16_t *start, uint16_t *len, uint32_t *crc,
		  struct tf_err *err);

/*
 * Objects that are not configuration -- debug (T3, T4, T37, T53), messages
 * (T5), commands (T6), message count (T44), T160 -- as mxt-app's
 * mxt_object_is_volatile lists them: never written from a configuration,
 * never saved into one.  Everything else is configuration, T38 user data
 * included (backed up to NVM, though outside the config CRC).
 */
bool mxt_volatile_object(uint16_t type);

/* ------------------------------------------------------------ .xcfg */

/* What an .xcfg said beyond what its OBP_RAW form shows (mxt-xcfg.c). */
struct mxt_xcfg_info {
	bool has_matrix; /* MATRIX_X, MATRIX_Y, NO_OBJECTS given (maXTouch Studio) */
	size_t n_objects, n_values;
	uint32_t config_crc; /* CHECKSUM; 0: not given */
};

/* Does @buf start (after a UTF-8 BOM and blank lines) as an .xcfg does:
 * with [COMMENTS] or [VERSION_INFO_HEADER]? */
bool mxt_xcfg_detect(const uint8_t *buf, size_t len);
/*
 * Convert the .xcfg text @buf (maXTouch Studio's, mxt-app's) into the
 * OBP_RAW V1 text atmel_mxt_ts loads: *@raw (malloc()ed, NUL-terminated,
 * *@raw_len bytes without the NUL), formatted as mxt-app writes OBP_RAW
 * (upper-case hex, "%04X %04X %04X" then " %02X" per byte), objects in the
 * file's order.  0, or -EBADMSG naming @name and the line at fault.
 */
int mxt_xcfg_to_raw(const char *buf, size_t len, const char *name, char **raw, size_t *raw_len,
		    struct mxt_xcfg_info *info, struct tf_err *err);

/* ------------------------------------------------------------ family */

struct tf_version;
struct tf_version_scheme;
struct tf_family_ops;
struct tf_blob;
struct tf_family_ids;

/* Drivers and ids (ids.c). */
extern const struct tf_family_ids tf_family_ids_mxt;

/* MAJOR.MINOR.BUILD (version.c). */
extern const struct tf_version_scheme mxt_version_scheme;
/* The version an info block reports (version byte, build byte). */
void mxt_version_from_info(uint8_t version_byte, uint8_t build, struct tf_version *v);
/* Manifest rules (blob.c). */
bool mxt_hw_id_ok(const char *s);
int mxt_check_blob(const struct tf_blob *b, const char **key, char *msg, size_t size);
struct tf_blob_facts;
int mxt_blob_facts(const uint8_t *data, size_t len, const char *name, struct tf_blob_facts *f,
		   struct tf_err *err);
/* An .xcfg as its OBP_RAW V1 form (family.h, import_blob). */
int mxt_import_blob(const uint8_t *data, size_t len, const char *name, const char *part,
		    uint8_t **out, size_t *out_len, struct tf_blob_facts *f,
		    struct tf_err *err);
int mxt_check_blob_data(const struct tf_blob *b, const uint8_t *data, size_t len, char *msg,
			size_t size);
/* The flow's operations (mxt-ops.c). */
extern const struct tf_family_ops mxt_ops;
/* The update path where the drivers differ: the configuration file
 * (mxt-path.c); the file's name as both drivers request it. */
struct tf_update_path;
extern const struct tf_update_path mxt_update_path;
int mxt_cfg_file_name(char *buf, size_t size, struct tf_err *err);

/* ------------------------------------------------------------ spi (mxt-spi.c) */

struct tf_spi;

#define MXT_SPI_HEADER 6
#define MXT_SPI_MAX_LEN 64     /* MXT_MAX_SPI_BLOCK */
#define MXT_SPI_MAX_LEN_CRC 14 /* MXT_MAX_SPI_BLOCK_CRC: with the data CRC */
/* Chip-select gap between a request and its response: what mchp_spi_ts
 * leaves where it does not wait for CHG after it (mxt_spi_transfer's and
 * mxt_spi_write_xfer's 1000 us).  Its paths with 500 us (mxt_spi_read_req's
 * cs_change_delay, mxt_spi_write_req's delay_usecs) wait for CHG after
 * that, which touchfw over spidev does not; the bootloader's frames and
 * status reads, most of a flash, have no gap at all. */
#define MXT_SPI_GAP_US 1000
#define MXT_SPI_WRITE_REQ 0x01
#define MXT_SPI_READ_REQ 0x02
#define MXT_SPI_WRITE_OK 0x81
#define MXT_SPI_WRITE_FAIL 0x41
#define MXT_SPI_READ_OK 0x82
#define MXT_SPI_READ_FAIL 0x42
#define MXT_SPI_INVALID_REQ 0x04
#define MXT_SPI_INVALID_CRC 0x08

/* __mxt_calc_crc8: reflected, polynomial 0x8C, init 0 (CRC-8/MAXIM). */
uint8_t mxt_spi_crc8(const uint8_t *p, size_t n);
void mxt_spi_header(uint8_t op, uint16_t reg, uint16_t len, uint8_t h[MXT_SPI_HEADER]);
const char *mxt_spi_reply_name(uint8_t reply);
/* 0 for @ok, -ENXIO for 0xFF (nobody answered), -EIO for a read/write
 * failure, -EPROTO for an invalid request or CRC (or anything else). */
int mxt_spi_reply_errno(uint8_t reply, uint8_t ok);
/* Register access in requests of at most 64 bytes; *@reply gets the last
 * verdict byte (for messages). */
int mxt_spi_read(struct tf_spi *s, uint16_t reg, uint8_t *buf, size_t len, uint8_t *reply);
/* With @data_crc (the chip lists T144: mchp_spi_ts's crc_enabled) each
 * write request carries at most 14 data bytes and their CRC8 after them,
 * counted in the header's length. */
int mxt_spi_write(struct tf_spi *s, uint16_t reg, const uint8_t *buf, size_t len, bool data_crc,
		  uint8_t *reply);
/* One write request frame (header, @n <= 64 data bytes, with @data_crc
 * their CRC8 and n <= 14) into @out; returns its length. */
size_t mxt_spi_write_frame(uint16_t reg, const uint8_t *data, uint16_t n, bool data_crc,
			   uint8_t out[MXT_SPI_HEADER + MXT_SPI_MAX_LEN + 1]);
/* Bootloader: @n (<= 8) status bytes; -ENXIO when nothing answered. */
int mxt_spi_bl_read(struct tf_spi *s, uint8_t *buf, size_t n);
int mxt_spi_bl_write(struct tf_spi *s, const uint8_t *buf, size_t n);

#endif /* TF_FAMILY_MXT_H */
