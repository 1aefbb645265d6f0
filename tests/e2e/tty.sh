#!/bin/sh
# tty.sh: probes and the commands they run never reach the user's terminal.
# wslgpu runs on a pseudo-terminal (python3's pty module) as the foreground
# job and as a background job; the stand-in nvidia-smi writes title and
# clipboard escape sequences to /dev/tty, runs `stty -echo` and reads the
# terminal (tests/fakes/nvidia-smi/tty). The terminal's settings must be
# unchanged afterwards, none of its bytes may reach the screen, and nothing
# may be stopped or reported as a hang. Also: a driver or command that is
# stopped (SIGSTOP) is reported as stopped, at once; a driver writing into a
# descriptor (fd 9, or every one it finds open) does not stall the run.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { echo "ok - # SKIP no python3"; done_testing; exit 0; }
SMI_FAKES=$top/tests/fakes/nvidia-smi

# ptyrun MODE LOG -- ENV... -- ARGS: runs env -i ENV wslgpu ARGS on a new
# pseudo-terminal (its controlling terminal; MODE fg: the foreground job,
# bg: a background job of it). Writes the screen to LOG.screen, the
# terminal's settings before and after to LOG.before/LOG.after; exits with
# wslgpu's status (124: not done in 60 s).
cat >"$WORK/ptyrun.py" <<'PY'
import fcntl, os, select, sys, termios, time
mode, log = sys.argv[1], sys.argv[2]
args = sys.argv[3:]
env = {}
while args and args[0] != "--":
    k, _, v = args.pop(0).partition("=")
    env[k] = v
args.pop(0)
master, slave = os.openpty()
before = termios.tcgetattr(slave)
pid = os.fork()
if pid == 0:
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    for fd in (0, 1, 2):
        os.dup2(slave, fd)
    os.close(master)
    os.close(slave)
    if mode == "bg":
        job = os.fork()
        if job == 0:
            os.setpgid(0, 0)  # a job of the terminal, not the foreground one
            os.execve(args[0], args, env)
        try:  # both sides set it, as shells do; once the job has
            os.setpgid(job, job)  # exec'd (its own call done) this is EACCES
        except PermissionError:
            pass
        _, st = os.waitpid(job, 0)
        os._exit(os.waitstatus_to_exitcode(st) & 255)
    os.execve(args[0], args, env)
screen = b""
deadline = time.time() + 60
status = None
while True:
    r, _, _ = select.select([master], [], [], 0.1)
    if r:
        screen += os.read(master, 65536)
    done, st = os.waitpid(pid, os.WNOHANG)
    if done:
        status = os.waitstatus_to_exitcode(st)
        break
    if time.time() > deadline:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        status = 124
        break
while select.select([master], [], [], 0.2)[0]:
    b = os.read(master, 65536)
    if not b:
        break
    screen += b
after = termios.tcgetattr(slave)
open(log + ".screen", "wb").write(screen)
open(log + ".before", "w").write(repr(before))
open(log + ".after", "w").write(repr(after))
sys.exit(status if status >= 0 else 128 - status)
PY

ptyrun() {
	mode=$1 log=$2
	shift 2
	selected || return 0
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	python3 "$WORK/ptyrun.py" "$mode" "$log" $(fixture_tool --env "$FIXTURE") $EXTRA_ENV \
		TERM=xterm COLUMNS=1000 -- "$WSLGPU" --root "$ROOT" "$@"
	RC=$?
	SECS=$(echo "$(date +%s.%N) $t0" | awk '{printf "%.2f", $1 - $2}')
	OUT=$(tr -d '\r' <"$log.screen" 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g')
	ERR=""
}

expect_terminal_untouched() { # LOG WHAT
	selected || return 0
	if cmp -s "$1.before" "$1.after"; then ok "$2: the terminal's settings are unchanged"
	else fail "$2: the terminal's settings changed: $(cat "$1.before") -> $(cat "$1.after")"; fi
	if grep -q 'pwned\|]52;' "$1.screen"; then fail "$2: the stand-in's escape sequences reached the terminal"
	else ok "$2: nothing of the stand-in's reached the terminal"; fi
	if grep -q 'wrote to /dev/tty\|stty -echo\|read the terminal' "$WORK/tty.log" 2>/dev/null; then
		fail "$2: the stand-in reached the terminal: $(tr '\n' ';' <"$WORK/tty.log")"
	elif grep -q 'no /dev/tty' "$WORK/tty.log" 2>/dev/null; then
		ok "$2: the stand-in found no terminal to open"
	else
		fail "$2: the stand-in did not run"
	fi
}

for mode in fg bg; do
	fixture healthy-wsl2
	cp "$SMI_FAKES/tty" "$ROOT/usr/lib/wsl/lib/nvidia-smi"
	setenv FAKE_SMI_TTY=$WORK/tty.log
	: >"$WORK/tty.log"
	ptyrun $mode "$WORK/$mode" check --only nvml.smi --timeout 20
	expect_rc 0
	expect_line '✓ nvml\.smi +nvidia-smi works: driver 551\.23'
	expect_no_line 'wsl\.exe --shutdown|did not finish|stopped'
	expect_terminal_untouched "$WORK/$mode" "check, $mode job"
	# report runs nvidia-smi and more commands for its bundle.
	: >"$WORK/tty.log"
	ptyrun $mode "$WORK/$mode-report" report -o "$WORK/bundle-$mode.tar.gz" --timeout 20
	expect_rc 0
	expect_terminal_untouched "$WORK/$mode-report" "report, $mode job"
done

# watch's GPU sampler loads NVML in a child of its own, detached like a
# probe's: the driver finds no terminal to open (before, it had watch's).
if selected; then
	: >"$WORK/nvml-tty.log"
	python3 "$WORK/ptyrun.py" fg "$WORK/watch" PATH=/usr/bin:/bin HOME=/home/user LANG=C.UTF-8 \
		TERM=xterm LD_LIBRARY_PATH="$FAKES" FAKE_NVML_TTY="$WORK/nvml-tty.log" -- \
		"$WSLGPU" watch --interval 200ms -- sleep 1
	RC=$?
	expect_rc 0
	if grep -q '^opened /dev/tty' "$WORK/nvml-tty.log"; then
		fail "watch's sampler: NVML opened the terminal"
	elif grep -q '^no /dev/tty' "$WORK/nvml-tty.log"; then
		ok "watch's sampler: NVML found no terminal to open"
	else
		fail "watch's sampler: NVML was not initialised ($(cat "$WORK/nvml-tty.log"))"
	fi
	if cmp -s "$WORK/watch.before" "$WORK/watch.after"; then ok "watch: the terminal's settings are unchanged"
	else fail "watch: the terminal's settings changed"; fi
fi

# A command stopped by SIGSTOP: reported as stopped, at once, not as a hang.
fixture healthy-wsl2
cp "$SMI_FAKES/stopped" "$ROOT/usr/lib/wsl/lib/nvidia-smi"
run_json --only nvml.smi --timeout 30
expect_rc 1
expect_status nvml.smi fail
expect_json '.checks[] | select(.id == "nvml.smi") | .detail | test("was stopped \\(SIGSTOP\\) and killed")'
expect_json '.checks[] | select(.id == "nvml.smi") | [.fix[] | test("wsl.exe --shutdown")] | any | not'
if awk -v s="$SECS" 'BEGIN { exit !(s < 20) }'; then ok "ended in ${SECS}s, not at the 30 s limit"
else fail "took ${SECS}s: waited for the time limit"; fi

# A driver that stops itself in cuInit: SIGSTOP is reported as stopped at
# once; the terminal's stops (SIGTTOU, SIGTTIN, SIGTSTP) cannot stop a
# probe with no terminal, so the run goes on and passes.
fixture healthy-wsl2
setenv FAKE_CUDA_STOP=SIGSTOP
run_json --only cuda --timeout 30
expect_rc 1
expect_status cuda.init crash
expect_json '.checks[] | select(.id == "cuda.init") | .detail | test("stopped \\(SIGSTOP\\) and killed while: cuInit")'
expect_json '.checks[] | select(.id == "cuda.init") | [.fix[] | test("wsl.exe --shutdown")] | any | not'
if awk -v s="$SECS" 'BEGIN { exit !(s < 20) }'; then ok "ended in ${SECS}s, not at the 30 s limit"
else fail "took ${SECS}s: waited for the time limit"; fi
run check --only cuda.init --timeout 30
expect_line '^ +cause +The probe.s process was stopped \(SIGSTOP\) while cuInit'
for sig in SIGTTOU SIGTTIN SIGTSTP; do
	fixture healthy-wsl2
	setenv FAKE_CUDA_STOP=$sig
	run_json --only cuda --timeout 30
	expect_rc 0
	expect_status cuda.kernel pass
done

# A driver that writes into descriptor 9 (the caller's, or one of ours that
# landed there) and one that writes into every descriptor open for writing
# (the result pipe, wherever it is): neither stalls the run nor is a hang.
fixture healthy-wsl2
setenv FAKE_CUDA_WRITE_FD=9
for i in 1 2 3; do
	run_json --only cuda,nvml --timeout 30
	[ "$RC" = 0 ] || break
done
expect_rc 0
expect_status cuda.kernel pass
fixture healthy-wsl2
setenv FAKE_CUDA_WRITE_FD=all
run_json --only cuda --timeout 30
expect_rc 1
expect_status cuda.init crash
expect_json '.checks[] | select(.id == "cuda.init") | .detail | test("wrote into the probe.s result pipe while: cuInit")'
expect_json '.checks[] | select(.id == "cuda.init") | .evidence.foreign_bytes | test("the fake libcuda wrote")'
expect_json '[.checks[] | select(.status == "timeout")] | length == 0'
expect_json '.checks[] | select(.id == "cuda.init") | [.fix[] | test("wsl.exe --shutdown")] | any | not'
if awk -v s="$SECS" 'BEGIN { exit !(s < 20) }'; then ok "ended in ${SECS}s, not at the 30 s limit"
else fail "took ${SECS}s: waited for the time limit"; fi

# ---- the pager (src/cli/pager.c): long output for reading, on a terminal ----
# A stand-in pager records that it ran, with LESS, and keeps what it was
# given; "head" quits after the first line, as a person quitting less early.
cat >"$WORK/pager" <<'EOF'
#!/bin/sh
echo "ran LESS=$LESS" >>"$PAGER_LOG"
cat >"$PAGER_LOG.text"
EOF
cat >"$WORK/pager-quit" <<'EOF'
#!/bin/sh
echo "ran" >>"$PAGER_LOG"
head -n 1 >"$PAGER_LOG.text"
EOF
cat >"$WORK/pager-hang" <<'EOF'
#!/bin/sh
echo $$ >"$PAGER_LOG.pid"
exec sleep 60
EOF
chmod +x "$WORK/pager" "$WORK/pager-quit" "$WORK/pager-hang"
PAGER_LOG=$WORK/pager.log
paged() { # WHAT: the stand-in ran and was given the kb listing, not the screen
	if [ -s "$PAGER_LOG" ] && head -1 "$PAGER_LOG.text" 2>/dev/null | grep -q '^knowledge: '; then
		ok "$1: the pager showed it"
	else
		fail "$1: the pager did not run or got nothing ($(cat "$PAGER_LOG" 2>/dev/null))"
	fi
	if printf '%s\n' "$OUT" | grep -q '^knowledge: '; then fail "$1: printed past the pager"
	else ok "$1: nothing past the pager"; fi
}
not_paged() { # WHAT
	if [ -e "$PAGER_LOG" ]; then fail "$1: the pager ran ($(cat "$PAGER_LOG"))"
	else ok "$1: no pager"; fi
}
fixture healthy-wsl2
for how in WSLGPU_PAGER PAGER; do
	rm -f "$PAGER_LOG" "$PAGER_LOG.text"
	EXTRA_ENV="PAGER_LOG=$PAGER_LOG $how=$WORK/pager"
	ptyrun fg "$WORK/pg-$how" kb
	expect_rc 0
	paged "kb on a terminal, \$$how set"
	if grep -qx 'ran LESS=FRX' "$PAGER_LOG"; then ok "LESS=FRX when LESS is unset"
	else fail "the pager got $(cat "$PAGER_LOG")"; fi
done
# WSLGPU_PAGER before PAGER; a LESS of the user's is kept.
rm -f "$PAGER_LOG" "$PAGER_LOG.text"
EXTRA_ENV="PAGER_LOG=$PAGER_LOG WSLGPU_PAGER=$WORK/pager PAGER=/nonexistent/pager LESS=-S"
ptyrun fg "$WORK/pg-both" kb bridge.dxg.missing
expect_rc 0
if grep -qx 'ran LESS=-S' "$PAGER_LOG" && grep -q '^\[bridge\.dxg\.missing\]' "$PAGER_LOG.text"; then
	ok "WSLGPU_PAGER wins over PAGER; the user's LESS is kept"
else fail "WSLGPU_PAGER and PAGER: $(cat "$PAGER_LOG" 2>/dev/null)"; fi
# check -v is for reading too.
rm -f "$PAGER_LOG" "$PAGER_LOG.text"
EXTRA_ENV="PAGER_LOG=$PAGER_LOG WSLGPU_PAGER=$WORK/pager"
ptyrun fg "$WORK/pg-check" check -v --only platform --timeout 20
expect_rc 0
# (in colour: the pager is on the terminal, and LESS=R shows it)
if sed 's/\x1b\[[0-9;]*m//g' "$PAGER_LOG.text" 2>/dev/null | grep -q '^✓ platform\.kind' &&
	grep -q "$(printf '\033')\[32m✓" "$PAGER_LOG.text"; then
	ok "check -v goes through the pager, in colour"
else fail "check -v did not go through the pager"; fi
# Never with --no-pager, WSLGPU_PAGER=cat or empty, a pager that is not
# found, nor on a pipe.
for how in "--no-pager" "WSLGPU_PAGER=cat" "WSLGPU_PAGER=" "WSLGPU_PAGER=/nonexistent/pager"; do
	rm -f "$PAGER_LOG" "$PAGER_LOG.text"
	case $how in
	--*) EXTRA_ENV="PAGER_LOG=$PAGER_LOG WSLGPU_PAGER=$WORK/pager"; set -- "$how" kb ;;
	*) EXTRA_ENV="PAGER_LOG=$PAGER_LOG PAGER=$WORK/pager $how"; set -- kb ;;
	esac
	ptyrun fg "$WORK/pg-none" "$@"
	expect_rc 0
	not_paged "kb with $how"
	expect_line '^knowledge: '
done
rm -f "$PAGER_LOG" "$PAGER_LOG.text"
EXTRA_ENV="PAGER_LOG=$PAGER_LOG WSLGPU_PAGER=$WORK/pager"
run kb
expect_rc 0
not_paged "kb on a pipe"
expect_line '^knowledge: '
run check -v --only platform
not_paged "check -v on a pipe"
# Short output that is not for reading: no pager.
EXTRA_ENV="PAGER_LOG=$PAGER_LOG WSLGPU_PAGER=$WORK/pager"
ptyrun fg "$WORK/pg-check-short" check --only platform --timeout 20
not_paged "check without -v"
# The person quits the pager after the first line: wslgpu ends at once,
# quietly, with its own status.
rm -f "$PAGER_LOG" "$PAGER_LOG.text"
EXTRA_ENV="PAGER_LOG=$PAGER_LOG WSLGPU_PAGER=$WORK/pager-quit"
ptyrun fg "$WORK/pg-quit" kb
expect_rc 0
if grep -q '^knowledge: ' "$PAGER_LOG.text" 2>/dev/null; then ok "the pager got the first line"
else fail "the quitting pager got nothing"; fi
expect_no_line 'write error|Broken pipe|wslgpu'
# The pager never outlives wslgpu: wslgpu waits for it, and when wslgpu is
# killed (SIGKILL: no chance to wait) the pager ends with it.
rm -f "$PAGER_LOG.pid"
cat >"$WORK/killrun.py" <<'PY'
import os, pty, sys, time, signal
pid, fd = pty.fork()
if pid == 0:
    os.execve(sys.argv[1], sys.argv[1:], {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
              "WSLGPU_PAGER": os.environ["WSLGPU_PAGER"], "PAGER_LOG": os.environ["PAGER_LOG"]})
pidfile = os.environ["PAGER_LOG"] + ".pid"
deadline = time.time() + 30
while not os.path.exists(pidfile) or not open(pidfile).read().strip():
    if time.time() > deadline:
        print("no pager"); sys.exit(1)
    time.sleep(0.05)
pager = int(open(pidfile).read())
time.sleep(0.3)
done, _ = os.waitpid(pid, os.WNOHANG)
print("waited" if done == 0 else "did not wait")
os.kill(pid, signal.SIGKILL)
os.waitpid(pid, 0)
for i in range(100):
    try:
        os.kill(pager, 0)
    except ProcessLookupError:
        print("pager ended"); sys.exit(0)
    time.sleep(0.05)
print("pager survived"); os.kill(pager, signal.SIGKILL); sys.exit(1)
PY
res=$(WSLGPU_PAGER="$WORK/pager-hang" PAGER_LOG="$PAGER_LOG" python3 "$WORK/killrun.py" "$WSLGPU" kb | tr '\n' ' ')
case "$res" in
"waited pager ended ") ok "wslgpu waits for its pager, and the pager ends when wslgpu is killed" ;;
*) fail "pager and wslgpu: $res" ;;
esac

done_testing
