// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * maXTouch firmware files.  The kernel's update_fw wants binary frames
 * (maxtouch.fw); vendors ship the same bytes as an ASCII hex string (.enc,
 * `xxd -r -p` converts).  Frames are opaque to a host: each is a big-endian
 * length L and L more bytes, sent as L + 2 bytes (mxt_load_fw).
 */
#include "mxt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Text that is hex digits only (ignoring one trailing newline)? */
static bool looks_enc(const uint8_t *buf, size_t len)
{
	size_t i;

	while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
		len--;
	if (!len)
		return false;
	for (i = 0; i < len; i++)
		if (tf_hexval(buf[i]) < 0)
			return false;
	return true;
}

static int decode_enc(const uint8_t *buf, size_t len, uint8_t **out, size_t *outlen,
		      struct tf_err *err)
{
	size_t i, n;
	uint8_t *b;

	if (len && buf[len - 1] == '\n')
		len--;
	if (len && buf[len - 1] == '\r')
		len--;
	if (!len)
		return tf_err_set(err, EINVAL, ".enc image is empty");
	for (i = 0; i < len; i++)
		if (tf_hexval(buf[i]) < 0)
			return tf_err_set(err, EINVAL,
					  ".enc image: byte %zu (0x%02x) is not a hex digit", i,
					  buf[i]);
	if (len % 2)
		return tf_err_set(err, EINVAL, ".enc image: odd number of hex digits (%zu)",
				  len);
	n = len / 2;
	b = malloc(n);
	if (!b)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(tf_hexval(buf[2 * i]) << 4 | tf_hexval(buf[2 * i + 1]));
	*out = b;
	*outlen = n;
	return 0;
}

size_t mxt_fw_frame_len(const struct mxt_fw *fw, size_t off)
{
	if (off + 2 > fw->len)
		return 0;
	return (size_t)(fw->data[off] << 8 | fw->data[off + 1]) + 2;
}

int mxt_fw_parse(const uint8_t *buf, size_t len, enum mxt_fw_form form, struct mxt_fw *fw,
		 struct tf_err *err)
{
	uint8_t *copy = malloc(len ? len : 1);

	if (!copy) {
		memset(fw, 0, sizeof(*fw));
		return -ENOMEM;
	}
	if (len)
		memcpy(copy, buf, len);
	return mxt_fw_parse_owned(copy, len, form, fw, err);
}

int mxt_fw_parse_owned(uint8_t *buf, size_t len, enum mxt_fw_form form, struct mxt_fw *fw,
		       struct tf_err *err)
{
	size_t off = 0;
	int r;

	memset(fw, 0, sizeof(*fw));
	if (form == MXT_FW_AUTO)
		form = looks_enc(buf, len) ? MXT_FW_ENC : MXT_FW_BINARY;
	if (form == MXT_FW_ENC) {
		r = decode_enc(buf, len, &fw->data, &fw->len, err);
		free(buf);
		if (r < 0)
			return r;
		fw->was_enc = true;
	} else {
		if (!len) {
			free(buf);
			return tf_err_set(err, EINVAL, "firmware image is empty");
		}
		fw->data = buf;
		fw->len = len;
	}
	while (off < fw->len) {
		size_t fl;

		if (off + 2 > fw->len) {
			r = tf_err_set(err, EINVAL,
				       "firmware image truncated: 1 stray byte after frame %zu",
				       fw->frames);
			goto fail;
		}
		fl = mxt_fw_frame_len(fw, off);
		if (fl == 2) {
			r = tf_err_set(err, EINVAL,
				       "firmware image: frame %zu at offset %zu is empty",
				       fw->frames + 1, off);
			goto fail;
		}
		if (off + fl > fw->len) {
			r = tf_err_set(err, EINVAL,
				       "firmware image truncated: frame %zu at offset %zu "
				       "needs %zu bytes, %zu left",
				       fw->frames + 1, off, fl, fw->len - off);
			goto fail;
		}
		if (fl > fw->max_frame)
			fw->max_frame = fl;
		fw->frames++;
		off += fl;
	}
	return 0;
fail:
	mxt_fw_free(fw);
	return r;
}

void mxt_fw_free(struct mxt_fw *fw)
{
	free(fw->data);
	memset(fw, 0, sizeof(*fw));
}
