/*
 * gpu.c: the `bench gpu` engine — copy bandwidth by size and memory kind,
 * and kernel-launch cost, through the CUDA driver API (src/gpu/cudaapi.h).
 *
 * Isolation: bench_gpu_run forks; the child loads libcuda and measures,
 * writing its results into a struct in shared memory as it goes, so a
 * crash (SIGSEGV inside the driver) or a hang (killed at the time limit)
 * still leaves the numbers measured so far and the step it was in. The
 * parent never loads the vendor library.
 *
 * Method, per copy kind (host→device and device→host from pageable malloc
 * memory and from pinned cuMemHostAlloc memory, device→device) and size
 * (powers of 4 from --min-size to --max-size):
 *   1. one untimed warm-up copy (first-touch page faults, lazy mappings);
 *   2. reps copies between two CUDA events on the default stream, reps
 *      chosen so each size moves about 256 MiB (3 to 1000 copies);
 *   3. verification: a pattern written on the host, copied to the device
 *      and back (and, for device→device, through a second buffer) must
 *      come back unchanged, word for word.
 * Once, a kernel (wslgpu_fill) writes a pattern on the device and the host
 * checks what it reads back, so the device→host direction is proven to
 * carry the GPU's data, not an echo of ours.
 *
 * Launches of the empty kernel: 100 warm-up launches; then the synchronous
 * round trip (cuLaunchKernel + cuCtxSynchronize, timed with the monotonic
 * clock because the host side is the point), median and p99; then N
 * launches back to back between two events and one synchronisation: the
 * rate at which launches can be issued.
 *
 * Everything allocated is freed on every path, errors included; the
 * counts are kept in the results (and the fake libcuda's trace checks them).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/proc.h"
#include "../core/rootfs.h"
#include "../gpu/cudaapi.h"
#include "../gpu/kernels.h"
#include "bench.h"
#include "../core/interrupt.h"
#include "stats.h"
#include "kb_ids.h"

/* Bytes each size moves in its timed copies (bounded by the rep limits). */
#define TARGET_BYTES (256ull << 20)
#define MIN_REPS 3u
#define MAX_REPS 1000u
#define WARMUP_LAUNCHES 100u

struct gpu_run {
	const struct bench_gpu_params *p;
	struct bench_gpu *g;
	struct cuda_api api;
	bool inited;
	CUcontext ctx;
	CUmodule mod;
	CUfunction empty, fill;
	CUevent ev0, ev1;
	CUdeviceptr da, db;
	unsigned char *pageable; /* malloc */
	unsigned char *pinned;   /* cuMemHostAlloc */
	size_t pinned_size;
	size_t max;              /* bytes of each buffer */
};

static void step(struct gpu_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void step(struct gpu_run *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->g->step, sizeof r->g->step, fmt, ap);
	va_end(ap);
}

static void fail(struct gpu_run *r, const char *kb, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct gpu_run *r, const char *kb, const char *fmt, ...)
{
	if (r->g->error[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->g->error, sizeof r->g->error, fmt, ap);
	va_end(ap);
	snprintf(r->g->error_kb, sizeof r->g->error_kb, "%s", kb);
}

/* Checks a CUresult; on failure records "call failed: NAME (code): text". */
static bool ok(struct gpu_run *r, CUresult rc, const char *call, const char *kb)
{
	if (rc == CUDA_SUCCESS)
		return true;
	if (!r->g->error[0]) {
		struct strbuf d = STRBUF_INIT;
		cuda_result_describe(rc, &d);
		fail(r, kb, "%s failed: %s: %s", call, d.buf, cuda_result_text(rc));
		snprintf(r->g->failed_call, sizeof r->g->failed_call, "%s", call);
		r->g->failed_code = rc;
		sb_release(&d);
	}
	return false;
}

static const char *const required[] = {
	"cuInit", "cuDeviceGetCount", "cuDeviceGet", "cuCtxCreate", "cuCtxSynchronize",
	"cuModuleLoadData", "cuModuleGetFunction", "cuLaunchKernel", "cuMemAlloc", "cuMemFree",
	"cuMemcpyHtoD", "cuMemcpyDtoH", "cuMemcpyDtoD", "cuEventCreate", "cuEventRecord",
	"cuEventSynchronize", "cuEventElapsedTime", NULL,
};

static bool has(const struct cuda_api *a, const char *name)
{
	/* The api table's members in the order required[] names them. */
	const void *fp[] = {
		(const void *)a->cuInit, (const void *)a->cuDeviceGetCount,
		(const void *)a->cuDeviceGet, (const void *)a->cuCtxCreate,
		(const void *)a->cuCtxSynchronize, (const void *)a->cuModuleLoadData,
		(const void *)a->cuModuleGetFunction, (const void *)a->cuLaunchKernel,
		(const void *)a->cuMemAlloc, (const void *)a->cuMemFree,
		(const void *)a->cuMemcpyHtoD, (const void *)a->cuMemcpyDtoH,
		(const void *)a->cuMemcpyDtoD, (const void *)a->cuEventCreate,
		(const void *)a->cuEventRecord, (const void *)a->cuEventSynchronize,
		(const void *)a->cuEventElapsedTime,
	};
	for (size_t i = 0; required[i]; i++)
		if (!strcmp(required[i], name))
			return fp[i] != NULL;
	return false;
}

/* ---- verification pattern ---- */

void bench_fill_pattern(unsigned char *buf, size_t n, unsigned seed)
{
	size_t words = n / 4;
	for (size_t i = 0; i < words; i++) {
		unsigned v = wslgpu_fill_value((unsigned)i, seed);
		memcpy(buf + i * 4, &v, 4);
	}
	unsigned tail = wslgpu_fill_value((unsigned)words, seed);
	for (size_t i = words * 4; i < n; i++)
		buf[i] = (unsigned char)(tail >> (8 * (i % 4)));
}

int bench_check_pattern(const unsigned char *buf, size_t n, unsigned seed, size_t *bad)
{
	size_t words = n / 4;
	for (size_t i = 0; i < words; i++) {
		unsigned v = wslgpu_fill_value((unsigned)i, seed);
		if (memcmp(buf + i * 4, &v, 4) != 0) {
			const unsigned char *e = (const unsigned char *)&v;
			size_t k = 0;
			while (k < 3 && buf[i * 4 + k] == e[k])
				k++;
			*bad = i * 4 + k;
			return -1;
		}
	}
	unsigned tail = wslgpu_fill_value((unsigned)words, seed);
	for (size_t i = words * 4; i < n; i++)
		if (buf[i] != (unsigned char)(tail >> (8 * (i % 4)))) {
			*bad = i;
			return -1;
		}
	return 0;
}

/* ---- the PCIe link, from sysfs (native Linux; WSL2 shows no PCI GPU) ---- */

static void pcie_link(struct gpu_run *r, int domain, int bus, int dev)
{
	struct bench_gpu *g = r->g;
	char base[96];
	snprintf(base, sizeof base, "/sys/bus/pci/devices/%04x:%02x:%02x.0", domain, bus, dev);
	struct strbuf path = STRBUF_INIT, v = STRBUF_INIT;
	sb_addf(&path, "%s/current_link_speed", base);
	int gen = 0, width = 0;
	if (rootfs_read(path.buf, 256, &v, NULL) == 0)
		gen = bench_pcie_gen_from_speed(v.buf, v.len);
	sb_reset(&path);
	sb_addf(&path, "%s/current_link_width", base);
	if (rootfs_read(path.buf, 64, &v, NULL) == 0)
		width = atoi(v.buf);
	if (gen > 0 && width > 0 && width <= 32) {
		g->pcie_gen = gen;
		g->pcie_width = width;
		int mgen = 0, mwidth = 0;
		sb_reset(&path);
		sb_addf(&path, "%s/max_link_speed", base);
		if (rootfs_read(path.buf, 256, &v, NULL) == 0)
			mgen = bench_pcie_gen_from_speed(v.buf, v.len);
		sb_reset(&path);
		sb_addf(&path, "%s/max_link_width", base);
		if (rootfs_read(path.buf, 64, &v, NULL) == 0)
			mwidth = atoi(v.buf);
		if ((mgen > gen) || (mwidth > width))
			snprintf(g->pcie_note, sizeof g->pcie_note,
				 "running below the link's maximum, %d.0 x%d", mgen > gen ? mgen : gen,
				 mwidth > width ? mwidth : width);
		else
			snprintf(g->pcie_note, sizeof g->pcie_note, "from %s", base);
	} else if (rootfs_stat("/dev/dxg", &(struct stat){ 0 }) == 0) {
		snprintf(g->pcie_note, sizeof g->pcie_note,
			 "WSL2 reaches the GPU by paravirtualisation: no PCIe link is visible");
	} else {
		snprintf(g->pcie_note, sizeof g->pcie_note, "%s not readable", base);
	}
	sb_release(&path);
	sb_release(&v);
}

/* ---- copies ---- */

static unsigned reps_for(uint64_t size)
{
	uint64_t reps = TARGET_BYTES / (size ? size : 1);
	if (reps < MIN_REPS)
		reps = MIN_REPS;
	if (reps > MAX_REPS)
		reps = MAX_REPS;
	return (unsigned)reps;
}

/* One copy of kind c and size n. */
static CUresult copy_once(struct gpu_run *r, enum bench_copy c, size_t n)
{
	switch (c) {
	case BENCH_H2D_PAGEABLE: return r->api.cuMemcpyHtoD(r->da, r->pageable, n);
	case BENCH_D2H_PAGEABLE: return r->api.cuMemcpyDtoH(r->pageable, r->da, n);
	case BENCH_H2D_PINNED: return r->api.cuMemcpyHtoD(r->da, r->pinned, n);
	case BENCH_D2H_PINNED: return r->api.cuMemcpyDtoH(r->pinned, r->da, n);
	default: return r->api.cuMemcpyDtoD(r->db, r->da, n);
	}
}

static const char *copy_call(enum bench_copy c)
{
	switch (c) {
	case BENCH_H2D_PAGEABLE:
	case BENCH_H2D_PINNED: return "cuMemcpyHtoD";
	case BENCH_D2H_PAGEABLE:
	case BENCH_D2H_PINNED: return "cuMemcpyDtoH";
	default: return "cuMemcpyDtoD";
	}
}

/*
 * The round trip for one size and memory kind: pattern on the host →
 * device buffer A → (D2D: → B) → host, compared word by word. Leaves the
 * host buffer holding the pattern.
 */
static bool verify(struct gpu_run *r, unsigned char *host, size_t n, bool d2d, unsigned seed)
{
	bench_fill_pattern(host, n, seed);
	if (!ok(r, r->api.cuMemcpyHtoD(r->da, host, n), "cuMemcpyHtoD", KB_BENCH_GPU_FAILED))
		return false;
	CUdeviceptr from = r->da;
	if (d2d) {
		if (!ok(r, r->api.cuMemcpyDtoD(r->db, r->da, n), "cuMemcpyDtoD", KB_BENCH_GPU_FAILED))
			return false;
		from = r->db;
	}
	memset(host, 0, n);
	if (!ok(r, r->api.cuMemcpyDtoH(host, from, n), "cuMemcpyDtoH", KB_BENCH_GPU_FAILED))
		return false;
	size_t bad;
	if (bench_check_pattern(host, n, seed, &bad) < 0) {
		struct strbuf sz = STRBUF_INIT;
		bench_format_size(&sz, n);
		fail(r, KB_BENCH_GPU_VERIFY_FAILED,
		     "data changed in a %s round trip of %s (host→device→%shost): first wrong "
		     "byte at offset %zu",
		     host == r->pinned ? "pinned" : "pageable", sz.buf, d2d ? "device→" : "", bad);
		sb_release(&sz);
		return false;
	}
	r->g->verified_copies++;
	return true;
}

static void measure_copies(struct gpu_run *r)
{
	struct bench_gpu *g = r->g;
	for (int c = 0; c < BENCH_COPY__COUNT && !g->error[0]; c++) {
		bool pinned = c == BENCH_H2D_PINNED || c == BENCH_D2H_PINNED;
		if (pinned && !r->pinned)
			continue;
		double start = now_ms();
		for (size_t i = 0; i < g->nsizes && !g->error[0]; i++) {
			if (interrupt_signal())
				return;
			size_t n = (size_t)g->sizes[i];
			struct bench_gpu_point *pt = &g->copy[c][i];
			pt->size = n;
			if (pinned && n > r->pinned_size)
				continue;
			if (now_ms() - start > r->p->seconds * 1000.0)
				break; /* time bound: the larger sizes stay unmeasured */
			struct strbuf sz = STRBUF_INIT;
			bench_format_size(&sz, n);
			step(r, "%s %s, %s", copy_call((enum bench_copy)c), bench_copy_titles[c], sz.buf);
			sb_release(&sz);
			unsigned char *host = pinned ? r->pinned : r->pageable;
			/* Verification first: it also warms the path up. */
			if (c != BENCH_D2H_PAGEABLE && c != BENCH_D2H_PINNED &&
			    !verify(r, host, n, c == BENCH_D2D, (unsigned)(n * 31u + (unsigned)c)))
				return;
			if (!ok(r, copy_once(r, (enum bench_copy)c, n), copy_call((enum bench_copy)c),
				KB_BENCH_GPU_FAILED))
				return;
			g->warmup_copies++;
			unsigned reps = reps_for(n);
			if (!ok(r, r->api.cuEventRecord(r->ev0, NULL), "cuEventRecord", KB_BENCH_GPU_FAILED))
				return;
			for (unsigned k = 0; k < reps; k++)
				if (!ok(r, copy_once(r, (enum bench_copy)c, n),
					copy_call((enum bench_copy)c), KB_BENCH_GPU_FAILED))
					return;
			float ms = 0;
			if (!ok(r, r->api.cuEventRecord(r->ev1, NULL), "cuEventRecord", KB_BENCH_GPU_FAILED) ||
			    !ok(r, r->api.cuEventSynchronize(r->ev1), "cuEventSynchronize",
				KB_BENCH_GPU_FAILED) ||
			    !ok(r, r->api.cuEventElapsedTime(&ms, r->ev0, r->ev1), "cuEventElapsedTime",
				KB_BENCH_GPU_FAILED))
				return;
			/* The device→host direction is verified after its timing,
			 * on the buffer it just wrote into. */
			if ((c == BENCH_D2H_PAGEABLE || c == BENCH_D2H_PINNED) &&
			    !verify(r, host, n, false, (unsigned)(n * 31u + (unsigned)c)))
				return;
			pt->measured = true;
			pt->verified = true;
			pt->reps = reps;
			pt->seconds = (double)ms / 1000.0;
			/* A timer that says 0 ms (an event clock too coarse for
			 * tiny copies) gives no rate rather than an infinite one. */
			pt->bytes_per_s = ms > 0 ? (double)n * reps / pt->seconds : 0;
		}
	}
}

/* The device writes a pattern; the host checks it (FAKE_CUDA_WRONG_DATA). */
static void verify_kernel(struct gpu_run *r)
{
	unsigned n = (unsigned)((r->max < (16u << 20) ? r->max : (16u << 20)) / 4);
	unsigned seed = 0x5eedc0deu;
	CUdeviceptr out = r->da;
	void *params[] = { &out, &n, &seed };
	unsigned threads = 256, blocks = (n + threads - 1) / threads;
	step(r, "cuLaunchKernel %s", WSLGPU_KERNEL_FILL);
	if (!ok(r, r->api.cuLaunchKernel(r->fill, blocks, 1, 1, threads, 1, 1, 0, NULL, params, NULL),
		"cuLaunchKernel", KB_BENCH_GPU_FAILED) ||
	    !ok(r, r->api.cuCtxSynchronize(), "cuCtxSynchronize", KB_BENCH_GPU_FAILED))
		return;
	step(r, "cuMemcpyDtoH of the kernel's output");
	if (!ok(r, r->api.cuMemcpyDtoH(r->pageable, r->da, (size_t)n * 4), "cuMemcpyDtoH",
		KB_BENCH_GPU_FAILED))
		return;
	const unsigned *w = (const unsigned *)r->pageable;
	for (unsigned i = 0; i < n; i++)
		if (w[i] != wslgpu_fill_value(i, seed)) {
			fail(r, KB_BENCH_GPU_VERIFY_FAILED,
			     "the kernel's output read back wrong: element %u is 0x%08x, expected 0x%08x",
			     i, w[i], wslgpu_fill_value(i, seed));
			return;
		}
	r->g->verified_copies++;
}

static void measure_launches(struct gpu_run *r)
{
	struct bench_gpu *g = r->g;
	const struct cuda_api *a = &r->api;
	step(r, "cuLaunchKernel %s (warm-up)", WSLGPU_KERNEL_EMPTY);
	for (unsigned i = 0; i < WARMUP_LAUNCHES; i++) {
		if (!ok(r, a->cuLaunchKernel(r->empty, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL),
			"cuLaunchKernel", KB_BENCH_GPU_FAILED))
			return;
		g->warmup_launches++;
	}
	if (!ok(r, a->cuCtxSynchronize(), "cuCtxSynchronize", KB_BENCH_GPU_FAILED))
		return;

	step(r, "cuLaunchKernel + cuCtxSynchronize (round trips)");
	unsigned n = r->p->launches;
	double *t = xcalloc(n ? n : 1, sizeof *t);
	unsigned done = 0;
	double start = now_ms();
	for (; done < n; done++) {
		if (interrupt_signal() || now_ms() - start > r->p->seconds * 1000.0)
			break;
		double t0 = now_ms();
		if (!ok(r, a->cuLaunchKernel(r->empty, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL),
			"cuLaunchKernel", KB_BENCH_GPU_FAILED) ||
		    !ok(r, a->cuCtxSynchronize(), "cuCtxSynchronize", KB_BENCH_GPU_FAILED))
			break;
		t[done] = (now_ms() - t0) * 1000.0;
	}
	struct bench_summary s;
	bench_summarise(t, done, &s);
	free(t);
	g->sync_launches = done;
	g->sync_median_us = s.median;
	g->sync_p99_us = s.p99;
	if (g->error[0] || interrupt_signal())
		return;

	step(r, "cuLaunchKernel back to back");
	unsigned m = r->p->stream_launches;
	if (!ok(r, a->cuEventRecord(r->ev0, NULL), "cuEventRecord", KB_BENCH_GPU_FAILED))
		return;
	unsigned issued = 0;
	for (; issued < m; issued++)
		if (!ok(r, a->cuLaunchKernel(r->empty, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL),
			"cuLaunchKernel", KB_BENCH_GPU_FAILED))
			return;
	float ms = 0;
	if (!ok(r, a->cuEventRecord(r->ev1, NULL), "cuEventRecord", KB_BENCH_GPU_FAILED) ||
	    !ok(r, a->cuEventSynchronize(r->ev1), "cuEventSynchronize", KB_BENCH_GPU_FAILED) ||
	    !ok(r, a->cuEventElapsedTime(&ms, r->ev0, r->ev1), "cuEventElapsedTime",
		KB_BENCH_GPU_FAILED))
		return;
	g->stream_launches = issued;
	g->stream_us_per_launch = issued ? (double)ms * 1000.0 / issued : 0;
	g->stream_launches_per_s = ms > 0 ? issued / ((double)ms / 1000.0) : 0;
}

/* ---- setup and teardown ---- */

static bool setup(struct gpu_run *r)
{
	struct bench_gpu *g = r->g;
	const struct bench_gpu_params *p = r->p;
	struct cuda_api *a = &r->api;

	step(r, "cuInit");
	if (!ok(r, a->cuInit(0), "cuInit", KB_BENCH_GPU_INIT_FAILED))
		return false;
	r->inited = true;
	if (a->cuDriverGetVersion)
		a->cuDriverGetVersion(&g->driver_version);
	int count = 0;
	step(r, "cuDeviceGetCount");
	if (!ok(r, a->cuDeviceGetCount(&count), "cuDeviceGetCount", KB_BENCH_GPU_INIT_FAILED))
		return false;
	if (p->device < 0 || p->device >= count) {
		fail(r, KB_BENCH_GPU_NO_DEVICE, "GPU %d does not exist: the driver reports %d device%s",
		     p->device, count, count == 1 ? "" : "s");
		return false;
	}
	CUdevice dev;
	step(r, "cuDeviceGet");
	if (!ok(r, a->cuDeviceGet(&dev, p->device), "cuDeviceGet", KB_BENCH_GPU_INIT_FAILED))
		return false;
	g->device = p->device;
	if (a->cuDeviceGetName && a->cuDeviceGetName(g->name, (int)sizeof g->name - 1, dev) == 0)
		g->name[sizeof g->name - 1] = '\0';
	if (!g->name[0])
		snprintf(g->name, sizeof g->name, "GPU %d", p->device);
	size_t total = 0;
	if (a->cuDeviceTotalMem && a->cuDeviceTotalMem(&total, dev) == 0)
		g->total_mem = total;
	int domain = 0, bus = -1, pdev = 0;
	if (a->cuDeviceGetAttribute) {
		a->cuDeviceGetAttribute(&g->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
		a->cuDeviceGetAttribute(&g->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
		if (a->cuDeviceGetAttribute(&bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, dev) != 0)
			bus = -1;
		a->cuDeviceGetAttribute(&domain, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, dev);
		a->cuDeviceGetAttribute(&pdev, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, dev);
	}
	if (bus >= 0)
		pcie_link(r, domain, bus, pdev);
	else
		snprintf(g->pcie_note, sizeof g->pcie_note, "the driver gives no PCI bus id");

	step(r, "cuCtxCreate");
	if (!ok(r, a->cuCtxCreate(&r->ctx, CU_CTX_SCHED_AUTO, dev), "cuCtxCreate",
		KB_BENCH_GPU_INIT_FAILED))
		return false;
	step(r, "cuModuleLoadData");
	if (!ok(r, a->cuModuleLoadData(&r->mod, wslgpu_kernels_ptx), "cuModuleLoadData",
		KB_BENCH_GPU_FAILED))
		return false;
	if (!ok(r, a->cuModuleGetFunction(&r->empty, r->mod, WSLGPU_KERNEL_EMPTY),
		"cuModuleGetFunction", KB_BENCH_GPU_FAILED) ||
	    !ok(r, a->cuModuleGetFunction(&r->fill, r->mod, WSLGPU_KERNEL_FILL),
		"cuModuleGetFunction", KB_BENCH_GPU_FAILED))
		return false;
	step(r, "cuEventCreate");
	if (!ok(r, a->cuEventCreate(&r->ev0, CU_EVENT_DEFAULT), "cuEventCreate", KB_BENCH_GPU_FAILED))
		return false;
	if (!ok(r, a->cuEventCreate(&r->ev1, CU_EVENT_DEFAULT), "cuEventCreate", KB_BENCH_GPU_FAILED))
		return false;

	/* Sizes: powers of 4, no larger than a quarter of the device's memory
	 * (two buffers of the largest size must fit with room to spare). */
	uint64_t max = p->max_size;
	if (g->total_mem && max > g->total_mem / 4)
		max = g->total_mem / 4;
	for (uint64_t s = p->min_size; s && s <= max && g->nsizes < BENCH_GPU_MAX_SIZES; s *= 4)
		g->sizes[g->nsizes++] = s;
	if (g->nsizes == 0)
		g->sizes[g->nsizes++] = p->min_size;
	r->max = (size_t)g->sizes[g->nsizes - 1];
	if (r->max < (4u << 10))
		r->max = 4u << 10; /* room for the kernel check */

	step(r, "cuMemAlloc");
	if (!ok(r, a->cuMemAlloc(&r->da, r->max), "cuMemAlloc", KB_BENCH_GPU_FAILED))
		return false;
	g->allocations++;
	if (!ok(r, a->cuMemAlloc(&r->db, r->max), "cuMemAlloc", KB_BENCH_GPU_FAILED))
		return false;
	g->allocations++;
	r->pageable = malloc(r->max);
	if (!r->pageable) {
		fail(r, KB_BENCH_GPU_FAILED, "could not allocate %zu bytes of host memory", r->max);
		return false;
	}
	/* Pinned memory is limited on WSL (case M01): take the largest size
	 * that the driver grants, and say where it stopped. */
	if (a->cuMemHostAlloc && a->cuMemFreeHost) {
		for (size_t i = g->nsizes; i-- > 0;) {
			size_t n = (size_t)g->sizes[i];
			step(r, "cuMemHostAlloc");
			void *h = NULL;
			CUresult rc = a->cuMemHostAlloc(&h, n < (4u << 10) ? (4u << 10) : n, 0);
			if (rc == CUDA_SUCCESS && h) {
				r->pinned = h;
				r->pinned_size = n;
				g->allocations++;
				break;
			}
			if (!g->pinned_failed_size) {
				struct strbuf d = STRBUF_INIT;
				cuda_result_describe(rc, &d);
				g->pinned_failed_size = n;
				snprintf(g->pinned_error, sizeof g->pinned_error, "%s", d.buf);
				sb_release(&d);
			}
		}
	} else {
		snprintf(g->pinned_error, sizeof g->pinned_error, "the driver exports no cuMemHostAlloc");
	}
	return true;
}

static void teardown(struct gpu_run *r)
{
	struct cuda_api *a = &r->api;
	struct bench_gpu *g = r->g;
	step(r, "freeing");
	/* After a failure the context may be unusable; free what we can, and
	 * count what the driver took back. */
	if (r->pinned && a->cuMemFreeHost(r->pinned) == CUDA_SUCCESS)
		g->frees++;
	if (r->db && a->cuMemFree(r->db) == CUDA_SUCCESS)
		g->frees++;
	if (r->da && a->cuMemFree(r->da) == CUDA_SUCCESS)
		g->frees++;
	free(r->pageable);
	if (r->ev1 && a->cuEventDestroy)
		a->cuEventDestroy(r->ev1);
	if (r->ev0 && a->cuEventDestroy)
		a->cuEventDestroy(r->ev0);
	if (r->mod && a->cuModuleUnload)
		a->cuModuleUnload(r->mod);
	if (r->ctx && a->cuCtxDestroy)
		a->cuCtxDestroy(r->ctx);
	cuda_api_close(a);
}

void bench_gpu_measure(const struct bench_gpu_params *p, struct bench_gpu *g)
{
	struct gpu_run r;
	memset(&r, 0, sizeof r);
	r.p = p;
	r.g = g;
	g->device = p->device;
	struct strbuf err = STRBUF_INIT;
	const char *lib = p->library ? p->library : "libcuda.so.1";
	step(&r, "loading %s", lib);
	int rc = cuda_api_load(&r.api, lib, &err);
	if (rc < 0) {
		fail(&r, KB_BENCH_GPU_NO_LIBRARY, "could not load %s: %s", lib,
		     rc == -ENOSYS ? "it is not a CUDA driver (no cuInit)" : sb_str(&err));
		sb_release(&err);
		cuda_api_close(&r.api);
		return;
	}
	sb_release(&err);
	snprintf(g->library, sizeof g->library, "%s",
		 r.api.loaded_path ? r.api.loaded_path : lib);
	for (size_t i = 0; required[i]; i++)
		if (!has(&r.api, required[i])) {
			fail(&r, KB_BENCH_GPU_NO_LIBRARY, "%s exports no %s: not a usable CUDA driver",
			     g->library, required[i]);
			cuda_api_close(&r.api);
			return;
		}
	if (setup(&r) && !interrupt_signal()) {
		measure_copies(&r);
		if (!g->error[0] && !interrupt_signal())
			verify_kernel(&r);
		if (!g->error[0] && !interrupt_signal())
			measure_launches(&r);
	}
	teardown(&r);
	if (!g->error[0] && !interrupt_signal()) {
		g->ok = 1;
		g->step[0] = '\0';
	}
}

/* ---- the isolated child ---- */

int bench_gpu_run(const struct bench_gpu_params *p, struct bench_gpu *g)
{
	memset(g, 0, sizeof *g);
	struct bench_gpu *shared = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE,
					MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		snprintf(g->error, sizeof g->error, "cannot map shared memory: %s", strerror(errno));
		snprintf(g->error_kb, sizeof g->error_kb, KB_BENCH_GPU_FAILED);
		return -EIO;
	}
	memset(shared, 0, sizeof *shared);
	int alive[2];
	if (pipe2(alive, O_CLOEXEC) < 0) {
		snprintf(g->error, sizeof g->error, "cannot create a pipe: %s", strerror(errno));
		snprintf(g->error_kb, sizeof g->error_kb, KB_BENCH_GPU_FAILED);
		munmap(shared, sizeof *shared);
		return -EIO;
	}
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(g->error, sizeof g->error, "cannot fork: %s", strerror(errno));
		snprintf(g->error_kb, sizeof g->error_kb, KB_BENCH_GPU_FAILED);
		close(alive[0]);
		close(alive[1]);
		munmap(shared, sizeof *shared);
		return -EIO;
	}
	if (pid == 0) {
		close(alive[0]);
		/* Detached like a probe's child: the driver gets no terminal
		 * to write to, change or be stopped by. stdout belongs to the
		 * report: a driver's chatter goes to stderr. */
		proc_child_setup(parent, 2, 2, &alive[1], 1);
		/* The parent decides about signals; the child only measures. */
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_IGN);
		bench_gpu_measure(p, shared);
		_exit(0);
	}
	/* No setpgid(pid, pid): the child's setsid() must come first. */
	close(alive[1]);
	double deadline = now_ms() + (p->timeout_ms > 0 ? p->timeout_ms : 120000);
	bool timed_out = false, interrupted = false;
	char last[sizeof shared->step] = "";
	for (;;) {
		struct pollfd pf = { alive[0], POLLIN, 0 };
		int pr = poll(&pf, 1, 100);
		if (pr > 0) {
			char buf[64];
			ssize_t k = read(alive[0], buf, sizeof buf);
			if (k == 0 || (k < 0 && errno != EINTR && errno != EAGAIN))
				break; /* the child is gone */
		}
		if (interrupt_signal()) {
			interrupted = true;
			break;
		}
		if (now_ms() > deadline) {
			timed_out = true;
			break;
		}
		if (p->progress && strcmp(last, shared->step)) {
			memcpy(last, shared->step, sizeof last);
			last[sizeof last - 1] = '\0';
			fprintf(stderr, "\r\033[Kbench gpu: %s", last);
			fflush(stderr);
		}
	}
	if (p->progress) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	if (timed_out || interrupted) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL); /* before its setsid() its group is not its own */
	}
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	close(alive[0]);
	memcpy(g, shared, sizeof *g);
	munmap(shared, sizeof *shared);
	g->error[sizeof g->error - 1] = '\0';
	g->step[sizeof g->step - 1] = '\0';
	g->name[sizeof g->name - 1] = '\0';
	if (interrupted)
		return -EINTR;
	if (timed_out) {
		g->ok = 0;
		snprintf(g->error, sizeof g->error,
			 "the GPU benchmark did not finish within %.0f s; it was waiting for: %s",
			 (p->timeout_ms > 0 ? p->timeout_ms : 120000) / 1000.0,
			 g->step[0] ? g->step : "unknown");
		snprintf(g->error_kb, sizeof g->error_kb, KB_BENCH_GPU_TIMEOUT);
		return -EIO;
	}
	if (WIFSIGNALED(status)) {
		char sb[16];
		g->ok = 0;
		snprintf(g->error, sizeof g->error, "the GPU benchmark crashed (%s) while: %s",
			 signal_name(WTERMSIG(status), sb), g->step[0] ? g->step : "unknown");
		snprintf(g->error_kb, sizeof g->error_kb, KB_BENCH_GPU_CRASHED);
		return -EIO;
	}
	if (!g->ok && !g->error[0]) {
		snprintf(g->error, sizeof g->error,
			 "the GPU benchmark exited (status %d) before it finished, while: %s",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1, g->step[0] ? g->step : "unknown");
		snprintf(g->error_kb, sizeof g->error_kb, KB_BENCH_GPU_CRASHED);
	}
	return g->ok ? 0 : -EIO;
}
