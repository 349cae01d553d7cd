/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every limit of the varlink core, in one place.
 *
 * Values that an administrator may need to change are defaults for module
 * parameters (see params.c); the others are hard bounds.  The defaults that
 * userspace may rely on are published in uapi/linux/varlink.h, and checked
 * against these at build time.
 *
 * This header is self-contained so that the protocol core (json.c, jsonw.c,
 * idl.c, validate.c) also builds in userspace.
 */
#ifndef _VL_LIMITS_H
#define _VL_LIMITS_H

#include <linux/build_bug.h>

#include <uapi/linux/varlink.h>

enum vl_limits {
	/* one message, NUL included; module parameter max_message_size */
	VL_MSG_SIZE_DEFAULT		= 64 * 1024,
	VL_MSG_SIZE_MAX			= 16 * 1024 * 1024,

	/* the bounds of the other module parameters (params.h) */
	VL_OUTPUT_MAX			= 64 * 1024 * 1024,
	VL_CONN_MAX			= 65536,
	VL_STREAMS_MAX			= 1024,
	/* the server's work items running at once (conn.c, workers.c) */
	VL_WORKERS_MAX			= 256,
	/* 1/this of max_connections is kept for openers with CAP_SYS_ADMIN */
	VL_CONN_RESERVE_DIV		= 16,
	/* 1/this of max_streams is kept for callers with CAP_SYS_ADMIN */
	VL_STREAMS_RESERVE_DIV		= 8,
	/* 1/this of the workers is kept for openers with CAP_SYS_ADMIN */
	VL_WORKERS_RESERVE_DIV		= 8,

	/* JSON: nesting of arrays and objects; module parameter max_depth */
	VL_JSON_DEPTH_DEFAULT		= 32,
	VL_JSON_DEPTH_MAX		= 256,
	/* JSON: tokens in one message; module parameter max_tokens */
	VL_JSON_TOKENS_DEFAULT		= 8192,
	VL_JSON_TOKENS_MAX		= 1024 * 1024,

	/* IDL: description text, members, fields, type nesting, names */
	VL_IDL_SIZE_MAX			= 256 * 1024,
	VL_IDL_MEMBERS_MAX		= 1024,
	VL_IDL_FIELDS_MAX		= 256,
	VL_IDL_DEPTH_MAX		= 16,
	VL_NAME_MAX			= 255,
	/* IDL: schema nodes (types, fields, enum values) of one interface */
	VL_IDL_NODES_MAX		= 32768,
	/* Validation: containers nested in parameters that are checked
	 * (recursive types allow any depth); deeper values are invalid.
	 * With the default JSON depth a message never reaches it.
	 */
	VL_VALIDATE_DEPTH_MAX		= 32,
};

static_assert(VL_MSG_SIZE_DEFAULT == VARLINK_MESSAGE_SIZE_DEFAULT);
static_assert(VL_JSON_DEPTH_DEFAULT == VARLINK_JSON_DEPTH_DEFAULT);
static_assert(VL_JSON_TOKENS_DEFAULT == VARLINK_JSON_TOKENS_DEFAULT);

#endif /* _VL_LIMITS_H */
