#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=2-3" smp=4 kernels=6.12
# K3/K4 at runtime offload on 6.12, which (de)offloads offline CPUs only
# (6.1's k3-offload-refusal.sh toggles online ones): through the
# nocbtoggle test module, rcu_nocb_cpu_offload() refuses CPU 0 (EINVAL,
# K4) and any online CPU, and an offline CPU offloaded at runtime has its
# callbacks invoked by its rcuo kthread once back online; de-offloaded,
# by rcu_core() again.  An offline CPU is never the last online normal
# CPU, so the EBUSY case of 6.1 does not arise (cover letter).
. "$NOCB_SRC/tools/vm/guest-lib.sh"

ctl=/sys/kernel/debug/nocbtoggle/ctl
toggle() { local err; err=$( { echo "$1 $2" > $ctl; } 2>&1 ); local rc=$?; [ -n "$err" ] && echo "${err##*: }"; return $rc; }
flags() { awk '{ print $1 }' /sys/kernel/debug/rcu/rcudata | tr '\n' ' ' | sed 's/ $//'; }

check "load nocbtoggle" insmod "$(nocb_ko nocbtoggle)"
check_eq "at boot: 2 and 3 offloaded" "0 1 2N 3N" "$(flags)"
check_eq "offload CPU 0: EINVAL" "Invalid argument" "$(toggle offload 0)"
check "kernel says why" grep -q 'Cannot CB-offload CPU 0, it is an illegal no-CBs CPU' <(dmesg)
check_eq "offload online CPU 1: EINVAL" "Invalid argument" "$(toggle offload 1)"
check_eq "garbage: EINVAL" "Invalid argument" "$(toggle offload x)"
check_eq "nothing changed after the refusals" "0 1 2N 3N" "$(flags)"

check "offline CPU 1" cpu_set_online 1 0
check "offload offline CPU 1" toggle offload 1
check_eq "CPU 1 offloaded while offline" "0 1!N 2N 3N" "$(flags)"
check "online CPU 1" cpu_set_online 1 1
check_eq "CPU 1 offloaded and online" "0 1N 2N 3N" "$(flags)"
nci1=$(rcudata_field 1 nci) ci1=$(rcudata_field 1 ci)
cb_load 1 500
# Lazy callbacks wait up to 10 s in the bypass list before their grace period.
nci_grew() { [ "$(rcudata_field 1 nci)" -ge $((nci1 + 500)) ]; }
check "CPU 1's callbacks invoked by its rcuo kthread (nci +500 within 20 s)" wait_until 20 nci_grew
check_eq "and none by rcu_core() (ci unchanged)" "$ci1" "$(rcudata_field 1 ci)"

check "offline CPU 1 again" cpu_set_online 1 0
check "de-offload offline CPU 1" toggle deoffload 1
check "online CPU 1" cpu_set_online 1 1
check_eq "back to the boot state" "0 1 2N 3N" "$(flags)"
ci1=$(rcudata_field 1 ci)
cb_load 1 500
ci_grew() { [ "$(rcudata_field 1 ci)" -ge $((ci1 + 500)) ]; }
check "CPU 1's callbacks invoked by rcu_core() again (ci +500 within 10 s)" wait_until 10 ci_grew
check_eq "every CPU online at the end" "0-3" "$(cat /sys/devices/system/cpu/online)"
check "unload nocbtoggle" rmmod nocbtoggle
finish
