# explain.sh: `wslgpu explain` end to end — text as arguments, on standard
# input and in a file; --json, --list, --check on fixture machines; exit
# statuses; input people should not have to sanitise (colour codes, CRLF,
# binary data, a 10 MB line, cut and hard-wrapped pastes); the GPU-looking
# lines it does not recognise; --kb with classes and error codes.
. "$(dirname "$0")/lib.sh"

fixture healthy-wsl2

# Text as arguments.
run explain "CUDA driver initialization failed, you might not have a CUDA gpu"
expect_rc 1
expect_line '^✗ frameworks: PyTorch: CUDA driver initialization failed, you might not have a CUDA gpu$'
expect_line '^    line 1 +CUDA driver initialization failed'
# The text does not say where it ran: this WSL machine is only a prior, so
# what holds everywhere comes first and the WSL causes after, marked.
expect_no_line '^    1\. +/dev/dxg is missing'
run_json explain "CUDA driver initialization failed, you might not have a CUDA gpu"
expect_json '.log_platform.kind == "wsl2" and .log_platform.from == "machine" and .log_platform.established == false'
expect_json '[.matches[0].causes[] | select(.id == "explain.bridge.no_dxg") | .machine] == ["platform_bound"]'
expect_json '[.matches[0].causes[] | select(.machine != "not_applicable") | .machine == "platform_bound"] as $b | $b[0] == false and $b == ($b | sort)'
# Said outright (--platform), or shown by the text, WSL's causes lead.
run explain --platform wsl2 "CUDA driver initialization failed, you might not have a CUDA gpu"
expect_rc 1
expect_line '^    1\. +A Linux driver.s libcuda shadows WSL.s \(cuda\.load\.shadowed\)$'
expect_line '^    check +wslgpu check --only cuda\.load$'
run_json explain "$(printf 'ls /usr/lib/wsl/lib\nCUDA driver initialization failed, you might not have a CUDA gpu')"
expect_json '.log_platform.kind == "wsl2" and .log_platform.from == "text" and .log_platform.marker == "/usr/lib/wsl"'
expect_json '.matches[0].causes[0].id == "cuda.load.shadowed"'
# A rarer condition of WSL (rare: in the KB: a missing /dev/dxg, a Windows
# build too old for WSL's GPU, WSL's pinned-memory limit) leads there only
# on its own evidence in the paste; on the platform alone the usual
# readings come first.
run_json explain "$(printf "ls: cannot access '/dev/dxg': No such file or directory\nCUDA driver initialization failed, you might not have a CUDA gpu")"
expect_json '.log_platform.kind == "wsl2" and ([.matches[] | select(.signature == "explain.sig.torch_driver_init_failed") | .causes[0].id] == ["explain.bridge.no_dxg"])'
run_json explain --platform wsl2 "RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version"
expect_json '.matches[0].causes[0].id == "host.driver.too_old_wsl"'
expect_json '[.matches[0].causes[] | .id] | index("bridge.dxg.windows_old") > index("explain.host.driver_too_old")'
run_json explain --platform wsl2 "$(printf 'Microsoft Windows [Version 10.0.19041.1415]\nRuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version')"
expect_json '.matches[0].causes[0].id == "bridge.dxg.windows_old"'
run_json explain --platform wsl2 "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
expect_json '.matches[0].causes[0].id == "explain.cuda.vram_oom"'
run_json explain --platform wsl2 "RuntimeError: CUDA error: out of memory (in pin_memory thread for device 0)"
expect_json '[.matches[0].causes[] | .id][0] == "explain.cuda.pinned_limit"'
# Pastes from Windows itself (C:\ paths, DLLs, NTSTATUS): the cause written
# for Windows leads, no Linux command is a first fix, and a WSL cause says
# the log is from Windows. Ollama on Windows with a driver too old for it
# (https://github.com/ollama/ollama/issues/6604):
run_json explain 'time=2024-09-03T16:36:00.677+08:00 level=INFO source=gpu.go:568 msg="unable to load cuda driver library" library=C:\WINDOWS\system32\nvcuda.dll error="symbol lookup for cuCtxCreate_v3 failed"'
expect_json '.log_platform.kind == "windows" and .log_platform.established and .log_platform.marker == "c:\\"'
expect_json '.matches[0].causes[0].id == "explain.apps.ollama_old_nvcuda" and (.matches[0].causes[0].fix[0] | startswith("nvidia-smi.exe"))'
expect_json '[.matches[0].causes[] | select(.machine == null) | .fix[] | select(startswith("#") | not) | select(test("dpkg|ldconfig|/usr/lib|^export |^sudo "))] == []'
expect_json '[.matches[0].causes[] | select(.machine == "platform_bound") | .evidence | test("the log is from Windows .*runs in WSL on that machine")] | length > 0 and all'
expect_json '[.matches[0].causes[] | select(.machine == "platform_bound") | .fix[] | select(test("/usr/lib") and (startswith("# in WSL: ") | not))] == []'
# CTranslate2 on Windows (https://github.com/jianchang512/stt/issues/52): the
# DLL, its CUDA major and PATH, not libcublas.so and LD_LIBRARY_PATH.
run_json explain 'Library cublas64_11.dll is not found or cannot be loaded'
expect_json '.log_platform.kind == "windows" and .matches[0].causes[0].id == "explain.wide.cuda_dll_not_found"'
expect_json '.matches[0].causes[0].fix[0] | test("where\\.exe")'
expect_json '[.matches[0].causes[] | .fix[] | select(test("LD_LIBRARY_PATH"))] == []'
# Ollama's runner on Windows, an NTSTATUS the only marker
# (https://github.com/ollama/ollama/issues/4572): no "NAME=value cmd", which
# PowerShell cannot run.
run_json explain 'Error: llama runner process has terminated: exit status 0xc0000409'
expect_json '.log_platform.kind == "windows" and .log_platform.marker == "exit status 0xc0000"'
expect_json '.matches[0].causes[0].id == "explain.apps.ollama_runner_windows"'
expect_json '[.matches[0].causes[] | .fix[] | select(startswith("OLLAMA_DEBUG=1"))] == []'
# PyTorch's CPU-only build in ComfyUI's portable Python
# (https://github.com/Comfy-Org/ComfyUI/issues/4759), and a batch launcher's
# pause after a driver too old (https://github.com/lllyasviel/stable-diffusion-webui-forge/issues/2053).
run_json explain "$(printf 'AssertionError: Torch not compiled with CUDA enabled\n.\\python_embeded\\python.exe -s ComfyUI\\main.py --windows-standalone-build')"
expect_json '.log_platform.kind == "windows" and .matches[0].causes[0].id == "explain.frameworks.torch_cpu_windows"'
expect_json '[.matches[0].causes[0].fix[] | select(test("venvs/torch|bin/python"))] == []'
run_json explain "$(printf 'RuntimeError: The NVIDIA driver on your system is too old (found version 11070).\nPress any key to continue . . .')"
expect_json '.log_platform.kind == "windows" and .matches[0].causes[0].id == "explain.host.windows_driver_too_old"'
expect_json '.matches[0].causes[0].fix[0] | startswith("nvidia-smi.exe")'
# The same messages with nothing of Windows: the Windows causes are bound
# to it and go after, the Linux steps stay.
run_json explain --platform native 'Library cublas64_11.dll is not found or cannot be loaded'
expect_json '.matches[0].causes[-1].id == "explain.wide.cuda_dll_not_found" and .matches[0].causes[-1].machine == "not_applicable"'
run_json explain 'Library libcublas.so.12 is not found or cannot be loaded'
expect_json '[.matches[0].causes[] | select(.id == "explain.wide.cuda_dll_not_found") | .machine] | all(. == "platform_bound" or . == "not_applicable")'
expect_json '.matches[0].causes[0].id != "explain.wide.cuda_dll_not_found"'
run explain --platform windows95 "x"
expect_rc 2
expect_err 'unknown kind'
run explain "CUDA driver initialization failed, you might not have a CUDA gpu"
expect_rc 1
expect_line '^    source +https://github\.com/pytorch/pytorch/issues/131117$'
expect_line '^✗ 1 known problem in 1 line\. To see which cause applies on this machine: wslgpu explain --check$'

# Unquoted words are joined like a sentence.
run explain Torch not compiled with CUDA enabled
expect_rc 1
expect_line '^✗ frameworks: PyTorch: Torch not compiled with CUDA enabled$'

# A log on standard input: problems before harmless messages (JSON keeps
# the order of appearance), grouping, noise labelled.
{
	printf 'Processing triggers for libc-bin (2.35-0ubuntu3.8) ...\n'
	printf 'ldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link\n'
	for i in $(seq 1 9); do printf 'step %s loss=0.1\n' "$i"; done
	for i in $(seq 1 41); do
		printf '2024-05-01 12:00:00.123456: E external/local_xla/xla/stream_executor/cuda/cuda_driver.cc:282] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n'
		printf 'retrying\n'
	done
} >"$WORK/train.log"
run explain <"$WORK/train.log"
expect_rc 1
expect_line '^· libs: ldconfig: /usr/lib/wsl/lib/libcuda\.so\.1 is not a symbolic link \(harmless\)$'
expect_line '^✗ cuda: No CUDA-capable device is detected \(CUDA_ERROR_NO_DEVICE, error 100\)$'
expect_line '^ +seen 41 times, first at line 12, last at line 92$'
expect_line '^✗ 1 known problem in 93 lines, and 1 harmless message\.'
first=$(printf '%s\n' "$OUT" | grep -n -E '^(✗|·|!) ' | head -1)
case "$first" in *"✗ cuda:"*) ok "the problem comes before the harmless message seen first" ;;
	*) fail "problems first: $first" ;; esac

# The same from a file, as JSON.
run_json explain -f "$WORK/train.log"
expect_rc 1
expect_json '.schema == "wslgpu/explain/2"'
expect_json '.input.lines == 93 and .input.clipped_lines == 0'
expect_json '.input.source | endswith("train.log")'
expect_json '.checked == false'
expect_json '[.matches[].signature] == ["explain.sig.ldconfig_symlink", "explain.sig.cuda_no_device"]'
expect_json '.matches[0].kind == "noise" and .matches[1].kind == "finding"'
expect_json '.matches[1].count == 41 and .matches[1].first_line == 12 and .matches[1].last_line == 92'
expect_json '.matches[1].lines[0].line == 12 and (.matches[1].lines | length) == 8'
expect_json '.matches[1].lines[0].text | test("CUDA_ERROR_NO_DEVICE")'
expect_json '.matches[1].causes[0].id == "libs.loader.distro_package" and .matches[1].causes[0].layer == "libs" and .matches[1].causes[0].machine == null'
expect_json '[.matches[1].causes[] | select(.confirm == null or (.confirm | startswith("wslgpu check")))] | length > 0'
expect_json '.matches[1].source | length > 0'
expect_json '.summary.status == "problem" and .summary.findings == 1 and .summary.noise == 1'
expect_json '.summary.first_problem == "explain.sig.cuda_no_device"'

# Reading standard input explicitly.
run explain -f - <"$WORK/train.log"
expect_rc 1
expect_line '^✗ cuda: No CUDA-capable device'

# What people paste: colour codes, CRLF, a glog prefix, a wrapped message.
printf '\033[1;31mE0501 12:00:00.123456  1234 cuda_driver.cc:282]\033[0m \033[31mAssertionError\033[0m: Torch not compiled with CUDA enabled\r\n' >"$WORK/paste.txt"
printf 'RuntimeError: CUDA driver initialization failed, you\r\n    might not have a CUDA gpu.\r\n' >>"$WORK/paste.txt"
run_json explain -f "$WORK/paste.txt"
expect_json '[.matches[].signature] == ["explain.sig.torch_not_compiled", "explain.sig.torch_driver_init_failed"]'
expect_json '.matches[1].lines[0].wrapped == true and .matches[1].first_line == 2'
expect_json '.matches[0].lines[0].text | test("\u001b") | not'
run explain -f "$WORK/paste.txt"
expect_line '^    lines 2-3 +RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu\.'

# Nothing known: an honest answer, exit 0.
run explain "everything is fine, the model trained in 2 hours"
expect_rc 0
expect_line "^\\? No known signature in 1 line\\. Run 'wslgpu check' to test the GPU chain"
run_json explain "nothing to see here"
expect_json '.summary.status == "unknown" and (.matches | length) == 0'

# Only harmless messages: exit 0.
run explain "misc dxg: dxgk: dxgkio_query_adapter_info: Ioctl failed: -22"
expect_rc 0
expect_line '^· bridge: dmesg: dxgkio_\* Ioctl failed: -22 / -2 \(harmless\)$'
expect_line '^✓ Only harmless messages \(1\) in 1 line; nothing to fix\.$'
# Harmless messages beside a line that looks like a GPU error and is not
# known: no all-clear, exit 0, status unknown.
harmless_and_unknown="misc dxg: dxgk: dxgkio_query_adapter_info: Ioctl failed: -22
foo: cuSomethingWeird returned CUDA_ERROR_BAR_BAZ 9999"
run explain "$harmless_and_unknown"
expect_rc 0
expect_no_line 'nothing to fix'
expect_line '^\? No known problem in 2 lines: 1 harmless message, but 1 other line looks like a GPU error \(below\)\.'
run_json explain "$harmless_and_unknown"
expect_json '.summary.status == "unknown" and .summary.noise == 1 and .summary.unrecognised_lines == 1'

# A myth being followed counts as a problem.
run_json explain "export PATH=/usr/local/cuda-wsl/bin:\$PATH"
expect_rc 1
expect_json '.matches[0].kind == "myth" and .summary.myths == 1'

# --list, in text and JSON.
run explain --list
expect_rc 0
expect_line '^platform$'
expect_line '^containers$'
expect_line '^  explain\.sig\.no_adapters +finding +nvidia-container-cli: WSL environment detected'
expect_line '^[0-9]+ signatures\. '
run_json explain --list
expect_json '.schema == "wslgpu/explain/2" and .count >= 80 and (.signatures | length) == .count'
expect_json '[.signatures[] | select(.source | length == 0)] | length == 0'
expect_json '.signatures[] | select(.id == "explain.sig.pinned_host") | .refines | index("explain.sig.cuda_oom") != null'

# --check on a WSL1 machine: the WSL1 cause is confirmed and put first.
fixture wsl1
run explain --check "nvidia-container-cli: initialization error: WSL environment detected but no adapters were found: unknown"
expect_rc 1
expect_line '^    1\. +The distribution runs under WSL1 \(platform\.kind\.wsl1\)  \[confirmed on this machine\]$'
expect_line '^ +platform\.kind: this distribution runs under WSL1'
expect_line 'kernel release 4\.4\.0-19041-Microsoft'
expect_line '\(explain\.host\.no_nvidia_adapter\)  \[not determined here\]$'
expect_no_line 'To see which cause applies on this machine'
run_json explain --check "WSL environment detected but no adapters were found"
expect_json '.checked == true'
expect_json '.matches[0].causes[0].id == "platform.kind.wsl1" and .matches[0].causes[0].machine == "confirmed"'
expect_json '.matches[0].causes[0].evidence | test("^platform.kind: ")'
expect_json '[.matches[0].causes[1:][] | .machine] | all(. == "open")'

# --check on a healthy WSL2 machine: WSL1 is ruled out and moves down,
# behind the causes no check could decide.
fixture healthy-wsl2
run_json explain --check "WSL environment detected but no adapters were found"
expect_json '.matches[0].causes[] | select(.id == "platform.kind.wsl1") | .machine == "ruled_out"'
expect_json '.matches[0].causes[0].id != "platform.kind.wsl1"'
expect_json '[.matches[0].causes[].machine] | (index("ruled_out") > rindex("open"))'
run explain --check "WSL environment detected but no adapters were found"
expect_line '\(platform\.kind\.wsl1\)  \[ruled out on this machine\]$'
expect_line 'platform\.kind passes on this machine'

# The platform is read even without --check (platform.kind reads files
# only): in a container on native Linux "couldn't communicate" leads with the
# container started without the GPU, and the WSL causes go last.
fixture container-no-gpu
smi="NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."
run explain --platform container "$smi"
expect_rc 1
expect_line '^    1\. +The container was started without the GPU \(bridge\.nvidia_dev\.container\)$'
# the reading that holds everywhere comes next; the WSL causes, shown with
# -v, are marked and last
expect_line '^    2\. +No NVIDIA kernel driver answers here: .*\(explain\.nvml\.no_driver_running_any\)$'
run explain -v --platform container "$smi"
expect_line '\[not on the log.s platform\]$'
expect_line 'applies only on WSL; the log is from another platform'
# ...and with the platform only this machine's (a prior), the host's own
# cause (no kernel module loaded on the native host) is bound, not ruled
# out: the host's driver serves the container; the WSL causes, shown with
# -v, stay last.
run explain -v "$smi"
expect_line '^    3\. +nvidia-smi cannot communicate with the driver \(nvml\.smi\.native_no_driver\)  \[only on one platform: which is the log.s\?\]$'
expect_line '\[not on this platform\]$'
expect_line 'applies only on WSL; platform\.kind: a container on native Linux'
run_json explain --platform container "$smi"
expect_json '.checked == false and .platform.kind == "container" and .log_platform.from == "option"'
expect_json '.matches[0].causes[0].id == "bridge.nvidia_dev.container" and .matches[0].causes[0].machine == null'
run_json explain "$smi"
expect_json '[.matches[0].causes[] | select(.id == "bridge.nvidia_dev.container") | .machine] == ["platform_bound"]'
expect_json '[.matches[0].causes[] | select(.id == "platform.kind.wsl1" or .id == "nvml.smi.no_driver") | .machine] | all(. == "not_applicable")'
# /dev/nvidia0 missing is a myth only on WSL: on native Linux the nodes are
# real and their absence is a finding.
nv0="ls: cannot access '/dev/nvidia0': No such file or directory"
run explain "$nv0"
expect_no_line '\(a myth\)'
expect_line '^✗ bridge: /dev/nvidia0'
run_json explain "$nv0"
expect_json '.matches[0].kind == "finding" and .summary.myths == 0'
run_json explain --platform container "$nv0"
expect_json '.matches[0].causes[0].id == "bridge.nvidia_dev.container"'
expect_json '.matches[0].causes[] | select(.id == "explain.myth.dev_nvidia") | .machine == "not_applicable"'
fixture native-nvidia
run_json explain "$nv0"
expect_json '.matches[0].kind == "finding" and .matches[0].causes[0].id == "bridge.nvidia_dev.no_driver"'
fixture healthy-wsl2
run_json explain "$nv0"
expect_json '.matches[0].kind == "myth" and .matches[0].causes[0].id == "explain.myth.dev_nvidia"'
# A step that is a myth only in WSL (apt installing the Linux driver) is
# harmless on native Linux, where it is how the driver is installed: no cause
# applies there, so no fix that would remove the driver.
apt_drv="sudo apt install nvidia-driver-535"
fixture native-nvidia
run explain "$apt_drv"
expect_rc 0
expect_line '\(harmless\)$'
expect_no_line 'apt-get remove'
expect_line '^✓ Only harmless messages'
run_json explain "$apt_drv"
expect_json '.matches[0].kind == "noise" and .summary.myths == 0 and .summary.findings == 0'
expect_json '[.matches[0].causes[].machine] | all(. == "not_applicable")'
fixture healthy-wsl2
run explain "$apt_drv"
expect_rc 1
expect_line '\(a myth\)$'
# The Linux driver is removed package by package, never by a pattern: a
# template, marked as one (two remarks of one fix as one comment: test_fix).
expect_line '# sudo apt-get remove --purge PACKAGES   # a template: put in PACKAGES, the names the line above lists, each by name, never a pattern; for a \.run install: sudo nvidia-uninstall$'
expect_no_line "apt-get remove.*'libnvidia-\\*'"
# --check off WSL: a Windows-build cause is not "not determined" but not
# applicable, and ranked last.
fixture native-nvidia
run_json explain --check "CUDA driver version is insufficient for CUDA runtime version"
expect_json '.matches[0].causes[-1].id == "bridge.dxg.windows_old" and .matches[0].causes[-1].machine == "not_applicable"'
run explain -v --check "CUDA driver version is insufficient for CUDA runtime version"
expect_line '\(bridge\.dxg\.windows_old\)  \[not on this platform\]$'
expect_no_line 'windows_old\)  \[not determined here\]'

# A message whose every cause holds on one platform only (vLLM's "UVA is
# not available" is printed where vLLM turns pinned memory off: WSL2,
# https://github.com/syv-ai/qwen38-27b-rtx3090/pull/9): with no marker in the
# text, this machine's platform is a prior and does not rule them all out:
# they are shown bound ("which is the log's?"), the first one first. A
# cause of another platform next to one that holds here stays last.
run_json explain "RuntimeError: UVA is not available"
expect_json '.matches[0].kind == "finding" and .matches[0].causes[0].id == "explain.frameworks.vllm_uva_wsl" and ([.matches[0].causes[].machine] | all(. == "platform_bound"))'
run explain "RuntimeError: UVA is not available"
expect_line '\[only on one'
expect_no_line '\[not on this platform\]'
run_json explain --platform native "RuntimeError: UVA is not available"
expect_json '[.matches[0].causes[].machine] | all(. == "not_applicable")'
run_json explain --check "CUDA driver version is insufficient for CUDA runtime version"
expect_json '.matches[0].causes[-1].machine == "not_applicable"'
# ...but only where the KB says the message itself is printed on one
# platform (the signature's platform: line). nvidia-smi's "Unable to
# determine the device handle" is printed on native Linux too
# (https://github.com/NVIDIA/nvidia-docker/issues/1553): natively the GPU
# stopped answering (https://github.com/NVIDIA/open-gpu-kernel-modules/issues/387),
# which leads here, bound, with a look at the kernel log; the WSL readings
# are not this machine's, and none of their steps leads.
run_json explain "Unable to determine the device handle for GPU0000:3B:00.0: Unknown Error"
expect_json '.matches[0].causes[0].id == "explain.host.gpu_off_bus" and .matches[0].causes[0].machine == "platform_bound"'
expect_json '[.matches[0].causes[] | select(.id == "host.driver.tcc" or .id == "host.driver.too_old_wsl") | .machine] | all(. == "not_applicable")'
run explain "Unable to determine the device handle for GPU0000:3B:00.0: Unknown Error"
expect_no_line 'nvidia-smi\.exe'
expect_line "sudo dmesg -T \\| grep -iE 'NVRM\\|Xid'"
# the kernel's Xid line says it is native Linux's log
run_json explain "Unable to determine the device handle for GPU 0000:0B:00.0: Unknown Error
NVRM: Xid (PCI:0000:0b:00): 79, GPU has fallen off the bus."
expect_json '[.matches[] | select(.signature == "explain.sig.smi_device_handle") | .causes[0].id] == ["explain.host.gpu_off_bus"]'
# on WSL its causes are the Windows driver's, and the native one is not here
fixture healthy-wsl2
run_json explain --platform wsl2 "Unable to determine the device handle for GPU0000:3B:00.0: Unknown Error"
expect_json '.matches[0].causes[0].id == "host.driver.tcc" and ([.matches[0].causes[] | select(.id == "explain.host.gpu_off_bus") | .machine] == ["not_applicable"])'
fixture native-nvidia

# A message printed on every platform has a cause that holds on each
# (test_general_message_has_a_cause_everywhere): on native Linux and in a
# container it leads; on WSL2 the WSL reading still does.
run_json explain --platform native 'RuntimeError: CUDA error: cudaIpcOpenMemHandle failed: invalid argument'
expect_json '.matches[0].causes[0].id == "explain.cuda.ipc_not_visible"'
run_json explain --platform wsl2 'RuntimeError: CUDA error: cudaIpcOpenMemHandle failed: invalid argument'
expect_json '.matches[0].causes[0].id == "explain.cuda.ipc"'
run_json explain --platform container 'stderr: nvidia-container-cli: initialization error: driver error: failed to process request: unknown.'
expect_json '.matches[0].causes[0].id == "explain.containers.nvcli_driver_request" and (.matches[0].causes[0].fix[0] | startswith("nvidia-smi"))'
run_json explain --platform native 'RuntimeError: Failed to allocate 512.00 MiB of pinned memory'
expect_json '.matches[0].causes[0].id == "explain.memory.host_ram"'
run_json explain --platform wsl2 'RuntimeError: Failed to allocate 512.00 MiB of pinned memory'
expect_json '.matches[0].causes[0].id == "explain.cuda.pinned_limit"'

# --check with nothing recognised runs nothing.
run explain --check "all good"
expect_rc 0
expect_line '^\? No known signature'

# Usage errors and unreadable input.
run explain --bogus
expect_rc 2
expect_err "unknown option '--bogus'"
run explain "-bash: nvcc: command not found"
expect_rc 2
expect_err "unknown option '-b' .*put -- before it"
run explain -- "-bash: nvcc: command not found"
expect_rc 1
expect_line '^✗ toolkit: nvcc: command not found'
run explain -f "$WORK/does-not-exist.log"
expect_rc 2
expect_err 'cannot open .*does-not-exist\.log'
run explain -f "$WORK/train.log" "and some text"
expect_rc 2
expect_err 'not both'
run explain --timeout abc --check x
expect_rc 2
run explain --help
expect_rc 0
expect_line '^usage: wslgpu explain'
expect_line 'Exit status: 0 nothing recognised or only harmless messages, 1 a problem'

# Binary input: no crash, valid JSON, NULs reported.
head -c 2000000 /dev/urandom >"$WORK/random.bin"
printf '\0\0CUDA_ERROR_NO_DEVICE\0\n' >>"$WORK/random.bin"
run_json explain -f "$WORK/random.bin"
expect_json '.input.nul_bytes > 0'
expect_json '[.matches[].signature] | index("explain.sig.cuda_no_device") != null'
run explain -f "$WORK/random.bin"
expect_line 'NUL byte'

# A 10 MB line is matched on its first 64 KiB and counted as clipped.
{ printf 'Torch not compiled with CUDA enabled '; head -c 10485760 /dev/zero | tr '\0' 'x'; printf '\n'; } >"$WORK/long.log"
run_json explain -f "$WORK/long.log"
expect_json '.input.clipped_lines == 1 and .input.lines == 1'
expect_json '.matches[0].signature == "explain.sig.torch_not_compiled"'
expect_json '(.matches[0].lines[0].text | length) < 600'

# A progress bar redrawn with CR for more than 64 KiB, the error printed on
# the same line after it: the cut is said, and the error found (it was missed).
awk 'BEGIN { printf "Epoch 1/3\n"; for (i = 0; i < 4000; i++) printf "\r %3d%%|%s| %d/4000 [00:%02d<00:10, 12.3it/s]", i % 100, substr("##############################", 1, i % 30), i, i % 60;
	printf "\rRuntimeError: CUDA error: out of memory\n"; printf "Epoch 2/3\n" }' >"$WORK/progress.log"
run_json explain -f "$WORK/progress.log"
expect_json '.input.clipped_lines == 1 and .input.lines == 3'
expect_json '[.matches[].signature] == ["explain.sig.cuda_oom"]'
expect_json '.matches[0].lines[0].line == 2 and (.matches[0].lines[0].text | test("^RuntimeError: CUDA error: out of memory$"))'
run explain -f "$WORK/progress.log"
expect_rc 1
expect_line '^  note: 1 line longer than 64 KiB was matched on the first 64 KiB and after each carriage return\.$'
expect_line '^    line 2 +RuntimeError: CUDA error: out of memory$'
# ... also when standard input delivers it in pieces of any size
(cat "$WORK/progress.log" | dd bs=977 2>/dev/null | env -i PATH=/usr/bin:/bin "$WSLGPU" explain --json >"$WORK/progress.json")
check_progress=$(jq -r '[.matches[].signature] | join(",")' "$WORK/progress.json")
if [ "$check_progress" = explain.sig.cuda_oom ]; then ok "the error after the progress bar, through a pipe"
else fail "through a pipe: '$check_progress'"; fi

# Pasted listings: `ldconfig -p` (which libcuda.so.1 the loader takes) and
# pip's (torch and its CUDA, the nvidia-* wheels), with the error or alone.
REAL="$top/tests/fixtures/real"
body() { sed '1,/^# ---$/d' "$1"; }
body "$REAL/ldconfig-p/wsl-libnvidia-ml-stub-shadow.txt" >"$WORK/ldp.txt"
run explain -f "$WORK/ldp.txt"
expect_line '^  In the pasted listings:$'
expect_line '^    ldconfig -p: the loader takes libnvidia-ml\.so\.1 => /usr/lib/wsl/lib/libnvidia-ml\.so\.1 \(WSL.s copy\)$'
expect_line '^ +also listed: /usr/lib/libnvidia-ml\.so\.1$'
{ printf 'RuntimeError: Found no NVIDIA driver on your system.\n$ ldconfig -p | grep libcuda\n'
  printf '\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1\n'
  printf '\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/wsl/lib/libcuda.so.1\n'
  printf '\tlibcuda.so (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so\n'; } >"$WORK/shadow.txt"
run explain -f "$WORK/shadow.txt"
expect_rc 1
expect_line '^    ldconfig -p: the loader takes libcuda\.so\.1 => /usr/lib/x86_64-linux-gnu/libcuda\.so\.1$'
expect_line '^ +also listed: /usr/lib/wsl/lib/libcuda\.so\.1$'
expect_line "^ +a Linux driver's copy comes before WSL's:$"
expect_line '^ +wslgpu kb libs\.loader\.distro_package$'
run_json explain -f "$WORK/shadow.txt"
expect_json '.pasted.ldconfig_p["libcuda.so.1"].taken == "/usr/lib/x86_64-linux-gnu/libcuda.so.1" and .pasted.ldconfig_p["libcuda.so.1"].wsl == false'
expect_json '.pasted.ldconfig_p["libcuda.so.1"].also == ["/usr/lib/wsl/lib/libcuda.so.1"]'
body "$REAL/pip/collect-env-wsl2-cu128-conda.txt" >"$WORK/env.txt"
run explain -f "$WORK/env.txt"
expect_line '^    pip: torch 2\.7\.0\+cu128 \(built for CUDA 12\.8\)$'
expect_line '^    pip: 13 CUDA wheels: nvidia-cublas-cu12 12\.8\.3\.14,$'
if printf '%s\n' "$OUT" | sed -n '/In the pasted listings/,$p' | awk 'length($0) > 80 { bad = 1 } END { exit bad }'; then ok "the pasted listings' lines fit 80 columns"; else fail "a line over 80 columns"; fi
run_json explain -f "$WORK/env.txt"
expect_json '.pasted.pip.torch == "2.7.0+cu128" and .pasted.pip.torch_cuda == "12.8" and (.pasted.pip.cuda_wheels | length) == 13 and .pasted.pip.mixed_cuda == false'
printf 'torch==2.3.0+cpu\nnvidia-cudnn-cu11==8.5.0.96\nnvidia-cublas-cu12==12.1.3.1\n' >"$WORK/freeze.txt"
run explain -f "$WORK/freeze.txt"
expect_line '^    pip: torch 2\.3\.0\+cpu \(a CPU-only build: it cannot use the GPU\)$'
expect_line '^ +wheels of two CUDA majors \(-cu11 with -cu12 or -cu13\):$'
# A log with neither says nothing about them, in text or JSON.
run_json explain "CUDA_ERROR_NO_DEVICE"
expect_json '.pasted == null'
run explain "CUDA_ERROR_NO_DEVICE"
expect_no_line 'In the pasted listings'

# GPU-looking error lines nothing recognises: counted, shown, and how to
# report them; text that is not about the GPU chain gets nothing invented.
# (Made-up messages, so that no signature the KB gains covers them.)
{
	printf 'epoch 1/10 loss=0.3\n'
	printf 'FluxError: CUDA flux capacitor failed to warm up\n'
	printf 'zorb: error: failed to open libcuflux-builtins.so.12.1\n'
	printf 'FluxError: CUDA flux capacitor failed to warm up\n'
	printf 'error: could not open config.yaml\n'
} >"$WORK/unknown.log"
run explain -f "$WORK/unknown.log"
expect_rc 0
expect_line '^\? No known signature in 5 lines, but 3 of them look like GPU errors \(below\)\.'
expect_line '^    line 2 +FluxError: CUDA flux capacitor failed to warm up  \(2 times\)$'
expect_line '^    line 3 +zorb: error: failed to open libcuflux-builtins\.so\.12\.1$'
expect_no_line 'config\.yaml'
expect_line "^  To get them recognised: run 'wslgpu report --markdown' and open an issue"
run_json explain -f "$WORK/unknown.log"
expect_json '.summary.status == "unknown" and .summary.unrecognised_lines == 3 and .summary.recognised_lines == 0'
expect_json '[.unrecognised[] | .line] == [2, 3] and .unrecognised[0].count == 2'
expect_json '.unrecognised[1].text | test("libcuflux-builtins")'
# Recognised and unrecognised side by side.
printf 'Torch not compiled with CUDA enabled\nfluxdnn: fatal: CUDA warp drive not initialized\n' >"$WORK/mixed.log"
run explain -f "$WORK/mixed.log"
expect_rc 1
expect_line '^✗ frameworks: PyTorch: Torch not compiled with CUDA enabled$'
expect_line '^  also: 1 other line looks like a GPU error but is not known:$'
expect_line '^    line 2 +fluxdnn: fatal: CUDA warp drive not initialized$'
run_json explain -f "$WORK/mixed.log"
expect_json '.summary.recognised_lines == 1 and .summary.unrecognised_lines == 1'
expect_json '.matches[0].lines[0].cut == false'
# An unknown line that names a library, a call or a code: its layer, what it
# names and the checks that tell its causes apart.
{
	printf 'zorb: fatal: cuModuleFrob failed: CUDA_ERROR_FLUX in libcuda.so.1\n'
	printf 'zorb: error: cufftFrob refused the flux in libcufft.so.11\n'
	printf 'FluxError: CUDA flux capacitor failed to warm up\n'
} >"$WORK/names.log"
run explain -f "$WORK/names.log"
expect_line '^    line 1 +zorb: fatal: cuModuleFrob failed: CUDA_ERROR_FLUX in libcuda\.so\.1$'
expect_line '^ +names CUDA driver API \(cuModuleFrob\), CUDA driver API \(CUDA_ERROR_FLUX\),'
expect_line '^    check +wslgpu check --only libs,cuda$'
expect_line '^ +names cuFFT \(cufftFrob\), cuFFT 11 \(libcufft\.so\.11\): layer toolkit;'
expect_line '^    check +wslgpu check --only cuda,toolkit,frameworks$'
run_json explain -f "$WORK/names.log"
expect_json '.unrecognised[0].layer == "libs" and .unrecognised[0].check == "libs,cuda"'
expect_json '[.unrecognised[0].names[] | .kind] == ["call", "code", "library"]'
expect_json '.unrecognised[1].names[1] | .role == "math library" and .version == "11" and .what == "cuFFT 11"'
expect_json '.unrecognised[2].names == [] and .unrecognised[2].layer == null and .unrecognised[2].check == null'
# A family match says what it saw: the library's role and version from its
# file name, and the application the paste names.
printf 'File "/home/u/ComfyUI/main.py", line 3\nOSError: Could not load library: cudnn_ops64_9.dll is not found\n' >"$WORK/family.log"
run explain -f "$WORK/family.log"
expect_line '^    seen +cuDNN 9 \(cudnn_ops64_9\.dll\), in ComfyUI$'
run_json explain -f "$WORK/family.log"
expect_json '.application == "ComfyUI"'
expect_json '.matches[0].family != null and (.matches[0].names[0] | .role == "cuDNN" and .version == "9" and .layer == "toolkit")'
run_json explain "ImportError: libcudart.so.12: cannot open shared object file: No such file or directory"
expect_json '.application == null and ([.matches[].names[] | .what] | index("CUDA runtime 12") != null)'
# The paste's words rank the causes of a general message: ComfyUI's
# "Device: ... : cudaMallocAsync" puts the allocator first for "operation
# not supported" (https://github.com/Comfy-Org/ComfyUI/issues/2935), and
# nvidia_uvm frames in a kernel Oops put the module's state after suspend
# next to the crash itself (https://github.com/CachyOS/CachyOS-PKGBUILDS/issues/1764).
printf 'Device: cuda:0 Tesla M40 24GB : cudaMallocAsync\nError occurred when executing KSampler:\nCUDA error: operation not supported\n  File "D:\\stable-diffusion\\ComfyUI_windows_portable\\ComfyUI\\execution.py", line 152\n' >"$WORK/asyncalloc.log"
run_json explain -f "$WORK/asyncalloc.log"
expect_json '.matches[0].signature == "explain.sig.rt_comfy_not_supported" and .matches[0].causes[0].id == "explain.rt.async_alloc"'
expect_json '.matches[0].causes[0].fix[0] | startswith("python main.py --disable-cuda-malloc")'
# the general message outside ComfyUI: the allocator's name in the paste
# still puts that reading first
printf 'PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync\nRuntimeError: CUDA error: operation not supported\n' >"$WORK/asyncalloc2.log"
run_json explain -f "$WORK/asyncalloc2.log"
expect_json '.matches[0].signature == "explain.sig.not_supported" and .matches[0].causes[0].id == "explain.rt.async_alloc"'
run_json explain "RuntimeError: CUDA error: operation not supported"
expect_json '.matches[0].causes[0].id != "explain.rt.async_alloc"'
printf 'BUG: kernel NULL pointer dereference, address: 0000000000000000\nRIP: 0010:_raw_q_schedule+0x2f/0xb0 [nvidia_uvm]\n uvm_suspend.isra.0+0x9f/0x1b0 [nvidia_uvm]\n' >"$WORK/uvmoops.log"
run_json explain -f "$WORK/uvmoops.log"
expect_json '.matches[0].signature == "explain.sig.kmod_oops" and ([.matches[0].causes[].id] | index("explain.host.uvm_bad_state") != null)'
# "no kernel image" raised from an extension's own sources is the
# extension's build, not the framework's: xformers' bundled flash-attention
# (https://github.com/facebookresearch/xformers/issues/1329), a flash-attn
# wheel (https://github.com/ostris/ai-toolkit/issues/475), bitsandbytes' ops.cu
# on Windows (https://github.com/bitsandbytes-foundation/bitsandbytes/issues/310);
# torch's own warning that it lacks the GPU keeps the framework's build first.
for l in 'CUDA error (/workspace/xfrm2/third_party/flash-attention/hopper/flash_fwd_launch_template.h:188): no kernel image is available for execution on the device' \
	'CUDA error (/build/source/flash-attn/flash_fwd_launch_template.h:184): no kernel image is available for execution on the device' \
	'Error no kernel image is available for execution on the device at line 167 in file D:\ai\tool\bitsandbytes\csrc\ops.cu'; do
	run_json explain "$l"
	expect_json '.matches[0].signature == "explain.sig.no_kernel_image" and .matches[0].causes[0].id == "explain.frameworks.ext_arch_missing" and (.matches[0].causes[0].fix[0] | startswith("nvidia-smi --query-gpu"))'
done
run_json explain "RuntimeError: CUDA error: no kernel image is available for execution on the device"
expect_json '.matches[0].causes[0].id == "frameworks.arch_missing"'
printf 'NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.\n  File "/venv/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py", line 170\nRuntimeError: CUDA error: no kernel image is available for execution on the device\n' >"$WORK/torcharch.log"
run_json explain -f "$WORK/torcharch.log"
expect_json '[.matches[] | select(.signature == "explain.sig.no_kernel_image") | .causes[0].id] == ["frameworks.arch_missing"]'
# A Windows log with no extension in it (Ollama's own ggml-cuda kernels,
# https://github.com/ollama/ollama/issues/12316) keeps the build's reading
# first, with a step Windows can run.
printf '%s\n' 'ggml_cuda_compute_forward: SCALE failed' 'CUDA error: no kernel image is available for execution on the device' \
	'  current device: 0, in function ggml_cuda_compute_forward at C:\a\ollama\ollama\ml\backend\ggml\ggml\src\ggml-cuda\ggml-cuda.cu:2568' >"$WORK/ggmlarch.log"
run_json explain -f "$WORK/ggmlarch.log"
expect_json '.log_platform.kind == "windows" and .matches[0].causes[0].id == "frameworks.arch_missing" and (.matches[0].causes[0].fix[0] | startswith("nvidia-smi --query-gpu=name,compute_cap"))'
# Ollama's "no nvidia devices detected by library": the driver's library
# loaded and found no GPU, so "does the driver see one?" (nvidia-smi) leads
# on a Fedora host (https://github.com/ollama/ollama/issues/12116) and in a
# container (https://github.com/ollama/ollama/issues/6840); a WSL log
# (https://github.com/NixOS/nixpkgs/issues/389898) keeps WSL's readings first.
run_json explain 'Aug 29 12:00:56 linux ollama[12550]: time=2025-08-29T12:00:56.249+02:00 level=INFO source=gpu.go:604 msg="no nvidia devices detected by library /usr/lib64/libcuda.so.575.64.05"'
expect_json '.matches[0].signature == "explain.sig.ollama_lib_no_devices" and .matches[0].causes[0].id == "explain.cuda.no_device_any" and .matches[0].causes[0].fix[0] == "nvidia-smi   # lists the GPUs the driver sees; an error or none here: the driver, the machine, or the container'"'"'s GPU access"'
run_json explain 'time=2024-09-17T15:04:08.215Z level=INFO source=gpu.go:560 msg="no nvidia devices detected" library=/usr/lib/x86_64-linux-gnu/libcuda.so.550.107.02'
expect_json '.matches[0].causes[0].id == "explain.cuda.no_device_any"'
printf '%s\n' 'time=2025-03-14T19:04:56.786Z level=INFO source=gpu.go:602 msg="no nvidia devices detected by library /usr/lib/x86_64-linux-gnu/libcuda.so.535.183.01"' \
	'time=2025-03-14T19:04:56.792Z level=INFO source=gpu.go:602 msg="no nvidia devices detected by library /usr/lib/wsl/lib/libcuda.so"' >"$WORK/ollamawsl.log"
run_json explain -f "$WORK/ollamawsl.log"
expect_json '.log_platform.kind == "wsl2" and .matches[0].causes[0].id == "cuda.init.no_device"'
# A TensorRT library that does not load is TensorRT's install, not CUDA's:
# ONNX Runtime's TensorRT provider in an image without it
# (https://github.com/FocoosAI/focoos/issues/143), `import tensorrt`
# (https://github.com/open-mmlab/mmdeploy/issues/2594), Triton on a Jetson
# (https://github.com/triton-inference-server/server/issues/3030); a TensorRT
# plugin that fails on cuBLAS (https://github.com/NVIDIA/TensorRT/issues/3061)
# and a cuBLAS line are not.
run_json explain '[E:onnxruntime:Default, provider_bridge_ort.cc:2167 TryGetProviderInfo_TensorRT] /onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1778 onnxruntime::Provider& onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_tensorrt.so with error: libnvinfer.so.10: cannot open shared object file: No such file or directory'
expect_json '.matches[0].signature == "explain.sig.ort_provider_lib" and .matches[0].causes[0].id == "explain.wide.tensorrt_lib_not_found"'
for l in 'ImportError: libnvinfer.so.8: cannot open shared object file: No such file or directory' \
	'error while loading shared libraries: libnvinfer.so.7: cannot open shared object file: No such file or directory'; do
	run_json explain "$l"
	expect_json '.matches[0].causes[0].id == "explain.wide.tensorrt_lib_not_found" and (.matches[0].causes[0].fix[1] | startswith("ldconfig -p | grep -F libnvinfer.so."))'
done
run_json explain 'Unable to open library: libnvinfer_plugin.so.8 due to libcublas.so.11: cannot open shared object file: No such file or directory'
expect_json '[.matches[].causes[0].id] | index("explain.wide.tensorrt_lib_not_found") == null'
run_json explain 'ImportError: libcublasLt.so.12: cannot open shared object file: No such file or directory'
expect_json '[.matches[].causes[0].id] | index("explain.wide.tensorrt_lib_not_found") == null'
# NVML's version mismatch next to the loaded module's own version line
# (/proc/driver/nvidia/version: "NVRM version: ... Kernel Module 580.173.02")
# is the module and the libraries of two driver versions, a native reading
# that the paste's words lift ahead of the general one: a TrueNAS script's
# install (https://github.com/zzzhouuu/truenas-nvidia-drivers/issues/19), an
# Ubuntu package update (https://github.com/oddmario/NVIDIA-Ubuntu-Driver-Guide/issues/4).
# The message alone keeps the general reading first; WSL's log its own.
printf '%s\n' 'root@truenas[/]# nvidia-smi' 'Failed to initialize NVML: Driver/library version mismatch' 'NVML library version: 580.178' \
	'root@truenas[/]# cat /proc/driver/nvidia/version' 'NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.173.02  Tue Jun 23 08:38:17 UTC 2026' >"$WORK/nvrmver.log"
run_json explain -f "$WORK/nvrmver.log"
expect_json '.matches[0].causes[0].id == "explain.wide.nvrm_api_mismatch" and .matches[0].causes[0].words.support == ["nvrm version"] and .matches[0].causes[0].fix[0] == "cat /proc/driver/nvidia/version   # the module loaded now"'
printf '%s\n' '`Failed to initialize NVML: Driver/library version mismatch`' 'For instance, right now I have updated to `nvidia-driver-550:amd64 550.107.02-0ubuntu0.24.04.1`, but /proc/driver/nvidia/version reports `NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.90.07  Fri May 31 09:35:42 UTC 2024`.' >"$WORK/nvrmver2.log"
run_json explain -f "$WORK/nvrmver2.log"
expect_json '.matches[0].causes[0].id == "explain.wide.nvrm_api_mismatch"'
run_json explain "Failed to initialize NVML: Driver/library version mismatch"
expect_json '.matches[0].causes[0].id == "nvml.init.version_mismatch"'
run_json explain --platform wsl2 "Failed to initialize NVML: Driver/library version mismatch"
expect_json '.matches[0].causes[0].id == "nvml.smi.linux_shadow"'
# An out-of-memory error on a WSL log: a pinning call in the paste puts
# WSL's pinned-memory limit first (https://github.com/dvmazur/mixtral-offloading/issues/18);
# PyTorch's report of a device allocation and its memory summary put the
# GPU's memory first (https://github.com/komikndr/raylight/issues/108).
printf '%s\n' '  File "/mnt/c/models/mixtral/expert_cache.py", line 40, in __init__' '    torch.UntypedStorage(self.module_size).pin_memory(self.device) for _ in range(offload_size)]' 'RuntimeError: CUDA error: out of memory' >"$WORK/pinoom.log"
run_json explain -f "$WORK/pinoom.log"
expect_json '.log_platform.kind == "wsl2" and .matches[0].causes[0].id == "explain.cuda.pinned_limit" and .matches[0].causes[0].words.support == ["pin_memory"]'
printf '%s\n' '  File "/mnt/c/ComfyUI/ComfyUI/comfy/ops.py", line 426, in cast_bias_weight' '    weight = weight.to(dtype=dtype)' 'torch.OutOfMemoryError: Allocation on device' '|                  PyTorch CUDA memory summary, device ID 0                 |' >"$WORK/devoom.log"
run_json explain -f "$WORK/devoom.log"
expect_json '.log_platform.kind == "wsl2" and .matches[0].causes[0].id == "explain.cuda.vram_oom" and .matches[0].causes[-1].id == "explain.cuda.pinned_limit"'
# Unsloth's offloaded gradient checkpointing stages activations through
# pinned host memory: on WSL its bare "CUDA error: out of memory" is WSL's
# pinned limit, with the GPU's memory mostly free
# (https://github.com/unslothai/unsloth/issues/338, https://github.com/unslothai/unsloth-zoo/pull/1257);
# the same trace on native Linux keeps the GPU's memory first.
printf '%s\n' 'File ~/miniconda3/envs/ft/lib/python3.11/site-packages/unsloth_zoo/gradient_checkpointing.py:145, in Unsloth_Offloaded_Gradient_Checkpointer.forward(ctx, forward_function, hidden_states, *args)' '--> 145     saved_hidden_states = hidden_states.to("cpu", non_blocking = True)' 'RuntimeError: CUDA error: out of memory' >"$WORK/unslothoom.log"
run_json explain --platform wsl2 -f "$WORK/unslothoom.log"
expect_json '.matches[0].causes[0].id == "explain.cuda.pinned_limit" and .matches[0].causes[0].words.support == ["offloaded_gradient_checkpoint"]'
run_json explain --platform native -f "$WORK/unslothoom.log"
expect_json '.matches[0].causes[0].id != "explain.cuda.pinned_limit"'
# LM Studio's "Exit code: 18446744072635812000" with nothing else: its
# engine (the runtime extension pack) crashed, the reports' first reading
# (https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/1057), before
# a GPU its CUDA runtime was not built for; no Windows-only step leads.
run_json explain "Error loading model. (Exit code: 18446744072635812000). Unknown error. Try a different model and/or config."
expect_json '.matches[0].signature == "explain.sig.lmstudio_engine_exit" and .matches[0].causes[0].id == "explain.apps.lmstudio_engine_crash" and .matches[0].causes[1].id == "explain.apps.prebuilt_runtime_arch"'
# cuBLAS's EXECUTION_FAILED is a kernel that did not run (a CUDA build
# older than the GPU), not a library that could not start: PyTorch
# (https://github.com/facebookresearch/SparseConvNet/issues/208), TensorFlow
# (https://github.com/QingyongHu/SensatUrban/issues/25), ONNX Runtime on
# Windows (https://github.com/C0untFloyd/roop-unleashed/issues/995);
# NOT_INITIALIZED keeps the runtime-without-driver reading first.
for l in 'RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle, opa, opb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc)`' \
	'failed to run cuBLAS routine cublasSgemm_v2: CUBLAS_STATUS_EXECUTION_FAILED' \
	"2024-11-24 19:49:58.7213964 [E:onnxruntime:Default, cuda_call.cc:116 onnxruntime::CudaCall] CUBLAS failure 13: CUBLAS_STATUS_EXECUTION_FAILED ; GPU=0 ; hostname=LED-PC ; file=D:\\a\\_work\\1\\s\\onnxruntime\\core\\providers\\cuda\\math\\gemm.cc ; line=121"; do
	run_json explain "$l"
	expect_json '.matches[0].causes[0].id == "explain.cuda.cublas_exec_failed" and .matches[0].causes[-1].id == "explain.cuda.lib_init_no_driver" and (.matches[0].causes[0].fix[0] | startswith("nvidia-smi --query-gpu=name,compute_cap"))'
done
run_json explain 'RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`'
expect_json '.matches[0].causes[0].id == "explain.cuda.lib_init_no_driver"'
# Podman that does not read /var/run/cdi is among the causes of an
# unresolvable CDI device (https://github.com/NixOS/nixpkgs/issues/417312);
# "CUDA_VISIBLE_DEVICES: all" in a compose file puts the hidden-GPU reading
# first (https://github.com/YanWenKun/ComfyUI-Docker/issues/60).
run_json explain "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all"
expect_json '[.matches[0].causes[].id] | index("explain.podman.cdi_dirs") != null'
printf 'RuntimeError: No CUDA GPUs are available\n    environment:\n      CUDA_VISIBLE_DEVICES: all\n' >"$WORK/cvdall.log"
run_json explain -f "$WORK/cvdall.log"
expect_json '.matches[0].causes[0].id == "libs.env.cvd_hidden"'
# CUDA graph capture failing with 999 on a WSL log leads with the WSL
# release (https://github.com/microsoft/WSL/issues/14452); without the words,
# the general unknown-error readings stay ahead of it.
printf 'Running vLLM on RTX 5090 + WSL2 caused a hard crash during CUDA graph capture:\ncudaErrorUnknown: unknown error\n' >"$WORK/graphwsl.log"
run_json explain -f "$WORK/graphwsl.log"
expect_json '.matches[0].causes[0].id == "explain.rt.wsl_graph_capture"'
run_json explain --platform wsl2 "cudaErrorUnknown: unknown error"
expect_json '.matches[0].causes[0].id != "explain.rt.wsl_graph_capture"'
# A library older than the one JAX was built with sits in the toolkit layer
# (https://github.com/jax-ml/jax/issues/18027).
run_json explain "CUDA backend failed to initialize: Found cuBLAS version 120205, but JAX was built against version 120304, which is newer."
expect_json '.matches[0].signature == "explain.sig.skew_jax_lib_version" and .matches[0].causes[0].layer == "toolkit"'
run explain "the weather is fine, nothing failed today"
expect_line '^\? No known signature in 1 line\. Run'
expect_no_line 'look like'

# A paste cut off inside a message, and a message hard-wrapped by an 80-column terminal.
run_json explain "RuntimeError: CUDA driver initialization failed, you might not h"
expect_rc 1
expect_json '.matches[0].signature == "explain.sig.torch_driver_init_failed" and .matches[0].lines[0].cut == true'
run explain "RuntimeError: CUDA driver initialization failed, you might not h"
expect_line '\(the text ends here, inside the message\)$'
printf '%s\n' '2024-05-01 12:00:00.123: W torch/cuda/__init__.py:52: UserWarning: CUDA initializ' \
	'ation: CUDA driver initialization failed, you might not have a CUDA gpu. (Trigger' \
	'ed internally at ../c10/cuda/CUDAFunctions.cpp:108.)' >"$WORK/wrap80.log"
run_json explain -f "$WORK/wrap80.log"
expect_json '.matches[0].signature == "explain.sig.torch_driver_init_failed"'

# --kb: signatures from a file, with classes and error codes.
cat >"$WORK/extra.kb" <<'EOF'
[my.nodev]
layer: cuda
title: No CUDA device, by code
source: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html
match: {cuda:CUDA_ERROR_NO_DEVICE}

[my.toolkit_too_new]
layer: toolkit
title: The toolkit is newer than the driver
source: https://docs.nvidia.com/deploy/cuda-compatibility/
match: driver {ver} is too old for CUDA {ver} at {path}
EOF
for t in "cudaErrorNoDevice" "cudaGetDeviceCount returned 100" "CUDA error 100" "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected"; do
	run_json explain --kb "$WORK/extra.kb" "$t"
	expect_json '[.matches[].signature] | index("my.nodev") != null'
done
run_json explain --kb "$WORK/extra.kb" "error 100"
expect_json '.matches | length == 0'
run_json explain --kb "$WORK/extra.kb" "driver 470.57.02 is too old for CUDA 12.4 at /usr/local/cuda-12.4/bin/nvcc"
expect_json '.matches[0].signature == "my.toolkit_too_new"'
run explain --kb "$WORK/extra.kb" --list
expect_line '^  my\.nodev +finding +No CUDA device, by code$'
printf '[my.bad]\nlayer: cuda\ntitle: x\nsource: https://x.invalid/\nmatch: at {version}\n' >"$WORK/bad.kb"
run explain --kb "$WORK/bad.kb" "x"
expect_rc 2
expect_err 'my\.bad: match 1: unknown class \{version\}'
run explain --kb "$WORK/missing.kb" "x"
expect_rc 2
expect_err 'cannot open .*missing\.kb'

# A signature with context: words that refines another refines it only
# where the input shows one of them: without, the reading it refines stays
# (it used to drop both).
cat >"$WORK/ctx.kb" <<'EOF'
[my.general_cause]
layer: cuda
title: General
cause: The general reading.
source: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html

[my.general]
layer: cuda
kind: signature
title: Frobnicator failed
regex: frobnicator failed
see: my.general_cause
source: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html

[my.specific_cause]
layer: cuda
title: Specific
cause: The reading where the paste is CUDA's.
source: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html

[my.specific]
layer: cuda
kind: signature
title: GPU frobnicator failed
regex: gpu frobnicator failed
context: cuda
see: my.general
see: my.specific_cause
source: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html
EOF
run_json explain --kb "$WORK/ctx.kb" "gpu frobnicator failed"
expect_json '[.matches[].signature] == ["my.general"]'
run_json explain --kb "$WORK/ctx.kb" "$(printf 'cuda init\ngpu frobnicator failed')"
expect_json '[.matches[].signature] == ["my.specific"]'

# Families read in any wording name the layer where their cause sits
# (doc/explain.md, "Layers"). SGLang's KV cache (InferenceX#2128): the
# fix raises the memory share, never lowers it.
run_json explain "$(printf 'Load weight end. quant=fp8, fmt=e4m3, avail mem=12.25 GB, mem usage=125.65 GB.\nValueError: Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static=0.88.')"
expect_json '.matches[0].signature == "explain.sig.wide_kv_cache" and .matches[0].family == "oom"'
expect_json '.matches[0].causes[0].id == "explain.wide.kv_cache_budget" and .matches[0].causes[0].layer == "cuda"'
expect_json '[.matches[0].causes[0].fix[] | select(test("a larger --mem-fraction-static"))] | length == 1'
expect_json '[.matches[0].causes[0].fix[] | select(test("(smaller|lower) --mem-fraction"))] | length == 0'
# ONNX Runtime's error 126 on Windows (onnxruntime#21825): a CUDA or cuDNN
# DLL is missing, the toolkit's layer
run_json explain 'LoadLibrary failed with error 126 "" when trying to load "c:\Simon\Timpi\test\myenv\Lib\site-packages\onnxruntime\capi\onnxruntime_providers_cuda.dll"'
expect_json '.matches[0].causes[0].id == "explain.apps.ort_windows_126" and .matches[0].causes[0].layer == "toolkit"'
# Ollama on Windows with a driver whose nvcuda.dll lacks cuCtxCreate_v3
# (ollama#6626): the driver is too old, the host's layer; the WSL reading
# (a Linux package's libcuda) is not first on a Windows log; Windows' own
# reading of it leads, the general one after it
run_json explain 'time=2024-09-03T16:36:00.677+08:00 level=INFO source=gpu.go:568 msg="unable to load cuda driver library" library=C:\WINDOWS\system32\nvcuda.dll error="symbol lookup for cuCtxCreate_v3 failed"'
expect_json '.matches[0].causes[0].id == "explain.apps.ollama_old_nvcuda" and .matches[0].causes[0].layer == "host"'
expect_json '.matches[0].causes[1].id == "explain.host.driver_too_old" and .matches[0].causes[1].layer == "host"'
# The check that tells its causes apart runs in WSL on that machine, not
# where the log came from; a log with no Windows marker gets it as it is
run explain 'time=2024-09-03T16:36:00.677+08:00 level=INFO source=gpu.go:568 msg="unable to load cuda driver library" library=C:\WINDOWS\system32\nvcuda.dll error="symbol lookup for cuCtxCreate_v3 failed"'
expect_line '^    check +# in WSL: wslgpu check --only host\.driver$'
expect_no_line '^    check +wslgpu check'
run explain --platform native 'level=INFO source=gpu.go:568 msg="unable to load cuda driver library" library=/usr/lib/x86_64-linux-gnu/libcuda.so.1 error="symbol lookup for cuCtxCreate_v3 failed"'
expect_line '^    check +wslgpu check --only '
expect_no_line 'in WSL: wslgpu check'
# The NVIDIA module's build stopping in gcc on a new kernel
# (open-gpu-kernel-modules#751): the host, and no removal first
run_json explain "$(printf 'In file included from /usr/src/linux-headers-6.13.0-aosc-main/include/linux/module.h:22,\n                 from nvidia/nv.c:24:\nnvidia/nv.c:130:18: error: expected x before DMA_BUF\n')"
expect_json '.matches[0].signature == "explain.sig.wide_module_build_cc" and .matches[0].causes[0].id == "explain.wide.module_build"'
expect_json '.matches[0].causes[0].fix[0] | test("make.log")'

# The fixed strings for grep -F.
# A fix fills in what the paste shows where it is unambiguous: the one DLL
# a message names, and what it is by its major version (RealtimeSTT's
# ctranslate2 asking for cuBLAS 12, https://github.com/KoljaB/RealtimeSTT/issues/220;
# NarratoAI's asking for cuDNN 8, https://github.com/linyqh/NarratoAI/issues/74);
# where several are named (TensorFlow 2.13 on Windows,
# https://github.com/tensorflow/tensorflow/issues/72097) the template stays
# and lists them; without a paste (wslgpu kb) it is the template.
run_json explain "Error: Library cublas64_12.dll is not found or cannot be loaded"
expect_json '.matches[0].causes[0].id == "explain.wide.cuda_dll_not_found" and (.matches[0].causes[0].fix[0] | startswith("where.exe cublas64_12.dll   #"))'
expect_json '.matches[0].causes[0].fix[1] | contains("that major (cuBLAS for CUDA 12)")'
run explain "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!"
expect_line 'where\.exe cudnn_ops_infer64_8\.dll'
expect_line 'major \(cuDNN 8\)'
printf "W dso_loader.cc:64] Could not load dynamic library 'cublas64_11.dll'; dlerror: cublas64_11.dll not found\nW dso_loader.cc:64] Could not load dynamic library 'cufft64_10.dll'; dlerror: cufft64_10.dll not found\n" >"$WORK/twodll.log"
run_json explain -f "$WORK/twodll.log"
expect_json '[.matches[].causes[] | select(.id == "explain.wide.cuda_dll_not_found") | .fix[0]] | all(startswith("# where.exe DLL") and contains("cublas64_11.dll"))'
run kb explain.wide.cuda_dll_not_found
expect_line '# where\.exe DLL   # in PowerShell; a template: put in DLL, the file'

# The paste's own words pick the cause its thread confirmed, within one
# message's readings. NCCL's Cuda failure in transport/nvls.cc is NVLS over
# NVSwitch (https://github.com/NVIDIA/nccl/issues/1488); "named symbol not
# found" an NCCL built without this GPU's architecture
# (https://github.com/NVIDIA/nccl/issues/1372); neither leads the other's.
run_json explain "node23:12098:12141 [2] transport/nvls.cc:244 NCCL WARN Cuda failure 1 'invalid argument'"
expect_json '.matches[0].causes[0].id == "explain.nccl.nvls" and (.matches[0].causes[0].fix[0] | startswith("nvidia-smi -q"))'
run_json explain "gcn75:2336636:2336906 [0] enqueue.cc:58 NCCL WARN Cuda failure 'named symbol not found'"
expect_json '.matches[0].causes[0].id == "explain.nccl.arch_not_built"'
run_json explain "enqueue.cc:58 NCCL WARN Cuda failure 'operation not supported'"
expect_json '.matches[0].causes[0].id == "explain.nccl.cuda_call"'
# CUDA error 36 alone reads as a driver older than the program's CUDA; the
# entry-point wording as the program and the driver disagreeing either way
# (https://github.com/escontra/gauss_gym/issues/16).
run_json explain "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 36: API call is not supported in the installed CUDA driver"
expect_json '[.matches[] | select(.signature == "explain.sig.call_requires_newer_driver") | .causes[0].id] == ["explain.host.driver_too_old"]'
run_json explain "Warp CUDA error: Function cuDeviceGetUuid_f: a suitable driver entry point was not found"
expect_json '.matches[0].causes[0].id == "explain.cuda.entry_point" and (.matches[0].causes[0].fix[0] | startswith("nvidia-smi "))'
# CUDA.jl's warning about the Windows driver store's own DLL is a false
# alarm there (https://github.com/JuliaGPU/CUDA.jl/pull/2847); a Linux
# module path on LD_LIBRARY_PATH is not.
run_json explain 'CUDA runtime library `nvcudart_hybrid64.dll` was loaded from a system path, `C:\WINDOWS\System32\DriverStore\FileRepository\nv_dispi.inf_amd64_fe5f369669db2f36\nvcudart_hybrid64.dll`.'
expect_json '.log_platform.kind == "windows" and .matches[0].causes[0].id == "explain.apps.cudajl_driverstore"'
run_json explain 'CUDA runtime library `libcublasLt.so.12` was loaded from a system path, `/opt/bwhpc/common/devel/cuda/12.6.1/lib64/libcublasLt.so.12`.'
expect_json '.matches[0].causes[0].id == "explain.apps.cudajl_system_lib"'
# The .run installer's failed test load of nvidia-drm, with its --no-drm
# advice (https://github.com/aws/aws-parallelcluster-cookbook/pull/3031),
# looks at the kernel log before reinstalling anything.
run_json explain "ERROR: The nvidia-drm kernel module failed to load. This kernel module is required for the proper operation of DRM-KMS. If you do not need to use DRM-KMS, you can try to install this driver package again with the '--no-drm' option."
expect_json '.matches[0].causes[0].id == "explain.host.installer_no_drm" and (.matches[0].causes[0].fix[0] | startswith("sudo dmesg"))'
# Fabric Manager's version check names its cause; its first step looks.
run_json explain "fabric manager NVIDIA GPU driver interface version 590.48.01 don't match with driver version 580.126.09."
expect_json '.matches[0].causes[0].id == "explain.host.fabricmanager_version" and (.matches[0].causes[0].fix[0] | startswith("journalctl"))'

# Docker from the snap configures its own nvidia runtime
# (https://github.com/canonical/docker-snap/issues/180): the paste's
# "snap install docker" puts that reading first, with a look first.
run_json explain "$(printf '$ sudo snap install docker\ndocker 24.0.5 from Canonical installed\ndocker: Error response from daemon: unknown or invalid runtime name: nvidia.')"
expect_json '.matches[0].causes[0].id == "explain.containers.snap_docker" and (.matches[0].causes[0].fix[0] | startswith("snap list docker"))'
run_json explain 'docker: Error response from daemon: unknown or invalid runtime name: nvidia.'
expect_json '.matches[0].causes[0].id == "explain.containers.no_runtime_entry"'

# A GPU that did not wake from D3cold reads as the platform's power
# control, not a driver fault (https://github.com/system76/firmware-open/issues/160).
run_json explain "$(printf '[  117.004655] nvidia 0000:01:00.0: can'"'"'t change power state from D3cold to D0 (config space inaccessible)\n[  117.005518] NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x23:0x56:624)')"
expect_json '[.matches[] | select(.signature == "explain.sig.wide_nvrm_init") | .causes[0].id] == ["explain.host.gpu_d3cold"]'
# XLA's "kernel version X does not match DSO version Y" next to cuInit's
# error puts the two driver releases first, under the error code's own
# signature too (https://github.com/tensorflow/tensorflow/issues/48722);
# never on WSL, which has no kernel module to compare.
printf 'E cuda_driver.cc:328] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\nE cuda_diagnostics.cc:313] kernel version 455.32.0 does not match DSO version 460.73.1 -- cannot find working devices in this configuration\n' >"$WORK/dso.log"
run_json explain --platform container -f "$WORK/dso.log"
expect_json '[.matches[] | .causes[0].id] | all(. == "explain.host.kernel_dso_mismatch")'
expect_json '.matches[0].causes[0].fix[0] | startswith("nvidia-smi")'
run_json explain --platform wsl2 -f "$WORK/dso.log"
expect_json '[.matches[] | .causes[] | select(.id == "explain.host.kernel_dso_mismatch") | .machine] | all(. == "not_applicable")'

# FlashAttention's "only supports Ampere GPUs or newer": an old GPU unless
# the paste names a Blackwell one, whose sm_120 the build predates
# (https://github.com/nvidia-cosmos/cosmos-predict2.5/issues/29)
run_json explain "RuntimeError: FlashAttention only supports Ampere GPUs or newer."
expect_json '.matches[0].causes[0].id == "explain.frameworks.flash_attn_arch"'
run_json explain "$(printf 'GPU: NVIDIA GeForce RTX 5090\nRuntimeError: FlashAttention only supports Ampere GPUs or newer.')"
expect_json '.matches[0].causes[0].id == "explain.frameworks.flash_attn_blackwell" and (.matches[0].causes[0].fix[0] | startswith("nvidia-smi"))'

# cuDNN's "No execution plans support the graph": PyTorch's cuDNN attention
# (https://github.com/huggingface/diffusers/issues/9704), or NVRTC that did
# not load just before it
NOPLAN="RuntimeError: cuDNN Frontend error: [cudnn_frontend] Error: No execution plans support the graph."
run_json explain "$(printf '    attn_output = torch.nn.functional.scaled_dot_product_attention(\n%s' "$NOPLAN")"
expect_json '.matches[0].causes[0].id == "explain.frameworks.cudnn_sdpa_no_engine" and (.matches[0].causes[0].fix[0] | startswith("python -c"))'
run_json explain "$(printf 'Could not load library libnvrtc.so.12. Error: libnvrtc.so.12: cannot open shared object file: No such file or directory\n%s' "$NOPLAN")"
expect_json '[.matches[] | select(.signature == "explain.sig.cudnn_no_plan") | .causes[0].id] == ["explain.toolkit.cudnn_nvrtc_missing"]'
# the frontend's later words in Transformer Engine's fused attention: no
# engine in this cuDNN for the graph on this GPU, not PyTorch's attention
# (https://github.com/NVIDIA/TransformerEngine/issues/1591,
# https://github.com/NVIDIA/cudnn-frontend/issues/116)
run_json explain "$(printf '      dq, dk, dv, *rest = fused_attn_bwd(\n/opt/TransformerEngine/transformer_engine/common/fused_attn/fused_attn_f16_arbitrary_seqlen.cu:227 in function operator(): cuDNN Error: [cudnn_frontend] Error: No execution plans built successfully.')"
expect_json '.matches[0].signature == "explain.sig.cudnn_no_plan" and .matches[0].causes[0].id == "explain.frameworks.cudnn_graph_no_engine" and (.matches[0].causes[0].fix[0] | startswith("nvidia-smi"))'

# ggml's "no device code" for an architecture the build's list names with a
# newer one after it reads as a kernel needing a feature the GPU lacks, not a
# build without the GPU (https://github.com/ggml-org/llama.cpp/pull/5088);
# the list's newest (a build of 5.2 alone) stays the not-built reading
run_json explain "ggml-cuda.cu:1412: ERROR: CUDA kernel vec_dot_q4_K_q8_1_impl_vmmq has no device code compatible with CUDA arch 600. ggml-cuda.cu was compiled for: 520,600,610,700,750,800"
expect_json '.matches[0].signature == "explain.sig.ggml_arch_listed" and .matches[0].causes[0].id == "explain.wide.ggml_kernel_needs_feature" and ([.matches[].causes[].id] | index("explain.wide.arch_not_built") == null)'
run_json explain "mmq.cuh:2589: ERROR: CUDA kernel mul_mat_q has no device code compatible with CUDA arch 520. ggml-cuda.cu was compiled for: 520"
expect_json '.matches[0].signature == "explain.sig.wide_arch" and .matches[0].causes[0].id == "explain.wide.arch_not_built"'

# A GLIBCXX version missing for PyTorch's own library or a torch extension,
# in a paste about a GPU, leads with an older C++ runtime found first (a
# conda environment's, or the system's where the environment's link is
# missing: https://github.com/pytorch/pytorch/issues/157709,
# https://github.com/shader-slang/slang-torch/issues/7); the C library's
# GLIBC_2.xx stays the newer-distribution reading
run_json explain "$(printf 'GPU 0: NVIDIA GeForce RTX 3090\nImportError: /home/u/miniconda3/envs/x/bin/../lib/libstdc++.so.6: version `GLIBCXX_3.4.32%s not found (required by /home/u/work/.slangtorch_cache/square/44136fa355b3678a/0/_slangtorch_square_44136fa355b3678a.so)' "'")"
expect_json '.matches[0].signature == "explain.sig.wide_gpu_lib_glibc" and .matches[0].causes[0].id == "explain.wide.libstdcxx_older_first" and (.matches[0].causes[0].fix[0] | startswith("python -c"))'
run_json explain "$(printf 'GPU 0: NVIDIA GeForce RTX 3090\nOSError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38%s not found (required by /home/u/miniconda3/envs/x/lib/python3.11/site-packages/llama_cpp/lib/libllama.so)' "'")"
expect_json '.matches[0].signature == "explain.sig.wide_gpu_lib_glibc" and .matches[0].causes[0].id == "explain.wide.binary_newer_glibc"'

# PyTorch's out of memory in eager attention's score matmul is the input's
# length first (https://github.com/pengxiao-song/LaWGPT/issues/122); without
# those frames the full GPU stays first
OOM="torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 8.23 GiB (GPU 0; 23.70 GiB total capacity; 14.43 GiB already allocated; 7.99 GiB free)"
run_json explain "$(printf '    attn_weights = torch.matmul(query_states, key_states.transpose(2, 3)) / math.sqrt(self.head_dim)\n%s' "$OOM")"
expect_json '.matches[0].causes[0].id == "explain.frameworks.attention_oom" and (.matches[0].causes[0].fix[0] | startswith("nvidia-smi"))'
run_json explain "$OOM"
expect_json '.matches[0].causes[0].id == "explain.cuda.vram_oom"'

# cuDNN's NOT_SUPPORTED is the operation as configured (sizes, memory,
# layout), not a runtime without a driver
# (https://github.com/pytorch/pytorch/issues/11065)
run_json explain "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED. This error may appear if you passed in a non-contiguous input."
expect_json '.matches[0].causes[0].id == "explain.frameworks.cudnn_not_supported" and (.matches[0].causes[0].fix[0] | startswith("nvidia-smi"))'

run explain --dump-keys
expect_rc 0
expect_line '^cuda_error_no_device$'

# The hidden pattern dump the benchmark hands to grep.
run explain --dump-patterns
expect_rc 0
printf '%s\n' "$OUT" >"$WORK/patterns.txt"
if printf 'x CUDA_ERROR_NO_DEVICE y\n' | grep -E -i -q -f "$WORK/patterns.txt"; then
	ok "grep accepts the dumped patterns"
else
	fail "grep rejects the dumped patterns"
fi

# Every fix line shown for the corpus can be typed: no bare "..." stands for
# what the user supplies (the KB names it: IMAGE, ARGS; kbgen refuses it).
for kind in native container wsl2; do
	run_json explain --platform $kind -f "$top/tests/explain/nccl.log"
	expect_json '[.matches[].causes[].fix[] | select(test("(^|[ :])(\\.\\.\\.)($|[ }])"))] == []'
	expect_json '[.matches[].causes[].fix[] | select(test("torchrun ARGS"))] != []'
done

# nvidia-persistenced failing to start on native Linux found no NVIDIA device
# to open: the kernel module is not loaded
# (https://github.com/ollama/ollama/issues/11932); the message is native's only.
run_json explain --platform native "nvidia-persistenced failed to initialize. Check syslog for more details."
expect_json '.matches[0].signature == "explain.sig.kmod_persistenced_failed" and .matches[0].causes[0].id == "bridge.nvidia_dev.no_driver"'
run_json explain --platform wsl2 "systemd[1]: Failed to start nvidia-persistenced.service - NVIDIA Persistence Daemon."
expect_json '[.matches[0].causes[].machine] | all(. == "not_applicable")'

# The kernel's "Direct firmware load for nvidia/VERSION/gsp_*.bin failed with
# error -2": the GSP firmware of that version is not installed
# (https://github.com/NixOS/nixpkgs/issues/454772); nouveau's own firmware is not it.
run_json explain --platform native "nvidia 0000:00:1e.0: Direct firmware load for nvidia/565.57.01/gsp_tu10x.bin failed with error -2"
expect_json '.matches[0].signature == "explain.sig.kmod_gsp_firmware_missing" and .matches[0].causes[0].id == "explain.kmod.gsp_firmware_missing"'
run_json explain --platform native "nouveau 0000:01:00.0: Direct firmware load for nvidia/tu117/gsp/gsp-535.113.01.bin failed with error -2"
expect_json '[.matches[].signature] | index("explain.sig.kmod_gsp_firmware_missing") == null'

# NVIDIA's .run installer refusing while nouveau holds the GPU leads with
# nouveau, not with a failed module build
# (https://github.com/ApolloAuto/apollo/issues/2466).
run_json explain --platform native "ERROR: The Nouveau kernel driver is currently in use by your system.  This driver is incompatible with the NVIDIA driver, and must be disabled before proceeding.
ERROR: Installation has failed.  Please see the file '/var/log/nvidia-installer.log' for details."
expect_json '.matches[0].signature == "explain.sig.nouveau_bound" and .matches[0].causes[0].id == "explain.host.nouveau_bound"'

# rmmod refusing to unload an NVIDIA module still in use leads with what holds
# it (https://github.com/tinygrad/open-gpu-kernel-modules/pull/20).
run_json explain --platform native "rmmod: ERROR: Module nvidia is in use by: nvidia_uvm nvidia_modeset"
expect_json '.matches[0].signature == "explain.sig.kmod_module_in_use" and .matches[0].causes[0].id == "explain.kmod.module_in_use"'

# cuBLASLt's lazy loader ("Invalid handle. Cannot load symbol cublasLtCreate"):
# another CUDA release's libraries on the library path lead (a toolkit's lib64
# ahead of PyTorch's wheels, as in the Forge thread), CTranslate2's cuBLAS
# where the paste shows faster-whisper
run_json explain --platform native 'Invalid handle. Cannot load symbol cublasLtCreate'
expect_json '.matches[0].signature == "explain.sig.cublaslt_invalid_handle" and .matches[0].causes[0].id == "explain.frameworks.cuda_lib_skew"'
run_json explain --platform native "$(printf 'faster_whisper - INFO - Processing audio with duration 00:20.434\nInvalid handle. Cannot load symbol cublasLtGetVersion')"
expect_json '.matches[0].causes[0].id == "explain.apps.ct2_cublas"'

# "invalid device ordinal": a device index the machine lacks leads on every platform; WSL's
# container limitation (rare there) leads only next to docker's GPU option
run_json explain --platform wsl2 "RuntimeError: CUDA error: invalid device ordinal"
expect_json '.matches[0].causes[0].id == "explain.cuda.device_index_absent"'
run_json explain --platform native "RuntimeError: CUDA error: invalid device ordinal"
expect_json '.matches[0].causes[0].id == "explain.cuda.device_index_absent"'
run_json explain --platform wsl2 "$(printf 'docker run --gpus device=1 -it img\nRuntimeError: CUDA error: invalid device ordinal')"
expect_json '.matches[0].causes[0].id == "explain.cuda.multi_gpu_index"'

# cudarc's panic at start-up ("Expected symbol in library: DlSym"): a libcuda
# without a function of cudarc's CUDA level leads with the driver older than
# that level (https://github.com/chelsea0x3b/cudarc/issues/422); NVRTC
# without one leads with the cudarc release (CUDA 13 removed nvrtcGetNVVM,
# https://github.com/chelsea0x3b/cudarc/issues/490)
run_json explain 'Expected symbol in library: DlSym { desc: "/lib/x86_64-linux-gnu/libcuda.so: undefined symbol: cuLogsCurrent" }'
expect_json '.matches[0].signature == "explain.sig.cudarc_symbol_missing" and .matches[0].causes[0].id == "explain.apps.cudarc_symbol_driver_older" and (.matches[0].causes[0].fix[0] | startswith("nvidia-smi"))'
run_json explain 'Expected symbol in library: DlSym { desc: "/opt/cuda/lib64/libnvrtc.so: undefined symbol: nvrtcGetNVVM" }'
expect_json '.matches[0].signature == "explain.sig.cudarc_symbol_missing" and .matches[0].causes[0].id == "explain.apps.cudarc_symbol_release"'

# OptiX's compiler (in the driver) rejecting Dr.Jit's PTX leads with the
# pairing of driver and program releases, the driver's version looked at
# first (https://github.com/mitsuba-renderer/mitsuba3/issues/826)
run_json explain 'Critical Dr.Jit compiler failure: jit_optix_compile(): optixModuleGetCompilationState() indicates that the compilation did not complete succesfully. The module'"'"'s compilation state is: 0x2363'
expect_json '.matches[0].signature == "explain.sig.optix_compile" and .matches[0].causes[0].id == "explain.host.optix_compile_driver_pair" and (.matches[0].causes[0].fix[0] | startswith("nvidia-smi"))'

# A traceback cut off inside Triton's driver set-up reads as Triton finding no
# GPU back-end first (https://github.com/hiyouga/EasyR1/issues/211)
printf '%s\n' '  File "/venv/lib/python3.10/site-packages/triton/runtime/driver.py", line 23, in __getattr__' '    self._initialize_obj()' \
	'  File "/venv/lib/python3.10/site-packages/triton/runtime/driver.py", line 20, in _initialize_obj' >"$WORK/tritoncut.log"
run_json explain -f "$WORK/tritoncut.log"
expect_json '.matches[0].signature == "explain.sig.triton_driver_setup" and .matches[0].causes[0].id == "explain.frameworks.triton_no_active_driver"'

# CMake's "CUDA compiler identification is unknown" then its internal
# _CMAKE_CUDA_WHOLE_FLAG: the compiler it was given was not identified
# (https://github.com/NVlabs/instant-ngp/issues/1475), looked at before
# anything changes; "No CMAKE_CUDA_COMPILER could be found" keeps nvcc's absence first
printf '%s\n' '-- The CUDA compiler identification is unknown' 'CMake Error: Error required internal CMake variable not set, cmake may not be built correctly.' 'Missing variable is:' '_CMAKE_CUDA_WHOLE_FLAG' >"$WORK/cmakewhole.log"
run_json explain -f "$WORK/cmakewhole.log"
expect_json '[.matches[] | .causes[0].id] | all(. == "explain.toolkit.cmake_cuda_unidentified")'
expect_json '.matches[0].causes[0].fix[0] | startswith("cmake --version")'
run_json explain 'No CMAKE_CUDA_COMPILER could be found.'
expect_json '.matches[0].causes[0].id == "explain.toolkit.cmake_nvcc"'

# "Unsupported gpu architecture": an old architecture a newer toolkit dropped
# leads with the dropped reading (CUDA 13 and compute_50,
# https://github.com/NVIDIA/cuda-samples/issues/382), a new one with an nvcc
# older than the GPU
run_json explain "nvcc fatal   : Unsupported gpu architecture 'compute_50'"
expect_json '.matches[0].causes[0].id == "explain.toolkit.nvcc_arch_dropped"'
run_json explain "nvcc fatal   : Unsupported gpu architecture 'compute_89'"
expect_json '.matches[0].causes[0].id == "explain.toolkit.nvcc_arch"'

# A kernel fault in Dr.Jit's generated code leads with the driver release
# (https://github.com/mitsuba-renderer/mitsuba3/issues/1455), looked at
# first; the same status elsewhere keeps the program's kernel first
run_json explain '>>> cuda_check(): API error 0718 (CUDA_ERROR_INVALID_PC): "invalid program counter" in D:\a\drjit\drjit\ext\drjit-core\src\init.cpp:462.'
expect_json '.matches[0].causes[0].id == "explain.host.jit_driver_release" and (.matches[0].causes[0].fix[0] | startswith("nvidia-smi"))'
run_json explain 'RuntimeError: CUDA error: misaligned address'
expect_json '.matches[0].causes[0].id == "explain.cuda.kernel_fault_other"'

# JAX's CUDA plugin unable to load a library it checks ("Unable to load
# cuSPARSE. Is it installed?"): another copy on LD_LIBRARY_PATH leads, as in
# the threads (https://github.com/jax-ml/jax/issues/29843); a conda-forge
# environment's packaging where the paste shows one
# (https://github.com/conda-forge/jaxlib-feedstock/issues/285)
run_json explain 'RuntimeError: Unable to load cuSPARSE. Is it installed?'
expect_json '.matches[0].signature == "explain.sig.jax_cuda_lib_check" and .matches[0].causes[0].id == "explain.tfjax.jax_cuda_lib_shadowed"'
run_json explain "$(printf '  File "/home/u/miniforge3/envs/jaxtest/lib/python3.12/site-packages/jax/_src/xla_bridge.py", line 421\nUnable to load cuFFT. Is it installed?')"
expect_json '.matches[0].causes[0].id == "explain.tfjax.jax_cuda_lib_missing"'

# cuDNN's CUDNN_STATUS_BAD_PARAM in ONNX Runtime's fused Conv+Add node: the
# fused node's parameters lead, not a missing driver
# (https://github.com/microsoft/onnxruntime/issues/17985)
run_json explain --platform native "Non-zero status code returned while running FusedConv node. Name:'Conv_41' Status Message: CUDNN failure 3: CUDNN_STATUS_BAD_PARAM ; GPU=0 ; expr=cudnnAddTensor(cudnnHandle, &alpha, Base::s_.z_tensor, Base::s_.z_data, &alpha, Base::s_.y_tensor, Base::s_.y_data)"
expect_json '.matches[0].signature == "explain.sig.cudnn_status" and .matches[0].causes[0].id == "explain.frameworks.cudnn_bad_param"'

# NVLS multicast refused (Fabric Manager, NVSwitch) leads under PyTorch's
# "unhandled cuda error" when NCCL's words name it
# (https://github.com/pytorch/ci-infra/pull/541); without them, an unhandled
# CUDA error on native Linux does not lead with NVLS, a rare condition there.
run_json explain --platform native "$(printf 'torch.distributed.DistBackendError: NCCL error in: NCCLUtils.cpp:93, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.29.3\nFailed to bind NVLink SHARP (NVLS) Multicast memory of size 2097152:\nCUDA error 401 the operation cannot be performed in the present state.')"
expect_json '.matches[0].causes[0].id == "explain.nccl.nvls"'
run_json explain --platform native 'torch.distributed.DistBackendError: NCCL error in: NCCLUtils.cpp:93, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5'
expect_json '.matches[0].causes[0].id != "explain.nccl.nvls"'

# ONNX Runtime's CUDA provider failing on a paste that does not say where it
# ran (the message is the same on Linux and Windows): the first step runs on
# both (pip, not the Linux loader cache); https://github.com/microsoft/onnxruntime/pull/21425
run_json explain "[W:onnxruntime:Default, onnxruntime_pybind_state.cc:965 onnxruntime::python::CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*, and the latest MSVC runtime. Please install all dependencies as mentioned in the GPU requirements page (https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements), make sure they're in the PATH, and that your GPU is supported."
expect_json '.matches[0].causes[0].id == "explain.apps.ort_cuda_libs" and (.matches[0].causes[0].fix[0] | startswith("python -m pip show onnxruntime-gpu"))'

# cuda-gdb without its back-end: in a container the runtime not binding the
# driver's libcudadebugger.so.1 leads, natively the library missing on the
# system (https://github.com/cms-sw/cmssw/issues/42963)
run_json explain --platform container "Could not find CUDA Debugger back-end. Please try upgrading/re-installing the GPU driver"
expect_json '.matches[0].signature == "explain.sig.cuda_debugger_backend" and .matches[0].causes[0].id == "explain.containers.cuda_debugger_not_injected"'
run_json explain --platform native "Could not find CUDA Debugger back-end. Please try upgrading/re-installing the GPU driver"
expect_json '.matches[0].causes[0].id == "explain.libs.cuda_debugger_backend_missing" and (.matches[0].causes[0].fix[0] | startswith("ldconfig -p"))'

# nvidia-ctk refusing daemon.json: the JSON leads, unless the paste shows a
# Docker that is not docker.service (the snap's own NVIDIA setup then leads;
# https://github.com/xark-argo/argo/issues/16)
run_json explain --platform native "ERRO[0000] unable to load config for runtime docker: invalid character '}' looking for beginning of object key string"
expect_json '.matches[0].causes[0].id == "explain.containers.daemon_json_invalid" and (.matches[0].causes[0].fix[0] | startswith("python3 -m json.tool"))'
run_json explain --platform native "$(printf 'ERRO[0000] unable to load config for runtime docker: invalid character looking for beginning of object key string\nFailed to restart docker.service: Unit docker.service not found.')"
expect_json '.matches[0].causes[0].id == "explain.containers.snap_docker"'

# ONNX Runtime's CUDA provider library failing to load (a CUDA 13 cuBLAS it
# needs is missing) and the session left with the CPU provider: the paste
# names the GPU package's provider library, so "only the CPU package" does
# not lead; the provider's CUDA libraries do
# (https://github.com/danielgatis/rembg/issues/841)
run_json explain "$(printf "Error loading onnxruntime_providers_cuda.dll: cublasLt64_13.dll is missing\n['CPUExecutionProvider']")"
expect_json '[.matches[] | select(.signature == "explain.sig.ort_cpu_providers")][0].causes[0].id == "explain.apps.ort_cuda_libs"'
run_json explain "$(printf "['CPUExecutionProvider']\nCUDAExecutionProvider is not in available provider names")"
expect_json '[.matches[] | select(.signature == "explain.sig.ort_cpu_providers")][0].causes[0].id == "explain.apps.ort_cpu_package"'

# nvidia-persistenced failing next to NVRM's API mismatch: a module is loaded
# (of another version), so the version mismatch leads and "no module loaded"
# and "Secure Boot refused it" go last (https://github.com/aws/amazon-ecs-ami/issues/256)
run_json explain "$(printf '%s\n' 'systemd[1]: Failed to start NVIDIA Persistence Daemon.' 'kernel: NVRM: API mismatch: the client has the version 535.183.01, but' 'NVRM: this kernel module has the version 535.161.07.  Please')"
expect_json '[.matches[] | select(.signature == "explain.sig.kmod_persistenced_failed")][0] | .causes[0].id == "explain.wide.nvrm_api_mismatch" and ([.causes[-2:][].id] | sort) == ["bridge.nvidia_dev.no_driver", "explain.host.secure_boot_rejects_module"]'
run_json explain --platform native "systemd[1]: Failed to start NVIDIA Persistence Daemon."
expect_json '.matches[0].causes[0].id == "bridge.nvidia_dev.no_driver"'

done_testing

# nvidia-container-cli refused the container's cgroup device rules: the query
# refused (operation not permitted: rootless, LXC, enroot) leads with the
# unprivileged reading, the kernel's verifier refusing the new program with
# the toolkit's release; a look comes first either way
# (https://github.com/NVIDIA/nvidia-container-toolkit/issues/1487,
# https://github.com/NVIDIA/nvidia-container-toolkit/issues/117)
run_json explain "nvidia-container-cli: mount error: failed to add device rules: unable to find any existing device filters attached to the cgroup: bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted"
expect_json '.matches[0].signature == "explain.sig.nvcli_device_rules" and .matches[0].causes[0].id == "explain.containers.nvcli_cgroup_unprivileged" and (.matches[0].causes[0].fix[0] | startswith("docker info"))'
run_json explain "nvidia-container-cli: mount error: failed to add device rules: unable to generate new device filter program from existing programs: unable to create new device filters program: load program: invalid argument: last insn is not an exit or jmp"
expect_json '.matches[0].signature == "explain.sig.nvcli_device_rules" and .matches[0].causes[0].id == "explain.containers.nvcli_bpf_toolkit_release" and (.matches[0].causes[0].fix[0] | startswith("nvidia-ctk --version"))'

# NVML's library not loadable in the application's own words ("Failed to load
# NVML"): in a container the runtime not passing the driver's libraries in
# leads (https://github.com/nanoporetech/dorado/issues/1450), a look first
run_json explain --platform container "$(printf '[info] Failed to load NVML\n[error] Invalid CUDA device index %s from device string "cuda:0", there are 0 visible CUDA devices.' "'0'")"
expect_json '.matches[0].signature == "explain.sig.nvml_lib_missing" and .matches[0].causes[0].id == "explain.containers.no_gpu_driver" and (.matches[0].causes[0].fix[0] | startswith("ldconfig -p"))'

# nvidia-container-cli's request to the host's driver timing out leads with
# persistence mode off, a look first
# (https://github.com/NVIDIA/nvidia-container-toolkit/issues/556); with the
# kernel log's RmInitAdapter in the paste, with a GPU that failed to come up
# (https://github.com/NVIDIA/nvidia-container-toolkit/issues/236)
run_json explain --platform container "nvidia-container-cli: initialization error: driver rpc error: timed out: unknown."
expect_json '.matches[0].signature == "explain.sig.nvcli_rpc_timeout" and .matches[0].causes[0].id == "explain.containers.nvcli_rpc_persistence" and (.matches[0].causes[0].fix[0] | startswith("nvidia-smi -q"))'
run_json explain --platform container "$(printf 'NVRM: GPU 0000:1b:00.0: RmInitAdapter failed! (0x25:0x65:1545)\nnvidia-container-cli: initialization error: driver rpc error: timed out: unknown')"
expect_json '[.matches[] | select(.signature == "explain.sig.nvcli_rpc_timeout")][0].causes[0].id == "explain.containers.nvcli_rpc_gpu_failed"'
