// SPDX-License-Identifier: GPL-2.0
/*
 * A call, from the message that made it to its final reply: its lifetime,
 * what a provider may ask of it, and the replies, the road out.
 *
 * Each message gets a &struct varlink_call from a per-CPU cache before it
 * is parsed (dispatch.c, the road in): the call holds the message's
 * tokens, its decoded parameters and the buffer its reply is written to,
 * as long as they fit.  The reply is written in place, its envelope
 * around its parameters, and handed to the connection from there: a call
 * that fits allocates nothing.
 *
 * A call is finished by exactly one final reply, varlink_reply() or
 * varlink_error(), which drops the provider's reference; replies and the
 * cancel callback are serialised by the call's @lock.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "cache.h"
#include "call.h"
#include "compat.h"
#include "conn.h"
#include "files.h"
#include "params.h"
#include "peer.h"
#include "registry.h"
#include "sender.h"
#include "stats.h"
#include "streams.h"
#include "test_hooks.h"
#include "validate.h"

/* A reply starts so; the object of its parameters follows. */
#define REPLY_HEAD	"{\"parameters\":"
#define REPLY_PARAMS	(sizeof(REPLY_HEAD) - 1)

static struct vl_cache call_cache;

/* REPLY_HEAD and the object of the parameters opened: every reply's start,
 * written once by vl_call_init()
 */
static struct vl_jsonw reply_head;
static char reply_head_buf[32];

/**
 * vl_call_reply_reset() - start the next reply afresh
 * @call: the call
 *
 * Drops what was written for it, and its error.
 */
void vl_call_reply_reset(struct varlink_call *call)
{
	vl_jsonw_release(&call->w);
	vl_jsonw_init_copy(&call->w, &reply_head, call->reply,
			   sizeof(call->reply));
}

/**
 * vl_call_alloc() - a new call for a message of a connection
 * @conn: the connection; the call takes a reference
 * @peer: who opened @conn, read until the call is freed
 * @sender: who wrote the message, or NULL if more than one process did
 *
 * Context: process context, under @conn's io_lock, while the message is
 * read: @sender changes with the next read.
 * Return: the call, with one reference, or NULL.
 */
struct varlink_call *vl_call_alloc(struct vl_conn *conn,
				   const struct vl_peer *peer,
				   const struct vl_sender *sender)
{
	struct varlink_call *call = vl_cache_alloc(&call_cache, GFP_KERNEL);

	if (!call)
		return NULL;
	memset(call, 0, offsetof(struct varlink_call, params));
	refcount_set(&call->ref, 1);
	mutex_init(&call->lock);
	INIT_LIST_HEAD(&call->iface_node);
	vl_conn_get(conn);
	call->conn = conn;
	call->peer = peer;
	vl_peer_caller(peer, &call->caller);
	if (sender && sender->pid) {
		call->sender_pid = get_pid(sender->pid);
		call->caller.sender_cred = vl_sender_cred(sender);
	}
	vl_call_reply_reset(call);
	return call;
}

void vl_call_get(struct varlink_call *call)
{
	refcount_inc(&call->ref);
}

void vl_call_put(struct varlink_call *call)
{
	if (!refcount_dec_and_test(&call->ref))
		return;
	vl_jsonw_release(&call->w);
	/* before the interface reference: the provider is still there */
	if (call->release)
		call->release(call->cancel_data);
	if (call->iface)
		vl_iface_put(call->iface);
	vl_conn_put(call->conn);
	put_cred(call->caller.sender_cred);
	put_pid(call->sender_pid);
	mutex_destroy(&call->lock);
	vl_cache_free(&call_cache, call);
}

/**
 * vl_call_cancel() - ask the provider to end a call now
 * @call: a call the caller holds a reference on
 * @gone: the client went away: nothing more is sent for this call;
 *	otherwise the interface is being unregistered, and the final reply
 *	still reaches the client
 *
 * A stream is ended now (streams.c).  Otherwise the cancel callback runs
 * once, if the provider set one and the call is not finished, and the
 * provider still ends the call with a final reply.
 */
void vl_call_cancel(struct varlink_call *call, bool gone)
{
	void (*cancel)(struct varlink_call *call, void *data);

	mutex_lock(&call->lock);
	if (gone)
		set_bit(VL_CALL_GONE, &call->flags);
	if (test_bit(VL_CALL_DONE, &call->flags) ||
	    test_and_set_bit(VL_CALL_CANCELLED, &call->flags))
		cancel = NULL;
	else
		cancel = call->cancel;
	mutex_unlock(&call->lock);
	if (vl_stream_cancel(call, gone) || !cancel)
		return;
	/* the final reply may come meanwhile: the tests make sure it does */
	vl_test_delay(VL_TEST_CANCEL_DELAY);
	cancel(call, call->cancel_data);
}

/**
 * vl_call_track() - remember a call that is not finished yet
 * @call: a routed call, which holds a reference on its interface
 *
 * The interface's calls are cancelled when it is unregistered, see
 * vl_calls_cancel().
 *
 * Return: false if the interface is being unregistered; the call must
 * then be finished at once.
 */
bool vl_call_track(struct varlink_call *call)
{
	struct vl_iface *iface = call->iface;
	bool ok;

	spin_lock(&iface->lock);
	ok = !iface->dead;
	if (ok)
		list_add_tail(&call->iface_node, &iface->calls);
	spin_unlock(&iface->lock);
	return ok;
}

/* Forget a call at its final reply, tracked or not. */
static void call_untrack(struct varlink_call *call)
{
	spin_lock(&call->iface->lock);
	list_del_init(&call->iface_node);
	spin_unlock(&call->iface->lock);
}

/**
 * vl_calls_cancel() - cancel every call of an interface going away
 * @iface: the interface, unlinked from the registry
 *
 * No call is tracked from now on; each one tracked is cancelled (its
 * stream ended, its provider's cancel callback run): its final reply
 * still reaches its client.
 */
void vl_calls_cancel(struct vl_iface *iface)
{
	struct varlink_call *call;

	spin_lock(&iface->lock);
	iface->dead = true;
	while (!list_empty(&iface->calls)) {
		call = list_first_entry(&iface->calls, struct varlink_call,
					iface_node);
		list_del_init(&call->iface_node);
		vl_call_get(call);
		spin_unlock(&iface->lock);
		vl_call_cancel(call, false);
		vl_call_put(call);
		spin_lock(&iface->lock);
	}
	spin_unlock(&iface->lock);
}

/**
 * vl_call_finish_errno() - end a call with the error an errno stands for
 * @call: a call without its final reply
 * @ret: a negative errno, such as a callback returns without the final
 *	reply it owed
 *
 * What was written for the reply so far is dropped.  An errno of the
 * kernel's own (512 and above) becomes one a user program knows
 * (vl_errno_user()).
 */
void vl_call_finish_errno(struct varlink_call *call, int ret)
{
	const char *error;

	vl_call_reply_reset(call);
	switch (ret) {
	case -EPERM:
	case -EACCES:
		error = VL_ERR("PermissionDenied");
		break;
	case -EOPNOTSUPP:
		error = VL_ERR("MethodNotImplemented");
		vl_jsonw_kv_str(&call->w, "method", call->method->name);
		break;
	default:
		/* the last guard: no errno of the kernel's own goes out */
		error = VL_SYSTEM_ERROR;
		vl_jsonw_kv_s64(&call->w, "errno", -vl_errno_user(ret));
	}
	varlink_error(call, error);
}

/**
 * vl_call_abandon() - end a call whose client is gone
 * @call: a call without its final reply, its client gone (or oneway)
 *
 * Nothing is sent, and nothing written for the reply is checked.
 */
void vl_call_abandon(struct varlink_call *call)
{
	vl_call_reply_reset(call);
	varlink_reply(call);
}

/**
 * vl_call_init() - set up the cache of calls
 *
 * Return: 0 or -ENOMEM.
 */
int vl_call_init(void)
{
	struct vl_jsonw *w = &reply_head;

	vl_jsonw_init_buf(w, reply_head_buf, sizeof(reply_head_buf),
			  vl_config.max_output, GFP_KERNEL_ACCOUNT);
	vl_jsonw_obj_open(w);
	vl_jsonw_key(w, "parameters");
	vl_jsonw_obj_open(w);
	if (WARN_ON(vl_jsonw_error(w) || w->len != REPLY_PARAMS + 1))
		return -EINVAL;
	return vl_cache_init(&call_cache, "varlink_call",
			     sizeof(struct varlink_call));
}

/**
 * vl_call_exit() - free the cache of calls, once every call is gone
 */
void vl_call_exit(void)
{
	vl_cache_destroy(&call_cache);
}

/* The reply API of varlink.h */

/**
 * varlink_call_more() - whether the caller accepts several replies
 * @call: the call
 *
 * Return: true if it was called with "more".
 */
bool varlink_call_more(const struct varlink_call *call)
{
	return test_bit(VL_CALL_MORE, &call->flags);
}
EXPORT_SYMBOL_GPL(varlink_call_more);

/**
 * varlink_call_oneway() - whether the caller wants no reply
 * @call: the call
 *
 * The call must still end with varlink_reply() or varlink_error(), which
 * then send nothing.
 *
 * Return: true if it was called with "oneway".
 */
bool varlink_call_oneway(const struct varlink_call *call)
{
	return test_bit(VL_CALL_ONEWAY, &call->flags);
}
EXPORT_SYMBOL_NS_GPL(varlink_call_oneway, VL_NS(VARLINK_TEST));

/**
 * varlink_call_method() - the name of the method called
 * @call: the call
 *
 * Return: the method's name, as in its &struct varlink_method.
 */
const char *varlink_call_method(const struct varlink_call *call)
{
	return call->method->name;
}
EXPORT_SYMBOL_NS_GPL(varlink_call_method, VL_NS(VARLINK_TEST));

/**
 * varlink_call_set_cancel() - ask to be told when nobody waits any more
 * @call: a call the callback will finish later (returns -EINPROGRESS)
 * @cancel: called at most once, in process context, when the client goes
 *	away or the interface is unregistered before the final reply; it
 *	must not wait for itself to return
 * @release: NULL, or called once with @data when the call is freed: after
 *	its final reply and after @cancel returned, whichever comes last, in
 *	process context, maybe from inside varlink_reply() or varlink_error():
 *	it must not take a lock held around those (kfree() and the like)
 * @data: passed to @cancel and @release
 *
 * After @cancel ran, varlink_reply_continues() fails with -ECANCELED, and
 * the provider ends the call with exactly one varlink_reply() or
 * varlink_error(): dropped if the client went away, sent if the interface
 * is being unregistered.  If the call was cancelled before this is
 * called, @cancel runs right away.
 *
 * @cancel may run concurrently with the final reply sent from another
 * context, or just after it.  With @release, the core owns @data from now
 * on: it stays valid for @cancel whenever it runs, and the provider frees
 * it in @release, never elsewhere.  The provider decides, under its own
 * lock and in @data, which of @cancel and its other paths sends the final
 * reply.  Without @release, @data must outlive the call by other means
 * (an id looked up under the provider's lock, for example).  Both
 * callbacks run before varlink_unregister_interface() returns.
 */
void varlink_call_set_cancel(struct varlink_call *call,
			     void (*cancel)(struct varlink_call *call, void *data),
			     void (*release)(void *data), void *data)
{
	bool now;

	mutex_lock(&call->lock);
	call->cancel = cancel;
	call->release = release;
	call->cancel_data = data;
	now = test_bit(VL_CALL_CANCELLED, &call->flags);
	mutex_unlock(&call->lock);
	if (now && cancel)
		cancel(call, data);
}
EXPORT_SYMBOL_GPL(varlink_call_set_cancel);

/* The writer of the next reply, for the functions a provider writes it
 * with.  The writer allocates once the reply outgrows the call's inline
 * buffer: warn of a caller that may not sleep at once, not only then.
 */
static struct vl_jsonw *reply_writer(struct varlink_call *call)
{
	might_sleep();
	return &call->w;
}

/* The writer, after the member name @key, if any. */
static struct vl_jsonw *put_key(struct varlink_call *call, const char *key)
{
	struct vl_jsonw *w = reply_writer(call);

	if (key)
		vl_jsonw_key(w, key);
	return w;
}

/**
 * varlink_put_bool() - add a boolean to the next reply's parameters
 * @call: the call
 * @key: the member name, or NULL inside an array
 * @v: the value
 *
 * Like every varlink_put_*() function, this cannot fail: an error (no
 * memory, a reply over the output limit, a misplaced key) is remembered
 * and reported by the reply that sends the parameters.
 *
 * Context: process context, may sleep, as every function that writes a
 * reply: the reply grows as it is written.
 */
void varlink_put_bool(struct varlink_call *call, const char *key, bool v)
{
	vl_jsonw_bool(put_key(call, key), v);
}
EXPORT_SYMBOL_GPL(varlink_put_bool);

/**
 * varlink_put_s64() - add a signed integer to the next reply
 * @call: the call
 * @key: the member name, or NULL inside an array
 * @v: the value
 */
void varlink_put_s64(struct varlink_call *call, const char *key, s64 v)
{
	vl_jsonw_s64(put_key(call, key), v);
}
EXPORT_SYMBOL_GPL(varlink_put_s64);

/**
 * varlink_put_u64() - add an unsigned integer to the next reply
 * @call: the call
 * @key: the member name, or NULL inside an array
 * @v: the value
 */
void varlink_put_u64(struct varlink_call *call, const char *key, u64 v)
{
	vl_jsonw_u64(put_key(call, key), v);
}
EXPORT_SYMBOL_GPL(varlink_put_u64);

/**
 * varlink_put_str() - add a string to the next reply
 * @call: the call
 * @key: the member name, or NULL inside an array
 * @s: a NUL-terminated string; bytes that are not UTF-8 become U+FFFD
 */
void varlink_put_str(struct varlink_call *call, const char *key,
		     const char *s)
{
	vl_jsonw_str(put_key(call, key), s);
}
EXPORT_SYMBOL_GPL(varlink_put_str);

/**
 * varlink_put_str_len() - add a string of known length to the next reply
 * @call: the call
 * @key: the member name, or NULL inside an array
 * @s: the string, not necessarily NUL-terminated
 * @len: bytes of @s
 */
void varlink_put_str_len(struct varlink_call *call, const char *key,
			 const char *s, size_t len)
{
	vl_jsonw_str_len(put_key(call, key), s, len);
}
EXPORT_SYMBOL_GPL(varlink_put_str_len);

/**
 * varlink_put_fixed() - add a fixed-point number (a "float") to the reply
 * @call: the call
 * @key: the member name, or NULL inside an array
 * @v: the value times 10^@decimals
 * @decimals: digits after the decimal point, at most 18
 *
 * For example v = 314, decimals = 2 writes 3.14.
 */
void varlink_put_fixed(struct varlink_call *call, const char *key, s64 v,
		       unsigned int decimals)
{
	vl_jsonw_fixed(put_key(call, key), v, decimals);
}
EXPORT_SYMBOL_GPL(varlink_put_fixed);

/**
 * varlink_put_json() - add a JSON value received as a parameter
 * @call: the call
 * @key: the member name, or NULL inside an array
 * @v: a &struct varlink_json from this call's parameters; absent (NULL
 *	text) writes null
 */
void varlink_put_json(struct varlink_call *call, const char *key,
		      const struct varlink_json *v)
{
	struct vl_jsonw *w = put_key(call, key);

	if (v->text)
		vl_jsonw_raw(w, v->text, v->len);
	else
		vl_jsonw_null(w);
}
EXPORT_SYMBOL_GPL(varlink_put_json);

/**
 * vl_call_put_members() - add members prepared earlier to the next reply
 * @call: the call
 * @json: complete members, as vl_jsonw_members() takes them
 * @len: bytes of @json
 *
 * For replies the core writes once and sends many times.
 */
void vl_call_put_members(struct varlink_call *call, const char *json,
			 size_t len)
{
	vl_jsonw_members(reply_writer(call), json, len);
}

/**
 * varlink_put_null() - add a null to the next reply
 * @call: the call
 * @key: the member name, or NULL inside an array
 *
 * For a nullable member that must be there, null: a map's value
 * ([string]?string), an element of an array; an absent member of a
 * struct needs nothing.
 */
void varlink_put_null(struct varlink_call *call, const char *key)
{
	vl_jsonw_null(put_key(call, key));
}
EXPORT_SYMBOL_GPL(varlink_put_null);

/**
 * varlink_open_object() - start an object (a struct or a map) in the reply
 * @call: the call
 * @key: the member name, or NULL inside an array
 */
void varlink_open_object(struct varlink_call *call, const char *key)
{
	vl_jsonw_obj_open(put_key(call, key));
}
EXPORT_SYMBOL_GPL(varlink_open_object);

/**
 * varlink_close_object() - end the object started last
 * @call: the call
 */
void varlink_close_object(struct varlink_call *call)
{
	vl_jsonw_obj_close(reply_writer(call));
}
EXPORT_SYMBOL_GPL(varlink_close_object);

/**
 * varlink_open_array() - start an array in the reply
 * @call: the call
 * @key: the member name, or NULL inside an array
 */
void varlink_open_array(struct varlink_call *call, const char *key)
{
	vl_jsonw_arr_open(put_key(call, key));
}
EXPORT_SYMBOL_GPL(varlink_open_array);

/**
 * varlink_close_array() - end the array started last
 * @call: the call
 */
void varlink_close_array(struct varlink_call *call)
{
	vl_jsonw_arr_close(reply_writer(call));
}
EXPORT_SYMBOL_GPL(varlink_close_array);

/* Debug builds validate every reply against the IDL: the method's output,
 * or the parameters of an error of the method's own interface.
 */
static void check_reply(struct varlink_call *call, const char *error,
			const char *params, size_t len)
{
	struct vl_json_limits lim = VL_JSON_LIMITS_DEFAULT;
	const struct vl_idl_member *member = call->member;
	u32 ntoks = vl_json_tokens_needed(len);
	struct vl_validate_error verr = {};
	struct vl_json_tok *toks;
	const struct vl_idl *idl;
	struct vl_json js;
	int err;

	if (!member)
		return;		/* refused before it reached a method */
	idl = call->iface->idl;
	if (error) {
		size_t n = strlen(error);

		if (n <= idl->name_len + 1 || memcmp(error, idl->name, idl->name_len) ||
		    error[idl->name_len] != '.')
			return;		/* not an error of this interface */
		member = vl_idl_lookup(idl, error + idl->name_len + 1,
				       n - idl->name_len - 1);
		WARN_ONCE(!member || member->kind != VL_IDL_ERROR,
			  "varlink: %.*s.%s: undeclared error %s\n",
			  idl->name_len, idl->name, call->method->name, error);
		if (!member || member->kind != VL_IDL_ERROR)
			return;
	}

	toks = kvmalloc_array(ntoks, sizeof(*toks), GFP_KERNEL);
	if (!toks)
		return;
	vl_json_init(&js, toks, ntoks);
	lim.max_size = len;
	lim.max_depth = VL_JSON_DEPTH_MAX;
	lim.max_tokens = ntoks;
	err = vl_json_parse(&js, params, len, &lim);
	if (!err)
		err = vl_validate(idl, error ? member->type : member->out, &js, 0, &verr);
	WARN_ONCE(err, "varlink: %.*s.%s: reply does not match the IDL: %s %.*s\n",
		  idl->name_len, idl->name, call->method->name,
		  err == -EINVAL && verr.msg ? verr.msg : "invalid JSON",
		  verr.param ? verr.param_len : 0, verr.param ? verr.param : "");
	kvfree(toks);
}

/* Finish the reply written so far, send it, and start the next one
 * unless it was the final one.
 */
static int call_send(struct varlink_call *call, const char *error,
		     bool continues)
{
	bool send = !test_bit(VL_CALL_ONEWAY, &call->flags) &&
		    !test_bit(VL_CALL_GONE, &call->flags);
	struct vl_jsonw *w = &call->w;
	const char *msg;
	size_t len;
	int err;

	lockdep_assert_held(&call->lock);
	vl_jsonw_obj_close(w);		/* the parameters */
	err = vl_jsonw_error(w);
	if (!err) {
		if (IS_ENABLED(CONFIG_VARLINK_DEBUG) && send)
			check_reply(call, error, w->buf + REPLY_PARAMS,
				    w->len - REPLY_PARAMS);
		if (w->len == REPLY_PARAMS + 2)
			vl_jsonw_rewind(w, 1);	/* omit empty parameters */
	}
	if (continues)
		vl_jsonw_kv_bool(w, "continues", true);
	if (error)
		vl_jsonw_kv_str(w, "error", error);
	vl_jsonw_obj_close(w);
	msg = vl_jsonw_text(w, &len);
	if (!msg)
		err = vl_jsonw_error(w);
	else if (send)
		err = vl_conn_send(call->conn, msg, len + 1,
				   continues && READ_ONCE(call->runner) == current);
	if (w->buf && w->buf != call->reply)
		vl_stat_inc(allocations);	/* it outgrew @reply */
	/* the next reply, if there is one: call_finish() may write another */
	if (continues || err)
		vl_call_reply_reset(call);
	return err;
}

/**
 * varlink_reply_continues() - send a reply that is not the last one
 * @call: a call made with "more" to a method with VARLINK_MORE
 *
 * Sends the parameters written since the last reply, with
 * "continues": true.  The call is not finished.  Sent from the method's
 * callback itself or from its stream's run, the reply may be held back,
 * up to 8 KiB of replies, to go out with the next ones in one write,
 * until the callback or the run returns.  A stream sends its replies
 * with varlink_stream_reply(), which paces it too.
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL if the call was not made with "more" (nothing is
 * sent); -ECANCELED once the call was cancelled (finish the call: the
 * parameters written for this reply stay written, and varlink_reply()
 * sends them as the final reply); -ENOBUFS if the client
 * does not read its replies, -ECONNRESET or -EPIPE if it is gone (its
 * connection is closed: finish the call); or the error of a
 * varlink_put_*() call.
 */
int varlink_reply_continues(struct varlink_call *call)
{
	int err;

	might_sleep();
	if (!test_bit(VL_CALL_MORE, &call->flags) ||
	    !(vl_method_flags(call->method) & VARLINK_MORE))
		return -EINVAL;
	mutex_lock(&call->lock);
	if (WARN_ON_ONCE(test_bit(VL_CALL_DONE, &call->flags)))
		err = -EINVAL;
	else if (test_bit(VL_CALL_CANCELLED, &call->flags))
		err = -ECANCELED;
	else
		err = call_send(call, NULL, true);
	mutex_unlock(&call->lock);
	return err;
}
EXPORT_SYMBOL_GPL(varlink_reply_continues);

static int call_finish(struct varlink_call *call, const char *error)
{
	int err;

	mutex_lock(&call->lock);
	if (WARN_ON_ONCE(test_bit(VL_CALL_DONE, &call->flags))) {
		mutex_unlock(&call->lock);
		return -EINVAL;
	}
	err = call_send(call, error, false);
	if (err == -ENOMEM || err == -EMSGSIZE || err == -EINVAL) {
		/* the parameters could not be written: say so instead */
		vl_jsonw_kv_s64(&call->w, "errno", -err);
		err = call_send(call, VL_SYSTEM_ERROR, false);
	}
	set_bit(VL_CALL_DONE, &call->flags);
	mutex_unlock(&call->lock);

	vl_stream_leave(call);

	if (call->iface)
		call_untrack(call);
	vl_conn_call_done(call->conn, call);
	vl_call_put(call);
	return err;
}

/**
 * varlink_reply() - send the final reply of a call
 * @call: the call; it is gone when this returns
 *
 * Sends the parameters written since the last reply.  If they could not
 * be written (see varlink_put_bool()), the client gets
 * org.kernel.varlink.SystemError instead.
 *
 * Context: process context, may sleep.
 * Return: 0, or why the reply did not reach the client; the call is
 * finished either way.
 */
int varlink_reply(struct varlink_call *call)
{
	might_sleep();
	return call_finish(call, NULL);
}
EXPORT_SYMBOL_GPL(varlink_reply);

/**
 * varlink_error() - end a call with an error
 * @call: the call; it is gone when this returns
 * @error: the fully qualified error name, declared in the IDL of the
 *	method's interface or in org.varlink.service
 *
 * The error's parameters are those written since the last reply.
 *
 * Context: process context, may sleep.
 * Return: as varlink_reply().
 */
int varlink_error(struct varlink_call *call, const char *error)
{
	might_sleep();
	vl_stat_inc(errors);
	return call_finish(call, error);
}
EXPORT_SYMBOL_GPL(varlink_error);

/**
 * varlink_error_invalid_parameter() - end a call with InvalidParameter
 * @call: the call; it is gone when this returns
 * @name: the name of the parameter the method refuses
 *
 * For a value that the IDL allows but the method does not accept: sends
 * org.varlink.service.InvalidParameter {"parameter": @name}.  Parameters
 * written since the last reply are dropped.
 *
 * Context: process context, may sleep.
 * Return: as varlink_reply().
 */
int varlink_error_invalid_parameter(struct varlink_call *call,
				    const char *name)
{
	vl_call_reply_reset(call);
	varlink_put_str(call, "parameter", name);
	return varlink_error(call, VL_ERR("InvalidParameter"));
}
EXPORT_SYMBOL_GPL(varlink_error_invalid_parameter);
