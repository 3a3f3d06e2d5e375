/* SPDX-License-Identifier: GPL-2.0 */
/*
 * placement.h - the one rule for where RCU offload kthreads may run.
 *
 * An offload kthread (rcuog/N, rcuop/N) exists to take callback work off
 * quiet CPUs, so it must not be allowed on any of them: no offloaded CPU
 * (now, or once it comes online), no isolated CPU (isolcpus=, cgroup v2
 * isolated cpuset partitions) and no nohz_full CPU. And a nohz_full CPU
 * must stay offloaded: the kernel assumes it, and with callbacks of its
 * own the CPU keeps its tick. Every verb that reads or changes placement
 * or offload asks this module, so that none creates what status warns of.
 */
#ifndef NOCB_PLACEMENT_H
#define NOCB_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "cpulist.h"
#include "offload.h"
#include "proc.h"
#include "sysfs.h"

struct placement_rule {
	struct cpulist offloaded;	/* no-CBs now or soon */
	struct cpulist isolated;	/* isolcpus= and cpuset partitions */
	struct cpulist nohz_full;
	struct cpulist unsafe;		/* all of the above */
};

/* The rule for cs with the given no-CBs CPUs (e.g. after a change). */
void placement_rule_init(struct placement_rule *r, const struct cpu_state *cs,
			 const struct cpulist *offloaded);
/* The rule for the running system: oi's offloaded and pending CPUs. */
void placement_rule_now(struct placement_rule *r, const struct cpu_state *cs,
			const struct offload_info *oi);

/* The CPUs of allowed that r calls unsafe go to *bad; true when none. */
bool placement_safe(const struct placement_rule *r,
		    const struct cpulist *allowed, struct cpulist *bad);

/* Why each CPU of bad is unsafe: "1-3 offloaded, 3 nohz_full". */
void placement_why(const struct placement_rule *r, const struct cpulist *bad,
		   char *buf, size_t len);

/* The CPUs of list a de-offload must keep (nohz_full) go to *bad. */
bool placement_deoffload_safe(const struct cpu_state *cs,
			      const struct cpulist *list, struct cpulist *bad);

/*
 * A verb's refusal: "nocbctl: VERB: WHAT: CPUs B are unsafe for offload
 * kthreads (WHY); CURE, or --force" and exit 2; with force, a warning
 * that --force overrides it, and 0.
 */
int placement_refuse(const struct nocb_ctx *ctx, const char *verb,
		     bool force, const char *what, const struct cpulist *bad,
		     const char *why, const char *cure);

#endif
