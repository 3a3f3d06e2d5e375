#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=garbage" smp=4 cpu=intel timeout=300
# Bad/unusual command line: rcu_nocbs=garbage
# Not a CPU list: the kernel warns, sets every CPU, drops the nonexistent ones and clears CPU 0 (K4) -> 1-3 offloaded.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
want_msgs=("rcu_nocbs= bad CPU range, all CPUs set" "contains nonexistent CPUs" "CPU 0: illegal no-CBs CPU (cleared)")
unwanted=()
want_list=1-3 want_nocb="1 2 3"
. "$NOCB_SRC/tests/reliability/badcmd.body"
finish
