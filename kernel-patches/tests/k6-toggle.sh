#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3 isolcpus=2" smp=4 timeout=420
# K6, no callback lost or counted twice across runtime changes: cbload
# floods CPU 2 (following hotplug) while /sys/devices/system/cpu/rcu_nocbs
# de-offloads and offloads it 100 times each.  On 6.12 each change takes
# CPU 2 offline and back, and a normal CPU going offline hands its queued
# callbacks to another CPU (co=), so the identity checked is: CPU 2's
# ci + nci + co - ca grew by what cbload queued plus the kernel's own
# callbacks on CPU 2; isolcpus=2 and a shell pinned to CPU 0 keep the
# latter near 0 (see k1-toggle.sh), stated bound 200.  Afterwards
# nothing of cbload's is left queued.
. "$NOCB_SRC/tools/vm/guest-lib.sh"

f=/sys/devices/system/cpu/rcu_nocbs
acct() { echo $(( $(rcudata_field 2 ci) + $(rcudata_field 2 nci) + $(rcudata_field 2 co) - $(rcudata_field 2 ca) )); }
toggles() {
	local i
	for i in $(seq 100); do
		echo 1,3 > $f || return 1
		echo 1-3 > $f || return 1
	done
}

check "pin this shell to CPU 0" taskset -pc 0 $$
check_eq "CPU 2 isolated from user space (isolcpus=2)" "2" "$(cat /sys/devices/system/cpu/isolated)"
check_eq "rcu_nocbs at boot" "1-3" "$(cat $f)"
a0=$(acct) co0=$(rcudata_field 2 co)
check "load cbload on CPU 2 (follows hotplug)" insmod "$(nocb_ko cbload)" cpus=2 rate=50000 work_ns=0 hotplug=1
t0=$(date +%s%N)
check "200 changes of CPU 2 through rcu_nocbs under the flood" toggles
note "200 changes in $(( ($(date +%s%N) - t0) / 1000000 )) ms"
check_eq "CPU 2 offloaded and online after the changes" "N" "$(rcudata_flags 2)"
check_eq "rcu_nocbs after the changes" "1-3" "$(cat $f)"
check "stop cbload and wait for its callbacks" sh -c 'echo 1 > /sys/kernel/debug/cbload/stop'
stats=$(grep -E '^ *2 ' /sys/kernel/debug/cbload/stats)
note "cbload: $stats"
queued=$(sed -n 's/.* queued=\([0-9]*\).*/\1/p' <<<"$stats")
invoked=$(sed -n 's/.* invoked=\([0-9]*\).*/\1/p' <<<"$stats")
dropped=$(sed -n 's/.* dropped=\([0-9]*\).*/\1/p' <<<"$stats")
d=$(( $(acct) - a0 ))
note "CPU 2: ci+nci+co-ca +$d (co +$(( $(rcudata_field 2 co) - co0 ))); cbload queued $queued; excess $((d - queued))"
check "cbload queued a flood (> 10000)" test "$queued" -gt 10000
check_eq "cbload invoked every callback it queued" "$queued" "$invoked"
check_eq "cbload dropped none" 0 "$dropped"
check "accounted at least the queued count (none lost)" test "$d" -ge "$queued"
check "accounted at most queued + 200 (none counted twice)" test "$d" -le $((queued + 200))
ql_below() { [ "$(rcudata_field 2 ql | cut -d/ -f2)" -lt "$1" ]; }
check "CPU 2's queue drains below 20 within 10 s" wait_until 10 ql_below 20
check "unload cbload" rmmod cbload
check_eq "every CPU online at the end" "0-3" "$(cat /sys/devices/system/cpu/online)"
finish
