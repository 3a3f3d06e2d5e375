#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3" smp=4 stages=2 timeout=480
#
# The kernel package of make kernel-deb, installed and booted as on a host
# (docs/admin-guide.md, "Install on a real host").  Two boots of one
# writable copy of the image (stages=2, tools/vm/run-guest-test):
#   stage 1, on the kernel of make kernel: dpkg -i the package of
#     build/KVER/kernel-deb/; its postinst has initramfs-tools make
#     /boot/initrd.img-VERSION; the package's /boot/vmlinuz-VERSION and
#     that initrd go to the host (NOCB_OUT/boot/), as a boot loader would
#     load them;
#   stage 2 boots exactly those two files and runs the smoke test.
source "$NOCB_SRC/tools/vm/guest-lib.sh"
source "$NOCB_SRC/units/tests/guest/common.bash"
export DEBIAN_FRONTEND=noninteractive
stage=$(sed -n 's/.*\bnocb\.stage=\([0-9]*\).*/\1/p' /proc/cmdline)
kdir=$nocb_kbuild/kernel-deb
shopt -s nullglob
debs=("$kdir"/linux-image-*_amd64.deb)
shopt -u nullglob
check_eq "one linux-image .deb in build/$(uname -r | cut -d. -f1,2)/kernel-deb (make kernel-deb)" 1 "${#debs[@]}" || finish
pkg=$(dpkg-deb -f "${debs[0]}" Package)
release=${pkg#linux-image-}
note "stage $stage: kernel $(uname -r), package $(basename "${debs[0]}")"
check "package named linux-image-<version>-nocb" grep -q -- '-nocb$' <<<"$release"

case $stage in
1)
	# man-db's index update is not under test and costs seconds here.
	rm -f /var/lib/man-db/auto-update
	check "no initrd.img-$release before the install" test ! -e "/boot/initrd.img-$release"
	cp "${debs[0]}" /tmp/ && deb=/tmp/$(basename "${debs[0]}")
	t=$SECONDS
	dpkg -i "$deb" > /tmp/dpkg.log 2>&1
	rc=$?
	note "dpkg -i: $((SECONDS - t)) s"
	sed 's/^/#   dpkg: /' /tmp/dpkg.log
	check_eq "dpkg -i $(basename "$deb"): exit 0" 0 "$rc"
	check_eq "dpkg: $pkg installed" "install ok installed" "$(dpkg-query -W -f='${Status}' "$pkg" 2>&1)"
	check_eq "dpkg printed no error or warning" "" "$(grep -iE 'error|warning|fail' /tmp/dpkg.log | paste -sd';' -)"
	check "update-initramfs ran from the package's postinst" \
		grep -qF "update-initramfs: Generating /boot/initrd.img-$release" /tmp/dpkg.log
	check "/boot/vmlinuz-$release from the package" dpkg -S "/boot/vmlinuz-$release"
	check "/boot/initrd.img-$release made" test -s "/boot/initrd.img-$release"
	check "/lib/modules/$release/modules.dep made (depmod)" test -s "/lib/modules/$release/modules.dep"
	check "the initramfs has initramfs-tools' init and scripts/local" \
		bash -c "lsinitramfs /boot/initrd.img-$release | grep -qx -e init -e scripts/local"
	mkdir -p "$NOCB_OUT/boot"
	check "vmlinuz and initrd.img copied to the host" bash -c \
		"cp /boot/vmlinuz-$release $NOCB_OUT/boot/vmlinuz && cp /boot/initrd.img-$release $NOCB_OUT/boot/initrd.img"
	sync
	;;
2)
	check_eq "running the package's kernel" "$release" "$(uname -r)"
	note "$(cat /proc/version)"
	ver=$(dpkg-deb -f "${debs[0]}" Version)
	check "its build number is the package's (#${ver##*-})" grep -q " #${ver##*-} " /proc/version
	check "booted with the package's initramfs (the kernel unpacked it)" \
		bash -c "dmesg | grep -q 'Freeing initrd memory'"
	check "initramfs-tools' init ran (it leaves /run/initramfs)" test -d /run/initramfs
	check_eq "dpkg: $pkg still installed (stage 1's disk)" "install ok installed" \
		"$(dpkg-query -W -f='${Status}' "$pkg" 2>&1)"
	note "system state: $(nocb_wait_boot 180)"
	out=$(bash "$NOCB_SRC/tools/vm/tests/smoke.sh" 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed 's/^/#   smoke: /'
	check_eq "the smoke test passes on the installed kernel" 0 "$rc"
	;;
*) fail "nocb.stage=1 or 2 on the command line (stages=2 in the header)" "got '$stage'" ;;
esac
note "uptime at verdict: $(cut -d' ' -f1 /proc/uptime)s"
finish
