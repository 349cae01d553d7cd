/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between the kernels this tree builds against, 6.1 to 7.3,
 * in one place.  The code is written to the newest API; each entry below
 * brings it to the older kernels and says what changed when.
 */
#ifndef _VARLINK_COMPAT_H
#define _VARLINK_COMPAT_H

#include <linux/version.h>

/* 6.12 moved <asm/unaligned.h> to <linux/unaligned.h>. */
#if __has_include(<linux/unaligned.h>)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/* bin2hex() moved to <linux/hex.h> after 6.1; 7.x's <linux/kernel.h> stopped including it. */
#if __has_include(<linux/hex.h>)
#include <linux/hex.h>
#endif

/* 6.17 added WQ_PERCPU, the old default of alloc_workqueue(), which 7.x wants said. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 17, 0)
#define WQ_PERCPU 0
#endif

/* 6.19 made kernel_bind() take a struct sockaddr_unsized. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 19, 0)
#define sockaddr_unsized sockaddr
#endif

#endif /* _VARLINK_COMPAT_H */
