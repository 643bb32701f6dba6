// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A parsed firmware database: tf_fwdb_free(), the names of its enums, and
 * the pure lookups in it (a blob by id, does a blob fit a hardware, a
 * board, a running version).  The parser is fwdb-manifest.c.
 */
#include "fwdb.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------ free */

static void free_list(char **list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

void tf_fwdb_free(struct tf_fwdb *db)
{
	size_t i;

	if (!db)
		return;
	for (i = 0; i < db->n_blobs; i++) {
		struct tf_blob *b = &db->blobs[i];

		free(b->id);
		free(b->family);
		free_list(b->hardware, b->n_hardware);
		free(b->version);
		free(b->for_version);
		free(b->min_from);
		free(b->max_from);
		free(b->bootloader_id);
		free_list(b->boards, b->n_boards);
		free(b->file);
	}
	free(db->blobs);
	free(db->sig_lines);
	free(db->description);
	free(db->dir);
	if (db->dirfd >= 0)
		close(db->dirfd);
	free(db);
}

/* ------------------------------------------------------------ names */

const char *tf_blob_type_name(enum tf_blob_type t)
{
	return t == TF_BLOB_CONFIG ? "config" : "firmware";
}

/* ------------------------------------------------------------ lookups */

const struct tf_blob *tf_fwdb_find(const struct tf_fwdb *db, const char *id)
{
	size_t i;

	if (!db || !id)
		return NULL;
	for (i = 0; i < db->n_blobs; i++)
		if (!strcmp(db->blobs[i].id, id))
			return &db->blobs[i];
	return NULL;
}

bool tf_blob_fits_hardware(const struct tf_blob *b, const char *hw)
{
	size_t i;

	if (!b || !hw)
		return false;
	for (i = 0; i < b->n_hardware; i++)
		if (!strcmp(b->hardware[i], hw))
			return true;
	return false;
}

bool tf_blob_fits_board(const struct tf_blob *b, const char *const *board_ids, size_t n)
{
	size_t i, j;

	if (!b)
		return false;
	if (b->n_boards == 0)
		return true;
	for (i = 0; i < n; i++)
		for (j = 0; j < b->n_boards; j++)
			if (board_ids[i] && !strcmp(board_ids[i], b->boards[j]))
				return true;
	return false;
}

bool tf_blob_fits_from_version(const struct tf_blob *b, const struct tf_version *current)
{
	if (!b)
		return false;
	if (!current)
		return !b->min_from && !b->max_from;
	if (b->min_from && tf_version_cmp(current, &b->v_min_from) < 0)
		return false;
	if (b->max_from && tf_version_cmp(current, &b->v_max_from) > 0)
		return false;
	return true;
}
