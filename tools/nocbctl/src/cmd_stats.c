// SPDX-License-Identifier: GPL-2.0
/* cmd_stats.c - "nocbctl stats": per-CPU callback counts from rcudata (K2). */
#define _GNU_SOURCE
#include "verbs.h"
#include "offload.h"
#include "proc.h"
#include "rcudata.h"
#include "sysfs.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void stats_help(FILE *f)
{
	fputs("\nUsage:\n"
	      " nocbctl stats [--cpus=LIST] [--watch=SECONDS [--count=N]]\n"
	      " nocbctl stats --format=prometheus [--cpus=LIST] [--output=FILE]\n"
	      "\nShow per-CPU RCU callback counts from " RCUDATA_PATH ":\n"
	      "ql (queued: lazy/total), ci (invoked in softirq/rcuc), nci\n"
	      "(invoked by the offload kthread).\n"
	      "\nOptions:\n"
	      " -c, --cpus=LIST       only these CPUs (kernel cpulist syntax)\n"
	      " -w, --watch=SECONDS   sample every SECONDS and show per-second rates\n"
	      "     --count=N         stop after N samples (needed with --json)\n"
	      "     --format=FORMAT   text (default), json (as --json) or prometheus\n"
	      "                       (text exposition format, one sample)\n"
	      " -o, --output=FILE     replace FILE atomically instead of printing;\n"
	      "                       on failure FILE is removed (no stale data)\n"
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

/* One metric family of the exposition, in the order printed. */
enum prom_family {
	PF_ONLINE,
	PF_OFFLOADED,
	PF_QUEUED,
	PF_QUEUED_LAZY,
	PF_INVOKED,
	PF_MIGRATED,
	PF_ADOPTED,
	PF_OWN_CPU,
	PF_N,
};

static const struct {
	const char *name, *type, *help;
} prom_families[PF_N] = {
	[PF_ONLINE] = { "nocb_cpu_online", "gauge",
		"1 if the CPU is online, 0 if offline (rcudata ! flag)" },
	[PF_OFFLOADED] = { "nocb_cpu_offloaded", "gauge",
		"1 if the CPU's RCU callbacks are offloaded to rcuo kthreads (rcudata N flag)" },
	[PF_QUEUED] = { "nocb_callbacks_queued", "gauge",
		"RCU callbacks queued on the CPU, lazy ones and those held for its offload kthread included (rcudata ql= total)" },
	[PF_QUEUED_LAZY] = { "nocb_callbacks_queued_lazy", "gauge",
		"Lazy RCU callbacks among those queued (rcudata ql= lazy)" },
	[PF_INVOKED] = { "nocb_callbacks_invoked_total", "counter",
		"RCU callbacks of the CPU invoked, by context: softirq (softirq or rcuc, rcudata ci=), offload (rcuo kthread, nci=), or all (a kernel without nci=: ci= counts both)" },
	[PF_MIGRATED] = { "nocb_callbacks_migrated_total", "counter",
		"RCU callbacks moved away from the CPU when it went offline (rcudata co=)" },
	[PF_ADOPTED] = { "nocb_callbacks_adopted_total", "counter",
		"RCU callbacks the CPU adopted from CPUs that went offline (rcudata ca=)" },
	[PF_OWN_CPU] = { "nocb_offload_kthreads_on_own_cpu", "gauge",
		"Offload kthreads (rcuog/N, rcuop/N) allowed to run on the offloaded CPU N they serve; above 0 that CPU is not isolated from callback work" },
};

static void prom_sample(FILE *o, enum prom_family f,
			const struct rcudata_cpu *c, const unsigned *own)
{
	const char *n = prom_families[f].name;

	switch (f) {
	case PF_ONLINE:
		fprintf(o, "%s{cpu=\"%d\"} %d\n", n, c->cpu, !c->offline);
		break;
	case PF_OFFLOADED:
		fprintf(o, "%s{cpu=\"%d\"} %d\n", n, c->cpu, c->offloaded);
		break;
	case PF_QUEUED:
		fprintf(o, "%s{cpu=\"%d\"} %ld\n", n, c->cpu, c->total);
		break;
	case PF_QUEUED_LAZY:
		fprintf(o, "%s{cpu=\"%d\"} %ld\n", n, c->cpu, c->lazy);
		break;
	case PF_INVOKED:
		fprintf(o, "%s{cpu=\"%d\",context=\"%s\"} %lu\n", n, c->cpu,
			c->have_nci ? "softirq" : "all", c->ci);
		if (c->have_nci)
			fprintf(o, "%s{cpu=\"%d\",context=\"offload\"} %lu\n",
				n, c->cpu, c->nci);
		break;
	case PF_MIGRATED:
		/* a field the kernel does not give is left out, not 0 */
		if (c->have_co)
			fprintf(o, "%s{cpu=\"%d\"} %lu\n", n, c->cpu, c->co);
		break;
	case PF_ADOPTED:
		if (c->have_ca)
			fprintf(o, "%s{cpu=\"%d\"} %lu\n", n, c->cpu, c->ca);
		break;
	case PF_OWN_CPU:
		fprintf(o, "%s{cpu=\"%d\"} %u\n", n, c->cpu, own[c->cpu]);
		break;
	default:
		break;
	}
}

int stats_print_prometheus(struct nocb_ctx *ctx, const struct rcudata *cur,
			   const struct kthread_list *kl,
			   const struct cpulist *filter)
{
	unsigned *own = calloc(NOCB_MAX_CPUS, sizeof(*own));
	struct cpulist offloaded;

	if (!own)
		return -1;
	/* the kernel's view of offloading: rcudata N flags, as status */
	cpulist_clear(&offloaded);
	for (size_t i = 0; i < cur->n; i++)
		if (cur->cpus[i].offloaded)
			cpulist_set(&offloaded, cur->cpus[i].cpu);
	for (size_t i = 0; i < kl->n; i++)
		if (offload_kthread_on_own_cpu(&kl->v[i], &offloaded))
			own[kl->v[i].cpu]++;
	for (int f = 0; f < PF_N; f++) {
		fprintf(ctx->out, "# HELP %s %s\n# TYPE %s %s\n",
			prom_families[f].name, prom_families[f].help,
			prom_families[f].name, prom_families[f].type);
		for (size_t i = 0; i < cur->n; i++)
			if (!filter || cpulist_test(filter, cur->cpus[i].cpu))
				prom_sample(ctx->out, (enum prom_family)f,
					    &cur->cpus[i], own);
	}
	free(own);
	return 0;
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

enum stats_format { FMT_TEXT, FMT_JSON, FMT_PROMETHEUS };

/* One Prometheus exposition of cur (for --cpus, filter). */
static int prometheus(struct nocb_ctx *ctx, const struct rcudata *cur,
		      const struct cpulist *filter, int nbits)
{
	struct kthread_list kl;
	int r = 0;

	if (proc_scan_kthreads(ctx, "stats", KT_ALL, nbits, &kl))
		return NOCB_EXIT_FAIL;
	/* an unreadable kthread would make the gauge too low: no guess */
	if (kl.failed)
		r = NOCB_EXIT_FAIL;
	else if (stats_print_prometheus(ctx, cur, &kl, filter)) {
		nocb_err(ctx, "stats", "out of memory");
		r = NOCB_EXIT_FAIL;
	}
	kthread_list_free(&kl);
	return r;
}

/* Everything after the options: samples printed to ctx->out. */
static int collect(struct nocb_ctx *ctx, enum stats_format fmt,
		   const char *cpus_arg, const char *watch_arg, double interval,
		   int count)
{
	double t0, tprev;
	int r;
	struct cpulist filter;
	struct cpu_state cs;
	struct rcudata prev = { 0 }, cur = { 0 };
	struct json j;
	char err[512];

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
	if (fmt == FMT_PROMETHEUS) {
		r = prometheus(ctx, &cur, cpus_arg ? &filter : NULL, cs.nbits);
		rcudata_free(&cur);
		return r;
	}
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

/*
 * --output: collect into memory, then replace FILE in one rename. A
 * failed collection removes FILE, so that a textfile collector does not
 * keep serving the last values as current ones; bad input leaves it.
 */
static int collect_to_file(struct nocb_ctx *ctx, const char *file,
			   enum stats_format fmt, const char *cpus_arg)
{
	FILE *saved = ctx->out;
	char *buf = NULL;
	size_t len = 0;
	int r, w;

	ctx->out = open_memstream(&buf, &len);
	if (!ctx->out) {
		ctx->out = saved;
		nocb_err(ctx, "stats", "out of memory");
		return NOCB_EXIT_FAIL;
	}
	r = collect(ctx, fmt, cpus_arg, NULL, 0, 0);
	if (fclose(ctx->out) && !r) {
		nocb_err(ctx, "stats", "out of memory");
		r = NOCB_EXIT_FAIL;
	}
	ctx->out = saved;
	if (!r) {
		w = nocb_write_file_atomic(file, buf, len);
		if (w) {
			nocb_err(ctx, "stats", "%s: %s", file, strerror(-w));
			r = NOCB_EXIT_FAIL;
		}
	} else if (r != NOCB_EXIT_USAGE && unlink(file) == 0) {
		nocb_err(ctx, "stats", "%s: removed: its values would be stale",
			 file);
	}
	free(buf);
	return r;
}

int cmd_stats(struct nocb_ctx *ctx, int argc, char **argv)
{
	static const char *const formats[] = {
		[FMT_TEXT] = "text", [FMT_JSON] = "json",
		[FMT_PROMETHEUS] = "prometheus",
	};
	struct verb_args a;
	const char *cpus_arg, *watch_arg, *count_arg, *fmt_arg, *out_arg;
	enum stats_format fmt;
	double interval = 0;
	int count = 0, r;

	r = verb_parse(ctx, "stats", OPT(OPT_CPUS) | OPT(OPT_WATCH) |
		       OPT(OPT_COUNT) | OPT(OPT_FORMAT) | OPT(OPT_OUTPUT),
		       stats_help, argc, argv, &a);
	if (r != VERB_PARSED)
		return r;
	if (a.nargs) {
		nocb_err(ctx, "stats", "unexpected argument '%s'", a.args[0]);
		return NOCB_EXIT_USAGE;
	}
	cpus_arg = a.arg[OPT_CPUS];
	watch_arg = a.arg[OPT_WATCH];
	count_arg = a.arg[OPT_COUNT];
	fmt_arg = a.arg[OPT_FORMAT];
	out_arg = a.arg[OPT_OUTPUT];
	fmt = ctx->json ? FMT_JSON : FMT_TEXT;
	if (fmt_arg) {
		enum stats_format f = FMT_TEXT;

		while (f <= FMT_PROMETHEUS && strcmp(fmt_arg, formats[f]))
			f++;
		if (f > FMT_PROMETHEUS) {
			nocb_err(ctx, "stats",
				 "--format=%s: expected text, json or prometheus",
				 fmt_arg);
			return NOCB_EXIT_USAGE;
		}
		if (ctx->json && f != FMT_JSON) {
			nocb_err(ctx, "stats", "--json and --format=%s conflict",
				 fmt_arg);
			return NOCB_EXIT_USAGE;
		}
		fmt = f;
	}
	ctx->json = fmt == FMT_JSON;
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
	/* an exposition or a file holds one sample: rates need a series */
	if (watch_arg && (fmt == FMT_PROMETHEUS || out_arg)) {
		nocb_err(ctx, "stats", "--watch cannot go with %s",
			 out_arg ? "--output" : "--format=prometheus");
		return NOCB_EXIT_USAGE;
	}
	if (out_arg && !out_arg[0]) {
		nocb_err(ctx, "stats", "--output: empty file name");
		return NOCB_EXIT_USAGE;
	}
	if (out_arg)
		return collect_to_file(ctx, out_arg, fmt, cpus_arg);
	return collect(ctx, fmt, cpus_arg, watch_arg, interval, count);
}
