// SPDX-License-Identifier: GPL-2.0
/*
 * Admission: which connections the server takes.
 *
 * A connection is counted against max_connections; against
 * max_connections_per_uid for its opener's user in its container (see
 * peer_user() and peer_tenant() in peer.c: each uid of a container has a
 * share of its own, and every uid an unprivileged user maps into
 * namespaces of its own is that user's); and against
 * max_connections_per_netns both for the network namespace it connected
 * in, outside the initial one, and for its container as a whole, all
 * the network namespaces it makes together.  Openers with CAP_SYS_ADMIN
 * in the initial user namespace have no per-user, per-namespace or
 * per-container limit and the last sixteenth of max_connections to
 * themselves, so that no user and no container locks root out.  A
 * connection over a limit is refused so that its client can tell:
 * TooManyConnections is its first message, then the socket is closed.
 *
 * The openers admitted are kept on one list, counted by walking it: a
 * connection is admitted and leaves once each, not per call.
 */
#include <linux/capability.h>
#include <linux/list.h>
#include <linux/net.h>
#include <linux/socket.h>
#include <linux/spinlock.h>
#include <linux/uio.h>
#include <linux/user_namespace.h>
#include <linux/wait_bit.h>
#include <net/net_namespace.h>

#include "admission.h"
#include "caller.h"
#include "params.h"
#include "peer.h"
#include "stats.h"

static DEFINE_SPINLOCK(admitted_lock);
static LIST_HEAD(admitted);	/* struct vl_peer, by ->node */

/* Connections of @peer's user in its container */
static unsigned int count_user(const struct vl_peer *peer)
	__must_hold(&admitted_lock)
{
	struct vl_peer *p;
	unsigned int n = 0;

	lockdep_assert_held(&admitted_lock);
	list_for_each_entry(p, &admitted, node)
		n += uid_eq(p->user, peer->user) && p->tenant == peer->tenant;
	return n;
}

/* Connections of the container @tenant */
static unsigned int count_tenant(const void *tenant)
	__must_hold(&admitted_lock)
{
	struct vl_peer *p;
	unsigned int n = 0;

	lockdep_assert_held(&admitted_lock);
	list_for_each_entry(p, &admitted, node)
		n += p->tenant == tenant;
	return n;
}

/* Connections in @net */
static unsigned int count_net(const struct net *net)
	__must_hold(&admitted_lock)
{
	struct vl_peer *peer;
	unsigned int n = 0;

	lockdep_assert_held(&admitted_lock);
	list_for_each_entry(peer, &admitted, node)
		n += net_eq(peer->net, net);
	return n;
}

/**
 * vl_admission_count_net() - the connections of a network namespace
 * @net: the namespace
 *
 * Return: how many there are now.
 */
unsigned int vl_admission_count_net(const struct net *net)
{
	unsigned int n;

	spin_lock(&admitted_lock);
	n = count_net(net);
	spin_unlock(&admitted_lock);
	return n;
}

/* Refuse a connection so that its client can tell: the error is its
 * first message, the reply to whatever it sends, then the end.
 */
static void refuse(struct socket *sock, unsigned int max)
{
	char msg[96];
	struct kvec iov = { .iov_base = msg };
	struct msghdr hdr = { .msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL };

	iov.iov_len = scnprintf(msg, sizeof(msg),
				"{\"error\":\"org.kernel.varlink.TooManyConnections\",\"parameters\":{\"max\":%u}}",
				max) + 1;
	kernel_sendmsg(sock, &hdr, &iov, 1, iov.iov_len);
	vl_stat_inc(refused);
}

/* Under admitted_lock: 0 if @peer may join, or the limit it hits. */
static unsigned int over_limit(const struct vl_peer *peer, bool admin)
	__must_hold(&admitted_lock)
{
	unsigned int max = vl_config.max_connections;
	unsigned int n = atomic_read(&vl_connections);

	lockdep_assert_held(&admitted_lock);
	if (!admin)
		max -= max / VL_CONN_RESERVE_DIV;
	if (n >= max)
		return max;
	if (admin)
		return 0;
	if (count_user(peer) >= vl_config.max_connections_per_uid)
		return vl_config.max_connections_per_uid;
	if (!net_eq(peer->net, &init_net) &&
	    count_net(peer->net) >= vl_config.max_connections_per_netns)
		return vl_config.max_connections_per_netns;
	if (peer->tenant &&
	    count_tenant(peer->tenant) >= vl_config.max_connections_per_netns)
		return vl_config.max_connections_per_netns;
	return 0;
}

/**
 * vl_admit() - admit a new connection, or refuse it
 * @peer: who opened it; on the list of the admitted until
 *	vl_admission_leave()
 * @sock: its socket, where a refusal is written
 *
 * Return: 0, or -EMFILE once the client has been told why not.
 */
int vl_admit(struct vl_peer *peer, struct socket *sock)
{
	bool admin = vl_cred_capable(peer->cred, &init_user_ns, CAP_SYS_ADMIN);
	unsigned int over;

	spin_lock(&admitted_lock);
	over = over_limit(peer, admin);
	if (!over) {
		list_add_tail(&peer->node, &admitted);
		atomic_inc(&vl_connections);
	}
	spin_unlock(&admitted_lock);
	if (!over) {
		vl_stat_inc(connections_total);
		return 0;
	}
	pr_debug_ratelimited("refusing a connection of uid %u\n",
			     from_kuid(&init_user_ns, peer->user));
	refuse(sock, over);
	return -EMFILE;
}

/**
 * vl_admission_leave() - an admitted connection is gone
 * @peer: its opener, as vl_admit() took it
 *
 * The last one wakes whoever waits for vl_connections to reach 0.
 */
void vl_admission_leave(struct vl_peer *peer)
{
	spin_lock(&admitted_lock);
	list_del(&peer->node);
	spin_unlock(&admitted_lock);
	if (atomic_dec_and_test(&vl_connections))
		wake_up_var(&vl_connections);
}
