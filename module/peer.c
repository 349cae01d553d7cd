// SPDX-License-Identifier: GPL-2.0
/*
 * Who is calling, and what that lets it do: the core's security model,
 * in one file.
 *
 * The opener.  A connection's opener is the task that connected: AF_UNIX
 * records its credentials and thread group at connect() (SO_PEERCRED),
 * and vl_peer_get() takes them once, when the connection is accepted,
 * with the opener's namespaces, memory cgroup and accounting user, into
 * the plain fields of &struct vl_peer, which the connection and its
 * calls then read directly, as af_unix reads the peer credentials it
 * took at connect().  A call is answered in the opener's namespaces (the
 * network namespace is the listener's), whichever task writes on the
 * connection and whether the call runs in a kworker or in the caller's
 * own task; what the connection holds is charged to the opener's memory
 * cgroup, the one the socket layer recorded when the opener connected
 * (the accepted socket is allocated in its task), so that a process
 * whose thread group leader has exited is charged all the same; and the
 * connection is counted against the opener's user, see peer_user().
 *
 * The sender.  The opener says who connected, not who writes on the
 * connection now: the descriptor may have been inherited or passed since,
 * or its opener may have dropped its privileges.  So each call has a
 * sender too, the process that wrote it.  With SO_PASSCRED on the
 * listener (inherited by every accepted socket), AF_UNIX tags each write
 * with the writer's thread group and real uid, and a read never returns
 * the bytes of two writers.  Kernels since 6.16 report the tag as
 * SCM_CREDENTIALS, with SO_PASSRIGHTS off so that no descriptor can reach
 * a kernel reader (scm_detach_fds() warns on one); older kernels keep the
 * tag in the skb's control block, read here before the skb is.  A call
 * whose bytes came from two writers has no sender.  The tag names the
 * process, not the thread that wrote, and threads may hold credentials
 * of their own: the sender's credentials are those every thread of it
 * holds, read alike in a kworker and in the writer's own task, and they
 * count only while it runs the program it wrote with, with the real and
 * effective uid it wrote with (vl_sender_cred()).  What it runs, and
 * which process a pid number named when it wrote, its own task notes as
 * it writes (vl_writers_note()).
 *
 * Privilege needs both.  A capability is granted only if the opener and
 * the sender both hold it, as netlink checks the socket's opener and the
 * sender (netlink_ns_capable(), after CVE-2014-0181); a call without a
 * sender holds none, and the current task's credentials play no part
 * (it may be a kworker, or the client's own task on the fast path).  The
 * capability is checked in the initial user namespace for host state
 * (VARLINK_CAPABLE, varlink_call_capable()); for state of the caller's
 * network namespace only, in the user namespace that owns it
 * (VARLINK_CAPABLE_NET, as genetlink's GENL_UNS_ADMIN_PERM); providers
 * name any other with varlink_call_ns_capable().  Each check has the
 * LSMs' say: security_capable() is not exported in 6.1, so the checked
 * credentials override the current ones around ns_capable_noaudit().
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

#include "compat.h"
#include "internal.h"
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

/* A reference on @task's UTS namespace, or NULL once it has exited.
 * put_uts_ns() calls free_uts_ns(), which is not exported: the reference
 * is taken and dropped through the namespace's proc_ns_operations, as
 * nsfs does, found in init_uts_ns.  Without CONFIG_UTS_NS (no operations)
 * there is only the initial namespace, which needs no reference.
 */
static struct uts_namespace *uts_ns_get(struct task_struct *task)
{
	const struct proc_ns_operations *ops = init_uts_ns.ns.ops;
	struct ns_common *ns;

	if (!ops)
		return &init_uts_ns;
	ns = ops->get(task);
	return ns ? container_of(ns, struct uts_namespace, ns) : NULL;
}

static void uts_ns_put(struct uts_namespace *uts)
{
	const struct proc_ns_operations *ops = init_uts_ns.ns.ops;

	if (ops)
		ops->put(&uts->ns);
}

/* Which of @task's ipc, mount and cgroup namespaces are the initial
 * ones, as CLONE_NEW* flags.  No reference is needed to compare.
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

/* The memory cgroup the socket layer recorded for @sk (a reference), or
 * NULL.  An accepted AF_UNIX socket is allocated in the connecting task,
 * in unix_stream_connect(), and sk_alloc() records that task's memory
 * cgroup (mem_cgroup_sk_alloc()): the opener's at connect(), whatever
 * its threads do since.  None is recorded for the root cgroup, nor when
 * socket accounting is off (*@off then): cgroup v1 without kmem.tcp
 * accounting, or cgroup.memory=nosocket.
 */
static struct mem_cgroup *sk_memcg_get(struct sock *sk, bool *off)
{
#ifdef CONFIG_MEMCG
	struct mem_cgroup *memcg = vl_sk_memcg(sk);

	*off = !mem_cgroup_sockets_enabled ||
	       !cgroup_subsys_on_dfl(memory_cgrp_subsys);
	if (memcg)
		css_get(&memcg->css);
	return memcg;
#else
	*off = false;
	return NULL;
#endif
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
	peer->memcg = sk_memcg_get(sk, &no_sk_memcg);

	leader = get_pid_task(peer->pid, PIDTYPE_TGID);
	if (!leader)
		return 0;
	task = live_thread(leader);
	put_task_struct(leader);
	if (!task)
		return 0;
	peer->uts_ns = uts_ns_get(task);
	peer->init_ns = init_namespaces(task);
	peer->boottime_offset = boottime_offset(task);
	vl_peer_view_get(peer, task);
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
		uts_ns_put(peer->uts_ns);
	mem_cgroup_put(peer->memcg);
	vl_peer_view_put(peer);
}

/**
 * vl_sender_listen() - have AF_UNIX tag every write to the listener's
 *	connections with its writer
 * @listener: the listening socket, before it listens
 *
 * Return: 0 or a negative errno.
 */
int vl_sender_listen(struct socket *listener)
{
	int one = 1, err;

	err = sock_setsockopt(listener, SOL_SOCKET, SO_PASSCRED,
			      KERNEL_SOCKPTR(&one), sizeof(one));
#ifdef SO_PASSRIGHTS
	if (!err) {
		int zero = 0;

		err = sock_setsockopt(listener, SOL_SOCKET, SO_PASSRIGHTS,
				      KERNEL_SOCKPTR(&zero), sizeof(zero));
	}
#endif
	return err;
}

#ifdef SO_PASSRIGHTS
/* SCM_CREDENTIALS numbers the writer's uid in the reader's user namespace,
 * and one that namespace does not map as the overflow uid.  The reader
 * may be a caller's task (conn.c's fast path), in a user namespace that
 * maps neither the writer nor, maybe, itself: the tag is read with the
 * kernel's credentials, in the initial user namespace, where every uid
 * has its number.  The pid is numbered in the reader's pid namespace
 * (*@nr; a writer that the reader does not see there is 0, no sender,
 * who is granted nothing), and by the time it is read the number may
 * name another process: writer_find() tells which it was.
 */
static int sender_recv(struct socket *sock, struct kvec *iov,
		       struct pid **pid, pid_t *nr, kuid_t *uid)
{
	struct {
		struct cmsghdr hdr;
		struct ucred uc;	/* CMSG_DATA(&hdr) */
	} ctl = {};
	struct msghdr msg = {
		.msg_control = &ctl,
		.msg_controllen = sizeof(ctl),
	};
	const struct cred *old;
	int n;

	BUILD_BUG_ON(offsetof(typeof(ctl), uc) != CMSG_ALIGN(sizeof(ctl.hdr)));
	/* init_task's are the kernel's, kernel_cred() of 6.18 */
	old = override_creds(rcu_dereference_raw(init_task.cred));
	n = kernel_recvmsg(sock, &msg, iov, 1, iov->iov_len, MSG_DONTWAIT);
	revert_creds(old);
	if (n <= 0 || ctl.hdr.cmsg_level != SOL_SOCKET ||
	    ctl.hdr.cmsg_type != SCM_CREDENTIALS ||
	    ctl.hdr.cmsg_len != CMSG_LEN(sizeof(ctl.uc)))
		return n;
	*nr = ctl.uc.pid;
	*uid = make_kuid(&init_user_ns, ctl.uc.uid);
	return n;
}
#else
#include <net/af_unix.h>

/* The writer's thread group itself (*@pid) is in the skb.  One skb is
 * read at a time: reading one that carries descriptors would release
 * them (there is no control buffer) unseen, and vl_sender_passed_fds()
 * may not have seen them queued yet, if its writer has not reached
 * ->sk_data_ready().  An skb with descriptors is refused, unread.
 */
static int sender_recv(struct socket *sock, struct kvec *iov,
		       struct pid **pid, pid_t *nr, kuid_t *uid)
{
	struct msghdr msg = {};
	struct sock *sk = sock->sk;
	struct sk_buff *skb;
	int ret = -EAGAIN;
	size_t len = 0;

	/* AF_UNIX queues and shuts down under this lock.  Only we dequeue:
	 * the skb at the head is the one read next.
	 */
	unix_state_lock(sk);
	skb = skb_peek(&sk->sk_receive_queue);
	if (skb && UNIXCB(skb).fp) {
		ret = -EBADMSG;
	} else if (skb) {
		len = min_t(size_t, iov->iov_len,
			    skb->len - UNIXCB(skb).consumed);
		*pid = get_pid(UNIXCB(skb).pid);
		*uid = UNIXCB(skb).uid;
		ret = 0;
	} else if (sk->sk_shutdown & RCV_SHUTDOWN) {
		ret = 0;	/* the end: nothing more comes */
	}
	unix_state_unlock(sk);
	if (ret || !len)
		return ret;
	return kernel_recvmsg(sock, &msg, iov, 1, len, MSG_DONTWAIT);
}
#endif

/**
 * vl_sender_passed_fds() - whether a client queued descriptors to the
 *	connection's socket
 * @sk: the connection's socket
 *
 * A varlink client never sends descriptors.  Since 6.16, SO_PASSRIGHTS
 * off makes the client's sendmsg() fail instead.  Before, a descriptor
 * sits in the receive queue until it is read, and the unix garbage
 * collector does not see through a kernel socket: a client that sends
 * its own connection while the server is not reading it (a call in
 * flight) and exits leaves a connection nobody owns, which lives until
 * the module is unloaded.  AF_UNIX counts the descriptors queued to a
 * socket (scm_stat, added before the skb is queued and sk_data_ready()
 * called, removed when it is read), so the caller closes a connection
 * whose count is not 0, and closing it releases what is queued.  A read
 * that comes first, between the two, finds them instead: see
 * vl_sender_recv().
 *
 * Context: any; the connection's callbacks, once set.
 * Return: true if descriptors are queued (never, since 6.16).
 */
bool vl_sender_passed_fds(struct sock *sk)
{
#ifdef SO_PASSRIGHTS
	return false;
#else
	return atomic_read(&unix_sk(sk)->scm_stat.nr_fds);
#endif
}

/**
 * vl_writers_init() - a connection's record of its writers, empty
 * @w: the record
 */
void vl_writers_init(struct vl_writers *w)
{
	memset(w, 0, sizeof(*w));
	spin_lock_init(&w->lock);
}

static void writers_clear(struct vl_writers *w)
	__must_hold(&w->lock)
{
	while (w->n)
		put_pid(w->pid[--w->n]);
	w->unnoted = false;
}

/**
 * vl_writers_release() - drop what a record of writers holds
 * @w: the record
 */
void vl_writers_release(struct vl_writers *w)
{
	spin_lock_bh(&w->lock);
	writers_clear(w);
	spin_unlock_bh(&w->lock);
}

/* What @pid's process runs now: its leader's exec generation, 0 if gone */
static u64 exec_id_now(struct pid *pid)
{
	struct task_struct *task;
	u64 id = 0;

	rcu_read_lock();
	task = pid_task(pid, PIDTYPE_TGID);
	if (task)
		id = READ_ONCE(task->self_exec_id);
	rcu_read_unlock();
	return id;
}

/* Note @pid, running @exec_id, unless it is noted already */
static void writers_add(struct vl_writers *w, struct pid *pid, u64 exec_id)
	__must_hold(&w->lock)
{
	unsigned int i;

	for (i = 0; i < w->n; i++)
		if (w->pid[i] == pid)
			return;
	if (w->n == VL_WRITERS) {
		w->unnoted = true;
		return;
	}
	w->pid[w->n] = get_pid(pid);
	w->exec_id[w->n++] = exec_id;
}

/**
 * vl_writers_note() - the current task's process wrote to a connection
 * @w: the connection's record of its writers
 *
 * AF_UNIX tags what a process writes with its thread group, but not with
 * the program it ran: a process may write, then execute a program with
 * file capabilities, keeping its pid and uids.  And since 6.16 the tag
 * reaches the server as a pid number, which may name another process by
 * the time the server reads it.  So the writer's own task notes here its
 * thread group and what it runs, from the socket's ->sk_data_ready(),
 * which AF_UNIX calls in the writer's sendmsg() after each write, before
 * it returns: before the writer may exit or execute anything.  What is
 * read is then matched against these (vl_sender_recv()).  The record
 * holds VL_WRITERS processes between two reads to the end of the socket;
 * past that, the writers not noted are no senders.
 *
 * Context: a writer's task, from the socket's callback.
 */
void vl_writers_note(struct vl_writers *w)
{
	spin_lock_bh(&w->lock);
	writers_add(w, task_tgid(current), READ_ONCE(current->self_exec_id));
	spin_unlock_bh(&w->lock);
}

/**
 * vl_writers_accepted() - note who wrote before the connection was
 *	accepted
 * @w: the connection's record of its writers
 * @sk: its socket, with the connection's callbacks in place
 * @peer: its opener
 *
 * What a client writes before the server accepts its connection, no
 * callback of ours hears.  It is most likely the opener's, which is
 * noted as running what it runs now if its credentials are still those
 * it connected with (a program it executed since would have new ones);
 * any other writer of it is no sender.
 */
void vl_writers_accepted(struct vl_writers *w, struct sock *sk,
			 const struct vl_peer *peer)
{
	struct task_struct *task;
	bool same = false;
	u64 id = 0;

	if (skb_queue_empty_lockless(&sk->sk_receive_queue))
		return;
	rcu_read_lock();
	task = pid_task(peer->pid, PIDTYPE_TGID);
	if (task) {
		same = rcu_access_pointer(task->cred) == peer->cred;
		id = READ_ONCE(task->self_exec_id);
	}
	rcu_read_unlock();
	spin_lock_bh(&w->lock);
	if (same)
		writers_add(w, peer->pid, id);
	w->unnoted = true;
	spin_unlock_bh(&w->lock);
}

/* The writer of what was just read, given as its thread group @pid (6.1)
 * or as its number @nr in this task's pid namespace (6.16), a reference
 * with *@exec_id, or NULL.  A writer that noted itself is known by what
 * it noted, even if the number is another's by now; one that has not yet
 * is still in the sendmsg() that wrote, so its number is still its own
 * and it runs what it wrote with, unless some writer went unnoted (see
 * vl_writers_accepted()).  One not noted then, or a number that two
 * writers have had, is no sender.
 */
static struct pid *writer_find(struct vl_writers *w, struct pid *pid,
			       pid_t nr, u64 *exec_id)
{
	struct pid_namespace *ns = task_active_pid_ns(current);
	struct pid *found = NULL;
	unsigned int i, hits = 0;
	bool unnoted;

	if (!pid && !nr)
		return NULL;
	spin_lock_bh(&w->lock);
	for (i = 0; i < w->n; i++) {
		if (pid ? w->pid[i] != pid : pid_nr_ns(w->pid[i], ns) != nr)
			continue;
		found = w->pid[i];
		*exec_id = w->exec_id[i];
		hits++;
	}
	found = hits == 1 ? get_pid(found) : NULL;
	unnoted = w->unnoted;
	spin_unlock_bh(&w->lock);
	if (hits || unnoted)
		return found;
	found = pid ? get_pid(pid) : find_get_pid(nr);
	if (found)
		*exec_id = exec_id_now(found);
	return found;
}

/* Read to the end: every writer there was is noted or read already. */
static void writers_drained(struct vl_writers *w, struct sock *sk)
{
	spin_lock_bh(&w->lock);
	if (skb_queue_empty_lockless(&sk->sk_receive_queue))
		writers_clear(w);
	spin_unlock_bh(&w->lock);
}

/**
 * vl_sender_recv() - read from a connection and learn who wrote it
 * @sock: the connection's socket
 * @iov: where to read to
 * @s: the writer of what was read before; updated to that of what is
 *	read now (a NULL pid when unknown)
 * @w: the connection's record of its writers, see vl_writers_note()
 * @changed: set to whether @s changed
 *
 * Context: process context, the socket's only reader.
 * Return: as kernel_recvmsg() with MSG_DONTWAIT; -EBADMSG, nothing read,
 * if what comes next carries descriptors (see vl_sender_passed_fds()).
 */
int vl_sender_recv(struct socket *sock, struct kvec *iov, struct vl_sender *s,
		   struct vl_writers *w, bool *changed)
{
	struct pid *tagged = NULL, *pid = NULL;
	kuid_t uid = INVALID_UID;
	u64 exec_id = 0;
	pid_t nr = 0;
	int n;

	n = sender_recv(sock, iov, &tagged, &nr, &uid);
	*changed = false;
	if (n > 0) {
		pid = writer_find(w, tagged, nr, &exec_id);
		writers_drained(w, sock->sk);
	}
	put_pid(tagged);
	if (n > 0 && (pid != s->pid || !uid_eq(uid, s->uid) ||
		      exec_id != s->exec_id)) {
		swap(pid, s->pid);
		s->uid = uid;
		s->exec_id = exec_id;
		*changed = true;
	}
	put_pid(pid);
	return n;
}

/* Whether @a and @b are the same user to every check of ours: ids,
 * supplementary groups, user namespace and securebits.
 */
static bool cred_same_ids(const struct cred *a, const struct cred *b)
{
	const struct group_info *ga = a->group_info, *gb = b->group_info;

	if (!uid_eq(a->uid, b->uid) || !uid_eq(a->euid, b->euid) ||
	    !uid_eq(a->suid, b->suid) || !uid_eq(a->fsuid, b->fsuid) ||
	    !gid_eq(a->gid, b->gid) || !gid_eq(a->egid, b->egid) ||
	    !gid_eq(a->sgid, b->sgid) || !gid_eq(a->fsgid, b->fsgid) ||
	    a->user_ns != b->user_ns || a->securebits != b->securebits)
		return false;
	return ga == gb || (ga->ngroups == gb->ngroups &&
			    !memcmp(ga->gid, gb->gid,
				    ga->ngroups * sizeof(ga->gid[0])));
}

/* Whether @b holds every capability @a holds */
static bool cred_caps_within(const struct cred *a, const struct cred *b)
{
	return cap_issubset(a->cap_effective, b->cap_effective) &&
	       cap_issubset(a->cap_permitted, b->cap_permitted);
}

/* What every thread of @leader's process holds: the credentials of the
 * thread whose capabilities every other thread holds too, the same user
 * as all of them; NULL when the threads are different users, or none
 * holds no more than each other.  AF_UNIX records the process that
 * wrote, not the thread, and threads may hold credentials of their own
 * (a thread that dropped its capabilities): whichever thread wrote, it
 * is lent nothing another thread holds and it does not.
 */
static const struct cred *process_cred(struct task_struct *leader)
{
	const struct cred *least = NULL, *c;
	struct task_struct *t;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "needs rcu_read_lock()");
	for_each_thread(leader, t) {
		c = __task_cred(t);
		if (!least || c == least)
			least = c;
		else if (!cred_same_ids(c, least))
			return NULL;
		else if (cred_caps_within(c, least))
			least = c;
		else if (!cred_caps_within(least, c))
			return NULL;
	}
	return least ? get_cred_rcu(least) : NULL;
}

/**
 * vl_sender_cred() - the credentials of a message's writer
 * @s: the writer, as vl_sender_recv() found it
 *
 * The writer's process's credentials as process_cred() takes them, the
 * same whether the message is read in a kworker or in the writer's own
 * task.  They count only while it runs the program it wrote with, and
 * its real and effective uid are still those it wrote with: a process
 * that wrote and then executed a set-user-ID program, or one with file
 * capabilities, does not lend it its call.
 *
 * Return: a reference to the credentials, or NULL if the writer is
 * unknown, has exited, has executed a program or changed its uids
 * since, or its threads hold no credentials in common.
 */
const struct cred *vl_sender_cred(const struct vl_sender *s)
{
	const struct cred *cred = NULL;
	struct task_struct *task;

	if (!s->pid)
		return NULL;
	rcu_read_lock();
	task = pid_task(s->pid, PIDTYPE_TGID);
	/* what it runs now is what it wrote with */
	if (task && READ_ONCE(task->self_exec_id) == s->exec_id)
		cred = process_cred(task);
	rcu_read_unlock();
	if (cred && !(uid_eq(cred->uid, s->uid) && uid_eq(cred->euid, s->uid))) {
		put_cred(cred);
		cred = NULL;
	}
	return cred;
}

/**
 * vl_cred_capable() - whether @cred holds @cap in a user namespace
 * @cred: the credentials to check, not the current task's
 * @ns: the user namespace
 * @cap: the capability
 *
 * Return: true if it does, with the LSMs' say (no audit record).
 */
bool vl_cred_capable(const struct cred *cred, struct user_namespace *ns,
		     int cap)
{
	const struct cred *old = override_creds(cred);
	bool ok = ns_capable_noaudit(ns, cap);

	revert_creds(old);
	return ok;
}

/**
 * varlink_call_cred() - the credentials of the connection's opener
 * @call: the call
 *
 * These are the credentials of the task that connected, taken when the
 * connection was accepted (SO_PEERCRED), not those of the current task,
 * nor necessarily of the task that sent the call: the connection may have
 * been inherited or passed since.  See varlink_call_sender_cred().
 *
 * Return: the credentials, valid until the call's final reply.
 */
const struct cred *varlink_call_cred(const struct varlink_call *call)
{
	return call->peer->cred;
}
EXPORT_SYMBOL_GPL(varlink_call_cred);

/**
 * varlink_call_sender_cred() - the credentials of the task that sent
 *	the call
 * @call: the call
 *
 * The process that wrote the call, as AF_UNIX recorded it, with its
 * credentials when the call was read.  Unknown when the call's bytes
 * came from more than one process, or when the writer had exited or
 * changed its user ids (executed a set-user-ID program) by then.
 *
 * Return: the credentials, valid until the call's final reply, or NULL
 * if unknown.
 */
const struct cred *varlink_call_sender_cred(const struct varlink_call *call)
{
	return call->sender;
}
EXPORT_SYMBOL_GPL(varlink_call_sender_cred);

/**
 * varlink_call_user() - the user a call's resources are accounted to
 * @call: the call
 *
 * The connection's opener's effective uid in the initial user namespace;
 * for an opener inside a user namespace, the user who created the
 * outermost namespace below the initial one.  Every uid an unprivileged
 * user maps into namespaces of its own thus counts as that user; the
 * uids of a container root created are users of their own, of its
 * varlink_call_tenant(): a provider that shares a capped resource among
 * users gives each user of each tenant its share.  Who the opener is,
 * to tell it or to decide what it may see, is varlink_call_cred()'s
 * euid instead.
 *
 * Return: the accounting uid, a kuid in the initial user namespace.
 */
kuid_t varlink_call_user(const struct varlink_call *call)
{
	return call->peer->user;
}
EXPORT_SYMBOL_GPL(varlink_call_user);

/**
 * varlink_call_tenant() - the container a call's resources are
 *	accounted to as a whole
 * @call: the call
 *
 * A container is bounded as a whole, and each user in it, as
 * varlink_call_user() counts them, has a share of its own: a provider
 * that shares a capped resource gives each pair of varlink_call_tenant()
 * and varlink_call_user() its share, and each tenant other than NULL a
 * bound for all its users together.  The tenant is the outermost user
 * namespace below the initial one, if root created it (a container
 * manager's), whichever network namespaces the container makes; for an
 * opener in the initial user namespace, the network namespace it
 * connected in, unless that is the initial one (a container without a
 * user namespace).  The host is NULL, and so are the namespaces an
 * unprivileged user made: they are that user's.
 *
 * Return: an opaque key, to compare only, valid until the call's final
 * reply; NULL for the host.
 */
const void *varlink_call_tenant(const struct varlink_call *call)
{
	return call->peer->tenant;
}
EXPORT_SYMBOL_GPL(varlink_call_tenant);

/**
 * varlink_call_pid() - the process id of the connection's opener
 * @call: the call
 *
 * Return: the thread group id of the connecting task in the initial pid
 * namespace, or 0 if it is unknown or has exited.
 */
pid_t varlink_call_pid(const struct varlink_call *call)
{
	return pid_nr(call->peer->pid);
}
EXPORT_SYMBOL_NS_GPL(varlink_call_pid, VL_NS(VARLINK_TEST));

/**
 * varlink_call_is_caller() - whether a task is of the calling process
 * @call: the call
 * @task: a task, with a reference
 *
 * Return: true if @task's process both opened the connection and sent
 * the call: what the kernel lets a process do to itself, a provider may
 * let it do to @task.
 */
bool varlink_call_is_caller(const struct varlink_call *call,
			    struct task_struct *task)
{
	struct pid *tgid = task_tgid(task);

	return tgid == call->peer->pid && tgid == call->sender_pid;
}
EXPORT_SYMBOL_GPL(varlink_call_is_caller);

/**
 * varlink_call_capable() - whether the caller holds a capability
 * @call: the call
 * @cap: the capability, e.g. CAP_SYS_ADMIN
 *
 * Both the task that opened the connection and the task that sent the
 * call must hold @cap in the initial user namespace, with the LSMs' say:
 * a privileged connection passed to, or inherited by, an unprivileged
 * task lends it nothing, and a privileged task writing on a connection
 * an unprivileged task opened (its stdout, say) lends nothing either.
 * The current task's credentials play no part.
 *
 * Context: process context.
 * Return: true if both hold @cap.
 */
bool varlink_call_capable(const struct varlink_call *call, int cap)
{
	return varlink_call_ns_capable(call, &init_user_ns, cap);
}
EXPORT_SYMBOL_GPL(varlink_call_capable);

/**
 * varlink_call_ns_capable() - whether the caller holds a capability in a
 *	user namespace
 * @call: the call
 * @ns: the user namespace, e.g. the owner of the namespace whose state
 *	the call would change
 * @cap: the capability
 *
 * As varlink_call_capable(), in @ns: both the opener and the sender must
 * hold @cap there.  Root in a container holds every capability in the
 * container's user namespace and none in the initial one.
 *
 * Context: process context.
 * Return: true if both hold @cap in @ns.
 */
bool varlink_call_ns_capable(const struct varlink_call *call,
			     struct user_namespace *ns, int cap)
{
	return call->sender &&
	       vl_cred_capable(call->peer->cred, ns, cap) &&
	       vl_cred_capable(call->sender, ns, cap);
}
EXPORT_SYMBOL_GPL(varlink_call_ns_capable);

/**
 * varlink_call_net() - the caller's network namespace
 * @call: the call
 *
 * The caller's namespaces are those of the connection's opener, taken
 * when the connection was accepted, whichever task sends the call and
 * whether it runs in a kworker or in the caller's own task: the network
 * namespace is the one whose listener it connected to.  Each of the
 * varlink_call_*_ns() functions returns a namespace that stays valid,
 * without a reference of the provider's, until the call's final reply.
 *
 * Return: the network namespace.
 */
struct net *varlink_call_net(const struct varlink_call *call)
{
	return call->peer->net;
}
EXPORT_SYMBOL_GPL(varlink_call_net);

/**
 * varlink_call_user_ns() - the caller's user namespace
 * @call: the call
 *
 * That of the opener's credentials, see varlink_call_net().
 *
 * Return: the user namespace.
 */
struct user_namespace *varlink_call_user_ns(const struct varlink_call *call)
{
	return call->peer->cred->user_ns;
}
EXPORT_SYMBOL_GPL(varlink_call_user_ns);

/**
 * varlink_call_pid_ns() - the caller's pid namespace
 * @call: the call
 *
 * The pid namespace the opener's process ids were made in (its active
 * one), see varlink_call_net(): pid numbers are shown in it, and a
 * process outside it does not exist for the caller.
 *
 * Return: the pid namespace.
 */
struct pid_namespace *varlink_call_pid_ns(const struct varlink_call *call)
{
	return call->peer->pid_ns;
}
EXPORT_SYMBOL_GPL(varlink_call_pid_ns);

/**
 * varlink_call_in_init_ns() - whether the caller is in an initial
 *	namespace
 * @call: the call
 * @nstype: CLONE_NEWIPC, CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS,
 *	CLONE_NEWPID, CLONE_NEWNET or CLONE_NEWUSER
 *
 * Whether the opener's namespace of that type (see varlink_call_net())
 * is the initial one, that of the kworkers that run callbacks: a
 * provider that reads a namespaced file (an ipc sysctl, say) answers a
 * caller of the initial namespace only, and refuses the others.  The
 * ipc, mount and cgroup namespaces are those of the opener's process
 * when the connection was accepted; one that had exited by then is in
 * none.
 *
 * Return: true if it is the initial one.
 */
bool varlink_call_in_init_ns(const struct varlink_call *call, int nstype)
{
	const struct vl_peer *peer = call->peer;

	switch (nstype) {
	case CLONE_NEWIPC:
	case CLONE_NEWNS:
	case CLONE_NEWCGROUP:
		return peer->init_ns & nstype;
	case CLONE_NEWUTS:
		return peer->uts_ns == &init_uts_ns;
	case CLONE_NEWPID:
		return peer->pid_ns == &init_pid_ns;
	case CLONE_NEWNET:
		return net_eq(peer->net, &init_net);
	case CLONE_NEWUSER:
		return peer->cred->user_ns == &init_user_ns;
	}
	return false;
}
EXPORT_SYMBOL_GPL(varlink_call_in_init_ns);

/**
 * varlink_call_uts_ns() - the caller's UTS namespace
 * @call: the call
 *
 * That of the opener's process (its first thread that had not exited)
 * when the connection was accepted, see varlink_call_net().  A process
 * that connects, writes and exits before the server accepts the
 * connection leaves none: answer nothing that depends on it then.
 *
 * Return: the UTS namespace, or NULL.
 */
struct uts_namespace *varlink_call_uts_ns(const struct varlink_call *call)
{
	return call->peer->uts_ns;
}
EXPORT_SYMBOL_GPL(varlink_call_uts_ns);

/**
 * varlink_call_boottime_offset() - the offset of the caller's time
 *	namespace to CLOCK_BOOTTIME
 * @call: the call
 *
 * A process in a time namespace sees CLOCK_BOOTTIME moved by the
 * namespace's offset, and /proc shows it times so: add the offset to a
 * CLOCK_BOOTTIME time (an uptime, a process's start time), subtract it
 * from the wall-clock time of boot.  The opener's namespace, see
 * varlink_call_net().
 *
 * Return: the offset in nanoseconds; 0 outside a time namespace.
 */
s64 varlink_call_boottime_offset(const struct varlink_call *call)
{
	return call->peer->boottime_offset;
}
EXPORT_SYMBOL_GPL(varlink_call_boottime_offset);

/**
 * vl_call_permitted() - whether a call holds what its method requires
 * @call: a call routed to its method
 *
 * A method flagged VARLINK_CAPABLE requires its capability of the opener
 * and the sender, in the initial user namespace; one flagged
 * VARLINK_CAPABLE_NET instead, in the user namespace that owns the
 * caller's network namespace (registration refuses both flags at once).
 *
 * Context: process context.
 * Return: true if the call may run.
 */
bool vl_call_permitted(const struct varlink_call *call)
{
	const struct varlink_method *m = call->method;
	struct user_namespace *ns;

	if (m->flags & VARLINK_CAPABLE_NET)
		ns = call->peer->net->user_ns;
	else if (m->flags & VARLINK_CAPABLE)
		ns = &init_user_ns;
	else
		return true;
	return varlink_call_ns_capable(call, ns, m->capability);
}

/**
 * vl_call_lesser_cred() - the credentials a call acts as on a file
 * @call: the call
 * @other: set to the credentials that must be allowed the access too,
 *	or NULL
 *
 * Privilege needs both: a file is opened as the lesser of the opener and
 * the sender, the one whose capabilities the other holds too (the sender
 * when they hold the same), so that what the file's handlers check of
 * the current credentials no party lacks; the other must then pass the
 * file's permission check too (files.c).  Two in different user
 * namespaces, or each holding a capability the other lacks, cannot be
 * ordered so.
 *
 * Return: a reference to the credentials to act as, or ERR_PTR(-EACCES)
 * for a call without a sender or whose credentials cannot be ordered.
 */
const struct cred *vl_call_lesser_cred(const struct varlink_call *call,
				       const struct cred **other)
{
	const struct cred *opener = call->peer->cred, *sender = call->sender;

	*other = NULL;
	if (!sender || opener->user_ns != sender->user_ns)
		return ERR_PTR(-EACCES);
	if (opener == sender)
		return get_cred(sender);
	if (cred_caps_within(sender, opener)) {
		*other = opener;
		return get_cred(sender);
	}
	if (cred_caps_within(opener, sender)) {
		*other = sender;
		return get_cred(opener);
	}
	return ERR_PTR(-EACCES);
}

/* The opener's view of the file system.  A write for a call honours the
 * view of both its parties (files.c): the sender's is looked up when it
 * writes, the opener's is taken here, when the connection is accepted,
 * as its namespaces are, and pins the opener's root as an open
 * descriptor of it would.
 */

/**
 * vl_peer_view_get() - take the opener's root directory
 * @peer: the opener, being taken by vl_peer_get()
 * @task: a live thread of its process
 *
 * Without one (the thread is exiting), @peer->root stays empty.
 */
void vl_peer_view_get(struct vl_peer *peer, struct task_struct *task)
{
	task_lock(task);
	if (task->fs)
		get_fs_root(task->fs, &peer->root);
	task_unlock(task);
}

/**
 * vl_peer_view_put() - drop what vl_peer_view_get() took
 * @peer: the opener
 */
void vl_peer_view_put(struct vl_peer *peer)
{
	if (peer->root.mnt)
		path_put(&peer->root);
}
