// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The board-profile schema as tables: the properties each node takes, the
 * DMI keys and their sysfs files, the older names still read, and hints for
 * kernel-binding habits that do not carry over; with the lookups in them
 * (names of enum values, "did you mean").  The schema is documented for
 * OEMs in boards/README.md and doc/touchfw-board.5; keep them in step.
 */
#include "board.h"
#include "board-parse-priv.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "family/ids.h"
#include "util.h"

/* ------------------------------------------------------------- tables */

static const struct {
	const char *prop, *file;
} dmi_keys[TF_DMI_KEY_COUNT_] = {
	[TF_DMI_BIOS_VENDOR] = { "bios-vendor", "bios_vendor" },
	[TF_DMI_BIOS_VERSION] = { "bios-version", "bios_version" },
	[TF_DMI_BIOS_DATE] = { "bios-date", "bios_date" },
	[TF_DMI_BIOS_RELEASE] = { "bios-release", "bios_release" },
	[TF_DMI_EC_FIRMWARE_RELEASE] = { "ec-firmware-release", "ec_firmware_release" },
	[TF_DMI_SYS_VENDOR] = { "sys-vendor", "sys_vendor" },
	[TF_DMI_PRODUCT_NAME] = { "product-name", "product_name" },
	[TF_DMI_PRODUCT_VERSION] = { "product-version", "product_version" },
	[TF_DMI_PRODUCT_FAMILY] = { "product-family", "product_family" },
	[TF_DMI_PRODUCT_SKU] = { "product-sku", "product_sku" },
	[TF_DMI_BOARD_VENDOR] = { "board-vendor", "board_vendor" },
	[TF_DMI_BOARD_NAME] = { "board-name", "board_name" },
	[TF_DMI_BOARD_VERSION] = { "board-version", "board_version" },
	[TF_DMI_CHASSIS_VENDOR] = { "chassis-vendor", "chassis_vendor" },
	[TF_DMI_CHASSIS_TYPE] = { "chassis-type", "chassis_type" },
	[TF_DMI_CHASSIS_VERSION] = { "chassis-version", "chassis_version" },
};

/* DMI files that name one unit; explained rather than called unknown. */
static const char *const dmi_unit_keys[] = {
	"product-serial",  "product-uuid",   "board-serial",
	"board-asset-tag", "chassis-serial", "chassis-asset-tag",
};

const char *const board_root_props[R_COUNT_] = {
	[R_VERSION] = "touchfw,profile-version",
	[R_MODEL] = "model",
	[R_BOARD_COMPATIBLE] = "board-compatible",
	[R_BOARD_IDS] = "board-ids",
};

const char *const board_controllers_props[L_COUNT_] = {
	[L_ADDRESS_CELLS] = "#address-cells",
	[L_SIZE_CELLS] = "#size-cells",
};

const char *const board_ctrl_props[C_COUNT_] = {
	[C_FAMILY] = "family",
	[C_BUS] = "bus",
	[C_ADAPTER_NAME] = "adapter-name",
	[C_ADAPTER_PATH] = "adapter-path",
	[C_REG] = "reg",
	[C_BOOTLOADER_REG] = "bootloader-reg",
	[C_HID_DESCR_ADDR] = "hid-descr-addr",
	[C_DRIVER] = "driver",
	[C_RESET_CHIP] = "reset-gpio-chip",
	[C_RESET_LINE] = "reset-gpio-line",
	[C_RESET_NAME] = "reset-gpio-name",
	[C_RESET_ACTIVE_LOW] = "reset-active-low",
	[C_IRQ_CHIP] = "irq-gpio-chip",
	[C_IRQ_LINE] = "irq-gpio-line",
	[C_IRQ_NAME] = "irq-gpio-name",
	[C_IRQ_ACTIVE_LOW] = "irq-active-low",
	[C_POWER] = "power",
	[C_FIRMWARE_PIN] = "firmware-pin",
	[C_CONFIG_PIN] = "config-pin",
	[C_INPUT_TIMEOUT] = "input-timeout-ms",
	[C_FLASH_TIMEOUT] = "flash-timeout-ms",
	[C_CONFIG_NAME] = "config-name",
	[C_SWAPPED_X_Y] = "touchscreen-swapped-x-y",
	[C_SIZE_X] = "touchscreen-size-x",
	[C_SIZE_Y] = "touchscreen-size-y",
	[C_SPI_MAX_FREQ] = "spi-max-frequency",
	[C_SPI_CPOL] = "spi-cpol",
	[C_SPI_CPHA] = "spi-cpha",
	[C_SPI_BITS] = "spi-bits-per-word",
	[C_BUS_RECOVERY] = "allow-bus-recovery",
};

/*
 * Older names a controller's properties are still read by
 * (doc/touchfw-board.5): the interrupt line was first named by one
 * family's word for it.  Messages name a property as the profile wrote it.
 */
static const struct {
	const char *alias;
	enum ctrl_prop prop;
} ctrl_aliases[] = {
	{ "chg-gpio-chip", C_IRQ_CHIP },
	{ "chg-gpio-line", C_IRQ_LINE },
	{ "chg-gpio-name", C_IRQ_NAME },
	{ "chg-active-low", C_IRQ_ACTIVE_LOW },
};

/* Habits from kernel bindings that do not carry over, with what to do. */
static const struct {
	enum node_kind kind;
	const char *prop, *hint;
} prop_hints[] = {
	{ NODE_ROOT, "compatible", "the board's compatible strings go in board-compatible" },
	{ NODE_CONTROLLER, "compatible",
	  "name the controller family with family and the kernel driver "
	  "with driver" },
	{ NODE_CONTROLLER, "reset-gpios",
	  "name the line with reset-gpio-chip + reset-gpio-line, or "
	  "reset-gpio-name; a profile has no GPIO phandles" },
	{ NODE_CONTROLLER, "irq-gpios",
	  "name the interrupt line with irq-gpio-chip + irq-gpio-line, "
	  "or irq-gpio-name" },
	{ NODE_CONTROLLER, "interrupt-gpios",
	  "name the interrupt line with irq-gpio-chip + irq-gpio-line, "
	  "or irq-gpio-name" },
	{ NODE_CONTROLLER, "chg-gpios",
	  "name the interrupt line with irq-gpio-chip + irq-gpio-line, "
	  "or irq-gpio-name" },
	{ NODE_CONTROLLER, "interrupts",
	  "name the interrupt line with irq-gpio-chip + irq-gpio-line, "
	  "or irq-gpio-name" },
	{ NODE_CONTROLLER, "adapter", "name the adapter with adapter-name or adapter-path" },
	{ NODE_CONTROLLER, "adapter-nr",
	  "adapters are named by adapter-name or adapter-path, never by "
	  "number: bus numbers change between boots" },
	{ NODE_CONTROLLER, "bus-number",
	  "adapters are named by adapter-name or adapter-path, never by "
	  "number: bus numbers change between boots" },
	{ NODE_CONTROLLER, "status",
	  "a profile lists only controllers that exist; delete the node "
	  "instead" },
	{ NODE_ANY, "phandle",
	  "something refers to this node by label (&label); profiles have "
	  "no references" },
	{ NODE_ANY, "linux,phandle",
	  "something refers to this node by label (&label); profiles have "
	  "no references" },
};

/* ------------------------------------------------------------- lookups */

const char *tf_dmi_key_property(enum tf_dmi_key key)
{
	return (unsigned)key < TF_DMI_KEY_COUNT_ ? dmi_keys[key].prop : "?";
}

const char *tf_dmi_key_file(enum tf_dmi_key key)
{
	return (unsigned)key < TF_DMI_KEY_COUNT_ ? dmi_keys[key].file : "?";
}

const char *tf_power_name(enum tf_power power)
{
	return power == TF_POWER_ALWAYS_ON ? "always-on" : "driver";
}

int board_ctrl_alias(const char *name, const char **alias)
{
	size_t k;

	for (k = 0; k < TF_ARRAY_SIZE(ctrl_aliases); k++) {
		if (!strcmp(ctrl_aliases[k].alias, name)) {
			*alias = ctrl_aliases[k].alias;
			return (int)ctrl_aliases[k].prop;
		}
	}
	return -1;
}

const char *board_prop_hint(enum node_kind kind, const char *name)
{
	size_t i;

	for (i = 0; i < TF_ARRAY_SIZE(prop_hints); i++)
		if ((prop_hints[i].kind == kind || prop_hints[i].kind == NODE_ANY) &&
		    !strcmp(prop_hints[i].prop, name))
			return prop_hints[i].hint;
	return NULL;
}

bool board_dmi_unit_key(const char *name)
{
	size_t i;

	for (i = 0; i < TF_ARRAY_SIZE(dmi_unit_keys); i++)
		if (!strcmp(dmi_unit_keys[i], name))
			return true;
	return false;
}

/* Levenshtein distance, for "did you mean"; names are short. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[65];

	if (la > 64 || lb > 64)
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char *board_closest(const char *name, const char *const *known, size_t n)
{
	size_t i, best = SIZE_MAX, limit = strlen(name) / 4;
	const char *pick = NULL;

	if (limit < 2)
		limit = 2;
	for (i = 0; i < n; i++) {
		size_t d;

		if (!known[i])
			continue;
		d = edit_distance(name, known[i]);
		if (d <= limit && d < best) {
			best = d;
			pick = known[i];
		}
	}
	return pick;
}

const char *board_family_list(char *buf, size_t size)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; tf_family_ids_all[i] && n < size; i++) {
		int r = snprintf(buf + n, size - n, "%s%s", i ? ", " : "",
				 tf_family_ids_all[i]->name);

		if (r < 0)
			break;
		n += (size_t)r;
	}
	return buf;
}
