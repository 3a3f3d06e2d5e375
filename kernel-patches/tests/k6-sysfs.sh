#!/bin/bash
# nocb-guest: cmdline="cpu0_hotplug rcu_nocbs=2-3" smp=4 cpu=intel
# K6: /sys/devices/system/cpu/rcu_nocbs reads the no-CBs CPUs and a
# write makes exactly the CPUs listed no-CBs CPUs, online or offline,
# with the rules of K3 and K4 (CPU 0: EINVAL; no normal online CPU left:
# EBUSY) and garbage refused, each refusal changing nothing.  The same on
# 6.1 and 6.12 although they switch online and offline CPUs respectively:
# the kernel hotplugs a CPU for its switch and back.  The EBUSY case
# needs CPU 0 offline, which only 6.1 (cpu0_hotplug) allows on x86.
. "$NOCB_SRC/tools/vm/guest-lib.sh"

f=/sys/devices/system/cpu/rcu_nocbs
set_nocbs() { local err; err=$( { echo "$1" > $f; } 2>&1 ); local rc=$?; [ -n "$err" ] && echo "${err##*: }"; return $rc; }
flags() { awk '{ print $1 }' /sys/kernel/debug/rcu/rcudata | tr '\n' ' ' | sed 's/ $//'; }

check_eq "rcu_nocbs is root-writable, world-readable (0644)" 644 "$(stat -c %a $f)"
check_eq "reads the boot list" "2-3" "$(cat $f)"
check "offload CPU 1: write 1-3" set_nocbs 1-3
check_eq "reads 1-3" "1-3" "$(cat $f)"
check_eq "rcudata: 1-3 offloaded, all online" "0 1N 2N 3N" "$(flags)"
check "de-offload CPU 2: write 1,3" set_nocbs 1,3
check_eq "rcudata: 1 and 3 offloaded" "0 1N 2 3N" "$(flags)"
check_eq "every CPU online after the switches" "0-3" "$(cat /sys/devices/system/cpu/online)"

check_eq "CPU 0 in the list: EINVAL" "Invalid argument" "$(set_nocbs 0-3)"
check_eq "garbage: EINVAL" "Invalid argument" "$(set_nocbs garbage)"
check_eq "out of range: EINVAL" "Invalid argument" "$(set_nocbs 1-99)"
check_eq "nothing changed after the refusals" "1,3" "$(cat $f)"
check "kernel still says 1 and 3" test "$(flags)" = "0 1N 2 3N"

# An offline CPU switches and stays offline.
check "offline CPU 3" cpu_set_online 3 0
check "de-offload offline CPU 3: write 1" set_nocbs 1
check_eq "reads 1" "1" "$(cat $f)"
check_eq "CPU 3 still offline" 0 "$(cat /sys/devices/system/cpu/cpu3/online)"
check "online CPU 3" cpu_set_online 3 1
check_eq "CPU 3 back online, normal" "0 1N 2 3" "$(flags)"

if [ -e /sys/devices/system/cpu/cpu0/online ]; then
	check "offline CPU 0 (6.1, cpu0_hotplug)" cpu_set_online 0 0
	check_eq "offloading 2-3 too would leave no normal online CPU: EBUSY" \
		"Device or resource busy" "$(set_nocbs 1-3)"
	check_eq "nothing changed after EBUSY" "1" "$(cat $f)"
	check "offload 2 (CPU 3 stays normal)" set_nocbs 1-2
	check "online CPU 0" cpu_set_online 0 1
else
	note "CPU 0 cannot go offline on this kernel: it is the normal CPU that stays, no EBUSY case"
	check "offload 2" set_nocbs 1-2
fi
check_eq "rcudata at the end: 1 and 2 offloaded" "0 1N 2N 3" "$(flags)"
check "back to the boot list: write 2-3" set_nocbs 2-3
check_eq "rcudata: boot state" "0 1 2N 3N" "$(flags)"
check_eq "every CPU online at the end" "0-3" "$(cat /sys/devices/system/cpu/online)"
finish
