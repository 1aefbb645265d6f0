#!/bin/sh
# fixlines.sh: every fix line runs as printed. On every fixture, each line
# the user is given to paste passes `bash -n`: the plan's shell commands
# (fix --json, each with its remark as a comment, as `wslgpu fix` prints
# it), `fix --commands` whole, check's fix lines at 80 columns, and the
# fix block of the Markdown report
# (remarks and words for a person are comments there, as on the terminal);
# and every fix string of the JSON: check --json's fix[] (with fix_steps,
# its parts, agreeing), fix --json's commands[].line, the check.json
# of report's bundle, and explain --json's causes (with --check on each
# fixture, and without on the real messages of tests/explain/).
. "$(dirname "$0")/lib.sh"

if ! command -v bash >/dev/null 2>&1; then
	echo "1..0 # SKIP no bash"
	exit 0
fi

# bash_n WHAT FILE: one assertion, naming the first line that fails.
bash_n() {
	if bash -n "$2" 2>"$WORK/bash.err"; then
		ok "$1 passes bash -n"
	else
		fail "$1 fails bash -n: $(head -3 "$WORK/bash.err" | tr '\n' ' ') [$(head -c 300 "$2" | tr '\n' '|')]"
	fi
}

# json_lines WHAT FILTER FILE: each string FILTER gives on FILE is one
# assertion, "WHAT N (its first 60 bytes) passes bash -n", each string a
# file of its own: one bad line must not hide behind another's quote. They
# are checked at lines_check, a fixture's all at once (a process or more a
# line was most of this test's cost). jq writes the strings as the
# arguments of one command (@sh), which lines_check's bash runs: no
# newline in a string splits it.
Q=0
json_lines() {
	selected || return 0
	Q=$((Q + 1))
	# try: the strings FILTER gave before an error are checked, as jq -r
	# printed them
	jq -rn --arg q "$Q" --arg what "$1" \
		"\"bash_n_each \" + ([\$q, \$what] + [inputs | try (($2) | tostring)] | @sh)" \
		"$3" >>"$WORK/lines"
	# the run a failure shows, as if checked at once
	eval "Q_OUT_$Q=\$OUT Q_ERR_$Q=\$ERR"
}

# The queued lines' assertions, from one bash: bash_n_each Q WHAT LINE...
# runs `bash -n` on each LINE, a file of its own, and prints "ok Q TEXT" or
# "fail Q TEXT" (TEXT the assertion's, Q the json_lines call). Each
# distinct line runs once in the script: bash -n of the same bytes says the
# same, so a line that passed ($WORK/lines.passed, NUL after each) passes
# again without a process.
BASH_N_EACH='
nl="
"
declare -A passed
while IFS= read -r -d "" l; do passed[x$l]=1; done <"$WORK/lines.passed"
# cut: the first $2 bytes of $1 (head -c), each newline made $3 (tr)
bytes() { local LC_ALL=C; cut=${1:0:$2}; cut=${cut//$nl/$3}; }
bash_n_each() {
	local q=$1 what=$2 n=0 line name e x
	shift 2
	for line; do
		n=$((n + 1))
		bytes "$line" 60 " "
		name="$what $n ($cut)"
		if [[ -n ${passed[x$line]:-} ]]; then echo "ok $q $name passes bash -n"; continue; fi
		printf "%s" "$line" >"$WORK/line.$n"
		if bash -n "$WORK/line.$n" 2>"$WORK/bash.err"; then
			passed[x$line]=1
			printf "%s\0" "$line" >>"$WORK/lines.passed"
			echo "ok $q $name passes bash -n"
		else
			mapfile -t -n 3 err <"$WORK/bash.err"
			e=""
			for x in "${err[@]}"; do e="$e$x "; done
			bytes "$line" 300 "|"
			echo "fail $q $name fails bash -n: $e [$cut]"
		fi
	done
}
. "$WORK/lines"
'
: >"$WORK/lines.passed"
lines_check() {
	[ -s "$WORK/lines" ] || return 0
	WORK=$WORK bash -c "$BASH_N_EACH" >"$WORK/lines.res"
	while IFS= read -r r; do
		q=${r#* }
		text=${q#* }
		q=${q%% *}
		case $r in
		ok*) ok "$text" ;;
		*)
			eval "OUT=\$Q_OUT_$q ERR=\$Q_ERR_$q"
			fail "$text"
			;;
		esac
	done <"$WORK/lines.res"
	: >"$WORK/lines"
}

# steps_agree WHAT PATH: in $JSON, each object at PATH has fix_steps that
# are its fix lines in parts: a command for this shell is the line, its
# remark the comment after it; anything else a comment.
steps_agree() {
	if jq -e "[$2"' | [.fix, .fix_steps] | transpose[] | . as [$l, $s]
		| if $s.kind == "command" and $s.where != "host"
		  then $l == $s.command + (if $s.remark then "   # " + $s.remark else "" end)
		  else ($l | startswith("# ")) end] | all' "$JSON" >/dev/null; then
		ok "$1: fix_steps agree with fix"
	else
		fail "$1: fix_steps disagree with fix"
	fi
}

for f in $(fixture_tool --list); do
	fixture "$f"
	selected || continue
	run_json fix
	json_lines "fix line" '.steps[].commands[] | select(.where == "linux" and .kind == "command")
		| .command + (if .note then "   # " + .note else "" end)' "$JSON"
	# every line of the plan's JSON, as the script writes it
	json_lines "fix --json line" '.steps[].commands[].line' "$JSON"
	run_json check
	json_lines "check --json fix" '.checks[].fix[]' "$JSON"
	steps_agree "check --json" '.checks[]'
	run report -o "$WORK/bundle.tar.gz"
	rm -rf "$WORK/bundle" && mkdir "$WORK/bundle"
	if tar -xzf "$WORK/bundle.tar.gz" -C "$WORK/bundle" 2>/dev/null &&
		bundle_json=$(find "$WORK/bundle" -name check.json | head -1) && [ -n "$bundle_json" ]; then
		json_lines "report's check.json fix" '.checks[].fix[]' "$bundle_json"
	else
		fail "report's bundle has no check.json"
	fi
	run fix --commands
	printf '%s\n' "$OUT" >"$WORK/commands.sh"
	bash_n "fix --commands" "$WORK/commands.sh"
	# the fix blocks of check (80 columns, as a terminal wraps them):
	# commands whole, remarks and words for a person as # comments
	setenv COLUMNS=80
	run check
	awk '/^      fix    / { fix = 1; print substr($0, 14); next }
		fix && /^             / { print substr($0, 14); next } { fix = 0 }' \
		"$WORK/out" >"$WORK/check-fix.sh"
	if [ -s "$WORK/check-fix.sh" ]; then
		bash_n "check's fix lines" "$WORK/check-fix.sh"
	fi
	# explain --check: the causes of a pasted error, with this machine's
	# evidence (its sudo, its values)
	run_json explain --check -f "$top/tests/explain/libs.log"
	json_lines "explain --check --json fix" '[.matches[].causes[].fix[]] | unique | .[]' "$JSON"
	run report --markdown -o "$WORK/report.md"
	# the code block after **Fix**
	awk '/^\*\*Fix\*\*/ { fix = 1; next } fix && /^```$/ { if (in_block) exit; in_block = 1; next }
		in_block { print }' "$WORK/report.md" >"$WORK/report-fix.sh"
	if [ -s "$WORK/report-fix.sh" ]; then
		bash_n "report --markdown's fix block" "$WORK/report-fix.sh"
	fi
	lines_check
done

# explain --json without --check: every cause of the real messages of
# tests/explain/ (each fix line once)
fixture healthy-wsl2
cat "$top"/tests/explain/*.log >"$WORK/all.log"
run_json explain -f "$WORK/all.log"
json_lines "explain --json fix" '[.matches[].causes[].fix[]] | unique | .[]' "$JSON"
lines_check
steps_agree "explain --json" '.matches[].causes[]'

done_testing
