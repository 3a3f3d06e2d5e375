#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3" smp=4
#
# With no command after boot, nocbctl-apply.service has placed every RCU
# offload kthread as /etc/nocbctl.conf (the image's, cpus = 0,
# policy other; tools/vm/image-postinst) says, before multi-user.target, and no unit failed.
source "$NOCB_SRC/tools/vm/guest-lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/common.bash"

note "system state after boot: $(nocb_wait_boot 180)"
note "cmdline: $(cat /proc/cmdline)"

check "/etc/nocbctl.conf exists" test -r "$NOCB_CONF"
check_eq "image config cpus" "0" "$(conf_get cpus)"
check_eq "image config policy" "other" "$(conf_get policy)"

check_eq "nocbctl-apply.service is enabled" "enabled" \
	"$(systemctl is-enabled nocbctl-apply.service 2>&1)"
check "nocbctl-apply.service ran at boot" \
	prop_gt0 nocbctl-apply.service ExecMainStartTimestampMonotonic
check_eq "nocbctl-apply.service result" "success" \
	"$(unit_prop nocbctl-apply.service Result)"
check_eq "nocbctl-apply.service exit status" "0" \
	"$(unit_prop nocbctl-apply.service ExecMainStatus)"
# RemainAfterExit=yes: it stays "active (exited)" (for systemctl reload)
check_eq "nocbctl-apply.service active (exited)" "active exited" \
	"$(unit_prop nocbctl-apply.service ActiveState) $(unit_prop nocbctl-apply.service SubState)"
apply_done=$(unit_prop nocbctl-apply.service ExecMainExitTimestampMonotonic)
mu_up=$(unit_prop multi-user.target ActiveEnterTimestampMonotonic)
note "apply finished at ${apply_done}us, multi-user.target reached at ${mu_up}us (monotonic)"
check "nocbctl-apply.service finished before multi-user.target" \
	test "${apply_done:-0}" -gt 0 -a "${apply_done:-0}" -le "${mu_up:-0}"

# The kernel spawned the offload kthreads of every offloaded CPU (1-3).
threads=$(rcuo_threads)
note "offload kthreads: $(echo "$threads" | awk '{print $2}' | paste -sd' ' -)"
for cpu in 1 2 3; do
	check "rcuop/$cpu exists" has_thread rcuop "$cpu"
done
check "an rcuog kthread exists" grep -q ' rcuog/' <<<"$threads"

while read -r pid name; do
	[ -n "$pid" ] || continue
	check_eq "$name (pid $pid) placed per config" \
		"$(expected_state "$name")" "$(thread_state "$pid")"
done <<<"$threads"

check "systemctl --failed is empty" no_failed_units
finish
