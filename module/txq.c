// SPDX-License-Identifier: GPL-2.0
/*
 * A connection's output queue, and the buffers connections read into and
 * write from.
 *
 * The queue is a list of buffers under a spinlock, which no task holds
 * while off the CPU: a task that replies, whatever context it is (a
 * kworker, a notifier, the client's own task on the fast path), copies
 * its message whole to the end of the queue and never waits for anybody.
 * The socket is written by whichever task finds nobody writing it
 * (@busy), outside the lock, from the head of the queue: a task that
 * finds it busy asks the writer to go on (@again) and leaves, and the
 * writer sends what came before it stops, as the socket layer's owner
 * processes its backlog in release_sock().  Replies are always written
 * with MSG_DONTWAIT: a writer never waits for the client to read; what
 * the socket does not take waits for its write_space callback.
 *
 * Buffers of up to VL_BUF_SIZE come from a per-CPU cache (cache.c), and
 * are charged, as the rest, to the memory cgroup active when they are
 * allocated: the connection's (conn.c).  An empty queue holds none.
 */
#include <linux/net.h>
#include <linux/slab.h>
#include <linux/uio.h>

#include "cache.h"
#include "params.h"
#include "stats.h"
#include "txq.h"

/* Buffers of the queue written to the socket in one sendmsg() */
#define VL_TXQ_IOVS		8

/**
 * struct vl_txbuf - a buffer of the output queue
 * @node: on the queue's @bufs
 * @head: the first byte not sent yet
 * @tail: the end of what is queued
 * @size: bytes of @data
 * @data: the messages, back to back
 *
 * Only the task that writes the socket (the queue's @busy) reads
 * @data[@head..@tail), outside the lock; others only append after @tail.
 */
struct vl_txbuf {
	struct list_head node;
	u32 head;
	u32 tail;
	u32 size;
	char data[];
};

static struct vl_cache buf_cache;

/**
 * vl_buf_alloc() - a buffer of at least some size
 * @size: bytes needed
 * @cap: set to the bytes of the buffer
 *
 * Return: the buffer, or NULL.
 */
void *vl_buf_alloc(size_t size, size_t *cap)
{
	if (size <= VL_BUF_SIZE) {
		*cap = VL_BUF_SIZE;
		return vl_cache_alloc(&buf_cache, GFP_KERNEL_ACCOUNT);
	}
	vl_stat_inc(allocations);
	*cap = size;
	return kvmalloc(size, GFP_KERNEL_ACCOUNT);
}

/**
 * vl_buf_free() - give a buffer back
 * @buf: the buffer, or NULL
 * @cap: its size, as vl_buf_alloc() gave it
 */
void vl_buf_free(void *buf, size_t cap)
{
	if (cap <= VL_BUF_SIZE)
		vl_cache_free(&buf_cache, buf);
	else
		kvfree(buf);
}

static void txbuf_free(struct vl_txbuf *b)
{
	vl_buf_free(b, sizeof(*b) + b->size);
}

/**
 * vl_txq_init() - an empty queue
 * @q: the queue
 */
void vl_txq_init(struct vl_txq *q)
{
	spin_lock_init(&q->lock);
	INIT_LIST_HEAD(&q->bufs);
	q->queued = 0;
	q->busy = false;
	q->again = false;
	q->full = 0;
}

/**
 * vl_txq_release() - free what a queue holds
 * @q: the queue, which nobody uses any more
 */
void vl_txq_release(struct vl_txq *q)
{
	struct vl_txbuf *b, *tmp;

	list_for_each_entry_safe(b, tmp, &q->bufs, node)
		txbuf_free(b);
	INIT_LIST_HEAD(&q->bufs);
	q->queued = 0;
}

/**
 * vl_txq_queue() - add a message, whole, to the end of a queue
 * @q: the queue
 * @msg: the message
 * @len: bytes of @msg
 *
 * Context: process context; it may allocate, and never waits for
 * another task.
 * Return: 0; -ENOBUFS if the queue would pass max_output; -ENOMEM.
 */
int vl_txq_queue(struct vl_txq *q, const char *msg, size_t len)
{
	struct vl_txbuf *b;
	size_t cap;

	spin_lock(&q->lock);
	if (q->queued + len > vl_config.max_output) {
		spin_unlock(&q->lock);
		return -ENOBUFS;
	}
	b = list_empty(&q->bufs) ? NULL :
	    list_last_entry(&q->bufs, struct vl_txbuf, node);
	if (b && b->size - b->tail >= len) {
		memcpy(b->data + b->tail, msg, len);
		b->tail += len;
		q->queued += len;
		spin_unlock(&q->lock);
		return 0;
	}
	spin_unlock(&q->lock);

	b = vl_buf_alloc(max_t(size_t, struct_size(b, data, len),
			       VL_BUF_SIZE), &cap);
	if (!b)
		return -ENOMEM;
	b->size = cap - sizeof(*b);
	b->head = 0;
	b->tail = len;
	memcpy(b->data, msg, len);
	spin_lock(&q->lock);
	list_add_tail(&b->node, &q->bufs);
	q->queued += len;
	spin_unlock(&q->lock);
	return 0;
}

/* Send what the socket takes of @iov now, without waiting.
 * Return: the bytes sent, or a negative errno other than -EAGAIN.
 */
static ssize_t txq_write(struct vl_txq *q, struct socket *sock,
			 struct kvec *iov, size_t n, size_t len)
{
	struct msghdr msg = { .msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL };
	bool asked = false;
	size_t off = 0;
	int sent;

	while (off < len) {
		sent = kernel_sendmsg(sock, &msg, iov, n, len - off);
		if (sent == -EAGAIN && !asked) {
			/* ask for a wakeup, then try again: none is lost */
			set_bit(0, &q->full);
			/* the flag before the retry; vl_txq_room() pairs */
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

/* Drop @sent bytes from the head of @q; buffers emptied go to @done, to
 * be freed outside the lock.
 */
static void txq_consume(struct vl_txq *q, size_t sent, struct list_head *done)
{
	struct vl_txbuf *b, *tmp;

	lockdep_assert_held(&q->lock);
	q->queued -= sent;
	list_for_each_entry_safe(b, tmp, &q->bufs, node) {
		size_t step = min_t(size_t, sent, b->tail - b->head);

		b->head += step;
		sent -= step;
		if (b->head < b->tail)
			break;
		list_move_tail(&b->node, done);
	}
}

/* The kvecs of what is queued, at most VL_TXQ_IOVS buffers. */
static size_t txq_iov(struct vl_txq *q, struct kvec *iov, size_t *n)
{
	struct vl_txbuf *b;
	size_t len = 0;

	lockdep_assert_held(&q->lock);
	*n = 0;
	list_for_each_entry(b, &q->bufs, node) {
		if (*n == VL_TXQ_IOVS)
			break;
		iov[*n].iov_base = b->data + b->head;
		iov[*n].iov_len = b->tail - b->head;
		len += iov[(*n)++].iov_len;
	}
	return len;
}

/**
 * vl_txq_push() - hand a queue to its socket
 * @q: the queue
 * @sock: the socket
 * @room: set to whether it went from more than half of max_output
 *	queued to at most that: a paced stream may go on
 *
 * Writes what the socket takes now; what it does not take waits for
 * vl_txq_room().  If another task is writing the socket, it is asked to
 * go on with what was queued since, and this returns at once.
 *
 * Context: process context.
 * Return: 0, or the negative errno of the socket's sendmsg().
 */
int vl_txq_push(struct vl_txq *q, struct socket *sock, bool *room)
{
	size_t low = vl_config.max_output / 2, len, n, before;
	struct kvec iov[VL_TXQ_IOVS];
	struct vl_txbuf *b, *tmp;
	LIST_HEAD(done);
	ssize_t sent = 0;

	*room = false;
	spin_lock(&q->lock);
	if (q->busy) {
		q->again = true;
		spin_unlock(&q->lock);
		return 0;
	}
	q->busy = true;
	before = q->queued;
	for (;;) {
		q->again = false;
		len = txq_iov(q, iov, &n);
		if (!len)
			break;
		spin_unlock(&q->lock);
		sent = txq_write(q, sock, iov, n, len);
		spin_lock(&q->lock);
		if (sent < 0)
			break;
		txq_consume(q, sent, &done);
		/* the socket is full, unless room came since it said so */
		if (sent < len && !q->again)
			break;
	}
	q->busy = false;
	*room = before > low && q->queued <= low;
	spin_unlock(&q->lock);

	list_for_each_entry_safe(b, tmp, &done, node)
		txbuf_free(b);
	return sent < 0 ? sent : 0;
}

/**
 * vl_txq_room() - the socket has room for more
 * @q: the queue
 *
 * From the socket's write_space callback, in any context.
 *
 * Return: true if a push waited for it: push again.
 */
bool vl_txq_room(struct vl_txq *q)
{
	return test_and_clear_bit(0, &q->full);
}

/**
 * vl_txq_queued() - the bytes a queue holds
 * @q: the queue
 *
 * Return: what is not sent yet, read without the lock.
 */
size_t vl_txq_queued(const struct vl_txq *q)
{
	return READ_ONCE(q->queued);
}

/**
 * vl_bufs_init() - set up the cache of buffers
 *
 * Return: 0 or -ENOMEM.
 */
int vl_bufs_init(void)
{
	return vl_cache_init(&buf_cache, "varlink_buf", VL_BUF_SIZE);
}

/**
 * vl_bufs_exit() - free the cache of buffers, once every buffer is back
 */
void vl_bufs_exit(void)
{
	vl_cache_destroy(&buf_cache);
}
