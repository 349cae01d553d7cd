/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module parameters (params.c): the name to listen on and the limits
 * in force; limits.h has their defaults and bounds.
 */
#ifndef _VL_PARAMS_H
#define _VL_PARAMS_H

#include <linux/types.h>

#include "limits.h"

/* The limits in force, from the module parameters */
struct vl_config {
	char *socket_name;
	bool init_net_only;
	unsigned int max_message_size;
	unsigned int max_output;
	unsigned int max_connections;
	unsigned int max_connections_per_uid;
	unsigned int max_connections_per_netns;
	unsigned int max_streams;
	unsigned int max_streams_per_user;
	unsigned int max_streams_per_container;
	unsigned int max_depth;
	unsigned int max_tokens;
	bool fast_path;
};

extern struct vl_config vl_config;
int vl_params_check(void);
void vl_limits_for_each(void (*fn)(const char *name, unsigned int value,
				   void *data),
			void *data);

#endif /* _VL_PARAMS_H */
