// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_plan.c - "nocbctl plan": the whole isolation recipe for this machine
 * (kernel parameters, /etc/nocbctl.conf, systemd's CPUAffinity=, a GRUB
 * drop-in, what to run after boot), built by src/plan.c and printed here;
 * --check compares the running system with it (src/plan_check.c).
 */
#define _GNU_SOURCE
#include "verbs.h"
#include "plan.h"

#include <stdlib.h>
#include <string.h>

static void plan_help(FILE *f)
{
	fputs("\nUsage:\n"
	      " nocbctl plan --isolate=LIST [--housekeeping=LIST] [--poll]\n"
	      "              [--allow-smt-split] [--format=text|json|grub]\n"
	      " nocbctl plan --check [--isolate=LIST ...] [--config=FILE]\n"
	      "\nPrint what isolating the CPUs in LIST takes on this machine: the\n"
	      "kernel parameters (each with why), the /etc/nocbctl.conf values,\n"
	      "systemd's CPUAffinity=, the commands to run after boot, and with\n"
	      "--format=grub a drop-in for /etc/default/grub.d/. With --check,\n"
	      "compare the running system with that plan (or, without --isolate,\n"
	      "with the housekeeping CPUs of the config file): one line per\n"
	      "mismatch, naming what differs and what to change.\n"
	      "\nOptions:\n"
	      "     --isolate=LIST       CPUs for the workload (kernel cpulist syntax)\n"
	      "     --housekeeping=LIST  CPUs for everything else (default: all the\n"
	      "                          other possible CPUs)\n"
	      "     --poll               add rcu_nocb_poll\n"
	      "     --allow-smt-split    allow an isolated CPU whose SMT sibling is not\n"
	      "     --format=FMT         text (default), json, or grub (the drop-in only)\n"
	      "     --check              check the running system instead\n"
	      " -C, --config=FILE        config file for --check (not prefixed by --root)\n"
	      " -h, --help               display this help\n"
	      "\nExit status: 0 ok (--check: no mismatch), 1 --check found mismatches\n"
	      "or the system could not be read, 2 bad input or a plan that cannot\n"
	      "work (no housekeeping CPU, CPU 0 isolated, SMT siblings split, CPUs\n"
	      "that do not exist).\n"
	      "\nFor more details see nocbctl(8).\n", f);
}

static void print_grub(FILE *o, const struct plan *p)
{
	fprintf(o, "# %s: CPUs %s isolated, %s housekeeping (nocbctl plan).\n"
		   "# Debian's grub-mkconfig reads it after /etc/default/grub; run\n"
		   "# update-grub and reboot, then: nocbctl plan --check --isolate=%s\n"
		   "GRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT %s\"\n",
		PLAN_GRUB_FILE, p->iso, p->hk, p->iso, p->cmdline);
}

static void print_text(FILE *o, const struct plan *p)
{
	fprintf(o, "Plan: isolate CPUs %s, housekeeping CPUs %s\n", p->iso,
		p->hk);
	fprintf(o, "Machine: %d possible CPUs, SMT %s, ",
		cpulist_count(&p->cs.possible),
		p->smt ? p->allow_smt_split ? "on (siblings may be split)" :
		"on (siblings kept together)" : "off");
	if (p->nodes)
		fprintf(o, "%d NUMA node%s\n", p->nodes, p->nodes == 1 ? "" : "s");
	else
		fputs("no NUMA information\n", o);
	fprintf(o, "\nKernel command line (nocbctl plan --format=grub writes %s):\n  %s\n",
		PLAN_GRUB_FILE, p->cmdline);
	for (int i = 0; i < p->nparams; i++)
		fprintf(o, "  %s\n      %s\n", p->param[i].word, p->param[i].why);
	if (!p->poll)
		fprintf(o, "  (rcu_nocb_poll is left out: --poll adds it)\n");
	fprintf(o, "\n%s:\n  cpus = %s\n"
		   "      the offload kthreads run on the housekeeping CPUs; nocbctl apply sets them at boot and whenever a CPU comes online\n"
		   "  offload = %s\n"
		   "      the no-CBs CPUs: a kernel with runtime offload (/sys/devices/system/cpu/rcu_nocbs) gets them from nocbctl apply, also when booted with bare rcu_nocbs; rcu_nocbs= above does it at boot on any kernel\n",
		PLAN_CONFIG_FILE, p->hk, p->iso);
	fprintf(o, "\n%s:\n  [Manager]\n  CPUAffinity=%s\n"
		   "      PID 1 and every service it starts run on the housekeeping CPUs (takes effect at the next boot or systemctl daemon-reexec)\n",
		PLAN_SYSTEMD_FILE, p->hk);
	fputs("\nAfter boot (as root):\n", o);
	for (int i = 0; i < p->nsteps; i++)
		fprintf(o, "  %s\n      %s\n", p->step[i].cmd, p->step[i].why);
	for (int i = 0; i < p->nwarnings; i++) {
		if (!i)
			fputs("\nWarnings:\n", o);
		fprintf(o, "  warning: %s\n", p->warning[i]);
	}
	fprintf(o, "\nThen check the running system: nocbctl plan --check --isolate=%s%s%s\n",
		p->iso, cpulist_empty(&p->other) ? "" : " --housekeeping=",
		cpulist_empty(&p->other) ? "" : p->hk);
}

static void print_json(FILE *o, const struct plan *p)
{
	bool oom = false;
	struct json j;
	char *s;

	json_init(&j, o);
	json_obj_begin(&j);
	json_kstr(&j, "command", "plan");
	json_kstr(&j, "isolate", p->iso);
	json_kstr(&j, "housekeeping", p->hk);
	s = cpulist_format_alloc(&p->other);
	json_kstr(&j, "other", s ? s : "?");
	free(s);
	json_key(&j, "machine");
	json_obj_begin(&j);
	s = cpulist_format_alloc(&p->cs.possible);
	json_kstr(&j, "possible", s ? s : "?");
	free(s);
	s = cpulist_format_alloc(&p->cs.online);
	json_kstr(&j, "online", s ? s : "?");
	free(s);
	json_kbool(&j, "smt", p->smt);
	json_kint(&j, "numa_nodes", p->nodes);
	json_obj_end(&j);
	json_kstr(&j, "cmdline", p->cmdline);
	json_key(&j, "parameters");
	json_arr_begin(&j);
	for (int i = 0; i < p->nparams; i++) {
		json_obj_begin(&j);
		json_kstr(&j, "name", p->param[i].name);
		json_kstr(&j, "word", p->param[i].word);
		json_kstr(&j, "why", p->param[i].why);
		json_key(&j, "implied_by");
		json_str(&j, p->param[i].implied_by);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_key(&j, "config");
	json_obj_begin(&j);
	json_kstr(&j, "file", PLAN_CONFIG_FILE);
	json_kstr(&j, "cpus", p->hk);
	json_kstr(&j, "offload", p->iso);
	json_obj_end(&j);
	json_key(&j, "systemd");
	json_obj_begin(&j);
	json_kstr(&j, "file", PLAN_SYSTEMD_FILE);
	json_kstr(&j, "CPUAffinity", p->hk);
	json_obj_end(&j);
	json_key(&j, "grub");
	json_obj_begin(&j);
	json_kstr(&j, "file", PLAN_GRUB_FILE);
	s = plan_fmt(&oom, "GRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT %s\"",
		      p->cmdline);
	json_kstr(&j, "line", s ? s : "?");
	free(s);
	json_obj_end(&j);
	json_key(&j, "after_boot");
	json_arr_begin(&j);
	for (int i = 0; i < p->nsteps; i++) {
		json_obj_begin(&j);
		json_kstr(&j, "command", p->step[i].cmd);
		json_kstr(&j, "why", p->step[i].why);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_key(&j, "warnings");
	json_arr_begin(&j);
	for (int i = 0; i < p->nwarnings; i++)
		json_str(&j, p->warning[i]);
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

int cmd_plan(struct nocb_ctx *ctx, int argc, char **argv)
{
	struct verb_args a;
	const char *fmt;
	struct plan *p;
	int r;

	r = verb_parse(ctx, "plan", OPT(OPT_ISOLATE) | OPT(OPT_HOUSEKEEPING) |
		       OPT(OPT_FORMAT) | OPT(OPT_CHECK) | OPT(OPT_POLL) |
		       OPT(OPT_ALLOW_SMT_SPLIT) | OPT(OPT_CONFIG), plan_help,
		       argc, argv, &a);
	if (r != VERB_PARSED)
		return r;
	if (a.nargs) {
		nocb_err(ctx, "plan", "unexpected argument '%s'", a.args[0]);
		return NOCB_EXIT_USAGE;
	}
	fmt = a.arg[OPT_FORMAT] ? a.arg[OPT_FORMAT] : ctx->json ? "json" : "text";
	if (strcmp(fmt, "text") && strcmp(fmt, "json") && strcmp(fmt, "grub")) {
		nocb_err(ctx, "plan", "--format=%s: expected text, json or grub",
			 fmt);
		return NOCB_EXIT_USAGE;
	}
	/* as stats: one output format, not one silently ignored */
	if (ctx->json && strcmp(fmt, "json")) {
		nocb_err(ctx, "plan", "--json and --format=%s conflict", fmt);
		return NOCB_EXIT_USAGE;
	}
	if (a.set[OPT_CHECK] && !strcmp(fmt, "grub")) {
		nocb_err(ctx, "plan", "--check prints text or json, not grub");
		return NOCB_EXIT_USAGE;
	}
	if (!a.set[OPT_CHECK] && !a.arg[OPT_ISOLATE]) {
		nocb_err(ctx, "plan", "--isolate=LIST is required (see nocbctl plan --help)");
		return NOCB_EXIT_USAGE;
	}
	if (!a.set[OPT_CHECK] && a.set[OPT_CONFIG]) {
		nocb_err(ctx, "plan", "--config is for --check");
		return NOCB_EXIT_USAGE;
	}
	if (!a.arg[OPT_ISOLATE] && a.arg[OPT_HOUSEKEEPING]) {
		nocb_err(ctx, "plan", "--housekeeping needs --isolate");
		return NOCB_EXIT_USAGE;
	}
	ctx->json = !strcmp(fmt, "json");
	p = calloc(1, sizeof(*p));
	if (!p) {
		nocb_err(ctx, "plan", "out of memory");
		return NOCB_EXIT_FAIL;
	}
	p->poll = a.set[OPT_POLL];
	p->allow_smt_split = a.set[OPT_ALLOW_SMT_SPLIT];
	r = plan_build(ctx, p, a.arg[OPT_ISOLATE], a.arg[OPT_HOUSEKEEPING],
		       a.arg[OPT_CONFIG]);
	if (!r && a.set[OPT_CHECK])
		r = plan_check(ctx, p, a.arg[OPT_CONFIG]);
	else if (!r && !strcmp(fmt, "grub"))
		print_grub(ctx->out, p);
	else if (!r && ctx->json)
		print_json(ctx->out, p);
	else if (!r)
		print_text(ctx->out, p);
	plan_free(p);
	free(p);
	return r;
}
