/*
 * codes.c: the error-code table and the number forms. See codes.h.
 *
 * Sources (numbers and names as the headers define them):
 *   CUresult        https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html
 *   cudaError_t     https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html
 *                   (the numbering of CUDA 10.1 and later; older runtimes
 *                   numbered cudaError_t differently, cudaErrorNoDevice was 38)
 *   nvmlReturn_t    https://docs.nvidia.com/deploy/nvml-api/group__nvmlDeviceEnumvs.html
 *                   pynvml turns NVML_ERROR_DRIVER_NOT_LOADED into the
 *                   exception class NVMLError_DriverNotLoaded
 *                   (https://github.com/gpuopenanalytics/pynvml)
 *   ncclResult_t    https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/api/types.html
 *                   CuPy names 1-5 NCCL_ERROR_UNHANDLED_CUDA_ERROR ... NCCL_ERROR_INVALID_USAGE
 *                   in its NcclError (https://github.com/cupy/cupy, cupy_backends/cuda/libs/nccl.pyx)
 *   cublasStatus_t  https://docs.nvidia.com/cuda/cublas/index.html#cublasstatus-t
 *   cudnnStatus_t   https://docs.nvidia.com/deeplearning/cudnn/api/latest/api/cudnn-graph-library.html#cudnnstatus-t
 *                   (cuDNN 9: 1001, 2000, 3000... by category); cuDNN 7 and 8
 *                   numbered them 1-13, https://docs.nvidia.com/deeplearning/cudnn/archives/cudnn-897/api/index.html#cudnnStatus_t
 *                   (a name is looked up as cuDNN 9's; both numbers are read)
 *   cufftResult     https://docs.nvidia.com/cuda/cufft/index.html#cufftresult
 *   cusparseStatus_t https://docs.nvidia.com/cuda/cusparse/index.html#cusparsestatus-t
 *   curandStatus_t  https://docs.nvidia.com/cuda/curand/group__HOST.html
 *   (numbers checked against the CUDA 13.0 toolkit's and cuDNN 9's headers)
 *   HRESULT         0x80370102 HCS_E_HYPERV_NOT_INSTALLED
 *                   (https://github.com/microsoft/WSL/issues/41635),
 *                   0x80370114 HCS_E_SERVICE_NOT_AVAILABLE
 *                   (https://github.com/microsoft/WSL/issues/8693),
 *                   0x8007019E / 0x800701BC: Win32 errors 414
 *                   ERROR_LINUX_SUBSYSTEM_NOT_PRESENT and 444
 *                   ERROR_LINUX_SUBSYSTEM_UPDATE_REQUIRED as HRESULTs
 *                   (https://learn.microsoft.com/en-us/windows/win32/debug/system-error-codes--0-499-,
 *                   https://github.com/microsoft/WSL/issues/10613,
 *                   https://github.com/microsoft/WSL/issues/5393),
 *                   0x80070005 E_ACCESSDENIED
 *                   (https://learn.microsoft.com/en-us/dotnet/api/microsoft.visualstudio.vsconstants.e_accessdenied),
 *                   0x8000FFFF E_UNEXPECTED
 *                   (https://github.com/microsoft/WSL/issues/41635).
 */
#include "codes.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static struct err_code table[] = {
	{ CF_CUDA, 1, { "CUDA_ERROR_INVALID_VALUE", "cudaErrorInvalidValue", NULL } },
	{ CF_CUDA, 2, { "CUDA_ERROR_OUT_OF_MEMORY", "cudaErrorMemoryAllocation", NULL } },
	{ CF_CUDA, 3, { "CUDA_ERROR_NOT_INITIALIZED", "cudaErrorInitializationError", NULL } },
	{ CF_CUDA, 4, { "CUDA_ERROR_DEINITIALIZED", "cudaErrorCudartUnloading", NULL } },
	{ CF_CUDA, 5, { "CUDA_ERROR_PROFILER_DISABLED", "cudaErrorProfilerDisabled", NULL } },
	{ CF_CUDA, 6, { "CUDA_ERROR_PROFILER_NOT_INITIALIZED", "cudaErrorProfilerNotInitialized", NULL } },
	{ CF_CUDA, 7, { "CUDA_ERROR_PROFILER_ALREADY_STARTED", "cudaErrorProfilerAlreadyStarted", NULL } },
	{ CF_CUDA, 8, { "CUDA_ERROR_PROFILER_ALREADY_STOPPED", "cudaErrorProfilerAlreadyStopped", NULL } },
	{ CF_CUDA, 9, { "cudaErrorInvalidConfiguration", NULL, NULL } },
	{ CF_CUDA, 12, { "cudaErrorInvalidPitchValue", NULL, NULL } },
	{ CF_CUDA, 13, { "cudaErrorInvalidSymbol", NULL, NULL } },
	{ CF_CUDA, 16, { "cudaErrorInvalidHostPointer", NULL, NULL } },
	{ CF_CUDA, 17, { "cudaErrorInvalidDevicePointer", NULL, NULL } },
	{ CF_CUDA, 18, { "cudaErrorInvalidTexture", NULL, NULL } },
	{ CF_CUDA, 19, { "cudaErrorInvalidTextureBinding", NULL, NULL } },
	{ CF_CUDA, 20, { "cudaErrorInvalidChannelDescriptor", NULL, NULL } },
	{ CF_CUDA, 21, { "cudaErrorInvalidMemcpyDirection", NULL, NULL } },
	{ CF_CUDA, 22, { "cudaErrorAddressOfConstant", NULL, NULL } },
	{ CF_CUDA, 23, { "cudaErrorTextureFetchFailed", NULL, NULL } },
	{ CF_CUDA, 24, { "cudaErrorTextureNotBound", NULL, NULL } },
	{ CF_CUDA, 25, { "cudaErrorSynchronizationError", NULL, NULL } },
	{ CF_CUDA, 26, { "cudaErrorInvalidFilterSetting", NULL, NULL } },
	{ CF_CUDA, 27, { "cudaErrorInvalidNormSetting", NULL, NULL } },
	{ CF_CUDA, 28, { "cudaErrorMixedDeviceExecution", NULL, NULL } },
	{ CF_CUDA, 31, { "cudaErrorNotYetImplemented", NULL, NULL } },
	{ CF_CUDA, 32, { "cudaErrorMemoryValueTooLarge", NULL, NULL } },
	{ CF_CUDA, 34, { "CUDA_ERROR_STUB_LIBRARY", "cudaErrorStubLibrary", NULL } },
	{ CF_CUDA, 35, { "cudaErrorInsufficientDriver", NULL, NULL } },
	{ CF_CUDA, 36, { "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER", "cudaErrorCallRequiresNewerDriver", NULL } },
	{ CF_CUDA, 37, { "cudaErrorInvalidSurface", NULL, NULL } },
	{ CF_CUDA, 43, { "cudaErrorDuplicateVariableName", NULL, NULL } },
	{ CF_CUDA, 44, { "cudaErrorDuplicateTextureName", NULL, NULL } },
	{ CF_CUDA, 45, { "cudaErrorDuplicateSurfaceName", NULL, NULL } },
	{ CF_CUDA, 46, { "CUDA_ERROR_DEVICE_UNAVAILABLE", "cudaErrorDevicesUnavailable", NULL } },
	{ CF_CUDA, 49, { "cudaErrorIncompatibleDriverContext", NULL, NULL } },
	{ CF_CUDA, 52, { "cudaErrorMissingConfiguration", NULL, NULL } },
	{ CF_CUDA, 53, { "cudaErrorPriorLaunchFailure", NULL, NULL } },
	{ CF_CUDA, 65, { "cudaErrorLaunchMaxDepthExceeded", NULL, NULL } },
	{ CF_CUDA, 66, { "cudaErrorLaunchFileScopedTex", NULL, NULL } },
	{ CF_CUDA, 67, { "cudaErrorLaunchFileScopedSurf", NULL, NULL } },
	{ CF_CUDA, 68, { "cudaErrorSyncDepthExceeded", NULL, NULL } },
	{ CF_CUDA, 69, { "cudaErrorLaunchPendingCountExceeded", NULL, NULL } },
	{ CF_CUDA, 98, { "cudaErrorInvalidDeviceFunction", NULL, NULL } },
	{ CF_CUDA, 100, { "CUDA_ERROR_NO_DEVICE", "cudaErrorNoDevice", NULL } },
	{ CF_CUDA, 101, { "CUDA_ERROR_INVALID_DEVICE", "cudaErrorInvalidDevice", NULL } },
	{ CF_CUDA, 102, { "CUDA_ERROR_DEVICE_NOT_LICENSED", "cudaErrorDeviceNotLicensed", NULL } },
	{ CF_CUDA, 103, { "cudaErrorSoftwareValidityNotEstablished", NULL, NULL } },
	{ CF_CUDA, 127, { "cudaErrorStartupFailure", NULL, NULL } },
	{ CF_CUDA, 200, { "CUDA_ERROR_INVALID_IMAGE", "cudaErrorInvalidKernelImage", NULL } },
	{ CF_CUDA, 201, { "CUDA_ERROR_INVALID_CONTEXT", "cudaErrorDeviceUninitialized", NULL } },
	{ CF_CUDA, 202, { "CUDA_ERROR_CONTEXT_ALREADY_CURRENT", NULL, NULL } },
	{ CF_CUDA, 205, { "CUDA_ERROR_MAP_FAILED", "cudaErrorMapBufferObjectFailed", NULL } },
	{ CF_CUDA, 206, { "CUDA_ERROR_UNMAP_FAILED", "cudaErrorUnmapBufferObjectFailed", NULL } },
	{ CF_CUDA, 207, { "CUDA_ERROR_ARRAY_IS_MAPPED", "cudaErrorArrayIsMapped", NULL } },
	{ CF_CUDA, 208, { "CUDA_ERROR_ALREADY_MAPPED", "cudaErrorAlreadyMapped", NULL } },
	{ CF_CUDA, 209, { "CUDA_ERROR_NO_BINARY_FOR_GPU", "cudaErrorNoKernelImageForDevice", NULL } },
	{ CF_CUDA, 210, { "CUDA_ERROR_ALREADY_ACQUIRED", "cudaErrorAlreadyAcquired", NULL } },
	{ CF_CUDA, 211, { "CUDA_ERROR_NOT_MAPPED", "cudaErrorNotMapped", NULL } },
	{ CF_CUDA, 212, { "CUDA_ERROR_NOT_MAPPED_AS_ARRAY", "cudaErrorNotMappedAsArray", NULL } },
	{ CF_CUDA, 213, { "CUDA_ERROR_NOT_MAPPED_AS_POINTER", "cudaErrorNotMappedAsPointer", NULL } },
	{ CF_CUDA, 214, { "CUDA_ERROR_ECC_UNCORRECTABLE", "cudaErrorECCUncorrectable", NULL } },
	{ CF_CUDA, 215, { "CUDA_ERROR_UNSUPPORTED_LIMIT", "cudaErrorUnsupportedLimit", NULL } },
	{ CF_CUDA, 216, { "CUDA_ERROR_CONTEXT_ALREADY_IN_USE", "cudaErrorDeviceAlreadyInUse", NULL } },
	{ CF_CUDA, 217, { "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", "cudaErrorPeerAccessUnsupported", NULL } },
	{ CF_CUDA, 218, { "CUDA_ERROR_INVALID_PTX", "cudaErrorInvalidPtx", NULL } },
	{ CF_CUDA, 219, { "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT", "cudaErrorInvalidGraphicsContext", NULL } },
	{ CF_CUDA, 220, { "CUDA_ERROR_NVLINK_UNCORRECTABLE", "cudaErrorNvlinkUncorrectable", NULL } },
	{ CF_CUDA, 221, { "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "cudaErrorJitCompilerNotFound", NULL } },
	{ CF_CUDA, 222, { "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "cudaErrorUnsupportedPtxVersion", NULL } },
	{ CF_CUDA, 223, { "CUDA_ERROR_JIT_COMPILATION_DISABLED", "cudaErrorJitCompilationDisabled", NULL } },
	{ CF_CUDA, 224, { "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY", "cudaErrorUnsupportedExecAffinity", NULL } },
	{ CF_CUDA, 225, { "CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC", "cudaErrorUnsupportedDevSideSync", NULL } },
	{ CF_CUDA, 226, { "CUDA_ERROR_CONTAINED", "cudaErrorContained", NULL } },
	{ CF_CUDA, 300, { "CUDA_ERROR_INVALID_SOURCE", "cudaErrorInvalidSource", NULL } },
	{ CF_CUDA, 301, { "CUDA_ERROR_FILE_NOT_FOUND", "cudaErrorFileNotFound", NULL } },
	{ CF_CUDA, 302, { "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND", "cudaErrorSharedObjectSymbolNotFound", NULL } },
	{ CF_CUDA, 303, { "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED", "cudaErrorSharedObjectInitFailed", NULL } },
	{ CF_CUDA, 304, { "CUDA_ERROR_OPERATING_SYSTEM", "cudaErrorOperatingSystem", NULL } },
	{ CF_CUDA, 400, { "CUDA_ERROR_INVALID_HANDLE", "cudaErrorInvalidResourceHandle", NULL } },
	{ CF_CUDA, 401, { "CUDA_ERROR_ILLEGAL_STATE", "cudaErrorIllegalState", NULL } },
	{ CF_CUDA, 402, { "cudaErrorLossyQuery", NULL, NULL } },
	{ CF_CUDA, 500, { "CUDA_ERROR_NOT_FOUND", "cudaErrorSymbolNotFound", NULL } },
	{ CF_CUDA, 600, { "CUDA_ERROR_NOT_READY", "cudaErrorNotReady", NULL } },
	{ CF_CUDA, 700, { "CUDA_ERROR_ILLEGAL_ADDRESS", "cudaErrorIllegalAddress", NULL } },
	{ CF_CUDA, 701, { "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "cudaErrorLaunchOutOfResources", NULL } },
	{ CF_CUDA, 702, { "CUDA_ERROR_LAUNCH_TIMEOUT", "cudaErrorLaunchTimeout", NULL } },
	{ CF_CUDA, 703, { "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING", "cudaErrorLaunchIncompatibleTexturing", NULL } },
	{ CF_CUDA, 704, { "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED", "cudaErrorPeerAccessAlreadyEnabled", NULL } },
	{ CF_CUDA, 705, { "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED", "cudaErrorPeerAccessNotEnabled", NULL } },
	{ CF_CUDA, 708, { "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE", "cudaErrorSetOnActiveProcess", NULL } },
	{ CF_CUDA, 709, { "CUDA_ERROR_CONTEXT_IS_DESTROYED", "cudaErrorContextIsDestroyed", NULL } },
	{ CF_CUDA, 710, { "CUDA_ERROR_ASSERT", "cudaErrorAssert", NULL } },
	{ CF_CUDA, 711, { "CUDA_ERROR_TOO_MANY_PEERS", "cudaErrorTooManyPeers", NULL } },
	{ CF_CUDA, 712, { "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED", "cudaErrorHostMemoryAlreadyRegistered", NULL } },
	{ CF_CUDA, 713, { "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED", "cudaErrorHostMemoryNotRegistered", NULL } },
	{ CF_CUDA, 714, { "CUDA_ERROR_HARDWARE_STACK_ERROR", "cudaErrorHardwareStackError", NULL } },
	{ CF_CUDA, 715, { "CUDA_ERROR_ILLEGAL_INSTRUCTION", "cudaErrorIllegalInstruction", NULL } },
	{ CF_CUDA, 716, { "CUDA_ERROR_MISALIGNED_ADDRESS", "cudaErrorMisalignedAddress", NULL } },
	{ CF_CUDA, 717, { "CUDA_ERROR_INVALID_ADDRESS_SPACE", "cudaErrorInvalidAddressSpace", NULL } },
	{ CF_CUDA, 718, { "CUDA_ERROR_INVALID_PC", "cudaErrorInvalidPc", NULL } },
	{ CF_CUDA, 719, { "CUDA_ERROR_LAUNCH_FAILED", "cudaErrorLaunchFailure", NULL } },
	{ CF_CUDA, 720, { "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", "cudaErrorCooperativeLaunchTooLarge", NULL } },
	{ CF_CUDA, 721, { "CUDA_ERROR_TENSOR_MEMORY_LEAK", "cudaErrorTensorMemoryLeak", NULL } },
	{ CF_CUDA, 800, { "CUDA_ERROR_NOT_PERMITTED", "cudaErrorNotPermitted", NULL } },
	{ CF_CUDA, 801, { "CUDA_ERROR_NOT_SUPPORTED", "cudaErrorNotSupported", NULL } },
	{ CF_CUDA, 802, { "CUDA_ERROR_SYSTEM_NOT_READY", "cudaErrorSystemNotReady", NULL } },
	{ CF_CUDA, 803, { "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "cudaErrorSystemDriverMismatch", NULL } },
	{ CF_CUDA, 804, { "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", "cudaErrorCompatNotSupportedOnDevice", NULL } },
	{ CF_CUDA, 805, { "CUDA_ERROR_MPS_CONNECTION_FAILED", "cudaErrorMpsConnectionFailed", NULL } },
	{ CF_CUDA, 806, { "CUDA_ERROR_MPS_RPC_FAILURE", "cudaErrorMpsRpcFailure", NULL } },
	{ CF_CUDA, 807, { "CUDA_ERROR_MPS_SERVER_NOT_READY", "cudaErrorMpsServerNotReady", NULL } },
	{ CF_CUDA, 808, { "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED", "cudaErrorMpsMaxClientsReached", NULL } },
	{ CF_CUDA, 809, { "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED", "cudaErrorMpsMaxConnectionsReached", NULL } },
	{ CF_CUDA, 810, { "CUDA_ERROR_MPS_CLIENT_TERMINATED", "cudaErrorMpsClientTerminated", NULL } },
	{ CF_CUDA, 811, { "CUDA_ERROR_CDP_NOT_SUPPORTED", "cudaErrorCdpNotSupported", NULL } },
	{ CF_CUDA, 812, { "CUDA_ERROR_CDP_VERSION_MISMATCH", "cudaErrorCdpVersionMismatch", NULL } },
	{ CF_CUDA, 900, { "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED", "cudaErrorStreamCaptureUnsupported", NULL } },
	{ CF_CUDA, 901, { "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED", "cudaErrorStreamCaptureInvalidated", NULL } },
	{ CF_CUDA, 902, { "CUDA_ERROR_STREAM_CAPTURE_MERGE", "cudaErrorStreamCaptureMerge", NULL } },
	{ CF_CUDA, 903, { "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED", "cudaErrorStreamCaptureUnmatched", NULL } },
	{ CF_CUDA, 904, { "CUDA_ERROR_STREAM_CAPTURE_UNJOINED", "cudaErrorStreamCaptureUnjoined", NULL } },
	{ CF_CUDA, 905, { "CUDA_ERROR_STREAM_CAPTURE_ISOLATION", "cudaErrorStreamCaptureIsolation", NULL } },
	{ CF_CUDA, 906, { "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT", "cudaErrorStreamCaptureImplicit", NULL } },
	{ CF_CUDA, 907, { "CUDA_ERROR_CAPTURED_EVENT", "cudaErrorCapturedEvent", NULL } },
	{ CF_CUDA, 908, { "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD", "cudaErrorStreamCaptureWrongThread", NULL } },
	{ CF_CUDA, 909, { "CUDA_ERROR_TIMEOUT", "cudaErrorTimeout", NULL } },
	{ CF_CUDA, 910, { "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE", "cudaErrorGraphExecUpdateFailure", NULL } },
	{ CF_CUDA, 911, { "CUDA_ERROR_EXTERNAL_DEVICE", "cudaErrorExternalDevice", NULL } },
	{ CF_CUDA, 912, { "CUDA_ERROR_INVALID_CLUSTER_SIZE", "cudaErrorInvalidClusterSize", NULL } },
	{ CF_CUDA, 913, { "CUDA_ERROR_FUNCTION_NOT_LOADED", "cudaErrorFunctionNotLoaded", NULL } },
	{ CF_CUDA, 914, { "CUDA_ERROR_INVALID_RESOURCE_TYPE", "cudaErrorInvalidResourceType", NULL } },
	{ CF_CUDA, 915, { "CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION", "cudaErrorInvalidResourceConfiguration", NULL } },
	{ CF_CUDA, 916, { "CUDA_ERROR_KEY_ROTATION", NULL, NULL } },
	{ CF_CUDA, 999, { "CUDA_ERROR_UNKNOWN", "cudaErrorUnknown", NULL } },
	{ CF_NVML, 1, { "NVML_ERROR_UNINITIALIZED", NULL, NULL } },
	{ CF_NVML, 2, { "NVML_ERROR_INVALID_ARGUMENT", NULL, NULL } },
	{ CF_NVML, 3, { "NVML_ERROR_NOT_SUPPORTED", NULL, NULL } },
	{ CF_NVML, 4, { "NVML_ERROR_NO_PERMISSION", NULL, NULL } },
	{ CF_NVML, 5, { "NVML_ERROR_ALREADY_INITIALIZED", NULL, NULL } },
	{ CF_NVML, 6, { "NVML_ERROR_NOT_FOUND", NULL, NULL } },
	{ CF_NVML, 7, { "NVML_ERROR_INSUFFICIENT_SIZE", NULL, NULL } },
	{ CF_NVML, 8, { "NVML_ERROR_INSUFFICIENT_POWER", NULL, NULL } },
	{ CF_NVML, 9, { "NVML_ERROR_DRIVER_NOT_LOADED", NULL, NULL } },
	{ CF_NVML, 10, { "NVML_ERROR_TIMEOUT", NULL, NULL } },
	{ CF_NVML, 11, { "NVML_ERROR_IRQ_ISSUE", NULL, NULL } },
	{ CF_NVML, 12, { "NVML_ERROR_LIBRARY_NOT_FOUND", NULL, NULL } },
	{ CF_NVML, 13, { "NVML_ERROR_FUNCTION_NOT_FOUND", NULL, NULL } },
	{ CF_NVML, 14, { "NVML_ERROR_CORRUPTED_INFOROM", NULL, NULL } },
	{ CF_NVML, 15, { "NVML_ERROR_GPU_IS_LOST", NULL, NULL } },
	{ CF_NVML, 16, { "NVML_ERROR_RESET_REQUIRED", NULL, NULL } },
	{ CF_NVML, 17, { "NVML_ERROR_OPERATING_SYSTEM", NULL, NULL } },
	{ CF_NVML, 18, { "NVML_ERROR_LIB_RM_VERSION_MISMATCH", NULL, NULL } },
	{ CF_NVML, 19, { "NVML_ERROR_IN_USE", NULL, NULL } },
	{ CF_NVML, 20, { "NVML_ERROR_MEMORY", NULL, NULL } },
	{ CF_NVML, 21, { "NVML_ERROR_NO_DATA", NULL, NULL } },
	{ CF_NVML, 22, { "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED", NULL, NULL } },
	{ CF_NVML, 23, { "NVML_ERROR_INSUFFICIENT_RESOURCES", NULL, NULL } },
	{ CF_NVML, 24, { "NVML_ERROR_FREQ_NOT_SUPPORTED", NULL, NULL } },
	{ CF_NVML, 25, { "NVML_ERROR_ARGUMENT_VERSION_MISMATCH", NULL, NULL } },
	{ CF_NVML, 26, { "NVML_ERROR_DEPRECATED", NULL, NULL } },
	{ CF_NVML, 27, { "NVML_ERROR_NOT_READY", NULL, NULL } },
	{ CF_NVML, 28, { "NVML_ERROR_GPU_NOT_FOUND", NULL, NULL } },
	{ CF_NVML, 29, { "NVML_ERROR_INVALID_STATE", NULL, NULL } },
	{ CF_NVML, 30, { "NVML_ERROR_RESET_TYPE_NOT_SUPPORTED", NULL, NULL } },
	{ CF_NVML, 999, { "NVML_ERROR_UNKNOWN", NULL, NULL } },
	{ CF_NCCL, 1, { "ncclUnhandledCudaError", "NCCL_ERROR_UNHANDLED_CUDA_ERROR", NULL } },
	{ CF_NCCL, 2, { "ncclSystemError", "NCCL_ERROR_SYSTEM_ERROR", NULL } },
	{ CF_NCCL, 3, { "ncclInternalError", "NCCL_ERROR_INTERNAL_ERROR", NULL } },
	{ CF_NCCL, 4, { "ncclInvalidArgument", "NCCL_ERROR_INVALID_ARGUMENT", NULL } },
	{ CF_NCCL, 5, { "ncclInvalidUsage", "NCCL_ERROR_INVALID_USAGE", NULL } },
	{ CF_NCCL, 6, { "ncclRemoteError", NULL, NULL } },
	{ CF_NCCL, 7, { "ncclInProgress", NULL, NULL } },
	{ CF_CUBLAS, 1, { "CUBLAS_STATUS_NOT_INITIALIZED", NULL, NULL } },
	{ CF_CUBLAS, 3, { "CUBLAS_STATUS_ALLOC_FAILED", NULL, NULL } },
	{ CF_CUBLAS, 7, { "CUBLAS_STATUS_INVALID_VALUE", NULL, NULL } },
	{ CF_CUBLAS, 8, { "CUBLAS_STATUS_ARCH_MISMATCH", NULL, NULL } },
	{ CF_CUBLAS, 11, { "CUBLAS_STATUS_MAPPING_ERROR", NULL, NULL } },
	{ CF_CUBLAS, 13, { "CUBLAS_STATUS_EXECUTION_FAILED", NULL, NULL } },
	{ CF_CUBLAS, 14, { "CUBLAS_STATUS_INTERNAL_ERROR", NULL, NULL } },
	{ CF_CUBLAS, 15, { "CUBLAS_STATUS_NOT_SUPPORTED", NULL, NULL } },
	{ CF_CUBLAS, 16, { "CUBLAS_STATUS_LICENSE_ERROR", NULL, NULL } },
	{ CF_CUDNN, 1001, { "CUDNN_STATUS_NOT_INITIALIZED", NULL, NULL } },
	{ CF_CUDNN, 1002, { "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH", NULL, NULL } },
	{ CF_CUDNN, 1003, { "CUDNN_STATUS_SERIALIZATION_VERSION_MISMATCH", NULL, NULL } },
	{ CF_CUDNN, 1004, { "CUDNN_STATUS_DEPRECATED", NULL, NULL } },
	{ CF_CUDNN, 1005, { "CUDNN_STATUS_LICENSE_ERROR", NULL, NULL } },
	{ CF_CUDNN, 1006, { "CUDNN_STATUS_RUNTIME_IN_PROGRESS", NULL, NULL } },
	{ CF_CUDNN, 1007, { "CUDNN_STATUS_RUNTIME_FP_OVERFLOW", NULL, NULL } },
	{ CF_CUDNN, 1008, { "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED", NULL, NULL } },
	{ CF_CUDNN, 2000, { "CUDNN_STATUS_BAD_PARAM", NULL, NULL } },
	{ CF_CUDNN, 2002, { "CUDNN_STATUS_BAD_PARAM_NULL_POINTER", NULL, NULL } },
	{ CF_CUDNN, 2003, { "CUDNN_STATUS_BAD_PARAM_MISALIGNED_POINTER", NULL, NULL } },
	{ CF_CUDNN, 2004, { "CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED", NULL, NULL } },
	{ CF_CUDNN, 2005, { "CUDNN_STATUS_BAD_PARAM_OUT_OF_BOUND", NULL, NULL } },
	{ CF_CUDNN, 2006, { "CUDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT", NULL, NULL } },
	{ CF_CUDNN, 2007, { "CUDNN_STATUS_BAD_PARAM_STREAM_MISMATCH", NULL, NULL } },
	{ CF_CUDNN, 2008, { "CUDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH", NULL, NULL } },
	{ CF_CUDNN, 2009, { "CUDNN_STATUS_BAD_PARAM_DUPLICATED_ENTRIES", NULL, NULL } },
	{ CF_CUDNN, 2010, { "CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE", NULL, NULL } },
	{ CF_CUDNN, 2011, { "CUDNN_STATUS_BAD_PARAM_CUDA_GRAPH_MISMATCH", NULL, NULL } },
	{ CF_CUDNN, 2012, { "CUDNN_STATUS_BAD_PARAM_DESCRIPTOR_TYPE", NULL, NULL } },
	{ CF_CUDNN, 3000, { "CUDNN_STATUS_NOT_SUPPORTED", NULL, NULL } },
	{ CF_CUDNN, 3001, { "CUDNN_STATUS_NOT_SUPPORTED_GRAPH_PATTERN", NULL, NULL } },
	{ CF_CUDNN, 3002, { "CUDNN_STATUS_NOT_SUPPORTED_SHAPE", NULL, NULL } },
	{ CF_CUDNN, 3003, { "CUDNN_STATUS_NOT_SUPPORTED_DATA_TYPE", NULL, NULL } },
	{ CF_CUDNN, 3004, { "CUDNN_STATUS_NOT_SUPPORTED_LAYOUT", NULL, NULL } },
	{ CF_CUDNN, 3005, { "CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDA_DRIVER", NULL, NULL } },
	{ CF_CUDNN, 3006, { "CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDART", NULL, NULL } },
	{ CF_CUDNN, 3007, { "CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH", NULL, NULL } },
	{ CF_CUDNN, 3008, { "CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING", NULL, NULL } },
	{ CF_CUDNN, 3009, { "CUDNN_STATUS_NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE", NULL, NULL } },
	{ CF_CUDNN, 3010, { "CUDNN_STATUS_NOT_SUPPORTED_SHARED_MEMORY_INSUFFICIENT", NULL, NULL } },
	{ CF_CUDNN, 3011, { "CUDNN_STATUS_NOT_SUPPORTED_PADDING", NULL, NULL } },
	{ CF_CUDNN, 3012, { "CUDNN_STATUS_NOT_SUPPORTED_BAD_LAUNCH_PARAM", NULL, NULL } },
	{ CF_CUDNN, 3013, { "CUDNN_STATUS_NOT_SUPPORTED_CUDA_GRAPH_NATIVE_API", NULL, NULL } },
	{ CF_CUDNN, 3014, { "CUDNN_STATUS_NOT_SUPPORTED_INVALID_DYNAMIC_SHAPE", NULL, NULL } },
	{ CF_CUDNN, 4000, { "CUDNN_STATUS_INTERNAL_ERROR", NULL, NULL } },
	{ CF_CUDNN, 4001, { "CUDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED", NULL, NULL } },
	{ CF_CUDNN, 4002, { "CUDNN_STATUS_INTERNAL_ERROR_UNEXPECTED_VALUE", NULL, NULL } },
	{ CF_CUDNN, 4003, { "CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED", NULL, NULL } },
	{ CF_CUDNN, 4004, { "CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED", NULL, NULL } },
	{ CF_CUDNN, 4005, { "CUDNN_STATUS_INTERNAL_ERROR_BAD_LAUNCH_PARAM", NULL, NULL } },
	{ CF_CUDNN, 4006, { "CUDNN_STATUS_INTERNAL_ERROR_TEXTURE_CREATION_FAILED", NULL, NULL } },
	{ CF_CUDNN, 5000, { "CUDNN_STATUS_EXECUTION_FAILED", NULL, NULL } },
	{ CF_CUDNN, 5001, { "CUDNN_STATUS_EXECUTION_FAILED_CUDA_DRIVER", NULL, NULL } },
	{ CF_CUDNN, 5002, { "CUDNN_STATUS_EXECUTION_FAILED_CUBLAS", NULL, NULL } },
	{ CF_CUDNN, 5003, { "CUDNN_STATUS_EXECUTION_FAILED_CUDART", NULL, NULL } },
	{ CF_CUDNN, 5004, { "CUDNN_STATUS_EXECUTION_FAILED_CURAND", NULL, NULL } },
	{ CF_CUDNN, 1, { "CUDNN_STATUS_NOT_INITIALIZED", NULL, NULL } },
	{ CF_CUDNN, 2, { "CUDNN_STATUS_ALLOC_FAILED", NULL, NULL } },
	{ CF_CUDNN, 3, { "CUDNN_STATUS_BAD_PARAM", NULL, NULL } },
	{ CF_CUDNN, 4, { "CUDNN_STATUS_INTERNAL_ERROR", NULL, NULL } },
	{ CF_CUDNN, 5, { "CUDNN_STATUS_INVALID_VALUE", NULL, NULL } },
	{ CF_CUDNN, 6, { "CUDNN_STATUS_ARCH_MISMATCH", NULL, NULL } },
	{ CF_CUDNN, 7, { "CUDNN_STATUS_MAPPING_ERROR", NULL, NULL } },
	{ CF_CUDNN, 8, { "CUDNN_STATUS_EXECUTION_FAILED", NULL, NULL } },
	{ CF_CUDNN, 9, { "CUDNN_STATUS_NOT_SUPPORTED", NULL, NULL } },
	{ CF_CUDNN, 10, { "CUDNN_STATUS_LICENSE_ERROR", NULL, NULL } },
	{ CF_CUDNN, 11, { "CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING", NULL, NULL } },
	{ CF_CUDNN, 12, { "CUDNN_STATUS_RUNTIME_IN_PROGRESS", NULL, NULL } },
	{ CF_CUDNN, 13, { "CUDNN_STATUS_RUNTIME_FP_OVERFLOW", NULL, NULL } },
	{ CF_CUFFT, 1, { "CUFFT_INVALID_PLAN", NULL, NULL } },
	{ CF_CUFFT, 2, { "CUFFT_ALLOC_FAILED", NULL, NULL } },
	{ CF_CUFFT, 3, { "CUFFT_INVALID_TYPE", NULL, NULL } },
	{ CF_CUFFT, 4, { "CUFFT_INVALID_VALUE", NULL, NULL } },
	{ CF_CUFFT, 5, { "CUFFT_INTERNAL_ERROR", NULL, NULL } },
	{ CF_CUFFT, 6, { "CUFFT_EXEC_FAILED", NULL, NULL } },
	{ CF_CUFFT, 7, { "CUFFT_SETUP_FAILED", NULL, NULL } },
	{ CF_CUFFT, 8, { "CUFFT_INVALID_SIZE", NULL, NULL } },
	{ CF_CUFFT, 9, { "CUFFT_UNALIGNED_DATA", NULL, NULL } },
	{ CF_CUFFT, 11, { "CUFFT_INVALID_DEVICE", NULL, NULL } },
	{ CF_CUFFT, 13, { "CUFFT_NO_WORKSPACE", NULL, NULL } },
	{ CF_CUFFT, 14, { "CUFFT_NOT_IMPLEMENTED", NULL, NULL } },
	{ CF_CUFFT, 16, { "CUFFT_NOT_SUPPORTED", NULL, NULL } },
	{ CF_CUFFT, 17, { "CUFFT_MISSING_DEPENDENCY", NULL, NULL } },
	{ CF_CUFFT, 18, { "CUFFT_NVRTC_FAILURE", NULL, NULL } },
	{ CF_CUFFT, 19, { "CUFFT_NVJITLINK_FAILURE", NULL, NULL } },
	{ CF_CUFFT, 20, { "CUFFT_NVSHMEM_FAILURE", NULL, NULL } },
	{ CF_CUSPARSE, 1, { "CUSPARSE_STATUS_NOT_INITIALIZED", NULL, NULL } },
	{ CF_CUSPARSE, 2, { "CUSPARSE_STATUS_ALLOC_FAILED", NULL, NULL } },
	{ CF_CUSPARSE, 3, { "CUSPARSE_STATUS_INVALID_VALUE", NULL, NULL } },
	{ CF_CUSPARSE, 4, { "CUSPARSE_STATUS_ARCH_MISMATCH", NULL, NULL } },
	{ CF_CUSPARSE, 5, { "CUSPARSE_STATUS_MAPPING_ERROR", NULL, NULL } },
	{ CF_CUSPARSE, 6, { "CUSPARSE_STATUS_EXECUTION_FAILED", NULL, NULL } },
	{ CF_CUSPARSE, 7, { "CUSPARSE_STATUS_INTERNAL_ERROR", NULL, NULL } },
	{ CF_CUSPARSE, 8, { "CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED", NULL, NULL } },
	{ CF_CUSPARSE, 9, { "CUSPARSE_STATUS_ZERO_PIVOT", NULL, NULL } },
	{ CF_CUSPARSE, 10, { "CUSPARSE_STATUS_NOT_SUPPORTED", NULL, NULL } },
	{ CF_CUSPARSE, 11, { "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES", NULL, NULL } },
	{ CF_CURAND, 100, { "CURAND_STATUS_VERSION_MISMATCH", NULL, NULL } },
	{ CF_CURAND, 101, { "CURAND_STATUS_NOT_INITIALIZED", NULL, NULL } },
	{ CF_CURAND, 102, { "CURAND_STATUS_ALLOCATION_FAILED", NULL, NULL } },
	{ CF_CURAND, 103, { "CURAND_STATUS_TYPE_ERROR", NULL, NULL } },
	{ CF_CURAND, 104, { "CURAND_STATUS_OUT_OF_RANGE", NULL, NULL } },
	{ CF_CURAND, 105, { "CURAND_STATUS_LENGTH_NOT_MULTIPLE", NULL, NULL } },
	{ CF_CURAND, 106, { "CURAND_STATUS_DOUBLE_PRECISION_REQUIRED", NULL, NULL } },
	{ CF_CURAND, 201, { "CURAND_STATUS_LAUNCH_FAILURE", NULL, NULL } },
	{ CF_CURAND, 202, { "CURAND_STATUS_PREEXISTING_FAILURE", NULL, NULL } },
	{ CF_CURAND, 203, { "CURAND_STATUS_INITIALIZATION_FAILED", NULL, NULL } },
	{ CF_CURAND, 204, { "CURAND_STATUS_ARCH_MISMATCH", NULL, NULL } },
	{ CF_CURAND, 999, { "CURAND_STATUS_INTERNAL_ERROR", NULL, NULL } },
	{ CF_HRESULT, 0x80370102u, { "HCS_E_HYPERV_NOT_INSTALLED", NULL, NULL } },
	{ CF_HRESULT, 0x80370114u, { "HCS_E_SERVICE_NOT_AVAILABLE", NULL, NULL } },
	{ CF_HRESULT, 0x8007019Eu, { "ERROR_LINUX_SUBSYSTEM_NOT_PRESENT", NULL, NULL } },
	{ CF_HRESULT, 0x800701BCu, { "ERROR_LINUX_SUBSYSTEM_UPDATE_REQUIRED", NULL, NULL } },
	{ CF_HRESULT, 0x80070005u, { "E_ACCESSDENIED", NULL, NULL } },
	{ CF_HRESULT, 0x8000FFFFu, { "E_UNEXPECTED", NULL, NULL } },
};

#define NCODES (sizeof table / sizeof table[0])

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_word(char c) { return is_digit(c) || is_alpha(c) || c == '_'; }
static int hexval(char c)
{
	if (is_digit(c))
		return c - '0';
	c = lower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* pynvml's class names: NVML_ERROR_DRIVER_NOT_LOADED -> NVMLError_DriverNotLoaded. */
static void derive_names(void)
{
	static int done;
	if (done)
		return;
	done = 1;
	for (size_t i = 0; i < NCODES; i++) {
		if (table[i].family != CF_NVML)
			continue;
		const char *rest = table[i].name[0] + strlen("NVML_ERROR_");
		char *d = xmalloc(strlen("NVMLError_") + strlen(rest) + 1), *w = d;
		memcpy(w, "NVMLError_", 10);
		w += 10;
		bool up = true;
		for (const char *p = rest; *p; p++) {
			if (*p == '_') {
				up = true;
				continue;
			}
			*w++ = up ? *p : lower(*p);
			up = false;
		}
		*w = '\0';
		table[i].name[1] = d;
	}
}

const struct err_code *codes_table(size_t *n)
{
	derive_names();
	*n = NCODES;
	return table;
}

int codes_family(const char *name, size_t len)
{
	static const char *const names[CF_COUNT] = { "cuda",  "nvml",     "nccl",   "cublas", "cudnn",
						     "cufft", "cusparse", "curand", "hresult" };
	for (int f = 0; f < CF_COUNT; f++)
		if (strlen(names[f]) == len && !strncmp(names[f], name, len))
			return f;
	return -1;
}

int codes_by_value(int f, uint32_t value)
{
	for (size_t i = 0; i < NCODES; i++)
		if (table[i].family == f && table[i].value == value)
			return (int)i;
	return -1;
}

/* A decimal, 0x hex or (HRESULT) negative decimal number; false if s is not one. */
static bool parse_number(const char *s, size_t len, uint32_t *v)
{
	uint64_t x = 0;
	if (len > 2 && s[0] == '0' && lower(s[1]) == 'x') {
		if (len > 10)
			return false;
		for (size_t i = 2; i < len; i++) {
			int h = hexval(s[i]);
			if (h < 0)
				return false;
			x = x * 16 + (uint64_t)h;
		}
		*v = (uint32_t)x;
		return true;
	}
	bool neg = len > 1 && s[0] == '-';
	size_t i = neg;
	if (len - i == 0 || len - i > 10)
		return false;
	for (; i < len; i++) {
		if (!is_digit(s[i]))
			return false;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	if (neg) {
		if (x > 2147483648u)
			return false;
		x = (uint64_t)(-(int64_t)x) & 0xffffffffu;
	} else if (x > 0xffffffffu) {
		return false;
	}
	*v = (uint32_t)x;
	return true;
}

int codes_lookup(int f, const char *s, size_t len)
{
	derive_names();
	uint32_t v;
	if (parse_number(s, len, &v))
		return codes_by_value(f, v);
	for (size_t i = 0; i < NCODES; i++) {
		if (table[i].family != f)
			continue;
		for (int k = 0; k < CODE_NAMES && table[i].name[k]; k++)
			if (strlen(table[i].name[k]) == len && !strncasecmp(table[i].name[k], s, len))
				return (int)i;
	}
	return -1;
}

int codes_by_prefix(const char *s, size_t len, size_t min)
{
	derive_names();
	if (len < min)
		return -1;
	int found = -1;
	size_t shortest = 0;
	for (size_t i = 0; i < NCODES; i++)
		for (int k = 0; k < CODE_NAMES; k++) {
			const char *name = table[i].name[k];
			size_t nl = name ? strlen(name) : 0;
			if (nl < len || strncasecmp(name, s, len))
				continue;
			if (nl == len || (found >= 0 && found != (int)i))
				return -1;
			found = (int)i;
			if (!shortest || nl < shortest)
				shortest = nl;
		}
	return found >= 0 && len * 2 >= shortest ? found : -1;
}

const char *const *codes_context_words(int f)
{
	static const char *const cuda[] = { "cuda", "cuinit", "curesult", "cudevice", "cuctx",
					    "cumem", "cumodule", "culaunch", "custream", NULL };
	static const char *const nvml[] = { "nvml", NULL };
	static const char *const nccl[] = { "nccl", NULL };
	static const char *const hresult[] = { "0x8", "-21", NULL };
	static const char *const cublas[] = { "cublas", NULL };
	static const char *const cudnn[] = { "cudnn", NULL };
	static const char *const cufft[] = { "cufft", NULL };
	static const char *const cusparse[] = { "cusparse", NULL };
	static const char *const curand[] = { "curand", NULL };
	switch (f) {
	case CF_CUDA: return cuda;
	case CF_NVML: return nvml;
	case CF_NCCL: return nccl;
	case CF_CUBLAS: return cublas;
	case CF_CUDNN: return cudnn;
	case CF_CUFFT: return cufft;
	case CF_CUSPARSE: return cusparse;
	case CF_CURAND: return curand;
	default: return hresult;
	}
}

/* Is s[0..len) (lower case) a word that puts an error code after it? 2 for
 * a word of failure, 1 for one that a count or a value follows as well
 * ("nvmlDeviceGetCount returned 2", "returned 1 interfaces", "result 1"),
 * 0 for neither. */
static int introducer(const char *s, size_t len)
{
	static const struct {
		const char *word;
		int strength;
	} words[] = {
		{ "error", 2 }, { "err", 2 }, { "code", 2 }, { "status", 2 }, { "failed", 2 },
		{ "failure", 2 },
		{ "rc", 2 }, { "returned", 1 }, { "returns", 1 }, { "return", 1 }, { "result", 1 },
		{ "ret", 1 },
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strlen(words[i].word) == len && !strncasecmp(words[i].word, s, len))
			return words[i].strength;
	return 0;
}

/* A number followed by "of N" or "/N" is a count ("failed: 3 of 10"). */
static bool count_after(const char *s, size_t len, size_t e)
{
	if (e + 1 < len && s[e] == '/' && is_digit(s[e + 1]))
		return true;
	return e + 4 <= len && !strncasecmp(s + e, " of ", 4);
}

/* A number ends at a blank or punctuation, not inside a word, a decimal,
 * a percentage or a time ("100%", "2.5", "12:30"). */
static bool number_end(const char *s, size_t len, size_t e)
{
	if (e >= len)
		return true;
	char c = s[e];
	if (is_word(c) || c == '%')
		return false;
	if ((c == '.' || c == ':' || c == ',') && e + 1 < len && is_digit(s[e + 1]))
		return false;
	return true;
}

static void hresults(const char *s, size_t len, codes_fn fn, void *ctx)
{
	for (size_t i = 0; i + 10 <= len; i++) {
		if (i > 0 && (is_word(s[i - 1]) || s[i - 1] == '-'))
			continue;
		size_t n = 0;
		uint32_t v;
		if (s[i] == '0' && lower(s[i + 1]) == 'x') {
			while (n < 9 && i + 2 + n < len && hexval(s[i + 2 + n]) >= 0)
				n++;
			if (n != 8 || (i + 10 < len && is_word(s[i + 10])) || lower(s[i + 2]) != '8')
				continue;
			parse_number(s + i, 10, &v);
		} else if (s[i] == '-' && s[i + 1] == '2') {
			while (n < 11 && i + 1 + n < len && is_digit(s[i + 1 + n]))
				n++;
			if (n != 10 || !number_end(s, len, i + 1 + n) || !parse_number(s + i, n + 1, &v))
				continue;
		} else {
			continue;
		}
		int c = codes_by_value(CF_HRESULT, v);
		if (c >= 0)
			fn(ctx, c);
	}
}

/* The word (a run of bytes `in` accepts) before s[*i]: moves *i to its
 * start and returns its length, 0 where none is left. */
static size_t word_before(const char *s, size_t *i, bool (*in)(char))
{
	size_t at = *i;
	while (at > 0 && !in(s[at - 1]))
		at--;
	size_t e = at;
	while (at > 0 && in(s[at - 1]))
		at--;
	*i = at;
	return e - at;
}

/* Is one of the two words before s[i] "exit" or "exited"? A process's exit
 * status ("exit code: 101", "exited with code 2") is no library's code. */
static bool after_exit(const char *s, size_t i)
{
	for (int n = 0; n < 2; n++) {
		size_t wl = word_before(s, &i, is_alpha);
		if ((wl == 4 && !strncasecmp(s + i, "exit", 4)) ||
		    (wl == 6 && !strncasecmp(s + i, "exited", 6)))
			return true;
	}
	return false;
}

/* The API whose call or name stands among the three words before s[i]
 * (the nearest first): the number after "nccl error", "cusolverDnCreate
 * failed with error" or "nvjpeg status" is that API's, whatever else the
 * line names ("cudaErrorLaunchFailure ... nccl error 2" is NCCL's 2, not
 * CUDA's out of memory). A family, CF_COUNT for an NVIDIA API with no
 * table here (its number means nothing in another's), or -1 for none. */
static int owner_api(const char *s, size_t i)
{
	static const struct {
		const char *prefix;
		int family;
	} apis[] = {
		{ "nccl", CF_NCCL }, { "nvml", CF_NVML }, { "cublas", CF_CUBLAS },
		{ "cudnn", CF_CUDNN }, { "cufft", CF_CUFFT }, { "cusparse", CF_CUSPARSE },
		{ "curand", CF_CURAND },
		/* NVIDIA's libraries with codes of their own (and the video,
		 * ray-tracing, compiler and inference APIs) */
		{ "cusolver", CF_COUNT }, { "cutensor", CF_COUNT }, { "nvjpeg", CF_COUNT },
		{ "npp", CF_COUNT }, { "nvenc", CF_COUNT }, { "nvdec", CF_COUNT },
		{ "cuvid", CF_COUNT }, { "nvcuvid", CF_COUNT }, { "optix", CF_COUNT },
		{ "nvrtc", CF_COUNT }, { "nvjitlink", CF_COUNT }, { "nvinfer", CF_COUNT },
		{ "tensorrt", CF_COUNT }, { "cufile", CF_COUNT }, { "nvshmem", CF_COUNT },
		{ "cuda", CF_CUDA },
	};
	for (int n = 0; n < 3; n++) {
		size_t wl = word_before(s, &i, is_word);
		if (!wl)
			return -1;
		for (size_t a = 0; a < sizeof apis / sizeof apis[0]; a++) {
			size_t pl = strlen(apis[a].prefix);
			/* the bare word "CUDA" owns the number only right before
			 * its error word ("CUDA error 2"); further back it is a
			 * qualifier ("nvEncOpenEncodeSessionEx (CUDA Path)
			 * FAILED: 2" is NVENC's 2) */
			if (wl == pl && apis[a].family == CF_CUDA && n > 0)
				continue;
			if (wl >= pl && !strncasecmp(s + i, apis[a].prefix, pl))
				return apis[a].family;
		}
		/* the driver API's calls: cuInit, cuMemAlloc, cuCtxCreate_v2 */
		if (wl > 2 && s[i] == 'c' && s[i + 1] == 'u' && s[i + 2] >= 'A' && s[i + 2] <= 'Z')
			return CF_CUDA;
	}
	return -1;
}

void codes_numbers(const char *s, size_t len, unsigned mask, codes_fn fn, void *ctx)
{
	if (mask & (1u << CF_HRESULT))
		hresults(s, len, fn, ctx);
	if (!(mask & ((1u << CF_HRESULT) - 1)))
		return;
	for (size_t i = 0; i < len; i++) {
		if (!is_alpha(s[i]) || (i > 0 && is_word(s[i - 1])))
			continue;
		size_t j = i;
		int words = 0, strength = 0;
		/* "error", "error code:", "returned error", then the number */
		for (;;) {
			size_t w = j;
			while (w < len && is_alpha(s[w]))
				w++;
			int k = w > j ? introducer(s + j, w - j) : 0;
			if (!k || (w < len && is_word(s[w])))
				break;
			words++;
			if (k > strength)
				strength = k;
			j = w;
			size_t sep = 0;
			while (j < len && sep < 4 && strchr(" :=#([", s[j])) {
				j++;
				sep++;
			}
			if (j < len && !is_alpha(s[j]))
				break;
		}
		if (!words || j >= len || !is_digit(s[j]) || after_exit(s, i)) {
			while (i + 1 < len && is_alpha(s[i + 1]))
				i++;
			continue;
		}
		size_t e = j;
		while (e < len && e - j < 10 && is_digit(s[e]))
			e++;
		if (!number_end(s, len, e) || count_after(s, len, e))
			continue;
		uint32_t v;
		if (!parse_number(s + j, e - j, &v))
			continue;
		int owner = owner_api(s, i);
		for (int f = CF_CUDA; f < CF_HRESULT; f++) {
			if (!(mask & (1u << f)) || (owner >= 0 && owner != f))
				continue;
			/* The libraries' small numbers follow "returned" as counts
			 * and values too ("nvmlDeviceGetCount returned 2",
			 * "cudnn.enabled returned 1"): theirs need a word of
			 * failure. CUDA's own below 100 are read by name only
			 * (explain-status.kb), the rest after either. */
			if (f != CF_CUDA && strength < 2)
				continue;
			int c = codes_by_value(f, v);
			if (c >= 0)
				fn(ctx, c);
		}
		i = e - 1;
	}
}

void codes_ere(int code, struct strbuf *out)
{
	derive_names();
	const struct err_code *c = &table[code];
	sb_addc(out, '(');
	for (int k = 0; k < CODE_NAMES && c->name[k]; k++) {
		for (const char *p = c->name[k]; *p; p++)
			sb_addc(out, lower(*p));
		sb_addc(out, '|');
	}
	if (c->family == CF_HRESULT)
		sb_addf(out, "0x%08x|-%u", c->value, (unsigned)(0x100000000ull - c->value));
	else
		sb_addf(out, "%u", c->value);
	sb_add(out, ")([^a-z0-9_]|$)");
}
