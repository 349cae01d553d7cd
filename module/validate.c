// SPDX-License-Identifier: GPL-2.0
/*
 * Validation of JSON parameters against the schema of an interface.
 *
 * Types map to JSON as in UAPI.20:
 *   bool    true or false
 *   int     a number without fraction or exponent in -2^63 .. 2^64-1;
 *           "1.0" and "1e3" are not integers and are refused
 *   float   any number, integers included
 *   string  a string; one that decodes to U+0000 is refused (a kernel
 *           consumer would see a truncated C string)
 *   object  any object, its content is not looked at
 *   any     any value but null
 *   enum    a string naming one of the values
 *   struct  an object with only the declared fields; every field whose
 *           type is not "?T" must be present and not null
 *   []T     an array of T;  [string]T  an object whose values are T
 *           (keys that decode to U+0000 are refused)
 *   ?T      T or null; absent and null are the same
 * Absent parameters and null parameters are the same as {}.
 *
 * The walk is iterative: a struct, array or map value pushes a frame on
 * an explicit stack of VL_VALIDATE_DEPTH_MAX entries; "object" and "any"
 * values are skipped whole.  Every JSON token is looked at once, a struct
 * member costs a linear search over at most VL_IDL_FIELDS_MAX fields.
 *
 * Required fields are counted, not searched: this relies on the tokenizer
 * (json.c) refusing duplicate keys.  The first error in document order is
 * reported; missing fields are found when their object ends.
 */
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "validate.h"

/* A struct, array or map value being checked. */
struct validate_frame {
	u32 tok;	/* the JSON container */
	u32 pos;	/* its next child token */
	u16 type;	/* the STRUCT, ARRAY or MAP node */
	u16 seen;	/* STRUCT: required fields seen */
};

static_assert(VL_IDL_NODES_MAX - 1 <= U16_MAX);
static_assert(VL_IDL_FIELDS_MAX <= U16_MAX);

struct validator {
	const struct vl_idl *idl;
	const struct vl_json *js;
	struct vl_validate_error *err;
	const struct vl_idl_node *param;	/* current top-level field */
	u32 key;				/* and its key token */
	unsigned int sp;
	struct validate_frame stack[VL_VALIDATE_DEPTH_MAX];
};

static int validate_fail(struct validator *v, u32 tok, const char *msg)
{
	struct vl_validate_error *err = v->err;

	err->msg = msg;
	err->tok = tok;
	err->key = v->key;
	err->param = v->param ? v->param->name : NULL;
	err->param_len = v->param ? v->param->name_len : 0;
	return -EINVAL;
}

static const struct vl_idl_node *node(const struct validator *v, u32 index)
{
	return vl_idl_node(v->idl, index);
}

static const struct vl_json_tok *tok(const struct validator *v, u32 index)
{
	return &v->js->toks[index];
}

static bool nullable(const struct validator *v, u32 type)
{
	return node(v, type)->flags & VL_IDL_NULLABLE;
}

static int validate_push(struct validator *v, u32 type, u32 obj)
{
	struct validate_frame *f;

	if (v->sp >= VL_VALIDATE_DEPTH_MAX)
		return validate_fail(v, obj, "nested too deeply");
	f = &v->stack[v->sp++];
	f->tok = obj;
	f->pos = obj + 1;
	f->type = type;
	f->seen = 0;
	return 1;
}

static int check_int(struct validator *v, u32 t)
{
	s64 s;
	u64 u;

	if (tok(v, t)->type != VL_JSON_NUMBER)
		return validate_fail(v, t, "expected an integer");
	if (!vl_json_is_int(v->js, t))
		return validate_fail(v, t, "not an integer");
	if (vl_json_tok_s64(v->js, t, &s) && vl_json_tok_u64(v->js, t, &u))
		return validate_fail(v, t, "integer out of range");
	return 0;
}

static int check_enum(struct validator *v, const struct vl_idl_node *n,
		      u32 t)
{
	const struct vl_idl_node *e;
	u32 i;

	if (tok(v, t)->type != VL_JSON_STRING)
		return validate_fail(v, t, "expected an enum string");
	for (i = n->child; i; i = e->next) {
		e = node(v, i);
		if (vl_json_str_eq(v->js, t, e->name, e->name_len))
			return 0;
	}
	return validate_fail(v, t, "unknown enum value");
}

/* The JSON type a node kind needs, if it needs exactly one. */
static const u8 json_type[] = {
	[VL_IDL_BOOL] = VL_JSON_BOOL,
	[VL_IDL_FLOAT] = VL_JSON_NUMBER,
	[VL_IDL_STRING] = VL_JSON_STRING,
	[VL_IDL_OBJECT] = VL_JSON_OBJECT,
	[VL_IDL_STRUCT] = VL_JSON_OBJECT,
	[VL_IDL_ARRAY] = VL_JSON_ARRAY,
	[VL_IDL_MAP] = VL_JSON_OBJECT,
};

static const char * const type_msg[] = {
	[VL_IDL_BOOL] = "expected a bool",
	[VL_IDL_FLOAT] = "expected a number",
	[VL_IDL_STRING] = "expected a string",
	[VL_IDL_OBJECT] = "expected an object",
	[VL_IDL_STRUCT] = "expected an object",
	[VL_IDL_ARRAY] = "expected an array",
	[VL_IDL_MAP] = "expected an object",
};

/* Check value @t against type node @type.  Return 0 if it is valid, 1 if
 * it is a container that was pushed (its content follows), or -EINVAL.
 */
static int check_value(struct validator *v, u32 type, u32 t)
{
	const struct vl_idl_node *n = node(v, type);
	u8 jtype = tok(v, t)->type;

	if (jtype == VL_JSON_NULL)
		return nullable(v, type) ? 0 :
		       validate_fail(v, t, "null value");
	if (n->kind == VL_IDL_NAMED) {
		type = n->child;
		n = node(v, type);
	}
	if (n->kind < ARRAY_SIZE(json_type) && json_type[n->kind] &&
	    json_type[n->kind] != jtype)
		return validate_fail(v, t, type_msg[n->kind]);

	switch (n->kind) {
	case VL_IDL_INT:
		return check_int(v, t);
	case VL_IDL_ENUM:
		return check_enum(v, n, t);
	case VL_IDL_STRING:
		if (tok(v, t)->flags & VL_JSON_F_NUL)
			return validate_fail(v, t, "string contains U+0000");
		return 0;
	case VL_IDL_BOOL:
	case VL_IDL_FLOAT:
	case VL_IDL_OBJECT:
	case VL_IDL_ANY:
		return 0;
	case VL_IDL_STRUCT:
	case VL_IDL_ARRAY:
	case VL_IDL_MAP:
		return validate_push(v, type, t);
	default:
		return validate_fail(v, t, "internal error: bad schema node");
	}
}

/* key_field() of a key with escapes, decoded into a buffer on this
 * function's stack, not on vl_validate()'s.  A key longer than any name
 * names no field.
 */
static noinline_for_stack const struct vl_idl_node *
escaped_field(struct validator *v, u32 type, u32 key)
{
	char name[VL_NAME_MAX + 1];
	int len = vl_json_unescape(v->js, key, name, sizeof(name));

	return len < 0 ? NULL : vl_idl_find_field(v->idl, type, name, len);
}

/* The field of struct @type that key @key names, or NULL. */
static const struct vl_idl_node *key_field(struct validator *v, u32 type,
					   u32 key)
{
	const char *name;
	size_t len;

	name = vl_json_str_raw(v->js, key, &len);
	if (!name)
		return escaped_field(v, type, key);
	return vl_idl_find_field(v->idl, type, name, len);
}

/* The next member of the struct of frame @f. */
static int struct_member(struct validator *v, struct validate_frame *f)
{
	u32 key = f->pos, val = key + 1;
	const struct vl_idl_node *field;

	f->pos = tok(v, val)->next;
	field = key_field(v, f->type, key);
	if (v->sp == 1) {
		/* a top-level parameter: errors below are about it */
		v->param = field;
		v->key = key;
	}
	if (!field)
		return validate_fail(v, key, "unknown field");
	if (!nullable(v, field->child))
		f->seen++;
	return check_value(v, field->child, val);
}

/* Some required field of struct @s is not in @obj (an object token, or
 * VL_VALIDATE_ABSENT): report the first one in the order of the IDL.
 */
static int report_missing(struct validator *v, const struct vl_idl_node *s,
			  u32 obj)
{
	const struct vl_idl_node *f;
	bool found;
	u32 i, k, val;

	for (i = s->child; i; i = f->next) {
		f = node(v, i);
		if (nullable(v, f->child))
			continue;
		found = false;
		if (obj != VL_VALIDATE_ABSENT) {
			vl_json_for_each_member(v->js, obj, k, val) {
				found = vl_json_str_eq(v->js, k, f->name,
						       f->name_len);
				if (found)
					break;
			}
		}
		if (found)
			continue;
		if (v->sp <= 1) {
			v->param = f;
			v->key = 0;
		}
		return validate_fail(v, 0, "missing field");
	}
	return validate_fail(v, obj, "internal error: required count");
}

/* Check the next child of the innermost container, or close it. */
static int step(struct validator *v)
{
	struct validate_frame *f = &v->stack[v->sp - 1];
	const struct vl_idl_node *n = node(v, f->type);
	u32 key, val;

	if (f->pos >= tok(v, f->tok)->next) {
		if (n->kind == VL_IDL_STRUCT && f->seen < n->required)
			return report_missing(v, n, f->tok);
		v->sp--;
		return 0;
	}
	switch (n->kind) {
	case VL_IDL_STRUCT:
		return struct_member(v, f);
	case VL_IDL_ARRAY:
		val = f->pos;
		f->pos = tok(v, val)->next;
		return check_value(v, n->child, val);
	default:	/* VL_IDL_MAP */
		key = f->pos;
		val = key + 1;
		f->pos = tok(v, val)->next;
		if (tok(v, key)->flags & VL_JSON_F_NUL)
			return validate_fail(v, key, "key contains U+0000");
		return check_value(v, n->child, val);
	}
}

/* vl_validate() with the validator and its stack */
static noinline int validate(const struct vl_idl *idl, u32 type,
			     const struct vl_json *js, u32 obj,
			     struct vl_validate_error *err)
{
	struct validator v = { .idl = idl, .js = js, .err = err };
	int ret;

	memset(err, 0, sizeof(*err));
	if (!type || type >= idl->n_nodes ||
	    node(&v, type)->kind != VL_IDL_STRUCT)
		return validate_fail(&v, 0, "internal error: not a struct");
	if (obj != VL_VALIDATE_ABSENT && obj >= js->ntoks)
		return validate_fail(&v, 0, "internal error: bad token");
	if (obj == VL_VALIDATE_ABSENT || tok(&v, obj)->type == VL_JSON_NULL) {
		if (node(&v, type)->required)
			return report_missing(&v, node(&v, type),
					      VL_VALIDATE_ABSENT);
		return 0;
	}
	if (tok(&v, obj)->type != VL_JSON_OBJECT)
		return validate_fail(&v, obj, "parameters are not an object");

	validate_push(&v, type, obj);
	while (v.sp) {
		ret = step(&v);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/**
 * vl_validate() - check parameters against a struct of a schema
 * @idl: the schema
 * @type: index of a STRUCT node of @idl: ->type of a method (its call
 *	parameters) or of an error, ->out of a method (its reply parameters)
 * @js: the parsed JSON document that holds the parameters
 * @obj: token index of the parameters in @js; VL_VALIDATE_ABSENT or a
 *	null token if there are none (the same as {})
 * @err: on -EINVAL, what is wrong and in which top-level parameter
 *
 * @js must come from vl_json_parse(), which refuses duplicate keys.  No
 * allocation, no recursion, under 1 KiB of stack.  Safe in any
 * context, and concurrently on the same schema.
 *
 * Return: 0 if the parameters are valid; -EINVAL if not, with @err filled
 * in (use vl_validate_param_name() for org.varlink.service.InvalidParameter).
 */
int vl_validate(const struct vl_idl *idl, u32 type, const struct vl_json *js,
		u32 obj, struct vl_validate_error *err)
{
	const struct vl_idl_node *n = type && type < idl->n_nodes ?
				      &idl->nodes[type] : NULL;

	/* none given and none required: no validator to set up */
	if (obj == VL_VALIDATE_ABSENT && n && n->kind == VL_IDL_STRUCT &&
	    !n->required) {
		memset(err, 0, sizeof(*err));
		return 0;
	}
	return validate(idl, type, js, obj, err);
}
EXPORT_SYMBOL_IF_KUNIT(vl_validate);

/**
 * vl_validate_param_name() - the name of the parameter an error is about
 * @js: the document given to vl_validate()
 * @err: the error it reported
 * @buf: destination, gets the name and a NUL
 * @size: bytes of @buf; VL_NAME_MAX + 1 always holds a declared name
 *
 * The name of a declared parameter comes from the IDL, that of an
 * undeclared one from its JSON key, unescaped (it may then contain NUL:
 * use the returned length).
 *
 * Return: the length of the name; -ENOENT if the error is about the
 * parameters as a whole; -ENOSPC if @buf is too small.
 */
int vl_validate_param_name(const struct vl_json *js,
			   const struct vl_validate_error *err, char *buf,
			   size_t size)
{
	if (err->param) {
		if (size <= err->param_len)
			return -ENOSPC;
		memcpy(buf, err->param, err->param_len);
		buf[err->param_len] = '\0';
		return err->param_len;
	}
	if (!err->key)
		return -ENOENT;
	return vl_json_unescape(js, err->key, buf, size);
}
EXPORT_SYMBOL_IF_KUNIT(vl_validate_param_name);
