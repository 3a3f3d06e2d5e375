#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3" smp=4
# On a guest booted without the plan (the image's rcu_nocbs=1-3, default
# nocbctl.conf), `nocbctl plan --check --isolate=2-3` exits 1 and names
# each mismatch that /proc and sysfs show: the kernel parameters, the
# movable kernel threads (in one line) and every interrupt allowed on CPUs 2-3, the
# unbound workqueue mask, systemd's CPUAffinity= and PID 1; and nothing
# else.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
. "$NOCB_SRC/tools/nocbctl/tests/guest/common.sh"
. "$NOCB_SRC/tools/nocbctl/tests/guest/plan-lib.sh"

phase start
kts=$(kthreads_on 2-3)
irqs=$(irqs_on 2-3)
phase scanned
out=$("$NOCBCTL" plan --check --isolate=2-3)
rc=$?
phase checked
check_eq "plan --check exits 1" 1 $rc
printf '%s\n' "$out" | sed 's/^/#   /'
mapfile -t lines <<<"$out"
named() { # DESCRIPTION ERE: exactly one mismatch line matches (no fork)
	local l n=0 re="^mismatch: $2"
	for l in "${lines[@]}"; do [[ $l =~ $re ]] && n=$((n + 1)); done
	check_eq "$1" 1 "$n"
}
m=$(grep '^mismatch: ' <<<"$out")

named "rcu_nocbs=1-3 differs" "kernel parameter: /proc/cmdline has rcu_nocbs=1-3, the plan rcu_nocbs=2-3;"
for w in nohz_full=2-3 isolcpus=domain,managed_irq,2-3 irqaffinity=0-1; do
	named "$w missing" "kernel parameter: $w is missing from /proc/cmdline;"
done
expect=4
check "movable kernel threads on CPUs 2-3 exist" test -n "$kts"
# One finding for all of them (one with its own line when it is alone),
# naming each with its allowed CPUs.
nk=0 group=
while read -r pid name allowed; do
	[ -n "$pid" ] || continue
	case $name in
	rcuo*) ;;	# nocbctl-apply.service put them on CPU 0
	*) nk=$((nk + 1)) group+="$pid $name $allowed"$'\n' ;;
	esac
done <<<"$kts"
if [ $nk = 1 ]; then
	read -r pid name allowed <<<"$group"
	named "$name (pid $pid) on $allowed" \
		"kernel thread: ${name//[\/.]/.} \\(pid $pid\\) may run on CPUs $allowed, not only on the housekeeping CPUs 0-1; fix: taskset -pc 0-1 $pid$"
	expect=$((expect + 1))
elif [ $nk -gt 1 ]; then
	named "$nk kernel threads in one line" "kernel threads: $nk may run outside the housekeeping CPUs 0-1: "
	kline=$(grep '^mismatch: kernel threads: ' <<<"$out")
	while read -r pid name allowed; do
		[ -n "$pid" ] || continue
		check "$name (pid $pid) on $allowed named" grep -qF "$name (pid $pid) on $allowed" <<<"$kline"
	done <<<"$group"
	expect=$((expect + 1))
fi
check_eq "no offload kthread named (all on CPU $(sed -n 's/^cpus *= *//p' /etc/nocbctl.conf))" 0 \
	"$(grep -c '^mismatch: offload kthread' <<<"$m")"
for p in $(offload_pids); do
	check_eq "$(comm_of "$p") (pid $p) on CPU 0" 0 "$(allowed_of "$p")"
done
while read -r irq aff; do
	[ -n "$irq" ] || continue
	if [[ $'\n'$out =~ $'\n'"note: irq $irq ("[^$'\n']*") is a managed per-queue interrupt " ]]; then
		pass "irq $irq on $aff: noted as a managed queue interrupt"
	else
		named "irq $irq on $aff" "interrupt: irq $irq \\(.*\\) smp_affinity_list $aff includes isolated CPUs"
		expect=$((expect + 1))
	fi
done <<<"$irqs"
check "interrupts on CPUs 2-3 exist" test -n "$irqs"
wq=$(cat /sys/devices/virtual/workqueue/cpumask)
named "workqueue cpumask $wq" "unbound workqueues: cpumask $wq \\(CPUs 0-3\\)"
named "CPUAffinity= unset" "systemd: CPUAffinity= is not set"
named "PID 1 on $(allowed_of 1)" "systemd: PID 1 may run on CPUs $(allowed_of 1),"
expect=$((expect + 3))
check_eq "nothing else named" "$expect" "$(grep -c . <<<"$m")"
check "summary line" grep -q "^plan --check: $expect mismatches (isolated 2-3, housekeeping 0-1)$" <<<"$out"

j=$("$NOCBCTL" --json plan --check --isolate=2-3)
check_eq "--json: exit 1" 1 $?
check_eq "--json: the same mismatches" "$expect" "$(jq '.mismatches | length' <<<"$j")"
check_eq "--json: not clean" false "$(jq .clean <<<"$j")"
check_rc "a plan that cannot work: exit 2" 2 "$NOCBCTL" plan --check --isolate=0-3
phase done
finish
