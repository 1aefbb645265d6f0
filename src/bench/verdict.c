/*
 * verdict.c: what the numbers mean. Each finding is a struct result (the
 * same model `check` uses): a status, a one-line detail, the KB entry that
 * explains it (src/kb/bench.kb), and evidence whose keys fill the entry's
 * {placeholders}. Pure: no I/O, so the logic is unit-tested with made-up
 * numbers.
 *
 * io: the fastest location for small files is the one with the lowest
 * median cost of a file's life (create + stat + read + delete) over its
 * trials; any other location BENCH_SLOW_RATIO times slower or more is
 * named with the ratio of the medians -- but only when the difference is
 * beyond the noise: each location has at least two trials, and even its
 * best trial is BENCH_SLOW_RATIO times slower than the fastest location's
 * worst. One noisy sample (a 5.6x that the next trials put at 0.7-1.2x)
 * is no verdict; a difference the trials cannot separate is said to be
 * within the noise, with its size. The same for sequential read and write
 * throughput. A slow Windows drive points at the "keep your files in the
 * Linux file system" fix (field case P01).
 *
 * gpu: errors first (the benchmark could not run, or data changed in a
 * copy); then pinned allocations that failed (WSL limits pinned memory,
 * case M01); the achieved fraction of the PCIe link's theoretical rate
 * when NVML told us the link; kernel-launch cost against the native
 * figure of about BENCH_NATIVE_LAUNCH_US µs.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "stats.h"
#include "kb_ids.h"

static struct result *add(struct bench_verdict *v, enum status st, const char *kb,
			  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static struct result *add(struct bench_verdict *v, enum status st, const char *kb,
			  const char *fmt, ...)
{
	v->findings = xrealloc(v->findings, (v->n + 1) * sizeof *v->findings);
	struct result *r = &v->findings[v->n++];
	result_init(r, NULL);
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	res_set(r, st, kb, "%s", sb.buf);
	r->ran = true;
	sb_release(&sb);
	if (status_severity(st, false) > status_severity(v->status, false))
		v->status = st;
	return r;
}

static void ratio_ev(struct result *r, double ratio)
{
	struct strbuf sb = STRBUF_INIT;
	bench_format_ratio(&sb, ratio);
	res_ev(r, "ratio", "%s", sb.buf);
	sb_release(&sb);
}

static bool in_memory(const struct bench_io_loc *l)
{
	return l->fstype && (!strcmp(l->fstype, "tmpfs") || !strcmp(l->fstype, "ramfs"));
}

static const char *slow_kb(const struct bench_io_loc *l)
{
	return l->windows_drive ? KB_BENCH_IO_WINDOWS_DRIVE : KB_BENCH_IO_SLOW_LOCATION;
}

static void loc_ev(struct result *r, const struct bench_io_loc *l)
{
	res_ev(r, "path", "%s", l->path);
	res_ev(r, "fstype", "%s", l->fstype ? l->fstype : "unknown");
	res_ev(r, "source", "%s", l->source && *l->source ? l->source : "-");
	/* What to copy: the named directory, else a placeholder; never the
	 * whole Windows profile we happened to measure. */
	res_ev(r, "copy_from", "%s", l->named ? l->resolved : "/mnt/c/<your data>");
}

/* Both on one mounted file system (its source and mount point). */
static bool same_filesystem(const struct bench_io_loc *a, const struct bench_io_loc *b)
{
	return a != b && a->source && b->source && a->mount_point && b->mount_point &&
	       !strcmp(a->source, b->source) && !strcmp(a->mount_point, b->mount_point);
}

/* A figure's trials at a location, as costs (bigger is slower): µs per
 * file as they are, throughputs inverted. */
enum io_metric { IO_SMALL, IO_READ, IO_WRITE };

static const struct bench_trials *trials_of(const struct bench_io_loc *l, enum io_metric m)
{
	return m == IO_SMALL ? &l->t_small : m == IO_READ ? &l->t_read : &l->t_write;
}

static void cost_spread(const struct bench_io_loc *l, enum io_metric m, struct bench_spread *sp)
{
	struct bench_trials t = *trials_of(l, m);
	/* A location filled in by hand (a unit test, an older caller) has its
	 * one figure and no trials. */
	if (t.n == 0) {
		double v = m == IO_SMALL ? l->per_file_us
			   : m == IO_READ ? l->read.bytes_per_s : l->write.bytes_per_s;
		t.n = 1;
		t.v[0] = v;
	}
	if (m != IO_SMALL)
		for (unsigned i = 0; i < t.n; i++)
			t.v[i] = t.v[i] > 0 ? 1.0 / t.v[i] : 0;
	bench_spread_of(&t, sp);
}

/* How a slower location compares with the fastest, by one figure. */
struct comparison {
	double ratio;   /* of the medians */
	double apart;   /* the slower one's best trial against the fastest's worst */
	double noise;   /* the larger spread of the two, a fraction */
	unsigned trials; /* the fewer of the two */
};

static void compare(const struct bench_io_loc *l, const struct bench_io_loc *fast,
		    enum io_metric m, struct comparison *c)
{
	struct bench_spread a, b;
	cost_spread(l, m, &a);
	cost_spread(fast, m, &b);
	memset(c, 0, sizeof *c);
	if (a.n == 0 || b.n == 0 || b.median <= 0 || b.max <= 0)
		return;
	c->ratio = a.median / b.median;
	c->apart = a.min / b.max;
	c->noise = fmax(a.noise, b.noise);
	c->trials = a.n < b.n ? a.n : b.n;
}

/* A difference beyond the noise: measured more than once on both sides,
 * the medians BENCH_SLOW_RATIO apart, and every trial of the one slower
 * than every trial of the other by that much. */
static bool beyond_noise(const struct comparison *c)
{
	return c->trials >= 2 && c->ratio >= BENCH_SLOW_RATIO && c->apart >= BENCH_SLOW_RATIO;
}

static void noise_ev(struct result *r, const struct comparison *c)
{
	res_ev(r, "trials", "%u", c->trials);
	res_ev(r, "noise", "±%.0f %%", c->noise * 100);
}

static void slower(struct bench_verdict *v, const struct bench_io_loc *l,
		   const struct bench_io_loc *fast, const struct comparison *c, const char *metric)
{
	double ratio = c->ratio;
	struct strbuf rs = STRBUF_INIT;
	bench_format_ratio(&rs, ratio);
	struct result *r = add(v, ST_WARN, slow_kb(l), "%s: %s slower %s than %s", l->path, rs.buf,
			       metric, fast->path);
	loc_ev(r, l);
	ratio_ev(r, ratio);
	res_ev(r, "metric", "%s", metric);
	res_ev(r, "fastest", "%s", fast->path);
	res_ev(r, "measured", "here %s slower %s than %s", rs.buf, metric, fast->path);
	noise_ev(r, c);
	sb_release(&rs);
}

/* A ratio the trials cannot tell from noise: said, never a warning. */
static void within_noise(struct bench_verdict *v, const struct bench_io_loc *l,
			 const struct bench_io_loc *fast, const struct comparison *c,
			 const char *metric)
{
	struct strbuf rs = STRBUF_INIT;
	bench_format_ratio(&rs, c->ratio);
	struct result *r;
	if (c->trials < 2)
		r = add(v, ST_PASS, NULL, "%s: %s slower %s than %s in one trial: one trial "
		       "cannot tell a difference from noise", l->path, rs.buf, metric, fast->path);
	else
		r = add(v, ST_PASS, NULL, "%s: %s slower %s than %s by the medians, but the "
		       "trials overlap (±%.0f %%): no difference beyond the noise", l->path, rs.buf,
		       metric, fast->path, c->noise * 100);
	loc_ev(r, l);
	ratio_ev(r, c->ratio);
	res_ev(r, "metric", "%s", metric);
	res_ev(r, "fastest", "%s", fast->path);
	noise_ev(r, c);
	if (c->trials < 2) {
		v->untested++;
	} else {
		if (c->noise > v->noise)
			v->noise = c->noise;
		v->noisy++;
	}
	sb_release(&rs);
}

static void judge_pair(struct bench_verdict *v, const struct bench_io_loc *l,
		       const struct bench_io_loc *fast, enum io_metric m, const char *metric)
{
	struct comparison c;
	compare(l, fast, m, &c);
	if (c.trials && c.noise > v->noise_all)
		v->noise_all = c.noise;
	if (c.ratio < BENCH_SLOW_RATIO)
		return;
	if (beyond_noise(&c))
		slower(v, l, fast, &c, metric);
	else
		within_noise(v, l, fast, &c, metric);
}

void bench_verdict_io(const struct bench_io_loc *locs, size_t n, struct bench_verdict *v)
{
	memset(v, 0, sizeof *v);
	v->status = ST_PASS;
	const struct bench_io_loc *small = NULL, *rd = NULL, *wr = NULL;
	size_t done = 0, disks = 0;
	for (size_t i = 0; i < n; i++)
		disks += locs[i].state == BENCH_LOC_DONE && !in_memory(&locs[i]);
	for (size_t i = 0; i < n; i++) {
		const struct bench_io_loc *l = &locs[i];
		if (l->state == BENCH_LOC_FAILED) {
			struct result *r = add(v, ST_FAIL, l->kb ? l->kb : KB_BENCH_IO_FAILED, "%s: %s",
					       l->path, l->error ? l->error : "failed");
			res_ev(r, "path", "%s", l->path);
			res_ev(r, "error", "%s", l->error ? l->error : "failed");
			if (l->need_bytes) {
				struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
				bench_format_size(&a, l->free_bytes);
				bench_format_size(&b, l->need_bytes);
				res_ev(r, "free", "%s", a.buf);
				res_ev(r, "need", "%s", b.buf);
				/* A run that fits: smaller than asked, never larger. */
				if (l->fit_size) {
					if (l->fit_size % (1ull << 20) == 0)
						res_ev(r, "fit_size", "%lluM",
						       (unsigned long long)(l->fit_size >> 20));
					else
						res_ev(r, "fit_size", "%llu",
						       (unsigned long long)l->fit_size);
					res_ev(r, "fit_files", "%u", l->fit_files);
				} else {
					res_ev(r, "fit", "none");
				}
				sb_release(&a);
				sb_release(&b);
			}
		}
		if (l->state != BENCH_LOC_DONE)
			continue;
		done++;
		/* The reference is the fastest disk: tmpfs is memory, and
		 * nobody keeps a dataset there across a reboot. */
		if (in_memory(l) && disks)
			continue;
		if (l->per_file_us > 0 && l->op[BENCH_OP_CREATE].ops &&
		    (!small || l->per_file_us < small->per_file_us))
			small = l;
		if (l->read.bytes_per_s > 0 && (!rd || l->read.bytes_per_s > rd->read.bytes_per_s))
			rd = l;
		if (l->write.bytes_per_s > 0 &&
		    (!wr || l->write.bytes_per_s > wr->write.bytes_per_s))
			wr = l;
	}
	if (small)
		v->fastest = xstrdup(small->path);
	for (size_t i = 0; i < n && done > 1; i++) {
		const struct bench_io_loc *l = &locs[i];
		if (l->state != BENCH_LOC_DONE || (in_memory(l) && disks))
			continue;
		/* Two directories of one file system are one device: what
		 * tells them apart is noise, never a cause. */
		if (small && l != small && !same_filesystem(l, small) && l->per_file_us > 0)
			judge_pair(v, l, small, IO_SMALL, "for small files");
		if (rd && l != rd && !same_filesystem(l, rd) && l->read.bytes_per_s > 0)
			judge_pair(v, l, rd, IO_READ, "for sequential reads");
		if (wr && l != wr && !same_filesystem(l, wr) && l->write.bytes_per_s > 0)
			judge_pair(v, l, wr, IO_WRITE, "for sequential writes");
	}
	if (done == 1) {
		for (size_t i = 0; i < n; i++) {
			const struct bench_io_loc *l = &locs[i];
			if (l->state == BENCH_LOC_DONE && l->windows_drive) {
				struct result *r = add(v, ST_WARN, KB_BENCH_IO_WINDOWS_DRIVE,
						       "%s is on a Windows drive (%s); measure a Linux "
						       "directory too to compare (wslgpu bench io %s ~)",
						       l->path, l->fstype, l->path);
				loc_ev(r, l);
				res_ev(r, "measured", "not compared here: measure a Linux directory "
				       "as well");
			}
		}
	}

	struct strbuf s = STRBUF_INIT;
	const struct result *first_warn = NULL;
	for (size_t i = 0; i < v->n; i++)
		if (v->findings[i].status == ST_WARN && !first_warn)
			first_warn = &v->findings[i];
	size_t warns = 0;
	for (size_t i = 0; i < v->n; i++)
		warns += v->findings[i].status == ST_WARN;
	size_t failed = 0;
	for (size_t i = 0; i < n; i++)
		failed += locs[i].state == BENCH_LOC_FAILED;
	if (done == 0)
		sb_add(&s, "no location could be measured");
	else if (failed)
		sb_addf(&s, "%zu location%s could not be measured", failed, failed == 1 ? "" : "s");
	else if (first_warn && warns > 1)
		sb_addf(&s, "%s (and %zu more finding%s)", first_warn->detail, warns - 1,
			warns == 2 ? "" : "s");
	else if (first_warn)
		sb_add(&s, first_warn->detail);
	else if (done == 1)
		sb_add(&s, "one location measured: nothing to compare");
	else if (v->noisy)
		sb_addf(&s, "no difference beyond the noise (±%.0f %%)", v->noise * 100);
	else if (v->untested)
		sb_add(&s, "measured once: a difference cannot be told from noise (--trials 3)");
	else
		sb_addf(&s, "no location is %.0f× or more slower than the fastest (%s)", BENCH_SLOW_RATIO,
			small ? small->path : rd ? rd->path : "?");
	v->summary = sb_detach(&s);
}

/* ---- gpu ---- */

double bench_pcie_bytes_per_s(int gen, int width)
{
	/* Per lane and direction: the transfer rate times the line code's
	 * payload share. Gen 1-2: 8b/10b; gen 3-5: 128b/130b; gen 6-7: PAM4
	 * with 256-byte FLITs carrying 242 bytes of payload. */
	static const double gts[] = { 0, 2.5, 5, 8, 16, 32, 64, 128 };
	if (gen < 1 || gen > 7 || width < 1 || width > 32)
		return 0;
	double eff = gen <= 2 ? 8.0 / 10.0 : gen <= 5 ? 128.0 / 130.0 : 242.0 / 256.0;
	return gts[gen] * 1e9 * eff / 8.0 * (double)width;
}

int bench_pcie_gen_from_speed(const char *buf, size_t len)
{
	char tmp[32];
	size_t n = len < sizeof tmp - 1 ? len : sizeof tmp - 1;
	memcpy(tmp, buf, n);
	tmp[n] = '\0';
	char *end;
	double gts = strtod(tmp, &end);
	if (end == tmp)
		return 0;
	while (*end == ' ')
		end++;
	if (strncmp(end, "GT/s", 4) != 0)
		return 0;
	static const double rates[] = { 2.5, 5, 8, 16, 32, 64, 128 };
	for (int i = 0; i < 7; i++)
		if (fabs(gts - rates[i]) < 0.01)
			return i + 1;
	return 0;
}

/* The largest measured size's rate of one copy kind; 0 if none. */
static double largest(const struct bench_gpu *g, enum bench_copy c, uint64_t *size)
{
	for (size_t i = g->nsizes; i-- > 0;)
		if (g->copy[c][i].measured && g->copy[c][i].bytes_per_s > 0) {
			if (size)
				*size = g->copy[c][i].size;
			return g->copy[c][i].bytes_per_s;
		}
	return 0;
}

void bench_verdict_gpu(const struct bench_gpu *g, struct bench_verdict *v)
{
	memset(v, 0, sizeof *v);
	v->status = ST_PASS;
	if (g->error[0]) {
		struct result *r = add(v, ST_FAIL, g->error_kb[0] ? g->error_kb : KB_BENCH_GPU_FAILED,
				       "%s", g->error);
		res_ev(r, "error", "%s", g->error);
		res_ev(r, "call", "%s", g->failed_call[0] ? g->failed_call : "-");
		res_ev(r, "during", "%s", g->step[0] ? g->step : "-");
		res_ev(r, "library", "%s", g->library[0] ? g->library : "libcuda.so.1");
	}
	if (g->pinned_failed_size) {
		struct strbuf sz = STRBUF_INIT;
		bench_format_size(&sz, g->pinned_failed_size);
		struct result *r = add(v, ST_WARN, KB_BENCH_GPU_PINNED_LIMIT,
				       "pinned host memory: allocating %s failed (%s)", sz.buf,
				       g->pinned_error[0] ? g->pinned_error : "error");
		res_ev(r, "size", "%s", sz.buf);
		res_ev(r, "error", "%s", g->pinned_error);
		sb_release(&sz);
	}

	uint64_t hs = 0, ds = 0;
	double h2d = largest(g, BENCH_H2D_PINNED, &hs), d2h = largest(g, BENCH_D2H_PINNED, &ds);
	const char *mem = "pinned";
	if (h2d == 0 && d2h == 0) {
		h2d = largest(g, BENCH_H2D_PAGEABLE, &hs);
		d2h = largest(g, BENCH_D2H_PAGEABLE, &ds);
		mem = "pageable";
	}
	double theo = bench_pcie_bytes_per_s(g->pcie_gen, g->pcie_width);
	if ((h2d > 0 || d2h > 0) && theo > 0) {
		double fh = h2d / theo, fd = d2h / theo;
		double worst = h2d > 0 && d2h > 0 ? fmin(fh, fd) : fmax(fh, fd);
		struct result *r;
		if (worst < 0.5)
			r = add(v, ST_WARN, KB_BENCH_GPU_PCIE_LOW,
				"copies reach %.0f%% (host→device) and %.0f%% (device→host) of the "
				"PCIe %d.0 x%d link's %.1f GB/s",
				fh * 100, fd * 100, g->pcie_gen, g->pcie_width, theo / 1e9);
		else
			r = add(v, ST_PASS, NULL,
				"copies reach %.0f%% (host→device) and %.0f%% (device→host) of the "
				"PCIe %d.0 x%d link's %.1f GB/s",
				fh * 100, fd * 100, g->pcie_gen, g->pcie_width, theo / 1e9);
		res_ev(r, "link", "PCIe %d.0 x%d", g->pcie_gen, g->pcie_width);
		res_ev(r, "theoretical", "%.1f GB/s", theo / 1e9);
		res_ev(r, "h2d", "%.1f GB/s", h2d / 1e9);
		res_ev(r, "d2h", "%.1f GB/s", d2h / 1e9);
		res_ev(r, "memory", "%s", mem);
	} else if (h2d > 0 || d2h > 0) {
		struct result *r = add(v, ST_PASS, NULL,
				       "copies: %.1f GB/s host→device, %.1f GB/s device→host (%s); "
				       "PCIe link unknown%s%s",
				       h2d / 1e9, d2h / 1e9, mem, g->pcie_note[0] ? ": " : "",
				       g->pcie_note);
		res_ev(r, "link", "unknown");
	}

	if (g->sync_launches || g->stream_launches) {
		double sync = g->sync_median_us, each = g->stream_us_per_launch;
		bool slow = each > 3 * BENCH_NATIVE_LAUNCH_US || sync > 10 * BENCH_NATIVE_LAUNCH_US;
		struct result *r = add(v, slow ? ST_WARN : ST_PASS, slow ? KB_BENCH_GPU_LAUNCH_SLOW : NULL,
				       "kernel launch: %.1f µs round trip (median), %.1f µs each "
				       "back-to-back; native Linux is about %.0f µs",
				       sync, each, BENCH_NATIVE_LAUNCH_US);
		res_ev(r, "sync_us", "%.1f", sync);
		res_ev(r, "each_us", "%.1f", each);
		res_ev(r, "native_us", "%.0f", BENCH_NATIVE_LAUNCH_US);
	}

	struct strbuf s = STRBUF_INIT;
	const struct result *worst = NULL;
	for (size_t i = 0; i < v->n; i++)
		if (v->findings[i].status != ST_PASS &&
		    (!worst || status_severity(v->findings[i].status, false) > status_severity(worst->status, false)))
			worst = &v->findings[i];
	if (worst && worst->status == ST_FAIL)
		sb_add(&s, "the GPU path could not be measured to the end");
	else if (worst)
		sb_add(&s, worst->detail);
	else if (g->ok)
		sb_add(&s, "no problem found on the GPU path");
	else
		sb_add(&s, "the GPU benchmark did not finish");
	v->summary = sb_detach(&s);
}

void bench_verdict_release(struct bench_verdict *v)
{
	for (size_t i = 0; i < v->n; i++)
		result_release(&v->findings[i]);
	free(v->findings);
	free(v->summary);
	free(v->fastest);
	memset(v, 0, sizeof *v);
}
