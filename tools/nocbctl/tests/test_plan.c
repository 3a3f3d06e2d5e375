// SPDX-License-Identifier: GPL-2.0
/* test_plan.c - "nocbctl plan" and "plan --check" on fixture trees. */
#define _GNU_SOURCE
#include "fixture.h"
#include "verbs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int setup(void **state)
{
	(void)state;
	mock_reset();
	return 0;
}

#define PLAN_CMDLINE "rcu_nocbs=2-3 nohz_full=2-3 isolcpus=domain,managed_irq,2-3 irqaffinity=0-1"

/* --- cpumask hex -------------------------------------------------------- */

static void hex_masks(void **state)
{
	struct cpulist s;
	char buf[64];

	(void)state;
	assert_int_equal(cpumask_parse_hex("3\n", 2, 4, &s), 0);
	cpulist_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "0-1");
	assert_int_equal(cpumask_parse_hex("ff,00000001", 11, 64, &s), 0);
	cpulist_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "0,32-39");
	assert_int_equal(cpumask_parse_hex("1,0", 3, 64, &s), 0);
	cpulist_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "32");
	assert_int_equal(cpumask_parse_hex("10", 2, 4, &s), -ERANGE);
	assert_int_equal(cpumask_parse_hex("", 0, 4, &s), -EINVAL);
	assert_int_equal(cpumask_parse_hex("3,", 2, 64, &s), -EINVAL);
	assert_int_equal(cpumask_parse_hex(",3", 2, 64, &s), -EINVAL);
	assert_int_equal(cpumask_parse_hex("1,,3", 4, 96, &s), -EINVAL);
	assert_int_equal(cpumask_parse_hex("123456789", 9, 64, &s), -EINVAL);
	assert_int_equal(cpumask_parse_hex("0x3", 3, 64, &s), -EINVAL);
	/* formatted as the kernel prints %*pb */
	cpulist_parse_str("0-1", 4, &s, buf, sizeof(buf));
	cpumask_format_hex(&s, 4, buf, sizeof(buf));
	assert_string_equal(buf, "3");
	cpulist_parse_str("32", 64, &s, buf, sizeof(buf));
	cpumask_format_hex(&s, 64, buf, sizeof(buf));
	assert_string_equal(buf, "00000001,00000000");
	cpulist_parse_str("0,39", 40, &s, buf, sizeof(buf));
	assert_int_equal(cpumask_format_hex(&s, 40, buf, sizeof(buf)), 11);
	assert_string_equal(buf, "80,00000001");
	assert_int_equal(cpumask_parse_hex(buf, strlen(buf), 40, &s), 0);
	cpulist_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "0,39");
}

/* --- plan ---------------------------------------------------------------- */

static void plan_text(void **state)
{
	struct run r;

	(void)state;
	run_verb(&r, cmd_plan, fx("plan4"), false, "plan", "--isolate=2-3", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.errlen, 0);
	assert_contains(r.out, "\n  " PLAN_CMDLINE "\n");
	assert_contains(r.out, "Machine: 4 possible CPUs, SMT off, 1 NUMA node\n");
	assert_contains(r.out, "implies rcu_nocbs=2-3");
	assert_contains(r.out, "nohz_full= implies it");
	assert_contains(r.out, "/etc/nocbctl.conf:\n  cpus = 0-1\n");
	assert_contains(r.out, "\n  offload = 2-3\n");
	assert_contains(r.out, "  [Manager]\n  CPUAffinity=0-1\n");
	assert_contains(r.out, "taskset -pc 0-1 \"$p\"");
	/* housekeeping is the complement: the kernel sets the wq mask */
	assert_not_contains(r.out, "workqueue/cpumask");
	assert_not_contains(r.out, "rcu_nocb_poll\n");
	assert_not_contains(r.out, "warning");
	run_free(&r);
	run_verb(&r, cmd_plan, fx("plan4"), false, "plan", "--isolate=2-3",
		 "--poll", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "\n  " PLAN_CMDLINE " rcu_nocb_poll\n");
	run_free(&r);
	/* a housekeeping set smaller than the complement */
	run_verb(&r, cmd_plan, fx("plan4"), false, "plan", "--isolate=3",
		 "--housekeeping=0", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "irqaffinity=0\n");
	assert_contains(r.out, "echo 1 > /sys/devices/virtual/workqueue/cpumask");
	assert_contains(r.out, "warning: CPUs 1-2 are neither isolated nor housekeeping");
	assert_contains(r.out, "--check --isolate=3 --housekeeping=0\n");
	run_free(&r);
}

static void plan_grub_and_json(void **state)
{
	struct run r;

	(void)state;
	run_verb(&r, cmd_plan, fx("plan4"), false, "plan", "--isolate=2-3",
		 "--format=grub", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "\nGRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT "
			PLAN_CMDLINE "\"\n");
	/* only comments and the one assignment: the file is sourced by sh */
	assert_int_equal(r.out[0], '#');
	assert_int_equal(count_substr(r.out, "\n") -
			 count_substr(r.out, "\n#") - 1, 1);
	run_free(&r);
	run_verb(&r, cmd_plan, fx("plan4"), false, "plan", "--isolate=2-3",
		 "--format=json", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.out[0], '{');
	assert_int_equal(count_substr(r.out, "\n"), 1);
	assert_contains(r.out, "\"cmdline\":\"" PLAN_CMDLINE "\"");
	assert_contains(r.out, "{\"name\":\"rcu_nocbs\",\"word\":\"rcu_nocbs=2-3\"");
	assert_contains(r.out, "\"implied_by\":\"nohz_full\"}");
	assert_contains(r.out, "\"config\":{\"file\":\"/etc/nocbctl.conf\",\"cpus\":\"0-1\",\"offload\":\"2-3\"}");
	assert_contains(r.out, "\"CPUAffinity\":\"0-1\"");
	run_free(&r);
	run_verb(&r, cmd_plan, fx("plan4"), true, "plan", "--isolate=2-3", END);
	assert_contains(r.out, "\"cmdline\":\"" PLAN_CMDLINE "\"");
	run_free(&r);
}

/* Each plan that cannot work: exit 2, one error line, no output. */
static void expect_refused(const char *fixture, const char *want, ...)
{
	char *argv[8] = { NULL };
	struct run r;
	va_list ap;
	int n = 0;

	va_start(ap, want);
	while (n < 7 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	run_verb(&r, cmd_plan, fx(fixture), false, "plan", argv[0], argv[1],
		 argv[2], argv[3], END);
	if (r.rc != 2)
		fail_msg("%s %s: exit %d, expected 2\n%s", fixture, argv[0],
			 r.rc, r.err);
	assert_int_equal(r.outlen, 0);
	assert_int_equal(count_substr(r.err, "\n"), 1);
	assert_contains(r.err, "nocbctl: plan: ");
	assert_contains(r.err, want);
	run_free(&r);
}

static void plan_refused(void **state)
{
	(void)state;
	expect_refused("plan4", "CPU 0 cannot be isolated", "--isolate=0,2-3", END);
	expect_refused("plan4", "no housekeeping CPU left", "--isolate=0-3", END);
	expect_refused("plan4", "no housekeeping CPU left", "--isolate=all", END);
	expect_refused("plan4", "not a possible CPU", "--isolate=2-4", END);
	expect_refused("plan4", "--isolate=9", "--isolate=9", END);
	expect_refused("plan4", "needs a group", "--isolate=1-3:2", END);
	expect_refused("plan4", "empty CPU list", "--isolate=", END);
	expect_refused("plan4", "overlaps --isolate=2-3 on CPUs 2",
		       "--isolate=2-3", "--housekeeping=0-2", END);
	expect_refused("plan4", "--housekeeping=7", "--isolate=2-3",
		       "--housekeeping=7", END);
	expect_refused("cpu4-offline", "no housekeeping CPU is online",
		       "--isolate=1,3", "--housekeeping=2", END);
	expect_refused("smt8", "CPU 2 is isolated but its SMT sibling 6 is not",
		       "--isolate=2-3", END);
	expect_refused("smt8", "CPU 7 is isolated but its SMT sibling 3 is not",
		       "--isolate=2,6-7", END);
	expect_refused("plan4", "--format=yaml", "--isolate=2-3",
		       "--format=yaml", END);
	expect_refused("plan4", "--isolate=LIST is required", "--poll", END);
	expect_refused("plan4", "--config is for --check", "--isolate=2-3",
		       "--config=/dev/null", END);
	expect_refused("plan4", "not grub", "--check", "--format=grub", END);
	expect_refused("plan4", "unexpected argument", "--isolate=2-3", "x", END);
}

static void plan_smt_and_numa(void **state)
{
	struct run r;

	(void)state;
	run_verb(&r, cmd_plan, fx("smt8"), false, "plan", "--isolate=2-3,6-7",
		 END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "SMT on (siblings kept together), 2 NUMA nodes");
	assert_contains(r.out, "warning: NUMA node 1 has isolated CPUs 2-3,6-7 but no housekeeping CPU");
	assert_contains(r.out, "irqaffinity=0-1,4-5\n");
	run_free(&r);
	run_verb(&r, cmd_plan, fx("smt8"), false, "plan", "--isolate=3,6-7",
		 "--allow-smt-split", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "siblings may be split");
	assert_contains(r.out, "nohz_full=3,6-7\n");
	run_free(&r);
	run_verb(&r, cmd_plan, fx("smt8"), false, "plan", "--isolate=1-3,5-7",
		 END);
	assert_int_equal(r.rc, 0);
	assert_not_contains(r.out, "NUMA node 0 has");
	assert_contains(r.out, "NUMA node 1 has");
	run_free(&r);
}

/* --- plan --check ------------------------------------------------------ */

static void check_run(struct run *r, const char *root, ...)
{
	char *argv[6] = { NULL };
	va_list ap;
	int n = 0;

	va_start(ap, root);
	while (n < 5 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	run_verb(r, cmd_plan, root, false, "plan", "--check", argv[0], argv[1],
		 argv[2], END);
}

static void check_clean(void **state)
{
	struct run r;

	(void)state;
	check_run(&r, fx("plan4"), "--isolate=2-3", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(count_substr(r.out, "mismatch"), 0);
	assert_contains(r.out, "plan --check: clean (isolated 2-3, housekeeping 0-1)\n");
	/* the disk's per-queue interrupts on CPUs 2 and 3 cannot move */
	assert_contains(r.out, "note: irq 27 (virtio3-req.2) is a managed per-queue interrupt (vda, 4 queues), CPUs 2: nobody can move it");
	assert_contains(r.out, "note: irq 28 (virtio3-req.3)");
	assert_int_equal(r.errlen, 0);
	run_free(&r);
	/* without --isolate: the config's cpus = 0-1 are the housekeeping CPUs */
	check_run(&r, fx("plan4"), END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "clean (isolated 2-3, housekeeping 0-1)");
	run_free(&r);
	run_verb(&r, cmd_plan, fx("plan4"), true, "plan", "--check", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "\"clean\":true,\"mismatches\":[]");
	run_free(&r);
}

/* Copy plan4, write rel := content (NULL: remove it), run --check. */
static void check_changed(struct run *r, const char *rel, const char *content,
			  const char *arg)
{
	char *t = tree_copy("plan4");
	char path[4200];

	if (content) {
		tree_write(t, rel, content);
	} else {
		snprintf(path, sizeof(path), "%s/%s", t, rel);
		assert_int_equal(unlink(path), 0);
	}
	check_run(r, t, arg ? arg : "--isolate=2-3", END);
	tree_rm(t);
}

#define STAT_TAIL " S 2 0 0 0 -1 %s 0 0 0 0 0 0 0 0 20 0 1 0 30 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0\n"

static void check_threads(void **state)
{
	struct run r;

	(void)state;
	/* includes the housekeeping CPUs, but exceeds them: reported */
	check_changed(&r, "proc/16/status",
		      "Name:\trcuop/2\nCpus_allowed_list:\t0-2\n", NULL);
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "mismatch: offload kthread: rcuop/2 (pid 16) may run on CPUs 0-2, not only on the housekeeping CPUs 0-1; fix: set cpus = 0-1 in /etc/nocbctl.conf and run nocbctl apply\n");
	assert_int_equal(count_substr(r.out, "mismatch:"), 1);
	assert_contains(r.out, "plan --check: 1 mismatch (");
	run_free(&r);
	/* a kthread that set its own affinity */
	check_changed(&r, "proc/50/status",
		      "Name:\tkswapd0\nCpus_allowed_list:\t0-3\n", NULL);
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "mismatch: kernel thread: kswapd0 (pid 50) may run on CPUs 0-3, not only on the housekeeping CPUs 0-1; fix: taskset -pc 0-1 50\n");
	assert_int_equal(count_substr(r.out, "mismatch:"), 1);
	run_free(&r);
	/* two of a kind: one line with a count, one command for both */
	{
		char *t = tree_copy("plan4");

		tree_write(t, "proc/50/status",
			   "Name:\tkswapd0\nCpus_allowed_list:\t0-3\n");
		tree_write(t, "proc/2/status",
			   "Name:\tkthreadd\nCpus_allowed_list:\t0-2\n");
		check_run(&r, t, "--isolate=2-3", END);
		tree_rm(t);
		assert_int_equal(r.rc, 1);
		assert_contains(r.out, "mismatch: kernel threads: 2 may run outside the housekeeping CPUs 0-1: kthreadd (pid 2) on 0-2, kswapd0 (pid 50) on 0-3; fix: for p in 2 50; do taskset -pc 0-1 $p; done\n");
		assert_int_equal(count_substr(r.out, "mismatch:"), 1);
		run_free(&r);
	}
	/* on one housekeeping CPU only: fine */
	check_changed(&r, "proc/50/status",
		      "Name:\tkswapd0\nCpus_allowed_list:\t1\n", NULL);
	assert_int_equal(r.rc, 0);
	run_free(&r);
	/* the same thread bound (PF_NO_SETAFFINITY) is not ours to move... */
	check_changed(&r, "proc/27/status",
		      "Name:\tksoftirqd/2\nCpus_allowed_list:\t2\n", NULL);
	assert_int_equal(r.rc, 0);
	run_free(&r);
	/* ...but without the flag it is */
	{
		char st[400];

		snprintf(st, sizeof(st), "27 (ksoftirqd/2)" STAT_TAIL, "2129984");
		check_changed(&r, "proc/27/stat", st, NULL);
		assert_int_equal(r.rc, 1);
		assert_contains(r.out, "ksoftirqd/2 (pid 27) may run on CPUs 2,");
		run_free(&r);
	}
	/* a user process is not a kernel thread */
	check_changed(&r, "proc/300/status", "Name:\tbash\nCpus_allowed_list:\t3\n",
		      NULL);
	assert_int_equal(r.rc, 0);
	run_free(&r);
}

static void check_irqs(void **state)
{
	struct run r;

	(void)state;
	check_changed(&r, "proc/irq/24/smp_affinity_list", "0-3\n", NULL);
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "mismatch: interrupt: irq 24 (virtio3-config) smp_affinity_list 0-3 includes isolated CPUs 2-3; fix: echo 0-1 > /proc/irq/24/smp_affinity_list\n");
	assert_int_equal(count_substr(r.out, "mismatch:"), 1);
	run_free(&r);
	/* on CPU 2 but no disk's queue interrupt: reported */
	{
		char *t = tree_copy("plan4");

		tree_write(t, "proc/irq/29/smp_affinity_list", "2\n");
		tree_write(t, "proc/irq/29/effective_affinity_list", "2\n");
		check_run(&r, t, "--isolate=2-3", END);
		assert_int_equal(r.rc, 1);
		assert_contains(r.out, "mismatch: interrupt: irq 29 (-) smp_affinity_list 2 includes isolated CPUs 2; fix: echo 0-1 > /proc/irq/29/smp_affinity_list\n");
		run_free(&r);
		/* the disk's queue 2, but another device's interrupt */
		tree_write(t, "sys/devices/pci0000:00/0000:00:04.0/msi_irqs/29", "");
		check_run(&r, t, "--isolate=2-3", END);
		assert_int_equal(r.rc, 1);
		run_free(&r);
		/* the disk's own device: a managed queue interrupt */
		tree_write(t, "sys/devices/pci0000:00/0000:00:03.0/msi_irqs/29", "");
		check_run(&r, t, "--isolate=2-3", END);
		assert_int_equal(r.rc, 0);
		assert_contains(r.out, "note: irq 29 (-) is a managed per-queue interrupt (vda, 4 queues)");
		run_free(&r);
		/* the kernel lists no CPUs for an isolated CPU's queue */
		tree_write(t, "sys/block/vda/mq/2/cpu_list", "\n");
		check_run(&r, t, "--isolate=2-3", END);
		assert_int_equal(r.rc, 0);
		assert_contains(r.out, "note: irq 29 (-) is a managed per-queue");
		run_free(&r);
		/* ...but the default affinity is not a queue's spread */
		tree_write(t, "proc/irq/default_smp_affinity", "4\n");
		check_run(&r, t, "--isolate=2-3", END);
		assert_int_equal(r.rc, 1);
		assert_contains(r.out, "mismatch: interrupt: irq 29 (-)");
		run_free(&r);
		/* nor is an interrupt of a single-queue disk */
		tree_write(t, "proc/irq/default_smp_affinity", "3\n");
		for (int q = 1; q < 4; q++) {
			char rel[64], path[4200];

			snprintf(rel, sizeof(rel), "sys/block/vda/mq/%d/cpu_list", q);
			snprintf(path, sizeof(path), "%s/%s", t, rel);
			assert_int_equal(unlink(path), 0);
			*strrchr(path, '/') = '\0';
			assert_int_equal(rmdir(path), 0);
		}
		check_run(&r, t, "--isolate=2-3", END);
		assert_int_equal(r.rc, 1);
		assert_contains(r.out, "mismatch: interrupt: irq 27 (virtio3-req.2)");
		assert_contains(r.out, "mismatch: interrupt: irq 29 (-)");
		run_free(&r);
		tree_rm(t);
	}
	/* a queue serving CPUs 1-2: fine only while delivered to CPU 1 */
	{
		char *t = tree_copy("plan4");

		tree_write(t, "sys/block/vda/mq/1/cpu_list", "1-2\n");
		tree_write(t, "proc/irq/26/smp_affinity_list", "1-2\n");
		check_run(&r, t, "--isolate=2-3", END);
		assert_int_equal(r.rc, 0);
		assert_contains(r.out, "isolcpus=managed_irq keeps it on a housekeeping CPU");
		run_free(&r);
		tree_write(t, "proc/irq/26/effective_affinity_list", "2\n");
		check_run(&r, t, "--isolate=2-3", END);
		assert_int_equal(r.rc, 1);
		assert_contains(r.out, "irq 26 (virtio3-req.1) smp_affinity_list 1-2 includes isolated CPUs 2; fix: boot with isolcpus=domain,managed_irq,2-3");
		run_free(&r);
		tree_rm(t);
	}
}

static void check_cmdline(void **state)
{
	struct run r;

	(void)state;
	check_changed(&r, "proc/cmdline",
		      "rcu_nocbs=1-3 isolcpus=2-3 irqaffinity=0-1 rcu_nocbs=2-3 console=ttyS0\n",
		      NULL);
	assert_int_equal(r.rc, 1);
	/* the last rcu_nocbs= is the one the kernel keeps */
	assert_not_contains(r.out, "rcu_nocbs=1-3");
	assert_contains(r.out, "mismatch: kernel parameter: nohz_full=2-3 is missing from /proc/cmdline; fix: boot with nohz_full=2-3 (nocbctl plan --isolate=2-3 --format=grub");
	/* isolcpus= without flags means domain alone */
	assert_contains(r.out, "mismatch: kernel parameter: /proc/cmdline has isolcpus=2-3, the plan isolcpus=domain,managed_irq,2-3");
	assert_int_equal(count_substr(r.out, "mismatch:"), 2);
	run_free(&r);
	check_changed(&r, "proc/cmdline",
		      "rcu_nocbs nohz_full=2-3 isolcpus=nohz,domain,managed_irq,2-3 irqaffinity=0-2\n",
		      NULL);
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "/proc/cmdline has rcu_nocbs without a list, the plan rcu_nocbs=2-3");
	assert_contains(r.out, "/proc/cmdline has irqaffinity=0-2, the plan irqaffinity=0-1");
	assert_int_equal(count_substr(r.out, "mismatch:"), 2);
	run_free(&r);
	/* words after "--" go to init */
	check_changed(&r, "proc/cmdline",
		      "rcu_nocbs=2-3 nohz_full=2-3 irqaffinity=0-1 -- isolcpus=domain,managed_irq,2-3\n",
		      NULL);
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "isolcpus=domain,managed_irq,2-3 is missing");
	run_free(&r);
	check_run(&r, fx("plan4"), "--isolate=2-3", "--poll", END);
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "mismatch: kernel parameter: rcu_nocb_poll is missing from /proc/cmdline");
	run_free(&r);
	/* the kernel's view: CPU 3 not offloaded after all */
	check_changed(&r, "sys/kernel/debug/rcu/rcudata",
		      "  0 ql=0/0 b=10 ci=1 nci=0 co=0 ca=0\n  2N ql=0/0 b=10 ci=0 nci=1 co=0 ca=0\n  3 ql=0/0 b=10 ci=1 nci=0 co=0 ca=0\n",
		      NULL);
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "mismatch: offloaded CPUs: isolated CPUs 3 are not offloaded (rcudata)");
	run_free(&r);
}

static void check_wq_systemd_config(void **state)
{
	struct run r;

	(void)state;
	check_changed(&r, "sys/devices/virtual/workqueue/cpumask", "f\n", NULL);
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "mismatch: unbound workqueues: cpumask f (CPUs 0-3) is not only housekeeping CPUs 0-1; fix: echo 3 > /sys/devices/virtual/workqueue/cpumask\n");
	run_free(&r);
	check_changed(&r, "sys/devices/virtual/workqueue/cpumask", "zz\n", NULL);
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "reads 'zz', not a CPU mask");
	run_free(&r);
	/* the drop-in gone: the vendor's 0-3 stands */
	check_changed(&r, "etc/systemd/system.conf.d/nocbctl.conf", NULL, NULL);
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "mismatch: systemd: CPUAffinity=0-3 (last set in /usr/lib/systemd/system.conf.d/50-vendor.conf) is not only housekeeping CPUs 0-1");
	run_free(&r);
	/* a same-named file in /etc replaces the vendor's */
	check_changed(&r, "etc/systemd/system.conf.d/50-vendor.conf",
		      "[Manager]\n# nothing\n", NULL);
	assert_int_equal(r.rc, 0);
	run_free(&r);
	/* an empty assignment resets; later drop-ins come later */
	check_changed(&r, "etc/systemd/system.conf.d/zz.conf",
		      "[Manager]\nCPUAffinity=\n", NULL);
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "mismatch: systemd: CPUAffinity= is not set");
	run_free(&r);
	/* only [Manager] counts */
	check_changed(&r, "etc/systemd/system.conf.d/zz.conf",
		      "[Other]\nCPUAffinity=0-3\n", NULL);
	assert_int_equal(r.rc, 0);
	run_free(&r);
	check_changed(&r, "proc/1/status", "Name:\tsystemd\nCpus_allowed_list:\t0-3\n",
		      NULL);
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "mismatch: systemd: PID 1 may run on CPUs 0-3, not only on the housekeeping CPUs 0-1; fix: systemctl daemon-reexec\n");
	run_free(&r);
	check_changed(&r, "etc/nocbctl.conf", "cpus = 0\nrcuop.cpus = 0-2\n", NULL);
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "mismatch: nocbctl.conf: ");
	assert_contains(r.out, "/etc/nocbctl.conf:2: rcuop.cpus = 0-2 is not only housekeeping CPUs 0-1");
	assert_int_equal(count_substr(r.out, "mismatch:"), 1);
	run_free(&r);
	/* offload = is optional, but when given it must be the isolated CPUs */
	check_changed(&r, "etc/nocbctl.conf", "cpus = 0-1\noffload = 2-3\n", NULL);
	assert_int_equal(r.rc, 0);
	run_free(&r);
	check_changed(&r, "etc/nocbctl.conf", "cpus = 0-1\noffload = 3\n", NULL);
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "/etc/nocbctl.conf:2: offload = 3 is not the isolated CPUs 2-3; fix: set offload = 2-3 in ");
	assert_int_equal(count_substr(r.out, "mismatch:"), 1);
	run_free(&r);
	check_changed(&r, "etc/nocbctl.conf", "policy = other\n", NULL);
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "does not place the offload kthreads");
	run_free(&r);
	check_changed(&r, "etc/nocbctl.conf", "cpus = 0-1\nbogus = 1\n", NULL);
	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "/etc/nocbctl.conf:2: unknown key 'bogus'");
	assert_contains(r.out, "is invalid (error above)");
	run_free(&r);
	/* without --isolate, an invalid or missing config is bad input */
	check_changed(&r, "etc/nocbctl.conf", "cpus = 0-1\nbogus = 1\n", "--poll");
	assert_int_equal(r.rc, 2);
	run_free(&r);
	check_changed(&r, "etc/nocbctl.conf", NULL, "--poll");
	assert_int_equal(r.rc, 2);
	assert_contains(r.err, "give --isolate=LIST");
	run_free(&r);
}

/* A system set up by nothing: everything named, in JSON too. */
static void check_unplanned(void **state)
{
	struct run r;

	(void)state;
	run_verb(&r, cmd_plan, fx("cpu4"), true, "plan", "--check",
		 "--isolate=2-3", END);
	assert_int_equal(r.rc, 1);
	assert_int_equal(count_substr(r.out, "\n"), 1);
	assert_contains(r.out, "\"clean\":false");
	assert_int_equal(count_substr(r.out, "{\"what\":\"kernel parameter\""), 4);
	/* the six offload kthreads in one finding, each named in it */
	assert_int_equal(count_substr(r.out, "{\"what\":\"offload kthread"), 1);
	assert_contains(r.out, "{\"what\":\"offload kthreads\",\"differs\":\"6 may run outside the housekeeping CPUs 0-1: rcuog/0 (pid 12) on 0-3, rcuog/2 (pid 15) on 0-3, rcuop/0 (pid 13) on 0-3, rcuop/1 (pid 14) on 0-3, rcuop/2 (pid 16) on 0-3, rcuop/3 (pid 17) on 0-3\"");
	assert_contains(r.out, "{\"what\":\"kernel thread\",\"differs\":\"rcu_preempt (pid 40)");
	assert_not_contains(r.out, "pid 900");	/* user process named rcuop/7 */
	assert_not_contains(r.out, "systemd (pid 1)");
	run_free(&r);
}

int run_plan_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(hex_masks, setup),
		cmocka_unit_test_setup(plan_text, setup),
		cmocka_unit_test_setup(plan_grub_and_json, setup),
		cmocka_unit_test_setup(plan_refused, setup),
		cmocka_unit_test_setup(plan_smt_and_numa, setup),
		cmocka_unit_test_setup(check_clean, setup),
		cmocka_unit_test_setup(check_threads, setup),
		cmocka_unit_test_setup(check_irqs, setup),
		cmocka_unit_test_setup(check_cmdline, setup),
		cmocka_unit_test_setup(check_wq_systemd_config, setup),
		cmocka_unit_test_setup(check_unplanned, setup),
	};

	return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
