// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU caches of the memory one message needs: a call (which carries
 * its tokens, parameters and the start of its reply) and the first input
 * buffer of a connection.
 *
 * An idle connection holds neither, yet a client that calls one method
 * after the other would otherwise have them allocated and freed for every
 * call.  Each CPU keeps up to VL_CACHE_SLOTS objects of each kind: the
 * objects freed last on a CPU are the next ones allocated there, so a
 * stream of calls, served one at a time on a CPU, reaches the slab
 * allocator only for the first one.  this_cpu_xchg() and
 * this_cpu_cmpxchg() keep a slot consistent without disabling preemption;
 * an object allocated on one CPU may be freed on another.
 *
 * The slab caches are SLAB_ACCOUNT: an object is charged to the memory
 * cgroup active when the slab allocator handed it out (the connection's,
 * see conn.c), and stays charged there while it is recycled through the
 * slots.  So at most VL_CACHE_SLOTS objects per CPU and cache serve one
 * cgroup on another's charge: a bounded, shared float.
 *
 * The allocations that did reach the slab allocator are counted in
 * /sys/module/varlink/statistics/allocations, with the core's other
 * per-message allocations.
 */
#include <linux/percpu.h>
#include <linux/slab.h>

#include "cache.h"
#include "stats.h"

/**
 * vl_cache_init() - create a cache of objects of one size
 * @c: the cache
 * @name: the slab cache's name, as in /proc/slabinfo
 * @size: bytes of one object
 *
 * Return: 0 or -ENOMEM.
 */
int vl_cache_init(struct vl_cache *c, const char *name, size_t size)
{
	c->slab = kmem_cache_create(name, size, 0, SLAB_ACCOUNT, NULL);
	if (!c->slab)
		return -ENOMEM;
	c->slots = alloc_percpu(struct vl_cache_slots);
	if (!c->slots) {
		kmem_cache_destroy(c->slab);
		return -ENOMEM;
	}
	return 0;
}

/**
 * vl_cache_destroy() - free a cache
 * @c: the cache; every object allocated from it must have been freed
 */
void vl_cache_destroy(struct vl_cache *c)
{
	unsigned int i;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct vl_cache_slots *s = per_cpu_ptr(c->slots, cpu);

		for (i = 0; i < VL_CACHE_SLOTS; i++)
			if (s->obj[i])
				kmem_cache_free(c->slab, s->obj[i]);
	}
	free_percpu(c->slots);
	kmem_cache_destroy(c->slab);
}

/**
 * vl_cache_alloc() - an object of the cache, not zeroed
 * @c: the cache
 * @gfp: allocation flags if this CPU's slots are empty
 *
 * Return: the object, or NULL.
 */
void *vl_cache_alloc(struct vl_cache *c, gfp_t gfp)
{
	unsigned int i;
	void *obj;

	for (i = 0; i < VL_CACHE_SLOTS; i++) {
		obj = this_cpu_xchg(c->slots->obj[i], NULL);
		if (obj)
			return obj;
	}
	vl_stat_inc(allocations);
	return kmem_cache_alloc(c->slab, gfp);
}

/**
 * vl_cache_free() - give an object back
 * @c: the cache it came from
 * @obj: the object, or NULL
 */
void vl_cache_free(struct vl_cache *c, void *obj)
{
	unsigned int i;

	if (!obj)
		return;
	for (i = 0; i < VL_CACHE_SLOTS; i++) {
		if (!this_cpu_cmpxchg(c->slots->obj[i], NULL, obj))
			return;
	}
	kmem_cache_free(c->slab, obj);
}
