#!/bin/bash
# check.sh: wall and CPU time of a full `wslgpu check` on the healthy WSL2
# fixture, against a reference run of the platform layer alone in the same
# script (the fixed cost of starting the tool and forking probes).
# Target (issue "check part 1"): < 50 ms CPU for the file-level layers.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/tests/e2e/lib.sh"
fixture healthy-wsl2
runs=${RUNS:-20}
TIMEFORMAT='%R %U %S'
measure() {
	local t
	t=$( { time (for _ in $(seq "$runs"); do
		env -i PATH=/usr/bin:/bin PWD=/home/user WSL_DISTRO_NAME=Ubuntu-22.04 \
			WSL_INTEROP=/run/WSL/1_interop "$WSLGPU" --root "$ROOT" "$@" >/dev/null
	done) ; } 2>&1 )
	echo "$t" | awk -v n="$runs" '{printf "%.1f %.1f", $1 * 1000 / n, ($2 + $3) * 1000 / n}'
}
read -r ref_wall ref_cpu <<<"$(measure --only platform.kind)"
read -r all_wall all_cpu <<<"$(measure)"
read -r file_wall file_cpu <<<"$(measure --only platform,bridge,host,libs,perf)"
printf 'check --only platform.kind (reference): %6.1f ms wall %6.1f ms CPU\n' "$ref_wall" "$ref_cpu"
printf 'check, file-level layers:              %6.1f ms wall %6.1f ms CPU\n' "$file_wall" "$file_cpu"
printf 'check, everything built:               %6.1f ms wall %6.1f ms CPU\n' "$all_wall" "$all_cpu"
awk -v a="$all_wall" -v r="$ref_wall" -v c="$all_cpu" -v rc="$ref_cpu" \
	'BEGIN {printf "ratio full/reference: wall %.2fx, CPU %.2fx (runs: '"$runs"')\n", a / r, c / rc}'
done_testing >/dev/null
