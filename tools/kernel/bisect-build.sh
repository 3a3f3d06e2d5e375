#!/bin/bash
# Build the kernel at every step of kernel-patches/KVER/series
# (bisectability).  Works in build/KVER/linux and build/KVER/kernel-obj, so
# each step recompiles only what its patch touches; the series branch is
# restored at the end.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/kernel/env.sh"

"$top/tools/kernel/build.sh"	# full series built and configured first
mapfile -t listed < <(grep -v -e '^#' -e '^[[:space:]]*$' "$pdir/series")
restore() { git -C "$src" checkout -q series; }
trap restore EXIT
git -C "$src" checkout -q -B bisect base
i=0 bad=0
for p in "${listed[@]}"; do
	i=$((i + 1))
	git -C "$src" -c user.name=nocb -c user.email=nocb@localhost am -q "$pdir/$p"
	start=$(date +%s)
	if make -s -C "$src" O="$obj" -j"$(nproc)" CC="ccache gcc" bzImage modules \
		> "$kbuild/bisect-$i.log" 2>&1; then
		echo "bisect-build: [$i/${#listed[@]}] $p: builds ($(( $(date +%s) - start ))s)"
	else
		echo "bisect-build: [$i/${#listed[@]}] $p: FAILS (build/$kver/bisect-$i.log)"
		bad=1
	fi
	if grep -q 'warning:' "$kbuild/bisect-$i.log"; then
		echo "bisect-build:   warnings:"; grep 'warning:' "$kbuild/bisect-$i.log" | sed 's/^/    /'
	fi
done
exit $bad
