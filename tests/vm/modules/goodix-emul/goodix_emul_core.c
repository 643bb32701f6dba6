// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * goodix_emul: touchfw's Goodix GT9xx/GT1x chip model (tests/emul/family/goodix/model/
 * goodix_model.c) behind real kernel interfaces, so that Debian's own
 * goodix_ts binds to it in the VM tests and judges the model.  Through
 * emul_core (tests/vm/modules/emul-core, shared with mxt-emul) it
 * registers an i2c adapter ("touchfw emulated adapter 1"), a GPIO chip
 * ("touchfw-goodix-emul": line 0 GOODIX_RST, line 1 GOODIX_INT) and a
 * one-interrupt irq domain on INT, and instantiates a "GDIX1001:00" client
 * (goodix_ts's i2c id) with that interrupt and a GPIO lookup table giving
 * it both lines as "irq" and "reset".  With both GPIOs goodix_ts resets the
 * chip at probe, driving INT as an output while RST rises to choose the
 * address (low: 0x5D, high: 0x14), then loads goodix_<id>_cfg.bin from the
 * firmware search path and sends it before it registers the input device.
 *
 * The INT line is both ways: the host driving it (direction output) feeds
 * the model's INT input (goodix_model_set_int); released, it reads the
 * level the chip drives, which goes to the active level of the config's
 * trigger type when the chip has something to report, and the interrupt
 * fires on that edge or, for the level types, while it stays there.  RST
 * undriven reads high (the board's pull-up) and releases the chip.
 *
 * debugfs goodix-emul/: state (key=value lines: mode, address, config,
 * counters), touch (write "ID X Y W" lines, one per finger, or "up"; the
 * chip reports them as one frame), power (0/1, the chip's supply).
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "emul_core.h"
#include "goodix_model.h"

#define GEMU_GPIO_LABEL "touchfw-goodix-emul"
#define GEMU_LINE_RST 0
#define GEMU_LINE_INT 1
#define GEMU_NLINES 2

/* ------------------------------------------------------------ parameters */

static char *id = "911";
module_param(id, charp, 0444);
MODULE_PARM_DESC(id, "product id, up to 4 characters (911, 9271, 967, 1151, ...)");

static ushort fw_version = 0x1060;
module_param(fw_version, ushort, 0444);
MODULE_PARM_DESC(fw_version, "firmware version word at 0x8144");

static ushort addr = 0x5d;
module_param(addr, ushort, 0444);
MODULE_PARM_DESC(
	addr, "the client's address: 0x5d or 0x14 (the driver selects it with INT at reset)");

static ushort strap;
module_param(strap, ushort, 0444);
MODULE_PARM_DESC(
	strap,
	"address the chip answers at before any reset pulse (default: the other one of 0x14/0x5d than addr)");

static bool has_config = true;
module_param(has_config, bool, 0444);
MODULE_PARM_DESC(has_config, "the chip has a config stored in its flash");

static uint cfg_version = 0x41;
module_param(cfg_version, uint, 0444);
MODULE_PARM_DESC(cfg_version, "version byte of the stored config");

static uint x_res = 800;
module_param(x_res, uint, 0444);
MODULE_PARM_DESC(x_res, "X resolution in the stored config");

static uint y_res = 480;
module_param(y_res, uint, 0444);
MODULE_PARM_DESC(y_res, "Y resolution in the stored config");

static uint touches = 5;
module_param(touches, uint, 0444);
MODULE_PARM_DESC(touches, "touch points in the stored config (1..10)");

static uint trigger = 1;
module_param(trigger, uint, 0444);
MODULE_PARM_DESC(
	trigger,
	"INT trigger type in the stored config: 0 rising, 1 falling, 2 low level, 3 high level");

static uint boot_us;
module_param(boot_us, uint, 0444);
MODULE_PARM_DESC(boot_us,
		 "RST released or power on to answering, in us (0: the model's default)");

static uint cfg_apply_us;
module_param(cfg_apply_us, uint, 0444);
MODULE_PARM_DESC(
	cfg_apply_us,
	"a fresh config accepted to applied and stored, in us (0: the model's default)");

static uint wake_us;
module_param(wake_us, uint, 0444);
MODULE_PARM_DESC(wake_us,
		 "INT driven high in sleep to answering again, in us (0: the model's default)");

static bool gpios = true;
module_param(gpios, bool, 0444);
MODULE_PARM_DESC(
	gpios,
	"give the client the INT and RST lines (without them goodix_ts neither resets the chip nor loads a config file)");

static bool client = true;
module_param(client, bool, 0444);
MODULE_PARM_DESC(client, "instantiate the goodix_ts client at load");

static bool refuse_config;
module_param(refuse_config, bool, 0444);
MODULE_PARM_DESC(refuse_config, "fault: config writes are ignored");
static bool config_volatile;
module_param(config_volatile, bool, 0444);
MODULE_PARM_DESC(config_volatile, "fault: an applied config is not stored, lost at reset");
static bool fixed_address;
module_param(fixed_address, bool, 0444);
MODULE_PARM_DESC(fixed_address,
		 "fault: INT at reset is ignored, the chip stays at its strap address");
static uint slow_factor;
module_param(slow_factor, uint, 0444);
MODULE_PARM_DESC(slow_factor, "fault: multiply every busy time of the chip");

/* ------------------------------------------------------------ state */

struct goodix_emul {
	struct emul_core core;
	struct goodix_model chip; /* under core.lock */
};

/* RST: active low, pulled up when undriven.  INT: both ways. */
static void gemu_line_changed(struct emul_core *c, unsigned int line, bool driven, bool high)
{
	struct goodix_emul *g = c->glue;

	if (line == GEMU_LINE_RST)
		goodix_model_ops.set_reset(&g->chip, driven && !high);
	else
		goodix_model_set_int(&g->chip, driven, high);
}

static bool gemu_line_level(struct emul_core *c, unsigned int line)
{
	struct goodix_emul *g = c->glue;

	if (line == GEMU_LINE_INT)
		return goodix_model_int_level(&g->chip);
	return true;
}

static const struct emul_chip_ops gemu_chip_ops = {
	.line_changed = gemu_line_changed,
	.line_level = gemu_line_level,
};

/* At load the board leaves both pins to their pulls: the chip runs. */
static const struct emul_line_desc gemu_lines[GEMU_NLINES] = {
	[GEMU_LINE_RST] = { .name = "GOODIX_RST", .output_ok = true },
	[GEMU_LINE_INT] = { .name = "GOODIX_INT", .output_ok = true },
};

static const struct emul_core_cfg gemu_core_cfg = {
	.gpio_label = GEMU_GPIO_LABEL,
	.irq_name = "goodix-emul-int",
	.lines = gemu_lines,
	.nlines = GEMU_NLINES,
	.irq_line = GEMU_LINE_INT,
	/* goodix_ts asks for the config's trigger; the board says falling. */
	.default_trigger = IRQ_TYPE_EDGE_FALLING,
	.level_ok = true,
	.ops = &gemu_chip_ops,
};

/* ------------------------------------------------------------ debugfs */

static const char *gemu_mode_name(enum goodix_model_mode m)
{
	switch (m) {
	case GOODIX_MODE_OFF:
		return "off";
	case GOODIX_MODE_RESET:
		return "reset";
	case GOODIX_MODE_RUN:
		return "run";
	case GOODIX_MODE_SLEEP:
		return "sleep";
	}
	return "?";
}

struct gemu_snapshot {
	enum goodix_model_mode mode;
	u16 addr;
	struct goodix_model_layout lay;
	bool active_ok, flash_ok;
	u8 active[GOODIX_MODEL_CONFIG_MAX];
	u8 flash[GOODIX_MODEL_CONFIG_MAX];
	u8 request;
	struct goodix_model_stats st;
	bool int_driven, rst_held;
};

static void gemu_snap(struct emul_core *c, void *arg)
{
	struct goodix_emul *g = c->glue;
	struct gemu_snapshot *s = arg;
	const u8 *cfg;

	s->mode = goodix_model_mode(&g->chip);
	s->addr = goodix_model_addr(&g->chip);
	s->lay = *goodix_model_layout(&g->chip);
	s->active_ok = goodix_model_active_config(&g->chip, &cfg);
	if (s->active_ok)
		memcpy(s->active, cfg, s->lay.config_len);
	s->flash_ok = goodix_model_flash_config(&g->chip, &cfg);
	if (s->flash_ok)
		memcpy(s->flash, cfg, s->lay.config_len);
	s->request = goodix_model_request(&g->chip);
	s->st = *goodix_model_stats(&g->chip);
	s->int_driven = c->driven[GEMU_LINE_INT];
	s->rst_held = c->driven[GEMU_LINE_RST] && !c->high[GEMU_LINE_RST];
}

static void gemu_show_config(struct seq_file *sf, const char *key, bool ok, const u8 *cfg,
			     unsigned int len)
{
	unsigned int i;

	seq_printf(sf, "%s=", key);
	/* Byte by byte: %*ph stops at 64 bytes. */
	for (i = 0; ok && i < len; i++)
		seq_printf(sf, "%02x", cfg[i]);
	seq_putc(sf, '\n');
}

static void gemu_show(struct seq_file *sf, struct emul_core *c, const void *arg)
{
	const struct gemu_snapshot *s = arg;

	seq_printf(sf, "mode=%s\naddr=0x%02x\nid=%.4s\nfw_version=0x%04x\n",
		   gemu_mode_name(s->mode), s->addr, id, fw_version);
	seq_printf(sf, "config_addr=0x%04x\nconfig_len=%u\n", s->lay.config_addr,
		   s->lay.config_len);
	/* The active config's version, resolution, points and trigger. */
	if (s->active_ok) {
		seq_printf(sf, "config_version=0x%02x\n", s->active[0]);
		seq_printf(sf, "x_res=%u\ny_res=%u\n", s->active[1] | s->active[2] << 8,
			   s->active[3] | s->active[4] << 8);
		seq_printf(sf, "touches=%u\ntrigger=%u\n", s->active[5] & 0x0f,
			   s->active[6] & 0x03);
	} else {
		seq_puts(sf, "config_version=none\n");
	}
	gemu_show_config(sf, "config", s->active_ok, s->active, s->lay.config_len);
	gemu_show_config(sf, "flash_config", s->flash_ok, s->flash, s->lay.config_len);
	seq_printf(sf, "request=0x%02x\n", s->request);
	seq_printf(sf, "int_driven=%d\nrst_held=%d\n", s->int_driven, s->rst_held);
	seq_printf(sf, "resets=%u\nconfigs_applied=%u\nconfigs_bad_checksum=%u\n", s->st.resets,
		   s->st.configs_applied, s->st.configs_bad_checksum);
	seq_printf(sf, "configs_old_version=%u\nconfigs_refused=%u\nconfig_writes=%u\n",
		   s->st.configs_old_version, s->st.configs_refused, s->st.config_writes);
	seq_printf(sf, "requests=%u\ntouch_frames=%u\n", s->st.requests, s->st.touch_frames);
}

struct gemu_frame {
	struct goodix_model_point pts[GOODIX_MODEL_MAX_POINTS];
	u8 n;
};

static void gemu_apply_touch(struct emul_core *c, void *arg)
{
	struct goodix_emul *g = c->glue;
	struct gemu_frame *f = arg;

	goodix_model_touch(&g->chip, f->pts, f->n);
}

/* "ID X Y W" per finger, one a line, or "up": one frame. */
static ssize_t gemu_touch_write(struct file *file, const char __user *ubuf, size_t len,
				loff_t *pos)
{
	static const unsigned int lim[] = { 15, U16_MAX, U16_MAX, U16_MAX };
	struct emul_core *c = file_inode(file)->i_private;
	unsigned int v[GOODIX_MODEL_MAX_POINTS][4];
	struct gemu_frame f = { .n = 0 };
	int n = emul_parse_touches(ubuf, len, 4, lim, v, GOODIX_MODEL_MAX_POINTS, "ID X Y W");

	if (n < 0)
		return n;
	for (f.n = 0; f.n < n; f.n++) {
		f.pts[f.n].id = v[f.n][0];
		f.pts[f.n].x = v[f.n][1];
		f.pts[f.n].y = v[f.n][2];
		f.pts[f.n].w = v[f.n][3];
	}
	emul_core_step(c, gemu_apply_touch, &f);
	return len;
}

static const struct file_operations gemu_touch_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = gemu_touch_write,
	.llseek = noop_llseek,
};

static void gemu_files(struct emul_core *c, struct dentry *dir)
{
	debugfs_create_file("touch", 0200, dir, c, &gemu_touch_fops);
}

/* ------------------------------------------------------------ setup */

static int gemu_chip_cfg(struct goodix_model_cfg *cfg)
{
	size_t n = strlen(id);

	memset(cfg, 0, sizeof(*cfg));
	if (n < 1 || n > 4) {
		pr_err("goodix_emul: id \"%s\" is not 1 to 4 characters\n", id);
		return -EINVAL;
	}
	memcpy(cfg->id, id, n);
	if (addr != GOODIX_MODEL_ADDR_LOW && addr != GOODIX_MODEL_ADDR_HIGH) {
		pr_err("goodix_emul: addr 0x%x is neither 0x5d nor 0x14\n", addr);
		return -EINVAL;
	}
	if (!strap)
		strap = addr == GOODIX_MODEL_ADDR_LOW ? GOODIX_MODEL_ADDR_HIGH
						      : GOODIX_MODEL_ADDR_LOW;
	if (strap != GOODIX_MODEL_ADDR_LOW && strap != GOODIX_MODEL_ADDR_HIGH) {
		pr_err("goodix_emul: strap 0x%x is neither 0x5d nor 0x14\n", strap);
		return -EINVAL;
	}
	if (cfg_version > 0xff || !x_res || x_res > U16_MAX || !y_res || y_res > U16_MAX ||
	    touches < 1 || touches > 10 || trigger > 3) {
		pr_err("goodix_emul: config out of range: cfg_version 0..255, x_res/y_res 1..65535, touches 1..10, trigger 0..3\n");
		return -EINVAL;
	}
	cfg->fw_version = fw_version;
	cfg->addr = strap;
	goodix_model_make_config(cfg, cfg_version, x_res, y_res, touches, trigger);
	if (!has_config)
		cfg->stored_len = 0;
	cfg->t.boot_ns = (u64)boot_us * NSEC_PER_USEC;
	cfg->t.cfg_apply_ns = (u64)cfg_apply_us * NSEC_PER_USEC;
	cfg->t.wake_ns = (u64)wake_us * NSEC_PER_USEC;
	cfg->faults.refuse_config = refuse_config;
	cfg->faults.config_volatile = config_volatile;
	cfg->faults.fixed_address = fixed_address;
	cfg->faults.slow_factor = slow_factor;
	return 0;
}

static int gemu_setup(struct emul_core *c)
{
	struct goodix_emul *g = c->glue;
	struct goodix_model_cfg *cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	int r;

	if (!cfg)
		return -ENOMEM;
	r = gemu_chip_cfg(cfg);
	if (!r) {
		goodix_model_init(&g->chip, cfg, c->bus.now_ns);
		r = emul_core_add_chip(c, &goodix_model_ops, &g->chip, 0);
	}
	kfree(cfg);
	return r;
}

static int gemu_add_client(struct emul_core *c)
{
	/* goodix_ts's i2c_device_id; no ACPI companion, no OF node. */
	struct i2c_board_info info = { I2C_BOARD_INFO("GDIX1001:00", 0) };
	/*
	 * 6.1 gpiolib has no software-node GPIO references: a lookup table
	 * with the con_ids goodix_get_gpio_config asks for.  Both active
	 * high, as DT boards describe them: the driver writes 0 to RST to
	 * hold the chip in reset, and INT's physical level picks the address.
	 */
	const struct gpiod_lookup lines[] = {
		GPIO_LOOKUP_IDX(NULL, GEMU_LINE_INT, "irq", 0, GPIO_ACTIVE_HIGH),
		GPIO_LOOKUP_IDX(NULL, GEMU_LINE_RST, "reset", 0, GPIO_ACTIVE_HIGH),
	};

	if (!client)
		return 0;
	info.addr = addr;
	return emul_core_add_client(c, &info, lines, gpios ? ARRAY_SIZE(lines) : 0);
}

static void gemu_loaded(struct emul_core *c)
{
	pr_info("goodix_emul: GT%s at 0x%02x (strap 0x%02x) on i2c-%d (\"%s\"), config %s, INT irq %u, gpiochip \"%s\"\n",
		id, addr, strap, c->adap.nr, c->adap.name, has_config ? "stored" : "none",
		c->irq, GEMU_GPIO_LABEL);
}

static const struct emul_module goodix_emul = {
	.name = "goodix_emul",
	.debugfs = "goodix-emul",
	.core = &gemu_core_cfg,
	.size = sizeof(struct goodix_emul),
	.setup = gemu_setup,
	.snap_size = sizeof(struct gemu_snapshot),
	.snap = gemu_snap,
	.show = gemu_show,
	.files = gemu_files,
	.add_client = gemu_add_client,
	.loaded = gemu_loaded,
};

EMUL_MODULE(goodix_emul);

MODULE_DESCRIPTION("touchfw test: emulated Goodix GT9xx on a virtual i2c adapter");
MODULE_LICENSE("GPL");
