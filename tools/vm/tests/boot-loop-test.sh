#!/bin/bash
# Host-side test of tools/vm/boot-loop with the KVER kernel (6.1): a boot that
# reaches the line passes; a boot that goes silent first (no root disk,
# panic=0: the kernel panics and waits for ever) is called hung, exits 1,
# and the monitor dump names where each vCPU was.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export KVER=${KVER:-6.1}
unset NOCB_FLAVOR NOCB_KERNEL NOCB_EXTRA_CMDLINE

. "$top/tools/test-lib.sh"
# ok DESCRIPTION EXPRESSION LOG: the log is shown when the expression is false.
ok() { if eval "$2"; then pass "$1"; else fail "$1"; sed 's/^/#   /' "$3"; fi; }

"$top/tools/vm/boot-loop" --count 1 --smp 2 --out "$out/good" > "$out/good.txt" 2>&1
rc=$?
ok "a boot that reaches the line: exit 0" '[ $rc = 0 ]' "$out/good.txt"
ok "... and is reported reached" 'grep -q "^boot 1: reached in" "$out/good.txt"' "$out/good.txt"

"$top/tools/vm/boot-loop" --count 1 --smp 2 --stall 5 --cmdline panic=0 \
	--until 'a line no kernel prints' --out "$out/hang" > "$out/hang.txt" 2>&1
rc=$?
ok "a boot that goes silent: exit 1" '[ $rc = 1 ]' "$out/hang.txt"
ok "... reported hung after the panic" 'grep -q "^boot 1: hung at console time .*Kernel panic" "$out/hang.txt"' "$out/hang.txt"
ok "... both vCPUs' RIPs named from vmlinux" \
	'[ "$(grep -cE "^  CPU#[01] [0-9a-f]{16} [a-z_][a-z0-9_.]*\+0x[0-9a-f]+ HLT=[01]$" "$out/hang.txt")" = 2 ]' "$out/hang.txt"
ok "... and each local APIC dumped" '[ "$(grep -c "^### info lapic" "$out/hang/boot-1/monitor.txt")" = 2 ]' "$out/hang.txt"

finish
