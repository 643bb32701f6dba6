// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * maXTouch chip model: application mode (object protocol), bootloader mode
 * (status byte, unlock, frames) and the transitions between them, in model
 * time.  Written from atmel_mxt_ts.c (Linux 6.1), mxt-app's bootloader
 * handling; see mxt_model.h for the overview and
 * mxt_image.h for the synthetic frame contents.  Freestanding.
 */
#include "mxt_model.h"
#include "mxt_image.h"

/* Timing defaults, in the range the datasheets and the kernel give. */
#define DEF_POWER_ON_NS (40 * EM_NSEC_PER_MSEC) /* mXT224 datasheet */
#define DEF_BL_ENTER_NS (60 * EM_NSEC_PER_MSEC) /* kernel waits 200 ms */
#define DEF_BL_EXIT_NS (60 * EM_NSEC_PER_MSEC)	/* kernel waits 3 s */
#define DEF_FRAME_CHECK_NS (50 * EM_NSEC_PER_USEC)
#define DEF_FRAME_PROG_NS (5 * EM_NSEC_PER_MSEC)
#define DEF_BACKUP_NS (25 * EM_NSEC_PER_MSEC)
#define DEF_RESET_NS (40 * EM_NSEC_PER_MSEC)
#define CHG_PULSE_NS (1 * EM_NSEC_PER_MSEC)	/* end-of-flash CHG pulse */
#define POWER_GLITCH_NS (10 * EM_NSEC_PER_MSEC) /* power-loss fault */
/*
 * A status read that moves the bootloader on releases CHG; the next status
 * asserts it this long after.  On a real wire that is an edge; asserting
 * it again inside the same read is no edge at all, and atmel_mxt_ts, which
 * waits for the edge before it reads WAITING_FRAME_DATA, timed out there.
 */
#define BL_CHG_GAP_NS (50 * EM_NSEC_PER_USEC)

/* Object types the model knows by number (atmel_mxt_ts.c, mxt-app). */
#define T3 3
#define T4 4
#define T5 5
#define T6 6
#define T7 7
#define T37 37
#define T38 38
#define T44 44
#define T53 53
#define T71 71
#define T160 160

/* T6 command offsets and values. */
#define T6_RESET 0
#define T6_BACKUPNV 1
#define T6_CALIBRATE 2
#define T6_REPORTALL 3
#define T6_BOOT_VALUE 0xa5
#define T6_BACKUP_VALUE 0x55
/*
 * Values of the BACKUPNV field besides 0x55 (mxt-app's libmaxtouch.h:
 * RESTORENV_COMMAND 0x33 "Stop T70 and restore NVRAM settings",
 * RESTORENV_NS_COMMAND 0x44 the same without stopping T70).  mxt-app
 * sends 0x33 before it reads a chip's configuration to save it, so what
 * it saves is what NVM holds.  The model has no T70: both restore.
 */
#define T6_RESTORE_VALUE 0x33
#define T6_RESTORE_NS_VALUE 0x44

#define INFO_SIZE 7
#define OBJ_ENTRY_SIZE 6
#define CRC_SIZE 3

enum ev {
	EV_NONE,
	EV_BOOT,	    /* reset/power-on complete: run the app or the BL */
	EV_SOFT_RESET_DONE, /* T6 reset's reset_ns over (see reset_hold_ns) */
	EV_BOOT_TO_BL,	    /* 0xA5 reset complete: start the bootloader */
	EV_FRAME_CHECKED,   /* CRC verdict of the frame in the buffer */
	EV_FRAME_PROGRAMMED,
	EV_FINAL_PULSE,	    /* last verdict read: start the end-of-flash pulse */
	EV_FINAL_PULSE_END, /* end-of-flash CHG pulse over: reset into app */
	EV_BACKUP_DONE,
	EV_POWER_RESTORE, /* power-loss fault: supply comes back */
};

/* Bootloader sub-state beyond the status byte. */
#define BL_PASS_READ 0x01
#define BL_PROG_DONE 0x02
#define BL_FAIL_READ 0x04

/*
 * Object order as real parts lay them out: T38 (user data) and T71 come
 * before T7, so the config CRC, which runs from T71 (or T7) to the end,
 * does not cover T38 (the kernel's mxt_prepare_cfg_mem/mxt_calc_crc24
 * bounds; mxt-app's config files list T38 first for the same reason).
 */
static const struct mxt_obj_def preset_224e[] = {
	/* type size inst rids */
	{ T37, 130, 1, 0 }, { T44, 1, 1, 0 }, { T5, 10, 1, 0 }, { T6, 6, 1, 1 },
	{ T38, 8, 1, 0 },   { T7, 4, 1, 0 },  { 8, 10, 1, 0 },	{ 9, 35, 1, 10 },
	{ 15, 11, 1, 1 },   { 18, 2, 1, 0 },  { 19, 16, 1, 1 }, { 25, 6, 1, 1 },
};

static const struct mxt_obj_def preset_1664s[] = {
	{ T37, 130, 1, 0 }, { T44, 1, 1, 0 },	{ T5, 10, 1, 0 }, { T6, 6, 1, 1 },
	{ T38, 64, 1, 0 },  { T71, 112, 1, 0 }, { T7, 4, 1, 0 },  { 8, 10, 1, 0 },
	{ 18, 2, 1, 0 },    { 19, 6, 1, 1 },	{ 25, 6, 1, 1 },  { 100, 60, 1, 12 },
};

static void set_preset_objects(struct mxt_model_cfg *c, const struct mxt_obj_def *o,
			       unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		c->objects[i] = o[i];
	c->num_objects = (em_u8)n;
}

static bool str_eq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

bool mxt_model_preset(const char *name, struct mxt_model_cfg *c)
{
	em_memset(c, 0, sizeof(*c));
	c->app_addr = 0x4a;
	c->app_valid = true;
	c->fw_version = 0x10;
	c->fw_build = 0xaa;
	c->bl_id = 0x0a;
	c->bl_version = 0x01;
	if (str_eq(name, "mxt224e")) {
		c->family_id = 0x81;
		c->variant_id = 0x01;
		c->matrix_x = 19;
		c->matrix_y = 11;
		set_preset_objects(c, preset_224e, EM_ARRAY_SIZE(preset_224e));
		return true;
	}
	if (str_eq(name, "mxt1664s")) {
		/* Family >= 0xA2: alternate bootloader address (app - 0x24). */
		c->family_id = 0xa2;
		c->variant_id = 0x06;
		c->matrix_x = 32;
		c->matrix_y = 52;
		c->bl_extended_id = true;
		/* Another bootloader than the mXT224E's (id 10): the
		 * values are the model's own, the encoding is the
		 * kernel's and mxt-app's (extended id: a 3-byte read
		 * gives status, id, version). */
		c->bl_id = 0x13;
		c->bl_version = 0x02;
		set_preset_objects(c, preset_1664s, EM_ARRAY_SIZE(preset_1664s));
		return true;
	}
	return false;
}

em_u32 mxt_model_crc24(const em_u8 *buf, em_u32 len)
{
	em_u32 crc = 0, i;

	/* Bytes in pairs, word = b1 << 8 | b0; odd tail pairs with zero. */
	for (i = 0; i < len; i += 2) {
		em_u32 word = buf[i] | (i + 1 < len ? (em_u32)buf[i + 1] << 8 : 0);

		crc = (crc << 1) ^ word;
		if (crc & 0x1000000)
			crc ^= 0x80001b;
	}
	return crc & 0xffffff;
}

static em_u64 busy(const struct mxt_model *m, em_u64 ns)
{
	em_u32 f = m->cfg.faults.slow_factor;

	return ns * (f > 1 ? f : 1);
}

static void schedule(struct mxt_model *m, int ev, em_u64 delay)
{
	m->ev = ev;
	m->ev_at = m->now + busy(m, delay);
}

static void cancel(struct mxt_model *m)
{
	m->ev = EV_NONE;
	m->ev_at = EM_NEVER;
}

em_u16 mxt_model_bootloader_addr(const struct mxt_model *m)
{
	em_u16 app = m->cfg.app_addr;

	switch (app) {
	case 0x4a:
	case 0x4b:
		if (m->cfg.family_id >= 0xa2)
			return app - 0x24;
		return app - 0x26;
	case 0x4c:
	case 0x4d:
	case 0x5a:
	case 0x5b:
		return app - 0x26;
	default:
		/* Not a documented mapping: keep the common offset. */
		return app - 0x26;
	}
}

/* ------------------------------------------------------------ application */

static bool find_object(const struct mxt_model *m, em_u8 type, em_u16 *start, em_u16 *size)
{
	const em_u8 *e = m->mem + INFO_SIZE;
	unsigned int i;

	for (i = 0; i < m->cfg.num_objects; i++, e += OBJ_ENTRY_SIZE) {
		if (e[0] != type)
			continue;
		if (start)
			*start = em_get_le16(e + 1);
		if (size)
			*size = (em_u16)(e[3] + 1);
		return true;
	}
	return false;
}

bool mxt_model_object(const struct mxt_model *m, em_u8 type, em_u16 *start, em_u16 *size)
{
	return find_object(m, type, start, size);
}

/*
 * Objects that are not configuration: messages, commands, message count,
 * debug data (mxt-app's mxt_object_is_volatile, which keeps them out of the
 * configurations it saves and writes).  Everything else -- T38 user data
 * included -- is stored in RAM and backed up to NVM.
 */
static bool volatile_type(em_u8 type)
{
	switch (type) {
	case T3:
	case T4:
	case T5:
	case T6:
	case T37:
	case T44:
	case T53:
	case T160:
		return true;
	default:
		return false;
	}
}

/* Lay out the info block, object table and CRC; objects follow in order. */
static void build_memory_map(struct mxt_model *m)
{
	const struct mxt_model_cfg *c = &m->cfg;
	em_u16 addr = (em_u16)(INFO_SIZE + c->num_objects * OBJ_ENTRY_SIZE + CRC_SIZE);
	em_u8 *e = m->mem + INFO_SIZE;
	em_u8 rid = 1;
	unsigned int i;
	em_u32 crc;

	em_memset(m->mem, 0, sizeof(m->mem));
	em_memset(m->stored, 0, sizeof(m->stored));
	m->mem[0] = c->family_id;
	m->mem[1] = c->variant_id;
	m->mem[2] = m->fw_version;
	m->mem[3] = m->fw_build;
	m->mem[4] = c->matrix_x;
	m->mem[5] = c->matrix_y;
	m->mem[6] = c->num_objects;
	for (i = 0; i < c->num_objects; i++, e += OBJ_ENTRY_SIZE) {
		const struct mxt_obj_def *o = &c->objects[i];
		em_u16 span = (em_u16)(o->size * (o->instances ? o->instances : 1));

		e[0] = o->type;
		e[1] = (em_u8)addr;
		e[2] = (em_u8)(addr >> 8);
		e[3] = (em_u8)(o->size - 1);
		e[4] = (em_u8)((o->instances ? o->instances : 1) - 1);
		e[5] = o->report_ids;
		if (o->type == T6)
			m->t6_rid = rid;
		rid = (em_u8)(rid + o->report_ids * (o->instances ? o->instances : 1));
		if (!volatile_type(o->type) && addr + span <= MXT_MODEL_MEM_SIZE)
			em_memset(m->stored + addr, o->type, span);
		addr = (em_u16)(addr + span);
	}
	crc = mxt_model_crc24(m->mem, INFO_SIZE + c->num_objects * OBJ_ENTRY_SIZE);
	e[0] = (em_u8)crc;
	e[1] = (em_u8)(crc >> 8);
	e[2] = (em_u8)(crc >> 16);
	m->mem_size = addr;
	m->cfg_start = (em_u16)(INFO_SIZE + c->num_objects * OBJ_ENTRY_SIZE + CRC_SIZE);

	m->t5_addr = m->t5_size = m->t6_addr = m->t44_addr = 0;
	find_object(m, T5, &m->t5_addr, &m->t5_size);
	find_object(m, T6, &m->t6_addr, NULL);
	find_object(m, T44, &m->t44_addr, NULL);
	/* The config CRC covers T71 (or T7) to the end, as the kernel does. */
	if (!find_object(m, T71, &m->crc_start, NULL) &&
	    !find_object(m, T7, &m->crc_start, NULL))
		m->crc_start = m->cfg_start;
}

static em_u32 ram_config_crc(const struct mxt_model *m)
{
	return mxt_model_crc24(m->mem + m->crc_start, (em_u32)(m->mem_size - m->crc_start));
}

static em_u32 nvm_config_crc(const struct mxt_model *m)
{
	return mxt_model_crc24(m->nvm_cfg + m->crc_start, (em_u32)(m->mem_size - m->crc_start));
}

/* Writable configuration: every byte of a non-volatile object. */
static bool is_config_addr(const struct mxt_model *m, em_u16 a)
{
	return a < m->mem_size && m->stored[a];
}

/* Copy the configuration bytes (and only those) from @from to @to. */
static void copy_config(const struct mxt_model *m, em_u8 *to, const em_u8 *from)
{
	em_u16 a;

	for (a = m->cfg_start; a < m->mem_size; a++)
		if (m->stored[a])
			to[a] = from[a];
}

static em_u16 msg_size(const struct mxt_model *m)
{
	return m->t5_size > 1 ? (em_u16)(m->t5_size - 1) : 1;
}

static bool queue_msg(struct mxt_model *m, const em_u8 *msg, em_u8 len)
{
	em_u8 slot;

	if (m->msg_count >= MXT_MODEL_MSG_QUEUE)
		return false;
	slot = (em_u8)((m->msg_head + m->msg_count) % MXT_MODEL_MSG_QUEUE);
	em_memset(m->msgq[slot], 0, sizeof(m->msgq[slot]));
	em_memcpy(m->msgq[slot], msg, len > 16 ? 16 : len);
	m->msg_count++;
	return true;
}

bool mxt_model_queue_msg(struct mxt_model *m, const em_u8 *msg, em_u8 len)
{
	if (m->mode != MXT_MODE_APP)
		return false;
	return queue_msg(m, msg, len);
}

static void queue_t6(struct mxt_model *m, em_u8 status)
{
	em_u8 msg[5];

	msg[0] = m->t6_rid;
	msg[1] = status;
	msg[2] = (em_u8)m->reported_crc;
	msg[3] = (em_u8)(m->reported_crc >> 8);
	msg[4] = (em_u8)(m->reported_crc >> 16);
	queue_msg(m, msg, sizeof(msg));
}

static void start_app(struct mxt_model *m)
{
	m->mode = MXT_MODE_APP;
	build_memory_map(m);
	/* RAM configuration comes back from NVM at every boot. */
	copy_config(m, m->mem, m->nvm_cfg);
	m->reported_crc = nvm_config_crc(m);
	m->msg_head = m->msg_count = 0;
	m->ptr = 0;
	queue_t6(m, MXT_T6_RESET);
}

/* -------------------------------------------------------------- bootloader */

static void bl_publish(struct mxt_model *m, em_u8 status)
{
	m->bl_status = status;
	m->bl_chg = true;
	m->chg_at = EM_NEVER;
}

/* The status a read moved on to: readable now, CHG after BL_CHG_GAP_NS. */
static void bl_publish_after_read(struct mxt_model *m, em_u8 status)
{
	m->bl_status = status;
	m->bl_chg = false;
	m->chg_at = m->now + BL_CHG_GAP_NS;
}

static void start_bootloader(struct mxt_model *m, bool app_ok)
{
	m->mode = MXT_MODE_BOOTLOADER;
	m->bl_unlocked = false;
	m->frame_len = m->frame_want = 0;
	m->bl_flags = 0;
	m->frame_index = 0;
	m->next_seq = 0;
	m->have_header = false;
	m->payload_seen = 0;
	m->payload_crc = MXT_IMG_CRC32_INIT;
	m->stats.bootloader_entries++;
	bl_publish(m, app_ok ? MXT_BL_WAITING_BOOTLOAD_CMD : MXT_BL_APP_CRC_FAIL);
}

static bool app_bootable(const struct mxt_model *m)
{
	return m->app_valid && !m->cfg.faults.stuck_in_bootloader;
}

static void boot(struct mxt_model *m, bool want_bootloader)
{
	if (want_bootloader || !app_bootable(m))
		start_bootloader(m, app_bootable(m));
	else
		start_app(m);
}

/* Status byte as read: the WAITING/APP_CRC_FAIL states carry the id bits. */
static em_u8 bl_status_byte(const struct mxt_model *m)
{
	em_u8 s = m->bl_status;

	if (s == MXT_BL_WAITING_BOOTLOAD_CMD || s == MXT_BL_WAITING_FRAME_DATA ||
	    s == MXT_BL_APP_CRC_FAIL)
		s |= m->cfg.bl_extended_id ? MXT_BL_EXTENDED_ID : (em_u8)(m->cfg.bl_id & 0x1f);
	return s;
}

/* The end-of-flash pulse is over: the bootloader resets into the app. */
static void final_reset(struct mxt_model *m)
{
	m->bl_chg = false;
	m->chg_at = EM_NEVER;
	m->mode = MXT_MODE_RESET;
	m->stats.resets++;
	schedule(m, EV_BOOT, m->cfg.t.bl_exit_ns);
}

/* The host read the status byte: CHG is released; some states move on. */
static void bl_status_read(struct mxt_model *m)
{
	m->bl_chg = false;
	m->chg_at = EM_NEVER; /* the host has seen the status */
	switch (m->bl_status) {
	case MXT_BL_APP_CRC_FAIL:
		/* Reported once, then the bootloader waits for a command. */
		bl_publish_after_read(m, MXT_BL_WAITING_BOOTLOAD_CMD);
		break;
	case MXT_BL_FRAME_CRC_PASS:
		m->bl_flags |= BL_PASS_READ;
		if (m->final_wait_read) {
			/* Last verdict seen: the end-of-flash CHG pulse (an
			 * edge after this read), then the reset. */
			m->final_wait_read = false;
			schedule(m, EV_FINAL_PULSE, BL_CHG_GAP_NS);
		} else if ((m->bl_flags & BL_PROG_DONE) && !m->final_pending) {
			bl_publish_after_read(m, MXT_BL_WAITING_FRAME_DATA);
		}
		break;
	case MXT_BL_FRAME_CRC_FAIL:
		bl_publish_after_read(m, MXT_BL_WAITING_FRAME_DATA);
		break;
	default:
		break;
	}
}

static int bl_read(struct mxt_model *m, em_u8 *buf, em_u16 len)
{
	em_u8 s = bl_status_byte(m);
	em_u16 i;

	for (i = 0; i < len; i++)
		buf[i] = s;
	if (len >= 3 && m->cfg.bl_extended_id) {
		buf[1] = m->cfg.bl_id;
		buf[2] = m->cfg.bl_version;
		for (i = 3; i < len; i++)
			buf[i] = 0;
	}
	if (len)
		bl_status_read(m);
	return EM_ACK;
}

static void frame_reset(struct mxt_model *m)
{
	m->frame_len = m->frame_want = 0;
}

/* Content checks of a frame whose CRC is right (our synthetic format). */
static bool frame_content_ok(struct mxt_model *m)
{
	const em_u8 *f = m->frame;
	em_u16 len = m->frame_want;
	const em_u8 *body = f + 5;
	em_u16 body_len = (em_u16)(len - MXT_IMG_FRAME_OVERHEAD);
	em_u16 seq = (em_u16)(f[3] << 8 | f[4]);
	struct mxt_img_header h;

	/* A valid header starts a new image at any point (a tool restarting
	 * after an aborted session); everything else must come in order. */
	if (seq != m->next_seq && !(f[2] == MXT_IMG_HEADER && seq == 0))
		return false;
	switch (f[2]) {
	case MXT_IMG_HEADER:
		if (seq != 0 || !mxt_img_parse_header(body, body_len, &h))
			return false;
		if (h.family_id != m->cfg.family_id || h.variant_id != m->cfg.variant_id ||
		    h.frame_count < 3)
			return false;
		m->next_seq = 0;
		m->have_header = false;
		m->payload_seen = 0;
		m->payload_crc = MXT_IMG_CRC32_INIT;
		m->hdr.family_id = h.family_id;
		m->hdr.variant_id = h.variant_id;
		m->hdr.version = h.version;
		m->hdr.build = h.build;
		m->hdr.frame_count = h.frame_count;
		m->hdr.payload_len = h.payload_len;
		return true;
	case MXT_IMG_DATA:
		if (!m->have_header || !body_len ||
		    m->payload_seen + body_len > m->hdr.payload_len ||
		    (em_u32)seq + 1 >= m->hdr.frame_count)
			return false;
		return true;
	case MXT_IMG_END:
		if (!m->have_header || body_len != 4 || (em_u32)seq + 1 != m->hdr.frame_count ||
		    m->payload_seen != m->hdr.payload_len)
			return false;
		return ((em_u32)body[0] << 24 | body[1] << 16 | body[2] << 8 | body[3]) ==
		       m->payload_crc;
	default:
		return false;
	}
}

static bool fault_fails_frame(struct mxt_model *m)
{
	struct mxt_model_faults *f = &m->cfg.faults;

	if (f->crc_fail_always)
		return true;
	if (f->crc_fail_frame && f->crc_fail_frame == m->frame_index + 1 && m->crc_fail_left) {
		m->crc_fail_left--;
		return true;
	}
	return false;
}

static void frame_checked(struct mxt_model *m)
{
	bool ok = m->frame_want <= MXT_MODEL_MAX_FRAME &&
		  mxt_img_frame_crc_ok(m->frame, m->frame_want) && frame_content_ok(m) &&
		  !fault_fails_frame(m);

	m->bl_flags = 0;
	if (!ok) {
		m->stats.frames_failed++;
		frame_reset(m);
		bl_publish(m, MXT_BL_FRAME_CRC_FAIL);
		return;
	}
	bl_publish(m, MXT_BL_FRAME_CRC_PASS);
	m->final_pending = m->frame[2] == MXT_IMG_END;
	schedule(m, EV_FRAME_PROGRAMMED, m->cfg.t.frame_prog_ns);
}

static void frame_programmed(struct mxt_model *m)
{
	const em_u8 *f = m->frame;
	em_u16 body_len = (em_u16)(m->frame_want - MXT_IMG_FRAME_OVERHEAD);

	switch (f[2]) {
	case MXT_IMG_HEADER:
		/* Starting a new image erases the old application. */
		m->have_header = true;
		m->app_valid = false;
		break;
	case MXT_IMG_DATA:
		m->payload_crc = mxt_img_crc32(m->payload_crc, f + 5, body_len);
		m->payload_seen += body_len;
		break;
	default:
		break;
	}
	m->next_seq++;
	m->frame_index++;
	m->stats.frames_passed++;
	m->bl_flags |= BL_PROG_DONE;
	frame_reset(m);

	if (m->cfg.faults.power_loss_after &&
	    m->frame_index == m->cfg.faults.power_loss_after) {
		/* Brown-out: the supply drops and comes back a moment later. */
		m->cfg.faults.power_loss_after = 0;
		m->stats.power_losses++;
		m->mode = MXT_MODE_OFF;
		m->bl_chg = false;
		m->chg_at = EM_NEVER;
		m->final_pending = false;
		schedule(m, EV_POWER_RESTORE, POWER_GLITCH_NS);
		return;
	}
	if (m->final_pending) {
		m->app_valid = true;
		m->fw_version = m->hdr.version;
		m->fw_build = m->hdr.build;
		m->stats.images_completed++;
		m->final_pending = false;
		if (!(m->bl_flags & BL_PASS_READ) && !m->cfg.final_reset_unread) {
			/*
			 * The verdict of the last frame stays readable (CHG
			 * still asserted) until the host reads it; then the
			 * bootloader resets.  Microchip's mxt-app reads each
			 * verdict 50 ms after its frame on i2c-dev, and
			 * atmel_mxt_ts reads the last FRAME_CRC_PASS before it
			 * waits for the reset.
			 */
			m->final_wait_read = true;
			return;
		}
		/* Verdict already read, or a bootloader version that does
		 * not wait: pulse CHG, then reset into the new app. */
		m->bl_chg = true;
		m->ev = EV_FINAL_PULSE_END;
		m->ev_at = m->now + CHG_PULSE_NS;
		return;
	}
	if (m->bl_flags & BL_PASS_READ)
		bl_publish(m, MXT_BL_WAITING_FRAME_DATA);
}

static int bl_write(struct mxt_model *m, const em_u8 *buf, em_u16 len)
{
	em_u16 i;

	if (!len)
		return EM_ACK;
	if (!m->bl_unlocked) {
		if (len == 2 && buf[0] == 0xdc && buf[1] == 0xaa &&
		    m->bl_status == MXT_BL_WAITING_BOOTLOAD_CMD) {
			m->bl_unlocked = true;
			bl_publish(m, MXT_BL_WAITING_FRAME_DATA);
			return EM_ACK;
		}
		if (len == 2 && buf[0] == 0x01 && buf[1] == 0x01) {
			/* Leave the bootloader: try to start the application. */
			m->mode = MXT_MODE_RESET;
			m->bl_chg = false;
			m->chg_at = EM_NEVER;
			m->stats.resets++;
			schedule(m, EV_BOOT, m->cfg.t.bl_exit_ns);
			return EM_ACK;
		}
		return EM_ACK; /* anything else is ignored while locked */
	}
	/* Unlocked: frame bytes, accepted only while waiting for frame data. */
	if (m->bl_status != MXT_BL_WAITING_FRAME_DATA)
		return EM_NAK_DATA;
	for (i = 0; i < len; i++) {
		if (m->frame_len < MXT_MODEL_MAX_FRAME)
			m->frame[m->frame_len] = buf[i];
		m->frame_len++;
		if (m->frame_len == 2)
			m->frame_want = (em_u16)((m->frame[0] << 8 | m->frame[1]) + 2);
		if (m->frame_len >= 2 && m->frame_len == m->frame_want) {
			/* Bytes after a complete frame in the same message are
			 * not taken: the chip is busy checking. */
			m->bl_chg = true;
			m->bl_status = MXT_BL_FRAME_CRC_CHECK;
			schedule(m, EV_FRAME_CHECKED, m->cfg.t.frame_check_ns);
			return i + 1 == len ? EM_ACK : EM_NAK_DATA;
		}
	}
	return EM_ACK;
}

/* ------------------------------------------------------------- app access */

static void t6_reset(struct mxt_model *m, em_u8 v)
{
	m->mode = MXT_MODE_RESET;
	m->msg_count = 0;
	m->stats.resets++;
	if (v == T6_BOOT_VALUE) {
		schedule(m, EV_BOOT_TO_BL, m->cfg.t.bl_enter_ns);
	} else {
		m->soft_reset_at = m->now;
		m->soft_reset_met = false;
		m->soft_reset_holding = false;
		schedule(m, EV_SOFT_RESET_DONE, m->cfg.t.reset_ns);
	}
}

/* How long a held T6 reset goes on after the transfer that met it: long
 * enough that the program retries at least once into the reset. */
#define RESET_MET_TAIL_NS (50 * EM_NSEC_PER_MSEC)

/* A transfer during a T6 reset (NAKed): see reset_hold_ns. */
static void soft_reset_meets(struct mxt_model *m)
{
	em_u64 end;

	if (m->ev != EV_SOFT_RESET_DONE || m->soft_reset_met || !m->soft_reset_holding)
		return; /* within reset_ns, a transfer changes nothing: a driver
			 * that reads right after its reset command must not end
			 * the hold meant for the program that comes next */
	m->soft_reset_met = true;
	end = m->now + RESET_MET_TAIL_NS;
	if (end < m->ev_at)
		m->ev_at = end;
}

static void soft_reset_done(struct mxt_model *m)
{
	em_u64 cap = m->soft_reset_at + m->cfg.t.reset_hold_ns;

	if (m->cfg.t.reset_hold_ns && !m->soft_reset_met && m->now < cap) {
		/* held: until a transfer meets it, or the cap */
		m->soft_reset_holding = true;
		m->ev = EV_SOFT_RESET_DONE;
		m->ev_at = cap;
		return;
	}
	boot(m, false);
}

/*
 * RESTORENV: the configuration NVM holds replaces RAM's, as at a boot but
 * without one.  Our decisions where no public source says: it takes effect
 * at once (mxt-app reads the configuration right after sending it), and the
 * chip reports its T6 status with the config CRC, as after a backup (the
 * CRC is NVM's again, and mxt-app's self-cap tuning waits for a message
 * after it).  Written while a backup runs, it waits for the backup, as a
 * reset does (commands run in order).
 */
static void restore_nv(struct mxt_model *m)
{
	copy_config(m, m->mem, m->nvm_cfg);
	m->reported_crc = nvm_config_crc(m);
	m->stats.restores++;
	queue_t6(m, 0);
}

static void t6_command(struct mxt_model *m, em_u16 off, em_u8 v)
{
	switch (off) {
	case T6_RESET:
		if (!v)
			return;
		if (m->ev == EV_BACKUP_DONE) {
			/* The chip runs its commands in order: the backup
			 * under way finishes, then the reset happens. */
			m->queued_reset = v;
			return;
		}
		t6_reset(m, v);
		return;
	case T6_BACKUPNV:
		if (v == T6_RESTORE_VALUE || v == T6_RESTORE_NS_VALUE) {
			if (m->ev == EV_BACKUP_DONE)
				m->queued_restore = true;
			else
				restore_nv(m);
			return;
		}
		if (v != T6_BACKUP_VALUE)
			return;
		m->mem[m->t6_addr + T6_BACKUPNV] = v; /* reads back until done */
		schedule(m, EV_BACKUP_DONE, m->cfg.t.backup_ns);
		return;
	case T6_REPORTALL:
		if (v)
			queue_t6(m, 0);
		return;
	case T6_CALIBRATE:
	default:
		return;
	}
}

static int app_write(struct mxt_model *m, const em_u8 *buf, em_u16 len)
{
	em_u16 i, a;
	bool changed = false;

	if (len < 2)
		return EM_ACK; /* quick write or half a pointer: nothing */
	m->ptr = em_get_le16(buf);
	for (i = 2, a = m->ptr; i < len; i++, a++) {
		if (a >= m->t6_addr && a < m->t6_addr + 6 && m->t6_addr) {
			t6_command(m, (em_u16)(a - m->t6_addr), buf[i]);
			if (m->mode != MXT_MODE_APP)
				return EM_ACK; /* reset: the rest is lost */
			continue;
		}
		if (!is_config_addr(m, a))
			continue; /* info block, T5, T37, T44: read-only */
		if (m->cfg.faults.drop_object && m->stored[a] == m->cfg.faults.drop_object)
			continue;
		if (m->mem[a] != buf[i])
			changed = true;
		m->mem[a] = buf[i];
	}
	if (changed)
		m->stats.config_writes++;
	return EM_ACK;
}

/* Pop one message into @out (msg_size bytes); 0xff report id if none. */
static void pop_msg(struct mxt_model *m, em_u8 *out, em_u16 size)
{
	em_u16 i;

	if (!m->msg_count) {
		out[0] = 0xff;
		for (i = 1; i < size; i++)
			out[i] = 0;
		return;
	}
	for (i = 0; i < size; i++)
		out[i] = i < 16 ? m->msgq[m->msg_head][i] : 0;
	m->msg_head = (em_u8)((m->msg_head + 1) % MXT_MODEL_MSG_QUEUE);
	m->msg_count--;
}

static int app_read(struct mxt_model *m, em_u8 *buf, em_u16 len)
{
	em_u16 info_crc_at = (em_u16)(INFO_SIZE + m->cfg.num_objects * OBJ_ENTRY_SIZE);
	em_u16 i = 0, a = m->ptr, ms = msg_size(m);
	em_u8 cur[16];

	if (m->t44_addr && a == m->t44_addr && len) {
		buf[i++] = m->msg_count; /* T44: messages pending */
		a = m->t5_addr;
	}
	if (m->t5_addr && a == m->t5_addr) {
		/* A read from T5 is a stream of messages, one per stride. */
		while (i < len) {
			em_u16 n = (em_u16)(len - i), k;

			pop_msg(m, cur, ms > 16 ? 16 : ms);
			if (n > ms)
				n = ms;
			for (k = 0; k < n; k++)
				buf[i + k] = k < 16 ? cur[k] : 0;
			i = (em_u16)(i + n);
		}
		return EM_ACK;
	}
	for (; i < len; i++, a++) {
		em_u8 v = a < m->mem_size ? m->mem[a] : 0;

		if (m->cfg.faults.corrupt_info_crc && a >= info_crc_at &&
		    a < info_crc_at + CRC_SIZE)
			v ^= 0x5a;
		buf[i] = v;
	}
	return EM_ACK;
}

/* ------------------------------------------------------------ chip ops */

static int op_write(void *chip, em_u16 addr, const em_u8 *buf, em_u16 len)
{
	struct mxt_model *m = chip;

	soft_reset_meets(m);
	if (m->mode == MXT_MODE_APP && addr == m->cfg.app_addr)
		return app_write(m, buf, len);
	if (m->mode == MXT_MODE_BOOTLOADER && addr == mxt_model_bootloader_addr(m))
		return bl_write(m, buf, len);
	return EM_NAK_ADDR;
}

static int op_read(void *chip, em_u16 addr, em_u8 *buf, em_u16 len)
{
	struct mxt_model *m = chip;

	soft_reset_meets(m);
	if (m->mode == MXT_MODE_APP && addr == m->cfg.app_addr)
		return app_read(m, buf, len);
	if (m->mode == MXT_MODE_BOOTLOADER && addr == mxt_model_bootloader_addr(m))
		return bl_read(m, buf, len);
	return EM_NAK_ADDR;
}

static void run_event(struct mxt_model *m)
{
	int ev = m->ev;

	cancel(m);
	switch (ev) {
	case EV_BOOT:
		boot(m, false);
		break;
	case EV_SOFT_RESET_DONE:
		soft_reset_done(m);
		break;
	case EV_BOOT_TO_BL:
		boot(m, true);
		break;
	case EV_FRAME_CHECKED:
		frame_checked(m);
		break;
	case EV_FRAME_PROGRAMMED:
		frame_programmed(m);
		break;
	case EV_FINAL_PULSE:
		m->bl_chg = true;
		schedule(m, EV_FINAL_PULSE_END, CHG_PULSE_NS);
		break;
	case EV_FINAL_PULSE_END:
		final_reset(m);
		break;
	case EV_BACKUP_DONE:
		if (m->mode != MXT_MODE_APP)
			break;
		copy_config(m, m->nvm_cfg, m->mem);
		m->mem[m->t6_addr + T6_BACKUPNV] = 0;
		m->reported_crc = nvm_config_crc(m);
		m->stats.backups++;
		queue_t6(m, 0);
		if (m->queued_restore) {
			m->queued_restore = false;
			restore_nv(m);
		}
		if (m->queued_reset) {
			em_u8 v = m->queued_reset;

			m->queued_reset = 0;
			t6_reset(m, v);
		}
		break;
	case EV_POWER_RESTORE:
		if (!m->powered)
			break;
		m->mode = MXT_MODE_RESET;
		schedule(m, EV_BOOT, m->cfg.t.power_on_ns);
		break;
	default:
		break;
	}
}

static em_u64 next_event(const struct mxt_model *m)
{
	em_u64 ev = m->ev == EV_NONE ? EM_NEVER : m->ev_at;

	return m->chg_at < ev ? m->chg_at : ev;
}

static em_u64 op_next_event(const void *chip)
{
	return next_event(chip);
}

/* The event due at @t: the bootloader's CHG, or the pending event. */
static void due_event(void *chip, em_u64 t)
{
	struct mxt_model *m = chip;

	if (m->chg_at == t) {
		m->chg_at = EM_NEVER;
		if (m->mode == MXT_MODE_BOOTLOADER)
			m->bl_chg = true;
		return;
	}
	run_event(m);
}

static void op_advance(void *chip, em_u64 now)
{
	struct mxt_model *m = chip;

	em_chip_run_until(m, &m->now, now, op_next_event, due_event);
}

static bool op_irq_asserted(const void *chip)
{
	const struct mxt_model *m = chip;

	if (m->mode == MXT_MODE_APP)
		return m->msg_count > 0;
	if (m->mode == MXT_MODE_BOOTLOADER)
		return m->bl_chg;
	return false;
}

static void op_set_reset(void *chip, bool asserted)
{
	struct mxt_model *m = chip;

	if (asserted == m->reset_held)
		return;
	m->reset_held = asserted;
	if (!m->powered)
		return;
	if (asserted) {
		m->mode = MXT_MODE_RESET;
		m->bl_chg = false;
		m->chg_at = EM_NEVER;
		m->final_pending = false;
		m->final_wait_read = false;
		m->queued_reset = 0;
		m->queued_restore = false;
		cancel(m);
		m->stats.resets++;
		m->stats.hw_resets++;
	} else {
		schedule(m, EV_BOOT, m->cfg.t.power_on_ns);
	}
}

static void op_set_power(void *chip, bool on)
{
	struct mxt_model *m = chip;

	if (on == m->powered)
		return;
	m->powered = on;
	m->bl_chg = false;
	m->chg_at = EM_NEVER;
	m->final_pending = false;
	m->final_wait_read = false;
	m->queued_reset = 0;
	m->queued_restore = false;
	cancel(m);
	if (!on) {
		m->mode = MXT_MODE_OFF;
		return;
	}
	m->mode = MXT_MODE_RESET;
	if (!m->reset_held)
		schedule(m, EV_BOOT, m->cfg.t.power_on_ns);
}

/* A bootloader frame received in part: its next bytes must come before any
 * other device's traffic on the bus. */
static bool op_mid_unit(const void *p)
{
	const struct mxt_model *m = p;

	return m->mode == MXT_MODE_BOOTLOADER && m->bl_unlocked &&
	       m->bl_status == MXT_BL_WAITING_FRAME_DATA && m->frame_len > 0 &&
	       (m->frame_len < 2 || m->frame_len < m->frame_want);
}

const struct em_chip_ops mxt_model_ops = {
	.name = "mxt",
	.write = op_write,
	.read = op_read,
	.stop = NULL,
	.advance = op_advance,
	.next_event = op_next_event,
	.irq_asserted = op_irq_asserted,
	.set_reset = op_set_reset,
	.set_power = op_set_power,
	.mid_unit = op_mid_unit,
};

/* ------------------------------------------------------------ setup */

static void default_timing(struct mxt_model_timing *t)
{
	if (!t->power_on_ns)
		t->power_on_ns = DEF_POWER_ON_NS;
	if (!t->bl_enter_ns)
		t->bl_enter_ns = DEF_BL_ENTER_NS;
	if (!t->bl_exit_ns)
		t->bl_exit_ns = DEF_BL_EXIT_NS;
	if (!t->frame_check_ns)
		t->frame_check_ns = DEF_FRAME_CHECK_NS;
	if (!t->frame_prog_ns)
		t->frame_prog_ns = DEF_FRAME_PROG_NS;
	if (!t->backup_ns)
		t->backup_ns = DEF_BACKUP_NS;
	if (!t->reset_ns)
		t->reset_ns = DEF_RESET_NS;
}

void mxt_model_init(struct mxt_model *m, const struct mxt_model_cfg *cfg, em_u64 now)
{
	em_memset(m, 0, sizeof(*m));
	em_memcpy(&m->cfg, cfg, sizeof(m->cfg)); /* no libc memcpy from a struct copy */
	default_timing(&m->cfg.t);
	m->now = now;
	m->app_valid = cfg->app_valid;
	m->fw_version = cfg->fw_version;
	m->fw_build = cfg->fw_build;
	m->crc_fail_left = cfg->faults.crc_fail_times ? cfg->faults.crc_fail_times : 1;
	m->ev = EV_NONE;
	m->ev_at = EM_NEVER;
	m->chg_at = EM_NEVER;
	m->powered = true;
	build_memory_map(m);
	/* Powered at @now; the chip has already finished booting. */
	if (cfg->start_in_bootloader)
		boot(m, true);
	else
		boot(m, false);
}

/* ------------------------------------------------------------ inspection */

enum mxt_mode mxt_model_mode(const struct mxt_model *m)
{
	return m->mode;
}

em_u8 mxt_model_bl_status(const struct mxt_model *m)
{
	return m->bl_status;
}

bool mxt_model_app_valid(const struct mxt_model *m)
{
	return m->app_valid;
}

em_u8 mxt_model_fw_version(const struct mxt_model *m)
{
	return m->fw_version;
}

em_u8 mxt_model_fw_build(const struct mxt_model *m)
{
	return m->fw_build;
}

em_u32 mxt_model_info_crc(const struct mxt_model *m)
{
	em_u16 at = (em_u16)(INFO_SIZE + m->cfg.num_objects * OBJ_ENTRY_SIZE);

	return em_get_le24(m->mem + at);
}

em_u32 mxt_model_config_crc(const struct mxt_model *m)
{
	return ram_config_crc(m);
}

em_u32 mxt_model_nvm_config_crc(const struct mxt_model *m)
{
	return nvm_config_crc(m);
}

const struct mxt_model_stats *mxt_model_stats(const struct mxt_model *m)
{
	return &m->stats;
}

struct mxt_model_faults *mxt_model_faults(struct mxt_model *m)
{
	return &m->cfg.faults;
}

const em_u8 *mxt_model_mem(const struct mxt_model *m, em_u16 *size)
{
	if (size)
		*size = m->mem_size;
	return m->mem;
}

void mxt_model_set_nvm(struct mxt_model *m, em_u16 addr, const em_u8 *data, em_u16 len)
{
	em_u16 i;

	for (i = 0; i < len; i++) {
		em_u16 a = (em_u16)(addr + i);

		if (a < MXT_MODEL_MEM_SIZE)
			m->nvm_cfg[a] = data[i];
	}
	if (m->mode == MXT_MODE_APP) {
		/* As if the chip had booted with it. */
		copy_config(m, m->mem, m->nvm_cfg);
		m->reported_crc = nvm_config_crc(m);
	}
}
