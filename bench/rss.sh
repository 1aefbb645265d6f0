#!/bin/bash
# rss.sh: peak resident memory of `wslgpu check` on the worst inputs the
# fault matrix (tests/e2e/faults.sh) builds, against the same check on the
# healthy fixture, measured in the same run with /usr/bin/time -f %M (or
# python3's resource module where GNU time is missing).
#
# Peak RSS here is the largest of the tool's process and its probe children
# (getrusage RUSAGE_CHILDREN keeps the maximum over waited-for descendants).
# What bounds it: rootfs_read reads at most 4 MiB of any file, a driver
# library is read in 128 KiB windows (its headers first: a file that is no
# ELF library costs 64 bytes), mountinfo keeps at most 48 MiB of entries, a
# probe's own output is kept to 64 KiB, a command's stdout and stderr to
# 256 KiB each; everything beyond is read and dropped.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/tests/e2e/lib.sh"

peak_kb() { # peak_kb ROOT ARGS...: prints the peak RSS in KiB of one check
	local root=$1
	shift
	local vars="PATH=/usr/local/bin:/usr/bin:/bin HOME=/home/user LANG=C.UTF-8 PWD=/home/user
		WSL_DISTRO_NAME=Ubuntu-22.04 WSL_INTEROP=/run/WSL/1_interop"
	if [ -x /usr/bin/time ]; then
		# shellcheck disable=SC2086
		env -i $vars /usr/bin/time -f %M -o "$WORK/rss" "$WSLGPU" --root "$root" --json \
			--timeout 3 "$@" >/dev/null 2>&1
		tail -n 1 "$WORK/rss"
	else
		# shellcheck disable=SC2086
		env -i $vars python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' \
			"$WSLGPU" --root "$root" --json --timeout 3 "$@"
	fi
}

fixture healthy-torch
base=$ROOT
ref=$(peak_kb "$base")
printf '%-52s %8s KiB\n' "check, healthy-torch (reference)" "$ref"

# variant NAME SETUP: a copy of the fixture, broken by the shell code SETUP
# (run with $R the copy's root), then measured.
variant() {
	local name=$1 setup=$2
	R=$WORK/v
	rm -rf "$R"
	cp -a "$base" "$R"
	eval "$setup"
	local kb
	kb=$(peak_kb "$R")
	awk -v n="$name" -v k="$kb" -v r="$ref" 'BEGIN { printf "%-52s %8s KiB  %.2fx\n", n, k, k / r }'
	echo "$kb" >>"$WORK/all"
	rm -rf "$R"
}
flood='#!/bin/sh
yes "flood flood flood flood flood flood flood flood" | head -c 100000000'

variant "100 MB sparse /proc/meminfo" 'rm -f $R/proc/meminfo; truncate -s 100M $R/proc/meminfo'
variant "100 MB text /proc/self/mountinfo" \
	'l=$(head -n 1 $R/proc/self/mountinfo); yes "$l" | head -c 100000000 >$R/proc/self/mountinfo'
variant "100 MB text /proc/modules" \
	'yes "nvidia_uvm 1437696 0 - Live 0x0000000000000000 (POE)" | head -c 100000000 >$R/proc/modules'
variant "100 MB sparse /etc/ld.so.cache" 'rm -f $R/etc/ld.so.cache; truncate -s 100M $R/etc/ld.so.cache'
variant "100 MB sparse libcuda.so.1" \
	'rm -f $R/usr/lib/wsl/lib/libcuda.so.1; truncate -s 100M $R/usr/lib/wsl/lib/libcuda.so.1'
variant "nvidia-smi floods 100 MB" 'printf "%s\n" "$flood" >$R/usr/lib/wsl/lib/nvidia-smi'
variant "python3 floods 100 MB (4 frameworks at once)" 'printf "%s\n" "$flood" >$R/usr/bin/python3'
variant "all of the above at once" '
	for f in proc/meminfo etc/ld.so.cache usr/lib/wsl/lib/libcuda.so.1; do
		rm -f $R/$f; truncate -s 100M $R/$f
	done
	l=$(head -n 1 $R/proc/self/mountinfo); yes "$l" | head -c 100000000 >$R/proc/self/mountinfo
	yes "nvidia_uvm 1437696 0 - Live 0x0000000000000000 (POE)" | head -c 100000000 >$R/proc/modules
	printf "%s\n" "$flood" >$R/usr/lib/wsl/lib/nvidia-smi
	printf "%s\n" "$flood" >$R/usr/bin/python3'
worst=$(sort -n "$WORK/all" | tail -n 1)
awk -v w="$worst" -v r="$ref" 'BEGIN { printf "worst peak RSS %s KiB = %.2fx the healthy run (%.1f MiB)\n", w, w / r, w / 1024 }'
done_testing >/dev/null
