/* series.c: watch's columns, points and statistics. See series.h. */
#include "series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const struct watch_col_def watch_cols[WC__COUNT] = {
	[WC_T] = { "t_s", "time", "s", 2 },
	[WC_GPU_UTIL] = { "gpu_util_pct", "GPU util", "%", 1 },
	[WC_GPU_MEM] = { "gpu_mem_used_mib", "GPU memory", "MiB", 0 },
	[WC_CPU_USER] = { "cpu_user_pct", "CPU user", "%", 1 },
	[WC_CPU_SYS] = { "cpu_system_pct", "CPU system", "%", 1 },
	[WC_CPU_IOWAIT] = { "cpu_iowait_pct", "CPU iowait", "%", 1 },
	[WC_JOB_CPU] = { "job_cpu_cores", "job CPU", "cores", 2 },
	[WC_JOB_TOP] = { "job_top_cpu_cores", "busiest process", "cores", 2 },
	[WC_JOB_PROCS] = { "job_procs", "job processes", "", 0 },
	[WC_JOB_RUNNABLE] = { "job_runnable", "ready to run", "procs", 2 },
	[WC_JOB_BLOCKED] = { "job_blocked", "blocked on I/O", "procs", 2 },
	[WC_DISK_READ] = { "disk_read_mbs", "disk read", "MB/s", 2 },
	[WC_DISK_WRITE] = { "disk_write_mbs", "disk write", "MB/s", 2 },
	[WC_JOB_READ] = { "job_read_mbs", "job storage read", "MB/s", 2 },
	[WC_JOB_WRITE] = { "job_write_mbs", "job storage write", "MB/s", 2 },
	[WC_JOB_RCHAR] = { "job_rchar_mbs", "job read calls", "MB/s", 2 },
	[WC_SWAP_IN] = { "swap_in_mbs", "swap in", "MB/s", 2 },
	[WC_SWAP_OUT] = { "swap_out_mbs", "swap out", "MB/s", 2 },
	[WC_MEM_AVAIL] = { "mem_avail_mib", "memory available", "MiB", 0 },
};

const char *const gpu_src_names[GSRC__COUNT] = {
	[GSRC_NONE] = "", [GSRC_NVML] = "nvml", [GSRC_WIN_VM] = "windows-vm",
	[GSRC_WIN_GPU] = "windows-gpu",
};

static double rate(unsigned long long a, unsigned long long b, double scale, double dt)
{
	if (b < a) /* a counter reset or a member that left without its parent */
		return 0;
	return (double)(b - a) * scale / dt;
}

void watch_point_from(const struct watch_raw *a, const struct watch_raw *b, double start_ms,
		      long clk_tck, long page_size, double stale_ms, struct watch_point *p)
{
	for (int i = 0; i < WC__COUNT; i++)
		p->v[i] = NAN;
	p->v[WC_T] = (b->t_ms - start_ms) / 1000.0;
	double dt = (b->t_ms - a->t_ms) / 1000.0;
	if (dt <= 0)
		return;
	double tck = clk_tck > 0 ? (double)clk_tck : 100.0;

	if (a->mc.have_cpu && b->mc.have_cpu) {
		const struct cpu_times *x = &a->mc.cpu, *y = &b->mc.cpu;
		unsigned long long tx = cpu_times_total(x), ty = cpu_times_total(y);
		if (ty > tx) {
			double d = (double)(ty - tx);
#define DELTA(f) (y->f >= x->f ? (double)(y->f - x->f) : 0.0)
			p->v[WC_CPU_USER] = (DELTA(user) + DELTA(nice)) * 100.0 / d;
			p->v[WC_CPU_SYS] = (DELTA(system) + DELTA(irq) + DELTA(softirq)) * 100.0 / d;
			p->v[WC_CPU_IOWAIT] = DELTA(iowait) * 100.0 / d;
#undef DELTA
		}
	}
	if (a->have_tree && b->have_tree) {
		p->v[WC_JOB_CPU] = rate(a->tree.cpu, b->tree.cpu, 1.0 / tck, dt);
		/* Short-lived processes no scan saw arrive through their parent's
		 * cutime all at once; the job cannot have used more CPUs than
		 * there are, so a burst is cut there (the total CPU time of the
		 * run comes from wait4 and is exact). */
		if (b->mc.have_cpu && b->mc.ncpu && p->v[WC_JOB_CPU] > b->mc.ncpu)
			p->v[WC_JOB_CPU] = b->mc.ncpu;
		p->v[WC_JOB_TOP] = (double)b->tree.top_delta / tck / dt;
		p->v[WC_JOB_PROCS] = b->tree.nprocs;
		p->v[WC_JOB_BLOCKED] = b->tree.nblocked;
		p->v[WC_JOB_RUNNABLE] = b->tree.nrunnable;
		if (a->tree.io_ok && b->tree.io_ok) {
			p->v[WC_JOB_READ] = rate(a->tree.rd, b->tree.rd, 1e-6, dt);
			p->v[WC_JOB_WRITE] = rate(a->tree.wr, b->tree.wr, 1e-6, dt);
			p->v[WC_JOB_RCHAR] = rate(a->tree.rchar, b->tree.rchar, 1e-6, dt);
		}
	}
	if (a->mc.have_disk && b->mc.have_disk && b->mc.disk.ndisks) {
		p->v[WC_DISK_READ] =
			rate(a->mc.disk.sectors_read, b->mc.disk.sectors_read, 512e-6, dt);
		p->v[WC_DISK_WRITE] =
			rate(a->mc.disk.sectors_written, b->mc.disk.sectors_written, 512e-6, dt);
	}
	if (a->mc.vm.have_pswp && b->mc.vm.have_pswp) {
		double page = page_size > 0 ? (double)page_size : 4096.0;
		p->v[WC_SWAP_IN] = rate(a->mc.vm.pswpin, b->mc.vm.pswpin, page * 1e-6, dt);
		p->v[WC_SWAP_OUT] = rate(a->mc.vm.pswpout, b->mc.vm.pswpout, page * 1e-6, dt);
	}
	if (b->mc.have_mem)
		p->v[WC_MEM_AVAIL] = (double)b->mc.mem.mem_available / 1048576.0;
	p->util_src = p->mem_src = GSRC_NONE;
	const struct gpu_reading *g = &b->gpu, *w = &b->win;
	if (g->valid && b->t_ms - g->t_ms <= stale_ms) {
		if (g->util_ok) {
			p->v[WC_GPU_UTIL] = g->util;
			p->util_src = GSRC_NVML;
		}
		if (g->mem_ok) {
			p->v[WC_GPU_MEM] = g->mem_used_mib;
			p->mem_src = GSRC_NVML;
		}
	}
	if (w->valid && b->t_ms - w->t_ms <= stale_ms) {
		if (w->util_ok && !p->util_src) {
			p->v[WC_GPU_UTIL] = w->util;
			p->util_src = w->util_vm ? GSRC_WIN_VM : GSRC_WIN_GPU;
		}
		if (w->mem_ok && !p->mem_src) {
			p->v[WC_GPU_MEM] = w->mem_used_mib;
			p->mem_src = w->mem_vm ? GSRC_WIN_VM : GSRC_WIN_GPU;
		}
	}
}

enum gpu_src series_gpu_src(const struct watch_series *s, bool mem)
{
	const size_t *n = mem ? s->mem_src_n : s->util_src_n;
	enum gpu_src best = GSRC_NONE;
	for (int i = GSRC_NONE + 1; i < GSRC__COUNT; i++)
		if (n[i] && (best == GSRC_NONE || n[i] > n[best]))
			best = (enum gpu_src)i;
	return best;
}

void series_init(struct watch_series *s)
{
	memset(s, 0, sizeof *s);
	s->pts = xcalloc(WATCH_KEEP_POINTS, sizeof *s->pts);
	s->bucket = 1;
	for (int c = 0; c < WC__COUNT; c++) {
		s->stat[c].min = NAN;
		s->stat[c].max = NAN;
	}
}

void series_release(struct watch_series *s)
{
	free(s->pts);
	memset(s, 0, sizeof *s);
}

/* Average of two kept points, column by column, a NaN side not counting. */
static void merge(struct watch_point *out, const struct watch_point *x, const struct watch_point *y)
{
	for (int c = 0; c < WC__COUNT; c++) {
		double a = x->v[c], b = y->v[c];
		out->v[c] = isnan(a) ? b : isnan(b) ? a : (a + b) / 2;
	}
}

static void flush_bucket(struct watch_series *s)
{
	if (s->n == WATCH_KEEP_POINTS) {
		for (size_t i = 0; i < WATCH_KEEP_POINTS / 2; i++)
			merge(&s->pts[i], &s->pts[2 * i], &s->pts[2 * i + 1]);
		s->n = WATCH_KEEP_POINTS / 2;
		s->bucket *= 2;
		/* The pending bucket now belongs to a bucket twice as wide:
		 * keep filling it. */
		if (s->pend_n < s->bucket)
			return;
	}
	struct watch_point *p = &s->pts[s->n++];
	for (int c = 0; c < WC__COUNT; c++)
		p->v[c] = s->pend_cnt[c] ? s->pend_sum[c] / s->pend_cnt[c] : NAN;
	memset(s->pend_sum, 0, sizeof s->pend_sum);
	memset(s->pend_cnt, 0, sizeof s->pend_cnt);
	s->pend_n = 0;
}

void series_add(struct watch_series *s, const struct watch_point *p)
{
	s->nsamples++;
	if (p->util_src < GSRC__COUNT)
		s->util_src_n[p->util_src]++;
	if (p->mem_src < GSRC__COUNT)
		s->mem_src_n[p->mem_src]++;
	for (int c = 0; c < WC__COUNT; c++) {
		double v = p->v[c];
		if (isnan(v))
			continue;
		struct watch_stat *st = &s->stat[c];
		if (!st->n || v < st->min)
			st->min = v;
		if (!st->n || v > st->max)
			st->max = v;
		st->n++;
		st->sum += v;
		s->pend_sum[c] += v;
		s->pend_cnt[c]++;
	}
	if (++s->pend_n >= s->bucket)
		flush_bucket(s);
}

double series_mean(const struct watch_series *s, enum watch_col c)
{
	return s->stat[c].n ? s->stat[c].sum / (double)s->stat[c].n : NAN;
}

double series_min(const struct watch_series *s, enum watch_col c)
{
	return s->stat[c].n ? s->stat[c].min : NAN;
}

double series_max(const struct watch_series *s, enum watch_col c)
{
	return s->stat[c].n ? s->stat[c].max : NAN;
}

size_t series_column(const struct watch_series *s, enum watch_col c, double **out)
{
	size_t n = s->n + (s->pend_n ? 1 : 0);
	double *v = xcalloc(n ? n : 1, sizeof *v);
	for (size_t i = 0; i < s->n; i++)
		v[i] = s->pts[i].v[c];
	if (s->pend_n)
		v[s->n] = s->pend_cnt[c] ? s->pend_sum[c] / s->pend_cnt[c] : NAN;
	*out = v;
	return n;
}
