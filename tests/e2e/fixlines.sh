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
# test-parts: 3
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
# parses each LINE as `bash -n` would a file holding it, and prints "ok Q
# TEXT" or "fail Q TEXT" (TEXT the assertion's, Q the json_lines call).
# Each is parsed in a subshell of that bash, which reads a file holding
# "set -n" and the line (after `set -n` bash reads a script's commands
# without running them, as `bash -n` does: a fork, not a new bash); a
# line that does not pass so is asked of `bash -n` itself, which decides
# and gives the message. Each distinct line is parsed once in the script:
# the same bytes parse the same way, so a line that passed
# ($WORK/lines.passed, NUL after each) passes again without a process.
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
		printf "set -n\n%s" "$line" >"$WORK/line.n"
		printf "%s" "$line" >"$WORK/line.$n"
		if ( . "$WORK/line.n" ) 2>/dev/null || bash -n "$WORK/line.$n" 2>"$WORK/bash.err"; then
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
STEPS_AGREE='| [.fix, .fix_steps] | transpose[] | . as [$l, $s]
		| if $s.kind == "command" and $s.where != "host"
		  then $l == $s.command + (if $s.remark then "   # " + $s.remark else "" end)
		  else ($l | startswith("# ")) end] | all'
steps_agree() {
	if jq -e "[$2$STEPS_AGREE" "$JSON" >/dev/null; then
		ok "$1: fix_steps agree with fix"
	else
		fail "$1: fix_steps disagree with fix"
	fi
}

# What json_lines asks of a fixture's outputs, and the rest of the
# fixture's JSON questions, in one jq (nine, a jq each, were a third of
# this test's processes): each output given as text (--rawfile) and read
# with fromjson, so that one that is not a single JSON value leaves the
# others be. It prints, one a line: "valid NAME 1" when NAME's output is
# one JSON value, neither false nor null (what run_json's `jq -e .` asks);
# "bash_n_each ..." as json_lines would, for an output read; "json_lines
# Q" for one not read (json_lines asks its own jq, as before); and "agree
# 1" or "agree 0" for check's fix_steps (0: asked again alone, which
# decides, as lib.sh's batches do).
fixture_jq() { # FIX CHECK BUNDLE-or-"" EXPLAIN
	set -- --rawfile fix "$1" --rawfile check "$2" --rawfile bundle "${3:-/dev/null}" \
		--rawfile explain "$4" --arg bundled "${3:+1}" --arg q "$Q"
	jq -rn "$@" '
	def read: try [fromjson] catch null;
	def lines($q; $what; $in; f): if $in == null then "json_lines \($q)"
		else "bash_n_each " + ([$q, $what] + [$in[0] | try ((f) | tostring)] | @sh) end;
	def valid($name; $in): if $in != null and ($in[0] | . != false and . != null) then "valid \($name) 1" else empty end;
	($fix | read) as $f | ($check | read) as $c | ($explain | read) as $e
	| (if $bundled == "1" then ($bundle | read) else null end) as $b
	| ($q | tonumber) as $q
	| valid("fix"; $f), valid("check"; $c), valid("explain"; $e),
	lines($q + 1 | tostring; "fix line"; $f; .steps[].commands[] | select(.where == "linux" and .kind == "command")
		| .command + (if .note then "   # " + .note else "" end)),
	lines($q + 2 | tostring; "fix --json line"; $f; .steps[].commands[].line),
	lines($q + 3 | tostring; "check --json fix"; $c; .checks[].fix[]),
	(if $bundled == "1" then lines($q + 4 | tostring; "report'"'"'s check.json fix"; $b; .checks[].fix[]) else empty end),
	lines($q + (if $bundled == "1" then 5 else 4 end) | tostring; "explain --check --json fix"; $e;
		[.matches[].causes[].fix[]] | unique | .[]),
	"agree \(if $c != null then (try ([$c[0] | [.checks[]'"$STEPS_AGREE"'] | if length == 0 then 0
		elif (.[-1] | . == false or . == null) then 0 else 1 end) catch 0) else 0 end)"'
}

# keep NAME: the last run's output and errors as NAME's (a fixture's runs
# come first, then its questions, in one jq and one bash)
keep() { eval "K_OUT_$1=\$OUT K_ERR_$1=\$ERR"; JSON="$WORK/$1.json"; }
# as NAME: $OUT, $ERR and $JSON as NAME's run left them
as() { eval "OUT=\$K_OUT_$1 ERR=\$K_ERR_$1"; JSON="$WORK/$1.json"; }
# json_valid NAME: run_json's check that NAME's output is JSON, where
# fixture_jq did not find it so: `jq -e .` decides, as lib.sh's does
json_valid() {
	eval "v=\${v_$1:-}"
	[ "$v" = 1 ] && return 0
	as "$1"
	jq -e . "$JSON" >/dev/null 2>&1 || fail "output is not valid JSON"
}

i=0
for f in $(fixture_tool --list); do
	i=$((i + 1))
	mine $i || continue
	fixture "$f"
	selected || continue
	# at the default limit, but on python-hang, whose hung import is
	# stopped at the limit: there 5 s, as fix.sh's, not 10 s for each of
	# seven runs (check --json and fix --commands are kbtruth.sh's and
	# plans.sh's too: lib.sh's shared)
	lim=""
	[ "$f" != python-hang ] || lim="--timeout 5"
	# (run_json's check that its output is JSON is fixture_jq's)
	RUN_JSON_TO=$WORK/fix.json
	run_json fix $lim
	JQ_VALID=""
	keep fix
	RUN_JSON_TO=$WORK/check.json
	shared run_json check $lim
	JQ_VALID=""
	keep check
	run report -o "$WORK/bundle.tar.gz" $lim
	keep report
	rm -rf "$WORK/bundle" && mkdir "$WORK/bundle"
	bundle_json=""
	if tar -xzf "$WORK/bundle.tar.gz" -C "$WORK/bundle" 2>/dev/null; then
		bundle_json=$(find "$WORK/bundle" -name check.json | head -1)
	fi
	shared run fix --commands $lim
	keep commands
	printf '%s\n' "$OUT" >"$WORK/commands.sh"
	# the fix blocks of check (80 columns, as a terminal wraps them):
	# commands whole, remarks and words for a person as # comments
	setenv COLUMNS=80
	run check $lim
	keep check80
	awk '/^      fix    / { fix = 1; print substr($0, 14); next }
		fix && /^             / { print substr($0, 14); next } { fix = 0 }' \
		"$WORK/out" >"$WORK/check-fix.sh"
	# explain --check: the causes of a pasted error, with this machine's
	# evidence (its sudo, its values)
	RUN_JSON_TO=$WORK/explain.json
	run_json explain --check $lim -f "$top/tests/explain/libs.log"
	JQ_VALID=""
	RUN_JSON_TO=""
	keep explain
	run report --markdown -o "$WORK/report.md" $lim
	keep markdown
	# the code block after **Fix**
	awk '/^\*\*Fix\*\*/ { fix = 1; next } fix && /^```$/ { if (in_block) exit; in_block = 1; next }
		in_block { print }' "$WORK/report.md" >"$WORK/report-fix.sh"

	# The questions, in the order the assertions were made one at a time.
	if ! fixture_jq "$WORK/fix.json" "$WORK/check.json" "$bundle_json" "$WORK/explain.json" >"$WORK/fx.jq"; then
		# (no answer at all: every question asked alone)
		n=4 && [ -z "$bundle_json" ] || n=5
		i=1
		while [ $i -le $n ]; do echo "json_lines $((Q + i))"; i=$((i + 1)); done >"$WORK/fx.jq"
	fi
	v_fix="" v_check="" v_explain="" agree=0
	: >"$WORK/lines"
	while IFS= read -r l; do
		case $l in
		"valid "*) l=${l#valid }; eval "v_${l% *}=1" ;;
		"agree "*) agree=${l#agree } ;;
		*) printf '%s\n' "$l" >>"$WORK/lines" ;;
		esac
	done <"$WORK/fx.jq"
	# json_lines' numbers and runs, as if each had been asked at once
	Q0=$Q
	for step in fix fix check bundle explain; do
		case $step in bundle) [ -n "$bundle_json" ] || continue; as report ;; *) as "$step" ;; esac
		Q=$((Q + 1))
		eval "Q_OUT_$Q=\$OUT Q_ERR_$Q=\$ERR"
	done
	Qn=$Q
	# an output jq could not read as one value: its json_lines ask their
	# own jq, as before, in their place
	if grep -q '^json_lines ' "$WORK/lines"; then
		mv "$WORK/lines" "$WORK/lines.batch"
		: >"$WORK/lines"
		while IFS= read -r l; do
			case $l in
			"json_lines "*)
				Q=$((${l#json_lines } - 1))
				k=$((Q + 1 - Q0))
				[ -n "$bundle_json" ] || [ $k -lt 4 ] || k=$((k + 1))
				case $k in
				1) as fix; json_lines "fix line" '.steps[].commands[] | select(.where == "linux" and .kind == "command")
					| .command + (if .note then "   # " + .note else "" end)' "$JSON" ;;
				2) as fix; json_lines "fix --json line" '.steps[].commands[].line' "$JSON" ;;
				3) as check; json_lines "check --json fix" '.checks[].fix[]' "$JSON" ;;
				4) as report; json_lines "report's check.json fix" '.checks[].fix[]' "$bundle_json" ;;
				5) as explain; json_lines "explain --check --json fix" '[.matches[].causes[].fix[]] | unique | .[]' "$JSON" ;;
				esac
				;;
			*) printf '%s\n' "$l" >>"$WORK/lines" ;;
			esac
		done <"$WORK/lines.batch"
		Q=$Qn
	fi
	json_valid fix
	json_valid check
	as check
	if [ "$agree" = 1 ]; then ok "check --json: fix_steps agree with fix"; else steps_agree "check --json" '.checks[]'; fi
	[ -n "$bundle_json" ] || { as report; fail "report's bundle has no check.json"; }
	as commands
	bash_n "fix --commands" "$WORK/commands.sh"
	if [ -s "$WORK/check-fix.sh" ]; then
		as check80
		bash_n "check's fix lines" "$WORK/check-fix.sh"
	fi
	json_valid explain
	if [ -s "$WORK/report-fix.sh" ]; then
		as markdown
		bash_n "report --markdown's fix block" "$WORK/report-fix.sh"
	fi
	lines_check
done

# explain --json without --check: every cause of the real messages of
# tests/explain/ (each fix line once)
if in_part 1; then
	fixture healthy-wsl2
	cat "$top"/tests/explain/*.log >"$WORK/all.log"
	run_json explain -f "$WORK/all.log"
	json_lines "explain --json fix" '[.matches[].causes[].fix[]] | unique | .[]' "$JSON"
	lines_check
	steps_agree "explain --json" '.matches[].causes[]'
fi

done_testing
