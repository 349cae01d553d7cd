/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: WARN_ON() prints and counts, BUG_ON() aborts. */
#ifndef _SHIM_LINUX_BUG_H
#define _SHIM_LINUX_BUG_H

#include <stdio.h>
#include <stdlib.h>

/* Incremented by every WARN; host tests may check it stays zero. */
extern int shim_warn_count;

#define WARN(cond, fmt, ...)	({					\
	int __c = !!(cond);						\
	if (__c) {							\
		shim_warn_count++;					\
		fprintf(stderr, "WARNING: %s:%d: " fmt "\n",		\
			__FILE__, __LINE__, ##__VA_ARGS__);		\
	}								\
	__c; })
#define WARN_ON(cond)		WARN(cond, "%s", #cond)
#define WARN_ONCE(cond, ...)	WARN(cond, __VA_ARGS__)
#define WARN_ON_ONCE(cond)	WARN_ON(cond)
#define BUG_ON(cond)		do { if (cond) abort(); } while (0)
#define BUG()			abort()
#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), #cond)
#define BUILD_BUG_ON_MSG(cond, msg) _Static_assert(!(cond), msg)

#endif
