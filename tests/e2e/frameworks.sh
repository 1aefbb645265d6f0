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
run_json --only frameworks.torch
expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.version_known == null'
# A PyTorch newer than the wheel table: said so (never read as an older row).
sed -i 's/2\.6\.0+cu124/2.16.0+cu134/g' "$ROOT/usr/bin/python3"
run_json --only frameworks.torch
expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.version_known | test("^PyTorch 2\\.16\\.0\\+cu134 is newer than this tool.s knowledge of 20[0-9][0-9]-[01][0-9] \\(its table ends at PyTorch 2\\.15\\)$")'

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
# What is not known is not said: no install facts, no index it came from.
expect_json '.checks[] | select(.id == "frameworks.torch") | .cause | test("ends in \\+cpu, the tag of PyTorch.s CPU-only wheels")'
expect_json '.checks[] | select(.id == "frameworks.torch") | .cause | test("installed from|Debian|externally managed") | not'
run --only frameworks.torch
expect_line '^✗ frameworks\.torch +torch 2\.6\.0\+cpu is a CPU-only build: it cannot use the GPU$'
expect_line 'cause +torch 2\.6\.0\+cpu is a build without CUDA \(torch\.version\.cuda is None\), and its version ends in \+cpu'
expect_line '^✗ Broken at the frameworks layer'

# The same on an externally managed Python (PEP 668) with a Pascal GPU on a
# CUDA 13 driver: a venv (after python3-venv), and cu126, the one build that
# still has sm_60 kernels; never a plain pip into /usr/bin/python3.
fixture torch-cpu-em
run_json --only frameworks.torch
expect_rc 1
expect_json '.checks[] | select(.id == "frameworks.torch") | .kb == "frameworks.torch.cpu_only"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.install_kind == "system"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.externally_managed == "/usr/lib/python3.12/EXTERNALLY-MANAGED"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .fix[0] == "sudo apt-get install python3-venv \u0026\u0026 /usr/bin/python3 -m venv ~/venvs/torch \u0026\u0026 ~/venvs/torch/bin/python -m pip install torch --index-url https://download.pytorch.org/whl/cu126"'
expect_json '.checks[] | select(.id == "frameworks.torch") | [.fix[] | select(test("^(sudo )?/usr/bin/python3 -m pip install"))] | length == 0'
expect_json '.checks[] | select(.id == "frameworks.torch") | .cause | test("marked externally managed \\(/usr/lib/python3.12/EXTERNALLY-MANAGED, PEP 668\\)")'
expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.driver_gpu == "0: NVIDIA GeForce GTX 1080 (compute 6.1)"'

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
expect_json '.checks[] | select(.id == "frameworks.torch") | .fix[0] | startswith("export LD_LIBRARY_PATH=/usr/lib/wsl/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}   # for this shell")'

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
# stopped at the cap, not read to its end (a gigabyte: seconds of CPU)
expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.exit == "printed more than 128 KiB and was stopped"'
expect_json '.checks[] | select(.id == "frameworks.torch") | .detail | test("[(]and was stopped there[)]$")'

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
# docker 1 s, nvidia-smi 1 s. Run one after another that is 10 s or more:
# the whole check must take well under the sum of its probes' times (on a
# loaded machine both grow; the sleeps do not shrink, so one after another
# can never pass).
fixture fw-concurrency
run_json
expect_status frameworks.torch pass
expect_status containers.docker pass
slowest=$(jq '[.checks[].ms] | max / 1000' "$JSON")
sum=$(jq '[.checks[].ms] | add / 1000' "$JSON")
if awk -v s="$SECS" -v m="$slowest" -v t="$sum" 'BEGIN { exit !(m >= 2 && t >= 9.5 && s < 0.6 * t) }'; then
	ok "whole check ${SECS}s < 0.6 x the probes' ${sum}s one after another (slowest ${slowest}s)"
else
	fail "whole check ${SECS}s, probes ${sum}s one after another, slowest ${slowest}s: the probes did not run concurrently"
fi

# The real probe script under a real Python 3, with a stand-in torch module.
# The interpreter itself, not a wrapper such as pyenv's shim (which needs the
# developer's environment). A real Python starting four probes at once took
# longer than the default limit on a loaded machine: these runs, which assert
# results, not limits, get --timeout 60.
host_py=$(python3 -c 'import sys; print(sys.executable if sys.version_info >= (3, 6) else "")' 2>/dev/null || true)
if [ -n "$host_py" ] && [ -x "$host_py" ]; then
	fixture healthy-wsl2
	mkdir -p "$ROOT/usr/bin" "$WORK/fakepy/torch"
	cp "$top/tests/e2e/fw-fake-torch.py" "$WORK/fakepy/torch/__init__.py"
	printf '#!/bin/sh\nPYTHONPATH=%s exec %s "$@"\n' "$WORK/fakepy" "$host_py" >"$ROOT/usr/bin/python3"
	chmod +x "$ROOT/usr/bin/python3"
	run_json --timeout 60 --only frameworks
	expect_status frameworks.torch pass
	expect_status frameworks.tensorflow skip
	expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.version == "2.6.0+cu124"'
	expect_json '.checks[] | select(.id == "frameworks.torch") | .detail | test("matmul OK, cuDNN 90100")'
	expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.stage == "PyTorch finishing"'
else
	echo "# no python3 on this machine: the real-script test is skipped"
fi

# How torch got there decides the fix: the real probe script, a stand-in
# CPU-only torch (WSLGPU_FAKE_TORCH=cpu) with a dist-info, in a venv, a conda
# environment, pip --user and an externally managed system Python.
cu126=https://download.pytorch.org/whl/cu126
# fake_torch DIR INSTALLER: the stand-in as pip (or conda) leaves it in DIR.
fake_torch() {
	mkdir -p "$1/torch" "$1/torch-2.6.0+cpu.dist-info"
	cp "$top/tests/e2e/fw-fake-torch.py" "$1/torch/__init__.py"
	printf 'Metadata-Version: 2.1\nName: torch\nVersion: 2.6.0+cpu\n' >"$1/torch-2.6.0+cpu.dist-info/METADATA"
	printf '%s\n' "$2" >"$1/torch-2.6.0+cpu.dist-info/INSTALLER"
	: >"$1/torch-2.6.0+cpu.dist-info/RECORD"
}
# interp GUEST HOST [VAR=VALUE...]: GUEST in the fixture runs the host's HOST.
interp() {
	g=$1 h=$2
	shift 2
	mkdir -p "$ROOT$(dirname "$g")"
	printf '#!/bin/sh\nexec env WSLGPU_FAKE_TORCH=cpu %s %s "$@"\n' "$*" "$h" >"$ROOT$g"
	chmod +x "$ROOT$g"
}
# new_env DIR: a venv without pip (Debian's python3 may lack ensurepip);
# prints its site-packages.
new_env() {
	"$host_py" -m venv --without-pip "$1" >/dev/null 2>&1 || return 1
	"$1/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))'
}
torch_fix() { jq -r '.checks[] | select(.id == "frameworks.torch") | .fix[0]' "$JSON"; }
if [ -n "$host_py" ] && [ -x "$host_py" ] && site=$(new_env "$WORK/venv"); then
	# A venv with pip: pip in the venv, with the CUDA index.
	fixture healthy-wsl2
	fake_torch "$site" pip
	mkdir -p "$site/pip" && : >"$site/pip/__init__.py"
	interp /home/user/venv/bin/python "$WORK/venv/bin/python"
	run_json --timeout 60 --only frameworks.torch --python /home/user/venv/bin/python
	expect_json '.checks[] | select(.id == "frameworks.torch") | .kb == "frameworks.torch.cpu_only"'
	expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.install_kind == "venv"'
	expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.installer == "pip"'
	expect_json '.checks[] | select(.id == "frameworks.torch") | .cause | test("It was installed by pip in the virtual environment /")'
	expect_json ".checks[] | select(.id == \"frameworks.torch\") | .fix[0] == \"/home/user/venv/bin/python -m pip install --upgrade --force-reinstall torch --index-url $cu126\""
	# The same venv without pip, made by uv: uv pip, not a pip it lacks.
	rm -r "$site/pip"
	echo "uv = 0.5.11" >>"$WORK/venv/pyvenv.cfg"
	printf 'uv\n' >"$site/torch-2.6.0+cpu.dist-info/INSTALLER"
	run_json --timeout 60 --only frameworks.torch --python /home/user/venv/bin/python
	expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.install_kind == "uv"'
	expect_json ".checks[] | select(.id == \"frameworks.torch\") | .fix[0] == \"uv pip install --python /home/user/venv/bin/python --reinstall torch --index-url $cu126\""

	# A conda environment whose torch is conda's own package: conda-forge's
	# CUDA build (PyTorch's channel stopped at 2.5), not pip over conda.
	site=$(new_env "$WORK/conda")
	fixture healthy-wsl2
	fake_torch "$site" conda
	mkdir -p "$WORK/conda/conda-meta"
	echo '{}' >"$WORK/conda/conda-meta/pytorch-2.5.1-cpu_generic_py311_h0_0.json"
	interp /opt/conda/envs/ml/bin/python "$WORK/conda/bin/python"
	run_json --timeout 60 --only frameworks.torch --python /opt/conda/envs/ml/bin/python
	expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.install_kind == "conda"'
	expect_json ".checks[] | select(.id == \"frameworks.torch\") | .fix[0] == \"conda install -p $WORK/conda -c conda-forge 'pytorch=*=*cuda*'\""
	expect_json '.checks[] | select(.id == "frameworks.torch") | .cause | test("the conda package pytorch-2.5.1-cpu_generic_py311_h0_0 in the conda environment")'
	# pip's torch in a conda environment: pip inside the environment.
	rm "$WORK/conda/conda-meta/pytorch-2.5.1-cpu_generic_py311_h0_0.json"
	printf 'pip\n' >"$site/torch-2.6.0+cpu.dist-info/INSTALLER"
	mkdir -p "$site/pip" && : >"$site/pip/__init__.py"
	run_json --timeout 60 --only frameworks.torch --python /opt/conda/envs/ml/bin/python
	expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.install_kind == "conda-pip"'
	expect_json ".checks[] | select(.id == \"frameworks.torch\") | .fix[0] == \"/opt/conda/envs/ml/bin/python -m pip install --upgrade --force-reinstall torch --index-url $cu126\""

	# pip --user: --user again, unless the interpreter is externally
	# managed, where pip refuses --user too and a venv is the way.
	fixture healthy-wsl2
	usite=$(HOME="$WORK/home" "$host_py" -s -c 'import site; print(site.USER_SITE)' 2>/dev/null || true)
	em=$("$host_py" -c 'import os, sysconfig; print(int(os.path.isfile(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED"))))')
	fake_torch "$usite" pip
	interp /usr/bin/python3 "$host_py" HOME="$WORK/home"
	run_json --timeout 60 --only frameworks.torch
	expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.install_kind == "user"'
	if [ "$em" = 1 ]; then
		expect_json ".checks[] | select(.id == \"frameworks.torch\") | .fix[0] == \"/usr/bin/python3 -m venv ~/venvs/torch \u0026\u0026 ~/venvs/torch/bin/python -m pip install torch --index-url $cu126\""
	else
		expect_json ".checks[] | select(.id == \"frameworks.torch\") | .fix[0] == \"/usr/bin/python3 -m pip install --user --upgrade --force-reinstall torch --index-url $cu126\""
	fi

	# A CPU-only torch sees no GPU; the driver (the fake libcuda) names a
	# Pascal GPU on a CUDA 13 driver, and the index is cu126, not cu130.
	fixture healthy-wsl2
	fakes=$(cd "$FAKES" && pwd)
	fake_torch "$WORK/cpu-site" pip
	interp /usr/bin/python3 "$host_py" PYTHONPATH="$WORK/cpu-site" LD_LIBRARY_PATH="$fakes" \
		FAKE_CUDA_CC=6.1 FAKE_CUDA_NAME=GTX1080 FAKE_CUDA_DRIVER_VERSION=13000
	run_json --timeout 60 --only frameworks.torch
	expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.driver_gpu == "0: GTX1080 (compute 6.1)"'
	expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.driver_cuda == "13.0"'
	expect_json ".checks[] | select(.id == \"frameworks.torch\") | .evidence.wheel_index == \"$cu126\""
	expect_json ".checks[] | select(.id == \"frameworks.torch\") | .fix[0] | endswith(\"--index-url $cu126\")"
	# Which PyTorch that yields, and why a plain pip install would not do.
	expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.wheel_torch | test("^cu126 gets PyTorch 2\\.14, the last release with cu126 wheels")'
	expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.wheel_torch | test("pip install torch \\(CUDA 13\\.2 from PyPI, PyTorch 2\\.14\\) has no kernels for this GPU")'
	expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.wheel_torch | test("R580 is NVIDIA.s last driver branch for this GPU")'
	expect_json '.checks[] | select(.id == "frameworks.torch") | .cause | test("here, https://download.pytorch.org/whl/cu126 \\(cu126 gets PyTorch 2\\.14")'
	# A Turing GPU on the same driver: cu130.
	sed -i 's/FAKE_CUDA_CC=6.1/FAKE_CUDA_CC=7.5/' "$ROOT/usr/bin/python3"
	run_json --timeout 60 --only frameworks.torch
	expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.wheel_index == "https://download.pytorch.org/whl/cu130"'
	# A cuInit that never returns costs the probe 2 s, not the verdict, nor
	# the probe's limit (52 s of these 60).
	sed -i 's/FAKE_CUDA_CC=7.5/FAKE_CUDA_HANG=cuInit/' "$ROOT/usr/bin/python3"
	run_json --timeout 60 --only frameworks.torch
	expect_json '.checks[] | select(.id == "frameworks.torch") | .kb == "frameworks.torch.cpu_only"'
	expect_json '.checks[] | select(.id == "frameworks.torch") | .ms < 30000'

	# An externally managed system Python (Debian 12's python3; skipped
	# where there is none): a venv, never pip into it.
	em_py=/usr/bin/python3
	if [ -x "$em_py" ] && "$em_py" -c 'import os, sys, sysconfig; sys.exit(not os.path.isfile(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))' 2>/dev/null; then
		fixture healthy-wsl2
		fake_torch "$WORK/em-site" pip
		interp /usr/bin/python3 "$em_py" PYTHONPATH="$WORK/em-site"
		run_json --timeout 60 --only frameworks.torch
		expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.externally_managed | test("EXTERNALLY-MANAGED$")'
		expect_json ".checks[] | select(.id == \"frameworks.torch\") | .fix[0] | test(\"^/usr/bin/python3 -m venv ~/venvs/torch .. ~/venvs/torch/bin/python -m pip install torch --index-url $cu126\$\")"
	else
		echo "# no externally managed /usr/bin/python3 here: the live PEP 668 test is skipped (torch-cpu-em covers it)"
	fi
else
	echo "# no python3 with venv here: the install-kind tests are skipped"
fi

# Debian's own python3-torch (a CPU-only 1.13 build) under the real
# interpreter, which sees its real dist-packages; dpkg's list of the package
# is copied into the fixture, whose dpkg database the probe reads. CI
# installs python3-torch (tools/debian-packages-test.txt).
if [ -x /usr/bin/python3 ] && [ -f /var/lib/dpkg/info/python3-torch.list ] &&
	/usr/bin/python3 -c 'import torch' 2>/dev/null; then
	fixture healthy-wsl2
	mkdir -p "$ROOT/usr/bin"
	printf '#!/bin/sh\nexec /usr/bin/python3 "$@"\n' >"$ROOT/usr/bin/python3"
	chmod +x "$ROOT/usr/bin/python3"
	mkdir -p "$ROOT/var/lib/dpkg/info"
	cp /var/lib/dpkg/info/python3-torch.list "$ROOT/var/lib/dpkg/info/"
	cp /var/lib/dpkg/status "$ROOT/var/lib/dpkg/status"
	run_json --only frameworks.torch --timeout 60
	expect_rc 1
	expect_status frameworks.torch fail
	expect_json '.checks[] | select(.id == "frameworks.torch") | .kb == "frameworks.torch.cpu_only"'
	expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.install_kind == "distro"'
	expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.dpkg_package == "python3-torch"'
	expect_json '.checks[] | select(.id == "frameworks.torch") | .cause | test("It is the Debian package python3-torch \\(dpkg lists /usr/lib/python3/dist-packages/torch/__init__.py\\)")'
	# No false claims: its version has no +cpu, and nothing says where a
	# wheel came from.
	expect_json '.checks[] | select(.id == "frameworks.torch") | .cause | test("\\+cpu|CPU-only wheel|whl/cpu|installed from") | not'
	# A fix that works on an externally managed interpreter: a venv.
	expect_json '.checks[] | select(.id == "frameworks.torch") | .fix[0] | test("/usr/bin/python3 -m venv ~/venvs/torch .. ~/venvs/torch/bin/python -m pip install torch --index-url https://download.pytorch.org/whl/cu1[0-9]+$")'
	expect_json '.checks[] | select(.id == "frameworks.torch") | [.fix[] | select(test("^(sudo )?/usr/bin/python3 -m pip install"))] | length == 0'
	if [ -f "$(/usr/bin/python3 -c 'import sysconfig; print(sysconfig.get_path("stdlib"))')/EXTERNALLY-MANAGED" ]; then
		expect_json '.checks[] | select(.id == "frameworks.torch") | .cause | test("/usr/bin/python3 is marked externally managed")'
	fi
	# PYTHONPATH puts Debian's copy ahead of the user's own torch (in the
	# user site): the fix stops importing the distribution's copy.
	usite=$(HOME="$WORK/dhome" /usr/bin/python3 -c 'import site; print(site.USER_SITE)')
	fake_torch "$usite" pip
	printf '#!/bin/sh\nHOME=%s PYTHONPATH=/usr/lib/python3/dist-packages exec /usr/bin/python3 "$@"\n' "$WORK/dhome" >"$ROOT/usr/bin/python3"
	run_json --only frameworks.torch --timeout 60
	expect_json '.checks[] | select(.id == "frameworks.torch") | .evidence.dpkg_package == "python3-torch"'
	expect_json ".checks[] | select(.id == \"frameworks.torch\") | .evidence.shadowed == \"$usite/torch\""
	expect_json '.checks[] | select(.id == "frameworks.torch") | .fix[0] | startswith("unset PYTHONPATH   # also where it is set")'
	expect_json '.checks[] | select(.id == "frameworks.torch") | .cause | test("hidden by this one; the fix makes Python import that copy instead")'
else
	echo "# python3-torch is not installed (apt-get install python3-torch): the Debian package test is skipped"
fi

done_testing
