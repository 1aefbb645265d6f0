#!/bin/sh
# sets.sh WSLGPU [DIR...]: recognised and right layer of explain on several
# split directories of the issue-27 corpus at once (measure.py on each), and
# their sum. Without DIRs: sets 1 and 2, both splits (the pastes live outside
# the repository: CORPUS, default /work/notes/27).
set -eu
bin=$1; shift
here=$(dirname "$0")
c=${CORPUS:-/work/notes/27}
[ $# -gt 0 ] || set -- "$c/tuning" "$c/heldout" "$c/new/tuning" "$c/new/heldout"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
i=0
printf '| split | GPU pastes | recognised | layer right | harmful | false positives |\n|---|---|---|---|---|---|\n'
for d in "$@"; do
	i=$((i + 1))
	python3 "$here/measure.py" "$bin" "$d" > "$tmp/$i.md"
	[ -z "${KEEP:-}" ] || cp "$tmp/$i.md" "$KEEP.$i.md"
	awk -v d="$d" -F'|' '
		/^\| recognised \|/ { split($3, a, "[ /]+"); r = a[2]; n = a[3] }
		/^\| layer right \(first/ { split($3, a, "[ /]+"); l = a[2] }
		/^\| harmful/ { split($3, a, "[ /]+"); h = a[2] }
		/^\| false positives/ { split($3, a, "[ /]+"); f = a[2]; fn = a[3] }
		END { printf "| %s | %d | %d | %d | %d | %d/%d |\n", d, n, r, l, h, f, fn
		      print n, r, l, h, f, fn > "/dev/stderr" }' "$tmp/$i.md" 2>>"$tmp/sum"
done
awk '{ n += $1; r += $2; l += $3; h += $4; f += $5; fn += $6 }
	END { printf "| all | %d | %d (%.0f %%) | %d (%.0f %%) | %d | %d/%d |\n", n, r, 100 * r / n, l, 100 * l / n, h, f, fn }' "$tmp/sum"
