// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * elanhid_emul: touchfw's Elan HID-over-I2C touchpad model
 * (tests/emul/family/elanhid/model/elanhid_model.c) behind real kernel
 * interfaces, so that Debian's own i2c-hid-of and hid-multitouch bind to
 * it in the VM tests and judge the model.  Through emul_core it registers
 * an i2c adapter ("touchfw emulated adapter 1"), a GPIO chip
 * ("touchfw-elanhid-emul": line 0 TP_INT) and a one-interrupt irq domain
 * on INT, and instantiates a "hid-over-i2c" client (i2c-hid-of's i2c id)
 * with that interrupt and a software node giving i2c-hid-of its
 * hid-descr-addr (6.12's i2c-hid-of reads it with device_property_read_u32,
 * so no device tree is needed).
 *
 * INT is active low: low while an input report (or the reset sentinel)
 * waits unread; level low, as HID over I2C asks.
 *
 * debugfs elanhid-emul/: state (key=value lines), power (0/1, the supply),
 * touch (write "X Y" for one finger down, "up" to lift it).
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/property.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "emul_core.h"
#include "elanhid_model.h"

#define HEMU_GPIO_LABEL "touchfw-elanhid-emul"
#define HEMU_LINE_INT 0
#define HEMU_NLINES 1

static ushort addr = 0x15;
module_param(addr, ushort, 0444);
MODULE_PARM_DESC(addr, "the client's 7-bit address");

static uint module_id = 241;
module_param(module_id, uint, 0444);
MODULE_PARM_DESC(module_id, "Elan's module id (register 0x0101)");

static uint fw_version = 5;
module_param(fw_version, uint, 0444);
MODULE_PARM_DESC(fw_version, "the firmware in flash (1..255; 0: none, left in IAP)");

static uint iap_start_page = 496;
module_param(iap_start_page, uint, 0444);
MODULE_PARM_DESC(iap_start_page, "the first application page (1..511; 496: 16 pages)");

static uint desc_reg = 1;
module_param(desc_reg, uint, 0444);
MODULE_PARM_DESC(desc_reg, "the HID descriptor register (hid-descr-addr)");

struct elanhid_emul {
	struct emul_core core;
	struct elanhid_model chip; /* under core.lock */
	struct property_entry props[2];
	struct software_node node;
};

static const struct emul_line_desc hemu_lines[HEMU_NLINES] = {
	[HEMU_LINE_INT] = { .name = "TP_INT" },
};

static const struct emul_core_cfg hemu_core_cfg = {
	.gpio_label = HEMU_GPIO_LABEL,
	.irq_name = "elanhid-emul-int",
	.lines = hemu_lines,
	.nlines = HEMU_NLINES,
	.irq_line = HEMU_LINE_INT,
	.default_trigger = IRQ_TYPE_LEVEL_LOW,
	.level_ok = true,
};

static const char *const hemu_mode_names[] = {
	[ELANHID_MODEL_OFF] = "off",
	[ELANHID_MODEL_MAIN] = "main",
	[ELANHID_MODEL_IAP] = "iap",
};

struct hemu_snapshot {
	enum elanhid_model_mode mode;
	u8 fw_version;
	u16 input_mode;
	struct elanhid_model_stats st;
};

static void hemu_snap(struct emul_core *c, void *arg)
{
	struct elanhid_emul *p = c->glue;
	struct hemu_snapshot *s = arg;

	s->mode = elanhid_model_mode(&p->chip);
	s->fw_version = elanhid_model_fw_version(&p->chip);
	s->input_mode = p->chip.input_mode;
	s->st = *elanhid_model_stats(&p->chip);
}

static void hemu_show(struct seq_file *sf, struct emul_core *c, const void *arg)
{
	const struct hemu_snapshot *s = arg;

	seq_printf(sf, "mode=%s\nfw_version=%u\nmodule_id=%u\ninput_mode=%u\n",
		   s->mode < ARRAY_SIZE(hemu_mode_names) ? hemu_mode_names[s->mode] : "?",
		   s->fw_version, module_id, s->input_mode);
	seq_printf(sf, "resets=%u\npages_written=%u\npage_errors=%u\nintf_errors=%u\n",
		   s->st.resets, s->st.pages_written, s->st.page_errors, s->st.intf_errors);
	seq_printf(sf, "desc_reads=%u\nrdesc_reads=%u\nreports_queued=%u\nreports_read=%u\n",
		   s->st.desc_reads, s->st.rdesc_reads, s->st.reports_queued,
		   s->st.reports_read);
}

struct hemu_touch {
	bool down;
	unsigned int x, y;
	int r;
};

static void hemu_apply_touch(struct emul_core *c, void *arg)
{
	struct elanhid_emul *p = c->glue;
	struct hemu_touch *t = arg;

	t->r = elanhid_model_touch(&p->chip, 0, t->x, t->y, t->down);
}

static ssize_t hemu_touch_write(struct file *file, const char __user *ubuf, size_t len,
				loff_t *ppos)
{
	struct emul_core *c = file->private_data;
	static const unsigned int lim[2] = { 0xffff, 0xffff };
	unsigned int v[1][4];
	struct hemu_touch t = { 0 };
	int n = emul_parse_touches(ubuf, len, 2, lim, v, 1, "X Y");

	if (n < 0)
		return n;
	t.down = n == 1;
	t.x = n ? v[0][0] : 0;
	t.y = n ? v[0][1] : 0;
	emul_core_step(c, hemu_apply_touch, &t);
	return t.r ? -EIO : (ssize_t)len;
}

static const struct file_operations hemu_touch_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = hemu_touch_write,
	.llseek = noop_llseek,
};

static void hemu_files(struct emul_core *c, struct dentry *dir)
{
	debugfs_create_file("touch", 0200, dir, c, &hemu_touch_fops);
}

static int hemu_setup(struct emul_core *c)
{
	struct elanhid_emul *p = c->glue;
	struct elanhid_model_cfg cfg = {
		.module_id = module_id,
		.desc_reg = desc_reg,
		.hid_pid = 0x3195,
		.max_x = 3209,
		.max_y = 2097,
		.iap_start_page = iap_start_page,
		.iap_desc_ff = true,
	};
	u8 *img = NULL;

	if (!module_id || module_id >= 0xffff || fw_version > 255 || !iap_start_page ||
	    iap_start_page >= ELANHID_MODEL_PAGES || !desc_reg || desc_reg > 0xffff) {
		pr_err("elanhid_emul: module_id (1..65534), fw_version (0..255), iap_start_page (1..511) or desc_reg out of range\n");
		return -EINVAL;
	}
	if (fw_version) {
		img = kvmalloc(ELANHID_MODEL_FLASH, GFP_KERNEL);
		if (!img)
			return -ENOMEM;
		elanhid_model_make_image(img, module_id, fw_version, iap_start_page);
	}
	elanhid_model_init(&p->chip, &cfg, img);
	kvfree(img);
	return emul_core_add_chip(c, &elanhid_model_ops, &p->chip, addr);
}

/* i2c-hid-of by its i2c id, with hid-descr-addr from a software node. */
static int hemu_add_client(struct emul_core *c)
{
	struct elanhid_emul *p = c->glue;
	struct i2c_board_info info = { I2C_BOARD_INFO("hid-over-i2c", 0) };
	int r;

	p->props[0] = PROPERTY_ENTRY_U32("hid-descr-addr", desc_reg);
	p->node.name = "elanhid-emul-touchpad";
	p->node.properties = p->props;
	r = software_node_register(&p->node);
	if (r)
		return r;
	info.addr = addr;
	info.swnode = &p->node;
	return emul_core_add_client(c, &info, NULL, 0);
}

static void hemu_release(struct emul_core *c)
{
	struct elanhid_emul *p = c->glue;

	if (p->node.properties)
		software_node_unregister(&p->node);
}

static void hemu_loaded(struct emul_core *c)
{
	pr_info("elanhid_emul: touchpad at 0x%02x on i2c-%d (\"%s\"), module %u, firmware %u, application from page %u, descriptor at 0x%04x, INT irq %u, gpiochip \"%s\"\n",
		addr, c->adap.nr, c->adap.name, module_id, fw_version, iap_start_page, desc_reg,
		c->irq, HEMU_GPIO_LABEL);
}

static const struct emul_module elanhid_emul = {
	.name = "elanhid_emul",
	.debugfs = "elanhid-emul",
	.core = &hemu_core_cfg,
	.size = sizeof(struct elanhid_emul),
	.setup = hemu_setup,
	.snap_size = sizeof(struct hemu_snapshot),
	.snap = hemu_snap,
	.show = hemu_show,
	.files = hemu_files,
	.add_client = hemu_add_client,
	.release = hemu_release,
	.loaded = hemu_loaded,
};

EMUL_MODULE(elanhid_emul);

MODULE_DESCRIPTION(
	"touchfw test: emulated Elan HID-over-I2C touchpad on a virtual i2c adapter");
MODULE_LICENSE("GPL");
