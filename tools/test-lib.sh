# Checks for the project's test scripts, on the host and in the guest
# (tools/vm/guest-lib.sh adds the guest's helpers).  Every check prints
# one "ok"/"FAIL" line; finish prints the closing "N passed, N failed"
# line and exits with the status the runner reports.

[ -z "${nocb_test_lib:-}" ] || return 0
nocb_test_lib=1
nocb_passed=0
nocb_failed=0

note() { echo "# $*"; }

pass() { nocb_passed=$((nocb_passed + 1)); echo "ok   - $1"; }
fail() { nocb_failed=$((nocb_failed + 1)); echo "FAIL - $1${2:+: $2}"; }

# check DESCRIPTION COMMAND [ARGS...]: passes when COMMAND exits 0.
check() {
	local desc=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc -eq 0 ]; then
		pass "$desc"
	else
		fail "$desc" "exit $rc"
		[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/#     /' | head -20
	fi
	return $rc
}

# check_rc DESCRIPTION EXPECTED_RC COMMAND [ARGS...]: passes when COMMAND
# exits with EXPECTED_RC.
check_rc() {
	local desc=$1 want=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" = "$want" ]; then
		pass "$desc"
	else
		fail "$desc" "exit $rc, expected $want"
		[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/#     /' | head -20
	fi
	[ "$rc" = "$want" ]
}

# check_eq DESCRIPTION EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1" "expected '$2', got '$3'"
	fi
	[ "$2" = "$3" ]
}

finish() {
	echo "$nocb_passed passed, $nocb_failed failed"
	[ "$nocb_failed" -eq 0 ] && [ "$nocb_passed" -gt 0 ]
	exit $?
}
