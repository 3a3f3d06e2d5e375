// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_hotplug_check.c - "nocbctl hotplug-check": confirm K3 (the last
 * normal CPU refuses to go offline) by trying it.
 *
 * Safety: every CPU this command takes offline is listed in a state file
 * (ROOT/run/nocbctl/hotplug-check.state) before the first change, and
 * brought back online before exit. Every asynchronous signal that would
 * end the process (a terminal, a dropped ssh connection, kill(1), a timer,
 * a resource limit, a real-time signal) is blocked for the duration and
 * polled between steps, so it restores the CPUs and then terminates the
 * process; SIGPIPE is ignored, so a closed stdout cannot stop the restore.
 * After SIGKILL the next run finds the state file and restores those CPUs
 * first.
 */
#define _GNU_SOURCE
#include "verbs.h"
#include "offload.h"
#include "sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define STATE_DIR "/run/nocbctl"
#define STATE_FILE STATE_DIR "/hotplug-check.state"
#define LOCK_FILE STATE_DIR "/hotplug-check.lock"

static void hotplug_help(FILE *f)
{
	fputs("\nUsage:\n"
	      " nocbctl hotplug-check [--force]\n"
	      "\nConfirm that the kernel refuses to offline the last online CPU\n"
	      "that is not offloaded. Every CPU touched is brought back\n"
	      "online, also on SIGHUP, SIGINT, SIGTERM and any other signal\n"
	      "sent to end it (which then does), and after SIGKILL on the\n"
	      "next run (from " STATE_FILE ").\n"
	      "Ctrl-Z waits until the CPUs are back.\n"
	      "\nOptions:\n"
	      " -f, --force   first offline the other hot-pluggable normal CPUs\n"
	      " -h, --help    display this help\n"
	      "\nExit status: 0 refused (EBUSY) as it should, 1 the CPU went\n"
	      "offline (the rule is broken) or an error, 2 not the last normal\n"
	      "CPU and no --force, 3 the last normal CPU cannot be hot-removed\n"
	      "at all, 4 no write access to cpuN/online (run as root).\n"
	      "\nFor more details see nocbctl(8).\n", f);
}

/*
 * Signals that end the check: the CPUs are restored first. These are the
 * asynchronous ones whose default action ends the process, and the
 * real-time signals (stop_set()). The synchronous ones (SIGSEGV, SIGBUS,
 * SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT) keep their default: blocking
 * them would not stop a fault, and the state file covers that as it does
 * SIGKILL.
 */
static const int stop_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2,
	SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO,
#ifdef SIGPWR
	SIGPWR,
#endif
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
};
/* Job-control stops: held until the CPUs are back, then they stop us. */
static const int hold_signals[] = { SIGTSTP, SIGTTIN, SIGTTOU };

struct hp {
	struct nocb_ctx *ctx;
	struct json json;
	struct json *j;			/* &json, or NULL for text output */
	char state[4096];
	sigset_t polled;		/* stop signals we blocked and poll */
	struct cpulist normal;		/* online normal CPUs */
	struct cpulist others;		/* normal minus target: offlined first */
	struct cpulist touched;		/* CPUs we took offline */
	int target;			/* the last normal CPU, or -1 */
	const char *result, *why;	/* verdict and reason, as in JSON */
	int ret;			/* exit code */
	int sig;			/* stop signal seen, or 0 */
	bool decided;			/* the attempt on the target was made */
};

/* What run() does after a step. */
enum step {
	STEP_GO,	/* go on to the next step */
	STEP_REPORT,	/* straight to the report: verdict reached */
	STEP_ERROR,	/* stopped before changing anything, error printed */
	STEP_DONE,	/* nothing more to say (not-last) */
};

static int set_online(struct hp *h, int cpu, bool on)
{
	char path[4096];

	if (sysfs_online_path(h->ctx, cpu, path, sizeof(path)))
		return -ENAMETOOLONG;
	return h->ctx->ops->write_online(path, on);
}

/* The stop signals; SIGRTMIN is a run-time value in glibc. */
static void stop_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]);
	     i++)
		sigaddset(set, stop_signals[i]);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaddset(set, sig);
}

/* Stop signal pending? Returns the lowest one's number or 0. */
static int pending_signal(const struct hp *h)
{
	sigset_t p;

	if (sigpending(&p))
		return 0;
	for (int sig = 1; sig <= SIGRTMAX; sig++)
		if (sigismember(&p, sig) == 1 &&
		    sigismember(&h->polled, sig) == 1)
			return sig;
	return 0;
}

/*
 * Block the stop and job-control signals; *old gets the previous mask.
 * A stop signal the caller already blocked or ignores (nohup) is left to
 * the caller: blocked, even an ignored signal would show up as pending.
 */
static void block_signals(struct hp *h, sigset_t *old)
{
	sigset_t stop, set;

	stop_set(&stop);
	set = stop;
	sigemptyset(&h->polled);
	for (size_t i = 0; i < sizeof(hold_signals) / sizeof(hold_signals[0]);
	     i++)
		sigaddset(&set, hold_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
	for (int sig = 1; sig <= SIGRTMAX; sig++) {
		struct sigaction sa;

		if (sigismember(&stop, sig) != 1 || sigismember(old, sig) ||
		    sigaction(sig, NULL, &sa) || sa.sa_handler == SIG_IGN)
			continue;
		sigaddset(&h->polled, sig);
	}
	/*
	 * A write to a closed pipe must not end us halfway; it stays
	 * ignored after the run too, or the flush at exit of what could
	 * not be written would turn the verdict into death by SIGPIPE.
	 */
	signal(SIGPIPE, SIG_IGN);
}

/* Create path and its parents; path itself 0700, as the unit does. */
static int mkdir_p(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			int e = errno;

			*p = '/';
			return -e;
		}
		*p = '/';
	}
	if (mkdir(path, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

static int write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

static int write_state(struct hp *h, const struct cpulist *cpus)
{
	static const char head[] =
		"# nocbctl hotplug-check: CPUs to bring back online\n";
	char dir[4096], tmp[4200];
	char *list;
	int fd, r;

	if (nocb_path(h->ctx, dir, sizeof(dir), STATE_DIR))
		return -ENAMETOOLONG;
	r = mkdir_p(dir);
	if (r)
		return r;
	/* the whole list or nothing: a truncated one would lose CPUs */
	list = cpulist_format_alloc(cpus);
	if (!list)
		return -ENOMEM;
	snprintf(tmp, sizeof(tmp), "%s.tmp", h->state);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		r = -errno;
		free(list);
		return r;
	}
	r = write_all(fd, head, sizeof(head) - 1);
	if (!r)
		r = write_all(fd, list, strlen(list));
	if (!r)
		r = write_all(fd, "\n", 1);
	free(list);
	if (!r && fsync(fd))
		r = -errno;
	if (close(fd) && !r)
		r = -errno;
	if (!r && rename(tmp, h->state))
		r = -errno;
	if (r)
		unlink(tmp);
	return r;
}

/*
 * Restore CPUs listed in a state file left by a killed run.
 * Returns 0 (nothing to do or restored), or 1 after printing an error.
 */
static int restore_from_state(struct hp *h, struct json *j)
{
	struct nocb_ctx *ctx = h->ctx;
	struct cpulist cpus, failed, brought, gone;
	struct cpu_state cs;
	char *buf, err[256], *list;
	const char *p;
	int r, cpu;

	r = nocb_read_file(h->state, &buf, NULL);
	if (r == -ENOENT) {
		if (j) {
			json_key(j, "restored_from_state");
			json_null(j);
		}
		return 0;
	}
	if (r) {
		nocb_err(ctx, "hotplug-check", "%s: %s", h->state, strerror(-r));
		return 1;
	}
	/* skip comment lines */
	p = buf;
	while (*p == '#') {
		const char *nl = strchr(p, '\n');

		p = nl ? nl + 1 : p + strlen(p);
	}
	r = cpulist_parse_str(p, 0, &cpus, err, sizeof(err));
	free(buf);
	if (r) {
		nocb_err(ctx, "hotplug-check",
			 "%s: %s; bring the offline CPUs back by hand, then remove it",
			 h->state, err);
		return 1;
	}
	if (sysfs_read_cpus(ctx, "hotplug-check", &cs))
		return 1;
	/*
	 * A CPU that is not possible here, or has no online file, was never
	 * ours to offline (a state file from another machine or kernel):
	 * skip it, or it would stop every later run.
	 */
	cpulist_clear(&gone);
	cpulist_for_each(cpu, &cpus)
		if (!cpulist_test(&cs.possible, cpu) ||
		    !sysfs_cpu_hotpluggable(ctx, cpu))
			cpulist_set(&gone, cpu);
	if (!cpulist_empty(&gone)) {
		list = cpulist_format_alloc(&gone);
		nocb_err(ctx, "hotplug-check",
			 "%s: ignoring CPUs %s: not possible or not hot-pluggable here",
			 h->state, list ? list : "?");
		free(list);
		cpulist_andnot(&cpus, &cpus, &gone);
	}
	cpulist_clear(&failed);
	cpulist_clear(&brought);
	cpulist_for_each(cpu, &cpus) {
		if (sysfs_cpu_online(ctx, cpu) == 1)
			continue;
		r = set_online(h, cpu, true);
		if (r) {
			cpulist_set(&failed, cpu);
			nocb_err(ctx, "hotplug-check",
				 "cannot bring CPU %d back online: %s", cpu,
				 strerror(-r));
		} else {
			cpulist_set(&brought, cpu);
		}
	}
	if (!cpulist_empty(&failed)) {
		nocb_err(ctx, "hotplug-check",
			 "%s kept; once those CPUs are online (or cannot be), remove it",
			 h->state);
		return 1;
	}
	if (unlink(h->state) && errno != ENOENT) {
		nocb_err(ctx, "hotplug-check", "%s: %s", h->state,
			 strerror(errno));
		return 1;
	}
	/* Report what this run brought back, not the whole state file. */
	list = cpulist_format_alloc(&brought);
	if (j)
		json_kstr(j, "restored_from_state", list ? list : "?");
	else
		fprintf(ctx->out,
			"hotplug-check: found %s from an interrupted run: CPUs %s are online again\n",
			h->state, cpulist_empty(&brought) ? "(none offline)" :
			list ? list : "?");
	free(list);
	return 0;
}

/* Bring back every touched CPU; returns number of failures. */
static int restore(struct hp *h, struct cpulist *failed)
{
	int cpu, nfail = 0;

	cpulist_clear(failed);
	cpulist_for_each(cpu, &h->touched) {
		int r = set_online(h, cpu, true);

		if (!r && sysfs_cpu_online(h->ctx, cpu) != 1)
			r = -EIO;
		if (r) {
			nocb_err(h->ctx, "hotplug-check",
				 "cannot bring CPU %d back online: %s", cpu,
				 strerror(-r));
			cpulist_set(failed, cpu);
			nfail++;
		} else {
			cpulist_unset(&h->touched, cpu);
		}
	}
	return nfail;
}

/*
 * Restore what a killed run left, read the CPUs and pick the target: the
 * lowest online normal CPU, the others to go offline first.
 */
static enum step plan(struct hp *h, bool force)
{
	struct nocb_ctx *ctx = h->ctx;
	struct cpu_state cs;
	struct offload_info *oi;
	char *list;
	int cpu, r;

	if (restore_from_state(h, h->j))
		return STEP_ERROR;
	if (sysfs_read_cpus(ctx, "hotplug-check", &cs))
		return STEP_ERROR;
	oi = malloc(sizeof(*oi));
	if (!oi) {
		nocb_err(ctx, "hotplug-check", "out of memory");
		return STEP_ERROR;
	}
	offload_read(ctx, &cs, oi);
	cpulist_andnot(&h->normal, &cs.online, &oi->offloaded);
	list = cpulist_format_alloc(&h->normal);
	if (!list) {
		nocb_err(ctx, "hotplug-check", "out of memory");
		offload_free(oi);
		free(oi);
		return STEP_ERROR;
	}
	if (h->j) {
		json_kstr(h->j, "offloaded_source",
			  offload_source_name(oi->source));
		json_kstr(h->j, "normal_online", list);
	} else {
		fprintf(ctx->out,
			"hotplug-check: online normal CPUs: %s (offloaded CPUs from %s)\n",
			list[0] ? list : "none", offload_source_name(oi->source));
	}
	offload_free(oi);
	free(oi);
	if (cpulist_empty(&h->normal)) {
		free(list);
		h->result = "violation";
		h->why = "no online CPU is a normal (not offloaded) CPU";
		return STEP_REPORT;
	}
	/* A normal CPU without an online file can never go: it is the last. */
	cpulist_for_each(cpu, &h->normal) {
		if (!sysfs_cpu_hotpluggable(ctx, cpu)) {
			free(list);
			h->target = cpu;
			h->result = "not-removable";
			h->ret = NOCB_EXIT_UNSUPP;
			h->why = "cannot be hot-removed (no online file), so K3 cannot be checked";
			return STEP_REPORT;
		}
	}
	h->target = cpulist_next(&h->normal, 0);
	h->others = h->normal;
	cpulist_unset(&h->others, h->target);
	if (!cpulist_empty(&h->others) && !force) {
		nocb_err(ctx, "hotplug-check",
			 "CPU %d is not the last normal CPU (online normal CPUs: %s): use --force to offline the others first",
			 h->target, list);
		free(list);
		h->ret = NOCB_EXIT_USAGE;
		if (h->j) {
			json_kint(h->j, "target", h->target);
			json_kstr(h->j, "result", "not-last");
		}
		return STEP_DONE;
	}
	free(list);
	/*
	 * The kernel checks nothing but the file mode of cpuN/online (root,
	 * 0644), so that, not a capability, is what we need.
	 */
	cpulist_for_each(cpu, &h->normal) {
		char path[4096];

		r = sysfs_online_path(ctx, cpu, path, sizeof(path));
		if (!r)
			r = ctx->ops->may_write(path);
		if (r) {
			nocb_err(ctx, "hotplug-check",
				 "cannot write CPU %d's online file: %s%s",
				 cpu, strerror(-r), nocb_access_hint(r));
			h->why = "no write access to cpuN/online";
			h->ret = NOCB_EXIT_PRIV;
			return STEP_REPORT;
		}
	}
	return STEP_GO;
}

/* Record the CPUs in the state file, then take the others offline. */
static enum step offline_others(struct hp *h)
{
	struct nocb_ctx *ctx = h->ctx;
	int cpu, r;

	r = write_state(h, &h->normal);
	if (r) {
		nocb_err(ctx, "hotplug-check", "%s: %s (nothing changed)",
			 h->state, strerror(-r));
		return STEP_ERROR;
	}
	cpulist_for_each(cpu, &h->others) {
		h->sig = pending_signal(h);
		if (h->sig)
			break;
		r = set_online(h, cpu, false);
		if (r) {
			h->why = "could not offline another normal CPU first";
			nocb_err(ctx, "hotplug-check", "offlining CPU %d: %s",
				 cpu, strerror(-r));
			return STEP_REPORT;
		}
		cpulist_set(&h->touched, cpu);
		if (!h->j)
			fprintf(ctx->out, "hotplug-check: CPU %d offline\n",
				cpu);
	}
	if (!h->sig)
		h->sig = pending_signal(h);
	if (h->sig) {
		h->why = "interrupted";
		return STEP_REPORT;
	}
	return STEP_GO;
}

/* Try to take the last normal CPU offline: the kernel must say EBUSY. */
static void attempt(struct hp *h)
{
	struct nocb_ctx *ctx = h->ctx;
	int r = set_online(h, h->target, false);

	h->decided = true;
	if (r == -EBUSY) {
		h->result = "refused";
		h->ret = NOCB_EXIT_OK;
		if (!h->j)
			fprintf(ctx->out,
				"hotplug-check: offlining CPU %d: refused (EBUSY)\n",
				h->target);
	} else if (r == 0) {
		cpulist_set(&h->touched, h->target);
		h->result = "violation";
		h->why = "the last normal CPU went offline";
		if (!h->j)
			fprintf(ctx->out,
				"hotplug-check: offlining CPU %d: succeeded: K3 VIOLATED\n",
				h->target);
	} else {
		h->why = "unexpected error offlining the last normal CPU";
		nocb_err(ctx, "hotplug-check", "offlining CPU %d: %s",
			 h->target, strerror(-r));
	}
}

/* Bring back what we took offline; the state file goes once all are. */
static void restore_all(struct hp *h)
{
	struct nocb_ctx *ctx = h->ctx;
	struct cpulist failed;
	char *list = cpulist_format_alloc(&h->touched);

	if (restore(h, &failed)) {
		char *fl = cpulist_format_alloc(&failed);

		nocb_err(ctx, "hotplug-check",
			 "CPUs %s are still offline; %s keeps them for the next run",
			 fl ? fl : "?", h->state);
		free(fl);
		h->ret = NOCB_EXIT_FAIL;
		h->result = "restore-failed";
	} else {
		if (unlink(h->state) && errno != ENOENT)
			nocb_err(ctx, "hotplug-check", "%s: %s", h->state,
				 strerror(errno));
		if (!h->j && (!list || list[0]))
			fprintf(ctx->out,
				"hotplug-check: CPUs %s back online\n",
				list ? list : "?");
	}
	if (h->j) {
		json_kstr(h->j, "restored", list ? list : "?");
		json_kbool(h->j, "restore_ok", cpulist_empty(&failed));
	}
	free(list);
	if (!h->sig)
		h->sig = pending_signal(h);
}

static void report(struct hp *h)
{
	struct nocb_ctx *ctx = h->ctx;
	/* A signal after the attempt on the target does not undo its verdict. */
	bool interrupted = h->sig && !h->decided;

	if (interrupted) {
		h->result = "interrupted";
		h->ret = 128 + h->sig;
	}
	if (h->j) {
		json_kint(h->j, "target", h->target);
		json_kstr(h->j, "result", h->result);
		json_key(h->j, "reason");
		json_str(h->j, h->why);
	} else if (!strcmp(h->result, "refused")) {
		fprintf(ctx->out,
			"hotplug-check: K3 holds: the last normal CPU %d refused to go offline\n",
			h->target);
	}
	/* failures go to stderr in text and JSON mode alike */
	if (!strcmp(h->result, "not-removable"))
		nocb_err(ctx, "hotplug-check", "last normal CPU %d %s",
			 h->target, h->why);
	else if (!strcmp(h->result, "violation"))
		nocb_err(ctx, "hotplug-check", "K3 violated: %s", h->why);
	if (interrupted)
		nocb_err(ctx, "hotplug-check", "interrupted by %s; CPUs restored",
			 strsignal(h->sig));
	else if (h->sig)
		nocb_err(ctx, "hotplug-check",
			 "%s arrived after the check; CPUs restored",
			 strsignal(h->sig));
}

static int run(struct hp *h, bool force)
{
	enum step st;

	h->target = -1;
	h->result = "error";
	h->ret = NOCB_EXIT_FAIL;
	if (h->ctx->json) {
		h->j = &h->json;
		json_init(h->j, h->ctx->out);
		json_obj_begin(h->j);
		json_kstr(h->j, "command", "hotplug-check");
	}
	st = plan(h, force);
	if (st == STEP_GO) {
		st = offline_others(h);
		if (st == STEP_GO)
			attempt(h);
		if (st != STEP_ERROR) {
			restore_all(h);
			st = STEP_REPORT;
		}
	}
	if (st == STEP_REPORT)
		report(h);
	else if (st == STEP_ERROR && h->j)
		json_kstr(h->j, "result", "error");
	if (h->j) {
		json_obj_end(h->j);
		json_end(h->j);
	}
	return h->ret;
}

int cmd_hotplug_check(struct nocb_ctx *ctx, int argc, char **argv)
{
	struct verb_args a;
	struct hp h;
	sigset_t old;
	int r, lockfd;

	r = verb_parse(ctx, "hotplug-check", OPT(OPT_FORCE), hotplug_help,
		       argc, argv, &a);
	if (r != VERB_PARSED)
		return r;
	if (a.nargs) {
		nocb_err(ctx, "hotplug-check", "unexpected argument '%s'",
			 a.args[0]);
		return NOCB_EXIT_USAGE;
	}
	memset(&h, 0, sizeof(h));
	h.ctx = ctx;
	if (nocb_path(ctx, h.state, sizeof(h.state), STATE_FILE)) {
		nocb_err(ctx, "hotplug-check", "state path too long");
		return NOCB_EXIT_USAGE;
	}
	/* one hotplug-check at a time: they would fight over the CPUs */
	{
		char dir[4096], lock[4200];

		if (nocb_path(ctx, dir, sizeof(dir), STATE_DIR) ||
		    nocb_path(ctx, lock, sizeof(lock), LOCK_FILE)) {
			nocb_err(ctx, "hotplug-check", "state path too long");
			return NOCB_EXIT_USAGE;
		}
		r = mkdir_p(dir);
		if (!r) {
			lockfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
			r = lockfd < 0 ? -errno : 0;
		}
		if (r) {
			nocb_err(ctx, "hotplug-check", "%s: %s", lock,
				 strerror(-r));
			return nocb_access_denied(r) ? NOCB_EXIT_PRIV :
							     NOCB_EXIT_FAIL;
		}
		if (flock(lockfd, LOCK_EX | LOCK_NB)) {
			nocb_err(ctx, "hotplug-check",
				 "another hotplug-check is running (%s)", lock);
			close(lockfd);
			return NOCB_EXIT_FAIL;
		}
	}
	block_signals(&h, &old);
	r = run(&h, a.set[OPT_FORCE]);
	close(lockfd);		/* releases the lock */
	fflush(ctx->out);
	fflush(ctx->err);
	/* a pending stop signal is delivered here, after restoring */
	sigprocmask(SIG_SETMASK, &old, NULL);
	return r;
}
