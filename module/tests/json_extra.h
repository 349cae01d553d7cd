/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Accessors of the JSON tokenizer for the tests and the userspace
 * programs, not built into varlink.ko: see json_extra.c.
 */
#ifndef _VL_JSON_EXTRA_H
#define _VL_JSON_EXTRA_H

#include <linux/types.h>

#include "../json.h"
#include "../json_number.h"

int vl_json_tok_str(const struct vl_json *js, u32 i, char *buf, size_t size);
int vl_json_tok_scaled(const struct vl_json *js, u32 i, unsigned int decimals,
		       s64 *v);

/* Members of an object; a member that is null counts as absent. */
int vl_json_get_bool(const struct vl_json *js, u32 obj, const char *key,
		     bool *v);
int vl_json_get_s64(const struct vl_json *js, u32 obj, const char *key,
		    s64 *v);
int vl_json_get_u64(const struct vl_json *js, u32 obj, const char *key,
		    u64 *v);
int vl_json_get_s32(const struct vl_json *js, u32 obj, const char *key,
		    s32 *v);
int vl_json_get_u32(const struct vl_json *js, u32 obj, const char *key,
		    u32 *v);
int vl_json_get_str(const struct vl_json *js, u32 obj, const char *key,
		    char *buf, size_t size);

/* Number lexemes, integer arithmetic only. */
bool vl_json_num_valid(const char *s, size_t len);
int vl_json_num_scaled(const char *s, size_t len, unsigned int decimals,
		       s64 *v);

#endif /* _VL_JSON_EXTRA_H */
