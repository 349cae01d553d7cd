// SPDX-License-Identifier: GPL-2.0
/*
 * The in-kernel varlink server: module entry points, init and exit as a
 * ladder that mirrors itself.  The parameters are params.c's.
 */
#include <linux/module.h>

#include "call.h"
#include "conn.h"
#include "files.h"
#include "params.h"
#include "registry.h"
#include "server.h"
#include "service.h"
#include "stats.h"
#include "test_hooks.h"

/* Built in, the listener comes up at fs_initcall_sync: after AF_UNIX
 * (fs_initcall) and before the providers (device_initcall) and PID 1.
 * The registry needs no initialisation: providers may register before or
 * after it.
 */
static int __init varlink_init(void)
{
	int err;

	err = vl_params_check();
	if (err)
		return err;

	if (!IS_BUILTIN(CONFIG_VARLINK)) {
		err = vl_stats_init();
		if (err)
			return err;
	}

	vl_test_hooks_init();
	err = vl_conn_init();
	if (err)
		goto err_test_hooks;
	err = vl_call_init();
	if (err)
		goto err_conn;

	err = vl_files_init();
	if (err)
		goto err_call;

	err = vl_service_init();
	if (err)
		goto err_files;

	err = vl_server_start(vl_config.socket_name, vl_config.init_net_only);
	if (err)
		goto err_service;

	pr_info("listening on @%s\n", vl_config.socket_name);
	return 0;

err_service:
	vl_service_exit();
err_files:
	vl_files_exit();
err_call:
	vl_call_exit();
err_conn:
	vl_conn_exit();
err_test_hooks:
	vl_test_hooks_exit();
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
	vl_files_exit();
	vl_call_exit();
	vl_conn_exit();
	vl_test_hooks_exit();
	vl_stats_exit();
	vl_registry_exit();
}
module_exit(varlink_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("varlink IPC server on an abstract AF_UNIX socket");
MODULE_AUTHOR("The kvarlink authors");
#ifdef VARLINK_VERSION
MODULE_VERSION(VARLINK_VERSION);	/* the top Kbuild's, from VERSION */
#endif
