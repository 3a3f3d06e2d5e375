// SPDX-License-Identifier: GPL-2.0
/* cpulist.c - CPU sets and the kernel's cpulist syntax (see cpulist.h). */
#include "cpulist.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
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

/*
 * The rules are those of the kernel's bitmap_parselist() (lib/bitmap.c,
 * 6.1), reimplemented; tests/test_kparse.c checks the two agree. The
 * arithmetic is unsigned int on purpose, as there: it decides which huge
 * numbers are ERANGE, EINVAL or EOVERFLOW, and where a group wraps.
 */
struct cur {
	const char *p, *end;
	unsigned int nbits;	/* bits of the mask; "N" is nbits - 1 */
	bool known;		/* nbits came from the caller */
	char *err;
	size_t errlen;
};

/* Byte i ahead, or NUL at the end (c->end is at the first NUL, if any). */
static unsigned char peek(const struct cur *c, size_t i)
{
	return c->p + i < c->end ? (unsigned char)c->p[i] : '\0';
}

/* ASCII-only lower case, enough to match "all" as strncasecmp() does. */
static bool is_letter(unsigned char ch, char lower)
{
	return (ch | 0x20) == lower;
}

/* The kernel's isspace() (lib/ctype.c): also VT, FF, CR and 0xa0. */
static bool kspace(unsigned char ch)
{
	return ch == ' ' || (ch >= '\t' && ch <= '\r') || ch == 0xa0;
}

static bool end_of_str(unsigned char ch)
{
	return ch == '\0' || ch == '\n';
}

static bool end_of_region(unsigned char ch)
{
	return kspace(ch) || ch == ',' || ch == '\0';
}

/* 'x' for printable bytes, else \xNN, so a reason is always one line. */
static const char *show(unsigned char ch, char buf[8])
{
	if (ch == '\0')
		snprintf(buf, 8, "end");
	else if (ch > ' ' && ch < 0x7f)
		snprintf(buf, 8, "'%c'", ch);
	else
		snprintf(buf, 8, "'\\x%02x'", ch);
	return buf;
}

static int fail(struct cur *c, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct cur *c, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (c->errlen)
		vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	return code;
}

/* A decimal number or "N"; what says which one, for the message. */
static int get_num(struct cur *c, unsigned int *num, const char *what)
{
	unsigned long long v = 0;
	bool big = false;
	size_t n = 0;
	unsigned char ch;
	char b[8];

	if (peek(c, 0) == 'N') {
		if (!c->known)
			return fail(c, -EINVAL,
				    "\"N\" needs the possible CPUs");
		*num = c->nbits - 1;
		c->p++;
		return 0;
	}
	while ((ch = peek(c, n)) >= '0' && ch <= '9') {
		if (!big)
			v = v * 10 + (ch - '0');
		big = big || v > UINT_MAX;
		n++;
	}
	if (!n)
		return fail(c, -EINVAL, "%s expected at %s", what,
			    show(peek(c, 0), b));
	if (big)
		return fail(c, -EOVERFLOW, "number %.*s%s is too large",
			    n > 20 ? 20 : (int)n, c->p, n > 20 ? "..." : "");
	c->p += n;
	*num = (unsigned int)v;
	return 0;
}

struct region {
	unsigned int start, end, used, group;
	bool pattern;	/* had ":USED/GROUP" */
	bool stop;	/* a '\n' right after the region ends the string */
};

static int parse_region(struct cur *c, struct region *r)
{
	unsigned char ch;
	char b[8];
	int e;

	if (is_letter(peek(c, 0), 'a') && is_letter(peek(c, 1), 'l') &&
	    is_letter(peek(c, 2), 'l')) {
		if (!c->known)
			return fail(c, -EINVAL,
				    "\"all\" needs the possible CPUs");
		r->start = 0;
		r->end = c->nbits - 1;
		c->p += 3;
		goto pattern;
	}
	e = get_num(c, &r->start, "CPU number");
	if (e)
		return e;
	ch = peek(c, 0);
	if (end_of_region(ch)) {
		r->end = r->start;
		goto no_pattern;
	}
	if (ch != '-')
		return fail(c, -EINVAL, "unexpected %s after %u", show(ch, b),
			    r->start);
	c->p++;
	e = get_num(c, &r->end, "range end");
	if (e)
		return e;
pattern:
	ch = peek(c, 0);
	if (end_of_region(ch))
		goto no_pattern;
	if (ch != ':')
		return fail(c, -EINVAL, "unexpected %s after range %u-%u",
			    show(ch, b), r->start, r->end);
	c->p++;
	e = get_num(c, &r->used, "USED of ':USED/GROUP'");
	if (e)
		return e;
	if (peek(c, 0) != '/')
		return fail(c, -EINVAL,
			    "':%u' needs a group: ':USED/GROUP', e.g. 0-7:1/2 for every second CPU",
			    r->used);
	c->p++;
	r->pattern = true;
	/* as in the kernel, nothing needs to separate GROUP from what follows */
	return get_num(c, &r->group, "GROUP of ':USED/GROUP'");
no_pattern:
	r->used = r->group = r->end + 1;
	r->stop = end_of_str(ch);
	return 0;
}

static int check_region(struct cur *c, const struct region *r)
{
	if (r->start > r->end)
		return fail(c, -EINVAL, "range %u-%u is backwards", r->start,
			    r->end);
	/* without a pattern the group is end + 1, 0 for UINT_MAX */
	if (r->group == 0 && !r->pattern)
		return fail(c, -EINVAL, "CPU %u is too large", r->end);
	if (r->group == 0)
		return fail(c, -EINVAL, "group size 0 in ':%u/0'", r->used);
	if (r->used > r->group)
		return fail(c, -EINVAL, "':%u/%u' uses more CPUs than the group has",
			    r->used, r->group);
	if (r->end >= c->nbits) {
		if (!c->known)
			return fail(c, -ERANGE, "CPU %u is beyond %u, the largest CPU number nocbctl handles",
				    r->end, c->nbits - 1);
		return fail(c, -ERANGE, "CPU %u is not a possible CPU (0-%u)",
			    r->end, c->nbits - 1);
	}
	return 0;
}

/* Set n CPUs from first on, a word at a time: "0-4095" is 64 stores. */
static void set_range(struct cpulist *out, unsigned int first, unsigned int n)
{
	while (n && first < NOCB_MAX_CPUS) {
		unsigned int b = first % 64, k = 64 - b < n ? 64 - b : n;
		uint64_t m = k == 64 ? ~UINT64_C(0) :
			     ((UINT64_C(1) << k) - 1) << b;

		out->bits[first / 64] |= m;
		first += k;
		n -= k;
	}
}

static void set_region(struct cpulist *out, const struct region *r)
{
	/* s may wrap for a group near UINT_MAX, as in the kernel */
	for (unsigned int s = r->start; s <= r->end; s += r->group) {
		unsigned int n = r->end - s + 1 < r->used ?
				 r->end - s + 1 : r->used;

		set_range(out, s, n);
	}
}

int cpulist_parse(const char *s, size_t len, int nbits, struct cpulist *out,
		  char *err, size_t errlen)
{
	const char *nul = memchr(s, '\0', len);
	struct cur c = { s, nul ? nul : s + len, NOCB_MAX_CPUS, nbits > 0,
			 err, errlen };

	if (nbits > 0 && nbits < NOCB_MAX_CPUS)
		c.nbits = (unsigned int)nbits;
	cpulist_clear(out);
	if (errlen)
		err[0] = '\0';
	for (;;) {
		struct region r = { 0 };
		unsigned char ch;
		int e;

		/* commas and whitespace may precede any region */
		while ((ch = peek(&c, 0)) == ',' || kspace(ch))
			c.p++;
		if (ch == '\0')
			return 0;
		e = parse_region(&c, &r);
		if (!e)
			e = check_region(&c, &r);
		if (e)
			return e;
		set_region(out, &r);
		if (r.stop)
			return 0;
	}
}

int cpulist_parse_str(const char *s, int nbits, struct cpulist *out,
		      char *err, size_t errlen)
{
	return cpulist_parse(s, strlen(s), nbits, out, err, errlen);
}

int cpulist_parse_arg(const char *s, int nbits, struct cpulist *out,
		      char *err, size_t errlen)
{
	const char *nl = strchr(s, '\n');

	/* the kernel's parser stops at a newline: the rest would be lost */
	if (nl && nl[strspn(nl, " \t\n")]) {
		snprintf(err, errlen,
			 "a newline inside the list; the kernel reads only up to it");
		return -1;
	}
	return cpulist_parse_str(s, nbits, out, err, errlen);
}

/* The last CPU of the run of set CPUs that starts at cpu, a word at a time. */
static int run_end(const struct cpulist *s, int cpu)
{
	while (cpu < NOCB_MAX_CPUS) {
		/* the first clear bit at or after cpu in its word, if any */
		uint64_t w = ~s->bits[cpu / 64] >> (cpu % 64);

		if (w)
			return cpu + __builtin_ctzll(w) - 1;
		cpu = (cpu | 63) + 1;
	}
	return NOCB_MAX_CPUS - 1;
}

size_t cpulist_format(const struct cpulist *s, char *buf, size_t len)
{
	size_t n = 0;
	int cpu = cpulist_next(s, 0);

	if (buf && len)
		buf[0] = '\0';
	while (cpu >= 0) {
		int end = run_end(s, cpu);
		char tmp[32];
		int w;

		if (end == cpu)
			w = snprintf(tmp, sizeof(tmp), "%s%d", n ? "," : "",
				     cpu);
		else
			w = snprintf(tmp, sizeof(tmp), "%s%d-%d",
				     n ? "," : "", cpu, end);
		if (w > 0) {
			if (buf && n + (size_t)w < len)
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

/*
 * A list for a message: whole if it is at most max bytes, else its size
 * and bounds ("2048 CPUs from 1 to 4095"), never cut in the middle.
 */
static bool describe(const struct cpulist *s, char *buf, size_t len,
		     size_t max)
{
	char *full = cpulist_format_alloc(s);
	bool whole = full && strlen(full) <= max;

	if (whole)
		snprintf(buf, len, "%s", full);
	else
		snprintf(buf, len, "%d CPUs from %d to %d", cpulist_count(s),
			 cpulist_next(s, 0), cpulist_last(s));
	free(full);
	return whole;
}

/* "CPU LIST not WHAT (WHAT: LIST)", in errlen bytes with whole lists */
static int refuse(const struct cpulist *bad, const struct cpulist *ok,
		  const char *what, char *err, size_t errlen)
{
	char a[160], b[160];
	size_t max = errlen > 40 ? (errlen - 40) / 2 : 0;

	bool whole = describe(bad, a, sizeof(a),
			      max < sizeof(a) - 1 ? max : sizeof(a) - 1);

	describe(ok, b, sizeof(b), max < sizeof(b) - 1 ? max : sizeof(b) - 1);
	snprintf(err, errlen, "%s%s not %s (%s: %s)", whole ? "CPU " : "", a,
		 what, what, b);
	return -1;
}

int cpulist_validate(const struct cpulist *s, const struct cpulist *possible,
		     const struct cpulist *online, char *err, size_t errlen)
{
	struct cpulist bad;

	if (cpulist_empty(s)) {
		snprintf(err, errlen, "empty CPU list");
		return -1;
	}
	cpulist_andnot(&bad, s, possible);
	if (!cpulist_empty(&bad))
		return refuse(&bad, possible, "possible", err, errlen);
	if (online) {
		cpulist_andnot(&bad, s, online);
		if (!cpulist_empty(&bad))
			return refuse(&bad, online, "online", err, errlen);
	}
	return 0;
}

int cpumask_parse_hex(const char *s, size_t len, int nbits,
		      struct cpulist *out)
{
	size_t end = len, groups = 0;
	int limit = nbits > 0 ? nbits : NOCB_MAX_CPUS, bit = 0;

	cpulist_clear(out);
	while (end && (s[end - 1] == '\n' || s[end - 1] == ' '))
		end--;
	if (!end)
		return -EINVAL;
	/* from the least significant group, at the end, backwards */
	while (end) {
		size_t start = end, n;

		while (start && s[start - 1] != ',')
			start--;
		n = end - start;
		if (n == 0 || n > 8)
			return -EINVAL;
		for (size_t i = 0; i < n; i++) {
			char ch = s[end - 1 - i];
			int v = ch >= '0' && ch <= '9' ? ch - '0' :
				ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 :
				ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;

			if (v < 0)
				return -EINVAL;
			for (int b = 0; b < 4; b++) {
				int cpu = bit + (int)i * 4 + b;

				if (!(v & (1 << b)))
					continue;
				if (cpu >= limit)
					return -ERANGE;
				cpulist_set(out, cpu);
			}
		}
		bit += 32;
		if (++groups > NOCB_MAX_CPUS / 32)
			return -ERANGE;
		if (!start)
			break;
		end = start - 1;
		if (!end)
			return -EINVAL;	/* a leading comma */
	}
	return 0;
}

size_t cpumask_format_hex(const struct cpulist *s, int nbits, char *buf,
			  size_t len)
{
	int groups = nbits > 0 ? (nbits + 31) / 32 : 1;
	int top = nbits > 0 && nbits % 32 ? (nbits % 32 + 3) / 4 : 8;
	size_t n = 0;

	if (buf && len)
		buf[0] = '\0';
	for (int g = groups - 1; g >= 0; g--) {
		unsigned v = 0;
		char tmp[16];
		int w;

		for (int b = 0; b < 32; b++)
			if (cpulist_test(s, g * 32 + b))
				v |= 1u << b;
		w = snprintf(tmp, sizeof(tmp), "%s%0*x", n ? "," : "",
			     g == groups - 1 ? top : 8, v);
		if (w > 0) {
			if (buf && n + (size_t)w < len)
				memcpy(buf + n, tmp, (size_t)w + 1);
			n += (size_t)w;
		}
	}
	return n;
}
