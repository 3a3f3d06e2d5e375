// SPDX-License-Identifier: GPL-2.0
/* rcudata.c - parser for /sys/kernel/debug/rcu/rcudata (see rcudata.h). */
#include "rcudata.h"
#include "cpulist.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

/* Parse an unsigned decimal in [p,end). */
static int get_ulong(const char *p, const char *end, unsigned long *out)
{
	unsigned long v = 0;

	if (p >= end)
		return -1;
	for (; p < end; p++) {
		unsigned d;

		if (*p < '0' || *p > '9')
			return -1;
		d = (unsigned)(*p - '0');
		if (v > (ULONG_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int get_long(const char *p, const char *end, long *out)
{
	bool neg = false;
	unsigned long u;

	if (p < end && *p == '-') {
		neg = true;
		p++;
	}
	if (get_ulong(p, end, &u))
		return -1;
	if (neg) {
		if (u > (unsigned long)LONG_MAX + 1)
			return -1;
		*out = u == (unsigned long)LONG_MAX + 1 ? LONG_MIN : -(long)u;
	} else {
		if (u > LONG_MAX)
			return -1;
		*out = (long)u;
	}
	return 0;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static bool key_is(const char *k, size_t klen, const char *name)
{
	return strlen(name) == klen && memcmp(k, name, klen) == 0;
}

enum { F_QL = 1, F_B = 2, F_CI = 4, F_NCI = 8, F_CO = 16, F_CA = 32 };

/* Parse one line [p,end). Returns 0, or -1 with reason in err. */
static int parse_line(const char *p, const char *end, struct rcudata_cpu *c,
		      char *err, size_t errlen)
{
	unsigned long cpu = 0;
	const char *q;
	unsigned seen = 0;

	memset(c, 0, sizeof(*c));
	while (p < end && is_space(*p))
		p++;
	q = p;
	while (q < end && *q >= '0' && *q <= '9')
		q++;
	if (q == p) {
		snprintf(err, errlen, "CPU number expected");
		return -1;
	}
	if (get_ulong(p, q, &cpu) || cpu >= NOCB_MAX_CPUS) {
		snprintf(err, errlen, "CPU number out of range");
		return -1;
	}
	c->cpu = (int)cpu;
	for (p = q; p < end && !is_space(*p); p++) {
		if (*p == '!' && !c->offline && !c->offloaded) {
			c->offline = true;
		} else if (*p == 'N' && !c->offloaded) {
			c->offloaded = true;
		} else {
			snprintf(err, errlen, "unknown CPU flag '%c'",
				 (*p >= 0x20 && *p < 0x7f) ? *p : '?');
			return -1;
		}
	}
	for (;;) {
		const char *k, *eq, *v, *vend;
		size_t klen;
		unsigned bit = 0;

		while (p < end && is_space(*p))
			p++;
		if (p >= end)
			break;
		k = p;
		while (p < end && !is_space(*p))
			p++;
		vend = p;
		eq = memchr(k, '=', (size_t)(vend - k));
		if (!eq || eq == k) {
			snprintf(err, errlen, "field %.*s is not key=value",
				 (int)(vend - k > 32 ? 32 : vend - k), k);
			return -1;
		}
		klen = (size_t)(eq - k);
		v = eq + 1;
		if (v == vend) {
			snprintf(err, errlen, "empty value for %.*s",
				 (int)(klen > 32 ? 32 : klen), k);
			return -1;
		}
		if (key_is(k, klen, "ql")) {
			const char *slash = memchr(v, '/', (size_t)(vend - v));

			bit = F_QL;
			if (!slash || get_long(v, slash, &c->lazy) ||
			    get_long(slash + 1, vend, &c->total)) {
				snprintf(err, errlen,
					 "ql= needs LAZY/TOTAL numbers");
				return -1;
			}
		} else if (key_is(k, klen, "b")) {
			bit = F_B;
			if (get_long(v, vend, &c->blimit))
				goto badnum;
		} else {
			static const struct {
				const char *name;
				unsigned bit;
				size_t off;
			} u[] = {
				{ "ci", F_CI, offsetof(struct rcudata_cpu, ci) },
				{ "nci", F_NCI,
				  offsetof(struct rcudata_cpu, nci) },
				{ "co", F_CO, offsetof(struct rcudata_cpu, co) },
				{ "ca", F_CA, offsetof(struct rcudata_cpu, ca) },
			};
			for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
				if (!key_is(k, klen, u[i].name))
					continue;
				bit = u[i].bit;
				if (get_ulong(v, vend,
					      (unsigned long *)((char *)c +
								u[i].off)))
					goto badnum;
			}
			/* unknown key: tolerated */
		}
		if (bit & seen) {
			snprintf(err, errlen, "duplicate field %.*s",
				 (int)klen, k);
			return -1;
		}
		seen |= bit;
		continue;
badnum:
		snprintf(err, errlen, "bad number in %.*s",
			 (int)(vend - k > 32 ? 32 : vend - k), k);
		return -1;
	}
	if (!(seen & F_QL) || !(seen & F_CI)) {
		snprintf(err, errlen, "missing %s field",
			 !(seen & F_QL) ? "ql=" : "ci=");
		return -1;
	}
	c->have_nci = seen & F_NCI;
	c->have_co = seen & F_CO;
	c->have_ca = seen & F_CA;
	return 0;
}

int rcudata_parse(const char *buf, size_t len, struct rcudata *rd, char *err,
		  size_t errlen)
{
	const char *p = buf, *end = buf + len;
	size_t cap = 0, lineno = 0;
	struct cpulist seen;
	char why[160];

	rd->n = 0;
	rd->cpus = NULL;
	cpulist_clear(&seen);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *t;
		struct rcudata_cpu c;

		lineno++;
		for (t = p; t < le && is_space(*t); t++)
			;
		if (t == le)
			goto next;	/* blank line */
		if (memchr(p, '\0', (size_t)(le - p))) {
			snprintf(why, sizeof(why), "NUL byte");
			goto bad;
		}
		if (parse_line(p, le, &c, why, sizeof(why)))
			goto bad;
		if (cpulist_test(&seen, c.cpu)) {
			snprintf(why, sizeof(why), "CPU %d listed twice",
				 c.cpu);
			goto bad;
		}
		cpulist_set(&seen, c.cpu);
		if (rd->n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			struct rcudata_cpu *nc =
				realloc(rd->cpus, ncap * sizeof(*nc));

			if (!nc) {
				snprintf(why, sizeof(why), "out of memory");
				goto bad;
			}
			rd->cpus = nc;
			cap = ncap;
		}
		rd->cpus[rd->n++] = c;
next:
		p = nl ? nl + 1 : end;
	}
	return 0;
bad:
	snprintf(err, errlen, "line %zu: %s", lineno, why);
	rcudata_free(rd);
	return -1;
}

void rcudata_free(struct rcudata *rd)
{
	free(rd->cpus);
	rd->cpus = NULL;
	rd->n = 0;
}

const struct rcudata_cpu *rcudata_find(const struct rcudata *rd, int cpu)
{
	for (size_t i = 0; i < rd->n; i++)
		if (rd->cpus[i].cpu == cpu)
			return &rd->cpus[i];
	return NULL;
}

bool rcudata_debugfs_mounted(const struct nocb_ctx *ctx)
{
	char dir[4096];
	DIR *d;
	struct dirent *e;
	bool any = false;

	if (nocb_path(ctx, dir, sizeof(dir), "/sys/kernel/debug"))
		return false;
	d = opendir(dir);
	if (!d)
		return false;
	while (!any && (e = readdir(d)))
		any = strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return any;
}

bool rcudata_no_debugfs(const struct nocb_ctx *ctx)
{
	char path[4096];
	char *buf, *line, *save = NULL;
	size_t len;
	bool found = false;

	if (nocb_path(ctx, path, sizeof(path), "/proc/filesystems") ||
	    nocb_read_file(path, &buf, &len))
		return false;	/* cannot tell: claim nothing */
	/* lines are "nodev\tNAME" or "\tNAME" */
	for (line = strtok_r(buf, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *tab = strrchr(line, '\t');

		found = !strcmp(tab ? tab + 1 : line, "debugfs");
	}
	free(buf);
	return !found;
}

enum rcudata_status rcudata_read(const struct nocb_ctx *ctx,
				 struct rcudata *rd, char *err, size_t errlen)
{
	char path[4096], why[200];
	char *buf;
	size_t len;
	int r;

	rd->n = 0;
	rd->cpus = NULL;
	if (nocb_path(ctx, path, sizeof(path), RCUDATA_PATH)) {
		snprintf(err, errlen, "path too long");
		return RCUDATA_UNREADABLE;
	}
	r = nocb_read_file(path, &buf, &len);
	if (r == -ENOENT) {
		char dir[4096];
		struct stat sb;

		if (rcudata_no_debugfs(ctx))
			snprintf(err, errlen,
				 "%s: absent: this kernel has no debugfs (CONFIG_DEBUG_FS=n), so it cannot have rcudata",
				 RCUDATA_PATH);
		else if ((!nocb_path(ctx, dir, sizeof(dir), "/sys/kernel/debug/rcu")
			  && stat(dir, &sb) == 0) || rcudata_debugfs_mounted(ctx))
			snprintf(err, errlen,
				 "%s: not provided by this kernel (debugfs is mounted; a kernel without the nocb series)",
				 RCUDATA_PATH);
		else
			snprintf(err, errlen,
				 "%s: absent (kernel without it, or debugfs not mounted)",
				 RCUDATA_PATH);
		return RCUDATA_ABSENT;
	}
	if (r) {
		snprintf(err, errlen, "%s: %s", RCUDATA_PATH, strerror(-r));
		return (r == -EACCES || r == -EPERM) ? RCUDATA_DENIED
						     : RCUDATA_UNREADABLE;
	}
	r = rcudata_parse(buf, len, rd, why, sizeof(why));
	free(buf);
	if (r) {
		snprintf(err, errlen, "%s: %s", RCUDATA_PATH, why);
		return RCUDATA_MALFORMED;
	}
	return RCUDATA_OK;
}
