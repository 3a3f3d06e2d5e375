// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness: /proc/PID/status, /proc/PID/stat and /proc/cmdline. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct proc_status ps;
	static struct proc_stat pst;
	static struct kcmdline kc;
	char err[256];

	if (proc_parse_status((const char *)data, size, 64, &ps, err,
			      sizeof(err)) == 0 && !ps.have_allowed)
		abort();
	if (strnlen(ps.name, sizeof(ps.name)) >= sizeof(ps.name))
		abort();
	proc_parse_stat((const char *)data, size, &pst, err, sizeof(err));
	if (strnlen(pst.comm, sizeof(pst.comm)) >= sizeof(pst.comm))
		abort();
	proc_parse_cmdline((const char *)data, size, 64, &kc);
	return 0;
}
