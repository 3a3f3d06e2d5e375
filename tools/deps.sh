#!/bin/bash
# Install the Debian packages a make target needs, only when one is missing.
# Usage: tools/deps.sh GROUP|linux-source-KVER...
#   (groups: kernel image qemu tools test deb bench; linux-source-KVER: that package)
set -euo pipefail

declare -A pkgs=(
	[kernel]="build-essential bc bison flex libelf-dev libssl-dev cpio kmod xz-utils ccache rsync git python3 perl"
	[image]="mkosi debootstrap systemd-container e2fsprogs dosfstools fdisk zstd cpio"
	[qemu]="qemu-system-x86 qemu-utils ovmf coreutils"
	[tools]="build-essential pkg-config libcmocka-dev clang libclang-rt-14-dev cppcheck bash-completion man-db groff-base"
	[test]="systemd python3 gnuplot-nox linux-source-6.1 prometheus"
	[deb]="dpkg-dev debhelper lintian build-essential"
	[bench]="valgrind gnuplot-nox python3"
)

want=()
for group in "$@"; do
	case "$group" in linux-source-[0-9]*) pkgs[$group]=$group ;; esac
	[ -n "${pkgs[$group]+x}" ] || { echo "deps.sh: unknown group '$group'" >&2; exit 2; }
	for p in ${pkgs[$group]}; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || want+=("$p")
	done
done
[ ${#want[@]} -eq 0 ] && exit 0

echo "deps.sh: installing ${want[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
	echo "deps.sh: need root to apt-get install: ${want[*]}" >&2
	exit 4
fi
export DEBIAN_FRONTEND=noninteractive
# prometheus is wanted for promtool only: its server must not start now
# (policy-rc.d 101 tells the maintainer scripts so) nor at the next boot.
guard=
if [[ " ${want[*]} " == *" prometheus "* ]] && [ ! -e /usr/sbin/policy-rc.d ]; then
	guard=/usr/sbin/policy-rc.d
	printf '#!/bin/sh\nexit 101\n' > "$guard" && chmod 0755 "$guard"
	trap 'rm -f "$guard"' EXIT
fi
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends "${want[@]}" >/dev/null
if [[ " ${want[*]} " == *" prometheus "* ]]; then
	deb-systemd-helper disable prometheus.service >/dev/null 2>&1 || true
fi
