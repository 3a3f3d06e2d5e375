#!/bin/bash
# nocb-guest: cmdline="cpu0_hotplug rcu_nocbs=2-3" smp=4 cpu=intel kernels=6.1
# kernels=6.1: needs CPU 0 hot-removable (cpu0_hotplug), which 6.12 x86
# does not allow; there CPU 0 is the normal CPU that stays (k3-boot-cpu.sh).
# K3: the last online normal CPU (here 0 or 1) cannot go offline (EBUSY);
# offloaded CPUs 2 and 3 go offline and online freely.
. "$NOCB_SRC/tools/vm/guest-lib.sh"

check "CPU 0 is hot-removable (cpu0_hotplug)" test -w /sys/devices/system/cpu/cpu0/online
check_eq "offloaded CPUs are 2 and 3" "2N 3N" "$(awk '{ print $1 }' /sys/kernel/debug/rcu/rcudata | grep N | tr '\n' ' ' | sed 's/ $//')"

# expect_busy CPU: offlining CPU fails with EBUSY and leaves it online.
expect_busy() {
	local msg
	msg=$(cpu_set_online "$1" 0) && { echo "offline of CPU $1 succeeded"; return 1; }
	[ "$msg" = "Device or resource busy" ] || { echo "error was: $msg"; return 1; }
	[ "$(cat /sys/devices/system/cpu/cpu$1/online)" = 1 ]
}

check "offline CPU 1 (normal, CPU 0 stays)" cpu_set_online 1 0
check "offline CPU 0 (last normal) fails with EBUSY" expect_busy 0
check "kernel says why" grep -q 'CPU 0 is the last online CPU without offloaded callbacks' <(dmesg)
check "online CPU 1" cpu_set_online 1 1
check "offline CPU 0 (CPU 1 stays normal)" cpu_set_online 0 0
check "offline CPU 1 (now the last normal) fails with EBUSY" expect_busy 1
for c in 2 3; do
	check "offline offloaded CPU $c" cpu_set_online $c 0
done
check "offline CPU 1 still fails with only it online among normal CPUs" expect_busy 1
for c in 2 3; do
	check "online offloaded CPU $c" cpu_set_online $c 1
done
check "online CPU 0" cpu_set_online 0 1
check_eq "every CPU online at the end" "0-3" "$(cat /sys/devices/system/cpu/online)"
finish
