/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The core's counters, shown in /sys/module/varlink/statistics/ and by
 * org.kernel.varlink.GetStatistics.
 */
#ifndef _VL_STATS_H
#define _VL_STATS_H

#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/types.h>

/* Each CPU counts in a copy of its own, so that CPUs serving calls in
 * parallel share no cache line for them; a read sums the copies.
 * this_cpu_inc() and this_cpu_add() are safe against preemption and
 * interrupts on every architecture (one instruction on x86; the generic
 * versions disable interrupts around the update), so a counter may be
 * updated in any context, without a lock.
 */
struct vl_stats {
	u64 connections_total;
	u64 refused;
	u64 calls;
	u64 calls_inline;
	u64 errors;
	u64 protocol_errors;
	u64 bytes_in;
	u64 bytes_out;
	u64 sends;
	u64 allocations;
};

DECLARE_PER_CPU(struct vl_stats, vl_stats);

#define vl_stat_inc(name)	this_cpu_inc(vl_stats.name)
#define vl_stat_add(name, n)	this_cpu_add(vl_stats.name, (n))

/* The connections open now, shown as statistics/connections: one count
 * for all CPUs, not a statistic alone, since admission.c admits
 * connections by it and conn.c waits at unload for it to reach 0.  It
 * changes once per connection, not per call.
 */
extern atomic_t vl_connections;

void vl_stats_for_each(void (*fn)(const char *name, s64 value, void *data),
		       void *data);
int vl_stats_init(void);
void vl_stats_exit(void);

#endif /* _VL_STATS_H */
