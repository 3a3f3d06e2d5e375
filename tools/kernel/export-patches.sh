#!/bin/bash
# Regenerate kernel-patches/ from branch "nocb" of build/linux: one
# git-format-patch file per commit on base..nocb, a cover letter made from
# kernel-patches/cover-letter.txt (first line: subject), and the series file.
# Patches are never hand-edited: change the branch, then export.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$top/build/linux
out=$top/kernel-patches
branch=${BRANCH:-nocb}

git -C "$src" rev-parse -q --verify "refs/heads/$branch" >/dev/null ||
	{ echo "export-patches: no branch $branch in build/linux (git -C build/linux checkout -b $branch series)" >&2; exit 1; }
n=$(git -C "$src" rev-list --count "base..$branch")
[ "$n" -gt 0 ] || { echo "export-patches: $branch has no commits over base" >&2; exit 1; }

git -C "$src" config "branch.$branch.description" "$(cat "$out/cover-letter.txt")"
rm -f "$out"/*.patch
git -C "$src" format-patch -q --zero-commit --no-signature --cover-letter \
	--cover-from-description=subject --subject-prefix="PATCH 6.1" \
	-o "$out" "base..$branch"
( cd "$out" && ls [0-9][0-9][0-9][0-9]-*.patch | grep -v '^0000-cover-letter' ) > "$out/series"
echo "export-patches: wrote $n patch(es) and a cover letter to kernel-patches/" >&2
