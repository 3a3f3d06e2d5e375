// SPDX-License-Identifier: GPL-2.0
/* config.c - parser for /etc/nocbctl.conf (see config.h). */
#include "config.h"
#include "ctx.h"
#include "proc.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const key_names[CFG_NKEYS] = {
	[CFG_CPUS] = "cpus",
	[CFG_RCUOG_CPUS] = "rcuog.cpus",
	[CFG_RCUOP_CPUS] = "rcuop.cpus",
	[CFG_POLICY] = "policy",
	[CFG_PRIORITY] = "priority",
	[CFG_NICE] = "nice",
	[CFG_OFFLOAD] = "offload",
};

const char *config_key_name(enum cfg_key k)
{
	return (unsigned)k < CFG_NKEYS ? key_names[k] : "?";
}

static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

int config_parse(const char *buf, size_t len, int nbits,
		 struct nocb_config *cfg, int *errline, char *err,
		 size_t errlen)
{
	const char *p = buf, *end = buf + len;
	int lineno = 0;
	char why[200];

	memset(cfg, 0, sizeof(*cfg));
	cfg->policy = -1;
	*errline = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *hash, *eq, *ks, *ke, *vs, *ve;
		char key[32], val[256];
		int k;

		lineno++;
		if (memchr(p, '\0', (size_t)(le - p))) {
			snprintf(why, sizeof(why), "NUL byte in line");
			goto bad;
		}
		hash = memchr(p, '#', (size_t)(le - p));
		if (hash)
			le = hash;
		ks = p;
		while (ks < le && is_ws(*ks))
			ks++;
		p = nl ? nl + 1 : end;
		if (ks == le)
			continue;	/* blank or comment */
		eq = memchr(ks, '=', (size_t)(le - ks));
		if (!eq) {
			snprintf(why, sizeof(why), "expected KEY = VALUE");
			goto bad;
		}
		ke = eq;
		while (ke > ks && is_ws(ke[-1]))
			ke--;
		vs = eq + 1;
		while (vs < le && is_ws(*vs))
			vs++;
		ve = le;
		while (ve > vs && is_ws(ve[-1]))
			ve--;
		if (ke == ks) {
			snprintf(why, sizeof(why), "missing key before '='");
			goto bad;
		}
		if ((size_t)(ke - ks) >= sizeof(key)) {
			snprintf(why, sizeof(why), "unknown key");
			goto bad;
		}
		memcpy(key, ks, (size_t)(ke - ks));
		key[ke - ks] = '\0';
		for (k = 0; k < CFG_NKEYS; k++)
			if (!strcmp(key, key_names[k]))
				break;
		if (k == CFG_NKEYS) {
			snprintf(why, sizeof(why), "unknown key '%.31s'", key);
			goto bad;
		}
		if (cfg->line[k]) {
			snprintf(why, sizeof(why),
				 "duplicate key '%s' (first on line %d)", key,
				 cfg->line[k]);
			goto bad;
		}
		/* "offload =" is the kernel's empty list: no CPU offloaded */
		if (ve == vs && k != CFG_OFFLOAD) {
			snprintf(why, sizeof(why), "empty value for '%s'", key);
			goto bad;
		}
		if ((size_t)(ve - vs) >= sizeof(val)) {
			snprintf(why, sizeof(why), "value for '%s' too long",
				 key);
			goto bad;
		}
		memcpy(val, vs, (size_t)(ve - vs));
		val[ve - vs] = '\0';
		cfg->line[k] = lineno;
		switch (k) {
		case CFG_CPUS:
		case CFG_RCUOG_CPUS:
		case CFG_RCUOP_CPUS: {
			struct cpulist *s = k == CFG_CPUS ? &cfg->cpus :
					    k == CFG_RCUOG_CPUS ?
					    &cfg->rcuog_cpus : &cfg->rcuop_cpus;
			char e2[128];

			if (cpulist_parse_str(val, nbits, s, e2, sizeof(e2))) {
				snprintf(why, sizeof(why), "%s: %s", key, e2);
				goto bad;
			}
			if (cpulist_empty(s)) {
				snprintf(why, sizeof(why), "%s: empty CPU list",
					 key);
				goto bad;
			}
			break;
		}
		case CFG_OFFLOAD: {
			char e2[128];

			if (cpulist_parse_str(val, nbits, &cfg->offload, e2,
					      sizeof(e2))) {
				snprintf(why, sizeof(why), "%s: %s", key, e2);
				goto bad;
			}
			if (cpulist_test(&cfg->offload, 0)) {
				snprintf(why, sizeof(why),
					 "%s: CPU 0: the boot CPU is never a no-CBs CPU (K4)",
					 key);
				goto bad;
			}
			break;
		}
		case CFG_POLICY:
			cfg->policy = sched_policy_parse(val);
			if (cfg->policy < 0) {
				snprintf(why, sizeof(why),
					 "policy must be other, fifo or rr, not '%.32s'",
					 val);
				goto bad;
			}
			break;
		case CFG_PRIORITY:
			if (nocb_parse_int(val, 0, 99, &cfg->priority)) {
				snprintf(why, sizeof(why),
					 "priority must be 0-99, not '%.32s'",
					 val);
				goto bad;
			}
			break;
		case CFG_NICE:
			if (nocb_parse_int(val, -20, 19, &cfg->nice)) {
				snprintf(why, sizeof(why),
					 "nice must be -20..19, not '%.32s'",
					 val);
				goto bad;
			}
			break;
		}
	}
	/* cross-key checks */
	if ((cfg->line[CFG_PRIORITY] || cfg->line[CFG_NICE]) &&
	    !cfg->line[CFG_POLICY]) {
		lineno = cfg->line[CFG_PRIORITY] ? cfg->line[CFG_PRIORITY]
						 : cfg->line[CFG_NICE];
		snprintf(why, sizeof(why), "%s needs a policy",
			 cfg->line[CFG_PRIORITY] ? "priority" : "nice");
		goto bad;
	}
	if (cfg->line[CFG_POLICY] && cfg->policy == SCHED_OTHER &&
	    cfg->line[CFG_PRIORITY] && cfg->priority != 0) {
		lineno = cfg->line[CFG_PRIORITY];
		snprintf(why, sizeof(why),
			 "priority must be absent or 0 for policy other");
		goto bad;
	}
	if (cfg->line[CFG_POLICY] && cfg->policy != SCHED_OTHER) {
		if (!cfg->line[CFG_PRIORITY] || cfg->priority < 1) {
			lineno = cfg->line[CFG_PRIORITY] ?
				 cfg->line[CFG_PRIORITY] : cfg->line[CFG_POLICY];
			snprintf(why, sizeof(why),
				 "policy %s needs priority 1-99",
				 sched_policy_name(cfg->policy));
			goto bad;
		}
		if (cfg->line[CFG_NICE]) {
			lineno = cfg->line[CFG_NICE];
			snprintf(why, sizeof(why),
				 "nice is only for policy other");
			goto bad;
		}
	}
	return 0;
bad:
	*errline = lineno;
	snprintf(err, errlen, "%s", why);
	return -1;
}
