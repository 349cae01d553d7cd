/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: bit helpers. */
#ifndef _SHIM_LINUX_BITS_H
#define _SHIM_LINUX_BITS_H

#define BIT(nr)			(1UL << (nr))
#define BIT_ULL(nr)		(1ULL << (nr))
#define BITS_PER_LONG		(8 * (int)sizeof(long))
#define GENMASK(h, l)		(((~0UL) << (l)) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l)	(((~0ULL) << (l)) & (~0ULL >> (63 - (h))))

#endif
