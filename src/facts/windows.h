/*
 * windows: what the Windows side of a WSL machine says about the GPU, asked
 * through interop; facts only, no check of its own (host.driver judges them
 * with --windows).
 *
 * One batched query: a single `powershell.exe -NoProfile -NonInteractive
 * -EncodedCommand` run with a time limit prints each fact between marker
 * lines (src/parse/winbatch.h), in the shape the program itself prints it,
 * so that each is read by the parser tested on real outputs
 * (tests/fixtures/real/windows/):
 *
 *   smi-q             nvidia-smi.exe -q: driver, CUDA, each GPU's driver
 *                     model, performance state, power and memory
 *   wsl-version       wsl.exe --version (with WSL_UTF8=1)
 *   ver               cmd.exe /d /c ver
 *   reg-version       reg.exe query HKLM\...\Windows NT\CurrentVersion
 *   reg-graphics      reg.exe query HKLM\SYSTEM\...\GraphicsDrivers (TdrDelay...)
 *   video-controller  Win32_VideoController: the display driver's provider,
 *                     version, date and INF, in Format-List's layout
 *   events-tdr        System events of the last 7 days from Display (4101)
 *                     and nvlddmkm, as event XML
 *   events-wu         Windows Update's "installed" events (19) of the last
 *                     30 days, as event XML
 *   reg-machine       reg.exe query HKLM\SOFTWARE\Microsoft\Cryptography /v
 *                     MachineGuid: Windows' install id, kept only hashed
 *                     (host_key), to join each distribution with its machine
 *   gpu-memory        the GPU Adapter Memory and GPU Process Memory counters
 *                     and the names of those processes, in Get-Counter's
 *                     layout; read from their WMI classes
 *                     (Win32_PerfFormattedData_GPUPerformanceCounters_*),
 *                     whose names are not translated as the counters' are
 *
 * Without PowerShell the same sections come from the programs one by one
 * (nvidia-smi.exe, wsl.exe, cmd.exe, reg.exe, wevtutil.exe, typeperf.exe),
 * each with a share of the time limit. A part that fails, hangs or prints
 * garbage leaves only its own fact missing, and says why (parts[]).
 *
 * Programs are looked up on PATH (WSL appends Windows' PATH), then at their
 * usual place under the automount root (<root>c/Windows/System32/...).
 * The result is kept for the process: a second call costs nothing.
 */
#ifndef WSLGPU_WINDOWS_FACTS_H
#define WSLGPU_WINDOWS_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "../core/proc.h"
#include "../core/strbuf.h"
#include "../parse/nvsmi.h"
#include "../parse/winver.h"
#include "../parse/winwslver.h"

#define WINFACTS_MAX_PARTS 12
#define WINFACTS_MAX_GPUS 8
#define WINFACTS_MAX_PROCS 8

enum winfacts_via {
	WINFACTS_VIA_NONE,       /* nothing could be run */
	WINFACTS_VIA_POWERSHELL, /* the batched query */
	WINFACTS_VIA_PROGRAMS,   /* the programs one by one */
};

/* How one part of the query went. */
struct winfacts_part {
	char name[24];   /* the section: "smi-q", "events-tdr", ... */
	char state[12];  /* "ok", "absent", "error", "cut", "timeout", "garbled" */
	char note[120];  /* what failed, or the program that answered */
};

struct winfacts_gpu {
	char name[96];
	char model[8];       /* WDDM, TCC, MCDM */
	char pstate[8];
	char power_draw[24];
	char power_limit[24];
	long long mem_total; /* bytes, -1 unknown */
	long long mem_used;
};

struct winfacts_proc {
	long pid;
	char name[64];
	long long bytes;     /* its GPU memory in use on the adapter (Local Usage) */
	bool vm;             /* vmmem / vmmemWSL: a virtual machine, WSL's among them */
};

struct winfacts {
	bool asked;           /* a Windows program was started */
	bool reached;         /* at least one part answered */
	enum winfacts_via via;
	char why[240];        /* when not reached: why */
	double ms;            /* the whole query */
	size_t nparts;
	struct winfacts_part part[WINFACTS_MAX_PARTS];

	bool have_wsl;
	struct winwslver wsl;

	bool have_smi;
	struct nvsmi_info smi;
	size_t ngpus;
	struct winfacts_gpu gpu[WINFACTS_MAX_GPUS];

	bool have_ver;
	struct winver ver;    /* from `ver`, else the registry's CurrentBuild/UBR */
	char display_version[16]; /* "24H2" */

	bool have_tdr_reg;
	long tdr_delay, tdr_level, tdr_ddi_delay; /* -1: not set (Windows' default) */

	bool have_events;
	size_t resets;        /* Display 4101 in the last 7 days */
	size_t nv_errors;     /* nvlddmkm events in the last 7 days */
	char last_reset[32];
	char reset_driver[64];

	bool have_driver;
	char drv_name[96], drv_provider[64], drv_version[32], drv_date[16], drv_inf[64];

	bool have_wu;
	size_t wu_nvidia;     /* NVIDIA driver installs by Windows Update, last 30 days */
	char wu_title[160], wu_time[32];

	/* The first 16 hex digits of sha256("wslgpu-host:" + MachineGuid in
	 * lower case): the same for every distribution of one Windows
	 * install, and not the GUID itself (a fleet's metrics should not
	 * carry it). "" when unknown. */
	char host_key[17];

	bool have_mem;
	char mem_luid[24];    /* the adapter with the most dedicated memory in use */
	long long mem_adapter;  /* its dedicated usage, bytes */
	long long mem_windows;  /* held by Windows programs (not a VM) on it */
	long long mem_vm;       /* held by vmmem / vmmemWSL */
	size_t nprocs;        /* the largest users, biggest first */
	struct winfacts_proc proc[WINFACTS_MAX_PROCS];
};

struct winfacts_opts {
	int timeout_ms;       /* the whole query's limit */
	bool no_powershell;   /* ask the programs one by one (tests, --windows=programs) */
	/* Runs each command (NULL: proc_run), so that a probe can run them
	 * under its runner's watch. A return of -EAGAIN (the runner hands
	 * the probe over to a child of its own first) stops the query at
	 * once: winfacts_collect returns -EAGAIN and nothing is kept. */
	int (*run)(void *arg, const char *const *argv, const struct proc_opts *po,
		   struct proc_result *pr);
	void *run_arg;
};

/* Asks Windows. Returns 0 when something answered (f->reached), -1 with
 * f->why otherwise, -EAGAIN when o->run deferred a command. */
int winfacts_collect(const struct winfacts_opts *o, struct winfacts *f);
/* winfacts_collect once per process; later calls return the same facts.
 * NULL when o->run deferred (nothing is cached then). */
const struct winfacts *winfacts_get(const struct winfacts_opts *o);

/* The PowerShell script of the batched query (for doc/windows.md, tests). */
extern const char winfacts_script[];
/* "powershell", "programs", "none". */
const char *winfacts_via_name(enum winfacts_via v);
/* Reads a batched query's output (the sections) into f; the parsers' side
 * of winfacts_collect, for tests and fuzzing. now: the time "last 7 days"
 * is counted from (0: time(NULL)). */
void winfacts_from_sections(const char *buf, size_t len, time_t now, struct winfacts *f);

/*
 * The GPU's load for `wslgpu watch`: a long-lived PowerShell prints, every
 * interval, the GPU Engine, GPU Adapter Memory and GPU Process Memory
 * counters (their WMI classes, whose names are not translated) in
 * Get-Counter's layout between "##wslgpu-begin sample" and
 * "##wslgpu-end sample ok" lines, and the ids of WSL's VM process
 * (vmmemWSL, vmmem). One PowerShell start for the whole run: starting one
 * costs far more than a sample.
 */
#define WINLOAD_END "##wslgpu-end sample"

/* One sample, summed the way Task Manager does: each engine's utilisation
 * summed over the processes using it, the adapter's the busiest engine's. */
struct winload {
	char luid[24];       /* the adapter read: the one with the most dedicated memory in use */
	bool util_ok;        /* the adapter's utilisation, percent */
	double util;
	bool vm_util_ok;     /* the VM's processes named in the engine counters */
	double vm_util;
	bool mem_ok;         /* the adapter's dedicated memory in use, bytes */
	double mem;
	bool vm_mem_ok;      /* the VM's processes' local memory on it, bytes */
	double vm_mem;
};

/* Reads one sample's text (any of wincounter's layouts). Returns 0 when
 * some figure was read, -1 otherwise. Pure. */
int winload_parse(const char *buf, size_t len, struct winload *l);
/* The sampler's command: host path of powershell.exe and its arguments,
 * NULL-terminated in argv (pointing into the two buffers), sampling every
 * interval_ms. Returns 0, or -1 when no powershell.exe is found (why says
 * so). */
int winload_command(double interval_ms, struct strbuf *host, struct strbuf *encoded,
		    const char *argv[8], struct strbuf *why);
/* The sampler's script with its interval in place of SLEEP_MS. */
extern const char winload_script[];

#endif
