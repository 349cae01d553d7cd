/* SPDX-License-Identifier: GPL-2.0 */
/* A call, its lifetime and its replies: see call.c. */
#ifndef _VL_CALL_H
#define _VL_CALL_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/varlink.h>

#include "json.h"
#include "jsonw.h"

#define VL_ERR(name)	"org.varlink.service." name
#define VL_SYSTEM_ERROR	"org.kernel.varlink.SystemError"

struct vl_conn;
struct vl_iface;
struct vl_idl_member;
struct vl_peer;
struct vl_sender;

enum vl_call_flags {
	VL_CALL_MORE,		/* called with "more" */
	VL_CALL_ONEWAY,		/* called with "oneway": nothing is sent */
	VL_CALL_DONE,		/* the final reply was sent */
	VL_CALL_CANCELLED,	/* the cancel callback ran, or will */
	VL_CALL_GONE,		/* the client went away: send nothing */
	VL_CALL_STREAM,		/* counted by streams.c */
};

/* What a call carries inline, so that most messages allocate nothing. */
enum {
	VL_CALL_PARAMS_INLINE	= 128,	/* bytes of a method's parameters */
	VL_CALL_REPLY_INLINE	= 512,	/* bytes of a reply */
	VL_CALL_TOKENS_INLINE	= 48,	/* tokens of a message */
};

/**
 * struct varlink_call - one message, and then one call until its final
 *	reply
 * @ref: the provider's reference until the final reply, plus temporary ones
 * @conn: the connection (a reference)
 * @peer: who opened @conn, in @conn (see peer.c)
 * @caller: who made the call, for the provider: @peer's, and the
 *	sender's credentials (a reference, or NULL if unknown, see
 *	vl_sender_cred())
 * @sender_pid: the thread group that wrote the call (a reference), or NULL
 * @iface: the interface (a reference), once the message is routed
 * @method: the provider's method, once routed
 * @member: the method in the interface's IDL, once routed
 * @flags: VL_CALL_*
 * @lock: serialises replies and the cancel callback's registration
 * @cancel: the provider's cancel callback, or NULL
 * @release: frees @cancel_data when the call is freed, or NULL
 * @cancel_data: their argument
 * @stream: the call's stream, once varlink_stream_start() set it (under
 *	@lock)
 * @iface_node: on @iface->calls while the call is not finished
 * @stream_node: on streams.c's list while VL_CALL_STREAM is set
 * @runner: the task in the method's callback or its stream's run, while
 *	it runs: its replies with "continues" are batched (vl_conn_send())
 * @w: the next reply, written up to its parameters, an open object
 * @params: the decoded parameters, if they fit
 * @reply: @w's buffer, while the reply fits
 * @toks: the message's tokens, if they fit; the message is parsed before
 *	it becomes a call
 *
 * Calls come from a per-CPU cache (cache.c) and are not zeroed: @params
 * and what follows are scratch memory.
 */
struct varlink_call {
	refcount_t ref;
	struct vl_conn *conn;
	const struct vl_peer *peer;
	struct varlink_caller caller;
	struct pid *sender_pid;
	struct vl_iface *iface;
	const struct varlink_method *method;
	const struct vl_idl_member *member;
	unsigned long flags;
	struct mutex lock;	/* replies, cancel */
	void (*cancel)(struct varlink_call *call, void *data);
	void (*release)(void *data);
	void *cancel_data;
	struct varlink_stream *stream;
	struct list_head iface_node;
	struct list_head stream_node;
	struct task_struct *runner;
	struct vl_jsonw w;
	u64 params[VL_CALL_PARAMS_INLINE / sizeof(u64)];
	char reply[VL_CALL_REPLY_INLINE];
	struct vl_json_tok toks[VL_CALL_TOKENS_INLINE];
};

int vl_call_init(void);
void vl_call_exit(void);
struct varlink_call *vl_call_alloc(struct vl_conn *conn,
				   const struct vl_peer *peer,
				   const struct vl_sender *sender);
void vl_call_get(struct varlink_call *call);
void vl_call_put(struct varlink_call *call);
void vl_call_cancel(struct varlink_call *call, bool gone);
bool vl_call_track(struct varlink_call *call);
void vl_calls_cancel(struct vl_iface *iface);
void vl_call_finish_errno(struct varlink_call *call, int ret);
void vl_call_abandon(struct varlink_call *call);
void vl_call_reply_reset(struct varlink_call *call);
void vl_call_put_members(struct varlink_call *call, const char *json,
			 size_t len);

#endif /* _VL_CALL_H */
