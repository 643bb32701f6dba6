// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Synaptics RMI4 SMBus touchpad model: see rmi4_model.h for what it
 * answers and where each fact comes from.
 */
#include "rmi4_model.h"

/* register addresses (rmi4_model.h) */
#define F01_QUERY 0x00
#define F01_NQUERY 24
#define F01_CTRL0 0x18
#define F01_IRQ_EN 0x19
#define F01_STATUS 0x1a
#define F01_IRQ_STATUS 0x1b
#define F01_CMD 0x1c
#define F34_QUERY 0x20
#define F34_NQUERY 8
#define F34_CTRL 0x28
#define F34_DATA 0x29
#define F34_STATUS (F34_DATA + 0)
#define F34_PARTITION (F34_DATA + 1)
#define F34_BLOCK (F34_DATA + 2)
#define F34_LENGTH (F34_DATA + 3)
#define F34_COMMAND (F34_DATA + 4)
#define F34_PAYLOAD (F34_DATA + 5)
#define F11_QUERY 0x80 /* query 0; queries 1..5 after it (past the payload) */
#define F11_NQUERY 6
#define F11_CTRL 0x88 /* control 0..9, 12 bytes as rmi_f11 reads them */
#define F11_NCTRL 12
#define F11_DATA 0x98 /* finger state, then 5 bytes of abs data a finger */
#define F11_NDATA (2 + 5 * RMI4_MODEL_F11_FINGERS)
#define F12_QUERY 0x80 /* query 0, then the three register descriptors */
#define F12_NQUERY 10
#define F12_CTRL 0x8a /* control 8 (the only control register) */
#define F12_CTRL8_SIZE 10
#define F12_DATA 0x98 /* data 1 (the only data register): the objects */
#define F12_DATA1_SIZE (8 * RMI4_MODEL_F12_OBJECTS)
#define PDT_TOP 0xe9
#define PDT_PROPS 0xef
#define SMB_VERSION_REG 0xfd
#define SMB_MAP_CMD 0x80

/* F34 v5 (rmi4_model.h): one byte a register */
#define V5_QUERY 0x20
#define V5_NQUERY 9
#define V5_CTRL 0x29 /* the config id, 4 bytes */
#define V5_DATA 0x2d /* the block number, LE16 */
#define V5_BLOCK_DATA (V5_DATA + 2)
#define V5_FLASH_CTRL (V5_BLOCK_DATA + RMI4_MODEL_BLOCK)
#define V5_CMD_WRITE_FW 0x2
#define V5_CMD_ERASE_ALL 0x3
#define V5_CMD_READ_CONFIG 0x5
#define V5_CMD_WRITE_CONFIG 0x6
#define V5_CMD_ERASE_CONFIG 0x7
#define V5_CMD_ENABLE 0xf
#define V5_BL_ID0 '0'
#define V5_BL_ID1 '5'

#define IRQ_F01 0x01
#define IRQ_F34 0x02

#define F01_ST_BOOTLOADER 0x40
#define F01_ST_UNCONFIGURED 0x80

/* F34 v7 commands (rmi_f34.h CMD_V7_*) */
#define CMD_IDLE 0
#define CMD_ENTER_BL 1
#define CMD_READ 2
#define CMD_WRITE 3
#define CMD_ERASE 4
#define CMD_ERASE_AP 5

/* the model's status numbers */
#define ST_OK 0
#define ST_MODE 1
#define ST_RANGE 2
#define ST_NOT_ERASED 3
#define ST_BL_ID 4

struct part {
	em_u8 id;
	em_u16 start, len;
};

static const struct part parts[] = {
	{ RMI4_PART_FLASH_CONFIG, 0, RMI4_MODEL_FL_CONFIG_BLOCKS },
	{ RMI4_PART_GLOBAL_PARAMS, RMI4_MODEL_FL_CONFIG_BLOCKS, RMI4_MODEL_BL_CONFIG_BLOCKS },
	{ RMI4_PART_CORE_CODE, RMI4_MODEL_FL_CONFIG_BLOCKS + RMI4_MODEL_BL_CONFIG_BLOCKS,
	  RMI4_MODEL_CORE_CODE_BLOCKS },
	{ RMI4_PART_CORE_CONFIG,
	  RMI4_MODEL_FL_CONFIG_BLOCKS + RMI4_MODEL_BL_CONFIG_BLOCKS +
		  RMI4_MODEL_CORE_CODE_BLOCKS,
	  RMI4_MODEL_CORE_CONFIG_BLOCKS },
};

#define NPARTS ((em_u32)EM_ARRAY_SIZE(parts))
#define PTABLE_BYTES (2 + 8 * NPARTS)

static const struct part *find_part(em_u8 id)
{
	em_u32 i;

	for (i = 0; i < NPARTS; i++)
		if (parts[i].id == id)
			return &parts[i];
	return (const struct part *)0;
}

em_u32 rmi4_model_crc32(const em_u8 *p, em_u32 len)
{
	em_u32 crc = 0xffffffffu;
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
	}
	return ~crc;
}

void rmi4_model_partition_table(em_u8 *buf)
{
	em_u32 i;

	em_memset(buf, 0, RMI4_MODEL_FL_CONFIG_BLOCKS * RMI4_MODEL_BLOCK);
	for (i = 0; i < NPARTS; i++) {
		em_u8 *e = buf + 2 + 8 * i;

		e[0] = parts[i].id;
		em_put_le16(e + 2, parts[i].len);
		em_put_le16(e + 4, parts[i].start);
	}
}

static void make_code(em_u8 *buf, em_u32 len, em_u32 build_id, const char *product_id)
{
	em_u32 i;

	for (i = 0; i < len; i++)
		buf[i] = (em_u8)(i * 7 + build_id);
	em_put_le32(buf, build_id);
	em_memset(buf + 4, 0, 10);
	for (i = 0; i < 10 && product_id[i]; i++)
		buf[4 + i] = (em_u8)product_id[i];
	em_put_le32(buf + len - 4, rmi4_model_crc32(buf, len - 4));
}

void rmi4_model_make_core_code(em_u8 *buf, em_u32 build_id, const char *product_id)
{
	make_code(buf, RMI4_MODEL_CORE_CODE_BLOCKS * RMI4_MODEL_BLOCK, build_id, product_id);
}

static em_u8 *part_data(struct rmi4_model *m, const struct part *p)
{
	return m->flash + p->start * RMI4_MODEL_BLOCK;
}

static bool v5(const struct rmi4_model *m)
{
	return m->cfg.bl_major == 5;
}

/* F34 v5's two flash areas: the firmware from block 0, the config after
 * it (the model's own layout in its flash). */
static const struct part v5_fw = { 0, 0, RMI4_MODEL_V5_FW_BLOCKS };
static const struct part v5_cfg = { 0, RMI4_MODEL_V5_FW_BLOCKS, RMI4_MODEL_V5_CONFIG_BLOCKS };

static bool part_programmed(const struct rmi4_model *m, const struct part *p)
{
	em_u32 i;

	for (i = 0; i < p->len; i++)
		if (m->erased[p->start + i])
			return false;
	return true;
}

/* The flash config holds the partition table the chip is laid out by. */
static bool table_valid(struct rmi4_model *m)
{
	const struct part *fl = find_part(RMI4_PART_FLASH_CONFIG);
	em_u8 table[RMI4_MODEL_FL_CONFIG_BLOCKS * RMI4_MODEL_BLOCK];

	rmi4_model_partition_table(table);
	return part_programmed(m, fl) && !em_memcmp(part_data(m, fl), table, PTABLE_BYTES);
}

/* Where the application's code and config are. */
static const struct part *code_part(const struct rmi4_model *m)
{
	return v5(m) ? &v5_fw : find_part(RMI4_PART_CORE_CODE);
}

static const struct part *config_part(const struct rmi4_model *m)
{
	return v5(m) ? &v5_cfg : find_part(RMI4_PART_CORE_CONFIG);
}

static bool app_valid(struct rmi4_model *m)
{
	const struct part *cc = code_part(m);
	const struct part *cf = config_part(m);
	em_u32 len = cc->len * RMI4_MODEL_BLOCK;
	const em_u8 *code;

	if ((!v5(m) && !table_valid(m)) || !part_programmed(m, cc) || !part_programmed(m, cf))
		return false;
	code = part_data(m, cc);
	return em_get_le32(code + len - 4) == rmi4_model_crc32(code, len - 4);
}

static void erase_part(struct rmi4_model *m, const struct part *p)
{
	em_memset(part_data(m, p), 0xff, p->len * RMI4_MODEL_BLOCK);
	em_memset(m->erased + p->start, 1, p->len);
}

/* Power on or reset: the bootloader runs, starts the application if valid. */
/* Enable (v5) or enter-bootloader (v7): the bootloader runs, F01 says
 * so and the PDT lists F01 and F34 only. */
static void enter_bootloader(struct rmi4_model *m)
{
	m->mode = RMI4_MODEL_BL;
	m->dev_status = F01_ST_UNCONFIGURED | F01_ST_BOOTLOADER;
	m->st.bl_entries++;
}

static void boot(struct rmi4_model *m)
{
	em_memset(m->map, 0, sizeof(m->map));
	m->have_cmd = false;
	m->page = 0;
	m->ptr = 0;
	m->ctrl0 = 0;
	m->irq_enable = IRQ_F01 | IRQ_F34;
	m->irq_status = 0;
	m->flash_status = 0;
	m->partition = 0;
	m->command = CMD_IDLE;
	m->block = 0;
	m->length = 0;
	m->payload_in = 0;
	m->v5_block = 0;
	m->v5_cmd = 0;
	m->v5_status = 0;
	m->notify_until = 0;
	if (app_valid(m)) {
		m->mode = RMI4_MODEL_APP;
		m->st.boots_app++;
	} else {
		m->mode = RMI4_MODEL_BL;
		m->st.boots_bl++;
	}
	m->dev_status = F01_ST_UNCONFIGURED |
			(m->mode == RMI4_MODEL_BL ? F01_ST_BOOTLOADER : 0);
}

void rmi4_model_reset(struct rmi4_model *m)
{
	if (!m->powered)
		return;
	m->st.resets++;
	boot(m);
}

void rmi4_model_init(struct rmi4_model *m, const struct rmi4_model_cfg *cfg)
{
	em_u32 i;

	em_memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	if (m->cfg.smb_version != 3)
		m->cfg.smb_version = 2;
	if (m->cfg.bl_major != 8 && m->cfg.bl_major != 5)
		m->cfg.bl_major = 7;
	em_memset(m->erased, 1, sizeof(m->erased));
	em_memset(m->flash, 0xff, sizeof(m->flash));
	/* from the factory: the partition table (flash config) and the
	 * bootloader config (global parameters), with or without an
	 * application */
	rmi4_model_partition_table(part_data(m, find_part(RMI4_PART_FLASH_CONFIG)));
	em_memset(m->erased + find_part(RMI4_PART_FLASH_CONFIG)->start, 0,
		  RMI4_MODEL_FL_CONFIG_BLOCKS);
	for (i = 0; i < RMI4_MODEL_BL_CONFIG_BLOCKS * RMI4_MODEL_BLOCK; i++)
		part_data(m, find_part(RMI4_PART_GLOBAL_PARAMS))[i] = (em_u8)(0x60 + i);
	em_memset(m->erased + find_part(RMI4_PART_GLOBAL_PARAMS)->start, 0,
		  RMI4_MODEL_BL_CONFIG_BLOCKS);
	if (v5(m)) {
		/* no partitions: the firmware and config areas only */
		em_memset(m->erased, 1, sizeof(m->erased));
		em_memset(m->flash, 0xff, sizeof(m->flash));
	}
	if (cfg->build_id) {
		const struct part *cc = code_part(m);
		const struct part *cf = config_part(m);
		em_u8 *c;

		make_code(part_data(m, cc), cc->len * RMI4_MODEL_BLOCK, cfg->build_id,
			  cfg->product_id);
		c = part_data(m, cf);
		for (i = 0; i < cf->len * RMI4_MODEL_BLOCK; i++)
			c[i] = (em_u8)(i * 3);
		em_put_le32(c, cfg->config_id);
		em_memset(m->erased + cc->start, 0, cc->len);
		em_memset(m->erased + cf->start, 0, cf->len);
	}
	m->powered = true;
	boot(m);
	m->st.boots_app = m->st.boots_bl = 0;
}

enum rmi4_model_mode rmi4_model_mode(const struct rmi4_model *m)
{
	return m->powered ? m->mode : RMI4_MODEL_OFF;
}

em_u32 rmi4_model_build_id(const struct rmi4_model *m)
{
	const struct part *cc = code_part(m);

	if (rmi4_model_mode(m) != RMI4_MODEL_APP)
		return 0;
	return em_get_le32(m->flash + cc->start * RMI4_MODEL_BLOCK) & 0xffffff;
}

em_u32 rmi4_model_config_id(const struct rmi4_model *m)
{
	const struct part *cf = config_part(m);

	if (!part_programmed(m, cf))
		return 0;
	return em_get_le32(m->flash + cf->start * RMI4_MODEL_BLOCK);
}

const struct rmi4_model_stats *rmi4_model_stats(const struct rmi4_model *m)
{
	return &m->st;
}

static void raise_irq(struct rmi4_model *m, em_u8 bits)
{
	bool was = (m->irq_status & m->irq_enable) != 0;

	m->irq_status |= bits;
	if (m->cfg.bus == RMI4_MODEL_I2C) {
		/* a level: one rise while nothing enabled was pending */
		if (!was && (m->irq_status & m->irq_enable))
			m->st.notifies++;
		return;
	}
	if (bits & m->irq_enable) {
		m->notify_until = m->now_ns + RMI4_MODEL_NOTIFY_NS;
		m->st.notifies++;
	}
}

/* ------------------------------------------------------------ registers */

static em_u32 payload_size(void)
{
	return (em_u32)sizeof(((struct rmi4_model *)0)->payload);
}

static bool f12(const struct rmi4_model *m)
{
	return m->cfg.touch_fn == 0x12;
}

/*
 * F12's registers in the application (rmi4_model.h): query 0, the query,
 * control and data register descriptors, control 8, data 1.  Their
 * size, as reg_read gives it; 0 for an address F12 does not have.
 */
static em_u32 f12_read(em_u16 addr, em_u8 *out)
{
	/* per descriptor: presence size, presence register, structure */
	static const em_u8 q[F12_NQUERY][3] = {
		{ 0x01 },		  /* query 0: has register descriptors */
		{ 2 },			  /* query descriptor: no registers */
		{ 2, 0x00 },		  /* (structure of 2 bytes, bitmap 0) */
		{ 0x00, 0x00 },		  /* its structure */
		{ 3 },			  /* control descriptor: control 8 */
		{ 2, 0x00, 0x01 },	  /* structure of 2 bytes; bit 8 */
		{ F12_CTRL8_SIZE, 0x0b }, /* 10 bytes; subpackets 0, 1, 3 */
		{ 2 },			  /* data descriptor: data 1 */
		{ 2, 0x02 },		  /* structure of 2 bytes; bit 1 */
		/* 40 bytes; one subpacket an object */
		{ F12_DATA1_SIZE, (1u << RMI4_MODEL_F12_OBJECTS) - 1 },
	};
	static const em_u8 qlen[F12_NQUERY] = { 1, 1, 2, 2, 1, 3, 2, 1, 2, 2 };

	if (addr >= F12_QUERY && addr < F12_QUERY + F12_NQUERY) {
		em_memcpy(out, q[addr - F12_QUERY], qlen[addr - F12_QUERY]);
		return qlen[addr - F12_QUERY];
	}
	if (addr == F12_CTRL) {
		em_put_le16(out, RMI4_MODEL_F12_MAX_X);
		em_put_le16(out + 2, RMI4_MODEL_F12_MAX_Y);
		em_put_le16(out + 4, RMI4_MODEL_F12_PITCH);
		em_put_le16(out + 6, RMI4_MODEL_F12_PITCH);
		out[8] = RMI4_MODEL_F12_RX;
		out[9] = RMI4_MODEL_F12_TX;
		return F12_CTRL8_SIZE;
	}
	if (addr == F12_DATA) {
		em_memset(out, 0, F12_DATA1_SIZE); /* no object on the pad */
		return F12_DATA1_SIZE;
	}
	return 0; /* not F12's */
}

/* F34 v5's registers (rmi4_model.h), one byte each: true when @addr is
 * one of them. */
static bool v5_read(struct rmi4_model *m, em_u16 addr, em_u8 *out)
{
	em_u32 id = rmi4_model_config_id(m);

	if (addr < V5_QUERY || addr > V5_FLASH_CTRL)
		return false;
	switch (addr) {
	case V5_QUERY + 0:
		out[0] = V5_BL_ID0;
		break;
	case V5_QUERY + 1:
		out[0] = V5_BL_ID1;
		break;
	case V5_QUERY + 2:
		out[0] = 0x04; /* has config id */
		break;
	case V5_QUERY + 3:
	case V5_QUERY + 4:
		out[0] = (em_u8)(RMI4_MODEL_BLOCK >> (8 * (addr - V5_QUERY - 3)));
		break;
	case V5_QUERY + 5:
	case V5_QUERY + 6:
		out[0] = (em_u8)(RMI4_MODEL_V5_FW_BLOCKS >> (8 * (addr - V5_QUERY - 5)));
		break;
	case V5_QUERY + 7:
	case V5_QUERY + 8:
		out[0] = (em_u8)(RMI4_MODEL_V5_CONFIG_BLOCKS >> (8 * (addr - V5_QUERY - 7)));
		break;
	case V5_DATA:
	case V5_DATA + 1:
		out[0] = (em_u8)(m->v5_block >> (8 * (addr - V5_DATA)));
		break;
	case V5_FLASH_CTRL:
		out[0] = (em_u8)((m->mode == RMI4_MODEL_BL ? 0x80 : 0) |
				 (m->v5_status & 7) << 4 | (m->v5_cmd & 0x0f));
		break;
	default:
		if (addr >= V5_CTRL && addr < V5_CTRL + 4)
			out[0] = (em_u8)(id >> (8 * (3 - (addr - V5_CTRL))));
		else
			out[0] = m->payload[addr - V5_BLOCK_DATA];
		break;
	}
	return true;
}

/*
 * The bytes of the register at @addr into @out (at most 64): its size, 0
 * for an address with no register (reads as one zero byte).
 */
static em_u32 reg_read(struct rmi4_model *m, em_u16 addr, em_u8 *out)
{
	bool bl = m->mode == RMI4_MODEL_BL;

	if (v5(m) && v5_read(m, addr, out))
		return 1;

	if (addr < F01_QUERY + F01_NQUERY) {
		em_u32 q = addr - F01_QUERY, build = rmi4_model_build_id(m);

		out[0] = 0;
		if (q == 0)
			out[0] = 1; /* Synaptics */
		else if (q == 1)
			out[0] = 0x80; /* has query 42 */
		else if (q == 5)
			out[0] = 26; /* 2026/12/06 */
		else if (q == 6)
			out[0] = 12;
		else if (q == 7)
			out[0] = 6;
		else if (q >= 11 && q < 11 + RMI4_MODEL_PRODUCT_MAX)
			out[0] = (em_u8)m->cfg.product_id[q - 11];
		else if (q >= 17 && q <= 19)
			out[0] = (em_u8)(build >> (8 * (q - 17)));
		else if (q == 21)
			out[0] = 0x01; /* DS4 queries */
		else if (q == 22)
			out[0] = 1; /* their length */
		else if (q == 23)
			out[0] = 0x02; /* build id query */
		return 1;
	}
	switch (addr) {
	case F01_CTRL0:
		out[0] = m->ctrl0;
		return 1;
	case F01_IRQ_EN:
		out[0] = m->irq_enable;
		return 1;
	case F01_STATUS:
		out[0] = m->dev_status;
		return 1;
	case F01_IRQ_STATUS:
		out[0] = m->irq_status;
		m->irq_status = 0;
		return 1;
	case F01_CMD:
		out[0] = 0;
		return 1;
	case F34_QUERY + 0:
		out[0] = 0x08; /* has config id; queries 1..7 next */
		return 1;
	case F34_QUERY + 1:
		out[0] = 0; /* minor */
		out[1] = m->cfg.bl_major;
		return 2;
	case F34_QUERY + 2:
		em_put_le32(out, 0x0000beef);
		return 4;
	case F34_QUERY + 3:
		out[0] = 1;
		em_put_le16(out + 1, RMI4_MODEL_BLOCK);
		em_put_le16(out + 3, 256);
		return 5;
	case F34_QUERY + 4:
		em_put_le16(out, 0);
		return 2;
	case F34_QUERY + 5:
		em_put_le16(out, RMI4_MODEL_FL_CONFIG_BLOCKS);
		return 2;
	case F34_QUERY + 6:
		em_put_le16(out, RMI4_MODEL_PAYLOAD_BLOCKS);
		return 2;
	case F34_QUERY + 7:
		out[0] = (em_u8)((1u << NPARTS) - 1);
		out[1] = out[2] = out[3] = 0;
		return 4;
	case F34_CTRL: {
		em_u32 id = rmi4_model_config_id(m);

		em_memset(out, 0, 32);
		out[28] = (em_u8)(id >> 24);
		out[29] = (em_u8)(id >> 16);
		out[30] = (em_u8)(id >> 8);
		out[31] = (em_u8)id;
		return 32;
	}
	case F34_STATUS:
		out[0] = (em_u8)((bl ? 0x80 : 0) | (m->flash_status & 0x1f));
		return 1;
	case F34_PARTITION:
		out[0] = m->partition;
		return 1;
	case F34_BLOCK:
		em_put_le16(out, m->block);
		return 2;
	case F34_LENGTH:
		em_put_le16(out, m->length);
		return 2;
	case F34_COMMAND:
		out[0] = m->command;
		return 1;
	case PDT_PROPS:
		out[0] = 0;
		return 1;
	default:
		break;
	}
	if (addr >= PDT_TOP - 12 && addr <= PDT_TOP + 5) {
		/* F01 at 0xe9, F34 at 0xe3, then F11 (2D sensor) at 0xdd in
		 * the application only: its bootloader lists F01 and F34 and
		 * reads zeros at 0xdd, the end (as at 0xd7 in the application) */
		unsigned idx = (unsigned)(PDT_TOP + 5 - addr) / 6; /* 0 F01, 1 F34, 2 F11 */
		static const em_u8 ents[5][6] = {
			{ F01_QUERY, F01_CMD, F01_CTRL0, F01_STATUS, 1, 0x01 },
			/* interrupt sources (bits 0..2), function version (bits
			 * 5..6): F34 version 2 is the v7 bootloader */
			{ F34_QUERY, 0, F34_CTRL, F34_DATA, 1 | 2 << 5, 0x34 },
			/* F34 version 0: the v5 bootloader */
			{ V5_QUERY, 0, V5_CTRL, V5_DATA, 1, 0x34 },
			{ F11_QUERY, 0, F11_CTRL, F11_DATA, 1, 0x11 },
			{ F12_QUERY, 0, F12_CTRL, F12_DATA, 1, 0x12 },
		};

		if (idx == 2 && bl) {
			out[0] = 0;
			return 1;
		}
		out[0] = ents[idx == 2 && f12(m)  ? 4
			      : idx == 1 && v5(m) ? 2
			      : idx == 2	  ? 3
						  : idx][addr - (PDT_TOP - 6 * idx)];
		return 1;
	}
	if (!bl && f12(m)) {
		em_u32 n = f12_read(addr, out);

		if (n)
			return n;
	}
	if (!bl && !f12(m) && addr >= F11_QUERY && addr < F11_QUERY + F11_NQUERY) {
		/* query 0: one sensor (bits 0..2 = 0), no queries 9/11/12/27/28;
		 * query 1: 5 fingers (bits 0..2 = 4), has absolute (bit 4);
		 * queries 2..4: x, y electrodes and their maximum; query 5
		 * (has absolute): abs data size 0 (5 bytes a finger) */
		static const em_u8 q[F11_NQUERY] = {
			0x00, 0x14, RMI4_MODEL_F11_RX, RMI4_MODEL_F11_TX, RMI4_MODEL_F11_RX,
			0x00
		};

		out[0] = q[addr - F11_QUERY];
		return 1;
	}
	if (!bl && !f12(m) && addr >= F11_CTRL && addr < F11_CTRL + F11_NCTRL) {
		/* ctrl 0 reporting mode (0: continuous), 1 palm, 2 delta x,
		 * 3 delta y, 4..5 velocity and acceleration, 6..7 max x
		 * (LE, 12 bits), 8..9 max y */
		em_u8 c[F11_NCTRL] = { 0 };

		em_put_le16(c + 6, RMI4_MODEL_F11_MAX_X);
		em_put_le16(c + 8, RMI4_MODEL_F11_MAX_Y);
		out[0] = c[addr - F11_CTRL];
		return 1;
	}
	if (!bl && !f12(m) && addr >= F11_DATA && addr < F11_DATA + F11_NDATA) {
		out[0] = 0; /* no finger on the pad */
		return 1;
	}
	if (!v5(m) && addr >= F34_PAYLOAD && addr < F34_PAYLOAD + payload_size()) {
		em_u32 off = addr - F34_PAYLOAD, n = payload_size() - off;

		if (n > 64)
			n = 64;
		em_memcpy(out, m->payload + off, n);
		return n;
	}
	out[0] = 0;
	return 1;
}

static void reg_read_stream(struct rmi4_model *m, em_u16 addr, em_u8 *buf, em_u32 len)
{
	em_u8 tmp[64];

	while (len) {
		em_u32 n = reg_read(m, addr, tmp);

		if (n > len)
			n = len;
		em_memcpy(buf, tmp, n);
		buf += n;
		len -= n;
		addr++;
	}
}

static bool bl_id_ok(const struct rmi4_model *m)
{
	return m->payload[0] == 0 && m->payload[1] == m->cfg.bl_major;
}

static bool range_ok(const struct rmi4_model *m, const struct part *p)
{
	return p && (em_u32)m->block + m->length <= p->len &&
	       (em_u32)m->length * RMI4_MODEL_BLOCK <= payload_size();
}

static void power_loss(struct rmi4_model *m)
{
	m->st.power_losses++;
	m->cfg.power_loss_block = 0; /* once */
	boot(m);
}

/* The blocks of a write command, all in the payload now. */
static em_u8 program(struct rmi4_model *m)
{
	const struct part *p = find_part(m->partition);
	em_u32 i;

	if (m->mode != RMI4_MODEL_BL)
		return ST_MODE;
	if (!range_ok(m, p) || p->id == RMI4_PART_BOOTLOADER)
		return ST_RANGE;
	/* the bootloader rewrites its own config as a whole */
	for (i = 0; i < m->length && p->id != RMI4_PART_GLOBAL_PARAMS; i++)
		if (!m->erased[p->start + m->block + i])
			return ST_NOT_ERASED;
	for (i = 0; i < m->length; i++) {
		em_u32 b = p->start + m->block + i;

		if (m->cfg.power_loss_block &&
		    m->blocks_since_power + 1 >= m->cfg.power_loss_block) {
			power_loss(m);
			return 0xff; /* nobody left to answer */
		}
		em_memcpy(m->flash + b * RMI4_MODEL_BLOCK, m->payload + i * RMI4_MODEL_BLOCK,
			  RMI4_MODEL_BLOCK);
		m->erased[b] = 0;
		m->blocks_since_power++;
		m->st.blocks_written++;
	}
	m->block += m->length;
	return ST_OK;
}

static void finish(struct rmi4_model *m, em_u8 st)
{
	if (st == 0xff)
		return;
	if (st)
		m->st.cmd_errors++;
	m->flash_status = st;
	m->command = CMD_IDLE;
	raise_irq(m, IRQ_F34);
}

/* A command written to F34 (with the payload of the same transaction). */
static void run_command(struct rmi4_model *m)
{
	const struct part *p = find_part(m->partition);
	bool bl = m->mode == RMI4_MODEL_BL;
	em_u8 st = ST_OK;

	switch (m->command) {
	case CMD_ENTER_BL:
		if (m->partition != RMI4_PART_BOOTLOADER) {
			st = ST_RANGE;
		} else if (!bl_id_ok(m)) {
			st = ST_BL_ID;
		} else if (!bl) {
			enter_bootloader(m);
		}
		break;
	case CMD_READ:
		if (!bl && m->partition != RMI4_PART_FLASH_CONFIG) {
			st = ST_MODE;
		} else if (!range_ok(m, p)) {
			st = ST_RANGE;
		} else {
			em_memcpy(m->payload,
				  m->flash + (p->start + m->block) * RMI4_MODEL_BLOCK,
				  (em_u32)m->length * RMI4_MODEL_BLOCK);
			m->block += m->length;
			m->st.blocks_read += m->length;
		}
		break;
	case CMD_WRITE:
		m->payload_in = 0;
		return; /* runs once the payload is there */
	case CMD_ERASE:
		/* one partition: only while the partition table is there */
		if (!bl)
			st = ST_MODE;
		else if (!p || p->id == RMI4_PART_BOOTLOADER || !table_valid(m))
			st = ST_RANGE;
		else if (!bl_id_ok(m))
			st = ST_BL_ID;
		else {
			erase_part(m, p);
			m->st.erases++;
		}
		break;
	case CMD_ERASE_AP:
		/* everything but the bootloader and its config */
		if (!bl) {
			st = ST_MODE;
		} else if (!bl_id_ok(m)) {
			st = ST_BL_ID;
		} else {
			erase_part(m, find_part(RMI4_PART_CORE_CODE));
			erase_part(m, find_part(RMI4_PART_CORE_CONFIG));
			erase_part(m, find_part(RMI4_PART_FLASH_CONFIG));
			m->st.erases++;
		}
		break;
	case CMD_IDLE:
		return;
	default:
		st = ST_MODE;
		break;
	}
	finish(m, st);
}

/* ------------------------------------------------------------ F34 v5 */

static bool v5_id_ok(const struct rmi4_model *m)
{
	return m->payload[0] == V5_BL_ID0 && m->payload[1] == V5_BL_ID1;
}

/* The block data into block v5_block of @area (erased), the block
 * number advanced. */
static em_u8 v5_program(struct rmi4_model *m, const struct part *area)
{
	em_u32 b = area->start + m->v5_block;

	if (m->mode != RMI4_MODEL_BL)
		return ST_MODE;
	if (m->v5_block >= area->len)
		return ST_RANGE;
	if (!m->erased[b])
		return ST_NOT_ERASED;
	if (m->cfg.power_loss_block && m->blocks_since_power + 1 >= m->cfg.power_loss_block) {
		power_loss(m);
		return 0xff;
	}
	em_memcpy(m->flash + b * RMI4_MODEL_BLOCK, m->payload, RMI4_MODEL_BLOCK);
	m->erased[b] = 0;
	m->blocks_since_power++;
	m->st.blocks_written++;
	m->v5_block++;
	return ST_OK;
}

/* A command written to the flash control register: done at once, its
 * status kept, F34's interrupt raised. */
static void v5_run(struct rmi4_model *m, em_u8 cmd)
{
	bool bl = m->mode == RMI4_MODEL_BL;
	em_u8 st = ST_OK;

	switch (cmd) {
	case 0:
		return;
	case V5_CMD_ENABLE:
		if (!v5_id_ok(m)) {
			st = ST_BL_ID;
		} else if (!bl) {
			enter_bootloader(m);
		}
		break;
	case V5_CMD_ERASE_ALL:
	case V5_CMD_ERASE_CONFIG:
		if (!bl) {
			st = ST_MODE;
		} else if (!v5_id_ok(m)) {
			st = ST_BL_ID;
		} else {
			if (cmd == V5_CMD_ERASE_ALL)
				erase_part(m, &v5_fw);
			erase_part(m, &v5_cfg);
			m->v5_block = 0;
			m->st.erases++;
		}
		break;
	case V5_CMD_WRITE_FW:
		st = v5_program(m, &v5_fw);
		break;
	case V5_CMD_WRITE_CONFIG:
		st = v5_program(m, &v5_cfg);
		break;
	case V5_CMD_READ_CONFIG:
		if (!bl) {
			st = ST_MODE;
		} else if (m->v5_block >= v5_cfg.len) {
			st = ST_RANGE;
		} else {
			em_memcpy(m->payload,
				  m->flash + (v5_cfg.start + m->v5_block) * RMI4_MODEL_BLOCK,
				  RMI4_MODEL_BLOCK);
			m->v5_block++;
			m->st.blocks_read++;
		}
		break;
	default:
		st = ST_MODE;
		break;
	}
	if (st == 0xff)
		return; /* the supply dropped: nobody left to answer */
	if (st)
		m->st.cmd_errors++;
	m->v5_cmd = 0;
	m->v5_status = st;
	raise_irq(m, IRQ_F34);
}

/* One byte written to F34 v5's register @addr: the command to run, or 0. */
static em_u8 v5_write(struct rmi4_model *m, em_u16 addr, em_u8 v)
{
	if (addr == V5_DATA)
		m->v5_block = (em_u16)((m->v5_block & 0xff00) | v);
	else if (addr == V5_DATA + 1)
		m->v5_block = (em_u16)((m->v5_block & 0x00ff) | v << 8);
	else if (addr >= V5_BLOCK_DATA && addr < V5_FLASH_CTRL)
		m->payload[addr - V5_BLOCK_DATA] = v;
	else if (addr == V5_FLASH_CTRL && (v & 0x0f))
		return (em_u8)(v & 0x0f); /* bits 4..7 read only */
	return 0;
}

/* A write transaction's bytes from register @addr on. */
static void reg_write_stream(struct rmi4_model *m, em_u16 addr, const em_u8 *buf, em_u32 len)
{
	bool cmd_written = false;
	em_u8 v5_cmd = 0;

	while (len) {
		em_u32 n = 1;

		if (v5(m) && addr >= V5_QUERY && addr <= V5_FLASH_CTRL) {
			em_u8 c = v5_write(m, addr, buf[0]);

			if (c)
				v5_cmd = m->v5_cmd = c;
			buf++;
			len--;
			addr++;
			continue;
		}
		switch (addr) {
		case F01_CTRL0:
			m->ctrl0 = buf[0];
			if (m->ctrl0 & 0x80)
				m->dev_status &= (em_u8)~F01_ST_UNCONFIGURED;
			break;
		case F01_IRQ_EN:
			m->irq_enable = buf[0] & (IRQ_F01 | IRQ_F34);
			break;
		case F01_CMD:
			if (buf[0] & 1) {
				rmi4_model_reset(m);
				return;
			}
			break;
		case F34_PARTITION:
			m->partition = buf[0];
			break;
		case F34_BLOCK:
		case F34_LENGTH: {
			em_u16 *r = addr == F34_BLOCK ? &m->block : &m->length;

			if (len >= 2) {
				*r = em_get_le16(buf);
				n = 2;
			} else {
				*r = (em_u16)((*r & 0xff00) | buf[0]);
			}
			break;
		}
		case F34_COMMAND:
			m->command = buf[0];
			m->payload_in = 0;
			cmd_written = true;
			break;
		default:
			if (addr >= F34_PAYLOAD && addr < F34_PAYLOAD + payload_size()) {
				em_u32 off = addr - F34_PAYLOAD;

				n = payload_size() - off;
				if (n > len)
					n = len;
				em_memcpy(m->payload + off, buf, n);
				if (off + n > m->payload_in)
					m->payload_in = off + n;
			}
			break;
		}
		buf += n;
		len -= n;
		addr++;
	}
	if (v5_cmd)
		v5_run(m, v5_cmd);
	if (cmd_written)
		run_command(m);
	if (m->command == CMD_WRITE && m->payload_in &&
	    m->payload_in >= (em_u32)m->length * RMI4_MODEL_BLOCK) {
		m->payload_in = 0;
		finish(m, program(m));
	}
}

/* ------------------------------------------------------------ SMBus */

static bool for_us(const struct rmi4_model *m, em_u16 addr)
{
	return m->powered && (!m->cfg.addr || m->cfg.addr == addr);
}

/* ------------------------------------------------------------ I2C */

#define I2C_PAGE_SELECT 0xff

static em_u16 i2c_reg(const struct rmi4_model *m)
{
	return (em_u16)(m->page << 8 | m->ptr);
}

/* rmi_i2c's writes: [0xff, page], [low byte] before a read, [low byte,
 * data...] */
static int i2c_write(struct rmi4_model *m, const em_u8 *buf, em_u16 len)
{
	m->ptr = buf[0];
	if (len < 2)
		return EM_ACK;
	if (buf[0] == I2C_PAGE_SELECT) {
		m->page = buf[1];
		return EM_ACK;
	}
	reg_write_stream(m, i2c_reg(m), buf + 1, (em_u32)len - 1);
	return EM_ACK;
}

static int i2c_read(struct rmi4_model *m, em_u8 *buf, em_u16 len)
{
	if (m->ptr == I2C_PAGE_SELECT) {
		em_memset(buf, m->page, len);
		return EM_ACK;
	}
	reg_read_stream(m, i2c_reg(m), buf, len);
	return EM_ACK;
}

static int m_write(void *chip, em_u16 addr, const em_u8 *buf, em_u16 len)
{
	struct rmi4_model *m = chip;
	em_u8 cmd;

	if (!for_us(m, addr))
		return EM_NAK_ADDR;
	if (!len)
		return EM_ACK;
	if (m->cfg.bus == RMI4_MODEL_I2C)
		return i2c_write(m, buf, len);
	cmd = buf[0];
	m->cmd = cmd;
	m->have_cmd = true;
	if (len == 1)
		return EM_ACK; /* a read follows */
	/* a block write: command, count, data */
	if (buf[1] > 32 || buf[1] + 2 > len)
		return EM_NAK_DATA;
	if (cmd >= SMB_MAP_CMD && cmd < SMB_MAP_CMD + 8) {
		struct rmi4_map_entry *e = &m->map[cmd - SMB_MAP_CMD];

		if (buf[1] != 4)
			return EM_NAK_DATA;
		e->addr = em_get_le16(buf + 2);
		e->count = buf[4];
		e->flags = buf[5];
	} else if (cmd < 8) {
		struct rmi4_map_entry *e = &m->map[cmd];

		if (e->flags & 1)
			reg_write_stream(m, e->addr, buf + 2, buf[1]);
	}
	m->have_cmd = false;
	return EM_ACK;
}

static int m_read(void *chip, em_u16 addr, em_u8 *buf, em_u16 len)
{
	struct rmi4_model *m = chip;

	if (!for_us(m, addr))
		return EM_NAK_ADDR;
	em_memset(buf, 0, len);
	if (m->cfg.bus == RMI4_MODEL_I2C)
		return len ? i2c_read(m, buf, len) : EM_ACK;
	if (!m->have_cmd || !len)
		return EM_ACK;
	if (m->cmd == SMB_VERSION_REG) {
		buf[0] = (em_u8)(m->cfg.smb_version - 1);
	} else if (m->cmd < 8) {
		const struct rmi4_map_entry *e = &m->map[m->cmd];
		em_u8 data[32];

		buf[0] = e->count;
		if (e->count && e->count <= 32) {
			reg_read_stream(m, e->addr, data, e->count);
			em_memcpy(buf + 1, data,
				  len - 1 < e->count ? (em_u32)len - 1 : e->count);
		}
	}
	m->have_cmd = false;
	return EM_ACK;
}

static void m_advance(void *chip, em_u64 now_ns)
{
	struct rmi4_model *m = chip;

	if (now_ns > m->now_ns)
		m->now_ns = now_ns;
}

static em_u64 m_next_event(const void *chip)
{
	const struct rmi4_model *m = chip;

	return m->notify_until > m->now_ns ? m->notify_until : EM_NEVER;
}

static bool m_irq(const void *chip)
{
	const struct rmi4_model *m = chip;

	if (m->cfg.bus == RMI4_MODEL_I2C)
		return m->powered && (m->irq_status & m->irq_enable);
	return m->powered && m->notify_until > m->now_ns;
}

static void m_set_power(void *chip, bool on)
{
	struct rmi4_model *m = chip;

	if (on == m->powered)
		return;
	m->powered = on;
	m->blocks_since_power = 0;
	if (on)
		boot(m);
	else
		m->notify_until = 0;
}

static void m_set_reset(void *chip, bool asserted)
{
	if (!asserted)
		rmi4_model_reset(chip);
}

const struct em_chip_ops rmi4_model_ops = {
	.name = "rmi4",
	.write = m_write,
	.read = m_read,
	.advance = m_advance,
	.next_event = m_next_event,
	.irq_asserted = m_irq,
	.set_power = m_set_power,
	.set_reset = m_set_reset,
};

/* ------------------------------------------------------------ image */

#define IMG_DESC 32

static void put_desc(em_u8 *img, em_u32 at, em_u16 id, em_u32 content, em_u32 len)
{
	em_memset(img + at, 0, IMG_DESC);
	em_put_le32(img + at, rmi4_model_crc32(img + content, len));
	em_put_le16(img + at + 4, id);
	em_put_le32(img + at + 24, len);
	em_put_le32(img + at + 28, content);
}

em_u32 rmi4_model_make_image(em_u8 *img, em_u32 build_id, em_u32 config_id,
			     const char *product_id, enum rmi4_image_form form)
{
	/* descriptors from 0x20, their lists from 0x100, contents from 0x160;
	 * the general information holds the build id at 4 (where
	 * rmi_f34v7 reads it) and the product id at 0x18, as real images
	 * do (fwupd's synaptics-rmi plugin reads it there) */
	const em_u32 top = 0x20, d_cc = 0x40, d_cf = 0x60, d_fl = 0x80, d_bl = 0xa0,
		     d_gp = 0xc0, d_gi = 0xe0, list = 0x100, bl = 0x120, gi = 0x130,
		     gi_len = 0x24, cc = 0x160;
	const em_u32 cc_len = RMI4_MODEL_CORE_CODE_BLOCKS * RMI4_MODEL_BLOCK;
	const em_u32 cf = cc + cc_len,
		     cf_len = RMI4_MODEL_CORE_CONFIG_BLOCKS * RMI4_MODEL_BLOCK;
	const em_u32 fl = cf + cf_len, fl_len = RMI4_MODEL_FL_CONFIG_BLOCKS * RMI4_MODEL_BLOCK;
	const em_u32 gp = fl + fl_len;
	em_u32 gp_len = RMI4_MODEL_BL_CONFIG_BLOCKS * RMI4_MODEL_BLOCK;
	em_u32 total = gp + gp_len, i, n = 0;

	em_memset(img, 0, RMI4_MODEL_IMAGE_MAX);
	if (form == RMI4_IMG_BL_CONFIG_SIZE)
		gp_len -= RMI4_MODEL_BLOCK;
	/* contents */
	rmi4_model_make_core_code(img + cc, build_id, product_id);
	if (form == RMI4_IMG_BAD_CHECKSUM)
		img[cc + cc_len - 1] ^= 0x5a;
	for (i = 0; i < cf_len; i++)
		img[cf + i] = (em_u8)(i * 3);
	em_put_le32(img + cf, config_id);
	rmi4_model_partition_table(img + fl);
	for (i = 0; i < gp_len; i++)
		img[gp + i] = (em_u8)(0xa0 + i);
	em_put_le32(img + bl, 7);
	em_put_le32(img + bl + 4, d_gp);
	em_put_le32(img + gi + 4, build_id);
	for (i = 0; i < 10 && product_id[i]; i++)
		img[gi + 0x18 + i] = (em_u8)product_id[i];
	/* descriptors */
	put_desc(img, d_cc, 18, cc, cc_len);
	put_desc(img, d_cf, 19, cf, cf_len);
	put_desc(img, d_fl, 15, fl, fl_len);
	put_desc(img, d_gp, 17, gp, gp_len);
	put_desc(img, d_bl, 3, bl, 8);
	put_desc(img, d_gi, 13, gi, gi_len);
	em_put_le32(img + list + 4 * n++, d_cc);
	em_put_le32(img + list + 4 * n++, d_cf);
	if (form != RMI4_IMG_NO_FLASH_CONFIG)
		em_put_le32(img + list + 4 * n++, d_fl);
	em_put_le32(img + list + 4 * n++, d_bl);
	em_put_le32(img + list + 4 * n++, d_gi);
	put_desc(img, top, 0, list, 4 * n);
	/* header */
	img[7] = form == RMI4_IMG_BAD_HEADER ? 0x0f : 0x10;
	em_put_le32(img + 12, top);
	em_put_le32(img, rmi4_model_crc32(img + 4, total - 4));
	return total;
}

em_u32 rmi4_model_make_image_v5(em_u8 *img, em_u32 build_id, em_u32 config_id,
				const char *product_id, em_u8 bl_version)
{
	const em_u32 fw_len = RMI4_MODEL_V5_FW_BLOCKS * RMI4_MODEL_BLOCK;
	const em_u32 cfg_len = RMI4_MODEL_V5_CONFIG_BLOCKS * RMI4_MODEL_BLOCK;
	em_u8 *cfg = img + 0x100 + fw_len;
	em_u32 i;

	em_memset(img, 0, RMI4_MODEL_IMAGE_MAX);
	img[7] = bl_version;
	em_put_le32(img + 8, fw_len);
	em_put_le32(img + 12, cfg_len);
	for (i = 0; i < 10 && product_id[i]; i++)
		img[0x10 + i] = (em_u8)product_id[i];
	make_code(img + 0x100, fw_len, build_id, product_id);
	for (i = 0; i < cfg_len; i++)
		cfg[i] = (em_u8)(i * 3);
	em_put_le32(cfg, config_id);
	em_put_le32(img, rmi4_model_crc32(img + 4, RMI4_MODEL_V5_IMAGE_SIZE - 4));
	return RMI4_MODEL_V5_IMAGE_SIZE;
}
