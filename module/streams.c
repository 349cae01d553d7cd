// SPDX-License-Identifier: GPL-2.0
/*
 * Streams: calls that go on replying, run by the core as netlink runs a
 * dump, and their quotas.
 *
 * A provider's method starts a &struct varlink_stream on its call and
 * returns; from then on the stream is the core's.  Its @run is called
 * in the connection's io_work (conn.c), which holds the connection: when
 * the stream starts, after each varlink_stream_kick(), and, once it
 * paused because half of max_output waits to be read, when the client
 * has read (vl_conn_output_low()).  Its replies are batched as a
 * callback's are (@runner).  It ends when it sends its final reply (from
 * @run, @stop or varlink_stream_for_each()'s callback, all serialised by
 * the stream's @lock), when the client goes (its connection's teardown
 * ends it without a word) or when its interface is unregistered (the
 * registry's drain has @stop send the final reply).
 *
 * Lifetime: the stream holds a reference on its call from
 * varlink_stream_start() until it is released, and so on the connection
 * and the interface: varlink_unregister_interface() returns only once
 * every stream of the interface is released.  A kick runs under RCU and
 * does nothing once the stream is VL_STREAM_DONE; the started list is
 * RCU too.  So an ended stream is taken off the list and off its call
 * (end_work), and released only after a grace period (free_work): no
 * kick and no walker can still hold it, and the provider's @release may
 * free it.  A path that takes the stream's @lock while it may end (its
 * runs, a cancel) holds a reference (@ref, stream_get()): the stream can
 * end under that lock, and is released only once the last path is out
 * of it.
 *
 * Quotas.  A stream holds what its provider keeps for it (a
 * subscription, a position in a replay) until its final reply, for as
 * long as its client likes.  So streams are one pool for the whole
 * system, whichever interface serves them: at most max_streams at once,
 * the last max_streams / 8 of them kept for callers with CAP_SYS_ADMIN
 * in the initial user namespace (root of a container, or of a user
 * namespace anybody can make, holds it in its own namespace only, and
 * must not take the host's reserve).  A caller without it runs at most
 * max_streams_per_user, counted by &varlink_caller.user within its
 * &varlink_caller.tenant as connections are (admission.c), and a
 * container at most max_streams_per_container, all its users together.
 * A stream is admitted before its callback runs (dispatch.c) and counts
 * until its final reply (call.c); it is on the quota list under
 * quota_lock, which a few hundred entries at most keep short to walk.
 */
#include <linux/capability.h>
#include <linux/list.h>
#include <linux/poll.h>
#include <linux/rculist.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "call.h"
#include "conn.h"
#include "params.h"
#include "registry.h"
#include "streams.h"

enum {
	VL_STREAM_KICKED,	/* run it */
	VL_STREAM_PAUSED,	/* until the client has read */
	VL_STREAM_END,		/* varlink_stream_end() asked to end it */
	VL_STREAM_DONE,		/* its final reply was sent */
};

static DEFINE_SPINLOCK(quota_lock);
static LIST_HEAD(quota);	/* struct varlink_call, by @stream_node */
static unsigned int n_streams;

static DEFINE_MUTEX(started_lock);	/* writers of @started */
static LIST_HEAD(started);	/* struct varlink_stream, RCU */

/* The streams of @call's user in its tenant, and of its tenant */
static void quota_count(const struct varlink_call *call,
			unsigned int *user, unsigned int *tenant)
	__must_hold(&quota_lock)
{
	const struct varlink_call *s;

	lockdep_assert_held(&quota_lock);
	*user = 0;
	*tenant = 0;
	list_for_each_entry(s, &quota, stream_node) {
		if (s->caller.tenant != call->caller.tenant)
			continue;
		(*tenant)++;
		*user += uid_eq(s->caller.user, call->caller.user);
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
	spin_lock(&quota_lock);
	if (!admin) {
		quota_count(call, &user, &tenant);
		user_full = user >= vl_config.max_streams_per_user;
		tenant_full = call->caller.tenant &&
			      tenant >= vl_config.max_streams_per_container;
	}
	if (n_streams < max && !user_full && !tenant_full) {
		list_add_tail(&call->stream_node, &quota);
		n_streams++;
		set_bit(VL_CALL_STREAM, &call->flags);
	}
	spin_unlock(&quota_lock);
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
 * vl_stream_leave() - a call sent its final reply
 * @call: the call, admitted by vl_stream_admit() or not, a stream or not
 *
 * Context: any process context, under the call's @lock.
 */
void vl_stream_leave(struct varlink_call *call)
{
	struct varlink_stream *s = call->stream;

	if (s) {
		set_bit(VL_STREAM_DONE, &s->state);
		queue_work(vl_conn_wq(), &s->end_work);
	}
	if (!test_and_clear_bit(VL_CALL_STREAM, &call->flags))
		return;
	spin_lock(&quota_lock);
	list_del(&call->stream_node);
	n_streams--;
	spin_unlock(&quota_lock);
}

/* The stream of @call, if it has one that has not been released: with a
 * reference, for stream_put().
 */
static struct varlink_stream *stream_get(struct varlink_call *call)
{
	struct varlink_stream *s;

	rcu_read_lock();	/* the stream is released after a grace period */
	s = READ_ONCE(call->stream);
	if (s && !refcount_inc_not_zero(&s->ref))
		s = NULL;
	rcu_read_unlock();
	return s;
}

/* The last reference: released after a grace period, once no kick and
 * no stream_get() can find the stream any more.
 */
static void stream_put(struct varlink_stream *s)
{
	if (refcount_dec_and_test(&s->ref))
		queue_rcu_work(vl_conn_wq(), &s->free_work);
}

/* Off the started list and off its call, then released. */
static void stream_end_work(struct work_struct *work)
{
	struct varlink_stream *s = container_of(work, struct varlink_stream,
						end_work);

	mutex_lock(&started_lock);
	list_del_rcu(&s->node);
	mutex_unlock(&started_lock);
	/* vl_stream_leave(), which queued us, was its last reader under the
	 * call's lock; stream_get() reads it under RCU
	 */
	WRITE_ONCE(s->call->stream, NULL);
	stream_put(s);
}

static void stream_free_work(struct work_struct *work)
{
	struct varlink_stream *s = container_of(to_rcu_work(work),
						struct varlink_stream,
						free_work);
	struct varlink_call *call = s->call;

	mutex_destroy(&s->lock);
	s->ops->release(s);
	vl_call_put(call);	/* and so the interface's reference */
}

/**
 * varlink_stream_init() - prepare a stream, before anything can kick it
 * @stream: the stream, in the provider's object
 * @ops: what the provider does: @run and @release at least
 *
 * Until varlink_stream_start(), the object is the provider's: a method
 * that fails before it frees it itself.  varlink_stream_kick() may be
 * called from now on: it is remembered until the stream starts.
 */
void varlink_stream_init(struct varlink_stream *stream,
			 const struct varlink_stream_ops *ops)
{
	stream->call = NULL;
	stream->ops = ops;
	mutex_init(&stream->lock);
	INIT_LIST_HEAD(&stream->node);
	stream->state = 0;
	stream->error = NULL;
	refcount_set(&stream->ref, 1);	/* the started stream's */
	INIT_WORK(&stream->end_work, stream_end_work);
	INIT_RCU_WORK(&stream->free_work, stream_free_work);
}
EXPORT_SYMBOL_GPL(varlink_stream_init);

/* End a stream from outside its own replies, under its @lock: without a
 * word to a client that is gone, or with @stop's final reply.
 */
static void stream_stop(struct varlink_stream *s)
{
	struct varlink_call *call = s->call;
	int err;

	lockdep_assert_held(&s->lock);
	if (test_bit(VL_STREAM_DONE, &s->state))
		return;
	if (test_bit(VL_CALL_GONE, &call->flags) ||
	    test_bit(VL_CALL_ONEWAY, &call->flags)) {
		vl_call_abandon(call);
		return;
	}
	vl_call_reply_reset(call);	/* what a reply cancelled left */
	err = s->ops->stop ? s->ops->stop(s) : -ESHUTDOWN;
	if (test_bit(VL_STREAM_DONE, &s->state))
		return;
	WARN_ONCE(!err, "varlink: %s: a stream's stop sent no final reply\n",
		  call->method->name);
	vl_call_finish_errno(call, err ?: -ESHUTDOWN);
}

/* What @run or a varlink_stream_for_each() callback returned */
static void stream_result(struct varlink_stream *s, int ret)
{
	lockdep_assert_held(&s->lock);
	if (test_bit(VL_STREAM_DONE, &s->state) || !ret)
		return;
	switch (ret) {
	case -EAGAIN:
		set_bit(VL_STREAM_KICKED, &s->state);	/* once unpaused */
		break;
	case -ECANCELED:	/* the client went, or the interface goes */
	case -ECONNRESET:	/* the connection is closing */
	case -ENOBUFS:
	case -EPIPE:
		stream_stop(s);
		break;
	default:
		vl_call_finish_errno(s->call, ret);
	}
}

/**
 * varlink_stream_start() - hand a stream to the core
 * @call: the call of a method with VARLINK_STREAM
 * @stream: the stream, initialised with varlink_stream_init(), its
 *	provider subscribed to what kicks it
 *
 * Sends {"ready": true} first if the method has VARLINK_READY, then runs
 * the stream.  From now on the object is the core's, until @release: the
 * method's callback returns this function's return value and touches
 * neither @call nor @stream again.
 *
 * Context: the method's callback.
 * Return: -EINPROGRESS.
 */
int varlink_stream_start(struct varlink_call *call,
			 struct varlink_stream *stream)
{
	bool cancelled;

	vl_call_get(call);	/* the stream's, until it is released */
	WRITE_ONCE(stream->call, call);
	if (WARN_ONCE(!(call->method->flags & VARLINK_STREAM),
		      "varlink: %s: a stream of a method without VARLINK_STREAM\n",
		      call->method->name)) {
		vl_call_finish_errno(call, -EINVAL);
		stream_put(stream);
		return -EINPROGRESS;
	}
	refcount_inc(&stream->ref);	/* it may end as soon as it is seen */
	mutex_lock(&started_lock);
	list_add_tail_rcu(&stream->node, &started);
	mutex_unlock(&started_lock);

	mutex_lock(&call->lock);
	WRITE_ONCE(call->stream, stream);
	cancelled = test_bit(VL_CALL_CANCELLED, &call->flags);
	mutex_unlock(&call->lock);

	mutex_lock(&stream->lock);
	if (cancelled) {
		stream_stop(stream);
	} else if ((call->method->flags & VARLINK_READY) &&
		   varlink_call_more(call)) {
		varlink_put_bool(call, "ready", true);
		stream_result(stream, varlink_reply_continues(call));
	}
	mutex_unlock(&stream->lock);
	varlink_stream_kick(stream);
	stream_put(stream);
	return -EINPROGRESS;
}
EXPORT_SYMBOL_GPL(varlink_stream_start);

/**
 * varlink_stream_kick() - have a stream's @run called
 * @stream: the stream, initialised
 *
 * Once, however many kicks come before @run is called; a kick while it
 * runs has it run again.  A kick before varlink_stream_start() counts
 * from the start; one after the stream ended does nothing.
 *
 * Context: any context but NMI (an irq_work can relay from there).
 */
void varlink_stream_kick(struct varlink_stream *stream)
{
	struct varlink_call *call;

	rcu_read_lock();	/* the stream is released after a grace period */
	set_bit(VL_STREAM_KICKED, &stream->state);
	call = READ_ONCE(stream->call);
	if (call && !test_bit(VL_STREAM_DONE, &stream->state))
		vl_conn_kick(call->conn);
	rcu_read_unlock();
}
EXPORT_SYMBOL_GPL(varlink_stream_kick);

/**
 * varlink_stream_end() - end a stream from another context
 * @stream: the stream, started
 * @error: the fully qualified error to end it with, without parameters;
 *	NULL to have @stop send the final reply
 *
 * Context: any context but NMI.
 */
void varlink_stream_end(struct varlink_stream *stream, const char *error)
{
	WRITE_ONCE(stream->error, error);
	set_bit(VL_STREAM_END, &stream->state);	/* after @error */
	varlink_stream_kick(stream);
}
EXPORT_SYMBOL_GPL(varlink_stream_end);

/**
 * varlink_stream_reply() - send a reply of a stream, pacing it
 * @stream: the stream
 *
 * Sends the parameters written since the last reply with "continues",
 * as varlink_reply_continues().  A call made without "more" gets only
 * its final reply: the parameters are dropped.
 *
 * Context: @run (or a varlink_stream_for_each() callback).
 * Return: 0; -EAGAIN once half of max_output waits to be read by the
 * client: the reply is sent, and @run returns -EAGAIN to be run again
 * once the client has read; or the error of varlink_reply_continues(),
 * which @run returns.
 */
int varlink_stream_reply(struct varlink_stream *stream)
{
	int err;

	if (!varlink_call_more(stream->call)) {
		vl_call_reply_reset(stream->call);	/* only the final one */
		return 0;
	}
	err = varlink_reply_continues(stream->call);

	if (err || vl_conn_output_low(stream->call->conn))
		return err;
	set_bit(VL_STREAM_PAUSED, &stream->state);
	return -EAGAIN;
}
EXPORT_SYMBOL_GPL(varlink_stream_reply);

/* Whether @s is to run now: kicked or ending, and not paused */
static bool stream_runnable(struct varlink_stream *s)
{
	if (test_bit(VL_STREAM_DONE, &s->state))
		return false;
	if (test_bit(VL_STREAM_PAUSED, &s->state)) {
		if (!vl_conn_output_low(s->call->conn))
			return false;
		clear_bit(VL_STREAM_PAUSED, &s->state);
	}
	return test_and_clear_bit(VL_STREAM_KICKED, &s->state) ||
	       test_bit(VL_STREAM_END, &s->state);
}

/**
 * vl_stream_step() - run a call's stream, if it is to run now
 * @call: the call in flight of a connection, with a reference
 *
 * Context: the connection's io_work, its @io_lock held.
 * Return: true if the stream ran (or ended).
 */
bool vl_stream_step(struct varlink_call *call)
{
	struct varlink_stream *s = stream_get(call);
	int ret;

	if (!s)
		return false;
	if (!stream_runnable(s)) {
		stream_put(s);
		return false;
	}
	mutex_lock(&s->lock);
	if (test_bit(VL_STREAM_DONE, &s->state)) {
		/* ended meanwhile */
	} else if (test_bit(VL_STREAM_END, &s->state) && READ_ONCE(s->error)) {
		vl_call_reply_reset(call);
		varlink_error(call, s->error);
	} else if (test_bit(VL_STREAM_END, &s->state)) {
		stream_stop(s);
	} else {
		WRITE_ONCE(call->runner, current);	/* batch its replies */
		ret = s->ops->run(s);
		WRITE_ONCE(call->runner, NULL);
		stream_result(s, ret);
	}
	mutex_unlock(&s->lock);
	stream_put(s);
	return true;
}

/**
 * vl_stream_cancel() - end a call's stream early
 * @call: a call
 * @gone: its client went away: nothing is sent; otherwise its interface
 *	is being unregistered, and @stop sends the final reply
 *
 * Return: false if the call has no stream (yet), or its stream was
 * released.
 */
bool vl_stream_cancel(struct varlink_call *call, bool gone)
{
	struct varlink_stream *s = stream_get(call);

	if (!s)
		return false;
	mutex_lock(&s->lock);
	stream_stop(s);
	mutex_unlock(&s->lock);
	stream_put(s);
	return true;
}

/**
 * varlink_stream_kick_all() - kick every stream of an interface
 * @iface: the interface, registered
 *
 * Context: any context but NMI.
 */
void varlink_stream_kick_all(const struct varlink_interface *iface)
{
	struct varlink_stream *s;

	rcu_read_lock();
	list_for_each_entry_rcu(s, &started, node)
		if (s->call->iface->desc == iface)
			varlink_stream_kick(s);
	rcu_read_unlock();
}
EXPORT_SYMBOL_GPL(varlink_stream_kick_all);

/**
 * varlink_stream_for_each() - send to every stream of an interface
 * @iface: the interface, registered
 * @fn: called for each stream that has not ended, in the order they
 *	started, serialised with the stream's @run: it may write and send
 *	replies (with varlink_stream_reply(), whose -EAGAIN it may ignore)
 *	or end the stream; it returns 0, or an errno that ends the stream as
 *	@run's would
 * @data: passed to @fn
 *
 * For events that every stream must see as they come, in order (a
 * notifier's).  No stream starts or is released meanwhile.
 *
 * Context: process context, may sleep; not from @run or @stop.
 */
void varlink_stream_for_each(const struct varlink_interface *iface,
			     int (*fn)(struct varlink_stream *stream,
				       void *data),
			     void *data)
{
	struct varlink_stream *s;

	mutex_lock(&started_lock);
	list_for_each_entry(s, &started, node) {
		if (s->call->iface->desc != iface)
			continue;
		mutex_lock(&s->lock);
		if (!test_bit(VL_STREAM_DONE, &s->state))
			stream_result(s, fn(s, data));
		mutex_unlock(&s->lock);
	}
	mutex_unlock(&started_lock);
}
EXPORT_SYMBOL_GPL(varlink_stream_for_each);

/* @poll's file is ready: called by its wait queue, maybe in atomic context */
static int stream_poll_wake(wait_queue_entry_t *wait, unsigned int mode,
			    int sync, void *key)
{
	varlink_stream_kick(container_of(wait, struct varlink_poll,
					 wait)->stream);
	return 0;
}

static void stream_poll_queue(struct file *file, wait_queue_head_t *whead,
			      poll_table *pt)
{
	struct varlink_poll *poll = container_of(pt, struct varlink_poll, pt);

	if (poll->whead)
		return;		/* one wait queue a file */
	poll->whead = whead;
	add_wait_queue(whead, &poll->wait);
}

/**
 * varlink_stream_poll() - kick a stream whenever a file is ready
 * @stream: the stream, initialised
 * @poll: where the provider keeps what it takes, until
 *	varlink_stream_unpoll()
 * @file: the file
 *
 * Polls @file once, as poll(2) would, and kicks @stream each time the
 * file's wait queue wakes up from then on; @run asks what is ready with
 * vfs_poll(@file, NULL).  The provider calls varlink_stream_unpoll() in
 * @release, or when it fails before varlink_stream_start().
 *
 * Context: process context.
 * Return: what the file said it is ready for; @poll->whead is NULL if
 * it has no wait queue, and nothing will kick the stream.
 */
__poll_t varlink_stream_poll(struct varlink_stream *stream,
			     struct varlink_poll *poll, struct file *file)
{
	poll->stream = stream;
	poll->file = file;
	poll->whead = NULL;
	init_waitqueue_func_entry(&poll->wait, stream_poll_wake);
	init_poll_funcptr(&poll->pt, stream_poll_queue);
	return vfs_poll(file, &poll->pt);
}
EXPORT_SYMBOL_GPL(varlink_stream_poll);

/**
 * varlink_stream_unpoll() - stop a file's kicks
 * @poll: as varlink_stream_poll() set it
 *
 * Once it returns, the file's wait queue wakes nothing of the stream.
 * The file stays the provider's.
 */
void varlink_stream_unpoll(struct varlink_poll *poll)
{
	if (poll->whead)
		remove_wait_queue(poll->whead, &poll->wait);
	poll->whead = NULL;
}
EXPORT_SYMBOL_GPL(varlink_stream_unpoll);
