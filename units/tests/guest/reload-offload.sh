#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs" smp=4
#
# The offload line of /etc/nocbctl.conf on a running host: booted with
# bare rcu_nocbs (no CPU offloaded, the kernel ready to switch), the
# shipped config (no offload line) changes nothing; "offload = 1-3" and
# `systemctl reload nocbctl-apply` make CPUs 1-3 the no-CBs CPUs and place
# every rcuo kthread per the config; a bad line fails the reload and
# changes nothing; `systemctl restart` applies an edited list too; then
# "offload = 2" and a reload leave exactly CPU 2. Judged from the kernel's
# rcu_nocbs file, the rcudata N flags and /proc/PID/status of the rcuo
# kthreads; every CPU is online at the end and no unit failed.
source "$NOCB_SRC/tools/vm/guest-lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/common.bash"

F=/sys/devices/system/cpu/rcu_nocbs
U=nocbctl-apply.service
nocbs() { cat "$F"; }
# flags: "cpu:flags" of CPUs 1-3 from rcudata ("1:N 2: 3:N")
flags() {
	local c out=""
	for c in 1 2 3; do out+="$c:$(rcudata_flags $c) "; done
	echo "${out% }"
}
# wait for the nocbctl-online@ instances the kernel's own offline/online
# cycles (6.12) started to end, so that what is checked is settled
online_units_done() {
	! systemctl list-units --no-legend --plain --state=activating \
		'nocbctl-online@*' 2>/dev/null | grep -q .
}
# reload_ok VERB: systemctl VERB the unit; journal lines of that run
reload_ok() {
	local since
	since=$(date '+%Y-%m-%d %H:%M:%S')
	systemctl "$1" $U || return 1
	wait_until 30 online_units_done || echo "nocbctl-online@ still running"
	journalctl --no-pager -q -o cat -u $U --since "$since" | sed 's/^/# /' >&3
}
exec 3>&1

note "system state after boot: $(nocb_wait_boot 180)"
note "kernel $(uname -r), cmdline: $(cat /proc/cmdline)"
check "kernel has runtime offload ($F)" test -w "$F" || finish
check_eq "booted with bare rcu_nocbs: none offloaded" "" "$(nocbs)"
check_eq "shipped config: no offload line" "" "$(conf_get offload)"
check_eq "$U ran at boot and stays active (exited)" "active exited success" \
	"$(unit_prop $U ActiveState) $(unit_prop $U SubState) $(unit_prop $U Result)"
check_eq "shipped config: rcu_nocbs still empty after boot's apply" "" "$(nocbs)"

# The kthreads spread and under the kernel's policy, so that the reload's
# re-pin shows.
# --force: onto offloaded CPUs on purpose, past the placement rule
spread() {
	nocbctl pin rcuo --cpus=0-3 --force >/dev/null 2>&1 &&
		nocbctl prio rcuo --policy=other >/dev/null
}
check "kthreads spread over 0-3, policy other" spread
# all_spread: every rcuo kthread still allowed on 0-3 (/proc/PID/status)
all_spread() {
	local pid name a
	while read -r pid name; do
		a=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$pid/status")
		[ "$a" = 0-3 ] || { echo "$name: $a"; return 1; }
	done < <(rcuo_threads)
}

printf 'cpus = 0\npolicy = fifo\npriority = 2\noffload = 1-3\n' > "$NOCB_CONF"
t=$SECONDS
check "offload = 1-3: systemctl reload $U" reload_ok reload
note "reload took $((SECONDS - t)) s"
check_eq "offload = 1-3: rcu_nocbs" 1-3 "$(nocbs)"
check_eq "offload = 1-3: rcudata N flags" "1:N 2:N 3:N" "$(flags)"
check "offload = 1-3: rcuop/1-3 exist" \
	eval 'has_thread rcuop 1 && has_thread rcuop 2 && has_thread rcuop 3'
check "offload = 1-3: every rcuo kthread on CPU 0, fifo 2 (/proc)" threads_mismatch
check_eq "$U still active after the reload" active "$(unit_prop $U ActiveState)"
check_eq "every CPU online" 0-3 "$(cat /sys/devices/system/cpu/online)"

# A bad line: the reload fails, nothing changes.
printf 'cpus = 0\npolicy = fifo\npriority = 2\noffload = 0-2\n' > "$NOCB_CONF"
check "spread again" spread
check_rc "offload = 0-2 (CPU 0): systemctl reload fails" 1 systemctl reload $U
check_eq "bad line: rcu_nocbs unchanged" 1-3 "$(nocbs)"
check "bad line: kthreads not re-pinned (all still on 0-3)" all_spread
msg=$(journalctl --no-pager -q -o cat -u $U -n 20 | grep 'offload: CPU 0')
note "$msg"
check "bad line: the journal names the file, the line and K4" \
	grep -q "^nocbctl: $NOCB_CONF:4: offload: CPU 0: the boot CPU is never a no-CBs CPU (K4)$" <<<"$msg"

# restart applies an edited list as well
printf 'cpus = 0-1\npolicy = rr\npriority = 3\noffload = 3\n' > "$NOCB_CONF"
check "offload = 3: systemctl restart $U" reload_ok restart
check_eq "offload = 3: rcu_nocbs" 3 "$(nocbs)"
check_eq "offload = 3: rcudata N flags" "1: 2: 3:N" "$(flags)"
check "offload = 3: every rcuo kthread on CPUs 0-1, rr 3 (/proc)" threads_mismatch

printf 'cpus = 0\npolicy = fifo\npriority = 2\noffload = 2\n' > "$NOCB_CONF"
check "offload = 2: systemctl reload $U" reload_ok reload
check_eq "offload = 2: rcu_nocbs is exactly 2" 2 "$(nocbs)"
check_eq "offload = 2: rcudata N flags" "1: 2:N 3:" "$(flags)"
check "offload = 2: every rcuo kthread on CPU 0, fifo 2 (/proc)" threads_mismatch
check_eq "$U active (exited), last run successful" "active exited success" \
	"$(unit_prop $U ActiveState) $(unit_prop $U SubState) $(unit_prop $U Result)"

note "the script took $SECONDS s, the wait for boot included"
check_eq "every CPU online at the end" 0-3 "$(cat /sys/devices/system/cpu/online)"
check "systemctl --failed is empty" no_failed_units
finish
