// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Goodix Berlin family of the emulator: the GT9916 (Berlin-D) and
 * GT9897 (Berlin-A) of berlin_model as spi chips, goodix-berlin-spi their
 * driver; their board keys.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "berlin_model.h"
#include "emub-berlin.h"
#include "emub-priv.h"
#include "emub-spi.h"

extern const struct emub_spi_driver emub_spi_drv_berlin;

/* desc->fam of a Berlin [spi-chip NAME] */
struct berlin_board {
	bool has_fw; /* berlin.firmware = VID: a valid image in flash */
	guint8 vid[4];
	char pid[9];
	guint32 size; /* application bytes (berlin.size) */
	bool has_config_id;
	guint32 config_id;
	guint32 ack_fail_at, checksum_fail_at, write_error_at, power_loss_at;
	bool checksum_fail_always, bad_version;
};

static const char *const keys[] = {
	"berlin.firmware",
	"berlin.pid",
	"berlin.config_id",
	"berlin.size",
	"fault.ack_fail_at",
	"fault.checksum_fail_at",
	"fault.write_error_at",
	"fault.power_loss_at",
	"fault.checksum_fail_always",
	"fault.bad_version",
	NULL,
};

static void init(struct emub_spi_dev_desc *c)
{
	struct berlin_board *b = c->fam;

	snprintf(b->pid, sizeof(b->pid), "9916");
	b->size = 65536;
}

static int parse_key(struct emub_spi_dev_desc *c, const char *k, const char *s,
		     const struct emub_parse *p)
{
	struct berlin_board *b = c->fam;
	const char *grp = p->grp;
	guint32 v;

	if (!strcmp(k, "berlin.firmware")) {
		unsigned int x[4];
		char tail;

		b->has_fw = false;
		if (!strcmp(s, "none"))
			return 0;
		if (strlen(s) != 8 ||
		    sscanf(s, "%2x%2x%2x%2x%c", &x[0], &x[1], &x[2], &x[3], &tail) != 4)
			return emub_parse_err(p,
					      "[%s] berlin.firmware: \"%s\" is not none or a "
					      "patch_vid of 8 hex digits",
					      grp, s);
		for (int i = 0; i < 4; i++)
			b->vid[i] = (guint8)x[i];
		b->has_fw = true;
		return 0;
	}
	if (!strcmp(k, "berlin.pid")) {
		if (!*s || strlen(s) > 8)
			return emub_parse_err(p,
					      "[%s] berlin.pid: \"%s\" is not 1..8 characters",
					      grp, s);
		snprintf(b->pid, sizeof(b->pid), "%s", s);
		return 0;
	}
	if (!strcmp(k, "berlin.config_id")) {
		if (!emub_parse_u32(s, &v))
			return emub_parse_err(p,
					      "[%s] berlin.config_id: \"%s\" is not a number",
					      grp, s);
		b->has_config_id = true;
		b->config_id = v;
		return 0;
	}
	if (!strcmp(k, "berlin.size")) {
		if (!emub_parse_u32(s, &v) || v < BERLIN_DESC_SIZE || v > BERLIN_APP_MAX ||
		    v & 1)
			return emub_parse_err(
				p, "[%s] berlin.size: \"%s\" is not an even size %d..%u", grp,
				s, BERLIN_DESC_SIZE, BERLIN_APP_MAX);
		b->size = v;
		return 0;
	}
	if (!strcmp(k, "fault.bad_version"))
		return emub_key_bool(p, k, s, &b->bad_version);
	if (!strcmp(k, "fault.checksum_fail_always"))
		return emub_key_bool(p, k, s, &b->checksum_fail_always);
	if (!emub_parse_u32(s, &v))
		return emub_parse_err(p, "[%s] %s: \"%s\" is not a number", grp, k, s);
	if (!strcmp(k, "fault.ack_fail_at"))
		b->ack_fail_at = v;
	else if (!strcmp(k, "fault.checksum_fail_at"))
		b->checksum_fail_at = v;
	else if (!strcmp(k, "fault.write_error_at"))
		b->write_error_at = v;
	else
		b->power_loss_at = v;
	return 0;
}

/* The flash holds a model-made application (berlin.firmware) and config
 * (berlin.config_id), or is erased. */
static int create(struct emub_spi_dev *d, guint64 now_ns)
{
	const struct emub_spi_dev_desc *c = d->desc;
	const struct berlin_board *b = c->fam;
	struct berlin_model *m = g_new0(struct berlin_model, 1);
	enum berlin_variant v = !strcmp(c->model, "gt9897") ? BERLIN_A : BERLIN_D;
	guint8 *flash = g_malloc(BERLIN_FLASH_SIZE);

	memset(flash, 0xff, BERLIN_FLASH_SIZE);
	if (b->has_fw)
		berlin_model_make_app(flash, b->size, b->pid, b->vid, 1);
	if (b->has_config_id)
		berlin_model_make_config(flash + BERLIN_CONFIG_ADDR, b->config_id, 1);
	m->faults.ack_fail_at = b->ack_fail_at;
	m->faults.checksum_fail_at = b->checksum_fail_at;
	m->faults.checksum_fail_always = b->checksum_fail_always;
	m->faults.write_error_at = b->write_error_at;
	m->faults.power_loss_at = b->power_loss_at;
	m->faults.bad_version = b->bad_version;
	berlin_model_init(m, v, flash, now_ns);
	g_free(flash);
	d->model = m;
	d->ops = &berlin_model_ops;
	return 0;
}

static const struct emub_spi_chip_model berlin = {
	.names = (const char *const[]){ "gt9916", "gt9897", NULL },
	.keys = keys,
	.fam_size = sizeof(struct berlin_board),
	.init = init,
	.parse_key = parse_key,
	.create = create,
};

struct berlin_model *emub_spi_berlin(struct emub *eb, const char *dev)
{
	return emub_spi_model_of(eb, dev, &berlin_model_ops);
}

const struct emub_family emub_family_berlin = {
	.name = "berlin",
	.spi_chips = (const struct emub_spi_chip_model *const[]){ &berlin, NULL },
	.spi_drivers = (const struct emub_spi_driver *const[]){ &emub_spi_drv_berlin, NULL },
};
