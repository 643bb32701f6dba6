// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * spidev-xfer: one full-duplex transfer on an spidev node, for the VM
 * scenarios of spi chips (the image has no spidev_test or python): mode 0,
 * 8 bits, SPEED Hz, the bytes of HEX shifted out (zeros after them up to
 * LEN), what came back printed as hex on one line.
 *
 *   spidev-xfer DEV SPEED HEX [LEN]
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/spi/spidev.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static uint8_t tx[4096], rx[4096];
	struct spi_ioc_transfer x;
	unsigned long speed, len;
	size_t n = 0;
	uint8_t mode = SPI_MODE_0;
	int fd;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: spidev-xfer DEV SPEED HEX [LEN]\n");
		return 2;
	}
	speed = strtoul(argv[2], NULL, 0);
	for (const char *p = argv[3]; p[0] && p[1] && n < sizeof(tx); p += 2) {
		unsigned int v;

		if (sscanf(p, "%2x", &v) != 1) {
			fprintf(stderr, "spidev-xfer: bad hex at \"%s\"\n", p);
			return 2;
		}
		tx[n++] = (uint8_t)v;
	}
	len = argc == 5 ? strtoul(argv[4], NULL, 0) : n;
	if (len < n || len > sizeof(tx) || !speed) {
		fprintf(stderr,
			"spidev-xfer: LEN below the bytes given or above %zu, or SPEED 0\n",
			sizeof(tx));
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0 || ioctl(fd, SPI_IOC_WR_MODE, &mode) < 0) {
		fprintf(stderr, "spidev-xfer: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	memset(&x, 0, sizeof(x));
	x.tx_buf = (uintptr_t)tx;
	x.rx_buf = (uintptr_t)rx;
	x.len = (uint32_t)len;
	x.speed_hz = (uint32_t)speed;
	x.bits_per_word = 8;
	if (ioctl(fd, SPI_IOC_MESSAGE(1), &x) < 0) {
		fprintf(stderr, "spidev-xfer: SPI_IOC_MESSAGE: %s\n", strerror(errno));
		return 1;
	}
	for (unsigned long i = 0; i < len; i++)
		printf("%02x", rx[i]);
	printf("\n");
	close(fd);
	return 0;
}
