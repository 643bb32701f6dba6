// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rmi4_emul: touchfw's Synaptics RMI4 SMBus touchpad model
 * (tests/emul/family/rmi4/model/rmi4_model.c) behind real kernel
 * interfaces, so that Debian's own rmi_smbus + rmi_core bind to it in the
 * VM tests and judge the model.  Through emul_core
 * (tests/vm/modules/emul-core) it registers an SMBus adapter with Host
 * Notify (adapter_name=, default "touchfw emulated adapter 1"; block
 * reads, I2C_FUNC_SMBUS_HOST_NOTIFY, as i2c-i801 offers rmi_smbus) and
 * instantiates an "rmi4_smbus" client the way psmouse's InterTouch does:
 * I2C_CLIENT_HOST_NOTIFY (i2c-core maps its interrupt from the adapter's
 * Host Notify domain) and platform data (rmi_smbus refuses a client
 * without: "no platform data"; all defaults here).  Each interrupt the
 * model raises is one Host Notify from the client's address.
 *
 * rmi_smbus never resets the chip (its transport reset only reads the
 * SMBus version; PS/2 does that on a laptop): debugfs reset stands in for
 * that reset, power for the supply.
 *
 * bus=i2c: the model speaks rmi_i2c's protocol instead (page select,
 * write-then-read) behind a plain I2C adapter, and the client is
 * "rmi4_i2c" with the ATTN line's interrupt (level low), as a board that
 * wires an RMI4 touchpad to I2C describes it.
 *
 * bootloader=5: the chip's F34 is the v5 bootloader (function version 0),
 * which rmi_f34's own code flashes.
 *
 * debugfs rmi4-emul/: state (key=value lines), power (0/1), reset (1).
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rmi.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "emul_core.h"
#include "rmi4_model.h"

#define REMU_GPIO_LABEL "touchfw-rmi4-emul"
#define REMU_LINE_ATTN 0
#define REMU_NLINES 1

/* ------------------------------------------------------------ parameters */

static ushort addr = 0x2c;
module_param(addr, ushort, 0444);
MODULE_PARM_DESC(addr, "the client's 7-bit address (InterTouch parts sit at 0x2c)");

static char *product_id = "s3203";
module_param(product_id, charp, 0444);
MODULE_PARM_DESC(product_id, "the product id (1..6 characters)");

static uint build_id = 0x1e0f00;
module_param(build_id, uint, 0444);
MODULE_PARM_DESC(
	build_id,
	"the application's build id (1..0xffffff); 0: none, the chip stays in its bootloader");

static uint config_id = 0x1a2b3c4d;
module_param(config_id, uint, 0444);
MODULE_PARM_DESC(config_id, "the core config's id");

static char *touch = "f11";
module_param(touch, charp, 0444);
MODULE_PARM_DESC(touch, "the application's 2D function: f11 (default) or f12");

static char *bus = "smbus";
module_param(bus, charp, 0444);
MODULE_PARM_DESC(bus, "smbus (default: rmi4_smbus behind an SMBus adapter with Host Notify) "
		      "or i2c (rmi4_i2c behind a plain I2C adapter, ATTN on a GPIO line)");

static uint bootloader = 7;
module_param(bootloader, uint, 0444);
MODULE_PARM_DESC(bootloader, "the F34 bootloader: 7 (default, rmi_f34v7's) or 5 (rmi_f34's v5, "
			     "F34 function version 0)");

static uint power_loss_block;
module_param(power_loss_block, uint, 0444);
MODULE_PARM_DESC(power_loss_block,
		 "fault: the supply drops as this many blocks are programmed (0 never)");

/* ------------------------------------------------------------ state */

struct rmi4_emul {
	struct emul_core core;
	struct rmi4_model chip; /* under core.lock */
};

/* rmi_smbus asks for none of these: all defaults (rmi_f01 leaves the
 * sleep settings alone, rmi_core its reset delay). */
static struct rmi_device_platform_data remu_pdata;

/* The chip's attention, sent as Host Notify: no line the host drives. */
static const struct emul_line_desc remu_lines[REMU_NLINES] = {
	[REMU_LINE_ATTN] = { .name = "RMI4_ATTN" },
};

static const struct emul_core_cfg remu_core_cfg = {
	.gpio_label = REMU_GPIO_LABEL,
	.irq_name = "rmi4-emul-attn",
	.lines = remu_lines,
	.nlines = REMU_NLINES,
	.irq_line = REMU_LINE_ATTN,
	.default_trigger = IRQ_TYPE_EDGE_FALLING,
	.smbus_host_notify = true,
};

/* bus=i2c: a plain I2C adapter (rmi_i2c needs I2C_FUNC_I2C), the ATTN
 * line's interrupt the client's own, level low as rmi_core requests it
 * when the board names no trigger (rmi_irq_init: IRQF_TRIGGER_LOW) */
static const struct emul_core_cfg remu_core_cfg_i2c = {
	.gpio_label = REMU_GPIO_LABEL,
	.irq_name = "rmi4-emul-attn",
	.lines = remu_lines,
	.nlines = REMU_NLINES,
	.irq_line = REMU_LINE_ATTN,
	.default_trigger = IRQ_TYPE_LEVEL_LOW,
	.level_ok = true,
};

static bool remu_i2c(void)
{
	return bus && !strcmp(bus, "i2c");
}

/* ------------------------------------------------------------ debugfs */

static const char *const remu_mode_names[] = {
	[RMI4_MODEL_OFF] = "off",
	[RMI4_MODEL_APP] = "app",
	[RMI4_MODEL_BL] = "bootloader",
};

struct remu_snapshot {
	enum rmi4_model_mode mode;
	u32 build_id, config_id;
	struct rmi4_model_stats st;
};

static void remu_snap(struct emul_core *c, void *arg)
{
	struct rmi4_emul *p = c->glue;
	struct remu_snapshot *s = arg;

	s->mode = rmi4_model_mode(&p->chip);
	s->build_id = rmi4_model_build_id(&p->chip);
	s->config_id = rmi4_model_config_id(&p->chip);
	s->st = *rmi4_model_stats(&p->chip);
}

static void remu_show(struct seq_file *sf, struct emul_core *c, const void *arg)
{
	const struct remu_snapshot *s = arg;

	seq_printf(sf, "mode=%s\nbuild_id=%u\nconfig_id=%08x\nproduct_id=%s\n",
		   s->mode < ARRAY_SIZE(remu_mode_names) ? remu_mode_names[s->mode] : "?",
		   s->build_id, s->config_id, product_id);
	seq_printf(sf,
		   "resets=%u\nbl_entries=%u\nerases=%u\nblocks_written=%u\nblocks_read=%u\n",
		   s->st.resets, s->st.bl_entries, s->st.erases, s->st.blocks_written,
		   s->st.blocks_read);
	seq_printf(sf,
		   "cmd_errors=%u\nnotifies=%u\npower_losses=%u\nboots_app=%u\nboots_bl=%u\n",
		   s->st.cmd_errors, s->st.notifies, s->st.power_losses, s->st.boots_app,
		   s->st.boots_bl);
}

static void remu_do_reset(struct emul_core *c, void *arg)
{
	struct rmi4_emul *p = c->glue;

	rmi4_model_reset(&p->chip);
}

static ssize_t remu_reset_write(struct file *f, const char __user *ubuf, size_t len,
				loff_t *pos)
{
	struct emul_core *c = f->private_data;
	char buf[4] = { 0 };

	if (len < 1 || len > sizeof(buf) - 1 || copy_from_user(buf, ubuf, len))
		return -EINVAL;
	if (buf[0] != '1')
		return -EINVAL;
	emul_core_step(c, remu_do_reset, NULL);
	return len;
}

static const struct file_operations remu_reset_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = remu_reset_write,
	.llseek = noop_llseek,
};

static void remu_files(struct emul_core *c, struct dentry *dir)
{
	debugfs_create_file("reset", 0200, dir, c, &remu_reset_fops);
}

/* ------------------------------------------------------------ setup */

static int remu_setup(struct emul_core *c)
{
	struct rmi4_emul *p = c->glue;
	struct rmi4_model_cfg cfg = {
		.addr = addr,
		.build_id = build_id,
		.config_id = config_id,
		.smb_version = 2,
		.bl_major = (em_u8)bootloader,
		.power_loss_block = power_loss_block,
	};

	if (!product_id || !*product_id || strlen(product_id) > RMI4_MODEL_PRODUCT_MAX ||
	    build_id > 0xffffff || addr > 0x7f) {
		pr_err("rmi4_emul: product_id (1..6 characters), build_id (0..0xffffff) or addr out of range\n");
		return -EINVAL;
	}
	if (bootloader != 5 && bootloader != 7) {
		pr_err("rmi4_emul: bootloader is 5 or 7\n");
		return -EINVAL;
	}
	if (!touch || (strcmp(touch, "f11") && strcmp(touch, "f12"))) {
		pr_err("rmi4_emul: touch is f11 or f12\n");
		return -EINVAL;
	}
	cfg.touch_fn = strcmp(touch, "f12") ? 0x11 : 0x12;
	cfg.bus = remu_i2c() ? RMI4_MODEL_I2C : RMI4_MODEL_SMBUS;
	strscpy(cfg.product_id, product_id, sizeof(cfg.product_id));
	rmi4_model_init(&p->chip, &cfg);
	return emul_core_add_chip(c, &rmi4_model_ops, &p->chip, addr);
}

static int remu_add_client(struct emul_core *c)
{
	struct i2c_board_info info = { I2C_BOARD_INFO("rmi4_smbus", 0) };

	info.addr = addr;
	if (remu_i2c()) {
		/* as an ACPI or board file would: "rmi4_i2c", its irq
		 * (emul_core's), platform data (rmi_i2c copies them) */
		strscpy(info.type, "rmi4_i2c", sizeof(info.type));
		info.platform_data = &remu_pdata;
		return emul_core_add_client(c, &info, NULL, 0);
	}
	info.flags = I2C_CLIENT_HOST_NOTIFY;
	info.platform_data = &remu_pdata;
	return emul_core_add_client(c, &info, NULL, 0);
}

static void remu_loaded(struct emul_core *c)
{
	pr_info("rmi4_emul: touchpad at 0x%02x on i2c-%d (\"%s\"), product %s, build %u (%s), %s, %s\n",
		addr, c->adap.nr, c->adap.name, product_id, build_id,
		build_id ? "application" : "bootloader", touch,
		remu_i2c() ? "plain I2C, ATTN level low" : "Host Notify");
}

static struct emul_module rmi4_emul = {
	.name = "rmi4_emul",
	.debugfs = "rmi4-emul",
	.core = &remu_core_cfg,
	.size = sizeof(struct rmi4_emul),
	.setup = remu_setup,
	.snap_size = sizeof(struct remu_snapshot),
	.snap = remu_snap,
	.show = remu_show,
	.files = remu_files,
	.add_client = remu_add_client,
	.loaded = remu_loaded,
};

/* EMUL_MODULE's, with the adapter chosen by bus= first */
static int __init remu_init(void)
{
	if (bus && strcmp(bus, "smbus") && strcmp(bus, "i2c")) {
		pr_err("rmi4_emul: bus is smbus or i2c\n");
		return -EINVAL;
	}
	if (remu_i2c())
		rmi4_emul.core = &remu_core_cfg_i2c;
	return emul_module_init(&rmi4_emul);
}

static void __exit remu_exit(void)
{
	emul_module_exit(&rmi4_emul);
}

module_init(remu_init);
module_exit(remu_exit);

MODULE_DESCRIPTION("touchfw test: emulated Synaptics RMI4 SMBus touchpad on a virtual adapter");
MODULE_LICENSE("GPL");
