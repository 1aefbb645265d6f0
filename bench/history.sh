#!/bin/bash
# history.sh: what a recorded run costs, and what reading the whole history
# holds in memory and costs in CPU, at 100 and at 100,000 recorded runs,
# measured in one run.
# Targets: record cost within 1.3x between the two sizes (issue "lean and
# linear"); history --changes --limit 0 in bounded memory; history --limit
# 0 at 100,000 runs <= 0.5 s CPU (issue 31).
#
# The databases: bench/history-db (one real `smoke --record` on the
# healthy WSL2 fixture, copied with SQL into N runs of 10 machines).
# Record cost: bench/history-record.c, built here against libwslgpu.a,
# calls history_record (what smoke --record does after the checks) $RUNS
# times into each database, a report of every check of the registry: the
# median wall and CPU milliseconds per run. The databases live in $DB_DIR
# (default /dev/shm): there fdatasync costs nothing, so what is measured is
# what depends on the database, not the disk's flush time (synchronous=FULL
# flushes 5 times a run: 10-100 ms each on a loaded VM disk).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/tests/e2e/lib.sh"
runs=${RUNS:-50}
big=${BIG:-100000}
db_dir=${DB_DIR:-/dev/shm}
[ -d "$db_dir" ] && [ -w "$db_dir" ] || db_dir=$WORK
D=$(mktemp -d "$db_dir/wslgpu-bench-history.XXXXXX")
trap 'rm -rf "$WORK" "$D"' EXIT INT TERM
fixture healthy-wsl2
printf '0123456789abcdef0123456789abcdef\n' >"$ROOT/etc/machine-id"

. "$TOP/bench/history-db"

peak_kb() { # peak RSS of: history ARGS...
	env -i PATH=/usr/bin:/bin HOME="$WORK" TZ=UTC /usr/bin/time -f %M -o "$WORK/rss" \
		"$WSLGPU" history "$@" >/dev/null 2>&1
	tail -n 1 "$WORK/rss"
}
cpu_s() { # least CPU seconds (user + sys) of 3 runs of: BINARY history ARGS...
	local bin=$1
	shift
	for _ in 1 2 3; do
		env -i PATH=/usr/bin:/bin HOME="$WORK" TZ=UTC /usr/bin/time -f '%U %S' -o "$WORK/cpu" \
			"$bin" history "$@" >/dev/null 2>&1
		tail -n 1 "$WORK/cpu"
	done | awk '{ t = $1 + $2; if (NR == 1 || t < m) m = t } END { printf "%.2f", m }'
}

s0=$(date +%s)
make_db "$D/small.db" 100
make_db "$D/big.db" "$big"
s1=$(date +%s)
printf 'databases: 100 runs (%s KiB), %s runs (%s MiB), built in %s s\n' \
	"$(( $(stat -c %s "$D/small.db") / 1024 ))" "$big" \
	"$(( $(stat -c %s "$D/big.db") / 1048576 ))" "$((s1 - s0))"

REC=$WORK/history-record
cc -std=c11 -D_GNU_SOURCE -O2 -I"$TOP/src" -o "$REC" "$TOP/bench/history-record.c" \
	"$BUILD/libwslgpu.a" -linih -lsqlite3 -ldl -lm || exit 3
read -r sw sc smw smc <<<"$("$REC" "$D/small.db" "$runs")"
read -r lw lc lmw lmc <<<"$("$REC" "$D/big.db" "$runs")"
awk -v sw="$sw" -v sc="$sc" -v lw="$lw" -v lc="$lc" -v smw="$smw" -v lmw="$lmw" -v n="$big" 'BEGIN {
	printf "record a run at 100 runs:    %7.3f ms wall %7.3f ms CPU (median; mean wall %.3f)\n", sw, sc, smw
	printf "record a run at %6d runs: %7.3f ms wall %7.3f ms CPU (median; mean wall %.3f)\n", n, lw, lc, lmw
	printf "ratio record cost %d/100 runs: wall %.2fx, CPU %.2fx (runs: '"$runs"')\n", n, lw / sw, lc / sc }'
# What each record used to add: PRAGMA quick_check reads the whole file.
qc() { local a b; a=$(date +%s%N); sqlite3 "$1" "PRAGMA quick_check" >/dev/null; b=$(date +%s%N); echo $(( (b - a) / 1000000 )); }
printf 'the quick_check each record ran before: %s ms at 100 runs, %s ms at %s runs\n' \
	"$(qc "$D/small.db")" "$(qc "$D/big.db")" "$big"

rs=$(peak_kb --db "$D/small.db" --changes --limit 0)
rl=$(peak_kb --db "$D/big.db" --changes --limit 0)
rj=$(peak_kb --db "$D/big.db" --json --limit 0)
s0=$(date +%s%N)
env -i PATH=/usr/bin:/bin TZ=UTC COLUMNS=1000 "$WSLGPU" history --db "$D/big.db" --changes --limit 0 >"$WORK/ch.txt"
s1=$(date +%s%N)
awk -v a="$rs" -v b="$rl" -v j="$rj" -v n="$big" -v ms="$(( (s1 - s0) / 1000000 ))" 'BEGIN {
	printf "peak RSS, history --changes --limit 0: %d KiB at 100 runs, %d KiB at %d runs (%.2fx; %d ms)\n", a, b, n, b / a, ms
	printf "peak RSS, history --json --limit 0 at %d runs: %d KiB\n", n, j }'
# The table of runs: CPU (the least of 3 runs; target <= 0.5 s at 100,000).
ct=$(cpu_s "$WSLGPU" --db "$D/big.db" --limit 0)
printf 'CPU, history --limit 0 at %s runs: %s s (least of 3)\n' "$big" "$ct"
# REF_WSLGPU=another build (e.g. of main): its peak RSS and CPU on the same file.
if [ -n "${REF_WSLGPU:-}" ]; then
	W=$WSLGPU
	WSLGPU=$REF_WSLGPU
	rr=$(peak_kb --db "$D/big.db" --changes --limit 0)
	WSLGPU=$W
	awk -v a="$rl" -v b="$rr" -v n="$big" 'BEGIN {
		printf "reference build: %d KiB for history --changes --limit 0 at %d runs (this build %.3fx)\n", b, n, a / b }'
	cr=$(cpu_s "$REF_WSLGPU" --db "$D/big.db" --limit 0)
	awk -v a="$ct" -v b="$cr" -v n="$big" 'BEGIN {
		printf "reference build: %.2f s CPU for history --limit 0 at %d runs (this build %.2fx)\n", b, n, a / (b > 0 ? b : 0.01) }'
fi
# Without a UTF-8 locale (env -i above) the arrow is "->", with one "→".
printf 'transitions shown at %s runs: %s\n' "$big" "$(grep -cE ' (→|->) .*\(machine ' "$WORK/ch.txt")"
done_testing >/dev/null
