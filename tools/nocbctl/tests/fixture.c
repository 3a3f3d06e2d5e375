// SPDX-License-Identifier: GPL-2.0
/* fixture.c - helpers shared by the cmocka tests. */
#define _GNU_SOURCE
#include "fixture.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

struct mock mock;

const char *fx(const char *name)
{
	static char buf[8][4096];
	static int i;
	const char *base = getenv("NOCB_FIXTURES");

	i = (i + 1) % 8;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", base ? base : "tests/fixtures",
		 name);
	return buf[i];
}

char *tree_copy(const char *name)
{
	char *dir = strdup("/tmp/nocbctl-test.XXXXXX");
	char cmd[8192];

	assert_non_null(dir);
	assert_non_null(mkdtemp(dir));
	if (name) {
		snprintf(cmd, sizeof(cmd), "cp -a '%s/.' '%s/'", fx(name), dir);
		assert_int_equal(system(cmd), 0);
	}
	return dir;
}

static void mkdirs_for(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
}

void tree_write(const char *root, const char *rel, const char *content)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	mkdirs_for(path);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	assert_int_equal(fclose(f), 0);
}

char *tree_read(const char *root, const char *rel)
{
	char path[4096];
	char *buf;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (nocb_read_file(path, &buf, NULL))
		return NULL;
	return buf;
}

bool tree_exists(const char *root, const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return access(path, F_OK) == 0;
}

static int rm_one(const char *p, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	(void)sb; (void)flag; (void)ftw;
	return remove(p);
}

void tree_rm(char *root)
{
	if (root && !strncmp(root, "/tmp/nocbctl-test.", 18))
		nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(root);
}

void mock_reset(void)
{
	for (int i = 0; i < MOCK_MAX; i++) {
		free(mock.aff_cpus[i]);
		free(mock.sysfs_val[i]);
	}
	memset(&mock, 0, sizeof(mock));
	mock.have_cap = true;
}

static int mock_fail(pid_t pid)
{
	if (mock.recycle_after && pid == mock.recycle_after) {
		FILE *f = fopen(mock.recycle_path, "w");

		assert_non_null(f);
		fputs(mock.recycle_stat, f);
		assert_int_equal(fclose(f), 0);
	}
	for (int i = 0; i < 4; i++)
		if (mock.fail_pid[i] && mock.fail_pid[i] == pid)
			return -mock.fail_err[i];
	return 0;
}

static int m_set_affinity(pid_t pid, const struct cpulist *cpus)
{
	if (mock.n_aff < MOCK_MAX) {
		mock.aff_pid[mock.n_aff] = pid;
		mock.aff_cpus[mock.n_aff] = cpulist_format_alloc(cpus);
		assert_non_null(mock.aff_cpus[mock.n_aff]);
		mock.n_aff++;
	}
	return mock_fail(pid);
}

static int m_set_scheduler(pid_t pid, int policy, int prio)
{
	if (mock.n_sched < MOCK_MAX) {
		mock.sched_pid[mock.n_sched] = pid;
		mock.sched_policy[mock.n_sched] = policy;
		mock.sched_prio[mock.n_sched] = prio;
		mock.n_sched++;
	}
	return mock_fail(pid);
}

static int m_set_nice(pid_t pid, int nice)
{
	if (mock.n_nice < MOCK_MAX)
		mock.nice_val[mock.n_nice++] = nice;
	return mock_fail(pid);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/*
 * The kernel keeps cpu/online and cpu/offline in step with cpuN/online;
 * so does the fake, so that a later scan sees what an earlier write did.
 * cpudir is ".../sys/devices/system/cpu" of the fixture.
 */
static void update_global_lists(const char *cpudir, int cpu, bool online)
{
	struct cpulist on, possible, off;
	char path[4200], err[128];
	char *buf, *list;
	FILE *f;

	snprintf(path, sizeof(path), "%s/online", cpudir);
	if (nocb_read_file(path, &buf, NULL))
		return;
	assert_int_equal(cpulist_parse_str(buf, 0, &on, err, sizeof(err)), 0);
	free(buf);
	if (online)
		cpulist_set(&on, cpu);
	else
		cpulist_unset(&on, cpu);
	list = cpulist_format_alloc(&on);
	assert_non_null(list);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", list);
	assert_int_equal(fclose(f), 0);
	free(list);
	snprintf(path, sizeof(path), "%s/offline", cpudir);
	if (access(path, F_OK))
		return;		/* none to keep in step */
	snprintf(path, sizeof(path), "%s/possible", cpudir);
	if (nocb_read_file(path, &buf, NULL))
		return;
	assert_int_equal(cpulist_parse_str(buf, 0, &possible, err,
					   sizeof(err)), 0);
	free(buf);
	cpulist_andnot(&off, &possible, &on);
	list = cpulist_format_alloc(&off);
	assert_non_null(list);
	snprintf(path, sizeof(path), "%s/offline", cpudir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", list);
	assert_int_equal(fclose(f), 0);
	free(list);
}

/* Writes the fixture file like the kernel would, with optional EBUSY. */
static int m_write_online(const char *path, bool online)
{
	const char *cpu = strstr(path, "/cpu/cpu");
	int fd;

	if (mock.n_online == 0 && mock.state_file)
		mock.state_seen_at_first_write =
			access(mock.state_file, F_OK) == 0;
	if (mock.n_online < MOCK_MAX && cpu) {
		const char *slash = strchr(cpu + 5, '/');
		int n = slash ? (int)(slash - (cpu + 5)) : 0;

		snprintf(mock.online_log[mock.n_online], 128, "%.*s=%d", n,
			 cpu + 5, online);
		mock.n_online++;
	}
	if (!online && mock.ebusy_suffix && ends_with(path, mock.ebusy_suffix)) {
		if (mock.raise_suffix && ends_with(path, mock.raise_suffix))
			raise(mock.raise_sig ? mock.raise_sig : SIGTERM);
		return -EBUSY;
	}
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	if (write(fd, online ? "1\n" : "0\n", 2) != 2) {
		close(fd);
		return -EIO;
	}
	close(fd);
	if (cpu) {
		char dir[4096];

		snprintf(dir, sizeof(dir), "%.*s", (int)(cpu + 4 - path), path);
		update_global_lists(dir, atoi(cpu + 8), online);
	}
	if (!online && ++mock.n_offlined == mock.kill_at_offline)
		raise(SIGKILL);
	if (!online && mock.raise_suffix && ends_with(path, mock.raise_suffix))
		raise(mock.raise_sig ? mock.raise_sig : SIGTERM);
	return 0;
}

static int m_write_sysfs(const char *path, const char *v)
{
	int fd = open(path, O_RDONLY);

	if (mock.n_sysfs < MOCK_MAX) {
		mock.sysfs_val[mock.n_sysfs] = strdup(v);
		assert_non_null(mock.sysfs_val[mock.n_sysfs]);
	}
	mock.n_sysfs++;
	mock.aff_at_sysfs = mock.n_aff;
	/* a second open file cannot take the lock the writer holds */
	mock.sysfs_locked = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) &&
			    errno == EWOULDBLOCK;
	if (fd >= 0)
		close(fd);
	if (mock.sysfs_err)
		return -mock.sysfs_err;
	if (mock.sysfs_ignore)
		return 0;
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	if (write(fd, v, strlen(v)) != (ssize_t)strlen(v)) {
		close(fd);
		return -EIO;
	}
	close(fd);
	return 0;
}

static int m_have_cap(int cap)
{
	(void)cap;
	return mock.have_cap;
}

/* without "capabilities", no write access either */
static int m_may_write(const char *path)
{
	(void)path;
	return mock.have_cap ? 0 : -EACCES;
}

const struct nocb_ops mock_ops = {
	.set_affinity = m_set_affinity,
	.set_scheduler = m_set_scheduler,
	.set_nice = m_set_nice,
	.write_online = m_write_online,
	.write_sysfs = m_write_sysfs,
	.have_cap = m_have_cap,
	.may_write = m_may_write,
};

void run_verb(struct run *r, int (*fn)(struct nocb_ctx *, int, char **),
	      const char *root, bool json, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;
	FILE *o, *e;
	const char *a;

	memset(r, 0, sizeof(*r));
	va_start(ap, json);
	while ((a = va_arg(ap, const char *)) && argc < 31)
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	o = open_memstream(&r->out, &r->outlen);
	e = open_memstream(&r->err, &r->errlen);
	assert_non_null(o);
	assert_non_null(e);
	nocb_ctx_init(&r->ctx);
	r->ctx.root = root ? root : "";
	r->ctx.json = json;
	r->ctx.out = o;
	r->ctx.err = e;
	r->ctx.ops = &mock_ops;
	r->rc = fn(&r->ctx, argc, argv);
	fclose(o);
	fclose(e);
}

void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

int count_substr(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(hay, needle); p;
	     p = strstr(p + 1, needle))
		n++;
	return n;
}
