// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * silead_emul: touchfw's Silead GSL1680 chip model (tests/emul/family/silead/model/
 * silead_model.c) behind real kernel interfaces, so that Debian's own
 * silead module binds to it in the VM tests and judges the model.
 * Through emul_core (tests/vm/modules/emul-core) it registers an i2c
 * adapter ("touchfw emulated adapter 1"), a GPIO chip
 * ("touchfw-silead-emul": line 0 SILEAD_PWR, line 1 SILEAD_INT) and a
 * one-interrupt irq domain on INT, and instantiates a "gsl1680" client
 * (silead_ts's i2c id: there is no ACPI namespace for an emulated
 * adapter, so the driver is bound by its i2c id, not by MSSL1680) with
 * that interrupt, the power line as its "power" GPIO, and a software
 * node holding the properties the kernel's DMI table gives x86 tablets:
 * firmware-name, touchscreen-size-x/-y, touchscreen-swapped-x-y.
 *
 * The chip keeps nothing without power: the power line low (driven by
 * the driver, GPIOD_OUT_LOW at probe) holds it off and clears its RAM;
 * undriven it reads high (the board's pull-up).  INT is active low: low
 * while a touch frame is unread, falling edge.
 *
 * debugfs silead-emul/: state (key=value lines), touch (write "ID X Y"
 * lines, one per finger, or "up": one frame), power (0/1, the supply).
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/property.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "emul_core.h"
#include "silead_model.h"

#define SEMU_GPIO_LABEL "touchfw-silead-emul"
#define SEMU_LINE_PWR 0
#define SEMU_LINE_INT 1
#define SEMU_NLINES 2

/* ------------------------------------------------------------ parameters */

static ushort addr = 0x40;
module_param(addr, ushort, 0444);
MODULE_PARM_DESC(addr, "the client's 7-bit address");

static uint chip_id = 0x80360000;
module_param(chip_id, uint, 0444);
MODULE_PARM_DESC(chip_id, "the id at 0xFC");

static uint fw_seed = 1;
module_param(fw_seed, uint, 0444);
MODULE_PARM_DESC(
	fw_seed,
	"the panel's program: silead_model_make_fw(fw_seed, fw_pages) (fwgen silead-fw --tag SEED --size PAGES); 0: any program touches");

static uint fw_pages = 4;
module_param(fw_pages, uint, 0444);
MODULE_PARM_DESC(fw_pages, "pages of the panel's program (1..256)");

static char *firmware_name = "gsl1680-emul-tablet.fw";
module_param(firmware_name, charp, 0444);
MODULE_PARM_DESC(
	firmware_name,
	"the client's firmware-name property (\"\": none, the driver then asks for silead/gsl1680.fw)");

static uint size_x = 1960;
module_param(size_x, uint, 0444);
MODULE_PARM_DESC(size_x, "touchscreen-size-x (0: none)");

static uint size_y = 1500;
module_param(size_y, uint, 0444);
MODULE_PARM_DESC(size_y, "touchscreen-size-y (0: none)");

static bool swapped = true;
module_param(swapped, bool, 0444);
MODULE_PARM_DESC(swapped, "touchscreen-swapped-x-y");

static bool never_starts;
module_param(never_starts, bool, 0444);
MODULE_PARM_DESC(never_starts, "fault: a loaded program never runs (status stays 0)");

/* ------------------------------------------------------------ state */

struct silead_emul {
	struct emul_core core;
	struct silead_model chip; /* under core.lock */
	struct property_entry props[6];
	struct software_node swnode;
	bool swnode_registered;
};

/* The power line driven low holds the chip off (its RAM cleared); undriven
 * it reads high (the board's pull-up).  INT: low while a frame is unread. */
static const struct emul_line_desc semu_lines[SEMU_NLINES] = {
	[SEMU_LINE_PWR] = { .name = "SILEAD_PWR", .output_ok = true },
	[SEMU_LINE_INT] = { .name = "SILEAD_INT" },
};

static const struct emul_core_cfg semu_core_cfg = {
	.gpio_label = SEMU_GPIO_LABEL,
	.irq_name = "silead-emul-int",
	.lines = semu_lines,
	.nlines = SEMU_NLINES,
	.irq_line = SEMU_LINE_INT,
	.default_trigger = IRQ_TYPE_EDGE_FALLING,
	.level_ok = true,
	.has_reset = true,
	.reset_line = SEMU_LINE_PWR,
};

/* ------------------------------------------------------------ debugfs */

struct semu_snapshot {
	bool running, program_ok, pwr_held;
	u64 digest;
	struct silead_model_stats st;
};

static void semu_snap(struct emul_core *c, void *arg)
{
	struct silead_emul *s = c->glue;
	struct semu_snapshot *p = arg;

	p->running = silead_model_running(&s->chip);
	p->program_ok = silead_model_program_ok(&s->chip);
	p->digest = silead_model_digest(&s->chip);
	p->st = *silead_model_stats(&s->chip);
	p->pwr_held = c->driven[SEMU_LINE_PWR] && !c->high[SEMU_LINE_PWR];
}

static void semu_show(struct seq_file *sf, struct emul_core *c, const void *arg)
{
	const struct semu_snapshot *p = arg;

	seq_printf(sf, "running=%d\nprogram_ok=%d\ndigest=%016llx\n", p->running, p->program_ok,
		   p->digest);
	seq_printf(sf, "pwr_held=%d\n", p->pwr_held);
	seq_printf(sf, "power_ups=%u\nresets=%u\nstarts=%u\nwords_written=%u\n",
		   p->st.power_ups, p->st.resets, p->st.starts, p->st.words_written);
	seq_printf(sf, "pages_selected=%u\nbad_writes=%u\nframes_read=%u\ntouches_lost=%u\n",
		   p->st.pages_selected, p->st.bad_writes, p->st.frames_read,
		   p->st.touches_lost);
}

struct semu_frame {
	struct silead_model_point pts[SILEAD_MODEL_MAX_POINTS];
	u8 n;
	bool reported;
};

static void semu_apply_touch(struct emul_core *c, void *arg)
{
	struct silead_emul *s = c->glue;
	struct semu_frame *f = arg;

	f->reported = silead_model_touch(&s->chip, f->pts, f->n);
}

/* "ID X Y" per finger, one a line, or "up": one frame; -EAGAIN when the
 * chip reported nothing (no program, or not the panel's). */
static ssize_t semu_touch_write(struct file *file, const char __user *ubuf, size_t len,
				loff_t *pos)
{
	static const unsigned int lim[] = { 15, 4095, 4095 };
	struct emul_core *c = file_inode(file)->i_private;
	unsigned int v[SILEAD_MODEL_MAX_POINTS][4];
	struct semu_frame f = { .n = 0 };
	int n = emul_parse_touches(ubuf, len, 3, lim, v, SILEAD_MODEL_MAX_POINTS, "ID X Y");

	if (n < 0)
		return n;
	for (f.n = 0; f.n < n; f.n++) {
		f.pts[f.n].id = v[f.n][0];
		f.pts[f.n].x = v[f.n][1];
		f.pts[f.n].y = v[f.n][2];
	}
	emul_core_step(c, semu_apply_touch, &f);
	return f.reported ? (ssize_t)len : -EAGAIN;
}

static const struct file_operations semu_touch_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = semu_touch_write,
	.llseek = noop_llseek,
};

static void semu_files(struct emul_core *c, struct dentry *dir)
{
	debugfs_create_file("touch", 0200, dir, c, &semu_touch_fops);
}

/* ------------------------------------------------------------ setup */

static int semu_setup(struct emul_core *c)
{
	struct silead_emul *s = c->glue;
	struct silead_model_cfg cfg;
	struct silead_model_ram *ram;
	size_t cap, n;
	u8 *fw;

	memset(&cfg, 0, sizeof(cfg));
	cfg.addr = addr;
	cfg.chip_id = chip_id;
	cfg.faults.never_starts = never_starts;
	if (fw_seed) {
		if (fw_pages < 1 || fw_pages > SILEAD_MODEL_PAGES) {
			pr_err("silead_emul: fw_pages %u is not 1..256\n", fw_pages);
			return -EINVAL;
		}
		cap = (size_t)fw_pages * 33 * 8;
		fw = kmalloc(cap, GFP_KERNEL);
		ram = kzalloc(sizeof(*ram), GFP_KERNEL);
		if (!fw || !ram) {
			kfree(fw);
			kfree(ram);
			return -ENOMEM;
		}
		n = silead_model_make_fw(fw_seed, fw_pages, fw, cap);
		cfg.has_expected = silead_model_fw_digest(fw, n, ram, &cfg.expected);
		kfree(fw);
		kfree(ram);
		if (!cfg.has_expected)
			return -EINVAL;
	}
	silead_model_init(&s->chip, &cfg, c->bus.now_ns);
	return emul_core_add_chip(c, &silead_model_ops, &s->chip, 0);
}

static int semu_add_client(struct emul_core *c)
{
	struct silead_emul *s = c->glue;
	struct i2c_board_info info = { I2C_BOARD_INFO("gsl1680", 0) };
	const struct gpiod_lookup lines[] = {
		GPIO_LOOKUP_IDX(NULL, SEMU_LINE_PWR, "power", 0, GPIO_ACTIVE_HIGH),
	};
	int np = 0, r;

	if (firmware_name && *firmware_name)
		s->props[np++] = PROPERTY_ENTRY_STRING("firmware-name", firmware_name);
	if (size_x)
		s->props[np++] = PROPERTY_ENTRY_U32("touchscreen-size-x", size_x);
	if (size_y)
		s->props[np++] = PROPERTY_ENTRY_U32("touchscreen-size-y", size_y);
	if (swapped)
		s->props[np++] = PROPERTY_ENTRY_BOOL("touchscreen-swapped-x-y");
	s->swnode.name = "silead-emul-ts";
	s->swnode.properties = s->props;
	r = software_node_register(&s->swnode);
	if (r)
		return r;
	s->swnode_registered = true;
	info.addr = addr;
	info.swnode = &s->swnode;
	return emul_core_add_client(c, &info, lines, ARRAY_SIZE(lines));
}

static void semu_release(struct emul_core *c)
{
	struct silead_emul *s = c->glue;

	if (s->swnode_registered)
		software_node_unregister(&s->swnode);
}

static void semu_loaded(struct emul_core *c)
{
	pr_info("silead_emul: GSL1680 at 0x%02x on i2c-%d (\"%s\"), panel program seed %u/%u, firmware-name \"%s\", INT irq %u, gpiochip \"%s\"\n",
		addr, c->adap.nr, c->adap.name, fw_seed, fw_pages,
		firmware_name ? firmware_name : "", c->irq, SEMU_GPIO_LABEL);
}

static const struct emul_module silead_emul = {
	.name = "silead_emul",
	.debugfs = "silead-emul",
	.core = &semu_core_cfg,
	.size = sizeof(struct silead_emul),
	.setup = semu_setup,
	.snap_size = sizeof(struct semu_snapshot),
	.snap = semu_snap,
	.show = semu_show,
	.files = semu_files,
	.add_client = semu_add_client,
	.release = semu_release,
	.loaded = semu_loaded,
};

EMUL_MODULE(silead_emul);

MODULE_DESCRIPTION("touchfw test: emulated Silead GSL1680 on a virtual i2c adapter");
MODULE_LICENSE("GPL");
