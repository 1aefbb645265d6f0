#!/bin/bash
# goals.sh: the goals of issue 31 ("lean on a real machine"), each a ratio
# or a figure measured in this one run, against references measured in the
# same run:
#
#   check on this machine (the real root, no fixture): wall time of the run
#     / its critical path (`check -v` prints both: "critical path: ... (X ms
#     of Y ms)"), median of RUNS runs; goal <= 1.3x (and wall <= 80 ms);
#   explain of a one-line paste / `wslgpu --version`: CPU (user + sys) per
#     run over RUNS runs, and instructions (callgrind, when valgrind is
#     installed: stable where CPU time on a shared machine is not); goal <= 3x;
#   check on the healthy WSL2 fixture: CPU (the tool and its probe children)
#     per run; goal <= 10 ms;
#   history --limit 0 at BIG runs (default 100,000; bench/history-db builds
#     the database): CPU, the least of 3 runs; goal <= 0.5 s.
#
# Benchmarks print numbers and ratios; they pass or fail nothing.
#   RUNS=N (default 20), BIG=N (default 100000; 0 skips the history goal),
#   DB_DIR (default /dev/shm), BUILD=dir (default build).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/tests/e2e/lib.sh"
runs=${RUNS:-20}
big=${BIG:-100000}
db_dir=${DB_DIR:-/dev/shm}
[ -d "$db_dir" ] && [ -w "$db_dir" ] || db_dir=$WORK
TIMEFORMAT='%R %U %S'

# cpu_ms ENV-VARS -- ARGS...: "wall_ms cpu_ms" per run of wslgpu ARGS, averaged.
cpu_ms() {
	local vars=$1 t
	shift 2
	# shellcheck disable=SC2086
	t=$( { time (for _ in $(seq "$runs"); do
		env -i $vars "$WSLGPU" "$@" >/dev/null 2>&1
	done) ; } 2>&1 )
	echo "$t" | awk -v n="$runs" '{printf "%.2f %.2f", $1 * 1000 / n, ($2 + $3) * 1000 / n}'
}
insns() { # instructions of one run of wslgpu ARGS (children included), or "?"
	command -v valgrind >/dev/null || { echo "?"; return; }
	rm -f "$WORK"/cg.*
	env -i PATH=/usr/bin:/bin HOME="$WORK" valgrind --tool=callgrind --trace-children=yes \
		--callgrind-out-file="$WORK/cg.%p" "$WSLGPU" "$@" >/dev/null 2>&1
	cat "$WORK"/cg.* 2>/dev/null | sed -n 's/^summary: //p' | awk '{ s += $1 } END { print s + 0 }'
}

# ---- check on this machine: wall / critical path
base="PATH=/usr/local/bin:/usr/bin:/bin HOME=${HOME:-/root} LANG=C.UTF-8"
cp=$(for _ in $(seq "$runs"); do
	# shellcheck disable=SC2086
	env -i $base COLUMNS=1000 "$WSLGPU" check -v 2>/dev/null |
		sed -n 's/^critical path: .* (\([0-9.]*\) ms of \([0-9.]*\) ms)$/\1 \2/p'
done | awk '{ print $2 / ($1 > 0 ? $1 : 1), $1, $2 }' | sort -n |
	awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }')
read -r cp_ratio cp_ms cp_wall <<<"$cp"
# shellcheck disable=SC2086
path=$(env -i $base COLUMNS=1000 "$WSLGPU" check -v 2>/dev/null | sed -n 's/^critical path: \(.*\) (.*$/\1/p')
printf 'check on this machine: wall %s ms, critical path %s ms (%s), median of %s\n' \
	"${cp_wall:-?}" "${cp_ms:-?}" "${path:-?}" "$runs"

# ---- explain of a one-line paste / --version
line="RuntimeError: CUDA error: no kernel image is available for execution on the device"
read -r v_wall v_cpu <<<"$(cpu_ms "$base" -- --version)"
read -r e_wall e_cpu <<<"$(cpu_ms "$base" -- explain "$line")"
v_in=$(insns --version)
e_in=$(insns explain "$line")
printf 'wslgpu --version:        %6.2f ms CPU, %s instructions\n' "$v_cpu" "$v_in"
printf 'explain (one line):      %6.2f ms CPU, %s instructions\n' "$e_cpu" "$e_in"

# ---- check on the healthy fixture: CPU
fixture healthy-wsl2
vars=$(sh "$TOP/tools/fixture" --env healthy-wsl2 | tr '\n' ' ')
read -r f_wall f_cpu <<<"$(cpu_ms "$vars" -- --root "$ROOT" check)"
printf 'check, healthy fixture:  %6.2f ms CPU, %.1f ms wall\n' "$f_cpu" "$f_wall"

# ---- history --limit 0 at $big runs: CPU
h_cpu=""
if [ "$big" -gt 0 ]; then
	printf '0123456789abcdef0123456789abcdef\n' >"$ROOT/etc/machine-id"
	. "$TOP/bench/history-db"
	D=$(mktemp -d "$db_dir/wslgpu-bench-goals.XXXXXX")
	trap 'rm -rf "$WORK" "$D"' EXIT INT TERM
	make_db "$D/big.db" "$big"
	h_cpu=$(for _ in 1 2 3; do
		env -i PATH=/usr/bin:/bin HOME="$WORK" TZ=UTC /usr/bin/time -f '%U %S' -o "$WORK/cpu" \
			"$WSLGPU" history --db "$D/big.db" --limit 0 >/dev/null 2>&1
		tail -n 1 "$WORK/cpu"
	done | awk '{ t = $1 + $2; if (NR == 1 || t < m) m = t } END { printf "%.2f", m }')
	printf 'history --limit 0:       %s s CPU at %s runs (least of 3)\n' "$h_cpu" "$big"
fi

echo "goals (issue 31), measured in this run:"
awk -v r="${cp_ratio:-0}" -v w="${cp_wall:-0}" -v vc="$v_cpu" -v ec="$e_cpu" -v vi="$v_in" \
	-v ei="$e_in" -v fc="$f_cpu" -v hc="$h_cpu" -v n="$big" 'BEGIN {
	printf "  %-44s %8.2fx  goal <= 1.3x (wall %.0f ms, goal <= 80 ms)\n",
		"check wall / critical path, this machine:", r, w
	if (vc <= 0) vc = 0.01
	printf "  %-44s %8.2fx  goal <= 3x", "explain one line / --version, CPU:", ec / vc
	if (vi + 0 > 0 && ei + 0 > 0) printf " (instructions: %.2fx)", ei / vi
	printf "\n"
	printf "  %-44s %6.1f ms  goal <= 10 ms\n", "check CPU, healthy fixture:", fc
	if (hc != "") printf "  %-44s %7.2f s  goal <= 0.5 s\n", "history --limit 0 CPU at " n " runs:", hc
}'
done_testing >/dev/null
