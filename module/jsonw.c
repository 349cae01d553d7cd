// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded JSON writer of the varlink core, see jsonw.h for the contract.
 * Calls only the tests and the userspace programs use are in
 * tests/jsonw_extra.c, not in varlink.ko.
 *
 * This file also builds in userspace (selftests/host) behind a small shim.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>
#include <kunit/visibility.h>

#include "compat.h"
#include "json.h"
#include "json_number.h"
#include "jsonw.h"
#include "utf8.h"

#define MIN_CAP		256

static const char hex[] = "0123456789abcdef";

/* Control characters with a short escape. */
static const char esc_short[0x20] = {
	['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n', ['\f'] = 'f', ['\r'] = 'r',
};

/* Give back the memory of @w: a kvmalloc'ed buffer, not the caller's. */
static void drop_buf(struct vl_jsonw *w)
{
	if (w->buf != w->ext)
		kvfree(w->buf);
	w->buf = NULL;
	w->ext = NULL;
	w->len = 0;
	w->cap = 0;
}

static void set_err(struct vl_jsonw *w, int err)
{
	drop_buf(w);
	w->err = err;
}

/* Make room for @n more bytes and the NUL; sets the sticky error if not. */
static bool reserve(struct vl_jsonw *w, size_t n)
{
	size_t cap;
	char *buf;

	if (w->err)
		return false;
	if (n < w->cap - w->len)
		return true;
	if (n >= w->max - w->len) {
		set_err(w, -EMSGSIZE);
		return false;
	}
	cap = w->cap > w->max / 2 ? w->max : max_t(size_t, w->cap * 2, MIN_CAP);
	cap = clamp_t(size_t, cap, w->len + n + 1, w->max);
	buf = kvmalloc(cap, w->gfp);
	if (!buf) {
		set_err(w, -ENOMEM);
		return false;
	}
	if (w->len)
		memcpy(buf, w->buf, w->len);
	/* the caller's buffer, or none yet, is not ours to free */
	if (w->buf != w->ext)
		kvfree(w->buf);
	w->buf = buf;
	w->cap = cap;
	return true;
}

static bool put(struct vl_jsonw *w, const void *s, size_t n)
{
	if (!reserve(w, n))
		return false;
	memcpy(w->buf + w->len, s, n);
	w->len += n;
	return true;
}

static bool put_c(struct vl_jsonw *w, char c)
{
	return put(w, &c, 1);
}

static bool in_obj(const struct vl_jsonw *w)
{
	return w->depth && (w->obj & BIT_ULL(w->depth - 1));
}

/* Before a value: check its place, and write the comma if one is due. */
static bool value_begin(struct vl_jsonw *w)
{
	if (w->err)
		return false;
	if (!w->depth) {
		if (!w->done)
			return true;
	} else if (in_obj(w)) {
		if (w->want_value) {
			w->want_value = false;
			return true;
		}
	} else {
		return w->buf[w->len - 1] == '[' || put_c(w, ',');
	}
	set_err(w, -EINVAL);
	return false;
}

static void value_end(struct vl_jsonw *w)
{
	if (!w->err && !w->depth)
		w->done = true;
}

static void value(struct vl_jsonw *w, const void *s, size_t n)
{
	if (value_begin(w) && put(w, s, n))
		value_end(w);
}

/* How much of @s goes out unchanged: printable ASCII and valid UTF-8. */
static size_t plain_len(const u8 *s, size_t n)
{
	size_t i = 0;
	int l;

	while (i < n) {
		if (n - i >= 8 &&
		    !vl_json_special_bytes(get_unaligned((const u64 *)(s + i)))) {
			i += 8;	/* printable ASCII, eight bytes at a time */
			continue;
		}
		if (s[i] >= 0x20 && s[i] < 0x80 && s[i] != '"' && s[i] != '\\') {
			i++;
			continue;
		}
		if (s[i] < 0x80)
			break;
		l = vl_utf8_seq(s + i, n - i);
		if (l < 0)
			break;
		i += l;
	}
	return i;
}

static void put_escape(struct vl_jsonw *w, u8 c)
{
	char e[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf] };

	if (c == '"' || c == '\\') {
		e[1] = c;
		put(w, e, 2);
	} else if (esc_short[c]) {
		e[1] = esc_short[c];
		put(w, e, 2);
	} else {
		put(w, e, 6);
	}
}

static void put_str(struct vl_jsonw *w, const char *str, size_t n)
{
	const u8 *s = (const u8 *)str;
	size_t run = plain_len(s, n);

	if (run == n) {
		/* nothing to escape: the common case, in one go */
		if (reserve(w, n + 2)) {
			w->buf[w->len] = '"';
			memcpy(w->buf + w->len + 1, s, n);
			w->buf[w->len + n + 1] = '"';
			w->len += n + 2;
		}
		return;
	}
	put_c(w, '"');
	while (n && !w->err) {
		if (run) {
			put(w, s, run);
		} else if (*s < 0x80) {
			put_escape(w, *s);
			run = 1;
		} else {
			/* U+FFFD for the maximal invalid subpart */
			put(w, "\xef\xbf\xbd", 3);
			run = -vl_utf8_seq(s, n);
		}
		s += run;
		n -= run;
		run = plain_len(s, n);
	}
	put_c(w, '"');
}

/**
 * vl_jsonw_init() - start an empty JSON text
 * @w:   the writer
 * @max: most bytes of output, the NUL terminator included
 * @gfp: allocation flags for growing the buffer
 */
void vl_jsonw_init(struct vl_jsonw *w, size_t max, gfp_t gfp)
{
	memset(w, 0, sizeof(*w));
	w->max = max;
	w->gfp = gfp;
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_init);

/**
 * vl_jsonw_init_buf() - start an empty JSON text in the caller's buffer
 * @w:    the writer
 * @buf:  where to write first; the writer moves to memory of its own if
 *        the text outgrows it, and never frees @buf
 * @size: bytes of @buf, at least 1
 * @max:  most bytes of output, the NUL terminator included
 * @gfp:  allocation flags for growing past @size
 */
void vl_jsonw_init_buf(struct vl_jsonw *w, char *buf, size_t size, size_t max,
		       gfp_t gfp)
{
	vl_jsonw_init(w, max, gfp);
	w->buf = buf;
	w->ext = buf;
	w->cap = min(size, max);
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_init_buf);

/**
 * vl_jsonw_init_copy() - start a JSON text as a copy of another
 * @w:    the writer
 * @from: a writer whose text is shorter than @size: its text, its place
 *        in it, its maximum and allocation flags are copied; an error of
 *        @from is @w's
 * @buf:  where to write first, as for vl_jsonw_init_buf()
 * @size: bytes of @buf
 *
 * For texts that all start alike: the start is written once.
 */
void vl_jsonw_init_copy(struct vl_jsonw *w, const struct vl_jsonw *from,
			char *buf, size_t size)
{
	vl_jsonw_init_buf(w, buf, size, from->max, from->gfp);
	if (from->err || from->len >= w->cap) {
		set_err(w, from->err ? from->err : -EMSGSIZE);
		return;
	}
	memcpy(buf, from->buf, from->len);
	w->len = from->len;
	w->depth = from->depth;
	w->obj = from->obj;
	w->want_value = from->want_value;
	w->done = from->done;
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_init_copy);

/**
 * vl_jsonw_release() - free whatever @w still holds
 * @w: the writer; may be released more than once
 */
void vl_jsonw_release(struct vl_jsonw *w)
{
	drop_buf(w);
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_release);

/**
 * vl_jsonw_text() - look at the finished text without taking it
 * @w:   the writer, which keeps the text; vl_jsonw_release() frees it
 * @len: set to the length of the text, the NUL not counted; or 0
 *
 * Return: the text, NUL-terminated; or NULL if there is an error, which
 * is then sticky (-EINVAL if the top-level value is not complete).
 */
const char *vl_jsonw_text(struct vl_jsonw *w, size_t *len)
{
	*len = 0;
	if (!w->err && (!w->done || w->depth))
		set_err(w, -EINVAL);
	if (w->err)
		return NULL;
	w->buf[w->len] = '\0';
	*len = w->len;
	return w->buf;
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_text);

/**
 * vl_jsonw_rewind() - drop the last members or elements written
 * @w:   the writer
 * @len: a length @w had earlier in the container that is open now, just
 *       after its opening bracket or after one of its members or elements
 *
 * What was written since, whole members or elements only, is dropped,
 * and the writer is as it was then.  Rewinding elsewhere is the caller's
 * bug; what can be checked here (a container open, no key waiting for its
 * value, @len within the text) is -EINVAL otherwise.
 */
void vl_jsonw_rewind(struct vl_jsonw *w, size_t len)
{
	if (w->err)
		return;
	if (!w->depth || w->want_value || !len || len > w->len) {
		set_err(w, -EINVAL);
		return;
	}
	w->len = len;
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_rewind);

static void container_open(struct vl_jsonw *w, bool obj)
{
	if (!value_begin(w))
		return;
	if (w->depth >= VL_JSONW_DEPTH_MAX) {
		set_err(w, -EINVAL);
		return;
	}
	if (!put_c(w, obj ? '{' : '['))
		return;
	if (obj)
		w->obj |= BIT_ULL(w->depth);
	else
		w->obj &= ~BIT_ULL(w->depth);
	w->depth++;
}

static void container_close(struct vl_jsonw *w, bool obj)
{
	if (w->err)
		return;
	if (!w->depth || in_obj(w) != obj || w->want_value) {
		set_err(w, -EINVAL);
		return;
	}
	if (!put_c(w, obj ? '}' : ']'))
		return;
	w->depth--;
	value_end(w);
}

/**
 * vl_jsonw_obj_open() - begin an object where a value is due
 * @w: the writer
 */
void vl_jsonw_obj_open(struct vl_jsonw *w)
{
	container_open(w, true);
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_obj_open);

/**
 * vl_jsonw_obj_close() - end the innermost container, an object
 * @w: the writer
 */
void vl_jsonw_obj_close(struct vl_jsonw *w)
{
	container_close(w, true);
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_obj_close);

/**
 * vl_jsonw_arr_open() - begin an array where a value is due
 * @w: the writer
 */
void vl_jsonw_arr_open(struct vl_jsonw *w)
{
	container_open(w, false);
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_arr_open);

/**
 * vl_jsonw_arr_close() - end the innermost container, an array
 * @w: the writer
 */
void vl_jsonw_arr_close(struct vl_jsonw *w)
{
	container_close(w, false);
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_arr_close);

/**
 * vl_jsonw_members() - write object members prepared earlier
 * @w:    the writer, in an object, no key pending
 * @json: complete members as they stand between an object's braces, e.g.
 *        "\"a\":1,\"b\":[]": not checked but for being non-empty
 * @len:  bytes of @json
 */
void vl_jsonw_members(struct vl_jsonw *w, const char *json, size_t len)
{
	if (w->err)
		return;
	if (!in_obj(w) || w->want_value || !len) {
		set_err(w, -EINVAL);
		return;
	}
	if (w->buf[w->len - 1] != '{' && !put_c(w, ','))
		return;
	put(w, json, len);
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_members);

/**
 * vl_jsonw_key_len() - write an object key; its value must follow
 * @w:   the writer
 * @key: the key, any bytes (escaped like a string)
 * @len: bytes of @key
 *
 * Keys are not checked for duplicates: that is the caller's job.
 */
void vl_jsonw_key_len(struct vl_jsonw *w, const char *key, size_t len)
{
	if (w->err)
		return;
	if (!in_obj(w) || w->want_value) {
		set_err(w, -EINVAL);
		return;
	}
	if (w->buf[w->len - 1] != '{' && !put_c(w, ','))
		return;
	put_str(w, key, len);
	put_c(w, ':');
	w->want_value = true;
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_key_len);

/**
 * vl_jsonw_key() - vl_jsonw_key_len() of a NUL-terminated key
 * @w:   the writer
 * @key: the key
 */
void vl_jsonw_key(struct vl_jsonw *w, const char *key)
{
	vl_jsonw_key_len(w, key, strlen(key));
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_key);

/**
 * vl_jsonw_str_len() - write a string value
 * @w:   the writer
 * @s:   any bytes: '"', '\\' and control characters are escaped, and
 *       sequences that are not UTF-8 become U+FFFD
 * @len: bytes of @s
 */
void vl_jsonw_str_len(struct vl_jsonw *w, const char *s, size_t len)
{
	if (!value_begin(w))
		return;
	put_str(w, s, len);
	value_end(w);
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_str_len);

/**
 * vl_jsonw_str() - vl_jsonw_str_len() of a NUL-terminated string
 * @w: the writer
 * @s: the string
 */
void vl_jsonw_str(struct vl_jsonw *w, const char *s)
{
	vl_jsonw_str_len(w, s, strlen(s));
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_str);

/**
 * vl_jsonw_s64() - write a signed integer
 * @w: the writer
 * @v: the value
 */
void vl_jsonw_s64(struct vl_jsonw *w, s64 v)
{
	char buf[24];
	int n = vl_json_fixed_fmt(buf, sizeof(buf), v, 0);

	value(w, buf, n);
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_s64);

/**
 * vl_jsonw_u64() - write an unsigned integer
 * @w: the writer
 * @v: the value
 */
void vl_jsonw_u64(struct vl_jsonw *w, u64 v)
{
	char buf[24];
	int n = sizeof(buf);

	do {
		buf[--n] = '0' + v % 10;
		v /= 10;
	} while (v);
	value(w, buf + n, sizeof(buf) - n);
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_u64);

/**
 * vl_jsonw_bool() - write true or false
 * @w: the writer
 * @v: the value
 */
void vl_jsonw_bool(struct vl_jsonw *w, bool v)
{
	if (v)
		value(w, "true", 4);
	else
		value(w, "false", 5);
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_bool);

/**
 * vl_jsonw_null() - write null
 * @w: the writer
 */
void vl_jsonw_null(struct vl_jsonw *w)
{
	value(w, "null", 4);
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_null);

/**
 * vl_jsonw_fixed() - write a fixed-point number
 * @w:        the writer
 * @v:        the value times 10^@decimals
 * @decimals: decimal places, at most VL_JSON_DECIMALS_MAX (-EINVAL if not)
 *
 * For example 123 with 2 decimals is written as 1.23.
 */
void vl_jsonw_fixed(struct vl_jsonw *w, s64 v, unsigned int decimals)
{
	char buf[24];
	int n;

	if (w->err)
		return;
	n = vl_json_fixed_fmt(buf, sizeof(buf), v, decimals);
	if (n < 0)
		set_err(w, n);
	else
		value(w, buf, n);
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_fixed);

/**
 * vl_jsonw_raw() - write a JSON value verbatim
 * @w:    the writer
 * @json: exactly one complete, valid JSON value (not checked but for
 *        being non-empty), e.g. the text of a vl_json_parse() token
 * @len:  bytes of @json
 */
void vl_jsonw_raw(struct vl_jsonw *w, const char *json, size_t len)
{
	if (w->err)
		return;
	if (!len)
		set_err(w, -EINVAL);
	else
		value(w, json, len);
}
EXPORT_SYMBOL_IF_KUNIT(vl_jsonw_raw);
