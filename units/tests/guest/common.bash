# Helpers shared by the nocbctl guest tests (sourced, not a test itself).
# Requires bash; runs inside the guest as root.

NOCB_CONF=${NOCB_CONF:-/etc/nocbctl.conf}

# Wait until systemd has finished booting (all start jobs done), at most
# $1 seconds (default 180). Prints the final system state.
nocb_wait_boot() {
	local state
	state=$(timeout "${1:-180}" systemctl is-system-running --wait 2>/dev/null)
	echo "${state:-unknown}"
}

_trim() {
	local t=$1
	t=${t#"${t%%[![:space:]]*}"}
	t=${t%"${t##*[![:space:]]}"}
	printf '%s' "$t"
}

# conf_get KEY: value of KEY in $NOCB_CONF ("" if absent); comments and
# surrounding blanks stripped, the last assignment wins.
conf_get() {
	local key=$1 line k v val=""
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%%#*}
		[[ $line == *=* ]] || continue
		k=${line%%=*}; v=${line#*=}
		k=$(_trim "$k"); v=$(_trim "$v")
		[ "$k" = "$key" ] && val=$v
	done < "$NOCB_CONF"
	printf '%s\n' "$val"
}

# cpulist_expand LIST: kernel cpulist ("0-3,5,8-15:1/2") -> sorted CPU
# numbers, one per line.  As the kernel, a stride needs its /group.
cpulist_expand() {
	local part a b ug used group i j
	local IFS=,
	for part in $1; do
		part=${part// /}
		[ -n "$part" ] || continue
		used=1 group=1
		if [[ $part == *:* ]]; then
			ug=${part#*:} part=${part%%:*}
			[[ $ug == */* ]] || { echo "cpulist_expand: '$1': a stride needs its /group" >&2; return 2; }
			used=${ug%/*} group=${ug#*/}
		fi
		if [[ $part == *-* ]]; then a=${part%-*}; b=${part#*-}; else a=$part; b=$part; fi
		for ((i = a; i <= b; i += group)); do
			for ((j = i; j < i + used && j <= b; j++)); do echo "$j"; done
		done
	done | sort -n -u
}

# cpulist_norm LIST: canonical "0,1,2" form, for comparisons.
cpulist_norm() {
	cpulist_expand "$1" | paste -sd, -
}

# rcuo_threads: "PID NAME" of every RCU offload kthread (rcuog/N, rcuop/N,
# and rcuos/N on kernels without preemptible RCU).
# read, not cat: a fork per process costs seconds under TCG.
rcuo_threads() {
	local d comm
	for d in /proc/[0-9]*; do
		read -r comm 2>/dev/null < "$d/comm" || continue
		[[ $comm =~ ^rcuo(g|p|s)/[0-9]+$ ]] && echo "${d#/proc/} $comm"
	done
	return 0
}

# has_thread KIND CPU: an rcuog/CPU (KIND rcuog) or rcuop/CPU (KIND rcuop;
# rcuos/CPU also counts) kthread exists.
has_thread() {
	local re
	case $1 in
	rcuog) re="rcuog/$2" ;;
	*) re="rcuo[ps]/$2" ;;
	esac
	rcuo_threads | grep -Eq " $re\$"
}

# expected_cpus NAME: the config's CPU list for this kthread name.
expected_cpus() {
	local kind=${1%%/*} v
	v=$(conf_get "$kind.cpus")
	[ -n "$v" ] || v=$(conf_get cpus)
	cpulist_norm "$v"
}

# expected_policy: SCHED_OTHER / SCHED_FIFO / SCHED_RR from the config.
expected_policy() {
	case $(conf_get policy) in
	fifo) echo SCHED_FIFO ;;
	rr) echo SCHED_RR ;;
	*) echo SCHED_OTHER ;;
	esac
}

# thread_state PID: "cpus=<norm list> policy=<SCHED_*> prio=<N> nice=<N>"
# as the kernel reports it (/proc/PID/status, chrt -p, /proc/PID/stat).
thread_state() {
	local pid=$1 cpus policy prio stat nice
	cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$pid/status" 2>/dev/null)
	policy=$(chrt -p "$pid" 2>/dev/null | sed -n "s/.*scheduling policy: \([A-Z_]*\).*/\1/p")
	prio=$(chrt -p "$pid" 2>/dev/null | sed -n "s/.*scheduling priority: \([0-9]*\).*/\1/p")
	stat=$(cat "/proc/$pid/stat" 2>/dev/null)
	stat=${stat##*) }
	# after "comm) ": field 3 is the first; nice is field 19
	nice=$(echo "$stat" | awk '{print $17}')
	echo "cpus=$(cpulist_norm "$cpus") policy=$policy prio=$prio nice=$nice"
}

# expected_state NAME: what thread_state should print for this kthread.
expected_state() {
	local policy prio nice
	policy=$(expected_policy)
	prio=$(conf_get priority); prio=${prio:-0}
	nice=$(conf_get nice); nice=${nice:-0}
	[ "$policy" = SCHED_OTHER ] && prio=0 || nice=0
	echo "cpus=$(expected_cpus "$1") policy=$policy prio=$prio nice=$nice"
}

# threads_mismatch: print one line per offload kthread whose state differs
# from the config; exit status 0 when none differs (and at least one exists).
threads_mismatch() {
	local pid name have want bad=0 n=0
	while read -r pid name; do
		n=$((n + 1))
		have=$(thread_state "$pid")
		want=$(expected_state "$name")
		if [ "$have" != "$want" ]; then
			echo "$name (pid $pid): have $have, want $want"
			bad=1
		fi
	done < <(rcuo_threads)
	[ $n -gt 0 ] || { echo "no rcuo kthreads found"; return 1; }
	return $bad
}

# all_threads_ok: exit status only, for check/polling.
all_threads_ok() {
	threads_mismatch >/dev/null
}

# unit_prop UNIT PROP: one property value of a unit.
unit_prop() {
	systemctl show -p "$2" --value "$1" 2>/dev/null
}

# prop_gt0 UNIT PROP: the (numeric) property is set and above 0, e.g. a
# timestamp showing that something happened.
prop_gt0() {
	local v
	v=$(unit_prop "$1" "$2")
	echo "$1 $2=${v:-<none>}"
	[ "${v:-0}" -gt 0 ] 2>/dev/null
}

# no_failed_units: exit status 0 when `systemctl --failed` lists nothing;
# prints the list otherwise.
no_failed_units() {
	local failed
	failed=$(systemctl --failed --no-legend --plain 2>&1) ||
		{ echo "systemctl failed: $failed"; return 1; }
	[ -z "$failed" ] && return 0
	echo "$failed"
	return 1
}
