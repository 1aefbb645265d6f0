# security.sh: what the tool runs and how it shows it.
#
#  - `check -v` shows, for every command a probe ran, the absolute path it
#    executed ("ran" evidence, recorded by proc_run for every probe), and
#    the JSON's "ran" values are all absolute paths;
#  - the source never starts a command through a shell or by a bare name
#    (no system, popen, execlp/execvp, "/bin/sh", "-c" in the tool's own
#    code; proc.c's execv is the only exec);
#  - under strace, every execve the tool itself makes (not the ones the
#    fixture's own scripts make) is of an absolute path inside the root and
#    none is a shell given -c (skipped when strace is missing or ptrace is
#    not allowed);
#  - the environment's paths are read, never written: a run leaves the
#    fixture root (where $HOME, $PWD, $CUDA_HOME and the config files live)
#    byte for byte as it was;
#  - machine text forges no line: a GPU name from NVML with a newline and a
#    fake "✗ libs.libcuda" after it stays on its check's line; a file name
#    with ESC and a newline reaches neither the terminal nor the support
#    bundle's README raw;
#  - a character device at /dev/dxg that is not the dxg driver's (the wrong
#    major, or a misc minor that is not dxg) is not accepted;
#  - explain -f refuses a device or a FIFO (they may never end: -f - reads
#    standard input) instead of reading /dev/zero forever.
. "$(dirname "$0")/lib.sh"

# ---- -v shows the absolute path of every command run ----
fixture healthy-torch
# A docker that answers like an engine without the NVIDIA runtime: enough
# for containers.docker to run it.
cp "$top/tests/fixtures/docker-ce-no-toolkit/root/usr/bin/docker" "$ROOT/usr/bin/docker"
run -v --timeout 5
expect_line '^ +· ran: +/usr/lib/wsl/lib/nvidia-smi( |$)'
expect_line '^ +· ran: +/usr/bin/python3 -c <[0-9]+ bytes> torch \(exited with status 0, [0-9]+ ms\)$'
expect_line '^ +· ran: +/usr/bin/docker '
run_json -v --timeout 5
expect_json '[.checks[] | .evidence.ran // empty | if type == "array" then .[] else . end] | length >= 6'
expect_json '[.checks[] | .evidence.ran // empty | if type == "array" then .[] else . end] | all(startswith("/"))'
# Guest paths: the fixture's location on this machine never shows.
if jq -e --arg r "$ROOT" '[.checks[] | .evidence.ran // empty | if type == "array" then .[] else . end] | all(contains($r) | not)' "$JSON" >/dev/null; then
	ok "ran evidence shows guest paths, not where the root lies on this machine"
else
	fail "ran evidence names the root's host path $ROOT"
fi
expect_json '.checks[] | select(.id == "nvml.smi") | .evidence.ran | startswith("/usr/lib/wsl/lib/nvidia-smi")'
expect_json '.checks[] | select(.id == "containers.docker") | .evidence.ran | (if type == "array" then .[0] else . end) | startswith("/usr/bin/docker ")'

# ---- no shell, no PATH search, in the source ----
FIXTURE=source
hits=$(grep -rnE '\b(system|popen|execlp|execvp|execvpe|execle|posix_spawnp)[[:space:]]*\(|"/bin/(ba|da)?sh"|"sh", *"-c"' \
	"$top/src" --include='*.c' --include='*.h' | grep -v '^[^:]*:[0-9]*:[[:space:]]*\(/\*\|\*\)')
OUT=$hits
if [ -z "$hits" ]; then ok "no system/popen/execvp/shell in src/"; else fail "a command may go through a shell or PATH: $hits"; fi
# The one other exec is `wslgpu watch -- CMD` starting the user's own job
# (an absolute path or rootfs_which's answer, with the user's argv).
execs=$(grep -rnE '\bexec(v|ve|l)[[:space:]]*\(' "$top/src" --include='*.c' |
	grep -v -e 'src/core/proc.c' -e 'src/watch/run.c' |
	grep -v '^[^:]*:[0-9]*:[[:space:]]*\(/\*\|\*\)')
OUT=$execs
if [ -z "$execs" ]; then ok "src/core/proc.c is the only place that execs a probe command"; else fail "exec outside proc.c: $execs"; fi

# ---- strace: what the tool really executes ----
FIXTURE=healthy-torch
if command -v strace >/dev/null 2>&1 && strace -f -qq -o /dev/null true 2>/dev/null; then
	fixture healthy-torch
	cp "$top/tests/fixtures/docker-ce-no-toolkit/root/usr/bin/docker" "$ROOT/usr/bin/docker"
	trace=$WORK/strace.log
	env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/home/user LANG=C.UTF-8 \
		strace -f -qq -s 256 -e trace=execve,clone,clone3,fork,vfork -o "$trace" \
		"$WSLGPU" --root "$ROOT" --json --timeout 5 >"$WORK/out" 2>"$WORK/err"
	RC=$?
	# Pass 1: each process's parent, and which processes exec'd. Pass 2: an
	# execve is the tool's own when no ancestor below the tool's first
	# process has exec'd (the children of a command are the command's).
	verdict=$(awk -v root="$ROOT" '
		function num(s) { sub(/^[^0-9]*/, "", s); return s + 0 }
		NR == FNR {
			pid = $1 + 0
			if (!first) first = pid
			if ($0 ~ /(clone3?|fork|vfork)(\(| resumed>)/ && $0 ~ /= [0-9]+$/) {
				n = $NF + 0
				if (n > 0) parent[n] = pid
			}
			if ($0 ~ /execve\("/ && pid != first) execd[pid] = 1
			next
		}
		$0 ~ /execve\("/ && ($1 + 0) != first {
			pid = $1 + 0
			own = 1
			for (p = parent[pid]; p && p != first; p = parent[p])
				if (execd[p]) { own = 0; break }
			if (!own) next
			match($0, /execve\("[^"]*"/)
			path = substr($0, RSTART + 8, RLENGTH - 9)
			nown++
			if (path !~ /^\//) { print "BAD relative path: " path; bad++ }
			else if (index(path, root) != 1) { print "BAD outside the root: " path; bad++ }
			if (path ~ /\/(ba|da|z|k)?sh$/ && $0 ~ /"-c"/) { print "BAD shell -c: " $0; bad++ }
		}
		END { printf "execs %d bad %d\n", nown, bad + 0 }
	' "$trace" "$trace")
	OUT=$verdict
	n=$(echo "$verdict" | sed -n 's/^execs \([0-9]*\) bad \([0-9]*\)$/\1/p')
	b=$(echo "$verdict" | sed -n 's/^execs \([0-9]*\) bad \([0-9]*\)$/\2/p')
	if [ "${n:-0}" -ge 6 ] && [ "${b:-1}" = 0 ]; then
		ok "strace: the tool made $n execve calls, all absolute paths inside the root, no shell -c"
	else
		fail "strace: $verdict"
	fi
else
	echo "skip strace: not installed or ptrace not permitted here"
fi


# ---- machine text forges no line ----
fixture healthy-wsl2
nl='
'
esc=$(printf '\033')
# (env -i by hand: the value holds a newline, which setenv would split)
run_name() {
	# shellcheck disable=SC2046
	OUT=$(env -i $(fixture_tool --env "$FIXTURE" | tr '\n' ' ') "FAKE_NVML_NAME=RTX${nl}✗ libs.libcuda   forged" \
		"$WSLGPU" --root "$ROOT" "$@" 2>"$WORK/err")
	RC=$?
	ERR=$(cat "$WORK/err")
}
run_name check
expect_no_line '^✗ libs\.libcuda +forged'
expect_line '^✓ nvml\.devices +1 GPU: RTX⏎✗ libs\.libcuda +forged '
run_name check -v
expect_no_line '^✗ libs\.libcuda +forged'
run_name check --color always
expect_no_line '✗.*\[0m libs\.libcuda +forged' 
# A file name with ESC and a newline: collected, but shown as text.
evil="x${esc}[2J${nl}✗ forged.conf"
printf '/opt/x\n' >"$ROOT/etc/ld.so.conf.d/$evil"
cd "$WORK" || exit 3
run report -o "$WORK/esc.tar.gz"
expect_rc 0
mkdir -p "$WORK/esc"
tar xzf "$WORK/esc.tar.gz" -C "$WORK/esc"
readme=$(ls "$WORK"/esc/*/README.txt)
if grep -q "$esc" "$readme"; then fail "the README holds a raw ESC"; else ok "no ESC in the README"; fi
if grep -q '^✗ forged' "$readme"; then fail "the README has a forged line"; else ok "no forged line in the README"; fi
if grep -qF 'evidence/ld.so.conf.d/x?[2J???? forged.conf' "$readme"; then ok "the member is listed with its name made safe"; else
	fail "the member is not listed as expected: $(grep ld.so.conf.d "$readme")"; fi
if tar tzf "$WORK/esc.tar.gz" | grep -q "$esc"; then fail "a member name holds ESC"; else ok "no member name holds ESC"; fi


# ---- /dev/dxg must be the dxg driver's device ----
fixture healthy-wsl2
rm -f "$ROOT/dev/dxg"
if mknod "$ROOT/dev/dxg" c 1 3 2>/dev/null; then
	chmod 666 "$ROOT/dev/dxg"
	printf 'Character devices:\n  1 mem\n 10 misc\n\nBlock devices:\n  8 sd\n' >"$ROOT/proc/devices"
	run_json --only bridge.dxg
	expect_status bridge.dxg fail
	expect_json '.checks[] | select(.id == "bridge.dxg") | .kb == "bridge.dxg.not_dxg"'
	expect_json '.checks[] | select(.id == "bridge.dxg") | .detail | test("character device 1:3, which the kernel registers as \"mem\"")'
	run --only bridge.dxg
	expect_line 'cause +/dev/dxg is a character device 1:3, mode 0666, but the kernel registers that device number as "mem" in /proc/devices'
	# no /proc/devices to tell: a warning, never a pass
	rm "$ROOT/proc/devices"
	run_json --only bridge.dxg
	expect_status bridge.dxg warn
	# the first dxgkrnl's own major, named in /proc/devices: accepted
	printf 'Character devices:\n  1 dxgkrnl\n' >"$ROOT/proc/devices"
	run_json --only bridge.dxg
	expect_status bridge.dxg pass
	# a misc device (major 10) that /proc/misc names otherwise: tun
	rm "$ROOT/dev/dxg"
	mknod "$ROOT/dev/dxg" c 10 200
	chmod 666 "$ROOT/dev/dxg"
	printf ' 61 dxg\n200 tun\n' >"$ROOT/proc/misc"
	run_json --only bridge.dxg
	expect_status bridge.dxg fail
	expect_json '.checks[] | select(.id == "bridge.dxg") | .detail | test("10:200, which the kernel registers as \"tun\" \\(/proc/misc\\)")'
else
	echo "skip /dev/dxg device numbers: mknod not permitted"
fi


# ---- explain -f: a device or a FIFO is refused at once, not read forever ----
fixture healthy-wsl2
mkfifo "$WORK/nowriter"
for f in /dev/zero "$WORK/nowriter"; do
	t0=$(date +%s)
	timeout 20 "$WSLGPU" explain -f "$f" >"$WORK/out" 2>"$WORK/err"
	RC=$?
	OUT=$(cat "$WORK/out"); ERR=$(cat "$WORK/err")
	expect_rc 2
	expect_err "wslgpu explain: $f is not a regular file; give a pipe or a device on standard input \(-f -\)"
	[ $(($(date +%s) - t0)) -lt 10 ] && ok "explain -f $f ends at once" || fail "explain -f $f took long"
done
printf 'CUDA_ERROR_NO_DEVICE\n' >"$WORK/log.txt"
"$WSLGPU" explain -f "$WORK/log.txt" >"$WORK/out" 2>&1
RC=$?; OUT=$(cat "$WORK/out")
expect_rc 1
expect_line 'CUDA_ERROR_NO_DEVICE'
OUT=$(printf 'CUDA_ERROR_NO_DEVICE\n' | "$WSLGPU" explain -f - 2>&1)
expect_line 'CUDA_ERROR_NO_DEVICE'

# ---- paths from the environment are never written ----
fixture healthy-torch
before=$WORK/before
(cd "$ROOT" && find . -printf '%p %s %T@ %m\n' | sort) >"$before"
setenv CUDA_HOME=/usr/local/cuda LD_LIBRARY_PATH=/home/user/lib XDG_CACHE_HOME=/home/user/.cache \
	XDG_CONFIG_HOME=/home/user/.config
run -v --timeout 5
(cd "$ROOT" && find . -printf '%p %s %T@ %m\n' | sort) >"$WORK/after"
OUT=$(diff "$before" "$WORK/after")
if [ -z "$OUT" ]; then ok "the run wrote nothing under the root (HOME, PWD, CUDA_HOME, XDG dirs)"; else fail "the run changed the root"; fi

done_testing
