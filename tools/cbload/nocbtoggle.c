// SPDX-License-Identifier: GPL-2.0
/*
 * nocbtoggle: offload and de-offload a CPU's RCU callbacks from a guest
 * test, through the only in-kernel interface a 6.1 kernel has for it
 * (rcu_nocb_cpu_offload() and rcu_nocb_cpu_deoffload(), otherwise called
 * by rcutorture alone).  Write "offload N" or "deoffload N" to
 * /sys/kernel/debug/nocbtoggle/ctl; the write fails with the errno the
 * kernel returned, so a shell sees EINVAL for CPU 0 and EBUSY for the
 * last normal CPU.
 *
 * Loaded only in QEMU guests, never on the build host.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/rcupdate.h>
#include <linux/cpumask.h>
#include <linux/uaccess.h>
#include <linux/string.h>
#include <linux/kernel.h>

static struct dentry *dir;

static ssize_t ctl_write(struct file *file, const char __user *ubuf,
			 size_t len, loff_t *ppos)
{
	char buf[32], *arg;
	unsigned int cpu;
	int ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	arg = strim(buf);
	if (str_has_prefix(arg, "offload ")) {
		arg += strlen("offload ");
		ret = 1;
	} else if (str_has_prefix(arg, "deoffload ")) {
		arg += strlen("deoffload ");
		ret = 0;
	} else {
		return -EINVAL;
	}
	if (kstrtouint(arg, 10, &cpu) || cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return -EINVAL;
	ret = ret ? rcu_nocb_cpu_offload(cpu) : rcu_nocb_cpu_deoffload(cpu);
	return ret ? ret : len;
}

static const struct file_operations ctl_fops = {
	.owner = THIS_MODULE,
	.write = ctl_write,
	.llseek = noop_llseek,
};

static int __init nocbtoggle_init(void)
{
	dir = debugfs_create_dir("nocbtoggle", NULL);
	debugfs_create_file("ctl", 0200, dir, NULL, &ctl_fops);
	return 0;
}

static void __exit nocbtoggle_exit(void)
{
	debugfs_remove(dir);
}

module_init(nocbtoggle_init);
module_exit(nocbtoggle_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Offload/de-offload RCU callbacks of a CPU, for nocb guest tests");
