// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The registry: every family of registry.def as a struct tf_family, found
 * by name or driver, and the completeness rule a family must meet (the
 * operations its capabilities promise).  Linking this pulls in every
 * family's code; the front end uses registry-ids.c instead.
 */
#include "family/family.h"
#include "family/update-path.h"

#include <errno.h>
#include <string.h>

#define TF_FAMILY(n) extern const struct tf_family tf_family_##n;
#include "family/registry.def"
#undef TF_FAMILY

const struct tf_family *const tf_families[] = {
#define TF_FAMILY(n) &tf_family_##n,
#include "family/registry.def"
#undef TF_FAMILY
	NULL,
};

/* The family of @ids (the lookups are registry-ids.c's, over the same
 * registry.def), NULL if none. */
static const struct tf_family *by_ids(const struct tf_family_ids *ids)
{
	size_t i;

	for (i = 0; ids && tf_families[i]; i++)
		if (tf_families[i]->ids == ids)
			return tf_families[i];
	return NULL;
}

const struct tf_family *tf_family_by_name(const char *name)
{
	return by_ids(tf_family_ids_by_name(name));
}

bool tf_family_has_manifest_key(const struct tf_family *f, const char *key)
{
	const char *const *k;

	for (k = f->manifest_keys; key && k && *k; k++)
		if (!strcmp(*k, key))
			return true;
	return false;
}

bool tf_family_has_driver(const struct tf_family *f, const char *driver)
{
	const char *const *d;

	for (d = f->ids->drivers; driver && d && *d; d++)
		if (!strcmp(*d, driver))
			return true;
	return false;
}

const struct tf_family *tf_family_by_driver(const char *driver)
{
	return by_ids(tf_family_ids_by_driver(driver));
}

#define NEED(cond, ...)                                                      \
	do {                                                                 \
		if (!(cond))                                                 \
			return tf_snprintf(why, size, __VA_ARGS__), -EINVAL; \
	} while (0)

int tf_family_check(const struct tf_family *f, char *why, size_t size)
{
	const struct tf_family_ops *o = f->ops;
	const struct tf_family_caps *c = &f->caps;
	const struct tf_update_path *p = o ? o->update_path : NULL;
	const char *n = f->ids && f->ids->name ? f->ids->name : "(unnamed)";

	NEED(f->ids && f->ids->name && f->ids->name[0], "a family without ids or name");
	NEED(f->ids->drivers && f->ids->drivers[0], "%s: no kernel driver in its ids", n);
	NEED(o, "%s: no operations", n);
	NEED(o->detect, "%s: detect is required", n);
	NEED(c->config_only || (o->load_firmware && o->free_firmware),
	     "%s: load_firmware and free_firmware are required unless config_only", n);
	NEED(c->transports, "%s: supports no transport", n);
	NEED(!(c->transports & TF_TRANSPORT_SMBUS) || (c->transports & TF_TRANSPORT_I2C),
	     "%s: SMBus without i2c", n);
	NEED(!c->bus_flash || (o->enter_bootloader && o->write_firmware &&
			       o->leave_bootloader && c->enter_bootloader_desc),
	     "%s: bus_flash needs enter_bootloader, write_firmware, leave_bootloader and "
	     "enter_bootloader_desc",
	     n);
	/* a family whose path chooses its way may send a chip in its
	 * bootloader through the bound driver */
	NEED(!c->bootloader_mode || c->bus_flash || c->bus_recovery || (p && p->choose),
	     "%s: a bootloader mode without bus flashing could never be left", n);
	NEED(!c->bus_recovery || (o->write_firmware && o->leave_bootloader && !c->bus_flash &&
				  c->bootloader_mode),
	     "%s: bus_recovery needs write_firmware, leave_bootloader and bootloader_mode, "
	     "and no bus_flash (which flashes from any mode)",
	     n);
	NEED(!c->bus_config || o->write_config, "%s: bus_config needs write_config", n);
	NEED(!c->kernel_fw_attr ||
		     (c->kernel_fw_value && o->kernel_firmware && o->kernel_fw_name),
	     "%s: kernel_fw_attr needs kernel_fw_value, kernel_firmware and kernel_fw_name", n);
	NEED(!c->kernel_cfg || o->kernel_cfg_name, "%s: kernel_cfg needs kernel_cfg_name", n);
	NEED(!(c->bus_config || c->kernel_cfg || o->load_config) ||
		     (o->load_config && o->free_config),
	     "%s: configurations need load_config and free_config", n);
	/* a path that chooses its way stages files the driver loads */
	NEED(!(p && p->choose) || (o->kernel_firmware && o->kernel_fw_name && !c->config_only),
	     "%s: an update path that chooses its way needs kernel_firmware and "
	     "kernel_fw_name",
	     n);
	/* bus_recovery alone: a family that installs firmware only into a
	 * chip left in its bootloader (its application is another tool's) */
	NEED(c->bus_flash || c->kernel_fw_attr || c->config_only || (p && p->choose) ||
		     c->bus_recovery,
	     "%s: no way to install firmware", n);
	NEED(!c->config_only || (!c->bus_flash && !c->kernel_fw_attr && !c->bootloader_mode),
	     "%s: config_only with a way to install firmware", n);
	NEED(!c->config_only || c->bus_config || c->kernel_cfg,
	     "%s: config_only without a way to install a configuration", n);
	NEED(!(p && p->config_through_driver) || (c->kernel_cfg || c->bus_config),
	     "%s: a configuration through the driver needs kernel_cfg or bus_config", n);
	NEED(!c->kernel_fw_rebind || c->kernel_fw_attr,
	     "%s: kernel_fw_rebind needs kernel_fw_attr", n);
	for (const char *const *d = c->kernel_fw_rebind; d && *d; d++) {
		const char *const *k = f->ids->drivers;

		while (*k && strcmp(*k, *d))
			k++;
		NEED(*k, "%s: kernel_fw_rebind names %s, not one of its drivers", n, *d);
	}
	NEED(!f->version || (f->version->name && f->version->syntax && f->version->parse &&
			     f->version->format),
	     "%s: a version scheme needs name, syntax, parse and format", n);
	NEED(!o->save_config || (o->load_config && o->free_config),
	     "%s: save_config without load_config: a saved configuration must load", n);
	NEED(!c->reset.drive_int || c->reset.int_hold_us <= c->reset.release_us,
	     "%s: INT held longer than the reset release time", n);
	return 0;
}

int tf_family_check_controller(const struct tf_family *f, const struct tf_controller *ctl,
			       char *msg, size_t size)
{
	if (ctl->config_name[0] && !f->caps.config_name)
		return tf_snprintf(msg, size,
				   "config-name is given, but the %s driver takes no "
				   "configuration file name from the board",
				   f->ids->name),
		       -EINVAL;
	if (ctl->has_hid_descr_addr && !f->caps.hid_over_i2c)
		return tf_snprintf(
			       msg, size,
			       "hid-descr-addr is given, but the %s family does not speak HID "
			       "over I2C",
			       f->ids->name),
		       -EINVAL;
	if (ctl->bus_recovery && !f->caps.bus_recovery)
		return tf_snprintf(msg, size,
				   "allow-bus-recovery is given, but the %s family %s",
				   f->ids->name,
				   f->caps.bus_flash
					   ? "flashes over the bus anyway (power decides)"
					   : "has no bus recovery"),
		       -EINVAL;
	if (ctl->bus_recovery && ctl->power != TF_POWER_ALWAYS_ON)
		return tf_snprintf(msg, size,
				   "allow-bus-recovery needs power = \"always-on\": the chip "
				   "is flashed while no driver holds it, so the platform "
				   "must keep it powered"),
		       -EINVAL;
	if (f->check_controller)
		return f->check_controller(ctl, msg, size);
	return 0;
}

const char *tf_chip_mode_name(enum tf_chip_mode m)
{
	switch (m) {
	case TF_CHIP_APP:
		return "application";
	case TF_CHIP_BOOTLOADER:
		return "bootloader";
	case TF_CHIP_ABSENT:
		break;
	}
	return "absent";
}
