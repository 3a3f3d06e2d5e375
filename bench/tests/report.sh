#!/bin/bash
# bench/tests/report.sh: bench/report against the raw output of one real
# repetition (fixture-tcg-r1: tcg, 2 boots, 11 measurements; cyclictest's
# empty histogram rows dropped to keep it small).  Expected values are read
# from the raw files here, independently of bench/report's parsers.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
fx=$top/bench/tests/fixture-tcg-r1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tools/test-lib.sh"

cp -r "$fx" "$tmp/r"
out=$(python3 "$top/bench/report" "$tmp/r" 2>&1)
check "report runs: $out" test $? -eq 0
check "counts: $out" grep -q "11 measurements, 2 boots" <<<"$out"
check "report.md and summary.json written" test -s "$tmp/r/report.md" -a -s "$tmp/r/summary.json"
check "noise.png is a PNG" grep -q PNG <(head -c 8 "$tmp/r/noise.png" 2>/dev/null)
# the report groups digits with U+202F; drop it to match plain numbers
sed 's/\xe2\x80\xaf//g' "$tmp/r/report.md" > "$tmp/report.txt"

# osnoise: noise per second of runtime, from the raw `rtla osnoise top` line
m=$fx/boots/tcg-offloaded-r1/m/B-10000-r1
want_noise=$(awk '$1 == "1" { printf "%.3f", $4 / $3 * 1e6 }' "$m/osnoise.txt")
want_enq=$(grep -o 'enqueue_ns_avg=[0-9]*' "$m/cbload.after" | cut -d= -f2)
row() { # CFG RATE KEY
	python3 - "$tmp/r/summary.json" "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = [r for r in d["rows"] if r["cfg"] == sys.argv[2] and r["rate"] == int(sys.argv[3])]
v = r[0][sys.argv[4]] if len(r) == 1 else None
print("%.3f" % v if isinstance(v, float) else v)
PY
}
check "B 10k noise = osnoise Noise/Runtime ($want_noise)" test "$(row B 10000 noise_us_per_s)" = "$want_noise"
check "B 10k enqueue ns = cbload's ($want_enq)" test "$(row B 10000 enqueue_ns)" = "$want_enq"
# offloaded CPU: nothing invoked by softirq, nci keeps pace; normal: the reverse
check "B 10k ci of CPU 1 is 0" test "$(row B 10000 ci1_per_s)" = 0.000
check "A 10k nci of CPU 1 is 0" test "$(row A 10000 nci1_per_s)" = 0.000
nci=$(row B 10000 nci1_per_s) enq=$(row B 10000 enq_per_s)
check "B 10k nci rate within 5 % of enqueue rate ($nci vs $enq)" \
	awk -v a="$nci" -v b="$enq" 'BEGIN { exit !(a >= 0.95 * b && a <= 1.05 * b) }'
# cyclictest: A at 100k/s has overflows past the 10 ms histogram -> ">9999"
ov=$(sed -n 's/^# Histogram Overflows: 0*//p' "$fx/boots/tcg-normal-r1/m/A-100000-r1/cyclictest.txt")
check "A 100k has histogram overflows in the raw file ($ov)" test "${ov:-0}" -gt 0
check "A 100k p99 reported beyond the histogram" grep -qE '^\| A \| 100000 \|.*\| >9999 \|' "$tmp/report.txt"
# goals: 10k/s sustained (ci 98.5 % of enqueue), 1M/s not (drops)
check "10k/s: A sustains" grep -qE '^\| 10000 \|([^|]*\|){5} yes \|' "$tmp/report.txt"
check "1M/s: A does not sustain" grep -qE '^\| 1000000 \|([^|]*\|){5} no \(' "$tmp/report.txt"

# a boot without a verdict is listed as such, not dropped
cp -r "$fx" "$tmp/nv" && rm "$tmp/nv/boots/tcg-normal-r1/verdict"
python3 "$top/bench/report" "$tmp/nv" >/dev/null 2>&1
check "missing verdict reported" grep -q 'tcg-normal-r1`: (no verdict)' "$tmp/nv/report.md"
# not a results folder: exit 2, one line, nothing written
err=$(python3 "$top/bench/report" "$tmp/none" 2>&1)
rc=$?
check "bad folder: exit 2 ($rc)" test $rc -eq 2
check "bad folder: one-line error ($err)" test "$(wc -l <<<"$err")" -eq 1
check "bad folder: nothing written" test ! -e "$tmp/none"

# two kernels in one run: the same boots as 6.1 and 6.12 (BENCH_KERNEL),
# with 6.12's A noise at 10k/s doubled, so its B/A noise is half of 6.1's
mkdir -p "$tmp/k/boots" && cp "$fx/host-info.txt" "$tmp/k/"
for k in 6.1 6.12; do
	for b in normal offloaded; do
		cp -r "$fx/boots/tcg-$b-r1" "$tmp/k/boots/tcg-$b-$k-r1"
		echo "BENCH_KERNEL=$k" >> "$tmp/k/boots/tcg-$b-$k-r1/params.env"
	done
done
a10=$tmp/k/boots/tcg-normal-6.12-r1/m/A-10000-r1/osnoise.txt
awk '$1 == "1" && $2 ~ /^#/ { $4 = 2 * $4 } { print }' "$a10" > "$a10.new" && mv "$a10.new" "$a10"
python3 "$top/bench/report" "$tmp/k" >/dev/null 2>&1
sed 's/\xe2\x80\xaf//g' "$tmp/k/report.md" > "$tmp/k.txt"
check "two kernels: one section per kernel" test "$(grep -cE '^## Variant `tcg 6\.(1|12)`' "$tmp/k.txt")" -eq 2
check "two kernels: one goals table, a column each" grep -qE '^\| goal \| rate/s \| `6\.1` \| `6\.12` \|$' "$tmp/k.txt"
check "one kernel: no goals-by-kernel table" test "$(grep -c 'Goals by kernel' "$tmp/report.txt")" -eq 0
ba() { sed -n "s/^| B\/A total noise (≤ 0.05) | 10000 | \([0-9.]*\) [^|]* | \([0-9.]*\) .*/\\$1/p" "$tmp/k.txt"; }
b61=$(ba 1) b612=$(ba 2)
check "two kernels: 6.12's B/A noise at 10k/s is half of 6.1's ($b612 vs $b61)" \
	awk -v a="$b61" -v b="$b612" 'BEGIN { exit !(a > 0 && b > 0.49 * a && b < 0.51 * a) }'

finish
