// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `touchfw chip DEVICE info`: what detection and the family's chip_info
 * read, as text or one JSON document (doc/json.md).
 */
#include <stdlib.h>
#include <string.h>

#include "cmd-chip-priv.h"
#include "exitcode.h"
#include "json.h"
#include "out.h"
#include "util.h"

/* ------------------------------------------------------------ info */

static void info_text(const struct chip *k, const struct tf_chip_info *ci)
{
	const struct tf_chip_state *st = &k->st;
	char aname[4 * sizeof(k->c.dev.adapter_name)];
	size_t i, j;

	tf_out("device:           %s (%s %s%d, %s)\n", k->c.dev.name,
	       k->via_driver || k->over_spidev ? "spi bus" : "adapter",
	       k->via_driver || k->over_spidev ? "spi" : "i2c-", k->c.dev.adapter_nr,
	       k->c.dev.adapter_name[0] ? tf_escape(k->c.dev.adapter_name, aname, sizeof(aname))
					: "unnamed");
	tf_out("driver:           %s%s\n",
	       tf_chip_driver_of(k)[0] ? tf_chip_driver_of(k) : "none",
	       k->via_driver	? " (the chip read through its attributes)"
	       : k->over_spidev ? " (the chip read over spidev)"
				: "");
	tf_out("profile:          %s\n", k->profile && k->c.ctrl != &k->synth
						 ? k->profile->name
						 : "none (from the driver)");
	tf_out("family:           %s\n", k->fam->ids->name);
	tf_out("mode:             %s\n", tf_chip_mode_name(st->mode));
	if (st->hw[0])
		tf_out("hardware:         %s\n", st->hw);
	if (st->has_version)
		tf_out("firmware:         %s\n", st->version_str);
	if (st->has_config_version)
		tf_out("config version:   %s\n", st->config_version_str);
	if (st->has_info_crc)
		tf_out("info CRC:         %s\n", TF_CRC_TEXT(st->info_crc, k->fam->crc_bits));
	if (st->has_config_crc)
		tf_out("config CRC:       %s\n", TF_CRC_TEXT(st->config_crc, k->fam->crc_bits));
	tf_out("detail:           %s\n", st->detail);
	for (i = 0; i < ci->n_fields; i++) {
		char key[32];

		tf_snprintf(key, sizeof(key), "%s:", ci->field[i].key);
		tf_out("%-17s %s\n", key, ci->field[i].value);
	}
	if (!ci->table[0])
		return;
	tf_out("%s (%zu):\n", ci->table, ci->n_rows);
	for (j = 0; j < ci->n_cols; j++)
		tf_out("  %-10s", ci->col[j]);
	tf_out("\n");
	for (i = 0; i < ci->n_rows; i++) {
		for (j = 0; j < ci->n_cols; j++)
			tf_out("  %-10s", ci->cell[i][j]);
		tf_out("\n");
	}
}

static int info_json(const struct chip *k, const struct tf_chip_info *ci)
{
	const struct tf_chip_state *st = &k->st;
	struct tf_json j;
	size_t i, c;
	const char *text;

	tf_json_init(&j);
	tf_json_begin_object(&j, NULL);
	tf_json_int(&j, "version", TF_JSON_VERSION);
	tf_json_string(&j, "device", k->c.dev.name);
	tf_json_int(&j, "adapter", k->c.dev.adapter_nr);
	tf_json_string(&j, "driver", tf_chip_driver_of(k)[0] ? tf_chip_driver_of(k) : NULL);
	tf_json_string(&j, "profile",
		       k->profile && k->c.ctrl != &k->synth ? k->profile->name : NULL);
	tf_json_string(&j, "family", k->fam->ids->name);
	tf_json_string(&j, "mode", tf_chip_mode_name(st->mode));
	tf_json_string(&j, "hardware", st->hw[0] ? st->hw : NULL);
	tf_json_string(&j, "firmware", st->has_version ? st->version_str : NULL);
	tf_json_string(&j, "config_version",
		       st->has_config_version ? st->config_version_str : NULL);
	tf_json_string(&j, "info_crc",
		       st->has_info_crc ? TF_CRC_TEXT(st->info_crc, k->fam->crc_bits) : NULL);
	tf_json_string(&j, "config_crc",
		       st->has_config_crc ? TF_CRC_TEXT(st->config_crc, k->fam->crc_bits)
					  : NULL);
	tf_json_string(&j, "detail", st->detail);
	tf_json_begin_object(&j, "fields");
	for (i = 0; i < ci->n_fields; i++)
		tf_json_string(&j, ci->field[i].key, ci->field[i].value);
	tf_json_end_object(&j);
	if (ci->table[0]) {
		tf_json_begin_array(&j, ci->table);
		for (i = 0; i < ci->n_rows; i++) {
			tf_json_begin_object(&j, NULL);
			for (c = 0; c < ci->n_cols; c++)
				tf_json_string(&j, ci->col[c], ci->cell[i][c]);
			tf_json_end_object(&j);
		}
		tf_json_end_array(&j);
	}
	tf_json_end_object(&j);
	text = tf_json_text(&j);
	if (!text) {
		tf_json_free(&j);
		tf_out_err("touchfw chip: out of memory\n");
		return TF_EXIT_FAILURE;
	}
	tf_out("%s\n", text);
	tf_json_free(&j);
	return TF_EXIT_OK;
}

int tf_chip_do_info(struct chip *k, bool json)
{
	struct tf_chip_info *ci = calloc(1, sizeof(*ci));
	struct tf_err err = { 0 };
	int rc;

	if (!ci) {
		tf_out_err("touchfw chip: out of memory\n");
		return TF_EXIT_FAILURE;
	}
	if (k->fam->ops->chip_info && k->fam->ops->chip_info(&k->c, &k->st, ci, &err) < 0) {
		tf_out_err("touchfw chip: %s: %s\n", k->c.dev.name, err.msg);
		free(ci);
		return TF_EXIT_IO;
	}
	if (json) {
		rc = info_json(k, ci);
	} else {
		info_text(k, ci);
		rc = TF_EXIT_OK;
	}
	free(ci);
	if (rc == TF_EXIT_OK && k->st.mode == TF_CHIP_ABSENT)
		rc = TF_EXIT_NO_DEVICE;
	return rc;
}
