// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Berlin manifest and byte rules.  In a section (check_blob): firmware only
 * -- the file carries the chip's configuration as one of its subsystems,
 * and touchfw writes no separate configuration -- for hardware ids as the
 * chip's version block gives its patch pid (printable, at most 8
 * characters); the chip reports no CRC.  On the bytes (check_blob_data):
 * the header as berlin_fw_parse checks it, and the manifest must say what
 * the header says: its hardware must list the file's fw pid, its version
 * must be the file's fw vid.
 */
#include "berlin.h"

#include <errno.h>
#include <string.h>

#include "fwdb.h"

static bool hw_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 8)
		return false;
	for (; *s; s++)
		if (*s < 0x21 || *s > 0x7e)
			return false;
	return true;
}

int berlin_check_blob(const struct tf_blob *b, const char **key, char *msg, size_t size)
{
	if (b->type != TF_BLOB_FIRMWARE) {
		*key = "type";
		tf_snprintf(msg, size,
			    "a Berlin firmware file carries its configuration as a subsystem; "
			    "touchfw takes no separate configuration: type = firmware");
		return -EINVAL;
	}
	for (size_t i = 0; i < b->n_hardware; i++)
		if (!hw_ok(b->hardware[i])) {
			*key = "hardware";
			tf_snprintf(msg, size,
				    "'%s' is not a patch pid as the chip reports it (1 to 8 "
				    "printable characters, e.g. 9916)",
				    b->hardware[i]);
			return -EINVAL;
		}
	/* (info_crc, maXTouch's key, the manifest parser refuses) */
	if (b->has_config_crc) {
		*key = "config_crc";
		tf_snprintf(msg, size, "a Berlin chip reports no CRC; leave config_crc out");
		return -EINVAL;
	}
	return 0;
}

int berlin_check_blob_data(const struct tf_blob *b, const uint8_t *data, size_t len, char *msg,
			   size_t size)
{
	struct berlin_fw fw;
	struct tf_version v;
	char why[256], vid[TF_VERSION_STR_MAX];
	bool hw = false;

	if (berlin_fw_parse(data, len, &fw, why, sizeof(why)) < 0)
		return tf_snprintf(msg, size, "%s: %s", b->file, why), -EBADMSG;
	for (size_t i = 0; i < b->n_hardware; i++)
		hw = hw || !strcmp(b->hardware[i], fw.fw_pid);
	if (!hw)
		return tf_snprintf(msg, size,
				   "%s: fw_pid: the file is for patch pid %s, which the "
				   "manifest's hardware does not list",
				   b->file, fw.fw_pid),
		       -EBADMSG;
	berlin_version_from_vid(fw.fw_vid, &v);
	tf_version_format(&v, vid, sizeof(vid));
	if (b->version && strcmp(b->version, vid) &&
	    (b->v_version.n_parts != 4 || tf_version_cmp(&b->v_version, &v)))
		return tf_snprintf(msg, size,
				   "%s: fw_vid: the file's version is %s, the manifest says %s",
				   b->file, vid, b->version),
		       -EBADMSG;
	return 0;
}

int berlin_blob_facts(const uint8_t *data, size_t len, const char *name,
		      struct tf_blob_facts *f, struct tf_err *err)
{
	struct berlin_fw fw;
	struct tf_version v;
	char why[256];

	memset(f, 0, sizeof(*f));
	if (berlin_fw_parse(data, len, &fw, why, sizeof(why)) < 0)
		return tf_err_set(err, EBADMSG, "%s: not a Berlin firmware file: %s", name,
				  why);
	f->n_hardware = 1;
	tf_snprintf(f->hardware[0], sizeof(f->hardware[0]), "%s", fw.fw_pid);
	berlin_version_from_vid(fw.fw_vid, &v);
	tf_version_format(&v, f->version, sizeof(f->version));
	tf_snprintf(f->ext, sizeof(f->ext), "bin");
	tf_snprintf(f->what, sizeof(f->what),
		    "Berlin firmware for patch pid %s, vid %s: %u subsystems, %zu bytes, "
		    "checksum 0x%08X",
		    fw.fw_pid, f->version, fw.n_subsys, len, fw.checksum);
	return 0;
}
