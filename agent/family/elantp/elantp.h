/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Elan touchpads served by elan_i2c (drivers/input/mouse/elan_i2c_core.c,
 * elan_i2c_i2c.c, elan_i2c.h): the driver flashes in application mode
 * through update_fw; touchfw picks the blob, stages it under the name the
 * driver computes from the product id and checks the result after a
 * rebind.  A touchpad left in IAP, which the driver's probe refuses, is
 * recovered over i2c-dev where the board profile allows it.
 */
#ifndef TF_ELANTP_H
#define TF_ELANTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "family/family.h"

#define ELANTP_PAGE 64		   /* ETP_FW_PAGE_SIZE */
#define ELANTP_SIG_LEN 6	   /* ETP_FW_SIGNATURE_SIZE */
#define ELANTP_IAP_START_OFF 0x106 /* ETP_IAP_START_ADDR * 2 */
#define ELANTP_FW_MAX (2048 * ELANTP_PAGE)

/* The driver's attribute that flashes the file it requests. */
#define ELANTP_UPDATE_ATTR "update_fw"

extern const struct tf_family_ids tf_family_ids_elantp;
extern const struct tf_family_ops elantp_ops;

/* elan_i2c_<product_id>.0.bin (ETP_FW_NAME). */
int elantp_fw_name(uint16_t product_id, char *buf, size_t size);
/* "%d.0" as the driver prints product_id and firmware_version: 0 and the
 * number, or -EINVAL. */
int elantp_attr_number(const char *s, unsigned max, unsigned *v);
/*
 * The driver's rule for an image: the signature AA 55 CC 33 FF FF at
 * validpage_count * 64 - 6, the count by ic type (elan_get_fwinfo), which
 * no attribute shows -- so at one of the addresses it can be; and an IAP
 * start (LE16 at 0x106, in words) inside the image.  0, or -EBADMSG.
 */
int elantp_check_image(const uint8_t *data, size_t len, char *msg, size_t size);
/*
 * The product an image is for: its module id, where fwupd's elantp plugin
 * reads it (fu-elantp-firmware.c) -- the LE16 word at the IAP start
 * (which the LE16 at 0x106 gives, in words) points, in words, to it.  0,
 * or -EBADMSG when the image has no such place.
 */
int elantp_image_product(const uint8_t *data, size_t len, unsigned *product);
int elantp_check_blob(const struct tf_blob *b, const char **key, char *msg, size_t size);
int elantp_blob_facts(const uint8_t *data, size_t len, const char *name,
		      struct tf_blob_facts *f, struct tf_err *err);
int elantp_check_blob_data(const struct tf_blob *b, const uint8_t *data, size_t len, char *msg,
			   size_t size);

/* Per run (c->priv): the sum of the page sums a recovery sent, which the
 * touchpad's IAP checksum must equal. */
struct elantp_run {
	bool sent;
	uint16_t sum;
};

/*
 * elantp-smbus.c: the touchpad on an SMBus-only adapter (elan_i2c_smbus):
 * detection from IAP or main mode over SMBus (-EOPNOTSUPP, nothing sent,
 * where the adapter lacks the transfers it needs), the recovery's pages
 * from IAP and the check after them.
 */
bool elantp_on_smbus(const struct tf_ctx *c);
int elantp_smbus_detect(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err);
int elantp_smbus_write(struct tf_ctx *c, const uint8_t *data, unsigned boot, unsigned pages,
		       struct elantp_run *run, struct tf_err *err);
int elantp_smbus_leave(struct tf_ctx *c, const struct elantp_run *run, struct tf_err *err);

#endif /* TF_ELANTP_H */
