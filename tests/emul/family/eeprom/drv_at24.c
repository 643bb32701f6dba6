// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model of the at24 kernel driver (drivers/misc/eeprom/at24.c, Linux 6.1),
 * as far as it shows on the bus and in sysfs: probe enables the vcc supply
 * and makes a one-byte test read of offset 0 (retried for at24's 25 ms
 * write_timeout, so a chip in its write cycle is waited for), failing with
 * ENODEV when the chip does not answer; remove disables the supply.  Over a
 * plain i2c adapter regmap does write-then-read; on an SMBus-only adapter
 * an SMBus I2C-block read.  The nvmem/eeprom files are not modelled.
 */
#include <errno.h>

#include "eeprom-emul.h"

#define AT24_WRITE_TIMEOUT_MS 25

static int at24_test_read(struct emub_dev *d)
{
	guint8 off = 0, val = 0;
	struct em_msg m[2] = {
		{ .addr = d->chip->desc->addr, .flags = 0, .len = 1, .buf = &off },
		{ .addr = d->chip->desc->addr, .flags = EM_MSG_RD, .len = 1, .buf = &val },
	};
	bool smbus = d->chip->ad->desc.smbus_only;
	unsigned int waited = 0;
	int ret;

	for (;;) {
		ret = smbus ? drv_smbus_transfer(d, m, 2) : drv_i2c_transfer(d, m, 2);
		if (ret == 2)
			return 0;
		if (waited >= AT24_WRITE_TIMEOUT_MS)
			return -ETIMEDOUT;
		drv_msleep(d, 1); /* usleep_range(1000, 1500) */
		waited++;
	}
}

static int at24_probe(struct emub_dev *d)
{
	drv_regulator(d, true);
	if (at24_test_read(d)) {
		drv_regulator(d, false);
		return -ENODEV;
	}
	emub_dev_log(d, "%u byte EEPROM, writable",
		     eeprom_board(d->chip->desc)->size ? eeprom_board(d->chip->desc)->size
						       : 256);
	return 0;
}

static void at24_remove(struct emub_dev *d)
{
	drv_regulator(d, false);
}

static const char *const at24_of_match[] = {
	"atmel,24c00", "atmel,24c01", "atmel,24c02", "atmel,spd",   "atmel,24c04",
	"atmel,24c08", "atmel,24c16", "atmel,24c32", "atmel,24c64", NULL,
};

const struct emub_driver_ops emub_drv_at24 = {
	.name = "at24",
	.of_match = at24_of_match,
	.probe = at24_probe,
	.remove = at24_remove,
};
