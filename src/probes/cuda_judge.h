/*
 * cuda_judge.h: the decisions of cuda.load and cuda.devices, apart from
 * the calls into libcuda (src/probes/cuda.c). The collectors dlopen the
 * driver and ask it, keeping each answer (CUresult and value) in a struct
 * cuda_load_facts or cuda_devices_facts; the judges turn them into the
 * result with no I/O, so a unit test can judge any machine from a table
 * (tests/unit/test_judge_cuda.c). Which KB entry a CUresult means, and
 * whether a loaded file is the right one, are src/gpu/cudafacts.c's.
 */
#ifndef WSLGPU_CUDA_JUDGE_H
#define WSLGPU_CUDA_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/result.h"
#include "../gpu/cudafacts.h"

/* cuda.load: which file an application's dlopen("libcuda.so.1") loads. */
struct cuda_load_facts {
	bool wsl2;              /* WSL2, or a container in it */
	bool real;              /* the real root: the bare soname was dlopen'd */
	const char *predicted;  /* libs.libcuda's resolved file, or NULL */
	const char *guest;      /* under a root: the guest file asked for (NULL: none) */
	int host_rc;            /* under a root: where guest is on this machine, -errno */
	const char *pred_real;  /* the prediction (or guest), symlinks followed; NULL: none */
	int load_rc;            /* cuda_api_load: 0, -ENOENT, -ENOSYS, ... */
	const char *error;      /* dlerror, guest paths; NULL: none */
	bool dlinfo;            /* the loader named the file it loaded */
	const char *loaded;     /* that file, or the one asked for (guest) */
	const char *loaded_as;  /* the name it was loaded under (guest) */
	const char *file;       /* what was given to dlopen (for the message) */
	bool basic_calls;       /* cuDeviceGetCount and cuDeviceGet are there */
	const char *missing;    /* the calls it lacks, or NULL */
	const struct result *libs; /* libs.libcuda, or NULL */
	bool init_asked;        /* cuInit was asked (libs.libcuda did not pass) */
	int init_rc;
	const char *ld_library_path; /* for the fix of a stub found through it */
	const char *ld_library_path_real; /* each entry's real path, ':'-joined; NULL: unknown */
	bool dpkg_whole;        /* dpkg's database was read whole: an owner it lacks is none */
};

/* cuda.devices: one device's answers (-1: unknown). */
struct cuda_dev {
	int get_rc;             /* cuDeviceGet */
	const char *name;       /* cleaned; NULL: cuDeviceGetName failed */
	int major, minor;
	bool have_memory;       /* cuDeviceTotalMem answered */
	unsigned long long bytes;
	int pci_domain, pci_bus, pci_device;
	int uuid_rc;            /* cuDeviceGetUuid: -1 when the driver lacks it */
	unsigned char uuid[16];
	int tcc, managed;
};

struct cuda_devices_facts {
	bool wsl2;
	int count;              /* cuDeviceGetCount, checked */
	const struct cuda_dev *dev; /* min(count, CUDA_MAX_REPORTED_DEVICES), up to the
				     * first whose cuDeviceGet failed */
	const char *cuda_visible_devices;
};

/* cuda.kernel: what wslgpu_check left for one launch, copied back:
 * result[0] the wrong elements, result[1] the lowest wrong index (~0 when
 * none). KERNEL_NO_ROUND_TRIP: words no check can leave, so the copies
 * to the device and back did not carry them. */
#define KERNEL_CHECK_WORDS 2
enum kernel_check { KERNEL_OK, KERNEL_WRONG, KERNEL_NO_ROUND_TRIP };
enum kernel_check cuda_kernel_check(const unsigned result[KERNEL_CHECK_WORDS], unsigned n);

/* A failed driver call: r fails with the call's KB entry (kb, when the
 * caller knows better). */
void cuda_fail_call(struct result *r, enum cuda_step step, const char *call, int code,
		    const char *kb, bool wsl2, const char *cuda_visible_devices);
void judge_cuda_load(const struct cuda_load_facts *f, struct result *r);
void judge_cuda_devices(const struct cuda_devices_facts *f, struct result *r);

#endif
