/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: the userspace build follows the newest kernel API that
 * module/compat.h knows, whatever the build machine's kernel headers say.
 */
#ifndef _SHIM_LINUX_VERSION_H
#define _SHIM_LINUX_VERSION_H

#define KERNEL_VERSION(a, b, c)	(((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
#define LINUX_VERSION_CODE	KERNEL_VERSION(7, 3, 0)

#endif
