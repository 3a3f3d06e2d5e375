// SPDX-License-Identifier: GPL-2.0
/* proc.c - /proc scanning and parsers (see proc.h). */
#define _GNU_SOURCE
#include "proc.h"

#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *prefix;
	unsigned kind;
} kt_names[] = {
	{ "rcuog/", KT_RCUOG },
	{ "rcuop/", KT_RCUOP },
	{ "rcuos/", KT_RCUOS },
	{ "rcuob/", KT_RCUOB },
};

unsigned kt_select(const char *word)
{
	if (!strcmp(word, "rcuo"))
		return KT_ALL;
	if (!strcmp(word, "rcuog"))
		return KT_RCUOG;
	if (!strcmp(word, "rcuop"))
		return KT_RCUOP;
	return 0;
}

unsigned kt_parse_name(const char *comm, int *cpu)
{
	for (size_t i = 0; i < sizeof(kt_names) / sizeof(kt_names[0]); i++) {
		size_t n = strlen(kt_names[i].prefix);
		const char *p = comm + n;
		long v = 0;

		if (strncmp(comm, kt_names[i].prefix, n))
			continue;
		if (!*p)
			return 0;
		for (; *p; p++) {
			if (*p < '0' || *p > '9' || v >= NOCB_MAX_CPUS)
				return 0;
			v = v * 10 + (*p - '0');
		}
		if (v >= NOCB_MAX_CPUS)
			return 0;
		*cpu = (int)v;
		return kt_names[i].kind;
	}
	return 0;
}

int proc_parse_status(const char *buf, size_t len, int nbits,
		      struct proc_status *st, char *err, size_t errlen)
{
	const char *p = buf, *end = buf + len;

	memset(st, 0, sizeof(*st));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *colon = memchr(p, ':', (size_t)(le - p));

		if (colon) {
			size_t klen = (size_t)(colon - p);
			const char *v = colon + 1;

			while (v < le && (*v == ' ' || *v == '\t'))
				v++;
			if (klen == 4 && !memcmp(p, "Name", 4)) {
				size_t n = (size_t)(le - v);

				if (n >= sizeof(st->name))
					n = sizeof(st->name) - 1;
				memcpy(st->name, v, n);
				st->name[n] = '\0';
			} else if (klen == 17 &&
				   !memcmp(p, "Cpus_allowed_list", 17)) {
				char why[128];

				if (st->have_allowed) {
					snprintf(err, errlen,
						 "Cpus_allowed_list twice");
					return -1;
				}
				if (cpulist_parse(v, (size_t)(le - v), nbits,
						  &st->allowed, why,
						  sizeof(why))) {
					snprintf(err, errlen,
						 "Cpus_allowed_list: %s", why);
					return -1;
				}
				st->have_allowed = true;
			}
		}
		p = nl ? nl + 1 : end;
	}
	if (!st->have_allowed) {
		snprintf(err, errlen, "no Cpus_allowed_list");
		return -1;
	}
	return 0;
}

int proc_parse_stat(const char *buf, size_t len, struct proc_stat *st,
		    char *err, size_t errlen)
{
	const char *open, *close = NULL, *p, *end = buf + len;
	int field = 3;

	memset(st, 0, sizeof(*st));
	open = memchr(buf, '(', len);
	for (p = buf; p < end; p++)
		if (*p == ')')
			close = p;
	if (!open || !close || close < open) {
		snprintf(err, errlen, "no (comm) in stat");
		return -1;
	}
	{
		size_t n = (size_t)(close - open - 1);

		if (n >= sizeof(st->comm))
			n = sizeof(st->comm) - 1;
		memcpy(st->comm, open + 1, n);
		st->comm[n] = '\0';
	}
	p = close + 1;
	while (p < end && field <= 41) {
		const char *t;
		char tmp[32];
		size_t n;
		char *e;

		while (p < end && (*p == ' ' || *p == '\n'))
			p++;
		if (p >= end)
			break;
		t = p;
		while (p < end && *p != ' ' && *p != '\n')
			p++;
		n = (size_t)(p - t);
		if (field == 9 || field == 19 || field == 22 || field == 40 ||
		    field == 41) {
			if (n == 0 || n >= sizeof(tmp))
				goto bad;
			memcpy(tmp, t, n);
			tmp[n] = '\0';
			errno = 0;
			if (field == 19) {
				long v = strtol(tmp, &e, 10);

				if (*e || errno)
					goto bad;
				st->nice = v;
			} else if (field == 22) {
				unsigned long long v;

				if (tmp[0] == '-')
					goto bad;
				v = strtoull(tmp, &e, 10);
				if (*e || errno)
					goto bad;
				st->starttime = v;
			} else {
				unsigned long v;

				if (tmp[0] == '-')
					goto bad;
				v = strtoul(tmp, &e, 10);
				if (*e || errno)
					goto bad;
				if (field == 9)
					st->flags = v;
				else if (field == 40)
					st->rt_priority = v;
				else
					st->policy = v;
			}
		}
		field++;
	}
	if (field <= 41) {
		snprintf(err, errlen, "stat has only %d fields", field - 1);
		return -1;
	}
	return 0;
bad:
	snprintf(err, errlen, "bad number in stat field %d", field);
	return -1;
}

static int read_pid_file(const struct nocb_ctx *ctx, pid_t pid,
			 const char *file, char **buf, size_t *len)
{
	char path[4096];

	if (nocb_path(ctx, path, sizeof(path), "/proc/%d/%s", (int)pid, file))
		return -ENAMETOOLONG;
	return nocb_read_file(path, buf, len);
}

/* /proc/PID/stat parsed: -ESRCH if the task is gone, -EINVAL if unparsable. */
static int read_pid_stat(const struct nocb_ctx *ctx, pid_t pid,
			 struct proc_stat *pst)
{
	char *buf, why[160];
	size_t len;
	int r;

	r = read_pid_file(ctx, pid, "stat", &buf, &len);
	if (r)
		return r == -ENOENT ? -ESRCH : r;
	r = proc_parse_stat(buf, len, pst, why, sizeof(why));
	free(buf);
	return r ? -EINVAL : 0;
}

int proc_read_allowed(const struct nocb_ctx *ctx, pid_t pid, int nbits,
		      struct cpulist *allowed)
{
	struct proc_status ps;
	char *buf;
	size_t len;
	char why[160];
	int r;

	r = read_pid_file(ctx, pid, "status", &buf, &len);
	if (r)
		return r == -ENOENT ? -ESRCH : r;
	r = proc_parse_status(buf, len, nbits, &ps, why, sizeof(why));
	free(buf);
	if (r)
		return -EINVAL;
	*allowed = ps.allowed;
	return 0;
}

int proc_read_kthread(const struct nocb_ctx *ctx, pid_t pid, int nbits,
		      struct kthread *kt)
{
	struct proc_stat pst;
	int r;

	r = proc_read_allowed(ctx, pid, nbits, &kt->allowed);
	if (r)
		return r;
	r = read_pid_stat(ctx, pid, &pst);
	if (r)
		return r;
	kt->policy = (int)(pst.policy & 0xff);
	kt->rt_priority = (int)pst.rt_priority;
	kt->nice = (int)pst.nice;
	kt->starttime = pst.starttime;
	kt->flags = pst.flags;
	if (!(pst.flags & PF_KTHREAD_FLAG))
		return -EPERM;	/* not a kernel thread */
	return 0;
}

int proc_recheck_kthread(const struct nocb_ctx *ctx, const struct kthread *kt)
{
	struct proc_stat pst;
	int r;

	r = read_pid_stat(ctx, kt->pid, &pst);
	if (r)
		return r;
	if (strcmp(pst.comm, kt->name) || !(pst.flags & PF_KTHREAD_FLAG) ||
	    pst.starttime != kt->starttime)
		return -ESRCH;	/* exited; the pid is another task's now */
	return 0;
}

static int kt_cmp(const void *a, const void *b)
{
	const struct kthread *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

int proc_scan_kthreads(const struct nocb_ctx *ctx, const char *what,
		       unsigned kinds, int nbits, struct kthread_list *out)
{
	char path[4096];
	DIR *d;
	struct dirent *de;

	memset(out, 0, sizeof(*out));
	if (nocb_path(ctx, path, sizeof(path), "/proc")) {
		nocb_err(ctx, what, "/proc: path too long");
		return -1;
	}
	d = opendir(path);
	if (!d) {
		nocb_err(ctx, what, "%s: %s", path, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		struct kthread kt;
		char *comm;
		size_t len;
		char *e;
		long pid;
		int r;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		pid = strtol(de->d_name, &e, 10);
		if (*e || pid <= 0 || pid > 0x7fffffff)
			continue;
		memset(&kt, 0, sizeof(kt));
		r = read_pid_file(ctx, (pid_t)pid, "comm", &comm, &len);
		/*
		 * ENOENT/ESRCH: the task exited between readdir() and here,
		 * which is no failure. Anything else may hide one of ours.
		 */
		if (r == -ENOENT || r == -ESRCH) {
			out->vanished++;
			continue;
		}
		if (r) {
			nocb_err(ctx, what, "/proc/%ld/comm: %s", pid,
				 strerror(-r));
			out->failed++;
			continue;
		}
		while (len && comm[len - 1] == '\n')
			comm[--len] = '\0';
		kt.kind = kt_parse_name(comm, &kt.cpu);
		if (!kt.kind) {
			kt.kind = KT_OTHER;
			kt.cpu = -1;
		}
		snprintf(kt.name, sizeof(kt.name), "%s", comm);
		free(comm);
		if (!(kt.kind & kinds))
			continue;
		kt.pid = (pid_t)pid;
		r = proc_read_kthread(ctx, kt.pid, nbits, &kt);
		if (r == -ESRCH) {
			out->vanished++;	/* exited meanwhile, as above */
			continue;
		}
		if (r == -EPERM)
			continue;	/* a user process with that name */
		if (r) {
			nocb_err(ctx, what, "/proc/%ld (%s): %s", pid, kt.name,
				 r == -EINVAL ? "unparsable status or stat"
					      : strerror(-r));
			out->failed++;
			continue;
		}
		if (out->n == out->cap) {
			size_t nc = out->cap ? out->cap * 2 : 32;
			struct kthread *nv =
				realloc(out->v, nc * sizeof(*nv));

			if (!nv) {
				closedir(d);
				kthread_list_free(out);
				nocb_err(ctx, what, "out of memory");
				return -1;
			}
			out->v = nv;
			out->cap = nc;
		}
		out->v[out->n++] = kt;
	}
	closedir(d);
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), kt_cmp);
	return 0;
}

void kthread_list_free(struct kthread_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

const char *sched_policy_name(int policy)
{
	switch (policy) {
	case SCHED_OTHER: return "other";
	case SCHED_FIFO: return "fifo";
	case SCHED_RR: return "rr";
	case SCHED_BATCH: return "batch";
	case SCHED_IDLE: return "idle";
	case SCHED_DEADLINE: return "deadline";
	default: return "?";
	}
}

int sched_policy_parse(const char *s)
{
	if (!strcmp(s, "other"))
		return SCHED_OTHER;
	if (!strcmp(s, "fifo"))
		return SCHED_FIFO;
	if (!strcmp(s, "rr"))
		return SCHED_RR;
	return -1;
}

const char *proc_cmdline_word(const char **p, const char *end, size_t *n)
{
	const char *s = *p, *t;

	while (s < end && (*s == ' ' || *s == '\n' || *s == '\t'))
		s++;
	t = s;
	while (s < end && *s != ' ' && *s != '\n' && *s != '\t')
		s++;
	*p = s;
	*n = (size_t)(s - t);
	if (!*n || (*n == 2 && !memcmp(t, "--", 2)))
		return NULL;
	return t;
}

void proc_parse_cmdline(const char *buf, size_t len, int nbits,
			struct kcmdline *kc)
{
	const char *p = buf, *end = buf + len, *t;
	char why[128];
	size_t n;

	memset(kc, 0, sizeof(*kc));
	kc->have = true;
	while ((t = proc_cmdline_word(&p, end, &n))) {
		const char *eq = memchr(t, '=', n);

		if (n == 13 && !memcmp(t, "rcu_nocb_poll", 13)) {
			kc->poll = true;
		} else if ((n == 9 && !memcmp(t, "rcu_nocbs", 9)) ||
			   (eq && eq - t == 9 && !memcmp(t, "rcu_nocbs", 9))) {
			kc->rcu_nocbs = true;
			kc->nocbs_bad = false;
			if (eq && cpulist_parse(eq + 1, (size_t)(p - eq - 1),
						nbits, &kc->nocbs, why,
						sizeof(why)))
				kc->nocbs_bad = true;
		} else if (eq && eq - t == 9 && !memcmp(t, "nohz_full", 9)) {
			kc->nohz_full = true;
			kc->nohz_bad = false;
			if (cpulist_parse(eq + 1, (size_t)(p - eq - 1), nbits,
					  &kc->nohz, why, sizeof(why)))
				kc->nohz_bad = true;
		}
	}
}

int proc_read_cmdline(const struct nocb_ctx *ctx, int nbits,
		      struct kcmdline *kc)
{
	char path[4096];
	char *buf;
	size_t len;
	int r;

	memset(kc, 0, sizeof(*kc));
	if (nocb_path(ctx, path, sizeof(path), "/proc/cmdline"))
		return -ENAMETOOLONG;
	r = nocb_read_file(path, &buf, &len);
	if (r)
		return r;
	proc_parse_cmdline(buf, len, nbits, kc);
	free(buf);
	return 0;
}
