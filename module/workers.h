/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How many of the server's work items a user and a container may run at
 * once: see workers.c.
 */
#ifndef _VL_WORKERS_H
#define _VL_WORKERS_H

#include <linux/list.h>
#include <linux/types.h>
#include <linux/uidgid.h>

struct vl_peer;

enum vl_worker_state {
	VL_WORKER_IDLE,
	VL_WORKER_WAITING,
	VL_WORKER_RUNNING,
};

/**
 * struct vl_worker - the share a work item runs on
 * @node: on workers.c's running or waiting list, under its lock
 * @user: whose share it is: its opener's user ...
 * @tenant: ... in this container, see struct vl_peer
 * @admin: its opener has CAP_SYS_ADMIN in the initial user namespace
 * @resume: queues the work item again, when it waited for room
 * @state: under workers.c's lock
 */
struct vl_worker {
	struct list_head node;
	kuid_t user;
	const void *tenant;
	bool admin;
	void (*resume)(struct vl_worker *w);
	enum vl_worker_state state;
};

void vl_worker_init(struct vl_worker *w, const struct vl_peer *peer,
		    void (*resume)(struct vl_worker *w));
bool vl_worker_enter(struct vl_worker *w);
void vl_worker_leave(struct vl_worker *w);
void vl_worker_forget(struct vl_worker *w);

#endif /* _VL_WORKERS_H */
