/*
 * stats: the small, pure arithmetic of the benchmarks: sizes as people type
 * them ("256M"), sizes and ratios as people read them ("256 MiB", "38×"),
 * and the order statistics we report (median and p99 of per-operation
 * times).
 *
 * Percentiles use linear interpolation between the closest ranks (the
 * method numpy and most spreadsheets call "linear"): the p-th percentile of
 * n sorted values sits at rank p/100 * (n - 1). So the median of an even
 * count is the mean of the two middle values, and p99 of fewer than 100
 * samples lies between the two largest ones instead of being the maximum.
 */
#ifndef WSLGPU_BENCH_STATS_H
#define WSLGPU_BENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "../core/strbuf.h"

/*
 * Parses a size: digits, then an optional unit K, M, G or T (binary:
 * 1K = 1024), case-insensitive, optionally followed by "i", "iB" or "B"
 * ("64k", "256M", "1GiB", "4096", "512B"). No sign, no fraction, no
 * spaces. Returns 0, -EINVAL for anything else, -ERANGE when it does not fit
 * in 64 bits.
 */
int bench_parse_size(const char *s, uint64_t *out);

/* "512 B", "4 KiB", "256 MiB", "1.5 GiB": whole numbers stay whole. */
void bench_format_size(struct strbuf *sb, uint64_t bytes);
/* The same for rates in bytes per second: "1.2 GiB/s", "38.4 MiB/s". */
void bench_format_rate(struct strbuf *sb, double bytes_per_s);
/* A ratio as people say it: "2.4×" below 10, "38×" from 10 on. */
void bench_format_ratio(struct strbuf *sb, double ratio);

/* Percentile p (0..100) of n values sorted in ascending order; 0 when n is 0. */
double bench_percentile_sorted(const double *sorted, size_t n, double p);

struct bench_summary {
	size_t n;
	double total, mean, min, median, p99, max;
};

/* Sorts v[0..n) in place and summarises it. */
void bench_summarise(double *v, size_t n, struct bench_summary *out);

#endif
