/* stats.c: size parsing and formatting, percentiles. See stats.h. */
#include "stats.h"
#include "bench.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int bench_parse_size(const char *s, uint64_t *out)
{
	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	uint64_t v = 0;
	const char *p = s;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	unsigned shift = 0;
	switch (tolower((unsigned char)*p)) {
	case 'k': shift = 10; break;
	case 'm': shift = 20; break;
	case 'g': shift = 30; break;
	case 't': shift = 40; break;
	case 'b': if (p[1] == '\0') p++; break; /* "512B" */
	case '\0': break;
	default: return -EINVAL;
	}
	if (shift) {
		p++;
		if (tolower((unsigned char)*p) == 'i')
			p++;
		if (tolower((unsigned char)*p) == 'b')
			p++;
	}
	if (*p != '\0')
		return -EINVAL;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = v << shift;
	return 0;
}

static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };

/* Scales v to the largest unit it reaches; returns the unit index. */
static int scale(double *v)
{
	int u = 0;
	while (*v >= 1024.0 && u < (int)(sizeof units / sizeof units[0]) - 1) {
		*v /= 1024.0;
		u++;
	}
	return u;
}

static void add_scaled(struct strbuf *sb, double v, const char *suffix)
{
	int u = scale(&v);
	if (u == 0 || v == floor(v) || v >= 100)
		sb_addf(sb, "%.0f %s%s", v, units[u], suffix);
	else
		sb_addf(sb, "%.1f %s%s", v, units[u], suffix);
}

void bench_format_size(struct strbuf *sb, uint64_t bytes)
{
	add_scaled(sb, (double)bytes, "");
}

void bench_format_rate(struct strbuf *sb, double bytes_per_s)
{
	if (!(bytes_per_s >= 0) || isinf(bytes_per_s)) {
		sb_add(sb, "?");
		return;
	}
	add_scaled(sb, bytes_per_s, "/s");
}

void bench_format_ratio(struct strbuf *sb, double ratio)
{
	if (!(ratio > 0) || isinf(ratio))
		sb_add(sb, "?×");
	else if (ratio < 10)
		sb_addf(sb, "%.1f×", ratio);
	else
		sb_addf(sb, "%.0f×", ratio);
}

double bench_percentile_sorted(const double *sorted, size_t n, double p)
{
	if (n == 0)
		return 0;
	if (p <= 0)
		return sorted[0];
	if (p >= 100)
		return sorted[n - 1];
	double rank = p / 100.0 * (double)(n - 1);
	size_t lo = (size_t)rank;
	double frac = rank - (double)lo;
	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + (sorted[lo + 1] - sorted[lo]) * frac;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void bench_summarise(double *v, size_t n, struct bench_summary *out)
{
	memset(out, 0, sizeof *out);
	out->n = n;
	if (n == 0)
		return;
	qsort(v, n, sizeof *v, cmp_double);
	for (size_t i = 0; i < n; i++)
		out->total += v[i];
	out->mean = out->total / (double)n;
	out->min = v[0];
	out->max = v[n - 1];
	out->median = bench_percentile_sorted(v, n, 50);
	out->p99 = bench_percentile_sorted(v, n, 99);
}

void bench_spread_of(const struct bench_trials *t, struct bench_spread *out)
{
	memset(out, 0, sizeof *out);
	double v[BENCH_IO_MAX_TRIALS];
	unsigned n = 0;
	for (unsigned i = 0; i < t->n && i < BENCH_IO_MAX_TRIALS; i++)
		if (t->v[i] > 0 && isfinite(t->v[i]))
			v[n++] = t->v[i];
	out->n = n;
	if (n == 0)
		return;
	struct bench_summary s;
	bench_summarise(v, n, &s);
	out->median = s.median;
	out->min = s.min;
	out->max = s.max;
	if (n > 1 && s.median > 0)
		out->noise = fmax(s.max - s.median, s.median - s.min) / s.median;
}
