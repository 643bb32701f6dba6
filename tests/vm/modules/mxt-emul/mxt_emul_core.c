// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mxt_emul: touchfw's maXTouch chip model (tests/emul/model) behind real
 * kernel interfaces, so that Debian's own atmel_mxt_ts binds to it in the
 * VM tests and judges the model, and touchfw can be run against the real
 * driver, i2c-dev, gpiolib and udev.  It registers:
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
 *   - debugfs mxt-emul/state (the model as the chip would know it) and
 *     mxt-emul/power.
 *
 * Model time is CLOCK_MONOTONIC (ktime_get_ns()): a transfer first brings
 * the model up to now; an hrtimer fires at the model's next internal event.
 *
 * Locking: i2c-core serialises master_xfer (the adapter's bus lock, a
 * sleeping lock).  The model, the bus and the CHG level are guarded by a
 * spinlock taken with interrupts off, because the hrtimer callback (hard
 * interrupt context) advances the model too; model steps are short and
 * never sleep.  CHG edges seen under the lock are collected and the
 * interrupt is raised only after the lock is dropped, so the handlers
 * (atmel_mxt_ts's is threaded; gpiolib-cdev's hard handler only stamps the
 * time) never run under it.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/gpio/driver.h>
#include <linux/gpio/machine.h>
#include <linux/hrtimer.h>
#include <linux/i2c.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/property.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>

#include "em_bus.h"
#include "mxt_model.h"

#define EMU_GPIO_LABEL "touchfw-mxt-emul"
#define EMU_LINE_RESET 0
#define EMU_LINE_CHG 1
#define EMU_NLINES 2
/* More CHG edges than this in one model step are counted and dropped. */
#define EMU_MAX_EDGES 16
/* Sleep off modelled wire time only when it is worth a timer. */
#define EMU_WIRE_SLEEP_MIN_NS (200 * NSEC_PER_USEC)

/* ------------------------------------------------------------ parameters */

static char *preset = "mxt224e";
module_param(preset, charp, 0444);
MODULE_PARM_DESC(preset, "chip model preset: mxt224e or mxt1664s");

static char *state = "app";
module_param(state, charp, 0444);
MODULE_PARM_DESC(state, "starting state: app, bootloader (valid image, sitting in the bootloader) or noimage");

static char *fw_version = "1.0.AA";
module_param(fw_version, charp, 0444);
MODULE_PARM_DESC(fw_version, "installed firmware, MAJOR.MINOR.BUILD (build in hex), as fw_version shows it");

static ushort addr = 0x4a;
module_param(addr, ushort, 0444);
MODULE_PARM_DESC(addr, "application-mode address (default 0x4a)");

static char *adapter_name = "touchfw emulated adapter 1";
module_param(adapter_name, charp, 0444);
MODULE_PARM_DESC(adapter_name, "name of the i2c adapter");

static uint bus_hz = 400000;
module_param(bus_hz, uint, 0444);
MODULE_PARM_DESC(bus_hz, "SCL frequency the wire time is modelled at");

static bool wire_time = true;
module_param(wire_time, bool, 0444);
MODULE_PARM_DESC(wire_time, "a transfer takes its modelled wire time (sleeps when >= 200 us)");

static uint max_xfer_len;
module_param(max_xfer_len, uint, 0444);
MODULE_PARM_DESC(max_xfer_len, "adapter quirk: longest read or write message (0 = no limit)");

static int nak_errno = ENXIO;
module_param(nak_errno, int, 0444);
MODULE_PARM_DESC(nak_errno, "errno for an address NAK (default ENXIO, as i2c fault-codes.rst says; DesignWare gives EREMOTEIO)");

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
MODULE_PARM_DESC(crc_fail_times, "fault: how often that frame fails before it passes (default 1)");
static bool crc_fail_always;
module_param(crc_fail_always, bool, 0444);
MODULE_PARM_DESC(crc_fail_always, "fault: every frame fails its CRC check");
static uint power_loss_after;
module_param(power_loss_after, uint, 0444);
MODULE_PARM_DESC(power_loss_after, "fault: the supply drops once frame K is programmed (0 = never)");
static bool stuck_in_bootloader;
module_param(stuck_in_bootloader, bool, 0444);
MODULE_PARM_DESC(stuck_in_bootloader, "fault: the bootloader never starts the application");
static bool corrupt_info_crc;
module_param(corrupt_info_crc, bool, 0444);
MODULE_PARM_DESC(corrupt_info_crc, "fault: the info block CRC reads back wrong");
static uint slow_factor;
module_param(slow_factor, uint, 0444);
MODULE_PARM_DESC(slow_factor, "fault: multiply every busy time of the chip");

/* ------------------------------------------------------------ state */

struct mxt_emul {
	spinlock_t lock; /* bus, chip, chg, reset_*, dying */
	struct em_bus bus;
	struct mxt_model chip;
	bool chg;             /* CHG asserted (the wire low), as last seen */
	bool reset_output;    /* reset line direction */
	bool reset_high;      /* level driven on it when an output */
	bool powered;
	bool dying;
	unsigned int irq_type; /* edges the CHG interrupt's user asked for */
	atomic_t irqs_raised;
	atomic_t edges_dropped;

	struct hrtimer timer;
	struct fwnode_handle *irq_fwnode;
	struct irq_domain *domain;
	unsigned int irq;
	struct gpio_chip gc;
	bool gc_added;
	struct i2c_adapter adap;
	bool adap_added;
	struct i2c_adapter_quirks quirks;
	struct gpiod_lookup_table *lookup;
	struct i2c_client *client;
	struct dentry *dir;
};

static struct mxt_emul *emu;

/* CHG edges seen during one model step, raised after the lock is dropped. */
struct emu_edges {
	unsigned int n;
	bool asserted[EMU_MAX_EDGES];
};

static void emu_see_chg_locked(struct mxt_emul *e, struct emu_edges *ed)
{
	bool a = mxt_model_ops.irq_asserted(&e->chip);

	if (a == e->chg)
		return;
	e->chg = a;
	if (ed->n < EMU_MAX_EDGES)
		ed->asserted[ed->n++] = a;
	else
		atomic_inc(&e->edges_dropped);
}

/*
 * Bring the model up to @now one internal event at a time, so that a CHG
 * pulse between two events is seen even when the timer comes late.
 */
static void emu_advance_locked(struct mxt_emul *e, u64 now,
			       struct emu_edges *ed)
{
	unsigned int guard;

	for (guard = 0; guard < 10000; guard++) {
		u64 next = em_bus_next_event(&e->bus);

		if (next == EM_NEVER || next > now)
			break;
		if (next < e->bus.now_ns)
			next = e->bus.now_ns; /* overdue: run it now */
		em_bus_advance(&e->bus, next);
		emu_see_chg_locked(e, ed);
		if (em_bus_next_event(&e->bus) <= next)
			break; /* an event that does not retire: stop here */
	}
	em_bus_advance(&e->bus, now);
	emu_see_chg_locked(e, ed);
}

static void emu_arm_locked(struct mxt_emul *e)
{
	u64 next = em_bus_next_event(&e->bus);

	if (e->dying)
		return;
	if (next == EM_NEVER) {
		/* Never waits: the callback may be spinning on our lock. */
		hrtimer_try_to_cancel(&e->timer);
		return;
	}
	hrtimer_start(&e->timer, ns_to_ktime(next), HRTIMER_MODE_ABS);
}

/* Raise the CHG interrupt for the edges its user wants; no lock held. */
static void emu_raise(struct mxt_emul *e, const struct emu_edges *ed)
{
	unsigned int i;

	for (i = 0; i < ed->n; i++) {
		/* CHG is active low: asserting it is a falling edge. */
		unsigned int edge = ed->asserted[i] ? IRQ_TYPE_EDGE_FALLING :
						      IRQ_TYPE_EDGE_RISING;

		if (!(READ_ONCE(e->irq_type) & edge))
			continue;
		/*
		 * A masked interrupt is not delivered, as with a GPIO
		 * controller that latches nothing while masked: one nobody
		 * requested, one requested with IRQF_NO_AUTOEN and never
		 * enabled (atmel_mxt_ts's when probe left the chip in its
		 * bootloader), and one that a first edge after a lazy
		 * disable_irq() masked.  Raising it anyway would leave
		 * IRQS_PENDING for enable_irq() to replay later, a CHG edge
		 * the chip never made at that time.
		 */
		if (!irq_has_action(e->irq) ||
		    irqd_irq_masked(irq_get_irq_data(e->irq)))
			continue;
		generic_handle_irq_safe(e->irq);
		atomic_inc(&e->irqs_raised);
	}
}

/* Run @fn on the model at the current time, then update CHG and the timer. */
static void emu_step(struct mxt_emul *e,
		     void (*fn)(struct mxt_emul *e, void *arg), void *arg)
{
	struct emu_edges ed = { 0 };
	unsigned long flags;

	spin_lock_irqsave(&e->lock, flags);
	if (!e->dying) {
		emu_advance_locked(e, ktime_get_ns(), &ed);
		if (fn) {
			fn(e, arg);
			emu_see_chg_locked(e, &ed);
		}
		emu_arm_locked(e);
	}
	spin_unlock_irqrestore(&e->lock, flags);
	emu_raise(e, &ed);
}

static enum hrtimer_restart emu_timer_fn(struct hrtimer *t)
{
	emu_step(container_of(t, struct mxt_emul, timer), NULL, NULL);
	return HRTIMER_NORESTART; /* emu_arm_locked() started it again */
}

/* ------------------------------------------------------------ i2c adapter */

static int emu_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs, int num)
{
	struct mxt_emul *e = i2c_get_adapdata(adap);
	struct em_msg stack[4], *em = stack;
	struct emu_edges ed = { 0 };
	unsigned long flags;
	u64 ahead = 0, now;
	int i, r;

	if (num > ARRAY_SIZE(stack)) {
		em = kmalloc_array(num, sizeof(*em), GFP_KERNEL);
		if (!em)
			return -ENOMEM;
	}
	for (i = 0; i < num; i++) {
		/* A plain controller: no 10-bit, no SMBus block-length reads,
		 * no protocol mangling. */
		if (msgs[i].flags & ~(I2C_M_RD | I2C_M_DMA_SAFE)) {
			r = -EOPNOTSUPP;
			goto out;
		}
		em[i].addr = msgs[i].addr;
		em[i].flags = (msgs[i].flags & I2C_M_RD) ? EM_MSG_RD : 0;
		em[i].len = msgs[i].len;
		em[i].buf = msgs[i].buf;
	}

	spin_lock_irqsave(&e->lock, flags);
	now = ktime_get_ns();
	emu_advance_locked(e, now, &ed);
	r = em_bus_transfer(&e->bus, em, num);
	emu_see_chg_locked(e, &ed);
	emu_arm_locked(e);
	if (e->bus.now_ns > now)
		ahead = e->bus.now_ns - now;
	spin_unlock_irqrestore(&e->lock, flags);
	emu_raise(e, &ed);

	/* The model ran the transfer at wire speed; let real time catch up. */
	if (wire_time && ahead >= EMU_WIRE_SLEEP_MIN_NS)
		fsleep(div_u64(ahead, NSEC_PER_USEC));

	switch (r) {
	case EM_XFER_NAK_ADDR:
		r = -nak_errno;
		break;
	case EM_XFER_NAK_DATA:
		r = -EIO;
		break;
	case EM_XFER_INVAL:
		r = -EINVAL;
		break;
	default:
		break;
	}
out:
	if (em != stack)
		kfree(em);
	return r;
}

static u32 emu_functionality(struct i2c_adapter *adap)
{
	return I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL;
}

static const struct i2c_algorithm emu_algo = {
	.master_xfer = emu_xfer,
	.functionality = emu_functionality,
};

/* ------------------------------------------------------------ GPIO chip */

static const char *const emu_line_names[EMU_NLINES] = { "MXT_RESET", "MXT_CHG" };

/* The chip's RESET pin has a pull-up: an undriven line releases it. */
static void emu_apply_reset(struct mxt_emul *e, void *arg)
{
	bool level = e->reset_output ? e->reset_high : true;

	mxt_model_ops.set_reset(&e->chip, !level);
}

static int emu_gpio_get_direction(struct gpio_chip *gc, unsigned int off)
{
	struct mxt_emul *e = gpiochip_get_data(gc);

	if (off == EMU_LINE_RESET && READ_ONCE(e->reset_output))
		return GPIO_LINE_DIRECTION_OUT;
	return GPIO_LINE_DIRECTION_IN;
}

static int emu_gpio_direction_input(struct gpio_chip *gc, unsigned int off)
{
	struct mxt_emul *e = gpiochip_get_data(gc);

	if (off == EMU_LINE_RESET) {
		WRITE_ONCE(e->reset_output, false);
		emu_step(e, emu_apply_reset, NULL);
	}
	return 0;
}

static int emu_gpio_direction_output(struct gpio_chip *gc, unsigned int off,
				     int value)
{
	struct mxt_emul *e = gpiochip_get_data(gc);

	/* CHG is the chip's output: driving it would fight the chip. */
	if (off != EMU_LINE_RESET)
		return -EPERM;
	WRITE_ONCE(e->reset_high, !!value);
	WRITE_ONCE(e->reset_output, true);
	emu_step(e, emu_apply_reset, NULL);
	return 0;
}

static int emu_gpio_get(struct gpio_chip *gc, unsigned int off)
{
	struct mxt_emul *e = gpiochip_get_data(gc);

	if (off == EMU_LINE_RESET)
		return READ_ONCE(e->reset_output) ? READ_ONCE(e->reset_high) : 1;
	/* The wire level: low while the chip asserts CHG. */
	return !READ_ONCE(e->chg);
}

static void emu_gpio_set(struct gpio_chip *gc, unsigned int off, int value)
{
	struct mxt_emul *e = gpiochip_get_data(gc);

	if (off != EMU_LINE_RESET || !READ_ONCE(e->reset_output))
		return;
	WRITE_ONCE(e->reset_high, !!value);
	emu_step(e, emu_apply_reset, NULL);
}

static int emu_gpio_to_irq(struct gpio_chip *gc, unsigned int off)
{
	struct mxt_emul *e = gpiochip_get_data(gc);

	return off == EMU_LINE_CHG ? e->irq : -ENXIO;
}

/* ------------------------------------------------------------ CHG irq */

static void emu_irq_noop(struct irq_data *d)
{
}

/*
 * Record which edges the user asked for.  dummy_irq_chip has no
 * irq_set_type, so the kernel forgets the trigger and the source could not
 * tell atmel_mxt_ts (falling: CHG asserted) from a libgpiod user watching
 * both edges; raising both for the driver would complete its bootloader
 * waits on CHG releases too.  Level triggers are refused: nothing here
 * re-raises a level that stays asserted after the handler.
 */
static int emu_irq_set_type(struct irq_data *d, unsigned int type)
{
	struct mxt_emul *e = irq_data_get_irq_chip_data(d);

	if (type & IRQ_TYPE_LEVEL_MASK)
		return -EINVAL;
	type &= IRQ_TYPE_EDGE_BOTH;
	/* IRQ_TYPE_NONE: the line's own trigger, CHG asserting. */
	WRITE_ONCE(e->irq_type, type ? type : IRQ_TYPE_EDGE_FALLING);
	return IRQ_SET_MASK_OK;
}

/*
 * The last user freed the interrupt: the next one gets the trigger the
 * board describes (what a DT or ACPI mapping applies again at every probe),
 * CHG asserting, so a libgpiod user's "both edges" does not stay behind for
 * the driver's next probe, which asks for no trigger of its own.
 */
static void emu_irq_release_resources(struct irq_data *d)
{
	struct mxt_emul *e = irq_data_get_irq_chip_data(d);

	WRITE_ONCE(e->irq_type, IRQ_TYPE_EDGE_FALLING);
	irqd_set_trigger_type(d, IRQ_TYPE_EDGE_FALLING);
}

static struct irq_chip emu_irq_chip = {
	.name = "mxt-emul",
	.irq_ack = emu_irq_noop,
	.irq_mask = emu_irq_noop,
	.irq_unmask = emu_irq_noop,
	.irq_set_type = emu_irq_set_type,
	.irq_release_resources = emu_irq_release_resources,
	.flags = IRQCHIP_SKIP_SET_WAKE,
};

static int emu_irq_map(struct irq_domain *d, unsigned int virq,
		       irq_hw_number_t hw)
{
	irq_set_chip_data(virq, d->host_data);
	irq_set_chip_and_handler(virq, &emu_irq_chip, handle_edge_irq);
	return 0;
}

static const struct irq_domain_ops emu_irq_ops = {
	.map = emu_irq_map,
	.xlate = irq_domain_xlate_twocell,
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

static void emu_snap(struct mxt_emul *e, void *arg)
{
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
	s->count = e->bus.count;
	s->chg = e->chg;
	s->reset_held = e->reset_output && !e->reset_high;
	s->now = e->bus.now_ns;
}

/* key=value lines, for scenarios to pick with sed. */
static int emu_state_show(struct seq_file *sf, void *unused)
{
	struct mxt_emul *e = sf->private;
	struct emu_snapshot s;

	emu_step(e, emu_snap, &s);
	seq_printf(sf, "mode=%s\n", emu_mode_name(s.mode));
	seq_printf(sf, "app_valid=%d\n", s.app_valid);
	seq_printf(sf, "fw_version=%u.%u.%02X\n", s.fw_version >> 4,
		   s.fw_version & 0xf, s.fw_build);
	seq_printf(sf, "bl_status=0x%02x\n", s.bl_status);
	seq_printf(sf, "app_addr=0x%02x\nbl_addr=0x%02x\n", addr, s.bl_addr);
	seq_printf(sf, "info_crc=0x%06X\n", s.info_crc);
	seq_printf(sf, "config_crc=0x%06X\n", s.config_crc);
	seq_printf(sf, "nvm_config_crc=0x%06X\n", s.nvm_config_crc);
	seq_printf(sf, "chg_asserted=%d\nreset_held=%d\npowered=%d\n", s.chg,
		   s.reset_held, READ_ONCE(e->powered));
	seq_printf(sf, "frames_passed=%u\nframes_failed=%u\nimages_completed=%u\n",
		   s.st.frames_passed, s.st.frames_failed, s.st.images_completed);
	seq_printf(sf, "resets=%u\nhw_resets=%u\n", s.st.resets, s.st.hw_resets);
	seq_printf(sf, "bootloader_entries=%u\nbackups=%u\n",
		   s.st.bootloader_entries, s.st.backups);
	seq_printf(sf, "power_losses=%u\nconfig_writes=%u\n", s.st.power_losses,
		   s.st.config_writes);
	seq_printf(sf, "transactions=%llu\nmessages=%llu\nbytes_written=%llu\n",
		   s.count.transactions, s.count.messages, s.count.bytes_written);
	seq_printf(sf, "bytes_read=%llu\nnaks=%llu\nbus_us=%llu\n",
		   s.count.bytes_read, s.count.naks,
		   div_u64(s.count.bus_ns, NSEC_PER_USEC));
	seq_printf(sf, "irqs_raised=%d\nedges_dropped=%d\nirq=%u\n",
		   atomic_read(&e->irqs_raised), atomic_read(&e->edges_dropped),
		   e->irq);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(emu_state);

static void emu_apply_power(struct mxt_emul *e, void *arg)
{
	bool on = *(bool *)arg;

	e->powered = on;
	mxt_model_ops.set_power(&e->chip, on);
}

/* Write 0 or 1: switch the chip's supply (a board's power switch). */
static ssize_t emu_power_write(struct file *f, const char __user *ubuf,
			       size_t len, loff_t *pos)
{
	struct mxt_emul *e = file_inode(f)->i_private;
	bool on;
	int r;

	r = kstrtobool_from_user(ubuf, len, &on);
	if (r)
		return r;
	emu_step(e, emu_apply_power, &on);
	return len;
}

static const struct file_operations emu_power_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = emu_power_write,
	.llseek = noop_llseek,
};

/* ------------------------------------------------------------ setup */

static int emu_chip_cfg(struct mxt_model_cfg *cfg)
{
	unsigned int maj, min, build;
	char tail;

	if (!mxt_model_preset(preset, cfg)) {
		pr_err("mxt_emul: unknown preset \"%s\" (mxt224e, mxt1664s)\n", preset);
		return -EINVAL;
	}
	if (sscanf(fw_version, "%u.%u.%x%c", &maj, &min, &build, &tail) != 3 ||
	    maj > 15 || min > 15 || build > 0xff) {
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
	if (nak_errno <= 0 || nak_errno >= MAX_ERRNO) {
		pr_err("mxt_emul: nak_errno %d is not a positive errno\n", nak_errno);
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
		.irq = e->irq,
		.swnode = &emu_client_node,
	};

	info.addr = addr;
	if (reset_gpio) {
		e->lookup = kzalloc(struct_size(e->lookup, table, 2), GFP_KERNEL);
		if (!e->lookup)
			return -ENOMEM;
		/* i2c_dev_set_name(): "<adapter nr>-<addr, 4 hex digits>" */
		e->lookup->dev_id = kasprintf(GFP_KERNEL, "%d-%04x", e->adap.nr, addr);
		if (!e->lookup->dev_id)
			return -ENOMEM;
		e->lookup->table[0] = GPIO_LOOKUP_IDX(EMU_GPIO_LABEL, EMU_LINE_RESET,
						      "reset", 0, GPIO_ACTIVE_LOW);
		gpiod_add_lookup_table(e->lookup);
	}
	e->client = i2c_new_client_device(&e->adap, &info);
	if (IS_ERR(e->client)) {
		int r = PTR_ERR(e->client);

		e->client = NULL;
		return r;
	}
	return 0;
}

static void emu_teardown(struct mxt_emul *e)
{
	unsigned long flags;

	debugfs_remove_recursive(e->dir);
	if (e->client)
		i2c_unregister_device(e->client);
	if (e->lookup) {
		if (e->lookup->dev_id)
			gpiod_remove_lookup_table(e->lookup);
		kfree(e->lookup->dev_id);
		kfree(e->lookup);
	}
	if (e->adap_added)
		i2c_del_adapter(&e->adap);
	if (e->gc_added)
		gpiochip_remove(&e->gc);
	spin_lock_irqsave(&e->lock, flags);
	e->dying = true;
	spin_unlock_irqrestore(&e->lock, flags);
	hrtimer_cancel(&e->timer);
	if (e->irq)
		irq_dispose_mapping(e->irq);
	if (e->domain)
		irq_domain_remove(e->domain);
	if (e->irq_fwnode)
		irq_domain_free_fwnode(e->irq_fwnode);
	kfree(e);
}

static int __init mxt_emul_init(void)
{
	struct mxt_model_cfg cfg;
	struct mxt_emul *e;
	u64 now;
	int r;

	r = emu_chip_cfg(&cfg);
	if (r)
		return r;
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	spin_lock_init(&e->lock);
	hrtimer_init(&e->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	e->timer.function = emu_timer_fn;
	e->irq_type = IRQ_TYPE_EDGE_FALLING;

	now = ktime_get_ns();
	em_bus_init(&e->bus, bus_hz);
	mxt_model_init(&e->chip, &cfg, now);
	em_bus_add_chip(&e->bus, &mxt_model_ops, &e->chip);
	e->bus.now_ns = now;
	e->chg = mxt_model_ops.irq_asserted(&e->chip);
	e->reset_output = true;
	e->reset_high = true;
	e->powered = true;

	r = -ENOMEM;
	e->irq_fwnode = irq_domain_alloc_named_fwnode("mxt-emul-chg");
	if (!e->irq_fwnode)
		goto fail;
	e->domain = irq_domain_create_linear(e->irq_fwnode, 1, &emu_irq_ops, e);
	if (!e->domain)
		goto fail;
	e->irq = irq_create_mapping(e->domain, 0);
	if (!e->irq)
		goto fail;
	irq_set_irq_type(e->irq, IRQ_TYPE_EDGE_FALLING);

	e->gc.label = EMU_GPIO_LABEL;
	/*
	 * No owner: gpiolib pins the owner of a chip whose line is requested,
	 * and our own client's driver holds the reset line, so rmmod would
	 * never get to the exit that unbinds it.  User space must let go of
	 * the lines before rmmod.
	 */
	e->gc.owner = NULL;
	e->gc.base = -1;
	e->gc.ngpio = EMU_NLINES;
	e->gc.names = emu_line_names;
	e->gc.get_direction = emu_gpio_get_direction;
	e->gc.direction_input = emu_gpio_direction_input;
	e->gc.direction_output = emu_gpio_direction_output;
	e->gc.get = emu_gpio_get;
	e->gc.set = emu_gpio_set;
	e->gc.to_irq = emu_gpio_to_irq;
	e->gc.can_sleep = false;
	r = gpiochip_add_data(&e->gc, e);
	if (r)
		goto fail;
	e->gc_added = true;

	e->adap.owner = THIS_MODULE;
	e->adap.algo = &emu_algo;
	strscpy(e->adap.name, adapter_name, sizeof(e->adap.name));
	if (max_xfer_len) {
		e->quirks.max_read_len = min_t(uint, max_xfer_len, U16_MAX);
		e->quirks.max_write_len = min_t(uint, max_xfer_len, U16_MAX);
		e->adap.quirks = &e->quirks;
	}
	i2c_set_adapdata(&e->adap, e);
	r = i2c_add_adapter(&e->adap);
	if (r)
		goto fail;
	e->adap_added = true;

	emu_step(e, NULL, NULL); /* arm the timer */

	e->dir = debugfs_create_dir("mxt-emul", NULL);
	debugfs_create_file("state", 0444, e->dir, e, &emu_state_fops);
	debugfs_create_file("power", 0200, e->dir, e, &emu_power_fops);

	if (client) {
		r = emu_add_client(e);
		if (r)
			goto fail;
	}
	emu = e;
	pr_info("mxt_emul: %s at 0x%02x on i2c-%d (\"%s\"), state %s, firmware %s, CHG irq %u, gpiochip \"%s\"\n",
		preset, addr, e->adap.nr, e->adap.name, state, fw_version, e->irq,
		EMU_GPIO_LABEL);
	return 0;

fail:
	emu_teardown(e);
	return r;
}

static void __exit mxt_emul_exit(void)
{
	emu_teardown(emu);
	pr_info("mxt_emul: unloaded\n");
}

module_init(mxt_emul_init);
module_exit(mxt_emul_exit);

MODULE_DESCRIPTION("touchfw test: emulated maXTouch on a virtual i2c adapter");
MODULE_LICENSE("GPL");
