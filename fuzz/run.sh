#!/bin/sh
# run.sh: runs every fuzz target for SECONDS (default 20) on its corpus
# (fuzz/corpus/NAME, seeded from the test fixtures) and prints the number
# of executions. Any crash fails the script.
set -u
SECONDS_EACH=${1:-20}
BUILD=${BUILD:-build-fuzz}
cd "$(dirname "$0")/.." || exit 3
status=0
for t in "$BUILD"/fuzz_*; do
	[ -x "$t" ] || continue
	name=${t##*/fuzz_}
	corpus=fuzz/corpus/$name
	mkdir -p "$corpus"
	work=$(mktemp -d)
	cp -r "$corpus"/. "$work"/ 2>/dev/null
	log=$(mktemp)
	"$t" -max_total_time="$SECONDS_EACH" -max_len=65536 -rss_limit_mb=2048 \
		-timeout=10 "$work" >"$log" 2>&1
	rc=$?
	execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
	[ -n "$execs" ] || execs=$(grep -Eo '#[0-9]+' "$log" | tail -1 | tr -d '#')
	echo "fuzz $name: ${execs:-?} executions in ${SECONDS_EACH}s, exit $rc"
	if [ $rc -ne 0 ]; then
		tail -40 "$log"
		status=1
	fi
	rm -rf "$work" "$log"
done
exit $status
