// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cyapa_emul: touchfw's Cypress Gen3 trackpad model (tests/emul/family/cyapa/model/
 * cyapa_model.c), or with gen=5 or gen=6 its Gen5 or Gen6 PIP trackpad
 * model (cyapa_pip_model.c), behind real kernel interfaces, so that Debian's own
 * cyapa (module cyapatp) binds to it in the VM tests and judges the
 * model.  Through emul_core (tests/vm/modules/emul-core) it registers an
 * i2c adapter (adapter_name=, default "touchfw emulated adapter 1"), a
 * GPIO chip ("touchfw-cyapa-emul": line 0 TP_INT) and a one-interrupt irq
 * domain on INT, and instantiates a "cyapa" client (the driver's i2c id:
 * no ACPI node for an emulated adapter) at 0x67 with that interrupt.
 * cyapa has no reset line: it resets the pad with a command.
 *
 * INT is active low: low while a touch frame waits unread; cyapa asks for
 * the falling edge.
 *
 * debugfs cyapa-emul/: state (key=value lines), power (0/1, the supply),
 * touch (write "ID X Y P" lines, id 1..15, one per finger, at most 5, or
 * "up": one frame).
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "emul_core.h"
#include "cyapa_model.h"
#include "cyapa_pip_model.h"

#define CEMU_GPIO_LABEL "touchfw-cyapa-emul"
#define CEMU_LINE_INT 0
#define CEMU_NLINES 1

/* ------------------------------------------------------------ parameters */

static ushort addr = CYAPA_MODEL_ADDR;
module_param(addr, ushort, 0444);
MODULE_PARM_DESC(addr, "the client's 7-bit address (cyapa's Gen3 parts: 0x67)");

static uint gen = 3;
module_param(gen, uint, 0444);
MODULE_PARM_DESC(gen, "the trackpad's generation: 3, or 5 or 6 (PIP; touches not modelled)");

static char *product_id = "CYTRA-116002-00";
module_param(product_id, charp, 0444);
MODULE_PARM_DESC(product_id, "the product id the application reports (CYTRA-NNNNNN-NN)");

static uint fw_major = 1;
module_param(fw_major, uint, 0444);
MODULE_PARM_DESC(fw_major, "the firmware in flash: major version (0..255)");

static uint fw_minor;
module_param(fw_minor, uint, 0444);
MODULE_PARM_DESC(fw_minor, "the firmware in flash: minor version (0..255)");

static bool empty;
module_param(empty, bool, 0444);
MODULE_PARM_DESC(empty, "erased flash: no application, the pad stays in its bootloader");

static uint block_ms = 8;
module_param(block_ms, uint, 0444);
MODULE_PARM_DESC(block_ms, "the time one block takes to program (1..1000 ms)");

static int power_loss_block;
module_param(power_loss_block, int, 0444);
MODULE_PARM_DESC(
	power_loss_block,
	"fault: the supply drops as the n-th block write of an update arrives (0 never)");

/* ------------------------------------------------------------ state */

struct cyapa_emul {
	struct emul_core core;
	struct cyapa_model chip;    /* under core.lock; gen 3 */
	struct cyapa_pip_model pip; /* under core.lock; gen 5, 6 */
};

static const struct emul_line_desc cemu_lines[CEMU_NLINES] = {
	[CEMU_LINE_INT] = { .name = "TP_INT" },
};

static const struct emul_core_cfg cemu_core_cfg = {
	.gpio_label = CEMU_GPIO_LABEL,
	.irq_name = "cyapa-emul-int",
	.lines = cemu_lines,
	.nlines = CEMU_NLINES,
	.irq_line = CEMU_LINE_INT,
	.default_trigger = IRQ_TYPE_EDGE_FALLING,
	.level_ok = true,
};

/* ------------------------------------------------------------ debugfs */

static const char *const cemu_mode_names[] = {
	[CYAPA_MODEL_OFF] = "off",
	[CYAPA_MODEL_BL_IDLE] = "bl-idle",
	[CYAPA_MODEL_BL_ACTIVE] = "bl-active",
	[CYAPA_MODEL_APP] = "app",
};

struct cemu_snapshot {
	enum cyapa_pip_model_mode pip_mode;
	struct cyapa_pip_model_stats pst;
	enum cyapa_model_mode mode;
	int fw_version;
	u8 power_mode;
	bool busy;
	struct cyapa_model_stats st;
};

static void cemu_snap(struct emul_core *c, void *arg)
{
	struct cyapa_emul *p = c->glue;
	struct cemu_snapshot *s = arg;

	if (gen >= 5) {
		s->pip_mode = cyapa_pip_model_mode(&p->pip);
		s->fw_version = cyapa_pip_model_fw_version(&p->pip);
		s->pst = *cyapa_pip_model_stats(&p->pip);
		return;
	}
	s->mode = cyapa_model_mode(&p->chip);
	s->fw_version = cyapa_model_fw_version(&p->chip);
	s->power_mode = p->chip.regs[0x29];
	s->busy = cyapa_model_busy(&p->chip);
	s->st = *cyapa_model_stats(&p->chip);
}

static void cemu_show(struct seq_file *sf, struct emul_core *c, const void *arg)
{
	const struct cemu_snapshot *s = arg;
	static const char *const pip_modes[] = { "off", "bl", "app" };

	if (gen >= 5) {
		seq_printf(sf, "mode=%s\n", s->pip_mode < 3 ? pip_modes[s->pip_mode] : "?");
		if (s->fw_version < 0)
			seq_puts(sf, "fw_version=none\n");
		else
			seq_printf(sf, "fw_version=%d.%d\n", s->fw_version >> 8,
				   s->fw_version & 0xff);
		seq_printf(sf, "boots=%u\nbl_enters=%u\ninitiates=%u\nrows_written=%u\n",
			   s->pst.boots, s->pst.bl_enters, s->pst.initiates,
			   s->pst.rows_written);
		seq_printf(sf, "row_errors=%u\nlaunches=%u\nlaunch_refused=%u\n",
			   s->pst.row_errors, s->pst.launches, s->pst.launch_refused);
		seq_printf(sf, "power_losses=%u\ncommands=%u\nsys_info_reads=%u\nnaks=%u\n",
			   s->pst.power_losses, s->pst.commands, s->pst.sys_info_reads,
			   s->pst.naks);
		return;
	}
	seq_printf(sf, "mode=%s\n",
		   s->mode < ARRAY_SIZE(cemu_mode_names) ? cemu_mode_names[s->mode] : "?");
	if (s->fw_version < 0)
		seq_puts(sf, "fw_version=none\n");
	else
		seq_printf(sf, "fw_version=%d.%d\n", s->fw_version >> 8, s->fw_version & 0xff);
	seq_printf(sf, "power_mode=0x%02x\nbusy=%d\n", s->power_mode, s->busy);
	seq_printf(sf, "boots=%u\nsoft_resets=%u\ninitiates=%u\nblocks_written=%u\n",
		   s->st.boots, s->st.soft_resets, s->st.initiates, s->st.blocks_written);
	seq_printf(sf, "block_errors=%u\nterminates=%u\nlaunches=%u\nlaunch_refused=%u\n",
		   s->st.block_errors, s->st.terminates, s->st.launches, s->st.launch_refused);
	seq_printf(sf, "power_losses=%u\ncalibrations=%u\nframes_read=%u\ntouches_lost=%u\n",
		   s->st.power_losses, s->st.calibrations, s->st.frames_read,
		   s->st.touches_lost);
}

struct cemu_frame {
	struct cyapa_model_touch t[CYAPA_MODEL_MAX_TOUCHES];
	int n;
	bool sensed;
};

static void cemu_apply_touch(struct emul_core *c, void *arg)
{
	struct cyapa_emul *p = c->glue;
	struct cemu_frame *f = arg;

	f->sensed = cyapa_model_touch(&p->chip, f->t, f->n, 0);
}

/* "ID X Y P" per finger, one a line, or "up": one frame; -EAGAIN when the
 * pad senses nothing (bootloader, power mode off: the input device is not
 * open) */
static ssize_t cemu_touch_write(struct file *file, const char __user *ubuf, size_t len,
				loff_t *pos)
{
	static const unsigned int lim[] = { 15, 4095, 4095, 255 };
	struct emul_core *c = file_inode(file)->i_private;
	unsigned int v[CYAPA_MODEL_MAX_TOUCHES][4];
	struct cemu_frame f = { .n = 0 };
	int n;

	if (gen >= 5)
		return -EOPNOTSUPP; /* the PIP model reports no touches yet */
	n = emul_parse_touches(ubuf, len, 4, lim, v, CYAPA_MODEL_MAX_TOUCHES, "ID X Y P");

	if (n < 0)
		return n;
	for (f.n = 0; f.n < n; f.n++) {
		if (!v[f.n][0])
			return -EINVAL; /* ids are 1..15 */
		f.t[f.n].id = v[f.n][0];
		f.t[f.n].x = v[f.n][1];
		f.t[f.n].y = v[f.n][2];
		f.t[f.n].pressure = v[f.n][3];
	}
	emul_core_step(c, cemu_apply_touch, &f);
	return f.sensed ? len : -EAGAIN;
}

static const struct file_operations cemu_touch_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = cemu_touch_write,
	.llseek = noop_llseek,
};

static void cemu_files(struct emul_core *c, struct dentry *dir)
{
	debugfs_create_file("touch", 0200, dir, c, &cemu_touch_fops);
}

/* ------------------------------------------------------------ setup */

static int cemu_setup(struct emul_core *c)
{
	struct cyapa_emul *p = c->glue;
	struct cyapa_model_cfg cfg = {
		.block_ns = (u64)block_ms * NSEC_PER_MSEC,
		.power_loss_block = power_loss_block,
	};
	u8 *file = NULL;

	if (fw_major > 255 || fw_minor > 255 || !block_ms || block_ms > 1000 ||
	    power_loss_block < 0 || !product_id || strlen(product_id) != 15 ||
	    strncmp(product_id, "CYTRA-", 6) || product_id[12] != '-') {
		pr_err("cyapa_emul: fw_major/fw_minor (0..255), block_ms (1..1000), power_loss_block (>= 0) or product_id (CYTRA-NNNNNN-NN) out of range\n");
		return -EINVAL;
	}
	if (gen != 3 && gen != 5 && gen != 6) {
		pr_err("cyapa_emul: gen is 3, 5 or 6\n");
		return -EINVAL;
	}
	if (gen >= 5) {
		struct cyapa_pip_model_cfg pcfg = {
			.gen = (int)gen,
			.row_ns = (u64)block_ms * NSEC_PER_MSEC,
			.power_loss_row = power_loss_block,
		};

		if (!empty) {
			file = kvmalloc(CYAPA_PIP_FILE_SIZE, GFP_KERNEL);
			if (!file)
				return -ENOMEM;
			cyapa_pip_make_file(file, (int)gen, product_id, fw_major, fw_minor);
		}
		cyapa_pip_model_init(&p->pip, &pcfg, file);
		kvfree(file);
		return emul_core_add_chip(c, &cyapa_pip_model_ops, &p->pip, addr);
	}
	if (!empty) {
		file = kvmalloc(CYAPA_MODEL_FILE_SIZE, GFP_KERNEL);
		if (!file)
			return -ENOMEM;
		cyapa_model_make_file(file, product_id, fw_major, fw_minor);
	}
	cyapa_model_init(&p->chip, &cfg, file);
	kvfree(file);
	/* the model answers any address it is given: only ours here */
	return emul_core_add_chip(c, &cyapa_model_ops, &p->chip, addr);
}

static int cemu_add_client(struct emul_core *c)
{
	struct i2c_board_info info = { I2C_BOARD_INFO("cyapa", 0) };

	info.addr = addr;
	return emul_core_add_client(c, &info, NULL, 0);
}

static void cemu_loaded(struct emul_core *c)
{
	if (empty)
		pr_info("cyapa_emul: trackpad at 0x%02x on i2c-%d (\"%s\"), erased flash, INT irq %u, gpiochip \"%s\"\n",
			addr, c->adap.nr, c->adap.name, c->irq, CEMU_GPIO_LABEL);
	else
		pr_info("cyapa_emul: trackpad at 0x%02x on i2c-%d (\"%s\"), %s firmware %u.%u, INT irq %u, gpiochip \"%s\"\n",
			addr, c->adap.nr, c->adap.name, product_id, fw_major, fw_minor, c->irq,
			CEMU_GPIO_LABEL);
}

static const struct emul_module cyapa_emul = {
	.name = "cyapa_emul",
	.debugfs = "cyapa-emul",
	.core = &cemu_core_cfg,
	.size = sizeof(struct cyapa_emul),
	.setup = cemu_setup,
	.snap_size = sizeof(struct cemu_snapshot),
	.snap = cemu_snap,
	.show = cemu_show,
	.files = cemu_files,
	.add_client = cemu_add_client,
	.loaded = cemu_loaded,
};

EMUL_MODULE(cyapa_emul);

MODULE_DESCRIPTION("touchfw test: emulated Cypress Gen3 trackpad on a virtual i2c adapter");
MODULE_LICENSE("GPL");
