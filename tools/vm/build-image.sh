#!/bin/bash
# Build the guest image with mkosi when its inputs changed (mkosi.conf,
# mkosi.extra/, the post-installation script, the staged nocbctl package),
# then stage the kernel beside it.
#
#   tools/vm/build-image.sh            build/image/image.raw
#   tools/vm/build-image.sh VARIANT    build/image-VARIANT/image.raw: the same
#                                      mkosi.conf plus the variant's packages
# Variants (never part of the default image):
#   peers   Debian's tuned and tuna, for bench/peers (tuned.service enabled
#           by its package)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
variant=${1:-}
case $variant in
'') dir=build/image extra=() ;;
peers) dir=build/image-peers extra=(tuned tuna) ;;
*) echo "build-image: unknown variant '$variant' (peers)" >&2; exit 2 ;;
esac
mkdir -p $dir /var/cache/nocb/mkosi-apt
# A variant names its packages and output on mkosi's command line, so
# mkosi.conf stays the one description of the image; its incremental
# cache lives beside its own output.
margs=()
[ -z "$variant" ] || margs=(--output-dir "$dir" --output "$dir/image.raw" ${extra[@]/#/--package=})

inputs_id=$( { sha256sum mkosi.conf tools/vm/image-postinst tools/vm/mke2fs.conf; find mkosi.extra build/stage -type f -print0 | sort -z | xargs -0 -r sha256sum;
	find mkosi.extra build/stage -type l -printf '%p -> %l\n' | sort; [ -z "$variant" ] || echo "${margs[*]}"; } | sha256sum | cut -c1-16)
if [ -f $dir/image.raw ] && [ "$(cat $dir/.inputs-id 2>/dev/null)" = "$inputs_id" ]; then
	echo "image${variant:+ $variant}: up to date" >&2
else
	echo "image${variant:+ $variant}: building with mkosi (log: $dir/mkosi.log)" >&2
	start=$(date +%s)
	# mkosi reuses its incremental cache (the installed packages) whatever
	# changed in mkosi.conf: -ff drops it when mkosi.conf, but for its
	# [Host] section (how to boot), is not the one the cache was made from.
	force=-f conf_id=$( { awk '/^\[/ { host = ($0 == "[Host]") } !host' mkosi.conf; cat tools/vm/mke2fs.conf; [ -z "$variant" ] || echo "${margs[*]}"; } | sha256sum | cut -c1-16)
	[ "$(cat $dir/.cache-id 2>/dev/null)" = "$conf_id" ] || force=-ff
	# QemuHeadless=yes (mkosi.conf) is for `mkosi qemu` only.  The root
	# file system's features: tools/vm/mke2fs.conf says why.
	if ! MKE2FS_CONFIG=$top/tools/vm/mke2fs.conf mkosi --qemu-headless=no "${margs[@]}" $force build > $dir/mkosi.log 2>&1; then
		tail -30 $dir/mkosi.log >&2
		echo "image${variant:+ $variant}: mkosi build failed" >&2
		exit 1
	fi
	echo "$inputs_id" > $dir/.inputs-id
	echo "$conf_id" > $dir/.cache-id
	echo "image${variant:+ $variant}: built in $(( $(date +%s) - start ))s" >&2
fi
# A variant is booted with NOCB_IMAGE= and the kernel run-guest-test picks.
# Without a built kernel (make image alone, or a flavor tier) there is
# nothing to stage yet: make qemu stages it before booting.
[ -n "$variant" ] || [ ! -f "build/${KVER:-6.1}/kernel-obj/arch/x86/boot/bzImage" ] ||
	exec tools/vm/stage-kernel.sh
