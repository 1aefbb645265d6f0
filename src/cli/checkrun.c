/* checkrun.c: the shared options and run of checks (see checkrun.h). */
#include "checkrun.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/error.h"
#include "../core/layers.h"
#include "../bundle/redact.h"
#include "../fix/consequence.h"
#include "../kb/finding.h"
#include "../kb/kb.h"
#include "../core/proc.h"
#include "../core/rootfs.h"
#include "../core/runner.h"
#include "../core/strbuf.h"
#include "../core/text.h"
#include "../probes/registry.h"
#include "cli.h"

void checkrun_init(struct checkrun *cr, const char *cmd)
{
	memset(cr, 0, sizeof *cr);
	cr->cmd = cmd;
	cr->opts.timeout_ms = 10000;
	cr->opts.max_parallel = 16;
	cr->progress = true;
	registry_checks(&cr->n);
	cr->want = xcalloc(cr->n, sizeof *cr->want);
	cr->shown = xcalloc(cr->n, sizeof *cr->shown);
}

/* "; did you mean 'cuda.kernel'?" for a name that is neither a layer nor
 * a check id, from both. */
static void near_names(const char *tok, struct strbuf *out)
{
	size_t n, nl;
	const struct check_def *defs = registry_checks(&n);
	const struct layer *layers = layers_in_order(&nl);
	const char **names = xcalloc(n + nl, sizeof *names), *near[4];
	for (size_t i = 0; i < nl; i++)
		names[i] = layers[i].name;
	for (size_t i = 0; i < n; i++)
		names[nl + i] = defs[i].id;
	size_t k = cli_similar(tok, names, n + nl, near, 4);
	for (size_t i = 0; i < k; i++)
		sb_addf(out, "%s'%s'", i ? ", " : k == 1 ? "; did you mean " : "; did you mean one of ",
			near[i]);
	if (k)
		sb_addc(out, '?');
	free(names);
}

int checkrun_select(struct checkrun *cr, const char *list)
{
	const struct check_def *defs = registry_checks(&cr->n);
	char *copy = xstrdup(list), *save = NULL;
	int rc = 0;
	/* An empty list would check nothing and pass on any machine. */
	if (!list[strspn(list, ", ")]) {
		cli_usage_error(cr->cmd, "--only: the list is empty (name layers or check ids, "
			       "comma-separated: see 'wslgpu check --list')");
		free(copy);
		return -1;
	}
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		bool hit = false;
		for (size_t i = 0; i < cr->n; i++)
			if (strcmp(defs[i].id, tok) == 0 || strcmp(defs[i].layer, tok) == 0) {
				cr->want[i] = true;
				hit = true;
			}
		if (!hit) {
			struct strbuf near = STRBUF_INIT;
			near_names(tok, &near);
			cli_usage_error(cr->cmd, "--only: '%s' is neither a layer nor a check id%s "
				       "(see 'wslgpu check --list')", tok, sb_str(&near));
			sb_release(&near);
			rc = -1;
			break;
		}
	}
	free(copy);
	cr->only = true;
	return rc;
}

static const char **push(const char **v, size_t *n, const char *s)
{
	v = xrealloc(v, (*n + 1) * sizeof *v);
	v[(*n)++] = s;
	return v;
}

/* ---- the run options (checkrun.h: OPT_RUN_OPTIONS) ---- */

int checkrun_opt_only(struct parse_state *ps, const struct cli_option *o, const char *arg,
		      void *value)
{
	(void)ps, (void)o;
	return checkrun_select(value, arg);
}

int checkrun_opt_data(struct parse_state *ps, const struct cli_option *o, const char *arg,
		      void *value)
{
	(void)ps, (void)o;
	struct checkrun *cr = value;
	cr->data = push(cr->data, &cr->ndata, arg);
	return 0;
}

int checkrun_opt_python(struct parse_state *ps, const struct cli_option *o, const char *arg,
			void *value)
{
	(void)ps, (void)o;
	struct checkrun *cr = value;
	cr->pythons = push(cr->pythons, &cr->npythons, arg);
	return 0;
}

int checkrun_opt_windows(struct parse_state *ps, const struct cli_option *o, const char *arg,
			 void *value)
{
	(void)ps, (void)o, (void)arg;
	((struct checkrun *)value)->opts.windows = true;
	return 0;
}

int checkrun_opt_no_fork(struct parse_state *ps, const struct cli_option *o, const char *arg,
			 void *value)
{
	(void)ps, (void)o, (void)arg;
	((struct checkrun *)value)->opts.no_fork = true;
	return 0;
}

int checkrun_opt_docker_image(struct parse_state *ps, const struct cli_option *o,
			      const char *arg, void *value)
{
	(void)ps, (void)o;
	((struct checkrun *)value)->opts.docker_image = arg;
	return 0;
}

int checkrun_opt_timeout(struct parse_state *ps, const struct cli_option *o, const char *arg,
			 void *value)
{
	(void)o;
	double s;
	if (cli_parse_seconds(ps->cmd->name, "--timeout", arg, 0.1, 3600, &s) < 0)
		return -1;
	((struct checkrun *)value)->opts.timeout_ms = (int)(s * 1000 + 0.5);
	return 0;
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
	/* One row, a column short of the terminal's width: a line that wraps
	 * could not be redrawn in place. */
	char line[256];
	int n = snprintf(line, sizeof line, "checking: %zu/%zu done, waiting for %s", done, total,
			 waiting_for);
	int max = text_terminal_columns(STDERR_FILENO) - 1;
	if (n > max && max > 0 && max < (int)sizeof line)
		line[max] = '\0';
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
}

static void clear_progress(void)
{
	if (progress_shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		progress_shown = false;
	}
}

/* A --python that is not there is otherwise reported only by the
 * frameworks checks, and not at all when they do not run. */
static void warn_missing_pythons(const struct checkrun *cr)
{
	struct strbuf g = STRBUF_INIT, h = STRBUF_INIT;
	for (size_t i = 0; i < cr->npythons; i++) {
		const char *p = cr->pythons[i];
		rootfs_absolute(p, &g);
		if (rootfs_host_path(g.buf, true, &h) < 0 || access(h.buf, X_OK) < 0)
			warningf("--python %s: %s is not an executable file%s", p, g.buf,
				rootfs_is_real() ? "" : " on the described machine");
	}
	sb_release(&g);
	sb_release(&h);
}

/* --windows is answered by host.driver; when it did not ask (skipped, not
 * selected) the user is told so rather than met with silence. */
static void warn_windows_unasked(const struct checkrun *cr)
{
	int i = registry_find("host.driver");
	if (!cr->opts.windows || i < 0)
		return;
	const struct result *r = &cr->results[i];
	if (res_get(r, "windows") || res_get(r, "windows_query"))
		return; /* asked, or said why not, in host.driver's line */
	if (!cr->want[i])
		warningf("--windows: Windows was not asked: host.driver, which asks it, "
			 "was not selected");
	else
		warningf("--windows: Windows was not asked: host.driver %s",
			 r->status == ST_SKIP && r->detail ? r->detail : "did not reach it");
}

static void learn_secrets(void *scrub, size_t i, const struct result *r)
{
	secret_scrub_learn(scrub, i, r);
}

void checkrun_execute(struct checkrun *cr)
{
	warn_missing_pythons(cr);
	const struct check_def *defs = registry_checks(&cr->n);
	cr->opts.data_paths = cr->data;
	cr->opts.ndata = cr->ndata;
	cr->opts.pythons = cr->pythons;
	cr->opts.npythons = cr->npythons;
	cr->opts.early_pays = registry_early_pays;
	if (!cr->only)
		for (size_t i = 0; i < cr->n; i++)
			cr->want[i] = true;
	/* The policy layer needs a policy; with one, the selection decides
	 * (smoke selects the checks of the rules its policy sets). */
	for (size_t i = 0; i < cr->n; i++)
		if (!cr->opts.policy && strcmp(defs[i].layer, "policy") == 0)
			cr->want[i] = false;
	memcpy(cr->shown, cr->want, cr->n * sizeof *cr->want);

	cr->results = xcalloc(cr->n, sizeof *cr->results);
	if (cr->progress && isatty(2)) {
		progress_last = now_ms();
		cr->opts.progress = show_progress;
	}
	double t0 = now_ms();
	/* no output of any command shows a secret the machine holds: the
	 * secrets learnt from each result as it comes */
	struct secret_scrub *secrets = secret_scrub_new(cr->n);
	cr->opts.on_result = learn_secrets;
	cr->opts.on_result_arg = secrets;
	cr->interrupted = runner_run_table(defs, cr->n, &cr->opts, cr->want, cr->results);
	secret_scrub_finish(secrets, cr->results, cr->n);
	cr->opts.on_result = NULL;
	/* every finding's fixes are chosen for the platform this run found */
	finding_mark_platform(cr->results, cr->n);
	/* one root cause, one problem: what follows from it is shown under it */
	consequences_mark(cr->results, cr->n);
	cr->end_ms = now_ms();
	cr->wall_ms = cr->end_ms - t0;
	clear_progress();
	warn_windows_unasked(cr);
	/* A shown check skipped because a dependency failed: show that
	 * dependency too, so that --only never hides a broken layer. */
	for (size_t i = 0; i < cr->n; i++) {
		const char *root = cr->shown[i] ? res_get(&cr->results[i], "blocked_by") : NULL;
		int j = root ? registry_find(root) : -1;
		if (j >= 0)
			cr->shown[j] = true;
	}
}

void checkrun_report(const struct checkrun *cr, struct report *rep, bool verbose, int fd)
{
	memset(rep, 0, sizeof *rep); /* strict and whatever is added later: off */
	rep->results = cr->results;
	rep->shown = cr->shown;
	rep->n = cr->n;
	rep->verbose = verbose;
	rep->color = cli_want_color(fd);
	rep->strict = false; /* check sets it after; left unset it was read uninitialised (UBSan) */
}

int checkrun_interrupt_note(int sig, const struct result *results, size_t n)
{
	if (!sig)
		return 0;
	size_t cut = 0, ran = 0;
	for (size_t i = 0; i < n; i++) {
		if (!results[i].ran)
			continue;
		ran++;
		cut += results[i].cut == CUT_INTERRUPTED;
	}
	char buf[16];
	errorf("interrupted by %s: %zu of %zu checks did not finish", signal_name(sig, buf), cut,
	       ran);
	return 128 + sig;
}

void checkrun_critical_path(const struct checkrun *cr, struct strbuf *out)
{
	size_t n;
	const struct check_def *defs = registry_checks(&n);
	size_t *path = xcalloc(cr->n ? cr->n : 1, sizeof *path);
	double ms;
	size_t k = runner_critical_path(defs, cr->n, cr->results, path, &ms);
	if (k) {
		struct strbuf line = STRBUF_INIT;
		sb_add(&line, "critical path: ");
		for (size_t i = 0; i < k; i++)
			sb_addf(&line, "%s%s", i ? text_glyph(" → ", " -> ") : "", defs[path[i]].id);
		/* tenths: on a machine where the run takes 5 ms, whole
		 * milliseconds move the ratio by 20 % (bench/goals.sh) */
		sb_addf(&line, " (%.1f ms of %.1f ms)", ms, cr->wall_ms);
		text_wrap_line(out, line.buf, 2, 0);
		sb_release(&line);
	}
	free(path);
}

int checkrun_exit_status(const struct checkrun *cr, bool strict)
{
	if (cr->interrupted)
		return 128 + cr->interrupted;
	struct report rep;
	struct summary sum;
	checkrun_report(cr, &rep, false, 1);
	report_summarize(&rep, &sum);
	return sum.first_failure || (strict && sum.first_warning) ? EXIT_FAILED : EXIT_OK;
}

void checkrun_release(struct checkrun *cr)
{
	if (cr->results)
		for (size_t i = 0; i < cr->n; i++)
			result_release(&cr->results[i]);
	free(cr->results);
	free(cr->want);
	free(cr->shown);
	free(cr->data);
	free(cr->pythons);
	memset(cr, 0, sizeof *cr);
}

char *checkrun_fact(const char *id, const char *key)
{
	size_t n;
	const struct check_def *defs = registry_checks(&n);
	int idx = registry_find(id);
	if (idx < 0)
		return NULL;
	bool *want = xcalloc(n, sizeof *want);
	struct result *res = xcalloc(n, sizeof *res);
	struct run_opts o = { .timeout_ms = 10000, .max_parallel = 4 };
	want[idx] = true;
	runner_run_table(defs, n, &o, want, res);
	const char *v = res[idx].ran ? res_get(&res[idx], key) : NULL;
	char *out = v ? xstrdup(v) : NULL;
	for (size_t i = 0; i < n; i++)
		result_release(&res[i]);
	free(res);
	free(want);
	return out;
}

const char *checkrun_platform_kind(void)
{
	char *kind = checkrun_fact("platform.kind", "kind");
	const char *k = kb_platform_kind(kind); /* a static string, or NULL */
	free(kind);
	return k;
}
