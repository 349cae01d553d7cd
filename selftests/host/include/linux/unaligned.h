/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: unaligned access through memcpy (one load on x86). */
#ifndef _SHIM_LINUX_UNALIGNED_H
#define _SHIM_LINUX_UNALIGNED_H

#include <string.h>

#define get_unaligned(ptr)	({					\
	__typeof__(*(ptr) + 0) __v;					\
	memcpy(&__v, (ptr), sizeof(__v));				\
	__v; })
#define put_unaligned(val, ptr)	({					\
	__typeof__(*(ptr)) __v = (val);					\
	memcpy((ptr), &__v, sizeof(__v)); })

#endif
