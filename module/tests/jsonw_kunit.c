// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite varlink_jsonw: the bounded writer against the scripts and
 * strings of json_cases.h (which the host runner runs too), an exhaustive
 * escape test over all 256 byte values, all pairs of bytes and edge cases
 * of longer UTF-8 sequences, and its limits.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../json.h"
#include "../jsonw.h"
#include "json_cases.h"
#include "jsonw_extra.h"

#define ECHO_SIZE	192

static void jsonw_case_desc(const struct jsonw_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(jsonw_script, jsonw_cases, jsonw_case_desc);

static void jsonw_test_script(struct kunit *test)
{
	const struct jsonw_case *c = test->param_value;
	struct vl_json_tok *toks;
	struct vl_jsonw w;
	char *out, *echo;
	size_t len;
	int err;

	/* Arrange */
	toks = kunit_kcalloc(test, 64, sizeof(*toks), GFP_KERNEL);
	echo = kunit_kzalloc(test, ECHO_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, toks);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, echo);
	vl_jsonw_init(&w, c->max ? c->max : 4096, GFP_KERNEL);

	/* Act */
	jsonw_case_run(&w, c->ops, toks, 64);
	err = vl_jsonw_finish(&w, &out, &len);

	/* Assert */
	if (out)
		json_echo(echo, ECHO_SIZE, out, len);
	KUNIT_EXPECT_EQ_MSG(test, err, c->err, "output '%s'", echo);
	if (!err && !c->err) {
		KUNIT_EXPECT_EQ_MSG(test, len, (size_t)c->want_len,
				    "output '%s', want '%s'", echo, c->want);
		KUNIT_EXPECT_TRUE_MSG(test, len == c->want_len &&
				      !memcmp(out, c->want, len) && !out[len],
				      "output '%s', want '%s'", echo, c->want);
	} else {
		KUNIT_EXPECT_NULL(test, out);
		KUNIT_EXPECT_EQ(test, len, (size_t)0);
		KUNIT_EXPECT_NULL(test, w.buf);
	}
	kvfree(out);
	vl_jsonw_release(&w);
}

/* Write @in as a string and compare with @want (quotes excluded); parse
 * the output back, and if @in is valid UTF-8 check that it decodes to @in.
 * The writer starts in a buffer on the stack, and the decoding goes into
 * one, where they fit: the exhaustive tests call this for every short
 * sequence, and under KASAN and kmemleak each allocation costs far more
 * than the writing (vl_jsonw_finish() has tests of its own above).
 * Return false after reporting a failure.
 */
static bool jsonw_check_string(struct kunit *test, const char *in,
			       size_t len, const char *want, size_t want_len)
{
	static const struct vl_json_limits lim = VL_JSON_LIMITS_DEFAULT;
	char echo[64], first[64], small[16], *dec = small;
	const char *bad = NULL, *out;
	struct vl_json_tok tok;
	struct vl_jsonw w;
	struct vl_json js;
	size_t olen;

	vl_jsonw_init_buf(&w, first, sizeof(first), 1 << 16, GFP_KERNEL);
	vl_jsonw_str_len(&w, in, len);
	out = vl_jsonw_text(&w, &olen);
	if (!out)
		bad = "writer failed";
	else if (olen != want_len + 2 || memcmp(out + 1, want, want_len))
		bad = "unexpected output";
	vl_json_init(&js, &tok, 1);
	if (!bad && vl_json_parse(&js, out, olen, &lim))
		bad = "output does not parse";
	if (!bad && json_ref_string_ok((const u8 *)in, len)) {
		if (len >= sizeof(small))
			dec = kmalloc(len + 1, GFP_KERNEL);
		if (!dec || vl_json_unescape(&js, 0, dec, len + 1) != (int)len ||
		    memcmp(dec, in, len))
			bad = "valid input does not round-trip";
		if (dec != small)
			kfree(dec);
	}
	vl_jsonw_release(&w);
	if (bad)
		KUNIT_FAIL(test, "input '%s': %s",
			   json_echo(echo, sizeof(echo), in, len), bad);
	return !bad;
}

static void jsonw_str_desc(const struct jsonw_str_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(jsonw_str, jsonw_str_cases, jsonw_str_desc);

static void jsonw_test_string(struct kunit *test)
{
	const struct jsonw_str_case *c = test->param_value;

	jsonw_check_string(test, c->in, c->len, c->want, c->want_len);
}

/* Every sequence of @n bytes, the first from all 256 values if @all_lead,
 * the others if @all_rest, else from json_edge_bytes, and the first at
 * least @min_lead: the writer's output is the reference escape
 * (json_ref_escape()) and parses back.
 */
static void jsonw_test_sequences(struct kunit *test, int n, bool all_lead,
				 bool all_rest, u8 min_lead)
{
	u32 nl = all_lead ? 256 : sizeof(json_edge_bytes);
	u32 nr = all_rest ? 256 : sizeof(json_edge_bytes), total = nl, k;
	char want[6 * 4];
	int i, bad = 0;
	u8 s[4];

	for (i = 1; i < n; i++)
		total *= nr;
	for (k = 0; k < total && bad < 5; k++) {
		u32 x = k;

		for (i = n - 1; i > 0; i--, x /= nr)
			s[i] = all_rest ? x % nr : json_edge_bytes[x % nr];
		s[0] = all_lead ? x : json_edge_bytes[x];
		if (s[0] < min_lead)
			continue;
		if (!jsonw_check_string(test, (char *)s, n, want,
					json_ref_escape(s, n, want)))
			bad++;
	}
}

static void jsonw_test_all_bytes(struct kunit *test)
{
	jsonw_test_sequences(test, 1, true, true, 0);
}

static void jsonw_test_all_byte_pairs(struct kunit *test)
{
	jsonw_test_sequences(test, 2, true, true, 0);
}

static void jsonw_test_edge_triples(struct kunit *test)
{
	jsonw_test_sequences(test, 3, true, false, 0xe0);
}

/* Three- and four-byte leads only: the sweep runs under KASAN in an
 * emulated VM; the host runner does every lead.
 */
static void jsonw_test_edge_quads(struct kunit *test)
{
	jsonw_test_sequences(test, 4, false, false, 0xf0);
}

/* The single bytes, spelled out: the table a reviewer checks by eye. */
static void jsonw_test_byte_table(struct kunit *test)
{
	static const char * const ctrl[0x20] = {
		"\\u0000", "\\u0001", "\\u0002", "\\u0003", "\\u0004",
		"\\u0005", "\\u0006", "\\u0007", "\\b", "\\t", "\\n",
		"\\u000b", "\\f", "\\r", "\\u000e", "\\u000f", "\\u0010",
		"\\u0011", "\\u0012", "\\u0013", "\\u0014", "\\u0015",
		"\\u0016", "\\u0017", "\\u0018", "\\u0019", "\\u001a",
		"\\u001b", "\\u001c", "\\u001d", "\\u001e", "\\u001f",
	};
	char in, want[8];
	int c;

	for (c = 0; c < 256; c++) {
		in = c;
		if (c < 0x20)
			strscpy(want, ctrl[c], sizeof(want));
		else if (c == '"' || c == '\\')
			scnprintf(want, sizeof(want), "\\%c", c);
		else if (c < 0x80)
			scnprintf(want, sizeof(want), "%c", c);
		else
			strscpy(want, FFFD, sizeof(want));
		if (!jsonw_check_string(test, &in, 1, want, strlen(want)))
			KUNIT_FAIL(test, "byte 0x%02x", c);
	}
}

static void jsonw_test_limits(struct kunit *test)
{
	const size_t big = 100000;
	char *s = kunit_kmalloc(test, big, GFP_KERNEL), *out;
	struct vl_jsonw w;
	size_t len, i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	for (i = 0; i < big; i++)
		s[i] = 'a' + i % 26;

	/* doubling stops at the maximum, which the NUL fits exactly */
	vl_jsonw_init(&w, big + 3, GFP_KERNEL);
	vl_jsonw_str_len(&w, s, big);
	KUNIT_EXPECT_EQ(test, vl_jsonw_finish(&w, &out, &len), 0);
	KUNIT_EXPECT_EQ(test, len, big + 2);
	if (out)
		KUNIT_EXPECT_EQ(test, out[len], '\0');
	kvfree(out);

	vl_jsonw_init(&w, big + 2, GFP_KERNEL);
	vl_jsonw_str_len(&w, s, big);
	KUNIT_EXPECT_EQ(test, vl_jsonw_error(&w), -EMSGSIZE);
	KUNIT_EXPECT_NULL(test, w.buf);
	vl_jsonw_null(&w);
	KUNIT_EXPECT_EQ(test, vl_jsonw_finish(&w, &out, &len), -EMSGSIZE);
	KUNIT_EXPECT_NULL(test, out);

	vl_jsonw_init(&w, 4096, GFP_KERNEL);
	for (i = 0; i < VL_JSONW_DEPTH_MAX; i++)
		vl_jsonw_arr_open(&w);
	for (i = 0; i < VL_JSONW_DEPTH_MAX; i++)
		vl_jsonw_arr_close(&w);
	KUNIT_EXPECT_EQ(test, vl_jsonw_finish(&w, &out, &len), 0);
	KUNIT_EXPECT_EQ(test, len, (size_t)2 * VL_JSONW_DEPTH_MAX);
	kvfree(out);

	vl_jsonw_init(&w, 4096, GFP_KERNEL);
	for (i = 0; i <= VL_JSONW_DEPTH_MAX; i++)
		vl_jsonw_arr_open(&w);
	KUNIT_EXPECT_EQ(test, vl_jsonw_error(&w), -EINVAL);
	vl_jsonw_release(&w);

	/* a finished writer is spent */
	vl_jsonw_init(&w, 4096, GFP_KERNEL);
	vl_jsonw_null(&w);
	KUNIT_EXPECT_EQ(test, vl_jsonw_finish(&w, &out, &len), 0);
	kvfree(out);
	vl_jsonw_null(&w);
	KUNIT_EXPECT_EQ(test, vl_jsonw_finish(&w, &out, &len), -EINVAL);
	KUNIT_EXPECT_NULL(test, out);
	vl_jsonw_release(&w);
}

/* Member helpers and a reply shaped like org.varlink.service.GetInfo. */
static void jsonw_test_reply(struct kunit *test)
{
	static const char head[] =
		"{\"parameters\":{\"vendor\":\"Linux\",\"load\":0.57,\"pid\":-1,";
	static const char tail[] =
		"\"id\":18446744073709551615,\"ok\":true,\"interfaces\":[\"x\"]}}";
	struct vl_jsonw w;
	size_t len;
	char *out;

	vl_jsonw_init(&w, 4096, GFP_KERNEL);
	vl_jsonw_obj_open(&w);
	vl_jsonw_key(&w, "parameters");
	vl_jsonw_obj_open(&w);
	vl_jsonw_kv_str(&w, "vendor", "Linux");
	vl_jsonw_key(&w, "load");
	vl_jsonw_fixed(&w, 57, 2);
	vl_jsonw_kv_s64(&w, "pid", -1);
	vl_jsonw_kv_u64(&w, "id", U64_MAX);
	vl_jsonw_kv_bool(&w, "ok", true);
	vl_jsonw_key(&w, "interfaces");
	vl_jsonw_arr_open(&w);
	vl_jsonw_str(&w, "x");
	vl_jsonw_arr_close(&w);
	vl_jsonw_obj_close(&w);
	vl_jsonw_obj_close(&w);

	KUNIT_ASSERT_EQ(test, vl_jsonw_finish(&w, &out, &len), 0);
	KUNIT_EXPECT_EQ(test, len, strlen(head) + strlen(tail));
	KUNIT_EXPECT_TRUE_MSG(test, !strncmp(out, head, strlen(head)) &&
			      !strcmp(out + strlen(head), tail), "'%s'", out);
	kvfree(out);
}

/* A caller's buffer: used while the text fits, never freed, never handed over. */
static void jsonw_test_caller_buffer(struct kunit *test)
{
	char buf[16], *out;
	struct vl_jsonw w;
	const char *text;
	size_t len;

	memset(buf, 'x', sizeof(buf));
	vl_jsonw_init_buf(&w, buf, sizeof(buf), 4096, GFP_KERNEL);
	vl_jsonw_obj_open(&w);
	vl_jsonw_kv_s64(&w, "a", 1);
	vl_jsonw_obj_close(&w);
	text = vl_jsonw_text(&w, &len);
	KUNIT_EXPECT_PTR_EQ(test, text, (const char *)buf);
	KUNIT_EXPECT_EQ(test, len, (size_t)7);
	KUNIT_EXPECT_STREQ(test, buf, "{\"a\":1}");
	/* finish() hands over a copy of its own */
	KUNIT_ASSERT_EQ(test, vl_jsonw_finish(&w, &out, &len), 0);
	KUNIT_EXPECT_PTR_NE(test, out, (char *)buf);
	KUNIT_EXPECT_STREQ(test, out, "{\"a\":1}");
	kvfree(out);
	vl_jsonw_release(&w);

	/* outgrowing it moves the text to memory of the writer's own */
	vl_jsonw_init_buf(&w, buf, sizeof(buf), 4096, GFP_KERNEL);
	vl_jsonw_arr_open(&w);
	vl_jsonw_str(&w, "0123456789abcdef");
	vl_jsonw_arr_close(&w);
	text = vl_jsonw_text(&w, &len);
	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_EXPECT_PTR_NE(test, text, (const char *)buf);
	KUNIT_EXPECT_STREQ(test, text, "[\"0123456789abcdef\"]");
	vl_jsonw_release(&w);
	KUNIT_EXPECT_NULL(test, w.buf);

	/* an error drops the text, not the caller's buffer */
	vl_jsonw_init_buf(&w, buf, sizeof(buf), 8, GFP_KERNEL);
	vl_jsonw_str(&w, "0123456789");
	KUNIT_EXPECT_EQ(test, vl_jsonw_error(&w), -EMSGSIZE);
	KUNIT_EXPECT_NULL(test, vl_jsonw_text(&w, &len));
	KUNIT_EXPECT_EQ(test, len, (size_t)0);
	vl_jsonw_release(&w);
}

/* A copy goes on where its original stood; members go in as they are. */
static void jsonw_test_copy(struct kunit *test)
{
	char head_buf[32], buf[64];
	struct vl_jsonw head, w;
	const char *text;
	size_t len;

	vl_jsonw_init_buf(&head, head_buf, sizeof(head_buf), 4096, GFP_KERNEL);
	vl_jsonw_obj_open(&head);
	vl_jsonw_key(&head, "parameters");
	vl_jsonw_obj_open(&head);

	vl_jsonw_init_copy(&w, &head, buf, sizeof(buf));
	vl_jsonw_members(&w, "\"a\":1,\"b\":[]", 12);
	vl_jsonw_kv_bool(&w, "c", true);
	vl_jsonw_obj_close(&w);
	vl_jsonw_kv_str(&w, "error", "e");
	vl_jsonw_obj_close(&w);
	text = vl_jsonw_text(&w, &len);
	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_EXPECT_PTR_EQ(test, text, (const char *)buf);
	KUNIT_EXPECT_STREQ(test, text,
			   "{\"parameters\":{\"a\":1,\"b\":[],\"c\":true},\"error\":\"e\"}");
	vl_jsonw_release(&w);

	/* the original is untouched; members after a member get a comma */
	vl_jsonw_init_copy(&w, &head, buf, sizeof(buf));
	vl_jsonw_kv_s64(&w, "x", 2);
	vl_jsonw_members(&w, "\"y\":3", 5);
	vl_jsonw_obj_close(&w);
	vl_jsonw_obj_close(&w);
	text = vl_jsonw_text(&w, &len);
	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_EXPECT_STREQ(test, text, "{\"parameters\":{\"x\":2,\"y\":3}}");
	KUNIT_EXPECT_EQ(test, head.len, (size_t)15);
	vl_jsonw_release(&w);

	/* members out of place, or none: -EINVAL */
	vl_jsonw_init_copy(&w, &head, buf, sizeof(buf));
	vl_jsonw_key(&w, "k");
	vl_jsonw_members(&w, "\"y\":3", 5);
	KUNIT_EXPECT_EQ(test, vl_jsonw_error(&w), -EINVAL);
	vl_jsonw_init_copy(&w, &head, buf, sizeof(buf));
	vl_jsonw_members(&w, "", 0);
	KUNIT_EXPECT_EQ(test, vl_jsonw_error(&w), -EINVAL);
	vl_jsonw_init(&w, 4096, GFP_KERNEL);
	vl_jsonw_arr_open(&w);
	vl_jsonw_members(&w, "\"y\":3", 5);
	KUNIT_EXPECT_EQ(test, vl_jsonw_error(&w), -EINVAL);

	/* a copy that does not fit its buffer */
	vl_jsonw_init_copy(&w, &head, buf, 8);
	KUNIT_EXPECT_EQ(test, vl_jsonw_error(&w), -EMSGSIZE);
	vl_jsonw_release(&head);
}

/* Rewinding drops whole members, as a reply without parameters needs. */
static void jsonw_test_rewind(struct kunit *test)
{
	struct vl_jsonw w;
	const char *text;
	size_t len, mark;

	vl_jsonw_init(&w, 4096, GFP_KERNEL);
	vl_jsonw_obj_open(&w);
	mark = w.len;
	vl_jsonw_key(&w, "parameters");
	vl_jsonw_obj_open(&w);
	vl_jsonw_obj_close(&w);
	vl_jsonw_rewind(&w, mark);
	vl_jsonw_kv_bool(&w, "continues", true);
	mark = w.len;
	vl_jsonw_kv_s64(&w, "dropped", 1);
	vl_jsonw_rewind(&w, mark);
	vl_jsonw_obj_close(&w);
	text = vl_jsonw_text(&w, &len);
	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_EXPECT_STREQ(test, text, "{\"continues\":true}");
	vl_jsonw_release(&w);

	/* with a key waiting for its value, or past the end: -EINVAL */
	vl_jsonw_init(&w, 4096, GFP_KERNEL);
	vl_jsonw_obj_open(&w);
	vl_jsonw_key(&w, "k");
	vl_jsonw_rewind(&w, 1);
	KUNIT_EXPECT_EQ(test, vl_jsonw_error(&w), -EINVAL);
	vl_jsonw_init(&w, 4096, GFP_KERNEL);
	vl_jsonw_arr_open(&w);
	vl_jsonw_rewind(&w, 2);
	KUNIT_EXPECT_EQ(test, vl_jsonw_error(&w), -EINVAL);
	vl_jsonw_init(&w, 4096, GFP_KERNEL);
	vl_jsonw_null(&w);
	vl_jsonw_rewind(&w, 1);
	KUNIT_EXPECT_EQ(test, vl_jsonw_error(&w), -EINVAL);
}

static struct kunit_case jsonw_test_cases[] = {
	KUNIT_CASE_PARAM(jsonw_test_script, jsonw_script_gen_params),
	KUNIT_CASE_PARAM(jsonw_test_string, jsonw_str_gen_params),
	KUNIT_CASE(jsonw_test_byte_table),
	KUNIT_CASE(jsonw_test_all_bytes),
	KUNIT_CASE(jsonw_test_all_byte_pairs),
	KUNIT_CASE(jsonw_test_edge_triples),
	KUNIT_CASE(jsonw_test_edge_quads),
	KUNIT_CASE(jsonw_test_limits),
	KUNIT_CASE(jsonw_test_reply),
	KUNIT_CASE(jsonw_test_caller_buffer),
	KUNIT_CASE(jsonw_test_rewind),
	KUNIT_CASE(jsonw_test_copy),
	{}
};

static struct kunit_suite jsonw_test_suite = {
	.name = "varlink_jsonw",
	.test_cases = jsonw_test_cases,
};

kunit_test_suite(jsonw_test_suite);
