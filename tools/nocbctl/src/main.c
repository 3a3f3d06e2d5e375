// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - nocbctl: inspect and tune RCU callback offloading (no-CBs CPUs).
 *
 * Parses the global options, then dispatches to one verb from the table
 * below; each verb lives in src/cmd_<verb>.c.
 */
#include "verbs.h"

#include <stdlib.h>
#include <string.h>

#ifndef NOCBCTL_VERSION
#define NOCBCTL_VERSION "0.1"
#endif

struct verb {
	const char *name;
	int (*run)(struct nocb_ctx *ctx, int argc, char **argv);
	bool acts_on_pids;	/* refuses a fixture --root without --dry-run */
	const char *summary;
};

static const struct verb verbs[] = {
	{ "status", cmd_status, false,
	  "show offloaded CPUs, offload kthreads and warnings" },
	{ "stats", cmd_stats, false, "per-CPU callback counts (and rates)" },
	{ "pin", cmd_pin, true, "set allowed CPUs of offload kthreads" },
	{ "prio", cmd_prio, true, "set scheduling of offload kthreads" },
	{ "apply", cmd_apply, true, "apply /etc/nocbctl.conf (pin + prio)" },
	{ "hotplug-check", cmd_hotplug, false,
	  "confirm the last normal CPU refuses to go offline" },
};

static void usage(FILE *f)
{
	fputs("\nUsage:\n"
	      " nocbctl [--json] [--root DIR] COMMAND [options]\n"
	      "\nInspect and tune RCU callback offloading (rcu_nocbs).\n"
	      "\nCommands:\n", f);
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		fprintf(f, " %-14s %s\n", verbs[i].name, verbs[i].summary);
	fputs("\nOptions:\n"
	      " -j, --json       print one JSON document on stdout\n"
	      " -r, --root DIR   read /proc, /sys and /run under DIR (tests)\n"
	      " -h, --help       display this help\n"
	      " -V, --version    display version\n"
	      "\nRun 'nocbctl COMMAND --help' for a command's options.\n"
	      "Exit status: 0 ok, 1 check or operation failed, 2 usage or input\n"
	      "error, 3 not supported by this kernel, 4 missing privilege.\n"
	      "\nFor more details see nocbctl(8).\n", f);
}

/* Does the verb's argv contain option a or its short form s? */
static bool has_arg(int argc, char **argv, const char *a, const char *s)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], a) || !strcmp(argv[i], s))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	struct nocb_ctx ctx;
	int i;

	nocb_ctx_init(&ctx);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			ctx.json = true;
		} else if (!strcmp(a, "-r") || !strcmp(a, "--root")) {
			if (i + 1 >= argc) {
				nocb_err(&ctx, "--root", "needs a directory");
				return NOCB_EXIT_USAGE;
			}
			ctx.root = argv[++i];
		} else if (!strncmp(a, "--root=", 7)) {
			ctx.root = a + 7;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return NOCB_EXIT_OK;
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			printf("nocbctl %s\n", NOCBCTL_VERSION);
			return NOCB_EXIT_OK;
		} else {
			nocb_err(&ctx, a, "unknown option (see nocbctl --help)");
			return NOCB_EXIT_USAGE;
		}
	}
	if (!ctx.root[0] && i > 1 && !strcmp(argv[i - 1], "--root=")) {
		nocb_err(&ctx, "--root", "empty directory name");
		return NOCB_EXIT_USAGE;
	}
	if (i >= argc) {
		nocb_err(&ctx, "nocbctl", "no command (see nocbctl --help)");
		return NOCB_EXIT_USAGE;
	}
	for (size_t v = 0; v < sizeof(verbs) / sizeof(verbs[0]); v++) {
		if (strcmp(argv[i], verbs[v].name))
			continue;
		/*
		 * Fixture pids are not real processes: never call
		 * sched_setaffinity() & co. on them.
		 */
		if (verbs[v].acts_on_pids && nocb_ctx_has_fixture_root(&ctx) &&
		    !has_arg(argc - i, argv + i, "--dry-run", "-n") &&
		    !has_arg(argc - i, argv + i, "--help", "-h")) {
			nocb_err(&ctx, verbs[v].name,
				 "--root %s: fixture pids are not real processes; use --dry-run",
				 ctx.root);
			return NOCB_EXIT_USAGE;
		}
		return verbs[v].run(&ctx, argc - i, argv + i);
	}
	nocb_err(&ctx, argv[i], "unknown command (see nocbctl --help)");
	return NOCB_EXIT_USAGE;
}
