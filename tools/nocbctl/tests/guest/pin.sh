#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3" smp=4
# nocbctl pin rcuo --cpus=0 moves every rcuog/rcuop kthread to CPU 0, as
# /proc/PID/status shows; a second run changes nothing; bad lists exit 2
# and change nothing.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
. "$NOCB_SRC/tools/nocbctl/tests/guest/common.sh"

pids=$(offload_pids)
check "offload kthreads exist" test -n "$pids"
snapshot() { for p in $pids; do echo "$p $(allowed_of "$p")"; done; }
before=$(snapshot)
note "before: $(tr '\n' ' ' <<<"$before")"

for bad in --cpus=99 --cpus=1- --cpus= --cpus=0-3:0; do
	err=$("$NOCBCTL" pin rcuo "$bad" 2>&1 >/dev/null)
	check_eq "pin rcuo $bad exits 2" 2 $?
	check_eq "pin rcuo $bad: one-line error" 1 "$(grep -c '^nocbctl: pin: ' <<<"$err")"
done
check_eq "bad lists changed nothing" "$before" "$(snapshot)"

check "pin --dry-run" "$NOCBCTL" pin rcuo --cpus=0 --dry-run
check_eq "--dry-run changed nothing" "$before" "$(snapshot)"

out=$("$NOCBCTL" pin rcuo --cpus=0)
check_eq "pin rcuo --cpus=0 exits 0" 0 $?
printf '%s\n' "$out" | sed 's/^/#   /'
for p in $pids; do
	check_eq "$(comm_of "$p") (pid $p) Cpus_allowed_list" 0 "$(allowed_of "$p")"
done

out=$("$NOCBCTL" pin rcuo --cpus=0)
check_eq "second pin exits 0" 0 $?
check_eq "second pin: every thread unchanged" "$(wc -w <<<"$pids")" \
	"$(grep -c ' unchanged (0)$' <<<"$out")"
check "second pin: nothing changed" bash -c '! grep -q " changed (" ' <<<"$out"

# CPU 1 is offloaded: the placement rule refuses, and changes nothing
err=$("$NOCBCTL" pin rcuog --cpus=0-1 2>&1 >/dev/null)
check_eq "pin rcuog --cpus=0-1 (CPU 1 offloaded) exits 2" 2 $?
check "the refusal names CPU 1 and why" \
	grep -qx 'nocbctl: pin: --cpus=0-1: CPU 1 is unsafe for offload kthreads (1 offloaded); pin to housekeeping CPUs, or --force' <<<"$err"
for p in $pids; do
	check_eq "refused: $(comm_of "$p") still 0" 0 "$(allowed_of "$p")"
done
j=$("$NOCBCTL" --json pin rcuog --cpus=0-1 --force 2>/dev/null)
check_eq "pin rcuog --cpus=0-1 --force exits 0" 0 $?
check "--json pin parses" json_ok <<<"$j"
for p in $pids; do
	case $(comm_of "$p") in
	rcuog/*) check_eq "$(comm_of "$p") now 0-1" 0-1 "$(allowed_of "$p")" ;;
	rcuop/*) check_eq "$(comm_of "$p") still 0" 0 "$(allowed_of "$p")" ;;
	esac
done
st=$("$NOCBCTL" status)
check "status: no kthread may run on a CPU it offloads" \
	bash -c '! grep -q "may run on CPU"' <<<"$st"
finish
