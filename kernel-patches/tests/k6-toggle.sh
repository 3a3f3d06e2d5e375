#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3" smp=4 timeout=420
# K6, no callback lost or counted twice across runtime changes: cbload
# floods CPU 2 (following hotplug) while /sys/devices/system/cpu/rcu_nocbs
# de-offloads and offloads it 100 times each.  On 6.12 each change takes
# CPU 2 offline and back, and a normal CPU going offline hands its queued
# callbacks to another CPU (co=), so the identity checked is: CPU 2's
# ci + nci + co - ca grew by what cbload queued plus the kernel's own
# callbacks on CPU 2.  User tasks are moved off CPU 2, but the kernel's
# own work there grows with the changes (on 6.12 the hotplug callbacks
# run on CPU 2: about 90 callbacks per change, 2026-12-04), so it is
# measured first over the same 200 changes without cbload, and the
# stated bound is twice that plus 200: far below a counted-twice batch
# of a 50k/s flood.  Not isolcpus=2 as in k1-toggle.sh: 6.12.118 refuses
# to offline a CPU isolated that way (EBUSY from the scheduler), so
# runtime offload cannot switch it (6.12 cover letter).
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
# Every user task off CPU 2 (kernel threads have no /proc/PID/exe).
off2() {
	local p
	for p in /proc/[0-9]*; do
		[ -e "$p/exe" ] && taskset -apc 0,1,3 "${p#/proc/}" >/dev/null 2>&1
	done
	return 0
}
check "move every user task off CPU 2" off2
check_eq "rcu_nocbs at boot" "1-3" "$(cat $f)"
b0=$(acct)
check "200 changes of CPU 2 without load" toggles
bg=$(( $(acct) - b0 ))
note "background: $bg callbacks on CPU 2 over 200 changes"
a0=$(acct) co0=$(rcudata_field 2 co)
check "load cbload on CPU 2 (follows hotplug)" insmod "$(nocb_ko cbload)" cpus=2 rate=$(cbload_rate 50000) work_ns=0 hotplug=1
t0=$(date +%s%N)
check "200 changes of CPU 2 through rcu_nocbs under the flood" toggles
note "200 changes in $(( ($(date +%s%N) - t0) / 1000000 )) ms"
check_eq "CPU 2 offloaded and online after the changes" "N" "$(rcudata_flags 2)"
check_eq "rcu_nocbs after the changes" "1-3" "$(cat $f)"
check "stop cbload and wait for its callbacks" sh -c 'echo 1 > /sys/kernel/debug/cbload/stop'
note "cbload: $(grep -E '^ *2 ' /sys/kernel/debug/cbload/stats)"
queued=$(cbload_stat 2 queued)
invoked=$(cbload_stat 2 invoked)
dropped=$(cbload_stat 2 dropped)
d=$(( $(acct) - a0 ))
note "CPU 2: ci+nci+co-ca +$d (co +$(( $(rcudata_field 2 co) - co0 ))); cbload queued $queued; excess $((d - queued))"
# A fifth of a second of the load, scaled down with it on a debug kernel.
flood=$(cbload_rate 10000)
check "cbload queued a flood (> $flood)" test "$queued" -gt "$flood"
check_eq "cbload invoked every callback it queued" "$queued" "$invoked"
check_eq "cbload dropped none" 0 "$dropped"
check "accounted at least the queued count (none lost)" test "$d" -ge "$queued"
check "accounted at most queued + 2 x background + 200 (none counted twice)" test "$d" -le $((queued + 2 * bg + 200))
ql_below() { [ "$(rcudata_field 2 ql | cut -d/ -f2)" -lt "$1" ]; }
check "CPU 2's queue drains below 20 within 10 s" wait_until 10 ql_below 20
check "unload cbload" rmmod cbload
check_eq "every CPU online at the end" "0-3" "$(cat /sys/devices/system/cpu/online)"
finish
