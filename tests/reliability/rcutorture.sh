#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3 cpu0_hotplug" smp=4 cpu=intel timeout=600
# rcutorture (module of the patched kernel) with offloaded CPUs 1-3, CPU
# hotplug of every CPU, CPU 0 included on 6.1 (onoff_interval), and runtime offload
# toggling (nocbs_nthreads/nocbs_toggle) for nocb.torture_minutes=N minutes
# of guest time (kernel command line; default 3), then rmmod.
#
# Verdict: rcutorture's own "End of test:" line must be SUCCESS: the
# series teaches torture_offline() to forgive K3's refusals (and only
# them), so RCU_HOTPLUG means a real hotplug failure.  The harness adds
# its console badness check.
. "$NOCB_SRC/tools/vm/guest-lib.sh"

kobj=$nocb_kobj
minutes=$(sed -n 's/.*\bnocb\.torture_minutes=\([0-9]*\).*/\1/p' /proc/cmdline)
minutes=${minutes:-3}
secs=$((minutes * 60))
log=$NOCB_OUT/rcutorture-dmesg.txt
note "rcutorture for $minutes min ($secs s) of guest time; $(nproc) CPUs; rcudata:"
sed 's/^/#   /' /sys/kernel/debug/rcu/rcudata

# 6.1 with cpu0_hotplug can take CPU 0 offline, so K3's refusal of the
# last normal CPU happens and rcutorture must forgive it; 6.12 on x86
# cannot (since 6.5), so there every offline attempt must succeed, and
# its offload toggling switches offline CPUs only (the others fail with
# "Cannot CB-offload online CPU", which rcutorture ignores).
case "$(uname -r)" in
6.1.*) check "CPU 0 is hot-removable (cpu0_hotplug)" test -w /sys/devices/system/cpu/cpu0/online ;;
esac
check "torture.ko and rcutorture.ko are built" test -f "$kobj/kernel/torture.ko" -a -f "$kobj/kernel/rcu/rcutorture.ko"
# On a KCSAN kernel, zero reports means something only if KCSAN was
# watching: keep its counters from before and after the run.
kcsan=/sys/kernel/debug/kcsan
kcsan_count() { sed -n "s/^$1: //p" "$kcsan"; }
[ -r "$kcsan" ] && kcsan_before=$(kcsan_count setup_watchpoints)
# The ring buffer (LOG_BUF_SHIFT=18, 256 KiB) cannot hold a long verbose
# run: follow the kernel log into a file from the start instead.
dmesg --follow --notime > "$log" 2>&1 &
follower=$!
check "insmod torture.ko" insmod "$kobj/kernel/torture.ko"
params="torture_type=rcu verbose=1 stat_interval=60 onoff_holdoff=5 onoff_interval=300
	nocbs_nthreads=2 nocbs_toggle=300 fwd_progress=0"
note "rcutorture params: $(echo $params)"
start=$(date +%s)
# shellcheck disable=SC2086
check "insmod rcutorture.ko" insmod "$kobj/kernel/rcu/rcutorture.ko" $params || finish
check "rcutorture started" wait_until 20 grep -q 'rcu-torture:--- Start of test' "$log"

# Watch while it runs: fail early on an rcutorture FAILURE print.
end=$((SECONDS + secs))
while [ $SECONDS -lt $end ]; do
	sleep 30
	online=$(cat /sys/devices/system/cpu/online)
	nocb=$(awk '$1 ~ /N/ { sub(/[^0-9].*/, "", $1); printf "%s ", $1 }' /sys/kernel/debug/rcu/rcudata)
	note "t=$(( $(date +%s) - start ))s online=$online offloaded=[${nocb% }]"
	dmesg | grep -q 'rcu-torture:.*!!!' && break
done

check "rmmod rcutorture (stops the test)" rmmod rcutorture
check "rmmod torture" rmmod torture
elapsed=$(( $(date +%s) - start ))
sleep 2
kill $follower; wait $follower 2>/dev/null
note "guest-time elapsed: ${elapsed}s"

endline=$(grep -o 'End of test: [A-Z_]*' "$log" | tail -1)
note "rcutorture: $endline"
grep -E 'rcu-torture: rtc:|rcu-torture: Reader Pipe|rcu-torture: Free-Block|nocb-toggles|onoff:' "$log" | tail -4 | sed 's/^/#   /'
stats=$(grep -E 'onoff: [0-9]+/[0-9]+:[0-9]+/[0-9]+' "$log" | tail -1)
read -r onl_ok onl_att off_ok off_att <<<"$(sed -n 's/.*onoff: \([0-9]*\)\/\([0-9]*\):\([0-9]*\)\/\([0-9]*\).*/\1 \2 \3 \4/p' <<<"$stats")"
toggles=$(grep -o 'nocb-toggles: [0-9]*:[0-9]*' "$log" | tail -1)
nfail=$(grep -c 'torture_onoff task: offline [0-9]* failed' "$log")
nebusy=$(grep -c 'torture_onoff task: offline [0-9]* failed: errno -16' "$log")
nforgiven=$(grep -c 'EBUSY forgiven during boot' "$log")
note "online ${onl_ok:-?}/${onl_att:-?} offline ${off_ok:-?}/${off_att:-?}; failed offlines $nfail (EBUSY $nebusy, forgiven at boot $nforgiven); ${toggles:-no nocb-toggles line}"
printf 'RCUTORTURE minutes=%s elapsed=%s end="%s" online=%s/%s offline=%s/%s offline_failed=%s ebusy=%s %s\n' \
	"$minutes" "$elapsed" "$endline" "$onl_ok" "$onl_att" "$off_ok" "$off_att" "$nfail" "$nebusy" "$toggles" \
	| tee "$NOCB_OUT/rcutorture-summary.txt"

check "ran for the requested time" test "$elapsed" -ge "$secs"
check "rcutorture printed its End of test line" test -n "$endline"
check "no rcutorture error (!!!) lines" bash -c "! grep -q 'rcu-torture:.*!!!' '$log'"
check "CPU hotplug happened (>= 1 offline and 1 online succeeded)" test "${off_ok:-0}" -ge 1 -a "${onl_ok:-0}" -ge 1
check "runtime offload toggling happened" test -n "$toggles" -a "$toggles" != "nocb-toggles: 0:0"
check_eq "every online attempt succeeded" "${onl_att:-x}" "${onl_ok:-y}"
check_eq "rcutorture: End of test" "End of test: SUCCESS" "$endline"
# torture_offline() of the series forgives K3's refusals: each one it
# forgave must be a logged K3 refusal of that CPU, and no other offline
# may have failed.
nk3=$(grep -c 'forgiven: last normal-callback CPU' "$log")
check_eq "every failed offline was forgiven as K3's refusal (or at boot)" "$nfail" "$((nk3 + nforgiven))"
check_eq "offline attempts = successes (after forgiving)" "${off_att:-x}" "${off_ok:-y}"
[ "$nk3" -gt 0 ] && check "kernel logged the K3 refusals it forgave" grep -q 'is the last online CPU without offloaded callbacks' "$log"
note "K3 refusals forgiven: $nk3"
check_eq "every CPU online at the end" "0-$(( $(nproc --all) - 1 ))" "$(cat /sys/devices/system/cpu/online)"
if [ -r "$kcsan" ]; then
	sed 's/^/#   kcsan: /' "$kcsan" | head -12
	check_eq "KCSAN is enabled" 1 "$(kcsan_count enabled)"
	check "KCSAN set watchpoints during the run" test "$(kcsan_count setup_watchpoints)" -gt "${kcsan_before:-0}"
fi
check "some CPU is a normal (non-offloaded) CPU" grep -qv '^ *[0-9]*!\?N' /sys/kernel/debug/rcu/rcudata
finish
