// SPDX-License-Identifier: GPL-2.0
/* cmd_apply.c - "nocbctl apply": pin + prio from /etc/nocbctl.conf. */
#define _GNU_SOURCE
#include "verbs.h"
#include "config.h"
#include "proc.h"
#include "sysfs.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_CONFIG "/etc/nocbctl.conf"

static void apply_help(FILE *f)
{
	fputs("\nUsage:\n"
	      " nocbctl apply [--config=FILE] [--dry-run]\n"
	      "\nApply the configuration file (default " DEFAULT_CONFIG "):\n"
	      "pin and set the scheduling of every offload kthread. The whole\n"
	      "file is checked first; on any error nothing is changed.\n"
	      "\nOptions:\n"
	      " -C, --config=FILE   configuration file (not prefixed by --root)\n"
	      " -n, --dry-run       show what would change, change nothing\n"
	      " -h, --help          display this help\n"
	      "\nExit status: 0 ok, 1 a thread failed, 2 bad file, 4 missing\n"
	      "CAP_SYS_NICE.\n"
	      "\nFor more details see nocbctl(8).\n", f);
}

static void cfg_err(struct nocb_ctx *ctx, const char *file, int line,
		    const char *why)
{
	fprintf(ctx->err, "nocbctl: %s:%d: %s\n", file, line, why);
}

int cmd_apply(struct nocb_ctx *ctx, int argc, char **argv)
{
	struct verb_args a;
	char path[4096], err[512];
	const char *cfg_arg;
	bool dry_run;
	struct nocb_config cfg;
	struct cpu_state cs;
	struct pin_target pt;
	struct prio_target qt;
	struct act_result pres = { 0 }, qres = { 0 };
	struct json j;
	char *buf;
	size_t len;
	int r, line;

	r = verb_parse(ctx, "apply", OPT(OPT_CONFIG) | OPT(OPT_DRY_RUN),
		       apply_help, argc, argv, &a);
	if (r != VERB_PARSED)
		return r;
	if (a.nargs) {
		nocb_err(ctx, "apply", "unexpected argument '%s'", a.args[0]);
		return NOCB_EXIT_USAGE;
	}
	cfg_arg = a.arg[OPT_CONFIG];
	dry_run = a.set[OPT_DRY_RUN];
	if (cfg_arg) {
		if (strlen(cfg_arg) >= sizeof(path)) {
			nocb_err(ctx, "apply", "config path too long");
			return NOCB_EXIT_USAGE;
		}
		strcpy(path, cfg_arg);
	} else if (nocb_path(ctx, path, sizeof(path), DEFAULT_CONFIG)) {
		nocb_err(ctx, "apply", "config path too long");
		return NOCB_EXIT_USAGE;
	}
	if (sysfs_read_cpus(ctx, "apply", &cs))
		return NOCB_EXIT_FAIL;
	r = nocb_read_file(path, &buf, &len);
	if (r) {
		nocb_err(ctx, "apply", "%s: %s", path, strerror(-r));
		return NOCB_EXIT_USAGE;
	}
	r = config_parse(buf, len, cs.nbits, &cfg, &line, err, sizeof(err));
	free(buf);
	if (r) {
		cfg_err(ctx, path, line, err);
		return NOCB_EXIT_USAGE;
	}
	{
		static const enum cfg_key keys[] = { CFG_CPUS, CFG_RCUOG_CPUS,
						     CFG_RCUOP_CPUS };
		struct cpulist *sets[] = { &cfg.cpus, &cfg.rcuog_cpus,
					   &cfg.rcuop_cpus };
		struct cpulist dropped[3];
		char why[400];

		/* all lists are checked before any note or change */
		for (int i = 0; i < 3; i++) {
			if (!cfg.line[keys[i]])
				continue;
			if (sysfs_usable_cpus(&cs, sets[i], &dropped[i], why,
					      sizeof(why))) {
				snprintf(err, sizeof(err), "%s: %s",
					 config_key_name(keys[i]), why);
				cfg_err(ctx, path, cfg.line[keys[i]], err);
				return NOCB_EXIT_USAGE;
			}
		}
		for (int i = 0; i < 3; i++) {
			char what[4200];

			if (!cfg.line[keys[i]] || cpulist_empty(&dropped[i]))
				continue;
			snprintf(what, sizeof(what), "%s:%d: %s", path,
				 cfg.line[keys[i]], config_key_name(keys[i]));
			sysfs_note_dropped(ctx, what, &dropped[i], sets[i]);
		}
	}
	pt.rcuog = cfg.line[CFG_RCUOG_CPUS] ? &cfg.rcuog_cpus :
		   cfg.line[CFG_CPUS] ? &cfg.cpus : NULL;
	pt.rcuop = cfg.line[CFG_RCUOP_CPUS] ? &cfg.rcuop_cpus :
		   cfg.line[CFG_CPUS] ? &cfg.cpus : NULL;
	qt.policy = cfg.policy;
	qt.priority = cfg.line[CFG_PRIORITY] ? cfg.priority : 0;
	qt.set_nice = cfg.line[CFG_NICE] != 0;
	qt.nice = cfg.nice;
	if (!pt.rcuog && !pt.rcuop && !cfg.line[CFG_POLICY]) {
		if (ctx->json) {
			json_init(&j, ctx->out);
			json_obj_begin(&j);
			json_kstr(&j, "command", "apply");
			json_kstr(&j, "config", path);
			json_kbool(&j, "dry_run", dry_run);
			json_key(&j, "pin");
			json_null(&j);
			json_key(&j, "prio");
			json_null(&j);
			json_obj_end(&j);
			json_end(&j);
		} else {
			fprintf(ctx->out, "apply: %s sets nothing\n", path);
		}
		return NOCB_EXIT_OK;
	}
	r = nocb_may_act(ctx, "apply", dry_run);
	if (r)
		return r;
	if (ctx->json) {
		json_init(&j, ctx->out);
		json_obj_begin(&j);
		json_kstr(&j, "command", "apply");
		json_kstr(&j, "config", path);
		json_kbool(&j, "dry_run", dry_run);
		json_key(&j, "pin");
	}
	r = 0;
	if (pt.rcuog || pt.rcuop) {
		unsigned kinds = (pt.rcuog ? KT_RCUOG : 0) |
				 (pt.rcuop ? KT_ALL & ~KT_RCUOG : 0);

		if (ctx->json)
			json_obj_begin(&j);
		r = act_run(ctx, &(struct act_req){ .what = "apply: pin",
			    .label = "pin", .kinds = kinds, .pin = &pt,
			    .dry_run = dry_run, .nbits = cs.nbits },
			    ctx->json ? &j : NULL, &pres);
		if (ctx->json)
			json_obj_end(&j);
	} else if (ctx->json) {
		json_null(&j);
	}
	if (ctx->json)
		json_key(&j, "prio");
	if (!r && cfg.line[CFG_POLICY]) {
		if (ctx->json) {
			json_obj_begin(&j);
			json_kstr(&j, "policy", sched_policy_name(qt.policy));
			json_kint(&j, "priority", qt.priority);
		}
		r = act_run(ctx, &(struct act_req){ .what = "apply: prio",
			    .label = "prio", .kinds = KT_ALL, .prio = &qt,
			    .dry_run = dry_run, .nbits = cs.nbits },
			    ctx->json ? &j : NULL, &qres);
		if (ctx->json)
			json_obj_end(&j);
	} else if (ctx->json) {
		json_null(&j);
	}
	if (ctx->json) {
		json_obj_end(&j);
		json_end(&j);
	}
	if (r)
		return NOCB_EXIT_FAIL;
	return (pres.failed || qres.failed) ? NOCB_EXIT_FAIL : NOCB_EXIT_OK;
}
