/* SPDX-License-Identifier: GPL-2.0 */
/*
 * autoload.c: the module of an interface, loaded on the interface's
 * first call.
 */
#ifndef _VL_AUTOLOAD_H
#define _VL_AUTOLOAD_H

#include <linux/types.h>

bool vl_autoload_due(const char *name, size_t len);
bool vl_autoload(const char *name, size_t len);

#endif /* _VL_AUTOLOAD_H */
