#!/bin/bash
# man-refs.sh - every Documentation=man:NAME(SECTION) of the given unit
# files must name a page of this repository: a .1 or .8 file under TOOLS
# whose .TH line has that name and section. systemd-analyze verify runs
# with --man=no (the page is not installed on a build host), so a wrong
# section would otherwise pass unnoticed.
# Usage: bash tests/man-refs.sh TOOLS UNIT...
set -u
tools=${1:?usage: man-refs.sh TOOLS UNIT...}
shift
# "name section" of every page, the name lower-cased as man(1) finds it
have=$(find "$tools" -name build -prune -o -type f -name '*.[18]' -print |
	while read -r p; do
		awk '$1 == ".TH" { gsub(/"/, ""); print tolower($2), $3; exit }' "$p"
	done)
n=0 fail=0
for u; do
	for ref in $(sed -n 's/^Documentation=//p' "$u"); do
		case $ref in
		man:*'('*')') ;;
		man:*) echo "$u: $ref: not man:NAME(SECTION)"; fail=$((fail + 1)); continue ;;
		*) continue ;;
		esac
		name=${ref#man:}
		name=${name%%(*}
		sec=${ref##*(}
		sec=${sec%)}
		n=$((n + 1))
		if ! grep -qxF "${name,,} $sec" <<<"$have"; then
			echo "$u: Documentation=$ref: no page with .TH ${name^^} $sec under $tools"
			fail=$((fail + 1))
		fi
	done
done
[ $n -gt 0 ] || { echo "no Documentation=man: reference in $*"; fail=$((fail + 1)); }
echo "man-refs.sh: $n references, $fail failed"
[ $fail = 0 ]
