#!/bin/bash
# Build the nocbctl Debian package into build/deb/ and check it with lintian
# (no error, no warning allowed).  dpkg-buildpackage writes its outputs into
# the parent of the source folder, so a copy of the tree is built in
# build/deb/nocbctl-VERSION/ and the .deb, .changes and .buildinfo land in
# build/deb/; the clone itself is left as it was.  Nothing is rebuilt when no
# file that goes into the source changed since the last build.
#
#   tools/build-deb.sh     DEB_BUILD_OPTIONS=nocheck: without the unit tests
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=build/deb

"$top/tools/deps.sh" deb

nocheck=0
case " ${DEB_BUILD_OPTIONS:-} " in *" nocheck "*) nocheck=1 ;; esac
profile=()
[ $nocheck = 0 ] || profile=(-Pnocheck)

# The source: what git tracks or would track (not build/, results/, ...).
# The package is built from these; whether to rebuild, from PKG_INPUTS only.
PKG_INPUTS=(debian tools/nocbctl units docs/admin-guide.md)
files() {
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git ls-files -z --cached --others --exclude-standard "$@" |
			while IFS= read -r -d '' f; do [ -e "$f" ] || [ -L "$f" ] && printf '%s\0' "$f"; done
	else
		find "${@:-.}" \( -path ./build -o -path ./results -o -path ./.git \) -prune -o \
			\( -type f -o -type l \) -printf '%p\0' | sed -z 's|^\./||'
	fi
}
# Contents of the regular files; name, mode and type (and a link's target)
# of every entry.
id=$( { files "${PKG_INPUTS[@]}" | sort -z | while IFS= read -r -d '' f; do
		[ -L "$f" ] || printf '%s\0' "$f"; done | xargs -0 -r sha256sum
	files "${PKG_INPUTS[@]}" | sort -z | xargs -0 -r stat -c '%n %a %F %N'; } |
	sha256sum | cut -c1-16)

ver=$(dpkg-parsechangelog -S Version)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
deb=$out/nocbctl_${ver}_$arch.deb
# The stamp says whether the unit tests ran; a tested build also serves a
# nocheck request.
if [ -f "$deb" ] && read -r sid stested < "$out/.inputs-id" 2>/dev/null &&
	[ "$sid" = "$id" ] && { [ "$stested" = tested ] || [ $nocheck = 1 ]; }; then
	echo "deb: $deb up to date" >&2
	exit 0
fi

if ! dpkg-checkbuilddeps "${profile[@]}" >/dev/null 2>&1; then
	echo "deb: installing the Build-Depends of debian/control" >&2
	[ "$(id -u)" = 0 ] || { echo "deb: need root for apt-get build-dep" >&2; exit 4; }
	apt-get update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -q "${profile[@]}" ./ >/dev/null
fi

rm -rf "$out"
src=$out/nocbctl-$ver
mkdir -p "$src"
files | tar --null -T - -cf - | tar -xf - -C "$src"

echo "deb: dpkg-buildpackage -us -uc -b${profile[*]:+ ${profile[*]}} (log: $out/build.log)" >&2
start=$(date +%s)
if ! (cd "$src" && dpkg-buildpackage -us -uc -b "${profile[@]}") > "$out/build.log" 2>&1; then
	tail -30 "$out/build.log" >&2
	echo "deb: dpkg-buildpackage failed" >&2
	exit 1
fi
echo "deb: built $deb in $(( $(date +%s) - start ))s" >&2

changes=$out/nocbctl_${ver}_$arch.changes
# -I and --show-overrides: the log shows every tag, also the accepted ones.
if ! lintian -I --show-overrides --fail-on error,warning "$changes" > "$out/lintian.log" 2>&1; then
	cat "$out/lintian.log" >&2
	echo "deb: lintian found errors or warnings in $changes" >&2
	exit 1
fi
sed 's/^/deb: lintian: /' "$out/lintian.log" >&2
echo "deb: lintian: no error, no warning" >&2
echo "$id $([ $nocheck = 1 ] && echo nocheck || echo tested)" > "$out/.inputs-id"
