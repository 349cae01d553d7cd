// SPDX-License-Identifier: GPL-2.0
/*
 * The varlink IDL parser.
 *
 * Three steps, each bounded by the limits in limits.h:
 *  1. check the whole text: size, UTF-8 (strict, as JSON strings are),
 *     no control characters but tab, CR and LF;
 *  2. parse it twice with the same code: the first pass only counts
 *     members and nodes and reports every syntax error, the second fills
 *     the single allocation sized by the first;
 *  3. semantic checks on the filled schema: duplicate members, fields and
 *     enum values, named types that must resolve to a "type" member.
 *     Of several semantic errors the one earliest in the text is reported.
 *
 * Grammar decisions (UAPI.20 / varlink.org):
 *  - whitespace is space, tab, CR and LF; "#" starts a comment up to LF;
 *    whitespace and comments may separate any two tokens (the grammar
 *    tolerates them between "?" or "[]" and the type as libvarlink does);
 *    "->", "[]" and "[string]" are single tokens;
 *  - the interface name and every member end with a line break: the
 *    next member must start on a new line (a comment ends with one);
 *  - an interface declares at least one member;
 *  - "(" ")" is an empty struct; a parenthesised list is an enum when its
 *    first entry has no ":", a struct otherwise, and may not mix both;
 *    trailing commas are refused;
 *  - "?" may precede any type but another "?";
 *  - method parameters, method results and error parameters are structs;
 *    a "type" is a struct or an enum;
 *  - names longer than VL_NAME_MAX are refused.
 *
 * No recursion: a struct or enum nested in a field type pushes a frame on
 * an explicit stack of VL_IDL_DEPTH_MAX entries; "[]" and "[string]" only
 * count towards the same depth, they need no frame.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "idl.h"
#include "utf8.h"

enum token {
	T_ERROR,
	T_EOF,
	T_WORD,		/* [A-Za-z0-9_][A-Za-z0-9_.-]* */
	T_LPAREN,
	T_RPAREN,
	T_COMMA,
	T_COLON,
	T_QUESTION,
	T_ARROW,	/* -> */
	T_ARRAY,	/* [] */
	T_MAP,		/* [string] */
};

/* An open "(": a struct or an enum whose entries are being parsed. */
struct idl_frame {
	u32 node;	/* the STRUCT or ENUM node */
	u32 last;	/* last entry added, 0 if none */
	u16 count;	/* entries so far */
	u8 kind;	/* VL_IDL_STRUCT, VL_IDL_ENUM, or VL_IDL_NONE: undecided */
	u8 depth;	/* nesting depth of the node, from 1 */
};

struct idl_parser {
	const char *text;
	const char *pos;	/* next byte to scan */
	const char *end;
	/* the current token */
	enum token tok;
	const char *tok_start;
	size_t tok_len;
	bool newline;		/* a line break precedes the current token */
	/* output; @members and @nodes are NULL in the counting pass */
	struct vl_idl_member *members;
	struct vl_idl_node *nodes;
	u32 max_nodes;
	u32 n_nodes;
	u16 max_members;
	u16 n_members;
	/* the first error */
	const char *err_pos;
	const char *err_msg;
	const char *err_tok;
	size_t err_tok_len;
	/* open parentheses */
	unsigned int sp;
	struct idl_frame stack[VL_IDL_DEPTH_MAX];
};

static int idl_fail_at(struct idl_parser *p, const char *pos, size_t len,
		       const char *msg)
{
	if (!p->err_msg || pos < p->err_pos) {
		p->err_pos = pos;
		p->err_msg = msg;
		p->err_tok = len ? pos : NULL;
		p->err_tok_len = len;
	}
	return -EINVAL;
}

/* Fail at the current token. */
static int idl_fail(struct idl_parser *p, const char *msg)
{
	size_t len = p->tok == T_EOF ? 0 : p->tok_len;

	return idl_fail_at(p, p->tok_start, len, msg);
}

/* --- step 1: the text as a whole --- */

static int check_text(struct idl_parser *p)
{
	const unsigned char *s = (const unsigned char *)p->text;
	size_t n = p->end - p->text, i = 0;
	int len;

	if (n > VL_IDL_SIZE_MAX)
		return idl_fail_at(p, p->text + VL_IDL_SIZE_MAX, 0,
			       "description too large");
	while (i < n) {
		if (s[i] == 0x7f ||
		    (s[i] < 0x20 && s[i] != '\t' && s[i] != '\n' && s[i] != '\r'))
			return idl_fail_at(p, p->text + i, 0,
					   "control character");
		len = vl_utf8_seq(s + i, n - i);
		if (len < 0)
			return idl_fail_at(p, p->text + i, 0, "invalid UTF-8");
		i += len;
	}
	return 0;
}

/* --- step 2: tokens --- */

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_alnum(char c)
{
	return is_alpha(c) || (c >= '0' && c <= '9');
}

static bool is_word(char c)
{
	return is_alnum(c) || c == '_' || c == '-' || c == '.';
}

static void skip_space(struct idl_parser *p)
{
	p->newline = false;
	while (p->pos < p->end) {
		char c = *p->pos;

		if (c == '#') {
			while (p->pos < p->end && *p->pos != '\n')
				p->pos++;
		} else if (c == '\n') {
			p->newline = true;
			p->pos++;
		} else if (c == ' ' || c == '\t' || c == '\r') {
			p->pos++;
		} else {
			break;
		}
	}
}

static bool starts_with(struct idl_parser *p, const char *lit, size_t len)
{
	return (size_t)(p->end - p->pos) >= len && !memcmp(p->pos, lit, len);
}

static enum token scan_punct(struct idl_parser *p)
{
	static const struct {
		const char *lit;
		u8 len;
		u8 tok;
	} punct[] = {
		{ "(", 1, T_LPAREN },
		{ ")", 1, T_RPAREN },
		{ ",", 1, T_COMMA },
		{ ":", 1, T_COLON },
		{ "?", 1, T_QUESTION },
		{ "->", 2, T_ARROW },
		{ "[]", 2, T_ARRAY },
		{ "[string]", 8, T_MAP },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(punct); i++) {
		if (starts_with(p, punct[i].lit, punct[i].len)) {
			p->pos += punct[i].len;
			p->tok_len = punct[i].len;
			return punct[i].tok;
		}
	}
	/* the text is valid UTF-8: report the whole character */
	p->tok_len = vl_utf8_seq((const u8 *)p->pos, p->end - p->pos);
	return T_ERROR;
}

/* Scan the next token; T_ERROR has failed already. */
static enum token next(struct idl_parser *p)
{
	skip_space(p);
	p->tok_start = p->pos;
	p->tok_len = 0;
	if (p->pos == p->end) {
		p->tok = T_EOF;
	} else if (is_alnum(*p->pos) || *p->pos == '_') {
		while (p->pos < p->end && is_word(*p->pos))
			p->pos++;
		p->tok_len = p->pos - p->tok_start;
		p->tok = T_WORD;
		if (p->tok_len > VL_NAME_MAX) {
			idl_fail(p, "name too long");
			p->tok = T_ERROR;
		}
	} else {
		p->tok = scan_punct(p);
		if (p->tok == T_ERROR)
			idl_fail(p, *p->tok_start == '[' ?
			     "expected '[]' or '[string]'" :
			     "unexpected character");
	}
	return p->tok;
}

static bool tok_is(struct idl_parser *p, const char *word)
{
	size_t len = strlen(word);

	return p->tok == T_WORD && p->tok_len == len &&
	       !memcmp(p->tok_start, word, len);
}

/* Scan the next token and expect it to be @tok. */
static int expect(struct idl_parser *p, enum token tok, const char *msg)
{
	if (next(p) == tok)
		return 0;
	return p->tok == T_ERROR ? -EINVAL : idl_fail(p, msg);
}

/* --- names (UAPI.20 regular expressions) --- */

/* [A-Za-z0-9]([-]*[A-Za-z0-9])* */
static size_t label_len(const char *s, size_t n)
{
	size_t i = 0;

	if (!n || !is_alnum(s[0]))
		return 0;
	for (i = 1; i < n && s[i] != '.'; i++) {
		if (s[i] != '-' && !is_alnum(s[i]))
			return 0;
	}
	return s[i - 1] == '-' ? 0 : i;
}

/**
 * vl_idl_is_interface_name() - whether a name is an interface name
 * @s: the name, not NUL-terminated
 * @n: bytes of @s
 *
 * The grammar of an "interface" line:
 * [A-Za-z]([-]*[A-Za-z0-9])*(\.[A-Za-z0-9]([-]*[A-Za-z0-9])*)+
 *
 * Return: true if @s matches it.
 */
bool vl_idl_is_interface_name(const char *s, size_t n)
{
	size_t i, len, labels = 0;

	if (!n || !is_alpha(s[0]))
		return false;
	for (i = 0; ; i += len + 1) {
		len = label_len(s + i, n - i);
		if (!len)
			return false;
		labels++;
		if (i + len == n)
			return labels >= 2;
	}
}

/* [A-Z][A-Za-z0-9]* */
static bool is_member_name(const char *s, size_t n)
{
	size_t i;

	if (!n || s[0] < 'A' || s[0] > 'Z')
		return false;
	for (i = 1; i < n; i++) {
		if (!is_alnum(s[i]))
			return false;
	}
	return true;
}

/* [A-Za-z](_?[A-Za-z0-9])* */
static bool is_field_name(const char *s, size_t n)
{
	size_t i;

	if (!n || !is_alpha(s[0]) || s[n - 1] == '_')
		return false;
	for (i = 1; i < n; i++) {
		if (s[i] == '_' && s[i - 1] != '_')
			continue;
		if (!is_alnum(s[i]))
			return false;
	}
	return true;
}

/* --- nodes --- */

static int node_new(struct idl_parser *p, enum vl_idl_kind kind, u8 flags,
		    u32 *index)
{
	struct vl_idl_node *n;

	if (p->n_nodes >= VL_IDL_NODES_MAX)
		return idl_fail(p, "description too complex");
	*index = p->n_nodes++;
	if (!p->nodes)
		return 0;
	if (*index >= p->max_nodes)
		return idl_fail(p, "internal error: node count");
	n = &p->nodes[*index];
	n->kind = kind;
	n->flags = flags;
	if (kind == VL_IDL_FIELD || kind == VL_IDL_VALUE ||
	    kind == VL_IDL_NAMED) {
		n->name = p->tok_start;
		n->name_len = p->tok_len;
	}
	return 0;
}

static void set_child(struct idl_parser *p, u32 parent, u32 child)
{
	if (p->nodes)
		p->nodes[parent].child = child;
}

/* Open a "(" (the current token) as node @index at @depth. */
static int idl_push(struct idl_parser *p, u32 index, unsigned int depth,
		    u8 kind)
{
	struct idl_frame *f;

	if (depth > VL_IDL_DEPTH_MAX || p->sp >= VL_IDL_DEPTH_MAX)
		return idl_fail(p, "types nested too deeply");
	f = &p->stack[p->sp++];
	f->node = index;
	f->last = 0;
	f->count = 0;
	f->kind = kind;
	f->depth = depth;
	return 0;
}

/* Add an entry (FIELD or VALUE, named by the current token) to @f. */
static int add_entry(struct idl_parser *p, struct idl_frame *f,
		     enum vl_idl_kind kind, u32 *index)
{
	int ret;

	if (f->count >= VL_IDL_FIELDS_MAX)
		return idl_fail(p, "too many fields");
	ret = node_new(p, kind, 0, index);
	if (ret)
		return ret;
	if (!f->last)
		set_child(p, f->node, *index);
	else if (p->nodes)
		p->nodes[f->last].next = *index;
	f->last = *index;
	f->count++;
	return 0;
}

static const struct {
	const char *word;
	enum vl_idl_kind kind;
} basic_types[] = {
	{ "bool", VL_IDL_BOOL },
	{ "int", VL_IDL_INT },
	{ "float", VL_IDL_FLOAT },
	{ "string", VL_IDL_STRING },
	{ "object", VL_IDL_OBJECT },
	{ "any", VL_IDL_ANY },
};

/* A type name: a basic type or a reference to a "type" member. */
static int type_word(struct idl_parser *p, u8 flags, u32 *index)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(basic_types); i++) {
		if (tok_is(p, basic_types[i].word))
			return node_new(p, basic_types[i].kind, flags, index);
	}
	if (!is_member_name(p->tok_start, p->tok_len))
		return idl_fail(p, "unknown type");
	return node_new(p, VL_IDL_NAMED, flags, index);
}

/* Parse the type of a field, after its ":", into the ->child of @slot.
 * Return 1 if it ends with an anonymous "(" (pushed, its entries follow),
 * 0 if complete, or a negative error.
 */
static int parse_type(struct idl_parser *p, u32 slot, unsigned int depth)
{
	u8 flags = 0;
	u32 index;
	int ret;

	for (;;) {
		switch (next(p)) {
		case T_QUESTION:
			if (flags)
				return idl_fail(p, "'?' twice");
			flags = VL_IDL_NULLABLE;
			continue;
		case T_ARRAY:
		case T_MAP:
			if (++depth > VL_IDL_DEPTH_MAX)
				return idl_fail(p, "types nested too deeply");
			ret = node_new(p, p->tok == T_ARRAY ? VL_IDL_ARRAY :
				       VL_IDL_MAP, flags, &index);
			if (ret)
				return ret;
			set_child(p, slot, index);
			slot = index;
			flags = 0;
			continue;
		case T_LPAREN:
			ret = node_new(p, VL_IDL_STRUCT, flags, &index);
			if (!ret)
				ret = idl_push(p, index, depth + 1,
					       VL_IDL_NONE);
			if (ret)
				return ret;
			set_child(p, slot, index);
			return 1;
		case T_WORD:
			ret = type_word(p, flags, &index);
			if (ret)
				return ret;
			set_child(p, slot, index);
			return 0;
		case T_ERROR:
			return -EINVAL;
		default:
			return idl_fail(p, "expected a type");
		}
	}
}

/* Parse one entry of the innermost open "(", starting at the current
 * token (a field name or an enum value).  Return 1 if a nested "(" was
 * pushed, 0 if the entry is complete and the token after it is current.
 */
static int parse_entry(struct idl_parser *p)
{
	struct idl_frame *f = &p->stack[p->sp - 1];
	u32 index;
	int ret;

	if (p->tok != T_WORD)
		return p->tok == T_ERROR ? -EINVAL :
		       idl_fail(p, "expected a field name");
	if (!is_field_name(p->tok_start, p->tok_len))
		return idl_fail(p, "invalid field name");
	if (f->kind == VL_IDL_NONE) {
		/* the first entry decides: a struct field has a ':' */
		skip_space(p);
		f->kind = starts_with(p, ":", 1) ? VL_IDL_STRUCT : VL_IDL_ENUM;
	}
	ret = add_entry(p, f, f->kind == VL_IDL_STRUCT ? VL_IDL_FIELD :
			VL_IDL_VALUE, &index);
	if (ret)
		return ret;
	if (f->kind == VL_IDL_ENUM) {
		if (next(p) == T_COLON)
			return idl_fail(p, "':' in an enum");
		return p->tok == T_ERROR ? -EINVAL : 0;
	}
	ret = expect(p, T_COLON, "expected ':'");
	if (ret)
		return ret;
	ret = parse_type(p, index, f->depth);
	if (ret)
		return ret;
	next(p);
	return p->tok == T_ERROR ? -EINVAL : 0;
}

/* Close the innermost "(" at the current ")". */
static void idl_pop(struct idl_parser *p)
{
	struct idl_frame *f = &p->stack[--p->sp];
	struct vl_idl_node *n;

	if (!p->nodes)
		return;
	n = &p->nodes[f->node];
	n->kind = f->kind == VL_IDL_ENUM ? VL_IDL_ENUM : VL_IDL_STRUCT;
	n->count = f->count;
}

/* Parse a parenthesised struct or enum; the current token is its "(".
 * @kind is VL_IDL_STRUCT if it must be a struct, VL_IDL_NONE if an enum
 * is fine too.  Iterative: nested "(" are pushed on p->stack.
 */
static int parse_parens(struct idl_parser *p, u8 kind, u32 *root)
{
	int ret;

	ret = node_new(p, VL_IDL_STRUCT, 0, root);
	if (!ret)
		ret = idl_push(p, *root, 1, kind);
	if (ret)
		return ret;
	next(p);
	if (p->tok == T_RPAREN) {
		idl_pop(p);
		return 0;
	}
	while (p->sp) {
		ret = parse_entry(p);
		if (ret < 0)
			return ret;
		if (ret > 0) {
			/* a nested "(": "()" or its first entry */
			if (next(p) != T_RPAREN)
				continue;
		}
		/* the entry is complete: "," or ")" (maybe several) */
		for (;;) {
			if (p->tok == T_COMMA) {
				next(p);
				break;
			}
			if (p->tok != T_RPAREN)
				return p->tok == T_ERROR ? -EINVAL :
				       idl_fail(p, "expected ',' or ')'");
			idl_pop(p);
			if (!p->sp)
				return 0;
			next(p);
		}
	}
	return 0;
}

/* --- members --- */

/* A new member named by the current token; its index in @index. */
static int member_new(struct idl_parser *p, enum vl_idl_member_kind kind,
		      u16 *index)
{
	struct vl_idl_member *m;

	if (p->n_members >= VL_IDL_MEMBERS_MAX)
		return idl_fail(p, "too many members");
	*index = p->n_members++;
	if (!p->members)
		return 0;
	if (*index >= p->max_members)
		return idl_fail(p, "internal error: member count");
	m = &p->members[*index];
	m->name = p->tok_start;
	m->name_len = p->tok_len;
	m->kind = kind;
	return 0;
}

static int parse_struct(struct idl_parser *p, u32 *index)
{
	int ret = expect(p, T_LPAREN, "expected '('");

	return ret ? ret : parse_parens(p, VL_IDL_STRUCT, index);
}

/* A member; the current token is its keyword. */
static int parse_member(struct idl_parser *p)
{
	enum vl_idl_member_kind kind;
	u32 type = 0, out = 0;
	u16 index;
	int ret;

	if (tok_is(p, "type"))
		kind = VL_IDL_TYPE;
	else if (tok_is(p, "method"))
		kind = VL_IDL_METHOD;
	else if (tok_is(p, "error"))
		kind = VL_IDL_ERROR;
	else
		return idl_fail(p, "expected 'type', 'method' or 'error'");

	if (next(p) != T_WORD)
		return p->tok == T_ERROR ? -EINVAL :
		       idl_fail(p, "expected a name");
	if (!is_member_name(p->tok_start, p->tok_len))
		return idl_fail(p, "invalid name");
	ret = member_new(p, kind, &index);
	if (ret)
		return ret;

	if (kind == VL_IDL_TYPE) {
		ret = expect(p, T_LPAREN, "expected '('");
		if (!ret)
			ret = parse_parens(p, VL_IDL_NONE, &type);
	} else {
		ret = parse_struct(p, &type);
		if (!ret && kind == VL_IDL_METHOD) {
			ret = expect(p, T_ARROW, "expected '->'");
			if (!ret)
				ret = parse_struct(p, &out);
		}
	}
	if (!ret && p->members) {
		p->members[index].type = type;
		p->members[index].out = out;
	}
	return ret;
}

static int parse(struct idl_parser *p, const char **name, size_t *name_len)
{
	int ret;

	p->pos = p->text;
	p->n_nodes = 1;		/* node 0 is the end of every list */
	p->n_members = 0;
	p->sp = 0;

	next(p);
	if (!tok_is(p, "interface"))
		return p->tok == T_ERROR ? -EINVAL :
		       idl_fail(p, "expected 'interface'");
	if (next(p) != T_WORD || !vl_idl_is_interface_name(p->tok_start, p->tok_len))
		return p->tok == T_ERROR ? -EINVAL :
		       idl_fail(p, "invalid interface name");
	*name = p->tok_start;
	*name_len = p->tok_len;

	for (;;) {
		if (next(p) == T_EOF)
			break;
		if (p->tok == T_ERROR)
			return -EINVAL;
		if (!p->newline)
			return idl_fail(p, "expected a line break");
		ret = parse_member(p);
		if (ret)
			return ret;
	}
	if (!p->n_members)
		return idl_fail(p, "no type, method or error");
	return 0;
}

/* --- step 3: semantic checks --- */

static bool name_eq(const char *a, size_t alen, const char *b, size_t blen)
{
	return alen == blen && !memcmp(a, b, alen);
}

static int member_cmp(const void *a, const void *b)
{
	const struct vl_idl_member *x = *(const struct vl_idl_member **)a;
	const struct vl_idl_member *y = *(const struct vl_idl_member **)b;
	int ret = vl_idl_name_cmp(x->name, x->name_len, y->name, y->name_len);

	/* equal names: text order, so that the later one is the duplicate */
	if (!ret)
		ret = x->name < y->name ? -1 : 1;
	return ret;
}

static void check_members(struct idl_parser *p, struct vl_idl *idl)
{
	const struct vl_idl_member **s = idl->sorted;
	unsigned int i;

	for (i = 0; i < idl->n_members; i++)
		s[i] = &idl->members[i];
	sort(s, idl->n_members, sizeof(*s), member_cmp, NULL);
	for (i = 1; i < idl->n_members; i++) {
		if (name_eq(s[i]->name, s[i]->name_len,
			    s[i - 1]->name, s[i - 1]->name_len))
			idl_fail_at(p, s[i]->name, s[i]->name_len,
				    "duplicate name");
	}
}

/* Duplicate entries of a struct or enum; count the required fields. */
static void check_entries(struct idl_parser *p, struct vl_idl_node *n)
{
	struct vl_idl_node *nodes = p->nodes, *a, *b;
	u32 i, j;

	n->required = 0;
	for (i = n->child; i; i = a->next) {
		a = &nodes[i];
		if (a->kind == VL_IDL_FIELD &&
		    !(nodes[a->child].flags & VL_IDL_NULLABLE))
			n->required++;
		for (j = n->child; j != i; j = b->next) {
			b = &nodes[j];
			if (name_eq(a->name, a->name_len, b->name, b->name_len)) {
				idl_fail_at(p, a->name, a->name_len,
					    a->kind == VL_IDL_FIELD ?
					    "duplicate field" :
					    "duplicate enum value");
				break;
			}
		}
	}
}

static void resolve(struct idl_parser *p, const struct vl_idl *idl,
		    struct vl_idl_node *n)
{
	const struct vl_idl_member *m;

	m = vl_idl_lookup(idl, n->name, n->name_len);
	if (!m)
		idl_fail_at(p, n->name, n->name_len, "unknown type");
	else if (m->kind != VL_IDL_TYPE)
		idl_fail_at(p, n->name, n->name_len, "not a type");
	else
		n->child = m->type;
}

static int check(struct idl_parser *p, struct vl_idl *idl)
{
	u32 i;

	check_members(p, idl);
	for (i = 1; i < p->n_nodes; i++) {
		struct vl_idl_node *n = &p->nodes[i];

		if (n->kind == VL_IDL_STRUCT || n->kind == VL_IDL_ENUM)
			check_entries(p, n);
		else if (n->kind == VL_IDL_NAMED)
			resolve(p, idl, n);
	}
	return p->err_msg ? -EINVAL : 0;
}

/* --- the API --- */

static void set_error(struct idl_parser *p, struct vl_idl_error *err)
{
	const char *s;
	int line = 1, col = 1;

	for (s = p->text; s < p->err_pos; s++) {
		if (*s == '\n') {
			line++;
			col = 1;
		} else if (((unsigned char)*s & 0xc0) != 0x80) {
			col++;	/* count characters, not continuation bytes */
		}
	}
	err->line = line;
	err->col = col;
	err->offset = p->err_pos - p->text;
	err->msg = p->err_msg;
	err->token = p->err_tok;
	err->token_len = p->err_tok_len;
}

static struct vl_idl *idl_alloc(struct idl_parser *p)
{
	struct vl_idl *idl;
	size_t members, sorted, nodes;
	char *mem;

	/* all counts are bounded by limits.h: no overflow */
	members = array_size(p->n_members, sizeof(struct vl_idl_member));
	sorted = array_size(p->n_members, sizeof(struct vl_idl_member *));
	nodes = array_size(p->n_nodes, sizeof(struct vl_idl_node));
	mem = kvzalloc(size_add(size_add(sizeof(*idl), members),
				size_add(sorted, nodes)), GFP_KERNEL);
	if (!mem)
		return NULL;
	idl = (struct vl_idl *)mem;
	p->members = (struct vl_idl_member *)(mem + sizeof(*idl));
	idl->sorted = (const struct vl_idl_member **)(mem + sizeof(*idl) +
						      members);
	p->nodes = (struct vl_idl_node *)(mem + sizeof(*idl) + members +
					  sorted);
	p->max_members = p->n_members;
	p->max_nodes = p->n_nodes;
	idl->members = p->members;
	idl->nodes = p->nodes;
	return idl;
}

/**
 * vl_idl_parse() - parse an interface description into a schema
 * @text: the description; need not be NUL-terminated
 * @len: length of @text in bytes, at most VL_IDL_SIZE_MAX
 * @idlp: set to the new schema on success, to NULL on failure
 * @err: set to the position and reason of the first error on -EINVAL
 *
 * The schema refers to @text (names are slices of it): the caller keeps
 * @text alive and unchanged until vl_idl_free().  Context: process
 * context, may sleep (one GFP_KERNEL allocation).
 *
 * Return: 0 on success; -EINVAL if @text is not a valid description (then
 * @err says where and why); -ENOMEM.
 */
int vl_idl_parse(const char *text, size_t len, struct vl_idl **idlp,
		 struct vl_idl_error *err)
{
	struct idl_parser p = { .text = text, .end = text + len };
	struct vl_idl *idl = NULL;
	const char *name;
	size_t name_len;
	int ret;

	*idlp = NULL;
	memset(err, 0, sizeof(*err));
	ret = check_text(&p);
	if (!ret)
		ret = parse(&p, &name, &name_len);	/* count */
	if (!ret) {
		idl = idl_alloc(&p);
		if (!idl)
			return -ENOMEM;
		ret = parse(&p, &name, &name_len);	/* fill */
	}
	if (!ret) {
		idl->name = name;
		idl->name_len = name_len;
		idl->n_members = p.n_members;
		idl->n_nodes = p.n_nodes;
		ret = check(&p, idl);
	}
	if (ret) {
		set_error(&p, err);
		kvfree(idl);
		return ret;
	}
	*idlp = idl;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vl_idl_parse);

/**
 * vl_idl_free() - free a schema from vl_idl_parse()
 * @idl: the schema, or NULL
 */
void vl_idl_free(struct vl_idl *idl)
{
	kvfree(idl);
}
EXPORT_SYMBOL_IF_KUNIT(vl_idl_free);

/**
 * vl_idl_lookup() - find a member (type, method or error) by name
 * @idl: the schema
 * @name: the name, e.g. "GetInfo"; need not be NUL-terminated
 * @len: length of @name
 *
 * Binary search, O(log n).  The caller checks ->kind.
 *
 * Return: the member, or NULL if the interface declares no such name.
 */
const struct vl_idl_member *
vl_idl_lookup(const struct vl_idl *idl, const char *name, size_t len)
{
	unsigned int lo = 0, hi = idl->n_members;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		const struct vl_idl_member *m = idl->sorted[mid];
		int cmp = vl_idl_name_cmp(name, len, m->name, m->name_len);

		if (!cmp)
			return m;
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(vl_idl_lookup);

/**
 * vl_idl_find_field() - find a field of a struct by name
 * @idl: the schema
 * @strct: index of a STRUCT node of @idl
 * @name: the field name; need not be NUL-terminated
 * @len: length of @name
 *
 * Linear in the fields of the struct, at most VL_IDL_FIELDS_MAX.
 *
 * Return: the FIELD node, or NULL if the struct has no such field.
 */
const struct vl_idl_node *vl_idl_find_field(const struct vl_idl *idl,
					    u32 strct, const char *name,
					    size_t len)
{
	const struct vl_idl_node *f;
	u32 i;

	for (i = vl_idl_node(idl, strct)->child; i; i = f->next) {
		f = vl_idl_node(idl, i);
		if (name_eq(f->name, f->name_len, name, len))
			return f;
	}
	return NULL;
}
