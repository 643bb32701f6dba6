// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Elan touchscreen family of the emulator: an eKTH (elants_model) as
 * an i2c chip with an INT pin, elants_i2c its driver; its board keys and
 * statistics.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elants_model.h"
#include "emub-elants.h"
#include "emub-priv.h"

extern const struct emub_driver_ops emub_drv_elants;

/* desc->fam; the chip's chg_gpio is its INT pin */
struct elants_board {
	guint32 hw_version, fw_version, bc_version;
	bool has_hw;
	bool flash_corrupt;	/* elants.flash = corrupt: recovery at power-up */
	gint32 nak_iap_page;	/* fault.iap_nak_page; -1 never */
	bool refuse_iap;	/* fault.refuse_iap */
	bool iap_ignores_reset; /* fault.iap_ignores_reset */
};

static const char *const keys[] = {
	"elants.hw_version",  "elants.fw_version", "elants.bc_version",	      "elants.flash",
	"fault.iap_nak_page", "fault.refuse_iap",  "fault.iap_ignores_reset", NULL,
};

static void init(struct emub_chip_desc *c)
{
	struct elants_board *b = c->fam;

	b->nak_iap_page = -1;
	b->bc_version = 0x6401;
}

static int parse_key(struct emub_chip_desc *c, const char *k, const char *s,
		     const struct emub_parse *p)
{
	struct elants_board *b = c->fam;
	guint32 v;

	if (!strcmp(k, "elants.hw_version")) {
		b->has_hw = true;
		return emub_key_u32(p, k, s, 0xfffe, &b->hw_version);
	}
	if (!strcmp(k, "elants.fw_version"))
		return emub_key_u32(p, k, s, 0xfffe, &b->fw_version);
	if (!strcmp(k, "elants.bc_version"))
		return emub_key_u32(p, k, s, 0xffff, &b->bc_version);
	if (!strcmp(k, "elants.flash")) {
		if (!strcmp(s, "corrupt"))
			b->flash_corrupt = true;
		else if (!strcmp(s, "valid"))
			b->flash_corrupt = false;
		else
			return emub_parse_err(
				p, "[%s] elants.flash: \"%s\" is neither valid nor corrupt",
				p->grp, s);
		return 0;
	}
	if (!strcmp(k, "fault.iap_nak_page")) {
		if (!emub_parse_u32(s, &v) || v > 511)
			return emub_parse_err(
				p, "[%s] fault.iap_nak_page: \"%s\" is not a page 0-511",
				p->grp, s);
		b->nak_iap_page = (gint32)v;
		return 0;
	}
	if (!strcmp(k, "fault.refuse_iap"))
		return emub_key_bool(p, k, s, &b->refuse_iap);
	return emub_key_bool(p, k, s, &b->iap_ignores_reset);
}

static int check(struct emub_chip_desc *c, const struct emub_parse *p)
{
	if (!((struct elants_board *)c->fam)->has_hw)
		return emub_parse_err(
			p, "[%s] elants.hw_version: missing (the FW ID, e.g. 0x2a1c)", p->grp);
	return 0;
}

static int create(struct emub_chip *c)
{
	const struct elants_board *b = c->desc->fam;
	struct elants_model *m = g_new0(struct elants_model, 1);
	struct elants_model_cfg cfg = {
		.addr = c->desc->addr,
		.hw_version = (em_u16)b->hw_version,
		.bc_version = (em_u16)b->bc_version,
		.test_version = 0x0101,
		.remark_id = 0,
		.rows = 31,
		.cols = 18,
		.osr = 64,
		.nak_iap_page = b->nak_iap_page,
		.refuse_iap = b->refuse_iap,
		.iap_ignores_reset = b->iap_ignores_reset,
	};
	em_u8 *img = NULL;
	em_u32 len = 0;

	if (b->fw_version) {
		len = 64 * ELANTS_MODEL_PAGE;
		img = g_malloc(len);
		elants_model_make_image(img, 64, (em_u16)b->fw_version, (em_u16)b->hw_version,
					0);
		if (b->flash_corrupt)
			img[100] ^= 0xff;
	}
	elants_model_init(m, &cfg, img, len);
	g_free(img);
	c->model = m;
	c->ops = &elants_model_ops;
	return 0;
}

static void stats_json(struct emub_chip *c, FILE *f)
{
	struct elants_model *m = c->model;
	const struct elants_model_stats *s = elants_model_stats(m);

	fprintf(f,
		", \"mode\": %d, \"fw_version\": \"%04x\", \"stats\": "
		"{\"iap_entries\": %u, \"pages_written\": %u, \"hellos\": %u}",
		(int)elants_model_mode(m), elants_model_fw_version(m), s->iap_entries,
		s->pages_written, s->hellos);
}

static const struct emub_chip_model elants = {
	.names = (const char *const[]){ "elants", NULL },
	.keys = keys,
	.fam_size = sizeof(struct elants_board),
	.init = init,
	.parse_key = parse_key,
	.check = check,
	.create = create,
	.stats_json = stats_json,
	.int_gpio = true,
};

struct elants_model *emub_chip_elants(struct emub *eb, const char *dev)
{
	return emub_chip_model_of(eb, dev, &elants_model_ops);
}

/* ------------------------------------------------------------ rehearsal */

/*
 * A profile's Elan touchscreen: the hardware id the database names
 * (default 2a1c), firmware 0x0001 unless --fw-version says (both hex, as
 * the database writes them); --bootloader: a flash whose sum is broken, so
 * the chip boots into recovery.  ACPI boards enumerate it as ELAN0001.
 */
static int elants_rehearse(struct emub_profile_ctl *c)
{
	const char *hw = emub_profile_hardware(c), *fw = emub_profile_fw_version(c);
	char *end;

	if (!hw)
		hw = "2a1c";
	if (!*hw || strtoul(hw, &end, 16) > 0xffff || *end)
		return emub_profile_err(c, "hardware",
					"elants \"%s\" is not a 16-bit hexadecimal id", hw);
	if (fw && (!*fw || strtoul(fw, &end, 16) > 0xffff || *end))
		return emub_profile_err(c, "fw-version",
					"elants \"%s\" is not a 16-bit hexadecimal version",
					fw);
	emub_profile_ident(c, "elants", "ELAN0001", "elan,ekth3500");
	emub_profile_key(c, "elants.hw_version", "0x%s", hw);
	emub_profile_key(c, "elants.fw_version", "0x%s", fw ? fw : "0001");
	emub_profile_key(c, "elants.flash", "%s",
			 emub_profile_bootloader(c) ? "corrupt" : "valid");
	return 0;
}

const struct emub_family emub_family_elants = {
	.rehearse = elants_rehearse,
	.name = "elants",
	.chips = (const struct emub_chip_model *const[]){ &elants, NULL },
	.drivers = (const struct emub_driver_ops *const[]){ &emub_drv_elants, NULL },
};
