#!/bin/bash
# nocb-guest: cmdline="cpu0_hotplug rcu_nocbs=2-3" smp=4 cpu=intel kernels=6.1
# kernels=6.1: needs CPU 0 hot-removable (cpu0_hotplug), which 6.12 x86
# does not allow; there hotplug-check exits 3 (kernel-patches/tests/k3-boot-cpu.sh).
# hotplug-check on a guest whose normal CPUs are 0 and 1 (both hot-
# pluggable thanks to cpu0_hotplug): --force offlines CPU 1, the kernel
# refuses CPU 0 with EBUSY (K3), and every CPU is online again afterwards;
# a state file left by a killed run is honoured; stats --watch survives
# CPU 3 going offline and online.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
. "$NOCB_SRC/tools/nocbctl/tests/guest/common.sh"

state=/run/nocbctl/hotplug-check.state
all_online() {
	local f
	for f in /sys/devices/system/cpu/cpu[0-9]*/online; do
		check_eq "$f reads 1" 1 "$(cat "$f")"
	done
	check "no state file left" test ! -e "$state"
}

check "cpu0/online exists (cpu0_hotplug)" test -e /sys/devices/system/cpu/cpu0/online
check_eq "rcudata: CPUs 0 and 1 normal" "|" "$(rcudata_flags 0)|$(rcudata_flags 1)"

check_rc "without --force: CPU 1 is normal too, exit 2" 2 "$NOCBCTL" hotplug-check
all_online

out=$("$NOCBCTL" hotplug-check --force 2>&1)
check_eq "hotplug-check --force exits 0" 0 $?
printf '%s\n' "$out" | sed 's/^/#   /'
check "prints refused (EBUSY)" grep -q 'refused (EBUSY)' <<<"$out"
all_online

# as if a run had been killed with SIGKILL after offlining CPU 1
cpu_set_online 1 0
check_eq "CPU 1 offline by hand" 0 "$(cat /sys/devices/system/cpu/cpu1/online)"
mkdir -p /run/nocbctl
printf '# nocbctl hotplug-check: CPUs to bring back online\n0-1\n' > "$state"
out=$("$NOCBCTL" hotplug-check --force 2>&1)
check_eq "after a killed run: exits 0" 0 $?
printf '%s\n' "$out" | sed 's/^/#   /'
check "says it restored the interrupted run" grep -q 'interrupted run' <<<"$out"
all_online

# stats --watch keeps working while an offloaded CPU goes offline and back
"$NOCBCTL" stats --watch 0.2 --count 60 >/tmp/nocbctl-stats.out 2>&1 &
sp=$!
sleep 0.5
check "offline CPU 3 (offloaded) by hand" cpu_set_online 3 0
check "stats shows CPU 3 offline (!N)" \
	wait_until 10 grep -q '^    3 !N' /tmp/nocbctl-stats.out
check "online CPU 3 again" cpu_set_online 3 1
wait "$sp"
check_eq "stats --watch exits 0 across CPU 3 offline/online" 0 $?
check "stats shows CPU 3 online again afterwards" \
	bash -c "tail -n 5 /tmp/nocbctl-stats.out | grep -q '^    3 N '"

j=$("$NOCBCTL" --json hotplug-check --force)
check "--json hotplug-check parses" json_ok <<<"$j"
check_eq "--json: result refused" refused "$(json_get 'd["result"]' <<<"$j")"
all_online
finish
