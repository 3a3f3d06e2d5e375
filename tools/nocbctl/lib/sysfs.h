/* SPDX-License-Identifier: GPL-2.0 */
/* sysfs.h - CPU state from /sys/devices/system/cpu (root-prefixed). */
#ifndef NOCB_SYSFS_H
#define NOCB_SYSFS_H

#include "cpulist.h"
#include "ctx.h"

struct cpu_state {
	struct cpulist possible, present, online, offline;
	struct cpulist isolated, nohz_full;
	struct cpulist partition;	/* in isolated cpuset partitions */
	bool have_present, have_offline, have_isolated, have_nohz_full;
	bool have_partition;
	int nbits;	/* last possible CPU + 1 */
};

/*
 * Read possible (required), online (required), and the optional files.
 * Returns 0, or -1 after printing "nocbctl: WHAT: ..." on ctx->err.
 */
int sysfs_read_cpus(const struct nocb_ctx *ctx, const char *what,
		    struct cpu_state *st);

/* Path of cpuN/online (root-prefixed). */
int sysfs_online_path(const struct nocb_ctx *ctx, int cpu, char *buf,
		      size_t len);

/*
 * 1 if cpuN/online exists (the CPU can be hot-removed), 0 if not.
 */
int sysfs_cpu_hotpluggable(const struct nocb_ctx *ctx, int cpu);

/*
 * Read cpuN/online: 1 online, 0 offline, negative errno on error.
 * A CPU without the file is reported from the global online list.
 */
int sysfs_cpu_online(const struct nocb_ctx *ctx, int cpu);

/*
 * A CPU list to pin to: every CPU must be possible, and it is narrowed to
 * the online ones (one offline CPU must not stop the others being used;
 * its kthreads are re-pinned when it comes back). The CPUs dropped go to
 * *dropped. Returns 0, or -1 with the reason in err when a CPU is not
 * possible or none is online.
 */
int sysfs_usable_cpus(const struct cpu_state *cs, struct cpulist *s,
		      struct cpulist *dropped, char *err, size_t errlen);

/* "nocbctl: WHAT: CPUs D are offline; using S" for what was dropped. */
void sysfs_note_dropped(const struct nocb_ctx *ctx, const char *what,
			const struct cpulist *dropped,
			const struct cpulist *used);

#endif
