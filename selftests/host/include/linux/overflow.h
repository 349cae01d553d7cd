/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: overflow-checked arithmetic. */
#ifndef _SHIM_LINUX_OVERFLOW_H
#define _SHIM_LINUX_OVERFLOW_H

#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define check_sub_overflow(a, b, d)	__builtin_sub_overflow(a, b, d)
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)

/* size_t arithmetic saturating at SIZE_MAX, as in the kernel */
#include <stddef.h>
#include <stdint.h>

static inline size_t size_mul(size_t a, size_t b)
{
	size_t r;

	return __builtin_mul_overflow(a, b, &r) ? SIZE_MAX : r;
}

static inline size_t size_add(size_t a, size_t b)
{
	size_t r;

	return __builtin_add_overflow(a, b, &r) ? SIZE_MAX : r;
}

#define array_size(a, b)	size_mul(a, b)

#endif
