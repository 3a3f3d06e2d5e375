# Sourced by the scripts that boot the project's guest kernel
# (tools/vm/run-guest-test, tools/vm/boot-loop, bench/mttcg-probe/run):
# which kernel, and QEMU's -cpu for a test's cpu=.  Needs $top (the clone).
# KVER=6.12 picks that series' kernel (default 6.1), NOCB_FLAVOR=NAME its
# flavor built by make kernel FLAVOR=NAME, NOCB_KERNEL any other bzImage.
guest_kver=${KVER:-6.1}
guest_flavor=${NOCB_FLAVOR:-}
guest_kernel=${NOCB_KERNEL:-$top/build/$guest_kver/kernel-obj${guest_flavor:+-$guest_flavor}/arch/x86/boot/bzImage}

# guest_cpu_arg intel|max|MODEL: "intel" is QEMU's max CPU with Intel's
# vendor string, which a hot-removable CPU 0 needs in a 6.1 guest.
guest_cpu_arg() {
	case "$1" in
	intel) echo "max,vendor=GenuineIntel" ;;
	*) echo "$1" ;;
	esac
}
