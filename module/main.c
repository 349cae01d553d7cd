// SPDX-License-Identifier: GPL-2.0
/*
 * The in-kernel varlink server: module entry points, parameters and
 * statistics.
 */
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sysfs.h>
#include <linux/un.h>
#include <uapi/linux/varlink.h>

#include "internal.h"

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
MODULE_PARM_DESC(fast_path, "serve VARLINK_INLINE methods in the calling task when safe (default on)");

DEFINE_PER_CPU(struct vl_stats, vl_stats);
atomic_t vl_connections;

/* /sys/module/varlink/statistics/ is a kobject of its own under the
 * module's: its attributes are plain kobj_attributes, whose show() has kept
 * its signature, where module attributes changed theirs (7.x).
 */
struct vl_stat_attr {
	struct kobj_attribute attr;
	u64 __percpu *count;	/* in vl_stats, or NULL: vl_connections */
};

static struct kobject *stats_kobj;

/* The sum of every possible CPU's count (an offline CPU keeps what it
 * counted), each read once.  Not a snapshot: what is counted meanwhile
 * may be in it or not.  Where a u64 takes two loads (32-bit), a count
 * caught in the middle of a carry is off by 2^32 for that read.
 */
static s64 stat_read(const struct vl_stat_attr *a)
{
	u64 sum = 0;
	int cpu;

	if (!a->count)
		return atomic_read(&vl_connections);
	for_each_possible_cpu(cpu)
		sum += READ_ONCE(*per_cpu_ptr(a->count, cpu));
	return sum;
}

static ssize_t stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	struct vl_stat_attr *a = container_of(attr, struct vl_stat_attr, attr);

	return sysfs_emit(buf, "%lld\n", stat_read(a));
}

#define VL_STAT(_name) {						\
	.attr = { .attr = { .name = #_name, .mode = 0444 }, .show = stat_show }, \
	.count = &vl_stats._name,					\
}

static struct vl_stat_attr stat_attrs[] = {
	{	/* no .count: vl_connections */
		.attr = { .attr = { .name = "connections", .mode = 0444 },
			  .show = stat_show },
	},
	VL_STAT(connections_total),
	VL_STAT(refused),
	VL_STAT(calls),
	VL_STAT(calls_inline),
	VL_STAT(errors),
	VL_STAT(protocol_errors),
	VL_STAT(bytes_in),
	VL_STAT(bytes_out),
	VL_STAT(sends),
	VL_STAT(allocations),
};

static struct attribute *stats_attrs[ARRAY_SIZE(stat_attrs) + 1];

/**
 * vl_stats_put() - put every counter into a reply, as sysfs shows them
 * @call: the call whose reply is being written
 *
 * The names and values of /sys/module/varlink/statistics/, in one table
 * for both.  Each counter is read on its own, not all at one instant.
 */
void vl_stats_put(struct varlink_call *call)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(stat_attrs); i++)
		varlink_put_s64(call, stat_attrs[i].attr.attr.name,
				stat_read(&stat_attrs[i]));
}

static const struct attribute_group stats_group = {
	.attrs = stats_attrs,
};

/* The statistics live in the module's directory of /sys/module: its own
 * kobject as a module; built in, the one the kernel makes for the
 * parameters of built-in code (found by name in module_kset), which
 * kernels since 6.4 make at late_initcall: built in, stats_init() runs at
 * late_initcall_sync, after the listener is up.
 */
static int stats_init(void)
{
	struct kobject *parent;
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(stat_attrs); i++)
		stats_attrs[i] = &stat_attrs[i].attr.attr;
#if IS_BUILTIN(CONFIG_VARLINK)
	parent = kset_find_obj(module_kset, KBUILD_MODNAME);
#else
	parent = kobject_get(&THIS_MODULE->mkobj.kobj);
#endif
	if (!parent)
		return -ENOENT;
	stats_kobj = kobject_create_and_add("statistics", parent);
	kobject_put(parent);
	if (!stats_kobj)
		return -ENOMEM;
	err = sysfs_create_group(stats_kobj, &stats_group);
	if (err) {
		kobject_put(stats_kobj);
		stats_kobj = NULL;
	}
	return err;
}

/* the directory goes with its files */
static void stats_exit(void)
{
	kobject_put(stats_kobj);
}

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
		err = stats_init();
		if (err)
			return err;
	}

	err = vl_conn_init();
	if (err)
		goto err_conn;
	err = vl_call_init();
	if (err)
		goto err_call;

	err = vl_service_init();
	if (err)
		goto err_service;

	err = vl_server_start(socket_name, init_net_only);
	if (err)
		goto err_server;

	pr_info("listening on @%s\n", socket_name);
	return 0;

err_server:
	vl_service_exit();
err_service:
	vl_call_exit();
err_call:
	vl_conn_exit();
err_conn:
	stats_exit();
	return err;
}
fs_initcall_sync(varlink_init);

#if IS_BUILTIN(CONFIG_VARLINK)
late_initcall_sync(stats_init);
#endif

static void __exit varlink_exit(void)
{
	vl_server_stop();
	vl_service_exit();
	vl_call_exit();
	vl_conn_exit();
	stats_exit();
	vl_registry_exit();
}
module_exit(varlink_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("varlink IPC server on an abstract AF_UNIX socket");
MODULE_AUTHOR("The kvarlink authors");
