#!/bin/bash
# watch-overhead.sh: what watching costs. Runs a busy job (a CPU burner and
# four busy workers, like a training process with DataLoader workers) for
# $SECS seconds (default 30) under `wslgpu watch --interval 100ms` (10 Hz)
# and reports the CPU time of watch itself and of its GPU sampler (from
# --self-stats: getrusage(RUSAGE_SELF) and the sampler's wait4 rusage) as a
# share of one core and of the job's CPU time. The GPU sampler runs once
# against the fake NVML of tests/fakes (when built) and once without NVML.
# Target (issue "watch"): under 1 % of one core at 10 Hz.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD="$TOP/$BUILD" ;; esac
WSLGPU="$BUILD/wslgpu"
SECS=${SECS:-30}
[ -x "$WSLGPU" ] || { echo "no $WSLGPU: run make first" >&2; exit 3; }

job="for i in 1 2 3 4; do (while :; do :; done) & done; while :; do :; done"

measure() { # label, interval, --nvml-lib option or "", extra env...
	label=$1
	interval=$2
	nvml=$3
	shift 3
	line=$(env "$@" "$WSLGPU" watch --self-stats -q --interval "$interval" $nvml -- \
		timeout "$SECS" sh -c "$job" 2>&1 >/dev/null | grep '^watch-self-stats:')
	if [ -z "$line" ]; then
		echo "$label: no self-stats line" >&2
		return
	fi
	echo "$line" | awk -v label="$label" '{
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		own = v["watch_cpu_s"] + v["sampler_cpu_s"]
		printf "%-34s watch %6.3f s + GPU sampler %6.3f s CPU over %5.1f s wall (%d points):" \
			" %5.2f %% of one core, %5.3f %% of the job'"'"'s %6.1f s CPU\n", label,
			v["watch_cpu_s"], v["sampler_cpu_s"], v["wall_s"], v["points"],
			own / v["wall_s"] * 100, own / v["job_cpu_s"] * 100, v["job_cpu_s"]
	}'
}

none=--nvml-lib=/nonexistent/libnvidia-ml.so.1
measure "10 Hz, no NVML" 100ms "$none"
if [ -f "$BUILD/fakes/libnvidia-ml.so.1" ]; then
	measure "10 Hz, fake NVML (WSL-like)" 100ms "" LD_LIBRARY_PATH="$BUILD/fakes"
	measure "10 Hz, fake NVML (utilisation)" 100ms "" LD_LIBRARY_PATH="$BUILD/fakes" \
		FAKE_NVML_UNSUPPORTED=processes FAKE_NVML_UTIL=90
fi
measure "10 Hz, this machine's NVML, if any" 100ms ""
measure "1 Hz (the default), no NVML" 1s "$none"
