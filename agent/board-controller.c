// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One controller node of a board profile: its properties judged one by
 * one (family, bus, adapter, addresses, driver, GPIO lines, power,
 * firmware DB pins, panel and spi settings, timeouts) into a struct
 * tf_controller.  The controllers node around it, and the checks of the
 * controllers against each other, are board-profile.c's.
 */
#include "board.h"
#include "board-parse-priv.h"

#include <ctype.h>
#include <libfdt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family/ids.h"
#include "util.h"

/* GPIO_MAX_NAME_SIZE (uapi/linux/gpio.h) bounds chip labels and names. */
#define GPIO_NAME_MAX 31
/* struct gpio_chip.ngpio is a u16. */
#define GPIO_LINE_MAX 65534u
/* struct i2c_adapter.name is char[48]. */
#define I2C_ADAPTER_NAME_MAX 47
/* 7-bit i2c addresses; 0x00-0x02 and 0x78-0x7f are reserved. */
#define I2C_ADDR_MIN 0x03u
#define I2C_ADDR_MAX 0x77u
#define SPI_CS_MAX 255u

/* A string of letters, digits and @extra. */
static bool charset_ok(const char *s, const char *extra)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return false;
	return true;
}

/* A controller property's name as the profile gave it (an alias or not). */
#define PROP_NAME(v, idx) ((v)[idx].as ? (v)[idx].as : board_ctrl_props[idx])

static void parse_gpio(struct parse_ctx *c, const char *path, const char *what,
		       const struct prop_val *v, enum ctrl_prop chip_idx,
		       struct tf_gpio_spec *spec, bool *has)
{
	const struct prop_val *chip = &v[chip_idx];
	const struct prop_val *line = &v[chip_idx + 1];
	const struct prop_val *name = &v[chip_idx + 2];
	const struct prop_val *al = &v[chip_idx + 3];
	bool ok = true;
	uint32_t off = 0;

	memset(spec, 0, sizeof(*spec));
	spec->line = -1;
	*has = false;
	if (chip->seen && !board_val_string(c, path, PROP_NAME(v, chip_idx), chip, spec->chip,
					    GPIO_NAME_MAX + 1))
		ok = false;
	if (line->seen) {
		if (!board_val_u32(c, path, PROP_NAME(v, chip_idx + 1), line, "12", &off)) {
			ok = false;
		} else if (off > GPIO_LINE_MAX) {
			board_issue(c, path, "%s %u is out of range (0..%u)",
				    PROP_NAME(v, chip_idx + 1), off, GPIO_LINE_MAX);
			ok = false;
		}
	}
	if (name->seen && !board_val_string(c, path, PROP_NAME(v, chip_idx + 2), name,
					    spec->name, GPIO_NAME_MAX + 1))
		ok = false;
	if (al->seen && !board_val_flag(c, path, PROP_NAME(v, chip_idx + 3), al))
		ok = false;

	if (name->seen && (chip->seen || line->seen)) {
		board_issue(c, path,
			    "give %s-gpio-chip + %s-gpio-line or %s-gpio-name, not "
			    "both",
			    what, what, what);
		return;
	}
	if (chip->seen && !line->seen) {
		board_issue(c, path, "%s-gpio-chip needs %s-gpio-line", what, what);
		return;
	}
	if (line->seen && !chip->seen) {
		board_issue(c, path, "%s-gpio-line needs %s-gpio-chip", what, what);
		return;
	}
	if (al->seen && !chip->seen && !name->seen) {
		board_issue(c, path, "%s-active-low without a %s line", what, what);
		return;
	}
	if (!ok || (!chip->seen && !name->seen))
		return;
	if (chip->seen) {
		spec->line = (int)off;
		spec->name[0] = '\0';
	} else {
		spec->chip[0] = '\0';
	}
	spec->active_low = al->seen;
	*has = true;
}

static bool gpio_same(const struct tf_gpio_spec *a, const struct tf_gpio_spec *b)
{
	if (a->name[0] || b->name[0])
		return !strcmp(a->name, b->name);
	return !strcmp(a->chip, b->chip) && a->line == b->line;
}

static bool reg_in_range(const char *bus, uint32_t reg)
{
	if (!strcmp(bus, "i2c"))
		return reg >= I2C_ADDR_MIN && reg <= I2C_ADDR_MAX;
	return reg <= SPI_CS_MAX;
}

static void reg_range_issue(struct parse_ctx *c, const char *path, const char *prop,
			    const char *bus, uint32_t reg)
{
	if (!strcmp(bus, "i2c"))
		board_issue(c, path, "%s 0x%x is not a 7-bit i2c address (0x%02x..0x%02x)",
			    prop, reg, I2C_ADDR_MIN, I2C_ADDR_MAX);
	else
		board_issue(c, path, "%s %u is not an spi chip select (0..%u)", prop, reg,
			    SPI_CS_MAX);
}

static bool parse_timeout(struct parse_ctx *c, const char *path, const struct prop_val *v,
			  enum ctrl_prop idx, uint32_t min, uint32_t max, uint32_t *out)
{
	uint32_t t;

	*out = 0;
	if (!v[idx].seen)
		return true;
	if (!board_val_u32(c, path, board_ctrl_props[idx], &v[idx], "5000", &t))
		return false;
	if (t < min || t > max) {
		board_issue(c, path, "%s %u is out of range (%u..%u)", board_ctrl_props[idx], t,
			    min, max);
		return false;
	}
	*out = t;
	return true;
}

static bool pin_ok(struct parse_ctx *c, const char *path, const struct prop_val *v,
		   enum ctrl_prop idx, char *out, size_t outsz)
{
	if (!v[idx].seen)
		return true;
	if (!board_val_string(c, path, board_ctrl_props[idx], &v[idx], out, outsz))
		return false;
	if (!charset_ok(out, "._+:-")) {
		board_issue(c, path,
			    "%s \"%s\" is not a firmware DB id (letters, digits and "
			    "._+:- only)",
			    board_ctrl_props[idx], out);
		return false;
	}
	return true;
}

/*
 * An adapter "name" that is really a bus number ("i2c-3", "/dev/i2c-3",
 * "3"): returns the "i2c-N" it names, else NULL.
 */
static const char *bus_number_name(const char *name)
{
	static char buf[32];
	const char *p = name;

	if (!strncmp(p, "/dev/", 5))
		p += 5;
	if (!strncmp(p, "i2c-", 4))
		p += 4;
	if (!*p || strlen(p) > 6 || strspn(p, "0123456789") != strlen(p))
		return NULL;
	snprintf(buf, sizeof(buf), "i2c-%s", p);
	return buf;
}

/*
 * Is the controller's driver one of its family's kernel drivers (the
 * family's ids record, family/ids.h)?  Reports it, with the nearest known name,
 * when not: a driver the family does not know never binds the device as
 * one of touchfw's.
 */
static bool family_has_driver(struct parse_ctx *c, const char *path,
			      const struct tf_controller *ctl)
{
	const struct tf_family_ids *fi = tf_family_ids_by_name(ctl->family);
	char known[160] = "", swapped[sizeof(ctl->driver)];
	const char *pick = NULL;
	size_t i, n = 0;

	if (!fi || !fi->drivers)
		return true; /* the family itself is reported elsewhere */
	for (i = 0; fi->drivers[i]; i++)
		if (!strcmp(fi->drivers[i], ctl->driver))
			return true;
	/* Kernel driver names use underscores, never dashes. */
	snprintf(swapped, sizeof(swapped), "%s", ctl->driver);
	for (i = 0; swapped[i]; i++)
		if (swapped[i] == '-')
			swapped[i] = '_';
	for (i = 0; fi->drivers[i]; i++) {
		if (!strcmp(fi->drivers[i], swapped))
			pick = fi->drivers[i];
		if (n < sizeof(known))
			n += (size_t)snprintf(known + n, sizeof(known) - n, "%s%s",
					      i ? ", " : "", fi->drivers[i]);
	}
	if (!pick)
		pick = board_closest(ctl->driver, fi->drivers, i);
	if (pick)
		board_issue(c, path,
			    "driver \"%s\" is not a %s driver (did you mean \"%s\"? "
			    "kernel driver names use underscores)",
			    ctl->driver, ctl->family, pick);
	else
		board_issue(c, path, "driver \"%s\" is not a %s driver (known: %s)",
			    ctl->driver, ctl->family, known);
	return false;
}

/* A controller has no child nodes: each one is reported. */
static bool ctrl_no_children(struct parse_ctx *c, int node, const char *path)
{
	bool ok = true;
	int child;

	fdt_for_each_subnode(child, c->fdt, node) {
		char sub[256], cpath[512];
		int len = 0;
		const char *cname = fdt_get_name(c->fdt, child, &len);

		board_safe_copy(sub, sizeof(sub), cname ? cname : "?",
				cname && len > 0 ? (size_t)len : 1);
		snprintf(cpath, sizeof(cpath), "%s/%s", path, sub);
		board_issue(c, cpath, "unknown node (a controller has no child nodes)");
		ok = false;
	}
	return ok;
}

static bool ctrl_family(struct parse_ctx *c, const char *path, const struct prop_val *v,
			struct tf_controller *ctl)
{
	char family[64] = "", known[256];

	/* known: every family's name, however many there are (not family[],
	 * which holds one name) */
	if (!v[C_FAMILY].seen) {
		board_issue(c, path, "family is missing (known: %s)",
			    board_family_list(known, sizeof(known)));
		return false;
	}
	if (!board_val_string(c, path, "family", &v[C_FAMILY], family, sizeof(family)))
		return false;
	if (!tf_family_ids_by_name(family)) {
		board_issue(c, path, "family \"%s\" is not supported (known: %s)", family,
			    board_family_list(known, sizeof(known)));
		return false;
	}
	/* A known family name always fits. */
	tf_snprintf(ctl->family, sizeof(ctl->family), "%s", family);
	return true;
}

/* ctl->bus is set only when it is "i2c" or "spi": the checks that depend
 * on the bus look at it, and pass over what they can not judge. */
static bool ctrl_bus(struct parse_ctx *c, const char *path, const struct prop_val *v,
		     struct tf_controller *ctl)
{
	char bus[16] = "";

	if (!v[C_BUS].seen) {
		board_issue(c, path, "bus is missing (\"i2c\" or \"spi\")");
		return false;
	}
	if (!board_val_string(c, path, "bus", &v[C_BUS], bus, sizeof(bus)))
		return false;
	if (strcmp(bus, "i2c") && strcmp(bus, "spi")) {
		board_issue(c, path, "bus \"%s\" is not one of \"i2c\", \"spi\"", bus);
		return false;
	}
	tf_snprintf(ctl->bus, sizeof(ctl->bus), "%s", bus);
	return true;
}

static bool ctrl_adapter_name(struct parse_ctx *c, const char *path, const struct prop_val *v,
			      struct tf_controller *ctl)
{
	if (!board_val_string(c, path, "adapter-name", &v[C_ADAPTER_NAME], ctl->adapter_name,
			      sizeof(ctl->adapter_name)))
		return false;
	if (bus_number_name(ctl->adapter_name)) {
		board_issue(c, path,
			    "adapter-name \"%s\" is a bus number, and bus "
			    "numbers change between boots (did you mean the "
			    "adapter's name, as in /sys/bus/i2c/devices/%s/name, "
			    "or its device-tree adapter-path?)",
			    ctl->adapter_name, bus_number_name(ctl->adapter_name));
		return false;
	}
	if (!strcmp(ctl->bus, "i2c") && strlen(ctl->adapter_name) > I2C_ADAPTER_NAME_MAX) {
		board_issue(c, path,
			    "adapter-name is longer than %d characters, more "
			    "than an i2c adapter name can hold",
			    I2C_ADAPTER_NAME_MAX);
		return false;
	}
	return true;
}

static bool ctrl_adapter_path(struct parse_ctx *c, const char *path, const struct prop_val *v,
			      struct tf_controller *ctl)
{
	const char *plain;

	if (!board_val_string(c, path, "adapter-path", &v[C_ADAPTER_PATH], ctl->adapter_path,
			      sizeof(ctl->adapter_path)))
		return false;
	plain = board_dt_path_strip(ctl->adapter_path);
	if (plain != ctl->adapter_path) {
		/* Copied from a shell: it could never match. */
		board_issue(c, path,
			    "adapter-path \"%s\" is a path in /proc or /sys; "
			    "write the device-tree path \"%s\"",
			    ctl->adapter_path, *plain ? plain : "/");
		return false;
	}
	if (!board_dt_path_ok(ctl->adapter_path)) {
		board_issue(c, path,
			    "adapter-path \"%s\" is not an absolute "
			    "device-tree node path like \"/soc/i2c@7000c400\"",
			    ctl->adapter_path);
		return false;
	}
	return true;
}

/* Exactly one of adapter-name and adapter-path. */
static bool ctrl_adapter(struct parse_ctx *c, const char *path, const struct prop_val *v,
			 struct tf_controller *ctl)
{
	if (v[C_ADAPTER_NAME].seen && v[C_ADAPTER_PATH].seen) {
		board_issue(c, path,
			    "give exactly one of adapter-name and adapter-path; both "
			    "are given");
		return false;
	}
	if (!v[C_ADAPTER_NAME].seen && !v[C_ADAPTER_PATH].seen) {
		board_issue(c, path,
			    "adapter-name or adapter-path is missing (adapters are "
			    "named, never numbered)");
		return false;
	}
	if (v[C_ADAPTER_NAME].seen)
		return ctrl_adapter_name(c, path, v, ctl);
	return ctrl_adapter_path(c, path, v, ctl);
}

/*
 * reg, and the node's unit address, which must agree with it.  *@reg_ok
 * when reg is in range for a known bus (ctl->reg set); without a known bus
 * it is read but not judged.
 */
static bool ctrl_reg(struct parse_ctx *c, const char *path, const char *name,
		     const struct prop_val *v, struct tf_controller *ctl, bool *reg_ok)
{
	uint32_t reg = 0;
	const char *at;
	char want[16];

	*reg_ok = false;
	if (!v[C_REG].seen) {
		board_issue(c, path,
			    "reg is missing (the i2c address or spi chip "
			    "select, like reg = <0x4a>;)");
		return false;
	}
	if (!board_val_u32(c, path, "reg", &v[C_REG], "0x4a", &reg))
		return false;
	if (!ctl->bus[0])
		return true;
	if (!reg_in_range(ctl->bus, reg)) {
		reg_range_issue(c, path, "reg", ctl->bus, reg);
		return false;
	}
	ctl->reg = (uint16_t)reg;
	*reg_ok = true;
	at = strchr(name, '@');
	if (!at)
		return true;
	snprintf(want, sizeof(want), "%x", reg);
	if (strcmp(at + 1, want)) {
		board_issue(c, path,
			    "unit address \"%s\" does not match reg 0x%x "
			    "(name the node %.*s@%s)",
			    at + 1, reg, (int)(at - name), name, want);
		return false;
	}
	return true;
}

/* @prop is for i2c controllers: false (reported) on one of another bus. */
static bool i2c_only(struct parse_ctx *c, const char *path, const struct tf_controller *ctl,
		     const char *prop)
{
	if (!ctl->bus[0] || !strcmp(ctl->bus, "i2c"))
		return true;
	board_issue(c, path, "%s is for i2c controllers only", prop);
	return false;
}

/* The i2c address of the chip's bootloader, other than reg (@reg_ok). */
static bool ctrl_bootloader_reg(struct parse_ctx *c, const char *path, const struct prop_val *v,
				struct tf_controller *ctl, bool reg_ok)
{
	uint32_t blreg = 0;

	if (!v[C_BOOTLOADER_REG].seen)
		return true;
	if (!board_val_u32(c, path, "bootloader-reg", &v[C_BOOTLOADER_REG], "0x26", &blreg))
		return false;
	if (!i2c_only(c, path, ctl, "bootloader-reg"))
		return false;
	if (ctl->bus[0] && !reg_in_range(ctl->bus, blreg)) {
		reg_range_issue(c, path, "bootloader-reg", ctl->bus, blreg);
		return false;
	}
	if (reg_ok && blreg == ctl->reg) {
		board_issue(c, path, "bootloader-reg 0x%x is the same as reg", blreg);
		return false;
	}
	ctl->has_bootloader_reg = true;
	ctl->bootloader_reg = (uint16_t)blreg;
	return true;
}

/* hid-descr-addr: the HID descriptor register (HID over I2C), as the
 * kernel's hid-over-i2c binding names it */
static bool ctrl_hid_descr_addr(struct parse_ctx *c, const char *path, const struct prop_val *v,
				struct tf_controller *ctl)
{
	uint32_t dreg;

	if (!v[C_HID_DESCR_ADDR].seen)
		return true;
	if (!board_val_u32(c, path, "hid-descr-addr", &v[C_HID_DESCR_ADDR], "0x0001", &dreg))
		return false;
	if (!i2c_only(c, path, ctl, "hid-descr-addr"))
		return false;
	if (dreg > 0xffff) {
		board_issue(c, path, "hid-descr-addr 0x%x is not a 16-bit register", dreg);
		return false;
	}
	ctl->has_hid_descr_addr = true;
	ctl->hid_descr_addr = (uint16_t)dreg;
	return true;
}

static bool ctrl_driver(struct parse_ctx *c, const char *path, const struct prop_val *v,
			struct tf_controller *ctl)
{
	if (!v[C_DRIVER].seen)
		return true;
	if (!board_val_string(c, path, "driver", &v[C_DRIVER], ctl->driver,
			      sizeof(ctl->driver)))
		return false;
	if (!charset_ok(ctl->driver, "_-")) {
		board_issue(c, path,
			    "driver \"%s\" is not a kernel driver name "
			    "(letters, digits, _ and - only)",
			    ctl->driver);
		return false;
	}
	return !ctl->family[0] || family_has_driver(c, path, ctl);
}

/* The reset and interrupt lines, never the same one. */
static bool ctrl_gpios(struct parse_ctx *c, const char *path, const struct prop_val *v,
		       struct tf_controller *ctl)
{
	/* the interrupt line's properties by their old names say "chg" */
	const char *irq_word = v[C_IRQ_CHIP].as || v[C_IRQ_LINE].as || v[C_IRQ_NAME].as ||
					       v[C_IRQ_ACTIVE_LOW].as
				       ? "chg"
				       : "irq";
	bool ok = true;

	parse_gpio(c, path, "reset", v, C_RESET_CHIP, &ctl->reset, &ctl->has_reset);
	parse_gpio(c, path, irq_word, v, C_IRQ_CHIP, &ctl->irq, &ctl->has_irq);
	if ((v[C_RESET_CHIP].seen || v[C_RESET_NAME].seen || v[C_RESET_LINE].seen ||
	     v[C_RESET_ACTIVE_LOW].seen) &&
	    !ctl->has_reset)
		ok = false;
	if ((v[C_IRQ_CHIP].seen || v[C_IRQ_NAME].seen || v[C_IRQ_LINE].seen ||
	     v[C_IRQ_ACTIVE_LOW].seen) &&
	    !ctl->has_irq)
		ok = false;
	if (ctl->has_reset && ctl->has_irq && gpio_same(&ctl->reset, &ctl->irq)) {
		board_issue(c, path, "reset and %s name the same GPIO line", irq_word);
		ok = false;
	}
	return ok;
}

static bool ctrl_power(struct parse_ctx *c, const char *path, const struct prop_val *v,
		       struct tf_controller *ctl)
{
	char power[32] = "";

	if (!v[C_POWER].seen) {
		board_issue(c, path,
			    "power is missing: say \"driver\" (the kernel driver "
			    "switches the chip's power; never unbind to flash) or "
			    "\"always-on\"");
		return false;
	}
	if (!board_val_string(c, path, "power", &v[C_POWER], power, sizeof(power)))
		return false;
	if (!strcmp(power, "driver")) {
		ctl->power = TF_POWER_DRIVER;
	} else if (!strcmp(power, "always-on")) {
		ctl->power = TF_POWER_ALWAYS_ON;
	} else {
		board_issue(c, path,
			    "power \"%s\" is not one of \"driver\", "
			    "\"always-on\"",
			    power);
		return false;
	}
	return true;
}

/* What the controller is given: the firmware DB pins, and the driver's
 * configuration file name as the board's DT gives it. */
static bool ctrl_files(struct parse_ctx *c, const char *path, const struct prop_val *v,
		       struct tf_controller *ctl)
{
	bool ok = true;

	if (!pin_ok(c, path, v, C_FIRMWARE_PIN, ctl->firmware_pin, sizeof(ctl->firmware_pin)))
		ok = false;
	if (!pin_ok(c, path, v, C_CONFIG_PIN, ctl->config_pin, sizeof(ctl->config_pin)))
		ok = false;
	if (!v[C_CONFIG_NAME].seen)
		return ok;
	if (!board_val_string(c, path, "config-name", &v[C_CONFIG_NAME], ctl->config_name,
			      sizeof(ctl->config_name)))
		return false;
	if (!charset_ok(ctl->config_name, "._-") || !strcmp(ctl->config_name, ".") ||
	    !strcmp(ctl->config_name, "..")) {
		board_issue(c, path,
			    "config-name \"%s\" is not a plain file name "
			    "(letters, digits and ._- only)",
			    ctl->config_name);
		return false;
	}
	return ok;
}

/* The flags, and the panel's size as the kernel's touchscreen-size-x/-y
 * give it (touchscreen.yaml: the largest coordinate + 1). */
static bool ctrl_flags_size(struct parse_ctx *c, const char *path, const struct prop_val *v,
			    struct tf_controller *ctl)
{
	bool ok = true;

	if (v[C_SWAPPED_X_Y].seen) {
		if (board_val_flag(c, path, "touchscreen-swapped-x-y", &v[C_SWAPPED_X_Y]))
			ctl->swapped_x_y = true;
		else
			ok = false;
	}
	if (v[C_BUS_RECOVERY].seen) {
		if (board_val_flag(c, path, "allow-bus-recovery", &v[C_BUS_RECOVERY]))
			ctl->bus_recovery = true;
		else
			ok = false;
	}
	for (int i = C_SIZE_X; i <= C_SIZE_Y; i++) {
		uint32_t *out = i == C_SIZE_X ? &ctl->size_x : &ctl->size_y;

		if (!v[i].seen)
			continue;
		if (!board_val_u32(c, path, board_ctrl_props[i], &v[i], "1280", out)) {
			ok = false;
		} else if (*out < 1 || *out > 65536) {
			board_issue(c, path, "%s %u is out of range (1..65536)",
				    board_ctrl_props[i], *out);
			ok = false;
		}
	}
	return ok;
}

static bool ctrl_spi_mode(struct parse_ctx *c, const char *path, const struct prop_val *v,
			  struct tf_controller *ctl)
{
	bool ok = true;

	if (!v[C_SPI_CPOL].seen && !v[C_SPI_CPHA].seen)
		return true;
	ctl->has_spi_mode = true;
	if (v[C_SPI_CPOL].seen) {
		if (board_val_flag(c, path, "spi-cpol", &v[C_SPI_CPOL]))
			ctl->spi_mode |= 2; /* SPI_CPOL */
		else
			ok = false;
	}
	if (v[C_SPI_CPHA].seen) {
		if (board_val_flag(c, path, "spi-cpha", &v[C_SPI_CPHA]))
			ctl->spi_mode |= 1; /* SPI_CPHA */
		else
			ok = false;
	}
	return ok;
}

/* spi settings: the bus's own properties, as in spi-peripheral-props */
static bool ctrl_spi(struct parse_ctx *c, const char *path, const struct prop_val *v,
		     struct tf_controller *ctl)
{
	bool ok = true;

	for (int k = C_SPI_MAX_FREQ; k <= C_SPI_BITS; k++) {
		if (v[k].seen && strcmp(ctl->bus, "spi")) {
			board_issue(c, path, "%s is an spi setting; bus is \"%s\"",
				    board_ctrl_props[k], ctl->bus);
			ok = false;
		}
	}
	if (v[C_SPI_MAX_FREQ].seen) {
		if (!board_val_u32(c, path, "spi-max-frequency", &v[C_SPI_MAX_FREQ], "8000000",
				   &ctl->spi_max_hz)) {
			ok = false;
		} else if (ctl->spi_max_hz < TF_BOARD_SPI_HZ_MIN ||
			   ctl->spi_max_hz > TF_BOARD_SPI_HZ_MAX) {
			board_issue(c, path, "spi-max-frequency %u is not %u..%u Hz",
				    ctl->spi_max_hz, TF_BOARD_SPI_HZ_MIN, TF_BOARD_SPI_HZ_MAX);
			ok = false;
		}
	}
	if (!ctrl_spi_mode(c, path, v, ctl))
		ok = false;
	if (v[C_SPI_BITS].seen) {
		uint32_t bits = 0;

		if (!board_val_u32(c, path, "spi-bits-per-word", &v[C_SPI_BITS], "8", &bits)) {
			ok = false;
		} else if (bits < 1 || bits > 32) {
			board_issue(c, path, "spi-bits-per-word %u is not 1..32", bits);
			ok = false;
		} else {
			ctl->spi_bits = (uint8_t)bits;
		}
	}
	return ok;
}

/*
 * Validate one controller node; false if it has mistakes.  Every check
 * runs, in this order, whatever the ones before found, so that one run
 * reports all of a node's mistakes.
 */
bool board_parse_controller(struct parse_ctx *c, int node, const char *path, const char *name,
			    struct tf_controller *ctl)
{
	struct prop_val v[C_COUNT_];
	bool ok, reg_ok;

	memset(ctl, 0, sizeof(*ctl));
	snprintf(ctl->node_path, sizeof(ctl->node_path), "%s", path);
	board_read_props(c, node, path, NODE_CONTROLLER, board_ctrl_props, C_COUNT_, v);

	ok = ctrl_no_children(c, node, path);
	ok = ctrl_family(c, path, v, ctl) && ok;
	ok = ctrl_bus(c, path, v, ctl) && ok;
	ok = ctrl_adapter(c, path, v, ctl) && ok;
	ok = ctrl_reg(c, path, name, v, ctl, &reg_ok) && ok;
	ok = ctrl_bootloader_reg(c, path, v, ctl, reg_ok) && ok;
	ok = ctrl_hid_descr_addr(c, path, v, ctl) && ok;
	ok = ctrl_driver(c, path, v, ctl) && ok;
	ok = ctrl_gpios(c, path, v, ctl) && ok;
	ok = ctrl_power(c, path, v, ctl) && ok;
	ok = ctrl_files(c, path, v, ctl) && ok;
	ok = ctrl_flags_size(c, path, v, ctl) && ok;
	ok = ctrl_spi(c, path, v, ctl) && ok;
	ok = parse_timeout(c, path, v, C_INPUT_TIMEOUT, TF_BOARD_INPUT_TIMEOUT_MIN_MS,
			   TF_BOARD_INPUT_TIMEOUT_MAX_MS, &ctl->input_timeout_ms) &&
	     ok;
	ok = parse_timeout(c, path, v, C_FLASH_TIMEOUT, TF_BOARD_FLASH_TIMEOUT_MIN_MS,
			   TF_BOARD_FLASH_TIMEOUT_MAX_MS, &ctl->flash_timeout_ms) &&
	     ok;
	return ok && reg_ok;
}
