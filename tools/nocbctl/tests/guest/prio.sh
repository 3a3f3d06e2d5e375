#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3" smp=4
# nocbctl prio rcuo --policy=fifo --priority=1: chrt -p shows SCHED_FIFO 1
# for every offload kthread; out-of-range input exits 2 and changes nothing.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
. "$NOCB_SRC/tools/nocbctl/tests/guest/common.sh"

pids=$(offload_pids)
check "offload kthreads exist" test -n "$pids"

out=$("$NOCBCTL" prio rcuo --policy=fifo --priority=1)
check_eq "prio rcuo --policy=fifo --priority=1 exits 0" 0 $?
printf '%s\n' "$out" | sed 's/^/#   /'
for p in $pids; do
	c=$(chrt -p "$p")
	check "$(comm_of "$p") (pid $p): chrt says SCHED_FIFO" \
		grep -q "scheduling policy: SCHED_FIFO" <<<"$c"
	check "$(comm_of "$p") (pid $p): chrt says priority 1" \
		grep -q "scheduling priority: 1$" <<<"$c"
done
out=$("$NOCBCTL" prio rcuo --policy=fifo --priority=1)
check_eq "second prio: every thread unchanged" "$(wc -w <<<"$pids")" \
	"$(grep -c ' unchanged (fifo:1)$' <<<"$out")"

check_rc "--priority=100 exits 2" 2 "$NOCBCTL" prio rcuo --policy=fifo --priority=100
check_rc "--priority=0 with fifo exits 2" 2 "$NOCBCTL" prio rcuo --policy=fifo --priority=0
check_rc "--nice with fifo exits 2" 2 "$NOCBCTL" prio rcuo --policy=fifo --priority=2 --nice=1
p1=$(head -1 <<<"$pids")
check "bad input changed nothing (chrt still priority 1)" \
	grep -q "scheduling priority: 1$" <<<"$(chrt -p "$p1")"

check "prio rcuop --policy=other --nice=-5" "$NOCBCTL" prio rcuop --policy=other --nice=-5
for p in $pids; do
	case $(comm_of "$p") in
	rcuop/*)
		check "$(comm_of "$p"): SCHED_OTHER" grep -q "SCHED_OTHER" <<<"$(chrt -p "$p")"
		check_eq "$(comm_of "$p"): nice -5" -5 "$(ps -o ni= -p "$p" | tr -d ' ')" ;;
	esac
done
finish
