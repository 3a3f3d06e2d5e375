#!/bin/bash
# Package the kernel `make kernel` builds as Debian packages with the
# kernel's own bindeb-pkg: the same tree, config and object folder
# (build/KVER/kernel-obj, CONFIG_LOCALVERSION "-nocb"), so only the
# packaging runs after make kernel.  Output:
#   build/KVER/kernel-deb/linux-image-<release>_<version>_amd64.deb
# (and linux-headers, linux-libc-dev).  KVER and FLAVOR as build.sh.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/kernel/env.sh"
jobs=${JOBS:-$(nproc)}
out=$kbuild/kernel-deb${flavor:+-$flavor}

"$top/tools/kernel/build.sh"

# The same make variables and environment as build.sh's build, or Kbuild
# sees a changed command line and recompiles everything.
export KBUILD_BUILD_USER=nocb KBUILD_BUILD_HOST=nocb
export KBUILD_BUILD_TIMESTAMP="$(date -u -R -r "$tarball")"
export LOCALVERSION=
release=$(cat "$obj/include/config/kernel.release")
# bindeb-pkg relinks vmlinux with a new build number, so the bzImage it
# leaves is the stamp: the same bzImage and the packages there, nothing
# to do.
stamp=$out/.bzimage-sha256
if [ -f "$stamp" ] && ls "$out"/linux-image-*.deb >/dev/null 2>&1 &&
   [ "$(sha256sum < "$obj/arch/x86/boot/bzImage")" = "$(cat "$stamp")" ]; then
	echo "kernel: packages of $release up to date" >&2
	exit 0
fi
echo "kernel: packaging $release with bindeb-pkg" >&2
# bindeb-pkg writes its packages beside the object folder, build/KVER/.
rm -f "$kbuild"/linux-{image,headers,libc-dev}[-_]*.{deb,buildinfo,changes}
# gzip, not the default xz: the packages are compressed in seconds.
make -s -C "$src" O="$obj" -j"$jobs" CC="ccache gcc" KDEB_COMPRESS=gzip bindeb-pkg >"$kbuild/kernel-deb.log" 2>&1 ||
	{ tail -30 "$kbuild/kernel-deb.log" >&2; echo "kernel: bindeb-pkg failed (log: build/$kver/kernel-deb.log)" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out"
mv "$kbuild"/linux-{image,headers,libc-dev}[-_]*.deb "$out/"
rm -f "$kbuild"/linux-*.{buildinfo,changes}
sha256sum < "$obj/arch/x86/boot/bzImage" > "$stamp"
for d in "$out"/*.deb; do
	echo "kernel: $(realpath --relative-to="$top" "$d")" >&2
done
