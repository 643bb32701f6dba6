// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Cypress trackpad operations.  Facts from cyapa.c and cyapa_gen3.c:
 *  - cyapa binds a trackpad that runs its application and one left in its
 *    bootloader alike (cyapa_detect: "device detected but not
 *    operational"); only the first gets an input device.  Its attribute
 *    `mode` says which ("gen3 operational", "gen3 bootloader idle", ...),
 *    `product_id` the id it read from the query block (empty in the
 *    bootloader: it never reads it there), `firmware_version` "%d.%d".
 *    Reading them does no I/O (the driver prints what it keeps), so
 *    detection through them is safe while it drives the trackpad; the
 *    other attributes (baseline, calibrate) send commands and are never
 *    touched.
 *  - unbound, the Gen3 registers answer a register pointer and a read:
 *    0..15 the bootloader's head or the application's data registers,
 *    0x2a.. the 27 query bytes in the application (product id, version,
 *    generation).  Detection reads them and writes nothing else -- not
 *    even the 00 00 cyapa_get_state writes to make a part refresh its
 *    state.
 *  - Gen5 and Gen6 (PIP) parts (cyapa_gen5.c, cyapa_gen6.c) show the same
 *    attributes, their mode "gen5 operational" / "gen6 operational" or
 *    "gen5 bootloader" / "gen6 bootloader"; their image is another format
 *    (cyapa_pip_check_fw), its head naming the part's generation (family
 *    id 0x91, silicon id 0x02 for Gen5; 0x9b, 0x0b for Gen6): the image
 *    checked is the trackpad's generation's, another refused before
 *    update_fw is written.  Both flash through the same PIP bootloader
 *    (cyapa_gen6_ops takes Gen5's bl_enter, bl_initiate, update_fw).
 *  - unbound, a PIP part (at an even address: cyapa_get_state) answers
 *    no registers but its output buffer: a read gives the oldest report,
 *    a little-endian length first -- 00 00 after power-on or a reset (the
 *    launch data), 02 00 when it has nothing (cyapa_empty_pip_output_data
 *    reads it out so); written the HID descriptor register 0x0001, it
 *    answers its 32-byte HID descriptor, report id 0xf7 in the application
 *    and 0xff in the bootloader (cyapa_sort_pip_hid_descriptor_data: all
 *    cyapa_pip_state_parse asks of it), the maximum output length at 16
 *    (0x00fe and 0x0100 for Gen5: gen5_idle_state_parse; Gen6's is not
 *    public).  Detection reads the buffer out and asks the descriptor --
 *    a register pointer, as any HID-over-I2C host reads it -- only after
 *    the part said "no data" as PIP says it.  The generation (Gen5 or
 *    Gen6: the family and silicon ids), product id and version take a
 *    command (system information, or the bootloader's information), left
 *    to cyapa: touchfw binds it and reads them from its attributes before
 *    anything is written.
 *  - a name written to update_fw makes the driver request that file,
 *    refuse one that fails its checks (-EINVAL, nothing sent), drop its
 *    input device, flash from the bootloader (entered by a soft reset when
 *    the application runs), and detect again: from a good image it
 *    registers a new input device, by itself.  The write returns when it
 *    is done, with its error.
 */
#include "cyapa.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcode.h"
#include "family/update-path.h"
#include "log.h"

/* cyapa's attribute group comes in its probe, which may poll a part for
 * seconds (cyapa_poll_state: 4 s): waited for while the link stays. */
#define CYAPA_ATTR_WAIT_MS TF_BIND_TIMEOUT_MS

#define GEN3_QUERY_REG 0x2a /* REG_OFFSET_QUERY_BASE */
#define GEN3_QUERY_SIZE 27  /* QUERY_DATA_SIZE */
#define GEN3_BL_HEAD_SIZE 16
#define GEN3_BL_FW_MAJ 0x0b /* GEN3_BL_IDLE_FW_MAJ_VER_OFFSET */
#define BL_STATUS_CSUM_VALID 0x01
#define BL_STATUS_RUNNING 0x10

/* PIP (cyapa_gen5.c, cyapa.h) */
#define PIP_RESP_LENGTH_SIZE 2
#define PIP_REG_MAP_SIZE 256 /* CYAPA_REG_MAP_SIZE: no report is longer */
#define PIP_HID_DESCRIPTOR_SIZE 32
#define PIP_HID_APP_REPORT_ID 0xf7
#define PIP_HID_BL_REPORT_ID 0xff
#define PIP_DRAIN_READS 8 /* reports read out before giving up */

static int attr(struct tf_ctx *c, const char *name, char *buf, size_t size, struct tf_err *err)
{
	return tf_driver_attr_wait(c, name, buf, size, CYAPA_ATTR_WAIT_MS, err);
}

static uint16_t chip_addr(const struct tf_ctx *c)
{
	return c->ctrl ? c->ctrl->reg : c->dev.addr;
}

static void set_version(struct tf_chip_state *st, unsigned major, unsigned minor)
{
	tf_snprintf(st->version_str, sizeof(st->version_str), "%u.%u", major, minor);
	st->has_version = tf_version_parse(tf_family_ids_cyapa.name, st->version_str,
					   &st->version) == 0;
}

/* "%d.%d" as firmware_version prints it. */
static int parse_version(const char *s, unsigned *major, unsigned *minor)
{
	char tail;

	if (!s || s[0] < '0' || s[0] > '9' || sscanf(s, "%u.%u%c", major, minor, &tail) != 2 ||
	    *major > 255 || *minor > 255)
		return -EBADMSG;
	return 0;
}

/* A part of a generation touchfw does not serve: nothing is sent. */
static int other_generation(struct tf_ctx *c, unsigned gen, struct tf_err *err)
{
	return tf_err_set(err, EOPNOTSUPP,
			  "%s drives a Gen%u trackpad: touchfw updates Cypress Gen3, Gen5 and "
			  "Gen6 trackpads only; not touched",
			  c->dev.driver, gen);
}

/* Per run: the product the image's file name gives, "" when none; the
 * trackpad's generation as detected and the image's. */
struct cyapa_run {
	char name_product[CYAPA_PRODUCT_ID_LEN + 1];
	unsigned gen, image_gen; /* 0: not known yet */
};

static int detect_bound(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	char mode[64], id[64], fw[32];
	unsigned gen, major, minor;
	bool op;

	if (attr(c, "mode", mode, sizeof(mode), err) < 0)
		return -err->code;
	if (cyapa_parse_mode(mode, &gen, &op) < 0)
		return tf_err_set(err, EBADMSG,
				  "%s's mode \"%s\" is none cyapa prints for a trackpad it "
				  "serves; not touched",
				  c->dev.driver, mode);
	if (gen != 3 && gen != 5 && gen != 6)
		return other_generation(c, gen, err);
	if (c->priv)
		((struct cyapa_run *)c->priv)->gen = gen;
	if (attr(c, "firmware_version", fw, sizeof(fw), err) < 0)
		return -err->code;
	if (parse_version(fw, &major, &minor) < 0)
		return tf_err_set(
			err, EBADMSG,
			"firmware_version \"%s\" is not as cyapa prints it (\"%%d.%%d\")", fw);
	st->bl_addr = chip_addr(c);
	if (!op) {
		/* No product id: the driver reads it only from a running
		 * application.  Nor a version: the driver takes one from the
		 * bootloader only while the flash's checksum is valid and
		 * otherwise keeps the last it read (after an update cut short,
		 * the old application's), so it is said as that and not
		 * taken. */
		st->mode = TF_CHIP_BOOTLOADER;
		tf_snprintf(
			st->detail, sizeof(st->detail),
			"%s bound with the trackpad in its bootloader (%s; firmware_version "
			"%s is the last %s read): no input device, its %s flashes from "
			"there",
			c->dev.driver, mode, fw, c->dev.driver, CYAPA_UPDATE_ATTR);
		return 0;
	}
	if (attr(c, "product_id", id, sizeof(id), err) < 0)
		return -err->code;
	if (!cyapa_product_id_ok(id))
		return tf_err_set(err, EBADMSG,
				  "product_id \"%s\" is not one cyapa operates (\"CYTRA-\" 6 "
				  "\"-\" 2); not touched",
				  id);
	st->mode = TF_CHIP_APP;
	tf_snprintf(st->hw, sizeof(st->hw), "%s", id);
	set_version(st, major, minor);
	tf_snprintf(st->detail, sizeof(st->detail), "%s: %s, product %s, firmware %s",
		    c->dev.driver, mode, id, st->version_str);
	return 0;
}

static int reg_read(struct tf_ctx *c, uint8_t reg, uint8_t *buf, size_t len)
{
	return tf_i2c_write_read(c->bus, chip_addr(c), &reg, 1, buf, len);
}

static unsigned le16(const uint8_t *p)
{
	return (unsigned)(p[0] | p[1] << 8);
}

/*
 * Unbound, after the Gen3 registers said nothing (@h, the 16 bytes read
 * at register 0): a PIP trackpad (Gen5 or Gen6), as cyapa_pip_state_parse
 * finds one.  Reads its output buffer out until it says "no data" (02 00)
 * twice -- anything else (a length past any report, no 02 00) is not PIP,
 * and nothing is written -- then reads the HID descriptor (its register
 * pointer, then 32 bytes, in one transfer): 32 bytes, report id 0xf7 (the
 * application) or 0xff (the bootloader).  Its generation takes a command:
 * not known here.  0: identified (@st filled); -ENOENT: not a PIP
 * trackpad (nothing written); -EBADMSG: a PIP device whose descriptor is
 * no trackpad's cyapa takes (@err says so); other negative: the bus
 * failed (@err).
 */
static int detect_pip(struct tf_ctx *c, const uint8_t h[PIP_RESP_LENGTH_SIZE],
		      struct tf_chip_state *st, struct tf_err *err)
{
	static const uint8_t hid_desc_reg[2] = { 0x01, 0x00 };
	uint16_t addr = chip_addr(c);
	uint8_t b[PIP_REG_MAP_SIZE];
	unsigned len = le16(h), idle = 0, i, report, max_out;
	int rc;

	/* cyapa looks for PIP parts at even addresses only; an idle one
	 * gave its launch data (00 00) or "no data" (02 00) there */
	if ((addr & 1) || (len != 0 && len != PIP_RESP_LENGTH_SIZE))
		return -ENOENT;
	for (i = 0; i < PIP_DRAIN_READS && idle < 2; i++) {
		if ((rc = tf_i2c_read(c->bus, addr, b, PIP_RESP_LENGTH_SIZE)) < 0)
			return tf_err_set(err, -rc, "reading the output buffer at 0x%02x: %s",
					  addr, strerror(-rc));
		len = le16(b);
		if (len == PIP_RESP_LENGTH_SIZE) {
			idle++;
			continue;
		}
		idle = 0;
		if (len == 0)
			continue;
		if (len > sizeof(b))
			return -ENOENT;
		/* a report queued: read out whole, as cyapa does */
		if ((rc = tf_i2c_read(c->bus, addr, b, len)) < 0)
			return tf_err_set(err, -rc, "reading a %u-byte report at 0x%02x: %s",
					  len, addr, strerror(-rc));
	}
	if (idle < 2)
		return -ENOENT;
	rc = tf_i2c_write_read(c->bus, addr, hid_desc_reg, sizeof(hid_desc_reg), b,
			       PIP_HID_DESCRIPTOR_SIZE);
	if (rc < 0)
		return tf_err_set(err, -rc, "reading the HID descriptor (0x0001) at 0x%02x: %s",
				  addr, strerror(-rc));
	len = le16(b);
	report = b[2];
	max_out = le16(b + 16);
	if (len == PIP_RESP_LENGTH_SIZE || len == 0)
		return tf_err_set(
			err, EBADMSG,
			"the device at 0x%02x answers as a PIP device (\"no data\": 02 "
			"00) but gives no HID descriptor: a Gen5 or Gen6 trackpad in "
			"deep sleep (cyapa leaves one so while nobody uses its input "
			"device) answers nothing until the power command wakes it, "
			"and touchfw sends no command to a device it has not "
			"identified; not touched further (binding cyapa wakes it)",
			addr);
	if (len == PIP_HID_DESCRIPTOR_SIZE && report == PIP_HID_APP_REPORT_ID)
		st->mode = TF_CHIP_APP;
	else if (len == PIP_HID_DESCRIPTOR_SIZE && report == PIP_HID_BL_REPORT_ID)
		st->mode = TF_CHIP_BOOTLOADER;
	else
		return tf_err_set(
			err, EBADMSG,
			"the device at 0x%02x answers as a PIP device (\"no data\": 02 "
			"00) but its HID descriptor (length %u, report id 0x%02x) is no "
			"trackpad's cyapa takes (32 bytes, report id 0xf7 or 0xff); not "
			"touched further",
			addr, len, report);
	st->bl_addr = addr;
	/* (Gen5's maximum output lengths prove no Gen5 part: Gen6's are not
	 * public) */
	tf_snprintf(st->detail, sizeof(st->detail),
		    "PIP trackpad at 0x%02x in its %s (HID descriptor: report id 0x%02x, "
		    "maximum output length %u): Gen5 or Gen6, cyapa reads which",
		    addr, st->mode == TF_CHIP_APP ? "application" : "bootloader", report,
		    max_out);
	return 0;
}

/* Unbound: the registers, read only; a PIP (Gen5 or Gen6) trackpad by its
 * output buffer and HID descriptor (detect_pip). */
static int detect_bus(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	uint8_t h[GEN3_BL_HEAD_SIZE], q[GEN3_QUERY_SIZE];
	char id[CYAPA_PRODUCT_ID_LEN + 1];
	unsigned major, minor;
	bool busy;
	int rc, app;

	memset(st, 0, sizeof(*st));
	if (!c->bus)
		return tf_err_set(err, ENODEV, "no driver bound and no bus open");
	rc = reg_read(c, 0x00, h, sizeof(h));
	if (rc < 0 && tf_i2c_nak(rc)) {
		st->mode = TF_CHIP_ABSENT;
		tf_snprintf(st->detail, sizeof(st->detail), "no answer at 0x%02x",
			    chip_addr(c));
		return 0;
	}
	if (rc < 0)
		return tf_err_set(err, -rc, "reading registers 0-15 at 0x%02x: %s",
				  chip_addr(c), strerror(-rc));
	app = cyapa_gen3_state(h, &busy);
	if (app < 0 && (rc = detect_pip(c, h, st, err)) != -ENOENT)
		return rc;
	if (app < 0)
		return tf_err_set(err, EBADMSG,
				  "the device at 0x%02x is not a Cypress Gen3 trackpad: its "
				  "registers 0-2 read %02x %02x %02x, neither a bootloader's "
				  "nor an application's state; nor a PIP one (%s); not "
				  "touched",
				  chip_addr(c), h[0], h[1], h[2],
				  chip_addr(c) & 1 ? "they sit at even addresses"
						   : "no \"no data\" (02 00) as PIP answers");
	st->bl_addr = chip_addr(c);
	if (!app) {
		st->mode = TF_CHIP_BOOTLOADER;
		if (h[1] == (BL_STATUS_RUNNING | BL_STATUS_CSUM_VALID))
			set_version(st, h[GEN3_BL_FW_MAJ], h[GEN3_BL_FW_MAJ + 1]);
		tf_snprintf(st->detail, sizeof(st->detail),
			    "Gen3 bootloader at 0x%02x (status 0x%02x, error 0x%02x%s): %s",
			    chip_addr(c), h[1], h[2], busy ? ", busy" : "",
			    h[1] & BL_STATUS_CSUM_VALID
				    ? "its application's checksum is valid; cyapa launches it"
				    : "no valid application; cyapa binds it without an input "
				      "device");
		return 0;
	}
	if ((rc = reg_read(c, GEN3_QUERY_REG, q, sizeof(q))) < 0)
		return tf_err_set(err, -rc, "reading the query block (0x%02x) at 0x%02x: %s",
				  GEN3_QUERY_REG, chip_addr(c), strerror(-rc));
	if (cyapa_gen3_query(q, id, &major, &minor) < 0)
		return tf_err_set(err, EBADMSG,
				  "the device at 0x%02x is not a Cypress Gen3 trackpad cyapa "
				  "operates: its query block (0x%02x) gives generation %u and "
				  "product id \"%.5s...\"; not touched",
				  chip_addr(c), GEN3_QUERY_REG, q[20] & 0x0f, (const char *)q);
	st->mode = TF_CHIP_APP;
	tf_snprintf(st->hw, sizeof(st->hw), "%s", id);
	set_version(st, major, minor);
	tf_snprintf(st->detail, sizeof(st->detail),
		    "Gen3 application at 0x%02x: product %s, firmware %s", chip_addr(c), id,
		    st->version_str);
	return 0;
}

static int cyapa_detect(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	memset(st, 0, sizeof(*st));
	if (!strcmp(c->dev.driver, tf_family_ids_cyapa.drivers[0]))
		return detect_bound(c, st, err);
	if (c->dev.driver[0])
		return tf_err_set(err, EBADMSG,
				  "the device is bound to %s, not to cyapa: not a trackpad "
				  "touchfw may touch; not touched",
				  c->dev.driver);
	return detect_bus(c, st, err);
}

static int cyapa_init(struct tf_ctx *c, struct tf_err *err)
{
	c->priv = calloc(1, sizeof(struct cyapa_run));
	return c->priv ? 0 : tf_err_set(err, ENOMEM, "out of memory");
}

static void cyapa_fini(struct tf_ctx *c)
{
	free(c->priv);
	c->priv = NULL;
}

/* Takes @data (malloc()ed): kept in the image, or freed on refusal.  The
 * image does not say its product; a file named as ChromeOS names them
 * does (kept for cyapa_fw_write). */
static int cyapa_load_firmware(struct tf_ctx *c, uint8_t *data, size_t len, const char *name,
			       void **img, struct tf_err *err)
{
	struct cyapa_run *run = c->priv;
	char why[200];
	unsigned maj, min;
	int gen = cyapa_image_gen(data, len, why, sizeof(why));

	if (gen < 0) {
		free(data);
		return tf_err_set(err, EBADMSG, "%s: %s", name, why);
	}
	/* cyapa checks a file by the trackpad's generation: another's image
	 * is refused by it, so it is not offered */
	if (run)
		run->image_gen = (unsigned)gen;
	if (run && run->gen && (unsigned)gen != run->gen) {
		free(data);
		return tf_err_set(
			err, EBADMSG,
			"%s: a Gen%d image, the trackpad is Gen%u: cyapa would refuse "
			"it; not sent",
			name, gen, run->gen);
	}
	if (run && cyapa_name_product(name, run->name_product, &maj, &min) < 0)
		run->name_product[0] = '\0';
	return tf_plain_image_take(data, len, img, err);
}

/* The name written to update_fw is the name the driver requests. */
static int cyapa_kernel_fw_name(struct tf_ctx *c, const struct tf_chip_state *st, char *buf,
				size_t size, struct tf_err *err)
{
	(void)c;
	(void)st;
	(void)err;
	return tf_snprintf(buf, size, "%s", CYAPA_FW_NAME);
}

/* -EINVAL: cyapa_gen3_check_fw refused the file (before any write), or
 * the part the new image made is none it operates. */
static bool cyapa_kernel_fw_rejected(int code, const struct tf_chip_state *after)
{
	(void)after;
	return code == EINVAL;
}

/*
 * cyapa keeps a trackpad in its bootloader and flashes it from there:
 * with the driver bound, whatever the mode, the firmware goes through
 * update_fw.  Unbound where the profile names cyapa, the same: a run
 * binds it first (cyapa_before_detect), a dry run says what that run
 * would do.  Otherwise the flow's own answer (touchfw writes nothing over
 * the bus for this family).
 */
static enum tf_update_way cyapa_choose(const struct tf_flow_services *sv, struct tf_update *u)
{
	const struct tf_ctx *c = u->c;

	if (!strcmp(c->dev.driver, tf_family_ids_cyapa.drivers[0]) ||
	    (!c->dev.driver[0] && c->ctrl &&
	     !strcmp(c->ctrl->driver, tf_family_ids_cyapa.drivers[0])))
		return TF_WAY_DRIVER_ATTR;
	return sv->choose(u);
}

/*
 * update_fw failed, or no input device came after it, with the trackpad
 * now in its bootloader (the supply dropped, a block failed): cyapa
 * stays bound to it ("detected but not operational") and its next
 * update_fw flashes from there -- so the next run brings it back, with
 * the product id remembered from before.  An interruption, not the
 * image's fault.  A refusal of the image is the flow's to record.
 */
static int cyapa_update_failed(const struct tf_flow_services *sv, struct tf_update *u,
			       struct tf_update_failure *f)
{
	char msg[1024];

	/* refused before update_fw was written: the image not this
	 * trackpad's */
	if (f->write < 0 && f->err->code == ENOEXEC) {
		f->err->rejected = true;
		sv->record_blob_failure(u, f->err);
		return sv->finish(u, TF_EXIT_UNSUPPORTED, "%s; the trackpad was not touched",
				  f->err->msg);
	}
	if ((f->write < 0 && cyapa_kernel_fw_rejected(f->err->code, NULL)) ||
	    sv->driver_gone(u) || !f->seen || f->st->mode != TF_CHIP_BOOTLOADER)
		return TF_UPDATE_GO_ON;
	f->err->rejected = false;
	if (f->write < 0)
		sv->record_blob_failure(u, f->err);
	*u->chip = *f->st;
	u->next_run_said = true;
	tf_snprintf(msg, sizeof(msg),
		    "%s; the trackpad is left in its bootloader (%s); %s stays bound to it "
		    "and its %s flashes from there, so the next touchfw run for it tries "
		    "again",
		    f->why, f->st->detail, u->c->dev.driver, CYAPA_UPDATE_ATTR);
	return sv->fail_bootloader(u, msg);
}

/*
 * Unbound, a run: touchfw can not flash a Cypress trackpad itself, cyapa
 * can, in either mode.  The trackpad is identified first (detect_bus:
 * the Gen3 registers, or a PIP part's output buffer and HID descriptor,
 * reading only), and only a Gen3 or PIP trackpad is given to cyapa to
 * bind; anything else is refused untouched.  Bound, or a read-only
 * command: as for every family.
 */
static int cyapa_before_detect(const struct tf_flow_services *sv, struct tf_update *u)
{
	struct tf_ctx *c = u->c;
	struct tf_chip_state st;
	struct tf_err err = { 0 };

	if (c->dev.driver[0] || c->read_only || !c->ctrl || !c->ctrl->driver[0] || !c->bus)
		return sv->bind_driver_first(u);
	if (detect_bus(c, &st, &err) < 0)
		return sv->finish(u, err.code == EBADMSG ? TF_EXIT_UNSUPPORTED : TF_EXIT_IO,
				  "%s", err.msg);
	if (st.mode == TF_CHIP_ABSENT)
		return 0;
	sv->log(u, TF_LOG_INFO, "%s; binding %s (it takes a trackpad in either mode)",
		st.detail, c->ctrl->driver);
	return sv->rebind(u);
}

/*
 * The write that starts the update: the staged file's name to update_fw.
 * Where the image's file name says its product (a hand-given ChromeOS
 * file; the database's entries are matched by the plan) and the
 * trackpad says its own, they must be the same, and the image must be of
 * the trackpad's generation: otherwise nothing is written (-ENOEXEC).
 */
static int cyapa_fw_write(const struct tf_flow_services *sv, struct tf_update *u,
			  const char *name, struct tf_err *err)
{
	const struct cyapa_run *run = u->c->priv;

	(void)sv;
	/* an image loaded before the trackpad was read (flash --firmware) */
	if (run && run->gen && run->image_gen && run->gen != run->image_gen)
		return tf_err_set(
			err, ENOEXEC,
			"a Gen%u image, the trackpad is Gen%u: cyapa would refuse it; "
			"not sent",
			run->image_gen, run->gen);
	if (run && run->name_product[0] && u->chip->hw[0] &&
	    strcmp(run->name_product, u->chip->hw))
		return tf_err_set(
			err, ENOEXEC,
			"its file name says it is for %s, the trackpad is %s: not sent",
			run->name_product, u->chip->hw);
	return tf_device_attr_write(&u->c->dev, CYAPA_UPDATE_ATTR, name, err);
}

static const struct tf_update_path cyapa_path = {
	.before_detect = cyapa_before_detect,
	.choose = cyapa_choose,
	.driver_update_failed = cyapa_update_failed,
	.driver_fw_write = cyapa_fw_write,
};

const struct tf_family_ops cyapa_ops = {
	.init = cyapa_init,
	.fini = cyapa_fini,
	.detect = cyapa_detect,
	.load_firmware = cyapa_load_firmware,
	.free_firmware = tf_plain_image_free,
	.kernel_firmware = tf_plain_image_bytes,
	.kernel_fw_name = cyapa_kernel_fw_name,
	.kernel_fw_rejected = cyapa_kernel_fw_rejected,
	.update_path = &cyapa_path,
};
