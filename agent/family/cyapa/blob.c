// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names, parsers and blob rules for Cypress Gen3, Gen5 and Gen6 trackpads:
 * what the driver checks in a file (cyapa_gen3_check_fw, cyapa_pip_check_fw),
 * the product id and mode
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

uint16_t cyapa_crc_itu_t(uint16_t crc, const uint8_t *p, size_t n)
{
	while (n--) {
		crc ^= (uint16_t)(*p++ << 8);
		for (int b = 0; b < 8; b++)
			crc = (uint16_t)(crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1);
	}
	return crc;
}

static uint16_t get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* struct cyapa_tsg_bin_image_head and tsg_bl_metadata_row_params */
#define PIP_HEAD_SIZE 19
#define PIP_SILICON_HI 13
#define PIP_FAMILY 16
#define PIP_FIRST_ROW 0x2e
#define META_APP_START 4
#define META_APP_LEN 8
#define META_APP_CRC 10
#define META_UPGRADE_START 16
#define META_UPGRADE_LEN 20
#define META_SIZE 60

int cyapa_pip_head_gen(const uint8_t *data, size_t len)
{
	if (len < PIP_HEAD_SIZE || data[0] != 0x12)
		return -EBADMSG;
	if (data[PIP_FAMILY] == 0x91 && data[PIP_SILICON_HI] == 0x02)
		return 5;
	if (data[PIP_FAMILY] == 0x9b && data[PIP_SILICON_HI] == 0x0b)
		return 6;
	return -EBADMSG;
}

int cyapa_pip_check_image(const uint8_t *data, size_t len, unsigned *major, unsigned *minor,
			  char *msg, size_t size)
{
	const uint8_t *rec, *meta;
	size_t n, i;
	uint32_t app_start, up_start;
	uint16_t app_len, up_len, crc;

	if (len < PIP_HEAD_SIZE || (data[0] != 0x0c && data[0] != 0x12))
		return snprintf(msg, size,
				"%zu bytes without a PIP image's head (head size 0x12 at byte "
				"0): not a Gen5 or Gen6 cyapa image",
				len),
		       -EBADMSG;
	if (data[0] == 0x0c)
		return snprintf(
			       msg, size,
			       "its 13-byte head names no part (only old Gen5 trackpads without "
			       "proximity take it, and touchfw can not tell them apart): not "
			       "sent"),
		       -EBADMSG;
	if (cyapa_pip_head_gen(data, len) < 0)
		return snprintf(msg, size,
				"its head names family id 0x%02x, silicon id 0x%02x, neither a "
				"Gen5 part's (0x91, 0x02) nor a Gen6 part's (0x9b, 0x0b): "
				"cyapa refuses it",
				data[PIP_FAMILY], data[PIP_SILICON_HI]),
		       -EBADMSG;
	if ((len - PIP_HEAD_SIZE) % CYAPA_PIP_RECORD ||
	    len - PIP_HEAD_SIZE < 2 * CYAPA_PIP_RECORD)
		return snprintf(msg, size,
				"%zu bytes after its head are not whole 133-byte records (at "
				"least an application row and the metadata row)",
				len - PIP_HEAD_SIZE),
		       -EBADMSG;
	n = (len - PIP_HEAD_SIZE) / CYAPA_PIP_RECORD;
	for (i = 0; i < n; i++) {
		const uint8_t *r = data + PIP_HEAD_SIZE + i * CYAPA_PIP_RECORD;
		unsigned row = (unsigned)(r[1] << 8 | r[2]),
			 rlen = (unsigned)(r[3] << 8 | r[4]);
		bool last = i + 1 == n;

		if (r[0] != 0 || rlen != CYAPA_PIP_ROW ||
		    (last ? row != CYAPA_PIP_META_ROW
			  : row < PIP_FIRST_ROW || row >= CYAPA_PIP_META_ROW))
			return snprintf(msg, size,
					"record %zu (array %u, row 0x%03x, %u bytes) is not %s",
					i, r[0], row, rlen,
					last ? "the metadata row 0x1ff of array 0, 128 bytes: "
					       "cyapa refuses it"
					     : "an application row of array 0, 128 bytes"),
			       -EBADMSG;
	}
	rec = data + PIP_HEAD_SIZE;
	meta = rec + (n - 1) * CYAPA_PIP_RECORD + 5;
	if (cyapa_crc_itu_t(0xffff, meta, META_SIZE) != get_le16(meta + META_SIZE))
		return snprintf(
			       msg, size,
			       "its metadata row's CRC (0x%04x) is not its 60 bytes' (0x%04x): "
			       "cyapa refuses it",
			       get_le16(meta + META_SIZE),
			       cyapa_crc_itu_t(0xffff, meta, META_SIZE)),
		       -EBADMSG;
	app_start = get_le32(meta + META_APP_START);
	app_len = get_le16(meta + META_APP_LEN);
	up_start = get_le32(meta + META_UPGRADE_START);
	up_len = get_le16(meta + META_UPGRADE_LEN);
	if (app_start % CYAPA_PIP_ROW || app_len % CYAPA_PIP_ROW || up_start % CYAPA_PIP_ROW ||
	    up_len % CYAPA_PIP_ROW)
		return snprintf(
			       msg, size,
			       "its metadata's application or upgrade area is not row-aligned: "
			       "cyapa refuses it"),
		       -EBADMSG;
	if (!app_len || app_len / CYAPA_PIP_ROW > n - 1)
		return snprintf(
			       msg, size,
			       "its metadata's application length (%u bytes) is not within the "
			       "%zu rows the file carries",
			       app_len, n - 1),
		       -EBADMSG;
	crc = 0xffff;
	for (i = 0; i < app_len / CYAPA_PIP_ROW; i++)
		crc = cyapa_crc_itu_t(crc, rec + i * CYAPA_PIP_RECORD + 5, CYAPA_PIP_ROW);
	if (crc != get_le16(meta + META_APP_CRC))
		return snprintf(
			       msg, size,
			       "its application CRC is 0x%04x, the metadata says 0x%04x: cyapa "
			       "refuses it",
			       crc, get_le16(meta + META_APP_CRC)),
		       -EBADMSG;
	*major = data[3];
	*minor = data[4];
	return 0;
}

int cyapa_image_gen(const uint8_t *data, size_t len, char *msg, size_t size)
{
	unsigned maj, min;

	if (len == CYAPA_GEN3_FW_SIZE)
		return cyapa_gen3_check_image(data, len, msg, size) < 0 ? -EBADMSG : 3;
	if (len >= PIP_HEAD_SIZE && (data[0] == 0x0c || data[0] == 0x12))
		return cyapa_pip_check_image(data, len, &maj, &min, msg, size) < 0
			       ? -EBADMSG
			       : cyapa_pip_head_gen(data, len);
	/* the Gen3 rule's own words, then why it is no PIP image either */
	if (cyapa_gen3_check_image(data, len, msg, size) == 0)
		return 3;
	if (strlen(msg) + 1 < size)
		snprintf(msg + strlen(msg), size - strlen(msg),
			 "; nor a Gen5 or Gen6 image (no PIP head: head size 0x12 at byte 0)");
	return -EBADMSG;
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
	return cyapa_image_gen(data, len, msg, size) < 0 ? -EBADMSG : 0;
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
	unsigned maj, min, hmaj = 0, hmin = 0;
	int gen;

	memset(f, 0, sizeof(*f));
	gen = cyapa_image_gen(data, len, msg, sizeof(msg));
	if (gen < 0)
		return tf_err_set(err, EBADMSG, "%s: %s", name, msg);
	f->is_config = false;
	tf_snprintf(f->ext, sizeof(f->ext), "bin");
	if (gen == 3)
		tf_snprintf(f->what, sizeof(f->what),
			    "Cypress Gen3 trackpad firmware image, %zu bytes (header and "
			    "application checksums right); it does not say its product or "
			    "version",
			    len);
	else
		tf_snprintf(
			f->what, sizeof(f->what),
			"Cypress Gen%d (PIP) trackpad firmware image, %zu bytes (metadata and "
			"application CRCs right); it does not say its product",
			gen, len);
	if (gen >= 5 && cyapa_pip_check_image(data, len, &hmaj, &hmin, msg, sizeof(msg)) == 0) {
		tf_snprintf(f->version, sizeof(f->version), "%u.%u", hmaj, hmin);
		tf_blob_facts_note(f, "version %u.%u: from its head", hmaj, hmin);
	}
	tf_snprintf(f->hardware_hint, sizeof(f->hardware_hint),
		    "the product id cyapa shows (product_id, \"CYTRA-116002-00\")");
	if (cyapa_name_product(name, id, &maj, &min) < 0)
		return 0;
	f->n_hardware = 1;
	tf_snprintf(f->hardware[0], sizeof(f->hardware[0]), "%s", id);
	f->hardware_guessed = true;
	if (gen >= 5 && (maj != hmaj || min != hmin))
		return tf_err_set(
			err, EBADMSG,
			"%s: its name says version %u.%u, its head %u.%u: which is it?", name,
			maj, min, hmaj, hmin);
	tf_snprintf(f->version, sizeof(f->version), "%u.%u", maj, min);
	tf_blob_facts_note(f,
			   "product id %s and version %u.%u: from its file name, as ChromeOS "
			   "names cyapa images",
			   id, maj, min);
	return 0;
}
