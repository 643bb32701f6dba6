// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Goodix Berlin operations over spidev (berlin.h has the facts and their
 * sources).  detect() asks the chip as the driver's probe does (device
 * check, version block, chip info), so a chip it calls application mode
 * is one goodix-berlin-spi binds to; an empty chip ("NOCODE"), one left
 * running the ISP program, or one whose blocks do not check is a chip
 * only flashing helps -- touchfw's "bootloader mode".  write_firmware()
 * runs Goodix's ISP sequence; leave_bootloader() resets the chip and
 * proves the file's pid and vid came up.
 */
#include "berlin.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct berlin_priv {
	bool held; /* enter_bootloader held the CPU after a soft reset */
	/* how long a full packet's flash command kept the chip busy at least
	 * (us from the command's write; 0: not seen yet), see flash_cmd() */
	uint64_t flash_busy_us;
	/* what write_firmware flashed, for leave_bootloader to find */
	bool flashed;
	uint8_t want_pid[8], want_vid[4];
};

struct berlin_img {
	uint8_t *data;
	struct berlin_fw fw;
};

#define P(c) ((struct berlin_priv *)(c)->priv)

/* Bounds, generous beside fwupdate.c's (its 5 x 5 ms for the ack, 20 x
 * 15 ms for the status, 100-200 ms after a reset): polled, not slept. */
#define BERLIN_BOOT_TIMEOUT_MS 2000
#define BERLIN_ACK_TIMEOUT_MS 1000
#define BERLIN_STATUS_TIMEOUT_MS 3000
#define BERLIN_HOLD_TRIES 100
/* The flash command's ack and status are polled from 100 us, doubling up
 * to this: a 4 KiB packet's write takes milliseconds, and a read of the
 * command block is 23 bytes on the wire (23 us at 8 MHz), so a finer step
 * costs the bus little and finds the status sooner (with 5 ms steps the
 * last poll came on average half a step late, 5 % of the flashing time). */
#define BERLIN_POLL_MAX_US 1000
/* Once a full packet has been flashed, the next one's first status read
 * comes when that one was last seen busy (scaled down for a shorter
 * packet, which takes less), and up to this many reads follow without a
 * sleep: the status is seen within one read of its change (a read is
 * 24 bytes, 24 us at 8 MHz), where a growing step lands half a step late
 * on average.  Then the step grows as above, for a chip slower than the
 * last packet said. */
#define BERLIN_FINE_POLLS 20
/* After a soft reset, before the version means anything: the firmware's
 * boot time the driver allows (GOODIX_BERLIN_NORMAL_RESET_DELAY_MS), which
 * fwupdate.c also waits before it looks for the ISP (chip_reset(100)). */
#define BERLIN_RESET_WAIT_MS 100
/* detect(): how long a version block that does not check is read again
 * (a chip still starting after its power-up or reset) before it counts
 * as "no working firmware". */
#define BERLIN_SETTLE_MS 300
#define BERLIN_CONFIRM_TRIES 3

static int berlin_init(struct tf_ctx *c, struct tf_err *err)
{
	c->priv = calloc(1, sizeof(struct berlin_priv));
	return c->priv ? 0 : tf_err_set(err, ENOMEM, "out of memory");
}

static void berlin_fini(struct tf_ctx *c)
{
	free(c->priv);
	c->priv = NULL;
}

static int need_spi(struct tf_ctx *c, struct tf_err *err)
{
	if (c->spi_open)
		return 0;
	return tf_err_set(err, EOPNOTSUPP, "the Berlin family works over spidev only");
}

static int rd(struct tf_ctx *c, uint32_t addr, uint8_t *buf, size_t len, const char *what,
	      struct tf_err *err)
{
	int r = berlin_spi_read(&c->spi, addr, buf, len);

	if (r < 0)
		return tf_err_set(err, -r, "reading %s (0x%05X) over %s: %s", what, addr,
				  c->spi.node, strerror(-r));
	return 0;
}

static int wr(struct tf_ctx *c, uint32_t addr, const uint8_t *buf, size_t len, const char *what,
	      struct tf_err *err)
{
	int r = berlin_spi_write(&c->spi, addr, buf, len);

	if (r < 0)
		return tf_err_set(err, -r, "writing %s (0x%05X) over %s: %s", what, addr,
				  c->spi.node, strerror(-r));
	return 0;
}

/* Write and read back until alike (fwupdate.c goodix_reg_write_confirm). */
static int wr_confirm(struct tf_ctx *c, uint32_t addr, const uint8_t *buf, size_t len,
		      const char *what, struct tf_err *err)
{
	uint8_t *back = malloc(len);
	size_t at = 0;
	int r = 0;

	if (!back)
		return tf_err_set(err, ENOMEM, "out of memory");
	for (int i = 0; i < BERLIN_CONFIRM_TRIES; i++) {
		if ((r = wr(c, addr, buf, len, what, err)) < 0 ||
		    (r = rd(c, addr, back, len, what, err)) < 0)
			break;
		for (at = 0; at < len && back[at] == buf[at]; at++)
			;
		if (at == len)
			break;
	}
	free(back);
	if (r < 0)
		return r;
	if (at != len)
		return tf_err_set(err, EIO,
				  "%s (%zu bytes at 0x%05X) reads back different from "
				  "byte %zu on, %d times",
				  what, len, addr, at, BERLIN_CONFIRM_TRIES);
	return 0;
}

static int soft_reset_cmd(struct tf_ctx *c, struct tf_err *err)
{
	uint8_t v = BERLIN_RESET_CMD;

	return wr(c, BERLIN_REG_RESET, &v, 1, "the reset register", err);
}

/* The version block, checked; -EBADMSG with the reason when it does not
 * check. */
static int read_version(struct tf_ctx *c, struct berlin_version *v, struct tf_err *err)
{
	uint8_t raw[BERLIN_VERSION_LEN];
	char why[96];
	int r;

	if ((r = rd(c, BERLIN_REG_VERSION, raw, sizeof(raw), "the version block", err)) < 0)
		return r;
	if (berlin_version_parse(raw, v, why, sizeof(why)) < 0)
		return tf_err_set(err, EBADMSG, "version block at 0x%05X: %s",
				  BERLIN_REG_VERSION, why);
	return 0;
}

/* Poll the version block after a reset until @want says yes. */
static int wait_version(struct tf_ctx *c, bool (*want)(const struct berlin_version *),
			struct berlin_version *v, struct tf_err *err)
{
	uint64_t end = tf_now_ms() + BERLIN_BOOT_TIMEOUT_MS;
	uint64_t delay = BERLIN_RESET_WAIT_MS * 1000u;
	int r;

	for (;;) {
		tf_sleep_us(delay);
		delay = 10000;
		tf_err_clear(err);
		r = read_version(c, v, err);
		if (r == 0 && want(v))
			return 0;
		if (r < 0 && r != -EBADMSG)
			return r;
		if (tf_now_ms() >= end)
			return r < 0 ? r : -ETIMEDOUT;
	}
}

/* The driver's device check (goodix_berlin_dev_confirm): 0, or -ENXIO
 * with what came back in @seen. */
static int dev_confirm(struct tf_ctx *c, uint8_t seen[8], struct tf_err *err)
{
	uint8_t tx[8];
	int r;

	memset(tx, BERLIN_CONFIRM_VAL, sizeof(tx));
	for (int i = 0; i < 3; i++) {
		if (i)
			tf_sleep_us(5000);
		if ((r = wr(c, BERLIN_REG_BOOTOPT, tx, 8, "the device check", err)) < 0 ||
		    (r = rd(c, BERLIN_REG_BOOTOPT, seen, 8, "the device check", err)) < 0)
			return r;
		if (!memcmp(tx, seen, 8))
			return 0;
	}
	return -ENXIO;
}

/* The chip info block, as goodix_berlin_get_ic_info takes it: 0 with its
 * config id and length, or -EBADMSG with the reason in @why. */
static int read_ic_info(struct tf_ctx *c, uint32_t *config_id, uint8_t *config_ver,
			uint16_t *length, char *why, size_t wsize, struct tf_err *err)
{
	uint8_t *buf, lr[2];
	uint16_t len;
	bool dummy = true;
	int r;

	if ((r = rd(c, BERLIN_REG_IC_INFO, lr, 2, "the chip info length", err)) < 0)
		return r;
	len = (uint16_t)(lr[0] | lr[1] << 8);
	*length = len;
	if (len >= BERLIN_IC_INFO_MAX || len < 12)
		return tf_snprintf(why, wsize, "has length %u (not 12 to %u)", len,
				   BERLIN_IC_INFO_MAX - 1),
		       -EBADMSG;
	buf = malloc(len);
	if (!buf)
		return tf_err_set(err, ENOMEM, "out of memory");
	r = rd(c, BERLIN_REG_IC_INFO, buf, len, "the chip info", err);
	if (r == 0) {
		uint16_t want = (uint16_t)(buf[len - 2] | buf[len - 1] << 8);
		uint16_t got = berlin_sum8(buf, len - 2u);

		for (size_t i = 0; i < len && dummy; i++)
			dummy = buf[i] == 0 || buf[i] == 0xff;
		if (dummy) {
			tf_snprintf(why, wsize, "is all 0x00/0xFF");
			r = -EBADMSG;
		} else if (want != got) {
			tf_snprintf(why, wsize,
				    "has checksum 0x%04X, but its bytes sum to 0x%04X", want,
				    got);
			r = -EBADMSG;
		}
		*config_id = (uint32_t)buf[6] | (uint32_t)buf[7] << 8 | (uint32_t)buf[8] << 16 |
			     (uint32_t)buf[9] << 24;
		*config_ver = buf[10];
	}
	free(buf);
	return r;
}

static void vid_text(const uint8_t *v, size_t n, char *out, size_t size)
{
	size_t k = 0;

	out[0] = '\0';
	for (size_t i = 0; i < n && k + 3 <= size; i++, k += 2)
		snprintf(out + k, size - k, "%02X", v[i]);
}

static int berlin_detect(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	struct berlin_version v;
	uint8_t seen[8];
	char pid[9], rom[7], why[128], vid[9];
	uint32_t cfg_id = 0;
	uint8_t cfg_ver = 0;
	uint16_t info_len = 0;
	int r;

	memset(st, 0, sizeof(*st));
	if ((r = need_spi(c, err)) < 0)
		return r;
	r = dev_confirm(c, seen, err);
	if (r == -ENXIO) {
		st->mode = TF_CHIP_ABSENT;
		tf_snprintf(st->detail, sizeof(st->detail),
			    "no Berlin chip answers on %s: the device check at 0x%05X read "
			    "back %02x %02x %02x %02x %02x %02x %02x %02x",
			    c->spi.node, BERLIN_REG_BOOTOPT, seen[0], seen[1], seen[2], seen[3],
			    seen[4], seen[5], seen[6], seen[7]);
		return 0;
	}
	if (r < 0)
		return r;
	for (uint64_t end = tf_now_ms() + BERLIN_SETTLE_MS;;) {
		tf_err_clear(err);
		r = read_version(c, &v, err);
		if (r != -EBADMSG || tf_now_ms() >= end)
			break;
		tf_sleep_us(10000);
	}
	if (r == -EBADMSG) {
		st->mode = TF_CHIP_BOOTLOADER;
		tf_snprintf(st->detail, sizeof(st->detail),
			    "no working firmware: %s (the driver does not bind)", err->msg);
		tf_err_clear(err);
		return 0;
	}
	if (r < 0)
		return r;
	berlin_pid_text(v.patch_pid, 8, pid, sizeof(pid));
	berlin_pid_text(v.rom_pid, 6, rom, sizeof(rom));
	if (berlin_version_nocode(&v)) {
		st->mode = TF_CHIP_BOOTLOADER;
		tf_snprintf(st->detail, sizeof(st->detail),
			    "empty chip: no firmware (patch pid NOCODE, rom pid %s); the "
			    "driver does not bind",
			    rom);
		return 0;
	}
	if (berlin_version_isp(&v)) {
		st->mode = TF_CHIP_BOOTLOADER;
		tf_snprintf(st->detail, sizeof(st->detail),
			    "the ISP program runs (patch pid %s): an update did not finish",
			    pid);
		return 0;
	}
	tf_snprintf(st->hw, sizeof(st->hw), "%s", pid);
	st->has_version = true;
	berlin_version_from_vid(v.patch_vid, &st->version);
	tf_version_format(&st->version, st->version_str, sizeof(st->version_str));
	vid_text(v.patch_vid, 4, vid, sizeof(vid));
	r = read_ic_info(c, &cfg_id, &cfg_ver, &info_len, why, sizeof(why), err);
	if (r == -EBADMSG) {
		st->mode = TF_CHIP_BOOTLOADER;
		tf_snprintf(st->detail, sizeof(st->detail),
			    "firmware %s %s, but its chip info at 0x%05X %s: the driver does "
			    "not bind",
			    pid, vid, BERLIN_REG_IC_INFO, why);
		return 0;
	}
	if (r < 0)
		return r;
	st->mode = TF_CHIP_APP;
	tf_snprintf(st->detail, sizeof(st->detail), "firmware %s %s, config id 0x%08X", pid,
		    vid, cfg_id);
	return 0;
}

static int berlin_load_firmware(struct tf_ctx *c, uint8_t *data, size_t len, const char *name,
				void **img, struct tf_err *err)
{
	struct berlin_img *im = calloc(1, sizeof(*im));
	char msg[256];

	(void)c;
	if (!im) {
		free(data);
		return tf_err_set(err, ENOMEM, "out of memory");
	}
	if (berlin_fw_parse(data, len, &im->fw, msg, sizeof(msg)) < 0) {
		free(data);
		free(im);
		return tf_err_set(err, EBADMSG, "%s: %s", name, msg);
	}
	im->data = data;
	*img = im;
	return 0;
}

static void berlin_free_firmware(void *img)
{
	struct berlin_img *im = img;

	if (!im)
		return;
	free(im->data);
	free(im);
}

/* Soft reset, then hold the CPU: 0x2000 read three times alike. */
static int hold_cpu(struct tf_ctx *c, struct tf_err *err)
{
	static const uint8_t hold[2] = { 0x01, 0x00 };
	uint8_t a[4], b[4], d[4];
	int r;

	if ((r = soft_reset_cmd(c, err)) < 0)
		return r;
	tf_sleep_us(5000);
	for (int i = 0; i < BERLIN_HOLD_TRIES; i++) {
		if ((r = wr(c, BERLIN_REG_HOLD_W, hold, 2, "the CPU hold register", err)) < 0 ||
		    (r = rd(c, BERLIN_REG_HOLD_R, a, 4, "the CPU state", err)) < 0 ||
		    (r = rd(c, BERLIN_REG_HOLD_R, b, 4, "the CPU state", err)) < 0 ||
		    (r = rd(c, BERLIN_REG_HOLD_R, d, 4, "the CPU state", err)) < 0)
			return r;
		if (!memcmp(a, b, 4) && !memcmp(b, d, 4))
			return 0;
		tf_sleep_us(100);
	}
	return tf_err_set(err, EIO,
			  "the CPU did not stop after the soft reset (0x%05X still "
			  "changing after %d tries)",
			  BERLIN_REG_HOLD_R, BERLIN_HOLD_TRIES);
}

static int berlin_enter_bootloader(struct tf_ctx *c, struct tf_chip_state *st,
				   struct tf_err *err)
{
	int r;

	(void)st;
	if ((r = need_spi(c, err)) < 0)
		return r;
	if ((r = hold_cpu(c, err)) < 0)
		return r;
	P(c)->held = true;
	return 0;
}

/* Clocks, watchdog, the ISP program into RAM, boot it (update_prepare). */
static int start_isp(struct tf_ctx *c, const struct berlin_fw *fw, struct tf_err *err)
{
	const struct berlin_subsys *isp = &fw->subsys[0];
	uint8_t misctl[4] = { (uint8_t)BERLIN_MISCTL_VAL, (uint8_t)(BERLIN_MISCTL_VAL >> 8),
			      (uint8_t)(BERLIN_MISCTL_VAL >> 16),
			      (uint8_t)(BERLIN_MISCTL_VAL >> 24) };
	uint8_t zero = 0, boot[8];
	struct berlin_version v;
	char pid[9];
	int r;

	if (!P(c)->held && (r = hold_cpu(c, err)) < 0)
		return r;
	P(c)->held = false;
	if ((r = wr(c, BERLIN_REG_MISCTL, misctl, 4, "the misc clock register", err)) < 0 ||
	    (r = wr(c, BERLIN_REG_WATCHDOG, &zero, 1, "the watchdog register", err)) < 0)
		return r;
	if ((r = wr_confirm(c, BERLIN_ISP_RAM, fw->data + isp->offset, isp->size,
			    "the ISP program", err)) < 0)
		return r;
	memset(boot, BERLIN_BOOT_ISP_VAL, sizeof(boot));
	if ((r = wr_confirm(c, BERLIN_REG_BOOTOPT, boot, sizeof(boot), "the boot option",
			    err)) < 0)
		return r;
	if ((r = soft_reset_cmd(c, err)) < 0)
		return r;
	r = wait_version(c, berlin_version_isp, &v, err);
	if (r == -ETIMEDOUT) {
		berlin_pid_text(v.patch_pid, 8, pid, sizeof(pid));
		return tf_err_set(err, EIO,
				  "the ISP program did not start: the version says patch "
				  "pid %s after %d ms",
				  pid, BERLIN_BOOT_TIMEOUT_MS);
	}
	if (r < 0)
		return tf_err_prefix(err, "waiting for the ISP program: ");
	return 0;
}

static uint64_t now_us(void)
{
	return tf_now_ns() / 1000;
}

/* A full packet: BERLIN_PACKET_MAX bytes and their sum. */
#define BERLIN_FULL_PACKET (BERLIN_PACKET_MAX + 4u)

/* What a written packet's status polls taught: @busy_at the start of the
 * last read that found the chip still busy (us from the command; 0: none). */
static void flash_learn(struct berlin_priv *p, uint16_t len, uint64_t first_us,
			uint64_t busy_at)
{
	if (len != BERLIN_FULL_PACKET)
		return; /* a shorter packet says less about a full one */
	if (busy_at)
		p->flash_busy_us = busy_at; /* the chip was busy then: it takes longer */
	else if (first_us)
		p->flash_busy_us -= p->flash_busy_us / 8; /* done at the first read: earlier */
}

/* One packet's flash command, polled for ack and status; the status byte
 * the chip ended with in *@status (0 when it never answered). */
static int flash_cmd(struct tf_ctx *c, uint8_t type, uint16_t len, uint32_t addr,
		     uint8_t *status, struct tf_err *err)
{
	struct berlin_priv *p = P(c);
	uint8_t cmd[BERLIN_FLASH_CMD_LEN], back[BERLIN_FLASH_CMD_LEN];
	uint64_t t0 = tf_now_ms(), delay = 100, sent, first = 0, busy_at = 0, read_at;
	unsigned fine = 0;
	bool acked = false;
	int r;

	*status = 0;
	berlin_flash_cmd(type, len, addr, cmd);
	if ((r = wr(c, BERLIN_REG_FLASH_CMD, cmd, sizeof(cmd), "the flash command", err)) < 0)
		return r;
	sent = now_us();
	if (p->flash_busy_us && len <= BERLIN_FULL_PACKET) {
		/* the chip's time grows with the packet: scaled down, still
		 * a time it is busy */
		first = p->flash_busy_us * len / BERLIN_FULL_PACKET;
		delay = first;
	}
	for (;;) {
		if (delay)
			tf_sleep_us(delay);
		if (first && fine < BERLIN_FINE_POLLS) {
			fine++;
			delay = 0;
		} else {
			delay = delay * 2 < BERLIN_POLL_MAX_US ? delay * 2 : BERLIN_POLL_MAX_US;
			if (!delay)
				delay = 100;
		}
		read_at = now_us() - sent;
		if ((r = rd(c, BERLIN_REG_FLASH_CMD, back, sizeof(back), "the flash command",
			    err)) < 0)
			return r;
		*status = back[0];
		if (back[1] == BERLIN_ACK_PASS) {
			acked = true;
			if (back[0] == BERLIN_STATUS_WRITE_OK) {
				flash_learn(p, len, first, busy_at);
				return 0;
			}
			if (back[0] == BERLIN_STATUS_CHK_FAIL ||
			    back[0] == BERLIN_STATUS_ADDR_ERR ||
			    back[0] == BERLIN_STATUS_WRITE_ERR)
				return -EAGAIN;
		} else if (back[1] == BERLIN_ACK_CHK_ERROR) {
			*status = 0;
			return tf_err_set(err, EPROTO,
					  "the ISP refused the flash command's checksum (ack "
					  "0x%02X)",
					  back[1]);
		}
		busy_at = read_at;
		if (tf_now_ms() - t0 >=
		    (acked ? BERLIN_STATUS_TIMEOUT_MS : BERLIN_ACK_TIMEOUT_MS)) {
			*status = 0;
			return tf_err_set(err, ETIMEDOUT,
					  "no %s for the flash command at 0x%05X after %llu "
					  "ms (ack 0x%02X, status 0x%02X)",
					  acked ? "status" : "ack", addr,
					  (unsigned long long)(tf_now_ms() - t0), back[1],
					  back[0]);
		}
	}
}

/* One subsystem in packets of at most 4 KiB plus their LE32 word sums. */
static int flash_subsys(struct tf_ctx *c, const struct berlin_fw *fw, unsigned idx,
			uint8_t *pkt, struct tf_progress *prog, struct tf_err *err)
{
	const struct berlin_subsys *s = &fw->subsys[idx];

	for (uint32_t off = 0; off < s->size;) {
		uint32_t n = s->size - off < BERLIN_PACKET_MAX ? s->size - off
							       : BERLIN_PACKET_MAX;
		uint32_t addr = s->flash_addr + off, sum;
		uint8_t status = 0;
		int r = 0, tries;

		memcpy(pkt, fw->data + s->offset + off, n);
		sum = berlin_sum16(pkt, n);
		pkt[n] = (uint8_t)sum;
		pkt[n + 1] = (uint8_t)(sum >> 8);
		pkt[n + 2] = (uint8_t)(sum >> 16);
		pkt[n + 3] = (uint8_t)(sum >> 24);
		for (tries = 1; tries <= BERLIN_PACKET_TRIES; tries++) {
			if (tf_stop_requested())
				return tf_err_set(err, EINTR,
						  "stopped before the packet at "
						  "0x%05X",
						  addr);
			if ((r = wr_confirm(c, BERLIN_REG_ISP_BUF, pkt, n + 4, "the ISP buffer",
					    err)) < 0)
				return r;
			r = flash_cmd(c, s->type, (uint16_t)(n + 4), addr, &status, err);
			/* a refused command checksum (-EPROTO) is the transfer's:
			 * worth another attempt, as a failed data check is */
			if (r != -EAGAIN && r != -EPROTO)
				break;
			prog->retries++;
			if (status == BERLIN_STATUS_ADDR_ERR)
				break; /* the address will not get better */
		}
		if (r == -EPROTO)
			return tf_err_set(
				err, EIO,
				"the ISP refused the flash command's checksum (ack 0x%02X) "
				"for subsystem[%u] packet at 0x%05X, %d times",
				BERLIN_ACK_CHK_ERROR, idx, addr, BERLIN_PACKET_TRIES);
		if (r == -EAGAIN) {
			int n_tries = tries > BERLIN_PACKET_TRIES ? BERLIN_PACKET_TRIES : tries;
			char what[160];

			tf_snprintf(what, sizeof(what),
				    "ISP status 0x%02X (%s) for subsystem[%u] (type %u) packet "
				    "at 0x%05X, %u bytes, after %d attempt%s",
				    status, berlin_status_name(status), idx, s->type, addr, n,
				    n_tries, n_tries == 1 ? "" : "s");
			/* a bad address is the file's; a checksum or write error
			 * the transfer's or the flash's, not the image's */
			if (status == BERLIN_STATUS_ADDR_ERR)
				return tf_err_reject(err, EIO, "%s", what);
			return tf_err_set(err, EIO, "%s", what);
		}
		if (r < 0)
			return r;
		off += n;
		prog->done++;
		prog->bytes += n;
		if (c->progress)
			c->progress(c->progress_user, prog);
	}
	return 0;
}

static int berlin_write_firmware(struct tf_ctx *c, const struct tf_chip_state *st, void *img,
				 struct tf_err *err)
{
	const struct berlin_fw *fw = &((struct berlin_img *)img)->fw;
	struct tf_progress prog = { 0 };
	uint8_t *pkt;
	int r;

	(void)st;
	if ((r = need_spi(c, err)) < 0)
		return r;
	for (unsigned i = 1; i < fw->n_subsys; i++) {
		prog.total += (fw->subsys[i].size + BERLIN_PACKET_MAX - 1) / BERLIN_PACKET_MAX;
		prog.total_bytes += fw->subsys[i].size;
	}
	if ((r = start_isp(c, fw, err)) < 0)
		return r;
	P(c)->flashed = true;
	memcpy(P(c)->want_pid, fw->fw_pid_raw, 8);
	memcpy(P(c)->want_vid, fw->fw_vid, 4);
	pkt = malloc(BERLIN_PACKET_MAX + 4);
	if (!pkt)
		return tf_err_set(err, ENOMEM, "out of memory");
	/* the configuration subsystem first, then the rest in file order */
	for (int pass = 0; pass < 2 && !r; pass++)
		for (unsigned i = 1; i < fw->n_subsys && !r; i++)
			if ((fw->subsys[i].type == BERLIN_SUBSYS_CONFIG) == (pass == 0))
				r = flash_subsys(c, fw, i, pkt, &prog, err);
	free(pkt);
	return r;
}

static bool not_isp(const struct berlin_version *v)
{
	return !berlin_version_isp(v);
}

static int berlin_leave_bootloader(struct tf_ctx *c, const struct tf_chip_state *st,
				   struct tf_err *err)
{
	struct berlin_priv *p = P(c);
	struct berlin_version v;
	char pid[9], vid[9], want_pid[9], want_vid[9], why[128];
	uint32_t cfg_id;
	uint8_t cfg_ver;
	uint16_t info_len;
	int r;

	(void)st;
	if ((r = need_spi(c, err)) < 0)
		return r;
	if ((r = soft_reset_cmd(c, err)) < 0)
		return r;
	r = wait_version(c, not_isp, &v, err);
	if (r == -ETIMEDOUT)
		return tf_err_set(err, EIO,
				  "still running the ISP program %d ms after the reset",
				  BERLIN_BOOT_TIMEOUT_MS);
	if (r < 0)
		return tf_err_prefix(err, "after the reset: ");
	berlin_pid_text(v.patch_pid, 8, pid, sizeof(pid));
	vid_text(v.patch_vid, 4, vid, sizeof(vid));
	if (berlin_version_nocode(&v))
		return tf_err_set(err, EIO,
				  "after flashing and a reset the chip says NOCODE: it did "
				  "not take the firmware");
	if (p->flashed) {
		berlin_pid_text(p->want_pid, 8, want_pid, sizeof(want_pid));
		vid_text(p->want_vid, 4, want_vid, sizeof(want_vid));
		if (memcmp(v.patch_pid, p->want_pid, 8) || memcmp(v.patch_vid, p->want_vid, 4))
			return tf_err_set(err, EBADMSG,
					  "after flashing %s %s and a reset the chip runs %s "
					  "%s",
					  want_pid, want_vid, pid, vid);
	}
	r = read_ic_info(c, &cfg_id, &cfg_ver, &info_len, why, sizeof(why), err);
	if (r == -EBADMSG)
		return tf_err_set(err, EBADMSG,
				  "firmware %s %s runs, but its chip info at 0x%05X %s: the "
				  "driver will not bind",
				  pid, vid, BERLIN_REG_IC_INFO, why);
	return r;
}

static int berlin_soft_reset(struct tf_ctx *c, struct tf_err *err)
{
	struct berlin_version v;
	int r;

	if ((r = need_spi(c, err)) < 0 || (r = soft_reset_cmd(c, err)) < 0)
		return r;
	r = wait_version(c, not_isp, &v, err);
	if (r == -ETIMEDOUT)
		return tf_err_set(err, EIO, "no valid version block %d ms after the reset",
				  BERLIN_BOOT_TIMEOUT_MS);
	return r;
}

static int add_field(struct tf_chip_info *ci, const char *key, const char *value)
{
	if (ci->n_fields >= TF_CHIP_INFO_FIELDS)
		return -ENOSPC;
	tf_snprintf(ci->field[ci->n_fields].key, sizeof(ci->field[0].key), "%s", key);
	tf_snprintf(ci->field[ci->n_fields].value, sizeof(ci->field[0].value), "%s", value);
	ci->n_fields++;
	return 0;
}

static int berlin_chip_info(struct tf_ctx *c, const struct tf_chip_state *st,
			    struct tf_chip_info *ci, struct tf_err *err)
{
	struct berlin_version v;
	char t[96], why[128];
	uint32_t cfg_id = 0;
	uint8_t cfg_ver = 0;
	uint16_t info_len = 0;
	int r;

	(void)st;
	if ((r = need_spi(c, err)) < 0 || (r = read_version(c, &v, err)) < 0)
		return r;
	berlin_pid_text(v.rom_pid, 6, t, sizeof(t));
	add_field(ci, "rom_pid", t);
	vid_text(v.rom_vid, 3, t, sizeof(t));
	add_field(ci, "rom_vid", t);
	berlin_pid_text(v.patch_pid, 8, t, sizeof(t));
	add_field(ci, "patch_pid", t);
	vid_text(v.patch_vid, 4, t, sizeof(t));
	add_field(ci, "patch_vid", t);
	tf_snprintf(t, sizeof(t), "%u", v.sensor_id);
	add_field(ci, "sensor_id", t);
	if (berlin_version_nocode(&v) || berlin_version_isp(&v))
		return 0;
	r = read_ic_info(c, &cfg_id, &cfg_ver, &info_len, why, sizeof(why), err);
	if (r == -EBADMSG) {
		add_field(ci, "chip_info", why);
		return 0;
	}
	if (r < 0)
		return r;
	tf_snprintf(t, sizeof(t), "%u", info_len);
	add_field(ci, "chip_info_length", t);
	tf_snprintf(t, sizeof(t), "0x%08X", cfg_id);
	add_field(ci, "config_id", t);
	tf_snprintf(t, sizeof(t), "%u", cfg_ver);
	add_field(ci, "config_version", t);
	return 0;
}

const struct tf_family_ops berlin_ops = {
	.init = berlin_init,
	.fini = berlin_fini,
	.detect = berlin_detect,
	.load_firmware = berlin_load_firmware,
	.free_firmware = berlin_free_firmware,
	.enter_bootloader = berlin_enter_bootloader,
	.write_firmware = berlin_write_firmware,
	.leave_bootloader = berlin_leave_bootloader,
	.chip_info = berlin_chip_info,
	.soft_reset = berlin_soft_reset,
};
