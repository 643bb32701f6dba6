// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * OBP_RAW V1 configuration files (atmel_mxt_ts.c mxt_update_cfg):
 *   OBP_RAW V1
 *   <7 info-block bytes, hex>
 *   <info-block CRC24, hex>
 *   <config CRC24, hex>
 *   <type> <instance> <size> <size hex bytes>     one line per object
 * Tokens are whitespace-separated hex numbers, as the kernel scans them.
 */
#include "mxt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "OBP_RAW V1"

struct lexer {
	const char *p, *end;
	unsigned line;
};

static void skip_space(struct lexer *lx)
{
	while (lx->p < lx->end &&
	       (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\r' || *lx->p == '\n')) {
		if (*lx->p == '\n')
			lx->line++;
		lx->p++;
	}
}

/* Next hex token; 1 on success, 0 at end of input, -1 on junk. */
static int next_hex(struct lexer *lx, uint32_t max, uint32_t *out)
{
	uint64_t v = 0;
	int digits = 0;

	skip_space(lx);
	if (lx->p >= lx->end)
		return 0;
	if (lx->end - lx->p > 2 && lx->p[0] == '0' && (lx->p[1] == 'x' || lx->p[1] == 'X'))
		lx->p += 2;
	while (lx->p < lx->end && tf_hexval(*lx->p) >= 0) {
		v = v * 16 + (uint64_t)tf_hexval(*lx->p);
		if (v > max)
			return -1;
		lx->p++;
		digits++;
	}
	if (!digits)
		return -1;
	if (lx->p < lx->end &&
	    !(*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\r' || *lx->p == '\n'))
		return -1;
	*out = (uint32_t)v;
	return 1;
}

void mxt_cfg_free(struct mxt_cfg *cfg)
{
	size_t i;

	for (i = 0; i < cfg->n; i++)
		free(cfg->obj[i].data);
	free(cfg->obj);
	memset(cfg, 0, sizeof(*cfg));
}

int mxt_cfg_parse(const char *buf, size_t len, struct mxt_cfg *cfg, struct tf_err *err)
{
	struct lexer lx = { buf, buf + len, 1 };
	size_t cap = 0;
	uint32_t v;
	int i, r;

	memset(cfg, 0, sizeof(*cfg));
	if (len < strlen(MAGIC) || memcmp(buf, MAGIC, strlen(MAGIC)))
		return tf_err_set(err, EINVAL, "line 1: not an OBP_RAW V1 file");
	lx.p += strlen(MAGIC);
	for (i = 0; i < MXT_INFO_SIZE; i++) {
		if (next_hex(&lx, 0xff, &v) != 1)
			return tf_err_set(err, EINVAL,
					  "line %u: info-block byte %d: expected a hex byte",
					  lx.line, i + 1);
		cfg->info[i] = (uint8_t)v;
	}
	if (next_hex(&lx, 0xffffff, &cfg->info_crc) != 1)
		return tf_err_set(err, EINVAL,
				  "line %u: expected the info-block CRC (24-bit hex)", lx.line);
	if (next_hex(&lx, 0xffffff, &cfg->config_crc) != 1)
		return tf_err_set(err, EINVAL, "line %u: expected the config CRC (24-bit hex)",
				  lx.line);
	for (;;) {
		struct mxt_cfg_obj o = { 0 };
		uint32_t t, inst, size, k;

		r = next_hex(&lx, 0xffff, &t);
		if (r == 0)
			break;
		o.line = lx.line;
		if (r < 0 || next_hex(&lx, 0xffff, &inst) != 1 ||
		    next_hex(&lx, 0xffff, &size) != 1) {
			r = tf_err_set(err, EINVAL,
				       "line %u: expected '<type> <instance> <size>' in hex",
				       lx.line);
			goto fail;
		}
		if (t > 0xff || size == 0 || size > 256 || inst > 0xff) {
			r = tf_err_set(err, EINVAL,
				       "line %u: T%u instance %u size %u out of range", o.line,
				       t, inst, size);
			goto fail;
		}
		o.type = (uint16_t)t;
		o.instance = (uint16_t)inst;
		o.size = (uint16_t)size;
		o.data = malloc(size);
		if (!o.data) {
			r = -ENOMEM;
			goto fail;
		}
		for (k = 0; k < size; k++) {
			if (next_hex(&lx, 0xff, &v) != 1) {
				free(o.data);
				r = tf_err_set(err, EINVAL,
					       "line %u: T%u: byte %u of %u missing or not hex",
					       lx.line, t, k + 1, size);
				goto fail;
			}
			o.data[k] = (uint8_t)v;
		}
		if (cfg->n == cap) {
			struct mxt_cfg_obj *no;

			cap = cap ? cap * 2 : 16;
			no = realloc(cfg->obj, cap * sizeof(*no));
			if (!no) {
				free(o.data);
				r = -ENOMEM;
				goto fail;
			}
			cfg->obj = no;
		}
		cfg->obj[cfg->n++] = o;
	}
	return 0;
fail:
	mxt_cfg_free(cfg);
	return r;
}

bool mxt_volatile_object(uint16_t type)
{
	switch (type) {
	case MXT_T3:
	case MXT_T4:
	case MXT_T5:
	case MXT_T6:
	case MXT_T37:
	case MXT_T44:
	case MXT_T53:
	case MXT_T160:
		return true;
	default:
		return false;
	}
}

int mxt_cfg_image(const struct mxt_cfg *cfg, const struct mxt_info *info, bool force,
		  uint8_t **mem, uint16_t *start, uint16_t *len, uint32_t *crc,
		  struct tf_err *err)
{
	uint16_t s = info->cfg_start, n;
	uint8_t *m;
	size_t i;
	uint32_t c;

	if (cfg->info[0] != info->family || cfg->info[1] != info->variant)
		return tf_err_set(err, EINVAL,
				  "config is for family %u variant %u, the chip is %u.%u",
				  cfg->info[0], cfg->info[1], info->family, info->variant);
	if (cfg->info_crc != info->crc_read && !force)
		return tf_err_set(
			err, EINVAL,
			"config is for info-block CRC 0x%06X, the chip has 0x%06X "
			"(another firmware version or object layout; --force overrides)",
			cfg->info_crc, info->crc_read);
	if (info->mem_size <= info->crc_start || info->crc_start < s)
		return tf_err_set(err, EINVAL, "chip has no configuration area");
	n = (uint16_t)(info->mem_size - s);
	m = calloc(1, n);
	if (!m)
		return -ENOMEM;
	for (i = 0; i < cfg->n; i++) {
		const struct mxt_cfg_obj *o = &cfg->obj[i];
		const struct mxt_object *ob = mxt_info_object(info, (uint8_t)o->type);
		uint32_t at;

		if (mxt_volatile_object(o->type))
			continue;
		if (!ob) {
			free(m);
			return tf_err_set(err, EINVAL, "line %u: the chip has no object T%u",
					  o->line, o->type);
		}
		if (o->instance >= ob->instances) {
			free(m);
			return tf_err_set(err, EINVAL,
					  "line %u: T%u instance %u, the chip has %u", o->line,
					  o->type, o->instance, ob->instances);
		}
		if (o->size > ob->size) {
			free(m);
			return tf_err_set(err, EINVAL,
					  "line %u: T%u has %u bytes, the chip's object has %u",
					  o->line, o->type, o->size, ob->size);
		}
		at = ob->start + (uint32_t)ob->size * o->instance;
		memcpy(m + (at - s), o->data, o->size);
	}
	c = mxt_crc24(m + (info->crc_start - s), (size_t)(info->mem_size - info->crc_start));
	if (cfg->config_crc && cfg->config_crc != c) {
		free(m);
		return tf_err_set(err, EINVAL,
				  "config CRC in the file is 0x%06X, its contents give 0x%06X",
				  cfg->config_crc, c);
	}
	*mem = m;
	*start = s;
	*len = n;
	*crc = c;
	return 0;
}
