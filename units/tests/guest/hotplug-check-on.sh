#!/bin/bash
# nocb-guest: cmdline="cpu0_hotplug rcu_nocbs=2-3 nocbctl.hotplug_check=1" smp=4 cpu=intel kernels=6.1
# kernels=6.1: needs CPU 0 hot-removable (cpu0_hotplug), which 6.12 x86
# does not allow; there hotplug-check exits 3 (kernel-patches/tests/k3-boot-cpu.sh).
#
# With nocbctl.hotplug_check=1 the boot-time check runs: CPUs 0 and 1 are the
# normal (not offloaded) CPUs; with --force it offlines CPU 1, then tries the
# last normal CPU, which this kernel must refuse with EBUSY (K3). Afterwards
# every CPU is online again and the offload kthreads are still placed per
# /etc/nocbctl.conf.
source "$NOCB_SRC/tools/vm/guest-lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/common.bash"

U=nocbctl-hotplug-check.service
note "system state after boot: $(nocb_wait_boot 240)"
# The check is ordered before multi-user.target, but wait for it anyway.
for ((i = 0; i < 240; i++)); do
	case $(unit_prop "$U" ActiveState) in activating | deactivating) sleep 1 ;; *) break ;; esac
done
check "kernel command line has nocbctl.hotplug_check=1" \
	grep -Eq '(^| )nocbctl\.hotplug_check=1( |$)' /proc/cmdline
check_eq "$U condition result" "yes" "$(unit_prop "$U" ConditionResult)"
check "$U executed" prop_gt0 "$U" ExecMainStartTimestampMonotonic
check_eq "$U result" "success" "$(unit_prop "$U" Result)"
check_eq "$U exit status (0 = refused as expected)" "0" "$(unit_prop "$U" ExecMainStatus)"

log=$(journalctl -b _SYSTEMD_UNIT="$U" -o cat --no-pager)
note "journal of $U:"
while IFS= read -r l; do note "  $l"; done <<<"$log"
check "verdict 'refused (EBUSY)' in the journal" grep -Fq 'refused (EBUSY)' <<<"$log"
check "journalctl -u $U shows the verdict" \
	bash -c "journalctl -b -u '$U' -o cat --no-pager | grep -Fq 'refused (EBUSY)'"

# Everything put back.
check_eq "all CPUs online afterwards" "$(cat /sys/devices/system/cpu/present)" \
	"$(cat /sys/devices/system/cpu/online)"
for f in /sys/devices/system/cpu/cpu[0-9]*/online; do
	[ -e "$f" ] || continue
	check_eq "${f#/sys/devices/system/cpu/} is 1" "1" "$(cat "$f")"
done
[ -e /run/nocbctl/hotplug-check.state ] &&
	note "state file /run/nocbctl/hotplug-check.state is still there"
# CPU 1 came back online: its kthreads must be placed per config again
# (nocbctl-online@cpu1.service, started by udev).
for ((i = 0; i < 50; i++)); do all_threads_ok && break; sleep 0.1; done
check "every offload kthread placed per config" threads_mismatch
check "systemctl --failed is empty" no_failed_units
finish
