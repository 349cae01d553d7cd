/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON numbers (RFC 8259) of the varlink core, with integer arithmetic
 * only: the kernel has no FPU.
 *
 * A number stays the lexeme the tokenizer checked with vl_json_num_scan().
 * vl_json_num_cmp() compares the values of two lexemes exactly, taking
 * each apart as sign * 0.DIGITS * 10^exp (struct vl_json_dec), and
 * vl_json_fixed_fmt() writes a fixed-point integer as a lexeme.
 */
#ifndef _VL_JSON_NUMBER_H
#define _VL_JSON_NUMBER_H

#include <linux/types.h>

/* Most decimals of a fixed-point number: 10^18 still fits an s64. */
#define VL_JSON_DECIMALS_MAX	18

/**
 * vl_json_is_digit() - whether @c is an ASCII digit
 * @c: a byte
 *
 * Return: true for '0' to '9'.
 */
static inline bool vl_json_is_digit(u8 c)
{
	return (u8)(c - '0') < 10;
}

const u8 *vl_json_num_scan(const u8 *p, const u8 *end, u8 *flags,
			   const char **emsg);
int vl_json_num_cmp(const char *a, size_t alen, const char *b, size_t blen);
int vl_json_fixed_fmt(char *buf, size_t size, s64 v, unsigned int decimals);

/* A number lexeme as sign * 0.DIGITS * 10^exp, digits from @dig to @end. */
struct vl_json_dec {
	const u8 *dig;
	const u8 *end;
	s64 exp;
	int sign;
};

void vl_json_dec_parse(struct vl_json_dec *d, const u8 *p, const u8 *end);

/* The next significant digit, '0' after the last. */
static inline u8 vl_json_dec_next(const struct vl_json_dec *d, const u8 **p)
{
	if (*p < d->end && **p == '.')
		(*p)++;
	return *p < d->end ? *(*p)++ : '0';
}

#endif /* _VL_JSON_NUMBER_H */
