/* SPDX-License-Identifier: GPL-2.0 */
/* One message, from its text to the callback: see dispatch.c. */
#ifndef _VL_DISPATCH_H
#define _VL_DISPATCH_H

#include <linux/types.h>

struct vl_conn_ops;
struct vl_json;

/* What a call's envelope says */
struct vl_envelope {
	u32 method;	/* token of the "method" string */
	u32 params;	/* token of "parameters", or VL_VALIDATE_ABSENT */
	bool more;
	bool oneway;
	bool upgrade;
};

/* What the connections' messages mean: calls */
extern const struct vl_conn_ops vl_dispatch_ops;

int vl_parse_envelope(const struct vl_json *js, struct vl_envelope *env);

#endif /* _VL_DISPATCH_H */
