#!/bin/sh
# explain-field.sh: how much of the field corpus (tests/explain/field/*.txt,
# real pasted lines with their threads) `wslgpu explain` recognises, and how
# often the first recognised message is of the layer the thread confirmed.
#   bench/explain-field.sh [DIR_OR_FILES...]   (default: tests/explain/field)
# Prints one line per family and a total, with the GPU-looking lines explain
# saw but did not recognise (what the next signatures should cover); -v
# lists every miss and those lines.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD="$top/$BUILD" ;; esac
bin="$BUILD/wslgpu"
[ -x "$bin" ] || { echo "explain-field: build $bin first (make)" >&2; exit 2; }
command -v jq >/dev/null || { echo "explain-field: needs jq" >&2; exit 2; }
verbose=0
[ "${1:-}" = -v ] && { verbose=1; shift; }
[ $# -eq 0 ] && set -- "$top/tests/explain/field"
files=""
for a in "$@"; do
	if [ -d "$a" ]; then files="$files $(ls "$a"/*.txt 2>/dev/null)"; else files="$files $a"; fi
done
work=$(mktemp -d "${TMPDIR:-/tmp}/explain-field.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
T_N=0 T_REC=0 T_LAYER=0 T_UNK=0
line() {
	awk -v f="$1" -v n="$2" -v r="$3" -v l="$4" -v u="$5" 'BEGIN {
		printf "%-22s %4d blocks  recognised %5.1f%%  right layer %5.1f%%  unrecognised GPU lines %d\n",
			f, n, r * 100 / n, l * 100 / n, u }'
}
for f in $files; do
	fam=$(basename "$f" .txt)
	rm -f "$work"/b.*
	# Split into one file per block; the header goes in b.N.h.
	awk -v dir="$work" '
		/^##/ { next }
		/^=== / { n++; print substr($0, 5) > (dir "/b." n ".h"); next }
		n > 0 { print > (dir "/b." n ".txt") }
	' "$f"
	n=0 rec=0 lay=0 unk=0
	for h in "$work"/b.*.h; do
		[ -f "$h" ] || continue
		b=${h%.h}.txt
		[ -f "$b" ] || : > "$b"
		want=$(awk '{print $1; exit}' "$h")
		n=$((n + 1))
		"$bin" explain --json -f "$b" >"$work/j" 2>/dev/null
		got=$(jq -r '[.matches[] | .layer] | if length == 0 then "-" else .[0] + " " + (join(",")) end' \
			"$work/j" 2>/dev/null)
		u=$(jq -r '.summary.unrecognised_lines // 0' "$work/j" 2>/dev/null)
		unk=$((unk + ${u:-0}))
		[ $verbose = 1 ] && jq -r --arg f "$fam" '.unrecognised[] | "UNREC \($f): \(.text)"' "$work/j" 2>/dev/null
		case "$got" in
		""|-) [ $verbose = 1 ] && { echo "MISS  $fam [$want] $(head -c 160 "$b" | tr '\n' ' ')"; } ;;
		*)
			rec=$((rec + 1))
			first=${got%% *}
			if [ "$first" = "$want" ]; then lay=$((lay + 1))
			elif [ $verbose = 1 ]; then echo "LAYER $fam want $want got $first: $(head -c 160 "$b" | tr '\n' ' ')"; fi ;;
		esac
	done
	[ $n -gt 0 ] || continue
	line "$fam" $n $rec $lay $unk
	T_N=$((T_N + n)) T_REC=$((T_REC + rec)) T_LAYER=$((T_LAYER + lay)) T_UNK=$((T_UNK + unk))
done
[ $T_N -gt 0 ] || { echo "explain-field: no blocks found" >&2; exit 2; }
line total $T_N $T_REC $T_LAYER $T_UNK
