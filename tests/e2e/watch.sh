# watch.sh: `wslgpu watch` on this very machine (watch always samples the
# live /proc, so there is no fixture root), with workloads the test makes:
# a CPU burner, an O_DIRECT reader, a sleeper, many processes, a process
# that fills swap (where there is swap), and the fake NVML of tests/fakes
# (LD_LIBRARY_PATH=$FAKES: watch dlopens "libnvidia-ml.so.1" like an
# application) reporting a busy GPU, an idle one, WSL's missing utilisation,
# a crash and a hang. --nvml-lib=/nonexistent stands for a machine without
# NVML, whatever this one has.
. "$(dirname "$0")/lib.sh"
FIXTURE=watch
NO_NVML=--nvml-lib=/nonexistent/libnvidia-ml.so.1

# w [VAR=VALUE...] -- ARGS...: runs wslgpu watch ARGS in a clean environment
# (plus the variables), 1000 columns wide as in lib.sh's run (lines are
# asserted whole); sets $OUT, $ERR, $RC, $SECS like lib.sh's run.
w() {
	vars="PATH=/usr/local/bin:/usr/bin:/bin HOME=${HOME:-/root} LANG=C.UTF-8 COLUMNS=1000"
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		vars="$vars $1"
		shift
	done
	shift
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	env -i $vars "$WSLGPU" watch "$@" >"$WORK/out" 2>"$WORK/err"
	RC=$?
	t1=$(date +%s.%N)
	SECS=$(echo "$t1 $t0" | awk '{printf "%.2f", $1 - $2}')
	OUT=$(cat "$WORK/out")
	ERR=$(cat "$WORK/err")
}
json_file() {
	json_settle
	JSON=$1
	if ! jq -e . "$JSON" >/dev/null 2>&1; then
		fail "$JSON is not valid JSON"
	fi
}
expect_fast() {
	if awk -v s="$SECS" -v m="$1" 'BEGIN { exit !(s < m) }'; then ok "took ${SECS}s (< $1 s)"
	else fail "took ${SECS}s, expected < $1 s"; fi
}

# ---- exit status, like a shell ----
w -- "$NO_NVML" -- sh -c 'exit 7'
expect_rc 7
expect_err '^wslgpu watch: sh -c exit 7 exited with status 7 after'
w -- "$NO_NVML" -- true
expect_rc 0
# 0 points, or 1 where a loaded machine stretches `true` past the span that
# earns a closing sample (seen at load 20): too short either way.
expect_err '^verdict: too short to judge: (0 points|1 point) '
# A command that ends at once ends watch at once, without waiting for an
# interval (30 s: far above what a loaded machine adds to a run).
w -- "$NO_NVML" --interval 30s -- true
expect_rc 0
expect_fast 15
w -- "$NO_NVML" -- sh -c 'kill -TERM $$'
expect_rc 143
expect_err 'was killed by SIGTERM'
w -- "$NO_NVML" -- no-such-command-wslgpu
expect_rc 127
expect_err '^wslgpu watch: no-such-command-wslgpu: command not found$'
printf 'echo hi\n' >"$WORK/not-executable"
w -- "$NO_NVML" -- "$WORK/not-executable"
expect_rc 126
expect_err 'Permission denied'
# A command given without "--" works too; its own options stay its own.
w -- "$NO_NVML" sh -c 'echo out; echo err >&2; exit 3' --interval 5
expect_rc 3
expect_line '^out$'
expect_err '^err$'

# ---- usage ----
w -- --root /tmp -- true
expect_rc 2
expect_err '--root does not apply'
w -- --interval 0 -- true
expect_rc 2
expect_err 'from 10ms to 1h'
w -- --interval 5x -- true
expect_rc 2
w --
expect_rc 2
expect_err 'no command to run'
w -- --pid 1 -- true
expect_rc 2
w -- --pid 999999999
expect_rc 2
w -- --csv
expect_rc 2
expect_err 'needs a value'
w -- --help
expect_rc 0
expect_line '^usage: wslgpu watch'

# ---- signals sent to watch reach the command ----
# Each is sent once the command has started (it makes $WORK/started), not
# after a fixed time a loaded machine may not have started it in; by then
# watch handles the signals it passes on. A minute at most.
wait_started() {
	i=0
	while [ ! -e "$WORK/started" ] && [ $i -lt 1200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	rm -f "$WORK/started"
}
"$WSLGPU" watch "$NO_NVML" -q -- sh -c "trap 'exit 5' TERM; touch '$WORK/started'; while :; do sleep 0.1; done" &
wpid=$!
wait_started
kill -TERM $wpid
wait $wpid
RC=$?
expect_rc 5
"$WSLGPU" watch "$NO_NVML" -q -- sh -c "touch '$WORK/started'; exec sleep 30" &
wpid=$!
wait_started
child=$(ps -o pid=,comm= --ppid $wpid | awk '$2 == "sleep" { print $1 }')
kill -TERM $wpid
wait $wpid
RC=$?
expect_rc 143
if [ -n "$child" ] && kill -0 "$child" 2>/dev/null; then fail "the command survived SIGTERM"
else ok "the command ended with watch"; fi

# The workloads below run in a session of their own (setsid -w waits for
# the command and exits with its status): where the kernel schedules by
# session (autogroups), a loaded machine then gives them a share of the
# CPUs like any other session's, not a part of the test's own.
SETSID="setsid -w"

# ---- a CPU burner: CPU-bound ----
burn='while :; do :; done'
w -- "$NO_NVML" --interval 250ms --json="$WORK/burn.json" --csv "$WORK/burn.csv" \
	--svg "$WORK/burn.svg" -- $SETSID timeout 3 sh -c "$burn"
expect_rc 124
expect_err '^verdict: CPU-bound'
expect_err 'note +GPU utilisation was not available: this verdict rests on CPU and I/O evidence only'
expect_err '^GPU: no figures: /nonexistent/libnvidia-ml.so.1 could not be loaded'
expect_err '^  job CPU +[^ ]+ +mean'
expect_err 'more +wslgpu kb watch.cpu_bound'
json_file "$WORK/burn.json"
expect_json '.schema == "wslgpu/watch/1"'
expect_json '.verdict.id == "cpu-bound" and .verdict.kb == "watch.cpu_bound" and .verdict.status == "warn"'
expect_json '.verdict.cpu_io_only == true'
expect_json '.gpu.state == "unavailable" and .gpu.util_available == false'
expect_json '.command == ["setsid", "-w", "timeout", "3", "sh", "-c", "while :; do :; done"] and .pid == null'
expect_json '.end.kind == "exited" and .end.status == 124 and .end.exit_code == 124'
expect_json '.interval_s == 0.25 and .duration_s > 2.5 and .duration_s < 6'
expect_json '(.columns | length) == 19 and .columns[0] == "t_s"'
expect_json '.points >= 8 and (.samples | length) == .points'
expect_json '[.samples[] | length] | all(. == 19)'
expect_json '.summary.job_cpu_cores.mean > 0.05 and .summary.job_procs.max >= 2'
expect_json '.summary.gpu_util_pct.n == 0 and .summary.gpu_util_pct.mean == null'
expect_json '.machine.ncpu >= 1 and .overhead.watch_cpu_s >= 0'
# CSV: the header, then one row per point, each with every column.
head=$(head -1 "$WORK/burn.csv")
cols="$(jq -r '.columns | join(",")' "$WORK/burn.json"),gpu_util_source,gpu_mem_source"
if [ "$head" = "$cols" ]; then ok "CSV header lists the JSON columns"; else fail "CSV header: $head"; fi
rows=$(($(wc -l <"$WORK/burn.csv") - 1))
points=$(jq .points "$WORK/burn.json")
if [ "$rows" = "$points" ]; then ok "CSV has $rows rows, one per point"; else fail "CSV rows $rows, points $points"; fi
if awk -F, 'NR > 1 && NF != 21 { bad = 1 } END { exit bad }' "$WORK/burn.csv"; then ok "CSV rows have 21 fields"
else fail "a CSV row without 21 fields"; fi
if awk -F, 'NR > 1 && ($20 != "" || $21 != "") { bad = 1 } END { exit bad }' "$WORK/burn.csv"; then
	ok "no GPU source without GPU figures"
else fail "CSV names a GPU source without NVML"; fi
if awk -F, 'NR > 1 && $2 != "" { bad = 1 } END { exit bad }' "$WORK/burn.csv"; then ok "no GPU figure is made up"
else fail "CSV has GPU figures without NVML"; fi
# SVG: one self-contained document with lines in it.
if head -c 4 "$WORK/burn.svg" | grep -q '<svg' && grep -q '<polyline' "$WORK/burn.svg" &&
	tail -1 "$WORK/burn.svg" | grep -q '</svg>' && ! grep -q '<script' "$WORK/burn.svg"; then
	ok "SVG chart written"
else fail "SVG chart malformed"; fi
if command -v xmllint >/dev/null 2>&1; then
	if xmllint --noout "$WORK/burn.svg" 2>/dev/null; then ok "SVG is well-formed XML"; else fail "SVG is not XML"; fi
fi
# On a pipe nothing is drawn live.
if printf '%s' "$ERR" | grep -q "$(printf '\r')"; then fail "a carriage return on a pipe"
else ok "no live line on a pipe"; fi

# ---- a sleeper: waiting ----
w -- "$NO_NVML" --interval 200ms -- sleep 2
expect_rc 0
expect_err '^verdict: waiting'

# ---- an O_DIRECT reader: input-bound ----
data=""
for dir in "$WORK" "$BUILD"; do
	[ -d "$dir" ] || continue
	dd if=/dev/zero of="$dir/watch-read.dat" bs=1M count=256 status=none 2>/dev/null && sync
	if dd if="$dir/watch-read.dat" of=/dev/null iflag=direct bs=4k count=1 status=none 2>/dev/null; then
		data="$dir/watch-read.dat"
		break
	fi
	rm -f "$dir/watch-read.dat"
done
# The reader: one process reading the file again and again, bypassing the
# page cache, 64 MiB a read into one buffer. Each read waits for the disk
# far longer than a busy machine makes the reader wait for a CPU after it,
# and between reads it does nothing (a dd a pass spent its time faulting
# in a fresh buffer: 'ready to run' at load 29), so it is seen blocked on
# I/O, as a job starved of its data is, whatever the load.
cat >"$WORK/reader.py" <<'EOF'
import mmap, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECT)
buf = mmap.mmap(-1, 64 << 20)
while True:
    off = 0
    while True:
        n = os.preadv(fd, [buf], off)
        if n <= 0:
            break
        off += n
EOF
command -v python3 >/dev/null 2>&1 || data=""
if [ -n "$data" ]; then
	w -- "$NO_NVML" --interval 250ms --json="$WORK/io.json" -- $SETSID timeout 3 python3 \
		"$WORK/reader.py" "$data"
	expect_rc 124
	expect_err '^verdict: input-bound: the job waited for its data'
	json_file "$WORK/io.json"
	expect_json '.verdict.id == "input-bound" and .verdict.kb == "watch.input_bound"'
	# input-bound has two documented reasons (src/watch/verdict.c rule_input):
	# the job's processes blocked on I/O, or machine-wide iowait while the
	# job itself reads. Which one a fast disk shows varies; one must hold.
	expect_json '.summary.job_blocked.mean >= 0.25 or
		((.summary.cpu_iowait_pct.mean / 100 * .machine.ncpu) >= 0.25 and
		 ((.summary.job_rchar_mbs.mean // 0) >= 0.1 or (.summary.job_read_mbs.mean // 0) >= 0.1))'
	rm -f "$data"
else
	echo "skip: no python3, or O_DIRECT reads are not supported where this test can write"
fi

# ---- the advice fits the program (src/watch/program.h) ----
# dd is not Python: whatever the verdict (load decides it), no framework's
# or Python tool's advice, and its fix block passes bash -n (words are
# comments, commands whole).
w -- "$NO_NVML" --interval 100ms --json="$WORK/dd.json" -- timeout 2 dd if=/dev/zero \
	of=/dev/null bs=64k
expect_rc 124
json_file "$WORK/dd.json"
expect_json '.program.kind == "other" and (.program.seen | test("^(timeout|dd), pid [0-9]+$"))'
expect_json '.verdict.evidence.program == "other" and .verdict.evidence.framework == null'
expect_err '^program: a program that is not Python \((timeout|dd), pid [0-9]+\)$'
if printf '%s\n' "$ERR" | grep -Eq 'DataLoader|torch|tf\.data|py-spy|num_workers'; then
	fail "watch -- dd gives framework advice: $(printf '%s\n' "$ERR" | grep -E 'DataLoader|torch|tf\.data|py-spy|num_workers')"
else
	ok "watch -- dd gives no framework advice"
fi
printf '%s\n' "$ERR" | awk '/^  fix        / { f = 1; print substr($0, 14); next }
	f && /^             / { print substr($0, 14); next } { f = 0 }' >"$WORK/dd-fix.sh"
if [ ! -s "$WORK/dd-fix.sh" ]; then
	ok "watch -- dd: no fix block (verdict $(jq -r .verdict.id "$WORK/dd.json"))"
elif bash -n "$WORK/dd-fix.sh" 2>"$WORK/bash.err"; then
	ok "watch -- dd: its fix lines pass bash -n"
else
	fail "watch -- dd: fix lines fail bash -n: $(cat "$WORK/bash.err")"
fi
# A Python job whose command line names no framework: PyTorch is seen in
# the libraries it maps (a stand-in torch package that loads a library
# named libtorch_cpu.so), and the advice is PyTorch's.
if command -v python3 >/dev/null 2>&1; then
	mkdir -p "$WORK/fakefw/torch/lib"
	cp "$(python3 -c 'import _ctypes; print(_ctypes.__file__)')" \
		"$WORK/fakefw/torch/lib/libtorch_cpu.so"
	printf '%s\n' 'import ctypes, os' \
		'ctypes.CDLL(os.path.join(os.path.dirname(__file__), "lib", "libtorch_cpu.so"))' \
		>"$WORK/fakefw/torch/__init__.py"
	printf '%s\n' 'import time, torch' 'time.sleep(3)' >"$WORK/train.py"
	w PYTHONPATH="$WORK/fakefw" -- "$NO_NVML" --interval 100ms --json="$WORK/torch.json" -- \
		python3 "$WORK/train.py"
	expect_rc 0
	json_file "$WORK/torch.json"
	expect_json '.program.kind == "pytorch" and (.program.seen | test("^libtorch_cpu.so mapped by python3, pid [0-9]+$"))'
	expect_json '.verdict.evidence.framework == "pytorch" and .verdict.evidence.python == "yes"'
	expect_err '^program: PyTorch \(libtorch_cpu\.so mapped by python3, pid [0-9]+\)$'
else
	echo "skip: no python3 for the PyTorch stand-in"
fi

# ---- many processes, most short-lived ----
w -- "$NO_NVML" --interval 100ms --json="$WORK/many.json" -- \
	sh -c 'p=; for i in $(seq 100); do sleep 60 & p="$p $!"; done
		for i in $(seq 300); do true; done; sleep 1; kill $p; wait; exit 0'
expect_rc 0
json_file "$WORK/many.json"
expect_json '.summary.job_procs.max >= 100'
expect_json '.summary.job_cpu_cores.max <= .machine.ncpu'

# ---- a process that fills swap, where there is swap ----
swap_free=$(awk '/^SwapFree:/ { print $2 }' /proc/meminfo)
avail=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
if [ "${swap_free:-0}" -gt $((avail / 4 + 524288)) ] && [ "$avail" -lt 16777216 ] &&
	command -v python3 >/dev/null 2>&1; then
	# MemAvailable plus a quarter, touched page by page, for 5 seconds.
	kib=$((avail + avail / 4))
	w -- "$NO_NVML" --interval 250ms --json="$WORK/swap.json" -- python3 -c "
import time
b = bytearray($kib * 1024)
for i in range(0, len(b), 4096): b[i] = 1
t = time.time()
while time.time() - t < 3:
    for i in range(0, len(b), 4096 * 64): b[i] = 2
"
	json_file "$WORK/swap.json"
	expect_json '.verdict.id == "memory-pressure" or (.verdict.also | index("memory-pressure"))'
else
	echo "skip: no swap to fill here (SwapFree ${swap_free:-0} kB, MemAvailable $avail kB)"
fi

# ---- the fake NVML ----
# A busy GPU (utilisation supported, 87 %): GPU-bound.
w LD_LIBRARY_PATH="$FAKES" FAKE_NVML_UNSUPPORTED=processes FAKE_NVML_UTIL=87 -- \
	--interval 200ms --json="$WORK/busy.json" -- sleep 2
expect_rc 0
expect_err '^GPU: NVIDIA GeForce RTX 3080: utilisation and memory from NVML$'
expect_err '^verdict: GPU-bound: the GPU was busy 87% of the time'
expect_err '^  GPU util +.* mean +87.0 %'
if printf '%s\n' "$ERR" | grep -q 'GPU utilisation was not available'; then
	fail "a CPU/IO-only note with utilisation known"
else ok "no CPU/IO-only note"; fi
json_file "$WORK/busy.json"
expect_json '.gpu.state == "ok" and .gpu.util_available == true and .gpu.mem_total_mib == 10240'
expect_json '.verdict.id == "gpu-bound" and .verdict.status == "pass" and .verdict.cpu_io_only == false'
expect_json '.summary.gpu_util_pct.mean == 87 and .summary.gpu_mem_used_mib.max == 1024'
# An idle GPU: the job never used it. A Python job is sent to the
# frameworks' check (a CPU-only build); a plain program is not.
w LD_LIBRARY_PATH="$FAKES" FAKE_NVML_UNSUPPORTED=processes FAKE_NVML_UTIL=0 -- \
	--interval 200ms -- python3 -c 'import time; time.sleep(2)'
expect_rc 0
expect_err '^verdict: GPU idle: the job never used the GPU \(utilisation at most 0%\)'
expect_err 'wslgpu check --only frameworks'
w LD_LIBRARY_PATH="$FAKES" FAKE_NVML_UNSUPPORTED=processes FAKE_NVML_UTIL=0 -- \
	--interval 200ms -- sleep 2
expect_rc 0
expect_err '^verdict: GPU idle: the job never used the GPU \(utilisation at most 0%\)'
if printf '%s\n' "$ERR" | grep -q 'wslgpu check --only frameworks'; then
	fail "a plain program sent to the frameworks' check"
else ok "a plain program is not sent to the frameworks' check"; fi
expect_err '# check that the program was built with CUDA and is told to use the GPU'
# WSL's NVML: no utilisation; memory that never moved; the CPU burning.
w LD_LIBRARY_PATH="$FAKES" -- --interval 250ms --json="$WORK/wsl.json" -- timeout 3 sh -c "$burn"
expect_rc 124
expect_err "^GPU: NVIDIA GeForce RTX 3080: NVML gives memory but not utilisation here \(nvmlDeviceGetUtilizationRates answered NVML_ERROR_NOT_SUPPORTED\)"
expect_err '^verdict: GPU idle: the job never allocated GPU memory .*; it ran on the CPU instead$'
expect_err 'note +GPU utilisation was not available: this verdict rests on CPU and I/O evidence only'
json_file "$WORK/wsl.json"
expect_json '.gpu.state == "util-unavailable" and .verdict.id == "gpu-idle" and .verdict.cpu_io_only'
expect_json '.summary.gpu_mem_used_mib.n > 0 and .summary.gpu_util_pct.n == 0'
# Memory that rises with no utilisation: probably GPU-bound. Its fix lines
# are chosen for this machine's platform as check's are: WSL's Windows-side
# step (nvidia-smi.exe) only where platform.kind finds WSL -- WSL's
# variables make it so here; without them, on a machine that is not WSL,
# no view of watch shows it.
WIN_STEP='nvidia-smi\.exe|wsl\.exe|PowerShell'
w LD_LIBRARY_PATH="$FAKES" FAKE_NVML_MEM_STEP_MIB=200 WSL_DISTRO_NAME=Ubuntu \
	WSL_INTEROP=/run/WSL/1_interop -- --interval 200ms -- sleep 2
expect_err '^verdict: probably GPU-bound: '
expect_err '^             nvidia-smi\.exe -l 1   # on WSL, in PowerShell'
here=$(env -i PATH=/usr/bin:/bin "$WSLGPU" check --only platform.kind --json |
	jq -r '.checks[] | select(.id == "platform.kind") | .evidence.kind')
case $here in
wsl1 | wsl2 | container-in-wsl2) echo "skip: this machine is $here: WSL's step belongs here" ;;
*)
	w LD_LIBRARY_PATH="$FAKES" FAKE_NVML_MEM_STEP_MIB=200 -- --interval 200ms -- sleep 2
	expect_err '^verdict: probably GPU-bound: '
	expect_err '^  fix        wslgpu watch --csv run\.csv -- COMMAND'
	if printf '%s\n' "$ERR" | grep -Eq "$WIN_STEP"; then
		fail "on $here watch shows a step for WSL: $(printf '%s\n' "$ERR" | grep -E "$WIN_STEP" | head -1)"
	else ok "on $here watch shows no step for WSL"; fi
	;;
esac
# NVML crashes at every reading: given up on; the command is untouched.
w LD_LIBRARY_PATH="$FAKES" FAKE_NVML_UNSUPPORTED=processes FAKE_NVML_CRASH=nvmlDeviceGetMemoryInfo -- \
	--interval 100ms -- sh -c 'sleep 1.5; exit 3'
expect_rc 3
expect_err 'GPU: no figures: the GPU sampler \(libnvidia-ml\) was killed by SIGSEGV 3 times'
# NVML hangs in nvmlInit: the command starts anyway, within seconds.
w LD_LIBRARY_PATH="$FAKES" FAKE_NVML_HANG=nvmlInit -- --interval 200ms -- true
expect_rc 0
expect_fast 6
expect_err '^GPU: no figures'

# ---- JSON on stdout, after the command's own output ----
w -- "$NO_NVML" --json -q -- sh -c 'echo hello'
expect_rc 0
if [ "$(head -1 "$WORK/out")" = hello ] && tail -n +2 "$WORK/out" | jq -e '.schema == "wslgpu/watch/1"' >/dev/null; then
	ok "JSON follows the command's output on stdout"
else fail "stdout is not the command's output and then JSON"; fi
if [ -z "$ERR" ]; then ok "--quiet prints nothing"; else fail "--quiet printed: $ERR"; fi

# ---- attach to a running process ----
sleep 4 &
spid=$!
w -- "$NO_NVML" --interval 200ms --json="$WORK/pid.json" --pid $spid
expect_rc 0
expect_err "^wslgpu watch: pid $spid ended after"
json_file "$WORK/pid.json"
expect_json ".pid == $spid and .command == null and .end.kind == \"ended\""
wait $spid
sleep 30 &
spid=$!
# Ctrl-C once watch samples (a row in its CSV): before that, a background
# command's SIGINT is still the one the shell started it with, ignored.
"$WSLGPU" watch "$NO_NVML" --interval 100ms --csv "$WORK/pid.csv" --pid $spid 2>"$WORK/err" &
wpid=$!
i=0
while [ "$(wc -l <"$WORK/pid.csv" 2>/dev/null || echo 0)" -lt 2 ] && [ $i -lt 1200 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill -INT $wpid
wait $wpid
RC=$?
expect_rc 130
if kill -0 $spid 2>/dev/null; then ok "Ctrl-C ends watching, not the process"; else fail "the watched process died"; fi
kill $spid
wait $spid 2>/dev/null

# ---- WSL: Windows' GPU counters through the stand-in powershell.exe ----
# WSL_INTEROP set: interop works, so watch starts its Windows sampler (one
# long-lived PowerShell); the stand-in prints the GPU Engine counters of
# WSL's VM (vmmemWSL) at 90 %, the adapter's memory and the VM's.
WINBIN="$WORK/windows"
mkdir -p "$WINBIN"
cp "$top/tests/fakes/windows/powershell.exe" "$WINBIN/"
WINPATH="PATH=$WINBIN:/usr/local/bin:/usr/bin:/bin"
# NVML as on WSL (memory, no utilisation): utilisation from Windows, memory from NVML.
w LD_LIBRARY_PATH="$FAKES" WSL_INTEROP=/run/WSL/1_interop "$WINPATH" -- \
	--interval 250ms --json="$WORK/win.json" --csv "$WORK/win.csv" -- sleep 2
expect_rc 0
expect_err "^GPU: NVIDIA GeForce RTX 3080: utilisation from Windows' counters \(WSL's VM\), memory from NVML$"
expect_err '^verdict: GPU-bound: the GPU was busy 90% of the time'
json_file "$WORK/win.json"
expect_json '.gpu.state == "ok" and .gpu.util_source == "windows-vm" and .gpu.mem_source == "nvml"'
expect_json '.verdict.id == "gpu-bound" and .verdict.evidence.gpu_util_source == "windows-vm"'
expect_json '.summary.gpu_util_pct.mean == 90 and .verdict.cpu_io_only == false'
if awk -F, 'NR > 2 && ($20 != "windows-vm" || $21 != "nvml") { bad = 1 } END { exit bad }' "$WORK/win.csv"; then
	ok "each CSV row names its GPU figures' sources"
else fail "CSV sources: $(sed -n 3p "$WORK/win.csv")"; fi
# No NVML and no VM process in the counters: the whole GPU's figures
# (the VM's 3D engine and dwm's summed, 92 %), memory too.
w FAKE_WIN_VM=none WSL_INTEROP=/run/WSL/1_interop "$WINPATH" -- "$NO_NVML" \
	--interval 250ms --json="$WORK/wingpu.json" -- sleep 1.5
expect_rc 0
expect_err "utilisation and memory from Windows' counters \(the whole GPU\)$"
json_file "$WORK/wingpu.json"
expect_json '.gpu.util_source == "windows-gpu" and .gpu.mem_source == "windows-gpu"'
expect_json '.verdict.id == "gpu-bound" and .summary.gpu_util_pct.mean == 92 and .summary.gpu_mem_used_mib.max == 3072'
expect_json '.verdict.evidence.gpu_mem == "3072 MiB"'
# --gpu-source=nvml: Windows is not asked.
w LD_LIBRARY_PATH="$FAKES" WSL_INTEROP=/run/WSL/1_interop "$WINPATH" -- --gpu-source=nvml \
	--interval 250ms --json="$WORK/nowin.json" -- sleep 1
json_file "$WORK/nowin.json"
expect_json '.gpu.state == "util-unavailable" and .gpu.util_source == null and .gpu.windows_note == null'
# Not WSL (no interop): not asked either, PowerShell on PATH or not.
w LD_LIBRARY_PATH="$FAKES" "$WINPATH" -- --interval 250ms --json="$WORK/nowsl.json" -- sleep 1
json_file "$WORK/nowsl.json"
expect_json '.gpu.state == "util-unavailable" and .gpu.util_source == null'
# A PowerShell that fails says so; one that hangs delays nothing.
w FAKE_PS=fail WSL_INTEROP=/run/WSL/1_interop "$WINPATH" -- "$NO_NVML" \
	--interval 250ms --json="$WORK/winfail.json" -- sleep 1
expect_rc 0
expect_err "Windows' counters: .*powershell.exe exited with status 1 before its first sample"
json_file "$WORK/winfail.json"
expect_json '.gpu.util_source == null and (.gpu.windows_note | test("exited with status 1"))'
w FAKE_PS=hang WSL_INTEROP=/run/WSL/1_interop "$WINPATH" -- "$NO_NVML" --interval 200ms -- true
expect_rc 0
expect_fast 6
expect_err "Windows' counters: powershell.exe gave no sample in time"
# Asked for and absent.
w WSL_INTEROP=/run/WSL/1_interop -- "$NO_NVML" --gpu-source=windows --interval 200ms -- true
expect_err "Windows' counters: powershell.exe was found neither on PATH nor"
w -- --gpu-source=dxg -- true
expect_rc 2
expect_err 'gpu-source dxg: give auto, nvml or windows'
# What sampling Windows costs here (the stand-in is a shell loop; the
# real PowerShell's cost on Windows is not measured: doc/windows.md).
w WSL_INTEROP=/run/WSL/1_interop "$WINPATH" -- "$NO_NVML" --self-stats --interval 100ms -- sleep 1
expect_rc 0
expect_err '^watch-self-stats: watch_cpu_s=[0-9.]+ sampler_cpu_s=[0-9.]+ '

# ---- a terminal: one status line, redrawn, cut to the width, resized ----
if command -v script >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	script -qc "stty cols 60; $WSLGPU watch $NO_NVML --interval 200ms -- sh -c 'sleep 1; stty cols 90; kill -WINCH \$PPID; sleep 1.2; exit 4'" \
		"$WORK/tty.out" >/dev/null 2>&1
	widths=$(python3 -c '
import sys
s = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
segs = [x.replace("\x1b[K", "") for x in s.split("\r")]
print(" ".join(str(len(x)) for x in segs if x.startswith("watch ")))' "$WORK/tty.out")
	first=${widths%% *}
	last=${widths##* }
	if [ "$first" = 59 ] && [ "$last" = 89 ]; then ok "live line cut to the width, then to the new width"
	else fail "live line widths: $widths"; fi
	if grep -q "exited with status 4" "$WORK/tty.out"; then ok "summary after the live line"
	else fail "no summary on the terminal"; fi
else
	echo "skip: script(1) or python3 missing: no terminal test"
fi

# ---- the cost of watching ----
w -- "$NO_NVML" --self-stats --interval 100ms -- sleep 1
expect_rc 0
expect_err '^watch-self-stats: watch_cpu_s=[0-9.]+ sampler_cpu_s=[0-9.]+ job_cpu_s=[0-9.]+ wall_s=[0-9.]+ points=[0-9]+$'

done_testing
