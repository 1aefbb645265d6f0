/*
 * verdict: why the job was slow, from a summary of what watch measured.
 *
 * A pure function of struct watch_summary, so every rule is unit-tested
 * on hand-made summaries. The rules, in the order they are tried (the
 * first that holds is the verdict; later ones that also hold are listed
 * as "also"):
 *
 *   too-short        fewer than 3 points: nothing to judge
 *   gpu-bound        GPU utilisation known and >= 80 % on average
 *   gpu-idle         a GPU is there but the job never used it: utilisation
 *                    stayed under 5 % and, when watch started the job,
 *                    device memory never rose 64 MiB above its level
 *                    before the job started or after it ended — a CPU-only
 *                    framework build, or the wrong device
 *   memory-pressure  swap traffic >= 1 MB/s on average, or MemAvailable
 *                    below 5 % of MemTotal at some point
 *   input-bound      the job waited for storage: machine iowait worth
 *                    >= 0.25 CPU, or >= 0.25 job processes in state D on
 *                    average (9p reads of /mnt/c block in D without
 *                    counting as iowait), and the CPUs not saturated
 *   cpu-bound        the job kept >= 85 % of the CPUs busy, or one of its
 *                    processes used >= 0.75 of a core on average (a single
 *                    Python process preparing batches), or >= 0.75 of its
 *                    processes were ready to run (state R) on average —
 *                    which catches a job starved by other work on shared
 *                    CPUs, where it gets less than it asks for — unless GPU
 *                    utilisation is unknown, the GPU was in use and only
 *                    that one process was busy: CUDA's default wait spins
 *                    a core while the GPU works, so that looks the same
 *                    (cpu-or-gpu-bound)
 *   probably-gpu-bound  utilisation unknown, the GPU in use, none of the
 *                    above: the GPU is the likely limit
 *   waiting          none of the above: the job mostly waited (sleep,
 *                    network, locks, small batches)
 *
 * With GPU utilisation unavailable (NVML on WSL, microsoft/WSL#7162) the
 * verdict says it rests on CPU/IO evidence only.
 */
#ifndef WSLGPU_WATCH_VERDICT_H
#define WSLGPU_WATCH_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/result.h"
#include "../core/strbuf.h"
#include "program.h"

/* Thresholds of the rules above. */
#define V_MIN_POINTS 3
#define V_GPU_BUSY_PCT 80.0
#define V_GPU_USED_PCT 5.0
#define V_GPU_MEM_GROWTH_MIB 64.0
#define V_SWAP_MBS 1.0
#define V_MEM_AVAIL_FRAC 0.05
#define V_IOWAIT_CORES 0.25
#define V_BLOCKED_PROCS 0.25
#define V_SATURATED_FRAC 0.85
#define V_TOP_PROC_CORES 0.75
#define V_RUNNABLE_PROCS 0.75

struct watch_summary {
	size_t npoints;
	double duration_s;
	unsigned ncpu;
	bool attached;            /* --pid: watch did not see the job start */

	bool gpu_present;         /* NVML gave at least one memory reading */
	bool gpu_util_known;
	double gpu_util_mean, gpu_util_max;
	bool gpu_mem_known;
	double gpu_mem_min, gpu_mem_max; /* MiB, min includes before/after */
	double gpu_mem_total;
	bool gpu_mem_bracketed;   /* a reading before the job and one after */
	const char *gpu_note;     /* why GPU figures are missing, or NULL */
	const char *gpu_util_source; /* "nvml", "windows-vm", "windows-gpu", "" or NULL */

	double cpu_iowait_mean;   /* percent of all CPUs */
	double cpu_busy_mean;     /* user + system, percent of all CPUs */
	double job_cpu_mean, job_cpu_max; /* cores */
	double job_top_mean;      /* busiest process, cores */
	const char *top_comm;     /* its name, or NULL */
	int top_pid;              /* its process id, or 0 */
	double job_blocked_mean;  /* processes in state D */
	double job_runnable_mean; /* processes in state R */
	double job_rchar_mean, job_read_mean, disk_read_mean; /* MB/s */

	bool swap_known;
	double swap_in_mean, swap_out_mean; /* MB/s */
	bool mem_known;
	double mem_avail_min, mem_total; /* MiB */

	/* Where the job's open files live, when not the Linux disk. */
	const char *data_mount;   /* "/mnt/c" */
	const char *data_what;    /* "9p, aname=drvfs" */
	const char *data_kind;    /* "windows-drive" or "network" */
	const char *data_example; /* one file seen open */
	unsigned data_files;

	/* What the job is, so that the advice fits it (program.h). */
	enum watch_program program;
};

enum watch_verdict_id {
	WV_TOO_SHORT,
	WV_GPU_BOUND,
	WV_GPU_IDLE,
	WV_MEMORY,
	WV_INPUT,
	WV_CPU,
	WV_CPU_OR_GPU,
	WV_PROBABLY_GPU,
	WV_WAITING,
	WV__COUNT
};

#define WV_MAX_ALSO 4

struct watch_verdict {
	enum watch_verdict_id id;
	const char *name;     /* "input-bound" */
	const char *kb;       /* "watch.input_bound" */
	struct strbuf headline;
	enum status status;   /* pass for the good verdicts, warn otherwise, skip for too-short */
	/* The figures the verdict rests on; the KB entry's texts are filled
	 * from them. */
	struct evidence ev;
	bool cpu_io_only;     /* GPU utilisation was not available */
	enum watch_verdict_id also[WV_MAX_ALSO];
	size_t nalso;
};

void watch_judge(const struct watch_summary *s, struct watch_verdict *v);
void watch_verdict_release(struct watch_verdict *v);
const char *watch_verdict_name(enum watch_verdict_id id);
const char *watch_verdict_kb(enum watch_verdict_id id);
/* The one-line headline of verdict id for summary s (for "also" lines). */
void watch_verdict_headline(const struct watch_summary *s, enum watch_verdict_id id,
			    struct strbuf *out);

#endif
