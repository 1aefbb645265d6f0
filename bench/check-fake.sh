#!/bin/bash
# check-fake.sh: wall and CPU time (user + sys of the tool and its probe
# processes) of the whole `wslgpu check` on the healthy WSL2 fixture, with
# the fake libcuda (tests/fakes/libcuda.c) standing in for the driver, so
# that the cuda layer really loads a library, JIT-loads the embedded PTX and
# launches, copies back and checks 1M elements twice. The reference, measured
# in the same run, is `check --only platform`: the fixed cost of starting the
# tool and forking probes. Prints numbers and ratios; passes or fails nothing.
#   RUNS=N (default 20) runs of each; BUILD=dir (default build).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD="$TOP/$BUILD" ;; esac
WSLGPU="$BUILD/wslgpu"
FAKES="$BUILD/fakes"
runs=${RUNS:-20}
for f in "$WSLGPU" "$FAKES/libcuda.so.1"; do
	[ -e "$f" ] || { echo "check-fake: $f missing (run make check BUILD=...)" >&2; exit 3; }
done

# The fixture, as tests/e2e/lib.sh prepares it: fakes in the placeholders,
# an ld.so.cache from the real ldconfig.
WORK=$(mktemp -d "${TMPDIR:-/tmp}/wslgpu-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM
ROOT="$WORK/root"
cp -a "$TOP/tests/fixtures/healthy-wsl2/root" "$ROOT"
grep -rl '^#fake ' "$ROOT" 2>/dev/null | while read -r f; do
	name=$(sed -n '1s/^#fake \([^ ]*\).*/\1/p' "$f")
	[ -f "$FAKES/$name" ] && cp "$FAKES/$name" "$f"
done
lc=$(command -v ldconfig || echo /sbin/ldconfig)
if [ "$(id -u)" = 0 ]; then
	"$lc" -X -r "$ROOT" >/dev/null 2>&1
else
	unshare -r "$lc" -X -r "$ROOT" >/dev/null 2>&1
fi

env_of_fixture=(PATH=/usr/bin:/bin HOME=/home/user LANG=C.UTF-8 PWD=/home/user
	WSL_DISTRO_NAME=Ubuntu-22.04 WSL_INTEROP=/run/WSL/1_interop USER=user)

# Prints "wall_ms cpu_ms" per run, averaged over $runs runs of check ARGS.
measure() {
	local t
	TIMEFORMAT='%R %U %S'
	t=$( { time (for _ in $(seq "$runs"); do
		env -i "${env_of_fixture[@]}" "$WSLGPU" check --root "$ROOT" "$@" >/dev/null
	done); } 2>&1 )
	echo "$t" | awk -v n="$runs" '{printf "%.1f %.1f", $1 * 1000 / n, ($2 + $3) * 1000 / n}'
}

# The cuda layer must really pass here, or the numbers mean nothing.
if ! env -i "${env_of_fixture[@]}" "$WSLGPU" check --root "$ROOT" --only cuda >/dev/null; then
	echo "check-fake: the cuda layer does not pass on the fixture; not measuring" >&2
	exit 1
fi

read -r ref_wall ref_cpu <<<"$(measure --only platform)"
read -r cuda_wall cuda_cpu <<<"$(measure --only cuda)"
read -r all_wall all_cpu <<<"$(measure)"
printf 'check --only platform (reference): %7.1f ms wall %7.1f ms CPU\n' "$ref_wall" "$ref_cpu"
printf 'check --only cuda (fake libcuda):  %7.1f ms wall %7.1f ms CPU\n' "$cuda_wall" "$cuda_cpu"
printf 'check, everything:                 %7.1f ms wall %7.1f ms CPU\n' "$all_wall" "$all_cpu"
awk -v a="$all_wall" -v r="$ref_wall" -v c="$all_cpu" -v rc="$ref_cpu" \
	-v cw="$cuda_wall" -v cc="$cuda_cpu" -v n="$runs" 'BEGIN {
	if (r <= 0) r = 0.1; if (rc <= 0) rc = 0.1
	printf "ratio cuda/reference: wall %.2fx, CPU %.2fx\n", cw / r, cc / rc
	printf "ratio full/reference: wall %.2fx, CPU %.2fx (runs: %d)\n", a / r, c / rc, n }'
