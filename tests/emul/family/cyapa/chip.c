// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Cypress trackpad family of the emulator: a Gen3 trackpad
 * (cyapa_model, at 0x67) or, with cyapa.gen = 5 or 6, a Gen5 or Gen6 PIP
 * trackpad (cyapa_pip_model, at 0x24), with an INT pin, cyapa its driver; its board
 * keys, statistics and touches.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cyapa_model.h"
#include "cyapa_pip_model.h"
#include "emub-cyapa.h"
#include "emub-priv.h"

extern const struct emub_driver_ops emub_drv_cyapa;

/* desc->fam */
struct cyapa_board {
	char product[16];
	guint32 major, minor;
	bool empty;	   /* cyapa.fw_version = none: erased, the chip in its bootloader */
	gint32 power_loss; /* fault.bl_power_loss: the n-th block; 0 never */
	guint32 block_ms, erase_ms;
	guint32 gen; /* cyapa.gen: 3, or 5 or 6 (PIP) */
};

static const char *const keys[] = {
	"cyapa.product_id",
	"cyapa.fw_version",
	"cyapa.block_ms",
	"cyapa.erase_ms",
	"fault.bl_power_loss",
	"cyapa.gen",
	NULL,
};

static void init(struct emub_chip_desc *c)
{
	struct cyapa_board *b = c->fam;

	g_strlcpy(b->product, "CYTRA-116002-00", sizeof(b->product));
	b->major = 1;
	b->minor = 0;
	b->gen = 3;
}

/* "CYTRA-" + 6 + "-" + 2 characters, as cyapa shows it */
static bool product_ok(const char *s)
{
	return strlen(s) == 15 && !strncmp(s, "CYTRA-", 6) && s[12] == '-';
}

static int parse_key(struct emub_chip_desc *c, const char *k, const char *s,
		     const struct emub_parse *p)
{
	struct cyapa_board *b = c->fam;
	guint32 v;

	if (!strcmp(k, "cyapa.product_id")) {
		if (!product_ok(s))
			return emub_parse_err(
				p, "[%s] cyapa.product_id: \"%s\" is not CYTRA-NNNNNN-NN",
				p->grp, s);
		g_strlcpy(b->product, s, sizeof(b->product));
		return 0;
	}
	if (!strcmp(k, "cyapa.fw_version")) {
		unsigned maj, min;
		char end;

		if (!strcmp(s, "none")) {
			b->empty = true;
			return 0;
		}
		if (sscanf(s, "%u.%u%c", &maj, &min, &end) != 2 || maj > 255 || min > 255)
			return emub_parse_err(
				p, "[%s] cyapa.fw_version: \"%s\" is not MAJOR.MINOR or none",
				p->grp, s);
		b->empty = false;
		b->major = maj;
		b->minor = min;
		return 0;
	}
	if (!strcmp(k, "cyapa.block_ms"))
		return emub_key_u32(p, k, s, 1000, &b->block_ms);
	if (!strcmp(k, "cyapa.erase_ms"))
		return emub_key_u32(p, k, s, 20000, &b->erase_ms);
	if (!strcmp(k, "cyapa.gen")) {
		if (strcmp(s, "3") && strcmp(s, "5") && strcmp(s, "6"))
			return emub_parse_err(p, "[%s] cyapa.gen: \"%s\" is not 3, 5 or 6",
					      p->grp, s);
		b->gen = (guint32)(s[0] - '0');
		return 0;
	}
	/* a Gen3 block 1-482, or a Gen5/Gen6 row command 1-465 */
	if (!emub_parse_u32(s, &v) || v < 1 || v > 482)
		return emub_parse_err(p,
				      "[%s] fault.bl_power_loss: \"%s\" is not a block 1-482",
				      p->grp, s);
	b->power_loss = (gint32)v;
	return 0;
}

static int create_pip(struct emub_chip *c)
{
	const struct cyapa_board *b = c->desc->fam;
	struct cyapa_pip_model *m = g_new0(struct cyapa_pip_model, 1);
	struct cyapa_pip_model_cfg cfg = {
		.addr = c->desc->addr,
		.gen = (int)b->gen,
		.row_ns = (guint64)b->block_ms * EM_NSEC_PER_MSEC,
		.erase_ns = (guint64)b->erase_ms * EM_NSEC_PER_MSEC,
		.power_loss_row = b->power_loss,
	};
	em_u8 *file = NULL;

	if (!b->empty) {
		file = g_malloc(CYAPA_PIP_FILE_SIZE);
		cyapa_pip_make_file(file, (int)b->gen, b->product, (em_u8)b->major,
				    (em_u8)b->minor);
	}
	cyapa_pip_model_init(m, &cfg, file);
	g_free(file);
	c->model = m;
	c->ops = &cyapa_pip_model_ops;
	return 0;
}

static int create(struct emub_chip *c)
{
	const struct cyapa_board *b = c->desc->fam;
	struct cyapa_model *m = g_new0(struct cyapa_model, 1);
	struct cyapa_model_cfg cfg = {
		.addr = c->desc->addr,
		.block_ns = (guint64)b->block_ms * EM_NSEC_PER_MSEC,
		.erase_ns = (guint64)b->erase_ms * EM_NSEC_PER_MSEC,
		.power_loss_block = b->power_loss,
	};
	em_u8 *file = NULL;

	if (b->gen >= 5)
		return create_pip(c);
	if (!b->empty) {
		file = g_malloc(CYAPA_MODEL_FILE_SIZE);
		cyapa_model_make_file(file, b->product, (em_u8)b->major, (em_u8)b->minor);
	}
	cyapa_model_init(m, &cfg, file);
	g_free(file);
	c->model = m;
	c->ops = &cyapa_model_ops;
	return 0;
}

static void stats_json_pip(struct emub_chip *c, FILE *f)
{
	static const char *const modes[] = { "off", "bl", "app" };
	struct cyapa_pip_model *m = c->model;
	const struct cyapa_pip_model_stats *s = cyapa_pip_model_stats(m);
	int v = cyapa_pip_model_fw_version(m);

	fprintf(f, ", \"mode\": \"%s\", \"fw_version\": ", modes[cyapa_pip_model_mode(m)]);
	if (v < 0)
		fputs("null", f);
	else
		fprintf(f, "\"%d.%d\"", v >> 8, v & 0xff);
	fprintf(f,
		", \"stats\": {\"initiates\": %u, \"rows_written\": %u, \"row_errors\": %u, "
		"\"launches\": %u, \"launch_refused\": %u, \"bl_enters\": %u, "
		"\"power_losses\": %u}",
		s->initiates, s->rows_written, s->row_errors, s->launches, s->launch_refused,
		s->bl_enters, s->power_losses);
}

static void stats_json(struct emub_chip *c, FILE *f)
{
	static const char *const modes[] = { "off", "bl-idle", "bl-active", "app" };
	struct cyapa_model *m = c->model;
	const struct cyapa_model_stats *s;
	int v;

	if (c->ops == &cyapa_pip_model_ops) {
		stats_json_pip(c, f);
		return;
	}
	s = cyapa_model_stats(m);
	v = cyapa_model_fw_version(m);

	fprintf(f, ", \"mode\": \"%s\", \"fw_version\": ", modes[cyapa_model_mode(m)]);
	if (v < 0)
		fputs("null", f);
	else
		fprintf(f, "\"%d.%d\"", v >> 8, v & 0xff);
	fprintf(f,
		", \"stats\": {\"initiates\": %u, \"blocks_written\": %u, \"block_errors\": %u, "
		"\"launches\": %u, \"launch_refused\": %u, \"soft_resets\": %u, "
		"\"power_losses\": %u, \"frames_read\": %u}",
		s->initiates, s->blocks_written, s->block_errors, s->launches,
		s->launch_refused, s->soft_resets, s->power_losses, s->frames_read);
}

static const struct emub_chip_model cyapa = {
	.names = (const char *const[]){ "cyapa", NULL },
	.keys = keys,
	.fam_size = sizeof(struct cyapa_board),
	.init = init,
	.parse_key = parse_key,
	.create = create,
	.stats_json = stats_json,
	.int_gpio = true,
};

struct cyapa_model *emub_chip_cyapa(struct emub *eb, const char *dev)
{
	return emub_chip_model_of(eb, dev, &cyapa_model_ops);
}

struct cyapa_pip_model *emub_chip_cyapa_pip(struct emub *eb, const char *dev)
{
	return emub_chip_model_of(eb, dev, &cyapa_pip_model_ops);
}

struct touch {
	const struct cyapa_model_touch *t;
	unsigned int n;
};

static int touch(void *model, void *arg)
{
	struct touch *t = arg;

	return cyapa_model_touch(model, t->t, (int)MIN(t->n, 6u), 0) ? 0 : -EAGAIN;
}

int emub_cyapa_touch(struct emub *eb, const char *dev, const struct cyapa_model_touch *t,
		     unsigned int n)
{
	struct touch a = { .t = t, .n = n };

	return emub_chip_poke(eb, dev, &cyapa_model_ops, touch, &a);
}

/* No rehearsal hook yet (tests/emul/README.md): board profiles of cyapa
 * are refused by rehearse. */
const struct emub_family emub_family_cyapa = {
	.name = "cyapa",
	.chips = (const struct emub_chip_model *const[]){ &cyapa, NULL },
	.drivers = (const struct emub_driver_ops *const[]){ &emub_drv_cyapa, NULL },
};
