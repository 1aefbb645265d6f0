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

# json_lines WHAT FILTER FILE: each string FILTER gives on a file of its
# own, each one assertion: one bad line must not hide behind another's
# quote.
json_lines() {
	rm -f "$WORK"/line.*
	i=0
	jq -r "$2 | @base64" "$3" |
		while read -r line; do
			i=$((i + 1))
			printf '%s\n' "$line" | base64 -d >"$WORK/line.$i"
			echo "$WORK/line.$i"
		done >"$WORK/lines"
	n=0
	while read -r file; do
		n=$((n + 1))
		bash_n "$1 $n ($(head -c 60 "$file" | tr '\n' ' '))" "$file"
	done <"$WORK/lines"
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
done

# explain --json without --check: every cause of the real messages of
# tests/explain/ (each fix line once)
fixture healthy-wsl2
cat "$top"/tests/explain/*.log >"$WORK/all.log"
run_json explain -f "$WORK/all.log"
json_lines "explain --json fix" '[.matches[].causes[].fix[]] | unique | .[]' "$JSON"
steps_agree "explain --json" '.matches[].causes[]'

done_testing
