// SPDX-License-Identifier: GPL-2.0
/*
 * One message, from its text to the provider's callback, and the replies
 * back: the call envelope, routing, permissions, validation, decoding of
 * parameters, and the reply API of varlink.h.
 *
 * A message that is not a well-formed call closes the connection
 * (UAPI.20: there is no well-defined reply); a well-formed call always
 * gets exactly one final reply, unless it is "oneway".
 *
 * Each message gets a &struct varlink_call from a per-CPU cache before it
 * is parsed: the call holds the message's tokens, its decoded parameters
 * and the buffer its reply is written to, as long as they fit.  The
 * reply is written in place, its envelope around its parameters, and
 * handed to the connection from there: a call that fits allocates
 * nothing.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "internal.h"
#include "validate.h"

#define VL_ERR(name)	"org.varlink.service." name
#define VL_SYSTEM_ERROR	"org.kernel.varlink.SystemError"

/* A reply starts so; the object of its parameters follows. */
#define REPLY_HEAD	"{\"parameters\":"
#define REPLY_PARAMS	(sizeof(REPLY_HEAD) - 1)

static struct vl_cache call_cache;

/* Longest "interface.Method" a call may name */
#define VL_METHOD_NAME_MAX	(2 * VL_NAME_MAX + 1)

static bool vendor_key(const struct vl_json *js, u32 key)
{
	size_t len;
	const char *raw = vl_json_str_raw(js, key, &len);

	/* a '.' may be escaped: look at the decoded key when there is one */
	if (js->toks[key].flags & VL_JSON_F_ESC) {
		char buf[VL_NAME_MAX + 1];
		int n = vl_json_unescape(js, key, buf, sizeof(buf));

		return n > 0 && memchr(buf, '.', n);
	}
	return memchr(raw, '.', len);
}

static int get_flag(const struct vl_json *js, u32 val, bool *flag)
{
	return vl_json_tok_bool(js, val, flag) ? -EPROTO : 0;
}

/* UAPI.20: anything but a well-formed call closes the connection. */
int vl_parse_envelope(const struct vl_json *js, struct vl_envelope *env)
{
	struct vl_json_iter it;
	u32 key, val;
	int err = 0;

	memset(env, 0, sizeof(*env));
	env->params = VL_VALIDATE_ABSENT;
	if (js->toks[0].type != VL_JSON_OBJECT)
		return -EPROTO;

	it = vl_json_iter_init(js, 0, VL_JSON_OBJECT);
	while (!err && vl_json_iter_member(&it, &key, &val)) {
		u8 type = js->toks[val].type;

		if (vl_json_str_eq(js, key, "method", 6)) {
			if (type != VL_JSON_STRING)
				return -EPROTO;
			env->method = val;
		} else if (vl_json_str_eq(js, key, "parameters", 10)) {
			if (type == VL_JSON_OBJECT)
				env->params = val;
			else if (type != VL_JSON_NULL)
				return -EPROTO;
		} else if (vl_json_str_eq(js, key, "more", 4)) {
			err = get_flag(js, val, &env->more);
		} else if (vl_json_str_eq(js, key, "oneway", 6)) {
			err = get_flag(js, val, &env->oneway);
		} else if (vl_json_str_eq(js, key, "upgrade", 7)) {
			err = get_flag(js, val, &env->upgrade);
		} else if (!vendor_key(js, key)) {
			return -EPROTO;
		}
	}
	if (err || !env->method)
		return -EPROTO;
	if (env->more + env->oneway + env->upgrade > 1)
		return -EPROTO;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vl_parse_envelope);

static int decode_param(const struct vl_json *js, char *text, u32 tok,
			const struct varlink_param *p, void *base)
{
	void *dst = base + p->offset;

	switch (p->type) {
	case VARLINK_BOOL:
		return vl_json_tok_bool(js, tok, dst);
	case VARLINK_S64:
		return vl_json_tok_s64(js, tok, dst);
	case VARLINK_U64:
		return vl_json_tok_u64(js, tok, dst);
	case VARLINK_S32:
		return vl_json_tok_s32(js, tok, dst);
	case VARLINK_U32:
		return vl_json_tok_u32(js, tok, dst);
	case VARLINK_STRING:
		if (js->toks[tok].flags & VL_JSON_F_NUL)
			return -EINVAL;
		*(const char **)dst = vl_json_unescape_inplace(text, &js->toks[tok]);
		return 0;
	case VARLINK_JSON:
		((struct varlink_json *)dst)->text = js->buf + js->toks[tok].start;
		((struct varlink_json *)dst)->len = js->toks[tok].len;
		return 0;
	}
	return -EINVAL;
}

/*
 * Fill the method's parameter struct.  The values were validated against
 * the IDL already; what can still fail is a C type narrower than "int".
 * Return: 0, or -EINVAL with *@bad set to the offending parameter.
 */
static int decode_params(const struct varlink_method *m,
			 const struct vl_json *js, char *text, u32 obj,
			 void *base, const char **bad)
{
	unsigned int i;

	for (i = 0; i < m->n_params; i++) {
		const struct varlink_param *p = &m->params[i];
		int tok = obj == VL_VALIDATE_ABSENT ? -ENOENT :
			  vl_json_find(js, obj, p->name);

		if (tok < 0 || js->toks[tok].type == VL_JSON_NULL)
			continue;
		if (decode_param(js, text, tok, p, base)) {
			*bad = p->name;
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * vl_call_reset_reply() - start the next reply of a call afresh
 * @call: the call
 *
 * Drops what was written for the reply so far, and any error of it.
 */
void vl_call_reset_reply(struct varlink_call *call)
{
	struct vl_jsonw *w = &call->w;

	vl_jsonw_release(w);
	vl_jsonw_init_buf(w, call->reply, sizeof(call->reply),
			  vl_config.max_output, GFP_KERNEL_ACCOUNT);
	vl_jsonw_obj_open(w);
	vl_jsonw_key(w, "parameters");
	vl_jsonw_obj_open(w);
}

static struct varlink_call *call_alloc(struct vl_conn *conn, bool in_caller)
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
	call->sender = vl_conn_sender(conn, in_caller, &call->sender_pid);
	vl_call_reset_reply(call);
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
	put_cred(call->sender);
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
 * Runs the cancel callback once, if the provider set one and the call is
 * not finished.  The provider still ends the call with a final reply.
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
	if (!cancel)
		return;
#ifdef VARLINK_TEST_HOOKS
	/* the final reply may come meanwhile: the tests make sure it does */
	if (READ_ONCE(vl_test_cancel_delay_ms))
		msleep(READ_ONCE(vl_test_cancel_delay_ms));
#endif
	cancel(call, call->cancel_data);
}

/* The callback returned without the final reply it owed: map its errno. */
static void call_finish_for_provider(struct varlink_call *call, int ret)
{
	const char *error;

	vl_call_reset_reply(call);
	switch (ret) {
	case -EINVAL:
		error = VL_ERR("InvalidParameter");
		vl_jsonw_kv_str(&call->w, "parameter", "parameters");
		break;
	case -EPERM:
	case -EACCES:
		error = VL_ERR("PermissionDenied");
		break;
	case -EOPNOTSUPP:
		error = VL_ERR("MethodNotImplemented");
		vl_jsonw_kv_str(&call->w, "method", call->method->name);
		break;
	default:
		error = VL_SYSTEM_ERROR;
		vl_jsonw_kv_s64(&call->w, "errno", -ret);
	}
	varlink_error(call, error);
}

static void call_run(struct varlink_call *call, void *params)
{
	const struct varlink_method *m = call->method;
	struct module *owner = call->iface->desc->owner;
	int ret;

	if (!vl_iface_track_call(call->iface, call) || !try_module_get(owner)) {
		/* the interface is going away */
		varlink_put_str_len(call, "interface", call->iface->idl->name,
				    call->iface->idl->name_len);
		varlink_error(call, VL_ERR("InterfaceNotFound"));
		return;
	}
	vl_stat_inc(calls);

	/* the call may be finished and freed by the time this returns */
	vl_call_get(call);
	vl_conn_call_start(call->conn, call);
	ret = m->call(call, params);
	module_put(owner);

	if (ret == -EINPROGRESS) {
		vl_call_put(call);
		return;
	}
	if (!test_bit(VL_CALL_DONE, &call->flags)) {
		WARN_ONCE(!ret, "varlink: %.*s.%s returned 0 without a reply\n",
			  call->iface->idl->name_len, call->iface->idl->name,
			  m->name);
		call_finish_for_provider(call, ret ? ret : -EPROTO);
	}
	vl_call_put(call);
}

/* The method string: "interface.Method", split at the last dot. */
static int split_method(const struct vl_json *js, u32 tok, char *buf,
			size_t size, size_t *dot)
{
	int len = vl_json_unescape(js, tok, buf, size);
	char *d;

	if (len < 0)
		return len;
	d = strrchr(buf, '.');
	if (!d || strlen(buf) != len)
		return -ENOENT;
	*dot = d - buf;
	return len;
}

/* End a call the core refuses, with @error and at most one parameter. */
static void call_fail(struct varlink_call *call, const char *error,
		      const char *key, const char *val, size_t len)
{
	if (key)
		varlink_put_str_len(call, key, val, len);
	varlink_error(call, error);
}

/*
 * Route a well-formed call to its method, check it, and run it.
 * Return: 0 once the call is finished or handed to the provider;
 * -EAGAIN, only with @in_caller, for a method that must run in a kworker:
 * nothing was sent and the call is still the caller's.
 */
static int route(struct varlink_call *call, const struct vl_json *js,
		 char *text, const struct vl_envelope *env, bool in_caller)
{
	const struct varlink_method *m;
	const struct vl_idl_member *member;
	struct vl_validate_error verr;
	char name[VL_METHOD_NAME_MAX + 1];
	struct vl_iface *iface;
	void *params = NULL, *heap = NULL;
	const char *bad;
	size_t dot;
	int len;

	len = split_method(js, env->method, name, sizeof(name), &dot);
	if (len < 0) {
		/* no dot, an embedded NUL, or too long to be any interface */
		call_fail(call, VL_ERR("InterfaceNotFound"), "interface",
			  js->buf + js->toks[env->method].start + 1,
			  min_t(size_t, js->toks[env->method].len - 2, VL_NAME_MAX));
		return 0;
	}

	iface = vl_iface_get(name, dot);
	if (!iface) {
		call_fail(call, VL_ERR("InterfaceNotFound"), "interface", name, dot);
		return 0;
	}
	call->iface = iface;	/* the call owns the reference */

	member = vl_idl_lookup(iface->idl, name + dot + 1, len - dot - 1);
	if (!member || member->kind != VL_IDL_METHOD) {
		call_fail(call, VL_ERR("MethodNotFound"), "method",
			  name + dot + 1, len - dot - 1);
		return 0;
	}
	m = iface->methods[member - iface->idl->members];
	if (in_caller && !(m->flags & VARLINK_FAST))
		return -EAGAIN;	/* nothing sent yet: io_work starts over */
	call->member = member;
	call->method = m;

	if (env->upgrade || !m->call) {
		call_fail(call, VL_ERR("MethodNotImplemented"), "method",
			  m->name, strlen(m->name));
		return 0;
	}
	if ((m->flags & VARLINK_MORE_ONLY) && !env->more) {
		call_fail(call, VL_ERR("ExpectedMore"), NULL, NULL, 0);
		return 0;
	}
	if (vl_validate(iface->idl, member->type, js, env->params, &verr)) {
		len = vl_validate_param_name(js, &verr, name, sizeof(name));
		if (len < 0)
			len = strscpy(name, "parameters", sizeof(name));
		call_fail(call, VL_ERR("InvalidParameter"), "parameter", name, len);
		return 0;
	}
	if ((m->flags & VARLINK_CAPABLE) && !varlink_call_capable(call, m->capability)) {
		call_fail(call, VL_ERR("PermissionDenied"), NULL, NULL, 0);
		return 0;
	}

	if (m->params_size) {
		if (m->params_size <= sizeof(call->params)) {
			params = call->params;
			memset(params, 0, m->params_size);
		} else {
			vl_stat_inc(allocations);
			heap = kzalloc(m->params_size, GFP_KERNEL_ACCOUNT);
			params = heap;
			if (!params) {
				call_finish_for_provider(call, -ENOMEM);
				return 0;
			}
		}
		if (decode_params(m, js, text, env->params, params, &bad)) {
			call_fail(call, VL_ERR("InvalidParameter"), "parameter",
				  bad, strlen(bad));
			goto out;
		}
	}
	if (in_caller)
		vl_stat_inc(calls_inline);
	call_run(call, params);	/* the call may be gone when it returns */
out:
	kfree(heap);
	return 0;
}

/*
 * Tokenize a message into @call's own tokens; one that needs more gets an
 * array as large as its length can need, in *@heap.
 */
static int parse_message(struct varlink_call *call, struct vl_json *js,
			 const char *msg, size_t len, struct vl_json_tok **heap)
{
	struct vl_json_limits lim = {
		.max_size = vl_config.max_message_size - 1,
		.max_depth = vl_config.max_depth,
		.max_tokens = vl_config.max_tokens,
	};
	u32 ntoks = min_t(u32, vl_json_tokens_needed(len), lim.max_tokens);
	int err;

	vl_json_init(js, call->toks, ARRAY_SIZE(call->toks));
	err = vl_json_parse(js, msg, len, &lim);
	if (err != -E2BIG || ntoks <= ARRAY_SIZE(call->toks))
		return err;

	/* out of tokens, or too deep: only a parse with all can tell */
	vl_stat_inc(allocations);
	*heap = kvmalloc_array(ntoks, sizeof(**heap), GFP_KERNEL_ACCOUNT);
	if (!*heap)
		return -ENOMEM;
	vl_json_init(js, *heap, ntoks);
	return vl_json_parse(js, msg, len, &lim);
}

/**
 * vl_dispatch() - handle one message of a connection
 * @conn: the connection
 * @msg: the message text, without its NUL; decoded in place
 * @len: bytes of @msg
 * @in_caller: running in the task that sent the message (the fast path)
 *
 * Context: process context, under the connection's io_lock, with no call
 * of @conn in flight.
 * Return: 0 once the message is handled; -EAGAIN, only with @in_caller,
 * for a call of a method that must run in a kworker: nothing was sent and
 * @msg is unchanged, for io_work to handle it again.
 */
int vl_dispatch(struct vl_conn *conn, char *msg, size_t len, bool in_caller)
{
	struct vl_json_tok *heap = NULL;
	struct varlink_call *call;
	struct vl_envelope env;
	struct vl_json js;
	int err;

	call = call_alloc(conn, in_caller);
	if (!call) {
		vl_conn_close(conn);
		return 0;
	}
	err = parse_message(call, &js, msg, len, &heap);
	if (!err)
		err = vl_parse_envelope(&js, &env);
	if (err) {
		vl_stat_inc(protocol_errors);
		pr_debug_ratelimited("closing a connection: %s at byte %u (%d)\n",
				     js.emsg ? js.emsg : "not a varlink call",
				     js.epos, err);
		vl_conn_close(conn);
		vl_call_put(call);	/* no reply for what is not a call */
		goto out;
	}

	if (env.more)
		__set_bit(VL_CALL_MORE, &call->flags);
	if (env.oneway)
		__set_bit(VL_CALL_ONEWAY, &call->flags);
	err = route(call, &js, msg, &env, in_caller);
	if (err == -EAGAIN)
		vl_call_put(call);	/* io_work starts over */
out:
	kvfree(heap);
	return err == -EAGAIN ? err : 0;
}

/**
 * vl_dispatch_init() - set up the cache of calls
 *
 * Return: 0 or -ENOMEM.
 */
int vl_dispatch_init(void)
{
	return vl_cache_init(&call_cache, "varlink_call",
			     sizeof(struct varlink_call));
}

/**
 * vl_dispatch_exit() - free the cache of calls, once every call is gone
 */
void vl_dispatch_exit(void)
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
EXPORT_SYMBOL_GPL(varlink_call_oneway);

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
EXPORT_SYMBOL_GPL(varlink_call_method);

/**
 * varlink_call_cred() - the credentials of the connection's opener
 * @call: the call
 *
 * These are the credentials of the task that connected, taken when the
 * connection was accepted (SO_PEERCRED), not those of the current task,
 * nor necessarily of the task that sent the call: the connection may have
 * been inherited or passed since.  See varlink_call_sender_cred().
 *
 * Return: the credentials, valid until the call's final reply.
 */
const struct cred *varlink_call_cred(const struct varlink_call *call)
{
	return vl_conn_cred(call->conn);
}
EXPORT_SYMBOL_GPL(varlink_call_cred);

/**
 * varlink_call_sender_cred() - the credentials of the task that sent
 *	the call
 * @call: the call
 *
 * The process that wrote the call, as AF_UNIX recorded it, with its
 * credentials when the call was read.  Unknown when the call's bytes
 * came from more than one process, or when the writer had exited or
 * changed its user ids (executed a set-user-ID program) by then.
 *
 * Return: the credentials, valid until the call's final reply, or NULL
 * if unknown.
 */
const struct cred *varlink_call_sender_cred(const struct varlink_call *call)
{
	return call->sender;
}
EXPORT_SYMBOL_GPL(varlink_call_sender_cred);

/**
 * varlink_call_uid() - the effective user id of the connection's opener
 * @call: the call
 *
 * Return: the euid of the connecting task.
 */
kuid_t varlink_call_uid(const struct varlink_call *call)
{
	return vl_conn_cred(call->conn)->euid;
}
EXPORT_SYMBOL_GPL(varlink_call_uid);

/**
 * varlink_call_user() - the user a call's resources are accounted to
 * @call: the call
 *
 * The connection's opener's effective uid in the initial user namespace;
 * for an opener inside a user namespace, the user who created the
 * outermost namespace below the initial one.  Every uid an unprivileged
 * user maps into namespaces of its own thus counts as that user: a
 * provider that shares a capped resource among users gives each
 * varlink_call_user() its share.
 *
 * Return: the accounting uid, a kuid in the initial user namespace.
 */
kuid_t varlink_call_user(const struct varlink_call *call)
{
	return vl_conn_uid(call->conn);
}
EXPORT_SYMBOL_GPL(varlink_call_user);

/**
 * varlink_call_pid() - the process id of the connection's opener
 * @call: the call
 *
 * Return: the thread group id of the connecting task in the initial pid
 * namespace, or 0 if it is unknown or has exited.
 */
pid_t varlink_call_pid(const struct varlink_call *call)
{
	return pid_nr(vl_conn_pid(call->conn));
}
EXPORT_SYMBOL_GPL(varlink_call_pid);

/**
 * varlink_call_is_caller() - whether a task is of the calling process
 * @call: the call
 * @task: a task, with a reference
 *
 * Return: true if @task's process both opened the connection and sent
 * the call: what the kernel lets a process do to itself, a provider may
 * let it do to @task.
 */
bool varlink_call_is_caller(const struct varlink_call *call,
			    struct task_struct *task)
{
	struct pid *tgid = task_tgid(task);

	return tgid == vl_conn_pid(call->conn) && tgid == call->sender_pid;
}
EXPORT_SYMBOL_GPL(varlink_call_is_caller);

/**
 * vl_cred_capable() - whether @cred holds @cap in the initial user namespace
 * @cred: the credentials to check, not the current task's
 * @cap: the capability
 *
 * Return: true if it does, with the LSMs' say (no audit record).
 */
bool vl_cred_capable(const struct cred *cred, int cap)
{
	const struct cred *old = override_creds(cred);
	bool ok = ns_capable_noaudit(&init_user_ns, cap);

	revert_creds(old);
	return ok;
}

/**
 * varlink_call_capable() - whether the caller holds a capability
 * @call: the call
 * @cap: the capability, e.g. CAP_SYS_ADMIN
 *
 * Both the task that opened the connection and the task that sent the
 * call must hold @cap in the initial user namespace, with the LSMs' say:
 * a privileged connection passed to, or inherited by, an unprivileged
 * task lends it nothing, and a privileged task writing on a connection
 * an unprivileged task opened (its stdout, say) lends nothing either.
 * The current task's credentials play no part.
 *
 * Context: process context.
 * Return: true if both hold @cap.
 */
bool varlink_call_capable(const struct varlink_call *call, int cap)
{
	return call->sender && vl_cred_capable(vl_conn_cred(call->conn), cap) &&
	       vl_cred_capable(call->sender, cap);
}
EXPORT_SYMBOL_GPL(varlink_call_capable);

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

static void put_key(struct varlink_call *call, const char *key)
{
	if (key)
		vl_jsonw_key(&call->w, key);
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
 */
void varlink_put_bool(struct varlink_call *call, const char *key, bool v)
{
	put_key(call, key);
	vl_jsonw_bool(&call->w, v);
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
	put_key(call, key);
	vl_jsonw_s64(&call->w, v);
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
	put_key(call, key);
	vl_jsonw_u64(&call->w, v);
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
	put_key(call, key);
	vl_jsonw_str(&call->w, s);
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
	put_key(call, key);
	vl_jsonw_str_len(&call->w, s, len);
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
	put_key(call, key);
	vl_jsonw_fixed(&call->w, v, decimals);
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
	put_key(call, key);
	if (v->text)
		vl_jsonw_raw(&call->w, v->text, v->len);
	else
		vl_jsonw_null(&call->w);
}
EXPORT_SYMBOL_GPL(varlink_put_json);

/**
 * varlink_put_null() - add a null to the next reply
 * @call: the call
 * @key: the member name, or NULL inside an array
 */
void varlink_put_null(struct varlink_call *call, const char *key)
{
	put_key(call, key);
	vl_jsonw_null(&call->w);
}
EXPORT_SYMBOL_GPL(varlink_put_null);

/**
 * varlink_open_object() - start an object (a struct or a map) in the reply
 * @call: the call
 * @key: the member name, or NULL inside an array
 */
void varlink_open_object(struct varlink_call *call, const char *key)
{
	put_key(call, key);
	vl_jsonw_obj_open(&call->w);
}
EXPORT_SYMBOL_GPL(varlink_open_object);

/**
 * varlink_close_object() - end the object started last
 * @call: the call
 */
void varlink_close_object(struct varlink_call *call)
{
	vl_jsonw_obj_close(&call->w);
}
EXPORT_SYMBOL_GPL(varlink_close_object);

/**
 * varlink_open_array() - start an array in the reply
 * @call: the call
 * @key: the member name, or NULL inside an array
 */
void varlink_open_array(struct varlink_call *call, const char *key)
{
	put_key(call, key);
	vl_jsonw_arr_open(&call->w);
}
EXPORT_SYMBOL_GPL(varlink_open_array);

/**
 * varlink_close_array() - end the array started last
 * @call: the call
 */
void varlink_close_array(struct varlink_call *call)
{
	vl_jsonw_arr_close(&call->w);
}
EXPORT_SYMBOL_GPL(varlink_close_array);

#ifdef VARLINK_DEBUG
/*
 * Debug builds validate every reply against the IDL: the method's output,
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
#else
static void check_reply(struct varlink_call *call, const char *error,
			const char *params, size_t len)
{
}
#endif

/* Finish the reply written so far, send it, and start the next one. */
static int call_send(struct varlink_call *call, const char *error,
		     bool continues)
{
	struct vl_jsonw *w = &call->w;
	const char *msg;
	size_t len;
	int err;

	vl_jsonw_obj_close(w);		/* the parameters */
	err = vl_jsonw_error(w);
	if (!err) {
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
	else if (!test_bit(VL_CALL_ONEWAY, &call->flags) &&
		 !test_bit(VL_CALL_GONE, &call->flags))
		err = vl_conn_send(call->conn, msg, len + 1);
	if (w->buf && w->buf != call->reply)
		vl_stat_inc(allocations);	/* it outgrew @reply */
	vl_call_reset_reply(call);
	return err;
}

/**
 * varlink_reply_continues() - send a reply that is not the last one
 * @call: a call made with "more" to a method with VARLINK_MORE
 *
 * Sends the parameters written since the last reply, with
 * "continues": true.  The call is not finished.
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

	if (!test_bit(VL_CALL_MORE, &call->flags) ||
	    !(call->method->flags & VARLINK_MORE))
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

	if (call->iface)
		vl_iface_untrack_call(call->iface, call);
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
	vl_stat_inc(errors);
	return call_finish(call, error);
}
EXPORT_SYMBOL_GPL(varlink_error);
