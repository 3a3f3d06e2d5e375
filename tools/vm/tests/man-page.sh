#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3" smp=4 kernels=first
#
# In the booted image, `man nocbctl` renders the page the nocbctl package
# installed (groff's device files are there), and the package's other
# documents and the bash completion are where the units and bash look.
source "$NOCB_SRC/tools/vm/guest-lib.sh"

page=$(man -w nocbctl 2>&1)
check_eq "man -w nocbctl" /usr/share/man/man8/nocbctl.8.gz "$page"
check_eq "the page belongs to the nocbctl package" "nocbctl: $page" "$(dpkg -S "$page" 2>&1)"

MANPAGER=cat MANWIDTH=80 man nocbctl >/tmp/man.out 2>/tmp/man.err
check_eq "man nocbctl exit status" 0 "$?"
check_eq "man nocbctl: nothing on stderr" "" "$(head -c 500 /tmp/man.err)"
note "rendered: $(wc -l < /tmp/man.out) lines"
check "rendered header NOCBCTL(8)" grep -q '^NOCBCTL(8) .* NOCBCTL(8)$' /tmp/man.out
check "rendered NAME line" grep -Eq '^ +nocbctl [-‐] inspect and tune RCU callback offloading' /tmp/man.out
for s in NAME SYNOPSIS DESCRIPTION; do
	check "rendered section $s" grep -qx "$s" /tmp/man.out
done
check "no roff request left in the output" bash -c "! grep -Eq '^\.(TH|SH|B|TP) ' /tmp/man.out"
check "more than a screenful rendered" test "$(wc -l < /tmp/man.out)" -gt 60

check "admin guide in /usr/share/doc/nocbctl (the units' Documentation=)" \
	test -s /usr/share/doc/nocbctl/admin-guide.md
check "bash completion for nocbctl installed" \
	test -s /usr/share/bash-completion/completions/nocbctl
check_eq "bash completes 'nocbctl st'" "stats status" "$(bash -c '
	source /usr/share/bash-completion/bash_completion
	source /usr/share/bash-completion/completions/nocbctl
	COMP_WORDS=(nocbctl st) COMP_CWORD=1 COMP_LINE="nocbctl st" COMP_POINT=10
	_nocbctl nocbctl st nocbctl
	printf "%s\n" "${COMPREPLY[@]}" | sort | paste -sd" " -' 2>&1)"
finish
