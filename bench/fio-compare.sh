#!/bin/sh
# fio-compare.sh: measure sequential write and read throughput in one
# directory with `wslgpu bench io` and with fio, using the same block size,
# file size and method, and print the ratio (wslgpu / fio) for each. The
# target is agreement within ±10 %; the numbers are printed as measured,
# whatever they are.
#
#   bench/fio-compare.sh [DIR] [SIZE] [BLOCK]     (defaults: . 256M 1M)
#   RUNS=3 (alternating runs; the median of each is compared)
#   WSLGPU=path/to/wslgpu (default $BUILD/wslgpu, BUILD=build)
#
# Method matching: wslgpu uses O_DIRECT where the file system accepts it,
# else buffered writes + fsync and FADV_DONTNEED before reading. fio gets
# direct=1 in the first case; in the second direct=0 with end_fsync=1 for
# the write and its default invalidate=1 (which drops the file's cached
# pages with the same fadvise) for the read. Both use one job, synchronous
# read/write calls (ioengine=psync) and a fresh file that is not
# preallocated (fio's default fallocate=native would make its O_DIRECT
# writes convert unwritten extents, about half as fast on ext4; wslgpu
# writes a new file as a program saving data does).
#
# Needs fio (Debian/Ubuntu: apt-get install fio) and jq.
set -eu
DIR=${1:-.}
SIZE=${2:-256M}
BLOCK=${3:-1M}
RUNS=${RUNS:-3}
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD="$top/$BUILD" ;; esac
WSLGPU=${WSLGPU:-$BUILD/wslgpu}

for tool in fio jq; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "fio-compare: $tool is not installed (apt-get install $tool)" >&2
		exit 3
	fi
done
[ -x "$WSLGPU" ] || { echo "fio-compare: no $WSLGPU (run make)" >&2; exit 3; }
[ -d "$DIR" ] || { echo "fio-compare: $DIR is not a directory" >&2; exit 2; }

scratch=$(mktemp -d "$DIR/.fio-compare.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

w_ws="" r_ws="" w_fio="" r_fio="" method=""
i=0
while [ $i -lt "$RUNS" ]; do
	i=$((i + 1))
	# wslgpu: sequential phases only (--files 0), no time bound in the way.
	"$WSLGPU" bench io "$DIR" --size "$SIZE" --block "$BLOCK" --files 0 --seconds 3600 \
		--json >"$scratch/ws.json" || { echo "fio-compare: wslgpu bench io failed" >&2; exit 1; }
	m=$(jq -r '.io.locations[0].method' "$scratch/ws.json")
	method=$m
	w_ws="$w_ws $(jq '.io.locations[0].write.bytes_per_s' "$scratch/ws.json")"
	r_ws="$r_ws $(jq '.io.locations[0].read.bytes_per_s' "$scratch/ws.json")"

	case "$m" in
	O_DIRECT) direct=1 ;;
	*) direct=0 ;;
	esac
	f="$scratch/fio.dat"
	rm -f "$f"
	fio --name=write --filename="$f" --rw=write --bs="$BLOCK" --size="$SIZE" \
		--ioengine=psync --direct=$direct --end_fsync=1 --fallocate=none --numjobs=1 \
		--output-format=json >"$scratch/w.json" 2>"$scratch/fio.err" ||
		{ cat "$scratch/fio.err" >&2; exit 1; }
	fio --name=read --filename="$f" --rw=read --bs="$BLOCK" --size="$SIZE" \
		--ioengine=psync --direct=$direct --invalidate=1 --numjobs=1 \
		--output-format=json >"$scratch/r.json" 2>"$scratch/fio.err" ||
		{ cat "$scratch/fio.err" >&2; exit 1; }
	rm -f "$f"
	w_fio="$w_fio $(jq '.jobs[0].write.bw_bytes' "$scratch/w.json")"
	r_fio="$r_fio $(jq '.jobs[0].read.bw_bytes' "$scratch/r.json")"
done

report() {
	name=$1 ws=$2 fio=$3
	mw=$(printf '%s\n' $ws | median)
	mf=$(printf '%s\n' $fio | median)
	awk -v n="$name" -v a="$mw" -v b="$mf" -v runs_a="$ws" -v runs_b="$fio" 'BEGIN {
		r = (b > 0) ? a / b : 0
		verdict = (r >= 0.9 && r <= 1.1) ? "within ±10 %" : "OUTSIDE ±10 %"
		printf "%-17s wslgpu %8.1f MiB/s   fio %8.1f MiB/s   ratio %.3f  %s\n", n, a / 1048576, b / 1048576, r, verdict
		na = split(runs_a, x, " "); nb = split(runs_b, y, " ")
		printf "%-17s runs: wslgpu", ""
		for (i = 1; i <= na; i++) printf " %.1f", x[i] / 1048576
		printf "; fio"
		for (i = 1; i <= nb; i++) printf " %.1f", y[i] / 1048576
		printf " (MiB/s)\n"
	}'
}

echo "directory $DIR ($(findmnt -n -o FSTYPE -T "$DIR" 2>/dev/null | head -1)), file $SIZE, block $BLOCK, method $method, $RUNS runs, median"
report "sequential write" "$w_ws" "$w_fio"
report "sequential read" "$r_ws" "$r_fio"
