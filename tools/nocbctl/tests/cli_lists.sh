#!/bin/bash
# cli_lists.sh - the binary on what a large or oddly booted machine shows:
# whole CPU lists at 4096 and 8192 CPUs (status text and JSON, pin's
# cpus/before/after), a warning per misplaced kthread with no cap, the
# kernel's reading of a bad rcu_nocbs= (all CPUs offloaded), and every
# verb's JSON on every fixture through a strict parser.
# Every key those documents hold is named in the man page's JSON OUTPUT
# section, a top-level key in its command's entry.
# Usage: NOCBCTL=nocbctl FIXTURES=tests/fixtures BUILD=build bash tests/cli_lists.sh
set -u
N=${NOCBCTL:?}
F=${FIXTURES:?}
T=${BUILD:?}/cli_lists
MAN=${MAN:-$(dirname "$0")/../nocbctl.8}
pass=0 fail=0
export ASAN_OPTIONS=detect_leaks=1
rm -rf "$T"
mkdir -p "$T"

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# run OUT ERR -- command...: sets rc
run() {
	local out=$1 err=$2; shift 3
	"$@" >"$out" 2>"$err"
	rc=$?
}

# strict_json DESC FILE: FILE must be one RFC 8259 document of UTF-8
# ending in "\n"; checked all at once by strict_json_all (python is slow
# to start on a busy machine).
jn=0
mkdir -p "$T/json"
strict_json() {
	jn=$((jn + 1))
	cp "$2" "$T/json/$jn"
	printf '%s\n' "$1" > "$T/json/$jn.desc"
}
strict_json_all() {
	local r
	r=$(python3 - "$T/json" "$jn" <<'PY'
import json, sys
d, n = sys.argv[1], int(sys.argv[2])
def no_dups(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError('duplicate key')
    return dict(pairs)
def no_const(c):
    raise ValueError('non-JSON constant ' + c)
bad = 0
for i in range(1, n + 1):
    data = open('%s/%d' % (d, i), 'rb').read()
    try:
        assert data.endswith(b'\n') and data.count(b'\n') == 1, 'not one line'
        json.loads(data.decode('utf-8'), object_pairs_hook=no_dups,
                   parse_constant=no_const)
    except (AssertionError, ValueError) as e:
        bad += 1
        desc = open('%s/%d.desc' % (d, i)).read().strip()
        print('FAIL: %s: not one strict JSON document: %s: %r' % (desc, e, data[:200]))
print(bad)
PY
)
	printf '%s\n' "$r" | grep '^FAIL' || true
	r=$(printf '%s\n' "$r" | tail -n 1)
	fail=$((fail + r))
	pass=$((pass + jn - r))
}

# check DESC PYTHON-EXPR: with j = the JSON of $T/out, s = its text
check() {
	if python3 - "$T/out" "$2" <<'PY'
import functools, json, sys
s = open(sys.argv[1], encoding='utf-8').read()
try:
    j = json.loads(s)
except ValueError:
    j = None
def thread(name):
    return next(t for t in j['kthreads'] if t['name'] == name)
@functools.lru_cache
def odd(n): return ','.join(str(c) for c in range(1, n, 2))
@functools.lru_cache
def even(n): return ','.join(str(c) for c in range(0, n, 2))
@functools.lru_cache
def pairs(n): return ','.join('%d-%d' % (c, c + 1) if c + 1 < n else str(c)
                              for c in range(0, n, 3))
def allowed(name):  # the ALLOWED column of status
    for l in s.splitlines():
        f = l.split()
        if len(f) > 4 and f[1] == name:
            return f[4]
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
	then ok; else bad "$1"; head -c 400 "$T/out"; echo; fi
}

# --- whole lists at 4096 and 8192 CPUs ----------------------------------
for n in 4096 8192; do
	b=$T/big$n
	bash "$F/gen.sh" --big "$b" $n
	run "$T/out" "$T/err" -- "$N" --root "$b" status
	[ $rc = 0 ] && ok || bad "status $n: exit $rc"
	check "status $n: ALLOWED of rcuog/0, rcuop/1, rcuop/2 whole" \
		"allowed('rcuog/0') == odd($n) and allowed('rcuop/1') == even($n) and allowed('rcuop/2') == pairs($n)"
	check "status $n: the warning names every odd CPU" \
		"'rcuog/0 (pid 100) is allowed on CPUs ' + odd($n) + ' (offloaded)' in s"
	check "status $n: 100 warnings, none dropped" \
		"s.count('  warning: ') == 100"
	run "$T/out" "$T/err" -- "$N" --json --root "$b" status
	strict_json "status --json $n" "$T/out"
	check "status --json $n: allowed lists whole" \
		"thread('rcuog/0')['allowed'] == odd($n) and thread('rcuop/1')['allowed'] == even($n) and thread('rcuop/2')['allowed'] == pairs($n)"
	check "status --json $n: offloaded, 100 warnings" \
		"j['cpus']['offloaded'] == '1-%d' % ($n - 1) and len(j['warnings']) == 100"
	# every CPU but 0 is offloaded: --force past the placement rule
	run "$T/out" "$T/err" -- "$N" --json --root "$b" pin rcuo --cpus="$(python3 -c "print(','.join(str(c) for c in range(1, $n, 2)))")" --dry-run --force
	[ $rc = 0 ] && ok || { bad "pin --json $n: exit $rc"; cat "$T/err"; }
	strict_json "pin --json $n" "$T/out"
	check "pin --json $n: cpus, before and after whole" \
		"j['cpus'] == odd($n) and all(t['after'] == odd($n) for t in j['threads']) and [t['before'] for t in j['threads'] if t['name'] in ('rcuop/1', 'rcuop/2')] == [even($n), pairs($n)] and j['unchanged'] == 1 and j['would_change'] == 99"
	run "$T/out" "$T/err" -- "$N" --root "$b" pin rcuo --cpus="$(python3 -c "print(','.join(str(c) for c in range(0, $n, 2)))")" --dry-run --force
	check "pin $n: before -> after whole" \
		"'rcuop/2    pid 102     would change (' + pairs($n) + ' -> ' + even($n) + ')' in s and 'rcuop/1    pid 101     unchanged (' + even($n) + ')' in s"
done

# --- a warning for every kthread allowed on a quiet CPU -----------------
run "$T/out" "$T/err" -- "$N" --json --root "$F/cpu4" status
check "cpu4: rcuog/0 and rcuop/0 may run on the no-CBs CPUs 1-3" \
	"'rcuog/0 (pid 12) is allowed on CPUs 1-3 (1-3 offloaded)' in j['warnings'] and 'rcuop/0 (pid 13) is allowed on CPUs 1-3 (1-3 offloaded)' in j['warnings']"
check "cpu4: rcuop/1 on its own CPU and the others" \
	"'rcuop/1 (pid 14) may run on CPU 1, which it offloads, and on CPUs 2-3 (1-3 offloaded)' in j['warnings'] and len(j['warnings']) == 6"
run "$T/out" "$T/err" -- "$N" --json --root "$F/norcudata" status
check "norcudata: isolated CPU 1 counts too" \
	"'rcuog/0 (pid 12) is allowed on CPUs 1-3 (2-3 offloaded, 1 isolated, 3 nohz_full)' in j['warnings']"
run "$T/out" "$T/err" -- "$N" --json --root "$F/cpu4-pinned" status
check "cpu4-pinned: no kthread warning" "not any('pid' in w for w in j['warnings'])"

# --- rcu_nocbs= as the kernel read it -----------------------------------
run "$T/out" "$T/err" -- "$N" --root "$F/badnocbs" status
[ $rc = 0 ] && ok || bad "badnocbs: exit $rc"
if [ "$(cat "$T/err")" = "nocbctl: warning: rcu_nocbs=1-3:2 is not a valid CPU list (':2' needs a group: ':USED/GROUP', e.g. 0-7:1/2 for every second CPU): the kernel offloaded all CPUs" ]; then ok
else bad "badnocbs: stderr warning"; cat "$T/err"; fi
check "badnocbs: all CPUs offloaded, none normal" \
	"'offloaded: 0-3 (source: boot command line' in s and 'normal:    -' in s"
run "$T/out" "$T/err" -- "$N" --json --root "$F/badnocbs" status
check "badnocbs --json: offloaded 0-3, the warning listed" \
	"j['cpus']['offloaded'] == '0-3' and j['cpus']['normal'] == '' and any(w.startswith('rcu_nocbs=1-3:2 is not a valid CPU list') for w in j['warnings'])"
grep -q 'the kernel offloaded all CPUs' "$T/err" && ok || bad "badnocbs --json: stderr warning"
run "$T/out" "$T/err" -- "$N" --json --root "$F/badnocbs-rcudata" status
check "badnocbs-rcudata: rcudata decides, both lists reported" \
	"j['cpus']['offloaded'] == '1-3' and j['cpus']['offloaded_source'] == 'rcudata' and \"rcu_nocbs=1-2,x is not a valid CPU list (CPU number expected at 'x'): the kernel offloaded all CPUs but CPU 0 (K4)\" in j['warnings'] and 'nohz_full=3-1 is not a valid CPU list (range 3-1 is backwards): the kernel ignored it' in j['warnings']"
[ -s "$T/err" ] && bad "badnocbs-rcudata: stderr not empty" || ok
run "$T/out" "$T/err" -- "$N" --json --root "$F/nocbs-commas" status
check "nocbs-commas: rcu_nocbs=1,,3, offloads 1 and 3" \
	"j['cpus']['offloaded'] == '1,3' and not any('valid' in w for w in j['warnings'])"

# --- every verb's JSON, strictly ------------------------------------------
cfg=$T/x$'\xff'y.conf
printf 'cpus = 0\npolicy = fifo\npriority = 1\n' > "$cfg"
# and an offload line: unchanged, would change, or no K6 (exit 3, JSON all the same)
cfgoff=$T/offload.conf
printf 'cpus = 0\npolicy = fifo\npriority = 1\noffload = 2-3\n' > "$cfgoff"
for fx in "$F"/*/ "$T"/big4096/; do
	fx=${fx%/}
	name=${fx##*/}
	[ -d "$fx/sys" ] || continue
	i=0
	while read -r args; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		run "$T/out" "$T/err" -- "$N" --json --root "$fx" $args
		if [ -s "$T/out" ] || [ $rc = 0 ]; then
			strict_json "$name: --json $args" "$T/out"
		fi
	done <<-EOF2
	status
	stats
	stats --cpus=0
	stats --watch 0.01 --count 2
	pin rcuo --cpus=0 --dry-run
	pin rcuog --cpus=0-1,,3 --dry-run
	prio rcuo --policy=fifo --priority=1 --dry-run
	prio rcuop --policy=other --nice=-5 --dry-run
	apply --config $cfg --dry-run
	apply --config $cfgoff --dry-run
	offload 1 --dry-run
	deoffload 2-3 --dry-run --config $cfg
	plan --isolate=1
	plan --check --isolate=1
	plan --check
	EOF2
	cp -a "$fx" "$T/hp"
	run "$T/out" "$T/err" -- "$N" --json --root "$T/hp" hotplug-check
	[ -s "$T/out" ] && strict_json "$name: --json hotplug-check" "$T/out"
	rm -rf "$T/hp"
done
# hotplug-check that changes something: CPU 0 has an online file here,
# so the real write "offlines" it (a violation) and brings it back
cp -a "$F/cpu4" "$T/hp"
# git keeps no empty folder: cpu0/ exists only in a work tree that made it
mkdir -p "$T/hp/sys/devices/system/cpu/cpu0"
echo 1 > "$T/hp/sys/devices/system/cpu/cpu0/online"
run "$T/out" "$T/err" -- "$N" --json --root "$T/hp" hotplug-check --force
check "hotplug-check on a fixture: violation, CPU 0 restored" \
	"j['result'] == 'violation' and j['restored'] == '0' and j['restore_ok'] is True"
strict_json "cpu4 with cpu0/online: --json hotplug-check --force" "$T/out"
rm -rf "$T/hp"
# the config path is not UTF-8: escaped, and still JSON
run "$T/out" "$T/err" -- "$N" --json --root "$F/cpu4" apply --config "$cfg" --dry-run
strict_json "apply --json, config path with \\xff" "$T/out"
check "apply --json: \\xff as U+FFFD" "j['config'].endswith('/x\ufffdy.conf')"

# --- stats --format=prometheus through promtool ----------------------------
# promtool (Debian's prometheus package, tools/deps.sh test; no server is
# started) parses the text exposition format and lints the names: it must
# say nothing. A fixture whose rcudata is bad must print no exposition.
if ! command -v promtool >/dev/null 2>&1; then
	bad "promtool missing: install Debian's prometheus (tools/deps.sh test)"
else
	printf '# HELP x y\n# TYPE x counter\nx 1\n' | promtool check metrics >/dev/null 2>&1 &&
		bad "promtool takes a counter without _total: its verdicts below prove nothing" || ok
	for fx in "$F"/*/ "$T"/big4096/; do
		fx=${fx%/}
		name=${fx##*/}
		[ -f "$fx/sys/kernel/debug/rcu/rcudata" ] || continue
		run "$T/out" "$T/err" -- "$N" --root "$fx" stats --format=prometheus
		if [ $rc != 0 ]; then
			[ ! -s "$T/out" ] && grep -q '^nocbctl: stats: ' "$T/err" && ok ||
				bad "$name: stats --format=prometheus exit $rc with output"
			continue
		fi
		lint=$(promtool check metrics <"$T/out" 2>&1)
		prc=$?
		if [ $prc = 0 ] && [ -z "$lint" ] && grep -q '^nocb_cpu_offloaded{cpu="0"} ' "$T/out"; then
			ok
		else
			bad "$name: promtool check metrics exit $prc: $(head -c 300 <<<"$lint")"
		fi
	done
fi

strict_json_all

# --- the man page names every key of every JSON document above ------------
# Keys count only in bold (\fBkey\fR, .B, .BR, .RB), so that prose cannot
# stand in for them. Each .TP entry is headed by its commands in bold
# ("pin, prio", "plan --check"); the paragraph before them is for all.
doc_keys() {
	python3 - "$T/json" "$jn" "$MAN" <<'PY'
import json, re, shlex, sys
d, n, man = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def unescape(s):
    s = re.sub(r'\\[%&]', '', s)
    return s.replace('\\-', '-').replace('\\(em', '-').replace('\\(en', '-')

def bold(line):
    """The bold runs of one roff line."""
    if line.startswith('.'):
        mac, _, rest = line.partition(' ')
        try:
            args = shlex.split(rest)
        except ValueError:
            args = rest.split()
        if mac == '.B':
            return [unescape(' '.join(args))]
        if mac in ('.BR', '.RB', '.BI', '.IB'):
            first = 0 if mac in ('.BR', '.BI') else 1
            return [unescape(a) for a in args[first::2]]
        return []
    return [unescape(m) for m in re.findall(r'\\fB(.*?)\\f[RPI]', line)]

lines = open(man, encoding='utf-8').read().split('\n')
try:
    a = lines.index('.SH JSON OUTPUT')
except ValueError:
    print('FAIL: %s has no JSON OUTPUT section' % man)
    print(0, 1)
    sys.exit()
b = next(i for i in range(a + 1, len(lines)) if lines[i].startswith('.SH '))
common, entries, cur = set(), {}, None
i = a + 1
while i < b:
    l = lines[i]
    if l == '.TP':
        cur = set()
        for name in bold(lines[i + 1]):
            for v in name.split(', '):
                entries[v.strip()] = cur
        i += 2
        continue
    words = {w for r in bold(l) for w in re.findall(r'[A-Za-z_][A-Za-z0-9_]*', r)}
    (common if cur is None else cur).update(words)
    i += 1
anywhere = set(common).union(*entries.values())

def nested(v, path):
    if isinstance(v, dict):
        for k, x in v.items():
            yield k, path + '.' + k
            yield from nested(x, path + '.' + k)
    elif isinstance(v, list):
        for x in v:
            yield from nested(x, path + '[]')

seen, missing = set(), {}
for i in range(1, n + 1):
    try:
        j = json.loads(open('%s/%d' % (d, i), encoding='utf-8').read())
    except ValueError:
        continue    # strict_json_all has said so
    desc = open('%s/%d.desc' % (d, i), errors='replace').read().strip()
    verb = j.get('command', '?') + (' --check' if j.get('check') is True else '')
    own = common | entries.get(verb, set())
    for k, x in j.items():
        seen.add((verb, k))
        if k not in own:
            missing.setdefault((verb, k), '%s: %s is not in the JSON OUTPUT entry of %s' % (desc, k, verb))
        for kk, path in nested(x, k):
            seen.add((verb, path))
            if kk not in anywhere:
                missing.setdefault((verb, path), '%s: %s is not in JSON OUTPUT' % (desc, path))
for m in sorted(missing.values()):
    print('FAIL: ' + m)
print(len(seen) - len(missing), len(missing))
PY
}
r=$(doc_keys)
printf '%s\n' "$r" | grep '^FAIL' || true
if [[ $(printf '%s\n' "$r" | tail -n 1) =~ ^([0-9]+)\ ([0-9]+)$ ]]; then
	pass=$((pass + BASH_REMATCH[1]))
	fail=$((fail + BASH_REMATCH[2]))
else
	bad "keys against the man page: the check itself failed"
	printf '%s\n' "$r" | tail -n 5
fi

echo "cli_lists.sh: $pass passed, $fail failed"
[ "$fail" = 0 ]
