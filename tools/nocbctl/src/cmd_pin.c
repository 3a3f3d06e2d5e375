// SPDX-License-Identifier: GPL-2.0
/* cmd_pin.c - "nocbctl pin": set allowed CPUs of offload kthreads. */
#define _GNU_SOURCE
#include "verbs.h"
#include "act.h"
#include "proc.h"
#include "sysfs.h"

#include <stdlib.h>
#include <string.h>

static void pin_help(FILE *f)
{
	fputs("\nUsage:\n"
	      " nocbctl pin rcuo|rcuog|rcuop --cpus=LIST [--dry-run] [--force]\n"
	      "\nSet the allowed CPUs of the RCU callback-offload kthreads\n"
	      "(rcuo: rcuog/N and rcuop/N; rcuog or rcuop: one kind).\n"
	      "\nOptions:\n"
	      " -c, --cpus=LIST   CPUs the kthreads may run on, kernel cpulist\n"
	      "                   syntax (0-3,5,8-15:1/2); must be possible, and\n"
	      "                   those online are used (at least one)\n"
	      " -n, --dry-run     show what would change, change nothing\n"
	      " -f, --force       pin even onto offloaded, isolated or\n"
	      "                   nohz_full CPUs\n"
	      " -h, --help        display this help\n"
	      "\nA LIST with an offloaded, isolated (isolcpus=, cpuset partition)\n"
	      "or nohz_full CPU is refused: the kthreads would bring the callback\n"
	      "work back onto the CPUs it was taken off.\n"
	      "\nEach thread is reported as changed, unchanged, would change,\n"
	      "vanished or failed. Exit status: 0 ok, 1 a thread failed, 2 bad\n"
	      "input, 4 missing CAP_SYS_NICE.\n"
	      "\nFor more details see nocbctl(8).\n", f);
}

int cmd_pin(struct nocb_ctx *ctx, int argc, char **argv)
{
	struct verb_args a;
	const char *cpus_arg;
	bool dry_run;
	unsigned kinds;
	struct cpu_state cs;
	struct cpulist cpus, dropped;
	struct pin_target t;
	struct act_result res;
	struct json j;
	char err[512], what[256];
	int r;

	r = verb_parse(ctx, "pin",
		       OPT(OPT_CPUS) | OPT(OPT_DRY_RUN) | OPT(OPT_FORCE),
		       pin_help, argc, argv, &a);
	if (r != VERB_PARSED)
		return r;
	if (a.nargs != 1) {
		nocb_err(ctx, "pin",
			 "expected one of rcuo, rcuog, rcuop (see nocbctl pin --help)");
		return NOCB_EXIT_USAGE;
	}
	kinds = kt_select(a.args[0]);
	if (!kinds) {
		nocb_err(ctx, "pin", "'%s': expected rcuo, rcuog or rcuop",
			 a.args[0]);
		return NOCB_EXIT_USAGE;
	}
	cpus_arg = a.arg[OPT_CPUS];
	dry_run = a.set[OPT_DRY_RUN];
	if (!cpus_arg) {
		nocb_err(ctx, "pin", "--cpus=LIST is required");
		return NOCB_EXIT_USAGE;
	}
	if (sysfs_read_cpus(ctx, "pin", &cs))
		return NOCB_EXIT_FAIL;
	if (cpulist_parse_arg(cpus_arg, cs.nbits, &cpus, err, sizeof(err)) ||
	    sysfs_usable_cpus(&cs, &cpus, &dropped, err, sizeof(err))) {
		nocb_err(ctx, "pin", "--cpus=%s: %s", cpus_arg, err);
		return NOCB_EXIT_USAGE;
	}
	if (!cpulist_empty(&dropped))
		sysfs_note_dropped(ctx, "pin: --cpus", &dropped, &cpus);
	snprintf(what, sizeof(what), "--cpus=%.200s", cpus_arg);
	r = act_check_rule(ctx, &(struct rule_req){ .verb = "pin", .cs = &cs,
			   .pin = &(struct pin_target){ &cpus, &cpus },
			   .pin_what = what, .kinds = kinds,
			   .force = a.set[OPT_FORCE] });
	if (!r)
		r = nocb_may_act(ctx, "pin", dry_run);
	if (r)
		return r;
	t.rcuog = &cpus;
	t.rcuop = &cpus;
	if (ctx->json) {
		char *list = cpulist_format_alloc(&cpus);

		if (!list) {
			nocb_err(ctx, "pin", "out of memory");
			return NOCB_EXIT_FAIL;
		}
		json_init(&j, ctx->out);
		json_obj_begin(&j);
		json_kstr(&j, "command", "pin");
		json_kbool(&j, "dry_run", dry_run);
		json_kstr(&j, "cpus", list);
		free(list);
	}
	r = act_run(ctx, &(struct act_req){ .what = "pin", .label = "pin",
		    .kinds = kinds, .pin = &t, .dry_run = dry_run,
		    .nbits = cs.nbits }, ctx->json ? &j : NULL, &res);
	if (ctx->json) {
		json_obj_end(&j);
		json_end(&j);
	}
	return r ? NOCB_EXIT_FAIL : act_exit(&res);
}
