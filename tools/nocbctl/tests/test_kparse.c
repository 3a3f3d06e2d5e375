// SPDX-License-Identifier: GPL-2.0
/*
 * test_kparse.c - cpulist_parse() against the kernel's own
 * bitmap_parselist(), extracted from linux-source-6.1 at build time
 * (tests/kparse/extract.sh). Every input is parsed by both at several
 * mask sizes; the error code and the resulting set must be the same.
 * Inputs: the committed table (tests/cpulist_ktable.h, whose recorded
 * results are checked against the kernel too), lists of 4096 and 8192
 * CPUs up to the longest a mask can print, and random inputs.
 *   test_kparse [SEED]   compare; exit 1 on any difference
 *   test_kparse --table  print the table's rows with the kernel's results
 */
#include "cpulist.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist_ktable.h"

int bitmap_parselist(const char *buf, unsigned long *maskp, int nmaskbits);

#define LBITS ((int)(sizeof(long) * CHAR_BIT))
#define LONGS (NOCB_MAX_CPUS / LBITS)

static const int nbits_set[] = { 1, 2, 4, 16, 63, 64, 65, 100, 4096, 8192 };
#define N_NBITS (int)(sizeof(nbits_set) / sizeof(nbits_set[0]))

static long compared, failed;

/* The kernel's verdict on len bytes of s (NUL-terminated copy). */
static int kparse(const char *s, size_t len, int nbits, struct cpulist *out)
{
	unsigned long mask[LONGS + 1];
	char *buf = malloc(len + 1);
	int rc;

	if (!buf) {
		perror("kparse");
		exit(2);
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	memset(mask, 0, sizeof(mask));
	rc = bitmap_parselist(buf, mask, nbits);
	free(buf);
	cpulist_clear(out);
	for (int i = 0; i < nbits; i++)
		if (mask[i / LBITS] >> (i % LBITS) & 1)
			cpulist_set(out, i);
	for (int i = nbits; i < (LONGS + 1) * LBITS; i++)
		if (mask[i / LBITS] >> (i % LBITS) & 1) {
			fprintf(stderr, "kparse: kernel set bit %d >= %d\n",
				i, nbits);
			exit(2);
		}
	return rc;
}

static const char *ename(int rc)
{
	switch (rc) {
	case 0: return "0";
	case -EINVAL: return "-EINVAL";
	case -ERANGE: return "-ERANGE";
	case -EOVERFLOW: return "-EOVERFLOW";
	default: return "?";
	}
}

/* s as a C string literal, at most max bytes of it */
static void put_literal(FILE *f, const char *s, size_t len, size_t max)
{
	static const char named[] = "\nn\tt\vv\ff\rr\"\"\\\\";

	fputc('"', f);
	for (size_t i = 0; i < len && i < max; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *e = c ? strchr(named, c) : NULL;
		bool hexnext = i + 1 < len && strchr("0123456789abcdefABCDEF",
						     s[i + 1]) && s[i + 1];

		if (e && (e - named) % 2 == 0)
			fprintf(f, "\\%c", e[1]);
		else if (c >= ' ' && c < 0x7f)
			fputc(c, f);
		else	/* "" ends the escape before a hex digit */
			fprintf(f, "\\x%02x%s", c, hexnext ? "\"\"" : "");
	}
	fputc('"', f);
	if (len > max)
		fprintf(f, "... (%zu bytes)", len);
}

static void mismatch(const char *what, const char *s, size_t len, int nbits,
		     int krc, const struct cpulist *k, int rc,
		     const struct cpulist *m, const char *err)
{
	char *a = cpulist_format_alloc(k), *b = cpulist_format_alloc(m);

	failed++;
	fprintf(stderr, "kparse: FAIL %s: ", what);
	put_literal(stderr, s, len, 200);
	fprintf(stderr, " nbits %d: kernel %s {%.200s}, nocbctl %s {%.200s} (%s)\n",
		nbits, ename(krc), krc ? "" : a ? a : "?", ename(rc),
		rc ? "" : b ? b : "?", err);
	free(a);
	free(b);
}

/* Both parsers on one input and mask size; returns the kernel's rc. */
static int compare(const char *what, const char *s, size_t len, int nbits)
{
	static struct cpulist k, m;
	char err[512] = "";
	int krc = kparse(s, len, nbits, &k);
	int rc = cpulist_parse(s, len, nbits, &m, err, sizeof(err));

	compared++;
	if (krc != rc || (!krc && !cpulist_equal(&k, &m)) ||
	    (rc && (!err[0] || strchr(err, '\n'))))
		mismatch(what, s, len, nbits, krc, &k, rc, &m, err);
	return krc;
}

static void compare_all_nbits(const char *what, const char *s, size_t len)
{
	for (int i = 0; i < N_NBITS; i++)
		compare(what, s, len, nbits_set[i]);
}

/* The committed table: its results must be the kernel's. */
static void check_table(void)
{
	for (size_t i = 0; i < N_KTABLE; i++) {
		const struct ktable_row *t = &ktable[i];
		struct cpulist k;
		int krc = kparse(t->in, t->len, t->nbits, &k);
		char *got = cpulist_format_alloc(&k);

		if (!got) {
			perror("kparse");
			exit(2);
		}
		compared++;
		if (krc != t->rc || (!krc && strcmp(got, t->set))) {
			failed++;
			fprintf(stderr, "kparse: FAIL table row %zu ", i);
			put_literal(stderr, t->in, t->len, 200);
			fprintf(stderr, " nbits %d: recorded %s {%s}, kernel %s {%s}\n",
				t->nbits, ename(t->rc), t->set, ename(krc), got);
		}
		free(got);
		compare("table", t->in, t->len, t->nbits);
		compare_all_nbits("table", t->in, t->len);
	}
}

static void print_table(void)
{
	for (size_t i = 0; i < N_KTABLE; i++) {
		const struct ktable_row *t = &ktable[i];
		struct cpulist k;
		int krc = kparse(t->in, t->len, t->nbits, &k);
		char *got = cpulist_format_alloc(&k);

		fputs("\tT(", stdout);
		put_literal(stdout, t->in, t->len, SIZE_MAX);
		printf(", %d, %s, \"%s\"),\n", t->nbits, ename(krc),
		       krc ? "" : got);
		free(got);
	}
}

/* Our own list writer, independent of cpulist_format(). */
static char *list_string(const struct cpulist *s)
{
	size_t cap = 64, n = 0;
	char *buf = malloc(cap);

	for (int c = 0; buf && c < NOCB_MAX_CPUS; c++) {
		int e = c;

		if (!cpulist_test(s, c))
			continue;
		while (e + 1 < NOCB_MAX_CPUS && cpulist_test(s, e + 1))
			e++;
		if (n + 32 > cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
		}
		n += (size_t)sprintf(buf + n, e > c ? "%s%d-%d" : "%s%d",
				     n ? "," : "", c, e);
		c = e;
	}
	if (buf)
		buf[n] = '\0';
	return buf;
}

/*
 * Lists of 4096 and 8192 CPUs: every second CPU, and runs of two with a
 * gap of one ("0-1,3-4,..."), the longest list a mask of that size can
 * print. The kernel must read our formatting back to the same set.
 */
static void big_lists(void)
{
	static const int sizes[] = { 4096, 8192 };

	for (int z = 0; z < 2; z++) {
		for (int pat = 0; pat < 3; pat++) {
			struct cpulist s, k;
			char *ours, *mine;
			int nb = sizes[z];

			cpulist_clear(&s);
			for (int c = 0; c < nb; c++)
				if (pat == 0 ? c % 2 == 1 : pat == 1 ?
				    c % 3 != 2 : 1)
					cpulist_set(&s, c);
			ours = cpulist_format_alloc(&s);
			mine = list_string(&s);
			if (!ours || !mine) {
				perror("kparse");
				exit(2);
			}
			compared++;
			if (strcmp(ours, mine)) {
				failed++;
				fprintf(stderr, "kparse: FAIL cpulist_format of %d CPUs pattern %d\n",
					nb, pat);
			}
			compare_all_nbits("big list", ours, strlen(ours));
			compared++;
			if (kparse(ours, strlen(ours), nb, &k) ||
			    !cpulist_equal(&k, &s)) {
				failed++;
				fprintf(stderr, "kparse: FAIL kernel reading back %zu bytes\n",
					strlen(ours));
			}
			free(ours);
			free(mine);
		}
	}
}

static unsigned rnd(unsigned *seed, unsigned n)
{
	/* xorshift32: the same sequence on every machine */
	*seed ^= *seed << 13;
	*seed ^= *seed >> 17;
	*seed ^= *seed << 5;
	return *seed % n;
}

/* Random strings of syntax fragments, and random well-formed regions. */
static void random_inputs(unsigned seed, int count)
{
	static const char *const tok[] = {
		"0", "1", "2", "3", "4", "5", "7", "8", "15", "16", "63", "64",
		"65", "99", "100", "4095", "4096", "8191", "8192", "00",
		"4294967295", "4294967296", "18446744073709551616", "N", "n",
		"all", "ALL", "aLl", "al", "-", "-", "-", ":", ":", "/", "/",
		",", ",", ",", " ", "\t", "\n", "\v", "\f", "\r", "\xa0", "\xff",
		"x", "+", "0x1", "\0", "1-3", "0-N", ":1/2", ":0/1", ":2/1",
		":1/0", ":3", "4294967294",
	};
	const int ntok = (int)(sizeof(tok) / sizeof(tok[0]));
	char buf[512];

	for (int i = 0; i < count; i++) {
		size_t len = 0;
		int n = 1 + (int)rnd(&seed, 12);

		if (i % 2) {
			for (int t = 0; t < n; t++) {
				const char *w = tok[rnd(&seed, (unsigned)ntok)];
				size_t l = w[0] ? strlen(w) : 1;

				memcpy(buf + len, w, l);
				len += l;
			}
		} else {
			for (int t = 0; t < n && len < sizeof(buf) - 80; t++) {
				unsigned lim = rnd(&seed, 3) ? 70 : 9000;
				unsigned a = rnd(&seed, lim), b = a + rnd(&seed, lim);

				len += (size_t)sprintf(buf + len, "%s%u-%u",
						       t ? "," : "", a, b);
				if (rnd(&seed, 2))
					len += (size_t)sprintf(buf + len, ":%u/%u",
							       rnd(&seed, 6),
							       rnd(&seed, 6));
			}
		}
		compare_all_nbits("random", buf, len);
	}
}

int main(int argc, char **argv)
{
	unsigned seed = 20260301;

	if (argc > 1 && !strcmp(argv[1], "--table")) {
		print_table();
		return 0;
	}
	if (argc > 1)
		seed = (unsigned)strtoul(argv[1], NULL, 0);
	if (!seed)
		seed = 1;
	check_table();
	big_lists();
	random_inputs(seed, 4000);
	printf("kparse: %ld comparisons with the kernel's bitmap_parselist() (seed %u): %ld failed\n",
	       compared, seed, failed);
	return failed ? 1 : 0;
}
