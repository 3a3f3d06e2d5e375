// SPDX-License-Identifier: GPL-2.0
/* test_lib.c - the shared library: parsers, sysfs and /proc on fixtures. */
#define _GNU_SOURCE
#include "fixture.h"
#include "cpulist_ktable.h"
#include "config.h"
#include "json.h"
#include "offload.h"
#include "proc.h"
#include "rcudata.h"
#include "sysfs.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char err[512];

static void fmt(const struct cpulist *s, char *buf)
{
	cpulist_format(s, buf, 256);
}

/* --- cpulist ----------------------------------------------------------- */

/*
 * The kernel's verdicts (tests/cpulist_ktable.h, recorded from the
 * kernel's bitmap_parselist()): same return value, same set, and an
 * error always has a one-line reason.
 */
static void cpulist_kernel_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_KTABLE; i++) {
		const struct ktable_row *t = &ktable[i];
		struct cpulist s;
		char *got;
		int rc;

		err[0] = '\0';
		rc = cpulist_parse(t->in, t->len, t->nbits, &s, err,
				   sizeof(err));
		if (rc != t->rc)
			fail_msg("row %zu \"%s\" nbits %d: %d, kernel %d (%s)",
				 i, t->in, t->nbits, rc, t->rc, err);
		if (rc) {
			assert_true(err[0] && !strchr(err, '\n'));
			continue;
		}
		got = cpulist_format_alloc(&s);
		assert_non_null(got);
		if (strcmp(got, t->set))
			fail_msg("row %zu \"%s\" nbits %d: {%s}, kernel {%s}",
				 i, t->in, t->nbits, got, t->set);
		free(got);
	}
}

/* The reasons say what is wrong; the caller adds "nocbctl: WHAT: ". */
static void cpulist_messages(void **state)
{
	static const struct {
		const char *in;
		int nbits;
		const char *why;
	} m[] = {
		{ "8-15:2", 16, "':2' needs a group: ':USED/GROUP', e.g. 0-7:1/2" },
		{ "1-3:1", 4, "':1' needs a group" },
		{ "3-1", 4, "range 3-1 is backwards" },
		{ "1-", 4, "range end expected at end" },
		{ "-1", 4, "CPU number expected at '-'" },
		{ "1-2,x", 4, "CPU number expected at 'x'" },
		{ "1x", 4, "unexpected 'x' after 1" },
		{ "1\xff", 4, "unexpected '\\xff' after 1" },
		{ "0-3x", 4, "unexpected 'x' after range 0-3" },
		{ "0-3:5/4", 4, "':5/4' uses more CPUs than the group has" },
		{ "0-3:1/0", 4, "group size 0" },
		{ "99", 4, "CPU 99 is not a possible CPU (0-3)" },
		{ "4294967295", 4, "CPU 4294967295 is too large" },
		{ "4294967296", 4, "number 4294967296 is too large" },
		{ "9000", 0, "CPU 9000 is beyond 8191" },
		{ "all", 0, "\"all\" needs the possible CPUs" },
		{ "N", 0, "\"N\" needs the possible CPUs" },
	};
	struct cpulist s;

	(void)state;
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		assert_int_not_equal(cpulist_parse_str(m[i].in, m[i].nbits, &s,
						       err, sizeof(err)), 0);
		if (!strstr(err, m[i].why))
			fail_msg("'%s': '%s', want '%s'", m[i].in, err,
				 m[i].why);
	}
	/* nbits 0 (a list the kernel printed): plain numbers up to 8191 */
	assert_int_equal(cpulist_parse_str("0-3,8191\n", 0, &s, err,
					   sizeof(err)), 0);
	assert_int_equal(cpulist_count(&s), 5);
}

/* Random sets of up to 8192 CPUs format and parse back to themselves. */
static void cpulist_roundtrip(void **state)
{
	static const int sizes[] = { 300, 4096, 8192 };
	unsigned seed = 12345;

	(void)state;
	for (int t = 0; t < 300; t++) {
		struct cpulist a, b;
		int nb = sizes[t % 3];
		int n = (int)(rand_r(&seed) % (unsigned)nb);
		char *buf;

		cpulist_clear(&a);
		for (int i = 0; i < n; i++)
			cpulist_set(&a, (int)(rand_r(&seed) % (unsigned)nb));
		buf = cpulist_format_alloc(&a);
		assert_non_null(buf);
		assert_int_equal(cpulist_parse_str(buf, nb, &b, err,
						   sizeof(err)), 0);
		assert_true(cpulist_equal(&a, &b));
		free(buf);
	}
}

/*
 * 4096 and 8192 CPUs, every second one and runs of two ("0-1,3-4,...",
 * the longest list such a mask prints: 26 KiB for 8192).
 */
static void cpulist_format_alloc_full(void **state)
{
	static const struct { int nbits, pat; size_t len; } c[] = {
		{ 4096, 2, 9684 }, { 4096, 3, 12913 },
		{ 8192, 2, 19924 }, { 8192, 3, 26568 },
	};
	struct cpulist s, back;
	char *str;

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		cpulist_clear(&s);
		for (int cpu = 0; cpu < c[i].nbits; cpu++)
			if (cpu % c[i].pat == (c[i].pat == 2 ? 1 : 0) ||
			    (c[i].pat == 3 && cpu % 3 == 1))
				cpulist_set(&s, cpu);
		str = cpulist_format_alloc(&s);
		assert_non_null(str);
		assert_int_equal(strlen(str), c[i].len);
		assert_int_equal(strlen(str), cpulist_format(&s, NULL, 0));
		assert_int_equal(cpulist_parse_str(str, c[i].nbits, &back, err,
						   sizeof(err)), 0);
		assert_true(cpulist_equal(&s, &back));
		free(str);
	}
	cpulist_clear(&s);
	str = cpulist_format_alloc(&s);
	assert_non_null(str);
	assert_string_equal(str, "");
	free(str);
}

static void cpulist_validate_msgs(void **state)
{
	struct cpulist s, possible, online;

	(void)state;
	cpulist_parse_str("0-3", 0, &possible, err, sizeof(err));
	cpulist_parse_str("0-1,3", 0, &online, err, sizeof(err));
	cpulist_clear(&s);
	assert_int_equal(cpulist_validate(&s, &possible, &online, err,
					  sizeof(err)), -1);
	assert_contains(err, "empty");
	cpulist_parse_str("2", 0, &s, err, sizeof(err));
	assert_int_equal(cpulist_validate(&s, &possible, &online, err,
					  sizeof(err)), -1);
	assert_contains(err, "not online");
	assert_int_equal(cpulist_validate(&s, &possible, NULL, err,
					  sizeof(err)), 0);
	cpulist_parse_str("0,7", 0, &s, err, sizeof(err));
	assert_int_equal(cpulist_validate(&s, &possible, &online, err,
					  sizeof(err)), -1);
	assert_contains(err, "CPU 7 not possible");
	/* 2048 scattered CPUs: too long for err, so a count and bounds */
	cpulist_parse_str("0-4095", 0, &possible, err, sizeof(err));
	cpulist_parse_str("0-4095:1/2", 4096, &online, err, sizeof(err));
	cpulist_parse_str("0-4095", 4096, &s, err, sizeof(err));
	assert_int_equal(cpulist_validate(&s, &possible, &online, err, 256),
			 -1);
	assert_string_equal(err, "2048 CPUs from 1 to 4095 not online "
			    "(online: 2048 CPUs from 0 to 4094)");
	/* short lists stay whole */
	cpulist_parse_str("0-3,5", 0, &online, err, sizeof(err));
	assert_int_equal(cpulist_validate(&s, &possible, &online, err, 256),
			 -1);
	assert_string_equal(err, "CPU 4,6-4095 not online (online: 0-3,5)");
}

/* --- rcudata ----------------------------------------------------------- */

static void rcudata_good(void **state)
{
	const char *txt =
		"  0 ql=0/3 b=10 ci=1234 nci=0 co=0 ca=0\n"
		"  2!N ql=0/0 b=10 ci=0 nci=99 co=0 ca=0\n"
		"\n"
		"  3N ql=2/7 b=10 ci=5 nci=18446744073709551615 co=1 ca=2 future=x/y\n"
		"100 ql=-1/4 ci=0\n";
	struct rcudata rd;
	const struct rcudata_cpu *c;

	(void)state;
	assert_int_equal(rcudata_parse(txt, strlen(txt), &rd, err,
				       sizeof(err)), 0);
	assert_int_equal(rd.n, 4);
	c = rcudata_find(&rd, 0);
	assert_non_null(c);
	assert_false(c->offloaded);
	assert_false(c->offline);
	assert_int_equal(c->total, 3);
	assert_int_equal(c->ci, 1234);
	assert_true(c->have_nci);
	c = rcudata_find(&rd, 2);
	assert_true(c->offline);
	assert_true(c->offloaded);
	assert_int_equal(c->nci, 99);
	c = rcudata_find(&rd, 3);
	assert_int_equal(c->lazy, 2);
	assert_int_equal(c->total, 7);
	assert_true(c->nci == 18446744073709551615UL);
	assert_int_equal(c->ca, 2);
	c = rcudata_find(&rd, 100);
	assert_int_equal(c->lazy, -1);
	assert_false(c->have_nci);
	assert_null(rcudata_find(&rd, 1));
	rcudata_free(&rd);
}

static void rcudata_malformed(void **state)
{
	static const struct {
		const char *txt, *msg;
	} bad[] = {
		{ "  0 ql=0/3 ci=1\n  1N ql=zz ci=0\n", "line 2" },
		{ "x ql=0/0 ci=0\n", "CPU number" },
		{ "  0X ql=0/0 ci=0\n", "unknown CPU flag" },
		{ "  0N! ql=0/0 ci=0\n", "unknown CPU flag" },
		{ "  0 ql=0/0\n", "missing ci=" },
		{ "  0 ci=0\n", "missing ql=" },
		{ "  0 ql=0/0 ci=-1\n", "bad number" },
		{ "  0 ql=0/0 ci=99999999999999999999999\n", "bad number" },
		{ "  0 ql=0/0 ci=1 ci=2\n", "duplicate" },
		{ "  0 ql=0/0 ci=1 junk\n", "key=value" },
		{ "  0 ql=0/0 ci=\n", "empty value" },
		{ "  0 ql=0/0 ci=0\n  0 ql=0/0 ci=0\n", "listed twice" },
		{ "  0 ql=0/0 ci=0 =3\n", "key=value" },
		{ "99999 ql=0/0 ci=0\n", "out of range" },
	};
	struct rcudata rd;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (rcudata_parse(bad[i].txt, strlen(bad[i].txt), &rd, err,
				  sizeof(err)) != -1)
			fail_msg("accepted: %s", bad[i].txt);
		assert_contains(err, bad[i].msg);
		assert_null(rd.cpus);
	}
	/* embedded NUL */
	assert_int_equal(rcudata_parse("  0 ql=0/0\0ci=0\n", 16, &rd, err,
				       sizeof(err)), -1);
	assert_contains(err, "line 1");
}

static void rcudata_fixtures(void **state)
{
	struct nocb_ctx ctx;
	struct rcudata rd;

	(void)state;
	nocb_ctx_init(&ctx);
	ctx.root = fx("cpu64");
	assert_int_equal(rcudata_read(&ctx, &rd, err, sizeof(err)), RCUDATA_OK);
	assert_int_equal(rd.n, 64);
	assert_true(rcudata_find(&rd, 63)->offloaded);
	assert_int_equal(rcudata_find(&rd, 63)->nci, 6300);
	rcudata_free(&rd);
	ctx.root = fx("norcudata");
	assert_int_equal(rcudata_read(&ctx, &rd, err, sizeof(err)),
			 RCUDATA_ABSENT);
	assert_contains(err, "rcudata");
	ctx.root = fx("malformed");
	assert_int_equal(rcudata_read(&ctx, &rd, err, sizeof(err)),
			 RCUDATA_MALFORMED);
	assert_contains(err, "line 2");
	ctx.root = fx("cpu4-offline");
	assert_int_equal(rcudata_read(&ctx, &rd, err, sizeof(err)), RCUDATA_OK);
	assert_true(rcudata_find(&rd, 2)->offline);
	assert_false(rcudata_find(&rd, 1)->offline);
	rcudata_free(&rd);
}

/* --- config ------------------------------------------------------------ */

static void config_good(void **state)
{
	const char *txt =
		"# nocbctl.conf\n"
		"\n"
		"cpus = 0            # every offload kthread\n"
		"  rcuog.cpus=0-1\n"
		"policy = fifo\n"
		"priority = 1\n";
	struct nocb_config cfg;
	char b[256];
	int line;

	(void)state;
	assert_int_equal(config_parse(txt, strlen(txt), 4, &cfg, &line, err,
				      sizeof(err)), 0);
	assert_int_equal(cfg.line[CFG_CPUS], 3);
	assert_int_equal(cfg.line[CFG_RCUOG_CPUS], 4);
	assert_int_equal(cfg.line[CFG_RCUOP_CPUS], 0);
	fmt(&cfg.rcuog_cpus, b);
	assert_string_equal(b, "0-1");
	assert_int_equal(cfg.policy, SCHED_FIFO);
	assert_int_equal(cfg.priority, 1);
	/* the default file shape */
	txt = "cpus = 0\npolicy = other\npriority = 0\nnice = 0\n";
	assert_int_equal(config_parse(txt, strlen(txt), 4, &cfg, &line, err,
				      sizeof(err)), 0);
	assert_int_equal(cfg.policy, SCHED_OTHER);
	assert_int_equal(cfg.line[CFG_NICE], 4);
	/* empty file: nothing set */
	assert_int_equal(config_parse("", 0, 4, &cfg, &line, err,
				      sizeof(err)), 0);
	assert_int_equal(cfg.line[CFG_CPUS], 0);
}

static void config_errors(void **state)
{
	static const struct {
		const char *txt;
		int line;
		const char *msg;
	} bad[] = {
		{ "cpus = 0\nbogus = 1\n", 2, "unknown key" },
		{ "cpus = 0\n\ncpus = 1\n", 3, "duplicate key" },
		{ "cpus = 0-\n", 1, "cpus:" },
		{ "cpus =\n", 1, "empty value" },
		{ "cpus = # nothing\n", 1, "empty value" },
		{ "cpus 0\n", 1, "KEY = VALUE" },
		{ "= 0\n", 1, "missing key" },
		{ "cpus = 9\n", 1, "not a possible CPU" },
		{ "policy = batch\n", 1, "policy must be" },
		{ "policy = fifo\npriority = 100\n", 2, "priority must be" },
		{ "policy = fifo\n", 1, "needs priority" },
		{ "policy = rr\npriority = 0\n", 2, "needs priority" },
		{ "policy = other\npriority = 5\n", 2, "absent or 0" },
		{ "policy = fifo\npriority = 1\nnice = 3\n", 3, "only for policy other" },
		{ "policy = other\nnice = 20\n", 2, "nice must be" },
		{ "policy = other\nnice = 1x\n", 2, "nice must be" },
		{ "priority = 3\n", 1, "needs a policy" },
		{ "rcuop.cpus = \n", 1, "empty value" },
	};
	struct nocb_config cfg;
	int line;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		line = -1;
		if (config_parse(bad[i].txt, strlen(bad[i].txt), 4, &cfg, &line,
				 err, sizeof(err)) != -1)
			fail_msg("accepted: %s", bad[i].txt);
		assert_contains(err, bad[i].msg);
		if (line != bad[i].line)
			fail_msg("'%s': line %d, expected %d", bad[i].txt, line,
				 bad[i].line);
	}
}

/*
 * offload = LIST: the no-CBs CPUs in the kernel's syntax, empty for none,
 * never CPU 0 (K4); everything else the parser rejects, on its line.
 */
static void config_offload(void **state)
{
	static const struct {
		const char *txt, *want;	/* want NULL: an error */
		int line;
		const char *msg;
	} cases[] = {
		{ "cpus = 0\noffload = 1-3\n", "1-3", 2, NULL },
		{ "offload = 2,,\n", "2", 1, NULL },
		{ "offload = 1-N:1/2  # odd ones\n", "1,3", 1, NULL },
		{ "offload =\n", "", 1, NULL },
		{ "offload = # none\n", "", 1, NULL },
		{ "offload = ,\n", "", 1, NULL },
		{ "offload = 0\n", NULL, 1, "offload: CPU 0: the boot CPU is never a no-CBs CPU (K4)" },
		{ "cpus = 0\noffload = 0-3\n", NULL, 2, "(K4)" },
		{ "offload = all\n", NULL, 1, "(K4)" },
		{ "offload = 4\n", NULL, 1, "offload: CPU 4 is not a possible CPU" },
		{ "offload = 1-\n", NULL, 1, "offload: " },
		{ "offload = 1-3:2\n", NULL, 1, "needs a group" },
		{ "offload = one\n", NULL, 1, "offload: CPU number expected" },
		{ "offload = 1\noffload = 2\n", NULL, 2, "duplicate key 'offload'" },
	};
	struct nocb_config cfg;
	char b[256];
	int line;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *t = cases[i].txt;
		int r = config_parse(t, strlen(t), 4, &cfg, &line, err,
				     sizeof(err));

		if (cases[i].want) {
			if (r)
				fail_msg("'%s' refused: %s", t, err);
			assert_int_equal(cfg.line[CFG_OFFLOAD], cases[i].line);
			fmt(&cfg.offload, b);
			assert_string_equal(b, cases[i].want);
			continue;
		}
		if (r != -1)
			fail_msg("accepted: %s", t);
		assert_contains(err, cases[i].msg);
		assert_int_equal(line, cases[i].line);
	}
	/* absent: line 0 */
	assert_int_equal(config_parse("cpus = 0\n", 9, 4, &cfg, &line, err,
				      sizeof(err)), 0);
	assert_int_equal(cfg.line[CFG_OFFLOAD], 0);
	assert_string_equal(config_key_name(CFG_OFFLOAD), "offload");
}

/* --- /proc parsers ------------------------------------------------------ */

static void proc_status_stat(void **state)
{
	const char *st = "Name:\trcuop/3\nState:\tS\nCpus_allowed:\tf\n"
			 "Cpus_allowed_list:\t0-2\n";
	const char *stat = "17 (rc) (x)) S 2 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 "
			   "-2 -5 1 0 30 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 17 1 "
			   "7 2 0 0 0";
	struct proc_status ps;
	struct proc_stat pst;
	char b[256];

	(void)state;
	assert_int_equal(proc_parse_status(st, strlen(st), 4, &ps, err,
					   sizeof(err)), 0);
	assert_string_equal(ps.name, "rcuop/3");
	fmt(&ps.allowed, b);
	assert_string_equal(b, "0-2");
	assert_int_equal(proc_parse_status("Name:\tx\n", 8, 4, &ps, err,
					   sizeof(err)), -1);
	assert_int_equal(proc_parse_stat(stat, strlen(stat), &pst, err,
					 sizeof(err)), 0);
	assert_string_equal(pst.comm, "rc) (x)");
	assert_true(pst.flags & PF_KTHREAD_FLAG);
	assert_int_equal(pst.nice, -5);
	assert_int_equal(pst.rt_priority, 7);
	assert_int_equal(pst.policy, 2);
	assert_int_equal(proc_parse_stat("1 (x) S 2 3", 11, &pst, err,
					 sizeof(err)), -1);
	assert_contains(err, "fields");
	assert_int_equal(proc_parse_stat("1 x S", 5, &pst, err, sizeof(err)),
			 -1);
}

static void kthread_names(void **state)
{
	int cpu = -1;

	(void)state;
	assert_int_equal(kt_parse_name("rcuog/0", &cpu), KT_RCUOG);
	assert_int_equal(cpu, 0);
	assert_int_equal(kt_parse_name("rcuop/12", &cpu), KT_RCUOP);
	assert_int_equal(cpu, 12);
	assert_int_equal(kt_parse_name("rcuos/3", &cpu), KT_RCUOS);
	assert_int_equal(kt_parse_name("rcuob/4", &cpu), KT_RCUOB);
	assert_int_equal(kt_parse_name("rcuop/", &cpu), 0);
	assert_int_equal(kt_parse_name("rcuop/1a", &cpu), 0);
	assert_int_equal(kt_parse_name("rcu_preempt", &cpu), 0);
	assert_int_equal(kt_parse_name("rcuop/99999", &cpu), 0);
	assert_int_equal(kt_select("rcuo"), KT_ALL);
	assert_int_equal(kt_select("rcuog"), KT_RCUOG);
	assert_int_equal(kt_select("rcuop"), KT_RCUOP);
	assert_int_equal(kt_select("rcu"), 0);
}

static void cmdline_parse(void **state)
{
	const char *c = "BOOT_IMAGE=/vmlinuz rcu_nocbs=1-3 rcu_nocb_poll "
			"nohz_full=2 -- rcu_nocbs=0";
	struct kcmdline kc;
	char b[256];

	(void)state;
	proc_parse_cmdline(c, strlen(c), 4, &kc);
	assert_true(kc.rcu_nocbs);
	assert_true(kc.poll);
	fmt(&kc.nocbs, b);
	assert_string_equal(b, "1-3");	/* "-- rcu_nocbs=0" is for init */
	fmt(&kc.nohz, b);
	assert_string_equal(b, "2");
	proc_parse_cmdline("rcu_nocbs console=x", 19, 4, &kc);
	assert_true(kc.rcu_nocbs);
	assert_true(cpulist_empty(&kc.nocbs));
	assert_false(kc.poll);
	proc_parse_cmdline("rcu_nocbs=9", 11, 4, &kc);
	assert_true(kc.nocbs_bad);
}

/* --- sysfs and /proc on fixture trees ------------------------------------ */

static void sysfs_fixtures(void **state)
{
	struct nocb_ctx ctx;
	struct cpu_state cs;
	char b[256];
	FILE *devnull = fopen("/dev/null", "w");

	(void)state;
	nocb_ctx_init(&ctx);
	ctx.err = devnull;
	ctx.root = fx("cpu1");
	assert_int_equal(sysfs_read_cpus(&ctx, "t", &cs), 0);
	assert_int_equal(cs.nbits, 1);
	assert_int_equal(cpulist_count(&cs.online), 1);
	assert_true(cs.have_nohz_full);
	assert_true(cpulist_empty(&cs.nohz_full));	/* "(null)" */
	ctx.root = fx("cpu4-offline");
	assert_int_equal(sysfs_read_cpus(&ctx, "t", &cs), 0);
	fmt(&cs.offline, b);
	assert_string_equal(b, "2");
	assert_int_equal(sysfs_cpu_online(&ctx, 2), 0);
	assert_int_equal(sysfs_cpu_online(&ctx, 3), 1);
	assert_int_equal(sysfs_cpu_online(&ctx, 0), 1);	/* no file: global */
	assert_false(sysfs_cpu_hotpluggable(&ctx, 0));
	assert_true(sysfs_cpu_hotpluggable(&ctx, 1));
	ctx.root = fx("cpu64");
	assert_int_equal(sysfs_read_cpus(&ctx, "t", &cs), 0);
	assert_int_equal(cs.nbits, 64);
	fmt(&cs.nohz_full, b);
	assert_string_equal(b, "1-63");
	ctx.root = fx("does-not-exist");
	assert_int_equal(sysfs_read_cpus(&ctx, "t", &cs), -1);
	fclose(devnull);
}

static void proc_scan_fixtures(void **state)
{
	struct nocb_ctx ctx;
	struct kthread_list kl;
	char b[256];

	(void)state;
	nocb_ctx_init(&ctx);
	ctx.root = fx("cpu4");
	assert_int_equal(proc_scan_kthreads(&ctx, "t", KT_ALL, 4, &kl), 0);
	assert_int_equal(kl.n, 6);	/* not pid 1, 40 or user "rcuop/7" */
	assert_string_equal(kl.v[0].name, "rcuog/0");
	assert_int_equal(kl.v[0].pid, 12);
	assert_string_equal(kl.v[5].name, "rcuop/3");
	fmt(&kl.v[5].allowed, b);
	assert_string_equal(b, "0-3");
	for (size_t i = 0; i < kl.n; i++)
		assert_int_not_equal(kl.v[i].pid, 900);
	kthread_list_free(&kl);
	assert_int_equal(proc_scan_kthreads(&ctx, "t", KT_RCUOG, 4, &kl), 0);
	assert_int_equal(kl.n, 2);
	kthread_list_free(&kl);
	ctx.root = fx("vanished");
	assert_int_equal(proc_scan_kthreads(&ctx, "t", KT_ALL, 4, &kl), 0);
	assert_int_equal(kl.n, 4);
	assert_int_equal(kl.vanished, 2);
	kthread_list_free(&kl);
	ctx.root = fx("cpu64");
	assert_int_equal(proc_scan_kthreads(&ctx, "t", KT_ALL, 64, &kl), 0);
	assert_int_equal(kl.n, 72);
	assert_int_equal(kl.v[0].policy, SCHED_FIFO);
	assert_int_equal(kl.v[0].rt_priority, 2);
	kthread_list_free(&kl);
}

static void offload_sources(void **state)
{
	struct nocb_ctx ctx;
	struct cpu_state cs;
	struct offload_info *oi = malloc(sizeof(*oi));
	char b[256];

	(void)state;
	assert_non_null(oi);
	nocb_ctx_init(&ctx);
	ctx.root = fx("cpu4-offline");
	assert_int_equal(sysfs_read_cpus(&ctx, "t", &cs), 0);
	offload_read(&ctx, &cs, oi);
	assert_int_equal(oi->source, OFFLOAD_RCUDATA);
	fmt(&oi->offloaded, b);
	assert_string_equal(b, "1-3");
	offload_free(oi);
	ctx.root = fx("norcudata");
	assert_int_equal(sysfs_read_cpus(&ctx, "t", &cs), 0);
	offload_read(&ctx, &cs, oi);
	assert_int_equal(oi->source, OFFLOAD_CMDLINE);
	assert_true(oi->poll);
	fmt(&oi->offloaded, b);
	assert_string_equal(b, "2-3");
	assert_null(oi->nocbs_warning);
	offload_free(oi);
	free(oi);
}

/* A list the kernel rejected: it offloaded every CPU (K4 keeps CPU 0). */
static void offload_bad_cmdline(void **state)
{
	struct nocb_ctx ctx;
	struct cpu_state cs;
	struct offload_info *oi = malloc(sizeof(*oi));
	FILE *errf = tmpfile();
	char b[256];

	(void)state;
	assert_non_null(oi);
	assert_non_null(errf);
	nocb_ctx_init(&ctx);
	ctx.err = errf;
	ctx.root = fx("badnocbs");
	assert_int_equal(sysfs_read_cpus(&ctx, "t", &cs), 0);
	offload_read(&ctx, &cs, oi);
	assert_int_equal(oi->source, OFFLOAD_CMDLINE);
	fmt(&oi->offloaded, b);
	assert_string_equal(b, "0-3");
	assert_non_null(oi->nocbs_warning);
	assert_contains(oi->nocbs_warning, "rcu_nocbs=1-3:2 is not a valid CPU list (");
	assert_contains(oi->nocbs_warning, "): the kernel offloaded all CPUs");
	assert_true(ftell(errf) > 0);	/* said so on stderr */
	offload_free(oi);
	ctx.root = fx("badnocbs-rcudata");
	rewind(errf);
	assert_int_equal(sysfs_read_cpus(&ctx, "t", &cs), 0);
	offload_read(&ctx, &cs, oi);
	assert_int_equal(oi->source, OFFLOAD_RCUDATA);
	fmt(&oi->nocbs, b);
	assert_string_equal(b, "1-3");	/* what the kernel did, K4 */
	assert_contains(oi->nocbs_warning, "all CPUs but CPU 0 (K4)");
	assert_contains(oi->nohz_warning, "nohz_full=3-1 is not a valid CPU list");
	assert_true(cpulist_empty(&oi->nohz));
	offload_free(oi);
	ctx.root = fx("nocbs-commas");
	assert_int_equal(sysfs_read_cpus(&ctx, "t", &cs), 0);
	offload_read(&ctx, &cs, oi);
	fmt(&oi->offloaded, b);
	assert_string_equal(b, "1,3");
	assert_null(oi->nocbs_warning);
	offload_free(oi);
	fclose(errf);
	free(oi);
}

/* --- json -------------------------------------------------------------- */

static void json_writer(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;

	(void)state;
	json_init(&j, f);
	json_obj_begin(&j);
	json_kstr(&j, "a", "q\"\\\n\x01");
	json_key(&j, "b");
	json_arr_begin(&j);
	json_int(&j, -1);
	json_bool(&j, true);
	json_null(&j);
	json_obj_begin(&j);
	json_obj_end(&j);
	json_arr_end(&j);
	json_kuint(&j, "c", 18446744073709551615ULL);
	json_key(&j, "d");
	json_double(&j, 0.0 / 0.0);
	json_obj_end(&j);
	json_end(&j);
	fclose(f);
	assert_string_equal(buf, "{\"a\":\"q\\\"\\\\\\n\\u0001\",\"b\":[-1,true,"
			    "null,{}],\"c\":18446744073709551615,\"d\":null}\n");
	free(buf);
}

/* Bytes that are not UTF-8 become U+FFFD, one each; UTF-8 stays. */
static void json_not_utf8(void **state)
{
	static const struct {
		const char *in, *out;
	} c[] = {
		{ "/etc/x\xff.conf", "\"/etc/x\\ufffd.conf\"" },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		  "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"" },
		{ "\xc3", "\"\\ufffd\"" },			/* cut short */
		{ "\xe2\x82", "\"\\ufffd\\ufffd\"" },
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },		/* overlong '/' */
		{ "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"" },
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },	/* surrogate */
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
		{ "\x80" "a\xbf", "\"\\ufffda\\ufffd\"" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		struct json j;

		assert_non_null(f);
		json_init(&j, f);
		json_str(&j, c[i].in);
		fclose(f);
		assert_string_equal(buf, c[i].out);
		free(buf);
	}
}

int run_lib_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpulist_kernel_table),
		cmocka_unit_test(cpulist_messages),
		cmocka_unit_test(cpulist_roundtrip),
		cmocka_unit_test(cpulist_format_alloc_full),
		cmocka_unit_test(cpulist_validate_msgs),
		cmocka_unit_test(rcudata_good),
		cmocka_unit_test(rcudata_malformed),
		cmocka_unit_test(rcudata_fixtures),
		cmocka_unit_test(config_good),
		cmocka_unit_test(config_errors),
		cmocka_unit_test(config_offload),
		cmocka_unit_test(proc_status_stat),
		cmocka_unit_test(kthread_names),
		cmocka_unit_test(cmdline_parse),
		cmocka_unit_test(sysfs_fixtures),
		cmocka_unit_test(proc_scan_fixtures),
		cmocka_unit_test(offload_sources),
		cmocka_unit_test(offload_bad_cmdline),
		cmocka_unit_test(json_writer),
		cmocka_unit_test(json_not_utf8),
	};

	return cmocka_run_group_tests_name("lib", tests, NULL, NULL);
}
