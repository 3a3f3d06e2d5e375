// SPDX-License-Identifier: GPL-2.0
/*
 * nocbs.c - the one code path that changes the no-CBs CPUs (see nocbs.h),
 * for offload, deoffload and apply.
 *
 * The kernel's rcu_nocbs file takes the whole new set in one write and
 * applies all of it or none. nocbctl computes that set, refuses before
 * writing what K3 and K4 forbid, and holds an flock(2) on the file from
 * its read to the end, so that two runs cannot lose each other's change.
 */
#define _GNU_SOURCE
#include "nocbs.h"
#include "conf_apply.h"
#include "offload.h"
#include "rcudata.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

const char *nocbs_cpu_result(const struct nocbs_change *c, int cpu)
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

int nocbs_unsupported(const struct nocbs_change *c)
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

int nocbs_check_access(const struct nocbs_change *c)
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

int nocbs_write_set(const struct nocbs_change *c)
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

int nocbs_open_locked(struct nocbs_change *c)
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

int nocbs_plan_change(struct nocbs_change *c)
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
	r = nocbs_open_locked(c);
	if (r == -ENOENT) {
		c->rc = without_k6(c);
		return 0;
	}
	if (!r)
		r = nocbs_plan_change(c);
	if (!r && c->changed)
		r = nocbs_check_access(c);
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
		const char *res = nocbs_cpu_result(c, cpu);

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
		c->rc = nocbs_write_set(c);
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
