/* SPDX-License-Identifier: GPL-2.0 */
/*
 * conf_apply.h - what /etc/nocbctl.conf asks of the offload kthreads,
 * and doing it (src/conf_apply.c): read and check the file into a struct
 * apply_plan, then pin and prio the kthreads as it says.
 *
 * Used by apply (src/cmd_apply.c) and by offload and deoffload
 * (src/cmd_offload.c), which re-pin the kthreads after a change; apply's
 * offload step (src/nocbs.c) takes the file's offload list from it.
 */
#ifndef NOCB_CONF_APPLY_H
#define NOCB_CONF_APPLY_H

#include "act.h"
#include "config.h"
#include "ctx.h"
#include "json.h"
#include "sysfs.h"

#define NOCB_DEFAULT_CONFIG "/etc/nocbctl.conf"

/* What a configuration file asks of the offload kthreads. */
struct apply_plan {
	char path[4096];	/* root-prefixed unless given */
	bool loaded;		/* false: optional default file absent */
	struct nocb_config cfg;
	struct pin_target pin;	/* points into cfg */
	struct prio_target prio;
	bool sets_pin, sets_prio;
	bool sets_offload;	/* the file has an offload line */
	int nbits;
};

/*
 * Read and check cfg_arg, or NOCB_DEFAULT_CONFIG under --root when NULL
 * (with optional, its absence is fine: p->loaded stays false). Lists are
 * narrowed to online CPUs, with a note. Returns 0 or the exit code after
 * printing the error (verb prefixes it). p must not be copied.
 */
int apply_load(struct nocb_ctx *ctx, const char *verb, const char *cfg_arg,
	       bool optional, const struct cpu_state *cs,
	       struct apply_plan *p);
/* nocb_may_act() if p changes anything, else 0. */
int apply_may_act(struct nocb_ctx *ctx, const char *verb,
		  const struct apply_plan *p, bool dry_run);
/*
 * Pin, then prio, as p says. With j, the caller has opened an object:
 * this adds "config", "pin" and "prio" (null for what p does not set).
 * Returns an exit code: 1 if a thread failed or /proc could not be read.
 */
int apply_threads(struct nocb_ctx *ctx, const char *verb,
		  const struct apply_plan *p, bool dry_run, struct json *j);

#endif
