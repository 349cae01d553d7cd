/* SPDX-License-Identifier: GPL-2.0 */
/* The registered interfaces: see registry.c. */
#ifndef _VL_REGISTRY_H
#define _VL_REGISTRY_H

#include <linux/list.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/varlink.h>
#include <linux/wait_bit.h>

#include "idl.h"
#include "json.h"

struct net;
struct vl_iface;

/* A method in the registry's hash table of full method names */
struct vl_method_slot {
	struct hlist_node node;
	struct vl_iface *iface;
	const struct vl_idl_member *member;
	u32 hash;
};

struct vl_iface {
	struct list_head node;
	const struct varlink_interface *desc;
	struct module *owner;
	struct vl_idl *idl;
	const struct varlink_method **methods;	/* by IDL member index */
	struct vl_method_slot *slots;		/* one per method */
	struct varlink_json description;	/* the IDL as a JSON string */
	refcount_t ref;
	spinlock_t lock;			/* protects @calls */
	struct list_head calls;			/* calls not finished yet */
	bool dead;				/* under @lock */
	struct rcu_head rcu;
};

struct vl_iface *vl_iface_get(const char *name, size_t len);
struct vl_iface *vl_method_get(const char *name, size_t len,
			       const struct net *net,
			       const struct vl_idl_member **member);
bool vl_iface_served_in(const struct vl_iface *iface, const struct net *net);
struct vl_iface *vl_iface_get_served(const char *name, size_t len,
				     const struct net *net);
unsigned long vl_registry_for_each(void (*fn)(const struct vl_iface *iface,
					      void *data),
				   void *data);
unsigned long vl_registry_gen(void);
void vl_registry_exit(void);

/**
 * vl_iface_put() - drop a reference taken by vl_iface_get()
 * @iface: the interface
 *
 * The last one lets varlink_unregister_interface() go on.
 */
static inline void vl_iface_put(struct vl_iface *iface)
{
	if (refcount_dec_and_test(&iface->ref))
		wake_up_var(&iface->ref);
}

/* A method's flags, with what MORE_ONLY and STREAM imply */
static inline unsigned int vl_method_flags(const struct varlink_method *m)
{
	unsigned int flags = m->flags;

	if (flags & (VARLINK_MORE_ONLY | VARLINK_STREAM))
		flags |= VARLINK_MORE;
	return flags;
}

#endif /* _VL_REGISTRY_H */
