// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Elan touchpad family of the emulator: an Elan i2c touchpad
 * (elantp_model) with an INT pin, or the same part speaking SMBus
 * (elantp.transport = smbus, on an smbus_only adapter, its interrupt the
 * adapter's Host Notify where it has one), elan_i2c its driver; its board
 * keys and statistics.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "elantp_model.h"
#include "emub-elantp.h"
#include "emub-priv.h"

extern const struct emub_driver_ops emub_drv_elan_i2c;

/* desc->fam */
struct elantp_board {
	guint32 product_id;
	bool has_id;
	guint32 fw_version; /* 0: empty flash, the chip in IAP */
	gint32 fail_page;   /* fault.iap_page_error; -1 never */
	gint32 power_loss;  /* fault.iap_power_loss; -1 never */
	bool smbus;	    /* elantp.transport = smbus */
	guint32 iap_start;  /* elantp.iap_start_page; 0: the default, 32 */
};

static const char *const keys[] = {
	"elantp.product_id",
	"elantp.fw_version",
	"elantp.transport",
	"elantp.iap_start_page",
	"fault.iap_page_error",
	"fault.iap_power_loss",
	NULL,
};

static void init(struct emub_chip_desc *c)
{
	struct elantp_board *b = c->fam;

	b->fail_page = -1;
	b->power_loss = -1;
}

static int parse_key(struct emub_chip_desc *c, const char *k, const char *s,
		     const struct emub_parse *p)
{
	struct elantp_board *b = c->fam;
	guint32 v;

	if (!strcmp(k, "elantp.product_id")) {
		b->has_id = true;
		return emub_key_u32(p, k, s, 0xffff, &b->product_id);
	}
	if (!strcmp(k, "elantp.fw_version"))
		return emub_key_u32(p, k, s, 255, &b->fw_version);
	if (!strcmp(k, "elantp.iap_start_page")) {
		if (!emub_parse_u32(s, &v) || v < 1 || v > 511)
			return emub_parse_err(
				p, "[%s] elantp.iap_start_page: \"%s\" is not a page 1-511",
				p->grp, s);
		b->iap_start = v;
		return 0;
	}
	if (!strcmp(k, "elantp.transport")) {
		if (strcmp(s, "i2c") && strcmp(s, "smbus"))
			return emub_parse_err(
				p, "[%s] elantp.transport: \"%s\" is not i2c or smbus", p->grp,
				s);
		b->smbus = !strcmp(s, "smbus");
		return 0;
	}
	if (!strcmp(k, "fault.iap_page_error")) {
		if (!emub_parse_u32(s, &v) || v > 511)
			return emub_parse_err(
				p, "[%s] fault.iap_page_error: \"%s\" is not a page 0-511",
				p->grp, s);
		b->fail_page = (gint32)v;
		return 0;
	}
	if (!emub_parse_u32(s, &v) || v < 1 || v > 511)
		return emub_parse_err(p,
				      "[%s] fault.iap_power_loss: \"%s\" is not a page 1-511",
				      p->grp, s);
	b->power_loss = (gint32)v;
	return 0;
}

static int check(struct emub_chip_desc *c, const struct emub_parse *p)
{
	if (!((struct elantp_board *)c->fam)->has_id)
		return emub_parse_err(p, "[%s] elantp.product_id: missing (e.g. 18)", p->grp);
	return 0;
}

static int create(struct emub_chip *c)
{
	const struct elantp_board *b = c->desc->fam;
	struct elantp_model *m = g_new0(struct elantp_model, 1);
	struct elantp_model_cfg cfg = {
		.addr = c->desc->addr,
		.product_id = (em_u16)b->product_id,
		.sm_version = 3,
		.iap_version = 0,
		.max_x = 3052,
		.max_y = 1888,
		.fail_page = b->fail_page,
		.power_loss_page = b->power_loss,
		.smbus = b->smbus,
		.iap_start_page = (em_u16)b->iap_start,
	};
	em_u8 *img = NULL;

	if (b->fw_version) {
		img = g_malloc(ELANTP_MODEL_FLASH);
		elantp_model_make_image_at(img, (em_u16)b->product_id, (em_u8)b->fw_version,
					   (em_u16)(b->iap_start ? b->iap_start : 32));
	}
	elantp_model_init(m, &cfg, img);
	g_free(img);
	c->model = m;
	c->ops = &elantp_model_ops;
	return 0;
}

static void stats_json(struct emub_chip *c, FILE *f)
{
	struct elantp_model *m = c->model;
	const struct elantp_model_stats *s = elantp_model_stats(m);

	fprintf(f,
		", \"mode\": %d, \"fw_version\": %u, \"stats\": "
		"{\"iap_entries\": %u, \"pages_written\": %u, \"resets\": %u}",
		(int)elantp_model_mode(m), elantp_model_fw_version(m), s->iap_entries,
		s->pages_written, s->resets);
}

static const struct emub_chip_model elantp = {
	.names = (const char *const[]){ "elantp", NULL },
	.keys = keys,
	.fam_size = sizeof(struct elantp_board),
	.init = init,
	.parse_key = parse_key,
	.check = check,
	.create = create,
	.stats_json = stats_json,
	.int_gpio = true,
};

struct elantp_model *emub_chip_elantp(struct emub *eb, const char *dev)
{
	return emub_chip_model_of(eb, dev, &elantp_model_ops);
}

/* ------------------------------------------------------------ rehearsal */

/*
 * A profile's Elan touchpad: the product id the database names (default
 * 18), firmware 1 unless --fw-version says (its major number: the
 * database's "6.0" is 6); --bootloader: no firmware, the chip stays in
 * IAP.  ACPI boards enumerate it as ELAN0000.
 */
static int elantp_rehearse(struct emub_profile_ctl *c)
{
	const char *hw = emub_profile_hardware(c), *fw = emub_profile_fw_version(c);
	guint32 id, ver = 1;

	if (!hw)
		hw = "18";
	if (!emub_parse_u32(hw, &id) || id > 0xffff)
		return emub_profile_err(c, "hardware", "elantp \"%s\" is not a product id", hw);
	if (fw) {
		char *major = g_strndup(fw, strcspn(fw, "."));
		bool ok = emub_parse_u32(major, &ver) && ver >= 1 && ver <= 255;

		g_free(major);
		if (!ok)
			return emub_profile_err(c, "fw-version",
						"elantp \"%s\" is not a version 1..255", fw);
	}
	emub_profile_ident(c, "elantp", "ELAN0000", "elan,ekth6915");
	emub_profile_key(c, "elantp.product_id", "%u", (unsigned)id);
	emub_profile_key(c, "elantp.fw_version", "%u",
			 emub_profile_bootloader(c) ? 0 : (unsigned)ver);
	return 0;
}

const struct emub_family emub_family_elantp = {
	.rehearse = elantp_rehearse,
	.name = "elantp",
	.chips = (const struct emub_chip_model *const[]){ &elantp, NULL },
	.drivers = (const struct emub_driver_ops *const[]){ &emub_drv_elan_i2c, NULL },
};
