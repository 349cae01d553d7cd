// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of interface registration (a table of broken interfaces
 * that must be refused) and of the call envelope rules.
 */
#include <kunit/test.h>
#include <linux/capability.h>
#include <linux/module.h>
#include <net/net_namespace.h>

#include "../dispatch.h"
#include "../registry.h"
#include "../validate.h"

static int reply_nop(struct varlink_call *call, const void *params)
{
	return varlink_reply(call);
}

#define IDL_PING							\
	"interface org.kernel.test.reg\n"				\
	"method Ping(name: string, n: int, on: bool) -> ()\n"		\
	"method Stream() -> (i: int)\n"

struct ping_params {
	const char *name;
	s64 n;
	bool on;
};

static const struct varlink_param ping_ok[] = {
	VARLINK_PARAM("name", struct ping_params, name),
	VARLINK_PARAM("n", struct ping_params, n),
	VARLINK_PARAM("on", struct ping_params, on),
};

static const struct varlink_param ping_undeclared[] = {
	VARLINK_PARAM("nope", struct ping_params, name),
};

static const struct varlink_param ping_wrong_type[] = {
	VARLINK_PARAM("name", struct ping_params, n),
};

static const struct varlink_param ping_outside[] = {
	{ .name = "n", .type = VARLINK_S64, .offset = sizeof(struct ping_params) },
};

#define PING(_params, _n) {						\
	.name = "Ping", .call = reply_nop, .params = (_params),		\
	.n_params = (_n), .params_size = sizeof(struct ping_params),	\
}

#define STREAM { .name = "Stream", .call = reply_nop, .flags = VARLINK_MORE }

static const struct varlink_method good[] = { PING(ping_ok, 3), STREAM };

static const struct varlink_method missing[] = { PING(ping_ok, 3) };

static const struct varlink_method extra[] = {
	PING(ping_ok, 3), STREAM, { .name = "Extra", .call = reply_nop },
};

static const struct varlink_method twice[] = {
	PING(ping_ok, 3), STREAM, STREAM,
};

static const struct varlink_method unnamed[] = {
	PING(ping_ok, 3), { .call = reply_nop },
};

static const struct varlink_method undeclared[] = {
	PING(ping_undeclared, 1), STREAM,
};

static const struct varlink_method wrong_type[] = {
	PING(ping_wrong_type, 1), STREAM,
};

static const struct varlink_method outside[] = {
	PING(ping_outside, 1), STREAM,
};

static const struct varlink_method bad_flags[] = {
	PING(ping_ok, 3), { .name = "Stream", .call = reply_nop, .flags = 0x100 },
};

static const struct varlink_method bad_cap[] = {
	PING(ping_ok, 3),
	{ .name = "Stream", .call = reply_nop, .flags = VARLINK_CAPABLE,
	  .capability = CAP_LAST_CAP + 1 },
};

static const struct varlink_method bad_cap_net[] = {
	PING(ping_ok, 3),
	{ .name = "Stream", .call = reply_nop, .flags = VARLINK_CAPABLE_NET,
	  .capability = -1 },
};

static const struct varlink_method cap_net[] = {
	PING(ping_ok, 3),
	{ .name = "Stream", .call = reply_nop, .flags = VARLINK_CAPABLE_NET,
	  .capability = CAP_NET_ADMIN },
};

static const struct varlink_method cap_both[] = {
	PING(ping_ok, 3),
	{ .name = "Stream", .call = reply_nop,
	  .flags = VARLINK_CAPABLE | VARLINK_CAPABLE_NET,
	  .capability = CAP_NET_ADMIN },
};

static const struct varlink_method stream_quota[] = {
	PING(ping_ok, 3),
	{ .name = "Stream", .call = reply_nop,
	  .flags = VARLINK_MORE | VARLINK_STREAM },
};

static const struct varlink_method stream_only[] = {
	PING(ping_ok, 3),
	{ .name = "Stream", .call = reply_nop, .flags = VARLINK_STREAM },
};

static const struct varlink_method stream_inline[] = {
	PING(ping_ok, 3),
	{ .name = "Stream", .call = reply_nop,
	  .flags = VARLINK_MORE | VARLINK_STREAM | VARLINK_INLINE },
};

#define IDL_BROKEN "interface org.kernel.test.reg\nmethod Ping("
#define IDL_NODOT "interface nodot\nmethod Ping() -> ()\n"
#define IDL_NO_INTERFACE "method Ping() -> ()\n"
#define IDL_TAKEN							\
	"interface org.varlink.service\n"				\
	"method Ping(name: string, n: int, on: bool) -> ()\n"		\
	"method Stream() -> (i: int)\n"

struct reg_case {
	const char *desc;
	const char *idl;
	const struct varlink_method *methods;
	unsigned int n_methods;
	int err;
};

#define CASE(_desc, _idl, _m, _n, _err) \
	{ .desc = (_desc), .idl = (_idl), .methods = (_m), .n_methods = (_n), .err = (_err) }

static const struct reg_case reg_cases[] = {
	CASE("a valid interface", IDL_PING, good, 2, 0),
	CASE("a method of the IDL missing from the table", IDL_PING, missing, 1, -EINVAL),
	CASE("a method of the table missing from the IDL", IDL_PING, extra, 3, -EINVAL),
	CASE("a method twice in the table", IDL_PING, twice, 3, -EINVAL),
	CASE("a method without a name", IDL_PING, unnamed, 2, -EINVAL),
	CASE("a parameter the method does not take", IDL_PING, undeclared, 2, -EINVAL),
	CASE("a parameter of another type", IDL_PING, wrong_type, 2, -EINVAL),
	CASE("a parameter outside the struct", IDL_PING, outside, 2, -EINVAL),
	CASE("unknown method flags", IDL_PING, bad_flags, 2, -EINVAL),
	CASE("an invalid capability", IDL_PING, bad_cap, 2, -EINVAL),
	CASE("an invalid capability in the netns's owner", IDL_PING, bad_cap_net, 2, -EINVAL),
	CASE("a capability in the netns's owner", IDL_PING, cap_net, 2, 0),
	CASE("a capability in two namespaces", IDL_PING, cap_both, 2, -EINVAL),
	CASE("a stream of the core's quotas", IDL_PING, stream_quota, 2, 0),
	CASE("a stream without VARLINK_MORE, which it implies", IDL_PING,
	     stream_only, 2, 0),
	CASE("a stream that may run in the client's task", IDL_PING,
	     stream_inline, 2, -EINVAL),
	CASE("an IDL that does not parse", IDL_BROKEN, good, 2, -EINVAL),
	CASE("an IDL with an invalid name", IDL_NODOT, good, 2, -EINVAL),
	CASE("an IDL without the interface line", IDL_NO_INTERFACE, good, 2, -EINVAL),
	CASE("a taken name", IDL_TAKEN, good, 2, -EEXIST),
};

static void reg_case_desc(const struct reg_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(reg, reg_cases, reg_case_desc);

static void registry_test_register(struct kunit *test)
{
	const struct reg_case *c = test->param_value;
	struct varlink_interface iface = {
		.idl = c->idl,
		.methods = c->methods,
		.n_methods = c->n_methods,
	};
	int err;

	/* Act */
	err = varlink_register_interface(&iface);
	if (!err)
		varlink_unregister_interface(&iface);

	/* Assert */
	KUNIT_EXPECT_EQ_MSG(test, err, c->err, "%s", c->desc);
}

static void registry_test_lookup_after_unregister(struct kunit *test)
{
	const struct varlink_interface iface = {
		.idl = IDL_PING, .methods = good, .n_methods = ARRAY_SIZE(good),
	};
	struct vl_iface *found;

	KUNIT_ASSERT_EQ(test, varlink_register_interface(&iface), 0);
	found = vl_iface_get("org.kernel.test.reg", 19);
	KUNIT_ASSERT_NOT_NULL(test, found);
	vl_iface_put(found);

	varlink_unregister_interface(&iface);
	KUNIT_EXPECT_NULL(test, vl_iface_get("org.kernel.test.reg", 19));
}

/* Calls are routed by the hash of "interface.Method": only the methods
 * of registered interfaces are found, by their exact full name.
 */
static void registry_test_method_lookup(struct kunit *test)
{
	static const char idl[] = IDL_PING
		"type T (a: int)\n"
		"error Oops ()\n";
	const struct varlink_interface iface = {
		.idl = idl, .methods = good, .n_methods = ARRAY_SIZE(good),
	};
	static const char *const absent[] = {
		"org.kernel.test.reg.T", "org.kernel.test.reg.Oops",
		"org.kernel.test.reg.Pin", "org.kernel.test.reg.Pingg",
		"org.kernel.test.re.Ping", "org.kernel.test.regg.Ping",
		"org.kernel.test.reg_Ping", "org.kernel.test.reg.ping",
		"org.kernel.test.reg.", "Ping", "",
	};
	static const char *const present[] = { "Ping", "Stream" };
	const struct vl_idl_member *member;
	struct vl_iface *found;
	char name[64];
	unsigned int i;

	KUNIT_ASSERT_EQ(test, varlink_register_interface(&iface), 0);
	for (i = 0; i < ARRAY_SIZE(present); i++) {
		snprintf(name, sizeof(name), "org.kernel.test.reg.%s", present[i]);
		member = NULL;
		found = vl_method_get(name, strlen(name), &init_net, &member);
		KUNIT_EXPECT_NOT_NULL_MSG(test, found, "%s", name);
		if (!found)
			continue;
		KUNIT_EXPECT_PTR_EQ(test, found->desc, &iface);
		KUNIT_EXPECT_EQ(test, member->kind, VL_IDL_METHOD);
		KUNIT_EXPECT_EQ(test, member->name_len, strlen(present[i]));
		KUNIT_EXPECT_EQ(test, memcmp(member->name, present[i],
					     member->name_len), 0);
		vl_iface_put(found);
	}
	for (i = 0; i < ARRAY_SIZE(absent); i++) {
		found = vl_method_get(absent[i], strlen(absent[i]), &init_net,
				      &member);
		KUNIT_EXPECT_NULL_MSG(test, found, "%s", absent[i]);
		if (found)
			vl_iface_put(found);
	}
	varlink_unregister_interface(&iface);
	strscpy(name, "org.kernel.test.reg.Ping", sizeof(name));
	KUNIT_EXPECT_NULL(test, vl_method_get(name, strlen(name), &init_net,
					      &member));
}

struct env_case {
	const char *desc;
	const char *json;
	int err;
	bool more, oneway, upgrade, params;
};

static const struct env_case env_cases[] = {
	{ "method only", "{\"method\":\"a.b.C\"}", 0 },
	{ "parameters null", "{\"method\":\"a.b.C\",\"parameters\":null}", 0 },
	{ "parameters object", "{\"method\":\"a.b.C\",\"parameters\":{}}", 0, .params = true },
	{ "more", "{\"method\":\"a.b.C\",\"more\":true}", 0, .more = true },
	{ "oneway", "{\"method\":\"a.b.C\",\"oneway\":true}", 0, .oneway = true },
	{ "upgrade", "{\"method\":\"a.b.C\",\"upgrade\":true}", 0, .upgrade = true },
	{ "flags false", "{\"method\":\"a.b.C\",\"more\":false,\"oneway\":false}", 0 },
	{ "a vendor object", "{\"method\":\"a.b.C\",\"org.example\":{\"x\":1}}", 0 },
	{ "an escaped vendor key", "{\"method\":\"a.b.C\",\"org\\u002eexample\":1}", 0 },
	{ "not an object", "[\"a.b.C\"]", -EPROTO },
	{ "no method", "{\"parameters\":{}}", -EPROTO },
	{ "method not a string", "{\"method\":1}", -EPROTO },
	{ "parameters an array", "{\"method\":\"a.b.C\",\"parameters\":[]}", -EPROTO },
	{ "parameters a string", "{\"method\":\"a.b.C\",\"parameters\":\"x\"}", -EPROTO },
	{ "more not a bool", "{\"method\":\"a.b.C\",\"more\":1}", -EPROTO },
	{ "oneway null", "{\"method\":\"a.b.C\",\"oneway\":null}", -EPROTO },
	{ "more and oneway", "{\"method\":\"a.b.C\",\"more\":true,\"oneway\":true}", -EPROTO },
	{ "more and upgrade", "{\"method\":\"a.b.C\",\"more\":true,\"upgrade\":true}", -EPROTO },
	{ "an unknown key", "{\"method\":\"a.b.C\",\"extra\":1}", -EPROTO },
};

static void env_case_desc(const struct env_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(env, env_cases, env_case_desc);

static void registry_test_envelope(struct kunit *test)
{
	const struct env_case *c = test->param_value;
	struct vl_json_limits lim = VL_JSON_LIMITS_DEFAULT;
	struct vl_json_tok toks[32];
	struct vl_envelope env;
	struct vl_json js;
	int err;

	vl_json_init(&js, toks, ARRAY_SIZE(toks));
	KUNIT_ASSERT_EQ(test, vl_json_parse(&js, c->json, strlen(c->json), &lim), 0);

	err = vl_parse_envelope(&js, &env);

	KUNIT_EXPECT_EQ_MSG(test, err, c->err, "%s", c->json);
	if (err)
		return;
	KUNIT_EXPECT_EQ_MSG(test, env.more, c->more, "%s", c->json);
	KUNIT_EXPECT_EQ_MSG(test, env.oneway, c->oneway, "%s", c->json);
	KUNIT_EXPECT_EQ_MSG(test, env.upgrade, c->upgrade, "%s", c->json);
	KUNIT_EXPECT_EQ_MSG(test, env.params != VL_VALIDATE_ABSENT, c->params,
			    "%s", c->json);
}

static struct kunit_case registry_test_cases[] = {
	KUNIT_CASE_PARAM(registry_test_register, reg_gen_params),
	KUNIT_CASE(registry_test_lookup_after_unregister),
	KUNIT_CASE(registry_test_method_lookup),
	KUNIT_CASE_PARAM(registry_test_envelope, env_gen_params),
	{}
};

static struct kunit_suite registry_test_suite = {
	.name = "varlink_registry",
	.test_cases = registry_test_cases,
};

kunit_test_suite(registry_test_suite);
