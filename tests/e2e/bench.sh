# bench.sh: `wslgpu bench io` and `wslgpu bench gpu` on fixture machines.
# The numbers mean nothing here (a fixture's /mnt/c is the test machine's
# disk; the fake libcuda copies with memcpy): these tests check the method
# and the output — cleanup, also after SIGINT/SIGTERM, the locations chosen,
# warm-up, verification, freeing, error paths, exit status, JSON and CSV.
. "$(dirname "$0")/lib.sh"

clearenv() { EXTRA_ENV=""; }
# Files left in a directory (dot files too), one per line.
leftovers() { find "$1" -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | sort; }
expect_empty() {
	left=$(leftovers "$1")
	if [ -z "$left" ]; then ok "nothing left in $2"; else fail "left in $2: $left"; fi
}
IO_SMALL="--size 1M --files 20 --seconds 10"
# The fake libcuda's call trace (FAKE_CUDA_TRACE, tests/fakes/README.md):
# every allocation freed; contexts, events and modules destroyed.
trace_balanced() {
	t=$1
	live=$(awk '$1 == "alloc" { a[$3]++ } $1 == "free" { a[$3]-- }
		END { n = 0; for (k in a) if (a[k]) n++; print n }' "$t")
	calls() { grep -c "^call $1\$" "$t"; }
	if [ "$(grep -c '^alloc' "$t")" -gt 0 ] && [ "$live" = 0 ] &&
	   [ "$(calls cuCtxCreate)" = "$(calls cuCtxDestroy)" ] &&
	   [ "$(calls cuEventCreate)" = "$(calls cuEventDestroy)" ] &&
	   [ "$(calls cuModuleLoadData)" = "$(calls cuModuleUnload)" ]; then
		ok "$2: the fake's trace shows everything freed"
	else
		fail "$2: the fake's trace is unbalanced ($live allocations live)"
	fi
}
GPU_SMALL="--max-size 64K --launches 200 --batch 500"

# ---- bench io on a named directory ----
fixture healthy-wsl2
mkdir -p "$ROOT/tmp/data" "$ROOT/home/user"
run_json bench io /tmp/data $IO_SMALL
expect_rc 0
expect_json '.schema == "wslgpu/bench/1"'
expect_json '.gpu == null'
expect_json '.io.params == {"size_bytes":1048576,"block_bytes":1048576,"files":20,"file_size_bytes":4096,"seconds":10,"trials":3}'
# Each location is measured in trials (3 by default); each figure is their
# median, and the trials and their spread come with it.
expect_json '.io.locations[0].trials == 3'
expect_json '[.io.locations[0] | .write, .read, .small_files | .trials.values | length] == [3,3,3]'
expect_json '.io.locations[0] | .read.bytes_per_s == .read.trials.median and .small_files.per_file_us == .small_files.trials.median'
expect_json '.io.locations[0].read.trials | .min <= .median and .median <= .max and .noise_pct >= 0'
expect_json '.io.locations | length == 1'
expect_json '.io.locations[0] | .path == "/tmp/data" and .named and .status == "done"'
expect_json '.io.locations[0].write.bytes == 1048576 and .io.locations[0].read.bytes == 1048576'
expect_json '.io.locations[0].method | test("^(O_DIRECT|buffered)")'
expect_json '.io.locations[0].small_files.files == 20'
expect_json '[.io.locations[0].small_files.ops[] | .ops] == [20,20,20,20]'
expect_json '[.io.locations[0].small_files.ops[] | (.median_us >= 0 and .p99_us >= .median_us)] | all'
expect_json '.io.verdict.status == "pass" and .io.verdict.summary == "one location measured: nothing to compare"'
expect_empty "$ROOT/tmp/data" "the named directory"

run bench io /tmp/data $IO_SMALL
expect_rc 0
expect_line '^Disk I/O where the data lives: 1 MiB written and read in 1 MiB blocks; 20 files of 4 KiB; 3 trials at each location, at most 10 s a phase in all$'
expect_line '^spread of the 3 trials around the medians above \(the locations took turns\)$'
expect_line '^/tmp/data +write ±[0-9]+ %  read ±[0-9]+ %  small files ±[0-9]+ %$'
expect_line '^location +file system +method +write +read +small files$'
expect_line '^/tmp/data +ext4 /dev/sdd +(O_DIRECT|buffered) +[0-9.]+ [KMG]?i?B/s'
expect_line '^small files, time per operation: median / p99$'
expect_line '^✓ one location measured: nothing to compare$'
if printf '%s' "$ERR" | grep -q "$(printf '\r')"; then fail "progress written to a pipe"; else ok "no progress line when stderr is not a terminal"; fi
expect_empty "$ROOT/tmp/data" "the named directory (text run)"

run bench io /tmp/data $IO_SMALL --csv
expect_rc 0
expect_line '^bench,target,metric,stat,size_bytes,value,unit$'
expect_line '^io,/tmp/data,seq_write,rate,1048576,[0-9.e+]+,B/s$'
expect_line '^io,/tmp/data,delete,p99,,[0-9.e+-]+,us$'
n=$(printf '%s\n' "$OUT" | wc -l)
if [ "$n" = 16 ]; then ok "CSV: header and 15 rows"; else fail "CSV has $n lines, expected 16"; fi

# ---- the default locations: current directory, $HOME, the Windows profile ----
run_json bench io $IO_SMALL
expect_rc 0
expect_json '[.io.locations[] | .path] == ["/home/user", "/mnt/c/Users/alice"]'
expect_json '.io.locations[0] | .role == "current directory" and .fstype == "ext4" and (.windows_drive | not)'
expect_json '.io.locations[1] | .role == "Windows drive" and .fstype == "9p" and .windows_drive and .source == "C:\\"'
expect_json '[.io.locations[] | .status] == ["done", "done"]'
expect_json '.io.verdict.status == "pass" or .io.verdict.status == "warn"'
expect_json '[.io.verdict.findings[] | select(.status != "pass") | .kb] | all(. == "bench.io.windows_drive" or . == "bench.io.slow_location")'
expect_empty "$ROOT/home/user" "\$HOME"
left=$(leftovers "$ROOT/mnt/c/Users/alice")
if [ "$left" = ".wslconfig" ]; then ok "only the user's own file left on /mnt/c"; else fail "left on /mnt/c: $left"; fi

# A named Windows directory alone: a warning that says to compare.
run_json bench io /mnt/c/Users/alice $IO_SMALL
expect_rc 0
expect_json '.io.verdict.status == "warn"'
expect_json '.io.verdict.findings[0].kb == "bench.io.windows_drive"'
expect_json '.io.verdict.findings[0].fix[0] == "cp -a /mnt/c/Users/alice ~/   # copy the data into the Linux file system once, then read it from there"'
run bench io /mnt/c/Users/alice $IO_SMALL
expect_line '^! /mnt/c/Users/alice is on a Windows drive \(9p\); measure a Linux directory too'
expect_line '^      cause  /mnt/c/Users/alice is on a Windows drive \(9p C:\\\), which WSL2 reaches'
expect_line '^      more   wslgpu kb bench.io.windows_drive$'

# ---- locations that cannot be measured ----
echo x > "$ROOT/tmp/afile"
run_json bench io /tmp/nothere /tmp/afile $IO_SMALL
expect_rc 1
expect_json '[.io.locations[] | .status] == ["failed", "failed"]'
expect_json '.io.locations[0].error | test("No such file or directory")'
expect_json '.io.locations[1].error == "/tmp/afile is not a directory"'
expect_json '.io.verdict.status == "fail" and .io.verdict.summary == "no location could be measured"'
expect_json '[.io.verdict.findings[] | .kb] == ["bench.io.failed", "bench.io.failed"]'

# ---- usage errors ----
run bench io --size 1
expect_rc 2
expect_err "^wslgpu bench: --size: '1' is too small to time a throughput: at least 1M"
run bench io --size 12Q
expect_rc 2
expect_err "--size: '12Q' is not a size"
run bench --json --csv
expect_rc 2
run bench gpu /tmp/data
expect_rc 2
expect_err 'bench gpu takes no paths'
run bench io --files -3
expect_rc 2
run bench io --seconds 0
expect_rc 2
run bench io --trials 0
expect_rc 2
expect_err "^wslgpu bench: --trials: must not be 0"
run bench io --trials 11
expect_rc 2
expect_err "--trials: '11' is not a whole number up to 10"
# --trials 1: measured once, so two locations are never called different.
mkdir -p "$ROOT/tmp/once"
run_json bench io /tmp/data /tmp/once $IO_SMALL --trials 1
expect_rc 0
expect_json '.io.params.trials == 1 and ([.io.locations[] | .trials] == [1, 1])'
expect_json '[.io.locations[] | .read.trials.noise_pct] == [null, null]'
expect_json '[.io.verdict.findings[] | select(.status != "pass")] == []'
run bench --help
expect_rc 0
expect_line '^usage: wslgpu bench \[io\|gpu\] \[OPTIONS\] \[PATH\.\.\.\]$'
expect_line '130/143 interrupted'

# ---- interrupted: SIGINT, SIGTERM, SIGHUP (a closed terminal) and SIGPIPE
# remove the scratch files (SIGHUP left a whole test file behind) ----
for sig in INT TERM HUP PIPE; do
	mkdir -p "$ROOT/tmp/intr"
	$ENV_HUP -i PATH=/usr/bin:/bin HOME=/home/user LANG=C.UTF-8 PWD=/home/user \
		"$WSLGPU" --root "$ROOT" bench io /tmp/intr --size 512M --files 500000 --seconds 60 \
		>"$WORK/intr.out" 2>"$WORK/intr.err" &
	pid=$!
	# Until the scratch directory is there (a minute at most: a loaded
	# machine starts slowly).
	i=0
	while [ $i -lt 1200 ] && [ -z "$(leftovers "$ROOT/tmp/intr")" ]; do
		sleep 0.05
		i=$((i + 1))
	done
	sleep 0.3
	started=$(leftovers "$ROOT/tmp/intr")
	kill -$sig $pid
	wait $pid
	RC=$?
	OUT=$(cat "$WORK/intr.out")
	ERR=$(cat "$WORK/intr.err")
	case "$started" in .wslgpu-bench-*) ok "SIG$sig: a scratch directory was being used ($started)" ;;
	*) fail "SIG$sig: no scratch directory appeared: '$started'" ;; esac
	case $sig in INT) expect_rc 130 ;; TERM) expect_rc 143 ;; HUP) expect_rc 129 ;; PIPE) expect_rc 141 ;; esac
	expect_err "interrupted by SIG$sig during bench io; its files were removed"
	expect_empty "$ROOT/tmp/intr" "the directory after SIG$sig"
	expect_no_line 'Disk I/O'
done

# ---- not enough free space: a tiny tmpfs, where a mount namespace is allowed ----
mkdir -p "$ROOT/tmp/tiny"
if unshare -rm sh -c "mount -t tmpfs -o size=2m none '$ROOT/tmp/tiny'" 2>/dev/null; then
	json_settle
	unshare -rm sh -c "mount -t tmpfs -o size=2m none '$ROOT/tmp/tiny' &&
		env -i PATH=/usr/bin:/bin HOME=/home/user LANG=C.UTF-8 PWD=/home/user \
		'$WSLGPU' --root '$ROOT' bench io /tmp/tiny --json $IO_SMALL >'$WORK/out'; echo \$? >'$WORK/rc'"
	RC=$(cat "$WORK/rc")
	OUT=$(cat "$WORK/out")
	JSON="$WORK/out"
	expect_rc 1
	expect_json '.io.locations[0].status == "failed" and .io.locations[0].kb == "bench.io.no_space"'
	expect_json '.io.locations[0].error | test("^not enough free space: 2 MiB free, the benchmark needs 65.1 MiB$")'
	# 1 MiB asked, 2 MiB free: no larger --size is offered (none fits at all).
	expect_json '[.io.verdict.findings[0].fix[] | select(test("--size"))] | length == 0'
	expect_json '.io.verdict.findings[0].cause | test("Not even its smallest run fits")'
	expect_json '.io.verdict.findings[0].fix[0] | test("^df -h /tmp/tiny")'
	# 64 MiB asked on a 100 MiB tmpfs: a smaller --size that fits.
	json_settle
	unshare -rm sh -c "mount -t tmpfs -o size=100m none '$ROOT/tmp/tiny' &&
		env -i PATH=/usr/bin:/bin HOME=/home/user LANG=C.UTF-8 PWD=/home/user \
		'$WSLGPU' --root '$ROOT' bench io /tmp/tiny --json --size 64M --files 20 --seconds 10 >'$WORK/out'; echo \$? >'$WORK/rc'"
	RC=$(cat "$WORK/rc")
	OUT=$(cat "$WORK/out")
	expect_rc 1
	expect_json '.io.locations[0].kb == "bench.io.no_space"'
	expect_json '.io.verdict.findings[0].fix[0] | test("^wslgpu bench io --size (1|2|4|8|16|32)M --files 20 /tmp/tiny")'
else
	echo "note: no mount namespace here; the free-space refusal is covered by test_bench.c"
fi

# ---- bench gpu on the fake libcuda ----
fixture healthy-wsl2
setenv FAKE_CUDA_TRACE="$WORK/trace"
rm -f "$WORK/trace"
run_json bench gpu $GPU_SMALL
expect_rc 0
trace_balanced "$WORK/trace" "a full run"
# 100 warm-up launches, 200 round trips, 500 back to back, 1 pattern kernel.
n=$(grep -c '^call cuLaunchKernel$' "$WORK/trace")
if [ "$n" = 801 ]; then ok "801 launches, warm-up included"; else fail "$n launches, expected 801"; fi
clearenv
expect_json '.io == null'
expect_json '.gpu.status == "ok" and .gpu.error == null'
expect_json '.gpu.library == "/usr/lib/wsl/lib/libcuda.so.1"'
expect_json '.gpu.device == {"index":0,"name":"NVIDIA GeForce RTX 3080","compute_capability":"8.6","total_mem_bytes":10737418240}'
expect_json '.gpu.driver_cuda_version == "12.4"'
expect_json '[.gpu.copies[] | .kind] | unique == ["d2d","d2h_pageable","d2h_pinned","h2d_pageable","h2d_pinned"]'
expect_json '[.gpu.copies[] | .size_bytes] | unique == [4096, 16384, 65536]'
expect_json '.gpu.copies | length == 15'
expect_json '[.gpu.copies[] | .verified and .reps >= 3] | all'
expect_json '.gpu.method.warmup_copies == 15 and .gpu.method.warmup_launches == 100'
expect_json '.gpu.method.verified_copies == 16'
expect_json '.gpu.method.allocations == 3 and .gpu.method.frees == 3'
expect_json '.gpu.launch.sync.launches == 200 and .gpu.launch.back_to_back.launches == 500'
expect_json '.gpu.launch.sync.p99_us >= .gpu.launch.sync.median_us'
expect_json '.gpu.pcie.gen == null and (.gpu.pcie.note | test("paravirtualisation"))'
expect_json '.gpu.pinned_alloc_failed_bytes == null'
expect_json '.gpu.verdict.status == "pass" or .gpu.verdict.status == "warn"'

run bench gpu $GPU_SMALL
expect_rc 0
expect_line '^GPU path: NVIDIA GeForce RTX 3080 \(GPU 0, compute 8\.6, 10 GiB\), driver for CUDA 12\.4$'
expect_line '^copies, GB/s \(timed with CUDA events after a warm-up; data verified\)$'
expect_line '^size +h2d pageable +d2h pageable +h2d pinned +d2h pinned +d2d$'
expect_line '^64 KiB +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$'
expect_line '^host→device \(pinned\) by copy size$'
expect_line '^  round trip, launch \+ cuCtxSynchronize: median [0-9.]+ µs, p99 [0-9.]+ µs \(200 launches\)$'
expect_line '^✓ copies: .*PCIe link unknown: WSL2 reaches the GPU by paravirtualisation'

run bench gpu $GPU_SMALL --csv
expect_rc 0
expect_line '^gpu,NVIDIA GeForce RTX 3080,h2d_pinned,rate,65536,[0-9.e+]+,B/s$'
expect_line '^gpu,NVIDIA GeForce RTX 3080,launch_sync,p99,,[0-9.e+-]+,us$'

# The PCIe link where sysfs shows it (native Linux): the achieved fraction.
d="$ROOT/sys/bus/pci/devices/0000:01:00.0"
mkdir -p "$d"
echo "16.0 GT/s PCIe" >"$d/current_link_speed"
echo "16.0 GT/s PCIe" >"$d/max_link_speed"
echo 16 >"$d/current_link_width"
echo 16 >"$d/max_link_width"
run_json bench gpu $GPU_SMALL
expect_json '.gpu.pcie.gen == 4 and .gpu.pcie.width == 16'
expect_json '.gpu.pcie.theoretical_bytes_per_s > 31.5e9 and .gpu.pcie.theoretical_bytes_per_s < 31.6e9'
expect_json '[.gpu.verdict.findings[] | select(.detail | test("of the PCIe 4.0 x16 link.s 31.5 GB/s"))] | length == 1'
echo 8 >"$d/current_link_width"
run_json bench gpu $GPU_SMALL
expect_json '.gpu.pcie.width == 8 and (.gpu.pcie.note | test("below the link.s maximum, 4.0 x16"))'
rm -r "$ROOT/sys/bus"

# Pinned memory refused (WSL's limit, case M01): a warning, pageable still measured.
setenv FAKE_CUDA_PINNED_MIB=0
run_json bench gpu $GPU_SMALL
expect_rc 0
expect_json '.gpu.pinned_alloc_failed_bytes == 65536'
expect_json '.gpu.pinned_error == "CUDA_ERROR_OUT_OF_MEMORY (2)"'
expect_json '[.gpu.copies[] | .kind] | unique == ["d2d","d2h_pageable","h2d_pageable"]'
expect_json '[.gpu.verdict.findings[] | select(.kb == "bench.gpu.pinned_limit")] | length == 1'
expect_json '.gpu.method.allocations == 2 and .gpu.method.frees == 2'
clearenv

# ---- error paths: each a clear message, exit status 1 ----
setenv FAKE_CUDA_FAIL=cuInit:100
run_json bench gpu $GPU_SMALL
expect_rc 1
expect_json '.gpu.status == "error"'
expect_json '.gpu.error | .call == "cuInit" and .code == 100 and .kb == "bench.gpu.init_failed"'
expect_json '.gpu.error.message | startswith("cuInit failed: CUDA_ERROR_NO_DEVICE (100)")'
expect_json '.gpu.verdict.status == "fail"'
run bench gpu $GPU_SMALL
expect_rc 1
expect_line '^✗ cuInit failed: CUDA_ERROR_NO_DEVICE \(100\): '
expect_line '^      fix    wslgpu check$'
clearenv

setenv FAKE_CUDA_CRASH=cuInit
run bench gpu $GPU_SMALL
expect_rc 1
expect_line '^✗ the GPU benchmark crashed \(SIGSEGV\) while: cuInit$'
expect_line 'wslgpu kb bench.gpu.crashed'
clearenv

setenv FAKE_CUDA_CRASH=cuLaunchKernel
run_json bench gpu $GPU_SMALL
expect_rc 1
expect_json '.gpu.error.kb == "bench.gpu.crashed"'
expect_json '.gpu.error.message | test("while: cuLaunchKernel wslgpu_fill")'
expect_json '.gpu.copies | length == 15'   # measured before the crash, still reported
clearenv

setenv FAKE_CUDA_HANG=cuMemAlloc
run_json bench gpu $GPU_SMALL --timeout 1
expect_rc 1
expect_json '.gpu.error.kb == "bench.gpu.timeout"'
expect_json '.gpu.error.message == "the GPU benchmark did not finish within 1 s; it was waiting for: cuMemAlloc"'
clearenv

setenv FAKE_CUDA_WRONG_DATA=1 FAKE_CUDA_TRACE="$WORK/trace"
rm -f "$WORK/trace"
run_json bench gpu $GPU_SMALL
expect_rc 1
expect_json '.gpu.error.kb == "bench.gpu.verify_failed"'
expect_json '.gpu.error.message | test("element 4095 is 0x[0-9a-f]{8}, expected 0x[0-9a-f]{8}")'
expect_json '.gpu.method.allocations == .gpu.method.frees'
trace_balanced "$WORK/trace" "a verification failure"
clearenv

# A driver stopped by the terminal's job control (SIGTTOU, SIGTTIN, SIGTSTP:
# what a driver that touched the terminal gets): the measuring child is
# detached like a probe's (a session of its own, its process group orphaned),
# so the kernel discards those stops and the run goes on. Before, it was
# stopped until the time limit.
for sig in SIGTTOU SIGTTIN SIGTSTP; do
	setenv FAKE_CUDA_STOP=$sig
	run_json bench gpu $GPU_SMALL --timeout 20
	expect_rc 0
	expect_json '.gpu.status == "ok"'
	clearenv
done

# The second device allocation fails: what was allocated is still freed.
setenv FAKE_CUDA_FAIL=cuMemAlloc:2@2 FAKE_CUDA_TRACE="$WORK/trace"
rm -f "$WORK/trace"
run_json bench gpu $GPU_SMALL
expect_rc 1
expect_json '.gpu.error.call == "cuMemAlloc" and .gpu.error.code == 2'
expect_json '.gpu.method.allocations == 1 and .gpu.method.frees == 1'
trace_balanced "$WORK/trace" "a failed allocation"
clearenv

# Ctrl-C while the driver hangs: the child is killed, the exit status is 130.
# Sent once the fake's trace shows cuInit reached: earlier, on a loaded
# machine, it can come before bench handles SIGINT at all, which a shell
# starts ignored in a background command.
rm -f "$WORK/intr.trace"
env -i PATH=/usr/bin:/bin HOME=/home/user LANG=C.UTF-8 PWD=/home/user FAKE_CUDA_HANG=cuInit \
	FAKE_CUDA_TRACE="$WORK/intr.trace" \
	"$WSLGPU" --root "$ROOT" bench gpu $GPU_SMALL >"$WORK/intr.out" 2>"$WORK/intr.err" &
pid=$!
i=0
while [ $i -lt 1200 ] && ! grep -qx 'call cuInit' "$WORK/intr.trace" 2>/dev/null; do
	sleep 0.05
	i=$((i + 1))
done
kill -INT $pid
wait $pid
RC=$?
OUT=$(cat "$WORK/intr.out")
ERR=$(cat "$WORK/intr.err")
expect_rc 130
expect_err 'interrupted by SIGINT during bench gpu'
expect_no_line 'GPU path'

run_json bench gpu $GPU_SMALL --device 3
expect_rc 1
expect_json '.gpu.error.kb == "bench.gpu.no_device"'
expect_json '.gpu.error.message == "GPU 3 does not exist: the driver reports 1 device"'

rm "$ROOT/usr/lib/wsl/lib/libcuda.so.1"
run_json bench gpu $GPU_SMALL
expect_rc 1
expect_json '.gpu.error.kb == "bench.gpu.no_library"'
expect_json '.gpu.error.message | test("^could not load /usr/lib/wsl/lib/libcuda.so.1: ")'

# ---- the findings' fix lines are chosen for the root's platform ----
# As check's are (finding_for_platform): a hang on native Linux shows no
# WSL step (wsl.exe --shutdown), in text or JSON; on WSL2 the step stays.
fixture native-nvidia
setenv FAKE_CUDA_HANG=cuMemAlloc
run_json bench gpu $GPU_SMALL --timeout 1
expect_rc 1
expect_json '.gpu.error.kb == "bench.gpu.timeout"'
expect_json '[.gpu.verdict.findings[].fix[]] | length > 0'
expect_json '[.gpu.verdict.findings[].fix[] | select(test("wsl\\.exe|PowerShell"))] == []'
run bench gpu $GPU_SMALL --timeout 1
expect_line '^      fix    wslgpu bench gpu --timeout 600'
expect_no_line 'wsl\.exe|PowerShell'
clearenv
fixture healthy-wsl2
setenv FAKE_CUDA_HANG=cuMemAlloc
run_json bench gpu $GPU_SMALL --timeout 1
expect_json '[.gpu.verdict.findings[].fix[] | select(startswith("wsl.exe --shutdown"))] | length == 1'
clearenv

# ---- both at once: one JSON document ----
fixture healthy-wsl2
mkdir -p "$ROOT/tmp/data"
run_json bench /tmp/data $IO_SMALL $GPU_SMALL
expect_rc 0
expect_json '.schema == "wslgpu/bench/1" and .io.locations[0].status == "done" and .gpu.status == "ok"'
expect_empty "$ROOT/tmp/data" "the named directory (io + gpu)"

done_testing
