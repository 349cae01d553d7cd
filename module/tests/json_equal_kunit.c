// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite varlink_json_equal: varlink_json_equal() over a table of
 * value pairs, each also compared the other way round and with itself,
 * plus nesting at and over the depth limit and a large object; and the
 * walk of an array or object (varlink_json_iter_next()) and the decoding
 * of a string (varlink_json_str()), each over a copy of exactly the
 * text's size, so that KASAN sees a read past it.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../compat.h"
#include "../json.h"
#include <linux/varlink.h>

/**
 * struct json_equal_case - one comparison
 * @name: what it shows
 * @value: the received value, or NULL for an absent parameter
 * @expected: the expected JSON text
 * @want: 1 equal, 0 different, or -errno
 */
struct json_equal_case {
	const char *name;
	const char *value;
	const char *expected;
	int want;
};

/* The certification's MyType, as the Python server sends it */
#define MYTYPE(foo1, nulls)						\
	"{\"object\":{\"method\":\"org.varlink.certification.Test09\","	\
	"\"parameters\":{\"map\":{\"foo\":\"Foo\",\"bar\":\"Bar\"}}},"	\
	"\"enum\":\"two\",\"struct\":{\"first\":1,\"second\":\"2\"},"	\
	"\"array\":[\"one\",\"two\",\"three\"],"			\
	"\"dictionary\":{\"foo\":\"Foo\",\"bar\":\"Bar\"},"		\
	"\"stringset\":{\"one\":{},\"two\":{},\"three\":{}}," nulls	\
	"\"interface\":{\"foo\":[null," foo1 ",null,"			\
	"{\"one\":\"foo\",\"two\":\"bar\"}],"				\
	"\"anon\":{\"foo\":true,\"bar\":false}}}"
#define PY_FOO1		"{\"foo\":\"foo\",\"bar\":\"bar\"}"
#define GO_FOO1		"{\"Foo\":\"foo\",\"Bar\":\"bar\"}"
#define NULLS		"\"nullable\":null,\"nullable_array_struct\":null,"

static const struct json_equal_case json_equal_cases[] = {
	/* scalars */
	{ "true", "true", "true", 1 },
	{ "false", "false", " false ", 1 },
	{ "true_false", "true", "false", 0 },
	{ "null", "null", "null", 1 },
	{ "absent_is_null", NULL, "null", 1 },
	{ "absent_not_empty_object", NULL, "{}", 0 },
	{ "absent_not_false", NULL, "false", 0 },
	{ "int", "42", "42", 1 },
	{ "int_float", "1", "1.0", 1 },
	{ "int_exponent", "1", "10e-1", 1 },
	{ "exponent_forms", "0.1e1", "1E0", 1 },
	{ "zero_minus_zero", "0", "-0.0", 1 },
	{ "int_differs", "1", "2", 0 },
	{ "sign_differs", "-1", "1", 0 },
	{ "big_ints", "18446744073709551615", "18446744073709551615", 1 },
	{ "big_ints_differ", "18446744073709551615", "18446744073709551614", 0 },
	{ "pi", "3.141592653589793", "3.141592653589793", 1 },
	{ "pi_exact_not_double", "3.141592653589793", "3.1415926535897931", 0 },
	{ "number_string", "1", "\"1\"", 0 },
	{ "bool_number", "true", "1", 0 },
	{ "null_false", "null", "false", 0 },
	/* strings */
	{ "string", "\"ping\"", "\"ping\"", 1 },
	{ "string_differs", "\"ping\"", "\"pong\"", 0 },
	{ "string_prefix", "\"ab\"", "\"abc\"", 0 },
	{ "string_case", "\"foo\"", "\"Foo\"", 0 },
	{ "empty_string", "\"\"", "\"\"", 1 },
	{ "escape_u", "\"\\u0041\"", "\"A\"", 1 },
	{ "escape_both", "\"\\u0041\\n\"", "\"\\u0041\\u000a\"", 1 },
	{ "escape_solidus", "\"a\\/b\"", "\"a/b\"", 1 },
	{ "escape_differs", "\"\\n\"", "\"\\t\"", 0 },
	{ "escape_utf8", "\"\\u00e9t\\u00E9\"", "\"\xc3\xa9t\xc3\xa9\"", 1 },
	{ "escape_surrogates", "\"\\ud83d\\ude00\"", "\"\xf0\x9f\x98\x80\"", 1 },
	{ "escape_nul", "\"a\\u0000b\"", "\"a\\u0000b\"", 1 },
	{ "escape_nul_differs", "\"a\\u0000b\"", "\"a\\u0000c\"", 0 },
	/* arrays */
	{ "empty_array", "[]", "[ ]", 1 },
	{ "array", "[1,\"two\",true,null]", "[1.0, \"two\", true, null]", 1 },
	{ "array_order", "[1,2]", "[2,1]", 0 },
	{ "array_shorter", "[1,2]", "[1,2,3]", 0 },
	{ "array_null_is_a_value", "[null]", "[]", 0 },
	{ "array_nested", "[[1,[2]],[]]", "[[1,[2]],[]]", 1 },
	{ "array_nested_differs", "[[1,[2]],[]]", "[[1,[3]],[]]", 0 },
	{ "array_object", "[]", "{}", 0 },
	/* objects */
	{ "empty_object", "{}", "{}", 1 },
	{ "object_order", "{\"a\":1,\"b\":2}", "{\"b\":2,\"a\":1}", 1 },
	{ "object_value_differs", "{\"a\":1,\"b\":2}", "{\"a\":1,\"b\":3}", 0 },
	{ "object_missing", "{\"a\":1}", "{\"a\":1,\"b\":2}", 0 },
	{ "object_extra", "{\"a\":1,\"c\":2}", "{\"a\":1}", 0 },
	{ "object_key_differs", "{\"a\":1}", "{\"b\":1}", 0 },
	{ "object_null_is_absent", "{\"a\":1,\"n\":null}", "{\"a\":1}", 1 },
	{ "object_absent_is_null", "{\"a\":1}", "{\"n\":null,\"a\":1}", 1 },
	{ "object_null_both", "{\"n\":null}", "{\"m\":null}", 1 },
	{ "object_null_not_value", "{\"n\":null}", "{\"n\":0}", 0 },
	{ "object_value_not_null", "{\"n\":false}", "{\"n\":null}", 0 },
	{ "object_escaped_key", "{\"\\u0061\":1}", "{\"a\":1}", 1 },
	{ "object_key_case", "{\"Foo\":1}", "{\"foo\":1}", 0 },
	{ "object_nested",
	  "{\"x\":{\"y\":[{\"z\":1},{}]},\"w\":\"v\"}",
	  "{\"w\":\"v\",\"x\":{\"y\":[{\"z\":1.0},{\"q\":null}]}}", 1 },
	{ "object_nested_differs",
	  "{\"x\":{\"y\":[{\"z\":1},{}]}}", "{\"x\":{\"y\":[{},{\"z\":1}]}}", 0 },
	{ "object_after_nested_differs",
	  "{\"x\":{\"y\":{}},\"w\":1}", "{\"x\":{\"y\":{}},\"w\":2}", 0 },
	{ "object_whitespace", "{\"a\":[1,2]}", "\n{ \"a\" : [ 1 , 2 ] }\t", 1 },
	/* the certification's values */
	{ "set_order", "{\"two\":{},\"three\":{},\"one\":{}}",
	  "{\"one\":{},\"two\":{},\"three\":{}}", 1 },
	{ "mytype", MYTYPE(PY_FOO1, NULLS), MYTYPE(PY_FOO1, NULLS), 1 },
	{ "mytype_without_nulls", MYTYPE(PY_FOO1, ""), MYTYPE(PY_FOO1, NULLS), 1 },
	{ "mytype_go_keys", MYTYPE(GO_FOO1, ""), MYTYPE(PY_FOO1, NULLS), 0 },
	{ "mytype_nullable_set", MYTYPE(PY_FOO1, "\"nullable\":\"x\","),
	  MYTYPE(PY_FOO1, NULLS), 0 },
	/* bad expected texts */
	{ "bad_empty", "1", "", -EINVAL },
	{ "bad_unclosed", "{}", "{", -EINVAL },
	{ "bad_trailing_comma", "[1]", "[1,]", -EINVAL },
	{ "bad_two_values", "1", "1 2", -EINVAL },
	{ "bad_duplicate_key", "{\"a\":1}", "{\"a\":1,\"a\":1}", -EINVAL },
	{ "bad_single_quotes", "\"a\"", "'a'", -EINVAL },
	{ "bad_nan", "1", "NaN", -EINVAL },
};

static void json_equal_desc(const struct json_equal_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(json_equal, json_equal_cases, json_equal_desc);

/* Compare @value (NULL: absent) with @expected; the value is copied into a
 * buffer of exactly its length, without a NUL, as a parameter would be.
 */
static int json_equal_run(struct kunit *test, const char *value,
			  const char *expected)
{
	struct varlink_json v = {};
	char *buf;

	if (value) {
		v.len = strlen(value);
		buf = kunit_kmalloc(test, v.len ? v.len : 1, GFP_KERNEL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
		memcpy(buf, value, v.len);
		v.text = buf;
	}
	return varlink_json_equal(&v, expected);
}

static void json_equal_test_table(struct kunit *test)
{
	const struct json_equal_case *c = test->param_value;
	const char *value = c->value ? c->value : "null";

	KUNIT_EXPECT_EQ_MSG(test, json_equal_run(test, c->value, c->expected),
			    c->want, "'%s' vs '%s'", value, c->expected);
	if (c->want < 0)
		return;
	/* equality is symmetric and reflexive */
	KUNIT_EXPECT_EQ_MSG(test, json_equal_run(test, c->expected, value),
			    c->want, "'%s' vs '%s'", c->expected, value);
	KUNIT_EXPECT_EQ_MSG(test, json_equal_run(test, value, value), 1,
			    "'%s' vs itself", value);
	KUNIT_EXPECT_EQ_MSG(test, json_equal_run(test, c->expected, c->expected),
			    1, "'%s' vs itself", c->expected);
}

/* A bad received value is an error too. */
static void json_equal_test_bad_value(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, json_equal_run(test, "[1,", "[1]"), -EINVAL);
	KUNIT_EXPECT_EQ(test, json_equal_run(test, "", "1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, json_equal_run(test, "1", NULL), -EINVAL);
}

/* @n arrays nested in each other around @inner, e.g. [[[0]]]. */
static char *json_equal_nest(struct kunit *test, u32 n, const char *inner)
{
	size_t len = strlen(inner);
	char *s = kunit_kmalloc(test, 2 * n + len + 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	memset(s, '[', n);
	memcpy(s + n, inner, len);
	memset(s + n + len, ']', n);
	s[2 * n + len] = '\0';
	return s;
}

/* Nesting up to the depth limit compares, deeper is refused. */
static void json_equal_test_depth(struct kunit *test)
{
	u32 max = VL_JSON_DEPTH_MAX;
	char *a = json_equal_nest(test, max, "0");
	char *b = json_equal_nest(test, max, "0.0");
	char *c = json_equal_nest(test, max, "1");
	char *d = json_equal_nest(test, max + 1, "0");

	KUNIT_EXPECT_EQ(test, json_equal_run(test, a, b), 1);
	KUNIT_EXPECT_EQ(test, json_equal_run(test, a, c), 0);
	KUNIT_EXPECT_EQ(test, json_equal_run(test, d, d), -E2BIG);
	KUNIT_EXPECT_EQ(test, json_equal_run(test, a, d), -E2BIG);
}

#define BIG_MEMBERS	500

/* An object of BIG_MEMBERS members, in order or in reverse. */
static char *json_equal_big(struct kunit *test, bool reverse, int change)
{
	size_t size = BIG_MEMBERS * 24 + 3, len = 0;
	char *s = kunit_kmalloc(test, size, GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	s[len++] = '{';
	for (i = 0; i < BIG_MEMBERS; i++) {
		int k = reverse ? BIG_MEMBERS - 1 - i : i;

		len += scnprintf(s + len, size - len, "%s\"k%d\":%d",
				 i ? "," : "", k, k == change ? -1 : k);
	}
	s[len++] = '}';
	s[len] = '\0';
	return s;
}

static void json_equal_test_big_object(struct kunit *test)
{
	char *a = json_equal_big(test, false, -2);
	char *b = json_equal_big(test, true, -2);
	char *c = json_equal_big(test, true, BIG_MEMBERS / 2);

	KUNIT_EXPECT_EQ(test, json_equal_run(test, a, b), 1);
	KUNIT_EXPECT_EQ(test, json_equal_run(test, a, c), 0);
	KUNIT_EXPECT_EQ(test, json_equal_run(test, c, a), 0);
}

/* @text in a buffer of exactly its size, as a VARLINK_JSON value */
static struct varlink_json json_iter_value(struct kunit *test, const char *text)
{
	struct varlink_json v = { .len = strlen(text) };
	char *buf = kunit_kmalloc(test, v.len ? v.len : 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	memcpy(buf, text, v.len);
	v.text = buf;
	return v;
}

/**
 * struct json_iter_case - one walk
 * @text: the value walked
 * @want: its elements, each "VALUE" or "KEY=VALUE" as in the text, and
 *	"|" between them
 * @end: what the walk ends with, 0 or -EINVAL
 */
struct json_iter_case {
	const char *text;
	const char *want;
	int end;
};

static const struct json_iter_case json_iter_cases[] = {
	{ "[]", "", 0 },
	{ " { } ", "", 0 },
	{ "null", "", 0 },
	{ "[1]", "1", 0 },
	{ "[\"a\",\"b\"]", "\"a\"|\"b\"", 0 },
	/* brackets, commas and escaped quotes inside strings */
	{ "[ \"a]\" , \"b\\\"],\" ,{\"x\":[1,{\"y\":\"]}\"}]}, null, -1.5e3 ,true ]",
	  "\"a]\"|\"b\\\"],\"|{\"x\":[1,{\"y\":\"]}\"}]}|null|-1.5e3|true", 0 },
	{ "[[],{},[[]]]", "[]|{}|[[]]", 0 },
	{ "{\"k1\":\"v\",\"k\\u0032\" : [1,2] ,\"k3\":{}}",
	  "\"k1\"=\"v\"|\"k\\u0032\"=[1,2]|\"k3\"={}", 0 },
	{ "{\"a\\\\\":\"\\\\\"}", "\"a\\\\\"=\"\\\\\"", 0 },
	/* not JSON: the walk ends there, never past the text */
	{ "[\"abc", "", -EINVAL },
	{ "[1,{\"a\":", "1", -EINVAL },
	{ "[1,[2,3", "1", -EINVAL },
	{ "{\"a\" 1}", "", -EINVAL },
	{ "{1:2}", "", -EINVAL },
	{ "[,1]", "", -EINVAL },
	{ "[\"a\\", "", -EINVAL },
};

static void json_iter_desc(const struct json_iter_case *c, char *desc)
{
	strscpy(desc, c->text, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(json_iter, json_iter_cases, json_iter_desc);

static void json_iter_test_table(struct kunit *test)
{
	const struct json_iter_case *c = test->param_value;
	struct varlink_json v = json_iter_value(test, c->text), key, val;
	struct varlink_json_iter it;
	char got[256];
	size_t len = 0;
	int ret;

	KUNIT_ASSERT_EQ(test, varlink_json_iter_init(&it, &v), 0);
	got[0] = '\0';
	while ((ret = varlink_json_iter_next(&it, &key, &val)) > 0) {
		if (key.text)
			len += scnprintf(got + len, sizeof(got) - len, "%s%.*s=",
					 len ? "|" : "", (int)key.len, key.text);
		len += scnprintf(got + len, sizeof(got) - len, "%s%.*s",
				 len && !key.text ? "|" : "", (int)val.len,
				 val.text);
	}
	KUNIT_EXPECT_EQ_MSG(test, ret, c->end, "%s", c->text);
	KUNIT_EXPECT_STREQ_MSG(test, got, c->want, "%s", c->text);
	/* and it stays at its end */
	KUNIT_EXPECT_EQ(test, varlink_json_iter_next(&it, &key, &val), 0);
}

static void json_iter_test_misuse(struct kunit *test)
{
	struct varlink_json absent = {}, v, key, val;
	struct varlink_json_iter it;
	static const char *const scalars[] = { "\"[]\"", "1", "true", "", " " };
	unsigned int i;

	KUNIT_EXPECT_EQ(test, varlink_json_iter_init(&it, &absent), 0);
	KUNIT_EXPECT_EQ(test, varlink_json_iter_next(&it, &key, &val), 0);
	for (i = 0; i < ARRAY_SIZE(scalars); i++) {
		v = json_iter_value(test, scalars[i]);
		KUNIT_EXPECT_EQ_MSG(test, varlink_json_iter_init(&it, &v),
				    -EINVAL, "'%s'", scalars[i]);
	}
}

/* A walk's strings and keys decoded */
static void json_str_test(struct kunit *test)
{
	struct varlink_json v, absent = {};
	char buf[16];

	v = json_iter_value(test, "\"a\\u00e9\\ud83d\\ude00\\n\"");
	KUNIT_EXPECT_EQ(test, varlink_json_str(&v, buf, sizeof(buf)), 8);
	KUNIT_EXPECT_EQ(test, memcmp(buf, "a\xc3\xa9\xf0\x9f\x98\x80\n", 9), 0);
	v = json_iter_value(test, "\"abc\"");
	KUNIT_EXPECT_EQ(test, varlink_json_str(&v, buf, 4), 3);
	KUNIT_EXPECT_STREQ(test, buf, "abc");
	KUNIT_EXPECT_EQ(test, varlink_json_str(&v, buf, 3), -ENOSPC);
	v = json_iter_value(test, "\"x\\u0000y\"");
	KUNIT_EXPECT_EQ(test, varlink_json_str(&v, buf, sizeof(buf)), -EINVAL);
	v = json_iter_value(test, "1");
	KUNIT_EXPECT_EQ(test, varlink_json_str(&v, buf, sizeof(buf)), -EINVAL);
	v = json_iter_value(test, "\"abc");
	KUNIT_EXPECT_EQ(test, varlink_json_str(&v, buf, sizeof(buf)), -EINVAL);
	v = json_iter_value(test, "\"a\" \"b\"");
	KUNIT_EXPECT_EQ(test, varlink_json_str(&v, buf, sizeof(buf)), -EINVAL);
	KUNIT_EXPECT_EQ(test, varlink_json_str(&absent, buf, sizeof(buf)),
			-EINVAL);
}

static struct kunit_case json_equal_test_cases[] = {
	KUNIT_CASE_PARAM(json_equal_test_table, json_equal_gen_params),
	KUNIT_CASE(json_equal_test_bad_value),
	KUNIT_CASE(json_equal_test_depth),
	KUNIT_CASE(json_equal_test_big_object),
	KUNIT_CASE_PARAM(json_iter_test_table, json_iter_gen_params),
	KUNIT_CASE(json_iter_test_misuse),
	KUNIT_CASE(json_str_test),
	{}
};

static struct kunit_suite json_equal_test_suite = {
	.name = "varlink_json_equal",
	.test_cases = json_equal_test_cases,
};

kunit_test_suite(json_equal_test_suite);

MODULE_IMPORT_NS(VL_NS(VARLINK_TEST));
