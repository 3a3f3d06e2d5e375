#!/bin/bash
# Build the guest image with mkosi when its inputs changed (mkosi.conf,
# mkosi.extra/, the post-installation script, the staged nocbctl package),
# then stage the kernel beside it.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
mkdir -p build/image /var/cache/nocb/mkosi-apt

inputs_id=$( { sha256sum mkosi.conf tools/vm/image-postinst; find mkosi.extra build/stage -type f -print0 | sort -z | xargs -0 -r sha256sum;
	find mkosi.extra build/stage -type l -printf '%p -> %l\n' | sort; } | sha256sum | cut -c1-16)
if [ -f build/image/image.raw ] && [ "$(cat build/image/.inputs-id 2>/dev/null)" = "$inputs_id" ]; then
	echo "image: up to date" >&2
else
	echo "image: building with mkosi (log: build/image/mkosi.log)" >&2
	start=$(date +%s)
	# mkosi reuses its incremental cache (the installed packages) whatever
	# changed in mkosi.conf: -ff drops it when mkosi.conf, but for its
	# [Host] section (how to boot), is not the one the cache was made from.
	force=-f conf_id=$(awk '/^\[/ { host = ($0 == "[Host]") } !host' mkosi.conf | sha256sum | cut -c1-16)
	[ "$(cat build/image/.cache-id 2>/dev/null)" = "$conf_id" ] || force=-ff
	# QemuHeadless=yes (mkosi.conf) is for `mkosi qemu` only.
	if ! mkosi --qemu-headless=no $force build > build/image/mkosi.log 2>&1; then
		tail -30 build/image/mkosi.log >&2
		echo "image: mkosi build failed" >&2
		exit 1
	fi
	echo "$inputs_id" > build/image/.inputs-id
	echo "$conf_id" > build/image/.cache-id
	echo "image: built in $(( $(date +%s) - start ))s" >&2
fi
exec tools/vm/stage-kernel.sh
