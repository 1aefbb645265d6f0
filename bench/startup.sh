#!/bin/bash
# startup.sh: start-up time and shared libraries of commands that neither
# push nor bundle, against /bin/true measured in the same loop, and against
# the same objects linked the old ways (libcurl, libarchive and SQLite as
# DT_NEEDED, as before they were opened at use: src/core/dynlib.h; and SQLite
# alone, as before src/history/sqlite_api.c), with callgrind's instruction
# counts of --version where valgrind is installed (wall times on a shared VM
# are noisy; instructions are not).
# Target (issue "lean and linear"): <= 3 ms and about a dozen libraries;
# explain of a one-line paste <= 3x --version.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD="$TOP/$BUILD" ;; esac
W=$BUILD/wslgpu
runs=${RUNS:-300}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wslgpu-startup.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The reference link: the same main.o and libwslgpu.a, the old LDLIBS.
old=$tmp/wslgpu-linked
if ! cc -pie -Wl,-z,relro,-z,now -Wl,--no-as-needed -o "$old" "$BUILD/src/cli/main.o" \
	"$BUILD/libwslgpu.a" -linih -lsqlite3 -lcurl -larchive -ldl -lm 2>"$tmp/ld.err"; then
	old=""
	echo "(no reference link: $(head -n 1 "$tmp/ld.err"))"
fi
sq=$tmp/wslgpu-sqlite
cc -pie -Wl,-z,relro,-z,now -Wl,--no-as-needed -o "$sq" "$BUILD/src/cli/main.o" \
	"$BUILD/libwslgpu.a" -linih -lsqlite3 -ldl -lm 2>/dev/null || sq=""
: >"$tmp/empty.db"

# ms per run of "$@", $runs times in one loop (fork and exec included).
per_run() {
	local t0 t1
	t0=$(date +%s%N)
	for ((i = 0; i < runs; i++)); do "$@" >/dev/null 2>&1; done
	t1=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" -v n="$runs" 'BEGIN { printf "%.3f", (b - a) / 1e6 / n }'
}
# Objects the loader maps at start (ldd's list: vdso and ld.so included, as
# the 46 of the issue were counted); 0 for a static binary.
libs() {
	if ldd "$1" 2>&1 | grep -q 'statically linked\|not a dynamic'; then echo 0
	else ldd "$1" | grep -c .; fi
}

ref=$(per_run /bin/true)
printf '%-44s %7.3f ms                     (reference)\n' "/bin/true" "$ref"
row() { # row LABEL BINARY ARGS...
	local label=$1 bin=$2
	shift 2
	local ms
	ms=$(per_run "$bin" "$@")
	awk -v l="$label" -v m="$ms" -v r="$ref" -v n="$(libs "$bin")" 'BEGIN {
		printf "%-44s %7.3f ms  %5.2fx true  +%.3f ms  %2d libraries\n", l, m, m / r, m - r, n }'
}
row "wslgpu --version" "$W" --version
row "wslgpu kb (the list)" "$W" kb
row "wslgpu history --db EMPTY" "$W" history --db "$tmp/empty.db"
# explain of a one-line paste: the KB and the matcher are tables in the
# binary (tools/kbgen.c), so it should cost about what --version costs
# (goal: <= 3x). A recognised line and a 6-byte one nothing matches.
LINE="RuntimeError: CUDA error: no kernel image is available for execution on the device"
row "wslgpu explain (a recognised line)" "$W" explain "$LINE"
row "wslgpu explain 'error' (6 bytes)" "$W" explain error
v=$(per_run "$W" --version)
e=$(per_run "$W" explain "$LINE")
awk -v v="$v" -v e="$e" 'BEGIN { printf "ratio explain one line / --version: %.2fx wall (runs: '"$runs"'; goal <= 3)\n", e / v }'
# Instructions do not depend on the machine's load: callgrind, when there.
if command -v valgrind >/dev/null; then
	ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
	iv=$(ir "$W" --version)
	ie=$(ir "$W" explain "$LINE")
	i6=$(ir "$W" explain error)
	awk -v v="$iv" -v e="$ie" -v s="$i6" 'BEGIN {
		printf "instructions: --version %.2f M, explain one line %.2f M, explain 6 bytes %.2f M\n", v / 1e6, e / 1e6, s / 1e6
		printf "ratio explain one line / --version: %.2fx instructions (goal <= 3)\n", e / v }'
fi
if [ -n "$old" ]; then
	row "linked with libcurl+libarchive: --version" "$old" --version
	row "linked with libcurl+libarchive: kb" "$old" kb
	n=$(per_run "$W" --version)
	o=$(per_run "$old" --version)
	awk -v n="$n" -v o="$o" 'BEGIN { printf "ratio --version opened-at-use / linked: %.2fx (runs: '"$runs"')\n", n / o }'
fi
if [ -n "$sq" ]; then
	row "linked with SQLite: --version" "$sq" --version
fi
# Instructions of one --version (the loader's binding included).
insns() {
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$@" >/dev/null 2>&1 &&
		sed -n 's/^summary: //p' "$tmp/cg"
}
if command -v valgrind >/dev/null; then
	a=$(insns "$W" --version)
	b=$([ -n "$sq" ] && insns "$sq" --version)
	c=$([ -n "$old" ] && insns "$old" --version)
	printf 'instructions of --version: %s (SQLite linked: %s; libcurl, libarchive and SQLite linked: %s)\n' \
		"$a" "${b:-?}" "${c:-?}"
fi
if [ -x "$TOP/build-static/wslgpu" ]; then
	row "static build (make static): --version" "$TOP/build-static/wslgpu" --version
fi
# hyperfine (Debian package hyperfine), when installed: the same commands
# without the shell loop's fork, with its own statistics, in one run.
if command -v hyperfine >/dev/null && [ -n "$old" ]; then
	hyperfine -N -w 20 -m 200 --export-markdown "$tmp/hf.md" "/bin/true" "$W --version" \
		"$W explain error" "$W history --db $tmp/empty.db" "$old --version" >/dev/null 2>&1 &&
		sed 's|'"$tmp"'/wslgpu-linked|linked with libcurl+libarchive:|; s|'"$W"'|wslgpu|; s|'"$tmp"'/||' "$tmp/hf.md"
fi
