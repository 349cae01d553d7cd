/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module parameters (params.c): the name to listen on and the limits
 * in force; limits.h has the hard bounds.
 */
#ifndef _VL_PARAMS_H
#define _VL_PARAMS_H

#include <linux/types.h>

#include "limits.h"

/* Every numeric limit an administrator sets, one line each:
 * X(name, default, minimum, maximum, the limit it may not be below or NULL,
 * text).
 * Each is a module parameter of its name (described by its text and
 * default), is checked at load and is a member of GetLimits' reply, whose
 * IDL comment is its text.  Adding one is one line here, its use, and its
 * line in the documentation's table of limits.
 */
#define VL_LIMITS(X)							\
	X(max_message_size, 65536, 64, VL_MSG_SIZE_MAX, NULL,		\
	  "Bytes of one message, its NUL included; "			\
	  "a longer one closes the connection.")			\
	X(max_output, 262144, 1, VL_OUTPUT_MAX,		\
	  &vl_config.max_message_size,	\
	  "Bytes of replies queued for one connection; more closes it, "	\
	  "a paced stream waits at half.")				\
	X(max_connections, 4096, 1, VL_CONN_MAX, NULL,			\
	  "Connections in total; "					\
	  "the last sixteenth is kept for openers with CAP_SYS_ADMIN.") \
	X(max_connections_per_uid, 128, 1, VL_CONN_MAX, NULL,		\
	  "Connections of one user, or of one uid of a container, "	\
	  "but for openers with CAP_SYS_ADMIN.")			\
	X(max_connections_per_netns, 1024, 1, VL_CONN_MAX, NULL,		\
	  "Connections in one network namespace but the initial, "	\
	  "and of one container as a whole.")				\
	X(max_streams, 128, 1, VL_STREAMS_MAX, NULL,			\
	  "Streams (calls with \"more\" to streaming methods) at once; "	\
	  "the last eighth is kept for CAP_SYS_ADMIN.")			\
	X(max_streams_per_user, 16, 1, VL_STREAMS_MAX, NULL,		\
	  "Streams of one user, or of one uid of a container, "		\
	  "but for callers with CAP_SYS_ADMIN.")			\
	X(max_streams_per_container, 32, 1, VL_STREAMS_MAX,	\
	  &vl_config.max_streams_per_user,				\
	  "Streams of one container, its users together, "		\
	  "but for callers with CAP_SYS_ADMIN.")			\
	X(max_workers_per_user, 16, 1, VL_WORKERS_MAX, NULL,		\
	  "Work items (calls served, stream runs) of one user running "	\
	  "at once, but for CAP_SYS_ADMIN.")				\
	X(max_workers_per_container, 64, 1, VL_WORKERS_MAX,	\
	  &vl_config.max_workers_per_user,				\
	  "Work items of one container, its users together, running at once.") \
	X(max_depth, 32, 1, VL_JSON_DEPTH_MAX, NULL,			\
	  "Nesting of JSON arrays and objects in one message.")		\
	X(max_tokens, 8192, 16, VL_JSON_TOKENS_MAX, NULL,			\
	  "JSON values in one message.")

#define VL_LIMIT_MEMBER(name, def, min, max, floor, text)	unsigned int name;

/* The name to listen on and the limits in force, from the module parameters */
struct vl_config {
	char *socket_name;
	bool init_net_only;
	VL_LIMITS(VL_LIMIT_MEMBER)
	bool fast_path;
};

extern struct vl_config vl_config;
int vl_params_check(void);
void vl_limits_for_each(void (*fn)(const char *name, unsigned int value,
				   void *data),
			void *data);

#endif /* _VL_PARAMS_H */
