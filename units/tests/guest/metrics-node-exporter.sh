#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3 isolcpus=1-3 nocb.node_exporter=1" smp=4
#
# nocbctl-metrics.service writes `nocbctl stats --format=prometheus` into
# node_exporter's textfile directory, on the housekeeping CPUs of
# /etc/nocbctl.conf; Debian's prometheus-node-exporter serves it. What
# curl gets from /metrics agrees with rcudata read just before and just
# after the file was written: flags exactly, counters between the two
# reads, queue lengths of the isolated CPUs exactly when both reads
# agree; the gauge of offload kthreads on their own CPU exactly with
# what /proc says. isolcpus=1-3 keeps user space (this script,
# node_exporter) on CPU 0, as on a host set up for isolation, so that the
# queues of CPUs 1-3 hold still; nocb.node_exporter=1 lets the image
# start node_exporter at boot.
source "$NOCB_SRC/tools/vm/guest-lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/common.bash"

export LC_ALL=C   # one collation for sort and join
S=nocbctl-metrics.service T=nocbctl-metrics.timer
NE=prometheus-node-exporter.service
DIR=/var/lib/prometheus/node-exporter PROM=$DIR/nocbctl.prom
URL=http://127.0.0.1:9100/metrics
# the same, from the textfile collector only: a full scrape takes seconds here
URL_TF="$URL?collect[]=textfile"
W=$(mktemp -d)

# scrape FILE [URL]
scrape() { curl -fsSg --max-time 30 "${2:-$URL_TF}" -o "$1"; }

# INLIST: awk's inlist(LIST, CPU), 1 when the kernel's cpulist (numbers
# and ranges) holds CPU.
INLIST='
	function inlist(l, c,   parts, np, i, r) {
		np = split(l, parts, ",")
		for (i = 1; i <= np; i++) {
			if (split(parts[i], r, "-") == 1) r[2] = r[1]
			if (c + 0 >= r[1] + 0 && c + 0 <= r[2] + 0) return 1
		}
		return 0
	}
	'

# own_cpu: "CPU COUNT" per rcudata CPU, from /proc: offload kthreads
# rcuo?/N of an offloaded CPU N whose allowed CPUs include N (a few
# processes only: forks are slow in this guest).
own_cpu() {
	local threads
	threads=$(grep -s '^rcuo[gps]/[0-9]*$' /proc/[0-9]*/comm | sed 's|^/proc/\([0-9]*\)/comm:|\1 |')
	awk -v threads="$threads" "$INLIST"'
	BEGIN { n = split(threads, t, "\n"); for (i = 1; i <= n; i++) { split(t[i], f, " "); name[f[1]] = f[2] } }
	FILENAME ~ /rcudata$/ { c = $1; fl = $1; sub(/[^0-9].*/, "", c); sub(/^[0-9]+/, "", fl)
		off[c] = (fl ~ /N/); order[++nc] = c; next }
	/^Cpus_allowed_list:/ { split(FILENAME, p, "/"); cpu = name[p[3]]; sub(/.*\//, "", cpu)
		if (off[cpu] && inlist($2, cpu)) own[cpu]++ }
	END { for (i = 1; i <= nc; i++) print order[i], own[order[i]] + 0 }
	' /sys/kernel/debug/rcu/rcudata $(sed 's|^\([0-9]*\) .*|/proc/\1/status|' <<<"$threads")
}

# misplaced: "CPU COUNT" per possible CPU, from /proc and sysfs: offload
# kthreads allowed on CPU c while c is offloaded (rcudata N), isolated or
# nohz_full.
misplaced() {
	local threads quiet
	threads=$(grep -s '^rcuo[gps]/[0-9]*$' /proc/[0-9]*/comm | sed 's|^/proc/\([0-9]*\)/comm:.*|/proc/\1/status|')
	quiet=$(cat /sys/devices/system/cpu/isolated /sys/devices/system/cpu/nohz_full 2>/dev/null | grep -v -e null -e '^$' | paste -sd, -)
	# shellcheck disable=SC2086
	awk -v quiet="$quiet" -v ncpu="$(nproc --all)" "$INLIST"'
	FILENAME ~ /rcudata$/ { c = $1; fl = $1; sub(/[^0-9].*/, "", c); sub(/^[0-9]+/, "", fl)
		if (fl ~ /N/) q[c] = 1; next }
	/^Cpus_allowed_list:/ { for (c = 0; c < ncpu; c++) if (inlist($2, c)) allowed[c]++ }
	END { for (c = 0; c < ncpu; c++) print c, ((q[c] || inlist(quiet, c)) ? allowed[c] + 0 : 0) }
	' /sys/kernel/debug/rcu/rcudata $threads
}

# rd_series RCUDATA: "NAME CPU CONTEXT VALUE" the metrics must show, as
# this test reads rcudata's format (rcudata.h): flags ! and N, ql=LAZY/TOTAL.
rd_series() {
	awk '{
		cpu = $1; sub(/[^0-9].*/, "", cpu); f = $1; sub(/^[0-9]+/, "", f)
		print "nocb_cpu_online", cpu, "-", (f ~ /!/ ? 0 : 1)
		print "nocb_cpu_offloaded", cpu, "-", (f ~ /N/ ? 1 : 0)
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "ql") { split(kv[2], q, "/")
				print "nocb_callbacks_queued_lazy", cpu, "-", q[1]
				print "nocb_callbacks_queued", cpu, "-", q[2] }
			if (kv[1] == "ci") print "nocb_callbacks_invoked_total", cpu, "softirq", kv[2]
			if (kv[1] == "nci") print "nocb_callbacks_invoked_total", cpu, "offload", kv[2]
			if (kv[1] == "co") print "nocb_callbacks_migrated_total", cpu, "-", kv[2]
			if (kv[1] == "ca") print "nocb_callbacks_adopted_total", cpu, "-", kv[2]
		}
	}' "$1" | sort
}

# prom_series FILE: "NAME CPU CONTEXT VALUE" of every nocb_ sample; the
# value as an integer (node_exporter may print 1.234567e+06).
prom_series() {
	awk '/^nocb_/ {
		name = $1; sub(/\{.*/, "", name); cpu = "?"; ctx = "-"
		if (match($1, /cpu="[0-9]+"/)) cpu = substr($1, RSTART + 5, RLENGTH - 6)
		if (match($1, /context="[a-z]+"/)) ctx = substr($1, RSTART + 9, RLENGTH - 10)
		printf "%s %s %s %.0f\n", name, cpu, ctx, $2
	}' "$1" | sort
}

# compare A B M: every rcudata series once in M, and A <= M <= B (a
# queue length may also shrink: between the two reads; exact when they
# agree). Not the queue lengths of the housekeeping CPUs $hk: the
# collector itself queues callbacks there while it runs (closing files),
# so they are only checked to be counts. Prints the mismatches, and
# "unstable" when a queue length moved between A and B.
compare() {
	join -j1 -a1 -a2 -e X -o 0,1.2,2.2 <(awk '{ print $1 "/" $2 "/" $3, $4 }' "$1" | sort) \
		<(awk '{ print $1 "/" $2 "/" $3, $4 }' "$2" | sort) |
	join -j1 -a1 -a2 -e X -o 0,1.2,1.3,2.2 - <(awk '{ print $1 "/" $2 "/" $3, $4 }' "$3" | sort) |
	awk -v hk="$(cpulist_norm "$hk")" '
	     BEGIN { n = split(hk, h, ","); for (i = 1; i <= n; i++) busy[h[i]] = 1 }
	     $2 == "X" || $3 == "X" || $4 == "X" { print "missing:", $0; bad = 1; next }
	     { split($1, k, "/"); lo = $2 + 0; hi = $3 + 0 }
	     $1 ~ /^nocb_callbacks_queued/ && (k[2] in busy) { if ($4 !~ /^[0-9]+$/) { print "not a count:", $0; bad = 1 }; next }
	     $1 ~ /^nocb_callbacks_queued/ && lo != hi { unstable = 1; if (lo > hi) { lo = hi; hi = $2 + 0 } }
	     $4 + 0 < lo || $4 + 0 > hi { print "out of range:", $0; bad = 1 }
	     END { if (unstable) print "unstable"; exit bad }'
}

# measure: rcudata before, the service, rcudata after, then a scrape.
measure() {
	own_cpu > "$W/own.a"
	rd_series /sys/kernel/debug/rcu/rcudata > "$W/a"
	systemctl start $S || return 1
	rd_series /sys/kernel/debug/rcu/rcudata > "$W/b"
	own_cpu > "$W/own.b"
	scrape "$W/m"
}

t0=${EPOCHREALTIME%.*}
tick() { note "t=$((${EPOCHREALTIME%.*} - t0))s: $*"; }   # where the time goes
note "system state after boot: $(nocb_wait_boot 180)"
check_eq "$NE started at boot" active "$(systemctl is-active $NE 2>&1)"
check_eq "$T is enabled" enabled "$(systemctl is-enabled $T 2>&1)"
check_eq "$T is active" active "$(systemctl is-active $T 2>&1)"
check "$DIR exists (from the node-exporter package)" test -d "$DIR"
# The timer wrote the file by itself (OnBootSec=15s); from here on only
# this script writes it.
triggered() { local v; v=$(unit_prop $T LastTriggerUSec); [ -n "$v" ] && [ "$v" != n/a ]; }
wait_until 40 triggered
check "$T has triggered" triggered
systemctl stop $T
# The timer starts the service; the file appears when that run ends.
ran() { [ "$(unit_prop $S ActiveState)" != activating ] && [ -f "$PROM" ]; }
wait_until 20 ran
check "$PROM exists" test -f "$PROM"
check_eq "$PROM mode" 644 "$(stat -c %a "$PROM")"
hk=$(conf_get cpus)
check_eq "$S CPUAffinity= is the config's cpus" "$(cpulist_norm "$hk")" \
	"$(cpulist_norm "$(unit_prop $S CPUAffinity)")"
check "the affinity comes from nocbctl-generator's drop-in" \
	grep -q /run/systemd/generator/$S.d/50-housekeeping-cpus.conf <<<"$(unit_prop $S DropInPaths)"
tick "units checked"

# --- node_exporter ---------------------------------------------------------
check "curl $URL (every collector)" scrape "$W/full" "$URL"
note "scrape: $(wc -l <"$W/full") lines, $(grep -c '^nocb_' "$W/full") nocb samples"
check_eq "the full scrape has the file's series" "$(prom_series "$PROM")" "$(prom_series "$W/full")"
tick "node_exporter up"

# Break one CPU's isolation on purpose: rcuop/2 allowed everywhere.
p2=$(grep -lx 'rcuop/2' /proc/[0-9]*/comm | cut -d/ -f3)
check "rcuop/2 exists" test -n "$p2"
taskset -pc 0-3 "$p2" >/dev/null

for ((try = 1; try <= 5; try++)); do
	check "measurement $try: rcudata, $S, rcudata, curl" measure
	prom_series "$W/m" | grep -E '^nocb_(cpu_|callbacks_)' > "$W/series"
	out=$(compare "$W/a" "$W/b" "$W/series")
	rc=$?
	[ $rc = 0 ] && [ -z "$out" ] && break
	note "try $try: $(head -3 <<<"$out" | paste -sd';' -)"
	[ $rc = 0 ] || break
done
tick "measured"
[ "$out" = unstable ] && note "queue lengths moved in all 5 tries: checked between the two reads only"
check_eq "scraped values agree with rcudata (flags exact, counters within the two reads, queues of CPUs 1-3 exact)" "" \
	"$(grep -vx unstable <<<"$out")"
check "12 nocb families with HELP and TYPE in the scrape" \
	test "$(grep -c '^# TYPE nocb_' "$W/m")" = 12 -a "$(grep -c '^# HELP nocb_' "$W/m")" = 12
check "series for CPUs 0-3" test "$(awk '$1 == "nocb_cpu_offloaded" { print $2 }' "$W/series" | paste -sd, -)" = 0,1,2,3
check_eq "own-CPU kthreads unchanged during the measurement" "$(cat "$W/own.a")" "$(cat "$W/own.b")"
check_eq "nocb_offload_kthreads_on_own_cpu == /proc, per CPU" "$(cat "$W/own.a")" \
	"$(prom_series "$W/m" | awk '$1 == "nocb_offload_kthreads_on_own_cpu" { print $2, $4 }')"
check "rcuop/2 allowed everywhere shows on CPU 2" grep -q '^2 [1-9]' "$W/own.a"
# rcuop/2 may run on CPUs 1-3, all offloaded and isolated: the gauge
# that alerts counts it on each, and nothing on housekeeping CPU 0.
check_eq "nocb_offload_kthreads_misplaced == /proc, per CPU" "$(misplaced)" \
	"$(prom_series "$W/m" | awk '$1 == "nocb_offload_kthreads_misplaced" { print $2, $4 }')"
check "misplaced: rcuop/2 counted on CPUs 1-3" test "$(misplaced | awk '$1 > 0 && $2 >= 1' | wc -l)" = 3
check_eq "rcudata statistics available" 1 \
	"$(awk '$1 == "nocb_kernel_statistics_available{statistics=\"rcudata\"}" { print $2 }' "$W/m")"
check "collection time within a minute of the guest's clock" awk -v now="${EPOCHREALTIME%.*}" \
	'$1 == "nocb_collector_last_success_timestamp_seconds" { d = now - $2; ok = d >= 0 && d < 60 } END { exit !ok }' "$W/m"
note "own-CPU kthreads: $(paste -sd' ' "$W/own.a")"
# The file and the scrape say the same; node_exporter read it cleanly.
check_eq "scrape == $PROM" "$(prom_series "$PROM")" "$(prom_series "$W/m")"
check "node_textfile_scrape_error 0" grep -qx 'node_textfile_scrape_error 0' "$W/m"
check "node_textfile_mtime_seconds names $PROM" grep -q "^node_textfile_mtime_seconds{file=\"$PROM\"}" "$W/m"
check_eq "no temporary file left in $DIR" "nocbctl.prom" "$(ls -A "$DIR" | paste -sd' ' -)"

# Isolation repaired: the gauge follows.
check "nocbctl apply" nocbctl apply
check "systemctl start $S" systemctl start $S
check "curl $URL_TF" scrape "$W/m"
check_eq "after apply no offload kthread runs on its own CPU" "0 0 0 0" \
	"$(prom_series "$W/m" | awk '$1 == "nocb_offload_kthreads_on_own_cpu" { print $4 }' | paste -sd' ' -)"
check_eq "after apply no offload kthread is misplaced" "0 0 0 0" \
	"$(prom_series "$W/m" | awk '$1 == "nocb_offload_kthreads_misplaced" { print $4 }' | paste -sd' ' -)"
tick "gauge back to 0"

# --- a changed config: the next daemon-reload moves the collector -----------
# Last, since the collector then runs on CPU 1 too. A test drop-in makes
# the unit's first process print its allowed CPUs (into the one directory
# the sandbox lets it write; node_exporter reads *.prom files only).
sed -i 's/^cpus[[:space:]]*=.*/cpus = 0-1/' "$NOCB_CONF"
mkdir -p /run/systemd/system/$S.d
printf '[Service]\nExecStartPre=/bin/sh -c "exec grep Cpus_allowed_list /proc/self/status > %s/affinity.test"\n' \
	"$DIR" > /run/systemd/system/$S.d/90-test-affinity.conf
systemctl daemon-reload
check_eq "after daemon-reload CPUAffinity= follows cpus = 0-1" "0,1" \
	"$(cpulist_norm "$(unit_prop $S CPUAffinity)")"
check "systemctl start $S" systemctl start $S
allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$DIR/affinity.test")
check_eq "the collector process may run on CPUs 0-1 only" "0,1" "$(cpulist_norm "$allowed")"
tick "generator followed the config"
check "systemctl --failed is empty" no_failed_units
finish
