#!/bin/bash
# Host-side test of tools/run-tests' scheduling, on a stub project: make
# (kernel, kernel-deb, image) and tools/vm/run-guest-test are stubs that
# log events.  Each kernel's package runs beside the next kernel's compile,
# no guest boots a kernel before its package is done, a failed package
# fails the run and stops only its kernel's guests, a failed compile runs
# no test, and the guests run longest first (timeout=) within a kernel.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/test-lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

mkdir -p "$w/tools/vm" "$w/t"
cp "$top/tools/run-tests" "$top/tools/timed" "$w/tools/"
cp "$top/tools/vm/guest-header.sh" "$w/tools/vm/"
# The stubs append to $EV: "<what> <kver> <event>" lines.
cat > "$w/Makefile" <<'MK'
kernel:
	@echo "kernel $(KVER) start" >> $(EV); sleep 1
	@[ "$(KVER)" != "$(FAIL_KERNEL)" ] || { echo "kernel $(KVER) failed" >> $(EV); false; }
	@echo "kernel $(KVER) end" >> $(EV)
kernel-deb:
	@echo "deb $(KVER) start" >> $(EV); sleep 1.5
	@[ "$(KVER)" != "$(FAIL_DEB)" ] || { echo "FAIL - packaging $(KVER)"; false; }
	@echo "deb $(KVER) end" >> $(EV)
image:
	@echo "image - end" >> $(EV)
MK
cat > "$w/tools/vm/run-guest-test" <<'SH'
#!/bin/bash
# Refuses to boot a kernel whose package is not done yet.
grep -qx "deb $KVER end" "$EV" || { echo "guest $KVER $1 early" >> "$EV"; exit 1; }
echo "guest $KVER $1" >> "$EV"
[ "$(basename "$1" .sh)" != "${FAIL_TEST:-}" ] || { echo "FAIL - $1"; exit 1; }
SH
chmod +x "$w/tools/vm/run-guest-test"
printf '#!/bin/bash\n# nocb-guest: smp=4\n' > "$w/t/short.sh"
printf '#!/bin/bash\n# nocb-guest: smp=4 timeout=600\n' > "$w/t/long.sh"
printf '#!/bin/bash\n# nocb-guest: timeout=300 smp=2\n' > "$w/t/mid.sh"

# run NAME [VAR=VALUE...]: run-tests --build --guest on both kernels; its
# output in $w/NAME.out, events in $w/NAME.ev, exit status in $rc.
run() {
	local name=$1
	shift
	export EV=$w/$name.ev
	: > "$EV"
	# Not the outer run's step file (make test runs this test).
	(cd "$w" && env -u NOCB_TIMES -u NOCB_FLAVOR -u NOCB_GUEST_LANES \
		FAIL_KERNEL= FAIL_DEB= FAIL_TEST= "$@" NOCB_KVERS="6.1 6.12" NOCB_GUEST_STAGGER=0 \
		tools/run-tests --build --guest t/short.sh t/long.sh t/mid.sh) > "$w/$name.out" 2>&1
	rc=$?
}
# line EVENT: its line number in the events (0: absent)
line() { grep -nx -- "$1" "$EV" | head -1 | cut -d: -f1 | grep . || echo 0; }
ok() { if eval "$2"; then pass "$1"; else fail "$1"; sed 's/^/#   /' "$EV"; fi; }

run good
ok "all pass: exit 0" '[ $rc = 0 ]'
ok "... and says 6 passed, 0 failed" 'tail -1 "$w/good.out" | grep -qx "6 passed, 0 failed"'
ok "6.1's package and 6.12's compile overlap" \
	'[ "$(line "deb 6.1 start")" -gt 0 ] && [ "$(line "deb 6.1 start")" -lt "$(line "kernel 6.12 end")" ] &&
	 [ "$(line "kernel 6.12 start")" -lt "$(line "deb 6.1 end")" ]'
ok "no guest boots before its kernel's package is done" '! grep -q early "$EV"'
# Every guest of both kernels, in the order they must start.
all_guests="guest 6.1 t/long.sh guest 6.1 t/mid.sh guest 6.1 t/short.sh guest 6.12 t/long.sh guest 6.12 t/mid.sh guest 6.12 t/short.sh "
ok "every guest ran once" \
	'[ "$(grep "^guest" "$EV" | sort | tr "\n" " ")" = "$all_guests" ]'
# The order of starts, in one lane: with two, the first two guests start
# together and either may log first.
run order NOCB_GUEST_LANES=1
ok "6.1's guests first, longest first: long, mid, short" \
	'[ "$(grep "^guest" "$EV" | tr "\n" " ")" = "$all_guests" ]'

run deb FAIL_DEB=6.12
ok "a failed package of 6.12: exit 1" '[ $rc = 1 ]'
ok "... names it" 'grep -qx "failed: make kernel-deb KVER=6.12" "$w/deb.out"'
ok "... 6.1's guests ran, none of 6.12's" \
	'[ "$(grep -c "^guest 6.1 " "$EV")" = 3 ] && ! grep -q "^guest 6.12" "$EV"'
ok "... and says 3 passed, 1 failed" 'tail -1 "$w/deb.out" | grep -qx "3 passed, 1 failed"'

run kernel FAIL_KERNEL=6.12
ok "a failed compile of 6.12: exit 1, no guest ran" '[ $rc = 1 ] && ! grep -q "^guest" "$EV"'
ok "... and says so" 'grep -q "the build failed; no test ran" "$w/kernel.out"'

run test FAIL_TEST=mid
ok "a failed guest test: exit 1" '[ $rc = 1 ]'
ok "... named for each kernel" \
	'grep -qx "failed: guest (6.1): t/mid.sh" "$w/test.out" && grep -qx "failed: guest (6.12): t/mid.sh" "$w/test.out"'
finish
