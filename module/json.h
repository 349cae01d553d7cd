/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strict JSON (RFC 8259) tokenizer of the varlink core.
 *
 * vl_json_parse() makes one pass over the input and fills a caller-supplied
 * array of tokens: no recursion, no allocation.  Every value is one token,
 * an object key is a string token followed by its value's token, and every
 * token knows where its subtree ends (@next), so a value of any size is
 * skipped in O(1).
 *
 * Limits, all checked before the work they bound:
 *  - @max_size:   bytes of JSON text (-EMSGSIZE), at most VL_MSG_SIZE_MAX;
 *  - @max_depth:  nesting of arrays and objects (-E2BIG), at most
 *                 VL_JSON_DEPTH_MAX; 0 allows a single scalar only;
 *  - @max_tokens: tokens, keys included (-E2BIG), at most VL_JSON_TOKENS_MAX.
 * The defaults are in limits.h; the server exposes them as module
 * parameters.  With vl_json_tokens_needed(@len) tokens, -E2BIG means that
 * a limit was hit, never that the array was too small.
 *
 * Anything else RFC 8259 does not allow is -EINVAL: a byte order mark,
 * comments, trailing commas, single quotes, NaN, leading zeros, control
 * characters or a raw NUL anywhere, bad escapes, lone surrogates, invalid
 * UTF-8, and anything but whitespace after the value.  Any value may be the
 * top-level one (the caller checks that a message is an object).  "\u0000"
 * is valid and flagged (VL_JSON_F_NUL), since it cannot be in a C string.
 * Every error comes with a static message and a byte offset.
 *
 * Duplicate keys (compared after unescaping) are -EINVAL too.  Objects of
 * up to VL_JSON_DUP_LINEAR members compare a key with the earlier ones
 * only when a 6-bit hash says it may be one of them; larger objects merge
 * sort their keys: O(n log n) comparisons for n keys, never O(n^2).
 *
 * Numbers are validated lexemes.  Integers convert exactly to s64 or u64;
 * other numbers are compared and converted with integer arithmetic only
 * (the kernel has no FPU), see json_number.h.  Varlink accepts an integer
 * where a float is due.
 */
#ifndef _VL_JSON_H
#define _VL_JSON_H

#include <linux/bits.h>
#include <linux/types.h>

#include "limits.h"

enum vl_json_type {
	VL_JSON_OBJECT = 1,
	VL_JSON_ARRAY,
	VL_JSON_STRING,
	VL_JSON_NUMBER,
	VL_JSON_BOOL,
	VL_JSON_NULL,
};

/* vl_json_tok.flags */
#define VL_JSON_F_KEY		BIT(0)	/* string: an object key */
#define VL_JSON_F_ESC		BIT(1)	/* string: has escapes */
#define VL_JSON_F_NUL		BIT(2)	/* string: decodes to text with U+0000 */
#define VL_JSON_F_NEG		BIT(3)	/* number: leading minus */
#define VL_JSON_F_FRAC		BIT(4)	/* number: has a fraction */
#define VL_JSON_F_EXP		BIT(5)	/* number: has an exponent */
#define VL_JSON_F_TRUE		BIT(6)	/* bool: true */

/* Objects with more members are checked for duplicates by sorting. */
#define VL_JSON_DUP_LINEAR	8

/**
 * struct vl_json_tok - one JSON value
 * @start: byte offset of the value's text (a string's opening quote)
 * @len:   bytes of the value's text, quotes and brackets included
 * @next:  index of the first token after this value's subtree
 * @count: object: members; array: elements; string: bytes once unescaped
 * @type:  enum vl_json_type
 * @flags: VL_JSON_F_*
 */
struct vl_json_tok {
	u32 start;
	u32 len;
	u32 next;
	u32 count;
	u8 type;
	u8 flags;
};

/**
 * struct vl_json_limits - bounds of one parse, see the top of this file
 * @max_size:   bytes of JSON text, a NUL terminator not included
 * @max_depth:  nesting of arrays and objects
 * @max_tokens: tokens, object keys included
 */
struct vl_json_limits {
	u32 max_size;
	u32 max_depth;
	u32 max_tokens;
};

#define VL_JSON_LIMITS_DEFAULT {				\
	.max_size = VL_MSG_SIZE_DEFAULT - 1,			\
	.max_depth = VL_JSON_DEPTH_DEFAULT,			\
	.max_tokens = VL_JSON_TOKENS_DEFAULT,			\
}

/**
 * struct vl_json - a parsed document
 * @buf:   the JSON text; it must outlive the tokens
 * @len:   bytes of @buf
 * @toks:  caller-supplied token array; token 0 is the top-level value
 * @ntoks: tokens in use after a successful parse
 * @cap:   size of @toks
 * @emsg:  static description of the last parse error, or NULL
 * @epos:  byte offset of the last parse error
 */
struct vl_json {
	const char *buf;
	u32 len;
	struct vl_json_tok *toks;
	u32 ntoks;
	u32 cap;
	const char *emsg;
	u32 epos;
};

/**
 * vl_json_tokens_needed() - a token array size that no text of @len bytes
 * can exhaust before a limit or a syntax error stops the parse
 * @len: bytes of text
 *
 * Every token starts at a byte of its own.  (A valid text needs no more
 * than @len / 2 + 1, but "[[[[" has to be seen to its end to be refused.)
 *
 * Return: @len + 1, at most VL_JSON_TOKENS_MAX.
 */
static inline u32 vl_json_tokens_needed(size_t len)
{
	return len >= VL_JSON_TOKENS_MAX ? VL_JSON_TOKENS_MAX : len + 1;
}

void vl_json_init(struct vl_json *js, struct vl_json_tok *toks, u32 cap);
int vl_json_parse(struct vl_json *js, const char *buf, size_t len,
		  const struct vl_json_limits *lim);

/* Values by token index; an index must come from the same document. */
int vl_json_find(const struct vl_json *js, u32 obj, const char *key);
bool vl_json_str_eq(const struct vl_json *js, u32 i, const char *s,
		    size_t len);
bool vl_json_str_tok_eq(const struct vl_json *a, u32 i,
			const struct vl_json *b, u32 j);
const char *vl_json_str_raw(const struct vl_json *js, u32 i, size_t *len);
int vl_json_unescape(const struct vl_json *js, u32 i, char *buf,
		     size_t size);
char *vl_json_unescape_inplace(char *buf, const struct vl_json_tok *tok);
int vl_json_tok_bool(const struct vl_json *js, u32 i, bool *v);
int vl_json_tok_s64(const struct vl_json *js, u32 i, s64 *v);
int vl_json_tok_u64(const struct vl_json *js, u32 i, u64 *v);
int vl_json_tok_s32(const struct vl_json *js, u32 i, s32 *v);
int vl_json_tok_u32(const struct vl_json *js, u32 i, u32 *v);

/**
 * struct vl_json_iter - cursor over the children of one container
 * @toks: the document's tokens
 * @pos:  next child
 * @end:  first token after the container
 */
struct vl_json_iter {
	const struct vl_json_tok *toks;
	u32 pos;
	u32 end;
};

/* A cursor over container @c if it has @type, else over nothing. */
static inline struct vl_json_iter vl_json_iter_init(const struct vl_json *js,
						    u32 c, u8 type)
{
	struct vl_json_iter it = { .toks = js->toks };

	if (c < js->ntoks && js->toks[c].type == type) {
		it.pos = c + 1;
		it.end = js->toks[c].next;
	}
	return it;
}

static inline bool vl_json_iter_elem(struct vl_json_iter *it, u32 *elem)
{
	if (it->pos >= it->end)
		return false;
	*elem = it->pos;
	it->pos = it->toks[it->pos].next;
	return true;
}

static inline bool vl_json_iter_member(struct vl_json_iter *it, u32 *key,
				       u32 *val)
{
	if (it->pos >= it->end)
		return false;
	*key = it->pos;
	*val = it->pos + 1;
	it->pos = it->toks[it->pos + 1].next;
	return true;
}

/**
 * vl_json_for_each_elem() - iterate over the elements of an array
 * @js:   the document
 * @arr:  token index of the array
 * @elem: u32 set to each element's token index
 *
 * If @arr is not an array (or not a token), the body never runs.
 */
#define vl_json_for_each_elem(js, arr, elem)				\
	for (struct vl_json_iter __vl_it =				\
	     vl_json_iter_init(js, arr, VL_JSON_ARRAY);			\
	     vl_json_iter_elem(&__vl_it, &(elem));)

/**
 * vl_json_for_each_member() - iterate over the members of an object
 * @js:  the document
 * @obj: token index of the object
 * @key: u32 set to each member's key token index
 * @val: u32 set to each member's value token index
 *
 * If @obj is not an object (or not a token), the body never runs.
 */
#define vl_json_for_each_member(js, obj, key, val)			\
	for (struct vl_json_iter __vl_it =				\
	     vl_json_iter_init(js, obj, VL_JSON_OBJECT);		\
	     vl_json_iter_member(&__vl_it, &(key), &(val));)

/**
 * vl_json_is_int() - whether token @i is a number without fraction/exponent
 * @js: the document
 * @i:  token index, below @js->ntoks
 *
 * Return: true for a varlink int.  Any number token is a valid float.
 */
static inline bool vl_json_is_int(const struct vl_json *js, u32 i)
{
	const struct vl_json_tok *t = &js->toks[i];

	return t->type == VL_JSON_NUMBER &&
	       !(t->flags & (VL_JSON_F_FRAC | VL_JSON_F_EXP));
}

/**
 * vl_json_special_bytes() - whether eight bytes of a string need a look
 * @w: the bytes, as loaded from memory
 *
 * The tokenizer and the writer skip printable ASCII eight bytes at a time.
 *
 * Return: nonzero if a byte of @w is '"', '\\', below 0x20 or above 0x7f.
 */
static inline u64 vl_json_special_bytes(u64 w)
{
	const u64 ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	u64 q = w ^ (ones * '"');
	u64 b = w ^ (ones * '\\');

	return (((w - ones * 0x20) & ~w) | ((q - ones) & ~q) |
		((b - ones) & ~b) | w) & highs;
}

#endif /* _VL_JSON_H */
