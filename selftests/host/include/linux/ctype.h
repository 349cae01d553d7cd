/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: character classes (ASCII, like the kernel's). */
#ifndef _SHIM_LINUX_CTYPE_H
#define _SHIM_LINUX_CTYPE_H

#include <ctype.h>

#endif
