// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the maXTouch .xcfg import (mxt-xcfg.c).  The input
 * is an .xcfg; whatever converts must be an OBP_RAW file mxt_cfg_parse
 * takes, with one object line per section.  The input read as OBP_RAW
 * instead, when it parses (and names each object once), is written out as
 * an .xcfg here and converted back: the objects must come back as they
 * were (the round trip the import promises).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family/mxt/mxt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same_objects(const struct mxt_cfg *a, const struct mxt_cfg *b)
{
	if (memcmp(a->info, b->info, sizeof(a->info)) || a->info_crc != b->info_crc ||
	    a->config_crc != b->config_crc || a->n != b->n)
		abort();
	for (size_t i = 0; i < a->n; i++)
		if (a->obj[i].type != b->obj[i].type ||
		    a->obj[i].instance != b->obj[i].instance ||
		    a->obj[i].size != b->obj[i].size ||
		    memcmp(a->obj[i].data, b->obj[i].data, a->obj[i].size))
			abort();
}

static void round_trip(const uint8_t *data, size_t size)
{
	struct mxt_cfg a, b;
	struct tf_err err;
	char *x = NULL, *raw = NULL;
	size_t xl = 0, rl, i, k;
	unsigned addr = 0;
	FILE *f;

	if (mxt_cfg_parse((const char *)data, size, &a, &err) < 0)
		return;
	for (i = 0; i < a.n; i++)
		for (k = 0; k < i; k++)
			if (a.obj[i].type == a.obj[k].type &&
			    a.obj[i].instance == a.obj[k].instance)
				goto out; /* the same object twice: not an .xcfg's */
	for (i = 0; i < a.n; i++)
		if (!a.obj[i].type)
			goto out; /* there is no T0 */
	if (!a.info_crc || !a.n)
		goto out; /* an .xcfg names its layout and has objects */
	f = open_memstream(&x, &xl);
	if (!f)
		goto out;
	fprintf(f,
		"[VERSION_INFO_HEADER]\nFAMILY_ID=%u\nVARIANT=%u\nVERSION=%u\nBUILD=%u\n"
		"MATRIX_X=%u\nMATRIX_Y=%u\nNO_OBJECTS=%u\nCHECKSUM=0x%X\n"
		"INFO_BLOCK_CHECKSUM=0x%X\n",
		a.info[0], a.info[1], a.info[2], a.info[3], a.info[4], a.info[5], a.info[6],
		a.config_crc, a.info_crc);
	for (i = 0; i < a.n; i++) {
		fprintf(f, "[X_T%u INSTANCE %u]\nOBJECT_ADDRESS=%u\nOBJECT_SIZE=%u\n",
			a.obj[i].type, a.obj[i].instance, addr, a.obj[i].size);
		for (k = 0; k < a.obj[i].size; k++)
			fprintf(f, "%zu 1 V=%u\n", k, a.obj[i].data[k]);
		addr += a.obj[i].size;
	}
	if (fclose(f) != 0)
		goto out;
	if (addr > 0x10000) /* beyond a chip's address space: refused */
		goto out;
	if (mxt_xcfg_to_raw(x, xl, "fuzz", &raw, &rl, NULL, &err) < 0)
		abort();
	if (mxt_cfg_parse(raw, rl, &b, &err) < 0)
		abort();
	same_objects(&a, &b);
	mxt_cfg_free(&b);
out:
	free(raw);
	free(x);
	mxt_cfg_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mxt_xcfg_info info;
	struct mxt_cfg cfg;
	struct tf_err err;
	char *raw = NULL;
	size_t rl = 0;

	if (mxt_xcfg_to_raw((const char *)data, size, "fuzz", &raw, &rl, &info, &err) == 0) {
		if (!raw || strlen(raw) != rl || mxt_cfg_parse(raw, rl, &cfg, &err) < 0 ||
		    cfg.n != info.n_objects || !info.n_objects)
			abort();
		mxt_cfg_free(&cfg);
		free(raw);
	} else if (raw || rl) {
		abort();
	}
	round_trip(data, size);
	return 0;
}
