#!/bin/sh
# kbtruth.sh: advice true for the machine it is shown on. `check --json` runs
# on every fixture machine; build/tests/test_kbtruth then renders each
# check's own knowledge-base entry and every other entry of its layer with
# that run's evidence (tests/unit/test_kbtruth.c): no slot of the own entry
# unfilled, no statement the evidence contradicts, no fix and no line of
# the fixture's `wslgpu fix` plan removes packages by a pattern.
# Also: no user-facing string literal in src/ names an internal case id.
. "$(dirname "$0")/lib.sh"

out="$WORK/runs"
mkdir -p "$out"
n=0
for d in "$top"/tests/fixtures/*/; do
	name=$(basename "$d")
	[ -d "$d/root" ] || continue
	fixture "$name"
	shared run_json
	cp "$JSON" "$out/$name.json"
	# The remediation plan, whose removal commands test_kbtruth reads.
	run fix
	printf '%s\n' "$OUT" >"$out/$name.plan"
	n=$((n + 1))
done
FIXTURE=all
[ "$n" -gt 30 ] && ok "check --json ran on $n fixture machines" || fail "only $n fixtures ran"

if KBTRUTH_DIR="$out" "$BUILD/tests/test_kbtruth" >"$WORK/kbtruth.out" 2>&1; then
	ok "every fixture's findings and plan read true for its evidence"
else
	OUT=$(cat "$WORK/kbtruth.out")
	fail "test_kbtruth found advice that does not fit the evidence"
	grep -v '^\[' "$WORK/kbtruth.out" | head -40
fi

# String literals (comments stripped) that name field-case ids.
hits=$(find "$top/src" -name '*.c' -exec awk '
	{ line = $0
	  gsub(/\/\/.*$/, "", line)
	  while (match(line, /"([^"\\]|\\.)*"/)) {
		lit = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
		if (lit ~ /case [A-Z][0-9]|field case|tracker row/) print FILENAME ":" FNR ": " lit
	  } }' {} +)
if [ -z "$hits" ]; then ok "no string in src/ names an internal case id"; else OUT=$hits; fail "internal ids in strings"; fi

done_testing
