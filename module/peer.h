/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who is calling: the opener of a connection and the sender of each
 * call.  The security model is stated at the top of peer.c.
 */
#ifndef _VL_PEER_H
#define _VL_PEER_H

#include <linux/path.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uidgid.h>

struct cred;
struct kvec;
struct mem_cgroup;
struct net;
struct pid;
struct pid_namespace;
struct sock;
struct socket;
struct task_struct;
struct user_namespace;
struct uts_namespace;
struct varlink_call;

/**
 * struct vl_peer - who opened a connection, taken once when it is accepted
 * @cred: the opener's credentials, as SO_PEERCRED reports them (a
 *	reference)
 * @pid: the opener's thread group (a reference)
 * @user: the user the connection is charged to, see peer_user() in peer.c
 * @tenant: the container it is of as a whole, or NULL for the host, see
 *	peer_tenant() in peer.c: a struct user_namespace or struct net that
 *	@cred or the socket holds, to compare only
 * @net: the network namespace of the listener it connected to; the
 *	accepted socket holds it
 * @pid_ns: the pid namespace the opener's pids were made in (a reference)
 * @uts_ns: the UTS namespace of the opener's process when accepted (of
 *	its first thread that had not exited; a reference), or NULL if it
 *	had exited by then
 * @boottime_offset: the offset of the opener's time namespace to
 *	CLOCK_BOOTTIME, in nanoseconds (0 outside one, or if it had exited)
 * @memcg: the opener's memory cgroup (a reference), charged for what the
 *	connection holds: the one its accepted socket was allocated in, at
 *	connect(); without socket accounting (cgroup v1, or
 *	cgroup.memory=nosocket) that of the opener's process when accepted.
 *	NULL for the root cgroup, or that opener gone by then
 * @node: on admission.c's list while the connection is admitted
 * @root: the opener's root directory when accepted (a reference), or an
 *	empty path if it had exited: its view of the file system, which a
 *	write for it must honour (files.c); see vl_peer_view_get()
 *
 * Read-only once taken (but @node, admission.c's): the connection and its
 * calls read its fields directly, without a lock.
 */
struct vl_peer {
	const struct cred *cred;
	struct pid *pid;
	kuid_t user;
	const void *tenant;
	struct net *net;
	struct pid_namespace *pid_ns;
	struct uts_namespace *uts_ns;
	unsigned int init_ns;
	s64 boottime_offset;
	struct mem_cgroup *memcg;
	struct list_head node;
	/* the opener's view of the file system (files.c) */
	struct path root;
};

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

int vl_peer_get(struct vl_peer *peer, struct socket *sock);
void vl_peer_put(struct vl_peer *peer);
void vl_peer_view_get(struct vl_peer *peer, struct task_struct *task);
void vl_peer_view_put(struct vl_peer *peer);
bool vl_cred_capable(const struct cred *cred, struct user_namespace *ns,
		     int cap);
bool vl_call_permitted(const struct varlink_call *call);
const struct cred *vl_call_lesser_cred(const struct varlink_call *call,
				       const struct cred **other);

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

#endif /* _VL_PEER_H */
