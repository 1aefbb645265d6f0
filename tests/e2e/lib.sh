# lib.sh: helpers for end-to-end tests. Each test file sources this, then
# calls `fixture NAME` and `run ARGS...` and asserts on what the real binary
# printed. A fixture is a directory tree shaped like a machine
# (tests/fixtures/NAME/root) plus the environment of the user's shell on it
# (tests/fixtures/NAME/env, KEY=VALUE lines). See tests/fixtures/README.md.
#
#   fixture NAME        copy the fixture to a temp dir, install fake libraries
#                       into its placeholders, build its ld.so.cache with the
#                       real ldconfig (tools/fixture --into); sets $ROOT
#   run ARGS...         run wslgpu --root $ROOT ARGS in the fixture's env
#                       (tools/fixture --env), as on a terminal 1000 columns
#                       wide (COLUMNS=1000), so that a line is asserted whole;
#                       `setenv COLUMNS=80` tests the wrapping (tests/e2e/ux.sh);
#                       sets $OUT (stdout), $ERR (stderr), $RC, $SECS
#   run_json ARGS...    run with --json; sets $JSON (a file: $WORK/out.json, or
#                       $RUN_JSON_TO when set)
#   shared run|run_json ARGS...   the same, for a run other tests make alike on
#                       the fixture as `fixture` left it (nothing changed in
#                       $ROOT since): made once per suite run, read back by
#                       the others (see shared below)
#   expect_rc N, expect_line ERE, expect_no_line ERE, expect_json JQ-FILTER
#                       (expect_json's filters are evaluated together, in one
#                       jq, at the next assertion, run or fixture; see
#                       json_flush)
#   json_settle         evaluates what expect_json has queued now: call it
#                       before a test writes a JSON file itself, not through
#                       run_json (the queue is evaluated on the file as it is
#                       when it is evaluated)
#   ok TEXT, fail TEXT  a passed / failed assertion (fail adds the last run's
#                       stdout and stderr)
#   status_of ID        prints the JSON status of a check (json_status ID
#                       sets $STATUS to it, without a subshell)
#   done_testing        prints the closing "e2e-result:" line
#   session_members SID "PID STATE COMM" of each live process of session SID
#   free_port           a free TCP port on 127.0.0.1 (for a server a test starts)
#   http_get URL        the body of a 200 answer on stdout; fails otherwise
#   wait_http URL       waits (up to 20 s) until URL answers 200
#
# Output is TAP (testanything.org): "ok - FIXTURE: what" and "not ok -
# FIXTURE: what", the details of a failure as "# " lines; tests/run-tests.sh
# runs the scripts in parallel under prove and adds the plan. A case is a
# fixture: with WSLGPU_TEST_CASE set (a shell pattern, `tests/run-tests.sh
# libs:ldpath-stubs`), only runs and assertions on fixtures it matches
# happen; the rest of the script runs as it is, so that it reaches them.
set -u
top=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD="$top/$BUILD" ;; esac
WSLGPU="$BUILD/wslgpu"
FAKES="$BUILD/fakes"
T_PASS=0
T_FAIL=0
# The distribution's Python (CI's, tools/install-deps): a version manager's
# shim first on PATH (pyenv's) would pick another Python, and costs a chain
# of shell processes on every call.
if [ -x /usr/bin/python3 ]; then python3() { /usr/bin/python3 "$@"; }; fi
TEST_NAME=""
WORK=$(mktemp -d "${TMPDIR:-/tmp}/wslgpu-e2e.XXXXXX")
trap 'json_flush; rm -rf "$WORK"' EXIT INT TERM
ROOT=""
FIXTURE=""
EXTRA_ENV=""
# env with SIGHUP back to its default: a suite started under nohup passes
# the ignored SIGHUP on to every child (a shell cannot undo an ignore it
# inherited), and the tool rightly keeps it ignored, so the tests that send
# SIGHUP start the tool through this (coreutils 8.31 and later; else env)
ENV_HUP=env
if env --default-signal=HUP true 2>/dev/null; then ENV_HUP="env --default-signal=HUP"; fi

# Preparing a fixture (the copy, the fakes, the ld.so.cache) and its
# environment are tools/fixture's, which a person trying the tool uses too.
fixture_tool() { BUILD="$BUILD" FAKES="$FAKES" WSLGPU="$WSLGPU" sh "$top/tools/fixture" "$@"; }

# Builds $1/etc/ld.so.cache with the real ldconfig, if it has an
# etc/ld.so.conf and no cache (for tests that change the libraries).
make_ldcache() { fixture_tool --ldcache "$1"; }

fixture() {
	json_settle
	FIXTURE=$1
	ROOT="$WORK/$1"
	# A fixture tools/fixture has prepared in this run's cache is copied
	# from there without starting it (the copy is all it would do).
	if [ -d "${WSLGPU_FIXTURE_CACHE:-/nonexistent}/$1" ] && [ "$FAKES" = "$BUILD/fakes" ]; then
		[ -e "$ROOT" ] && rm -rf "$ROOT"
		cp -a "$WSLGPU_FIXTURE_CACHE/$1" "$ROOT" || exit 3
	else
		fixture_tool --into "$ROOT" "$1" || exit 3
	fi
	EXTRA_ENV=""
}

# Adds KEY=VALUE to the environment of the next runs of this fixture.
setenv() { EXTRA_ENV="$EXTRA_ENV $*"; }

# Whether the current fixture is a case WSLGPU_TEST_CASE selects.
selected() {
	[ -z "${WSLGPU_TEST_CASE:-}" ] && return 0
	# shellcheck disable=SC2254
	case $FIXTURE in $WSLGPU_TEST_CASE) return 0 ;; esac
	return 1
}

# A script whose header says "# test-parts: N" is run by tests/run-tests.sh
# as N tests at once, WSLGPU_TEST_PART=K/N in each (unset: the whole
# script). mine I: whether the Ith item (from 1) of a loop over fixtures is
# this part's (every Nth from the Kth); in_part K: whether what follows, done
# once, is (part K's).
mine() {
	case ${WSLGPU_TEST_PART:-} in
	*/*) [ $((($1 - 1) % ${WSLGPU_TEST_PART#*/} + 1)) = "${WSLGPU_TEST_PART%/*}" ] ;;
	esac
}
in_part() {
	case ${WSLGPU_TEST_PART:-} in
	*/*) [ "${WSLGPU_TEST_PART%/*}" = "$1" ] ;;
	esac
}

# run_vars: RUN_VARS, the fixture's environment (tools/fixture --env) as
# KEY=VALUE words. Asked once per run of the suite: kept in the fixture
# cache, and read back by the shell (a sh and a tr for each fixture a test
# took were a good part of the loops over every fixture).
VARS_OF=""
run_vars() {
	_fv=$WORK/fixture.env
	if [ -n "${WSLGPU_FIXTURE_CACHE:-}" ]; then
		_fv=$WSLGPU_FIXTURE_CACHE/.env/$FIXTURE
		if [ ! -f "$_fv" ]; then
			mkdir -p "${_fv%/*}" &&
				fixture_tool --env "$FIXTURE" >"$_fv.$$" && mv -f "$_fv.$$" "$_fv" || exit 3
		fi
	else
		fixture_tool --env "$FIXTURE" >"$_fv" || exit 3
	fi
	RUN_VARS=""
	while IFS= read -r _l; do RUN_VARS="$RUN_VARS$_l "; done <"$_fv"
	VARS_OF=$FIXTURE
}

run() {
	json_settle
	if ! selected; then
		OUT="" ERR="" RC=0 SECS=0
		return 0
	fi
	# A clean environment: the fixture's, not the developer's.
	[ "$VARS_OF" = "$FIXTURE" ] || run_vars
	if [ -n "$SHARED" ]; then
		shared_run "$@"
		return
	fi
	set -- --root "$ROOT" "$@"
	centisecs
	t0=$CS
	# shellcheck disable=SC2086
	env -i $RUN_VARS COLUMNS=1000 $EXTRA_ENV "$WSLGPU" "$@" >"$WORK/out" 2>"$WORK/err"
	RC=$?
	centisecs
	run_cs=$((CS - t0))
	SECS=$((run_cs / 100)).$((run_cs % 100 / 10))$((run_cs % 10))
	OUT=$(cat "$WORK/out")
	ERR=""
	if [ -s "$WORK/err" ]; then ERR=$(cat "$WORK/err"); fi
}

# shared run|run_json ARGS...: that run, where several tests make the same
# one (fixlines.sh, kbtruth.sh and plans.sh each ran check --json or fix
# --commands on every fixture, columns.sh and ux.sh a check at 80 columns):
# on a fixture as `fixture` copied it, nothing changed in $ROOT since, the
# same binary, fixture, setenv and ARGS give the same output (ARGS without
# a command word are check's). Made once per suite run, in
# $WSLGPU_TEST_CACHE/runs (the first test to ask runs it), and read back by
# the others: its stdout (the other test's root path in it made this
# test's), stderr, exit status and time. Without the harness's cache it is
# a plain run.
SHARED=""
shared() {
	SHARED=""
	# (the build's own binary: a test may put a wrapper in its place, as
	# fix.sh does, which is another program, here a shell that sets PWD)
	if [ -n "${WSLGPU_TEST_CACHE:-}" ] && [ "$FAKES" = "$BUILD/fakes" ] && [ "$WSLGPU" = "$BUILD/wslgpu" ]; then
		SHARED=1
	fi
	"$@"
	SHARED=""
}
shared_run() {
	SHARED=""
	_sr_key=$FIXTURE$EXTRA_ENV
	case ${1:-} in -* | '') _sr_key="$_sr_key check" ;; esac
	for _sr_a; do _sr_key="$_sr_key $_sr_a"; done
	# (a key names a file; a root path is letters, digits and / . _ -)
	case $_sr_key in */* | *"$NL"*) run "$@"; return ;; esac
	case $ROOT in *[!A-Za-z0-9/._-]*) run "$@"; return ;; esac
	_sr_dir=$WSLGPU_TEST_CACHE/runs/$_sr_key
	if [ ! -f "$_sr_dir/meta" ]; then
		run "$@"
		mkdir -p "$_sr_dir.$$" && cp "$WORK/out" "$WORK/err" "$_sr_dir.$$/" &&
			printf '%s\n%s\n%s\n' "$RC" "$SECS" "$ROOT" >"$_sr_dir.$$/meta" || exit 3
		# whoever renames first wins; a loser's run is the same
		mv -T "$_sr_dir.$$" "$_sr_dir" 2>/dev/null || rm -rf "$_sr_dir.$$"
		return
	fi
	{ read -r RC && read -r SECS && read -r _sr_root; } <"$_sr_dir/meta" || exit 3
	shared_copy out
	if [ -s "$_sr_dir/err" ]; then shared_copy err; else : >"$WORK/err"; fi
	OUT=$(cat "$WORK/out")
	ERR=""
	if [ -s "$WORK/err" ]; then ERR=$(cat "$WORK/err"); fi
}

# shared_copy out|err: the shared run's, into $WORK (its root path made $ROOT)
shared_copy() {
	if [ "$_sr_root" = "$ROOT" ]; then
		cp "$_sr_dir/$1" "$WORK/$1" || exit 3
		return
	fi
	# (its dots escaped)
	_sr_re="" _sr_rest=$_sr_root
	while :; do
		case $_sr_rest in
		*.*) _sr_re="$_sr_re${_sr_rest%%.*}\\." _sr_rest=${_sr_rest#*.} ;;
		*) break ;;
		esac
	done
	sed "s|$_sr_re$_sr_rest|$ROOT|g" "$_sr_dir/$1" >"$WORK/$1" || exit 3
}

# CS: the time since boot in hundredths of a second, read by the shell
# itself (a run costs no date or awk process: the suite makes thousands).
centisecs() {
	read -r CS _ </proc/uptime
	CS=${CS%.*}${CS#*.}
}

# --json goes after the command word (git's rule: only global options
# before it); without a command word the arguments are check's.
run_json() {
	JSON=${RUN_JSON_TO:-$WORK/out.json}
	if ! selected; then
		: >"$JSON"
		OUT="" ERR="" RC=0 SECS=0 # as run leaves them when skipped
		return 0
	fi
	case ${1:-} in
	-* | '') run --json "$@" ;;
	*) c=$1; shift; run "$c" --json "$@" ;;
	esac
	cp "$WORK/out" "$JSON"
	# that it is JSON is asked with the filters that follow (json_flush)
	json_context
	JQ_VALID=1
}

NL='
'
# tap_line STATUS TEXT: one TAP line; a '#' in TEXT is escaped (it would
# start a directive such as "# TODO"), lines after its first are comments.
tap_line() {
	case $2 in
	*"$NL"*) printf '%s\n' "$2" | sed -e '1s/#/\\#/g' -e "1s/^/$1 - /" -e '2,$s/^/# /' ;;
	*'#'*)
		# by the shell: many a fix line has a "# remark", and a process
		# for each was a good part of fixlines.sh's cost
		_tl_rest=$2 _tl_text=""
		while :; do
			case $_tl_rest in
			*'#'*) _tl_text="$_tl_text${_tl_rest%%#*}\\#" _tl_rest=${_tl_rest#*#} ;;
			*) break ;;
			esac
		done
		printf '%s - %s\n' "$1" "$_tl_text$_tl_rest"
		;;
	*) printf '%s - %s\n' "$1" "$2" ;;
	esac
}
ok() {
	[ -z "$JQ_Q$JQ_VALID" ] || json_flush
	selected || return 0
	T_PASS=$((T_PASS + 1))
	tap_line ok "$FIXTURE: $1"
}
fail() {
	[ -z "$JQ_Q$JQ_VALID" ] || json_flush
	selected || return 0
	T_FAIL=$((T_FAIL + 1))
	tap_line "not ok" "$FIXTURE: $1"
	{
		echo "---- stdout"; echo "$OUT" | head -80
		echo "---- stderr"; echo "$ERR" | head -20
	} | sed 's/^/# /'
}

expect_rc() {
	selected || return 0
	if [ "$RC" = "$1" ]; then ok "exit status $1"; else fail "exit status $RC, expected $1"; fi
}
# has_line ERE TEXT: a line of TEXT matches (a here-document, which the
# shell writes itself where a pipe from printf would cost a process).
has_line() {
	grep -Eq -- "$1" <<EOF
$2
EOF
}
expect_line() {
	selected || return 0
	if has_line "$1" "$OUT"; then ok "line /$1/"; else fail "no line matches /$1/"; fi
}
expect_no_line() {
	selected || return 0
	if has_line "$1" "$OUT"; then fail "a line matches /$1/"; else ok "no line /$1/"; fi
}
expect_err() {
	selected || return 0
	if has_line "$1" "$ERR"; then ok "stderr /$1/"; else fail "stderr does not match /$1/"; fi
}
# ---- JSON assertions, in batches ----
# A jq is 33 ms of CPU (1.6 compiles its builtins at start-up) and a run is
# mostly followed by several JSON assertions, so expect_json queues its
# filter and json_flush evaluates the queue in one jq, at the next
# assertion, run, fixture or exit: each filter still gives its own ok or
# not ok line, with its own text and the details of the run it is about.
# What decides is still `jq -e FILTER FILE` alone: a filter the batch does
# not find true, or a file the batch cannot take (not one JSON value), is
# asked that way, as before. In a subshell (a loop in a pipeline) a filter
# is asked at once, since the queue would end with the subshell.
JQ_Q=""     # the queued filters, each ended by a \037
JQ_PROG=""  # the batch: for each filter 1 (true) or 0
JQ_N=0
JQ_VALID="" # run_json's output is yet to be found JSON
JQ_FILE="" JQ_FIX="" JQ_OUT="" JQ_ERR="" JQ_TODO=""
JQ_GEN=0    # a new output (json_status's answers are of one)
US=$(printf '\037')
TAB='	'
read -r JQ_PID _ </proc/self/stat
# json_context: what the queue is about (the file, and what a failure shows)
json_context() {
	JQ_FILE=$JSON JQ_FIX=$FIXTURE JQ_OUT=$OUT JQ_ERR=$ERR JQ_TODO=${TODO_REASON:-}
}
json_settle() {
	[ -z "$JQ_Q$JQ_VALID" ] || json_flush
	JQ_GEN=$((JQ_GEN + 1))
}
json_flush() {
	# (from the exit trap, too: perhaps before lib.sh set these)
	[ -n "${JQ_Q:-}${JQ_VALID:-}" ] || return 0
	_jq_q=$JQ_Q _jq_n=$JQ_N _jq_valid=$JQ_VALID _jq_prog=$JQ_PROG
	# emptied first: the ok and fail below flush too
	JQ_Q="" JQ_PROG="" JQ_N=0 JQ_VALID=""
	_jq_res=""
	if [ "$_jq_n" -gt 0 ]; then
		_jq_res=$(jq -n -r '[inputs] as $__in
			| if ($__in | length) != 1 or ($__in[0] | . == false or . == null) then error("not one true value")
			else $__in[0] as $__v | ['"$_jq_prog"'] | map(tostring) | join("") end' "$JQ_FILE" 2>/dev/null) || _jq_res=""
		case $_jq_res in *[!01]*) _jq_res="" ;; esac
		[ ${#_jq_res} -eq "$_jq_n" ] || _jq_res=""
	fi
	_jq_fix=$FIXTURE _jq_out=$OUT _jq_err=$ERR _jq_todo=${TODO_REASON:-}
	FIXTURE=$JQ_FIX OUT=$JQ_OUT ERR=$JQ_ERR TODO_REASON=$JQ_TODO
	# a batch that ran had one JSON value that is not false or null:
	# what `jq -e .` asks
	if [ -n "$_jq_valid" ] && [ -z "$_jq_res" ] && ! jq -e . "$JQ_FILE" >/dev/null 2>&1; then
		fail "output is not valid JSON"
	fi
	while [ -n "$_jq_q" ]; do
		_jq_f=${_jq_q%%"$US"*}
		_jq_q=${_jq_q#*"$US"}
		_jq_r=${_jq_res%"${_jq_res#?}"}
		_jq_res=${_jq_res#?}
		if [ "$_jq_r" = 1 ] || jq -e "$_jq_f" "$JQ_FILE" >/dev/null 2>&1; then
			ok "json $_jq_f"
		else
			fail "json filter false: $_jq_f"
		fi
	done
	FIXTURE=$_jq_fix OUT=$_jq_out ERR=$_jq_err TODO_REASON=$_jq_todo
}
expect_json() {
	selected || return 0
	read -r _jq_pid _ </proc/self/stat
	if [ "$_jq_pid" != "$JQ_PID" ]; then
		json_flush
		if jq -e "$1" "$JSON" >/dev/null 2>&1; then ok "json $1"; else fail "json filter false: $1"; fi
		return
	fi
	if [ -n "$JQ_Q$JQ_VALID" ] && { [ "$JSON" != "$JQ_FILE" ] || [ "$FIXTURE" != "$JQ_FIX" ] ||
		[ "$OUT" != "$JQ_OUT" ] || [ "$ERR" != "$JQ_ERR" ] || [ "${TODO_REASON:-}" != "$JQ_TODO" ]; }; then
		json_flush
	fi
	[ -n "$JQ_Q$JQ_VALID" ] || json_context
	# a newline before the ')' ends a '# comment' in the filter
	JQ_PROG="$JQ_PROG${JQ_Q:+, }(try ([\$__v | ($1
)] | if length == 0 then 0 elif (.[-1] | . == false or . == null) then 0 else 1 end) catch 0)"
	JQ_Q="$JQ_Q$1$US"
	JQ_N=$((JQ_N + 1))
}
# json_status ID: STATUS= the status of check ID in $JSON, as status_of
# prints it; the statuses of an output are read once, in one jq.
JQ_SFILE="" JQ_SGEN="" JQ_S=""
json_status() {
	if [ "$JQ_SFILE" != "$JSON" ] || [ "$JQ_SGEN" != "$JQ_GEN" ]; then
		JQ_SFILE=$JSON JQ_SGEN=$JQ_GEN
		# only what the lines can carry: string ids and statuses, no tab or newline
		JQ_S=$(jq -r 'if all(.checks[]; (.id | type) == "string" and (.status | type) == "string"
				and ((.id + .status) | test("[\t\n]") | not))
			then (.checks[] | "\(.id)\t\(.status)") else error("other") end' "$JSON" 2>/dev/null) &&
			JQ_S="$NL$JQ_S$NL" || JQ_S=""
	fi
	case $JQ_S in
	'') STATUS=$(jq -r --arg id "$1" '.checks[] | select(.id == $id) | .status' "$JSON") ;;
	*"$NL$1$TAB"*"$NL$1$TAB"*) # twice: each, as jq prints them
		STATUS=$(jq -r --arg id "$1" '.checks[] | select(.id == $id) | .status' "$JSON") ;;
	*"$NL$1$TAB"*) STATUS=${JQ_S#*"$NL$1$TAB"} STATUS=${STATUS%%"$NL"*} ;;
	*) STATUS="" ;;
	esac
}
status_of() {
	json_status "$1"
	if [ -n "$STATUS" ]; then printf '%s\n' "$STATUS"; fi
}
expect_status() {
	selected || return 0
	json_status "$1"
	if [ "$STATUS" = "$2" ]; then ok "$1 is $2"; else fail "$1 is '$STATUS', expected $2"; fi
}

done_testing() {
	json_flush
	echo "e2e-result: $T_PASS passed, $T_FAIL failed"
	[ "$T_FAIL" -eq 0 ]
}

# session_members SID: "PID STATE COMM" of every live (not zombie) process
# in session SID, read from /proc (ps may not be installed).
session_members() {
	cat /proc/[0-9]*/stat 2>/dev/null |
		awk -v s="$1" 'NF {
			pid = $1; comm = $0; sub(/^[^(]*\(/, "", comm); sub(/\).*$/, "", comm)
			rest = $0; sub(/^.*\) /, "", rest); split(rest, f, " ")
			if (f[4] == s && f[1] != "Z") print pid, f[1], comm
		}'
}

# ---- servers on loopback (outputs.sh, fleet.sh) ----
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
http_get() { # URL -> stdout; fails when no 200
	python3 -c 'import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=3) as r: sys.stdout.write(r.read().decode())' "$1" 2>/dev/null
}
wait_http() { # URL: 0 once it answers 200, 1 after 20 s
	i=0
	until http_get "$1" >/dev/null; do
		i=$((i + 1))
		[ $i -ge 100 ] && return 1
		sleep 0.2
	done
}
