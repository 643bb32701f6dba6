// SPDX-License-Identifier: GPL-2.0-or-later
/* Goodix Berlin firmware files (see berlin_image.h). */
#include "berlin_image.h"

em_u32 berlin_fw_header_size(enum berlin_variant v)
{
	return v == BERLIN_A ? 256 : 512;
}

em_u32 berlin_fw_subsys_offset(enum berlin_variant v)
{
	return v == BERLIN_A ? 36 : 42;
}

static em_u32 isp_size(const struct berlin_fw_spec *s)
{
	return s->isp_size ? s->isp_size : 8192;
}

static em_u32 split(const struct berlin_fw_spec *s)
{
	return s->split ? s->split : 65536;
}

static em_u32 nsubsys(const struct berlin_fw_spec *s)
{
	return 1 + (s->app_size + split(s) - 1) / split(s) + (s->with_config ? 1 : 0);
}

em_u32 berlin_fw_file_size(const struct berlin_fw_spec *s)
{
	em_u32 hdr = berlin_fw_header_size(s->variant);

	if (s->app_size < BERLIN_DESC_SIZE || s->app_size > BERLIN_APP_MAX || s->app_size & 1 ||
	    isp_size(s) < BERLIN_DESC_SIZE || isp_size(s) > BERLIN_ISP_MAX || isp_size(s) & 1 ||
	    split(s) & 1 || split(s) < 2)
		return 0;
	if (berlin_fw_subsys_offset(s->variant) + nsubsys(s) * BERLIN_FW_SUBSYS_SIZE > hdr ||
	    nsubsys(s) > BERLIN_FW_SUBSYS_MAX)
		return 0;
	return hdr + isp_size(s) + s->app_size + (s->with_config ? BERLIN_CONFIG_SIZE : 0);
}

static void record(em_u8 *r, em_u8 type, em_u32 size, em_u32 addr)
{
	r[0] = type;
	em_put_le32(r + 1, size);
	em_put_le32(r + 5, addr);
	r[9] = 0;
}

em_u32 berlin_fw_file_build(const struct berlin_fw_spec *s, em_u8 *out, em_u32 cap)
{
	const struct berlin_layout *lay = berlin_model_layout(s->variant);
	em_u32 len = berlin_fw_file_size(s), hdr = berlin_fw_header_size(s->variant);
	em_u8 *rec = out + berlin_fw_subsys_offset(s->variant), *data = out + hdr;
	em_u32 n = 0, off;

	if (!len || len > cap)
		return 0;
	em_memset(out, 0, hdr);
	em_memcpy(out + 8, lay->rom_pid, 6);
	out[14] = 0x01; /* the ROM's vid, as the model's version reports it */
	for (int i = 0; i < 8 && s->pid && s->pid[i]; i++)
		out[17 + i] = (em_u8)s->pid[i];
	em_memcpy(out + 25, s->vid, 4);
	out[29] = (em_u8)nsubsys(s);
	out[30] = s->variant == BERLIN_A ? 4 : 6;
	out[31] = 1;
	out[32] = 1;
	/* subsystem 0: the ISP program */
	if (!berlin_model_make_isp(data, isp_size(s), s->variant))
		return 0;
	record(rec + BERLIN_FW_SUBSYS_SIZE * n++, BERLIN_FW_TYPE_ISP, isp_size(s),
	       lay->isp_ram);
	data += isp_size(s);
	/* the application, in pieces */
	if (!berlin_model_make_app(data, s->app_size, s->pid, s->vid, s->seed))
		return 0;
	for (off = 0; off < s->app_size; off += split(s)) {
		em_u32 part = s->app_size - off < split(s) ? s->app_size - off : split(s);

		/* types 1, 2, 3, 5, ...: 4 is the config's */
		record(rec + BERLIN_FW_SUBSYS_SIZE * n, (em_u8)(n < 4 ? n : n + 1), part, off);
		n++;
	}
	data += s->app_size;
	if (s->with_config) {
		berlin_model_make_config(data, s->config_id, s->config_version);
		record(rec + BERLIN_FW_SUBSYS_SIZE * n++, BERLIN_FW_TYPE_CONFIG,
		       BERLIN_CONFIG_SIZE, BERLIN_CONFIG_ADDR);
	}
	em_put_le32(out, len - 8);
	em_put_le32(out + 4, berlin_model_sum16(out + 8, len - 8));
	return len;
}
