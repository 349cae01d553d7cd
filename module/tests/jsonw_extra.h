/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Calls of the JSON writer for the tests and the userspace programs, not
 * built into varlink.ko: see jsonw_extra.c.
 */
#ifndef _VL_JSONW_EXTRA_H
#define _VL_JSONW_EXTRA_H

#include <linux/types.h>

#include "../json.h"
#include "../jsonw.h"

int vl_jsonw_finish(struct vl_jsonw *w, char **buf, size_t *len);
void vl_jsonw_float(struct vl_jsonw *w, const char *lexeme, size_t len);
void vl_jsonw_tok(struct vl_jsonw *w, const struct vl_json *js, u32 i);

#endif /* _VL_JSONW_EXTRA_H */
