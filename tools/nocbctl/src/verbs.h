/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verbs.h - one function per nocbctl command (src/cmd_*.c), called by
 * main.c, and what every verb needs: its options (src/opts.c).
 *
 * Each cmd_* gets argv starting at the verb name and returns an exit
 * code (enum nocb_exit).
 */
#ifndef NOCB_VERBS_H
#define NOCB_VERBS_H

#include "config.h"
#include "ctx.h"
#include "cpulist.h"
#include "json.h"
#include "sysfs.h"
#include "act.h"
#include "conf_apply.h"

int cmd_status(struct nocb_ctx *ctx, int argc, char **argv);
int cmd_stats(struct nocb_ctx *ctx, int argc, char **argv);
int cmd_pin(struct nocb_ctx *ctx, int argc, char **argv);
int cmd_prio(struct nocb_ctx *ctx, int argc, char **argv);
int cmd_apply(struct nocb_ctx *ctx, int argc, char **argv);
int cmd_hotplug(struct nocb_ctx *ctx, int argc, char **argv);
int cmd_offload(struct nocb_ctx *ctx, int argc, char **argv);
int cmd_deoffload(struct nocb_ctx *ctx, int argc, char **argv);
int cmd_plan(struct nocb_ctx *ctx, int argc, char **argv);

/* Every option a verb may take (src/opts.c holds names and letters). */
enum verb_opt {
	OPT_JSON,	/* -j, also a global option; every verb takes it */
	OPT_HELP,	/* -h; every verb takes it */
	OPT_CPUS,	/* -c */
	OPT_DRY_RUN,	/* -n */
	OPT_WATCH,	/* -w */
	OPT_COUNT,	/* long only */
	OPT_POLICY,	/* -p */
	OPT_PRIORITY,	/* -P */
	OPT_NICE,	/* -N */
	OPT_CONFIG,	/* -C */
	OPT_FORCE,	/* -f */
	OPT_FORMAT,	/* long only */
	OPT_ISOLATE,	/* long only (plan) */
	OPT_HOUSEKEEPING,	/* long only (plan) */
	OPT_CHECK,	/* long only (plan) */
	OPT_POLL,	/* long only (plan) */
	OPT_ALLOW_SMT_SPLIT,	/* long only (plan) */
	OPT_OUTPUT,	/* -o */
	OPT_NO_OFFLOAD,	/* long only (apply) */
	OPT_N,
};
#define OPT(o) (1u << (o))

struct verb_args {
	bool set[OPT_N];	/* option given */
	const char *arg[OPT_N];	/* its argument (the last one given) */
	int nargs;		/* operands */
	char **args;
};

#define VERB_PARSED (-1)

/*
 * Parse a verb's argv (argv[0] is the verb) taking the options in mask,
 * --json and --help. Returns VERB_PARSED to go on, or the exit code after
 * printing the help (0) or a one-line usage error (2).
 */
int verb_parse(struct nocb_ctx *ctx, const char *verb, unsigned mask,
	       void (*help)(FILE *), int argc, char **argv,
	       struct verb_args *a);

struct option;
/*
 * Print the usage error for getopt_long()'s '?' or ':' (c) on lo, naming
 * the option; verb NULL for the global options.
 */
void opt_error(const struct nocb_ctx *ctx, const char *verb,
	       const struct option *lo, int c, char **argv);

/*
 * How nocbctl changes the no-CBs CPUs (src/cmd_offload.c): offload adds
 * LIST to them, deoffload removes it, apply makes them exactly the
 * file's offload list. One code path: the set is checked (K3), then
 * written whole, once, under an flock(2) held to the end of the re-pin.
 */
enum nocbs_mode { NOCBS_ADD, NOCBS_REMOVE, NOCBS_SET };

struct nocbs_change {
	struct nocb_ctx *ctx;
	const char *verb;		/* prefix of every error */
	enum nocbs_mode mode;
	bool dry_run;
	bool force;			/* --force: past the placement rule */
	const char *arg;		/* LIST as given */
	const struct cpu_state *cs;
	struct cpulist list, before, after;
	bool known;			/* before is the kernel's view */
	const char *source;		/* where before comes from */
	bool changed, written;
	int fd;				/* RCU_NOCBS_PATH, locked; -1 */
	int rc;				/* NOCBS_SET: the step failed (exit code) */
	char path[4096];		/* root-prefixed RCU_NOCBS_PATH */
	char what[4200];		/* NOCBS_SET: "apply: FILE:LINE: offload" */
};

/*
 * apply's offload step, before anything is printed or changed: lock
 * rcu_nocbs, read it, check the new set (K3) and the write access. A
 * missing privilege returns 4 (nothing may change then); a kernel that
 * cannot take the set (no K6 and not already so, K3) is said on ctx->err
 * and left in c->rc, for apply to pin all the same. c->fd is -1 or open:
 * offload_step_end() closes it.
 */
int offload_step_begin(struct nocbs_change *c, struct nocb_ctx *ctx,
		       const struct apply_plan *p, const struct cpu_state *cs,
		       bool dry_run);
/*
 * Write the set (unless dry run or c->rc) and report it: text, or with
 * j the value of the caller's "offload" key. Returns c->rc.
 */
int offload_step_run(struct nocbs_change *c, struct json *j);
/* Release the lock: after the re-pin. */
void offload_step_end(struct nocbs_change *c);

#endif
