/*
 * gpumon: GPU utilisation and memory for `wslgpu watch`, from NVML, in a
 * process of its own.
 *
 * libnvidia-ml is vendor code that can crash or hang (field case H05:
 * nvidia-smi segfaults with some Windows drivers), and it must take down
 * neither watch nor the job it watches. So, like every probe of `check`,
 * it runs in a forked child: the sampler loads NVML through
 * src/gpu/nvmlapi, then writes one fixed-size record per interval to a
 * pipe (records are smaller than PIPE_BUF, so each write is atomic). The
 * parent reads records without blocking. A sampler that dies is restarted
 * (GPUMON_MAX_CRASHES times, then given up on, with a note); one that
 * stops writing for GPUMON_HANG_MS is killed and counts as a crash. The
 * sampler dies with the parent (PR_SET_PDEATHSIG) and is SIGKILLed at the
 * end.
 *
 * On WSL, NVML's utilisation query is often not supported (NVIDIA's CUDA
 * on WSL guide, microsoft/WSL#7162): each query that answers "unavailable"
 * (nvml_rc_unavailable) just leaves that figure out; memory keeps coming.
 *
 * The same monitor, started with gpumon_start_windows, reads Windows' GPU
 * counters instead: its sampler runs one long-lived powershell.exe
 * (facts/windows.h, winload_command) through interop and turns each block
 * it prints into a record. The same rules hold: a PowerShell that exits is
 * a crash (restarted, then given up on), one that stops printing a hang;
 * one that never printed a sample leaves with its reason. Nothing of it
 * blocks watch's loop: the parent only reads the pipe.
 */
#ifndef WSLGPU_WATCH_GPUMON_H
#define WSLGPU_WATCH_GPUMON_H

#include <stdbool.h>

#include "../core/strbuf.h"

#define GPUMON_MAX_CRASHES 3
#define GPUMON_HANG_MS 5000.0

/* One reading, summed over the devices that answered. */
struct gpu_reading {
	bool valid;          /* a record arrived */
	double t_ms;         /* when the sampler took it */
	int ndev;
	bool util_ok;        /* at least one device reported utilisation */
	double util;         /* mean over those devices, percent */
	bool mem_ok;
	double mem_used_mib; /* sum over devices */
	double mem_total_mib;
	bool util_vm;        /* Windows: utilisation of WSL's VM processes, not the whole GPU's */
	bool mem_vm;         /* Windows: memory of WSL's VM processes */
};

enum gpumon_state {
	GPUMON_OFF,        /* not started */
	GPUMON_STARTING,   /* waiting for the sampler's first word */
	GPUMON_RUNNING,
	GPUMON_UNAVAILABLE, /* NVML missing or no device: note says why */
	GPUMON_GAVE_UP,    /* crashed or hung too often: note says how */
};

struct gpu_monitor {
	enum gpumon_state state;
	int pid;
	int fd;
	int crashes;
	double interval_ms;
	const char *lib;       /* what to dlopen */
	const char *const *cmd; /* Windows: the sampler's command (NULL: NVML) */
	double last_msg_ms;    /* parent's clock */
	struct gpu_reading last;
	unsigned long long nreadings;
	bool util_unsupported; /* NVML answered "not supported" for utilisation */
	int util_rc;           /* NVML's answer to the utilisation query */
	char name[128];        /* first device */
	struct strbuf note;    /* one line for people, "" when all is well */
	double sampler_cpu_s;  /* CPU of sampler processes already reaped */
	char rbuf[512];        /* a partial record between reads */
	size_t rlen;
};

/* Forks the sampler. lib: "libnvidia-ml.so.1" to search like an application. */
void gpumon_start(struct gpu_monitor *g, double interval_ms, const char *lib);
/* Starts the Windows counters' sampler: cmd (kept by the caller until
 * gpumon_release) prints winload samples. */
void gpumon_start_windows(struct gpu_monitor *g, double interval_ms, const char *const *cmd);
/* The pipe to poll for input, or -1. */
int gpumon_fd(const struct gpu_monitor *g);
/* Reads every complete record that is waiting; returns how many arrived. */
int gpumon_drain(struct gpu_monitor *g);
/* Notices a dead or hung sampler and restarts or gives up. Call each tick. */
void gpumon_check(struct gpu_monitor *g);
/* Waits (at most timeout_ms) until a reading or a final word arrives. */
void gpumon_wait(struct gpu_monitor *g, double timeout_ms);
/* Kills and reaps the sampler; adds its CPU time to sampler_cpu_s. */
void gpumon_stop(struct gpu_monitor *g);
void gpumon_release(struct gpu_monitor *g);

#endif
