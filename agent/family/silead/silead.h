/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Silead GSL1680-family chips (drivers/input/touchscreen/silead.c): no
 * flash; silead_ts loads a per-tablet firmware file into the chip's RAM at
 * every probe -- 8-byte little-endian (register, value) pairs, each sent
 * as a 4-byte I2C block write to the register (silead_ts_load_fw): 0xF0
 * selects a RAM page, 0x00..0x7C are the page's words.  The file is named
 * silead/<firmware-name> when the device has that property (DT, or
 * touchscreen_dmi.c by DMI on x86 tablets), else silead/<ACPI id in lower
 * case>.fw or silead/<i2c id>.fw (silead_ts_set_default_fw_name).  The
 * pure helpers here are shared by the family's operations, its manifest
 * rules and the unit tests.
 */
#ifndef TF_FAMILY_SILEAD_H
#define TF_FAMILY_SILEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define SILEAD_DRIVER_NAME "silead_ts"
#define SILEAD_REG_PAGE 0xf0
#define SILEAD_PAGE_WORDS_END 0x80 /* words at 0x00..0x7C */
#define SILEAD_PAIR_LEN 8
#define SILEAD_FW_MAX (512u * 1024u) /* real files are 20-60 KiB */
#define SILEAD_AXIS_DEFAULT_MAX 4095 /* input_set_abs_params(..., 0, 4095) */

/* What a firmware file holds. */
struct silead_fw_info {
	size_t pairs;
	size_t pages; /* page selects */
	size_t words;
	uint32_t max_page;
};

/*
 * Is @data a file silead_ts can load whole into the chip: a whole number of
 * pairs, the first a page select, every register a page select (value a
 * page number below 256) or a word-aligned word register below 0x80, at
 * least one word.  0, or -EBADMSG with the pair at fault named in @err
 * (@name says which file).
 */
int silead_fw_check(const uint8_t *data, size_t len, const char *name,
		    struct silead_fw_info *info, struct tf_err *err);

/* Is @id a Silead hardware id of a manifest (the driver's i2c id names:
 * gsl1680, gsl1688, gsl3670, gsl3675, gsl3692)? */
bool silead_hw_valid(const char *id);

/*
 * The file silead_ts requests, as it computes it: "silead/@fw_name" when
 * the board gives one (firmware-name), else from the device's @modalias
 * ("acpi:MSSL1680:" -> silead/mssl1680.fw, only for an ACPI id the driver
 * matches) or, for a device-tree or i2c client, the i2c id the driver
 * matched (@compatible "silead,gsl1680" or modalias "i2c:gsl1680" ->
 * silead/gsl1680.fw).  0, or -EINVAL when the device is not one silead_ts
 * takes.
 */
int silead_fw_file_name(const char *fw_name, const char *modalias, const char *compatible,
			char *buf, size_t size);

/* ------------------------------------------------------------ imports
 * (silead-import.c): the formats people have, as the file above. */

#define SILEAD_IMPORT_MAX (4u * 1024u * 1024u)

enum silead_form {
	SILEAD_FORM_GSLX = 1,  /* gslx680_ts_acpi's container */
	SILEAD_FORM_TSCFG,     /* GSL_TS_CFG.h: C arrays of {register, value} */
	SILEAD_FORM_SCRAMBLED, /* the Windows driver's SileadTouch.fw */
};

struct silead_import {
	enum silead_form form;
	uint8_t *fw; /* the pairs silead_ts loads (malloc()ed) */
	size_t len, pages, words;
	char chip[16];	     /* the one chip name the file gives, "" none */
	char chip_from[32];  /* where: "its GSLX header's model", "its text" */
	char chips_seen[64]; /* several different names: all, and chip "" */
	char array[64];	     /* GSL_TS_CFG.h: the array taken */
	bool has_panel;	     /* GSLX: the header's panel parameters */
	struct {
		unsigned width, height, touches;
		bool swapped, xflip, yflip, tracking;
	} panel;
};

/*
 * Turn @data, one of the formats above, into the file silead_ts loads.
 * @part names the array to take when a GSL_TS_CFG.h has several (NULL:
 * there must be one).  0; -EMEDIUMTYPE when @data is none of them (a
 * file silead_ts loads as it is, or not Silead's); -EBADMSG naming @name
 * (and the line or page) when it is one but broken.
 */
int silead_import(const uint8_t *data, size_t len, const char *name, const char *part,
		  struct silead_import *im, struct tf_err *err);
void silead_import_free(struct silead_import *im);
const char *silead_form_name(enum silead_form f);
/*
 * Chip names in @s: "gsl" (any case), an optional '_', 3 or 4 digits
 * ("GSL1680E_FW", "gsl3676-..."), not inside a longer word.  Returns how
 * many different ones; @chip gets the name when exactly one, @all a list.
 */
int silead_chip_names(const char *s, size_t len, char *chip, size_t size, char *all,
		      size_t all_size);
/*
 * silead_ts's id for the chip name @chip ("gsl3676"): the name itself
 * when it is one of the driver's (*@exact), else its series' (gsl168x:
 * gsl1680, gsl367x: gsl3670, gsl369x: gsl3692) or gsl1680 -- the driver
 * loads every one alike.  0, or -EINVAL when @chip is not such a name.
 */
int silead_chip_id(const char *chip, char *id, size_t size, bool *exact);

struct tf_blob;
struct tf_family_ops;
struct tf_family_ids;
extern const struct tf_family_ids tf_family_ids_silead;
extern const struct tf_family_ops silead_ops;
int silead_check_blob(const struct tf_blob *b, const char **key, char *msg, size_t size);
int silead_check_blob_data(const struct tf_blob *b, const uint8_t *data, size_t len, char *msg,
			   size_t size);
/* `db add` (blob.c): the facts of a file silead_ts loads, and the other
 * formats converted into one (family.h, blob_facts and import_blob). */
struct tf_blob_facts;
int silead_blob_facts(const uint8_t *data, size_t len, const char *name,
		      struct tf_blob_facts *f, struct tf_err *err);
int silead_import_blob(const uint8_t *data, size_t len, const char *name, const char *part,
		       uint8_t **out, size_t *out_len, struct tf_blob_facts *f,
		       struct tf_err *err);

#endif /* TF_FAMILY_SILEAD_H */
