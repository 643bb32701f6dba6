// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Elan HID-over-I2C touchpad model on its own, driven as i2c-hid-core.c
 * and fwupd's elantp recovery drive a chip (the HID descriptor, the report
 * descriptor, RESET and its sentinel, feature reports, touch reports; in
 * IAP the descriptor a bricked part answers, the echoed commands, the IAP
 * type, 128-byte pages), and the i2c_hid driver model on a board: its probe
 * refuses the bricked part as i2c-hid-core.c does and binds a working one
 * with hid-multitouch's input device.
 */
#include <errno.h>
#include <stdio.h>

#include "elanhid_model.h"
#include "emub-elanhid.h"
#include "emub-testutil.h"

static struct elanhid_model M;
static uint8_t img[ELANHID_MODEL_FLASH];

static int rd_n(uint16_t reg, uint8_t *r, uint16_t n)
{
	uint8_t a[2] = { (uint8_t)reg, (uint8_t)(reg >> 8) };
	int rc = elanhid_model_ops.write(&M, 0x15, a, 2);

	if (rc == EM_ACK)
		rc = elanhid_model_ops.read(&M, 0x15, r, n);
	elanhid_model_ops.stop(&M);
	return rc;
}

static unsigned rd(uint16_t reg)
{
	uint8_t r[2];

	assert_int_equal(rd_n(reg, r, 2), EM_ACK);
	return (unsigned)(r[0] | r[1] << 8);
}

static int wr_buf(const uint8_t *b, uint16_t n)
{
	int rc = elanhid_model_ops.write(&M, 0x15, b, n);

	elanhid_model_ops.stop(&M);
	return rc;
}

static void wr(uint16_t reg, uint16_t val)
{
	uint8_t b[4] = { (uint8_t)reg, (uint8_t)(reg >> 8), (uint8_t)val, (uint8_t)(val >> 8) };

	assert_int_equal(wr_buf(b, 4), EM_ACK);
}

static void start(uint8_t fw, bool ff)
{
	struct elanhid_model_cfg cfg = { .addr = 0x15,
					 .module_id = 0xf1,
					 .hid_pid = 0x3195,
					 .max_x = 3209,
					 .max_y = 2097,
					 .iap_desc_ff = ff };

	elanhid_model_make_image(img, 0xf1, fw ? fw : 3, 0);
	elanhid_model_init(&M, &cfg, fw ? img : NULL);
}

static void test_main_mode_answers_the_hid_descriptor_and_reports(void **state)
{
	uint8_t d[30], rdesc[ELANHID_MODEL_RDESC_MAX], in[32];
	uint8_t reset[4] = { 0x05, 0x00, 0x00, 0x01 };
	/* GET_REPORT feature 2 through the data register, as i2c-hid sends it */
	uint8_t get2[6] = { 0x05, 0x00, 0x32, 0x02, 0x06, 0x00 };
	unsigned len;

	(void)state;
	start(7, true);
	assert_int_equal(elanhid_model_mode(&M), ELANHID_MODEL_MAIN);
	assert_int_equal(rd_n(0x0001, d, 30), EM_ACK);
	assert_int_equal(d[0] | d[1] << 8, 30);
	assert_int_equal(d[2] | d[3] << 8, 0x0100);
	assert_int_equal(d[20] | d[21] << 8, 0x04f3);
	assert_int_equal(d[22] | d[23] << 8, 0x3195);
	assert_int_equal(d[24] | d[25] << 8, 7);
	len = (unsigned)(d[4] | d[5] << 8);
	assert_true(len > 100 && len <= sizeof(rdesc));
	assert_int_equal(rd_n(0x0002, rdesc, (uint16_t)len), EM_ACK);
	/* Digitizer / Touch Pad application, and it ends its collections */
	assert_non_null(memmem(rdesc, len, "\x05\x0d\x09\x05\xa1\x01\x85\x04", 8));
	/* X's logical maximum 3209 (0x0c89) */
	assert_non_null(memmem(rdesc, len, "\x26\x89\x0c", 3));
	assert_int_equal(rdesc[len - 1], 0xc0);
	/* RESET: the sentinel (length 0) with INT asserted until read */
	assert_int_equal(wr_buf(reset, 4), EM_ACK);
	assert_true(elanhid_model_ops.irq_asserted(&M));
	assert_int_equal(elanhid_model_ops.read(&M, 0x15, in, 32), EM_ACK);
	assert_int_equal(in[0] | in[1], 0);
	assert_false(elanhid_model_ops.irq_asserted(&M));
	/* feature 2: five contacts */
	assert_int_equal(elanhid_model_ops.write(&M, 0x15, get2, 6), EM_ACK);
	assert_int_equal(elanhid_model_ops.read(&M, 0x15, in, 4), EM_ACK);
	elanhid_model_ops.stop(&M);
	assert_int_equal(in[0], 4);
	assert_int_equal(in[2], 2);
	assert_int_equal(in[3], 5);
	/* a touch: report 4, contact 0 down at 100,200 */
	assert_int_equal(elanhid_model_touch(&M, 0, 100, 200, true), 0);
	assert_true(elanhid_model_ops.irq_asserted(&M));
	assert_int_equal(elanhid_model_ops.read(&M, 0x15, in, 32), EM_ACK);
	assert_int_equal(in[0], 32);
	assert_int_equal(in[2], 4);
	assert_int_equal(in[3] & 3, 3);
	assert_int_equal(in[4] | in[5] << 8, 100);
	assert_int_equal(in[6] | in[7] << 8, 200);
	assert_int_equal(elanhid_model_stats(&M)->reports_read, 1);
	/* Elan's registers: module id, firmware, OSM version with ic type */
	assert_int_equal(rd(0x0101), 0xf1);
	assert_int_equal(rd(0x0102), 7);
	assert_int_equal(rd(0x0103) >> 8, ELANHID_MODEL_IC_TYPE);
	assert_true(rd(0x0310) & (1u << 9));
}

static void test_iap_mode_answers_a_broken_descriptor_and_echoes(void **state)
{
	uint8_t d[30], r[8];
	int i;

	(void)state;
	start(0, true);
	assert_int_equal(elanhid_model_mode(&M), ELANHID_MODEL_IAP);
	assert_int_equal(rd_n(0x0001, d, 30), EM_ACK);
	for (i = 0; i < 30; i++)
		assert_int_equal(d[i], 0xff);
	/* the report descriptor is refused */
	assert_int_equal(rd_n(0x0002, r, 8), EM_NAK_DATA);
	assert_false(rd(0x0310) & (1u << 9));
	assert_int_equal(rd(0x0101), 0xf1);
	assert_int_equal(rd(0x0102), 0x0102); /* echoed: no application */
	assert_int_equal(rd(0x0103), 0x0103);
	assert_int_equal(rd(0x0110) & 0xff, ELANHID_MODEL_IC_TYPE);
	assert_int_equal(rd(0x0111), ELANHID_MODEL_IAP_VERSION);
	/* the other way a bricked part answers: all zero */
	start(0, false);
	assert_int_equal(rd_n(0x0001, d, 30), EM_ACK);
	for (i = 0; i < 30; i++)
		assert_int_equal(d[i], 0);
}

/* Pages as fwupd's recovery sends them: 01 06 + 128 bytes + LE16 sum. */
static unsigned send_pages(unsigned from, unsigned to, bool bad_sum, bool locked)
{
	unsigned p, sw = 0;

	for (p = from; p < to; p++) {
		uint8_t b[ELANHID_MODEL_PAGE + 4] = { 0x01, 0x06 };
		uint16_t s = 0;
		int j;

		memcpy(b + 2, img + p * ELANHID_MODEL_PAGE, ELANHID_MODEL_PAGE);
		for (j = 0; j < ELANHID_MODEL_PAGE; j += 2)
			s = (uint16_t)(s + (b[2 + j] | b[3 + j] << 8));
		b[ELANHID_MODEL_PAGE + 2] = (uint8_t)(s + (bad_sum ? 1 : 0));
		b[ELANHID_MODEL_PAGE + 3] = (uint8_t)(s >> 8);
		assert_int_equal(wr_buf(b, sizeof(b)), EM_ACK);
		if (p + 1 < ELANHID_MODEL_PAGES || bad_sum || locked)
			assert_int_equal(rd(0x0310) & 0x30, locked ? 0x10 : bad_sum ? 0x20 : 0);
		sw = (sw + s) & 0xffff;
	}
	return sw;
}

static void unlock(void)
{
	wr(0x0314, 0xf0f0);
	wr(0x0311, 0x1ea5);
	wr(0x0311, 0x1ea5);
	assert_int_equal(rd(0x0311), 0x1ea5);
}

static void test_iap_recovery_writes_128_byte_pages_and_boots(void **state)
{
	unsigned sum, first = ELANHID_MODEL_IAP_START_WORDS * 2 / ELANHID_MODEL_PAGE;
	uint8_t d[30];

	(void)state;
	start(0, true);
	elanhid_model_make_image(img, 0xf1, 9, 0);
	unlock();
	/* without the IAP type a page is an interface error */
	send_pages(first, first + 1, false, true);
	unlock();
	wr(0x0304, ELANHID_MODEL_PAGE / 2);
	assert_int_equal(rd(0x0304), ELANHID_MODEL_PAGE / 2);
	/* a bad sum is a page error and writes nothing */
	send_pages(first, first + 1, true, false);
	assert_int_equal(elanhid_model_stats(&M)->pages_written, 0);
	sum = send_pages(first, ELANHID_MODEL_PAGES, false, false);
	assert_int_equal(rd(0x0315), sum);
	assert_int_equal(elanhid_model_mode(&M), ELANHID_MODEL_MAIN);
	assert_int_equal(elanhid_model_fw_version(&M), 9);
	assert_int_equal(rd_n(0x0001, d, 30), EM_ACK);
	assert_int_equal(d[2] | d[3] << 8, 0x0100);
	assert_int_equal(d[24], 9);
}

/* An image for another module does not boot: still IAP after all pages. */
static void test_image_of_another_module_stays_in_iap(void **state)
{
	unsigned first = ELANHID_MODEL_IAP_START_WORDS * 2 / ELANHID_MODEL_PAGE;

	(void)state;
	start(0, true);
	elanhid_model_make_image(img, 0xf2, 9, 0);
	unlock();
	wr(0x0304, ELANHID_MODEL_PAGE / 2);
	send_pages(first, ELANHID_MODEL_PAGES, false, false);
	assert_int_equal(elanhid_model_mode(&M), ELANHID_MODEL_IAP);
}

/* ------------------------------------------------ the i2c_hid driver model */

#define BOARD(fw, extra)                                                             \
	"[board]\nname = elanhid\ncompatible = t,elanhid\n[adapter 1]\n"             \
	"[chip touchpad]\nadapter = 1\naddress = 0x15\nmodel = elanhid\n"            \
	"compatible = hid-over-i2c\ndriver = i2c_hid_of\nelanhid.module_id = 0xf1\n" \
	"elanhid.fw_version = " fw "\npower = always-on\nint_gpio = 1\n" extra       \
	"[gpiochip]\nlabel = emuboard-gpio\nlines = 2\n"

static struct emub *board(const char *text, FILE **log, char **logbuf, size_t *loglen)
{
	struct emub *eb = NULL;
	char err[512];

	if (emub_new_from_string(text, tu_top(), &eb, err, sizeof(err)))
		fail_msg("board: %s", err);
	*log = open_memstream(logbuf, loglen);
	assert_non_null(*log);
	emub_set_log(eb, *log);
	assert_int_equal(emub_start(eb), 0);
	return eb;
}

static bool log_has(FILE *log, char **buf, const char *s)
{
	fflush(log);
	return *buf && strstr(*buf, s);
}

static void test_i2c_hid_binds_a_working_part_with_a_touchpad_input(void **state)
{
	FILE *log;
	char *buf = NULL, node[64];
	size_t len = 0;
	struct emub *eb = board(BOARD("5", ""), &log, &buf, &len);
	struct elanhid_model *m;
	unsigned read0;

	(void)state;
	assert_int_equal(emub_wait_idle(eb, "touchpad", 10000), 0);
	assert_true(emub_dev_bound(eb, "touchpad"));
	assert_int_equal(emub_input_node(eb, "touchpad", node, sizeof(node)), 0);
	assert_true(log_has(log, &buf, "touch pad 3209x2097, 5 contacts"));
	/* hid-multitouch switched the pad to multi-touch reports */
	emub_lock(eb);
	m = emub_chip_elanhid(eb, "touchpad");
	assert_non_null(m);
	assert_int_equal(m->input_mode, 3);
	read0 = elanhid_model_stats(m)->reports_read;
	emub_unlock(eb);
	/* a touch: the driver's interrupt handler reads the report */
	assert_int_equal(emub_elanhid_touch(eb, "touchpad", 0, 321, 654, true), 0);
	assert_int_equal(emub_wait_idle(eb, "touchpad", 10000), 0);
	emub_lock(eb);
	assert_int_equal(elanhid_model_stats(m)->reports_read, read0 + 1);
	emub_unlock(eb);
	assert_true(log_has(log, &buf, "touch report: contact 0 down at 321,654"));
	emub_free(eb);
	fclose(log);
	free(buf);
}

#define SYSDEV "/sys/bus/i2c/devices/1-0015"

/* The hid device i2c_hid adds below the client, as hid-core names it and
 * as Debian's 6.12 showed it in the VM (kmod-touchfw-elanhid): BUS_I2C,
 * the descriptor's vendor and product, hid-core's number; its uevent;
 * hid-multitouch bound to it and its input device below it, none on the
 * client.  An unbind takes them all away; a rebind adds a hid device with
 * the next number. */
static void test_i2c_hid_registers_its_input_device_below_a_hid_device(void **state)
{
	FILE *log;
	char *buf = NULL, *out, *hid, *ev, *again;
	size_t len = 0;
	struct emub *eb = board(BOARD("5", ""), &log, &buf, &len);
	unsigned n1, n2;

	(void)state;
	assert_int_equal(emub_wait_idle(eb, "touchpad", 10000), 0);
	assert_true(emub_dev_bound(eb, "touchpad"));
	tu_sh(eb, &hid, "cd " SYSDEV " && ls -d *:*:*.* 2>/dev/null");
	g_strchomp(hid);
	assert_int_equal(strlen(hid), 19);
	assert_int_equal(sscanf(hid, "0018:04F3:3195.%4X", &n1), 1);
	assert_true(n1 >= 1);
	tu_sh(eb, &out, "cat " SYSDEV "/%s/uevent", hid);
	assert_contains(out, "DRIVER=hid-multitouch\nHID_ID=0018:000004F3:00003195\n"
			     "HID_NAME=hid-over-i2c 04F3:3195\nHID_PHYS=1-0015\nHID_UNIQ=\n"
			     "MODALIAS=hid:b0018g0002v000004F3p00003195\n");
	g_free(out);
	tu_sh(eb, &out,
	      "cd " SYSDEV "/%s && basename \"$(readlink subsystem)\" && "
	      "basename \"$(readlink driver)\" && ls -d /sys/bus/hid/devices/%s && "
	      "ls -d " SYSDEV "/input 2>&1 | sed 's/.*: //'; "
	      "for i in input/input*; do cat $i/name; "
	      "[ \"$(readlink -f $i/device)\" = \"$(pwd -P)\" ] && echo parent ok; "
	      "ls $i | grep '^event'; done",
	      hid, hid);
	tu_sh(eb, &ev, "ls " SYSDEV "/%s/input/input*/ | grep '^event'", hid);
	g_strchomp(ev);
	again = g_strdup_printf("hid\nhid-multitouch\n/sys/bus/hid/devices/%s\n"
				"No such file or directory\nhid-over-i2c 04F3:3195 Touchpad\n"
				"parent ok\n%s\n",
				hid, ev);
	assert_string_equal(out, again);
	g_free(again);
	g_free(out);
	/* unbound: the hid device and its input device are gone */
	assert_int_equal(emub_unbind(eb, "touchpad"), 0);
	assert_int_equal(emub_wait_idle(eb, "touchpad", 10000), 0);
	tu_sh(eb, &out, "ls " SYSDEV "; ls /sys/bus/hid/devices");
	assert_not_contains(out, ":3195.");
	assert_not_contains(out, "input");
	g_free(out);
	/* bound again: the next number */
	assert_int_equal(emub_bind(eb, "touchpad"), 0);
	assert_int_equal(emub_wait_idle(eb, "touchpad", 10000), 0);
	tu_sh(eb, &again, "cd " SYSDEV " && ls -d *:*:*.* 2>/dev/null");
	assert_int_equal(sscanf(again, "0018:04F3:3195.%4X", &n2), 1);
	assert_int_equal(n2, n1 + 1);
	g_free(again);
	g_free(hid);
	g_free(ev);
	emub_free(eb);
	fclose(log);
	free(buf);
}

static void test_i2c_hid_probe_fails_on_a_bricked_part(void **state)
{
	FILE *log;
	char *buf = NULL, node[64];
	size_t len = 0;
	struct emub *eb = board(BOARD("0", "bound = false\n"), &log, &buf, &len);

	(void)state;
	assert_int_equal(emub_bind(eb, "touchpad"), -ENODEV);
	assert_false(emub_dev_bound(eb, "touchpad"));
	assert_int_equal(emub_input_node(eb, "touchpad", node, sizeof(node)), -ENODEV);
	assert_true(log_has(log, &buf, "unexpected HID descriptor bcdVersion (0xffff)"));
	emub_free(eb);
	fclose(log);
	free(buf);
}

/* The same with the descriptor register read all zero, and without an
 * interrupt line (i2c-hid needs one before it reads anything). */
static void test_i2c_hid_probe_refusals(void **state)
{
	FILE *log;
	char *buf = NULL;
	size_t len = 0;
	struct emub *eb = board(BOARD("0", "bound = false\nelanhid.iap_descriptor = zero\n"),
				&log, &buf, &len);

	(void)state;
	assert_int_equal(emub_bind(eb, "touchpad"), -ENODEV);
	assert_true(log_has(log, &buf, "unexpected HID descriptor bcdVersion (0x0000)"));
	emub_free(eb);
	fclose(log);
	free(buf);
	buf = NULL;
	eb = board("[board]\nname = elanhid\ncompatible = t,elanhid\n[adapter 1]\n"
		   "[chip touchpad]\nadapter = 1\naddress = 0x15\nmodel = elanhid\n"
		   "compatible = hid-over-i2c\ndriver = i2c_hid_of\nelanhid.module_id = 0xf1\n"
		   "elanhid.fw_version = 5\npower = always-on\nbound = false\n",
		   &log, &buf, &len);
	assert_int_equal(emub_bind(eb, "touchpad"), -EINVAL);
	assert_true(log_has(log, &buf, "has not been provided an Int IRQ"));
	emub_free(eb);
	fclose(log);
	free(buf);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_main_mode_answers_the_hid_descriptor_and_reports),
		cmocka_unit_test(test_iap_mode_answers_a_broken_descriptor_and_echoes),
		cmocka_unit_test(test_iap_recovery_writes_128_byte_pages_and_boots),
		cmocka_unit_test(test_image_of_another_module_stays_in_iap),
		cmocka_unit_test(test_i2c_hid_binds_a_working_part_with_a_touchpad_input),
		cmocka_unit_test(test_i2c_hid_registers_its_input_device_below_a_hid_device),
		cmocka_unit_test(test_i2c_hid_probe_fails_on_a_bricked_part),
		cmocka_unit_test(test_i2c_hid_probe_refusals),
	};

	(void)argc;
	tu_init(argv);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
