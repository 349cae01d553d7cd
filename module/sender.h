/* SPDX-License-Identifier: GPL-2.0 */
/* Who wrote each message of a connection: see sender.c. */
#ifndef _VL_SENDER_H
#define _VL_SENDER_H

#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uidgid.h>

struct cred;
struct kvec;
struct pid;
struct sock;
struct socket;
struct vl_peer;

/**
 * struct vl_sender - who wrote what a connection read last
 * @pid: the writer's thread group (a reference), or NULL if unknown
 * @uid: its real uid when it wrote
 * @exec_id: the self_exec_id of its thread group leader when it wrote:
 *	what program it ran
 */
struct vl_sender {
	struct pid *pid;
	kuid_t uid;
	u64 exec_id;
};

/* Writers a connection notes between two reads to its end */
#define VL_WRITERS	4

/**
 * struct vl_writers - the processes that wrote to a connection since it
 *	was last read to its end, as their own tasks noted them
 * @lock: guards the rest
 * @pid: their thread groups (references), in the order they came
 * @exec_id: the self_exec_id of each when it first wrote
 * @n: how many
 * @unnoted: a process wrote that is not noted: one more than there is
 *	room for, or one that wrote before the connection was accepted
 *
 * See vl_writers_note() in peer.c.
 */
struct vl_writers {
	spinlock_t lock;	/* the rest; writers' tasks take it */
	struct pid *pid[VL_WRITERS];
	u64 exec_id[VL_WRITERS];
	unsigned int n;
	bool unnoted;
};

int vl_sender_listen(struct socket *listener);
void vl_writers_init(struct vl_writers *w);
void vl_writers_note(struct vl_writers *w);
void vl_writers_accepted(struct vl_writers *w, struct sock *sk,
			 const struct vl_peer *peer);
void vl_writers_release(struct vl_writers *w);
int vl_sender_recv(struct socket *sock, struct kvec *iov, struct vl_sender *s,
		   struct vl_writers *w, bool *changed);
const struct cred *vl_sender_cred(const struct vl_sender *s);
bool vl_sender_passed_fds(struct sock *sk);

#endif /* _VL_SENDER_H */
