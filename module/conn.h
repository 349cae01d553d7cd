/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One client connection: see conn.c.  What its messages mean is not its
 * business: it hands each to the input callback of its &struct
 * vl_conn_ops, as netlink hands a kernel socket's to its input, and
 * reaches the call in flight only through the others.
 */
#ifndef _VL_CONN_H
#define _VL_CONN_H

#include <linux/srcu.h>
#include <linux/types.h>

struct socket;
struct varlink_call;
struct vl_conn;
struct vl_peer;
struct vl_sender;
struct workqueue_struct;

/**
 * struct vl_conn_ops - what a connection's messages mean
 * @input: handle one message (vl_dispatch()): 0 once handled, or, with
 *	@in_caller, -EAGAIN to have io_work handle it again
 * @get: take a reference on the call in flight
 * @put: drop it
 * @cancel: the client went away: end the call in flight
 * @stream: run the stream of the call in flight, if it was kicked and
 *	its client has read; true if it ran (in io_work, under @io_lock)
 */
struct vl_conn_ops {
	int (*input)(struct vl_conn *conn, const struct vl_peer *peer,
		     const struct vl_sender *sender, char *msg, size_t len,
		     bool in_caller);
	void (*get)(struct varlink_call *call);
	void (*put)(struct varlink_call *call);
	void (*cancel)(struct varlink_call *call);
	bool (*stream)(struct varlink_call *call);
};

extern struct srcu_struct vl_callbacks_srcu;

int vl_conn_init(void);
void vl_conn_exit(void);
int vl_conn_create(struct socket *sock, const struct vl_conn_ops *ops);
void vl_conn_shutdown_all(void);
void vl_conn_get(struct vl_conn *conn);
void vl_conn_put(struct vl_conn *conn);
const struct vl_peer *vl_conn_peer(const struct vl_conn *conn);
int vl_conn_send(struct vl_conn *conn, const char *msg, size_t len,
		 bool hold);
void vl_conn_flush(struct vl_conn *conn);
bool vl_conn_output_low(struct vl_conn *conn);
void vl_conn_kick(struct vl_conn *conn);
struct workqueue_struct *vl_conn_wq(void);
void vl_conn_close(struct vl_conn *conn);
void vl_conn_call_start(struct vl_conn *conn, struct varlink_call *call);
void vl_conn_call_done(struct vl_conn *conn, struct varlink_call *call);

#endif /* _VL_CONN_H */
