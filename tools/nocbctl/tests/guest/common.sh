# Helpers shared by the nocbctl guest tests (sourced after guest-lib.sh).
# They read /proc directly, independently of nocbctl.

NOCBCTL=${NOCBCTL:-/usr/bin/nocbctl}

# offload_pids: pid of every rcuog/N and rcuop/N kthread, one a line
offload_pids() {
	local d c
	for d in /proc/[0-9]*; do
		c=$(cat "$d/comm" 2>/dev/null) || continue
		case $c in rcuog/*|rcuop/*) echo "${d#/proc/}" ;; esac
	done
}

# allowed_of PID: Cpus_allowed_list from /proc/PID/status
allowed_of() { awk '/^Cpus_allowed_list:/ { print $2 }' "/proc/$1/status"; }

comm_of() { cat "/proc/$1/comm"; }

# json_ok: stdin is one valid JSON document
json_ok() {
	if ! command -v python3 >/dev/null; then
		echo "python3 is not in the image" >&2
		return 1
	fi
	python3 -m json.tool >/dev/null
}

# json_get EXPR: evaluate a Python expression on the document d (stdin)
json_get() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
