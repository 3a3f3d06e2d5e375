// SPDX-License-Identifier: GPL-2.0
/* cmd_prio.c - "nocbctl prio": set scheduling of offload kthreads. */
#define _GNU_SOURCE
#include "verbs.h"
#include "act.h"
#include "proc.h"
#include "sysfs.h"

#include <sched.h>
#include <string.h>

static void prio_help(FILE *f)
{
	fputs("\nUsage:\n"
	      " nocbctl prio rcuo|rcuog|rcuop --policy=fifo|rr|other\n"
	      "              [--priority=N] [--nice=N] [--dry-run] [--force]\n"
	      "\nSet the scheduling policy of the RCU callback-offload kthreads.\n"
	      "\nOptions:\n"
	      " -p, --policy=POLICY   fifo, rr or other\n"
	      " -P, --priority=N      real-time priority 1-99 (fifo, rr; required)\n"
	      " -N, --nice=N          nice value -20..19 (other only)\n"
	      " -n, --dry-run         show what would change, change nothing\n"
	      " -f, --force           make real-time even kthreads allowed on\n"
	      "                       offloaded, isolated or nohz_full CPUs\n"
	      " -h, --help            display this help\n"
	      "\nfifo and rr are refused while a kthread may run on an offloaded,\n"
	      "isolated or nohz_full CPU: it would preempt the work there. Pin\n"
	      "first.\n"
	      "\nExit status: 0 ok, 1 a thread failed, 2 bad input, 4 missing\n"
	      "CAP_SYS_NICE.\n"
	      "\nFor more details see nocbctl(8).\n", f);
}

int cmd_prio(struct nocb_ctx *ctx, int argc, char **argv)
{
	struct verb_args a;
	const char *policy_arg, *prio_arg, *nice_arg;
	bool dry_run;
	unsigned kinds;
	struct cpu_state cs;
	struct prio_target t = { 0 };
	struct act_result res;
	struct json j;
	int r;

	r = verb_parse(ctx, "prio", OPT(OPT_POLICY) | OPT(OPT_PRIORITY) |
		       OPT(OPT_NICE) | OPT(OPT_DRY_RUN) | OPT(OPT_FORCE),
		       prio_help, argc, argv, &a);
	if (r != VERB_PARSED)
		return r;
	if (a.nargs != 1) {
		nocb_err(ctx, "prio",
			 "expected one of rcuo, rcuog, rcuop (see nocbctl prio --help)");
		return NOCB_EXIT_USAGE;
	}
	kinds = kt_select(a.args[0]);
	if (!kinds) {
		nocb_err(ctx, "prio", "'%s': expected rcuo, rcuog or rcuop",
			 a.args[0]);
		return NOCB_EXIT_USAGE;
	}
	policy_arg = a.arg[OPT_POLICY];
	prio_arg = a.arg[OPT_PRIORITY];
	nice_arg = a.arg[OPT_NICE];
	dry_run = a.set[OPT_DRY_RUN];
	if (!policy_arg) {
		nocb_err(ctx, "prio", "--policy=fifo|rr|other is required");
		return NOCB_EXIT_USAGE;
	}
	t.policy = sched_policy_parse(policy_arg);
	if (t.policy < 0) {
		nocb_err(ctx, "prio", "--policy=%s: expected fifo, rr or other",
			 policy_arg);
		return NOCB_EXIT_USAGE;
	}
	if (t.policy == SCHED_OTHER) {
		if (prio_arg && (nocb_parse_int(prio_arg, 0, 0, &t.priority))) {
			nocb_err(ctx, "prio",
				 "--priority=%s: must be 0 or absent for policy other",
				 prio_arg);
			return NOCB_EXIT_USAGE;
		}
		if (nice_arg) {
			if (nocb_parse_int(nice_arg, -20, 19, &t.nice)) {
				nocb_err(ctx, "prio",
					 "--nice=%s: must be -20..19", nice_arg);
				return NOCB_EXIT_USAGE;
			}
			t.set_nice = true;
		}
	} else {
		if (!prio_arg) {
			nocb_err(ctx, "prio", "--policy=%s needs --priority=1..99",
				 policy_arg);
			return NOCB_EXIT_USAGE;
		}
		if (nocb_parse_int(prio_arg, 1, 99, &t.priority)) {
			nocb_err(ctx, "prio", "--priority=%s: must be 1..99",
				 prio_arg);
			return NOCB_EXIT_USAGE;
		}
		if (nice_arg) {
			nocb_err(ctx, "prio", "--nice is only for --policy=other");
			return NOCB_EXIT_USAGE;
		}
	}
	if (sysfs_read_cpus(ctx, "prio", &cs))
		return NOCB_EXIT_FAIL;
	r = 0;
	if (t.policy != SCHED_OTHER)
		r = act_check_rule(ctx, &(struct rule_req){ .verb = "prio",
				   .cs = &cs, .kinds = kinds, .realtime = true,
				   .force = a.set[OPT_FORCE] });
	if (!r)
		r = nocb_may_act(ctx, "prio", dry_run);
	if (r)
		return r;
	if (ctx->json) {
		json_init(&j, ctx->out);
		json_obj_begin(&j);
		json_kstr(&j, "command", "prio");
		json_kbool(&j, "dry_run", dry_run);
		json_kstr(&j, "policy", sched_policy_name(t.policy));
		json_kint(&j, "priority", t.priority);
		json_key(&j, "nice");
		if (t.set_nice)
			json_int(&j, t.nice);
		else
			json_null(&j);
	}
	r = act_run(ctx, &(struct act_req){ .what = "prio", .label = "prio",
		    .kinds = kinds, .prio = &t, .dry_run = dry_run,
		    .nbits = cs.nbits }, ctx->json ? &j : NULL, &res);
	if (ctx->json) {
		json_obj_end(&j);
		json_end(&j);
	}
	return r ? NOCB_EXIT_FAIL : act_exit(&res);
}
