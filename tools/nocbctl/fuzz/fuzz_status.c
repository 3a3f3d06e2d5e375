// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: /proc/PID/status, /proc/PID/stat and /proc/cmdline.
 * The first byte picks the mask size (0, 1, 4, 64, 4096 or 8192 bits, as
 * in fuzz_cpulist.c), the rest is the file: Cpus_allowed_list, rcu_nocbs=
 * and nohz_full= lists as long as a 4096- or 8192-CPU machine prints.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* No CPU at or above the mask size may come out of a parse. */
static void in_mask(const struct cpulist *s, int nbits)
{
	if (!cpulist_empty(s) &&
	    cpulist_last(s) >= (nbits ? nbits : NOCB_MAX_CPUS))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int sizes[] = { 0, 1, 4, 64, 4096, 8192 };
	static struct proc_status ps;
	static struct proc_stat pst;
	static struct kcmdline kc;
	const char *s = (const char *)data + 1;
	char err[256];
	int nbits;

	if (!size)
		return 0;
	nbits = sizes[data[0] % 6];
	size--;
	if (proc_parse_status(s, size, nbits, &ps, err, sizeof(err)) == 0) {
		if (!ps.have_allowed)
			abort();
		in_mask(&ps.allowed, nbits);
	}
	if (strnlen(ps.name, sizeof(ps.name)) >= sizeof(ps.name))
		abort();
	proc_parse_stat(s, size, &pst, err, sizeof(err));
	if (strnlen(pst.comm, sizeof(pst.comm)) >= sizeof(pst.comm))
		abort();
	proc_parse_cmdline(s, size, nbits, &kc);
	in_mask(&kc.nocbs, nbits);
	in_mask(&kc.nohz, nbits);
	return 0;
}
