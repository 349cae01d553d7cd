// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the JSON tokenizer (module/json.c) and the writer
 * (module/jsonw.c).
 *
 * For any input: tokenizing does not crash.  For valid JSON:
 *  - the writer's copy of the document (vl_jsonw_tok) tokenizes again to
 *    the same token types and counts;
 *  - every string and key, decoded and written again (vl_jsonw_str_len),
 *    tokenizes back to the same bytes.
 * For any input: the input written as one string is valid JSON, and when
 * the input is valid UTF-8 it decodes back to the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>

#include "../../module/json.h"
#include "../../module/json_number.h"
#include "../../module/jsonw.h"
#include "../../module/tests/json_extra.h"
#include "../../module/tests/jsonw_extra.h"
#include "../../module/utf8.h"

#define FUZZ_INPUT_MAX	(256 * 1024)

static const struct vl_json_limits lim = {
	.max_size = VL_MSG_SIZE_MAX,
	.max_depth = VL_JSON_DEPTH_MAX,
	.max_tokens = VL_JSON_TOKENS_MAX,
};

#define CHECK(cond)	do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); \
		abort();						\
	}								\
} while (0)

/* Tokenize @buf into a fresh document; the caller frees ->toks. */
static int parse(struct vl_json *js, const char *buf, size_t len)
{
	u32 cap = vl_json_tokens_needed(len);
	struct vl_json_tok *toks = calloc(cap, sizeof(*toks));
	int ret;

	CHECK(toks);
	vl_json_init(js, toks, cap);
	ret = vl_json_parse(js, buf, len, &lim);
	if (ret)
		CHECK(js->emsg && js->epos <= len);
	return ret;
}

static bool valid_utf8(const u8 *s, size_t n)
{
	size_t i = 0;
	int len;

	while (i < n) {
		len = vl_utf8_seq(s + i, n - i);
		if (len < 0)
			return false;
		i += len;
	}
	return true;
}

/* Exercise the value accessors; they must not crash. */
static void poke(const struct vl_json *js, u32 i)
{
	const struct vl_json_tok *t = &js->toks[i];
	s64 s;
	u64 u;
	bool b;

	switch (t->type) {
	case VL_JSON_NUMBER:
		vl_json_tok_s64(js, i, &s);
		vl_json_tok_u64(js, i, &u);
		vl_json_tok_scaled(js, i, 9, &s);
		CHECK(vl_json_num_cmp(js->buf + t->start, t->len,
				      js->buf + t->start, t->len) == 0);
		break;
	case VL_JSON_BOOL:
		CHECK(!vl_json_tok_bool(js, i, &b));
		break;
	case VL_JSON_OBJECT:
		vl_json_find(js, i, "parameters");
		break;
	default:
		break;
	}
}

/* Copy the whole document through the writer and compare the shapes. */
static void copy_document(const struct vl_json *js, size_t len)
{
	struct vl_jsonw w;
	struct vl_json js2;
	char *out;
	size_t olen;
	u32 i;

	vl_jsonw_init(&w, len + 1, GFP_KERNEL);
	vl_jsonw_tok(&w, js, 0);
	CHECK(!vl_jsonw_finish(&w, &out, &olen));
	CHECK(!parse(&js2, out, olen));
	CHECK(js2.ntoks == js->ntoks);
	for (i = 0; i < js->ntoks; i++) {
		CHECK(js2.toks[i].type == js->toks[i].type);
		CHECK(js2.toks[i].count == js->toks[i].count);
		CHECK(js2.toks[i].next == js->toks[i].next);
	}
	free(js2.toks);
	kvfree(out);
}

/* Decode every string, write them as an array, decode again. */
static void strings_round_trip(const struct vl_json *js, size_t len)
{
	struct vl_jsonw w;
	struct vl_json js2;
	char *out, *a, *b;
	size_t olen;
	u32 i, j = 1, n = 0;

	a = malloc(len + 1);
	b = malloc(len + 1);
	CHECK(a && b);
	vl_jsonw_init(&w, 6 * len + 16, GFP_KERNEL);
	vl_jsonw_arr_open(&w);
	for (i = 0; i < js->ntoks; i++) {
		if (js->toks[i].type != VL_JSON_STRING)
			continue;
		CHECK(vl_json_unescape(js, i, a, len + 1) ==
		      (int)js->toks[i].count);
		vl_jsonw_str_len(&w, a, js->toks[i].count);
		n++;
	}
	vl_jsonw_arr_close(&w);
	CHECK(!vl_jsonw_finish(&w, &out, &olen));
	CHECK(!parse(&js2, out, olen));
	CHECK(js2.toks[0].type == VL_JSON_ARRAY && js2.toks[0].count == n);
	for (i = 0; i < js->ntoks; i++) {
		if (js->toks[i].type != VL_JSON_STRING)
			continue;
		CHECK(js2.toks[j].count == js->toks[i].count);
		vl_json_unescape(js, i, a, len + 1);
		vl_json_unescape(&js2, j, b, len + 1);
		CHECK(!memcmp(a, b, js->toks[i].count));
		CHECK(vl_json_str_eq(&js2, j, a, js->toks[i].count));
		j++;
	}
	free(js2.toks);
	kvfree(out);
	free(a);
	free(b);
}

/* Any bytes written as a string give valid JSON. */
static void bytes_as_string(const char *data, size_t size)
{
	struct vl_jsonw w;
	struct vl_json js;
	char *out, *dec;
	size_t olen;

	vl_jsonw_init(&w, 6 * size + 16, GFP_KERNEL);
	vl_jsonw_str_len(&w, data, size);
	CHECK(!vl_jsonw_finish(&w, &out, &olen));
	CHECK(!parse(&js, out, olen));
	CHECK(js.ntoks == 1 && js.toks[0].type == VL_JSON_STRING);
	if (valid_utf8((const u8 *)data, size)) {
		dec = malloc(size + 1);
		CHECK(dec);
		CHECK(vl_json_unescape(&js, 0, dec, size + 1) == (int)size);
		CHECK(!memcmp(dec, data, size));
		free(dec);
	}
	free(js.toks);
	kvfree(out);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct vl_json js;
	char *text;
	u32 i;

	if (size > FUZZ_INPUT_MAX)
		return 0;
	text = malloc(size ? size : 1);
	CHECK(text);
	memcpy(text, data, size);
	if (!parse(&js, text, size)) {
		for (i = 0; i < js.ntoks; i++)
			poke(&js, i);
		copy_document(&js, size);
		strings_round_trip(&js, size);
	}
	free(js.toks);
	bytes_as_string(text, size);
	free(text);
	return 0;
}
