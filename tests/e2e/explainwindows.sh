# explainwindows.sh: pastes from programs run on Windows itself (the KB's
# src/kb/explain-windows.kb): the platform is read from the paste, the
# cause written for Windows leads with a step Windows can run, no Linux
# command is a first fix, and the same message on another platform keeps
# that platform's reading first. Pastes from the threads cited in
# tests/explain/windows.log.
. "$(dirname "$0")/lib.sh"

fixture healthy-wsl2

# winlead ID TEXT: the text reads as a Windows log, ID is the first cause
# of its first message and applies there, and no first fix of a shown
# message is a Linux command.
winlead() {
	run_json explain "$2"
	expect_json '.log_platform.kind == "windows" and .log_platform.from == "text"'
	expect_json ".matches[0].causes[0].id == \"$1\" and .matches[0].causes[0].machine == null"
	expect_json '[.matches[].causes[0].fix[0] // "" | select(test("^(sudo |apt|dnf |ldconfig|export |/usr/|ls /usr)"))] == []'
}

# Windows reset the GPU (TDR): the program's error and the event log's words
winlead explain.cuda.tdr_windows "$(printf 'RuntimeError: CUDA error: the launch timed out and was terminated\n  File "D:\\whisper-standalone-win\\faster_whisper\\transcribe.py", line 1227')"
expect_json '.matches[0].causes[0].fix[0] | startswith("wevtutil.exe")'
# the WSL reading stays, bound: the log is from Windows itself
expect_json '[.matches[0].causes[] | select(.id == "explain.cuda.tdr") | .machine] == ["platform_bound"]'
winlead explain.cuda.tdr_windows 'Display driver nvlddmkm stopped responding and has successfully recovered.'
expect_json '.log_platform.marker == "nvlddmkm" and .matches[0].signature == "explain.sig.win_display_driver_reset"'
# on native Linux the display watchdog leads, and the Windows reading is not there
run_json explain --platform native 'RuntimeError: CUDA error: the launch timed out and was terminated'
expect_json '.matches[0].causes[0].id == "explain.host.display_watchdog"'
expect_json '[.matches[0].causes[] | select(.id == "explain.cuda.tdr_windows") | .machine] == ["not_applicable"]'

# nvcc refuses the installed Visual Studio (host_config.h's C1189)
winlead explain.toolkit.msvc_unsupported 'C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.8\include\crt/host_config.h(153): fatal error C1189: #error:  -- unsupported Microsoft Visual Studio version! Only the versions between 2017 and 2022 (inclusive) are supported!'
expect_json '.matches[0].causes[0].fix[0] | startswith("nvcc --version")'
# nvcc's own refusal in a Windows build: its first step runs in PowerShell too
# (https://github.com/thu-ml/SageAttention/issues/262, CUDA 13 on Windows 11)
winlead explain.toolkit.nvcc_fatal "$(printf 'D:\\SageAttention> python setup.py install\nnvcc fatal : A single input file is required for a non-link phase when an outputfile is specified')"
expect_json '.matches[0].causes[0].fix[0] | startswith("nvcc --version ")'
# no marker but nvcc's own words about Visual Studio
run_json explain 'nvcc fatal   : nvcc cannot find a supported version of Microsoft Visual Studio. Only the versions between 2017 and 2019 (inclusive) are supported!'
expect_json '.log_platform.kind == "windows"'
expect_json '[.matches[] | select(.signature == "explain.sig.msvc_unsupported") | .causes[0].id] == ["explain.toolkit.msvc_unsupported"]'

# Visual Studio without the CUDA build integration, a project pinned to a
# release, MSVC's linker without the toolkit's cuda.lib
winlead explain.toolkit.vs_cuda_integration "$(printf 'CMake Error at C:/Program Files/CMake/share/cmake-3.19/Modules/CMakeDetermineCompilerId.cmake:412 (message):\n  No CUDA toolset found.')"
expect_json '.matches[0].causes[0].fix[0] | startswith("dir ")'
winlead explain.toolkit.vcxproj_cuda_version 'error  : The imported project "C:\Program Files\Microsoft Visual Studio\2022\Community\MSBuild\Microsoft\VC\v170\BuildCustomizations\CUDA 11.6.props" was not found.'
winlead explain.toolkit.windows_build_no_toolkit "LINK : fatal error LNK1181: cannot open input file 'cuda.lib'"

# the toolkit's installer failing in Nsight Visual Studio Edition: the look
# first (nvcc), no reinstall of anything on a guess
winlead explain.toolkit.win_installer_vs_parts "    289.428 |    ERROR: [NVI2.NVMsiPhase] 827@CNVMsiPhase::InvokePhase : Caught exception Exception {0x80070643 - Fatal error during installation.; File: NVMsiPhase.cpp; Line: 75}."
expect_json '.matches[0].causes[0].fix[0] | startswith("nvcc --version")'

# cmd's and PowerShell's own words for a command they cannot find
winlead explain.toolkit.nvcc_not_found_windows "nvcc : The term 'nvcc' is not recognized as the name of a cmdlet, function, script file, or operable program."
expect_json '.matches[0].causes[0].fix[0] | startswith("where.exe nvcc")'
winlead explain.host.smi_not_found_windows "'nvidia-smi' is not recognized as an internal or external command,"
run_json explain "'python' is not recognized as an internal or external command,"
expect_json '.matches == []'

# cuDNN 8's own loader: zlib not installed; a cuDNN for another CUDA major
# first on PATH (CUDA 11.8 installed, CUDA 10's cuBLASLt asked for)
winlead explain.toolkit.cudnn8_zlibwapi_windows "$(printf 'Processing C:\\Users\\Dennis\\Downloads\\a.mpeg\nCould not locate zlibwapi.dll. Please make sure it is in your library path!')"
expect_json '.matches[0].causes[0].fix[0] | startswith("where.exe zlibwapi.dll")'
winlead explain.toolkit.cudnn8_cuda_major_windows "$(printf 'Could not locate cublasLt64_10.dll. Please make sure it is in your library path!\n\nD:\\ComfyUI_windows_portable\\ComfyUI>')"
expect_json '.matches[0].causes[0].fix[0] | startswith("where.exe cudnn64_8.dll cublasLt64_10.dll")'
expect_json '[.matches[].signature] == ["explain.sig.cudnn8_locate_cublaslt_windows"]'

# Windows' entry-point dialog naming a CUDA library: another release's copy
# loaded (a pip cuDNN in the venv next to torch's own); the look (pip list)
# before the uninstall, which stays among the fixes
winlead explain.toolkit.win_cuda_dll_other_release 'The procedure entry point ?destroyTensorDescriptorEx@ops@cudnn@@YA?AW4cudnnStatus_t@@PEAPEAUcudnnTensorStruct@@@Z could not be located in the dynamic link library C:\sdwebui\venv\lib\site-packages\nvidia\cudnn\bin\cudnn_adv_infer64_8.dll.'
expect_json '.matches[0].causes[0].fix[0] | startswith("python.exe -m pip list")'
expect_json '[.matches[0].causes[0].fix[] | select(startswith("python.exe -m pip uninstall -y nvidia-cudnn-cu11"))] | length == 1'
# a game's own DLL: not read
run_json explain 'The procedure entry point ?x@@YAXXZ could not be located in the dynamic link library C:\Games\engine.dll.'
expect_json '.matches == []'

# Ollama's runner ended with a Windows exit status that names its cause: a
# DLL not found at start (0xc0000135), an entry point not found (0xc0000139);
# a crash (0xc0000409) keeps Ollama's own reading first
winlead explain.wide.win_exit_dll_not_found 'Ollama call failed with status code 500: llama runner process has terminated: exit status 0xc0000135'
expect_json '.matches[0].causes[0].fix[0] | startswith("where.exe cudart64_12.dll")'
winlead explain.wide.backend_dll_shadowed_windows 'Error: llama runner process has terminated: exit status 0xc0000139'
winlead explain.apps.ollama_runner_windows 'Error: llama runner process has terminated: exit status 0xc0000409'
expect_json '[.matches[0].causes[] | .id] | index("explain.wide.win_exit_dll_not_found") > 2'

# error 127 on torch's own _C (its frame in torch\__init__.py): not an
# extension's build but a DLL torch loads of another release; an extension's
# _C keeps the extension reading first
winlead explain.wide.backend_dll_shadowed_windows "$(printf '(rvss) C:\\Users\\a>python -c "import torch"\n  File "C:\\Users\\a\\miniforge3\\envs\\rvss\\lib\\site-packages\\torch\\__init__.py", line 367, in <module>\n    from torch._C import *  # noqa: F403\nImportError: DLL load failed while importing _C: The specified procedure could not be found.')"
expect_json '[.matches[0].causes[] | .id] | index("explain.frameworks.ext_abi_windows") > 0'
winlead explain.frameworks.ext_abi_windows "$(printf '  File "C:\\ComfyUI\\custom_nodes\\x\\__init__.py", line 3, in <module>\n    from pytorch3d import _C\nImportError: DLL load failed while importing _C: The specified procedure could not be found.')"

# a crash inside the driver's DLL, as the Application log names it
winlead explain.cuda.crash_driver_dll_windows "$(printf 'Faulting module name: nvcuda64.dll, version: 32.0.15.6070, time stamp: 0x668eca2c\nException code: 0xc0000005')"
expect_json '.matches[0].causes[0].fix[0] | startswith("nvidia-smi.exe")'
# cudarc's GetProcAddress 127: the driver's nvcuda.dll lacks the function
winlead explain.libs.nvcuda_missing_windows "$(printf "thread 'main' panicked at C:\\Users\\me\\.cargo\\registry\\src\\cudarc-0.17.5\\src\\driver\\sys\\mod.rs:20014:18:\nExpected symbol in library: GetProcAddress { source: Os { code: 127, kind: Uncategorized } }")"

# CMake's check of the CUDA compiler is a wrapper: nvcc's own C1189 below it leads
run_json explain "$(printf 'CMake Error at C:/Program Files/CMake/share/cmake-3.29/Modules/CMakeTestCUDACompiler.cmake:59 (message):\n  It fails with the following output:\n    C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\include\\crt/host_config.h(153): fatal error C1189: #error:  -- unsupported Microsoft Visual Studio version! Only the versions between 2017 and 2022 (inclusive) are supported!')"
expect_json '.matches[0].signature == "explain.sig.msvc_unsupported" and .matches[0].causes[0].id == "explain.toolkit.msvc_unsupported"'

# the driver's installer finds no GPU it supports: what Windows sees first
winlead explain.host.win_driver_installer_no_gpu "$(printf 'NVIDIA Installer cannot continue\nThis graphics driver could not find compatible graphics hardware.')"
expect_json '.matches[0].causes[0].fix[0] | startswith("pnputil /enum-devices")'

# the driver's nvcuda.dll, asked for by .NET, and in a loader's own words
winlead explain.libs.nvcuda_missing_windows "Unhandled exception. System.DllNotFoundException: Unable to load DLL 'nvcuda' or one of its dependencies: The specified module could not be found. (0x8007007E)"
expect_json '.matches[0].causes[0].fix[0] | startswith("nvidia-smi.exe")'
winlead explain.libs.nvcuda_missing_windows 'Failed to load nvcuda.dll'
run_json explain --platform native 'Failed to load nvcuda.dll'
expect_json '.matches[0].causes[0].id == "explain.wide.driver_lib_missing"'

# a CUDA library's DLL: .NET's name without extension, cudarc's list of names
winlead explain.wide.cuda_dll_not_found "Additional information: Unable to load DLL 'npps64_75': The specified module could not be found. (Exception from HRESULT: 0x8007007E)"
winlead explain.wide.cuda_dll_not_found 'Unable to dynamically load the "cudart" shared library - searched for library names: ["cudart.dll", "cudart64.dll", "cudart64_12.dll"]. Ensure that `LD_LIBRARY_PATH` has the correct path to the installed library.'
expect_json '.matches[0].causes[0].fix[0] | test("where\\.exe")'
expect_json '[.matches[0].causes[0].fix[] | select(test("LD_LIBRARY_PATH|ldconfig"))] == []'

# Python: a GPU package's compiled module in ComfyUI's portable Python
run_json explain 'F:\ComfyUI\ComfyUI_windows_portable\ComfyUI\custom_nodes\ComfyUI-WD14-Tagger module for custom nodes: DLL load failed while importing onnxruntime_pybind11_state
Please install the correct version of CUDA and cuDNN as mentioned in the GPU requirements page'
expect_json '.log_platform.kind == "windows"'
expect_json '[.matches[] | select(.signature == "explain.sig.pyd_dll_windows") | .causes[0].id] == ["explain.frameworks.pyd_dll_windows"]'
expect_json '[.matches[] | select(.signature == "explain.sig.pyd_dll_windows") | .causes[0].fix[0]] | .[0] | startswith("python.exe -m pip list")'

# PyTorch's own DLL (torch\lib\c10.dll) cannot start in ComfyUI's portable
# Python: the Visual C++ runtime leads, with a look at the torch build first;
# the portable launcher's own hint about the driver does not lead
winlead explain.frameworks.torch_dll_vcruntime 'OSError: [WinError 1114] A dynamic link library (DLL) initialization routine failed. Error loading "D:\ComfyUI_windows_portable\python_embeded\Lib\site-packages\torch\lib\c10.dll" or one of its dependencies.
If you see this and ComfyUI did not start try updating your Nvidia Drivers to the latest.'
expect_json '.matches[0].signature == "explain.sig.torch_dll_windows" and (.matches[0].causes[0].fix[0] | startswith("python.exe -m pip show torch"))'
# fbgemm.dll's missing OpenMP DLL: PyTorch 2.4.0's wheels lead
winlead explain.frameworks.torch240_fbgemm_windows 'OSError: [WinError 126] The specified module could not be found. Error loading "E:\ComfyUI_windows_portable\python_embeded\Lib\site-packages\torch\lib\fbgemm.dll" or one of its dependencies.'
# torch's own _C module (from torch._C import *) in a CUDA build: the Visual
# C++ runtime leads; an extension's _C (pytorch3d) leads with its build
winlead explain.frameworks.torch_dll_vcruntime '  File "C:\Users\me\venv\Lib\site-packages\torch\__init__.py", line 148, in <module>
    from torch._C import *  # noqa: F403
ImportError: DLL load failed while importing _C: The specified module could not be found.
torch 2.5.1+cu124'
winlead explain.wide.extension_abi_windows 'pytorch 2.7 cu128 nightly, pytorch3d-0.7.5+pt2.3.1cu121-cp312-cp312-win_amd64.whl
  File "E:\ComfyUI\ComfyUI\custom_nodes\comfyui-3d-pack\nodes.py", line 59, in <module>
ImportError: DLL load failed while importing _C'
# error 127: the extension built for another torch, whatever module it names
winlead explain.frameworks.ext_abi_windows 'Running on windows, python 3.10, and pytorch 2.3.0 cuda
 File "C:\Users\me\py310\lib\site-packages\torch_linear_assignment\assignment.py", line 4, in <module>
ImportError: DLL load failed while importing _backend: The specified procedure could not be found.'
# ZLUDA's stand-ins for torch's CUDA DLLs (an AMD GPU): the HIP SDK's bin
# folder on PATH leads, with a look at it first, for torch's own DLL and for a
# CUDA library's name in torch\lib alike; without ZLUDA in the paste its
# reading does not lead
winlead explain.frameworks.zluda_hip_path_windows 'File "C:\ComfyUI-Zluda\venv\lib\site-packages\torch\__init__.py", line 141, in <module>
OSError: [WinError 126] The specified module could not be found. Error loading "C:\ComfyUI-Zluda\venv\lib\site-packages\torch\lib\caffe2_nvrtc.dll" or one of its dependencies.'
expect_json '.matches[0].signature == "explain.sig.torch_dll_windows" and (.matches[0].causes[0].fix[0] | startswith("Get-ChildItem Env:HIP_PATH"))'
winlead explain.frameworks.zluda_hip_path_windows 'OSError: [WinError 126] The specified module could not be found. Error loading "D:\FramePack-ZLUDA\venv\lib\site-packages\torch\lib\cudnn64_9.dll" or one of its dependencies.'
run_json explain 'OSError: [WinError 126] The specified module could not be found. Error loading "D:\FramePack\venv\lib\site-packages\torch\lib\cudnn64_9.dll" or one of its dependencies.'
expect_json '.matches[0].causes[0].id != "explain.frameworks.zluda_hip_path_windows" and .matches[0].causes[1].id != "explain.frameworks.zluda_hip_path_windows"'
# with nothing of a GPU in the paste, not read
run_json explain 'OSError: [WinError 1114] A dynamic link library (DLL) initialization routine failed. Error loading "C:\Program Files\Python311\Lib\site-packages\torch\lib\c10.dll" or one of its dependencies.'
expect_json '.matches == []'

# pip finds no CUDA build of torch for this Python (a 32-bit one here): the
# look at the Python comes first; a CPU-only install failing is not read
winlead explain.frameworks.torch_no_wheel "$(printf 'PS C:\\Users\\me> pip install torch --index-url https://download.pytorch.org/whl/cu124\nERROR: Could not find a version that satisfies the requirement torch (from versions: none)\nERROR: No matching distribution found for torch')"
expect_json '.matches[0].causes[0].fix[0] | startswith("python -c")'
run_json explain "$(printf 'ERROR: Could not find a version that satisfies the requirement torch (from versions: none)\nERROR: No matching distribution found for torch')"
expect_json '.matches == []'
# a +cuXXX pin asked of PyPI alone (no PyTorch index in the paste): pip's matter
run_json explain 'Installing `pip install -r requirements.txt` throws error: No matching distribution found for torch==2.1.1+cu121'
expect_json '.matches == []'

# torch.compile without a working Triton: triton-windows on Windows only
winlead explain.frameworks.triton_windows 'File "G:\ComfyUI_windows_portable\python_embeded\Lib\site-packages\torch\_inductor\scheduler.py", line 3957, in create_backend
torch._inductor.exc.TritonMissing: Cannot find a working triton installation. Either the package is not installed or it is too old.'
run_json explain --platform native 'RuntimeError: Cannot find a working triton installation. More information on installing Triton can be found at https://github.com/openai/triton'
expect_json '.matches[0].causes[0].id == "explain.frameworks.triton_missing"'
expect_json '[.matches[0].causes[] | select(.id == "explain.frameworks.triton_windows") | .machine] == ["not_applicable"]'

# nvidia-smi on Windows itself: Windows' reasons (no driver at work, the GPU
# disabled or switched off) lead, with a look first; WSL's stay bound, and
# on native Linux the kernel module leads (actions/partner-runner-images#54)
winlead explain.host.no_gpu_windows "$(printf 'PS C:\\Users\\runner> nvidia-smi\nNVIDIA-SMI has failed because it couldn'"'"'t communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running. This can also be happening if non-NVIDIA GPU is running as primary display, and NVIDIA GPU is in WDDM mode.')"
expect_json '.matches[0].causes[0].fix[0] | startswith("Get-PnpDevice")'
expect_json '[.matches[0].causes[] | select(.id == "nvml.smi.no_driver") | .machine] == ["platform_bound"]'
run_json explain --platform native "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running."
expect_json '.matches[0].causes[0].id == "nvml.smi.native_no_driver"'
expect_json '[.matches[0].causes[] | select(.id == "explain.host.no_gpu_windows") | .machine] == ["not_applicable"]'

# Ollama on Windows: cudart error 100 is no device (ollama#9496), not an old
# driver; on Linux the general reading leads
winlead explain.host.no_gpu_windows 'time=2025-03-05T11:57:30.894+10:00 level=DEBUG source=gpu.go:574 msg="Unable to load cudart library C:\\Users\\clint\\AppData\\Local\\Programs\\Ollama\\lib\\ollama\\cuda_v12\\cudart64_12.dll: cudart init failure: 100"'
expect_json '.matches[0].signature == "explain.sig.ollama_cudart_100"'
run_json explain --platform native 'time=2025-03-05T11:57:30.894Z level=DEBUG source=gpu.go:574 msg="Unable to load cudart library /usr/local/lib/ollama/cuda_v12/libcudart.so.12: cudart init failure: 100"'
expect_json '.matches[0].causes[0].id == "explain.cuda.no_device_any"'

# WinError 193 on a CUDA DLL: a damaged or wrong-bitness DLL, a look first
# (2noise/ChatTTS#886); on numpy's DLL it is no GPU message (pytorch#100694)
winlead explain.wide.dll_not_valid_windows 'OSError: [WinError 193] %1 is not a valid Win32 application. Error loading "D:\Program Files\Python311\Lib\site-packages\torch\lib\cublas64_12.dll" or one of its dependencies.'
expect_json '.matches[0].causes[0].fix[0] | startswith("python -c")'
run_json explain "$(printf '  File "C:\\Users\\Neo\\AppData\\Local\\Programs\\Python\\Python311\\Lib\\ctypes\\__init__.py", line 376, in __init__\n    self._handle = _dlopen(self._name, mode)\nOSError: [WinError 193] %%1 is not a valid Win32 application')"
expect_json '.matches == []'

# .NET's "Unable to load DLL 'onnxruntime'" with its CUDA package: the
# CUDA and cuDNN DLLs on PATH first (onnxruntime-genai#539); the same words
# with no CUDA word are no GPU message
winlead explain.apps.ort_dotnet_dll "$(printf "Microsoft.ML.OnnxRuntimeGenAI.Cuda v0.2.0\nSystem.DllNotFoundException: 'Unable to load DLL 'onnxruntime-genai' or one of its dependencies: The specified module could not be found. (0x8007007E)'")"
expect_json '.matches[0].causes[0].fix[0] | startswith("where.exe")'
run_json explain "System.DllNotFoundException : Unable to load DLL 'onnxruntime': The specified module could not be found. (Exception from HRESULT: 0x8007007E)"
expect_json '.matches == []'

# Windows' App Control / Smart App Control refusing torch's DLL: the Code Integrity log leads
winlead explain.platform.win_app_control_block '[WinError 4551] An Application Control policy has blocked this file. Error loading "C:\app\Python311\site-packages\torch\lib\torch.dll" or one of its dependencies.'
expect_json '.matches[0].causes[0].fix[0] | startswith("Get-WinEvent")'
# a device index a Windows laptop does not have: the GPUs' own list first, no unset/export
winlead explain.cuda.device_index_absent "$(printf 'File "C:\\Users\\me\\AppData\\Local\\Programs\\Python\\Python311\\Lib\\site-packages\\faster_whisper\\transcribe.py", line 145, in __init__\nRuntimeError: CUDA failed with error invalid device ordinal')"
expect_json '.matches[0].causes[0].fix[0] | startswith("nvidia-smi -L")'

# TensorRT's builder refusing its kernel library: on Windows the DLLs on PATH
# lead (where.exe), elsewhere the pip packages and the loader cache
winlead explain.frameworks.trt_cask_klib_mix_windows '[FastDeploy][INFO]:  Successfully found CUDA ToolKit from system PATH env -> C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.1\bin
[ERROR] fastdeploy/runtime/backends/tensorrt/trt_backend.cc(232)::fastdeploy::FDTrtLogger::log  2: [builder.cpp::nvinfer1::builder::createCaskKernelLibraryImpl::137] Error Code 2: Internal Error (Assertion validateCaskKLibSize(buffer.size) failed. )'
expect_json '.matches[0].causes[0].fix[0] | startswith("where.exe nvinfer")'
run_json explain --platform native '[TRT] [E] 2: [builder.cpp::createCaskKernelLibraryImpl::157] Error Code 2: Internal Error (Assertion validateCaskKLibSize(buffer.size) failed. )'
expect_json '.matches[0].causes[0].id == "explain.frameworks.trt_cask_klib_mix" and (.matches[0].causes[0].fix[0] | startswith("python -m pip list"))'

# A log saved by Windows PowerShell 5.1's '>' is UTF-16LE with a mark and
# CR LF (learn.microsoft.com about_Character_Encoding): read as text, said
# so; with no mark too; and across reads, a pair of surrogates (an emoji)
# or a code unit cut by a read's end (the big-endian pattern with no mark
# is read from its second byte) decodes whole.
printf 'PS C:\\ml> python train.py > log.txt\r\nRuntimeError: CUDA error: no kernel image is available for execution on the device\r\n' |
	iconv -f UTF-8 -t UTF-16 >"$WORK/ps-utf16.log"
run_json explain -f "$WORK/ps-utf16.log"
expect_json '.input.encoding == "utf-16" and .input.nul_bytes == 0 and .summary.first_problem == "explain.sig.no_kernel_image"'
run explain -f "$WORK/ps-utf16.log"
expect_line 'note: the input was UTF-16'
expect_no_line 'NUL byte'
printf 'torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n' | iconv -f UTF-8 -t UTF-16LE >"$WORK/nobom.log"
run_json explain -f "$WORK/nobom.log"
expect_json '.input.encoding == "utf-16" and .summary.first_problem != null'
# 131,070 code units after the mark end the first 256 KiB read: the
# emoji's high surrogate is its last unit, the low one the next read's first
{ printf '\377\376'; head -c 131069 /dev/zero | tr '\0' 'x' | iconv -f UTF-8 -t UTF-16LE; printf '\n\360\237\224\245 RuntimeError: CUDA error: no kernel image is available for execution on the device\n' | iconv -f UTF-8 -t UTF-16LE; } >"$WORK/split.log"
run explain -f "$WORK/split.log"
expect_line '🔥 RuntimeError: CUDA error: no kernel image'
{ printf '\n\360\237\224\245 RuntimeError: CUDA error: no kernel image is available for execution on the device\n' | iconv -f UTF-8 -t UTF-16BE; head -c 140000 /dev/zero | tr '\0' 'x' | iconv -f UTF-8 -t UTF-16BE; printf '\nRuntimeError: CUDA error: an illegal memory access was encountered\n' | iconv -f UTF-8 -t UTF-16BE; } >"$WORK/split-be.log"
run_json explain -f "$WORK/split-be.log"
expect_json '.input.encoding == "utf-16" and ([.matches[].signature] | length) == 2 and .input.invalid_utf8_bytes == 0'


# Forge's words for the web UI's start-up GPU test: on Windows the test
# in the web UI's own Python leads (a venv, or the one-click package's
# system\python); on Linux the Linux reading
FORGE='  File "C:\Users\st\Downloads\forge\webui\modules\launch_utils.py", line 436, in prepare_environment
RuntimeError: Your device does not support the current version of Torch/CUDA! Consider download another version
Press any key to continue . . .'
winlead explain.apps.sd_cuda_test_windows "$FORGE"
expect_json '[.matches[0].causes[0].fix[] | select(startswith(".\\system\\python\\python.exe"))] | length == 1'
run_json explain --platform native 'RuntimeError: Your device does not support the current version of Torch/CUDA! Consider download another version:'
expect_json '.matches[0].causes[0].id == "explain.apps.sd_cuda_test"'

# cuDNN's status from Paddle's operators on Windows: the CUDA and cuDNN
# releases the wheel was built for lead, with Paddle's own look
winlead explain.frameworks.paddle_cudnn_release "$(printf 'E:\\ocr\\env\\Scripts\\python.exe tools\\infer\\predict_rec.py\nExternalError: CUDNN error(4), CUDNN_STATUS_INTERNAL_ERROR.\n  [Hint: %sCUDNN_STATUS_INTERNAL_ERROR%s.  An internal cuDNN operation failed.  ] (at ..\\paddle\\phi\\kernels\\gpu\\rnn_kernel.cu.cc:88)\n  [operator < rnn > error]' "'" "'")"
expect_json '.matches[0].causes[0].fix[0] | test("paddle.version.cuda")'

# ONNX Runtime's CUDA provider "which is missing" (1.21's loader words, the
# dependency garbled in a Chinese Windows): the DLLs on PATH looked at first
winlead explain.apps.ort_cuda_dll_windows 'FAIL : Error loading "D:\AI\ComfyUI\venv\Lib\site-packages\onnxruntime\capi\onnxruntime_providers_cuda.dll" which depN0Rc歔剉!jWW0")Lt64_12.dll" which is missing. (Error 126: "~b'
expect_json '.matches[0].causes[0].fix[0] | startswith("where.exe")'

# A message any program prints, from a program that ran on Windows itself:
# no WSL reading leads it (Ollama loading System32's nvml.dll,
# ollama/ollama#3367): Windows' own reading first, WSL's after it, bound
# (where every cause is WSL's, each is not the log's: test_rank_windows)
run_json explain 'time=2024-03-27T14:21:31.119+08:00 level=INFO source=gpu.go:323 msg="Unable to load CUDA management library c:\\Windows\\System32\\nvml.dll: nvml vram init failure: 4"'
expect_json '.log_platform.kind == "windows" and .matches[0].signature == "explain.sig.ollama_nvml"'
expect_json '.matches[0].causes[0].machine == null and ([.matches[0].causes[] | select(.id == "nvml.init.linux_nvml" or .id == "libs.loader.distro_package") | .machine] | length == 2 and all(. != null))'
run_json explain --platform wsl2 'msg="Unable to load CUDA management library /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.535.171.04: nvml vram init failure: 9"'
expect_json '.matches[0].causes[0].id == "nvml.init.linux_nvml" and .matches[0].causes[0].machine == null'

# Ollama on Windows could not initialise the driver's nvml.dll: its Windows
# reading leads (the driver, a non-ASCII user folder), the WSL readings of a
# Linux NVML are bound to WSL; the same words from Linux keep those
winlead explain.apps.ollama_windows_nvml 'time=2024-04-02T10:11:12.345+02:00 level=INFO source=gpu.go:323 msg="Unable to load CUDA management library C:\\Windows\\System32\\nvml.dll: nvml vram init failure: 9"'
expect_json '.matches[0].causes[0].fix[0] | startswith("nvidia-smi.exe")'
expect_json '[.matches[0].causes[] | select(.id == "nvml.init.linux_nvml") | .machine] == ["platform_bound"]'
run_json explain --platform wsl2 'Jan 08 19:28:33 XDFAF ollama[178990]: 2024/01/08 19:28:33 gpu.go:39: CUDA not detected: nvml vram init failure: 9'
expect_json '.matches[0].causes[0].id == "nvml.init.linux_nvml"'
expect_json '[.matches[0].causes[] | select(.id == "explain.apps.ollama_windows_nvml") | .machine] == ["not_applicable"]'

# nvcc's cudafe++ crashed under MSBuild (an NTSTATUS): the compiler fault
# leads, not the out-of-memory reading
winlead explain.toolkit.nvcc_stage_crashed "$(printf 'CUDACOMPILE : nvcc error : '"'"'cudafe++'"'"' died with status 0xC0000005 (ACCESS_VIOLATION)\nC:\\Program Files\\Microsoft Visual Studio\\2022\\Community\\MSBuild\\Microsoft\\VC\\v170\\BuildCustomizations\\CUDA 12.9.targets(799,9): error MSB3721')"
expect_json '.matches[0].causes[0].fix[0] | startswith("nvcc --version")'

# torch.compile importing a Triton name the installed triton-windows lacks:
# a version pair, not the GPU; the first step prints both versions
winlead explain.frameworks.torch_triton_mismatch 'ImportError: cannot import name '"'"'AttrsDescriptor'"'"' from '"'"'triton.compiler.compiler'"'"' (G:\pinokio\api\wan.git\app\env\lib\site-packages\triton\compiler\compiler.py)'
expect_json '.matches[0].causes[0].fix[0] | startswith("python -c \"import torch, triton")'

# Ollama's own discovery warnings on Windows: its override reading, not WSL's
# CUDA_VISIBLE_DEVICES=0 myth; the runner that printed nothing leads where the
# log shows it, with a step Windows runs
winlead explain.apps.ollama_visible_devices_override 'time=2025-11-04T17:48:09.262+01:00 level=WARN source=runner.go:713 msg="user overrode visible devices" CUDA_VISIBLE_DEVICES=0 OLLAMA_MODELS=C:\AI-Models\llms'
expect_json '[.matches[].signature] | index("explain.sig.myth_cvd_zero") == null'
winlead explain.apps.ollama_discovery_runner_silent "$(printf 'level=WARN source=runner.go:713 msg="user overrode visible devices" CUDA_VISIBLE_DEVICES=0\nlevel=WARN source=llama_server.go:135 msg="llama-server discovery: system_info line not found in output - CUDA architecture filtering will be disabled." libDirs="[C:\\\\Users\\\\u\\\\AppData\\\\Local\\\\Programs\\\\Ollama\\\\lib\\\\ollama]" lines_captured=0')"

# a GPU-partitioning script calling Windows 11's cmdlet on a Windows 10 host:
# the cmdlet names, listed first, not the GPU
winlead explain.platform.gpupv_cmdlet_names "$(printf 'Get-VMHostPartitionableGpu : The term '"'"'Get-VMHostPartitionableGpu'"'"' is not recognized as the name of a cmdlet, function, script file, or operable program.\nAt C:\\Tools\\GPU-PV\\Setup.ps1:88 char:5')"
expect_json '.matches[0].causes[0].fix[0] | startswith("Get-Command")'

# a PyTorch without NCCL: Windows' own reading leads on a Windows log (the
# warning alone), and on a Linux log the CPU-only build leads, the Windows
# reading not there
winlead explain.nccl.no_nccl_windows 'D:\Python39\lib\site-packages\torch\distributed\distributed_c10d.py:613: UserWarning: Attempted to get default timeout for nccl backend, but NCCL support is not compiled'
run_json explain --platform native 'RuntimeError: Distributed package doesn'"'"'t have NCCL built in'
expect_json '.matches[0].causes[0].id != "explain.nccl.no_nccl_windows"'
expect_json '[.matches[0].causes[] | select(.id == "explain.nccl.no_nccl_windows") | .machine] == ["not_applicable"]'

# cuDNN 9's sub-libraries from two places: on Windows the DLLs' reading, where.exe first
winlead explain.libstatus.cudnn_parts_windows "$(printf 'OS: Windows 11\nError: CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH at F.conv2d() during VAEDecode\n  File "C:\\ComfyUI\\comfy\\ops.py", line 120')"
expect_json '.matches[0].causes[0].fix[0] | startswith("where.exe")'

# ncnn's "vkCreateInstance failed -9" in an Upscayl log on Windows: the GPU
# driver's Vulkan, with a look (vulkaninfo) before any driver installation
winlead explain.host.windows_vulkan_driver "$(printf '🖼 imagePath:  C:\\Users\\pc\\Downloads\\2Q.png\n🎒 BACKEND REPORTED:  vkCreateInstance failed -9\n🚧 UPSCAYL_PROGRESS:  vkCreateInstance failed -9')"
expect_json '.matches[0].causes[0].fix[0] | startswith("vulkaninfo --summary")'
run_json explain --platform native 'vkCreateInstance failed -9'
expect_json '.matches[0].causes[0].id == "explain.libs.vulkan_no_icd"'

# a stale CUDA_PATH: the error's folder against the variable, a look first
winlead explain.toolkit.cuda_path_stale_windows "FileNotFoundError: [WinError 3] The system cannot find the path specified: 'C:\\\\Program Files\\\\NVIDIA GPU Computing Toolkit\\\\CUDA\\\\11.2\\\\bin'"
expect_json '.matches[0].causes[0].fix[0] | startswith("Get-ChildItem Env:CUDA_PATH")'

done_testing
