#!/bin/sh
# fix.sh: wslgpu fix -- the plan's text on fixture machines, and --apply,
# which only ever edits files inside the fixture copy (with a backup).
. "$(dirname "$0")/lib.sh"

# Runs without a controlling terminal (setsid), as cron or CI would: then
# --apply cannot ask and must refuse unless --yes.
NOTTY="$WORK/notty"
printf '#!/bin/sh\nexec setsid -w %s "$@"\n' "$BUILD/wslgpu" >"$NOTTY"
chmod +x "$NOTTY"
REAL_WSLGPU=$WSLGPU
WSLGPU=$NOTTY

expect_same() { # FILE1 FILE2 what
	if cmp -s "$1" "$2"; then ok "$3"; else fail "$3: $1 and $2 differ"; fi
}
expect_file_line() { # FILE ERE
	if grep -Eq -- "$2" "$1"; then ok "$(basename "$1") has /$2/"; else
		fail "$(basename "$1") has no line /$2/"; cat "$1"; fi
}
# Lines of the plan that would run in sh: only the guard may.
live_lines() { printf '%s\n' "$OUT" | grep -v '^#' | grep -v '^$' | grep -v -e "^echo 'wslgpu fix: " -e '^exit 1$'; }

# ---- a distro libcuda, on LD_LIBRARY_PATH from ~/.bashrc (field case R05)
fixture distro-libcuda
printf '# ~/.bashrc\nalias ll="ls -l"\nexport LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/lib/x86_64-linux-gnu\n' \
	>"$ROOT/home/user/.bashrc"
cp "$ROOT/home/user/.bashrc" "$WORK/bashrc.orig"
run fix
expect_rc 1
expect_line '^#!/bin/sh$'
expect_line '^# made by wslgpu [0-9.]+ \(commit [^)]+\) on [0-9-]+ [0-9:]+ UTC\. It changes nothing\.$'
expect_line '^exit 1$'
expect_line '^# \[1\] libs\.libcuda \(fail\): '
# one cause, one step: libnvml, env and cuda.load follow from it
expect_line '^# also:  libs\.libnvml, libs\.env, cuda\.load \(the same cause: fixed with it\)$'
expect_no_line '^# \[[0-9]\] (libs\.libnvml|libs\.env|cuda\.load) '
expect_line '^# why:   LD_LIBRARY_PATH names /usr/lib/x86_64-linux-gnu, where the Linux NVIDIA driver package libnvidia-compute-535'
expect_line '^# risk:  high: removes packages'
expect_line '^# needs root'
expect_line '^# --apply edits /home/user/.bashrc line 3:$'
expect_line '^#     was: export LD_LIBRARY_PATH=\$LD_LIBRARY_PATH:/usr/lib/x86_64-linux-gnu$'
expect_line '^unset LD_LIBRARY_PATH   # for this shell$'
expect_line '^sudo apt-get remove --purge libnvidia-compute-535$'
expect_no_line '^# \[[0-9]\] cuda\.(init|devices|kernel)'
expect_same "$ROOT/home/user/.bashrc" "$WORK/bashrc.orig" "the plan changed nothing"
# failures come before warnings
first_warn=$(printf '%s\n' "$OUT" | grep -n '^# \[[0-9]*\] .*(warn)' | head -1 | cut -d: -f1)
if [ -z "$first_warn" ] || [ "$first_warn" -gt \
	"$(printf '%s\n' "$OUT" | grep -n '(fail)' | tail -1 | cut -d: -f1)" ]; then
	ok "failures before warnings"; else fail "a warning comes before a failure"; fi

run_json fix
expect_json '.schema == "wslgpu/fix/1"'
expect_json '.steps[0].check == "libs.libcuda" and .steps[0].risk == "high" and .steps[0].needs_root'
expect_json '.steps[0].edits[0].file == "/home/user/.bashrc" and .steps[0].edits[0].line == 3 and .steps[0].edits[0].automatic'
expect_json '.steps[0].consequences == "libs.libnvml, libs.env, cuda.load"'
expect_json '[.steps[].check] | index("cuda.load") == null'
expect_json '.automatic == 1'
expect_json '[.steps[0].commands[] | select(.command == "sudo ldconfig")][0].needs_root'

# no terminal, no --yes: refuse, change nothing
run fix --apply
expect_rc 2
expect_err 'no terminal to ask on; nothing was changed'
expect_same "$ROOT/home/user/.bashrc" "$WORK/bashrc.orig" "refusal changed nothing"
if ls "$ROOT/home/user/" | grep -q backup; then fail "a backup was made"; else ok "no backup"; fi

run fix --apply --yes
expect_line '^step 1 \(libs\.libcuda\): /home/user/\.bashrc line 3 sets LD_LIBRARY_PATH$'
expect_line 'edited; the original is in /home/user/\.bashrc\.wslgpu-backup-[0-9]{8}-[0-9]{6}$'
expect_line '^  unset LD_LIBRARY_PATH$'
expect_line 'as a new shell will see them'
# with LD_LIBRARY_PATH gone, WSL's libcuda.so.1 wins; the package is still there
expect_line '^. libs\.libcuda +libcuda\.so\.1 is WSL'
expect_line '^✓ libs\.env '
expect_file_line "$ROOT/home/user/.bashrc" '^# disabled by wslgpu fix on [0-9-]{10}: export LD_LIBRARY_PATH=\$LD_LIBRARY_PATH:/usr/lib/x86_64-linux-gnu$'
expect_file_line "$ROOT/home/user/.bashrc" '^alias ll="ls -l"$'
bak=$(ls "$ROOT"/home/user/.bashrc.wslgpu-backup-* 2>/dev/null | head -1)
if [ -n "$bak" ]; then expect_same "$bak" "$WORK/bashrc.orig" "the backup is the original"; else fail "no backup"; fi
run fix --apply --yes
expect_rc 1
expect_line '^wslgpu fix --apply: nothing to apply automatically\.$'
if [ "$(ls "$ROOT"/home/user/.bashrc.wslgpu-backup-* | wc -l)" = 1 ]; then ok "one backup"; else fail "more backups"; fi
run fix
expect_line '^# note:  no startup file wslgpu reads .* sets LD_LIBRARY_PATH'

# ---- the toolkit's stubs first: the line is rewritten, a system file is left to root
fixture ldpath-stubs
printf 'export LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs:/usr/local/cuda/lib64\n' >"$ROOT/home/user/.profile"
mkdir -p "$ROOT/etc/profile.d"
printf 'export LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs:$LD_LIBRARY_PATH\n' >"$ROOT/etc/profile.d/cuda.sh"
chmod 600 "$ROOT/home/user/.profile"
run fix
expect_rc 1
expect_line '^# \[1\] libs\.libcuda \(fail\): '
expect_line '^export LD_LIBRARY_PATH=/usr/local/cuda/lib64   # for this shell: drops the stubs directory$'
expect_line '^# --apply edits /home/user/\.profile line 1:$'
expect_line '^#          export LD_LIBRARY_PATH=/usr/local/cuda/lib64$'
expect_line '^# edit by hand: /etc/profile\.d/cuda\.sh line 1:$'
expect_line '^#     not automatic: a system file: edit it yourself with root \(sudoedit /etc/profile\.d/cuda\.sh\)$'
run fix --apply --yes
expect_line '^  export LD_LIBRARY_PATH=/usr/local/cuda/lib64$'
expect_line '^  \(a new shell may still get LD_LIBRARY_PATH from /etc/profile\.d/cuda\.sh line 1\)$'
# not the corrected line it has just written (line 2 of ~/.profile)
expect_no_line 'may still get LD_LIBRARY_PATH from /home/user/\.profile'
expect_line '^✓ libs\.libcuda '
expect_file_line "$ROOT/home/user/.profile" '^# disabled by wslgpu fix on .*: export LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs:/usr/local/cuda/lib64$'
expect_file_line "$ROOT/home/user/.profile" '^export LD_LIBRARY_PATH=/usr/local/cuda/lib64$'
if [ "$(stat -c %a "$ROOT/home/user/.profile")" = 600 ]; then ok "mode kept"; else fail "mode $(stat -c %a "$ROOT/home/user/.profile")"; fi
expect_file_line "$ROOT/etc/profile.d/cuda.sh" '^export LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs:\$LD_LIBRARY_PATH$'

# ---- WSL1: one Windows-side step; nothing after it
fixture wsl1
run fix
expect_rc 1
expect_line '^# \[1\] platform\.kind \(fail\): '
expect_line '^# PS> wsl\.exe --set-version Ubuntu 2   \(in PowerShell\)$'
expect_line '^# risk:  medium: converts the whole distribution'
expect_no_line '^# \[2\]'
if [ -z "$(live_lines)" ]; then ok "nothing runs in sh"; else fail "live lines: $(live_lines)"; fi

# ---- no /dev/dxg: the kernel's; read-only looks here, the update in Windows
fixture no-dxg
run fix
expect_rc 1
expect_line '^# \[1\] bridge\.dxg \(fail\): '
expect_line '^# PS> wsl\.exe --update   \(in PowerShell: a current WSL brings a current kernel\)$'
expect_no_line 'nvidia-smi -g'
expect_line "1 has Windows-side commands"
# Only commands that look run in sh (uname, grep).
if live_lines | grep -qv '^uname -r\|^grep -in'; then fail "live lines: $(live_lines)"; else ok "only looks run in sh"; fi

# ---- healthy: nothing to fix
fixture healthy-wsl2
run fix
expect_rc 0
expect_line '^# nothing to fix: every check passed$'
expect_no_line '^exit'
run fix --apply
expect_rc 0
expect_line 'nothing to apply automatically'
run_json fix
expect_json '.steps == [] and .automatic == 0'

# ---- CUDA_VISIBLE_DEVICES="" from ~/.bashrc
fixture cuda-visible-devices-empty
printf 'export CUDA_VISIBLE_DEVICES=""\nexport CUDA_VISIBLE_DEVICES=$GPUS  # job script\n' >"$ROOT/home/user/.bashrc"
cp "$ROOT/home/user/.bashrc" "$WORK/bashrc.orig"
run fix
expect_rc 1
expect_line '^# \[1\] libs\.env \(fail\): '
expect_line '^# also:  cuda\.init \(the same cause: fixed with it\)$'
expect_line '^# --apply edits /home/user/\.bashrc line 1:$'
expect_line '^# edit by hand: /home/user/\.bashrc line 2:$'
expect_line '^unset CUDA_VISIBLE_DEVICES$'
run fix --apply --yes
expect_line '^  unset CUDA_VISIBLE_DEVICES$'
expect_line '^✓ libs\.env '
expect_line '^✓ cuda\.init '
expect_file_line "$ROOT/home/user/.bashrc" '^# disabled by wslgpu fix on .*: export CUDA_VISIBLE_DEVICES=""$'
expect_file_line "$ROOT/home/user/.bashrc" '^export CUDA_VISIBLE_DEVICES=\$GPUS  # job script$'
bak=$(ls "$ROOT"/home/user/.bashrc.wslgpu-backup-* 2>/dev/null | head -1)
if [ -n "$bak" ]; then expect_same "$bak" "$WORK/bashrc.orig" "the backup is the original"; else fail "no backup"; fi
run fix --apply --yes
expect_line 'nothing to apply automatically'
expect_line '/home/user/\.bashrc line 2 sets CUDA_VISIBLE_DEVICES: it does not set'

# ---- on a terminal (script(1) gives it one): asks, and "n" changes nothing
if command -v script >/dev/null 2>&1; then
	fixture cuda-visible-devices-empty
	printf 'export CUDA_VISIBLE_DEVICES=""\n' >"$ROOT/home/user/.bashrc"
	cp "$ROOT/home/user/.bashrc" "$WORK/bashrc.orig"
	on_tty() { # ANSWER
		OUT=$(printf '%s\n' "$1" | script -qec "env -i HOME=/home/user PATH=/usr/bin:/bin CUDA_VISIBLE_DEVICES= $REAL_WSLGPU --root $ROOT fix --apply --color never" /dev/null 2>&1)
		RC=$?
	}
	on_tty n
	expect_line 'Apply\? \[y/N\] +skipped'
	expect_same "$ROOT/home/user/.bashrc" "$WORK/bashrc.orig" "answering n changed nothing"
	if ls "$ROOT/home/user/" | grep -q backup; then fail "a backup was made"; else ok "no backup after n"; fi
	on_tty y
	expect_rc 0
	expect_line 'Apply\? \[y/N\] +edited; the original is in /home/user/\.bashrc\.wslgpu-backup-'
	expect_file_line "$ROOT/home/user/.bashrc" '^# disabled by wslgpu fix on .*: export CUDA_VISIBLE_DEVICES=""$'
else
	echo "# script(1) not found: the terminal prompt is not tested"
fi

# ---- two edits in one file: the first one's corrected line moves the second
fixture ldpath-stubs
printf 'export LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs:/usr/local/cuda/lib64\n# cuda\nexport LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs:$LD_LIBRARY_PATH\n' \
	>"$ROOT/home/user/.profile"
run fix --apply --yes
expect_no_line 'not changed'
expect_line '^step [0-9]+ \(libs\.libcuda\): /home/user/\.profile line 3 sets LD_LIBRARY_PATH$'
expect_no_line 'may still get LD_LIBRARY_PATH from /home/user/\.profile'
expect_file_line "$ROOT/home/user/.profile" '^# disabled by wslgpu fix on .*: export LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs:\$LD_LIBRARY_PATH$'
if [ "$(grep -c '^# disabled by wslgpu fix' "$ROOT/home/user/.profile")" = 2 ]; then ok "both lines edited"; else
	fail "not both lines edited"; cat "$ROOT/home/user/.profile"; fi

# ---- values from the machine are quoted for the shell wherever a command shows them
# Lines that would run when pasted: the shell's live expansions ($(...),
# `...`, ${...}, $NAME) outside single quotes, one a line; those the KB's
# own fix lines write ($USER, $(id -u)...) are the KB's, not the machine's.
cat >"$WORK/live.py" <<'PY'
import re, sys
kb = open(sys.argv[1]).read()  # a file: the KB's fix lines outgrew one argument (128 KiB)
def live(line):
    out, i, q, n = [], 0, None, len(line)
    while i < n:
        c = line[i]
        if q == "'":
            q = None if c == "'" else q
            i += 1
        elif c == "\\":
            i += 2
        elif c == "'":
            q, i = "'", i + 1
        elif c == '"':
            q, i = (None if q == '"' else '"'), i + 1
        elif c == "`":
            j = line.find("`", i + 1)
            j = n if j < 0 else j + 1
            out.append(line[i:j]); i = j
        elif c == "$" and i + 1 < n and line[i + 1] in "({" :
            close = ")" if line[i + 1] == "(" else "}"
            depth, j = 0, i + 1
            while j < n:
                if line[j] in "({": depth += 1
                elif line[j] in ")}":
                    depth -= 1
                    if depth == 0: break
                j += 1
            out.append(line[i:j + 1]); i = j + 1
        elif c == "$" and re.match(r"[A-Za-z_]", line[i + 1:i + 2]):
            m = re.match(r"\$[A-Za-z_][A-Za-z0-9_]*", line[i:])
            out.append(m.group()); i += len(m.group())
        else:
            i += 1
    return out
bad = 0
for line in sys.stdin.read().splitlines():
    for tok in live(line):
        if tok not in kb:
            print("live expansion %s from the machine in: %s" % (tok, line)); bad = 1
sys.exit(bad)
PY
KBFIX="$WORK/kbfix.txt"
grep -h '^fix:' "$top"/src/kb/*.kb >"$KBFIX"
# Every command line of a fix --json plan: bash -n, and no live machine expansion.
check_commands() { # JSON-FILE WHAT
	# templates (<slots> to fill in) are scanned, not parsed: the plan comments them out
	jq -r '.steps[].commands[] | select(.where == "linux" and .kind == "command") | .command' "$1" >"$WORK/cmds"
	bad=""
	while IFS= read -r c; do
		bash -n -c "$c" 2>/dev/null || bad="$bad [bash -n: $c]"
	done <"$WORK/cmds"
	jq -r '.steps[].commands[] | select(.where == "linux" and .kind == "template") | .command' "$1" >>"$WORK/cmds"
	if live=$(python3 "$WORK/live.py" "$KBFIX" <"$WORK/cmds"); then :; else bad="$bad $live"; fi
	if [ -z "$bad" ]; then ok "$2: every command passes bash -n, no live value from the machine"; else fail "$2:$bad"; fi
}
# A plan is a shell script that parses, whose only live lines are the guard.
check_plan() { # WHAT
	printf '%s\n' "$OUT" >"$WORK/plan.sh"
	if bash -n "$WORK/plan.sh" 2>"$WORK/bashn"; then ok "$1: the plan passes bash -n"; else
		fail "$1: the plan fails bash -n: $(head -3 "$WORK/bashn")"; fi
	# live lines come after the guard only: the first line that is neither
	# a comment nor empty (read by the shell: four processes a plan before)
	first_live=""
	while IFS= read -r l; do
		case $l in '#'* | '') continue ;; esac
		first_live=$l
		break
	done <<EOF
$OUT
EOF
	case "$first_live" in "echo 'wslgpu fix: "*|"") ok "$1: nothing runs before the guard" ;;
	*) fail "$1: a live line before the guard: $first_live" ;; esac
}
# The environment as the fixture's, plus one VAR=VALUE that may hold spaces.
run_env() { # VAR=VALUE ARGS...
	v=$1; shift
	# shellcheck disable=SC2046
	env -i $(fixture_tool --env "$FIXTURE" | tr '\n' ' ') "$v" "$WSLGPU" --root "$ROOT" "$@" \
		>"$WORK/out" 2>"$WORK/err"
	RC=$?
	OUT=$(cat "$WORK/out")
	ERR=$(cat "$WORK/err")
}
PWNED="$WORK/pwned"

if command -v python3 >/dev/null 2>&1 && command -v bash >/dev/null 2>&1; then
	# LD_LIBRARY_PATH with a space and a command substitution in its names
	fixture distro-libcuda
	mkdir -p "$ROOT/opt/my libs" "$ROOT/opt/\$(touch $PWNED)"
	evil="/usr/lib/x86_64-linux-gnu:/opt/my libs:/opt/\$(touch $PWNED)"
	run_env "LD_LIBRARY_PATH=$evil" check --json --timeout 5
	json_settle
	JSON="$WORK/evil.json"; cp "$WORK/out" "$JSON"
	line=$(jq -r '[.checks[].fix[]? | select(startswith("export LD_LIBRARY_PATH="))][0] | sub("   # .*$"; "")' "$JSON")
	want="/opt/my libs:/opt/\$(touch $PWNED)"
	got=$(env -i sh -c "$line; printf %s \"\$LD_LIBRARY_PATH\"" 2>&1)
	if [ "$got" = "$want" ] && [ ! -e "$PWNED" ]; then ok "check's ldpath fix sets exactly the kept directories, runs nothing"; else
		fail "check's fix line '$line' gave '$got' (pwned: $(ls "$PWNED" 2>/dev/null))"; fi
	run_env "LD_LIBRARY_PATH=$evil" fix --timeout 5
	check_plan "hostile LD_LIBRARY_PATH"
	line=$(printf '%s\n' "$OUT" | grep '^export LD_LIBRARY_PATH=' | head -1 | sed 's/   # .*$//')
	got=$(env -i sh -c "$line; printf %s \"\$LD_LIBRARY_PATH\"" 2>&1)
	if [ "$got" = "$want" ] && [ ! -e "$PWNED" ]; then ok "the plan's export sets exactly the kept directories"; else
		fail "the plan's '$line' gave '$got'"; fi
	run_env "LD_LIBRARY_PATH=$evil" fix --json --timeout 5
	cp "$WORK/out" "$WORK/evil-fix.json"
	check_commands "$WORK/evil-fix.json" "hostile LD_LIBRARY_PATH"
	# --apply's "or type:" line is quoted too
	printf 'export LD_LIBRARY_PATH="%s"\n' "$evil" | sed 's/\$(/\\$(/' >"$ROOT/home/user/.bashrc"
	run_env "LD_LIBRARY_PATH=$evil" fix --apply --yes --timeout 5
	line=$(printf '%s\n' "$OUT" | grep '^  export LD_LIBRARY_PATH=' | head -1)
	got=$(env -i sh -c "$line; printf %s \"\$LD_LIBRARY_PATH\"" 2>&1)
	if [ -n "$line" ] && [ "$got" = "$want" ] && [ ! -e "$PWNED" ]; then ok "--apply's export line is quoted"; else
		fail "--apply printed '$line', which gives '$got'"; fi

	# a Python whose path holds a space and $(...)
	fixture torch-arch-missing
	pydir="/opt/my env \$(touch $PWNED)/bin"
	mkdir -p "$ROOT$pydir"
	mv "$ROOT/usr/bin/python3" "$ROOT$pydir/python3"
	run_env "PATH=$pydir:/usr/bin:/bin" check --json --only frameworks.torch --timeout 10
	json_settle
	JSON="$WORK/py.json"; cp "$WORK/out" "$JSON"
	line=$(jq -r '.checks[] | select(.id == "frameworks.torch") | .fix[0]' "$JSON")
	case "$line" in "'$pydir/python3' -m pip install "*) ok "the interpreter's path is one quoted word" ;;
	*) fail "frameworks fix: $line" ;; esac
	run_env "PATH=$pydir:/usr/bin:/bin" fix --json --timeout 10
	cp "$WORK/out" "$WORK/py-fix.json"
	check_commands "$WORK/py-fix.json" "Python path with \$(...)"
	[ ! -e "$PWNED" ] && ok "nothing ran" || fail "a substitution ran"

	# --root holding a newline, and a startup file whose name holds one: the
	# plan shows them in comments, never on a live line
	fixture distro-libcuda
	nl='
'
	# (names without a slash: the plan runs in $WORK)
	evilroot="$WORK/m${nl}touch pwned-root${nl}x"
	mv "$ROOT" "$evilroot"
	ROOT=$evilroot
	mkdir -p "$ROOT/etc/profile.d"
	printf 'export LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu\n' >"$ROOT/etc/profile.d/a${nl}touch pwned-file${nl}.sh"
	run fix
	check_plan "--root and a file name with newlines"
	(cd "$WORK" && sh "$WORK/plan.sh" >/dev/null 2>&1)
	if [ ! -e "$WORK/pwned-root" ] && [ ! -e "$WORK/pwned-file" ]; then ok "running the plan runs no line from a name"; else
		fail "a name's line ran: $(ls "$WORK" | grep pwned)"; fi
	expect_line "^# wslgpu fix: the remediation plan for the machine at $WORK/m⏎touch pwned-root⏎x$"
	expect_line "^# edit by hand: /etc/profile\.d/a⏎touch pwned-file⏎\.sh line 1:$"
	expect_line "sudoedit '/etc/profile\.d/a⏎touch pwned-file⏎\.sh'"
	run fix --apply --yes
	expect_no_line "^touch "
	rm -rf "$evilroot"

	# every fixture: the plan parses, nothing runs before its guard, every
	# command parses and carries no live value from the machine
	for fx in $(fixture_tool --list); do
		fixture "$fx"
		run fix --timeout 5
		check_plan "$fx"
		run fix --json --timeout 5
		cp "$WORK/out" "$WORK/fx.json"
		check_commands "$WORK/fx.json" "$fx"
	done
	[ ! -e "$PWNED" ] && ok "no fixture's plan ran anything" || fail "a substitution ran"
else
	echo "# python3 or bash missing: the shell-quoting checks are skipped"
fi

# ---- a check's other problem (an "also" with an entry and a fix) is a step
# of its own, after the check's first: CUDA_HOME wrong beside LD_LIBRARY_PATH
fixture report-secrets
run fix
expect_line '^# 2 steps, '
expect_line '^# \[1\] libs\.env \(warn\): LD_LIBRARY_PATH names directories that do not exist$'
expect_line '^# \[2\] libs\.env \(warn\): CUDA_HOME or CUDA_PATH names a directory that does not exist$'
expect_line '^# found: CUDA_HOME=/opt/<secret>/cuda does not exist$'
expect_line '^unset CUDA_HOME   # for this shell: no toolkit is at /usr/local/cuda$'
run_json fix
expect_json '[.steps[] | .kb] == ["libs.env.ldpath_missing", "libs.env.cuda_home_missing"]'
expect_json '.steps[1].check == "libs.env" and .steps[1].found == "CUDA_HOME=/opt/<secret>/cuda does not exist"'
# swap in use beside too little memory: both warnings, each its step
fixture tiny-wslconfig
run_json fix
expect_json '[.steps[] | select(.check == "perf.memory") | .kb] == ["perf.memory.small", "perf.memory.swapping"]'
run_json check
expect_json '.checks[] | select(.id == "perf.memory") | .evidence.also_kb == "warn perf.memory.swapping"'

# ---- usage
fixture healthy-wsl2
run fix --yes
expect_rc 2
run fix --json --apply
expect_rc 2
run fix --bogus
expect_rc 2
run fix --only nosuch
expect_rc 2
run fix --help
expect_rc 0
expect_line '--apply'
WSLGPU=$REAL_WSLGPU

done_testing
