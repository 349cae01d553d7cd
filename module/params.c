// SPDX-License-Identifier: GPL-2.0
/*
 * The module parameters: the name to listen on and every limit, in
 * vl_config, checked at load.
 */
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <linux/un.h>
#include <uapi/linux/varlink.h>

#include "params.h"

struct vl_config vl_config = {
	.socket_name = VARLINK_SOCKET_NAME,
	.max_message_size = VL_MSG_SIZE_DEFAULT,
	.max_output = VL_OUTPUT_DEFAULT,
	.max_connections = VL_CONN_DEFAULT,
	.max_connections_per_uid = VL_CONN_PER_UID_DEFAULT,
	.max_connections_per_netns = VL_CONN_PER_NETNS_DEFAULT,
	.max_streams = VL_STREAMS_DEFAULT,
	.max_streams_per_user = VL_STREAMS_PER_USER_DEFAULT,
	.max_streams_per_container = VL_STREAMS_PER_CONTAINER_DEFAULT,
	.max_depth = VL_JSON_DEPTH_DEFAULT,
	.max_tokens = VL_JSON_TOKENS_DEFAULT,
	.fast_path = true,
};

module_param_named(socket_name, vl_config.socket_name, charp, 0444);
MODULE_PARM_DESC(socket_name,
		 "abstract AF_UNIX name to listen on, without the leading '@' (default \""
		 VARLINK_SOCKET_NAME "\")");

module_param_named(init_net_only, vl_config.init_net_only, bool, 0444);
MODULE_PARM_DESC(init_net_only,
		 "listen in the initial network namespace only, not in every one (default off)");

module_param_named(max_message_size, vl_config.max_message_size, uint, 0444);
MODULE_PARM_DESC(max_message_size, "bytes of one message, its NUL included (default 65536)");
module_param_named(max_output, vl_config.max_output, uint, 0444);
MODULE_PARM_DESC(max_output, "bytes of replies queued for one connection (default 262144)");
module_param_named(max_connections, vl_config.max_connections, uint, 0444);
MODULE_PARM_DESC(max_connections, "connections in total (default 4096)");
module_param_named(max_connections_per_uid, vl_config.max_connections_per_uid,
		   uint, 0444);
MODULE_PARM_DESC(max_connections_per_uid,
		 "connections of one user, or of one uid of a container (default 128)");
module_param_named(max_connections_per_netns, vl_config.max_connections_per_netns,
		   uint, 0444);
MODULE_PARM_DESC(max_connections_per_netns,
		 "connections in one network namespace other than the initial one, and of one container (default 1024)");
module_param_named(max_streams, vl_config.max_streams, uint, 0444);
MODULE_PARM_DESC(max_streams,
		 "streams in all, the last eighth for CAP_SYS_ADMIN (default 128)");
module_param_named(max_streams_per_user, vl_config.max_streams_per_user,
		   uint, 0444);
MODULE_PARM_DESC(max_streams_per_user,
		 "streams of one user, or of one uid of a container (default 16)");
module_param_named(max_streams_per_container,
		   vl_config.max_streams_per_container, uint, 0444);
MODULE_PARM_DESC(max_streams_per_container,
		 "streams of one container, its users together (default 32)");
module_param_named(max_depth, vl_config.max_depth, uint, 0444);
MODULE_PARM_DESC(max_depth, "nesting of JSON arrays and objects (default 32)");
module_param_named(max_tokens, vl_config.max_tokens, uint, 0444);
MODULE_PARM_DESC(max_tokens, "JSON values in one message (default 8192)");
module_param_named(fast_path, vl_config.fast_path, bool, 0644);
MODULE_PARM_DESC(fast_path, "serve VARLINK_INLINE methods in the calling task when safe (default on)");

/* The numeric limits an administrator sets, with their bounds: checked at
 * load (vl_params_check()) and listed by GetLimits (vl_limits_for_each()),
 * under their parameters' names.  A limit with @min_param may not be
 * below that other one.
 */
static const struct vl_limit {
	const char *name;
	const unsigned int *value;
	unsigned int min;
	unsigned int max;
	const unsigned int *min_param;
} limits[] = {
	{ "max_message_size", &vl_config.max_message_size, 64, VL_MSG_SIZE_MAX },
	{ "max_output", &vl_config.max_output, 1, VL_OUTPUT_MAX,
	  &vl_config.max_message_size },
	{ "max_connections", &vl_config.max_connections, 1, VL_CONN_MAX },
	{ "max_connections_per_uid", &vl_config.max_connections_per_uid, 1,
	  VL_CONN_MAX },
	{ "max_connections_per_netns", &vl_config.max_connections_per_netns, 1,
	  VL_CONN_MAX },
	{ "max_streams", &vl_config.max_streams, 1, VL_STREAMS_MAX },
	{ "max_streams_per_user", &vl_config.max_streams_per_user, 1,
	  VL_STREAMS_MAX },
	{ "max_streams_per_container", &vl_config.max_streams_per_container,
	  1, VL_STREAMS_MAX, &vl_config.max_streams_per_user },
	{ "max_depth", &vl_config.max_depth, 1, VL_JSON_DEPTH_MAX },
	{ "max_tokens", &vl_config.max_tokens, 16, VL_JSON_TOKENS_MAX },
};

static bool param_ok(const char *name, unsigned int v, unsigned int lo,
		     unsigned int hi)
{
	if (v >= lo && v <= hi)
		return true;
	pr_err("%s=%u is outside %u..%u\n", name, v, lo, hi);
	return false;
}

/**
 * vl_params_check() - check the parameters the module was loaded with
 *
 * Return: 0, or -EINVAL with the first one out of its range logged.
 */
int __init vl_params_check(void)
{
	const char *name = vl_config.socket_name;
	const struct vl_limit *l;
	unsigned int min;

	/* sun_path holds a leading NUL and the name, with no trailing NUL */
	if (!param_ok("socket_name length", name ? strlen(name) : 0, 1,
		      UNIX_PATH_MAX - 1))
		return -EINVAL;
	for (l = limits; l < limits + ARRAY_SIZE(limits); l++) {
		min = l->min_param ? max(l->min, *l->min_param) : l->min;
		if (!param_ok(l->name, *l->value, min, l->max))
			return -EINVAL;
	}
	return 0;
}

/**
 * vl_limits_for_each() - visit the numeric limits in force
 * @fn: called with each one's parameter name and value
 * @data: passed to @fn
 */
void vl_limits_for_each(void (*fn)(const char *name, unsigned int value,
				   void *data),
			void *data)
{
	const struct vl_limit *l;

	for (l = limits; l < limits + ARRAY_SIZE(limits); l++)
		fn(l->name, *l->value, data);
}
