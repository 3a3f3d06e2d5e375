/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim.h - the few kernel definitions that the kernel's bitmap_parselist()
 * (extracted by extract.sh into build/) needs to compile in user space.
 * No libc string or ctype header here: the kernel's own isspace(),
 * tolower() and strncasecmp() must be the ones used.
 */
#ifndef NOCB_KSHIM_H
#define NOCB_KSHIM_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* keep the kernel's definitions away from libc's symbols */
#define _ctype kshim_ctype
#define strncasecmp kshim_strncasecmp
#define _parse_integer kshim_parse_integer
#define _parse_integer_limit kshim_parse_integer_limit
#define _parse_integer_fixup_radix kshim_parse_integer_fixup_radix

#define noinline __attribute__((noinline))
#define unlikely(x) __builtin_expect(!!(x), 0)
#define EXPORT_SYMBOL(sym) extern int kshim_export_dummy
#define BITS_PER_LONG ((unsigned int)(sizeof(long) * CHAR_BIT))

#define min(a, b) ((a) < (b) ? (a) : (b))

static inline unsigned long long div_u64(unsigned long long a,
					 unsigned int b)
{
	return a / b;
}

/* include/linux/err.h */
#define MAX_ERRNO 4095
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline long PTR_ERR(const void *ptr) { return (long)ptr; }
static inline bool IS_ERR(const void *ptr)
{
	return (unsigned long)ptr >= (unsigned long)-MAX_ERRNO;
}

/* the bitmap primitives, bit by bit */
static inline void bitmap_zero(unsigned long *map, unsigned int nbits)
{
	for (unsigned int i = 0; i < nbits; i++)
		map[i / BITS_PER_LONG] &= ~(1UL << (i % BITS_PER_LONG));
}

static inline void bitmap_set(unsigned long *map, unsigned int start,
			      unsigned int len)
{
	for (unsigned int i = start; i < start + len; i++)
		map[i / BITS_PER_LONG] |= 1UL << (i % BITS_PER_LONG);
}

int bitmap_parselist(const char *buf, unsigned long *maskp, int nmaskbits);

#endif
