// SPDX-License-Identifier: GPL-2.0
/*
 * Stream quotas: how many calls made with "more" to VARLINK_STREAM
 * methods run at once, and whose.
 *
 * A stream holds what its provider keeps for it (a subscription, a
 * position in a replay, often a worker while its client reads slowly)
 * until its final reply, for as long as its client likes.  So streams
 * are one pool for the whole system, whichever interface serves them:
 * at most max_streams at once, the last max_streams / 8 of them kept for
 * callers with CAP_SYS_ADMIN in the initial user namespace (root of a
 * container, or of a user namespace anybody can make, holds it in its
 * own namespace only, and must not take the host's reserve).  A caller
 * without it runs at most max_streams_per_user, counted by
 * varlink_call_user() within its varlink_call_tenant() as connections
 * are (admission.c), and a container at most max_streams_per_container,
 * all its users together.
 *
 * A stream is admitted before its callback runs (dispatch.c) and counts
 * until its final reply (call.c); it is on the list under streams_lock,
 * which a few hundred entries at most keep short to walk.
 */
#include <linux/capability.h>
#include <linux/list.h>
#include <linux/spinlock.h>

#include "internal.h"
#include "params.h"
#include "peer.h"

static DEFINE_SPINLOCK(streams_lock);
static LIST_HEAD(streams);
static unsigned int n_streams;

/* The streams of @call's user in its tenant, and of its tenant */
static void streams_count(const struct varlink_call *call,
			  unsigned int *user, unsigned int *tenant)
{
	const struct varlink_call *s;

	lockdep_assert_held(&streams_lock);
	*user = 0;
	*tenant = 0;
	list_for_each_entry(s, &streams, stream_node) {
		if (s->stream_tenant != call->stream_tenant)
			continue;
		(*tenant)++;
		*user += uid_eq(s->stream_user, call->stream_user);
	}
}

/**
 * vl_stream_admit() - count a new stream, or refuse it
 * @call: a call made with "more" to a VARLINK_STREAM method, routed and
 *	permitted, before its callback runs
 *
 * Return: true if the stream may run; false once the call is finished
 * with org.kernel.varlink.TooManyStreams.
 */
bool vl_stream_admit(struct varlink_call *call)
{
	bool admin = varlink_call_capable(call, CAP_SYS_ADMIN);
	unsigned int max = vl_config.max_streams;
	bool user_full = false, tenant_full = false;
	unsigned int user, tenant;

	if (!admin)
		max -= max / VL_STREAMS_RESERVE_DIV;
	call->stream_user = varlink_call_user(call);
	call->stream_tenant = varlink_call_tenant(call);

	spin_lock(&streams_lock);
	if (!admin) {
		streams_count(call, &user, &tenant);
		user_full = user >= vl_config.max_streams_per_user;
		tenant_full = call->stream_tenant &&
			      tenant >= vl_config.max_streams_per_container;
	}
	if (n_streams < max && !user_full && !tenant_full) {
		list_add_tail(&call->stream_node, &streams);
		n_streams++;
		set_bit(VL_CALL_STREAM, &call->flags);
	}
	spin_unlock(&streams_lock);
	if (test_bit(VL_CALL_STREAM, &call->flags))
		return true;

	varlink_put_s64(call, "max", max);
	if (user_full)
		varlink_put_s64(call, "max_per_user",
				vl_config.max_streams_per_user);
	if (tenant_full)
		varlink_put_s64(call, "max_per_container",
				vl_config.max_streams_per_container);
	varlink_error(call, "org.kernel.varlink.TooManyStreams");
	return false;
}

/**
 * vl_stream_leave() - a stream sent its final reply
 * @call: the call, admitted by vl_stream_admit() or not
 */
void vl_stream_leave(struct varlink_call *call)
{
	if (!test_and_clear_bit(VL_CALL_STREAM, &call->flags))
		return;
	spin_lock(&streams_lock);
	list_del(&call->stream_node);
	n_streams--;
	spin_unlock(&streams_lock);
}
