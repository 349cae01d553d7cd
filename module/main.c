// SPDX-License-Identifier: GPL-2.0
/*
 * The in-kernel varlink server: module entry points and parameters.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/un.h>
#include <uapi/linux/varlink.h>

#include "internal.h"

static char *socket_name = VARLINK_SOCKET_NAME;
module_param(socket_name, charp, 0444);
MODULE_PARM_DESC(socket_name,
		 "abstract AF_UNIX name to listen on, without the leading '@' (default \""
		 VARLINK_SOCKET_NAME "\")");

static int __init varlink_init(void)
{
	size_t len = socket_name ? strlen(socket_name) : 0;
	int err;

	/* sun_path holds a leading NUL and the name, with no trailing NUL */
	if (!len || len > UNIX_PATH_MAX - 1) {
		pr_err("socket_name must be 1 to %d bytes long\n",
		       UNIX_PATH_MAX - 1);
		return -EINVAL;
	}

	err = vl_server_start(socket_name);
	if (err)
		goto err_server;

	pr_info("listening on @%s\n", socket_name);
	return 0;

err_server:
	return err;
}

static void __exit varlink_exit(void)
{
	vl_server_stop();
}

module_init(varlink_init);
module_exit(varlink_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("varlink IPC server on an abstract AF_UNIX socket");
MODULE_AUTHOR("The kvarlink authors");
