#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3" smp=4
# First guest test: the image boots the patched kernel with rcu_nocbs=1-3 on
# 4 vCPUs, the kernel offloads exactly CPUs 1-3, the offload kthreads exist,
# and systemd reached multi-user.target with no failed unit.
. "$NOCB_SRC/tools/vm/guest-lib.sh"

check "/proc/cmdline has rcu_nocbs=1-3" grep -qw 'rcu_nocbs=1-3' /proc/cmdline
check_eq "4 CPUs online" "0-3" "$(cat /sys/devices/system/cpu/online)"
offl=$(dmesg | sed -n 's/.*Offload RCU callbacks from CPUs: \(.*\)\.$/\1/p')
check_eq "kernel log: offloads exactly CPUs 1-3" "1-3" "$offl"

comms=$(cat /proc/[0-9]*/comm 2>/dev/null)
# One rcuog per group of CPUs; which CPUs lead the groups depends on the
# group stride, so only require that some exist.
check "rcuog/N kthreads exist" grep -q '^rcuog/[0-9]*$' <<<"$comms"
for c in 1 2 3; do
	check "rcuop/$c kthread exists" grep -qx "rcuop/$c" <<<"$comms"
done

state=$(systemctl show -P ActiveState multi-user.target)
check_eq "multi-user.target active" active "$state"
failed=$(systemctl list-units --failed --no-legend --plain | awk '{print $1}' | tr '\n' ' ')
check_eq "no failed units" "" "$failed"
note "uptime at verdict: $(cut -d' ' -f1 /proc/uptime)s"
finish
