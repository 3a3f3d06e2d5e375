// SPDX-License-Identifier: GPL-2.0
/*
 * kcsancanary: a data race on purpose, so that a KCSAN guest can show
 * that the harness fails a test on a race in the project's own code and
 * not only on host fixtures (tools/vm/tests/kcsan-gate-test.sh).  One
 * kthread per CPU given in "cpus" (two by default) increments a shared
 * counter with plain accesses until the module is removed.
 *
 * Loaded only in QEMU guests, never on the build host.
 */
#include <linux/module.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/cpumask.h>
#include <linux/err.h>

static int cpus[2] = { 0, 1 };
static int ncpus = ARRAY_SIZE(cpus);
module_param_array(cpus, int, &ncpus, 0444);
MODULE_PARM_DESC(cpus, "the two CPUs whose kthreads race (default 0,1)");

/*
 * No function here may contain "kcsan_": KCSAN drops such frames from its
 * reports as its own, and would name the race "kthread / kthread".
 */
static unsigned long race_canary_hits;
static struct task_struct *threads[ARRAY_SIZE(cpus)];

static int race_canary_thread(void *unused)
{
	int i;

	while (!kthread_should_stop()) {
		/*
		 * Plain read-modify-write from two CPUs: the race KCSAN must
		 * report.  Many per pass, so that most watchpoints KCSAN
		 * sets in this loop are on the counter; barrier() keeps the
		 * compiler from folding them into one add.
		 */
		for (i = 0; i < 1000; i++) {
			race_canary_hits++;
			barrier();
		}
		cond_resched();
	}
	return 0;
}

static void race_canary_stop(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(threads); i++) {
		if (threads[i])
			kthread_stop(threads[i]);
		threads[i] = NULL;
	}
}

static int __init race_canary_init(void)
{
	int i;

	if (ncpus != ARRAY_SIZE(cpus))
		return -EINVAL;
	for (i = 0; i < ncpus; i++) {
		if (cpus[i] < 0 || cpus[i] >= nr_cpu_ids || !cpu_online(cpus[i])) {
			race_canary_stop();
			return -EINVAL;
		}
		threads[i] = kthread_create_on_cpu(race_canary_thread, NULL,
						   cpus[i], "kcsancanary/%u");
		if (IS_ERR(threads[i])) {
			int ret = PTR_ERR(threads[i]);

			threads[i] = NULL;
			race_canary_stop();
			return ret;
		}
		wake_up_process(threads[i]);
	}
	return 0;
}

static void __exit race_canary_exit(void)
{
	race_canary_stop();
	pr_info("kcsancanary: %lu increments\n", race_canary_hits);
}

module_init(race_canary_init);
module_exit(race_canary_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("A deliberate data race, for the KCSAN gate's guest test");
