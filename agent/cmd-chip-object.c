// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `touchfw chip DEVICE object NAME`: one named object of the chip's
 * configuration memory, read, or written into its RAM and read back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd-chip-priv.h"
#include "exitcode.h"
#include "json.h"
#include "out.h"
#include "state.h"

/* ------------------------------------------------------------ object */

/* "OFF=VAL": byte offset and value (decimal or 0x hex, 0-255). */
bool tf_chip_parse_write(const char *s, unsigned *off, uint8_t *val)
{
	unsigned long o, v;
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	o = strtoul(s, &end, 0);
	if (*end != '=' || o >= TF_OBJECT_MAX || end[1] < '0' || end[1] > '9')
		return false;
	v = strtoul(end + 1, &end, 0);
	if (*end || v > 255)
		return false;
	*off = (unsigned)o;
	*val = (uint8_t)v;
	return true;
}

static void print_object(const struct chip *k, const char *name, unsigned inst, uint16_t addr,
			 const uint8_t *buf, size_t size, bool json)
{
	size_t b;

	if (json) {
		struct tf_json j;
		char a[8];

		tf_json_init(&j);
		tf_json_begin_object(&j, NULL);
		tf_json_int(&j, "version", TF_JSON_VERSION);
		tf_json_string(&j, "device", k->c.dev.name);
		tf_json_string(&j, "object", name);
		tf_json_uint(&j, "instance", inst);
		snprintf(a, sizeof(a), "0x%04X", addr);
		tf_json_string(&j, "address", a);
		tf_json_uint(&j, "size", size);
		tf_json_begin_array(&j, "bytes");
		for (b = 0; b < size; b++)
			tf_json_uint(&j, NULL, buf[b]);
		tf_json_end_array(&j);
		tf_json_end_object(&j);
		tf_out_json(&j);
		tf_json_free(&j);
		return;
	}
	tf_out("%s instance %u at 0x%04X, %zu bytes:\n", name, inst, addr, size);
	for (b = 0; b < size; b++)
		tf_out("%s%3zu: 0x%02X%s", b % 8 ? "  " : "  ", b, buf[b],
		       b % 8 == 7 || b + 1 == size ? "\n" : "");
}

/*
 * `chip DEV object NAME [--instance N] [--write OFF=VAL...]`: one named
 * object of the chip's configuration memory, read, or written into its RAM
 * and read back.
 * The chip is identified first (chip_open's detect); a write goes only to
 * a chip found in application mode with its list of objects read, bound to
 * its own family's driver or to none, while no run holds the device, and
 * each offset is checked against the object's size in that list before
 * anything is sent.
 */
int tf_chip_do_object(struct chip *k, const char *name, unsigned inst, const unsigned *off,
		      const uint8_t *val, size_t n_writes, bool json)
{
	struct tf_state state = { .dirfd = -1 };
	struct tf_err err = { 0 };
	uint8_t buf[TF_OBJECT_MAX];
	uint16_t addr = 0;
	size_t size = 0, i;
	int lock = -1, r, rc = TF_EXIT_OK;

	if (!k->fam->ops->object_read) {
		tf_out_err("touchfw chip: %s: the %s family has no named objects\n",
			   k->c.dev.name, k->fam->ids->name);
		return TF_EXIT_UNSUPPORTED;
	}
	if (k->st.mode != TF_CHIP_APP) {
		tf_out_err("touchfw chip: %s: the chip is not running its firmware (%s)\n",
			   k->c.dev.name, k->st.detail);
		return k->st.mode == TF_CHIP_ABSENT ? TF_EXIT_NO_DEVICE : TF_EXIT_UNSUPPORTED;
	}
	if (n_writes && k->c.dev.driver[0] && !tf_family_has_driver(k->fam, k->c.dev.driver)) {
		tf_out_err("touchfw chip: %s: bound to %s, not an %s driver: touchfw writes "
			   "nothing to another driver's device\n",
			   k->c.dev.name, k->c.dev.driver, k->fam->ids->name);
		return TF_EXIT_UNSUPPORTED;
	}
	r = k->fam->ops->object_read(&k->c, name, inst, &addr, buf, &size, &err);
	if (r < 0) {
		tf_out_err("touchfw chip: %s: %s\n", k->c.dev.name, err.msg);
		return r == -ENOENT || r == -EINVAL   ? TF_EXIT_USAGE
		       : r == -EPERM || r == -EBADMSG ? TF_EXIT_UNSUPPORTED
						      : TF_EXIT_IO;
	}
	if (!n_writes) {
		print_object(k, name, inst, addr, buf, size, json);
		return TF_EXIT_OK;
	}
	/* every offset against the table before the first byte goes out */
	for (i = 0; i < n_writes; i++)
		if (off[i] >= size) {
			tf_out_err(
				"touchfw chip: %s: %s has %zu bytes (offsets 0 to %zu): offset "
				"%u is past its end; nothing written\n",
				k->c.dev.name, name, size, size - 1, off[i]);
			return TF_EXIT_USAGE;
		}
	if (!k->fam->ops->object_write) {
		tf_out_err("touchfw chip: %s: the %s family can not write objects\n",
			   k->c.dev.name, k->fam->ids->name);
		return TF_EXIT_UNSUPPORTED;
	}
	/* Not while a run works on the chip (over spidev the lock is held
	 * already). */
	if (!k->over_spidev && tf_state_open(&state, k->s.state_dir, true, &err) == 0) {
		lock = tf_state_lock(&state, k->c.dev.name, false, true, &err);
		if (lock == -EWOULDBLOCK) {
			tf_out_err("touchfw chip: %s: a touchfw run is working on it; try "
				   "again when it is done\n",
				   k->c.dev.name);
			tf_state_close(&state);
			return TF_EXIT_LOCKED;
		}
	}
	for (i = 0; i < n_writes && rc == TF_EXIT_OK; i++) {
		tf_err_clear(&err);
		r = k->fam->ops->object_write(&k->c, name, inst, off[i], &val[i], 1, &err);
		if (r < 0) {
			tf_out_err("touchfw chip: %s: %s\n", k->c.dev.name, err.msg);
			rc = r == -ERANGE  ? TF_EXIT_USAGE
			     : r == -EPERM ? TF_EXIT_UNSUPPORTED
					   : TF_EXIT_IO;
			break;
		}
		tf_out_err("%s: %s[%u] byte %u: 0x%02X -> 0x%02X\n", k->c.dev.name, name, inst,
			   off[i], buf[off[i]], val[i]);
		buf[off[i]] = val[i];
	}
	if (rc == TF_EXIT_OK) {
		tf_out_err(
			"%s: written to the chip's RAM and read back; a reset or power cycle "
			"undoes it unless the configuration is backed up\n",
			k->c.dev.name);
		r = k->fam->ops->object_read(&k->c, name, inst, &addr, buf, &size, &err);
		if (r < 0) {
			tf_out_err("touchfw chip: %s: %s\n", k->c.dev.name, err.msg);
			rc = TF_EXIT_IO;
		} else {
			print_object(k, name, inst, addr, buf, size, json);
		}
	}
	if (lock >= 0)
		close(lock);
	if (state.dirfd >= 0)
		tf_state_close(&state);
	return rc;
}
