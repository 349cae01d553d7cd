// SPDX-License-Identifier: GPL-2.0
/*
 * One client connection: NUL framing on the byte stream, the output
 * queue, backpressure and teardown.  Who opened it and who wrote each
 * message is peer.c's and sender.c's, whether it is taken at all
 * admission.c's, what a message means the input callback's (dispatch.c).
 *
 * Each connection has one work item, io_work, which reads and hands each
 * message to the input callback under @io_lock: calls are handled one at
 * a time and in order, and many connections are served in parallel on
 * an unbound workqueue.
 *
 * The fast path: AF_UNIX calls our sk_data_ready() from the client's
 * sendmsg() (or sendpage()), after dropping the locks of both sockets.
 * When that task may sleep (preemptible(): no spinlock, no RCU-sched or
 * atomic section), nobody else is serving the connection (@io_lock is
 * free) and the method is VARLINK_INLINE (dispatch.c), the call is
 * served right there and its reply queued to the client before its
 * sendmsg() returns, with no thread switch at all.  Anything else falls
 * back to io_work, which re-reads the message.
 *
 * No work item sleeps on a lock that a client's task can hold.  The
 * client's own task may hold @io_lock for as long as it is kept off the
 * CPU (a CPU quota, SCHED_IDLE): io_work only tries it, and if it is
 * taken, leaves a note (VL_CONN_IO_WANTED) that the holder reads after
 * it lets go, and queues io_work again (io_unlock()).  The output queue
 * (txq.c) and @call are under spinlocks, which no task holds while off
 * the CPU, and a task that finds another writing the socket leaves its
 * message for it.
 *
 * Memory: what a connection holds is charged to the memory cgroup of
 * the process that opened it, as its socket recorded it at connect()
 * (peer.c) (GFP_KERNEL_ACCOUNT, SLAB_ACCOUNT, with that cgroup made the
 * active one while the connection is served or sent to), so that a
 * client cannot pin kernel memory past its cgroup's limit; a charge that
 * fails closes the connection.  An idle connection holds no buffer.
 *
 * Batching: while the next message has been read already, the reply to
 * the current one is held back in the output queue (up to VL_BUF_SIZE),
 * so that a client that pipelines its calls gets their replies with one
 * sendmsg() instead of one each; so are the replies of a stream that its
 * method's callback or its stream's work (streams.c) sends, until they
 * fill VL_BUF_SIZE or the callback returns (vl_conn_send()).
 *
 * Backpressure: a new message is read only when no call is in flight and
 * every reply has been handed to the socket (or is held back, as above).
 * A client that does not read its replies therefore stops being read, and
 * what it does not read stays in its own socket buffer; only streamed
 * replies can pile up in the output queue, and past max_output the
 * connection is closed.  A paced stream stops at half of it and goes on
 * once the client has read: the push that leaves at most half queued
 * queues io_work, which runs it (streams.c).
 *
 * Descriptors: a varlink client never sends any, and one sent to a
 * connection is refused on every kernel: since 6.16 the client's
 * sendmsg() fails (SO_PASSRIGHTS off, sender.c); before, sk_data_ready()
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
#include "conn.h"
#include "params.h"
#include "peer.h"
#include "sender.h"
#include "stats.h"
#include "test_hooks.h"
#include "txq.h"
#include "workers.h"

enum {
	VL_CONN_DEAD,		/* closing: read nothing, send nothing */
	VL_CONN_TORN_DOWN,	/* teardown done */
	VL_CONN_IO_WANTED,	/* io_work found @io_lock taken: run it again */
};

struct vl_conn {
	struct socket *sock;
	struct workqueue_struct *wq;
	const struct vl_conn_ops *ops;
	struct work_struct io_work;
	struct work_struct free_work;
	struct list_head node;
	refcount_t ref;
	unsigned long flags;
	struct vl_peer peer;		/* who opened it */
	struct vl_worker worker;	/* io_work's share, workers.c */
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

	struct vl_txq txq;		/* output, see txq.c */
	spinlock_t lock;		/* @call */
	struct varlink_call *call;
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
static struct workqueue_struct *conn_wq;

void vl_conn_get(struct vl_conn *conn)
{
	refcount_inc(&conn->ref);
}

void vl_conn_put(struct vl_conn *conn)
{
	if (refcount_dec_and_test(&conn->ref))
		queue_work(conn->wq, &conn->free_work);
}

static void io_queue(struct vl_conn *conn)
{
	queue_work(conn->wq, &conn->io_work);
}

/**
 * vl_conn_kick() - have io_work look at the connection again
 * @conn: the connection
 *
 * For the stream of its call in flight (streams.c).
 *
 * Context: any context but NMI.
 */
void vl_conn_kick(struct vl_conn *conn)
{
	io_queue(conn);
}

static void conn_wake(struct sock *sk)
{
	struct vl_conn *conn;
	int idx;

	idx = srcu_read_lock(&vl_callbacks_srcu);
	read_lock_bh(&sk->sk_callback_lock);
	conn = sk->sk_user_data;
	if (conn)
		io_queue(conn);
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
	if (conn && vl_txq_room(&conn->txq))
		io_queue(conn);
	read_unlock_bh(&sk->sk_callback_lock);
	vl_test_delay(VL_TEST_CALLBACK_DELAY);
	srcu_read_unlock(&vl_callbacks_srcu, idx);
}

static bool conn_process(struct vl_conn *conn, bool in_caller);

/* Let go of @io_lock; if io_work found it taken meanwhile, it runs again.
 * Pairs with io_work(): either it sees the lock free, or this sees its
 * note.
 */
static void io_unlock(struct vl_conn *conn)
{
	mutex_unlock(&conn->io_lock);
	smp_mb();	/* the unlock before the test: pairs with io_work() */
	if (test_bit(VL_CONN_IO_WANTED, &conn->flags))
		io_queue(conn);
}

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
	io_queue(conn);
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
	if (conn_refuse_fds(conn)) {
		done = true;	/* io_work is queued to tear it down */
	} else if (READ_ONCE(vl_config.fast_path) && preemptible() &&
		   mutex_trylock(&conn->io_lock)) {
		done = conn_process(conn, true);
		/* where a client kept off the CPU holds its connection */
		if (done)
			vl_test_delay(VL_TEST_INLINE_DELAY);
		io_unlock(conn);
		vl_test_delay(VL_TEST_SENDER_DELAY);
	}
	if (!done)
		io_queue(conn);
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
	io_queue(conn);
}

/* Hand the output queue to the socket; a paced stream of the call in
 * flight goes on once it leaves room (streams.c).  A send that fails
 * closes the connection.
 */
static int tx_push(struct vl_conn *conn)
{
	bool room;
	int err;

	err = vl_txq_push(&conn->txq, conn->sock, &room);
	if (err) {
		pr_debug_ratelimited("closing a connection: send (%d)\n", err);
		vl_conn_close(conn);
	} else if (room) {
		io_queue(conn);
	}
	return err;
}

/**
 * vl_conn_send() - send a message, queueing what the socket does not take
 * @conn: the connection
 * @msg: the message, its NUL included
 * @len: bytes of @msg
 * @hold: more messages follow at once: hold this one back for them
 *
 * Messages are held back, up to VL_BUF_SIZE bytes, to go out with the
 * next one in one write: the replies of a stream that its method's
 * callback or its stream's work sends (@hold), until they fill
 * VL_BUF_SIZE, or the callback or the stream's run returns; and the
 * connection reader's replies while the client's next message is read
 * already, so that a client that pipelines its calls gets their replies
 * in one go.  vl_conn_flush() sends what is held.
 *
 * Context: process context; it never waits for another task.
 * Return: 0; -ECONNRESET if the connection is closing; -ENOBUFS if the
 * output queue would pass max_output, or -ENOMEM: the connection is then
 * closed.
 */
int vl_conn_send(struct vl_conn *conn, const char *msg, size_t len,
		 bool hold)
{
	struct mem_cgroup *old_memcg;
	int err;

	if (test_bit(VL_CONN_DEAD, &conn->flags))
		return -ECONNRESET;
	/* only the reader's own task may see conn->cork */
	hold = hold || (READ_ONCE(conn->server) == current && conn->cork);

	old_memcg = set_active_memcg(conn->peer.memcg);
	err = vl_txq_queue(&conn->txq, msg, len);
	set_active_memcg(old_memcg);
	if (err) {
		pr_debug_ratelimited("closing a connection: output queue (%d)\n",
				     err);
		vl_conn_close(conn);
		return err;
	}
	if (hold && vl_txq_queued(&conn->txq) <= VL_BUF_SIZE)
		return 0;
	return tx_push(conn);
}

/**
 * vl_conn_flush() - send the replies held back for a batch
 * @conn: the connection
 *
 * Context: process context.
 */
void vl_conn_flush(struct vl_conn *conn)
{
	tx_push(conn);
}

/**
 * vl_conn_output_low() - whether a paced stream may send more
 * @conn: the connection
 *
 * Return: true while at most half of max_output is queued.
 */
bool vl_conn_output_low(struct vl_conn *conn)
{
	return vl_txq_queued(&conn->txq) <= vl_config.max_output / 2;
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
	spin_lock(&conn->lock);
	WARN_ON_ONCE(conn->call);
	conn->call = call;
	spin_unlock(&conn->lock);
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
	spin_lock(&conn->lock);
	if (conn->call == call)
		conn->call = NULL;
	spin_unlock(&conn->lock);
	/* finished from elsewhere: the connection's reader must go on */
	if (READ_ONCE(conn->server) != current)
		io_queue(conn);
}

static void rx_release(struct vl_conn *conn)
{
	vl_buf_free(conn->rx, conn->rx_cap);
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
	buf = vl_buf_alloc(min_t(size_t, conn->rx_cap * 2, max), &cap);
	if (!buf)
		return -ENOMEM;
	if (conn->rx_len)
		memcpy(buf, conn->rx, conn->rx_len);
	vl_buf_free(conn->rx, conn->rx_cap);
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

/* The call in flight, with a reference, or NULL */
static struct varlink_call *conn_call_get(struct vl_conn *conn)
{
	struct varlink_call *call;

	spin_lock(&conn->lock);
	call = conn->call;
	if (call)
		conn->ops->get(call);
	spin_unlock(&conn->lock);
	return call;
}

/* Run the stream of the call in flight, in io_work: true if it ran. */
static bool conn_stream(struct vl_conn *conn)
{
	struct varlink_call *call = conn_call_get(conn);
	bool ran;

	if (!call)
		return false;
	ran = conn->ops->stream(call);
	conn->ops->put(call);
	return ran;
}

/* Runs once, in io_work, when the connection is dead. */
static void conn_teardown(struct vl_conn *conn)
{
	struct varlink_call *call;

	if (test_and_set_bit(VL_CONN_TORN_DOWN, &conn->flags))
		return;

	restore_callbacks(conn);
	/* replies held back for a batch still go out, if the socket takes them */
	tx_push(conn);
	call = conn_call_get(conn);
	/* a call in flight learns that nobody waits for it any more */
	if (call) {
		conn->ops->cancel(call);
		conn->ops->put(call);
	}
	kernel_sock_shutdown(conn->sock, SHUT_RDWR);

	spin_lock(&conns_lock);
	list_del(&conn->node);
	spin_unlock(&conns_lock);
	vl_admission_leave(&conn->peer);
	vl_conn_put(conn);
}

/* The client will not read any more: it closed for good (not just its
 * writing side).  sk_state_change queued io_work.
 */
static bool rx_hung_up(struct vl_conn *conn)
{
	return READ_ONCE(conn->sock->sk->sk_shutdown) & SEND_SHUTDOWN;
}

/* Whether a new message may be read: no call in flight, and every reply
 * handed to the socket or held back for the next one's.
 */
static bool conn_idle(struct vl_conn *conn, int *err)
{
	bool hold, idle;

	spin_lock(&conn->lock);
	/* replies held back go out with the next message's reply */
	hold = conn->cork && !conn->call &&
	       vl_txq_queued(&conn->txq) < VL_BUF_SIZE;
	spin_unlock(&conn->lock);
	*err = hold ? 0 : tx_push(conn);
	spin_lock(&conn->lock);
	idle = !conn->call && (hold || !vl_txq_queued(&conn->txq));
	spin_unlock(&conn->lock);
	return idle;
}

/* The loop of conn_process(). */
static bool conn_serve(struct vl_conn *conn, bool in_caller)
{
	unsigned int budget = 64;	/* messages per run: be fair */
	int err = 0;
	char *msg;
	u32 len;

	/* @sender is read, and handed to the input callback, under @io_lock */
	lockdep_assert_held(&conn->io_lock);
	while (!test_bit(VL_CONN_DEAD, &conn->flags)) {
		bool idle = conn_idle(conn, &err);

		if (err)
			break;
		if (rx_hung_up(conn)) {
			err = -ECONNRESET;	/* the teardown cancels a call */
			break;
		}
		if (!budget--)
			return false;
		/* a stream runs in its connection's worker, nowhere else */
		if (!idle && !in_caller && conn_stream(conn))
			continue;
		if (!idle)
			return true;	/* a reply, a kick or write_space wakes us */

		err = rx_next(conn, &len);
		if (err <= 0)
			break;
		/* hold this reply back if the next message is here already */
		msg = conn->rx + conn->rx_off;
		conn->cork = memchr(msg + len + 1, '\0',
				    conn->rx_len - conn->rx_off - len - 1);
		/* its sender: the last read's writer, if it wrote all of it */
		if (conn->ops->input(conn, &conn->peer,
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
	bool again;

	set_bit(VL_CONN_IO_WANTED, &conn->flags);
	/* the note before the try: pairs with io_unlock() */
	smp_mb__after_atomic();
	if (!mutex_trylock(&conn->io_lock))
		return;		/* its holder queues us when it lets go */
	clear_bit(VL_CONN_IO_WANTED, &conn->flags);
	if (!vl_worker_enter(&conn->worker)) {
		io_unlock(conn);
		return;		/* queued again when the tenant has room */
	}
	again = !conn_process(conn, false) &&
		!test_bit(VL_CONN_DEAD, &conn->flags);
	if (test_bit(VL_CONN_DEAD, &conn->flags))
		conn_teardown(conn);
	io_unlock(conn);
	vl_worker_leave(&conn->worker);
	if (again)
		io_queue(conn);	/* budget spent */
}

/* The tenant of @w has room again: io_work may run. */
static void io_resume(struct vl_worker *w)
{
	io_queue(container_of(w, struct vl_conn, worker));
}

static void free_work(struct work_struct *work)
{
	struct vl_conn *conn = container_of(work, struct vl_conn, free_work);

	/* nothing queues io_work any more: the socket's callbacks are gone */
	cancel_work_sync(&conn->io_work);
	vl_worker_forget(&conn->worker);
	sock_release(conn->sock);
	put_pid(conn->sender.pid);
	vl_writers_release(&conn->writers);
	rx_release(conn);
	vl_txq_release(&conn->txq);
	vl_peer_put(&conn->peer);
	mutex_destroy(&conn->io_lock);
	kfree(conn);
}

/**
 * vl_conn_create() - serve an accepted socket
 * @sock: the socket, owned by the connection from now on, even on error
 * @ops: what its messages mean, see &struct vl_conn_ops
 *
 * The peer is the task that connected (peer.c): what the connection
 * holds is charged to its memory cgroup, and its calls are answered in
 * its namespaces.  A connection over a limit (admission.c) gets
 * TooManyConnections and the socket is closed.
 *
 * Return: 0, or -ENOMEM, -EPROTO (no peer credentials) or -EMFILE
 * (refused), the socket released.
 */
int vl_conn_create(struct socket *sock, const struct vl_conn_ops *ops)
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
	conn->wq = conn_wq;
	conn->ops = ops;
	INIT_WORK(&conn->io_work, io_work);
	INIT_WORK(&conn->free_work, free_work);
	vl_worker_init(&conn->worker, &conn->peer, io_resume);
	spin_lock_init(&conn->lock);
	vl_txq_init(&conn->txq);
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
	io_unlock(conn);
	/* data may be there already, and descriptors with it */
	if (!conn_refuse_fds(conn))
		io_queue(conn);
	vl_conn_put(conn);
	return 0;

err_conn:
	mutex_destroy(&conn->io_lock);
	kfree(conn);
err_peer:
	vl_peer_put(&peer);
	sock_release(sock);
	return err;
}

/**
 * vl_conn_peer() - who opened a connection
 * @conn: the connection
 *
 * Return: its opener, valid as long as the connection.
 */
const struct vl_peer *vl_conn_peer(const struct vl_conn *conn)
{
	return &conn->peer;
}

/**
 * vl_conn_wq() - the workqueue that serves connections and their streams
 *
 * Return: the workqueue, while varlink.ko is loaded.
 */
struct workqueue_struct *vl_conn_wq(void)
{
	return conn_wq;
}

/**
 * vl_conn_shutdown_all() - close every connection and wait until all are
 * torn down and no client's task is left in conn_data_ready()
 *
 * Context: module exit, after the listener is gone.
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
 * vl_conn_init() - set up the cache of buffers and the workqueue
 *
 * Return: 0 or -ENOMEM.
 */
int vl_conn_init(void)
{
	int err;

	/* unbound: connections are served in parallel on all CPUs */
	conn_wq = alloc_workqueue("varlink", WQ_UNBOUND, VL_WORKERS_MAX);
	if (!conn_wq)
		return -ENOMEM;
	err = vl_bufs_init();
	if (err)
		destroy_workqueue(conn_wq);
	return err;
}

/**
 * vl_conn_exit() - free the workqueue and the cache of buffers, once
 * every connection is gone
 *
 * The workqueue runs what is left of their work first.
 */
void vl_conn_exit(void)
{
	destroy_workqueue(conn_wq);
	vl_bufs_exit();
}
