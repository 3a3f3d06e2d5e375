/* SPDX-License-Identifier: GPL-2.0 */
/* fixture.h - helpers shared by the cmocka tests. */
#ifndef NOCB_TEST_FIXTURE_H
#define NOCB_TEST_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <cmocka.h>

#include "ctx.h"
#include "cpulist.h"

/* Path of a committed fixture tree (NOCB_FIXTURES or tests/fixtures). */
const char *fx(const char *name);

/* Copy a fixture into a fresh temporary directory; returns malloc'd path. */
char *tree_copy(const char *name);
void tree_write(const char *root, const char *rel, const char *content);
/* Returns malloc'd contents or NULL if missing. */
char *tree_read(const char *root, const char *rel);
bool tree_exists(const char *root, const char *rel);
void tree_rm(char *root);	/* removes and frees */

/* Recording fake for struct nocb_ops. */
#define MOCK_MAX 256
struct mock {
	bool have_cap;
	int n_aff, n_sched, n_nice, n_online;
	pid_t aff_pid[MOCK_MAX];
	char *aff_cpus[MOCK_MAX];	/* whole lists, freed by mock_reset() */
	pid_t sched_pid[MOCK_MAX];
	int sched_policy[MOCK_MAX], sched_prio[MOCK_MAX];
	int nice_val[MOCK_MAX];
	char online_log[MOCK_MAX][128];	/* "cpuN=V" */
	pid_t fail_pid[4];
	int fail_err[4];
	const char *ebusy_suffix;	/* write_online(0) on it: -EBUSY */
	const char *raise_suffix;	/* write_online(0) on it raises raise_sig */
	int raise_sig;			/* 0: SIGTERM */
	const char *state_file;		/* must exist at first write_online */
	bool state_seen_at_first_write;
	int n_offlined;			/* successful write_online(0) calls */
	int kill_at_offline;		/* SIGKILL after this many (0: never) */
	/* a change to pid recycle_after writes recycle_stat to recycle_path */
	pid_t recycle_after;
	const char *recycle_path, *recycle_stat;
	/*
	 * write_sysfs: each value written; it fails with sysfs_err, or
	 * with sysfs_ignore leaves the file alone, else writes it
	 */
	int n_sysfs;
	char *sysfs_val[MOCK_MAX];	/* whole values, as aff_cpus */
	int sysfs_err;
	bool sysfs_ignore;
	bool sysfs_locked;	/* another open file held an flock at the write */
	int aff_at_sysfs;	/* n_aff at the last write */
};
extern struct mock mock;
extern const struct nocb_ops mock_ops;
void mock_reset(void);

/* A context writing to memory streams. */
struct run {
	struct nocb_ctx ctx;
	char *out, *err;
	size_t outlen, errlen;
	int rc;
};

/*
 * Run verb fn with the NULL-terminated argument list (verb name first)
 * against root (NULL = real root) with mock ops; json selects --json.
 */
void run_verb(struct run *r, int (*fn)(struct nocb_ctx *, int, char **),
	      const char *root, bool json, ...);
void run_free(struct run *r);

/* Ends run_verb() argument lists (a typed NULL for varargs). */
#define END ((const char *)NULL)

/* cmocka-friendly substring assertion */
#define assert_contains(hay, needle) \
	do { \
		if (!strstr((hay), (needle))) \
			fail_msg("expected \"%s\" in:\n%s", (needle), (hay)); \
	} while (0)
#define assert_not_contains(hay, needle) \
	do { \
		if (strstr((hay), (needle))) \
			fail_msg("unexpected \"%s\" in:\n%s", (needle), (hay)); \
	} while (0)

int count_substr(const char *hay, const char *needle);

int run_lib_tests(void);
int run_verb_tests(void);
int run_syscall_tests(void);
int run_offload_tests(void);
int run_plan_tests(void);

#endif
