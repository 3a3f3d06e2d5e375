// SPDX-License-Identifier: GPL-2.0
/* cpulist.c - CPU sets and the kernel's cpulist syntax (see cpulist.h). */
#include "cpulist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORDS (NOCB_MAX_CPUS / 64)

void cpulist_clear(struct cpulist *s)
{
	memset(s, 0, sizeof(*s));
}

void cpulist_set(struct cpulist *s, int cpu)
{
	if (cpu >= 0 && cpu < NOCB_MAX_CPUS)
		s->bits[cpu / 64] |= UINT64_C(1) << (cpu % 64);
}

void cpulist_unset(struct cpulist *s, int cpu)
{
	if (cpu >= 0 && cpu < NOCB_MAX_CPUS)
		s->bits[cpu / 64] &= ~(UINT64_C(1) << (cpu % 64));
}

bool cpulist_test(const struct cpulist *s, int cpu)
{
	if (cpu < 0 || cpu >= NOCB_MAX_CPUS)
		return false;
	return (s->bits[cpu / 64] >> (cpu % 64)) & 1;
}

int cpulist_count(const struct cpulist *s)
{
	int n = 0;

	for (int i = 0; i < WORDS; i++)
		n += __builtin_popcountll(s->bits[i]);
	return n;
}

bool cpulist_empty(const struct cpulist *s)
{
	for (int i = 0; i < WORDS; i++)
		if (s->bits[i])
			return false;
	return true;
}

bool cpulist_equal(const struct cpulist *a, const struct cpulist *b)
{
	return memcmp(a->bits, b->bits, sizeof(a->bits)) == 0;
}

bool cpulist_subset(const struct cpulist *a, const struct cpulist *b)
{
	for (int i = 0; i < WORDS; i++)
		if (a->bits[i] & ~b->bits[i])
			return false;
	return true;
}

void cpulist_and(struct cpulist *dst, const struct cpulist *a,
		 const struct cpulist *b)
{
	for (int i = 0; i < WORDS; i++)
		dst->bits[i] = a->bits[i] & b->bits[i];
}

void cpulist_or(struct cpulist *dst, const struct cpulist *a,
		const struct cpulist *b)
{
	for (int i = 0; i < WORDS; i++)
		dst->bits[i] = a->bits[i] | b->bits[i];
}

void cpulist_andnot(struct cpulist *dst, const struct cpulist *a,
		    const struct cpulist *b)
{
	for (int i = 0; i < WORDS; i++)
		dst->bits[i] = a->bits[i] & ~b->bits[i];
}

int cpulist_next(const struct cpulist *s, int from)
{
	if (from < 0)
		from = 0;
	for (int cpu = from; cpu < NOCB_MAX_CPUS; cpu++) {
		uint64_t w = s->bits[cpu / 64] >> (cpu % 64);

		if (!w) {
			cpu |= 63;	/* skip rest of word */
			continue;
		}
		return cpu + __builtin_ctzll(w);
	}
	return -1;
}

int cpulist_last(const struct cpulist *s)
{
	for (int i = WORDS - 1; i >= 0; i--)
		if (s->bits[i])
			return i * 64 + 63 - __builtin_clzll(s->bits[i]);
	return -1;
}

/* --- parser ------------------------------------------------------------ */

struct cur {
	const char *p, *end;
};

static bool at_end(const struct cur *c)
{
	return c->p >= c->end;
}

static void skip_ws(struct cur *c)
{
	while (!at_end(c) && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n'))
		c->p++;
}

/* Parse a decimal or "N". Returns 0, or -1 with err set. */
static int get_num(struct cur *c, int nbits, long *val, char *err,
		   size_t errlen)
{
	long v = 0;
	int digits = 0;

	if (!at_end(c) && *c->p == 'N') {
		c->p++;
		if (nbits <= 0) {
			snprintf(err, errlen, "\"N\" needs the possible CPUs");
			return -1;
		}
		*val = nbits - 1;
		return 0;
	}
	while (!at_end(c) && *c->p >= '0' && *c->p <= '9') {
		if (v > NOCB_MAX_CPUS * 10L) {
			snprintf(err, errlen, "number too large");
			return -1;
		}
		v = v * 10 + (*c->p - '0');
		c->p++;
		digits++;
	}
	if (!digits) {
		if (at_end(c))
			snprintf(err, errlen, "number expected at end of list");
		else
			snprintf(err, errlen, "number expected at '%c'",
				 *c->p);
		return -1;
	}
	*val = v;
	return 0;
}

static int check_cpu(long v, int nbits, char *err, size_t errlen)
{
	if (v >= NOCB_MAX_CPUS) {
		snprintf(err, errlen, "CPU %ld out of range (max %d)", v,
			 NOCB_MAX_CPUS - 1);
		return -1;
	}
	if (nbits > 0 && v >= nbits) {
		snprintf(err, errlen, "CPU %ld is not a possible CPU (0-%d)",
			 v, nbits - 1);
		return -1;
	}
	return 0;
}

static bool match_word(struct cur *c, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(c->end - c->p) < n || strncmp(c->p, w, n) != 0)
		return false;
	/* must be followed by a separator */
	if (c->p + n < c->end && c->p[n] != ',' && c->p[n] != ' ' &&
	    c->p[n] != '\n' && c->p[n] != '\t')
		return false;
	c->p += n;
	return true;
}

int cpulist_parse(const char *s, size_t len, int nbits, struct cpulist *out,
		  char *err, size_t errlen)
{
	struct cur c = { s, s + len };

	cpulist_clear(out);
	skip_ws(&c);
	if (at_end(&c))
		return 0;	/* empty list */
	for (;;) {
		long a, b, used = 1, group = 1;

		skip_ws(&c);
		if (match_word(&c, "all")) {
			if (nbits <= 0) {
				snprintf(err, errlen,
					 "\"all\" needs the possible CPUs");
				return -1;
			}
			for (int i = 0; i < nbits && i < NOCB_MAX_CPUS; i++)
				cpulist_set(out, i);
			goto next;
		}
		if (get_num(&c, nbits, &a, err, errlen))
			return -1;
		b = a;
		if (!at_end(&c) && *c.p == '-') {
			c.p++;
			if (get_num(&c, nbits, &b, err, errlen))
				return -1;
			if (!at_end(&c) && *c.p == ':') {
				c.p++;
				if (get_num(&c, 0, &used, err, errlen))
					return -1;
				if (!at_end(&c) && *c.p == '/') {
					c.p++;
					if (get_num(&c, 0, &group, err,
						    errlen))
						return -1;
				} else {
					/* "a-b:stride" */
					group = used;
					used = 1;
				}
				if (used == 0 || group == 0 || used > group) {
					snprintf(err, errlen,
						 "bad stride %ld/%ld", used,
						 group);
					return -1;
				}
			}
		}
		if (b < a) {
			snprintf(err, errlen, "range %ld-%ld is backwards", a,
				 b);
			return -1;
		}
		if (check_cpu(b, nbits, err, errlen))
			return -1;
		for (long i = a; i <= b; i++)
			if ((i - a) % group < used)
				cpulist_set(out, (int)i);
next:
		skip_ws(&c);
		if (at_end(&c))
			return 0;
		if (*c.p != ',') {
			snprintf(err, errlen, "unexpected '%c'", *c.p);
			return -1;
		}
		c.p++;
		skip_ws(&c);
		if (at_end(&c)) {
			snprintf(err, errlen, "list ends with ','");
			return -1;
		}
	}
}

int cpulist_parse_str(const char *s, int nbits, struct cpulist *out,
		      char *err, size_t errlen)
{
	return cpulist_parse(s, strlen(s), nbits, out, err, errlen);
}

size_t cpulist_format(const struct cpulist *s, char *buf, size_t len)
{
	size_t n = 0;
	int cpu = cpulist_next(s, 0);

	if (len)
		buf[0] = '\0';
	while (cpu >= 0) {
		int end = cpu;
		char tmp[32];
		int w;

		while (cpulist_test(s, end + 1))
			end++;
		if (end == cpu)
			w = snprintf(tmp, sizeof(tmp), "%s%d", n ? "," : "",
				     cpu);
		else
			w = snprintf(tmp, sizeof(tmp), "%s%d-%d",
				     n ? "," : "", cpu, end);
		if (w > 0) {
			if (n + (size_t)w < len)
				memcpy(buf + n, tmp, (size_t)w + 1);
			n += (size_t)w;
		}
		cpu = cpulist_next(s, end + 1);
	}
	return n;
}

char *cpulist_format_alloc(const struct cpulist *s)
{
	size_t n = cpulist_format(s, NULL, 0);
	char *buf = malloc(n + 1);

	if (buf)
		cpulist_format(s, buf, n + 1);
	return buf;
}

int cpulist_validate(const struct cpulist *s, const struct cpulist *possible,
		     const struct cpulist *online, char *err, size_t errlen)
{
	struct cpulist bad;
	char a[256], b[256];

	if (cpulist_empty(s)) {
		snprintf(err, errlen, "empty CPU list");
		return -1;
	}
	cpulist_andnot(&bad, s, possible);
	if (!cpulist_empty(&bad)) {
		cpulist_format(&bad, a, sizeof(a));
		cpulist_format(possible, b, sizeof(b));
		snprintf(err, errlen, "CPU %s not possible (possible: %s)", a,
			 b);
		return -1;
	}
	if (online) {
		cpulist_andnot(&bad, s, online);
		if (!cpulist_empty(&bad)) {
			cpulist_format(&bad, a, sizeof(a));
			cpulist_format(online, b, sizeof(b));
			snprintf(err, errlen, "CPU %s not online (online: %s)",
				 a, b);
			return -1;
		}
	}
	return 0;
}
