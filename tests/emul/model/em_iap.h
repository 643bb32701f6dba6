/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A page-program bootloader ("IAP": in-application programming) as some
 * i2c touchpad families run it: the parts differ in their page size and in
 * the registers around it, the bootloader's own rules are the same.
 * Freestanding (see em_types.h); a chip model keeps its flash and embeds
 * a struct em_iap, and answers its registers with what this part keeps.
 *
 *  - Flash: pages of @page bytes, @pages of them.  The boot code fills the
 *    first @start pages (32 unless the part says otherwise); the
 *    application the rest.  A valid application ends in the signature
 *    AA 55 CC 33 FF FF (its last six bytes), with the product id (LE16)
 *    ten bytes before the end and the firmware version eight before it.
 *  - Image layout (the loader's view): the LE16 at byte 0x106 is the
 *    application's first word, counted in words; the word there points, in
 *    words, to the product id that follows it.
 *  - The password 0x1EA5, written once in the application, enters the
 *    bootloader (the model switches its mode); written again there it
 *    unlocks writing: the page pointer goes to the application's first
 *    page, the sum of page sums to zero, and the application's last page
 *    (signature and all) is erased, so an update cut short leaves the chip
 *    in the bootloader.
 *  - A page arrives as 01 06, the page, and its LE16 word sum.  One that
 *    is refused (locked, no room, or whatever the model adds) sets the
 *    interface error (control bit 4); one with a wrong sum the page error
 *    (bit 5); a good one clears both, is written at the pointer, which
 *    moves on, and its sum is added to the sum of page sums.
 */
#ifndef EM_IAP_H
#define EM_IAP_H

#include "em_types.h"

#define EM_IAP_PASSWORD 0x1ea5
#define EM_IAP_DEFAULT_START 32 /* pages of boot code */
#define EM_IAP_SIG_LEN 6
#define EM_IAP_ERR_INTF (1u << 4)
#define EM_IAP_ERR_PAGE (1u << 5)
#define EM_IAP_FRAME_HEAD 2 /* 01 06 */

struct em_iap {
	em_u32 page, pages; /* bytes a page, pages in the flash */
	em_u32 start;	    /* the application's first page */
	bool unlocked;
	em_u16 password, ctrl_err, sum;
	em_u32 page_ptr;
};

/* What em_iap_program() made of a page. */
enum em_iap_page { EM_IAP_WRITTEN, EM_IAP_LAST, EM_IAP_BAD };

/* @start: the application's first page; 0 or beyond the flash: 32. */
void em_iap_init(struct em_iap *p, em_u32 page, em_u32 pages, em_u32 start);
/* The first application page for @start as em_iap_init() takes it. */
em_u32 em_iap_start(em_u32 pages, em_u32 start);
/* A (re)boot: locked, password and errors cleared (the sum stays). */
void em_iap_reset(struct em_iap *p);
/* The password written again in the bootloader: unlock and erase. */
void em_iap_unlock(struct em_iap *p, em_u8 *flash);
/* The LE16 word sum of one page at @data. */
em_u16 em_iap_page_sum(const struct em_iap *p, const em_u8 *data);
/* The sum of the page sums of the application in @flash. */
em_u16 em_iap_app_sum(const struct em_iap *p, const em_u8 *flash);
/* Whether @flash holds a signed application for @product_id. */
bool em_iap_app_valid(const struct em_iap *p, const em_u8 *flash, em_u16 product_id);
/* The firmware version byte of the application in @flash. */
em_u8 em_iap_app_version(const struct em_iap *p, const em_u8 *flash);
/*
 * Whether a page may be written now: unlocked, with room, and @ready (the
 * model's own conditions).  If not, the interface error is set.
 */
bool em_iap_accepts(struct em_iap *p, bool ready);
/*
 * A page frame 01 06 + page + LE16 sum that em_iap_accepts(): a wrong sum
 * or @fail (an injected fault) sets the page error (EM_IAP_BAD); else the
 * page is written (EM_IAP_LAST: it was the last, the chip resets itself).
 */
enum em_iap_page em_iap_program(struct em_iap *p, em_u8 *flash, const em_u8 *frame, bool fail);
/*
 * The loader's layout in @out (a whole flash, filled by the caller): the
 * application's start at 0x106 and its pointer to @product_id, the
 * product id and @fw_version before the signature, and the signature.
 */
void em_iap_lay_out(const struct em_iap *p, em_u8 *out, em_u16 product_id, em_u8 fw_version);

#endif /* EM_IAP_H */
