#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=garbage" smp=4 cpu=intel timeout=300
# Bad/unusual command line: rcu_nocbs=garbage
# Not a CPU list: the kernel warns, sets every possible CPU (0-3: cpumask_setall stops at nr_cpu_ids, so no nonexistent-CPU note) and clears CPU 0 (K4) -> 1-3 offloaded.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
want_msgs=("rcu_nocbs= bad CPU range, all CPUs set" "CPU 0: illegal no-CBs CPU (cleared)")
unwanted=()
want_list=1-3 want_nocb="1 2 3"
. "$NOCB_SRC/tests/reliability/badcmd.body"
finish
