// SPDX-License-Identifier: GPL-2.0
/*
 * plan_check.c - "nocbctl plan --check" (see plan.h): the running system
 * against the plan, one line per mismatch naming what differs and what
 * to change. Called by the plan verb (src/cmd_plan.c).
 */
#define _GNU_SOURCE
#include "plan.h"
#include "config.h"
#include "json.h"
#include "offload.h"
#include "proc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One mismatch: what differs, how, and what to change. */
struct mism {
	const char *what;
	char *diff, *fix;
};

struct chk {
	struct nocb_ctx *ctx;
	const struct plan *p;
	struct mism *m;
	int n;
	char **note;
	int nnotes;
	bool oom;
};

static void mismatch(struct chk *c, const char *what, const char *fix,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void mismatch(struct chk *c, const char *what, const char *fix,
		     const char *fmt, ...)
{
	struct mism m = { what, NULL, NULL }, *nm;
	va_list ap;

	va_start(ap, fmt);
	m.diff = plan_vfmt(&c->oom, fmt, ap);
	va_end(ap);
	m.fix = plan_fmt(&c->oom, "%s", fix ? fix : "?");
	nm = m.diff && m.fix ?
	     realloc(c->m, (size_t)(c->n + 1) * sizeof(*nm)) : NULL;
	if (!nm) {
		c->oom = true;
		free(m.diff);
		free(m.fix);
		return;
	}
	c->m = nm;
	c->m[c->n++] = m;
}

static void note(struct chk *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct chk *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	plan_push(&c->note, &c->nnotes, plan_vfmt(&c->oom, fmt, ap), &c->oom);
	va_end(ap);
}

#define S(c, ...) plan_fmt(&(c)->oom, __VA_ARGS__)

/* A malloc'd list, "?" when out of memory (then c->oom fails the check). */
static char *L(struct chk *c, const struct cpulist *s)
{
	char *l = cpulist_format_alloc(s);

	if (!l) {
		c->oom = true;
		l = strdup("?");
	}
	return l;
}

/* --- kernel command line --------------------------------------------- */

/* The last "name" or "name=..." word of cmdline; its value in *val. */
static bool last_word(const char *buf, size_t len, const char *name,
		      const char **val, size_t *vlen)
{
	const char *p = buf, *end = buf + len, *t;
	size_t n, nl = strlen(name);
	bool found = false;

	while ((t = proc_cmdline_word(&p, end, &n))) {
		if (n < nl || memcmp(t, name, nl) || (n > nl && t[nl] != '='))
			continue;
		found = true;
		*val = n > nl ? t + nl + 1 : NULL;
		*vlen = n > nl ? n - nl - 1 : 0;
	}
	return found;
}

enum { ISO_NOHZ = 1, ISO_DOMAIN = 2, ISO_MANAGED = 4 };

/* isolcpus=[flag,...]LIST as housekeeping_isolcpus_setup() reads it */
static const char *isolcpus_flags(const char *v, const char *end,
				  unsigned *flags)
{
	static const struct { const char *w; unsigned f; } fl[] = {
		{ "nohz,", ISO_NOHZ }, { "domain,", ISO_DOMAIN },
		{ "managed_irq,", ISO_MANAGED },
	};

	*flags = 0;
	while (v < end && isalpha((unsigned char)*v)) {
		size_t i;

		for (i = 0; i < sizeof(fl) / sizeof(fl[0]); i++) {
			size_t n = strlen(fl[i].w);

			if ((size_t)(end - v) >= n && !memcmp(v, fl[i].w, n)) {
				*flags |= fl[i].f;
				v += n;
				break;
			}
		}
		if (i < sizeof(fl) / sizeof(fl[0]))
			continue;
		while (v < end && *v != ',')	/* an unknown flag */
			v++;
		if (v < end)
			v++;
	}
	if (!*flags)
		*flags = ISO_DOMAIN;	/* the kernel's default */
	return v;
}

static void check_param(struct chk *c, const char *buf, size_t len,
			const struct plan_param *pp)
{
	const struct plan *p = c->p;
	const char *v = NULL, *lend;
	const struct cpulist *want = &p->isolate;
	struct cpulist got;
	char why[128], *fix;
	unsigned flags = ISO_DOMAIN | ISO_MANAGED;
	size_t vlen = 0;
	bool ok;

	if (!last_word(buf, len, pp->name, &v, &vlen)) {
		fix = S(c, "boot with %s (nocbctl plan --isolate=%s --format=grub > " PLAN_GRUB_FILE "; update-grub)",
			pp->word, p->iso);
		mismatch(c, "kernel parameter", fix, "%s is missing from /proc/cmdline",
			 pp->word);
		free(fix);
		return;
	}
	if (!strcmp(pp->name, "rcu_nocb_poll"))
		return;
	fix = S(c, "boot with %s instead (nocbctl plan --isolate=%s --format=grub > " PLAN_GRUB_FILE "; update-grub)",
		pp->word, p->iso);
	if (!v) {
		mismatch(c, "kernel parameter", fix,
			 "/proc/cmdline has %s without a list, the plan %s",
			 pp->name, pp->word);
		free(fix);
		return;
	}
	lend = v + vlen;
	if (!strcmp(pp->name, "irqaffinity"))
		want = &p->housekeeping;
	if (!strcmp(pp->name, "isolcpus"))
		v = isolcpus_flags(v, lend, &flags);
	ok = !cpulist_parse(v, (size_t)(lend - v), p->cs.nbits, &got, why,
			    sizeof(why)) && cpulist_equal(&got, want);
	if (!ok || (flags & (ISO_DOMAIN | ISO_MANAGED)) !=
		   (ISO_DOMAIN | ISO_MANAGED))
		mismatch(c, "kernel parameter", fix,
			 "/proc/cmdline has %s=%.*s, the plan %s", pp->name,
			 (int)vlen, lend - vlen, pp->word);
	free(fix);
}

static void check_cmdline(struct chk *c)
{
	char path[4096], *buf;
	size_t len;
	int r;

	if (nocb_path(c->ctx, path, sizeof(path), "/proc/cmdline") ||
	    (r = nocb_read_file(path, &buf, &len))) {
		mismatch(c, "kernel parameters", "mount /proc",
			 "/proc/cmdline is unreadable");
		return;
	}
	for (int i = 0; i < c->p->nparams; i++)
		check_param(c, buf, len, &c->p->param[i]);
	free(buf);
}

/* Offloaded CPUs as the kernel reports them (rcudata N flags). */
static void check_offloaded(struct chk *c)
{
	struct offload_info *oi = malloc(sizeof(*oi));
	struct cpulist miss;

	if (!oi) {
		c->oom = true;
		return;
	}
	offload_read(c->ctx, &c->p->cs, oi);
	cpulist_andnot(&miss, &c->p->isolate, &oi->offloaded);
	if (oi->source == OFFLOAD_RCUDATA && !cpulist_empty(&miss)) {
		char *m = L(c, &miss);

		mismatch(c, "offloaded CPUs", "boot with the plan's rcu_nocbs=",
			 "isolated CPUs %s are not offloaded (rcudata)", m);
		free(m);
	}
	offload_free(oi);
	free(oi);
}

/* --- kernel threads --------------------------------------------------- */

static void check_kthreads(struct chk *c)
{
	const struct plan *p = c->p;
	struct kthread_list kl;

	if (proc_scan_kthreads(c->ctx, "plan", KT_ALL | KT_OTHER, p->cs.nbits,
			       &kl)) {
		mismatch(c, "kernel threads", "mount /proc",
			 "/proc cannot be scanned");
		return;
	}
	if (kl.failed)
		mismatch(c, "kernel threads", "run as root",
			 "%zu /proc entries could not be read (see above)",
			 kl.failed);
	/* one line per kind, not per thread: offload kthreads, then others */
	for (int other = 0; other < 2; other++) {
		const struct kthread *first = NULL;
		char *names = NULL, *pids = NULL, *fix, *a;
		int n = 0;

		for (size_t i = 0; i < kl.n; i++) {
			const struct kthread *kt = &kl.v[i];
			char *t;

			if ((kt->kind == KT_OTHER) != other)
				continue;
			/* kthread_bind()ed: per-CPU, or a workqueue's (see below) */
			if (other && (kt->flags & PF_NO_SETAFFINITY_FLAG))
				continue;
			if (cpulist_subset(&kt->allowed, &p->housekeeping))
				continue;
			first = first ? first : kt;
			a = L(c, &kt->allowed);
			t = S(c, "%s%s%s (pid %d) on %s", names ? names : "",
			      names ? ", " : "", kt->name, (int)kt->pid, a);
			free(names);
			names = t;
			t = S(c, "%s%s%d", pids ? pids : "", pids ? " " : "",
			      (int)kt->pid);
			free(pids);
			pids = t;
			free(a);
			n++;
		}
		if (!first)
			continue;
		if (!other)
			fix = S(c, "set cpus = %s in " PLAN_CONFIG_FILE " and run nocbctl apply",
				p->hk);
		else if (n == 1)
			fix = S(c, "taskset -pc %s %s", p->hk, pids);
		else
			fix = S(c, "for p in %s; do taskset -pc %s $p; done",
				pids, p->hk);
		a = L(c, &first->allowed);
		if (n == 1)
			mismatch(c, other ? "kernel thread" : "offload kthread",
				 fix, "%s (pid %d) may run on CPUs %s, not only on the housekeeping CPUs %s",
				 first->name, (int)first->pid, a, p->hk);
		else
			mismatch(c, other ? "kernel threads" : "offload kthreads",
				 fix, "%d may run outside the housekeeping CPUs %s: %s",
				 n, p->hk, names ? names : "?");
		free(a);
		free(fix);
		free(names);
		free(pids);
	}
	kthread_list_free(&kl);
}

/* --- interrupts ------------------------------------------------------- */

/* A one-line sysfs/procfs file, trimmed; NULL if absent. Caller frees. */
static char *read_line(const struct nocb_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static char *read_line(const struct nocb_ctx *ctx, const char *fmt, ...)
{
	char rel[4096], path[8192], *buf;
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (nocb_path(ctx, path, sizeof(path), "%s", rel) ||
	    nocb_read_file(path, &buf, &len))
		return NULL;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	return buf;
}

static int read_irq_list(const struct chk *c, struct cpulist *out, int irq,
			 const char *file)
{
	char *s = read_line(c->ctx, "/proc/irq/%d/%s", irq, file);
	char why[128];
	int r;

	if (!s)
		return -1;
	r = cpulist_parse_str(s, c->p->cs.nbits, out, why, sizeof(why));
	free(s);
	return r ? -1 : 0;
}

/*
 * Is irq a managed per-queue interrupt of a multi-queue block device? Its
 * PCI function (above the disk in sysfs) holds msi_irqs/IRQ, and blk-mq
 * spread it over the CPUs: its CPUs are a hardware queue's cpu_list, or,
 * as the kernel lists no CPUs for a queue of isolated CPUs only, they are
 * isolated CPUs and not the default affinity every other interrupt starts
 * with. Procfs does not show the kernel's managed flag itself. Writes
 * "vda, 4 queues".
 */
static bool queue_irq(const struct chk *c, int irq,
		      const struct cpulist *aff, char *q, size_t qlen)
{
	char dir[4096], real[PATH_MAX], top[4096], *s;
	struct cpulist dflt;
	bool found = false, have_dflt;
	struct dirent *de;
	DIR *d;

	s = read_line(c->ctx, "/proc/irq/default_smp_affinity");
	have_dflt = s && !cpumask_parse_hex(s, strlen(s), c->p->cs.nbits, &dflt);
	free(s);
	if (nocb_path(c->ctx, dir, sizeof(dir), "/sys/block") ||
	    nocb_path(c->ctx, top, sizeof(top), "/sys"))
		return false;
	d = opendir(dir);
	if (!d)
		return false;
	/* d_name is at most 255 bytes */
	while (!found && (de = readdir(d))) {
		char path[PATH_MAX + 4096 + 300], *slash;
		bool ours = false, same = false;
		struct dirent *qe;
		int nq = 0;
		DIR *qd;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!realpath(path, real))
			continue;
		while (!ours && (slash = strrchr(real, '/')) &&
		       strlen(real) > strlen(top)) {
			*slash = '\0';
			snprintf(path, sizeof(path), "%s/msi_irqs/%d", real, irq);
			ours = access(path, F_OK) == 0;
		}
		if (!ours)
			continue;
		snprintf(path, sizeof(path), "%s/%s/mq", dir, de->d_name);
		qd = opendir(path);
		while (qd && (qe = readdir(qd))) {
			struct cpulist qc;
			char rel[600], why[128];
			int qn;

			if (nocb_parse_int(qe->d_name, 0, INT_MAX, &qn))
				continue;
			nq++;
			snprintf(rel, sizeof(rel), "/sys/block/%s/mq/%d/cpu_list",
				 de->d_name, qn);
			s = read_line(c->ctx, "%s", rel);
			same = same || (s && !cpulist_parse_str(s, c->p->cs.nbits,
						&qc, why, sizeof(why)) &&
					cpulist_equal(&qc, aff));
			free(s);
		}
		if (qd)
			closedir(qd);
		found = nq > 1 && (same || (have_dflt && !cpulist_equal(aff, &dflt) &&
					    cpulist_subset(aff, &c->p->isolate)));
		if (found)
			snprintf(q, qlen, "%s, %d queues", de->d_name, nq);
	}
	closedir(d);
	return found;
}

static void check_irq(struct chk *c, int irq)
{
	const struct plan *p = c->p;
	struct cpulist aff, eff, bad;
	char q[300], *fix, *name, *a, *b;
	bool managed, kept_off;

	if (read_irq_list(c, &aff, irq, "smp_affinity_list"))
		return;		/* no affinity to set (or none readable) */
	cpulist_and(&bad, &aff, &p->isolate);
	if (cpulist_empty(&bad))
		return;
	name = read_line(c->ctx, "/sys/kernel/irq/%d/actions", irq);
	managed = queue_irq(c, irq, &aff, q, sizeof(q));
	/* isolcpus=managed_irq programs only the queue's housekeeping CPUs */
	kept_off = !read_irq_list(c, &eff, irq, "effective_affinity_list") && cpulist_subset(&eff, &p->housekeeping);
	a = L(c, &aff);
	b = L(c, &bad);
	if (managed && (cpulist_subset(&aff, &p->isolate) || kept_off)) {
		note(c, "irq %d (%s) is a managed per-queue interrupt (%s), CPUs %s: nobody can move it; %s",
		     irq, name && name[0] ? name : "-", q, a,
		     kept_off ? "isolcpus=managed_irq keeps it on a housekeeping CPU" :
		     "it fires only for I/O submitted on those isolated CPUs");
	} else {
		if (managed)
			fix = S(c, "boot with isolcpus=domain,managed_irq,%s (a managed interrupt cannot be moved)",
				p->iso);
		else
			fix = S(c, "echo %s > /proc/irq/%d/smp_affinity_list",
				p->hk, irq);
		mismatch(c, "interrupt", fix,
			 "irq %d (%s) smp_affinity_list %s includes isolated CPUs %s",
			 irq, name && name[0] ? name : "-", a, b);
		free(fix);
	}
	free(a);
	free(b);
	free(name);
}

static void check_irqs(struct chk *c)
{
	char path[4096];
	struct dirent *de;
	DIR *d;

	if (nocb_path(c->ctx, path, sizeof(path), "/proc/irq"))
		return;
	d = opendir(path);
	if (!d) {
		note(c, "no /proc/irq: interrupts not checked");
		return;
	}
	while ((de = readdir(d))) {
		int irq;

		if (!nocb_parse_int(de->d_name, 0, INT_MAX, &irq))
			check_irq(c, irq);
	}
	closedir(d);
}

/* --- workqueues, systemd, nocbctl.conf -------------------------------- */

static void check_workqueue(struct chk *c)
{
	const struct plan *p = c->p;
	char *s = read_line(c->ctx, PLAN_WQ_MASK), *fix;
	struct cpulist wq;

	if (!s) {
		note(c, "no %s: unbound workqueues not checked", PLAN_WQ_MASK);
		return;
	}
	fix = S(c, "echo %s > " PLAN_WQ_MASK, p->wq_hex);
	if (cpumask_parse_hex(s, strlen(s), p->cs.nbits, &wq)) {
		mismatch(c, "unbound workqueues", fix, "%s reads '%s', not a CPU mask",
			 PLAN_WQ_MASK, s);
	} else if (!cpulist_subset(&wq, &p->housekeeping)) {
		char *l = L(c, &wq);

		mismatch(c, "unbound workqueues", fix,
			 "cpumask %s (CPUs %s) is not only housekeeping CPUs %s",
			 s, l, p->hk);
		free(l);
	}
	free(fix);
	free(s);
}

struct affinity {
	bool set;
	struct cpulist cpus;
	char where[4200];	/* the file of the last assignment */
};

/* The CPUAffinity= lines of [Manager] in one systemd config file. */
static void systemd_file(struct chk *c, const char *rel, struct affinity *af)
{
	char path[4096], *buf, *line, *save = NULL;
	bool manager = false;

	if (nocb_path(c->ctx, path, sizeof(path), "%s", rel) ||
	    nocb_read_file(path, &buf, NULL))
		return;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *v, *e;

		while (isspace((unsigned char)*line))
			line++;
		if (*line == '[') {
			manager = !strncmp(line, "[Manager]", 9);
			continue;
		}
		if (!manager || strncmp(line, "CPUAffinity", 11))
			continue;
		v = line + 11;
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v++ != '=')
			continue;
		e = v + strlen(v);
		while (e > v && isspace((unsigned char)e[-1]))
			*--e = '\0';
		snprintf(af->where, sizeof(af->where), "%s", rel);
		if (!*v) {
			af->set = false;	/* an empty assignment resets */
			cpulist_clear(&af->cpus);
		} else {
			struct cpulist s;
			char why[128];

			if (cpulist_parse_str(v, c->p->cs.nbits, &s, why,
					      sizeof(why))) {
				mismatch(c, "systemd", "fix the CPUAffinity= line",
					 "%s: CPUAffinity=%s: %s", rel, v, why);
				continue;
			}
			cpulist_or(&af->cpus, &af->cpus, &s);	/* they merge */
			af->set = true;
		}
	}
	free(buf);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* system.conf, then the *.conf drop-ins by name (the first dir wins). */
static void check_systemd(struct chk *c)
{
	static const char *const dirs[] = {
		"/etc/systemd/system.conf.d", "/run/systemd/system.conf.d",
		"/usr/local/lib/systemd/system.conf.d",
		"/usr/lib/systemd/system.conf.d",
	};
	const struct plan *p = c->p;
	struct affinity *af = calloc(1, sizeof(*af));
	char **names = NULL, **rels = NULL, *fix;
	int n = 0, nr = 0;
	struct cpulist pid1;

	if (!af) {
		c->oom = true;
		return;
	}
	systemd_file(c, "/etc/systemd/system.conf", af);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char path[4096];
		struct dirent *de;
		DIR *d;

		if (nocb_path(c->ctx, path, sizeof(path), "%s", dirs[i]))
			continue;
		d = opendir(path);
		while (d && (de = readdir(d))) {
			size_t l = strlen(de->d_name);
			bool dup = false;

			if (l < 6 || strcmp(de->d_name + l - 5, ".conf"))
				continue;
			for (int k = 0; k < n; k++)
				dup = dup || !strcmp(names[k] + strcspn(names[k], "\t") + 1,
						     de->d_name);
			if (!dup)
				plan_push(&names, &n, S(c, "%s\t%s", de->d_name,
							dirs[i]), &c->oom);
		}
		if (d)
			closedir(d);
	}
	/* sort by file name; names[k] is "NAME\tDIR" */
	if (n)
		qsort(names, (size_t)n, sizeof(*names), cmp_str);
	for (int k = 0; k < n; k++) {
		char *tab = strchr(names[k], '\t');

		*tab = '\0';
		plan_push(&rels, &nr, S(c, "%s/%s", tab + 1, names[k]), &c->oom);
		if (!c->oom)
			systemd_file(c, rels[nr - 1], af);
	}
	fix = S(c, "write [Manager] CPUAffinity=%s to " PLAN_SYSTEMD_FILE " and run systemctl daemon-reexec",
		p->hk);
	if (!af->set) {
		mismatch(c, "systemd", fix,
			 "CPUAffinity= is not set in system.conf or its drop-ins: services may run on every CPU");
	} else if (!cpulist_subset(&af->cpus, &p->housekeeping)) {
		char *l = L(c, &af->cpus);

		mismatch(c, "systemd", fix,
			 "CPUAffinity=%s (last set in %s) is not only housekeeping CPUs %s",
			 l, af->where, p->hk);
		free(l);
	}
	if (!proc_read_allowed(c->ctx, 1, p->cs.nbits, &pid1) &&
	    !cpulist_subset(&pid1, &p->housekeeping)) {
		char *l = L(c, &pid1);

		mismatch(c, "systemd", af->set ? "systemctl daemon-reexec" : fix,
			 "PID 1 may run on CPUs %s, not only on the housekeeping CPUs %s",
			 l, p->hk);
		free(l);
	}
	free(fix);
	for (int k = 0; k < n; k++)
		free(names[k]);
	for (int k = 0; k < nr; k++)
		free(rels[k]);
	free(names);
	free(rels);
	free(af);
}

static void check_config(struct chk *c, const char *config_path)
{
	static const enum cfg_key keys[] = { CFG_CPUS, CFG_RCUOG_CPUS,
					     CFG_RCUOP_CPUS };
	const struct plan *p = c->p;
	struct nocb_config cfg;
	char path[4096], *fix;
	int r = plan_read_config(c->ctx, config_path, p->cs.nbits, &cfg, path,
				 sizeof(path));

	fix = S(c, "set cpus = %s in %s and run nocbctl apply", p->hk, path);
	if (r < 0) {
		mismatch(c, "nocbctl.conf", fix, "%s: %s", path, strerror(-r));
		free(fix);
		return;
	}
	if (r) {
		mismatch(c, "nocbctl.conf", fix, "%s is invalid (error above)", path);
		free(fix);
		return;
	}
	if (!cfg.line[CFG_CPUS] && !cfg.line[CFG_RCUOG_CPUS] &&
	    !cfg.line[CFG_RCUOP_CPUS])
		mismatch(c, "nocbctl.conf", fix,
			 "%s does not place the offload kthreads (no cpus =)", path);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const struct cpulist *s = keys[i] == CFG_CPUS ? &cfg.cpus :
					  keys[i] == CFG_RCUOG_CPUS ?
					  &cfg.rcuog_cpus : &cfg.rcuop_cpus;
		char *l;

		if (!cfg.line[keys[i]] || cpulist_subset(s, &p->housekeeping))
			continue;
		l = L(c, s);
		mismatch(c, "nocbctl.conf", fix,
			 "%s:%d: %s = %s is not only housekeeping CPUs %s", path,
			 cfg.line[keys[i]], config_key_name(keys[i]), l, p->hk);
		free(l);
	}
	free(fix);
	/* offload = is optional; when given, apply makes it the no-CBs set. */
	if (cfg.line[CFG_OFFLOAD] && !cpulist_equal(&cfg.offload, &p->isolate)) {
		char *l = L(c, &cfg.offload);

		fix = S(c, "set offload = %s in %s and run nocbctl apply",
			p->iso, path);
		mismatch(c, "nocbctl.conf", fix,
			 "%s:%d: offload = %s is not the isolated CPUs %s", path,
			 cfg.line[CFG_OFFLOAD], l, p->iso);
		free(l);
		free(fix);
	}
}

static void print(struct chk *c)
{
	FILE *o = c->ctx->out;

	if (c->ctx->json) {
		struct json j;

		json_init(&j, o);
		json_obj_begin(&j);
		json_kstr(&j, "command", "plan");
		json_kbool(&j, "check", true);
		json_kstr(&j, "isolate", c->p->iso);
		json_kstr(&j, "housekeeping", c->p->hk);
		json_kbool(&j, "clean", c->n == 0);
		json_key(&j, "mismatches");
		json_arr_begin(&j);
		for (int i = 0; i < c->n; i++) {
			json_obj_begin(&j);
			json_kstr(&j, "what", c->m[i].what);
			json_kstr(&j, "differs", c->m[i].diff);
			json_kstr(&j, "fix", c->m[i].fix);
			json_obj_end(&j);
		}
		json_arr_end(&j);
		json_key(&j, "notes");
		json_arr_begin(&j);
		for (int i = 0; i < c->nnotes; i++)
			json_str(&j, c->note[i]);
		json_arr_end(&j);
		json_obj_end(&j);
		json_end(&j);
		return;
	}
	for (int i = 0; i < c->n; i++)
		fprintf(o, "mismatch: %s: %s; fix: %s\n", c->m[i].what,
			c->m[i].diff, c->m[i].fix);
	for (int i = 0; i < c->nnotes; i++)
		fprintf(o, "note: %s\n", c->note[i]);
	if (c->n)
		fprintf(o, "plan --check: %d mismatch%s (isolated %s, housekeeping %s)\n",
			c->n, c->n == 1 ? "" : "es", c->p->iso, c->p->hk);
	else
		fprintf(o, "plan --check: clean (isolated %s, housekeeping %s)\n",
			c->p->iso, c->p->hk);
}

int plan_check(struct nocb_ctx *ctx, const struct plan *p,
	       const char *config_path)
{
	struct chk c = { .ctx = ctx, .p = p };

	check_cmdline(&c);
	check_offloaded(&c);
	check_kthreads(&c);
	check_irqs(&c);
	check_workqueue(&c);
	check_systemd(&c);
	check_config(&c, config_path);
	print(&c);
	for (int i = 0; i < c.n; i++) {
		free(c.m[i].diff);
		free(c.m[i].fix);
	}
	for (int i = 0; i < c.nnotes; i++)
		free(c.note[i]);
	free(c.m);
	free(c.note);
	if (c.oom) {
		nocb_err(ctx, "plan", "out of memory: the check is incomplete");
		return NOCB_EXIT_FAIL;
	}
	return c.n ? NOCB_EXIT_FAIL : NOCB_EXIT_OK;
}
