// SPDX-License-Identifier: GPL-2.0
/* sysfs.c - CPU state from /sys/devices/system/cpu. */
#include "sysfs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CPUDIR "/sys/devices/system/cpu"
/* cgroup v2 (6.7+): the CPUs of every isolated cpuset partition */
#define PARTITION_ISOLATED "/sys/fs/cgroup/cpuset.cpus.isolated"

/* 0 ok, -errno if unreadable, -EINVAL (with err) if unparsable */
static int read_list(const struct nocb_ctx *ctx, const char *name, int nbits,
		     struct cpulist *out, char *err, size_t errlen)
{
	char path[4096];
	char *buf;
	size_t len;
	int r;

	cpulist_clear(out);
	/* a name of CPUDIR, or an absolute path */
	if (nocb_path(ctx, path, sizeof(path), "%s%s%s",
		      name[0] == '/' ? "" : CPUDIR, name[0] == '/' ? "" : "/",
		      name))
		return -ENAMETOOLONG;
	r = nocb_read_file(path, &buf, &len);
	if (r)
		return r;
	/* nohz_full reads "(null)" when no nohz_full= was given */
	if (len >= 6 && !memcmp(buf, "(null)", 6))
		len = 0;
	r = cpulist_parse(buf, len, nbits, out, err, errlen);
	free(buf);
	return r ? -EINVAL : 0;
}

int sysfs_read_cpus(const struct nocb_ctx *ctx, const char *what,
		    struct cpu_state *st)
{
	struct {
		const char *name;
		struct cpulist *set;
		bool *have;
	} opt[] = {
		{ "present", &st->present, &st->have_present },
		{ "offline", &st->offline, &st->have_offline },
		{ "isolated", &st->isolated, &st->have_isolated },
		{ "nohz_full", &st->nohz_full, &st->have_nohz_full },
		{ PARTITION_ISOLATED, &st->partition, &st->have_partition },
	};
	char err[256];
	int r;

	memset(st, 0, sizeof(*st));
	r = read_list(ctx, "possible", 0, &st->possible, err, sizeof(err));
	if (r == -EINVAL) {
		nocb_err(ctx, what, "%s/possible: %s", CPUDIR, err);
		return -1;
	}
	if (r) {
		nocb_err(ctx, what, "%s/possible: %s", CPUDIR, strerror(-r));
		return -1;
	}
	if (cpulist_empty(&st->possible)) {
		nocb_err(ctx, what, "%s/possible: no possible CPUs", CPUDIR);
		return -1;
	}
	st->nbits = cpulist_last(&st->possible) + 1;
	r = read_list(ctx, "online", st->nbits, &st->online, err, sizeof(err));
	if (r) {
		nocb_err(ctx, what, "%s/online: %s", CPUDIR,
			 r == -EINVAL ? err : strerror(-r));
		return -1;
	}
	for (size_t i = 0; i < sizeof(opt) / sizeof(opt[0]); i++) {
		r = read_list(ctx, opt[i].name, st->nbits, opt[i].set, err,
			      sizeof(err));
		if (r == -EINVAL) {
			nocb_err(ctx, what, "%s%s%s: %s",
				 opt[i].name[0] == '/' ? "" : CPUDIR,
				 opt[i].name[0] == '/' ? "" : "/", opt[i].name,
				 err);
			return -1;
		}
		*opt[i].have = r == 0;
	}
	if (!st->have_offline)
		cpulist_andnot(&st->offline, &st->possible, &st->online);
	return 0;
}

int sysfs_online_path(const struct nocb_ctx *ctx, int cpu, char *buf,
		      size_t len)
{
	return nocb_path(ctx, buf, len, CPUDIR "/cpu%d/online", cpu);
}

int sysfs_cpu_hotpluggable(const struct nocb_ctx *ctx, int cpu)
{
	char path[4096];

	if (sysfs_online_path(ctx, cpu, path, sizeof(path)))
		return 0;
	return access(path, F_OK) == 0;
}

int sysfs_usable_cpus(const struct cpu_state *cs, struct cpulist *s,
		      struct cpulist *dropped, char *err, size_t errlen)
{
	struct cpulist on;

	cpulist_clear(dropped);
	if (cpulist_validate(s, &cs->possible, NULL, err, errlen))
		return -1;
	cpulist_and(&on, s, &cs->online);
	if (cpulist_empty(&on)) {
		/* says which are not online */
		cpulist_validate(s, &cs->possible, &cs->online, err, errlen);
		return -1;
	}
	cpulist_andnot(dropped, s, &on);
	*s = on;
	return 0;
}

void sysfs_note_dropped(const struct nocb_ctx *ctx, const char *what,
			const struct cpulist *dropped,
			const struct cpulist *used)
{
	char *d = cpulist_format_alloc(dropped);
	char *u = cpulist_format_alloc(used);

	nocb_err(ctx, what, "CPUs %s are offline; using %s", d ? d : "?",
		 u ? u : "?");
	free(d);
	free(u);
}

int sysfs_cpu_online(const struct nocb_ctx *ctx, int cpu)
{
	char path[4096];
	char *buf;
	int r;

	if (sysfs_online_path(ctx, cpu, path, sizeof(path)))
		return -ENAMETOOLONG;
	r = nocb_read_file(path, &buf, NULL);
	if (r == -ENOENT) {
		char err[128];
		struct cpulist online;

		if (read_list(ctx, "online", 0, &online, err, sizeof(err)))
			return -EIO;
		return cpulist_test(&online, cpu);
	}
	if (r)
		return r;
	r = buf[0] == '1' ? 1 : buf[0] == '0' ? 0 : -EINVAL;
	free(buf);
	return r;
}
