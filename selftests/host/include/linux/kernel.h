/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: the parts of <linux/kernel.h> the pure files use. */
#ifndef _SHIM_LINUX_KERNEL_H
#define _SHIM_LINUX_KERNEL_H

#include_next <linux/kernel.h>
#include <linux/bits.h>
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/printk.h>
#include <linux/types.h>

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

#endif
