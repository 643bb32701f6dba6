// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The page-program bootloader's state and rules; see em_iap.h.
 */
#include "em_iap.h"

static const em_u8 signature[EM_IAP_SIG_LEN] = { 0xaa, 0x55, 0xcc, 0x33, 0xff, 0xff };

em_u32 em_iap_start(em_u32 pages, em_u32 start)
{
	return start && start < pages ? start : EM_IAP_DEFAULT_START;
}

void em_iap_init(struct em_iap *p, em_u32 page, em_u32 pages, em_u32 start)
{
	em_memset(p, 0, sizeof(*p));
	p->page = page;
	p->pages = pages;
	p->start = em_iap_start(pages, start);
}

void em_iap_reset(struct em_iap *p)
{
	p->unlocked = false;
	p->password = 0;
	p->ctrl_err = 0;
}

void em_iap_unlock(struct em_iap *p, em_u8 *flash)
{
	p->unlocked = true;
	p->page_ptr = p->start;
	p->sum = 0;
	em_memset(flash + (p->pages - 1) * p->page, 0xff, p->page);
}

em_u16 em_iap_page_sum(const struct em_iap *p, const em_u8 *data)
{
	em_u16 s = 0;
	em_u32 j;

	for (j = 0; j < p->page; j += 2)
		s = (em_u16)(s + em_get_le16(data + j));
	return s;
}

em_u16 em_iap_app_sum(const struct em_iap *p, const em_u8 *flash)
{
	em_u16 s = 0;
	em_u32 n;

	for (n = p->start; n < p->pages; n++)
		s = (em_u16)(s + em_iap_page_sum(p, flash + n * p->page));
	return s;
}

static em_u32 sig_addr(const struct em_iap *p)
{
	return p->page * p->pages - EM_IAP_SIG_LEN;
}

bool em_iap_app_valid(const struct em_iap *p, const em_u8 *flash, em_u16 product_id)
{
	return !em_memcmp(flash + sig_addr(p), signature, EM_IAP_SIG_LEN) &&
	       em_get_le16(flash + sig_addr(p) - 4) == product_id;
}

em_u8 em_iap_app_version(const struct em_iap *p, const em_u8 *flash)
{
	return flash[sig_addr(p) - 2];
}

bool em_iap_accepts(struct em_iap *p, bool ready)
{
	if (ready && p->unlocked && p->page_ptr < p->pages)
		return true;
	p->ctrl_err |= EM_IAP_ERR_INTF;
	return false;
}

enum em_iap_page em_iap_program(struct em_iap *p, em_u8 *flash, const em_u8 *frame, bool fail)
{
	const em_u8 *data = frame + EM_IAP_FRAME_HEAD;
	em_u16 want = em_iap_page_sum(p, data);

	if (em_get_le16(data + p->page) != want || fail) {
		p->ctrl_err |= EM_IAP_ERR_PAGE;
		return EM_IAP_BAD;
	}
	p->ctrl_err = 0;
	em_memcpy(flash + p->page_ptr * p->page, data, p->page);
	p->sum = (em_u16)(p->sum + want);
	p->page_ptr++;
	return p->page_ptr == p->pages ? EM_IAP_LAST : EM_IAP_WRITTEN;
}

void em_iap_lay_out(const struct em_iap *p, em_u8 *out, em_u16 product_id, em_u8 fw_version)
{
	em_u32 words = p->start * p->page / 2;

	em_put_le16(out + 0x106, (em_u16)words);
	/* the word at the application's start points (in words) to the
	 * product id, which follows it */
	em_put_le16(out + words * 2, (em_u16)(words + 1));
	em_put_le16(out + words * 2 + 2, product_id);
	em_put_le16(out + sig_addr(p) - 4, product_id);
	out[sig_addr(p) - 2] = fw_version;
	em_memcpy(out + sig_addr(p), signature, EM_IAP_SIG_LEN);
}
