#!/bin/bash
# nocb-guest: cmdline="cpu0_hotplug rcu_nocbs=1-3" smp=4 cpu=intel kernels=6.1
# kernels=6.1: needs CPU 0 hot-removable (cpu0_hotplug), which 6.12 x86
# does not allow; there CPU 0 is the normal CPU that stays (k3-boot-cpu.sh).
# K3 refuses before CPU teardown starts, so a refused offline has nothing
# to roll back: tasks bound to the last normal CPU (0), one sleeping in a
# loop and one spinning, keep their affinity through 20 refused offlines,
# the scheduler never pushes them off ("no longer affine"), and the CPU's
# hotplug state stays at "online".  A refusal from a teardown callback
# (after sched_cpu_deactivate()) fails all three.
. "$NOCB_SRC/tools/vm/guest-lib.sh"

cpu=/sys/devices/system/cpu/cpu0
check "CPU 0 is hot-removable (cpu0_hotplug)" test -w $cpu/online
check_eq "CPU 0 is the only normal CPU" "0" "$(awk '$1 !~ /N/ { print $1 }' /sys/kernel/debug/rcu/rcudata | tr '\n' ' ' | sed 's/ $//')"
online=$(awk -F': ' '$2 == "online" { print $1 }' /sys/devices/system/cpu/hotplug/states)
check "the hotplug state list names 'online'" test -n "$online"
check_eq "CPU 0 starts at the online state" "$online" "$(cat $cpu/hotplug/state)"

taskset -c 0 bash -c 'while :; do sleep 0.01; done' &
sleeper=$!
taskset -c 0 bash -c 'while :; do :; done' &
spinner=$!
sleep 1
mask() { taskset -p "$1" | sed 's/.*: //'; }
check_eq "sleeping task bound to CPU 0" 1 "$(mask $sleeper)"
check_eq "spinning task bound to CPU 0" 1 "$(mask $spinner)"

refused=0 other=
for i in $(seq 20); do
	if msg=$(cpu_set_online 0 0); then
		other="offline $i succeeded"
		cpu_set_online 0 1
		break
	fi
	[ "$msg" = "Device or resource busy" ] && refused=$((refused + 1)) || other="offline $i: $msg"
	sleep 0.05
done
check_eq "20 offlines of CPU 0 refused with EBUSY${other:+ ($other)}" 20 "$refused"
check_eq "sleeping task still bound to CPU 0" 1 "$(mask $sleeper)"
check_eq "spinning task still bound to CPU 0" 1 "$(mask $spinner)"
check_eq "CPU 0 back at the online state" "$online" "$(cat $cpu/hotplug/state)"
check_eq "no task pushed off CPU 0" "" "$(dmesg | grep 'no longer affine' | head -3)"
check "kernel says why it refused" grep -q 'CPU 0 is the last online CPU without offloaded callbacks' <(dmesg)
kill $sleeper $spinner
wait 2>/dev/null
check_eq "every CPU online at the end" "0-3" "$(cat /sys/devices/system/cpu/online)"
finish
