// soname: libcuda.so.1
/*
 * A fake libcuda.so.1 for the tests. Its behaviour is chosen by environment
 * variables (documented in tests/fakes/README.md); placed in a fixture, it
 * also stands in for the real file so that ldconfig indexes it.
 *
 * It implements every entry point src/gpu/cudaapi.h resolves, with the
 * ABI of NVIDIA's cuda.h, and "runs" the kernels of src/gpu/kernels.ptx on
 * the CPU: device memory is host memory (cuMemAlloc returns a malloc'd
 * pointer as a CUdeviceptr), copies are memcpy, a launch of wslgpu_fill
 * computes the pattern into the buffer and one of wslgpu_check counts the
 * elements that differ from it, events record a monotonic clock.
 * It keeps the rules a real driver enforces where our code could break
 * them: cuInit first (else CUDA_ERROR_NOT_INITIALIZED), a current context
 * for memory, modules and launches (else CUDA_ERROR_INVALID_CONTEXT),
 * device pointers that lie inside an allocation (else INVALID_VALUE or, in
 * a kernel, ILLEGAL_ADDRESS), PTX no newer than the driver version
 * (else CUDA_ERROR_UNSUPPORTED_PTX_VERSION with ptxas's message in the JIT
 * error log), at most 1024 threads per block.
 *
 * Like the real library it exports only the versioned names of the calls
 * that cuda.h versions (cuMemAlloc_v2, not cuMemAlloc), so a loader that
 * asked for the old names would find nothing. Built with
 * -DFAKE_CUDA_LEGACY (tests/fakes/libcuda-legacy.c) it is an old driver
 * instead: only the plain names, no cuGetErrorName/cuGetErrorString, no
 * cuModuleLoadDataEx, no cuDeviceGetUuid_v2.
 *
 * Not thread-safe; the probes and the benchmark call it from one thread.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef int CUjit_option;
typedef struct { char bytes[16]; } CUuuid;

struct fake_obj {
	unsigned magic;
};
typedef struct fake_obj *CUcontext, *CUmodule, *CUfunction, *CUstream, *CUevent;

#define EXPORT __attribute__((visibility("default")))
#ifdef FAKE_CUDA_LEGACY
#define V2(name) name
#else
#define V2(name) name##_v2
#endif

enum {
	OK = 0,
	E_INVALID_VALUE = 1,
	E_OUT_OF_MEMORY = 2,
	E_NOT_INITIALIZED = 3,
	E_STUB_LIBRARY = 34,
	E_NO_DEVICE = 100,
	E_INVALID_DEVICE = 101,
	E_INVALID_IMAGE = 200,
	E_INVALID_CONTEXT = 201,
	E_UNSUPPORTED_PTX_VERSION = 222,
	E_INVALID_HANDLE = 400,
	E_NOT_FOUND = 500,
	E_ILLEGAL_ADDRESS = 700,
};

enum { MAGIC_CTX = 0xc0c0, MAGIC_MOD = 0x30d0, MAGIC_FN = 0xf0f0, MAGIC_STREAM = 0x5713,
       MAGIC_EVENT = 0xe7e7, MAGIC_DEAD = 0xdead };

/* ---- configuration from the environment, read once ---- */

#define MAX_RULES 32
struct rule {
	char call[64];
	int code;
	long from_call;  /* fail from the n-th call on (1 = always) */
};

static struct {
	int loaded;
	long long devices;
	char name[512];
	size_t name_len;
	int cc_major, cc_minor;
	long long mem_mib;
	int driver_version;
	int pci_domain, pci_bus, pci_dev;
	int tcc;
	int managed_concurrent;
	int stub;
	int wrong_data;
	long long pinned_mib; /* < 0: unlimited */
	struct rule fail[MAX_RULES];
	int nfail;
	char crash[512];
	char hang[512];
	char odd[512];
	int attr_id[MAX_RULES], attr_val[MAX_RULES];
	int nattr;
	unsigned char uuid[16];
} cfg;

static long long env_ll(const char *name, long long def)
{
	const char *v = getenv(name);
	if (!v || !*v)
		return def;
	char *end;
	long long x = strtoll(v, &end, 10);
	if (end == v)
		return def;
	/* "1e9" and the like: a count written in scientific notation. */
	if (*end == 'e' || *end == 'E') {
		long long e = strtoll(end + 1, NULL, 10);
		while (e-- > 0 && x < (1LL << 50))
			x *= 10;
	}
	return x;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* %XX escapes, so that spaces and non-UTF-8 bytes survive the harness. */
static size_t percent_decode(const char *in, char *out, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; in[i] && n + 1 < cap; i++) {
		int h, l;
		if (in[i] == '%' && (h = hexval(in[i + 1])) >= 0 && (l = hexval(in[i + 2])) >= 0) {
			out[n++] = (char)(h << 4 | l);
			i += 2;
		} else {
			out[n++] = in[i];
		}
	}
	out[n] = '\0';
	return n;
}

static void copy_env(const char *name, char *dst, size_t cap)
{
	const char *v = getenv(name);
	snprintf(dst, cap, "%s", v ? v : "");
}

static void load_config(void)
{
	if (cfg.loaded)
		return;
	cfg.loaded = 1;
	cfg.devices = env_ll("FAKE_CUDA_DEVICES", 1);
	const char *name = getenv("FAKE_CUDA_NAME");
	cfg.name_len = percent_decode(name ? name : "NVIDIA GeForce RTX 3080", cfg.name,
				      sizeof cfg.name);
	const char *cc = getenv("FAKE_CUDA_CC");
	cfg.cc_major = 8;
	cfg.cc_minor = 6;
	if (cc && *cc)
		sscanf(cc, "%d.%d", &cfg.cc_major, &cfg.cc_minor);
	cfg.mem_mib = env_ll("FAKE_CUDA_MEM_MIB", 10240);
	cfg.driver_version = (int)env_ll("FAKE_CUDA_DRIVER_VERSION", 12040);
	cfg.pci_domain = 0;
	cfg.pci_bus = 1;
	cfg.pci_dev = 0;
	const char *pci = getenv("FAKE_CUDA_PCI");
	if (pci && *pci)
		sscanf(pci, "%x:%x:%x", (unsigned *)&cfg.pci_domain, (unsigned *)&cfg.pci_bus,
		       (unsigned *)&cfg.pci_dev);
	cfg.tcc = (int)env_ll("FAKE_CUDA_TCC", 0);
	cfg.managed_concurrent = (int)env_ll("FAKE_CUDA_MANAGED_CONCURRENT", 0);
	cfg.stub = (int)env_ll("FAKE_CUDA_STUB", 0);
	cfg.wrong_data = (int)env_ll("FAKE_CUDA_WRONG_DATA", 0);
	cfg.pinned_mib = env_ll("FAKE_CUDA_PINNED_MIB", -1);
	copy_env("FAKE_CUDA_CRASH", cfg.crash, sizeof cfg.crash);
	copy_env("FAKE_CUDA_HANG", cfg.hang, sizeof cfg.hang);
	copy_env("FAKE_CUDA_ODD", cfg.odd, sizeof cfg.odd);

	/* FAKE_CUDA_FAIL=call:code[@n],... */
	char buf[2048];
	copy_env("FAKE_CUDA_FAIL", buf, sizeof buf);
	for (char *save = NULL, *tok = strtok_r(buf, ",|", &save); tok && cfg.nfail < MAX_RULES;
	     tok = strtok_r(NULL, ",|", &save)) {
		char *colon = strchr(tok, ':');
		if (!colon)
			continue;
		*colon = '\0';
		struct rule *r = &cfg.fail[cfg.nfail++];
		snprintf(r->call, sizeof r->call, "%s", tok);
		char *at;
		r->code = (int)strtol(colon + 1, &at, 10);
		r->from_call = *at == '@' ? strtol(at + 1, NULL, 10) : 1;
	}
	/* FAKE_CUDA_ATTR=id:value,... overrides cuDeviceGetAttribute. */
	copy_env("FAKE_CUDA_ATTR", buf, sizeof buf);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok && cfg.nattr < MAX_RULES;
	     tok = strtok_r(NULL, ",", &save)) {
		int id, val;
		if (sscanf(tok, "%d:%d", &id, &val) == 2) {
			cfg.attr_id[cfg.nattr] = id;
			cfg.attr_val[cfg.nattr++] = val;
		}
	}
	static const unsigned char def_uuid[16] = { 0x5a, 0x1e, 0x3c, 0x7d, 0x21, 0x9b, 0x4f, 0x02,
						    0x8e, 0x6a, 0xd4, 0x10, 0xbe, 0xef, 0x00, 0x01 };
	memcpy(cfg.uuid, def_uuid, 16);
	const char *u = getenv("FAKE_CUDA_UUID");
	if (u) {
		for (int i = 0, j = 0; u[j] && i < 16;) {
			int h = hexval(u[j]), l = h >= 0 ? hexval(u[j + 1]) : -1;
			if (h >= 0 && l >= 0) {
				cfg.uuid[i++] = (unsigned char)(h << 4 | l);
				j += 2;
			} else {
				j++;
			}
		}
	}
}

static int odd(const char *what)
{
	load_config();
	return strstr(cfg.odd, what) != NULL;
}

/*
 * Does an entry point ("cuModuleLoadDataEx") match a name in a list
 * ("cuModuleLoadData")? A name matches itself and its versioned and Ex
 * variants (cuMemAlloc matches cuMemAlloc_v2; cuModuleLoadData matches
 * cuModuleLoadDataEx), not other calls that merely start with it
 * (cuMemcpyHtoD does not match cuMemcpyHtoDAsync).
 */
static int call_matches(const char *want, const char *call)
{
	size_t n = strlen(want);
	/* cuMemAlloc_v2 in the list matches the call cuMemAlloc_v2 only. */
	if (strncmp(want, call, n) != 0)
		return 0;
	const char *rest = call + n;
	if (!*rest)
		return 1;
	if (!strcmp(rest, "Ex"))
		return 1;
	if (rest[0] == '_' && rest[1] == 'v' && isdigit((unsigned char)rest[2]) && !rest[3])
		return 1;
	return 0;
}

static int in_list(const char *list, const char *call)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s", list);
	for (char *save = NULL, *tok = strtok_r(buf, ",| ", &save); tok;
	     tok = strtok_r(NULL, ",| ", &save))
		if (call_matches(tok, call))
			return 1;
	return 0;
}

/* Counts calls per entry point name for the "@n" rules. */
static long call_count(const char *call)
{
	static struct { char call[64]; long n; } counts[64];
	for (int i = 0; i < 64; i++) {
		if (!counts[i].call[0]) {
			snprintf(counts[i].call, sizeof counts[i].call, "%s", call);
			return ++counts[i].n;
		}
		if (!strcmp(counts[i].call, call))
			return ++counts[i].n;
	}
	return 1;
}

/*
 * FAKE_CUDA_TRACE=path: a line per entry point called ("call NAME") and per
 * allocation made or freed ("alloc device|pinned PTR BYTES", "free
 * device|pinned PTR"), appended as it happens, so that a caller that
 * crashes or _exits loses nothing. Tests check with it that everything
 * allocated was freed (`wslgpu bench gpu`).
 */
static void trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void trace(const char *fmt, ...)
{
	const char *path = getenv("FAKE_CUDA_TRACE");
	if (!path || !*path)
		return;
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	if ((size_t)n >= sizeof buf)
		n = (int)sizeof buf - 1;
	/* Without O_CREAT first: wslgpu's sandbox refuses any open that may
	 * create (EROFS), so the tests make the file beforehand. */
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, buf, (size_t)n) < 0) {
		/* a trace is best effort */
	}
	close(fd);
}

/* Appends "pid\n" to FAKE_CUDA_SPAWN_PIDS, so that a test can look for what
 * the fake left running. */
static void note_pid(pid_t pid)
{
	const char *path = getenv("FAKE_CUDA_SPAWN_PIDS");
	if (!path || !*path || pid <= 0)
		return;
	char buf[32];
	int n = snprintf(buf, sizeof buf, "%ld\n", (long)pid);
	/* Without O_CREAT first: wslgpu's sandbox refuses any open that may
	 * create (EROFS), so the tests make the file beforehand. */
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, buf, (size_t)n) < 0) {
		/* best effort */
	}
	close(fd);
}

/*
 * FAKE_CUDA_SPAWN at cuInit, as real drivers and their helpers do:
 * "helper" forks a child that keeps every inherited descriptor and sleeps
 * 30 s; "daemon" double-forks a grandchild that calls setsid() and sleeps
 * 1000 s. FAKE_CUDA_WRITE_FD=N writes a line into descriptor N if open.
 * The pids are written before cuInit returns (by the parent), so a test
 * finds them on a loaded machine too.
 */
static void spawn_and_scribble(void)
{
	const char *spawn = getenv("FAKE_CUDA_SPAWN");
	if (spawn && strstr(spawn, "helper")) {
		pid_t p = fork();
		if (p == 0) {
			for (int i = 0; i < 30; i++)
				sleep(1);
			_exit(0);
		}
		note_pid(p);
	}
	if (spawn && strstr(spawn, "daemon")) {
		pid_t p = fork();
		if (p == 0) {
			setsid();
			pid_t g = fork();
			if (g == 0) {
				for (int i = 0; i < 1000; i++)
					sleep(1);
				_exit(0);
			}
			note_pid(g);
			_exit(0);
		}
		if (p > 0)
			waitpid(p, NULL, 0);
	}
	const char *w = getenv("FAKE_CUDA_WRITE_FD");
	if (w && *w) {
		/* "all": every descriptor above 2 open for writing, whatever it
		 * is (the caller's result pipe too). */
		bool all = strcmp(w, "all") == 0;
		int lo = all ? 3 : atoi(w), hi = all ? 4096 : lo;
		static const char line[] = "the fake libcuda wrote into an inherited descriptor\n";
		for (int fd = lo > 2 ? lo : 3; fd <= hi; fd++) {
			int fl = fcntl(fd, F_GETFL);
			if (fl < 0 || (all && (fl & O_ACCMODE) == O_RDONLY))
				continue;
			if (write(fd, line, sizeof line - 1) < 0) {
				/* best effort */
			}
		}
	}
	/* FAKE_CUDA_STOP=SIGSTOP|SIGTTOU|SIGTTIN|SIGTSTP: stop this process, as
	 * a driver that touched the terminal would be (or a debugger's stop). */
	const char *stop = getenv("FAKE_CUDA_STOP");
	if (stop && *stop) {
		static const struct { const char *name; int sig; } stops[] = {
			{ "SIGSTOP", SIGSTOP }, { "SIGTTOU", SIGTTOU },
			{ "SIGTTIN", SIGTTIN }, { "SIGTSTP", SIGTSTP },
		};
		for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++)
			if (strcmp(stop, stops[i].name) == 0) {
				signal(stops[i].sig, SIG_DFL);
				raise(stops[i].sig);
				trace("continued after %s\n", stop);
			}
	}
}

/* Every entry point starts here: crash, hang, stub and injected failures. */
static CUresult enter(const char *call)
{
	load_config();
	trace("call %s\n", call);
	if (cfg.crash[0] && in_list(cfg.crash, call)) {
		/* The default action, even under a sanitizer's handler: the
		 * test wants the kernel to report SIGSEGV as a vendor crash. */
		signal(SIGSEGV, SIG_DFL);
		raise(SIGSEGV);
	}
	if (cfg.hang[0] && in_list(cfg.hang, call))
		for (;;)
			pause();
	if (cfg.stub)
		return E_STUB_LIBRARY;
	long n = call_count(call);
	for (int i = 0; i < cfg.nfail; i++)
		if (call_matches(cfg.fail[i].call, call) && n >= cfg.fail[i].from_call)
			return cfg.fail[i].code;
	return OK;
}

#define ENTER(call)                            \
	do {                                   \
		CUresult e_ = enter(call);     \
		if (e_ != OK)                  \
			return e_;             \
	} while (0)

/* ---- driver state ---- */

static int initialized;
static long long visible_devices;

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

#define NEED_INIT()                            \
	do {                                   \
		if (!initialized)              \
			return E_NOT_INITIALIZED; \
	} while (0)

static CUresult check_device(CUdevice dev)
{
	if (dev < 0 || (long long)dev >= visible_devices)
		return E_INVALID_DEVICE;
	return OK;
}

/* Allocations: device memory and pinned host memory. */
struct alloc {
	char *base;
	size_t size;
	int pinned;
	struct alloc *next;
};
static struct alloc *allocs;
static size_t device_used, pinned_used;

static struct alloc *find_alloc(const void *p, size_t n, int pinned)
{
	const char *c = p;
	for (struct alloc *a = allocs; a; a = a->next)
		if (a->pinned == pinned && c >= a->base && n <= a->size &&
		    (size_t)(c - a->base) <= a->size - n)
			return a;
	return NULL;
}

static void *dev_ptr(CUdeviceptr d, size_t n)
{
	void *p = (void *)(uintptr_t)d;
	return find_alloc(p, n, 0) ? p : NULL;
}

struct fake_ctx {
	struct fake_obj o;
	CUdevice dev;
	int primary;
	int refs;
};
static __thread struct fake_ctx *current_ctx;
static struct fake_ctx primaries[64];

#define NEED_CTX()                                                  \
	do {                                                        \
		if (!current_ctx || current_ctx->o.magic != MAGIC_CTX) \
			return E_INVALID_CONTEXT;                   \
	} while (0)

enum { K_OTHER, K_FILL, K_EMPTY, K_CHECK };
/* Modules and functions stay allocated after cuModuleUnload (marked dead,
 * so that a use after unload is an error, not a crash), on these lists, so
 * that a leak checker in the caller's process does not count them. */
struct fake_module {
	struct fake_obj o;
	char *image;
	struct fake_module *next_all;
};
struct fake_fn {
	struct fake_obj o;
	struct fake_module *mod;
	int kind;
	struct fake_fn *next_all;
};
static struct fake_module *all_modules;
static struct fake_fn *all_functions;
struct fake_event {
	struct fake_obj o;
	unsigned flags;
	int recorded;
	double t;
};

static CUresult check_stream(CUstream s)
{
	if (s && s->magic != MAGIC_STREAM)
		return E_INVALID_HANDLE;
	return OK;
}

/* ---- initialisation and version ---- */

EXPORT CUresult cuInit(unsigned flags)
{
	spawn_and_scribble();
	ENTER("cuInit");
	if (flags != 0)
		return E_INVALID_VALUE;
	visible_devices = cfg.devices;
	/* CUDA_VISIBLE_DEVICES: the leading valid ordinals are visible; an
	 * empty value or "-1" hides every device (JuliaGPU/CUDA.jl#1945). */
	const char *vis = getenv("CUDA_VISIBLE_DEVICES");
	if (vis) {
		long long n = 0;
		const char *p = vis;
		while (*p) {
			char *end;
			long v = strtol(p, &end, 10);
			if (end == p || v < 0 || v >= cfg.devices)
				break;
			n++;
			p = end;
			if (*p != ',')
				break;
			p++;
		}
		visible_devices = n;
	}
	/* A real driver fails cuInit when it finds no device; the odd mode
	 * "init-without-devices" succeeds with a count of zero (or less). */
	if (visible_devices <= 0 && !odd("init-without-devices"))
		return E_NO_DEVICE;
	initialized = 1;
	return OK;
}

EXPORT CUresult cuDriverGetVersion(int *version)
{
	ENTER("cuDriverGetVersion");
	if (!version)
		return E_INVALID_VALUE;
	*version = cfg.driver_version;
	return OK;
}

/* ---- devices ---- */

EXPORT CUresult cuDeviceGetCount(int *count)
{
	ENTER("cuDeviceGetCount");
	NEED_INIT();
	if (!count)
		return E_INVALID_VALUE;
	/* A count beyond int is what a broken driver might say: clamp. */
	*count = visible_devices > 0x7fffffff ? 0x7fffffff : (int)visible_devices;
	return OK;
}

EXPORT CUresult cuDeviceGet(CUdevice *dev, int ordinal)
{
	ENTER("cuDeviceGet");
	NEED_INIT();
	if (!dev)
		return E_INVALID_VALUE;
	if (check_device(ordinal) != OK)
		return E_INVALID_DEVICE;
	*dev = ordinal;
	return OK;
}

EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
	ENTER("cuDeviceGetName");
	NEED_INIT();
	if (!name || len <= 0)
		return E_INVALID_VALUE;
	if (check_device(dev) != OK)
		return E_INVALID_DEVICE;
	if (odd("unterminated-name")) {
		/* Fills the whole buffer, no terminator. */
		for (int i = 0; i < len; i++)
			name[i] = cfg.name_len ? cfg.name[(size_t)i % cfg.name_len] : 'X';
		return OK;
	}
	size_t n = cfg.name_len < (size_t)len - 1 ? cfg.name_len : (size_t)len - 1;
	memcpy(name, cfg.name, n);
	name[n] = '\0';
	return OK;
}

EXPORT CUresult V2(cuDeviceTotalMem)(size_t *bytes, CUdevice dev)
{
	ENTER("cuDeviceTotalMem");
	NEED_INIT();
	if (!bytes)
		return E_INVALID_VALUE;
	if (check_device(dev) != OK)
		return E_INVALID_DEVICE;
	*bytes = cfg.mem_mib > 0 ? (size_t)cfg.mem_mib << 20 : 0;
	return OK;
}

EXPORT CUresult cuDeviceGetAttribute(int *value, int attr, CUdevice dev)
{
	ENTER("cuDeviceGetAttribute");
	NEED_INIT();
	if (!value)
		return E_INVALID_VALUE;
	if (check_device(dev) != OK)
		return E_INVALID_DEVICE;
	for (int i = 0; i < cfg.nattr; i++)
		if (cfg.attr_id[i] == attr) {
			*value = cfg.attr_val[i];
			return OK;
		}
	switch (attr) {
	case 1: *value = 1024; break;         /* max threads per block */
	case 10: *value = 32; break;          /* warp size */
	case 13: *value = 1710000; break;     /* clock kHz */
	case 16: *value = 68; break;          /* SMs */
	case 18: *value = 0; break;           /* integrated */
	case 19: *value = 1; break;           /* can map host memory */
	case 20: *value = 0; break;           /* compute mode: default */
	case 33: *value = cfg.pci_bus; break;
	case 34: *value = cfg.pci_dev; break;
	case 35: *value = cfg.tcc; break;
	case 36: *value = 9501000; break;     /* memory clock kHz */
	case 37: *value = 320; break;         /* bus width */
	case 38: *value = 5 << 20; break;     /* L2 */
	case 40: *value = 2; break;           /* async engines */
	case 41: *value = 1; break;           /* unified addressing */
	case 50: *value = cfg.pci_domain; break;
	case 75: *value = cfg.cc_major; break;
	case 76: *value = cfg.cc_minor; break;
	case 83: *value = 1; break;           /* managed memory */
	case 88: *value = 0; break;           /* pageable memory access */
	case 89: *value = cfg.managed_concurrent; break;
	case 99: *value = 1; break;           /* host register supported */
	default: return E_INVALID_VALUE;
	}
	return OK;
}

static CUresult get_uuid(CUuuid *uuid, CUdevice dev)
{
	NEED_INIT();
	if (!uuid)
		return E_INVALID_VALUE;
	if (check_device(dev) != OK)
		return E_INVALID_DEVICE;
	memcpy(uuid->bytes, cfg.uuid, 16);
	uuid->bytes[15] = (char)(cfg.uuid[15] + dev);
	return OK;
}

EXPORT CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
	ENTER("cuDeviceGetUuid");
	return get_uuid(uuid, dev);
}

#ifndef FAKE_CUDA_LEGACY
EXPORT CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
	ENTER("cuDeviceGetUuid_v2");
	return get_uuid(uuid, dev);
}
#endif

/* ---- contexts ---- */

EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
	ENTER("cuDevicePrimaryCtxRetain");
	NEED_INIT();
	if (!pctx)
		return E_INVALID_VALUE;
	if (check_device(dev) != OK)
		return E_INVALID_DEVICE;
	if (dev >= 64)
		return E_OUT_OF_MEMORY;
	struct fake_ctx *c = &primaries[dev];
	c->o.magic = MAGIC_CTX;
	c->dev = dev;
	c->primary = 1;
	c->refs++;
	*pctx = &c->o;
	return OK;
}

EXPORT CUresult V2(cuDevicePrimaryCtxRelease)(CUdevice dev)
{
	ENTER("cuDevicePrimaryCtxRelease");
	NEED_INIT();
	if (check_device(dev) != OK || dev >= 64)
		return E_INVALID_DEVICE;
	if (primaries[dev].refs <= 0)
		return E_INVALID_CONTEXT;
	primaries[dev].refs--;
	return OK;
}

EXPORT CUresult V2(cuCtxCreate)(CUcontext *pctx, unsigned flags, CUdevice dev)
{
	ENTER("cuCtxCreate");
	NEED_INIT();
	(void)flags;
	if (!pctx)
		return E_INVALID_VALUE;
	if (check_device(dev) != OK)
		return E_INVALID_DEVICE;
	struct fake_ctx *c = calloc(1, sizeof *c);
	if (!c)
		return E_OUT_OF_MEMORY;
	c->o.magic = MAGIC_CTX;
	c->dev = dev;
	current_ctx = c;
	*pctx = &c->o;
	return OK;
}

EXPORT CUresult V2(cuCtxDestroy)(CUcontext ctx)
{
	ENTER("cuCtxDestroy");
	NEED_INIT();
	struct fake_ctx *c = (struct fake_ctx *)ctx;
	if (!c || c->o.magic != MAGIC_CTX || c->primary)
		return E_INVALID_CONTEXT;
	if (current_ctx == c)
		current_ctx = NULL;
	c->o.magic = MAGIC_DEAD;
	free(c);
	return OK;
}

EXPORT CUresult cuCtxSetCurrent(CUcontext ctx)
{
	ENTER("cuCtxSetCurrent");
	NEED_INIT();
	struct fake_ctx *c = (struct fake_ctx *)ctx;
	if (c && c->o.magic != MAGIC_CTX)
		return E_INVALID_CONTEXT;
	current_ctx = c;
	return OK;
}

EXPORT CUresult cuCtxSynchronize(void)
{
	ENTER("cuCtxSynchronize");
	NEED_INIT();
	NEED_CTX();
	return OK;
}

/* ---- modules and launches ---- */

/* The highest PTX ISA the driver JITs: CUDA 11.x -> 7.x, 12.x -> 8.x,
 * 13.x -> 9.x (PTX ISA release notes); older drivers are held at 6.5. */
static void driver_ptx_isa(int *major, int *minor)
{
	int v = cfg.driver_version;
	if (v >= 11000) {
		*major = v / 1000 - 4;
		*minor = (v % 1000) / 10;
	} else {
		*major = 6;
		*minor = 5;
	}
}

static CUresult load_module(CUmodule *pmod, const void *image, char *log, size_t *logsize)
{
	NEED_INIT();
	NEED_CTX();
	if (!pmod || !image)
		return E_INVALID_VALUE;
	const char *text = image;
	const char *ver = strstr(text, ".version ");
	int maj = 0, min = 0;
	if (!ver || sscanf(ver + 9, "%d.%d", &maj, &min) != 2)
		return E_INVALID_IMAGE;
	int dmaj, dmin;
	driver_ptx_isa(&dmaj, &dmin);
	if (maj > dmaj || (maj == dmaj && min > dmin)) {
		/* The message ptxas prints for PTX newer than it knows. */
		if (log && logsize && *logsize) {
			int line = 1;
			for (const char *p = text; p < ver; p++)
				line += *p == '\n';
			int w = snprintf(log, *logsize,
					 "ptxas application ptx input, line %d; fatal   : Unsupported "
					 ".version %d.%d; current version is '%d.%d'",
					 line, maj, min, dmaj, dmin);
			if (w >= 0)
				*logsize = (size_t)w < *logsize ? (size_t)w + 1 : *logsize;
		}
		return E_UNSUPPORTED_PTX_VERSION;
	}
	struct fake_module *m = calloc(1, sizeof *m);
	if (!m)
		return E_OUT_OF_MEMORY;
	m->o.magic = MAGIC_MOD;
	m->image = strdup(text);
	if (!m->image) {
		free(m);
		return E_OUT_OF_MEMORY;
	}
	m->next_all = all_modules;
	all_modules = m;
	if (log && logsize && *logsize) {
		log[0] = '\0';
		*logsize = 0;
	}
	*pmod = &m->o;
	return OK;
}

EXPORT CUresult cuModuleLoadData(CUmodule *pmod, const void *image)
{
	ENTER("cuModuleLoadData");
	return load_module(pmod, image, NULL, NULL);
}

#ifndef FAKE_CUDA_LEGACY
EXPORT CUresult cuModuleLoadDataEx(CUmodule *pmod, const void *image, unsigned nopts,
				   CUjit_option *opts, void **values)
{
	ENTER("cuModuleLoadDataEx");
	char *log = NULL;
	size_t logsize = 0;
	int size_index = -1;
	if (nopts && (!opts || !values))
		return E_INVALID_VALUE;
	for (unsigned i = 0; i < nopts; i++) {
		if (opts[i] == 5)
			log = values[i];
		else if (opts[i] == 6) {
			logsize = (size_t)(uintptr_t)values[i];
			size_index = (int)i;
		}
	}
	CUresult rc = load_module(pmod, image, log, &logsize);
	if (size_index >= 0)
		values[size_index] = (void *)(uintptr_t)logsize;
	return rc;
}
#endif

EXPORT CUresult cuModuleGetFunction(CUfunction *pfn, CUmodule mod, const char *name)
{
	ENTER("cuModuleGetFunction");
	NEED_INIT();
	NEED_CTX();
	struct fake_module *m = (struct fake_module *)mod;
	if (!pfn || !name)
		return E_INVALID_VALUE;
	if (!m || m->o.magic != MAGIC_MOD)
		return E_INVALID_HANDLE;
	char want[256];
	snprintf(want, sizeof want, ".entry %s(", name);
	if (!strstr(m->image, want))
		return E_NOT_FOUND;
	struct fake_fn *f = calloc(1, sizeof *f);
	if (!f)
		return E_OUT_OF_MEMORY;
	f->o.magic = MAGIC_FN;
	f->mod = m;
	f->next_all = all_functions;
	all_functions = f;
	f->kind = !strcmp(name, "wslgpu_fill")    ? K_FILL
		  : !strcmp(name, "wslgpu_empty") ? K_EMPTY
		  : !strcmp(name, "wslgpu_check") ? K_CHECK
						  : K_OTHER;
	*pfn = &f->o;
	return OK;
}

EXPORT CUresult cuModuleUnload(CUmodule mod)
{
	ENTER("cuModuleUnload");
	NEED_INIT();
	struct fake_module *m = (struct fake_module *)mod;
	if (!m || m->o.magic != MAGIC_MOD)
		return E_INVALID_HANDLE;
	m->o.magic = MAGIC_DEAD;
	free(m->image);
	m->image = NULL;
	return OK;
}

/*
 * The device work the probes ask for, four words at a time (GCC's and
 * clang's vector extensions, plain SSE2 on x86-64): cuda.kernel poisons,
 * fills and checks a 4 MiB buffer twice, which a GPU does in microseconds;
 * word by word it was most of a whole check's instructions on a fixture.
 */
typedef unsigned v4u __attribute__((vector_size(16)));
#define FILL_K 2654435761u

static v4u v4_splat(unsigned x)
{
	v4u v = { x, x, x, x };
	return v;
}

/* wslgpu_fill: p[i] = i * FILL_K ^ seed. */
static void fill_words(unsigned *p, size_t count, unsigned seed)
{
	v4u idx = { 0u, FILL_K, 2u * FILL_K, 3u * FILL_K };
	const v4u step = v4_splat(4u * FILL_K), s = v4_splat(seed);
	size_t i = 0;
	for (; i + 4 <= count; i += 4) {
		v4u v = idx ^ s;
		memcpy(p + i, &v, sizeof v);
		idx += step;
	}
	for (; i < count; i++)
		p[i] = ((unsigned)i * FILL_K) ^ seed;
}

/* wslgpu_check: res[0] += the words that differ from the fill, res[1] =
 * the lowest of them (atomicAdd, atomicMin on a GPU). */
static void check_words(const unsigned *p, size_t count, unsigned seed, unsigned *res)
{
	v4u idx = { 0u, FILL_K, 2u * FILL_K, 3u * FILL_K };
	const v4u step = v4_splat(4u * FILL_K), s = v4_splat(seed);
	size_t i = 0;
	for (; i + 4 <= count; i += 4) {
		v4u v;
		memcpy(&v, p + i, sizeof v);
		v ^= idx ^ s;
		idx += step;
		unsigned long long half[2];
		memcpy(half, &v, sizeof half);
		if (!(half[0] | half[1]))
			continue;
		for (size_t k = i; k < i + 4; k++)
			if (p[k] != (((unsigned)k * FILL_K) ^ seed)) {
				res[0]++;
				if ((unsigned)k < res[1])
					res[1] = (unsigned)k;
			}
	}
	for (; i < count; i++)
		if (p[i] != (((unsigned)i * FILL_K) ^ seed)) {
			res[0]++;
			if ((unsigned)i < res[1])
				res[1] = (unsigned)i;
		}
}

/* cuMemsetD32. */
static void set_words(unsigned *p, size_t count, unsigned value)
{
	const v4u v = v4_splat(value);
	size_t i = 0;
	for (; i + 4 <= count; i += 4)
		memcpy(p + i, &v, sizeof v);
	for (; i < count; i++)
		p[i] = value;
}

EXPORT CUresult cuLaunchKernel(CUfunction fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
			       unsigned by, unsigned bz, unsigned shared, CUstream stream,
			       void **params, void **extra)
{
	ENTER("cuLaunchKernel");
	NEED_INIT();
	NEED_CTX();
	(void)shared;
	(void)extra;
	struct fake_fn *f = (struct fake_fn *)fn;
	if (!f || f->o.magic != MAGIC_FN || f->mod->o.magic != MAGIC_MOD)
		return E_INVALID_HANDLE;
	if (check_stream(stream) != OK)
		return E_INVALID_HANDLE;
	if (!gx || !gy || !gz || !bx || !by || !bz ||
	    (unsigned long long)bx * by * bz > 1024)
		return E_INVALID_VALUE;
	if (f->kind != K_FILL && f->kind != K_CHECK)
		return OK;
	if (!params || !params[0] || !params[1] || !params[2] ||
	    (f->kind == K_CHECK && !params[3]))
		return E_INVALID_VALUE;
	CUdeviceptr out = *(CUdeviceptr *)params[0];
	unsigned n = *(unsigned *)params[1];
	unsigned seed = *(unsigned *)params[2];
	unsigned long long threads = (unsigned long long)gx * gy * gz * bx * by * bz;
	size_t count = threads < n ? (size_t)threads : n;
	unsigned *p = count ? dev_ptr(out, count * sizeof(unsigned)) : NULL;
	if (count && !p)
		return E_ILLEGAL_ADDRESS;
	if (f->kind == K_CHECK) {
		/* wslgpu_check: count the wrong elements, keep the lowest. */
		unsigned *res = dev_ptr(*(CUdeviceptr *)params[3], 2 * sizeof(unsigned));
		if (!res)
			return E_ILLEGAL_ADDRESS;
		check_words(p, count, seed, res);
		return OK;
	}
	fill_words(p, count, seed);
	if (cfg.wrong_data)
		for (size_t i = 4095; i < count; i += 4096)
			p[i] ^= 0x00010000u;
	return OK;
}

/* ---- memory ---- */

/* Allocations of 2 MiB or more in transparent huge pages, where the kernel
 * gives them (madvise mode): each page a process first touches is a fault,
 * and faults are dear on a virtual machine that shadows page tables (the
 * probe's 4 MiB buffer was 1,024 faults, a third of a check's CPU on the
 * fixtures); 2 MiB pages make it three. Otherwise it is malloc's memory. */
#define HUGE_PAGE ((size_t)2 << 20)
static void *alloc_bytes(size_t bytes)
{
	if (bytes < HUGE_PAGE)
		return malloc(bytes);
	void *p;
	if (posix_memalign(&p, HUGE_PAGE, bytes) != 0)
		return NULL;
	(void)madvise(p, bytes / HUGE_PAGE * HUGE_PAGE, MADV_HUGEPAGE);
	return p;
}

static CUresult alloc_mem(void **p, size_t bytes, int pinned)
{
	if (!p || !bytes)
		return E_INVALID_VALUE;
	if (!pinned) {
		size_t total = cfg.mem_mib > 0 ? (size_t)cfg.mem_mib << 20 : 0;
		if (bytes > total - device_used || device_used > total)
			return E_OUT_OF_MEMORY;
	} else if (cfg.pinned_mib >= 0 && bytes + pinned_used > (size_t)cfg.pinned_mib << 20) {
		return E_OUT_OF_MEMORY;
	}
	struct alloc *a = malloc(sizeof *a);
	char *mem = a ? alloc_bytes(bytes) : NULL;
	if (!mem) {
		free(a);
		return E_OUT_OF_MEMORY;
	}
	/* Device memory starts as garbage, as it would on a GPU. */
	set_words((unsigned *)(void *)mem, bytes / 4, 0xa5a5a5a5u);
	memset(mem + bytes / 4 * 4, 0xa5, bytes % 4);
	a->base = mem;
	a->size = bytes;
	a->pinned = pinned;
	a->next = allocs;
	allocs = a;
	if (pinned)
		pinned_used += bytes;
	else
		device_used += bytes;
	*p = mem;
	trace("alloc %s %p %zu\n", pinned ? "pinned" : "device", (void *)mem, bytes);
	return OK;
}

static CUresult free_mem(void *p, int pinned)
{
	for (struct alloc **pp = &allocs; *pp; pp = &(*pp)->next) {
		struct alloc *a = *pp;
		if (a->base == p && a->pinned == pinned) {
			*pp = a->next;
			if (pinned)
				pinned_used -= a->size;
			else
				device_used -= a->size;
			trace("free %s %p\n", pinned ? "pinned" : "device", a->base);
			free(a->base);
			free(a);
			return OK;
		}
	}
	return E_INVALID_VALUE;
}

EXPORT CUresult V2(cuMemAlloc)(CUdeviceptr *dptr, size_t bytes)
{
	ENTER("cuMemAlloc");
	NEED_INIT();
	NEED_CTX();
	if (!dptr)
		return E_INVALID_VALUE;
	void *p;
	CUresult rc = alloc_mem(&p, bytes, 0);
	if (rc == OK)
		*dptr = (CUdeviceptr)(uintptr_t)p;
	return rc;
}

EXPORT CUresult V2(cuMemFree)(CUdeviceptr dptr)
{
	ENTER("cuMemFree");
	NEED_INIT();
	NEED_CTX();
	if (!dptr)
		return OK;
	return free_mem((void *)(uintptr_t)dptr, 0);
}

/* Host memory is ordinary memory; only device pointers are checked. */
static CUresult copy(void *dst, const void *src, size_t n)
{
	if (n && (!dst || !src))
		return E_INVALID_VALUE;
	if (n)
		memmove(dst, src, n);
	return OK;
}

EXPORT CUresult V2(cuMemcpyHtoD)(CUdeviceptr dst, const void *src, size_t n)
{
	ENTER("cuMemcpyHtoD");
	NEED_INIT();
	NEED_CTX();
	void *d = dev_ptr(dst, n);
	if (n && !d)
		return E_INVALID_VALUE;
	return copy(d, src, n);
}

EXPORT CUresult V2(cuMemcpyDtoH)(void *dst, CUdeviceptr src, size_t n)
{
	ENTER("cuMemcpyDtoH");
	NEED_INIT();
	NEED_CTX();
	void *s = dev_ptr(src, n);
	if (n && !s)
		return E_INVALID_VALUE;
	return copy(dst, s, n);
}

EXPORT CUresult V2(cuMemcpyDtoD)(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	ENTER("cuMemcpyDtoD");
	NEED_INIT();
	NEED_CTX();
	void *d = dev_ptr(dst, n), *s = dev_ptr(src, n);
	if (n && (!d || !s))
		return E_INVALID_VALUE;
	return copy(d, s, n);
}

EXPORT CUresult V2(cuMemcpyHtoDAsync)(CUdeviceptr dst, const void *src, size_t n, CUstream st)
{
	ENTER("cuMemcpyHtoDAsync");
	NEED_INIT();
	NEED_CTX();
	if (check_stream(st) != OK)
		return E_INVALID_HANDLE;
	void *d = dev_ptr(dst, n);
	if (n && !d)
		return E_INVALID_VALUE;
	return copy(d, src, n);
}

EXPORT CUresult V2(cuMemcpyDtoHAsync)(void *dst, CUdeviceptr src, size_t n, CUstream st)
{
	ENTER("cuMemcpyDtoHAsync");
	NEED_INIT();
	NEED_CTX();
	if (check_stream(st) != OK)
		return E_INVALID_HANDLE;
	void *s = dev_ptr(src, n);
	if (n && !s)
		return E_INVALID_VALUE;
	return copy(dst, s, n);
}

EXPORT CUresult V2(cuMemcpyDtoDAsync)(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream st)
{
	ENTER("cuMemcpyDtoDAsync");
	NEED_INIT();
	NEED_CTX();
	if (check_stream(st) != OK)
		return E_INVALID_HANDLE;
	void *d = dev_ptr(dst, n), *s = dev_ptr(src, n);
	if (n && (!d || !s))
		return E_INVALID_VALUE;
	return copy(d, s, n);
}

EXPORT CUresult V2(cuMemsetD32)(CUdeviceptr dst, unsigned value, size_t count)
{
	ENTER("cuMemsetD32");
	NEED_INIT();
	NEED_CTX();
	if (count > SIZE_MAX / 4)
		return E_INVALID_VALUE;
	unsigned *d = dev_ptr(dst, count * 4);
	if (count && !d)
		return E_INVALID_VALUE;
	set_words(d, count, value);
	return OK;
}

EXPORT CUresult cuMemHostAlloc(void **pp, size_t bytes, unsigned flags)
{
	ENTER("cuMemHostAlloc");
	NEED_INIT();
	NEED_CTX();
	if (flags & ~7u)
		return E_INVALID_VALUE;
	return alloc_mem(pp, bytes, 1);
}

EXPORT CUresult cuMemFreeHost(void *p)
{
	ENTER("cuMemFreeHost");
	NEED_INIT();
	NEED_CTX();
	return free_mem(p, 1);
}

EXPORT CUresult V2(cuMemGetInfo)(size_t *free_bytes, size_t *total_bytes)
{
	ENTER("cuMemGetInfo");
	NEED_INIT();
	NEED_CTX();
	if (!free_bytes || !total_bytes)
		return E_INVALID_VALUE;
	*total_bytes = cfg.mem_mib > 0 ? (size_t)cfg.mem_mib << 20 : 0;
	*free_bytes = *total_bytes > device_used ? *total_bytes - device_used : 0;
	return OK;
}

/* ---- events and streams ---- */

EXPORT CUresult cuEventCreate(CUevent *pev, unsigned flags)
{
	ENTER("cuEventCreate");
	NEED_INIT();
	NEED_CTX();
	if (!pev || flags & ~0xfu)
		return E_INVALID_VALUE;
	struct fake_event *e = calloc(1, sizeof *e);
	if (!e)
		return E_OUT_OF_MEMORY;
	e->o.magic = MAGIC_EVENT;
	e->flags = flags;
	*pev = &e->o;
	return OK;
}

static struct fake_event *as_event(CUevent ev)
{
	struct fake_event *e = (struct fake_event *)ev;
	return e && e->o.magic == MAGIC_EVENT ? e : NULL;
}

EXPORT CUresult cuEventRecord(CUevent ev, CUstream st)
{
	ENTER("cuEventRecord");
	NEED_INIT();
	NEED_CTX();
	struct fake_event *e = as_event(ev);
	if (!e || check_stream(st) != OK)
		return E_INVALID_HANDLE;
	e->recorded = 1;
	e->t = now_ms();
	return OK;
}

EXPORT CUresult cuEventQuery(CUevent ev)
{
	ENTER("cuEventQuery");
	NEED_INIT();
	return as_event(ev) ? OK : E_INVALID_HANDLE;
}

EXPORT CUresult cuEventSynchronize(CUevent ev)
{
	ENTER("cuEventSynchronize");
	NEED_INIT();
	return as_event(ev) ? OK : E_INVALID_HANDLE;
}

static CUresult elapsed(float *ms, CUevent a, CUevent b)
{
	NEED_INIT();
	struct fake_event *s = as_event(a), *e = as_event(b);
	if (!ms)
		return E_INVALID_VALUE;
	if (!s || !e || !s->recorded || !e->recorded || (s->flags & 2) || (e->flags & 2))
		return E_INVALID_HANDLE;
	*ms = (float)(e->t - s->t);
	return OK;
}

EXPORT CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b)
{
	ENTER("cuEventElapsedTime");
	return elapsed(ms, a, b);
}

#ifndef FAKE_CUDA_LEGACY
EXPORT CUresult cuEventElapsedTime_v2(float *ms, CUevent a, CUevent b)
{
	ENTER("cuEventElapsedTime_v2");
	return elapsed(ms, a, b);
}
#endif

EXPORT CUresult V2(cuEventDestroy)(CUevent ev)
{
	ENTER("cuEventDestroy");
	NEED_INIT();
	struct fake_event *e = as_event(ev);
	if (!e)
		return E_INVALID_HANDLE;
	e->o.magic = MAGIC_DEAD;
	free(e);
	return OK;
}

EXPORT CUresult cuStreamCreate(CUstream *ps, unsigned flags)
{
	ENTER("cuStreamCreate");
	NEED_INIT();
	NEED_CTX();
	if (!ps || flags > 1)
		return E_INVALID_VALUE;
	struct fake_obj *s = calloc(1, sizeof *s);
	if (!s)
		return E_OUT_OF_MEMORY;
	s->magic = MAGIC_STREAM;
	*ps = s;
	return OK;
}

EXPORT CUresult cuStreamSynchronize(CUstream st)
{
	ENTER("cuStreamSynchronize");
	NEED_INIT();
	NEED_CTX();
	return check_stream(st);
}

EXPORT CUresult V2(cuStreamDestroy)(CUstream st)
{
	ENTER("cuStreamDestroy");
	NEED_INIT();
	if (!st || st->magic != MAGIC_STREAM)
		return E_INVALID_HANDLE;
	st->magic = MAGIC_DEAD;
	free(st);
	return OK;
}

/* ---- error names ---- */

#ifndef FAKE_CUDA_LEGACY
/* A few names, as a real driver has them all; others are "unknown" to the
 * fake (CUDA_ERROR_INVALID_VALUE), which exercises the caller's table. */
static const struct { int code; const char *name, *text; } fake_names[] = {
	{ 0, "CUDA_SUCCESS", "no error" },
	{ 1, "CUDA_ERROR_INVALID_VALUE", "invalid argument" },
	{ 2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory" },
	{ 3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error" },
	{ 100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected" },
	{ 101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal" },
	{ 201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context" },
	{ 222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "the provided PTX was compiled with an unsupported toolchain." },
	{ 700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered" },
	{ 999, "CUDA_ERROR_UNKNOWN", "unknown error" },
};

static CUresult error_lookup(int code, const char **p, int want_name)
{
	if (!p)
		return E_INVALID_VALUE;
	if (odd("null-error-names")) {
		*p = NULL;
		return OK;
	}
	if (odd("garbage-error-names")) {
		*p = "\x1b[31m\xff\xfe";
		return OK;
	}
	for (size_t i = 0; i < sizeof fake_names / sizeof fake_names[0]; i++)
		if (fake_names[i].code == code) {
			*p = want_name ? fake_names[i].name : fake_names[i].text;
			return OK;
		}
	*p = NULL;
	return E_INVALID_VALUE;
}

EXPORT CUresult cuGetErrorName(CUresult code, const char **name)
{
	ENTER("cuGetErrorName");
	return error_lookup(code, name, 1);
}

EXPORT CUresult cuGetErrorString(CUresult code, const char **text)
{
	ENTER("cuGetErrorString");
	return error_lookup(code, text, 0);
}
#endif
