#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=2-3 nohz_full=2-3 isolcpus=domain,managed_irq,2-3 irqaffinity=0-1" smp=4
# Booted with the command line that `nocbctl plan --isolate=2-3` prints
# (the header above: the test fails when they differ) and with the rest of
# the plan applied (nocbctl.conf, systemd's CPUAffinity=, the after-boot
# commands), `nocbctl plan --check` passes, as /proc and sysfs confirm;
# an offload kthread, an interrupt and the workqueue mask then moved back
# onto an isolated CPU are each named, and once restored, clean again.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
. "$NOCB_SRC/tools/nocbctl/tests/guest/common.sh"
. "$NOCB_SRC/tools/nocbctl/tests/guest/plan-lib.sh"

phase start
j=$("$NOCBCTL" plan --isolate=2-3 --json)
check_eq "plan --isolate=2-3 exits 0" 0 $?
eval "$(jq -r '@sh "cmdline=\(.cmdline) hk=\(.housekeeping) cfg=\(.config.file) cfg_cpus=\(.config.cpus) sd=\(.systemd.file) sd_aff=\(.systemd.CPUAffinity)"' <<<"$j")"
check_eq "plan's command line is this boot's" "$(header_cmdline)" "$cmdline"
for w in $cmdline; do
	check "/proc/cmdline has $w" grep -qw -- "$w" /proc/cmdline
done
check_eq "housekeeping CPUs" 0-1 "$hk"

# apply what the plan says
printf 'cpus = %s\npolicy = other\n' "$cfg_cpus" > "$cfg"
check "nocbctl apply" "$NOCBCTL" apply
mkdir -p "${sd%/*}"
printf '[Manager]\nCPUAffinity=%s\n' "$sd_aff" > "$sd"
check "systemctl daemon-reexec" systemctl daemon-reexec
k=$(pgrep -x kswapd0)
check "kswapd0 placed itself on its node's CPUs, 2-3 too" touches "$(allowed_list "$k")" 2-3
while read -r cmd; do
	check "after boot: $cmd" bash -c "$cmd"
done < <(jq -r '.after_boot[].command' <<<"$j")
check_eq "kswapd0 now on the housekeeping CPUs" 0-1 "$(allowed_list "$k")"

phase applied
out=$("$NOCBCTL" plan --check --isolate=2-3)
check_eq "plan --check exits 0" 0 $?
printf '%s\n' "$out" | sed 's/^/#   /'
check "plan --check: clean" grep -q '^plan --check: clean (isolated 2-3, housekeeping 0-1)$' <<<"$out"
check_eq "plan --check: no mismatch line" 0 "$(grep -c '^mismatch:' <<<"$out")"
check_rc "the config's CPUs give the same verdict" 0 "$NOCBCTL" plan --check

# the same, from /proc and sysfs
phase checked
kts=$(movable_kthreads)
check "offload kthreads found" grep -q ' rcuop/' <<<"$kts"
check_eq "no movable kernel thread (rcuo* among them) allowed on CPUs 2-3" "" \
	"$(kthreads_on 2-3 "$kts")"
check_eq "unbound workqueue cpumask" 3 "$(cat /sys/devices/virtual/workqueue/cpumask)"
check_eq "PID 1 allowed CPUs" 0-1 "$(allowed_list 1)"
while read -r irq aff; do
	[ -n "$irq" ] || continue
	check "irq $irq on $aff: noted as a managed queue interrupt" \
		grep -q "^note: irq $irq (.*) is a managed per-queue interrupt " <<<"$out"
done < <(irqs_on 2-3)

# move pieces back onto isolated CPUs: named, exit 1; restored: clean
phase moving
mcheck() { # DESCRIPTION ERE: --check exits 1, one mismatch line matches
	local o
	o=$("$NOCBCTL" plan --check --isolate=2-3)
	check_eq "$1: --check exits 1" 1 $?
	check_eq "$1: named" 1 "$(grep -cE "^mismatch: $2" <<<"$o")"
	check_eq "$1: nothing else" 1 "$(grep -c '^mismatch: ' <<<"$o")"
}
p=$(awk '$2 == "rcuop/2" { print $1 }' <<<"$kts")
taskset -pc 0-2 "$p" >/dev/null
mcheck "rcuop/2 on 0-2" "offload kthread: rcuop/2 \\(pid $p\\) may run on CPUs 0-2, not only on the housekeeping CPUs 0-1"
"$NOCBCTL" apply >/dev/null

irq=
for d in /proc/irq/[0-9]*; do [ -d "$d/ttyS0" ] && irq=${d#/proc/irq/}; done
check "the serial port's interrupt" test -n "$irq"
echo 0-3 > "/proc/irq/$irq/smp_affinity_list"
echo f > /sys/devices/virtual/workqueue/cpumask
out=$("$NOCBCTL" plan --check --isolate=2-3)
check_eq "irq $irq and workqueues on 0-3: exit 1" 1 $?
check_eq "irq $irq named" 1 "$(grep -c "^mismatch: interrupt: irq $irq (ttyS0) smp_affinity_list 0-3 includes isolated CPUs 2-3; fix: echo 0-1 > /proc/irq/$irq/smp_affinity_list$" <<<"$out")"
check_eq "workqueues named" 1 "$(grep -c '^mismatch: unbound workqueues: cpumask f (CPUs 0-3) .*; fix: echo 3 > /sys/devices/virtual/workqueue/cpumask$' <<<"$out")"
check_eq "nothing else" 2 "$(grep -c '^mismatch: ' <<<"$out")"
echo 0-1 > "/proc/irq/$irq/smp_affinity_list"
echo 3 > /sys/devices/virtual/workqueue/cpumask
check "all restored: clean again" "$NOCBCTL" plan --check --isolate=2-3
phase done
finish
