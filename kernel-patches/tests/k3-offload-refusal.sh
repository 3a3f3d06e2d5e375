#!/bin/bash
# nocb-guest: cmdline="cpu0_hotplug rcu_nocbs=2-3" smp=4 cpu=intel kernels=6.1
# kernels=6.1: 6.1 toggles online CPUs; 6.12 toggles offline ones only
# (k3-offload-offline.sh).
# K3/K4 at runtime offload: rcu_nocb_cpu_offload() (through the nocbtoggle
# test module) refuses CPU 0 with EINVAL and the last online normal CPU
# with EBUSY, and changes nothing when it refuses; other offloads and
# de-offloads of online CPUs work (6.1 toggles online CPUs only).
. "$NOCB_SRC/tools/vm/guest-lib.sh"

ctl=/sys/kernel/debug/nocbtoggle/ctl
toggle() { local err; err=$( { echo "$1 $2" > $ctl; } 2>&1 ); local rc=$?; [ -n "$err" ] && echo "${err##*: }"; return $rc; }
offloaded() { awk '$1 ~ /N/ { sub(/[^0-9].*/, "", $1); printf "%s%s", s, $1; s = " " }' /sys/kernel/debug/rcu/rcudata; }

check "load nocbtoggle" insmod "$(nocb_ko nocbtoggle)"
check_eq "offloaded at boot: 2 3" "2 3" "$(offloaded)"
check_eq "offload CPU 0: EINVAL" "Invalid argument" "$(toggle offload 0)"
check_eq "garbage: EINVAL" "Invalid argument" "$(toggle offload x)"
check "offline CPU 0 (CPU 1 stays normal)" cpu_set_online 0 0
check_eq "offload CPU 1, the last online normal CPU: EBUSY" "Device or resource busy" "$(toggle offload 1)"
check "kernel says why" grep -q 'Cannot CB-offload CPU 1, the last online CPU without offloaded callbacks' <(dmesg)
check_eq "nothing changed after the refusals" "2 3" "$(offloaded)"
check "online CPU 0" cpu_set_online 0 1
check "offload CPU 1 (CPU 0 stays normal)" toggle offload 1
check_eq "offloaded now: 1 2 3" "1 2 3" "$(offloaded)"
check "offload CPU 0 still refused" test "$(toggle offload 0)" = "Invalid argument"
check "de-offload CPU 1" toggle deoffload 1
check "de-offload CPU 2" toggle deoffload 2
check_eq "offloaded now: 3" "3" "$(offloaded)"
check "offload CPU 2" toggle offload 2
check_eq "offloaded at the end: 2 3" "2 3" "$(offloaded)"
check "unload nocbtoggle" rmmod nocbtoggle
finish
