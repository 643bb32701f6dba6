/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Synaptics RMI4 touchpads served by rmi_core with its transports
 * rmi_smbus and rmi_i2c (drivers/input/rmi4/): the driver flashes through
 * F34's update_fw, on the RMI device rmi4-NN it makes below the bus's
 * client, with the file whose name is written there; touchfw checks the
 * image as rmi_f34v7 parses it, stages it, writes its name, follows the
 * driver's update_fw_status and judges a new probe.  Unbound, the chip is
 * identified as its transport speaks to it (the PDT with F01 and F34, and
 * F01's product and build id as rmi_f01 reads them) before anything else
 * is sent: over SMBus as rmi_smbus does, over plain I2C as rmi_i2c does
 * (page select, then register pointers only); the driver is bound only
 * for an update.
 */
#ifndef TF_RMI4_H
#define TF_RMI4_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "family/family.h"

#define RMI4_PRODUCT_ID_LEN 10 /* RMI_PRODUCT_ID_LENGTH, PRODUCT_ID_SIZE */

/* The image's header kind: rmi_f34v7's IMAGE_HEADER_VERSION_10 at byte 7;
 * any other value there is the v5/v6 header's bootloader version. */
#define RMI4_IMAGE_V10 0x10
#define RMI4_V0X_DATA 0x100 /* F34_FW_IMAGE_OFFSET */

/* What an image's bytes say, as rmi_f34 / rmi_f34v7 read them. */
struct rmi4_image {
	unsigned header;     /* 0x10: containers; else the v0x bootloader version */
	unsigned bl_version; /* the bootloader it is for (v10: the BL container's
				first byte, 7 or 8; v0x: byte 7) */
	bool has_build_id;   /* v10: the general information container */
	uint32_t build_id;
	/* The product id (fwupd's synaptics-rmi plugin reads it there: the
	 * v0x header at 0x10, the v10 general information container at
	 * 0x18); "" when the image has none. */
	char product_id[RMI4_PRODUCT_ID_LEN + 1];
	/* v10: the contents' lengths (0: absent); v0x: image / config size */
	uint32_t core_code, core_config, flash_config, bl_config;
};

/*
 * Parse and check @data as rmi_f34 (v5: struct rmi_f34_firmware) and
 * rmi_f34v7 (header 0x10: rmi_f34v7_parse_image_info) do, and more
 * strictly where the kernel trusts the file: every container and content
 * inside it, a flash config, the core code and configuration, a
 * bootloader container of version 7 or 8 with its configuration.  0, or
 * -EBADMSG with the reason in @msg.
 */
int rmi4_image_parse(const uint8_t *data, size_t len, struct rmi4_image *im, char *msg,
		     size_t size);
/* "V7.0" as rmi_f34 prints bootloader_id (v7+) -> 7, or -EINVAL. */
int rmi4_bl_major(const char *bootloader_id, unsigned *major);
/* The bootloader version rmi_f34 serves, from its bootloader_id: "V7.0"
 * (rmi_f34v7, "V%d.%d") -> 7; two printable characters (the v5 code,
 * for F34 function version 0, prints the two id bytes "%c%c") -> 5; else
 * -EINVAL. */
int rmi4_bl_version(const char *bootloader_id, unsigned *version);
/* A product id as the chip and the manifest give it: 1..10 printable
 * characters, no blank. */
bool rmi4_product_ok(const char *s);

int rmi4_check_blob(const struct tf_blob *b, const char **key, char *msg, size_t size);
int rmi4_check_blob_data(const struct tf_blob *b, const uint8_t *data, size_t len, char *msg,
			 size_t size);
int rmi4_blob_facts(const uint8_t *data, size_t len, const char *name, struct tf_blob_facts *f,
		    struct tf_err *err);

/* What F01's queries say, as rmi_f01_read_properties reads them (f01.c). */
struct rmi4_f01 {
	uint8_t manufacturer; /* 1: Synaptics */
	uint8_t properties;   /* query 1 */
	char product_id[RMI4_PRODUCT_ID_LEN + 1];
	bool has_package_id, has_build_id; /* the DS4 query's bits */
	uint32_t package_id;		   /* its low 32 bits, as rmi_f01 keeps */
	uint32_t build_id;		   /* rmi_core's firmware_id (LE24) */
};

/* A register read over the part's transport: 0 or negative errno. */
typedef int (*rmi4_read_fn)(void *ctx, uint16_t addr, uint8_t *buf, size_t len);

/* F01's queries from @query on, read through @rd exactly as far as
 * rmi_f01 reads them (reads only); 0 or @rd's error. */
int rmi4_f01_read(rmi4_read_fn rd, void *ctx, uint16_t query, struct rmi4_f01 *f);

extern const struct tf_family_ids tf_family_ids_rmi4;
extern const struct tf_family_ops rmi4_ops;

#endif /* TF_RMI4_H */
