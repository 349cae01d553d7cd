/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: userspace errno values plus the kernel-only ones. */
#ifndef _SHIM_LINUX_ERRNO_H
#define _SHIM_LINUX_ERRNO_H

#include_next <linux/errno.h>

#define ERESTARTSYS	512
#define ENOIOCTLCMD	515
#define ENOTSUPP	524

#endif
