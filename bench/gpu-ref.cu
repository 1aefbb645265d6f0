// gpu-ref.cu: the reference for `wslgpu bench gpu`, written with the CUDA
// runtime API (what a user's own program would call), measuring exactly as
// src/bench/gpu.c does so that each figure compares one to one
// (tests/gpu/run.sh prints bench gpu / reference per figure):
//  - copies: host->device and device->host from pageable malloc memory and
//    from pinned cudaHostAlloc memory (flags 0, as cuMemHostAlloc(.., 0)),
//    and device->device; sizes powers of 4 from --min-size to --max-size;
//    per size one untimed warm-up copy, then reps synchronous cudaMemcpy
//    between two events on the default stream, reps = 256 MiB / size
//    clamped to 3..1000;
//  - launches of an empty kernel <<<1, 1>>>: 100 warm-up launches; N round
//    trips (launch + cudaDeviceSynchronize) timed with CLOCK_MONOTONIC,
//    median and p99; M launches back to back between two events and one
//    synchronisation.
// Output: one figure a line, "copy KIND SIZE BYTES_PER_S", "sync MEDIAN_US
// P99_US", "stream US_PER_LAUNCH LAUNCHES_PER_S" (KIND as bench gpu's JSON
// names it: h2d_pageable, d2h_pageable, h2d_pinned, d2h_pinned, d2d).
//
// --load SEC instead keeps the GPU busy for SEC seconds with a kernel that
// does arithmetic on device memory (for `wslgpu watch`, which must call it
// GPU-bound), printing nothing but a last line "load done".
//
// Build: nvcc -O2 -o gpu-ref bench/gpu-ref.cu   (tests/gpu/run.sh does)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#define CHECK(call)                                                                        \
	do {                                                                               \
		cudaError_t e_ = (call);                                                   \
		if (e_ != cudaSuccess) {                                                   \
			fprintf(stderr, "gpu-ref: %s: %s (%s)\n", #call, cudaGetErrorString(e_), \
				cudaGetErrorName(e_));                                     \
			exit(1);                                                           \
		}                                                                          \
	} while (0)

__global__ void empty_kernel() {}

// Busy work: each thread iterates a cheap recurrence on its word.
__global__ void load_kernel(float *p, size_t n, int iters)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float x = p[i];
	for (int k = 0; k < iters; k++)
		x = x * 0.9999f + 0.0001f;
	p[i] = x;
}

static double now_ms()
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static unsigned long long parse_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	switch (*end) {
	case 'K': case 'k': v <<= 10; break;
	case 'M': case 'm': v <<= 20; break;
	case 'G': case 'g': v <<= 30; break;
	default: break;
	}
	return v;
}

// Linear interpolation between closest ranks, as src/bench/stats.c does.
static double percentile(const std::vector<double> &v, double p)
{
	size_t n = v.size();
	if (!n)
		return 0;
	double rank = p / 100.0 * (double)(n - 1);
	size_t lo = (size_t)rank;
	if (lo + 1 >= n)
		return v[n - 1];
	return v[lo] + (v[lo + 1] - v[lo]) * (rank - (double)lo);
}

static unsigned reps_for(size_t size)
{
	unsigned long long reps = (256ull << 20) / (size ? size : 1);
	return (unsigned)std::min(1000ull, std::max(3ull, reps));
}

static int load(double seconds)
{
	size_t n = 64u << 20; // 256 MiB of floats
	float *d;
	CHECK(cudaMalloc(&d, n * sizeof *d));
	CHECK(cudaMemset(d, 0, n * sizeof *d));
	double end = now_ms() + seconds * 1000.0;
	while (now_ms() < end) {
		load_kernel<<<(unsigned)((n + 255) / 256), 256>>>(d, n, 2000);
		CHECK(cudaGetLastError());
		CHECK(cudaDeviceSynchronize());
	}
	CHECK(cudaFree(d));
	printf("load done\n");
	return 0;
}

int main(int argc, char **argv)
{
	size_t min_size = 4u << 10, max_size = 256u << 20;
	unsigned launches = 5000, batch = 20000;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--load") && i + 1 < argc)
			return load(atof(argv[++i]));
		else if (!strcmp(argv[i], "--min-size") && i + 1 < argc)
			min_size = parse_size(argv[++i]);
		else if (!strcmp(argv[i], "--max-size") && i + 1 < argc)
			max_size = parse_size(argv[++i]);
		else if (!strcmp(argv[i], "--launches") && i + 1 < argc)
			launches = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--batch") && i + 1 < argc)
			batch = (unsigned)atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: gpu-ref [--min-size S] [--max-size S] [--launches N] "
					"[--batch N] | --load SEC\n");
			return 2;
		}
	}
	size_t free_b = 0, total_b = 0;
	CHECK(cudaMemGetInfo(&free_b, &total_b));
	if (max_size > total_b / 4) // as bench gpu: two buffers must fit with room
		max_size = total_b / 4;
	std::vector<size_t> sizes;
	for (size_t s = min_size; s && s <= max_size; s *= 4)
		sizes.push_back(s);
	size_t max = sizes.empty() ? min_size : sizes.back();

	unsigned char *pageable = (unsigned char *)malloc(max);
	unsigned char *pinned = nullptr;
	void *da, *db;
	CHECK(cudaMalloc(&da, max));
	CHECK(cudaMalloc(&db, max));
	CHECK(cudaHostAlloc((void **)&pinned, max, 0));
	memset(pageable, 1, max);
	memset(pinned, 2, max);
	cudaEvent_t e0, e1;
	CHECK(cudaEventCreate(&e0));
	CHECK(cudaEventCreate(&e1));

	static const char *const kinds[] = { "h2d_pageable", "d2h_pageable", "h2d_pinned",
					     "d2h_pinned", "d2d" };
	for (int k = 0; k < 5; k++)
		for (size_t n : sizes) {
			void *dst, *src;
			cudaMemcpyKind dir;
			switch (k) {
			case 0: dst = da; src = pageable; dir = cudaMemcpyHostToDevice; break;
			case 1: dst = pageable; src = da; dir = cudaMemcpyDeviceToHost; break;
			case 2: dst = da; src = pinned; dir = cudaMemcpyHostToDevice; break;
			case 3: dst = pinned; src = da; dir = cudaMemcpyDeviceToHost; break;
			default: dst = db; src = da; dir = cudaMemcpyDeviceToDevice; break;
			}
			CHECK(cudaMemcpy(dst, src, n, dir)); // warm-up
			unsigned reps = reps_for(n);
			CHECK(cudaEventRecord(e0, 0));
			for (unsigned r = 0; r < reps; r++)
				CHECK(cudaMemcpy(dst, src, n, dir));
			CHECK(cudaEventRecord(e1, 0));
			CHECK(cudaEventSynchronize(e1));
			float ms = 0;
			CHECK(cudaEventElapsedTime(&ms, e0, e1));
			printf("copy %s %zu %.6g\n", kinds[k], n, ms > 0 ? (double)n * reps / (ms / 1e3) : 0.0);
		}

	for (int i = 0; i < 100; i++)
		empty_kernel<<<1, 1>>>();
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	std::vector<double> t(launches);
	for (unsigned i = 0; i < launches; i++) {
		double t0 = now_ms();
		empty_kernel<<<1, 1>>>();
		CHECK(cudaDeviceSynchronize());
		t[i] = (now_ms() - t0) * 1000.0;
	}
	std::sort(t.begin(), t.end());
	double median = percentile(t, 50), p99 = percentile(t, 99);
	printf("sync %.6g %.6g\n", median, p99);

	CHECK(cudaEventRecord(e0, 0));
	for (unsigned i = 0; i < batch; i++)
		empty_kernel<<<1, 1>>>();
	CHECK(cudaGetLastError());
	CHECK(cudaEventRecord(e1, 0));
	CHECK(cudaEventSynchronize(e1));
	float ms = 0;
	CHECK(cudaEventElapsedTime(&ms, e0, e1));
	printf("stream %.6g %.6g\n", batch ? ms * 1000.0 / batch : 0.0,
	       ms > 0 ? batch / (ms / 1e3) : 0.0);

	CHECK(cudaEventDestroy(e0));
	CHECK(cudaEventDestroy(e1));
	CHECK(cudaFreeHost(pinned));
	CHECK(cudaFree(da));
	CHECK(cudaFree(db));
	free(pageable);
	return 0;
}
