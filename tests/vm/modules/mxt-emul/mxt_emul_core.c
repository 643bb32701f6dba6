// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mxt_emul: touchfw's maXTouch chip model (tests/emul/model) behind real
 * kernel interfaces, so that Debian's own atmel_mxt_ts binds to it in the
 * VM tests and judges the model, and touchfw can be run against the real
 * driver, i2c-dev, gpiolib and udev.  Through emul_core (tests/vm/modules/
 * emul-core, shared with goodix-emul) it registers:
 *
 *   - an i2c adapter ("touchfw emulated adapter 1") whose transfers the
 *     model serves through em_bus, with the errno a real adapter returns
 *     for a NAK, and an optional transfer-length quirk;
 *   - a GPIO chip ("touchfw-mxt-emul") with the chip's reset input (line 0,
 *     output, active low) and its CHG output (line 1, input, active low),
 *     whose .to_irq is the CHG interrupt;
 *   - a one-interrupt irq domain for CHG, raised with
 *     generic_handle_irq_safe() on the edges its user asked for;
 *   - an atmel_mxt_ts client at 0x4a with the "compatible" property the
 *     driver insists on, that interrupt, and (through a GPIO lookup table:
 *     6.1 has no software-node GPIO references) the reset line;
 *   - with spi=1, an spi controller (below the platform device
 *     "mxt-emul-spi") whose chip select 0 is served by the spi personality
 *     of the same chip model (tests/emul/family/mxt/model/mxt_spi.c: Microchip's
 *     mchp_spi_ts framing), with a device whose modalias is
 *     "mchp_spi_ts" -- no such driver in Debian's kernel, so it stays
 *     unbound until spidev is bound to it through driver_override; the
 *     spi core does the chip-select changes and delays, transfer_one
 *     shifts the bytes through the model;
 *   - with berlin=1, on the same spi controller (registered for it alone
 *     without spi=1), chip select 1 is a Goodix Berlin chip
 *     (tests/emul/family/berlin/model/berlin_model.c: Berlin-D gt9916, or Berlin-A
 *     gt9897 with berlin_chip=gt9897), modalias "gt9916" / "gt9897" -- no
 *     goodix_berlin_spi in Debian's 6.1 kernel, so it stays unbound until
 *     spidev is bound through driver_override; empty (ROM, "NOCODE")
 *     unless berlin_fw names a patch_vid; its debugfs file
 *     mxt-emul/berlin shows mode, version and counters.  The Berlin model
 *     is not on the i2c bus's clock: it is advanced to now before each of
 *     its spi operations, which is when its ack, status and boot events
 *     can be seen;
 *
 * and of its own debugfs mxt-emul/state (the model as the chip would know
 * it) and mxt-emul/power.  Model time, locking: emul_core.h.
 */
#include <linux/debugfs.h>
#include <linux/platform_device.h>
#include <linux/spi/spi.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/property.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "emul_core.h"
#include <linux/vmalloc.h>

#include "berlin_model.h"
#include "mxt_model.h"
#include "mxt_spi.h"

#define EMU_GPIO_LABEL "touchfw-mxt-emul"
#define EMU_LINE_RESET 0
#define EMU_LINE_CHG 1
#define EMU_NLINES 2

/* ------------------------------------------------------------ parameters */

static char *preset = "mxt224e";
module_param(preset, charp, 0444);
MODULE_PARM_DESC(preset, "chip model preset: mxt224e or mxt1664s");

static char *state = "app";
module_param(state, charp, 0444);
MODULE_PARM_DESC(
	state,
	"starting state: app, bootloader (valid image, sitting in the bootloader) or noimage");

static char *fw_version = "1.0.AA";
module_param(fw_version, charp, 0444);
MODULE_PARM_DESC(
	fw_version,
	"installed firmware, MAJOR.MINOR.BUILD (build in hex), as fw_version shows it");

static ushort addr = 0x4a;
module_param(addr, ushort, 0444);
MODULE_PARM_DESC(addr, "application-mode address (default 0x4a)");

static bool reset_gpio = true;
module_param(reset_gpio, bool, 0444);
MODULE_PARM_DESC(reset_gpio, "give the client the reset line (its probe then resets the chip)");

static bool client = true;
module_param(client, bool, 0444);
MODULE_PARM_DESC(client, "instantiate the atmel_mxt_ts client at load");

static uint crc_fail_frame;
module_param(crc_fail_frame, uint, 0444);
MODULE_PARM_DESC(crc_fail_frame, "fault: 1-based frame whose CRC check fails (0 = none)");
static uint crc_fail_times;
module_param(crc_fail_times, uint, 0444);
MODULE_PARM_DESC(crc_fail_times,
		 "fault: how often that frame fails before it passes (default 1)");
static bool crc_fail_always;
module_param(crc_fail_always, bool, 0444);
MODULE_PARM_DESC(crc_fail_always, "fault: every frame fails its CRC check");
static uint power_loss_after;
module_param(power_loss_after, uint, 0444);
MODULE_PARM_DESC(power_loss_after,
		 "fault: the supply drops once frame K is programmed (0 = never)");
static bool stuck_in_bootloader;
module_param(stuck_in_bootloader, bool, 0444);
MODULE_PARM_DESC(stuck_in_bootloader, "fault: the bootloader never starts the application");
static bool corrupt_info_crc;
module_param(corrupt_info_crc, bool, 0444);
MODULE_PARM_DESC(corrupt_info_crc, "fault: the info block CRC reads back wrong");
static bool spi;
module_param(spi, bool, 0444);
MODULE_PARM_DESC(
	spi,
	"also register an spi controller whose chip select 0 is the chip (mchp_spi_ts framing)");

static bool berlin;
module_param(berlin, bool, 0444);
MODULE_PARM_DESC(berlin, "also serve a Goodix Berlin chip on spi chip select 1");
static char *berlin_chip = "gt9916";
module_param(berlin_chip, charp, 0444);
MODULE_PARM_DESC(berlin_chip, "the Berlin part: gt9916 (Berlin-D) or gt9897 (Berlin-A)");
static char *berlin_fw = "none";
module_param(berlin_fw, charp, 0444);
MODULE_PARM_DESC(
	berlin_fw,
	"Berlin flash: none (empty, NOCODE) or a patch_vid of 8 hex digits (pid 9916)");
static uint berlin_ack_fail_at;
module_param(berlin_ack_fail_at, uint, 0444);
MODULE_PARM_DESC(berlin_ack_fail_at, "fault: the Nth Berlin flash command is acked 0x33");
static uint berlin_checksum_fail_at;
module_param(berlin_checksum_fail_at, uint, 0444);
MODULE_PARM_DESC(berlin_checksum_fail_at, "fault: the Nth Berlin packet reports status 0x33");
static uint berlin_write_error_at;
module_param(berlin_write_error_at, uint, 0444);
MODULE_PARM_DESC(berlin_write_error_at, "fault: the Nth Berlin packet reports status 0x55");
static uint berlin_power_loss_at;
module_param(berlin_power_loss_at, uint, 0444);
MODULE_PARM_DESC(berlin_power_loss_at,
		 "fault: the Berlin chip loses power halfway through its Nth packet");

static uint slow_factor;
module_param(slow_factor, uint, 0444);
MODULE_PARM_DESC(slow_factor, "fault: multiply every busy time of the chip");
static uint reset_ms;
module_param(reset_ms, uint, 0444);
MODULE_PARM_DESC(reset_ms, "T6 soft reset to application ready, ms (0 = the model's 40 ms)");
static uint reset_hold_ms;
module_param(reset_hold_ms, uint, 0444);
MODULE_PARM_DESC(
	reset_hold_ms,
	"harness: a T6 soft reset goes on past reset_ms until a transfer meets it, at most this long (0 = off)");

/* ------------------------------------------------------------ state */

struct mxt_emul {
	struct emul_core core;
	struct mxt_model chip; /* under core.lock */
	struct mxt_spi spi;    /* the same chip behind spi, under core.lock */
	struct platform_device *spi_pdev;
	struct spi_controller *spi_ctlr;
	struct berlin_model *berlin; /* vzalloc'ed (its flash), under core.lock */
	struct dentry *dir;
};

static struct mxt_emul *emu;

/* The chip's RESET pin has a pull-up: an undriven line releases it; CHG
 * is the wire, low while the chip asserts it (the core's default pins). */
static const struct emul_line_desc emu_lines[EMU_NLINES] = {
	[EMU_LINE_RESET] = { .name = "MXT_RESET",
			     .output_ok = true,
			     .init_driven = true,
			     .init_high = true },
	/* CHG is the chip's output: driving it would fight the chip. */
	[EMU_LINE_CHG] = { .name = "MXT_CHG" },
};

static struct emul_core_cfg emu_core_cfg = {
	.gpio_label = EMU_GPIO_LABEL,
	.irq_name = "mxt-emul-chg",
	.lines = emu_lines,
	.nlines = EMU_NLINES,
	.irq_line = EMU_LINE_CHG,
	/*
	 * Falling edges (CHG asserting) unless a user asks otherwise; level
	 * triggers are refused, as before the core could do them: atmel_mxt_ts
	 * asks for no trigger.
	 */
	.default_trigger = IRQ_TYPE_EDGE_FALLING,
	.level_ok = false,
	.has_reset = true,
	.reset_line = EMU_LINE_RESET,
};

/* ------------------------------------------------------------ debugfs */

static const char *emu_mode_name(enum mxt_mode m)
{
	switch (m) {
	case MXT_MODE_OFF:
		return "off";
	case MXT_MODE_RESET:
		return "reset";
	case MXT_MODE_APP:
		return "app";
	case MXT_MODE_BOOTLOADER:
		return "bootloader";
	}
	return "?";
}

struct emu_snapshot {
	enum mxt_mode mode;
	u8 bl_status, fw_version, fw_build;
	bool app_valid, chg, reset_held;
	u32 info_crc, config_crc, nvm_config_crc;
	u16 bl_addr;
	struct mxt_model_stats st;
	struct em_bus_counters count;
	u64 now;
};

static void emu_snap(struct emul_core *c, void *arg)
{
	struct mxt_emul *e = c->glue;
	struct emu_snapshot *s = arg;

	s->mode = mxt_model_mode(&e->chip);
	s->bl_status = mxt_model_bl_status(&e->chip);
	s->fw_version = mxt_model_fw_version(&e->chip);
	s->fw_build = mxt_model_fw_build(&e->chip);
	s->app_valid = mxt_model_app_valid(&e->chip);
	s->info_crc = mxt_model_info_crc(&e->chip);
	s->config_crc = mxt_model_config_crc(&e->chip);
	s->nvm_config_crc = mxt_model_nvm_config_crc(&e->chip);
	s->bl_addr = mxt_model_bootloader_addr(&e->chip);
	s->st = *mxt_model_stats(&e->chip);
	s->count = c->bus.count;
	s->chg = !c->irq_high;
	s->reset_held = c->driven[EMU_LINE_RESET] && !c->high[EMU_LINE_RESET];
	s->now = c->bus.now_ns;
}

/* key=value lines, for scenarios to pick with sed. */
static int emu_state_show(struct seq_file *sf, void *unused)
{
	struct mxt_emul *e = sf->private;
	struct emu_snapshot s;

	emul_core_step(&e->core, emu_snap, &s);
	seq_printf(sf, "mode=%s\n", emu_mode_name(s.mode));
	seq_printf(sf, "app_valid=%d\n", s.app_valid);
	seq_printf(sf, "fw_version=%u.%u.%02X\n", s.fw_version >> 4, s.fw_version & 0xf,
		   s.fw_build);
	seq_printf(sf, "bl_status=0x%02x\n", s.bl_status);
	seq_printf(sf, "app_addr=0x%02x\nbl_addr=0x%02x\n", addr, s.bl_addr);
	seq_printf(sf, "info_crc=0x%06X\n", s.info_crc);
	seq_printf(sf, "config_crc=0x%06X\n", s.config_crc);
	seq_printf(sf, "nvm_config_crc=0x%06X\n", s.nvm_config_crc);
	seq_printf(sf, "chg_asserted=%d\nreset_held=%d\npowered=%d\n", s.chg, s.reset_held,
		   READ_ONCE(e->core.powered));
	seq_printf(sf, "frames_passed=%u\nframes_failed=%u\nimages_completed=%u\n",
		   s.st.frames_passed, s.st.frames_failed, s.st.images_completed);
	seq_printf(sf, "resets=%u\nhw_resets=%u\n", s.st.resets, s.st.hw_resets);
	seq_printf(sf, "bootloader_entries=%u\nbackups=%u\n", s.st.bootloader_entries,
		   s.st.backups);
	seq_printf(sf, "power_losses=%u\nconfig_writes=%u\n", s.st.power_losses,
		   s.st.config_writes);
	emul_core_show_counters(sf, &e->core, &s.count);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(emu_state);

struct emu_berlin_snap {
	enum berlin_mode mode;
	u8 version[BERLIN_VERSION_LEN];
	struct berlin_stats st;
};

static void emu_berlin_snap(struct emul_core *c, void *arg)
{
	struct mxt_emul *e = c->glue;
	struct emu_berlin_snap *s = arg;

	berlin_model_ops.advance(e->berlin, c->bus.now_ns);
	s->mode = berlin_model_mode(e->berlin);
	memcpy(s->version, e->berlin->mem + e->berlin->lay.version_addr, BERLIN_VERSION_LEN);
	s->st = e->berlin->stats;
}

/* key=value lines: the Berlin chip as it would know itself. */
static int emu_berlin_show(struct seq_file *sf, void *unused)
{
	static const char *const modes[] = { "off", "rom", "isp", "app" };
	struct mxt_emul *e = sf->private;
	struct emu_berlin_snap s;

	emul_core_step(&e->core, emu_berlin_snap, &s);
	seq_printf(sf, "mode=%s\n", s.mode < ARRAY_SIZE(modes) ? modes[s.mode] : "?");
	seq_printf(sf, "patch_pid=%.8s\n", s.version + 10);
	seq_printf(sf, "patch_vid=%*phN\n", 4, s.version + 18);
	seq_printf(sf, "resets=%u\nboots_rom=%u\nboots_isp=%u\nboots_app=%u\n", s.st.resets,
		   s.st.boots_rom, s.st.boots_isp, s.st.boots_app);
	seq_printf(sf, "flash_cmds=%u\nflash_writes=%u\nchecksum_fails=%u\n", s.st.flash_cmds,
		   s.st.flash_writes, s.st.checksum_fails);
	seq_printf(sf, "power_losses=%u\nwatchdog_resets=%u\nlost_writes=%u\n",
		   s.st.power_losses, s.st.watchdog_resets, s.st.lost_writes);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(emu_berlin);

/* ------------------------------------------------------------ setup */

static int emu_chip_cfg(struct mxt_model_cfg *cfg)
{
	unsigned int maj, min, build;
	char tail;

	if (!mxt_model_preset(preset, cfg)) {
		pr_err("mxt_emul: unknown preset \"%s\" (mxt224e, mxt1664s)\n", preset);
		return -EINVAL;
	}
	if (sscanf(fw_version, "%u.%u.%x%c", &maj, &min, &build, &tail) != 3 || maj > 15 ||
	    min > 15 || build > 0xff) {
		pr_err("mxt_emul: fw_version \"%s\" is not MAJOR.MINOR.BUILD (e.g. 1.0.AA)\n",
		       fw_version);
		return -EINVAL;
	}
	cfg->fw_version = (u8)(maj << 4 | min);
	cfg->fw_build = (u8)build;
	if (!strcmp(state, "app")) {
		cfg->app_valid = true;
	} else if (!strcmp(state, "bootloader")) {
		cfg->app_valid = true;
		cfg->start_in_bootloader = true;
	} else if (!strcmp(state, "noimage")) {
		cfg->app_valid = false;
	} else {
		pr_err("mxt_emul: state \"%s\" is not app, bootloader or noimage\n", state);
		return -EINVAL;
	}
	if (addr < 0x08 || addr > 0x77) {
		pr_err("mxt_emul: addr 0x%x is not a 7-bit address\n", addr);
		return -EINVAL;
	}
	cfg->app_addr = addr;
	cfg->faults.crc_fail_frame = crc_fail_frame;
	cfg->faults.crc_fail_times = crc_fail_times;
	cfg->faults.crc_fail_always = crc_fail_always;
	cfg->faults.power_loss_after = power_loss_after;
	cfg->faults.stuck_in_bootloader = stuck_in_bootloader;
	cfg->faults.corrupt_info_crc = corrupt_info_crc;
	cfg->faults.slow_factor = slow_factor;
	cfg->t.reset_ns = (u64)reset_ms * NSEC_PER_MSEC;
	cfg->t.reset_hold_ns = (u64)reset_hold_ms * NSEC_PER_MSEC;
	return 0;
}

/* The "compatible" property atmel_mxt_ts requires before it probes. */
static const struct property_entry emu_client_props[] = {
	PROPERTY_ENTRY_STRING("compatible", "atmel,maxtouch"),
	{}
};

static const struct software_node emu_client_node = {
	.name = "mxt-emul-touchscreen",
	.properties = emu_client_props,
};

static int emu_add_client(struct mxt_emul *e)
{
	struct i2c_board_info info = {
		I2C_BOARD_INFO("maxtouch", 0),
		.swnode = &emu_client_node,
	};
	/* 6.1 gpiolib has no software-node GPIO references: a lookup table. */
	const struct gpiod_lookup reset = GPIO_LOOKUP_IDX(NULL, EMU_LINE_RESET, "reset", 0,
							  GPIO_ACTIVE_LOW);

	info.addr = addr;
	return emul_core_add_client(&e->core, &info, &reset, reset_gpio ? 1 : 0);
}

/* ------------------------------------------------------------ spi */

struct emu_spi_op {
	u8 cs;
	bool select, selected;
	const u8 *mosi;
	u8 *miso;
	u32 len;
};

/*
 * Under core.lock, the maXTouch model advanced to now by emul_core_step().
 * Each spi personality is told the time too: the Berlin model has its own
 * clock, and mxt_spi keeps the time of each transfer (a response frame that
 * comes too soon after its request reads 0xFF); without it mxt_spi's clock
 * stays at 0 and every application-mode response is lost.
 */
static void emu_spi_fn(struct emul_core *c, void *arg)
{
	struct mxt_emul *e = c->glue;
	struct emu_spi_op *op = arg;
	const struct em_spi_ops *ops = &mxt_spi_ops;
	void *chip = &e->spi;

	if (op->cs == 1) {
		ops = &berlin_model_ops;
		chip = e->berlin;
	}
	ops->advance(chip, c->bus.now_ns);
	if (op->select)
		ops->select(chip, op->selected);
	else
		ops->xfer(chip, op->mosi, op->miso, op->len);
}

static struct mxt_emul *emu_of(struct spi_controller *ctlr)
{
	return *(struct mxt_emul **)spi_controller_get_devdata(ctlr);
}

/* @level: the chip-select wire; low selects a device without SPI_CS_HIGH. */
static void emu_spi_set_cs(struct spi_device *sd, bool level)
{
	struct emu_spi_op op = {
		.cs = spi_get_chipselect(sd, 0),
		.select = true,
		.selected = (sd->mode & SPI_CS_HIGH) ? level : !level,
	};

	emul_core_step(&emu_of(sd->controller)->core, emu_spi_fn, &op);
}

/*
 * One transfer, done when it returns.  The chip samples in its own mode
 * (mxt_spi_ops.mode): in another one it sees garbage and drives nothing
 * sensible, modelled as MISO left high and MOSI ignored.
 */
static int emu_spi_transfer_one(struct spi_controller *ctlr, struct spi_device *sd,
				struct spi_transfer *t)
{
	struct emu_spi_op op = { .cs = spi_get_chipselect(sd, 0), .len = t->len };
	const struct em_spi_ops *ops = op.cs == 1 ? &berlin_model_ops : &mxt_spi_ops;
	u8 *zeros = NULL, *sink = NULL;

	if (!t->len)
		return 0;
	if ((sd->mode & (SPI_CPOL | SPI_CPHA)) != ops->mode) {
		if (t->rx_buf)
			memset(t->rx_buf, 0xff, t->len);
		return 0;
	}
	if (!t->tx_buf)
		zeros = kzalloc(t->len, GFP_KERNEL);
	if (!t->rx_buf)
		sink = kmalloc(t->len, GFP_KERNEL);
	if ((!t->tx_buf && !zeros) || (!t->rx_buf && !sink)) {
		kfree(zeros);
		kfree(sink);
		return -ENOMEM;
	}
	op.mosi = t->tx_buf ? t->tx_buf : zeros;
	op.miso = t->rx_buf ? t->rx_buf : sink;
	emul_core_step(&emu_of(ctlr)->core, emu_spi_fn, &op);
	kfree(zeros);
	kfree(sink);
	return 0;
}

/* berlin_fw: none, or the patch_vid of a model-made application */
static int emu_berlin_flash(u8 *flash)
{
	u8 vid[4];
	int r;

	memset(flash, 0xff, BERLIN_FLASH_SIZE);
	if (!strcmp(berlin_fw, "none"))
		return 0;
	r = strlen(berlin_fw) == 8 ? hex2bin(vid, berlin_fw, 4) : -EINVAL;
	if (r) {
		pr_err("mxt_emul: berlin_fw=%s: not none or 8 hex digits\n", berlin_fw);
		return -EINVAL;
	}
	berlin_model_make_app(flash, 65536, "9916", vid, 1);
	berlin_model_make_config(flash + BERLIN_CONFIG_ADDR, 0x11, 1);
	return 0;
}

static int emu_add_berlin(struct mxt_emul *e)
{
	struct spi_board_info info = {
		.max_speed_hz = 8000000,
		.chip_select = 1,
		.mode = SPI_MODE_0,
	};
	enum berlin_variant v;
	u8 *flash;
	int r;

	if (!strcmp(berlin_chip, "gt9916")) {
		v = BERLIN_D;
	} else if (!strcmp(berlin_chip, "gt9897")) {
		v = BERLIN_A;
	} else {
		pr_err("mxt_emul: berlin_chip=%s: not gt9916 or gt9897\n", berlin_chip);
		return -EINVAL;
	}
	strscpy(info.modalias, berlin_chip, sizeof(info.modalias));
	e->berlin = vzalloc(sizeof(*e->berlin));
	flash = vmalloc(BERLIN_FLASH_SIZE);
	if (!e->berlin || !flash) {
		vfree(flash);
		return -ENOMEM;
	}
	r = emu_berlin_flash(flash);
	if (!r) {
		e->berlin->faults.ack_fail_at = berlin_ack_fail_at;
		e->berlin->faults.checksum_fail_at = berlin_checksum_fail_at;
		e->berlin->faults.write_error_at = berlin_write_error_at;
		e->berlin->faults.power_loss_at = berlin_power_loss_at;
		/* before the controller exists: nothing else sees it yet */
		berlin_model_init(e->berlin, v, flash, ktime_get_ns());
	}
	vfree(flash);
	if (r)
		return r;
	if (!spi_new_device(e->spi_ctlr, &info))
		return -ENODEV;
	return 0;
}

static int emu_add_spi(struct mxt_emul *e)
{
	struct spi_board_info info = {
		.modalias = "mchp_spi_ts",
		.max_speed_hz = 8000000,
		.chip_select = 0,
		.mode = SPI_MODE_0, /* the profile says 3: touchfw must set it */
	};
	struct spi_controller *ctlr;
	int r;

	mxt_spi_init(&e->spi, &e->chip);
	e->spi_pdev = platform_device_register_simple("mxt-emul-spi", PLATFORM_DEVID_NONE, NULL,
						      0);
	if (IS_ERR(e->spi_pdev)) {
		r = PTR_ERR(e->spi_pdev);
		e->spi_pdev = NULL;
		return r;
	}
	ctlr = spi_alloc_master(&e->spi_pdev->dev, sizeof(e));
	if (!ctlr)
		return -ENOMEM;
	*(struct mxt_emul **)spi_controller_get_devdata(ctlr) = e;
	ctlr->bus_num = -1;
	ctlr->num_chipselect = 2;
	ctlr->mode_bits = SPI_CPOL | SPI_CPHA | SPI_CS_HIGH;
	ctlr->bits_per_word_mask = SPI_BPW_MASK(8);
	ctlr->max_speed_hz = 20000000;
	ctlr->set_cs = emu_spi_set_cs;
	ctlr->transfer_one = emu_spi_transfer_one;
	r = spi_register_controller(ctlr);
	if (r) {
		spi_controller_put(ctlr);
		return r;
	}
	e->spi_ctlr = ctlr;
	if (spi && !spi_new_device(ctlr, &info))
		return -ENODEV;
	return 0;
}

static void emu_teardown(struct mxt_emul *e)
{
	if (e->spi_ctlr)
		spi_unregister_controller(e->spi_ctlr);
	if (e->spi_pdev)
		platform_device_unregister(e->spi_pdev);
	debugfs_remove_recursive(e->dir);
	emul_core_teardown(&e->core);
	vfree(e->berlin);
	kfree(e);
}

static int mxt_emul_load(void)
{
	struct mxt_model_cfg cfg;
	struct mxt_emul *e;
	int r;

	r = emul_core_check_params("mxt_emul");
	if (!r)
		r = emu_chip_cfg(&cfg);
	if (r)
		return r;
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	emul_core_init(&e->core, &emu_core_cfg, e);
	mxt_model_init(&e->chip, &cfg, e->core.bus.now_ns);
	emul_core_add_chip(&e->core, &mxt_model_ops, &e->chip, 0);

	r = emul_core_start(&e->core);
	if (r)
		goto fail;

	e->dir = debugfs_create_dir("mxt-emul", NULL);
	debugfs_create_file("state", 0444, e->dir, e, &emu_state_fops);
	emul_core_debugfs_power(&e->core, e->dir);

	/* In DT mode the kernel's OF code makes the client from its node. */
	if (client && !emul_dt_active()) {
		r = emu_add_client(e);
		if (r)
			goto fail;
	}
	if (spi || berlin) {
		r = emu_add_spi(e);
		if (r)
			goto fail;
		if (spi)
			pr_info("mxt_emul: spi%d.0 (mchp_spi_ts framing) below mxt-emul-spi\n",
				e->spi_ctlr->bus_num);
	}
	if (berlin) {
		r = emu_add_berlin(e);
		if (r)
			goto fail;
		debugfs_create_file("berlin", 0444, e->dir, e, &emu_berlin_fops);
		pr_info("mxt_emul: spi%d.1 Goodix Berlin %s, flash %s\n", e->spi_ctlr->bus_num,
			berlin_chip, berlin_fw);
	}
	emu = e;
	pr_info("mxt_emul: %s at 0x%02x on i2c-%d (\"%s\"), state %s, firmware %s, CHG irq %u, gpiochip \"%s\"\n",
		preset, addr, e->core.adap.nr, e->core.adap.name, state, fw_version,
		e->core.irq, EMU_GPIO_LABEL);
	return 0;

fail:
	emu_teardown(e);
	return r;
}

static void mxt_emul_unload(void)
{
	emu_teardown(emu);
	emu = NULL;
}

/* DT mode (emul_core.h) when the device tree has our nodes, else as before. */
static int __init mxt_emul_init(void)
{
	int r = emul_dt_init(mxt_emul_load, mxt_emul_unload);

	if (r)
		return r < 0 ? r : 0;
	return mxt_emul_load();
}

static void __exit mxt_emul_exit(void)
{
	if (emul_dt_active())
		emul_dt_exit();
	else
		mxt_emul_unload();
	pr_info("mxt_emul: unloaded\n");
}

module_init(mxt_emul_init);
module_exit(mxt_emul_exit);

MODULE_DESCRIPTION("touchfw test: emulated maXTouch on a virtual i2c adapter");
MODULE_LICENSE("GPL");
