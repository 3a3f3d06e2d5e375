// SPDX-License-Identifier: GPL-2.0
/* cmd_pin.c - "nocbctl pin": set allowed CPUs of offload kthreads. */
#define _GNU_SOURCE
#include "verbs.h"
#include "proc.h"
#include "sysfs.h"

#include <getopt.h>
#include <linux/capability.h>
#include <string.h>

static void pin_help(FILE *f)
{
	fputs("\nUsage:\n"
	      " nocbctl pin rcuo|rcuog|rcuop --cpus=LIST [--dry-run]\n"
	      "\nSet the allowed CPUs of the RCU callback-offload kthreads\n"
	      "(rcuo: rcuog/N and rcuop/N; rcuog or rcuop: one kind).\n"
	      "\nOptions:\n"
	      " -c, --cpus=LIST   CPUs the kthreads may run on, kernel cpulist\n"
	      "                   syntax (0-3,5,8-15:2); must be possible and online\n"
	      " -n, --dry-run     show what would change, change nothing\n"
	      " -h, --help        display this help\n"
	      "\nEach thread is reported as changed, unchanged, would change,\n"
	      "vanished or failed. Exit status: 0 ok, 1 a thread failed, 2 bad\n"
	      "input, 4 missing CAP_SYS_NICE.\n"
	      "\nFor more details see nocbctl(8).\n", f);
}

int cmd_pin(struct nocb_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cpus_arg = NULL;
	bool dry_run = false;
	unsigned kinds;
	struct cpu_state cs;
	struct cpulist cpus;
	struct pin_target t;
	struct act_result res;
	struct json j;
	char err[512];
	int c, r;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "c:nh", opts, NULL)) != -1) {
		switch (c) {
		case 'c': cpus_arg = optarg; break;
		case 'n': dry_run = true; break;
		case 'h': pin_help(ctx->out); return NOCB_EXIT_OK;
		default:
			nocb_err(ctx, "pin", "bad option '%s' (see nocbctl pin --help)",
				 argv[optind - 1]);
			return NOCB_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		nocb_err(ctx, "pin",
			 "expected one of rcuo, rcuog, rcuop (see nocbctl pin --help)");
		return NOCB_EXIT_USAGE;
	}
	kinds = kt_select(argv[optind]);
	if (!kinds) {
		nocb_err(ctx, "pin", "'%s': expected rcuo, rcuog or rcuop",
			 argv[optind]);
		return NOCB_EXIT_USAGE;
	}
	if (!cpus_arg) {
		nocb_err(ctx, "pin", "--cpus=LIST is required");
		return NOCB_EXIT_USAGE;
	}
	if (sysfs_read_cpus(ctx, "pin", &cs))
		return NOCB_EXIT_FAIL;
	if (cpulist_parse_str(cpus_arg, cs.nbits, &cpus, err, sizeof(err)) ||
	    cpulist_validate(&cpus, &cs.possible, &cs.online, err,
			     sizeof(err))) {
		nocb_err(ctx, "pin", "--cpus=%s: %s", cpus_arg, err);
		return NOCB_EXIT_USAGE;
	}
	r = nocb_require_cap(ctx, "pin", CAP_SYS_NICE, "CAP_SYS_NICE");
	if (r)
		return r;
	t.rcuog = &cpus;
	t.rcuop = &cpus;
	if (ctx->json) {
		json_init(&j, ctx->out);
		json_obj_begin(&j);
		json_kstr(&j, "command", "pin");
		json_kbool(&j, "dry_run", dry_run);
		cpulist_format(&cpus, err, sizeof(err));
		json_kstr(&j, "cpus", err);
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
