/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * emul_core: the kernel-side plumbing every emulated touch controller
 * module of the VM tests shares (modules/NAME-emul): an i2c adapter
 * whose transfers a chip model serves through em_bus, a GPIO chip whose
 * lines are the chip's pins (each one an input the host may or may not
 * drive, one of them also an interrupt), a one-interrupt irq domain raised
 * on the edges or levels its user asked for, the model's clock (an hrtimer
 * at the model's next internal event), and the client with its GPIO lookup
 * table.  What a pin means to the chip is the chip glue's business
 * (struct emul_chip_ops); the modules compile this file in through a
 * wrapper that only #includes it (build-module passes TOUCHFW_TOP).
 *
 * Locking: i2c-core serialises master_xfer.  The model, the bus and the
 * line states are guarded by a spinlock taken with interrupts off, because
 * the hrtimer callback (hard interrupt context) advances the model too.
 * Interrupt edges seen under it are collected and raised only after it is
 * dropped, so handlers never run under it.
 */
#ifndef EMUL_CORE_H
#define EMUL_CORE_H

#include <linux/gpio/driver.h>
#include <linux/gpio/machine.h>
#include <linux/hrtimer.h>
#include <linux/i2c.h>
#include <linux/irq.h>
#include <linux/irq_work.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>

#include "em_bus.h"

#define EMUL_MAX_LINES 4
/* More interrupt-line edges than this in one model step are counted and dropped. */
#define EMUL_MAX_EDGES 16

struct emul_core;
struct emul_module;
struct dentry;

/* One pin of the chip as a GPIO line. */
struct emul_line_desc {
	const char *name;
	bool output_ok;	  /* the host may drive it (else direction_output is -EPERM) */
	bool init_driven; /* state at load: driven by the host, at init_high */
	bool init_high;
};

/* What the chip glue tells the core; both called with the lock held.
 * Without them (cfg->ops NULL) the defaults: the reset line (has_reset)
 * is the chip's reset input, active low, pulled up when undriven; the
 * interrupt line is the chip's interrupt output, low while asserted; any
 * other line reads high. */
struct emul_chip_ops {
	/* The host now drives @line at @high (@driven), or lets go of it. */
	void (*line_changed)(struct emul_core *c, unsigned int line, bool driven, bool high);
	/* The level the chip (or the board's pull) puts on an undriven @line. */
	bool (*line_level)(struct emul_core *c, unsigned int line);
};

struct emul_core_cfg {
	const char *gpio_label;
	const char *irq_name; /* irq domain and irq chip name */
	const struct emul_line_desc *lines;
	unsigned int nlines;
	unsigned int irq_line;		 /* the line whose .to_irq is the interrupt */
	unsigned int default_trigger;	 /* an edge: what the board describes */
	bool level_ok;			 /* level triggers may be requested */
	const struct emul_chip_ops *ops; /* NULL: the defaults above */
	bool has_reset;
	unsigned int reset_line;
	/*
	 * An SMBus controller with Host Notify (I2C_FUNC_SMBUS_HOST_NOTIFY,
	 * as i2c-i801): block-length reads (I2C_M_RECV_LEN) too, the client
	 * gets its interrupt from the adapter's Host Notify domain (the
	 * module's board info sets I2C_CLIENT_HOST_NOTIFY; no irq of ours),
	 * and each assertion of the chip's interrupt output is one Host
	 * Notify from the client's address (i2c_handle_smbus_host_notify).
	 */
	bool smbus_host_notify;
	/*
	 * With smbus_host_notify: an SMBus controller only, as i2c-i801 is
	 * (no master_xfer, so no I2C_FUNC_I2C and no I2C_RDWR): smbus_xfer
	 * runs quick, byte, byte data, word data, block data (both ways) and
	 * I2C block transfers on the bus as i2c_smbus_xfer_emulated lays
	 * them out.  Drivers that pick their transport by I2C_FUNC_I2C
	 * take their SMBus one.
	 */
	bool smbus_only;
};

struct emul_core {
	spinlock_t lock; /* bus, chip model, driven, high, irq_high, dying */
	struct em_bus bus;
	const struct emul_core_cfg *cfg;
	void *glue; /* the chip glue's own state */
	bool driven[EMUL_MAX_LINES];
	bool high[EMUL_MAX_LINES];
	bool irq_high; /* interrupt line's wire level, as last seen */
	bool powered;  /* the chips' supply (debugfs power) */
	bool dying;
	unsigned int irq_type; /* trigger its user asked for */
	atomic_t irqs_raised;
	atomic_t edges_dropped;
	atomic_t host_notifies; /* smbus_host_notify: notifications sent */

	struct hrtimer timer;
	struct irq_work level_work;
	struct fwnode_handle *irq_fwnode; /* ours (named); NULL in DT mode */
	struct irq_domain *domain;
	unsigned int irq;
	struct irq_chip irq_chip;
	struct gpio_chip gc;
	bool gc_added;
	const char *line_names[EMUL_MAX_LINES];
	struct i2c_adapter adap;
	bool adap_added;
	/* smbus_host_notify: the adapter's parent (6.1's i2c-core takes the
	 * Host Notify domain's fwnode from adap->dev.parent) */
	struct platform_device *smbus_parent;
	struct i2c_adapter_quirks quirks;
	struct gpiod_lookup_table *lookup;
	struct i2c_client *client;
	/* the chip the module put on the bus (emul_core_add_chip) */
	const struct em_chip_ops *chip_ops;
	void *chip;
	/* the module's own files (emul_module) */
	const struct emul_module *mod;
	struct dentry *dir;
};

/*
 * The module parameters every emulated controller module has, defined by
 * the core (it is compiled into each): adapter_name, bus_hz, wire_time,
 * max_xfer_len, nak_errno.  Checks them: 0 or -EINVAL with a message.
 */
int emul_core_check_params(const char *module);
/*
 * Put the module's chip on the bus: the model behind @ops at @chip, the
 * one the default line ops ask.  With @only_addr the bus offers it only
 * messages to that address (a model that answers any address it is
 * given: the emulator routes by address before it, this bus does not).
 */
int emul_core_add_chip(struct emul_core *c, const struct em_chip_ops *ops, void *chip,
		       u16 only_addr);

/* Lock, clock, bus and line states; add the chips to c->bus after this. */
void emul_core_init(struct emul_core *c, const struct emul_core_cfg *cfg, void *glue);
/* Register the irq domain, the GPIO chip and the adapter; arm the clock. */
int emul_core_start(struct emul_core *c);
/*
 * Instantiate the client on the adapter with the interrupt and, when @n,
 * a lookup table of @n lines of our GPIO chip (key and dev_id filled in).
 */
int emul_core_add_client(struct emul_core *c, struct i2c_board_info *info,
			 const struct gpiod_lookup *lines, unsigned int n);
/* Undo all of the above, whatever got done; c itself is left to the caller. */
void emul_core_teardown(struct emul_core *c);

/* Run @fn (may be NULL) on the model at the current time, under the lock. */
void emul_core_step(struct emul_core *c, void (*fn)(struct emul_core *c, void *arg), void *arg);

/* debugfs @dir/power: write 0 or 1 to switch every chip's supply. */
void emul_core_debugfs_power(struct emul_core *c, struct dentry *dir);
/* The bus and interrupt counters as key=value lines (the state files). */
void emul_core_show_counters(struct seq_file *sf, struct emul_core *c,
			     const struct em_bus_counters *count);

/* The trigger the interrupt's user asked for: rising, falling, both, high, low. */
const char *emul_core_trigger_name(struct emul_core *c);

/* The level on @line: the host's when it drives it, else the chip's. */
bool emul_core_wire_locked(struct emul_core *c, unsigned int line);

/* ------------------------------------------------------------ the module */

/*
 * An emulated controller module is its chip model plus this: the core
 * loads it (parameters checked, state allocated, core set up, the chip
 * made and put on the bus, adapter/GPIO/irq registered, debugfs NAME/
 * with state and power, the client instantiated) and unloads it.  Its
 * state is a struct of @size bytes that begins with struct emul_core.
 */
struct emul_module {
	const char *name;    /* "NAME_emul": messages */
	const char *debugfs; /* its debugfs directory, "NAME-emul" */
	const struct emul_core_cfg *core;
	size_t size;
	/* make the chip model and emul_core_add_chip() it: 0 or -errno */
	int (*setup)(struct emul_core *c);
	/* debugfs state: @snap (under the lock) fills a zeroed buffer of
	 * @snap_size, @show prints its key=value lines; the core adds
	 * int_high, powered and the counters */
	size_t snap_size;
	void (*snap)(struct emul_core *c, void *snap);
	void (*show)(struct seq_file *sf, struct emul_core *c, const void *snap);
	/* more debugfs files in @dir (NULL: none) */
	void (*files)(struct emul_core *c, struct dentry *dir);
	/* instantiate the client, emul_core_add_client() (NULL: none) */
	int (*add_client)(struct emul_core *c);
	/* after the core's teardown: free what setup and add_client kept */
	void (*release)(struct emul_core *c);
	/* log the load (pr_info) */
	void (*loaded)(struct emul_core *c);
};

/*
 * Device-tree mode (issue 22's arm64 board): when the kernel's device tree
 * has a node compatible with "touchfw,<module>-gpio" the module is two
 * DT-matched platform devices instead of a device of its own: the GPIO
 * chip with the interrupt controller (that node: gpio-controller,
 * interrupt-controller, two cells each; interrupt hwirq = line number)
 * and the i2c adapter ("touchfw,<module>-i2c", whose child nodes the
 * kernel's OF code makes the clients of: the module adds none).
 * emul_dt_init() registers the platform driver when such a node exists
 * and runs @load once both devices are bound (the GPIO chip's node is
 * the interrupt parent and the GPIO provider of the clients); it returns
 * 1 when the module is in DT mode (loaded), 0 when there is no such node
 * (the module loads as before), or -errno.  emul_dt_exit() unbinds,
 * calling @unload.
 */
int emul_dt_init(int (*load)(void), void (*unload)(void));
void emul_dt_exit(void);
bool emul_dt_active(void);

int emul_module_load(const struct emul_module *m);
void emul_module_unload(const struct emul_module *m);
/* Either of those, or DT mode (emul_dt_init) when the device tree asks. */
int emul_module_init(const struct emul_module *m);
void emul_module_exit(const struct emul_module *m);

/* module_init/module_exit of a module made of @m (a struct emul_module). */
#define EMUL_MODULE(m)                               \
	static int __init emul_module_init_fn(void)  \
	{                                            \
		return emul_module_init(&(m));       \
	}                                            \
	static void __exit emul_module_exit_fn(void) \
	{                                            \
		emul_module_exit(&(m));              \
	}                                            \
	module_init(emul_module_init_fn);            \
	module_exit(emul_module_exit_fn)

/*
 * Touch lines written to a debugfs file: "up" and empty lines skipped,
 * every other line @nf numbers (at most 4), field i at most @lim[i], at
 * most @max lines, into @vals.  The number of lines, or -EINVAL (logged,
 * naming the line and @form, e.g. "ID X Y") or another -errno.
 */
int emul_parse_touches(const char __user *ubuf, size_t len, unsigned int nf,
		       const unsigned int *lim, unsigned int (*vals)[4], unsigned int max,
		       const char *form);

#endif /* EMUL_CORE_H */
