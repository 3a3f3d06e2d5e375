#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=2-3" smp=4 kernels=6.12
# K3 on 6.12: x86 cannot take CPU 0 offline since 6.5 (no cpu0_hotplug),
# and K4 keeps it a normal CPU, so CPU 0 is the normal CPU that always
# stays and the EBUSY refusal of the 6.1 test (k3-hotplug.sh) cannot be
# reached here.  What can: CPU 0 has no online file, every other CPU,
# normal or offloaded, goes offline and online, CPU 0 alone keeps doing
# normal callback work, and hotplug-check says K3 cannot be tried (3).
. "$NOCB_SRC/tools/vm/guest-lib.sh"

check "CPU 0 has no online file (not hot-removable)" test ! -e /sys/devices/system/cpu/cpu0/online
check_eq "offloaded CPUs are 2 and 3" "2N 3N" "$(awk '{ print $1 }' /sys/kernel/debug/rcu/rcudata | grep N | tr '\n' ' ' | sed 's/ $//')"
for c in 1 2 3; do
	check "offline CPU $c" cpu_set_online $c 0
done
check_eq "only CPU 0 online" "0" "$(cat /sys/devices/system/cpu/online)"
check_eq "rcudata: CPU 0 normal and online, 1-3 offline" "0 1! 2!N 3!N" \
	"$(awk '{ print $1 }' /sys/kernel/debug/rcu/rcudata | tr '\n' ' ' | sed 's/ $//')"
ci0=$(rcudata_field 0 ci)
cb_load 0 2000
ci_grew() { [ "$(rcudata_field 0 ci)" -ge $((ci0 + 2000)) ]; }
check "CPU 0 alone invokes normal callbacks (ci +2000 within 10 s)" wait_until 10 ci_grew
for c in 1 2 3; do
	check "online CPU $c" cpu_set_online $c 1
done
check_eq "every CPU online" "0-3" "$(cat /sys/devices/system/cpu/online)"
out=$(nocbctl hotplug-check 2>&1); rc=$?
note "hotplug-check: $out"
check_eq "hotplug-check: K3 cannot be tried on CPU 0 (exit 3)" 3 "$rc"
check "hotplug-check names CPU 0" grep -q 'CPU 0' <<<"$out"
check_eq "every CPU still online" "0-3" "$(cat /sys/devices/system/cpu/online)"
finish
