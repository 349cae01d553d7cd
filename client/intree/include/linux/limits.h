/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's integer limits that net/varlink/json.c uses, in userspace. */
#ifndef _KVARLINKCTL_LINUX_LIMITS_H
#define _KVARLINKCTL_LINUX_LIMITS_H

#include_next <linux/limits.h>
#include <stdint.h>

#define S32_MIN		INT32_MIN
#define S32_MAX		INT32_MAX
#define U32_MAX		UINT32_MAX
#define S64_MIN		INT64_MIN
#define S64_MAX		INT64_MAX
#define U64_MAX		UINT64_MAX

#endif
