// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * maXTouch operations for the update flow, over i2c-dev or spidev.  On spi
 * the same protocol travels in Microchip's framing (mxt-spi.c): register
 * reads and writes, bootloader status and frames go through the helpers
 * below, which pick the framing; an spi chip has no addresses, so "the
 * application" and "the bootloader" are the two framings it answers in.
 *
 * Detection reads only: the info block at the application address (I2C_RDWR,
 * which works while the driver is bound), else one status byte at the
 * bootloader address(es), trying app - 0x26 and then app - 0x24 when the
 * family is unknown (atmel_mxt_ts does the same at probe).  atmel's sysfs
 * attributes are never read here: in bootloader mode they oops the kernel.
 *
 * The bootloader protocol follows mxt_load_fw: unlock, then per frame wait
 * for WAITING_FRAME_DATA, send length + 2 bytes (split to the adapter's
 * limit; the bootloader reassembles), wait through FRAME_CRC_CHECK for PASS
 * or FAIL; a failure (or a timeout) is a retry with a back-off of retry x
 * 20 ms, and after 20 the chip is left in the bootloader, which a later run
 * can flash again.  With the CHG line (only when no driver holds it) each
 * status read waits for CHG; without it, polling starts after the
 * programming time learnt from earlier frames and grows from 100 us.
 */
#include "mxt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "family/family.h"

#define MXT_FRAME_RETRIES 20	      /* atmel_mxt_ts.c */
#define MXT_RETRY_BACKOFF_MS 20	      /* atmel_mxt_ts.c: retry * 20 ms */
#define MXT_CHG_TIMEOUT_MS 300	      /* MXT_FW_CHG_TIMEOUT */
#define MXT_STATE_TIMEOUT_MS 2000     /* one bootloader state change */
#define MXT_BL_ENTER_TIMEOUT_MS 3000  /* 0xA5 reset to bootloader ready */
#define MXT_APP_START_TIMEOUT_MS 6000 /* MXT_FW_RESET_TIME twice */
#define MXT_BACKUP_TIMEOUT_MS 3000
#define MXT_RESET_TIMEOUT_MS 3000 /* MXT_RESET_TIMEOUT */
#define MXT_BLOCK_WRITE 256	  /* MXT_MAX_BLOCK_WRITE */
/* The driver core adds a driver's attribute group when its probe returns
 * (really_probe: dev_groups after ->probe), after the input device the
 * probe registered, one file after the other: a run that saw that device
 * come from a probe it did not wait for (deferred) may look first. */
#define MXT_ATTR_GROUP_WAIT_MS 5000
#define MXT_READ_CHUNK 255
#define POLL_MIN_US 50
#define POLL_FLAT_US 2000
#define POLL_MAX_US 5000

#define T6_RESET 0
#define T6_BACKUPNV 1
#define T6_BOOT_VALUE 0xa5
#define T6_RESET_VALUE 0x01
#define T6_BACKUP_VALUE 0x55

/*
 * Without CHG, how long to sleep before the first status read of a wait
 * that recurs every frame.  The sleep creeps shorter by PACE_STEP_US while
 * the first read already finds the new status, and when a read comes too
 * early it is set just after that read, so it hovers just above the chip's
 * real time (and follows it: timings vary by part and with temperature) at
 * the cost of an extra read now and then.
 */
struct pace {
	uint64_t sleep_us;
	unsigned hits; /* first reads in a row that found the change */
	bool known;
};

#define PACE_STEP_US 20
/* A paced first read that came too early: the change is due within a
 * step or two, so the next reads come at once rather than after a
 * sleep, whose wake-up may cost more than the read (bench/README.md). */
#define PACE_REREADS 3

struct mxt_priv {
	struct mxt_info info;
	bool have_info;
	uint16_t app;
	/* Learnt while flashing, to read each status once, soon after it
	 * changed: frame written -> verdict, PASS read -> ready. */
	struct pace check, prog;
	uint8_t spi_reply; /* the last spi verdict byte, for messages */
	bool data_crc;	   /* spi writes carry a data CRC (the chip lists T144) */
	char errbuf[64];
};

struct mxt_cfg_blob {
	struct mxt_cfg cfg;
	uint8_t *image;
	uint16_t start, len;
	uint32_t crc;
};

static struct mxt_priv *P(struct tf_ctx *c)
{
	return c->priv;
}

static int mxt_init(struct tf_ctx *c, struct tf_err *err)
{
	struct mxt_priv *p = calloc(1, sizeof(*p));

	if (!p)
		return tf_err_set(err, ENOMEM, "out of memory");
	p->app = c->ctrl ? c->ctrl->reg : c->dev.addr;
	c->priv = p;
	return 0;
}

static void mxt_fini(struct tf_ctx *c)
{
	free(c->priv);
	c->priv = NULL;
}

/* Register read (LE16 address, then data), in chunks an adapter takes. */
static int reg_read(struct tf_ctx *c, uint16_t addr, uint16_t reg, uint8_t *buf, size_t len)
{
	if (c->spi_open)
		return mxt_spi_read(&c->spi, reg, buf, len, &P(c)->spi_reply);
	return tf_i2c_reg_read(c->bus, addr, TF_I2C_REG_LE16, reg, buf, len, MXT_READ_CHUNK);
}

static int reg_write(struct tf_ctx *c, uint16_t addr, uint16_t reg, const uint8_t *val,
		     size_t len)
{
	if (c->spi_open)
		return mxt_spi_write(&c->spi, reg, val, len, P(c)->data_crc, &P(c)->spi_reply);
	return tf_i2c_reg_write(c->bus, addr, TF_I2C_REG_LE16, reg, val, len, MXT_BLOCK_WRITE);
}

/* Read and parse the info block at the application address. */
static int read_info(struct tf_ctx *c, struct mxt_info *info, struct tf_err *err)
{
	uint8_t id[MXT_INFO_SIZE], *buf;
	size_t len;
	int r;

	r = reg_read(c, P(c)->app, 0, id, sizeof(id));
	if (r < 0)
		return r;
	len = MXT_INFO_SIZE + (size_t)id[6] * MXT_OBJ_ENTRY + MXT_INFO_CRC_SIZE;
	buf = malloc(len);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, id, sizeof(id));
	r = reg_read(c, P(c)->app, MXT_INFO_SIZE, buf + MXT_INFO_SIZE, len - MXT_INFO_SIZE);
	if (r == 0)
		r = mxt_info_parse(buf, len, info, err);
	free(buf);
	/*
	 * mchp_spi_ts turns a data CRC on when the object table lists T144
	 * (mxt_parse_object_table: a CRC8 after each write's data, in the
	 * length, 14-byte chunks; reads unchanged).  Decided afresh at each
	 * info read, so a firmware that adds or drops T144 is spoken to as it
	 * lists itself (the driver's flag, once set, stays until it unbinds).
	 */
	if (r == 0 && c->spi_open)
		P(c)->data_crc = mxt_info_object(info, MXT_T144) != NULL;
	return r;
}

/* CRC of the configuration as it is in the chip's RAM now. */
static int read_config_crc(struct tf_ctx *c, const struct mxt_info *info, uint32_t *crc)
{
	size_t n = (size_t)(info->mem_size - info->crc_start);
	uint8_t *buf = malloc(n ? n : 1);
	int r;

	if (!buf)
		return -ENOMEM;
	r = reg_read(c, P(c)->app, info->crc_start, buf, n);
	if (r == 0)
		*crc = mxt_crc24(buf, n);
	free(buf);
	return r;
}

static void fill_app_state(struct tf_ctx *c, struct tf_chip_state *st)
{
	const struct mxt_info *i = &P(c)->info;

	st->mode = TF_CHIP_APP;
	mxt_hw_string(i->family, i->variant, st->hw, sizeof(st->hw));
	mxt_version_string(i->version, i->build, st->version_str, sizeof(st->version_str));
	mxt_version_from_info(i->version, i->build, &st->version);
	st->has_version = true;
	st->has_info_crc = true;
	st->info_crc = i->crc_read;
	st->has_config_crc = read_config_crc(c, i, &st->config_crc) == 0;
	st->bl_addr = c->spi_open ? 1 /* spi: no addresses */
		      : c->ctrl && c->ctrl->has_bootloader_reg
			      ? c->ctrl->bootloader_reg
			      : mxt_bootloader_addr(P(c)->app, i->family >= 0xa2);
	if (c->spi_open)
		snprintf(st->detail, sizeof(st->detail),
			 "application over %s: family %u variant %u, %u objects, info CRC "
			 "0x%06X",
			 c->spi.node, i->family, i->variant, i->num_objects, i->crc_read);
	else
		snprintf(st->detail, sizeof(st->detail),
			 "application at 0x%02x: family %u variant %u, %u objects, info CRC "
			 "0x%06X",
			 P(c)->app, i->family, i->variant, i->num_objects, i->crc_read);
}

/* The bootloader's status byte: a plain one-byte read (hot loop). */
static int status_read(struct tf_ctx *c, uint16_t bl, uint8_t *s)
{
	if (c->spi_open)
		return mxt_spi_bl_read(&c->spi, s, 1);
	return tf_i2c_recv(c->bus, bl, s, 1);
}

/* Bytes to the bootloader (unlock, a frame): the i2c bootloader
 * reassembles a frame sent in several messages. */
static int bl_send(struct tf_ctx *c, uint16_t bl, const uint8_t *buf, size_t len)
{
	if (c->spi_open)
		return mxt_spi_bl_write(&c->spi, buf, len);
	if (len <= 2)
		return tf_i2c_send(c->bus, bl, buf, len);
	return tf_i2c_write_msgs(c->bus, bl, buf, len);
}

/* A bus error for messages: on spi the chip's verdict, by name. */
static const char *errstr(struct tf_ctx *c, int r)
{
	struct mxt_priv *p = P(c);

	if (c->spi_open && p && (r == -EIO || r == -EPROTO)) {
		snprintf(p->errbuf, sizeof(p->errbuf), "the chip answered 0x%02x (%s)",
			 p->spi_reply, mxt_spi_reply_name(p->spi_reply));
		return p->errbuf;
	}
	return strerror(-r);
}

/* Where the chip is, for messages: "0x4a on i2c-3", "spidev1.0". */
static const char *where(struct tf_ctx *c, uint16_t addr, char *buf, size_t size)
{
	if (c->spi_open)
		snprintf(buf, size, "%s", c->spi.node);
	else
		snprintf(buf, size, "0x%02x on i2c-%d", addr, c->dev.adapter_nr);
	return buf;
}

/* Try the bootloader at @bl; 1 found (status in @s), 0 nothing, <0 error. */
static int probe_bl(struct tf_ctx *c, uint16_t bl, uint8_t *s)
{
	int r;

	if (!bl)
		return 0;
	/* SMBus receive-byte (libi2c): detection is one transaction. */
	r = c->spi_open ? status_read(c, bl, s) : tf_i2c_read_byte(c->bus, bl, s);
	if (r == -EBUSY)
		return 0; /* a driver owns that address: not our bootloader */
	if (r < 0)
		return tf_i2c_nak(r) ? 0 : r;
	return mxt_status_plausible(*s) ? 1 : 0;
}

static int mxt_detect(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	struct mxt_priv *p = P(c);
	uint16_t cand[2];
	uint8_t s = 0, ext[3];
	bool id_state;
	int r, i, n = 0;

	memset(st, 0, sizeof(*st));
	r = read_info(c, &p->info, err);
	if (r == 0) {
		p->have_info = true;
		fill_app_state(c, st);
		return 0;
	}
	if (r == -EBADMSG)
		return tf_err_prefix(err, "0x%02x answers but ", p->app);
	if (c->spi_open && r == -EPROTO)
		return tf_err_set(err, EPROTO,
				  "reading the info block over %s: the chip "
				  "answered 0x%02x (%s)",
				  c->spi.node, p->spi_reply, mxt_spi_reply_name(p->spi_reply));
	if (!tf_i2c_nak(r)) {
		char w[80];

		return tf_err_set(err, -r, "reading %s: %s", where(c, p->app, w, sizeof(w)),
				  errstr(c, r));
	}
	p->have_info = false;
	if (c->spi_open) {
		/* one chip select: the bootloader answers in its own framing */
		r = probe_bl(c, 1, &s);
		if (r < 0)
			return tf_err_set(err, -r, "bootloader read over %s: %s", c->spi.node,
					  strerror(-r));
		if (r == 1) {
			st->mode = TF_CHIP_BOOTLOADER;
			st->bl_addr = 1;
			if ((s & MXT_BOOT_EXTENDED_ID) &&
			    (s & (uint8_t)~MXT_BOOT_STATUS_MASK) &&
			    mxt_spi_bl_read(&c->spi, ext, 3) == 0)
				snprintf(st->detail, sizeof(st->detail),
					 "bootloader over spi: %s (0x%02x), id %u version %u",
					 mxt_status_name(s), s, ext[1], ext[2]);
			else
				snprintf(st->detail, sizeof(st->detail),
					 "bootloader over spi: %s (0x%02x)", mxt_status_name(s),
					 s);
			return 0;
		}
		st->mode = TF_CHIP_ABSENT;
		snprintf(st->detail, sizeof(st->detail),
			 "no answer over %s in the application's framing nor the bootloader's "
			 "(MISO stays high)",
			 c->spi.node);
		return 0;
	}
	if (c->ctrl && c->ctrl->has_bootloader_reg) {
		cand[n++] = c->ctrl->bootloader_reg;
	} else {
		cand[n++] = mxt_bootloader_addr(p->app, false);
		if (mxt_bootloader_addr(p->app, true) != cand[0])
			cand[n++] = mxt_bootloader_addr(p->app, true);
	}
	for (i = 0; i < n; i++) {
		r = probe_bl(c, cand[i], &s);
		if (r < 0)
			return tf_err_set(err, -r, "reading 0x%02x: %s", cand[i], strerror(-r));
		if (r == 1) {
			st->mode = TF_CHIP_BOOTLOADER;
			st->bl_addr = cand[i];
			/* The id (atmel_mxt_ts's mxt_get_bootloader_version,
			 * mxt-app's mxt_check_bootloader): in the low bits of
			 * the status byte of the states that carry it
			 * (WAITING_BOOTLOAD_CMD, APP_CRC_FAIL), five bits; with
			 * bit 5 (extended id) set, in the second byte of a
			 * 3-byte read instead, the version in the third. */
			id_state = (s & 0x40) != 0;
			if (id_state && (s & MXT_BOOT_EXTENDED_ID) &&
			    tf_i2c_read(c->bus, cand[i], ext, 3) == 0) {
				snprintf(st->bl_id, sizeof(st->bl_id), "%u", ext[1] & 0x1fu);
				snprintf(st->detail, sizeof(st->detail),
					 "bootloader at 0x%02x: %s (0x%02x), id %u version %u",
					 cand[i], mxt_status_name(s), s, ext[1] & 0x1fu,
					 ext[2]);
			} else if (id_state && !(s & MXT_BOOT_EXTENDED_ID)) {
				snprintf(st->bl_id, sizeof(st->bl_id), "%u", s & 0x1fu);
				snprintf(st->detail, sizeof(st->detail),
					 "bootloader at 0x%02x: %s (0x%02x), id %u", cand[i],
					 mxt_status_name(s), s, s & 0x1fu);
			} else {
				snprintf(st->detail, sizeof(st->detail),
					 "bootloader at 0x%02x: %s (0x%02x)", cand[i],
					 mxt_status_name(s), s);
			}
			return 0;
		}
	}
	st->mode = TF_CHIP_ABSENT;
	if (n == 2)
		snprintf(st->detail, sizeof(st->detail),
			 "no answer at 0x%02x (application) nor 0x%02x/0x%02x (bootloader)",
			 p->app, cand[0], cand[1]);
	else
		snprintf(st->detail, sizeof(st->detail),
			 "no answer at 0x%02x (application) nor 0x%02x (bootloader)", p->app,
			 cand[0]);
	return 0;
}

/* ------------------------------------------------------------ blobs */

static int mxt_load_firmware(struct tf_ctx *c, uint8_t *data, size_t len, const char *name,
			     void **img, struct tf_err *err)
{
	struct mxt_fw *fw = calloc(1, sizeof(*fw));
	enum mxt_fw_form form = MXT_FW_AUTO;
	const char *dot = name ? strrchr(name, '.') : NULL;
	int r;

	(void)c;
	if (!fw) {
		free(data);
		return -ENOMEM;
	}
	if (dot && !strcmp(dot, ".enc"))
		form = MXT_FW_ENC;
	else if (dot && (!strcmp(dot, ".fw") || !strcmp(dot, ".bin")))
		form = MXT_FW_BINARY;
	r = mxt_fw_parse_owned(data, len, form, fw, err);
	if (r < 0) {
		free(fw);
		return tf_err_prefix(err, "%s: ", name ? name : "firmware");
	}
	*img = fw;
	return 0;
}

static void mxt_kernel_firmware(void *img, const uint8_t **data, size_t *len)
{
	struct mxt_fw *fw = img;

	*data = fw->data;
	*len = fw->len;
}

static void mxt_free_firmware(void *img)
{
	if (img) {
		mxt_fw_free(img);
		free(img);
	}
}

static int mxt_load_config(struct tf_ctx *c, const uint8_t *data, size_t len, const char *name,
			   void **out, uint32_t *want_crc, struct tf_err *err)
{
	struct mxt_cfg_blob *b = calloc(1, sizeof(*b));
	int r;

	(void)c;
	if (!b)
		return -ENOMEM;
	r = mxt_cfg_parse((const char *)data, len, &b->cfg, err);
	if (r < 0) {
		free(b);
		return tf_err_prefix(err, "%s: ", name ? name : "config");
	}
	*want_crc = b->cfg.config_crc;
	*out = b;
	return 0;
}

static int mxt_check_config(struct tf_ctx *c, void *cfg, struct tf_err *err)
{
	struct mxt_cfg_blob *b = cfg;

	if (!P(c)->have_info)
		return tf_err_set(err, EINVAL, "the chip is not in application mode");
	free(b->image);
	b->image = NULL;
	return mxt_cfg_image(&b->cfg, &P(c)->info, c->force, &b->image, &b->start, &b->len,
			     &b->crc, err);
}

static void mxt_free_config(void *cfg)
{
	struct mxt_cfg_blob *b = cfg;

	if (b) {
		mxt_cfg_free(&b->cfg);
		free(b->image);
		free(b);
	}
}

/* ------------------------------------------------------------ bootloader */

static uint64_t now_us(void)
{
	return tf_now_ns() / 1000;
}

/*
 * Wait for a status change: for CHG when we hold the line, else @delay_us
 * (the caller grows it).  Returns 0 when it is time to read.
 */
static void wait_for_change(struct tf_ctx *c, uint64_t delay_us, uint64_t deadline)
{
	uint64_t now = now_us();

	if (c->irq) {
		int v = tf_gpio_get(c->irq);
		int ms;

		if (v == 1)
			return; /* asserted: a status is waiting */
		ms = deadline > now ? (int)((deadline - now + 999) / 1000) : 0;
		if (ms > MXT_CHG_TIMEOUT_MS)
			ms = MXT_CHG_TIMEOUT_MS;
		if (v >= 0 && ms > 0 && tf_gpio_wait_edge(c->irq, ms) >= 0)
			return;
	}
	if (now + delay_us > deadline)
		delay_us = deadline > now ? deadline - now : 0;
	if (delay_us)
		tf_sleep_us(delay_us);
}

/*
 * The next sleep of a one-off wait (the new firmware starting, a backup, a
 * reset): doubling from where it started, but never past POLL_MAX_US, so
 * the chip is seen at most that long after it is ready (a 50 ms ceiling
 * left the board waiting up to 50 ms for touchfw; bench/README.md).
 */
static uint64_t backoff(uint64_t d)
{
	return d * 2 < POLL_MAX_US ? d * 2 : POLL_MAX_US;
}

/* Poll every POLL_MIN_US for the first POLL_FLAT_US, then back off. */
static uint64_t grow(uint64_t d, uint64_t waited)
{
	if (waited < POLL_FLAT_US || d < POLL_MIN_US)
		return POLL_MIN_US;
	d *= 2;
	return d > POLL_MAX_US ? POLL_MAX_US : d;
}

/*
 * A paced wait ended with its @reads-th read, started at @read_at; the one
 * before (if any) started at @missed_at and was too early.  After such a
 * miss the next first read comes @margin_us after where that one did:
 * PACE_MARGIN_I2C_US on i2c, where an early read is a NAKed address (as
 * long on the wire as a late one is late), none on spi, where it is a few
 * bytes at several MHz while the chip is busy anyway, and the rereads that
 * follow at once see the change a read's round trip after it, not up to
 * a margin and a sleep's wake-up late (bench/README.md 3d).
 */
#define PACE_MARGIN_I2C_US (2 * PACE_STEP_US)

static void pace_learn(struct pace *pc, unsigned reads, uint64_t since, uint64_t missed_at,
		       uint64_t read_at, uint64_t margin_us)
{
	if (pc->known && reads == 1) {
		/* In time, perhaps late: a little earlier next time, faster
		 * while it keeps working (the chip may have sped up a lot). */
		unsigned sh = pc->hits++ / 8;
		uint64_t step = (uint64_t)PACE_STEP_US << (sh < 6 ? sh : 6);

		pc->sleep_us = pc->sleep_us > step ? pc->sleep_us - step : 0;
		return;
	}
	pc->hits = 0;
	if (reads > 1 && missed_at > since)
		/* ready between the last two reads */
		pc->sleep_us = missed_at - since + margin_us;
	else
		pc->sleep_us = read_at > since ? read_at - since : 0;
	pc->known = true;
}

/*
 * Read status until @want(status) holds.  NAKs while the chip is busy or
 * resetting are "not yet".  Returns 0 with the status in @s, -ETIMEDOUT, or
 * another error; @s holds the last status seen.  With @pc, the first read
 * comes @pc->sleep_us after @since (a monotonic time in us) and the pace
 * learns from how it went.
 */
static int wait_status_paced(struct tf_ctx *c, uint16_t bl, bool (*want)(uint8_t),
			     uint64_t first_delay_us, int timeout_ms, uint8_t *s,
			     struct pace *pc, uint64_t since)
{
	uint64_t start = now_us(), deadline = start + (uint64_t)timeout_ms * 1000;
	uint64_t delay = first_delay_us, polling_since = 0, read_at, missed_at = 0;
	unsigned reads = 0;
	int r;

	if (pc && pc->known && !c->irq)
		delay = since + pc->sleep_us > start ? since + pc->sleep_us - start : 0;
	for (;;) {
		if (reads) {
			/* Missed: poll, the first delay was a guess. */
			if (!polling_since)
				polling_since = now_us();
			if (pc && pc->known && !c->irq && reads <= PACE_REREADS)
				delay = 0;
			else
				delay = grow(reads == 1 ? 0 : delay, now_us() - polling_since);
		}
		if (reads || delay)
			wait_for_change(c, delay, deadline);
		read_at = now_us();
		reads++;
		r = status_read(c, bl, s);
		if (r == 0 && want(*s)) {
			if (pc && !c->irq)
				pace_learn(pc, reads, since, missed_at, read_at,
					   c->spi_open ? 0 : PACE_MARGIN_I2C_US);
			return 0;
		}
		if (r < 0 && !tf_i2c_nak(r))
			return r;
		missed_at = read_at;
		if (now_us() >= deadline)
			return -ETIMEDOUT;
	}
}

static int wait_status(struct tf_ctx *c, uint16_t bl, bool (*want)(uint8_t),
		       uint64_t first_delay_us, int timeout_ms, uint8_t *s)
{
	return wait_status_paced(c, bl, want, first_delay_us, timeout_ms, s, NULL, 0);
}

static bool is_waiting_cmd_or_data(uint8_t s)
{
	uint8_t hi = s & (uint8_t)~MXT_BOOT_STATUS_MASK;

	return hi == MXT_WAITING_BOOTLOAD_CMD || hi == MXT_WAITING_FRAME_DATA;
}

static bool is_waiting_data(uint8_t s)
{
	return (s & (uint8_t)~MXT_BOOT_STATUS_MASK) == MXT_WAITING_FRAME_DATA;
}

static bool is_verdict(uint8_t s)
{
	/* PASS or FAIL; WAITING_FRAME_DATA here means the frame was lost. */
	return s == MXT_FRAME_CRC_PASS || s == MXT_FRAME_CRC_FAIL ||
	       (s & (uint8_t)~MXT_BOOT_STATUS_MASK) == MXT_WAITING_FRAME_DATA ||
	       (s & (uint8_t)~MXT_BOOT_STATUS_MASK) == MXT_APP_CRC_FAIL ||
	       (s & (uint8_t)~MXT_BOOT_STATUS_MASK) == MXT_WAITING_BOOTLOAD_CMD;
}

static bool is_plausible(uint8_t s)
{
	return mxt_status_plausible(s);
}

/* The bootloader started over: it lost the image (power loss, reset). */
static bool restart_state(uint8_t s)
{
	uint8_t hi = s & (uint8_t)~MXT_BOOT_STATUS_MASK;

	return hi == MXT_APP_CRC_FAIL || hi == MXT_WAITING_BOOTLOAD_CMD;
}

static bool is_ready_or_restarted(uint8_t s)
{
	return is_waiting_data(s) || restart_state(s);
}

/*
 * Once the last frame is in, the chip checks it, programs it and resets on
 * its own schedule, whether or not the host has read FRAME_CRC_PASS.  A host
 * that was descheduled for a few tens of ms (a loaded machine) finds the
 * bootloader started over, or no bootloader at all because the new
 * application runs: the verdict was missed, not the image.  @r and @s are
 * what the wait for that verdict gave.
 */
static bool reset_after_last_frame(struct tf_ctx *c, uint16_t bl, int r, uint8_t *s)
{
	if (r == 0)
		return restart_state(*s);
	return r == -ETIMEDOUT && tf_i2c_nak(status_read(c, bl, s));
}

static int restarted(size_t frame, uint8_t s, struct tf_err *err)
{
	return tf_err_set(err, EIO,
			  "the bootloader restarted at frame %zu (status 0x%02x %s: "
			  "power loss or reset?)",
			  frame, s, mxt_status_name(s));
}

static int mxt_enter_bootloader(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	struct mxt_priv *p = P(c);
	uint8_t v = T6_BOOT_VALUE, s;
	int r;

	if (!p->have_info)
		return tf_err_set(err, EINVAL, "not in application mode");
	r = reg_write(c, p->app, (uint16_t)(p->info.t6 + T6_RESET), &v, 1);
	if (r < 0)
		return tf_err_set(err, -r, "T6 bootloader command: %s", errstr(c, r));
	/* MXT_RESET_TIME is 200 ms; poll instead of sleeping it all. */
	r = wait_status(c, st->bl_addr, is_plausible, 10000, MXT_BL_ENTER_TIMEOUT_MS, &s);
	if (r < 0)
		return tf_err_set(err, -r == ETIMEDOUT ? ETIMEDOUT : -r,
				  "no bootloader at 0x%02x after the reset to "
				  "bootloader mode",
				  st->bl_addr);
	p->have_info = false;
	st->mode = TF_CHIP_BOOTLOADER;
	snprintf(st->detail, sizeof(st->detail), "bootloader at 0x%02x: %s (0x%02x)",
		 st->bl_addr, mxt_status_name(s), s);
	return 0;
}

static int mxt_write_firmware(struct tf_ctx *c, const struct tf_chip_state *st, void *img,
			      struct tf_err *err)
{
	static const uint8_t unlock[2] = { 0xdc, 0xaa }; /* LSB, MSB */
	struct mxt_fw *fw = img;
	struct mxt_priv *p = P(c);
	struct tf_progress prog = { 0, fw->frames, 0, fw->len, 0 };
	uint16_t bl = st->bl_addr;
	unsigned retry = 0;
	size_t pos = 0;
	uint8_t s = 0;
	bool ready = false, sent;
	int r, tries;

	r = status_read(c, bl, &s);
	/* APP_CRC_FAIL is reported once, then WAITING_BOOTLOAD_CMD. */
	for (tries = 0;
	     r == 0 && (s & (uint8_t)~MXT_BOOT_STATUS_MASK) == MXT_APP_CRC_FAIL && tries < 5;
	     tries++) {
		tf_sleep_us(2000);
		r = status_read(c, bl, &s);
	}
	if (r < 0)
		return tf_err_set(err, -r, "bootloader at 0x%02x does not answer: %s", bl,
				  errstr(c, r));
	if ((s & (uint8_t)~MXT_BOOT_STATUS_MASK) == MXT_WAITING_BOOTLOAD_CMD) {
		r = bl_send(c, bl, unlock, sizeof(unlock));
		if (r < 0)
			return tf_err_set(err, -r, "unlocking the bootloader: %s",
					  errstr(c, r));
	} else if (!is_waiting_cmd_or_data(s) && !is_plausible(s)) {
		return tf_err_set(err, EPROTO, "unexpected bootloader status 0x%02x", s);
	}
	while (pos < fw->len) {
		size_t fl = mxt_fw_frame_len(fw, pos);
		uint64_t t_written;

		/* Stopped: between frames, the one in flight has its verdict. */
		if (tf_stop_requested())
			return tf_err_set(err, EINTR,
					  "stopped by signal %d after frame %zu of %zu",
					  tf_stop_requested(), prog.done, fw->frames);
		if (!ready) {
			r = wait_status(c, bl, is_ready_or_restarted, 0, MXT_STATE_TIMEOUT_MS,
					&s);
			if (r == 0 && restart_state(s) && prog.done)
				return restarted(prog.done + 1, s, err);
			if (r == 0 && !is_waiting_data(s))
				r = -EPROTO;
			if (r < 0)
				return tf_err_set(err, r == -ETIMEDOUT ? ETIMEDOUT : -r,
						  "bootloader not ready for frame %zu of %zu "
						  "(%s, last status 0x%02x %s)",
						  prog.done + 1, fw->frames,
						  r == -ETIMEDOUT ? "timed out" : errstr(c, r),
						  s, mxt_status_name(s));
		}
		ready = false;
		r = bl_send(c, bl, fw->data + pos, fl);
		if (r < 0 && !tf_i2c_nak(r))
			return tf_err_set(err, -r, "writing frame %zu: %s", prog.done + 1,
					  errstr(c, r));
		t_written = now_us();
		sent = r == 0;
		if (sent)
			r = wait_status_paced(c, bl, is_verdict, 0, MXT_STATE_TIMEOUT_MS, &s,
					      &p->check, t_written);
		if (sent && pos + fl >= fw->len && reset_after_last_frame(c, bl, r, &s))
			break; /* leave_bootloader finds out what it started */
		if (r == 0 && s == MXT_FRAME_CRC_PASS) {
			pos += fl;
			prog.done++;
			prog.bytes = pos;
			retry = 0;
			if (c->progress)
				c->progress(c->progress_user, &prog);
			if (pos >= fw->len)
				break; /* the chip now validates and starts the app */
			/* Programming: the first read comes when the chip is
			 * about done, as learnt from the frames before.  The
			 * chip programs a frame once it has checked it, not
			 * once the host has read the verdict, so the wait is
			 * timed from the frame's write: the verdict read's own
			 * time would only add its jitter. */
			r = wait_status_paced(c, bl, is_ready_or_restarted, 0,
					      MXT_STATE_TIMEOUT_MS, &s, &p->prog, t_written);
			if (r == 0 && is_waiting_data(s)) {
				ready = true;
				continue;
			}
			if (r == 0)
				return restarted(prog.done + 1, s, err);
			return tf_err_set(err, r == -ETIMEDOUT ? ETIMEDOUT : -r,
					  "bootloader did not finish programming frame %zu "
					  "(%s, last status 0x%02x %s)",
					  prog.done,
					  r == -ETIMEDOUT ? "timed out" : errstr(c, r), s,
					  mxt_status_name(s));
		}
		if (r == 0 && restart_state(s))
			return restarted(prog.done + 1, s, err);
		/* FAIL, a lost frame or a timeout: retry as the kernel does.  Only
		 * the chip's own FRAME_CRC_FAIL on the last try is its verdict on
		 * the image; NAKs and timeouts are a chip that went away. */
		if (++retry > MXT_FRAME_RETRIES) {
			bool refused = sent && r == 0 && s == MXT_FRAME_CRC_FAIL;

			/* The first frame carries what the image is for (the
			 * bootloader checks it against its own chip): refused
			 * every time, the image is another chip's. */
			if (refused && !prog.done)
				tf_err_set(
					err, EIO,
					"the bootloader refused the first frame: the image is "
					"for another chip (frame 1 of %zu failed %u times, "
					"status 0x%02x %s)",
					fw->frames, retry - 1, s, mxt_status_name(s));
			else
				tf_err_set(err, EIO,
					   "frame %zu of %zu failed %u times (last status "
					   "0x%02x %s)",
					   prog.done + 1, fw->frames, retry - 1, s,
					   mxt_status_name(s));
			if (err && refused) {
				err->rejected = true;
				err->foreign = !prog.done;
			}
			return -EIO;
		}
		prog.retries++;
		tf_sleep_us((uint64_t)retry * MXT_RETRY_BACKOFF_MS * 1000);
	}
	return 0;
}

static int mxt_leave_bootloader(struct tf_ctx *c, const struct tf_chip_state *st,
				struct tf_err *err)
{
	struct mxt_priv *p = P(c);
	uint64_t start = now_us(), deadline = start + MXT_APP_START_TIMEOUT_MS * 1000ULL;
	uint64_t delay = 1000;
	uint8_t s = 0;
	bool saw_bl = false;
	int r;

	for (;;) {
		r = read_info(c, &p->info, err);
		if (r == 0) {
			p->have_info = true;
			return 0;
		}
		if (r == -EBADMSG) {
			/* The new firmware runs with a corrupt info block. */
			if (err)
				err->rejected = true;
			return tf_err_prefix(err, "after flashing, ");
		}
		if (status_read(c, st->bl_addr, &s) == 0 && mxt_status_plausible(s))
			saw_bl = true;
		if (now_us() >= deadline)
			break;
		tf_sleep_us(delay);
		delay = backoff(delay);
	}
	/* Every frame passed, yet the bootloader refuses to start the image
	 * (APP_CRC_FAIL): its verdict on the blob. */
	if (saw_bl)
		return tf_err_reject(err, EIO,
				     "the chip did not start the new firmware: its "
				     "bootloader still answers at 0x%02x (%s)",
				     st->bl_addr, mxt_status_name(s));
	return tf_err_set(err, ETIMEDOUT,
			  "no answer at 0x%02x or 0x%02x within %d ms after flashing", p->app,
			  st->bl_addr, MXT_APP_START_TIMEOUT_MS);
}

/* ------------------------------------------------------------ config */

static int t6_command(struct tf_ctx *c, uint8_t off, uint8_t val)
{
	return reg_write(c, P(c)->app, (uint16_t)(P(c)->info.t6 + off), &val, 1);
}

static int wait_app(struct tf_ctx *c, int timeout_ms, struct tf_err *err)
{
	uint64_t deadline = now_us() + (uint64_t)timeout_ms * 1000, delay = 1000;
	uint8_t b;

	for (;;) {
		if (reg_read(c, P(c)->app, 0, &b, 1) == 0)
			return read_info(c, &P(c)->info, err);
		if (now_us() >= deadline)
			return tf_err_set(err, ETIMEDOUT, "no answer at 0x%02x after reset",
					  P(c)->app);
		tf_sleep_us(delay);
		delay = backoff(delay);
	}
}

/* An object write_config writes: configuration within the image. */
static bool written_object(const struct mxt_cfg_blob *b, const struct mxt_object *o)
{
	return !mxt_volatile_object(o->type) && o->start >= b->start &&
	       (size_t)(o->start - b->start) + (size_t)o->size * o->instances <= b->len;
}

/*
 * After the backup and the reset, every object written is read back and
 * compared with what was written: the config CRC covers T71 (or T7) to the
 * end only, so a chip that did not keep T38 (user data, before T7) -- or
 * any object, should two configurations share a CRC -- still reports the
 * CRC the file promised.  The first difference names the object.
 */
static int verify_written(struct tf_ctx *c, const struct mxt_cfg_blob *b, struct tf_err *err)
{
	struct mxt_priv *p = P(c);
	unsigned i;
	int r;

	for (i = 0; i < p->info.num_objects; i++) {
		const struct mxt_object *o = &p->info.obj[i];
		size_t span = (size_t)o->size * o->instances, k;
		const uint8_t *want = b->image + (o->start - b->start);
		_cleanup_free_ uint8_t *got = NULL;

		if (!written_object(b, o) || !span)
			continue;
		got = malloc(span);
		if (!got)
			return tf_err_set(err, ENOMEM, "out of memory");
		r = reg_read(c, p->app, o->start, got, span);
		if (r < 0)
			return tf_err_set(err, -r, "reading T%u back: %s", o->type,
					  errstr(c, r));
		for (k = 0; k < span && got[k] == want[k]; k++)
			;
		if (k < span)
			return tf_err_reject(
				err, EIO,
				"after backup and reset T%u instance %zu byte %zu "
				"reads 0x%02X, 0x%02X was written: the chip did not "
				"keep T%u",
				o->type, k / o->size, k % o->size, got[k], want[k], o->type);
	}
	return 0;
}

static int mxt_write_config(struct tf_ctx *c, void *cfg, struct tf_err *err)
{
	struct mxt_cfg_blob *b = cfg;
	struct mxt_priv *p = P(c);
	uint64_t deadline, delay = 2000;
	uint32_t crc = 0;
	unsigned i;
	uint8_t v;
	int r;

	if (!b->image)
		return tf_err_set(err, EINVAL, "config not checked against the chip");
	/* Every configuration object, whole: absent ones become zeros, as
	 * the kernel's image does; messages and commands are left alone. */
	for (i = 0; i < p->info.num_objects; i++) {
		const struct mxt_object *o = &p->info.obj[i];
		size_t span = (size_t)o->size * o->instances;

		if (!written_object(b, o))
			continue;
		r = reg_write(c, p->app, o->start, b->image + (o->start - b->start), span);
		if (r < 0)
			return tf_err_set(err, -r, "writing T%u: %s", o->type, errstr(c, r));
	}
	r = t6_command(c, T6_BACKUPNV, T6_BACKUP_VALUE);
	if (r < 0)
		return tf_err_set(err, -r, "backup command: %s", errstr(c, r));
	/* The command byte reads non-zero until the backup is done. */
	deadline = now_us() + MXT_BACKUP_TIMEOUT_MS * 1000ULL;
	do {
		tf_sleep_us(delay);
		delay = backoff(delay);
		r = reg_read(c, p->app, (uint16_t)(p->info.t6 + T6_BACKUPNV), &v, 1);
		if (r < 0 && !tf_i2c_nak(r))
			return tf_err_set(err, -r, "reading T6: %s", errstr(c, r));
		if (now_us() > deadline)
			return tf_err_set(err, ETIMEDOUT, "backup to NVM did not finish");
	} while (r < 0 || v != 0);
	r = t6_command(c, T6_RESET, T6_RESET_VALUE);
	if (r < 0)
		return tf_err_set(err, -r, "reset command: %s", errstr(c, r));
	tf_sleep_us(10000);
	r = wait_app(c, MXT_RESET_TIMEOUT_MS, err);
	if (r < 0)
		return r;
	r = read_config_crc(c, &p->info, &crc);
	if (r < 0)
		return tf_err_set(err, -r, "reading the config back: %s", errstr(c, r));
	if (crc != b->crc)
		return tf_err_reject(err, EIO,
				     "after backup and reset the chip's config CRC is "
				     "0x%06X, expected 0x%06X",
				     crc, b->crc);
	return verify_written(c, b, err);
}

/* atmel_mxt_ts requests fixed names: MXT_FW_NAME and MXT_CFG_NAME. */
static int fixed_name(const char *name, char *buf, size_t size, struct tf_err *err)
{
	if (tf_snprintf(buf, size, "%s", name))
		return tf_err_set(err, ENAMETOOLONG, "file name %s too long", name);
	return 0;
}

static int mxt_kernel_fw_name(struct tf_ctx *c, const struct tf_chip_state *st, char *buf,
			      size_t size, struct tf_err *err)
{
	(void)c;
	(void)st;
	return fixed_name("maxtouch.fw", buf, size, err);
}

/*
 * atmel_mxt_ts's update_fw: -EINVAL is mxt_check_firmware_format() refusing
 * the file (still in application mode: the driver never reset the chip) or
 * mxt_check_bootloader() seeing an unexpected status (then the chip is in
 * its bootloader and the flow flashes it over the bus, where the status
 * itself is read).  Bus errors, timeouts and -ENODEV are interruptions.
 */
static bool mxt_kernel_fw_rejected(int code, const struct tf_chip_state *after)
{
	return code == EINVAL && after && after->mode == TF_CHIP_APP;
}

static int mxt_kernel_cfg_name(struct tf_ctx *c, const struct tf_chip_state *st, char *buf,
			       size_t size, struct tf_err *err)
{
	(void)st;
	(void)c;
	/* atmel_mxt_ts at probe; mchp_spi_ts when update_cfg is written
	 * (mxt_update_cfg_store; mxt-path.c) */
	return mxt_cfg_file_name(buf, size, err);
}

/* One attribute of the bound driver, for mxt_detect_driver. */
static int driver_attr(struct tf_ctx *c, const char *attr, char *buf, size_t size,
		       struct tf_err *err)
{
	char path[sizeof(c->dev.syspath) + 32];
	int r;

	snprintf(path, sizeof(path), "%s/%s", c->dev.syspath, attr);
	r = tf_read_attr(path, buf, size);

	if (r < 0)
		return tf_err_set(err, -r, "%s/%s: %s%s", c->dev.syspath, attr, strerror(-r),
				  r == -ENOENT ? " (not a driver version touchfw knows?)" : "");
	return 0;
}

/* in_bootloader, and in the application hw_version, fw_version and
 * config_crc (buffers of 16, 32, 32, 32 bytes): 0, or the first error. */
static int driver_state_attrs(struct tf_ctx *c, char *bl, char *hw, char *fw, char *crc,
			      struct tf_err *err)
{
	int r = driver_attr(c, "in_bootloader", bl, 16, err);

	if (r < 0 || strcmp(bl, "0"))
		return r;
	if ((r = driver_attr(c, "hw_version", hw, 32, err)) < 0 ||
	    (r = driver_attr(c, "fw_version", fw, 32, err)) < 0)
		return r;
	return driver_attr(c, "config_crc", crc, 32, err);
}

/*
 * The chip's memory through mchp_spi_ts's mem_access (a binary attribute,
 * mxt_mem_access_read): the info block check_config needs to hold a
 * configuration against the chip -- its info CRC above all, as
 * mxt_update_cfg clears the chip's configuration before it looks at the
 * file's -- and the configuration the chip runs, whose CRC the driver's
 * config_crc shows only after a T6 message (0 after a plain probe).
 * Without the attribute (another driver version) neither is known.
 */
static void driver_memory(struct tf_ctx *c, struct tf_chip_state *st)
{
	char path[sizeof(c->dev.syspath) + 32];
	uint8_t *buf = malloc(65536);
	size_t len;
	ssize_t n = -1;
	int fd;

	if (!P(c)) {
		free(buf);
		return; /* no family state to fill (a bare context) */
	}
	P(c)->have_info = false;
	snprintf(path, sizeof(path), "%s/mem_access", c->dev.syspath);
	fd = buf ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (fd >= 0) {
		n = pread(fd, buf, 65536, 0);
		close(fd);
	}
	if (n < MXT_INFO_SIZE) {
		free(buf);
		return;
	}
	len = MXT_INFO_SIZE + (size_t)buf[6] * MXT_OBJ_ENTRY + MXT_INFO_CRC_SIZE;
	if ((size_t)n < len || mxt_info_parse(buf, len, &P(c)->info, NULL) < 0) {
		free(buf);
		return;
	}
	P(c)->have_info = true;
	st->has_info_crc = true;
	st->info_crc = P(c)->info.crc_read;
	if ((size_t)n >= P(c)->info.mem_size && P(c)->info.mem_size > P(c)->info.crc_start) {
		st->config_crc =
			mxt_crc24(buf + P(c)->info.crc_start,
				  (size_t)(P(c)->info.mem_size - P(c)->info.crc_start));
		st->has_config_crc = true;
	}
	free(buf);
}

/*
 * mchp_spi_ts's attributes (mxt_attr_group): in_bootloader first -- in the
 * bootloader data->info is NULL and fw_version/hw_version would oops the
 * kernel, as atmel's do; then hw_version "FAMILY.VARIANT", fw_version
 * "MAJOR.MINOR.BUILD" (data->info, read again by update_fw) and
 * config_crc, which stays 0 while no T6 message reached the driver: 0 is
 * "unknown" here.
 */
static int mxt_detect_driver(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	char bl[16], hw[32], fw[32], crc[32], tail;
	unsigned fam, var, maj, min, build;
	unsigned long v;
	char *end;
	int r;

	memset(st, 0, sizeof(*st));
	if (strcmp(c->dev.driver, "mchp_spi_ts"))
		return tf_err_set(err, EOPNOTSUPP,
				  "driver %s: touchfw reads no chip state "
				  "from its attributes",
				  c->dev.driver[0] ? c->dev.driver : "(none)");
	for (uint64_t t0 = tf_now_ms();;) {
		r = driver_state_attrs(c, bl, hw, fw, crc, err);
		if (r != -ENOENT || tf_now_ms() - t0 >= MXT_ATTR_GROUP_WAIT_MS)
			break;
		tf_sleep_us(10000);
	}
	if (r < 0)
		return r;
	if (!strcmp(bl, "1")) {
		st->mode = TF_CHIP_BOOTLOADER;
		st->bl_addr = 1; /* spi: no addresses */
		snprintf(st->detail, sizeof(st->detail),
			 "%s holds the chip in its bootloader (in_bootloader 1)",
			 c->dev.driver);
		return 0;
	}
	if (strcmp(bl, "0"))
		return tf_err_set(err, EBADMSG, "%s/in_bootloader: \"%s\" is not 0 or 1",
				  c->dev.syspath, bl);
	if (sscanf(hw, "%u.%u%c", &fam, &var, &tail) != 2 || fam > 255 || var > 255)
		return tf_err_set(err, EBADMSG, "%s/hw_version: \"%s\" is not FAMILY.VARIANT",
				  c->dev.syspath, hw);
	if (sscanf(fw, "%u.%u.%x%c", &maj, &min, &build, &tail) != 3 || maj > 15 || min > 15 ||
	    build > 255)
		return tf_err_set(err, EBADMSG,
				  "%s/fw_version: \"%s\" is not MAJOR.MINOR.BUILD",
				  c->dev.syspath, fw);
	errno = 0;
	v = strtoul(crc, &end, 16);
	if (!crc[0] || *end || errno || v > 0xffffff)
		return tf_err_set(err, EBADMSG, "%s/config_crc: \"%s\" is not a 24-bit CRC",
				  c->dev.syspath, crc);
	st->mode = TF_CHIP_APP;
	mxt_hw_string((uint8_t)fam, (uint8_t)var, st->hw, sizeof(st->hw));
	mxt_version_string((uint8_t)(maj << 4 | min), (uint8_t)build, st->version_str,
			   sizeof(st->version_str));
	mxt_version_from_info((uint8_t)(maj << 4 | min), (uint8_t)build, &st->version);
	st->has_version = true;
	st->has_config_crc = v != 0;
	st->config_crc = (uint32_t)v;
	driver_memory(c, st); /* the chip's own config CRC, when it can be read */
	st->bl_addr = 1;
	tf_snprintf(st->detail, sizeof(st->detail),
		    "application, as %s shows it: hardware %s, "
		    "firmware %s",
		    c->dev.driver, st->hw, st->version_str);
	return 0;
}

/* ------------------------------------------------------------ bring-up tools */

static void info_field(struct tf_chip_info *ci, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void info_field(struct tf_chip_info *ci, const char *key, const char *fmt, ...)
{
	va_list ap;

	if (ci->n_fields >= TF_CHIP_INFO_FIELDS)
		return;
	tf_snprintf(ci->field[ci->n_fields].key, sizeof(ci->field[0].key), "%s", key);
	va_start(ap, fmt);
	vsnprintf(ci->field[ci->n_fields].value, sizeof(ci->field[0].value), fmt, ap);
	va_end(ap);
	ci->n_fields++;
}

/* The info block and object table, as mxt-app's "info" shows them. */
static int mxt_chip_info(struct tf_ctx *c, const struct tf_chip_state *st,
			 struct tf_chip_info *ci, struct tf_err *err)
{
	struct mxt_priv *p = P(c);
	const struct mxt_info *i = &p->info;
	unsigned k;

	(void)err;
	if (st->mode != TF_CHIP_APP || !p->have_info)
		return 0;
	info_field(ci, "family_id", "%u (0x%02X)", i->family, i->family);
	info_field(ci, "variant_id", "%u (0x%02X)", i->variant, i->variant);
	info_field(ci, "version_byte", "0x%02X", i->version);
	info_field(ci, "build", "0x%02X", i->build);
	info_field(ci, "matrix", "%u x %u", i->matrix_x, i->matrix_y);
	info_field(ci, "objects", "%u", i->num_objects);
	info_field(ci, "config_area", "0x%04X-0x%04X (CRC from 0x%04X)", i->cfg_start,
		   i->mem_size, i->crc_start);
	info_field(ci, "bootloader_address", "0x%02x", st->bl_addr);
	tf_snprintf(ci->table, sizeof(ci->table), "objects");
	ci->n_cols = 5;
	tf_snprintf(ci->col[0], sizeof(ci->col[0]), "type");
	tf_snprintf(ci->col[1], sizeof(ci->col[1]), "address");
	tf_snprintf(ci->col[2], sizeof(ci->col[2]), "size");
	tf_snprintf(ci->col[3], sizeof(ci->col[3]), "instances");
	tf_snprintf(ci->col[4], sizeof(ci->col[4]), "report_ids");
	for (k = 0; k < i->num_objects && k < TF_CHIP_INFO_ROWS; k++) {
		const struct mxt_object *o = &i->obj[k];

		snprintf(ci->cell[k][0], sizeof(ci->cell[k][0]), "T%u", o->type);
		snprintf(ci->cell[k][1], sizeof(ci->cell[k][1]), "0x%04X", o->start);
		snprintf(ci->cell[k][2], sizeof(ci->cell[k][2]), "%u", o->size);
		snprintf(ci->cell[k][3], sizeof(ci->cell[k][3]), "%u", o->instances);
		snprintf(ci->cell[k][4], sizeof(ci->cell[k][4]), "%u",
			 (unsigned)o->report_ids * o->instances);
	}
	ci->n_rows = k;
	return 0;
}

/* T6 RESET (atmel_mxt_ts mxt_soft_reset), then wait for the info block. */
static int mxt_soft_reset(struct tf_ctx *c, struct tf_err *err)
{
	int r;

	if (!P(c)->have_info)
		return tf_err_set(err, ENODEV, "the chip is not in application mode");
	r = t6_command(c, T6_RESET, T6_RESET_VALUE);
	if (r < 0)
		return tf_err_set(err, -r, "reset command: %s", strerror(-r));
	tf_sleep_us(10000);
	return wait_app(c, MXT_RESET_TIMEOUT_MS, err);
}

/* Append to a growing text buffer. */
struct text {
	char *buf;
	size_t len, cap;
	bool failed;
};

static void text_add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->failed)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (t->len + (size_t)n + 1 > t->cap) {
		size_t cap = (t->cap ? t->cap * 2 : 4096) + (size_t)n;
		char *nb = realloc(t->buf, cap);

		if (!nb) {
			t->failed = true;
			return;
		}
		t->buf = nb;
		t->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

/*
 * The configuration in the chip's RAM as an OBP_RAW V1 file (the format
 * atmel_mxt_ts loads and mxt-app saves): the info block's first bytes, its
 * CRC, the config CRC over [crc_start, mem_size) -- what the chip reports
 * -- and every configuration object, each instance on one line.  Messages,
 * commands and debug objects are left out, as mxt_cfg_image skips them.
 */
static int mxt_save_config(struct tf_ctx *c, uint8_t **data, size_t *len, struct tf_err *err)
{
	struct mxt_priv *p = P(c);
	const struct mxt_info *i = &p->info;
	struct text t = { 0 };
	uint8_t *mem;
	size_t n;
	unsigned k, inst, b;
	int r;

	if (!p->have_info)
		return tf_err_set(err, ENODEV, "the chip is not in application mode");
	if (i->mem_size <= i->crc_start || i->crc_start < i->cfg_start)
		return tf_err_set(err, EINVAL, "the chip has no configuration area");
	n = (size_t)(i->mem_size - i->cfg_start);
	mem = malloc(n);
	if (!mem)
		return -ENOMEM;
	r = reg_read(c, p->app, i->cfg_start, mem, n);
	if (r < 0) {
		free(mem);
		return tf_err_set(err, -r, "reading the configuration: %s", strerror(-r));
	}
	text_add(&t, "OBP_RAW V1\n");
	text_add(&t, "%02X %02X %02X %02X %02X %02X %02X\n", i->family, i->variant, i->version,
		 i->build, i->matrix_x, i->matrix_y, i->num_objects);
	text_add(&t, "%06X\n", i->crc_read);
	text_add(&t, "%06X\n",
		 mxt_crc24(mem + (i->crc_start - i->cfg_start),
			   (size_t)(i->mem_size - i->crc_start)));
	for (k = 0; k < i->num_objects; k++) {
		const struct mxt_object *o = &i->obj[k];

		if (mxt_volatile_object(o->type) || o->start < i->cfg_start || !o->size)
			continue;
		for (inst = 0; inst < o->instances; inst++) {
			size_t at = (size_t)(o->start - i->cfg_start) + (size_t)o->size * inst;

			if (at + o->size > n)
				break;
			text_add(&t, "%04X %04X %04X", o->type, inst, o->size);
			for (b = 0; b < o->size; b++)
				text_add(&t, " %02X", mem[at + b]);
			text_add(&t, "\n");
		}
	}
	free(mem);
	if (t.failed) {
		free(t.buf);
		return tf_err_set(err, ENOMEM, "out of memory");
	}
	*data = (uint8_t *)t.buf;
	*len = t.len;
	return 0;
}

/* "T7" (or "t7"): the object of that type in the chip's table, instance
 * @inst checked; NULL with @err (and *@r) saying why not. */
static const struct mxt_object *named_object(struct tf_ctx *c, const char *name, unsigned inst,
					     int *r, struct tf_err *err)
{
	struct mxt_priv *p = P(c);
	const struct mxt_object *o;
	unsigned long type;
	char *end;

	if (!p->have_info) {
		*r = tf_err_set(err, ENODEV, "the chip is not in application mode");
		return NULL;
	}
	if ((name[0] != 'T' && name[0] != 't') || name[1] < '0' || name[1] > '9') {
		*r = tf_err_set(err, EINVAL, "'%s' is no object name: T and its type, e.g. T7",
				name);
		return NULL;
	}
	type = strtoul(name + 1, &end, 10);
	if (*end || type > 255) {
		*r = tf_err_set(err, EINVAL, "'%s' is no object name: T and its type, e.g. T7",
				name);
		return NULL;
	}
	o = mxt_info_object(&p->info, (uint8_t)type);
	if (!o) {
		*r = tf_err_set(err, ENOENT,
				"the chip has no T%lu in its object table ('touchfw chip DEV "
				"info' lists the %u it has)",
				type, p->info.num_objects);
		return NULL;
	}
	if (inst >= o->instances) {
		*r = tf_err_set(err, ENOENT, "T%lu has %u instance%s (0 to %u), not %u", type,
				o->instances, o->instances == 1 ? "" : "s", o->instances - 1,
				inst);
		return NULL;
	}
	if (o->size > TF_OBJECT_MAX || o->size == 0) {
		*r = tf_err_set(err, EBADMSG, "T%lu: the object table gives it %u bytes", type,
				o->size);
		return NULL;
	}
	return o;
}

static int mxt_object_read(struct tf_ctx *c, const char *name, unsigned inst, uint16_t *addr,
			   uint8_t buf[], size_t *size, struct tf_err *err)
{
	const struct mxt_object *o;
	int r = 0;

	o = named_object(c, name, inst, &r, err);
	if (!o)
		return r;
	/* Reading T5 takes the next message from the chip's queue: the
	 * driver's, not ours to consume. */
	if (o->type == MXT_T5)
		return tf_err_set(err, EPERM,
				  "T5 is the message processor: reading it takes a message "
				  "the driver is owed");
	*addr = (uint16_t)(o->start + (unsigned)o->size * inst);
	*size = o->size;
	r = reg_read(c, P(c)->app, *addr, buf, o->size);
	if (r < 0)
		return tf_err_set(err, -r, "reading T%u at 0x%04X: %s", o->type, *addr,
				  errstr(c, r));
	return 0;
}

static int mxt_object_write(struct tf_ctx *c, const char *name, unsigned inst, size_t off,
			    const uint8_t *data, size_t n, struct tf_err *err)
{
	const struct mxt_object *o;
	uint8_t back[TF_OBJECT_MAX];
	uint16_t addr;
	int r = 0;

	o = named_object(c, name, inst, &r, err);
	if (!o)
		return r;
	if (mxt_volatile_object(o->type))
		return tf_err_set(err, EPERM,
				  "T%u is no configuration object (messages, commands or "
				  "diagnostics): not written ('touchfw chip DEV reset' resets)",
				  o->type);
	if (off >= o->size || n > o->size - off)
		return tf_err_set(
			err, ERANGE,
			"T%u has %u bytes (offsets 0 to %u): offset %zu%s is past its "
			"end",
			o->type, o->size, o->size - 1u, off + (n ? n - 1 : 0),
			n > 1 ? " of the write" : "");
	addr = (uint16_t)(o->start + (unsigned)o->size * inst + off);
	r = reg_write(c, P(c)->app, addr, data, n);
	if (r < 0)
		return tf_err_set(err, -r, "writing T%u at 0x%04X: %s", o->type, addr,
				  errstr(c, r));
	r = reg_read(c, P(c)->app, addr, back, n);
	if (r < 0)
		return tf_err_set(err, -r, "reading T%u back at 0x%04X: %s", o->type, addr,
				  errstr(c, r));
	if (memcmp(back, data, n))
		return tf_err_set(err, EIO,
				  "T%u at 0x%04X: the chip holds other bytes than were "
				  "written",
				  o->type, addr);
	return 0;
}

const struct tf_family_ops mxt_ops = {
	.init = mxt_init,
	.fini = mxt_fini,
	.detect = mxt_detect,
	.detect_driver = mxt_detect_driver,
	.load_firmware = mxt_load_firmware,
	.free_firmware = mxt_free_firmware,
	.kernel_firmware = mxt_kernel_firmware,
	.kernel_fw_name = mxt_kernel_fw_name,
	.kernel_fw_rejected = mxt_kernel_fw_rejected,
	.load_config = mxt_load_config,
	.check_config = mxt_check_config,
	.free_config = mxt_free_config,
	.kernel_cfg_name = mxt_kernel_cfg_name,
	.enter_bootloader = mxt_enter_bootloader,
	.write_firmware = mxt_write_firmware,
	.leave_bootloader = mxt_leave_bootloader,
	.write_config = mxt_write_config,
	.chip_info = mxt_chip_info,
	.soft_reset = mxt_soft_reset,
	.save_config = mxt_save_config,
	.object_read = mxt_object_read,
	.object_write = mxt_object_write,
	.update_path = &mxt_update_path,
};
