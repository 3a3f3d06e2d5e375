/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpulist.h - CPU sets and the kernel's cpulist syntax.
 *
 * The syntax is exactly that of the kernel's bitmap_parselist() (6.1
 * lib/bitmap.c), which rcu_nocbs=, nohz_full= and isolcpus= use; the
 * build checks it against the kernel's own code (tests/test_kparse.c):
 *   LIST   := (SEP* REGION)* SEP*          SEP := ',' | whitespace
 *   REGION := NUM | RANGE | RANGE ":" USED "/" GROUP
 *   RANGE  := NUM "-" NUM | "all" (any case)
 *   NUM    := decimal | "N" (the last CPU, nbits - 1)
 * "8-15:1/2" is 8,10,12,14 (USED of every GROUP CPUs). So "1,,2", "0,"
 * and "" are fine; ":" needs both USED and GROUP ("8-15:2" is -EINVAL);
 * USED may be 0, GROUP may not; a '\n' right after a NUM or RANGE ends
 * the list. Whitespace is the kernel's isspace(): space, \t \n \v \f \r
 * and the byte 0xa0.
 */
#ifndef NOCB_CPULIST_H
#define NOCB_CPULIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NOCB_MAX_CPUS 8192

struct cpulist {
	uint64_t bits[NOCB_MAX_CPUS / 64];
};

void cpulist_clear(struct cpulist *s);
void cpulist_set(struct cpulist *s, int cpu);
void cpulist_unset(struct cpulist *s, int cpu);
bool cpulist_test(const struct cpulist *s, int cpu);
int cpulist_count(const struct cpulist *s);
bool cpulist_empty(const struct cpulist *s);
bool cpulist_equal(const struct cpulist *a, const struct cpulist *b);
/* true if every CPU of a is in b */
bool cpulist_subset(const struct cpulist *a, const struct cpulist *b);
void cpulist_and(struct cpulist *dst, const struct cpulist *a,
		 const struct cpulist *b);
void cpulist_or(struct cpulist *dst, const struct cpulist *a,
		const struct cpulist *b);
/* dst = a & ~b */
void cpulist_andnot(struct cpulist *dst, const struct cpulist *a,
		    const struct cpulist *b);
/* next set CPU >= from, or -1 */
int cpulist_next(const struct cpulist *s, int from);
/* last set CPU or -1 */
int cpulist_last(const struct cpulist *s);

#define cpulist_for_each(cpu, s) \
	for ((cpu) = cpulist_next((s), 0); (cpu) >= 0; \
	     (cpu) = cpulist_next((s), (cpu) + 1))

/*
 * Parse len bytes of s, as the kernel parses a NUL-terminated string (a
 * NUL byte ends it early). nbits is the size of the kernel's mask: the
 * number of possible CPU ids, last possible + 1 (nr_cpu_ids), at most
 * NOCB_MAX_CPUS; CPUs >= nbits are -ERANGE and "N" is nbits - 1. nbits 0
 * means unknown, for lists the kernel printed: then the limit is
 * NOCB_MAX_CPUS and "all"/"N" are errors.
 * Returns 0, or the kernel's error (-EINVAL, -ERANGE, -EOVERFLOW) with a
 * one-line reason in err; *out is then undefined.
 */
int cpulist_parse(const char *s, size_t len, int nbits, struct cpulist *out,
		  char *err, size_t errlen);

/* Like cpulist_parse on a NUL-terminated string. */
int cpulist_parse_str(const char *s, int nbits, struct cpulist *out,
		      char *err, size_t errlen);

/*
 * The same for a list given on the command line, which also refuses a
 * newline with more after it: the kernel would take the part before it.
 */
int cpulist_parse_arg(const char *s, int nbits, struct cpulist *out,
		      char *err, size_t errlen);

/* Format as "0-3,5"; "" for empty. Returns chars needed (like snprintf). */
size_t cpulist_format(const struct cpulist *s, char *buf, size_t len);

/*
 * Format into a malloc'd string of exactly the needed size, so no caller
 * can truncate a list (8192 CPUs as "0-1,3-4,..." need 26 KiB). NULL with errno
 * ENOMEM on allocation failure; the caller frees.
 */
char *cpulist_format_alloc(const struct cpulist *s);

/*
 * The kernel's hex mask format ("%*pb", e.g. /sys/devices/virtual/
 * workqueue/cpumask): comma-separated groups of up to 8 hex digits, the
 * most significant first, "ff,ffffffff"; blanks and one '\n' may end it.
 * CPUs >= nbits (0: NOCB_MAX_CPUS) are -ERANGE. 0 or -EINVAL/-ERANGE.
 */
int cpumask_parse_hex(const char *s, size_t len, int nbits,
		      struct cpulist *out);

/*
 * Format as the kernel prints a mask of nbits CPUs (what its parser reads
 * back): "3" for 0-1 of 4, "00000001,00000000" for 32 of 64. Returns chars
 * needed, like snprintf.
 */
size_t cpumask_format_hex(const struct cpulist *s, int nbits, char *buf,
			  size_t len);

/*
 * Validate a user-supplied list: non-empty, subset of possible and, if
 * online is non-NULL, of online. Returns 0 or -1 with reason in err,
 * whose lists are whole or, if they would not fit, a count and bounds.
 */
int cpulist_validate(const struct cpulist *s, const struct cpulist *possible,
		     const struct cpulist *online, char *err, size_t errlen);

#endif
