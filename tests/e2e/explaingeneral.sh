# explaingeneral.sh: messages every platform prints whose first-known causes
# are WSL's (a TensorFlow dlerror for libcuda.so.1, NVML's error 9,
# nvidia-smi's empty process list, systemctl without systemd...). On a
# native or container log the platform's own reading leads, with a first
# step that only looks; on WSL the WSL causes still lead; no WSL step is
# shown off WSL. Pastes from the reports cited in src/kb/explain-general.kb.
. "$(dirname "$0")/lib.sh"

fixture healthy-wsl2

# lead KIND ID TEXT: on a log from KIND (--platform), ID is the first cause,
# it applies there (not bound elsewhere), and no shown cause's fix line is
# a WSL step.
lead() {
	run_json explain --platform "$1" "$3"
	expect_json ".matches[0].causes[0].id == \"$2\" and .matches[0].causes[0].machine == null"
	expect_json '[.matches[0].causes[] | select(.machine == null) | .fix[] | select(test("wsl\\.exe|/usr/lib/wsl|PowerShell|\\.wslconfig"))] == []'
}

DLERR="2020-01-16 12:58:56.907133: W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load dynamic library 'libcuda.so.1'; dlerror: libcuda.so.1: cannot open shared object file: No such file or directory"
lead native explain.libs.native_driver_libs_missing "$DLERR"
# the first step looks (nvidia-smi), the install comes later and says where
expect_json '.matches[0].causes[0].fix[0] | startswith("nvidia-smi")'
lead container explain.containers.no_gpu_driver "$DLERR"
expect_json '.matches[0].causes[0].fix[0] | startswith("ldconfig -p")'
run_json explain --platform wsl2 "$DLERR"
expect_json '.matches[0].causes[0].id == "libs.loader.not_found"'
expect_json '[.matches[0].causes[] | select(.id == "explain.libs.native_driver_libs_missing") | .machine] == ["not_applicable"]'
# the text says where it ran: an NVRM line is native Linux's
run_json explain "$(printf 'NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.104.05\n%s' "$DLERR")"
expect_json '.log_platform.kind == "native" and ([.matches[] | select(.signature == "explain.sig.libcuda_so1_missing") | .causes[0].id] == ["explain.libs.native_driver_libs_missing"])'

lead native explain.libs.native_driver_libs_missing "failed call to cuInit: UNKNOWN ERROR (303)"
lead container explain.containers.no_gpu_driver "failed call to cuInit: UNKNOWN ERROR (303)"
NUMBA="numba.cuda.cudadrv.error.CudaSupportError: CUDA driver library cannot be found. If you are sure that a CUDA driver is installed, try setting environment variable NUMBA_CUDA_DRIVER with the file path of the CUDA driver shared library."
lead native explain.libs.native_driver_libs_missing "$NUMBA"
lead container explain.containers.no_gpu_driver "$NUMBA"
BNB="CUDA SETUP: WARNING! libcuda.so not found! Do you have a CUDA driver installed? If you are on a cluster, make sure you are on a CUDA machine!"
lead native explain.libs.native_driver_libs_missing "$BNB"
lead container explain.containers.no_gpu_driver "$BNB"

# Ollama's discovery prints the globs it searches on every host, WSL's
# among them: no WSL marker (the unknown log reads as this machine; natively
# the module left in a bad state leads)
OGLOB='time=2025-02-06T11:44:15.903Z level=DEBUG source=gpu.go:525 msg="gpu library search" globs="[/usr/local/lib/ollama/libcuda.so* /usr/lib/*-linux-gnu/libcuda.so* /usr/lib/wsl/lib/libcuda.so* /usr/lib/wsl/drivers/*/libcuda.so* /opt/cuda/lib*/libcuda.so*]"
cuInit err: 999'
run_json explain "$OGLOB"
expect_json '.log_platform.from == "machine" and .matches[0].signature == "explain.sig.cuda_unknown"'
lead native explain.host.uvm_bad_state "$OGLOB"
# Ollama's NVML 18 is the library/module version mismatch, not NVML's 9
run_json explain --platform native 'msg="Unable to load CUDA management library /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.545.29.06: nvml vram init failure: 18"'
expect_json '[.matches[].signature] == ["explain.sig.nvml_version_mismatch"] and .matches[0].causes[0].id == "explain.wide.nvrm_api_mismatch"'

# NVML's 9 is the kernel module not loaded on native Linux
OLLAMA='time=2024-01-10T10:00:00.000Z level=INFO source=gpu.go:88 msg="nvml vram init failure: 9"'
lead native explain.nvml.driver_not_loaded_native "$OLLAMA"
expect_json '.matches[0].causes[0].fix[0] | startswith("nvidia-smi")'
lead container explain.containers.no_gpu_driver "$OLLAMA"

# "kernel driver does not appear to be running": noise on WSL, the error on native
KDRV="I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:156] kernel driver does not appear to be running on this host (a88f782966c0): /proc/driver/nvidia/version does not exist"
lead native explain.frameworks.tf_kernel_driver_native "$KDRV"
expect_json '.matches[0].kind != "noise"'
expect_json '.matches[0].causes[0].fix[0] | startswith("cat /proc/driver/nvidia/version")'
lead container explain.containers.no_gpu_driver "$KDRV"
run_json explain --platform wsl2 "$KDRV"
expect_json '.matches[0].causes[0].id == "explain.frameworks.tf_kernel_driver_noise"'

# TensorFlow's NUMA line is harmless everywhere
NUMA="I tensorflow/stream_executor/cuda/cuda_gpu_executor.cc:937] successful NUMA node read from SysFS had negative value (-1), but there must be at least one NUMA node, so returning NUMA node zero"
lead native explain.frameworks.tf_numa_any "$NUMA"
expect_json '.matches[0].kind == "noise"'
lead container explain.frameworks.tf_numa_any "$NUMA"
run_json explain --platform wsl2 "$NUMA"
expect_json '.matches[0].causes[0].id == "explain.frameworks.tf_numa_noise"'

NCCL="RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:272, unhandled system error"
lead native explain.nccl.first_warn "$NCCL"
lead container explain.nccl.first_warn "$NCCL"
expect_json '[.matches[0].causes[].id] | index("explain.nccl.shm_small") != null'
run_json explain --platform wsl2 "$NCCL"
expect_json '.matches[0].causes[0].id == "explain.frameworks.nccl_old_wsl"'
PCI="bfclient02:14681:14750 [0] graph/xml.cc:332 NCCL WARN Could not find real path of /sys/class/pci_bus/0000:0d/../../0000:0d:00.0"
lead native explain.nccl.pci_path_missing "$PCI"
lead container explain.nccl.pci_path_missing "$PCI"

lead native explain.cuda.mempool_unsupported "MemoryError: std::bad_alloc: CUDA error at: rmm/mr/device/cuda_async_memory_resource.hpp: cudaErrorNotSupported operation not supported"
IRH="[reformat.cu::operator()::1606] Error Code 1: Cuda Runtime (invalid resource handle)"
lead native explain.cuda.invalid_handle "$IRH"
lead container explain.cuda.invalid_handle "$IRH"
run_json explain --platform wsl2 "$IRH"
expect_json '.matches[0].causes[0].id == "explain.cuda.ipc"'

# nvidia-smi
lead native explain.nvml.smi_not_installed_native "bash: nvidia-smi: command not found"
lead container explain.containers.no_gpu_driver "bash: nvidia-smi: command not found"
NOPROC="|  No running processes found                                                 |"
lead native explain.nvml.smi_no_processes_idle "$NOPROC"
lead container explain.nvml.smi_pid_namespace "$NOPROC"
NA="| 40%   45C    P0    N/A /  N/A |    185MiB /  1985MiB |     N/A      Default |"
lead native explain.nvml.smi_field_na "$NA"
lead container explain.nvml.smi_field_na "$NA"
lead native explain.nvml.query_not_supported "pynvml.nvml.NVMLError_NotSupported: Not Supported"
lead container explain.nvml.query_not_supported "pynvml.nvml.NVMLError_NotSupported: Not Supported"

# the platform itself
SYSD="System has not been booted with systemd as init system (PID 1). Can't operate."
lead native explain.platform.no_systemd_any "$SYSD"
lead container explain.platform.no_systemd_any "$SYSD"
expect_json '.matches[0].causes[0].fix[0] | startswith("ps -p 1")'
run_json explain --platform wsl2 "$SYSD"
expect_json '.matches[0].causes[0].id == "explain.wslstart.no_systemd"'
lead native explain.platform.exec_wrong_arch "bash: ./nvidia-smi.exe: cannot execute binary file: Exec format error"
lead native explain.memory.init_exited "Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b"
lead container explain.memory.init_exited "Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b"
# a compose file's GPU request: under limits it is misplaced; under
# reservations the reader (docker-compose 1.x, docker stack deploy) is too old
lead container explain.containers.compose_devices_under_limits "services.api.deploy.resources.limits Additional property devices is not allowed"
lead native explain.containers.compose_devices_unsupported "services.test.deploy.resources.reservations Additional property devices is not allowed"
# an SELinux denial on the NVIDIA device files: the label, per container first
lead native explain.containers.selinux_gpu_devices 'type=AVC msg=audit(1684465329.146:355): avc:  denied  { read write } for  pid=4242 comm="python" name="nvidiactl" dev="devtmpfs" scontext=system_u:system_r:container_t:s0:c380,c597 tcontext=system_u:object_r:xserver_misc_device_t:s0 tclass=chr_file permissive=0'
expect_json '.matches[0].causes[0].fix[0] | test("label=disable")'
# a pod the kubelet could not give its GPU: a stale allocation record when
# the paste counts "Available: 0", an unhealthy or lost GPU when it says so
lead container explain.containers.k8s_allocate_stale "Pod Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested:1, Available: 0, which is unexpected"
expect_json '.matches[0].causes[0].fix[0] | startswith("kubectl describe node")'
lead native explain.containers.k8s_allocate_unhealthy "Pod Allocate failed due to device plugin GetPreferredAllocation rpc failed with err: rpc error: code = Unknown desc = Unable to retrieve list of available devices: error creating nvml.Device 3: nvml: GPU is lost, which is unexpected"
LIBPATH="AttributeError: /lib/x86_64-linux-gnu/libcuda.so: undefined symbol: undef"
lead native explain.libs.native_driver_path "$LIBPATH"
lead container explain.libs.native_driver_path "$LIBPATH"
run_json explain --platform wsl2 "$LIBPATH"
expect_json '.matches[0].causes[0].id == "libs.loader.distro_package"'

# A paste from a Mac, or from a machine whose GPU is AMD's or Intel's: no
# CUDA can run there, so that reading leads on every platform the text
# leaves open (and on native Linux, in a container); without such words
# the general readings lead and no CUDA-install step comes first.
MAC="$(printf '%s\n' '  File "/Users/prashantsoni/pinokio/api/wan2gp.git/app/env/lib/python3.10/site-packages/torch/cuda/__init__.py", line 471, in _lazy_init' '    raise AssertionError("Torch not compiled with CUDA enabled")' 'AssertionError: Torch not compiled with CUDA enabled')"
run_json explain "$MAC"
expect_json '[.matches[].causes[0].id] | unique == ["explain.frameworks.macos_no_cuda"]'
expect_json '.matches[0].causes[0].fix[0] | startswith("python3 -c")'
expect_json '.matches[0].causes[0].words.support == ["/Users/"]'
for kind in native container; do
	lead $kind explain.frameworks.macos_no_cuda "$MAC"
done
MACDRV="$(printf '%s\n' 'RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx' '  File "/opt/homebrew/Caskroom/miniconda/base/lib/python3.11/site-packages/torch/cuda/__init__.py", line 302, in _lazy_init')"
run_json explain "$MACDRV"
expect_json '.matches[0].causes[0].id == "explain.frameworks.macos_no_cuda"'
# the same error with Linux paths: the CPU-only build, no Mac reading first
LINUX="$(printf '%s\n' '  File "/home/ana/venv/lib/python3.10/site-packages/torch/cuda/__init__.py", line 289, in _lazy_init' 'AssertionError: Torch not compiled with CUDA enabled')"
run_json explain "$LINUX"
expect_json '.matches[0].causes[0].id == "frameworks.torch.cpu_only"'
expect_json '[.matches[].causes[0].id] | unique == ["frameworks.torch.cpu_only"]'
# a Linux home folder rules the Mac out: it goes after the other readings
expect_json '[.matches[0].causes[] | select(.id == "explain.frameworks.macos_no_cuda") | .words.exclude] == [["/home/"]]'
expect_json '[.matches[0].causes[].id] | index("explain.frameworks.macos_no_cuda") > index("explain.frameworks.gpu_not_nvidia")'
# a Windows user folder is no Mac's
run_json explain 'File "C:\Users\ana\ComfyUI\venv\lib\site-packages\torch\cuda\__init__.py", line 310, in _lazy_init
AssertionError: Torch not compiled with CUDA enabled'
expect_json '.matches[0].causes[0].id == "explain.frameworks.torch_cpu_windows"'
AMD="$(printf '%s\n' 'System specs are a Ryzen 7 3700x and a Radeon 6700XT.' 'RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx')"
run_json explain "$AMD"
expect_json '.matches[0].causes[0].id == "explain.frameworks.gpu_not_nvidia"'
expect_json '.matches[0].causes[0].fix[0] | startswith("python -c")'
for kind in native container; do
	lead $kind explain.frameworks.gpu_not_nvidia "$AMD"
done
run_json explain --platform windows "$AMD"
expect_json '.matches[0].causes[0].id == "explain.frameworks.gpu_not_nvidia"'
ARC='RuntimeError: No CUDA GPUs are available
lspci: 03:00.0 VGA compatible controller: Intel Corporation DG2 [Arc A770], driver=i915; Intel(R) Arc(TM) A770 Graphics, XPU'
lead native explain.frameworks.gpu_not_nvidia "$ARC"
# a laptop with Intel's graphics and an NVIDIA GPU: the NVIDIA readings lead
run_json explain 'RuntimeError: Found no NVIDIA driver on your system.
GPU 0: Intel(R) UHD Graphics 630, GPU 1: NVIDIA GeForce RTX 3060 Laptop GPU'
expect_json '.matches[0].causes[0].id == "explain.cuda.no_device_any"'
# collect_env's "ROCM used to build PyTorch: N/A" and "Is XPU available:
# False" are in every NVIDIA user's report: no vendor reading from them
run_json explain 'RuntimeError: No CUDA GPUs are available
ROCM used to build PyTorch: N/A
Is XPU available: False'
expect_json '.matches[0].causes[0].id == "explain.cuda.no_device_any" and .matches[0].causes[0].words == null'
# ZLUDA runs CUDA programs on an AMD GPU on purpose
run_json explain --platform native 'HIP_VISIBLE_DEVICES=1 python main.py  # ComfyUI-Zluda on a Radeon RX 7800 XT
RuntimeError: No CUDA GPUs are available'
expect_json '.matches[0].causes[0].id == "explain.cuda.no_device_any"'

# The GPU's GSP firmware on native Linux and in a container on it: its own
# causes, a look first (dmesg, the release and the module's flavour), a GPU
# the driver says needs a reset first where the paste says so; a C compiler's
# error on the NVIDIA module's own file is the module's build.
GSP="[  903.609564] NVRM: RmInitAdapter: Cannot initialize GSP firmware RM"
for kind in native container; do
	lead $kind explain.kmod.gsp_boot_failed "$GSP"
	expect_json '.matches[0].causes[0].fix[0] | startswith("sudo dmesg")'
done
WPR2="$(printf '%s\n' '[  101.287612] NVRM: GPU6 _kgspBootGspRm: unexpected WPR2 already up, cannot proceed with booting GSP' '[  101.287620] NVRM: GPU6 _kgspBootGspRm: (the GPU is likely in a bad state and may need to be reset)')"
lead native explain.kmod.gsp_gpu_needs_reset "$WPR2"
expect_json '.matches[0].causes[0].fix[0] | startswith("sudo dmesg")'
run_json explain --platform wsl2 "$GSP"
expect_json '[.matches[0].causes[] | .machine] | unique == ["not_applicable"]'
# gcc stopping in the module's own file on a function the kernel removed:
# the kernel changed under the driver release (a newer release, or the
# previous kernel), ahead of the general reading
lead native explain.wide.module_kernel_newer "/var/lib/dkms/nvidia/535.183.01/build/nvidia/nv-pci.c:240:9: error: implicit declaration of function 'pci_enable_msix'"
# with no word of a changed function, the general reading leads
lead native explain.wide.module_build "/var/lib/dkms/nvidia/535.183.01/build/nvidia/nv-pci.c:240:9: error: expected ';' before 'return'"
# nvidia-persistenced on Grace Hopper that cannot turn on NUMA memory
# onlining: that reading leads where the paste shows it, a look first.
PERSIST="$(printf '%s\n' 'nvidia-persistenced[1405]: NUMA: Enabling NUMA memory Auto-Online due to GPU requirement' 'nvidia-persistenced[1405]: NUMA: Failed to open /sys/devices/system/memory/auto_online_blocks: Permission denied' 'nvidia-persistenced[1400]: nvidia-persistenced failed to initialize. Check syslog for more details.')"
lead native explain.kmod.persistenced_numa_online "$PERSIST"
expect_json '.matches[0].causes[0].fix[0] | startswith("cat /sys")'
# The GPU Operator's validator with no nvidia-smi under its driver root: a
# look at the driver pods first, never a WSL step.
lead container explain.containers.operator_driver_root "chroot: failed to run command 'nvidia-smi': No such file or directory"
expect_json '.matches[0].causes[0].fix[0] | startswith("kubectl")'

# "No NVIDIA kernel module loaded" on native Linux has several readings (not
# installed, not built for this kernel, Secure Boot, another driver holding
# the GPU): a look that tells them apart leads, not one reading's step;
# Secure Boot leads only where the paste shows its evidence.
for t in "ls: cannot access '/dev/nvidia0': No such file or directory" \
	"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running."; do
	run_json explain --platform native "$t"
	expect_json '.matches[0].causes[0].id != "explain.host.secure_boot_rejects_module"'
	expect_json '.matches[0].causes[0].fix[0] | startswith("lsmod | grep nvidia")'
	expect_json '[.matches[].causes[].fix[0] | select(startswith("sudo modprobe"))] == []'
done
# modprobe's "not found in directory /lib/modules/VERSION" already says which:
# no module for the running kernel; its look (the running kernel against the
# kernels that have modules) leads, still no Secure Boot and no modprobe.
run_json explain --platform native "modprobe: FATAL: Module nvidia not found in directory /lib/modules/6.8.0-45-generic"
expect_json '.matches[0].causes[0].id == "explain.kmod.no_module_for_kernel"'
expect_json '.matches[0].causes[0].fix[0] | startswith("uname -r; ls /lib/modules/")'
expect_json '[.matches[].causes[].fix[0] | select(startswith("sudo modprobe"))] == []'
# A typed modprobe nvidia whose output shows the kernel loading the module
# (its taint notes and NVRM's banner, as the kernel prints them:
# https://github.com/NVIDIA/open-gpu-kernel-modules/issues/838) is no missing
# module: the loaded reading leads with a look at the kernel's lines after
# it, and no module-missing, other-kernel or Secure Boot reading comes first
LOADED="$(printf '%s\n' '$ sudo modprobe nvidia' 'nvidia: loading out-of-tree module taints kernel.' 'nvidia-nvlink: Nvlink Core is being initialized, major device number 510' 'NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  575.51.02  Release Build  (dvs-builder@U22-I3-G01-3-2)  Thu Apr 10 15:55:07 UTC 2025')"
run_json explain "$LOADED"
expect_json '.matches[0].signature == "explain.sig.myth_modprobe" and .matches[0].causes[0].id == "explain.kmod.modprobe_loaded" and (.matches[0].causes[0].fix[0] | startswith("sudo dmesg"))'
run_json explain --platform native "$LOADED"
expect_json '.matches[0].causes[0].id == "explain.kmod.modprobe_loaded"'
# the same command with modprobe's refusal keeps the missing module first
run_json explain --platform native "$(printf '$ sudo modprobe nvidia\nmodprobe: FATAL: Module nvidia not found in directory /lib/modules/6.8.0-45-generic')"
expect_json '.matches[0].causes[0].id == "explain.kmod.no_module_for_kernel"'
KEY="mar 06 15:10:43 CS3003NS gdm3[7055]: modprobe: ERROR: could not insert 'nvidia': Key was rejected by service"
run_json explain "$KEY"
expect_json '.matches[0].signature == "explain.sig.module_key_rejected" and .matches[0].causes[0].id == "explain.host.secure_boot_rejects_module"'
expect_json '.matches[0].causes[0].fix[0] | startswith("mokutil --sb-state")'
for kind in native container; do
	run_json explain --platform $kind "$KEY"
	expect_json '.matches[0].causes[0].id == "explain.host.secure_boot_rejects_module"'
done
# the kernel refusing the module by privilege or policy (EPERM, EACCES): a look
# at lockdown, Secure Boot and SELinux leads, never a reinstall or a modprobe
for kind in native container; do
	run_json explain --platform $kind "modprobe: ERROR: could not insert 'nvidia': Operation not permitted"
	expect_json '.matches[0].signature == "explain.sig.kmod_load_denied" and .matches[0].causes[0].id == "explain.kmod.module_load_denied"'
	expect_json '.matches[0].causes[0].fix[0] | startswith("cat /sys/kernel/security/lockdown")'
done
# the Secure Boot state pasted next to nvidia-smi's failure
run_json explain --platform native "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.
\$ mokutil --sb-state
SecureBoot enabled"
expect_json '.matches[0].causes[0].id == "explain.host.secure_boot_rejects_module" and .matches[0].causes[0].words.support == ["secureboot enabled"]'
# ...and Secure Boot off rules it out
run_json explain --platform native "ls: cannot access '/dev/nvidia0': No such file or directory
SecureBoot disabled"
expect_json '[.matches[0].causes[] | select(.id == "explain.host.secure_boot_rejects_module") | .words.exclude] == [["secureboot disabled"]]'

# Every fix line the causes that apply show, on native Linux and in a
# container, runs as printed (bash -n; a template or an instruction is a
# comment there).
for kind in native container; do
	run_json explain --platform $kind -f "$top/tests/explain/general.log"
	expect_json '[.matches[].causes[] | select(.machine == null)] | length > 8'
	selected || continue
	jq -r '.matches[].causes[] | select(.machine == null) | .fix[]' "$JSON" >"$WORK/fixes"
	bad=""
	while IFS= read -r line; do
		bash -n -c "$line" 2>/dev/null || bad="$bad[$line] "
	done <"$WORK/fixes"
	if [ -z "$bad" ] && [ -s "$WORK/fixes" ]; then ok "$kind: every fix line passes bash -n"; else fail "$kind: fix lines bash -n rejects: $bad"; fi
done


# CUDA's "operation not supported" (801): with no other words the driver's
# version is read first (a feature newer than an R525 driver); a vGPU
# profile's name or PyTorch's expandable segments put the vGPU's missing
# memory features first; 304 (an OS call failed) is its own message
lead native explain.cuda.ns_driver_feature 'RuntimeError: CUDA error: operation not supported'
expect_json '.matches[0].causes[0].fix[0] | startswith("nvidia-smi")'
lead native explain.cuda.ns_vgpu_vmm "$(printf 'GPU 0: GRID V100D-32C\n  what():  [TM][ERROR] CUDA runtime error: operation not supported /lmdeploy/src/turbomind/utils/allocator.h:197')"
lead container explain.cuda.ns_vgpu_vmm "$(printf 'PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\nRuntimeError: CUDA driver error: operation not supported')"
run_json explain --platform native 'pycuda._driver.LogicError: cuMemHostAlloc failed: OS call failed or operation not supported on this OS'
expect_json '.matches[0].signature == "explain.sig.cuda_os_call_failed" and .matches[0].causes[0].id == "cuda.init.os_error"'

# cuBLAS's INVALID_VALUE from a framework's GEMM: the cuBLAS of another CUDA
# release than the framework's leads, read with pip first, not a missing driver
lead native explain.cuda.cublas_invalid_value_mix 'RuntimeError: CUDA error: CUBLAS_STATUS_INVALID_VALUE when calling `cublasGemmEx( handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16BF, lda, b, CUDA_R_16BF, ldb, &fbeta, c, CUDA_R_16BF, ldc, CUDA_R_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`'
expect_json '.matches[0].signature == "explain.sig.cublas_invalid_value" and (.matches[0].causes[0].fix[0] | startswith("python -m pip list"))'

# XLA's "Could not create cudnn handle" under JAX's frames is the cuDNN JAX
# loaded; under TensorFlow, memory TensorFlow reserved keeps its place
lead native explain.frameworks.cudnn_mismatch "$(printf 'E0515 10:03:24.130426   19611 cuda_dnn.cc:534] Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR\nE0515 10:03:24.130458   19611 cuda_dnn.cc:538] Memory usage: 7973961728 bytes free, 8198619136 bytes total.\njax.errors.SimplifiedTraceback: For simplicity, JAX has removed its internal frames')"
lead native explain.tfjax.tf_memory "$(printf '2019-01-02 10:00:00.000000: E tensorflow/stream_executor/cuda/cuda_dnn.cc:334] Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR\n  File "/usr/lib/python3/dist-packages/tensorflow/python/keras/engine/training.py", line 1')"

# Paddle's dynamic loader missing a CUDA library: the wheel's own CUDA and
# cuDNN releases are read first (a look that runs on Linux and Windows)
lead native explain.frameworks.paddle_cuda_libs 'W1209 16:01:34.575943 170444 dynamic_loader.cc:314] The third-party dynamic library (libcudnn.so) that Paddle depends on is not configured correctly. (error code is /usr/local/cuda/lib64/libcudnn.so: cannot open shared object file: No such file or directory)'
expect_json '.matches[0].signature == "explain.sig.paddle_dynload_cuda_lib" and (.matches[0].causes[0].fix[0] | startswith("python -c \"import paddle"))'

# A driver older than the program's CUDA: every platform's log gets a way to
# update it where it is (natively the distribution's packages, in a container
# the host's driver; on WSL the Windows driver), after the look.
OLD="RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx"
for kind in native container; do
	lead "$kind" explain.host.driver_too_old "$OLD"
	expect_json '.matches[0].causes[0].fix[0] | startswith("nvidia-smi")'
	expect_json '[.matches[0].causes[0].fix[] | select(startswith("# update the NVIDIA driver to a release"))] | length == 1'
done
run_json explain --platform wsl2 "$OLD"
expect_json '[.matches[0].causes[0].fix[] | select(startswith("# update the NVIDIA driver on Windows"))] | length == 1'
expect_json '[.matches[0].causes[0].fix[] | select(startswith("# update the NVIDIA driver to a release"))] == []'
# The container toolkit's CUDA requirement: the host's driver is updated
# where the host is (natively its packages; Docker Desktop or WSL: Windows').
REQ="nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.4, please update your driver to a newer version, or use an earlier cuda container: unknown."
run_json explain --platform native "$REQ"
expect_json '.matches[0].causes[0].id == "explain.containers.require_cuda"'
expect_json '[.matches[0].causes[0].fix[] | select(startswith("# update the host'"'"'s NVIDIA driver"))] | length == 1'
expect_json '[.matches[0].causes[0].fix[] | select(test("wsl\\.exe|on Windows"))] == []'
run_json explain --platform wsl2 "$REQ"
expect_json '[.matches[0].causes[0].fix[] | select(startswith("# update the NVIDIA driver on Windows"))] | length == 1'

# "Could not find cuda drivers" is jaxlib's line too: JAX's reading leads
# where the paste shows JAX, TensorFlow's where it shows TensorFlow
NOCUDA='I external/tsl/tsl/cuda/cudart_stub.cc:31] Could not find cuda drivers on your machine, GPU will not be used.'
lead native explain.tfjax.jax_cudart_stub ">>> import jaxlib.xla_client
2024-01-22 16:27:55.773987: $NOCUDA"
lead native frameworks.tensorflow.libs_missing ">>> import tensorflow as tf
2024-06-07 14:17:16.238228: $NOCUDA"

# PyTorch's environment report of a CPU-only build on aarch64: PyPI's CPU
# wheel for ARM leads there
lead native explain.frameworks.torch_cpu_aarch64 'CUDA used to build PyTorch: Could not collect
OS: Ubuntu 22.04.4 LTS (aarch64)
GPU models and configuration: GPU 0: NVIDIA GH200 480GB'

# cuFFT's internal error: an old build on an RTX 40 GPU leads on every
# platform; where the paste shows memory pressure, that reading leads
CUFFT='RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR'
lead native explain.toolkit.cufft_old_build_ada "$CUFFT
GPU models and configuration: GPU 0: NVIDIA GeForce RTX 4090"
lead wsl2 explain.toolkit.cufft_old_build_ada "$CUFFT"
run_json explain --platform container "$CUFFT
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB"
expect_json '[.matches[] | select(.signature == "explain.sig.cufft_internal_error") | .causes[0].id] == ["explain.toolkit.cufft_low_memory"]'
expect_json '.matches[] | select(.signature == "explain.sig.cufft_internal_error") | .causes[0].fix[0] | startswith("nvidia-smi")'

# a container with no driver mounted: PyTorch's "Found no NVIDIA driver" in
# a pod leads with the runtime that mounted nothing; the text says it is a
# container by kubectl's pod state or a CI job container's workspace
lead container explain.containers.no_gpu_driver 'Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx'
run_json explain 'test-gpu-0   0/1   CrashLoopBackOff   4   3m
/usr/bin/coreutils: error while loading shared libraries: libcuda.so.1: cannot open shared object file: No such file or directory'
expect_json '.log_platform.kind == "container" and .matches[0].causes[0].id == "explain.containers.no_gpu_driver"'
run_json explain '/__w/_temp/0a1b.sh: line 1: nvidia-smi: command not found'
expect_json '.log_platform.kind == "container" and .matches[0].causes[0].id == "explain.containers.no_gpu_driver"'

# HAMi-core's refusal past a pod's vGPU memory limit reads as a container's
# and leads with the pod's limit; its count below zero with the miscount
run_json explain '[HAMI-core ERROR (pid:25 thread=139892685178688 allocator.c:53)]: Device 0 OOM 27147995136 / 25757220864'
expect_json '.log_platform.kind == "container" and .matches[0].causes[0].id == "explain.containers.hami_gpumem_limit"'
expect_json '.matches[0].causes[0].fix[0] | test("kubectl get pod")'
run_json explain '[HAMI-core ERROR (pid:38 thread=140412686483456 allocator.c:53)]: Device 0 OOM 18446744073604695040 / 5368709120'
expect_json '.matches[0].causes[0].id == "explain.containers.hami_miscount"'

# an empty driver library in a container leads with the runtime that did not
# mount the host's over it; off containers the broken file's general reading
lead container explain.containers.driver_lib_placeholder 'ImportError: /usr/lib/x86_64-linux-gnu/libcuda.so.1: file too short'
lead native explain.toolkit.lib_file_broken 'red_serving: error while loading shared libraries: libnvidia-ml.so.1: file too short'

# Docker's --gpus with no vendor's CDI specification: the missing
# specification leads; an iGPU named in the paste puts "no NVIDIA GPU" first
CDI='docker: Error response from daemon: failed to discover GPU vendor from CDI: no known GPU vendor found'
lead native explain.containers.cdi_no_spec "$CDI"
expect_json '.matches[0].causes[0].fix[0] | startswith("ls -l /etc/cdi")'
lead container explain.containers.cdi_no_nvidia_gpu "The GPU on my server is an Intel Broadwell-U GT2 [HD Graphics 5500].
$CDI"

# the device plugin finding no NVML leads with the runtime its pod runs
# under, the node without a driver next; GKE's installer waiting for a driver
# that its pool does not install leads with the pool
DP='I0402 12:47:47.247350       1 factory.go:104] Detected non-NVML platform: could not load NVML library: libnvidia-ml.so.1: cannot open shared object file: No such file or directory
E0402 12:47:47.247405       1 factory.go:112] Incompatible platform detected'
lead container explain.containers.k8s_runtime "$DP"
expect_json '[.matches[0].causes[].id][1] == "explain.containers.k8s_node_no_driver"'
lead container explain.containers.k8s_node_no_driver 'GPU driver auto installation is disabled.
Waiting for GPU driver libraries to be available.'

# eglInitialize failing: with the platform unknown the driver's EGL part is
# looked at first; in a container the vendor file the runtime did not bind
lead native explain.containers.egl_no_nvidia_driver 'eglinfo: eglInitialize failed'
lead container explain.containers.egl_vendor_missing 'eglinfo: eglInitialize failed'

# CTranslate2 asking for cuDNN 8: look first (pip list), then put pip's
# cuDNN folder on the loader's path; the install named for cuDNN 8's log
# moves ctranslate2 to cuDNN 9 with it, not cuDNN 9 alone
run_json explain --platform native 'Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory'
expect_json '.matches[0].causes[0].id == "explain.apps.ct2_cudnn" and (.matches[0].causes[0].fix[0] | startswith("python -m pip list"))'
expect_json '.matches[0].causes[0].fix[1] | startswith("export LD_LIBRARY_PATH=")'
expect_json '[.matches[0].causes[0].fix[] | select(startswith("python -m pip install --upgrade ctranslate2"))] | length == 1'

# Triton's ptxas failing: its own words lead with bfloat16 below Ampere, a
# look at the GPU's compute capability first; a Blackwell GPU's ptxas
# failure (sm_120) keeps the architecture's reading first
run_json explain --platform native "$(printf '%s\n%s' "ptxas /tmp/tmpmfrp_3wp.ptx, line 281; error   : Feature '.bf16' requires .target sm_80 or higher" 'RuntimeError: `ptxas` failed with error code 255:')"
expect_json '[.matches[].causes[0].id] | unique == ["explain.wide.triton_bf16_pre_ampere"]'
expect_json '.matches[0].causes[0].fix[0] | startswith("nvidia-smi --query-gpu=name,compute_cap")'
run_json explain --platform native "subprocess.CalledProcessError: Command '['/x/triton/backends/nvidia/bin/ptxas', '-lineinfo', '-v', '--gpu-name=sm_120', '/tmp/t.ptx', '-o', '/tmp/t.ptx.o']' returned non-zero exit status 255."
expect_json '.matches[0].causes[0].id != "explain.wide.triton_bf16_pre_ampere"'

# the command that printed the paste says where it ran: `docker logs` is a
# container's output (ollama/ollama#4216), so a missing libcuda there
# leads with the container started without the GPU
run_json explain "$(printf '%s\n%s' ' docker container logs ab3d7ca114c0' 'OSError: libcuda.so.1: cannot open shared object file: No such file or directory')"
expect_json '.log_platform.kind == "container" and .log_platform.from == "text"'
expect_json '.matches[0].causes[0].id == "explain.containers.no_gpu_driver"'

# NCCL's IB transport failing a transfer: error 4 (GPUDirect RDMA through
# ACS) leads with the ACS look; status=12 (retries exceeded) with the network
IB4='kolyoz2:25146:25854 [0] ib_plugin.c:1105 NCCL WARN NET/IB : Got completion from peer 10.0.35.1<49189> with error 4, opcode 5327, len 5327, vendor err 81 (Send)'
lead native explain.nccl.ib_completion_acs "$IB4"
expect_json '.matches[0].causes[0].fix[0] | startswith("sudo lspci")'
lead container explain.nccl.ib_completion_acs "$IB4"
lead native explain.nccl.ib_completion_network 'hostname-test:984:1357 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer 172.36.143.59<44206> with status=12 opcode=129 len=65536 vendor err 129 (Recv)'

# apt refusing the driver's packages: on native Linux the mixed sources lead
# with a look (apt-cache policy); dpkg -i one at a time with apt's own order
lead native explain.host.deb_driver_deps ' nvidia-driver-535-open : Depends: libnvidia-gl-535 (= 535.54.03-0ubuntu0.22.04.1) but 535.54.03-0ubuntu1 is to be installed'
expect_json '.matches[0].causes[0].fix[0] | test("apt-cache policy")'
lead native explain.host.deb_driver_debs_one_by_one 'dpkg: dependency problems prevent configuration of libnvidia-decode-570:amd64:
 libnvidia-decode-570:amd64 depends on libnvidia-compute-570 (= 570.124.06-0ubuntu1); however:
  Package libnvidia-compute-570 is not installed.'

# A general cause's sentence about another platform goes once the log's
# platform is established: "On WSL the Windows desktop shares the GPU's
# memory" not on a native log, kept on WSL's and where nothing says.
OOM='torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 7.79 GiB of which 3.19 MiB is free.'
run_json explain --platform native "$OOM"
expect_json '.matches[0].causes[0].id == "explain.cuda.vram_oom"'
expect_json '[.matches[].causes[].cause | select(test("On WSL"))] == []'
expect_json '.matches[0].causes[0].cause | test("did not fit")'
run_json explain --platform wsl2 "$OOM"
expect_json '.matches[0].causes[0].cause | test("On WSL the Windows desktop")'
run_json explain "$OOM"
expect_json '.matches[0].causes[0].cause | test("On WSL the Windows desktop")'

# a library built for one torch under another: NCCL's own call missing
# from an older libnccl.so.2 leads with the nvidia-nccl packages (pip list),
# torchaudio's C++ symbol with torch, torchvision and torchaudio as a set
lead native explain.frameworks.torch_nccl_older 'ImportError: /usr/local/lib/python3.12/dist-packages/torch/lib/libtorch_cuda.so: undefined symbol: ncclCommInitRankScalable'
expect_json '.matches[0].causes[0].fix[0] | test("pip show")'
lead container explain.frameworks.torchvision_mismatch 'OSError: /usr/local/lib/python3.8/dist-packages/torchaudio/lib/libtorchaudio.so: undefined symbol: _ZNK3c107SymBool10guard_boolEPKcl'
lead native explain.frameworks.torchvision_mismatch 'RuntimeError: operator torchvision::nms does not exist'

# TensorRT's builder stops on an internal check: this release's limit with
# the graph leads; where the log shows tactics skipped for memory, memory
# (open-mmlab/mmdeploy#1059: its warnings, and its title's words)
lead native explain.toolkit.trt_builder_limit '[E] Error[2]: [graphShapeAnalyzer.cpp::eraseFromTensorMaps::1138] Error Code 2: Internal Error (Assertion !mValueMapUndo failed. )'
expect_json '.matches[0].causes[0].fix[0] | test("trtexec")'
lead container explain.toolkit.trt_builder_memory "[09/16/2022-10:45:55] [W] [TRT] Tactic Device request: 4363MB Available: 3790MB. Device memory is insufficient to use tactic.
[09/16/2022-10:45:55] [W] [TRT] Skipping tactic 3 due to insuficient memory on requested size of 4363 detected for tactic 4.
Could not find any implementation for node MaxPool"

# TensorFlow's generated kernels do not load on a GPU newer than its build:
# the module's load leads, not the invalid handles after it (Open_Duck_Playground#16)
lead native explain.frameworks.ptx_jit_new_gpu "W tensorflow/compiler/mlir/tools/kernel_gen/tf_gpu_runtime_wrappers.cc:40] 'cuModuleLoadData(&module, data)' failed with 'CUDA_ERROR_INVALID_PTX'
W tensorflow/compiler/mlir/tools/kernel_gen/tf_gpu_runtime_wrappers.cc:40] 'cuModuleGetFunction(&function, module, kernel_name)' failed with 'CUDA_ERROR_INVALID_HANDLE'"
expect_json '.matches[0].signature == "explain.sig.cuda_module_load_ptx" and (.matches[0].causes[0].fix[0] | test("nvidia-smi"))'

# only_own_framework ID OTHER TEXT: on a native log the cause ID is shown
# and none of its fix lines matches OTHER (another framework's install line)
only_own_framework() {
	run_json explain --platform native "$3"
	expect_json "[.matches[0].causes[] | select(.id == \"$1\")] | length == 1"
	expect_json "[.matches[0].causes[] | select(.id == \"$1\") | .fix[] | select(test(\"$2\"))] == []"
}

# XLA without libdevice or ptxas: a look first, and the install line of the
# framework the paste names (a JAX paste gets no TensorFlow install)
only_own_framework explain.tfjax.libdevice tensorflow 'jaxlib.xla_extension.XlaRuntimeError: INTERNAL: libdevice not found at ./libdevice.10.bc'
expect_json '.matches[0].causes[0].id == "explain.tfjax.libdevice" and (.matches[0].causes[0].fix[0] | test("glob"))'
only_own_framework explain.tfjax.ptxas_missing tensorflow "jaxlib.xla_extension.XlaRuntimeError: NOT_FOUND: Couldn't find a suitable version of ptxas. The following locations were considered: bin/ptxas, /usr/local/cuda/bin/ptxas"
expect_json '.matches[0].causes[0].id == "explain.tfjax.ptxas_missing" and (.matches[0].causes[0].fix[0] | startswith("ptxas --version"))'

# an extension built where PyTorch sees no GPU: in a container's log, the
# container started without GPU access leads; elsewhere the build's reading
lead container explain.containers.no_gpu_driver "No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'"
lead native explain.frameworks.no_cuda_runtime_build "No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'"
# cuDNN older than the framework's on a TensorFlow paste: TensorFlow's install line, not JAX's
only_own_framework explain.frameworks.cudnn_mismatch 'jax\\[' 'W tensorflow/core/framework/op_kernel.cc:1839] OP_REQUIRES failed: DNN library initialization failed. Look at the errors above for more details.'
expect_json '[.matches[0].causes[] | select(.id == "explain.frameworks.cudnn_mismatch") | .fix[] | select(test("tensorflow\\[and-cuda\\]"))] | length == 1'

# Ollama's installer without lspci/lshw: the installer's own check, not WSL's
# PATH, off WSL; a CPU-runner list: the install's missing CUDA runner
lead container explain.apps.ollama_install_no_pci_tools "WARNING: Unable to detect NVIDIA/AMD GPU. Install lspci or lshw to automatically detect and install GPU dependencies."
lead native explain.apps.ollama_install_no_pci_tools "WARNING: Unable to detect NVIDIA/AMD GPU. Install lspci or lshw to automatically detect and install GPU dependencies."
lead native explain.apps.ollama_runners_missing 'time=2025-02-12T14:19:55.576+08:00 level=INFO source=routes.go:1267 msg="Dynamic LLM libraries" runners=[cpu]'

# a CUDA sample pod granted nvidia.com/gpu but run without the NVIDIA runtime
# class prints 35 (gpu-operator#415, PR 1017; microk8s#4496): in a pod the
# missing runtime leads, natively the old driver does
VADD="$(printf '$ kubectl logs cuda-vectoradd\n[Vector addition of 50000 elements]\nFailed to allocate device vector A (error code CUDA driver version is insufficient for CUDA runtime version)!')"
run_json explain "$VADD"
expect_json '.log_platform.kind == "container" and .matches[0].causes[0].id == "explain.containers.no_driver_libs_35"'
expect_json '.matches[0].causes[0].fix[0] | startswith("ldconfig -p")'
lead native explain.host.driver_too_old "$(printf '[Vector addition of 50000 elements]\nFailed to allocate device vector A (error code CUDA driver version is insufficient for CUDA runtime version)!')"

# nvcc's compiler stage died: killed (signal 9, the build's memory) or crashed
# (a compiler fault): each reading leads on its own words, on every platform
lead native explain.toolkit.nvcc_stage_killed_oom "nvcc error   : 'cicc' died due to signal 9 (Kill signal)"
lead container explain.toolkit.nvcc_stage_killed_oom "nvcc error   : 'cudafe++' died due to signal 9 (Kill signal)"
lead native explain.toolkit.nvcc_stage_crashed "nvcc error   : 'cicc' died due to signal 11 (Invalid memory reference)"

# Numba opening the CUDA runtime by its unversioned name (its open_cudalib in
# the traceback): the toolkit where Numba looks, on native Linux and WSL alike
NUMBA_CUDART="$(printf '  File "/home/u/.local/lib/python3.10/site-packages/numba/cuda/cudadrv/libs.py", line 65, in open_cudalib\n    return ctypes.CDLL(path)\nOSError: libcudart.so: cannot open shared object file: No such file or directory')"
lead native explain.apps.numba_cudart_unversioned "$NUMBA_CUDART"
expect_json '.matches[0].causes[0].fix[0] | startswith("python -c \"from numba import cuda")'
run_json explain --platform wsl2 "$NUMBA_CUDART"
expect_json '.matches[0].causes[0].id == "explain.apps.numba_cudart_unversioned"'

# NVRTC failing to compile the program's own source (an include its release
# lacks): the general compile reading leads, its first step only looks
NVRTC_COMP="$(printf 'nvrtcCompileProgram(): NVRTC_ERROR_COMPILATION\n\nmain_kernel(93): catastrophic error: cannot open source file "OpenCL/inc_checksum_crc32.cl"')"
lead native explain.wide.nvrtc_compile_failed "$NVRTC_COMP"
lead wsl2 explain.wide.nvrtc_compile_failed "$NVRTC_COMP"
expect_json '.matches[0].causes[0].fix[0] | startswith("nvidia-smi")'

# bitsandbytes' CPU library on WSL: the loader-cache reading (put WSL's folder
# on LD_LIBRARY_PATH) leads, unless the paste shows a launcher that already did
BNB_CPU='UserWarning: The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit multiplication, and GPU quantization are unavailable.'
run_json explain --platform wsl2 "$BNB_CPU"
expect_json '.matches[0].causes[0].id == "explain.apps.bnb_no_libcuda"'
run_json explain --platform wsl2 "$(printf '+ export LD_LIBRARY_PATH=/usr/lib/wsl/lib\n%s' "$BNB_CPU")"
expect_json '.matches[0].causes[0].id == "explain.apps.bnb_cpu_binary"'

# NVML's "driver not loaded" next to the toolkit's CDI refresh: a refresh that
# failed at boot leads with its ordering; one its ExecCondition skipped (no
# NVIDIA module for the running kernel, deployments/systemd/nvidia-cdi-refresh.service)
# never ran, so the driver not loaded leads
CDIFAIL="$(printf 'Starting nvidia-cdi-refresh.service - Refresh NVIDIA CDI specification file...\nnvidia-ctk[812]: level=error msg="failed to generate CDI spec: failed to initialize NVML: Driver Not Loaded"\nnvidia-cdi-refresh.service: Main process exited, code=exited, status=1/FAILURE')"
run_json explain --platform native "$CDIFAIL"
expect_json '.matches[0].causes[0].id == "explain.containers.cdi_refresh_before_driver"'
CDISKIP="$(printf 'nvidia-container-cli: initialization error: nvml error: driver not loaded\nStarting nvidia-cdi-refresh.service - Refresh NVIDIA CDI specification file...\nnvidia-cdi-refresh.service: Skipped due to %s.\nCondition check resulted in nvidia-cdi-refresh.service - Refresh NVIDIA CDI specification file being skipped.' "'exec-condition'")"
run_json explain --platform native "$CDISKIP"
expect_json '.matches[0].causes[0].id == "nvml.init.native_driver_not_loaded"'
expect_json '[.matches[0].causes[] | select(.id == "explain.containers.cdi_refresh_before_driver") | .words.exclude | length > 0] == [true]'
# the refresh service's failure in systemd's words alone: its journal first
# (nvidia-ctk's own error); with nvidia-ctk naming a 565 driver, that
# branch's libnvidia-sandboxutils issue leads, a look at the driver first
# (nvidia-container-toolkit#1517)
CDIUNIT="$(printf '%s\n' 'systemd[1]: nvidia-cdi-refresh.service: Main process exited, code=exited, status=1/FAILURE' "systemd[1]: nvidia-cdi-refresh.service: Failed with result 'exit-code'.")"
run_json explain --platform native "$CDIUNIT"
expect_json '.matches[0].signature == "explain.sig.cdi_refresh_failed" and .matches[0].causes[0].id == "explain.containers.cdi_refresh_failed"'
expect_json '.matches[0].causes[0].fix[0] | startswith("journalctl")'
run_json explain --platform native "$(printf '%s\n%s\n' "$CDIUNIT" 'INFO[0000] Using /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.565.57.01')"
expect_json '.matches[0].causes[0].id == "explain.containers.cdi_refresh_sandboxutils"'
expect_json '.matches[0].causes[0].fix[0] | startswith("nvidia-smi")'

# a GKE pod: the driver's libraries are mounted under /usr/local/nvidia, which
# a plain image's loader path leaves out (kubeflow/katib#1915); with the path
# in the paste that reading leads, without it the container without GPU access
GKE="$(printf '$ kubectl exec -it trainer-0 -- ls /usr/local/nvidia/lib64\nlibcuda.so.1  libnvidia-ml.so.1\n%s' "$DLERR")"
lead container explain.containers.k8s_driver_path "$GKE"
expect_json '.matches[0].causes[0].fix[0] | startswith("ls /usr/local/nvidia/lib64")'
run_json explain "$GKE"
expect_json '.log_platform.kind == "container" and .matches[0].causes[0].id == "explain.containers.k8s_driver_path"'
run_json explain --platform native "$GKE"
expect_json '.matches[0].causes[0].id != "explain.containers.k8s_driver_path"'
# vLLM's "no platform" words: its own reading leads over a CPU-only PyTorch
VLLM="$(printf 'INFO 04-16 21:06:25 [__init__.py:243] No platform detected, vLLM is running on UnspecifiedPlatform\n  File "/usr/local/lib/python3.12/dist-packages/vllm/config/device.py", line 78, in __post_init__\n    self.device = torch.device(self.device_type)\nRuntimeError: Device string must not be empty')"
run_json explain --platform native "$VLLM"
expect_json '.matches[0].causes[0].id == "explain.apps.vllm_platform"'

done_testing
