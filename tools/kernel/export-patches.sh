#!/bin/bash
# Regenerate kernel-patches/KVER/ from branch "nocb" of build/KVER/linux:
# one git-format-patch file per commit on base..nocb, a cover letter made
# from cover-letter.txt (first line: subject), and the series file.
# Patches are never hand-edited: change the branch, then export.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/kernel/env.sh"
out=$pdir
branch=${BRANCH:-nocb}

git -C "$src" rev-parse -q --verify "refs/heads/$branch" >/dev/null ||
	{ echo "export-patches: no branch $branch in build/$kver/linux (git -C build/$kver/linux checkout -b $branch series)" >&2; exit 1; }
n=$(git -C "$src" rev-list --count "base..$branch")
[ "$n" -gt 0 ] || { echo "export-patches: $branch has no commits over base" >&2; exit 1; }

git -C "$src" config "branch.$branch.description" "$(cat "$out/cover-letter.txt")"
rm -f "$out"/*.patch
git -C "$src" format-patch -q --zero-commit --no-signature --cover-letter \
	--cover-from-description=subject --subject-prefix="PATCH $kver" \
	-o "$out" "base..$branch"
( cd "$out" && ls [0-9][0-9][0-9][0-9]-*.patch | grep -v '^0000-cover-letter' ) > "$out/series"
echo "export-patches: wrote $n patch(es) and a cover letter to kernel-patches/$kver/" >&2
