#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=2-3" smp=4
# K2: /sys/kernel/debug/rcu/rcudata format, flags, ql draining, co/ca.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
f=/sys/kernel/debug/rcu/rcudata
check "rcudata exists" test -r $f
cat $f | sed 's/^/# /'
check_eq "one line per online CPU" 4 "$(wc -l < $f)"
re='^ *[0-9]+!?N? ql=[0-9]+/[0-9]+ b=[0-9]+ ci=[0-9]+ nci=[0-9]+ co=[0-9]+ ca=[0-9]+( [a-z_]+=[^ ]*)*$'
check_eq "every line matches the documented format" 0 "$(grep -cvE "$re" $f)"
check_eq "N on exactly the offloaded CPUs" "2 3" \
	"$(awk '$1 ~ /N/ { sub(/[^0-9].*/, "", $1); printf "%s%s", s, $1; s = " " }' $f)"

# co/ca: a normal CPU that goes offline with queued callbacks hands them
# to the CPU doing the teardown.  cbload's pinned timer queues callbacks on
# CPU 1 until the CPU dies, so some always wait for a grace period then.
sum_ca() { awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^ca=/) s += substr($i, 4) } END { print s }' $f; }
co0=$(rcudata_field 1 co) ca0=$(sum_ca)
check "load cbload on CPU 1" insmod "$(nocb_ko cbload)" cpus=1 rate=$(cbload_rate 100000) work_ns=0
sleep 1
note "CPU 1 before offline: $(grep -E '^ *1 ' $f)"
check "offline CPU 1 (normal, loaded)" cpu_set_online 1 0
dco=$(( $(rcudata_field 1 co) - co0 )) dca=$(( $(sum_ca) - ca0 ))
note "CPU 1 offline: co +$dco, ca (all CPUs) +$dca"
check "co of CPU 1 grew" test $dco -gt 0
check_eq "adopted callbacks equal migrated ones" "$dco" "$dca"
check "unload cbload (waits for its callbacks)" rmmod cbload
check_eq "offline CPU 1 flagged !" "!" "$(rcudata_flags 1)"
check_eq "still one line for CPU 1" 1 "$(grep -cE '^ *1[!N ]' $f)"
check "online CPU 1" cpu_set_online 1 1
check_eq "CPU 1 flag cleared" "" "$(rcudata_flags 1)"

# ql of a loaded CPU rises under load and drains back near 0 after it.
ql_total() { rcudata_field "$1" ql | cut -d/ -f2; }
ql_above() { [ "$(ql_total "$1")" -ge "$2" ]; }
ql_below() { [ "$(ql_total "$1")" -lt "$2" ]; }
insmod "$(nocb_ko cbload)" cpus=0 rate=$(cbload_rate 100000) work_ns=0
check "CPU 0 ql reaches 100 under a 100k/s callback load" wait_until 10 ql_above 0 100
note "CPU 0 under load: $(grep -E '^ *0 ' $f)"
rmmod cbload
check "CPU 0 ql drains below 50 within 20 s of the load stopping" wait_until 20 ql_below 0 50
note "CPU 0 after: $(grep -E '^ *0 ' $f)"

# An offloaded CPU offline: "!N", and reading during hotplug is safe.
(for i in $(seq 20); do echo 0 > /sys/devices/system/cpu/cpu3/online; echo 1 > /sys/devices/system/cpu/cpu3/online; done) & hp=$!
reads=0 bad=0
while kill -0 $hp 2>/dev/null; do
	if cat $f > /tmp/rcudata.snap; then reads=$((reads + 1)); else bad=$((bad + 1)); fi
	[ "$(grep -cvE "$re" /tmp/rcudata.snap)" = 0 ] || bad=$((bad + 1))
done
wait $hp
note "$reads reads of rcudata during 20 offline/online cycles of CPU 3"
check_eq "every read during hotplug succeeded and parsed" 0 "$bad"
check "offline CPU 3 (offloaded)" cpu_set_online 3 0
check_eq "offline offloaded CPU 3 flagged !N" "!N" "$(rcudata_flags 3)"
check "online CPU 3" cpu_set_online 3 1
finish
