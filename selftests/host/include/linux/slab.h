/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: allocators on top of malloc; GFP flags are ignored. */
#ifndef _SHIM_LINUX_SLAB_H
#define _SHIM_LINUX_SLAB_H

#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#define GFP_KERNEL	0U
#define GFP_ATOMIC	0U
#define GFP_NOWAIT	0U
#define __GFP_ZERO	0U
#define __GFP_NOWARN	0U

/*
 * Fault injection for host tests: when shim_fail_alloc is positive it
 * counts down, and the allocation that brings it to zero fails.
 */
extern int shim_fail_alloc;

static inline int shim_alloc_fails(void)
{
	return shim_fail_alloc > 0 && --shim_fail_alloc == 0;
}

static inline void *kmalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return shim_alloc_fails() ? NULL : malloc(size ? size : 1);
}

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return shim_alloc_fails() ? NULL : calloc(1, size ? size : 1);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	(void)gfp;
	return shim_alloc_fails() ? NULL : calloc(n ? n : 1, size ? size : 1);
}

static inline void *kmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kmalloc(n * size, gfp);
}

static inline void *krealloc(const void *p, size_t size, gfp_t gfp)
{
	(void)gfp;
	return shim_alloc_fails() ? NULL : realloc((void *)p, size ? size : 1);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

#define kvmalloc(size, gfp)		kmalloc(size, gfp)
#define kvzalloc(size, gfp)		kzalloc(size, gfp)
#define kvcalloc(n, size, gfp)		kcalloc(n, size, gfp)
#define kvmalloc_array(n, size, gfp)	kmalloc_array(n, size, gfp)
#define kvfree(p)			kfree(p)

static inline char *kstrndup(const char *s, size_t max, gfp_t gfp)
{
	size_t len = strnlen(s, max);
	char *d = kmalloc(len + 1, gfp);

	if (d) {
		memcpy(d, s, len);
		d[len] = '\0';
	}
	return d;
}

static inline char *kstrdup(const char *s, gfp_t gfp)
{
	return s ? kstrndup(s, (size_t)-1, gfp) : NULL;
}

#endif
