/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - the printers of "nocbctl stats" (src/cmd_stats.c) that the
 * unit tests call directly: one sample as text or JSON, and the
 * Prometheus exposition.
 */
#ifndef NOCB_STATS_H
#define NOCB_STATS_H

#include "ctx.h"
#include "cpulist.h"
#include "json.h"

struct rcudata;

/*
 * Print one stats sample (text, or a JSON array of CPU objects when j is
 * set). prev may be NULL (no rates); CPUs missing from prev get no rate,
 * CPUs that disappeared are simply not printed. filter NULL = all CPUs.
 */
void stats_print_sample(struct nocb_ctx *ctx, struct json *j,
			const struct rcudata *prev, const struct rcudata *cur,
			const struct cpulist *filter, double dt);

struct kthread_list;
struct placement_rule;

/* What one Prometheus exposition is made of. */
struct prom_input {
	const struct rcudata *rd;	/* NULL: the kernel has no rcudata */
	const struct cpulist *possible;
	const struct cpulist *offloaded;	/* as status shows them */
	const struct placement_rule *rule;
	const struct kthread_list *kl;	/* the offload kthreads */
	bool runtime_offload;		/* rcu_nocbs is there */
	double now;			/* Unix time of the collection */
};

/*
 * Print one sample in the Prometheus text exposition format: rcudata's
 * counts (when in->rd), and the placement of the offload kthreads on
 * any kernel. filter NULL = all CPUs. 0, or -1 out of memory.
 */
int stats_print_prometheus(struct nocb_ctx *ctx, const struct prom_input *in,
			   const struct cpulist *filter);

#endif
