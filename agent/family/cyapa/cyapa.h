/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Cypress APA trackpads served by cyapa (drivers/input/mouse/cyapa.c,
 * cyapa_gen3.c, cyapa.h): the driver binds a trackpad in its application
 * and one stuck in its bootloader alike ("device detected but not
 * operational"), and flashes either through update_fw, which takes the
 * name of the file it requests.  touchfw stages the verified image under
 * that name, writes it, follows the driver until its new input device
 * appears, and reads the new version back.  Gen3 parts only so far: the
 * driver's Gen5/Gen6 (PIP) parts are refused before anything is written.
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
