// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Synthetic maXTouch firmware images (our own invention, see mxt_image.h):
 * CRCs, header parsing and the image builder used by the generator.
 * Freestanding.
 */
#include "mxt_image.h"

em_u16 mxt_img_crc16(em_u16 crc, const em_u8 *buf, size_t len)
{
	size_t i;
	int b;

	/* CRC-16/CCITT-FALSE: poly 0x1021, MSB first. */
	for (i = 0; i < len; i++) {
		crc ^= (em_u16)(buf[i] << 8);
		for (b = 0; b < 8; b++)
			crc = (crc & 0x8000) ? (em_u16)((crc << 1) ^ 0x1021)
					     : (em_u16)(crc << 1);
	}
	return crc;
}

em_u32 mxt_img_crc32(em_u32 crc, const em_u8 *buf, size_t len)
{
	size_t i;
	int b;

	/* IEEE 802.3, reflected, as zlib's crc32(): chainable. */
	crc = ~crc;
	for (i = 0; i < len; i++) {
		crc ^= buf[i];
		for (b = 0; b < 8; b++)
			crc = (crc & 1) ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
	}
	return ~crc;
}

bool mxt_img_frame_crc_ok(const em_u8 *frame, size_t frame_len)
{
	em_u16 crc;

	if (frame_len < MXT_IMG_FRAME_OVERHEAD)
		return false;
	crc = mxt_img_crc16(MXT_IMG_CRC16_INIT, frame, frame_len - 2);
	return crc == (em_u16)((frame[frame_len - 2] << 8) | frame[frame_len - 1]);
}

static em_u32 get_be32(const em_u8 *p)
{
	return (em_u32)p[0] << 24 | (em_u32)p[1] << 16 | (em_u32)p[2] << 8 | p[3];
}

static void put_be16(em_u8 *p, em_u16 v)
{
	p[0] = (em_u8)(v >> 8);
	p[1] = (em_u8)v;
}

static void put_be32(em_u8 *p, em_u32 v)
{
	p[0] = (em_u8)(v >> 24);
	p[1] = (em_u8)(v >> 16);
	p[2] = (em_u8)(v >> 8);
	p[3] = (em_u8)v;
}

bool mxt_img_parse_header(const em_u8 *body, size_t len, struct mxt_img_header *h)
{
	const em_u8 *p = body + MXT_IMG_MAGIC_LEN;

	if (len != MXT_IMG_HEADER_BODY || em_memcmp(body, MXT_IMG_MAGIC, MXT_IMG_MAGIC_LEN))
		return false;
	h->family_id = p[0];
	h->variant_id = p[1];
	h->version = p[2];
	h->build = p[3];
	h->frame_count = (em_u16)(p[4] << 8 | p[5]);
	h->payload_len = get_be32(p + 6);
	return true;
}

size_t mxt_img_size(em_u32 payload_len, em_u16 data_per_frame)
{
	em_u32 frames;

	if (!data_per_frame || !payload_len)
		return 0;
	frames = (payload_len + data_per_frame - 1) / data_per_frame;
	return (size_t)(MXT_IMG_FRAME_OVERHEAD + MXT_IMG_HEADER_BODY) +
	       (size_t)frames * MXT_IMG_FRAME_OVERHEAD + payload_len +
	       (MXT_IMG_FRAME_OVERHEAD + 4);
}

/* xorshift32: a deterministic filler so images are reproducible. */
static em_u8 filler(em_u32 *state)
{
	em_u32 x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return (em_u8)(x >> 11);
}

/* Frame header fields around a body already placed at out + 5. */
static size_t seal_frame(em_u8 *out, em_u8 kind, em_u16 seq, size_t body_len)
{
	size_t len = 1 + 2 + body_len + 2; /* the length field excludes itself */
	em_u16 crc;

	put_be16(out, (em_u16)len);
	out[2] = kind;
	put_be16(out + 3, seq);
	crc = mxt_img_crc16(MXT_IMG_CRC16_INIT, out, 5 + body_len);
	put_be16(out + 5 + body_len, crc);
	return 2 + len;
}

size_t mxt_img_build(const struct mxt_img_header *h, const em_u8 *payload, em_u32 payload_len,
		     em_u16 data_per_frame, em_u8 *out, size_t out_cap)
{
	em_u32 frames, off, seed, crc = MXT_IMG_CRC32_INIT;
	size_t need = mxt_img_size(payload_len, data_per_frame), pos = 0;
	em_u16 seq = 0;
	em_u8 *b;

	if (!need || need > out_cap || data_per_frame > MXT_MODEL_MAX_CHUNK)
		return 0;
	frames = (payload_len + data_per_frame - 1) / data_per_frame;
	if (frames + 2 > 0xffff)
		return 0;

	b = out + pos + 5;
	em_memcpy(b, MXT_IMG_MAGIC, MXT_IMG_MAGIC_LEN);
	b[7] = h->family_id;
	b[8] = h->variant_id;
	b[9] = h->version;
	b[10] = h->build;
	put_be16(b + 11, (em_u16)(frames + 2));
	put_be32(b + 13, payload_len);
	pos += seal_frame(out + pos, MXT_IMG_HEADER, seq++, MXT_IMG_HEADER_BODY);

	seed = 0x9e3779b9u ^ ((em_u32)h->family_id << 24 | (em_u32)h->variant_id << 16 |
			      (em_u32)h->version << 8 | h->build);
	for (off = 0; off < payload_len; off += data_per_frame) {
		em_u32 n = payload_len - off, i;

		if (n > data_per_frame)
			n = data_per_frame;
		b = out + pos + 5;
		for (i = 0; i < n; i++)
			b[i] = payload ? payload[off + i] : filler(&seed);
		crc = mxt_img_crc32(crc, b, n);
		pos += seal_frame(out + pos, MXT_IMG_DATA, seq++, n);
	}
	put_be32(out + pos + 5, crc);
	pos += seal_frame(out + pos, MXT_IMG_END, seq, 4);
	return pos;
}
