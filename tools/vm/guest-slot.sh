# Sourced by everything that starts a QEMU guest on this host
# (tools/vm/run-guest-test, bench/run, bench/mttcg-probe/run): two guest
# slots, one per host core, as flock(1) locks on fds 8 and 9, held until
# the sourcing shell and the guest it starts exit (a killed run frees them).
#   guest_slot one    wait for either free slot
#   guest_slot first  wait for either, queueing on slot 0 when both are busy
#                     (wins against "one"'s polling: benchmarks)
#   guest_slot both   wait for both (a guest that measures, or MTTCG)
# It sets guest_slots to the slots held ("0", "1" or "0 1").
# NOCB_SLOT_DIR moves the lock files (tests).
guest_slot() {
	local dir=${NOCB_SLOT_DIR:-/run/lock/nocb-qemu}
	mkdir -p "$dir" || return 1
	exec 8>"$dir/slot0" 9>"$dir/slot1" || return 1
	case "$1" in
	one)
		until { flock -n 8 && guest_slots=0; } || { flock -n 9 && guest_slots=1; }; do
			sleep 1
		done ;;
	first)
		{ flock -n 8 && guest_slots=0; } || { flock -n 9 && guest_slots=1; } ||
			{ flock 8 && guest_slots=0; } ;;
	both) flock 8 && flock 9 && guest_slots="0 1" ;;
	*) echo "guest_slot: one, first or both, not '$1'" >&2; return 2 ;;
	esac
}
