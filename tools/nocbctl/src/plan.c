// SPDX-License-Identifier: GPL-2.0
/*
 * plan.c - build the isolation plan for this machine (see plan.h) from
 * sysfs and the requested CPU lists, or from the config file's
 * housekeeping CPUs; the plan verb prints it (src/cmd_plan.c) and its
 * --check compares the running system with it (src/plan_check.c).
 */
#define _GNU_SOURCE
#include "plan.h"
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

char *plan_vfmt(bool *oom, const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0) {
		*oom = true;
		return NULL;
	}
	return s;
}

char *plan_fmt(bool *oom, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = plan_vfmt(oom, fmt, ap);
	va_end(ap);
	return s;
}

void plan_push(char ***v, int *n, char *s, bool *oom)
{
	char **nv = s ? realloc(*v, (size_t)(*n + 1) * sizeof(**v)) : NULL;

	if (!nv) {
		free(s);
		*oom = true;
		return;
	}
	*v = nv;
	nv[(*n)++] = s;
}

static void warn(struct plan *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void warn(struct plan *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	plan_push(&p->warning, &p->nwarnings, plan_vfmt(&p->oom, fmt, ap),
		  &p->oom);
	va_end(ap);
}

static char *fmt_list(struct plan *p, const struct cpulist *s)
{
	char *l = cpulist_format_alloc(s);

	if (!l)
		p->oom = true;
	return l;
}

static void add_param(struct plan *p, const char *name, const char *implied,
		      char *word, char *why)
{
	struct plan_param *pp = &p->param[p->nparams++];

	pp->name = name;
	pp->implied_by = implied;
	pp->word = word;
	pp->why = why;
	if (!word || !why)
		p->oom = true;
}

/* A cpulist file under sysfs (root-prefixed): 0, or -errno / -EINVAL. */
static int read_sys_list(const struct nocb_ctx *ctx, const char *rel,
			 int nbits, struct cpulist *out)
{
	char path[4096], why[128], *buf;
	size_t len;
	int r;

	cpulist_clear(out);
	if (nocb_path(ctx, path, sizeof(path), "%s", rel))
		return -ENAMETOOLONG;
	r = nocb_read_file(path, &buf, &len);
	if (r)
		return r;
	r = cpulist_parse(buf, len, nbits, out, why, sizeof(why));
	free(buf);
	return r ? -EINVAL : 0;
}

/*
 * SMT siblings: each possible CPU's topology/thread_siblings_list. A CPU
 * without one (offline, or no topology) is in p->no_topology.
 */
static int check_smt(struct nocb_ctx *ctx, struct plan *p)
{
	int cpu;

	cpulist_for_each(cpu, &p->cs.possible) {
		struct cpulist sib, out;
		char rel[96];
		int r;

		snprintf(rel, sizeof(rel),
			 "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
			 cpu);
		r = read_sys_list(ctx, rel, p->cs.nbits, &sib);
		if (r == -EINVAL) {
			nocb_err(ctx, "plan", "%s: not a CPU list", rel);
			return NOCB_EXIT_FAIL;
		}
		if (r) {
			cpulist_set(&p->no_topology, cpu);
			continue;
		}
		cpulist_unset(&sib, cpu);
		if (!cpulist_empty(&sib))
			p->smt = true;
		if (!cpulist_test(&p->isolate, cpu) || p->allow_smt_split)
			continue;
		cpulist_andnot(&out, &sib, &p->isolate);
		if (!cpulist_empty(&out)) {
			char *o = fmt_list(p, &out);

			nocb_err(ctx, "plan",
				 "CPU %d is isolated but its SMT sibling %s is not: they share a core, so the sibling's work disturbs it; isolate whole cores or pass --allow-smt-split",
				 cpu, o ? o : "?");
			free(o);
			return NOCB_EXIT_USAGE;
		}
	}
	return 0;
}

/* NUMA nodes: warn about a node whose isolated CPUs have no housekeeping CPU. */
static int check_nodes(struct nocb_ctx *ctx, struct plan *p)
{
	char path[4096];
	struct dirent *de;
	DIR *d;

	if (nocb_path(ctx, path, sizeof(path), "/sys/devices/system/node"))
		return 0;
	d = opendir(path);
	if (!d)
		return 0;	/* no NUMA: one memory node */
	while ((de = readdir(d))) {
		struct cpulist cpus, iso, hk;
		char rel[300];
		int node, r;

		if (strncmp(de->d_name, "node", 4) ||
		    nocb_parse_int(de->d_name + 4, 0, 1 << 16, &node))
			continue;
		snprintf(rel, sizeof(rel), "/sys/devices/system/node/%s/cpulist",
			 de->d_name);
		r = read_sys_list(ctx, rel, p->cs.nbits, &cpus);
		if (r) {
			nocb_err(ctx, "plan", "%s: %s", rel,
				 r == -EINVAL ? "not a CPU list" : strerror(-r));
			closedir(d);
			return NOCB_EXIT_FAIL;
		}
		p->nodes++;
		cpulist_and(&iso, &cpus, &p->isolate);
		cpulist_and(&hk, &cpus, &p->housekeeping);
		if (!cpulist_empty(&iso) && cpulist_empty(&hk)) {
			char *l = fmt_list(p, &iso);

			warn(p, "NUMA node %d has isolated CPUs %s but no housekeeping CPU: its memory's kernel work (kswapd%d, kcompactd%d) and the offload kthreads of those CPUs run on another node",
			     node, l ? l : "?", node, node);
			free(l);
		}
	}
	closedir(d);
	return 0;
}

static int parse_arg(struct nocb_ctx *ctx, const char *opt, const char *arg,
		     const struct plan *p, struct cpulist *out)
{
	char err[512];

	if (cpulist_parse_arg(arg, p->cs.nbits, out, err, sizeof(err)) ||
	    cpulist_validate(out, &p->cs.possible, NULL, err, sizeof(err))) {
		nocb_err(ctx, "plan", "%s=%s: %s", opt, arg, err);
		return NOCB_EXIT_USAGE;
	}
	return 0;
}

int plan_read_config(struct nocb_ctx *ctx, const char *path, int nbits,
		     struct nocb_config *cfg, char *path_out, size_t len)
{
	char err[512], *buf;
	size_t n;
	int r, line;

	if (path)
		snprintf(path_out, len, "%s", path);
	else if (nocb_path(ctx, path_out, len, PLAN_CONFIG_FILE))
		return -ENAMETOOLONG;
	r = nocb_read_file(path_out, &buf, &n);
	if (r)
		return r;
	r = config_parse(buf, n, nbits, cfg, &line, err, sizeof(err));
	free(buf);
	if (r) {
		fprintf(ctx->err, "nocbctl: %s:%d: %s\n", path_out, line, err);
		return NOCB_EXIT_USAGE;
	}
	return 0;
}

/* --check without --isolate: the config's CPUs are the housekeeping ones. */
static int isolate_from_config(struct nocb_ctx *ctx, struct plan *p,
			       const char *config_path)
{
	struct nocb_config cfg;
	char path[4096];
	int r = plan_read_config(ctx, config_path, p->cs.nbits, &cfg, path,
				 sizeof(path));

	if (r < 0) {
		nocb_err(ctx, "plan", "%s: %s (give --isolate=LIST)", path,
			 strerror(-r));
		return NOCB_EXIT_USAGE;
	}
	if (r)
		return r;
	cpulist_clear(&p->housekeeping);
	if (cfg.line[CFG_CPUS])
		cpulist_or(&p->housekeeping, &p->housekeeping, &cfg.cpus);
	if (cfg.line[CFG_RCUOG_CPUS])
		cpulist_or(&p->housekeeping, &p->housekeeping, &cfg.rcuog_cpus);
	if (cfg.line[CFG_RCUOP_CPUS])
		cpulist_or(&p->housekeeping, &p->housekeeping, &cfg.rcuop_cpus);
	if (cpulist_empty(&p->housekeeping)) {
		nocb_err(ctx, "plan", "%s sets no CPUs (give --isolate=LIST)",
			 path);
		return NOCB_EXIT_USAGE;
	}
	cpulist_andnot(&p->isolate, &p->cs.possible, &p->housekeeping);
	return 0;
}

static void build_params(struct plan *p)
{
	const char *iso = p->iso, *hk = p->hk;

	add_param(p, "rcu_nocbs", "nohz_full", plan_fmt(&p->oom, "rcu_nocbs=%s", iso),
		  plan_fmt(&p->oom, "offloads the RCU callbacks of CPUs %s to rcuop kthreads, which nocbctl keeps on %s; nohz_full= implies it (Linux 6.1 rcu_init_nohz()), listed so that the offload stays without nohz_full=",
			    iso, hk));
	add_param(p, "nohz_full", NULL, plan_fmt(&p->oom, "nohz_full=%s", iso),
		  plan_fmt(&p->oom, "stops the tick on CPUs %s while one task runs; implies rcu_nocbs=%s, and keeps RCU's grace-period kthreads, unbound workqueues, timers, new kernel threads and the soft-lockup watchdog on the other CPUs",
			    iso, iso));
	add_param(p, "isolcpus", NULL,
		  plan_fmt(&p->oom, "isolcpus=domain,managed_irq,%s", iso),
		  plan_fmt(&p->oom, "domain: takes CPUs %s out of scheduler load balancing (a task runs there only when pinned there) and out of the unbound workqueue mask; managed_irq: steers managed (per-queue) device interrupts to a housekeeping CPU of the queue; no nohz flag: nohz_full= covers it",
			    iso));
	add_param(p, "irqaffinity", NULL, plan_fmt(&p->oom, "irqaffinity=%s", hk),
		  plan_fmt(&p->oom, "default CPUs of device interrupts the kernel does not manage: the housekeeping CPUs %s",
			    hk));
	if (p->poll)
		add_param(p, "rcu_nocb_poll", NULL, strdup("rcu_nocb_poll"),
			  strdup("the rcuog kthreads poll for new callbacks, so an isolated CPU never wakes them, at the cost of a wake-up every jiffy on the housekeeping CPUs"));
}

static void build_steps(struct plan *p)
{
	struct cpulist kernel_hk;
	struct plan_step *s;

	s = &p->step[p->nsteps++];
	s->cmd = plan_fmt(&p->oom, "for p in $(pgrep -x 'kswapd[0-9]+|kcompactd[0-9]+'); do taskset -pc %s \"$p\"; done",
			   p->hk);
	s->why = strdup("kswapd and kcompactd place themselves on every CPU of their NUMA node (kcompactd again whenever a CPU comes online); no boot parameter moves them");
	/* the kernel's own mask is every CPU outside nohz_full=/isolcpus= */
	cpulist_andnot(&kernel_hk, &p->cs.possible, &p->isolate);
	if (!cpulist_equal(&kernel_hk, &p->housekeeping)) {
		s = &p->step[p->nsteps++];
		s->cmd = plan_fmt(&p->oom, "echo %s > " PLAN_WQ_MASK, p->wq_hex);
		s->why = plan_fmt(&p->oom, "unbound workqueues only on the housekeeping CPUs %s (the kernel keeps them off the isolated CPUs, not off the others)",
				   p->hk);
	}
	for (int i = 0; i < p->nsteps; i++)
		if (!p->step[i].cmd || !p->step[i].why)
			p->oom = true;
}

int plan_build(struct nocb_ctx *ctx, struct plan *p, const char *isolate_arg,
	       const char *hk_arg, const char *config_path)
{
	struct cpulist both, on;
	size_t n, len = 0;
	int r;

	if (sysfs_read_cpus(ctx, "plan", &p->cs))
		return NOCB_EXIT_FAIL;
	if (isolate_arg) {
		r = parse_arg(ctx, "--isolate", isolate_arg, p, &p->isolate);
		if (r)
			return r;
	} else {
		r = isolate_from_config(ctx, p, config_path);
		if (r)
			return r;
	}
	if (hk_arg) {
		r = parse_arg(ctx, "--housekeeping", hk_arg, p,
			      &p->housekeeping);
		if (r)
			return r;
		cpulist_and(&both, &p->housekeeping, &p->isolate);
		if (!cpulist_empty(&both)) {
			char *b = fmt_list(p, &both);

			nocb_err(ctx, "plan",
				 "--housekeeping=%s overlaps --isolate=%s on CPUs %s",
				 hk_arg, isolate_arg, b ? b : "?");
			free(b);
			return NOCB_EXIT_USAGE;
		}
	} else if (isolate_arg) {
		cpulist_andnot(&p->housekeeping, &p->cs.possible, &p->isolate);
	}
	if (cpulist_empty(&p->housekeeping)) {
		nocb_err(ctx, "plan",
			 "no housekeeping CPU left: the system, its interrupts and the offload kthreads need at least one");
		return NOCB_EXIT_USAGE;
	}
	if (cpulist_test(&p->isolate, 0)) {
		nocb_err(ctx, "plan",
			 "CPU 0 cannot be isolated: it is the boot CPU, which this kernel never offloads (K4) and nohz_full= keeps for timekeeping");
		return NOCB_EXIT_USAGE;
	}
	cpulist_and(&on, &p->housekeeping, &p->cs.online);
	if (cpulist_empty(&on)) {
		nocb_err(ctx, "plan", "no housekeeping CPU is online");
		return NOCB_EXIT_USAGE;
	}
	r = check_smt(ctx, p);
	if (r)
		return r;
	r = check_nodes(ctx, p);
	if (r)
		return r;
	cpulist_or(&both, &p->isolate, &p->housekeeping);
	cpulist_andnot(&p->other, &p->cs.possible, &both);
	p->iso = fmt_list(p, &p->isolate);
	p->hk = fmt_list(p, &p->housekeeping);
	n = cpumask_format_hex(&p->housekeeping, p->cs.nbits, NULL, 0);
	p->wq_hex = malloc(n + 1);
	if (!p->iso || !p->hk || !p->wq_hex) {
		nocb_err(ctx, "plan", "out of memory");
		return NOCB_EXIT_FAIL;
	}
	cpumask_format_hex(&p->housekeeping, p->cs.nbits, p->wq_hex, n + 1);
	if (!cpulist_empty(&p->other)) {
		char *o = fmt_list(p, &p->other);

		warn(p, "CPUs %s are neither isolated nor housekeeping: the kernel counts them as housekeeping, the plan keeps the system off them",
		     o ? o : "?");
		free(o);
	}
	cpulist_andnot(&on, &p->isolate, &p->cs.online);
	if (!cpulist_empty(&on)) {
		char *o = fmt_list(p, &on);

		warn(p, "isolated CPUs %s are offline now", o ? o : "?");
		free(o);
	}
	if (!cpulist_empty(&p->no_topology) && !p->allow_smt_split) {
		char *o = fmt_list(p, &p->no_topology);

		warn(p, "CPUs %s have no topology in sysfs (offline?): their SMT siblings are unknown",
		     o ? o : "?");
		free(o);
	}
	build_params(p);
	build_steps(p);
	for (int i = 0; i < p->nparams; i++)
		len += (p->param[i].word ? strlen(p->param[i].word) : 0) + 1;
	p->cmdline = malloc(len + 1);
	if (p->cmdline) {
		p->cmdline[0] = '\0';
		for (int i = 0; i < p->nparams && p->param[i].word; i++) {
			if (i)
				strcat(p->cmdline, " ");
			strcat(p->cmdline, p->param[i].word);
		}
	}
	if (!p->cmdline || p->oom) {
		nocb_err(ctx, "plan", "out of memory");
		return NOCB_EXIT_FAIL;
	}
	return 0;
}

void plan_free(struct plan *p)
{
	for (int i = 0; i < p->nparams; i++) {
		free(p->param[i].word);
		free(p->param[i].why);
	}
	for (int i = 0; i < p->nsteps; i++) {
		free(p->step[i].cmd);
		free(p->step[i].why);
	}
	for (int i = 0; i < p->nwarnings; i++)
		free(p->warning[i]);
	free(p->warning);
	free(p->iso);
	free(p->hk);
	free(p->wq_hex);
	free(p->cmdline);
	memset(p, 0, sizeof(*p));
}
