#!/bin/bash
# nocb-guest: cmdline="cpu0_hotplug rcu_nocbs=2-3" smp=4 cpu=intel timeout=600
# rcudata's "!" (offline) flag must agree with the CPU's real state in every
# read, also right after other CPUs were hot(un)plugged: CPU 0 is taken
# offline, then CPUs 2 and 3 go offline/online STEPS times, and after each
# step rcudata is read READS times; every read must show CPU 0 offline.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
STEPS=${STEPS:-60} READS=${READS:-20}
check "offline CPU 0" cpu_set_online 0 0
bad=0 reads=0
# Each read and match is done by bash itself: a fork costs more than the
# read in an emulated guest, and forks would space the reads out.
nl=$'\n' offline0=$'\n *0!'
for ((s = 0; s < STEPS; s++)); do
	c=$((2 + s % 2))
	cpu_set_online $c $(( (s / 2) % 2 == 0 ? 0 : 1 )) >/dev/null
	for ((r = 0; r < READS; r++)); do
		txt=
		IFS= read -r -d '' txt < /sys/kernel/debug/rcu/rcudata	# ends at EOF: no NUL
		reads=$((reads + 1))
		if ! [[ $nl$txt =~ $offline0 ]]; then
			bad=$((bad + 1))
			[ $bad -le 5 ] && note "step $s read $r: CPU 0 not flagged offline (sysfs cpu0/online=$(cat /sys/devices/system/cpu/cpu0/online), online=$(cat /sys/devices/system/cpu/online)): $(tr '\n' '|' <<<"$txt")"
		fi
	done
done
note "$reads reads, $bad showed CPU 0 online while it was offline"
check_eq "every rcudata read shows offline CPU 0 as offline" 0 "$bad"
for c in 0 2 3; do cpu_set_online $c 1 >/dev/null; done
check_eq "every CPU online at the end" 0-3 "$(cat /sys/devices/system/cpu/online)"
finish
