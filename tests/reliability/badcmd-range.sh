#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=0-999" smp=4 cpu=intel timeout=300
# Bad/unusual command line: rcu_nocbs=0-999
# Range beyond NR_CPUS: cpulist_parse fails (-ERANGE), the kernel warns and sets every CPU, then as for garbage -> 1-3.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
want_msgs=("rcu_nocbs= bad CPU range, all CPUs set" "CPU 0: illegal no-CBs CPU (cleared)")
unwanted=()
want_list=1-3 want_nocb="1 2 3"
. "$NOCB_SRC/tests/reliability/badcmd.body"
finish
