#!/bin/bash
# history.sh: what a recorded run costs, and what reading the whole history
# holds in memory, at 100 and at 100,000 recorded runs, measured in one run.
# Target (issue "lean and linear"): record cost within 1.3x between the
# two sizes; history --changes --limit 0 in bounded memory.
#
# The databases: one real `smoke --record` on the healthy WSL2 fixture,
# copied with SQL into N runs of 10 machines (every run's checks and facts
# copied too, one machine's driver going down and up again, so that
# --changes has transitions to show).
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

make_db() { # make_db FILE N
	rm -f "$1" "$1"-wal "$1"-shm
	run smoke --record --db "$1" >/dev/null
	sqlite3 "$1" >/dev/null <<EOF2
PRAGMA journal_mode=WAL;
PRAGMA synchronous=OFF;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < $2)
INSERT INTO runs SELECT i, strftime('%Y-%m-%dT%H:%M:%SZ', '2024-01-01', '+' || i || ' minutes'),
  duration_ms, command, exit_status, printf('%016x', i % 10), tool_version, policy_path, verdict,
  first_failure FROM n, runs WHERE runs.id = 1;
INSERT INTO checks SELECT r.id, c.seq, c.check_id, c.status, c.kb, c.detail, c.ms
  FROM runs r, checks c WHERE r.id > 1 AND c.run_id = 1;
INSERT INTO facts SELECT r.id, f.seq, f.key,
  CASE WHEN f.key = 'driver.version' AND r.id % 70 = 0 THEN '531.79' ELSE f.value END
  FROM runs r, facts f WHERE r.id > 1 AND f.run_id = 1;
COMMIT;
EOF2
}

peak_kb() { # peak RSS of: history ARGS...
	env -i PATH=/usr/bin:/bin HOME="$WORK" TZ=UTC /usr/bin/time -f %M -o "$WORK/rss" \
		"$WSLGPU" history "$@" >/dev/null 2>&1
	tail -n 1 "$WORK/rss"
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
# REF_WSLGPU=another build (e.g. of main): its peak RSS on the same file.
if [ -n "${REF_WSLGPU:-}" ]; then
	W=$WSLGPU
	WSLGPU=$REF_WSLGPU
	rr=$(peak_kb --db "$D/big.db" --changes --limit 0)
	WSLGPU=$W
	awk -v a="$rl" -v b="$rr" -v n="$big" 'BEGIN {
		printf "reference build: %d KiB for history --changes --limit 0 at %d runs (this build %.3fx)\n", b, n, a / b }'
fi
printf 'transitions shown at %s runs: %s\n' "$big" "$(grep -c ' → .*(machine ' "$WORK/ch.txt")"
done_testing >/dev/null
