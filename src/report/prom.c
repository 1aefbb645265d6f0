/*
 * prom.c: the smoke run as Prometheus text exposition format 0.0.4, for
 * node_exporter's textfile collector (smoke writes the file atomically) and
 * for the Pushgateway (src/net/push.c sends the same text).
 *
 * Every family is a gauge with HELP and TYPE lines. A check's status is a
 * "state set": one series per possible status, 1 for the current one and 0
 * for the others, so that an alert is `wslgpu_check_status{status="fail"}
 * == 1` and a status change never leaves a stale series behind (a numeric
 * status code would need a lookup table in every dashboard). Cardinality is
 * bounded by the check table: checks x 6 statuses, plus one series per
 * check for duration and tolerance; no label holds free text except the
 * machine facts of the *_info families (one series each, clipped).
 *
 * The fleet's alerts (deploy/prometheus/alerts.yml) compare runs: a kernel
 * change is an info series whose label changed (kernel_info), a driver
 * downgrade a number that went down (wslgpu_driver_version; a version
 * string cannot be compared in PromQL). Keep the two in step with the
 * rules and the dashboard (deploy/grafana/wslgpu.json).
 *
 * Label values come from the machine, so they are escaped as the format
 * asks (backslash, double quote, newline), invalid UTF-8 and other control
 * characters become U+FFFD, and they are clipped to LABEL_MAX bytes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/check.h"
#include "../core/json.h"
#include "../core/utf8.h"
#include "../parse/version.h"
#include "../version.h"
#include "outfacts.h"
#include "outputs.h"

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */
#define LABEL_MAX 256

/* What the exposition format escapes in a label value (backslash,
 * double quote, newline) and in HELP text (backslash and newline only);
 * controls and invalid UTF-8 become U+FFFD, a tab a space. */
static void prom_put(struct strbuf *sb, const unsigned char *p, int n, const void *ctx)
{
	bool in_help = *(const bool *)ctx;
	if (n == 0)
		sb_add(sb, REPLACEMENT);
	else if (n > 1)
		sb_addn(sb, p, (size_t)n);
	else if (p[0] == '\\')
		sb_add(sb, "\\\\");
	else if (p[0] == '"')
		sb_add(sb, in_help ? "\"" : "\\\"");
	else if (p[0] == '\n')
		sb_add(sb, "\\n");
	else
		sb_add(sb, p[0] == '\t' ? " " : REPLACEMENT);
}

/* Appends s as the inside of a label value (in_help: as HELP text, where
 * the format escapes only backslash and newline). */
static void prom_esc(struct strbuf *sb, const char *s, bool in_help)
{
	struct utf8_escape e = { "\\\"", prom_put, &in_help, LABEL_MAX };
	utf8_escape(sb, s, strlen(s), &e);
}

static void family(struct strbuf *sb, const char *name, const char *help)
{
	sb_addf(sb, "# HELP %s ", name);
	prom_esc(sb, help, true);
	sb_addf(sb, "\n# TYPE %s gauge\n", name);
}

/* Starts a sample: NAME{ ; labels follow with label(), then end(). */
static void sample(struct strbuf *sb, const char *name)
{
	sb_addf(sb, "%s{", name);
}

static void label(struct strbuf *sb, const char *name, const char *val)
{
	if (sb->len && sb->buf[sb->len - 1] != '{')
		sb_addc(sb, ',');
	sb_addf(sb, "%s=\"", name);
	prom_esc(sb, val ? val : "", false);
	sb_addc(sb, '"');
}

static void end(struct strbuf *sb, double v)
{
	/* "name{}" is valid but looks odd; drop empty braces. */
	if (sb->len && sb->buf[sb->len - 1] == '{')
		sb->buf[--sb->len] = '\0';
	else
		sb_addc(sb, '}');
	if (v == floor(v) && fabs(v) < 1e15)
		sb_addf(sb, " %.0f\n", v);
	else
		sb_addf(sb, " %.6g\n", v);
}

static void plain(struct strbuf *sb, const char *name, const char *help, double v)
{
	family(sb, name, help);
	sample(sb, name);
	end(sb, v);
}

/* Figures some checks measure on the way, exported in base units. The
 * probes record them as evidence (src/probes/cuda.c, cuda.kernel). */
struct figure {
	const char *check, *key;
	const char *metric, *help;
	const char *label, *label_val; /* NULL: no label */
	double scale;                  /* to base units */
};
static const struct figure figures[] = {
	{ "cuda.kernel", "jit_ms", "wslgpu_cuda_ptx_jit_seconds",
	  "Time the driver took to load (JIT-compile) the embedded PTX kernel, cuda.kernel.",
	  NULL, NULL, 1e-3 },
	{ "cuda.kernel", "first_launch_ms", "wslgpu_cuda_kernel_launch_seconds",
	  "Wall time of a verified launch of the embedded fill kernel, cuda.kernel; the "
	  "first launch includes loading the module.", "launch", "first", 1e-3 },
	{ "cuda.kernel", "second_launch_ms", "wslgpu_cuda_kernel_launch_seconds",
	  NULL, "launch", "second", 1e-3 },
};
#define NFIGURES (sizeof figures / sizeof figures[0])

static bool in_prom(const struct report *rep, size_t i)
{
	return rep->shown[i] && rep->results[i].ran && rep->results[i].def;
}

static bool figure_value(const struct report *rep, const struct figure *fg, double *v)
{
	const struct result *r = report_find(rep, fg->check);
	if (r && !in_prom(rep, (size_t)(r - rep->results)))
		r = NULL; /* not asked for: not reported */
	const char *s = r ? res_get(r, fg->key) : NULL;
	if (!s || !*s)
		return false;
	char *endp;
	double d = strtod(s, &endp);
	if (*endp || !isfinite(d))
		return false;
	*v = d * fg->scale;
	return true;
}

static void put_figures(struct strbuf *sb, const struct report *rep)
{
	for (size_t i = 0; i < NFIGURES; i++) {
		bool first = true;
		for (size_t j = 0; j < i; j++)
			if (strcmp(figures[j].metric, figures[i].metric) == 0)
				first = false;
		if (!first)
			continue; /* emitted with the family's first entry */
		bool header = false;
		for (size_t j = i; j < NFIGURES; j++) {
			double v;
			if (strcmp(figures[j].metric, figures[i].metric) != 0 ||
			    !figure_value(rep, &figures[j], &v))
				continue;
			if (!header)
				family(sb, figures[i].metric, figures[i].help);
			header = true;
			sample(sb, figures[j].metric);
			if (figures[j].label)
				label(sb, figures[j].label, figures[j].label_val);
			end(sb, v);
		}
	}
}

static void put_checks(struct strbuf *sb, const struct report *rep)
{
	size_t n = 0;
	for (size_t i = 0; i < rep->n; i++)
		n += in_prom(rep, i);
	if (!n)
		return;
	family(sb, "wslgpu_check_status",
	       "Status of each wslgpu check: 1 for its current status, 0 for the other six "
	       "(pass, warn, fail, skip, crash, timeout, unknown: the check could not find out).");
	for (size_t i = 0; i < rep->n; i++) {
		if (!in_prom(rep, i))
			continue;
		const struct result *r = &rep->results[i];
		for (int s = 0; s < ST__COUNT; s++) {
			sample(sb, "wslgpu_check_status");
			label(sb, "check", r->def->id);
			label(sb, "layer", r->def->layer);
			label(sb, "status", status_name((enum status)s));
			end(sb, r->status == (enum status)s);
		}
	}
	family(sb, "wslgpu_check_tolerated",
	       "1 when a check failed but the smoke policy tolerates it (it does not count "
	       "in wslgpu_failures), else 0.");
	for (size_t i = 0; i < rep->n; i++) {
		if (!in_prom(rep, i))
			continue;
		sample(sb, "wslgpu_check_tolerated");
		label(sb, "check", rep->results[i].def->id);
		label(sb, "layer", rep->results[i].def->layer);
		end(sb, result_tolerated(&rep->results[i]));
	}
	family(sb, "wslgpu_check_duration_seconds", "Time each wslgpu check took.");
	for (size_t i = 0; i < rep->n; i++) {
		if (!in_prom(rep, i))
			continue;
		sample(sb, "wslgpu_check_duration_seconds");
		label(sb, "check", rep->results[i].def->id);
		label(sb, "layer", rep->results[i].def->layer);
		double ms = rep->results[i].ms;
		end(sb, ms > 0 ? ms / 1000.0 : 0);
	}
}

/* "551.23" -> 551023000; -1 when it is not 1 to 3 numbers below 1000
 * after the major (a number that would sort wrongly is worse than none). */
static long driver_number(const char *s)
{
	struct version v;
	if (version_parse(s, &v) < 0 || v.n > 3 || v.part[0] < 0 || v.part[0] > 99999)
		return -1;
	long n = v.part[0] * 1000000L;
	for (int i = 1; i < v.n; i++) {
		if (v.part[i] < 0 || v.part[i] > 999)
			return -1;
		n += v.part[i] * (i == 1 ? 1000L : 1L);
	}
	return n;
}

static void put_info(struct strbuf *sb, const struct report *rep)
{
	struct out_facts f;
	out_facts(rep, &f);
	family(sb, "wslgpu_build_info", "The wslgpu that wrote these metrics; always 1.");
	sample(sb, "wslgpu_build_info");
	label(sb, "version", WSLGPU_VERSION);
	end(sb, 1);
	if (f.kind || f.distro) {
		family(sb, "wslgpu_platform_info",
		       "What platform.kind found: kind (wsl2, native, container-in-wsl2, ...) "
		       "and distribution; always 1.");
		sample(sb, "wslgpu_platform_info");
		label(sb, "kind", f.kind ? f.kind : "unknown");
		label(sb, "distro", f.distro ? f.distro : "unknown");
		end(sb, 1);
	}
	if (f.kernel) {
		family(sb, "wslgpu_kernel_info", "The running kernel release; always 1.");
		sample(sb, "wslgpu_kernel_info");
		label(sb, "release", f.kernel);
		end(sb, 1);
	}
	if (f.driver) {
		family(sb, "wslgpu_driver_info",
		       "The NVIDIA driver version (on WSL the Windows driver's) and the newest "
		       "CUDA it supports, from host.driver; always 1.");
		sample(sb, "wslgpu_driver_info");
		label(sb, "version", f.driver);
		label(sb, "cuda", f.driver_cuda ? f.driver_cuda : "unknown");
		end(sb, 1);
		long num = driver_number(f.driver);
		if (num >= 0)
			plain(sb, "wslgpu_driver_version",
			      "The NVIDIA driver version as a number, MAJOR*1000000 + MINOR*1000 + "
			      "PATCH (551.23 is 551023000, 535.104.05 is 535104005), so that a "
			      "downgrade is a decrease.", (double)num);
	}
	if (f.gpu_model || f.gpu_uuid) {
		family(sb, "wslgpu_gpu_info",
		       "The first GPU: its model and UUID (from CUDA, else NVML), to follow one "
		       "card across machines; always 1.");
		sample(sb, "wslgpu_gpu_info");
		label(sb, "model", f.gpu_model ? f.gpu_model : "unknown");
		label(sb, "uuid", f.gpu_uuid ? f.gpu_uuid : "unknown");
		end(sb, 1);
	}
	if (f.host_key) {
		family(sb, "wslgpu_host_info",
		       "The Windows machine this WSL distribution runs on, as a key: the first 16 "
		       "hex digits of a SHA-256 of its MachineGuid (never the GUID), the same for "
		       "every distribution of one Windows install (asked only with --windows); "
		       "always 1.");
		sample(sb, "wslgpu_host_info");
		label(sb, "host_key", f.host_key);
		end(sb, 1);
	}
	if (f.tdr_resets) {
		char *end;
		double n = strtod(f.tdr_resets, &end);
		if (end != f.tdr_resets && !*end)
			plain(sb, "wslgpu_windows_driver_resets",
			      "Display-driver resets (TDR: System event 4101) Windows logged in the last "
			      "7 days (asked only with --windows).", n);
	}
	if (f.wsl) {
		family(sb, "wslgpu_wsl_info",
		       "The WSL version and the Windows version wsl.exe --version reports "
		       "(asked only with --windows, or a policy with [wsl] min_version); always 1.");
		sample(sb, "wslgpu_wsl_info");
		label(sb, "version", f.wsl);
		label(sb, "windows", f.windows ? f.windows : "unknown");
		end(sb, 1);
	}
}

void report_prom(struct strbuf *out, const struct report *rep, const struct output_meta *meta)
{
	struct summary sum;
	report_summarize(rep, &sum);
	int violations = 0;
	for (size_t i = 0; i < rep->n; i++)
		if (in_prom(rep, i) && result_fails_run(&rep->results[i]) &&
		    !strcmp(rep->results[i].def->layer, "policy"))
			violations++;
	const struct result *first = sum.first_failure;

	put_checks(out, rep);
	family(out, "wslgpu_checks", "Number of wslgpu checks in this run, by status.");
	for (int s = 0; s < ST__COUNT; s++) {
		sample(out, "wslgpu_checks");
		label(out, "status", status_name((enum status)s));
		end(out, sum.real[s]);
	}
	plain(out, "wslgpu_failures",
	      "Checks that failed, crashed or timed out, less those the policy tolerates.",
	      (double)sum.failed);
	if (meta && meta->policy_path)
		plain(out, "wslgpu_policy_violations",
		      "Checks of the policy layer that failed (the machine breaks a rule of the "
		      "fleet policy), less those the policy tolerates; only with a policy.",
		      violations);
	if (first) {
		family(out, "wslgpu_smoke_first_failure_info",
		       "The first check in chain order that failed (and is not tolerated): its "
		       "id, layer and knowledge-base entry (wslgpu kb ID); always 1.");
		sample(out, "wslgpu_smoke_first_failure_info");
		label(out, "check", first->def->id);
		label(out, "layer", first->def->layer);
		if (first->kb && *first->kb)
			label(out, "kb", first->kb);
		end(out, 1);
	}
	if (meta) {
		plain(out, "wslgpu_smoke_success",
		      "1 when the last smoke run passed (exit status 0), else 0.",
		      meta->exit_status == 0);
		plain(out, "wslgpu_smoke_exit_status",
		      "Exit status of the last smoke run (0 ok, 1 failures, 3 could not run).",
		      meta->exit_status);
		plain(out, "wslgpu_smoke_last_run_timestamp_seconds",
		      "When the last smoke run started, in seconds since the Unix epoch.",
		      (double)meta->when);
		plain(out, "wslgpu_smoke_duration_seconds", "How long the last smoke run took.",
		      meta->duration_ms > 0 ? meta->duration_ms / 1000.0 : 0);
		if (meta->budget_ms > 0)
			plain(out, "wslgpu_smoke_budget_seconds",
			      "The time budget of the last smoke run (--budget, or the policy's).",
			      meta->budget_ms / 1000.0);
		plain(out, "wslgpu_smoke_budget_exhausted",
		      "1 when the last smoke run ran out of its time budget (a check was cut "
		      "short or never started), else 0.", meta->budget_spent);
	}
	put_info(out, rep);
	put_figures(out, rep);
}
