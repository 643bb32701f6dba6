// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /dev/spidevB.C of a device bound to spidev, written from
 * drivers/spi/spidev.c and spi_setup()/__spi_validate() in
 * drivers/spi/spi.c (Linux 6.1), in their order and with their errors:
 *
 * - any ioctl whose type is not SPI_IOC_MAGIC: ENOTTY; a file whose device
 *   was unbound from spidev since: ESHUTDOWN;
 * - SPI_IOC_RD_MODE/_MODE32 report spi->mode & SPI_MODE_MASK (the mode
 *   belongs to the spi device: it outlives the open file and a rebind);
 *   SPI_IOC_WR_MODE/_MODE32: bits outside SPI_MODE_MASK EINVAL, then
 *   spi_setup(): dual with quad, or 3-wire with either, EINVAL; bits the
 *   controller lacks EINVAL, except the dual/quad/octal ones, which are
 *   dropped; on failure the old mode stays;
 * - SPI_IOC_WR_BITS_PER_WORD: 0 means 8, a width the controller lacks
 *   EINVAL; SPI_IOC_WR_MAX_SPEED_HZ: 0 EINVAL, else kept for this spidev
 *   (and reported by SPI_IOC_RD_MAX_SPEED_HZ) even above the controller's
 *   maximum, to which each transfer is clamped; it returns to the
 *   device's maximum when the last user closes -- not modelled: umockdev
 *   does not report closes;
 * - SPI_IOC_MESSAGE(N): another number or direction ENOTTY, a size that is
 *   not a multiple of the transfer EINVAL, N = 0 does nothing and returns
 *   0; a transfer longer than INT_MAX or a total above it EMSGSIZE; the
 *   bounce buffers: the lengths of the transfers with an rx buffer,
 *   each rounded up to ARCH_KMALLOC_MINALIGN (8 on x86-64), must fit
 *   bufsiz, and so must those with a tx buffer, else EMSGSIZE; then
 *   __spi_validate(): bits per word, whole words, tx_nbits/rx_nbits other
 *   than single EINVAL (the controller has no dual/quad mode); the result
 *   is the total length;
 * - read()/write(): more than bufsiz EMSGSIZE, else one transfer at the
 *   spidev's speed.
 */
#include <errno.h>
#include <limits.h>
#include <linux/spi/spi.h>
#include <linux/spi/spidev.h>
#include <stddef.h>
#include <string.h>

#include "emub-priv.h"
#include "emub-spi.h"

#define KMALLOC_MINALIGN 8u /* ARCH_KMALLOC_MINALIGN on x86-64 */
#define ALIGN_UP(x, a) (((x) + (a)-1) / (a) * (a))

/* spidev.c */
#define SPI_MODE_MASK                                                                       \
	(SPI_MODE_X_MASK | SPI_CS_HIGH | SPI_LSB_FIRST | SPI_3WIRE | SPI_LOOP | SPI_NO_CS | \
	 SPI_READY | SPI_TX_DUAL | SPI_TX_QUAD | SPI_TX_OCTAL | SPI_RX_DUAL | SPI_RX_QUAD | \
	 SPI_RX_OCTAL | SPI_RX_CPHA_FLIP)
/* the emulated controller's mode_bits (spibus.c) */
#define CTLR_MODE_BITS (SPI_CPOL | SPI_CPHA | SPI_CS_HIGH | SPI_LSB_FIRST | SPI_LOOP)
#define SPI_CS_WORD_BIT (1u << 18) /* SPI_CS_WORD, kernel-internal */

struct spidev_file {
	unsigned int generation; /* of the binding it was opened on */
};

static struct spidev_file *file_of(struct emub_spi_dev *d, UMockdevIoctlClient *client)
{
	struct spidev_file *f = g_object_get_data(G_OBJECT(client), "emub-spidev-file");

	if (!f) {
		f = g_new0(struct spidev_file, 1);
		f->generation = d->generation;
		g_object_set_data_full(G_OBJECT(client), "emub-spidev-file", f, g_free);
	}
	return f;
}

static guint32 bufsiz(struct emub_spi_dev *d)
{
	return d->eb->spi->b->bufsiz;
}

static int resolve(UMockdevIoctlData *parent, gsize off, gsize len, UMockdevIoctlData **out)
{
	GError *e = NULL;
	UMockdevIoctlData *r = umockdev_ioctl_data_resolve(parent, off, len, &e);

	if (e) {
		g_error_free(e);
		if (r)
			g_object_unref(r);
		return -EFAULT;
	}
	if (!r)
		return -EFAULT;
	*out = r;
	return 0;
}

/* spi_setup() for a new mode / bits per word (eb->lock held) */
static int setup(struct emub_spi_dev *d, guint32 mode, guint8 bpw)
{
	guint32 bad, ugly;

	if (((mode & SPI_TX_DUAL) && (mode & SPI_TX_QUAD)) ||
	    ((mode & SPI_RX_DUAL) && (mode & SPI_RX_QUAD)))
		return -EINVAL;
	if ((mode & SPI_3WIRE) && (mode & (SPI_TX_DUAL | SPI_TX_QUAD | SPI_TX_OCTAL |
					   SPI_RX_DUAL | SPI_RX_QUAD | SPI_RX_OCTAL)))
		return -EINVAL;
	bad = mode & ~(CTLR_MODE_BITS | SPI_CS_WORD_BIT);
	ugly = bad & (SPI_TX_DUAL | SPI_TX_QUAD | SPI_TX_OCTAL | SPI_RX_DUAL | SPI_RX_QUAD |
		      SPI_RX_OCTAL);
	if (ugly) {
		emub_log(d->eb, "spi %s: setup: ignoring unsupported mode bits %x", d->name,
			 ugly);
		mode &= ~ugly;
		bad &= ~ugly;
	}
	if (bad) {
		emub_log(d->eb, "spi %s: setup: unsupported mode bits %x", d->name, bad);
		return -EINVAL;
	}
	if (!bpw)
		bpw = 8;
	if (bpw != 8 && bpw != 16 && bpw != 32)
		return -EINVAL;
	d->mode = mode;
	d->bits_per_word = bpw;
	return 0;
}

static int put(UMockdevIoctlData *arg, const void *v, gsize len)
{
	UMockdevIoctlData *p = NULL;
	int r = resolve(arg, 0, len, &p);

	if (r)
		return r;
	memcpy(p->data, v, len);
	g_object_unref(p);
	return 0;
}

static int get(UMockdevIoctlData *arg, void *v, gsize len)
{
	UMockdevIoctlData *p = NULL;
	int r = resolve(arg, 0, len, &p);

	if (r)
		return r;
	memcpy(v, p->data, len);
	g_object_unref(p);
	return 0;
}

/* SPI_IOC_MESSAGE(N); *@ran when the message reached the controller. */
static int ioc_message(struct emub_spi_dev *d, gulong req, UMockdevIoctlData *arg,
		       guint64 entry_ns, bool *ran)
{
	UMockdevIoctlData *md = NULL;
	UMockdevIoctlData *bufs[2 * 512];
	struct spi_ioc_transfer *u;
	struct emub_spi_xfer *k = NULL;
	guint64 total = 0, tx_total = 0, rx_total = 0;
	unsigned int n, size, nres = 0;
	guint32 speed_hz;
	int r = 0;

	g_mutex_lock(&d->eb->lock);
	speed_hz = d->speed_hz;
	g_mutex_unlock(&d->eb->lock);
	if (_IOC_NR(req) != _IOC_NR(SPI_IOC_MESSAGE(0)) || _IOC_DIR(req) != _IOC_WRITE)
		return -ENOTTY;
	size = _IOC_SIZE(req);
	if (size % sizeof(struct spi_ioc_transfer))
		return -EINVAL;
	n = size / sizeof(struct spi_ioc_transfer);
	if (!n)
		return 0;
	r = resolve(arg, 0, size, &md);
	if (r)
		return r;
	u = (struct spi_ioc_transfer *)md->data;
	k = g_new0(struct emub_spi_xfer, n);
	for (unsigned int i = 0; i < n && !r; i++) {
		guint32 aligned = ALIGN_UP((guint64)u[i].len, KMALLOC_MINALIGN) > UINT_MAX
					  ? UINT_MAX
					  : (guint32)ALIGN_UP((guint64)u[i].len,
							      KMALLOC_MINALIGN);

		total += u[i].len;
		if (total > INT_MAX || u[i].len > INT_MAX) {
			r = -EMSGSIZE;
			break;
		}
		k[i].len = u[i].len;
		if (u[i].rx_buf) {
			rx_total += aligned;
			if (rx_total > bufsiz(d)) {
				r = -EMSGSIZE;
				break;
			}
			if (u[i].len) {
				r = resolve(md,
					    (gsize)i * sizeof(*u) +
						    offsetof(struct spi_ioc_transfer, rx_buf),
					    u[i].len, &bufs[nres]);
				if (r)
					break;
				k[i].rx = bufs[nres++]->data;
			}
		}
		if (u[i].tx_buf) {
			tx_total += aligned;
			if (tx_total > bufsiz(d)) {
				r = -EMSGSIZE;
				break;
			}
			if (u[i].len) {
				r = resolve(md,
					    (gsize)i * sizeof(*u) +
						    offsetof(struct spi_ioc_transfer, tx_buf),
					    u[i].len, &bufs[nres]);
				if (r)
					break;
				k[i].tx = bufs[nres++]->data;
			}
		}
		k[i].cs_change = u[i].cs_change != 0;
		k[i].bits_per_word = u[i].bits_per_word;
		k[i].delay_us = u[i].delay_usecs;
		k[i].word_delay_us = u[i].word_delay_usecs;
		k[i].speed_hz = u[i].speed_hz ? u[i].speed_hz : speed_hz;
		/* __spi_validate(): only single-wire transfers on this controller */
		if ((u[i].tx_buf && u[i].tx_nbits > 1) || (u[i].rx_buf && u[i].rx_nbits > 1))
			r = -EINVAL;
	}
	if (!r) {
		/* rx data reaches the caller only on success: run into copies */
		guint8 **rx = g_new0(guint8 *, n);
		guint32 rx_bytes = 0;

		for (unsigned int i = 0; i < n; i++)
			if (k[i].rx) {
				rx[i] = k[i].rx;
				k[i].rx = g_malloc(k[i].len);
				rx_bytes += k[i].len;
			}
		guint64 end;

		g_mutex_lock(&d->eb->lock);
		emub_spi_run_idle_time_locked(d);
		r = emub_spi_message_locked(d, k, n);
		emub_spi_user_message_locked(d, entry_ns, r ? 0 : rx_bytes);
		*ran = true;
		end = d->end_ns;
		g_mutex_unlock(&d->eb->lock);
		/* realtime: the caller gets the result when the wire is done */
		emub_sleep_until_model(d->eb, end);
		for (unsigned int i = 0; i < n; i++)
			if (rx[i]) {
				if (!r)
					memcpy(rx[i], k[i].rx, k[i].len);
				g_free(k[i].rx);
			}
		g_free(rx);
		if (!r)
			r = (int)total;
	}
	for (unsigned int i = 0; i < nres; i++)
		g_object_unref(bufs[i]);
	g_free(k);
	g_object_unref(md);
	return r;
}

static gboolean on_ioctl(UMockdevIoctlBase *base, UMockdevIoctlClient *client, gpointer user)
{
	struct emub_spi_dev *d = user;
	gulong req = umockdev_ioctl_client_get_request(client);
	UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(client);
	struct spidev_file *f = file_of(d, client);
	struct emub *eb = d->eb;
	guint64 entry_ns = eb->realtime ? emub_wall_model_ns(eb) : 0;
	bool ran = false;
	guint32 v32 = 0;
	guint8 v8 = 0;
	int r = 0;

	(void)base;
	if (_IOC_TYPE(req) != SPI_IOC_MAGIC) {
		r = -ENOTTY;
		goto out;
	}
	g_mutex_lock(&eb->lock);
	if (d->minor < 0 || f->generation != d->generation) {
		g_mutex_unlock(&eb->lock);
		r = -ESHUTDOWN;
		goto out;
	}
	g_mutex_unlock(&eb->lock);
	switch (req) {
	case SPI_IOC_RD_MODE:
	case SPI_IOC_RD_MODE32:
		g_mutex_lock(&eb->lock);
		v32 = d->mode & SPI_MODE_MASK;
		g_mutex_unlock(&eb->lock);
		v8 = (guint8)v32;
		r = req == SPI_IOC_RD_MODE ? put(arg, &v8, 1) : put(arg, &v32, 4);
		break;
	case SPI_IOC_RD_LSB_FIRST:
		g_mutex_lock(&eb->lock);
		v8 = (d->mode & SPI_LSB_FIRST) ? 1 : 0;
		g_mutex_unlock(&eb->lock);
		r = put(arg, &v8, 1);
		break;
	case SPI_IOC_RD_BITS_PER_WORD:
		g_mutex_lock(&eb->lock);
		v8 = d->bits_per_word;
		g_mutex_unlock(&eb->lock);
		r = put(arg, &v8, 1);
		break;
	case SPI_IOC_RD_MAX_SPEED_HZ:
		g_mutex_lock(&eb->lock);
		v32 = d->speed_hz;
		g_mutex_unlock(&eb->lock);
		r = put(arg, &v32, 4);
		break;
	case SPI_IOC_WR_MODE:
	case SPI_IOC_WR_MODE32:
		if (req == SPI_IOC_WR_MODE) {
			r = get(arg, &v8, 1);
			v32 = v8;
		} else {
			r = get(arg, &v32, 4);
		}
		if (r)
			break;
		if (v32 & ~SPI_MODE_MASK) {
			r = -EINVAL;
			break;
		}
		g_mutex_lock(&eb->lock);
		v32 |= d->mode & ~SPI_MODE_MASK;
		r = setup(d, v32 & SPI_MODE_USER_MASK, d->bits_per_word);
		g_mutex_unlock(&eb->lock);
		break;
	case SPI_IOC_WR_LSB_FIRST:
		r = get(arg, &v8, 1);
		if (!r) {
			g_mutex_lock(&eb->lock);
			r = setup(d, v8 ? d->mode | SPI_LSB_FIRST : d->mode & ~SPI_LSB_FIRST,
				  d->bits_per_word);
			g_mutex_unlock(&eb->lock);
		}
		break;
	case SPI_IOC_WR_BITS_PER_WORD:
		r = get(arg, &v8, 1);
		if (!r) {
			g_mutex_lock(&eb->lock);
			r = setup(d, d->mode, v8);
			g_mutex_unlock(&eb->lock);
		}
		break;
	case SPI_IOC_WR_MAX_SPEED_HZ:
		r = get(arg, &v32, 4);
		if (!r && !v32)
			r = -EINVAL;
		if (!r) {
			g_mutex_lock(&eb->lock);
			d->speed_hz = v32;
			g_mutex_unlock(&eb->lock);
		}
		break;
	default:
		r = ioc_message(d, req, arg, entry_ns, &ran);
	}
out:
	if (ran)
		emub_spi_user_done(d);
	if (r < 0)
		umockdev_ioctl_client_complete(client, -1, -r);
	else
		umockdev_ioctl_client_complete(client, r, 0);
	return TRUE;
}

/* spidev_read()/spidev_write(): one transfer, chip select around it */
static gboolean on_rw(struct emub_spi_dev *d, UMockdevIoctlClient *client, bool write)
{
	UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(client);
	struct spidev_file *f = file_of(d, client);
	gsize count = (gsize)arg->data_len;
	struct emub_spi_xfer x = { 0 };
	guint64 end, entry_ns = d->eb->realtime ? emub_wall_model_ns(d->eb) : 0;
	bool ran = false;
	int r = 0;

	g_mutex_lock(&d->eb->lock);
	if (d->minor < 0 || f->generation != d->generation)
		r = -ESHUTDOWN;
	else if (count > bufsiz(d))
		r = -EMSGSIZE;
	if (!r) {
		x.len = (guint32)count;
		x.speed_hz = d->speed_hz;
		if (write)
			x.tx = arg->data;
		else
			x.rx = g_malloc0(count ? count : 1);
		emub_spi_run_idle_time_locked(d);
		r = emub_spi_message_locked(d, &x, 1);
		emub_spi_user_message_locked(d, entry_ns, !r && !write ? x.len : 0);
		ran = true;
		if (!r && !write)
			memcpy(arg->data, x.rx, count);
		if (!write)
			g_free(x.rx);
	}
	end = d->end_ns;
	g_mutex_unlock(&d->eb->lock);
	emub_sleep_until_model(d->eb, end);
	if (ran)
		emub_spi_user_done(d);
	if (r < 0)
		umockdev_ioctl_client_complete(client, -1, -r);
	else
		umockdev_ioctl_client_complete(client, (glong)count, 0);
	return TRUE;
}

static gboolean on_read(UMockdevIoctlBase *base, UMockdevIoctlClient *client, gpointer user)
{
	(void)base;
	return on_rw(user, client, false);
}

static gboolean on_write(UMockdevIoctlBase *base, UMockdevIoctlClient *client, gpointer user)
{
	(void)base;
	return on_rw(user, client, true);
}

int emub_spidev_attach(struct emub_spi_dev *d)
{
	GError *e = NULL;

	if (d->ioctl && !strcmp(d->ioctl_node, d->devnode))
		return 0; /* still there from the last binding */
	emub_spidev_detach(d);
	d->ioctl = umockdev_ioctl_base_new();
	emub_serve_connect(d->eb, d->ioctl, "handle-ioctl", G_CALLBACK(on_ioctl), d);
	emub_serve_connect(d->eb, d->ioctl, "handle-read", G_CALLBACK(on_read), d);
	emub_serve_connect(d->eb, d->ioctl, "handle-write", G_CALLBACK(on_write), d);
	if (!umockdev_testbed_attach_ioctl(d->eb->tb, d->devnode, d->ioctl, &e)) {
		emub_log(d->eb, "attach_ioctl %s: %s", d->devnode, e ? e->message : "?");
		g_clear_error(&e);
		g_object_unref(d->ioctl);
		d->ioctl = NULL;
		return -EIO;
	}
	d->ioctl_node = g_strdup(d->devnode);
	return 0;
}

void emub_spidev_detach(struct emub_spi_dev *d)
{
	if (!d->ioctl)
		return;
	umockdev_testbed_detach_ioctl(d->eb->tb, d->ioctl_node, NULL);
	g_object_unref(d->ioctl);
	d->ioctl = NULL;
	g_free(d->ioctl_node);
	d->ioctl_node = NULL;
}
