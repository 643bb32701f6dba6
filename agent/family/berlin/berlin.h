/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Goodix Berlin (Berlin-D, gt9916) over spi: the family's own declarations.
 *
 * Facts, from drivers/input/touchscreen/goodix_berlin_core.c and
 * goodix_berlin_spi.c (the kernel driver, which reads the chip but never
 * flashes it) and from Goodix's user-space updater
 * goodix/fwupdate_for_berlin_linux, fwupdate.c (the flashing sequence, the
 * per-variant addresses and the firmware file header):
 *
 *  - spi mode 0, 8 bits.  A read is one transfer: 0xF1, the address
 *    big-endian in 4 bytes, 3 dummy bytes of 0xFF, then the data clocked
 *    in; a write is 0xF0, the address, the data.  The driver's regmap
 *    splits longer accesses into transfers of the controller's maximum
 *    (for spidev: its bufsiz), each with its own address.
 *  - The version block (28 bytes at 0x10014): rom pid[6], rom vid[3], a
 *    reserved byte, patch pid[8], patch vid[4], reserved, sensor id,
 *    reserved[2], then the LE16 sum of the 26 bytes before it.  A chip
 *    without firmware says "NOCODE" as its patch (or rom) pid; the ISP
 *    program, once running, says "ISP" at patch pid[3..5].
 *  - Chip info at 0x10070: its length (LE16, < 1 KiB) first, then that
 *    many bytes ending in the LE16 byte sum of the rest; all 0x00/0xFF is
 *    the bus's idle level, not data.  The driver's probe fails when the
 *    version or this block does not check, so an empty chip gets no
 *    driver.  The config id is the LE32 at offset 6.
 *  - Device check: 8 x 0xAA written to 0x10000 read back the same.
 *  - Flashing: soft reset (0xFE to 0xD808); hold the CPU (01 00 to
 *    0x0002, then 0x2000 read three times alike); misc clock (LE32
 *    0x20700000 to 0xD804) and watchdog off (0x00 to 0xD040); the ISP
 *    program (subsystem 0) written to RAM at 0x23800 and read back; 8 x
 *    0x55 to 0x10000 (boot from RAM) read back; soft reset; the version
 *    then says ISP.  Then every other subsystem in packets of at most
 *    4 KiB, each followed by the LE32 sum of its LE16 words, written to
 *    the ISP buffer at 0x12410 and read back, and a 16-byte flash command
 *    at 0x12400 (status, ack, len 11, cmd 0xBB, type, packet length LE16
 *    with the sum, flash address LE32, LE16 byte sum of bytes 2..10),
 *    polled until ack 0xEE and status 0xEE (write ok); status 0x33 (data
 *    checksum failed) and 0x55 (flash write error) are worth a retry,
 *    0x44 (bad address) is not.  Then a soft reset, and the version must
 *    name the file's pid and vid.
 *  - The firmware file: a 512-byte header -- size LE32 (the file's length
 *    less 8), checksum LE32 (sum of the LE16 words from byte 8 on), hw pid[6],
 *    hw vid[3], fw pid[8], fw vid[4], subsystem count, chip type, protocol
 *    version, bus type (bit 0: spi), flash protect, reserved[2] -- with
 *    10-byte subsystem records (type, size LE32, flash address LE32) from
 *    byte 42, at most 47; the subsystems' bytes follow the header in that
 *    order.
 */
#ifndef TF_BERLIN_H
#define TF_BERLIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "family/family.h"
#include "spi.h"
#include "util.h"
#include "version.h"

extern const struct tf_family_ids tf_family_ids_berlin;
extern const struct tf_version_scheme berlin_version_scheme;
extern const struct tf_family_ops berlin_ops;

/* spi framing (goodix_berlin_spi.c) */
#define BERLIN_SPI_WRITE 0xF0
#define BERLIN_SPI_READ 0xF1
#define BERLIN_SPI_ADDR_LEN 4
#define BERLIN_SPI_DUMMY 3 /* Berlin-D */
#define BERLIN_SPI_WPREFIX (1 + BERLIN_SPI_ADDR_LEN)
#define BERLIN_SPI_RPREFIX (1 + BERLIN_SPI_ADDR_LEN + BERLIN_SPI_DUMMY)

/* registers (goodix_berlin_core.c; fwupdate.c, Berlin-D) */
#define BERLIN_REG_BOOTOPT 0x10000u
#define BERLIN_REG_VERSION 0x10014u
#define BERLIN_REG_IC_INFO 0x10070u
#define BERLIN_REG_RESET 0xD808u
#define BERLIN_REG_HOLD_W 0x0002u
#define BERLIN_REG_HOLD_R 0x2000u
#define BERLIN_REG_MISCTL 0xD804u
#define BERLIN_MISCTL_VAL 0x20700000u
#define BERLIN_REG_WATCHDOG 0xD040u
#define BERLIN_ISP_RAM 0x23800u
#define BERLIN_REG_FLASH_CMD 0x12400u
#define BERLIN_REG_ISP_BUF 0x12410u

#define BERLIN_RESET_CMD 0xFE
#define BERLIN_CONFIRM_VAL 0xAA
#define BERLIN_BOOT_ISP_VAL 0x55
#define BERLIN_IC_INFO_MAX 1024

/* the version block */
#define BERLIN_VERSION_LEN 28
struct berlin_version {
	uint8_t rom_pid[6];
	uint8_t rom_vid[3];
	uint8_t patch_pid[8];
	uint8_t patch_vid[4];
	uint8_t sensor_id;
};

/* flash command (fwupdate.c goodix_flash_cmd) */
#define BERLIN_FLASH_CMD_LEN 16
#define BERLIN_FLASH_CMD_BODY 11 /* its len field: bytes 2..12 */
#define BERLIN_FLASH_WRITE 0xBB
#define BERLIN_ACK_PASS 0xEE
#define BERLIN_ACK_CHK_ERROR 0x33
#define BERLIN_STATUS_CHK_PASS 0x22
#define BERLIN_STATUS_CHK_FAIL 0x33
#define BERLIN_STATUS_ADDR_ERR 0x44
#define BERLIN_STATUS_WRITE_ERR 0x55
#define BERLIN_STATUS_WRITE_OK 0xEE
#define BERLIN_PACKET_MAX 4096u
#define BERLIN_PACKET_TRIES 3 /* per packet, on a status worth a retry */

/* firmware file */
#define BERLIN_FW_HEADER 512u
#define BERLIN_FW_SUM_FROM 8u
#define BERLIN_FW_SUBSYS_OFF 42u
#define BERLIN_FW_SUBSYS_REC 10u
#define BERLIN_FW_SUBSYS_MAX 47u
#define BERLIN_FW_BUS_SPI 0x01
#define BERLIN_SUBSYS_CONFIG 4 /* fwupdate.c CONFIG_DATA_TYPE */
/* The flash's end: Berlin-D keeps its configuration in the last 4 KiB
 * page below 256 KiB (fwupdate.c CONFIG_DATA_ADDR_BRD 0x3E000..). */
#define BERLIN_FLASH_END 0x40000u

struct berlin_subsys {
	uint8_t type;
	uint32_t size, flash_addr;
	size_t offset; /* of its bytes in the file */
};

struct berlin_fw {
	const uint8_t *data; /* the whole file */
	size_t len;
	uint32_t size, checksum;
	char hw_pid[7];
	uint8_t hw_vid[3];
	char fw_pid[9]; /* as text, NULs dropped */
	uint8_t fw_pid_raw[8];
	uint8_t fw_vid[4];
	uint8_t chip_type, protocol, bus_type, flash_protect;
	unsigned n_subsys;
	struct berlin_subsys subsys[BERLIN_FW_SUBSYS_MAX];
};

/* berlin-fw.c: checksums, the header, the version block, the flash command */
uint16_t berlin_sum8(const uint8_t *p, size_t n);
uint32_t berlin_sum16(const uint8_t *p, size_t n); /* n even */
/* Parse and check a firmware file; -EBADMSG with @msg naming the field. */
int berlin_fw_parse(const uint8_t *data, size_t len, struct berlin_fw *fw, char *msg,
		    size_t size);
/* The 28-byte block: 0, or -EBADMSG (checksum) with @msg. */
int berlin_version_parse(const uint8_t raw[BERLIN_VERSION_LEN], struct berlin_version *v,
			 char *msg, size_t size);
bool berlin_version_nocode(const struct berlin_version *v);
bool berlin_version_isp(const struct berlin_version *v);
/* A pid as text: printable bytes up to the first NUL. */
void berlin_pid_text(const uint8_t *pid, size_t n, char *out, size_t size);
void berlin_flash_cmd(uint8_t type, uint16_t len, uint32_t addr,
		      uint8_t out[BERLIN_FLASH_CMD_LEN]);
const char *berlin_status_name(uint8_t status);
/* The vid as a version of berlin_version_scheme. */
void berlin_version_from_vid(const uint8_t vid[4], struct tf_version *v);

/* berlin-spi.c: framing over spidev */
void berlin_spi_read_prefix(uint32_t addr, uint8_t out[BERLIN_SPI_RPREFIX]);
void berlin_spi_write_prefix(uint32_t addr, uint8_t out[BERLIN_SPI_WPREFIX]);
/* Data bytes per transfer spidev's bufsiz allows (prefix included). */
size_t berlin_spi_chunk(const struct tf_spi *s, size_t prefix);
int berlin_spi_read(struct tf_spi *s, uint32_t addr, uint8_t *buf, size_t len);
int berlin_spi_write(struct tf_spi *s, uint32_t addr, const uint8_t *buf, size_t len);

/* blob.c: manifest and byte rules */
int berlin_check_blob(const struct tf_blob *b, const char **key, char *msg, size_t size);
int berlin_check_blob_data(const struct tf_blob *b, const uint8_t *data, size_t len, char *msg,
			   size_t size);
int berlin_blob_facts(const uint8_t *data, size_t len, const char *name,
		      struct tf_blob_facts *f, struct tf_err *err);

#endif /* TF_BERLIN_H */
