// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * elantp_emul: touchfw's Elan i2c touchpad model (tests/emul/family/elantp/model/
 * elantp_model.c) behind real kernel interfaces, so that Debian's own
 * elan_i2c binds to it in the VM tests and judges the model.  Through
 * emul_core (tests/vm/modules/emul-core) it registers an i2c adapter
 * (adapter_name=, default "touchfw emulated adapter 1"), a GPIO chip
 * ("touchfw-elantp-emul": line 0 TP_INT) and a one-interrupt irq domain on
 * INT, and instantiates an "elan_i2c" client (the driver's i2c id: no ACPI
 * node for an emulated adapter) with that interrupt.  elan_i2c has no
 * reset line: it resets the touchpad with a command.
 *
 * INT is active low: low while the reset acknowledgement waits unread,
 * falling edge (what elan_i2c asks for when the platform says nothing).
 *
 * smbus=1: the part speaks elan_i2c_smbus's commands instead
 * (elantp_model.h), behind an SMBus-only adapter with Host Notify (as
 * i2c-i801 is on the laptops whose psmouse hands the touchpad to
 * elan_i2c: emul_core's smbus_only), and the client is made as psmouse's
 * elantech_create_smbus makes it: "elan_i2c", I2C_CLIENT_HOST_NOTIFY (its
 * interrupt from the adapter's Host Notify domain).  elan_i2c sees no
 * I2C_FUNC_I2C and takes elan_smbus_ops.
 *
 * debugfs elantp-emul/: state (key=value lines), power (0/1, the supply).
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "emul_core.h"
#include "elantp_model.h"

#define PEMU_GPIO_LABEL "touchfw-elantp-emul"
#define PEMU_LINE_INT 0
#define PEMU_NLINES 1

/* ------------------------------------------------------------ parameters */

static ushort addr = 0x15;
module_param(addr, ushort, 0444);
MODULE_PARM_DESC(addr, "the client's 7-bit address");

static uint product_id = 18;
module_param(product_id, uint, 0444);
MODULE_PARM_DESC(product_id, "the product id; elan_i2c_<id>.0.bin");

static uint fw_version = 5;
module_param(fw_version, uint, 0444);
MODULE_PARM_DESC(fw_version,
		 "the firmware in flash (1..255; 0: none, the touchpad stays in IAP)");

static uint iap_start_page = 32;
module_param(iap_start_page, uint, 0444);
MODULE_PARM_DESC(
	iap_start_page,
	"the first application page (the boot code's size; the image says it to the driver): 32, or 496 for the demo DB's product 19, whose update is 16 pages");

static int fail_page = -1;
module_param(fail_page, int, 0444);
MODULE_PARM_DESC(fail_page, "fault: a page error from this page index on (-1 never)");

static bool smbus;
module_param(smbus, bool, 0444);
MODULE_PARM_DESC(
	smbus, "speak elan_i2c_smbus's commands behind an SMBus-only adapter with Host Notify");

/* ------------------------------------------------------------ state */

struct elantp_emul {
	struct emul_core core;
	struct elantp_model chip; /* under core.lock */
};

/* No line the host drives; INT low while the reset acknowledgement waits. */
static const struct emul_line_desc pemu_lines[PEMU_NLINES] = {
	[PEMU_LINE_INT] = { .name = "TP_INT" },
};

static const struct emul_core_cfg pemu_core_cfg = {
	.gpio_label = PEMU_GPIO_LABEL,
	.irq_name = "elantp-emul-int",
	.lines = pemu_lines,
	.nlines = PEMU_NLINES,
	.irq_line = PEMU_LINE_INT,
	.default_trigger = IRQ_TYPE_EDGE_FALLING,
	.level_ok = true,
};

/* smbus=1: no GPIO interrupt of ours, each assertion is a Host Notify */
static const struct emul_core_cfg pemu_smbus_cfg = {
	.gpio_label = PEMU_GPIO_LABEL,
	.irq_name = "elantp-emul-int",
	.lines = pemu_lines,
	.nlines = PEMU_NLINES,
	.irq_line = PEMU_LINE_INT,
	.default_trigger = IRQ_TYPE_EDGE_FALLING,
	.smbus_host_notify = true,
	.smbus_only = true,
};

/* ------------------------------------------------------------ debugfs */

static const char *const pemu_mode_names[] = {
	[ELANTP_MODEL_OFF] = "off",
	[ELANTP_MODEL_MAIN] = "main",
	[ELANTP_MODEL_IAP] = "iap",
};

struct pemu_snapshot {
	enum elantp_model_mode mode;
	u8 fw_version;
	struct elantp_model_stats st;
};

static void pemu_snap(struct emul_core *c, void *arg)
{
	struct elantp_emul *p = c->glue;
	struct pemu_snapshot *s = arg;

	s->mode = elantp_model_mode(&p->chip);
	s->fw_version = elantp_model_fw_version(&p->chip);
	s->st = *elantp_model_stats(&p->chip);
}

static void pemu_show(struct seq_file *sf, struct emul_core *c, const void *arg)
{
	const struct pemu_snapshot *s = arg;

	seq_printf(sf, "mode=%s\nfw_version=%u\nproduct_id=%u\n",
		   s->mode < ARRAY_SIZE(pemu_mode_names) ? pemu_mode_names[s->mode] : "?",
		   s->fw_version, product_id);
	seq_printf(sf, "resets=%u\niap_entries=%u\npages_written=%u\npage_errors=%u\n",
		   s->st.resets, s->st.iap_entries, s->st.pages_written, s->st.page_errors);
	seq_printf(sf, "boots_valid=%u\ntransport=%s\n", s->st.boots_valid,
		   smbus ? "smbus" : "i2c");
}

/* ------------------------------------------------------------ setup */

static int pemu_setup(struct emul_core *c)
{
	struct elantp_emul *p = c->glue;
	struct elantp_model_cfg cfg = {
		.product_id = product_id,
		.sm_version = 3,
		.iap_version = 0,
		.max_x = 3052,
		.max_y = 1888,
		.iap_start_page = iap_start_page,
		.fail_page = fail_page,
		.power_loss_page = -1,
		.smbus = smbus,
	};
	u8 *img = NULL;

	if (product_id > 0xffff || fw_version > 255 || !iap_start_page ||
	    iap_start_page >= ELANTP_MODEL_PAGES) {
		pr_err("elantp_emul: product_id (0..65535), fw_version (0..255) or iap_start_page (1..511) out of range\n");
		return -EINVAL;
	}
	if (fw_version) {
		img = kvmalloc(ELANTP_MODEL_FLASH, GFP_KERNEL);
		if (!img)
			return -ENOMEM;
		elantp_model_make_image_at(img, product_id, fw_version, iap_start_page);
	}
	elantp_model_init(&p->chip, &cfg, img);
	kvfree(img);
	/* the model answers any address it is given: only ours here */
	return emul_core_add_chip(c, &elantp_model_ops, &p->chip, addr);
}

/* elan_i2c has no reset line: it resets the touchpad with a command. */
static int pemu_add_client(struct emul_core *c)
{
	struct i2c_board_info info = { I2C_BOARD_INFO("elan_i2c", 0) };

	info.addr = addr;
	if (smbus)
		info.flags = I2C_CLIENT_HOST_NOTIFY; /* as psmouse makes it */
	return emul_core_add_client(c, &info, NULL, 0);
}

static void pemu_loaded(struct emul_core *c)
{
	pr_info("elantp_emul: touchpad at 0x%02x on i2c-%d (\"%s\"), %s, product %u, firmware %u, application from page %u, INT irq %u, gpiochip \"%s\"\n",
		addr, c->adap.nr, c->adap.name, smbus ? "SMBus with Host Notify" : "i2c",
		product_id, fw_version, iap_start_page, c->irq, PEMU_GPIO_LABEL);
}

static struct emul_module elantp_emul = {
	.name = "elantp_emul",
	.debugfs = "elantp-emul",
	.core = &pemu_core_cfg,
	.size = sizeof(struct elantp_emul),
	.setup = pemu_setup,
	.snap_size = sizeof(struct pemu_snapshot),
	.snap = pemu_snap,
	.show = pemu_show,
	.add_client = pemu_add_client,
	.loaded = pemu_loaded,
};

static int __init pemu_init(void)
{
	if (smbus)
		elantp_emul.core = &pemu_smbus_cfg;
	return emul_module_init(&elantp_emul);
}

static void __exit pemu_exit(void)
{
	emul_module_exit(&elantp_emul);
}

module_init(pemu_init);
module_exit(pemu_exit);

MODULE_DESCRIPTION("touchfw test: emulated Elan i2c touchpad on a virtual i2c adapter");
MODULE_LICENSE("GPL");
