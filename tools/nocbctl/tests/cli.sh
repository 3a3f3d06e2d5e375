#!/bin/bash
# cli.sh - end-to-end checks of the nocbctl binary (the sanitized build)
# against the fixture trees: exit codes, one-line errors, JSON validity.
# Usage: NOCBCTL=path/to/nocbctl FIXTURES=tests/fixtures bash tests/cli.sh
set -u
N=${NOCBCTL:?}
F=${FIXTURES:?}
pass=0 fail=0
export ASAN_OPTIONS=detect_leaks=1
# private files: two make check runs in one checkout must not share them
O=$(mktemp) E=$(mktemp) T=$(mktemp -d)
trap 'rm -rf "$O" "$E" "$T"' EXIT

# expect RC DESCRIPTION -- command...
expect() {
	local want=$1 desc=$2; shift 3
	"$@" >$O 2>$E
	local rc=$?
	if [ "$rc" = "$want" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $desc: exit $rc, expected $want"
		sed 's/^/  | /' $O $E
	fi
}
json_ok() {
	local desc=$1; shift
	if "$@" 2>/dev/null | python3 -m json.tool >/dev/null; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); echo "FAIL: $desc: not one valid JSON document"
	fi
}
one_line_err() {
	local desc=$1
	if [ "$(wc -l <$E)" = 1 ] &&
	   grep -q '^nocbctl: ' $E &&
	   [ ! -s $O ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); echo "FAIL: $desc: not a one-line error"
		cat $E
	fi
}

expect 0 "--version" -- "$N" --version
grep -q '^nocbctl [0-9]' $O && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: version text"; }
expect 0 "--help" -- "$N" --help
for v in status stats pin prio apply hotplug-check plan offload deoffload; do
	expect 0 "$v --help" -- "$N" "$v" --help
	grep -q "^ nocbctl $v" $O && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: $v --help usage line"; }
done
# help names features by what they do, not by the project's K-codes
for v in "" status stats pin prio apply hotplug-check plan offload deoffload; do
	# shellcheck disable=SC2086
	"$N" $v --help 2>&1 | grep -q 'K[1-6]' && { fail=$((fail + 1)); echo "FAIL: ${v:-nocbctl} --help names a K-code"; } || pass=$((pass + 1))
done
expect 2 "no command" -- "$N"
expect 2 "unknown command" -- "$N" frobnicate
expect 2 "unknown global option" -- "$N" --bogus status
expect 2 "--root without DIR" -- "$N" --root

for fx in cpu1 cpu4 cpu4-offline cpu64 norcudata nodebugfs nonci malformed vanished maxcpus3; do
	expect 0 "status $fx" -- "$N" --root "$F/$fx" status
	json_ok "status --json $fx" "$N" --json --root "$F/$fx" status
done
json_ok "stats --json" "$N" --json --root "$F/cpu4" stats
json_ok "stats --json --watch" "$N" --json --root "$F/cpu4" stats --watch 0.01 --count 2
json_ok "pin --json --dry-run" "$N" --json --root "$F/cpu4" pin rcuo --cpus=0 --dry-run
json_ok "prio --json --dry-run" "$N" --json --root "$F/cpu4" prio rcuo --policy=fifo --priority=1 --dry-run --force
expect 0 "plan" -- "$N" --root "$F/plan4" plan --isolate=2-3
json_ok "plan --json" "$N" --json --root "$F/plan4" plan --isolate=2-3
json_ok "plan --format=json" "$N" --root "$F/plan4" plan --isolate=2-3 --format=json
json_ok "plan --check --json" "$N" --json --root "$F/plan4" plan --check --isolate=2-3
expect 0 "plan --check, clean" -- "$N" --root "$F/plan4" plan --check --isolate=2-3
expect 1 "plan --check, unplanned" -- "$N" --root "$F/cpu4" plan --check --isolate=2-3
for bad in --isolate=0-1 --isolate=0-3 --isolate=5 --isolate=1-3:2; do
	expect 2 "plan $bad" -- "$N" --root "$F/plan4" plan "$bad"
	one_line_err "plan $bad"
done
expect 2 "plan splits SMT siblings" -- "$N" --root "$F/smt8" plan --isolate=2-3
one_line_err "plan splits SMT siblings"
expect 3 "stats without rcudata" -- "$N" --root "$F/norcudata" stats
# the metrics still say where the offload kthreads may run, and that
# the kernel gives no statistics
expect 0 "stats --format=prometheus without rcudata" -- "$N" --root "$F/norcudata" stats --format=prometheus
grep -qx 'nocb_kernel_statistics_available{statistics="rcudata"} 0' $O && grep -q '^nocb_offload_kthreads_misplaced{cpu="1"} [1-9]' $O &&
	pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: prometheus without rcudata: placement and availability"; cat $O; }
# a kernel of the series built without debugfs: say so, do not guess
expect 3 "stats on a kernel without debugfs" -- "$N" --root "$F/nodebugfs" stats
one_line_err "stats on a kernel without debugfs"
grep -q '^nocbctl: stats: .*no debugfs (CONFIG_DEBUG_FS=n)' $E &&
	pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: stats names the missing debugfs"; }
expect 0 "status on a kernel without debugfs" -- "$N" --root "$F/nodebugfs" status
grep -Eq '^  K2 .* absent .*no debugfs in this kernel' $O && grep -Eq '^  K3 .* present .*rcu_nocbs' $O &&
	pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: status K2 absent (no debugfs), K3 inferred"; }
expect 2 "stats --format=bogus" -- "$N" --root "$F/cpu4" stats --format=bogus
one_line_err "stats --format=bogus"
expect 0 "stats --format=prometheus -o FILE" -- "$N" --root "$F/cpu4" stats --format=prometheus -o "$T/nocbctl.prom"
grep -q '^nocb_callbacks_invoked_total{cpu="2",context="offload"} 1500$' "$T/nocbctl.prom" && [ ! -s $O ] &&
	pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: -o FILE content"; }
expect 1 "stats malformed rcudata" -- "$N" --root "$F/malformed" stats

for bad in --cpus=99 --cpus=1- --cpus= --cpus=0-3:0; do
	expect 2 "pin $bad" -- "$N" --root "$F/cpu4" pin rcuo "$bad" --dry-run
	one_line_err "pin $bad"
done
expect 2 "prio priority 100" -- "$N" --root "$F/cpu4" prio rcuo --policy=fifo --priority=100 --dry-run
one_line_err "prio priority 100"
expect 0 "pin --dry-run" -- "$N" --root "$F/cpu4" pin rcuo --cpus=0 --dry-run
grep -c 'would change (' $O | grep -qx 6 && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: 6 would change"; }
# a fixture root never leads to syscalls on real pids
expect 2 "pin with fixture root needs --dry-run" -- "$N" --root "$F/cpu4" pin rcuo --cpus=0
one_line_err "pin with fixture root"

# err_has TEXT: the last command's stderr contains TEXT
err_has() {
	if grep -qF -- "$1" "$E"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); echo "FAIL: stderr lacks '$1':"; cat "$E"
	fi
}

# Global options go through getopt_long like the verbs'.
expect 0 "-- before the command" -- "$N" --root "$F/cpu4" -- status
json_ok "-j -r DIR" "$N" -j -r "$F/cpu4" status
json_ok "-jr DIR" "$N" -jr "$F/cpu4" status
json_ok "--root=DIR --json" "$N" --root="$F/cpu4" --json status
json_ok "status --json" "$N" -r "$F/cpu4" status --json
json_ok "stats -j" "$N" -r "$F/cpu4" stats -j
expect 2 "--root ''" -- "$N" --root "" status
one_line_err "--root ''"
expect 2 "--root=" -- "$N" --root= status
one_line_err "--root="
# Errors name the option.
expect 2 "--root without DIR" -- "$N" --root
err_has "nocbctl: --root: needs an argument"
expect 2 "unknown short global option" -- "$N" -x status
err_has "nocbctl: -x: unknown option"
expect 2 "pin --cpus without LIST" -- "$N" -r "$F/cpu4" pin rcuo --dry-run --cpus
err_has "nocbctl: pin: --cpus: needs an argument"
expect 2 "stats -c without LIST" -- "$N" -r "$F/cpu4" stats -c
err_has "nocbctl: stats: -c: needs an argument"
expect 2 "stats -n is not --count" -- "$N" -r "$F/cpu4" stats -w 1 -n 2
err_has "nocbctl: stats: -n: unknown option"
expect 2 "--dry-run=x" -- "$N" -r "$F/cpu4" pin rcuo -c 0 --dry-run=x
err_has "nocbctl: pin: --dry-run: takes no argument"
expect 2 "prio --p is ambiguous" -- "$N" -r "$F/cpu4" prio rcuo --p=fifo -n
err_has "nocbctl: prio: --p: ambiguous option"

# The fixture guard is decided after parsing. Fixture pids far above any
# real one: should the guard fail, no host task is touched.
mkdir -p "$T/fx" && cp -a "$F/cpu4/." "$T/fx/"
for p in 12 13 14 15 16 17; do mv "$T/fx/proc/$p" "$T/fx/proc/41940$p"; done
printf 'cpus = 0\n' > "$T/--dry-run"
expect 2 "apply --config --dry-run (a file of that name)" -- \
	"$N" --root "$T/fx" apply --config "$T/--dry-run"
one_line_err "apply --config --dry-run"
expect 2 "apply -C --dry-run (a file of that name)" -- \
	"$N" --root "$T/fx" apply -C "$T/--dry-run"
expect 2 "prio without --dry-run" -- "$N" --root "$T/fx" prio rcuo -p fifo -P 1
one_line_err "prio with fixture root"
expect 0 "pin --dry (getopt abbreviation)" -- "$N" --root "$T/fx" pin rcuo --cpus=0 --dry
grep -c 'would change (' "$O" | grep -qx 6 && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: --dry: 6 would change"; }
expect 0 "apply --dry -C FILE" -- "$N" --root "$T/fx" apply --dry -C "$T/--dry-run"
expect 0 "apply -n" -- "$N" --root "$T/fx" apply -n -C "$T/--dry-run"
json_ok "hotplug-check --json" "$N" -r "$T/fx" hotplug-check --json

# offload/deoffload write the fixture's rcu_nocbs: on a copy only.  Its
# kthreads may run on CPUs 0-3: offloading CPU 1 would leave them allowed
# on it, which the placement rule refuses unless --force.
cp -a "$F/k6" "$T/k6"
expect 2 "offload 1, kthreads allowed on CPU 1" -- "$N" --root "$T/k6" offload 1
one_line_err "offload 1, kthreads allowed on CPU 1"
err_has "nocbctl: offload: rcuog/0, rcuog/2, rcuop/0, rcuop/1, ... (allowed there after the change): CPU 1 is unsafe for offload kthreads (1 offloaded); pin them to housekeeping CPUs first, or --force"
expect 0 "offload 1 --dry-run --force" -- "$N" --root "$T/k6" offload 1 --dry-run --force
[ "$(cat "$T/k6/sys/devices/system/cpu/rcu_nocbs")" = 2-3 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: --dry-run wrote rcu_nocbs"; }
expect 0 "offload 1 --force" -- "$N" --root "$T/k6" offload 1 --force
err_has "nocbctl: offload: warning: rcuog/0, rcuog/2, rcuop/0, rcuop/1, ... (allowed there after the change): CPU 1 is unsafe for offload kthreads (1 offloaded); --force: done anyway"
[ "$(cat "$T/k6/sys/devices/system/cpu/rcu_nocbs")" = 1-3 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: offload 1 did not write 1-3"; }
json_ok "deoffload --json" "$N" --json --root "$T/k6" deoffload 1-2
[ "$(cat "$T/k6/sys/devices/system/cpu/rcu_nocbs")" = 3 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: deoffload 1-2 did not write 3"; }
for bad in 0 7 1- ""; do
	expect 2 "offload '$bad'" -- "$N" --root "$T/k6" offload "$bad"
	one_line_err "offload '$bad'"
done
expect 3 "offload without K6" -- "$N" --root "$F/cpu4" offload 1
one_line_err "offload without K6"
# with a config that pins, the fixture guard applies as for apply
mkdir -p "$T/k6/etc" && printf 'cpus = 0\n' > "$T/k6/etc/nocbctl.conf"
expect 2 "offload with fixture pids needs --dry-run" -- "$N" --root "$T/k6" offload 1
one_line_err "offload with fixture pids"
[ "$(cat "$T/k6/sys/devices/system/cpu/rcu_nocbs")" = 3 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: refused offload wrote rcu_nocbs"; }

# apply's offload line makes the no-CBs CPUs exactly its list: a copy again
cp -a "$F/k6" "$T/k6a" && mkdir -p "$T/k6a/etc"
nocbs_is() {
	[ "$(cat "$T/k6a/sys/devices/system/cpu/rcu_nocbs")" = "$1" ] && pass=$((pass + 1)) ||
		{ fail=$((fail + 1)); echo "FAIL: $2: rcu_nocbs reads '$(cat "$T/k6a/sys/devices/system/cpu/rcu_nocbs")', not '$1'"; }
}
printf 'offload = 1,3 # test\n' > "$T/k6a/etc/nocbctl.conf"
expect 2 "apply offload = 1,3, kthreads allowed on CPU 1" -- "$N" --root "$T/k6a" apply --dry-run
one_line_err "apply offload = 1,3, kthreads allowed on CPU 1"
expect 0 "apply offload = 1,3 --dry-run" -- "$N" --root "$T/k6a" apply --dry-run --force
nocbs_is 2-3 "apply --dry-run"
grep -qx 'rcu_nocbs (dry run): 2-3 -> 1,3' $O && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: apply --dry-run shows the offload step"; cat $O; }
expect 0 "apply offload = 1,3" -- "$N" --root "$T/k6a" apply --force
nocbs_is 1,3 "apply"
grep -qx 'CPU 2: deoffloaded' $O && grep -qx 'rcu_nocbs: 2-3 -> 1,3' $O && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: apply reports the offload step"; cat $O; }
expect 0 "apply again: nothing to change" -- "$N" --root "$T/k6a" apply
grep -qx 'rcu_nocbs: 1,3 (nothing to change)' $O && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: apply again"; cat $O; }
json_ok "apply --json with an offload line" "$N" --json --root "$T/k6a" apply
printf 'offload = 2\n' > "$T/k6a/etc/nocbctl.conf"
expect 0 "apply --no-offload" -- "$N" --root "$T/k6a" apply --no-offload
nocbs_is 1,3 "apply --no-offload"
for bad in 0 0-3 all 7 1-3:2 garbage 1-; do
	printf 'cpus = 0\noffload = %s\n' "$bad" > "$T/k6a/etc/nocbctl.conf"
	expect 2 "apply offload = $bad" -- "$N" --root "$T/k6a" apply --dry-run
	one_line_err "apply offload = $bad"
	err_has "nocbctl: $T/k6a/etc/nocbctl.conf:2: offload: "
done
nocbs_is 1,3 "bad offload lines"
# no K6 (rcudata shows 1-3): exit 3 unless the list is 1-3 already
cp -a "$F/cpu4" "$T/cpu4a" && mkdir -p "$T/cpu4a/etc"
printf 'offload = 1-3\n' > "$T/cpu4a/etc/nocbctl.conf"
expect 0 "apply without K6, list already so" -- "$N" --root "$T/cpu4a" apply
printf 'offload = 2\n' > "$T/cpu4a/etc/nocbctl.conf"
expect 3 "apply without K6" -- "$N" --root "$T/cpu4a" apply
[ "$(wc -l <$E)" = 1 ] && grep -q "^nocbctl: apply: $T/cpu4a/etc/nocbctl.conf:1: offload: .*is missing.*boot with rcu_nocbs=2 instead$" $E &&
	pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: apply without K6: one error line"; cat $E; }
json_ok "apply --json without K6" "$N" --json --root "$T/cpu4a" apply

# The shipped /etc/nocbctl.conf asks for nothing: on a host whose rcuo
# kthreads were made SCHED_FIFO (cpu4-pinned), apply would change none.
C=${SHIPPED_CONF:-$(dirname "$0")/../../../units/nocbctl.conf}
expect 0 "apply --dry-run, the shipped config" -- "$N" --root "$F/cpu4-pinned" apply --dry-run --config="$C"
grep -qx "apply: $C sets nothing" $O && ! grep -q 'would change' $O && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: the shipped config changes something"; cat $O; }

# The placement rule in every changing verb (lib/placement.h): refused
# with exit 2 and nothing written, or done with --force and a warning.
expect 2 "pin onto offloaded CPUs" -- "$N" --root "$F/cpu4" pin rcuo --cpus=1-3 --dry-run
one_line_err "pin onto offloaded CPUs"
err_has "nocbctl: pin: --cpus=1-3: CPUs 1-3 are unsafe for offload kthreads (1-3 offloaded); pin to housekeeping CPUs, or --force"
expect 0 "pin onto offloaded CPUs --force" -- "$N" --root "$F/cpu4" pin rcuo --cpus=1-3 --dry-run --force
err_has "nocbctl: pin: warning: --cpus=1-3: CPUs 1-3 are unsafe for offload kthreads (1-3 offloaded); --force: done anyway"
expect 0 "pin onto CPU 0" -- "$N" --root "$F/cpu4" pin rcuo --cpus=0 --dry-run
expect 2 "prio fifo for kthreads allowed on offloaded CPUs" -- "$N" --root "$F/cpu4" prio rcuo -p fifo -P 1 --dry-run
one_line_err "prio fifo, misplaced kthreads"
err_has "(made real-time while allowed there): CPUs 1-3 are unsafe for offload kthreads (1-3 offloaded)"
expect 0 "prio other for misplaced kthreads" -- "$N" --root "$F/cpu4" prio rcuo -p other --dry-run
printf 'cpus = 0-1\n' > "$T/pin01.conf"
expect 2 "apply cpus = 0-1 on offloaded 1-3" -- "$N" --root "$F/cpu4" apply --dry-run --config="$T/pin01.conf"
one_line_err "apply cpus = 0-1 on offloaded 1-3"
err_has "nocbctl: apply: $T/pin01.conf: cpus: CPU 1 is unsafe for offload kthreads (1 offloaded); pin to housekeeping CPUs, or --force"
# offload 1 with cpus = 0-1 would pin rcuop/1 onto the CPU it offloads
cp -a "$F/k6" "$T/k6p" && mkdir -p "$T/k6p/etc" && cp "$T/pin01.conf" "$T/k6p/etc/nocbctl.conf"
expect 2 "offload 1 with cpus = 0-1" -- "$N" --root "$T/k6p" offload 1 --dry-run
err_has "nocbctl: offload: $T/k6p/etc/nocbctl.conf: cpus: CPU 1 is unsafe for offload kthreads (1 offloaded)"
# nohz_full CPUs stay offloaded; an isolated cpuset partition is quiet too
echo 2-3 > "$T/k6p/sys/devices/system/cpu/nohz_full"
expect 2 "deoffload a nohz_full CPU" -- "$N" --root "$T/k6p" deoffload 2-3 --dry-run
one_line_err "deoffload a nohz_full CPU"
err_has "nocbctl: deoffload: CPUs 2-3 are nohz_full: de-offloaded, their own callbacks would keep their tick on; keep them offloaded, or --force"
expect 0 "deoffload a nohz_full CPU --force" -- "$N" --root "$T/k6p" deoffload 2-3 --dry-run --force
mkdir -p "$T/k6p/sys/fs/cgroup" && echo 1 > "$T/k6p/sys/fs/cgroup/cpuset.cpus.isolated"
expect 2 "pin onto an isolated partition's CPU" -- "$N" --root "$T/k6p" pin rcuo --cpus=0-1 --dry-run
err_has "(1 isolated)"
expect 0 "status with an isolated partition" -- "$N" --root "$T/k6p" status
grep -qx '  partition: 1' $O && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: status shows the partition"; cat $O; }

# Smaller edges: the error a user sees, and input that must not be
# half-taken.
expect 2 "no command: one plain line" -- "$N"
[ "$(cat $E)" = "nocbctl: no command (see nocbctl --help)" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: no command: $(cat $E)"; }
expect 2 "--root that does not exist" -- "$N" --root /nonexistent status
err_has "nocbctl: --root: /nonexistent: No such file or directory"
expect 2 "--root that is a file" -- "$N" --root "$C" status
err_has "nocbctl: --root: $C: not a directory"
expect 2 "offload with a newline inside the list" -- "$N" --root "$F/k6" offload $'1\n2' --dry-run --force
err_has "nocbctl: offload: '1\x0a2': a newline inside the list; the kernel reads only up to it"
expect 2 "pin with a newline inside the list" -- "$N" --root "$F/cpu4" pin rcuo --cpus=$'0\n1' --dry-run
expect 2 "bytes that are not UTF-8 come back escaped" -- "$N" --root "$F/k6" offload $'1\xff\x1b[31m'
err_has "nocbctl: offload: '1\xff\x1b[31m': unexpected '\xff' after 1"
expect 2 "a 20000-item list: the error is cut" -- "$N" --root "$F/k6" offload "$(seq -s, 1 20000)"
[ "$(wc -l <$E)" = 1 ] && [ "$(wc -c <$E)" -lt 5000 ] && grep -q 'more bytes)$' $E && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: long list error: $(wc -c <$E) bytes"; }
expect 2 "plan --json --format=grub conflict" -- "$N" --json --root "$F/plan4" plan --isolate=2-3 --format=grub
err_has "nocbctl: plan: --json and --format=grub conflict"
expect 0 "status on maxcpus3: CPU 3 pending, as booted" -- "$N" --root "$F/maxcpus3" status
! grep -q 'changed since' $O && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: maxcpus3 says changed since"; }

# hotplug-check with a read-only /run: a missing privilege (exit 4), as
# the man page says, and nothing changed (root: a mount namespace of its own)
mkdir -p "$T/rofx" && cp -a "$F/cpu4/." "$T/rofx/" && mkdir -p "$T/rofx/run"
expect 4 "hotplug-check, /run read-only" -- unshare --mount sh -c \
	"mount --bind '$T/rofx/run' '$T/rofx/run' && mount -o remount,ro,bind '$T/rofx/run' && exec '$N' --root '$T/rofx' hotplug-check --force"
err_has "nocbctl: hotplug-check: $T/rofx/run/nocbctl/hotplug-check.lock: Read-only file system"

echo "cli.sh: $pass passed, $fail failed"
[ "$fail" = 0 ]
