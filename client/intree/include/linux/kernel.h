/* SPDX-License-Identifier: GPL-2.0 */
/* tools/include's <linux/kernel.h>, and the min3() of the kernel's. */
#ifndef _KVARLINKCTL_LINUX_KERNEL_H
#define _KVARLINKCTL_LINUX_KERNEL_H

#include_next <linux/kernel.h>

#ifndef min3
#define min3(x, y, z)	min((typeof(x))min(x, y), z)
#endif

#endif
