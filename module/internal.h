/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces of the varlink core, shared between its files.
 * Provider modules include varlink.h only.
 */
#ifndef _VL_INTERNAL_H
#define _VL_INTERNAL_H

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/refcount.h>
#include <linux/srcu.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "idl.h"
#include "json.h"
#include "jsonw.h"
#include "limits.h"
#include <linux/varlink.h>

/* cache.c: per-CPU caches of per-message memory */
#define VL_CACHE_SLOTS	2	/* objects kept per CPU */

struct vl_cache_slots {
	void *obj[VL_CACHE_SLOTS];
};

struct vl_cache {
	struct kmem_cache *slab;
	struct vl_cache_slots __percpu *slots;
};

int vl_cache_init(struct vl_cache *c, const char *name, size_t size);
void vl_cache_destroy(struct vl_cache *c);
void *vl_cache_alloc(struct vl_cache *c, gfp_t gfp);
void vl_cache_free(struct vl_cache *c, void *obj);

/* server.c */
int vl_server_start(const char *name, bool init_net_only);
void vl_server_stop(void);
const char *vl_server_name(void);
bool vl_server_init_net_only(void);

/* conn.c: one client connection */
struct socket;
struct vl_conn;

/* conn.c: the connections; vl_callbacks_srcu covers the socket callbacks */
extern struct srcu_struct vl_callbacks_srcu;
int vl_conn_init(void);
void vl_conn_exit(void);
int vl_conn_create(struct socket *sock, struct workqueue_struct *wq);
void vl_conn_shutdown_all(void);
void vl_conn_get(struct vl_conn *conn);
void vl_conn_put(struct vl_conn *conn);
int vl_conn_send(struct vl_conn *conn, const char *msg, size_t len,
		 bool hold);
int vl_conn_wait_output(struct vl_conn *conn, const unsigned long *call_flags);
void vl_conn_wake_output(struct vl_conn *conn);
void vl_conn_close(struct vl_conn *conn);
void vl_conn_call_start(struct vl_conn *conn, struct varlink_call *call);
void vl_conn_call_done(struct vl_conn *conn, struct varlink_call *call);

/* registry.c: the registered interfaces */
struct vl_iface;

/* A method in the registry's hash table of full method names */
struct vl_method_slot {
	struct hlist_node node;
	struct vl_iface *iface;
	const struct vl_idl_member *member;
	u32 hash;
};

struct vl_iface {
	struct list_head node;
	const struct varlink_interface *desc;
	struct module *owner;
	struct vl_idl *idl;
	const struct varlink_method **methods;	/* by IDL member index */
	struct vl_method_slot *slots;		/* one per method */
	struct varlink_json description;	/* the IDL as a JSON string */
	refcount_t ref;
	spinlock_t lock;			/* protects @calls */
	struct list_head calls;			/* calls not finished yet */
	bool dead;				/* under @lock */
	struct rcu_head rcu;
};

struct vl_iface *vl_iface_get(const char *name, size_t len);
struct vl_iface *vl_method_get(const char *name, size_t len,
			       const struct net *net,
			       const struct vl_idl_member **member);
void vl_iface_put(struct vl_iface *iface);
bool vl_iface_served_in(const struct vl_iface *iface, const struct net *net);
struct vl_iface *vl_iface_get_served(const char *name, size_t len,
				     const struct net *net);
bool vl_iface_track_call(struct vl_iface *iface, struct varlink_call *call);
void vl_iface_untrack_call(struct vl_iface *iface, struct varlink_call *call);
unsigned long vl_registry_for_each(void (*fn)(const struct vl_iface *iface,
					      void *data),
				   void *data);
unsigned long vl_registry_gen(void);
void vl_registry_exit(void);

/* test_hooks.c: delays the selftests inject, in test builds only */
enum vl_test_delay {
	VL_TEST_SENDER_DELAY,	/* a sender lingers once served inline */
	VL_TEST_CANCEL_DELAY,	/* before a call's cancel callback */
	VL_TEST_CALLBACK_DELAY,	/* a task lingers in a socket callback */
	VL_TEST_FDS_DELAY,	/* a writer lingers before the check of fds */
	VL_TEST_DELAYS
};

extern u32 vl_test_delay_ms[VL_TEST_DELAYS];
void vl_test_hooks_init(void);
void vl_test_hooks_exit(void);

/* Sleep as long as the selftests asked at this point, in test builds.
 * Socket callbacks also run in softirq context: there it does not sleep.
 */
static inline void vl_test_delay(enum vl_test_delay which)
{
	u32 ms;

	if (!IS_ENABLED(CONFIG_VARLINK_TEST_PROVIDER))
		return;
	ms = READ_ONCE(vl_test_delay_ms[which]);
	if (ms && preemptible())
		msleep(ms);
}

/* call.c: a call, its lifetime and its replies */
#define VL_ERR(name)	"org.varlink.service." name
#define VL_SYSTEM_ERROR	"org.kernel.varlink.SystemError"

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
 * @sender: the credentials of the task that wrote the call (a reference),
 *	or NULL if unknown, see vl_sender_cred()
 * @sender_pid: the thread group that wrote the call (a reference), or NULL
 * @iface: the interface (a reference), once the message is routed
 * @method: the provider's method, once routed
 * @member: the method in the interface's IDL, once routed
 * @flags: VL_CALL_*
 * @lock: serialises replies and the cancel callback's registration
 * @cancel: the provider's cancel callback, or NULL
 * @release: frees @cancel_data when the call is freed, or NULL
 * @cancel_data: their argument
 * @iface_node: on @iface->calls while the call is not finished
 * @stream_node: on streams.c's list while VL_CALL_STREAM is set
 * @stream_user: varlink_call_user(), for streams.c
 * @stream_tenant: varlink_call_tenant(), for streams.c
 * @runner: the task in the method's callback, while it runs: its
 *	replies with "continues" are batched (vl_conn_send())
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
	const struct cred *sender;
	struct pid *sender_pid;
	struct vl_iface *iface;
	const struct varlink_method *method;
	const struct vl_idl_member *member;
	unsigned long flags;
	struct mutex lock;	/* replies, cancel */
	void (*cancel)(struct varlink_call *call, void *data);
	void (*release)(void *data);
	void *cancel_data;
	struct list_head iface_node;
	struct list_head stream_node;
	kuid_t stream_user;
	const void *stream_tenant;
	struct task_struct *runner;
	struct vl_jsonw w;
	u64 params[VL_CALL_PARAMS_INLINE / sizeof(u64)];
	char reply[VL_CALL_REPLY_INLINE];
	struct vl_json_tok toks[VL_CALL_TOKENS_INLINE];
};

int vl_call_init(void);
void vl_call_exit(void);
struct vl_peer;
struct vl_sender;
struct varlink_call *vl_call_alloc(struct vl_conn *conn,
				   const struct vl_peer *peer,
				   const struct vl_sender *sender);
void vl_call_get(struct varlink_call *call);
void vl_call_put(struct varlink_call *call);
void vl_call_cancel(struct varlink_call *call, bool gone);
void vl_call_finish_errno(struct varlink_call *call, int ret);
void vl_call_put_members(struct varlink_call *call, const char *json,
			 size_t len);

/* streams.c: the quotas of VARLINK_STREAM calls */
bool vl_stream_admit(struct varlink_call *call);
void vl_stream_leave(struct varlink_call *call);

/* files.c: the internal mounts, and kernel handlers run outside a
 * system call
 */
int vl_files_init(void);
int vl_errno_user(int err);
void vl_kthread_unsignal(void);
void vl_files_exit(void);

/* dispatch.c: one message, from its text to the callback */
struct vl_envelope {
	u32 method;	/* token of the "method" string */
	u32 params;	/* token of "parameters", or VL_VALIDATE_ABSENT */
	bool more;
	bool oneway;
	bool upgrade;
};

int vl_parse_envelope(const struct vl_json *js, struct vl_envelope *env);
int vl_dispatch(struct vl_conn *conn, const struct vl_peer *peer,
		const struct vl_sender *sender, char *msg, size_t len,
		bool in_caller);

/* service.c: org.varlink.service and org.kernel.varlink */
int vl_service_init(void);
void vl_service_exit(void);

#endif /* _VL_INTERNAL_H */
