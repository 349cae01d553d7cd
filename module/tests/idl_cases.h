/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interface descriptions for the IDL parser tests, good and bad, shared by
 * the KUnit suite (tests/idl_kunit.c) and the host runner
 * (selftests/host/idl_test.c).  Data only, plus a generator for the texts
 * that probe the limits.
 *
 * A bad case names the first error: line and column (from 1, columns in
 * characters) and the message.
 */
#ifndef _VL_IDL_CASES_H
#define _VL_IDL_CASES_H

#include <linux/kernel.h>
#include <linux/string.h>

#include "../idl.h"

struct vl_idl_case {
	const char *desc;
	const char *text;
	size_t len;		/* 0: strlen(text) */
	int line;		/* 0: the text is valid */
	int col;
	const char *msg;
	int n_members;		/* valid: members declared */
};

/* UAPI.20 org.varlink.service */
static const char vl_idl_service[] =
	"# The Varlink Service Interface should be provided by every varlink service. It\n"
	"# describes the service and the interfaces it implements.\n"
	"interface org.varlink.service\n"
	"\n"
	"# Get a list of all the interfaces a service provides and information\n"
	"# about the implementation.\n"
	"method GetInfo() -> (\n"
	"  vendor: string,\n"
	"  product: string,\n"
	"  version: string,\n"
	"  url: string,\n"
	"  interfaces: []string\n"
	")\n"
	"\n"
	"# Get the description of an interface that is implemented by this service.\n"
	"method GetInterfaceDescription(interface: string) -> (description: string)\n"
	"\n"
	"# The requested interface was not found.\n"
	"error InterfaceNotFound (interface: string)\n"
	"\n"
	"# The requested method was not found\n"
	"error MethodNotFound (method: string)\n"
	"\n"
	"# The interface defines the requested method, but the service does not\n"
	"# implement it.\n"
	"error MethodNotImplemented (method: string)\n"
	"\n"
	"# One of the passed parameters is invalid.\n"
	"error InvalidParameter (parameter: string)\n"
	"\n"
	"# Client is denied access\n"
	"error PermissionDenied ()\n"
	"\n"
	"# Method is expected to be called with 'more' set to true, but wasn't\n"
	"error ExpectedMore ()\n"
	"\n"
	"# Method is expected to be called with 'upgrade' set to true, but wasn't\n"
	"error ExpectedUpgrade ()\n";

/* org.varlink.certification, verbatim (python/rust copy) */
#include "certification_idl.h"

/* the example of the varlink announcement */
static const char vl_idl_accounts[] =
	"# Manage the user accounts of the system\n"
	"interface com.redhat.system.accounts\n"
	"\n"
	"# An account as in /etc/passwd\n"
	"type Account (\n"
	"  name: string,\n"
	"  full_name: string,\n"
	"  uid: int,\n"
	"  gid: int,\n"
	"  home: string,\n"
	"  shell: string\n"
	")\n"
	"\n"
	"# Retrieve a list of account information for all known accounts\n"
	"method GetAccounts() -> (accounts: []Account)\n"
	"\n"
	"# Retrieve the account information for a specific user ID\n"
	"method GetAccountByUid(uid: int) -> (account: Account)\n"
	"\n"
	"# Retrieve the account information for a specific user name\n"
	"method GetAccountByName(name: string) -> (account: Account)\n"
	"\n"
	"# Add a new account\n"
	"method AddAccount(account: Account) -> (account: Account)\n"
	"\n"
	"error AccountNotFound ()\n"
	"error AccountCreationFailed (field: string)\n";

/* the MyType sample of varlink.org, with the type it refers to */
static const char vl_idl_mytype[] =
	"interface org.example.mytype\n"
	"\n"
	"type MyType (\n"
	"   example_bool: bool,\n"
	"   example_int: int,\n"
	"   example_float: float,\n"
	"   example_string: string,\n"
	"   example_object: object,\n"
	"   example_enum: (one, two, three),\n"
	"   example_struct: (first: int, second: string),\n"
	"   example_array: []string,\n"
	"   example_dictionary: [string]string,\n"
	"   example_stringset: [string](),\n"
	"   example_nullable: ?string,\n"
	"   example_nullable_array_struct: ?[](first: int, second: string),\n"
	"   example_other_type: MyOtherType\n"
	")\n"
	"\n"
	"type MyOtherType (a: any)\n";

#define VL_H "interface a.b\n"
#define GOOD(d, t, n)		{ .desc = d, .text = t, .n_members = n }
#define BAD(d, t, l, c, m)	{ .desc = d, .text = t, .line = l, .col = c, .msg = m }
#define BADN(d, t, l, c, m)	{ .desc = d, .text = t, .len = sizeof(t) - 1, \
				  .line = l, .col = c, .msg = m }

static const struct vl_idl_case vl_idl_cases[] __maybe_unused = {
	/* valid descriptions */
	GOOD("org.varlink.service (UAPI.20)", vl_idl_service, 9),
	GOOD("org.varlink.certification verbatim", vl_certification_idl, 17),
	GOOD("com.redhat.system.accounts", vl_idl_accounts, 7),
	GOOD("MyType sample of varlink.org", vl_idl_mytype, 2),
	GOOD("smallest interface", VL_H "method F() -> ()\n", 1),
	GOOD("no final line break", VL_H "method F() -> ()", 1),
	GOOD("CRLF line endings",
	     "interface a.b\r\nmethod F(a: int) -> ()\r\nerror E ()\r\n", 2),
	GOOD("CR alone inside a line", VL_H "method F(\ra: int\r) -> ()\n", 1),
	GOOD("tabs", "interface\ta.b\n\tmethod\tF(\ta:\tint\t)\t->\t()\n", 1),
	GOOD("comments between all tokens",
	     "# doc\ninterface # c\n a.b # c\nmethod # c\nF # c\n( # c\n"
	     "a # c\n: # c\n? # c\nint # c\n, # c\nb: int # c\n) # c\n"
	     "-> # c\n( # c\n) # c\n", 1),
	GOOD("blank lines and comments around",
	     "\n\n# c\n\ninterface a.b\n\n\n# c\n\nmethod F() -> ()\n\n# end\n\n",
	     1),
	GOOD("keywords as field names",
	     VL_H "method F(bool: bool, int: int, float: float, string: string,\n"
	     "  object: object, any: any) -> (type: int, method: int,\n"
	     "  error: int, interface: int, enum: int, struct: int)\n", 1),
	GOOD("field names with underscores and digits",
	     VL_H "method F(a: int, a1: int, a_b_c: int, A_1: int, x9_y: int) -> ()\n", 1),
	GOOD("nested arrays and maps",
	     VL_H "type T (a: [][]int, b: ?[]?[string]?int,\n"
	     "  c: [string][string][]bool, d: []?(x: int))\n", 1),
	GOOD("anonymous structs and enums",
	     VL_H "method F(e: (one, two), s: (x: int, y: (z: bool)),\n"
	     "  n: ?(a: int)) -> (r: [](k: (p, q)))\n", 1),
	GOOD("forward reference", VL_H "method F(a: T) -> (b: []T)\n"
	     "type T (c: int)\n", 2),
	GOOD("recursive type",
	     VL_H "type Node (name: string, children: []Node, parent: ?Node)\n",
	     1),
	GOOD("named enum", VL_H "type Color (red, green, blue)\n"
	     "method Paint(c: Color) -> ()\n", 2),
	GOOD("one-value enum", VL_H "type One (only)\n", 1),
	GOOD("string set and empty structs",
	     VL_H "type Empty ()\nmethod F(s: [string](), e: Empty, o: ?()) -> ()\n", 2),
	GOOD("any", VL_H "method F(a: any, b: ?any, c: []any, d: [string]any) -> ()\n", 1),
	GOOD("interface name with capitals, digits and hyphens",
	     "interface io.systemd.User-Database.v2--x.9\nmethod F() -> ()\n", 1),
	GOOD("UTF-8 in comments",
	     VL_H "# \xcf\x80 \xe2\x89\x88 3.14 \xe2\x80\xa6 \xf0\x9f\x99\x82\n"
	     "method F() -> () # \xc3\xbc\n", 1),
	GOOD("signature over several lines",
	     VL_H "method F(\n  a: int,\n  b: string\n)\n->\n(\n  c: bool\n)\n",
	     1),
	GOOD("member and field of the same name",
	     VL_H "method F(F: int) -> (F: int)\ntype T (T: int)\n", 2),
	GOOD("same field name in different structs",
	     VL_H "type A (x: int, y: (x: int))\ntype B (x: int)\n", 2),
	GOOD("error with named types",
	     VL_H "type T (a: int)\nerror E (t: T, l: []T)\n", 2),
	GOOD("type names like keywords in capitals",
	     VL_H "type Bool (a: bool)\ntype Object (o: object)\n"
	     "method F(b: Bool, o: Object) -> ()\n", 3),

	/* the interface line */
	BAD("empty text", "", 1, 1, "expected 'interface'"),
	BAD("only a comment", "# nothing\n", 2, 1, "expected 'interface'"),
	BAD("no 'interface'", "method F() -> ()\n", 1, 1,
	    "expected 'interface'"),
	BAD("'interface' alone", "interface", 1, 10, "invalid interface name"),
	BAD("interface name without a dot", "interface foo\nmethod F() -> ()\n",
	    1, 11, "invalid interface name"),
	BAD("interface name starts with a digit", "interface 1a.b\n", 1, 11,
	    "invalid interface name"),
	BAD("interface label ends with '-'", "interface a-.b\n", 1, 11,
	    "invalid interface name"),
	BAD("interface label starts with '-'", "interface a.-b\n", 1, 11,
	    "invalid interface name"),
	BAD("interface name ends with '.'", "interface a.b.\n", 1, 11,
	    "invalid interface name"),
	BAD("interface name with '..'", "interface a..b\n", 1, 11,
	    "invalid interface name"),
	BAD("interface name with '_'", "interface a_b.c\n", 1, 11,
	    "invalid interface name"),
	BAD("member on the interface line", "interface a.b method F() -> ()\n",
	    1, 15, "expected a line break"),
	BAD("CR is not a line break", "interface a.b\rmethod F() -> ()\n",
	    1, 15, "expected a line break"),
	BAD("no member", VL_H, 2, 1, "no type, method or error"),
	BAD("no member, a comment", VL_H "# nothing\n", 3, 1,
	    "no type, method or error"),

	/* members */
	BAD("two members on one line", VL_H "method F() -> () method G() -> ()\n",
	    2, 18, "expected a line break"),
	BAD("type followed by '->'", VL_H "type T (a: int) -> ()\n", 2, 17,
	    "expected a line break"),
	BAD("unknown keyword", VL_H "function F() -> ()\n", 2, 1,
	    "expected 'type', 'method' or 'error'"),
	BAD("interface declared twice", VL_H "method F() -> ()\ninterface c.d\n",
	    3, 1, "expected 'type', 'method' or 'error'"),
	BAD("extra ')'", VL_H "method F() -> ())\n", 2, 17,
	    "expected a line break"),
	BAD("extra ')' on its own line", VL_H "method F() -> ()\n)\n", 3, 1,
	    "expected 'type', 'method' or 'error'"),
	BAD("member name in lower case", VL_H "method foo() -> ()\n", 2, 8,
	    "invalid name"),
	BAD("member name with '_'", VL_H "method Foo_bar() -> ()\n", 2, 8,
	    "invalid name"),
	BAD("type named like a basic type", VL_H "type object (a: int)\n", 2, 6,
	    "invalid name"),
	BAD("keyword without a name", VL_H "type (a: int)\n", 2, 6,
	    "expected a name"),
	BAD("no token as a name", VL_H "method @F() -> ()\n", 2, 8,
	    "unexpected character"),
	BAD("method without '('", VL_H "method F -> ()\n", 2, 10,
	    "expected '('"),
	BAD("method without '->'", VL_H "method F() ()\n", 2, 12,
	    "expected '->'"),
	BAD("'- >'", VL_H "method F() - > ()\n", 2, 12, "unexpected character"),
	BAD("method without result", VL_H "method F() ->\n", 3, 1,
	    "expected '('"),
	BAD("braces", VL_H "method F() -> {}\n", 2, 15, "unexpected character"),
	BAD("method parameters as an enum", VL_H "method F(a, b) -> ()\n", 2, 11,
	    "expected ':'"),
	BAD("method result as an enum", VL_H "method F() -> (a)\n", 2, 17,
	    "expected ':'"),
	BAD("error parameters as an enum", VL_H "error E (a)\n", 2, 11,
	    "expected ':'"),
	BAD("error without parameters", VL_H "error E\n", 3, 1, "expected '('"),
	BAD("type alias of a basic type", VL_H "type T int\n", 2, 8,
	    "expected '('"),
	BAD("type with a result", VL_H "type T () -> ()\n", 2, 11,
	    "expected a line break"),

	/* types */
	BAD("unknown type", VL_H "method F(a: Foo) -> ()\n", 2, 13,
	    "unknown type"),
	BAD("unknown type in a nested struct", VL_H "type T (a: (b: []?Bar))\n",
	    2, 19, "unknown type"),
	BAD("reference to a method",
	    VL_H "method F(a: G) -> ()\nmethod G() -> ()\n", 2, 13,
	    "not a type"),
	BAD("reference to an error", VL_H "error E ()\ntype T (e: E)\n", 3, 12,
	    "not a type"),
	BAD("qualified type name", VL_H "method F(a: org.x.T) -> ()\n", 2, 13,
	    "unknown type"),
	BAD("type name in lower case", VL_H "method F(a: foo) -> ()\n", 2, 13,
	    "unknown type"),
	BAD("number as a type", VL_H "method F(a: 1) -> ()\n", 2, 13,
	    "unknown type"),
	BAD("'?\?'", VL_H "method F(a: ?\?int) -> ()\n", 2, 14, "'?' twice"),
	BAD("'?[]?\?'", VL_H "method F(a: ?[]?\?int) -> ()\n", 2, 17, "'?' twice"),
	BAD("'?' without a type", VL_H "method F(a: ?) -> ()\n", 2, 14,
	    "expected a type"),
	BAD("map with int keys", VL_H "method F(a: [int]string) -> ()\n", 2, 13,
	    "expected '[]' or '[string]'"),
	BAD("'[ ]'", VL_H "method F(a: [ ]int) -> ()\n", 2, 13,
	    "expected '[]' or '[string]'"),
	BAD("'[String]'", VL_H "method F(a: [String]int) -> ()\n", 2, 13,
	    "expected '[]' or '[string]'"),
	BAD("postfix array of the 2017 syntax",
	    VL_H "method F() -> (interfaces: string[])\n", 2, 34,
	    "expected ',' or ')'"),
	BAD("missing ':'", VL_H "method F(a int) -> ()\n", 2, 12,
	    "expected ':'"),
	BAD("missing type", VL_H "method F(a:) -> ()\n", 2, 12,
	    "expected a type"),
	BAD("struct in parentheses twice", VL_H "method F((a: int)) -> ()\n", 2,
	    10, "expected a field name"),

	/* lists */
	BAD("trailing comma in a struct", VL_H "method F(a: int,) -> ()\n", 2, 17,
	    "expected a field name"),
	BAD("trailing comma in an enum", VL_H "type T (a, b,)\n", 2, 14,
	    "expected a field name"),
	BAD("missing comma", VL_H "method F(a: int b: int) -> ()\n", 2, 17,
	    "expected ',' or ')'"),
	BAD("double comma", VL_H "method F(a: int,, b: int) -> ()\n", 2, 17,
	    "expected a field name"),
	BAD("enum value then field", VL_H "type T (a, b: int)\n", 2, 13,
	    "':' in an enum"),
	BAD("field then enum value", VL_H "type T (a: int, b)\n", 2, 18,
	    "expected ':'"),
	BAD("unclosed struct at the end", VL_H "method F(a: int", 2, 16,
	    "expected ',' or ')'"),
	BAD("unclosed struct after a comma", VL_H "type T (a: int,\n", 3, 1,
	    "expected a field name"),

	/* names */
	BAD("field name with '__'", VL_H "method F(a__b: int) -> ()\n", 2, 10,
	    "invalid field name"),
	BAD("field name starts with '_'", VL_H "method F(_a: int) -> ()\n", 2, 10,
	    "invalid field name"),
	BAD("field name ends with '_'", VL_H "method F(a_: int) -> ()\n", 2, 10,
	    "invalid field name"),
	BAD("field name starts with a digit", VL_H "method F(1a: int) -> ()\n", 2,
	    10, "invalid field name"),
	BAD("field name with '-'", VL_H "method F(a-b: int) -> ()\n", 2, 10,
	    "invalid field name"),
	BAD("enum value with '-'", VL_H "type T (a, b-c)\n", 2, 12,
	    "invalid field name"),

	/* duplicates */
	BAD("duplicate field", VL_H "method F(a: int, b: int, a: string) -> ()\n",
	    2, 26, "duplicate field"),
	BAD("duplicate field in a nested struct",
	    VL_H "type T (x: (a: int, a: int))\n", 2, 21, "duplicate field"),
	BAD("duplicate enum value", VL_H "type T (a, b, a)\n", 2, 15,
	    "duplicate enum value"),
	BAD("duplicate method", VL_H "method F() -> ()\nmethod F() -> ()\n", 3, 8,
	    "duplicate name"),
	BAD("type and error of the same name",
	    VL_H "type X (a: int)\nerror X ()\n", 3, 7, "duplicate name"),
	BAD("the earliest semantic error wins",
	    VL_H "method F(a: Nope) -> ()\nmethod F() -> ()\n", 2, 13,
	    "unknown type"),

	/* characters */
	BAD("invalid UTF-8 in a comment", VL_H "# caf\xff\nmethod F() -> ()\n",
	    2, 6, "invalid UTF-8"),
	BAD("columns count characters", VL_H "# \xc3\xa9\xc3\xa9\xc3\xa9\xff\n", 2, 6,
	    "invalid UTF-8"),
	BAD("overlong UTF-8", VL_H "# \xc0\xaf\n", 2, 3, "invalid UTF-8"),
	BAD("UTF-16 surrogate in UTF-8", VL_H "# \xed\xa0\x80\n", 2, 3,
	    "invalid UTF-8"),
	BAD("code point above U+10FFFF", VL_H "# \xf4\x90\x80\x80\n", 2, 3,
	    "invalid UTF-8"),
	BAD("truncated UTF-8 at the end", VL_H "method F() -> () # \xe2\x80", 2,
	    20, "invalid UTF-8"),
	BADN("NUL byte", VL_H "method F() -> ()\0\n", 2, 17, "control character"),
	BAD("form feed", VL_H "method F()\f -> ()\n", 2, 11, "control character"),
	BAD("DEL", VL_H "# \x7f\n", 2, 3, "control character"),
	BAD("non-ASCII letter in a name", VL_H "method F\xc3\xa9() -> ()\n", 2, 9,
	    "unexpected character"),
};

#undef GOOD
#undef BAD
#undef BADN

/* Texts built at run time, to probe the limits of limits.h. */
enum vl_idl_gen {
	VL_GEN_FIELDS,		/* a method with @n parameters */
	VL_GEN_MEMBERS,		/* @n errors */
	VL_GEN_ARRAYS,		/* a parameter of @n nested "[]" */
	VL_GEN_STRUCTS,		/* a parameter of @n nested anonymous structs */
	VL_GEN_FIELD_NAME,	/* a parameter name of @n characters */
	VL_GEN_IFACE_NAME,	/* an interface name of @n characters */
	VL_GEN_SIZE,		/* a text of @n bytes */
	VL_GEN_NODES,		/* @n enum types of 256 values each */
};

struct vl_idl_gen_case {
	const char *desc;
	enum vl_idl_gen gen;
	int n;
	int line;		/* 0: the text is valid */
	int col;
	const char *msg;
};

/* Buffer size the generated texts need. */
#define VL_IDL_GEN_SIZE		(VL_IDL_SIZE_MAX + 64)

#define GEN_OK(d, g, num)	{ .desc = d, .gen = g, .n = num }
#define GEN_BAD(d, g, num, l, c, m) \
	{ .desc = d, .gen = g, .n = num, .line = l, .col = c, .msg = m }

static const struct vl_idl_gen_case vl_idl_gen_cases[] __maybe_unused = {
	GEN_OK("VL_IDL_FIELDS_MAX parameters", VL_GEN_FIELDS,
	       VL_IDL_FIELDS_MAX),
	GEN_BAD("a parameter too many", VL_GEN_FIELDS, VL_IDL_FIELDS_MAX + 1,
		VL_IDL_FIELDS_MAX + 3, 1, "too many fields"),
	GEN_OK("VL_IDL_MEMBERS_MAX members", VL_GEN_MEMBERS,
	       VL_IDL_MEMBERS_MAX),
	GEN_BAD("a member too many", VL_GEN_MEMBERS, VL_IDL_MEMBERS_MAX + 1,
		VL_IDL_MEMBERS_MAX + 2, 7, "too many members"),
	GEN_OK("arrays nested VL_IDL_DEPTH_MAX deep", VL_GEN_ARRAYS,
	       VL_IDL_DEPTH_MAX - 1),
	GEN_BAD("arrays nested too deep", VL_GEN_ARRAYS, VL_IDL_DEPTH_MAX,
		2, 13 + 2 * (VL_IDL_DEPTH_MAX - 1), "types nested too deeply"),
	GEN_OK("structs nested VL_IDL_DEPTH_MAX deep", VL_GEN_STRUCTS,
	       VL_IDL_DEPTH_MAX - 1),
	GEN_BAD("structs nested too deep", VL_GEN_STRUCTS, VL_IDL_DEPTH_MAX,
		2, 9 + 4 * VL_IDL_DEPTH_MAX, "types nested too deeply"),
	GEN_OK("field name of VL_NAME_MAX characters", VL_GEN_FIELD_NAME,
	       VL_NAME_MAX),
	GEN_BAD("field name too long", VL_GEN_FIELD_NAME, VL_NAME_MAX + 1,
		2, 10, "name too long"),
	GEN_OK("interface name of VL_NAME_MAX characters", VL_GEN_IFACE_NAME,
	       VL_NAME_MAX),
	GEN_BAD("interface name too long", VL_GEN_IFACE_NAME, VL_NAME_MAX + 1,
		1, 11, "name too long"),
	GEN_OK("text of VL_IDL_SIZE_MAX bytes", VL_GEN_SIZE, VL_IDL_SIZE_MAX),
	GEN_BAD("text too large", VL_GEN_SIZE, VL_IDL_SIZE_MAX + 1,
		3, VL_IDL_SIZE_MAX - 30, "description too large"),
	/* types of 256 values take 257 nodes each, after node 0 */
	GEN_OK("VL_IDL_NODES_MAX nodes", VL_GEN_NODES,
	       (VL_IDL_NODES_MAX - 1) / 257),
	/* fails at value 127 of type 127; a type takes 258 lines */
	GEN_BAD("too many nodes", VL_GEN_NODES,
		(VL_IDL_NODES_MAX - 1) / 257 + 1, 2 + 258 * 127 + 1 + 127, 1,
		"description too complex"),
};

#undef GEN_OK
#undef GEN_BAD

struct vl_idl_gen_buf {
	char *p;
	size_t len;
	size_t size;
};

static inline void vl_gen_put(struct vl_idl_gen_buf *b, const char *s,
			      size_t n)
{
	if (b->len + n <= b->size)
		memcpy(b->p + b->len, s, n);
	b->len += n;
}

static inline void vl_gen_str(struct vl_idl_gen_buf *b, const char *s,
			      int times)
{
	while (times-- > 0)
		vl_gen_put(b, s, strlen(s));
}

static inline void vl_gen_num(struct vl_idl_gen_buf *b, unsigned int v)
{
	char tmp[10];
	int i = sizeof(tmp);

	do {
		tmp[--i] = '0' + v % 10;
		v /= 10;
	} while (v && i);
	vl_gen_put(b, tmp + i, sizeof(tmp) - i);
}

/* @n lines "<prefix><i><suffix>", the last with @last as suffix */
static inline void vl_gen_list(struct vl_idl_gen_buf *b, const char *prefix,
			       const char *suffix, const char *last, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		vl_gen_str(b, prefix, 1);
		vl_gen_num(b, i);
		vl_gen_str(b, i + 1 < n ? suffix : last, 1);
	}
}

/* Write the text of @c into @buf of @size (VL_IDL_GEN_SIZE) bytes.
 * Return its length; larger than @size if it did not fit.
 */
static inline size_t vl_idl_gen(const struct vl_idl_gen_case *c, char *buf,
				size_t size)
{
	struct vl_idl_gen_buf b = { .p = buf, .size = size };
	int i;

	vl_gen_str(&b, c->gen == VL_GEN_IFACE_NAME ? "interface " : VL_H, 1);
	switch (c->gen) {
	case VL_GEN_FIELDS:
		vl_gen_str(&b, "method F(\n", 1);
		vl_gen_list(&b, "f", ": int,\n", ": int\n", c->n);
		vl_gen_str(&b, ") -> ()\n", 1);
		break;
	case VL_GEN_MEMBERS:
		for (i = 0; i < c->n; i++) {
			vl_gen_str(&b, "error E", 1);
			vl_gen_num(&b, i);
			vl_gen_str(&b, " ()\n", 1);
		}
		break;
	case VL_GEN_ARRAYS:
		vl_gen_str(&b, "method F(a: ", 1);
		vl_gen_str(&b, "[]", c->n);
		vl_gen_str(&b, "int) -> ()\n", 1);
		break;
	case VL_GEN_STRUCTS:
		vl_gen_str(&b, "method F(", 1);
		vl_gen_str(&b, "a: (", c->n);
		vl_gen_str(&b, "b: int", 1);
		vl_gen_str(&b, ")", c->n);
		vl_gen_str(&b, ") -> ()\n", 1);
		break;
	case VL_GEN_FIELD_NAME:
		vl_gen_str(&b, "method F(", 1);
		vl_gen_str(&b, "a", c->n);
		vl_gen_str(&b, ": int) -> ()\n", 1);
		break;
	case VL_GEN_IFACE_NAME:
		vl_gen_str(&b, "a", c->n - 2);
		vl_gen_str(&b, ".b\nmethod F() -> ()\n", 1);
		break;
	case VL_GEN_SIZE:
		vl_gen_str(&b, "method F() -> ()\n#", 1);
		vl_gen_str(&b, "x", c->n - (int)b.len);
		break;
	case VL_GEN_NODES:
		for (i = 0; i < c->n; i++) {
			vl_gen_str(&b, "type T", 1);
			vl_gen_num(&b, i);
			vl_gen_str(&b, " (\n", 1);
			vl_gen_list(&b, "v", ",\n", "\n", 256);
			vl_gen_str(&b, ")\n", 1);
		}
		break;
	}
	return b.len;
}

/* The shape of parsed members, rendered back to canonical text by
 * vl_idl_render(): "kind Name(...)"; with a NULL @member the interface
 * name and its methods in text order.
 */
struct vl_idl_shape_case {
	const char *desc;
	const char *text;
	const char *member;
	const char *expect;	/* NULL: no such member */
};

static const struct vl_idl_shape_case vl_idl_shape_cases[] __maybe_unused = {
	{ "service methods in order", vl_idl_service, NULL,
	  "org.varlink.service: GetInfo GetInterfaceDescription" },
	{ "service GetInfo", vl_idl_service, "GetInfo",
	  "method GetInfo() -> (vendor: string, product: string, version: string, url: string, interfaces: []string)",
	},
	{ "service InvalidParameter", vl_idl_service, "InvalidParameter",
	  "error InvalidParameter(parameter: string)" },
	{ "service ExpectedUpgrade", vl_idl_service, "ExpectedUpgrade",
	  "error ExpectedUpgrade()" },
	{ "service lookup of a missing name", vl_idl_service, "GetInfoX", NULL },
	{ "service lookup is case sensitive", vl_idl_service, "getinfo", NULL },
	{ "service lookup of a prefix", vl_idl_service, "Get", NULL },
	{ "certification methods in order", vl_certification_idl, NULL,
	  "org.varlink.certification: Start Test01 Test02 Test03 Test04 Test05 Test06 Test07 Test08 Test09 Test10 Test11 End",
	},
	{ "certification Interface", vl_certification_idl, "Interface",
	  "type Interface(foo: ?[]?[string](foo, bar, baz), anon: (foo: bool, bar: bool))" },
	{ "certification MyType", vl_certification_idl, "MyType",
	  "type MyType(object: object, enum: (one, two, three), struct: (first: int, second: string), array: []string, dictionary: [string]string, stringset: [string](), nullable: ?string, nullable_array_struct: ?[](first: int, second: string), interface: Interface)",
	},
	{ "certification Test06", vl_certification_idl, "Test06",
	  "method Test06(client_id: string, bool: bool, int: int, float: float, string: string) -> (struct: (bool: bool, int: int, float: float, string: string))",
	},
	{ "certification Test11", vl_certification_idl, "Test11",
	  "method Test11(client_id: string, last_more_replies: []string) -> ()" },
	{ "certification CertificationError", vl_certification_idl,
	  "CertificationError",
	  "error CertificationError(wants: object, got: object)" },
	{ "accounts methods in order", vl_idl_accounts, NULL,
	  "com.redhat.system.accounts: GetAccounts GetAccountByUid GetAccountByName AddAccount" },
	{ "accounts Account", vl_idl_accounts, "Account",
	  "type Account(name: string, full_name: string, uid: int, gid: int, home: string, shell: string)",
	},
	{ "accounts GetAccounts", vl_idl_accounts, "GetAccounts",
	  "method GetAccounts() -> (accounts: []Account)" },
	{ "accounts AccountCreationFailed", vl_idl_accounts,
	  "AccountCreationFailed", "error AccountCreationFailed(field: string)" },
	{ "MyType sample", vl_idl_mytype, "MyType",
	  "type MyType(example_bool: bool, example_int: int, example_float: float, example_string: string, example_object: object, example_enum: (one, two, three), example_struct: (first: int, second: string), example_array: []string, example_dictionary: [string]string, example_stringset: [string](), example_nullable: ?string, example_nullable_array_struct: ?[](first: int, second: string), example_other_type: MyOtherType)",
	},
	{ "interface without methods", vl_idl_mytype, NULL,
	  "org.example.mytype:" },
	{ "nested containers and any",
	  "interface a.b\ntype T (a: [][]any, b: ?[]?[string]?int, c: [string]?(x, y))\n", "T",
	  "type T(a: [][]any, b: ?[]?[string]?int, c: [string]?(x, y))" },
	{ "enum type", "interface a.b\ntype E (a, b)\n", "E", "type E(a, b)" },
	{ "empty struct type", "interface a.b\ntype E ()\n", "E", "type E()" },
};

static inline void vl_render_name(struct vl_idl_gen_buf *b, const char *name,
				  size_t len)
{
	vl_gen_put(b, name, len);
}

/* Render the type @index.  Recursive, test code only: the depth is at most
 * VL_IDL_DEPTH_MAX, named types are rendered by name.
 */
static void vl_render_type(struct vl_idl_gen_buf *b, const struct vl_idl *idl,
			   u32 index)
{
	static const char * const basic[] = {
		[VL_IDL_BOOL] = "bool", [VL_IDL_INT] = "int",
		[VL_IDL_FLOAT] = "float", [VL_IDL_STRING] = "string",
		[VL_IDL_OBJECT] = "object", [VL_IDL_ANY] = "any",
	};
	const struct vl_idl_node *n = vl_idl_node(idl, index);
	u32 i;

	if (n->flags & VL_IDL_NULLABLE)
		vl_gen_str(b, "?", 1);
	switch (n->kind) {
	case VL_IDL_BOOL ... VL_IDL_ANY:
		vl_gen_str(b, basic[n->kind], 1);
		break;
	case VL_IDL_ARRAY:
	case VL_IDL_MAP:
		vl_gen_str(b, n->kind == VL_IDL_ARRAY ? "[]" : "[string]", 1);
		vl_render_type(b, idl, n->child);
		break;
	case VL_IDL_NAMED:
		vl_render_name(b, n->name, n->name_len);
		break;
	case VL_IDL_STRUCT:
	case VL_IDL_ENUM:
		vl_gen_str(b, "(", 1);
		for (i = n->child; i; i = vl_idl_node(idl, i)->next) {
			const struct vl_idl_node *e = vl_idl_node(idl, i);

			vl_render_name(b, e->name, e->name_len);
			if (e->kind == VL_IDL_FIELD) {
				vl_gen_str(b, ": ", 1);
				vl_render_type(b, idl, e->child);
			}
			if (e->next)
				vl_gen_str(b, ", ", 1);
		}
		vl_gen_str(b, ")", 1);
		break;
	default:
		vl_gen_str(b, "<bad node>", 1);
	}
}

/* Render @member of @idl (or its methods if NULL) into @buf, NUL-terminated.
 * Return false if there is no such member.
 */
static inline bool vl_idl_render(const struct vl_idl *idl, const char *member,
				 char *buf, size_t size)
{
	static const char * const kinds[] = {
		[VL_IDL_TYPE] = "type ", [VL_IDL_METHOD] = "method ",
		[VL_IDL_ERROR] = "error ",
	};
	struct vl_idl_gen_buf b = { .p = buf, .size = size - 1 };
	const struct vl_idl_member *m;

	if (!member) {
		vl_render_name(&b, idl->name, idl->name_len);
		vl_gen_str(&b, ":", 1);
		for (m = vl_idl_next_method(idl, NULL); m;
		     m = vl_idl_next_method(idl, m)) {
			vl_gen_str(&b, " ", 1);
			vl_render_name(&b, m->name, m->name_len);
		}
	} else {
		m = vl_idl_lookup(idl, member, strlen(member));
		if (!m)
			return false;
		vl_gen_str(&b, kinds[m->kind], 1);
		vl_render_name(&b, m->name, m->name_len);
		vl_render_type(&b, idl, m->type);
		if (m->kind == VL_IDL_METHOD) {
			vl_gen_str(&b, " -> ", 1);
			vl_render_type(&b, idl, m->out);
		}
	}
	buf[min(b.len, b.size)] = 0;
	return true;
}

static inline bool vl_kind_is_type(u8 kind)
{
	return kind >= VL_IDL_BOOL && kind <= VL_IDL_NAMED;
}

/* Check one node of a schema; NULL if consistent. */
static inline const char *vl_idl_check_node(const struct vl_idl *idl, u32 i)
{
	const struct vl_idl_node *n = vl_idl_node(idl, i), *e;
	u32 j, count = 0, required = 0;

	if (n->child >= idl->n_nodes || n->next >= idl->n_nodes)
		return "index out of range";
	if ((n->kind == VL_IDL_FIELD || n->kind == VL_IDL_VALUE) && n->flags)
		return "flags on an entry";
	switch (n->kind) {
	case VL_IDL_BOOL ... VL_IDL_ANY:
		return n->child ? "child of a leaf" : NULL;
	case VL_IDL_ARRAY:
	case VL_IDL_MAP:
	case VL_IDL_FIELD:
		if (!vl_kind_is_type(vl_idl_node(idl, n->child)->kind))
			return "child is not a type";
		return n->kind == VL_IDL_FIELD && !n->name_len ?
		       "field without name" : NULL;
	case VL_IDL_NAMED:
		e = vl_idl_node(idl, n->child);
		if (e->kind != VL_IDL_STRUCT && e->kind != VL_IDL_ENUM)
			return "unresolved name";
		return e->flags ? "flags on a named type" : NULL;
	case VL_IDL_VALUE:
		return n->name_len ? NULL : "value without name";
	case VL_IDL_STRUCT:
	case VL_IDL_ENUM:
		for (j = n->child; j && count <= VL_IDL_FIELDS_MAX;
		     j = vl_idl_node(idl, j)->next, count++) {
			e = vl_idl_node(idl, j);
			if (e->kind != (n->kind == VL_IDL_STRUCT ?
					VL_IDL_FIELD : VL_IDL_VALUE))
				return "wrong entry kind";
			if (e->kind == VL_IDL_FIELD &&
			    !(vl_idl_node(idl, e->child)->flags &
			      VL_IDL_NULLABLE))
				required++;
		}
		if (count != n->count)
			return "entry count";
		return required != n->required ? "required count" : NULL;
	default:
		return "bad node kind";
	}
}

/* Check the invariants of a schema; NULL if consistent. */
static inline const char *vl_idl_check_schema(const struct vl_idl *idl)
{
	const struct vl_idl_member *m;
	bool is_method, has_out;
	const char *err;
	u32 i;

	if (!idl->n_nodes || idl->nodes[0].kind != VL_IDL_NONE)
		return "node 0";
	if (!idl->n_members || !idl->name_len)
		return "empty interface";
	for (i = 1; i < idl->n_nodes; i++) {
		err = vl_idl_check_node(idl, i);
		if (err)
			return err;
	}
	for (m = idl->members; m < idl->members + idl->n_members; m++) {
		if (!m->type || m->type >= idl->n_nodes || m->out >= idl->n_nodes)
			return "member index out of range";
		if (vl_idl_node(idl, m->type)->kind != VL_IDL_STRUCT &&
		    (m->kind != VL_IDL_TYPE ||
		     vl_idl_node(idl, m->type)->kind != VL_IDL_ENUM))
			return "member type";
		is_method = m->kind == VL_IDL_METHOD;
		has_out = vl_idl_node(idl, m->out)->kind == VL_IDL_STRUCT;
		if (is_method != has_out)
			return "method result";
		if (vl_idl_lookup(idl, m->name, m->name_len) != m)
			return "lookup";
	}
	for (i = 1; i < idl->n_members; i++) {
		const struct vl_idl_member *a = idl->sorted[i - 1];
		const struct vl_idl_member *b = idl->sorted[i];
		int cmp = memcmp(a->name, b->name, min(a->name_len, b->name_len));

		if (cmp > 0 || (!cmp && a->name_len >= b->name_len))
			return "sort order";
	}
	return NULL;
}

#undef VL_H

#endif /* _VL_IDL_CASES_H */
