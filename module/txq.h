/* SPDX-License-Identifier: GPL-2.0 */
/* A connection's output queue, and its buffers: see txq.c. */
#ifndef _VL_TXQ_H
#define _VL_TXQ_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct socket;

/* Buffers up to this size come from a per-CPU cache; so many replies are
 * batched: 16 of GetInfo's, for one
 */
#define VL_BUF_SIZE	8192

/**
 * struct vl_txq - an output queue
 * @lock: guards the rest but @full
 * @bufs: its buffers, struct vl_txbuf
 * @queued: bytes in @bufs not sent yet
 * @busy: a task writes @bufs to the socket
 * @again: ... and is asked to go on
 * @full: bit 0: the socket took not all: a push waits for room
 */
struct vl_txq {
	spinlock_t lock;	/* the rest but @full */
	struct list_head bufs;
	size_t queued;
	bool busy;
	bool again;
	unsigned long full;
};

int vl_bufs_init(void);
void vl_bufs_exit(void);
void *vl_buf_alloc(size_t size, size_t *cap);
void vl_buf_free(void *buf, size_t cap);

void vl_txq_init(struct vl_txq *q);
void vl_txq_release(struct vl_txq *q);
int vl_txq_queue(struct vl_txq *q, const char *msg, size_t len);
int vl_txq_push(struct vl_txq *q, struct socket *sock, bool *room);
bool vl_txq_room(struct vl_txq *q);
size_t vl_txq_queued(const struct vl_txq *q);

#endif /* _VL_TXQ_H */
