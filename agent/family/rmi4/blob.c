// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RMI4 firmware images and their manifest rules.  The facts:
 *  - rmi_f34.h: struct rmi_f34_firmware, the v5/v6 header -- LE32
 *    checksum, bootloader version at byte 7, LE32 image size at 8, LE32
 *    config size at 12, the product id (10 bytes) at 0x10, the data from
 *    0x100 (F34_FW_IMAGE_OFFSET); rmi_f34_update_firmware refuses an image
 *    without config data;
 *  - rmi_f34v7.c, rmi_f34v7_parse_image_info: byte 7 is the header's
 *    major version, 0x10 the only one it takes ("Unsupported image file
 *    format"); the LE32 at 12 the top-level container's descriptor; a
 *    descriptor is 32 bytes with the LE16 container id at 4, the LE32
 *    content length at 24 and address at 28; the top level's content lists
 *    the other descriptors' addresses (LE32 each); core code (1 or 18),
 *    core config (2 or 19), bootloader (3: its first byte the bootloader
 *    version, then the addresses of its own descriptors, among them the
 *    bootloader config, 5 or 17), general information (13: the build id at
 *    4), flash config (15, required: "No flash config in fw image");
 *  - fwupd's synaptics-rmi plugin: the v10 general information holds the
 *    product id at 0x18 (10 bytes).
 * The kernel reads the file where its words point without checking that
 * they point inside it; touchfw does.
 */
#include "rmi4.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fwdb.h"

#define DESC_LEN 32
#define MAX_CONTAINERS 64

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

bool rmi4_product_ok(const char *s)
{
	size_t n = strlen(s), i;

	if (!n || n > RMI4_PRODUCT_ID_LEN)
		return false;
	for (i = 0; i < n; i++)
		if (s[i] <= ' ' || s[i] > '~')
			return false;
	return true;
}

int rmi4_bl_major(const char *id, unsigned *major)
{
	char *end;
	unsigned long v;

	if (id[0] != 'V' || id[1] < '0' || id[1] > '9')
		return -EINVAL;
	v = strtoul(id + 1, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9' || v > 255)
		return -EINVAL;
	strtoul(end + 1, &end, 10);
	if (*end)
		return -EINVAL;
	*major = (unsigned)v;
	return 0;
}

int rmi4_bl_version(const char *id, unsigned *version)
{
	if (strlen(id) == 2 && id[0] > ' ' && id[0] <= '~' && id[1] > ' ' && id[1] <= '~') {
		*version = 5;
		return 0;
	}
	return rmi4_bl_major(id, version);
}

/* The product id from 10 bytes, NUL-padded: "" when none or not text. */
static void product_from(const uint8_t *p, char out[RMI4_PRODUCT_ID_LEN + 1])
{
	memcpy(out, p, RMI4_PRODUCT_ID_LEN);
	out[RMI4_PRODUCT_ID_LEN] = '\0';
	if (!rmi4_product_ok(out))
		out[0] = '\0';
}

/* A descriptor at @at and its content inside the file. */
static int desc_at(const uint8_t *d, size_t len, uint32_t at, unsigned *id, uint32_t *caddr,
		   uint32_t *clen, char *msg, size_t size)
{
	if ((size_t)at > len || len - at < DESC_LEN)
		return snprintf(msg, size, "a container descriptor at 0x%x is past the end",
				at),
		       -EBADMSG;
	*id = (unsigned)(d[at + 4] | d[at + 5] << 8);
	*clen = le32(d + at + 24);
	*caddr = le32(d + at + 28);
	if ((size_t)*caddr > len || len - *caddr < *clen)
		return snprintf(msg, size,
				"container %u (descriptor at 0x%x): its content 0x%x + %u is "
				"past the end (%zu bytes)",
				*id, at, *caddr, *clen, len),
		       -EBADMSG;
	return 0;
}

static int parse_bl(const uint8_t *d, size_t len, uint32_t caddr, uint32_t clen,
		    struct rmi4_image *im, char *msg, size_t size)
{
	uint32_t i, a, l;
	unsigned id;

	if (clen < 4)
		return snprintf(msg, size, "the bootloader container is empty"), -EBADMSG;
	im->bl_version = d[caddr];
	/* rmi_f34v7_parse_img_header_10_bl_container: size / 4 - 1 entries
	 * after the first word */
	for (i = 1; i < clen / 4 && i <= MAX_CONTAINERS; i++) {
		if (desc_at(d, len, le32(d + caddr + 4 * i), &id, &a, &l, msg, size) < 0)
			return -EBADMSG;
		if (id == 5 || id == 17) /* BL_CONFIG, GLOBAL_PARAMETERS */
			im->bl_config = l;
	}
	return 0;
}

static int parse_v10(const uint8_t *d, size_t len, struct rmi4_image *im, char *msg,
		     size_t size)
{
	uint32_t top, list, n, i, a, l;
	unsigned id;

	if (len < 16)
		return snprintf(msg, size, "%zu bytes: no room for the image header", len),
		       -EBADMSG;
	top = le32(d + 12);
	if (desc_at(d, len, top, &id, &list, &n, msg, size) < 0)
		return -EBADMSG;
	if (n % 4 || n / 4 > MAX_CONTAINERS)
		return snprintf(msg, size,
				"the top-level container lists %u bytes of addresses", n),
		       -EBADMSG;
	for (i = 0; i < n / 4; i++) {
		if (desc_at(d, len, le32(d + list + 4 * i), &id, &a, &l, msg, size) < 0)
			return -EBADMSG;
		switch (id) {
		case 1:
		case 18:
			im->core_code = l;
			break;
		case 2:
		case 19:
			im->core_config = l;
			break;
		case 3:
			if (parse_bl(d, len, a, l, im, msg, size) < 0)
				return -EBADMSG;
			break;
		case 13:
			if (l >= 8) {
				im->has_build_id = true;
				im->build_id = le32(d + a + 4);
			}
			if (l >= 0x18 + RMI4_PRODUCT_ID_LEN)
				product_from(d + a + 0x18, im->product_id);
			break;
		case 15:
			im->flash_config = l;
			break;
		default:
			break;
		}
	}
	if (!im->flash_config)
		return snprintf(msg, size,
				"no flash config in the image (rmi_f34v7 refuses it)"),
		       -EBADMSG;
	if (!im->core_code || !im->core_config)
		return snprintf(msg, size, "the image has no %s",
				im->core_code ? "core configuration" : "core code"),
		       -EBADMSG;
	if (im->bl_version != 7 && im->bl_version != 8)
		return snprintf(msg, size,
				"the image is for bootloader version %u (a bootloader "
				"container is needed, for version 7 or 8)",
				im->bl_version),
		       -EBADMSG;
	if (!im->bl_config)
		return snprintf(msg, size,
				"the image has no bootloader configuration (rmi_f34v7 checks "
				"its size against the chip's)"),
		       -EBADMSG;
	return 0;
}

static int parse_v0x(const uint8_t *d, size_t len, struct rmi4_image *im, char *msg,
		     size_t size)
{
	uint32_t img = le32(d + 8), cfg = le32(d + 12);

	im->bl_version = d[7];
	if (im->bl_version != 5 && im->bl_version != 6)
		return snprintf(msg, size,
				"byte 7 is 0x%02x: neither the header version 0x10 nor a "
				"bootloader version 5 or 6 (rmi_f34 refuses it)",
				d[7]),
		       -EBADMSG;
	if ((uint64_t)RMI4_V0X_DATA + img + cfg > len)
		return snprintf(msg, size,
				"firmware %u and config %u bytes from 0x100 are past the end "
				"(%zu bytes)",
				img, cfg, len),
		       -EBADMSG;
	if (!cfg)
		return snprintf(msg, size, "no config data (rmi_f34 refuses it)"), -EBADMSG;
	im->core_code = img;
	im->core_config = cfg;
	product_from(d + 0x10, im->product_id);
	return 0;
}

int rmi4_image_parse(const uint8_t *data, size_t len, struct rmi4_image *im, char *msg,
		     size_t size)
{
	memset(im, 0, sizeof(*im));
	if (len < RMI4_V0X_DATA && (len < 16 || data[7] != RMI4_IMAGE_V10))
		return snprintf(msg, size, "%zu bytes is not an RMI4 firmware image", len),
		       -EBADMSG;
	im->header = data[7];
	if (data[7] == RMI4_IMAGE_V10)
		return parse_v10(data, len, im, msg, size);
	return parse_v0x(data, len, im, msg, size);
}

int rmi4_check_blob(const struct tf_blob *b, const char **key, char *msg, size_t size)
{
	size_t i;

	if (b->type != TF_BLOB_FIRMWARE) {
		*key = "type";
		snprintf(msg, size, "rmi_core loads no configuration file: firmware only");
		return -EINVAL;
	}
	for (i = 0; i < b->n_hardware; i++)
		if (!rmi4_product_ok(b->hardware[i])) {
			*key = "hardware";
			snprintf(msg, size,
				 "\"%s\" is not an RMI4 product id (1 to 10 printable "
				 "characters, as product_id prints it)",
				 b->hardware[i]);
			return -EINVAL;
		}
	return 0;
}

/* The bytes as rmi_f34 parses them, and made for the product the
 * manifest names (when the image says its product). */
int rmi4_check_blob_data(const struct tf_blob *b, const uint8_t *data, size_t len, char *msg,
			 size_t size)
{
	struct rmi4_image im;
	size_t i;

	if (rmi4_image_parse(data, len, &im, msg, size) < 0)
		return -EBADMSG;
	if (!im.product_id[0] || !b->n_hardware)
		return 0;
	for (i = 0; i < b->n_hardware; i++)
		if (!strcmp(b->hardware[i], im.product_id))
			return 0;
	return snprintf(msg, size, "the image is for product %s, the manifest names %s%s",
			im.product_id, b->hardware[0], b->n_hardware > 1 ? ", ..." : ""),
	       -EBADMSG;
}

int rmi4_blob_facts(const uint8_t *data, size_t len, const char *name, struct tf_blob_facts *f,
		    struct tf_err *err)
{
	struct rmi4_image im;
	char msg[200];

	memset(f, 0, sizeof(*f));
	if (rmi4_image_parse(data, len, &im, msg, sizeof(msg)) < 0)
		return tf_err_set(err, EBADMSG, "%s: %s", name, msg);
	tf_snprintf(f->ext, sizeof(f->ext), "img");
	if (im.product_id[0]) {
		f->n_hardware = 1;
		tf_snprintf(f->hardware[0], sizeof(f->hardware[0]), "%s", im.product_id);
	} else {
		tf_snprintf(f->hardware_hint, sizeof(f->hardware_hint),
			    "the product id the touchpad's rmi4-NN/product_id shows");
	}
	if (im.has_build_id)
		tf_snprintf(f->version, sizeof(f->version), "%u", (unsigned)im.build_id);
	if (im.header == RMI4_IMAGE_V10)
		tf_snprintf(f->what, sizeof(f->what),
			    "Synaptics RMI4 image (header 0x10) for bootloader v%u: core code "
			    "%u, config %u bytes%s%s",
			    im.bl_version, (unsigned)im.core_code, (unsigned)im.core_config,
			    im.has_build_id ? "" : "; it does not say its build id",
			    im.product_id[0] ? "" : "; it does not say its product");
	else
		tf_snprintf(f->what, sizeof(f->what),
			    "Synaptics RMI4 image (v%u header): firmware %u, config %u "
			    "bytes; it does not say its build id",
			    im.bl_version, (unsigned)im.core_code, (unsigned)im.core_config);
	return 0;
}
