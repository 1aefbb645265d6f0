# cuda.sh: the cuda layer (cuda.load, cuda.init, cuda.devices, cuda.kernel)
# on the healthy WSL2 fixture, with the fake libcuda (tests/fakes/libcuda.c,
# its knobs in tests/fakes/README.md) standing in for the Windows driver's,
# and with the CUDA toolkit's real stub where this machine has one.
. "$(dirname "$0")/lib.sh"

# Evidence value of a check in $JSON.
ev() { jq -r --arg id "$1" --arg k "$2" '.checks[] | select(.id == $id) | .evidence[$k] // empty' "$JSON"; }
kb_of() { jq -r --arg id "$1" '.checks[] | select(.id == $id) | .kb // empty' "$JSON"; }
expect_ev() {
	v=$(ev "$1" "$2")
	if [ "$v" = "$3" ]; then ok "$1 $2 = $3"; else fail "$1 $2 is '$v', expected '$3'"; fi
}
expect_ev_match() {
	v=$(ev "$1" "$2")
	if printf '%s' "$v" | grep -Eq -- "$3"; then ok "$1 $2 ~ /$3/"; else fail "$1 $2 is '$v', expected /$3/"; fi
}
expect_kb() {
	k=$(kb_of "$1")
	if [ "$k" = "$2" ]; then ok "$1 kb $2"; else fail "$1 kb is '$k', expected $2"; fi
}
# Runs the cuda layer with the given fake settings (replacing earlier ones).
with() { EXTRA_ENV=""; [ $# -gt 0 ] && setenv "$@"; }

# ---- a healthy machine: every check passes, with the fake's device ----
fixture healthy-wsl2
run_json --only cuda
expect_rc 0
for id in cuda.load cuda.init cuda.devices cuda.kernel; do expect_status $id pass; done
expect_ev cuda.load loaded /usr/lib/wsl/lib/libcuda.so.1
expect_ev cuda.load predicted /usr/lib/wsl/lib/libcuda.so.1
expect_ev cuda.init driver_cuda_version 12.4
expect_ev cuda.init device_count 1
expect_json '.checks[] | select(.id == "cuda.init") | .detail == "driver supports CUDA 12.4; 1 CUDA device"'
expect_ev cuda.devices device.0.name "NVIDIA GeForce RTX 3080"
expect_ev cuda.devices device.0.cc 8.6
expect_ev cuda.devices device.0.memory_mib 10240
expect_ev cuda.devices device.0.pci 0000:01:00.0
expect_ev cuda.devices device.0.uuid GPU-5a1e3c7d-219b-4f02-8e6a-d410beef0001
expect_ev_match cuda.devices device.0.concurrent_managed_access '^0 \(expected on WSL 2'
expect_ev cuda.kernel elements 1048576
expect_ev_match cuda.kernel first_launch_ms '^[0-9]+\.[0-9]+$'
expect_ev_match cuda.kernel second_launch_ms '^[0-9]+\.[0-9]+$'
expect_ev_match cuda.kernel ptx 'PTX ISA 7\.0, target sm_50'
run --only cuda
expect_line '^✓ cuda\.kernel +wslgpu_fill wrote all 1048576 elements correctly, twice'
expect_line '^✓ cuda\.devices +NVIDIA GeForce RTX 3080 \(compute capability 8\.6, 10240 MiB, PCI 0000:01:00\.0\)'

# Another device, as the fake describes it (%20: the harness splits on spaces).
with FAKE_CUDA_NAME=NVIDIA%20RTX%20A4000 FAKE_CUDA_CC=8.6 FAKE_CUDA_MEM_MIB=16376 \
	FAKE_CUDA_DRIVER_VERSION=12020 FAKE_CUDA_PCI=0000:2b:00 FAKE_CUDA_DEVICES=2
run_json --only cuda
expect_rc 0
expect_ev cuda.init driver_cuda_version 12.2
expect_ev cuda.init device_count 2
expect_ev cuda.devices device.1.name "NVIDIA RTX A4000"
expect_ev cuda.devices device.1.memory_mib 16376
expect_ev cuda.devices device.1.pci 0000:2b:00.0
expect_ev cuda.devices device.1.uuid GPU-5a1e3c7d-219b-4f02-8e6a-d410beef0002
expect_json '.checks[] | select(.id == "cuda.devices") | .detail | startswith("2 devices: NVIDIA RTX A4000")'

# ---- every CUresult from cuInit gets its verdict and KB cause ----
cuinit_case() { # code kb
	with FAKE_CUDA_FAIL=cuInit:$1
	run_json --only cuda.init
	expect_rc 1
	expect_status cuda.init fail
	expect_kb cuda.init "$2"
	expect_ev_match cuda.init result "\\($1\\)\$"
}
cuinit_case 100 cuda.init.no_device
expect_ev cuda.init result "CUDA_ERROR_NO_DEVICE (100)"
expect_json '.checks[] | select(.id == "cuda.init") | .cause | test("Linux driver.s libcuda")'
expect_json '.checks[] | select(.id == "cuda.init") | .fix | any(test("nvidia-smi.exe"))'
cuinit_case 999 cuda.init.unknown
expect_ev cuda.init result "CUDA_ERROR_UNKNOWN (999)"
cuinit_case 304 cuda.init.os_error
expect_ev cuda.init result "CUDA_ERROR_OPERATING_SYSTEM (304)"
cuinit_case 3 cuda.init.not_initialized
cuinit_case 803 cuda.init.driver_mismatch
expect_ev cuda.init result "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803)"
cuinit_case 804 cuda.init.compat_unsupported
cuinit_case 2 cuda.init.error
expect_ev cuda.init result "CUDA_ERROR_OUT_OF_MEMORY (2)"
# 35 is the runtime's cudaErrorInsufficientDriver, no CUresult: named as such.
cuinit_case 35 cuda.init.error
expect_ev cuda.init result "CUDA_ERROR_UNRECOGNISED (35)"
run --only cuda
expect_line '^✗ cuda\.init +cuInit returned CUDA_ERROR_UNRECOGNISED \(35\)'

with FAKE_CUDA_FAIL=cuInit:100
run_json --only cuda
expect_status cuda.devices skip
expect_status cuda.kernel skip
run --only cuda
expect_line '^✗ cuda\.init +cuInit returned CUDA_ERROR_NO_DEVICE \(100\)'
expect_line '^      2 checks skipped until this is fixed \(-v lists them\)$'
run -v --only cuda
expect_line '^- cuda\.devices +skipped: cuda\.init failed, fix that first +\([0-9]+ ms\)$'
expect_line '^✗ Broken at the cuda layer'

# A failing device count, and what CUDA_VISIBLE_DEVICES does to cuInit.
with FAKE_CUDA_FAIL=cuDeviceGetCount:999
run_json --only cuda.init
expect_kb cuda.init cuda.init.unknown
expect_ev cuda.init call cuDeviceGetCount
for v in "" -1; do
	with "CUDA_VISIBLE_DEVICES=$v"
	run_json --only cuda
	expect_status cuda.init fail
	expect_kb cuda.init cuda.init.hidden
	expect_ev cuda.init cuda_visible_devices "'$v'"
	expect_json '.checks[] | select(.id == "cuda.init") | .fix[0] | test("unset CUDA_VISIBLE_DEVICES")'
done
with CUDA_VISIBLE_DEVICES=0
run_json --only cuda
expect_status cuda.kernel pass

# The fake as the toolkit's stub: every call returns 34.
with FAKE_CUDA_STUB=1
run_json --only cuda
expect_status cuda.load pass
expect_status cuda.init fail
expect_ev cuda.init result "CUDA_ERROR_STUB_LIBRARY (34)"
expect_kb cuda.init cuda.init.stub_copy

# ---- a crash in cuInit: ☠, and every other layer still reports ----
with FAKE_CUDA_CRASH=cuInit
run_json
expect_rc 1
expect_status cuda.init crash
expect_ev cuda.init signal SIGSEGV
expect_ev cuda.init during "cuInit(0)"
expect_status cuda.load pass
expect_status platform.kind pass
expect_json '[.checks[] | select(.layer != "cuda" and .status == "skip" and (.evidence.blocked_by // "" | startswith("cuda")))] | length == 0'
expect_json '[.checks[] | select(.layer == "platform" or .layer == "libs")] | length >= 6'
run
expect_rc 1
expect_line '^☠ cuda\.init +probe crashed \(SIGSEGV\) while: cuInit\(0\)'
expect_line '^✓ platform\.kind'
expect_line '^      [0-9]+ checks? skipped until this is fixed \(-v lists them\)$'
run -v
expect_line '^- cuda\.kernel +skipped: cuda\.init failed'

# A crash in a later call costs that probe only.
with FAKE_CUDA_CRASH=cuLaunchKernel
run_json --only cuda
expect_status cuda.devices pass
expect_status cuda.kernel crash
expect_ev_match cuda.kernel during '^cuLaunchKernel wslgpu_fill \(first launch'

# ---- a hang: the runner's time limit names the step ----
# What the layer takes here without the hang, measured now: the hung run
# takes the 2 s limit more, and well below the default limit of 10 s more,
# however busy the machine (a sanitizer build at load 20 took 6 s).
with
run --only cuda --timeout 2
ref=$SECS
with FAKE_CUDA_HANG=cuModuleLoadData
run --only cuda --timeout 2
expect_rc 1
expect_line '^T cuda\.kernel +probe did not finish within 2\.0 s while waiting for: cuModuleLoadData'
if awk -v s="$SECS" -v r="$ref" 'BEGIN { exit !(s < 2 * r + 2 + 2) }'; then ok "hang reported in ${SECS}s (${ref}s without it)"
else fail "hang took ${SECS}s, ${ref}s without it (bound: twice that + the 2 s limit + 2 s)"; fi
with FAKE_CUDA_HANG=cuCtxSynchronize
run_json --only cuda --timeout 2
expect_status cuda.kernel timeout
expect_ev_match cuda.kernel waiting_for '^cuCtxSynchronize \(waiting for the first launch'
with FAKE_CUDA_HANG=cuInit
run_json --only cuda --timeout 2
expect_status cuda.init timeout
expect_ev cuda.init waiting_for "cuInit(0)"

# ---- the kernel: every element checked; failures named by step ----
with FAKE_CUDA_WRONG_DATA=1
run_json --only cuda
expect_rc 1
expect_status cuda.kernel fail
expect_kb cuda.kernel cuda.kernel.wrong_data
expect_ev cuda.kernel wrong_elements "256 of 1048576"
expect_ev_match cuda.kernel first_wrong '^index 4095: expected 0x[0-9a-f]{8}, got 0x[0-9a-f]{8}$'

kernel_case() { # FAKE_CUDA_FAIL kb call
	with FAKE_CUDA_FAIL=$1
	run_json --only cuda
	expect_status cuda.kernel fail
	expect_kb cuda.kernel "$2"
	expect_ev cuda.kernel call "$3"
}
kernel_case cuModuleLoadData:222 cuda.kernel.ptx_unsupported cuModuleLoadDataEx
kernel_case cuModuleLoadData:221 cuda.kernel.jit_missing cuModuleLoadDataEx
kernel_case cuModuleLoadData:223 cuda.kernel.jit_disabled cuModuleLoadDataEx
kernel_case cuModuleLoadData:218 cuda.kernel.jit_failed cuModuleLoadDataEx
kernel_case cuModuleGetFunction:500 cuda.kernel.jit_failed cuModuleGetFunction
kernel_case cuDevicePrimaryCtxRetain:46 cuda.kernel.device_unavailable cuDevicePrimaryCtxRetain
kernel_case cuDevicePrimaryCtxRetain:999 cuda.init.unknown cuDevicePrimaryCtxRetain
kernel_case cuMemAlloc:2 cuda.kernel.out_of_memory cuMemAlloc
kernel_case cuMemcpyDtoH:1 cuda.kernel.memory_failed cuMemcpyDtoH
kernel_case cuLaunchKernel:719 cuda.kernel.launch_failed cuLaunchKernel
kernel_case cuCtxSynchronize:700 cuda.kernel.launch_failed cuCtxSynchronize
# The second launch fails: the first one's success is not enough.
kernel_case cuLaunchKernel:719@2 cuda.kernel.launch_failed cuLaunchKernel
expect_ev cuda.kernel result "CUDA_ERROR_LAUNCH_FAILED (719)"

# A driver older than the PTX: the fake JITs like ptxas, log and all.
with FAKE_CUDA_DRIVER_VERSION=10020
run_json --only cuda
expect_ev cuda.init driver_cuda_version 10.2
expect_kb cuda.kernel cuda.kernel.ptx_unsupported
expect_ev_match cuda.kernel jit_log "Unsupported \\.version 7\\.0; current version is '6\\.5'"
expect_json '.checks[] | select(.id == "cuda.kernel") | .cause | test("Unsupported .version 7.0")'

# ---- odd libraries never break the report ----
with FAKE_CUDA_DEVICES=1e9
run_json --only cuda
expect_status cuda.init fail
expect_kb cuda.init cuda.init.bad_count
expect_ev cuda.init device_count 1000000000
with FAKE_CUDA_DEVICES=-3 FAKE_CUDA_ODD=init-without-devices
run_json --only cuda
expect_kb cuda.init cuda.init.bad_count
with FAKE_CUDA_DEVICES=0 FAKE_CUDA_ODD=init-without-devices
run_json --only cuda
expect_kb cuda.init cuda.init.zero_devices
with FAKE_CUDA_DEVICES=0
run_json --only cuda
expect_kb cuda.init cuda.init.no_device
with FAKE_CUDA_MEM_MIB=0
run_json --only cuda
expect_status cuda.devices warn
expect_kb cuda.devices cuda.devices.no_memory
expect_ev cuda.devices device.0.memory_mib 0
expect_kb cuda.kernel cuda.kernel.out_of_memory
with FAKE_CUDA_CC=5.2
run_json --only cuda
expect_status cuda.devices warn
expect_kb cuda.devices cuda.devices.old_arch
expect_status cuda.kernel pass
# Non-UTF-8 bytes and escape codes in the name: valid JSON, a clean terminal.
with FAKE_CUDA_NAME=%FF%FEbad%1B%5B31mname
run_json --only cuda
expect_rc 0
expect_ev cuda.devices device.0.name "��bad[31mname"
run --only cuda.devices
if printf '%s' "$OUT" | grep -q "$(printf '\033')"; then fail "an escape reached the terminal"; else ok "no escape on the terminal"; fi
with FAKE_CUDA_ODD=unterminated-name
run_json --only cuda.devices
expect_status cuda.devices pass
expect_json '.checks[] | select(.id == "cuda.devices") | .evidence["device.0.name"] | length == 256'
with FAKE_CUDA_NAME=
run_json --only cuda.devices
expect_ev cuda.devices device.0.name "(no name)"
for odd in null-error-names garbage-error-names; do
	with FAKE_CUDA_ODD=$odd FAKE_CUDA_FAIL=cuInit:100
	run_json --only cuda
	expect_ev cuda.init result "CUDA_ERROR_NO_DEVICE (100)"
	expect_json '.checks[] | select(.id == "cuda.init") | .detail | test("^[ -~]+$")'
done

# An old driver: only the plain names; the missing calls are "not supported".
fixture healthy-wsl2
cp "$FAKES/libcuda-legacy.so.1" "$ROOT/usr/lib/wsl/lib/libcuda.so.1"
run_json --only cuda
expect_rc 0
expect_status cuda.kernel pass
expect_ev_match cuda.load not_supported 'cuModuleLoadDataEx'
expect_ev_match cuda.load not_supported 'cuGetErrorName'
expect_ev cuda.devices device.0.uuid GPU-5a1e3c7d-219b-4f02-8e6a-d410beef0001

# A shared library that is not CUDA, and one the loader cannot bind.
cp "$FAKES/libdxcore.so" "$ROOT/usr/lib/wsl/lib/libcuda.so.1"
run_json --only cuda
expect_status cuda.load fail
expect_kb cuda.load cuda.load.not_cuda
expect_status cuda.init skip
cp "$FAKES/libcuda-unresolved.so.1" "$ROOT/usr/lib/wsl/lib/libcuda.so.1"
run_json --only cuda
expect_status cuda.load fail
expect_kb cuda.load cuda.load.dlopen_failed
expect_ev_match cuda.load error '^/usr/lib/wsl/lib/libcuda\.so\.1: undefined symbol: wslgpu_symbol_no_library_defines$'
expect_json '.checks[] | select(.id == "cuda.load") | .cause | test("undefined symbol")'
# No host path of the fixture leaks into the report.
if grep -q "$ROOT" "$JSON"; then fail "the fixture's host path is in the report"; else ok "guest paths only"; fi

# ---- native Linux: the platform's own reading, no WSL step ----
# CUDA's unknown error (999) and "no device" (100) on a native machine:
# the nvidia_uvm module and the device nodes, never wsl.exe or nvidia-smi.exe.
fixture native-nvidia
native_case() { # code kb
	with FAKE_CUDA_FAIL=cuInit:$1
	run_json --only cuda.init
	expect_rc 1
	expect_kb cuda.init "$2"
	expect_json '[.checks[] | select(.id == "cuda.init") | .fix[] | select(test("wsl\\.exe|nvidia-smi\\.exe|PowerShell"))] == []'
	expect_json '.checks[] | select(.id == "cuda.init") | (.cause | test("WSL") | not)'
}
native_case 999 cuda.init.unknown_native
expect_json '.checks[] | select(.id == "cuda.init") | .cause | test("nvidia_uvm")'
expect_json '.checks[] | select(.id == "cuda.init") | .fix[0] == "nvidia-smi"'
native_case 100 cuda.init.no_device_native
with

# ---- the CUDA toolkit's real stub (CI machines have /usr/local/cuda) ----
STUB=/usr/local/cuda/lib64/stubs/libcuda.so
if [ -f "$STUB" ]; then
	# Copied over WSL's file: the libs layer knows it by its content, the
	# cuda layer still loads it and shows what its cuInit answers (34).
	fixture healthy-wsl2
	cp "$STUB" "$ROOT/usr/lib/wsl/lib/libcuda.so.1"
	run_json --only libs.libcuda,cuda
	expect_rc 1
	expect_status libs.libcuda fail
	expect_kb libs.libcuda libs.loader.stub_copy
	expect_ev libs.libcuda library "the CUDA toolkit's stub"
	expect_status cuda.load fail
	expect_ev cuda.load cuinit "CUDA_ERROR_STUB_LIBRARY (34)"
	expect_kb cuda.load cuda.init.stub_copy
	expect_ev_match cuda.load prediction '^libs\.libcuda fail: the loader picks the CUDA toolkit.s stub'
	run --only libs.libcuda,cuda
	expect_line '^✗ cuda\.load +loaded /usr/lib/wsl/lib/libcuda\.so\.1, but its cuInit answers CUDA_ERROR_STUB_LIBRARY \(34\)'
	# Its own directory on LD_LIBRARY_PATH: found before the driver; the libs
	# layer names the stub, and the cuda layer loads it all the same and
	# reports cuInit's real answer beside the prediction.
	fixture healthy-wsl2
	mkdir -p "$ROOT/usr/local/cuda/lib64/stubs"
	cp "$STUB" "$ROOT/usr/local/cuda/lib64/stubs/libcuda.so"
	ln -s libcuda.so "$ROOT/usr/local/cuda/lib64/stubs/libcuda.so.1"
	setenv LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs
	run_json --only libs.libcuda,cuda
	expect_rc 1
	expect_json '.checks[] | select(.id == "libs.libcuda") | .status == "fail"'
	expect_json '.checks[] | select(.id == "libs.libcuda") | .evidence.resolved == "/usr/local/cuda/lib64/stubs/libcuda.so.1"'
	expect_status cuda.load fail
	expect_kb cuda.load cuda.load.stub
	expect_ev cuda.load cuinit "CUDA_ERROR_STUB_LIBRARY (34)"
	# The real stub copied to an ordinary directory on LD_LIBRARY_PATH: known
	# by its content, not taken for a Linux driver library no package owns.
	fixture healthy-wsl2
	mkdir -p "$ROOT/home/user/opt/gpulibs"
	cp "$STUB" "$ROOT/home/user/opt/gpulibs/libcuda.so.1"
	setenv LD_LIBRARY_PATH=/home/user/opt/gpulibs
	run_json --only libs.libcuda,cuda
	expect_rc 1
	expect_status libs.libcuda fail
	expect_kb libs.libcuda libs.loader.stub_copy
	expect_ev libs.libcuda library "the CUDA toolkit's stub"
	expect_ev libs.libcuda library_kind stub
	expect_json '.checks[] | select(.id == "libs.libcuda") | (.detail | test("no package owns") | not)'
	expect_status cuda.load fail
	expect_ev cuda.load loaded /home/user/opt/gpulibs/libcuda.so.1
	expect_ev cuda.load cuinit "CUDA_ERROR_STUB_LIBRARY (34)"
	expect_kb cuda.load cuda.init.stub_copy
	run --only libs.libcuda,cuda
	expect_line '^✗ libs\.libcuda +the loader picks the CUDA toolkit.s stub /home/user/opt/gpulibs/libcuda\.so\.1 \(via LD_LIBRARY_PATH\), a copy outside'
	expect_no_line '^✗ libs\.libcuda .*no package owns'
else
	echo "skip: $STUB is absent (no CUDA toolkit here): real-stub tests not run"
fi

done_testing
