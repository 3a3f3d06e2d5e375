#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3" smp=4 cpu=max timeout=300
# systemd-analyze security of every installed nocbctl unit, in the booted
# guest (not --offline): prints each unit's full table, one summary line
#   SECURITY UNIT exposure LEVEL
# per unit, and checks each exposure <= 3.0 (MAX_EXPOSURE).
. "$NOCB_SRC/tools/vm/guest-lib.sh"
MAX_EXPOSURE=3.0
units="nocbctl-apply.service nocbctl-stats.service nocbctl-hotplug-check.service nocbctl-online@cpu1.service"
check "systemd-analyze present" command -v systemd-analyze
for u in $units; do
	tmpl=${u/@*./@.}
	check "$tmpl is installed" systemctl cat "$tmpl" >/dev/null
	out=$(systemd-analyze security --no-pager "$u" 2>&1); rc=$?
	printf '%s\n' "$out" | sed "s/^/#   /"
	level=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\) *\(.*\)/\1 \2/p' <<<"$out")
	echo "SECURITY $u exposure ${level:-?}" | tee -a "$NOCB_OUT/security-summary.txt"
	check "$u: systemd-analyze security succeeded" test $rc = 0
	check "$u: exposure ${level%% *} <= $MAX_EXPOSURE" awk -v l="${level%% *}" -v m=$MAX_EXPOSURE 'BEGIN { exit !(l != "" && l + 0 <= m + 0) }'
done
finish
