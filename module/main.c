// SPDX-License-Identifier: GPL-2.0
/*
 * The in-kernel varlink server: module entry points and parameters.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/un.h>
#include <uapi/linux/varlink.h>

#include "internal.h"
#include "stats.h"

static char *socket_name = VARLINK_SOCKET_NAME;
module_param(socket_name, charp, 0444);
MODULE_PARM_DESC(socket_name,
		 "abstract AF_UNIX name to listen on, without the leading '@' (default \""
		 VARLINK_SOCKET_NAME "\")");

static bool init_net_only;
module_param(init_net_only, bool, 0444);
MODULE_PARM_DESC(init_net_only,
		 "listen in the initial network namespace only, not in every one (default off)");

struct vl_config vl_config = {
	.max_message_size = VL_MSG_SIZE_DEFAULT,
	.max_output = VL_OUTPUT_DEFAULT,
	.max_connections = VL_CONN_DEFAULT,
	.max_connections_per_uid = VL_CONN_PER_UID_DEFAULT,
	.max_connections_per_netns = VL_CONN_PER_NETNS_DEFAULT,
	.max_depth = VL_JSON_DEPTH_DEFAULT,
	.max_tokens = VL_JSON_TOKENS_DEFAULT,
	.fast_path = true,
};

module_param_named(max_message_size, vl_config.max_message_size, uint, 0444);
MODULE_PARM_DESC(max_message_size, "bytes of one message, its NUL included (default 65536)");
module_param_named(max_output, vl_config.max_output, uint, 0444);
MODULE_PARM_DESC(max_output, "bytes of replies queued for one connection (default 262144)");
module_param_named(max_connections, vl_config.max_connections, uint, 0444);
MODULE_PARM_DESC(max_connections, "connections in total (default 4096)");
module_param_named(max_connections_per_uid, vl_config.max_connections_per_uid,
		   uint, 0444);
MODULE_PARM_DESC(max_connections_per_uid, "connections of one user (default 128)");
module_param_named(max_connections_per_netns, vl_config.max_connections_per_netns,
		   uint, 0444);
MODULE_PARM_DESC(max_connections_per_netns,
		 "connections in one network namespace other than the initial one (default 1024)");
module_param_named(max_depth, vl_config.max_depth, uint, 0444);
MODULE_PARM_DESC(max_depth, "nesting of JSON arrays and objects (default 32)");
module_param_named(max_tokens, vl_config.max_tokens, uint, 0444);
MODULE_PARM_DESC(max_tokens, "JSON values in one message (default 8192)");
module_param_named(fast_path, vl_config.fast_path, bool, 0644);
MODULE_PARM_DESC(fast_path, "serve VARLINK_FAST methods in the calling task when safe (default on)");

static bool param_ok(const char *name, unsigned int v, unsigned int lo,
		     unsigned int hi)
{
	if (v >= lo && v <= hi)
		return true;
	pr_err("%s=%u is outside %u..%u\n", name, v, lo, hi);
	return false;
}

static int check_config(void)
{
	const struct vl_config *c = &vl_config;
	size_t len = socket_name ? strlen(socket_name) : 0;

	/* sun_path holds a leading NUL and the name, with no trailing NUL */
	if (!param_ok("socket_name length", len, 1, UNIX_PATH_MAX - 1) ||
	    !param_ok("max_message_size", c->max_message_size, 64, VL_MSG_SIZE_MAX) ||
	    !param_ok("max_output", c->max_output, c->max_message_size, VL_OUTPUT_MAX) ||
	    !param_ok("max_connections", c->max_connections, 1, VL_CONN_MAX) ||
	    !param_ok("max_connections_per_uid", c->max_connections_per_uid, 1,
		      VL_CONN_MAX) ||
	    !param_ok("max_connections_per_netns", c->max_connections_per_netns, 1,
		      VL_CONN_MAX) ||
	    !param_ok("max_depth", c->max_depth, 1, VL_JSON_DEPTH_MAX) ||
	    !param_ok("max_tokens", c->max_tokens, 16, VL_JSON_TOKENS_MAX))
		return -EINVAL;
	return 0;
}

/* Built in, the listener comes up at fs_initcall_sync: after AF_UNIX
 * (fs_initcall) and before the providers (device_initcall) and PID 1.
 * The registry needs no initialisation: providers may register before or
 * after it.
 */
static int __init varlink_init(void)
{
	int err;

	err = check_config();
	if (err)
		return err;

	if (!IS_BUILTIN(CONFIG_VARLINK)) {
		err = vl_stats_init();
		if (err)
			return err;
	}

	err = vl_conn_init();
	if (err)
		goto err_stats;
	err = vl_call_init();
	if (err)
		goto err_conn;

	err = vl_service_init();
	if (err)
		goto err_call;

	err = vl_server_start(socket_name, init_net_only);
	if (err)
		goto err_service;

	pr_info("listening on @%s\n", socket_name);
	return 0;

err_service:
	vl_service_exit();
err_call:
	vl_call_exit();
err_conn:
	vl_conn_exit();
err_stats:
	vl_stats_exit();
	return err;
}
fs_initcall_sync(varlink_init);

/* built in, the statistics' directory comes later, see vl_stats_init() */
#if IS_BUILTIN(CONFIG_VARLINK)
late_initcall_sync(vl_stats_init);
#endif

static void __exit varlink_exit(void)
{
	vl_server_stop();
	vl_service_exit();
	vl_call_exit();
	vl_conn_exit();
	vl_stats_exit();
	vl_registry_exit();
}
module_exit(varlink_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("varlink IPC server on an abstract AF_UNIX socket");
MODULE_AUTHOR("The kvarlink authors");
