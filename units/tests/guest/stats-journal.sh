#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3" smp=4 timeout=300
#
# nocbctl-stats.service writes `nocbctl stats --format=summary` (one line
# per run: ql, ci, nci summed over the CPUs) to the journal, on demand and
# from nocbctl-stats.timer, from a housekeeping CPU.
source "$NOCB_SRC/tools/vm/guest-lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/common.bash"

U=nocbctl-stats.service
note "system state after boot: $(nocb_wait_boot 180)"
check_eq "nocbctl-stats.timer is enabled" "enabled" "$(systemctl is-enabled nocbctl-stats.timer 2>&1)"
check_eq "nocbctl-stats.timer is active" "active" "$(systemctl is-active nocbctl-stats.timer 2>&1)"

# One run on demand; the journal cursor separates its lines from earlier ones.
# Only what the service's process printed: _SYSTEMD_UNIT= leaves out
# systemd's own "Starting/Finished" messages about the unit.
cursor=$(journalctl _SYSTEMD_UNIT="$U" -n 0 --show-cursor -q 2>/dev/null | sed -n 's/^-- cursor: //p')
check "systemctl start $U" systemctl start "$U"
check_eq "$U result" "success" "$(unit_prop "$U" Result)"
check_eq "$U exit status" "0" "$(unit_prop "$U" ExecMainStatus)"
sleep 1   # let journald take the last lines in
if [ -n "$cursor" ]; then
	log=$(journalctl _SYSTEMD_UNIT="$U" --after-cursor="$cursor" -o cat --no-pager)
else
	log=$(journalctl -b _SYSTEMD_UNIT="$U" -o cat --no-pager)
fi
note "journal of this run:"
while IFS= read -r l; do note "  $l"; done <<<"$log"
# One line for all 4 CPUs, not a line per CPU: a big host's journal stays
# readable.
check_eq "journal: one line for the run" 1 "$(grep -c '' <<<"$log")"
check "the line sums all 4 CPUs, names the offloaded ones and nci" \
	grep -Eq '^cpus=4 offloaded=1-3 ql=[0-9]+ ql_offloaded=[0-9]+ ci=[0-9]+ nci=[0-9]+ max_ql=[0-9]+ max_ql_cpu=[0-3]$' <<<"$log"
check_eq "$U runs on housekeeping CPU 0 (the image's cpus = 0)" 0 \
	"$(cpulist_norm "$(unit_prop "$U" CPUAffinity)")"

# The timer fires on its own (OnBootSec=30s, then every minute).
# LastTriggerUSec is "n/a" until the first trigger (the *Monotonic
# variant is shown as a time span, not a number).
triggered() { local v; v=$(unit_prop nocbctl-stats.timer LastTriggerUSec); echo "LastTriggerUSec=$v"; [ -n "$v" ] && [ "$v" != n/a ]; }
for ((i = 0; i < 90; i++)); do
	triggered >/dev/null && break
	sleep 1
done
check "nocbctl-stats.timer has triggered" triggered
# Distinct runs that logged stats lines (each run has its own invocation id).
count_runs() {
	journalctl -b _SYSTEMD_UNIT="$U" -o export --no-pager |
	awk 'function flush() { if (id != "" && hit) seen[id] = 1; id = ""; hit = 0 }
	     /^_SYSTEMD_INVOCATION_ID=/ { id = $0 }
	     /^MESSAGE=/ && tolower($0) ~ /nci/ { hit = 1 }
	     /^$/ { flush() }
	     END { flush(); n = 0; for (k in seen) n++; print n }'
}
# A trigger that falls while the on-demand run above is still active
# merges into that run's start job: no second run then until a minute
# after that run started (OnUnitActiveSec=1min).
for ((i = 0; i < 150; i++)); do
	runs=$(count_runs)
	[ "${runs:-0}" -ge 2 ] && break
	sleep 0.5
done
check "journal holds stats lines from at least 2 runs ($runs)" test "${runs:-0}" -ge 2
check "journalctl -u $U shows them too" \
	bash -c "journalctl -b -u '$U' -o cat --no-pager | grep -Eiq 'nci'"
check "systemctl --failed is empty" no_failed_units
finish
