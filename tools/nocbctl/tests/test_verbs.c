// SPDX-License-Identifier: GPL-2.0
/* test_verbs.c - each verb against fixture trees, with recorded syscalls. */
#define _GNU_SOURCE
#include "fixture.h"
#include "placement.h"
#include "proc.h"
#include "rcudata.h"
#include "stats.h"
#include "verbs.h"

#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int setup(void **state)
{
	(void)state;
	mock_reset();
	return 0;
}

/*
 * About two CPUs in three of 1-4095, picked by a fixed xorshift: the
 * others are normal, single or in short runs of any length.
 */
static void scattered_set(struct cpulist *off)
{
	uint32_t x = 2463534242u;

	cpulist_clear(off);
	for (int c = 1; c < 4096; c++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		if (x % 3)
			cpulist_set(off, c);
	}
}

/* --- status ------------------------------------------------------------ */

static void status_cpu4(void **state)
{
	struct run r;

	(void)state;
	run_verb(&r, cmd_status, fx("cpu4"), false, "status", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "offloaded: 1-3 (source: rcudata N flags)");
	assert_contains(r.out, "normal:    0\n");
	assert_contains(r.out, "Offload kthreads: 6");
	assert_contains(r.out, "rcuop/3");
	assert_contains(r.out, "rcuop/1 (pid 14) may run on CPU 1, which it offloads");
	assert_not_contains(r.out, "rcuop/0 (pid 13) may run");
	assert_not_contains(r.out, "rcuop/7");
	assert_contains(r.out, "K1 separate accounting (nci=)     present");
	/* no osrelease and no rcu_nocbs file in this fixture */
	assert_contains(r.out, "Kernel:      unknown (no /proc/sys/kernel/osrelease)\n");
	assert_contains(r.out, "K6 runtime offload (rcu_nocbs)    absent");
	assert_int_equal(r.errlen, 0);
	run_free(&r);
	/* a kernel with the series' K6: its release and K6 present */
	run_verb(&r, cmd_status, fx("k6"), false, "status", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "Kernel:      6.12.118+\n");
	assert_contains(r.out, "K6 runtime offload (rcu_nocbs)    present");
	run_free(&r);
	run_verb(&r, cmd_status, fx("k6"), true, "status", END);
	assert_contains(r.out, "\"release\":\"6.12.118+\",\"kernel\":{");
	assert_contains(r.out, "\"K6\":{\"feature\":\"runtime offload (rcu_nocbs)\",\"state\":\"present\"");
	run_free(&r);
}

static void status_cpu4_json(void **state)
{
	struct run r;

	(void)state;
	run_verb(&r, cmd_status, fx("cpu4-offline"), true, "status", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.out[0], '{');
	assert_int_equal(count_substr(r.out, "\n"), 1);
	assert_contains(r.out, "\"offloaded\":\"1-3\"");
	assert_contains(r.out, "\"offline\":\"2\"");
	assert_contains(r.out, "\"offloaded_source\":\"rcudata\"");
	assert_contains(r.out, "{\"pid\":17,\"name\":\"rcuop/3\",\"cpu\":3,"
			"\"cpu_offloaded\":true,\"allowed\":\"0-3\","
			"\"policy\":\"other\",\"priority\":0,\"nice\":0}");
	assert_contains(r.out, "\"polling\":false");
	run_free(&r);
}

static void status_norcudata(void **state)
{
	struct run r;

	(void)state;
	run_verb(&r, cmd_status, fx("norcudata"), false, "status", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "offloaded: 2-3 (source: boot command line");
	assert_contains(r.out, "Polling:     on");
	assert_contains(r.out, "K2 debugfs rcudata                absent");
	assert_contains(r.out, "isolated or nohz_full CPUs 1 are not offloaded");
	assert_contains(r.out, "kernel support incomplete");
	run_free(&r);
}

/* Stock kernel: debugfs mounted, no rcudata: K1-K4 absent, not unknown. */
static void status_stock_kernel(void **state)
{
	struct run r;

	(void)state;
	run_verb(&r, cmd_status, fx("stock"), false, "status", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "K1 separate accounting (nci=)     absent");
	assert_contains(r.out, "K2 debugfs rcudata                absent   (/sys/kernel/debug/rcu/rcudata: not provided by this kernel (debugfs is mounted");
	assert_contains(r.out, "K3 last normal CPU stays online   absent");
	assert_contains(r.out, "K4 CPU 0 is never offloaded       absent");
	assert_contains(r.out, "offloaded: 1-3 (source: boot command line");
	assert_contains(r.out, "kernel support incomplete: K1 absent, K2 absent, K3 absent, K4 absent");
	run_free(&r);
	/* debugfs not mounted: K3 and K4 stay unknown */
	run_verb(&r, cmd_status, fx("norcudata"), false, "status", END);
	assert_contains(r.out, "K3 last normal CPU stays online   unknown");
	assert_contains(r.out, "debugfs not mounted");
	run_free(&r);
	run_verb(&r, cmd_stats, fx("stock"), false, "stats", END);
	assert_int_equal(r.rc, 3);
	assert_contains(r.err, "nocbctl: stats: /sys/kernel/debug/rcu/rcudata: not provided by this kernel");
	run_free(&r);
}

/* maxcpus=3: CPU 3 has no rcudata line; the command line says no-CBs. */
static void status_cpu_without_rcudata_line(void **state)
{
	struct run r;

	(void)state;
	run_verb(&r, cmd_status, fx("maxcpus3"), false, "status", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "offloaded: 1-2 (source: rcudata N flags)\n");
	assert_contains(r.out, "normal:    0\n");
	assert_contains(r.out, "pending:   3 offloaded per the boot command line"
			" (rcu_nocbs=, nohz_full=), not yet confirmed by the"
			" kernel: no rcudata line, not online since boot\n");
	/* kthreads allowed on CPU 3 will run beside its callbacks */
	assert_contains(r.out, "rcuop/0 (pid 13) is allowed on CPUs 1-3 (");
	run_free(&r);
	run_verb(&r, cmd_status, fx("maxcpus3"), true, "status", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "\"offloaded\":\"1-2\",\"offloaded_source\":"
			"\"rcudata\",\"offloaded_at_boot\":\"1-3\",\"normal\":\"0\","
			"\"pending_offloaded\":\"3\","
			"\"pending_normal\":\"\",\"unknown\":\"\"");
	run_free(&r);
	/* and without /proc/cmdline nothing tells what CPU 3 will be */
	{
		char *t = tree_copy("maxcpus3"), path[4200];

		snprintf(path, sizeof(path), "%s/proc/cmdline", t);
		assert_int_equal(unlink(path), 0);
		run_verb(&r, cmd_status, t, false, "status", END);
		assert_int_equal(r.rc, 0);
		assert_contains(r.out, "normal:    0\n");
		assert_contains(r.out, "unknown:   3 (no rcudata line: not online since boot; no /proc/cmdline");
		assert_not_contains(r.out, "pending:");
		run_free(&r);
		tree_rm(t);
	}
	/* every CPU has its line: nothing pending */
	run_verb(&r, cmd_status, fx("cpu4"), true, "status", END);
	assert_contains(r.out, "\"pending_offloaded\":\"\",\"pending_normal\":\"\"");
	run_free(&r);
}

static void status_malformed_and_small(void **state)
{
	struct run r;

	(void)state;
	run_verb(&r, cmd_status, fx("malformed"), false, "status", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "rcudata unparsable");
	assert_contains(r.out, "line 2");
	run_free(&r);
	run_verb(&r, cmd_status, fx("cpu1"), false, "status", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "Offload kthreads: 0");
	assert_not_contains(r.out, "Warnings");
	run_free(&r);
	run_verb(&r, cmd_status, fx("cpu64"), true, "status", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(count_substr(r.out, "\"pid\":"), 72);
	assert_contains(r.out, "rcuop/5 (pid 1005) may run on CPU 5");
	assert_int_equal(count_substr(r.out, "may run on CPU"), 1);
	run_free(&r);
	run_verb(&r, cmd_status, fx("vanished"), false, "status", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "Offload kthreads: 4");
	run_free(&r);
	run_verb(&r, cmd_status, fx("nowhere"), false, "status", END);
	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "nocbctl: status: /sys/devices/system/cpu/possible:");
	run_free(&r);
	run_verb(&r, cmd_status, fx("cpu4"), false, "status", "extra", END);
	assert_int_equal(r.rc, 2);
	run_free(&r);
}

/* --- stats ------------------------------------------------------------- */

static void stats_basic(void **state)
{
	struct run r;

	(void)state;
	run_verb(&r, cmd_stats, fx("cpu4"), false, "stats", "--cpus", "1-2",
		 END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "    1 N ");
	assert_contains(r.out, "1500");
	assert_not_contains(r.out, "1234");	/* CPU 0 filtered out */
	run_free(&r);
	run_verb(&r, cmd_stats, fx("cpu4"), true, "stats", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "{\"cpu\":2,\"offline\":false,\"offloaded\":true,"
			"\"ql_lazy\":0,\"ql\":5,\"ci\":0,\"nci\":1500");
	run_free(&r);
	run_verb(&r, cmd_stats, fx("nonci"), true, "stats", END);
	assert_contains(r.out, "\"nci\":null");
	run_free(&r);
}

static void stats_errors(void **state)
{
	struct run r;

	(void)state;
	run_verb(&r, cmd_stats, fx("norcudata"), false, "stats", END);
	assert_int_equal(r.rc, 3);
	assert_contains(r.err, "nocbctl: stats: /sys/kernel/debug/rcu/rcudata");
	run_free(&r);
	run_verb(&r, cmd_stats, fx("malformed"), false, "stats", END);
	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "line 2");
	run_free(&r);
	run_verb(&r, cmd_stats, fx("cpu4"), false, "stats", "--cpus=99", END);
	assert_int_equal(r.rc, 2);
	assert_int_equal(r.outlen, 0);
	run_free(&r);
	run_verb(&r, cmd_stats, fx("cpu4"), false, "stats", "--watch=0", END);
	assert_int_equal(r.rc, 2);
	run_free(&r);
	run_verb(&r, cmd_stats, fx("cpu4"), false, "stats", "--count=2", END);
	assert_int_equal(r.rc, 2);
	run_free(&r);
	run_verb(&r, cmd_stats, fx("cpu4"), true, "stats", "--watch=1", END);
	assert_int_equal(r.rc, 2);
	assert_contains(r.err, "--count");
	run_free(&r);
}

static void stats_watch(void **state)
{
	struct run r;

	(void)state;
	run_verb(&r, cmd_stats, fx("cpu4-offline"), true, "stats",
		 "--watch=0.01", "--count=3", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(count_substr(r.out, "\"t\":"), 3);
	assert_int_equal(count_substr(r.out, "\"ci_rate\":0.000"), 8);
	assert_contains(r.out, "{\"cpu\":2,\"offline\":true");
	run_free(&r);
	run_verb(&r, cmd_stats, fx("cpu4"), false, "stats", "--watch=0.01",
		 "--count=2", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(count_substr(r.out, "NCI/s"), 1);
	assert_int_equal(count_substr(r.out, "  CPU FLAGS"), 2);
	run_free(&r);
}

/* CPUs that appear or disappear between samples. */
static void stats_cpus_come_and_go(void **state)
{
	const char *a = "  0 ql=0/0 ci=100 nci=0\n  1N ql=0/0 ci=0 nci=50\n";
	const char *b = "  0 ql=0/0 ci=300 nci=0\n  2N ql=0/0 ci=0 nci=7\n";
	struct rcudata p, c;
	char *out = NULL;
	size_t len = 0;
	struct nocb_ctx ctx;
	char err[128];

	(void)state;
	assert_int_equal(rcudata_parse(a, strlen(a), &p, err, sizeof(err)), 0);
	assert_int_equal(rcudata_parse(b, strlen(b), &c, err, sizeof(err)), 0);
	nocb_ctx_init(&ctx);
	ctx.out = open_memstream(&out, &len);
	stats_print_sample(&ctx, NULL, &p, &c, NULL, 2.0);
	fclose(ctx.out);
	assert_contains(out, "100.0");	/* CPU 0: 200 callbacks in 2 s */
	assert_not_contains(out, "\n    1 ");	/* CPU 1 went away */
	assert_contains(out, "    2 N ");	/* CPU 2 new: no rate */
	/* CPU 0's empty FLAGS, CPU 2's two missing rates */
	assert_int_equal(count_substr(out, " -"), 3);
	free(out);
	rcudata_free(&p);
	rcudata_free(&c);
}

/* --- stats --format=prometheus ----------------------------------------- */

static void stats_prometheus(void **state)
{
	static const char *const families[] = {
		"nocb_cpu_online gauge", "nocb_cpu_offloaded gauge",
		"nocb_callbacks_queued gauge", "nocb_callbacks_queued_lazy gauge",
		"nocb_callbacks_invoked_total counter",
		"nocb_callbacks_migrated_total counter",
		"nocb_callbacks_adopted_total counter",
		"nocb_offload_kthreads_on_own_cpu gauge",
		"nocb_offload_kthreads_misplaced gauge", "nocb_build_info gauge",
		"nocb_kernel_statistics_available gauge",
		"nocb_collector_last_success_timestamp_seconds gauge",
	};
	struct run r;
	char type[128];

	(void)state;
	run_verb(&r, cmd_stats, fx("cpu4"), false, "stats",
		 "--format=prometheus", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.errlen, 0);
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		snprintf(type, sizeof(type), "\n# TYPE %s\n", families[i]);
		assert_contains(r.out, type);
	}
	assert_int_equal(count_substr(r.out, "# HELP nocb_"), 12);
	/* 8 one-per-CPU families and invoked twice, on 4 CPUs */
	assert_int_equal(count_substr(r.out, "{cpu=\""), 4 * 10);
	/* all 6 kthreads may run on CPUs 1-3, offloaded: the gauge that alerts */
	assert_contains(r.out, "\nnocb_offload_kthreads_misplaced{cpu=\"0\"} 0\n");
	assert_contains(r.out, "\nnocb_offload_kthreads_misplaced{cpu=\"1\"} 6\n");
	assert_contains(r.out, "\nnocb_kernel_statistics_available{statistics=\"rcudata\"} 1\n");
	assert_contains(r.out, "\nnocb_cpu_offloaded{cpu=\"0\"} 0\n");
	assert_contains(r.out, "\nnocb_cpu_offloaded{cpu=\"3\"} 1\n");
	assert_contains(r.out, "\nnocb_callbacks_queued{cpu=\"2\"} 5\n");
	assert_contains(r.out, "\nnocb_callbacks_invoked_total{cpu=\"0\",context=\"softirq\"} 1234\n");
	assert_contains(r.out, "\nnocb_callbacks_invoked_total{cpu=\"2\",context=\"offload\"} 1500\n");
	/* rcuop/0 may run on CPU 0, which is not offloaded: nothing broken */
	assert_contains(r.out, "\nnocb_offload_kthreads_on_own_cpu{cpu=\"0\"} 0\n");
	/* rcuog/2 and rcuop/2 may both run on offloaded CPU 2 */
	assert_contains(r.out, "\nnocb_offload_kthreads_on_own_cpu{cpu=\"2\"} 2\n");
	assert_contains(r.out, "\nnocb_offload_kthreads_on_own_cpu{cpu=\"3\"} 1\n");
	run_free(&r);
	/* pinned to CPU 0: no offloaded CPU runs its own kthread */
	run_verb(&r, cmd_stats, fx("cpu4-pinned"), false, "stats",
		 "--format=prometheus", "--cpus=1-3", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(count_substr(r.out, "nocb_offload_kthreads_on_own_cpu{"), 3);
	assert_int_equal(count_substr(r.out, "nocb_offload_kthreads_on_own_cpu{cpu=\"1\"} 0\n"), 1);
	assert_not_contains(r.out, "{cpu=\"0\"");
	run_free(&r);
	/* stock kernel: no rcudata, still the placement, from the command line */
	run_verb(&r, cmd_stats, fx("stock"), false, "stats",
		 "--format=prometheus", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "\nnocb_kernel_statistics_available{statistics=\"rcudata\"} 0\n");
	assert_contains(r.out, "\nnocb_cpu_offloaded{cpu=\"1\"} 1\n");
	assert_contains(r.out, "\nnocb_offload_kthreads_misplaced{cpu=\"2\"} ");
	assert_not_contains(r.out, "nocb_callbacks_");
	assert_not_contains(r.out, "nocb_cpu_online");
	run_free(&r);
	/* no K1: ci= counts every invocation, so it is context "all" */
	run_verb(&r, cmd_stats, fx("nonci"), false, "stats",
		 "--format=prometheus", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "\nnocb_callbacks_invoked_total{cpu=\"0\",context=\"all\"} 1234\n");
	assert_not_contains(r.out, "context=\"offload\"");
	assert_not_contains(r.out, "context=\"softirq\"");
	run_free(&r);
	/* CPU 2 offline */
	run_verb(&r, cmd_stats, fx("cpu4-offline"), false, "stats",
		 "--format=prometheus", END);
	assert_contains(r.out, "\nnocb_cpu_online{cpu=\"2\"} 0\n");
	assert_contains(r.out, "\nnocb_cpu_online{cpu=\"1\"} 1\n");
	run_free(&r);
}

/* One line for a log: the sums, the offloaded CPUs, the longest queue. */
static void stats_summary(void **state)
{
	struct run r;

	(void)state;
	run_verb(&r, cmd_stats, fx("cpu4"), false, "stats", "--format=summary",
		 END);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "cpus=4 offloaded=1-3 ql=8 ql_offloaded=5 ci=1234 nci=1606 max_ql=5 max_ql_cpu=2\n");
	run_free(&r);
	/* no nci= in the kernel: none in the line; --cpus narrows the sums */
	run_verb(&r, cmd_stats, fx("nonci"), false, "stats", "--format=summary",
		 "--cpus=1-2", END);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "cpus=2 offloaded=1-2 ql=5 ql_offloaded=5 ci=0 max_ql=5 max_ql_cpu=2\n");
	run_free(&r);
	run_verb(&r, cmd_stats, fx("cpu4"), true, "stats", "--format=summary",
		 END);
	assert_int_equal(r.rc, 2);
	assert_contains(r.err, "--json and --format=summary conflict");
	run_free(&r);
}

/* Fields rcudata does not give are left out, not reported as 0. */
static void stats_prometheus_missing_fields(void **state)
{
	const char *a = "  0 ql=1/4 ci=100 nci=3 ca=8\n  5N ql=0/0 ci=0 nci=50 co=2\n";
	struct rcudata rd;
	struct kthread_list kl = { 0 };
	struct cpu_state cs = { 0 };
	struct placement_rule rule;
	struct cpulist off;
	struct nocb_ctx ctx;
	char *out = NULL, err[128];
	size_t len = 0;

	(void)state;
	assert_int_equal(rcudata_parse(a, strlen(a), &rd, err, sizeof(err)), 0);
	cpulist_clear(&off);
	cpulist_set(&off, 5);
	cpulist_set(&cs.possible, 0);
	cpulist_set(&cs.possible, 5);
	placement_rule_init(&rule, &cs, &off);
	nocb_ctx_init(&ctx);
	ctx.out = open_memstream(&out, &len);
	assert_int_equal(stats_print_prometheus(&ctx, &(struct prom_input){
		.rd = &rd, .possible = &cs.possible, .offloaded = &off,
		.rule = &rule, .kl = &kl, .now = 1.5 }, NULL), 0);
	fclose(ctx.out);
	assert_contains(out, "\nnocb_callbacks_queued_lazy{cpu=\"0\"} 1\n");
	assert_contains(out, "\nnocb_callbacks_queued{cpu=\"0\"} 4\n");
	assert_contains(out, "\nnocb_callbacks_adopted_total{cpu=\"0\"} 8\n");
	assert_contains(out, "\nnocb_callbacks_migrated_total{cpu=\"5\"} 2\n");
	assert_not_contains(out, "nocb_callbacks_migrated_total{cpu=\"0\"}");
	assert_not_contains(out, "nocb_callbacks_adopted_total{cpu=\"5\"}");
	assert_contains(out, "\nnocb_offload_kthreads_on_own_cpu{cpu=\"5\"} 0\n");
	assert_contains(out, "\nnocb_offload_kthreads_misplaced{cpu=\"5\"} 0\n");
	assert_contains(out, "\nnocb_collector_last_success_timestamp_seconds 1.500\n");
	free(out);
	rcudata_free(&rd);
}

static void stats_format_errors(void **state)
{
	static const char *const bad[][3] = {
		{ "--format=xml", NULL, "--format=xml: expected text, json, prometheus or summary" },
		{ "--format=prometheus", "--watch=1", "--watch cannot go with --format=prometheus" },
		{ "--output=/nonexistent/x", "--watch=1", "--watch cannot go with --output" },
		{ "--output=", NULL, "--output: empty file name" },
		{ "--format=prometheus", "--cpus=9", "--cpus=9:" },
	};
	struct run r;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		run_verb(&r, cmd_stats, fx("cpu4"), false, "stats", bad[i][0],
			 bad[i][1], END);
		assert_int_equal(r.rc, 2);
		assert_int_equal(r.outlen, 0);
		assert_contains(r.err, bad[i][2]);
		run_free(&r);
	}
	run_verb(&r, cmd_stats, fx("cpu4"), true, "stats",
		 "--format=prometheus", END);
	assert_int_equal(r.rc, 2);
	assert_contains(r.err, "nocbctl: stats: --json and --format=prometheus conflict");
	run_free(&r);
	/* --format=json is --json */
	run_verb(&r, cmd_stats, fx("cpu4"), false, "stats", "--format=json",
		 END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "{\"command\":\"stats\",\"cpus\":[");
	run_free(&r);
	/* no rcudata: the placement all the same, and that it has none */
	run_verb(&r, cmd_stats, fx("norcudata"), false, "stats",
		 "--format=prometheus", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "nocb_kernel_statistics_available{statistics=\"rcudata\"} 0\n");
	run_free(&r);
}

/* s without its collection time, which differs from run to run */
static void drop_timestamp(char *s)
{
	static const char key[] = "\nnocb_collector_last_success_timestamp_seconds ";
	char *p = strstr(s, key), *e;

	assert_non_null(p);
	e = strchr(p + 1, '\n');
	assert_non_null(e);
	memmove(p, e, strlen(e) + 1);
}

/* --output replaces the file in one rename; a failure removes it. */
static void stats_output_file(void **state)
{
	char *t = tree_copy(NULL), file[4200], *got;
	struct run r, want;
	struct stat st;
	DIR *d;
	struct dirent *e;
	int n = 0;

	(void)state;
	snprintf(file, sizeof(file), "%s/nocbctl.prom", t);
	tree_write(t, "nocbctl.prom", "old\n");
	run_verb(&want, cmd_stats, fx("cpu4"), false, "stats",
		 "--format=prometheus", END);
	run_verb(&r, cmd_stats, fx("cpu4"), false, "stats",
		 "--format=prometheus", "-o", file, END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.outlen, 0);
	assert_int_equal(r.errlen, 0);
	got = tree_read(t, "nocbctl.prom");
	assert_non_null(got);
	drop_timestamp(got);
	drop_timestamp(want.out);
	assert_string_equal(got, want.out);
	free(got);
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	/* no temporary file left beside it */
	d = opendir(t);
	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' || (strcmp(e->d_name, ".") &&
					    strcmp(e->d_name, "..")))
			n++;
	closedir(d);
	assert_int_equal(n, 1);
	run_free(&r);
	run_free(&want);
	/* bad input: the file stays as it was */
	run_verb(&r, cmd_stats, fx("cpu4"), false, "stats",
		 "--format=prometheus", "--cpus=7", "--output", file, END);
	assert_int_equal(r.rc, 2);
	assert_true(tree_exists(t, "nocbctl.prom"));
	run_free(&r);
	/* rcudata unreadable: no stale values left for the collector */
	run_verb(&r, cmd_stats, fx("malformed"), false, "stats",
		 "--format=prometheus", "--output", file, END);
	assert_int_equal(r.rc, 1);
	assert_false(tree_exists(t, "nocbctl.prom"));
	assert_contains(r.err, "nocbctl.prom: removed: its values would be stale");
	run_free(&r);
	/* a directory that does not exist */
	run_verb(&r, cmd_stats, fx("cpu4"), false, "stats",
		 "--format=prometheus", "--output=/nonexistent/nocbctl.prom", END);
	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "nocbctl: stats: /nonexistent/nocbctl.prom: No such file or directory");
	run_free(&r);
	tree_rm(t);
}

/* --- pin --------------------------------------------------------------- */

static void pin_dry_run(void **state)
{
	struct run r;

	(void)state;
	run_verb(&r, cmd_pin, fx("cpu4"), false, "pin", "rcuo", "--cpus=0",
		 "--dry-run", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(count_substr(r.out, "would change (0-3 -> 0)"), 6);
	assert_int_equal(mock.n_aff, 0);
	run_free(&r);
}

static void pin_changes_each_thread(void **state)
{
	struct run r;

	(void)state;
	run_verb(&r, cmd_pin, fx("cpu4"), false, "pin", "rcuo", "--cpus=0",
		 END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_aff, 6);
	for (int i = 0; i < mock.n_aff; i++) {
		assert_string_equal(mock.aff_cpus[i], "0");
		assert_int_not_equal(mock.aff_pid[i], 900);
	}
	assert_contains(r.out, "pin: 6 changed, 0 unchanged, 0 failed");
	run_free(&r);
	mock_reset();
	/* CPU 1 is offloaded: the mechanics, past the placement rule */
	run_verb(&r, cmd_pin, fx("cpu4"), false, "pin", "rcuog", "--cpus",
		 "0-1", "--force", END);
	assert_int_equal(mock.n_aff, 2);
	assert_int_equal(mock.aff_pid[0], 12);
	assert_int_equal(mock.aff_pid[1], 15);
	assert_string_equal(mock.aff_cpus[1], "0-1");
	run_free(&r);
}

/* A 9 KiB list of scattered CPUs reaches sched_setaffinity() whole. */
static void pin_long_scattered_list(void **state)
{
	char *t = tree_copy("cpu4");
	struct cpulist cpus;
	char *list, *arg;
	struct run r;

	(void)state;
	tree_write(t, "sys/devices/system/cpu/possible", "0-4095\n");
	tree_write(t, "sys/devices/system/cpu/present", "0-4095\n");
	tree_write(t, "sys/devices/system/cpu/online", "0-4095\n");
	scattered_set(&cpus);
	cpulist_set(&cpus, 0);
	list = cpulist_format_alloc(&cpus);
	assert_non_null(list);
	assert_true(strlen(list) > 4096);
	assert_true(asprintf(&arg, "--cpus=%s", list) > 0);
	run_verb(&r, cmd_pin, t, false, "pin", "rcuo", arg, "--force", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_aff, 6);
	for (int i = 0; i < mock.n_aff; i++)
		assert_string_equal(mock.aff_cpus[i], list);
	assert_contains(r.out, "pin: 6 changed, 0 unchanged, 0 failed");
	run_free(&r);
	free(arg);
	free(list);
	tree_rm(t);
}

static void pin_idempotent(void **state)
{
	struct run r;

	(void)state;
	run_verb(&r, cmd_pin, fx("cpu4-pinned"), true, "pin", "rcuo",
		 "--cpus=0", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_aff, 0);
	assert_int_equal(count_substr(r.out, "\"result\":\"unchanged\""), 6);
	assert_contains(r.out, "\"changed\":0,\"unchanged\":6");
	run_free(&r);
}

static void pin_bad_input_changes_nothing(void **state)
{
	static const char *const bad[] = { "--cpus=99", "--cpus=1-",
					   "--cpus=", "--cpus=4", "--cpus=0-3:0",
					   "--cpus=x" };
	struct run r;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		run_verb(&r, cmd_pin, fx("cpu4"), false, "pin", "rcuo", bad[i],
			 END);
		assert_int_equal(r.rc, 2);
		assert_int_equal(count_substr(r.err, "\n"), 1);
		assert_contains(r.err, "nocbctl: pin: --cpus=");
		assert_int_equal(r.outlen, 0);
		run_free(&r);
	}
	run_verb(&r, cmd_pin, fx("cpu4-offline"), false, "pin", "rcuo",
		 "--cpus=2", END);
	assert_int_equal(r.rc, 2);
	assert_contains(r.err, "not online");
	run_free(&r);
	run_verb(&r, cmd_pin, fx("cpu4"), false, "pin", "rcuq", "--cpus=0",
		 END);
	assert_int_equal(r.rc, 2);
	run_free(&r);
	run_verb(&r, cmd_pin, fx("cpu4"), false, "pin", "rcuo", END);
	assert_int_equal(r.rc, 2);
	run_free(&r);
	run_verb(&r, cmd_pin, fx("cpu4"), false, "pin", "rcuo", "--cpus=0",
		 "--bogus", END);
	assert_int_equal(r.rc, 2);
	run_free(&r);
	assert_int_equal(mock.n_aff, 0);
}

static void pin_keeps_going_past_failures(void **state)
{
	struct run r;

	(void)state;
	mock.fail_pid[0] = 14;
	mock.fail_err[0] = 1;		/* EPERM */
	mock.fail_pid[1] = 16;
	mock.fail_err[1] = 3;		/* ESRCH: thread vanished */
	run_verb(&r, cmd_pin, fx("cpu4"), false, "pin", "rcuo", "--cpus=0",
		 END);
	assert_int_equal(r.rc, 1);
	assert_int_equal(mock.n_aff, 6);
	assert_contains(r.out, "rcuop/1    pid 14      failed: Operation not permitted");
	assert_contains(r.out, "rcuop/2    pid 16      vanished: thread exited");
	assert_contains(r.out, "4 changed, 0 unchanged, 1 failed, 1 vanished");
	run_free(&r);
	/* a vanished thread alone is not a failure */
	mock_reset();
	mock.fail_pid[0] = 16;
	mock.fail_err[0] = 3;
	run_verb(&r, cmd_pin, fx("cpu4"), false, "pin", "rcuo", "--cpus=0",
		 END);
	assert_int_equal(r.rc, 0);
	run_free(&r);
}

/* A /proc entry that cannot be parsed is a failed thread, not a missing one. */
static void pin_unparsable_thread_fails(void **state)
{
	char *t = tree_copy("cpu4");
	struct run r;

	(void)state;
	tree_write(t, "proc/14/stat", "14 (rcuop/1) S 2 0\n");
	run_verb(&r, cmd_pin, t, false, "pin", "rcuo", "--cpus=0", END);
	assert_int_equal(r.rc, 1);
	assert_int_equal(mock.n_aff, 5);
	assert_contains(r.err, "nocbctl: pin: /proc/14 (rcuop/1): unparsable");
	assert_contains(r.out, "5 changed, 0 unchanged, 1 failed, 0 vanished");
	run_free(&r);
	run_verb(&r, cmd_status, t, true, "status", END);
	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "/proc/14 (rcuop/1): unparsable");
	run_free(&r);
	tree_rm(t);
}

/*
 * rcuop/0 (pid 13) exits after the scan and its pid is reused before its
 * turn: the new task is left alone and the thread reported vanished.
 */
static void pin_skips_recycled_pid(void **state)
{
	static const char *const stats[] = {
		/* another kthread of that name, started later */
		"13 (rcuop/0) S 2 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 20 0 1 0 31 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0\n",
		/* a user process */
		"13 (bash) S 1 13 13 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 30 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(stats) / sizeof(stats[0]); i++) {
		char *t = tree_copy("cpu4");
		char path[4200];
		struct run r;

		mock_reset();
		snprintf(path, sizeof(path), "%s/proc/13/stat", t);
		mock.recycle_after = 12;	/* rcuog/0 goes first */
		mock.recycle_path = path;
		mock.recycle_stat = stats[i];
		run_verb(&r, cmd_pin, t, false, "pin", "rcuo", "--cpus=0", END);
		assert_int_equal(r.rc, 0);
		assert_int_equal(mock.n_aff, 5);
		for (int k = 0; k < mock.n_aff; k++)
			assert_int_not_equal(mock.aff_pid[k], 13);
		assert_contains(r.out, "rcuop/0    pid 13      vanished");
		assert_contains(r.out, "5 changed, 0 unchanged, 0 failed, 1 vanished");
		run_free(&r);
		/* the same for prio */
		mock_reset();
		tree_rm(t);
		t = tree_copy("cpu4");
		snprintf(path, sizeof(path), "%s/proc/13/stat", t);
		mock.recycle_after = 12;
		mock.recycle_path = path;
		mock.recycle_stat = stats[i];
		run_verb(&r, cmd_prio, t, false, "prio", "rcuo", "--policy=fifo",
			 "--priority=1", "--force", END);
		assert_int_equal(r.rc, 0);
		assert_int_equal(mock.n_sched, 5);
		for (int k = 0; k < mock.n_sched; k++)
			assert_int_not_equal(mock.sched_pid[k], 13);
		assert_contains(r.out, "rcuop/0    pid 13      vanished");
		run_free(&r);
		tree_rm(t);
	}
}

static void pin_needs_cap(void **state)
{
	struct run r;

	(void)state;
	mock.have_cap = false;
	run_verb(&r, cmd_pin, fx("cpu4"), false, "pin", "rcuo", "--cpus=0",
		 END);
	assert_int_equal(r.rc, 4);
	assert_contains(r.err, "CAP_SYS_NICE");
	assert_int_equal(mock.n_aff, 0);
	run_free(&r);
}

/* --- prio -------------------------------------------------------------- */

static void prio_fifo(void **state)
{
	struct run r;

	(void)state;
	/* the kthreads may run on offloaded CPUs: --force */
	run_verb(&r, cmd_prio, fx("cpu4"), false, "prio", "rcuo",
		 "--policy=fifo", "--priority=1", "--force", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_sched, 6);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(mock.sched_policy[i], SCHED_FIFO);
		assert_int_equal(mock.sched_prio[i], 1);
	}
	assert_int_equal(mock.n_nice, 0);
	assert_contains(r.out, "changed (other nice 0 -> fifo:1)");
	run_free(&r);
	mock_reset();
	run_verb(&r, cmd_prio, fx("cpu4-pinned"), false, "prio", "rcuo",
		 "--policy=fifo", "--priority=1", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_sched, 0);
	assert_int_equal(count_substr(r.out, "unchanged"), 7);
	run_free(&r);
}

static void prio_other_nice(void **state)
{
	struct run r;

	(void)state;
	run_verb(&r, cmd_prio, fx("cpu4"), false, "prio", "rcuop",
		 "--policy=other", "--nice=-5", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_sched, 0);	/* already SCHED_OTHER */
	assert_int_equal(mock.n_nice, 4);
	assert_int_equal(mock.nice_val[0], -5);
	run_free(&r);
	mock_reset();
	run_verb(&r, cmd_prio, fx("cpu4-pinned"), false, "prio", "rcuog",
		 "--policy=other", END);
	assert_int_equal(mock.n_sched, 2);
	assert_int_equal(mock.sched_policy[0], SCHED_OTHER);
	assert_int_equal(mock.sched_prio[0], 0);
	run_free(&r);
}

static void prio_bad_input(void **state)
{
	static const char *const bad[][3] = {
		{ "--policy=fifo", "--priority=0", NULL },
		{ "--policy=fifo", "--priority=100", NULL },
		{ "--policy=rr", NULL, NULL },
		{ "--policy=fifo", "--priority=1", "--nice=0" },
		{ "--policy=other", "--priority=3", NULL },
		{ "--policy=other", "--nice=20", NULL },
		{ "--policy=other", "--nice=-21", NULL },
		{ "--policy=batch", NULL, NULL },
		{ "--priority=1", NULL, NULL },
		{ "--policy=fifo", "--priority=1x", NULL },
	};
	struct run r;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		run_verb(&r, cmd_prio, fx("cpu4"), false, "prio", "rcuo",
			 bad[i][0], bad[i][1], bad[i][2], END);
		assert_int_equal(r.rc, 2);
		assert_int_equal(count_substr(r.err, "\n"), 1);
		assert_contains(r.err, "nocbctl: prio: ");
		run_free(&r);
	}
	assert_int_equal(mock.n_sched + mock.n_nice, 0);
	mock.have_cap = false;
	run_verb(&r, cmd_prio, fx("cpu4"), false, "prio", "rcuo",
		 "--policy=rr", "--priority=2", "--force", END);
	assert_int_equal(r.rc, 4);
	assert_contains(r.err, "CAP_SYS_NICE");
	run_free(&r);
}

/* --- apply ------------------------------------------------------------- */

static void apply_config(void **state)
{
	char *t = tree_copy("cpu4");
	char path[4200];
	struct run r;

	(void)state;
	tree_write(t, "etc/nocbctl.conf",
		   "# test\ncpus = 0\nrcuog.cpus = 0-1\npolicy = rr\npriority = 3\n");
	/* default path; CPU 1 is offloaded: the mechanics, with --force */
	run_verb(&r, cmd_apply, t, false, "apply", "--force", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_aff, 6);
	assert_int_equal(mock.aff_pid[0], 12);
	assert_string_equal(mock.aff_cpus[0], "0-1");	/* rcuog override */
	assert_string_equal(mock.aff_cpus[2], "0");
	assert_int_equal(mock.n_sched, 6);
	assert_int_equal(mock.sched_policy[5], SCHED_RR);
	assert_int_equal(mock.sched_prio[5], 3);
	run_free(&r);
	/* --config is not prefixed by --root */
	mock_reset();
	snprintf(path, sizeof(path), "%s/other.conf", t);
	tree_write(t, "other.conf", "policy = fifo\npriority = 1\n");
	run_verb(&r, cmd_apply, t, true, "apply", "--config", path, "--force",
		 END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_aff, 0);
	assert_int_equal(mock.n_sched, 6);
	assert_contains(r.out, "\"pin\":null");
	run_free(&r);
	tree_rm(t);
}

static void apply_bad_config_changes_nothing(void **state)
{
	char *t = tree_copy("cpu4");
	char path[4200], want[4300];
	struct run r;

	(void)state;
	snprintf(path, sizeof(path), "%s/bad.conf", t);
	tree_write(t, "bad.conf", "cpus = 0\npolicy = fifo\nprio = 1\n");
	run_verb(&r, cmd_apply, t, false, "apply", "--config", path, END);
	assert_int_equal(r.rc, 2);
	snprintf(want, sizeof(want), "nocbctl: %s:3: unknown key 'prio'\n", path);
	assert_string_equal(r.err, want);
	run_free(&r);
	tree_write(t, "bad.conf", "policy = other\ncpus = 7\n");
	run_verb(&r, cmd_apply, t, false, "apply", "--config", path, END);
	assert_int_equal(r.rc, 2);
	assert_contains(r.err, ":2: cpus:");
	run_free(&r);
	tree_write(t, "bad.conf", "cpus = 0\ncpus = 1\n");
	run_verb(&r, cmd_apply, t, false, "apply", "--config", path, END);
	assert_int_equal(r.rc, 2);
	assert_contains(r.err, ":2: duplicate key");
	run_free(&r);
	run_verb(&r, cmd_apply, t, false, "apply", "--config", "/nonexistent",
		 END);
	assert_int_equal(r.rc, 2);
	run_free(&r);
	assert_int_equal(mock.n_aff + mock.n_sched + mock.n_nice, 0);
	tree_rm(t);
}

/*
 * One configured CPU offline: the others are used (every nocbctl-online@
 * run would fail otherwise); none online is an error and changes nothing.
 */
static void apply_with_a_cpu_offline(void **state)
{
	char *t = tree_copy("cpu4-offline");	/* CPU 2 offline */
	struct run r;

	(void)state;
	tree_write(t, "etc/nocbctl.conf", "cpus = 0,2\nrcuog.cpus = 2-3\n");
	run_verb(&r, cmd_apply, t, false, "apply", "--force", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_aff, 6);
	assert_int_equal(mock.aff_pid[0], 12);
	assert_string_equal(mock.aff_cpus[0], "3");	/* rcuog: 2-3 */
	for (int i = 2; i < 6; i++)
		assert_string_equal(mock.aff_cpus[i], "0");
	assert_contains(r.err, "/etc/nocbctl.conf:1: cpus: CPUs 2 are offline; using 0\n");
	assert_contains(r.err, "/etc/nocbctl.conf:2: rcuog.cpus: CPUs 2 are offline; using 3\n");
	run_free(&r);
	mock_reset();
	tree_write(t, "etc/nocbctl.conf", "cpus = 0\nrcuop.cpus = 2\n");
	run_verb(&r, cmd_apply, t, false, "apply", END);
	assert_int_equal(r.rc, 2);
	assert_contains(r.err, ":2: rcuop.cpus: CPU 2 not online");
	assert_int_equal(mock.n_aff + mock.n_sched + mock.n_nice, 0);
	run_free(&r);
	tree_rm(t);
}

static void pin_with_a_cpu_offline(void **state)
{
	struct run r;

	(void)state;
	run_verb(&r, cmd_pin, fx("cpu4-offline"), true, "pin", "rcuo",
		 "--cpus=0,2", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_aff, 6);
	for (int i = 0; i < 6; i++)
		assert_string_equal(mock.aff_cpus[i], "0");
	assert_contains(r.out, "\"cpus\":\"0\"");
	assert_string_equal(r.err, "nocbctl: pin: --cpus: CPUs 2 are offline; using 0\n");
	run_free(&r);
}

/* One integer parser for options and the file: no '+', no blanks. */
static void integers_are_strict(void **state)
{
	static const char *const conf[] = { "policy = rr\npriority = +3\n",
					    "policy = other\nnice = +5\n",
					    "policy = other\nnice = 0x1\n" };
	char *t = tree_copy("cpu4");
	struct run r;

	(void)state;
	run_verb(&r, cmd_prio, fx("cpu4"), false, "prio", "rcuo",
		 "--policy=other", "--nice=+5", END);
	assert_int_equal(r.rc, 2);
	run_free(&r);
	run_verb(&r, cmd_prio, fx("cpu4"), false, "prio", "rcuo",
		 "--policy=fifo", "--priority= 1", END);
	assert_int_equal(r.rc, 2);
	run_free(&r);
	for (size_t i = 0; i < sizeof(conf) / sizeof(conf[0]); i++) {
		tree_write(t, "etc/nocbctl.conf", conf[i]);
		run_verb(&r, cmd_apply, t, false, "apply", END);
		assert_int_equal(r.rc, 2);
		assert_contains(r.err, ":2: ");
		run_free(&r);
	}
	assert_int_equal(mock.n_sched + mock.n_nice, 0);
	tree_rm(t);
}

static void apply_idempotent(void **state)
{
	char *t = tree_copy("cpu4-pinned");
	struct run r;

	(void)state;
	tree_write(t, "etc/nocbctl.conf",
		   "cpus = 0\npolicy = fifo\npriority = 1\n");
	run_verb(&r, cmd_apply, t, false, "apply", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_aff + mock.n_sched + mock.n_nice, 0);
	assert_contains(r.out, "pin: 0 changed, 6 unchanged");
	assert_contains(r.out, "prio: 0 changed, 6 unchanged");
	run_free(&r);
	tree_rm(t);
}

/* --- hotplug-check ----------------------------------------------------- */

/* A 4-CPU guest booted with "cpu0_hotplug rcu_nocbs=2-3". */
static char *hotplug_tree(void)
{
	char *t = tree_copy("cpu4");

	tree_write(t, "sys/devices/system/cpu/cpu0/online", "1\n");
	tree_write(t, "proc/cmdline", "cpu0_hotplug rcu_nocbs=2-3\n");
	tree_write(t, "sys/kernel/debug/rcu/rcudata",
		   "  0 ql=0/0 ci=1 nci=0\n  1 ql=0/0 ci=1 nci=0\n"
		   "  2N ql=0/0 ci=0 nci=1\n  3N ql=0/0 ci=0 nci=1\n");
	return t;
}

static void assert_all_online(const char *t)
{
	for (int c = 0; c < 4; c++) {
		char rel[128];
		char *v;

		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/online",
			 c);
		v = tree_read(t, rel);
		if (v)
			assert_string_equal(v, "1\n");
		free(v);
	}
	assert_false(tree_exists(t, "run/nocbctl/hotplug-check.state"));
}

static void hotplug_refused(void **state)
{
	char *t = hotplug_tree();
	char state_path[4200];
	struct run r;

	(void)state;
	snprintf(state_path, sizeof(state_path),
		 "%s/run/nocbctl/hotplug-check.state", t);
	mock.ebusy_suffix = "/cpu0/online";
	mock.state_file = state_path;
	run_verb(&r, cmd_hotplug_check, t, false, "hotplug-check", END);
	assert_int_equal(r.rc, 2);		/* CPU 1 is normal too */
	assert_contains(r.err, "use --force");
	assert_int_equal(mock.n_online, 0);
	run_free(&r);
	run_verb(&r, cmd_hotplug_check, t, false, "hotplug-check", "--force", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "refused (EBUSY)");
	assert_int_equal(mock.n_online, 3);
	assert_string_equal(mock.online_log[0], "cpu1=0");
	assert_string_equal(mock.online_log[1], "cpu0=0");
	assert_string_equal(mock.online_log[2], "cpu1=1");
	assert_true(mock.state_seen_at_first_write);
	assert_all_online(t);
	run_free(&r);
	tree_rm(t);
}

static void hotplug_violation(void **state)
{
	char *t = hotplug_tree();
	struct run r;

	(void)state;
	run_verb(&r, cmd_hotplug_check, t, true, "hotplug-check", "--force", END);
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "\"result\":\"violation\"");
	assert_contains(r.out, "\"restore_ok\":true");
	assert_contains(r.err, "K3 violated");
	assert_int_equal(mock.n_online, 4);
	assert_all_online(t);
	run_free(&r);
	tree_rm(t);
}

static void hotplug_not_removable(void **state)
{
	char *t = tree_copy("cpu4");	/* CPU 0 has no online file */
	struct run r;

	(void)state;
	run_verb(&r, cmd_hotplug_check, t, false, "hotplug-check", "--force", END);
	assert_int_equal(r.rc, 3);
	assert_contains(r.err, "CPU 0 cannot be hot-removed");
	assert_int_equal(mock.n_online, 0);
	assert_false(tree_exists(t, "run/nocbctl/hotplug-check.state"));
	run_free(&r);
	tree_rm(t);
	/* no write access to cpuN/online: exit 4, nothing touched */
	t = hotplug_tree();
	mock.have_cap = false;
	run_verb(&r, cmd_hotplug_check, t, false, "hotplug-check", "--force", END);
	assert_int_equal(r.rc, 4);
	assert_contains(r.err, "cannot write CPU 0's online file: Permission denied");
	assert_int_equal(mock.n_online, 0);
	assert_false(tree_exists(t, "run/nocbctl/hotplug-check.state"));
	run_free(&r);
	tree_rm(t);
}

static void hotplug_restores_after_sigkill(void **state)
{
	char *t = hotplug_tree();
	struct run r;

	(void)state;
	/* as left by a run killed after offlining CPU 1 */
	tree_write(t, "sys/devices/system/cpu/cpu1/online", "0\n");
	tree_write(t, "run/nocbctl/hotplug-check.state",
		   "# nocbctl hotplug-check: CPUs to bring back online\n0-1\n");
	mock.ebusy_suffix = "/cpu0/online";
	run_verb(&r, cmd_hotplug_check, t, false, "hotplug-check", "--force", END);
	assert_int_equal(r.rc, 0);
	/* Only CPU 1 was offline: the report names what was brought back. */
	assert_contains(r.out, "from an interrupted run: CPUs 1 are online again");
	assert_string_equal(mock.online_log[0], "cpu1=1");
	assert_all_online(t);
	run_free(&r);
	tree_rm(t);
}

/*
 * A 4096-CPU machine booted with "cpu0_hotplug rcu_nocbs=NOCBS" and no
 * rcudata; or, with NOCBS NULL, the series' kernel whose rcudata shows
 * the set off offloaded (a set no command line could hold: the kernel
 * caps it at 2 KiB on x86). Either way the normal CPUs are a scattered
 * list whose text is far longer than any fixed buffer.
 */
static char *big_tree(const char *nocbs, const struct cpulist *off,
		      struct cpulist *normal)
{
	char *t = tree_copy(NULL);
	char rel[128], err[128], *line;
	struct cpulist set;

	tree_write(t, "sys/devices/system/cpu/possible", "0-4095\n");
	tree_write(t, "sys/devices/system/cpu/present", "0-4095\n");
	tree_write(t, "sys/devices/system/cpu/online", "0-4095\n");
	for (int c = 0; c < 4096; c++) {
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/online",
			 c);
		tree_write(t, rel, "1\n");
	}
	if (nocbs) {
		assert_int_equal(cpulist_parse_str(nocbs, 4096, &set, err,
						   sizeof(err)), 0);
	} else {
		FILE *f;
		size_t len;

		set = *off;
		f = open_memstream(&line, &len);
		assert_non_null(f);
		for (int c = 0; c < 4096; c++)
			fprintf(f, "%4d%s ql=0/0 b=10 ci=1 nci=1 co=0 ca=0\n", c,
				cpulist_test(&set, c) ? "N" : "");
		assert_int_equal(fclose(f), 0);
		tree_write(t, "sys/kernel/debug/rcu/rcudata", line);
		free(line);
	}
	assert_true(asprintf(&line, "cpu0_hotplug rcu_nocbs%s%s\n",
			     nocbs ? "=" : "", nocbs ? nocbs : "") > 0);
	tree_write(t, "proc/cmdline", line);
	free(line);
	cpulist_clear(normal);
	for (int c = 0; c < 4096; c++)
		if (!cpulist_test(&set, c))
			cpulist_set(normal, c);
	return t;
}

static void assert_online_list(const char *t, const char *want)
{
	char *v = tree_read(t, "sys/devices/system/cpu/online");

	assert_non_null(v);
	assert_string_equal(v, want);
	free(v);
}

/* JSON string value of key in a one-line document (malloc'd). */
static char *json_value(const char *doc, const char *key)
{
	char pat[64];
	const char *p, *e;

	snprintf(pat, sizeof(pat), "\"%s\":\"", key);
	p = strstr(doc, pat);
	if (!p)
		fail_msg("no \"%s\" string in output", key);
	p += strlen(pat);
	e = strchr(p, '"');
	assert_non_null(e);
	return strndup(p, (size_t)(e - p));
}

/*
 * Killed with every other normal CPU offline, then a second run restores
 * from the state file the first one wrote: every CPU must come back, and
 * every list it prints must be complete.
 */
static void hotplug_4096_cpus_killed_and_restored(void **state)
{
	static const char *const nocbs[] = {
		"1-4095:1/2",	/* normal: 0 and every odd CPU */
		"1-4095:5/8",	/* normal: 0, then runs of 3 (6-8,14-16,...) */
		NULL,		/* normal: scattered_set()'s complement */
	};
	struct cpulist scattered;

	(void)state;
	scattered_set(&scattered);
	for (size_t i = 0; i < sizeof(nocbs) / sizeof(nocbs[0]); i++) {
		struct cpulist normal, others, got;
		char *t = big_tree(nocbs[i], nocbs[i] ? NULL : &scattered,
				   &normal);
		char *want, *want_others, *st, *v, err[128];
		const char *p;
		struct run r;
		int status;
		pid_t pid;

		mock_reset();
		others = normal;
		cpulist_unset(&others, 0);
		want = cpulist_format_alloc(&normal);
		want_others = cpulist_format_alloc(&others);
		assert_true(strlen(want_others) > 4096);
		mock.ebusy_suffix = "/cpu0/online";
		mock.kill_at_offline = cpulist_count(&others);
		fflush(NULL);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			run_verb(&r, cmd_hotplug_check, t, false, "hotplug-check",
				 "--force", END);
			_exit(100);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), SIGKILL);
		/* the kill left every other normal CPU offline */
		v = tree_read(t, "sys/devices/system/cpu/online");
		assert_non_null(v);
		assert_int_equal(cpulist_parse_str(v, 4096, &got, err,
						   sizeof(err)), 0);
		free(v);
		cpulist_and(&got, &got, &others);
		assert_true(cpulist_empty(&got));
		/* the state file names all of them */
		st = tree_read(t, "run/nocbctl/hotplug-check.state");
		assert_non_null(st);
		p = strchr(st, '\n');
		assert_non_null(p);
		assert_int_equal(cpulist_parse_str(p + 1, 4096, &got, err,
						   sizeof(err)), 0);
		assert_true(cpulist_equal(&got, &normal));
		free(st);

		mock_reset();
		mock.ebusy_suffix = "/cpu0/online";
		run_verb(&r, cmd_hotplug_check, t, true, "hotplug-check", "--force",
			 END);
		assert_int_equal(r.rc, 0);
		assert_online_list(t, "0-4095\n");
		assert_false(tree_exists(t, "run/nocbctl/hotplug-check.state"));
		v = json_value(r.out, "restored_from_state");
		assert_string_equal(v, want_others);
		free(v);
		v = json_value(r.out, "normal_online");
		assert_string_equal(v, want);
		free(v);
		v = json_value(r.out, "restored");
		assert_string_equal(v, want_others);
		free(v);
		assert_contains(r.out, "\"result\":\"refused\"");
		assert_contains(r.out, nocbs[i] ?
				"\"offloaded_source\":\"cmdline\"" :
				"\"offloaded_source\":\"rcudata\"");
		run_free(&r);
		free(want);
		free(want_others);
		tree_rm(t);
	}
}

/* A state file naming CPUs this machine does not have must not wedge runs. */
static void hotplug_state_with_unknown_cpus(void **state)
{
	char *t = hotplug_tree();
	struct run r;
	struct stat st;
	char dir[4200];

	(void)state;
	tree_write(t, "sys/devices/system/cpu/cpu1/online", "0\n");
	tree_write(t, "run/nocbctl/hotplug-check.state",
		   "# nocbctl hotplug-check: CPUs to bring back online\n1,7,100\n");
	mock.ebusy_suffix = "/cpu0/online";
	run_verb(&r, cmd_hotplug_check, t, false, "hotplug-check", "--force", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.err, "ignoring CPUs 7,100: not possible");
	assert_contains(r.out, "from an interrupted run: CPUs 1 are online again");
	assert_all_online(t);
	run_free(&r);
	/* a corrupt one says what to do */
	tree_write(t, "run/nocbctl/hotplug-check.state", "garbage\n");
	run_verb(&r, cmd_hotplug_check, t, false, "hotplug-check", "--force", END);
	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "then remove it");
	assert_int_equal(count_substr(r.err, "\n"), 1);
	run_free(&r);
	tree_rm(t);
	/* the state directory is made 0700, like the unit's */
	t = hotplug_tree();
	run_verb(&r, cmd_hotplug_check, t, false, "hotplug-check", "--force", END);
	snprintf(dir, sizeof(dir), "%s/run/nocbctl", t);
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	run_free(&r);
	tree_rm(t);
}

/*
 * The state directory cannot be made because a file is in the way, at
 * the last level, above it, or above the root: the one error line
 * carries the errno of the mkdir() that failed, and nothing is touched.
 */
static void hotplug_state_dir_blocked(void **state)
{
	static const struct {
		const char *file, *root;	/* a file in the tree; --root */
	} cases[] = {
		{ "run/nocbctl", "" },
		{ "run", "" },
		{ "file", "/file/below" },	/* mkdir_p()'s loop fails */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *t = hotplug_tree();
		char root[4200], want[4400];
		struct run r;

		mock_reset();
		tree_write(t, cases[i].file, "a file, not a directory\n");
		snprintf(root, sizeof(root), "%s%s", t, cases[i].root);
		run_verb(&r, cmd_hotplug_check, root, false, "hotplug-check",
			 "--force", END);
		snprintf(want, sizeof(want),
			 "nocbctl: hotplug-check: %s/run/nocbctl/hotplug-check.lock: Not a directory\n",
			 root);
		assert_int_equal(r.rc, 1);
		assert_string_equal(r.err, want);
		assert_int_equal(mock.n_online, 0);
		run_free(&r);
		tree_rm(t);
	}
}

static void on_term(int sig)
{
	(void)sig;
}

/*
 * Run "hotplug-check --force" on tree t in a child of its own process
 * group (the mock raises mock.raise_sig) with the signal's disposition set
 * to disp, and return its wait status (WUNTRACED: a stop is returned).
 * With judge, the child exits with judge()'s verdict on its own output;
 * without, 100 if it returns at all. *pidp (if set) gets its pid.
 */
static int hotplug_in_child(const char *t, void (*disp)(int),
			    int (*judge)(const struct run *), pid_t *pidp)
{
	int sig = mock.raise_sig ? mock.raise_sig : SIGTERM;
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit nocore = { 0, 0 };
		struct run r;

		setrlimit(RLIMIT_CORE, &nocore);  /* SIGQUIT, SIGXCPU, ... */
		setpgid(0, 0);	/* not orphaned: SIGTSTP really stops it */
		signal(sig, disp ? disp : SIG_DFL);
		run_verb(&r, cmd_hotplug_check, t, false, "hotplug-check", "--force",
			 END);
		_exit(judge ? judge(&r) : 100);
	}
	assert_int_equal(waitpid(pid, &status, WUNTRACED), pid);
	if (pidp)
		*pidp = pid;
	return status;
}

/*
 * Every asynchronous signal that ends the check brings the CPUs back
 * first: those of a terminal and kill(1), timers, resource limits,
 * power failure, I/O and the real-time signals.
 */
static void hotplug_restores_on_stop_signals(void **state)
{
	const int sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1,
			     SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU,
			     SIGXFSZ, SIGPWR, SIGIO, SIGSTKFLT, SIGRTMIN,
			     SIGRTMIN + 1, SIGRTMAX };

	(void)state;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		char *t = hotplug_tree();
		char *v;
		int status;

		mock_reset();
		mock.raise_suffix = "/cpu1/online";
		mock.raise_sig = sigs[i];
		status = hotplug_in_child(t, NULL, NULL, NULL);
		v = tree_read(t, "sys/devices/system/cpu/cpu1/online");
		if (!v || strcmp(v, "1\n"))
			fail_msg("%s: CPU 1 left offline", strsignal(sigs[i]));
		free(v);
		if (!WIFSIGNALED(status) || WTERMSIG(status) != sigs[i])
			fail_msg("%s: wait status %#x", strsignal(sigs[i]),
				 status);
		assert_all_online(t);
		tree_rm(t);
	}
}

static int finished_check(const struct run *r)
{
	return r->rc == 0 && strstr(r->out, "K3 holds") &&
	       !strstr(r->err, "interrupted") ? 0 : 1;
}

/* nohup: an ignored SIGHUP does not interrupt the check. */
static void hotplug_ignored_signal_does_not_stop(void **state)
{
	char *t = hotplug_tree();
	int status;

	(void)state;
	mock.ebusy_suffix = "/cpu0/online";
	mock.raise_suffix = "/cpu1/online";
	mock.raise_sig = SIGHUP;
	status = hotplug_in_child(t, SIG_IGN, finished_check, NULL);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_all_online(t);
	tree_rm(t);
}

/* Ctrl-Z mid-check: it stops only once the CPUs are back, then finishes. */
static void hotplug_stops_after_restoring(void **state)
{
	static const int sigs[] = { SIGTSTP, SIGTTIN, SIGTTOU };

	(void)state;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		char *t = hotplug_tree();
		int status;
		pid_t pid;

		mock_reset();
		mock.ebusy_suffix = "/cpu0/online";
		mock.raise_suffix = "/cpu1/online";
		mock.raise_sig = sigs[i];
		status = hotplug_in_child(t, NULL, finished_check, &pid);
		if (!WIFSTOPPED(status)) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			fail_msg("%s: wait status %#x", strsignal(sigs[i]),
				 status);
		}
		assert_all_online(t);
		assert_int_equal(kill(pid, SIGCONT), 0);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
		tree_rm(t);
	}
}

static int kept_verdict(const struct run *r)
{
	return r->rc == 0 && strstr(r->out, "K3 holds") &&
	       strstr(r->err, "arrived after the check") &&
	       !strstr(r->err, "interrupted") ? 0 : 1;
}

/* SIGTERM during the refused attempt: the verdict stands, CPUs come back. */
static void hotplug_signal_after_verdict(void **state)
{
	char *t = hotplug_tree();
	int status;

	(void)state;
	mock.ebusy_suffix = "/cpu0/online";
	mock.raise_suffix = "/cpu0/online";
	status = hotplug_in_child(t, on_term, kept_verdict, NULL);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_all_online(t);
	tree_rm(t);
}

static void hotplug_one_at_a_time(void **state)
{
	char *t = hotplug_tree();
	char lock[4200];
	struct run r;
	int fd;

	(void)state;
	tree_write(t, "run/nocbctl/hotplug-check.lock", "");
	snprintf(lock, sizeof(lock), "%s/run/nocbctl/hotplug-check.lock", t);
	fd = open(lock, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX), 0);	/* "another run" */
	run_verb(&r, cmd_hotplug_check, t, false, "hotplug-check", "--force", END);
	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "another hotplug-check is running");
	assert_int_equal(mock.n_online, 0);
	run_free(&r);
	close(fd);
	mock.ebusy_suffix = "/cpu0/online";
	run_verb(&r, cmd_hotplug_check, t, false, "hotplug-check", "--force", END);
	assert_int_equal(r.rc, 0);
	run_free(&r);
	tree_rm(t);
}

/* stdout a pipe nobody reads: the check still runs and restores. */
static void hotplug_closed_stdout(void **state)
{
	char *t = hotplug_tree();
	int status, p[2];
	pid_t pid;

	(void)state;
	mock.ebusy_suffix = "/cpu0/online";
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *argv[] = { "hotplug-check", "--force", NULL };
		struct nocb_ctx ctx;

		signal(SIGPIPE, SIG_DFL);
		nocb_ctx_init(&ctx);
		ctx.root = t;
		ctx.ops = &mock_ops;
		ctx.out = fdopen(p[1], "w");
		ctx.err = fopen("/dev/null", "w");
		if (!ctx.out || !ctx.err)
			_exit(101);
		setvbuf(ctx.out, NULL, _IONBF, 0);
		_exit(cmd_hotplug_check(&ctx, 2, argv));
	}
	close(p[1]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("wait status %#x", status);
	assert_all_online(t);
	tree_rm(t);
}

int run_verb_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(status_cpu4, setup),
		cmocka_unit_test_setup(status_cpu4_json, setup),
		cmocka_unit_test_setup(status_norcudata, setup),
		cmocka_unit_test_setup(status_stock_kernel, setup),
		cmocka_unit_test_setup(status_cpu_without_rcudata_line, setup),
		cmocka_unit_test_setup(status_malformed_and_small, setup),
		cmocka_unit_test_setup(stats_basic, setup),
		cmocka_unit_test_setup(stats_errors, setup),
		cmocka_unit_test_setup(stats_watch, setup),
		cmocka_unit_test_setup(stats_cpus_come_and_go, setup),
		cmocka_unit_test_setup(stats_prometheus, setup),
		cmocka_unit_test_setup(stats_summary, setup),
		cmocka_unit_test_setup(stats_prometheus_missing_fields, setup),
		cmocka_unit_test_setup(stats_format_errors, setup),
		cmocka_unit_test_setup(stats_output_file, setup),
		cmocka_unit_test_setup(pin_dry_run, setup),
		cmocka_unit_test_setup(pin_changes_each_thread, setup),
		cmocka_unit_test_setup(pin_long_scattered_list, setup),
		cmocka_unit_test_setup(pin_idempotent, setup),
		cmocka_unit_test_setup(pin_bad_input_changes_nothing, setup),
		cmocka_unit_test_setup(pin_keeps_going_past_failures, setup),
		cmocka_unit_test_setup(pin_unparsable_thread_fails, setup),
		cmocka_unit_test_setup(pin_skips_recycled_pid, setup),
		cmocka_unit_test_setup(pin_needs_cap, setup),
		cmocka_unit_test_setup(prio_fifo, setup),
		cmocka_unit_test_setup(prio_other_nice, setup),
		cmocka_unit_test_setup(prio_bad_input, setup),
		cmocka_unit_test_setup(apply_config, setup),
		cmocka_unit_test_setup(apply_bad_config_changes_nothing, setup),
		cmocka_unit_test_setup(apply_idempotent, setup),
		cmocka_unit_test_setup(integers_are_strict, setup),
		cmocka_unit_test_setup(apply_with_a_cpu_offline, setup),
		cmocka_unit_test_setup(pin_with_a_cpu_offline, setup),
		cmocka_unit_test_setup(hotplug_refused, setup),
		cmocka_unit_test_setup(hotplug_violation, setup),
		cmocka_unit_test_setup(hotplug_not_removable, setup),
		cmocka_unit_test_setup(hotplug_restores_after_sigkill, setup),
		cmocka_unit_test_setup(hotplug_state_with_unknown_cpus, setup),
		cmocka_unit_test_setup(hotplug_state_dir_blocked, setup),
		cmocka_unit_test_setup(hotplug_4096_cpus_killed_and_restored,
				       setup),
		cmocka_unit_test_setup(hotplug_signal_after_verdict, setup),
		cmocka_unit_test_setup(hotplug_restores_on_stop_signals, setup),
		cmocka_unit_test_setup(hotplug_ignored_signal_does_not_stop,
				       setup),
		cmocka_unit_test_setup(hotplug_stops_after_restoring, setup),
		cmocka_unit_test_setup(hotplug_closed_stdout, setup),
		cmocka_unit_test_setup(hotplug_one_at_a_time, setup),
	};

	return cmocka_run_group_tests_name("verbs", tests, NULL, NULL);
}
