#!/bin/bash
# generator.sh - nocbctl-generator on sample configurations (host side,
# run by `make check`): which CPUAffinity= drop-in it writes, if any.
# Usage: bash tests/generator.sh [GENERATOR]
set -u
gen=${1:-$(dirname "$0")/../nocbctl-generator}
t=$(mktemp -d) && trap 'rm -rf "$t"' EXIT
. "$(dirname "$0")/../../tools/test-lib.sh"
dropin=nocbctl-metrics.service.d/50-housekeeping-cpus.conf

# case DESC WANT CONFIG: WANT is the CPUAffinity= list, "-" for no drop-in
case_() {
	local desc=$1 want=$2 got rc
	rm -rf "$t/out" && mkdir "$t/out"
	printf '%b' "$3" > "$t/conf"
	NOCBCTL_CONF=$t/conf "$gen" "$t/out" "$t/early" "$t/late" 2>"$t/err"
	rc=$?
	# the stats collector gets the very same drop-in
	if [ -f "$t/out/$dropin" ] && ! cmp -s "$t/out/$dropin" "$t/out/${dropin/metrics/stats}"; then
		got="stats drop-in differs"
	elif [ -f "$t/out/$dropin" ]; then
		# the reset line first, then exactly one list
		got=$(sed -n '/^\[Service\]$/,$p' "$t/out/$dropin" | tr '\n' ' ')
		[ "$got" = "[Service] CPUAffinity= CPUAffinity=$want " ] && got=$want
	else
		got=-
		# no drop-in always says why, but a config without the file says nothing
		[ -s "$t/err" ] || got="- (silently)"
	fi
	if [ $rc = 0 ] && [ "$got" = "$want" ]; then
		pass "generator: $desc"
	else
		fail "generator: $desc" "exit $rc, got '$got', want '$want'"
		sed 's/^/#   /' "$t/err"
	fi
}

case_ "default config" 0 'cpus = 0\npolicy = other\n'
case_ "list with a comment" 0-1,4 '# hk\ncpus = 0-1,4   # housekeeping\n'
case_ "blanks and tabs" 2 '\t cpus\t=\t2 \n'
case_ "per-kind key is not cpus" 1 'rcuop.cpus = 0-3\ncpus=1\nrcuog.cpus = 2\n'
case_ "stride: kernel-only syntax" - 'cpus = 0-7:1/2\n'
case_ "all" - 'cpus = all\n'
case_ "N" - 'cpus = 0,N\n'
case_ "two cpus lines" - 'cpus = 0\ncpus = 1\n'
case_ "no cpus line" - 'policy = fifo\npriority = 1\n'
case_ "empty value" - 'cpus =\n'
case_ "garbage" - 'cpus = 0;reboot\n'
case_ "an empty cpus line counts as none" 3 'cpus =\ncpus = 3\n'
case_ "a key that only starts with cpus" 5 'cpusx = 1\ncpus = 5\n'
case_ "empty item" - 'cpus = 0,,1\n'
case_ "leading comma" - 'cpus = ,1\n'
case_ "open range" - 'cpus = 1-\n'
case_ "two dashes" - 'cpus = 1-2-3\n'
case_ "blank inside the list" - 'cpus = 0, 1\n'
case_ "a glob is not expanded" - 'cpus = *\n'
case_ "no newline at the end" 7 'cpus = 7'
# no configuration at all: nothing written, nothing said
rm -rf "$t/out" && mkdir "$t/out"
if NOCBCTL_CONF=$t/none "$gen" "$t/out" 2>"$t/err" && [ -z "$(ls -A "$t/out")" ] && [ ! -s "$t/err" ]; then
	pass "generator: no config file: nothing written, nothing said"
else
	fail "generator: no config file" "wrote or said something"
fi
finish
