// SPDX-License-Identifier: GPL-2.0
/*
 * Strict JSON tokenizer of the varlink core, see json.h for the contract.
 *
 * The scanner is a loop over three states (a value is due, a key is due, a
 * value has just ended).  Open containers form a stack threaded through the
 * token array itself: while a container is open, its @next holds the index
 * of its parent; when it closes, @next becomes the end of its subtree.  So
 * nesting costs neither recursion nor memory beyond the tokens.
 *
 * Numbers are scanned by json_number.c.  Accessors only the tests and the
 * userspace programs use are in tests/json_extra.c, not in varlink.ko.
 *
 * This file also builds in userspace (selftests/host) behind a small shim.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <linux/types.h>
#include <kunit/visibility.h>

#include "compat.h"
#include "json.h"
#include "json_number.h"
#include "utf8.h"

#define NONE		U32_MAX

enum { ST_VALUE, ST_KEY, ST_AFTER, ST_DONE };

struct json_parser {
	const u8 *s;
	const u8 *end;
	struct vl_json_tok *toks;
	u32 ntoks;
	u32 max_toks;
	u32 cur;		/* innermost open container, or NONE */
	u32 depth;
	u32 max_depth;
	int err;
	struct vl_json *js;
};

/* Bytes inside a string: all but SC_PLAIN need a closer look. */
enum { SC_PLAIN, SC_QUOTE, SC_ESC, SC_CTRL, SC_HIGH };

static const u8 str_class[256] = {
	[0x00 ... 0x1f] = SC_CTRL,
	['"'] = SC_QUOTE,
	['\\'] = SC_ESC,
	[0x80 ... 0xff] = SC_HIGH,
};

static int json_fail(struct json_parser *ps, const u8 *p, int err,
		     const char *msg)
{
	ps->js->emsg = msg;
	ps->js->epos = p - ps->s;
	ps->err = err;
	return err;
}

static inline const u8 *skip_ws(const u8 *p, const u8 *end)
{
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' ||
			   *p == '\t'))
		p++;
	return p;
}

/* The fast path: skip printable ASCII, eight bytes at a time. */
static inline const u8 *skip_plain(const u8 *p, const u8 *end)
{
	while (end - p >= 8 && !vl_json_special_bytes(get_unaligned((const u64 *)p)))
		p += 8;
	while (p < end && str_class[*p] == SC_PLAIN)
		p++;
	return p;
}

static int hex4(const u8 *p)
{
	int v = 0, i;

	for (i = 0; i < 4; i++) {
		u8 c = p[i];

		if (vl_json_is_digit(c))
			v = v << 4 | (c - '0');
		else if ((u8)((c | 0x20) - 'a') < 6)
			v = v << 4 | ((c | 0x20) - 'a' + 10);
		else
			return -1;
	}
	return v;
}

/* Check the escape at @p (a backslash); add to *@shrink the bytes it saves
 * once decoded.  Return the byte after it, or NULL.
 */
static const u8 *scan_escape(struct json_parser *ps, const u8 *p, u32 *shrink,
			     struct vl_json_tok *t)
{
	size_t avail = ps->end - p;
	int cp, lo;

	if (avail < 2)
		goto bad;
	switch (p[1]) {
	case '"': case '\\': case '/': case 'b':
	case 'f': case 'n': case 'r': case 't':
		*shrink += 1;
		return p + 2;
	case 'u':
		break;
	default:
		goto bad;
	}
	cp = avail < 6 ? -1 : hex4(p + 2);
	if (cp < 0)
		goto bad;
	if (cp >= 0xdc00 && cp <= 0xdfff) {
		json_fail(ps, p, -EINVAL, "lone low surrogate");
		return NULL;
	}
	if (cp >= 0xd800 && cp <= 0xdbff) {
		lo = avail < 12 || p[6] != '\\' || p[7] != 'u' ? -1 :
		     hex4(p + 8);
		if (lo < 0xdc00 || lo > 0xdfff) {
			json_fail(ps, p, -EINVAL, "lone high surrogate");
			return NULL;
		}
		*shrink += 8;
		return p + 12;
	}
	if (!cp)
		t->flags |= VL_JSON_F_NUL;
	*shrink += cp < 0x80 ? 5 : cp < 0x800 ? 4 : 3;
	return p + 6;
bad:
	json_fail(ps, p, -EINVAL, "invalid escape");
	return NULL;
}

/* Scan the string whose opening quote is at @p into @t. */
static const u8 *scan_string(struct json_parser *ps, const u8 *p,
			     struct vl_json_tok *t)
{
	const u8 *end = ps->end, *q = p + 1;
	u32 shrink = 0;
	int n;

	for (;;) {
		q = skip_plain(q, end);
		if (q == end) {
			json_fail(ps, p, -EINVAL, "unterminated string");
			return NULL;
		}
		switch (str_class[*q]) {
		case SC_QUOTE:
			t->len = q + 1 - p;
			t->count = t->len - 2 - shrink;
			return q + 1;
		case SC_ESC:
			t->flags |= VL_JSON_F_ESC;
			q = scan_escape(ps, q, &shrink, t);
			if (!q)
				return NULL;
			break;
		case SC_CTRL:
			json_fail(ps, q, -EINVAL, *q ?
				  "control character in string" : "NUL byte");
			return NULL;
		default:
			n = vl_utf8_seq(q, end - q);
			if (n < 0) {
				json_fail(ps, q, -EINVAL, "invalid UTF-8");
				return NULL;
			}
			q += n;
		}
	}
}

static const u8 *scan_literal(struct json_parser *ps, const u8 *p,
			      struct vl_json_tok *t)
{
	size_t avail = ps->end - p;

	switch (*p) {
	case 't':
		if (avail < 4 || memcmp(p, "true", 4))
			break;
		t->type = VL_JSON_BOOL;
		t->flags = VL_JSON_F_TRUE;
		t->len = 4;
		return p + 4;
	case 'f':
		if (avail < 5 || memcmp(p, "false", 5))
			break;
		t->type = VL_JSON_BOOL;
		t->len = 5;
		return p + 5;
	case 'n':
		if (avail < 4 || memcmp(p, "null", 4))
			break;
		t->type = VL_JSON_NULL;
		t->len = 4;
		return p + 4;
	default:
		json_fail(ps, p, -EINVAL, *p ? "value expected" : "NUL byte");
		return NULL;
	}
	json_fail(ps, p, -EINVAL, "invalid literal");
	return NULL;
}

static struct vl_json_tok *new_tok(struct json_parser *ps, const u8 *p, u8 type)
{
	struct vl_json_tok *t;

	if (unlikely(ps->ntoks >= ps->max_toks)) {
		json_fail(ps, p, -E2BIG, "too many tokens");
		return NULL;
	}
	t = &ps->toks[ps->ntoks];
	t->start = p - ps->s;
	t->len = 0;
	t->next = ++ps->ntoks;
	t->count = 0;
	t->type = type;
	t->flags = 0;
	return t;
}

/* Decoded string iterator, for keys with escapes (validated input). */
struct str_iter {
	const u8 *p;
	const u8 *end;
	u8 buf[4];
	u8 i;
	u8 n;
};

static int utf8_put(u32 cp, u8 *out)
{
	if (cp < 0x80) {
		out[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = 0xc0 | cp >> 6;
		out[1] = 0x80 | (cp & 0x3f);
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = 0xe0 | cp >> 12;
		out[1] = 0x80 | ((cp >> 6) & 0x3f);
		out[2] = 0x80 | (cp & 0x3f);
		return 3;
	}
	out[0] = 0xf0 | cp >> 18;
	out[1] = 0x80 | ((cp >> 12) & 0x3f);
	out[2] = 0x80 | ((cp >> 6) & 0x3f);
	out[3] = 0x80 | (cp & 0x3f);
	return 4;
}

/* Decode the validated escape at *@pp into @out; return its length. */
static int decode_escape(const u8 **pp, u8 *out)
{
	const u8 *p = *pp;
	u32 cp;

	*pp = p + 2;
	switch (p[1]) {
	case 'b':
		out[0] = '\b';
		return 1;
	case 'f':
		out[0] = '\f';
		return 1;
	case 'n':
		out[0] = '\n';
		return 1;
	case 'r':
		out[0] = '\r';
		return 1;
	case 't':
		out[0] = '\t';
		return 1;
	case 'u':
		break;
	default:
		out[0] = p[1];
		return 1;
	}
	cp = hex4(p + 2);
	*pp = p + 6;
	if (cp >= 0xd800 && cp <= 0xdbff) {
		cp = 0x10000 + ((cp - 0xd800) << 10) + (hex4(p + 8) - 0xdc00);
		*pp = p + 12;
	}
	return utf8_put(cp, out);
}

static void str_iter_init(struct str_iter *it, const u8 *s,
			  const struct vl_json_tok *t)
{
	it->p = s + t->start + 1;
	it->end = s + t->start + t->len - 1;
	it->i = 0;
	it->n = 0;
}

/* Return the next decoded byte, or -1 at the end. */
static int str_iter_next(struct str_iter *it)
{
	if (it->i < it->n)
		return it->buf[it->i++];
	if (it->p >= it->end)
		return -1;
	if (*it->p != '\\')
		return *it->p++;
	it->n = decode_escape(&it->p, it->buf);
	it->i = 1;
	return it->buf[0];
}

/* Order of decoded strings, @a of text @sa and @b of text @sb: by length,
 * then by bytes.
 */
static int str_cmp(const u8 *sa, const struct vl_json_tok *a,
		   const u8 *sb, const struct vl_json_tok *b)
{
	struct str_iter ia, ib;
	u32 n;

	if (a->count != b->count)
		return a->count < b->count ? -1 : 1;
	if (!((a->flags | b->flags) & VL_JSON_F_ESC))
		return memcmp(sa + a->start + 1, sb + b->start + 1, a->count);
	str_iter_init(&ia, sa, a);
	str_iter_init(&ib, sb, b);
	for (n = 0; n < a->count; n++) {
		int ca = str_iter_next(&ia), cb = str_iter_next(&ib);

		if (ca != cb)
			return ca < cb ? -1 : 1;
	}
	return 0;
}

/* Equality of decoded keys, with quick rejects for the common case. */
static bool key_eq(const u8 *s, const struct vl_json_tok *a,
		   const struct vl_json_tok *b)
{
	const u8 *pa = s + a->start + 1, *pb = s + b->start + 1;

	if (a->count != b->count)
		return false;
	if ((a->flags | b->flags) & VL_JSON_F_ESC)
		return !str_cmp(s, a, s, b);
	return !a->count || (pa[0] == pb[0] && !memcmp(pa, pb, a->count));
}

static int dup_found(struct json_parser *ps, u32 a, u32 b)
{
	u32 pos = max(ps->toks[a].start, ps->toks[b].start);

	return json_fail(ps, ps->s + pos, -EINVAL, "duplicate key");
}

/* A 6-bit hash of a decoded key: its length and first byte. */
static u32 key_hash(const u8 *s, const struct vl_json_tok *t)
{
	struct str_iter it;
	int c = 0;

	if (t->count && !(t->flags & VL_JSON_F_ESC)) {
		c = s[t->start + 1];
	} else if (t->count) {
		str_iter_init(&it, s, t);
		c = str_iter_next(&it);
	}
	return (t->count * 7 + c) & 63;
}

/* Small objects: a key whose hash was seen before is compared with every
 * earlier key; distinct keys rarely get that far.
 */
static int dups_linear(struct json_parser *ps, u32 obj)
{
	const struct vl_json_tok *t = ps->toks;
	u32 keys[VL_JSON_DUP_LINEAR];
	u32 n = 0, k, j;
	u64 seen = 0, bit;

	for (k = obj + 1; k < t[obj].next && n < ARRAY_SIZE(keys);
	     k = t[k + 1].next) {
		bit = BIT_ULL(key_hash(ps->s, &t[k]));
		for (j = 0; (seen & bit) && j < n; j++)
			if (key_eq(ps->s, &t[k], &t[keys[j]]))
				return dup_found(ps, keys[j], k);
		seen |= bit;
		keys[n++] = k;
	}
	return 0;
}

/* Merge two sorted lists of keys linked through their @next. */
static u32 merge(struct json_parser *ps, u32 a, u32 b)
{
	struct vl_json_tok *t = ps->toks;
	u32 head = NONE, *tail = &head;

	while (a != NONE && b != NONE) {
		if (str_cmp(ps->s, &t[a], ps->s, &t[b]) <= 0) {
			*tail = a;
			tail = &t[a].next;
			a = *tail;
		} else {
			*tail = b;
			tail = &t[b].next;
			b = *tail;
		}
	}
	*tail = a != NONE ? a : b;
	return head;
}

/* Large objects: a bottom-up merge sort of the keys, linked through their
 * @next (always key + 1 otherwise, so restored afterwards); equal keys end
 * up adjacent.  bins[i] holds a sorted list of 2^i keys: 32 bins suffice.
 */
static int dups_sorted(struct json_parser *ps, u32 obj)
{
	struct vl_json_tok *t = ps->toks;
	u32 end = t[obj].next, top = 0, bins[32];
	u32 k, next, list, i;
	int ret = 0;

	for (k = obj + 1; k < end; k = next) {
		next = t[k + 1].next;
		t[k].next = NONE;
		list = k;
		for (i = 0; i < top && bins[i] != NONE; i++) {
			list = merge(ps, bins[i], list);
			bins[i] = NONE;
		}
		if (i == top)
			top++;
		bins[i] = list;
	}
	list = NONE;
	for (i = 0; i < top; i++)
		list = merge(ps, bins[i], list);
	for (k = list; k != NONE && t[k].next != NONE; k = t[k].next) {
		if (!str_cmp(ps->s, &t[k], ps->s, &t[t[k].next])) {
			ret = dup_found(ps, k, t[k].next);
			break;
		}
	}
	for (k = obj + 1; k < end; k = t[k + 1].next)
		t[k].next = k + 1;
	return ret;
}

static int close_container(struct json_parser *ps, const u8 **pp, const u8 *p)
{
	struct vl_json_tok *t = &ps->toks[ps->cur];
	u32 parent = t->next;
	int err;

	if (*p != (t->type == VL_JSON_OBJECT ? '}' : ']'))
		return json_fail(ps, p, -EINVAL, "mismatched bracket");
	t->len = p + 1 - (ps->s + t->start);
	t->next = ps->ntoks;
	if (t->type == VL_JSON_OBJECT && t->count > 1) {
		err = t->count <= VL_JSON_DUP_LINEAR ?
		      dups_linear(ps, ps->cur) : dups_sorted(ps, ps->cur);
		if (err)
			return err;
	}
	ps->cur = parent;
	ps->depth--;
	*pp = p + 1;
	return ST_AFTER;
}

static int open_container(struct json_parser *ps, const u8 **pp, const u8 *p)
{
	u8 type = *p == '{' ? VL_JSON_OBJECT : VL_JSON_ARRAY;
	u32 idx = ps->ntoks;
	struct vl_json_tok *t;

	if (ps->depth >= ps->max_depth)
		return json_fail(ps, p, -E2BIG, "nesting too deep");
	t = new_tok(ps, p, type);
	if (!t)
		return ps->err;
	t->next = ps->cur;
	ps->cur = idx;
	ps->depth++;
	p = skip_ws(p + 1, ps->end);
	if (p < ps->end && *p == (type == VL_JSON_OBJECT ? '}' : ']'))
		return close_container(ps, pp, p);
	t->count = 1;
	*pp = p;
	return type == VL_JSON_OBJECT ? ST_KEY : ST_VALUE;
}

static int parse_value(struct json_parser *ps, const u8 **pp)
{
	const u8 *p = skip_ws(*pp, ps->end);
	const char *emsg;
	struct vl_json_tok *t;

	if (p == ps->end)
		return json_fail(ps, p, -EINVAL, "value expected");
	if (*p == '{' || *p == '[')
		return open_container(ps, pp, p);
	t = new_tok(ps, p, VL_JSON_STRING);
	if (!t)
		return ps->err;
	if (*p == '"') {
		p = scan_string(ps, p, t);
	} else if (*p == '-' || vl_json_is_digit(*p)) {
		const u8 *q = vl_json_num_scan(p, ps->end, &t->flags, &emsg);

		if (emsg)
			return json_fail(ps, q, -EINVAL, emsg);
		t->type = VL_JSON_NUMBER;
		t->len = q - p;
		p = q;
	} else {
		p = scan_literal(ps, p, t);
	}
	if (!p)
		return ps->err;
	*pp = p;
	return ST_AFTER;
}

static int parse_key(struct json_parser *ps, const u8 **pp)
{
	const u8 *p = skip_ws(*pp, ps->end);
	struct vl_json_tok *t;

	if (p == ps->end || *p != '"')
		return json_fail(ps, p, -EINVAL, p < ps->end && *p == '}' ?
				 "trailing comma" : "object key expected");
	t = new_tok(ps, p, VL_JSON_STRING);
	if (!t)
		return ps->err;
	t->flags = VL_JSON_F_KEY;
	p = scan_string(ps, p, t);
	if (!p)
		return ps->err;
	p = skip_ws(p, ps->end);
	if (p == ps->end || *p != ':')
		return json_fail(ps, p, -EINVAL, "':' expected");
	*pp = p + 1;
	return ST_VALUE;
}

static int parse_after(struct json_parser *ps, const u8 **pp)
{
	const u8 *p = skip_ws(*pp, ps->end);
	struct vl_json_tok *t;

	if (ps->cur == NONE) {
		if (p == ps->end)
			return ST_DONE;
		return json_fail(ps, p, -EINVAL, *p ? "trailing characters" :
						      "NUL byte");
	}
	if (p == ps->end)
		return json_fail(ps, p, -EINVAL, "unexpected end of input");
	t = &ps->toks[ps->cur];
	if (*p == ',') {
		t->count++;
		*pp = p + 1;
		return t->type == VL_JSON_OBJECT ? ST_KEY : ST_VALUE;
	}
	if (*p == '}' || *p == ']')
		return close_container(ps, pp, p);
	if (t->type == VL_JSON_OBJECT)
		return json_fail(ps, p, -EINVAL, "',' or '}' expected");
	return json_fail(ps, p, -EINVAL, "',' or ']' expected");
}

/**
 * vl_json_init() - prepare a document for vl_json_parse()
 * @js:   the document
 * @toks: token array, e.g. of vl_json_tokens_needed(len) entries
 * @cap:  entries in @toks
 */
void vl_json_init(struct vl_json *js, struct vl_json_tok *toks, u32 cap)
{
	memset(js, 0, sizeof(*js));
	js->toks = toks;
	js->cap = cap;
}
EXPORT_SYMBOL_IF_KUNIT(vl_json_init);

/**
 * vl_json_parse() - tokenize one JSON text
 * @js:  document prepared by vl_json_init()
 * @buf: the text; it need not be NUL-terminated and must outlive @js
 * @len: bytes of text
 * @lim: limits of this parse, clamped to the hard maxima of limits.h
 *
 * Return: 0 with js->ntoks tokens; or -EMSGSIZE (@len above the size
 * limit), -E2BIG (too deep, or more tokens than the limit or @js->cap),
 * -EINVAL (not strict RFC 8259 JSON, or a duplicate key), with a static
 * message in js->emsg and its byte offset in js->epos.
 */
int vl_json_parse(struct vl_json *js, const char *buf, size_t len,
		  const struct vl_json_limits *lim)
{
	struct json_parser ps = {
		.s = (const u8 *)buf,
		.end = (const u8 *)buf + len,
		.toks = js->toks,
		.max_toks = min3(js->cap, lim->max_tokens,
				 (u32)VL_JSON_TOKENS_MAX),
		.cur = NONE,
		.max_depth = min(lim->max_depth, (u32)VL_JSON_DEPTH_MAX),
		.js = js,
	};
	const u8 *p = ps.s;
	int st = ST_VALUE;

	js->buf = buf;
	js->len = 0;
	js->ntoks = 0;
	js->emsg = NULL;
	js->epos = 0;
	if (len > min_t(u32, lim->max_size, VL_MSG_SIZE_MAX)) {
		js->emsg = "message too large";
		js->epos = min_t(u32, lim->max_size, VL_MSG_SIZE_MAX);
		return -EMSGSIZE;
	}
	js->len = len;
	while (st != ST_DONE) {
		if (st == ST_VALUE)
			st = parse_value(&ps, &p);
		else if (st == ST_AFTER)
			st = parse_after(&ps, &p);
		else
			st = parse_key(&ps, &p);
		if (st < 0)
			return st;
	}
	js->ntoks = ps.ntoks;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vl_json_parse);

static const struct vl_json_tok *tok_of(const struct vl_json *js, u32 i,
					u8 type)
{
	if (i >= js->ntoks || js->toks[i].type != type)
		return NULL;
	return &js->toks[i];
}

/**
 * vl_json_str_eq() - whether string token @i decodes to @s
 * @js:  the document
 * @i:   token index
 * @s:   bytes to compare with
 * @len: bytes of @s
 *
 * Return: true if token @i is a string (or key) equal to @s once unescaped.
 */
bool vl_json_str_eq(const struct vl_json *js, u32 i, const char *s,
		    size_t len)
{
	const struct vl_json_tok *t = tok_of(js, i, VL_JSON_STRING);
	struct str_iter it;
	size_t n;

	if (!t || t->count != len)
		return false;
	if (!(t->flags & VL_JSON_F_ESC))
		return !memcmp(js->buf + t->start + 1, s, len);
	str_iter_init(&it, (const u8 *)js->buf, t);
	for (n = 0; n < len; n++)
		if (str_iter_next(&it) != (u8)s[n])
			return false;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(vl_json_str_eq);

/**
 * vl_json_str_tok_eq() - whether two string tokens decode alike
 * @a: a document
 * @i: a string (or key) token of @a
 * @b: a document, @a or another
 * @j: a string (or key) token of @b
 *
 * Return: true if both are strings equal once unescaped.
 */
bool vl_json_str_tok_eq(const struct vl_json *a, u32 i,
			const struct vl_json *b, u32 j)
{
	const struct vl_json_tok *ta = tok_of(a, i, VL_JSON_STRING);
	const struct vl_json_tok *tb = tok_of(b, j, VL_JSON_STRING);

	return ta && tb && !str_cmp((const u8 *)a->buf, ta,
				    (const u8 *)b->buf, tb);
}
EXPORT_SYMBOL_IF_KUNIT(vl_json_str_tok_eq);

/**
 * vl_json_find() - look a member up by key
 * @js:  the document
 * @obj: token index of an object
 * @key: NUL-terminated key, compared with the decoded keys
 *
 * Linear in the members of @obj.
 *
 * Return: the token index of the member's value (which may be null),
 * -ENOENT if there is no such member, -EINVAL if @obj is not an object.
 */
int vl_json_find(const struct vl_json *js, u32 obj, const char *key)
{
	size_t len = strlen(key);
	u32 k, v;

	if (!tok_of(js, obj, VL_JSON_OBJECT))
		return -EINVAL;
	vl_json_for_each_member(js, obj, k, v)
		if (vl_json_str_eq(js, k, key, len))
			return v;
	return -ENOENT;
}
EXPORT_SYMBOL_IF_KUNIT(vl_json_find);

/**
 * vl_json_str_raw() - a string's bytes in place, when it has no escapes
 * @js:  the document
 * @i:   token index
 * @len: set to the length of the string
 *
 * Return: the bytes (not NUL-terminated), or NULL if token @i is not a
 * string or has escapes (then use vl_json_unescape()).
 */
const char *vl_json_str_raw(const struct vl_json *js, u32 i, size_t *len)
{
	const struct vl_json_tok *t = tok_of(js, i, VL_JSON_STRING);

	if (!t || (t->flags & VL_JSON_F_ESC))
		return NULL;
	*len = t->count;
	return js->buf + t->start + 1;
}
EXPORT_SYMBOL_IF_KUNIT(vl_json_str_raw);

/* Decode the validated string body @src of @n bytes; @dst may be @src. */
static u32 decode_into(u8 *dst, const u8 *src, size_t n)
{
	const u8 *end = src + n, *bs;
	u8 *d = dst;

	while (src < end) {
		bs = memchr(src, '\\', end - src);
		if (!bs)
			bs = end;
		memmove(d, src, bs - src);
		d += bs - src;
		src = bs;
		if (src < end)
			d += decode_escape(&src, d);
	}
	return d - dst;
}

/**
 * vl_json_unescape() - decode a string into a buffer
 * @js:   the document
 * @i:    token index of a string
 * @buf:  destination; gets the decoded bytes and a NUL
 * @size: bytes of @buf
 *
 * The decoded bytes may contain NUL (from "\u0000"); the length tells.
 *
 * Return: the decoded length (js->toks[i].count), -EINVAL if token @i is
 * not a string, -ENOSPC if @size is not above the decoded length.
 */
int vl_json_unescape(const struct vl_json *js, u32 i, char *buf, size_t size)
{
	const struct vl_json_tok *t = tok_of(js, i, VL_JSON_STRING);

	if (!t)
		return -EINVAL;
	if (size <= t->count)
		return -ENOSPC;
	decode_into((u8 *)buf, (const u8 *)js->buf + t->start + 1, t->len - 2);
	buf[t->count] = '\0';
	return t->count;
}
EXPORT_SYMBOL_IF_KUNIT(vl_json_unescape);

/**
 * vl_json_unescape_inplace() - decode a string inside the parsed text
 * @buf: the writable text that was parsed
 * @tok: a string token of it
 *
 * Decoding never lengthens a string, so the result and a NUL fit between
 * the quotes.  Afterwards the text is no longer the JSON that was parsed:
 * do not decode the same token twice or copy a value that contains it.
 *
 * Return: the decoded string (@tok->count bytes, NUL-terminated), or NULL
 * if @tok is not a string.
 */
char *vl_json_unescape_inplace(char *buf, const struct vl_json_tok *tok)
{
	char *s = buf + tok->start + 1;

	if (tok->type != VL_JSON_STRING)
		return NULL;
	if (tok->flags & VL_JSON_F_ESC)
		decode_into((u8 *)s, (const u8 *)s, tok->len - 2);
	s[tok->count] = '\0';
	return s;
}
EXPORT_SYMBOL_IF_KUNIT(vl_json_unescape_inplace);

/**
 * vl_json_tok_bool() - the value of a bool token
 * @js: the document
 * @i:  token index
 * @v:  set to the value
 *
 * Return: 0, or -EINVAL if token @i is not true or false.
 */
int vl_json_tok_bool(const struct vl_json *js, u32 i, bool *v)
{
	const struct vl_json_tok *t = tok_of(js, i, VL_JSON_BOOL);

	if (!t)
		return -EINVAL;
	*v = t->flags & VL_JSON_F_TRUE;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vl_json_tok_bool);

/* Magnitude and sign of an integer token. */
static int tok_int(const struct vl_json *js, u32 i, u64 *mag, bool *neg)
{
	const struct vl_json_tok *t = tok_of(js, i, VL_JSON_NUMBER);
	const u8 *p, *end;
	u64 v = 0;

	if (!t || !vl_json_is_int(js, i))
		return -EINVAL;
	p = (const u8 *)js->buf + t->start;
	end = p + t->len;
	*neg = t->flags & VL_JSON_F_NEG;
	for (p += *neg; p < end; p++) {
		u32 d = *p - '0';

		if (v > U64_MAX / 10 || (v == U64_MAX / 10 && d > U64_MAX % 10))
			return -ERANGE;
		v = v * 10 + d;
	}
	*mag = v;
	return 0;
}

/**
 * vl_json_tok_s64() - the value of an integer token
 * @js: the document
 * @i:  token index
 * @v:  set to the value
 *
 * Return: 0; -EINVAL if token @i is not a number without fraction and
 * exponent; -ERANGE if it is outside S64_MIN..S64_MAX.
 */
int vl_json_tok_s64(const struct vl_json *js, u32 i, s64 *v)
{
	bool neg;
	u64 mag;
	int err = tok_int(js, i, &mag, &neg);

	if (err)
		return err;
	if (mag > (u64)S64_MAX + neg)
		return -ERANGE;
	*v = neg && mag ? -(s64)(mag - 1) - 1 : (s64)mag;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vl_json_tok_s64);

/**
 * vl_json_tok_u64() - the value of an unsigned integer token
 * @js: the document
 * @i:  token index
 * @v:  set to the value
 *
 * Return: 0; -EINVAL if token @i is not a number without fraction and
 * exponent; -ERANGE if it is negative (but "-0" is 0) or above U64_MAX.
 */
int vl_json_tok_u64(const struct vl_json *js, u32 i, u64 *v)
{
	bool neg;
	u64 mag;
	int err = tok_int(js, i, &mag, &neg);

	if (err)
		return err;
	if (neg && mag)
		return -ERANGE;
	*v = mag;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vl_json_tok_u64);

/**
 * vl_json_tok_s32() - vl_json_tok_s64() for S32_MIN..S32_MAX
 * @js: the document
 * @i:  token index
 * @v:  set to the value
 *
 * Return: 0, -EINVAL or -ERANGE.
 */
int vl_json_tok_s32(const struct vl_json *js, u32 i, s32 *v)
{
	s64 w;
	int err = vl_json_tok_s64(js, i, &w);

	if (err)
		return err;
	if (w < S32_MIN || w > S32_MAX)
		return -ERANGE;
	*v = w;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vl_json_tok_s32);

/**
 * vl_json_tok_u32() - vl_json_tok_u64() for 0..U32_MAX
 * @js: the document
 * @i:  token index
 * @v:  set to the value
 *
 * Return: 0, -EINVAL or -ERANGE.
 */
int vl_json_tok_u32(const struct vl_json *js, u32 i, u32 *v)
{
	u64 w;
	int err = vl_json_tok_u64(js, i, &w);

	if (err)
		return err;
	if (w > U32_MAX)
		return -ERANGE;
	*v = w;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vl_json_tok_u32);
