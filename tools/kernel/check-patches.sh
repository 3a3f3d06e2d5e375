#!/bin/bash
# Check kernel-patches/KVER/ (KVER=6.1 by default): the series lists every
# patch, each applies in order with no fuzz to the linux-source-KVER apt
# installs today, and scripts/checkpatch.pl --strict reports nothing.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/kernel/env.sh"
bad=0
err() { echo "check-patches: $*" >&2; bad=1; }

# The pristine tree of today's linux-source (extracted if missing or stale).
PREPARE_ONLY=1 "$top/tools/kernel/build.sh" || exit 1

mapfile -t listed < <(grep -v -e '^#' -e '^[[:space:]]*$' "$pdir/series" || true)
mapfile -t present < <(cd "$pdir" && ls *.patch 2>/dev/null | grep -v '^0000-cover-letter' || true)
for p in "${present[@]}"; do
	printf '%s\n' "${listed[@]}" | grep -qxF "$p" || err "$p is not listed in series"
done

# Apply to a scratch index of tag "base": git apply allows no fuzz.
idx=$(mktemp)
trap 'rm -f "$idx"' EXIT
GIT_INDEX_FILE=$idx git -C "$src" read-tree base
i=0
for p in "${listed[@]}"; do
	i=$((i + 1))
	[ -f "$pdir/$p" ] || { err "series lists $p, which does not exist"; continue; }
	if ! GIT_INDEX_FILE=$idx git -C "$src" apply --cached "$pdir/$p"; then
		err "patch $i ($p) does not apply"
	fi
done

for p in "${listed[@]}" ; do
	[ -f "$pdir/$p" ] || continue
	res=$(cd "$src" && perl scripts/checkpatch.pl --strict --color=never "$pdir/$p" 2>&1)
	grep -q '^total: 0 errors, 0 warnings, 0 checks' <<<"$res" ||
		{ printf '%s\n' "$res" >&2; err "$p is not checkpatch --strict clean"; }
	grep -q '^Signed-off-by: ' "$pdir/$p" || err "$p has no Signed-off-by"
done

[ $bad -eq 0 ] && echo "check-patches: $kver: ${#listed[@]} patch(es): series complete, apply cleanly, checkpatch --strict clean" >&2
exit $bad
