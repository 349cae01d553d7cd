/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between the kernels this tree builds against, 6.1 to 7.3,
 * in one place.  The code is written to the newest API; each entry below
 * brings it to the older kernels and says what changed when.
 */
#ifndef _VARLINK_COMPAT_H
#define _VARLINK_COMPAT_H

#include <linux/version.h>

/* 6.12 moved <asm/unaligned.h> to <linux/unaligned.h>. */
#if KERNEL_VERSION(6, 12, 0) <= LINUX_VERSION_CODE
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/* The rest is for the kernel only, not the userspace build of json.c. */
#ifdef __KERNEL__

/* 6.13 made the symbol namespace that EXPORT_SYMBOL_NS_GPL() and
 * MODULE_IMPORT_NS() take a string literal, "NS", where it had been an
 * identifier, NS.  VL_NS(NS) is NS as the kernel's macros take it, e.g.
 * EXPORT_SYMBOL_NS_GPL(sym, VL_NS(VARLINK_TEST)): the export stays the
 * kernel's own macro, which checkpatch and kernel-doc know.
 */
#if KERNEL_VERSION(6, 13, 0) <= LINUX_VERSION_CODE
#define VL_NS(ns)	#ns
#else
#define VL_NS(ns)	ns
#endif

/* 6.17 added WQ_PERCPU, the old default of alloc_workqueue(), which 7.x
 * wants said (6.12.y has it too, as an enum: included first, so that the
 * define below cannot clash with it).
 */
#include <linux/workqueue.h>
#if KERNEL_VERSION(6, 17, 0) > LINUX_VERSION_CODE
#define WQ_PERCPU 0
#endif

/* 6.19 made kernel_bind() take a struct sockaddr_unsized. */
#if KERNEL_VERSION(6, 19, 0) > LINUX_VERSION_CODE
#define sockaddr_unsized sockaddr
#endif

/* server.c makes its listeners' SO_PEERCRED pid 0 by dropping the pid
 * that listen() recorded with put_pid().  6.15 pinned that pid in pidfs
 * too, a reference that every copy took (pidfs_get_pid()) and the
 * socket's destructor dropped (pidfs_put_pid(), not exported), until
 * 6.17 made it a plain reference again.  In between, the pid is kept:
 * dropping it would leak its pidfs dentry, and clients see the pid of
 * the task that made the listener (insmod, or the namespace's creator).
 */
#if KERNEL_VERSION(6, 15, 0) <= LINUX_VERSION_CODE
#if KERNEL_VERSION(6, 17, 0) > LINUX_VERSION_CODE
#define VL_PEER_PID_DROP	0
#else
#define VL_PEER_PID_DROP	1
#endif
#else
#define VL_PEER_PID_DROP	1
#endif

/* server.c names the socket that holds the server's name by looking
 * through the abstract half of the network namespace's AF_UNIX table
 * (net->unx.table, public since 6.0), as /proc/net/unix does.  Its size
 * was in <net/af_unix.h>; later kernels moved it to net/unix/af_unix.h,
 * with the table unchanged: 256 buckets of sockets bound to a path or to
 * nothing, then 256 of abstract names.
 */
#include <net/af_unix.h>
#ifndef UNIX_HASH_SIZE
#define UNIX_HASH_MOD		(256 - 1)
#define UNIX_HASH_SIZE		(256 * 2)
#endif

/* 6.14 made kernel.pid_max a sysctl of each pid namespace (its table is
 * looked up in the writer's, as kernel.ns_last_pid's handler does): from
 * then on it is answered to callers in the initial pid namespace only,
 * before it is the whole system's.
 */
#if KERNEL_VERSION(6, 14, 0) <= LINUX_VERSION_CODE
#define VL_PID_MAX_PER_PIDNS	1
#else
#define VL_PID_MAX_PER_PIDNS	0
#endif

/* 6.16 added core dumps to a socket: a kernel.core_pattern of "@/path"
 * (7.x also "@@/path"), which proc_dostring_coredump() refuses unless the
 * writer (current) is in the initial mount namespace
 * (check_coredump_socket()); before, "@" began a file name like any
 * other.
 */
#if KERNEL_VERSION(6, 16, 0) <= LINUX_VERSION_CODE
#define VL_COREDUMP_SOCKET	1
#else
#define VL_COREDUMP_SOCKET	0
#endif

/* 6.18 added mem_cgroup_from_sk(), the memory cgroup sk_alloc()
 * recorded for a socket, where it had been read from sk->sk_memcg
 * directly: the accessor is the way to it wherever it exists, since the
 * field may carry flags in its low bits one day.  (6.12.y has it too,
 * but returns the field itself there.)
 */
#include <net/sock.h>
#if KERNEL_VERSION(6, 18, 0) <= LINUX_VERSION_CODE
#define vl_sk_memcg(sk)	mem_cgroup_from_sk(sk)
#else
#define vl_sk_memcg(sk)	((sk)->sk_memcg)
#endif

/* The memory cgroup the socket layer recorded for @sk (a reference), or
 * NULL.  An accepted AF_UNIX socket is allocated in the connecting task,
 * in unix_stream_connect(), and sk_alloc() records that task's memory
 * cgroup (mem_cgroup_sk_alloc()): the opener's at connect(), whatever
 * its threads do since.  None is recorded for the root cgroup, nor when
 * socket accounting is off (*@off then): cgroup v1 without kmem.tcp
 * accounting, or cgroup.memory=nosocket; nor without CONFIG_MEMCG, where
 * the socket has no field for it.
 */
#include <linux/memcontrol.h>
static inline struct mem_cgroup *vl_sk_memcg_get(struct sock *sk, bool *off)
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

/* 7.x moved a task's dumpability, and the user namespace that rules
 * it, from its mm to task->exec_state; <linux/sched/coredump.h> lost
 * SUID_DUMP_USER then, which tells the two apart.  Whether @task is
 * dumpable by its owner; *@ns gets the namespace CAP_SYS_PTRACE
 * overrides it in.  Called with task_lock(@task) and rcu_read_lock().
 */
#include <linux/mm_types.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>

#ifdef SUID_DUMP_USER
static inline bool vl_task_dumpable(struct task_struct *task,
				    struct user_namespace **ns)
{
	struct mm_struct *mm = task->mm;

	*ns = mm ? mm->user_ns : NULL;
	return !mm || get_dumpable(mm) == SUID_DUMP_USER;
}
#else
#include <linux/sched/exec_state.h>

static inline bool vl_task_dumpable(struct task_struct *task,
				    struct user_namespace **ns)
{
	struct task_exec_state *es = rcu_dereference(task->exec_state);

	*ns = es->user_ns;
	return es->dumpable == TASK_DUMPABLE_OWNER;
}
#endif

/* 6.3 made inode_permission() take the mount's idmapping, where it had
 * taken the mount's user namespace.
 */
#include <linux/fs.h>
#include <linux/mount.h>
#if KERNEL_VERSION(6, 3, 0) <= LINUX_VERSION_CODE
#define vl_inode_permission(mnt, inode, mask)				\
	inode_permission(mnt_idmap(mnt), inode, mask)
#else
#define vl_inode_permission(mnt, inode, mask)				\
	inode_permission(mnt_user_ns(mnt), inode, mask)
#endif

/* vfs_path_lookup() is exported on every kernel, but was declared in
 * fs/internal.h only until <linux/namei.h> took it (6.12 has it there):
 * the same declaration, which is harmless where the header has it too.
 */
#include <linux/namei.h>
#if KERNEL_VERSION(6, 12, 0) > LINUX_VERSION_CODE
int vfs_path_lookup(struct dentry *dentry, struct vfsmount *mnt,
		    const char *name, unsigned int flags, struct path *path);
#endif

/* syslog(2) took CAP_SYS_ADMIN for CAP_SYSLOG while dmesg_restrict is
 * set, "for historical reasons, with a warning", until the fallback was
 * dropped after the LKML thread of January 2024 ("Suggestion for
 * Capability Check Refinement in check_syslog_permissions()"): 6.1.192
 * has it, 6.12 and 7.3 have not.  6.9 is the release it is taken to have
 * gone in; the kernels between 6.1 and 6.12 are not tested.
 */
#if KERNEL_VERSION(6, 9, 0) > LINUX_VERSION_CODE
#define VL_SYSLOG_SYS_ADMIN	1
#else
#define VL_SYSLOG_SYS_ADMIN	0
#endif

/* 6.16 added SO_PASSRIGHTS: off, a client's sendmsg() of descriptors to
 * a connection fails, and the writer of what is read comes as
 * SCM_CREDENTIALS, its pid as a number in the reader's pid namespace
 * (*@nr).  Before, descriptors reach the receive queue (the connection
 * is closed for them, see vl_sender_passed_fds()), and the writer is in
 * the skb's control block, its thread group itself (*@pid).  Either way
 * vl_unix_recv() reads what one writer wrote, and says who (its real
 * uid in *@uid), as kernel_recvmsg() with MSG_DONTWAIT otherwise; and
 * -EBADMSG, nothing read, if what comes next carries descriptors.
 */
#include <linux/cred.h>
#include <linux/net.h>
#include <linux/sched/task.h>
#include <linux/socket.h>
#ifdef SO_PASSRIGHTS
static inline int vl_unix_no_rights(struct socket *listener)
{
	int zero = 0;

	return sock_setsockopt(listener, SOL_SOCKET, SO_PASSRIGHTS,
			       KERNEL_SOCKPTR(&zero), sizeof(zero));
}

static inline bool vl_unix_fds_queued(struct sock *sk)
{
	return false;
}

/* SCM_CREDENTIALS numbers the writer's uid in the reader's user
 * namespace, and one that namespace does not map as the overflow uid.
 * The reader may be a caller's task (conn.c's fast path), in a user
 * namespace that maps neither the writer nor, maybe, itself: the tag is
 * read with the kernel's credentials, in the initial user namespace,
 * where every uid has its number.  A writer that the reader does not see
 * in its pid namespace is 0, no sender, who is granted nothing; by the
 * time it is read the number may name another process (sender.c tells).
 */
static inline int vl_unix_recv(struct socket *sock, struct kvec *iov,
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

static inline int vl_unix_no_rights(struct socket *listener)
{
	return 0;
}

static inline bool vl_unix_fds_queued(struct sock *sk)
{
	return atomic_read(&unix_sk(sk)->scm_stat.nr_fds);
}

/* One skb is read at a time: reading one that carries descriptors would
 * release them (there is no control buffer) unseen, and
 * vl_unix_fds_queued() may not have seen them queued yet, if its writer
 * has not reached ->sk_data_ready().  AF_UNIX queues and shuts down
 * under the state lock, and only we dequeue: the skb at the head is the
 * one read next.
 */
static inline int vl_unix_recv(struct socket *sock, struct kvec *iov,
			       struct pid **pid, pid_t *nr, kuid_t *uid)
{
	struct msghdr msg = {};
	struct sock *sk = sock->sk;
	struct sk_buff *skb;
	int ret = -EAGAIN;
	size_t len = 0;

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

#endif /* __KERNEL__ */
#endif /* _VARLINK_COMPAT_H */
