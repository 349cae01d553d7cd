/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parameters for the validation tests, valid and invalid, shared by the
 * KUnit suite (tests/validate_kunit.c) and the host runner
 * (selftests/host/validate_test.c), plus the code both use to run a row.
 *
 * A row names a member of an interface, which struct to check (the call
 * parameters of a method or an error, or the reply parameters of a
 * method), the parameters as JSON text (NULL: absent), and for an invalid
 * row the message and the top-level parameter it is about (NULL: the
 * parameters as a whole).  The runner wraps the text in a call,
 * {"parameters":<text>}, so the parameters are not the first token.
 */
#ifndef _VL_VALIDATE_CASES_H
#define _VL_VALIDATE_CASES_H

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "../idl.h"
#include "../json.h"
#include "../validate.h"
#include "idl_cases.h"

/* An interface that uses every type. */
static const char vl_validate_idl[] =
	"interface org.example.validate\n"
	"\n"
	"type Point (x: int, y: int)\n"
	"type Color (red, green, blue)\n"
	"type Tree (c: []Tree)\n"
	"\n"
	"method Bool(v: bool) -> ()\n"
	"method Int(v: int) -> ()\n"
	"method Float(v: float) -> ()\n"
	"method String(v: string) -> ()\n"
	"method Object(v: object) -> ()\n"
	"method Any(v: any) -> ()\n"
	"method Enum(v: (one, two)) -> ()\n"
	"method Named(v: Color) -> ()\n"
	"method Struct(v: Point) -> ()\n"
	"method Anon(v: (x: int, inner: (flag: bool))) -> ()\n"
	"method Array(v: []int) -> ()\n"
	"method Map(v: [string]string) -> ()\n"
	"method Set(v: [string]()) -> ()\n"
	"method Opt(a: ?int, b: ?Point, c: ?[]string, d: ?any) -> ()\n"
	"method Deep(v: [][string]?[]Point) -> ()\n"
	"method Recursive(v: Tree) -> ()\n"
	"method Two(a: int, b: string) -> (r: bool)\n"
	"method Mixed(a: ?int, b: int, c: ?string) -> ()\n"
	"method None() -> ()\n"
	"error Failed (reason: string, code: ?int)\n";

enum vl_validate_what {
	VL_VC_IN,		/* call parameters of a method, or an error's */
	VL_VC_OUT,		/* reply parameters of a method */
};

struct vl_validate_case {
	const char *desc;
	const char *idl;	/* NULL: vl_validate_idl */
	const char *member;
	enum vl_validate_what what;
	const char *json;	/* the parameters; NULL: absent */
	int nest;		/* > 0: json is Tree nested that deep */
	const char *msg;	/* NULL: valid */
	const char *param;	/* the offending top-level parameter */
};

#define OK(d, m, j)		{ .desc = d, .member = m, .json = j }
#define NO(d, m, j, p, e)	{ .desc = d, .member = m, .json = j, \
				  .param = p, .msg = e }
#define OK_OUT(d, m, j)		{ .desc = d, .member = m, .json = j, \
				  .what = VL_VC_OUT }
#define NO_OUT(d, m, j, p, e)	{ .desc = d, .member = m, .json = j, \
				  .what = VL_VC_OUT, .param = p, .msg = e }
#define OK_IN(d, i, m, j)	{ .desc = d, .idl = i, .member = m, .json = j }
#define NO_IN(d, i, m, j, p, e)	{ .desc = d, .idl = i, .member = m, \
				  .json = j, .param = p, .msg = e }

/* The certification value M (§5.3), as the Python server sends it. */
#define VL_M_OBJECT							\
	"\"object\": {\"method\": \"org.varlink.certification.Test09\","\
	" \"parameters\": {\"map\": {\"foo\": \"Foo\", \"bar\": \"Bar\"}}}"
#define VL_M_REST							\
	"\"struct\": {\"first\": 1, \"second\": \"2\"},"		\
	" \"array\": [\"one\", \"two\", \"three\"],"			\
	" \"dictionary\": {\"foo\": \"Foo\", \"bar\": \"Bar\"},"	\
	" \"stringset\": {\"one\": {}, \"two\": {}, \"three\": {}},"	\
	" \"nullable\": null, \"nullable_array_struct\": null"
#define VL_M_IFACE(foo)							\
	"\"interface\": {\"foo\": " foo ", \"anon\": {\"foo\": true, \"bar\": false}}"
#define VL_M_FOO							\
	"[null, {\"foo\": \"foo\", \"bar\": \"bar\"}, null,"		\
	" {\"one\": \"foo\", \"two\": \"bar\"}]"
#define VL_M(e, foo)							\
	"{\"client_id\": \"x\", \"mytype\": {" VL_M_OBJECT ", \"enum\": \""\
	e "\", " VL_M_REST ", " VL_M_IFACE(foo) "}}"

/* An account of com.redhat.system.accounts */
#define VL_ACCOUNT(uid)							\
	"{\"account\": {\"name\": \"a\", \"full_name\": \"A\", \"uid\": " uid \
	", \"gid\": 1000, \"home\": \"/\", \"shell\": \"/bin/sh\"}}"

static const struct vl_validate_case vl_validate_cases[] = {
	/* bool */
	OK("bool true", "Bool", "{\"v\": true}"),
	OK("bool false", "Bool", "{\"v\": false}"),
	NO("bool as a number", "Bool", "{\"v\": 1}", "v", "expected a bool"),
	NO("bool as a string", "Bool", "{\"v\": \"true\"}", "v",
	   "expected a bool"),
	NO("bool null", "Bool", "{\"v\": null}", "v", "null value"),
	NO("bool missing", "Bool", "{}", "v", "missing field"),

	/* int */
	OK("int 0", "Int", "{\"v\": 0}"),
	OK("int -0", "Int", "{\"v\": -0}"),
	OK("int S64_MIN", "Int", "{\"v\": -9223372036854775808}"),
	OK("int S64_MAX", "Int", "{\"v\": 9223372036854775807}"),
	OK("int U64_MAX", "Int", "{\"v\": 18446744073709551615}"),
	NO("int U64_MAX + 1", "Int", "{\"v\": 18446744073709551616}", "v",
	   "integer out of range"),
	NO("int S64_MIN - 1", "Int", "{\"v\": -9223372036854775809}", "v",
	   "integer out of range"),
	NO("int 1.0", "Int", "{\"v\": 1.0}", "v", "not an integer"),
	NO("int 1.5", "Int", "{\"v\": 1.5}", "v", "not an integer"),
	NO("int 1e3", "Int", "{\"v\": 1e3}", "v", "not an integer"),
	NO("int as a string", "Int", "{\"v\": \"1\"}", "v",
	   "expected an integer"),
	NO("int as a bool", "Int", "{\"v\": true}", "v", "expected an integer"),

	/* float */
	OK("float integer", "Float", "{\"v\": 1}"),
	OK("float 1.0", "Float", "{\"v\": 1.0}"),
	OK("float pi", "Float", "{\"v\": 3.141592653589793}"),
	OK("float tiny negative exponent", "Float", "{\"v\": -1.5e-300}"),
	OK("float beyond the u64 range", "Float",
	   "{\"v\": 18446744073709551616}"),
	NO("float as a string", "Float", "{\"v\": \"1.0\"}", "v",
	   "expected a number"),
	NO("float null", "Float", "{\"v\": null}", "v", "null value"),

	/* string */
	OK("string", "String", "{\"v\": \"x\"}"),
	OK("empty string", "String", "{\"v\": \"\"}"),
	OK("string with escapes", "String", "{\"v\": \"caf\\u00e9 \\\"q\\\"\"}"),
	NO("string with U+0000", "String", "{\"v\": \"a\\u0000b\"}", "v",
	   "string contains U+0000"),
	NO("string as a number", "String", "{\"v\": 1}", "v",
	   "expected a string"),
	NO("string as an array", "String", "{\"v\": [\"x\"]}", "v",
	   "expected a string"),

	/* object */
	OK("object empty", "Object", "{\"v\": {}}"),
	OK("object with anything inside", "Object",
	   "{\"v\": {\"a\": [1, {\"b\": null}], \"c\": \"\\u0000\"}}"),
	NO("object as an array", "Object", "{\"v\": []}", "v",
	   "expected an object"),
	NO("object as a string", "Object", "{\"v\": \"{}\"}", "v",
	   "expected an object"),
	NO("object null", "Object", "{\"v\": null}", "v", "null value"),

	/* any */
	OK("any number", "Any", "{\"v\": 1}"),
	OK("any string", "Any", "{\"v\": \"s\"}"),
	OK("any false", "Any", "{\"v\": false}"),
	OK("any array", "Any", "{\"v\": [null]}"),
	OK("any object", "Any", "{\"v\": {\"x\": null}}"),
	NO("any null", "Any", "{\"v\": null}", "v", "null value"),
	NO("any missing", "Any", "{}", "v", "missing field"),

	/* enums */
	OK("enum value", "Enum", "{\"v\": \"two\"}"),
	OK("enum value escaped", "Enum", "{\"v\": \"o\\u006ee\"}"),
	NO("enum unknown value", "Enum", "{\"v\": \"three\"}", "v",
	   "unknown enum value"),
	NO("enum is case sensitive", "Enum", "{\"v\": \"One\"}", "v",
	   "unknown enum value"),
	NO("enum prefix", "Enum", "{\"v\": \"on\"}", "v", "unknown enum value"),
	NO("enum as a number", "Enum", "{\"v\": 1}", "v",
	   "expected an enum string"),
	OK("named enum", "Named", "{\"v\": \"blue\"}"),
	NO("named enum unknown value", "Named", "{\"v\": \"pink\"}", "v",
	   "unknown enum value"),

	/* structs */
	OK("struct", "Struct", "{\"v\": {\"x\": 1, \"y\": 2}}"),
	OK("struct members in any order", "Struct",
	   "{\"v\": {\"y\": 2, \"x\": 1}}"),
	NO("struct missing field", "Struct", "{\"v\": {\"x\": 1}}", "v",
	   "missing field"),
	NO("struct unknown field", "Struct",
	   "{\"v\": {\"x\": 1, \"y\": 2, \"z\": 3}}", "v", "unknown field"),
	NO("struct wrong field type", "Struct",
	   "{\"v\": {\"x\": 1, \"y\": \"2\"}}", "v", "expected an integer"),
	NO("struct null field", "Struct", "{\"v\": {\"x\": 1, \"y\": null}}",
	   "v", "null value"),
	NO("struct as an array", "Struct", "{\"v\": [1, 2]}", "v",
	   "expected an object"),
	OK("anonymous nested struct", "Anon",
	   "{\"v\": {\"x\": 1, \"inner\": {\"flag\": true}}}"),
	NO("anonymous nested struct missing field", "Anon",
	   "{\"v\": {\"x\": 1, \"inner\": {}}}", "v", "missing field"),
	NO("anonymous nested struct wrong type", "Anon",
	   "{\"v\": {\"x\": 1, \"inner\": {\"flag\": 1}}}", "v",
	   "expected a bool"),

	/* arrays, maps, sets */
	OK("array empty", "Array", "{\"v\": []}"),
	OK("array", "Array", "{\"v\": [1, 2, 3]}"),
	NO("array wrong element", "Array", "{\"v\": [1, \"2\"]}", "v",
	   "expected an integer"),
	NO("array null element", "Array", "{\"v\": [null]}", "v", "null value"),
	NO("array as an object", "Array", "{\"v\": {}}", "v",
	   "expected an array"),
	OK("map empty", "Map", "{\"v\": {}}"),
	OK("map", "Map", "{\"v\": {\"a\": \"b\", \"\": \"d\"}}"),
	NO("map wrong value", "Map", "{\"v\": {\"a\": 1}}", "v",
	   "expected a string"),
	NO("map key with U+0000", "Map", "{\"v\": {\"a\\u0000\": \"x\"}}", "v",
	   "key contains U+0000"),
	NO("map as an array", "Map", "{\"v\": []}", "v", "expected an object"),
	OK("set", "Set", "{\"v\": {\"one\": {}, \"two\": {}}}"),
	NO("set value not empty", "Set", "{\"v\": {\"one\": {\"x\": 1}}}", "v",
	   "unknown field"),
	NO("set value true", "Set", "{\"v\": {\"one\": true}}", "v",
	   "expected an object"),
	NO("set value null", "Set", "{\"v\": {\"one\": null}}", "v",
	   "null value"),

	/* nullable */
	OK("nullable absent parameters", "Opt", NULL),
	OK("nullable null parameters", "Opt", "null"),
	OK("nullable empty parameters", "Opt", "{}"),
	OK("nullable all null", "Opt",
	   "{\"a\": null, \"b\": null, \"c\": null, \"d\": null}"),
	OK("nullable all set", "Opt",
	   "{\"a\": 1, \"b\": {\"x\": 1, \"y\": 2}, \"c\": [\"x\"], \"d\": 0}"),
	NO("nullable array of non-nullable", "Opt", "{\"c\": [null]}", "c",
	   "null value"),
	NO("nullable wrong type", "Opt", "{\"a\": \"1\"}", "a",
	   "expected an integer"),
	NO("nullable named struct checked", "Opt", "{\"b\": {\"x\": 1}}", "b",
	   "missing field"),

	/* deep and recursive */
	OK("deep containers", "Deep",
	   "{\"v\": [{\"k\": null, \"l\": [{\"x\": 1, \"y\": 2}]}, {}]}"),
	NO("deep missing field", "Deep", "{\"v\": [{\"k\": [{\"x\": 1}]}]}",
	   "v", "missing field"),
	NO("deep unknown field", "Deep",
	   "{\"v\": [{\"k\": [{\"x\": 1, \"y\": 2, \"q\": 0}]}]}", "v",
	   "unknown field"),
	NO("deep wrong level", "Deep", "{\"v\": [[{\"k\": null}]]}", "v",
	   "expected an object"),
	OK("recursive type", "Recursive", "{\"v\": {\"c\": [{\"c\": []}]}}"),
	{ .desc = "recursive type at the depth limit", .member = "Recursive",
	  .nest = (VL_VALIDATE_DEPTH_MAX - 1) / 2 },
	{ .desc = "recursive type too deep", .member = "Recursive",
	  .nest = (VL_VALIDATE_DEPTH_MAX - 1) / 2 + 1,
	  .param = "v", .msg = "nested too deeply" },

	/* top-level parameters */
	OK("two parameters", "Two", "{\"a\": 1, \"b\": \"x\"}"),
	OK("two parameters reversed", "Two", "{\"b\": \"x\", \"a\": 1}"),
	OK("escaped key", "Two", "{\"\\u0061\": 1, \"b\": \"x\"}"),
	NO("absent parameters", "Two", NULL, "a", "missing field"),
	NO("null parameters", "Two", "null", "a", "missing field"),
	NO("empty parameters", "Two", "{}", "a", "missing field"),
	NO("second parameter missing", "Two", "{\"a\": 1}", "b",
	   "missing field"),
	NO("first parameter missing", "Two", "{\"b\": \"x\"}", "a",
	   "missing field"),
	NO("unknown parameter", "Two", "{\"a\": 1, \"b\": \"x\", \"c\": 0}", "c",
	   "unknown field"),
	NO("unknown parameter comes first", "Two",
	   "{\"zz\": 0, \"a\": 1, \"b\": \"x\"}", "zz", "unknown field"),
	NO("unknown parameter named by its unescaped key", "Two",
	   "{\"a\": 1, \"b\": \"x\", \"\\u00e9t\\u00e9\": 0}", "\xc3\xa9t\xc3\xa9",
	   "unknown field"),
	NO("first error in document order", "Two", "{\"b\": 2, \"a\": \"1\"}",
	   "b", "expected a string"),
	NO("null parameter", "Two", "{\"a\": null, \"b\": \"x\"}", "a",
	   "null value"),
	NO("parameters as an array", "Two", "[]", NULL,
	   "parameters are not an object"),
	NO("parameters as a string", "Two", "\"a\"", NULL,
	   "parameters are not an object"),
	NO("missing after a nullable field", "Mixed", "{\"a\": 1, \"c\": null}",
	   "b", "missing field"),
	OK("no parameters absent", "None", NULL),
	OK("no parameters empty", "None", "{}"),
	NO("no parameters but one", "None", "{\"a\": 1}", "a", "unknown field"),

	/* replies and errors */
	OK_OUT("reply", "Two", "{\"r\": true}"),
	NO_OUT("reply missing field", "Two", "{}", "r", "missing field"),
	NO_OUT("reply absent", "Two", NULL, "r", "missing field"),
	NO_OUT("reply wrong type", "Two", "{\"r\": 1}", "r", "expected a bool"),
	NO_OUT("reply with a call parameter", "Two", "{\"r\": true, \"a\": 1}",
	       "a", "unknown field"),
	OK_OUT("empty reply", "None", NULL),
	OK("error parameters", "Failed", "{\"reason\": \"x\"}"),
	OK("error parameters all", "Failed", "{\"reason\": \"x\", \"code\": -1}"),
	NO("error parameters missing", "Failed", "{\"code\": 1}", "reason",
	   "missing field"),
	NO("error parameters absent", "Failed", NULL, "reason",
	   "missing field"),

	/* the interfaces of the IDL tests */
	OK_IN("certification Test10 with M", vl_certification_idl, "Test10",
	      VL_M("two", VL_M_FOO)),
	NO_IN("certification M with a bad enum", vl_certification_idl, "Test10",
	      VL_M("four", VL_M_FOO), "mytype", "unknown enum value"),
	NO_IN("certification M with a bad nested enum", vl_certification_idl,
	      "Test10", VL_M("two", "[{\"a\": \"qux\"}]"), "mytype",
	      "unknown enum value"),
	OK_IN("certification M with Go's capitalised keys",
	      vl_certification_idl, "Test10",
	      VL_M("two", "[{\"Foo\": \"foo\", \"Bar\": \"bar\"}]")),
	OK_IN("certification Test04 float as an integer", vl_certification_idl,
	      "Test04", "{\"client_id\": \"x\", \"float\": 1}"),
	NO_IN("certification Test03 int as 1.0", vl_certification_idl, "Test03",
	      "{\"client_id\": \"x\", \"int\": 1.0}", "int", "not an integer"),
	NO_IN("certification Test01 without client_id", vl_certification_idl,
	      "Test01", "{}", "client_id", "missing field"),
	OK_IN("certification Test09 set", vl_certification_idl, "Test09",
	      "{\"client_id\": \"x\", \"set\": {\"one\": {}, \"two\": {}, \"three\": {}}}"),
	OK_IN("certification Test11", vl_certification_idl, "Test11",
	      "{\"client_id\": \"x\", \"last_more_replies\": [\"Reply number 1\"]}"),
	OK_IN("service GetInterfaceDescription", vl_idl_service,
	      "GetInterfaceDescription", "{\"interface\": \"org.varlink.service\"}"),
	NO_IN("service InvalidParameter without parameter", vl_idl_service,
	      "InvalidParameter", NULL, "parameter", "missing field"),
	OK_IN("accounts AddAccount", vl_idl_accounts, "AddAccount",
	      VL_ACCOUNT("1000")),
	NO_IN("accounts AddAccount uid 1.5", vl_idl_accounts, "AddAccount",
	      VL_ACCOUNT("1.5"), "account", "not an integer"),
};

#undef OK
#undef NO
#undef OK_OUT
#undef NO_OUT
#undef OK_IN
#undef NO_IN

/* What running a row gave. */
struct vl_validate_outcome {
	const char *setup;	/* why the row could not run, or NULL */
	int ret;
	const char *msg;
	int param_len;		/* -ENOENT: the parameters as a whole */
	char param[VL_NAME_MAX + 1];
};

/* Room for the text of any row. */
#define VL_VALIDATE_TEXT_MAX	2048

/* {"parameters": {"v": {"c": [{"c": [ ... ]}]}}} */
static inline size_t vl_validate_nest(char *buf, size_t size, int nest)
{
	struct vl_idl_gen_buf b = { .p = buf, .size = size };

	vl_gen_str(&b, "{\"parameters\": {\"v\": ", 1);
	vl_gen_str(&b, "{\"c\": [", nest);
	vl_gen_str(&b, "]}", nest);
	vl_gen_str(&b, "}}", 1);
	return b.len;
}

/* Run row @c with a text buffer of VL_VALIDATE_TEXT_MAX bytes and a token
 * array of @cap entries; fill @out.
 */
static inline void vl_validate_run(const struct vl_validate_case *c,
				   char *buf, struct vl_json_tok *toks, u32 cap,
				   struct vl_validate_outcome *out)
{
	static const struct vl_json_limits lim = {
		.max_size = VL_VALIDATE_TEXT_MAX,
		.max_depth = VL_JSON_DEPTH_MAX,
		.max_tokens = VL_JSON_TOKENS_MAX,
	};
	const char *text = c->idl ? c->idl : vl_validate_idl;
	const struct vl_idl_member *m;
	struct vl_validate_error verr;
	struct vl_idl_error ierr;
	struct vl_idl_gen_buf b = { .p = buf, .size = VL_VALIDATE_TEXT_MAX };
	struct vl_idl *idl;
	struct vl_json js;
	int obj;

	memset(out, 0, sizeof(*out));
	if (vl_idl_parse(text, strlen(text), &idl, &ierr)) {
		out->setup = "IDL does not parse";
		return;
	}
	m = vl_idl_lookup(idl, c->member, strlen(c->member));
	if (c->nest) {
		b.len = vl_validate_nest(buf, b.size, c->nest);
	} else {
		vl_gen_str(&b, "{", 1);
		if (c->json) {
			vl_gen_str(&b, "\"parameters\": ", 1);
			vl_gen_str(&b, c->json, 1);
		}
		vl_gen_str(&b, "}", 1);
	}
	vl_json_init(&js, toks, cap);
	if (!m || (c->what == VL_VC_OUT && m->kind != VL_IDL_METHOD))
		out->setup = "no such member";
	else if (b.len > b.size)
		out->setup = "text too long";
	else if (vl_json_parse(&js, buf, b.len, &lim))
		out->setup = js.emsg ? js.emsg : "JSON does not parse";
	if (out->setup) {
		vl_idl_free(idl);
		return;
	}
	obj = vl_json_find(&js, 0, "parameters");
	out->ret = vl_validate(idl, c->what == VL_VC_OUT ? m->out : m->type,
			       &js, obj < 0 ? VL_VALIDATE_ABSENT : (u32)obj, &verr);
	out->msg = verr.msg;
	if (out->ret)
		out->param_len = vl_validate_param_name(&js, &verr, out->param,
							sizeof(out->param));
	vl_idl_free(idl);
}

/* Whether @out is what row @c expects. */
static inline bool vl_validate_outcome_ok(const struct vl_validate_case *c,
					  const struct vl_validate_outcome *out)
{
	if (out->setup)
		return false;
	if (!c->msg)
		return !out->ret;
	if (out->ret != -EINVAL || !out->msg || strcmp(out->msg, c->msg))
		return false;
	if (!c->param)
		return out->param_len == -ENOENT;
	return out->param_len == (int)strlen(c->param) &&
	       !memcmp(out->param, c->param, out->param_len);
}

#endif /* _VL_VALIDATE_CASES_H */
