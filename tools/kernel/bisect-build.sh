#!/bin/bash
# Build the kernel at every step of kernel-patches/series (bisectability).
# Works in build/linux and build/kernel-obj, so each step recompiles only
# what its patch touches; the series branch is restored at the end.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$top/build/linux
obj=$top/build/kernel-obj
pdir=$top/kernel-patches

"$top/tools/kernel/build.sh"	# full series built and configured first
mapfile -t listed < <(grep -v -e '^#' -e '^[[:space:]]*$' "$pdir/series")
restore() { git -C "$src" checkout -q series; }
trap restore EXIT
export CCACHE_DIR=${CCACHE_DIR:-/var/cache/nocb/ccache} CCACHE_BASEDIR=$top CCACHE_NOHASHDIR=1
git -C "$src" checkout -q -B bisect base
i=0 bad=0
for p in "${listed[@]}"; do
	i=$((i + 1))
	git -C "$src" -c user.name=nocb -c user.email=nocb@localhost am -q "$pdir/$p"
	start=$(date +%s)
	if make -s -C "$src" O="$obj" -j"$(nproc)" CC="ccache gcc" bzImage modules \
		> "$top/build/bisect-$i.log" 2>&1; then
		echo "bisect-build: [$i/${#listed[@]}] $p: builds ($(( $(date +%s) - start ))s)"
	else
		echo "bisect-build: [$i/${#listed[@]}] $p: FAILS (build/bisect-$i.log)"
		bad=1
	fi
	if grep -q 'warning:' "$top/build/bisect-$i.log"; then
		echo "bisect-build:   warnings:"; grep 'warning:' "$top/build/bisect-$i.log" | sed 's/^/    /'
	fi
done
exit $bad
