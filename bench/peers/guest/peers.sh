#!/bin/bash
# Guest side of bench/peers/run, one boot (params.env in $NOCB_OUT):
#   PEERS_BOOT=compare  8 vCPUs, CPUs 4-7 offline at boot: the same CPUs
#       (2-7) isolated by tuna, tuned's cpu-partitioning and nocbctl in
#       turn, each from the boot's own placement; what each changed
#       (snapshots of every task, IRQ and the workqueue mask, the files it
#       wrote), what it proposes for the kernel command line, its own
#       verification, and what happens when a CPU (4, 5, 6) first comes
#       online; and the time to pin every rcuo kthread to CPU 0.
#   PEERS_BOOT=scale    N vCPUs, rcu_nocbs=1-(N-1): time of nocbctl status,
#       nocbctl pin rcuo --cpus=0 and tuna moving the same threads.
# Raw output only; bench/peers/report makes the tables.
. "$NOCB_SRC/tools/vm/guest-lib.sh"
. "$NOCB_OUT/params.env"
O=$NOCB_OUT
probe() { python3 "$O/probe.py" "$@"; }
reps=${PEERS_REPS:-5}
iso=2-7 hk=0-1
# The nocbctl built from the commit measured (bench/peers/run), from the
# guest's disk rather than 9p, for the commands and the units alike.
if [ -f "$O/nocbctl.bin" ]; then
	install -m 0755 "$O/nocbctl.bin" /usr/local/lib/nocbctl-measured
	mount --bind /usr/local/lib/nocbctl-measured /usr/bin/nocbctl
fi

note "system: $(timeout 600 systemctl is-system-running --wait 2>/dev/null)"
{
	echo "kernel: $(uname -r)"
	echo "nocbctl: $(nocbctl --version | head -1)"
	dpkg-query -W -f='${Package}: ${Version}\n' tuned tuna python3
	echo "nproc: $(nproc) online $(cat /sys/devices/system/cpu/online) possible $(cat /sys/devices/system/cpu/possible)"
	echo "tuned.service: $(systemctl is-enabled tuned) $(systemctl is-active tuned)"
} | tee "$O/versions"
online=$(cat /sys/devices/system/cpu/online)

# rcuo_on LIST: every rcuog/rcuop kthread is allowed exactly LIST
rcuo_on() {
	local d c a n=0 bad=0
	for d in /proc/[0-9]*; do
		read -r c < "$d/comm" 2>/dev/null || continue
		case $c in rcuog/*|rcuop/*) ;; *) continue ;; esac
		a=$(sed -n 's/^Cpus_allowed_list:\s*//p' "$d/status")
		n=$((n + 1))
		[ "$a" = "$1" ] || bad=$((bad + 1))
	done
	echo "# rcuo kthreads: $n, $bad not on $1"
	[ $n -gt 0 ] && [ $bad = 0 ]
}

# The harness's own fork and exec, the floor under every timed command.
probe time exec-floor 3 /bin/true

# pin_reps LABEL: nocbctl pin rcuo --cpus=0 and tuna moving the same
# threads, alternately, each from the kthreads allowed every online CPU.
pin_reps() {
	local r
	for ((r = 1; r <= reps; r++)); do
		nocbctl pin rcuo --cpus="$online" --force >/dev/null 2>&1
		probe time "nocbctl-pin $1" 1 nocbctl pin rcuo --cpus=0
		check "rep $r: nocbctl pin: every rcuo kthread on CPU 0" rcuo_on 0
		nocbctl pin rcuo --cpus="$online" --force >/dev/null 2>&1
		probe time "tuna-move $1" 1 tuna --cpus=0 --threads='rcuo*' --move
		check "rep $r: tuna --move: every rcuo kthread on CPU 0" rcuo_on 0
	done
}

# changed_files PHASE: files under /etc and /run written since the marker
# (in the guest: a file on the 9p share carries the host's clock)
changed_files() {
	find /etc /run/systemd/system /run/tuned -newer /run/peers.marker -type f 2>/dev/null | sort > "$O/$1/files"
	while read -r f; do
		case $f in *.pyc|/etc/ld.so.cache|*/random-seed) continue ;; esac
		echo "== $f"
		head -c 4000 "$f"
	done < "$O/$1/files" > "$O/$1/files.txt"
}

case $PEERS_BOOT in
scale)
	n=$(nproc)
	probe snapshot "$O/scale"
	note "offload kthreads: $(grep -cP '\trcuo[gp]/' "$O/scale/tasks")"
	for ((r = 1; r <= reps; r++)); do
		probe time "nocbctl-status n=$n" 1 nocbctl status
	done
	pin_reps "n=$n"
	;;
compare)
	# The units would pin at CPU online during the peers' turns: without
	# their config they do nothing (ConditionPathExists).
	mv /etc/nocbctl.conf "$O/nocbctl.conf.image"
	probe snapshot "$O/baseline"
	pin_reps n=8-4online
	probe restore "$O/baseline"

	# tuna: runtime only
	mkdir -p "$O/tuna"; touch /run/peers.marker; sleep 1
	probe time tuna-isolate 1 tuna --cpus=$iso --isolate
	probe snapshot "$O/tuna"
	changed_files tuna
	probe online 4 $hk 15 | tee "$O/tuna/online"
	probe restore "$O/baseline"

	# tuned: the cpu-partitioning profile, as its documentation says
	mkdir -p "$O/tuned"; touch /run/peers.marker; sleep 1
	systemctl is-active -q tuned || systemctl start tuned
	echo "isolated_cores=$iso" > /etc/tuned/cpu-partitioning-variables.conf
	probe time tuned-profile 1 tuned-adm profile cpu-partitioning
	cp /var/log/tuned/tuned.log "$O/tuned/tuned-first.log" 2>/dev/null
	if [ "$(tuned-adm active 2>&1)" != "Current active profile: cpu-partitioning" ]; then
		# tuned refuses isolated_cores with an offline CPU (its log says
		# so): the online part of them is all it can be given.
		part=$(python3 -c 'import sys; a = {int(x) for x in sys.argv[1].split(",")}; print(",".join(str(c) for c in range(2, 8) if c in a))' \
			"$(python3 -c 'import sys; print(",".join(str(c) for p in sys.argv[1].split(",") for c in range(int(p.split("-")[0]), int(p.split("-")[-1]) + 1)))' "$(cat /sys/devices/system/cpu/online)")")
		echo "isolated_cores=$part" > /etc/tuned/cpu-partitioning-variables.conf
		echo "retry isolated_cores=$part" > "$O/tuned/retry"
		probe time tuned-profile-online-part 1 tuned-adm profile cpu-partitioning
	fi
	tuned-adm active > "$O/tuned/active" 2>&1
	tuned-adm verify > "$O/tuned/verify" 2>&1
	echo "rc=$?" >> "$O/tuned/verify"
	probe snapshot "$O/tuned"
	changed_files tuned
	cp /var/log/tuned/tuned.log "$O/tuned/tuned.log" 2>/dev/null
	probe online 5 $hk 15 | tee "$O/tuned/online"
	tuned-adm off
	systemctl stop tuned
	probe restore "$O/baseline"

	# nocbctl: its plan, applied as the admin guide says
	mkdir -p "$O/nocbctl"; touch /run/peers.marker; sleep 1
	nocbctl plan --isolate=$iso > "$O/nocbctl/plan.txt" 2>&1
	j=$(nocbctl plan --isolate=$iso --json)
	echo "$j" > "$O/nocbctl/plan.json"
	eval "$(jq -r '@sh "cfg_cpus=\(.config.cpus) sd=\(.systemd.file) sd_aff=\(.systemd.CPUAffinity)"' <<<"$j")"
	cp "$O/nocbctl.conf.image" /etc/nocbctl.conf
	sed -i "s/^cpus *=.*/cpus = $cfg_cpus/" /etc/nocbctl.conf
	probe time nocbctl-apply 1 nocbctl apply
	mkdir -p "${sd%/*}"
	printf '[Manager]\nCPUAffinity=%s\n' "$sd_aff" > "$sd"
	systemctl daemon-reexec
	while read -r cmd; do
		check "after boot: $cmd" bash -c "$cmd"
	done < <(jq -r '.after_boot[].command' <<<"$j")
	probe snapshot "$O/nocbctl"
	changed_files nocbctl
	nocbctl plan --check --isolate=$iso > "$O/nocbctl/verify" 2>&1
	echo "rc=$?" >> "$O/nocbctl/verify"
	probe online 6 $hk 15 | tee "$O/nocbctl/online"
	check "nocbctl: the units pinned CPU 6's offload kthreads" grep -q 'pinned_s=[0-9]' "$O/nocbctl/online"
	;;
esac
finish
