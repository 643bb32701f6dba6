// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the `db` commands' JSON documents share (doc/json.md): the keys
 * that open the documents of the commands that write the database, and a
 * blob's manifest entry -- `db list` writes one per blob, `db add` the
 * one it added.
 */
#include "cmd.h"

#include <limits.h>
#include <stdio.h>

#include "family/family.h"
#include "json.h"
#include "util.h"

void tf_db_json_blob(struct tf_json *j, const struct tf_blob *b)
{
	unsigned bits = tf_family_crc_bits(tf_family_by_name(b->family));
	size_t k;

	tf_json_string(j, "id", b->id);
	tf_json_string(j, "type", tf_blob_type_name(b->type));
	tf_json_string(j, "family", b->family);
	tf_json_begin_array(j, "hardware");
	for (k = 0; k < b->n_hardware; k++)
		tf_json_string(j, NULL, b->hardware[k]);
	tf_json_end_array(j);
	tf_json_string(j, "version", b->version);
	tf_json_string(j, "for_version", b->for_version);
	tf_json_string(j, "file", b->file);
	tf_json_uint(j, "size", b->size);
	tf_json_begin_array(j, "boards");
	for (k = 0; k < b->n_boards; k++)
		tf_json_string(j, NULL, b->boards[k]);
	tf_json_end_array(j);
	tf_json_string(j, "info_crc", b->has_info_crc ? TF_CRC_TEXT(b->info_crc, bits) : NULL);
	tf_json_string(j, "config_crc",
		       b->has_config_crc ? TF_CRC_TEXT(b->config_crc, bits) : NULL);
}

void tf_db_json_begin(struct tf_json *j, const char *dir)
{
	char m[PATH_MAX + 32];

	snprintf(m, sizeof(m), "%s/%s", dir, TF_FWDB_MANIFEST);
	tf_json_init(j);
	tf_json_begin_object(j, NULL);
	tf_json_int(j, "version", TF_JSON_VERSION);
	tf_json_string(j, "db", dir);
	tf_json_string(j, "manifest", m);
}
