/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: min/max without the kernel's type checks (the kernel build has them). */
#ifndef _SHIM_LINUX_MINMAX_H
#define _SHIM_LINUX_MINMAX_H

#define __shim_cmp(x, y, op)	({			\
	typeof(x) __x = (x);				\
	typeof(y) __y = (y);				\
	__x op __y ? __x : __y; })

#define min(x, y)		__shim_cmp(x, y, <)
#define max(x, y)		__shim_cmp(x, y, >)
#define min3(x, y, z)		min((typeof(x))min(x, y), z)
#define max3(x, y, z)		max((typeof(x))max(x, y), z)
#define min_t(t, x, y)		__shim_cmp((t)(x), (t)(y), <)
#define max_t(t, x, y)		__shim_cmp((t)(x), (t)(y), >)
#define clamp(v, lo, hi)	min((typeof(v))max(v, lo), hi)
#define clamp_t(t, v, lo, hi)	min_t(t, max_t(t, v, lo), hi)
#define swap(a, b)		do {			\
	typeof(a) __t = (a);				\
	(a) = (b);					\
	(b) = __t;					\
} while (0)

#endif
