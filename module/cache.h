/* SPDX-License-Identifier: GPL-2.0 */
/* Per-CPU caches of per-message memory: see cache.c. */
#ifndef _VL_CACHE_H
#define _VL_CACHE_H

#include <linux/percpu.h>
#include <linux/types.h>

#define VL_CACHE_SLOTS	2	/* objects kept per CPU */

struct kmem_cache;

struct vl_cache_slots {
	void *obj[VL_CACHE_SLOTS];
};

struct vl_cache {
	struct kmem_cache *slab;
	struct vl_cache_slots __percpu *slots;
};

int vl_cache_init(struct vl_cache *c, const char *name, size_t size);
void vl_cache_destroy(struct vl_cache *c);
void *vl_cache_alloc(struct vl_cache *c, gfp_t gfp);
void vl_cache_free(struct vl_cache *c, void *obj);

#endif /* _VL_CACHE_H */
