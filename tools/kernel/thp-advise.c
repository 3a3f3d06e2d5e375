// SPDX-License-Identifier: GPL-2.0
/*
 * thp-advise.so: LD_PRELOAD for the kernel compile on a host whose
 * transparent huge pages are "madvise" (tools/kernel/build.sh).  GCC's
 * cc1 takes its garbage-collected heap from mmap() in 2 MiB chunks and
 * never asks for huge pages, so each chunk faults in 512 times; about a
 * quarter of a kernel compile's CPU was system time.  This asks for huge
 * pages on every private anonymous mapping of 2 MiB or more, as the
 * host's "always" setting would, for the build's processes only.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/types.h>

#define HUGE_SIZE (2UL << 20)

typedef void *mmap_fn(void *, size_t, int, int, int, off_t);

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static mmap_fn *next;
	void *p;

	if (!next)
		next = (mmap_fn *)dlsym(RTLD_NEXT, "mmap");
	p = next(addr, len, prot, flags, fd, off);
	if (p != MAP_FAILED && len >= HUGE_SIZE && (flags & MAP_ANONYMOUS) &&
	    (flags & MAP_PRIVATE))
		madvise(p, len, MADV_HUGEPAGE);
	return p;
}

/* A program built with 64-bit file offsets calls mmap64, the same call. */
void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
	__attribute__((alias("mmap")));
