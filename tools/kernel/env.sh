# Sourced by the kernel scripts: where one kernel series lives.
# KVER names a folder of kernel-patches/ (a Debian linux-source-KVER
# package); FLAVOR=NAME adds kernel-patches/NAME.config and its own
# object folder.  Needs $top (the clone) set by the caller.
kver=${KVER:-6.1}
flavor=${FLAVOR:-}
pdir=$top/kernel-patches/$kver
kbuild=$top/build/$kver
src=$kbuild/linux
obj=$kbuild/kernel-obj${flavor:+-$flavor}
version_file=$kbuild/kernel${flavor:+-$flavor}.version
srcpkg=linux-source-$kver
tarball=/usr/src/$srcpkg.tar.xz
[ -f "$pdir/series" ] || { echo "kernel: no kernel-patches/$kver/series (KVER=$kver)" >&2; exit 2; }
export CCACHE_DIR=${CCACHE_DIR:-/var/cache/nocb/ccache}
# Paths under the clone are rewritten relative, so a CI clone in another
# folder hits the cache filled by a developer's tree.
export CCACHE_BASEDIR=$top CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=time_macros
# Depend mode: a miss hashes the compiler's own -MMD output instead of
# running the preprocessor a second time, so a cold build (a new machine,
# CI) pays little for the cache; hits work as in direct mode.  6.1's
# fs/ext4, kernel/sched and kernel/rcu, -j1, empty cache (2026-12-05, 5711aa4):
# 82 s of CPU without ccache, 121 s in default mode, 94 s in depend mode.
export CCACHE_DEPEND=1
