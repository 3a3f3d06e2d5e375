// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness: kernel cpulist syntax (cpulist_parse/format). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cpulist a, b;
	static char buf[40000];
	char err[256];
	int nbits = size ? (data[0] % 2 ? 0 : 64) : 0;

	if (cpulist_parse((const char *)data, size, nbits, &a, err,
			  sizeof(err)) == 0) {
		/* whatever parses must format and re-parse to the same set */
		cpulist_format(&a, buf, sizeof(buf));
		if (cpulist_parse(buf, strlen(buf), 0, &b, err, sizeof(err)) ||
		    !cpulist_equal(&a, &b))
			abort();
	} else if (!err[0]) {
		abort();	/* errors always say why */
	}
	return 0;
}
