/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Cypress APA trackpads served by cyapa (drivers/input/mouse/cyapa.c,
 * cyapa_gen3.c, cyapa.h): the driver binds a trackpad in its application
 * and one stuck in its bootloader alike ("device detected but not
 * operational"), and flashes either through update_fw, which takes the
 * name of the file it requests.  touchfw stages the verified image under
 * that name, writes it, follows the driver until its new input device
 * appears, and reads the new version back.  Gen3, Gen5 and Gen6 (PIP)
 * parts; an image of another generation than the trackpad's is refused
 * before anything is written.
 */
#ifndef TF_CYAPA_H
#define TF_CYAPA_H

#include <stddef.h>
#include <stdint.h>

#include "family/family.h"

/* cyapa_gen3.c: the firmware file is 2 header blocks (the flash from
 * 0x0780) and 480 application blocks (from 0x0800), 64 bytes each. */
#define CYAPA_GEN3_BLOCK 64
#define CYAPA_GEN3_HDR_SIZE (2 * CYAPA_GEN3_BLOCK)
#define CYAPA_GEN3_DATA_SIZE (480 * CYAPA_GEN3_BLOCK)
#define CYAPA_GEN3_FW_SIZE (CYAPA_GEN3_HDR_SIZE + CYAPA_GEN3_DATA_SIZE) /* 30848 */

/* cyapa_gen5.c: a PIP image is a head (head_size + 1 bytes, head_size
 * 0x0c or 0x12), then records of flash array id, BE16 row, BE16 length
 * and a 128-byte row; the last is the metadata ("app integrity") row
 * 0x1ff. */
#define CYAPA_PIP_ROW 128
#define CYAPA_PIP_RECORD (5 + CYAPA_PIP_ROW)
#define CYAPA_PIP_META_ROW 0x1ff

/* The product id as product_id prints it: "CYTRA-116002-00" (5, 6 and 2
 * characters of the query block with dashes between, cyapa_gen3.c). */
#define CYAPA_PRODUCT_ID_LEN 15
#define CYAPA_PRODUCT_PREFIX "CYTRA"

/* The driver's attribute that flashes, and the file name written to it
 * (cyapa.c's CYAPA_FW_NAME, which ChromeOS's updater writes too). */
#define CYAPA_UPDATE_ATTR "update_fw"
#define CYAPA_FW_NAME "cyapa.bin"

extern const struct tf_family_ids tf_family_ids_cyapa;
extern const struct tf_family_ops cyapa_ops;

/*
 * cyapa_gen3_check_fw's rules for a file: 30848 bytes; the big-endian
 * word at 0 is the 16-bit sum of header bytes 2..127, the big-endian word
 * at 126 the 16-bit sum of the 30720 application bytes.  (The driver's
 * comment says little-endian; its code reads big-endian, and the code is
 * what refuses a file.)  0, or -EBADMSG with the reason in @msg.
 */
int cyapa_gen3_check_image(const uint8_t *data, size_t len, char *msg, size_t size);
/*
 * cyapa_pip_check_fw's rules for a Gen5 or Gen6 file, and the bounds the
 * driver leaves to the file: a 19-byte head (head_size 0x12) naming a
 * Gen5 part (family id 0x91, silicon id 0x02) or a Gen6 one (0x9b, 0x0b:
 * cyapa_pip_fw_head_check; a 13-byte head names no part and is refused:
 * only old Gen5 parts take it, and touchfw can not tell them -- a Gen6
 * part takes none, its ids would be read from the first record); whole
 * 133-byte records of
 * array 0, 128 bytes, rows the bootloader writes, the metadata row 0x1ff
 * last; its 60 bytes match their CRC-16 (crc_itu_t) at 60; app_start,
 * app_len, upgrade_start and upgrade_len row-aligned; the CRC of the first
 * app_len / 128 records' rows is app_crc.  0 and the version from the
 * head, or -EBADMSG with the reason in @msg.
 */
int cyapa_pip_check_image(const uint8_t *data, size_t len, unsigned *major, unsigned *minor,
			  char *msg, size_t size);
/* The generation a PIP image's 19-byte head names (5 or 6), or -EBADMSG;
 * nothing else is checked. */
int cyapa_pip_head_gen(const uint8_t *data, size_t len);
/* Which generation's image @data is (3, 5 or 6, checked in full), or
 * -EBADMSG with the reason in @msg. */
int cyapa_image_gen(const uint8_t *data, size_t len, char *msg, size_t size);
/* crc_itu_t(0xffff-seeded CRC-16, polynomial 0x1021, MSB first) */
uint16_t cyapa_crc_itu_t(uint16_t crc, const uint8_t *p, size_t n);

/* Is @s a product id as the driver prints it for a part it operates
 * ("CYTRA-" 6 "-" 2, letters and digits)? */
bool cyapa_product_id_ok(const char *s);
/*
 * The driver's `mode` attribute, "gen%d %s": the generation and whether
 * the part runs its application ("operational"), sits in its bootloader
 * ("bootloader idle", "bootloader active", "bootloader busy"; Gen5/6 just
 * "bootloader").  0; -EBADMSG for text the driver does not print.
 */
int cyapa_parse_mode(const char *s, unsigned *gen, bool *operational);
/*
 * The Gen3 state from the first 3 registers, as cyapa_gen3_state_parse
 * reads them, but stricter: a bootloader state only where the command
 * file register reads 0 as the driver documents it.  1: application;
 * 0: bootloader (*@busy when it is busy); -EBADMSG: not a Gen3 state.
 */
int cyapa_gen3_state(const uint8_t r[3], bool *busy);
/*
 * The product id and version from the 27 query bytes (0x2a on): 0, or
 * -EBADMSG when they are not those of a Gen3 part the driver operates
 * (protocol generation 3 in byte 20's low nibble, a "CYTRA" id).
 */
int cyapa_gen3_query(const uint8_t q[27], char id[CYAPA_PRODUCT_ID_LEN + 1], unsigned *major,
		     unsigned *minor);
/*
 * The product id and version a file's name gives where it is named as
 * ChromeOS names cyapa images ("CYTRA-116002-00_2.9.bin", any directory
 * before it): 0, or -ENOENT for any other name.
 */
int cyapa_name_product(const char *name, char id[CYAPA_PRODUCT_ID_LEN + 1], unsigned *major,
		       unsigned *minor);
int cyapa_check_blob(const struct tf_blob *b, const char **key, char *msg, size_t size);
int cyapa_check_blob_data(const struct tf_blob *b, const uint8_t *data, size_t len, char *msg,
			  size_t size);
int cyapa_blob_facts(const uint8_t *data, size_t len, const char *name, struct tf_blob_facts *f,
		     struct tf_err *err);

#endif /* TF_CYAPA_H */
