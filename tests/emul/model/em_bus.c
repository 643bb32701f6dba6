// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Emulated i2c bus segment: routes each message to the chip that
 * acknowledges its address, injects address NAKs, counts traffic and models
 * wire time.  Freestanding (see em_types.h).
 */
#include "em_bus.h"

#define EM_BITS_PER_BYTE 9 /* 8 data bits + ACK */
#define EM_START_BITS 1
#define EM_STOP_BITS 1

void em_chip_timeless_advance(void *chip, em_u64 now_ns)
{
	(void)chip;
	(void)now_ns;
}

em_u64 em_chip_timeless_next_event(const void *chip)
{
	(void)chip;
	return EM_NEVER;
}

void em_chip_run_until(void *chip, em_u64 *clock, em_u64 now, em_u64 (*next)(const void *chip),
		       void (*run)(void *chip, em_u64 t))
{
	em_u64 t;

	while ((t = next(chip)) <= now) {
		if (t > *clock)
			*clock = t;
		run(chip, t);
	}
	if (now > *clock)
		*clock = now;
}

void em_bus_init(struct em_bus *bus, em_u32 hz)
{
	em_memset(bus, 0, sizeof(*bus));
	bus->hz = hz ? hz : 100000;
}

int em_bus_add_chip(struct em_bus *bus, const struct em_chip_ops *ops, void *chip)
{
	if (bus->nchips >= EM_BUS_MAX_CHIPS)
		return -1;
	bus->chips[bus->nchips].ops = ops;
	bus->chips[bus->nchips].priv = chip;
	bus->nchips++;
	return 0;
}

void em_bus_set_nak(struct em_bus *bus, em_u16 addr, bool nak)
{
	if (addr >= 128)
		return;
	if (nak)
		bus->nak_addr[addr / 8] |= (em_u8)(1u << (addr % 8));
	else
		bus->nak_addr[addr / 8] &= (em_u8) ~(1u << (addr % 8));
}

static bool forced_nak(const struct em_bus *bus, em_u16 addr)
{
	return addr < 128 && (bus->nak_addr[addr / 8] & (1u << (addr % 8)));
}

void em_bus_advance(struct em_bus *bus, em_u64 now_ns)
{
	unsigned int i;

	if (now_ns < bus->now_ns)
		return;
	bus->now_ns = now_ns;
	for (i = 0; i < bus->nchips; i++)
		bus->chips[i].ops->advance(bus->chips[i].priv, now_ns);
}

em_u64 em_bus_next_event(const struct em_bus *bus)
{
	em_u64 next = EM_NEVER, t;
	unsigned int i;

	for (i = 0; i < bus->nchips; i++) {
		t = bus->chips[i].ops->next_event(bus->chips[i].priv);
		if (t < next)
			next = t;
	}
	return next;
}

static em_u64 bits_to_ns(const struct em_bus *bus, em_u64 bits)
{
	return bits * EM_NSEC_PER_SEC / bus->hz;
}

static em_u64 msg_bits(const struct em_msg *m)
{
	return EM_START_BITS + EM_BITS_PER_BYTE + (em_u64)m->len * EM_BITS_PER_BYTE;
}

em_u64 em_bus_wire_ns(const struct em_bus *bus, const struct em_msg *msgs, int n)
{
	em_u64 bits = EM_STOP_BITS;
	int i;

	for (i = 0; i < n; i++)
		bits += msg_bits(&msgs[i]);
	return bits_to_ns(bus, bits);
}

static void stop_all(struct em_bus *bus)
{
	unsigned int i;

	for (i = 0; i < bus->nchips; i++)
		if (bus->chips[i].ops->stop)
			bus->chips[i].ops->stop(bus->chips[i].priv);
}

/*
 * Offer a message to every chip; the first that acknowledges the address
 * takes it.  Only one chip may answer an address on a real bus, so the order
 * does not matter for sane boards.
 */
static int route(struct em_bus *bus, struct em_msg *m, unsigned int *taker)
{
	unsigned int i;
	int r;

	if (forced_nak(bus, m->addr))
		return EM_NAK_ADDR;
	for (i = 0; i < bus->nchips; i++) {
		const struct em_chip *c = &bus->chips[i];

		if (m->flags & EM_MSG_RD)
			r = c->ops->read(c->priv, m->addr, m->buf, m->len);
		else
			r = c->ops->write(c->priv, m->addr, m->buf, m->len);
		if (r != EM_NAK_ADDR) {
			*taker = i;
			return r;
		}
	}
	return EM_NAK_ADDR;
}

/* Does a chip other than @taker hold a unit in part? */
static bool other_mid_unit(const struct em_bus *bus, unsigned int taker)
{
	unsigned int i;

	for (i = 0; i < bus->nchips; i++) {
		const struct em_chip *c = &bus->chips[i];

		if (i != taker && c->ops->mid_unit && c->ops->mid_unit(c->priv))
			return true;
	}
	return false;
}

int em_bus_transfer(struct em_bus *bus, struct em_msg *msgs, int n)
{
	em_u64 t0 = bus->now_ns, t = t0;
	bool interleaved = false;
	unsigned int taker = 0;
	int i, r = 0;

	if (n <= 0)
		return EM_XFER_INVAL;
	bus->count.transactions++;
	for (i = 0; i < n; i++) {
		struct em_msg *m = &msgs[i];

		if (m->addr > 0x7f || (m->len && !m->buf)) {
			r = EM_XFER_INVAL;
			break;
		}
		/*
		 * A chip acts on a write once its data is on the wire, and
		 * starts a read right after the address byte.  (A write to an
		 * absent address is charged its full length: a small
		 * overestimate of a transfer that failed anyway.)
		 */
		t += bits_to_ns(bus, EM_START_BITS + EM_BITS_PER_BYTE);
		if (!(m->flags & EM_MSG_RD))
			t += bits_to_ns(bus, (em_u64)m->len * EM_BITS_PER_BYTE);
		em_bus_advance(bus, t);
		bus->count.messages++;
		r = route(bus, m, &taker);
		if (r != EM_NAK_ADDR && !interleaved && other_mid_unit(bus, taker)) {
			interleaved = true;
			bus->interleaved++;
		}
		if (r == EM_NAK_ADDR) {
			r = EM_XFER_NAK_ADDR;
			break;
		}
		if (m->flags & EM_MSG_RD)
			t += bits_to_ns(bus, (em_u64)m->len * EM_BITS_PER_BYTE);
		if (m->flags & EM_MSG_RD)
			bus->count.bytes_read += m->len;
		else
			bus->count.bytes_written += m->len;
		if (r == EM_NAK_DATA) {
			r = EM_XFER_NAK_DATA;
			break;
		}
		r = 0;
	}
	t += bits_to_ns(bus, EM_STOP_BITS);
	bus->count.bus_ns += t - t0;
	em_bus_advance(bus, t);
	stop_all(bus);
	if (r < 0) {
		bus->count.naks++;
		return r;
	}
	return n;
}
