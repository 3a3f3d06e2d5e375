// SPDX-License-Identifier: GPL-2.0
/*
 * conf_apply.c - read and check /etc/nocbctl.conf into a struct
 * apply_plan, and pin + prio the offload kthreads as it says (see
 * conf_apply.h): apply's last steps, and offload's and deoffload's
 * re-pin after a change.
 */
#define _GNU_SOURCE
#include "conf_apply.h"
#include "proc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
