// SPDX-License-Identifier: GPL-2.0
/* cmd_status.c - "nocbctl status": what the kernel does with RCU callbacks. */
#define _GNU_SOURCE
#include "verbs.h"
#include "offload.h"
#include "proc.h"
#include "sysfs.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void status_help(FILE *f)
{
	fputs("\nUsage:\n"
	      " nocbctl status\n"
	      "\nShow kernel support (K1-K4), offloaded (no-CBs) and normal CPUs,\n"
	      "online/offline CPUs, polling mode, every offload kthread, and\n"
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

#define MAX_WARN 64

struct warnings {
	int n;
	char *msg[MAX_WARN];
};

static void warn(struct warnings *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void warn(struct warnings *w, const char *fmt, ...)
{
	va_list ap;

	if (w->n >= MAX_WARN)
		return;
	va_start(ap, fmt);
	if (vasprintf(&w->msg[w->n], fmt, ap) >= 0)
		w->n++;
	va_end(ap);
}

static void features(const struct offload_info *oi, struct feature f[4])
{
	static const char *const ids[4] = { "K1", "K2", "K3", "K4" };
	static const char *const titles[4] = {
		"separate accounting (nci=)", "debugfs rcudata",
		"last normal CPU stays online", "CPU 0 is never offloaded",
	};

	for (int i = 0; i < 4; i++) {
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
		} else if (oi->kc.rcu_nocbs && cpulist_test(&oi->kc.nocbs, 0)) {
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
		snprintf(f[2].how, sizeof(f[2].how),
			 "no rcudata: probably an unpatched kernel");
		snprintf(f[3].how, sizeof(f[3].how),
			 "no rcudata: probably an unpatched kernel");
		break;
	default:
		for (int i = 0; i < 4; i++)
			snprintf(f[i].how, sizeof(f[i].how), "%s", oi->rd_err);
	}
}

static void add_warnings(const struct cpu_state *cs,
			 const struct offload_info *oi,
			 const struct kthread_list *kl, const struct feature f[4],
			 struct warnings *w)
{
	struct cpulist bad, quiet;
	char list[256] = "";
	int absent = 0;

	for (size_t i = 0; i < kl->n; i++) {
		const struct kthread *kt = &kl->v[i];

		if (cpulist_test(&oi->offloaded, kt->cpu) &&
		    cpulist_test(&kt->allowed, kt->cpu))
			warn(w, "%s (pid %d) may run on CPU %d, which it offloads",
			     kt->name, (int)kt->pid, kt->cpu);
	}
	cpulist_or(&quiet, &cs->isolated, &cs->nohz_full);
	cpulist_andnot(&bad, &quiet, &oi->offloaded);
	if (oi->source != OFFLOAD_UNKNOWN && !cpulist_empty(&bad)) {
		char b[256];

		cpulist_format(&bad, b, sizeof(b));
		warn(w, "isolated or nohz_full CPUs %s are not offloaded", b);
	}
	for (int i = 0; i < 4; i++) {
		size_t l = strlen(list);

		if (!strcmp(f[i].state, "present") || l + 20 >= sizeof(list))
			continue;
		snprintf(list + l, sizeof(list) - l, "%s%s %s",
			 absent ? ", " : "", f[i].id, f[i].state);
		absent++;
	}
	if (absent)
		warn(w, "kernel support incomplete: %s (%s)", list,
		     oi->rd_status == RCUDATA_OK ? "see Kernel support" :
		     oi->rd_err);
	if (oi->rd_status == RCUDATA_MALFORMED)
		warn(w, "rcudata unparsable: %s", oi->rd_err);
	if (oi->source == OFFLOAD_CMDLINE && (oi->kc.nocbs_bad || oi->kc.nohz_bad))
		warn(w, "cannot parse rcu_nocbs=/nohz_full= on the command line");
	if (!cpulist_empty(&oi->offloaded) && kl->n == 0)
		warn(w, "CPUs are offloaded but no rcuo kthreads were found");
}

static void print_text(struct nocb_ctx *ctx, const struct cpu_state *cs,
		       const struct offload_info *oi,
		       const struct kthread_list *kl, const struct feature f[4],
		       const struct warnings *w)
{
	FILE *o = ctx->out;
	struct cpulist normal;
	char buf[1024];

	fputs("Kernel support:\n", o);
	for (int i = 0; i < 4; i++)
		fprintf(o, "  %s %-30s %-8s (%s)\n", f[i].id, f[i].title,
			f[i].state, f[i].how);
	fputs("CPUs:\n", o);
#define LINE(label, set) \
	do { cpulist_format((set), buf, sizeof(buf)); \
	     fprintf(o, "  %-10s %s\n", label, buf[0] ? buf : "-"); } while (0)
	LINE("possible:", &cs->possible);
	LINE("online:", &cs->online);
	LINE("offline:", &cs->offline);
	cpulist_format(&oi->offloaded, buf, sizeof(buf));
	fprintf(o, "  %-10s %s (source: %s)\n", "offloaded:", buf[0] ? buf : "-",
		oi->source == OFFLOAD_RCUDATA ? "rcudata N flags" :
		oi->source == OFFLOAD_CMDLINE ?
		"boot command line rcu_nocbs=/nohz_full=, rcudata unavailable" :
		"unknown");
	cpulist_andnot(&normal, &cs->possible, &oi->offloaded);
	LINE("normal:", &normal);
	if (cs->have_isolated)
		LINE("isolated:", &cs->isolated);
	if (cs->have_nohz_full)
		LINE("nohz_full:", &cs->nohz_full);
#undef LINE
	fprintf(o, "Polling:     %s\n", oi->poll ? "on (rcu_nocb_poll)" :
		oi->kc.have ? "off" : "unknown (no /proc/cmdline)");
	fprintf(o, "Offload kthreads: %zu\n", kl->n);
	if (kl->n)
		fprintf(o, "  %-7s %-10s %-5s %-9s %-12s %s\n", "PID", "NAME",
			"CPU", "OFFLOADED", "ALLOWED", "SCHED");
	for (size_t i = 0; i < kl->n; i++) {
		const struct kthread *kt = &kl->v[i];

		cpulist_format(&kt->allowed, buf, sizeof(buf));
		fprintf(o, "  %-7d %-10s %-5d %-9s %-12s %s", (int)kt->pid,
			kt->name, kt->cpu,
			cpulist_test(&oi->offloaded, kt->cpu) ? "yes" : "no",
			buf, sched_policy_name(kt->policy));
		if (kt->policy == 1 || kt->policy == 2)
			fprintf(o, ":%d\n", kt->rt_priority);
		else
			fprintf(o, " nice %d\n", kt->nice);
	}
	if (w->n) {
		fputs("Warnings:\n", o);
		for (int i = 0; i < w->n; i++)
			fprintf(o, "  warning: %s\n", w->msg[i]);
	}
}

static void print_json(struct nocb_ctx *ctx, const struct cpu_state *cs,
		       const struct offload_info *oi,
		       const struct kthread_list *kl, const struct feature f[4],
		       const struct warnings *w)
{
	static const char *const rdst[] = { "ok", "absent", "unreadable",
					    "malformed", "denied" };
	struct json j;
	struct cpulist normal;
	char buf[1024];

	json_init(&j, ctx->out);
	json_obj_begin(&j);
	json_kstr(&j, "command", "status");
	json_key(&j, "kernel");
	json_obj_begin(&j);
	for (int i = 0; i < 4; i++) {
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
	do { cpulist_format((set), buf, sizeof(buf)); json_kstr(&j, k, buf); } \
	while (0)
	KLIST("possible", &cs->possible);
	KLIST("online", &cs->online);
	KLIST("offline", &cs->offline);
	KLIST("offloaded", &oi->offloaded);
	json_kstr(&j, "offloaded_source", offload_source_name(oi->source));
	cpulist_andnot(&normal, &cs->possible, &oi->offloaded);
	KLIST("normal", &normal);
	KLIST("isolated", &cs->isolated);
	KLIST("nohz_full", &cs->nohz_full);
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
		cpulist_format(&kt->allowed, buf, sizeof(buf));
		json_kstr(&j, "allowed", buf);
		json_kstr(&j, "policy", sched_policy_name(kt->policy));
		json_kint(&j, "priority", kt->rt_priority);
		json_kint(&j, "nice", kt->nice);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_key(&j, "warnings");
	json_arr_begin(&j);
	for (int i = 0; i < w->n; i++)
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
	struct feature f[4];
	struct warnings w = { 0 };
	int c;

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
	for (int i = 0; i < w.n; i++)
		free(w.msg[i]);
	failed = kl.failed != 0;
	kthread_list_free(&kl);
	offload_free(oi);
	free(oi);
	/* a kthread whose /proc entry was unreadable: the report is short */
	return failed ? NOCB_EXIT_FAIL : NOCB_EXIT_OK;
}
