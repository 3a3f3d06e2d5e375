/* SPDX-License-Identifier: GPL-2.0 */
/*
 * config.h - parser for /etc/nocbctl.conf.
 *
 *   # comment; blank lines allowed; "# ..." also ends a value
 *   cpus = 0            allowed CPUs of every offload kthread
 *   rcuog.cpus = LIST   override for rcuog/N (optional)
 *   rcuop.cpus = LIST   override for rcuop/N (optional)
 *   policy = other      other | fifo | rr
 *   priority = 0        1-99 for fifo/rr; absent or 0 for other
 *   nice = 0            -20..19, only with policy other
 *   offload = LIST      the no-CBs CPUs, exactly (optional; apply makes
 *                       them so first); empty: none; never CPU 0 (K4)
 *
 * Unknown keys, duplicate keys and bad values are errors.
 */
#ifndef NOCB_CONFIG_H
#define NOCB_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "cpulist.h"

enum cfg_key {
	CFG_CPUS,
	CFG_RCUOG_CPUS,
	CFG_RCUOP_CPUS,
	CFG_POLICY,
	CFG_PRIORITY,
	CFG_NICE,
	CFG_OFFLOAD,
	CFG_NKEYS,
};

struct nocb_config {
	int line[CFG_NKEYS];	/* line of each key, 0 = absent */
	struct cpulist cpus, rcuog_cpus, rcuop_cpus;
	struct cpulist offload;	/* may be empty: no CPU offloaded */
	int policy;		/* SCHED_* */
	int priority;
	int nice;
};

/*
 * Parse len bytes. nbits as cpulist_parse(). Returns 0, or -1 with the
 * offending line in *errline and the reason in err.
 */
int config_parse(const char *buf, size_t len, int nbits,
		 struct nocb_config *cfg, int *errline, char *err,
		 size_t errlen);

const char *config_key_name(enum cfg_key k);

#endif
