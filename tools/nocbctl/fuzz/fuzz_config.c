// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness: /etc/nocbctl.conf parser. */
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>

#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nocb_config cfg;
	char err[256];
	int line;

	err[0] = '\0';
	if (config_parse((const char *)data, size, 64, &cfg, &line, err,
			 sizeof(err))) {
		if (!err[0] || line < 1)
			abort();
		return 0;
	}
	/* accepted configs respect the documented ranges */
	if (cfg.line[CFG_PRIORITY] && (cfg.priority < 0 || cfg.priority > 99))
		abort();
	if (cfg.line[CFG_NICE] && (cfg.nice < -20 || cfg.nice > 19))
		abort();
	if (cfg.line[CFG_POLICY] && cfg.policy != SCHED_OTHER &&
	    cfg.priority < 1)
		abort();
	/* never CPU 0 (K4), never beyond the mask */
	if (cfg.line[CFG_OFFLOAD] && (cpulist_test(&cfg.offload, 0) ||
				      cpulist_last(&cfg.offload) >= 64))
		abort();
	return 0;
}
