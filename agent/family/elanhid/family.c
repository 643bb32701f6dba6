// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Elan HID touchpad family as the registry sees it: recovery only.  A
 * touchpad i2c_hid binds runs its application and is left alone (fwupd
 * updates it through hidraw); one left in IAP gets no driver (i2c_hid's
 * probe refuses its HID descriptor), and touchfw flashes it over i2c-dev
 * (caps.bus_recovery) where the board profile allows it and the platform
 * powers it, then binds i2c_hid and judges what it makes.  Images are
 * elan_i2c's / fwupd's layout (the signature, the IAP start at 0x106, the
 * module id it points to): the elantp family's checks.  Hardware ids are
 * module ids in decimal, versions the firmware version as "N.0".
 */
#include "elanhid.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "family/elantp/elantp.h"
#include "fwdb.h"

static int elanhid_check_controller(const struct tf_controller *ctl, char *msg, size_t size)
{
	if (strcmp(ctl->bus, "i2c"))
		return tf_snprintf(msg, size, "bus %s: i2c_hid serves i2c devices only",
				   ctl->bus),
		       -EINVAL;
	return 0;
}

static int elanhid_check_blob(const struct tf_blob *b, const char **key, char *msg, size_t size)
{
	unsigned v;
	size_t i;

	if (b->type != TF_BLOB_FIRMWARE) {
		*key = "type";
		snprintf(msg, size,
			 "an Elan HID touchpad takes no configuration file: "
			 "firmware only");
		return -EINVAL;
	}
	for (i = 0; i < b->n_hardware; i++)
		if (elantp_attr_number(b->hardware[i], 0xffff, &v) < 0 ||
		    strchr(b->hardware[i], '.')) {
			*key = "hardware";
			snprintf(msg, size,
				 "\"%s\" is not a module id in decimal (register 0x0101, "
				 "the one the image carries)",
				 b->hardware[i]);
			return -EINVAL;
		}
	return 0;
}

/* `db add`: the image's checks, and its module id where fwupd reads it
 * (the word its IAP start points to); its version is not readable from it. */
static int elanhid_blob_facts(const uint8_t *data, size_t len, const char *name,
			      struct tf_blob_facts *f, struct tf_err *err)
{
	char msg[200];
	unsigned module;

	memset(f, 0, sizeof(*f));
	if (elantp_check_image(data, len, msg, sizeof(msg)) < 0)
		return tf_err_set(err, EBADMSG, "%s: %s", name, msg);
	tf_snprintf(f->ext, sizeof(f->ext), "bin");
	tf_snprintf(f->what, sizeof(f->what),
		    "Elan touchpad firmware image, %zu bytes; it does not say its version",
		    len);
	if (elantp_image_product(data, len, &module) == 0 && module && module < 0xffff) {
		f->n_hardware = 1;
		tf_snprintf(f->hardware[0], sizeof(f->hardware[0]), "%u", module);
		tf_blob_facts_note(f,
				   "hardware (module id) %u: where the image's IAP start "
				   "points, as the touchpad's register 0x0101 says it",
				   module);
	}
	return 0;
}

const struct tf_family tf_family_elanhid = {
	.ids = &tf_family_ids_elanhid,
	.check_blob = elanhid_check_blob,
	.check_blob_data = elantp_check_blob_data,
	.check_controller = elanhid_check_controller,
	.blob_facts = elanhid_blob_facts,
	.unproven = "that the touch data is right: only that hid-multitouch made its input "
		    "device from the part's report descriptor",
	.caps = {
		.transports = TF_TRANSPORT_I2C,
		/* IAP: no driver binds; recovered over the bus where allowed.
		 * The application is updated through hidraw, not by touchfw. */
		.bootloader_mode = true,
		.bus_recovery = true,
		.hid_over_i2c = true,
	},
	.ops = &elanhid_ops,
};
