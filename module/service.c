// SPDX-License-Identifier: GPL-2.0
/*
 * org.varlink.service, the interface every varlink service provides, and
 * org.kernel.varlink, which declares the core's own error.  Both register
 * through the public API, like any provider.
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

static int get_info(struct varlink_call *call, const void *params)
{
	int err;

	varlink_put_str(call, "vendor", "Linux");
	varlink_put_str(call, "product", "kvarlink, the in-kernel varlink server");
	varlink_put_str(call, "version", init_utsname()->release);
	varlink_put_str(call, "url", "https://varlink.org");
	vl_jsonw_key(&call->w, "interfaces");
	err = vl_registry_write_names(&call->w);
	if (err)
		return err;
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
	int err;

	vl_jsonw_key(&call->w, "description");
	err = vl_registry_write_idl(&call->w, p->interface, strlen(p->interface));
	if (err == -ENOENT) {
		/* start over: the key is written already */
		vl_call_reset_reply(call);
		varlink_put_str(call, "interface", p->interface);
		return varlink_error(call, "org.varlink.service.InterfaceNotFound");
	}
	if (err)
		return err;
	return varlink_reply(call);
}

static const struct varlink_method service_methods[] = {
	{ .name = "GetInfo", .call = get_info, .flags = VARLINK_FAST },
	{
		.name = "GetInterfaceDescription",
		.call = get_description,
		.params = describe_params,
		.n_params = ARRAY_SIZE(describe_params),
		.params_size = sizeof(struct describe_params),
		.flags = VARLINK_FAST,
	},
};

static const struct varlink_interface service_iface = {
	.idl = service_idl,
	.methods = service_methods,
	.n_methods = ARRAY_SIZE(service_methods),
	.owner = THIS_MODULE,
};

static const char kernel_idl[] =
"# The in-kernel varlink server.\n"
"interface org.kernel.varlink\n"
"\n"
"# A method failed with a kernel error code, e.g. 12 (ENOMEM); errno\n"
"# values are those of Linux (see errno(3)).\n"
"error SystemError (errno: int)\n";

static const struct varlink_interface kernel_iface = {
	.idl = kernel_idl,
	.owner = THIS_MODULE,
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
