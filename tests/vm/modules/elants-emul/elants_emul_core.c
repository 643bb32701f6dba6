// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * elants_emul: touchfw's Elan eKTH touchscreen model (tests/emul/family/elants/model/
 * elants_model.c) behind real kernel interfaces, so that the kernel's own
 * elants_i2c (built from Debian's linux-source, tests/vm/modules/
 * elants-i2c) binds to it in the VM tests and judges the model.  Through
 * emul_core (tests/vm/modules/emul-core) it registers an i2c adapter
 * (adapter_name=, default "touchfw emulated adapter 1"), a GPIO chip
 * ("touchfw-elants-emul": line 0 ELAN_RESET, line 1 ELAN_INT) and a
 * one-interrupt irq domain on INT, and instantiates an "elants_i2c" client
 * (the driver's i2c id: no ACPI node for an emulated adapter) with that
 * interrupt and the reset line as its "reset" GPIO (active low).
 *
 * The reset line driven low holds the chip in reset; undriven it reads
 * high (the board's pull-up).  INT is active low: low while an answer
 * waits in the chip's output buffer, falling edge (what elants_i2c asks
 * for when the platform says nothing).
 *
 * debugfs elants-emul/: state (key=value lines), power (0/1, the supply).
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "emul_core.h"
#include "elants_model.h"

#define TEMU_GPIO_LABEL "touchfw-elants-emul"
#define TEMU_LINE_RESET 0
#define TEMU_LINE_INT 1
#define TEMU_NLINES 2

/* ------------------------------------------------------------ parameters */

static ushort addr = 0x10;
module_param(addr, ushort, 0444);
MODULE_PARM_DESC(addr, "the client's 7-bit address");

static uint hw_version = 0x2a1c;
module_param(hw_version, uint, 0444);
MODULE_PARM_DESC(hw_version, "the hardware id (FW ID) the chip reports; elants_i2c_%04x.bin");

static uint fw_version;
module_param(fw_version, uint, 0444);
MODULE_PARM_DESC(fw_version,
		 "the application in flash (0: empty flash, the chip boots into recovery)");

static uint fw_pages = 64;
module_param(fw_pages, uint, 0444);
MODULE_PARM_DESC(fw_pages, "132-byte pages of the application in flash (1..512)");

static uint bc_version = 0x6401;
module_param(bc_version, uint, 0444);
MODULE_PARM_DESC(bc_version, "boot code << 8 | IAP version");

static int nak_iap_page = -1;
module_param(nak_iap_page, int, 0444);
MODULE_PARM_DESC(nak_iap_page, "fault: answer 55 55 to IAP pages from this one on (-1 never)");

static bool reset_gpio = true;
module_param(reset_gpio, bool, 0444);
MODULE_PARM_DESC(reset_gpio, "give the client the reset line");

/* ------------------------------------------------------------ state */

struct elants_emul {
	struct emul_core core;
	struct elants_model chip; /* under core.lock */
};

/* RESET pulled up when undriven; INT low while an answer waits. */
static const struct emul_line_desc temu_lines[TEMU_NLINES] = {
	[TEMU_LINE_RESET] = { .name = "ELAN_RESET", .output_ok = true },
	[TEMU_LINE_INT] = { .name = "ELAN_INT" },
};

static const struct emul_core_cfg temu_core_cfg = {
	.gpio_label = TEMU_GPIO_LABEL,
	.irq_name = "elants-emul-int",
	.lines = temu_lines,
	.nlines = TEMU_NLINES,
	.irq_line = TEMU_LINE_INT,
	.default_trigger = IRQ_TYPE_EDGE_FALLING,
	.level_ok = true,
	.has_reset = true,
	.reset_line = TEMU_LINE_RESET,
};

/* ------------------------------------------------------------ debugfs */

static const char *const temu_mode_names[] = {
	[ELANTS_MODEL_OFF] = "off",	  [ELANTS_MODEL_RESET] = "reset",
	[ELANTS_MODEL_NORMAL] = "normal", [ELANTS_MODEL_RECOVERY] = "recovery",
	[ELANTS_MODEL_IAP] = "iap",
};

struct temu_snapshot {
	enum elants_model_mode mode;
	u16 fw_version;
	struct elants_model_stats st;
	bool reset_held;
};

static void temu_snap(struct emul_core *c, void *arg)
{
	struct elants_emul *t = c->glue;
	struct temu_snapshot *p = arg;

	p->mode = elants_model_mode(&t->chip);
	p->fw_version = elants_model_fw_version(&t->chip);
	p->st = *elants_model_stats(&t->chip);
	p->reset_held = c->driven[TEMU_LINE_RESET] && !c->high[TEMU_LINE_RESET];
}

static void temu_show(struct seq_file *sf, struct emul_core *c, const void *arg)
{
	const struct temu_snapshot *p = arg;

	seq_printf(sf, "mode=%s\nfw_version=%04x\nhw_version=%04x\n",
		   p->mode < ARRAY_SIZE(temu_mode_names) ? temu_mode_names[p->mode] : "?",
		   p->fw_version, hw_version);
	seq_printf(sf, "reset_held=%d\n", p->reset_held);
	seq_printf(sf, "soft_resets=%u\nhellos=%u\niap_entries=%u\npages_written=%u\n",
		   p->st.soft_resets, p->st.hellos, p->st.iap_entries, p->st.pages_written);
	seq_printf(sf, "bad_acks=%u\ncalibrations=%u\nimages_booted=%u\n", p->st.bad_acks,
		   p->st.calibrations, p->st.images_booted);
}

/* nak_iap_page, writable: a scenario ends the fault (a passing one) and
 * shows the next update going through. */
static void temu_set_nak(struct emul_core *c, void *arg)
{
	struct elants_emul *t = c->glue;

	t->chip.cfg.nak_iap_page = *(int *)arg;
}

static ssize_t temu_nak_write(struct file *f, const char __user *ubuf, size_t n, loff_t *ppos)
{
	struct emul_core *c = f->private_data;
	int v, r;

	r = kstrtoint_from_user(ubuf, n, 0, &v);
	if (r)
		return r;
	if (v < -1)
		return -EINVAL;
	emul_core_step(c, temu_set_nak, &v);
	return n;
}

static const struct file_operations temu_nak_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = temu_nak_write,
	.llseek = noop_llseek,
};

static void temu_files(struct emul_core *c, struct dentry *dir)
{
	debugfs_create_file("nak_iap_page", 0200, dir, c, &temu_nak_fops);
}

/* ------------------------------------------------------------ setup */

static int temu_setup(struct emul_core *c)
{
	struct elants_emul *t = c->glue;
	struct elants_model_cfg cfg = {
		.hw_version = hw_version,
		.bc_version = bc_version,
		.test_version = 0x0101,
		.remark_id = 0,
		.rows = 31,
		.cols = 18,
		.osr = 64,
		.nak_iap_page = nak_iap_page,
	};
	u32 len = 0;
	u8 *img = NULL;

	if (hw_version > 0xfffe || fw_version > 0xfffe || !fw_pages ||
	    fw_pages > ELANTS_MODEL_FLASH_MAX / ELANTS_MODEL_PAGE) {
		pr_err("elants_emul: hw_version, fw_version (0..fffe) or fw_pages (1..512) out of range\n");
		return -EINVAL;
	}
	if (fw_version) {
		len = fw_pages * ELANTS_MODEL_PAGE;
		img = kvmalloc(len, GFP_KERNEL);
		if (!img)
			return -ENOMEM;
		elants_model_make_image(img, fw_pages, fw_version, hw_version, 0);
	}
	elants_model_init(&t->chip, &cfg, img, len);
	kvfree(img);
	/* the model answers any address it is given: only ours here */
	return emul_core_add_chip(c, &elants_model_ops, &t->chip, addr);
}

static int temu_add_client(struct emul_core *c)
{
	struct i2c_board_info info = { I2C_BOARD_INFO("elants_i2c", 0) };
	const struct gpiod_lookup lines[] = {
		GPIO_LOOKUP_IDX(NULL, TEMU_LINE_RESET, "reset", 0, GPIO_ACTIVE_LOW),
	};

	info.addr = addr;
	return emul_core_add_client(c, &info, lines, reset_gpio ? ARRAY_SIZE(lines) : 0);
}

static void temu_loaded(struct emul_core *c)
{
	pr_info("elants_emul: eKTH at 0x%02x on i2c-%d (\"%s\"), hardware %04x, firmware %04x (%s), INT irq %u, gpiochip \"%s\"\n",
		addr, c->adap.nr, c->adap.name, hw_version, fw_version,
		fw_version ? "application" : "empty flash: recovery", c->irq, TEMU_GPIO_LABEL);
}

static const struct emul_module elants_emul = {
	.name = "elants_emul",
	.debugfs = "elants-emul",
	.core = &temu_core_cfg,
	.size = sizeof(struct elants_emul),
	.setup = temu_setup,
	.snap_size = sizeof(struct temu_snapshot),
	.snap = temu_snap,
	.show = temu_show,
	.files = temu_files,
	.add_client = temu_add_client,
	.loaded = temu_loaded,
};

EMUL_MODULE(elants_emul);

MODULE_DESCRIPTION("touchfw test: emulated Elan eKTH touchscreen on a virtual i2c adapter");
MODULE_LICENSE("GPL");
