// SPDX-License-Identifier: GPL-2.0
/*
 * The server's work items, shared out: how many of them a user and a
 * container may have running at once.
 *
 * Every connection's io_work and every stream's work run on one unbound
 * workqueue (conn.c), VL_WORKERS_MAX at a time.  None of them sleeps on
 * a lock a client's task can hold, but a provider's method may sleep on
 * the kernel's (RTNL, a file's), which a user may keep busy; so no user
 * and no container may fill the workqueue.  A work item of an opener
 * without CAP_SYS_ADMIN in the initial user namespace runs only while
 * its user has fewer than max_workers_per_user running (counted by
 * varlink_call_user() within its varlink_call_tenant(), as connections
 * are), its container fewer than
 * max_workers_per_container, and all such
 * items together fewer than VL_WORKERS_MAX less an eighth, kept for the
 * host's administrators.  An item over its share does not run: it
 * waits, in order, on a list, and the first one with room again is
 * queued when an item ends, so a share is never slept on either.
 *
 * The items running are counted by walking their list: there are at
 * most VL_WORKERS_MAX of them.
 */
#include <linux/capability.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/user_namespace.h>

#include "caller.h"
#include "params.h"
#include "peer.h"
#include "workers.h"

static DEFINE_SPINLOCK(workers_lock);
static LIST_HEAD(running);	/* struct vl_worker, by @node */
static LIST_HEAD(waiting);
static unsigned int n_running;	/* of openers without CAP_SYS_ADMIN */

/**
 * vl_worker_init() - the share of a work item
 * @w: the work item's share
 * @peer: the opener of its connection
 * @resume: queues the work item again once it has room
 */
void vl_worker_init(struct vl_worker *w, const struct vl_peer *peer,
		    void (*resume)(struct vl_worker *w))
{
	INIT_LIST_HEAD(&w->node);
	w->user = peer->user;
	w->tenant = peer->tenant;
	w->admin = vl_cred_capable(peer->cred, &init_user_ns, CAP_SYS_ADMIN);
	w->resume = resume;
	w->state = VL_WORKER_IDLE;
}

/* Whether @w has room to run now */
static bool has_room(const struct vl_worker *w)
	__must_hold(&workers_lock)
{
	const struct vl_worker *r;
	unsigned int user = 0, tenant = 0;

	lockdep_assert_held(&workers_lock);
	if (w->admin)
		return true;
	if (n_running >= VL_WORKERS_MAX - VL_WORKERS_MAX / VL_WORKERS_RESERVE_DIV)
		return false;
	list_for_each_entry(r, &running, node) {
		if (r->admin || r->tenant != w->tenant)
			continue;
		tenant++;
		user += uid_eq(r->user, w->user);
	}
	return user < vl_config.max_workers_per_user &&
	       (!w->tenant || tenant < vl_config.max_workers_per_container);
}

static void run(struct vl_worker *w)
	__must_hold(&workers_lock)
{
	list_move_tail(&w->node, &running);
	w->state = VL_WORKER_RUNNING;
	n_running += !w->admin;
}

/**
 * vl_worker_enter() - a work item starts, if its share has room
 * @w: its share
 *
 * Return: true if it may run, until vl_worker_leave(); false if it must
 * return now: @w's resume queues it again once it has room.
 */
bool vl_worker_enter(struct vl_worker *w)
{
	bool ok;

	spin_lock(&workers_lock);
	ok = w->state == VL_WORKER_IDLE && has_room(w);
	if (ok) {
		run(w);
	} else if (w->state == VL_WORKER_IDLE) {
		list_add_tail(&w->node, &waiting);
		w->state = VL_WORKER_WAITING;
	}
	spin_unlock(&workers_lock);
	return ok;
}

/**
 * vl_worker_leave() - a work item that vl_worker_enter() let run ends
 * @w: its share
 *
 * The first work item waiting that has room now is queued.
 */
void vl_worker_leave(struct vl_worker *w)
{
	struct vl_worker *next, *found = NULL;

	spin_lock(&workers_lock);
	list_del_init(&w->node);
	w->state = VL_WORKER_IDLE;
	n_running -= !w->admin;
	list_for_each_entry(next, &waiting, node) {
		if (has_room(next)) {
			found = next;
			list_del_init(&found->node);
			found->state = VL_WORKER_IDLE;
			break;
		}
	}
	/* under the lock: vl_worker_forget() waits for it */
	if (found)
		found->resume(found);
	spin_unlock(&workers_lock);
}

/**
 * vl_worker_forget() - a work item goes away
 * @w: its share, not running
 *
 * Takes it off the waiting list, if it is on it.
 */
void vl_worker_forget(struct vl_worker *w)
{
	spin_lock(&workers_lock);
	WARN_ON_ONCE(w->state == VL_WORKER_RUNNING);
	list_del_init(&w->node);
	w->state = VL_WORKER_IDLE;
	spin_unlock(&workers_lock);
}
