# nvml.sh: the nvml layer (nvml.init, nvml.devices, nvml.smi) and host.driver
# on the healthy WSL2 fixture, steered by the fake libnvidia-ml's FAKE_NVML_*
# variables and by the stand-in nvidia-smi scripts of tests/fakes/nvidia-smi/
# (one per field case; tests/fakes/README.md).
. "$(dirname "$0")/lib.sh"

SMI_FAKES="$top/tests/fakes/nvidia-smi"
WIN_FAKES="$top/tests/fakes/windows"

# Puts stand-in CASE in place of WSL's nvidia-smi in the fixture copy.
smi() { cp "$SMI_FAKES/$1" "$ROOT/usr/lib/wsl/lib/nvidia-smi"; }
# The JSON value of a check's field: ev ID KEY / field ID FIELD.
ev() { jq -r --arg id "$1" --arg k "$2" '.checks[] | select(.id == $id) | .evidence[$k] // empty | if type == "array" then join(",") else . end' "$JSON"; }
field() { jq -r --arg id "$1" --arg k "$2" '.checks[] | select(.id == $id) | .[$k] // empty' "$JSON"; }
expect_ev() {
	got=$(ev "$1" "$2")
	if [ "$got" = "$3" ]; then ok "$1 $2=$3"; else fail "$1 $2 is '$got', expected '$3'"; fi
}
expect_ev_match() {
	got=$(ev "$1" "$2")
	if printf '%s\n' "$got" | grep -Eq -- "$3"; then ok "$1 $2 ~ /$3/"; else fail "$1 $2 is '$got', not /$3/"; fi
}
expect_field() {
	got=$(field "$1" "$2")
	if [ "$got" = "$3" ]; then ok "$1 .$2=$3"; else fail "$1 .$2 is '$got', expected '$3'"; fi
}
expect_field_match() {
	got=$(field "$1" "$2")
	if printf '%s\n' "$got" | grep -Eq -- "$3"; then ok "$1 .$2 ~ /$3/"; else fail "$1 .$2 is '$got', not /$3/"; fi
}

# ---- a wrapper script: commands may redirect to /dev/null ----
# nvidia-smi as a shell wrapper around the real one (as pyenv and conda
# shims, and site wrappers, are): its >/dev/null is an open with O_CREAT |
# O_TRUNC, which the commands' sandbox must allow (src/core/sandbox.h).
fixture healthy-wsl2
mv "$ROOT/usr/lib/wsl/lib/nvidia-smi" "$ROOT/usr/lib/wsl/lib/nvidia-smi.real"
printf '#!/bin/sh\ncommand -v true >/dev/null 2>&1 || exit 9\nexec "$0.real" "$@"\n' \
	>"$ROOT/usr/lib/wsl/lib/nvidia-smi"
chmod 755 "$ROOT/usr/lib/wsl/lib/nvidia-smi"
run_json --only nvml.smi
expect_rc 0
expect_status nvml.smi pass

# ---- healthy: everything passes; WSL's unsupported queries are info ----
fixture healthy-wsl2
run_json --only nvml,host.driver
expect_rc 0
expect_status nvml.init pass
expect_status nvml.devices pass
expect_status nvml.smi pass
expect_status host.driver pass
expect_ev nvml.init loaded /usr/lib/wsl/lib/libnvidia-ml.so.1
expect_ev nvml.init init_symbol nvmlInit_v2
expect_ev nvml.init code_name NVML_SUCCESS
expect_ev nvml.devices driver_version 551.23
expect_ev nvml.devices cuda_version 12.4
expect_ev nvml.devices device_count 1
expect_ev nvml.devices device.0.name "NVIDIA GeForce RTX 3080"
expect_ev nvml.devices device.0.memory_total_mib 10240
expect_ev nvml.devices device.0.memory_used_mib 1024
expect_ev nvml.devices device.0.driver_model WDDM
expect_ev nvml.devices unsupported "utilization,processes"
expect_field nvml.devices kb nvml.devices.wsl_partial
expect_ev nvml.smi path /usr/lib/wsl/lib/nvidia-smi
expect_ev nvml.smi smi_version 550.54.10
expect_ev nvml.smi driver_version 551.23
expect_ev nvml.smi cuda_version 12.4
expect_ev host.driver driver_version 551.23
expect_ev host.driver driver_source NVML
expect_ev host.driver driver_cuda_version 12.4
run --only nvml,host.driver
expect_line '^✓ nvml\.init +NVML initialised \(/usr/lib/wsl/lib/libnvidia-ml\.so\.1\)$'
expect_line '^✓ nvml\.devices +1 GPU: NVIDIA GeForce RTX 3080 \(10240 MiB\); driver 551\.23, CUDA 12\.4$'
expect_line '^✓ nvml\.smi +nvidia-smi works: driver 551\.23, CUDA 12\.4$'
expect_line '^✓ host\.driver +driver 551\.23, CUDA 12\.4 \(from NVML\)$'
expect_line '^✓ No problems found in 4 checks\.$'
run -v --only nvml.devices
expect_line 'note +NVIDIA: "NVML \(nvidia-smi\) does not support all the queries yet'
expect_line 'unsupported: +utilization'
expect_line 'unsupported: +processes'

# A native-like NVML answers every query.
fixture healthy-wsl2
setenv FAKE_NVML_UNSUPPORTED=none FAKE_NVML_UTIL=87 FAKE_NVML_PROCS=2
run_json --only nvml.devices
expect_status nvml.devices pass
expect_field nvml.devices kb ""
expect_ev nvml.devices unsupported ""
expect_ev nvml.devices device.0.utilization_gpu 87
expect_ev nvml.devices device.0.processes 2

# The process list answering 999 (dask/distributed#5567) is "unsupported" too.
fixture healthy-wsl2
setenv FAKE_NVML_UNSUPPORTED=utilization FAKE_NVML_FAIL=nvmlDeviceGetComputeRunningProcesses_v3:999
run_json --only nvml.devices
expect_status nvml.devices pass
expect_ev nvml.devices unsupported "utilization,processes"
expect_json '[.checks[] | select(.id == "nvml.devices") | .evidence.unsupported_detail[] | select(test("ComputeRunningProcesses_v3: NVML_ERROR_UNKNOWN \\(999\\)"))] | length == 1'

# Two GPUs, one name each.
fixture healthy-wsl2
setenv FAKE_NVML_DEVICES=2 "FAKE_NVML_NAME=NVIDIA%20RTX%20A2000;Second"
run_json --only nvml.devices
expect_ev nvml.devices device_count 2
expect_ev nvml.devices device.0.name "NVIDIA RTX A2000"
expect_ev nvml.devices device.1.name Second
expect_ev nvml.devices device.1.pci_bus_id 00000000:02:00.0

# ---- nvmlInit's return codes, each by name with its cause ----
for pair in 9:nvml.init.driver_not_loaded:NVML_ERROR_DRIVER_NOT_LOADED \
	    17:nvml.init.os_blocked:NVML_ERROR_OPERATING_SYSTEM \
	    12:nvml.init.library_not_found:NVML_ERROR_LIBRARY_NOT_FOUND \
	    4:nvml.init.no_permission:NVML_ERROR_NO_PERMISSION \
	    18:nvml.init.version_mismatch:NVML_ERROR_LIB_RM_VERSION_MISMATCH \
	    999:nvml.init.unknown:NVML_ERROR_UNKNOWN \
	    2:nvml.init.failed:NVML_ERROR_INVALID_ARGUMENT; do
	code=${pair%%:*}
	rest=${pair#*:}
	kb=${rest%%:*}
	name=${rest#*:}
	fixture healthy-wsl2
	setenv FAKE_NVML_FAIL=nvmlInit_v2:$code
	run_json --only nvml
	expect_rc 1
	expect_status nvml.init fail
	expect_field nvml.init kb "$kb"
	expect_ev nvml.init code "$code"
	expect_ev nvml.init code_name "$name"
	expect_status nvml.devices skip
	expect_ev nvml.devices blocked_by nvml.init
	expect_status nvml.smi pass
	expect_json '.summary.first_failure == "nvml.init"'
	expect_field_match nvml.init cause '.'
	expect_json '.checks[] | select(.id == "nvml.init") | .fix | length > 0'
	run --only nvml
	expect_line "^✗ nvml\\.init +nvmlInit_v2 returned $name \\($code\\)"
	expect_line '^✗ Broken at the nvml layer: nvmlInit_v2 returned'
	expect_line '^      cause +'
done
# The causes name what the field reports found.
fixture healthy-wsl2
setenv FAKE_NVML_FAIL=nvmlInit_v2:17
run --only nvml.init
expect_line 'cause +nvmlInit_v2 returned NVML_ERROR_OPERATING_SYSTEM \(17\), "the GPU control'
expect_line 'no-cgroups'
expect_line 'fix +dpkg -l \| grep -E'
setenv FAKE_NVML_FAIL=nvmlInit:9
run --only nvml.init
expect_line 'elevation of the first WSL session'
expect_line 'wsl\.exe --shutdown'
# Natively the same code is the device nodes' or the container runtime's:
# no WSL step (no wsl.exe, no removing Linux driver packages).
fixture native-nvidia
setenv FAKE_NVML_FAIL=nvmlInit_v2:17
run_json --only nvml.init
expect_rc 1
expect_field nvml.init kb nvml.init.native_os_blocked
expect_json '.checks[] | select(.id == "nvml.init") | .fix[0] | test("/dev/nvidiactl")'
expect_json '[.checks[] | select(.id == "nvml.init") | .fix[], .cause | select(test("wsl|WSL|PowerShell|nvidia-utils"))] == []'

# Old NVML: only the unversioned names (nvmlInit, nvmlDeviceGetCount, ...).
fixture healthy-wsl2
setenv FAKE_NVML_NO_V2=1
run_json --only nvml
expect_rc 0
expect_status nvml.init pass
expect_ev nvml.init init_symbol nvmlInit
expect_status nvml.devices pass
expect_ev nvml.devices cuda_version 12.4
expect_ev nvml.devices device.0.name "NVIDIA GeForce RTX 3080"
expect_ev nvml.devices device.0.driver_model WDDM
expect_ev nvml.devices unsupported "pci,utilization,processes"
expect_json '[.checks[] | select(.id == "nvml.devices") | .evidence.unsupported_detail[] | select(startswith("nvmlDeviceGetComputeRunningProcesses: "))] | length == 1'

# ---- nvml.devices failures ----
fixture healthy-wsl2
setenv FAKE_NVML_DEVICES=0
run_json --only nvml.devices
expect_rc 1
expect_status nvml.devices fail
expect_field nvml.devices kb nvml.devices.none
expect_field_match nvml.devices cause 'TCC mode'
fixture healthy-wsl2
setenv FAKE_NVML_FAIL=nvmlDeviceGetCount_v2:15
run_json --only nvml.devices
expect_status nvml.devices fail
expect_field nvml.devices kb nvml.devices.query_failed
expect_ev nvml.devices failed_call nvmlDeviceGetCount_v2
fixture healthy-wsl2
setenv FAKE_NVML_FAIL=nvmlDeviceGetMemoryInfo:15
run_json --only nvml.devices
expect_rc 0
expect_status nvml.devices warn
expect_field nvml.devices kb nvml.devices.query_error
expect_ev nvml.devices query_error "GPU 0: nvmlDeviceGetMemoryInfo: NVML_ERROR_GPU_IS_LOST (15)"

# ---- a crash or a hang inside NVML leaves a complete report ----
fixture healthy-wsl2
setenv FAKE_NVML_CRASH=nvmlDeviceGetCount
run_json --only nvml,host.driver
expect_rc 1
expect_status nvml.init pass
expect_status nvml.devices crash
expect_field nvml.devices kb core.probe_crash
expect_field_match nvml.devices detail '^probe crashed \(SIGSEGV\) while: calling nvmlDeviceGetCount_v2$'
expect_status nvml.smi pass
expect_status host.driver pass
expect_ev host.driver driver_source nvidia-smi
expect_json '.summary.first_failure == "nvml.devices"'
run --only nvml,host.driver
expect_line '^☠ nvml\.devices +probe crashed \(SIGSEGV\) while: calling nvmlDeviceGetCount_v2$'
expect_line '^✓ host\.driver +driver 551\.23, CUDA 12\.4 \(from nvidia-smi\)$'
expect_line '^✗ Broken at the nvml layer'
# A driver for a CUDA newer than the release table: said to be newer than this
# tool's knowledge, not read as the newest release it knows.
sed -i 's/CUDA Version: 12\.4 /CUDA Version: 14.0 /' "$ROOT/usr/lib/wsl/lib/nvidia-smi"
run_json --only nvml,host.driver
expect_ev host.driver driver_cuda_version 14.0
expect_ev_match host.driver driver_cuda_known "^CUDA 14\\.0 is newer than this tool's knowledge of 20[0-9][0-9]-[01][0-9] \\(its table ends at CUDA 13\\.5 GA\\)$"

# A hung nvmlInit costs one time limit, not one per check that waits on
# it: measured against the same run without the hang, now (the machine may
# be busy), with a limit long enough that two would show whatever the load.
fixture healthy-wsl2
run_json --timeout 10 --only nvml,host.driver
ref=$SECS
setenv FAKE_NVML_HANG=nvmlInit
run_json --timeout 10 --only nvml,host.driver
expect_rc 1
expect_status nvml.init timeout
expect_field_match nvml.init detail 'while waiting for: calling nvmlInit_v2 in /usr/lib/wsl/lib/libnvidia-ml\.so\.1$'
expect_status nvml.devices skip
expect_status nvml.smi pass
expect_status host.driver pass
expect_ev host.driver driver_source nvidia-smi
if awk -v s="$SECS" -v r="$ref" 'BEGIN { exit !(s < 2 * r + 10 + 2) }'; then
	ok "a hung NVML costs one time limit ($SECS s, $ref s without it)"
else fail "took $SECS s, $ref s without the hang (bound: twice that + one 10 s limit + 2 s)"; fi

# ---- nvidia-smi: each failure mode of the field ----
fixture healthy-wsl2
smi segfault
run_json --only nvml.smi,host.driver
expect_rc 1
expect_status nvml.smi fail
expect_field nvml.smi kb nvml.smi.crash
expect_field nvml.smi detail "/usr/lib/wsl/lib/nvidia-smi crashed (SIGSEGV) after printing its header"
expect_ev nvml.smi signal SIGSEGV
expect_ev nvml.smi smi_version 555.42.03
expect_ev nvml.smi driver_version 555.85
expect_ev nvml.smi cuda_version 12.5
expect_field_match nvml.smi cause 'certain Windows driver versions'
expect_status host.driver pass
run --only nvml.smi
expect_line '^✗ nvml\.smi +/usr/lib/wsl/lib/nvidia-smi crashed \(SIGSEGV\) after printing its header$'
expect_line 'nvidia-smi\.exe on'
# With NVML broken too, host.driver still has nvidia-smi's header.
setenv FAKE_NVML_FAIL=nvmlInit_v2:999
run_json --only host.driver
expect_ev host.driver driver_version 555.85
expect_ev host.driver driver_source nvidia-smi
expect_ev host.driver driver_cuda_version 12.5

fixture healthy-wsl2
smi hang
run_json --timeout 3 --only nvml.smi
expect_rc 1
expect_status nvml.smi fail
expect_field nvml.smi kb nvml.smi.hang
expect_field nvml.smi detail "/usr/lib/wsl/lib/nvidia-smi did not finish within 1.2 s and was killed"
expect_ev_match nvml.smi exit '^did not finish within [0-9.]+ s and was killed$'
run --timeout 3 --only nvml.smi
expect_line '^✗ nvml\.smi +/usr/lib/wsl/lib/nvidia-smi did not finish within 1\.2 s and was killed$'

for case in no-driver:nvml.smi.no_driver:"nvidia-smi couldn't communicate with the NVIDIA driver" \
	    os-blocked:nvml.smi.os_blocked:"nvidia-smi: GPU access blocked by the operating system" \
	    no-libnvml:nvml.smi.no_libnvml:"nvidia-smi could not find libnvidia-ml.so" \
	    no-devices:nvml.smi.no_devices:"nvidia-smi: No devices were found" \
	    other-error:nvml.smi.failed:"/usr/lib/wsl/lib/nvidia-smi exited with status 4"; do
	script=${case%%:*}
	rest=${case#*:}
	kb=${rest%%:*}
	detail=${rest#*:}
	fixture healthy-wsl2
	smi "$script"
	run_json --only nvml
	expect_rc 1
	expect_status nvml.smi fail
	expect_field nvml.smi kb "$kb"
	expect_field nvml.smi detail "$detail"
	expect_field_match nvml.smi cause '.'
	expect_json '.checks[] | select(.id == "nvml.smi") | .fix | length > 0'
	expect_status nvml.init pass
	expect_status nvml.devices pass
	run --only nvml.smi
	expect_line "^✗ nvml\\.smi +$(printf '%s' "$detail" | sed 's/[][().*^$|+?{}\\]/\\&/g')\$"
	expect_line '^      cause +'
	expect_line '^✗ Broken at the nvml layer'
done
fixture healthy-wsl2
smi no-driver
run --only nvml.smi
expect_line 'microsoft/wslg#918'
expect_line 'non-administrator terminal'
fixture healthy-wsl2
smi no-devices
run_json --only nvml.smi
expect_field_match nvml.smi cause 'TCC-mode GPU beside WDDM ones'
fixture healthy-wsl2
smi os-blocked
run_json --only nvml.smi
expect_ev nvml.smi reason "Failed to initialize NVML: GPU access blocked by the operating system"

# "CUDA Version: ERR!" (case N03): works, with a warning.
fixture healthy-wsl2
smi cuda-err
run_json --only nvml.smi
expect_rc 0
expect_status nvml.smi warn
expect_field nvml.smi kb nvml.smi.cuda_err
expect_ev nvml.smi smi_version 545.46
expect_ev nvml.smi driver_version 546.80
expect_ev nvml.smi cuda_version ERR!
run --strict --only nvml.smi
expect_rc 1
expect_line '^! nvml\.smi +nvidia-smi works but shows "CUDA Version: ERR!" \(driver 546\.80\)$'
expect_line 'not an installed toolkit'
# host.driver does not take "ERR!" for a CUDA version.
setenv FAKE_NVML_FAIL=nvmlInit_v2:999
run_json --only host.driver
expect_ev host.driver driver_source nvidia-smi
expect_ev host.driver driver_cuda_version ""

fixture healthy-wsl2
smi not-smi
run_json --only nvml.smi
expect_status nvml.smi warn
expect_field nvml.smi kb nvml.smi.unparsed

# ---- nvidia-smi and PATH ----
# Under sudo, ssh or a service PATH lacks /usr/lib/wsl/lib: warn, and do not
# repeat the myth "install nvidia-utils".
fixture healthy-wsl2
setenv PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
run_json --only nvml.smi
expect_rc 0
expect_status nvml.smi warn
expect_field nvml.smi kb nvml.smi.not_on_path
expect_ev nvml.smi on_path "no (found in a fixed directory)"
run --only nvml.smi
expect_line '^! nvml\.smi +/usr/lib/wsl/lib/nvidia-smi works but is not on PATH'
expect_line 'fix +/usr/lib/wsl/lib/nvidia-smi'
expect_line 'under sudo, ssh or a systemd service'
expect_no_line 'apt(-get)? install[^|]*nvidia-utils'
expect_line 'Installing nvidia-utils is not the fix'

# A Linux nvidia-smi (nvidia-utils-*) first on PATH: fail, WSL's own works.
fixture healthy-wsl2
mkdir -p "$ROOT/usr/bin"
cp "$SMI_FAKES/linux-utils" "$ROOT/usr/bin/nvidia-smi"
run_json --only nvml.smi
expect_rc 1
expect_status nvml.smi fail
expect_field nvml.smi kb nvml.smi.linux_shadow
expect_ev nvml.smi path /usr/bin/nvidia-smi
expect_ev nvml.smi wsl_smi_result "WSL's own nvidia-smi works"
expect_ev nvml.smi smi_result "nvidia-smi couldn't communicate with the NVIDIA driver"
expect_field nvml.smi detail "/usr/bin/nvidia-smi comes before WSL's /usr/lib/wsl/lib/nvidia-smi on PATH, and fails"
run --only nvml.smi
# No package owns it (dpkg's database read whole): no dpkg -S dead end.
expect_line 'fix +ls -l /usr/bin/nvidia-smi   # no package owns it'
expect_line 'Do not install any Linux display driver in WSL'

# ---- cross-layer consistency (in nvml.devices: after cuda, so it explains
# a cuda failure without pre-empting it) ----
fixture healthy-wsl2
setenv FAKE_NVML_DEVICES=2
run_json --only nvml.devices
expect_rc 0
expect_status nvml.devices warn
expect_field nvml.devices kb nvml.devices.count_mismatch
expect_field nvml.devices detail "NVML sees 2 GPUs, CUDA 1"
expect_ev nvml.devices cuda_device_count 1
# CUDA_VISIBLE_DEVICES hides GPUs from CUDA only; the cause says so.
setenv FAKE_CUDA_DEVICES=2 CUDA_VISIBLE_DEVICES=0
run_json --only nvml.devices
expect_field nvml.devices kb nvml.devices.count_mismatch
expect_ev nvml.devices cuda_visible_devices 0
expect_field_match nvml.devices cause 'CUDA_VISIBLE_DEVICES \(here: 0\) hides GPUs from CUDA only'
# Set to an empty string it hides every GPU from CUDA (cuInit: 100).
fixture healthy-wsl2
setenv CUDA_VISIBLE_DEVICES=
run_json --only cuda.init,nvml.devices
expect_status cuda.init fail
expect_status nvml.devices warn
expect_field nvml.devices kb nvml.devices.count_mismatch
expect_field nvml.devices detail 'NVML sees 1 GPU; CUDA none, because CUDA_VISIBLE_DEVICES="" hides them'
# nvidia-smi works but cuInit fails. Which libcuda CUDA loads is for
# libs.libcuda to say: where it passed (the expected library loads), neither
# the verdict nor the cause blames a different or broken library.
fixture healthy-wsl2
setenv FAKE_CUDA_FAIL=cuInit:100
run_json --only cuda.init,nvml
expect_rc 1
expect_status cuda.init fail
expect_status nvml.devices warn
expect_field nvml.devices kb nvml.devices.cuda_conflict
expect_ev nvml.devices smi_status "nvidia-smi works"
expect_json '.summary.first_failure == "cuda.init"'
run --only cuda.init,nvml
expect_line '"nvidia-smi works" does not prove CUDA works'
run --only libs,cuda.init,nvml
expect_line '^✓ libs\.libcuda '
expect_line '^! nvml\.devices +NVML sees 1 GPU but cuda\.init failed, although the expected libcuda\.so\.1 loads$'
expect_no_line 'different, broken|CUDA loads a different'
expect_line 'so the cause is not a different or broken driver library\. It also comes from errors 304'
expect_line '^✗ Broken at the cuda layer'
# NVML's driver against the driver store's files.
fixture healthy-wsl2
setenv FAKE_NVML_DRIVER=552.44
run_json --only nvml.devices,host.driver
expect_status nvml.devices warn
expect_field nvml.devices kb nvml.devices.driver_store_mismatch
expect_ev nvml.devices driver_store_version 551.23
expect_ev host.driver driver_version 552.44

# ---- host.driver: its sources, best first ----
# NVML and nvidia-smi both broken: the driver store's files still tell.
fixture healthy-wsl2
smi os-blocked
setenv FAKE_NVML_FAIL=nvmlInit_v2:17
run_json --only host.driver
expect_rc 0
expect_status host.driver pass
expect_ev host.driver driver_version 551.23
expect_ev host.driver driver_source "driver store"
expect_ev host.driver driver_cuda_version ""
# Every driver of a branch reports its branch's CUDA (551.x: 12.4): the
# newest it runs, not a minimum.
expect_field host.driver detail "driver 551.23, CUDA 12.4 at most (from driver store)"
expect_ev host.driver driver_cuda_max 12.4
mkdir -p "$ROOT/usr/local/cuda"
printf '{ "cuda" : { "name" : "CUDA SDK", "version" : "12.6.3" } }\n' >"$ROOT/usr/local/cuda/version.json"
run_json --only host.driver
expect_status host.driver warn
expect_field host.driver kb host.driver.toolkit_minor_newer
expect_field host.driver detail "CUDA toolkit 12.6.3 is newer than CUDA 12.4, the newest this driver supports"

# ---- host.driver: the minimums ----
fixture healthy-wsl2
setenv FAKE_NVML_DRIVER=472.12 FAKE_NVML_CUDA=11040
run_json --only host.driver
expect_rc 1
expect_status host.driver fail
expect_field host.driver kb host.driver.too_old_wsl
expect_ev host.driver driver_version 472.12
expect_ev host.driver wsl_minimum R495
run --only host.driver
expect_line '^✗ host\.driver +Windows driver 472\.12 is older than R495, the first with CUDA on WSL$'
expect_line 'R495 and later windows will have CUDA support for WSL 2'
expect_line '^✗ Broken at the host layer'

# A toolkit of a newer CUDA major than the driver supports fails; a newer
# minor warns (minor-version compatibility); an older one passes.
fixture healthy-wsl2
mkdir -p "$ROOT/usr/local/cuda"
printf '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "13.0.1"\n   },\n   "cuda_nvcc" : { "version" : "13.0.88" }\n}\n' >"$ROOT/usr/local/cuda/version.json"
run_json --only host.driver
expect_rc 1
expect_status host.driver fail
expect_field host.driver kb host.driver.toolkit_too_new
expect_ev host.driver toolkit_version 13.0.1
expect_field host.driver detail "CUDA toolkit 13.0.1 needs a driver for CUDA 13.x; this driver supports CUDA 12.4"
printf '{ "cuda" : { "name" : "CUDA SDK", "version" : "12.6.3" } }\n' >"$ROOT/usr/local/cuda/version.json"
run_json --only host.driver
expect_rc 0
expect_status host.driver warn
expect_field host.driver kb host.driver.toolkit_minor_newer
expect_ev host.driver toolkit_driver_windows 561.17
expect_field_match host.driver cause 'with limited'
rm "$ROOT/usr/local/cuda/version.json"
echo "CUDA Version 11.0.228" >"$ROOT/usr/local/cuda/version.txt"
run_json --only host.driver
expect_status host.driver pass
expect_ev host.driver toolkit_version 11.0.228

# ---- --windows: the Windows side through interop ----
fixture healthy-wsl2
mkdir -p "$ROOT/mnt/c/Windows/System32"
cp "$WIN_FAKES/nvidia-smi.exe" "$WIN_FAKES/wsl.exe" "$ROOT/mnt/c/Windows/System32/"
run_json --only host.driver
expect_ev host.driver windows_driver_version ""
run_json --windows --only host.driver
expect_rc 0
expect_status host.driver pass
expect_ev host.driver windows_driver_version 551.23
expect_ev host.driver windows.gpu.0.name "NVIDIA GeForce RTX 3080"
expect_ev host.driver windows.gpu.0.driver_model WDDM
expect_ev host.driver wsl_version 2.3.26.0
expect_ev host.driver windows_version 10.0.22631.4460
# Without WSL_UTF8 reaching it, wsl.exe answers in UTF-16LE.
setenv FAKE_WSL_UTF16=1
run_json --windows --only host.driver
expect_ev host.driver wsl_version 2.3.26.0
expect_ev host.driver wsl_kernel_version 5.15.167.4-1
# A TCC-mode GPU on the Windows side (case H01).
fixture healthy-wsl2
mkdir -p "$ROOT/mnt/c/Windows/System32"
cp "$WIN_FAKES/nvidia-smi.exe" "$WIN_FAKES/wsl.exe" "$ROOT/mnt/c/Windows/System32/"
setenv "FAKE_WIN_SMI_GPUS=NVIDIA+GeForce+RTX+3080:WDDM;NVIDIA+L40S:TCC"
run_json --windows --only host.driver
expect_status host.driver warn
expect_field host.driver kb host.driver.tcc
expect_ev host.driver tcc_gpu "GPU 1: NVIDIA L40S"
expect_ev host.driver windows.gpu.1.driver_model TCC
run --windows --only host.driver
expect_line '^! host\.driver +Windows has 1 GPU in TCC mode, which WSL cannot see$'
expect_line 'will not be available on Quadro GPUs in TCC mode'
# Windows and WSL disagreeing about the driver.
fixture healthy-wsl2
mkdir -p "$ROOT/mnt/c/Windows/System32"
cp "$WIN_FAKES/nvidia-smi.exe" "$WIN_FAKES/wsl.exe" "$ROOT/mnt/c/Windows/System32/"
setenv FAKE_WIN_SMI_DRIVER=552.44
run_json --windows --only host.driver
expect_status host.driver warn
expect_field host.driver kb host.driver.windows_mismatch
# No interop: --windows says so (a warning: what was asked for was not
# checked), and the driver's own verdict is kept as "also".
printf 'disabled\ninterpreter /init\nflags: PF\noffset 0\nmagic 4d5a\n' >"$ROOT/proc/sys/fs/binfmt_misc/WSLInterop"
run_json --windows --only host.driver
expect_status host.driver warn
expect_field host.driver kb host.windows.unreachable
expect_ev host.driver windows "Windows interop is not available, so --windows cannot ask"

done_testing
