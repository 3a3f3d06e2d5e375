#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cmd_deps.sh OBJ... - no verb calls another: fail when one of the objects
# of src/cmd_*.c (build/cmd/cmd_<verb>.o, from the Makefile's check) uses
# a symbol that another of them defines, naming the file, the symbol and
# the file it comes from. What two verbs share belongs in a module of its
# own (src/act.c, src/conf_apply.c, src/nocbs.c, src/plan.c, ...).
set -eu -o pipefail

export LC_ALL=C	# one collation for sort and join
NM=${NM:-nm}
[ $# -gt 0 ] || { echo "usage: cmd_deps.sh build/cmd/cmd_<verb>.o..." >&2; exit 2; }
defs=$(mktemp) uses=$(mktemp)
trap 'rm -f "$defs" "$uses"' EXIT

for o in "$@"; do
	src=src/$(basename "$o" .o).c
	"$NM" --defined-only --extern-only "$o" |
		awk -v f="$src" 'NF == 3 { print $3, f }'
done | sort >"$defs"
for o in "$@"; do
	src=src/$(basename "$o" .o).c
	"$NM" --undefined-only "$o" | awk -v f="$src" '{ print $NF, f }'
done | sort >"$uses"

# SYMBOL USER DEFINER, for a symbol one cmd_*.c uses and another defines
bad=$(join "$uses" "$defs" |
	awk '$2 != $3 { print "cmd-deps: " $2 " uses " $1 ", defined in " $3 }' | sort)
if [ -n "$bad" ]; then
	echo "$bad" >&2
	echo "cmd-deps: FAIL: a verb calls another; move what they share out of src/cmd_*.c into a module of its own" >&2
	exit 1
fi
echo "cmd-deps: $# src/cmd_*.c, none uses a symbol another defines"
