// SPDX-License-Identifier: GPL-2.0
/* ctx.c - context, paths, file reading, errors and the real syscall table. */
#define _GNU_SOURCE
#include "ctx.h"
#include "cpulist.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int real_set_affinity(pid_t pid, const struct cpulist *cpus)
{
	int last = cpulist_last(cpus), cpu;
	size_t size;
	cpu_set_t *set;
	int ret = 0;

	if (last < 0)
		return -EINVAL;
	set = CPU_ALLOC((size_t)last + 1);
	if (!set)
		return -ENOMEM;
	size = CPU_ALLOC_SIZE((size_t)last + 1);
	CPU_ZERO_S(size, set);
	cpulist_for_each(cpu, cpus)
		CPU_SET_S((size_t)cpu, size, set);
	if (sched_setaffinity(pid, size, set))
		ret = -errno;
	CPU_FREE(set);
	return ret;
}

static int real_set_scheduler(pid_t pid, int policy, int priority)
{
	struct sched_param sp = { .sched_priority = priority };

	if (sched_setscheduler(pid, policy, &sp))
		return -errno;
	return 0;
}

static int real_set_nice(pid_t pid, int nice)
{
	if (setpriority(PRIO_PROCESS, (id_t)pid, nice))
		return -errno;
	return 0;
}

static int real_write_online(const char *path, bool online)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int ret = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, online ? "1\n" : "0\n", 2);
	if (n < 0)
		ret = -errno;
	else if (n != 2)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/*
 * One write(2): a sysfs store sees the whole value at once. O_TRUNC so
 * that under a fixture --root the regular file holds just the value.
 */
static int real_write_sysfs(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	size_t len = strlen(s);
	ssize_t n;
	int ret = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, s, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/*
 * capget(2) directly: libcap would be one more shared object to map and
 * relocate at every start, and its constructor probes the bounding set
 * with a run of prctl() calls; start-up is most of a pin's time.
 */
static int real_have_cap(int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (cap < 0 || cap >= 32 * _LINUX_CAPABILITY_U32S_3)
		return -EINVAL;
	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	return !!(data[cap / 32].effective & (1U << (cap % 32)));
}

static int real_may_write(const char *path)
{
	return faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) ? -errno : 0;
}

const struct nocb_ops nocb_real_ops = {
	.set_affinity = real_set_affinity,
	.set_scheduler = real_set_scheduler,
	.set_nice = real_set_nice,
	.write_online = real_write_online,
	.write_sysfs = real_write_sysfs,
	.have_cap = real_have_cap,
	.may_write = real_may_write,
};

void nocb_ctx_init(struct nocb_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->root = "";
	ctx->out = stdout;
	ctx->err = stderr;
	ctx->ops = &nocb_real_ops;
}

bool nocb_ctx_has_fixture_root(const struct nocb_ctx *ctx)
{
	return ctx->root && ctx->root[0] && strcmp(ctx->root, "/") != 0;
}

int nocb_path(const struct nocb_ctx *ctx, char *buf, size_t len,
	      const char *fmt, ...)
{
	va_list ap;
	int n, m;
	const char *root = nocb_ctx_has_fixture_root(ctx) ? ctx->root : "";

	n = snprintf(buf, len, "%s", root);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	va_start(ap, fmt);
	m = vsnprintf(buf + n, len - (size_t)n, fmt, ap);
	va_end(ap);
	if (m < 0 || (size_t)m >= len - (size_t)n)
		return -ENAMETOOLONG;
	return 0;
}

int nocb_read_file(const char *path, char **bufp, size_t *lenp)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 4096, len = 0;
	char *buf;

	*bufp = NULL;
	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap) {
			char *nb;

			if (cap > (64u << 20)) {
				free(buf);
				close(fd);
				return -EFBIG;
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			free(buf);
			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	*bufp = buf;
	if (lenp)
		*lenp = len;
	return 0;
}

int nocb_write_file_atomic(const char *path, const char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path + 1) : 0;
	char tmp[4096];
	int fd, r = 0;

	/* ".NAME.XXXXXX": hidden, and no *.prom glob matches it */
	if (!path[dlen] ||
	    snprintf(tmp, sizeof(tmp), "%.*s.%s.XXXXXX", (int)dlen, path,
		     path + dlen) >= (int)sizeof(tmp))
		return path[dlen] ? -ENAMETOOLONG : -EISDIR;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len && !r) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno != EINTR)
			r = -errno;
		else if (n > 0) {
			buf += n;
			len -= (size_t)n;
		}
	}
	/* mkostemp() makes it 0600; readers such as node_exporter are not root */
	if (!r && (fchmod(fd, 0644) || fsync(fd)))
		r = -errno;
	if (close(fd) && !r)
		r = -errno;
	if (!r && rename(tmp, path))
		r = -errno;
	if (r)
		unlink(tmp);
	return r;
}

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if none. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/*
 * An error message echoes what the user gave: control characters and
 * bytes that are not UTF-8 come out as \xNN, so that a terminal or the
 * journal shows them instead of acting on them, and a message is cut
 * after NOCB_ERR_MAX bytes, saying so, rather than flooding a log.
 */
#define NOCB_ERR_MAX 4096

static void put_sanitized(FILE *f, const char *msg, size_t n)
{
	const unsigned char *s = (const unsigned char *)msg;
	size_t i = 0, out = 0;

	while (i < n && out < NOCB_ERR_MAX) {
		size_t l = utf8_len(s + i, n - i);

		if (l == 1 && (s[i] < 0x20 || s[i] == 0x7f))
			l = 0;
		if (!l) {
			out += (size_t)fprintf(f, "\\x%02x", s[i]);
			i++;
			continue;
		}
		fwrite(s + i, 1, l, f);
		i += l;
		out += l;
	}
	if (i < n)
		fprintf(f, "... (%zu more bytes)", n - i);
}

void nocb_err(const struct nocb_ctx *ctx, const char *what, const char *fmt,
	      ...)
{
	char *msg = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	fputs("nocbctl: ", ctx->err);
	put_sanitized(ctx->err, what, strlen(what));
	fputs(": ", ctx->err);
	if (n >= 0)
		put_sanitized(ctx->err, msg, (size_t)n);
	else
		fputs("(out of memory for the message)", ctx->err);
	fputc('\n', ctx->err);
	free(msg);
}

bool nocb_access_denied(int err)
{
	if (err < 0)
		err = -err;
	return err == EACCES || err == EPERM || err == EROFS;
}

const char *nocb_access_hint(int err)
{
	if (err < 0)
		err = -err;
	if (err == EACCES || err == EPERM)
		return " (run as root)";
	if (err == EROFS)
		return " (sysfs is mounted read-only here, as in a container: run it on the host)";
	return "";
}

int nocb_require_cap(const struct nocb_ctx *ctx, const char *verb, int cap,
		     const char *capname)
{
	int r = ctx->ops->have_cap(cap);

	if (r == 1)
		return 0;
	if (r < 0)
		nocb_err(ctx, verb, "cannot read capabilities: %s",
			 strerror(-r));
	else
		nocb_err(ctx, verb, "missing capability %s (run as root)",
			 capname);
	return NOCB_EXIT_PRIV;
}

int nocb_may_act(const struct nocb_ctx *ctx, const char *verb, bool dry_run)
{
	if (ctx->fixture_pids && !dry_run) {
		nocb_err(ctx, verb,
			 "--root %s: fixture pids are not real processes; use --dry-run",
			 ctx->root);
		return NOCB_EXIT_USAGE;
	}
	return nocb_require_cap(ctx, verb, CAP_SYS_NICE, "CAP_SYS_NICE");
}

int nocb_parse_int(const char *s, long lo, long hi, int *out)
{
	char *e;
	long v;

	/* strtol() would also take leading blanks and a '+' */
	if (!s || !(*s == '-' || (*s >= '0' && *s <= '9')))
		return -1;
	errno = 0;
	v = strtol(s, &e, 10);
	if (*e || errno || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}
