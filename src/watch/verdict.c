/* verdict.c: the rules that name a job's bottleneck. See verdict.h. */
#include "verdict.h"
#include "kb_ids.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <string.h>

static const struct {
	const char *name;
	const char *kb;
	enum status st;
} verdicts[WV__COUNT] = {
	[WV_TOO_SHORT] = { "too-short", KB_WATCH_TOO_SHORT, ST_SKIP },
	[WV_GPU_BOUND] = { "gpu-bound", KB_WATCH_GPU_BOUND, ST_PASS },
	[WV_GPU_IDLE] = { "gpu-idle", KB_WATCH_GPU_IDLE, ST_WARN },
	[WV_MEMORY] = { "memory-pressure", KB_WATCH_MEMORY_PRESSURE, ST_WARN },
	[WV_INPUT] = { "input-bound", KB_WATCH_INPUT_BOUND, ST_WARN },
	[WV_CPU] = { "cpu-bound", KB_WATCH_CPU_BOUND, ST_WARN },
	[WV_CPU_OR_GPU] = { "cpu-or-gpu-bound", KB_WATCH_CPU_OR_GPU_BOUND, ST_WARN },
	[WV_PROBABLY_GPU] = { "probably-gpu-bound", KB_WATCH_PROBABLY_GPU_BOUND, ST_PASS },
	[WV_WAITING] = { "waiting", KB_WATCH_WAITING, ST_WARN },
};

const char *watch_verdict_name(enum watch_verdict_id id)
{
	return (unsigned)id < WV__COUNT ? verdicts[id].name : "unknown";
}

const char *watch_verdict_kb(enum watch_verdict_id id)
{
	return (unsigned)id < WV__COUNT ? verdicts[id].kb : NULL;
}

static bool known(double x)
{
	return !isnan(x);
}

static double growth(const struct watch_summary *s)
{
	if (!s->gpu_mem_known || !known(s->gpu_mem_max) || !known(s->gpu_mem_min))
		return NAN;
	return s->gpu_mem_max - s->gpu_mem_min;
}

/* The job allocated GPU memory while watched (needs a baseline). */
static bool gpu_mem_rose(const struct watch_summary *s)
{
	double g = growth(s);
	return known(g) && g >= V_GPU_MEM_GROWTH_MIB;
}

static bool rule_gpu_bound(const struct watch_summary *s)
{
	return s->gpu_util_known && s->gpu_util_mean >= V_GPU_BUSY_PCT;
}

static bool rule_gpu_idle(const struct watch_summary *s)
{
	if (!s->gpu_present || gpu_mem_rose(s))
		return false;
	if (s->gpu_util_known)
		return s->gpu_util_max < V_GPU_USED_PCT;
	/* Memory alone proves nothing unless watch saw the level before the
	 * job started and after it ended. */
	return s->gpu_mem_known && s->gpu_mem_bracketed && !s->attached;
}

static bool rule_memory(const struct watch_summary *s)
{
	if (s->swap_known && s->swap_in_mean + s->swap_out_mean >= V_SWAP_MBS)
		return true;
	return s->mem_known && s->mem_total > 0 && known(s->mem_avail_min) &&
	       s->mem_avail_min < V_MEM_AVAIL_FRAC * s->mem_total;
}

static double iowait_cores(const struct watch_summary *s)
{
	return known(s->cpu_iowait_mean) ? s->cpu_iowait_mean / 100.0 * s->ncpu : 0;
}

static bool saturated(const struct watch_summary *s)
{
	return s->ncpu && known(s->job_cpu_mean) && s->job_cpu_mean >= V_SATURATED_FRAC * s->ncpu;
}

/* The job's own reads from storage, MB/s, at which it is busy reading
 * whatever iowait says: a reader that gets its data fast spends little
 * time in state D and the machine little in iowait (a dd at 1.6 GB/s from
 * a fast disk or the page cache), yet reading is all it does. */
#define V_JOB_READ_BUSY_MBS 50.0

static bool rule_input(const struct watch_summary *s)
{
	if (saturated(s))
		return false;
	if (known(s->job_blocked_mean) && s->job_blocked_mean >= V_BLOCKED_PROCS)
		return true;
	if ((known(s->job_read_mean) && s->job_read_mean >= V_JOB_READ_BUSY_MBS) ||
	    (known(s->job_rchar_mean) && s->job_rchar_mean >= V_JOB_READ_BUSY_MBS))
		return true;
	/* Machine-wide iowait counts only when the job itself reads. */
	bool job_reads = (known(s->job_rchar_mean) && s->job_rchar_mean >= 0.1) ||
			 (known(s->job_read_mean) && s->job_read_mean >= 0.1);
	return iowait_cores(s) >= V_IOWAIT_CORES && job_reads;
}

static bool busy_process(const struct watch_summary *s)
{
	return known(s->job_top_mean) && s->job_top_mean >= V_TOP_PROC_CORES;
}

static bool starved(const struct watch_summary *s)
{
	return known(s->job_runnable_mean) && s->job_runnable_mean >= V_RUNNABLE_PROCS;
}

static bool rule_cpu(const struct watch_summary *s)
{
	return saturated(s) || busy_process(s) || starved(s);
}

/* One busy process, the GPU in use, its utilisation unknown: CUDA's
 * default synchronisation spins a core while the GPU works. */
static bool rule_cpu_or_gpu(const struct watch_summary *s)
{
	return rule_cpu(s) && !saturated(s) && !s->gpu_util_known && gpu_mem_rose(s) &&
	       known(s->job_top_mean) && s->job_cpu_mean - s->job_top_mean < 0.5;
}

static bool rule_probably_gpu(const struct watch_summary *s)
{
	return !s->gpu_util_known && gpu_mem_rose(s);
}

/* Every key a KB entry may name is set, "n/a" when watch could not tell,
 * so that no placeholder is left unfilled. */
static void ev_num(struct evidence *ev, const char *key, double v, const char *fmt)
{
	if (known(v))
		ev_add(ev, key, fmt, v);
	else
		ev_add(ev, key, "n/a");
}

static void add_evidence(const struct watch_summary *s, struct evidence *ev)
{
	ev_add(ev, "points", "%zu", s->npoints);
	ev_add(ev, "duration", "%.1f s", s->duration_s);
	ev_num(ev, "gpu_util", s->gpu_util_known ? s->gpu_util_mean : NAN, "%.0f%%");
	ev_num(ev, "gpu_util_max", s->gpu_util_known ? s->gpu_util_max : NAN, "%.0f%%");
	if (s->gpu_util_known && s->gpu_util_source && *s->gpu_util_source)
		ev_add(ev, "gpu_util_source", "%s", s->gpu_util_source);
	if (s->gpu_mem_known && s->gpu_mem_total > 0)
		ev_add(ev, "gpu_mem", "%.0f MiB of %.0f MiB", s->gpu_mem_max, s->gpu_mem_total);
	else if (s->gpu_mem_known) /* Windows' counters give no total */
		ev_add(ev, "gpu_mem", "%.0f MiB", s->gpu_mem_max);
	else
		ev_add(ev, "gpu_mem", "n/a");
	ev_num(ev, "gpu_mem_growth", growth(s), "%.0f MiB");
	if (s->gpu_note)
		ev_add(ev, "gpu_note", "%s", s->gpu_note);
	ev_num(ev, "job_cpu", s->job_cpu_mean, "%.2f cores");
	ev_add(ev, "ncpu", "%u", s->ncpu);
	ev_num(ev, "top_cpu", s->job_top_mean, "%.2f cores");
	ev_add(ev, "top_comm", "%s", s->top_comm ? s->top_comm : "n/a");
	/* Where the advice names the process (py-spy --pid): only one that
	 * still runs, so that the line is not a process id reused by another. */
	if (s->top_pid > 0 && (kill(s->top_pid, 0) == 0 || errno == EPERM))
		ev_add(ev, "pid", "%d", s->top_pid);
	ev_num(ev, "cpu_busy", s->cpu_busy_mean, "%.0f%%");
	if (known(s->cpu_iowait_mean))
		ev_add(ev, "iowait", "%.1f%% of all CPUs (%.2f cores)", s->cpu_iowait_mean,
		       iowait_cores(s));
	else
		ev_add(ev, "iowait", "n/a");
	ev_num(ev, "runnable", s->job_runnable_mean, "%.2f");
	ev_num(ev, "blocked", s->job_blocked_mean, "%.2f");
	ev_num(ev, "job_reads", s->job_rchar_mean, "%.1f MB/s");
	if (s->swap_known)
		ev_add(ev, "swap", "%.1f MB/s in, %.1f MB/s out", s->swap_in_mean, s->swap_out_mean);
	else
		ev_add(ev, "swap", "n/a");
	if (s->mem_known && known(s->mem_avail_min))
		ev_add(ev, "mem_avail_min", "%.0f MiB of %.0f MiB", s->mem_avail_min, s->mem_total);
	else
		ev_add(ev, "mem_avail_min", "n/a");
	/* What the job is: the KB's advice is chosen by it ({?framework=...},
	 * {?python:...}; src/kb/watch.kb), so that a dd gets no DataLoader. */
	ev_add(ev, "program", "%s", program_name(s->program));
	if (program_is_framework(s->program))
		ev_add(ev, "framework", "%s", program_name(s->program));
	if (program_is_python(s->program))
		ev_add(ev, "python", "yes");
	if (s->data_mount) {
		ev_add(ev, "data_mount", "%s", s->data_mount);
		ev_add(ev, "data_what", "%s", s->data_what ? s->data_what : "n/a");
		ev_add(ev, "data_kind", "%s", s->data_kind ? s->data_kind : "n/a");
		ev_add(ev, "data_example", "%s", s->data_example ? s->data_example : "n/a");
	}
}

void watch_verdict_headline(const struct watch_summary *s, enum watch_verdict_id id,
			    struct strbuf *h)
{
	switch (id) {
	case WV_TOO_SHORT:
		sb_addf(h, "too short to judge: %zu point%s (at least %d are needed)", s->npoints,
			s->npoints == 1 ? "" : "s", V_MIN_POINTS);
		break;
	case WV_GPU_BOUND:
		sb_addf(h, "GPU-bound: the GPU was busy %.0f%% of the time on average; "
			   "this is what you want", s->gpu_util_mean);
		break;
	case WV_GPU_IDLE:
		if (s->gpu_util_known)
			sb_addf(h, "GPU idle: the job never used the GPU (utilisation at most %.0f%%)",
				s->gpu_util_max);
		else
			sb_addf(h, "GPU idle: the job never allocated GPU memory (%.0f MiB more at most)",
				known(growth(s)) ? growth(s) : 0.0);
		if (rule_cpu(s))
			sb_add(h, "; it ran on the CPU instead");
		break;
	case WV_MEMORY:
		if (s->swap_known && s->swap_in_mean + s->swap_out_mean >= V_SWAP_MBS)
			sb_addf(h, "memory pressure: the machine swapped %.1f MB/s on average",
				s->swap_in_mean + s->swap_out_mean);
		else
			sb_addf(h, "memory pressure: available memory fell to %.0f MiB of %.0f MiB",
				s->mem_avail_min, s->mem_total);
		break;
	case WV_INPUT:
		sb_add(h, "input-bound: the job waited for its data");
		if (known(s->job_blocked_mean) && s->job_blocked_mean >= V_BLOCKED_PROCS)
			sb_addf(h, " (%.2f processes blocked on I/O on average)", s->job_blocked_mean);
		else
			sb_addf(h, " (iowait %.2f cores)", iowait_cores(s));
		if (s->data_mount)
			sb_addf(h, "; it reads from %s (%s)", s->data_mount,
				s->data_what ? s->data_what : "?");
		break;
	case WV_CPU:
		if (saturated(s))
			sb_addf(h, "CPU-bound: the job kept %.1f of %u CPU%s busy", s->job_cpu_mean,
				s->ncpu, s->ncpu == 1 ? "" : "s");
		else if (!busy_process(s))
			sb_addf(h, "CPU-bound: %.2f of its processes were ready to run on average but "
				   "the job got only %.2f cores: the CPUs are shared with other work "
				   "(all CPUs %.0f%% busy)", s->job_runnable_mean,
				known(s->job_cpu_mean) ? s->job_cpu_mean : 0.0,
				known(s->cpu_busy_mean) ? s->cpu_busy_mean : 0.0);
		else
			sb_addf(h, "CPU-bound: its busiest process%s%s%s used %.2f of one core "
				   "(a single-threaded step)",
				s->top_comm ? " (" : "", s->top_comm ? s->top_comm : "",
				s->top_comm ? ")" : "", s->job_top_mean);
		break;
	case WV_CPU_OR_GPU:
		sb_addf(h, "CPU- or GPU-bound: one process%s%s%s used %.2f of a core while the GPU "
			   "held %.0f MiB more; without GPU utilisation the two look the same",
			s->top_comm ? " (" : "", s->top_comm ? s->top_comm : "",
			s->top_comm ? ")" : "", s->job_top_mean, growth(s));
		break;
	case WV_PROBABLY_GPU:
		sb_addf(h, "probably GPU-bound: the job used the GPU (%.0f MiB more) and was not "
			   "limited by CPU, storage or memory", growth(s));
		break;
	case WV_WAITING:
		sb_add(h, "waiting: neither the GPU");
		if (s->gpu_util_known)
			sb_addf(h, " (%.0f%% busy)", s->gpu_util_mean);
		sb_addf(h, ", the CPUs (%.2f cores), storage nor memory was the limit; the job "
			   "mostly waited", known(s->job_cpu_mean) ? s->job_cpu_mean : 0.0);
		break;
	default:
		break;
	}
}

void watch_judge(const struct watch_summary *s, struct watch_verdict *v)
{
	memset(v, 0, sizeof *v);
	sb_init(&v->headline);
	v->cpu_io_only = !s->gpu_util_known;

	bool holds[WV__COUNT] = { false };
	if (s->npoints < V_MIN_POINTS) {
		holds[WV_TOO_SHORT] = true;
	} else {
		holds[WV_GPU_BOUND] = rule_gpu_bound(s);
		holds[WV_GPU_IDLE] = rule_gpu_idle(s);
		holds[WV_MEMORY] = rule_memory(s);
		holds[WV_INPUT] = rule_input(s);
		holds[WV_CPU_OR_GPU] = rule_cpu_or_gpu(s);
		holds[WV_CPU] = rule_cpu(s) && !holds[WV_CPU_OR_GPU];
		holds[WV_PROBABLY_GPU] = rule_probably_gpu(s);
		holds[WV_WAITING] = true;
	}
	v->id = WV_WAITING;
	for (int i = 0; i < WV__COUNT; i++)
		if (holds[i]) {
			v->id = (enum watch_verdict_id)i;
			break;
		}
	/* The findings that also hold, worth a line each; the fallbacks are not. */
	for (int i = v->id + 1; i < WV__COUNT && v->nalso < WV_MAX_ALSO; i++)
		if (holds[i] && i != WV_PROBABLY_GPU && i != WV_WAITING &&
		    !(v->id == WV_GPU_IDLE && i == WV_CPU))
			v->also[v->nalso++] = (enum watch_verdict_id)i;

	v->name = verdicts[v->id].name;
	v->kb = verdicts[v->id].kb;
	if (v->id == WV_INPUT && s->data_kind && !strcmp(s->data_kind, "windows-drive"))
		v->kb = KB_WATCH_INPUT_BOUND_WINDOWS_DRIVE;
	watch_verdict_headline(s, v->id, &v->headline);
	add_evidence(s, &v->ev);
	v->status = verdicts[v->id].st;
}

void watch_verdict_release(struct watch_verdict *v)
{
	sb_release(&v->headline);
	ev_release(&v->ev);
}
