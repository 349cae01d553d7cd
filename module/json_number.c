// SPDX-License-Identifier: GPL-2.0
/*
 * JSON numbers of the varlink core, see json_number.h.  Integer
 * arithmetic only: the kernel has no FPU.
 *
 * This file also builds in userspace (selftests/host) behind a small shim.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/types.h>
#include <kunit/visibility.h>

#include "json.h"
#include "json_number.h"

/* Exponents saturate here: adding a position (< 2^32) cannot overflow. */
#define EXP_SAT		1000000000000000000LL

static inline const u8 *skip_digits(const u8 *p, const u8 *end)
{
	while (p < end && vl_json_is_digit(*p))
		p++;
	return p;
}

/**
 * vl_json_num_scan() - scan a number lexeme (RFC 8259)
 * @p:     its first byte
 * @end:   the end of the text
 * @flags: set to VL_JSON_F_NEG, VL_JSON_F_FRAC and VL_JSON_F_EXP as they apply
 * @emsg:  set to NULL, or to a static message on a syntax error
 *
 * Return: where the lexeme ends; on a syntax error, where the error is.
 */
const u8 *vl_json_num_scan(const u8 *p, const u8 *end, u8 *flags,
			   const char **emsg)
{
	*flags = 0;
	*emsg = NULL;
	if (p < end && *p == '-') {
		*flags |= VL_JSON_F_NEG;
		p++;
	}
	if (p == end || !vl_json_is_digit(*p))
		goto digit;
	if (*p == '0') {
		if (++p < end && vl_json_is_digit(*p)) {
			*emsg = "leading zero";
			return p - 1;
		}
	} else {
		p = skip_digits(p, end);
	}
	if (p < end && *p == '.') {
		*flags |= VL_JSON_F_FRAC;
		if (++p == end || !vl_json_is_digit(*p))
			goto digit;
		p = skip_digits(p, end);
	}
	if (p < end && (*p | 0x20) == 'e') {
		*flags |= VL_JSON_F_EXP;
		if (++p < end && (*p == '+' || *p == '-'))
			p++;
		if (p == end || !vl_json_is_digit(*p))
			goto digit;
		p = skip_digits(p, end);
	}
	return p;
digit:
	*emsg = "digit expected";
	return p;
}
EXPORT_SYMBOL_IF_KUNIT(vl_json_num_scan);

static s64 dec_exponent(const u8 *p, const u8 *end)
{
	bool neg = false;
	s64 e = 0;

	if (p < end && (*p == '+' || *p == '-'))
		neg = *p++ == '-';
	for (; p < end; p++)
		e = e >= EXP_SAT / 10 ? EXP_SAT : e * 10 + (*p - '0');
	return neg ? -e : e;
}

/**
 * vl_json_dec_parse() - take a number lexeme apart
 * @d:   set to the lexeme as sign * 0.DIGITS * 10^exp
 * @p:   a valid number lexeme
 * @end: its end
 *
 * Exponents beyond 10^18 in magnitude saturate.  Zero, however written,
 * has sign 0.
 */
void vl_json_dec_parse(struct vl_json_dec *d, const u8 *p, const u8 *end)
{
	const u8 *m, *q;
	s64 ndig = 0, skipped = 0;
	bool point = false;

	d->sign = 1;
	if (p < end && *p == '-') {
		d->sign = -1;
		p++;
	}
	for (m = p; p < end && (vl_json_is_digit(*p) || *p == '.'); p++)
		;
	d->end = p;
	d->exp = p < end ? dec_exponent(p + 1, end) : 0;
	for (q = m; q < d->end; q++) {
		if (*q == '.')
			point = true;
		else if (!point)
			ndig++;
	}
	for (q = m; q < d->end && (*q == '0' || *q == '.'); q++)
		skipped += *q == '0';
	if (q == d->end)
		d->sign = 0;
	d->dig = q;
	d->exp += ndig - skipped;
}
EXPORT_SYMBOL_IF_KUNIT(vl_json_dec_parse);

/**
 * vl_json_num_cmp() - compare the values of two number lexemes exactly
 * @a:    a valid number lexeme (a token's text, or see vl_json_num_scan())
 * @alen: its bytes
 * @b:    another
 * @blen: its bytes
 *
 * "1", "1.0", "10e-1" and "0.1e1" are equal, as are "0" and "-0".  Exact
 * for exponents up to 10^18 in magnitude; larger ones saturate.
 *
 * Return: -1, 0 or 1 as @a is below, equal to or above @b.
 */
int vl_json_num_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	const u8 *pa = (const u8 *)a, *pb = (const u8 *)b;
	struct vl_json_dec da, db;
	int r = 0;

	vl_json_dec_parse(&da, pa, pa + alen);
	vl_json_dec_parse(&db, pb, pb + blen);
	if (da.sign != db.sign)
		return da.sign < db.sign ? -1 : 1;
	if (!da.sign)
		return 0;
	if (da.exp != db.exp) {
		r = da.exp < db.exp ? -1 : 1;
	} else {
		pa = da.dig;
		pb = db.dig;
		while (!r && (pa < da.end || pb < db.end)) {
			u8 ca = vl_json_dec_next(&da, &pa);
			u8 cb = vl_json_dec_next(&db, &pb);

			if (ca != cb)
				r = ca < cb ? -1 : 1;
		}
	}
	return da.sign < 0 ? -r : r;
}
EXPORT_SYMBOL_IF_KUNIT(vl_json_num_cmp);

/**
 * vl_json_fixed_fmt() - format a fixed-point integer as a number lexeme
 * @buf:      destination; gets the lexeme and a NUL
 * @size:     bytes of @buf (24 always suffice)
 * @v:        the value times 10^@decimals
 * @decimals: decimal places, at most VL_JSON_DECIMALS_MAX
 *
 * For example 123 with 2 decimals is "1.23", -5 with 2 is "-0.05".
 *
 * Return: the length of the lexeme; -EINVAL if @decimals is too large,
 * -ENOSPC if @buf is too small.
 */
int vl_json_fixed_fmt(char *buf, size_t size, s64 v, unsigned int decimals)
{
	u64 mag = v < 0 ? -(u64)v : (u64)v;
	char digits[24];
	int n = 0, len, i;
	char *p = buf;

	if (decimals > VL_JSON_DECIMALS_MAX)
		return -EINVAL;
	do {
		digits[n++] = '0' + mag % 10;
		mag /= 10;
	} while (mag || n <= (int)decimals);
	len = (v < 0) + n + (decimals ? 1 : 0);
	if (size <= (size_t)len)
		return -ENOSPC;
	if (v < 0)
		*p++ = '-';
	for (i = n - 1; i >= 0; i--) {
		*p++ = digits[i];
		if (i == (int)decimals && i)
			*p++ = '.';
	}
	*p = '\0';
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(vl_json_fixed_fmt);
