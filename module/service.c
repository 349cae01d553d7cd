// SPDX-License-Identifier: GPL-2.0
/*
 * org.varlink.service, the interface every varlink service provides, and
 * org.kernel.varlink, the core's own: its counters, its limits and its
 * error.  Both register through the public API, like any provider.
 */
#include <linux/module.h>
#include <linux/utsname.h>

#include "internal.h"

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

static void put_name(const struct vl_iface *iface, void *call)
{
	if (vl_iface_served_in(iface, varlink_call_net(call)))
		varlink_put_str_len(call, NULL, iface->idl->name,
				    iface->idl->name_len);
}

static int get_info(struct varlink_call *call, const void *params)
{
	varlink_put_str(call, "vendor", "Linux");
	varlink_put_str(call, "product", "kvarlink, the in-kernel varlink server");
	varlink_put_str(call, "version", init_utsname()->release);
	varlink_put_str(call, "url", "https://varlink.org");
	varlink_open_array(call, "interfaces");
	vl_registry_for_each(put_name, call);
	varlink_close_array(call);
	return varlink_reply(call);
}

struct describe_params {
	const char *interface;
};

static const struct varlink_param describe_params[] = {
	VARLINK_PARAM("interface", VARLINK_STRING, struct describe_params,
		      interface),
};

static int get_description(struct varlink_call *call, const void *params)
{
	const struct describe_params *p = params;
	struct vl_iface *iface;

	iface = vl_iface_get_served(p->interface, strlen(p->interface),
				    varlink_call_net(call));
	if (!iface) {
		varlink_put_str(call, "interface", p->interface);
		return varlink_error(call, VL_ERR("InterfaceNotFound"));
	}
	varlink_put_str(call, "description", iface->desc->idl);
	vl_iface_put(iface);
	return varlink_reply(call);
}

static const struct varlink_method service_methods[] = {
	{ .name = "GetInfo", .call = get_info, .flags = VARLINK_FAST },
	{
		.name = "GetInterfaceDescription",
		.call = get_description,
		VARLINK_PARAMS(describe_params, struct describe_params),
		.flags = VARLINK_FAST,
	},
};

/* every namespace: GetInfo lists what is served in the caller's */
static const struct varlink_interface service_iface = {
	.idl = service_idl,
	.methods = service_methods,
	.n_methods = ARRAY_SIZE(service_methods),
	.flags = VARLINK_NETNS,
};

static const char kernel_idl[] =
"# The in-kernel varlink server itself: its counters, the limits in force,\n"
"# and the error of methods that fail with a kernel error code.\n"
"interface org.kernel.varlink\n"
"\n"
"# The server's counters since varlink.ko was loaded, as in\n"
"# /sys/module/varlink/statistics/.  Anyone may call it: those files are\n"
"# world-readable.  Each counter is read on its own, not all at one instant.\n"
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
"  # Bytes of one message, its NUL included; a longer one closes the\n"
"  # connection.\n"
"  max_message_size: int,\n"
"  # Bytes of replies queued for one connection; more closes it.\n"
"  max_output: int,\n"
"  # Connections in total; a new one over it is refused.  The last\n"
"  # sixteenth is kept for openers with CAP_SYS_ADMIN.\n"
"  max_connections: int,\n"
"  # Connections of one user (the owner of its user namespaces counts\n"
"  # for every uid in them), but for openers with CAP_SYS_ADMIN.\n"
"  max_connections_per_uid: int,\n"
"  # Connections in one network namespace other than the initial one,\n"
"  # but for openers with CAP_SYS_ADMIN.\n"
"  max_connections_per_netns: int,\n"
"  # Whether the server listens in the initial network namespace only,\n"
"  # not in every one.\n"
"  init_net_only: bool,\n"
"  # Nesting of JSON arrays and objects in one message.\n"
"  max_depth: int,\n"
"  # JSON values in one message.\n"
"  max_tokens: int,\n"
"  # Whether methods that never sleep for long may be served in the\n"
"  # caller's task; the one parameter root may change while loaded.\n"
"  fast_path: bool\n"
")\n"
"\n"
"# The reply to a new connection the server refuses, sent before it is\n"
"# closed: it has max_connections (all, or all but the reserve for\n"
"# CAP_SYS_ADMIN), the user has max_connections_per_uid, or the network\n"
"# namespace max_connections_per_netns.\n"
"error TooManyConnections (max: int)\n"
"\n"
"# A method failed with a kernel error code, e.g. 12 (ENOMEM); errno\n"
"# values are those of Linux (see errno(3)).\n"
"error SystemError (errno: int)\n";

/* Neither method checks a capability: what they tell is world-readable
 * in sysfs already (0444).  Both only read atomics and plain values, so
 * they may run in the caller's task (VARLINK_FAST).
 */
static int get_statistics(struct varlink_call *call, const void *params)
{
	vl_stats_put(call);
	return varlink_reply(call);
}

static int get_limits(struct varlink_call *call, const void *params)
{
	const struct vl_config *c = &vl_config;

	varlink_put_str(call, "socket_name", vl_server_name());
	varlink_put_u64(call, "max_message_size", c->max_message_size);
	varlink_put_u64(call, "max_output", c->max_output);
	varlink_put_u64(call, "max_connections", c->max_connections);
	varlink_put_u64(call, "max_connections_per_uid",
			c->max_connections_per_uid);
	varlink_put_u64(call, "max_connections_per_netns",
			c->max_connections_per_netns);
	varlink_put_bool(call, "init_net_only", vl_server_init_net_only());
	varlink_put_u64(call, "max_depth", c->max_depth);
	varlink_put_u64(call, "max_tokens", c->max_tokens);
	/* writable through sysfs while loaded */
	varlink_put_bool(call, "fast_path", READ_ONCE(c->fast_path));
	return varlink_reply(call);
}

static const struct varlink_method kernel_methods[] = {
	{ .name = "GetStatistics", .call = get_statistics, .flags = VARLINK_FAST },
	{ .name = "GetLimits", .call = get_limits, .flags = VARLINK_FAST },
};

/* The initial network namespace only: its statistics are the host's
 * (calls and bytes of every namespace), not for containers to watch.
 */
static const struct varlink_interface kernel_iface = {
	.idl = kernel_idl,
	.methods = kernel_methods,
	.n_methods = ARRAY_SIZE(kernel_methods),
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
	varlink_unregister_interface(&kernel_iface);
	varlink_unregister_interface(&service_iface);
}
