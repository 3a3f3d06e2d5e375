#!/bin/bash
# nocb-guest: kernel=debian kernels=6.1 cmdline="rcu_nocbs=1-3 cpu0_hotplug" smp=4 cpu=intel timeout=420
#
# nocbctl and its units on Debian's own kernel, without the nocb series:
# the image's linux-image-amd64 booted with its own initramfs
# (tools/vm/stock-kernel.sh takes them out of the image), as on most
# Debian hosts.  One boot, once per make test (kernels=6.1: the kernel is
# Debian's whichever series is under test).  nocbctl must say plainly
# that K1-K4 are absent and still show the CPUs the boot command line
# offloaded; stats must refuse with exit 3 and say what is missing; pin,
# prio, apply and the units work as on the patched kernel; with CPU 0
# hot-removable (cpu0_hotplug, an Intel vCPU), hotplug-check --force
# offlines the last normal CPU, reports the violation and brings every CPU
# back online.
source "$NOCB_SRC/tools/vm/guest-lib.sh"
source "$NOCB_SRC/units/tests/guest/common.bash"
note "system state after boot: $(nocb_wait_boot 240)"

# linux-image-amd64 depends on the kernel of the day: "linux-image-6.1.0-N-amd64 (= ...)".
release=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null | sed -n 's/^linux-image-\([^ ,]*\).*/\1/p')
check_eq "running linux-image-amd64's kernel" "$release" "$(uname -r)"
note "$(cat /proc/version)"
check "a Debian kernel, -amd64" grep -q -- '-amd64$' <<<"$(uname -r)"
check "booted with its initramfs (initramfs-tools left /run/initramfs)" test -d /run/initramfs
check "no nocb series: no /sys/kernel/debug/rcu/rcudata" test ! -e /sys/kernel/debug/rcu/rcudata
check "debugfs is mounted (so the absence is the kernel's)" mountpoint -q /sys/kernel/debug
offl=$(dmesg | sed -n 's/.*Offload RCU callbacks from CPUs: \(.*\)\.$/\1/p')
check_eq "kernel log: offloads CPUs 1-3" "1-3" "$offl"
check "9p came from a module (the share of this test is mounted)" grep -qw '^9p' /proc/modules

# --- status ------------------------------------------------------------------
out=$(nocbctl status 2>&1)
rc=$?
printf '%s\n' "$out" | sed 's/^/#   /'
check_eq "status: exit 0" 0 "$rc"
for k in "K1 separate accounting (nci=)     absent" "K2 debugfs rcudata                absent" \
	"K3 last normal CPU stays online   absent" "K4 CPU 0 is never offloaded       absent" \
	"K6 runtime offload (rcu_nocbs)    absent"; do
	check "status: ${k%% *} absent" grep -qF -- "  $k" <<<"$out"
done
check "status: K2 says why (a kernel without the nocb series)" \
	grep -qF 'not provided by this kernel (debugfs is mounted; a kernel without the nocb series)' <<<"$out"
check "status: offloaded 1-3 from the boot command line" \
	grep -qF 'offloaded: 1-3 (source: boot command line' <<<"$out"
check "status: normal CPU 0" grep -qx '  normal:    0' <<<"$out"
check "status: the offload kthreads listed (rcuop/1-3)" \
	test "$(grep -cE '^  [0-9]+ +rcuop/[123] ' <<<"$out")" = 3
check "status: warns that kernel support is incomplete, K1-K4 absent" \
	grep -qF 'warning: kernel support incomplete: K1 absent, K2 absent, K3 absent, K4 absent' <<<"$out"
jout=$(nocbctl --json status 2>&1)
check "status --json: offloaded 1-3" grep -qF '"offloaded":"1-3"' <<<"$jout"

# --- stats ---------------------------------------------------------------------
err=$(nocbctl stats 2>&1 >/dev/null)
rc=$?
note "stats: exit $rc: $err"
check_eq "stats: exit 3 (not supported by this kernel)" 3 "$rc"
check "stats: a nocbctl: error naming what is missing" \
	grep -qF 'nocbctl: stats: /sys/kernel/debug/rcu/rcudata: not provided by this kernel' <<<"$err"

# --- the units at boot -----------------------------------------------------------
check_eq "nocbctl-apply.service ran at boot: result" success "$(unit_prop nocbctl-apply.service Result)"
check "nocbctl-apply.service ran at boot" prop_gt0 nocbctl-apply.service ExecMainStartTimestampMonotonic
check "offload kthreads placed at boot per /etc/nocbctl.conf" threads_mismatch
check_eq "nocbctl-stats.timer active" active "$(systemctl is-active nocbctl-stats.timer)"
# Started by hand: skipped by its condition (no rcudata), not failed.
systemctl start nocbctl-stats.service
check_eq "nocbctl-stats.service skipped: no rcudata" no \
	"$(unit_prop nocbctl-stats.service ConditionResult)"
check_eq "nocbctl-stats.service not failed" success "$(unit_prop nocbctl-stats.service Result)"

# --- pin, prio, apply -------------------------------------------------------------
note "units checked at uptime $(cut -d' ' -f1 /proc/uptime)s"
# Elsewhere than /etc/nocbctl.conf's cpus = 0 and policy other, so that
# apply has work to do.
# CPU 1 is offloaded (rcu_nocbs=1-3, from the command line here): the
# placement rule refuses it, then --force does it on purpose.
check_rc "pin rcuo --cpus=0-1 refused: CPU 1 is offloaded" 2 nocbctl pin rcuo --cpus=0-1
check "pin rcuo --cpus=0-1 --force" nocbctl pin rcuo --cpus=0-1 --force
check_eq "pinned: every offload kthread allowed on CPUs 0-1" "" \
	"$(while read -r pid name; do c=$(sed -n 's/^Cpus_allowed_list:\t//p' /proc/$pid/status)
		[ "$c" = 0-1 ] || echo "$name:$c"; done < <(rcuo_threads) | paste -sd' ' -)"
check "prio rcuop --policy=fifo --priority=2 --force" nocbctl prio rcuop --policy=fifo --priority=2 --force
check_eq "prio: every rcuop kthread SCHED_FIFO 2" "" \
	"$(while read -r pid name; do [[ $name == rcuop/* ]] || continue; s=$(chrt -p "$pid")
		grep -q 'SCHED_FIFO' <<<"$s" && grep -q 'priority: 2$' <<<"$s" || echo "$name"; done < <(rcuo_threads) | paste -sd' ' -)"
check "apply (/etc/nocbctl.conf)" nocbctl apply
check "applied: every offload kthread back per /etc/nocbctl.conf" threads_mismatch

# --- hotplug-check --force on CPU 0, hot-removable -------------------------------
note "pin, prio, apply checked at uptime $(cut -d' ' -f1 /proc/uptime)s"
check "CPU 0 is hot-removable (cpu0_hotplug)" test -w /sys/devices/system/cpu/cpu0/online
t=$SECONDS
out=$(nocbctl hotplug-check --force 2>&1)
rc=$?
note "hotplug-check --force: $((SECONDS - t)) s"
printf '%s\n' "$out" | sed 's/^/#   /'
check_eq "hotplug-check --force: exit 1 (K3 violated)" 1 "$rc"
check "hotplug-check: CPU 0 went offline, reported as a violation" \
	grep -qF 'offlining CPU 0: succeeded: K3 VIOLATED' <<<"$out"
check "hotplug-check: a nocbctl: error says K3 is violated" \
	grep -qF 'nocbctl: hotplug-check: K3 violated: the last normal CPU went offline' <<<"$out"
check_eq "every CPU back online" 0-3 "$(cat /sys/devices/system/cpu/online)"
check "no failed unit" no_failed_units
note "uptime at verdict: $(cut -d' ' -f1 /proc/uptime)s"
finish
