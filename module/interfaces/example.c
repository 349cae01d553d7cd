// SPDX-License-Identifier: GPL-2.0
/* org.kernel.example: the smallest useful provider, and the smallest stream */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/utsname.h>
#include <linux/varlink.h>

static const char example_idl[] =
"# An example interface.\n"
"interface org.kernel.example\n"
"\n"
"# Greet someone, with the kernel release.\n"
"method Hello(name: string) -> (greeting: string, release: string)\n"
"\n"
"# Count from 1 to n, one reply each, as fast as the caller reads them;\n"
"# call it with \"more\" for all of them, else only the last is sent.\n"
"method Count(n: int) -> (i: int)\n"
"\n"
"error TooMany (max: int)\n";

struct hello_params {
	const char *name;
};

static const struct varlink_param hello_params[] = {
	VARLINK_PARAM("name", struct hello_params, name),
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
	VARLINK_PARAM("n", struct count_params, n),
};

/* A Count stream, which the core runs as fast as its client reads */
struct count {
	struct varlink_stream stream;
	u32 i, n;
};

static int count_run(struct varlink_stream *stream)
{
	struct count *c = container_of(stream, struct count, stream);
	int err;

	while (++c->i < c->n) {
		varlink_put_s64(stream->call, "i", c->i);
		err = varlink_stream_reply(stream);
		if (err)
			return err;	/* -EAGAIN: run again once read */
	}
	varlink_put_s64(stream->call, "i", c->n);
	return varlink_reply(stream->call);
}

static void count_release(struct varlink_stream *stream)
{
	kfree(container_of(stream, struct count, stream));
}

static const struct varlink_stream_ops count_ops = {
	.run = count_run,
	.release = count_release,
};

static int count(struct varlink_call *call, const void *params)
{
	const struct count_params *p = params;
	struct count *c;

	if (p->n > 100) {
		varlink_put_s64(call, "max", 100);
		return varlink_error(call, "org.kernel.example.TooMany");
	}
	c = kzalloc(sizeof(*c), GFP_KERNEL_ACCOUNT);
	if (!c)
		return -ENOMEM;
	c->n = p->n;
	varlink_stream_init(&c->stream, &count_ops);
	return varlink_stream_start(call, &c->stream);
}

static const struct varlink_method example_methods[] = {
	{ .name = "Hello", .call = hello, VARLINK_PARAMS(hello_params, struct hello_params) },
	{ .name = "Count", .call = count, VARLINK_PARAMS(count_params, struct count_params),
	  .flags = VARLINK_STREAM },
};

static const struct varlink_interface example_iface = {
	.idl = example_idl,
	VARLINK_METHODS(example_methods),
};
module_varlink_interface(example_iface, "org.kernel.example");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("org.kernel.example varlink interface");
