// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_offload.c - "nocbctl offload LIST" and "nocbctl deoffload LIST":
 * change the no-CBs CPUs of the running kernel (K6, src/nocbs.c), then
 * re-pin the offload kthreads per the configuration (src/conf_apply.c).
 */
#define _GNU_SOURCE
#include "verbs.h"
#include "act.h"
#include "conf_apply.h"
#include "nocbs.h"
#include "proc.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void help(FILE *f, bool offload)
{
	fprintf(f, "\nUsage:\n"
		" nocbctl %s LIST [--dry-run] [--config=FILE] [--force]\n\n",
		offload ? "offload" : "deoffload");
	fputs(offload ?
	      "Make the CPUs of LIST no-CBs CPUs on the running kernel, without\n"
	      "a reboot: their RCU callbacks go to the offload kthreads.\n" :
	      "Make the CPUs of LIST normal CPUs again on the running kernel,\n"
	      "without a reboot: they invoke their own RCU callbacks.\n", f);
	fputs("\nThe whole new set of no-CBs CPUs is checked first and written at\n"
	      "once: every CPU changes or none. Then the offload kthreads are\n"
	      "pinned and prioritised per the configuration file, as apply does.\n"
	      "\nOptions:\n"
	      " -n, --dry-run       show what would change, change nothing\n"
	      " -C, --config=FILE   configuration for the kthreads (default\n"
	      "                     " NOCB_DEFAULT_CONFIG "; without it they are\n"
	      "                     left as they are)\n"
	      " -f, --force         change even what puts an offload kthread on\n"
	      "                     an offloaded, isolated or nohz_full CPU, or\n"
	      "                     de-offloads a nohz_full CPU\n"
	      " -h, --help          display this help\n"
	      "\nRefused (exit 2), nothing changed: a change after which an offload\n"
	      "kthread would be allowed on a CPU it makes offloaded (pin it first,\n"
	      "or set cpus in the configuration file), or that de-offloads a\n"
	      "nohz_full CPU.\n"
	      "\nLIST is in the kernel's cpulist syntax (1-3,5, 8-15:1/2, N).\n"
	      "\nExit status: 0 ok, 1 refused because no online normal CPU would\n"
	      "be left or failed, 2 bad LIST (CPU 0, a CPU that does not\n"
	      "exist), configuration or placement, 3 no run-time offload in this kernel\n"
	      "(or booted without rcu_nocbs), 4 not root.\n"
	      "\nFor more details see nocbctl(8).\n", f);
}

static void offload_help(FILE *f) { help(f, true); }
static void deoffload_help(FILE *f) { help(f, false); }

/* The kernel offloads present CPUs only (EINVAL otherwise). */
static int check_present(const struct nocbs_change *c)
{
	struct cpulist bad;
	char *b, *p;

	cpulist_andnot(&bad, &c->list, &c->cs->present);
	if (cpulist_empty(&bad))
		return 0;
	b = cpulist_format_alloc(&bad);
	p = cpulist_format_alloc(&c->cs->present);
	nocb_err(c->ctx, c->verb, "'%s': CPU %s not present (present: %s)",
		 c->arg, b ? b : "?", p ? p : "?");
	free(b);
	free(p);
	return NOCB_EXIT_USAGE;
}

/* Per CPU, the before -> after line, then the kthreads. */
static int report(const struct nocbs_change *c, const struct apply_plan *p,
		  bool changed)
{
	char *before = cpulist_format_alloc(&c->before);
	char *after = cpulist_format_alloc(&c->after);
	char *list = cpulist_format_alloc(&c->list);
	struct json j;
	int cpu, r = NOCB_EXIT_OK;

	if (!before || !after || !list) {
		nocb_err(c->ctx, c->verb, "out of memory");
		r = NOCB_EXIT_FAIL;
		goto out;
	}
	if (c->ctx->json) {
		json_init(&j, c->ctx->out);
		json_obj_begin(&j);
		json_kstr(&j, "command", c->verb);
		json_kbool(&j, "dry_run", c->dry_run);
		json_kstr(&j, "list", list);
		json_kstr(&j, "before", before);
		json_kstr(&j, "after", after);
		json_key(&j, "cpus");
		json_arr_begin(&j);
	}
	cpulist_for_each(cpu, &c->list) {
		const char *res = nocbs_cpu_result(c, cpu);
		char word[32];

		if (!c->ctx->json) {
			fprintf(c->ctx->out, "CPU %d: %s\n", cpu, res);
			continue;
		}
		/* JSON words have no blanks: "already-offloaded" */
		snprintf(word, sizeof(word), "%s", res);
		for (char *w = word; *w; w++)
			if (*w == ' ')
				*w = '-';
		json_obj_begin(&j);
		json_kint(&j, "cpu", cpu);
		json_kstr(&j, "result", word);
		json_obj_end(&j);
	}
	if (c->ctx->json) {
		json_arr_end(&j);
		json_kbool(&j, "written", changed && !c->dry_run);
	} else if (!changed) {
		fprintf(c->ctx->out, "rcu_nocbs: %s (nothing to change)\n",
			before[0] ? before : "-");
	} else {
		fprintf(c->ctx->out, "rcu_nocbs%s: %s -> %s\n",
			c->dry_run ? " (dry run)" : "",
			before[0] ? before : "-", after[0] ? after : "-");
	}
	if (changed) {
		r = apply_threads(c->ctx, c->verb, p, c->dry_run,
				  c->ctx->json ? &j : NULL);
	} else if (c->ctx->json) {
		json_key(&j, "config");
		json_str(&j, p->loaded ? p->path : NULL);
		json_key(&j, "pin");
		json_null(&j);
		json_key(&j, "prio");
		json_null(&j);
	}
	if (c->ctx->json) {
		json_obj_end(&j);
		json_end(&j);
	}
out:
	free(before);
	free(after);
	free(list);
	return r;
}

/* Everything after the file is open and locked. */
static int change_locked(struct nocbs_change *c, const char *cfg_arg)
{
	struct apply_plan p;
	int r;

	r = nocbs_plan_change(c);
	if (r)
		return r;
	r = apply_load(c->ctx, c->verb, cfg_arg, true, c->cs, &p);
	if (r)
		return r;
	if (c->changed) {
		char what[4100];

		snprintf(what, sizeof(what), "%.4000s: cpus", p.path);
		r = act_check_rule(c->ctx, &(struct rule_req){ .verb = c->verb,
				   .cs = c->cs, .after = &c->after,
				   .pin = p.sets_pin ? &p.pin : NULL,
				   .pin_what = what, .kinds = KT_ALL,
				   .realtime = p.sets_prio &&
					       p.prio.policy != SCHED_OTHER,
				   .force = c->force });
		if (r)
			return r;
	}
	if (c->changed) {
		r = nocbs_check_access(c);
		if (!r)
			r = apply_may_act(c->ctx, c->verb, &p, c->dry_run);
		if (!r && !c->dry_run)
			r = nocbs_write_set(c);
		if (r)
			return r;
	}
	return report(c, &p, c->changed);
}

static int run(struct nocb_ctx *ctx, const char *verb, bool offload,
	       void (*h)(FILE *), int argc, char **argv)
{
	struct verb_args a;
	struct nocbs_change c;
	struct cpu_state cs;
	char err[512];
	int r;

	r = verb_parse(ctx, verb, OPT(OPT_DRY_RUN) | OPT(OPT_CONFIG) |
		       OPT(OPT_FORCE), h, argc, argv, &a);
	if (r != VERB_PARSED)
		return r;
	if (a.nargs != 1) {
		if (a.nargs)
			nocb_err(ctx, verb, "unexpected argument '%s'",
				 a.args[1]);
		else
			nocb_err(ctx, verb,
				 "a CPU LIST is required (see nocbctl %s --help)",
				 verb);
		return NOCB_EXIT_USAGE;
	}
	memset(&c, 0, sizeof(c));
	c.ctx = ctx;
	c.verb = verb;
	c.mode = offload ? NOCBS_ADD : NOCBS_REMOVE;
	c.dry_run = a.set[OPT_DRY_RUN];
	c.force = a.set[OPT_FORCE];
	c.arg = a.args[0];
	c.cs = &cs;
	c.fd = -1;
	if (sysfs_read_cpus(ctx, verb, &cs))
		return NOCB_EXIT_FAIL;
	if (cpulist_parse_arg(c.arg, cs.nbits, &c.list, err, sizeof(err)) ||
	    cpulist_validate(&c.list, &cs.possible, NULL, err, sizeof(err))) {
		nocb_err(ctx, verb, "'%s': %s", c.arg, err);
		return NOCB_EXIT_USAGE;
	}
	if (offload && cpulist_test(&c.list, 0)) {
		nocb_err(ctx, verb,
			 "CPU 0: the boot CPU is never a no-CBs CPU (K4)");
		return NOCB_EXIT_USAGE;
	}
	r = offload && cs.have_present ? check_present(&c) : 0;
	if (r)
		return r;
	r = nocbs_open_locked(&c);
	if (r == -ENOENT)
		return nocbs_unsupported(&c);
	if (r)
		return r;
	r = change_locked(&c, a.arg[OPT_CONFIG]);
	close(c.fd);	/* and the lock with it */
	return r;
}

int cmd_offload(struct nocb_ctx *ctx, int argc, char **argv)
{
	return run(ctx, "offload", true, offload_help, argc, argv);
}

int cmd_deoffload(struct nocb_ctx *ctx, int argc, char **argv)
{
	return run(ctx, "deoffload", false, deoffload_help, argc, argv);
}
