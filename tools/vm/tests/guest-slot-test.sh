#!/bin/bash
# Host-side test of tools/vm/guest-slot.sh: concurrent holders never share
# a slot, never more than two run at once, and "both" runs alone.  Each
# holder claims its slots with a marker file created with noclobber, which
# fails if another holder has the slot: the check is the exclusion itself,
# not timing.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
export NOCB_SLOT_DIR
NOCB_SLOT_DIR=$(mktemp -d)
trap 'rm -rf "$NOCB_SLOT_DIR"' EXIT
log=$NOCB_SLOT_DIR/log

holder() { # MODE NAME
	(
		. "$top/tools/vm/guest-slot.sh"
		guest_slot "$1" || { echo "$2 error" >> "$log"; exit 1; }
		set -C
		for s in $guest_slots; do
			: > "$NOCB_SLOT_DIR/inuse$s" 2>/dev/null || echo "$2 shared slot $s" >> "$log"
		done
		running=$(ls "$NOCB_SLOT_DIR" | grep -c '^inuse')
		echo "$2 $1 slots=[$guest_slots] running=$running" >> "$log"
		sleep 0.3
		for s in $guest_slots; do rm -f "$NOCB_SLOT_DIR/inuse$s"; done
	)
}

pids=()
for i in 1 2 3 4 5 6; do holder one "one$i" & pids+=($!); done
holder both both1 & pids+=($!)
holder first first1 & pids+=($!)
holder first first2 & pids+=($!)
for p in "${pids[@]}"; do wait "$p"; done

. "$top/tools/test-lib.sh"
# ok DESCRIPTION EXPRESSION: the log is shown when the expression is false.
ok() { if eval "$2"; then pass "$1"; else fail "$1"; sed 's/^/#   /' "$log"; fi; }
ok "all 9 holders ran" '[ "$(grep -c " slots=" "$log")" = 9 ]'
ok "no slot was ever shared" '! grep -q shared "$log"'
ok "no error" '! grep -q error "$log"'
ok "never more than two at once" '! grep -qE "running=([3-9]|[0-9]{2,})" "$log"'
ok "both held slots 0 and 1, alone" 'grep -q "^both1 both slots=\[0 1\] running=2$" "$log"'
ok "one and first held one slot each" '[ "$(grep -cE "^(one|first)[0-9] [a-z]+ slots=\[[01]\] " "$log")" = 8 ]'
finish
