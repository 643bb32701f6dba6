// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * maXTouch info block: CRC24, object table parsing, version strings and
 * the bootloader address map (atmel_mxt_ts.c: mxt_read_info_block,
 * mxt_parse_object_table, mxt_lookup_bootloader_address).
 */
#include "mxt.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

uint32_t mxt_crc24(const uint8_t *p, size_t n)
{
	uint32_t crc = 0;
	size_t i;

	for (i = 0; i < n; i += 2) {
		uint32_t word = p[i] | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);

		crc = (crc << 1) ^ word;
		if (crc & 0x1000000)
			crc ^= 0x80001b;
	}
	return crc & 0xffffff;
}

const struct mxt_object *mxt_info_object(const struct mxt_info *info, uint8_t type)
{
	unsigned i;

	for (i = 0; i < info->num_objects; i++)
		if (info->obj[i].type == type)
			return &info->obj[i];
	return NULL;
}

int mxt_info_parse(const uint8_t *buf, size_t len, struct mxt_info *info, struct tf_err *err)
{
	const struct mxt_object *o;
	size_t need;
	unsigned i, j;
	uint8_t rid = 1;

	memset(info, 0, sizeof(*info));
	if (len < MXT_INFO_SIZE)
		return tf_err_set(err, EBADMSG, "info block: %zu bytes, need 7", len);
	info->family = buf[0];
	info->variant = buf[1];
	info->version = buf[2];
	info->build = buf[3];
	info->matrix_x = buf[4];
	info->matrix_y = buf[5];
	info->num_objects = buf[6];
	need = MXT_INFO_SIZE + (size_t)info->num_objects * MXT_OBJ_ENTRY + MXT_INFO_CRC_SIZE;
	if (len < need)
		return tf_err_set(err, EBADMSG, "info block: %zu bytes, %u objects need %zu",
				  len, info->num_objects, need);
	info->crc_read = buf[need - 3] | buf[need - 2] << 8 | (uint32_t)buf[need - 1] << 16;
	info->crc_calc = mxt_crc24(buf, need - 3);
	if (!info->crc_read || info->crc_read != info->crc_calc)
		return tf_err_set(err, EBADMSG,
				  "info block CRC mismatch: read 0x%06X, computed 0x%06X "
				  "(not a maXTouch, or bus errors)",
				  info->crc_read, info->crc_calc);
	info->cfg_start = (uint16_t)need;
	for (i = 0; i < info->num_objects; i++) {
		const uint8_t *e = buf + MXT_INFO_SIZE + i * MXT_OBJ_ENTRY;
		struct mxt_object *ob = &info->obj[i];
		uint32_t end;

		ob->type = e[0];
		ob->start = (uint16_t)(e[1] | e[2] << 8);
		ob->size = (uint16_t)(e[3] + 1);
		ob->instances = (uint16_t)(e[4] + 1);
		ob->report_ids = e[5];
		if (ob->type == MXT_T6)
			info->t6_rid = rid;
		if (ob->report_ids)
			rid = (uint8_t)(rid + ob->report_ids * ob->instances);
		end = (uint32_t)ob->start + (uint32_t)ob->size * ob->instances;
		if (ob->start < need || end > 0xffff)
			return tf_err_set(err, EBADMSG,
					  "info block: T%u at 0x%04X overlaps the table",
					  ob->type, ob->start);
		if (end > info->mem_size)
			info->mem_size = (uint16_t)end;
	}
	for (i = 0; i < info->num_objects; i++)
		for (j = i + 1; j < info->num_objects; j++) {
			const struct mxt_object *a = &info->obj[i], *b = &info->obj[j];
			uint32_t ae = a->start + (uint32_t)a->size * a->instances;
			uint32_t be = b->start + (uint32_t)b->size * b->instances;

			if (a->start < be && b->start < ae)
				return tf_err_set(err, EBADMSG,
						  "info block: T%u and T%u overlap", a->type,
						  b->type);
		}
	o = mxt_info_object(info, MXT_T5);
	if (!o || o->size < 2)
		return tf_err_set(err, EBADMSG, "info block: no usable T5 message object");
	info->t5 = o->start;
	info->t5_size = o->size;
	o = mxt_info_object(info, MXT_T6);
	if (!o || o->size < 4)
		return tf_err_set(err, EBADMSG, "info block: no usable T6 command object");
	info->t6 = o->start;
	o = mxt_info_object(info, MXT_T44);
	if (o) {
		info->t44 = o->start;
		if (info->t5 != info->t44 + 1)
			return tf_err_set(err, EBADMSG,
					  "info block: T5 is not right after T44");
	}
	if ((o = mxt_info_object(info, MXT_T71)) || (o = mxt_info_object(info, MXT_T7)))
		info->crc_start = o->start;
	else
		info->crc_start = info->cfg_start;
	return 0;
}

void mxt_version_string(uint8_t version, uint8_t build, char *buf, size_t size)
{
	snprintf(buf, size, "%u.%u.%02X", version >> 4, version & 0xf, build);
}

void mxt_hw_string(uint8_t family, uint8_t variant, char *buf, size_t size)
{
	snprintf(buf, size, "%u.%u", family, variant);
}

uint16_t mxt_bootloader_addr(uint16_t app, bool alt)
{
	switch (app) {
	case 0x4a:
	case 0x4b:
		return alt ? app - 0x24 : app - 0x26;
	case 0x4c:
	case 0x4d:
	case 0x5a:
	case 0x5b:
		return app - 0x26;
	default:
		return 0;
	}
}

bool mxt_status_plausible(uint8_t s)
{
	uint8_t hi = s & (uint8_t)~MXT_BOOT_STATUS_MASK;

	return hi == MXT_WAITING_BOOTLOAD_CMD || hi == MXT_WAITING_FRAME_DATA ||
	       hi == MXT_APP_CRC_FAIL || s == MXT_FRAME_CRC_CHECK || s == MXT_FRAME_CRC_FAIL ||
	       s == MXT_FRAME_CRC_PASS;
}

const char *mxt_status_name(uint8_t s)
{
	switch (s) {
	case MXT_FRAME_CRC_CHECK:
		return "FRAME_CRC_CHECK";
	case MXT_FRAME_CRC_FAIL:
		return "FRAME_CRC_FAIL";
	case MXT_FRAME_CRC_PASS:
		return "FRAME_CRC_PASS";
	}
	switch (s & (uint8_t)~MXT_BOOT_STATUS_MASK) {
	case MXT_WAITING_BOOTLOAD_CMD:
		return "WAITING_BOOTLOAD_CMD";
	case MXT_WAITING_FRAME_DATA:
		return "WAITING_FRAME_DATA";
	case MXT_APP_CRC_FAIL:
		return "APP_CRC_FAIL";
	}
	return "unknown";
}
