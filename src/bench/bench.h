/*
 * bench: `wslgpu bench io` and `wslgpu bench gpu` — measure where the data
 * lives and what the GPU path costs, and say what the numbers mean.
 *
 * The split follows the rest of the tool: engines measure and fill plain
 * structs (io.c, gpu.c), verdict.c turns numbers into findings that name a
 * knowledge-base entry (src/kb/bench.kb), and output.c is the only code
 * that prints them (table, bar chart, JSON "wslgpu/bench/1", CSV). The
 * command (src/cli/bench.c) parses options and decides the exit status.
 *
 * Performance is measured, never asserted: the tests check the method
 * (warm-up, verification, cleanup, error paths, output shape), not speed.
 */
#ifndef WSLGPU_BENCH_H
#define WSLGPU_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/result.h"
#include "../core/strbuf.h"

/* ---- bench io ---- */

#define BENCH_IO_DEFAULT_SIZE (256ull << 20)
#define BENCH_IO_DEFAULT_BLOCK (1ull << 20)
#define BENCH_IO_DEFAULT_FILES 2000u
#define BENCH_IO_DEFAULT_FILE_SIZE (4ull << 10)
#define BENCH_IO_DEFAULT_SECONDS 10.0
/* Trials per location: one sample says nothing about its own noise (a
 * burst of other I/O, a cache flush), so each location is measured
 * several times, the locations taking turns, and the medians compared. */
#define BENCH_IO_DEFAULT_TRIALS 3u
#define BENCH_IO_MAX_TRIALS 10u
/* Free space kept beyond what the benchmark writes: the larger of this and
 * a tenth of what it writes, so that we never fill a disk to the brim. */
#define BENCH_IO_MARGIN (64ull << 20)

struct bench_io_params {
	uint64_t size;      /* bytes of the sequential file (a whole number of blocks) */
	uint64_t block;     /* bytes per read/write call */
	unsigned files;     /* small files */
	uint64_t file_size; /* bytes per small file */
	double seconds;     /* time bound per phase, shared by the trials */
	unsigned trials;    /* at each location, 1..BENCH_IO_MAX_TRIALS */
	bool progress;      /* one updating line on stderr (a terminal only) */
};

/* Each trial's time bound for a phase: --seconds shared by the trials, so
 * that more trials never make a slow location take longer. */
double bench_io_phase_seconds(const struct bench_io_params *p);

enum bench_op { BENCH_OP_CREATE, BENCH_OP_STAT, BENCH_OP_READ, BENCH_OP_DELETE, BENCH_OP__COUNT };
extern const char *const bench_op_names[BENCH_OP__COUNT]; /* "create", ... */

struct bench_opstats {
	size_t ops;        /* operations done (and timed) */
	double seconds;    /* wall time of the whole phase */
	double ops_per_s;
	double median_us, p99_us, mean_us;
};

struct bench_seq {
	uint64_t bytes;
	double seconds;
	double bytes_per_s;
	bool time_bound;   /* stopped by --seconds before --size */
};

/* One figure of a location over its trials, and how far they spread. */
struct bench_trials {
	unsigned n;
	double v[BENCH_IO_MAX_TRIALS];
};

/* The spread of a figure over its trials: median, lowest, highest, and
 * the noise, the largest distance of a trial from the median as a
 * fraction of it (0.12: ±12 %; 0 with fewer than two trials). */
struct bench_spread {
	unsigned n;
	double median, min, max, noise;
};
void bench_spread_of(const struct bench_trials *t, struct bench_spread *out);

/* What one trial at a location measured. */
struct bench_io_trial {
	struct bench_seq write, read;
	struct bench_opstats op[BENCH_OP__COUNT];
	double per_file_us;
	unsigned files_created;
	int cache_resident_pct;
};

enum bench_loc_state {
	BENCH_LOC_PENDING,
	BENCH_LOC_DONE,
	BENCH_LOC_SKIPPED, /* a default location that cannot be used: not a failure */
	BENCH_LOC_FAILED,  /* a named location that could not be measured */
};

struct bench_io_loc {
	char *path;         /* as named (guest path on the described machine) */
	char *resolved;     /* absolute guest path, symlinks followed */
	char *host;         /* where those bytes are on this machine */
	bool named;         /* given on the command line (else a default) */
	char *role;         /* default locations: "current directory", "home", ... */
	char *fstype, *source, *mount_point;
	bool windows_drive;
	enum bench_loc_state state;
	char *error;        /* why skipped or failed */
	char *kb;           /* KB entry explaining the error, or NULL */
	uint64_t free_bytes, need_bytes;
	uint64_t fit_size;  /* refused for space: a --size (and --files) that fits, */
	unsigned fit_files; /* never more than asked; fit_size 0: none fits */
	/* results: each figure the median over the trials (the op
	 * distributions those of the trial whose per-file cost is the median) */
	unsigned trials;    /* trials done */
	struct bench_io_trial trial[BENCH_IO_MAX_TRIALS];
	struct bench_trials t_write, t_read, t_small; /* bytes/s, bytes/s, µs per file */
	char *method;       /* "O_DIRECT" or "buffered+fsync+FADV_DONTNEED" */
	bool direct;
	int cache_resident_pct; /* buffered read: page-cache residency before reading; -1 unknown */
	struct bench_seq write, read;
	unsigned files_created;
	struct bench_opstats op[BENCH_OP__COUNT];
	double per_file_us; /* create + stat + read + delete, mean µs per file */
};

/* Free-space decision (pure): need = what the run writes + margin. */
bool bench_io_space_ok(uint64_t avail, const struct bench_io_params *p, uint64_t *need);
/* A smaller run that fits in avail (pure): *size no more than p->size, a
 * power-of-two multiple of the block (at least 1 MiB), *files no more than
 * p->files. Returns false when even the smallest run does not fit (the
 * margin alone is BENCH_IO_MARGIN): then only freeing space helps. */
bool bench_io_fit(uint64_t avail, const struct bench_io_params *p, uint64_t *size,
		  unsigned *files);

/*
 * The locations to measure: the named paths (relative ones against the
 * current directory: getcwd, or $PWD with --root), or by default the current
 * directory, $HOME and, where a Windows drive C: is mounted, the Windows
 * profile directory /mnt/c/Users/<name> (the one matching $USER, else the
 * only one) or /mnt/c/tmp. Each is resolved and classified by its mount.
 */
void bench_io_locations(const char *const *paths, size_t npaths, struct bench_io_loc **locs,
			size_t *nlocs);
/*
 * Measures one trial at one location: refuses when free space is short,
 * creates a scratch directory with mkdtemp inside it, runs the sequential
 * and small-file phases, and removes everything it created — also when
 * interrupted. Called once per trial (the command lets the locations take
 * turns); the location's figures become the medians of its trials so far.
 * A location that failed is not measured again. Returns 0, or -EINTR when
 * a signal stopped it.
 */
int bench_io_run(struct bench_io_loc *loc, const struct bench_io_params *p);
void bench_io_free(struct bench_io_loc *locs, size_t n);

/* ---- bench gpu ---- */

enum bench_copy {
	BENCH_H2D_PAGEABLE,
	BENCH_D2H_PAGEABLE,
	BENCH_H2D_PINNED,
	BENCH_D2H_PINNED,
	BENCH_D2D,
	BENCH_COPY__COUNT
};
extern const char *const bench_copy_names[BENCH_COPY__COUNT]; /* "h2d_pageable", ... */
extern const char *const bench_copy_titles[BENCH_COPY__COUNT]; /* "host→device (pageable)" */

#define BENCH_GPU_MAX_SIZES 16

struct bench_gpu_params {
	const char *library;         /* soname or host path for dlopen ("libcuda.so.1") */
	int device;
	uint64_t min_size, max_size; /* powers of 4 between them */
	unsigned launches;           /* timed synchronous launches */
	unsigned stream_launches;    /* back-to-back launches before one sync */
	double seconds;              /* time bound per copy kind */
	int timeout_ms;              /* the whole child process */
	bool progress;
};

struct bench_gpu_point {
	uint64_t size;
	bool measured;
	unsigned reps;        /* timed copies */
	double seconds;       /* event time of the timed copies */
	double bytes_per_s;
	bool verified;        /* pattern compared after the copy */
};

/* Plain data only: it is filled by the child in shared memory. */
struct bench_gpu {
	/* outcome */
	int ok;                  /* 1 when every phase ran */
	char error[512];         /* first error, "" when none */
	char error_kb[64];       /* KB id for the error */
	char failed_call[64];    /* the CUDA call that failed, "" when none */
	int failed_code;         /* its CUresult */
	char step[160];          /* what the child was doing (for crashes) */
	/* the device */
	char library[512];       /* path of the libcuda loaded */
	int driver_version;      /* cuDriverGetVersion */
	int device;
	char name[128];
	int cc_major, cc_minor;
	uint64_t total_mem;
	int pcie_gen, pcie_width;    /* 0 = unknown */
	char pcie_note[160];         /* why unknown */
	/* copies */
	size_t nsizes;
	uint64_t sizes[BENCH_GPU_MAX_SIZES];
	struct bench_gpu_point copy[BENCH_COPY__COUNT][BENCH_GPU_MAX_SIZES];
	uint64_t pinned_failed_size; /* 0 = every pinned allocation worked */
	char pinned_error[160];
	/* launches */
	unsigned sync_launches;
	double sync_median_us, sync_p99_us;
	unsigned stream_launches;
	double stream_us_per_launch, stream_launches_per_s;
	/* the method, for the record (and the tests) */
	unsigned warmup_copies, warmup_launches;
	unsigned verified_copies;
	unsigned allocations, frees;  /* device + pinned host allocations made and freed */
};

/*
 * Runs the GPU benchmark in a forked child with a time limit: a crash or
 * hang inside libcuda becomes an error in g, not a crash of the tool.
 * Returns 0 when it ran to the end (g->ok), -EIO when it stopped with an
 * error (g->error says why), -EINTR when interrupted.
 */
int bench_gpu_run(const struct bench_gpu_params *p, struct bench_gpu *g);
/* The same in this process (what the child calls). */
void bench_gpu_measure(const struct bench_gpu_params *p, struct bench_gpu *g);

/* Theoretical one-direction PCIe rate in bytes/s for a link; 0 if unknown. */
double bench_pcie_bytes_per_s(int gen, int width);
/* PCIe generation from sysfs's current_link_speed ("16.0 GT/s PCIe",
 * "8 GT/s", "2.5 GT/s"); 0 when it names no known rate. */
int bench_pcie_gen_from_speed(const char *buf, size_t len);

/* The copy-verification pattern: 32-bit words i*2654435761 ^ seed (the
 * formula of the wslgpu_fill kernel), any tail bytes from the same words.
 * bench_check_pattern returns 0, or -1 with the first wrong byte's offset. */
void bench_fill_pattern(unsigned char *buf, size_t n, unsigned seed);
int bench_check_pattern(const unsigned char *buf, size_t n, unsigned seed, size_t *bad);

/* ---- verdicts ---- */

/* Above this ratio to the fastest location, a location is called slow:
 * by the medians, and also between its best trial and the fastest
 * location's worst, so that the difference is beyond the noise of both. */
#define BENCH_SLOW_RATIO 2.0
/* Native null-kernel launch overhead we compare with (µs); see bench.kb. */
#define BENCH_NATIVE_LAUNCH_US 3.0

struct bench_verdict {
	enum status status;      /* ST_PASS, ST_WARN or ST_FAIL */
	char *summary;           /* one line */
	struct result *findings; /* each: status, KB id, detail, evidence */
	size_t n;
	char *fastest;           /* io: the fastest location for small files */
	size_t noisy;            /* io: differences of BENCH_SLOW_RATIO the trials could
				  * not tell from noise */
	double noise;            /* io: the largest spread among those, a fraction */
	size_t untested;         /* io: ratios from one trial, which has no noise to
				  * measure */
	double noise_all;        /* io: the largest spread of any comparison made */
};

void bench_verdict_io(const struct bench_io_loc *locs, size_t n, struct bench_verdict *v);
void bench_verdict_gpu(const struct bench_gpu *g, struct bench_verdict *v);
void bench_verdict_release(struct bench_verdict *v);

/* ---- output ---- */

struct bench_out {
	bool color;
	bool utf8;
	bool verbose;
};

void bench_text_io(struct strbuf *sb, const struct bench_out *o, const struct bench_io_params *p,
		   const struct bench_io_loc *locs, size_t n, const struct bench_verdict *v);
void bench_text_gpu(struct strbuf *sb, const struct bench_out *o, const struct bench_gpu *g,
		    const struct bench_verdict *v);
/* JSON: bench_json_begin, then any of the parts, then bench_json_end. */
struct json_writer;
void bench_json_begin(struct json_writer *jw);
void bench_json_io(struct json_writer *jw, const struct bench_io_params *p,
		   const struct bench_io_loc *locs, size_t n, const struct bench_verdict *v);
void bench_json_gpu(struct json_writer *jw, const struct bench_gpu *g,
		    const struct bench_verdict *v);
void bench_json_end(struct json_writer *jw);
/* CSV: one header, then one row per measured number. */
void bench_csv_header(struct strbuf *sb);
void bench_csv_io(struct strbuf *sb, const struct bench_io_loc *locs, size_t n);
void bench_csv_gpu(struct strbuf *sb, const struct bench_gpu *g);
/* A horizontal bar of width cells for value/max, in Unicode eighths or '#'. */
void bench_bar(struct strbuf *sb, double value, double max, int width, bool utf8);

#endif
