/* SPDX-License-Identifier: GPL-2.0 */
#include <linux/bug.h>

/* static_assert(expr) or static_assert(expr, msg), as in the kernel */
#ifndef static_assert
#define static_assert(expr, ...)	__static_assert(expr, ##__VA_ARGS__, #expr)
#define __static_assert(expr, msg, ...)	_Static_assert(expr, msg)
#endif
