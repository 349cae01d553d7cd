// SPDX-License-Identifier: GPL-2.0
/*
 * Who wrote a message: the sender of each call.
 *
 * A connection's opener (peer.c) says who connected, not who writes on
 * the connection now: the descriptor may have been inherited or passed
 * since, or its opener may have dropped its privileges.  So each call
 * has a sender too, the process that wrote it.  With SO_PASSCRED on the
 * listener (inherited by every accepted socket), AF_UNIX tags each write
 * with the writer's thread group and real uid, and a read never returns
 * the bytes of two writers.  Kernels since 6.16 report the tag as
 * SCM_CREDENTIALS, with SO_PASSRIGHTS off so that no descriptor can reach
 * a kernel reader (scm_detach_fds() warns on one); older kernels keep the
 * tag in the skb's control block, read before the skb is (compat.h's
 * vl_unix_recv()).  A call whose bytes came from two writers has no
 * sender.  The tag names the process, not the thread that wrote, and
 * threads may hold credentials of their own: the sender's credentials
 * are those every thread of it holds, read alike in a kworker and in the
 * writer's own task, and they count only while it runs the program it
 * wrote with, with the real and effective uid it wrote with
 * (vl_sender_cred()).  What it runs, and which process a pid number
 * named when it wrote, its own task notes as it writes
 * (vl_writers_note()).  What a sender lets a call do is caller.c's.
 */
#include <linux/cred.h>
#include <linux/net.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched/signal.h>
#include <linux/socket.h>
#include <linux/uidgid.h>
#include <net/sock.h>

#include "caller.h"
#include "compat.h"
#include "peer.h"
#include "sender.h"

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
	return err ?: vl_unix_no_rights(listener);
}

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
 * vl_unix_recv() in compat.h.
 *
 * Context: any; the connection's callbacks, once set.
 * Return: true if descriptors are queued (never, since 6.16).
 */
bool vl_sender_passed_fds(struct sock *sk)
{
	return vl_unix_fds_queued(sk);
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

	n = vl_unix_recv(sock, iov, &tagged, &nr, &uid);
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
		else if (vl_cred_caps_within(c, least))
			least = c;
		else if (!vl_cred_caps_within(least, c))
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

