#!/bin/bash
# dpkg.sh: how often one run reads dpkg's database, and what it costs. On
# a copy of the distro-libcuda fixture given LISTS package lists of PATHS
# paths each (a desktop Ubuntu with CUDA has ~2,000 lists, ~300,000 paths):
# the scans of /var/lib/dpkg/info and the reads of /var/lib/dpkg/status in
# one `check --only libs,toolkit` (strace -f: every process of the run),
# and its time against the same check on the fixture as it is.
# A scan is per process (src/parse/dpkg.h): each probe that asks builds the
# index once; probes that share a process share it.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/tests/e2e/lib.sh"
lists=${LISTS:-2000}
paths=${PATHS_PER_LIST:-150}
runs=${RUNS:-5}
fixture distro-libcuda
small=$ROOT
cp -a "$small" "$WORK/big"
big=$WORK/big
awk -v n="$lists" -v p="$paths" -v d="$big/var/lib/dpkg/info" 'BEGIN {
	for (i = 0; i < n; i++) {
		f = sprintf("%s/pkg%05d.list", d, i)
		for (j = 0; j < p; j++) printf "/usr/share/pkg%05d/file%04d.dat\n", i, j > f
		close(f)
	} }'
vars="PATH=/usr/local/bin:/usr/bin:/bin HOME=/home/user LANG=C.UTF-8 PWD=/home/user"
ms() { # ms per run of check on root $1
	local s0 s1
	s0=$(date +%s%N)
	# shellcheck disable=SC2086
	for _ in $(seq "$runs"); do env -i $vars "$WSLGPU" --root "$1" --only libs,toolkit >/dev/null 2>&1; done
	s1=$(date +%s%N)
	awk -v a="$s0" -v b="$s1" -v n="$runs" 'BEGIN { printf "%.1f", (b - a) / 1e6 / n }'
}
a=$(ms "$small")
b=$(ms "$big")
printf 'check --only libs,toolkit: %s ms on the fixture, %s ms with %s lists of %s paths (%.2fx)\n' \
	"$a" "$b" "$lists" "$paths" "$(awk -v a="$a" -v b="$b" 'BEGIN { print b / a }')"
# REF_WSLGPU=another build (e.g. of main) measures the same on it.
if [ -n "${REF_WSLGPU:-}" ]; then
	W=$WSLGPU
	WSLGPU=$REF_WSLGPU
	ra=$(ms "$small")
	rb=$(ms "$big")
	WSLGPU=$W
	printf 'reference build %s: %s ms on the fixture, %s ms with the lists; this build / reference: %.2fx\n' \
		"$REF_WSLGPU" "$ra" "$rb" "$(awk -v a="$b" -v b="$rb" 'BEGIN { print a / b }')"
fi
if command -v strace >/dev/null; then
	# shellcheck disable=SC2086
	env -i $vars strace -f -qq -e trace=openat -o "$WORK/st" "$WSLGPU" --root "$big" \
		--only libs,toolkit >/dev/null 2>&1
	scans=$(grep -c 'var/lib/dpkg/info", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY' "$WORK/st")
	status=$(grep -c 'var/lib/dpkg/status"' "$WORK/st")
	procs=$(grep 'var/lib/dpkg/info", O_RDONLY' "$WORK/st" | awk '{print $1}' | sort -u | wc -l)
	lreads=$(grep -c 'pkg00000\.list"' "$WORK/st")
	printf 'one run: %s scans of /var/lib/dpkg/info (in %s processes), pkg00000.list read %s times, /var/lib/dpkg/status opened %s times\n' \
		"$scans" "$procs" "$lreads" "$status"
else
	echo "(strace not installed: scans not counted)"
fi
done_testing >/dev/null
