// SPDX-License-Identifier: GPL-2.0
/*
 * test_offload.c - offload/deoffload on copies of the k6 fixture (booted
 * with rcu_nocbs=2-3): with --root, rcu_nocbs is a regular file, so the
 * tests read what was written, and the fake write_sysfs records each
 * write or fails it with the kernel's errno.
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "verbs.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOCBS "sys/devices/system/cpu/rcu_nocbs"

static int setup(void **state)
{
	(void)state;
	mock_reset();
	return 0;
}

#define assert_starts(s, prefix) \
	do { \
		if (strncmp((s), (prefix), strlen(prefix))) \
			fail_msg("expected \"%s\" to start:\n%s", (prefix), (s)); \
	} while (0)

static void assert_nocbs(const char *t, const char *want)
{
	char *v = tree_read(t, NOCBS);

	assert_non_null(v);
	assert_string_equal(v, want);
	free(v);
}

/*
 * A copy of k6 whose offload kthreads are pinned to CPU 0, as on a host
 * set up for offload: the changes tested here pass the placement rule.
 */
static char *k6_pinned(void)
{
	char *t = tree_copy("k6");

	for (int pid = 12; pid <= 17; pid++) {
		char rel[64], *st, *p;

		snprintf(rel, sizeof(rel), "proc/%d/status", pid);
		st = tree_read(t, rel);
		assert_non_null(st);
		p = strstr(st, "Cpus_allowed_list:\t0-3\n");
		assert_non_null(p);
		memmove(p + 19, p + 22, strlen(p + 22) + 1);	/* "0-3" -> "0" */
		tree_write(t, rel, st);
		free(st);
	}
	return t;
}

static void offload_adds_to_the_set(void **state)
{
	char *t = k6_pinned();
	struct run r;

	(void)state;
	run_verb(&r, cmd_offload, t, false, "offload", "1", END);
	assert_int_equal(r.rc, 0);
	/* the whole set, not the delta */
	assert_int_equal(mock.n_sysfs, 1);
	assert_string_equal(mock.sysfs_val[0], "1-3\n");
	assert_nocbs(t, "1-3\n");
	assert_starts(r.out, "CPU 1: offloaded\n"
			     "rcu_nocbs: 2-3 -> 1-3\n");
	assert_int_equal(r.errlen, 0);
	run_free(&r);
	/* all there already: nothing written */
	run_verb(&r, cmd_offload, t, false, "offload", "1-2", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_sysfs, 1);
	assert_contains(r.out, "CPU 1: already offloaded\n");
	assert_contains(r.out, "CPU 2: already offloaded\n");
	assert_contains(r.out, "rcu_nocbs: 1-3 (nothing to change)\n");
	run_free(&r);
	tree_rm(t);
}

static void deoffload_removes_from_the_set(void **state)
{
	char *t = k6_pinned();
	struct run r;

	(void)state;
	run_verb(&r, cmd_deoffload, t, false, "deoffload", "2", END);
	assert_int_equal(r.rc, 0);
	assert_string_equal(mock.sysfs_val[0], "3\n");
	assert_nocbs(t, "3\n");
	assert_contains(r.out, "CPU 2: deoffloaded\n");
	assert_contains(r.out, "rcu_nocbs: 2-3 -> 3\n");
	run_free(&r);
	/* the kernel's syntax: "all" is every possible CPU */
	run_verb(&r, cmd_deoffload, t, false, "deoffload", "all", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_sysfs, 2);
	assert_string_equal(mock.sysfs_val[1], "\n");
	assert_nocbs(t, "\n");
	assert_contains(r.out,
			"CPU 0: not offloaded\n"
			"CPU 1: not offloaded\n"
			"CPU 2: not offloaded\n"
			"CPU 3: deoffloaded\n"
			"rcu_nocbs: 3 -> -\n"
			"deoffload: no ");
	assert_contains(r.out, "/etc/nocbctl.conf: offload kthreads left as they are\n");
	run_free(&r);
	tree_rm(t);
}

static void kernel_list_syntax(void **state)
{
	char *t = k6_pinned();
	struct run r;

	(void)state;
	tree_write(t, NOCBS, "\n");
	/* N is the last possible CPU: 1-N:1/2 is 1,3 */
	run_verb(&r, cmd_offload, t, false, "offload", "1-N:1/2", END);
	assert_int_equal(r.rc, 0);
	assert_string_equal(mock.sysfs_val[0], "1,3\n");
	run_free(&r);
	run_verb(&r, cmd_offload, t, false, "offload", "2,,", END);
	assert_int_equal(r.rc, 0);
	assert_string_equal(mock.sysfs_val[1], "1-3\n");
	run_free(&r);
	tree_rm(t);
}

static void dry_run_writes_nothing(void **state)
{
	char *t = tree_copy("k6");
	struct run r;

	(void)state;
	tree_write(t, "etc/nocbctl.conf", "cpus = 0\n");
	run_verb(&r, cmd_offload, t, false, "offload", "1", "--dry-run", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_sysfs, 0);
	assert_nocbs(t, "2-3\n");
	assert_contains(r.out, "CPU 1: would offload\n");
	assert_contains(r.out, "rcu_nocbs (dry run): 2-3 -> 1-3\n");
	/* and the kthreads: shown, not changed */
	assert_int_equal(mock.n_aff, 0);
	assert_int_equal(count_substr(r.out, "would change (0-3 -> 0)"), 6);
	run_free(&r);
	run_verb(&r, cmd_deoffload, t, true, "deoffload", "-n", "2-3", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_sysfs, 0);
	assert_nocbs(t, "2-3\n");
	assert_contains(r.out, "{\"cpu\":2,\"result\":\"would-deoffload\"}");
	assert_contains(r.out, "\"written\":false");
	assert_contains(r.out, "\"after\":\"\"");
	run_free(&r);
	tree_rm(t);
}

/* Each refusal: its exit code, one error line, nothing written. */
static void refuse(const char *t, int (*fn)(struct nocb_ctx *, int, char **),
		   const char *verb, const char *list, int rc,
		   const char *why)
{
	struct run r;
	char prefix[64];

	mock_reset();
	run_verb(&r, fn, t, false, verb, list, END);
	if (r.rc != rc)
		fail_msg("%s '%s': exit %d, expected %d\n%s", verb, list,
			 r.rc, rc, r.err);
	assert_contains(r.err, why);
	snprintf(prefix, sizeof(prefix), "nocbctl: %s: ", verb);
	assert_int_equal(strncmp(r.err, prefix, strlen(prefix)), 0);
	assert_int_equal(count_substr(r.err, "\n"), 1);
	assert_int_equal(r.outlen, 0);
	assert_int_equal(mock.n_sysfs, 0);
	run_free(&r);
}

static void refusals_before_any_write(void **state)
{
	char *t = k6_pinned();
	struct run r;

	(void)state;
	refuse(t, cmd_offload, "offload", "0", 2,
	       "CPU 0: the boot CPU is never a no-CBs CPU (K4)");
	refuse(t, cmd_offload, "offload", "0-1", 2, "(K4)");
	refuse(t, cmd_offload, "offload", "all", 2, "(K4)");
	refuse(t, cmd_offload, "offload", "4", 2,
	       "'4': CPU 4 is not a possible CPU (0-3)");
	/* possible but not present (a CPU not plugged in) */
	tree_write(t, "sys/devices/system/cpu/present", "0-2\n");
	refuse(t, cmd_offload, "offload", "2-3", 2,
	       "'2-3': CPU 3 not present (present: 0-2)");
	tree_write(t, "sys/devices/system/cpu/present", "0-3\n");
	refuse(t, cmd_deoffload, "deoffload", "1,9", 2,
	       "CPU 9 is not a possible CPU");
	refuse(t, cmd_offload, "offload", "1-", 2, "'1-': ");
	refuse(t, cmd_offload, "offload", "1-3:2", 2, "needs a group");
	refuse(t, cmd_offload, "offload", "", 2, "empty CPU list");
	refuse(t, cmd_offload, "offload", ",", 2, "empty CPU list");
	refuse(t, cmd_offload, "offload", "--cpus=1", 2, "--cpus: unknown option");
	run_verb(&r, cmd_offload, t, false, "offload", END);
	assert_int_equal(r.rc, 2);
	assert_contains(r.err, "a CPU LIST is required");
	run_free(&r);
	run_verb(&r, cmd_offload, t, false, "offload", "1", "2", END);
	assert_int_equal(r.rc, 2);
	assert_contains(r.err, "unexpected argument '2'");
	run_free(&r);
	/* K3: CPU 0 offline, CPU 1 the last online normal CPU */
	tree_write(t, "sys/devices/system/cpu/online", "1-3\n");
	tree_write(t, "sys/devices/system/cpu/offline", "0\n");
	refuse(t, cmd_offload, "offload", "1", 1,
	       "CPU 1: the last online normal CPU; offloading it would leave no online CPU to process callbacks itself (K3)");
	tree_write(t, NOCBS, "3\n");
	refuse(t, cmd_offload, "offload", "1-2", 1,
	       "CPUs 1-2: the last online normal CPUs; offloading them all");
	assert_nocbs(t, "3\n");
	/* one normal CPU left is enough; deoffload is never K3's concern */
	mock_reset();
	run_verb(&r, cmd_offload, t, false, "offload", "2", END);
	assert_int_equal(r.rc, 0);
	assert_nocbs(t, "2-3\n");
	run_free(&r);
	tree_write(t, NOCBS, "1-3\n");
	run_verb(&r, cmd_deoffload, t, false, "deoffload", "3", END);
	assert_int_equal(r.rc, 0);
	assert_nocbs(t, "1-2\n");
	run_free(&r);
	tree_rm(t);
}

static void every_cpu_but_0_is_fine(void **state)
{
	char *t = k6_pinned();
	struct run r;

	(void)state;
	/* CPU 0 online and normal: it alone keeps K3 */
	run_verb(&r, cmd_offload, t, false, "offload", "1-3", END);
	assert_int_equal(r.rc, 0);
	assert_nocbs(t, "1-3\n");
	run_free(&r);
	tree_rm(t);
}

static void no_k6_exits_3(void **state)
{
	struct run r;

	(void)state;
	run_verb(&r, cmd_offload, fx("cpu4"), false, "offload", "1", END);
	assert_int_equal(r.rc, 3);
	assert_contains(r.err, "nocbctl: offload: /sys/devices/system/cpu/rcu_nocbs is missing");
	assert_contains(r.err, "a nocb series without runtime offload");
	assert_int_equal(count_substr(r.err, "\n"), 1);
	run_free(&r);
	run_verb(&r, cmd_deoffload, fx("norcudata"), false, "deoffload", "2",
		 END);
	assert_int_equal(r.rc, 3);
	assert_contains(r.err, "a stock kernel (no rcudata either)");
	run_free(&r);
	/* --dry-run cannot pretend either */
	run_verb(&r, cmd_offload, fx("norcudata"), false, "offload", "1", "-n",
		 END);
	assert_int_equal(r.rc, 3);
	assert_int_equal(r.outlen, 0);
	run_free(&r);
	assert_int_equal(mock.n_sysfs, 0);
}

static void kernel_errno_to_exit_code(void **state)
{
	static const struct {
		int err, rc;
		const char *why;
	} cases[] = {
		{ EOPNOTSUPP, 3, "booted without rcu_nocbs; boot once with bare rcu_nocbs" },
		{ EINVAL, 2, "refused no-CBs CPUs '1-3' (EINVAL)" },
		{ EBUSY, 1, "(EBUSY): no online normal CPU would be left (K3)" },
		{ EPERM, 4, "Operation not permitted (run as root)" },
		{ EACCES, 4, "Permission denied (run as root)" },
		/* root in a container: being root is not the answer */
		{ EROFS, 4, "Read-only file system (sysfs is mounted read-only here" },
		{ EIO, 1, "writing '1-3' to " },
	};
	char *t = k6_pinned();
	struct run r;

	(void)state;
	tree_write(t, "etc/nocbctl.conf", "cpus = 0\n");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		mock_reset();
		mock.sysfs_err = cases[i].err;
		run_verb(&r, cmd_offload, t, false, "offload", "1", END);
		if (r.rc != cases[i].rc)
			fail_msg("errno %d: exit %d, expected %d", cases[i].err,
				 r.rc, cases[i].rc);
		assert_int_equal(mock.n_sysfs, 1);
		assert_contains(r.err, cases[i].why);
		/* where the kernel left it, and no re-pin after a failure */
		assert_contains(r.err, "; rcu_nocbs still reads '2-3'\n");
		assert_int_equal(count_substr(r.err, "\n"), 1);
		assert_int_equal(mock.n_aff, 0);
		assert_int_equal(r.outlen, 0);
		run_free(&r);
	}
	tree_rm(t);
}

static void needs_privilege(void **state)
{
	char *t = k6_pinned();
	struct run r;

	(void)state;
	mock.have_cap = false;	/* no write access either */
	run_verb(&r, cmd_offload, t, false, "offload", "1", END);
	assert_int_equal(r.rc, 4);
	assert_contains(r.err, "rcu_nocbs: Permission denied (run as root)");
	run_free(&r);
	run_verb(&r, cmd_deoffload, t, false, "deoffload", "3", "--dry-run",
		 END);
	assert_int_equal(r.rc, 4);
	run_free(&r);
	/* nothing to change needs no privilege */
	run_verb(&r, cmd_offload, t, false, "offload", "3", END);
	assert_int_equal(r.rc, 0);
	run_free(&r);
	assert_int_equal(mock.n_sysfs, 0);
	assert_nocbs(t, "2-3\n");
	tree_rm(t);
}

static void repins_after_the_change(void **state)
{
	char *t = k6_pinned();
	char path[4200];
	struct run r;

	(void)state;
	tree_write(t, "etc/nocbctl.conf",
		   "cpus = 0\npolicy = fifo\npriority = 1\n");
	run_verb(&r, cmd_offload, t, false, "offload", "1", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_sysfs, 1);
	assert_int_equal(mock.aff_at_sysfs, 0);	/* pinned after the write */
	assert_int_equal(mock.n_aff, 6);
	for (int i = 0; i < 6; i++)
		assert_string_equal(mock.aff_cpus[i], "0");
	assert_int_equal(mock.n_sched, 6);
	assert_int_equal(mock.sched_policy[0], SCHED_FIFO);
	assert_int_equal(mock.sched_prio[0], 1);
	assert_contains(r.out, "pin: 6 changed, 0 unchanged, 0 failed");
	assert_contains(r.out, "prio: 6 changed");
	run_free(&r);
	/* --config, not under --root */
	mock_reset();
	snprintf(path, sizeof(path), "%s/other.conf", t);
	tree_write(t, "other.conf", "rcuop.cpus = 0-1\n");
	run_verb(&r, cmd_deoffload, t, false, "deoffload", "--config", path,
		 "1", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_aff, 4);	/* rcuop only */
	assert_string_equal(mock.aff_cpus[0], "0-1");
	assert_int_equal(mock.n_sched, 0);
	run_free(&r);
	/* no change: no re-pin */
	mock_reset();
	run_verb(&r, cmd_offload, t, false, "offload", "2", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_aff + mock.n_sched, 0);
	run_free(&r);
	/* a thread that cannot be pinned: the change stays, exit 1 */
	mock_reset();
	mock.fail_pid[0] = 14;
	mock.fail_err[0] = EPERM;
	run_verb(&r, cmd_offload, t, false, "offload", "1", END);
	assert_int_equal(r.rc, 1);
	assert_nocbs(t, "1-3\n");
	assert_contains(r.out, "rcuop/1    pid 14      failed");
	run_free(&r);
	tree_rm(t);
}

static void bad_config_changes_nothing(void **state)
{
	char *t = k6_pinned();
	struct run r;

	(void)state;
	tree_write(t, "etc/nocbctl.conf", "cpus = 0\npolicy = fifo\n");
	run_verb(&r, cmd_offload, t, false, "offload", "1", END);
	assert_int_equal(r.rc, 2);
	assert_contains(r.err, "nocbctl.conf:");
	run_free(&r);
	run_verb(&r, cmd_offload, t, false, "offload", "1", "--config",
		 "/nonexistent/nocbctl.conf", END);
	assert_int_equal(r.rc, 2);
	assert_contains(r.err, "/nonexistent/nocbctl.conf: No such file");
	run_free(&r);
	assert_int_equal(mock.n_sysfs + mock.n_aff + mock.n_sched, 0);
	assert_nocbs(t, "2-3\n");
	tree_rm(t);
}

static void json_report(void **state)
{
	char *t = k6_pinned();
	struct run r;

	(void)state;
	run_verb(&r, cmd_offload, t, true, "offload", "1-2", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(count_substr(r.out, "\n"), 1);
	assert_string_equal(r.out,
			    "{\"command\":\"offload\",\"dry_run\":false,"
			    "\"list\":\"1-2\",\"before\":\"2-3\",\"after\":\"1-3\","
			    "\"cpus\":[{\"cpu\":1,\"result\":\"offloaded\"},"
			    "{\"cpu\":2,\"result\":\"already-offloaded\"}],"
			    "\"written\":true,\"config\":null,\"pin\":null,"
			    "\"prio\":null}\n");
	run_free(&r);
	tree_write(t, "etc/nocbctl.conf", "cpus = 0\n");
	run_verb(&r, cmd_deoffload, t, true, "deoffload", "1", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "{\"cpu\":1,\"result\":\"deoffloaded\"}");
	assert_contains(r.out, "/etc/nocbctl.conf\",\"pin\":{\"threads\":[");
	assert_contains(r.out, "\"changed\":6");
	assert_contains(r.out, "\"prio\":null}");
	run_free(&r);
	tree_rm(t);
}

static void reads_back_what_it_wrote(void **state)
{
	char *t = k6_pinned();
	struct run r;

	(void)state;
	mock.sysfs_ignore = true;	/* the write "worked", the set did not change */
	run_verb(&r, cmd_offload, t, false, "offload", "1", END);
	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "wrote '1-3' but ");
	assert_contains(r.err, "rcu_nocbs reads '2-3'");
	assert_int_equal(r.outlen, 0);
	run_free(&r);
	/* an unparsable file: nothing is written */
	mock_reset();
	tree_write(t, NOCBS, "1-x\n");
	run_verb(&r, cmd_offload, t, false, "offload", "1", END);
	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "rcu_nocbs: not a CPU list");
	assert_int_equal(mock.n_sysfs, 0);
	run_free(&r);
	tree_rm(t);
}

static void locked_while_writing(void **state)
{
	char *t = k6_pinned();
	struct run r;

	(void)state;
	run_verb(&r, cmd_offload, t, false, "offload", "1", END);
	assert_int_equal(r.rc, 0);
	assert_true(mock.sysfs_locked);
	run_free(&r);
	tree_rm(t);
}

static void list_longer_than_a_page(void **state)
{
	char *t = tree_copy(NULL);
	struct run r;

	(void)state;
	tree_write(t, "sys/devices/system/cpu/possible", "0-4095\n");
	tree_write(t, "sys/devices/system/cpu/online", "0-4095\n");
	tree_write(t, NOCBS, "1-4095\n");
	/* every second CPU: "1,3,5,...,4095" is 9 KiB */
	run_verb(&r, cmd_deoffload, t, false, "deoffload", "2-4094:1/2", END);
	assert_int_equal(r.rc, 2);
	assert_contains(r.err, "bytes; the kernel takes at most");
	assert_int_equal(mock.n_sysfs, 0);
	run_free(&r);
	run_verb(&r, cmd_deoffload, t, false, "deoffload", "2048-4095", END);
	assert_int_equal(r.rc, 0);
	assert_nocbs(t, "1-2047\n");
	run_free(&r);
	tree_rm(t);
}

static void status_shows_the_change(void **state)
{
	char *t = k6_pinned();
	struct run r;

	(void)state;
	run_verb(&r, cmd_status, t, false, "status", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "offloaded: 2-3 (source: /sys/devices/system/cpu/rcu_nocbs)\n");
	assert_not_contains(r.out, "at boot:");
	run_free(&r);
	run_verb(&r, cmd_offload, t, false, "offload", "1", END);
	assert_int_equal(r.rc, 0);
	run_free(&r);
	run_verb(&r, cmd_status, t, false, "status", END);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "offloaded: 1-3 (source: /sys/devices/system/cpu/rcu_nocbs)\n"
			       "  at boot:   2-3 (boot command line; changed since)\n"
			       "  normal:    0\n");
	run_free(&r);
	run_verb(&r, cmd_status, t, true, "status", END);
	assert_contains(r.out, "\"offloaded\":\"1-3\",\"offloaded_source\":\"rcu_nocbs\","
			       "\"offloaded_at_boot\":\"2-3\"");
	assert_contains(r.out, "\"name\":\"rcuop/1\",\"cpu\":1,\"cpu_offloaded\":true");
	run_free(&r);
	tree_rm(t);
}

/* --- apply: the config's offload line ------------------------------------ */

#define CONF "etc/nocbctl.conf"

/* "nocbctl: <root>/etc/nocbctl.conf:LINE: " and what follows */
static void assert_conf_err(const struct run *r, const char *t, int line,
			    const char *why)
{
	char want[4600];

	snprintf(want, sizeof(want), "nocbctl: %s/" CONF ":%d: %s\n", t, line,
		 why);
	assert_string_equal(r->err, want);
}

static void apply_sets_the_offload_list(void **state)
{
	char *t = k6_pinned();	/* rcu_nocbs 2-3 */
	struct run r;

	(void)state;
	tree_write(t, CONF, "cpus = 0\noffload = 1\n");
	run_verb(&r, cmd_apply, t, false, "apply", END);
	assert_int_equal(r.rc, 0);
	/* exactly the list, in one write, before the re-pin */
	assert_int_equal(mock.n_sysfs, 1);
	assert_string_equal(mock.sysfs_val[0], "1\n");
	assert_nocbs(t, "1\n");
	assert_int_equal(mock.aff_at_sysfs, 0);
	assert_int_equal(mock.n_aff, 6);
	assert_true(mock.sysfs_locked);
	assert_starts(r.out, "CPU 1: offloaded\n"
			     "CPU 2: deoffloaded\n"
			     "CPU 3: deoffloaded\n"
			     "rcu_nocbs: 2-3 -> 1\n");
	assert_contains(r.out, "pin: 6 changed");
	assert_int_equal(r.errlen, 0);
	run_free(&r);
	/* again: the set is right, nothing written; the kthreads re-pinned */
	mock_reset();
	run_verb(&r, cmd_apply, t, false, "apply", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_sysfs, 0);
	assert_starts(r.out, "rcu_nocbs: 1 (nothing to change)\n");
	assert_int_equal(mock.n_aff, 6);
	run_free(&r);
	/* an offload line alone: the kthreads are left alone */
	mock_reset();
	tree_write(t, CONF, "offload = 1-3\n");
	run_verb(&r, cmd_apply, t, false, "apply", END);
	assert_int_equal(r.rc, 0);
	assert_nocbs(t, "1-3\n");
	assert_int_equal(mock.n_aff + mock.n_sched + mock.n_nice, 0);
	assert_contains(r.out, "sets no pin or prio: offload kthreads left as they are\n");
	run_free(&r);
	/* empty: no CPU offloaded */
	mock_reset();
	tree_write(t, CONF, "offload =\n");
	run_verb(&r, cmd_apply, t, false, "apply", END);
	assert_int_equal(r.rc, 0);
	assert_string_equal(mock.sysfs_val[0], "\n");
	assert_nocbs(t, "\n");
	assert_contains(r.out, "rcu_nocbs: 1-3 -> -\n");
	run_free(&r);
	tree_rm(t);
}

/* No offload line, or --no-offload: the no-CBs CPUs are not touched. */
static void apply_leaves_offload_alone(void **state)
{
	char *t = k6_pinned();
	struct run r;

	(void)state;
	tree_write(t, CONF, "cpus = 0\n");
	run_verb(&r, cmd_apply, t, true, "apply", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_sysfs, 0);
	assert_contains(r.out, "{\"command\":\"apply\",\"dry_run\":false,"
			       "\"offload\":null,\"config\":");
	assert_int_equal(mock.n_aff, 6);
	run_free(&r);
	mock_reset();
	tree_write(t, CONF, "cpus = 0\noffload = 1-3\n");
	run_verb(&r, cmd_apply, t, false, "apply", "--no-offload", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_sysfs, 0);
	assert_nocbs(t, "2-3\n");
	assert_not_contains(r.out, "rcu_nocbs");
	assert_int_equal(mock.n_aff, 6);
	run_free(&r);
	/* the offload verbs change the set they are given, whatever the file says */
	mock_reset();
	run_verb(&r, cmd_offload, t, false, "offload", "1", END);
	assert_int_equal(r.rc, 0);
	assert_nocbs(t, "1-3\n");
	run_free(&r);
	run_verb(&r, cmd_deoffload, t, false, "deoffload", "1", END);
	assert_int_equal(r.rc, 0);
	assert_nocbs(t, "2-3\n");
	run_free(&r);
	tree_rm(t);
}

static void apply_offload_dry_run(void **state)
{
	char *t = tree_copy("k6");
	struct run r;

	(void)state;
	tree_write(t, CONF, "cpus = 0\noffload = 1,3\n");
	run_verb(&r, cmd_apply, t, false, "apply", "--dry-run", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_sysfs + mock.n_aff, 0);
	assert_nocbs(t, "2-3\n");
	assert_starts(r.out, "CPU 1: would offload\n"
			     "CPU 2: would deoffload\n"
			     "rcu_nocbs (dry run): 2-3 -> 1,3\n");
	assert_int_equal(count_substr(r.out, "would change (0-3 -> 0)"), 6);
	run_free(&r);
	run_verb(&r, cmd_apply, t, true, "apply", "-n", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(mock.n_sysfs, 0);
	assert_contains(r.out, "{\"command\":\"apply\",\"dry_run\":true,"
			       "\"offload\":{\"list\":\"1,3\",\"source\":\"rcu_nocbs\","
			       "\"before\":\"2-3\",\"after\":\"1,3\","
			       "\"cpus\":[{\"cpu\":1,\"result\":\"would-offload\"},"
			       "{\"cpu\":2,\"result\":\"would-deoffload\"}],"
			       "\"written\":false,\"result\":\"would-change\"},"
			       "\"config\":");
	run_free(&r);
	tree_rm(t);
}

static void apply_offload_json(void **state)
{
	char *t = k6_pinned();
	struct run r;

	(void)state;
	tree_write(t, CONF, "offload = 1-3\n");
	run_verb(&r, cmd_apply, t, true, "apply", END);
	assert_int_equal(r.rc, 0);
	assert_int_equal(count_substr(r.out, "\n"), 1);
	assert_contains(r.out, "\"offload\":{\"list\":\"1-3\",\"source\":\"rcu_nocbs\","
			       "\"before\":\"2-3\",\"after\":\"1-3\","
			       "\"cpus\":[{\"cpu\":1,\"result\":\"offloaded\"}],"
			       "\"written\":true,\"result\":\"changed\"},"
			       "\"config\":");
	assert_contains(r.out, "\"pin\":null,\"prio\":null}\n");
	run_free(&r);
	run_verb(&r, cmd_apply, t, true, "apply", END);
	assert_contains(r.out, "\"cpus\":[],\"written\":false,\"result\":\"unchanged\"}");
	run_free(&r);
	tree_rm(t);
}

/* Bad values: FILE:LINE, exit 2, nothing written, no kthread touched. */
static void apply_offload_config_errors(void **state)
{
	static const struct {
		const char *conf;
		int line;
		const char *why;
	} bad[] = {
		{ "cpus = 0\noffload = 0\n", 2,
		  "offload: CPU 0: the boot CPU is never a no-CBs CPU (K4)" },
		{ "offload = 0-3\ncpus = 0\n", 1,
		  "offload: CPU 0: the boot CPU is never a no-CBs CPU (K4)" },
		{ "offload = all\n", 1,
		  "offload: CPU 0: the boot CPU is never a no-CBs CPU (K4)" },
		{ "offload = 7\n", 1, "offload: CPU 7 is not a possible CPU (0-3)" },
		{ "offload = 1-3:2\n", 1,
		  "offload: ':2' needs a group: ':USED/GROUP', e.g. 0-7:1/2 for every second CPU" },
		{ "offload = garbage\n", 1, "offload: CPU number expected at 'g'" },
		{ "offload = 1\noffload = 2\n", 2, "duplicate key 'offload' (first on line 1)" },
		/* the other keys are checked before anything changes too */
		{ "offload = 1\npolicy = fifo\n", 2, "policy fifo needs priority 1-99" },
	};
	char *t = k6_pinned();
	struct run r;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		for (int json = 0; json < 2; json++) {
			mock_reset();
			tree_write(t, CONF, bad[i].conf);
			run_verb(&r, cmd_apply, t, json, "apply", END);
			if (r.rc != 2)
				fail_msg("'%s': exit %d\n%s", bad[i].conf, r.rc,
					 r.err);
			assert_conf_err(&r, t, bad[i].line, bad[i].why);
			assert_int_equal(r.outlen, 0);
			assert_int_equal(mock.n_sysfs + mock.n_aff +
					 mock.n_sched + mock.n_nice, 0);
			run_free(&r);
		}
	}
	/* a CPU the kernel has no switch for: possible, not present */
	tree_write(t, "sys/devices/system/cpu/present", "0-2\n");
	tree_write(t, CONF, "cpus = 0\noffload = 2-3\n");
	run_verb(&r, cmd_apply, t, false, "apply", END);
	assert_int_equal(r.rc, 2);
	assert_conf_err(&r, t, 2, "offload: CPU 3 not present (present: 0-2)");
	run_free(&r);
	/* offload and deoffload check the whole file as well */
	run_verb(&r, cmd_offload, t, false, "offload", "1", END);
	assert_int_equal(r.rc, 2);
	assert_conf_err(&r, t, 2, "offload: CPU 3 not present (present: 0-2)");
	run_free(&r);
	assert_int_equal(mock.n_sysfs + mock.n_aff, 0);
	assert_nocbs(t, "2-3\n");
	tree_rm(t);
}

/*
 * The kernel cannot take the list: the reason on one line, named by the
 * file's line; the kthreads are still pinned; the offload step's status.
 */
static void apply_offload_refused(void **state)
{
	static const struct {
		int err, rc;
		const char *why;
	} cases[] = {
		{ EOPNOTSUPP, 3, "offload: the kernel refused (EOPNOTSUPP): it was booted without rcu_nocbs; boot once with bare rcu_nocbs" },
		{ EBUSY, 1, "offload: the kernel refused no-CBs CPUs '1-3' (EBUSY): no online normal CPU would be left (K3)" },
		/* not 2: the list passed every check nocbctl knows of */
		{ EINVAL, 1, "offload: the kernel refused no-CBs CPUs '1-3' (EINVAL)" },
		{ EIO, 1, "offload: writing '1-3' to " },
	};
	char *t = k6_pinned();
	char prefix[4400];
	struct run r;

	(void)state;
	snprintf(prefix, sizeof(prefix), "nocbctl: apply: %s/" CONF ":2: ", t);
	tree_write(t, CONF, "cpus = 0\noffload = 1-3\n");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		mock_reset();
		mock.sysfs_err = cases[i].err;
		run_verb(&r, cmd_apply, t, false, "apply", END);
		if (r.rc != cases[i].rc)
			fail_msg("errno %d: exit %d, expected %d", cases[i].err,
				 r.rc, cases[i].rc);
		assert_int_equal(mock.n_sysfs, 1);
		assert_starts(r.err, prefix);
		assert_contains(r.err, cases[i].why);
		assert_contains(r.err, "; rcu_nocbs still reads '2-3'\n");
		assert_int_equal(count_substr(r.err, "\n"), 1);
		/* no offload line on stdout, the pin as usual */
		assert_starts(r.out, "rcuog/0 ");
		assert_int_equal(mock.n_aff, 6);
		run_free(&r);
	}
	/* JSON says it failed, and still holds the pin */
	mock_reset();
	mock.sysfs_err = EBUSY;
	run_verb(&r, cmd_apply, t, true, "apply", END);
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "\"offload\":{\"list\":\"1-3\",\"source\":\"rcu_nocbs\","
			       "\"before\":\"2-3\",\"after\":null,\"cpus\":[],"
			       "\"written\":false,\"result\":\"failed\"}");
	assert_contains(r.out, "\"changed\":6");
	run_free(&r);
	/* read back another set than written */
	mock_reset();
	mock.sysfs_ignore = true;
	run_verb(&r, cmd_apply, t, false, "apply", END);
	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "offload: wrote '1-3' but ");
	assert_int_equal(mock.n_aff, 6);
	run_free(&r);
	/* a thread that cannot be pinned after a good change: exit 1 */
	mock_reset();
	mock.fail_pid[0] = 14;
	mock.fail_err[0] = EPERM;
	run_verb(&r, cmd_apply, t, false, "apply", END);
	assert_int_equal(r.rc, 1);
	assert_nocbs(t, "1-3\n");
	run_free(&r);
	tree_rm(t);
}

/* K3: CPU 0 offline, and the list takes every online CPU. */
static void apply_offload_k3(void **state)
{
	char *t = k6_pinned();
	char want[4600];
	struct run r;

	(void)state;
	tree_write(t, "sys/devices/system/cpu/online", "1-3\n");
	tree_write(t, "sys/devices/system/cpu/offline", "0\n");
	tree_write(t, CONF, "offload = 1-3\ncpus = 1\n");
	/* no CPU is safe for the kthreads then: --force, to reach K3 */
	run_verb(&r, cmd_apply, t, false, "apply", "--force", END);
	assert_int_equal(r.rc, 1);
	snprintf(want, sizeof(want),
		 "nocbctl: apply: %s/" CONF ":1: offload: CPU 1: the last online normal CPU; offloading it would leave no online CPU to process callbacks itself (K3)\n",
		 t);
	assert_contains(r.err, want);
	assert_int_equal(mock.n_sysfs, 0);
	assert_nocbs(t, "2-3\n");
	assert_int_equal(mock.n_aff, 6);	/* pinned all the same */
	assert_string_equal(mock.aff_cpus[0], "1");
	run_free(&r);
	/* one normal online CPU left: fine */
	mock_reset();
	tree_write(t, CONF, "offload = 2-3\ncpus = 1\n");
	run_verb(&r, cmd_apply, t, false, "apply", END);
	assert_int_equal(r.rc, 0);
	run_free(&r);
	tree_rm(t);
}

/* Missing privilege: exit 4 before anything changes, no JSON. */
static void apply_offload_needs_write_access(void **state)
{
	char *t = k6_pinned();
	struct run r;

	(void)state;
	mock.have_cap = false;	/* no write access either */
	tree_write(t, CONF, "offload = 1-3\n");
	run_verb(&r, cmd_apply, t, true, "apply", END);
	assert_int_equal(r.rc, 4);
	assert_contains(r.err, "offload: ");
	assert_contains(r.err, "rcu_nocbs: Permission denied (run as root)\n");
	assert_int_equal(r.outlen, 0);
	run_free(&r);
	/* with pin or prio, CAP_SYS_NICE is missing first */
	tree_write(t, CONF, "offload = 1-3\ncpus = 0\n");
	run_verb(&r, cmd_apply, t, false, "apply", "--dry-run", END);
	assert_int_equal(r.rc, 4);
	assert_contains(r.err, "CAP_SYS_NICE");
	run_free(&r);
	/* nothing to change needs no write access */
	tree_write(t, CONF, "offload = 2-3\n");
	run_verb(&r, cmd_apply, t, false, "apply", END);
	assert_int_equal(r.rc, 0);
	run_free(&r);
	assert_int_equal(mock.n_sysfs + mock.n_aff, 0);
	assert_nocbs(t, "2-3\n");
	tree_rm(t);
}

/*
 * No K6: apply succeeds when the kernel's no-CBs CPUs are the list
 * already, and otherwise exits 3 saying what they are and what to boot
 * with; the kthreads are pinned either way.
 */
static void apply_offload_without_k6(void **state)
{
	char *t = tree_copy("cpu4");	/* rcudata: 1-3 offloaded */
	char want[4800];
	struct run r;

	(void)state;
	tree_write(t, CONF, "cpus = 0\noffload = 1-3\n");
	run_verb(&r, cmd_apply, t, false, "apply", END);
	assert_int_equal(r.rc, 0);
	assert_starts(r.out, "rcu_nocbs: 1-3 (nothing to change; read from rcudata)\n");
	assert_int_equal(mock.n_aff, 6);
	assert_int_equal(r.errlen, 0);
	run_free(&r);
	mock_reset();
	tree_write(t, CONF, "cpus = 0\noffload = 2-3\n");
	run_verb(&r, cmd_apply, t, false, "apply", END);
	assert_int_equal(r.rc, 3);
	snprintf(want, sizeof(want),
		 "nocbctl: apply: %s/" CONF ":2: offload: /sys/devices/system/cpu/rcu_nocbs is missing: this kernel cannot change no-CBs CPUs at run time (no K6): a nocb series without runtime offload (rcudata, K2, is there); the no-CBs CPUs are 1-3 (rcudata); boot with rcu_nocbs=2-3 instead\n",
		 t);
	assert_string_equal(r.err, want);
	assert_starts(r.out, "rcuog/0 ");
	assert_int_equal(mock.n_aff, 6);
	assert_false(tree_exists(t, NOCBS));
	run_free(&r);
	run_verb(&r, cmd_apply, t, true, "apply", "--dry-run", END);
	assert_int_equal(r.rc, 3);
	assert_contains(r.out, "\"offload\":{\"list\":\"2-3\",\"source\":\"rcudata\","
			       "\"before\":\"1-3\",\"after\":null,\"cpus\":[],"
			       "\"written\":false,\"result\":\"failed\"}");
	run_free(&r);
	tree_rm(t);
	/* a stock kernel: what its command line made it */
	t = tree_copy("norcudata");	/* rcu_nocbs=2-3 nohz_full=3 */
	mock_reset();
	tree_write(t, CONF, "offload = 2-3\n");
	run_verb(&r, cmd_apply, t, false, "apply", END);
	assert_int_equal(r.rc, 0);
	assert_starts(r.out, "rcu_nocbs: 2-3 (nothing to change; read from the boot command line)\n");
	run_free(&r);
	tree_write(t, CONF, "offload =\n");
	/* CPU 3 is nohz_full: --force past the rule, to reach the kernel */
	run_verb(&r, cmd_apply, t, false, "apply", "--force", END);
	assert_int_equal(r.rc, 3);
	assert_contains(r.err, "a stock kernel (no rcudata either); the no-CBs CPUs are 2-3 (the boot command line); boot with neither rcu_nocbs= nor nohz_full= instead\n");
	run_free(&r);
	/* no way to tell: no rcudata and no /proc/cmdline */
	tree_rm(t);
	t = tree_copy("norcudata");
	snprintf(want, sizeof(want), "%s/proc/cmdline", t);
	assert_int_equal(remove(want), 0);
	tree_write(t, CONF, "offload = 2-3\n");
	/* unknown before: CPU 2 counts as newly offloaded; --force past it */
	run_verb(&r, cmd_apply, t, false, "apply", "--force", END);
	assert_int_equal(r.rc, 3);
	assert_contains(r.err, "; which CPUs are no-CBs CPUs is not known; boot with rcu_nocbs=2-3 instead\n");
	run_free(&r);
	assert_int_equal(mock.n_sysfs, 0);
	tree_rm(t);
}

int run_offload_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(offload_adds_to_the_set, setup),
		cmocka_unit_test_setup(deoffload_removes_from_the_set, setup),
		cmocka_unit_test_setup(kernel_list_syntax, setup),
		cmocka_unit_test_setup(dry_run_writes_nothing, setup),
		cmocka_unit_test_setup(refusals_before_any_write, setup),
		cmocka_unit_test_setup(every_cpu_but_0_is_fine, setup),
		cmocka_unit_test_setup(no_k6_exits_3, setup),
		cmocka_unit_test_setup(kernel_errno_to_exit_code, setup),
		cmocka_unit_test_setup(needs_privilege, setup),
		cmocka_unit_test_setup(repins_after_the_change, setup),
		cmocka_unit_test_setup(bad_config_changes_nothing, setup),
		cmocka_unit_test_setup(json_report, setup),
		cmocka_unit_test_setup(reads_back_what_it_wrote, setup),
		cmocka_unit_test_setup(locked_while_writing, setup),
		cmocka_unit_test_setup(list_longer_than_a_page, setup),
		cmocka_unit_test_setup(status_shows_the_change, setup),
		cmocka_unit_test_setup(apply_sets_the_offload_list, setup),
		cmocka_unit_test_setup(apply_leaves_offload_alone, setup),
		cmocka_unit_test_setup(apply_offload_dry_run, setup),
		cmocka_unit_test_setup(apply_offload_json, setup),
		cmocka_unit_test_setup(apply_offload_config_errors, setup),
		cmocka_unit_test_setup(apply_offload_refused, setup),
		cmocka_unit_test_setup(apply_offload_k3, setup),
		cmocka_unit_test_setup(apply_offload_needs_write_access, setup),
		cmocka_unit_test_setup(apply_offload_without_k6, setup),
	};

	return cmocka_run_group_tests_name("offload", tests, NULL, NULL);
}
