// SPDX-License-Identifier: GPL-2.0
/*
 * cbload: queue RCU callbacks on chosen CPUs at a chosen rate, each doing
 * a chosen amount of work, for the nocb guest tests and benchmarks.
 *
 * A pinned hrtimer on each selected CPU fires every period_us and queues
 * rate * period_us / 1e6 callbacks with call_rcu_hurry(), or with call_rcu()
 * when lazy=1: lazy callbacks (CONFIG_RCU_LAZY, 6.2 on) may wait seconds in
 * an offloaded CPU's bypass list, which only a lazy test wants.  With
 * queue=0 the timer
 * runs but queues nothing: the generator's own noise floor.  Statistics
 * are in /sys/kernel/debug/cbload/stats.  Writing to .../stop stops the
 * timers and waits for every queued callback, so that the final counts can
 * be read and compared with rcudata's.  Unloading stops the timers and
 * waits in rcu_barrier() for every queued callback before the module text
 * and data go away.
 *
 * Loaded only in QEMU guests, never on the build host.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/hrtimer.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/cpumask.h>
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/sched/clock.h>
#include <linux/delay.h>
#include <linux/version.h>

/* call_rcu_hurry() came with lazy callbacks; before, every one hurries. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define call_rcu_hurry call_rcu
#endif

static char *cpus = "1";
module_param(cpus, charp, 0444);
MODULE_PARM_DESC(cpus, "CPUs to queue callbacks on (cpulist, all online)");
static unsigned long rate = 10000;
module_param(rate, ulong, 0444);
MODULE_PARM_DESC(rate, "callbacks per second per CPU (0..10000000)");
static unsigned int work_ns = 500;
module_param(work_ns, uint, 0444);
MODULE_PARM_DESC(work_ns, "busy work per callback in ns (0..100000)");
static unsigned int period_us = 1000;
module_param(period_us, uint, 0444);
MODULE_PARM_DESC(period_us, "timer period in us (10..1000000)");
static bool queue = true;
module_param(queue, bool, 0444);
MODULE_PARM_DESC(queue, "queue callbacks (0: run the timer only)");
static bool lazy;
module_param(lazy, bool, 0444);
MODULE_PARM_DESC(lazy, "queue with call_rcu(), lazy on kernels with RCU_LAZY (default: call_rcu_hurry())");
static bool hotplug;
module_param(hotplug, bool, 0444);
MODULE_PARM_DESC(hotplug, "follow CPU hotplug: stop a CPU's load when it goes offline, restart it when it comes back (default: the load of an offlined CPU ends)");
static unsigned long max_pending = 4000000;
module_param(max_pending, ulong, 0444);
MODULE_PARM_DESC(max_pending, "cap on callbacks in flight; beyond it, count drops");

struct cbload_cb {
	struct rcu_head rh;
	int cpu;
};

struct cbload_cpu {
	struct hrtimer timer;
	unsigned long budget_frac;	/* fractional callbacks carried over, in 1e-6 */
	atomic_long_t queued;
	atomic_long_t invoked;		/* counted on the CPU that queued */
	atomic_long_t invoked_task;	/* of those, in task context */
	atomic_long_t dropped;
	atomic_long_t wrong_cpu;	/* timer fired elsewhere (CPU went offline) */
	u64 enqueue_ns;			/* time spent in call_rcu(), for its cost */
	unsigned long enqueue_n;
	u64 timer_ns;			/* time spent in the timer handler */
	unsigned long fires;
};

static cpumask_var_t load_mask;
static DEFINE_PER_CPU(struct cbload_cpu, cbload_pcpu);
static atomic_long_t pending;
static struct kmem_cache *cb_cache;
static struct dentry *dir;
static ktime_t period;

static void cbload_cb_func(struct rcu_head *rh)
{
	struct cbload_cb *cb = container_of(rh, struct cbload_cb, rh);

	if (work_ns)
		ndelay(work_ns);
	atomic_long_inc(&per_cpu(cbload_pcpu, cb->cpu).invoked);
	/*
	 * Softirq (rcu_core()) or task context: with use_softirq, a task
	 * invoking callbacks is an rcuo kthread, so this is the split the
	 * kernel's ci/nci must show, measured without the kernel's help.
	 */
	if (in_task())
		atomic_long_inc(&per_cpu(cbload_pcpu, cb->cpu).invoked_task);
	atomic_long_dec(&pending);
	kmem_cache_free(cb_cache, cb);
}

static enum hrtimer_restart cbload_timer_fn(struct hrtimer *t)
{
	struct cbload_cpu *pc = container_of(t, struct cbload_cpu, timer);
	int cpu = smp_processor_id();
	u64 start = local_clock(), t0;
	unsigned long n, i;
	/* Periods missed (slow emulated guests) still get their callbacks. */
	u64 periods = hrtimer_forward_now(t, period);

	if (pc != this_cpu_ptr(&cbload_pcpu)) {
		/* The CPU went offline and the timer was migrated: stop. */
		atomic_long_inc(&pc->wrong_cpu);
		return HRTIMER_NORESTART;
	}
	pc->fires++;
	if (!queue)
		goto out;

	/* rate * period_us / 1e6 callbacks, carrying the remainder over. */
	pc->budget_frac += rate * period_us * periods;
	n = pc->budget_frac / 1000000;
	pc->budget_frac %= 1000000;
	for (i = 0; i < n; i++) {
		struct cbload_cb *cb;

		if (atomic_long_inc_return(&pending) > max_pending) {
			atomic_long_dec(&pending);
			atomic_long_add(n - i, &pc->dropped);
			break;
		}
		cb = kmem_cache_alloc(cb_cache, GFP_ATOMIC | __GFP_NOWARN);
		if (!cb) {
			atomic_long_dec(&pending);
			atomic_long_inc(&pc->dropped);
			continue;
		}
		cb->cpu = cpu;
		t0 = local_clock();
		if (lazy)
			call_rcu(&cb->rh, cbload_cb_func);
		else
			call_rcu_hurry(&cb->rh, cbload_cb_func);
		pc->enqueue_ns += local_clock() - t0;
		pc->enqueue_n++;
		atomic_long_inc(&pc->queued);
	}
out:
	pc->timer_ns += local_clock() - start;
	return HRTIMER_RESTART;
}

static void cbload_start_on(void *unused)
{
	struct cbload_cpu *pc = this_cpu_ptr(&cbload_pcpu);

	hrtimer_start(&pc->timer, period, HRTIMER_MODE_REL_PINNED);
}

static int stats_show(struct seq_file *m, void *unused)
{
	int cpu;

	seq_printf(m, "rate=%lu work_ns=%u period_us=%u queue=%d pending=%ld\n",
		   rate, work_ns, period_us, queue, atomic_long_read(&pending));
	for_each_cpu(cpu, load_mask) {
		struct cbload_cpu *pc = per_cpu_ptr(&cbload_pcpu, cpu);
		unsigned long en = READ_ONCE(pc->enqueue_n);

		seq_printf(m, "%3d queued=%ld invoked=%ld dropped=%ld wrong_cpu=%ld fires=%lu enqueue_ns_avg=%llu timer_ns=%llu invoked_task=%ld\n",
			   cpu, atomic_long_read(&pc->queued),
			   atomic_long_read(&pc->invoked),
			   atomic_long_read(&pc->dropped),
			   atomic_long_read(&pc->wrong_cpu), READ_ONCE(pc->fires),
			   en ? READ_ONCE(pc->enqueue_ns) / en : 0,
			   READ_ONCE(pc->timer_ns),
			   atomic_long_read(&pc->invoked_task));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

static bool stopped;
static enum cpuhp_state hp_state;

/* hotplug=1: runs on the CPU itself as it comes online and goes offline. */
static int cbload_cpu_online(unsigned int cpu)
{
	if (cpumask_test_cpu(cpu, load_mask) && !READ_ONCE(stopped))
		hrtimer_start(&per_cpu_ptr(&cbload_pcpu, cpu)->timer, period,
			      HRTIMER_MODE_REL_PINNED);
	return 0;
}

static int cbload_cpu_offline(unsigned int cpu)
{
	if (cpumask_test_cpu(cpu, load_mask))
		hrtimer_cancel(&per_cpu_ptr(&cbload_pcpu, cpu)->timer);
	return 0;
}

static void cbload_stop(void)
{
	int cpu;

	/* Under the hotplug lock, so that no CPU coming online restarts one. */
	cpus_read_lock();
	WRITE_ONCE(stopped, true);
	for_each_cpu(cpu, load_mask)
		hrtimer_cancel(&per_cpu_ptr(&cbload_pcpu, cpu)->timer);
	cpus_read_unlock();
	/* Every callback still queued references this module's code. */
	rcu_barrier();
}

static ssize_t stop_write(struct file *file, const char __user *ubuf,
			  size_t len, loff_t *ppos)
{
	cbload_stop();
	return len;
}

static const struct file_operations stop_fops = {
	.owner = THIS_MODULE,
	.write = stop_write,
	.llseek = noop_llseek,
};

static int __init cbload_init(void)
{
	int cpu, ret;

	if (rate > 10000000 || work_ns > 100000 || period_us < 10 || period_us > 1000000) {
		pr_err("cbload: rate, work_ns or period_us out of range\n");
		return -EINVAL;
	}
	if (!zalloc_cpumask_var(&load_mask, GFP_KERNEL))
		return -ENOMEM;
	ret = cpulist_parse(cpus, load_mask);
	if (ret || cpumask_empty(load_mask)) {
		pr_err("cbload: cpus=%s is not a CPU list\n", cpus);
		ret = -EINVAL;
		goto free_mask;
	}
	cb_cache = KMEM_CACHE(cbload_cb, 0);
	if (!cb_cache) {
		ret = -ENOMEM;
		goto free_mask;
	}
	period = ns_to_ktime((u64)period_us * NSEC_PER_USEC);

	cpus_read_lock();
	if (!cpumask_subset(load_mask, cpu_online_mask)) {
		cpus_read_unlock();
		pr_err("cbload: cpus=%s includes offline or impossible CPUs\n", cpus);
		ret = -EINVAL;
		goto free_cache;
	}
	for_each_cpu(cpu, load_mask) {
		struct cbload_cpu *pc = per_cpu_ptr(&cbload_pcpu, cpu);

		hrtimer_init(&pc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED);
		pc->timer.function = cbload_timer_fn;
	}
	on_each_cpu_mask(load_mask, cbload_start_on, NULL, true);
	if (hotplug) {
		ret = cpuhp_setup_state_nocalls_cpuslocked(CPUHP_AP_ONLINE_DYN, "cbload:online",
							   cbload_cpu_online, cbload_cpu_offline);
		if (ret < 0) {
			cpus_read_unlock();
			cbload_stop();
			goto free_cache;
		}
		hp_state = ret;
	}
	cpus_read_unlock();

	dir = debugfs_create_dir("cbload", NULL);
	debugfs_create_file("stats", 0444, dir, NULL, &stats_fops);
	debugfs_create_file("stop", 0200, dir, NULL, &stop_fops);
	pr_info("cbload: cpus=%*pbl rate=%lu/s work_ns=%u period_us=%u queue=%d lazy=%d hotplug=%d\n",
		cpumask_pr_args(load_mask), rate, work_ns, period_us, queue, lazy, hotplug);
	return 0;

free_cache:
	kmem_cache_destroy(cb_cache);
free_mask:
	free_cpumask_var(load_mask);
	return ret;
}

static void __exit cbload_exit(void)
{
	debugfs_remove_recursive(dir);
	if (hp_state)
		cpuhp_remove_state_nocalls(hp_state);
	cbload_stop();
	WARN_ON(atomic_long_read(&pending));
	kmem_cache_destroy(cb_cache);
	free_cpumask_var(load_mask);
	pr_info("cbload: unloaded\n");
}

module_init(cbload_init);
module_exit(cbload_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("RCU callback load generator for nocb tests and benchmarks");
