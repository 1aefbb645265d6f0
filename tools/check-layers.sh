#!/bin/sh
# check-layers.sh [TOP]: checks the include graph of src/ against the layers
# drawn in doc/architecture.md (the block between "layers:" and the blank
# line after it: one row per rank, lowest first, each a list of src/
# directories). A file may include headers of its own directory and of the
# rows above its own; a row that includes its own row or one below fails,
# naming the file and the include. src/version.h belongs to no layer.
# Exits 0 when the graph keeps to the drawing, 1 naming each violation, 2
# when the drawing is missing or a src/ directory is in no row.
set -u
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
doc="$top/doc/architecture.md"
[ -f "$doc" ] || { echo "check-layers: $doc is missing" >&2; exit 2; }
# "  3  kb facts gpu" -> "kb 3", "facts 3", "gpu 3"
ranks=$(awk '/^layers:/ { on = 1; next } on && /^[ \t]*$/ { exit } on && $1 ~ /^[0-9]+$/ {
	for (i = 2; i <= NF && $i !~ /^[(#]/; i++) print $i, $1 }' "$doc")
[ -n "$ranks" ] || { echo "check-layers: no 'layers:' block in $doc" >&2; exit 2; }
rank_of() { printf '%s\n' "$ranks" | awk -v d="$1" '$1 == d { print $2; exit }'; }
status=0
for dir in "$top"/src/*/; do
	d=${dir%/}
	d=${d##*/}
	r=$(rank_of "$d")
	if [ -z "$r" ]; then
		echo "src/$d: in no row of the layers in doc/architecture.md"
		status=2
		continue
	fi
	set --
	for f in "$dir"*.c "$dir"*.h; do
		[ -f "$f" ] && set -- "$@" "$f"
	done
	[ $# -gt 0 ] || continue
	# One awk for the directory's files (a process per include made this
	# the slowest test): each include of "../DIR/", the last on its line,
	# whose DIR's row is not above this one's.
	awk -v d="$d" -v r="$r" -v ranks="$ranks" '
		BEGIN { n = split(ranks, row, "\n")
			for (i = 1; i <= n; i++) { split(row[i], f, " "); if (!(f[1] in rank)) rank[f[1]] = f[2] } }
		/^[ \\t]*#[ \\t]*include[ \\t]*"\.\.\/[a-z_]*\// {
			rest = $0; to = ""
			while (match(rest, /"\.\.\/[a-z_]*\//)) {
				to = substr(rest, RSTART + 4, RLENGTH - 5)
				rest = substr(rest, RSTART + RLENGTH)
			}
			t = (to in rank) ? rank[to] : ""
			if (t == "" || t + 0 >= r + 0) {
				n = split(FILENAME, p, "/")
				printf "src/%s/%s:%d: includes src/%s/ (layer %s, not below %s\047s %s)\n",
					d, p[n], FNR, to, (t == "" ? "?" : t), d, r
			}
		}' "$@"
done >"${TMPDIR:-/tmp}/check-layers.$$"
if [ -s "${TMPDIR:-/tmp}/check-layers.$$" ]; then
	cat "${TMPDIR:-/tmp}/check-layers.$$"
	[ $status = 0 ] && status=1
fi
rm -f "${TMPDIR:-/tmp}/check-layers.$$"
exit $status
