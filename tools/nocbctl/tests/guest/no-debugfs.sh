#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3" smp=4 flavor=nodebugfs
# A kernel of the series built without debugfs (make kernel
# FLAVOR=nodebugfs): it boots and offloads, K6's sysfs file works, and
# nocbctl says rcudata cannot exist here instead of guessing: stats exits
# 3 naming the missing debugfs, status still reports the offloaded CPUs
# from rcu_nocbs and K2 as absent, and pin works as everywhere.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
. "$NOCB_SRC/tools/nocbctl/tests/guest/common.sh"

check "the kernel has no debugfs (not in /proc/filesystems)" \
	sh -c '! grep -qw debugfs /proc/filesystems'
check "no /sys/kernel/debug/rcu/rcudata" test ! -e /sys/kernel/debug/rcu/rcudata
check_eq "K6: rcu_nocbs reads the boot set" 1-3 "$(cat /sys/devices/system/cpu/rcu_nocbs)"

err=$("$NOCBCTL" stats 2>&1 >/dev/null)
check_eq "nocbctl stats exits 3 (not supported by this kernel)" 3 $?
note "stats: $err"
check "stats names the missing debugfs" grep -q '^nocbctl: stats: .*no debugfs' <<<"$err"

out=$("$NOCBCTL" status 2>&1)
check_eq "nocbctl status exits 0" 0 $?
printf '%s\n' "$out" | sed 's/^/#   /'
check "status: CPUs 1-3 offloaded, from rcu_nocbs" \
	grep -qxF "  offloaded: 1-3 (source: /sys/devices/system/cpu/rcu_nocbs)" <<<"$out"
check "status: K2 absent because the kernel has no debugfs" \
	grep -Eq '^  K2 .* absent .*no debugfs' <<<"$out"

check "nocbctl pin rcuo --cpus=0" "$NOCBCTL" pin rcuo --cpus=0
n=0
for pid in $(offload_pids); do
	n=$((n + 1))
	check_eq "$(comm_of "$pid") allowed on CPU 0 only" 0 "$(allowed_of "$pid")"
done
check "rcuop kthreads exist" test "$n" -gt 0
finish
