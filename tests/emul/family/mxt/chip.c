// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The maXTouch family of the emulator: the mxt_model presets as i2c chips
 * (atmel_mxt_ts) and as spi chips through the spi personality (mxt_spi,
 * mchp_spi_ts), their board keys, statistics and faults.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "emub-mxt.h"
#include "mxt-emul.h"
#include "mxt_model.h"
#include "mxt_spi.h"

static const char *const names[] = { "mxt224e", "mxt1664s", NULL };

/* ------------------------------------------------------------ shared keys */

static int parse_state(const struct emub_parse *p, const char *s, enum mxt_board_state *out)
{
	if (!strcmp(s, "app"))
		*out = MXT_BOARD_APP;
	else if (!strcmp(s, "bootloader"))
		*out = MXT_BOARD_BOOTLOADER;
	else if (!strcmp(s, "no-image"))
		*out = MXT_BOARD_NO_IMAGE;
	else
		return emub_parse_err(p,
				      "[%s] state: \"%s\" is not app, bootloader or no-image",
				      p->grp, s);
	return 0;
}

/* "1.0.AA": major.minor (decimal) and build (hex), as fw_version prints it. */
static int parse_fw_version(const struct emub_parse *p, const char *s, guint8 *ver,
			    guint8 *build)
{
	unsigned int maj, min, b;
	char tail;

	if (sscanf(s, "%u.%u.%x%c", &maj, &min, &b, &tail) != 3 || maj > 15 || min > 15 ||
	    b > 255)
		return emub_parse_err(
			p, "[%s] fw_version: \"%s\" is not MAJOR.MINOR.BUILD (e.g. 1.0.AA)",
			p->grp, s);
	*ver = (guint8)(maj << 4 | min);
	*build = (guint8)b;
	return 0;
}

/* One of the shared keys: 0 or the message; 1 when @k is none of them. */
static int parse_common(struct mxt_board_common *b, const char *k, const char *s,
			const struct emub_parse *p)
{
	if (!strcmp(k, "state"))
		return parse_state(p, s, &b->state);
	if (!strcmp(k, "fw_version")) {
		b->has_fw_version = true;
		return parse_fw_version(p, s, &b->fw_version, &b->fw_build);
	}
	if (!strcmp(k, "fault.crc_fail_frame"))
		return emub_key_u32(p, k, s, 0xffffff, &b->crc_fail_frame);
	if (!strcmp(k, "fault.power_loss_after"))
		return emub_key_u32(p, k, s, 0xffffff, &b->power_loss_after);
	if (!strcmp(k, "fault.crc_fail_always"))
		return emub_key_bool(p, k, s, &b->crc_fail_always);
	if (!strcmp(k, "fault.drop_object"))
		return emub_key_u32(p, k, s, 255, &b->drop_object);
	return 1;
}

/* The preset with the shared keys applied. */
static bool preset(const char *model, const struct mxt_board_common *b,
		   struct mxt_model_cfg *cfg)
{
	if (!mxt_model_preset(model, cfg))
		return false;
	if (b->has_fw_version) {
		cfg->fw_version = b->fw_version;
		cfg->fw_build = b->fw_build;
	}
	cfg->app_valid = b->state != MXT_BOARD_NO_IMAGE;
	cfg->start_in_bootloader = b->state != MXT_BOARD_APP;
	cfg->faults.crc_fail_frame = b->crc_fail_frame;
	cfg->faults.power_loss_after = b->power_loss_after;
	cfg->faults.crc_fail_always = b->crc_fail_always;
	cfg->faults.drop_object = (em_u8)b->drop_object;
	return true;
}

/* ------------------------------------------------------------ i2c */

static const char *const i2c_keys[] = {
	"state",
	"fw_version",
	"fault.crc_fail_frame",
	"fault.crc_fail_times",
	"fault.crc_fail_always",
	"bl_final_reset_unread",
	"fault.stuck_in_bootloader",
	"fault.power_loss_after",
	"fault.corrupt_info_crc",
	"fault.drop_object",
	NULL,
};

static int i2c_parse_key(struct emub_chip_desc *c, const char *k, const char *s,
			 const struct emub_parse *p)
{
	struct mxt_board *b = c->fam;
	int r = parse_common(&b->c, k, s, p);

	if (r <= 0)
		return r;
	if (!strcmp(k, "fault.crc_fail_times"))
		return emub_key_u32(p, k, s, 0xffffff, &b->crc_fail_times);
	if (!strcmp(k, "bl_final_reset_unread"))
		return emub_key_bool(p, k, s, &b->bl_final_reset_unread);
	if (!strcmp(k, "fault.stuck_in_bootloader"))
		return emub_key_bool(p, k, s, &b->stuck_in_bootloader);
	return emub_key_bool(p, k, s, &b->corrupt_info_crc);
}

static int i2c_create(struct emub_chip *c)
{
	struct emub_chip_desc *d = c->desc;
	const struct mxt_board *b = d->fam;
	struct mxt_model *m;
	struct mxt_model_cfg cfg;

	if (!preset(d->model, &b->c, &cfg))
		return -EINVAL;
	m = g_new0(struct mxt_model, 1);
	cfg.app_addr = d->addr;
	cfg.faults.crc_fail_times = b->crc_fail_times;
	cfg.faults.stuck_in_bootloader = b->stuck_in_bootloader;
	cfg.final_reset_unread = b->bl_final_reset_unread;
	cfg.faults.corrupt_info_crc = b->corrupt_info_crc;
	cfg.faults.slow_factor = d->slow_factor;
	mxt_model_init(m, &cfg, 0);
	c->model = m;
	c->ops = &mxt_model_ops;
	return 0;
}

static void i2c_stats_json(struct emub_chip *c, FILE *f)
{
	struct mxt_model *m = c->model;
	const struct mxt_model_stats *s = mxt_model_stats(m);

	fprintf(f,
		", \"mode\": %d, \"fw_version\": \"%u.%u.%02X\", \"stats\": "
		"{\"frames_passed\": %u, \"frames_failed\": %u, "
		"\"images_completed\": %u, \"resets\": %u, "
		"\"hw_resets\": %u, "
		"\"bootloader_entries\": %u, \"backups\": %u, \"restores\": %u, "
		"\"power_losses\": %u, \"config_writes\": %u}",
		(int)mxt_model_mode(m), mxt_model_fw_version(m) >> 4,
		mxt_model_fw_version(m) & 15, mxt_model_fw_build(m), s->frames_passed,
		s->frames_failed, s->images_completed, s->resets, s->hw_resets,
		s->bootloader_entries, s->backups, s->restores, s->power_losses,
		s->config_writes);
}

static const struct emub_chip_model mxt_i2c = {
	.names = names,
	.keys = i2c_keys,
	.fam_size = sizeof(struct mxt_board),
	.parse_key = i2c_parse_key,
	.create = i2c_create,
	.stats_json = i2c_stats_json,
};

/* ------------------------------------------------------------ spi */

static const char *const spi_keys[] = {
	"state",
	"fw_version",
	"fault.crc_reply_at",
	"fault.write_fail_at",
	"fault.crc_fail_frame",
	"fault.power_loss_after",
	"fault.crc_fail_always",
	"fault.drop_object",
	"t144",
	NULL,
};

static int spi_parse_key(struct emub_spi_dev_desc *c, const char *k, const char *s,
			 const struct emub_parse *p)
{
	struct mxt_spi_board *b = c->fam;
	int r = parse_common(&b->c, k, s, p);

	if (r <= 0)
		return r;
	if (!strcmp(k, "fault.crc_reply_at"))
		return emub_key_u32(p, k, s, 0xffffffff, &b->crc_reply_at);
	if (!strcmp(k, "fault.write_fail_at"))
		return emub_key_u32(p, k, s, 0xffffffff, &b->write_fail_at);
	return emub_key_bool(p, k, s, &b->t144);
}

static int spi_create(struct emub_spi_dev *d, guint64 now_ns)
{
	const struct mxt_spi_board *b = d->desc->fam;
	struct mxt_model_cfg cfg;
	struct mxt_model *m;
	struct mxt_spi *sp;

	if (!preset(d->desc->model, &b->c, &cfg))
		return -EINVAL;
	m = g_new0(struct mxt_model, 1);
	sp = g_new0(struct mxt_spi, 1);
	cfg.faults.crc_fail_times = b->c.crc_fail_frame ? 1 : 0;
	if (b->t144 && cfg.num_objects < MXT_MODEL_MAX_OBJECTS) {
		/* T144 listed last (its size is the model's choice: only its
		 * presence is documented) */
		cfg.objects[cfg.num_objects].type = 144;
		cfg.objects[cfg.num_objects].size = 2;
		cfg.objects[cfg.num_objects].instances = 1;
		cfg.objects[cfg.num_objects].report_ids = 0;
		cfg.num_objects++;
	}
	mxt_model_init(m, &cfg, now_ns);
	mxt_spi_init(sp, m);
	sp->faults.crc_reply_at = b->crc_reply_at;
	sp->faults.write_fail_at = b->write_fail_at;
	d->model = sp;
	d->ops = &mxt_spi_ops;
	return 0;
}

static void spi_destroy(struct emub_spi_dev *d)
{
	g_free(((struct mxt_spi *)d->model)->m);
	g_free(d->model);
}

static const struct emub_spi_chip_model mxt_spi = {
	.names = names,
	.keys = spi_keys,
	.fam_size = sizeof(struct mxt_spi_board),
	.parse_key = spi_parse_key,
	.create = spi_create,
	.destroy = spi_destroy,
};

/* ------------------------------------------------------------ API */

struct mxt_model *emub_chip_mxt(struct emub *eb, const char *dev)
{
	return emub_chip_model_of(eb, dev, &mxt_model_ops);
}

struct mxt_spi *emub_spi_mxt(struct emub *eb, const char *dev)
{
	return emub_spi_model_of(eb, dev, &mxt_spi_ops);
}

int emub_set_mxt_faults(struct emub *eb, const char *dev, const struct mxt_model_faults *f)
{
	struct mxt_model *m = emub_chip_mxt(eb, dev);

	if (!m)
		return -ENODEV;
	emub_lock(eb);
	*mxt_model_faults(m) = *f;
	/* the model counts "fail N times" down from this */
	m->crc_fail_left = f->crc_fail_times ? f->crc_fail_times : 1;
	emub_unlock(eb);
	return 0;
}

/* ------------------------------------------------------------ rehearsal */

/* touchfw's hardware ids of the presets: family id.variant id, decimal */
static const struct {
	const char *hw, *model;
} mxt_parts[] = { { "129.1", "mxt224e" }, { "162.6", "mxt1664s" } };

/*
 * A profile's maXTouch: the preset of the part the database names (default
 * the mXT224E), in application mode with firmware 1.0.AA (older than any
 * the demo database holds) unless --fw-version says; --bootloader: no valid
 * application, the chip in its bootloader (APP_CRC_FAIL).  CHG level-low, as the binding's
 * example.  ACPI boards enumerate it as ATML0000 (mxt_acpi_id[]).
 */
static int mxt_rehearse(struct emub_profile_ctl *c)
{
	const char *hw = emub_profile_hardware(c), *model = hw ? NULL : "mxt224e";
	const char *fw = emub_profile_fw_version(c);

	for (size_t i = 0; hw && i < G_N_ELEMENTS(mxt_parts); i++)
		if (!strcmp(hw, mxt_parts[i].hw))
			model = mxt_parts[i].model;
	if (!model)
		return emub_profile_err(c, "hardware",
					"mxt \"%s\": the emulator models the parts 129.1 "
					"(mXT224E) and 162.6 (mXT1664S) only",
					hw);
	emub_profile_ident(c, model, "ATML0000", "atmel,maxtouch");
	emub_profile_key(c, "irq_type", "level");
	/* (a valid application in the bootloader would not stay there: the
	 * driver's probe sends it back to it) */
	emub_profile_key(c, "state", "%s", emub_profile_bootloader(c) ? "no-image" : "app");
	emub_profile_key(c, "fw_version", "%s", fw ? fw : "1.0.AA");
	return 0;
}

const struct emub_family emub_family_mxt = {
	.name = "mxt",
	.chips = (const struct emub_chip_model *const[]){ &mxt_i2c, NULL },
	.spi_chips = (const struct emub_spi_chip_model *const[]){ &mxt_spi, NULL },
	.drivers = (const struct emub_driver_ops *const[]){ &emub_drv_atmel_mxt_ts, NULL },
	.spi_drivers = (const struct emub_spi_driver *const[]){ &emub_spi_drv_mchp, NULL },
	.rehearse = mxt_rehearse,
};
