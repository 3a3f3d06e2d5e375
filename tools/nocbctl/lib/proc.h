/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proc.h - /proc scanning: RCU offload kthreads, /proc/PID/status and
 * /proc/PID/stat parsers, /proc/cmdline parameters. All root-prefixed.
 */
#ifndef NOCB_PROC_H
#define NOCB_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "cpulist.h"
#include "ctx.h"

/* Kinds of offload kthread, as bits for selection masks. */
enum kt_kind {
	KT_RCUOG = 1,	/* rcuog/N: grace-period kthread, N = group leader */
	KT_RCUOP = 2,	/* rcuop/N: callback kthread for CPU N (preemptible) */
	KT_RCUOS = 4,	/* rcuos/N: older name (sched flavour) */
	KT_RCUOB = 8,	/* rcuob/N: older name (bh flavour) */
};
#define KT_ALL (KT_RCUOG | KT_RCUOP | KT_RCUOS | KT_RCUOB)
/* Any other kernel thread (cpu -1): for scans beyond the offload kthreads. */
#define KT_OTHER 16

/* "rcuo" -> KT_ALL, "rcuog" -> KT_RCUOG, "rcuop" -> KT_RCUOP; 0 if bad. */
unsigned kt_select(const char *word);

/* Parse a comm like "rcuop/12". Returns kind or 0 if not an offload kthread. */
unsigned kt_parse_name(const char *comm, int *cpu);

/* Parsed /proc/PID/status (only what nocbctl needs). */
struct proc_status {
	char name[64];
	struct cpulist allowed;
	bool have_allowed;
};

/* Parsed /proc/PID/stat. */
struct proc_stat {
	char comm[64];
	unsigned long flags;	/* field 9 */
	long nice;		/* field 19 */
	unsigned long long starttime; /* field 22, clock ticks after boot */
	unsigned long rt_priority; /* field 40 */
	unsigned long policy;	/* field 41 */
};

#define PF_KTHREAD_FLAG 0x00200000UL
/* kthread_bind()ed (per-CPU, or a workqueue's): user space cannot move it */
#define PF_NO_SETAFFINITY_FLAG 0x04000000UL

/* Returns 0, or -1 with reason in err. nbits as cpulist_parse(). */
int proc_parse_status(const char *buf, size_t len, int nbits,
		      struct proc_status *st, char *err, size_t errlen);
int proc_parse_stat(const char *buf, size_t len, struct proc_stat *st,
		    char *err, size_t errlen);

struct kthread {
	pid_t pid;
	char name[32];
	unsigned kind;
	int cpu;		/* N from the name */
	struct cpulist allowed;
	int policy;		/* SCHED_* */
	int rt_priority;
	int nice;
	unsigned long long starttime;	/* with pid and name: which task */
	unsigned long flags;	/* PF_* from /proc/PID/stat */
};

struct kthread_list {
	size_t n, cap;
	struct kthread *v;	/* sorted by kind, then CPU */
	size_t vanished;	/* threads that disappeared during the scan */
	size_t failed;		/* entries that could not be read or parsed */
};

/*
 * Scan ROOT/proc for kernel threads whose name matches kinds.
 * Threads that vanish mid-scan are counted in ->vanished, not errors;
 * entries that cannot be read or parsed are reported on ctx->err and
 * counted in ->failed. Returns 0 or -1 after printing an error.
 */
int proc_scan_kthreads(const struct nocb_ctx *ctx, const char *what,
		       unsigned kinds, int nbits, struct kthread_list *out);
void kthread_list_free(struct kthread_list *l);

/*
 * Allowed CPUs of any task (Cpus_allowed_list of /proc/PID/status): 0,
 * -ESRCH if it is gone, -EINVAL if unparsable, or another -errno.
 */
int proc_read_allowed(const struct nocb_ctx *ctx, pid_t pid, int nbits,
		      struct cpulist *allowed);

/* Re-read one thread's allowed CPUs and scheduling. 0, or -errno. */
int proc_read_kthread(const struct nocb_ctx *ctx, pid_t pid, int nbits,
		      struct kthread *kt);

/*
 * Just before changing kt: is its pid still the task the scan found (same
 * name, a kernel thread, same start time)? 0 if so; -ESRCH if it exited,
 * also when its pid now names another task; another -errno if its stat
 * cannot be read or parsed.
 */
int proc_recheck_kthread(const struct nocb_ctx *ctx, const struct kthread *kt);

/* "other", "fifo", "rr", "batch", "idle", "deadline" or "?" */
const char *sched_policy_name(int policy);
/* -1 if unknown; accepts other|fifo|rr (what nocbctl sets). */
int sched_policy_parse(const char *s);

/* /proc/cmdline */
struct kcmdline {
	bool have;		/* /proc/cmdline was readable */
	bool rcu_nocbs;		/* rcu_nocbs present (with or without =) */
	bool nohz_full;
	bool poll;		/* rcu_nocb_poll */
	struct cpulist nocbs;	/* rcu_nocbs= list */
	struct cpulist nohz;	/* nohz_full= list */
	bool nocbs_bad, nohz_bad; /* list present but unparsable */
};

int proc_read_cmdline(const struct nocb_ctx *ctx, int nbits,
		      struct kcmdline *kc);
/* Parse a command line string (exposed for tests). */
void proc_parse_cmdline(const char *buf, size_t len, int nbits,
			struct kcmdline *kc);

/*
 * The next word of a kernel command line in [*p, end), split on blanks as
 * the kernel does; its length in *n.  NULL at the end or at "--" (the rest
 * goes to init).  Advances *p past the word.
 */
const char *proc_cmdline_word(const char **p, const char *end, size_t *n);

#endif
