#!/bin/bash
# nocb-guest: cmdline="cpu0_hotplug rcu_nocbs=3" smp=4 cpu=intel timeout=900
# nocbctl hotplug-check --force under faults.  Normal CPUs are 0, 1 and 2
# (only 3 is offloaded) so a forced check has several steps: write the
# state file, offline CPU 1, offline CPU 2, try CPU 0 (EBUSY), bring 1 and
# 2 back.  SIGINT and SIGTERM are sent at each of those points (triggered
# by what sysfs and /run show, plus fixed delays), SIGHUP, SIGQUIT, SIGUSR1
# and SIGUSR2 during CPU 1's and CPU 2's offline and the restore.  After
# each run every CPU is online, the state file is gone and the exit status
# is 0 (finished first) or 128+signal; a signal that provably landed during
# a step stops the check at that step.  A closed stdout (| head -c 0)
# changes nothing.  SIGKILL during CPU 1's (and CPU 2's) offline leaves
# CPUs offline and the state file; the next run restores them from it and
# says so.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
state=/run/nocbctl/hotplug-check.state
ncpu=$(nproc --all)
all="0-$((ncpu - 1))"
set -m	# background jobs must not start with SIGINT ignored

check "nocbctl is installed" command -v nocbctl || finish
check "CPU 0 is hot-removable (cpu0_hotplug)" test -w /sys/devices/system/cpu/cpu0/online
check_eq "offloaded CPUs: 3" "3N" "$(awk '$1 ~ /N/ { print $1 }' /sys/kernel/debug/rcu/rcudata | tr '\n' ' ' | sed 's/ $//')"
out=$(nocbctl hotplug-check --force 2>&1); rc=$?
printf '%s\n' "$out" | sed 's/^/#   /'
check_eq "undisturbed hotplug-check --force: refused (EBUSY), exit 0" 0 "$rc"
check "it says EBUSY" grep -q 'refused (EBUSY)' <<<"$out"
check_eq "every CPU online after it" "$all" "$(cat /sys/devices/system/cpu/online)"

cpu_off() { [ "$(cat /sys/devices/system/cpu/cpu$1/online)" = 0 ]; }
# The check blocks its stop signals and looks for them between steps, so
# a signal sent while one of its writes to cpuN/online is in flight stops
# it at the next step, whatever the timing.  A write is in flight while
# CPU N's hotplug state is strictly between offline (0) and online; the
# state is read again after kill(2), which makes a signal pending at
# once: still in flight then proves the stop point.  Shell builtins only
# (no fork), so the window of a few milliseconds is not missed.  This
# shell, the watcher, gets the offloaded CPU 3 (never taken offline) and
# the checks run on CPU 0: the watcher is not pushed off a dying CPU
# mid-window, nor left waiting behind the check it watches.
online_state=$(awk -F': ' '$2 == "online" { print $1 }' /sys/devices/system/cpu/hotplug/states)
check "the online hotplug state is known" test -n "$online_state"
check "the watcher runs on CPU $((ncpu - 1)) only" taskset -p -c $((ncpu - 1)) $$
hc=(taskset -c 0 nocbctl hotplug-check --force)	# exec chain: $! is the check
hp_state() { read -r hp < /sys/devices/system/cpu/cpu$1/hotplug/state; }
moving() { hp_state $1; [ "$hp" -gt 0 ] && [ "$hp" -lt "$online_state" ]; }
at() { hp_state $1; [ "$hp" = "$2" ]; }
# CPU 1 going down (2 still online), CPU 2 going down (1 already off),
# CPU 1 coming back (2 still off: the restore runs after the probe).
in_cpu1() { moving 1 && at 2 "$online_state" && moving 1; }
in_cpu2() { moving 2 && at 1 0 && moving 2; }
in_restore() { moving 1 && at 2 0 && moving 1; }
# For SIGKILL, one try each, the whole time the check has CPU 1 (and then
# CPU 2) down, not only the few milliseconds of the write: from CPU 1
# leaving online until CPU 2 does; from CPU 2 leaving online until CPU 1's
# restore begins (CPU 2 going down, the EBUSY probe).  A kill anywhere in
# it leaves a CPU offline and the state file.
kill1() { ! at 1 "$online_state" && at 2 "$online_state"; }
kill2() { at 1 0 && ! at 2 "$online_state"; }
spin() {	# spin COMMAND...: until COMMAND succeeds or the check is gone
	local i
	for ((i = 0; i < 200000; i++)); do
		"$@" && return 0
		kill -0 "$pid" 2>/dev/null || return 1
	done
	return 1
}
# trigger WHEN: wait for the point; then signal SIG to the check.  hit is
# "proven" when the write was still in flight after the signal, "late"
# when the point was seen but passed before the signal, else "missed".
trigger() {
	local cond=
	case "$1" in
	start) ;;
	state) spin test -e $state ;;
	cpu1) cond=in_cpu1 ;;
	cpu2) cond=in_cpu2 ;;
	restore) cond=in_restore ;;
	kill1) cond=kill1 ;;
	kill2) cond=kill2 ;;
	delay:*) sleep "${1#delay:}" ;;
	esac
	hit=-
	[ -z "$cond" ] || { spin $cond && hit=seen || hit=missed; }
	kill -s $sig $pid 2>/dev/null
	[ $hit != seen ] || { $cond && hit=proven || hit=late; }
}
# Where the check stopped, from its own output: 0 before any change, 1
# after offlining CPU 1, 2 after offlining CPU 2 (before the EBUSY probe),
# 3 after the probe (while restoring).
stop_point() {
	local n
	n=$(grep -c '^hotplug-check: CPU [0-9]* offline$' /tmp/hc.out)
	steps=${n:-0}
	point=$((steps + $(grep -c 'refused (EBUSY)' /tmp/hc.out)))
}
declare -A expect=([cpu1]=1 [cpu2]=2 [restore]=3)
# Duration of an undisturbed forced check, for a sweep of signal delays.
t0=$(date +%s%N); "${hc[@]}" >/dev/null 2>&1; t1=$(date +%s%N)
dur_ms=$(( (t1 - t0) / 1000000 ))
note "an undisturbed hotplug-check --force takes ${dur_ms} ms here"
delays=
for k in 1 3 5 7 9; do delays+=" delay:$(awk -v d=$dur_ms -v k=$k 'BEGIN { printf "%.3f", d * k / 10 / 1000 }')"; done

n_int=0 n_fin=0 n_runs=0
declare -A hitpt	# interrupted runs by stop point
declare -A proven	# runs whose signal provably landed in a write, by point
# faulted_run SIG WHEN: one forced check, signalled at WHEN, and its checks.
faulted_run() {
	local sig=$1 when=$2 rc offline_at_kill sigrc
	sigrc=$((128 + $(kill -l "$sig")))
	: > /tmp/hc.out	# exists even if the signal beats the redirection
	"${hc[@]}" > /tmp/hc.out 2>&1 &
	pid=$!
	trigger "$when"
	offline_at_kill=$(cat /sys/devices/system/cpu/offline)	# informative only: read after the signal
	wait $pid; rc=$?
	n_runs=$((n_runs + 1))
	stop_point
	note "SIG$sig at $when (trigger $hit): exit $rc, offline just after the signal [${offline_at_kill}], CPUs the check offlined: $steps; $(grep -Eo 'interrupted by [A-Za-z ]*|refused \(EBUSY\)|arrived after the check|back online' /tmp/hc.out | tr '\n' ' ')"
	case $rc in
	0) n_fin=$((n_fin + 1)) ;;
	"$sigrc")
		n_int=$((n_int + 1))
		hitpt[$point]=$(( ${hitpt[$point]:-0} + 1 )) ;;
	esac
	check "SIG$sig at $when: exit 0 or 128+SIG$sig" test $rc = 0 -o $rc = $sigrc
	if [ "$hit" = proven ]; then
		check_eq "SIG$sig during the write at $when: exit 128+SIG$sig" $sigrc "$rc"
		check_eq "SIG$sig during the write at $when: stopped at point ${expect[$when]}" "${expect[$when]}" "$point" &&
			proven[$point]=$(( ${proven[$point]:-0} + 1 ))
	fi
	check_eq "SIG$sig at $when: every CPU online" "$all" "$(cat /sys/devices/system/cpu/online)"
	check "SIG$sig at $when: no state file left" test ! -e $state
	if [ $rc != 0 ] && grep -q 'refused (EBUSY)' /tmp/hc.out; then
		# The signal came after the attempt: the verdict stands.  It
		# says "arrived after the check" only when its last poll saw
		# the signal; one landing after that poll ends the process
		# at unblock, after the verdict, with nothing more printed.
		check "SIG$sig at $when: keeps the verdict" grep -q 'K3 holds' /tmp/hc.out
		check_rc "SIG$sig at $when: does not call the finished check interrupted" 1 grep -q "interrupted by" /tmp/hc.out
	elif [ $rc != 0 ] && [ "$steps" -gt 0 ]; then
		check "SIG$sig at $when: says it was interrupted and restored" grep -q 'interrupted by .*CPUs restored' /tmp/hc.out
	fi
	for ((c = 0; c < ncpu; c++)); do cpu_off $c && cpu_set_online $c 1 >/dev/null; done
}
for sig in INT TERM; do
	for when in start state cpu1 cpu2 restore $delays delay:3; do
		faulted_run $sig $when
	done
done
# The other signals a terminal, a dropped ssh connection or kill(1) deliver
# end the check the same way, after restoring (fewer trigger points).
for sig in HUP QUIT USR1 USR2; do
	for when in cpu1 cpu2 restore; do
		faulted_run $sig $when
	done
done
note "$n_runs signalled runs, $n_int interrupted (stopped before any change/after CPU 1/after CPU 2/after the probe: ${hitpt[0]:-0}/${hitpt[1]:-0}/${hitpt[2]:-0}/${hitpt[3]:-0}), $n_fin finished before the signal"
echo "FAULTS runs=$n_runs interrupted=$n_int at0=${hitpt[0]:-0} at1=${hitpt[1]:-0} at2=${hitpt[2]:-0} at3=${hitpt[3]:-0} finished=$n_fin proven1=${proven[1]:-0} proven2=${proven[2]:-0} proven3=${proven[3]:-0}" | tee "$NOCB_OUT/faults-summary.txt"
# Each point must really have been reached, not merely aimed at.
check "a signal landed during CPU 1's offline and stopped the check before CPU 2" test "${proven[1]:-0}" -ge 1
check "a signal landed during CPU 2's offline and stopped the check before the probe" test "${proven[2]:-0}" -ge 1
check "a signal landed during the restore, after the probe, and kept the verdict" test "${proven[3]:-0}" -ge 1

# A reader that goes away: SIGPIPE must not stop the restore.
nocbctl hotplug-check --force | head -c 0; rc=${PIPESTATUS[0]}
check_eq "stdout closed early: exit 0 (refused), not 141" 0 "$rc"
check_eq "stdout closed early: every CPU online" "$all" "$(cat /sys/devices/system/cpu/online)"
check "stdout closed early: no state file left" test ! -e $state
for ((c = 0; c < ncpu; c++)); do cpu_off $c && cpu_set_online $c 1 >/dev/null; done

# SIGKILL mid-check: nothing can clean up; the next run must.
n_kill=0
for when in kill1 kill2; do
	"${hc[@]}" > /tmp/hc.out 2>&1 &
	pid=$!
	sig=KILL trigger $when
	wait $pid; rc=$?
	off=$(cat /sys/devices/system/cpu/offline)
	[ $rc = 137 ] && n_kill=$((n_kill + 1))
	note "SIGKILL at $when (trigger $hit): exit $rc, offline now [$off], state file: $(grep -v '^#' $state 2>/dev/null || echo none)"
	check_eq "SIGKILL at $when: killed (exit 137)" 137 "$rc"
	check "SIGKILL at $when: some CPU left offline" test -n "$off"
	check "SIGKILL at $when: state file left behind" test -e $state
	out=$(nocbctl hotplug-check --force 2>&1); rc=$?
	printf '%s\n' "$out" | sed 's/^/#   next run: /'
	check_eq "next run after SIGKILL at $when: exit 0" 0 "$rc"
	check "next run says it restored from the state file" grep -q 'from an interrupted run: CPUs .* are online again' <<<"$out"
	check_eq "next run: every CPU online" "$all" "$(cat /sys/devices/system/cpu/online)"
	check "next run: state file removed" test ! -e $state
	for ((c = 0; c < ncpu; c++)); do cpu_off $c && cpu_set_online $c 1 >/dev/null; done
done

# A state file naming an offline CPU (what a SIGKILL leaves) in JSON mode.
check "offline CPU 2 by hand" cpu_set_online 2 0
mkdir -p /run/nocbctl && printf '# nocbctl hotplug-check: CPUs to bring back online\n2\n' > $state
out=$(nocbctl --json hotplug-check --force 2>&1); rc=$?
printf '%s\n' "$out" | sed 's/^/#   json: /'
check_eq "JSON run with a stale state file: exit 0" 0 "$rc"
check "JSON reports restored_from_state 2" grep -q '"restored_from_state": *"2"' <<<"$out"
check_eq "every CPU online" "$all" "$(cat /sys/devices/system/cpu/online)"
# A corrupt state file must not be acted on blindly.
printf 'garbage\n' > $state
out=$(nocbctl hotplug-check --force 2>&1); rc=$?
printf '%s\n' "$out" | sed 's/^/#   corrupt state: /'
check_eq "corrupt state file: exit 1, nothing touched" "1 $all" "$rc $(cat /sys/devices/system/cpu/online)"
rm -f $state
finish
