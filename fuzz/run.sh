#!/bin/sh
# run.sh: runs every fuzz target (build-fuzz/fuzz_*, built by `make fuzz`)
# for SECONDS (default 20) on a scratch copy of its corpus
# (fuzz/corpus/NAME/, seeded from the test fixtures by tools/fuzz-seed.sh),
# JOBS targets at a time (default 2), and prints one line per target:
#
#   fuzz_core: 123456 runs in 15 s
#
# Any crash, leak, sanitizer report or time-out fails the script (exit 1);
# the input that caused it is kept in build-fuzz/crashes/NAME/ (the path is
# printed) with the tail of the fuzzer's log. New corpus entries found on
# the way stay in the scratch copy: the committed corpus changes only by
# hand (copy from build-fuzz/corpus-out/NAME/ after a long run).
#
#   fuzz/run.sh [SECONDS]        BUILD=build-fuzz JOBS=2 by default
set -u
cd "$(dirname "$0")/.." || exit 3
BUILD=${BUILD:-build-fuzz}

if [ "${1:-}" = --one ]; then
	# One target; called by the pool below. Prints its line, exits 1 on a find.
	t=$2
	secs=$3
	name=${t##*/fuzz_}
	corpus=fuzz/corpus/$name
	work=$BUILD/corpus-out/$name
	crashes=$BUILD/crashes/$name
	rm -rf "$work"
	mkdir -p "$work" "$crashes"
	[ -d "$corpus" ] && cp -r "$corpus"/. "$work"/
	log=$BUILD/logs/fuzz_$name.log
	mkdir -p "$BUILD/logs"
	# -rss_limit_mb keeps a parser that balloons on hostile input a find;
	# -timeout=10 makes one input that spins a find too.
	"$t" -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
		-print_final_stats=1 -artifact_prefix="$crashes/" "$work" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -1)
	[ -n "$execs" ] || execs=$(grep -Eo '^#[0-9]+' "$log" | tail -1 | tr -d '#')
	if [ $rc -eq 0 ]; then
		echo "fuzz_$name: ${execs:-?} runs in $secs s"
		rmdir "$crashes" 2>/dev/null
		exit 0
	fi
	echo "fuzz_$name: FAILED (exit $rc) after ${execs:-?} runs; inputs kept in $crashes/, log $log"
	grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log" | head -10 | sed 's/^/    /'
	exit 1
fi

SECONDS_EACH=${1:-20}
JOBS=${JOBS:-2}
export BUILD
set -- "$BUILD"/fuzz_*
if [ ! -x "$1" ]; then
	echo "run.sh: no fuzz targets in $BUILD/ (run make fuzz first)" >&2
	exit 3
fi
# xargs exits 123 when any invocation failed.
for t in "$@"; do [ -x "$t" ] && echo "$t"; done |
	xargs -P "$JOBS" -I{} sh fuzz/run.sh --one {} "$SECONDS_EACH"
status=$?
[ $status -eq 0 ] || { echo "run.sh: a fuzz target found a crash" >&2; exit 1; }
echo "run.sh: every target ran $SECONDS_EACH s without a crash"
