// SPDX-License-Identifier: GPL-2.0
/*
 * The opener of a connection: who connected, taken once when the
 * connection is accepted.
 *
 * A connection's opener is the task that connected: AF_UNIX records its
 * credentials and thread group at connect() (SO_PEERCRED), and
 * vl_peer_get() takes them once, when the connection is accepted, with
 * the opener's namespaces, memory cgroup and accounting user, into the
 * plain fields of &struct vl_peer, which the connection and its calls
 * then read directly, as af_unix reads the peer credentials it took at
 * connect().  A call is answered in the opener's namespaces (the network
 * namespace is the listener's), whichever task writes on the connection
 * and whether the call runs in a kworker or in the caller's own task;
 * what the connection holds is charged to the opener's memory cgroup,
 * the one the socket layer recorded when the opener connected (the
 * accepted socket is allocated in its task), so that a process whose
 * thread group leader has exited is charged all the same; and the
 * connection is counted against the opener's user, see peer_user().
 * Who wrote each call is sender.c's, what the two may do caller.c's.
 */
#include <linux/capability.h>
#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/fs_struct.h>
#include <linux/memcontrol.h>
#include <linux/net.h>
#include <linux/nsproxy.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/proc_ns.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/time_namespace.h>
#include <linux/socket.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>
#include <linux/utsname.h>
#include <net/net_namespace.h>
#include <net/sock.h>

#include <linux/varlink.h>

#include "compat.h"
#include "peer.h"

/* The outermost user namespace of @ns below the initial one, or NULL in
 * the initial one.
 */
static const struct user_namespace *outermost_ns(const struct user_namespace *ns)
{
	if (ns == &init_user_ns)
		return NULL;
	while (ns->parent != &init_user_ns)
		ns = ns->parent;
	return ns;
}

/* The user charged for what @cred's task makes the server hold: its euid
 * in the initial user namespace; inside a user namespace, the user who
 * created the outermost one below the initial namespace.  The uids that
 * an unprivileged user maps into namespaces of its own are all that
 * user's.  The uids of a namespace that root created (a container
 * manager's) are users of their own: root gave them their kuids, and
 * they are of that container, see peer_tenant().
 */
static kuid_t peer_user(const struct cred *cred)
{
	const struct user_namespace *ns = outermost_ns(cred->user_ns);

	return !ns || uid_eq(ns->owner, GLOBAL_ROOT_UID) ? cred->euid : ns->owner;
}

/* The container @cred's task is of, connected in @net: the tenant that
 * every limit bounds as a whole, as the kernel's ucounts bound a user
 * namespace at each level up to the initial one.  That is the outermost
 * user namespace below the initial one, if root created it (a container
 * manager's), whichever network namespaces the container makes; and in
 * the initial user namespace, a network namespace other than the
 * initial one (a container without a user namespace: Docker's, whose
 * processes are all uid 0).  The host is none (NULL), and so are the
 * namespaces an unprivileged user made: they are that user's, bounded
 * by the user's own limit.
 */
static const void *peer_tenant(const struct cred *cred, const struct net *net)
{
	const struct user_namespace *ns = outermost_ns(cred->user_ns);

	if (!ns)
		return net_eq(net, &init_net) ? NULL : net;
	return uid_eq(ns->owner, GLOBAL_ROOT_UID) ? ns : NULL;
}

/* A reference on @task's namespace of @init's kind (its UTS or cgroup
 * namespace), or NULL once it has exited.  put_uts_ns() and
 * put_cgroup_ns() call functions that are not exported: the reference
 * is taken and dropped through the namespace's proc_ns_operations, as
 * nsfs does, found in the initial namespace.  Without the namespace's
 * option (no operations) there is only the initial namespace, which
 * needs no reference.
 */
static struct ns_common *ns_get(struct task_struct *task, struct ns_common *init)
{
	return init->ops ? init->ops->get(task) : init;
}

static void ns_put(struct ns_common *ns, const struct ns_common *init)
{
	if (init->ops)
		init->ops->put(ns);
}

/* The initial cgroup namespace, as init_task has it (init_cgroup_ns is
 * not exported); without cgroups there is none.
 */
static struct ns_common *init_cgroup_ns_common(void)
{
	struct cgroup_namespace *ns = init_task.nsproxy->cgroup_ns;

	return ns ? &ns->ns : NULL;
}

/* Which of @task's ipc, mount, cgroup and UTS namespaces are the
 * initial ones, as CLONE_NEW* flags.  No reference is needed to compare.
 */
static unsigned int init_namespaces(struct task_struct *task)
{
	const struct nsproxy *init = init_task.nsproxy;
	unsigned int flags = 0;

	task_lock(task);
	if (task->nsproxy) {
		if (task->nsproxy->ipc_ns == init->ipc_ns)
			flags |= CLONE_NEWIPC;
		if (task->nsproxy->mnt_ns == init->mnt_ns)
			flags |= CLONE_NEWNS;
		if (task->nsproxy->cgroup_ns == init->cgroup_ns)
			flags |= CLONE_NEWCGROUP;
		if (task->nsproxy->uts_ns == init->uts_ns)
			flags |= CLONE_NEWUTS;
	}
	task_unlock(task);
	return flags;
}

/* The offset of @task's time namespace to CLOCK_BOOTTIME, in ns.  The
 * offsets of a time namespace are frozen once a task is in it: a copy
 * is exact for as long as the connection lives, and holds nothing.
 */
static s64 boottime_offset(struct task_struct *task)
{
	s64 off = 0;

	if (!IS_ENABLED(CONFIG_TIME_NS))
		return 0;
	task_lock(task);
	if (task->nsproxy)
		off = timespec64_to_ns(&task->nsproxy->time_ns->offsets.boottime);
	task_unlock(task);
	return off;
}

/* A thread of @leader's group that has not begun to exit, with a
 * reference, or NULL: the leader itself may have exited (SYS_exit) while
 * the other threads go on.
 */
static struct task_struct *live_thread(struct task_struct *leader)
{
	struct task_struct *t, *found = NULL;

	rcu_read_lock();
	for_each_thread(leader, t) {
		if (!(READ_ONCE(t->flags) & PF_EXITING)) {
			found = get_task_struct(t);
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

/* The opener's view of the file system.  A write for a call honours the
 * view of both its parties (files.c): the sender's is looked up when it
 * writes, the opener's is taken here, when the connection is accepted,
 * as its namespaces are, and pins the opener's root as an open
 * descriptor of it would.
 */

/**
 * peer_view_get() - take the opener's root directory
 * @peer: the opener, being taken by vl_peer_get()
 * @task: a live thread of its process
 *
 * Without one (the thread is exiting), @peer->root stays empty.
 */
static void peer_view_get(struct vl_peer *peer, struct task_struct *task)
{
	task_lock(task);
	if (task->fs)
		get_fs_root(task->fs, &peer->root);
	task_unlock(task);
}

/**
 * peer_view_put() - drop what peer_view_get() took
 * @peer: the opener
 */
static void peer_view_put(struct vl_peer *peer)
{
	if (peer->root.mnt)
		path_put(&peer->root);
}

/**
 * vl_peer_get() - take who opened an accepted connection
 * @peer: filled in; vl_peer_put() drops it, even on error
 * @sock: the accepted socket
 *
 * From the peer credentials AF_UNIX took at connect(), the socket the
 * connecting task allocated, and the process they name.  The memory
 * cgroup is the one the socket layer recorded at connect(); only where
 * it records none for want of socket accounting, the opener's found
 * through any of its threads that has not exited.  An opener that has
 * exited by now (its last call may still be in the socket) leaves no
 * UTS namespace, nor such a memory cgroup.
 *
 * Return: 0, or -EPROTO if the socket has no peer credentials.
 */
int vl_peer_get(struct vl_peer *peer, struct socket *sock)
{
	struct sock *sk = sock->sk;
	struct task_struct *task, *leader;
	struct mm_struct *mm = NULL;
	struct ns_common *ns;
	bool no_sk_memcg;

	memset(peer, 0, sizeof(*peer));
	peer->net = sock_net(sk);
	spin_lock(&sk->sk_peer_lock);
	peer->cred = get_cred(sk->sk_peer_cred);
	peer->pid = get_pid(sk->sk_peer_pid);
	spin_unlock(&sk->sk_peer_lock);
	if (!peer->cred || !peer->pid)
		return -EPROTO;
	peer->user = peer_user(peer->cred);
	peer->tenant = peer_tenant(peer->cred, peer->net);
	peer->pid_ns = get_pid_ns(ns_of_pid(peer->pid));
	peer->memcg = vl_sk_memcg_get(sk, &no_sk_memcg);
	if (peer->pid_ns == &init_pid_ns)
		peer->init_ns |= CLONE_NEWPID;
	if (net_eq(peer->net, &init_net))
		peer->init_ns |= CLONE_NEWNET;
	if (peer->cred->user_ns == &init_user_ns)
		peer->init_ns |= CLONE_NEWUSER;

	leader = get_pid_task(peer->pid, PIDTYPE_TGID);
	if (!leader)
		return 0;
	task = live_thread(leader);
	put_task_struct(leader);
	if (!task)
		return 0;
	ns = ns_get(task, &init_uts_ns.ns);
	peer->uts_ns = ns ? container_of(ns, struct uts_namespace, ns) : NULL;
	ns = init_cgroup_ns_common();
	ns = ns ? ns_get(task, ns) : NULL;
	peer->cgroup_ns = ns ? container_of(ns, struct cgroup_namespace, ns) :
			       NULL;
	peer->init_ns |= init_namespaces(task);
	peer->boottime_offset = boottime_offset(task);
	peer_view_get(peer, task);
	if (!peer->memcg && no_sk_memcg)
		mm = get_task_mm(task);
	put_task_struct(task);
	if (mm) {
		peer->memcg = get_mem_cgroup_from_mm(mm);
		mmput(mm);
	}
	return 0;
}

/**
 * vl_peer_put() - drop what vl_peer_get() took
 * @peer: the opener
 */
void vl_peer_put(struct vl_peer *peer)
{
	put_cred(peer->cred);
	put_pid(peer->pid);
	if (peer->pid_ns)
		put_pid_ns(peer->pid_ns);
	if (peer->uts_ns)
		ns_put(&peer->uts_ns->ns, &init_uts_ns.ns);
	if (peer->cgroup_ns)
		ns_put(&peer->cgroup_ns->ns, init_cgroup_ns_common());
	mem_cgroup_put(peer->memcg);
	peer_view_put(peer);
}

/**
 * vl_peer_caller() - the opener's part of a call's caller
 * @peer: the opener
 * @caller: filled in, but for the sender's credentials (sender.c's)
 *
 * What @caller points to stays valid as long as @peer.
 */
void vl_peer_caller(const struct vl_peer *peer, struct varlink_caller *caller)
{
	*caller = (struct varlink_caller) {
		.cred = peer->cred,
		.pid = peer->pid,
		.user = peer->user,
		.tenant = peer->tenant,
		.net = peer->net,
		.user_ns = peer->cred->user_ns,
		.pid_ns = peer->pid_ns,
		.uts_ns = peer->uts_ns,
		.cgroup_ns = peer->cgroup_ns,
		.init_ns = peer->init_ns,
		.boottime_offset = peer->boottime_offset,
	};
}
