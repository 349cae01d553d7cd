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
#if KERNEL_VERSION(6, 12, 0) <= LINUX_VERSION_CODE
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/* 6.17 added WQ_PERCPU, the old default of alloc_workqueue(), which 7.x wants said. */
#if KERNEL_VERSION(6, 17, 0) > LINUX_VERSION_CODE
#define WQ_PERCPU 0
#endif

/* 6.19 made kernel_bind() take a struct sockaddr_unsized. */
#if KERNEL_VERSION(6, 19, 0) > LINUX_VERSION_CODE
#define sockaddr_unsized sockaddr
#endif

#endif /* _VARLINK_COMPAT_H */
