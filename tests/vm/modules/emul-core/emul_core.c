// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * emul_core: the adapter, GPIO chip, interrupt and model clock shared by
 * the emulated touch controller modules (see emul_core.h).  Model time is
 * CLOCK_MONOTONIC (ktime_get_ns()): a transfer first brings the model up
 * to now; an hrtimer fires at the model's next internal event.  The
 * interrupt is raised for the edges its user asked for and, when a level
 * trigger was asked for and the chip allows it, whenever the line sits at
 * the active level while the interrupt is unmasked (also when a threaded
 * handler's unmask finds it still there), as a level-sensitive controller
 * does.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/irqdomain.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/of_device.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/version.h>

#include "emul_core.h"

/* Sleep off modelled wire time only when it is worth a timer. */
#define EMUL_WIRE_SLEEP_MIN_NS (200 * NSEC_PER_USEC)

/* ------------------------------------------------------------ parameters */

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
MODULE_PARM_DESC(
	nak_errno,
	"errno for an address NAK (default ENXIO, as i2c fault-codes.rst says; DesignWare gives EREMOTEIO)");

int emul_core_check_params(const char *module)
{
	if (nak_errno <= 0 || nak_errno >= MAX_ERRNO) {
		pr_err("%s: nak_errno %d is not a positive errno\n", module, nak_errno);
		return -EINVAL;
	}
	if (!bus_hz) {
		pr_err("%s: bus_hz 0 is not a frequency\n", module);
		return -EINVAL;
	}
	return 0;
}

/* Interrupt-line levels seen during one model step, raised after the lock is dropped. */
struct emul_edges {
	unsigned int n;
	bool high[EMUL_MAX_EDGES];
	bool level_now; /* the line's level at the end of the step */
};

/* ------------------------------------------------------------ the chip's pins */

/* The defaults (emul_core.h): reset active low and pulled up, the
 * interrupt line the chip's output, active low. */
static void emul_default_line_changed(struct emul_core *c, unsigned int line, bool driven,
				      bool high)
{
	if (c->cfg->has_reset && line == c->cfg->reset_line && c->chip_ops &&
	    c->chip_ops->set_reset)
		c->chip_ops->set_reset(c->chip, driven && !high);
}

static bool emul_default_line_level(struct emul_core *c, unsigned int line)
{
	if (line == c->cfg->irq_line && c->chip_ops)
		return !c->chip_ops->irq_asserted(c->chip);
	return true;
}

static const struct emul_chip_ops emul_default_ops = {
	.line_changed = emul_default_line_changed,
	.line_level = emul_default_line_level,
};

static const struct emul_chip_ops *emul_ops(struct emul_core *c)
{
	return c->cfg->ops ? c->cfg->ops : &emul_default_ops;
}

/*
 * A chip answering only at one address: its own ops, called through these
 * (one chip per module: this file is compiled into each module).
 */
static const struct em_chip_ops *emul_filtered;
static u16 emul_filter_addr;
static struct em_chip_ops emul_filter_ops;

static int emul_filter_write(void *chip, u16 a, const u8 *buf, u16 len)
{
	return a == emul_filter_addr ? emul_filtered->write(chip, a, buf, len) : EM_NAK_ADDR;
}

static int emul_filter_read(void *chip, u16 a, u8 *buf, u16 len)
{
	return a == emul_filter_addr ? emul_filtered->read(chip, a, buf, len) : EM_NAK_ADDR;
}

int emul_core_add_chip(struct emul_core *c, const struct em_chip_ops *ops, void *chip,
		       u16 only_addr)
{
	c->chip_ops = ops;
	c->chip = chip;
	if (only_addr) {
		emul_filtered = ops;
		emul_filter_addr = only_addr;
		emul_filter_ops = *ops;
		emul_filter_ops.write = emul_filter_write;
		emul_filter_ops.read = emul_filter_read;
		ops = &emul_filter_ops;
	}
	return em_bus_add_chip(&c->bus, ops, chip);
}

bool emul_core_wire_locked(struct emul_core *c, unsigned int line)
{
	if (c->driven[line])
		return c->high[line];
	return emul_ops(c)->line_level(c, line);
}

static void emul_see_irq_locked(struct emul_core *c, struct emul_edges *ed)
{
	bool h = emul_core_wire_locked(c, c->cfg->irq_line);

	ed->level_now = h;
	if (h == c->irq_high)
		return;
	c->irq_high = h;
	if (ed->n < EMUL_MAX_EDGES)
		ed->high[ed->n++] = h;
	else
		atomic_inc(&c->edges_dropped);
}

/*
 * Bring the model up to @now one internal event at a time, so that an
 * interrupt pulse between two events is seen even when the timer comes late.
 */
static void emul_advance_locked(struct emul_core *c, u64 now, struct emul_edges *ed)
{
	unsigned int guard;

	for (guard = 0; guard < 10000; guard++) {
		u64 next = em_bus_next_event(&c->bus);

		if (next == EM_NEVER || next > now)
			break;
		if (next < c->bus.now_ns)
			next = c->bus.now_ns; /* overdue: run it now */
		em_bus_advance(&c->bus, next);
		emul_see_irq_locked(c, ed);
		if (em_bus_next_event(&c->bus) <= next)
			break; /* an event that does not retire: stop here */
	}
	em_bus_advance(&c->bus, now);
	emul_see_irq_locked(c, ed);
}

static void emul_arm_locked(struct emul_core *c)
{
	u64 next = em_bus_next_event(&c->bus);

	if (c->dying)
		return;
	if (next == EM_NEVER) {
		/* Never waits: the callback may be spinning on our lock. */
		hrtimer_try_to_cancel(&c->timer);
		return;
	}
	hrtimer_start(&c->timer, ns_to_ktime(next), HRTIMER_MODE_ABS);
}

/*
 * A masked interrupt is not delivered, as with a GPIO controller that
 * latches nothing while masked: one nobody requested, one requested with
 * IRQF_NO_AUTOEN and never enabled, one that a first edge after a lazy
 * disable_irq() masked, and a level interrupt while its threaded handler
 * runs.  Raising it anyway would leave IRQS_PENDING for enable_irq() to
 * replay later, an edge the chip never made at that time.
 */
static bool emul_irq_deliverable(struct emul_core *c)
{
	return irq_has_action(c->irq) && !irqd_irq_masked(irq_get_irq_data(c->irq));
}

/* Raise the interrupt for what its user wants; no lock held. */
static void emul_raise(struct emul_core *c, const struct emul_edges *ed)
{
	unsigned int type = READ_ONCE(c->irq_type);
	unsigned int i;

	if (c->cfg->smbus_host_notify) {
		/* the interrupt output asserted (low): one Host Notify */
		for (i = 0; i < ed->n; i++) {
			if (ed->high[i] || !c->client)
				continue;
			if (!i2c_handle_smbus_host_notify(&c->adap, c->client->addr))
				atomic_inc(&c->host_notifies);
		}
		return;
	}
	if (type & IRQ_TYPE_LEVEL_MASK) {
		bool active_high = type & IRQ_TYPE_LEVEL_HIGH;

		if (ed->level_now == active_high && emul_irq_deliverable(c)) {
			generic_handle_irq_safe(c->irq);
			atomic_inc(&c->irqs_raised);
		}
		return;
	}
	for (i = 0; i < ed->n; i++) {
		unsigned int edge = ed->high[i] ? IRQ_TYPE_EDGE_RISING : IRQ_TYPE_EDGE_FALLING;

		if (!(type & edge) || !emul_irq_deliverable(c))
			continue;
		generic_handle_irq_safe(c->irq);
		atomic_inc(&c->irqs_raised);
	}
}

void emul_core_step(struct emul_core *c, void (*fn)(struct emul_core *c, void *arg), void *arg)
{
	struct emul_edges ed = { 0 };
	unsigned long flags;

	spin_lock_irqsave(&c->lock, flags);
	ed.level_now = c->irq_high;
	if (!c->dying) {
		emul_advance_locked(c, ktime_get_ns(), &ed);
		if (fn) {
			fn(c, arg);
			emul_see_irq_locked(c, &ed);
		}
		emul_arm_locked(c);
	}
	spin_unlock_irqrestore(&c->lock, flags);
	emul_raise(c, &ed);
}

static enum hrtimer_restart emul_timer_fn(struct hrtimer *t)
{
	emul_core_step(container_of(t, struct emul_core, timer), NULL, NULL);
	return HRTIMER_NORESTART; /* emul_arm_locked() started it again */
}

/* A level interrupt unmasked while its line is still active fires again. */
static void emul_level_work(struct irq_work *w)
{
	emul_core_step(container_of(w, struct emul_core, level_work), NULL, NULL);
}

/* ------------------------------------------------------------ i2c adapter */

static int emul_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs, int num)
{
	struct emul_core *c = i2c_get_adapdata(adap);
	struct em_msg stack[4], *em = stack;
	struct emul_edges ed = { 0 };
	unsigned long flags;
	u64 ahead = 0, now;
	int i, r;

	if (num > ARRAY_SIZE(stack)) {
		em = kmalloc_array(num, sizeof(*em), GFP_KERNEL);
		if (!em)
			return -ENOMEM;
	}
	for (i = 0; i < num; i++) {
		u16 ok = I2C_M_RD | I2C_M_DMA_SAFE;

		/* A plain controller: no 10-bit, no protocol mangling; an
		 * SMBus one also reads block lengths (I2C_M_RECV_LEN: the
		 * count byte, then that many, read here as the whole block
		 * the buffer of i2c_smbus_xfer_emulated holds). */
		if (c->cfg->smbus_host_notify || c->cfg->smbus_only)
			ok |= I2C_M_RECV_LEN;
		if ((msgs[i].flags & ~ok) ||
		    ((msgs[i].flags & I2C_M_RECV_LEN) && !(msgs[i].flags & I2C_M_RD))) {
			r = -EOPNOTSUPP;
			goto out;
		}
		em[i].addr = msgs[i].addr;
		em[i].flags = (msgs[i].flags & I2C_M_RD) ? EM_MSG_RD : 0;
		em[i].len = (msgs[i].flags & I2C_M_RECV_LEN) ? I2C_SMBUS_BLOCK_MAX + 1
							     : msgs[i].len;
		em[i].buf = msgs[i].buf;
	}

	spin_lock_irqsave(&c->lock, flags);
	ed.level_now = c->irq_high;
	now = ktime_get_ns();
	emul_advance_locked(c, now, &ed);
	r = em_bus_transfer(&c->bus, em, num);
	emul_see_irq_locked(c, &ed);
	emul_arm_locked(c);
	if (c->bus.now_ns > now)
		ahead = c->bus.now_ns - now;
	spin_unlock_irqrestore(&c->lock, flags);
	emul_raise(c, &ed);

	/* The model ran the transfer at wire speed; let real time catch up. */
	if (wire_time && ahead >= EMUL_WIRE_SLEEP_MIN_NS)
		fsleep(div_u64(ahead, NSEC_PER_USEC));

	for (i = 0; r == num && i < num; i++) {
		if (!(msgs[i].flags & I2C_M_RECV_LEN))
			continue;
		if (!msgs[i].buf[0] || msgs[i].buf[0] > I2C_SMBUS_BLOCK_MAX)
			r = -EPROTO;
		else
			msgs[i].len = 1 + msgs[i].buf[0];
	}
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

/*
 * An SMBus-only controller's smbus_xfer (cfg->smbus_only): the protocol's
 * messages as i2c_smbus_xfer_emulated lays them out (no PEC: not
 * offered), run on the bus by emul_xfer.
 */
static int emul_smbus_xfer(struct i2c_adapter *adap, u16 addr, unsigned short flags,
			   char read_write, u8 command, int size, union i2c_smbus_data *data)
{
	u8 b0[I2C_SMBUS_BLOCK_MAX + 3], b1[I2C_SMBUS_BLOCK_MAX + 2];
	bool rd = read_write == I2C_SMBUS_READ;
	struct i2c_msg m[2] = {
		{ .addr = addr, .flags = 0, .len = 1, .buf = b0 },
		{ .addr = addr, .flags = I2C_M_RD, .len = 0, .buf = b1 },
	};
	int n = rd ? 2 : 1, r;

	if (flags & I2C_M_TEN)
		return -EOPNOTSUPP;
	b0[0] = command;
	switch (size) {
	case I2C_SMBUS_QUICK:
		m[0].len = 0;
		m[0].flags = rd ? I2C_M_RD : 0;
		n = 1;
		break;
	case I2C_SMBUS_BYTE:
		if (rd) {
			m[0].flags = I2C_M_RD;
			n = 1;
		}
		break;
	case I2C_SMBUS_BYTE_DATA:
		if (rd) {
			m[1].len = 1;
		} else {
			m[0].len = 2;
			b0[1] = data->byte;
		}
		break;
	case I2C_SMBUS_WORD_DATA:
		if (rd) {
			m[1].len = 2;
		} else {
			m[0].len = 3;
			b0[1] = data->word & 0xff;
			b0[2] = data->word >> 8;
		}
		break;
	case I2C_SMBUS_BLOCK_DATA:
		if (rd) {
			m[1].flags |= I2C_M_RECV_LEN;
			m[1].len = 1;
		} else {
			if (!data->block[0] || data->block[0] > I2C_SMBUS_BLOCK_MAX)
				return -EINVAL;
			m[0].len = data->block[0] + 2;
			memcpy(b0 + 1, data->block, data->block[0] + 1);
		}
		break;
	case I2C_SMBUS_I2C_BLOCK_DATA:
		if (!data->block[0] || data->block[0] > I2C_SMBUS_BLOCK_MAX)
			return -EINVAL;
		if (rd) {
			m[1].len = data->block[0];
		} else {
			m[0].len = data->block[0] + 1;
			memcpy(b0 + 1, data->block + 1, data->block[0]);
		}
		break;
	default:
		return -EOPNOTSUPP;
	}
	r = emul_xfer(adap, m, n);
	if (r < 0)
		return r;
	if (r != n)
		return -EIO;
	if (!rd)
		return 0;
	switch (size) {
	case I2C_SMBUS_BYTE:
		data->byte = b0[0];
		break;
	case I2C_SMBUS_BYTE_DATA:
		data->byte = b1[0];
		break;
	case I2C_SMBUS_WORD_DATA:
		data->word = b1[0] | (b1[1] << 8);
		break;
	case I2C_SMBUS_BLOCK_DATA:
		memcpy(data->block, b1, b1[0] + 1);
		break;
	case I2C_SMBUS_I2C_BLOCK_DATA:
		memcpy(data->block + 1, b1, data->block[0]);
		break;
	}
	return 0;
}

static u32 emul_functionality(struct i2c_adapter *adap)
{
	struct emul_core *c = i2c_get_adapdata(adap);

	if (c->cfg->smbus_only)
		return I2C_FUNC_SMBUS_QUICK | I2C_FUNC_SMBUS_BYTE | I2C_FUNC_SMBUS_BYTE_DATA |
		       I2C_FUNC_SMBUS_WORD_DATA | I2C_FUNC_SMBUS_BLOCK_DATA |
		       I2C_FUNC_SMBUS_I2C_BLOCK |
		       (c->cfg->smbus_host_notify ? I2C_FUNC_SMBUS_HOST_NOTIFY : 0);
	if (c->cfg->smbus_host_notify)
		return I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL | I2C_FUNC_SMBUS_READ_BLOCK_DATA |
		       I2C_FUNC_SMBUS_HOST_NOTIFY;
	return I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL;
}

static const struct i2c_algorithm emul_algo = {
	.master_xfer = emul_xfer,
	.functionality = emul_functionality,
};

static const struct i2c_algorithm emul_smbus_algo = {
	.smbus_xfer = emul_smbus_xfer,
	.functionality = emul_functionality,
};

/* ------------------------------------------------------------ GPIO chip */

struct emul_drive {
	unsigned int line;
	bool driven, high;
};

static void emul_apply_drive(struct emul_core *c, void *arg)
{
	const struct emul_drive *d = arg;

	c->driven[d->line] = d->driven;
	c->high[d->line] = d->high;
	emul_ops(c)->line_changed(c, d->line, d->driven, d->high);
}

static int emul_gpio_get_direction(struct gpio_chip *gc, unsigned int off)
{
	struct emul_core *c = gpiochip_get_data(gc);

	return READ_ONCE(c->driven[off]) ? GPIO_LINE_DIRECTION_OUT : GPIO_LINE_DIRECTION_IN;
}

static int emul_gpio_direction_input(struct gpio_chip *gc, unsigned int off)
{
	struct emul_core *c = gpiochip_get_data(gc);
	struct emul_drive d = { off, false, READ_ONCE(c->high[off]) };

	emul_core_step(c, emul_apply_drive, &d);
	return 0;
}

static int emul_gpio_direction_output(struct gpio_chip *gc, unsigned int off, int value)
{
	struct emul_core *c = gpiochip_get_data(gc);
	struct emul_drive d = { off, true, !!value };

	/* An output of the chip only: driving it would fight the chip. */
	if (!c->cfg->lines[off].output_ok)
		return -EPERM;
	emul_core_step(c, emul_apply_drive, &d);
	return 0;
}

struct emul_read {
	unsigned int line;
	bool high;
};

static void emul_read_line(struct emul_core *c, void *arg)
{
	struct emul_read *r = arg;

	r->high = emul_core_wire_locked(c, r->line);
}

static int emul_gpio_get(struct gpio_chip *gc, unsigned int off)
{
	struct emul_core *c = gpiochip_get_data(gc);
	struct emul_read r = { off, false };

	emul_core_step(c, emul_read_line, &r);
	return r.high;
}

static void emul_gpio_set(struct gpio_chip *gc, unsigned int off, int value)
{
	struct emul_core *c = gpiochip_get_data(gc);
	struct emul_drive d = { off, true, !!value };

	if (!READ_ONCE(c->driven[off]))
		return;
	emul_core_step(c, emul_apply_drive, &d);
}

static int emul_gpio_to_irq(struct gpio_chip *gc, unsigned int off)
{
	struct emul_core *c = gpiochip_get_data(gc);

	return off == c->cfg->irq_line ? c->irq : -ENXIO;
}

/* ------------------------------------------------------------ interrupt */

static void emul_irq_noop(struct irq_data *d)
{
}

/* Unmasked with the line still at its active level: fire again. */
static void emul_irq_unmask(struct irq_data *d)
{
	struct emul_core *c = irq_data_get_irq_chip_data(d);

	if (READ_ONCE(c->irq_type) & IRQ_TYPE_LEVEL_MASK)
		irq_work_queue(&c->level_work);
}

/*
 * Record the trigger the user asked for.  dummy_irq_chip has no
 * irq_set_type, so the kernel would forget it and the source could not
 * tell a driver that wants one edge from a libgpiod user watching both.
 * Level triggers only where the chip glue allows them (the line then
 * re-fires on unmask while still active, handle_level_irq masks it while
 * the handler runs).
 */
static int emul_irq_set_type(struct irq_data *d, unsigned int type)
{
	struct emul_core *c = irq_data_get_irq_chip_data(d);

	if (type == IRQ_TYPE_NONE)
		type = c->cfg->default_trigger;
	if (type & IRQ_TYPE_LEVEL_MASK) {
		if (!c->cfg->level_ok || (type & IRQ_TYPE_LEVEL_MASK) == IRQ_TYPE_LEVEL_MASK)
			return -EINVAL;
		type &= IRQ_TYPE_LEVEL_MASK;
		irq_set_handler_locked(d, handle_level_irq);
	} else {
		type &= IRQ_TYPE_EDGE_BOTH;
		irq_set_handler_locked(d, handle_edge_irq);
	}
	WRITE_ONCE(c->irq_type, type);
	return IRQ_SET_MASK_OK;
}

/*
 * The last user freed the interrupt: the next one gets the trigger the
 * board describes (what a DT or ACPI mapping applies again at every probe),
 * so a libgpiod user's "both edges" does not stay behind for a driver
 * that asks for no trigger of its own.  A request without a trigger then
 * sets this one again (and the flow handler with it).
 */
static void emul_irq_release_resources(struct irq_data *d)
{
	struct emul_core *c = irq_data_get_irq_chip_data(d);

	WRITE_ONCE(c->irq_type, c->cfg->default_trigger);
	irqd_set_trigger_type(d, c->cfg->default_trigger);
}

/* ------------------------------------------------------------ debugfs */

static void emul_apply_power(struct emul_core *c, void *arg)
{
	bool on = *(bool *)arg;
	unsigned int i;

	c->powered = on;
	for (i = 0; i < c->bus.nchips; i++)
		if (c->bus.chips[i].ops->set_power)
			c->bus.chips[i].ops->set_power(c->bus.chips[i].priv, on);
}

/* Write 0 or 1: switch the chips' supply (a board's power switch). */
static ssize_t emul_power_write(struct file *f, const char __user *ubuf, size_t len,
				loff_t *pos)
{
	struct emul_core *c = file_inode(f)->i_private;
	bool on;
	int r;

	r = kstrtobool_from_user(ubuf, len, &on);
	if (r)
		return r;
	emul_core_step(c, emul_apply_power, &on);
	return len;
}

static const struct file_operations emul_power_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = emul_power_write,
	.llseek = noop_llseek,
};

void emul_core_debugfs_power(struct emul_core *c, struct dentry *dir)
{
	debugfs_create_file("power", 0200, dir, c, &emul_power_fops);
}

void emul_core_show_counters(struct seq_file *sf, struct emul_core *c,
			     const struct em_bus_counters *count)
{
	seq_printf(sf, "transactions=%llu\nmessages=%llu\nbytes_written=%llu\n",
		   count->transactions, count->messages, count->bytes_written);
	seq_printf(sf, "bytes_read=%llu\nnaks=%llu\nbus_us=%llu\n", count->bytes_read,
		   count->naks, div_u64(count->bus_ns, NSEC_PER_USEC));
	seq_printf(sf, "irqs_raised=%d\nedges_dropped=%d\nirq=%u\nirq_trigger=%s\n",
		   atomic_read(&c->irqs_raised), atomic_read(&c->edges_dropped), c->irq,
		   emul_core_trigger_name(c));
	if (c->cfg->smbus_host_notify)
		seq_printf(sf, "host_notifies=%d\n", atomic_read(&c->host_notifies));
}

const char *emul_core_trigger_name(struct emul_core *c)
{
	switch (READ_ONCE(c->irq_type)) {
	case IRQ_TYPE_EDGE_RISING:
		return "rising";
	case IRQ_TYPE_EDGE_FALLING:
		return "falling";
	case IRQ_TYPE_EDGE_BOTH:
		return "both";
	case IRQ_TYPE_LEVEL_HIGH:
		return "high";
	case IRQ_TYPE_LEVEL_LOW:
		return "low";
	}
	return "?";
}

static int emul_irq_map(struct irq_domain *d, unsigned int virq, irq_hw_number_t hw)
{
	struct emul_core *c = d->host_data;

	irq_set_chip_data(virq, c);
	irq_set_chip_and_handler(virq, &c->irq_chip, handle_edge_irq);
	return 0;
}

static const struct irq_domain_ops emul_irq_ops = {
	.map = emul_irq_map,
	.xlate = irq_domain_xlate_twocell,
};

/* ------------------------------------------------------------ device tree */

/* The two platform devices of DT mode (emul_core.h), NULL before they bind. */
static struct {
	struct mutex lock; /* the fields below; probe and remove */
	struct platform_device *gpio, *i2c;
	int (*load)(void);
	void (*unload)(void);
	bool loaded;
	int load_error;
	bool registered;
} emul_dt = { .lock = __MUTEX_INITIALIZER(emul_dt.lock) };

#define EMUL_DT_GPIO ((void *)1)
#define EMUL_DT_I2C ((void *)2)

static const struct of_device_id emul_dt_ids[] = {
	{ .compatible = "touchfw," KBUILD_MODNAME "-gpio", .data = EMUL_DT_GPIO },
	{ .compatible = "touchfw," KBUILD_MODNAME "-i2c", .data = EMUL_DT_I2C },
	{}
};
MODULE_DEVICE_TABLE(of, emul_dt_ids);

bool emul_dt_active(void)
{
	return emul_dt.registered;
}

static int emul_dt_probe(struct platform_device *pdev)
{
	const void *kind = of_device_get_match_data(&pdev->dev);
	int r = 0;

	mutex_lock(&emul_dt.lock);
	if (kind == EMUL_DT_GPIO) {
		if (!of_property_read_bool(pdev->dev.of_node, "gpio-controller") ||
		    !of_property_read_bool(pdev->dev.of_node, "interrupt-controller")) {
			dev_err(&pdev->dev,
				"%pOF: needs gpio-controller and interrupt-controller\n",
				pdev->dev.of_node);
			r = -EINVAL;
			goto out;
		}
		emul_dt.gpio = pdev;
	} else {
		emul_dt.i2c = pdev;
	}
	if (emul_dt.gpio && emul_dt.i2c && !emul_dt.loaded) {
		r = emul_dt.load();
		emul_dt.load_error = r;
		if (r) {
			dev_err(&pdev->dev, "loading the emulated chip failed: %d\n", r);
			if (kind == EMUL_DT_GPIO)
				emul_dt.gpio = NULL;
			else
				emul_dt.i2c = NULL;
		} else {
			emul_dt.loaded = true;
			dev_info(&pdev->dev, "GPIO chip %pOF, i2c adapter %pOF\n",
				 emul_dt.gpio->dev.of_node, emul_dt.i2c->dev.of_node);
		}
	}
out:
	mutex_unlock(&emul_dt.lock);
	return r;
}

/* 6.11 made a platform driver's remove return void. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define EMUL_DT_REMOVE_RET void
#define EMUL_DT_REMOVE_OK
#else
#define EMUL_DT_REMOVE_RET int
#define EMUL_DT_REMOVE_OK 0
#endif

static EMUL_DT_REMOVE_RET emul_dt_remove(struct platform_device *pdev)
{
	mutex_lock(&emul_dt.lock);
	if (emul_dt.loaded) {
		emul_dt.unload();
		emul_dt.loaded = false;
	}
	if (pdev == emul_dt.gpio)
		emul_dt.gpio = NULL;
	if (pdev == emul_dt.i2c)
		emul_dt.i2c = NULL;
	mutex_unlock(&emul_dt.lock);
	return EMUL_DT_REMOVE_OK;
}

static struct platform_driver emul_dt_driver = {
	.probe = emul_dt_probe,
	.remove = emul_dt_remove,
	.driver = {
		.name = KBUILD_MODNAME "-dt",
		.of_match_table = emul_dt_ids,
	},
};

int emul_dt_init(int (*load)(void), void (*unload)(void))
{
	struct device_node *np = of_find_compatible_node(NULL, NULL, emul_dt_ids[0].compatible);
	int r;

	if (!np)
		return 0;
	of_node_put(np);
	emul_dt.load = load;
	emul_dt.unload = unload;
	emul_dt.load_error = -ENODEV;
	emul_dt.registered = true;
	r = platform_driver_register(&emul_dt_driver);
	if (r) {
		emul_dt.registered = false;
		return r;
	}
	/* The devices exist (the OF code made them at boot): bound by now. */
	if (!emul_dt.loaded) {
		r = emul_dt.load_error;
		pr_err("%s: the device tree has %s, but the chip did not load (%d): needs a node compatible with %s too\n",
		       KBUILD_MODNAME, emul_dt_ids[0].compatible, r, emul_dt_ids[1].compatible);
		platform_driver_unregister(&emul_dt_driver);
		emul_dt.registered = false;
		return r ? r : -ENODEV;
	}
	return 1;
}

void emul_dt_exit(void)
{
	if (emul_dt.registered)
		platform_driver_unregister(&emul_dt_driver);
	emul_dt.registered = false;
}

/* ------------------------------------------------------------ setup */

void emul_core_init(struct emul_core *c, const struct emul_core_cfg *cfg, void *glue)
{
	unsigned int i;

	c->cfg = cfg;
	c->glue = glue;
	spin_lock_init(&c->lock);
	hrtimer_init(&c->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	c->timer.function = emul_timer_fn;
	init_irq_work(&c->level_work, emul_level_work);
	c->irq_type = cfg->default_trigger;
	for (i = 0; i < cfg->nlines && i < EMUL_MAX_LINES; i++) {
		c->driven[i] = cfg->lines[i].init_driven;
		c->high[i] = cfg->lines[i].init_high;
		c->line_names[i] = cfg->lines[i].name;
	}
	c->powered = true;
	em_bus_init(&c->bus, bus_hz);
	c->bus.now_ns = ktime_get_ns();
}

int emul_core_start(struct emul_core *c)
{
	const struct emul_core_cfg *cfg = c->cfg;
	unsigned long flags;
	int r;

	if (cfg->nlines > EMUL_MAX_LINES || cfg->irq_line >= cfg->nlines)
		return -EINVAL;
	spin_lock_irqsave(&c->lock, flags);
	c->irq_high = emul_core_wire_locked(c, cfg->irq_line);
	spin_unlock_irqrestore(&c->lock, flags);

	c->irq_chip.name = cfg->irq_name;
	c->irq_chip.irq_ack = emul_irq_noop;
	c->irq_chip.irq_mask = emul_irq_noop;
	c->irq_chip.irq_unmask = emul_irq_unmask;
	c->irq_chip.irq_set_type = emul_irq_set_type;
	c->irq_chip.irq_release_resources = emul_irq_release_resources;
	c->irq_chip.flags = IRQCHIP_SKIP_SET_WAKE;

	r = -ENOMEM;
	if (emul_dt.gpio) {
		/*
		 * DT mode: the domain is the GPIO chip node's, the interrupt
		 * parent the clients' nodes name; hwirq = the line number.
		 */
		c->domain =
			irq_domain_create_linear(of_fwnode_handle(emul_dt.gpio->dev.of_node),
						 cfg->nlines, &emul_irq_ops, c);
		if (!c->domain)
			return r;
		c->irq = irq_create_mapping(c->domain, cfg->irq_line);
	} else {
		c->irq_fwnode = irq_domain_alloc_named_fwnode(cfg->irq_name);
		if (!c->irq_fwnode)
			return r;
		c->domain = irq_domain_create_linear(c->irq_fwnode, 1, &emul_irq_ops, c);
		if (!c->domain)
			return r;
		c->irq = irq_create_mapping(c->domain, 0);
	}
	if (!c->irq)
		return r;
	irq_set_irq_type(c->irq, cfg->default_trigger);

	c->gc.label = cfg->gpio_label;
	/*
	 * No owner: gpiolib pins the owner of a chip whose line is requested,
	 * and our own client's driver holds lines, so rmmod would never get
	 * to the exit that unbinds it.  User space must let go of the lines
	 * before rmmod.
	 */
	c->gc.owner = NULL;
	c->gc.base = -1;
	c->gc.ngpio = cfg->nlines;
	c->gc.names = c->line_names;
	c->gc.get_direction = emul_gpio_get_direction;
	c->gc.direction_input = emul_gpio_direction_input;
	c->gc.direction_output = emul_gpio_direction_output;
	c->gc.get = emul_gpio_get;
	c->gc.set = emul_gpio_set;
	c->gc.to_irq = emul_gpio_to_irq;
	c->gc.can_sleep = false;
	/* DT mode: the chip is its platform device's node (gpiolib takes the
	 * parent's fwnode), which the clients' *-gpios properties name. */
	if (emul_dt.gpio)
		c->gc.parent = &emul_dt.gpio->dev;
	r = gpiochip_add_data(&c->gc, c);
	if (r)
		return r;
	c->gc_added = true;

	c->adap.owner = THIS_MODULE;
	c->adap.algo = c->cfg->smbus_only ? &emul_smbus_algo : &emul_algo;
	strscpy(c->adap.name, adapter_name, sizeof(c->adap.name));
	if (max_xfer_len) {
		c->quirks.max_read_len = min_t(uint, max_xfer_len, U16_MAX);
		c->quirks.max_write_len = min_t(uint, max_xfer_len, U16_MAX);
		c->adap.quirks = &c->quirks;
	}
	i2c_set_adapdata(&c->adap, c);
	/* DT mode: i2c-core-of makes a client of each child node. */
	if (emul_dt.i2c) {
		c->adap.dev.parent = &emul_dt.i2c->dev;
		c->adap.dev.of_node = emul_dt.i2c->dev.of_node;
	}
	/*
	 * Host Notify: 6.1's i2c_setup_host_notify_irq_domain() reads
	 * adap->dev.parent->fwnode (later kernels adap->dev.fwnode), so the
	 * adapter needs a parent: a platform device of its own, as an SMBus
	 * controller has its PCI device.
	 */
	if (cfg->smbus_host_notify && !c->adap.dev.parent) {
		c->smbus_parent = platform_device_register_simple("touchfw-emul-smbus",
								  PLATFORM_DEVID_AUTO, NULL, 0);
		if (IS_ERR(c->smbus_parent)) {
			r = PTR_ERR(c->smbus_parent);
			c->smbus_parent = NULL;
			return r;
		}
		c->adap.dev.parent = &c->smbus_parent->dev;
	}
	r = i2c_add_adapter(&c->adap);
	if (r)
		return r;
	c->adap_added = true;

	emul_core_step(c, NULL, NULL); /* arm the timer */
	return 0;
}

int emul_core_add_client(struct emul_core *c, struct i2c_board_info *info,
			 const struct gpiod_lookup *lines, unsigned int n)
{
	unsigned int i;

	/* Host Notify: i2c-core maps the client's irq from the adapter's
	 * domain at probe (I2C_CLIENT_HOST_NOTIFY, client->irq 0). */
	info->irq = c->cfg->smbus_host_notify ? 0 : c->irq;
	if (n) {
		/* n entries and the empty one that ends the table */
		c->lookup = kzalloc(struct_size(c->lookup, table, n + 1), GFP_KERNEL);
		if (!c->lookup)
			return -ENOMEM;
		/* i2c_dev_set_name(): "<adapter nr>-<addr, 4 hex digits>" */
		c->lookup->dev_id = kasprintf(GFP_KERNEL, "%d-%04x", c->adap.nr, info->addr);
		if (!c->lookup->dev_id)
			return -ENOMEM;
		for (i = 0; i < n; i++) {
			c->lookup->table[i] = lines[i];
			c->lookup->table[i].key = c->cfg->gpio_label;
		}
		gpiod_add_lookup_table(c->lookup);
	}
	c->client = i2c_new_client_device(&c->adap, info);
	if (IS_ERR(c->client)) {
		int r = PTR_ERR(c->client);

		c->client = NULL;
		return r;
	}
	return 0;
}

void emul_core_teardown(struct emul_core *c)
{
	unsigned long flags;

	if (c->client)
		i2c_unregister_device(c->client);
	c->client = NULL;
	if (c->lookup) {
		if (c->lookup->dev_id)
			gpiod_remove_lookup_table(c->lookup);
		kfree(c->lookup->dev_id);
		kfree(c->lookup);
		c->lookup = NULL;
	}
	if (c->adap_added)
		i2c_del_adapter(&c->adap);
	c->adap_added = false;
	if (c->smbus_parent)
		platform_device_unregister(c->smbus_parent);
	c->smbus_parent = NULL;
	if (c->gc_added)
		gpiochip_remove(&c->gc);
	c->gc_added = false;
	spin_lock_irqsave(&c->lock, flags);
	c->dying = true;
	spin_unlock_irqrestore(&c->lock, flags);
	hrtimer_cancel(&c->timer);
	irq_work_sync(&c->level_work);
	if (c->irq)
		irq_dispose_mapping(c->irq);
	c->irq = 0;
	if (c->domain)
		irq_domain_remove(c->domain);
	c->domain = NULL;
	if (c->irq_fwnode)
		irq_domain_free_fwnode(c->irq_fwnode);
	c->irq_fwnode = NULL;
}

/* ------------------------------------------------------------ the module */

/* One emulated controller per module: its state, for the exit. */
static struct emul_core *emul_this;

struct emul_state_snap {
	struct em_bus_counters count;
	bool int_high;
	u8 mod[]; /* the module's snapshot */
};

static void emul_state_snap(struct emul_core *c, void *arg)
{
	struct emul_state_snap *s = arg;

	s->count = c->bus.count;
	s->int_high = emul_core_wire_locked(c, c->cfg->irq_line);
	if (c->mod->snap)
		c->mod->snap(c, s->mod);
}

/* key=value lines, for scenarios to pick with sed. */
static int emul_state_show(struct seq_file *sf, void *unused)
{
	struct emul_core *c = sf->private;
	struct emul_state_snap *s;

	s = kzalloc(sizeof(*s) + c->mod->snap_size, GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	emul_core_step(c, emul_state_snap, s);
	if (c->mod->show)
		c->mod->show(sf, c, s->mod);
	seq_printf(sf, "int_high=%d\npowered=%d\n", s->int_high, READ_ONCE(c->powered));
	emul_core_show_counters(sf, c, &s->count);
	kfree(s);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(emul_state);

static void emul_module_free(const struct emul_module *m, struct emul_core *c)
{
	debugfs_remove_recursive(c->dir);
	emul_core_teardown(c);
	if (m->release)
		m->release(c);
	kvfree(c);
}

static const struct emul_module *emul_dt_module;

static int emul_dt_load(void)
{
	return emul_module_load(emul_dt_module);
}

static void emul_dt_unload(void)
{
	emul_module_free(emul_dt_module, emul_this);
	emul_this = NULL;
}

/* module_init of an EMUL_MODULE: DT mode when the device tree asks for it. */
int emul_module_init(const struct emul_module *m)
{
	int r;

	emul_dt_module = m;
	r = emul_dt_init(emul_dt_load, emul_dt_unload);
	if (r)
		return r < 0 ? r : 0;
	return emul_module_load(m);
}

void emul_module_exit(const struct emul_module *m)
{
	if (emul_dt_active()) {
		emul_dt_exit();
		pr_info("%s: unloaded\n", m->name);
		return;
	}
	emul_module_unload(m);
}

int emul_module_load(const struct emul_module *m)
{
	struct emul_core *c;
	int r;

	r = emul_core_check_params(m->name);
	if (r)
		return r;
	c = kvzalloc(m->size, GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->mod = m;
	emul_core_init(c, m->core, c);
	r = m->setup(c);
	if (!r)
		r = emul_core_start(c);
	if (r)
		goto fail;
	c->dir = debugfs_create_dir(m->debugfs, NULL);
	debugfs_create_file("state", 0444, c->dir, c, &emul_state_fops);
	emul_core_debugfs_power(c, c->dir);
	if (m->files)
		m->files(c, c->dir);
	if (m->add_client && !emul_dt_active()) {
		r = m->add_client(c);
		if (r)
			goto fail;
	}
	emul_this = c;
	if (m->loaded)
		m->loaded(c);
	return 0;

fail:
	emul_module_free(m, c);
	return r;
}

void emul_module_unload(const struct emul_module *m)
{
	emul_module_free(m, emul_this);
	pr_info("%s: unloaded\n", m->name);
}

int emul_parse_touches(const char __user *ubuf, size_t len, unsigned int nf,
		       const unsigned int *lim, unsigned int (*vals)[4], unsigned int max,
		       const char *form)
{
	char *buf, *line, *cur;
	unsigned int n = 0, i;
	int r = 0;

	if (len > 1024 || nf > 4)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	cur = buf;
	while ((line = strsep(&cur, "\n")) != NULL) {
		unsigned int v[4] = { 0 };
		bool ok;

		line = strim(line);
		if (!*line || !strcmp(line, "up"))
			continue;
		ok = n < max && sscanf(line, "%u %u %u %u", &v[0], &v[1], &v[2], &v[3]) == nf;
		for (i = 0; ok && i < nf; i++)
			ok = v[i] <= lim[i];
		if (!ok) {
			pr_err("%s: touch: \"%s\" is not \"%s\" (at most %u points)\n",
			       emul_this ? emul_this->mod->name : "emul", line, form, max);
			r = -EINVAL;
			break;
		}
		memcpy(vals[n++], v, sizeof(v));
	}
	kfree(buf);
	return r ? r : (int)n;
}
