#!/bin/bash
# The KCSAN gate of tools/vm/run-guest-test, in a real guest: a data race
# in the project's own code (the kcsancanary test module, loaded by
# kcsan-canary.guest) fails the run, and only because its functions are in
# the scope.  Needs the KCSAN kernel of KVER (make kernel FLAVOR=kcsan,
# default 6.1); make test-kcsan runs it on each series.
set -uo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   - $1"; }
no() { failed=$((failed + 1)); echo "FAIL - $1${2:+: $2}"; }

guest=tools/vm/tests/kcsan-canary.guest
NOCB_FLAVOR=kcsan "$top/tools/vm/run-guest-test" --smp 2 --timeout 300 "$top/$guest" 2>&1 | tee "$tmp/log"
rc=${PIPESTATUS[0]}
res=$top/$(sed -n 's/^  results: //p' "$tmp/log")
[ $rc = 1 ] && ok "the harness failed the canary's run" || no "the harness failed the canary's run" "exit $rc, expected 1"
[ -f "$res/verdict" ] || { no "the run left a verdict" "no $res/verdict"; echo "$passed passed, $failed failed"; exit 1; }
verdict=$(cat "$res/verdict")
[[ $verdict == "FAIL $guest "*"s kernel badness on the console" ]] &&
	ok "for kernel badness alone" || no "for kernel badness alone" "$verdict"
grep -qx '[0-9]* passed, 0 failed' "$res/guest.log" 2>/dev/null &&
	ok "the guest's checks passed (KCSAN on, the race reported)" || no "the guest's checks passed"
grep -qx 'race_canary_thread' "$res/kcsan-scope" &&
	ok "the scope holds the test module's functions" || no "the scope holds the test module's functions"
grep -qE '^  console: .*data-race in race_canary_thread( \[kcsancanary\])? / race_canary_thread' "$tmp/log" &&
	ok "the badness named is the canary's race" || no "the badness named is the canary's race"
# The same console without the canary's functions in the scope is clean:
# the scope, not the report's mere presence, failed the run.
grep -v '^race_canary_' "$res/kcsan-scope" > "$tmp/scope"
"$top/tools/vm/kernel-badness" --kcsan-scope "$tmp/scope" "$res/console.log" >/dev/null
rc=$?
[ $rc = 1 ] && ok "out of scope, the same console passes" || no "out of scope, the same console passes" "kernel-badness exit $rc"
echo "$passed passed, $failed failed"
[ $failed = 0 ]
