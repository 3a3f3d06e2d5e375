// SPDX-License-Identifier: GPL-2.0
/* cmd_stats.c - "nocbctl stats": per-CPU callback counts from rcudata (K2). */
#define _GNU_SOURCE
#include "verbs.h"
#include "rcudata.h"
#include "sysfs.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void stats_help(FILE *f)
{
	fputs("\nUsage:\n"
	      " nocbctl stats [--cpus=LIST] [--watch=SECONDS [--count=N]]\n"
	      "\nShow per-CPU RCU callback counts from " RCUDATA_PATH ":\n"
	      "ql (queued: lazy/total), ci (invoked in softirq/rcuc), nci\n"
	      "(invoked by the offload kthread).\n"
	      "\nOptions:\n"
	      " -c, --cpus=LIST       only these CPUs (kernel cpulist syntax)\n"
	      " -w, --watch=SECONDS   sample every SECONDS and show per-second rates\n"
	      "     --count=N         stop after N samples (needed with --json)\n"
	      " -h, --help            display this help\n"
	      "\nExit status: 0 ok, 1 rcudata unreadable or malformed, 2 bad input,\n"
	      "3 kernel without rcudata, 4 not allowed to read debugfs.\n"
	      "\nFor more details see nocbctl(8).\n", f);
}

static double rate(unsigned long now, unsigned long before, double dt)
{
	if (now < before || dt <= 0)
		return NAN;	/* counter reset or no time passed */
	return (double)(now - before) / dt;
}

void stats_print_sample(struct nocb_ctx *ctx, struct json *j,
			const struct rcudata *prev, const struct rcudata *cur,
			const struct cpulist *filter, double dt)
{
	if (!j) {
		fprintf(ctx->out, "%5s %-5s %8s %8s %12s %12s", "CPU", "FLAGS",
			"QL_LAZY", "QL", "CI", "NCI");
		if (prev)
			fprintf(ctx->out, " %10s %10s", "CI/s", "NCI/s");
		fputc('\n', ctx->out);
	} else {
		json_arr_begin(j);
	}
	for (size_t i = 0; i < cur->n; i++) {
		const struct rcudata_cpu *c = &cur->cpus[i];
		const struct rcudata_cpu *p = prev ? rcudata_find(prev, c->cpu)
						   : NULL;
		double cir = p ? rate(c->ci, p->ci, dt) : NAN;
		double ncir = p ? rate(c->nci, p->nci, dt) : NAN;
		char flags[4] = "";

		if (filter && !cpulist_test(filter, c->cpu))
			continue;
		if (c->offline)
			strcat(flags, "!");
		if (c->offloaded)
			strcat(flags, "N");
		if (j) {
			json_obj_begin(j);
			json_kint(j, "cpu", c->cpu);
			json_kbool(j, "offline", c->offline);
			json_kbool(j, "offloaded", c->offloaded);
			json_kint(j, "ql_lazy", c->lazy);
			json_kint(j, "ql", c->total);
			json_kuint(j, "ci", c->ci);
			json_key(j, "nci");
			if (c->have_nci)
				json_uint(j, c->nci);
			else
				json_null(j);
			json_kint(j, "b", c->blimit);
			json_kuint(j, "co", c->co);
			json_kuint(j, "ca", c->ca);
			if (prev) {
				json_key(j, "ci_rate");
				json_double(j, cir);
				json_key(j, "nci_rate");
				json_double(j, c->have_nci ? ncir : NAN);
			}
			json_obj_end(j);
			continue;
		}
		fprintf(ctx->out, "%5d %-5s %8ld %8ld %12lu ", c->cpu,
			flags[0] ? flags : "-", c->lazy, c->total, c->ci);
		if (c->have_nci)
			fprintf(ctx->out, "%12lu", c->nci);
		else
			fprintf(ctx->out, "%12s", "-");
		if (prev) {
			if (isnan(cir))
				fprintf(ctx->out, " %10s", "-");
			else
				fprintf(ctx->out, " %10.1f", cir);
			if (isnan(ncir) || !c->have_nci)
				fprintf(ctx->out, " %10s", "-");
			else
				fprintf(ctx->out, " %10.1f", ncir);
		}
		fputc('\n', ctx->out);
	}
	if (j)
		json_arr_end(j);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec ts;

	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Read rcudata; on failure print and return the exit code. */
static int sample(struct nocb_ctx *ctx, struct rcudata *rd)
{
	char err[512];

	switch (rcudata_read(ctx, rd, err, sizeof(err))) {
	case RCUDATA_OK:
		return 0;
	case RCUDATA_ABSENT:
		nocb_err(ctx, "stats", "%s", err);
		return NOCB_EXIT_UNSUPP;
	case RCUDATA_DENIED:
		nocb_err(ctx, "stats", "%s (reading debugfs needs root)", err);
		return NOCB_EXIT_PRIV;
	default:
		nocb_err(ctx, "stats", "%s", err);
		return NOCB_EXIT_FAIL;
	}
}

int cmd_stats(struct nocb_ctx *ctx, int argc, char **argv)
{
	struct verb_args a;
	const char *cpus_arg, *watch_arg, *count_arg;
	double interval = 0, t0, tprev;
	int count = 0, r;
	struct cpulist filter;
	struct cpu_state cs;
	struct rcudata prev = { 0 }, cur = { 0 };
	struct json j;
	char err[512];

	r = verb_parse(ctx, "stats", OPT(OPT_CPUS) | OPT(OPT_WATCH) |
		       OPT(OPT_COUNT), stats_help, argc, argv, &a);
	if (r != VERB_PARSED)
		return r;
	if (a.nargs) {
		nocb_err(ctx, "stats", "unexpected argument '%s'", a.args[0]);
		return NOCB_EXIT_USAGE;
	}
	cpus_arg = a.arg[OPT_CPUS];
	watch_arg = a.arg[OPT_WATCH];
	count_arg = a.arg[OPT_COUNT];
	if (watch_arg) {
		char *e;

		errno = 0;
		interval = strtod(watch_arg, &e);
		if (!*watch_arg || *e || errno || !(interval > 0) ||
		    interval > 86400) {
			nocb_err(ctx, "stats", "--watch=%s: expected seconds > 0",
				 watch_arg);
			return NOCB_EXIT_USAGE;
		}
	}
	if (count_arg) {
		if (!watch_arg) {
			nocb_err(ctx, "stats", "--count needs --watch");
			return NOCB_EXIT_USAGE;
		}
		if (nocb_parse_int(count_arg, 1, 1000000000, &count)) {
			nocb_err(ctx, "stats", "--count=%s: expected a number >= 1",
				 count_arg);
			return NOCB_EXIT_USAGE;
		}
	}
	if (ctx->json && watch_arg && !count_arg) {
		nocb_err(ctx, "stats",
			 "--json --watch needs --count (one JSON document per run)");
		return NOCB_EXIT_USAGE;
	}
	if (sysfs_read_cpus(ctx, "stats", &cs))
		return NOCB_EXIT_FAIL;
	if (cpus_arg &&
	    (cpulist_parse_str(cpus_arg, cs.nbits, &filter, err, sizeof(err)) ||
	     cpulist_validate(&filter, &cs.possible, NULL, err, sizeof(err)))) {
		nocb_err(ctx, "stats", "--cpus=%s: %s", cpus_arg, err);
		return NOCB_EXIT_USAGE;
	}
	r = sample(ctx, &cur);
	if (r)
		return r;
	t0 = tprev = now_s();
	if (ctx->json) {
		json_init(&j, ctx->out);
		json_obj_begin(&j);
		json_kstr(&j, "command", "stats");
		if (watch_arg) {
			json_key(&j, "interval");
			json_double(&j, interval);
			json_key(&j, "samples");
			json_arr_begin(&j);
			json_obj_begin(&j);
			json_key(&j, "t");
			json_double(&j, 0);
			json_key(&j, "cpus");
		} else {
			json_key(&j, "cpus");
		}
	}
	stats_print_sample(ctx, ctx->json ? &j : NULL, NULL, &cur,
			   cpus_arg ? &filter : NULL, 0);
	if (ctx->json && watch_arg)
		json_obj_end(&j);
	for (int n = 1; watch_arg && (!count || n < count); n++) {
		double t;

		fflush(ctx->out);
		sleep_s(interval);
		rcudata_free(&prev);
		prev = cur;
		memset(&cur, 0, sizeof(cur));
		r = sample(ctx, &cur);
		if (r)
			break;
		t = now_s();
		if (ctx->json) {
			json_obj_begin(&j);
			json_key(&j, "t");
			json_double(&j, t - t0);
			json_key(&j, "cpus");
		} else {
			fprintf(ctx->out, "\n");
		}
		stats_print_sample(ctx, ctx->json ? &j : NULL, &prev, &cur,
				   cpus_arg ? &filter : NULL, t - tprev);
		if (ctx->json)
			json_obj_end(&j);
		tprev = t;
	}
	if (ctx->json) {
		if (watch_arg)
			json_arr_end(&j);
		json_obj_end(&j);
		json_end(&j);
	}
	rcudata_free(&prev);
	rcudata_free(&cur);
	return r;
}
