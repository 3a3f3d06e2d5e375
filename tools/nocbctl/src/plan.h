/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plan.h - the isolation recipe for this machine: built by src/plan.c,
 * printed by "nocbctl plan" (src/cmd_plan.c), and compared with the
 * running system by its --check (src/plan_check.c).
 */
#ifndef NOCB_PLAN_H
#define NOCB_PLAN_H

#include "ctx.h"
#include "cpulist.h"
#include "sysfs.h"

#include <stdarg.h>

#define PLAN_GRUB_FILE "/etc/default/grub.d/nocbctl.cfg"
#define PLAN_SYSTEMD_FILE "/etc/systemd/system.conf.d/nocbctl.conf"
#define PLAN_CONFIG_FILE "/etc/nocbctl.conf"
#define PLAN_WQ_MASK "/sys/devices/virtual/workqueue/cpumask"

/* One kernel parameter of the plan. */
struct plan_param {
	const char *name;	/* "rcu_nocbs", "rcu_nocb_poll" */
	char *word;		/* "rcu_nocbs=2-3", malloc'd */
	char *why;		/* one line, malloc'd */
	const char *implied_by;	/* name of a parameter that implies it */
};

#define PLAN_MAX_PARAMS 6

/* A command to run after boot, with why. */
struct plan_step {
	char *cmd, *why;	/* malloc'd */
};

struct plan {
	struct cpu_state cs;
	struct cpulist isolate, housekeeping;
	struct cpulist other;		/* possible CPUs in neither set */
	bool poll, allow_smt_split;
	char *iso, *hk;			/* the two lists, malloc'd */
	char *wq_hex;			/* housekeeping as a hex mask */
	int nodes;			/* NUMA nodes found (0: no NUMA info) */
	bool smt;			/* some CPU has an SMT sibling */
	struct cpulist no_topology;	/* possible CPUs without topology/ */
	struct plan_param param[PLAN_MAX_PARAMS];
	int nparams;
	char *cmdline;			/* the words, blank-separated */
	struct plan_step step[2];
	int nsteps;
	char **warning;
	int nwarnings;
	bool oom;
};

/*
 * Build the plan for isolate_arg (NULL: from the config's housekeeping
 * CPUs, config_path, for --check) and hk_arg (NULL: every other possible
 * CPU). Returns 0, or an exit code after printing the error: 2 for a
 * plan that cannot work, 1 when the machine cannot be read.
 */
int plan_build(struct nocb_ctx *ctx, struct plan *p, const char *isolate_arg,
	       const char *hk_arg, const char *config_path);
void plan_free(struct plan *p);

/* A malloc'd printf string; NULL, and *oom set, on ENOMEM. */
char *plan_fmt(bool *oom, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
char *plan_vfmt(bool *oom, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* Append s (malloc'd, now the array's) to *v of *n; on ENOMEM *oom. */
void plan_push(char ***v, int *n, char *s, bool *oom);

/*
 * Read the config file (path as given, or ROOT/etc/nocbctl.conf for
 * NULL) into cfg. 0, -ENOENT when missing, or 2 after printing the
 * error. path_out gets the path used.
 */
struct nocb_config;
int plan_read_config(struct nocb_ctx *ctx, const char *path, int nbits,
		     struct nocb_config *cfg, char *path_out, size_t len);

/* Compare the running system with p: one line per mismatch; exit code. */
int plan_check(struct nocb_ctx *ctx, const struct plan *p,
	       const char *config_path);

#endif
