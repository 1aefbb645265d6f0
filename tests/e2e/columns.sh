# columns.sh: every line of human output of every command fits 80 columns
# (display columns, UTF-8 aware), on every fixture, at COLUMNS=80 and on a
# pipe with no COLUMNS (where the width is 80): check, check -v, check
# --brief, fix, smoke, explain --check, report's messages; and, once, kb
# with every entry, every --help, explain, bench io and gpu, watch's
# summary and history. Prose wraps at word boundaries; the only lines that
# may be wider are commands, which are never wrapped or split (a fix line
# a command names, a PowerShell command of a plan after its "# PS> "
# prompt), and a single word after its label (a path, a URL) that no line
# could hold: tests/e2e/over80.py says which. Markdown (report --markdown)
# is not wrapped: GitHub shows every line break of an issue or comment as
# one (https://github.com/jgm/pandoc/issues/3594), so a wrapped paragraph
# would render ragged where it is pasted. tests/e2e/ux.sh pins the layout
# itself (hanging indents, where a long command goes).
# test-parts: 3
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { echo "ok - # SKIP no python3"; done_testing; exit 0; }

# fits WHAT: no line of $OUT and $ERR wider than 80 columns, but those
# over80.py allows given the commands in $FIXES. Judged at fits_check, all
# those since the last in one over80.py (a Python start-up for each output
# was most of this test's cost); call it before $FIXES changes.
K=0
FIXES=$WORK/fixes
fits() {
	selected || return 0
	K=$((K + 1))
	printf '%s\n%s\n' "$OUT" "$ERR" >"$WORK/fit.$K"
	printf '%s\t%s\n' "$FIXES" "$WORK/fit.$K" >>"$WORK/fits"
	# the run a failure shows, as if judged at once
	eval "FIT_WHAT_$K=\$1 FIT_OUT_$K=\$OUT FIT_ERR_$K=\$ERR FIT_FIXTURE_$K=\$FIXTURE"
}
fits_check() {
	[ "$K" -gt 0 ] || return 0
	python3 "$top/tests/e2e/over80.py" 80 --each "$WORK/fits"
	prc=$?
	i=1
	while [ $i -le $K ]; do
		eval "what=\$FIT_WHAT_$i OUT=\$FIT_OUT_$i ERR=\$FIT_ERR_$i FIXTURE=\$FIT_FIXTURE_$i"
		if [ $prc -ne 0 ]; then
			fail "$what: over80.py failed (exit status $prc)"
		elif [ -s "$WORK/fit.$i.over" ]; then
			fail "$what: lines wider than 80 columns:
$(cat "$WORK/fit.$i.over")"
		else
			ok "$what fits 80 columns"
		fi
		i=$((i + 1))
	done
	K=0
	: >"$WORK/fits"
}

printf '%s\n' 'CUDA error: no CUDA-capable device is detected' \
	'ldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link' \
	'RuntimeError: DataLoader worker (pid 123) is killed by signal: Bus error.' >"$WORK/log"

# fixes_of CHECK FIX EXPLAIN: the commands of a fixture's three JSON
# outputs, one a line, as three `jq -r` would print them, from one jq (a
# jq each, and one each for run_json's check that the output is JSON, were
# a fifth of this test's CPU): each output given as text and read with
# fromjson; the exit status says which were one JSON value neither false
# nor null (64 + 4, 2, 1), what run_json's `jq -e .` asks. Any other exit
# status: the commands are not all there, ask as before.
fixes_of() {
	jq -rn --rawfile c "$1" --rawfile f "$2" --rawfile e "$3" '
	def read: try [fromjson] catch null;
	def valid: if . != null and (.[0] | . != false and . != null) then 1 else 0 end;
	($c | read) as $c | ($f | read) as $f | ($e | read) as $e
	| if $c == null or $f == null or $e == null then "" | halt_error(3) else
	(try ($c[0] | .checks[].fix[]?)), (try ($f[0] | .steps[].commands[].command)),
	(try ($e[0] | .matches[]?.causes[]?.fix[]?)),
	("" | halt_error(64 + 4 * ($c | valid) + 2 * ($f | valid) + ($e | valid))) end'
}

n=0
for f in $(fixture_tool --list); do
	# every other fixture on a pipe with no COLUMNS, the others at
	# COLUMNS=80 (by its place in the list: the same in every run)
	n=$((n + 1))
	mine $n || continue
	fixture "$f"
	selected || continue
	if [ $((n % 2)) = 0 ]; then setenv COLUMNS=; how="pipe"; else setenv COLUMNS=80; how="COLUMNS=80"; fi
	# the commands these runs may print, one a line (a fixture's own file:
	# its outputs are judged after the last fixture's)
	FIXES=$WORK/fixes.$n
	for o in check fix explain; do
		RUN_JSON_TO=$WORK/$o.json
		case $o in
		explain) run_json explain --check --timeout 2 -f "$WORK/log" ;;
		check) shared run_json check --timeout 2 ;;
		*) run_json "$o" --timeout 2 ;;
		esac
		# (its check that this is JSON is below)
		JQ_VALID=""
		eval "J_OUT_$o=\$OUT J_ERR_$o=\$ERR"
	done
	RUN_JSON_TO=""
	fixes_of "$WORK/check.json" "$WORK/fix.json" "$WORK/explain.json" >"$FIXES"
	v=$?
	case $v in 6[4-9] | 7[01]) v=$((v - 64)) ;; *)
		v=0
		jq -r '.checks[].fix[]?' "$WORK/check.json" >"$FIXES"
		jq -r '.steps[].commands[].command' "$WORK/fix.json" >>"$FIXES"
		jq -r '.matches[]?.causes[]?.fix[]?' "$WORK/explain.json" >>"$FIXES"
		;;
	esac
	for o in check fix explain; do
		if [ $((v & 4)) = 0 ]; then
			# as run_json's check does it: jq -e . decides
			eval "OUT=\$J_OUT_$o ERR=\$J_ERR_$o"
			jq -e . "$WORK/$o.json" >/dev/null 2>&1 || fail "output is not valid JSON"
		fi
		v=$((v * 2))
	done
	# (ux.sh makes the two checks at COLUMNS=80 too: lib.sh's shared)
	shared run check --timeout 2
	fits "check ($how)"
	run check -v --timeout 2
	fits "check -v ($how)"
	run check --brief --timeout 2
	fits "check --brief ($how)"
	run fix --timeout 2
	fits "fix ($how)"
	run smoke --timeout 2
	fits "smoke ($how)"
	run explain --check --timeout 2 -f "$WORK/log"
	fits "explain --check ($how)"
	run report -o "$WORK/bundle.tar.gz" --timeout 2
	fits "report ($how)"
	rm -f "$WORK/bundle.tar.gz"
done
fits_check
FIXES=$WORK/fixes

# Once: the knowledge base, every --help, explain, bench, watch, history.
in_part 1 || { done_testing; exit; }
fixture healthy-wsl2
for how in COLUMNS=80 COLUMNS=; do
	EXTRA_ENV=$how
	# commands, and the log patterns (regex:, match:), which are shown as
	# they are, never wrapped
	# (a fix that is a condition, {?KEY:command}, shows as its command)
	sed -n 's/^fix: //p; s/^confirm: //p; s/^regex: //p; s/^match: //p' "$top"/src/kb/*.kb \
		>"$WORK/fixes"
	sed -n 's/^fix: .*{?!\{0,1\}[a-z_]*=\{0,1\}[a-z0-9_]*:\(.*\)}$/\1/p' "$top"/src/kb/*.kb \
		>>"$WORK/fixes"
	# shellcheck disable=SC2046
	run kb $(sed -n 's/^\[\(.*\)\]$/\1/p' "$top"/src/kb/*.kb)
	expect_rc 0
	fits "kb with every entry ($how)"
	run kb
	fits "kb ($how)"
	for c in "" check explain bench watch smoke history report fix kb; do
		# shellcheck disable=SC2086
		OUT=$(env -i PATH=/usr/bin:/bin LANG=C.UTF-8 $how "$WSLGPU" $c --help 2>&1)
		ERR=""
		fits "wslgpu $c --help ($how)"
	done
	fits_check
	run_json explain -f "$WORK/log"
	jq -r '.matches[].causes[].fix[]' "$JSON" >"$WORK/fixes"
	run explain -f "$WORK/log"
	fits "explain ($how)"
	run explain -v -f "$WORK/log"
	fits "explain -v ($how)"
	fits_check
	: >"$WORK/fixes"
	mkdir -p "$ROOT/home/user" "$ROOT/mnt/c/Users/alice"
	run bench io /home/user /mnt/c/Users/alice --size 1M --files 20 --seconds 10
	fits "bench io ($how)"
	run bench gpu --max-size 64K --launches 200 --batch 500
	fits "bench gpu ($how)"
	run smoke --record --db "$WORK/h.db" --timeout 2
	run smoke --record --db "$WORK/h.db" --timeout 2
	run history --db "$WORK/h.db"
	fits "history ($how)"
	run history --changes --db "$WORK/h.db"
	fits "history --changes ($how)"
	rm -f "$WORK/h.db"
	# watch's summary, on standard error
	OUT=$(env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C.UTF-8 $how "$WSLGPU" watch \
		--nvml-lib=/nonexistent/libnvidia-ml.so.1 --interval 100ms -- \
		dd if=/dev/zero of=/dev/null bs=64k count=20000 2>&1 >/dev/null)
	ERR=""
	fits "watch's summary ($how)"
	fits_check
done

done_testing
