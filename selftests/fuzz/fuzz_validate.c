// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: parameter validation (module/validate.c).
 *
 * Input: an interface description, a NUL byte, and JSON parameters; or,
 * without a NUL, JSON parameters for the interface of the validation
 * tests.  Every struct of the interface (methods' parameters and results,
 * errors) is checked against the parameters, present and absent.
 *
 * The oracle is a second validator below: recursive, written for clarity
 * only.  Both must agree on the verdict, the message, the top-level
 * parameter, its key and the offending token.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/errno.h>
#include <linux/kernel.h>

#include "../../module/tests/validate_cases.h"

#define FUZZ_INPUT_MAX	(256 * 1024)

struct ref {
	const struct vl_idl *idl;
	const struct vl_json *js;
	const struct vl_idl_node *param;
	u32 key;
	u32 tok;
	const char *msg;
	unsigned int depth;
};

static int ref_fail(struct ref *r, u32 tok, const char *msg)
{
	r->tok = tok;
	r->msg = msg;
	return -EINVAL;
}

static const struct vl_idl_node *ref_node(struct ref *r, u32 i)
{
	return vl_idl_node(r->idl, i);
}

static int ref_value(struct ref *r, u32 type, u32 tok);

static const struct vl_idl_node *ref_field(struct ref *r,
					   const struct vl_idl_node *s, u32 key)
{
	u32 i;

	for (i = s->child; i; i = ref_node(r, i)->next) {
		const struct vl_idl_node *f = ref_node(r, i);

		if (vl_json_str_eq(r->js, key, f->name, f->name_len))
			return f;
	}
	return NULL;
}

/* The first required field of @s absent from @obj (U32_MAX: absent). */
static int ref_missing(struct ref *r, const struct vl_idl_node *s, u32 obj,
		       bool top)
{
	u32 i, k, v;

	for (i = s->child; i; i = ref_node(r, i)->next) {
		const struct vl_idl_node *f = ref_node(r, i);
		bool found = false;

		if (ref_node(r, f->child)->flags & VL_IDL_NULLABLE)
			continue;
		if (obj != U32_MAX) {
			vl_json_for_each_member(r->js, obj, k, v)
				found |= vl_json_str_eq(r->js, k, f->name,
							f->name_len);
		}
		if (!found) {
			if (top) {
				r->param = f;
				r->key = 0;
			}
			return ref_fail(r, 0, "missing field");
		}
	}
	return 0;
}

static int ref_struct(struct ref *r, const struct vl_idl_node *s, u32 obj,
		      bool top)
{
	const struct vl_idl_node *f;
	u32 k, v;
	int ret;

	vl_json_for_each_member(r->js, obj, k, v) {
		f = ref_field(r, s, k);
		if (top) {
			r->param = f;
			r->key = k;
		}
		if (!f)
			return ref_fail(r, k, "unknown field");
		ret = ref_value(r, f->child, v);
		if (ret)
			return ret;
	}
	return ref_missing(r, s, obj, top);
}

static int ref_container(struct ref *r, const struct vl_idl_node *n, u32 tok)
{
	u32 k, v;
	int ret = 0;

	if (r->depth >= VL_VALIDATE_DEPTH_MAX)
		return ref_fail(r, tok, "nested too deeply");
	r->depth++;
	if (n->kind == VL_IDL_STRUCT) {
		ret = ref_struct(r, n, tok, r->depth == 1);
	} else if (n->kind == VL_IDL_ARRAY) {
		vl_json_for_each_elem(r->js, tok, v) {
			ret = ref_value(r, n->child, v);
			if (ret)
				break;
		}
	} else {
		vl_json_for_each_member(r->js, tok, k, v) {
			if (r->js->toks[k].flags & VL_JSON_F_NUL)
				ret = ref_fail(r, k, "key contains U+0000");
			else
				ret = ref_value(r, n->child, v);
			if (ret)
				break;
		}
	}
	r->depth--;
	return ret;
}

static int ref_scalar(struct ref *r, const struct vl_idl_node *n, u32 tok)
{
	const struct vl_json_tok *t = &r->js->toks[tok];
	s64 s;
	u64 u;
	u32 i;

	switch (n->kind) {
	case VL_IDL_INT:
		if (t->type != VL_JSON_NUMBER)
			return ref_fail(r, tok, "expected an integer");
		if (!vl_json_is_int(r->js, tok))
			return ref_fail(r, tok, "not an integer");
		if (vl_json_tok_s64(r->js, tok, &s) &&
		    vl_json_tok_u64(r->js, tok, &u))
			return ref_fail(r, tok, "integer out of range");
		return 0;
	case VL_IDL_STRING:
		if (t->flags & VL_JSON_F_NUL)
			return ref_fail(r, tok, "string contains U+0000");
		return 0;
	case VL_IDL_ENUM:
		if (t->type != VL_JSON_STRING)
			return ref_fail(r, tok, "expected an enum string");
		for (i = n->child; i; i = ref_node(r, i)->next) {
			const struct vl_idl_node *e = ref_node(r, i);

			if (vl_json_str_eq(r->js, tok, e->name, e->name_len))
				return 0;
		}
		return ref_fail(r, tok, "unknown enum value");
	default:
		return 0;
	}
}

static int ref_value(struct ref *r, u32 type, u32 tok)
{
	static const struct {
		u8 json;
		const char *msg;
	} need[] = {
		[VL_IDL_BOOL] = { VL_JSON_BOOL, "expected a bool" },
		[VL_IDL_FLOAT] = { VL_JSON_NUMBER, "expected a number" },
		[VL_IDL_STRING] = { VL_JSON_STRING, "expected a string" },
		[VL_IDL_OBJECT] = { VL_JSON_OBJECT, "expected an object" },
		[VL_IDL_STRUCT] = { VL_JSON_OBJECT, "expected an object" },
		[VL_IDL_ARRAY] = { VL_JSON_ARRAY, "expected an array" },
		[VL_IDL_MAP] = { VL_JSON_OBJECT, "expected an object" },
	};
	const struct vl_idl_node *n = ref_node(r, type);
	u8 jt = r->js->toks[tok].type;

	if (jt == VL_JSON_NULL)
		return n->flags & VL_IDL_NULLABLE ? 0 :
		       ref_fail(r, tok, "null value");
	if (n->kind == VL_IDL_NAMED)
		n = ref_node(r, n->child);
	if (n->kind < ARRAY_SIZE(need) && need[n->kind].json &&
	    need[n->kind].json != jt)
		return ref_fail(r, tok, need[n->kind].msg);
	if (n->kind == VL_IDL_STRUCT || n->kind == VL_IDL_ARRAY ||
	    n->kind == VL_IDL_MAP)
		return ref_container(r, n, tok);
	return ref_scalar(r, n, tok);
}

static int ref_validate(struct ref *r, u32 type, u32 obj)
{
	const struct vl_idl_node *s = ref_node(r, type);

	if (obj == VL_VALIDATE_ABSENT || r->js->toks[obj].type == VL_JSON_NULL)
		return ref_missing(r, s, U32_MAX, true);
	if (r->js->toks[obj].type != VL_JSON_OBJECT)
		return ref_fail(r, obj, "parameters are not an object");
	return ref_value(r, type, obj);
}

static void check(const struct vl_idl *idl, const struct vl_json *js, u32 type,
		  u32 obj, char *name, size_t size)
{
	struct ref r = { .idl = idl, .js = js };
	struct vl_validate_error err;
	int ret, want, len;

	ret = vl_validate(idl, type, js, obj, &err);
	want = ref_validate(&r, type, obj);
	if (ret != want || (ret && (strcmp(err.msg, r.msg) ||
				    err.param != (r.param ? r.param->name : NULL) ||
				    err.key != r.key || err.tok != r.tok))) {
		fprintf(stderr, "validate %d %s tok %u key %u, reference %d %s tok %u key %u\n",
			ret, err.msg, err.tok, err.key, want, r.msg, r.tok, r.key);
		abort();
	}
	if (!ret)
		return;
	len = vl_validate_param_name(js, &err, name, size);
	if (len < 0 && len != -ENOENT)
		abort();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static const struct vl_json_limits lim = {
		.max_size = VL_MSG_SIZE_MAX,
		.max_depth = VL_JSON_DEPTH_MAX,
		.max_tokens = VL_JSON_TOKENS_MAX,
	};
	const u8 *nul = memchr(data, 0, size);
	const char *idl_text = vl_validate_idl;
	size_t idl_len = strlen(vl_validate_idl), json_len = size;
	const struct vl_idl_member *m;
	struct vl_json_tok *toks;
	struct vl_idl_error ierr;
	struct vl_idl *idl;
	struct vl_json js;
	char *buf, *name;
	u32 cap;

	if (size > FUZZ_INPUT_MAX)
		return 0;
	buf = malloc(size + 1);
	name = malloc(size + VL_NAME_MAX + 2);
	if (!buf || !name)
		abort();
	memcpy(buf, data, size);
	if (nul) {
		idl_text = buf;
		idl_len = nul - data;
		json_len = size - idl_len - 1;
	}
	if (vl_idl_parse(idl_text, idl_len, &idl, &ierr))
		goto out;
	cap = vl_json_tokens_needed(json_len);
	toks = calloc(cap, sizeof(*toks));
	if (!toks)
		abort();
	vl_json_init(&js, toks, cap);
	if (!vl_json_parse(&js, buf + size - json_len, json_len, &lim)) {
		for (m = idl->members; m < idl->members + idl->n_members; m++) {
			if (m->kind == VL_IDL_TYPE)
				continue;
			check(idl, &js, m->type, 0, name, size + VL_NAME_MAX + 2);
			check(idl, &js, m->type, VL_VALIDATE_ABSENT, name,
			      size + VL_NAME_MAX + 2);
			if (m->kind == VL_IDL_METHOD)
				check(idl, &js, m->out, 0, name,
				      size + VL_NAME_MAX + 2);
		}
	}
	free(toks);
	vl_idl_free(idl);
out:
	free(buf);
	free(name);
	return 0;
}
