/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The synthetic maXTouch firmware image format used by touchfw's emulator.
 *
 * THIS FORMAT IS OUR OWN INVENTION.  Real maXTouch frame contents are not
 * public; host tools treat frames as opaque.  Only the outer framing below is
 * what real tools (and the kernel) rely on:
 *
 *   a .fw image is a sequence of frames; each frame is a big-endian 16-bit
 *   length L followed by L bytes; a host sends L + 2 bytes per frame.
 *
 * Inside the L bytes, our synthetic bootloader expects:
 *
 *   [0]       kind: MXT_IMG_HEADER, MXT_IMG_DATA or MXT_IMG_END
 *   [1..2]    frame sequence number, big-endian (header = 0)
 *   [3..L-3]  body
 *   [L-2..L-1] CRC-16/CCITT-FALSE over the length field and bytes [0..L-3],
 *             big-endian
 *
 * Header body (MXT_IMG_HEADER_BODY bytes): magic "TFWSYN1", family id,
 * variant id, version, build, total frame count (BE16, header and end
 * included), image payload length (BE32).
 * Data body: payload bytes (any length, >= 1).
 * End body: CRC-32 (IEEE 802.3) of all data bodies in order, BE32.
 *
 * The emulated bootloader checks each frame's CRC (FRAME_CRC_FAIL when it is
 * wrong), its sequence number (frames in order; a valid header frame starts
 * a new image at any point) and, for the header, the chip identity; on
 * the end frame it checks frame count and payload CRC-32 and only then
 * marks the application valid, with the header's version and build.
 */
#ifndef MXT_IMAGE_H
#define MXT_IMAGE_H

#include "em_types.h"

#define MXT_IMG_HEADER 0x48 /* 'H' */
#define MXT_IMG_DATA 0x44   /* 'D' */
#define MXT_IMG_END 0x45    /* 'E' */

#define MXT_IMG_MAGIC "TFWSYN1"
#define MXT_IMG_MAGIC_LEN 7
#define MXT_IMG_HEADER_BODY (MXT_IMG_MAGIC_LEN + 4 + 2 + 4)
#define MXT_IMG_FRAME_OVERHEAD (2 + 1 + 2 + 2) /* length, kind, seq, crc */
/* Largest data body per frame the builder makes (bootloader buffer bound). */
#define MXT_MODEL_MAX_CHUNK 1000

struct mxt_img_header {
	em_u8 family_id;
	em_u8 variant_id;
	em_u8 version; /* major << 4 | minor, as in the info block */
	em_u8 build;
	em_u16 frame_count;
	em_u32 payload_len;
};

em_u16 mxt_img_crc16(em_u16 crc, const em_u8 *buf, size_t len);
em_u32 mxt_img_crc32(em_u32 crc, const em_u8 *buf, size_t len);
#define MXT_IMG_CRC16_INIT 0xffff
#define MXT_IMG_CRC32_INIT 0 /* the function handles pre/post inversion */

/* Check the CRC of a whole frame (length field included).  true if valid. */
bool mxt_img_frame_crc_ok(const em_u8 *frame, size_t frame_len);

/* Parse a header body; false if the magic is wrong. */
bool mxt_img_parse_header(const em_u8 *body, size_t len, struct mxt_img_header *h);

/*
 * Image builder, used by the generator.  Frames carry up to @data_per_frame
 * payload bytes each.  Writes the whole .fw image into @out (capacity
 * @out_cap) and returns its length, or 0 if it does not fit or the
 * arguments are invalid.  @payload may be NULL to use a deterministic
 * pseudo-random payload of @payload_len bytes seeded from the header.
 */
size_t mxt_img_build(const struct mxt_img_header *h, const em_u8 *payload, em_u32 payload_len,
		     em_u16 data_per_frame, em_u8 *out, size_t out_cap);

/* Size mxt_img_build() needs for the same arguments. */
size_t mxt_img_size(em_u32 payload_len, em_u16 data_per_frame);

#endif /* MXT_IMAGE_H */
