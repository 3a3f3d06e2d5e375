// SPDX-License-Identifier: GPL-2.0
/* cmd_status.c - "nocbctl status": what the kernel does with RCU callbacks. */
#define _GNU_SOURCE
#include "verbs.h"
#include "offload.h"
#include "placement.h"
#include "proc.h"
#include "sysfs.h"

#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void status_help(FILE *f)
{
	fputs("\nUsage:\n"
	      " nocbctl status\n"
	      "\nShow the kernel release and which nocb features it has, offloaded\n"
	      "(no-CBs) and normal CPUs, online/offline CPUs, polling mode, every\n"
	      "offload kthread, and\n"
	      "warnings about misconfigurations.\n"
	      "\nOptions:\n"
	      " -h, --help   display this help\n"
	      "\nFor more details see nocbctl(8).\n", f);
}

struct feature {
	const char *id, *title;
	const char *state;	/* present | absent | unknown */
	char how[600];
};

/* As many as there are: one per misconfigured thread, none dropped. */
struct warnings {
	size_t n, cap;
	char **msg;
	bool oom;
};

static void warn(struct warnings *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void warn(struct warnings *w, const char *fmt, ...)
{
	va_list ap;
	char *m;
	int r;

	if (w->n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 16;
		char **v = realloc(w->msg, cap * sizeof(*v));

		if (!v) {
			w->oom = true;
			return;
		}
		w->msg = v;
		w->cap = cap;
	}
	va_start(ap, fmt);
	r = vasprintf(&m, fmt, ap);
	va_end(ap);
	if (r < 0)
		w->oom = true;
	else
		w->msg[w->n++] = m;
}

/*
 * A CPU list for printing, malloc'd (free() it); NULL only on ENOMEM,
 * which *oom records so that the verb fails instead of printing less.
 */
static char *list(const struct cpulist *s, bool *oom)
{
	char *p = cpulist_format_alloc(s);

	if (!p)
		*oom = true;
	return p;
}

/* The running kernel's release (osrelease, under --root), malloc'd, or NULL. */
static char *kernel_release(const struct nocb_ctx *ctx)
{
	char path[PATH_MAX], *buf;
	size_t len;

	if (nocb_path(ctx, path, sizeof(path), "/proc/sys/kernel/osrelease") ||
	    nocb_read_file(path, &buf, &len))
		return NULL;
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* K1-K4 of the series, and K6 (runtime offload) as the fifth */
#define NFEAT 5

static void features(const struct offload_info *oi, struct feature f[NFEAT])
{
	static const char *const ids[NFEAT] = { "K1", "K2", "K3", "K4", "K6" };
	static const char *const titles[NFEAT] = {
		"separate accounting (nci=)", "debugfs rcudata",
		"last normal CPU stays online", "CPU 0 is never offloaded",
		"runtime offload (rcu_nocbs)",
	};

	for (int i = 0; i < NFEAT; i++) {
		f[i].id = ids[i];
		f[i].title = titles[i];
		f[i].state = "unknown";
		f[i].how[0] = '\0';
	}
	switch (oi->rd_status) {
	case RCUDATA_OK: {
		bool nci = oi->rd.n > 0;
		const struct rcudata_cpu *c0 = rcudata_find(&oi->rd, 0);

		for (size_t i = 0; i < oi->rd.n; i++)
			nci = nci && oi->rd.cpus[i].have_nci;
		f[0].state = nci ? "present" : "absent";
		snprintf(f[0].how, sizeof(f[0].how), "rcudata %s nci=",
			 nci ? "has" : "lacks");
		f[1].state = "present";
		snprintf(f[1].how, sizeof(f[1].how), "%s readable",
			 RCUDATA_PATH);
		f[2].state = "present";
		snprintf(f[2].how, sizeof(f[2].how),
			 "inferred: rcudata means the patched kernel; hotplug-check confirms");
		if (c0 && c0->offloaded) {
			f[3].state = "absent";
			snprintf(f[3].how, sizeof(f[3].how),
				 "rcudata shows CPU 0 offloaded");
		} else if (cpulist_test(&oi->nocbs, 0)) {
			f[3].state = "present";
			snprintf(f[3].how, sizeof(f[3].how),
				 "rcu_nocbs= names CPU 0 but rcudata shows it normal");
		} else {
			f[3].state = "present";
			snprintf(f[3].how, sizeof(f[3].how),
				 "inferred: rcudata means the patched kernel");
		}
		break;
	}
	case RCUDATA_ABSENT:
		f[0].state = f[1].state = "absent";
		snprintf(f[0].how, sizeof(f[0].how), "no rcudata");
		snprintf(f[1].how, sizeof(f[1].how), "%s", oi->rd_err);
		if (oi->no_debugfs) {
			/* with K6 the series is there; without it, no telling */
			bool k6 = oi->source == OFFLOAD_SYSFS;

			snprintf(f[1].how, sizeof(f[1].how),
				 "no debugfs in this kernel (CONFIG_DEBUG_FS=n)");
			for (int i = 0; i < 4; i++) {
				if (i == 1)
					continue;
				f[i].state = k6 ? "present" : "unknown";
				if (k6)
					snprintf(f[i].how, sizeof(f[i].how),
						 "inferred: %s means the patched kernel%s",
						 RCU_NOCBS_PATH,
						 i ? "" : "; nci= unreadable without debugfs");
				else
					snprintf(f[i].how, sizeof(f[i].how),
						 "no debugfs and no %s: cannot tell",
						 RCU_NOCBS_PATH);
			}
		} else if (oi->debugfs) {
			/* only the series has rcudata: a kernel without it */
			f[2].state = f[3].state = "absent";
			snprintf(f[2].how, sizeof(f[2].how),
				 "no rcudata with debugfs mounted: a kernel without the series; hotplug-check --force shows it");
			snprintf(f[3].how, sizeof(f[3].how),
				 "no rcudata with debugfs mounted: a kernel without the series; rcu_nocbs= can offload CPU 0");
		} else {
			snprintf(f[2].how, sizeof(f[2].how),
				 "no rcudata: probably an unpatched kernel (debugfs not mounted)");
			snprintf(f[3].how, sizeof(f[3].how),
				 "no rcudata: probably an unpatched kernel (debugfs not mounted)");
		}
		break;
	default:
		for (int i = 0; i < 4; i++)
			snprintf(f[i].how, sizeof(f[i].how), "%s", oi->rd_err);
	}
	f[4].state = oi->source == OFFLOAD_SYSFS ? "present" : "absent";
	snprintf(f[4].how, sizeof(f[4].how), "%s %s", RCU_NOCBS_PATH,
		 oi->source == OFFLOAD_SYSFS ? "readable" : "missing");
}

static void add_warnings(const struct cpu_state *cs,
			 const struct offload_info *oi,
			 const struct kthread_list *kl, const struct feature f[NFEAT],
			 struct warnings *w)
{
	struct placement_rule rule;
	struct cpulist bad, quiet;
	char feat[256] = "", why[256];
	int absent = 0;
	char *b;

	placement_rule_now(&rule, cs, oi);
	for (size_t i = 0; i < kl->n; i++) {
		const struct kthread *kt = &kl->v[i];
		bool own = offload_kthread_on_own_cpu(kt, &oi->offloaded);

		if (placement_safe(&rule, &kt->allowed, &bad))
			continue;
		placement_why(&rule, &bad, why, sizeof(why));
		if (own)
			cpulist_unset(&bad, kt->cpu);
		b = list(&bad, &w->oom);
		if (own && !cpulist_empty(&bad))
			warn(w, "%s (pid %d) may run on CPU %d, which it offloads, and on CPUs %s (%s)",
			     kt->name, (int)kt->pid, kt->cpu, b ? b : "?", why);
		else if (own)
			warn(w, "%s (pid %d) may run on CPU %d, which it offloads",
			     kt->name, (int)kt->pid, kt->cpu);
		else
			warn(w, "%s (pid %d) is allowed on CPUs %s (%s)",
			     kt->name, (int)kt->pid, b ? b : "?", why);
		free(b);
	}
	cpulist_or(&quiet, &rule.isolated, &rule.nohz_full);
	cpulist_andnot(&bad, &quiet, &oi->offloaded);
	cpulist_andnot(&bad, &bad, &oi->pending_offloaded);
	if (oi->source != OFFLOAD_UNKNOWN && !cpulist_empty(&bad)) {
		b = list(&bad, &w->oom);
		warn(w, "isolated or nohz_full CPUs %s are not offloaded",
		     b ? b : "?");
		free(b);
	}
	for (int i = 0; i < 4; i++) {
		size_t l = strlen(feat);

		/* 4 short entries: feat cannot fill up */
		if (!strcmp(f[i].state, "present") || l + 20 >= sizeof(feat))
			continue;
		snprintf(feat + l, sizeof(feat) - l, "%s%s %s",
			 absent ? ", " : "", f[i].id, f[i].state);
		absent++;
	}
	if (absent)
		warn(w, "kernel support incomplete: %s (%s)", feat,
		     oi->rd_status == RCUDATA_OK ? "see Kernel support" :
		     oi->rd_err);
	if (oi->rd_status == RCUDATA_MALFORMED)
		warn(w, "rcudata unparsable: %s", oi->rd_err);
	if (oi->nocbs_warning)
		warn(w, "%s", oi->nocbs_warning);
	if (oi->nohz_warning)
		warn(w, "%s", oi->nohz_warning);
	if (!cpulist_empty(&oi->offloaded) && kl->n == 0)
		warn(w, "CPUs are offloaded but no rcuo kthreads were found");
}

/* Normal CPUs: neither offloaded nor still to be seen by the kernel. */
static void normal_cpus(const struct cpu_state *cs,
			const struct offload_info *oi, struct cpulist *normal)
{
	cpulist_andnot(normal, &cs->possible, &oi->offloaded);
	cpulist_andnot(normal, normal, &oi->pending_offloaded);
	cpulist_andnot(normal, normal, &oi->pending_normal);
	cpulist_andnot(normal, normal, &oi->unknown);
}

static void print_text(struct nocb_ctx *ctx, const struct cpu_state *cs,
		       const struct offload_info *oi,
		       const struct kthread_list *kl, const struct feature f[NFEAT],
		       struct warnings *w)
{
	FILE *o = ctx->out;
	struct cpulist normal, now;
	char *buf;

	buf = kernel_release(ctx);
	fprintf(o, "Kernel:      %s\n", buf ? buf : "unknown (no /proc/sys/kernel/osrelease)");
	free(buf);
	fputs("Kernel support:\n", o);
	for (int i = 0; i < NFEAT; i++)
		fprintf(o, "  %s %-30s %-8s (%s)\n", f[i].id, f[i].title,
			f[i].state, f[i].how);
	fputs("CPUs:\n", o);
#define PENDING(set, what) \
	do { if (cpulist_empty(set)) break; \
	     buf = list((set), &w->oom); \
	     fprintf(o, "  %-10s %s %s per the boot command line (rcu_nocbs=, nohz_full=), not yet confirmed by the kernel: no rcudata line, not online since boot\n", \
		     "pending:", buf ? buf : "?", what); \
	     free(buf); } while (0)
#define LINE(label, set) \
	do { buf = list((set), &w->oom); \
	     fprintf(o, "  %-10s %s\n", label, buf && buf[0] ? buf : "-"); \
	     free(buf); } while (0)
	LINE("possible:", &cs->possible);
	LINE("online:", &cs->online);
	LINE("offline:", &cs->offline);
	buf = list(&oi->offloaded, &w->oom);
	fprintf(o, "  %-10s %s (source: %s)\n", "offloaded:",
		buf && buf[0] ? buf : "-",
		oi->source == OFFLOAD_SYSFS ? RCU_NOCBS_PATH :
		oi->source == OFFLOAD_RCUDATA ? "rcudata N flags" :
		oi->source == OFFLOAD_CMDLINE ?
		"boot command line rcu_nocbs=/nohz_full=, rcudata unavailable" :
		"unknown");
	free(buf);
	/*
	 * changed at run time (K6) since the command line set it; a CPU
	 * not yet online (pending) is as the command line left it
	 */
	cpulist_or(&now, &oi->offloaded, &oi->pending_offloaded);
	if (oi->kc.have && !cpulist_equal(&oi->boot, &now)) {
		buf = list(&oi->boot, &w->oom);
		fprintf(o, "  %-10s %s (boot command line; changed since)\n",
			"at boot:", buf && buf[0] ? buf : "-");
		free(buf);
	}
	normal_cpus(cs, oi, &normal);
	LINE("normal:", &normal);
	PENDING(&oi->pending_offloaded, "offloaded");
	PENDING(&oi->pending_normal, "normal");
	if (!cpulist_empty(&oi->unknown)) {
		buf = list(&oi->unknown, &w->oom);
		fprintf(o, "  %-10s %s (no rcudata line: not online since boot; no /proc/cmdline to tell what it will be)\n",
			"unknown:", buf ? buf : "?");
		free(buf);
	}
	if (cs->have_isolated)
		LINE("isolated:", &cs->isolated);
	if (cs->have_nohz_full)
		LINE("nohz_full:", &cs->nohz_full);
	if (cs->have_partition)
		LINE("partition:", &cs->partition);
#undef LINE
#undef PENDING
	fprintf(o, "Polling:     %s\n", oi->poll ? "on (rcu_nocb_poll)" :
		oi->kc.have ? "off" : "unknown (no /proc/cmdline)");
	fprintf(o, "Offload kthreads: %zu\n", kl->n);
	if (kl->n)
		fprintf(o, "  %-7s %-10s %-5s %-9s %-12s %s\n", "PID", "NAME",
			"CPU", "OFFLOADED", "ALLOWED", "SCHED");
	for (size_t i = 0; i < kl->n; i++) {
		const struct kthread *kt = &kl->v[i];

		buf = list(&kt->allowed, &w->oom);
		fprintf(o, "  %-7d %-10s %-5d %-9s %-12s %s", (int)kt->pid,
			kt->name, kt->cpu,
			cpulist_test(&oi->offloaded, kt->cpu) ? "yes" : "no",
			buf ? buf : "?", sched_policy_name(kt->policy));
		free(buf);
		if (kt->policy == SCHED_FIFO || kt->policy == SCHED_RR)
			fprintf(o, ":%d\n", kt->rt_priority);
		else
			fprintf(o, " nice %d\n", kt->nice);
	}
	if (w->n) {
		fputs("Warnings:\n", o);
		for (size_t i = 0; i < w->n; i++)
			fprintf(o, "  warning: %s\n", w->msg[i]);
	}
}

static void print_json(struct nocb_ctx *ctx, const struct cpu_state *cs,
		       const struct offload_info *oi,
		       const struct kthread_list *kl, const struct feature f[NFEAT],
		       struct warnings *w)
{
	static const char *const rdst[] = { "ok", "absent", "unreadable",
					    "malformed", "denied" };
	struct json j;
	struct cpulist normal;
	char *buf;

	json_init(&j, ctx->out);
	json_obj_begin(&j);
	json_kstr(&j, "command", "status");
	buf = kernel_release(ctx);
	json_key(&j, "release");
	json_str(&j, buf);
	free(buf);
	json_key(&j, "kernel");
	json_obj_begin(&j);
	for (int i = 0; i < NFEAT; i++) {
		json_key(&j, f[i].id);
		json_obj_begin(&j);
		json_kstr(&j, "feature", f[i].title);
		json_kstr(&j, "state", f[i].state);
		json_kstr(&j, "how", f[i].how);
		json_obj_end(&j);
	}
	json_obj_end(&j);
	json_key(&j, "rcudata");
	json_obj_begin(&j);
	json_kstr(&j, "status", rdst[oi->rd_status]);
	json_key(&j, "error");
	json_str(&j, oi->rd_status == RCUDATA_OK ? NULL : oi->rd_err);
	json_obj_end(&j);
	json_key(&j, "cpus");
	json_obj_begin(&j);
#define KLIST(k, set) \
	do { buf = list((set), &w->oom); json_kstr(&j, k, buf ? buf : "?"); \
	     free(buf); } while (0)
	KLIST("possible", &cs->possible);
	KLIST("online", &cs->online);
	KLIST("offline", &cs->offline);
	KLIST("offloaded", &oi->offloaded);
	json_kstr(&j, "offloaded_source", offload_source_name(oi->source));
	if (oi->kc.have) {
		KLIST("offloaded_at_boot", &oi->boot);
	} else {
		json_key(&j, "offloaded_at_boot");
		json_null(&j);
	}
	normal_cpus(cs, oi, &normal);
	KLIST("normal", &normal);
	KLIST("pending_offloaded", &oi->pending_offloaded);
	KLIST("pending_normal", &oi->pending_normal);
	KLIST("unknown", &oi->unknown);
	KLIST("isolated", &cs->isolated);
	KLIST("nohz_full", &cs->nohz_full);
	if (cs->have_partition)
		KLIST("isolated_partitions", &cs->partition);
#undef KLIST
	json_obj_end(&j);
	json_key(&j, "polling");
	if (oi->kc.have)
		json_bool(&j, oi->poll);
	else
		json_null(&j);
	json_key(&j, "kthreads");
	json_arr_begin(&j);
	for (size_t i = 0; i < kl->n; i++) {
		const struct kthread *kt = &kl->v[i];

		json_obj_begin(&j);
		json_kint(&j, "pid", kt->pid);
		json_kstr(&j, "name", kt->name);
		json_kint(&j, "cpu", kt->cpu);
		json_kbool(&j, "cpu_offloaded",
			   cpulist_test(&oi->offloaded, kt->cpu));
		buf = list(&kt->allowed, &w->oom);
		json_kstr(&j, "allowed", buf ? buf : "?");
		free(buf);
		json_kstr(&j, "policy", sched_policy_name(kt->policy));
		json_kint(&j, "priority", kt->rt_priority);
		json_kint(&j, "nice", kt->nice);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_key(&j, "warnings");
	json_arr_begin(&j);
	for (size_t i = 0; i < w->n; i++)
		json_str(&j, w->msg[i]);
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

int cmd_status(struct nocb_ctx *ctx, int argc, char **argv)
{
	struct verb_args a;
	struct cpu_state cs;
	struct offload_info *oi;
	struct kthread_list kl;
	bool failed;
	struct feature f[NFEAT];
	struct warnings w = { 0 };
	int c, rc = NOCB_EXIT_OK;

	c = verb_parse(ctx, "status", 0, status_help, argc, argv, &a);
	if (c != VERB_PARSED)
		return c;
	if (a.nargs) {
		nocb_err(ctx, "status", "unexpected argument '%s'", a.args[0]);
		return NOCB_EXIT_USAGE;
	}
	if (sysfs_read_cpus(ctx, "status", &cs))
		return NOCB_EXIT_FAIL;
	oi = malloc(sizeof(*oi));
	if (!oi) {
		nocb_err(ctx, "status", "out of memory");
		return NOCB_EXIT_FAIL;
	}
	offload_read(ctx, &cs, oi);
	if (proc_scan_kthreads(ctx, "status", KT_ALL, cs.nbits, &kl)) {
		offload_free(oi);
		free(oi);
		return NOCB_EXIT_FAIL;
	}
	features(oi, f);
	add_warnings(&cs, oi, &kl, f, &w);
	if (ctx->json)
		print_json(ctx, &cs, oi, &kl, f, &w);
	else
		print_text(ctx, &cs, oi, &kl, f, &w);
	if (w.oom) {
		nocb_err(ctx, "status", "out of memory: output incomplete");
		rc = NOCB_EXIT_FAIL;
	}
	for (size_t i = 0; i < w.n; i++)
		free(w.msg[i]);
	free(w.msg);
	failed = kl.failed != 0;
	kthread_list_free(&kl);
	offload_free(oi);
	free(oi);
	/* a kthread whose /proc entry was unreadable: the report is short */
	return failed ? NOCB_EXIT_FAIL : rc;
}
