#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3" smp=4
# nocbctl status and stats on a guest booted with rcu_nocbs=1-3: what
# nocbctl says is compared with rcudata and /proc read directly.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
. "$NOCB_SRC/tools/nocbctl/tests/guest/common.sh"

out=$("$NOCBCTL" status 2>&1)
check_eq "nocbctl status exits 0" 0 $?
printf '%s\n' "$out" | sed 's/^/#   /'
for c in 1 2 3; do
	check_eq "rcudata: CPU $c offloaded (N)" N "$(rcudata_flags $c)"
done
check_eq "rcudata: CPU 0 normal" "" "$(rcudata_flags 0)"
# The series' kernels with runtime offload (K6) say it in rcu_nocbs, which
# status reads first; without it, the rcudata N flags.
if [ -e /sys/devices/system/cpu/rcu_nocbs ]; then
	src=rcu_nocbs srctext=/sys/devices/system/cpu/rcu_nocbs
else
	src=rcudata srctext="rcudata N flags"
fi
check "status: CPUs 1-3 offloaded, from $src" \
	grep -qxF "  offloaded: 1-3 (source: $srctext)" <<<"$out"
check "status names the running kernel" grep -qxF "Kernel:      $(uname -r)" <<<"$out"
check "status: CPU 0 normal" grep -q '^  normal:    0$' <<<"$out"
check "status: CPUs 0-3 online" grep -q '^  online:    0-3$' <<<"$out"
check "status: polling off" grep -q '^Polling:     off$' <<<"$out"
check_eq "status: K1 and K2 present" 2 "$(grep -cE '^  K[12] .* present ' <<<"$out")"
n=0
for pid in $(offload_pids); do
	n=$((n + 1))
	check "status lists $(comm_of "$pid") (pid $pid)" \
		grep -Eq "^  $pid +$(comm_of "$pid") " <<<"$out"
done
check "rcuop kthreads exist" test "$n" -gt 0
check "status counts every offload kthread" \
	grep -q "^Offload kthreads: $n$" <<<"$out"

json=$("$NOCBCTL" --json status)
check_eq "nocbctl --json status exits 0" 0 $?
check "--json status parses (python3 -m json.tool)" json_ok <<<"$json"
check_eq "--json: offloaded" "1-3" "$(json_get 'd["cpus"]["offloaded"]' <<<"$json")"
check_eq "--json: source" "$src" "$(json_get 'd["cpus"]["offloaded_source"]' <<<"$json")"
check_eq "--json: kthread count" "$n" "$(json_get 'len(d["kthreads"])' <<<"$json")"

# stats: counts are monotonic, so what nocbctl read is <= what we read after
sj=$("$NOCBCTL" --json stats --cpus 0-3)
check_eq "nocbctl --json stats exits 0" 0 $?
check "--json stats parses" json_ok <<<"$sj"
for c in 0 1 2 3; do
	got=$(json_get "[x['nci'] for x in d['cpus'] if x['cpu']==$c][0]" <<<"$sj")
	now=$(rcudata_field "$c" nci)
	check "stats: CPU $c nci=$got <= rcudata nci=$now" test "$got" -le "$now"
done
cb_load 1 2000
check "stats --watch 1 --count 2 exits 0" "$NOCBCTL" stats --watch 1 --count 2
check_rc "stats --cpus=99 exits 2" 2 "$NOCBCTL" stats --cpus=99
finish
