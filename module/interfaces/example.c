// SPDX-License-Identifier: GPL-2.0
/* org.kernel.example: the smallest useful provider. */
#include <linux/module.h>
#include <linux/utsname.h>
#include <linux/varlink.h>

static const char example_idl[] =
"# An example interface.\n"
"interface org.kernel.example\n"
"\n"
"# Greet someone, with the kernel release.\n"
"method Hello(name: string) -> (greeting: string, release: string)\n"
"\n"
"# Count from 1 to n, one reply each; call it with \"more\".\n"
"method Count(n: int) -> (i: int)\n"
"\n"
"error TooMany (max: int)\n";

struct hello_params {
	const char *name;
};

static const struct varlink_param hello_params[] = {
	VARLINK_PARAM("name", VARLINK_STRING, struct hello_params, name),
};

static int hello(struct varlink_call *call, const void *params)
{
	const struct hello_params *p = params;
	char greeting[80];

	snprintf(greeting, sizeof(greeting), "Hello, %s!", p->name);
	varlink_put_str(call, "greeting", greeting);
	varlink_put_str(call, "release", init_utsname()->release);
	return varlink_reply(call);
}

struct count_params {
	u32 n;
};

static const struct varlink_param count_params[] = {
	VARLINK_PARAM("n", VARLINK_U32, struct count_params, n),
};

static int count(struct varlink_call *call, const void *params)
{
	const struct count_params *p = params;
	u32 i;

	if (p->n > 100) {
		varlink_put_s64(call, "max", 100);
		return varlink_error(call, "org.kernel.example.TooMany");
	}
	/* without "more", only the final reply is sent */
	for (i = 1; i < p->n && varlink_call_more(call); i++) {
		varlink_put_s64(call, "i", i);
		if (varlink_reply_continues(call))
			break;	/* the client is gone: end the call */
	}
	varlink_put_s64(call, "i", p->n);
	return varlink_reply(call);
}

static const struct varlink_method example_methods[] = {
	{
		.name = "Hello", .call = hello,
		VARLINK_PARAMS(hello_params, struct hello_params),
	},
	{
		.name = "Count", .call = count, .flags = VARLINK_MORE,
		VARLINK_PARAMS(count_params, struct count_params),
	},
};

static const struct varlink_interface example_iface = {
	.idl = example_idl,
	.methods = example_methods,
	.n_methods = ARRAY_SIZE(example_methods),
};
module_varlink_interface(example_iface);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("org.kernel.example varlink interface");
