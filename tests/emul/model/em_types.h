/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shim header for the host-agnostic chip models.  The models are plain,
 * freestanding C state machines: no libc, no allocation, no floating point.
 * The same sources build into the umockdev emulator (user space), into the
 * in-process unit tests, and into a test kernel module behind a real i2c
 * adapter.  This header is the only place that knows which of those it is.
 */
#ifndef EM_TYPES_H
#define EM_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/stddef.h>
typedef u8 em_u8;
typedef u16 em_u16;
typedef u32 em_u32;
typedef u64 em_u64;
typedef s64 em_s64;
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
typedef uint8_t em_u8;
typedef uint16_t em_u16;
typedef uint32_t em_u32;
typedef uint64_t em_u64;
typedef int64_t em_s64;
#endif

#define EM_NSEC_PER_USEC 1000ULL
#define EM_NSEC_PER_MSEC 1000000ULL
#define EM_NSEC_PER_SEC 1000000000ULL
#define EM_NEVER (~(em_u64)0)

#define EM_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The models must not depend on libc, so they carry their own tiny helpers. */
static inline void em_memcpy(void *dst, const void *src, size_t n)
{
	em_u8 *d = (em_u8 *)dst;
	const em_u8 *s = (const em_u8 *)src;

	while (n--)
		*d++ = *s++;
}

static inline void em_memset(void *dst, int c, size_t n)
{
	em_u8 *d = (em_u8 *)dst;

	while (n--)
		*d++ = (em_u8)c;
}

static inline int em_memcmp(const void *a, const void *b, size_t n)
{
	const em_u8 *x = (const em_u8 *)a, *y = (const em_u8 *)b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x < *y ? -1 : 1;
	return 0;
}

/* Little-endian fields, as most chips lay out their registers and images. */
static inline em_u16 em_get_le16(const void *p)
{
	const em_u8 *b = (const em_u8 *)p;

	return (em_u16)(b[0] | b[1] << 8);
}

static inline em_u32 em_get_le32(const void *p)
{
	const em_u8 *b = (const em_u8 *)p;

	return (em_u32)b[0] | (em_u32)b[1] << 8 | (em_u32)b[2] << 16 | (em_u32)b[3] << 24;
}

/* A 24-bit field (some families' CRCs are this wide). */
static inline em_u32 em_get_le24(const void *p)
{
	const em_u8 *b = (const em_u8 *)p;

	return (em_u32)b[0] | (em_u32)b[1] << 8 | (em_u32)b[2] << 16;
}

static inline void em_put_le16(void *p, em_u16 v)
{
	em_u8 *b = (em_u8 *)p;

	b[0] = (em_u8)v;
	b[1] = (em_u8)(v >> 8);
}

static inline void em_put_le32(void *p, em_u32 v)
{
	em_u8 *b = (em_u8 *)p;

	b[0] = (em_u8)v;
	b[1] = (em_u8)(v >> 8);
	b[2] = (em_u8)(v >> 16);
	b[3] = (em_u8)(v >> 24);
}

#endif /* EM_TYPES_H */
