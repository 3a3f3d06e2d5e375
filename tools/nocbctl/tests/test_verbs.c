// SPDX-License-Identifier: GPL-2.0
/* test_verbs.c - each verb against fixture trees, with recorded syscalls. */
#define _GNU_SOURCE
#include "fixture.h"
#include "rcudata.h"
#include "verbs.h"

#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

static int setup(void **state)
{
	(void)state;
	mock_reset();
	return 0;
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
	assert_int_equal(r.errlen, 0);
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
	run_verb(&r, cmd_pin, fx("cpu4"), false, "pin", "rcuog", "--cpus",
		 "0-1", END);
	assert_int_equal(mock.n_aff, 2);
	assert_int_equal(mock.aff_pid[0], 12);
	assert_int_equal(mock.aff_pid[1], 15);
	assert_string_equal(mock.aff_cpus[1], "0-1");
	run_free(&r);
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
	run_verb(&r, cmd_prio, fx("cpu4"), false, "prio", "rcuo",
		 "--policy=fifo", "--priority=1", END);
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
		 "--policy=rr", "--priority=2", END);
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
	run_verb(&r, cmd_apply, t, false, "apply", END);	/* default path */
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
	run_verb(&r, cmd_apply, t, true, "apply", "--config", path, END);
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
	run_verb(&r, cmd_hotplug, t, false, "hotplug-check", END);
	assert_int_equal(r.rc, 2);		/* CPU 1 is normal too */
	assert_contains(r.err, "use --force");
	assert_int_equal(mock.n_online, 0);
	run_free(&r);
	run_verb(&r, cmd_hotplug, t, false, "hotplug-check", "--force", END);
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
	run_verb(&r, cmd_hotplug, t, true, "hotplug-check", "--force", END);
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
	run_verb(&r, cmd_hotplug, t, false, "hotplug-check", "--force", END);
	assert_int_equal(r.rc, 3);
	assert_contains(r.err, "CPU 0 cannot be hot-removed");
	assert_int_equal(mock.n_online, 0);
	assert_false(tree_exists(t, "run/nocbctl/hotplug-check.state"));
	run_free(&r);
	mock.have_cap = false;
	run_verb(&r, cmd_hotplug, t, false, "hotplug-check", END);
	assert_int_equal(r.rc, 4);
	assert_contains(r.err, "CAP_SYS_ADMIN");
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
	run_verb(&r, cmd_hotplug, t, false, "hotplug-check", "--force", END);
	assert_int_equal(r.rc, 0);
	/* Only CPU 1 was offline: the report names what was brought back. */
	assert_contains(r.out, "from an interrupted run: CPUs 1 are online again");
	assert_string_equal(mock.online_log[0], "cpu1=1");
	assert_all_online(t);
	run_free(&r);
	tree_rm(t);
}

static void on_term(int sig)
{
	(void)sig;
}

/*
 * Run "hotplug-check --force" on tree t in a child (the mock raises
 * SIGTERM) and return its wait status. With judge, a SIGTERM handler
 * keeps the child alive and it exits with judge()'s verdict on its own
 * output; without, the signal ends it on return.
 */
static int hotplug_in_child(const char *t, int (*judge)(const struct run *))
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct run r;

		if (judge)
			signal(SIGTERM, on_term);
		run_verb(&r, cmd_hotplug, t, false, "hotplug-check", "--force",
			 END);
		_exit(judge ? judge(&r) : 100);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void hotplug_restores_on_sigterm(void **state)
{
	char *t = hotplug_tree();
	int status;

	(void)state;
	mock.raise_suffix = "/cpu1/online";
	status = hotplug_in_child(t, NULL);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	assert_all_online(t);
	tree_rm(t);
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
	status = hotplug_in_child(t, kept_verdict);
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
	run_verb(&r, cmd_hotplug, t, false, "hotplug-check", "--force", END);
	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "another hotplug-check is running");
	assert_int_equal(mock.n_online, 0);
	run_free(&r);
	close(fd);
	mock.ebusy_suffix = "/cpu0/online";
	run_verb(&r, cmd_hotplug, t, false, "hotplug-check", "--force", END);
	assert_int_equal(r.rc, 0);
	run_free(&r);
	tree_rm(t);
}

int run_verb_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(status_cpu4, setup),
		cmocka_unit_test_setup(status_cpu4_json, setup),
		cmocka_unit_test_setup(status_norcudata, setup),
		cmocka_unit_test_setup(status_malformed_and_small, setup),
		cmocka_unit_test_setup(stats_basic, setup),
		cmocka_unit_test_setup(stats_errors, setup),
		cmocka_unit_test_setup(stats_watch, setup),
		cmocka_unit_test_setup(stats_cpus_come_and_go, setup),
		cmocka_unit_test_setup(pin_dry_run, setup),
		cmocka_unit_test_setup(pin_changes_each_thread, setup),
		cmocka_unit_test_setup(pin_idempotent, setup),
		cmocka_unit_test_setup(pin_bad_input_changes_nothing, setup),
		cmocka_unit_test_setup(pin_keeps_going_past_failures, setup),
		cmocka_unit_test_setup(pin_needs_cap, setup),
		cmocka_unit_test_setup(prio_fifo, setup),
		cmocka_unit_test_setup(prio_other_nice, setup),
		cmocka_unit_test_setup(prio_bad_input, setup),
		cmocka_unit_test_setup(apply_config, setup),
		cmocka_unit_test_setup(apply_bad_config_changes_nothing, setup),
		cmocka_unit_test_setup(apply_idempotent, setup),
		cmocka_unit_test_setup(hotplug_refused, setup),
		cmocka_unit_test_setup(hotplug_violation, setup),
		cmocka_unit_test_setup(hotplug_not_removable, setup),
		cmocka_unit_test_setup(hotplug_restores_after_sigkill, setup),
		cmocka_unit_test_setup(hotplug_restores_on_sigterm, setup),
		cmocka_unit_test_setup(hotplug_signal_after_verdict, setup),
		cmocka_unit_test_setup(hotplug_one_at_a_time, setup),
	};

	return cmocka_run_group_tests_name("verbs", tests, NULL, NULL);
}
