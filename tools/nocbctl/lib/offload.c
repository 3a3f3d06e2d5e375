// SPDX-License-Identifier: GPL-2.0
/* offload.c - which CPUs are offloaded, and how we know (see offload.h). */
#define _GNU_SOURCE
#include "offload.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The value of the last KEY=VALUE word of the command line (the one the
 * kernel acts on), split by proc_cmdline_word(). *found is set
 * if KEY appears at all, also bare; the value is NULL for a bare KEY.
 */
static const char *last_value(const char *buf, size_t len, const char *key,
			      size_t *vlen, bool *found)
{
	const char *p = buf, *end = buf + len, *val = NULL, *t;
	size_t klen = strlen(key), n;

	*found = false;
	*vlen = 0;
	while ((t = proc_cmdline_word(&p, end, &n))) {
		if (n < klen || memcmp(t, key, klen) ||
		    (n > klen && t[klen] != '='))
			continue;
		*found = true;
		val = n > klen ? t + klen + 1 : NULL;
		*vlen = n > klen ? n - klen - 1 : 0;
	}
	return val;
}

/* "KEY=VALUE" with bytes that are not printable ASCII as \xNN. */
static char *show_param(const char *key, const char *v, size_t n)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		return NULL;
	fprintf(f, "%s=", key);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)v[i];

		if (c > ' ' && c < 0x7f)
			fputc(c, f);
		else
			fprintf(f, "\\x%02x", c);
	}
	if (fclose(f)) {
		free(s);
		return NULL;
	}
	return s;
}

/*
 * One list parameter as the kernel took it: 0 and *set filled, or -1 if
 * the kernel rejected it, with *shown (malloc'd "KEY=VALUE") and why.
 */
static int cmdline_list(const char *buf, size_t len, const char *key,
			int nbits, bool *found, struct cpulist *set,
			char **shown, char *why, size_t whylen)
{
	size_t n;
	const char *v = last_value(buf, len, key, &n, found);

	cpulist_clear(set);
	*shown = NULL;
	if (!v)
		return 0;	/* absent, or bare "rcu_nocbs": an empty mask */
	if (!cpulist_parse(v, n, nbits, set, why, whylen))
		return 0;
	*shown = show_param(key, v, n);
	return -1;
}

/* k4: the kernel has the series' K4, which then clears CPU 0 */
static void read_cmdline(const struct nocb_ctx *ctx,
			 const struct cpu_state *cs, struct offload_info *oi,
			 bool k4, bool *nocbs, bool *nohz)
{
	char path[4096], why[512];
	char *buf, *shown;
	size_t len;
	bool found;

	*nocbs = *nohz = false;
	if (nocb_path(ctx, path, sizeof(path), "/proc/cmdline") ||
	    nocb_read_file(path, &buf, &len))
		return;
	proc_parse_cmdline(buf, len, cs->nbits, &oi->kc);
	if (cmdline_list(buf, len, "rcu_nocbs", cs->nbits, &found, &oi->nocbs,
			 &shown, why, sizeof(why))) {
		oi->nocbs = cs->possible;
		if (k4)
			cpulist_unset(&oi->nocbs, 0);
		if (asprintf(&oi->nocbs_warning,
			     "%s is not a valid CPU list (%s): the kernel offloaded all CPUs%s",
			     shown ? shown : "rcu_nocbs=", why,
			     k4 ? " but CPU 0 (K4)" : "") < 0)
			oi->nocbs_warning = NULL;
	}
	free(shown);
	*nocbs = found;
	if (cmdline_list(buf, len, "nohz_full", cs->nbits, &found, &oi->nohz,
			 &shown, why, sizeof(why))) {
		cpulist_clear(&oi->nohz);
		if (asprintf(&oi->nohz_warning,
			     "%s is not a valid CPU list (%s): the kernel ignored it",
			     shown ? shown : "nohz_full=", why) < 0)
			oi->nohz_warning = NULL;
	}
	free(shown);
	*nohz = found;
	cpulist_and(&oi->nocbs, &oi->nocbs, &cs->possible);
	cpulist_and(&oi->nohz, &oi->nohz, &cs->possible);
	free(buf);
}

void offload_read(const struct nocb_ctx *ctx, const struct cpu_state *cs,
		  struct offload_info *oi)
{
	const struct rcudata_cpu *c0;
	struct cpulist now;
	char err[256];
	bool nocbs, nohz, k4, sysfs;

	memset(oi, 0, sizeof(*oi));
	oi->rd_status = rcudata_read(ctx, &oi->rd, oi->rd_err,
				     sizeof(oi->rd_err));
	oi->debugfs = rcudata_debugfs_mounted(ctx);
	oi->no_debugfs = rcudata_no_debugfs(ctx);
	/* only the series' kernel has rcudata or K6; K4 unless CPU 0 N */
	sysfs = !offload_read_nocbs(ctx, cs->nbits, &now, err, sizeof(err));
	c0 = oi->rd_status == RCUDATA_OK ? rcudata_find(&oi->rd, 0) : NULL;
	k4 = sysfs || oi->rd_status == RCUDATA_MALFORMED ||
	     (oi->rd_status == RCUDATA_OK && !(c0 && c0->offloaded));
	read_cmdline(ctx, cs, oi, k4, &nocbs, &nohz);
	oi->poll = oi->kc.poll;
	/* no rcu_nocbs= and no nohz_full=: nothing offloaded at boot */
	if (nocbs || nohz)
		cpulist_or(&oi->boot, &oi->nocbs, &oi->nohz);
	if (k4)
		cpulist_unset(&oi->boot, 0);
	if (sysfs) {
		oi->source = OFFLOAD_SYSFS;
		oi->offloaded = now;
	} else if (oi->rd_status == RCUDATA_OK) {
		struct cpulist unlisted = cs->possible;

		oi->source = OFFLOAD_RCUDATA;
		for (size_t i = 0; i < oi->rd.n; i++) {
			if (oi->rd.cpus[i].offloaded)
				cpulist_set(&oi->offloaded, oi->rd.cpus[i].cpu);
			cpulist_unset(&unlisted, oi->rd.cpus[i].cpu);
		}
		/* the kernel has no say yet on these: tell what it will do */
		if (oi->kc.have) {
			cpulist_and(&oi->pending_offloaded, &unlisted, &oi->boot);
			cpulist_andnot(&oi->pending_normal, &unlisted, &oi->boot);
		} else {
			oi->unknown = unlisted;
		}
	} else if (oi->kc.have) {
		oi->source = OFFLOAD_CMDLINE;
		oi->offloaded = oi->boot;
		if (oi->nocbs_warning)
			fprintf(ctx->err, "nocbctl: warning: %s\n",
				oi->nocbs_warning);
		if (oi->nohz_warning)
			fprintf(ctx->err, "nocbctl: warning: %s\n",
				oi->nohz_warning);
	} else {
		oi->source = OFFLOAD_UNKNOWN;
	}
}

void offload_free(struct offload_info *oi)
{
	rcudata_free(&oi->rd);
	free(oi->nocbs_warning);
	free(oi->nohz_warning);
	oi->nocbs_warning = oi->nohz_warning = NULL;
}

bool offload_kthread_on_own_cpu(const struct kthread *kt,
				const struct cpulist *offloaded)
{
	return cpulist_test(offloaded, kt->cpu) &&
	       cpulist_test(&kt->allowed, kt->cpu);
}

const char *offload_source_name(enum offload_source s)
{
	switch (s) {
	case OFFLOAD_SYSFS: return "rcu_nocbs";
	case OFFLOAD_RCUDATA: return "rcudata";
	case OFFLOAD_CMDLINE: return "cmdline";
	default: return "unknown";
	}
}

int offload_read_nocbs(const struct nocb_ctx *ctx, int nbits,
		       struct cpulist *out, char *err, size_t errlen)
{
	char path[4096], why[256];
	char *buf;
	size_t len;
	int r;

	if (nocb_path(ctx, path, sizeof(path), RCU_NOCBS_PATH)) {
		snprintf(err, errlen, "path too long");
		return -ENAMETOOLONG;
	}
	r = nocb_read_file(path, &buf, &len);
	if (r) {
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	/* the kernel prints "LIST\n"; the parser stops at that newline */
	r = cpulist_parse(buf, len, nbits, out, why, sizeof(why));
	if (r) {
		snprintf(err, errlen, "%s: not a CPU list (%s)", path, why);
		r = -EINVAL;
	}
	free(buf);
	return r;
}
