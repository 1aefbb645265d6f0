# signals.sh: Ctrl-C (SIGINT) and kill (SIGTERM) while a command runs its
# checks. With a cuInit that never returns (the fake libcuda's
# FAKE_CUDA_HANG), each command is sent the signal once cuInit is reached
# (the fake's trace says so: a loaded machine gets there late), and must:
#
#   - end well before the hung probe's time limit (--timeout 60: within
#     20 s, which a sanitizer build on a loaded machine needs, while a run
#     that waited for the probe would take a minute), with 128 + the signal
#     (130, 143);
#   - print what it found: the checks that finished as usual, the one that
#     was running and the ones that never started marked "interrupted"
#     (JSON: "cut": "interrupted", summary "interrupted"), and a line saying
#     which signal ended the run;
#   - leave no process behind: the hung probe, in a process group of its
#     own, is killed, not re-parented to PID 1 (each run is made the leader
#     of a session of its own, whose members are looked for after it ends);
#   - deliver nothing half-done: smoke writes no --junit file, report no
#     bundle, fix --apply edits nothing.
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
		if [ "$VARS_OF" != "$FIXTURE" ]; then
			RUN_VARS=$(fixture_tool --env "$FIXTURE" | tr "\n" " ")
			VARS_OF=$FIXTURE
		fi
		vars=$RUN_VARS
	fi
	rm -f "$WORK/sid" "$WORK/trace" "$WORK/started"
	# shellcheck disable=SC2086
	env -i $vars COLUMNS=1000 $EXTRA_ENV "$SETSID" sh -c 'echo $$ >"$0"; exec "$@"' "$WORK/sid" \
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
		left=$(session_members "$BG")
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
