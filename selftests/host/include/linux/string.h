/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: the C library's string functions. */
#ifndef _SHIM_LINUX_STRING_H
#define _SHIM_LINUX_STRING_H

#include <string.h>
#include <sys/types.h>

#endif
