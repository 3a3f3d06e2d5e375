// SPDX-License-Identifier: GPL-2.0
/* offload.c - which CPUs are offloaded, and how we know (see offload.h). */
#include "offload.h"

#include <string.h>

void offload_read(const struct nocb_ctx *ctx, const struct cpu_state *cs,
		  struct offload_info *oi)
{
	memset(oi, 0, sizeof(*oi));
	oi->rd_status = rcudata_read(ctx, &oi->rd, oi->rd_err,
				     sizeof(oi->rd_err));
	if (proc_read_cmdline(ctx, cs->nbits, &oi->kc))
		memset(&oi->kc, 0, sizeof(oi->kc));
	oi->poll = oi->kc.poll;
	if (oi->rd_status == RCUDATA_OK) {
		oi->source = OFFLOAD_RCUDATA;
		for (size_t i = 0; i < oi->rd.n; i++)
			if (oi->rd.cpus[i].offloaded)
				cpulist_set(&oi->offloaded, oi->rd.cpus[i].cpu);
	} else if (oi->kc.have && (oi->kc.rcu_nocbs || oi->kc.nohz_full)) {
		oi->source = OFFLOAD_CMDLINE;
		cpulist_or(&oi->offloaded, &oi->kc.nocbs, &oi->kc.nohz);
		cpulist_and(&oi->offloaded, &oi->offloaded, &cs->possible);
	} else if (oi->kc.have) {
		/* no rcu_nocbs= and no nohz_full=: nothing offloaded */
		oi->source = OFFLOAD_CMDLINE;
	} else {
		oi->source = OFFLOAD_UNKNOWN;
	}
}

void offload_free(struct offload_info *oi)
{
	rcudata_free(&oi->rd);
}

const char *offload_source_name(enum offload_source s)
{
	switch (s) {
	case OFFLOAD_RCUDATA: return "rcudata";
	case OFFLOAD_CMDLINE: return "cmdline";
	default: return "unknown";
	}
}
