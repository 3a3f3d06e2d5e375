/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctx.h - the one context struct every verb and library call receives.
 *
 * nocbctl keeps no global state: the root prefix, output format, output
 * streams and the system-call table ("ops") all live here, so tests can
 * redirect output to memory streams and replace syscalls with fakes.
 */
#ifndef NOCB_CTX_H
#define NOCB_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Exit codes (SPEC section 3). */
enum nocb_exit {
	NOCB_EXIT_OK = 0,	/* success */
	NOCB_EXIT_FAIL = 1,	/* a check or an operation failed */
	NOCB_EXIT_USAGE = 2,	/* usage or input error */
	NOCB_EXIT_UNSUPP = 3,	/* not supported by this kernel */
	NOCB_EXIT_PRIV = 4,	/* missing privilege */
};

struct cpulist;

/*
 * Everything nocbctl does to the system goes through this table.
 * Each function returns 0 or a negative errno.
 */
struct nocb_ops {
	int (*set_affinity)(pid_t pid, const struct cpulist *cpus);
	int (*set_scheduler)(pid_t pid, int policy, int priority);
	int (*set_nice)(pid_t pid, int nice);
	/* write "0"/"1" to path (already root-prefixed) */
	int (*write_online)(const char *path, bool online);
	/* write the string s to path (root-prefixed) in one write(2) */
	int (*write_sysfs)(const char *path, const char *s);
	/* 1 if the capability is in the effective set, 0 if not, <0 error */
	int (*have_cap)(int cap);
	/* 0 if we may write path (effective ids and capabilities), or -errno */
	int (*may_write)(const char *path);
};

extern const struct nocb_ops nocb_real_ops;

struct nocb_ctx {
	const char *root;	/* prefix for /proc, /sys, /run; "" = none */
	bool json;		/* --json */
	FILE *out;		/* normal output (stdout) */
	FILE *err;		/* diagnostics (stderr) */
	const struct nocb_ops *ops;
	/*
	 * Set by main() for a fixture --root: its pids are not the
	 * processes they name, so changing threads needs --dry-run.
	 */
	bool fixture_pids;
};

void nocb_ctx_init(struct nocb_ctx *ctx);

/* True when --root points somewhere other than the real root. */
bool nocb_ctx_has_fixture_root(const struct nocb_ctx *ctx);

/* Build root-prefixed path; returns 0 or -ENAMETOOLONG. */
int nocb_path(const struct nocb_ctx *ctx, char *buf, size_t len,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Read a whole file (path NOT prefixed; caller prefixes). The buffer is
 * NUL-terminated; *lenp (if non-NULL) excludes the terminator.
 * Returns 0 or negative errno. Caller frees *bufp.
 */
int nocb_read_file(const char *path, char **bufp, size_t *lenp);

/*
 * Replace path (NOT prefixed) with len bytes of buf, mode 0644, so that
 * a reader sees the old file or the new one, never a part: a temporary
 * file in the same directory, written, fsync'd and renamed over path.
 * Returns 0 or negative errno (the temporary file is then removed).
 */
int nocb_write_file_atomic(const char *path, const char *buf, size_t len);

/* Print "nocbctl: WHAT: WHY\n" to ctx->err. */
void nocb_err(const struct nocb_ctx *ctx, const char *what,
	      const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * What to tell the user after a failed write of errno err: " (run as
 * root)" for EACCES/EPERM, a read-only /sys (a container) for EROFS,
 * "" otherwise.
 */
const char *nocb_access_hint(int err);

/* errno err (either sign) means "not allowed here": EACCES, EPERM, EROFS. */
bool nocb_access_denied(int err);

/* Check a capability; on failure prints the error and returns exit 4. */
int nocb_require_cap(const struct nocb_ctx *ctx, const char *verb, int cap,
		     const char *capname);

/*
 * Before pin, prio or apply change threads: 2 (usage) for fixture pids
 * without dry_run, 4 without CAP_SYS_NICE (also for a dry run, so that
 * it answers "would this work?"), else 0. Prints the error.
 */
int nocb_may_act(const struct nocb_ctx *ctx, const char *verb, bool dry_run);



/*
 * Strict decimal integer in [lo,hi]: an optional '-', digits, nothing
 * else. 0, or -1 (out untouched). Every integer nocbctl reads goes here.
 */
int nocb_parse_int(const char *s, long lo, long hi, int *out);
#endif
