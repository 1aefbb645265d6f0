/*
 * check.c: `wslgpu check` — run the chain of checks and report.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/json.h"
#include "../core/proc.h"
#include "../core/registry.h"
#include "../core/runner.h"
#include "../report/report.h"
#include "cli.h"

static void check_help(FILE *f)
{
	fputs("usage: wslgpu check [OPTIONS]\n"
	      "\n"
	      "Proves the GPU compute chain in order (platform, bridge, host, libs, cuda,\n"
	      "nvml, toolkit, frameworks, containers, perf) and says which layer is broken,\n"
	      "why, and what to type to fix it.\n"
	      "\n"
	      "  -v, --verbose        show the evidence behind each decision and its time\n"
	      "      --json           print the report as JSON (schema wslgpu/check/1)\n"
	      "      --only LIST      run only these layers or check ids (comma-separated)\n"
	      "      --list           list every check id with a one-line description\n"
	      "      --root DIR       describe the machine whose root file system is DIR\n"
	      "      --data PATH      also check where this dataset lives (repeatable)\n"
	      "      --timeout SEC    time limit per probe (default 10)\n"
	      "      --strict         exit 1 on warnings too\n"
	      "      --windows        also ask the Windows side (needs interop)\n"
	      "      --python PATH    also probe the frameworks of this interpreter (repeatable)\n"
	      "      --docker-image IMAGE\n"
	      "                       also run 'docker run --rm --gpus all IMAGE nvidia-smi'\n"
	      "      --color WHEN     auto (default), always or never; NO_COLOR is honoured\n"
	      "  -h, --help           show this help\n"
	      "\n"
	      "Exit status: 0 no failures, 1 a check failed, crashed or timed out,\n"
	      "2 usage error, 3 the tool itself could not run.\n",
	      f);
}

static void list_checks(bool json)
{
	size_t nl, n;
	const struct layer_def *layers = registry_layers(&nl);
	const struct check_def *defs = registry_checks(&n);
	struct strbuf sb = STRBUF_INIT;
	if (json)
		sb_add(&sb, "{\"schema\":\"wslgpu/checks/1\",\"checks\":[");
	bool first = true;
	for (size_t l = 0; l < nl; l++) {
		if (!json)
			sb_addf(&sb, "%-10s %s\n", layers[l].name, layers[l].title);
		for (size_t i = 0; i < n; i++) {
			if (strcmp(defs[i].layer, layers[l].name) != 0)
				continue;
			if (json) {
				sb_add(&sb, first ? "\n{" : ",\n{");
				first = false;
				sb_add(&sb, "\"id\":");
				json_str(&sb, defs[i].id);
				sb_add(&sb, ",\"layer\":");
				json_str(&sb, defs[i].layer);
				sb_add(&sb, ",\"title\":");
				json_str(&sb, defs[i].title);
				sb_add(&sb, ",\"summary\":");
				json_str(&sb, defs[i].summary);
				sb_add(&sb, ",\"deps\":[");
				for (int d = 0; d < CHECK_MAX_DEPS && defs[i].deps[d]; d++) {
					if (d)
						sb_addc(&sb, ',');
					json_str(&sb, defs[i].deps[d]);
				}
				sb_addf(&sb, "],\"implemented\":%s}", defs[i].run ? "true" : "false");
			} else {
				sb_addf(&sb, "  %-22s %s%s\n", defs[i].id, defs[i].summary,
					defs[i].run ? "" : " (planned)");
			}
		}
	}
	if (json)
		sb_add(&sb, "\n]}\n");
	fputs(sb.buf, stdout);
	sb_release(&sb);
}

/* The live progress line on a terminal's stderr; nothing on a pipe. */
static double progress_last;
static bool progress_shown;

static void show_progress(size_t done, size_t total, const char *waiting_for)
{
	double now = now_ms();
	if (now - progress_last < 100 || !waiting_for)
		return;
	if (!progress_shown && now - progress_last < 300)
		return; /* quick runs never flash a line */
	progress_last = now;
	progress_shown = true;
	fprintf(stderr, "\r\033[Kchecking: %zu/%zu done, waiting for %s", done, total,
		waiting_for);
	fflush(stderr);
}

static void clear_progress(void)
{
	if (progress_shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
}

/* Marks the checks named by a comma-separated --only value. */
static int select_only(const char *list, bool *want)
{
	size_t n;
	const struct check_def *defs = registry_checks(&n);
	char *copy = xstrdup(list), *save = NULL;
	int rc = 0;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		bool hit = false;
		for (size_t i = 0; i < n; i++)
			if (strcmp(defs[i].id, tok) == 0 || strcmp(defs[i].layer, tok) == 0) {
				want[i] = true;
				hit = true;
			}
		if (!hit) {
			cli_usage_error("check", "--only: '%s' is neither a layer nor a check id "
				       "(see 'wslgpu check --list')", tok);
			rc = -1;
			break;
		}
	}
	free(copy);
	return rc;
}

int cmd_check(int argc, char **argv)
{
	enum { OPT_JSON = 256, OPT_ONLY, OPT_LIST, OPT_ROOT, OPT_DATA, OPT_TIMEOUT,
	       OPT_STRICT, OPT_WINDOWS, OPT_COLOR, OPT_NO_COLOR, OPT_NO_FORK,
	       OPT_PYTHON, OPT_DOCKER_IMAGE };
	static const struct option longopts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "data", required_argument, NULL, OPT_DATA },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "windows", no_argument, NULL, OPT_WINDOWS },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "no-color", no_argument, NULL, OPT_NO_COLOR },
		{ "no-fork", no_argument, NULL, OPT_NO_FORK },
		{ "python", required_argument, NULL, OPT_PYTHON },
		{ "docker-image", required_argument, NULL, OPT_DOCKER_IMAGE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	size_t n;
	registry_checks(&n);
	bool *want = xcalloc(n, sizeof *want);
	bool *shown = xcalloc(n, sizeof *shown);
	bool verbose = false, json = false, list = false, strict = false, only = false;
	int color = -1, rc = EXIT_OK;
	struct run_opts opts = { .timeout_ms = 10000, .max_parallel = 16 };
	const char **data = NULL;
	size_t ndata = 0;
	const char **pythons = NULL;
	size_t npythons = 0;

	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'v': verbose = true; break;
		case OPT_JSON: json = true; break;
		case OPT_LIST: list = true; break;
		case OPT_STRICT: strict = true; break;
		case OPT_WINDOWS: opts.windows = true; break;
		case OPT_NO_COLOR: color = 0; break;
		case OPT_NO_FORK: opts.no_fork = true; break;
		case OPT_ONLY:
			only = true;
			if (select_only(optarg, want) < 0) {
				rc = EXIT_USAGE;
				goto out;
			}
			break;
		case OPT_ROOT:
			if ((rc = cli_set_root(optarg)))
				goto out;
			break;
		case OPT_DATA:
			data = xrealloc(data, (ndata + 1) * sizeof *data);
			data[ndata++] = optarg;
			break;
		case OPT_PYTHON:
			pythons = xrealloc(pythons, (npythons + 1) * sizeof *pythons);
			pythons[npythons++] = optarg;
			break;
		case OPT_DOCKER_IMAGE:
			if (!*optarg) {
				cli_usage_error("check", "--docker-image: the image name is empty");
				rc = EXIT_USAGE;
				goto out;
			}
			opts.docker_image = optarg;
			break;
		case OPT_TIMEOUT: {
			char *end;
			double s = strtod(optarg, &end);
			if (*end || !(s > 0) || s > 3600) {
				cli_usage_error("check", "--timeout: '%s' is not a number of seconds "
					       "between 0 and 3600", optarg);
				rc = EXIT_USAGE;
				goto out;
			}
			opts.timeout_ms = (int)(s * 1000);
			if (opts.timeout_ms < 1)
				opts.timeout_ms = 1;
			break;
		}
		case OPT_COLOR:
			if (!strcmp(optarg, "auto")) color = -1;
			else if (!strcmp(optarg, "always")) color = 1;
			else if (!strcmp(optarg, "never")) color = 0;
			else {
				cli_usage_error("check", "--color: expected auto, always or never");
				rc = EXIT_USAGE;
				goto out;
			}
			break;
		case 'h':
			check_help(stdout);
			goto out;
		case ':':
			cli_usage_error("check", "option '%s' needs a value", argv[optind - 1]);
			rc = EXIT_USAGE;
			goto out;
		default:
			cli_usage_error("check", "unknown option '%s'", argv[optind - 1]);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	if (optind < argc) {
		cli_usage_error("check", "unexpected argument '%s'", argv[optind]);
		rc = EXIT_USAGE;
		goto out;
	}
	if (list) {
		list_checks(json);
		goto out;
	}
	opts.data_paths = data;
	opts.ndata = ndata;
	opts.pythons = pythons;
	opts.npythons = npythons;
	if (!only)
		for (size_t i = 0; i < n; i++)
			want[i] = true;
	memcpy(shown, want, n * sizeof *want);

	struct result *results = xcalloc(n, sizeof *results);
	if (isatty(2)) {
		progress_last = now_ms();
		opts.progress = show_progress;
	}
	runner_run(&opts, want, results);
	clear_progress();
	/* A selected check skipped because a dependency failed: show that
	 * dependency too, so that --only never hides a broken layer. */
	for (size_t i = 0; i < n; i++) {
		const char *root = shown[i] ? res_get(&results[i], "blocked_by") : NULL;
		int j = root ? registry_find(root) : -1;
		if (j >= 0)
			shown[j] = true;
	}
	struct report rep = { results, shown, n, verbose, false };
	rep.color = cli_want_color(1, color);
	if (json)
		report_json(stdout, &rep);
	else
		report_text(stdout, &rep);
	fflush(stdout);

	struct summary sum;
	report_summarize(&rep, &sum);
	rc = sum.first_failure || (strict && sum.first_warning) ? EXIT_FAILED : EXIT_OK;
	for (size_t i = 0; i < n; i++)
		result_release(&results[i]);
	free(results);
out:
	free(want);
	free(shown);
	free(data);
	free(pythons);
	return rc;
}
