#!/bin/bash
# mkosi gives an image made from its incremental cache a new UUID with
# "tune2fs -U random".  The guest image's root file system, made with
# tools/vm/mke2fs.conf, must take it even when the file system was mounted
# a second or more after mkfs and never checked since: the case that
# failed a cold image build.  Debian's default settings must refuse it (or
# the case proves nothing here).  Runs as root on the host, no guest.
set -uo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tools/test-lib.sh"

# fs CONFIG: an ext4 as mkosi makes it, then a mount one minute after
# mkfs (s_mtime later than s_lastcheck), then mkosi's UUID change; 600M is
# mke2fs's "default" size class, as the 2G image.  Prints tune2fs's exit
# status and output.
fs() {
	local img=$tmp/fs.img last
	rm -f "$img"
	truncate -s 600M "$img"
	MKE2FS_CONFIG=$1 mkfs.ext4 -q -F -I 256 -L root "$img" || { echo "mkfs failed"; return; }
	last=$(dumpe2fs -h "$img" 2>/dev/null | sed -n 's/^Last checked: *//p')
	debugfs -w -R "ssv mtime @$(( $(date -d "$last" +%s) + 60 ))" "$img" 2>/dev/null
	tune2fs -U random "$img" </dev/null >"$tmp/out" 2>&1
	echo "rc=$? $(tr '\n' ' ' < "$tmp/out")"
}

r=$(fs "$top/tools/vm/mke2fs.conf")
case "$r" in
rc=0*) pass "image settings: tune2fs -U random after a late mount" ;;
*) fail "image settings: tune2fs -U random after a late mount: $r" ;;
esac
dumpe2fs -h "$tmp/fs.img" 2>/dev/null | grep -q '^Filesystem features:.*metadata_csum_seed' &&
	pass "image settings: metadata_csum_seed" || fail "image settings: no metadata_csum_seed"

r=$(fs /etc/mke2fs.conf)
case "$r" in
rc=1*e2fsck*) pass "Debian's default settings refuse the same (the case is real): ${r:0:60}..." ;;
*) fail "Debian's default settings: expected tune2fs to ask for e2fsck, got: $r" ;;
esac

finish
