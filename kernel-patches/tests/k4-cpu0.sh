#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=0-3" smp=4
# K4: CPU 0 is cleared from rcu_nocbs= with the seed's message.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
check "kernel log: CPU 0: illegal no-CBs CPU (cleared)" grep -q 'rcu: 	CPU 0: illegal no-CBs CPU (cleared)\.' <(dmesg)
check_eq "kernel log: final list is 1-3" "1-3" "$(dmesg | sed -n 's/.*Offload RCU callbacks from CPUs: \(.*\)\.$/\1/p')"
check_eq "rcudata: CPU 0 not offloaded" "" "$(rcudata_flags 0)"
for c in 1 2 3; do
	check_eq "rcudata: CPU $c offloaded" N "$(rcudata_flags $c)"
done
finish
