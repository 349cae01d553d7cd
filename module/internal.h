/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces of the varlink core, shared between its files.
 * Provider modules include <varlink.h> only.
 */
#ifndef _VL_INTERNAL_H
#define _VL_INTERNAL_H

#include <linux/types.h>

#include "limits.h"

/* server.c */
int vl_server_start(const char *name);
void vl_server_stop(void);
const char *vl_server_name(void);

#endif /* _VL_INTERNAL_H */
