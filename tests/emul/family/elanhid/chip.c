// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Elan HID touchpad family of the emulator: an Elan touchpad that
 * speaks HID over I2C (elanhid_model) with an INT pin, i2c_hid_of /
 * i2c_hid_acpi its drivers; its board keys, statistics and the
 * hid-descr-addr property of its device-tree node.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "elanhid-emul.h"
#include "elanhid_model.h"
#include "emub-elanhid.h"

/* desc->fam */
struct elanhid_board {
	guint32 module_id, hid_pid, fw_version, desc_reg, iap_start;
	bool has_id;
	bool iap_desc_ff;
};

static const char *const keys[] = {
	"elanhid.module_id",
	"elanhid.hid_pid",
	"elanhid.fw_version",
	"elanhid.desc_reg",
	"elanhid.iap_start",
	"elanhid.iap_descriptor",
	NULL,
};

static void init(struct emub_chip_desc *c)
{
	struct elanhid_board *b = c->fam;

	b->hid_pid = 0x3195;
	b->desc_reg = 0x0001;
	b->iap_desc_ff = true;
}

static int parse_key(struct emub_chip_desc *c, const char *k, const char *s,
		     const struct emub_parse *p)
{
	struct elanhid_board *b = c->fam;

	if (!strcmp(k, "elanhid.module_id")) {
		b->has_id = true;
		return emub_key_u32(p, k, s, 0xffff, &b->module_id);
	}
	if (!strcmp(k, "elanhid.hid_pid"))
		return emub_key_u32(p, k, s, 0xffff, &b->hid_pid);
	if (!strcmp(k, "elanhid.fw_version"))
		return emub_key_u32(p, k, s, 255, &b->fw_version);
	if (!strcmp(k, "elanhid.desc_reg"))
		return emub_key_u32(p, k, s, 0xffff, &b->desc_reg);
	if (!strcmp(k, "elanhid.iap_start")) {
		if (!emub_parse_u32(s, &b->iap_start) || !b->iap_start ||
		    b->iap_start >= ELANHID_MODEL_PAGES)
			return emub_parse_err(p, "[%s] %s: \"%s\" is not a page 1-%d", p->grp,
					      k, s, ELANHID_MODEL_PAGES - 1);
		return 0;
	}
	if (!strcmp(s, "ff") || !strcmp(s, "zero")) {
		b->iap_desc_ff = !strcmp(s, "ff");
		return 0;
	}
	return emub_parse_err(p, "[%s] %s: \"%s\" is not ff or zero", p->grp, k, s);
}

static int check(struct emub_chip_desc *c, const struct emub_parse *p)
{
	if (!((struct elanhid_board *)c->fam)->has_id)
		return emub_parse_err(p, "[%s] elanhid.module_id: missing (e.g. 0x00f1)",
				      p->grp);
	return 0;
}

static int create(struct emub_chip *c)
{
	const struct elanhid_board *b = c->desc->fam;
	struct elanhid_model *m = g_new0(struct elanhid_model, 1);
	struct elanhid_model_cfg cfg = {
		.addr = c->desc->addr,
		.desc_reg = (em_u16)b->desc_reg,
		.module_id = (em_u16)b->module_id,
		.hid_pid = (em_u16)b->hid_pid,
		.max_x = 3209,
		.max_y = 2097,
		.iap_start_page = (em_u16)b->iap_start,
		.iap_desc_ff = b->iap_desc_ff,
	};
	em_u8 *img = NULL;

	if (b->fw_version) {
		img = g_malloc(ELANHID_MODEL_FLASH);
		elanhid_model_make_image(img, (em_u16)b->module_id, (em_u8)b->fw_version,
					 (em_u16)b->iap_start);
	}
	elanhid_model_init(m, &cfg, img);
	g_free(img);
	c->model = m;
	c->ops = &elanhid_model_ops;
	return 0;
}

static void stats_json(struct emub_chip *c, FILE *f)
{
	struct elanhid_model *m = c->model;
	const struct elanhid_model_stats *s = elanhid_model_stats(m);

	fprintf(f,
		", \"mode\": %d, \"fw_version\": %u, \"stats\": {\"resets\": %u, "
		"\"pages_written\": %u, \"page_errors\": %u, \"intf_errors\": %u, "
		"\"desc_reads\": %u, \"reports_read\": %u}",
		(int)elanhid_model_mode(m), elanhid_model_fw_version(m), s->resets,
		s->pages_written, s->page_errors, s->intf_errors, s->desc_reads,
		s->reports_read);
}

/* i2c-hid-of.c reads hid-descr-addr (Documentation/devicetree/bindings/
 * input/hid-over-i2c.yaml); the interrupt as the generic properties. */
static void dt_props(const struct emub_chip_desc *c, struct emub_dt_node *n)
{
	emub_dt_prop_u32(n, "hid-descr-addr", ((const struct elanhid_board *)c->fam)->desc_reg);
	emub_dt_generic_props(c, n);
}

static const struct emub_chip_model elanhid = {
	.names = (const char *const[]){ "elanhid", NULL },
	.keys = keys,
	.fam_size = sizeof(struct elanhid_board),
	.init = init,
	.parse_key = parse_key,
	.check = check,
	.create = create,
	.stats_json = stats_json,
	.dt_props = dt_props,
	.int_gpio = true,
};

guint16 elanhid_desc_reg(const struct emub_chip_desc *c)
{
	/* only this family's chips carry the property; i2c_hid's default
	 * elsewhere is the register most parts use */
	return c->cm == &elanhid ? (guint16)((const struct elanhid_board *)c->fam)->desc_reg
				 : 0x0001;
}

struct elanhid_model *emub_chip_elanhid(struct emub *eb, const char *dev)
{
	return emub_chip_model_of(eb, dev, &elanhid_model_ops);
}

struct touch {
	unsigned contact, x, y;
	bool down;
};

static int touch(void *model, void *arg)
{
	struct touch *t = arg;

	return elanhid_model_touch(model, t->contact, (em_u16)t->x, (em_u16)t->y, t->down)
		       ? -EIO
		       : 0;
}

int emub_elanhid_touch(struct emub *eb, const char *dev, unsigned contact, unsigned x,
		       unsigned y, bool down)
{
	struct touch t = { contact, x, y, down };

	return emub_chip_poke(eb, dev, &elanhid_model_ops, touch, &t);
}

const struct emub_family emub_family_elanhid = {
	.name = "elanhid",
	.chips = (const struct emub_chip_model *const[]){ &elanhid, NULL },
	.drivers = (const struct emub_driver_ops *const[]){ &emub_drv_i2c_hid_of,
							    &emub_drv_i2c_hid_acpi, NULL },
};
