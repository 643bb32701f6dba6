// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * F01's query registers as rmi_f01_read_properties walks them
 * (drivers/input/rmi4/rmi_f01.c, the same in 6.1 and 6.12), so that a
 * part nobody has bound tells its product and build as rmi_core would:
 *  - queries 0..20 in one read: 0 the manufacturer, 1 the properties
 *    (bit 3 has sensor id, bit 7 has query 42), 11..20 the product id
 *    (10 bytes, "%s": up to the first NUL);
 *  - the optional queries from query base + 21 on: one address on if the
 *    part has a sensor id; query 42 (bit 0: DS4 queries) if the
 *    properties say so; then the DS4 queries' length and, when it is not
 *    0, the DS4 query (bit 0 package id query, bit 1 build id query);
 *  - the product info at query base + 17: the package id (8 bytes) when
 *    it has one, then -- one address on if so -- the build id, 3 bytes
 *    little endian; without a build id query rmi_core's firmware_id is 0.
 * Reads only: nothing here writes the chip.
 */
#include "rmi4.h"

#include <string.h>

#define F01_BASIC_QUERIES 21 /* RMI_F01_BASIC_QUERY_LEN: query 0..20 */
#define F01_QRY1_HAS_SENSOR_ID (1u << 3)
#define F01_QRY1_HAS_QUERY42 (1u << 7)
#define F01_QRY42_DS4 (1u << 0)
#define F01_DS4_PACKAGE_ID (1u << 0)
#define F01_DS4_BUILD_ID (1u << 1)
#define F01_PRODUCT_INFO 17 /* rmi_f01's prod_info_addr: query base + 17 */
#define F01_PACKAGE_ID_LEN 8
#define F01_BUILD_ID_LEN 3

int rmi4_f01_read(rmi4_read_fn rd, void *ctx, uint16_t query, struct rmi4_f01 *f)
{
	uint8_t q[F01_BASIC_QUERIES], b[F01_PACKAGE_ID_LEN], ds4 = 0, len;
	uint16_t at = (uint16_t)(query + F01_BASIC_QUERIES);
	uint16_t info = (uint16_t)(query + F01_PRODUCT_INFO);
	int rc;

	memset(f, 0, sizeof(*f));
	if ((rc = rd(ctx, query, q, sizeof(q))) < 0)
		return rc;
	f->manufacturer = q[0];
	f->properties = q[1];
	memcpy(f->product_id, q + 11, RMI4_PRODUCT_ID_LEN);
	f->product_id[RMI4_PRODUCT_ID_LEN] = '\0';
	if (q[1] & F01_QRY1_HAS_SENSOR_ID)
		at++;
	if (!(q[1] & F01_QRY1_HAS_QUERY42))
		return 0;
	if ((rc = rd(ctx, at++, b, 1)) < 0)
		return rc;
	if (!(b[0] & F01_QRY42_DS4))
		return 0;
	if ((rc = rd(ctx, at++, &len, 1)) < 0)
		return rc;
	if (len > 0 && (rc = rd(ctx, at, &ds4, 1)) < 0)
		return rc;
	if (ds4 & F01_DS4_PACKAGE_ID) {
		if ((rc = rd(ctx, info, b, F01_PACKAGE_ID_LEN)) < 0)
			return rc;
		f->has_package_id = true;
		/* rmi_f01 keeps the low 32 bits (a u32) */
		f->package_id = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
				(uint32_t)b[3] << 24;
		info++;
	}
	if (ds4 & F01_DS4_BUILD_ID) {
		if ((rc = rd(ctx, info, b, F01_BUILD_ID_LEN)) < 0)
			return rc;
		f->has_build_id = true;
		f->build_id = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16;
	}
	return 0;
}
