// SPDX-License-Identifier: GPL-2.0
/*
 * Calls into a provider module (org.kernel.varlink.test): every IDL type
 * validated and passed through, parameters decoded into C types, replies
 * written with every function of the provider API, and the caller's
 * credentials and capabilities.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "varlink_test.h"

#define M(name)		"\"method\":\"" VT_IFACE "." name "\""
#define INVALID		"org.varlink.service.InvalidParameter"

/*
 * Echo: the parameters are validated against the IDL, then passed
 * through as raw JSON and written back unchanged.
 */
FIXTURE(echo) {
	struct vt_conn c;
};

FIXTURE_VARIANT(echo) {
	const char *params;
	const char *expect;	/* the reply's parameters; NULL: @params */
	const char *invalid;	/* InvalidParameter expected, for this one */
};

#define POINT	"{\"x\":1,\"y\":-2}"
#define STRUCT	"{\"point\":" POINT ",\"inner\":{\"label\":\"l\",\"flag\":true}}"
#define INNER(label, flag)	"{\"label\":" label flag "}"
#define EVERYTHING_ANY(any)						\
	"{\"bool\":false,\"int\":7,\"float\":0.5,\"string\":\"s\","	\
	"\"object\":{},\"any\":" any ",\"enum\":\"one\",\"color\":\"red\","	\
	"\"struct\":" STRUCT ",\"array\":[],\"map\":{},\"set\":{}}"
#define EVERYTHING	EVERYTHING_ANY("0")

FIXTURE_VARIANT_ADD(echo, nothing) { .params = "{}" };

FIXTURE_VARIANT_ADD(echo, null_params) { .params = "null", .expect = "{}" };

FIXTURE_VARIANT_ADD(echo, string) {
	.params = "{\"string\":\"plain\"}",
};

FIXTURE_VARIANT_ADD(echo, string_empty) {
	.params = "{\"string\":\"\"}",
};

FIXTURE_VARIANT_ADD(echo, float) {
	.params = "{\"float\":1.5}",
};

FIXTURE_VARIANT_ADD(echo, float_integer) {
	.params = "{\"float\":1}",
};

FIXTURE_VARIANT_ADD(echo, float_negative_exponent) {
	.params = "{\"float\":-2.5e-3}",
};

FIXTURE_VARIANT_ADD(echo, float_big_exponent) {
	.params = "{\"float\":1E+300}",
};

FIXTURE_VARIANT_ADD(echo, object) {
	.params = "{\"object\":{\"a\":[1,{\"b\":null}],\"c\":\"d\"}}",
};

FIXTURE_VARIANT_ADD(echo, object_empty) {
	.params = "{\"object\":{}}",
};

FIXTURE_VARIANT_ADD(echo, any_number) {
	.params = "{\"any\":-1}",
};

FIXTURE_VARIANT_ADD(echo, any_string) {
	.params = "{\"any\":\"s\"}",
};

FIXTURE_VARIANT_ADD(echo, any_array) {
	.params = "{\"any\":[null,true,{}]}",
};

FIXTURE_VARIANT_ADD(echo, any_object) {
	.params = "{\"any\":{\"x\":null}}",
};

FIXTURE_VARIANT_ADD(echo, any_false) {
	.params = "{\"any\":false}",
};

FIXTURE_VARIANT_ADD(echo, any_null) { .params = "{\"any\":null}", .expect = "{}" };

FIXTURE_VARIANT_ADD(echo, enum) {
	.params = "{\"enum\":\"three\"}",
};

FIXTURE_VARIANT_ADD(echo, named_enum) {
	.params = "{\"color\":\"green\"}",
};

FIXTURE_VARIANT_ADD(echo, named_struct) {
	.params = "{\"point\":" POINT "}",
};

FIXTURE_VARIANT_ADD(echo, nested_struct) {
	.params = "{\"struct\":" STRUCT "}",
};

FIXTURE_VARIANT_ADD(echo, nested_struct_null) {
	.params = "{\"struct\":{\"point\":" POINT ",\"inner\":"
		  INNER("\"\"", ",\"flag\":null") "}}",
};

FIXTURE_VARIANT_ADD(echo, nested_struct_absent) {
	.params = "{\"struct\":{\"point\":" POINT ",\"inner\":" INNER("\"\"", "") "}}",
};

FIXTURE_VARIANT_ADD(echo, array) {
	.params = "{\"array\":[1,-2,3]}",
};

FIXTURE_VARIANT_ADD(echo, array_empty) {
	.params = "{\"array\":[]}",
};

FIXTURE_VARIANT_ADD(echo, array_limits) {
	.params = "{\"array\":[18446744073709551615,-9223372036854775808,0]}",
};

FIXTURE_VARIANT_ADD(echo, map) {
	.params = "{\"map\":{\"a\":\"x\",\"\":\"empty key\"}}",
};

FIXTURE_VARIANT_ADD(echo, map_empty) {
	.params = "{\"map\":{}}",
};

FIXTURE_VARIANT_ADD(echo, set) {
	.params = "{\"set\":{\"a\":{},\"b\":{}}}",
};

FIXTURE_VARIANT_ADD(echo, nested_containers) {
	.params = "{\"nested\":[{\"p\":" POINT ",\"q\":null},{}]}",
};

FIXTURE_VARIANT_ADD(echo, nested_empty) {
	.params = "{\"nested\":[]}",
};

FIXTURE_VARIANT_ADD(echo, everything) {
	.params = "{\"everything\":" EVERYTHING "}",
};

FIXTURE_VARIANT_ADD(echo, several) {
	.params = "{\"string\":\"s\",\"float\":2,\"color\":\"blue\",\"array\":[0]}",
};

FIXTURE_VARIANT_ADD(echo, other_order) {
	.params = "{\"array\":[0],\"color\":\"blue\",\"float\":2,\"string\":\"s\"}",
	.expect = "{\"string\":\"s\",\"float\":2,\"color\":\"blue\",\"array\":[0]}",
};

FIXTURE_VARIANT_ADD(echo, unknown) {
	.params = "{\"nope\":1}",
	.invalid = "nope",
};

FIXTURE_VARIANT_ADD(echo, unknown_after_good) {
	.params = "{\"string\":\"s\",\"nope\":1}",
	.invalid = "nope",
};

FIXTURE_VARIANT_ADD(echo, string_number) {
	.params = "{\"string\":1}",
	.invalid = "string",
};

FIXTURE_VARIANT_ADD(echo, string_with_nul) {
	.params = "{\"string\":\"a\\u0000b\"}",
	.invalid = "string",
};

FIXTURE_VARIANT_ADD(echo, float_string) {
	.params = "{\"float\":\"1.5\"}",
	.invalid = "float",
};

FIXTURE_VARIANT_ADD(echo, object_array) {
	.params = "{\"object\":[]}",
	.invalid = "object",
};

FIXTURE_VARIANT_ADD(echo, enum_unknown) {
	.params = "{\"enum\":\"four\"}",
	.invalid = "enum",
};

FIXTURE_VARIANT_ADD(echo, enum_number) {
	.params = "{\"enum\":1}",
	.invalid = "enum",
};

FIXTURE_VARIANT_ADD(echo, named_enum_case) {
	.params = "{\"color\":\"Green\"}",
	.invalid = "color",
};

FIXTURE_VARIANT_ADD(echo, point_missing_field) {
	.params = "{\"point\":{\"x\":1}}",
	.invalid = "point",
};

FIXTURE_VARIANT_ADD(echo, point_extra_field) {
	.params = "{\"point\":{\"x\":1,\"y\":2,\"z\":3}}",
	.invalid = "point",
};

FIXTURE_VARIANT_ADD(echo, point_null_field) {
	.params = "{\"point\":{\"x\":1,\"y\":null}}",
	.invalid = "point",
};

FIXTURE_VARIANT_ADD(echo, point_float) {
	.params = "{\"point\":{\"x\":1.5,\"y\":2}}",
	.invalid = "point",
};

FIXTURE_VARIANT_ADD(echo, point_exponent) {
	.params = "{\"point\":{\"x\":1e3,\"y\":2}}",
	.invalid = "point",
};

FIXTURE_VARIANT_ADD(echo, point_string) {
	.params = "{\"point\":{\"x\":\"1\",\"y\":2}}",
	.invalid = "point",
};

FIXTURE_VARIANT_ADD(echo, point_array) {
	.params = "{\"point\":[1,2]}",
	.invalid = "point",
};

FIXTURE_VARIANT_ADD(echo, struct_inner_missing) {
	.params = "{\"struct\":{\"point\":" POINT ",\"inner\":{}}}",
	.invalid = "struct",
};

FIXTURE_VARIANT_ADD(echo, struct_inner_flag) {
	.params = "{\"struct\":{\"point\":" POINT ",\"inner\":" INNER("\"\"", ",\"flag\":0") "}}",
	.invalid = "struct",
};

FIXTURE_VARIANT_ADD(echo, array_mixed) {
	.params = "{\"array\":[1,\"2\"]}",
	.invalid = "array",
};

FIXTURE_VARIANT_ADD(echo, array_null_element) {
	.params = "{\"array\":[1,null]}",
	.invalid = "array",
};

FIXTURE_VARIANT_ADD(echo, array_float) {
	.params = "{\"array\":[1.5]}",
	.invalid = "array",
};

FIXTURE_VARIANT_ADD(echo, array_too_big) {
	.params = "{\"array\":[18446744073709551616]}",
	.invalid = "array",
};

FIXTURE_VARIANT_ADD(echo, array_too_small) {
	.params = "{\"array\":[-9223372036854775809]}",
	.invalid = "array",
};

FIXTURE_VARIANT_ADD(echo, array_object) {
	.params = "{\"array\":{}}",
	.invalid = "array",
};

FIXTURE_VARIANT_ADD(echo, map_number) {
	.params = "{\"map\":{\"a\":1}}",
	.invalid = "map",
};

FIXTURE_VARIANT_ADD(echo, map_array) {
	.params = "{\"map\":[]}",
	.invalid = "map",
};

FIXTURE_VARIANT_ADD(echo, set_value) {
	.params = "{\"set\":{\"a\":1}}",
	.invalid = "set",
};

FIXTURE_VARIANT_ADD(echo, set_field) {
	.params = "{\"set\":{\"a\":{\"x\":1}}}",
	.invalid = "set",
};

FIXTURE_VARIANT_ADD(echo, nested_inner_array) {
	.params = "{\"nested\":[[]]}",
	.invalid = "nested",
};

FIXTURE_VARIANT_ADD(echo, nested_point) {
	.params = "{\"nested\":[{\"p\":{\"x\":1}}]}",
	.invalid = "nested",
};

FIXTURE_VARIANT_ADD(echo, everything_missing) {
	.params = "{\"everything\":{\"bool\":true}}",
	.invalid = "everything",
};

FIXTURE_VARIANT_ADD(echo, everything_any_null) {
	.params = "{\"everything\":" EVERYTHING_ANY("null") "}",
	.invalid = "everything",
};

FIXTURE_SETUP(echo)
{
	ASSERT_EQ(0, vt_open_ready(&self->c));
}

FIXTURE_TEARDOWN(echo)
{
	vt_close(&self->c);
}

TEST_F(echo, reply)
{
	const char *msg;

	ASSERT_EQ(1, vt_call(&self->c, vt_fmt("{" M("Echo") ",\"parameters\":%s}",
					      variant->params), &msg));
	ASSERT_EQ(NULL, vt_reply_problem(msg)) TH_LOG("%s", msg);
	if (variant->invalid) {
		EXPECT_TRUE(vt_is_error(msg, INVALID)) TH_LOG("%s", msg);
		EXPECT_TRUE(vt_json_is(msg, "parameters.parameter",
				       vt_fmt("\"%s\"", variant->invalid)))
			TH_LOG("%s", msg);
		return;
	}
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_STREQ(variant->expect ? variant->expect : variant->params,
		     vt_params(msg));
}

/* Strings are unescaped for the provider and escaped again in the reply. */
FIXTURE(strings) {
	struct vt_conn c;
};

FIXTURE_VARIANT(strings) {
	const char *json;	/* as sent */
	const char *text;	/* what it means */
};

FIXTURE_VARIANT_ADD(strings, ascii) { .json = "abc", .text = "abc" };

FIXTURE_VARIANT_ADD(strings, escapes) {
	.json = "q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t",
	.text = "q\" b\\ s/ \b\f\n\r\t",
};

FIXTURE_VARIANT_ADD(strings, control) { .json = "\\u0001\\u001f", .text = "\x01\x1f" };

FIXTURE_VARIANT_ADD(strings, utf8) {
	.json = "\xc3\xa9\xe2\x82\xac",
	.text = "\xc3\xa9\xe2\x82\xac",
};

FIXTURE_VARIANT_ADD(strings, escaped_utf8) {
	.json = "\\u00e9\\u20AC",
	.text = "\xc3\xa9\xe2\x82\xac",
};

FIXTURE_VARIANT_ADD(strings, surrogates) {
	.json = "\\ud83d\\ude00 \xf0\x9f\x98\x80",
	.text = "\xf0\x9f\x98\x80 \xf0\x9f\x98\x80",
};

FIXTURE_VARIANT_ADD(strings, del) { .json = "\x7f", .text = "\x7f" };

FIXTURE_SETUP(strings)
{
	ASSERT_EQ(0, vt_open_ready(&self->c));
}

FIXTURE_TEARDOWN(strings)
{
	vt_close(&self->c);
}

TEST_F(strings, round_trip)
{
	const char *msg;

	ASSERT_EQ(1, vt_call(&self->c, vt_fmt(VT_CALL("Echo", "{\"string\":\"%s\"}"),
					      variant->json), &msg));
	ASSERT_EQ(NULL, vt_reply_problem(msg)) TH_LOG("%s", msg);
	EXPECT_STREQ(variant->text, vt_json_str(msg, "parameters.string"))
		TH_LOG("%s", msg);
}

/* Scalars decoded into bool, s64, u64, s32, u32 and char *. */
FIXTURE(scalars) {
	struct vt_conn c;
};

FIXTURE_VARIANT(scalars) {
	const char *params;
	const char *expect;	/* NULL: @params */
	const char *invalid;
};

#define SCALAR_BOOL(b)	"\"bool\":" b
#define SCALARS(b, i, u, s, us, str)					\
	"{\"bool\":" b ",\"int\":" i ",\"uint\":" u ",\"small\":" s	\
	",\"usmall\":" us ",\"string\":" str "}"

FIXTURE_VARIANT_ADD(scalars, simple) {
	.params = SCALARS("true", "-1", "1", "-2", "2", "\"s\""),
};

FIXTURE_VARIANT_ADD(scalars, zero) {
	.params = SCALARS("false", "0", "0", "0", "0", "\"\""),
};

FIXTURE_VARIANT_ADD(scalars, maximum) {
	.params = SCALARS("true", "9223372036854775807", "18446744073709551615",
			  "2147483647", "4294967295", "\"max\""),
};

FIXTURE_VARIANT_ADD(scalars, minimum) {
	.params = SCALARS("false", "-9223372036854775808", "0",
			  "-2147483648", "0", "\"min\""),
};

FIXTURE_VARIANT_ADD(scalars, negative_zero) {
	.params = SCALARS("false", "-0", "0", "-0", "0", "\"\""),
	.expect = SCALARS("false", "0", "0", "0", "0", "\"\""),
};

FIXTURE_VARIANT_ADD(scalars, other_order) {
	.params = "{\"string\":\"s\",\"usmall\":2,\"small\":-2,\"uint\":1,\"int\":-1,"
		  SCALAR_BOOL("true") "}",
	.expect = SCALARS("true", "-1", "1", "-2", "2", "\"s\""),
};

FIXTURE_VARIANT_ADD(scalars, int_over) {
	.params = SCALARS("true", "9223372036854775808", "0", "0", "0", "\"\""),
	.invalid = "int",
};

FIXTURE_VARIANT_ADD(scalars, int_under) {
	.params = SCALARS("true", "-9223372036854775809", "0", "0", "0", "\"\""),
	.invalid = "int",
};

FIXTURE_VARIANT_ADD(scalars, int_fraction) {
	.params = SCALARS("true", "1.0", "0", "0", "0", "\"\""),
	.invalid = "int",
};

FIXTURE_VARIANT_ADD(scalars, int_exponent) {
	.params = SCALARS("true", "1e2", "0", "0", "0", "\"\""),
	.invalid = "int",
};

FIXTURE_VARIANT_ADD(scalars, int_string) {
	.params = SCALARS("true", "\"1\"", "0", "0", "0", "\"\""),
	.invalid = "int",
};

FIXTURE_VARIANT_ADD(scalars, int_null) {
	.params = SCALARS("true", "null", "0", "0", "0", "\"\""),
	.invalid = "int",
};

FIXTURE_VARIANT_ADD(scalars, uint_negative) {
	.params = SCALARS("true", "0", "-1", "0", "0", "\"\""),
	.invalid = "uint",
};

FIXTURE_VARIANT_ADD(scalars, uint_over) {
	.params = SCALARS("true", "0", "18446744073709551616", "0", "0", "\"\""),
	.invalid = "uint",
};

FIXTURE_VARIANT_ADD(scalars, small_over) {
	.params = SCALARS("true", "0", "0", "2147483648", "0", "\"\""),
	.invalid = "small",
};

FIXTURE_VARIANT_ADD(scalars, small_under) {
	.params = SCALARS("true", "0", "0", "-2147483649", "0", "\"\""),
	.invalid = "small",
};

FIXTURE_VARIANT_ADD(scalars, usmall_over) {
	.params = SCALARS("true", "0", "0", "0", "4294967296", "\"\""),
	.invalid = "usmall",
};

FIXTURE_VARIANT_ADD(scalars, usmall_negative) {
	.params = SCALARS("true", "0", "0", "0", "-1", "\"\""),
	.invalid = "usmall",
};

FIXTURE_VARIANT_ADD(scalars, bool_number) {
	.params = SCALARS("1", "0", "0", "0", "0", "\"\""),
	.invalid = "bool",
};

FIXTURE_VARIANT_ADD(scalars, bool_string) {
	.params = SCALARS("\"true\"", "0", "0", "0", "0", "\"\""),
	.invalid = "bool",
};

FIXTURE_VARIANT_ADD(scalars, string_bool) {
	.params = SCALARS("true", "0", "0", "0", "0", "true"),
	.invalid = "string",
};

FIXTURE_VARIANT_ADD(scalars, missing_bool) {
	.params = "{\"int\":0,\"uint\":0,\"small\":0,\"usmall\":0,\"string\":\"\"}",
	.invalid = "bool",
};

FIXTURE_VARIANT_ADD(scalars, missing_string) {
	.params = "{\"bool\":true,\"int\":0,\"uint\":0,\"small\":0,\"usmall\":0}",
	.invalid = "string",
};

FIXTURE_SETUP(scalars)
{
	ASSERT_EQ(0, vt_open_ready(&self->c));
}

FIXTURE_TEARDOWN(scalars)
{
	vt_close(&self->c);
}

TEST_F(scalars, reply)
{
	const char *msg;

	ASSERT_EQ(1, vt_call(&self->c, vt_fmt("{" M("EchoScalars") ",\"parameters\":%s}",
					      variant->params), &msg));
	ASSERT_EQ(NULL, vt_reply_problem(msg)) TH_LOG("%s", msg);
	if (variant->invalid) {
		EXPECT_TRUE(vt_is_error(msg, INVALID)) TH_LOG("%s", msg);
		EXPECT_TRUE(vt_json_is(msg, "parameters.parameter",
				       vt_fmt("\"%s\"", variant->invalid)))
			TH_LOG("%s", msg);
		return;
	}
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_STREQ(variant->expect ? variant->expect : variant->params,
		     vt_params(msg));
}

/* A reply built with every reply function, and valid for the IDL. */
TEST(types)
{
	static const struct {
		const char *path, *json;
	} expect[] = {
		{ "bool", "true" },
		{ "int", "-9223372036854775808" },
		{ "float", "-3.14159" },
		{ "object", "{\"key\":\"value\"}" },
		{ "any", "[18446744073709551615,null,false]" },
		{ "enum", "\"two\"" },
		{ "color", "\"blue\"" },
		{ "struct.point", "{\"x\":-1,\"y\":2}" },
		{ "struct.inner", "{\"label\":\"in\",\"flag\":null}" },
		{ "array", "[-9223372036854775808,0,18446744073709551615]" },
		{ "map", "{\"a\":\"1\",\"b\":\"\"}" },
		{ "set", "{\"x\":{}}" },
		{ "maybe", "null" },
		{ "nested", "[{\"p\":{\"x\":3,\"y\":4},\"q\":null},{}]" },
	};
	struct vt_conn c;
	const char *msg;
	char *everything;
	unsigned int i;
	size_t len;
	const char *p;

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, "{" M("Types") "}", &msg));
	ASSERT_EQ(NULL, vt_reply_problem(msg)) TH_LOG("%s", msg);
	ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	for (i = 0; i < ARRAY_SIZE(expect); i++) {
		const char *path = expect[i].path, *json = expect[i].json;

		EXPECT_TRUE(vt_json_is(msg, vt_fmt("parameters.everything.%s", path),
				       json))
			TH_LOG("%s: want %s", path, json);
	}
	EXPECT_STREQ("quote\" backslash\\ tab\t nl\n e-acute \xc3\xa9",
		     vt_json_str(msg, "parameters.everything.string"));

	/* what the provider wrote is valid input for the same types */
	p = vt_json_find(msg, "parameters.everything", &len);
	ASSERT_NE(NULL, p);
	everything = strndup(p, len);
	ASSERT_EQ(1, vt_call(&c, vt_fmt("{" M("Echo") ",\"parameters\":{\"everything\":%s}}",
					everything), &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_STREQ(vt_fmt("{\"everything\":%s}", everything), vt_params(msg));
	vt_close(&c);
}

/* Deferred replies, slow callbacks and big replies. */
FIXTURE(later) {
	struct vt_conn c;
};

FIXTURE_VARIANT(later) {
	const char *msg;
	const char *expect;
	int min_ms;		/* the reply takes at least this long */
};

FIXTURE_VARIANT_ADD(later, defer) {
	.msg = "{" M("Defer") ",\"parameters\":{\"delay_ms\":300,\"value\":\"v\"}}",
	.expect = "{\"value\":\"v\"}",
	.min_ms = 290,
};

FIXTURE_VARIANT_ADD(later, defer_now) {
	.msg = "{" M("Defer") ",\"parameters\":{\"delay_ms\":0}}",
	.expect = "{}",
};

FIXTURE_VARIANT_ADD(later, slow) {
	.msg = "{" M("Slow") ",\"parameters\":{\"ms\":300}}",
	.expect = "{\"ms\":300}",
	.min_ms = 290,
};

FIXTURE_VARIANT_ADD(later, slow_zero) {
	.msg = "{" M("Slow") ",\"parameters\":{\"ms\":0}}",
	.expect = "{\"ms\":0}",
};

FIXTURE_VARIANT_ADD(later, big_empty) {
	.msg = "{" M("Big") ",\"parameters\":{\"size\":0}}",
	.expect = "{\"data\":\"\"}",
};

FIXTURE_SETUP(later)
{
	ASSERT_EQ(0, vt_open_ready(&self->c));
}

FIXTURE_TEARDOWN(later)
{
	vt_close(&self->c);
}

TEST_F(later, reply)
{
	long long t0 = vt_now_ms();
	const char *msg;

	ASSERT_EQ(1, vt_call(&self->c, variant->msg, &msg));
	EXPECT_LE(variant->min_ms, vt_now_ms() - t0);
	EXPECT_EQ(NULL, vt_reply_problem(msg)) TH_LOG("%s", msg);
	EXPECT_STREQ(variant->expect, vt_params(msg));
}

/*
 * A reply larger than a client's message may be (max_message_size): most
 * of what the connection may queue, 200 KiB of max_output's 256.
 */
TEST(big_reply)
{
	long size = vt_param("max_output", 262144) / 32 * 25;
	struct vt_conn c;
	const char *msg;
	char *data;

	ASSERT_LT(vt_param("max_message_size", 65536), size);
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, vt_fmt(VT_CALL("Big", "{\"size\":%ld}"), size), &msg));
	ASSERT_EQ(NULL, vt_reply_problem(msg)) TH_LOG("%.200s", msg);
	data = vt_json_str(msg, "parameters.data");
	ASSERT_NE(NULL, data);
	EXPECT_EQ(size, strlen(data));
	EXPECT_EQ(size, strspn(data, "x"));
	vt_close(&c);
}

/*
 * Who may call a VARLINK_CAPABLE method: both the task that connected
 * (its credentials when it connected) and the task that sent the call
 * must hold the capability.
 */
FIXTURE(privileged) {
	struct vt_conn c;
};

FIXTURE_VARIANT(privileged) {
	int connect_as;		/* uid to connect as, -1 to stay root */
	int drop_cap;		/* drop CAP_SYS_ADMIN before connecting */
	int drop_after;		/* become nobody after connecting */
	int denied;		/* PermissionDenied expected */
	int uid;		/* uid the provider sees */
};

FIXTURE_VARIANT_ADD(privileged, root) {
	.connect_as = -1, .uid = 0,
};

FIXTURE_VARIANT_ADD(privileged, nobody) {
	.connect_as = 65534, .denied = 1, .uid = 65534,
};

FIXTURE_VARIANT_ADD(privileged, some_user) {
	.connect_as = 1000, .denied = 1, .uid = 1000,
};

FIXTURE_VARIANT_ADD(privileged, root_without_cap) {
	.connect_as = -1, .drop_cap = 1, .denied = 1, .uid = 0,
};

/* a daemon that drops its privileges once connected lends them nothing */
FIXTURE_VARIANT_ADD(privileged, root_then_nobody) {
	.connect_as = -1, .drop_after = 1, .denied = 1, .uid = 0,
};

FIXTURE_SETUP(privileged)
{
	/* each test runs in a process of its own: no need to undo this */
	if (variant->drop_cap)
		ASSERT_EQ(0, vt_drop_sys_admin());
	if (variant->connect_as >= 0)
		ASSERT_EQ(0, vt_become(variant->connect_as));
	ASSERT_EQ(0, vt_open_ready(&self->c));
	if (variant->drop_after)
		ASSERT_EQ(0, vt_become(65534));
}

FIXTURE_TEARDOWN(privileged)
{
	vt_close(&self->c);
}

TEST_F(privileged, call)
{
	const char *msg;

	ASSERT_EQ(1, vt_call(&self->c, "{" M("Privileged") "}", &msg));
	ASSERT_EQ(NULL, vt_reply_problem(msg)) TH_LOG("%s", msg);
	if (variant->denied) {
		EXPECT_TRUE(vt_is_error(msg, "org.varlink.service.PermissionDenied"))
			TH_LOG("%s", msg);
		EXPECT_STREQ("{}", vt_params(msg));
	} else {
		EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
		EXPECT_TRUE(vt_json_is(msg, "parameters.uid", vt_fmt("%d", variant->uid)))
			TH_LOG("%s", msg);
		EXPECT_TRUE(vt_json_is(msg, "parameters.pid", vt_fmt("%d", getpid())))
			TH_LOG("%s", msg);
	}
	/* denied or not, the connection goes on */
	ASSERT_EQ(1, vt_call(&self->c, VT_PING, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
}

TEST_F(privileged, whoami)
{
	const char *msg;

	ASSERT_EQ(1, vt_call(&self->c, "{" M("WhoAmI") "}", &msg));
	ASSERT_EQ(NULL, vt_reply_problem(msg)) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.uid", vt_fmt("%d", variant->uid)))
		TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.pid", vt_fmt("%d", getpid())))
		TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.sys_admin",
			       variant->denied ? "false" : "true"))
		TH_LOG("%s", msg);
}

/* Send a descriptor over a socketpair, or receive one. */
static int send_fd(int sock, int fd)
{
	char ctl[CMSG_SPACE(sizeof(int))] = {}, b = 0;
	struct iovec iov = { .iov_base = &b, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl, .msg_controllen = sizeof(ctl),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -errno;
}

static int recv_fd(int sock)
{
	char ctl[CMSG_SPACE(sizeof(int))] = {}, b;
	struct iovec iov = { .iov_base = &b, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl, .msg_controllen = sizeof(ctl),
	};
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return -errno;
	cm = CMSG_FIRSTHDR(&msg);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		return -EPROTO;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/*
 * A connection passed with SCM_RIGHTS: its opener's privilege does not
 * go along, and a privileged sender gets nothing from an unprivileged
 * opener either (a set-user-ID program writing to the stdout it was
 * given).  @opener connects and passes the connection to @sender.
 */
static void passed(struct __test_metadata *_metadata, int opener, int sender)
{
	int sp[2], status, fd;
	struct vt_conn c;
	const char *msg;
	pid_t pid;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sp));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct vt_conn o;

		if (vt_become(opener) || vt_open_ready(&o) || send_fd(sp[1], o.fd))
			_exit(1);
		_exit(0);
	}
	fd = recv_fd(sp[0]);
	ASSERT_LE(0, fd);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);
	if (sender)
		ASSERT_EQ(0, vt_become(sender));
	vt_init(&c);
	c.fd = fd;
	ASSERT_EQ(1, vt_call(&c, "{" M("Privileged") "}", &msg));
	EXPECT_TRUE(vt_is_error(msg, "org.varlink.service.PermissionDenied"))
		TH_LOG("%s", msg);
	ASSERT_EQ(1, vt_call(&c, "{" M("WhoAmI") "}", &msg));
	EXPECT_TRUE(vt_json_is(msg, "parameters.sys_admin", "false")) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.uid", vt_fmt("%d", opener)))
		TH_LOG("%s", msg);
	vt_close(&c);
}

TEST(privileged_passed_to_nobody)
{
	passed(_metadata, 0, 65534);
}

TEST(privileged_passed_to_root)
{
	passed(_metadata, 65534, 0);
}

/*
 * A sender that executes a set-user-ID-root program after writing its
 * call lends that call nothing: when the call is read, the writer's uids
 * are no longer those it wrote with.  Root's connection is busy with a
 * Defer call while nobody, holding it too, writes a privileged call and
 * executes a set-user-ID-root copy of this test, which waits in
 * suid_wait() until the call was answered.
 */
#define SUID_COPY	"/tmp/vt-provider-suid"
#define SUID_ENV	"VT_SUID_WAIT_FD"

/* In the set-user-ID copy: say so on the fd named, wait, and go. */
__attribute__((constructor)) static void suid_wait(void)
{
	const char *fd = getenv(SUID_ENV);
	char b = geteuid() == 0 && getuid() != 0;

	if (!fd)
		return;
	if (write(atoi(fd), &b, 1) == 1)
		sleep(3);
	_exit(0);
}

static int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out, ok = 1;
	ssize_t n;

	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0700);
	if (in < 0 || out < 0)
		return -errno;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		ok &= write(out, buf, n) == n;
	close(in);
	ok &= !fchmod(out, mode);
	close(out);
	return ok && !n ? 0 : -EIO;
}

/*
 * The end of a test whose writer, @pid, wrote Privileged on root's
 * connection @c (busy with a Defer) and then changed what it runs: @b
 * is what it reported once it did (1: it got there, as @what says, -1:
 * it said nothing).  Defer is answered, then Privileged is refused.
 */
static void refused_after_change(struct __test_metadata *_metadata,
				 struct vt_conn *c, pid_t pid, char b,
				 const char *what)
{
	const char *msg;
	int status;

	if (b < 0) {
		waitpid(pid, &status, 0);
		ASSERT_TRUE(0) TH_LOG("the writer did not get there: status %d", status);
	}
	EXPECT_EQ(1, b) TH_LOG("%s", what);
	ASSERT_EQ(1, vt_recv(c, VT_TIMEOUT_MS, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("Defer: %s", msg);
	ASSERT_EQ(1, vt_recv(c, VT_TIMEOUT_MS, &msg));
	EXPECT_TRUE(vt_is_error(msg, "org.varlink.service.PermissionDenied"))
		TH_LOG("%s", msg);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
}

TEST(privileged_sender_exec_setuid)
{
	int p[2];
	struct vt_conn c;
	struct stat root;
	pid_t pid;
	char b = 0;

	ASSERT_EQ(0, copy_file("/proc/self/exe", SUID_COPY, 04755));
	/* the initramfs's / may be closed to others: nobody must reach /tmp */
	ASSERT_EQ(0, stat("/", &root));
	ASSERT_EQ(0, chmod("/", 0755));
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(0, vt_send(&c, "{" M("Defer") ",\"parameters\":{\"delay_ms\":1000}}"));
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (vt_become(65534) || vt_send(&c, "{" M("Privileged") "}") ||
		    setenv(SUID_ENV, vt_fmt("%d", p[1]), 1))
			_exit(1);
		execl(SUID_COPY, SUID_COPY, (char *)NULL);
		_exit(2);
	}
	close(p[1]);
	/* the writer now runs set-user-ID root, before its call is read */
	if (read(p[0], &b, 1) != 1)
		b = -1;
	chmod("/", root.st_mode & 07777);
	refused_after_change(_metadata, &c, pid, b,
			     "the copy did not run set-user-ID root");
	vt_close(&c);
	unlink(SUID_COPY);
}

/*
 * A thread that dropped its capabilities is lent none by the other
 * threads of its process: AF_UNIX records the process that wrote, not
 * the thread, so the sender holds what every thread of it holds, alike
 * when the call runs in the writer's task (fast_path=1) and in a kworker
 * (fast_path=0).  Once that thread is gone, the process may again.
 */
#define FAST_PATH	"/sys/module/varlink/parameters/fast_path"

FIXTURE(thread_caps) {
	struct vt_conn c;
	int dropped[2], go[2];
	const char *reply;	/* the dropping thread's reply */
	int sethostname_err;	/* and its own sethostname(2)'s errno */
};

FIXTURE_VARIANT(thread_caps) {
	const char *fast_path;
};

FIXTURE_VARIANT_ADD(thread_caps, inline) { .fast_path = "1" };
FIXTURE_VARIANT_ADD(thread_caps, kworker) { .fast_path = "0" };

FIXTURE_SETUP(thread_caps)
{
	ASSERT_EQ(0, vt_write_file(FAST_PATH, variant->fast_path));
	ASSERT_EQ(0, vt_open_ready(&self->c));
	ASSERT_EQ(0, pipe(self->dropped));
	ASSERT_EQ(0, pipe(self->go));
}

FIXTURE_TEARDOWN(thread_caps)
{
	vt_close(&self->c);
	vt_write_file(FAST_PATH, "1");
}

/* Drops every capability of this thread only, calls, and waits. */
static void *drop_caps_and_call(void *arg)
{
	struct _test_data_thread_caps *self = arg;
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};
	char name[65] = "", b = 0;

	gethostname(name, sizeof(name) - 1);
	if (syscall(SYS_capset, &hdr, data))
		return NULL;
	self->sethostname_err = sethostname(name, strlen(name)) ? errno : 0;
	if (vt_call(&self->c, "{" M("Privileged") "}", &self->reply) == 1)
		self->reply = strdup(self->reply);
	/* until the test lets it go: a read that ends at close */
	if (write(self->dropped[1], &b, 1) == 1 && read(self->go[0], &b, 1) < 0)
		b = 1;
	return NULL;
}

static int threads(void)
{
	DIR *d = opendir("/proc/self/task");
	int n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n - 2;	/* . and .. */
}

TEST_F(thread_caps, dropped_in_one_thread)
{
	const char *msg;
	pthread_t t;
	char b;
	int i;

	ASSERT_EQ(0, pthread_create(&t, NULL, drop_caps_and_call, self));
	ASSERT_EQ(1, read(self->dropped[0], &b, 1));
	EXPECT_EQ(EPERM, self->sethostname_err);
	ASSERT_NE(NULL, self->reply);
	EXPECT_TRUE(vt_is_error(self->reply, "org.varlink.service.PermissionDenied"))
		TH_LOG("the thread without capabilities: %s", self->reply);

	/* this thread holds them, but the writer may have been the other */
	ASSERT_EQ(1, vt_call(&self->c, "{" M("Privileged") "}", &msg));
	EXPECT_TRUE(vt_is_error(msg, "org.varlink.service.PermissionDenied"))
		TH_LOG("with a thread without capabilities: %s", msg);

	close(self->go[1]);
	ASSERT_EQ(0, pthread_join(t, NULL));
	/* the thread is released a little after pthread_join() returns */
	for (i = 0; i < 100 && threads() > 1; i++)
		vt_sleep_ms(10);
	ASSERT_EQ(1, threads());
	ASSERT_EQ(1, vt_call(&self->c, "{" M("Privileged") "}", &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("once the thread is gone: %s", msg);
	free((void *)self->reply);
}

/*
 * A sender that executes a program after writing its call, and gains a
 * capability by it, lends that call nothing either, though its uids
 * stay: what it runs when the call is read is not what it wrote with.
 * The program could have file capabilities; here the writer is root
 * without CAP_SYS_ADMIN, which any program it executes gets back (no
 * SECBIT_NOROOT): a copy of this test, which waits in exec_wait().
 */
#define EXEC_COPY	"/tmp/vt-provider-exec"
#define EXEC_ENV	"VT_EXEC_WAIT_FD"

static bool has_sys_admin(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	return !syscall(SYS_capget, &hdr, data) &&
	       data[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective & CAP_TO_MASK(CAP_SYS_ADMIN);
}

/* In the executed copy: say whether it holds CAP_SYS_ADMIN, wait, go. */
__attribute__((constructor)) static void exec_wait(void)
{
	const char *fd = getenv(EXEC_ENV);
	char b = has_sys_admin();

	if (!fd)
		return;
	if (write(atoi(fd), &b, 1) == 1)
		sleep(3);
	_exit(0);
}

TEST(privileged_sender_exec_regains)
{
	int p[2];
	struct vt_conn c;
	pid_t pid;
	char b = 0;

	ASSERT_EQ(0, copy_file("/proc/self/exe", EXEC_COPY, 0755));
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(0, vt_send(&c, "{" M("Defer") ",\"parameters\":{\"delay_ms\":1000}}"));
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (vt_drop_sys_admin() || vt_send(&c, "{" M("Privileged") "}") ||
		    setenv(EXEC_ENV, vt_fmt("%d", p[1]), 1))
			_exit(1);
		execl(EXEC_COPY, EXEC_COPY, (char *)NULL);
		_exit(2);
	}
	close(p[1]);
	/* the writer holds CAP_SYS_ADMIN again, before its call is read */
	if (read(p[0], &b, 1) != 1)
		b = -1;
	refused_after_change(_metadata, &c, pid, b,
			     "the copy did not get CAP_SYS_ADMIN back");
	vt_close(&c);
	unlink(EXEC_COPY);
}

/*
 * The writer's pid is another process's by the time its call is read:
 * root without CAP_SYS_ADMIN writes a privileged call on root's busy
 * connection and exits; root's next process, with every capability, is
 * given its pid (clone3()'s set_tid, as CRIU gives one) before the call
 * is read.  The call is the exited writer's, who is no sender, not the
 * new process's: since 6.16 the server learns the writer by its number
 * only.
 */
static pid_t fork_with_pid(pid_t pid)
{
	struct clone_args args = {
		.exit_signal = SIGCHLD,
		.set_tid = (uintptr_t)&pid,
		.set_tid_size = 1,
	};

	return syscall(SYS_clone3, &args, sizeof(args));
}

static int wait_for_eof(int fd)
{
	char b;

	while (read(fd, &b, 1) > 0)
		;
	return 0;
}

TEST(privileged_sender_pid_reused)
{
	int status, go[2];
	struct vt_conn c;
	const char *msg;
	pid_t writer, next;

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(0, vt_send(&c, "{" M("Defer") ",\"parameters\":{\"delay_ms\":1500}}"));
	writer = fork();
	ASSERT_LE(0, writer);
	if (!writer)
		_exit(vt_drop_sys_admin() || vt_send(&c, "{" M("Privileged") "}"));
	ASSERT_EQ(writer, waitpid(writer, &status, 0));
	ASSERT_EQ(0, status);
	/* root's next process is given the writer's pid */
	ASSERT_EQ(0, pipe(go));
	next = fork_with_pid(writer);
	ASSERT_LE(0, next) TH_LOG("clone3: %s", strerror(errno));
	if (!next) {
		close(go[1]);
		_exit(wait_for_eof(go[0]));
	}
	close(go[0]);
	EXPECT_EQ(writer, next) TH_LOG("the pid was not reused");
	ASSERT_EQ(1, vt_recv(&c, VT_TIMEOUT_MS, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("Defer: %s", msg);
	ASSERT_EQ(1, vt_recv(&c, VT_TIMEOUT_MS, &msg));
	EXPECT_TRUE(vt_is_error(msg, "org.varlink.service.PermissionDenied"))
		TH_LOG("%s", msg);
	close(go[1]);
	ASSERT_EQ(next, waitpid(next, &status, 0));
	vt_close(&c);
}

/*
 * A call whose bytes two processes wrote has no sender: nobody writes the
 * start of a call on root's connection, root the end.  Root's own calls
 * on it go through again afterwards.
 */
TEST(privileged_two_writers)
{
	static const char head[] = "{" M("Privileged");
	int status, go[2];
	struct vt_conn c;
	const char *msg;
	pid_t pid;
	char b;

	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (vt_become(65534) || write(c.fd, head, strlen(head)) != strlen(head))
			_exit(1);
		_exit(write(go[1], "", 1) == 1 ? 0 : 2);
	}
	ASSERT_EQ(1, read(go[0], &b, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);
	/* the server has read the head: the rest comes in a write of its own */
	vt_sleep_ms(200);
	ASSERT_EQ(1, vt_call(&c, "}", &msg));
	EXPECT_TRUE(vt_is_error(msg, "org.varlink.service.PermissionDenied"))
		TH_LOG("%s", msg);
	ASSERT_EQ(1, vt_call(&c, "{" M("Privileged") "}", &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	vt_close(&c);
}

/*
 * A descriptor sent to the server: refused by the kernel (SO_PASSRIGHTS
 * off, since 6.16), or closed unread; the NUL byte that carries it is an
 * empty message, which closes the connection.  Nothing else happens.
 */
TEST(descriptor_to_server)
{
	struct vt_conn c;
	const char *msg;
	int err;

	ASSERT_EQ(0, vt_open_ready(&c));
	err = send_fd(c.fd, 0);
	EXPECT_TRUE(err ? err == -EPERM : vt_closed(&c, VT_TIMEOUT_MS) == 1)
		TH_LOG("sending a descriptor: %s", strerror(-err));
	vt_close(&c);
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(1, vt_call(&c, VT_PING, &msg));
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	vt_close(&c);
}

/*
 * The cancel callback of a call that is finished meanwhile: the client
 * of a Linger call goes away, the core decides to cancel it and waits
 * (test_cancel_delay_ms, a debugfs knob of test builds); meanwhile
 * Finish, on another connection, sends its final reply.  The cancel
 * callback then runs after the final reply, and finds its data intact:
 * the core frees it with the release callback (under KASAN on the debug
 * kernel, a use-after-free would show).
 */
#define CANCEL_DELAY	"/sys/kernel/debug/varlink/test_cancel_delay_ms"

TEST(cancel_after_final_reply)
{
	struct vt_conn a, b;
	const char *msg, *late;
	long before;
	size_t len;

	ASSERT_EQ(0, vt_open_ready(&b));
	ASSERT_EQ(1, vt_call(&b, "{" M("Finish") "}", &msg));
	ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	late = vt_json_find(msg, "parameters.late_cancels", &len);
	ASSERT_NE(NULL, late);
	before = atol(late);

	ASSERT_EQ(0, vt_write_file(CANCEL_DELAY, "600"));
	ASSERT_EQ(0, vt_open_ready(&a));
	ASSERT_EQ(0, vt_send(&a, "{" M("Linger") "}"));
	vt_sleep_ms(200);
	vt_close(&a);		/* the cancel is decided, then waits */
	vt_sleep_ms(200);
	ASSERT_EQ(1, vt_call(&b, "{" M("Finish") "}", &msg));
	EXPECT_TRUE(vt_json_is(msg, "parameters.finished", "true")) TH_LOG("%s", msg);
	vt_sleep_ms(800);	/* the cancel callback has run */
	ASSERT_EQ(0, vt_write_file(CANCEL_DELAY, "0"));
	ASSERT_EQ(1, vt_call(&b, "{" M("Finish") "}", &msg));
	EXPECT_TRUE(vt_json_is(msg, "parameters.finished", "false")) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.late_cancels", vt_fmt("%ld", before + 1)))
		TH_LOG("%s", msg);

	/* and with no delay, a cancel that comes first sends the final reply */
	ASSERT_EQ(0, vt_open_ready(&a));
	ASSERT_EQ(0, vt_send(&a, "{" M("Linger") "}"));
	vt_sleep_ms(200);
	vt_close(&a);
	vt_sleep_ms(200);
	ASSERT_EQ(1, vt_call(&b, "{" M("Finish") "}", &msg));
	EXPECT_TRUE(vt_json_is(msg, "parameters.finished", "false")) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_json_is(msg, "parameters.late_cancels", vt_fmt("%ld", before + 1)))
		TH_LOG("%s", msg);
	vt_close(&b);
}

/* The permission check comes before the callback: oneway or not. */
TEST(privileged_oneway_denied)
{
	struct vt_conn c;
	const char *msg;

	ASSERT_EQ(0, vt_become(65534));
	ASSERT_EQ(0, vt_open_ready(&c));
	ASSERT_EQ(0, vt_send(&c, "{" M("Privileged") ",\"oneway\":true}"));
	ASSERT_EQ(1, vt_call(&c, "{" M("Privileged") ",\"more\":true}", &msg));
	EXPECT_TRUE(vt_is_error(msg, "org.varlink.service.PermissionDenied"))
		TH_LOG("%s", msg);
	EXPECT_FALSE(vt_json_has(msg, "continues"));
	vt_close(&c);
}

TEST_HARNESS_MAIN
