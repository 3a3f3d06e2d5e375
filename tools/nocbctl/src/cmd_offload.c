// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_offload.c - "nocbctl offload LIST" and "nocbctl deoffload LIST":
 * change the no-CBs CPUs of the running kernel (K6), then re-pin the
 * offload kthreads per the configuration; and apply's offload step,
 * which makes them exactly the configuration's offload list.
 *
 * The kernel's rcu_nocbs file takes the whole new set in one write and
 * applies all of it or none. nocbctl computes that set, refuses before
 * writing what K3 and K4 forbid, and holds an flock(2) on the file from
 * its read to the end, so that two runs cannot lose each other's change.
 */
#define _GNU_SOURCE
#include "verbs.h"
#include "act.h"
#include "conf_apply.h"
#include "offload.h"
#include "rcudata.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
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
	      "be left (K3) or failed, 2 bad LIST (CPU 0, a CPU that does not\n"
	      "exist), configuration or placement, 3 no run-time offload in this kernel\n"
	      "(or booted without rcu_nocbs), 4 not root.\n"
	      "\nFor more details see nocbctl(8).\n", f);
}

static void offload_help(FILE *f) { help(f, true); }
static void deoffload_help(FILE *f) { help(f, false); }

/*
 * What happens to one CPU, in text ("already offloaded"): a CPU of LIST
 * for offload and deoffload, a CPU that changes for apply.
 */
static const char *cpu_result(const struct nocbs_change *c, int cpu)
{
	bool was = cpulist_test(&c->before, cpu);
	bool add = c->mode == NOCBS_ADD ||
		   (c->mode == NOCBS_SET && cpulist_test(&c->after, cpu));

	if (add && was)
		return "already offloaded";
	if (add)
		return c->dry_run ? "would offload" : "offloaded";
	if (!was)
		return "not offloaded";
	return c->dry_run ? "would deoffload" : "deoffloaded";
}

/* Where the no-CBs CPUs of a kernel without K6 were read, in text. */
static const char *source_text(const char *source)
{
	return !strcmp(source, offload_source_name(OFFLOAD_CMDLINE)) ?
	       "the boot command line" : source;
}

/* No rcu_nocbs file: which kernel this is, as far as rcudata tells. */
static void kernel_kind(const struct nocbs_change *c, char *buf, size_t len)
{
	struct rcudata rd;
	char err[512];
	enum rcudata_status st = rcudata_read(c->ctx, &rd, err, sizeof(err));

	rcudata_free(&rd);
	if (st == RCUDATA_OK || st == RCUDATA_MALFORMED)
		snprintf(buf, len,
			 "a nocb series without runtime offload (rcudata, K2, is there)");
	else if (st == RCUDATA_ABSENT)
		snprintf(buf, len, "a stock kernel (no rcudata either)");
	else
		snprintf(buf, len,
			 "cannot tell which kernel: rcudata unreadable (run as root)");
}

static int unsupported(const struct nocbs_change *c)
{
	char kind[256];

	kernel_kind(c, kind, sizeof(kind));
	nocb_err(c->ctx, c->verb,
		 "%s is missing: this kernel cannot change no-CBs CPUs at run time (no K6): %s; boot with rcu_nocbs=LIST instead",
		 RCU_NOCBS_PATH, kind);
	return NOCB_EXIT_UNSUPP;
}

/*
 * apply without K6: nothing to do if the kernel's no-CBs CPUs (rcudata,
 * else the boot command line as the kernel read it) are the list already;
 * otherwise exit 3, saying what they are and what would make them so.
 */
static int without_k6(struct nocbs_change *c)
{
	struct offload_info oi;
	char kind[256];
	char *b = NULL, *now = NULL, *a = cpulist_format_alloc(&c->after);

	offload_read(c->ctx, c->cs, &oi);
	if (oi.source != OFFLOAD_UNKNOWN && cpulist_empty(&oi.unknown)) {
		cpulist_or(&c->before, &oi.offloaded, &oi.pending_offloaded);
		c->known = true;
		c->source = offload_source_name(oi.source);
	}
	offload_free(&oi);
	if (c->known && cpulist_equal(&c->before, &c->after)) {
		free(a);
		return 0;
	}
	kernel_kind(c, kind, sizeof(kind));
	if (c->known)
		b = cpulist_format_alloc(&c->before);
	if (!c->known ||
	    asprintf(&now, "the no-CBs CPUs are %s (%s)",
		     b ? (b[0] ? b : "none") : "?", source_text(c->source)) < 0)
		now = NULL;
	nocb_err(c->ctx, c->verb,
		 "%s is missing: this kernel cannot change no-CBs CPUs at run time (no K6): %s; %s; boot with %s%s instead",
		 RCU_NOCBS_PATH, kind,
		 now ? now : "which CPUs are no-CBs CPUs is not known",
		 a && a[0] ? "rcu_nocbs=" : "neither rcu_nocbs= nor nohz_full=",
		 a && a[0] ? a : "");
	free(a);
	free(b);
	free(now);
	return NOCB_EXIT_UNSUPP;
}

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

/* K3: some online CPU must stay normal. Names the CPUs LIST takes. */
static int check_k3(const struct nocbs_change *c)
{
	struct cpulist normal, last;
	char *s;

	cpulist_andnot(&normal, &c->cs->online, &c->after);
	if (!cpulist_empty(&normal))
		return 0;
	/* the online normal CPUs now: all of them are in LIST */
	cpulist_andnot(&last, &c->cs->online, &c->before);
	if (cpulist_empty(&last))
		return 0;	/* none now either: not this change's doing */
	s = cpulist_format_alloc(&last);
	if (cpulist_count(&last) == 1)
		nocb_err(c->ctx, c->verb,
			 "CPU %s: the last online normal CPU; offloading it would leave no online CPU to process callbacks itself (K3)",
			 s ? s : "?");
	else
		nocb_err(c->ctx, c->verb,
			 "CPUs %s: the last online normal CPUs; offloading them all would leave no online CPU to process callbacks itself (K3)",
			 s ? s : "?");
	free(s);
	return NOCB_EXIT_FAIL;
}

static int check_access(const struct nocbs_change *c)
{
	int r = c->ctx->ops->may_write(c->path);

	if (!r)
		return 0;
	nocb_err(c->ctx, c->verb, "%s: %s%s", c->path, strerror(-r),
		 nocb_access_hint(r));
	return nocb_access_denied(r) ? NOCB_EXIT_PRIV : NOCB_EXIT_FAIL;
}

/* "; rcu_nocbs still reads 2-3": where the kernel left it. */
static void after_failure(const struct nocbs_change *c, char *buf, size_t len)
{
	struct cpulist now;
	char err[256], *s;

	buf[0] = '\0';
	if (offload_read_nocbs(c->ctx, c->cs->nbits, &now, err, sizeof(err)))
		return;
	s = cpulist_format_alloc(&now);
	snprintf(buf, len, "; rcu_nocbs %s reads '%s'",
		 cpulist_equal(&now, &c->before) ? "still" : "now",
		 s ? s : "?");
	free(s);
}

/* The kernel's errno for our write, as an error line and exit code. */
static int write_failed(const struct nocbs_change *c, int e, const char *list)
{
	char tail[256];

	after_failure(c, tail, sizeof(tail));
	switch (e) {
	case EOPNOTSUPP:
		nocb_err(c->ctx, c->verb,
			 "the kernel refused (EOPNOTSUPP): it was booted without rcu_nocbs; boot once with bare rcu_nocbs (no list) to change no-CBs CPUs at run time%s",
			 tail);
		return NOCB_EXIT_UNSUPP;
	case EINVAL:
		nocb_err(c->ctx, c->verb,
			 "the kernel refused no-CBs CPUs '%s' (EINVAL)%s",
			 list, tail);
		/* apply's list passed every check nocbctl knows of */
		return c->mode == NOCBS_SET ? NOCB_EXIT_FAIL : NOCB_EXIT_USAGE;
	case EBUSY:
		nocb_err(c->ctx, c->verb,
			 "the kernel refused no-CBs CPUs '%s' (EBUSY): no online normal CPU would be left (K3)%s",
			 list, tail);
		return NOCB_EXIT_FAIL;
	case EPERM:
	case EACCES:
	case EROFS:
		nocb_err(c->ctx, c->verb, "%s: %s%s%s", c->path,
			 strerror(e), nocb_access_hint(e), tail);
		return NOCB_EXIT_PRIV;
	default:
		nocb_err(c->ctx, c->verb, "writing '%s' to %s: %s%s", list,
			 c->path, strerror(e), tail);
		return NOCB_EXIT_FAIL;
	}
}

/* Write the whole new set once, and read back what the kernel holds. */
static int write_set(const struct nocbs_change *c)
{
	char *list = cpulist_format_alloc(&c->after), *buf = NULL, *s;
	long page = sysconf(_SC_PAGESIZE);
	struct cpulist now;
	char err[512];
	int r;

	if (!list || asprintf(&buf, "%s\n", list) < 0) {
		free(list);
		nocb_err(c->ctx, c->verb, "out of memory");
		return NOCB_EXIT_FAIL;
	}
	/* sysfs takes at most a page less its NUL */
	if (page > 0 && strlen(buf) >= (size_t)page) {
		nocb_err(c->ctx, c->verb,
			 "the new list is %zu bytes; the kernel takes at most %ld",
			 strlen(buf), page - 1);
		r = NOCB_EXIT_USAGE;
		goto out;
	}
	r = c->ctx->ops->write_sysfs(c->path, buf);
	if (r) {
		r = write_failed(c, -r, list);
		goto out;
	}
	if (offload_read_nocbs(c->ctx, c->cs->nbits, &now, err, sizeof(err))) {
		nocb_err(c->ctx, c->verb, "wrote '%s' but cannot read it back: %s",
			 list, err);
		r = NOCB_EXIT_FAIL;
	} else if (!cpulist_equal(&now, &c->after)) {
		s = cpulist_format_alloc(&now);
		nocb_err(c->ctx, c->verb, "wrote '%s' but %s reads '%s'", list,
			 c->path, s ? s : "?");
		free(s);
		r = NOCB_EXIT_FAIL;
	}
out:
	free(list);
	free(buf);
	return r;
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
		const char *res = cpu_result(c, cpu);
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

/*
 * Open and (unless dry run) lock RCU_NOCBS_PATH into c->fd: 0; -ENOENT,
 * said by no one, when the kernel has no K6; else the exit code after
 * the error.
 */
static int open_locked(struct nocbs_change *c)
{
	c->fd = -1;
	if (nocb_path(c->ctx, c->path, sizeof(c->path), RCU_NOCBS_PATH)) {
		nocb_err(c->ctx, c->verb, "path too long");
		return NOCB_EXIT_USAGE;
	}
	c->fd = open(c->path, O_RDONLY | O_CLOEXEC);
	if (c->fd < 0 && errno == ENOENT)
		return -ENOENT;
	if (c->fd < 0) {
		nocb_err(c->ctx, c->verb, "%s: %s", c->path, strerror(errno));
		return NOCB_EXIT_FAIL;
	}
	if (!c->dry_run && flock(c->fd, LOCK_EX)) {
		nocb_err(c->ctx, c->verb, "%s: cannot lock: %s", c->path,
			 strerror(errno));
		close(c->fd);
		c->fd = -1;
		return NOCB_EXIT_FAIL;
	}
	return 0;
}

/*
 * With the file open and locked: what it holds, the new set (offload
 * adds LIST, deoffload removes it, apply sets it) and K3 for it.
 */
static int plan_change(struct nocbs_change *c)
{
	char err[512];

	if (offload_read_nocbs(c->ctx, c->cs->nbits, &c->before, err,
			       sizeof(err))) {
		nocb_err(c->ctx, c->verb, "%s", err);
		return NOCB_EXIT_FAIL;
	}
	c->known = true;
	c->source = offload_source_name(OFFLOAD_SYSFS);
	switch (c->mode) {
	case NOCBS_ADD:
		cpulist_or(&c->after, &c->before, &c->list);
		break;
	case NOCBS_REMOVE:
		cpulist_andnot(&c->after, &c->before, &c->list);
		break;
	case NOCBS_SET:
		c->after = c->list;
		break;
	}
	c->changed = !cpulist_equal(&c->before, &c->after);
	/* removing no-CBs CPUs never leaves fewer normal ones */
	return c->mode == NOCBS_REMOVE ? 0 : check_k3(c);
}

/* Everything after the file is open and locked. */
static int change_locked(struct nocbs_change *c, const char *cfg_arg)
{
	struct apply_plan p;
	int r;

	r = plan_change(c);
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
		r = check_access(c);
		if (!r)
			r = apply_may_act(c->ctx, c->verb, &p, c->dry_run);
		if (!r && !c->dry_run)
			r = write_set(c);
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
	r = open_locked(&c);
	if (r == -ENOENT)
		return unsupported(&c);
	if (r)
		return r;
	r = change_locked(&c, a.arg[OPT_CONFIG]);
	close(c.fd);	/* and the lock with it */
	return r;
}

int offload_step_begin(struct nocbs_change *c, struct nocb_ctx *ctx,
		       const struct apply_plan *p, const struct cpu_state *cs,
		       bool dry_run)
{
	int r;

	memset(c, 0, sizeof(*c));
	c->ctx = ctx;
	c->mode = NOCBS_SET;
	c->dry_run = dry_run;
	c->cs = cs;
	c->fd = -1;
	c->list = p->cfg.offload;
	c->after = c->list;
	snprintf(c->what, sizeof(c->what), "apply: %s:%d: offload", p->path,
		 p->cfg.line[CFG_OFFLOAD]);
	c->verb = c->what;
	r = open_locked(c);
	if (r == -ENOENT) {
		c->rc = without_k6(c);
		return 0;
	}
	if (!r)
		r = plan_change(c);
	if (!r && c->changed)
		r = check_access(c);
	if (r == NOCB_EXIT_PRIV)
		return r;	/* as for CAP_SYS_NICE: nothing changes */
	c->rc = r;
	return 0;
}

/* The "offload" value of apply's JSON, or its lines of text. */
static void report_set(const struct nocbs_change *c, struct json *j)
{
	bool ok = !c->rc;
	char *list = cpulist_format_alloc(&c->list);
	char *before = c->known ? cpulist_format_alloc(&c->before) : NULL;
	char *after = cpulist_format_alloc(&c->after);
	struct cpulist diff;
	int cpu;

	cpulist_or(&diff, &c->before, &c->after);
	if (c->known && ok) {
		struct cpulist same;

		cpulist_and(&same, &c->before, &c->after);
		cpulist_andnot(&diff, &diff, &same);
	} else {
		cpulist_clear(&diff);
	}
	if (j) {
		json_obj_begin(j);
		json_kstr(j, "list", list);
		json_kstr(j, "source", c->source);
		json_kstr(j, "before", before);
		json_kstr(j, "after", ok ? after : NULL);
		json_key(j, "cpus");
		json_arr_begin(j);
	}
	cpulist_for_each(cpu, &diff) {
		const char *res = cpu_result(c, cpu);

		if (!j) {
			fprintf(c->ctx->out, "CPU %d: %s\n", cpu, res);
			continue;
		}
		json_obj_begin(j);
		json_kint(j, "cpu", cpu);
		json_kstr(j, "result", !strcmp(res, "would offload") ?
			  "would-offload" : !strcmp(res, "would deoffload") ?
			  "would-deoffload" : res);
		json_obj_end(j);
	}
	if (j) {
		json_arr_end(j);
		json_kbool(j, "written", c->written);
		json_kstr(j, "result", !ok ? "failed" : !c->changed ?
			  "unchanged" : c->dry_run ? "would-change" :
			  "changed");
		json_obj_end(j);
	} else if (ok && !c->changed) {
		/* without K6, say where the set was read */
		bool k6 = !strcmp(c->source, offload_source_name(OFFLOAD_SYSFS));

		fprintf(c->ctx->out, "rcu_nocbs: %s (nothing to change%s%s)\n",
			before && before[0] ? before : "-",
			k6 ? "" : "; read from ", k6 ? "" : source_text(c->source));
	} else if (ok) {
		fprintf(c->ctx->out, "rcu_nocbs%s: %s -> %s\n",
			c->dry_run ? " (dry run)" : "",
			before && before[0] ? before : "-",
			after && after[0] ? after : "-");
	}
	free(list);
	free(before);
	free(after);
}

int offload_step_run(struct nocbs_change *c, struct json *j)
{
	if (!c->rc && c->changed && !c->dry_run) {
		c->rc = write_set(c);
		c->written = !c->rc;
	}
	report_set(c, j);
	return c->rc;
}

void offload_step_end(struct nocbs_change *c)
{
	if (c->fd >= 0)
		close(c->fd);	/* and the lock with it */
	c->fd = -1;
}

int cmd_offload(struct nocb_ctx *ctx, int argc, char **argv)
{
	return run(ctx, "offload", true, offload_help, argc, argv);
}

int cmd_deoffload(struct nocb_ctx *ctx, int argc, char **argv)
{
	return run(ctx, "deoffload", false, deoffload_help, argc, argv);
}
