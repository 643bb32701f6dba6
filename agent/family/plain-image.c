// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A firmware image that is the file's bytes as they are (see family.h):
 * for the families whose driver loads the file itself, so that once
 * load_firmware has checked the bytes there is nothing to decode, and
 * kernel_firmware hands the same bytes to the staging.
 */
#include "family/family.h"

#include <errno.h>
#include <stdlib.h>

struct plain_image {
	uint8_t *data;
	size_t len;
};

int tf_plain_image_take(uint8_t *data, size_t len, void **img, struct tf_err *err)
{
	struct plain_image *i = calloc(1, sizeof(*i));

	if (!i) {
		free(data);
		return tf_err_set(err, ENOMEM, "out of memory");
	}
	i->data = data;
	i->len = len;
	*img = i;
	return 0;
}

void tf_plain_image_free(void *img)
{
	struct plain_image *i = img;

	if (i)
		free(i->data);
	free(i);
}

void tf_plain_image_bytes(void *img, const uint8_t **data, size_t *len)
{
	const struct plain_image *i = img;

	*data = i->data;
	*len = i->len;
}
