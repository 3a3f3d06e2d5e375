// SPDX-License-Identifier: GPL-2.0
/* cmd_stats.c - "nocbctl stats": per-CPU callback counts from rcudata (K2). */
#define _GNU_SOURCE
#include "verbs.h"
#include "stats.h"
#include "offload.h"
#include "placement.h"
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
	      " nocbctl stats --format=summary [--cpus=LIST]\n"
	      "\nShow per-CPU RCU callback counts from " RCUDATA_PATH ":\n"
	      "ql (queued: lazy/total), ci (invoked in softirq/rcuc), nci\n"
	      "(invoked by the offload kthread).\n"
	      "\nOptions:\n"
	      " -c, --cpus=LIST       only these CPUs (kernel cpulist syntax)\n"
	      " -w, --watch=SECONDS   sample every SECONDS and show per-second rates\n"
	      "     --count=N         stop after N samples (needed with --json)\n"
	      "     --format=FORMAT   text (default), json (as --json), prometheus\n"
	      "                       (text exposition format, one sample) or\n"
	      "                       summary (one line for all CPUs, for a log)\n"
	      " -o, --output=FILE     replace FILE atomically instead of printing;\n"
	      "                       on failure FILE is removed (no stale data)\n"
	      " -h, --help            display this help\n"
	      "\nExit status: 0 ok, 1 rcudata unreadable or malformed, 2 bad input,\n"
	      "3 kernel without rcudata (except prometheus, which then exports\n"
	      "the placement alone), 4 not allowed to read debugfs.\n"
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
	PF_BUILD,
	PF_AVAILABLE,
	PF_LAST_SUCCESS,
	PF_ONLINE,
	PF_OFFLOADED,
	PF_QUEUED,
	PF_QUEUED_LAZY,
	PF_INVOKED,
	PF_MIGRATED,
	PF_ADOPTED,
	PF_OWN_CPU,
	PF_MISPLACED,
	PF_N,
};

static const struct {
	const char *name, *type, *help;
	bool per_cpu, rcudata;	/* a sample per CPU; from rcudata only */
} prom_families[PF_N] = {
	[PF_BUILD] = { "nocb_build_info", "gauge",
		"Always 1; the nocbctl version that wrote these metrics", false, false },
	[PF_AVAILABLE] = { "nocb_kernel_statistics_available", "gauge",
		"1 if the running kernel gives these statistics, 0 if not: rcudata (per-CPU callback counts, /sys/kernel/debug/rcu/rcudata), separate_accounting (offloaded invocations counted apart, nci=), runtime_offload (/sys/devices/system/cpu/rcu_nocbs)", false, false },
	[PF_LAST_SUCCESS] = { "nocb_collector_last_success_timestamp_seconds", "gauge",
		"Unix time at which nocbctl collected these metrics; a file that stops changing is a stopped collector", false, false },
	[PF_ONLINE] = { "nocb_cpu_online", "gauge",
		"1 if the CPU is online, 0 if offline (rcudata ! flag)", true, true },
	[PF_OFFLOADED] = { "nocb_cpu_offloaded", "gauge",
		"1 if the CPU's RCU callbacks are offloaded to rcuo kthreads (rcudata N flag; without rcudata, rcu_nocbs or the boot command line, as nocbctl status shows)", true, false },
	[PF_QUEUED] = { "nocb_callbacks_queued", "gauge",
		"RCU callbacks queued on the CPU, lazy ones and those held for its offload kthread included (rcudata ql= total)", true, true },
	[PF_QUEUED_LAZY] = { "nocb_callbacks_queued_lazy", "gauge",
		"Lazy RCU callbacks among those queued (rcudata ql= lazy)", true, true },
	[PF_INVOKED] = { "nocb_callbacks_invoked_total", "counter",
		"RCU callbacks of the CPU invoked, by context: softirq (softirq or rcuc, rcudata ci=), offload (rcuo kthread, nci=), or all (a kernel without nci=: ci= counts both)", true, true },
	[PF_MIGRATED] = { "nocb_callbacks_migrated_total", "counter",
		"RCU callbacks moved away from the CPU when it went offline (rcudata co=)", true, true },
	[PF_ADOPTED] = { "nocb_callbacks_adopted_total", "counter",
		"RCU callbacks the CPU adopted from CPUs that went offline (rcudata ca=)", true, true },
	[PF_OWN_CPU] = { "nocb_offload_kthreads_on_own_cpu", "gauge",
		"Offload kthreads allowed to run on the offloaded CPU N they serve (rcuog/N, rcuop/N); one case of nocb_offload_kthreads_misplaced, whose 0 is the one that means safe", true, false },
	[PF_MISPLACED] = { "nocb_offload_kthreads_misplaced", "gauge",
		"Offload kthreads (rcuog/*, rcuop/*) allowed to run on this CPU while it is offloaded, isolated (isolcpus=, cpuset isolated partition) or nohz_full, the rule of nocbctl status; 0: none may run here, as isolation needs", true, false },
};

/* Per CPU of the exposition: its rcudata line (NULL without one). */
static void prom_cpu(FILE *o, enum prom_family f, int cpu,
		     const struct rcudata_cpu *c, const struct prom_input *in,
		     const unsigned *own, const unsigned *misplaced)
{
	const char *n = prom_families[f].name;

	/* c NULL: the CPU has no rcudata line; its families say nothing */
	switch (f) {
	case PF_ONLINE:
		if (c)
			fprintf(o, "%s{cpu=\"%d\"} %d\n", n, cpu, !c->offline);
		break;
	case PF_QUEUED:
		if (c)
			fprintf(o, "%s{cpu=\"%d\"} %ld\n", n, cpu, c->total);
		break;
	case PF_QUEUED_LAZY:
		if (c)
			fprintf(o, "%s{cpu=\"%d\"} %ld\n", n, cpu, c->lazy);
		break;
	case PF_INVOKED:
		if (!c)
			break;
		fprintf(o, "%s{cpu=\"%d\",context=\"%s\"} %lu\n", n, cpu,
			c->have_nci ? "softirq" : "all", c->ci);
		if (c->have_nci)
			fprintf(o, "%s{cpu=\"%d\",context=\"offload\"} %lu\n",
				n, cpu, c->nci);
		break;
	case PF_MIGRATED:
		/* a field the kernel does not give is left out, not 0 */
		if (c && c->have_co)
			fprintf(o, "%s{cpu=\"%d\"} %lu\n", n, cpu, c->co);
		break;
	case PF_ADOPTED:
		if (c && c->have_ca)
			fprintf(o, "%s{cpu=\"%d\"} %lu\n", n, cpu, c->ca);
		break;
	case PF_OFFLOADED:
		fprintf(o, "%s{cpu=\"%d\"} %d\n", n, cpu,
			c ? c->offloaded : cpulist_test(in->offloaded, cpu));
		break;
	case PF_OWN_CPU:
		fprintf(o, "%s{cpu=\"%d\"} %u\n", n, cpu, own[cpu]);
		break;
	case PF_MISPLACED:
		fprintf(o, "%s{cpu=\"%d\"} %u\n", n, cpu, misplaced[cpu]);
		break;
	default:
		break;
	}
}

/* The samples of a family without a cpu label. */
static void prom_host(FILE *o, enum prom_family f, const struct prom_input *in)
{
	const char *n = prom_families[f].name;
	bool nci = false;

	switch (f) {
	case PF_BUILD:
		fprintf(o, "%s{version=\"%s\"} 1\n", n, NOCBCTL_VERSION);
		break;
	case PF_AVAILABLE:
		for (size_t i = 0; in->rd && i < in->rd->n; i++)
			nci = nci || in->rd->cpus[i].have_nci;
		fprintf(o, "%s{statistics=\"rcudata\"} %d\n", n, in->rd != NULL);
		fprintf(o, "%s{statistics=\"separate_accounting\"} %d\n", n, nci);
		fprintf(o, "%s{statistics=\"runtime_offload\"} %d\n", n,
			in->runtime_offload);
		break;
	case PF_LAST_SUCCESS:
		fprintf(o, "%s %.3f\n", n, in->now);
		break;
	default:
		break;
	}
}

int stats_print_prometheus(struct nocb_ctx *ctx, const struct prom_input *in,
			   const struct cpulist *filter)
{
	unsigned *own = calloc(NOCB_MAX_CPUS, sizeof(*own));
	unsigned *misplaced = calloc(NOCB_MAX_CPUS, sizeof(*misplaced));
	struct cpulist offloaded, bad;
	int cpu;

	if (!own || !misplaced) {
		free(own);
		free(misplaced);
		return -1;
	}
	/* the kernel's view of offloading: rcudata N flags, as status */
	offloaded = *in->offloaded;
	if (in->rd) {
		cpulist_clear(&offloaded);
		for (size_t i = 0; i < in->rd->n; i++)
			if (in->rd->cpus[i].offloaded)
				cpulist_set(&offloaded, in->rd->cpus[i].cpu);
	}
	for (size_t i = 0; i < in->kl->n; i++) {
		const struct kthread *kt = &in->kl->v[i];

		if (offload_kthread_on_own_cpu(kt, &offloaded))
			own[kt->cpu]++;
		if (!placement_safe(in->rule, &kt->allowed, &bad))
			cpulist_for_each(cpu, &bad)
				misplaced[cpu]++;
	}
	for (int f = 0; f < PF_N; f++) {
		if (prom_families[f].rcudata && !in->rd)
			continue;
		fprintf(ctx->out, "# HELP %s %s\n# TYPE %s %s\n",
			prom_families[f].name, prom_families[f].help,
			prom_families[f].name, prom_families[f].type);
		if (!prom_families[f].per_cpu) {
			prom_host(ctx->out, (enum prom_family)f, in);
		} else if (in->rd && f != PF_MISPLACED) {
			/* the CPUs rcudata lists, as before */
			for (size_t i = 0; i < in->rd->n; i++) {
				cpu = in->rd->cpus[i].cpu;
				if (!filter || cpulist_test(filter, cpu))
					prom_cpu(ctx->out, (enum prom_family)f,
						 cpu, &in->rd->cpus[i], in,
						 own, misplaced);
			}
		} else {
			cpulist_for_each(cpu, in->possible)
				if (!filter || cpulist_test(filter, cpu))
					prom_cpu(ctx->out, (enum prom_family)f,
						 cpu, NULL, in, own, misplaced);
		}
	}
	free(own);
	free(misplaced);
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

enum stats_format { FMT_TEXT, FMT_JSON, FMT_PROMETHEUS, FMT_SUMMARY };

/*
 * One line for the CPUs of cur (in filter): what a periodic log needs,
 * where a line per CPU per minute would flood the journal of a big host.
 */
static void summary(FILE *o, const struct rcudata *cur,
		    const struct cpulist *filter)
{
	unsigned long ci = 0, nci = 0;
	long ql = 0, ql_off = 0, max_ql = -1;
	int ncpu = 0, max_cpu = -1;
	bool have_nci = false;
	struct cpulist off;
	char *l;

	cpulist_clear(&off);
	for (size_t i = 0; i < cur->n; i++) {
		const struct rcudata_cpu *c = &cur->cpus[i];

		if (filter && !cpulist_test(filter, c->cpu))
			continue;
		ncpu++;
		ql += c->total;
		ci += c->ci;
		nci += c->nci;
		have_nci = have_nci || c->have_nci;
		if (c->offloaded) {
			cpulist_set(&off, c->cpu);
			ql_off += c->total;
		}
		if (c->total > max_ql) {
			max_ql = c->total;
			max_cpu = c->cpu;
		}
	}
	l = cpulist_format_alloc(&off);
	fprintf(o, "cpus=%d offloaded=%s ql=%ld ql_offloaded=%ld ci=%lu",
		ncpu, l && l[0] ? l : "-", ql, ql_off, ci);
	free(l);
	if (have_nci)
		fprintf(o, " nci=%lu", nci);
	if (max_cpu >= 0)
		fprintf(o, " max_ql=%ld max_ql_cpu=%d", max_ql, max_cpu);
	fputc('\n', o);
}

/*
 * One Prometheus exposition (for --cpus, filter). Without rcudata (a
 * stock kernel) the placement metrics still come out.
 */
static int prometheus(struct nocb_ctx *ctx, const struct cpu_state *cs,
		      const struct cpulist *filter)
{
	struct placement_rule rule;
	struct offload_info oi;
	struct kthread_list kl;
	struct timespec ts;
	int r = 0;

	offload_read(ctx, cs, &oi);
	switch (oi.rd_status) {
	case RCUDATA_OK:
	case RCUDATA_ABSENT:
		break;
	case RCUDATA_DENIED:
		nocb_err(ctx, "stats", "%s (reading debugfs needs root)",
			 oi.rd_err);
		offload_free(&oi);
		return NOCB_EXIT_PRIV;
	default:
		nocb_err(ctx, "stats", "%s", oi.rd_err);
		offload_free(&oi);
		return NOCB_EXIT_FAIL;
	}
	if (proc_scan_kthreads(ctx, "stats", KT_ALL, cs->nbits, &kl)) {
		offload_free(&oi);
		return NOCB_EXIT_FAIL;
	}
	placement_rule_now(&rule, cs, &oi);
	clock_gettime(CLOCK_REALTIME, &ts);
	/* an unreadable kthread would make the gauges too low: no guess */
	if (kl.failed)
		r = NOCB_EXIT_FAIL;
	else if (stats_print_prometheus(ctx, &(struct prom_input){
			.rd = oi.rd_status == RCUDATA_OK ? &oi.rd : NULL,
			.possible = &cs->possible, .offloaded = &oi.offloaded,
			.rule = &rule, .kl = &kl,
			.runtime_offload = oi.source == OFFLOAD_SYSFS,
			.now = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 },
			filter)) {
		nocb_err(ctx, "stats", "out of memory");
		r = NOCB_EXIT_FAIL;
	}
	kthread_list_free(&kl);
	offload_free(&oi);
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
	    (cpulist_parse_arg(cpus_arg, cs.nbits, &filter, err, sizeof(err)) ||
	     cpulist_validate(&filter, &cs.possible, NULL, err, sizeof(err)))) {
		nocb_err(ctx, "stats", "--cpus=%s: %s", cpus_arg, err);
		return NOCB_EXIT_USAGE;
	}
	if (fmt == FMT_PROMETHEUS)
		return prometheus(ctx, &cs, cpus_arg ? &filter : NULL);
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
	if (fmt == FMT_SUMMARY)
		summary(ctx->out, &cur, cpus_arg ? &filter : NULL);
	else
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
		} else if (fmt != FMT_SUMMARY) {
			fprintf(ctx->out, "\n");
		}
		if (fmt == FMT_SUMMARY)
			summary(ctx->out, &cur, cpus_arg ? &filter : NULL);
		else
			stats_print_sample(ctx, ctx->json ? &j : NULL, &prev,
					   &cur, cpus_arg ? &filter : NULL,
					   t - tprev);
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
		[FMT_PROMETHEUS] = "prometheus", [FMT_SUMMARY] = "summary",
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

		while (f <= FMT_SUMMARY && strcmp(fmt_arg, formats[f]))
			f++;
		if (f > FMT_SUMMARY) {
			nocb_err(ctx, "stats",
				 "--format=%s: expected text, json, prometheus or summary",
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
