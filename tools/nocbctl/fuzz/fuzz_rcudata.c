// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness: /sys/kernel/debug/rcu/rcudata parser. */
#include <stdint.h>
#include <stdlib.h>

#include "rcudata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rcudata rd;
	char err[256];

	err[0] = '\0';
	if (rcudata_parse((const char *)data, size, &rd, err, sizeof(err))) {
		if (!err[0] || rd.cpus || rd.n)
			abort();
		return 0;
	}
	for (size_t i = 0; i < rd.n; i++)
		if (rcudata_find(&rd, rd.cpus[i].cpu) != &rd.cpus[i])
			abort();	/* CPUs are unique */
	rcudata_free(&rd);
	return 0;
}
