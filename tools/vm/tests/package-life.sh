#!/bin/bash
# nocb-guest: cmdline="rcu_nocbs=1-3" smp=4 timeout=420 kernels=first
#
# The nocbctl package's life on a running system, with the .deb that
# `make deb` built (build/deb/, seen here over 9p).  The image holds that
# package, installed with apt when the image was built.  The test upgrades
# it to a newer build over an edited /etc/nocbctl.conf, removes it, purges
# it, then installs it with apt on the system now without nocbctl, judging
# each step from dpkg, systemd and /proc.  Before each step the offload
# kthreads are tuned by hand (SCHED_FIFO 1 on CPUs 0-1, as tuned or tuna
# would): no step may change them; only the admin's reload applies the
# admin's edited config.  The disk is a snapshot: nothing
# of this outlives the guest.  It runs on the first kernel of a run only:
# what it adds is dpkg's side, and the kthread placement it checks on the
# way is what the units guest tests check on every kernel.
source "$NOCB_SRC/tools/vm/guest-lib.sh"
source "$NOCB_SRC/units/tests/guest/common.bash"

export DEBIAN_FRONTEND=noninteractive
# fd 3: notes from inside check's captured commands reach the log.
exec 3>&1
# man-db's index update, run by dpkg after each step, is not under test
# and costs seconds in an emulated guest.
rm -f /var/lib/man-db/auto-update
UNITS_ENABLED="nocbctl-apply.service nocbctl-stats.timer nocbctl-hotplug-check.service"
note "system state after boot: $(nocb_wait_boot 180)"

shopt -s nullglob
debs=("$NOCB_SRC"/build/deb/nocbctl_*_amd64.deb)
shopt -u nullglob
check_eq "one nocbctl .deb in build/deb (make deb)" 1 "${#debs[@]}" || finish
ver=$(dpkg-deb -f "${debs[0]}" Version)
deb=/tmp/$(basename "${debs[0]}")
cp "${debs[0]}" "$deb"
note "package: $(basename "$deb"), version $ver"
# Every file and symlink of the package (directories may be shared).
mapfile -t pkg_files < <(dpkg-deb --fsys-tarfile "$deb" | tar -t | grep -v '/$' | sed 's|^\./|/|')
note "${#pkg_files[@]} files in the package"

# now_us: CLOCK_MONOTONIC in microseconds, as systemd's *Monotonic stamps.
now_us() { awk '{ printf "%d\n", $1 * 1000000 }' /proc/uptime; }

# pkg_status: dpkg's status and version of nocbctl ("" when unknown).
pkg_status() { dpkg-query -W -f='${Status} ${Version}' nocbctl 2>/dev/null; }

# apt_do LOG apt|apt-get ARGS...: run it in /tmp with no terminal, output to LOG.
apt_do() {
	local log=$1 t=$SECONDS rc
	shift
	(cd /tmp && "$1" -y -q "${@:2}" </dev/null >"$log" 2>&1)
	rc=$?
	note "$1 $2: $((SECONDS - t)) s" >&3
	[ $rc -eq 0 ] || sed 's/^/#     /' "$log" | tail -20
	return $rc
}

# left_on_disk: the package's files (and its doc folder) still present.
left_on_disk() {
	local f
	for f in "${pkg_files[@]}" /usr/share/doc/nocbctl; do
		[ -e "$f" ] || [ -L "$f" ] && echo "$f"
	done
	return 0
}

# units_loaded: every nocbctl unit systemd has loaded, in any state.
units_loaded() { systemctl list-units --all --plain --no-legend 'nocbctl*'; }

# units_active: the nocbctl units that are running or waiting to run.
units_active() {
	systemctl list-units --plain --no-legend --state=active,activating,deactivating,reloading 'nocbctl*'
}

# enablement: symlinks and deb-systemd-helper state naming a nocbctl unit.
# The image's own drop-in (mkosi.extra: nocbctl-metrics.timer.d, which
# starts the collector only for the metrics test) is not the package's.
enablement() {
	find /etc/systemd/system /var/lib/systemd/deb-systemd-helper-enabled \
		/var/lib/systemd/deb-systemd-helper-masked -name '*nocbctl*' \
		-not -path '/etc/systemd/system/nocbctl-metrics.timer.d*' 2>/dev/null
	return 0
}

# placement: "NAME cpus=LIST policy=N nice=N" of every offload kthread,
# from /proc in one pass (the kernel's cpulist, the policy number of
# /proc/PID/stat: 0 SCHED_OTHER, 1 SCHED_FIFO, 2 SCHED_RR), and " rt=N"
# for a real-time policy.
placement() {
	local p files=()
	for p in $(pgrep '^rcuo[gps]/'); do files+=("/proc/$p/stat" "/proc/$p/status"); done
	[ ${#files[@]} -gt 0 ] || { echo "no offload kthread found"; return 1; }
	awk '
		FILENAME ~ /stat$/ { name = substr($2, 2, length($2) - 2); nice = $19; rt = $40; pol = $41 }
		FILENAME ~ /status$/ && $1 == "Cpus_allowed_list:" {
			print name, "cpus=" $2, "policy=" pol, "nice=" nice (pol != 0 ? " rt=" rt : "") }
	' "${files[@]}"
}

# tune_by_hand: every offload kthread SCHED_FIFO 1 on CPUs 0-1 (nice 0,
# which a real-time task keeps for later), as an admin's tuned profile or
# tuna would leave them; the result in /tmp/tuned.
tune_by_hand() {
	local p
	for p in $(pgrep '^rcuo[gps]/'); do
		taskset -pc 0-1 "$p" >/dev/null && renice -n 0 -p "$p" >/dev/null &&
			chrt -f -p 1 "$p" || return 1
	done
	placement > /tmp/tuned && ! grep -v ' cpus=0-1 policy=1 nice=0 rt=1$' /tmp/tuned
}

# still_tuned: every offload kthread as tune_by_hand left it; prints the
# ones that are not.
still_tuned() {
	placement > /tmp/now || { cat /tmp/now; return 1; }
	diff /tmp/tuned /tmp/now | grep '^[<>]'
	cmp -s /tmp/tuned /tmp/now
}

# placed_per_conf: every offload kthread is where /etc/nocbctl.conf puts
# it (cpus, policy other, nice; this test's configs use no per-kind
# override and no real-time policy); prints the ones that are not.
placed_per_conf() {
	local want bad
	want="cpus=$(conf_get cpus) policy=0 nice=$(conf_get nice)"
	[ "$(conf_get policy)" = other ] && [ -z "$(conf_get rcuog.cpus)$(conf_get rcuop.cpus)" ] ||
		{ echo "a real-time policy or a per-kind override: not what this test judges"; return 1; }
	placement > /tmp/placement || { cat /tmp/placement; return 1; }
	bad=$(awk -v want="$want" '{ name = $1; $1 = ""; sub(/^ /, "") } $0 != want { print name ": " $0 ", want " want }' /tmp/placement)
	echo "$(wc -l < /tmp/placement) offload kthreads: $(awk '{ print $1 }' /tmp/placement | paste -sd' ' -)"
	[ -z "$bad" ] || { echo "$bad"; return 1; }
}

# check_purged WHAT: nothing of the package left after a purge.
check_purged() {
	local st
	st=$(pkg_status)
	check "$1: dpkg holds no nocbctl" test -z "$st" -o "${st% *}" = "unknown ok not-installed" \
		-o "${st% *}" = "purge ok not-installed"
	check "$1: /etc/nocbctl.conf gone" test ! -e /etc/nocbctl.conf
	check_eq "$1: no file of the package left" "" "$(left_on_disk | paste -sd' ' -)"
	check_eq "$1: no dpkg record left" "" "$(ls /var/lib/dpkg/info/nocbctl.* 2>/dev/null | paste -sd' ' -)"
	check_eq "$1: no enablement symlink or state left" "" "$(enablement | paste -sd' ' -)"
	check_eq "$1: no nocbctl unit loaded" "" "$(units_loaded | paste -sd';' -)"
}

# --- the image's copy -------------------------------------------------------
check_eq "image: nocbctl $ver installed from the package" "install ok installed $ver" "$(pkg_status)"
for u in $UNITS_ENABLED; do
	check_eq "image: $u enabled" enabled "$(systemctl is-enabled "$u" 2>&1)"
done
check "image: offload kthreads placed at boot per /etc/nocbctl.conf" placed_per_conf
apply_started() { unit_prop nocbctl-apply.service ExecMainStartTimestampMonotonic; }

# --- upgrade the image's copy over an edited conffile -------------------------
sed -i 's/^nice = 0$/nice = 5/' /etc/nocbctl.conf
echo "# edited by the administrator" >> /etc/nocbctl.conf
check_eq "conffile edited: nice = 5" 5 "$(conf_get nice)"
edited=$(sha256sum < /etc/nocbctl.conf)
# A newer build: the same files under a higher version.
ver2="$ver+rebuild1"
rm -rf /tmp/pkg2
dpkg-deb -R "$deb" /tmp/pkg2
sed -i "s/^Version: .*/Version: $ver2/" /tmp/pkg2/DEBIAN/control
deb2=/tmp/nocbctl_${ver2}_amd64.deb
check "newer build $ver2 made with dpkg-deb" dpkg-deb --root-owner-group -b /tmp/pkg2 "$deb2"
check "$ver2 is newer than $ver" dpkg --compare-versions "$ver2" gt "$ver"
check "upgrade: offload kthreads tuned by hand: SCHED_FIFO 1 on CPUs 0-1" tune_by_hand
t1=$(now_us)
check "upgrade: apt-get install $ver2, no terminal" apt_do /tmp/upgrade.log apt-get install "$deb2"
check_eq "upgraded: dpkg status" "install ok installed $ver2" "$(pkg_status)"
check_eq "upgraded: the administrator's /etc/nocbctl.conf kept" "$edited" "$(sha256sum < /etc/nocbctl.conf)"
check "upgraded: no conffile prompt" bash -c "! grep -i 'configuration file' /tmp/upgrade.log"
check_eq "upgraded: no .dpkg-new/.dpkg-dist/.dpkg-old beside it" "" \
	"$(ls /etc/nocbctl.conf.* 2>/dev/null | paste -sd' ' -)"
check "upgraded: nocbctl-apply.service not run again" test "$(apply_started)" -lt "$t1"
check "upgraded: offload kthreads as tuned by hand" still_tuned
check "upgraded: systemctl reload nocbctl-apply (the admin asks)" systemctl reload nocbctl-apply.service
check "reloaded: offload kthreads placed per the edited config (nice 5)" placed_per_conf

# --- remove -------------------------------------------------------------------
check "remove: offload kthreads tuned by hand: SCHED_FIFO 1 on CPUs 0-1" tune_by_hand
# What node_exporter would serve: a collector's last file.
prom=/var/lib/prometheus/node-exporter/nocbctl.prom
mkdir -p "${prom%/*}" && echo 'nocb_collector_last_success_timestamp_seconds 1' > $prom
# A stats run the timer has just started, not yet at its exec of nocbctl
# (held here by a runtime drop-in), must be stopped by the removal, not
# left to exec the removed binary and fail.
held=/run/systemd/system/nocbctl-stats.service.d
mkdir -p $held && printf '[Service]\nExecStart=\nExecStart=/bin/sh -c "sleep 600; exec /usr/bin/nocbctl stats"\n' \
	> $held/held.conf
systemctl daemon-reload && systemctl start --no-block nocbctl-stats.service
stats_activating() { [ "$(systemctl is-active nocbctl-stats.service)" = activating ]; }
check "remove: a stats run held in activation" wait_until 30 stats_activating
check "apt-get remove nocbctl" apt_do /tmp/remove.log apt-get remove nocbctl
check_eq "removed: the held stats run stopped" inactive "$(systemctl is-active nocbctl-stats.service)"
rm -r $held && systemctl daemon-reload
check_eq "removed: no nocbctl unit failed" "" \
	"$(systemctl list-units --all --plain --no-legend --state=failed 'nocbctl*' | paste -sd';' -)"
check_eq "removed: dpkg keeps only the configuration" "deinstall ok config-files $ver2" "$(pkg_status)"
check_eq "removed: /etc/nocbctl.conf kept, as edited" "$edited" "$(sha256sum < /etc/nocbctl.conf 2>&1)"
check "removed: /usr/bin/nocbctl gone" test ! -e /usr/bin/nocbctl
check "removed: $prom gone (node_exporter serves no frozen values)" test ! -e $prom
check "removed: offload kthreads as tuned by hand" still_tuned
check_eq "removed: no nocbctl unit running or waiting" "" "$(units_active | paste -sd';' -)"
check_eq "removed: no nocbctl unit file left" "" \
	"$(systemctl list-unit-files --plain --no-legend 'nocbctl*' | paste -sd';' -)"
for u in $UNITS_ENABLED; do
	check "removed: $u not enabled" test "$(systemctl is-enabled "$u" 2>/dev/null)" != enabled
done

# --- purge --------------------------------------------------------------------
check "apt-get purge nocbctl" apt_do /tmp/purge.log apt-get purge nocbctl
check_purged "purged"
check "purged: offload kthreads as tuned by hand" still_tuned

# --- install on a system without nocbctl, no reboot ----------------------------
t0=$(now_us)
check "apt install ./$(basename "$deb")" apt_do /tmp/install.log apt install "./$(basename "$deb")"
check_eq "installed: dpkg status" "install ok installed $ver" "$(pkg_status)"
check_eq "installed: nocbctl --version" "nocbctl $ver" "$(nocbctl --version 2>&1)"
check "installed: nocbctl-apply.service ran during the install" \
	test "$(unit_prop nocbctl-apply.service ExecMainStartTimestampMonotonic)" -gt "$t0"
check_eq "installed: nocbctl-apply.service result" success "$(unit_prop nocbctl-apply.service Result)"
check_eq "installed: nocbctl-apply.service exit status" 0 "$(unit_prop nocbctl-apply.service ExecMainStatus)"
for u in $UNITS_ENABLED; do
	check_eq "installed: $u enabled" enabled "$(systemctl is-enabled "$u" 2>&1)"
done
check_eq "installed: nocbctl-stats.timer active" active "$(systemctl is-active nocbctl-stats.timer)"
check_eq "installed: hotplug check not started (boot only)" 0 \
	"$(unit_prop nocbctl-hotplug-check.service ConditionTimestampMonotonic)"
check_eq "installed: no nocbctl-online@ instance started" "" \
	"$(systemctl list-units --all --plain --no-legend 'nocbctl-online@*')"
# The shipped file asks for nothing, so the host stays as its admin tuned it.
check_eq "installed: the shipped /etc/nocbctl.conf sets no key" "" \
	"$(sed 's/#.*//' /etc/nocbctl.conf | grep -v '^[[:space:]]*$' | paste -sd';' -)"
# apply_said TEXT: the install's run of apply printed TEXT (its journal
# lines, by the run's invocation ID; journald may store them just after).
apply_said() {
	journalctl -q -o cat _SYSTEMD_INVOCATION_ID="$(unit_prop nocbctl-apply.service InvocationID)" |
		grep -qF "$1"
}
check "installed: apply said it changes nothing" wait_until 10 apply_said "apply: /etc/nocbctl.conf sets nothing"
check "installed: offload kthreads as tuned by hand" still_tuned
check "installed: no failed unit" no_failed_units

note "uptime at verdict: $(cut -d" " -f1 /proc/uptime)s"
finish
