#!/bin/bash
# nocb-guest: cmdline="" smp=4
# Without rcu_nocbs=: no offload kthreads, every invocation counted in ci,
# hotplug restricted only by the kernel's own rules, and runtime offload
# through /sys/devices/system/cpu/rcu_nocbs refused (EOPNOTSUPP).
. "$NOCB_SRC/tools/vm/guest-lib.sh"
check_eq "no rcuog/rcuop kthreads" 0 "$(grep -cE '^rcuo[gp]/' /proc/[0-9]*/comm 2>/dev/null | awk -F: '{ s += $2 } END { print s + 0 }')"
check "kernel log: no offload set-up" bash -c '! dmesg | grep -q "Offload RCU callbacks"'
check_eq "no CPU flagged N" 0 "$(awk '$1 ~ /N/' /sys/kernel/debug/rcu/rcudata | wc -l)"
ci0=$(rcudata_field 1 ci)
cb_load 1 2000
ci_grew() { [ $(( $(rcudata_field 1 ci) - ci0 )) -ge 2000 ]; }
check "CPU 1: ci grows by the callbacks generated" wait_until 30 ci_grew
check_eq "nci is 0 on every CPU" "0 0 0 0" "$(for c in 0 1 2 3; do rcudata_field $c nci; done | tr '\n' ' ' | sed 's/ $//')"
for c in 1 2 3; do
	check "offline CPU $c" cpu_set_online $c 0
done
check_eq "only CPU 0 online" 0 "$(cat /sys/devices/system/cpu/online)"
for c in 1 2 3; do
	check "online CPU $c" cpu_set_online $c 1
done
# K6: nothing to offload later without offloading set up at boot.
f=/sys/devices/system/cpu/rcu_nocbs
check_eq "rcu_nocbs lists no CPU" "" "$(cat $f)"
err=$( { echo 1 > $f; } 2>&1 )
check_eq "writing rcu_nocbs: EOPNOTSUPP" "Operation not supported" "${err##*: }"
check_eq "still no CPU flagged N" 0 "$(awk '$1 ~ /N/' /sys/kernel/debug/rcu/rcudata | wc -l)"
finish
