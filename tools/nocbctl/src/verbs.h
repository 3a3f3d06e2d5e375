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

#include "ctx.h"
#include "cpulist.h"
#include "json.h"
#include "sysfs.h"

int cmd_status(struct nocb_ctx *ctx, int argc, char **argv);
int cmd_stats(struct nocb_ctx *ctx, int argc, char **argv);
int cmd_pin(struct nocb_ctx *ctx, int argc, char **argv);
int cmd_prio(struct nocb_ctx *ctx, int argc, char **argv);
int cmd_apply(struct nocb_ctx *ctx, int argc, char **argv);
int cmd_hotplug_check(struct nocb_ctx *ctx, int argc, char **argv);
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

#endif
