/* SPDX-License-Identifier: GPL-2.0 */
/*
 * act.h - the pin and prio actions on the offload kthreads (src/act.c),
 * and the placement rule every changing verb checks first.
 *
 * Used by the verbs pin, prio, apply, offload and deoffload, and by
 * src/conf_apply.c for the configuration's pin + prio: one code path for
 * every change of an offload kthread's CPUs or scheduling.
 */
#ifndef NOCB_ACT_H
#define NOCB_ACT_H

#include "ctx.h"
#include "cpulist.h"
#include "json.h"
#include "sysfs.h"

struct act_result {
	int changed, unchanged, would_change, failed, vanished;
};

/* Target CPUs per kind; NULL = leave that kind alone. */
struct pin_target {
	const struct cpulist *rcuog;
	const struct cpulist *rcuop;	/* also rcuos/rcuob */
};

struct prio_target {
	int policy;		/* SCHED_* */
	int priority;		/* rt priority (0 for other) */
	bool set_nice;
	int nice;
};

/*
 * Apply to every selected offload kthread, printing one line (or JSON
 * array element) per thread. j is NULL for text output; with j, the
 * caller has opened an array to which this appends thread objects.
 * Returns 0, or -1 if the scan itself failed (error printed).
 */
int act_pin(struct nocb_ctx *ctx, const char *what, unsigned kinds,
	    const struct pin_target *t, bool dry_run, int nbits,
	    struct json *j, struct act_result *res);
int act_prio(struct nocb_ctx *ctx, const char *what, unsigned kinds,
	     const struct prio_target *t, bool dry_run, int nbits,
	     struct json *j, struct act_result *res);

/* One pin or prio action of a verb. */
struct act_req {
	const char *what;		/* error prefix, e.g. "apply: pin" */
	const char *label;		/* summary prefix, e.g. "pin" */
	unsigned kinds;
	const struct pin_target *pin;	/* exactly one of pin, prio */
	const struct prio_target *prio;
	bool dry_run;
	int nbits;
};

/*
 * Run req and print its summary. With j, the caller has opened an
 * object: this adds "threads" and the summary keys, or "error" when
 * /proc could not be scanned. Returns as act_pin()/act_prio() do.
 */
int act_run(struct nocb_ctx *ctx, const struct act_req *req, struct json *j,
	    struct act_result *res);

/* Print "WHAT: N changed, ..." (text) or the JSON summary keys. */
void act_summary(struct nocb_ctx *ctx, const char *what,
		 const struct act_result *res, bool dry_run, struct json *j);

/* Exit code for a result: 1 if anything failed, else 0. */
int act_exit(const struct act_result *res);

/* What a changing verb is about to do, for the placement rule. */
struct rule_req {
	const char *verb;
	const struct cpu_state *cs;
	const struct cpulist *after;	/* the no-CBs CPUs after; NULL: same */
	const struct pin_target *pin;	/* NULL: no pin */
	const char *pin_what;		/* how the pin's list was given */
	unsigned kinds;			/* the kthreads it acts on */
	bool realtime;			/* it sets a real-time policy */
	bool force;
};

/*
 * The placement rule (lib/placement.h) for a change: refuse (exit 2,
 * error printed) a pin list with an unsafe CPU, a de-offload of a
 * nohz_full CPU, an unpinned kthread that the new no-CBs CPUs would make
 * misplaced, or a real-time policy for a misplaced one. With force, warn
 * and return 0.
 */
int act_check_rule(struct nocb_ctx *ctx, const struct rule_req *q);

#endif
