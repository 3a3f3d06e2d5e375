#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=all" smp=4 cpu=intel timeout=300
# Bad/unusual command line: rcu_nocbs=all
# 'all' (bitmap_parselist keyword): every possible CPU, CPU 0 cleared (K4) -> 1-3.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
want_msgs=("CPU 0: illegal no-CBs CPU (cleared)")
unwanted=("bad CPU range")
want_list=1-3 want_nocb="1 2 3"
. "$NOCB_SRC/tests/reliability/badcmd.body"
finish
