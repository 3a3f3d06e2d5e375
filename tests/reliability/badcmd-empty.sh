#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=" smp=4 cpu=intel timeout=300
# Bad/unusual command line: rcu_nocbs=
# Empty list: offloading is set up (runtime offload possible) but no CPU is offloaded.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
want_msgs=()
unwanted=("bad CPU range" "illegal no-CBs CPU")
want_list="(none)" want_nocb=""
. "$NOCB_SRC/tests/reliability/badcmd.body"
finish
