#!/bin/bash
# nocb-guest: cmdline="cpu0_hotplug rcu_nocbs=2-3" smp=4 cpu=intel timeout=3600
# Hotplug stress, 1000 random steps of CPU offline/online and runtime
# offload/de-offload (K6) under callback load
# (see hotplug-stress.body).
. "$NOCB_SRC/tools/vm/guest-lib.sh"
STEPS=1000
. "$NOCB_SRC/tests/reliability/hotplug-stress.body"
