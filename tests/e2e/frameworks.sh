# frameworks.sh: the frameworks layer on fixture machines whose python3 is a
# fake printing what the probe script prints in each state (see each
# fixture's README), plus the real probe script under a real Python with a
# stand-in torch module, when this machine has a python3.
. "$(dirname "$0")/lib.sh"

# No python3 at all: every framework is skipped, nothing fails.
fixture healthy-wsl2
run_json --only frameworks
expect_rc 0
expect_status frameworks.torch skip
expect_status frameworks.cupy skip
expect_json '.checks[] | select(.id == "frameworks.torch") | .detail | test("no python3")'

# A working torch; the other frameworks are not installed.
fixture healthy-torch
run_json --only frameworks
expect_rc 0
expect_status frameworks.torch pass
expect_status frameworks.tensorflow skip
expect_status frameworks.jax skip
expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.version == "2.6.0+cu124"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.cuda_build == "12.4"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.libcuda == "/usr/lib/wsl/lib/libcuda.so.1"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.arch_cover | test("native via sm_86")'
expect_json '.checks[] | select(.id == "frameworks.tensorflow") | .detail == "tensorflow is not installed for /usr/bin/python3"'
run --only frameworks
expect_line '^✓ frameworks\.torch +torch 2\.6\.0\+cu124 \(CUDA 12\.4\): NVIDIA GeForce RTX 3080, compute 8\.6, matmul OK, cuDNN 90100$'
expect_line '^- frameworks\.jax +jax is not installed for /usr/bin/python3$'

# TensorFlow, JAX and CuPy working.
fixture healthy-frameworks
run_json --only frameworks
expect_rc 0
expect_status frameworks.tensorflow pass
expect_status frameworks.jax pass
expect_status frameworks.cupy pass
expect_status frameworks.torch skip
expect_json '.checks[] | select(.id == "frameworks.cupy") | .detail | test("cupy 13.3.0 \\(CUDA 12.4\\): NVIDIA GeForce RTX 3080")'
expect_json '.checks[] | select(.id == "frameworks.tensorflow") | .evidence.arch_cover == "device 0 (NVIDIA GeForce RTX 3080, sm_86): native via sm_80"'
expect_json '.checks[] | select(.id == "frameworks.jax") | .evidence.cuda_plugin == "jax-cuda12-plugin 0.4.30"'

# F03: a CPU-only wheel.
fixture torch-cpu-only
run_json --only frameworks.torch
expect_rc 1
expect_status frameworks.torch fail
expect_json '.checks[] | select(.id == "frameworks.torch") | .kb == "frameworks.torch.cpu_only"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .fix[0] == "/usr/bin/python3 -m pip install --upgrade --force-reinstall torch torchvision torchaudio --index-url https://download.pytorch.org/whl/cu126"'
run --only frameworks.torch
expect_line '^✗ frameworks\.torch +torch 2\.6\.0\+cpu is a CPU-only build: it cannot use the GPU$'
expect_line 'cause +torch 2\.6\.0\+cpu was installed from a CPU-only wheel'
expect_line '^✗ Broken at the frameworks layer'

# A cu118 wheel on an 11.4 driver runs by minor-version compatibility.
fixture torch-cu118-old-driver
run_json --only frameworks.torch
expect_rc 0
expect_status frameworks.torch pass
expect_json '.checks[] | select(.id == "frameworks.torch") | .kb == "frameworks.minor_compat"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .detail | test("built for CUDA 11.8, the driver supports 11.4: runs by minor-version compatibility")'

# A cu130 wheel on a 12.4 driver: "too old (found version 12040)".
fixture torch-cu130-old-driver
run_json --only frameworks.torch
expect_rc 1
expect_json '.checks[] | select(.id == "frameworks.torch") | .kb == "frameworks.torch.driver_too_old"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .cause | test("built for CUDA 13.0, a newer major version than the driver supports \\(12.4\\)")'
expect_json '.checks[] | select(.id == "frameworks.torch") | .fix[1] | test("whl/cu126$")'

# F01: sm_120 GPU, wheel up to sm_90.
fixture torch-arch-missing
run_json --only frameworks.torch
expect_rc 1
expect_json '.checks[] | select(.id == "frameworks.torch") | .kb == "frameworks.arch_missing"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.cc == "sm_120"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.newest_arch == "sm_90"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .fix[0] | test("whl/cu128$")'
run --only frameworks.torch
expect_line '^✗ frameworks\.torch +torch 2\.5\.1\+cu124 has no kernels for NVIDIA GeForce RTX 5090 \(sm_120\): "no kernel image is available"$'
expect_line 'cause +NVIDIA GeForce RTX 5090 is compute capability sm_120; PyTorch 2\.5\.1\+cu124 carries code for sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90\.'

# Only PTX covers the GPU: it works, slowly at first (a warning).
fixture healthy-torch
sed -i 's/"device.0.cc": "8.6"/"device.0.cc": "12.0"/; s/"sm_90"\]/"sm_90", "compute_90"]/g' "$ROOT/usr/bin/python3"
run_json --only frameworks.torch
expect_rc 0
expect_status frameworks.torch warn
expect_json '.checks[] | select(.id == "frameworks.torch") | .kb == "frameworks.arch_ptx_only"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.ptx_entry == "compute_90"'

# R03/R05: the framework mapped a Linux libcuda.
fixture torch-wrong-libcuda
run_json --only frameworks.torch
expect_rc 1
expect_json '.checks[] | select(.id == "frameworks.torch") | .kb == "frameworks.wrong_libcuda"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .detail == "torch loaded /usr/lib/x86_64-linux-gnu/libcuda.so.1, not WSL'"'"'s /usr/lib/wsl/lib/libcuda.so.1"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .fix[0] | test("^dpkg -S /usr/lib/x86_64-linux-gnu/libcuda.so.1")'

# "Found no NVIDIA driver" with no libcuda mapped at all.
fixture torch-wrong-libcuda
sed -i -e 's|, "libcuda.0": "/usr/lib/x86_64-linux-gnu/libcuda.so.1"||' \
	-e 's|RuntimeError: No CUDA GPUs are available|RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx|' \
	"$ROOT/usr/bin/python3"
run_json --only frameworks.torch
expect_json '.checks[] | select(.id == "frameworks.torch") | .kb == "frameworks.torch.no_driver"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .cause | test("libcuda mapped by PyTorch: none")'

# CUDA_VISIBLE_DEVICES="" hides the GPU (the message is torch's own).
fixture torch-wrong-libcuda
sed -i -e 's|, "libcuda.0": "/usr/lib/x86_64-linux-gnu/libcuda.so.1"||' "$ROOT/usr/bin/python3"
setenv CUDA_VISIBLE_DEVICES=
run_json --only frameworks.torch
expect_json '.checks[] | select(.id == "frameworks.torch") | .kb == "frameworks.cuda_visible_devices"'

# F07: "Error 2: out of memory" at CUDA initialisation.
fixture torch-init-oom
run_json --only frameworks.torch
expect_rc 1
expect_json '.checks[] | select(.id == "frameworks.torch") | .kb == "frameworks.torch.init_oom"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.python_version == "3.12.3"'

# R01: the cuDNN convolution aborts the process.
fixture torch-cudnn-abort
run_json --only frameworks.torch
expect_rc 1
expect_json '.checks[] | select(.id == "frameworks.torch") | .kb == "frameworks.cudnn_libcuda"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.signal == "SIGABRT"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.stage == "a cuDNN convolution in PyTorch"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .fix[0] | startswith("export LD_LIBRARY_PATH=/usr/lib/wsl/lib:$LD_LIBRARY_PATH   (for this shell")'

# TensorFlow without its CUDA libraries; JAX without its CUDA plugin.
fixture tf-no-cuda-libs
run_json --only frameworks.tensorflow
expect_rc 1
expect_json '.checks[] | select(.id == "frameworks.tensorflow") | .kb == "frameworks.tensorflow.libs_missing"'
expect_json '.checks[] | select(.id == "frameworks.tensorflow") | .fix[0] == "/usr/bin/python3 -m pip install '"'"'tensorflow[and-cuda]'"'"'"'
fixture jax-cpu-only
run_json --only frameworks.jax
expect_rc 1
expect_json '.checks[] | select(.id == "frameworks.jax") | .kb == "frameworks.jax.cpu_only"'
expect_json '.checks[] | select(.id == "frameworks.jax") | .fix[0] == "/usr/bin/python3 -m pip install -U \"jax[cuda12]\""'

# Bad interpreters: all end within the limit with a clear finding.
fixture python-hang
run_json --only frameworks.torch --timeout 3
expect_rc 1
expect_json '.checks[] | select(.id == "frameworks.torch") | .status == "fail" and .kb == "frameworks.probe_hang"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .detail | test("stuck at import torch")'
# Ended by our own limit, not the runner's: the probe itself took < 3 s.
expect_json '.checks[] | select(.id == "frameworks.torch") | .ms < 3000'

fixture python-segv
run_json --only frameworks.torch
expect_json '.checks[] | select(.id == "frameworks.torch") | .kb == "frameworks.probe_crash"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .detail == "/usr/bin/python3 crashed (SIGSEGV) during import torch"'

fixture python-garbage
run_json --only frameworks
expect_rc 0
expect_status frameworks.torch warn
expect_json '[.checks[] | select(.layer == "frameworks") | .kb] | all(. == "frameworks.probe_garbled")'

fixture python-flood
run_json --only frameworks.torch --timeout 5
expect_status frameworks.torch warn
expect_json '.checks[] | select(.id == "frameworks.torch") | .kb == "frameworks.probe_garbled"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .detail | test("printed more than 128 KiB")'
expect_json '.checks[] | select(.id == "frameworks.torch") | .ms < 5000'

fixture python-silent
run_json --only frameworks
expect_json '[.checks[] | select(.layer == "frameworks") | .kb] | all(. == "frameworks.python_unusable")'
expect_json '.checks[] | select(.id == "frameworks.cupy") | .detail | test("exited with status 0 and printed no probe result")'

fixture python-not-python
run_json --only frameworks
expect_status frameworks.torch warn
expect_json '.checks[] | select(.id == "frameworks.torch") | .kb == "frameworks.python_unusable"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.exit == "exited with status 127"'

# --python: another interpreter is probed too; the worst one decides, and
# the others are listed. A --python that does not exist is a warning.
fixture healthy-torch
cp "$top/tests/fixtures/torch-cpu-only/root/usr/bin/python3" "$ROOT/usr/bin/python3.cpu"
run_json --only frameworks.torch --python /usr/bin/python3.cpu
expect_json '.checks[] | select(.id == "frameworks.torch") | .kb == "frameworks.torch.cpu_only"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.python == "/usr/bin/python3.cpu"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.other_python | test("^/usr/bin/python3: pass: torch 2.6.0")'
run_json --only frameworks.torch --python .venv/bin/python3
expect_status frameworks.torch warn
expect_json '.checks[] | select(.id == "frameworks.torch") | .detail == "/home/user/.venv/bin/python3 (from --python) does not exist"'

# The chain: a broken libs layer skips the frameworks with "fix that first".
fixture healthy-torch
rm -f "$ROOT/etc/ld.so.cache" "$ROOT/etc/ld.so.conf.d/ld.wsl.conf"
rm -rf "$ROOT/usr/lib/wsl/lib"
run_json --only frameworks.torch
expect_status frameworks.torch skip
expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.blocked_by | test("^libs\\.")'

# Concurrency: python3 sleeps 2 s (for each of the four framework probes),
# docker 1 s, nvidia-smi 1 s. Run one after another that is 10 s; the whole
# check must take less than twice the slowest probe.
fixture fw-concurrency
run_json
expect_status frameworks.torch pass
expect_status containers.docker pass
slowest=$(jq '[.checks[].ms] | max / 1000' "$JSON")
if awk -v s="$SECS" -v m="$slowest" 'BEGIN { exit !(m >= 2 && s < 2 * m) }'; then
	ok "whole check ${SECS}s < 2 x slowest probe ${slowest}s"
else
	fail "whole check ${SECS}s, slowest probe ${slowest}s: the probes did not run concurrently"
fi

# The real probe script under a real Python 3, with a stand-in torch module.
# The interpreter itself, not a wrapper such as pyenv's shim (which needs the
# developer's environment).
host_py=$(python3 -c 'import sys; print(sys.executable if sys.version_info >= (3, 6) else "")' 2>/dev/null || true)
if [ -n "$host_py" ] && [ -x "$host_py" ]; then
	fixture healthy-wsl2
	mkdir -p "$ROOT/usr/bin" "$WORK/fakepy/torch"
	cp "$top/tests/e2e/fw-fake-torch.py" "$WORK/fakepy/torch/__init__.py"
	printf '#!/bin/sh\nPYTHONPATH=%s exec %s "$@"\n' "$WORK/fakepy" "$host_py" >"$ROOT/usr/bin/python3"
	chmod +x "$ROOT/usr/bin/python3"
	run_json --only frameworks
	expect_status frameworks.torch pass
	expect_status frameworks.tensorflow skip
	expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.version == "2.6.0+cu124"'
	expect_json '.checks[] | select(.id == "frameworks.torch") | .detail | test("matmul OK, cuDNN 90100")'
	expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.stage == "PyTorch finishing"'
else
	echo "# no python3 on this machine: the real-script test is skipped"
fi

done_testing
