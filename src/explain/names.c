/*
 * names.c: the table of what NVIDIA library files, API calls and error
 * codes belong to, and the reading of a line by it. See names.h.
 *
 * File names and majors as NVIDIA ships them: the CUDA 13 toolkit's
 * lib64 (libcudart.so.13, libcublas.so.13, libcufft.so.12, libcurand.so.10,
 * libcusparse.so.12, libcudnn*.so.9, libnccl.so.2), the Windows DLLs
 * (cudart64_12.dll, cublas64_12.dll, cudnn64_9.dll, nvrtc64_120_0.dll:
 * https://docs.nvidia.com/cuda/cuda-installation-guide-microsoft-windows/index.html,
 * https://docs.nvidia.com/deeplearning/cudnn/installation/latest/windows.html),
 * the driver's libcuda.so.1 / nvcuda.dll and libnvidia-ml.so.1 / nvml.dll
 * (https://docs.nvidia.com/cuda/cuda-driver-api/index.html,
 * https://docs.nvidia.com/deploy/nvml-api/index.html). cuBLAS, NVRTC and the
 * runtime carry the CUDA major in their file name; cuFFT, cuRAND,
 * cuSPARSE and cuSOLVER their own.
 */
#include "names.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../core/layers.h"
#include "codes.h"

enum { V_NONE, V_RUNTIME, V_CUDA, V_OWN };
enum { M_PREFIX, M_EXACT };

struct name_role {
	unsigned char kind;   /* enum name_kind */
	const char *prefix;   /* library: file stem, lower case; call, code: as the API spells it */
	unsigned char match;  /* M_EXACT: the whole stem (libraries) */
	const char *name;     /* "cuBLAS" */
	const char *role;     /* driver, runtime, math library, cuDNN, TensorRT, NCCL, NVML... */
	const char *layer;
	const char *check;    /* `wslgpu check --only` layers */
	unsigned char ver;    /* what a library's major means */
};

/* First row that fits wins: longer prefixes before the shorter ones they start with. */
static const struct name_role roles[] = {
	{ NK_LIBRARY, "cuda", M_EXACT, "CUDA driver", "driver", "libs", "libs,cuda", V_NONE },
	{ NK_LIBRARY, "nvcuda", M_EXACT, "CUDA driver", "driver", "libs", "libs,cuda", V_NONE },
	{ NK_LIBRARY, "nvidia-ml", M_PREFIX, "NVML", "driver", "nvml", "libs,nvml", V_NONE },
	{ NK_LIBRARY, "nvml", M_EXACT, "NVML", "driver", "nvml", "libs,nvml", V_NONE },
	{ NK_LIBRARY, "nvidia-ptxjitcompiler", M_PREFIX, "the driver's PTX compiler", "driver", "libs",
	  "libs,cuda", V_NONE },
	/* NVENC and NVDEC: the driver's libnvidia-encode.so.1 / nvEncodeAPI64.dll
	 * and libnvcuvid.so.1 / nvcuvid.dll (NVIDIA Video Codec SDK). */
	{ NK_LIBRARY, "nvidia-encode", M_PREFIX, "the driver's video encoder (NVENC)", "driver", "libs",
	  "libs", V_NONE },
	{ NK_LIBRARY, "nvencodeapi", M_PREFIX, "the driver's video encoder (NVENC)", "driver", "libs",
	  "libs", V_NONE },
	{ NK_LIBRARY, "nvcuvid", M_EXACT, "the driver's video decoder (NVDEC)", "driver", "libs", "libs",
	  V_NONE },
	{ NK_LIBRARY, "dxcore", M_EXACT, "WSL's GPU library (dxcore)", "driver", "bridge", "bridge,libs",
	  V_NONE },
	{ NK_LIBRARY, "cudart", M_PREFIX, "CUDA runtime", "runtime", "toolkit", "cuda,toolkit", V_RUNTIME },
	{ NK_LIBRARY, "cublaslt", M_PREFIX, "cuBLASLt", "math library", "toolkit", "toolkit,frameworks",
	  V_CUDA },
	{ NK_LIBRARY, "cublas", M_PREFIX, "cuBLAS", "math library", "toolkit", "toolkit,frameworks", V_CUDA },
	{ NK_LIBRARY, "cufft", M_PREFIX, "cuFFT", "math library", "toolkit", "toolkit,frameworks", V_OWN },
	{ NK_LIBRARY, "cusparse", M_PREFIX, "cuSPARSE", "math library", "toolkit", "toolkit,frameworks",
	  V_OWN },
	{ NK_LIBRARY, "curand", M_PREFIX, "cuRAND", "math library", "toolkit", "toolkit,frameworks", V_OWN },
	{ NK_LIBRARY, "cusolver", M_PREFIX, "cuSOLVER", "math library", "toolkit", "toolkit,frameworks",
	  V_OWN },
	{ NK_LIBRARY, "nvrtc", M_PREFIX, "NVRTC", "runtime compiler", "toolkit", "toolkit,frameworks",
	  V_CUDA },
	{ NK_LIBRARY, "nvjitlink", M_PREFIX, "nvJitLink", "runtime compiler", "toolkit",
	  "toolkit,frameworks", V_CUDA },
	{ NK_LIBRARY, "cudnn", M_PREFIX, "cuDNN", "cuDNN", "toolkit", "toolkit,frameworks", V_OWN },
	{ NK_LIBRARY, "nvinfer", M_PREFIX, "TensorRT", "TensorRT", "frameworks", "toolkit,frameworks",
	  V_OWN },
	{ NK_LIBRARY, "nvonnxparser", M_PREFIX, "TensorRT's ONNX parser", "TensorRT", "frameworks",
	  "toolkit,frameworks", V_OWN },
	{ NK_LIBRARY, "nccl", M_PREFIX, "NCCL", "NCCL", "frameworks", "cuda,frameworks", V_OWN },

	{ NK_CODE, "CUDA_ERROR_", 0, "CUDA driver API", "driver", "cuda", "libs,cuda", V_NONE },
	{ NK_CODE, "cudaError", 0, "CUDA runtime API", "runtime", "cuda", "cuda,toolkit", V_NONE },
	{ NK_CODE, "CUBLAS_STATUS_", 0, "cuBLAS", "math library", "toolkit", "cuda,toolkit,frameworks",
	  V_NONE },
	{ NK_CODE, "CUDNN_STATUS_", 0, "cuDNN", "cuDNN", "toolkit", "cuda,toolkit,frameworks", V_NONE },
	{ NK_CODE, "CUFFT_", 0, "cuFFT", "math library", "toolkit", "cuda,toolkit,frameworks", V_NONE },
	{ NK_CODE, "CUSPARSE_STATUS_", 0, "cuSPARSE", "math library", "toolkit", "cuda,toolkit,frameworks",
	  V_NONE },
	{ NK_CODE, "CURAND_STATUS_", 0, "cuRAND", "math library", "toolkit", "cuda,toolkit,frameworks",
	  V_NONE },
	{ NK_CODE, "CUSOLVER_STATUS_", 0, "cuSOLVER", "math library", "toolkit", "cuda,toolkit,frameworks",
	  V_NONE },
	{ NK_CODE, "CUTENSOR_STATUS_", 0, "cuTENSOR", "math library", "toolkit", "cuda,toolkit,frameworks",
	  V_NONE },
	{ NK_CODE, "NVJPEG_STATUS_", 0, "nvJPEG", "math library", "toolkit", "cuda,toolkit,frameworks",
	  V_NONE },
	{ NK_CODE, "NVRTC_ERROR_", 0, "NVRTC", "runtime compiler", "toolkit", "toolkit,frameworks", V_NONE },
	/* OptiX and NVENC are the driver's (libnvoptix, libnvidia-encode) */
	{ NK_CODE, "OPTIX_ERROR_", 0, "OptiX", "driver", "cuda", "libs,cuda", V_NONE },
	{ NK_CODE, "NV_ENC_ERR_", 0, "the driver's video encoder (NVENC)", "driver", "libs", "libs", V_NONE },
	{ NK_CODE, "NVML_ERROR_", 0, "NVML", "driver", "nvml", "libs,nvml", V_NONE },
	{ NK_CODE, "NVMLError_", 0, "NVML", "driver", "nvml", "libs,nvml", V_NONE },
	{ NK_CODE, "nccl", 0, "NCCL", "NCCL", "frameworks", "cuda,frameworks", V_NONE },

	{ NK_CALL, "cublasLt", 0, "cuBLASLt", "math library", "toolkit", "cuda,toolkit,frameworks", V_NONE },
	{ NK_CALL, "cublas", 0, "cuBLAS", "math library", "toolkit", "cuda,toolkit,frameworks", V_NONE },
	{ NK_CALL, "cudnn", 0, "cuDNN", "cuDNN", "toolkit", "cuda,toolkit,frameworks", V_NONE },
	{ NK_CALL, "cufft", 0, "cuFFT", "math library", "toolkit", "cuda,toolkit,frameworks", V_NONE },
	{ NK_CALL, "cusparse", 0, "cuSPARSE", "math library", "toolkit", "cuda,toolkit,frameworks", V_NONE },
	{ NK_CALL, "curand", 0, "cuRAND", "math library", "toolkit", "cuda,toolkit,frameworks", V_NONE },
	{ NK_CALL, "cusolver", 0, "cuSOLVER", "math library", "toolkit", "cuda,toolkit,frameworks", V_NONE },
	{ NK_CALL, "nvrtc", 0, "NVRTC", "runtime compiler", "toolkit", "toolkit,frameworks", V_NONE },
	{ NK_CALL, "nccl", 0, "NCCL", "NCCL", "frameworks", "cuda,frameworks", V_NONE },
	{ NK_CALL, "nvml", 0, "NVML", "driver", "nvml", "libs,nvml", V_NONE },
	{ NK_CALL, "cuda", 0, "CUDA runtime API", "runtime", "cuda", "cuda,toolkit", V_NONE },
	{ NK_CALL, "cu", 0, "CUDA driver API", "driver", "cuda", "libs,cuda", V_NONE },
};

#define NROLES (sizeof roles / sizeof roles[0])

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static bool is_ident(char c)
{
	return is_digit(c) || is_upper(c) || (c >= 'a' && c <= 'z') || c == '_';
}
static bool is_file(char c) { return is_ident(c) || c == '.' || c == '-' || c == '+'; }

static void put(struct names *out, const struct name_role *r, const char *at, size_t len,
		const char *ver, size_t vlen, long code)
{
	if (out->n == NAMES_MAX)
		return;
	for (size_t i = 0; i < out->n; i++)
		if (!strncmp(out->hit[i].text, at, len) && !out->hit[i].text[len])
			return;
	struct name_hit *h = &out->hit[out->n++];
	h->kind = r->kind;
	h->role = r->role;
	h->layer = r->layer;
	h->check = r->check;
	snprintf(h->text, sizeof h->text, "%.*s", (int)len, at);
	if (r->ver == V_NONE)
		vlen = 0; /* libcuda.so.1: an ABI number, not a version */
	snprintf(h->version, sizeof h->version, "%.*s", (int)(vlen < 7 ? vlen : 7), ver ? ver : "");
	h->code = code;
	/* Three digits in a Windows name are major and minor (cudart64_110.dll: CUDA 11.0). */
	char v[12] = "";
	if (vlen == 3)
		snprintf(v, sizeof v, "%c%c.%c", ver[0], ver[1], ver[2]);
	else if (vlen)
		snprintf(v, sizeof v, "%s", h->version);
	if (!vlen || r->ver == V_NONE)
		snprintf(h->what, sizeof h->what, "%s", r->name);
	else if (r->ver == V_CUDA)
		snprintf(h->what, sizeof h->what, "%s for CUDA %s", r->name, v);
	else
		snprintf(h->what, sizeof h->what, "%s %s", r->name, v);
	if (code >= 0 && r->kind == NK_CODE) {
		size_t l = strlen(h->what);
		snprintf(h->what + l, sizeof h->what - l, ", code %ld", code);
	}
}

/* A library file: lib<stem>.so[.N...] or <stem>[64]_N[_M].dll or <stem>.dll. */
static void library(const char *t, size_t len, struct names *out)
{
	char low[96];
	if (len < 5 || len >= sizeof low)
		return;
	for (size_t i = 0; i < len; i++)
		low[i] = (char)(t[i] >= 'A' && t[i] <= 'Z' ? t[i] + 32 : t[i]);
	low[len] = '\0';
	const char *so = strstr(low, ".so");
	size_t stem_at = 0, stem_len = 0, vat = 0, vlen = 0;
	if (so && !strncmp(low, "lib", 3) && (!so[3] || so[3] == '.')) {
		stem_at = 3;
		stem_len = (size_t)(so - low) - 3;
		if (so[3] == '.')
			for (vat = (size_t)(so - low) + 4; is_digit(low[vat + vlen]); vlen++)
				;
		/* the name ends after its last ".N": PyTorch's DynamicLibrary glues
		 * the next word on ("libnvrtc.so.12and libnvrtc-XXXX.so.12") */
		size_t end = (size_t)(so - low) + 3;
		while (low[end] == '.' && is_digit(low[end + 1]))
			for (end++; is_digit(low[end]); end++)
				;
		len = end;
	} else if (len > 4 && !strcmp(low + len - 4, ".dll")) {
		stem_len = len - 4;
		/* cudnn_ops64_9.dll, nvrtc64_120_0.dll, nvinfer_10.dll */
		const char *u = NULL;
		for (const char *p = low; p < low + stem_len; p++)
			if (*p == '_' && is_digit(p[1]) && !u)
				u = p;
		if (u) {
			vat = (size_t)(u - low) + 1;
			while (is_digit(low[vat + vlen]))
				vlen++;
			stem_len = (size_t)(u - low);
			if (stem_len > 2 && !strncmp(low + stem_len - 2, "64", 2))
				stem_len -= 2;
		}
	} else {
		return;
	}
	if (!stem_len)
		return;
	for (size_t i = 0; i < NROLES; i++) {
		const struct name_role *r = &roles[i];
		size_t pl = strlen(r->prefix);
		if (r->kind != NK_LIBRARY || stem_len < pl || strncmp(low + stem_at, r->prefix, pl))
			continue;
		if (r->match == M_EXACT && stem_len != pl)
			continue;
		put(out, r, t, len, t + vat, vlen, -1);
		return;
	}
}

/* The number of an error code the tables know (codes.h), or -1. */
static long code_number(const char *t, size_t len)
{
	size_t n;
	const struct err_code *tab = codes_table(&n);
	for (int f = 0; f < CF_COUNT; f++) {
		if (f == CF_HRESULT)
			continue;
		int c = codes_lookup(f, t, len);
		if (c >= 0)
			return (long)tab[c].value;
	}
	return -1;
}

static void identifier(const char *t, size_t len, struct names *out)
{
	for (size_t i = 0; i < NROLES; i++) {
		const struct name_role *r = &roles[i];
		/* every word of a paste comes here: the first byte rules most out */
		if (r->kind == NK_LIBRARY || t[0] != r->prefix[0])
			continue;
		size_t pl = strlen(r->prefix);
		if (len <= pl || strncmp(t, r->prefix, pl))
			continue;
		if (r->kind == NK_CODE) {
			long code = code_number(t, len);
			/* "nccl..." is a code only where the NCCL table has it */
			if (!strcmp(r->prefix, "nccl") && code < 0)
				continue;
			put(out, r, t, len, NULL, 0, code);
			return;
		}
		/* a call: the prefix, then a capital (cuInit, cudaMalloc, nvmlInit_v2) */
		if (!is_upper(t[pl]))
			continue;
		put(out, r, t, len, NULL, 0, -1);
		return;
	}
}

static void add_check(struct names *out)
{
	size_t nl;
	const struct layer *ls = layers_in_order(&nl);
	out->check[0] = '\0';
	int low = -1;
	for (size_t l = 0; l < nl; l++) {
		bool want = false;
		for (size_t i = 0; i < out->n && !want; i++) {
			const char *c = out->hit[i].check;
			size_t k = strlen(ls[l].name);
			for (const char *p = c; (p = strstr(p, ls[l].name)); p += k)
				if ((p == c || p[-1] == ',') && (!p[k] || p[k] == ','))
					want = true;
		}
		if (want) {
			size_t used = strlen(out->check);
			snprintf(out->check + used, sizeof out->check - used, "%s%s", used ? "," : "",
				 ls[l].name);
		}
		for (size_t i = 0; i < out->n; i++)
			if (low < 0 && !strcmp(out->hit[i].layer, ls[l].name))
				low = (int)l;
	}
	out->layer = low >= 0 ? ls[low].name : out->n ? out->hit[0].layer : NULL;
}

void names_read(const char *s, size_t len, struct names *out)
{
	out->n = 0;
	out->layer = NULL;
	out->check[0] = '\0';
	for (size_t i = 0; i < len;) {
		if (!is_file(s[i]) || (i > 0 && is_file(s[i - 1]))) {
			i++;
			continue;
		}
		size_t e = i;
		while (e < len && is_file(s[e]))
			e++;
		while (e > i && (s[e - 1] == '.' || s[e - 1] == '-')) /* "libcuda.so.1." ends a sentence */
			e--;
		library(s + i, e - i, out);
		/* identifiers inside the token: "cudaGetDeviceCount()" , "x.cuInit" */
		for (size_t j = i; j < e;) {
			if (!is_ident(s[j]) || is_digit(s[j])) {
				j++;
				continue;
			}
			size_t k = j;
			while (k < e && is_ident(s[k]))
				k++;
			if (k < e && s[k] == '.' && k + 1 < e && (s[k + 1] == 's' || s[k + 1] == 'd'))
				; /* part of a file name: read as a library above */
			else
				identifier(s + j, k - j, out);
			j = k;
		}
		i = e > i ? e : i + 1;
	}
	add_check(out);
}

void names_describe(const struct names *nm, struct strbuf *out)
{
	for (size_t i = 0; i < nm->n; i++) {
		const struct name_hit *h = &nm->hit[i];
		sb_addf(out, "%s%s (%s)", i ? ", " : "", h->what, h->text);
	}
}

/* Applications by what their logs print, most specific first: an
 * application's log shows the framework it runs on too. */
static const struct {
	const char *needle;
	const char *name;
} apps[] = {
	{ "ollama", "Ollama" },
	{ "comfyui", "ComfyUI" },
	{ "stable-diffusion-webui", "Stable Diffusion web UI" },
	{ "lm studio", "LM Studio" },
	{ "vllm", "vLLM" },
	{ "llama.cpp", "llama.cpp" },
	{ "ggml_cuda", "llama.cpp" },
	{ "llama_cpp", "llama-cpp-python" },
	{ "faster_whisper", "faster-whisper" },
	{ "ctranslate2", "CTranslate2" },
	{ "bitsandbytes", "bitsandbytes" },
	{ "onnxruntime", "ONNX Runtime" },
	{ "tensorrt", "TensorRT" },
	{ "tensorflow", "TensorFlow" },
	{ "jaxlib", "JAX" },
	{ "torch", "PyTorch" },
	{ "cupy", "CuPy" },
	{ "blender", "Blender" },
};

const char *names_application(const char *buf, size_t len)
{
	if (len > NAMES_APP_READ)
		len = NAMES_APP_READ;
	for (size_t a = 0; a < sizeof apps / sizeof apps[0]; a++) {
		size_t nl = strlen(apps[a].needle);
		for (size_t i = 0; i + nl <= len; i++)
			if ((buf[i] | 0x20) == apps[a].needle[0] && !strncasecmp(buf + i, apps[a].needle, nl))
				return apps[a].name;
	}
	return NULL;
}
