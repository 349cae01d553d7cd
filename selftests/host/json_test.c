// SPDX-License-Identifier: GPL-2.0
/*
 * Host runner for the JSON tokenizer and writer of the varlink core: the
 * tables of module/tests/json_cases.h (the ones the KUnit suites run) plus
 * exhaustive and property tests, in userspace, printed as TAP.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/slab.h>

#include "../../module/json.h"
#include "../../module/json_number.h"
#include "../../module/jsonw.h"
#include "../../module/tests/json_cases.h"
#include "../../module/tests/json_extra.h"
#include "../../module/tests/jsonw_extra.h"

static int n_pass, n_fail;

static void diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("# ", stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	va_end(ap);
}

static bool report(bool ok, const char *group, const char *name)
{
	if (ok)
		n_pass++;
	else
		n_fail++;
	printf("%sok %d - %s: %s\n", ok ? "" : "not ", n_pass + n_fail, group,
	       name);
	return ok;
}

static const char *echo(const char *in, size_t len)
{
	static char buf[256];

	return json_echo(buf, sizeof(buf), in, len);
}

/* Parse @in from an exact-size heap copy, so that ASan sees overreads. */
struct parsed {
	struct vl_json js;
	char *buf;
	int err;
};

static void parse(struct parsed *p, const char *in, size_t len,
		  const struct vl_json_limits *lim)
{
	static const struct vl_json_limits def = VL_JSON_LIMITS_DEFAULT;
	u32 cap = vl_json_tokens_needed(len);

	p->buf = malloc(len ? len : 1);
	memcpy(p->buf, in, len);
	vl_json_init(&p->js, calloc(cap, sizeof(struct vl_json_tok)), cap);
	p->err = vl_json_parse(&p->js, p->buf, len, lim ? lim : &def);
}

static void parsed_free(struct parsed *p)
{
	free(p->js.toks);
	free(p->buf);
}

/* Strings decode to their @count bytes of valid UTF-8. */
static const char *check_strings(const struct vl_json *js)
{
	static char dec[1 << 16];
	u32 i;

	for (i = 0; i < js->ntoks; i++) {
		const struct vl_json_tok *t = &js->toks[i];
		size_t k = 0;
		int n;

		if (t->type != VL_JSON_STRING)
			continue;
		n = vl_json_unescape(js, i, dec, sizeof(dec));
		if (n != (int)t->count)
			return "decoded length differs from count";
		while (k < (size_t)n) {
			int l = json_ref_utf8((u8 *)dec + k, n - k);

			if (l < 0)
				return "decoded string is not UTF-8";
			k += l;
		}
		if (!!memchr(dec, 0, n) != !!(t->flags & VL_JSON_F_NUL))
			return "VL_JSON_F_NUL wrong";
		if (!vl_json_str_eq(js, i, dec, n))
			return "vl_json_str_eq() rejects the decoded string";
	}
	return NULL;
}

/* A parsed container copied by vl_jsonw_tok() parses to the same shape. */
static const char *check_copy(const struct vl_json *js)
{
	struct parsed q;
	struct vl_jsonw w;
	const char *bad = NULL;
	char *out;
	size_t len;
	u32 i;

	vl_jsonw_init(&w, 1 << 20, GFP_KERNEL);
	vl_jsonw_tok(&w, js, 0);
	if (vl_jsonw_finish(&w, &out, &len))
		return "vl_jsonw_tok() failed";
	parse(&q, out, len, &(struct vl_json_limits){ 1 << 20, 1000, 1 << 20 });
	if (q.err || q.js.ntoks != js->ntoks) {
		bad = "copy does not parse alike";
	} else {
		for (i = 0; i < js->ntoks && !bad; i++)
			if (q.js.toks[i].type != js->toks[i].type ||
			    q.js.toks[i].count != js->toks[i].count ||
			    q.js.toks[i].next != js->toks[i].next)
				bad = "copy has another token structure";
	}
	parsed_free(&q);
	kvfree(out);
	return bad;
}

static void test_parse_cases(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(json_cases); i++) {
		const struct json_case *c = &json_cases[i];
		const char *bad = NULL;
		struct parsed p;

		parse(&p, c->in, c->len, c->has_lim ? &c->lim : NULL);
		if (p.err != c->err) {
			bad = "wrong result";
		} else if (!c->err) {
			if (c->ntoks && p.js.ntoks != c->ntoks)
				bad = "wrong token count";
			else if (p.js.ntoks > c->len / 2 + 1)
				bad = "more tokens than len / 2 + 1";
			if (!bad)
				bad = json_check_tokens(&p.js);
			if (!bad)
				bad = check_strings(&p.js);
			if (!bad)
				bad = check_copy(&p.js);
		} else if (!p.js.emsg) {
			bad = "no error message";
		} else if (c->has_epos && p.js.epos != c->epos) {
			bad = "wrong error offset";
		}
		if (!report(!bad, "parse", c->name))
			diag("%s: input '%s': got %d (%s at %u, %u tokens), want %d at %d",
			     bad, echo(c->in, c->len), p.err,
			     p.js.emsg ? p.js.emsg : "-", p.js.epos, p.js.ntoks,
			     c->err, c->has_epos ? (int)c->epos : -1);
		parsed_free(&p);
	}
}

static void test_num_cases(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(json_num_cases); i++) {
		const struct json_num_case *c = &json_num_cases[i];
		struct parsed p;
		s64 s = 0;
		u64 u = 0;
		s32 s32v = 0;
		u32 u32v = 0;
		bool ok;
		int err;

		parse(&p, c->in, strlen(c->in), NULL);
		if (p.err) {
			report(false, "number", c->name);
			diag("input '%s' does not parse", c->in);
			parsed_free(&p);
			continue;
		}
		if (c->kind == GET_S64) {
			err = vl_json_tok_s64(&p.js, 0, &s);
		} else if (c->kind == GET_U64) {
			err = vl_json_tok_u64(&p.js, 0, &u);
		} else if (c->kind == GET_S32) {
			err = vl_json_tok_s32(&p.js, 0, &s32v);
			s = s32v;
		} else {
			err = vl_json_tok_u32(&p.js, 0, &u32v);
			u = u32v;
		}
		ok = err == c->err && s == c->s && u == c->u;
		if (!report(ok, "number", c->name))
			diag("input '%s': got %d, %lld, %llu; want %d, %lld, %llu",
			     c->in, err, s, u, c->err, c->s, c->u);
		parsed_free(&p);
	}
}

static void test_cmp_cases(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(json_cmp_cases); i++) {
		const struct json_cmp_case *c = &json_cmp_cases[i];
		size_t la = strlen(c->a), lb = strlen(c->b);
		int ab = vl_json_num_cmp(c->a, la, c->b, lb);
		int ba = vl_json_num_cmp(c->b, lb, c->a, la);
		int aa = vl_json_num_cmp(c->a, la, c->a, la);
		bool ok = vl_json_num_valid(c->a, la) &&
			  vl_json_num_valid(c->b, lb) &&
			  ab == c->want && ba == -c->want && !aa;

		if (!report(ok, "compare", c->name))
			diag("'%s' vs '%s': got %d/%d/%d, want %d", c->a, c->b,
			     ab, ba, aa, c->want);
	}
}

static void test_scaled_cases(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(json_scaled_cases); i++) {
		const struct json_scaled_case *c = &json_scaled_cases[i];
		s64 v = 0;
		int err = vl_json_num_scaled(c->in, strlen(c->in), c->decimals,
					     &v);

		if (!report(err == c->err && v == c->want, "scaled", c->name))
			diag("'%s' x 10^%u: got %d, %lld; want %d, %lld", c->in,
			     c->decimals, err, v, c->err, c->want);
	}
}

static void test_fixed_cases(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(json_fixed_cases); i++) {
		const struct json_fixed_case *c = &json_fixed_cases[i];
		char buf[32];
		int n = vl_json_fixed_fmt(buf, sizeof(buf), c->v, c->decimals);
		bool ok = c->err ? n == c->err :
			  n == (int)strlen(c->want) && !strcmp(buf, c->want);
		s64 back = 0;

		if (ok && !c->err)
			ok = vl_json_num_valid(buf, n) &&
			     !vl_json_num_scaled(buf, n, c->decimals, &back) &&
			     back == c->v &&
			     vl_json_fixed_fmt(buf, n, c->v, c->decimals) ==
			     -ENOSPC;
		if (!report(ok, "fixed", c->name))
			diag("%lld / 10^%u: got %d '%s', want %d '%s'", c->v,
			     c->decimals, n, n > 0 ? buf : "", c->err,
			     c->want ? c->want : "");
	}
}

static void test_str_cases(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(json_str_cases); i++) {
		const struct json_str_case *c = &json_str_cases[i];
		char out[256], *inplace = NULL;
		struct parsed p;
		int n = -1;
		bool ok;

		parse(&p, c->in, c->len, NULL);
		if (!p.err)
			n = vl_json_unescape(&p.js, 0, out, sizeof(out));
		ok = n == (int)c->want_len && !memcmp(out, c->want, n) &&
		     !out[n] && vl_json_str_eq(&p.js, 0, c->want, c->want_len) &&
		     vl_json_unescape(&p.js, 0, out, n) == -ENOSPC;
		if (ok) {
			inplace = vl_json_unescape_inplace(p.buf, &p.js.toks[0]);
			ok = inplace && !memcmp(inplace, c->want, c->want_len) &&
			     !inplace[c->want_len];
		}
		if (!report(ok, "unescape", c->name))
			diag("input '%s': got %d", echo(c->in, c->len), n);
		parsed_free(&p);
	}
}

static void test_get_cases(void)
{
	struct parsed p;
	size_t i;

	parse(&p, json_get_doc, sizeof(json_get_doc) - 1, NULL);
	for (i = 0; i < ARRAY_SIZE(json_get_cases); i++) {
		const struct json_get_case *c = &json_get_cases[i];
		char buf[64] = "";
		s64 s = 0;
		u64 u = 0;
		s32 s32v = 0;
		u32 u32v = 0;
		bool b = false, ok;
		int err;

		switch (c->kind) {
		case GET_FIND:
			err = vl_json_find(&p.js, 0, c->key);
			if (err >= 0) {
				u = p.js.toks[err].type;
				err = 0;
			}
			break;
		case GET_BOOL:
			err = vl_json_get_bool(&p.js, 0, c->key, &b);
			u = b;
			break;
		case GET_S64:
			err = vl_json_get_s64(&p.js, 0, c->key, &s);
			break;
		case GET_U64:
			err = vl_json_get_u64(&p.js, 0, c->key, &u);
			break;
		case GET_S32:
			err = vl_json_get_s32(&p.js, 0, c->key, &s32v);
			s = s32v;
			break;
		case GET_U32:
			err = vl_json_get_u32(&p.js, 0, c->key, &u32v);
			u = u32v;
			break;
		default:
			err = vl_json_get_str(&p.js, 0, c->key, buf,
					      c->size ? c->size : sizeof(buf));
			if (err >= 0)
				err = err == (int)c->str_len &&
				      !memcmp(buf, c->str, c->str_len) ? 0 : -1;
			break;
		}
		ok = !p.err && err == c->err && s == c->s && u == c->u;
		if (!report(ok, "get", c->name))
			diag("key '%s': got %d, %lld, %llu; want %d, %lld, %llu",
			     c->key, err, s, u, c->err, c->s, c->u);
	}
	parsed_free(&p);
}

static void test_iterators(void)
{
	struct parsed p;
	u32 k, v, e, n = 0, sum = 0, elems = 0;
	int a;
	s64 x;

	parse(&p, json_get_doc, sizeof(json_get_doc) - 1, NULL);
	vl_json_for_each_member(&p.js, 0, k, v) {
		n++;
		if (!(p.js.toks[k].flags & VL_JSON_F_KEY) || v != k + 1)
			n = 1000;
	}
	a = vl_json_find(&p.js, 0, "a");
	vl_json_for_each_elem(&p.js, a, e) {
		elems++;
		if (!vl_json_tok_s64(&p.js, e, &x))
			sum += x;
	}
	report(!p.err && n == p.js.toks[0].count && n == 19,
	       "iterate", "members_of_object");
	report(elems == 3 && sum == 6, "iterate", "elements_of_array");
	n = 0;
	vl_json_for_each_elem(&p.js, 1, e)
		n++;
	vl_json_for_each_elem(&p.js, 0, e)
		n++;
	vl_json_for_each_elem(&p.js, p.js.ntoks, e)
		n++;
	report(n == 0, "iterate", "elements_of_non_arrays");
	vl_json_for_each_member(&p.js, a, k, v)
		n++;
	vl_json_for_each_member(&p.js, 1, k, v)
		n++;
	vl_json_for_each_member(&p.js, p.js.ntoks, k, v)
		n++;
	report(n == 0, "iterate", "members_of_non_objects");
	report(vl_json_find(&p.js, a, "x") == -EINVAL &&
	       vl_json_get_s64(&p.js, a, "x", &x) == -EINVAL &&
	       vl_json_find(&p.js, 1000, "x") == -EINVAL,
	       "get", "not_an_object");
	parsed_free(&p);
}

/* A large object takes the sorting path of the duplicate check. */
static void test_big_objects(void)
{
	const int n = 4000;
	char *doc = malloc(n * 16 + 16);
	struct vl_json_limits lim = { 1 << 20, 8, 1 << 20 };
	struct parsed p;
	int i, len = 0, err_ok, err_dup, err_esc;

	len += sprintf(doc, "{");
	for (i = 0; i < n; i++)
		len += sprintf(doc + len, "%s\"k%d\":%d", i ? "," : "",
			       (i * 7919) % n, i);
	strcpy(doc + len, "}");
	parse(&p, doc, len + 1, &lim);
	err_ok = p.err;
	report(!err_ok && p.js.toks[0].count == (u32)n &&
	       !json_check_tokens(&p.js), "big", "4000_distinct_keys");
	parsed_free(&p);

	len += sprintf(doc + len, ",\"k17\":0}");
	parse(&p, doc, len, &lim);
	err_dup = p.err;
	report(err_dup == -EINVAL && p.js.epos == (u32)len - 8,
	       "big", "4000_keys_duplicate_at_end");
	parsed_free(&p);

	len -= 9;
	len += sprintf(doc + len, ",\"k\\u0031\\u0037\":0}");
	parse(&p, doc, len, &lim);
	err_esc = p.err;
	report(err_esc == -EINVAL, "big", "4000_keys_escaped_duplicate");
	parsed_free(&p);
	free(doc);
}

static void test_writer_cases(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(jsonw_cases); i++) {
		const struct jsonw_case *c = &jsonw_cases[i];
		struct vl_json_tok toks[64];
		struct vl_jsonw w;
		char *out;
		size_t len;
		bool ok;
		int err;

		vl_jsonw_init(&w, c->max ? c->max : 4096, GFP_KERNEL);
		jsonw_case_run(&w, c->ops, toks, ARRAY_SIZE(toks));
		err = vl_jsonw_finish(&w, &out, &len);
		ok = err == c->err;
		if (ok && !err)
			ok = len == c->want_len && !memcmp(out, c->want, len) &&
			     !out[len];
		if (ok && err)
			ok = !out && !len && !w.buf;
		if (!report(ok, "writer", c->name))
			diag("got %d '%s', want %d '%s'", err,
			     out ? echo(out, len) : "", c->err,
			     c->want ? c->want : "");
		kvfree(out);
		vl_jsonw_release(&w);
	}
}

/* Write @in as a string; check it against @want and parse it back. */
static const char *write_string(const char *in, size_t len,
				const char *want, size_t want_len)
{
	static char dec[1 << 12];
	const char *bad = NULL;
	struct vl_jsonw w;
	struct parsed p;
	char *out;
	size_t olen;

	vl_jsonw_init(&w, 1 << 16, GFP_KERNEL);
	vl_jsonw_str_len(&w, in, len);
	if (vl_jsonw_finish(&w, &out, &olen))
		return "writer failed";
	if (olen != want_len + 2 || memcmp(out + 1, want, want_len))
		bad = "writer output differs";
	parse(&p, out, olen, NULL);
	if (!bad && p.err)
		bad = "writer output does not parse";
	if (!bad && json_ref_string_ok((const u8 *)in, len) &&
	    (vl_json_unescape(&p.js, 0, dec, sizeof(dec)) != (int)len ||
	     memcmp(dec, in, len)))
		bad = "valid input does not round-trip";
	parsed_free(&p);
	kvfree(out);
	return bad;
}

static void test_writer_strings(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(jsonw_str_cases); i++) {
		const struct jsonw_str_case *c = &jsonw_str_cases[i];
		const char *bad = write_string(c->in, c->len, c->want,
					       c->want_len);

		if (!report(!bad, "writer_string", c->name))
			diag("%s: input '%s'", bad, echo(c->in, c->len));
	}
}

/*
 * Writer and tokenizer against the references, on every sequence of @n
 * bytes: the first from all 256 values or json_edge_bytes, the others too.
 */
static void test_sequences(const char *name, int n, bool all_lead,
			   bool all_rest)
{
	u32 nl = all_lead ? 256 : sizeof(json_edge_bytes);
	u32 nr = all_rest ? 256 : sizeof(json_edge_bytes);
	int bad_w = 0, bad_p = 0, i;
	char text[8], want[64];
	u64 total = nl, k;
	u8 s[4];

	for (i = 1; i < n; i++)
		total *= nr;
	for (k = 0; k < total; k++) {
		struct parsed p;
		u64 x = k;
		size_t wl;

		for (i = n - 1; i > 0; i--, x /= nr)
			s[i] = all_rest ? x % nr : json_edge_bytes[x % nr];
		s[0] = all_lead ? x : json_edge_bytes[x];
		wl = json_ref_escape(s, n, want);
		if (write_string((const char *)s, n, want, wl) && !bad_w++)
			diag("writer: '%s'", echo((char *)s, n));
		text[0] = '"';
		memcpy(text + 1, s, n);
		text[n + 1] = '"';
		parse(&p, text, n + 2, NULL);
		if (!p.err != json_ref_string_ok(s, n) && !bad_p++)
			diag("tokenizer: '%s' gives %d", echo(text, n + 2),
			     p.err);
		parsed_free(&p);
	}
	if (!report(!bad_w && !bad_p, "sequences", name))
		diag("%llu sequences, %d writer and %d tokenizer mismatches",
		     (unsigned long long)total, bad_w, bad_p);
}

static void test_writer_limits(void)
{
	size_t big = 100000, i;
	char *s = malloc(big), *out;
	struct vl_jsonw w;
	size_t len;
	int err;

	for (i = 0; i < big; i++)
		s[i] = 'a' + i % 26;
	vl_jsonw_init(&w, big + 3, GFP_KERNEL);
	vl_jsonw_str_len(&w, s, big);
	err = vl_jsonw_finish(&w, &out, &len);
	report(!err && len == big + 2 && !out[len], "writer", "grows_to_exact_max");
	kvfree(out);

	vl_jsonw_init(&w, big + 2, GFP_KERNEL);
	vl_jsonw_str_len(&w, s, big);
	err = vl_jsonw_finish(&w, &out, &len);
	report(err == -EMSGSIZE && !out, "writer", "one_byte_over_max");

	vl_jsonw_init(&w, 1 << 20, GFP_KERNEL);
	for (i = 0; i < VL_JSONW_DEPTH_MAX; i++)
		vl_jsonw_arr_open(&w);
	for (i = 0; i < VL_JSONW_DEPTH_MAX; i++)
		vl_jsonw_arr_close(&w);
	err = vl_jsonw_finish(&w, &out, &len);
	report(!err && len == 2 * VL_JSONW_DEPTH_MAX, "writer", "depth_max");
	kvfree(out);

	vl_jsonw_init(&w, 1 << 20, GFP_KERNEL);
	for (i = 0; i <= VL_JSONW_DEPTH_MAX; i++)
		vl_jsonw_arr_open(&w);
	report(vl_jsonw_error(&w) == -EINVAL, "writer", "depth_max_plus_one");
	vl_jsonw_release(&w);

	shim_fail_alloc = 1;
	vl_jsonw_init(&w, 1 << 20, GFP_KERNEL);
	vl_jsonw_null(&w);
	err = vl_jsonw_finish(&w, &out, &len);
	report(err == -ENOMEM && !out, "writer", "first_allocation_fails");

	shim_fail_alloc = 2;
	vl_jsonw_init(&w, 1 << 20, GFP_KERNEL);
	vl_jsonw_arr_open(&w);		/* the first allocation */
	vl_jsonw_str_len(&w, s, big);	/* growing: the second fails */
	vl_jsonw_arr_close(&w);
	err = vl_jsonw_finish(&w, &out, &len);
	report(err == -ENOMEM && !out && !w.buf, "writer", "growth_fails");
	shim_fail_alloc = 0;

	vl_jsonw_init(&w, 1 << 20, GFP_KERNEL);
	vl_jsonw_null(&w);
	err = vl_jsonw_finish(&w, &out, &len);
	kvfree(out);
	vl_jsonw_null(&w);
	report(!err && vl_jsonw_finish(&w, &out, &len) == -EINVAL && !out,
	       "writer", "spent_after_finish");
	free(s);
}

int main(void)
{
	test_parse_cases();
	test_num_cases();
	test_cmp_cases();
	test_scaled_cases();
	test_fixed_cases();
	test_str_cases();
	test_get_cases();
	test_iterators();
	test_big_objects();
	test_writer_cases();
	test_writer_strings();
	test_sequences("all_1_byte", 1, true, true);
	test_sequences("all_2_bytes", 2, true, true);
	test_sequences("all_leads_then_2_edge_bytes", 3, true, false);
	test_sequences("4_edge_bytes", 4, false, false);
	test_writer_limits();
	printf("1..%d\n", n_pass + n_fail);
	printf("# %d passed, %d failed\n", n_pass, n_fail);
	return n_fail ? 1 : 0;
}
