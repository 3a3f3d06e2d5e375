# Helpers for the plan guest tests (sourced after common.sh): what the
# system is, read from /proc and sysfs directly, independently of nocbctl.
# Pure bash: a fork costs milliseconds under TCG, and they scan every task.

# cpus_of LIST: the CPUs of a kernel-printed list (no strides), one a line
cpus_of() {
	local IFS=, r c
	for r in $1; do
		case $r in
		*-*) for ((c = ${r%-*}; c <= ${r#*-}; c++)); do echo "$c"; done ;;
		?*) echo "$r" ;;
		esac
	done
}

# touches LIST SET: LIST has a CPU of SET (both kernel-printed lists)
touches() {
	local IFS=, r s a b x y
	for r in $1; do
		a=${r%-*} b=${r#*-}
		for s in $2; do
			x=${s%-*} y=${s#*-}
			((a <= y && x <= b)) && return 0
		done
	done
	return 1
}

# allowed_list PID: Cpus_allowed_list of /proc/PID/status, without a fork
allowed_list() {
	local k v
	while read -r k v; do
		[ "$k" = Cpus_allowed_list: ] && { echo "$v"; return 0; }
	done < "/proc/$1/status"
	return 1
}

# movable_kthreads: "PID NAME ALLOWED" of every kernel thread user space
# may move (PF_KTHREAD without PF_NO_SETAFFINITY), one a line
movable_kthreads() {
	local d st f a rest c
	for d in /proc/[0-9]*; do
		read -r st < "$d/stat" 2>/dev/null || continue
		rest=${st##*) }
		# shellcheck disable=SC2086
		set -- $rest
		f=$7
		(( (f & 0x00200000) && !(f & 0x04000000) )) || continue
		a=$(allowed_list "${d#/proc/}" 2>/dev/null) || continue
		read -r c < "$d/comm" || continue
		echo "${d#/proc/} $c $a"
	done
}

# kthreads_on SET [LIST]: the lines of LIST (default: movable_kthreads)
# whose allowed CPUs include one of SET
kthreads_on() {
	local want=$1 all=${2-$(movable_kthreads)} pid name a
	while read -r pid name a; do
		[ -n "$pid" ] && touches "$a" "$want" && echo "$pid $name $a"
	done <<<"$all"
	return 0
}

# irqs_on SET: "IRQ AFFINITY" of every interrupt whose smp_affinity_list
# has a CPU of SET
irqs_on() {
	local d a
	for d in /proc/irq/[0-9]*; do
		read -r a < "$d/smp_affinity_list" 2>/dev/null || continue
		if touches "$a" "$1"; then echo "${d#/proc/irq/} $a"; fi
	done
	return 0
}

# header_cmdline: the cmdline= of this test's "# nocb-guest: header"
header_cmdline() { sed -n 's/^# nocb-guest: cmdline="\([^"]*\)".*/\1/p' "$0" | head -1; }

# phase WHAT: a note with the seconds since boot, to see where time goes
phase() { note "$(cut -d' ' -f1 /proc/uptime)s: $*"; }
