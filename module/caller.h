/* SPDX-License-Identifier: GPL-2.0 */
/* What a call's caller may do: see caller.c. */
#ifndef _VL_CALLER_H
#define _VL_CALLER_H

#include <linux/types.h>

struct cred;
struct user_namespace;
struct varlink_call;

bool vl_cred_capable(const struct cred *cred, struct user_namespace *ns,
		     int cap);
bool vl_cred_caps_within(const struct cred *a, const struct cred *b);
bool vl_call_permitted(const struct varlink_call *call);
const struct cred *vl_call_lesser_cred(const struct varlink_call *call,
				       const struct cred **other);

#endif /* _VL_CALLER_H */
