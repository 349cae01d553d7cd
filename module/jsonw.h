/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bounded JSON writer of the varlink core.
 *
 * Compact output into a buffer that grows by doubling up to a maximum the
 * caller gives, NUL terminator included (so that the wire's NUL always
 * fits).  The buffer may start as one of the caller's, so that short texts
 * need no allocation at all.  Commas are automatic.  Strings are escaped completely and are
 * always valid UTF-8: a byte sequence that is not is replaced by U+FFFD.
 *
 * Errors are sticky: the first one (-ENOMEM, -EMSGSIZE, or -EINVAL for a
 * call out of place, e.g. a key in an array or a second top-level value)
 * frees the buffer and turns every later call into a no-op, and
 * vl_jsonw_error() returns it.  Output is either complete JSON or nothing.
 */
#ifndef _VL_JSONW_H
#define _VL_JSONW_H

#include <linux/types.h>

/* Deepest nesting of arrays and objects the writer tracks. */
#define VL_JSONW_DEPTH_MAX	64

/**
 * struct vl_jsonw - a JSON text being written
 * @buf:        output, @len bytes plus room for a NUL: @ext, or kvmalloc'ed
 * @ext:        the caller's initial buffer, or NULL
 * @len:        bytes written
 * @cap:        bytes allocated
 * @max:        most bytes @buf may take, NUL included
 * @gfp:        allocation flags
 * @err:        sticky error, or 0
 * @depth:      open arrays and objects
 * @obj:        bit d set: the container at depth d + 1 is an object
 * @want_value: a key was written, its value is due
 * @done:       the top-level value is complete
 */
struct vl_jsonw {
	char *buf;
	char *ext;
	size_t len;
	size_t cap;
	size_t max;
	gfp_t gfp;
	int err;
	u32 depth;
	u64 obj;
	bool want_value;
	bool done;
};

void vl_jsonw_init(struct vl_jsonw *w, size_t max, gfp_t gfp);
void vl_jsonw_init_buf(struct vl_jsonw *w, char *buf, size_t size, size_t max,
		       gfp_t gfp);
void vl_jsonw_init_copy(struct vl_jsonw *w, const struct vl_jsonw *from,
			char *buf, size_t size);
void vl_jsonw_release(struct vl_jsonw *w);
const char *vl_jsonw_text(struct vl_jsonw *w, size_t *len);
void vl_jsonw_rewind(struct vl_jsonw *w, size_t len);

void vl_jsonw_obj_open(struct vl_jsonw *w);
void vl_jsonw_obj_close(struct vl_jsonw *w);
void vl_jsonw_arr_open(struct vl_jsonw *w);
void vl_jsonw_arr_close(struct vl_jsonw *w);
void vl_jsonw_key(struct vl_jsonw *w, const char *key);
void vl_jsonw_key_len(struct vl_jsonw *w, const char *key, size_t len);

void vl_jsonw_str(struct vl_jsonw *w, const char *s);
void vl_jsonw_str_len(struct vl_jsonw *w, const char *s, size_t len);
void vl_jsonw_s64(struct vl_jsonw *w, s64 v);
void vl_jsonw_u64(struct vl_jsonw *w, u64 v);
void vl_jsonw_bool(struct vl_jsonw *w, bool v);
void vl_jsonw_null(struct vl_jsonw *w);
void vl_jsonw_fixed(struct vl_jsonw *w, s64 v, unsigned int decimals);
void vl_jsonw_raw(struct vl_jsonw *w, const char *json, size_t len);
void vl_jsonw_members(struct vl_jsonw *w, const char *json, size_t len);

/**
 * vl_jsonw_error() - the sticky error of a writer
 * @w: the writer
 *
 * Return: 0, or the first error, which every later call keeps.
 */
static inline int vl_jsonw_error(const struct vl_jsonw *w)
{
	return w->err;
}

/* A key and its value in one call. */
static inline void vl_jsonw_kv_str(struct vl_jsonw *w, const char *key,
				   const char *s)
{
	vl_jsonw_key(w, key);
	vl_jsonw_str(w, s);
}

static inline void vl_jsonw_kv_s64(struct vl_jsonw *w, const char *key, s64 v)
{
	vl_jsonw_key(w, key);
	vl_jsonw_s64(w, v);
}

static inline void vl_jsonw_kv_u64(struct vl_jsonw *w, const char *key, u64 v)
{
	vl_jsonw_key(w, key);
	vl_jsonw_u64(w, v);
}

static inline void vl_jsonw_kv_bool(struct vl_jsonw *w, const char *key,
				    bool v)
{
	vl_jsonw_key(w, key);
	vl_jsonw_bool(w, v);
}

#endif /* _VL_JSONW_H */
