/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who opened a connection: see peer.c.  Who wrote each call is
 * sender.h's, what they may do caller.h's.
 */
#ifndef _VL_PEER_H
#define _VL_PEER_H

#include <linux/path.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uidgid.h>

struct cgroup_namespace;
struct cred;
struct mem_cgroup;
struct net;
struct pid;
struct pid_namespace;
struct sock;
struct socket;
struct task_struct;
struct user_namespace;
struct uts_namespace;
struct varlink_caller;

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
 * @cgroup_ns: its cgroup namespace, likewise
 * @init_ns: which of its namespaces are the initial ones, as CLONE_NEW*
 *	flags (those of its process, when accepted: none if it had exited)
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
	struct cgroup_namespace *cgroup_ns;
	unsigned int init_ns;
	s64 boottime_offset;
	struct mem_cgroup *memcg;
	struct list_head node;
	/* the opener's view of the file system (files.c) */
	struct path root;
};

int vl_peer_get(struct vl_peer *peer, struct socket *sock);
void vl_peer_put(struct vl_peer *peer);
void vl_peer_caller(const struct vl_peer *peer, struct varlink_caller *caller);

#endif /* _VL_PEER_H */
