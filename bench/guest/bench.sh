#!/bin/bash
# nocb-guest: cmdline="" smp=2 timeout=900
# Guest side of bench/run: one boot of the benchmark matrix.  Parameters come
# from $NOCB_OUT/params.env (written by the host driver before the boot):
#   BENCH_BOOT     normal|offloaded|runtime (what the kernel command line set
#                  up; runtime: bare rcu_nocbs, N switched by nocbctl in G)
#   BENCH_CONFIGS  configurations to measure in this boot (A | C B D E | F G)
#   BENCH_RATES    callback rates per second (A, B, C, F, G are measured per rate)
#   BENCH_DUR      seconds per tool (osnoise, then cyclictest)
#   BENCH_WORK_NS  busy work per callback (cbload work_ns=)
#   BENCH_CPU      measured CPU N (the load and the instruments run there)
#   BENCH_HK       housekeeping CPU (offload kthreads pinned there in B/D/E)
#   BENCH_REP      repetition number (recorded only)
#   BENCH_HIST     cyclictest histogram buckets (us)
# Every measurement writes raw tool output to $NOCB_OUT/m/<cfg>-<rate>-r<rep>/.
set -u
. "$NOCB_OUT/params.env"
: "${BENCH_CPU:=1}" "${BENCH_HK:=0}" "${BENCH_DUR:=10}" "${BENCH_WORK_NS:=500}"
: "${BENCH_HIST:=10000}" "${BENCH_REP:=1}" "${BENCH_WARMUP:=1}"
N=$BENCH_CPU
ko=$NOCB_OUT/cbload.ko
[ -f "$ko" ] || ko=$NOCB_SRC/build/$(uname -r | cut -d. -f1,2)/test-modules/cbload.ko
rcudata=/sys/kernel/debug/rcu/rcudata
T=/sys/kernel/tracing
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
mountpoint -q $T || mount -t tracefs tracefs $T
log() { echo "# bench: $*"; }
up() { cut -d' ' -f1 /proc/uptime; }
# icount variant: QEMU 7.2's round-robin icount hangs at x86 SMP bring-up
# during boot, so bench/run boots it with maxcpus=1 and CPU N comes online
# here (the same rcu_nocbs= state applies: offloading is set per CPU at
# boot, its kthreads spawn at online).
for c in ${BENCH_ONLINE:-}; do
	[ "$(cat /sys/devices/system/cpu/cpu$c/online)" = 1 ] || echo 1 > /sys/devices/system/cpu/cpu$c/online
	log "onlined CPU $c: online=$(cat /sys/devices/system/cpu/online)"
done
sleep 1
# This shell and its helpers stay off the measured CPU.
taskset -pc "$BENCH_HK" $$ >/dev/null

{
	echo "kernel: $(uname -r)"
	echo "cmdline: $(cat /proc/cmdline)"
	echo "cpus_online: $(cat /sys/devices/system/cpu/online)"
	echo "onlined_at_runtime: ${BENCH_ONLINE:-none}"
	echo "rcudata_flags: $(awk '{printf "%s ", $1}' $rcudata)"
	echo "nocbctl: $(command -v nocbctl || echo absent)"
	echo "rtla: $(dpkg-query -W -f='${Version}' rtla 2>/dev/null)"
	echo "cyclictest: $(cyclictest --help 2>&1 | head -1) (rt-tests $(dpkg-query -W -f='${Version}' rt-tests 2>/dev/null))"
	echo "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	grep -m1 'model name' /proc/cpuinfo
	grep -m1 'bogomips' /proc/cpuinfo
	dmesg | grep -E 'Offload RCU|rcu_nocb|no-CBs|nohz' | sed 's/^/dmesg: /'
} > "$NOCB_OUT/guest-info.txt"

# Runtime boot: what the switch starts from and the configuration nocbctl
# re-pins by.
if [ "$BENCH_BOOT" = runtime ]; then
	{
		echo "rcu_nocbs_file_at_start: $(cat /sys/devices/system/cpu/rcu_nocbs 2>&1)"
		sed -n '/^[[:space:]]*[^#[:space:]]/s/^/nocbctl.conf: /p' /etc/nocbctl.conf 2>&1
	} > "$NOCB_OUT/runtime-info.txt"
fi

# read, not $(cat): a fork per process costs milliseconds under TCG.
rcuo_pids() { for p in /proc/[0-9]*; do { read -r c < $p/comm; } 2>/dev/null && case $c in rcuog/*|rcuop/*) echo "${p#/proc/} $c" ;; esac; done; }
# The kernel's own placement of the offload kthreads, before anyone pins them.
rcuo_pids | while read -r pid comm; do echo "$pid $comm $(taskset -pc "$pid" | sed 's/.*: //')"; done > "$NOCB_OUT/rcuo-affinity-boot.txt"
pin_method=
pin_hk() {
	if command -v nocbctl >/dev/null && nocbctl pin rcuo --cpus="$BENCH_HK" > "$1/pin.txt" 2>&1; then
		pin_method=nocbctl
	else
		pin_method=taskset
		rcuo_pids | while read -r pid comm; do taskset -pc "$BENCH_HK" "$pid"; done > "$1/pin.txt" 2>&1
	fi
}
# C: "where the kernel put them".  6.1 creates the offload kthreads with
# kthreadd's affinity, the housekeeping CPUs (all CPUs here: no isolcpus=,
# no nohz_full=); the host masks nocbctl's boot units so nothing pins them
# before C, and rcuo-affinity-boot.txt records what the kernel chose.
unpin() {
	local all; all=$(cat /sys/devices/system/cpu/online)
	rcuo_pids | while read -r pid comm; do taskset -pc "$all" "$pid" >/dev/null 2>&1; done
}
affinity() { rcuo_pids | while read -r pid comm; do echo "$pid $comm $(taskset -pc "$pid" | sed 's/.*: //') last_cpu=$(awk '{print $39}' /proc/$pid/stat)"; done; }

# G: nocbctl offload|deoffload N, timed in µs (the switch may take
# milliseconds; /proc/uptime has 10 ms steps).  bash's EPOCHREALTIME needs
# no fork, so a `date` start-up does not count as switch time.  nocbctl
# re-pins the offload kthreads per /etc/nocbctl.conf after the change.
switch() { # offload|deoffload DIR
	local t0 t1 us r=0
	t0=${EPOCHREALTIME//[!0-9]/}
	nocbctl "$1" "$N" > "$2/$1.txt" 2>&1 || r=$?
	t1=${EPOCHREALTIME//[!0-9]/}
	us=$((t1 - t0))
	printf '%s_s=%d.%06d %s_rc=%d\n' "$1" $((us / 1000000)) $((us % 1000000)) "$1" $r >> "$2/meta"
	log "nocbctl $1 $N: exit $r, $us us"
	return $r
}
# F/G: CPU N's rcudata flags in the snapshots must say normal (F) or
# offloaded (G), or the measurement did not measure what it is named.
flags_ok() { # CFG DIR
	local s f all= bad=0
	for s in before mid after; do
		if [ ! -f "$2/rcudata.$s" ]; then all="$all${all:+,}-" bad=1; continue; fi
		f=$(awk -v n="$N" '{ c = $1; sub(/[^0-9].*/, "", c); if (c == n) { sub(/^[0-9]+/, "", $1); print $1 } }' "$2/rcudata.$s")
		all="$all${all:+,}$N$f"
		case $1:$f in G:*N*|F:) ;; *) bad=1 ;; esac
	done
	echo "rcudata_cpu=$all" >> "$2/meta"
	[ $bad = 0 ]
}

snap() { # DIR SUFFIX
	{ echo "uptime $(up)"; cat /proc/softirqs; } > "$1/softirqs.$2"
	cat $rcudata > "$1/rcudata.$2"
	[ -r /sys/kernel/debug/cbload/stats ] && cat /sys/kernel/debug/cbload/stats > "$1/cbload.$2"
	grep -E 'LOC|RES|CAL|TLB' /proc/interrupts > "$1/interrupts.$2"
	echo "$(up)" > "$1/uptime.$2"
}

# osnoise's own per-event record (softirq/irq/thread noise with durations),
# collected in a second trace instance while rtla runs the tracer.
ev_start() {
	rmdir $T/instances/bench 2>/dev/null
	mkdir $T/instances/bench || return
	echo 16384 > $T/instances/bench/buffer_size_kb
	for e in softirq_noise irq_noise thread_noise nmi_noise sample_threshold; do
		echo 1 > $T/instances/bench/events/osnoise/$e/enable 2>/dev/null
	done
	echo 1 > $T/instances/bench/tracing_on
}
ev_stop() { # DIR
	echo 0 > $T/instances/bench/tracing_on 2>/dev/null
	# Summarise in the guest (the raw trace can be large): per kind and name,
	# count and total ns, on the measured CPU only.
	awk -v cpu="$N" '
		{
			c = -1; k = 0
			for (i = 1; i <= NF; i++) {
				if (c < 0 && $i ~ /^\[[0-9]+\]$/) { c = substr($i, 2, length($i) - 2) + 0 }
				if ($i ~ /^(softirq|irq|thread|nmi)_noise:$/) { k = i; break }
			}
			if (!k || c != cpu) next
			kind = $k; sub(/_noise:$/, "", kind)
			name = ""
			for (i = k + 1; i <= NF && $i != "start"; i++) name = name (name == "" ? "" : "_") $i
			sub(/:[0-9]+$/, "", name)
			dur = 0
			for (; i <= NF; i++) if ($i == "duration") { dur = $(i + 1) + 0; break }
			key = kind " " name; n[key]++; tot[key] += dur
			if (dur > mx[key]) mx[key] = dur
		}
		END { for (key in n) printf "%s count=%d total_ns=%.0f max_ns=%d\n", key, n[key], tot[key], mx[key] }
	' $T/instances/bench/trace > "$1/osnoise-events.txt" 2>/dev/null
	grep -c . $T/instances/bench/trace > "$1/osnoise-events.lines" 2>/dev/null
	cat $T/instances/bench/per_cpu/cpu$N/stats > "$1/osnoise-events.bufstats" 2>/dev/null
	rmdir $T/instances/bench 2>/dev/null
}

measure() { # CFG RATE
	local cfg=$1 rate=$2 d qlpid rc=0
	# Raw files go to tmpfs first and to the 9p share after the
	# measurement: no host I/O round trips while the instruments run.
	d=/dev/shm/m/$cfg-$rate-r$BENCH_REP
	mkdir -p "$d" "$NOCB_OUT/m"
	log "$cfg rate=$rate rep=$BENCH_REP start at $(up)s"
	case $cfg in
	C) unpin ;;
	*) [ "$BENCH_BOOT" = offloaded ] && pin_hk "$d" ;;
	esac
	echo "pin_method=${pin_method:-none}" > "$d/meta"
	affinity > "$d/rcuo-affinity.txt"
	case $cfg in
	A|B|C|F|G) insmod "$ko" cpus=$N rate=$rate work_ns=$BENCH_WORK_NS || rc=1 ;;
	D) insmod "$ko" cpus=$N rate=$rate work_ns=$BENCH_WORK_NS queue=0 || rc=1 ;;
	E) ;;
	esac
	# G: switch N with the flood built up (one warm-up), then warm up again.
	# A failed switch is a failed measurement: its instruments are skipped.
	local skip=0
	if [ $cfg = G ]; then
		sleep "$BENCH_WARMUP"
		switch offload "$d" || rc=1 skip=1
		affinity > "$d/rcuo-affinity.offloaded.txt"
	fi
	sleep "$BENCH_WARMUP"
	if [ $skip = 0 ]; then
		snap "$d" before
		# Peak ql on N: sample rcudata on the housekeeping CPU every 0.2 s.
		(while :; do grep -E "^ *$N[!N]* " $rcudata; sleep 0.2; done) > "$d/ql.samples" &
		qlpid=$!
		ev_start
		taskset -c "$BENCH_HK" rtla osnoise top -c "$N" -d "${BENCH_DUR}s" -q > "$d/osnoise.txt" 2> "$d/osnoise.err" || rc=1
		ev_stop "$d"
		snap "$d" mid
		taskset -c "$BENCH_HK" cyclictest -m -q -t 1 -a "$N" -p 95 -i 1000 -D "$BENCH_DUR" -h "$BENCH_HIST" \
			> "$d/cyclictest.txt" 2> "$d/cyclictest.err" || rc=1
		snap "$d" after
		kill $qlpid; wait $qlpid 2>/dev/null
	fi
	affinity > "$d/rcuo-affinity.after.txt"
	case $cfg in A|B|C|D|F|G)
		local t0; t0=$(up)
		rmmod cbload || rc=1
		echo "rmmod_s $(awk -v a="$t0" -v b="$(up)" 'BEGIN { printf "%.2f", b - a }')" >> "$d/meta" ;;
	esac
	# Back to normal without the flood, so the next rate's F starts normal.
	[ $cfg = G ] && { switch deoffload "$d" || rc=1; }
	case $cfg in F|G) flags_ok $cfg "$d" || { rc=1; log "$cfg: CPU $N rcudata flags not as expected: $(grep rcudata_cpu "$d/meta")"; } ;; esac
	echo "cfg=$cfg rate=$rate rep=$BENCH_REP boot=$BENCH_BOOT dur=$BENCH_DUR work_ns=$BENCH_WORK_NS cpu=$N rc=$rc" >> "$d/meta"
	cp -r "$d" "$NOCB_OUT/m/" && rm -rf "$d"
	log "$cfg rate=$rate rep=$BENCH_REP done at $(up)s rc=$rc"
	return $rc
}

# Let the boot settle (systemd units, first grace periods).
sleep 2
fails=0
has() { case " $BENCH_CONFIGS " in *" $1 "*) ;; *) return 1 ;; esac; }
# Interleaved: per rate the loaded configurations in the order given (C
# before B keeps the kernel's own kthread placement untouched until B pins;
# F before G, which switches N and back), then the floor and idle.
for rate in $BENCH_RATES; do
	for cfg in $BENCH_CONFIGS; do
		case $cfg in A|B|C|F|G) measure "$cfg" "$rate" || fails=$((fails + 1)) ;; esac
	done
done
has D && { measure D 0 || fails=$((fails + 1)); }
has E && { measure E 0 || fails=$((fails + 1)); }
log "done, $fails failed measurements"
[ $fails -eq 0 ]
