// SPDX-License-Identifier: GPL-2.0
/*
 * One client connection: NUL framing on the byte stream, the output
 * queue, backpressure, limits and teardown.
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
 * free) and the method is VARLINK_FAST, the call is served right there and
 * its reply queued to the client before its sendmsg() returns, with no
 * thread switch at all.  Anything else, including a slow method found
 * after parsing, falls back to io_work, which re-reads the message.
 * Replies are always sent with MSG_DONTWAIT, so the fast path never waits
 * for the client to read.
 *
 * Backpressure: a new message is read only when no call is in flight and
 * every reply has been handed to the socket.  A client that does not read
 * its replies therefore stops being read, and what it does not read stays
 * in its own socket buffer; only streamed replies can pile up in the
 * output queue, and past max_output the connection is closed.
 *
 * Lifetime: the connection holds a reference for itself until its
 * teardown, and every call holds one until its final reply.  The last
 * reference frees it from free_work, after io_work has finished.
 */
#include <linux/cred.h>
#include <linux/net.h>
#include <linux/pid.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <linux/wait_bit.h>
#include <net/sock.h>

#include "internal.h"

enum {
	VL_CONN_DEAD,		/* closing: read nothing, send nothing */
	VL_CONN_TORN_DOWN,	/* teardown done */
	VL_CONN_TX_FULL,	/* the socket took not all output: wake on space */
};

/* Buffers up to this size stay allocated while the connection idles. */
#define VL_CONN_KEEP_TX		512

struct vl_conn {
	struct socket *sock;
	struct workqueue_struct *wq;
	struct work_struct io_work;
	struct work_struct free_work;
	struct list_head node;
	refcount_t ref;
	unsigned long flags;
	const struct cred *cred;
	struct pid *pid;
	kuid_t uid;
	void (*saved_data_ready)(struct sock *sk);
	void (*saved_write_space)(struct sock *sk);
	void (*saved_state_change)(struct sock *sk);

	/* input, under @io_lock */
	struct mutex io_lock;
	struct task_struct *server;	/* the task in conn_process() */
	char *rx;
	u32 rx_len;
	u32 rx_cap;
	u32 rx_scanned;

	/* output and the call in flight, under @lock */
	struct mutex lock;
	char *tx;
	size_t tx_off;
	size_t tx_len;
	size_t tx_cap;
	struct varlink_call *call;
};

static DEFINE_SPINLOCK(conns_lock);
static LIST_HEAD(conns);

void vl_conn_get(struct vl_conn *conn)
{
	refcount_inc(&conn->ref);
}

void vl_conn_put(struct vl_conn *conn)
{
	if (refcount_dec_and_test(&conn->ref))
		queue_work(conn->wq, &conn->free_work);
}

const struct cred *vl_conn_cred(const struct vl_conn *conn)
{
	return conn->cred;
}

struct pid *vl_conn_pid(const struct vl_conn *conn)
{
	return conn->pid;
}

kuid_t vl_conn_uid(const struct vl_conn *conn)
{
	return conn->uid;
}

static void conn_wake(struct sock *sk)
{
	struct vl_conn *conn;

	read_lock_bh(&sk->sk_callback_lock);
	conn = sk->sk_user_data;
	if (conn)
		queue_work(conn->wq, &conn->io_work);
	read_unlock_bh(&sk->sk_callback_lock);
}

/* Room in the socket: only worth a wakeup if output is waiting for it. */
static void conn_write_space(struct sock *sk)
{
	struct vl_conn *conn;

	read_lock_bh(&sk->sk_callback_lock);
	conn = sk->sk_user_data;
	if (conn && test_and_clear_bit(VL_CONN_TX_FULL, &conn->flags))
		queue_work(conn->wq, &conn->io_work);
	read_unlock_bh(&sk->sk_callback_lock);
}

static bool conn_process(struct vl_conn *conn, bool in_caller);

/* Data arrived: serve it in the sending task if that is safe. */
static void conn_data_ready(struct sock *sk)
{
	struct vl_conn *conn;
	bool done = false;

	read_lock_bh(&sk->sk_callback_lock);
	conn = sk->sk_user_data;
	if (conn)
		vl_conn_get(conn);
	read_unlock_bh(&sk->sk_callback_lock);
	if (!conn)
		return;

	if (READ_ONCE(vl_config.fast_path) && preemptible() &&
	    mutex_trylock(&conn->io_lock)) {
		done = conn_process(conn, true);
		mutex_unlock(&conn->io_lock);
	}
	if (!done)
		queue_work(conn->wq, &conn->io_work);
	vl_conn_put(conn);
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
}

/* Hand queued output to the socket; -EAGAIN leaves the rest queued. */
static int tx_flush(struct vl_conn *conn)
{
	lockdep_assert_held(&conn->lock);

	while (conn->tx_off < conn->tx_len) {
		struct kvec iov = {
			.iov_base = conn->tx + conn->tx_off,
			.iov_len = conn->tx_len - conn->tx_off,
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
			return 0;
		if (n < 0)
			return n;
		conn->tx_off += n;
		atomic64_add(n, &vl_stats.bytes_out);
	}
	conn->tx_off = 0;
	conn->tx_len = 0;
	if (conn->tx_cap > VL_CONN_KEEP_TX) {
		kvfree(conn->tx);
		conn->tx = NULL;
		conn->tx_cap = 0;
	}
	return 0;
}

static int tx_reserve(struct vl_conn *conn, size_t len)
{
	size_t need = conn->tx_len - conn->tx_off + len;
	size_t cap = max_t(size_t, conn->tx_cap, 128);
	char *buf;

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
	buf = kvmalloc(cap, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, conn->tx + conn->tx_off, conn->tx_len - conn->tx_off);
	kvfree(conn->tx);
	conn->tx = buf;
	conn->tx_cap = cap;
	conn->tx_len -= conn->tx_off;
	conn->tx_off = 0;
	return 0;
}

/**
 * vl_conn_send() - queue a message and send what the socket takes
 * @conn: the connection
 * @msg: the message, its NUL included
 * @len: bytes of @msg
 *
 * Context: process context.
 * Return: 0; -ECONNRESET if the connection is closing; -ENOBUFS if the
 * output queue would pass max_output, or -ENOMEM: the connection is then
 * closed.
 */
int vl_conn_send(struct vl_conn *conn, const char *msg, size_t len)
{
	int err = -ECONNRESET;

	mutex_lock(&conn->lock);
	if (test_bit(VL_CONN_DEAD, &conn->flags))
		goto out;
	err = -ENOBUFS;
	if (conn->tx_len - conn->tx_off + len > vl_config.max_output)
		goto close;
	err = tx_reserve(conn, len);
	if (err)
		goto close;
	memcpy(conn->tx + conn->tx_len, msg, len);
	conn->tx_len += len;
	err = tx_flush(conn);
	if (!err)
		goto out;
close:
	pr_debug_ratelimited("closing a connection: output queue (%d)\n", err);
	vl_conn_close(conn);
out:
	mutex_unlock(&conn->lock);
	return err;
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

/*
 * Find the next complete message, reading from the socket as needed.
 * Return: 1 with *@len set to the message's length (without its NUL);
 * 0 if it has not all arrived yet; a negative errno to close.
 */
static int rx_next(struct vl_conn *conn, u32 *len)
{
	for (;;) {
		char *nul = memchr(conn->rx + conn->rx_scanned, '\0',
				   conn->rx_len - conn->rx_scanned);
		struct msghdr msg = { .msg_flags = MSG_DONTWAIT };
		struct kvec iov;
		int n;

		if (nul) {
			*len = nul - conn->rx;
			return 1;
		}
		conn->rx_scanned = conn->rx_len;
		if (conn->rx_len == vl_config.max_message_size)
			return -EMSGSIZE;

		if (conn->rx_len == conn->rx_cap) {
			u32 cap = clamp_t(u32, conn->rx_cap * 2, 1024,
					  vl_config.max_message_size);
			char *buf = kvmalloc(cap, GFP_KERNEL);

			if (!buf)
				return -ENOMEM;
			if (conn->rx_len)
				memcpy(buf, conn->rx, conn->rx_len);
			kvfree(conn->rx);
			conn->rx = buf;
			conn->rx_cap = cap;
		}
		iov.iov_base = conn->rx + conn->rx_len;
		iov.iov_len = conn->rx_cap - conn->rx_len;
		n = kernel_recvmsg(conn->sock, &msg, &iov, 1, iov.iov_len,
				   MSG_DONTWAIT);
		if (n == -EAGAIN)
			return 0;
		if (n <= 0)
			return n ? n : -ECONNRESET;
		conn->rx_len += n;
		atomic64_add(n, &vl_stats.bytes_in);
	}
}

static void rx_consume(struct vl_conn *conn, u32 len)
{
	conn->rx_len -= len;
	conn->rx_scanned = 0;
	if (conn->rx_len) {
		memmove(conn->rx, conn->rx + len, conn->rx_len);
	} else {
		/* idle connections hold no input buffer */
		kvfree(conn->rx);
		conn->rx = NULL;
		conn->rx_cap = 0;
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
	if (atomic64_dec_and_test(&vl_stats.connections))
		wake_up_var(&vl_stats.connections);
	vl_conn_put(conn);
}

/* The loop of conn_process(). */
static bool conn_serve(struct vl_conn *conn, bool in_caller)
{
	unsigned int budget = 64;	/* messages per run: be fair */
	int err = 0;
	bool idle;
	u32 len;

	while (!test_bit(VL_CONN_DEAD, &conn->flags)) {
		mutex_lock(&conn->lock);
		err = tx_flush(conn);
		idle = !conn->call && conn->tx_off == conn->tx_len;
		mutex_unlock(&conn->lock);
		if (err)
			break;
		/*
		 * The peer closed for good (not just its writing side): a call
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
		if (vl_dispatch(conn, conn->rx, len, in_caller) == -EAGAIN)
			return false;	/* not for this task: io_work */
		rx_consume(conn, len + 1);
	}
	if (err < 0) {
		pr_debug_ratelimited("closing a connection (%d)\n", err);
		set_bit(VL_CONN_DEAD, &conn->flags);
	}
	return !test_bit(VL_CONN_DEAD, &conn->flags);
}

/*
 * Serve what has arrived.  @in_caller: in the task that sent it, see the
 * top of this file.
 * Return: true if nothing is left for io_work to do.
 */
static bool conn_process(struct vl_conn *conn, bool in_caller)
{
	bool done;

	lockdep_assert_held(&conn->io_lock);
	WRITE_ONCE(conn->server, current);
	done = conn_serve(conn, in_caller);
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
	put_cred(conn->cred);
	put_pid(conn->pid);
	kvfree(conn->rx);
	kvfree(conn->tx);
	mutex_destroy(&conn->lock);
	mutex_destroy(&conn->io_lock);
	kfree(conn);
}

/* Connections of @uid; under conns_lock. */
static unsigned int count_uid(kuid_t uid)
{
	struct vl_conn *conn;
	unsigned int n = 0;

	list_for_each_entry(conn, &conns, node)
		n += uid_eq(conn->uid, uid);
	return n;
}

/**
 * vl_conn_create() - serve an accepted socket
 * @sock: the socket, owned by the connection from now on, even on error
 * @wq: the workqueue to serve it on
 *
 * The peer's credentials are those of the task that connected.  Over
 * max_connections, or max_connections_per_uid for its effective uid, the
 * socket is closed at once, without a message.
 *
 * Return: the connection, or an ERR_PTR.
 */
struct vl_conn *vl_conn_create(struct socket *sock, struct workqueue_struct *wq)
{
	struct sock *sk = sock->sk;
	struct vl_conn *conn;
	int err = -ENOMEM;

	conn = kzalloc(sizeof(*conn), GFP_KERNEL);
	if (!conn)
		goto err_sock;
	conn->sock = sock;
	conn->wq = wq;
	INIT_WORK(&conn->io_work, io_work);
	INIT_WORK(&conn->free_work, free_work);
	mutex_init(&conn->lock);
	mutex_init(&conn->io_lock);
	refcount_set(&conn->ref, 1);

	spin_lock(&sk->sk_peer_lock);
	conn->cred = get_cred(sk->sk_peer_cred);
	conn->pid = get_pid(sk->sk_peer_pid);
	spin_unlock(&sk->sk_peer_lock);
	err = -EPROTO;
	if (!conn->cred)
		goto err_conn;
	conn->uid = conn->cred->euid;

	err = -EMFILE;
	spin_lock(&conns_lock);
	if (atomic64_read(&vl_stats.connections) >= vl_config.max_connections ||
	    count_uid(conn->uid) >= vl_config.max_connections_per_uid) {
		spin_unlock(&conns_lock);
		atomic64_inc(&vl_stats.refused);
		pr_debug_ratelimited("refusing a connection of uid %u\n",
				     from_kuid(&init_user_ns, conn->uid));
		goto err_conn;
	}
	list_add_tail(&conn->node, &conns);
	atomic64_inc(&vl_stats.connections);
	spin_unlock(&conns_lock);
	atomic64_inc(&vl_stats.connections_total);

	/* once the callbacks are set, io_work may run and close it */
	vl_conn_get(conn);
	set_callbacks(conn);
	queue_work(wq, &conn->io_work);	/* data may be there already */
	vl_conn_put(conn);
	return conn;

err_conn:
	put_cred(conn->cred);
	put_pid(conn->pid);
	kfree(conn);
err_sock:
	sock_release(sock);
	return ERR_PTR(err);
}

/**
 * vl_conn_shutdown_all() - close every connection and wait until all are
 * freed
 *
 * Context: module exit, after the listener is gone; the caller then
 * destroys the workqueue.
 */
void vl_conn_shutdown_all(void)
{
	struct vl_conn *conn;

	spin_lock(&conns_lock);
	list_for_each_entry(conn, &conns, node)
		vl_conn_close(conn);
	spin_unlock(&conns_lock);
	wait_var_event(&vl_stats.connections,
		       !atomic64_read(&vl_stats.connections));
}
