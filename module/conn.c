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
 * is under a spinlock, which no task holds while off the CPU, and the
 * socket is written by whichever task finds nobody writing it (@tx_busy):
 * a task that finds it busy queues its message and leaves, and the
 * writer sends it before it stops (tx_push()).
 *
 * Memory: what a connection holds is charged to the memory cgroup of
 * the process that opened it, as its socket recorded it at connect()
 * (peer.c) (GFP_KERNEL_ACCOUNT, SLAB_ACCOUNT, with that cgroup made the
 * active one while the connection is served or sent to), so that a
 * client cannot pin kernel memory past its cgroup's limit; a charge that
 * fails closes the connection.  An idle connection holds no buffer.
 * Buffers up to VL_CONN_BUF come from a per-CPU cache (cache.c).
 *
 * Batching: while the next message has been read already, the reply to
 * the current one is held back in the output queue (up to VL_CONN_BUF),
 * so that a client that pipelines its calls gets their replies with one
 * sendmsg() instead of one each; so are the replies of a stream that its
 * method's callback or its stream's work (streams.c) sends, until they
 * fill VL_CONN_BUF or the callback returns (vl_conn_send()).
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
#include "cache.h"
#include "conn.h"
#include "params.h"
#include "peer.h"
#include "sender.h"
#include "stats.h"
#include "test_hooks.h"
#include "workers.h"

enum {
	VL_CONN_DEAD,		/* closing: read nothing, send nothing */
	VL_CONN_TORN_DOWN,	/* teardown done */
	VL_CONN_TX_FULL,	/* the socket took not all output: wake on space */
	VL_CONN_IO_WANTED,	/* io_work found @io_lock taken: run it again */
};

/* Buffers up to this size come from buf_cache; so many replies are
 * batched: 16 of GetInfo's, for one
 */
#define VL_CONN_BUF		8192
/* Buffers of the output queue written to the socket in one sendmsg() */
#define VL_CONN_IOVS		8

/**
 * struct vl_txbuf - a buffer of the output queue
 * @node: on the connection's @txq
 * @head: the first byte not sent yet
 * @tail: the end of what is queued
 * @size: bytes of @data
 * @data: the messages, back to back
 *
 * Only the task that writes the socket (the connection's @tx_busy) reads
 * @data[@head..@tail), outside the lock; others only append after @tail.
 */
struct vl_txbuf {
	struct list_head node;
	u32 head;
	u32 tail;
	u32 size;
	char data[];
};

#define VL_TXBUF_DATA	(VL_CONN_BUF - sizeof(struct vl_txbuf))

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

	/* output and the call in flight, under @tx_lock */
	spinlock_t tx_lock;
	struct list_head txq;		/* struct vl_txbuf */
	size_t tx_queued;		/* bytes in @txq not sent yet */
	bool tx_busy;			/* a task writes @txq to the socket */
	bool tx_again;			/* ... and is asked to go on */
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
static struct vl_cache buf_cache;
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
	if (conn && test_and_clear_bit(VL_CONN_TX_FULL, &conn->flags))
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
		/* a stalled client holds the lock here, and only here */
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

/* An output buffer with room for @len bytes, holding @msg. */
static struct vl_txbuf *txbuf_new(const char *msg, size_t len)
{
	struct vl_txbuf *b;
	size_t cap;

	b = buf_alloc(max_t(size_t, struct_size(b, data, len), VL_CONN_BUF),
		      &cap);
	if (!b)
		return NULL;
	b->size = cap - sizeof(*b);
	b->head = 0;
	b->tail = len;
	memcpy(b->data, msg, len);
	return b;
}

static void txbuf_free(struct vl_txbuf *b)
{
	buf_free(b, sizeof(*b) + b->size);
}

/* Send what the socket takes of @iov now, without waiting.
 * Return: the bytes sent, or a negative errno other than -EAGAIN.
 */
static ssize_t tx_write(struct vl_conn *conn, struct kvec *iov, size_t n,
			size_t len)
{
	struct msghdr msg = { .msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL };
	bool asked = false;
	size_t off = 0;
	int sent;

	while (off < len) {
		sent = kernel_sendmsg(conn->sock, &msg, iov, n, len - off);
		if (sent == -EAGAIN && !asked) {
			/* ask for a wakeup, then try again: none is lost */
			set_bit(VL_CONN_TX_FULL, &conn->flags);
			/* the flag before the retry; conn_write_space() pairs */
			smp_mb__after_atomic();
			asked = true;
			continue;
		}
		if (sent == -EAGAIN)
			break;
		if (sent < 0)
			return sent;
		off += sent;
		vl_stat_inc(sends);
		vl_stat_add(bytes_out, sent);
		/* past what was sent, for the next try */
		while (sent && n) {
			size_t step = min_t(size_t, sent, iov->iov_len);

			iov->iov_base += step;
			iov->iov_len -= step;
			sent -= step;
			if (!iov->iov_len) {
				iov++;
				n--;
			}
		}
	}
	return off;
}

/* Drop @sent bytes from the head of the queue; buffers emptied go to
 * @done, to be freed outside the lock.
 */
static void tx_consume(struct vl_conn *conn, size_t sent,
		       struct list_head *done)
{
	struct vl_txbuf *b, *tmp;

	lockdep_assert_held(&conn->tx_lock);
	conn->tx_queued -= sent;
	list_for_each_entry_safe(b, tmp, &conn->txq, node) {
		size_t step = min_t(size_t, sent, b->tail - b->head);

		b->head += step;
		sent -= step;
		if (b->head < b->tail)
			break;
		list_move_tail(&b->node, done);
	}
}

/* The kvecs of what is queued, at most VL_CONN_IOVS buffers. */
static size_t tx_iov(struct vl_conn *conn, struct kvec *iov, size_t *n)
{
	struct vl_txbuf *b;
	size_t len = 0;

	lockdep_assert_held(&conn->tx_lock);
	*n = 0;
	list_for_each_entry(b, &conn->txq, node) {
		if (*n == VL_CONN_IOVS)
			break;
		iov[*n].iov_base = b->data + b->head;
		iov[*n].iov_len = b->tail - b->head;
		len += iov[(*n)++].iov_len;
	}
	return len;
}

/**
 * tx_push() - hand the output queue to the socket
 * @conn: the connection
 *
 * Writes what the socket takes now; what it does not take waits for
 * conn_write_space().  If another task is writing the socket, it is asked
 * to go on with what was queued since, and this returns at once: the
 * writer never waits for anybody but the socket.
 *
 * Return: 0, or a negative errno: the connection is then closed.
 */
static int tx_push(struct vl_conn *conn)
{
	size_t low = vl_config.max_output / 2, len, n, before;
	struct kvec iov[VL_CONN_IOVS];
	struct vl_txbuf *b, *tmp;
	LIST_HEAD(done);
	ssize_t sent = 0;
	bool room;

	spin_lock(&conn->tx_lock);
	before = conn->tx_queued;
	if (conn->tx_busy) {
		conn->tx_again = true;
		spin_unlock(&conn->tx_lock);
		return 0;
	}
	conn->tx_busy = true;
	for (;;) {
		conn->tx_again = false;
		len = tx_iov(conn, iov, &n);
		if (!len)
			break;
		spin_unlock(&conn->tx_lock);
		sent = tx_write(conn, iov, n, len);
		spin_lock(&conn->tx_lock);
		if (sent < 0)
			break;
		tx_consume(conn, sent, &done);
		/* the socket is full, unless room came since it said so */
		if (sent < len && !conn->tx_again)
			break;
	}
	conn->tx_busy = false;
	/* a paced stream of the call in flight goes on (streams.c) */
	room = conn->call && before > low && conn->tx_queued <= low;
	spin_unlock(&conn->tx_lock);
	if (room)
		io_queue(conn);

	list_for_each_entry_safe(b, tmp, &done, node)
		txbuf_free(b);
	if (sent < 0) {
		pr_debug_ratelimited("closing a connection: send (%zd)\n", sent);
		vl_conn_close(conn);
		return sent;
	}
	return 0;
}

/* Queue @msg whole, at the end of the output queue. */
static int tx_queue(struct vl_conn *conn, const char *msg, size_t len)
{
	struct vl_txbuf *b;

	spin_lock(&conn->tx_lock);
	if (conn->tx_queued + len > vl_config.max_output) {
		spin_unlock(&conn->tx_lock);
		return -ENOBUFS;
	}
	b = list_empty(&conn->txq) ? NULL :
	    list_last_entry(&conn->txq, struct vl_txbuf, node);
	if (b && b->size - b->tail >= len) {
		memcpy(b->data + b->tail, msg, len);
		b->tail += len;
		conn->tx_queued += len;
		spin_unlock(&conn->tx_lock);
		return 0;
	}
	spin_unlock(&conn->tx_lock);

	b = txbuf_new(msg, len);
	if (!b)
		return -ENOMEM;
	spin_lock(&conn->tx_lock);
	list_add_tail(&b->node, &conn->txq);
	conn->tx_queued += len;
	spin_unlock(&conn->tx_lock);
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
 * callback or its stream's work sends (@hold), until they fill
 * VL_CONN_BUF, or the callback or the stream's run returns; and the
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
	err = tx_queue(conn, msg, len);
	set_active_memcg(old_memcg);
	if (err) {
		pr_debug_ratelimited("closing a connection: output queue (%d)\n",
				     err);
		vl_conn_close(conn);
		return err;
	}
	if (hold && READ_ONCE(conn->tx_queued) <= VL_CONN_BUF)
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
	return READ_ONCE(conn->tx_queued) <= vl_config.max_output / 2;
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
	spin_lock(&conn->tx_lock);
	WARN_ON_ONCE(conn->call);
	conn->call = call;
	spin_unlock(&conn->tx_lock);
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
	spin_lock(&conn->tx_lock);
	if (conn->call == call)
		conn->call = NULL;
	spin_unlock(&conn->tx_lock);
	/* finished from elsewhere: the connection's reader must go on */
	if (READ_ONCE(conn->server) != current)
		io_queue(conn);
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

/* The call in flight, with a reference, or NULL */
static struct varlink_call *conn_call_get(struct vl_conn *conn)
{
	struct varlink_call *call;

	spin_lock(&conn->tx_lock);
	call = conn->call;
	if (call)
		conn->ops->get(call);
	spin_unlock(&conn->tx_lock);
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

	spin_lock(&conn->tx_lock);
	/* replies held back go out with the next message's reply */
	hold = conn->cork && !conn->call && conn->tx_queued < VL_CONN_BUF;
	spin_unlock(&conn->tx_lock);
	*err = hold ? 0 : tx_push(conn);
	spin_lock(&conn->tx_lock);
	idle = !conn->call && (hold || !conn->tx_queued);
	spin_unlock(&conn->tx_lock);
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

	/* the note before the try: pairs with io_unlock() */
	set_bit(VL_CONN_IO_WANTED, &conn->flags);
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
	struct vl_txbuf *b, *tmp;

	/* nothing queues io_work any more: the socket's callbacks are gone */
	cancel_work_sync(&conn->io_work);
	vl_worker_forget(&conn->worker);
	sock_release(conn->sock);
	put_pid(conn->sender.pid);
	vl_writers_release(&conn->writers);
	rx_release(conn);
	list_for_each_entry_safe(b, tmp, &conn->txq, node)
		txbuf_free(b);
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
	spin_lock_init(&conn->tx_lock);
	INIT_LIST_HEAD(&conn->txq);
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
	err = vl_cache_init(&buf_cache, "varlink_buf", VL_CONN_BUF);
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
	vl_cache_destroy(&buf_cache);
}
