// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - nocbctl: inspect and tune RCU callback offloading (no-CBs CPUs).
 *
 * Parses the global options, then dispatches to one verb from the table
 * below; each verb lives in src/cmd_<verb>.c.
 */
#include "verbs.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef NOCBCTL_VERSION
#error "NOCBCTL_VERSION: the Makefile passes it, from debian/changelog"
#endif

struct verb {
	const char *name;
	int (*run)(struct nocb_ctx *ctx, int argc, char **argv);
	const char *summary;
};

static const struct verb verbs[] = {
	{ "status", cmd_status,
	  "show offloaded CPUs, offload kthreads and warnings" },
	{ "stats", cmd_stats, "per-CPU callback counts (and rates)" },
	{ "pin", cmd_pin, "set allowed CPUs of offload kthreads" },
	{ "prio", cmd_prio, "set scheduling of offload kthreads" },
	{ "apply", cmd_apply, "apply /etc/nocbctl.conf (pin + prio)" },
	{ "hotplug-check", cmd_hotplug_check,
	  "confirm the last normal CPU refuses to go offline" },
	{ "offload", cmd_offload, "make CPUs no-CBs CPUs now (runtime offload)" },
	{ "deoffload", cmd_deoffload, "make no-CBs CPUs normal again (runtime offload)" },
	{ "plan", cmd_plan,
	  "isolation recipe for CPUs (--check: the running system)" },
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

/*
 * With a fixture --root the pids under DIR/proc are not real processes
 * (small ones are real host tasks): the verbs refuse to act without
 * --dry-run (ctx->fixture_pids), and should one get past that, these
 * refuse every change of a thread.
 */
static int refuse_affinity(pid_t pid, const struct cpulist *cpus)
{
	(void)pid;
	(void)cpus;
	return -EPERM;
}

static int refuse_scheduler(pid_t pid, int policy, int priority)
{
	(void)pid;
	(void)policy;
	(void)priority;
	return -EPERM;
}

static int refuse_nice(pid_t pid, int nice)
{
	(void)pid;
	(void)nice;
	return -EPERM;
}

int main(int argc, char **argv)
{
	/* long options return 256 + n, as in src/opts.c */
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 256 },
		{ "root", required_argument, NULL, 257 },
		{ "help", no_argument, NULL, 258 },
		{ "version", no_argument, NULL, 259 },
		{ NULL, 0, NULL, 0 },
	};
	static struct nocb_ops fixture_ops;
	struct nocb_ctx ctx;
	bool root_given = false;
	struct stat st;
	int c;

	nocb_ctx_init(&ctx);
	opterr = 0;
	/* "+": stop at the verb; its options are its own */
	while ((c = getopt_long(argc, argv, "+:jr:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'j': case 256:
			ctx.json = true;
			break;
		case 'r': case 257:
			ctx.root = optarg;
			root_given = true;
			break;
		case 'h': case 258:
			usage(stdout);
			return NOCB_EXIT_OK;
		case 'V': case 259:
			printf("nocbctl %s\n", NOCBCTL_VERSION);
			return NOCB_EXIT_OK;
		default:
			opt_error(&ctx, NULL, opts, c, argv);
			return NOCB_EXIT_USAGE;
		}
	}
	/* "" would silently mean the real system */
	if (root_given && !ctx.root[0]) {
		nocb_err(&ctx, "--root", "empty directory name");
		return NOCB_EXIT_USAGE;
	}
	/* every path below it would fail without naming it */
	if (root_given && stat(ctx.root, &st)) {
		nocb_err(&ctx, "--root", "%s: %s", ctx.root, strerror(errno));
		return NOCB_EXIT_USAGE;
	}
	if (root_given && !S_ISDIR(st.st_mode)) {
		nocb_err(&ctx, "--root", "%s: not a directory", ctx.root);
		return NOCB_EXIT_USAGE;
	}
	if (optind >= argc) {
		fputs("nocbctl: no command (see nocbctl --help)\n", ctx.err);
		return NOCB_EXIT_USAGE;
	}
	if (nocb_ctx_has_fixture_root(&ctx)) {
		fixture_ops = nocb_real_ops;
		fixture_ops.set_affinity = refuse_affinity;
		fixture_ops.set_scheduler = refuse_scheduler;
		fixture_ops.set_nice = refuse_nice;
		ctx.ops = &fixture_ops;
		ctx.fixture_pids = true;
	}
	for (size_t v = 0; v < sizeof(verbs) / sizeof(verbs[0]); v++)
		if (!strcmp(argv[optind], verbs[v].name))
			return verbs[v].run(&ctx, argc - optind, argv + optind);
	nocb_err(&ctx, argv[optind], "unknown command (see nocbctl --help)");
	return NOCB_EXIT_USAGE;
}
