#!/bin/bash
# Host test of tools/vm/kernel-badness: each report header a debug kernel
# prints makes it fail the run; a clean boot log passes.
set -uo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
kb=$top/tools/vm/kernel-badness
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tools/test-lib.sh"
clean='[    0.000000] Linux version 6.1.192+ (nocb@nocb)
[    0.310000] rcu: 	Offload RCU callbacks from CPUs: 1-3.
[    2.100000] smpboot: CPU 2 is now offline
[    3.000000] NOCB: CPU 0 is the last online CPU without offloaded callbacks, refusing to offline it'
expect() { # WANT(0 found|1 none) NAME LINE [KERNEL-BADNESS OPTION...]
	printf '%s\n%s\n' "$clean" "$3" > "$tmp/log"
	check_rc "$2" "$1" "$kb" "${@:4}" "$tmp/log"
}
expect 1 "clean boot log" ''
expect 0 "WARN" '[    5.1] WARNING: CPU: 1 PID: 12 at kernel/rcu/tree.c:4420 rcutree_migrate_callbacks+0x1/0x2'
expect 0 "oops" '[    5.1] Oops: 0000 [#1] PREEMPT SMP'
expect 0 "RCU stall" '[   30.1] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:'
expect 0 "kthread starved" '[   30.1] rcu: rcu_preempt kthread starved for 2503 jiffies!'
expect 0 "lockdep circular" '[    5.1] WARNING: possible circular locking dependency detected'
expect 0 "lockdep circular (no WARNING prefix)" '[    5.1] possible circular locking dependency detected'
expect 0 "suspicious RCU usage" '[    5.1] WARNING: suspicious RCU usage'
expect 0 "suspicious RCU usage (bare)" '[    5.1] suspicious RCU usage'
expect 0 "inconsistent lock state" '[    5.1] inconsistent lock state'
expect 0 "sleep in atomic" '[    5.1] BUG: sleeping function called from invalid context at kernel/locking/mutex.c:580'
expect 0 "sleep in atomic (bare)" '[    5.1] sleeping function called from invalid context at kernel/locking/mutex.c:580'
expect 0 "KASAN" '[    5.1] BUG: KASAN: slab-use-after-free in rcu_do_batch+0x1/0x2'
expect 0 "KCSAN" '[    5.1] BUG: KCSAN: data-race in rcu_do_batch / rcudata_seq_show'
expect 0 "UBSAN" '[    5.1] UBSAN: shift-out-of-bounds in kernel/rcu/tree.c:1:2'
expect 0 "hung task" '[  130.1] INFO: task kworker/0:1:12 blocked for more than 120 seconds.'
# --kcsan-scope: a data race counts when either function is in scope.
printf '%s\n' rcu_do_batch rcudata_seq_show _cpu_down cb_tick > "$tmp/scope"
expect 1 "KCSAN race outside the scope" '[    5.1] BUG: KCSAN: data-race in tick_irq_enter / tick_nohz_idle_got_tick' --kcsan-scope "$tmp/scope"
expect 0 "KCSAN race in scope" '[    5.1] BUG: KCSAN: data-race in rcu_do_batch / rcudata_seq_show' --kcsan-scope "$tmp/scope"
expect 0 "one function in scope is enough" '[    5.1] BUG: KCSAN: data-race in tick_irq_enter / rcu_do_batch' --kcsan-scope "$tmp/scope"
expect 0 "a gcc clone of an in-scope function, CR" $'[    5.1] BUG: KCSAN: data-race in _cpu_down.constprop.0 / hrtimer_active\r' --kcsan-scope "$tmp/scope"
expect 0 "a WARN beside a race outside the scope" $'[    5.1] BUG: KCSAN: data-race in tick_irq_enter / tick_nohz_idle_got_tick\n[    6.1] WARNING: CPU: 1 PID: 1 at kernel/rcu/tree.c:1 x' --kcsan-scope "$tmp/scope"
expect 0 "a module's function in scope" $'[    5.1] BUG: KCSAN: data-race in cb_tick [cbload] / cb_tick [cbload]\r' --kcsan-scope "$tmp/scope"
expect 1 "a module's functions outside the scope" '[    5.1] BUG: KCSAN: data-race in foo_read [foo] / tick_irq_enter' --kcsan-scope "$tmp/scope"
expect 0 "a KCSAN assertion is never out of scope" '[    5.1] BUG: KCSAN: assert: race in tick_irq_enter / tick_nohz_idle_got_tick' --kcsan-scope "$tmp/scope"
: > "$tmp/noscope"
check_rc "empty scope file" 2 "$kb" --kcsan-scope "$tmp/noscope" "$tmp/log"
printf '' > "$tmp/empty"
check_rc "empty log" 1 "$kb" "$tmp/empty"
check_rc "missing log" 2 "$kb" "$tmp/missing"
finish
