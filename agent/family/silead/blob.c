// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Silead manifest rules.  In a section (struct tf_family.check_blob): only
 * firmware (the file silead_ts loads at every probe; the chip has no
 * configuration of its own), hardware ids are the chips' names as the
 * driver's i2c ids give them (gsl1680, ...); no CRCs, no for_version /
 * min_from / max_from (the chip keeps nothing between probes, so there is
 * nothing to update from).  Blobs are per tablet: name the board(s).  On
 * the bytes (check_blob_data): silead_fw_check -- whole (register, value)
 * pairs, registers the chip takes.
 */
#include "silead.h"

#include <errno.h>
#include <string.h>

#include "family/family.h"
#include "fwdb.h"

int silead_check_blob(const struct tf_blob *b, const char **key, char *msg, size_t size)
{
	size_t i;

	if (b->type != TF_BLOB_FIRMWARE) {
		*key = "type";
		tf_snprintf(msg, size,
			    "a Silead chip has no configuration; its firmware file (loaded by "
			    "silead_ts at every probe) is type = firmware");
		return -EINVAL;
	}
	for (i = 0; i < b->n_hardware; i++)
		if (!silead_hw_valid(b->hardware[i])) {
			*key = "hardware";
			tf_snprintf(msg, size,
				    "'%s' is not a Silead chip (gsl1680, gsl1688, gsl3670, "
				    "gsl3675 or gsl3692, as silead_ts names them)",
				    b->hardware[i]);
			return -EINVAL;
		}
	if (b->min_from || b->max_from || b->for_version) {
		*key = b->min_from ? "min_from" : b->max_from ? "max_from" : "for_version";
		tf_snprintf(msg, size,
			    "a Silead chip keeps no firmware between probes: there is nothing "
			    "to update from; leave %s out",
			    *key);
		return -EINVAL;
	}
	/* (info_crc, maXTouch's key, the manifest parser refuses) */
	if (b->has_config_crc) {
		*key = "config_crc";
		tf_snprintf(msg, size, "a Silead chip reports no CRC; leave config_crc out");
		return -EINVAL;
	}
	if (!b->n_boards) {
		*key = "boards";
		tf_snprintf(
			msg, size,
			"Silead firmware is made for one tablet's panel: name its board(s)");
		return -EINVAL;
	}
	return 0;
}

int silead_check_blob_data(const struct tf_blob *b, const uint8_t *data, size_t len, char *msg,
			   size_t size)
{
	struct tf_err err = { 0 };

	if (silead_fw_check(data, len, b->file, NULL, &err) < 0) {
		tf_snprintf(msg, size, "%s", err.msg);
		return -EBADMSG;
	}
	return 0;
}

/* ------------------------------------------------------------ db add */

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/*
 * The hardware a chip name in @text says (@where: "its file name"): the
 * driver's id for it, with a note saying how it was read; several names:
 * only a note.  @force: replace hardware read before (from a weaker
 * place).
 */
static void chip_hint(const char *text, size_t len, const char *where, struct tf_blob_facts *f,
		      bool force)
{
	char chip[16], all[64], id[16];
	bool exact = false;
	int n = silead_chip_names(text, len, chip, sizeof(chip), all, sizeof(all));

	if (n > 1) {
		tf_blob_facts_note(f, "%s names several chips (%s): give --hardware", where,
				   all);
		return;
	}
	if (n != 1 || silead_chip_id(chip, id, sizeof(id), &exact) < 0 ||
	    (f->n_hardware && !force))
		return;
	f->n_hardware = 1;
	tf_snprintf(f->hardware[0], sizeof(f->hardware[0]), "%s", id);
	f->hardware_guessed = true;
	if (exact)
		tf_blob_facts_note(f, "hardware %s: the chip %s names", id, where);
	else
		tf_blob_facts_note(f,
				   "hardware %s: %s names the chip %s, which is not one of "
				   "silead_ts's ids; %s stands for it (silead_ts loads every "
				   "chip alike; --hardware names another)",
				   id, where, chip, id);
}

int silead_blob_facts(const uint8_t *data, size_t len, const char *name,
		      struct tf_blob_facts *f, struct tf_err *err)
{
	struct silead_fw_info info;
	const char *base = base_name(name);

	memset(f, 0, sizeof(*f));
	if (silead_fw_check(data, len, name, &info, err) < 0)
		return -EBADMSG;
	f->is_config = false;
	tf_snprintf(f->ext, sizeof(f->ext), "fw");
	tf_snprintf(f->what, sizeof(f->what),
		    "Silead firmware (the register/value pairs silead_ts loads), %zu pages, "
		    "%zu words; it names no version and no tablet",
		    info.pages, info.words);
	tf_snprintf(f->hardware_hint, sizeof(f->hardware_hint),
		    "silead_ts's ids: gsl1680, gsl1688, gsl3670, gsl3675, gsl3692; the chip "
		    "is named on it, or in its tablet's firmware file names");
	/* touchscreen_dmi.c's files are "gsl3676-<tablet>.fw" */
	chip_hint(base, strlen(base), "its file name", f, false);
	return 0;
}

int silead_import_blob(const uint8_t *data, size_t len, const char *name, const char *part,
		       uint8_t **out, size_t *out_len, struct tf_blob_facts *f,
		       struct tf_err *err)
{
	struct silead_import im;
	int r;

	*out = NULL;
	*out_len = 0;
	r = silead_import(data, len, name, part, &im, err);
	if (r < 0)
		return r;
	r = silead_blob_facts(im.fw, im.len, name, f, err);
	if (r < 0) {
		silead_import_free(&im);
		return r;
	}
	tf_snprintf(f->source_format, sizeof(f->source_format), "%s",
		    silead_form_name(im.form));
	tf_blob_facts_note(f, "converted from a %s into the file silead_ts loads%s%s",
			   silead_form_name(im.form), im.array[0] ? ": array " : "", im.array);
	if (im.chip[0])
		chip_hint(im.chip, strlen(im.chip), im.chip_from, f, true);
	else if (im.chips_seen[0])
		tf_blob_facts_note(f, "its text names several chips (%s): give --hardware",
				   im.chips_seen);
	if (im.has_panel)
		tf_blob_facts_note(f,
				   "its GSLX header's panel: %ux%u, %u touch points%s%s%s%s; "
				   "silead_ts reads none of it from a file but from the "
				   "device's properties (touchscreen_dmi.c, the board "
				   "profile's touchscreen-size-x/-y): check they agree",
				   im.panel.width, im.panel.height, im.panel.touches,
				   im.panel.swapped ? ", x/y swapped" : "",
				   im.panel.xflip ? ", x inverted" : "",
				   im.panel.yflip ? ", y inverted" : "",
				   im.panel.tracking ? ", finger tracking by the driver" : "");
	*out = im.fw;
	*out_len = im.len;
	return 0;
}
