#!/bin/bash
# check.sh: what a full `wslgpu check` costs on the healthy WSL2 fixture (fake
# libcuda and NVML, a stand-in nvidia-smi), as ratios against references
# measured in the same run:
#
#   - CPU, the tool and all its children (user + sys, as `time` counts them),
#     against `wslgpu --version` (starting the process: the dynamic loader
#     maps ~45 libraries) and against `check --no-fork` (every probe in one
#     process: the cost of the probes themselves, without isolation);
#   - wall time against the critical path, the longest chain of dependent
#     probes (`check -v` prints it: "critical path: ... (X ms of Y ms)");
#     target (issue "lean and linear"): <= 1.2.
#
# Benchmarks print numbers and ratios; they pass or fail nothing.
#   RUNS=N (default 20) runs of each; BUILD=dir (default build).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/tests/e2e/lib.sh"
fixture healthy-wsl2
runs=${RUNS:-20}
vars=$(sh "$TOP/tools/fixture" --env healthy-wsl2 | tr '\n' ' ')
TIMEFORMAT='%R %U %S'
# measure ARGS...: "wall_ms cpu_ms" per run, averaged over $runs runs.
measure() {
	local t
	# shellcheck disable=SC2086
	t=$( { time (for _ in $(seq "$runs"); do
		env -i $vars "$WSLGPU" "$@" >/dev/null 2>&1
	done) ; } 2>&1 )
	echo "$t" | awk -v n="$runs" '{printf "%.1f %.1f", $1 * 1000 / n, ($2 + $3) * 1000 / n}'
}
read -r ver_wall ver_cpu <<<"$(measure --version)"
read -r nf_wall nf_cpu <<<"$(measure --root "$ROOT" check --no-fork)"
read -r all_wall all_cpu <<<"$(measure --root "$ROOT" check)"
read -r ref_wall ref_cpu <<<"$(measure --root "$ROOT" check --only platform.kind)"
# The critical path and the run's own wall time, median of $runs runs (COLUMNS=1000:
# the line unwrapped).
cp=$(for _ in $(seq "$runs"); do
	# shellcheck disable=SC2086
	env -i $vars COLUMNS=1000 "$WSLGPU" --root "$ROOT" check -v 2>/dev/null |
		sed -n 's/^critical path: .* (\([0-9.]*\) ms of \([0-9.]*\) ms)$/\1 \2/p'
done | awk '{ print $2 / ($1 > 0 ? $1 : 1), $1, $2 }' | sort -n |
	awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }')
read -r cp_ratio cp_ms cp_wall <<<"$cp"
path=$(env -i $vars COLUMNS=1000 "$WSLGPU" --root "$ROOT" check -v 2>/dev/null | sed -n 's/^critical path: \(.*\) (.*$/\1/p')
printf 'wslgpu --version (process start):   %6.1f ms wall %6.1f ms CPU\n' "$ver_wall" "$ver_cpu"
printf 'check --only platform.kind:         %6.1f ms wall %6.1f ms CPU\n' "$ref_wall" "$ref_cpu"
printf 'check --no-fork (no isolation):     %6.1f ms wall %6.1f ms CPU\n' "$nf_wall" "$nf_cpu"
printf 'check (everything):                 %6.1f ms wall %6.1f ms CPU\n' "$all_wall" "$all_cpu"
printf 'critical path: %s\n' "$path"
awk -v a="$all_cpu" -v v="$ver_cpu" -v f="$nf_cpu" -v w="$all_wall" -v cw="$cp_wall" \
	-v cm="$cp_ms" -v cr="$cp_ratio" -v n="$runs" 'BEGIN {
	if (v <= 0) v = 0.1; if (f <= 0) f = 0.1; if (cm <= 0) cm = 0.1
	printf "ratio CPU check / process start:    %.2fx (the probes and isolation: %.1f ms)\n", a / v, a - v
	printf "ratio CPU check / check --no-fork:  %.2fx (isolation: %.1f ms)\n", a / f, a - f
	printf "ratio wall / critical path:         %.2fx in the run (%.0f ms of %.0f ms), %.2fx with process start (median of %d)\n",
		cr, cw, cm, w / cm, n }'
done_testing >/dev/null
