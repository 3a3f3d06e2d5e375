#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3 isolcpus=2" smp=4 kernels=6.12
# K2 with lazy callbacks (6.12, CONFIG_RCU_LAZY; 6.1 has none, so LAZY is
# always 0 there): call_rcu() on an offloaded CPU queues lazy callbacks in
# its bypass list, and ql=LAZY/TOTAL shows them: LAZY rises under the
# load, is part of TOTAL, and drains to 0 after it, with ci+nci exact.
# As in k1-toggle.sh, isolcpus=2 and a shell pinned to CPU 0 keep user
# space's own callbacks off CPU 2.
. "$NOCB_SRC/tools/vm/guest-lib.sh"

f=/sys/kernel/debug/rcu/rcudata
lazy() { rcudata_field 2 ql | cut -d/ -f1; }
total() { rcudata_field 2 ql | cut -d/ -f2; }
ci_nci() { echo $(( $(rcudata_field 2 ci) + $(rcudata_field 2 nci) )); }

check "pin this shell to CPU 0" taskset -pc 0 $$
check_eq "CPU 2 offloaded" "N" "$(rcudata_flags 2)"
c0=$(ci_nci)
check "load cbload on CPU 2, lazy" insmod "$(nocb_ko cbload)" cpus=2 rate=2000 work_ns=0 lazy=1
lazy_above() { [ "$(lazy)" -ge "$1" ]; }
check "LAZY of CPU 2 reaches 500 (lazy callbacks wait in the bypass)" wait_until 10 lazy_above 500
line=$(grep -E '^ *2N ' $f)
note "CPU 2 under lazy load: $line"
l=$(sed -n 's/.* ql=\([0-9]*\)\/\([0-9]*\).*/\1/p' <<<"$line")
t=$(sed -n 's/.* ql=\([0-9]*\)\/\([0-9]*\).*/\2/p' <<<"$line")
check "LAZY is part of TOTAL ($l <= $t)" test "$l" -le "$t"
check "stop cbload and wait for its callbacks (rcu_barrier flushes the bypass)" sh -c 'echo 1 > /sys/kernel/debug/cbload/stop'
note "cbload: $(grep -E '^ *2 ' /sys/kernel/debug/cbload/stats)"
queued=$(cbload_stat 2 queued)
invoked=$(cbload_stat 2 invoked)
check_eq "cbload invoked every callback it queued" "$queued" "$invoked"
lazy_zero() { [ "$(lazy)" -eq 0 ]; }
check "LAZY of CPU 2 drains to 0 within 15 s" wait_until 15 lazy_zero
d=$(( $(ci_nci) - c0 ))
note "CPU 2: ci+nci +$d, cbload queued $queued"
check "ci+nci grew by at least the queued count (none lost)" test "$d" -ge "$queued"
check "ci+nci grew by at most queued + 20 (none counted twice)" test "$d" -le $((queued + 20))
check "unload cbload" rmmod cbload
finish
