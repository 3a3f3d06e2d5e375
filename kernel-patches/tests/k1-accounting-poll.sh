#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3 rcu_nocb_poll" smp=4
# K1 in polling mode: the offload kthreads poll instead of being woken.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
check "kernel log: polling mode" grep -q 'Poll for callbacks from no-CBs CPUs' <(dmesg)
. "$NOCB_SRC/kernel-patches/tests/k1-accounting.body"
