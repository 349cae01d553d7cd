// SPDX-License-Identifier: GPL-2.0
/*
 * Calls of the JSON writer that the kernel does not use: taking the text
 * over, numbers given as lexemes, copies of parsed values.  The tests
 * and the userspace programs of selftests/ use them; they are built into
 * the KUnit module and into those programs, never into varlink.ko.
 *
 * They use the writer's calls where there is one, struct vl_jsonw where
 * there is none: vl_jsonw_finish() takes the buffer over, and an error
 * gives the buffer back and sticks, as in jsonw.c.
 */
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/types.h>

#include "../json.h"
#include "../jsonw.h"
#include "json_extra.h"
#include "jsonw_extra.h"

/* The writer's sticky error: its memory given back, @err kept. */
static void jsonw_fail(struct vl_jsonw *w, int err)
{
	vl_jsonw_release(w);
	w->err = err;
}

/**
 * vl_jsonw_finish() - take the finished text
 * @w:   the writer; spent afterwards (further calls fail with -EINVAL)
 * @buf: set to the text, NUL-terminated, to be freed with kvfree(); or NULL
 * @len: set to the length of the text, the NUL not counted; or 0
 *
 * On the wire a varlink message is the @len bytes plus the NUL.
 *
 * Return: 0; or the sticky error, -EINVAL if the top-level value is not
 * complete.  On error nothing is handed over and @w holds no memory.
 */
int vl_jsonw_finish(struct vl_jsonw *w, char **buf, size_t *len)
{
	*buf = NULL;
	*len = 0;
	if (!w->err && (!w->done || w->depth))
		jsonw_fail(w, -EINVAL);
	if (w->err)
		return w->err;
	if (w->buf == w->ext) {
		/* the caller's buffer is not ours to hand over */
		*buf = kvmalloc(w->len + 1, w->gfp);
		if (!*buf) {
			jsonw_fail(w, -ENOMEM);
			return w->err;
		}
		memcpy(*buf, w->buf, w->len);
	} else {
		*buf = w->buf;
		w->buf = NULL;
	}
	(*buf)[w->len] = '\0';
	*len = w->len;
	jsonw_fail(w, -EINVAL);
	return 0;
}

/**
 * vl_jsonw_float() - write a number given as its lexeme
 * @w:      the writer
 * @lexeme: an RFC 8259 number (-EINVAL if not), e.g. a token's text
 * @len:    bytes of @lexeme
 */
void vl_jsonw_float(struct vl_jsonw *w, const char *lexeme, size_t len)
{
	if (w->err)
		return;
	if (!vl_json_num_valid(lexeme, len))
		jsonw_fail(w, -EINVAL);
	else
		vl_jsonw_raw(w, lexeme, len);
}

/* Copy (or with @dst NULL, measure) valid JSON without its whitespace. */
static size_t compact(char *dst, const char *src, size_t n)
{
	bool in_str = false;
	size_t i, len = 0;

	for (i = 0; i < n; i++) {
		char c = src[i];

		if (in_str) {
			if (c == '\\' && i + 1 < n) {
				if (dst)
					dst[len] = c;
				len++;
				c = src[++i];
			} else if (c == '"') {
				in_str = false;
			}
		} else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			continue;
		} else if (c == '"') {
			in_str = true;
		}
		if (dst)
			dst[len] = c;
		len++;
	}
	return len;
}

/**
 * vl_jsonw_tok() - copy a parsed value, its whitespace dropped
 * @w:  the writer
 * @js: a parsed document
 * @i:  token index of the value (-EINVAL if out of range)
 */
void vl_jsonw_tok(struct vl_jsonw *w, const struct vl_json *js, u32 i)
{
	const char *src;
	size_t n, len;

	if (w->err)
		return;
	if (i >= js->ntoks) {
		jsonw_fail(w, -EINVAL);
		return;
	}
	src = js->buf + js->toks[i].start;
	n = js->toks[i].len;
	len = compact(NULL, src, n);
	/* vl_jsonw_raw() puts @len bytes where a value is due (checking the
	 * place, adding the comma, growing the buffer); the value without
	 * its whitespace then takes their place.
	 */
	vl_jsonw_raw(w, src, len);
	if (!w->err)
		compact(w->buf + w->len - len, src, n);
}
