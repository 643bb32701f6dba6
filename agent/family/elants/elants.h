/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Elan touchscreens served by elants_i2c (drivers/input/touchscreen/
 * elants_i2c.c, Linux 6.1): what touchfw knows of them.  The driver
 * flashes; touchfw picks the blob, stages it under the name the driver
 * computes from the chip's hardware id, asks through update_fw and checks
 * the result after a rebind.
 */
#ifndef TF_ELANTS_H
#define TF_ELANTS_H

#include <stddef.h>
#include <stdint.h>

#include "family/family.h"

/* ELAN_FW_PAGESIZE: the driver refuses a file of another multiple. */
#define ELANTS_PAGE 132
/* Our own bound: the largest image touchfw stages (1 MiB). */
#define ELANTS_FW_MAX (1024 * 1024)

/* The driver's attribute that flashes the file it requests. */
#define ELANTS_UPDATE_ATTR "update_fw"

extern const struct tf_family_ids tf_family_ids_elants;
extern const struct tf_version_scheme elants_version_scheme;
extern const struct tf_family_ops elants_ops;

/* "%04x" as the driver prints fw_version and hw_version: exactly four
 * lowercase hex digits.  0 or -EINVAL. */
int elants_hex16_parse(const char *s, uint16_t *v);
void elants_version_fw(uint16_t fw, struct tf_version *v);
/* The file the driver requests for hardware id @hw (elants_i2c_fw_update):
 * elants_i2c_%04x.bin.  0, or -EINVAL for the invalid id 0xffff. */
int elants_fw_name(uint16_t hw, char *buf, size_t size);
/* The driver's rules for an image: a whole number of 132-byte pages, at
 * least one; and ours: at most ELANTS_FW_MAX.  0, or -EBADMSG with @msg. */
int elants_check_image(size_t len, char *msg, size_t size);

int elants_check_blob(const struct tf_blob *b, const char **key, char *msg, size_t size);
int elants_blob_facts(const uint8_t *data, size_t len, const char *name,
		      struct tf_blob_facts *f, struct tf_err *err);
int elants_check_blob_data(const struct tf_blob *b, const uint8_t *data, size_t len, char *msg,
			   size_t size);

#endif /* TF_ELANTS_H */
