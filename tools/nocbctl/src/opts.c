// SPDX-License-Identifier: GPL-2.0
/*
 * opts.c - the options of every verb in one table (see verbs.h), so that a
 * short letter means one thing in every verb, and one parser for them.
 */
#define _GNU_SOURCE
#include "verbs.h"

#include <getopt.h>
#include <string.h>

/*
 * Long options return 256 + their index, never the short letter, so that
 * getopt_long()'s optopt tells a bad long option from a bad short one.
 */
static const struct {
	const char *name;
	int has_arg;
	char letter;		/* 0: long option only */
} table[OPT_N] = {
	[OPT_JSON] = { "json", no_argument, 'j' },
	[OPT_HELP] = { "help", no_argument, 'h' },
	[OPT_CPUS] = { "cpus", required_argument, 'c' },
	[OPT_DRY_RUN] = { "dry-run", no_argument, 'n' },
	[OPT_WATCH] = { "watch", required_argument, 'w' },
	[OPT_COUNT] = { "count", required_argument, 0 },
	[OPT_POLICY] = { "policy", required_argument, 'p' },
	[OPT_PRIORITY] = { "priority", required_argument, 'P' },
	[OPT_NICE] = { "nice", required_argument, 'N' },
	[OPT_CONFIG] = { "config", required_argument, 'C' },
	[OPT_FORCE] = { "force", no_argument, 'f' },
	[OPT_FORMAT] = { "format", required_argument, 0 },
	[OPT_ISOLATE] = { "isolate", required_argument, 0 },
	[OPT_HOUSEKEEPING] = { "housekeeping", required_argument, 0 },
	[OPT_CHECK] = { "check", no_argument, 0 },
	[OPT_POLL] = { "poll", no_argument, 0 },
	[OPT_ALLOW_SMT_SPLIT] = { "allow-smt-split", no_argument, 0 },
	[OPT_OUTPUT] = { "output", required_argument, 'o' },
	[OPT_NO_OFFLOAD] = { "no-offload", no_argument, 0 },
};

#define LONG_BASE 256

/* How many of the long options in lo start with the name in arg ("--x=..")? */
static int prefix_matches(const struct option *lo, const char *arg)
{
	size_t n = strcspn(arg, "=");
	int m = 0;

	for (; lo->name; lo++)
		if (!strncmp(lo->name, arg, n))
			m++;
	return m;
}

void opt_error(const struct nocb_ctx *ctx, const char *verb,
	       const struct option *lo, int c, char **argv)
{
	const char *bad = optind > 0 ? argv[optind - 1] : "?", *why;
	const struct option *o = NULL;
	char name[64];

	for (const struct option *p = lo; p->name; p++)
		if (optopt && p->val == optopt)
			o = p;
	if (o)
		snprintf(name, sizeof(name), "--%s", o->name);
	else if (optopt > 0 && optopt < LONG_BASE)
		snprintf(name, sizeof(name), "-%c", optopt);
	else
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(bad, "="),
			 bad);
	if (c == ':')
		why = "needs an argument";
	else if (o)
		why = "takes no argument";
	else if (!strncmp(bad, "--", 2) && prefix_matches(lo, bad + 2) > 1)
		why = "ambiguous option";
	else
		why = "unknown option";
	/* "nocbctl: --root: needs an argument", "nocbctl: pin: -x: ..." */
	if (verb)
		nocb_err(ctx, verb, "%s: %s (see nocbctl %s --help)", name, why,
			 verb);
	else
		nocb_err(ctx, name, "%s (see nocbctl --help)", why);
}

int verb_parse(struct nocb_ctx *ctx, const char *verb, unsigned mask,
	       void (*help)(FILE *), int argc, char **argv,
	       struct verb_args *a)
{
	struct option lo[OPT_N + 1];
	char so[3 * OPT_N + 2], *s = so;
	int n = 0, c;

	memset(a, 0, sizeof(*a));
	mask |= OPT(OPT_JSON) | OPT(OPT_HELP);
	*s++ = ':';		/* ':' for a missing argument */
	for (int i = 0; i < OPT_N; i++) {
		if (!(mask & OPT(i)))
			continue;
		lo[n++] = (struct option){ table[i].name, table[i].has_arg,
					   NULL, LONG_BASE + i };
		if (table[i].letter) {
			*s++ = table[i].letter;
			if (table[i].has_arg == required_argument)
				*s++ = ':';
		}
	}
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
	*s = '\0';
	optind = 0;		/* glibc: full reinitialisation */
	opterr = 0;
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		int i = c - LONG_BASE;

		if (c == '?' || c == ':') {
			opt_error(ctx, verb, lo, c, argv);
			return NOCB_EXIT_USAGE;
		}
		if (c < LONG_BASE)
			for (i = 0; i < OPT_N; i++)
				if (table[i].letter == c)
					break;
		if (i < 0 || i >= OPT_N)
			continue;	/* cannot happen */
		a->set[i] = true;
		a->arg[i] = optarg;
	}
	if (a->set[OPT_HELP]) {
		help(ctx->out);
		return NOCB_EXIT_OK;
	}
	if (a->set[OPT_JSON])
		ctx->json = true;
	a->nargs = argc - optind;
	a->args = argv + optind;
	return VERB_PARSED;
}
