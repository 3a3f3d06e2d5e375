// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the kernel cpulist syntax (cpulist_parse/format).
 * The first byte picks the mask size (0, 1, 4, 64, 4096 or 8192 bits),
 * the rest is the list. Whatever parses must format and parse back to
 * the same set; so must the input's bits stretched over the mask: for
 * 4096 and 8192 bits (lists as long as a mask prints) only when the first
 * byte is >= 0xf0, as these are slow.
 * Built with -DNOCB_KPARSE (make fuzz), each input is also parsed by the
 * kernel's own bitmap_parselist() (build/kparse/), which must agree.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void roundtrip(const struct cpulist *s, int nbits)
{
	static struct cpulist back;
	char err[512];
	char *str = cpulist_format_alloc(s);

	if (!str || strlen(str) != cpulist_format(s, NULL, 0) ||
	    cpulist_parse(str, strlen(str), nbits, &back, err, sizeof(err)) ||
	    !cpulist_equal(s, &back))
		abort();
	free(str);
}

#ifdef NOCB_KPARSE
int bitmap_parselist(const char *buf, unsigned long *maskp, int nmaskbits);

static void against_kernel(const char *s, size_t len, int nbits, int rc,
			   const struct cpulist *ours)
{
	static unsigned long mask[NOCB_MAX_CPUS / (8 * sizeof(long))];
	char *buf = malloc(len + 1);
	int krc;

	if (!buf)
		abort();
	memcpy(buf, s, len);
	buf[len] = '\0';
	memset(mask, 0, sizeof(mask));
	krc = bitmap_parselist(buf, mask, nbits);
	free(buf);
	if (krc != rc)
		abort();
	for (int i = 0; !rc && i < nbits; i++)
		if (!!(mask[i / (8 * sizeof(long))] >> (i % (8 * sizeof(long))) & 1) !=
		    cpulist_test(ours, i))
			abort();
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int sizes[] = { 0, 1, 4, 64, 4096, 8192 };
	static struct cpulist a, big;
	const char *s = (const char *)data + 1;
	char err[512];
	int nbits, rc;

	if (!size)
		return 0;
	nbits = sizes[data[0] % 6];
	size--;
	err[0] = '\0';
	rc = cpulist_parse(s, size, nbits, &a, err, sizeof(err));
	if (rc) {
		/* the kernel's codes, and a one-line reason */
		if ((rc != -EINVAL && rc != -ERANGE && rc != -EOVERFLOW) ||
		    !err[0] || strchr(err, '\n'))
			abort();
	} else {
		if (cpulist_last(&a) >= (nbits ? nbits : NOCB_MAX_CPUS))
			abort();
		roundtrip(&a, nbits);
	}
#ifdef NOCB_KPARSE
	if (nbits)
		against_kernel(s, size, nbits, rc, &a);
#endif
	if (nbits > 64 && data[0] < 0xf0)
		return 0;
	cpulist_clear(&big);
	for (int i = 0; size && i < nbits; i++)
		if (data[1 + (size_t)i / 8 % size] >> (i % 8) & 1)
			cpulist_set(&big, i);
	roundtrip(&big, nbits);
	return 0;
}
