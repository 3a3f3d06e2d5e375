/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rcudata.h - parser for /sys/kernel/debug/rcu/rcudata (K2).
 *
 * One line per CPU that has ever been online:
 *   "%3d%s ql=%ld/%ld b=%ld ci=%lu nci=%lu co=%lu ca=%lu"
 * flags: '!' offline, 'N' callbacks offloaded. Unknown key=value fields
 * are tolerated; ql= and ci= are required; the rest are optional.
 */
#ifndef NOCB_RCUDATA_H
#define NOCB_RCUDATA_H

#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"

#define RCUDATA_PATH "/sys/kernel/debug/rcu/rcudata"

struct rcudata_cpu {
	int cpu;
	bool offline;		/* '!' */
	bool offloaded;		/* 'N' */
	long lazy, total;	/* ql=LAZY/TOTAL */
	long blimit;		/* b= */
	unsigned long ci, nci, co, ca;
	bool have_nci;		/* K1: separate accounting present */
	bool have_co, have_ca;	/* co=, ca= present */
};

struct rcudata {
	size_t n;
	struct rcudata_cpu *cpus;	/* sorted as in the file */
};

/*
 * Parse len bytes. Returns 0, or -1 with "line N: why" in err (and
 * nothing allocated). Caller calls rcudata_free() on success.
 */
int rcudata_parse(const char *buf, size_t len, struct rcudata *rd, char *err,
		  size_t errlen);
void rcudata_free(struct rcudata *rd);
const struct rcudata_cpu *rcudata_find(const struct rcudata *rd, int cpu);

/* Result of reading the file. */
enum rcudata_status {
	RCUDATA_OK,
	RCUDATA_ABSENT,		/* file (or debugfs) not there */
	RCUDATA_UNREADABLE,	/* e.g. EACCES */
	RCUDATA_MALFORMED,
	RCUDATA_DENIED,		/* EACCES/EPERM: needs root */
};

/*
 * Is debugfs mounted at root-prefixed /sys/kernel/debug (the directory
 * holds anything)? Then a missing rcudata means a kernel without it.
 */
bool rcudata_debugfs_mounted(const struct nocb_ctx *ctx);

/*
 * Does root-prefixed /proc/filesystems lack debugfs (a kernel built
 * without it)? False when the file cannot be read.
 */
bool rcudata_no_debugfs(const struct nocb_ctx *ctx);

/* Read root-prefixed rcudata; on error, err explains. */
enum rcudata_status rcudata_read(const struct nocb_ctx *ctx,
				 struct rcudata *rd, char *err, size_t errlen);

#endif
