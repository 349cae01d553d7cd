/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The varlink interface description language (IDL): parser and schema.
 *
 * vl_idl_parse() turns the text of one interface description (UAPI.20
 * "Varlink IPC", the varlink.org grammar plus the "any" type) into a
 * schema: one allocation holding the members (types, methods, errors) and
 * a flat array of nodes that describe their types.  Names in the schema
 * are (pointer, length) slices into the text: the caller keeps the text
 * alive and unchanged for the life of the schema.  Provider modules pass a
 * static const string, which lives as long as their module.
 *
 * The node tree of a member:
 *   STRUCT  ->child is the first FIELD, FIELD ->next the following one;
 *           ->count fields, ->required of them not nullable
 *   ENUM    ->child is the first VALUE, VALUE ->next the following one
 *   FIELD   ->name, ->child is its type
 *   ARRAY   ->child is the element type ("[]T")
 *   MAP     ->child is the value type ("[string]T")
 *   NAMED   ->name is the referenced type, ->child its resolved node
 *           (the STRUCT or ENUM of a "type" member)
 *   BOOL, INT, FLOAT, STRING, OBJECT, ANY: leaves
 * A type node has VL_IDL_NULLABLE in ->flags when written "?T".
 * Index 0 is never a valid node: a ->child or ->next of 0 ends a list.
 *
 * The parser does not recurse: anonymous structs and enums are parsed
 * with an explicit stack of VL_IDL_DEPTH_MAX frames.  The schema is
 * immutable once parsed: any number of readers may use it concurrently.
 */
#ifndef _VL_IDL_H
#define _VL_IDL_H

#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/types.h>

#include "limits.h"

/**
 * enum vl_idl_kind - kind of a schema node
 * @VL_IDL_NONE: node 0, never used
 * @VL_IDL_BOOL: JSON true or false
 * @VL_IDL_INT: JSON integer in -2^63 .. 2^64-1
 * @VL_IDL_FLOAT: any JSON number
 * @VL_IDL_STRING: JSON string
 * @VL_IDL_OBJECT: any JSON object ("object", foreign data)
 * @VL_IDL_ANY: any JSON value but null
 * @VL_IDL_STRUCT: JSON object with the fields listed
 * @VL_IDL_ENUM: JSON string, one of the values listed
 * @VL_IDL_ARRAY: JSON array of ->child
 * @VL_IDL_MAP: JSON object with string keys and ->child values
 * @VL_IDL_NAMED: reference to a "type" member, resolved in ->child
 * @VL_IDL_FIELD: a field of a struct: ->name and type ->child
 * @VL_IDL_VALUE: a value of an enum: ->name
 */
enum vl_idl_kind {
	VL_IDL_NONE,
	VL_IDL_BOOL,
	VL_IDL_INT,
	VL_IDL_FLOAT,
	VL_IDL_STRING,
	VL_IDL_OBJECT,
	VL_IDL_ANY,
	VL_IDL_STRUCT,
	VL_IDL_ENUM,
	VL_IDL_ARRAY,
	VL_IDL_MAP,
	VL_IDL_NAMED,
	VL_IDL_FIELD,
	VL_IDL_VALUE,
};

/* vl_idl_node.flags */
#define VL_IDL_NULLABLE		0x01	/* "?T": the value may be null or absent */

/**
 * struct vl_idl_node - one node of a schema
 * @name: FIELD, VALUE, NAMED: the name, a slice of the IDL text
 * @child: see the description of the node tree in idl.h
 * @next: FIELD, VALUE: the next entry of the same struct or enum, or 0
 * @name_len: length of @name
 * @kind: &enum vl_idl_kind
 * @flags: VL_IDL_NULLABLE
 * @count: STRUCT, ENUM: number of entries
 * @required: STRUCT: number of fields whose type is not nullable
 */
struct vl_idl_node {
	const char *name;
	u32 child;
	u32 next;
	u16 name_len;
	u8 kind;
	u8 flags;
	u16 count;
	u16 required;
};

/**
 * enum vl_idl_member_kind - what a member of an interface declares
 * @VL_IDL_TYPE: "type Name (...)"
 * @VL_IDL_METHOD: "method Name(...) -> (...)"
 * @VL_IDL_ERROR: "error Name (...)"
 */
enum vl_idl_member_kind {
	VL_IDL_TYPE = 1,
	VL_IDL_METHOD,
	VL_IDL_ERROR,
};

/**
 * struct vl_idl_member - a type, method or error of an interface
 * @name: the member name, a slice of the IDL text
 * @name_len: length of @name
 * @kind: &enum vl_idl_member_kind
 * @type: TYPE: its STRUCT or ENUM node; METHOD: the input STRUCT;
 *	ERROR: the STRUCT of its parameters
 * @out: METHOD: the output STRUCT; 0 otherwise
 */
struct vl_idl_member {
	const char *name;
	u16 name_len;
	u8 kind;
	u32 type;
	u32 out;
};

/**
 * struct vl_idl - a parsed interface description
 * @name: the interface name, a slice of the IDL text
 * @name_len: length of @name
 * @n_members: number of entries in @members
 * @n_nodes: number of entries in @nodes, node 0 included
 * @members: the members in the order of the text
 * @sorted: the members sorted by name, for vl_idl_lookup()
 * @nodes: the type nodes
 */
struct vl_idl {
	const char *name;
	u16 name_len;
	u16 n_members;
	u32 n_nodes;
	const struct vl_idl_member *members;
	const struct vl_idl_member **sorted;
	const struct vl_idl_node *nodes;
};

/**
 * struct vl_idl_error - where and why an interface description is invalid
 * @line: line of the error, from 1
 * @col: column of the error, from 1, in characters (a tab is one)
 * @offset: byte offset of the error in the text
 * @msg: a short static message, e.g. "unknown type"
 * @token: the offending name or token (a slice of the text), or NULL
 * @token_len: length of @token
 */
struct vl_idl_error {
	int line;
	int col;
	size_t offset;
	const char *msg;
	const char *token;
	int token_len;
};

int vl_idl_parse(const char *text, size_t len, struct vl_idl **idlp,
		 struct vl_idl_error *err);
void vl_idl_free(struct vl_idl *idl);
bool vl_idl_is_interface_name(const char *s, size_t n);
const struct vl_idl_member *vl_idl_lookup(const struct vl_idl *idl,
					  const char *name, size_t len);
const struct vl_idl_node *vl_idl_find_field(const struct vl_idl *idl,
					    u32 strct, const char *name,
					    size_t len);

/**
 * vl_idl_name_cmp() - the order of names: by bytes, then by length
 * @a: a name; need not be NUL-terminated
 * @alen: length of @a
 * @b: another
 * @blen: length of @b
 *
 * The order vl_idl_lookup() searches members in, and the registry keeps
 * its interfaces in.
 *
 * Return: below, equal to or above 0 as @a sorts before, with or after @b.
 */
static inline int vl_idl_name_cmp(const char *a, size_t alen, const char *b,
				  size_t blen)
{
	int ret = memcmp(a, b, min(alen, blen));

	if (ret)
		return ret;
	return alen < blen ? -1 : alen > blen;
}

/**
 * vl_idl_node() - a node of a schema by index
 * @idl: the schema
 * @index: index of the node, from a ->child, ->next, ->type or ->out
 *
 * Return: the node; node 0 (kind VL_IDL_NONE) for index 0.
 */
static inline const struct vl_idl_node *vl_idl_node(const struct vl_idl *idl,
						    u32 index)
{
	return &idl->nodes[index];
}

/**
 * vl_idl_next_method() - iterate over the methods in the order of the text
 * @idl: the schema
 * @prev: the previous method, or NULL to start
 *
 *	for (m = vl_idl_next_method(idl, NULL); m; m = vl_idl_next_method(idl, m))
 *
 * Return: the method after @prev, or NULL after the last one.
 */
static inline const struct vl_idl_member *
vl_idl_next_method(const struct vl_idl *idl, const struct vl_idl_member *prev)
{
	const struct vl_idl_member *m = prev ? prev + 1 : idl->members;

	for (; m < idl->members + idl->n_members; m++) {
		if (m->kind == VL_IDL_METHOD)
			return m;
	}
	return NULL;
}

#endif /* _VL_IDL_H */
