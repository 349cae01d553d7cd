/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UTF-8 (RFC 3629) of the varlink core: the JSON tokenizer and writer and
 * the IDL parser check text with the same function.
 */
#ifndef _VL_UTF8_H
#define _VL_UTF8_H

#include <linux/types.h>

/**
 * vl_utf8_seq() - check one UTF-8 sequence (RFC 3629)
 * @p:     first byte
 * @avail: bytes available at @p, at least 1
 *
 * Return: the length of the valid sequence at @p (1 to 4), or minus the
 * length of its maximal invalid subpart (Unicode 15, section 3.9): overlong
 * forms, surrogates, code points above U+10FFFF, stray continuation bytes
 * and truncated sequences are all invalid.
 */
static inline int vl_utf8_seq(const u8 *p, size_t avail)
{
	u8 lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] < 0xc2 || p[0] > 0xf4)
		return -1;
	if (p[0] < 0xe0) {
		n = 2;
	} else if (p[0] < 0xf0) {
		n = 3;
		if (p[0] == 0xe0)
			lo = 0xa0;
		else if (p[0] == 0xed)
			hi = 0x9f;
	} else {
		n = 4;
		if (p[0] == 0xf0)
			lo = 0x90;
		else if (p[0] == 0xf4)
			hi = 0x8f;
	}
	for (i = 1; i < n; i++) {
		if (i >= avail || p[i] < lo || p[i] > hi)
			return -(int)i;
		lo = 0x80;
		hi = 0xbf;
	}
	return n;
}

#endif /* _VL_UTF8_H */
