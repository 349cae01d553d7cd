// SPDX-License-Identifier: GPL-2.0
/*
 * Who wrote a message: the process AF_UNIX records with every write.
 *
 * The credentials of the connection (SO_PEERCRED) are those of the task
 * that connected; the descriptor may since have been inherited or passed
 * to anybody.  A privileged call therefore also needs the capability of
 * the task that wrote it, as netlink checks both the socket's opener and
 * the sender (netlink_ns_capable(), after CVE-2014-0181).
 *
 * With SO_PASSCRED on the listener (inherited by every accepted socket),
 * AF_UNIX tags each write with the writer's thread group and real uid,
 * and a read never returns the bytes of two writers.  Kernels since 6.16
 * report the tag as SCM_CREDENTIALS, with SO_PASSRIGHTS off so that no
 * descriptor can reach a kernel reader (scm_detach_fds() warns on one);
 * older kernels keep the tag in the skb's control block, read here
 * before the skb is.
 */
#include <linux/cred.h>
#include <linux/net.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/socket.h>
#include <linux/uidgid.h>
#include <net/sock.h>

#include "internal.h"

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
 * has its number.  The pid is numbered in the reader's pid namespace: a
 * writer that the reader does not see there is no sender, who is granted
 * nothing.
 */
static int sender_recv(struct socket *sock, struct kvec *iov,
		       struct pid **pid, kuid_t *uid)
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
	/* numbers as this task sees them: back to what they name */
	*pid = ctl.uc.pid ? find_get_pid(ctl.uc.pid) : NULL;
	*uid = make_kuid(&init_user_ns, ctl.uc.uid);
	return n;
}
#else
#include <net/af_unix.h>

static int sender_recv(struct socket *sock, struct kvec *iov,
		       struct pid **pid, kuid_t *uid)
{
	struct sk_buff_head *q = &sock->sk->sk_receive_queue;
	struct msghdr msg = {};
	struct sk_buff *skb;
	unsigned long flags;

	/* only we dequeue: the skb at the head is the one read next */
	spin_lock_irqsave(&q->lock, flags);
	skb = skb_peek(q);
	if (skb) {
		*pid = get_pid(UNIXCB(skb).pid);
		*uid = UNIXCB(skb).uid;
	}
	spin_unlock_irqrestore(&q->lock, flags);
	/* no control buffer: descriptors sent along are closed */
	return kernel_recvmsg(sock, &msg, iov, 1, iov->iov_len, MSG_DONTWAIT);
}
#endif

/**
 * vl_sender_recv() - read from a connection and learn who wrote it
 * @sock: the connection's socket
 * @iov: where to read to
 * @s: the writer of what was read before; updated to that of what is
 *	read now (a NULL pid when unknown)
 * @changed: set to whether @s changed
 *
 * Context: process context, the socket's only reader.
 * Return: as kernel_recvmsg() with MSG_DONTWAIT.
 */
int vl_sender_recv(struct socket *sock, struct kvec *iov, struct vl_sender *s,
		   bool *changed)
{
	struct pid *pid = NULL;
	kuid_t uid = INVALID_UID;
	int n;

	n = sender_recv(sock, iov, &pid, &uid);
	*changed = false;
	if (n > 0 && (pid != s->pid || !uid_eq(uid, s->uid))) {
		swap(pid, s->pid);
		s->uid = uid;
		*changed = true;
	}
	put_pid(pid);
	return n;
}

/**
 * vl_sender_cred() - the credentials of a message's writer
 * @s: the writer, as vl_sender_recv() found it
 * @in_caller: running in the task that sent the message (the fast path)
 *
 * The writer's current credentials count only while its real and
 * effective uid are still those it wrote with: a process that wrote and
 * then executed a set-user-ID program does not lend it its call.
 *
 * Return: a reference to the credentials, or NULL if the writer is
 * unknown, has exited, or has changed its uids since.
 */
const struct cred *vl_sender_cred(const struct vl_sender *s, bool in_caller)
{
	const struct cred *cred = NULL;
	struct task_struct *task;

	if (!s->pid)
		return NULL;
	if (in_caller && s->pid == task_tgid(current)) {
		cred = get_current_cred();
	} else {
		rcu_read_lock();
		task = pid_task(s->pid, PIDTYPE_TGID);
		if (task)
			cred = get_task_cred(task);
		rcu_read_unlock();
	}
	if (cred && !(uid_eq(cred->uid, s->uid) && uid_eq(cred->euid, s->uid))) {
		put_cred(cred);
		cred = NULL;
	}
	return cred;
}
