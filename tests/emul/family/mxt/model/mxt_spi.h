/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The spi personality of the maXTouch chip model: the same struct
 * mxt_model (memory, objects, T6, bootloader, frames) behind the framing
 * Microchip's mchp_spi_ts driver speaks (atmel-maxtouch/maXTouch_SPI_linux
 * drivers/input/touchscreen/mchp_spi_ts.c), instead of behind i2c
 * addresses.  Freestanding like the other models.
 *
 * Application mode, one request per chip-select frame:
 *   request  opcode (0x01 write, 0x02 read), register LE16, length LE16,
 *            CRC8 of those 5 bytes (reflected, polynomial 0x8C, init 0:
 *            __mxt_calc_crc8), then for a write the data;
 *   response the next frame clocks out a 6-byte header -- status (0x81
 *            write ok, 0x41 write fail, 0x82 read ok, 0x42 read fail, 0x04
 *            invalid request, 0x08 invalid CRC), register, length, CRC8 --
 *            then for a read the data (the driver reads length + 6 bytes
 *            and takes the data from byte 6).  Bytes beyond, and the bytes
 *            of a request frame, read 0xFF.
 *   What is unverified and chosen here: the response header echoes the
 *   request's register and length (the driver looks at byte 0 only); a
 *   length over 64 (the driver's MXT_MAX_SPI_BLOCK) is an invalid request;
 *   a response waits in the interface while the chip resets (the driver
 *   reads the status of its T6 RESET / 0xA5 write 1 ms later).
 * Data CRC: while the object table lists T144 (the driver's crc_enabled,
 *   set in mxt_parse_object_table by T144's mere presence), a write's data
 *   is followed by the CRC8 of that data (same CRC, init 0), counted in
 *   the header's length; the driver sends at most 14 data bytes a request
 *   (MXT_MAX_SPI_BLOCK_CRC).  Reads are unchanged (the driver's read path
 *   does not look at crc_enabled; only its T5 message size grows by the
 *   message's own CRC byte, which the model's T5 already holds).  Chosen
 *   here, as no source says: a bad data CRC is answered 0x08 (invalid
 *   CRC) and nothing is written; a data-CRC write of more than 14 data
 *   bytes or of none is an invalid request (0x04), nothing written.
 * Bootloader mode: a frame starting 0x01 is a read (the status, id and
 *   version from its third byte on, as mxt_bootloader_read takes rx + 2); a
 *   frame starting 0x00 0x00 is a write of the rest (unlock, frame data).
 * SPI mode 3 (CPOL and CPHA), at most 8 MHz (the bench clock; the
 * datasheet limit is not in the sources).
 */
#ifndef MXT_SPI_H
#define MXT_SPI_H

#include "em_spi.h"
#include "mxt_model.h"

#define MXT_SPI_HEADER 6
#define MXT_SPI_MAX_LEN 64
#define MXT_SPI_MAX_LEN_CRC 14 /* MXT_MAX_SPI_BLOCK_CRC: data bytes with the data CRC */
#define MXT_SPI_T144 144       /* listed: write data carries its CRC8 */
#define MXT_SPI_WRITE_REQ 0x01
#define MXT_SPI_READ_REQ 0x02
#define MXT_SPI_WRITE_OK 0x81
#define MXT_SPI_WRITE_FAIL 0x41
#define MXT_SPI_READ_OK 0x82
#define MXT_SPI_READ_FAIL 0x42
#define MXT_SPI_INVALID_REQ 0x04
#define MXT_SPI_INVALID_CRC 0x08
/*
 * The chip's time to prepare a response: a response frame that starts
 * sooner after its request's last transfer began reads 0xFF and the
 * request is lost (counted, stats.early_responses).  500 us is the least
 * any mchp_spi_ts path leaves between a request and its response frame
 * (mxt_spi_write_req's delay_usecs and mxt_spi_read_req's cs_change_delay,
 * each followed by a wait for CHG; mxt_spi_transfer and mxt_spi_write_xfer
 * leave 1000 us): the sources give no figure of the chip's own, so the
 * model takes the driver's floor.  Measured from the start of the
 * request's last transfer, as the model sees no clock: its wire time
 * counts towards the gap.
 */
#define MXT_SPI_RESPONSE_GAP_NS 500000u

struct mxt_spi_stats {
	em_u32 requests;	/* application-mode requests seen */
	em_u32 writes;		/* of them, well-formed write requests */
	em_u32 crc_errors;	/* requests with a bad header CRC */
	em_u32 data_crc_errors; /* writes with a bad data CRC (T144 listed) */
	em_u32 invalid;		/* invalid requests */
	em_u32 responses;	/* response frames clocked out */
	em_u32 early_responses; /* response frames started within MXT_SPI_RESPONSE_GAP_NS */
	em_u32 bl_reads, bl_writes;
};

struct mxt_spi_faults {
	em_u32 crc_reply_at;  /* answer the Nth request (1-based) with 0x08; 0 = never */
	em_u32 write_fail_at; /* answer the Nth write request (stats.writes) with 0x41 */
};

struct mxt_spi {
	struct mxt_model *m;
	bool selected;
	em_u32 pos;   /* bytes clocked in this frame */
	bool readout; /* this frame clocks out a pending response */
	em_u8 in[MXT_MODEL_MAX_FRAME + 8];
	em_u32 in_len;
	em_u8 resp[MXT_SPI_HEADER + MXT_SPI_MAX_LEN];
	em_u32 resp_len;
	bool resp_pending;
	em_u64 now;	/* model time of the last advance */
	em_u64 xfer_at; /* when this frame's last transfer began */
	em_u64 resp_at; /* when the request of the pending response ended */
	bool early;	/* this frame came too soon for the pending response */
	em_u8 bl[3];	/* bootloader read: status, id, version */
	struct mxt_spi_stats stats;
	struct mxt_spi_faults faults;
};

/* Bind the personality to an initialised model. */
void mxt_spi_init(struct mxt_spi *s, struct mxt_model *m);
extern const struct em_spi_ops mxt_spi_ops;

/* The CRC8 of the request header (__mxt_calc_crc8 over @len bytes). */
em_u8 mxt_spi_model_crc8(const em_u8 *buf, em_u32 len);

#endif /* MXT_SPI_H */
