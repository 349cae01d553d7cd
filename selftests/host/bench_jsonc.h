/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few json-c functions bench_json.c calls.  json-c's headers and
 * jansson's both declare json_object_get() and friends, with different
 * types, so they cannot be included together.  (The libraries version
 * their symbols, JSONC_0.14 and libjansson.so.4, so each binds to its own
 * at run time.)
 */
#ifndef _BENCH_JSONC_H
#define _BENCH_JSONC_H

struct json_object;
struct json_tokener;

struct json_tokener *json_tokener_new_ex(int depth);
void json_tokener_free(struct json_tokener *tok);
void json_tokener_reset(struct json_tokener *tok);
struct json_object *json_tokener_parse_ex(struct json_tokener *tok,
					  const char *str, int len);
int json_tokener_get_error(struct json_tokener *tok);	/* 0: success */
int json_object_put(struct json_object *obj);

#endif
