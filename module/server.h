/* SPDX-License-Identifier: GPL-2.0 */
/* The listeners, one per network namespace: see server.c. */
#ifndef _VL_SERVER_H
#define _VL_SERVER_H

#include <linux/types.h>

int vl_server_start(const char *name, bool init_net_only);
void vl_server_stop(void);
const char *vl_server_name(void);
bool vl_server_init_net_only(void);

#endif /* _VL_SERVER_H */
