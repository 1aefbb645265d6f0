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
expect_line '^# \[2\] libs\.libnvml \(fail\): '
expect_line '^# why:   LD_LIBRARY_PATH names /usr/lib/x86_64-linux-gnu, where the Linux NVIDIA driver package libnvidia-compute-535'
expect_line '^# risk:  high: removes packages'
expect_line '^# needs root'
expect_line '^# --apply edits /home/user/.bashrc line 3:$'
expect_line '^#     was: export LD_LIBRARY_PATH=\$LD_LIBRARY_PATH:/usr/lib/x86_64-linux-gnu$'
expect_line '^unset LD_LIBRARY_PATH   # for this shell$'
expect_line '^sudo apt-get remove --purge libnvidia-compute-535$'
expect_line '^#   \(as in step 1\) sudo apt-get remove --purge libnvidia-compute-535$'
expect_line '^# \[[0-9]\] libs\.env \(warn\): '
# cuda.load still runs (it observes what libs predicted).
expect_line '^# \[[0-9]\] cuda\.load \(fail\): '
expect_no_line '^# \[[0-9]\] cuda\.(init|devices|kernel)'
expect_same "$ROOT/home/user/.bashrc" "$WORK/bashrc.orig" "the plan changed nothing"
# failures come before warnings
if [ "$(printf '%s\n' "$OUT" | grep -n '(warn)' | head -1 | cut -d: -f1)" -gt \
	"$(printf '%s\n' "$OUT" | grep -n '(fail)' | tail -1 | cut -d: -f1)" ]; then
	ok "failures before warnings"; else fail "a warning comes before a failure"; fi

run_json fix
expect_json '.schema == "wslgpu/fix/1"'
expect_json '.steps[0].check == "libs.libcuda" and .steps[0].risk == "high" and .steps[0].needs_root'
expect_json '.steps[0].edits[0].file == "/home/user/.bashrc" and .steps[0].edits[0].line == 3 and .steps[0].edits[0].automatic'
expect_json '.steps[1].edits[0].same_as_step == 1'
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
expect_line '^# PS> wsl\.exe --set-version DISTRO 2   \(in PowerShell; DISTRO is the NAME wsl\.exe -l -v lists\)$'
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
expect_line '^# \[2\] cuda\.init \(fail\): '
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
