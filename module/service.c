// SPDX-License-Identifier: GPL-2.0
/*
 * org.varlink.service, the interface every varlink service provides, and
 * org.kernel.varlink, the core's own: its counters, its limits and its
 * error.  Both register through the public API, like any provider.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <linux/utsname.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>

#include "autoload.h"
#include "call.h"
#include "params.h"
#include "registry.h"
#include "server.h"
#include "service.h"
#include "stats.h"

/* The version GetInfo reports: built out of tree, the project's (the
 * top Kbuild reads the file VERSION, which dkms.conf and the Debian
 * packages report too); in a kernel tree, the kernel's release.
 */
#ifdef VARLINK_VERSION
#define VL_VERSION	VARLINK_VERSION
#else
#define VL_VERSION	init_utsname()->release
#endif

static const char service_idl[] =
"# The Varlink Service Interface is provided by every varlink service. It\n"
"# describes the service and the interfaces it implements.\n"
"interface org.varlink.service\n"
"\n"
"# Get a list of all the interfaces a service provides and information\n"
"# about the implementation.\n"
"method GetInfo() -> (\n"
"  vendor: string,\n"
"  product: string,\n"
"  version: string,\n"
"  url: string,\n"
"  interfaces: []string\n"
")\n"
"\n"
"# Get the description of an interface that is implemented by this service.\n"
"method GetInterfaceDescription(interface: string) -> (description: string)\n"
"\n"
"# The requested interface was not found.\n"
"error InterfaceNotFound (interface: string)\n"
"\n"
"# The requested method was not found\n"
"error MethodNotFound (method: string)\n"
"\n"
"# The interface defines the requested method, but the service does not\n"
"# implement it.\n"
"error MethodNotImplemented (method: string)\n"
"\n"
"# One of the passed parameters is invalid.\n"
"error InvalidParameter (parameter: string)\n"
"\n"
"# Client is denied access\n"
"error PermissionDenied ()\n"
"\n"
"# Method is expected to be called with 'more' set to true, but wasn't\n"
"error ExpectedMore ()\n"
"\n"
"# Method is expected to be called with 'upgrade' set to true, but wasn't\n"
"error ExpectedUpgrade ()\n";

/* GetInfo's reply changes only when the registry does: it is written
 * once for the initial network namespace and once for the others (which
 * are served the VARLINK_NETNS interfaces only), with the registry's
 * generation it lists, and each call copies it.  The first call after the
 * registry changed has it written afresh, by info_work: GetInfo may run
 * in its caller's task (VARLINK_INLINE), which a client can keep off the
 * CPU, and must not hold the locks the writing takes (info_lock, the
 * registry's) that workers would then wait on; it waits for the work
 * item instead, holding nothing.  A call copies under info_srcu, as the
 * copy may allocate.
 */
struct info_reply {
	unsigned long gen;	/* vl_registry_gen() of what it lists */
	struct rcu_head rcu;	/* freed after info_srcu's readers */
	size_t len;
	char members[];		/* between the braces of "parameters" */
};

static struct info_reply __rcu *info_replies[2];	/* [!host] */
static DEFINE_MUTEX(info_lock);	/* serialises the writers */
DEFINE_STATIC_SRCU(info_srcu);

struct info_list {
	struct vl_jsonw *w;
	bool host;		/* for the initial network namespace */
};

static void list_name(const struct vl_iface *iface, void *data)
{
	struct info_list *l = data;

	if (l->host || (iface->desc->flags & VARLINK_NETNS))
		vl_jsonw_str_len(l->w, iface->idl->name, iface->idl->name_len);
}

static struct info_reply *info_write(bool host)
{
	struct info_reply *r = NULL;
	struct vl_jsonw w;
	struct info_list l = { .w = &w, .host = host };
	unsigned long gen;
	const char *text;
	size_t len;

	vl_jsonw_init(&w, vl_config.max_output, GFP_KERNEL);
	vl_jsonw_obj_open(&w);
	vl_jsonw_kv_str(&w, "vendor", "Linux");
	vl_jsonw_kv_str(&w, "product", "kvarlink, the in-kernel varlink server");
	vl_jsonw_kv_str(&w, "version", VL_VERSION);
	vl_jsonw_kv_str(&w, "url", "https://varlink.org");
	vl_jsonw_key(&w, "interfaces");
	vl_jsonw_arr_open(&w);
	gen = vl_registry_for_each(list_name, &l);
	vl_jsonw_arr_close(&w);
	vl_jsonw_obj_close(&w);
	text = vl_jsonw_text(&w, &len);
	if (text) {
		/* never empty: "vendor" at least */
		r = kmalloc(struct_size(r, members, len - 2), GFP_KERNEL);
		if (r) {
			r->gen = gen;
			r->len = len - 2;
			memcpy(r->members, text + 1, r->len);
		}
	}
	vl_jsonw_release(&w);
	return r;
}

static void info_free(struct rcu_head *head)
{
	kfree(container_of(head, struct info_reply, rcu));
}

/* Write GetInfo's replies afresh for the registry as it is now, but one
 * that another call wrote meanwhile.  A reply that cannot be written is
 * left out: the next call tries again.  The old replies are freed once
 * their readers are done, without waiting for them here.
 */
static void info_prepare(struct work_struct *work)
{
	struct info_reply *r;
	unsigned int i;

	mutex_lock(&info_lock);
	for (i = 0; i < ARRAY_SIZE(info_replies); i++) {
		r = rcu_dereference_protected(info_replies[i],
					      lockdep_is_held(&info_lock));
		if (r && r->gen == vl_registry_gen())
			continue;
		r = rcu_replace_pointer(info_replies[i], info_write(!i),
					lockdep_is_held(&info_lock));
		if (r)
			call_srcu(&info_srcu, &r->rcu, info_free);
	}
	mutex_unlock(&info_lock);
}

static DECLARE_WORK(info_work, info_prepare);

static int get_info(struct varlink_call *call, const void *params)
{
	bool host = net_eq(varlink_call_caller(call)->net, &init_net);
	struct info_reply *r;
	int idx, tries;
	bool ok;

	for (tries = 0; tries < 2; tries++) {
		idx = srcu_read_lock(&info_srcu);
		r = srcu_dereference(info_replies[!host], &info_srcu);
		/* written since this call began will do, should it change again */
		ok = r && (tries || r->gen == vl_registry_gen());
		if (ok)
			vl_call_put_members(call, r->members, r->len);
		srcu_read_unlock(&info_srcu, idx);
		if (ok)
			return varlink_reply(call);
		queue_work(system_unbound_wq, &info_work);
		flush_work(&info_work);
	}
	return -ENOMEM;
}

struct describe_params {
	const char *interface;
};

static const struct varlink_param describe_params[] = {
	VARLINK_PARAM("interface", struct describe_params,
		      interface),
};

/* An interface whose module is not loaded is loaded first (autoload.c):
 * GetInterfaceDescription may wait for modprobe, and is not served in the
 * caller's task.
 */
static int get_description(struct varlink_call *call, const void *params)
{
	const struct describe_params *p = params;
	size_t len = strlen(p->interface);
	const struct net *net = varlink_call_caller(call)->net;
	struct vl_iface *iface;

	iface = vl_iface_get_served(p->interface, len, net);
	if (!iface && vl_autoload(p->interface, len))
		iface = vl_iface_get_served(p->interface, len, net);
	if (!iface) {
		varlink_put_str(call, "interface", p->interface);
		return varlink_error(call, VL_ERR("InterfaceNotFound"));
	}
	varlink_put_json(call, "description", &iface->description);
	vl_iface_put(iface);
	return varlink_reply(call);
}

static const struct varlink_method service_methods[] = {
	{ .name = "GetInfo", .call = get_info, .flags = VARLINK_INLINE },
	{
		.name = "GetInterfaceDescription",
		.call = get_description,
		VARLINK_PARAMS(describe_params, struct describe_params),
	},
};

/* every namespace: GetInfo lists what is served in the caller's */
static const struct varlink_interface service_iface = {
	.idl = service_idl,
	VARLINK_METHODS(service_methods),
	.flags = VARLINK_NETNS,
};

/* A limit of params.h in GetLimits' reply: its text, then its member */
#define VL_LIMIT_IDL(name, def, min, max, floor, text)		\
	"  # " text "\n  " #name ": int,\n"

static const char kernel_idl[] =
"# The in-kernel varlink server itself: its counters, the limits in force,\n"
"# and the error of methods that fail with a kernel error code.\n"
"interface org.kernel.varlink\n"
"\n"
"# The server's counters since varlink.ko was loaded, as in\n"
"# /sys/module/varlink/statistics/.  Anyone in the initial network\n"
"# namespace may call it, as anyone there may read those files; elsewhere\n"
"# it is not served.  Each counter is read on its own, not all at one\n"
"# instant.\n"
"method GetStatistics() -> (\n"
"  # Connections open now.\n"
"  connections: int,\n"
"  # Connections served, those open now included.\n"
"  connections_total: int,\n"
"  # Connections refused with TooManyConnections; not in\n"
"  # connections_total.\n"
"  refused: int,\n"
"  # Calls that reached their method, this one included; calls refused\n"
"  # before (MethodNotFound, InvalidParameter...) are not counted.\n"
"  calls: int,\n"
"  # Of them, those served in the caller's task (see fast_path).\n"
"  calls_inline: int,\n"
"  # Error replies, whoever sent them.\n"
"  errors: int,\n"
"  # Connections closed for a message that is not a varlink call.\n"
"  protocol_errors: int,\n"
"  # Bytes received from clients.\n"
"  bytes_in: int,\n"
"  # Bytes sent to clients.\n"
"  bytes_out: int,\n"
"  # Writes of replies to clients' sockets: the replies to calls a client\n"
"  # pipelines share them.\n"
"  sends: int,\n"
"  # Allocations made while serving messages: what the per-CPU caches and\n"
"  # a call's inline buffers could not spare.\n"
"  allocations: int\n"
")\n"
"\n"
"# The limits in force: the parameters of varlink.ko, as in\n"
"# /sys/module/varlink/parameters/.  Anyone may call it: those files are\n"
"# world-readable.  Sizes are in bytes.\n"
"method GetLimits() -> (\n"
"  # The abstract AF_UNIX name listened on, without the leading \"@\".\n"
"  socket_name: string,\n"
"  # Whether the server listens in the initial network namespace only,\n"
"  # not in every one.\n"
"  init_net_only: bool,\n"
VL_LIMITS(VL_LIMIT_IDL)
"  # Whether methods that never sleep for long may be served in the\n"
"  # caller's task; the one parameter root may change while loaded.\n"
"  fast_path: bool\n"
")\n"
"\n"
"# The reply to a new connection the server refuses, sent before it is\n"
"# closed: it has max_connections (all, or all but the reserve for\n"
"# CAP_SYS_ADMIN), the user has max_connections_per_uid, or the network\n"
"# namespace or the container max_connections_per_netns.\n"
"error TooManyConnections (max: int)\n"
"\n"
"# The reply to a call that would start one stream too many (see\n"
"# max_streams).  \"max\" is how many may run in all when the caller starts\n"
"# one: max_streams with CAP_SYS_ADMIN, else max_streams less the eighth\n"
"# kept for such callers.  \"max_per_user\" is given when the caller's user\n"
"# runs its whole share already, max_streams_per_user;\n"
"# \"max_per_container\" likewise for its container,\n"
"# max_streams_per_container.\n"
"error TooManyStreams (max: int, max_per_user: ?int, max_per_container: ?int)\n"
"\n"
"# A method failed with a kernel error code, e.g. 12 (ENOMEM); errno\n"
"# values are those of Linux (see errno(3)).\n"
"error SystemError (errno: int)\n";

/* Neither method checks a capability: what they tell anybody in the
 * initial network namespace may read in sysfs already (0444; stats.c
 * refuses the counters to readers elsewhere).  Both only read atomics
 * and plain values, so they may run in the caller's task
 * (VARLINK_INLINE).
 */
static void put_stat(const char *name, s64 value, void *call)
{
	varlink_put_s64(call, name, value);
}

static int get_statistics(struct varlink_call *call, const void *params)
{
	vl_stats_for_each(put_stat, call);
	return varlink_reply(call);
}

static void put_limit(const char *name, unsigned int value, void *data)
{
	varlink_put_u64(data, name, value);
}

static int get_limits(struct varlink_call *call, const void *params)
{
	varlink_put_str(call, "socket_name", vl_server_name());
	varlink_put_bool(call, "init_net_only", vl_server_init_net_only());
	vl_limits_for_each(put_limit, call);
	/* writable through sysfs while loaded */
	varlink_put_bool(call, "fast_path", READ_ONCE(vl_config.fast_path));
	return varlink_reply(call);
}

static const struct varlink_method kernel_methods[] = {
	{ .name = "GetStatistics", .call = get_statistics, .flags = VARLINK_INLINE },
	{ .name = "GetLimits", .call = get_limits, .flags = VARLINK_INLINE },
};

/* The initial network namespace only: its statistics are the host's
 * (calls and bytes of every namespace), not for containers to watch.
 */
static const struct varlink_interface kernel_iface = {
	.idl = kernel_idl,
	VARLINK_METHODS(kernel_methods),
};

int vl_service_init(void)
{
	int err;

	err = varlink_register_interface(&service_iface);
	if (err)
		return err;
	err = varlink_register_interface(&kernel_iface);
	if (err)
		varlink_unregister_interface(&service_iface);
	return err;
}

void vl_service_exit(void)
{
	unsigned int i;

	varlink_unregister_interface(&kernel_iface);
	varlink_unregister_interface(&service_iface);
	/* GetInfo has no caller left: nobody reads them */
	flush_work(&info_work);
	for (i = 0; i < ARRAY_SIZE(info_replies); i++)
		kfree(rcu_replace_pointer(info_replies[i], NULL, true));
	/* and the replies info_prepare() replaced are freed before the
	 * module's text goes
	 */
	srcu_barrier(&info_srcu);
}
