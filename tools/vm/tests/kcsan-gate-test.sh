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
. "$top/tools/test-lib.sh"

guest=tools/vm/tests/kcsan-canary.guest
NOCB_FLAVOR=kcsan "$top/tools/vm/run-guest-test" --smp 2 --timeout 300 "$top/$guest" 2>&1 | tee "$tmp/log"
rc=${PIPESTATUS[0]}
res=$top/$(sed -n 's/^  results: //p' "$tmp/log")
[ $rc = 1 ] && pass "the harness failed the canary's run" || fail "the harness failed the canary's run" "exit $rc, expected 1"
[ -f "$res/verdict" ] || { fail "the run left a verdict" "no $res/verdict"; finish; }
verdict=$(cat "$res/verdict")
[[ $verdict == "FAIL $guest "*"s kernel badness on the console" ]] &&
	pass "for kernel badness alone" || fail "for kernel badness alone" "$verdict"
grep -qx '[0-9]* passed, 0 failed' "$res/guest.log" 2>/dev/null &&
	pass "the guest's checks passed (KCSAN on, the race reported)" || fail "the guest's checks passed"
grep -qx 'race_canary_thread' "$res/kcsan-scope" &&
	pass "the scope holds the test module's functions" || fail "the scope holds the test module's functions"
# The report the guest waited for, as its script spells it.
race=$(sed -n "s/^race='\(.*\)'\$/\1/p" "$top/$guest")
[ -n "$race" ] && grep -qE "^  console: .*$race" "$tmp/log" &&
	pass "the badness named is the canary's race" || fail "the badness named is the canary's race"
# The same console without the canary's functions in the scope is clean:
# the scope, not the report's mere presence, failed the run.
grep -v '^race_canary_' "$res/kcsan-scope" > "$tmp/scope"
"$top/tools/vm/kernel-badness" --kcsan-scope "$tmp/scope" "$res/console.log" >/dev/null
rc=$?
[ $rc = 1 ] && pass "out of scope, the same console passes" || fail "out of scope, the same console passes" "kernel-badness exit $rc"
finish
