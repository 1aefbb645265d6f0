# explainnogpu.sh: an application's own words that it found no CUDA GPU
# ("CUDA not available, falling back to CPU", "No GPU found", Lightning's
# "GPU available: False"): any program prints these, so the general reading
# (does the driver see a GPU?) leads, and PyTorch's CPU-only build where the
# paste names PyTorch; Windows' own reading on a Windows log, the Mac's where
# the paste shows a Mac; every first step only looks, and no WSL step shows
# off WSL.
# Pastes from the threads cited in src/kb/explain-nogpu.kb and
# tests/explain/field/nogpu.txt.
. "$(dirname "$0")/lib.sh"

fixture healthy-wsl2

FALLBACK="Device 'cuda' is not available. Switching to 'cpu'."
for kind in native container; do
	run_json explain --platform $kind "$FALLBACK"
	# the message alone: the driver is asked first, PyTorch's build second;
	# in a container, whether it was given the GPU before them (a look
	# first there too)
	if [ $kind = container ]; then
		expect_json '.matches[0].signature == "explain.sig.nogpu_app_fallback" and .matches[0].causes[0].id == "explain.containers.no_gpu_device" and (.matches[0].causes[0].fix[0] | startswith("nvidia-smi"))'
		expect_json '.matches[0].causes[1].id == "explain.cuda.no_device_any" and .matches[0].causes[2].id == "frameworks.torch.cpu_only"'
	else
		expect_json '.matches[0].signature == "explain.sig.nogpu_app_fallback" and .matches[0].causes[0].id == "explain.cuda.no_device_any" and (.matches[0].causes[0].fix[0] | startswith("nvidia-smi"))'
		expect_json '.matches[0].causes[1].id == "frameworks.torch.cpu_only"'
	fi
	# a paste that shows PyTorch: its CPU-only build leads, with torch as the word that moved it
	run_json explain --platform $kind "  File \"/home/u/app/.venv/lib/python3.11/site-packages/torch/cuda/__init__.py\", line 302, in _lazy_init
$FALLBACK"
	expect_json '.matches[0].causes[0].id == "frameworks.torch.cpu_only" and (.matches[0].causes[0].words.support | index("torch"))'
	run_json explain --platform $kind "$FALLBACK"
	expect_json '[.matches[0].causes[] | select(.machine == null) | .fix[] | select(test("wsl\\.exe|/usr/lib/wsl|PowerShell|\\.wslconfig"))] == []'
done
# no step that changes the system comes first
run_json explain "$FALLBACK"
expect_json '[.matches[0].causes[] | .fix[0] | select(test("pip install|apt|reinstall"))] == []'
# a Windows log: PyPI's CPU-only torch on Windows leads, with a look first
run_json explain 'File "C:\Users\ana\AppData\Roaming\Python\Python311\site-packages\transformers\quantizers\quantizer_bnb_4bit.py", line 62, in validate_environment
RuntimeError: No GPU found. A GPU is needed for quantization.'
expect_json '.log_platform.kind == "windows" and .matches[0].causes[0].id == "explain.frameworks.torch_cpu_windows"'
expect_json '.matches[0].causes[0].fix[0] | startswith("python -c")'
# a Mac's paths: the Mac reading leads
run_json explain 'File "/Users/weiwei/Envs/comfyui/lib/python3.10/site-packages/transformers/quantizers/quantizer_bnb_4bit.py", line 62, in validate_environment
raise RuntimeError("No GPU found. A GPU is needed for quantization.")'
expect_json '.matches[0].causes[0].id == "explain.frameworks.macos_no_cuda"'
# the build itself in the paste: +cpu
run_json explain --platform native 'python -c "import torch; print(torch.__version__); print(torch.version.cuda); print(torch.cuda.is_available())"
2.4.0+cpu
None
False'
expect_json '.matches[0].signature == "explain.sig.nogpu_torch_cpu_version" and .matches[0].causes[0].id == "frameworks.torch.cpu_only"'
# collect_env of a CUDA build that finds no GPU: the build is not the reason,
# the driver is asked first
run_json explain --platform native 'PyTorch version: 2.5.1+cu124
CUDA used to build PyTorch: 12.4
Is CUDA available: False
GPU models and configuration: GPU 0: NVIDIA GeForce RTX 3060
Nvidia driver version: 470.82.01'
expect_json '.matches[0].signature == "explain.sig.nogpu_collect_env_not_available" and .matches[0].causes[0].id == "explain.cuda.no_device_any"'
expect_json '[.matches[0].causes[] | select(.id == "frameworks.torch.cpu_only") | .words.exclude[]] | length > 0'
# an application's bare "failed to initialize CUDA": whether the driver works
# comes first off Windows, the Windows driver's version on a Windows log
for kind in native container wsl2; do
	run_json explain --platform $kind "CUDA initialization failed."
	expect_json '.matches[0].signature == "explain.sig.nogpu_app_init_failed" and .matches[0].causes[0].id == "explain.cuda.no_device_any"'
done
run_json explain --platform windows "CUDA initialization failed."
expect_json '.matches[0].causes[0].id == "explain.host.windows_driver_too_old" and (.matches[0].causes[0].fix[0] | startswith("nvidia-smi"))'
# a container's own start line read from the paste: docker run with no GPU
# asked for puts the container given no GPU first (media_preview_generator's
# --list-gpus, llama-cpp-python#1882); --gpus in the paste says it was asked
# for, and the general reading leads again; PyTorch's "No CUDA GPUs are
# available" reads the same
run_json explain '$ docker run --rm stevezzau/plex_generate_vid_previews:latest --list-gpus
2025/12/23 15:39:05 | ℹ  -     Testing CUDA acceleration...
2025/12/23 15:39:05 | ⚠  -   ⚠  card1: NVIDIA CUDA test failed
2025/12/23 15:39:05 | ℹ  - ❌ No GPUs detected'
expect_json '.log_platform.kind == "container" and .matches[0].signature == "explain.sig.nogpu_app_fallback" and .matches[0].causes[0].id == "explain.containers.no_gpu_device" and (.matches[0].causes[0].fix[0] | startswith("nvidia-smi"))'
run_json explain '$ docker run --rm --gpus all stevezzau/plex_generate_vid_previews:latest --list-gpus
2025/12/23 15:39:05 | ℹ  - ❌ No GPUs detected'
expect_json '.matches[0].causes[0].id == "explain.cuda.no_device_any" and ([.matches[0].causes[] | select(.id == "explain.containers.no_gpu_device") | .words.exclude[]] | index("--gpus"))'
run_json explain 'docker run -it -v /data:/data myapp python train.py
RuntimeError: No CUDA GPUs are available'
expect_json '.matches[0].signature == "explain.sig.no_cuda_gpus" and .matches[0].causes[0].id == "explain.containers.no_gpu_device"'
for kind in native wsl2; do
	run_json explain --platform $kind 'RuntimeError: No CUDA GPUs are available'
	expect_json '.matches[0].causes[0].id != "explain.containers.no_gpu_device"'
done
done_testing
