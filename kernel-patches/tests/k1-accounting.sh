#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3" smp=4
# K1: separate accounting of offloaded (nci) and normal (ci) invocations.
. "$NOCB_SRC/kernel-patches/tests/k1-accounting.body"
