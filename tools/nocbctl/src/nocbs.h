/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nocbs.h - changing the no-CBs CPUs of the running kernel (K6) through
 * its rcu_nocbs file (src/nocbs.c): lock, read, compute and check the
 * new set, write it, and report apply's offload step.
 *
 * Used by offload and deoffload (src/cmd_offload.c) and by apply's
 * offload step (src/cmd_apply.c).
 */
#ifndef NOCB_NOCBS_H
#define NOCB_NOCBS_H

#include "ctx.h"
#include "cpulist.h"
#include "json.h"
#include "sysfs.h"

struct apply_plan;

/*
 * How nocbctl changes the no-CBs CPUs (src/nocbs.c): offload adds
 * LIST to them, deoffload removes it, apply makes them exactly the
 * file's offload list. One code path: the set is checked (K3), then
 * written whole, once, under an flock(2) held to the end of the re-pin.
 */
enum nocbs_mode { NOCBS_ADD, NOCBS_REMOVE, NOCBS_SET };

struct nocbs_change {
	struct nocb_ctx *ctx;
	const char *verb;		/* prefix of every error */
	enum nocbs_mode mode;
	bool dry_run;
	bool force;			/* --force: past the placement rule */
	const char *arg;		/* LIST as given */
	const struct cpu_state *cs;
	struct cpulist list, before, after;
	bool known;			/* before is the kernel's view */
	const char *source;		/* where before comes from */
	bool changed, written;
	int fd;				/* RCU_NOCBS_PATH, locked; -1 */
	int rc;				/* NOCBS_SET: the step failed (exit code) */
	char path[4096];		/* root-prefixed RCU_NOCBS_PATH */
	char what[4200];		/* NOCBS_SET: "apply: FILE:LINE: offload" */
};

/*
 * Open and (unless dry run) lock RCU_NOCBS_PATH into c->fd: 0; -ENOENT,
 * said by no one, when the kernel has no K6; else the exit code after
 * the error.
 */
int nocbs_open_locked(struct nocbs_change *c);
/* No RCU_NOCBS_PATH (no K6): say so and which kernel this is; exit 3. */
int nocbs_unsupported(const struct nocbs_change *c);
/*
 * With the file open and locked: what it holds, the new set (offload
 * adds LIST, deoffload removes it, apply sets it) and K3 for it.
 */
int nocbs_plan_change(struct nocbs_change *c);
/* Write access to RCU_NOCBS_PATH: 0, or the exit code after the error. */
int nocbs_check_access(const struct nocbs_change *c);
/*
 * Write the whole new set once, and read back what the kernel holds:
 * 0, or the exit code after the error.
 */
int nocbs_write_set(const struct nocbs_change *c);
/*
 * What happens to one CPU, in text ("already offloaded"): a CPU of LIST
 * for offload and deoffload, a CPU that changes for apply.
 */
const char *nocbs_cpu_result(const struct nocbs_change *c, int cpu);

/*
 * apply's offload step, before anything is printed or changed: lock
 * rcu_nocbs, read it, check the new set (K3) and the write access. A
 * missing privilege returns 4 (nothing may change then); a kernel that
 * cannot take the set (no K6 and not already so, K3) is said on ctx->err
 * and left in c->rc, for apply to pin all the same. c->fd is -1 or open:
 * offload_step_end() closes it.
 */
int offload_step_begin(struct nocbs_change *c, struct nocb_ctx *ctx,
		       const struct apply_plan *p, const struct cpu_state *cs,
		       bool dry_run);
/*
 * Write the set (unless dry run or c->rc) and report it: text, or with
 * j the value of the caller's "offload" key. Returns c->rc.
 */
int offload_step_run(struct nocbs_change *c, struct json *j);
/* Release the lock: after the re-pin. */
void offload_step_end(struct nocbs_change *c);

#endif
