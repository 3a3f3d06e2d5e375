// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_apply.c - "nocbctl apply": the no-CBs CPUs (offload, src/nocbs.c),
 * then pin + prio from /etc/nocbctl.conf (src/conf_apply.c).
 */
#define _GNU_SOURCE
#include "verbs.h"
#include "act.h"
#include "conf_apply.h"
#include "nocbs.h"
#include "proc.h"

#include <sched.h>

static void apply_help(FILE *f)
{
	fputs("\nUsage:\n"
	      " nocbctl apply [--config=FILE] [--dry-run] [--no-offload] [--force]\n"
	      "\nApply the configuration file (default " NOCB_DEFAULT_CONFIG "):\n"
	      "first make the no-CBs CPUs its offload list, as offload and\n"
	      "deoffload do (if it has one), then pin and set the scheduling of\n"
	      "every offload kthread. The whole file is checked first; on any\n"
	      "error in it, or a missing privilege, nothing is changed. When the\n"
	      "kernel cannot take the offload list, the kthreads are still\n"
	      "pinned and apply exits with the offload step's status.\n"
	      "\nOptions:\n"
	      " -C, --config=FILE   configuration file (not prefixed by --root)\n"
	      " -n, --dry-run       show what would change, change nothing\n"
	      "     --no-offload    leave the no-CBs CPUs alone: pin and prio only\n"
	      " -f, --force         apply even what puts offload kthreads on\n"
	      "                     offloaded, isolated or nohz_full CPUs, or\n"
	      "                     de-offloads a nohz_full CPU\n"
	      " -h, --help          display this help\n"
	      "\nA file whose result would put an offload kthread on an offloaded,\n"
	      "isolated or nohz_full CPU, give one there a real-time policy, or\n"
	      "de-offload a nohz_full CPU is refused (exit 2), nothing changed.\n"
	      "\nExit status: 0 ok, 1 a thread failed or the offload list was\n"
	      "refused (no online normal CPU left), 2 bad file or placement, 3\n"
	      "the kernel cannot change no-CBs CPUs at run time (no runtime\n"
	      "offload, or booted without rcu_nocbs), 4 missing\n"
	      "CAP_SYS_NICE or write access to rcu_nocbs.\n"
	      "\nFor more details see nocbctl(8).\n", f);
}

int cmd_apply(struct nocb_ctx *ctx, int argc, char **argv)
{
	struct nocbs_change st;
	struct verb_args a;
	struct cpu_state cs;
	struct apply_plan p;
	struct json j;
	bool dry_run, offload;
	char what[4100];
	int r, ro = 0;

	r = verb_parse(ctx, "apply",
		       OPT(OPT_CONFIG) | OPT(OPT_DRY_RUN) | OPT(OPT_NO_OFFLOAD) |
		       OPT(OPT_FORCE), apply_help, argc, argv, &a);
	if (r != VERB_PARSED)
		return r;
	if (a.nargs) {
		nocb_err(ctx, "apply", "unexpected argument '%s'", a.args[0]);
		return NOCB_EXIT_USAGE;
	}
	dry_run = a.set[OPT_DRY_RUN];
	if (sysfs_read_cpus(ctx, "apply", &cs))
		return NOCB_EXIT_FAIL;
	r = apply_load(ctx, "apply", a.arg[OPT_CONFIG], false, &cs, &p);
	offload = p.sets_offload && !a.set[OPT_NO_OFFLOAD];
	if (!r && p.loaded) {
		snprintf(what, sizeof(what), "%.4000s: cpus", p.path);
		r = act_check_rule(ctx, &(struct rule_req){ .verb = "apply",
				   .cs = &cs, .after = offload ? &p.cfg.offload : NULL,
				   .pin = p.sets_pin ? &p.pin : NULL,
				   .pin_what = what, .kinds = KT_ALL,
				   .realtime = p.sets_prio && p.prio.policy != SCHED_OTHER,
				   .force = a.set[OPT_FORCE] });
	}
	if (!r)
		r = apply_may_act(ctx, "apply", &p, dry_run);
	if (r)
		return r;
	/* first the no-CBs CPUs, so that the re-pin finds new kthreads too */
	if (offload) {
		r = offload_step_begin(&st, ctx, &p, &cs, dry_run);
		if (r) {
			offload_step_end(&st);
			return r;
		}
	}
	if (ctx->json) {
		json_init(&j, ctx->out);
		json_obj_begin(&j);
		json_kstr(&j, "command", "apply");
		json_kbool(&j, "dry_run", dry_run);
		json_key(&j, "offload");
		if (!offload)
			json_null(&j);
	}
	if (offload)
		ro = offload_step_run(&st, ctx->json ? &j : NULL);
	r = apply_threads(ctx, "apply", &p, dry_run, ctx->json ? &j : NULL);
	if (offload)
		offload_step_end(&st);
	if (ctx->json) {
		json_obj_end(&j);
		json_end(&j);
	}
	/* the offload step's failure first: it came first */
	return ro ? ro : r;
}
