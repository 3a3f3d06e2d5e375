#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3 isolcpus=2" smp=4 timeout=300 kernels=6.1
# kernels=6.1: 6.1 toggles online CPUs, as this test does; 6.12 toggles
# offline ones only (k3-offload-offline.sh).
# K1 exactly once across runtime (de)offloading: cbload floods CPU 2 while
# nocbtoggle de-offloads and offloads it 100 times each (200 toggles).
# cbload counts its own callbacks; after it stops and waits for them,
# CPU 2's ci+nci must have grown by exactly what cbload queued plus the
# kernel's own callbacks on CPU 2 in the same window.  That background is
# measured first, as a rate over 200 toggles without cbload; the stated
# bound is that rate times the loaded window, plus 200.
# The split must be right too: cbload counts how many of its callbacks ran
# in task context (an rcuo kthread) and how many in softirq, and neither
# ci nor nci may fall short of its side.  rcuop/2 runs on CPU 2 itself, so
# softirqs processing CPU 2's callbacks during a transition can run on top
# of it (after local_bh_enable() in its batch loop): booked by "current is
# the rcuo kthread" alone, that softirq work would show as nci.
# Every task that closes a file or exits queues a callback on its CPU
# (file_free(), put_task_struct_rcu_user()), so a shell that wanders onto
# CPU 2 in one phase and not the other breaks the bound.  isolcpus=2 keeps
# user space off CPU 2 and this shell, with every awk it forks, is pinned to
# CPU 0: the background is the kernel's own work on CPU 2 (0 to 1 callbacks
# in 2026-12-04 runs).
. "$NOCB_SRC/tools/vm/guest-lib.sh"

f=/sys/kernel/debug/rcu/rcudata
ctl=/sys/kernel/debug/nocbtoggle/ctl
ci_nci() { echo $(( $(rcudata_field 2 ci) + $(rcudata_field 2 nci) )); }
toggles() {
	local i
	for i in $(seq 100); do
		echo "deoffload 2" > $ctl || return 1
		echo "offload 2" > $ctl || return 1
	done
}

check "pin this shell to CPU 0" taskset -pc 0 $$
check_eq "CPU 2 isolated from user space (isolcpus=2)" "2" "$(cat /sys/devices/system/cpu/isolated)"
check "load nocbtoggle" insmod "$(nocb_ko nocbtoggle)"
op2=$(pgrep -x rcuop/2)
check "rcuop/2 runs on CPU 2 (softirqs can interrupt it there)" taskset -pc 2 "$op2"
# Background: the kernel's own callbacks on CPU 2 per second of toggling,
# measured with the same 200 toggles but without cbload.
b0=$(ci_nci); t0=$(date +%s%N)
check "200 toggles of CPU 2 without load" toggles
bg_ms=$(( ($(date +%s%N) - t0) / 1000000 + 1 ))
bg=$(( $(ci_nci) - b0 ))
note "background: $bg callbacks on CPU 2 in $bg_ms ms of toggling"

c0=$(ci_nci) ci0=$(rcudata_field 2 ci) nci0=$(rcudata_field 2 nci)
check "load cbload on CPU 2" insmod "$(nocb_ko cbload)" cpus=2 rate=$(cbload_rate 50000) work_ns=0
t0=$(date +%s%N)
check "200 toggles of CPU 2 under the flood" toggles
check_eq "CPU 2 offloaded after the toggles" "N" "$(rcudata_flags 2)"
check "stop cbload and wait for its callbacks" sh -c 'echo 1 > /sys/kernel/debug/cbload/stop'
load_ms=$(( ($(date +%s%N) - t0) / 1000000 + 1 ))
# The stated bound: the background rate over the loaded window, plus 200.
bound=$(( bg * load_ms / bg_ms + 200 ))
note "cbload: $(grep -E '^ *2 ' /sys/kernel/debug/cbload/stats)"
queued=$(cbload_stat 2 queued)
invoked=$(cbload_stat 2 invoked)
dropped=$(cbload_stat 2 dropped)
d=$(( $(ci_nci) - c0 ))
dci=$(( $(rcudata_field 2 ci) - ci0 )) dnci=$(( $(rcudata_field 2 nci) - nci0 ))
note "CPU 2: ci +$dci, nci +$dnci, ci+nci +$d; cbload queued $queued; excess $((d - queued)), bound $bound (loaded window $load_ms ms)"
# A fifth of a second of the load, scaled down with it on a debug kernel.
flood=$(cbload_rate 10000)
check "cbload queued a flood (> $flood)" test "$queued" -gt "$flood"
check_eq "cbload invoked every callback it queued" "$queued" "$invoked"
check_eq "cbload dropped none" 0 "$dropped"
check "ci+nci grew by at least the queued count (none lost)" test "$d" -ge "$queued"
check "ci+nci grew by at most queued + background + 200 (none counted twice)" test "$d" -le $((queued + bound))
check "both ci and nci grew (the CPU changed hands)" test "$dci" -gt 0 -a "$dnci" -gt 0
task=$(cbload_stat 2 invoked_task)
soft=$((invoked - task))
note "cbload: $task invoked in task context (rcuop/2), $soft in softirq; ci excess $((dci - soft)), nci excess $((dnci - task))"
check "cbload's callbacks ran in both contexts" test "$task" -gt 0 -a "$soft" -gt 0
check "ci grew by at least cbload's softirq invocations (none booked as nci)" test "$dci" -ge "$soft"
check "nci grew by at least cbload's rcuo invocations (none booked as ci)" test "$dnci" -ge "$task"
ql_below() { [ "$(rcudata_field 2 ql | cut -d/ -f2)" -lt "$1" ]; }
check "CPU 2's queue drains below 20 (the kernel's own) within 10 s" wait_until 10 ql_below 20
check "unload cbload" rmmod cbload
check "unload nocbtoggle" rmmod nocbtoggle
finish
