#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=2-3 cpu0_hotplug" smp=4 cpu=intel
# nocbctl offload/deoffload on the running kernel (K6), judged from the
# kernel's own rcu_nocbs file, the rcudata N flags, cpuN/online and
# /proc/PID/{status,stat}: each change lands whole, refusals change
# nothing (with CPU 0 offline, K3 too: cpu0_hotplug), offline CPUs stay
# offline, and after each change every offload kthread (new ones too)
# follows the configuration.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
. "$NOCB_SRC/tools/nocbctl/tests/guest/common.sh"

F=/sys/devices/system/cpu/rcu_nocbs
C=/sys/devices/system/cpu
nocbs() { cat "$F"; }

if ! check "kernel has runtime offload ($F)" test -e "$F"; then
	check_rc "nocbctl offload without K6 exits 3" 3 "$NOCBCTL" offload 1
	note "$("$NOCBCTL" offload 1 2>&1)"
	finish
fi
check_eq "booted with rcu_nocbs=2-3: $F" 2-3 "$(nocbs)"
check_eq "rcudata: CPU 1 normal at boot" "" "$(rcudata_flags 1)"

# policy_of PID: the scheduling policy number, field 41 of /proc/PID/stat
# (offload kthread names have no blanks)
policy_of() { awk '{ print $41 }' "/proc/$1/stat"; }
# every offload kthread (as found now) on CPU 0 under SCHED_FIFO (1)
follows_config() {
	local p bad=""
	for p in $(offload_pids); do
		[ "$(allowed_of "$p")" = 0 ] && [ "$(policy_of "$p")" = 1 ] ||
			bad+=" $(comm_of "$p"):$(allowed_of "$p"):$(policy_of "$p")"
	done
	[ -z "$bad" ] || { echo "not per config:$bad"; return 1; }
}
spread_still() {
	local p
	for p in $(offload_pids); do
		[ "$(allowed_of "$p")" = 0-3 ] || { echo "$(comm_of "$p"): $(allowed_of "$p")"; return 1; }
	done
}
# --force: onto offloaded CPUs on purpose, past the placement rule
spread() {
	"$NOCBCTL" pin rcuo --cpus=0-3 --force >/dev/null 2>&1 &&
		"$NOCBCTL" prio rcuo --policy=other >/dev/null
}
# The config offload re-pins by (the image is a snapshot: nothing stays).
# udev's re-apply at CPU online (nocbctl-online@) is masked, so that what
# the checks see is what offload did.
printf 'cpus = 0\npolicy = fifo\npriority = 2\n' > /etc/nocbctl.conf
check "nocbctl-online@ masked for the test" \
	systemctl mask --runtime --quiet nocbctl-online@.service
check "kthreads spread over 0-3, policy other" spread

out=$("$NOCBCTL" offload 1 --dry-run)
check_eq "offload 1 --dry-run exits 0" 0 $?
check "dry run: CPU 1 would offload" grep -qx 'CPU 1: would offload' <<<"$out"
check_eq "dry run: rcu_nocbs unchanged" 2-3 "$(nocbs)"
check "dry run: kthreads not re-pinned" spread_still

out=$("$NOCBCTL" offload 1)
check_eq "offload 1 exits 0" 0 $?
printf '%s\n' "$out" | sed 's/^/#   /'
check "offload 1: CPU 1: offloaded" grep -qx 'CPU 1: offloaded' <<<"$out"
check_eq "offload 1: rcu_nocbs" 1-3 "$(nocbs)"
check_eq "offload 1: rcudata CPU 1 offloaded" N "$(rcudata_flags 1)"
check "offload 1: every offload kthread re-pinned per the config" follows_config
# CPU 1's callbacks are now invoked by its rcuop kthread
n0=$(rcudata_field 1 nci)
nci_above() { [ "$(rcudata_field 1 nci)" -gt "$1" ]; }
cb_load 1 3000
check "offloaded CPU 1: nci grows past $n0" wait_until 20 nci_above "$n0"

st=$("$NOCBCTL" status)
check "status: offloaded 1-3 from rcu_nocbs" \
	grep -qx '  offloaded: 1-3 (source: /sys/devices/system/cpu/rcu_nocbs)' <<<"$st"
check "status: boot line 2-3 beside it" \
	grep -qx '  at boot:   2-3 (boot command line; changed since)' <<<"$st"
sj=$("$NOCBCTL" --json status)
check_eq "status --json: offloaded_at_boot" 2-3 \
	"$(json_get 'd["cpus"]["offloaded_at_boot"]' <<<"$sj")"

out=$("$NOCBCTL" deoffload 2)
check_eq "deoffload 2 exits 0" 0 $?
check "deoffload 2: CPU 2: deoffloaded" grep -qx 'CPU 2: deoffloaded' <<<"$out"
check_eq "deoffload 2: rcu_nocbs" 1,3 "$(nocbs)"
check_eq "deoffload 2: rcudata CPU 2 normal" "" "$(rcudata_flags 2)"

for bad in 0 0-1 9 1- ""; do
	err=$("$NOCBCTL" offload "$bad" 2>&1 >/dev/null)
	check_eq "offload '$bad' exits 2" 2 $?
	check_eq "offload '$bad': one error line" 1 "$(grep -c '^nocbctl: offload: ' <<<"$err")"
done
check "offload 0 names K4" bash -c "$NOCBCTL offload 0 2>&1 | grep -q 'CPU 0: .*(K4)'"
check_eq "refusals: rcu_nocbs unchanged" 1,3 "$(nocbs)"

# K3: with CPU 0 offline, CPU 2 is the last online normal CPU.  Only 6.1
# (cpu0_hotplug) can take CPU 0 offline on x86; on 6.12 it always stays.
if [ ! -e $C/cpu0/online ]; then
	note "CPU 0 cannot go offline on this kernel: no K3 case to reach"
elif check "CPU 0 offline (cpu0_hotplug)" sh -c "echo 0 > $C/cpu0/online"; then
	err=$("$NOCBCTL" offload 2 2>&1 >/dev/null)
	check_eq "offload 2, the last online normal CPU, exits 1" 1 $?
	note "$err"
	check "offload 2: the error names CPU 2 and K3" \
		grep -q '^nocbctl: offload: CPU 2: the last online normal CPU.*(K3)$' <<<"$err"
	check_eq "K3 refusal: rcu_nocbs unchanged" 1,3 "$(nocbs)"
	# the config pins to CPU 0 only, now offline: bad input, no change
	check_rc "deoffload 1, config without an online CPU: exits 2" 2 \
		"$NOCBCTL" deoffload 1
	check_eq "config refusal: rcu_nocbs unchanged" 1,3 "$(nocbs)"
	printf 'cpus = 0,2\npolicy = fifo\npriority = 2\n' > /tmp/cpu0-off.conf
	check "deoffload 1 with CPU 0 offline" \
		"$NOCBCTL" deoffload 1 --config /tmp/cpu0-off.conf
	check_eq "deoffload 1: rcu_nocbs" 3 "$(nocbs)"
	check "offload 1 with CPU 0 offline (CPU 2 stays normal)" \
		"$NOCBCTL" offload 1 --config /tmp/cpu0-off.conf
	check_eq "offload 1: rcu_nocbs" 1,3 "$(nocbs)"
	check "CPU 0 back online" sh -c "echo 1 > $C/cpu0/online"
fi

# CPU 0 the only normal CPU left: allowed (K3 holds)
check "offload 1-3 (every CPU but 0)" "$NOCBCTL" offload 1-3
check_eq "offload 1-3: rcu_nocbs" 1-3 "$(nocbs)"

# offline CPUs: the kernel toggles them and leaves them offline
echo 0 > $C/cpu3/online
check "deoffload 3 while CPU 3 is offline" "$NOCBCTL" deoffload 3
check_eq "deoffload offline 3: rcu_nocbs" 1-2 "$(nocbs)"
check_eq "CPU 3 still offline" 0 "$(cat $C/cpu3/online)"
echo 1 > $C/cpu3/online
check_eq "CPU 3 back: rcudata normal" "" "$(rcudata_flags 3)"
echo 0 > $C/cpu2/online
check "offload 3 while CPU 2 is offline" "$NOCBCTL" offload 3
check "deoffload 2 while CPU 2 is offline" "$NOCBCTL" deoffload 2
check_eq "CPU 2 still offline" 0 "$(cat $C/cpu2/online)"
check "offload 2 while CPU 2 is offline" "$NOCBCTL" offload 2
check_eq "offload offline 2: rcu_nocbs" 1-3 "$(nocbs)"
echo 1 > $C/cpu2/online
check_eq "CPU 2 back: rcudata offloaded" N "$(rcudata_flags 2)"
check_eq "every CPU online" 0-3 "$(cat $C/online)"

j=$("$NOCBCTL" --json deoffload 1-3)
check_eq "deoffload 1-3 --json exits 0" 0 $?
check "--json deoffload parses" json_ok <<<"$j"
check_eq "--json: before" 1-3 "$(json_get 'd["before"]' <<<"$j")"
check_eq "--json: after" "" "$(json_get 'd["after"]' <<<"$j")"
check_eq "--json: written" True "$(json_get 'd["written"]' <<<"$j")"
check_eq "deoffload 1-3: rcu_nocbs empty" "" "$(nocbs)"
out=$("$NOCBCTL" deoffload 1-3)
check_eq "deoffload 1-3 again exits 0" 0 $?
check_eq "again: 3 CPUs not offloaded" 3 "$(grep -c ': not offloaded$' <<<"$out")"

# from none back to 1-3; kthreads spread again so the re-pin shows
check "kthreads spread again" spread
check "offload 1-3 from none" "$NOCBCTL" offload 1-3
check_eq "offload 1-3: rcu_nocbs" 1-3 "$(nocbs)"
for c in 1 2 3; do
	check_eq "rcudata: CPU $c offloaded" N "$(rcudata_flags $c)"
done
check "offload 1-3: every offload kthread re-pinned per the config" follows_config

check_rc "deoffload 1 as nobody exits 4" 4 \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$NOCBCTL" deoffload 1
check_eq "as nobody: rcu_nocbs unchanged" 1-3 "$(nocbs)"
finish
