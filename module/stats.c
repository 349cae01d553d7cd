// SPDX-License-Identifier: GPL-2.0
/*
 * The core's counters: per-CPU statistics and the connections open now,
 * in /sys/module/varlink/statistics/ and in the reply of
 * org.kernel.varlink.GetStatistics, from one table.
 */
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <linux/sysfs.h>
#include <net/net_namespace.h>

#include "stats.h"

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

/* The counters are the host's, over every network namespace: as
 * org.kernel.varlink.GetStatistics, they are for readers in the initial
 * network namespace only.  /sys/module is not namespaced, and a container
 * that reads it (or mounts a sysfs of its own) would watch every other
 * tenant's calls and bytes: a reader in another network namespace is
 * refused, with -EACCES, whatever its user, while the files stay 0444
 * for anybody in the initial one.
 */
static ssize_t stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	struct vl_stat_attr *a = container_of(attr, struct vl_stat_attr, attr);

	if (!net_eq(current->nsproxy->net_ns, &init_net))
		return -EACCES;
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
 * vl_stats_for_each() - visit every counter, as sysfs shows them
 * @fn: called with each counter's name and value
 * @data: passed to @fn
 *
 * The names and values of /sys/module/varlink/statistics/, in one table
 * for both.  Each counter is read on its own, not all at one instant.
 */
void vl_stats_for_each(void (*fn)(const char *name, s64 value, void *data),
		       void *data)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(stat_attrs); i++)
		fn(stat_attrs[i].attr.attr.name, stat_read(&stat_attrs[i]), data);
}

static const struct attribute_group stats_group = {
	.attrs = stats_attrs,
};

/* The statistics live in the module's directory of /sys/module: its own
 * kobject as a module; built in, the one the kernel makes for the
 * parameters of built-in code (found by name in module_kset), which
 * kernels since 6.4 make at late_initcall: built in, vl_stats_init() runs at
 * late_initcall_sync, after the listener is up.
 */
int vl_stats_init(void)
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
void vl_stats_exit(void)
{
	kobject_put(stats_kobj);
}
