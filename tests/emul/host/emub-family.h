/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a family of the emulator registers, and the core services its glue
 * uses.  A family (tests/emul/family/<name>/, listed once in
 * tests/emul/family/registry.def) brings chip models for [chip NAME] (i2c)
 * and [spi-chip NAME] sections -- their board keys, how a model is made
 * from them, its statistics and device-tree properties, what its pins do
 * -- and the kernel drivers modelled for them.  The core (host/) names no
 * family: it reaches each through these tables only.
 */
#ifndef EMUB_FAMILY_H
#define EMUB_FAMILY_H

#include <stdbool.h>
#include <stdio.h>

#include <glib.h>

struct emub;
struct emub_chip;
struct emub_chip_desc;
struct emub_dev;
struct emub_driver_ops;
struct emub_spi_dev;
struct emub_spi_dev_desc;
struct emub_dt_node;

/* ------------------------------------------------------------ board keys */

/* Where a key is being read, for the error messages. */
struct emub_parse {
	const char *grp;      /* "chip ts", "spi-chip ts" */
	const char *base_dir; /* relative file names are relative to it */
	char *err;
	size_t errsz;
};

/* snprintf()s the message into p->err; returns -EINVAL. */
int emub_parse_err(const struct emub_parse *p, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* Numbers in C syntax (0x.., 0..), no sign, trailing blanks allowed. */
bool emub_parse_u32(const char *s, guint32 *out);
/* true/false, yes/no, 1/0 */
bool emub_parse_bool(const char *s, bool *out);
/* KEY's value as a number <= @max into *@out, or the message naming KEY. */
int emub_key_u32(const struct emub_parse *p, const char *key, const char *s, guint32 max,
		 guint32 *out);
int emub_key_bool(const struct emub_parse *p, const char *key, const char *s, bool *out);
/* A file named by a key (relative to the board file): its contents, or the
 * message naming KEY.  g_free() the buffer. */
int emub_key_file(const struct emub_parse *p, const char *key, const char *s, gchar **buf,
		  gsize *len);
/* A line of the board's gpiochip (or none: -1), or the message naming KEY. */
int emub_key_gpio_line(const struct emub_parse *p, const char *key, const char *s, int *out);
/* Is @name in the NULL-terminated @list? */
bool emub_name_in(const char *const *list, const char *name);

/* ------------------------------------------------------------ i2c chip models */

struct emub_chip_model {
	/* the `model` values it stands for, NULL-terminated */
	const char *const *names;
	/* its own board keys, NULL-terminated: the core offers them to
	 * parse_key and refuses them in another model's section */
	const char *const *keys;
	/* its part of the chip description: desc->fam, zeroed, this big */
	size_t fam_size;
	/* defaults (desc->fam zeroed, desc->model set) */
	void (*init)(struct emub_chip_desc *c);
	/* one of its keys: 0, or emub_parse_err() */
	int (*parse_key)(struct emub_chip_desc *c, const char *key, const char *value,
			 const struct emub_parse *p);
	/* all keys read: 0, or emub_parse_err() (a required key missing) */
	int (*check)(struct emub_chip_desc *c, const struct emub_parse *p);
	/* free what desc->fam points to (not fam itself) */
	void (*clear)(struct emub_chip_desc *c);
	/* make the model: c->model (g_malloc'ed) and c->ops */
	int (*create)(struct emub_chip *c);
	/* its statistics: JSON members, each ", \"key\": value" */
	void (*stats_json)(struct emub_chip *c, FILE *f);
	/* Its device-tree node's properties after compatible and reg; NULL:
	 * the generic ones (emub_dt_generic_props). */
	void (*dt_props)(const struct emub_chip_desc *c, struct emub_dt_node *n);
	/* An INT pin both ways (an output of the chip unless the host drives
	 * it): the level the chip puts on it, and the host driving it.  NULL:
	 * the interrupt line follows irq_asserted(), active low, an input. */
	bool (*int_level)(void *model);
	void (*int_drive)(void *model, bool driven, bool level);
	/* its reset and INT lines are active high in device trees (the driver
	 * model requests them so) */
	bool lines_active_high;
	/* may the board wire an INT pin with int_gpio (= chg_gpio)? */
	bool int_gpio;
};

/* ------------------------------------------------------------ spi chip models */

struct emub_spi_chip_model {
	const char *const *names;
	const char *const *keys;
	size_t fam_size;
	void (*init)(struct emub_spi_dev_desc *c);
	int (*parse_key)(struct emub_spi_dev_desc *c, const char *key, const char *value,
			 const struct emub_parse *p);
	void (*clear)(struct emub_spi_dev_desc *c);
	/* make the model: d->model and d->ops (at model time @now_ns) */
	int (*create)(struct emub_spi_dev *d, guint64 now_ns);
	/* free d->model */
	void (*destroy)(struct emub_spi_dev *d);
};

/* A kernel spi driver modelled.  Called without eb->lock.  Its data, if
 * any, hangs on d->drv_priv: one g_malloc'ed block without pointers of its
 * own, kept across binds, freed with the board. */
struct emub_spi_driver {
	const char *name;
	/* probe: 0 or -errno; remove */
	int (*probe)(struct emub_spi_dev *d);
	void (*remove)(struct emub_spi_dev *d);
	/* after a probe that succeeded: its attribute group in sysfs */
	void (*attrs_add)(struct emub_spi_dev *d);
	void (*attrs_remove)(struct emub_spi_dev *d);
	/* a write to its attribute @attr: false when it has none by that
	 * name, else true with *@res what the write returns (0 or -errno) */
	bool (*attr_store)(struct emub_spi_dev *d, const char *attr, int *res);
	/* the attributes whose writes run attr_store (write-only files the
	 * core empties again), NULL-terminated, or NULL */
	const char *const *store_attrs;
};

/* ------------------------------------------------------------ profiles */

/*
 * Rehearsal of a touchfw board profile (host/profile.c, `emuboard
 * --profile`): the core turns each controller node into a [chip NAME]
 * section with the keys every family shares (adapter, address, driver,
 * power, reset_gpio, chg_gpio, touchscreen.*) and asks the node's family
 * (its `family` property names the emulator family of the same name) for
 * the rest: the model, its compatible or ACPI id, the part's identity and
 * the state it starts in.
 */
struct emub_profile_ctl;

/* The node's path ("/controllers/touchscreen@4a") and its properties:
 * a string (NULL when absent), a cell, a flag. */
const char *emub_profile_node(const struct emub_profile_ctl *c);
const char *emub_profile_str(const struct emub_profile_ctl *c, const char *prop);
bool emub_profile_u32(const struct emub_profile_ctl *c, const char *prop, guint32 *out);
bool emub_profile_flag(const struct emub_profile_ctl *c, const char *prop);
/* --hardware NODE=ID for this node (the id as touchfw's database writes
 * it for the family), or NULL: the family's default part. */
const char *emub_profile_hardware(const struct emub_profile_ctl *c);
/* --fw-version NODE=VERSION: the firmware the part runs (touchfw's
 * notation for the family), or NULL: the family's old default. */
const char *emub_profile_fw_version(const struct emub_profile_ctl *c);
/* --bootloader: start the part in its bootloader (recovery, IAP). */
bool emub_profile_bootloader(const struct emub_profile_ctl *c);
/* The board is an ACPI one (dmi-match, no board-compatible): the chip
 * needs an acpi_id its driver matches instead of a compatible. */
bool emub_profile_acpi(const struct emub_profile_ctl *c);
/* Add "KEY = VALUE" to the node's [chip] section. */
void emub_profile_key(struct emub_profile_ctl *c, const char *key, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);
/* "model = @model", and what the board enumerates the chip by: "acpi_id =
 * @acpi_id" on an ACPI board, else "compatible = @compatible". */
void emub_profile_ident(struct emub_profile_ctl *c, const char *model, const char *acpi_id,
			const char *compatible);
/* The message "NODE: FIELD: ..." (FIELD the profile property, or the
 * --hardware option); returns -EINVAL. */
int emub_profile_err(struct emub_profile_ctl *c, const char *field, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

/* ------------------------------------------------------------ families */

struct emub_family {
	const char *name;
	const struct emub_chip_model *const *chips;	    /* NULL-terminated, or NULL */
	const struct emub_spi_chip_model *const *spi_chips; /* the same */
	const struct emub_driver_ops *const *drivers;	    /* i2c drivers */
	const struct emub_spi_driver *const *spi_drivers;
	/* the keys of a profile controller of this family (emub_profile_*):
	 * 0, or emub_profile_err(); NULL: the family can not be rehearsed */
	int (*rehearse)(struct emub_profile_ctl *c);
};

/* tests/emul/family/registry.c: every family, NULL-terminated */
extern const struct emub_family *const emub_families[];

const struct emub_chip_model *emub_chip_model_find(const char *model);
const struct emub_spi_chip_model *emub_spi_chip_model_find(const char *model);
const struct emub_spi_driver *emub_spi_driver_find(const char *name);
/* @name as some spi driver's store_attrs spell it (that static string),
 * or NULL when no driver has an attribute by that name */
const char *emub_spi_store_attr(const char *name);
/* The names of all of a kind, ", "-separated, for messages: g_free(). */
char *emub_chip_model_names(void);
char *emub_spi_chip_model_names(void);
char *emub_driver_names(void);
char *emub_spi_driver_names(void);

/* ------------------------------------------------------------ device tree */

/* dt-bindings/interrupt-controller/irq.h */
#define EMUB_IRQ_TYPE_EDGE_FALLING 2
#define EMUB_IRQ_TYPE_LEVEL_LOW 8

void emub_dt_prop_u32(struct emub_dt_node *n, const char *name, guint32 v);
void emub_dt_prop_str(struct emub_dt_node *n, const char *name, const char *v);
void emub_dt_prop_bool(struct emub_dt_node *n, const char *name);
/* a GPIO of the board's gpiochip: <&gpio LINE FLAGS> */
void emub_dt_prop_gpio(struct emub_dt_node *n, const char *name, int line, bool active_low);
/* interrupts-extended = <&gpio LINE TYPE> (IRQ_TYPE_*) */
void emub_dt_prop_irq(struct emub_dt_node *n, int line, guint32 type);
/* touchscreen.yaml's touchscreen-* properties of the board's touchscreen.* keys */
void emub_dt_touchscreen_props(const struct emub_chip_desc *c, struct emub_dt_node *n);
/* What a chip model without dt_props gets: the touchscreen-* properties,
 * reset-gpios (active low) and interrupts-extended on the CHG line (level
 * low or falling edge, as irq_type says). */
void emub_dt_generic_props(const struct emub_chip_desc *c, struct emub_dt_node *n);

/* ------------------------------------------------------------ run time */

/* The model of chip @dev (the [chip NAME] name or the device name) if it
 * has @ops, else NULL. */
void *emub_chip_model_of(struct emub *eb, const char *dev, const void *ops);
/* The same for an [spi-chip NAME] or "spiN.C". */
void *emub_spi_model_of(struct emub *eb, const char *dev, const void *ops);
/* Run @fn on chip @dev's model with the board's time brought up to now,
 * then let the board see the interrupt lines it changed: -ENODEV when @dev
 * has no model with @ops, else @fn's result. */
int emub_chip_poke(struct emub *eb, const char *dev, const void *ops,
		   int (*fn)(void *model, void *arg), void *arg);
/* emub_chip_poke() for a touch of @n points at @pts (the model's own
 * point type), which @fn hands to the model. */
int emub_chip_touch(struct emub *eb, const char *dev, const void *ops,
		    int (*fn)(void *model, const void *pts, unsigned int n), const void *pts,
		    unsigned int n);

#endif /* EMUB_FAMILY_H */
