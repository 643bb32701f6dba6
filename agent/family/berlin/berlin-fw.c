// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Goodix Berlin data formats (berlin.h has the facts and their sources):
 * the two checksums, the firmware file's header with its subsystem
 * records, the version block and the flash command.  Pure functions, no
 * I/O: the unit tests and the fuzz target drive them directly.
 */
#include "berlin.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

uint16_t berlin_sum8(const uint8_t *p, size_t n)
{
	uint32_t s = 0;

	for (size_t i = 0; i < n; i++)
		s += p[i];
	return (uint16_t)s;
}

uint32_t berlin_sum16(const uint8_t *p, size_t n)
{
	uint32_t s = 0;

	for (size_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)p[i] | (uint32_t)p[i + 1] << 8;
	return s;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

void berlin_pid_text(const uint8_t *pid, size_t n, char *out, size_t size)
{
	size_t k = 0;

	for (size_t i = 0; i < n && pid[i] && k + 1 < size; i++)
		out[k++] = pid[i] >= 0x20 && pid[i] < 0x7f ? (char)pid[i] : '?';
	if (size)
		out[k] = '\0';
}

/* A pid field: printable ASCII, then NULs only, not empty. */
static bool pid_ok(const uint8_t *pid, size_t n)
{
	size_t i = 0;

	for (; i < n && pid[i]; i++)
		if (pid[i] < 0x21 || pid[i] > 0x7e)
			return false;
	if (!i)
		return false;
	for (; i < n; i++)
		if (pid[i])
			return false;
	return true;
}

#define BAD(...) (snprintf(msg, size, __VA_ARGS__), -EBADMSG)

int berlin_fw_parse(const uint8_t *data, size_t len, struct berlin_fw *fw, char *msg,
		    size_t size)
{
	const uint8_t *h = data;
	size_t off = BERLIN_FW_HEADER;
	uint32_t sum;

	memset(fw, 0, sizeof(*fw));
	if (len < BERLIN_FW_HEADER)
		return BAD("%zu bytes: shorter than the %u-byte header", len, BERLIN_FW_HEADER);
	fw->data = data;
	fw->len = len;
	fw->size = le32(h);
	fw->checksum = le32(h + 4);
	if ((uint64_t)fw->size + BERLIN_FW_SUM_FROM != len)
		return BAD(
			"size: the header says %u bytes after the first %u, the file has %zu",
			fw->size, BERLIN_FW_SUM_FROM, len - BERLIN_FW_SUM_FROM);
	if (len % 2)
		return BAD("size: %zu bytes, not a whole number of 16-bit words", len);
	sum = berlin_sum16(data + BERLIN_FW_SUM_FROM, len - BERLIN_FW_SUM_FROM);
	if (sum != fw->checksum)
		return BAD("checksum: the header says 0x%08X, the 16-bit words from byte %u on "
			   "sum to 0x%08X",
			   fw->checksum, BERLIN_FW_SUM_FROM, sum);
	memcpy(fw->hw_pid, h + 8, 6);
	fw->hw_pid[6] = '\0';
	memcpy(fw->hw_vid, h + 14, 3);
	memcpy(fw->fw_pid_raw, h + 17, 8);
	memcpy(fw->fw_vid, h + 25, 4);
	fw->n_subsys = h[29];
	fw->chip_type = h[30];
	fw->protocol = h[31];
	fw->bus_type = h[32];
	fw->flash_protect = h[33];
	if (!pid_ok(fw->fw_pid_raw, sizeof(fw->fw_pid_raw)))
		return BAD("fw_pid: not a product id (printable ASCII padded with NULs)");
	berlin_pid_text(fw->fw_pid_raw, 8, fw->fw_pid, sizeof(fw->fw_pid));
	if (!(fw->bus_type & BERLIN_FW_BUS_SPI))
		return BAD("bus_type: 0x%02X is firmware for an i2c chip; this one is on spi",
			   fw->bus_type);
	if (fw->n_subsys < 2 || fw->n_subsys > BERLIN_FW_SUBSYS_MAX)
		return BAD("subsys_num: %u, not 2 to %u (the ISP program and what it flashes)",
			   fw->n_subsys, BERLIN_FW_SUBSYS_MAX);
	for (unsigned i = 0; i < fw->n_subsys; i++) {
		const uint8_t *r = h + BERLIN_FW_SUBSYS_OFF + i * BERLIN_FW_SUBSYS_REC;
		struct berlin_subsys *s = &fw->subsys[i];

		s->type = r[0];
		s->size = le32(r + 1);
		s->flash_addr = le32(r + 5);
		s->offset = off;
		if (!s->size)
			return BAD("subsystem[%u].size: 0", i);
		if (s->size % 2)
			return BAD("subsystem[%u].size: %u, odd (packets are summed in 16-bit "
				   "words)",
				   i, s->size);
		if (s->size > len - off)
			return BAD("subsystem[%u].size: %u bytes from offset %zu run past the "
				   "end of the file (%zu bytes)",
				   i, s->size, off, len);
		off += s->size;
		if (!i)
			continue; /* the ISP program goes to RAM, not to flash */
		if (s->flash_addr >= BERLIN_FLASH_END ||
		    s->size > BERLIN_FLASH_END - s->flash_addr)
			return BAD("subsystem[%u].flash_addr: 0x%05X + %u bytes is beyond the "
				   "flash's end 0x%05X",
				   i, s->flash_addr, s->size, BERLIN_FLASH_END);
		for (unsigned j = 1; j < i; j++) {
			const struct berlin_subsys *o = &fw->subsys[j];

			if (s->flash_addr < o->flash_addr + o->size &&
			    o->flash_addr < s->flash_addr + s->size)
				return BAD("subsystem[%u].flash_addr: 0x%05X-0x%05X overlaps "
					   "subsystem[%u] at 0x%05X-0x%05X",
					   i, s->flash_addr, s->flash_addr + s->size - 1, j,
					   o->flash_addr, o->flash_addr + o->size - 1);
		}
	}
	if (off != len)
		return BAD(
			"subsys_num: the %u subsystems cover %zu bytes after the header, the "
			"file has %zu",
			fw->n_subsys, off - BERLIN_FW_HEADER, len - BERLIN_FW_HEADER);
	return 0;
}

int berlin_version_parse(const uint8_t raw[BERLIN_VERSION_LEN], struct berlin_version *v,
			 char *msg, size_t size)
{
	uint16_t want = (uint16_t)(raw[26] | raw[27] << 8);
	uint16_t got = berlin_sum8(raw, BERLIN_VERSION_LEN - 2);

	bool idle = true;

	memset(v, 0, sizeof(*v));
	for (int i = 0; i < BERLIN_VERSION_LEN && idle; i++)
		idle = raw[i] == 0x00 || raw[i] == 0xff;
	/* all zeros "checks" (0 sums to 0): the bus's idle level or a chip
	 * still booting, never a version (goodix_berlin_is_dummy_data) */
	if (idle)
		return BAD("all 0x%02X: no chip answering, or one still starting", raw[0]);
	if (want != got)
		return BAD("checksum 0x%04X, but its bytes sum to 0x%04X", want, got);
	memcpy(v->rom_pid, raw, 6);
	memcpy(v->rom_vid, raw + 6, 3);
	memcpy(v->patch_pid, raw + 10, 8);
	memcpy(v->patch_vid, raw + 18, 4);
	v->sensor_id = raw[23];
	return 0;
}

bool berlin_version_nocode(const struct berlin_version *v)
{
	return !memcmp(v->rom_pid, "NOCODE", 6) || !memcmp(v->patch_pid, "NOCODE", 6);
}

bool berlin_version_isp(const struct berlin_version *v)
{
	return !memcmp(v->patch_pid + 3, "ISP", 3);
}

void berlin_flash_cmd(uint8_t type, uint16_t len, uint32_t addr,
		      uint8_t out[BERLIN_FLASH_CMD_LEN])
{
	uint16_t sum;

	memset(out, 0, BERLIN_FLASH_CMD_LEN);
	out[2] = BERLIN_FLASH_CMD_BODY;
	out[3] = BERLIN_FLASH_WRITE;
	out[4] = type;
	out[5] = (uint8_t)len;
	out[6] = (uint8_t)(len >> 8);
	out[7] = (uint8_t)addr;
	out[8] = (uint8_t)(addr >> 8);
	out[9] = (uint8_t)(addr >> 16);
	out[10] = (uint8_t)(addr >> 24);
	sum = berlin_sum8(out + 2, 9);
	out[11] = (uint8_t)sum;
	out[12] = (uint8_t)(sum >> 8);
}

const char *berlin_status_name(uint8_t status)
{
	switch (status) {
	case BERLIN_STATUS_CHK_PASS:
		return "data checked, not yet written";
	case BERLIN_STATUS_CHK_FAIL:
		return "data checksum failed";
	case BERLIN_STATUS_ADDR_ERR:
		return "flash address error";
	case BERLIN_STATUS_WRITE_ERR:
		return "flash write error";
	case BERLIN_STATUS_WRITE_OK:
		return "written";
	default:
		return "unknown status";
	}
}
