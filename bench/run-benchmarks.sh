#!/bin/sh
# run-benchmarks.sh: runs every benchmark in bench/ (make bench). Benchmarks
# print measurements and ratios against a reference measured in the same
# run; none of them pass or fail on a number. bench/rss.sh (peak memory of
# check on the fault matrix's worst inputs) is one of them, like every
# bench/*.sh.
BUILD=${BUILD:-build}
export BUILD
cd "$(dirname "$0")/.." || exit 3
for b in bench/*.sh; do
	case "$b" in */run-benchmarks.sh) continue ;; esac
	echo "== $b"
	bash "$b"
done
