/* SPDX-License-Identifier: GPL-2.0 */
/*
 * offload.h - which CPUs are offloaded (no-CBs), and how we know.
 *
 * The kernel's view is K6's rcu_nocbs file, else the rcudata 'N' flag
 * (K2). Without either we fall
 * back to the boot command line (rcu_nocbs= and nohz_full=) and say so,
 * reading it as the kernel did: an rcu_nocbs= list the kernel rejects
 * offloads every CPU (rcu_nocb_setup() does cpumask_setall()), a bad
 * nohz_full= list is ignored (housekeeping_setup()).
 */
#ifndef NOCB_OFFLOAD_H
#define NOCB_OFFLOAD_H

#include "proc.h"
#include "rcudata.h"
#include "sysfs.h"

/* K6: the no-CBs CPUs as a cpulist, read and written whole */
#define RCU_NOCBS_PATH "/sys/devices/system/cpu/rcu_nocbs"

enum offload_source {
	OFFLOAD_SYSFS,		/* RCU_NOCBS_PATH (K6) */
	OFFLOAD_RCUDATA,	/* rcudata N flags: the kernel's view */
	OFFLOAD_CMDLINE,	/* /proc/cmdline rcu_nocbs= / nohz_full= */
	OFFLOAD_UNKNOWN,
};

struct offload_info {
	enum offload_source source;
	struct cpulist offloaded;
	bool poll;			/* rcu_nocb_poll on the command line */
	enum rcudata_status rd_status;
	bool debugfs;			/* debugfs mounted (see rcudata.h) */
	bool no_debugfs;		/* kernel built without debugfs */
	char rd_err[512];
	struct rcudata rd;		/* valid when rd_status == RCUDATA_OK */
	struct kcmdline kc;		/* for .have and .poll */
	/* what the command line made the kernel do, within possible CPUs */
	struct cpulist nocbs;		/* from rcu_nocbs= */
	struct cpulist nohz;		/* from nohz_full= */
	/* what the command line offloaded at boot, when kc.have */
	struct cpulist boot;
	/*
	 * With rcudata: the possible CPUs without a line there (not online
	 * since boot), by what the command line will make them, or unknown
	 * without /proc/cmdline. Empty with any other source.
	 */
	struct cpulist pending_offloaded, pending_normal, unknown;
	/* malloc'd warnings about lists the kernel rejected, or NULL */
	char *nocbs_warning, *nohz_warning;
};

/*
 * Fills *oi; when the offloaded CPUs come from a command line with a
 * list the kernel rejected, says so on ctx->err ("nocbctl: warning: ").
 */
void offload_read(const struct nocb_ctx *ctx, const struct cpu_state *cs,
		  struct offload_info *oi);
void offload_free(struct offload_info *oi);

/*
 * kt is allowed on the CPU it serves and that CPU is offloaded: the
 * callback work it was to take off that CPU may still run there.
 */
bool offload_kthread_on_own_cpu(const struct kthread *kt,
				const struct cpulist *offloaded);
const char *offload_source_name(enum offload_source s);

/*
 * Read RCU_NOCBS_PATH into *out: 0; -ENOENT when the kernel has no K6;
 * another -errno (-EINVAL: not a CPU list) with the reason in err.
 */
int offload_read_nocbs(const struct nocb_ctx *ctx, int nbits,
		       struct cpulist *out, char *err, size_t errlen);

#endif
