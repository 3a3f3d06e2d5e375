// SPDX-License-Identifier: GPL-2.0
/*
 * init for bench/mttcg-probe/run: toggle a tracepoint as often as asked,
 * then power off.  Each toggle is a static-key flip, which x86 patches into
 * running kernel text with text_poke_bp() (int3, sync, rewrite, sync): the
 * cross-modifying-code path every rtla/osnoise start takes.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <unistd.h>

#define EVENT "/sys/kernel/tracing/events/sched/sched_switch/enable"

static int toggles(void)
{
	char buf[256];
	const char *p;
	ssize_t n;
	int fd = open("/proc/cmdline", O_RDONLY);

	if (fd < 0)
		return 200;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	p = strstr(buf, "probe.toggles=");
	return p ? atoi(p + strlen("probe.toggles=")) : 200;
}

int main(void)
{
	int i, n, fd;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL);
	n = toggles();
	printf("PROBE: booted, %d toggles\n", n);
	fflush(stdout);
	for (i = 0; i < n; i++) {
		fd = open(EVENT, O_WRONLY);
		if (fd < 0) {
			perror("PROBE: " EVENT);
			break;
		}
		if (write(fd, i % 2 ? "0" : "1", 1) != 1)
			perror("PROBE: write");
		close(fd);
	}
	printf("PROBE: done %d\n", i);
	fflush(stdout);
	reboot(RB_POWER_OFF);
	return 0;
}
