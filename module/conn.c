// SPDX-License-Identifier: GPL-2.0
/*
 * One client connection: NUL framing on the byte stream, the output
 * queue, backpressure and teardown.  Who opened it and who wrote each
 * message is peer.c's, whether it is taken at all admission.c's.
 *
 * Each connection has one work item, io_work, which does its reading and
 * dispatching under @io_lock: calls are handled one at a time and in
 * order, and many connections are served in parallel on an unbound
 * workqueue.
 *
 * The fast path: AF_UNIX calls our sk_data_ready() from the client's
 * sendmsg() (or sendpage()), after dropping the locks of both sockets.
 * When that task may sleep (preemptible(): no spinlock, no RCU-sched or
 * atomic section), nobody else is serving the connection (@io_lock is
 * free) and the method is VARLINK_INLINE (and, for an interface of the
 * initial network namespace only, the task is in the initial namespaces:
 * dispatch.c), the call is served right there
 * and its reply queued to the client before its sendmsg() returns, with no
 * thread switch at all.  Anything else, including a slow method found
 * after parsing, falls back to io_work, which re-reads the message.
 * Replies are always sent with MSG_DONTWAIT, so the fast path never waits
 * for the client to read.
 *
 * Memory: what a connection holds is charged to the memory cgroup of
 * the process that opened it, as its socket recorded it at connect()
 * (peer.c) (GFP_KERNEL_ACCOUNT, SLAB_ACCOUNT, with that
 * cgroup made the active one while the connection is served or sent to),
 * so that a client cannot pin kernel memory past its cgroup's limit; a
 * charge that fails closes the connection.  An idle connection holds no
 * buffer.  Input and output buffers up to VL_CONN_BUF come from a
 * per-CPU cache (cache.c), and a reply goes
 * from the call's own buffer straight to the socket: only what the socket
 * does not take at once is copied to the output queue.
 *
 * Batching: while the next message has been read already, the reply to
 * the current one is held back in the output queue (up to VL_CONN_BUF),
 * so that a client that pipelines its calls gets their replies with one
 * sendmsg() instead of one each; so are the replies of a stream that
 * its method's callback sends in a loop, until they fill VL_CONN_BUF or
 * the callback finishes or returns (vl_conn_send()).
 *
 * Backpressure: a new message is read only when no call is in flight and
 * every reply has been handed to the socket (or is held back, as above).
 * A client that does not read its replies therefore stops being read, and
 * what it does not read stays in its own socket buffer; only streamed
 * replies can pile up in the output queue, and past max_output the
 * connection is closed.
 *
 * Descriptors: a varlink client never sends any, and one sent to a
 * connection is refused on every kernel: since 6.16 the client's
 * sendmsg() fails (SO_PASSRIGHTS off, peer.c); before, sk_data_ready()
 * closes the connection as soon as one is queued, since one the server
 * does not read soon (a call in flight) could be the connection's own,
 * a cycle the unix garbage collector does not see.
 *
 * Lifetime: the connection holds a reference for itself until its
 * teardown, and every call holds one until its final reply.  The last
 * reference frees it from free_work, after io_work has finished.
 */
#include <linux/net.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <linux/uio.h>
#include <linux/wait_bit.h>
#include <net/sock.h>

#include "admission.h"
#include "internal.h"
#include "params.h"
#include "peer.h"
#include "stats.h"

enum {
	VL_CONN_DEAD,		/* closing: read nothing, send nothing */
	VL_CONN_TORN_DOWN,	/* teardown done */
	VL_CONN_TX_FULL,	/* the socket took not all output: wake on space */
};

/* Buffers up to this size come from buf_cache; so many replies are
 * batched: 16 of GetInfo's, for one
 */
#define VL_CONN_BUF		8192

struct vl_conn {
	struct socket *sock;
	struct workqueue_struct *wq;
	struct work_struct io_work;
	struct work_struct free_work;
	struct list_head node;
	refcount_t ref;
	unsigned long flags;
	struct vl_peer peer;		/* who opened it */
	void (*saved_data_ready)(struct sock *sk);
	void (*saved_write_space)(struct sock *sk);
	void (*saved_state_change)(struct sock *sk);

	/* input, under @io_lock */
	struct mutex io_lock;
	struct task_struct *server;	/* the task in conn_process() */
	bool cork;			/* @server holds its replies back */
	char *rx;
	u32 rx_off;			/* the next message starts here */
	u32 rx_len;			/* bytes read into @rx */
	u32 rx_cap;
	u32 rx_scanned;			/* no NUL in @rx before this */
	struct vl_sender sender;	/* who wrote what was read last */
	struct vl_writers writers;	/* who wrote since, as they noted */
	bool rx_mixed;			/* the next message has bytes of another too */

	/* output and the call in flight, under @lock */
	struct mutex lock;
	char *tx;
	size_t tx_off;
	size_t tx_len;
	size_t tx_cap;
	struct varlink_call *call;
	wait_queue_head_t tx_wait;	/* vl_conn_wait_output() */
};

/* Other tasks run the module's socket callbacks: a client's task runs
 * conn_data_ready() from its own sendmsg(), for as long as the fast path
 * takes, conn_write_space() when it reads a reply, conn_wake() when it
 * closes, listen_data_ready() (server.c) when it connects.  Each runs
 * inside this SRCU section, and module exit, once every callback is
 * restored, waits for every task still inside one to leave: unload must
 * not free the code they run or the workqueue they queue on.
 */
DEFINE_SRCU(vl_callbacks_srcu);

static DEFINE_SPINLOCK(conns_lock);
static LIST_HEAD(conns);
static struct vl_cache buf_cache;

void vl_conn_get(struct vl_conn *conn)
{
	refcount_inc(&conn->ref);
}

void vl_conn_put(struct vl_conn *conn)
{
	if (refcount_dec_and_test(&conn->ref))
		queue_work(conn->wq, &conn->free_work);
}

static void conn_wake(struct sock *sk)
{
	struct vl_conn *conn;
	int idx;

	idx = srcu_read_lock(&vl_callbacks_srcu);
	read_lock_bh(&sk->sk_callback_lock);
	conn = sk->sk_user_data;
	if (conn) {
		queue_work(conn->wq, &conn->io_work);
		wake_up(&conn->tx_wait);
	}
	read_unlock_bh(&sk->sk_callback_lock);
	vl_test_delay(VL_TEST_CALLBACK_DELAY);
	srcu_read_unlock(&vl_callbacks_srcu, idx);
}

/* Room in the socket: only worth a wakeup if output is waiting for it. */
static void conn_write_space(struct sock *sk)
{
	struct vl_conn *conn;
	int idx;

	idx = srcu_read_lock(&vl_callbacks_srcu);
	read_lock_bh(&sk->sk_callback_lock);
	conn = sk->sk_user_data;
	if (conn && test_and_clear_bit(VL_CONN_TX_FULL, &conn->flags)) {
		queue_work(conn->wq, &conn->io_work);
		wake_up(&conn->tx_wait);
	}
	read_unlock_bh(&sk->sk_callback_lock);
	vl_test_delay(VL_TEST_CALLBACK_DELAY);
	srcu_read_unlock(&vl_callbacks_srcu, idx);
}

static bool conn_process(struct vl_conn *conn, bool in_caller);

/* Close a connection the client sent descriptors to, at once: closing
 * releases them (see vl_sender_passed_fds()).  From the socket's
 * callbacks, in any context.  Return: true if it was closed.
 */
static bool conn_refuse_fds(struct vl_conn *conn)
{
	if (!vl_sender_passed_fds(conn->sock->sk))
		return false;
	if (!test_and_set_bit(VL_CONN_DEAD, &conn->flags)) {
		vl_stat_inc(protocol_errors);
		pr_debug_ratelimited("closing a connection: it was sent a descriptor\n");
	}
	queue_work(conn->wq, &conn->io_work);
	return true;
}

/* Data arrived: serve it in the sending task if that is safe. */
static void conn_data_ready(struct sock *sk)
{
	struct vl_conn *conn;
	bool done = false;
	int idx;

	idx = srcu_read_lock(&vl_callbacks_srcu);
	read_lock_bh(&sk->sk_callback_lock);
	conn = sk->sk_user_data;
	if (conn)
		vl_conn_get(conn);
	read_unlock_bh(&sk->sk_callback_lock);
	if (!conn)
		goto out;

	/* before any read: the writer is the current task's process */
	vl_writers_note(&conn->writers);
	vl_test_delay(VL_TEST_FDS_DELAY);
	if (conn_refuse_fds(conn))
		done = true;	/* io_work is queued to tear it down */
	else if (READ_ONCE(vl_config.fast_path) && preemptible() &&
		 mutex_trylock(&conn->io_lock)) {
		done = conn_process(conn, true);
		mutex_unlock(&conn->io_lock);
		vl_test_delay(VL_TEST_SENDER_DELAY);
	}
	if (!done)
		queue_work(conn->wq, &conn->io_work);
	vl_conn_put(conn);
out:
	srcu_read_unlock(&vl_callbacks_srcu, idx);
}

/**
 * vl_conn_close() - close a connection
 * @conn: the connection
 *
 * Nothing is read or sent any more; io_work tears the connection down.
 * Safe from any context, any number of times.
 */
void vl_conn_close(struct vl_conn *conn)
{
	set_bit(VL_CONN_DEAD, &conn->flags);
	queue_work(conn->wq, &conn->io_work);
	wake_up(&conn->tx_wait);
}

/* A buffer of at least @size bytes, its size in *@cap. */
static void *buf_alloc(size_t size, size_t *cap)
{
	if (size <= VL_CONN_BUF) {
		*cap = VL_CONN_BUF;
		return vl_cache_alloc(&buf_cache, GFP_KERNEL_ACCOUNT);
	}
	vl_stat_inc(allocations);
	*cap = size;
	return kvmalloc(size, GFP_KERNEL_ACCOUNT);
}

static void buf_free(void *buf, size_t cap)
{
	if (cap <= VL_CONN_BUF)
		vl_cache_free(&buf_cache, buf);
	else
		kvfree(buf);
}

/* Send what the socket takes of @buf now, without waiting.
 * Return: the bytes sent, or a negative errno other than -EAGAIN.
 */
static ssize_t tx_write(struct vl_conn *conn, const char *buf, size_t len)
{
	size_t off = 0;

	lockdep_assert_held(&conn->lock);
	while (off < len) {
		struct kvec iov = {
			.iov_base = (char *)buf + off,
			.iov_len = len - off,
		};
		struct msghdr msg = { .msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL };
		int n = kernel_sendmsg(conn->sock, &msg, &iov, 1, iov.iov_len);

		if (n == -EAGAIN && !test_bit(VL_CONN_TX_FULL, &conn->flags)) {
			/* ask for a wakeup, then try again: none is lost */
			set_bit(VL_CONN_TX_FULL, &conn->flags);
			/* the flag before the retry; conn_write_space() pairs */
			smp_mb__after_atomic();
			continue;
		}
		if (n == -EAGAIN)
			break;
		if (n < 0)
			return n;
		off += n;
		vl_stat_inc(sends);
		vl_stat_add(bytes_out, n);
	}
	return off;
}

/* Hand queued output to the socket; what it does not take stays queued. */
static int tx_flush(struct vl_conn *conn)
{
	ssize_t n;

	lockdep_assert_held(&conn->lock);
	if (conn->tx_off == conn->tx_len)
		return 0;
	n = tx_write(conn, conn->tx + conn->tx_off, conn->tx_len - conn->tx_off);
	if (n < 0)
		return n;
	conn->tx_off += n;
	if (conn->tx_off == conn->tx_len) {
		/* all out: an idle connection holds no output buffer */
		buf_free(conn->tx, conn->tx_cap);
		conn->tx = NULL;
		conn->tx_off = 0;
		conn->tx_len = 0;
		conn->tx_cap = 0;
	}
	return 0;
}

static int tx_reserve(struct vl_conn *conn, size_t len)
{
	size_t need = conn->tx_len - conn->tx_off + len;
	size_t cap = VL_CONN_BUF;
	char *buf;

	lockdep_assert_held(&conn->lock);
	if (conn->tx_len + len <= conn->tx_cap)
		return 0;
	if (need <= conn->tx_cap) {
		/* room enough once what was sent is dropped */
		memmove(conn->tx, conn->tx + conn->tx_off, need - len);
		conn->tx_len -= conn->tx_off;
		conn->tx_off = 0;
		return 0;
	}
	while (cap < need)
		cap *= 2;
	buf = buf_alloc(cap, &cap);
	if (!buf)
		return -ENOMEM;
	if (conn->tx)
		memcpy(buf, conn->tx + conn->tx_off, conn->tx_len - conn->tx_off);
	buf_free(conn->tx, conn->tx_cap);
	conn->tx = buf;
	conn->tx_cap = cap;
	conn->tx_len -= conn->tx_off;
	conn->tx_off = 0;
	return 0;
}

/* Send @msg, or queue what the socket does not take now (see
 * vl_conn_send()).  Return: 0, or a negative errno to close.
 */
static int tx_send(struct vl_conn *conn, const char *msg, size_t len,
		   bool hold)
{
	size_t queued = conn->tx_len - conn->tx_off;
	bool cork;
	ssize_t n;
	int err;

	lockdep_assert_held(&conn->lock);
	if (queued + len > vl_config.max_output)
		return -ENOBUFS;
	/* only the reader's own task may see conn->cork */
	cork = (hold || (READ_ONCE(conn->server) == current && conn->cork)) &&
	       queued + len <= VL_CONN_BUF;
	if (queued && !cork && conn->tx_len + len <= conn->tx_cap) {
		/* the end of a batch: all of it in one write */
		memcpy(conn->tx + conn->tx_len, msg, len);
		conn->tx_len += len;
		return tx_flush(conn);
	}
	if (queued && !cork) {
		/* what is queued goes first, and may leave room for @msg */
		err = tx_flush(conn);
		if (err)
			return err;
		queued = conn->tx_len - conn->tx_off;
	}
	if (!queued && !cork) {
		/* nothing queued: straight from @msg */
		n = tx_write(conn, msg, len);
		if (n < 0)
			return n;
		if ((size_t)n == len)
			return 0;
		msg += n;
		len -= n;
	}
	err = tx_reserve(conn, len);
	if (err)
		return err;
	/* held back for the batch, or the socket is full: write_space wakes us */
	memcpy(conn->tx + conn->tx_len, msg, len);
	conn->tx_len += len;
	return 0;
}

/**
 * vl_conn_send() - send a message, queueing what the socket does not take
 * @conn: the connection
 * @msg: the message, its NUL included
 * @len: bytes of @msg
 * @hold: more messages follow at once: hold this one back for them
 *
 * Messages are held back, up to VL_CONN_BUF bytes, to go out with the
 * next one in one write: the replies of a stream that its method's
 * callback sends (@hold), until they fill VL_CONN_BUF, or the callback
 * sends its final reply or returns; and the connection reader's replies
 * while the client's next message is read already, so that a client
 * that pipelines its calls gets their replies in one go.  conn_serve()
 * sends what is held once the callback returns.
 *
 * Context: process context.
 * Return: 0; -ECONNRESET if the connection is closing; -ENOBUFS if the
 * output queue would pass max_output, or -ENOMEM: the connection is then
 * closed.
 */
int vl_conn_send(struct vl_conn *conn, const char *msg, size_t len,
		 bool hold)
{
	struct mem_cgroup *old_memcg;
	int err;

	mutex_lock(&conn->lock);
	if (test_bit(VL_CONN_DEAD, &conn->flags)) {
		mutex_unlock(&conn->lock);
		return -ECONNRESET;
	}
	old_memcg = set_active_memcg(conn->peer.memcg);
	err = tx_send(conn, msg, len, hold);
	set_active_memcg(old_memcg);
	if (err) {
		pr_debug_ratelimited("closing a connection: output queue (%d)\n",
				     err);
		vl_conn_close(conn);
	}
	mutex_unlock(&conn->lock);
	return err;
}

/* The client will not read what is queued: it closed, or the
 * connection is closing.
 */
static bool tx_abandoned(struct vl_conn *conn)
{
	return test_bit(VL_CONN_DEAD, &conn->flags) ||
	       (READ_ONCE(conn->sock->sk->sk_shutdown) & SEND_SHUTDOWN);
}

/* Send what is queued, if the socket takes it and more than @low bytes
 * are queued.  Return: the bytes still queued, or a negative errno once
 * the connection is closing.
 */
static ssize_t tx_drain(struct vl_conn *conn, size_t low)
{
	struct mem_cgroup *old_memcg;
	ssize_t ret;

	mutex_lock(&conn->lock);
	if (tx_abandoned(conn)) {
		mutex_unlock(&conn->lock);
		return -ECONNRESET;
	}
	ret = conn->tx_len - conn->tx_off;
	if (ret <= low) {
		/* replies held back for a batch stay so */
		mutex_unlock(&conn->lock);
		return ret;
	}
	old_memcg = set_active_memcg(conn->peer.memcg);
	ret = tx_flush(conn);
	set_active_memcg(old_memcg);
	if (ret)
		vl_conn_close(conn);
	else
		ret = conn->tx_len - conn->tx_off;
	mutex_unlock(&conn->lock);
	return ret;
}

/**
 * vl_conn_wait_output() - wait until the client has read most of its
 *	replies
 * @conn: the connection
 * @call_flags: the flags of the call that waits, for VL_CALL_CANCELLED
 *
 * Paced streams (varlink_reply_wait()): while more than half of
 * max_output is queued, the output queue is flushed here as the client
 * reads, since the connection's io_work may be the very task that waits,
 * and the wait ends once at most half of max_output is left queued.
 * The socket's write_space and state_change callbacks, a close and the
 * call's cancellation wake it.
 *
 * Context: process context, may sleep; not under the connection's @lock.
 * Return: 0; -ECANCELED if the call was cancelled, -ECONNRESET if the
 * connection is closing or its client closed, -EINTR on a fatal signal.
 */
int vl_conn_wait_output(struct vl_conn *conn, const unsigned long *call_flags)
{
	size_t low = vl_config.max_output / 2;
	ssize_t queued;

	for (;;) {
		if (test_bit(VL_CALL_CANCELLED, call_flags))
			return -ECANCELED;
		queued = tx_drain(conn, low);
		if (queued < 0)
			return queued;
		if (queued <= low)
			return 0;
		/* tx_flush() set TX_FULL: write_space clears it and wakes us */
		if (wait_event_killable(conn->tx_wait,
					!test_bit(VL_CONN_TX_FULL, &conn->flags) ||
					tx_abandoned(conn) ||
					test_bit(VL_CALL_CANCELLED, call_flags)))
			return -EINTR;
	}
}

/**
 * vl_conn_wake_output() - wake a call waiting in vl_conn_wait_output()
 * @conn: the connection
 *
 * For a call that was cancelled.
 */
void vl_conn_wake_output(struct vl_conn *conn)
{
	wake_up(&conn->tx_wait);
}

/**
 * vl_conn_call_start() - a call of the connection is about to run
 * @conn: the connection
 * @call: the call
 *
 * No further message is read until vl_conn_call_done(), and a teardown
 * cancels the call.
 */
void vl_conn_call_start(struct vl_conn *conn, struct varlink_call *call)
{
	mutex_lock(&conn->lock);
	WARN_ON_ONCE(conn->call);
	conn->call = call;
	mutex_unlock(&conn->lock);
}

/**
 * vl_conn_call_done() - a call of the connection sent its final reply
 * @conn: the connection
 * @call: the call
 *
 * The connection reads its next message.
 */
void vl_conn_call_done(struct vl_conn *conn, struct varlink_call *call)
{
	mutex_lock(&conn->lock);
	if (conn->call == call)
		conn->call = NULL;
	mutex_unlock(&conn->lock);
	/* finished from elsewhere: the connection's reader must go on */
	if (READ_ONCE(conn->server) != current)
		queue_work(conn->wq, &conn->io_work);
}

static void rx_release(struct vl_conn *conn)
{
	buf_free(conn->rx, conn->rx_cap);
	conn->rx = NULL;
	conn->rx_cap = 0;
}

/* Room for more input: doubling, up to max_message_size. */
static int rx_grow(struct vl_conn *conn)
{
	u32 max = vl_config.max_message_size;
	size_t cap;
	char *buf;

	lockdep_assert_held(&conn->io_lock);
	buf = buf_alloc(min_t(size_t, conn->rx_cap * 2, max), &cap);
	if (!buf)
		return -ENOMEM;
	if (conn->rx_len)
		memcpy(buf, conn->rx, conn->rx_len);
	buf_free(conn->rx, conn->rx_cap);
	conn->rx = buf;
	conn->rx_cap = min_t(size_t, cap, max);
	return 0;
}

static bool rx_empty(const struct sock *sk)
{
	return skb_queue_empty_lockless(&sk->sk_receive_queue) &&
	       !(READ_ONCE(sk->sk_shutdown) & RCV_SHUTDOWN);
}

/* Find the next complete message, at conn->rx + conn->rx_off, reading
 * from the socket as needed.
 * Return: 1 with *@len set to the message's length (without its NUL);
 * 0 if it has not all arrived yet; a negative errno to close.
 */
static int rx_next(struct vl_conn *conn, u32 *len)
{
	lockdep_assert_held(&conn->io_lock);
	for (;;) {
		char *nul = memchr(conn->rx + conn->rx_scanned, '\0',
				   conn->rx_len - conn->rx_scanned);
		struct kvec iov;
		bool changed;
		int n;

		if (nul) {
			*len = nul - (conn->rx + conn->rx_off);
			return 1;
		}
		conn->rx_scanned = conn->rx_len;
		if (conn->rx_len - conn->rx_off == vl_config.max_message_size)
			return -EMSGSIZE;

		if (conn->rx_off) {
			/* the start of a message: to the front, once */
			conn->rx_len -= conn->rx_off;
			memmove(conn->rx, conn->rx + conn->rx_off, conn->rx_len);
			conn->rx_off = 0;
			conn->rx_scanned = conn->rx_len;
		}
		/* Nothing to read, and no end of input to learn: spare the
		 * system call.  What comes now calls conn_data_ready(), which
		 * finds @io_lock held and queues io_work.
		 */
		if (rx_empty(conn->sock->sk)) {
			if (!conn->rx_len)
				rx_release(conn);	/* idle: hold no buffer */
			return 0;
		}
		if (conn->rx_len == conn->rx_cap && rx_grow(conn))
			return -ENOMEM;
		iov.iov_base = conn->rx + conn->rx_len;
		iov.iov_len = conn->rx_cap - conn->rx_len;
		n = vl_sender_recv(conn->sock, &iov, &conn->sender,
				   &conn->writers, &changed);
		/* the start of this message came from somebody else */
		if (n > 0 && changed && conn->rx_len)
			conn->rx_mixed = true;
		if (n == -EAGAIN && !conn->rx_len)
			rx_release(conn);	/* idle: hold no buffer */
		if (n == -EAGAIN)
			return 0;
		if (n == -EBADMSG)	/* descriptors came with it */
			vl_stat_inc(protocol_errors);
		if (n <= 0)
			return n ? n : -ECONNRESET;
		conn->rx_len += n;
		vl_stat_add(bytes_in, n);
	}
}

/* Done with @len bytes at conn->rx_off: the next message follows. */
static void rx_consume(struct vl_conn *conn, u32 len)
{
	lockdep_assert_held(&conn->io_lock);
	conn->rx_off += len;
	conn->rx_scanned = conn->rx_off;
	/* what follows in @rx is all of the last read's writer */
	conn->rx_mixed = false;
	if (conn->rx_off == conn->rx_len) {
		conn->rx_off = 0;
		conn->rx_len = 0;
		conn->rx_scanned = 0;
	}
}

static void set_callbacks(struct vl_conn *conn)
{
	struct sock *sk = conn->sock->sk;

	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = conn;
	conn->saved_data_ready = sk->sk_data_ready;
	conn->saved_write_space = sk->sk_write_space;
	conn->saved_state_change = sk->sk_state_change;
	sk->sk_data_ready = conn_data_ready;
	sk->sk_write_space = conn_write_space;
	sk->sk_state_change = conn_wake;
	write_unlock_bh(&sk->sk_callback_lock);
}

static void restore_callbacks(struct vl_conn *conn)
{
	struct sock *sk = conn->sock->sk;

	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = NULL;
	sk->sk_data_ready = conn->saved_data_ready;
	sk->sk_write_space = conn->saved_write_space;
	sk->sk_state_change = conn->saved_state_change;
	write_unlock_bh(&sk->sk_callback_lock);
}

/* Runs once, in io_work, when the connection is dead. */
static void conn_teardown(struct vl_conn *conn)
{
	struct varlink_call *call;
	struct socket *sock;

	if (test_and_set_bit(VL_CONN_TORN_DOWN, &conn->flags))
		return;

	restore_callbacks(conn);
	mutex_lock(&conn->lock);
	/* replies held back for a batch still go out, if the socket takes them */
	tx_flush(conn);
	sock = conn->sock;
	call = conn->call;
	if (call)
		vl_call_get(call);
	mutex_unlock(&conn->lock);

	/* a call in flight learns that nobody waits for it any more */
	if (call) {
		vl_call_cancel(call, true);
		vl_call_put(call);
	}
	kernel_sock_shutdown(sock, SHUT_RDWR);

	spin_lock(&conns_lock);
	list_del(&conn->node);
	spin_unlock(&conns_lock);
	vl_admission_leave(&conn->peer);
	vl_conn_put(conn);
}

/* The loop of conn_process(). */
static bool conn_serve(struct vl_conn *conn, bool in_caller)
{
	unsigned int budget = 64;	/* messages per run: be fair */
	bool idle, hold;
	int err = 0;
	char *msg;
	u32 len;

	/* @sender is read, and handed to vl_dispatch(), under @io_lock */
	lockdep_assert_held(&conn->io_lock);
	while (!test_bit(VL_CONN_DEAD, &conn->flags)) {
		mutex_lock(&conn->lock);
		/* replies held back go out with the next message's reply */
		hold = conn->cork && !conn->call &&
		       conn->tx_len - conn->tx_off < VL_CONN_BUF;
		err = hold ? 0 : tx_flush(conn);
		idle = !conn->call && (hold || conn->tx_off == conn->tx_len);
		mutex_unlock(&conn->lock);
		if (err)
			break;
		/* The peer closed for good (not just its writing side): a call
		 * in flight is cancelled by the teardown.  sk_state_change
		 * queued us.
		 */
		if (READ_ONCE(conn->sock->sk->sk_shutdown) & SEND_SHUTDOWN) {
			err = -ECONNRESET;
			break;
		}
		if (!idle)
			return true;	/* a reply or write_space wakes us */
		if (!budget--)
			return false;

		err = rx_next(conn, &len);
		if (err <= 0)
			break;
		/* hold this reply back if the next message is here already */
		msg = conn->rx + conn->rx_off;
		conn->cork = memchr(msg + len + 1, '\0',
				    conn->rx_len - conn->rx_off - len - 1);
		/* its sender: the last read's writer, if it wrote all of it */
		if (vl_dispatch(conn, &conn->peer,
				conn->rx_mixed ? NULL : &conn->sender,
				msg, len, in_caller) == -EAGAIN)
			return false;	/* not for this task: io_work */
		rx_consume(conn, len + 1);
	}
	if (err < 0) {
		pr_debug_ratelimited("closing a connection (%d)\n", err);
		set_bit(VL_CONN_DEAD, &conn->flags);
	}
	return !test_bit(VL_CONN_DEAD, &conn->flags);
}

/* Serve what has arrived.  @in_caller: in the task that sent it, see the
 * top of this file.
 * Return: true if nothing is left for io_work to do.
 */
static bool conn_process(struct vl_conn *conn, bool in_caller)
{
	struct mem_cgroup *old_memcg;
	bool done;

	lockdep_assert_held(&conn->io_lock);
	WRITE_ONCE(conn->server, current);
	old_memcg = set_active_memcg(conn->peer.memcg);
	done = conn_serve(conn, in_caller);
	set_active_memcg(old_memcg);
	WRITE_ONCE(conn->server, NULL);
	return done;
}

static void io_work(struct work_struct *work)
{
	struct vl_conn *conn = container_of(work, struct vl_conn, io_work);

	mutex_lock(&conn->io_lock);
	if (!conn_process(conn, false) && !test_bit(VL_CONN_DEAD, &conn->flags))
		queue_work(conn->wq, work);	/* budget spent */
	if (test_bit(VL_CONN_DEAD, &conn->flags))
		conn_teardown(conn);
	mutex_unlock(&conn->io_lock);
}

static void free_work(struct work_struct *work)
{
	struct vl_conn *conn = container_of(work, struct vl_conn, free_work);

	/* nothing queues io_work any more: the socket's callbacks are gone */
	cancel_work_sync(&conn->io_work);
	sock_release(conn->sock);
	put_pid(conn->sender.pid);
	vl_writers_release(&conn->writers);
	rx_release(conn);
	buf_free(conn->tx, conn->tx_cap);
	vl_peer_put(&conn->peer);
	mutex_destroy(&conn->lock);
	mutex_destroy(&conn->io_lock);
	kfree(conn);
}

/**
 * vl_conn_create() - serve an accepted socket
 * @sock: the socket, owned by the connection from now on, even on error
 * @wq: the workqueue to serve it on
 *
 * The peer is the task that connected (peer.c): what the connection
 * holds is charged to its memory cgroup, and its calls are answered in
 * its namespaces.  A connection over a limit (admission.c) gets
 * TooManyConnections and the socket is closed.
 *
 * Return: 0, or -ENOMEM, -EPROTO (no peer credentials) or -EMFILE
 * (refused), the socket released.
 */
int vl_conn_create(struct socket *sock, struct workqueue_struct *wq)
{
	struct mem_cgroup *old_memcg;
	struct vl_peer peer;
	struct vl_conn *conn;
	int err;

	err = vl_peer_get(&peer, sock);
	if (err)
		goto err_peer;
	old_memcg = set_active_memcg(peer.memcg);
	conn = kzalloc(sizeof(*conn), GFP_KERNEL_ACCOUNT);
	set_active_memcg(old_memcg);
	if (!conn) {
		err = -ENOMEM;
		goto err_peer;
	}
	conn->peer = peer;
	conn->sock = sock;
	conn->wq = wq;
	INIT_WORK(&conn->io_work, io_work);
	INIT_WORK(&conn->free_work, free_work);
	mutex_init(&conn->lock);
	init_waitqueue_head(&conn->tx_wait);
	mutex_init(&conn->io_lock);
	vl_writers_init(&conn->writers);
	refcount_set(&conn->ref, 1);

	err = vl_admit(&conn->peer, sock);
	if (err)
		goto err_conn;
	spin_lock(&conns_lock);
	list_add_tail(&conn->node, &conns);
	spin_unlock(&conns_lock);

	/* once the callbacks are set, io_work may run and close it; it
	 * reads only once who wrote before them is noted
	 */
	vl_conn_get(conn);
	mutex_lock(&conn->io_lock);
	set_callbacks(conn);
	vl_writers_accepted(&conn->writers, sock->sk, &conn->peer);
	mutex_unlock(&conn->io_lock);
	/* data may be there already, and descriptors with it */
	if (!conn_refuse_fds(conn))
		queue_work(wq, &conn->io_work);
	vl_conn_put(conn);
	return 0;

err_conn:
	mutex_destroy(&conn->lock);
	mutex_destroy(&conn->io_lock);
	kfree(conn);
err_peer:
	vl_peer_put(&peer);
	sock_release(sock);
	return err;
}

/**
 * vl_conn_shutdown_all() - close every connection and wait until all are
 * torn down and no client's task is left in conn_data_ready()
 *
 * Context: module exit, after the listener is gone; the caller then
 * destroys the workqueue, which runs what is left of their work.
 */
void vl_conn_shutdown_all(void)
{
	struct vl_conn *conn;

	spin_lock(&conns_lock);
	list_for_each_entry(conn, &conns, node)
		vl_conn_close(conn);
	spin_unlock(&conns_lock);
	wait_var_event(&vl_connections, !atomic_read(&vl_connections));
	/* the callbacks are gone: wait for the senders still inside */
	synchronize_srcu(&vl_callbacks_srcu);
}

/**
 * vl_conn_init() - set up the cache of buffers
 *
 * Return: 0 or -ENOMEM.
 */
int vl_conn_init(void)
{
	return vl_cache_init(&buf_cache, "varlink_buf", VL_CONN_BUF);
}

/**
 * vl_conn_exit() - free the cache of buffers, once every connection
 * is gone
 */
void vl_conn_exit(void)
{
	vl_cache_destroy(&buf_cache);
}
