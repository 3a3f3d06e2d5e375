// SPDX-License-Identifier: GPL-2.0
/*
 * test_syscalls.c - the real syscalls (nocb_real_ops) on child processes
 * of the test, read back independently from /proc/CHILD.
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "proc.h"
#include "sysfs.h"
#include "verbs.h"

#include <errno.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t child;

/* A child that just waits to be killed, named "rcuop/0" like a kthread. */
static int start_child(void **state)
{
	(void)state;
	fflush(NULL);
	child = fork();
	if (child < 0)
		return -1;
	if (child == 0) {
		prctl(PR_SET_NAME, "rcuop/0", 0, 0, 0);
		for (;;)
			pause();
	}
	return 0;
}

static int stop_child(void **state)
{
	(void)state;
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	child = 0;
	return 0;
}

static void read_child(struct proc_status *ps, struct proc_stat *pst)
{
	char path[64], err[128];
	char *buf;
	size_t len;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)child);
	assert_int_equal(nocb_read_file(path, &buf, &len), 0);
	assert_int_equal(proc_parse_status(buf, len, 0, ps, err, sizeof(err)), 0);
	free(buf);
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)child);
	assert_int_equal(nocb_read_file(path, &buf, &len), 0);
	assert_int_equal(proc_parse_stat(buf, len, pst, err, sizeof(err)), 0);
	free(buf);
}

/* Online CPUs we may use (from the real sysfs and our own affinity). */
static void usable_cpus(struct cpulist *s)
{
	cpu_set_t set;

	cpulist_clear(s);
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cpulist_set(s, c);
}

static void real_affinity(void **state)
{
	struct proc_status ps;
	struct proc_stat pst;
	struct cpulist mine, one;
	int first, last;

	(void)state;
	usable_cpus(&mine);
	first = cpulist_next(&mine, 0);
	last = cpulist_last(&mine);
	cpulist_clear(&one);
	cpulist_set(&one, first);
	assert_int_equal(nocb_real_ops.set_affinity(child, &one), 0);
	read_child(&ps, &pst);
	assert_true(cpulist_equal(&ps.allowed, &one));
	if (first == last)
		skip();	/* one CPU only: nothing else to move to */
	cpulist_clear(&one);
	cpulist_set(&one, last);
	assert_int_equal(nocb_real_ops.set_affinity(child, &one), 0);
	read_child(&ps, &pst);
	assert_true(cpulist_equal(&ps.allowed, &one));
	/* a CPU beyond every possible CPU is refused by the kernel */
	cpulist_clear(&one);
	cpulist_set(&one, NOCB_MAX_CPUS - 1);
	assert_int_equal(nocb_real_ops.set_affinity(child, &one), -EINVAL);
}

static void real_scheduler_and_nice(void **state)
{
	struct proc_status ps;
	struct proc_stat pst;

	(void)state;
	assert_int_equal(nocb_real_ops.set_nice(child, 5), 0);
	read_child(&ps, &pst);
	assert_int_equal(pst.nice, 5);
	assert_int_equal(pst.policy, SCHED_OTHER);
	if (nocb_real_ops.have_cap(CAP_SYS_NICE) != 1)
		skip();
	assert_int_equal(nocb_real_ops.set_scheduler(child, SCHED_FIFO, 1), 0);
	read_child(&ps, &pst);
	assert_int_equal(pst.policy, SCHED_FIFO);
	assert_int_equal(pst.rt_priority, 1);
	assert_int_equal(nocb_real_ops.set_scheduler(child, SCHED_RR, 99), 0);
	read_child(&ps, &pst);
	assert_int_equal(pst.policy, SCHED_RR);
	assert_int_equal(pst.rt_priority, 99);
	assert_int_equal(nocb_real_ops.set_scheduler(child, SCHED_OTHER, 0), 0);
	read_child(&ps, &pst);
	assert_int_equal(pst.policy, SCHED_OTHER);
	assert_int_equal(nocb_real_ops.set_scheduler(child, SCHED_FIFO, 100),
			 -EINVAL);
}

static void real_vanished_thread(void **state)
{
	struct cpulist one;
	pid_t gone;

	(void)state;
	fflush(NULL);
	gone = fork();
	assert_true(gone >= 0);
	if (gone == 0)
		_exit(0);
	assert_int_equal(waitpid(gone, NULL, 0), gone);
	cpulist_clear(&one);
	cpulist_set(&one, 0);
	assert_int_equal(nocb_real_ops.set_affinity(gone, &one), -ESRCH);
	assert_int_equal(nocb_real_ops.set_scheduler(gone, SCHED_OTHER, 0),
			 -ESRCH);
	assert_int_equal(nocb_real_ops.set_nice(gone, 0), -ESRCH);
}

/* A user process named like a kthread must never be picked up. */
static void real_scan_ignores_user_processes(void **state)
{
	struct nocb_ctx ctx;
	struct kthread_list kl;
	struct kthread kt;

	(void)state;
	nocb_ctx_init(&ctx);
	assert_int_equal(proc_scan_kthreads(&ctx, "t", KT_ALL, 0, &kl), 0);
	for (size_t i = 0; i < kl.n; i++)
		assert_int_not_equal(kl.v[i].pid, child);
	kthread_list_free(&kl);
	assert_int_equal(proc_read_kthread(&ctx, child, 0, &kt), -EPERM);
}

/*
 * The pin and prio verbs with the real syscalls on the child: a fixture
 * root whose /proc entry for the child's pid looks like a kthread.
 */
static void real_pin_and_prio_verbs(void **state)
{
	char *t = tree_copy(NULL);
	char rel[64], stat[512];
	struct proc_status ps;
	struct proc_stat pst;
	struct cpulist mine, want;
	char list[64], arg[80];

	(void)state;
	usable_cpus(&mine);
	cpulist_clear(&want);
	cpulist_set(&want, cpulist_last(&mine));
	cpulist_format(&want, list, sizeof(list));
	tree_write(t, "sys/devices/system/cpu/possible", "0-8191\n");
	tree_write(t, "sys/devices/system/cpu/online", "0-8191\n");
	snprintf(rel, sizeof(rel), "proc/%d/comm", (int)child);
	tree_write(t, rel, "rcuop/0\n");
	snprintf(rel, sizeof(rel), "proc/%d/status", (int)child);
	tree_write(t, rel, "Name:\trcuop/0\nCpus_allowed_list:\t0-8191\n");
	snprintf(stat, sizeof(stat),
		 "%d (rcuop/0) S 2 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 20 0 1 0 "
		 "30 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0", (int)child);
	snprintf(rel, sizeof(rel), "proc/%d/stat", (int)child);
	tree_write(t, rel, stat);

	snprintf(arg, sizeof(arg), "--cpus=%s", list);
	{
		FILE *o, *e;
		char *out = NULL, *err = NULL;
		size_t ol = 0, el = 0;
		char *argv[] = { "pin", "rcuop", arg, NULL };
		char *pargv[] = { "prio", "rcuop", "--policy=other",
				  "--nice=3", NULL };
		struct nocb_ctx ctx;
		int rc;

		nocb_ctx_init(&ctx);
		ctx.root = t;
		ctx.out = o = open_memstream(&out, &ol);
		ctx.err = e = open_memstream(&err, &el);
		rc = cmd_pin(&ctx, 3, argv);
		if (rc == 4) {	/* not root: the capability check held */
			fclose(o);
			fclose(e);
			assert_contains(err, "CAP_SYS_NICE");
			free(out);
			free(err);
			tree_rm(t);
			skip();
		}
		assert_int_equal(rc, 0);
		rc = cmd_prio(&ctx, 4, pargv);
		assert_int_equal(rc, 0);
		fclose(o);
		fclose(e);
		assert_contains(out, "changed (0-8191 -> ");
		assert_contains(out, "changed (other nice 0 -> other nice 3)");
		free(out);
		free(err);
	}
	read_child(&ps, &pst);
	assert_true(cpulist_equal(&ps.allowed, &want));
	assert_int_equal(pst.nice, 3);
	tree_rm(t);
}

static void real_capabilities(void **state)
{
	(void)state;
	if (geteuid() == 0)
		assert_int_equal(nocb_real_ops.have_cap(CAP_SYS_NICE), 1);
	else
		assert_true(nocb_real_ops.have_cap(CAP_SYS_NICE) >= 0);
	assert_true(nocb_real_ops.have_cap(-1) < 0);
}

int run_syscall_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(real_affinity, start_child,
						stop_child),
		cmocka_unit_test_setup_teardown(real_scheduler_and_nice,
						start_child, stop_child),
		cmocka_unit_test(real_vanished_thread),
		cmocka_unit_test_setup_teardown(real_scan_ignores_user_processes,
						start_child, stop_child),
		cmocka_unit_test_setup_teardown(real_pin_and_prio_verbs,
						start_child, stop_child),
		cmocka_unit_test(real_capabilities),
	};

	return cmocka_run_group_tests_name("syscalls", tests, NULL, NULL);
}
