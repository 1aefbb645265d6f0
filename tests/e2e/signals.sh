# signals.sh: Ctrl-C (SIGINT), kill (SIGTERM), a closed terminal (SIGHUP)
# and a closed pipe (SIGPIPE) while a command runs its checks. With a
# cuInit that never returns (the fake libcuda's FAKE_CUDA_HANG), each
# command is sent the signal once cuInit is reached (the fake's trace says
# so: a loaded machine gets there late), and must:
#
#   - end well before the hung probe's time limit (--timeout 60: within
#     20 s, which a sanitizer build on a loaded machine needs, while a run
#     that waited for the probe would take a minute), with 128 + the signal
#     (129, 130, 141, 143); an ignored SIGHUP (nohup) stays ignored;
#   - print what it found: the checks that finished as usual, the one that
#     was running and the ones that never started marked "interrupted"
#     (JSON: "cut": "interrupted", summary "interrupted"), and a line saying
#     which signal ended the run;
#   - leave no process behind: the hung probe, in a process group of its
#     own, is killed, not re-parented to PID 1 (each run is made the leader
#     of a session of its own, whose members are looked for after it ends);
#   - deliver nothing half-done: smoke writes no --junit file, report no
#     bundle, fix --apply edits nothing; a temporary file (report's, which
#     exists while it collects) is removed by every signal that ends it.
#
# A file size limit (ulimit -f) is a write error, said, with no temporary
# file left: not death by SIGXFSZ.
#
# watch, whose GPU sampler (NVML, in a child) hangs, ends the same way:
# the signal is passed to the command, the sampler is killed, the summary
# printed, and watch exits 143.
. "$(dirname "$0")/lib.sh"

SETSID=$(command -v setsid || echo /usr/bin/setsid)

# bg ARGS...: starts wslgpu --root $ROOT ARGS in the fixture's environment
# (after "--raw": without --root, in a plain one), as the leader of a new
# session.
# Sets BG (its pid, also the session id).
bg() {
	rootargs="--root $ROOT"
	vars=""
	if [ "${1:-}" = --raw ]; then
		rootargs=""
		vars="PATH=/usr/local/bin:/usr/bin:/bin HOME=${HOME:-/root} LANG=C.UTF-8"
		shift
	else
		[ "$VARS_OF" = "$FIXTURE" ] || run_vars
		vars=$RUN_VARS
	fi
	rm -f "$WORK/sid" "$WORK/started"
	: >"$WORK/trace" # vendor code may append to it; the sandbox lets it create nothing
	# shellcheck disable=SC2086
	$ENV_HUP -i $vars COLUMNS=1000 $EXTRA_ENV WSLGPU_SIGNALS_RUN="$WORK" "$SETSID" sh -c 'echo $$ >"$0"; exec "$@"' "$WORK/sid" \
		"$WSLGPU" $rootargs "$@" >"$WORK/out" 2>"$WORK/err" &
	i=0
	while [ ! -s "$WORK/sid" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	BG=$(cat "$WORK/sid")
}

# interrupt SIG [WHAT]: sends SIG to the run once the fakes' trace
# ($WORK/trace) shows that it called WHAT (default cuInit, where it hangs),
# or, for WHAT "started", once the command watch runs has made
# $WORK/started; waits for its end (at most 60 s), sets RC, OUT, ERR and
# SECS (from the signal to the end).
interrupt() {
	i=0
	while [ $i -lt 1200 ]; do
		if [ "${2:-cuInit}" = started ]; then
			[ -e "$WORK/started" ] && break
		else
			grep -qx "call ${2:-cuInit}" "$WORK/trace" 2>/dev/null && break
		fi
		sleep 0.05
		i=$((i + 1))
	done
	t0=$(date +%s.%N)
	kill "-$1" "$BG"
	i=0
	while kill -0 "$BG" 2>/dev/null && [ "$(awk '{print $3}' "/proc/$BG/stat" 2>/dev/null)" != Z ] &&
		[ $i -lt 1200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	t1=$(date +%s.%N)
	kill -9 "$BG" 2>/dev/null
	wait "$BG" 2>/dev/null
	RC=$?
	SECS=$(echo "$t1 $t0" | awk '{printf "%.2f", $1 - $2}')
	OUT=$(cat "$WORK/out")
	ERR=$(cat "$WORK/err")
}

expect_quick_end() {
	if awk -v s="$SECS" 'BEGIN { exit !(s < 20) }'; then ok "ended ${SECS}s after the signal"
	else fail "ended ${SECS}s after the signal (expected < 20 s, the hung probe's limit is 60 s)"; fi
}

# Nothing of the run lives on: no process of its session (the probes keep
# it), given a moment to reap.
expect_nothing_left() {
	left=""
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		# Probes and commands have sessions of their own: what is left
		# of the run also carries its mark in its environment.
		left=$( { session_members "$BG"
			grep -lsz "^WSLGPU_SIGNALS_RUN=$WORK\$" /proc/[0-9]*/environ |
				sed 's,^/proc/\([0-9]*\)/environ$,\1,' | while read -r p; do
					st=$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null)
					[ -n "$st" ] && [ "$st" != Z ] && echo "$p $st (marked)"
				done; } | sort -u)
		[ -z "$left" ] && break
		sleep 0.1
	done
	if [ -z "$left" ]; then
		ok "no process of the run is left"
	else
		fail "processes left behind: $(echo "$left" | head -3 | tr '\n' ' ')"
		echo "$left" | awk '{print $1}' | xargs -r kill -9 2>/dev/null
	fi
}

fixture healthy-wsl2
setenv FAKE_CUDA_HANG=cuInit FAKE_CUDA_TRACE="$WORK/trace"

# ---- check: SIGTERM, the text report ----
bg check --timeout 60
interrupt TERM
expect_rc 143
expect_quick_end
expect_line '^- cuda\.init +interrupted by SIGTERM before it finished while waiting for: cuInit'
expect_line '^- cuda\.kernel +not run: interrupted by SIGTERM$'
expect_line '^✓ libs\.libcuda '
expect_line '^- Interrupted by SIGTERM: [0-9]+ checks did not finish \(marked "interrupted" above\)'
expect_no_line 'No problems found'
expect_err '^wslgpu check: interrupted by SIGTERM: [0-9]+ of [0-9]+ checks did not finish$'
expect_nothing_left

# ---- check --json: Ctrl-C ----
bg check --json --timeout 60
interrupt INT
expect_rc 130
expect_quick_end
json_settle
JSON=$WORK/out.json
printf '%s\n' "$OUT" >"$JSON"
expect_json '.summary.interrupted == "SIGINT"'
expect_json '.checks[] | select(.id == "cuda.init") | .cut == "interrupted" and .status == "skip"'
expect_json '.checks[] | select(.id == "cuda.kernel") | .cut == "interrupted"'
expect_json '.checks[] | select(.id == "libs.libcuda") | .status == "pass" and (has("cut") | not)'
expect_nothing_left

# ---- smoke: reported, nothing delivered ----
bg smoke --timeout 60 --junit "$WORK/junit.xml"
interrupt TERM
expect_rc 143
expect_quick_end
expect_line '^smoke: INTERRUPTED by SIGTERM after [0-9.]+ s of a 60 s budget: .*[0-9]+ did not finish; nothing delivered'
expect_line '^- cuda\.init +interrupted by SIGTERM'
if [ -e "$WORK/junit.xml" ]; then fail "smoke wrote --junit after an interrupt"; else ok "no --junit file"; fi
expect_nothing_left

# ---- report: no bundle; --markdown shows what finished ----
bg report --timeout 60 -o "$WORK/bundle.tar.gz"
interrupt TERM
expect_rc 143
expect_quick_end
expect_err 'cuda\.init +interrupted by SIGTERM'
expect_err '^wslgpu report: no bundle was written$'
if [ -e "$WORK/bundle.tar.gz" ]; then fail "a bundle was written"; else ok "no bundle"; fi
expect_nothing_left
bg report --timeout 60 --markdown
interrupt INT
expect_rc 130
expect_line '^\*\*Interrupted by SIGINT\*\*: [0-9]+ checks did not finish\.$'
expect_nothing_left

# ---- fix: the plan of what finished; --apply edits nothing ----
bg fix --timeout 60
interrupt TERM
expect_rc 143
expect_quick_end
expect_err '^wslgpu fix: interrupted by SIGTERM'
expect_nothing_left
bg fix --timeout 60 --apply --yes
interrupt TERM
expect_rc 143
expect_err '^wslgpu fix: nothing was applied$'
expect_nothing_left

# ---- explain --check ----
bg explain --check --timeout 60 "CUDA_ERROR_NO_DEVICE"
interrupt TERM
expect_rc 143
expect_quick_end
expect_err '^wslgpu explain: interrupted by SIGTERM: [0-9]+ of [0-9]+ checks did not finish$'
expect_nothing_left

# ---- SIGHUP (a closed terminal, a dropped SSH session) and SIGPIPE ----
bg check
interrupt HUP
expect_rc 129
expect_quick_end
expect_line '^- cuda\.init +interrupted by SIGHUP before it finished while waiting for: cuInit'
expect_err '^wslgpu check: interrupted by SIGHUP: [0-9]+ of [0-9]+ checks did not finish$'
expect_nothing_left
# (SIGPIPE is ignored while probes run: a probe child that died is an
# EPIPE to the runner, not its death; it is tested below and in bench.sh.)
for sig in HUP; do
	rm -f "$WORK/junit.xml"
	bg smoke --junit "$WORK/junit.xml"
	interrupt $sig
	expect_rc 129
	expect_quick_end
	expect_line "^smoke: INTERRUPTED by SIG$sig after"
	if [ -e "$WORK/junit.xml" ]; then fail "smoke wrote --junit after SIG$sig"; else ok "SIG$sig: no --junit file"; fi
	expect_nothing_left
done
# An ignored SIGHUP (nohup) stays ignored: the run goes on to its end.
rm -f "$WORK/sid"
# shellcheck disable=SC2086
env -i $RUN_VARS $EXTRA_ENV "$SETSID" sh -c 'echo $$ >"$0"; trap "" HUP; exec "$@"' "$WORK/sid" \
	"$WSLGPU" --root "$ROOT" check --timeout 3 >"$WORK/out" 2>"$WORK/err" &
i=0
while [ ! -s "$WORK/sid" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
BG=$(cat "$WORK/sid")
sleep 1
kill -HUP "$BG"
wait "$BG" 2>/dev/null
RC=$?
OUT=$(cat "$WORK/out"); ERR=$(cat "$WORK/err")
expect_rc 1
expect_line '^T cuda\.init '
expect_no_line 'interrupted'

# ---- a temporary file is removed by every signal that ends the tool ----
# report holds its temporary file while it collects; a hung nvidia-smi
# keeps it collecting. Each signal, sent once the temporary file exists,
# must end the tool (128 + the signal) and remove it.
EXTRA_ENV=""
printf '#!/bin/sh\nexec sleep 60\n' >"$ROOT/usr/lib/wsl/lib/nvidia-smi"
for sig in HUP INT TERM PIPE; do
	rm -rf "$WORK/tmpd" && mkdir "$WORK/tmpd"
	bg report --timeout 3 -o "$WORK/tmpd/b.tar.gz"
	i=0
	while [ -z "$(ls -A "$WORK/tmpd")" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
	seen=$(ls -A "$WORK/tmpd")
	case "$seen" in .b.tar.gz.tmp.*) ok "SIG$sig: report's temporary file exists ($seen)" ;;
	*) fail "SIG$sig: no temporary file appeared: '$seen'" ;; esac
	# The temporary file exists: the signal goes now ("started" is there).
	touch "$WORK/started"
	interrupt $sig started
	case $sig in HUP) want=129 ;; INT) want=130 ;; TERM) want=143 ;; PIPE) want=141 ;; esac
	expect_rc $want
	expect_quick_end
	if [ -z "$(ls -A "$WORK/tmpd")" ]; then ok "SIG$sig: nothing left beside the output"
	else fail "SIG$sig: left behind: $(ls -A "$WORK/tmpd")"; fi
	expect_nothing_left
done

# ---- a file size limit (ulimit -f): a write error, not death by SIGXFSZ ----
# Before, SIGXFSZ killed smoke, report and smoke --db (exit 153) and left
# a .NAME.tmp.XXXXXX beside the output.
fixture healthy-wsl2
vars=$(fixture_tool --env healthy-wsl2 | tr "\n" " ")
F="$WORK/fsize"
mkdir -p "$F"
for args in "smoke --junit $F/j.xml" "smoke --prom $F/p.prom" "report -o $F/b.tar.gz" \
	"report --markdown -o $F/r.md" "smoke --db $F/h.db"; do
	# 1 block of 512 bytes: every output is larger
	# shellcheck disable=SC2086
	(ulimit -f 1 && exec env -i $vars "$WSLGPU" --root "$ROOT" $args) >/dev/null 2>"$WORK/fs.err"
	RC=$?
	ERR=$(cat "$WORK/fs.err")
	if [ "$RC" != 0 ] && [ "$RC" -lt 128 ]; then ok "ulimit -f: $args: exit $RC, not a signal"
	else fail "ulimit -f: $args: exit $RC"; fi
	expect_err "(File too large|disk I/O error)"
	left=$(ls -A "$F" | grep "\.tmp\.")
	if [ -z "$left" ]; then ok "ulimit -f: $args: no temporary file left"; else fail "ulimit -f: $args left $left"; fi
done
# standard output to a file over the limit: a write error too (exit 3)
# shellcheck disable=SC2086
(ulimit -f 1 && exec env -i $vars "$WSLGPU" --root "$ROOT" check --json) >"$F/out.json" 2>"$WORK/fs.err"
RC=$?
ERR=$(cat "$WORK/fs.err")
expect_rc 3
expect_err "File too large"

# ---- watch: a hung GPU sampler, the command gets the signal ----
FIXTURE=watch
EXTRA_ENV=""
setenv LD_LIBRARY_PATH="$FAKES" FAKE_NVML_HANG=nvmlDeviceGetMemoryInfo FAKE_NVML_TRACE="$WORK/trace"
bg --raw watch -- sh -c "touch '$WORK/started'; exec sleep 30"
interrupt TERM started
expect_rc 143
expect_quick_end
expect_err 'was killed by SIGTERM'
expect_nothing_left
# Before the command started (the sampler's first reading, hung, is awaited
# for up to 3 s): it never starts.
bg --raw watch -- sh -c "touch '$WORK/started'; sleep 30"
interrupt INT nvmlDeviceGetMemoryInfo
expect_rc 130
expect_err '^wslgpu watch: interrupted by SIGINT before the command started$'
if [ -e "$WORK/started" ]; then fail "the command was started"; else ok "the command never started"; fi
expect_nothing_left

done_testing
