// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /dev/i2c-N on every emulated adapter, written from drivers/i2c/i2c-dev.c,
 * i2c-core-base.c and i2c-core-smbus.c (Linux 6.1): the same per-open-file
 * anonymous client (I2C_SLAVE address, I2C_TENBIT, I2C_PEC), the same
 * argument checks in the same order and the same error codes, SMBus
 * emulated over plain i2c as i2c_smbus_xfer_emulated() does (with PEC), or
 * native on an SMBus-only adapter, where I2C_RDWR and read()/write() fail
 * with EOPNOTSUPP because the adapter has no master_xfer.
 *
 * The emulated adapter ("emuboard-i2c"): a NAK returns the board's
 * nak_errno (ENXIO by default, as i2c-imx, i2c-rk3x and SMBus controllers
 * do; i2c-designware and i2c-bcm2835 return EREMOTEIO); a message longer
 * than max_transfer fails with EOPNOTSUPP (i2c_check_for_quirks); ten-bit
 * addresses, protocol mangling and I2C_M_RECV_LEN are not supported and
 * fail with EOPNOTSUPP, so I2C_FUNCS reports neither
 * I2C_FUNC_SMBUS_READ_BLOCK_DATA nor I2C_FUNC_10BIT_ADDR -- but an adapter
 * with Host Notify, an SMBus controller as i2c-i801, reads SMBus blocks
 * itself.
 *
 * The handlers run on the board's pool of threads (serve.c), one request
 * of an open file at a time, so clients of separate adapters never wait
 * for each other: the board lock is held for one transaction only, and
 * in realtime pacing the ioctl is completed later by the completer thread
 * when its wire time has passed.
 */
#include <errno.h>
#include <limits.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "emub-priv.h"

#define I2CDEV_MAX_XFER 8192 /* i2cdev_read/write clamp, I2C_RDWR limit */
#define I2C_CLIENT_PEC 0x04  /* include/linux/i2c.h (kernel-internal) */

/* i2c-dev's anonymous client: one per open file */
struct i2c_file {
	guint16 addr;
	guint16 flags; /* I2C_M_TEN, I2C_CLIENT_PEC */
};

static struct i2c_file *file_of(UMockdevIoctlClient *client)
{
	struct i2c_file *f = g_object_get_data(G_OBJECT(client), "emub-i2c-file");

	if (!f) {
		f = g_new0(struct i2c_file, 1);
		g_object_set_data_full(G_OBJECT(client), "emub-i2c-file", f, g_free);
	}
	return f;
}

static unsigned long functionality(const struct emub_adapter *ad)
{
	/* Host Notify is an SMBus controller's (i2c-i801), which reads SMBus
	 * blocks itself (i801_func: I2C_FUNC_SMBUS_BLOCK_DATA); rmi_smbus's
	 * probe asks for both. */
	unsigned long hn = ad->desc.host_notify
				   ? I2C_FUNC_SMBUS_HOST_NOTIFY | I2C_FUNC_SMBUS_READ_BLOCK_DATA
				   : 0;

	if (ad->desc.smbus_only)
		return I2C_FUNC_SMBUS_QUICK | I2C_FUNC_SMBUS_BYTE | I2C_FUNC_SMBUS_BYTE_DATA |
		       I2C_FUNC_SMBUS_WORD_DATA | I2C_FUNC_SMBUS_PROC_CALL |
		       I2C_FUNC_SMBUS_WRITE_BLOCK_DATA | I2C_FUNC_SMBUS_I2C_BLOCK |
		       I2C_FUNC_SMBUS_PEC | hn;
	return I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL | hn;
}

int emub_errno_of_xfer(struct emub_adapter *ad, int r)
{
	switch (r) {
	case EM_XFER_NAK_ADDR:
	case EM_XFER_NAK_DATA:
		return -ad->desc.nak_errno;
	default:
		return -EINVAL;
	}
}

/* ------------------------------------------------------------ completions */

/*
 * Realtime pacing: a transfer completes for its caller when its wire time
 * has passed.  One thread does that for every adapter, so it must never
 * sleep past the earliest completion due: a status read on one bus (due
 * in 50 us) queued while a frame on another bus is on the wire (due in
 * 7 ms) is completed at its own time, not after the frame.  It waits on a
 * condition with the earliest due time as deadline, and each new
 * completion wakes it to look again.
 */
struct completion {
	guint64 due_ns; /* CLOCK_MONOTONIC */
	UMockdevIoctlClient *client;
	long res;
	int err;
};

static gint by_due(gconstpointer a, gconstpointer b, gpointer u)
{
	const struct completion *x = a, *y = b;

	(void)u;
	return x->due_ns < y->due_ns ? -1 : x->due_ns > y->due_ns;
}

static guint64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (guint64)ts.tv_sec * 1000000000ULL + (guint64)ts.tv_nsec;
}

static gpointer completer_main(gpointer data)
{
	struct emub *eb = data;

	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	g_mutex_lock(&eb->done_lock);
	for (;;) {
		struct completion *c = g_queue_peek_head(&eb->completions);
		guint64 now;

		if (!c) {
			if (!eb->completer_run)
				break;
			g_cond_wait(&eb->done_cond, &eb->done_lock);
			continue;
		}
		now = mono_ns();
		if (c->due_ns > now) {
			/* g_cond_wait_until() counts in us: round up, so
			 * nothing completes before its wire time is over */
			g_cond_wait_until(&eb->done_cond, &eb->done_lock,
					  (gint64)((c->due_ns - now + 999) / 1000) +
						  g_get_monotonic_time());
			continue;
		}
		g_queue_pop_head(&eb->completions);
		g_mutex_unlock(&eb->done_lock);
		umockdev_ioctl_client_complete(c->client, c->res, c->err);
		g_object_unref(c->client);
		g_free(c);
		g_mutex_lock(&eb->done_lock);
	}
	g_mutex_unlock(&eb->done_lock);
	return NULL;
}

void emub_completer_start(struct emub *eb)
{
	if (!eb->realtime)
		return;
	g_queue_init(&eb->completions);
	g_mutex_lock(&eb->done_lock);
	eb->completer_run = true;
	g_mutex_unlock(&eb->done_lock);
	eb->completer = g_thread_new("emub-complete", completer_main, eb);
}

/* Completes what is queued, each at its time, then stops. */
void emub_completer_stop(struct emub *eb)
{
	if (!eb->completer)
		return;
	g_mutex_lock(&eb->done_lock);
	eb->completer_run = false;
	g_cond_signal(&eb->done_cond);
	g_mutex_unlock(&eb->done_lock);
	g_thread_join(eb->completer);
	eb->completer = NULL;
}

/* Complete now, or (realtime) once model time @end_ns has come. */
static void finish(struct emub_adapter *ad, UMockdevIoctlClient *client, long res, int err,
		   guint64 end_ns)
{
	struct emub *eb = ad->eb;

	if (eb->realtime && end_ns) {
		g_mutex_lock(&eb->done_lock);
		if (eb->completer_run) {
			struct completion *c = g_new0(struct completion, 1);

			c->due_ns = (guint64)(eb->t0_us * 1000) + end_ns;
			c->client = g_object_ref(client);
			c->res = res;
			c->err = err;
			g_queue_insert_sorted(&eb->completions, c, by_due, NULL);
			if (g_queue_peek_head(&eb->completions) == c)
				g_cond_signal(
					&eb->done_cond); /* due before what it waits for */
			g_mutex_unlock(&eb->done_lock);
			return;
		}
		g_mutex_unlock(&eb->done_lock); /* stopped: the board is going down */
	}
	umockdev_ioctl_client_complete(client, res, err);
}

/* ------------------------------------------------------------ transfers */

/*
 * i2c_transfer() on the emulated adapter: __i2c_transfer's checks, the
 * adapter's own limits, then the bus.  Returns @n or -errno; read buffers
 * are filled only on success, as i2c-dev copies them back only then.
 */
static int adapter_transfer(struct emub_adapter *ad, struct i2c_msg *msgs, int n,
			    guint64 *end_ns)
{
	struct em_msg em[I2C_RDWR_IOCTL_MAX_MSGS + 2];
	guint8 *tmp[I2C_RDWR_IOCTL_MAX_MSGS + 2];
	guint64 wire;
	int r, timeout_ms;

	if (ad->desc.smbus_only)
		return -EOPNOTSUPP;
	for (int i = 0; i < n; i++) {
		/* i2c_check_for_quirks(): max_read_len / max_write_len */
		if (ad->desc.max_transfer && msgs[i].len > ad->desc.max_transfer)
			return -EOPNOTSUPP;
	}
	for (int i = 0; i < n; i++) {
		if (msgs[i].flags &
		    (I2C_M_TEN | I2C_M_RECV_LEN | I2C_M_NO_RD_ACK | I2C_M_IGNORE_NAK |
		     I2C_M_REV_DIR_ADDR | I2C_M_NOSTART | I2C_M_STOP))
			return -EOPNOTSUPP;
		if (msgs[i].addr > 0x7f)
			return -EINVAL;
	}
	for (int i = 0; i < n; i++) {
		em[i].addr = msgs[i].addr;
		em[i].flags = (msgs[i].flags & I2C_M_RD) ? EM_MSG_RD : 0;
		em[i].len = msgs[i].len;
		tmp[i] = g_malloc0(msgs[i].len ? msgs[i].len : 1);
		if (!(msgs[i].flags & I2C_M_RD) && msgs[i].len)
			memcpy(tmp[i], msgs[i].buf, msgs[i].len);
		em[i].buf = tmp[i];
	}
	g_mutex_lock(&ad->eb->lock);
	wire = em_bus_wire_ns(&ad->bus, em, n);
	r = emub_transfer_locked(ad, em, n, false, end_ns);
	timeout_ms = ad->timeout_ms;
	g_mutex_unlock(&ad->eb->lock);
	if (r < 0) {
		r = emub_errno_of_xfer(ad, r);
	} else if (timeout_ms > 0 && wire > (guint64)timeout_ms * 1000000) {
		r = -ETIMEDOUT; /* longer than the adapter's I2C_TIMEOUT */
	} else {
		for (int i = 0; i < n; i++)
			if ((msgs[i].flags & I2C_M_RD) && msgs[i].len)
				memcpy(msgs[i].buf, tmp[i], msgs[i].len);
	}
	for (int i = 0; i < n; i++)
		g_free(tmp[i]);
	return r;
}

/* ------------------------------------------------------------ SMBus */

/* i2c-core-smbus.c: CRC-8, polynomial x^8 + x^2 + x + 1 */
static guint8 crc8(guint16 data)
{
	for (int i = 0; i < 8; i++) {
		if (data & 0x8000)
			data ^= (0x1070U << 3);
		data <<= 1;
	}
	return (guint8)(data >> 8);
}

static guint8 smbus_pec(guint8 crc, const guint8 *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		crc = crc8((guint16)((crc ^ p[i]) << 8));
	return crc;
}

static guint8 msg_pec(guint8 pec, const struct i2c_msg *m)
{
	guint8 addr = (guint8)(m->addr << 1 | ((m->flags & I2C_M_RD) ? 1 : 0));

	pec = smbus_pec(pec, &addr, 1);
	return smbus_pec(pec, m->buf, m->len);
}

static bool native_supports(const struct emub_adapter *ad, char rw, int size)
{
	unsigned long f = functionality(ad);

	switch (size) {
	case I2C_SMBUS_QUICK:
		return f & I2C_FUNC_SMBUS_QUICK;
	case I2C_SMBUS_BYTE:
		return f & (rw == I2C_SMBUS_READ ? I2C_FUNC_SMBUS_READ_BYTE
						 : I2C_FUNC_SMBUS_WRITE_BYTE);
	case I2C_SMBUS_BYTE_DATA:
		return f & (rw == I2C_SMBUS_READ ? I2C_FUNC_SMBUS_READ_BYTE_DATA
						 : I2C_FUNC_SMBUS_WRITE_BYTE_DATA);
	case I2C_SMBUS_WORD_DATA:
		return f & (rw == I2C_SMBUS_READ ? I2C_FUNC_SMBUS_READ_WORD_DATA
						 : I2C_FUNC_SMBUS_WRITE_WORD_DATA);
	case I2C_SMBUS_PROC_CALL:
		return f & I2C_FUNC_SMBUS_PROC_CALL;
	case I2C_SMBUS_BLOCK_DATA:
		return f & (rw == I2C_SMBUS_READ ? I2C_FUNC_SMBUS_READ_BLOCK_DATA
						 : I2C_FUNC_SMBUS_WRITE_BLOCK_DATA);
	case I2C_SMBUS_I2C_BLOCK_DATA:
		return f & (rw == I2C_SMBUS_READ ? I2C_FUNC_SMBUS_READ_I2C_BLOCK
						 : I2C_FUNC_SMBUS_WRITE_I2C_BLOCK);
	default:
		return false;
	}
}

/* Run the wire transaction of an SMBus protocol (i2c_smbus_xfer_emulated);
 * @native: an SMBus controller does it, no i2c quirks apply. */
static int smbus_wire(struct emub_adapter *ad, guint16 addr, guint16 flags, char rw,
		      guint8 command, int size, union i2c_smbus_data *data, bool native,
		      guint64 *end_ns)
{
	guint8 buf0[I2C_SMBUS_BLOCK_MAX + 3], buf1[I2C_SMBUS_BLOCK_MAX + 2];
	int nmsgs = rw == I2C_SMBUS_READ ? 2 : 1;
	guint8 partial_pec = 0;
	struct i2c_msg msg[2] = {
		{ .addr = addr, .flags = flags & I2C_M_TEN, .len = 1, .buf = buf0 },
		{ .addr = addr,
		  .flags = (flags & I2C_M_TEN) | I2C_M_RD,
		  .len = 0,
		  .buf = buf1 },
	};
	bool wants_pec = (flags & I2C_CLIENT_PEC) && size != I2C_SMBUS_QUICK &&
			 size != I2C_SMBUS_I2C_BLOCK_DATA;
	int r;

	memset(buf1, 0, sizeof(buf1));
	buf0[0] = command;
	switch (size) {
	case I2C_SMBUS_QUICK:
		msg[0].len = 0;
		msg[0].flags = (flags & I2C_M_TEN) | (rw == I2C_SMBUS_READ ? I2C_M_RD : 0);
		nmsgs = 1;
		break;
	case I2C_SMBUS_BYTE:
		if (rw == I2C_SMBUS_READ) {
			msg[0].flags = I2C_M_RD | (flags & I2C_M_TEN);
			nmsgs = 1;
		}
		break;
	case I2C_SMBUS_BYTE_DATA:
		if (rw == I2C_SMBUS_READ) {
			msg[1].len = 1;
		} else {
			msg[0].len = 2;
			buf0[1] = data->byte;
		}
		break;
	case I2C_SMBUS_WORD_DATA:
		if (rw == I2C_SMBUS_READ) {
			msg[1].len = 2;
		} else {
			msg[0].len = 3;
			buf0[1] = data->word & 0xff;
			buf0[2] = data->word >> 8;
		}
		break;
	case I2C_SMBUS_PROC_CALL:
		nmsgs = 2;
		rw = I2C_SMBUS_READ;
		msg[0].len = 3;
		msg[1].len = 2;
		buf0[1] = data->word & 0xff;
		buf0[2] = data->word >> 8;
		break;
	case I2C_SMBUS_BLOCK_DATA:
		if (rw == I2C_SMBUS_READ) {
			/* the controller's own block read, the count then at most
			 * I2C_SMBUS_BLOCK_MAX bytes: an SMBus controller's (native,
			 * or the Host Notify kind; functionality() says which);
			 * i2c_smbus_xfer_emulated needs I2C_M_RECV_LEN: not supported */
			if (!(native || ad->desc.host_notify) || wants_pec)
				return -EOPNOTSUPP;
			msg[1].len = I2C_SMBUS_BLOCK_MAX + 1;
			break;
		}
		msg[0].len = data->block[0] + 2;
		if (msg[0].len > I2C_SMBUS_BLOCK_MAX + 2)
			return -EINVAL;
		memcpy(buf0 + 1, data->block, msg[0].len - 1);
		break;
	case I2C_SMBUS_BLOCK_PROC_CALL:
		return -EOPNOTSUPP; /* I2C_M_RECV_LEN again */
	case I2C_SMBUS_I2C_BLOCK_DATA:
		if (data->block[0] > I2C_SMBUS_BLOCK_MAX)
			return -EINVAL;
		if (rw == I2C_SMBUS_READ) {
			msg[1].len = data->block[0];
		} else {
			msg[0].len = data->block[0] + 1;
			memcpy(buf0 + 1, data->block + 1, data->block[0]);
		}
		break;
	default:
		return -EOPNOTSUPP;
	}

	if (wants_pec) {
		if (!(msg[0].flags & I2C_M_RD)) {
			if (nmsgs == 1) {
				buf0[msg[0].len] = msg_pec(0, &msg[0]);
				msg[0].len++;
			} else {
				partial_pec = msg_pec(0, &msg[0]);
			}
		}
		if (msg[nmsgs - 1].flags & I2C_M_RD)
			msg[nmsgs - 1].len++;
	}

	if (native) {
		struct em_msg em[2];

		for (int i = 0; i < nmsgs; i++) {
			em[i].addr = msg[i].addr;
			em[i].flags = (msg[i].flags & I2C_M_RD) ? EM_MSG_RD : 0;
			em[i].len = msg[i].len;
			em[i].buf = msg[i].buf;
		}
		if (flags & I2C_M_TEN)
			return -EOPNOTSUPP;
		g_mutex_lock(&ad->eb->lock);
		r = emub_transfer_locked(ad, em, nmsgs, false, end_ns);
		g_mutex_unlock(&ad->eb->lock);
		if (r < 0)
			return emub_errno_of_xfer(ad, r);
	} else {
		r = adapter_transfer(ad, msg, nmsgs, end_ns);
		if (r < 0)
			return r;
		if (r != nmsgs)
			return -EIO;
	}

	if (wants_pec && (msg[nmsgs - 1].flags & I2C_M_RD)) {
		struct i2c_msg *m = &msg[nmsgs - 1];
		guint8 rpec = m->buf[--m->len];

		if (rpec != msg_pec(partial_pec, m))
			return -EBADMSG;
	}
	if (rw == I2C_SMBUS_READ) {
		switch (size) {
		case I2C_SMBUS_BYTE:
			data->byte = buf0[0];
			break;
		case I2C_SMBUS_BYTE_DATA:
			data->byte = buf1[0];
			break;
		case I2C_SMBUS_WORD_DATA:
		case I2C_SMBUS_PROC_CALL:
			data->word = em_get_le16(buf1);
			break;
		case I2C_SMBUS_I2C_BLOCK_DATA:
			memcpy(data->block + 1, buf1, data->block[0]);
			break;
		case I2C_SMBUS_BLOCK_DATA:
			if (!buf1[0] || buf1[0] > I2C_SMBUS_BLOCK_MAX)
				return -EPROTO;
			memcpy(data->block, buf1, (size_t)buf1[0] + 1);
			break;
		}
	}
	return 0;
}

/* __i2c_smbus_xfer() */
static int smbus_xfer(struct emub_adapter *ad, struct i2c_file *f, char rw, guint8 command,
		      int size, union i2c_smbus_data *data, guint64 *end_ns)
{
	if (data &&
	    (size == I2C_SMBUS_I2C_BLOCK_DATA || size == I2C_SMBUS_BLOCK_PROC_CALL ||
	     (size == I2C_SMBUS_BLOCK_DATA && rw == I2C_SMBUS_WRITE)) &&
	    (data->block[0] == 0 || data->block[0] > I2C_SMBUS_BLOCK_MAX))
		return -EINVAL;
	if (ad->desc.smbus_only) {
		if (!native_supports(ad, rw, size))
			return -EOPNOTSUPP;
		return smbus_wire(ad, f->addr, f->flags, rw, command, size, data, true, end_ns);
	}
	return smbus_wire(ad, f->addr, f->flags, rw, command, size, data, false, end_ns);
}

/* ------------------------------------------------------------ ioctl */

static int resolve(UMockdevIoctlData *parent, gsize off, gsize len, UMockdevIoctlData **out)
{
	GError *e = NULL;
	UMockdevIoctlData *d = umockdev_ioctl_data_resolve(parent, off, len, &e);

	if (e) {
		g_error_free(e);
		if (d)
			g_object_unref(d);
		return -EFAULT;
	}
	if (!d)
		return -EFAULT;
	*out = d;
	return 0;
}

/* i2cdev_check_addr(): EBUSY when a client at @addr has a driver (also
 * while it probes: dev->driver is set before probe; not for the writer of
 * an unbind in progress, see do_unbind). */
static bool addr_busy(struct emub_adapter *ad, unsigned long addr)
{
	struct emub *eb = ad->eb;
	bool busy = false;

	g_mutex_lock(&eb->lock);
	for (int i = 0; i < eb->nchips; i++) {
		struct emub_chip *c = &eb->chips[i];

		if (c->ad == ad && c->desc->addr == addr && c->dev &&
		    ((c->dev->bound && !c->dev->unbind_written) || c->dev->probing))
			busy = true;
	}
	g_mutex_unlock(&eb->lock);
	return busy;
}

static int ioctl_rdwr(struct emub_adapter *ad, UMockdevIoctlData *arg, guint64 *end_ns)
{
	UMockdevIoctlData *rd = NULL, *md = NULL;
	struct i2c_rdwr_ioctl_data *rdwr;
	struct i2c_msg *msgs;
	guint8 *saved[I2C_RDWR_IOCTL_MAX_MSGS];
	int n, r, i;

	r = resolve(arg, 0, sizeof(struct i2c_rdwr_ioctl_data), &rd);
	if (r)
		return r;
	rdwr = (struct i2c_rdwr_ioctl_data *)rd->data;
	if (!rdwr->msgs || rdwr->nmsgs == 0) {
		r = -EINVAL;
		goto out;
	}
	if (rdwr->nmsgs > I2C_RDWR_IOCTL_MAX_MSGS) {
		r = -EINVAL;
		goto out;
	}
	n = (int)rdwr->nmsgs;
	r = resolve(rd, offsetof(struct i2c_rdwr_ioctl_data, msgs),
		    (gsize)n * sizeof(struct i2c_msg), &md);
	if (r)
		goto out;
	msgs = (struct i2c_msg *)md->data;
	for (i = 0; i < n; i++) {
		UMockdevIoctlData *bd = NULL;

		saved[i] = NULL;
		if (msgs[i].len > I2CDEV_MAX_XFER) {
			r = -EINVAL;
			break;
		}
		if (msgs[i].len) {
			r = resolve(md,
				    (gsize)i * sizeof(struct i2c_msg) +
					    offsetof(struct i2c_msg, buf),
				    msgs[i].len, &bd);
			if (r)
				break;
			g_object_unref(bd); /* the parent keeps it */
		}
		if (msgs[i].flags & I2C_M_RECV_LEN) {
			if (!(msgs[i].flags & I2C_M_RD) || msgs[i].len < 1 ||
			    msgs[i].buf[0] < 1 ||
			    msgs[i].len < msgs[i].buf[0] + I2C_SMBUS_BLOCK_MAX) {
				r = -EINVAL;
				break;
			}
		}
	}
	if (!r) {
		/* write into copies: user buffers change only on success */
		for (i = 0; i < n; i++) {
			saved[i] = msgs[i].buf;
			msgs[i].buf = g_memdup2(saved[i] ? saved[i] : (guint8 *)"",
						msgs[i].len ? msgs[i].len : 1);
		}
		r = adapter_transfer(ad, msgs, n, end_ns);
		for (i = 0; i < n; i++) {
			if (r >= 0 && (msgs[i].flags & I2C_M_RD) && msgs[i].len)
				memcpy(saved[i], msgs[i].buf, msgs[i].len);
			g_free(msgs[i].buf);
			msgs[i].buf = saved[i];
		}
	}
out:
	if (md)
		g_object_unref(md);
	if (rd)
		g_object_unref(rd);
	return r;
}

static int ioctl_smbus(struct emub_adapter *ad, struct i2c_file *f, UMockdevIoctlData *arg,
		       guint64 *end_ns)
{
	UMockdevIoctlData *sd = NULL, *dd = NULL;
	struct i2c_smbus_ioctl_data *s;
	union i2c_smbus_data temp;
	guint8 rw, command;
	guint32 size;
	gsize datasize;
	int r;

	r = resolve(arg, 0, sizeof(struct i2c_smbus_ioctl_data), &sd);
	if (r)
		return r;
	s = (struct i2c_smbus_ioctl_data *)sd->data;
	rw = s->read_write;
	command = s->command;
	size = s->size;
	if (size != I2C_SMBUS_BYTE && size != I2C_SMBUS_QUICK && size != I2C_SMBUS_BYTE_DATA &&
	    size != I2C_SMBUS_WORD_DATA && size != I2C_SMBUS_PROC_CALL &&
	    size != I2C_SMBUS_BLOCK_DATA && size != I2C_SMBUS_I2C_BLOCK_BROKEN &&
	    size != I2C_SMBUS_I2C_BLOCK_DATA && size != I2C_SMBUS_BLOCK_PROC_CALL) {
		r = -EINVAL;
		goto out;
	}
	if (rw != I2C_SMBUS_READ && rw != I2C_SMBUS_WRITE) {
		r = -EINVAL;
		goto out;
	}
	if (size == I2C_SMBUS_QUICK || (size == I2C_SMBUS_BYTE && rw == I2C_SMBUS_WRITE)) {
		r = smbus_xfer(ad, f, (char)rw, command, (int)size, NULL, end_ns);
		goto out;
	}
	if (!s->data) {
		r = -EINVAL;
		goto out;
	}
	if (size == I2C_SMBUS_BYTE_DATA || size == I2C_SMBUS_BYTE)
		datasize = sizeof(temp.byte);
	else if (size == I2C_SMBUS_WORD_DATA || size == I2C_SMBUS_PROC_CALL)
		datasize = sizeof(temp.word);
	else
		datasize = sizeof(temp.block);
	r = resolve(sd, offsetof(struct i2c_smbus_ioctl_data, data), datasize, &dd);
	if (r)
		goto out;
	memset(&temp, 0, sizeof(temp));
	if (size == I2C_SMBUS_PROC_CALL || size == I2C_SMBUS_BLOCK_PROC_CALL ||
	    size == I2C_SMBUS_I2C_BLOCK_DATA || rw == I2C_SMBUS_WRITE)
		memcpy(&temp, dd->data, datasize);
	if (size == I2C_SMBUS_I2C_BLOCK_BROKEN) {
		size = I2C_SMBUS_I2C_BLOCK_DATA;
		if (rw == I2C_SMBUS_READ)
			temp.block[0] = I2C_SMBUS_BLOCK_MAX;
	}
	r = smbus_xfer(ad, f, (char)rw, command, (int)size, &temp, end_ns);
	if (!r && (size == I2C_SMBUS_PROC_CALL || size == I2C_SMBUS_BLOCK_PROC_CALL ||
		   rw == I2C_SMBUS_READ))
		memcpy(dd->data, &temp, datasize);
out:
	if (dd)
		g_object_unref(dd);
	if (sd)
		g_object_unref(sd);
	return r;
}

static gboolean on_ioctl(UMockdevIoctlBase *base, UMockdevIoctlClient *client, gpointer user)
{
	struct emub_adapter *ad = user;
	gulong req = umockdev_ioctl_client_get_request(client);
	UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(client);
	unsigned long a = *(unsigned long *)arg->data;
	struct i2c_file *f = file_of(client);
	guint64 end = 0;
	int r = 0;

	(void)base;
	switch (req) {
	case I2C_SLAVE:
	case I2C_SLAVE_FORCE:
		if (a > 0x3ff || (!(f->flags & I2C_M_TEN) && a > 0x7f))
			r = -EINVAL;
		else if (req == I2C_SLAVE && addr_busy(ad, a))
			r = -EBUSY;
		else
			f->addr = (guint16)a;
		break;
	case I2C_TENBIT:
		if (a)
			f->flags |= I2C_M_TEN;
		else
			f->flags &= (guint16)~I2C_M_TEN;
		break;
	case I2C_PEC:
		if (a)
			f->flags |= I2C_CLIENT_PEC;
		else
			f->flags &= (guint16)~I2C_CLIENT_PEC;
		break;
	case I2C_FUNCS: {
		UMockdevIoctlData *fd = NULL;

		r = resolve(arg, 0, sizeof(unsigned long), &fd);
		if (!r) {
			unsigned long funcs = functionality(ad);

			memcpy(fd->data, &funcs, sizeof(funcs));
			g_object_unref(fd);
		}
		break;
	}
	case I2C_RDWR:
		r = ioctl_rdwr(ad, arg, &end);
		break;
	case I2C_SMBUS:
		r = ioctl_smbus(ad, f, arg, &end);
		break;
	case I2C_RETRIES:
		/* adapter-wide, as i2c-dev sets client->adapter->retries */
		if (a > INT_MAX) {
			r = -EINVAL;
		} else {
			g_mutex_lock(&ad->eb->lock);
			ad->retries = (int)a;
			g_mutex_unlock(&ad->eb->lock);
		}
		break;
	case I2C_TIMEOUT:
		/* adapter-wide, in units of 10 ms */
		if (a > INT_MAX / 10) {
			r = -EINVAL;
		} else {
			g_mutex_lock(&ad->eb->lock);
			ad->timeout_ms = (int)a * 10;
			g_mutex_unlock(&ad->eb->lock);
		}
		break;
	default:
		r = -ENOTTY;
	}
	if (r < 0)
		finish(ad, client, -1, -r, end);
	else
		finish(ad, client, r, 0, end);
	return TRUE;
}

/*
 * i2cdev_read() / i2cdev_write(): i2c_master_recv() / i2c_master_send()
 * of min(count, 8192) bytes, one message to the file's address.
 */
static gboolean plain_xfer(struct emub_adapter *ad, UMockdevIoctlClient *client, bool rd)
{
	UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(client);
	struct i2c_file *f = file_of(client);
	gsize count = (gsize)arg->data_len;
	struct i2c_msg m;
	guint64 end = 0;
	int r;

	if (count > I2CDEV_MAX_XFER)
		count = I2CDEV_MAX_XFER;
	m.addr = f->addr;
	m.flags = (f->flags & I2C_M_TEN) | (rd ? I2C_M_RD : 0);
	m.len = (guint16)count;
	m.buf = rd ? g_malloc0(count ? count : 1) : arg->data;
	r = adapter_transfer(ad, &m, 1, &end);
	if (rd) {
		if (r == 1 && count)
			memcpy(arg->data, m.buf, count);
		g_free(m.buf);
	}
	if (r == 1)
		finish(ad, client, (long)count, 0, end);
	else
		finish(ad, client, -1, -r, end);
	return TRUE;
}

static gboolean on_read(UMockdevIoctlBase *base, UMockdevIoctlClient *client, gpointer user)
{
	(void)base;
	return plain_xfer(user, client, true);
}

static gboolean on_write(UMockdevIoctlBase *base, UMockdevIoctlClient *client, gpointer user)
{
	(void)base;
	return plain_xfer(user, client, false);
}

int emub_i2cdev_attach(struct emub_adapter *ad)
{
	GError *e = NULL;

	ad->ioctl = umockdev_ioctl_base_new();
	emub_serve_connect(ad->eb, ad->ioctl, "handle-ioctl", G_CALLBACK(on_ioctl), ad);
	emub_serve_connect(ad->eb, ad->ioctl, "handle-read", G_CALLBACK(on_read), ad);
	emub_serve_connect(ad->eb, ad->ioctl, "handle-write", G_CALLBACK(on_write), ad);
	if (!umockdev_testbed_attach_ioctl(ad->eb->tb, ad->devnode, ad->ioctl, &e)) {
		emub_log(ad->eb, "attach_ioctl %s: %s", ad->devnode, e ? e->message : "?");
		g_clear_error(&e);
		return -EIO;
	}
	return 0;
}
