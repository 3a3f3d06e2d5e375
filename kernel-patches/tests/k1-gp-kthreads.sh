#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3 rcutree.sysrq_rcu=1" smp=4
# K1 in RCU's own diagnostic: show_rcu_gp_kthreads() (sysrq y with
# rcutree.sysrq_rcu=1; also printed on RCU stalls) reports "RCU callbacks
# invoked since boot" summed over every CPU.  With nci split off ci it
# must add nci, or it leaves out every offloaded invocation.  After a load
# on offloaded CPU 2, the printed total must lie between rcudata's ci+nci
# sums read just before and just after the sysrq; the load makes the nci
# sum far larger than that window, so a total without nci falls below it.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
f=/sys/kernel/debug/rcu/rcudata
sum_of() { # FIELD...: the fields summed over every CPU of rcudata
	awk -v keys=" $* " '{ for (i = 2; i <= NF; i++) { split($i, kv, "=");
		if (index(keys, " " kv[1] " ")) s += kv[2] } } END { print s + 0 }' $f
}

nci0=$(rcudata_field 2 nci)
cb_load 2 20000
nci_grew() { [ "$(rcudata_field 2 nci)" -ge $((nci0 + 20000)) ]; }
check "nci of offloaded CPU 2 grew by the load (20000)" wait_until 30 nci_grew
s0=$(sum_of ci nci)
check "sysrq y (show_rcu_gp_kthreads)" sh -c 'echo y > /proc/sysrq-trigger'
s1=$(sum_of ci nci)
total=$(dmesg | sed -n 's/.*RCU callbacks invoked since boot: \([0-9]*\).*/\1/p' | tail -1)
nci=$(sum_of nci)
note "rcudata ci+nci $s0 before, $s1 after; printed total $total; nci of all CPUs $nci"
check "show_rcu_gp_kthreads printed its total" test -n "$total"
check "the nci sum exceeds the window (a total without nci would fall below it)" \
	test "$nci" -gt $((s1 - s0))
check "printed total >= ci+nci before the sysrq" test "${total:-0}" -ge "$s0"
check "printed total <= ci+nci after the sysrq" test "${total:-0}" -le "$s1"
finish
