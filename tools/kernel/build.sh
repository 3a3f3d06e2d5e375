#!/bin/bash
# Build one patched guest kernel: extract Debian's linux-source-KVER into
# build/KVER/linux (a git repo whose tag "base" is the pristine tree), apply
# kernel-patches/KVER/series on branch "series", configure, and build out of
# tree in build/KVER/kernel-obj with ccache.  Every step is skipped when its
# inputs are unchanged, so a no-change rebuild compiles nothing.
# KVER=6.1 (default) or another folder of kernel-patches/.  The config is
# allnoconfig with kernel-patches/common.config and the series' own
# nocb.config forced on; FLAVOR=NAME merges kernel-patches/NAME.config
# last and builds in build/KVER/kernel-obj-NAME (same tree, same ccache).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/kernel/env.sh"
fragments=("$top/kernel-patches/common.config" "$pdir/nocb.config")
if [ -n "$flavor" ]; then
	[ -f "$top/kernel-patches/$flavor.config" ] || { echo "kernel: no kernel-patches/$flavor.config for FLAVOR=$flavor" >&2; exit 2; }
	fragments+=("$top/kernel-patches/$flavor.config")
fi
jobs=${JOBS:-$(nproc)}

log() { echo "kernel: $*" >&2; }
die() { echo "kernel: $*" >&2; exit 1; }

mkdir -p "$CCACHE_DIR"
ccache --max-size=8G >/dev/null

srcver=$(dpkg-query -W -f='${Version}' "$srcpkg")

# 1. Pristine tree, once per linux-source version.
if [ "$(cat "$src/.nocb-source-version" 2>/dev/null)" != "$srcver" ]; then
	log "extracting $srcpkg $srcver"
	rm -rf "$src" "$obj"
	mkdir -p "$kbuild"
	tar -C "$kbuild" -xf "$tarball"
	mv "$kbuild/$srcpkg" "$src"
	git -C "$src" init -q -b pristine
	git -C "$src" config gc.auto 0
	git -C "$src" add -A -f  # Debian's .gitignore ignores the top level
	# Fixed identity and dates: the same tarball always gives the same
	# base commit, so exported patches do not churn.
	GIT_AUTHOR_DATE="$(date -u -R -r "$tarball")" GIT_COMMITTER_DATE="$(date -u -R -r "$tarball")" \
		git -C "$src" -c user.name=linux-source -c user.email=linux-source@debian.invalid \
		commit -q -m "$srcpkg $srcver (Debian)"
	git -C "$src" tag -f base >/dev/null
	echo "$srcver" > "$src/.git/nocb-source-version"
	echo "$srcver" > "$src/.nocb-source-version"
	git -C "$src" update-index --assume-unchanged .nocb-source-version 2>/dev/null || true
	echo "/.nocb-source-version" >> "$src/.git/info/exclude"
fi

# check-patches needs only the pristine tree.
[ -z "${PREPARE_ONLY:-}" ] || exit 0

# 2. Apply the series when it changed: in a scratch worktree from base,
# then the tree switches from the old series commit to the new one, so
# git rewrites only the files whose content changed and make recompiles
# only what they touch (a patch to include/linux/rcupdate.h rebuilds most
# of the kernel; re-exporting it unchanged must not).
series_list() { grep -v -e '^#' -e '^[[:space:]]*$' "$pdir/series" || true; }
series_id=$(cd "$pdir" && { cat series; series_list | xargs -r cat; } | sha256sum | cut -c1-16)
if [ "$(cat "$src/.git/nocb-series-id" 2>/dev/null)" != "$series_id" ]; then
	if [ -n "$(git -C "$src" status --porcelain)" ]; then
		die "build/$kver/linux has uncommitted changes; commit them on a branch (make export-patches) or discard them"
	fi
	scratch=$kbuild/series-apply
	git -C "$src" worktree remove --force "$scratch" 2>/dev/null || rm -rf "$scratch"
	git -C "$src" worktree prune
	git -C "$src" worktree add -q --detach "$scratch" base
	n=0
	for p in $(series_list); do
		n=$((n + 1))
		[ -f "$pdir/$p" ] || { git -C "$src" worktree remove --force "$scratch"; die "series lists $p but kernel-patches/$kver/$p does not exist"; }
		if ! git -C "$scratch" -c user.name=nocb -c user.email=nocb@localhost \
			am -q --committer-date-is-author-date "$pdir/$p" >&2; then
			git -C "$scratch" am --abort || true
			git -C "$src" worktree remove --force "$scratch"
			rm -f "$src/.git/nocb-series-id"
			die "patch $n ($p) does not apply to $srcpkg $srcver"
		fi
	done
	new=$(git -C "$scratch" rev-parse HEAD)
	git -C "$src" worktree remove --force "$scratch"
	git -C "$src" checkout -q -B series "$new"
	log "applied $n patch(es) from kernel-patches/$kver/series"
	echo "$series_id" > "$src/.git/nocb-series-id"
fi

# 3. Configure when the fragment or the tree changed.
mkdir -p "$obj"
cfg_id=$( { sha256sum "${fragments[@]}"; echo "$series_id"; } | sha256sum | cut -c1-16)
if [ "$(cat "$obj/.nocb-config-id" 2>/dev/null)" != "$cfg_id" ] || [ ! -f "$obj/.config" ]; then
	log "configuring (allnoconfig + ${fragments[*]##*/})"
	# The fragments merged (a later line overrides an earlier one) are
	# forced on an allnoconfig: nothing is built that no line asks for.
	(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "${fragments[@]}" >/dev/null)
	mv "$obj/.config" "$obj/nocb.allconfig"
	make -s -C "$src" O="$obj" KCONFIG_ALLCONFIG="$obj/nocb.allconfig" allnoconfig >/dev/null
	# Say so when a fragment line did not stick (a dependency is missing).
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=n) sym=${line%%=*}; grep -q "^$sym=" "$obj/.config" && log "warning: $line did not stick" ;;
		CONFIG_*=*) grep -qxF -- "$line" "$obj/.config" || log "warning: $line did not stick" ;;
		"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *}; grep -q "^$sym=" "$obj/.config" && log "warning: $sym stays enabled" ;;
		esac
	done < <(cat "${fragments[@]}" | tac | awk '{ s = $0; sub(/^# /, "", s); sub(/[= ].*/, "", s) }
		!(s in seen) { seen[s]; print }')  # the last setting of each symbol counts
	echo "$cfg_id" > "$obj/.nocb-config-id"
fi

# 4. Build, unless this exact tree and config were built already: a clean
# checkout at the same commit with the same config has nothing to compile,
# and this skips Kbuild's walk of the whole tree (~15-30 s here).
built_id="$cfg_id $(git -C "$src" rev-parse HEAD)"
if [ "$(cat "$obj/.nocb-built-id" 2>/dev/null)" = "$built_id" ] && [ -f "$obj/arch/x86/boot/bzImage" ] &&
	[ -z "$(git -C "$src" status --porcelain --untracked-files=no)" ]; then
	log "up to date ($(tr '\n' ';' < "$version_file"))"
	exit 0
fi
rm -f "$obj/.nocb-built-id"

# 5. Build.  Fixed build user/host/timestamp keep objects (and ccache hits)
# independent of who builds when.
export KBUILD_BUILD_USER=nocb KBUILD_BUILD_HOST=nocb
export KBUILD_BUILD_TIMESTAMP="$(date -u -R -r "$tarball")"
# LOCALVERSION set and empty: no "+" for the git tree after the release
# (6.1.192-nocb, not 6.1.192-nocb+), the name of its package too.
export LOCALVERSION=
# On a host whose transparent huge pages are "madvise", cc1's heap gets
# them only when asked: tools/kernel/thp-advise.c asks, for this make.
preload=
if grep -q '\[madvise\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then
	preload=$top/build/thp-advise.so
	if [ ! "$preload" -nt "$top/tools/kernel/thp-advise.c" ]; then
		gcc -std=gnu11 -O2 -Wall -Wextra -Werror -shared -fPIC -o "$preload.$$" \
			"$top/tools/kernel/thp-advise.c" && mv "$preload.$$" "$preload" ||
			{ rm -f "$preload.$$"; die "cannot build tools/kernel/thp-advise.c"; }
	fi
fi
log "building bzImage and modules with $jobs job(s)${preload:+ (huge pages for the compiler: thp-advise.so)}"
LD_PRELOAD=${preload}${LD_PRELOAD:+${preload:+:}$LD_PRELOAD} \
	make -s -C "$src" O="$obj" -j"$jobs" CC="ccache gcc" bzImage modules
{
	echo "$srcpkg $srcver"
	echo "series $(git -C "$src" rev-parse --short HEAD) ($(git -C "$src" rev-list --count base..HEAD) patch(es))"
	echo "kernelrelease $(make -s -C "$src" O="$obj" kernelrelease)"
} > "$version_file"
echo "$built_id" > "$obj/.nocb-built-id"
log "$(tr '\n' ';' < "$version_file")"
