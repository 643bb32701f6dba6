// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names, parsers and blob rules for Cypress Gen3 trackpads: what the
 * driver checks in a file (cyapa_gen3_check_fw), the product id and mode
 * it prints, and the registers it reads (cyapa_gen3_state_parse,
 * cyapa_gen3_get_query_data).  Pure: no I/O.
 */
#include "cyapa.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fwdb.h"

/* cyapa.h's Gen3 registers: 0 the command file (bootloader) or device
 * status (application), 1 the bootloader status or finger count, 2 the
 * bootloader error. */
#define BL_STATUS_BUSY 0x80
#define BL_STATUS_RUNNING 0x10
#define BL_STATUS_CSUM_VALID 0x01
#define BL_ERROR_BOOTLOADING 0x20
#define OP_STATUS_SRC 0x80
#define OP_DATA_VALID 0x08
#define GEN3_MAX_FINGERS 5

static uint16_t sum16(const uint8_t *p, size_t n)
{
	uint16_t s = 0;

	while (n--)
		s = (uint16_t)(s + *p++);
	return s;
}

int cyapa_gen3_check_image(const uint8_t *data, size_t len, char *msg, size_t size)
{
	uint16_t want, got;

	if (len != CYAPA_GEN3_FW_SIZE)
		return snprintf(msg, size,
				"%zu bytes: a Gen3 cyapa image is %u bytes (2 header and 480 "
				"application blocks of 64), cyapa refuses it",
				len, CYAPA_GEN3_FW_SIZE),
		       -EBADMSG;
	want = (uint16_t)(data[0] << 8 | data[1]);
	got = sum16(data + 2, CYAPA_GEN3_HDR_SIZE - 2);
	if (got != want)
		return snprintf(msg, size,
				"its header checksum (bytes 0-1) is 0x%04x, the header sums "
				"to 0x%04x: cyapa refuses it",
				want, got),
		       -EBADMSG;
	want = (uint16_t)(data[CYAPA_GEN3_HDR_SIZE - 2] << 8 | data[CYAPA_GEN3_HDR_SIZE - 1]);
	got = sum16(data + CYAPA_GEN3_HDR_SIZE, CYAPA_GEN3_DATA_SIZE);
	if (got != want)
		return snprintf(msg, size,
				"its image checksum (bytes 126-127) is 0x%04x, the "
				"application sums to 0x%04x: cyapa refuses it",
				want, got),
		       -EBADMSG;
	return 0;
}

bool cyapa_product_id_ok(const char *s)
{
	size_t i;

	if (!s || strlen(s) != CYAPA_PRODUCT_ID_LEN ||
	    strncmp(s, CYAPA_PRODUCT_PREFIX "-", sizeof(CYAPA_PRODUCT_PREFIX)))
		return false;
	for (i = 6; i < CYAPA_PRODUCT_ID_LEN; i++) {
		if (i == 12) {
			if (s[i] != '-')
				return false;
		} else if (!isalnum((unsigned char)s[i])) {
			return false;
		}
	}
	return true;
}

int cyapa_parse_mode(const char *s, unsigned *gen, bool *operational)
{
	static const char *const bl[] = { "bootloader idle", "bootloader active",
					  "bootloader busy", "bootloader" };
	unsigned long g;
	char *end;
	size_t i;

	if (!s || strncmp(s, "gen", 3) || !isdigit((unsigned char)s[3]))
		return -EBADMSG;
	g = strtoul(s + 3, &end, 10);
	if (*end != ' ' || g > 255)
		return -EBADMSG;
	end++;
	*gen = (unsigned)g;
	if (!strcmp(end, "operational")) {
		*operational = true;
		return 0;
	}
	for (i = 0; i < sizeof(bl) / sizeof(bl[0]); i++)
		if (!strcmp(end, bl[i])) {
			*operational = false;
			return 0;
		}
	return -EBADMSG; /* "invalid mode" included */
}

int cyapa_gen3_state(const uint8_t r[3], bool *busy)
{
	*busy = false;
	/* The bootloader: the command file register reads 0 (cyapa.h), the
	 * status says it runs. */
	if (r[0] == 0x00 && (r[1] & BL_STATUS_RUNNING)) {
		*busy = (r[1] & BL_STATUS_BUSY) != 0;
		return 0;
	}
	/* The application: a valid interrupt source and valid data with a
	 * finger count the part can have, or both registers as they read
	 * after a host wrote 00 00 there. */
	if ((r[0] & OP_STATUS_SRC) && (r[1] & OP_DATA_VALID) &&
	    ((r[1] >> 4) & 0x07) <= GEN3_MAX_FINGERS)
		return 1;
	if (r[0] == 0x0c && r[1] == 0x08)
		return 1;
	return -EBADMSG;
}

int cyapa_gen3_query(const uint8_t q[27], char id[CYAPA_PRODUCT_ID_LEN + 1], unsigned *major,
		     unsigned *minor)
{
	memcpy(id, q, 5);
	id[5] = '-';
	memcpy(id + 6, q + 5, 6);
	id[12] = '-';
	memcpy(id + 13, q + 11, 2);
	id[15] = '\0';
	if ((q[20] & 0x0f) != 3 || !cyapa_product_id_ok(id))
		return -EBADMSG;
	*major = q[15];
	*minor = q[16];
	return 0;
}

int cyapa_check_blob(const struct tf_blob *b, const char **key, char *msg, size_t size)
{
	size_t i;

	if (b->type != TF_BLOB_FIRMWARE) {
		*key = "type";
		snprintf(msg, size, "cyapa loads no configuration file: firmware only");
		return -EINVAL;
	}
	if (!b->n_hardware) {
		/* The image does not name its product: without the manifest's
		 * word no chip could be matched to it. */
		*key = "hardware";
		snprintf(msg, size,
			 "a cyapa image does not say which trackpad it is for: name its "
			 "product id (as product_id prints it, \"CYTRA-116002-00\")");
		return -EINVAL;
	}
	for (i = 0; i < b->n_hardware; i++)
		if (!cyapa_product_id_ok(b->hardware[i])) {
			*key = "hardware";
			snprintf(msg, size,
				 "\"%s\" is not a product id as cyapa prints it "
				 "(\"CYTRA-116002-00\": CYTRA, 6 and 2 letters or digits)",
				 b->hardware[i]);
			return -EINVAL;
		}
	return 0;
}

int cyapa_check_blob_data(const struct tf_blob *b, const uint8_t *data, size_t len, char *msg,
			  size_t size)
{
	(void)b;
	return cyapa_gen3_check_image(data, len, msg, size);
}

/* "N.M" in decimal digits only (sscanf alone would take signs and
 * blanks). */
static bool dotted_pair(const char *s)
{
	size_t a = strspn(s, "0123456789"), b;

	if (!a || a > 3 || s[a] != '.')
		return false;
	b = strspn(s + a + 1, "0123456789");
	return b && b <= 3 && !s[a + 1 + b];
}

int cyapa_name_product(const char *name, char id[CYAPA_PRODUCT_ID_LEN + 1], unsigned *major,
		       unsigned *minor)
{
	const char *base = strrchr(name, '/'), *us, *dot;
	char ver[16], tail;
	unsigned maj, min;

	base = base ? base + 1 : name;
	us = strchr(base, '_');
	dot = strrchr(base, '.');
	if (!us || us - base != CYAPA_PRODUCT_ID_LEN || !dot || dot < us ||
	    strcmp(dot, ".bin") || (size_t)(dot - us - 1) >= sizeof(ver))
		return -ENOENT;
	memcpy(id, base, CYAPA_PRODUCT_ID_LEN);
	id[CYAPA_PRODUCT_ID_LEN] = '\0';
	memcpy(ver, us + 1, (size_t)(dot - us - 1));
	ver[dot - us - 1] = '\0';
	if (!cyapa_product_id_ok(id) || !dotted_pair(ver) ||
	    sscanf(ver, "%u.%u%c", &maj, &min, &tail) != 2 || maj > 255 || min > 255)
		return -ENOENT;
	*major = maj;
	*minor = min;
	return 0;
}

/*
 * `db add`: the image's checks as cyapa makes them.  Neither its product
 * nor its version is in a place a host can read (the header's other bytes
 * are not public), but ChromeOS names its files "<product id>_<version>.bin"
 * ("CYTRA-116002-00_2.9.bin"): such a name gives both, as a guess.
 */
int cyapa_blob_facts(const uint8_t *data, size_t len, const char *name, struct tf_blob_facts *f,
		     struct tf_err *err)
{
	char id[CYAPA_PRODUCT_ID_LEN + 1], msg[200];
	unsigned maj, min;

	memset(f, 0, sizeof(*f));
	if (cyapa_gen3_check_image(data, len, msg, sizeof(msg)) < 0)
		return tf_err_set(err, EBADMSG, "%s: %s", name, msg);
	f->is_config = false;
	tf_snprintf(f->ext, sizeof(f->ext), "bin");
	tf_snprintf(f->what, sizeof(f->what),
		    "Cypress Gen3 trackpad firmware image, %zu bytes (header and application "
		    "checksums right); it does not say its product or version",
		    len);
	tf_snprintf(f->hardware_hint, sizeof(f->hardware_hint),
		    "the product id cyapa shows (product_id, \"CYTRA-116002-00\")");
	if (cyapa_name_product(name, id, &maj, &min) < 0)
		return 0;
	f->n_hardware = 1;
	tf_snprintf(f->hardware[0], sizeof(f->hardware[0]), "%s", id);
	f->hardware_guessed = true;
	tf_snprintf(f->version, sizeof(f->version), "%u.%u", maj, min);
	tf_blob_facts_note(f,
			   "product id %s and version %u.%u: from its file name, as ChromeOS "
			   "names cyapa images",
			   id, maj, min);
	return 0;
}
