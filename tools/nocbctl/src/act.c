// SPDX-License-Identifier: GPL-2.0
/* act.c - pin and prio actions on offload kthreads (see act.h). */
#define _GNU_SOURCE
#include "act.h"
#include "placement.h"
#include "proc.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_name(unsigned kind)
{
	switch (kind) {
	case KT_RCUOG: return "rcuog";
	case KT_RCUOP: return "rcuop";
	case KT_RCUOS: return "rcuos";
	case KT_RCUOB: return "rcuob";
	default: return "?";
	}
}

/* One thread's outcome, as text or JSON. */
static void report(struct nocb_ctx *ctx, struct json *j,
		   const struct kthread *kt, const char *result,
		   const char *before, const char *after, const char *error)
{
	if (j) {
		json_obj_begin(j);
		json_kint(j, "pid", kt->pid);
		json_kstr(j, "name", kt->name);
		json_kstr(j, "kind", kind_name(kt->kind));
		json_kint(j, "cpu", kt->cpu);
		/* JSON uses "would-change" (no space) */
		json_kstr(j, "result", strcmp(result, "would change") ?
				       result : "would-change");
		json_kstr(j, "before", before);
		json_kstr(j, "after", after);
		json_key(j, "error");
		json_str(j, error);
		json_obj_end(j);
		return;
	}
	fprintf(ctx->out, "%-10s pid %-7d %s", kt->name, (int)kt->pid, result);
	if (error)
		fprintf(ctx->out, ": %s", error);
	else if (strcmp(result, "unchanged") == 0)
		fprintf(ctx->out, " (%s)", before);
	else
		fprintf(ctx->out, " (%s -> %s)", before, after);
	fputc('\n', ctx->out);
}

static void tally(struct act_result *res, int r, bool changed, bool dry)
{
	if (r == -ESRCH)
		res->vanished++;
	else if (r)
		res->failed++;
	else if (!changed)
		res->unchanged++;
	else if (dry)
		res->would_change++;
	else
		res->changed++;
}

static const char *result_word(int r, bool changed, bool dry)
{
	if (r == -ESRCH)
		return "vanished";
	if (r)
		return "failed";
	if (!changed)
		return "unchanged";
	return dry ? "would change" : "changed";
}

/*
 * The scan and the change are apart in time: the thread may have exited
 * and its pid been reused. Re-check it right before each change.
 */
static int checked_affinity(struct nocb_ctx *ctx, const struct kthread *kt,
			    const struct cpulist *want)
{
	int r = proc_recheck_kthread(ctx, kt);

	return r ? r : ctx->ops->set_affinity(kt->pid, want);
}

static int checked_scheduler(struct nocb_ctx *ctx, const struct kthread *kt,
			     int policy, int priority)
{
	int r = proc_recheck_kthread(ctx, kt);

	return r ? r : ctx->ops->set_scheduler(kt->pid, policy, priority);
}

static int checked_nice(struct nocb_ctx *ctx, const struct kthread *kt,
			int nice)
{
	int r = proc_recheck_kthread(ctx, kt);

	return r ? r : ctx->ops->set_nice(kt->pid, nice);
}

int act_pin(struct nocb_ctx *ctx, const char *what, unsigned kinds,
	    const struct pin_target *t, bool dry_run, int nbits,
	    struct json *j, struct act_result *res)
{
	struct kthread_list kl;

	memset(res, 0, sizeof(*res));
	if (proc_scan_kthreads(ctx, what, kinds, nbits, &kl))
		return -1;
	res->failed = (int)kl.failed;	/* unreadable, reported by the scan */
	for (size_t i = 0; i < kl.n; i++) {
		const struct kthread *kt = &kl.v[i];
		const struct cpulist *want =
			kt->kind == KT_RCUOG ? t->rcuog : t->rcuop;
		char *before, *after;
		bool changed;
		int r = 0;

		if (!want)
			continue;
		/* whole lists, however long: 4096 scattered CPUs are 9 KiB */
		before = cpulist_format_alloc(&kt->allowed);
		after = cpulist_format_alloc(want);
		changed = !cpulist_equal(&kt->allowed, want);
		if (!before || !after)
			r = -ENOMEM;	/* report it failed, change nothing */
		else if (changed && !dry_run)
			r = checked_affinity(ctx, kt, want);
		tally(res, r, changed, dry_run);
		report(ctx, j, kt, result_word(r, changed, dry_run),
		       before ? before : "?", after ? after : "?",
		       r == -ESRCH ? "thread exited" : r ? strerror(-r) : NULL);
		free(before);
		free(after);
	}
	kthread_list_free(&kl);
	return 0;
}

static void sched_str(char *buf, size_t len, int policy, int prio, int nice)
{
	if (policy == SCHED_FIFO || policy == SCHED_RR)
		snprintf(buf, len, "%s:%d", sched_policy_name(policy), prio);
	else
		snprintf(buf, len, "%s nice %d", sched_policy_name(policy),
			 nice);
}

int act_prio(struct nocb_ctx *ctx, const char *what, unsigned kinds,
	     const struct prio_target *t, bool dry_run, int nbits,
	     struct json *j, struct act_result *res)
{
	struct kthread_list kl;

	memset(res, 0, sizeof(*res));
	if (proc_scan_kthreads(ctx, what, kinds, nbits, &kl))
		return -1;
	res->failed = (int)kl.failed;	/* unreadable, reported by the scan */
	for (size_t i = 0; i < kl.n; i++) {
		const struct kthread *kt = &kl.v[i];
		char before[64], after[64];
		bool sched_diff, nice_diff;
		int nice_after = t->set_nice ? t->nice : kt->nice;
		int r = 0;

		sched_diff = kt->policy != t->policy ||
			     kt->rt_priority != t->priority;
		nice_diff = t->set_nice && kt->nice != t->nice;
		sched_str(before, sizeof(before), kt->policy, kt->rt_priority,
			  kt->nice);
		sched_str(after, sizeof(after), t->policy, t->priority,
			  nice_after);
		if (!dry_run && sched_diff)
			r = checked_scheduler(ctx, kt, t->policy,
					      t->priority);
		if (!dry_run && !r && nice_diff)
			r = checked_nice(ctx, kt, t->nice);
		tally(res, r, sched_diff || nice_diff, dry_run);
		report(ctx, j, kt,
		       result_word(r, sched_diff || nice_diff, dry_run),
		       before, after,
		       r == -ESRCH ? "thread exited" : r ? strerror(-r) : NULL);
	}
	kthread_list_free(&kl);
	return 0;
}

int act_run(struct nocb_ctx *ctx, const struct act_req *req, struct json *j,
	    struct act_result *res)
{
	int r;

	if (j) {
		json_key(j, "threads");
		json_arr_begin(j);
	}
	if (req->pin)
		r = act_pin(ctx, req->what, req->kinds, req->pin, req->dry_run,
			    req->nbits, j, res);
	else
		r = act_prio(ctx, req->what, req->kinds, req->prio,
			     req->dry_run, req->nbits, j, res);
	if (j)
		json_arr_end(j);
	if (r && j)
		json_kstr(j, "error", "cannot scan /proc");
	else if (!r)
		act_summary(ctx, req->label, res, req->dry_run, j);
	return r;
}

void act_summary(struct nocb_ctx *ctx, const char *what,
		 const struct act_result *res, bool dry_run, struct json *j)
{
	if (j) {
		json_kint(j, "changed", res->changed);
		json_kint(j, "unchanged", res->unchanged);
		json_kint(j, "would_change", res->would_change);
		json_kint(j, "failed", res->failed);
		json_kint(j, "vanished", res->vanished);
		return;
	}
	if (!res->changed && !res->unchanged && !res->would_change &&
	    !res->failed && !res->vanished) {
		fprintf(ctx->out, "%s: no offload kthreads found\n", what);
		return;
	}
	if (dry_run)
		fprintf(ctx->out,
			"%s (dry run): %d would change, %d unchanged, %d vanished\n",
			what, res->would_change, res->unchanged,
			res->vanished);
	else
		fprintf(ctx->out,
			"%s: %d changed, %d unchanged, %d failed, %d vanished\n",
			what, res->changed, res->unchanged, res->failed,
			res->vanished);
}

int act_exit(const struct act_result *res)
{
	return res->failed ? NOCB_EXIT_FAIL : NOCB_EXIT_OK;
}

/* Append "NAME" (at most four, then "..."): the kthreads a refusal names. */
static void add_name(char *buf, size_t len, int *n, const char *name)
{
	size_t used = strlen(buf);

	if (*n < 4)
		snprintf(buf + used, len - used, "%s%s", *n ? ", " : "", name);
	else if (*n == 4)
		snprintf(buf + used, len - used, ", ...");
	(*n)++;
}

static int refuse_deoffload(struct nocb_ctx *ctx, const struct rule_req *q,
			    const struct cpulist *bad)
{
	char *b = cpulist_format_alloc(bad);
	bool one = cpulist_count(bad) == 1;

	if (q->force)
		fprintf(ctx->err, "nocbctl: %s: warning: de-offloading nohz_full CPU%s %s; --force: done anyway\n",
			q->verb, one ? "" : "s", b ? b : "?");
	else
		nocb_err(ctx, q->verb, "CPU%s %s %s nohz_full: de-offloaded, %s own callbacks would keep %s tick on; keep %s offloaded, or --force",
			 one ? "" : "s", b ? b : "?", one ? "is" : "are",
			 one ? "its" : "their", one ? "its" : "their",
			 one ? "it" : "them");
	free(b);
	return q->force ? 0 : NOCB_EXIT_USAGE;
}

int act_check_rule(struct nocb_ctx *ctx, const struct rule_req *q)
{
	struct placement_rule now, after;
	struct offload_info oi;
	struct kthread_list kl = { 0 };
	struct cpulist bad, b, newly, deoff;
	const struct cpulist *pins[2] = { NULL, NULL };
	char names[200] = "", why[256], what[300];
	int n = 0, r = 0;

	offload_read(ctx, q->cs, &oi);
	placement_rule_now(&now, q->cs, &oi);
	if (q->after)
		placement_rule_init(&after, q->cs, q->after);
	else
		after = now;
	/* a de-offload never leaves a nohz_full CPU with callbacks */
	if (q->after) {
		cpulist_andnot(&deoff, &oi.offloaded, q->after);
		if (!placement_deoffload_safe(q->cs, &deoff, &bad))
			r = refuse_deoffload(ctx, q, &bad);
	}
	offload_free(&oi);
	if (r)
		return r;
	if (q->pin) {
		pins[0] = q->pin->rcuog;
		pins[1] = q->pin->rcuop;
	}
	cpulist_clear(&bad);
	for (int i = 0; i < 2; i++)
		if (pins[i] && !placement_safe(&after, pins[i], &b))
			cpulist_or(&bad, &bad, &b);
	if (!cpulist_empty(&bad)) {
		placement_why(&after, &bad, why, sizeof(why));
		return placement_refuse(ctx, q->verb, q->force, q->pin_what,
					&bad, why, "pin to housekeeping CPUs");
	}
	/*
	 * Kthreads left unpinned: only what the change itself makes unsafe
	 * is refused, unless they are about to get a real-time policy.
	 */
	cpulist_andnot(&newly, &after.unsafe, &now.unsafe);
	if (!q->realtime && cpulist_empty(&newly))
		return 0;	/* nothing the change could misplace */
	if (proc_scan_kthreads(ctx, q->verb, q->kinds, q->cs->nbits, &kl))
		return NOCB_EXIT_FAIL;
	for (size_t i = 0; i < kl.n; i++) {
		const struct kthread *kt = &kl.v[i];

		if (pins[kt->kind == KT_RCUOG ? 0 : 1])
			continue;
		if (placement_safe(&after, &kt->allowed, &b))
			continue;
		if (!q->realtime)
			cpulist_and(&b, &b, &newly);
		if (cpulist_empty(&b))
			continue;
		cpulist_or(&bad, &bad, &b);
		add_name(names, sizeof(names), &n, kt->name);
	}
	kthread_list_free(&kl);
	if (cpulist_empty(&bad))
		return 0;
	placement_why(&after, &bad, why, sizeof(why));
	snprintf(what, sizeof(what), "%s (%s)", names,
		 q->realtime ? "made real-time while allowed there" :
			       "allowed there after the change");
	return placement_refuse(ctx, q->verb, q->force, what, &bad, why,
				"pin them to housekeeping CPUs first");
}
