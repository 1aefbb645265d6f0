// soname: libnvidia-ml.so.1
/*
 * A fake libnvidia-ml.so.1 for the tests: every NVML entry point that
 * src/gpu/nvmlapi.c uses, behaving like WSL's NVML by default (one RTX 3080,
 * Windows driver 551.23, CUDA 12.4, utilisation and process lists not
 * supported) and steered by FAKE_NVML_* environment variables, documented
 * in tests/fakes/README.md. Placed in a fixture it also stands in for the
 * real file, so that ldconfig indexes it under its soname.
 *
 * FAKE_NVML_NO_V2=1 makes the library look like an old NVML that exports
 * only the unversioned names: at load time it renames its own versioned
 * symbols in its dynamic string table (nvmlInit_v2 -> nvmlInit_V2), so that
 * dlsym no longer finds them. One fake, one soname, no second build.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define NVML_SUCCESS 0
#define NVML_ERROR_UNINITIALIZED 1
#define NVML_ERROR_INVALID_ARGUMENT 2
#define NVML_ERROR_NOT_SUPPORTED 3
#define NVML_ERROR_INSUFFICIENT_SIZE 7

#define MAX_DEVICES 16

struct nvmlDevice_st {
	unsigned int index;
};
typedef struct nvmlDevice_st *nvmlDevice_t;

typedef struct {
	unsigned long long total, free, used;
} nvmlMemory_t;

typedef struct {
	unsigned int gpu, memory;
} nvmlUtilization_t;

typedef struct {
	char busIdLegacy[16];
	unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
	char busId[32];
} nvmlPciInfo_t;

typedef struct {
	unsigned int pid;
	unsigned long long usedGpuMemory;
	unsigned int gpuInstanceId, computeInstanceId;
} nvmlProcessInfo_t;

static struct nvmlDevice_st devices[MAX_DEVICES];
static int initialized;

static const char *env(const char *name, const char *dflt)
{
	const char *v = getenv(name);
	return v ? v : dflt;
}

static long env_long(const char *name, long dflt)
{
	const char *v = getenv(name);
	if (!v || !*v)
		return dflt;
	return strtol(v, NULL, 10);
}

/* "nvmlInit_v2" -> length of "nvmlInit" (the name without a _vN suffix). */
static size_t base_len(const char *fn)
{
	size_t n = strlen(fn);
	const char *u = strrchr(fn, '_');
	if (u && u[1] == 'v' && u[2] >= '0' && u[2] <= '9')
		return (size_t)(u - fn);
	return n;
}

/* An entry of a FAKE_NVML_* list names fn when it is fn exactly, or fn's
 * base name when the entry itself carries no version suffix. */
static int names_fn(const char *entry, size_t len, const char *fn)
{
	if (len == strlen(fn) && memcmp(entry, fn, len) == 0)
		return 1;
	char tmp[128];
	if (len >= sizeof tmp)
		return 0;
	memcpy(tmp, entry, len);
	tmp[len] = '\0';
	return base_len(tmp) == len && base_len(fn) == len && memcmp(entry, fn, len) == 0;
}

/* Finds fn in a comma-separated list; returns the entry's ":value" part
 * (or "" when it has none), NULL when fn is not listed. */
static const char *listed(const char *list, const char *fn)
{
	static char value[32];
	for (const char *p = list; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		const char *colon = memchr(p, ':', len);
		size_t nlen = colon ? (size_t)(colon - p) : len;
		if (names_fn(p, nlen, fn)) {
			value[0] = '\0';
			if (colon) {
				size_t vl = len - nlen - 1;
				if (vl >= sizeof value)
					vl = sizeof value - 1;
				memcpy(value, colon + 1, vl);
				value[vl] = '\0';
			}
			return value;
		}
		p = comma ? comma + 1 : NULL;
	}
	return NULL;
}

/* FAKE_NVML_TRACE=path: "call FN" appended per entry point, before it
 * crashes or hangs, so that a test can wait until a call is reached. */
static void trace(const char *fn)
{
	const char *path = getenv("FAKE_NVML_TRACE");
	if (!path || !*path)
		return;
	char buf[128];
	int n = snprintf(buf, sizeof buf, "call %s\n", fn);
	if (n <= 0 || (size_t)n >= sizeof buf)
		return;
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

/*
 * Every entry point starts here: crash or hang when asked to, and return
 * the forced code of FAKE_NVML_FAIL (or -1 to carry on).
 */
static int enter(const char *fn)
{
	trace(fn);
	if (listed(getenv("FAKE_NVML_CRASH"), fn)) {
		/* Die of SIGSEGV even under a sanitizer's handler. */
		signal(SIGSEGV, SIG_DFL);
		raise(SIGSEGV);
	}
	if (listed(getenv("FAKE_NVML_HANG"), fn))
		for (;;)
			pause();
	const char *code = listed(getenv("FAKE_NVML_FAIL"), fn);
	if (code)
		return *code ? atoi(code) : 999;
	return -1;
}

/* FAKE_NVML_UNSUPPORTED names queries by keyword; WSL's two by default. */
static int unsupported(const char *what)
{
	const char *list = env("FAKE_NVML_UNSUPPORTED", "utilization,processes");
	size_t n = strlen(what);
	for (const char *p = list; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (len == n && memcmp(p, what, n) == 0)
			return 1;
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

static unsigned int device_count(void)
{
	long n = env_long("FAKE_NVML_DEVICES", 1);
	if (n < 0)
		n = 0;
	return n > MAX_DEVICES ? MAX_DEVICES : (unsigned int)n;
}

static int device_index(nvmlDevice_t d, unsigned int *index)
{
	if (!d || d < devices || d >= devices + MAX_DEVICES)
		return NVML_ERROR_INVALID_ARGUMENT;
	*index = (unsigned int)(d - devices);
	return *index < device_count() ? NVML_SUCCESS : NVML_ERROR_INVALID_ARGUMENT;
}

static int copy_string(char *buf, unsigned int length, const char *s)
{
	if (!buf)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (strlen(s) + 1 > length)
		return NVML_ERROR_INSUFFICIENT_SIZE;
	memcpy(buf, s, strlen(s) + 1);
	return NVML_SUCCESS;
}

#define ENTER(fn)                              \
	do {                                   \
		int forced_ = enter(fn);       \
		if (forced_ >= 0)              \
			return forced_;        \
	} while (0)
#define NEED_INIT()                                    \
	do {                                           \
		if (!initialized)                      \
			return NVML_ERROR_UNINITIALIZED; \
	} while (0)

/* The exported entry points, in nvml.h's names. */
int nvmlInit_v2(void);
int nvmlInit(void);
int nvmlShutdown(void);
const char *nvmlErrorString(int result);
int nvmlSystemGetDriverVersion(char *version, unsigned int length);
int nvmlSystemGetNVMLVersion(char *version, unsigned int length);
int nvmlSystemGetCudaDriverVersion_v2(int *v);
int nvmlSystemGetCudaDriverVersion(int *v);
int nvmlDeviceGetCount_v2(unsigned int *count);
int nvmlDeviceGetCount(unsigned int *count);
int nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device);
int nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t *device);
int nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length);
int nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length);
int nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory);
int nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *u);
int nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device, unsigned int *count,
					    nvmlProcessInfo_t *infos);
int nvmlDeviceGetComputeRunningProcesses_v2(nvmlDevice_t device, unsigned int *count,
					    nvmlProcessInfo_t *infos);
int nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t device, unsigned int *count,
					 nvmlProcessInfo_t *infos);
int nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci);
int nvmlDeviceGetDriverModel_v2(nvmlDevice_t device, int *current, int *pending);
int nvmlDeviceGetDriverModel(nvmlDevice_t device, int *current, int *pending);

static int do_init(const char *fn)
{
	ENTER(fn);
	/* FAKE_NVML_TTY=path: whether this process could open a terminal
	 * (a driver that writes to /dev/tty reaches the user's screen). */
	const char *tty = getenv("FAKE_NVML_TTY");
	if (tty && *tty) {
		int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
		int e = errno;
		FILE *f = fopen(tty, "a");
		if (f) {
			if (fd >= 0)
				fprintf(f, "opened /dev/tty\n");
			else
				fprintf(f, "no /dev/tty (%s)\n", strerror(e));
			fclose(f);
		}
		if (fd >= 0)
			close(fd);
	}
	initialized = 1;
	return NVML_SUCCESS;
}

int nvmlInit_v2(void) { return do_init("nvmlInit_v2"); }
int nvmlInit(void) { return do_init("nvmlInit"); }

int nvmlShutdown(void)
{
	ENTER("nvmlShutdown");
	NEED_INIT();
	initialized = 0;
	return NVML_SUCCESS;
}

const char *nvmlErrorString(int result)
{
	switch (result) {
	case 0: return "Success";
	case 1: return "Uninitialized";
	case 2: return "Invalid Argument";
	case 3: return "Not Supported";
	case 4: return "Insufficient Permissions";
	case 7: return "Insufficient Size";
	case 9: return "Driver Not Loaded";
	case 12: return "NVML Shared Library Not Found";
	case 17: return "GPU access blocked by the operating system";
	case 18: return "Driver/library version mismatch";
	case 999: return "Unknown Error";
	default: return "Unknown Error";
	}
}

int nvmlSystemGetDriverVersion(char *version, unsigned int length)
{
	ENTER("nvmlSystemGetDriverVersion");
	NEED_INIT();
	return copy_string(version, length, env("FAKE_NVML_DRIVER", "551.23"));
}

int nvmlSystemGetNVMLVersion(char *version, unsigned int length)
{
	ENTER("nvmlSystemGetNVMLVersion");
	NEED_INIT();
	return copy_string(version, length, "12.551.23");
}

static int cuda_version(const char *fn, int *v)
{
	ENTER(fn);
	if (!v)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (unsupported("cuda_version"))
		return NVML_ERROR_NOT_SUPPORTED;
	*v = (int)env_long("FAKE_NVML_CUDA", 12040);
	return NVML_SUCCESS;
}

int nvmlSystemGetCudaDriverVersion_v2(int *v) { return cuda_version("nvmlSystemGetCudaDriverVersion_v2", v); }
int nvmlSystemGetCudaDriverVersion(int *v) { return cuda_version("nvmlSystemGetCudaDriverVersion", v); }

static int get_count(const char *fn, unsigned int *count)
{
	ENTER(fn);
	NEED_INIT();
	if (!count)
		return NVML_ERROR_INVALID_ARGUMENT;
	*count = device_count();
	return NVML_SUCCESS;
}

int nvmlDeviceGetCount_v2(unsigned int *count) { return get_count("nvmlDeviceGetCount_v2", count); }
int nvmlDeviceGetCount(unsigned int *count) { return get_count("nvmlDeviceGetCount", count); }

static int get_handle(const char *fn, unsigned int index, nvmlDevice_t *device)
{
	ENTER(fn);
	NEED_INIT();
	if (!device || index >= device_count())
		return NVML_ERROR_INVALID_ARGUMENT;
	devices[index].index = index;
	*device = &devices[index];
	return NVML_SUCCESS;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device)
{
	return get_handle("nvmlDeviceGetHandleByIndex_v2", index, device);
}

int nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t *device)
{
	return get_handle("nvmlDeviceGetHandleByIndex", index, device);
}

int nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length)
{
	unsigned int i;
	ENTER("nvmlDeviceGetName");
	NEED_INIT();
	if (device_index(device, &i))
		return NVML_ERROR_INVALID_ARGUMENT;
	/* FAKE_NVML_NAME="A;B": one name per device, the last one repeats. */
	const char *names = env("FAKE_NVML_NAME", "NVIDIA GeForce RTX 3080");
	const char *p = names;
	for (unsigned int k = 0; k < i && strchr(p, ';'); k++)
		p = strchr(p, ';') + 1;
	/* %XX escapes are decoded: the e2e harness splits setenv values on
	 * spaces, so "NVIDIA%20A2000" spells a name with one. */
	char one[96];
	size_t len = strcspn(p, ";"), k = 0;
	for (size_t j = 0; j < len && k + 1 < sizeof one; j++) {
		unsigned int x;
		if (p[j] == '%' && j + 2 < len && isxdigit((unsigned char)p[j + 1]) &&
		    isxdigit((unsigned char)p[j + 2]) && sscanf(p + j + 1, "%2x", &x) == 1) {
			one[k++] = (char)x;
			j += 2;
		} else {
			one[k++] = p[j];
		}
	}
	one[k] = '\0';
	return copy_string(name, length, one);
}

int nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length)
{
	unsigned int i;
	char buf[64];
	ENTER("nvmlDeviceGetUUID");
	NEED_INIT();
	if (device_index(device, &i))
		return NVML_ERROR_INVALID_ARGUMENT;
	snprintf(buf, sizeof buf, "GPU-6b4c5e1a-1111-2222-3333-%012llu", 444455556666ull + i);
	return copy_string(uuid, length, buf);
}

int nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory)
{
	unsigned int i;
	ENTER("nvmlDeviceGetMemoryInfo");
	NEED_INIT();
	if (device_index(device, &i) || !memory)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (unsupported("memory"))
		return NVML_ERROR_NOT_SUPPORTED;
	unsigned long long mib = 1024ull * 1024ull;
	memory->total = (unsigned long long)env_long("FAKE_NVML_MEM_TOTAL_MIB", 10240) * mib;
	/* FAKE_NVML_MEM_STEP_MIB: each reading finds that much more in use (a
	 * job that allocates as it runs: watch's "memory rose" evidence) */
	static long readings;
	long used = env_long("FAKE_NVML_MEM_USED_MIB", 1024) +
		    readings++ * env_long("FAKE_NVML_MEM_STEP_MIB", 0);
	memory->used = (unsigned long long)used * mib;
	memory->free = memory->total > memory->used ? memory->total - memory->used : 0;
	return NVML_SUCCESS;
}

int nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *u)
{
	unsigned int i;
	ENTER("nvmlDeviceGetUtilizationRates");
	NEED_INIT();
	if (device_index(device, &i) || !u)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (unsupported("utilization"))
		return NVML_ERROR_NOT_SUPPORTED;
	u->gpu = (unsigned int)env_long("FAKE_NVML_UTIL", 0);
	u->memory = u->gpu / 2;
	return NVML_SUCCESS;
}

static int processes(const char *fn, nvmlDevice_t device, unsigned int *count,
		     nvmlProcessInfo_t *infos)
{
	unsigned int i;
	ENTER(fn);
	NEED_INIT();
	if (device_index(device, &i) || !count)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (unsupported("processes"))
		return NVML_ERROR_NOT_SUPPORTED;
	unsigned int n = (unsigned int)env_long("FAKE_NVML_PROCS", 0);
	if (*count < n || (n && !infos)) {
		*count = n;
		return NVML_ERROR_INSUFFICIENT_SIZE;
	}
	for (unsigned int k = 0; k < n; k++) {
		memset(&infos[k], 0, sizeof infos[k]);
		infos[k].pid = 1000 + k;
		infos[k].usedGpuMemory = 256ull << 20;
	}
	*count = n;
	return NVML_SUCCESS;
}

int nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device, unsigned int *count,
					    nvmlProcessInfo_t *infos)
{
	return processes("nvmlDeviceGetComputeRunningProcesses_v3", device, count, infos);
}

int nvmlDeviceGetComputeRunningProcesses_v2(nvmlDevice_t device, unsigned int *count,
					    nvmlProcessInfo_t *infos)
{
	return processes("nvmlDeviceGetComputeRunningProcesses_v2", device, count, infos);
}

int nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t device, unsigned int *count,
					 nvmlProcessInfo_t *infos)
{
	return processes("nvmlDeviceGetComputeRunningProcesses", device, count, infos);
}

int nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci)
{
	unsigned int i;
	ENTER("nvmlDeviceGetPciInfo_v3");
	NEED_INIT();
	if (device_index(device, &i) || !pci)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (unsupported("pci"))
		return NVML_ERROR_NOT_SUPPORTED;
	memset(pci, 0, sizeof *pci);
	pci->bus = i + 1;
	pci->pciDeviceId = 0x220610de;
	snprintf(pci->busId, sizeof pci->busId, "00000000:%02X:00.0", i + 1);
	snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "0000:%02X:00.0", i + 1);
	return NVML_SUCCESS;
}

static int driver_model(const char *fn, nvmlDevice_t device, int *current, int *pending)
{
	unsigned int i;
	ENTER(fn);
	NEED_INIT();
	if (device_index(device, &i) || !current || !pending)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (unsupported("driver_model"))
		return NVML_ERROR_NOT_SUPPORTED;
	const char *m = env("FAKE_NVML_DRIVER_MODEL", "WDDM");
	*current = *pending = !strcmp(m, "TCC") ? 1 : !strcmp(m, "MCDM") ? 2 : 0;
	return NVML_SUCCESS;
}

int nvmlDeviceGetDriverModel_v2(nvmlDevice_t device, int *current, int *pending)
{
	return driver_model("nvmlDeviceGetDriverModel_v2", device, current, pending);
}

int nvmlDeviceGetDriverModel(nvmlDevice_t device, int *current, int *pending)
{
	return driver_model("nvmlDeviceGetDriverModel", device, current, pending);
}

/* ---- FAKE_NVML_NO_V2: hide the versioned names from dlsym ---- */

static const char *const versioned[] = {
	"nvmlInit_v2",
	"nvmlSystemGetCudaDriverVersion_v2",
	"nvmlDeviceGetCount_v2",
	"nvmlDeviceGetHandleByIndex_v2",
	"nvmlDeviceGetComputeRunningProcesses_v3",
	"nvmlDeviceGetComputeRunningProcesses_v2",
	"nvmlDeviceGetPciInfo_v3",
	"nvmlDeviceGetDriverModel_v2",
};

struct segment_query {
	uintptr_t addr;   /* in: an address of ours */
	uintptr_t base;   /* out: our load address */
	int prot;         /* out: protection of the segment holding addr */
	int found;
};

static int find_segment(struct dl_phdr_info *info, size_t size, void *data)
{
	struct segment_query *q = data;
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type != PT_LOAD || q->addr < start || q->addr >= start + ph->p_memsz)
			continue;
		q->base = info->dlpi_addr;
		q->prot = ((ph->p_flags & PF_R) ? PROT_READ : 0) |
			  ((ph->p_flags & PF_W) ? PROT_WRITE : 0) |
			  ((ph->p_flags & PF_X) ? PROT_EXEC : 0);
		q->found = 1;
		return 1;
	}
	return 0;
}

extern ElfW(Dyn) _DYNAMIC[];

__attribute__((constructor)) static void hide_versioned_names(void)
{
	const char *v = getenv("FAKE_NVML_NO_V2");
	if (!v || strcmp(v, "1") != 0)
		return;
	uintptr_t strtab = 0;
	size_t strsz = 0;
	for (const ElfW(Dyn) *d = _DYNAMIC; d->d_tag != DT_NULL; d++) {
		if (d->d_tag == DT_STRTAB)
			strtab = (uintptr_t)d->d_un.d_ptr;
		else if (d->d_tag == DT_STRSZ)
			strsz = (size_t)d->d_un.d_val;
	}
	struct segment_query q = { (uintptr_t)&_DYNAMIC, 0, 0, 0 };
	dl_iterate_phdr(find_segment, &q);
	if (!strtab || !strsz || !q.found)
		return;
	if (strtab < q.base)
		strtab += q.base; /* d_ptr not relocated in place on this system */
	q.addr = strtab;
	q.found = 0;
	dl_iterate_phdr(find_segment, &q);
	if (!q.found)
		return;
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t lo = strtab & ~((uintptr_t)page - 1);
	size_t span = strtab + strsz - lo;
	if (mprotect((void *)lo, span, q.prot | PROT_READ | PROT_WRITE) != 0)
		return;
	char *tab = (char *)strtab;
	for (size_t k = 0; k < sizeof versioned / sizeof versioned[0]; k++) {
		size_t n = strlen(versioned[k]);
		for (size_t off = 0; off + n < strsz; off++)
			if ((off == 0 || tab[off - 1] == '\0') && tab[off + n] == '\0' &&
			    memcmp(tab + off, versioned[k], n) == 0) {
				tab[off + n - 2] = 'V'; /* _v2 -> _V2 */
				break;
			}
	}
	mprotect((void *)lo, span, q.prot);
}
