// SPDX-License-Identifier: GPL-2.0
/*
 * Accessors of the JSON tokenizer that the kernel does not use: members of
 * an object by key, strings as C strings, numbers as fixed-point integers.
 * The tests and the userspace programs of selftests/ use them; they are
 * built into the KUnit module and into those programs, never into
 * varlink.ko (the way tools/bootconfig keeps what only userspace needs of
 * lib/bootconfig.c).
 */
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/types.h>

#include "../json.h"
#include "../json_number.h"
#include "json_extra.h"

/**
 * vl_json_tok_str() - decode a string into a C string
 * @js:   the document
 * @i:    token index of a string
 * @buf:  destination; gets the decoded bytes and a NUL
 * @size: bytes of @buf
 *
 * Return: the length of the C string; -EINVAL if token @i is not a string,
 * -EILSEQ if it contains U+0000, -ENOSPC if @buf is too small.
 */
int vl_json_tok_str(const struct vl_json *js, u32 i, char *buf, size_t size)
{
	if (i < js->ntoks && (js->toks[i].flags & VL_JSON_F_NUL))
		return -EILSEQ;
	return vl_json_unescape(js, i, buf, size);
}

/**
 * vl_json_tok_scaled() - vl_json_num_scaled() of a number token
 * @js:       the document
 * @i:        token index
 * @decimals: decimal places kept
 * @v:        set to the value times 10^@decimals
 *
 * Return: 0, -EINVAL (not a number, @decimals too large) or -ERANGE.
 */
int vl_json_tok_scaled(const struct vl_json *js, u32 i, unsigned int decimals,
		       s64 *v)
{
	const struct vl_json_tok *t;

	if (i >= js->ntoks || js->toks[i].type != VL_JSON_NUMBER)
		return -EINVAL;
	t = &js->toks[i];
	return vl_json_num_scaled(js->buf + t->start, t->len, decimals, v);
}

/* The member @key of @obj, with null counted as absent. */
static int member(const struct vl_json *js, u32 obj, const char *key)
{
	int v = vl_json_find(js, obj, key);

	if (v >= 0 && js->toks[v].type == VL_JSON_NULL)
		return -ENOENT;
	return v;
}

/**
 * vl_json_get_bool() - the bool member @key of object @obj
 * @js:  the document
 * @obj: token index of an object
 * @key: NUL-terminated key
 * @v:   set to the value
 *
 * Return: 0; -ENOENT if @key is absent or null; -EINVAL if @obj is not an
 * object or the member is not a bool.
 */
int vl_json_get_bool(const struct vl_json *js, u32 obj, const char *key,
		     bool *v)
{
	int i = member(js, obj, key);

	return i < 0 ? i : vl_json_tok_bool(js, i, v);
}

/**
 * vl_json_get_s64() - the integer member @key of object @obj
 * @js:  the document
 * @obj: token index of an object
 * @key: NUL-terminated key
 * @v:   set to the value
 *
 * Return: 0; -ENOENT if @key is absent or null; -EINVAL if @obj is not an
 * object or the member is not an integer; -ERANGE if it does not fit.
 */
int vl_json_get_s64(const struct vl_json *js, u32 obj, const char *key,
		    s64 *v)
{
	int i = member(js, obj, key);

	return i < 0 ? i : vl_json_tok_s64(js, i, v);
}

/**
 * vl_json_get_u64() - the unsigned integer member @key of object @obj
 * @js:  the document
 * @obj: token index of an object
 * @key: NUL-terminated key
 * @v:   set to the value
 *
 * Return: 0, -ENOENT, -EINVAL or -ERANGE as vl_json_get_s64().
 */
int vl_json_get_u64(const struct vl_json *js, u32 obj, const char *key,
		    u64 *v)
{
	int i = member(js, obj, key);

	return i < 0 ? i : vl_json_tok_u64(js, i, v);
}

/**
 * vl_json_get_s32() - the s32 member @key of object @obj
 * @js:  the document
 * @obj: token index of an object
 * @key: NUL-terminated key
 * @v:   set to the value
 *
 * Return: 0, -ENOENT, -EINVAL or -ERANGE as vl_json_get_s64().
 */
int vl_json_get_s32(const struct vl_json *js, u32 obj, const char *key,
		    s32 *v)
{
	int i = member(js, obj, key);

	return i < 0 ? i : vl_json_tok_s32(js, i, v);
}

/**
 * vl_json_get_u32() - the u32 member @key of object @obj
 * @js:  the document
 * @obj: token index of an object
 * @key: NUL-terminated key
 * @v:   set to the value
 *
 * Return: 0, -ENOENT, -EINVAL or -ERANGE as vl_json_get_s64().
 */
int vl_json_get_u32(const struct vl_json *js, u32 obj, const char *key,
		    u32 *v)
{
	int i = member(js, obj, key);

	return i < 0 ? i : vl_json_tok_u32(js, i, v);
}

/**
 * vl_json_get_str() - the string member @key of object @obj, as C string
 * @js:   the document
 * @obj:  token index of an object
 * @key:  NUL-terminated key
 * @buf:  destination
 * @size: bytes of @buf
 *
 * Return: the length of the string; -ENOENT if @key is absent or null;
 * -EINVAL if @obj is not an object or the member is not a string; -EILSEQ
 * if it contains U+0000; -ENOSPC if @buf is too small.
 */
int vl_json_get_str(const struct vl_json *js, u32 obj, const char *key,
		    char *buf, size_t size)
{
	int i = member(js, obj, key);

	return i < 0 ? i : vl_json_tok_str(js, i, buf, size);
}

/**
 * vl_json_num_valid() - whether @s is exactly one RFC 8259 number
 * @s:   the lexeme
 * @len: its bytes
 *
 * Return: true if @s is a number lexeme, without sign or space around it.
 */
bool vl_json_num_valid(const char *s, size_t len)
{
	const u8 *p = (const u8 *)s;
	const char *emsg;
	u8 flags;

	return vl_json_num_scan(p, p + len, &flags, &emsg) == p + len && !emsg;
}

/**
 * vl_json_num_scaled() - a number lexeme as a fixed-point integer
 * @s:        the lexeme
 * @len:      its bytes
 * @decimals: decimal places kept, at most VL_JSON_DECIMALS_MAX
 * @v:        set to the value times 10^@decimals, truncated toward zero
 *
 * For example "1.239" with 2 decimals is 123, "-5e-1" with 0 is 0.
 *
 * Return: 0; -EINVAL if @s is not a number lexeme or @decimals is too
 * large; -ERANGE if the result does not fit an s64.
 */
int vl_json_num_scaled(const char *s, size_t len, unsigned int decimals,
		       s64 *v)
{
	const u8 *p = (const u8 *)s;
	struct vl_json_dec d;
	u64 acc = 0;
	s64 n;

	if (decimals > VL_JSON_DECIMALS_MAX || !vl_json_num_valid(s, len))
		return -EINVAL;
	vl_json_dec_parse(&d, p, p + len);
	n = d.exp + decimals;
	if (!d.sign || n <= 0) {
		*v = 0;
		return 0;
	}
	if (n > 20)
		return -ERANGE;
	for (p = d.dig; n > 0; n--) {
		u32 digit = vl_json_dec_next(&d, &p) - '0';

		if (acc > U64_MAX / 10 ||
		    (acc == U64_MAX / 10 && digit > U64_MAX % 10))
			return -ERANGE;
		acc = acc * 10 + digit;
	}
	if (acc > (d.sign < 0 ? (u64)S64_MAX + 1 : (u64)S64_MAX))
		return -ERANGE;
	*v = d.sign < 0 && acc ? -(s64)(acc - 1) - 1 : (s64)acc;
	return 0;
}
