#!/bin/bash
# Take Debian's own kernel (linux-image-amd64, installed in the image by
# mkosi.conf) and its initramfs out of the image, for the guest tests that
# boot a kernel without the nocb series (header "kernel=debian"):
#   IMAGE_DIR/stock/vmlinuz, IMAGE_DIR/stock/initrd.img, IMAGE_DIR/stock/release
# Read with debugfs from the root partition, nothing mounted; redone only
# when the image is newer than what was taken out.
# Usage: stock-kernel.sh [IMAGE]   (default build/image/image.raw)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
image=${1:-$top/build/image/image.raw}
dir=$(dirname "$image")/stock
die() { echo "stock-kernel: $*" >&2; exit 1; }
[ -f "$image" ] || die "$image missing (make image)"
mkdir -p "$dir"
# Two guest tests may start at once: one extracts, the other waits.
exec 7>"$dir/.lock"
flock 7
[ -f "$dir/initrd.img" ] && [ "$dir/initrd.img" -nt "$image" ] && exit 0
rm -f "$dir/vmlinuz" "$dir/initrd.img" "$dir/release"
start=$(sfdisk -d "$image" | awk -F'start=' 'NR > 1 && /start=/ { split($2, a, ","); print a[1] + 0; exit }')
[ -n "$start" ] || die "no partition in $image"
fs="$image?offset=$((start * 512))"
release=$(debugfs -R 'ls -p /boot' "$fs" 2>/dev/null | awk -F/ '$6 ~ /^vmlinuz-.*-amd64$/ { sub(/^vmlinuz-/, "", $6); print $6 }' | sort -V | tail -1)
[ -n "$release" ] || die "no /boot/vmlinuz-*-amd64 in $image (linux-image-amd64 not installed?)"
debugfs -R "dump /boot/vmlinuz-$release $dir/vmlinuz.new" "$fs" 2>/dev/null
debugfs -R "dump /boot/initrd.img-$release $dir/initrd.img.new" "$fs" 2>/dev/null
[ -s "$dir/vmlinuz.new" ] && [ -s "$dir/initrd.img.new" ] || die "could not read /boot/vmlinuz-$release and its initrd.img from $image"
mv "$dir/vmlinuz.new" "$dir/vmlinuz"
echo "$release" > "$dir/release"
mv "$dir/initrd.img.new" "$dir/initrd.img"
echo "stock-kernel: Debian's $release from $(realpath --relative-to="$top" "$image")" >&2
