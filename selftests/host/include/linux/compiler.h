/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: compiler attributes and hints. */
#ifndef _SHIM_LINUX_COMPILER_H
#define _SHIM_LINUX_COMPILER_H

#include <sys/cdefs.h>	/* glibc defines __always_inline */

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define noinline		__attribute__((__noinline__))
#define noinline_for_stack	noinline
#define __maybe_unused		__attribute__((__unused__))
#define __always_unused		__attribute__((__unused__))
#define __packed		__attribute__((__packed__))
#define __aligned(x)		__attribute__((__aligned__(x)))
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#define __must_check		__attribute__((__warn_unused_result__))
#define fallthrough		__attribute__((__fallthrough__))
#define __init
#define __exit
#define __initdata
#define __ro_after_init
#define __user
#define __force
#define __rcu
#define READ_ONCE(x)		(*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile typeof(x) *)&(x) = (v))

#endif
