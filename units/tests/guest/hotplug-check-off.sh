#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3" smp=4
#
# Without nocbctl.hotplug_check=1 on the kernel command line the boot-time
# hotplug check is part of the boot (enabled) but skipped by its
# ConditionKernelCommandLine=, touches no CPU and logs no verdict.
source "$NOCB_SRC/tools/vm/guest-lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/common.bash"

U=nocbctl-hotplug-check.service
note "system state after boot: $(nocb_wait_boot 180)"
check "kernel command line lacks nocbctl.hotplug_check=1" \
	bash -c '! grep -Eq "(^| )nocbctl\.hotplug_check=1( |$)" /proc/cmdline'
check_eq "$U is enabled" "enabled" "$(systemctl is-enabled "$U" 2>&1)"
check "$U's condition was evaluated at boot" \
	prop_gt0 "$U" ConditionTimestampMonotonic
check_eq "$U condition result" "no" "$(unit_prop "$U" ConditionResult)"
check_eq "$U never executed" "0" "$(unit_prop "$U" ExecMainStartTimestampMonotonic)"
check_eq "$U is inactive" "inactive" "$(systemctl is-active "$U" 2>&1)"
log=$(journalctl -b _SYSTEMD_UNIT="$U" -o cat --no-pager)
check_eq "no output from nocbctl hotplug-check in the journal" "" "$log"
check "no verdict in journalctl -u $U" \
	bash -c "! journalctl -b -u '$U' -o cat --no-pager | grep -Eiq 'EBUSY|violation|refused'"
check_eq "all CPUs online" "$(cat /sys/devices/system/cpu/present)" \
	"$(cat /sys/devices/system/cpu/online)"
check "systemctl --failed is empty" no_failed_units
finish
