// SPDX-License-Identifier: GPL-2.0
/*
 * One message, from its text to the provider's callback, the road in:
 * the call envelope, routing, permissions, validation and decoding of
 * parameters.  The call and its replies, the road out, are call.c's.
 *
 * A message that is not a well-formed call closes the connection
 * (UAPI.20: there is no well-defined reply); a well-formed call always
 * gets exactly one final reply, unless it is "oneway".
 *
 * The steps, each of which may end the call with an error:
 * vl_dispatch() parses the message and its envelope, route() finds the
 * method, call_allowed() checks the call against it, call_decode() fills
 * the parameter struct and call_run() hands the call to the provider.
 */
#include <linux/module.h>
#include <linux/nsproxy.h>
#include <linux/sched/task.h>
#include <net/net_namespace.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "autoload.h"
#include "call.h"
#include "caller.h"
#include "conn.h"
#include "files.h"
#include "dispatch.h"
#include "params.h"
#include "registry.h"
#include "stats.h"
#include "streams.h"
#include "validate.h"

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
	case VARLINK_OPT_S64:
		((struct varlink_opt_s64 *)dst)->present = true;
		return vl_json_tok_s64(js, tok,
				       &((struct varlink_opt_s64 *)dst)->value);
	}
	return -EINVAL;
}

/* Fill the method's parameter struct.  The values were validated against
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

static void call_run(struct varlink_call *call, void *params)
{
	const struct varlink_method *m = call->method;
	struct module *owner = call->iface->owner;
	int ret;

	if (!vl_call_track(call) || !try_module_get(owner)) {
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
	WRITE_ONCE(call->runner, current);
	ret = m->call(call, params);
	WRITE_ONCE(call->runner, NULL);
	module_put(owner);
	/* a kernel handler it ran may have asked for a restart: files.c */
	vl_kthread_unsignal();

	if (ret == -EINPROGRESS) {
		vl_call_put(call);
		return;
	}
	if (!test_bit(VL_CALL_DONE, &call->flags)) {
		WARN_ONCE(!ret, "varlink: %.*s.%s returned 0 without a reply\n",
			  call->iface->idl->name_len, call->iface->idl->name,
			  m->name);
		vl_call_finish_errno(call, ret ? ret : -EPROTO);
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

/* The interface a call names, served in the caller's network namespace,
 * its module loaded first if it is not registered (autoload.c), never in
 * the caller's task.  Return: the interface (a reference), NULL, or
 * ERR_PTR(-EAGAIN) in the caller's task for a call that loads a module.
 */
static struct vl_iface *find_iface(struct varlink_call *call, const char *name,
				   size_t len, bool in_caller)
{
	const struct net *net = call->caller.net;
	struct vl_iface *iface = vl_iface_get_served(name, len, net);

	if (iface || !vl_autoload_due(name, len))
		return iface;
	if (in_caller)
		return ERR_PTR(-EAGAIN);
	return vl_autoload(name, len) ? vl_iface_get_served(name, len, net) : NULL;
}

/* find_method() for a name with escapes, and to tell which name is
 * unknown.  Not inlined: kernels that zero the stack (INIT_STACK_ALL_ZERO)
 * would clear @name for every call.  Return: as find_method().
 */
static noinline const struct varlink_method *
find_method_slow(struct varlink_call *call, const struct vl_json *js, u32 tok,
		 bool in_caller)
{
	const struct vl_idl_member *member;
	char name[VL_METHOD_NAME_MAX + 1];
	struct vl_iface *iface;
	size_t dot;
	int len;

	len = split_method(js, tok, name, sizeof(name), &dot);
	if (len < 0) {
		/* no dot, an embedded NUL, or too long to be any interface */
		call_fail(call, VL_ERR("InterfaceNotFound"), "interface",
			  js->buf + js->toks[tok].start + 1,
			  min_t(size_t, js->toks[tok].len - 2, VL_NAME_MAX));
		return NULL;
	}

	iface = find_iface(call, name, dot, in_caller);
	if (IS_ERR(iface))
		return ERR_CAST(iface);
	if (!iface) {
		call_fail(call, VL_ERR("InterfaceNotFound"), "interface", name, dot);
		return NULL;
	}
	call->iface = iface;	/* the call owns the reference */

	member = vl_idl_lookup(iface->idl, name + dot + 1, len - dot - 1);
	if (!member || member->kind != VL_IDL_METHOD) {
		call_fail(call, VL_ERR("MethodNotFound"), "method",
			  name + dot + 1, len - dot - 1);
		return NULL;
	}
	call->member = member;
	return iface->methods[member - iface->idl->members];
}

/* Find the method a call names.  Return: the method; NULL once the
 * call is finished with an error; ERR_PTR(-EAGAIN), only @in_caller, for
 * a call that must load its interface's module: nothing was sent.
 */
static const struct varlink_method *find_method(struct varlink_call *call,
						const struct vl_json *js, u32 tok,
						bool in_caller)
{
	const struct vl_json_tok *t = &js->toks[tok];
	const struct vl_idl_member *member;
	struct vl_iface *iface;

	/* a name with no escape is its text: one hash, one compare */
	if (t->flags & VL_JSON_F_ESC)
		return find_method_slow(call, js, tok, in_caller);
	iface = vl_method_get(js->buf + t->start + 1, t->len - 2,
			      call->caller.net, &member);
	if (!iface)
		return find_method_slow(call, js, tok, in_caller);
	call->iface = iface;	/* the call owns the reference */
	call->member = member;
	return iface->methods[member - iface->idl->members];
}

/* End a call whose parameters do not match the IDL.  Not inlined, for
 * the same reason as find_method_slow().
 */
static noinline void refuse_invalid(struct varlink_call *call,
				    const struct vl_json *js,
				    const struct vl_validate_error *verr)
{
	char name[VL_METHOD_NAME_MAX + 1];
	int len;

	len = vl_validate_param_name(js, verr, name, sizeof(name));
	if (len < 0)
		len = strscpy(name, "parameters", sizeof(name));
	call_fail(call, VL_ERR("InvalidParameter"), "parameter", name, len);
}

/* Whether the method takes the call as it is: implemented, called the
 * way it must be, with valid parameters, by whom it allows.  Return:
 * true, or false once the call is finished with an error.
 */
static bool call_allowed(struct varlink_call *call, const struct vl_json *js,
			 const struct vl_envelope *env)
{
	const struct varlink_method *m = call->method;
	struct vl_validate_error verr;

	if (env->upgrade || !m->call) {
		call_fail(call, VL_ERR("MethodNotImplemented"), "method",
			  m->name, strlen(m->name));
		return false;
	}
	if ((m->flags & VARLINK_MORE_ONLY) && !env->more) {
		call_fail(call, VL_ERR("ExpectedMore"), NULL, NULL, 0);
		return false;
	}
	if (vl_validate(call->iface->idl, call->member->type, js, env->params,
			&verr)) {
		refuse_invalid(call, js, &verr);
		return false;
	}
	if (!vl_call_permitted(call)) {
		call_fail(call, VL_ERR("PermissionDenied"), NULL, NULL, 0);
		return false;
	}
	/* last: a stream counts from here to its final reply */
	if ((m->flags & VARLINK_STREAM) && env->more)
		return vl_stream_admit(call);
	return true;
}

/* Decode the parameters into the method's struct, inline in the call if
 * it fits, and run the method.
 */
static void call_decode_and_run(struct varlink_call *call,
				const struct vl_json *js, char *text, u32 tok,
				bool in_caller)
{
	const struct varlink_method *m = call->method;
	void *params = NULL, *heap = NULL;
	const char *bad;

	if (m->params_size) {
		if (m->params_size <= sizeof(call->params)) {
			params = call->params;
			memset(params, 0, m->params_size);
		} else {
			vl_stat_inc(allocations);
			heap = kzalloc(m->params_size, GFP_KERNEL_ACCOUNT);
			params = heap;
			if (!params) {
				vl_call_finish_errno(call, -ENOMEM);
				return;
			}
		}
		if (decode_params(m, js, text, tok, params, &bad)) {
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
}

/* Whether @m may run in the task that sent @call.  An interface served
 * in the initial network namespace only answers for the initial
 * namespaces, as its kworker would: kernel code it calls (a file of
 * /proc/sys) may look at current->nsproxy, so it runs in the caller's
 * task only when that task's namespaces are a kworker's.
 */
static bool inline_allowed(const struct varlink_call *call,
			   const struct varlink_method *m)
{
	if (!(m->flags & VARLINK_INLINE))
		return false;
	return (call->iface->desc->flags & VARLINK_NETNS) ||
	       current->nsproxy == init_task.nsproxy;
}

/* Route a well-formed call to its method, check it, and run it.
 * Return: 0 once the call is finished or handed to the provider;
 * -EAGAIN, only with @in_caller, for a method that must run in a kworker,
 * or a call that loads its interface's module first: nothing was sent
 * and the call is still the caller's.
 */
static int route(struct varlink_call *call, const struct vl_json *js,
		 char *text, const struct vl_envelope *env, bool in_caller)
{
	const struct varlink_method *m;

	m = find_method(call, js, env->method, in_caller);
	if (IS_ERR(m))
		return PTR_ERR(m);	/* -EAGAIN: io_work starts over */
	if (!m)
		return 0;
	if (in_caller && !inline_allowed(call, m))
		return -EAGAIN;	/* nothing sent yet: io_work starts over */
	call->method = m;

	if (call_allowed(call, js, env))
		call_decode_and_run(call, js, text, env->params, in_caller);
	return 0;
}

/* Tokenize a message into @call's own tokens; one that needs more gets an
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
 * dispatch() - handle one message of a connection
 * @conn: the connection
 * @peer: who opened it
 * @sender: who wrote the message, or NULL if more than one process did
 * @msg: the message text, without its NUL; decoded in place
 * @len: bytes of @msg
 * @in_caller: running in the task that sent the message (the fast path)
 *
 * Context: process context, under the connection's io_lock, with no call
 * of @conn in flight.
 * Return: 0 once the message is handled; -EAGAIN, only with @in_caller,
 * for a call of a method that must run in a kworker, or one that loads
 * its interface's module first: nothing was sent and @msg is unchanged,
 * for io_work to handle it again.
 */
static int dispatch(struct vl_conn *conn, const struct vl_peer *peer,
		    const struct vl_sender *sender, char *msg, size_t len,
		    bool in_caller)
{
	struct vl_json_tok *heap = NULL;
	struct varlink_call *call;
	struct vl_envelope env;
	struct vl_json js;
	int err;

	call = vl_call_alloc(conn, peer, sender);
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

static void dispatch_cancel(struct varlink_call *call)
{
	vl_call_cancel(call, true);
}

const struct vl_conn_ops vl_dispatch_ops = {
	.input = dispatch,
	.get = vl_call_get,
	.put = vl_call_put,
	.cancel = dispatch_cancel,
	.stream = vl_stream_step,
};
