/*
 * tf_gpio_reset_pulse (agent/gpio.c): the reset pulse of a family's
 * caps.reset, with and without the interrupt line driven during it, seen
 * from underneath the libgpiod backend the build has (agent/gpio-gpiod1.c
 * or agent/gpio-gpiod2.c, TF_GPIOD_MAJOR from the Makefile).  This program
 * defines the libgpiod calls that backend makes, so they take the place of
 * libgpiod's: with 1.6 each line found is a fresh chip handle, with 2 one
 * chip has every line and each request is its own; every request, value
 * change, release and close is recorded with the time it was made; a line
 * can be refused.  Every chip handle, request and libgpiod object must be
 * closed or freed by the end of each test.  The tests check the order of what
 * touchfw did and lower bounds of the waits between.
 */
#include <dirent.h>
#include <errno.h>
#include <gpiod.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpio.h"
#include "util.h"

#define MAX_EV 32
#define MAX_LINES 16

struct ev {
	int conn;	/* the line handle, from 1 */
	char what[128]; /* "REQUEST ...", "SET v", "RELEASE", "CLOSE" */
	uint64_t t_us;
};

/* A line as the backend holds it: libgpiod 1.6's line handle (with its
 * own chip), libgpiod 2's line request. */
struct fake_line {
	int no;
	char name[40];
	bool requested, output, closed;
};

static struct {
	struct ev ev[MAX_EV];
	int n_ev;
	struct fake_line lines[MAX_LINES];
	int n_lines;
	char refuse[32];	   /* refuse requests of this line ... */
	int refuse_n;		   /* ... this many times ... */
	int refuse_errno;	   /* ... with this errno */
	int chips_open;		   /* libgpiod 2: chip handles not closed */
	int objects;		   /* libgpiod 2: settings, configs, buffers not freed */
	char names[MAX_LINES][40]; /* libgpiod 2: the chip's line names by offset */
	int n_names;
} S;

static uint64_t now_us(void)
{
	return tf_now_ms() * 1000;
}

static void record(const struct fake_line *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void record(const struct fake_line *l, const char *fmt, ...)
{
	va_list ap;

	if (S.n_ev >= MAX_EV)
		fail_msg("more than %d GPIO calls", MAX_EV);
	S.ev[S.n_ev].conn = l->no;
	va_start(ap, fmt);
	vsnprintf(S.ev[S.n_ev].what, sizeof(S.ev[S.n_ev].what), fmt, ap);
	va_end(ap);
	S.ev[S.n_ev].t_us = now_us();
	S.n_ev++;
}

#if TF_GPIOD_MAJOR >= 2
/* ---------------------------------------------- libgpiod 2, as faked */

/*
 * One chip, gpiochip0, that has every line the backend asks for by name
 * (each name gets the next offset); the backend walks /dev for it, so
 * this program's scandir() lists it.
 */
int scandir(const char *dir, struct dirent ***namelist, int (*filter)(const struct dirent *),
	    int (*compar)(const struct dirent **, const struct dirent **))
{
	struct dirent *d = calloc(1, sizeof(*d));

	(void)compar;
	assert_string_equal(dir, "/dev");
	assert_non_null(d);
	snprintf(d->d_name, sizeof(d->d_name), "gpiochip0");
	if (filter && !filter(d)) {
		free(d);
		*namelist = NULL;
		return 0;
	}
	*namelist = calloc(1, sizeof(**namelist));
	assert_non_null(*namelist);
	(*namelist)[0] = d;
	return 1;
}

bool gpiod_is_gpiochip_device(const char *path)
{
	return !strcmp(path, "/dev/gpiochip0");
}

struct gpiod_chip *gpiod_chip_open(const char *path)
{
	assert_string_equal(path, "/dev/gpiochip0");
	S.chips_open++;
	return (struct gpiod_chip *)&S.chips_open;
}

void gpiod_chip_close(struct gpiod_chip *chip)
{
	assert_ptr_equal(chip, &S.chips_open);
	assert_true(S.chips_open > 0);
	S.chips_open--;
}

int gpiod_chip_get_line_offset_from_name(struct gpiod_chip *chip, const char *name)
{
	int i;

	assert_ptr_equal(chip, &S.chips_open);
	for (i = 0; i < S.n_names && strcmp(S.names[i], name); i++)
		;
	if (i == S.n_names) {
		if (S.n_names >= MAX_LINES)
			fail_msg("more than %d line names", MAX_LINES);
		snprintf(S.names[S.n_names++], sizeof(S.names[0]), "%s", name);
	}
	return i;
}

struct gpiod_chip_info *gpiod_chip_get_info(struct gpiod_chip *chip)
{
	(void)chip;
	fail_msg("chip info read: the tests name lines");
	return NULL;
}

struct fake_settings {
	enum gpiod_line_direction dir;
	enum gpiod_line_value value;
	enum gpiod_line_edge edge;
	bool active_low;
};

struct fake_config {
	struct fake_settings s;
	unsigned int offset;
	int n;
	char consumer[32];
};

static void *new_object(size_t size)
{
	void *p = calloc(1, size);

	assert_non_null(p);
	S.objects++;
	return p;
}

static void free_object(void *p)
{
	if (!p)
		return;
	S.objects--;
	free(p);
}

struct gpiod_line_settings *gpiod_line_settings_new(void)
{
	return new_object(sizeof(struct fake_settings));
}

void gpiod_line_settings_free(struct gpiod_line_settings *s)
{
	free_object(s);
}

int gpiod_line_settings_set_direction(struct gpiod_line_settings *s,
				      enum gpiod_line_direction dir)
{
	((struct fake_settings *)s)->dir = dir;
	return 0;
}

int gpiod_line_settings_set_output_value(struct gpiod_line_settings *s,
					 enum gpiod_line_value value)
{
	((struct fake_settings *)s)->value = value;
	return 0;
}

int gpiod_line_settings_set_edge_detection(struct gpiod_line_settings *s,
					   enum gpiod_line_edge edge)
{
	((struct fake_settings *)s)->edge = edge;
	return 0;
}

void gpiod_line_settings_set_active_low(struct gpiod_line_settings *s, bool active_low)
{
	((struct fake_settings *)s)->active_low = active_low;
}

struct gpiod_line_config *gpiod_line_config_new(void)
{
	return new_object(sizeof(struct fake_config));
}

void gpiod_line_config_free(struct gpiod_line_config *c)
{
	free_object(c);
}

int gpiod_line_config_add_line_settings(struct gpiod_line_config *c,
					const unsigned int *offsets, size_t num_offsets,
					struct gpiod_line_settings *s)
{
	struct fake_config *fc = (struct fake_config *)c;

	assert_int_equal(num_offsets, 1);
	fc->s = *(struct fake_settings *)s;
	fc->offset = offsets[0];
	fc->n = 1;
	return 0;
}

struct gpiod_request_config *gpiod_request_config_new(void)
{
	return new_object(sizeof(struct fake_config));
}

void gpiod_request_config_free(struct gpiod_request_config *c)
{
	free_object(c);
}

void gpiod_request_config_set_consumer(struct gpiod_request_config *c, const char *consumer)
{
	snprintf(((struct fake_config *)c)->consumer,
		 sizeof(((struct fake_config *)c)->consumer), "%s", consumer);
}

static struct fake_line *fake(struct gpiod_line_request *req)
{
	struct fake_line *l = (struct fake_line *)req;

	if (l < S.lines || l >= S.lines + S.n_lines)
		fail_msg("a line request libgpiod did not give");
	if (!l->requested)
		fail_msg("line %s used after its release", l->name);
	return l;
}

struct gpiod_line_request *gpiod_chip_request_lines(struct gpiod_chip *chip,
						    struct gpiod_request_config *req_cfg,
						    struct gpiod_line_config *line_cfg)
{
	struct fake_config *rc = (struct fake_config *)req_cfg,
			   *lc = (struct fake_config *)line_cfg;
	struct fake_line *l;
	bool output;

	assert_ptr_equal(chip, &S.chips_open);
	assert_string_equal(rc->consumer, "touchfw");
	assert_int_equal(lc->n, 1);
	assert_false(lc->s.active_low);
	output = lc->s.dir == GPIOD_LINE_DIRECTION_OUTPUT;
	if (!output) {
		assert_int_equal(lc->s.dir, GPIOD_LINE_DIRECTION_INPUT);
		assert_int_equal(lc->s.edge, GPIOD_LINE_EDGE_BOTH);
	}
	for (int i = 0; i < S.n_lines; i++)
		if (S.lines[i].requested && !strcmp(S.lines[i].name, S.names[lc->offset])) {
			errno = EBUSY;
			return NULL;
		}
	if (S.n_lines >= MAX_LINES)
		fail_msg("more than %d requests", MAX_LINES);
	l = &S.lines[S.n_lines++];
	memset(l, 0, sizeof(*l));
	l->no = S.n_lines;
	l->closed = true; /* a refused request is nothing to release */
	memcpy(l->name, S.names[lc->offset], sizeof(l->name));
	if (output)
		record(l, "REQUEST name=%s dir=out value=%d", l->name,
		       lc->s.value == GPIOD_LINE_VALUE_ACTIVE);
	else
		record(l, "REQUEST name=%s dir=in", l->name);
	if (S.refuse_n && !strcmp(l->name, S.refuse)) {
		S.refuse_n--;
		errno = S.refuse_errno;
		return NULL;
	}
	l->requested = true;
	l->output = output;
	l->closed = false;
	return (struct gpiod_line_request *)l;
}

enum gpiod_line_value gpiod_line_request_get_value(struct gpiod_line_request *req,
						   unsigned int offset)
{
	struct fake_line *l = fake(req);

	assert_string_equal(S.names[offset], l->name);
	record(l, "GET");
	return GPIOD_LINE_VALUE_INACTIVE;
}

int gpiod_line_request_set_value(struct gpiod_line_request *req, unsigned int offset,
				 enum gpiod_line_value value)
{
	struct fake_line *l = fake(req);

	assert_string_equal(S.names[offset], l->name);
	if (!l->output) {
		errno = EPERM;
		return -1;
	}
	record(l, "SET %d", value == GPIOD_LINE_VALUE_ACTIVE);
	return 0;
}

int gpiod_line_request_wait_edge_events(struct gpiod_line_request *req, int64_t timeout_ns)
{
	(void)fake(req);
	(void)timeout_ns;
	return 0;
}

int gpiod_line_request_read_edge_events(struct gpiod_line_request *req,
					struct gpiod_edge_event_buffer *buffer,
					size_t max_events)
{
	(void)fake(req);
	(void)buffer;
	(void)max_events;
	errno = EAGAIN;
	return -1;
}

struct gpiod_edge_event_buffer *gpiod_edge_event_buffer_new(size_t capacity)
{
	assert_int_equal(capacity, 1);
	return new_object(1);
}

void gpiod_edge_event_buffer_free(struct gpiod_edge_event_buffer *buffer)
{
	free_object(buffer);
}

struct gpiod_edge_event *
gpiod_edge_event_buffer_get_event(struct gpiod_edge_event_buffer *buffer, unsigned long index)
{
	(void)buffer;
	(void)index;
	fail_msg("an event taken that was never read");
	return NULL;
}

enum gpiod_edge_event_type gpiod_edge_event_get_event_type(struct gpiod_edge_event *event)
{
	(void)event;
	fail_msg("an event's type read that was never read");
	return GPIOD_EDGE_EVENT_RISING_EDGE;
}

void gpiod_line_request_release(struct gpiod_line_request *req)
{
	struct fake_line *l = fake(req);

	record(l, "RELEASE");
	l->requested = false;
	l->closed = true;
}

/* What releasing one line records: RELEASE (its chip was closed at once). */
#define RELEASE_EVENTS 1
#else
/* ---------------------------------------------- libgpiod 1.6, as faked */

static struct fake_line *fake(struct gpiod_line *line)
{
	struct fake_line *l = (struct fake_line *)line;

	if (l < S.lines || l >= S.lines + S.n_lines)
		fail_msg("a line handle libgpiod did not give");
	if (l->closed)
		fail_msg("line %s used after its chip was closed", l->name);
	return l;
}

struct gpiod_line *gpiod_line_find(const char *name)
{
	struct fake_line *l;

	if (S.n_lines >= MAX_LINES)
		fail_msg("more than %d lines found", MAX_LINES);
	l = &S.lines[S.n_lines++];
	memset(l, 0, sizeof(*l));
	l->no = S.n_lines;
	snprintf(l->name, sizeof(l->name), "%s", name);
	return (struct gpiod_line *)l;
}

struct gpiod_chip *gpiod_chip_open_lookup(const char *descr)
{
	fail_msg("chip %s looked up: the tests name lines", descr);
	return NULL;
}

struct gpiod_line *gpiod_chip_get_line(struct gpiod_chip *chip, unsigned int offset)
{
	(void)chip;
	(void)offset;
	fail_msg("gpiod_chip_get_line without a chip");
	return NULL;
}

void gpiod_chip_close(struct gpiod_chip *chip)
{
	(void)chip;
	fail_msg("gpiod_chip_close without a chip");
}

static int request(struct gpiod_line *line, const char *consumer, int flags, bool output,
		   int value)
{
	struct fake_line *l = fake(line);

	assert_string_equal(consumer, "touchfw");
	assert_int_equal(flags, 0);
	if (l->requested) {
		errno = EBUSY;
		return -1;
	}
	if (output)
		record(l, "REQUEST name=%s dir=out value=%d", l->name, value);
	else
		record(l, "REQUEST name=%s dir=in", l->name);
	if (S.refuse_n && !strcmp(l->name, S.refuse)) {
		S.refuse_n--;
		errno = S.refuse_errno;
		return -1;
	}
	l->requested = true;
	l->output = output;
	return 0;
}

int gpiod_line_request_output_flags(struct gpiod_line *line, const char *consumer, int flags,
				    int default_val)
{
	return request(line, consumer, flags, true, default_val);
}

int gpiod_line_request_both_edges_events_flags(struct gpiod_line *line, const char *consumer,
					       int flags)
{
	return request(line, consumer, flags, false, 0);
}

int gpiod_line_get_value(struct gpiod_line *line)
{
	struct fake_line *l = fake(line);

	record(l, "GET");
	return 0;
}

int gpiod_line_set_value(struct gpiod_line *line, int value)
{
	struct fake_line *l = fake(line);

	if (!l->requested || !l->output) {
		errno = EPERM;
		return -1;
	}
	record(l, "SET %d", value);
	return 0;
}

int gpiod_line_event_wait(struct gpiod_line *line, const struct timespec *timeout)
{
	(void)fake(line);
	(void)timeout;
	return 0;
}

int gpiod_line_event_read(struct gpiod_line *line, struct gpiod_line_event *event)
{
	(void)fake(line);
	(void)event;
	errno = EAGAIN;
	return -1;
}

void gpiod_line_release(struct gpiod_line *line)
{
	struct fake_line *l = fake(line);

	if (l->requested)
		record(l, "RELEASE");
	l->requested = false;
}

void gpiod_line_close_chip(struct gpiod_line *line)
{
	struct fake_line *l = fake(line);

	if (l->requested)
		record(l, "RELEASE");
	record(l, "CLOSE");
	l->requested = false;
	l->closed = true;
}

/* What releasing one line records: RELEASE, then CLOSE of its chip. */
#define RELEASE_EVENTS 2
#endif

/* ------------------------------------------------------------ tests */

static int setup(void **state)
{
	(void)state;
	memset(&S, 0, sizeof(S));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (int i = 0; i < S.n_lines; i++)
		if (!S.lines[i].closed)
			fail_msg("line %s was never closed", S.lines[i].name);
	if (S.chips_open)
		fail_msg("%d chip handles never closed", S.chips_open);
	if (S.objects)
		fail_msg("%d libgpiod objects never freed", S.objects);
	return 0;
}

static const struct tf_gpio_spec RST = { .chip = "", .line = -1, .name = "RST" };
static const struct tf_gpio_spec INT = { .chip = "", .line = -1, .name = "INT" };

/* The index of the first event from @from on whose text starts with
 * @what; fails if there is none. */
static int find(int from, const char *what)
{
	int i;

	for (i = from; i < S.n_ev; i++)
		if (!strncmp(S.ev[i].what, what, strlen(what)))
			return i;
	for (i = 0; i < S.n_ev; i++)
		print_message("  event %d: conn %d %s\n", i, S.ev[i].conn, S.ev[i].what);
	fail_msg("no event '%s' from %d on", what, from);
	return -1;
}

/* Make libgpiod refuse the next @times REQUESTs of line @name. */
static void refuse(const char *name, int times, int err)
{
	snprintf(S.refuse, sizeof(S.refuse), "%s", name);
	S.refuse_n = times;
	S.refuse_errno = err;
}

static void release(struct tf_reset_lines *l)
{
	tf_gpio_release(l->reset);
	tf_gpio_release(l->irq);
}

static void test_plain_pulse_keeps_int_an_input(void **state)
{
	const struct tf_reset_seq rs = { .assert_us = 20000, .release_us = 30000 };
	struct tf_reset_lines l;
	uint64_t t_end;
	int a, b, c;

	(void)state;
	tf_gpio_reset_pulse(&rs, &RST, &INT, 0, &l);
	t_end = now_us();
	assert_non_null(l.reset);
	assert_non_null(l.irq);
	assert_true(l.pulsed);
	assert_false(l.irq_driven);
	a = find(0, "REQUEST name=INT dir=in");
	b = find(a + 1, "REQUEST name=RST dir=out value=1");
	c = find(b + 1, "SET 0");
	assert_int_equal(S.ev[c].conn, S.ev[b].conn);
	assert_true(S.ev[c].t_us - S.ev[b].t_us >= rs.assert_us);
	assert_true(t_end - S.ev[c].t_us >= rs.release_us);
	assert_int_equal(S.n_ev, 3); /* INT never driven, nothing released */
	release(&l);
	assert_int_equal(S.n_ev, 3 + 2 * RELEASE_EVENTS); /* both released (and closed) */
}

static void expect_driven_pulse(int level)
{
	const struct tf_reset_seq rs = { .assert_us = 20000,
					 .release_us = 60000,
					 .drive_int = true,
					 .int_level = level,
					 .int_hold_us = 25000 };
	struct tf_reset_lines l;
	char want[64];
	uint64_t t_end;
	int a, b, c, d, e;

	tf_gpio_reset_pulse(&rs, &RST, &INT, 0, &l);
	t_end = now_us();
	assert_non_null(l.reset);
	assert_non_null(l.irq);
	assert_true(l.pulsed);
	assert_true(l.irq_driven);
	snprintf(want, sizeof(want), "REQUEST name=INT dir=out value=%d", level);
	a = find(0, want);
	b = find(a + 1, "REQUEST name=RST dir=out value=1");
	c = find(b + 1, "SET 0");
	d = find(c + 1, "RELEASE");
	e = find(d + 1, "REQUEST name=INT dir=in");
	assert_int_equal(S.ev[c].conn, S.ev[b].conn);
	assert_int_equal(S.ev[d].conn, S.ev[a].conn); /* the driven INT let go */
	assert_true(S.ev[c].t_us - S.ev[b].t_us >= rs.assert_us);
	assert_true(S.ev[d].t_us - S.ev[c].t_us >= rs.int_hold_us);
	assert_true(t_end - S.ev[c].t_us >= rs.release_us);
	(void)e;
	release(&l);
}

static void test_int_driven_low_during_reset(void **state)
{
	(void)state;
	expect_driven_pulse(0);
}

static void test_int_driven_high_during_reset(void **state)
{
	(void)state;
	expect_driven_pulse(1);
}

static void test_no_reset_line_no_driving(void **state)
{
	const struct tf_reset_seq rs = { .assert_us = 1000,
					 .release_us = 2000,
					 .drive_int = true,
					 .int_hold_us = 1000 };
	struct tf_reset_lines l;

	(void)state;
	tf_gpio_reset_pulse(&rs, NULL, &INT, 0, &l);
	assert_null(l.reset);
	assert_non_null(l.irq);
	assert_false(l.pulsed);
	assert_false(l.irq_driven);
	find(0, "REQUEST name=INT dir=in");
	assert_int_equal(S.n_ev, 1);
	release(&l);
}

static void test_refused_reset_leaves_int_an_input(void **state)
{
	const struct tf_reset_seq rs = { .assert_us = 1000,
					 .release_us = 2000,
					 .drive_int = true,
					 .int_hold_us = 1000 };
	struct tf_reset_lines l;
	int a;

	(void)state;
	refuse("RST", 1, EINVAL);
	tf_gpio_reset_pulse(&rs, &RST, &INT, 0, &l);
	assert_null(l.reset);
	assert_false(l.pulsed);
	assert_non_null(strstr(l.reset_err.msg, "RST"));
	assert_non_null(l.irq);
	a = find(0, "REQUEST name=INT dir=out");
	find(a + 1, "REQUEST name=RST");
	a = find(a + 1, "RELEASE");
	find(a + 1, "REQUEST name=INT dir=in");
	release(&l);
}

static void test_busy_line_is_retried(void **state)
{
	const struct tf_reset_seq rs = { .assert_us = 1000, .release_us = 1000 };
	struct tf_reset_lines l;
	int a;

	(void)state;
	refuse("RST", 2, EBUSY);
	tf_gpio_reset_pulse(&rs, &RST, NULL, 2000, &l);
	assert_non_null(l.reset);
	assert_true(l.pulsed);
	assert_null(l.irq);
	a = find(0, "REQUEST name=RST");
	a = find(a + 1, "REQUEST name=RST");
	a = find(a + 1, "REQUEST name=RST");
	find(a + 1, "SET 0");
	release(&l);
}

static void test_busy_line_given_up_without_retry_time(void **state)
{
	const struct tf_reset_seq rs = { .assert_us = 1000, .release_us = 1000 };
	struct tf_reset_lines l;

	(void)state;
	refuse("INT", 1, EBUSY);
	tf_gpio_reset_pulse(&rs, &RST, &INT, 0, &l);
	assert_null(l.irq);
	assert_non_null(strstr(l.irq_err.msg, "INT"));
	assert_non_null(l.reset);
	assert_true(l.pulsed);
	release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_plain_pulse_keeps_int_an_input, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_int_driven_low_during_reset, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_int_driven_high_during_reset, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_reset_line_no_driving, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_reset_leaves_int_an_input, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_busy_line_is_retried, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busy_line_given_up_without_retry_time,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
