# Helpers for guest-side test scripts (sourced inside the guest): the
# checks of tools/test-lib.sh, and readers of the guest kernel's state.

[ -z "${nocb_guest_lib:-}" ] || return 0
nocb_guest_lib=1
source "$(dirname "${BASH_SOURCE[0]}")/../test-lib.sh"

# rcudata_field CPU KEY: a field of /sys/kernel/debug/rcu/rcudata for CPU.
rcudata_field() {
	awk -v cpu="$1" -v key="$2" '
		{ n = $1; sub(/[^0-9].*/, "", n) }
		n == cpu { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == key) print kv[2] } }
	' /sys/kernel/debug/rcu/rcudata
}

# rcudata_flags CPU: the flag characters after the CPU number ("", "N", "!N", ...)
rcudata_flags() {
	awk -v cpu="$1" '{ n = $1; sub(/[^0-9].*/, "", n); f = $1; sub(/^[0-9]+/, "", f) } n == cpu { print f }' \
		/sys/kernel/debug/rcu/rcudata
}


mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug

# The build folder of the kernel that is running (build/6.1, build/6.12):
# its test modules and rcutorture come from there.  The running kernel's
# version picks it, not what the host meant to boot.
nocb_kbuild=$NOCB_SRC/build/$(uname -r | cut -d. -f1,2)
# Its object folder: kernel-obj, or kernel-obj-FLAVOR for a flavor built
# with make kernel FLAVOR=NAME (its own CONFIG_LOCALVERSION tells them
# apart), and the test modules built against that same folder.
nocb_kobj=$nocb_kbuild/kernel-obj
for d in "$nocb_kbuild"/kernel-obj-*; do
	[ "$(cat "$d/include/config/kernel.release" 2>/dev/null)" = "$(uname -r)" ] && nocb_kobj=$d
done
nocb_flavor=${nocb_kobj##*/kernel-obj}
nocb_ko() { echo "$nocb_kbuild/test-modules$nocb_flavor/$1.ko"; }

# cb_load CPU COUNT: queue at least COUNT RCU callbacks on CPU from user
# space.  6.1 frees each closed struct file through call_rcu() on the CPU
# that closes it; 6.12 frees files without RCU, but a file created and
# unlinked on tmpfs still frees its dentry and its inode through
# call_rcu() on the CPU that unlinks it (lazy with CONFIG_RCU_LAZY: up to
# 10 s in an offloaded CPU's bypass).  One perl process does them all;
# a fork per callback cost about 3.5 ms under TCG.
cb_load() {
	case "$(uname -r)" in
	6.1.*) taskset -c "$1" bash -c 'for ((i = 0; i < '"$2"'; i++)); do : < /dev/null; done' ;;
	*) taskset -c "$1" perl -e 'my $f = "/dev/shm/nocb-cb-load.$$";
		for (1 .. $ARGV[0]) { open(my $fh, ">", $f) or die "$f: $!\n";
			close($fh); unlink($f) or die "$f: $!\n" }' "$2" ;;
	esac
}

# cbload_stat CPU FIELD: one counter of cbload's stats line for CPU
# (queued, invoked, invoked_task, dropped, ...).
cbload_stat() {
	awk -v cpu="$1" -v key="$2" '$1 == cpu { for (i = 2; i <= NF; i++) {
		split($i, kv, "="); if (kv[1] == key) print kv[2] } }' /sys/kernel/debug/cbload/stats
}

# cbload_rate RATE: RATE callbacks/s per CPU, less on a debug or KCSAN
# kernel, whose call_rcu() under TCG cannot keep up (KASAN records a
# stack per callback): on 6.1's debug kernel 50 000/s kept a CPU in its
# timer interrupt and stalled RCU for minutes, on 6.12's 10 000/s did,
# and a CPU offline then waited for that grace period forever.
cbload_rate() {
	case $nocb_flavor in
	-debug) echo $(($1 / 100)) ;;
	-kcsan) echo $(($1 / 10)) ;;
	*) echo "$1" ;;
	esac
}

# wait_until SECONDS COMMAND...: poll COMMAND every 0.1 s until it succeeds.
wait_until() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.1
	done
}

# sysfs_write FILE VALUE: write VALUE to FILE in this shell, with no
# subshell (on a debug kernel under TCG each fork costs about a second);
# the error, if any, in write_err ("Device or resource busy").
write_err=
sysfs_write() {
	local e=/tmp/nocb-write-err.$BASHPID rc
	write_err=
	echo "$2" 2>"$e" >"$1"
	rc=$?
	[ $rc = 0 ] || { read -r write_err < "$e"; write_err=${write_err##*: }; }
	return $rc
}

# cpu_set_online CPU 0|1: write sysfs online; prints the error, if any.
cpu_set_online() {
	sysfs_write "/sys/devices/system/cpu/cpu$1/online" "$2"
	local rc=$?
	[ -n "$write_err" ] && echo "$write_err"
	return $rc
}
