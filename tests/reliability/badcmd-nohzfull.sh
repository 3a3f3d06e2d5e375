#!/bin/bash
# nocb-guest: cmdline="nohz_full=1-3" smp=4 cpu=intel timeout=300
# Bad/unusual command line: nohz_full=1-3
# nohz_full= alone: its CPUs become no-CBs CPUs (1-3); CPU 0 untouched.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
want_msgs=("NO_HZ: Full dynticks CPUs: 1-3.")
unwanted=("bad CPU range" "illegal no-CBs CPU")
want_list=1-3 want_nocb="1 2 3"
. "$NOCB_SRC/tests/reliability/badcmd.body"
finish
