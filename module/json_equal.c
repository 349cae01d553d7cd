// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON values a provider receives (VARLINK_JSON): walked element by
 * element (varlink_json_iter_init(), varlink_json_iter_next()), a string
 * decoded (varlink_json_str()), and compared with an expected JSON text
 * (varlink_json_equal()), for providers that take structured parameters.
 *
 * The walk reads the text the core validated against the IDL, a value at
 * a time, without tokens or allocation: strings are skipped to their
 * closing quote and containers to their closing bracket.  Text that is no
 * JSON ends it with -EINVAL, never a read past its end.
 *
 * For the comparison, both texts are tokenized (json.c), then walked side by side in the
 * received value's order.  Nesting is followed with an explicit stack, one
 * frame per open container, bounded by the JSON depth limit: no recursion.
 * Each member of an object is looked up among the other object's members
 * by its decoded key, so member order does not matter.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "compat.h"
#include "json.h"
#include "json_number.h"
#include <linux/varlink.h>

/* One container open in both values: @a in the received, @b in the other. */
struct eq_frame {
	u32 a;
	u32 b;
	u32 apos;	/* the next child of @a to compare */
	u32 bpos;	/* arrays: the next element of @b */
};

/* Members of object @obj whose value is not null. */
static u32 eq_members(const struct vl_json *js, u32 obj)
{
	u32 key, val, n = 0;

	vl_json_for_each_member(js, obj, key, val)
		n += js->toks[val].type != VL_JSON_NULL;
	return n;
}

/* The next pair of values to compare in the containers of @f: returns 1
 * with *@i and *@j set, 0 when the containers are done, -ENOENT when a
 * member of the received object is not in the other one.
 */
static int eq_next(const struct vl_json *a, const struct vl_json *b,
		   struct eq_frame *f, u32 *i, u32 *j)
{
	u32 end = a->toks[f->a].next, key, val, bkey, bval;

	if (a->toks[f->a].type == VL_JSON_ARRAY) {
		if (f->apos >= end)
			return 0;
		*i = f->apos;
		*j = f->bpos;
		f->apos = a->toks[*i].next;
		f->bpos = b->toks[*j].next;
		return 1;
	}
	while (f->apos < end) {
		key = f->apos;
		val = key + 1;
		f->apos = a->toks[val].next;
		if (a->toks[val].type == VL_JSON_NULL)
			continue;	/* null is absent */
		cond_resched();
		vl_json_for_each_member(b, f->b, bkey, bval) {
			if (vl_json_str_tok_eq(a, key, b, bkey)) {
				if (b->toks[bval].type == VL_JSON_NULL)
					return -ENOENT;
				*i = val;
				*j = bval;
				return 1;
			}
		}
		return -ENOENT;
	}
	return 0;
}

/* Compare the parsed values; @stack has room for @max open containers. */
static int eq_values(const struct vl_json *a, const struct vl_json *b,
		     struct eq_frame *stack, u32 max)
{
	u32 i = 0, j = 0, depth = 0;
	int ret;

	for (;;) {
		const struct vl_json_tok *ta = &a->toks[i], *tb = &b->toks[j];

		if (ta->type != tb->type)
			return 0;
		switch (ta->type) {
		case VL_JSON_STRING:
			if (!vl_json_str_tok_eq(a, i, b, j))
				return 0;
			break;
		case VL_JSON_NUMBER:
			if (vl_json_num_cmp(a->buf + ta->start, ta->len,
					    b->buf + tb->start, tb->len))
				return 0;
			break;
		case VL_JSON_BOOL:
			if ((ta->flags ^ tb->flags) & VL_JSON_F_TRUE)
				return 0;
			break;
		case VL_JSON_OBJECT:
		case VL_JSON_ARRAY:
			if (ta->type == VL_JSON_ARRAY ? ta->count != tb->count :
			    eq_members(a, i) != eq_members(b, j))
				return 0;
			if (depth == max)
				return -E2BIG;
			stack[depth++] = (struct eq_frame){
				.a = i, .b = j, .apos = i + 1, .bpos = j + 1,
			};
			break;
		}
		/* the next pair, from the innermost container not done yet */
		for (;;) {
			if (!depth)
				return 1;
			ret = eq_next(a, b, &stack[depth - 1], &i, &j);
			if (ret < 0)
				return 0;
			if (ret)
				break;
			depth--;
		}
	}
}

/* Tokens enough for any valid text of @len bytes (see json.h). */
static u32 eq_tokens(size_t len)
{
	return min_t(size_t, len / 2 + 1, VL_JSON_TOKENS_MAX);
}

/**
 * varlink_json_equal() - whether a received JSON value equals an expected one
 * @v: a parameter decoded as VARLINK_JSON; @v->text NULL stands for an
 *	absent or null parameter
 * @json: the expected value as a NUL-terminated JSON text, e.g. a string
 *	constant; any JSON value, whitespace allowed
 *
 * Equality is that of the JSON data model, with varlink's reading of null:
 *  - objects have the same members in any order; a member whose value is
 *    null counts as absent (varlink: absent and null are equivalent), at
 *    any depth, so {"a": null} equals {};
 *  - arrays have the same elements in the same order; a null element is a
 *    value like any other;
 *  - numbers have the same value, compared exactly in decimal, never
 *    rounded to a double: 1 equals 1.0 and 10e-1, 0 equals -0, but
 *    3.141592653589793 does not equal 3.1415926535897931;
 *  - strings and keys have the same bytes once unescaped, compared
 *    case-sensitively: "\u0041" equals "A", "Foo" does not equal "foo";
 *  - true, false and null equal themselves; an absent @v equals null.
 *
 * Only the token arrays of the two texts (and the stack of open containers
 * with them) are allocated, once.  An object's members are looked up one
 * by one, so the time is quadratic in the members of the objects compared.
 *
 * Context: process context, may sleep.
 * Return: 1 if the values are equal, 0 if not, or a negative errno:
 * -EINVAL if @json is NULL or either text is not one valid JSON value,
 * -E2BIG if one nests deeper than VL_JSON_DEPTH_MAX or has too many tokens
 * (an invalid text may get -E2BIG too), -EMSGSIZE if one is over
 * VL_MSG_SIZE_MAX bytes, -ENOMEM.
 */
int varlink_json_equal(const struct varlink_json *v, const char *json)
{
	static const struct vl_json_limits lim = {
		.max_size = VL_MSG_SIZE_MAX,
		.max_depth = VL_JSON_DEPTH_MAX,
		.max_tokens = VL_JSON_TOKENS_MAX,
	};
	const char *vtext = v->text ? v->text : "null";
	size_t vlen = v->text ? v->len : 4, jlen;
	u32 na, nb, nframes;
	struct vl_json a, b;
	struct vl_json_tok *toks;
	struct eq_frame *stack;
	size_t size;
	int ret;

	if (!json)
		return -EINVAL;
	jlen = strlen(json);
	if (vlen > VL_MSG_SIZE_MAX || jlen > VL_MSG_SIZE_MAX)
		return -EMSGSIZE;
	na = eq_tokens(vlen);
	nb = eq_tokens(jlen);
	/* a frame per container open in @v: no more than its tokens */
	nframes = min_t(u32, na, VL_JSON_DEPTH_MAX + 1);
	size = size_add(array_size(na + nb, sizeof(*toks)),
			array_size(nframes, sizeof(*stack)));
	toks = kvmalloc(size, GFP_KERNEL);
	if (!toks)
		return -ENOMEM;
	stack = (struct eq_frame *)(toks + na + nb);

	vl_json_init(&a, toks, na);
	vl_json_init(&b, toks + na, nb);
	ret = vl_json_parse(&a, vtext, vlen, &lim);
	if (!ret)
		ret = vl_json_parse(&b, json, jlen, &lim);
	if (!ret)
		ret = eq_values(&a, &b, stack, nframes);
	kvfree(toks);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(varlink_json_equal, VL_NS(VARLINK_TEST));

static const char *iter_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* The end of the value that starts at @p, or NULL if the text ends first:
 * a string at its closing quote, a container at its closing bracket, a
 * number, true, false or null at what follows it.
 */
static const char *iter_skip(const char *p, const char *end)
{
	unsigned int depth = 0;
	bool str = false;

	for (; p < end; p++) {
		if (str) {
			if (*p == '\\') {
				p++;
			} else if (*p == '"') {
				str = false;
				if (!depth)
					return p + 1;
			}
			continue;
		}
		switch (*p) {
		case '"':
			str = true;
			break;
		case '[':
		case '{':
			depth++;
			break;
		case ']':
		case '}':
			if (!depth)
				return p;
			if (!--depth)
				return p + 1;
			break;
		case ',':
		case ':':
		case ' ':
		case '\t':
		case '\n':
		case '\r':
			if (!depth)
				return p;
		}
	}
	return depth || str ? NULL : p;
}

/**
 * varlink_json_iter_init() - start a walk of an array, a map or a struct
 * @it: the walk
 * @v: a VARLINK_JSON parameter (or a value varlink_json_iter_next() gave):
 *	an array, or an object (a map or a struct); absent or null, a walk
 *	of nothing
 *
 * Return: 0, or -EINVAL if @v is neither an array nor an object.
 */
int varlink_json_iter_init(struct varlink_json_iter *it,
			   const struct varlink_json *v)
{
	const char *p, *end;

	it->pos = NULL;
	it->end = NULL;
	it->object = false;
	if (!v->text || (v->len == 4 && !memcmp(v->text, "null", 4)))
		return 0;
	end = v->text + v->len;
	p = iter_ws(v->text, end);
	if (p == end || (*p != '[' && *p != '{'))
		return -EINVAL;
	it->object = *p == '{';
	it->pos = p + 1;
	it->end = end;
	return 0;
}
EXPORT_SYMBOL_GPL(varlink_json_iter_init);

/**
 * varlink_json_iter_next() - the next element of a walk
 * @it: the walk, from varlink_json_iter_init()
 * @key: for an object, set to the member's key, a JSON string (decode it
 *	with varlink_json_str()); for an array, its @text is set to NULL
 * @val: set to the element's value, its JSON text: decode it with
 *	varlink_json_str(), or walk it in turn
 *
 * The elements come in the order of the text, each once.  @key and @val
 * point into @it's text.
 *
 * Return: 1 with the next element; 0 after the last; -EINVAL if the text
 * is not JSON, which ends the walk.
 */
int varlink_json_iter_next(struct varlink_json_iter *it,
			   struct varlink_json *key, struct varlink_json *val)
{
	const char *p = iter_ws(it->pos, it->end), *e;

	key->text = NULL;
	key->len = 0;
	if (!p || p >= it->end || *p == ']' || *p == '}') {
		it->pos = it->end;
		return 0;
	}
	if (it->object) {
		e = iter_skip(p, it->end);
		if (*p != '"' || !e)
			goto bad;
		key->text = p;
		key->len = e - p;
		p = iter_ws(e, it->end);
		if (p == it->end || *p++ != ':')
			goto bad;
		p = iter_ws(p, it->end);
	}
	e = iter_skip(p, it->end);
	if (!e || e == p)
		goto bad;
	val->text = p;
	val->len = e - p;
	p = iter_ws(e, it->end);
	it->pos = p < it->end && *p == ',' ? p + 1 : p;
	return 1;
bad:
	it->pos = it->end;
	return -EINVAL;
}
EXPORT_SYMBOL_GPL(varlink_json_iter_next);

/**
 * varlink_json_str() - decode a JSON string into a buffer
 * @v: the string's JSON text, quotes included (a key or a value of a walk)
 * @buf: receives the decoded string, NUL-terminated
 * @size: bytes of @buf
 *
 * Return: the length of the decoded string; -EINVAL if @v is absent, no
 * JSON string, or one that holds U+0000; -ENOSPC if it does not fit.
 */
int varlink_json_str(const struct varlink_json *v, char *buf, size_t size)
{
	static const struct vl_json_limits lim = {
		.max_size = VL_MSG_SIZE_MAX,
		.max_depth = 0,
		.max_tokens = 1,
	};
	struct vl_json_tok tok;
	struct vl_json js;

	if (!v->text)
		return -EINVAL;
	vl_json_init(&js, &tok, 1);
	if (vl_json_parse(&js, v->text, v->len, &lim) ||
	    tok.type != VL_JSON_STRING || (tok.flags & VL_JSON_F_NUL))
		return -EINVAL;
	return vl_json_unescape(&js, 0, buf, size);
}
EXPORT_SYMBOL_GPL(varlink_json_str);
