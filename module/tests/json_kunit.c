// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite varlink_json: the tokenizer, its accessors and its number
 * helpers against the corpus of json_cases.h (which the host runner in
 * selftests/host runs too), plus every short byte sequence in a string.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../compat.h"
#include "../json.h"
#include "../json_number.h"
#include "json_cases.h"
#include "json_extra.h"

#define ECHO_SIZE	192

static const struct vl_json_limits json_test_limits = VL_JSON_LIMITS_DEFAULT;

/* Parse @in from a copy of exactly @len bytes, so KASAN sees overreads. */
static int json_test_parse(struct kunit *test, struct vl_json *js,
			   const char *in, size_t len,
			   const struct vl_json_limits *lim)
{
	u32 cap = vl_json_tokens_needed(len);
	struct vl_json_tok *toks;
	char *buf;

	buf = kunit_kmalloc(test, len ? len : 1, GFP_KERNEL);
	toks = kunit_kcalloc(test, cap, sizeof(*toks), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, toks);
	memcpy(buf, in, len);
	vl_json_init(js, toks, cap);
	return vl_json_parse(js, buf, len, lim ? lim : &json_test_limits);
}

static const char *json_test_echo(struct kunit *test, const char *in,
				  size_t len)
{
	char *out = kunit_kmalloc(test, ECHO_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, out);
	return json_echo(out, ECHO_SIZE, in, len);
}

/* Every string token decodes to its @count bytes, and compares equal. */
static void json_test_strings(struct kunit *test, const struct vl_json *js,
			      const char *echo)
{
	char *dec = kunit_kmalloc(test, js->len + 1, GFP_KERNEL);
	u32 i;
	int n;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dec);
	for (i = 0; i < js->ntoks; i++) {
		if (js->toks[i].type != VL_JSON_STRING)
			continue;
		n = vl_json_unescape(js, i, dec, js->len + 1);
		KUNIT_EXPECT_EQ_MSG(test, n, (int)js->toks[i].count,
				    "input '%s', token %u", echo, i);
		if (n >= 0)
			KUNIT_EXPECT_TRUE_MSG(test, vl_json_str_eq(js, i, dec, n),
					      "input '%s', token %u", echo, i);
	}
}

static void json_case_desc(const struct json_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(json_corpus, json_cases, json_case_desc);

static void json_test_corpus(struct kunit *test)
{
	const struct json_case *c = test->param_value;
	const char *echo = json_test_echo(test, c->in, c->len);
	struct vl_json js;
	int err;

	err = json_test_parse(test, &js, c->in, c->len,
			      c->has_lim ? &c->lim : NULL);

	KUNIT_ASSERT_EQ_MSG(test, err, c->err, "input '%s': %s at %u", echo,
			    js.emsg ? js.emsg : "accepted", js.epos);
	if (c->err) {
		KUNIT_EXPECT_NOT_NULL_MSG(test, js.emsg, "input '%s'", echo);
		if (c->has_epos)
			KUNIT_EXPECT_EQ_MSG(test, js.epos, c->epos,
					    "input '%s': %s", echo, js.emsg);
		return;
	}
	if (c->ntoks)
		KUNIT_EXPECT_EQ_MSG(test, js.ntoks, c->ntoks, "input '%s'",
				    echo);
	KUNIT_EXPECT_LE_MSG(test, js.ntoks, c->len / 2 + 1, "input '%s'", echo);
	KUNIT_EXPECT_NULL_MSG(test, json_check_tokens(&js), "input '%s'", echo);
	json_test_strings(test, &js, echo);
}

static void json_num_desc(const struct json_num_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(json_num, json_num_cases, json_num_desc);

static void json_test_number(struct kunit *test)
{
	const struct json_num_case *c = test->param_value;
	struct vl_json js;
	s64 s = 0;
	u64 u = 0;
	s32 s32v = 0;
	u32 u32v = 0;
	int err;

	/* Arrange */
	err = json_test_parse(test, &js, c->in, strlen(c->in), NULL);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "input '%s'", c->in);

	/* Act */
	if (c->kind == GET_S64) {
		err = vl_json_tok_s64(&js, 0, &s);
	} else if (c->kind == GET_U64) {
		err = vl_json_tok_u64(&js, 0, &u);
	} else if (c->kind == GET_S32) {
		err = vl_json_tok_s32(&js, 0, &s32v);
		s = s32v;
	} else {
		err = vl_json_tok_u32(&js, 0, &u32v);
		u = u32v;
	}

	/* Assert */
	KUNIT_EXPECT_EQ_MSG(test, err, c->err, "input '%s'", c->in);
	KUNIT_EXPECT_EQ_MSG(test, s, c->s, "input '%s'", c->in);
	KUNIT_EXPECT_EQ_MSG(test, u, c->u, "input '%s'", c->in);
}

static void json_cmp_desc(const struct json_cmp_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(json_cmp, json_cmp_cases, json_cmp_desc);

static void json_test_compare(struct kunit *test)
{
	const struct json_cmp_case *c = test->param_value;
	size_t la = strlen(c->a), lb = strlen(c->b);

	KUNIT_ASSERT_TRUE_MSG(test, vl_json_num_valid(c->a, la), "'%s'", c->a);
	KUNIT_ASSERT_TRUE_MSG(test, vl_json_num_valid(c->b, lb), "'%s'", c->b);
	KUNIT_EXPECT_EQ_MSG(test, vl_json_num_cmp(c->a, la, c->b, lb), c->want,
			    "'%s' vs '%s'", c->a, c->b);
	KUNIT_EXPECT_EQ_MSG(test, vl_json_num_cmp(c->b, lb, c->a, la), -c->want,
			    "'%s' vs '%s'", c->b, c->a);
	KUNIT_EXPECT_EQ_MSG(test, vl_json_num_cmp(c->a, la, c->a, la), 0,
			    "'%s' vs itself", c->a);
}

static void json_scaled_desc(const struct json_scaled_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(json_scaled, json_scaled_cases, json_scaled_desc);

static void json_test_scaled(struct kunit *test)
{
	const struct json_scaled_case *c = test->param_value;
	s64 v = 0;
	int err;

	err = vl_json_num_scaled(c->in, strlen(c->in), c->decimals, &v);

	KUNIT_EXPECT_EQ_MSG(test, err, c->err, "'%s' x 10^%u", c->in,
			    c->decimals);
	KUNIT_EXPECT_EQ_MSG(test, v, c->want, "'%s' x 10^%u", c->in,
			    c->decimals);
}

static void json_fixed_desc(const struct json_fixed_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(json_fixed, json_fixed_cases, json_fixed_desc);

static void json_test_fixed(struct kunit *test)
{
	const struct json_fixed_case *c = test->param_value;
	char buf[32];
	s64 back = 0;
	int n;

	n = vl_json_fixed_fmt(buf, sizeof(buf), c->v, c->decimals);

	if (c->err) {
		KUNIT_EXPECT_EQ_MSG(test, n, c->err, "%lld / 10^%u", c->v,
				    c->decimals);
		return;
	}
	KUNIT_ASSERT_EQ_MSG(test, n, (int)strlen(c->want), "%lld / 10^%u",
			    c->v, c->decimals);
	KUNIT_EXPECT_STREQ(test, buf, c->want);
	/* the lexeme is valid and converts back */
	KUNIT_EXPECT_TRUE_MSG(test, vl_json_num_valid(buf, n), "'%s'", buf);
	KUNIT_EXPECT_EQ_MSG(test, vl_json_num_scaled(buf, n, c->decimals,
						     &back), 0, "'%s'", buf);
	KUNIT_EXPECT_EQ_MSG(test, back, c->v, "'%s'", buf);
	KUNIT_EXPECT_EQ_MSG(test, vl_json_fixed_fmt(buf, n, c->v, c->decimals),
			    -ENOSPC, "no room for the NUL");
}

static void json_str_desc(const struct json_str_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(json_str, json_str_cases, json_str_desc);

static void json_test_unescape(struct kunit *test)
{
	const struct json_str_case *c = test->param_value;
	const char *echo = json_test_echo(test, c->in, c->len);
	char *out = kunit_kzalloc(test, c->len + 1, GFP_KERNEL), *inplace;
	struct vl_json js;
	int n;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, out);
	KUNIT_ASSERT_EQ_MSG(test, json_test_parse(test, &js, c->in, c->len,
						  NULL), 0, "'%s'", echo);

	n = vl_json_unescape(&js, 0, out, c->len + 1);

	KUNIT_ASSERT_EQ_MSG(test, n, (int)c->want_len, "'%s'", echo);
	KUNIT_EXPECT_TRUE_MSG(test, !memcmp(out, c->want, n) && !out[n],
			      "'%s'", echo);
	KUNIT_EXPECT_TRUE_MSG(test, vl_json_str_eq(&js, 0, c->want, n),
			      "'%s'", echo);
	KUNIT_EXPECT_EQ_MSG(test, vl_json_unescape(&js, 0, out, n), -ENOSPC,
			    "'%s'", echo);
	/* in place, in the parsed copy (which this test owns) */
	inplace = vl_json_unescape_inplace((char *)js.buf, &js.toks[0]);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, inplace);
	KUNIT_EXPECT_TRUE_MSG(test, !memcmp(inplace, c->want, n) && !inplace[n],
			      "'%s'", echo);
}

static void json_get_desc(const struct json_get_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(json_get, json_get_cases, json_get_desc);

static int json_get_str(struct kunit *test, const struct vl_json *js,
			const struct json_get_case *c)
{
	size_t size = c->size ? c->size : 64;
	char *buf = kunit_kzalloc(test, size, GFP_KERNEL);
	int err;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	err = vl_json_get_str(js, 0, c->key, buf, size);
	if (err < 0)
		return err;
	KUNIT_EXPECT_EQ_MSG(test, err, (int)c->str_len, "key '%s'", c->key);
	KUNIT_EXPECT_TRUE_MSG(test, !memcmp(buf, c->str, c->str_len),
			      "key '%s'", c->key);
	return 0;
}

static void json_test_get(struct kunit *test)
{
	const struct json_get_case *c = test->param_value;
	struct vl_json js;
	bool b = false;
	s32 s32v = 0;
	u32 u32v = 0;
	s64 s = 0;
	u64 u = 0;
	int err;

	KUNIT_ASSERT_EQ(test, json_test_parse(test, &js, json_get_doc,
					      sizeof(json_get_doc) - 1, NULL),
			0);
	switch (c->kind) {
	case GET_FIND:
		err = vl_json_find(&js, 0, c->key);
		if (err >= 0) {
			u = js.toks[err].type;
			err = 0;
		}
		break;
	case GET_BOOL:
		err = vl_json_get_bool(&js, 0, c->key, &b);
		u = b;
		break;
	case GET_S64:
		err = vl_json_get_s64(&js, 0, c->key, &s);
		break;
	case GET_U64:
		err = vl_json_get_u64(&js, 0, c->key, &u);
		break;
	case GET_S32:
		err = vl_json_get_s32(&js, 0, c->key, &s32v);
		s = s32v;
		break;
	case GET_U32:
		err = vl_json_get_u32(&js, 0, c->key, &u32v);
		u = u32v;
		break;
	default:
		err = json_get_str(test, &js, c);
		break;
	}
	KUNIT_EXPECT_EQ_MSG(test, err, c->err, "key '%s'", c->key);
	KUNIT_EXPECT_EQ_MSG(test, s, c->s, "key '%s'", c->key);
	KUNIT_EXPECT_EQ_MSG(test, u, c->u, "key '%s'", c->key);
}

static void json_test_iterators(struct kunit *test)
{
	u32 k, v, e, members = 0, elems = 0;
	struct vl_json js;
	s64 x, sum = 0;
	int a;

	KUNIT_ASSERT_EQ(test, json_test_parse(test, &js, json_get_doc,
					      sizeof(json_get_doc) - 1, NULL),
			0);
	vl_json_for_each_member(&js, 0, k, v) {
		KUNIT_EXPECT_TRUE(test, js.toks[k].flags & VL_JSON_F_KEY);
		KUNIT_EXPECT_EQ(test, v, k + 1);
		members++;
	}
	KUNIT_EXPECT_EQ(test, members, js.toks[0].count);
	a = vl_json_find(&js, 0, "a");
	KUNIT_ASSERT_GT(test, a, 0);
	vl_json_for_each_elem(&js, a, e) {
		KUNIT_EXPECT_EQ(test, vl_json_tok_s64(&js, e, &x), 0);
		sum += x;
		elems++;
	}
	KUNIT_EXPECT_EQ(test, elems, 3U);
	KUNIT_EXPECT_EQ(test, sum, 6);
	/* wrong container types and bad indices iterate over nothing */
	members = 0;
	vl_json_for_each_member(&js, a, k, v)
		members++;
	vl_json_for_each_member(&js, js.ntoks, k, v)
		members++;
	vl_json_for_each_elem(&js, 0, e)
		members++;
	vl_json_for_each_elem(&js, a + 1, e)
		members++;
	KUNIT_EXPECT_EQ(test, members, 0U);
	/* not an object */
	KUNIT_EXPECT_EQ(test, vl_json_find(&js, a, "x"), -EINVAL);
	KUNIT_EXPECT_EQ(test, vl_json_get_s64(&js, a, "x", &x), -EINVAL);
	KUNIT_EXPECT_EQ(test, vl_json_find(&js, js.ntoks, "x"), -EINVAL);
}

/* Thousands of keys take the sorting path of the duplicate check. */
static void json_test_big_object(struct kunit *test)
{
	const struct vl_json_limits lim = { 1 << 20, 8, 1 << 20 };
	const int n = 2000;
	size_t size = n * 16 + 32;
	char *doc = kunit_kmalloc(test, size, GFP_KERNEL);
	struct vl_json js;
	int i, len;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, doc);
	len = scnprintf(doc, size, "{");
	for (i = 0; i < n; i++)
		len += scnprintf(doc + len, size - len, "%s\"k%d\":%d",
				 i ? "," : "", (i * 7919) % n, i);
	len += scnprintf(doc + len, size - len, "}");

	KUNIT_EXPECT_EQ(test, json_test_parse(test, &js, doc, len, &lim), 0);
	KUNIT_EXPECT_EQ(test, js.toks[0].count, (u32)n);
	KUNIT_EXPECT_NULL(test, json_check_tokens(&js));

	len += scnprintf(doc + len - 1, size - len, ",\"k\\u0031\\u0037\":0}") -
	       1;
	KUNIT_EXPECT_EQ(test, json_test_parse(test, &js, doc, len, &lim),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, js.emsg, "duplicate key");
	KUNIT_EXPECT_EQ(test, js.epos, (u32)len - 18);
}

/* Strings of every byte sequence of @n bytes, the first byte from all 256
 * values if @all_lead, the others if @all_rest, else from json_edge_bytes,
 * and the first at least @min_lead: accepted exactly when the reference
 * says so.
 */
static void json_test_sequences(struct kunit *test, int n, bool all_lead,
				bool all_rest, u8 min_lead)
{
	static const struct vl_json_limits lim = VL_JSON_LIMITS_DEFAULT;
	u32 nl = all_lead ? 256 : sizeof(json_edge_bytes);
	u32 nr = all_rest ? 256 : sizeof(json_edge_bytes), total = nl, k;
	struct vl_json_tok toks[8];
	char text[8], echo[40];
	struct vl_json js;
	int i, err, bad = 0;
	u8 *s = (u8 *)text + 1;

	for (i = 1; i < n; i++)
		total *= nr;
	for (k = 0; k < total && bad < 5; k++) {
		u32 x = k;

		for (i = n - 1; i > 0; i--, x /= nr)
			s[i] = all_rest ? x % nr : json_edge_bytes[x % nr];
		s[0] = all_lead ? x : json_edge_bytes[x];
		if (s[0] < min_lead)
			continue;
		text[0] = '"';
		text[n + 1] = '"';
		vl_json_init(&js, toks, ARRAY_SIZE(toks));
		err = vl_json_parse(&js, text, n + 2, &lim);
		if (!err == json_ref_string_ok(s, n))
			continue;
		bad++;
		json_echo(echo, sizeof(echo), text, n + 2);
		KUNIT_FAIL(test, "'%s' gives %d", echo, err);
	}
}

static void json_test_all_1_byte_strings(struct kunit *test)
{
	json_test_sequences(test, 1, true, true, 0);
}

static void json_test_all_2_byte_strings(struct kunit *test)
{
	json_test_sequences(test, 2, true, true, 0);
}

static void json_test_edge_3_byte_strings(struct kunit *test)
{
	json_test_sequences(test, 3, true, false, 0xe0);
}

/* Three- and four-byte leads only: the sweep runs under KASAN in an
 * emulated VM; the host runner does every lead.
 */
static void json_test_edge_4_byte_strings(struct kunit *test)
{
	json_test_sequences(test, 4, false, false, 0xf0);
}

static struct kunit_case json_test_cases[] = {
	KUNIT_CASE_PARAM(json_test_corpus, json_corpus_gen_params),
	KUNIT_CASE_PARAM(json_test_number, json_num_gen_params),
	KUNIT_CASE_PARAM(json_test_compare, json_cmp_gen_params),
	KUNIT_CASE_PARAM(json_test_scaled, json_scaled_gen_params),
	KUNIT_CASE_PARAM(json_test_fixed, json_fixed_gen_params),
	KUNIT_CASE_PARAM(json_test_unescape, json_str_gen_params),
	KUNIT_CASE_PARAM(json_test_get, json_get_gen_params),
	KUNIT_CASE(json_test_iterators),
	KUNIT_CASE(json_test_big_object),
	KUNIT_CASE(json_test_all_1_byte_strings),
	KUNIT_CASE(json_test_all_2_byte_strings),
	KUNIT_CASE(json_test_edge_3_byte_strings),
	KUNIT_CASE(json_test_edge_4_byte_strings),
	{}
};

static struct kunit_suite json_test_suite = {
	.name = "varlink_json",
	.test_cases = json_test_cases,
};

kunit_test_suite(json_test_suite);

MODULE_IMPORT_NS(VL_NS(EXPORTED_FOR_KUNIT_TESTING));
