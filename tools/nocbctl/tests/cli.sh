#!/bin/bash
# cli.sh - end-to-end checks of the nocbctl binary (the sanitized build)
# against the fixture trees: exit codes, one-line errors, JSON validity.
# Usage: NOCBCTL=path/to/nocbctl FIXTURES=tests/fixtures bash tests/cli.sh
set -u
N=${NOCBCTL:?}
F=${FIXTURES:?}
pass=0 fail=0
export ASAN_OPTIONS=detect_leaks=1

# expect RC DESCRIPTION -- command...
expect() {
	local want=$1 desc=$2; shift 3
	"$@" >/tmp/nocbctl-cli.out 2>/tmp/nocbctl-cli.err
	local rc=$?
	if [ "$rc" = "$want" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $desc: exit $rc, expected $want"
		sed 's/^/  | /' /tmp/nocbctl-cli.out /tmp/nocbctl-cli.err
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
	if [ "$(wc -l </tmp/nocbctl-cli.err)" = 1 ] &&
	   grep -q '^nocbctl: ' /tmp/nocbctl-cli.err &&
	   [ ! -s /tmp/nocbctl-cli.out ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); echo "FAIL: $desc: not a one-line error"
		cat /tmp/nocbctl-cli.err
	fi
}

expect 0 "--version" -- "$N" --version
grep -q '^nocbctl [0-9]' /tmp/nocbctl-cli.out && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: version text"; }
expect 0 "--help" -- "$N" --help
for v in status stats pin prio apply hotplug-check; do
	expect 0 "$v --help" -- "$N" "$v" --help
	grep -q "^ nocbctl $v" /tmp/nocbctl-cli.out && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: $v --help usage line"; }
done
expect 2 "no command" -- "$N"
expect 2 "unknown command" -- "$N" frobnicate
expect 2 "unknown global option" -- "$N" --bogus status
expect 2 "--root without DIR" -- "$N" --root

for fx in cpu1 cpu4 cpu4-offline cpu64 norcudata nonci malformed vanished; do
	expect 0 "status $fx" -- "$N" --root "$F/$fx" status
	json_ok "status --json $fx" "$N" --json --root "$F/$fx" status
done
json_ok "stats --json" "$N" --json --root "$F/cpu4" stats
json_ok "stats --json --watch" "$N" --json --root "$F/cpu4" stats --watch 0.01 --count 2
json_ok "pin --json --dry-run" "$N" --json --root "$F/cpu4" pin rcuo --cpus=0 --dry-run
json_ok "prio --json --dry-run" "$N" --json --root "$F/cpu4" prio rcuo --policy=fifo --priority=1 --dry-run
expect 3 "stats without rcudata" -- "$N" --root "$F/norcudata" stats
expect 1 "stats malformed rcudata" -- "$N" --root "$F/malformed" stats

for bad in --cpus=99 --cpus=1- --cpus= --cpus=0-3:0; do
	expect 2 "pin $bad" -- "$N" --root "$F/cpu4" pin rcuo "$bad" --dry-run
	one_line_err "pin $bad"
done
expect 2 "prio priority 100" -- "$N" --root "$F/cpu4" prio rcuo --policy=fifo --priority=100 --dry-run
one_line_err "prio priority 100"
expect 0 "pin --dry-run" -- "$N" --root "$F/cpu4" pin rcuo --cpus=0 --dry-run
grep -c 'would change (' /tmp/nocbctl-cli.out | grep -qx 6 && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: 6 would change"; }
# a fixture root never leads to syscalls on real pids
expect 2 "pin with fixture root needs --dry-run" -- "$N" --root "$F/cpu4" pin rcuo --cpus=0
one_line_err "pin with fixture root"

echo "cli.sh: $pass passed, $fail failed"
[ "$fail" = 0 ]
