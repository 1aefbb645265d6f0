/*
 * bench.c: `wslgpu bench [io|gpu]` — measure where the data lives and what
 * the GPU path costs, and say what the numbers mean. Without a subcommand
 * both run, io first. The engines and formats are in src/bench/; this file
 * parses options, picks the libcuda to load, and decides the exit status:
 *
 *   0   measured (findings may warn: a slow location, a slow launch path)
 *   1   something could not be measured: a named location failed or was
 *       refused (free space), the GPU benchmark failed, crashed, timed out
 *       or found data changed in a copy
 *   2   usage error;  3  the tool itself could not run
 *   130 / 143  interrupted by SIGINT / SIGTERM (after removing its files)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../bench/bench.h"
#include "../core/error.h"
#include "../core/interrupt.h"
#include "../bench/stats.h"
#include "../core/json.h"
#include "../core/proc.h"
#include "../core/rootfs.h"
#include "../core/runner.h"
#include "../core/text.h"
#include "../probes/registry.h"
#include "checkrun.h"
#include "cli.h"

static int parse_size_opt(const char *opt, const char *v, uint64_t *out, uint64_t max)
{
	int rc = bench_parse_size(v, out);
	if (rc < 0 || *out > max) {
		struct strbuf m = STRBUF_INIT;
		bench_format_size(&m, max);
		cli_usage_error("bench", "%s: '%s' is not a size up to %s (e.g. 4K, 256M, 1G)", opt, v,
				m.buf);
		sb_release(&m);
		return -1;
	}
	return 0;
}

static int parse_count(const char *opt, const char *v, unsigned long max, unsigned *out)
{
	char *end;
	errno = 0;
	unsigned long n = strtoul(v, &end, 10);
	if (!*v || *end || errno || v[0] == '-' || n > max) {
		cli_usage_error("bench", "%s: '%s' is not a whole number up to %lu", opt, v, max);
		return -1;
	}
	*out = (unsigned)n;
	return 0;
}

static int parse_seconds(const char *opt, const char *v, double *out)
{
	return cli_parse_seconds("bench", opt, v, 0.1, 86400, out);
}

/*
 * The file libs.libcuda predicts the loader would pick on the machine the
 * root describes (ld.so.cache and LD_LIBRARY_PATH there), found by running
 * that check; NULL when it makes no prediction.
 */
static char *predicted_libcuda(void)
{
	char *v = checkrun_fact("libs.libcuda", "resolved");
	if (v && v[0] != '/') {
		free(v);
		return NULL;
	}
	return v;
}

/*
 * The libcuda to dlopen, as the cuda layer loads it (src/probes/cuda.c):
 * on the real machine the soname, so the loader searches as an
 * application's would; with --root the file libs.libcuda predicts inside
 * the root, else the first of the places a WSL or native driver puts it.
 */
static char *cuda_library(const char *opt)
{
	struct strbuf h = STRBUF_INIT;
	if (opt) {
		if (rootfs_is_real() || opt[0] != '/')
			return xstrdup(opt);
		if (rootfs_host_path(opt, true, &h) == 0)
			return sb_detach(&h);
		sb_release(&h);
		return xstrdup(opt);
	}
	if (rootfs_is_real())
		return xstrdup("libcuda.so.1");
	char *guest = predicted_libcuda();
	if (guest && rootfs_host_path(guest, true, &h) == 0) {
		free(guest);
		return sb_detach(&h);
	}
	free(guest);
	static const char *const where[] = {
		"/usr/lib/wsl/lib/libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
		"/usr/lib64/libcuda.so.1", "/usr/lib/libcuda.so.1", NULL,
	};
	for (const char *const *w = where; *w; w++)
		if (rootfs_access(*w, R_OK) == 0 && rootfs_host_path(*w, true, &h) == 0)
			return sb_detach(&h);
	/* Nothing there: the WSL path, so that the error says what was tried
	 * (rootfs_host_path names where it would be even when it is not). */
	rootfs_host_path(where[0], true, &h);
	return sb_detach(&h);
}

/* Shows host paths inside the root as the guest paths they stand for
 * (reports name guest paths; see rootfs.h). */
static void guest_paths(char *text, size_t size)
{
	struct strbuf g = STRBUF_INIT;
	rootfs_guest_text(text, &g);
	snprintf(text, size, "%s", g.buf ? g.buf : ""); /* never longer than text */
	sb_release(&g);
}

/*
 * Without io or gpu the operands are paths; a first word that is neither
 * a subcommand nor a directory ("bench disk", "bench gpus") is taken for a
 * mistyped subcommand rather than measured as a path, which would then run
 * the GPU benchmark too. A word with a '/' stays a path.
 */
static bool unknown_subcommand(const char *w)
{
	struct stat st;
	if (strchr(w, '/') || (stat(w, &st) == 0 && S_ISDIR(st.st_mode)))
		return false;
	static const char *const subs[] = { "io", "gpu" };
	const char *near[2];
	size_t k = cli_similar(w, subs, 2, near, 2);
	cli_usage_error("bench", "'%s' is neither a subcommand (io: disk I/O, gpu: the GPU path) "
			"nor a directory%s%s%s", w, k ? "; did you mean '" : "", k ? near[0] : "",
			k ? "'?" : "");
	return true;
}

static int interrupted_exit(const char *what)
{
	char buf[16];
	errorf("interrupted by %s during %s; its files were removed",
		signal_name(interrupt_signal(), buf), what);
	return interrupt_status();
}

/* What the command line asked for. */
struct bench_cmd {
	struct bench_io_params io;
	struct bench_gpu_params gp;
	bool json, csv, verbose, do_io, do_gpu;
	const char *lib_opt;
	const char *const *paths;
	size_t npaths;
};

/* What was measured, for the output. */
struct bench_results {
	struct bench_io_loc *locs;
	size_t nlocs;
	struct bench_verdict vio, vgpu;
	struct bench_gpu *g;
	bool have_io, have_gpu;
};

/* The option callbacks: each value checked where it is parsed. */
#define BENCH_SIZE_OPT(fn, max, nonzero)                                                    \
	static int fn(struct parse_state *ps, const struct cli_option *o, const char *arg,   \
		      void *value)                                                           \
	{                                                                                    \
		(void)ps;                                                                    \
		char name[32];                                                               \
		snprintf(name, sizeof name, "--%s", o->long_name);                           \
		if (parse_size_opt(name, arg, value, (max)) < 0)                             \
			return -1;                                                           \
		if ((nonzero) && !*(uint64_t *)value)                                        \
			return parse_error(ps, "%s: must not be 0", name);                   \
		return 0;                                                                    \
	}
BENCH_SIZE_OPT(opt_io_size_any, 1ull << 40, false)
/* Below one default block a file is read in one call or none (--size is
 * rounded down to whole blocks): no throughput to speak of. */
#define IO_SIZE_MIN (1ull << 20)
static int opt_io_size(struct parse_state *ps, const struct cli_option *o, const char *arg,
		       void *value)
{
	if (opt_io_size_any(ps, o, arg, value) < 0)
		return -1;
	uint64_t v = *(uint64_t *)value;
	if (v && v < IO_SIZE_MIN)
		return parse_error(ps, "--size: '%s' is too small to time a throughput: at least 1M "
				   "(0 skips the sequential phases)", arg);
	return 0;
}
BENCH_SIZE_OPT(opt_block, 1ull << 30, true)
BENCH_SIZE_OPT(opt_file_size, 64ull << 20, false)
BENCH_SIZE_OPT(opt_copy_size, 1ull << 34, false)

static int opt_count(struct parse_state *ps, const struct cli_option *o, const char *arg,
		     void *value)
{
	(void)ps;
	char name[32];
	snprintf(name, sizeof name, "--%s", o->long_name);
	unsigned long max = !strcmp(o->long_name, "device") ? 1024 : 10000000;
	if (!strcmp(o->long_name, "trials")) {
		if (parse_count(name, arg, BENCH_IO_MAX_TRIALS, value) < 0)
			return -1;
		if (!*(unsigned *)value)
			return parse_error(ps, "--trials: must not be 0");
		return 0;
	}
	return parse_count(name, arg, max, value);
}

static int opt_seconds(struct parse_state *ps, const struct cli_option *o, const char *arg,
		       void *value)
{
	(void)ps, (void)o;
	double secs;
	if (parse_seconds("--seconds", arg, &secs) < 0)
		return -1;
	struct bench_cmd *cmd = value;
	cmd->io.seconds = cmd->gp.seconds = secs;
	return 0;
}

static int opt_gpu_timeout(struct parse_state *ps, const struct cli_option *o, const char *arg,
			   void *value)
{
	(void)ps, (void)o;
	double secs;
	if (parse_seconds("--timeout", arg, &secs) < 0)
		return -1;
	*(int *)value = (int)(secs * 1000);
	return 0;
}

static int bench_check(struct parse_state *ps, void *base)
{
	const struct bench_cmd *cmd = base;
	if (cmd->json && cmd->csv)
		return parse_error(ps, "--json and --csv exclude each other");
	return 0;
}

#define ARGS struct bench_cmd
static const struct cli_option bench_options[] = {
	OPT_GROUP("io options:"),
	OPT_CALLBACK(0, "size", ARGS, io.size, "SIZE",
		     "sequential file size (default 256M, at least 1M; K, M, G suffixes)", opt_io_size),
	OPT_CALLBACK(0, "block", ARGS, io.block, "SIZE", "bytes per read/write call (default 1M)",
		     opt_block),
	OPT_CALLBACK(0, "files", ARGS, io.files, "N",
		     "small files to create, stat, read and delete (2000)", opt_count),
	OPT_CALLBACK(0, "file-size", ARGS, io.file_size, "SIZE",
		     "bytes per small file (default 4K)", opt_file_size),
	OPT_CALLBACK(0, "trials", ARGS, io.trials, "N",
		     "trials at each location, compared by their medians and spread (default 3, "
		     "at most 10)", opt_count),
	OPT_GROUP("gpu options:"),
	OPT_CALLBACK(0, "device", ARGS, gp.device, "N", "GPU ordinal (default 0)", opt_count),
	OPT_CALLBACK(0, "min-size", ARGS, gp.min_size, "SIZE",
		     "smallest copy (default 4K); sizes grow by 4x", opt_copy_size),
	OPT_CALLBACK(0, "max-size", ARGS, gp.max_size, "SIZE", "largest copy (default 256M)",
		     opt_copy_size),
	OPT_CALLBACK(0, "launches", ARGS, gp.launches, "N",
		     "timed synchronous launches (default 5000)", opt_count),
	OPT_CALLBACK(0, "batch", ARGS, gp.stream_launches, "N",
		     "launches issued back to back (default 20000)", opt_count),
	OPT_FILE(0, "lib", ARGS, lib_opt, "PATH",
		 "the libcuda to load (default libcuda.so.1, found as an application would; with "
		 "--root, the fixture's copy)"),
	OPT_CALLBACK(0, "timeout", ARGS, gp.timeout_ms, "SEC",
		     "time limit for the whole GPU run (default 120)", opt_gpu_timeout),
	OPT_GROUP("common options:"),
	{ .type = OPTION_CALLBACK, .long_name = "seconds", .offset = 0, .argh = "SEC",
	  .help = "time bound per phase (default 10; io: shared by the trials)",
	  .callback = opt_seconds },
	OPT_BOOL(0, "json", ARGS, json, "JSON (schema wslgpu/bench/1)"),
	OPT_BOOL(0, "csv", ARGS, csv, "CSV, one row per number"),
	{ .type = OPTION_CALLBACK, .long_name = "root", .argh = "DIR",
	  .help = "describe the machine whose root file system is DIR", .callback = cli_opt_root,
	  .complete = COMPLETE_DIR },
	{ .type = OPTION_CALLBACK, .long_name = "color", .argh = "WHEN",
	  .help = "auto, always or never; NO_COLOR makes never the default",
	  .callback = cli_opt_color, .complete = COMPLETE_WORDS, .words = "auto always never" },
	{ .type = OPTION_CALLBACK, .long_name = "no-color", .help = "the same as --color never",
	  .callback = cli_opt_no_color, .flags = OPT_HIDDEN },
	OPT_BOOL('v', "verbose", ARGS, verbose, "also show the sources behind each finding"),
	OPT_END(),
};
#undef ARGS

static const char *const bench_usage[] = { "wslgpu bench [io|gpu] [OPTIONS] [PATH...]", NULL };

const struct cli_command bench_command = {
	.name = "bench",
	.run = cmd_bench,
	.summary = "measure disk I/O where the data lives, and the GPU path",
	.root = ROOT_USED,
	.usage = bench_usage,
	.about = "  io    sequential throughput and the small-file workload in each PATH\n"
		 "        (default: the current directory, $HOME and, on WSL, the Windows\n"
		 "        profile directory /mnt/c/Users/<name> or /mnt/c/tmp), compared\n"
		 "  gpu   host<->device copy bandwidth (pageable and pinned) by size,\n"
		 "        device<->device copies and kernel-launch latency\n"
		 "  (none) both, io first\n",
	.options = bench_options,
	.epilog = "Exit status: 0 measured (findings may warn), 1 something could not be\n"
		  "measured (a location failed, the GPU run failed or crashed), 2 usage error,\n"
		  "3 the tool could not run or could not write its output, 130/143 interrupted\n"
		  "(scratch files removed).\n",
	.check = bench_check,
};

/* Parses the options into cmd; returns -1 to go on, else the exit status. */
static int bench_parse(int argc, char **argv, struct bench_cmd *cmd)
{
	struct bench_io_params *io = &cmd->io;
	struct bench_gpu_params *gp = &cmd->gp;
	int nops = parse_options(&bench_command, argc, argv, cmd);
	if (nops < 0)
		return parse_exit(nops);
	argc = nops;
	cmd->do_io = cmd->do_gpu = true;
	int first = 0;
	if (first < argc && !strcmp(argv[first], "io")) {
		cmd->do_gpu = false;
		first++;
	} else if (first < argc && !strcmp(argv[first], "gpu")) {
		cmd->do_io = false;
		first++;
	} else if (first < argc && unknown_subcommand(argv[first])) {
		return EXIT_USAGE;
	}
	if (!cmd->do_io && first < argc) {
		cli_usage_error("bench", "bench gpu takes no paths ('%s')", argv[first]);
		return EXIT_USAGE;
	}
	if (gp->min_size == 0 || gp->min_size > gp->max_size) {
		cli_usage_error("bench", "--min-size must be between 1 byte and --max-size");
		return EXIT_USAGE;
	}
	cmd->paths = (const char *const *)argv + first;
	cmd->npaths = (size_t)(argc - first);
	/* The sequential file is a whole number of blocks. */
	if (io->size && io->block > io->size)
		io->block = io->size;
	io->size = io->size / io->block * io->block;
	io->progress = gp->progress = isatty(2);
	return -1;
}

/* Each finding's fixes are chosen for the platform of the machine the root
 * describes, as check's are (finding_for_platform): no wsl.exe step on
 * native Linux. platform.kind runs once, and only when there are findings. */
static void mark_platform(struct bench_results *res)
{
	struct bench_verdict *v[] = { &res->vio, &res->vgpu };
	if (!res->vio.n && !res->vgpu.n)
		return;
	const char *kind = checkrun_platform_kind();
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < v[k]->n; i++)
			v[k]->findings[i].platform = kind;
}

/* Measures each location; returns the exit status so far, or -EINTR. */
static int bench_run_io(struct bench_cmd *cmd, struct bench_results *res)
{
	bench_io_locations(cmd->paths, cmd->npaths, &res->locs, &res->nlocs);
	/* The locations take turns, trial by trial, so that a burst of other
	 * work on the machine falls on one trial of each rather than on every
	 * trial of one. */
	for (unsigned t = 0; t < cmd->io.trials; t++)
		for (size_t i = 0; i < res->nlocs; i++)
			if (bench_io_run(&res->locs[i], &cmd->io) == -EINTR)
				return -EINTR;
	bench_verdict_io(res->locs, res->nlocs, &res->vio);
	res->have_io = true;
	int rc = EXIT_OK;
	bool measured = false;
	for (size_t i = 0; i < res->nlocs; i++) {
		if (res->locs[i].state == BENCH_LOC_FAILED)
			rc = EXIT_FAILED;
		measured |= res->locs[i].state == BENCH_LOC_DONE;
	}
	return measured ? rc : EXIT_FAILED;
}

/* Measures the GPU; returns the exit status so far, or -EINTR. */
static int bench_run_gpu(struct bench_cmd *cmd, struct bench_results *res)
{
	char *lib = cuda_library(cmd->lib_opt);
	cmd->gp.library = lib;
	res->g = xcalloc(1, sizeof *res->g);
	int r = bench_gpu_run(&cmd->gp, res->g);
	free(lib);
	cmd->gp.library = NULL;
	if (r == -EINTR)
		return -EINTR;
	guest_paths(res->g->library, sizeof res->g->library);
	guest_paths(res->g->error, sizeof res->g->error);
	bench_verdict_gpu(res->g, &res->vgpu);
	res->have_gpu = true;
	return r < 0 ? EXIT_FAILED : EXIT_OK;
}

static void bench_render(const struct bench_cmd *cmd, const struct bench_results *res,
			 struct strbuf *sb)
{
	if (cmd->json) {
		struct json_writer jw;
		jw_init(&jw, sb);
		bench_json_begin(&jw);
		if (res->have_io)
			bench_json_io(&jw, &cmd->io, res->locs, res->nlocs, &res->vio);
		if (res->have_gpu)
			bench_json_gpu(&jw, res->g, &res->vgpu);
		bench_json_end(&jw);
	} else if (cmd->csv) {
		bench_csv_header(sb);
		if (res->have_io)
			bench_csv_io(sb, res->locs, res->nlocs);
		if (res->have_gpu)
			bench_csv_gpu(sb, res->g);
	} else {
		struct bench_out out = { .color = cli_want_color(1), .utf8 = text_utf8(),
					 .verbose = cmd->verbose };
		if (res->have_io)
			bench_text_io(sb, &out, &cmd->io, res->locs, res->nlocs, &res->vio);
		if (res->have_io && res->have_gpu)
			sb_add(sb, "\n");
		if (res->have_gpu)
			bench_text_gpu(sb, &out, res->g, &res->vgpu);
	}
}

int cmd_bench(int argc, char **argv)
{
	struct bench_cmd cmd = {
		.io = {
			.size = BENCH_IO_DEFAULT_SIZE,
			.block = BENCH_IO_DEFAULT_BLOCK,
			.files = BENCH_IO_DEFAULT_FILES,
			.file_size = BENCH_IO_DEFAULT_FILE_SIZE,
			.seconds = BENCH_IO_DEFAULT_SECONDS,
			.trials = BENCH_IO_DEFAULT_TRIALS,
		},
		.gp = {
			.device = 0,
			.min_size = 4u << 10,
			.max_size = 256u << 20,
			.launches = 5000,
			.stream_launches = 20000,
			.seconds = BENCH_IO_DEFAULT_SECONDS,
			.timeout_ms = 120000,
		},
	};
	int rc = bench_parse(argc, argv, &cmd);
	if (rc >= 0)
		return rc;

	struct bench_results res = { 0 };
	rc = EXIT_OK;
	interrupt_install();
	if (cmd.do_io) {
		int r = bench_run_io(&cmd, &res);
		if (r == -EINTR) {
			rc = interrupted_exit("bench io");
			goto out;
		}
		rc = r;
	}
	if (cmd.do_gpu) {
		int r = bench_run_gpu(&cmd, &res);
		if (r == -EINTR) {
			rc = interrupted_exit("bench gpu");
			goto out;
		}
		if (r != EXIT_OK)
			rc = r;
	}
	mark_platform(&res);
	struct strbuf sb = STRBUF_INIT;
	bench_render(&cmd, &res, &sb);
	fputs(sb_str(&sb), stdout);
	fflush(stdout);
	sb_release(&sb);
out:
	interrupt_restore();
	bench_io_free(res.locs, res.nlocs);
	bench_verdict_release(&res.vio);
	bench_verdict_release(&res.vgpu);
	free(res.g);
	return rc;
}
