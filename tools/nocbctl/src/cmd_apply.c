// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_apply.c - "nocbctl apply": the no-CBs CPUs (offload), then pin +
 * prio from /etc/nocbctl.conf; the same pin + prio steps re-pin the
 * kthreads after offload/deoffload (verbs.h).
 */
#define _GNU_SOURCE
#include "verbs.h"
#include "act.h"
#include "proc.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

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
	      "refused (K3), 2 bad file, 3 the kernel cannot change no-CBs CPUs\n"
	      "at run time (no K6, or booted without rcu_nocbs), 4 missing\n"
	      "CAP_SYS_NICE or write access to rcu_nocbs.\n"
	      "\nFor more details see nocbctl(8).\n", f);
}

static void cfg_err(struct nocb_ctx *ctx, const char *file, int line,
		    const char *why)
{
	fprintf(ctx->err, "nocbctl: %s:%d: %s\n", file, line, why);
}

/* Every list possible, some CPU of each online; notes for the others. */
static int check_lists(struct nocb_ctx *ctx, struct apply_plan *p,
		       const struct cpu_state *cs)
{
	static const enum cfg_key keys[] = { CFG_CPUS, CFG_RCUOG_CPUS,
					     CFG_RCUOP_CPUS };
	struct cpulist *sets[] = { &p->cfg.cpus, &p->cfg.rcuog_cpus,
				   &p->cfg.rcuop_cpus };
	struct cpulist dropped[3];
	char why[400], err[512];

	/* all lists are checked before any note or change */
	for (int i = 0; i < 3; i++) {
		if (!p->cfg.line[keys[i]])
			continue;
		if (sysfs_usable_cpus(cs, sets[i], &dropped[i], why,
				      sizeof(why))) {
			snprintf(err, sizeof(err), "%s: %s",
				 config_key_name(keys[i]), why);
			cfg_err(ctx, p->path, p->cfg.line[keys[i]], err);
			return NOCB_EXIT_USAGE;
		}
	}
	for (int i = 0; i < 3; i++) {
		char what[4200];

		if (!p->cfg.line[keys[i]] || cpulist_empty(&dropped[i]))
			continue;
		snprintf(what, sizeof(what), "%s:%d: %s", p->path,
			 p->cfg.line[keys[i]], config_key_name(keys[i]));
		sysfs_note_dropped(ctx, what, &dropped[i], sets[i]);
	}
	return 0;
}

/*
 * The offload list: possible CPUs (the parser knows only their count) and,
 * as the kernel switches no other, present ones. CPU 0 is the parser's.
 */
static int check_offload(struct nocb_ctx *ctx, const struct apply_plan *p,
			 const struct cpu_state *cs)
{
	const struct cpulist *l = &p->cfg.offload;
	struct cpulist bad;
	char why[400], err[512];
	char *b, *in;

	if (!p->cfg.line[CFG_OFFLOAD] || cpulist_empty(l))
		return 0;
	if (cpulist_validate(l, &cs->possible, NULL, why, sizeof(why))) {
		snprintf(err, sizeof(err), "offload: %s", why);
		cfg_err(ctx, p->path, p->cfg.line[CFG_OFFLOAD], err);
		return NOCB_EXIT_USAGE;
	}
	if (!cs->have_present)
		return 0;
	cpulist_andnot(&bad, l, &cs->present);
	if (cpulist_empty(&bad))
		return 0;
	b = cpulist_format_alloc(&bad);
	in = cpulist_format_alloc(&cs->present);
	fprintf(ctx->err, "nocbctl: %s:%d: offload: CPU %s not present (present: %s)\n",
		p->path, p->cfg.line[CFG_OFFLOAD], b ? b : "?", in ? in : "?");
	free(b);
	free(in);
	return NOCB_EXIT_USAGE;
}

int apply_load(struct nocb_ctx *ctx, const char *verb, const char *cfg_arg,
	       bool optional, const struct cpu_state *cs,
	       struct apply_plan *p)
{
	const struct nocb_config *c = &p->cfg;
	char err[512];
	char *buf;
	size_t len;
	int r, line;

	memset(p, 0, sizeof(*p));
	p->nbits = cs->nbits;
	if (cfg_arg) {
		if (strlen(cfg_arg) >= sizeof(p->path)) {
			nocb_err(ctx, verb, "config path too long");
			return NOCB_EXIT_USAGE;
		}
		strcpy(p->path, cfg_arg);
	} else if (nocb_path(ctx, p->path, sizeof(p->path),
			     NOCB_DEFAULT_CONFIG)) {
		nocb_err(ctx, verb, "config path too long");
		return NOCB_EXIT_USAGE;
	}
	r = nocb_read_file(p->path, &buf, &len);
	if (r == -ENOENT && optional && !cfg_arg)
		return 0;	/* p->loaded false */
	if (r) {
		nocb_err(ctx, verb, "%s: %s", p->path, strerror(-r));
		return NOCB_EXIT_USAGE;
	}
	r = config_parse(buf, len, cs->nbits, &p->cfg, &line, err,
			 sizeof(err));
	free(buf);
	if (r) {
		cfg_err(ctx, p->path, line, err);
		return NOCB_EXIT_USAGE;
	}
	r = check_lists(ctx, p, cs);
	if (!r)
		r = check_offload(ctx, p, cs);
	if (r)
		return r;
	p->loaded = true;
	p->sets_offload = c->line[CFG_OFFLOAD] != 0;
	p->pin.rcuog = c->line[CFG_RCUOG_CPUS] ? &c->rcuog_cpus :
		       c->line[CFG_CPUS] ? &c->cpus : NULL;
	p->pin.rcuop = c->line[CFG_RCUOP_CPUS] ? &c->rcuop_cpus :
		       c->line[CFG_CPUS] ? &c->cpus : NULL;
	p->sets_pin = p->pin.rcuog || p->pin.rcuop;
	p->sets_prio = c->line[CFG_POLICY] != 0;
	p->prio.policy = c->policy;
	p->prio.priority = c->line[CFG_PRIORITY] ? c->priority : 0;
	p->prio.set_nice = c->line[CFG_NICE] != 0;
	p->prio.nice = c->nice;
	return 0;
}

int apply_may_act(struct nocb_ctx *ctx, const char *verb,
		  const struct apply_plan *p, bool dry_run)
{
	if (!p->sets_pin && !p->sets_prio)
		return 0;
	return nocb_may_act(ctx, verb, dry_run);
}

int apply_threads(struct nocb_ctx *ctx, const char *verb,
		  const struct apply_plan *p, bool dry_run, struct json *j)
{
	struct act_result pres = { 0 }, qres = { 0 };
	char what[64];
	int r = 0;

	if (j) {
		json_key(j, "config");
		json_str(j, p->loaded ? p->path : NULL);
		json_key(j, "pin");
	}
	if (!p->loaded || (!p->sets_pin && !p->sets_prio)) {
		if (j) {
			json_null(j);
			json_key(j, "prio");
			json_null(j);
		} else if (!p->loaded) {
			fprintf(ctx->out, "%s: no %s: offload kthreads left as they are\n",
				verb, p->path);
		} else if (p->sets_offload) {
			fprintf(ctx->out, "%s: %s sets no pin or prio: offload kthreads left as they are\n",
				verb, p->path);
		} else {
			fprintf(ctx->out, "%s: %s sets nothing\n", verb,
				p->path);
		}
		return NOCB_EXIT_OK;
	}
	if (p->sets_pin) {
		unsigned kinds = (p->pin.rcuog ? KT_RCUOG : 0) |
				 (p->pin.rcuop ? KT_ALL & ~KT_RCUOG : 0);

		snprintf(what, sizeof(what), "%s: pin", verb);
		if (j)
			json_obj_begin(j);
		r = act_run(ctx, &(struct act_req){ .what = what,
			    .label = "pin", .kinds = kinds, .pin = &p->pin,
			    .dry_run = dry_run, .nbits = p->nbits }, j, &pres);
		if (j)
			json_obj_end(j);
	} else if (j) {
		json_null(j);
	}
	if (j)
		json_key(j, "prio");
	if (!r && p->sets_prio) {
		snprintf(what, sizeof(what), "%s: prio", verb);
		if (j) {
			json_obj_begin(j);
			json_kstr(j, "policy", sched_policy_name(p->prio.policy));
			json_kint(j, "priority", p->prio.priority);
		}
		r = act_run(ctx, &(struct act_req){ .what = what,
			    .label = "prio", .kinds = KT_ALL, .prio = &p->prio,
			    .dry_run = dry_run, .nbits = p->nbits }, j, &qres);
		if (j)
			json_obj_end(j);
	} else if (j) {
		json_null(j);
	}
	if (r)
		return NOCB_EXIT_FAIL;
	return (pres.failed || qres.failed) ? NOCB_EXIT_FAIL : NOCB_EXIT_OK;
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
