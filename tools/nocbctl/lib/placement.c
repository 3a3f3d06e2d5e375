// SPDX-License-Identifier: GPL-2.0
/* placement.c - the one rule for where RCU offload kthreads may run. */
#include "placement.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void placement_rule_init(struct placement_rule *r, const struct cpu_state *cs,
			 const struct cpulist *offloaded)
{
	r->offloaded = *offloaded;
	cpulist_or(&r->isolated, &cs->isolated, &cs->partition);
	r->nohz_full = cs->nohz_full;
	cpulist_or(&r->unsafe, &r->offloaded, &r->isolated);
	cpulist_or(&r->unsafe, &r->unsafe, &r->nohz_full);
}

void placement_rule_now(struct placement_rule *r, const struct cpu_state *cs,
			const struct offload_info *oi)
{
	struct cpulist off;

	cpulist_or(&off, &oi->offloaded, &oi->pending_offloaded);
	placement_rule_init(r, cs, &off);
}

bool placement_safe(const struct placement_rule *r,
		    const struct cpulist *allowed, struct cpulist *bad)
{
	cpulist_and(bad, allowed, &r->unsafe);
	return cpulist_empty(bad);
}

void placement_why(const struct placement_rule *r, const struct cpulist *bad,
		   char *buf, size_t len)
{
	const struct {
		const struct cpulist *set;
		const char *word;
	} why[] = {
		{ &r->offloaded, "offloaded" },
		{ &r->isolated, "isolated" },
		{ &r->nohz_full, "nohz_full" },
	};
	size_t used = 0, wused = 0;
	bool cut = false;
	char words[64] = "";

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(why) / sizeof(why[0]); i++) {
		struct cpulist part;
		char *l;
		int n;

		cpulist_and(&part, bad, why[i].set);
		if (cpulist_empty(&part))
			continue;
		wused += (size_t)snprintf(words + wused, sizeof(words) - wused,
					  "%s%s", wused ? ", " : "",
					  why[i].word);
		l = cpulist_format_alloc(&part);
		n = snprintf(buf + used, len - used, "%s%s %s",
			     used ? ", " : "", l ? l : "?", why[i].word);
		free(l);
		if (n < 0 || (size_t)n >= len - used)
			cut = true;
		else
			used += (size_t)n;
	}
	/* a list too long to show whole: the reasons alone, not half a list */
	if (cut)
		snprintf(buf, len, "%s", words);
}

bool placement_deoffload_safe(const struct cpu_state *cs,
			      const struct cpulist *list, struct cpulist *bad)
{
	cpulist_and(bad, list, &cs->nohz_full);
	return cpulist_empty(bad);
}

int placement_refuse(const struct nocb_ctx *ctx, const char *verb,
		     bool force, const char *what, const struct cpulist *bad,
		     const char *why, const char *cure)
{
	char *b = cpulist_format_alloc(bad);
	bool one = cpulist_count(bad) == 1;

	if (force)
		fprintf(ctx->err, "nocbctl: %s: warning: %s: CPU%s %s %s unsafe for offload kthreads (%s); --force: done anyway\n",
			verb, what, one ? "" : "s", b ? b : "?",
			one ? "is" : "are", why);
	else
		nocb_err(ctx, verb, "%s: CPU%s %s %s unsafe for offload kthreads (%s); %s, or --force",
			 what, one ? "" : "s", b ? b : "?", one ? "is" : "are",
			 why, cure);
	free(b);
	return force ? 0 : NOCB_EXIT_USAGE;
}
