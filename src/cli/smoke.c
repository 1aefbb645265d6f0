/*
 * smoke.c: `wslgpu smoke` — the scheduled smoke test. Runs the checks that
 * matter (the cuda layer's real kernel launch included) in a bounded time,
 * compares the machine with the fleet's policy file, applies the findings
 * the policy tolerates, delivers the results (JUnit, Prometheus textfile,
 * Pushgateway, the history database) and exits 0/1 for cron and CI.
 *
 * Time: one budget for the whole run (--budget, the policy's [smoke]
 * budget, default 60 s). The runner skips checks that cannot start in time
 * and cuts running ones short at the end of it; when --push is asked for, a
 * share of the budget (a quarter, at most 10 s) is kept for it, so a slow
 * machine still reports that it is slow.
 *
 * Tolerated findings keep their real status in the data other systems
 * read (JUnit, Prometheus and history see a fail with evidence
 * tolerated=yes, src/report/outfacts.h); the text and JSON reports show
 * them as warnings saying what they were, since they do not fail the run.
 *
 * Never needs root, starts no daemon, writes only the files it is asked to.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/error.h"
#include "../core/atomicfile.h"
#include "../core/rootfs.h"
#include "../core/json.h"
#include "../core/layers.h"
#include "../core/proc.h"
#include "../core/text.h"
#include "../history/history.h"
#include "../kb/kb.h"
#include "../net/push.h"
#include "../parse/policy.h"
#include "../probes/registry.h"
#include "../report/format.h"
#include "../report/outputs.h"
#include "../report/report.h"
#include "checkrun.h"
#include "cli.h"

#define SMOKE_DEFAULT_BUDGET_MS 60000
#define PUSH_MAX_MS 10000

/* Layers a smoke run proves when neither --only nor the policy's [smoke]
 * layers says otherwise: the GPU path and its cheap neighbours. frameworks
 * (a Python import per framework) joins when the policy pins a framework;
 * containers (docker) only on request. */
static const char *const default_layers = "platform,bridge,host,libs,cuda,nvml,toolkit,perf";

struct delivery {
	char option[32];    /* "--junit" */
	const char *target;
	bool ok;
	char *error;
};

struct smoke {
	struct checkrun cr;
	struct policy pol;
	bool have_policy;
	const char *policy_path;
	int budget_ms;
	double t0;
	time_t when;
	bool verbose, strict;
	struct format_choice format; /* --json, and the files: --junit, --prom */
	const char *push, *job, *instance, *db, *push_delete;
	char *push_shown; /* --push without its user:password, for messages */
	/* The most a push or a delete may take: --timeout (or the policy's)
	 * when given, as for any one step of the run, else PUSH_MAX_MS; a
	 * push is further held to what is left of the budget. */
	int push_cap_ms;
	bool record;
	/* from the command line, for the steps after parsing */
	int budget_opt;      /* --budget, 0 when not given */
	bool timeout_given;  /* --timeout was given: it beats the policy's */
	char hostname[HOST_NAME_MAX + 1];
	char **owned; /* strings kept alive for cr.data */
	size_t nowned;
	struct delivery deliveries[FORMAT_MAX + 2]; /* the files, --push, the history */
	size_t ndeliveries;
	/* the verdict */
	int checks_rc;
	bool over_budget; /* the checks ended after the budget (a bug's overshoot, a clock jump) */
	struct summary sum;
};

/* ---- the policy's names: a tolerate pattern or layer that names nothing
 * would silently do nothing, so it is an error like an unknown key. ---- */

static bool names_something(const char *pattern)
{
	size_t n, nl;
	const struct check_def *defs = registry_checks(&n);
	const struct layer *layers = layers_in_order(&nl);
	for (size_t i = 0; i < n; i++)
		if (policy_glob_match(pattern, defs[i].id))
			return true;
	for (size_t i = 0; i < nl; i++)
		if (policy_glob_match(pattern, layers[i].name))
			return true;
	const struct kb *kb = kb_builtin();
	for (size_t i = 0; i < kb->n; i++)
		if (policy_glob_match(pattern, kb->e[i].id))
			return true;
	return false;
}

static void check_policy_names(struct policy *p)
{
	for (size_t i = 0; i < p->tolerate.n; i++)
		if (!names_something(p->tolerate.v[i].text))
			policy_error(p, p->tolerate.v[i].line, "[tolerate] findings: '%s' matches no "
				     "check id, layer or KB entry (see 'wslgpu check --list' and "
				     "'wslgpu kb')", p->tolerate.v[i].text);
	for (size_t i = 0; i < p->layers.n; i++) {
		const char *l = p->layers.v[i].text;
		if (!registry_is_layer(l) && registry_find(l) < 0)
			policy_error(p, p->layers.v[i].line, "[smoke] layers: '%s' is neither a layer "
				     "nor a check id (see 'wslgpu check --list')", l);
	}
}

static bool policy_wants_frameworks(const struct policy *p)
{
	return p->fw_torch.text || p->fw_torch_cuda.text || p->fw_tensorflow.text ||
	       p->fw_jax.text || p->fw_cupy.text || p->fw_matmul == 1;
}

/* ---- selection ---- */

/* Whether the policy sets any rule the policy check id judges. */
static bool policy_sets(const struct policy *p, const char *id)
{
	if (!strcmp(id, "policy.driver"))
		return p->driver_min.set || p->driver_max.set;
	if (!strcmp(id, "policy.wsl"))
		return p->min_kernel.set || p->min_wsl.set;
	if (!strcmp(id, "policy.distro"))
		return p->distros.n > 0;
	if (!strcmp(id, "policy.packages"))
		return p->pkg_required.n || p->pkg_forbidden.n;
	if (!strcmp(id, "policy.frameworks"))
		return policy_wants_frameworks(p);
	if (!strcmp(id, "policy.memory"))
		return p->mem_min_available.set || p->mem_min_total.set;
	if (!strcmp(id, "policy.data"))
		return p->data_forbidden.n > 0;
	return true; /* a rule added later: judged rather than forgotten */
}

static int select_checks(struct smoke *s)
{
	struct checkrun *cr = &s->cr;
	if (!cr->only) {
		struct strbuf list = STRBUF_INIT;
		if (s->have_policy && s->pol.layers.n) {
			for (size_t i = 0; i < s->pol.layers.n; i++)
				sb_addf(&list, "%s%s", i ? "," : "", s->pol.layers.v[i].text);
		} else {
			sb_add(&list, default_layers);
			if (s->have_policy && policy_wants_frameworks(&s->pol))
				sb_add(&list, ",frameworks");
			if (cr->opts.docker_image)
				sb_add(&list, ",containers");
		}
		int rc = checkrun_select(cr, list.buf);
		sb_release(&list);
		if (rc < 0)
			return -1;
	}
	size_t n;
	const struct check_def *defs = registry_checks(&n);
	if (!s->have_policy) {
		for (size_t i = 0; i < n; i++)
			if (cr->want[i] && !strcmp(defs[i].layer, "policy")) {
				cli_usage_error("smoke", "%s judges the machine against a policy: "
					       "give one with --policy FILE", defs[i].id);
				return -1;
			}
		return 0;
	}
	/* Every rule the policy sets is judged, whatever --only says; a check
	 * for rules it does not set is left out (it would only say "skipped"),
	 * and policy.frameworks would pull in the frameworks layer for nothing. */
	for (size_t i = 0; i < n; i++)
		if (!strcmp(defs[i].layer, "policy") && policy_sets(&s->pol, defs[i].id))
			cr->want[i] = true;
	return 0;
}

/* ---- tolerated findings ---- */

static void apply_tolerance(struct smoke *s)
{
	if (!s->have_policy || !s->pol.tolerate.n)
		return;
	for (size_t i = 0; i < s->cr.n; i++) {
		struct result *r = &s->cr.results[i];
		if (!r->ran || !r->def || (!status_is_failure(r->status) && r->status != ST_WARN))
			continue;
		for (size_t k = 0; k < s->pol.tolerate.n; k++) {
			const struct policy_item *t = &s->pol.tolerate.v[k];
			if (policy_glob_match(t->text, r->def->id) ||
			    policy_glob_match(t->text, r->def->layer) ||
			    (r->kb && policy_glob_match(t->text, r->kb))) {
				r->tolerated_by = xasprintf("%s:%d: [tolerate] %s", s->pol.path, t->line,
							    t->text);
				res_ev(r, "tolerated", "yes");
				res_ev(r, "tolerated_by", "%s", r->tolerated_by);
				res_ev(r, "original_status", "%s", status_name(r->status));
				break;
			}
		}
	}
}

static void judge(struct smoke *s)
{
	struct report rep;
	checkrun_report(&s->cr, &rep, false, 1);
	report_summarize(&rep, &s->sum);
	bool strict = s->strict || (s->have_policy && s->pol.strict == 1);
	s->over_budget = s->cr.end_ms - s->t0 > s->budget_ms;
	s->checks_rc = s->sum.failed || s->sum.not_started || s->over_budget ||
			       (strict && s->sum.warnings)
			       ? EXIT_FAILED : EXIT_OK;
	if (s->cr.interrupted)
		s->checks_rc = 128 + s->cr.interrupted;
}

/* ---- deliveries ---- */

static struct delivery *delivery(struct smoke *s, const char *option, const char *target)
{
	struct delivery *d = &s->deliveries[s->ndeliveries++];
	snprintf(d->option, sizeof d->option, "%s", option);
	d->target = target;
	d->ok = true;
	d->error = NULL;
	return d;
}

static void delivery_failed(struct delivery *d, const char *msg)
{
	d->ok = false;
	d->error = xstrdup(msg);
	struct strbuf m = STRBUF_INIT;
	text_sanitize(&m, msg);
	errorf("%s %s: %s", d->option, d->target, sb_str(&m));
	sb_release(&m);
}

/*
 * The Pushgateway groups by instance; the host name is what an operator
 * recognises (--instance sends another). Under --root the run describes
 * another machine, so this host's name would file its metrics under the
 * wrong instance: the described machine's /etc/hostname is used, and
 * without one "unknown", with a warning asking for --instance.
 */
static void default_instance(struct smoke *s)
{
	s->instance = s->hostname;
	if (rootfs_is_real()) {
		if (gethostname(s->hostname, sizeof s->hostname - 1) < 0 || !s->hostname[0])
			snprintf(s->hostname, sizeof s->hostname, "unknown");
		return;
	}
	struct strbuf t = STRBUF_INIT;
	size_t n = 0;
	if (rootfs_read("/etc/hostname", 4096, &t, NULL) == 0) {
		/* hostname(5): the name on one line; lines starting with # are comments. */
		const char *p = t.buf;
		while (p && *p == '#') {
			p = strchr(p, '\n');
			p = p ? p + 1 : NULL;
		}
		for (; p && p[n] > ' ' && p[n] < 0x7f && n < sizeof s->hostname - 1; n++)
			s->hostname[n] = p[n];
	}
	s->hostname[n] = '\0';
	sb_release(&t);
	if (!n) {
		snprintf(s->hostname, sizeof s->hostname, "unknown");
		struct strbuf m = STRBUF_INIT;
		text_sanitize(&m, rootfs_root());
		errorf("--root %s names no host (no /etc/hostname): the "
			"Pushgateway instance is \"unknown\"; give it with --instance NAME", m.buf);
		sb_release(&m);
	}
}

static void deliver(struct smoke *s)
{
	struct report rep;
	checkrun_report(&s->cr, &rep, false, 1);
	struct output_meta meta = { "wslgpu smoke", s->when, now_ms() - s->t0, s->checks_rc,
				    s->have_policy ? s->policy_path : NULL, s->budget_ms,
				    s->sum.cut_short || s->sum.not_started };
	struct strbuf body = STRBUF_INIT, err = STRBUF_INIT;
	struct format_input in = { .rep = &rep, .meta = &meta };
	/* The files of the format options (--junit FILE, --prom FILE), in
	 * the table's order. */
	size_t nf;
	const struct format *f = formats(&nf);
	for (size_t i = 0; i < nf; i++) {
		const char *path = s->format.file[i];
		if (!path)
			continue;
		char option[32];
		snprintf(option, sizeof option, "--%s", f[i].name);
		struct delivery *d = delivery(s, option, path);
		f[i].write(&body, &in);
		if (atomic_write_file(path, body.buf ? body.buf : "", body.len, 0644, &err) < 0)
			delivery_failed(d, sb_str(&err));
		sb_reset(&body);
		sb_reset(&err);
	}
	if (s->push) {
		format_write("smoke", "prom", &body, &in);
		s->push_shown = prom_url_shown(s->push);
		struct delivery *d = delivery(s, "--push", s->push_shown);
		double left = s->t0 + s->budget_ms - now_ms();
		int limit = left > s->push_cap_ms ? s->push_cap_ms : (int)left;
		if (limit < 100)
			delivery_failed(d, "no time was left in the run's budget to push");
		else if (prom_push(s->push, s->job, s->instance, body.buf ? body.buf : "", limit,
				   &err) < 0)
			delivery_failed(d, err.len ? err.buf : "the push failed");
		sb_reset(&err);
	}
	if (s->record) {
		struct strbuf path = STRBUF_INIT;
		if (s->db)
			sb_add(&path, s->db);
		else
			history_default_path(&path);
		struct delivery *d = delivery(s, s->db ? "--db" : "--record",
					      s->db ? s->db : "(the default database)");
		struct history_meta hm = { s->when, now_ms() - s->t0, "smoke", s->checks_rc,
					   s->have_policy ? s->policy_path : NULL };
		if (history_record(path.buf, &rep, &hm, &err) < 0)
			delivery_failed(d, err.len ? err.buf : "the run could not be recorded");
		sb_release(&path);
	}
	sb_release(&body);
	sb_release(&err);
}

/* --push-delete: the Pushgateway keeps the last push of a machine for
 * ever, so a retired one would look stale on every dashboard until its
 * group is deleted. */
static int delete_group(struct smoke *s)
{
	struct strbuf err = STRBUF_INIT;
	s->push_shown = prom_url_shown(s->push_delete);
	struct delivery *d = delivery(s, "--push-delete", s->push_shown);
	if (prom_push_delete(s->push_delete, s->job, s->instance, s->push_cap_ms, &err) < 0) {
		delivery_failed(d, err.len ? err.buf : "the delete failed");
	} else {
		struct strbuf m = STRBUF_INIT;
		sb_addf(&m, "smoke: deleted the group job=%s instance=%s from the Pushgateway at %s",
			s->job, s->instance, s->push_shown);
		struct strbuf clean = STRBUF_INIT;
		text_sanitize(&clean, m.buf);
		printf("%s\n", sb_str(&clean));
		sb_release(&clean);
		sb_release(&m);
	}
	sb_release(&err);
	return d->ok ? EXIT_OK : EXIT_FAILED;
}

/* ---- what people read ---- */

static int final_status(const struct smoke *s)
{
	for (size_t i = 0; i < s->ndeliveries; i++)
		if (!s->deliveries[i].ok)
			return EXIT_FAILED;
	return s->checks_rc;
}

static void verdict_line(const struct smoke *s, struct strbuf *sb)
{
	int rc = final_status(s);
	double secs = (now_ms() - s->t0) / 1000.0;
	char sig[16];
	if (s->cr.interrupted)
		sb_addf(sb, "smoke: INTERRUPTED by %s after %.1f s of a %g s budget",
			signal_name(s->cr.interrupted, sig), secs, s->budget_ms / 1000.0);
	else
		sb_addf(sb, "smoke: %s in %.1f s of a %g s budget", rc ? "FAIL" : "PASS", secs,
			s->budget_ms / 1000.0);
	if (s->have_policy)
		sb_addf(sb, ", policy %s", s->policy_path);
	const struct summary *m = &s->sum;
	sb_addf(sb, ": %d passed, %zu failed", m->counts[ST_PASS], m->failed);
	if (m->tolerated)
		sb_addf(sb, ", %zu tolerated", m->tolerated);
	sb_addf(sb, ", %zu warning%s, %d skipped", m->warnings, m->warnings == 1 ? "" : "s",
		m->counts[ST_SKIP]);
	/* could not find out: no failure, and no pass either */
	if (m->counts[ST_UNKNOWN])
		sb_addf(sb, ", %d unknown", m->counts[ST_UNKNOWN]);
	if (m->interrupted)
		sb_addf(sb, ", %zu did not finish; nothing delivered", m->interrupted);
	if (m->cut_short || m->not_started)
		sb_addf(sb, "; the time budget ran out: %zu cut short, %zu not started",
			m->cut_short, m->not_started);
	else if (s->over_budget)
		sb_add(sb, "; the checks took longer than the budget");
	if (m->first_failure)
		sb_addf(sb, "; first failure %s", m->first_failure->def->id);
	bool first = true, recorded = false;
	for (size_t i = 0; i < s->ndeliveries; i++) {
		const struct delivery *d = &s->deliveries[i];
		if (!d->ok) {
			sb_addf(sb, "%s%s", first ? "; not delivered: " : ", ", d->option);
			first = false;
		} else if (!strcmp(d->option, "--record") || !strcmp(d->option, "--db")) {
			recorded = true;
		}
	}
	/* The line so far, wrapped to the terminal. */
	struct strbuf line = STRBUF_INIT;
	sb_add(&line, sb_str(sb));
	sb_reset(sb);
	text_wrap_line(sb, line.buf, 2, 0);
	sb_release(&line);
	/* Where the run went, so that the next step is obvious. */
	if (recorded) {
		struct strbuf path = STRBUF_INIT, l = STRBUF_INIT;
		if (s->db)
			sb_add(&path, s->db);
		else
			history_default_path(&path);
		sb_add(&l, "  recorded in ");
		text_sanitize(&l, path.buf);
		sb_add(&l, s->db ? " (wslgpu history --db " : " (wslgpu history shows it");
		if (s->db)
			text_sanitize(&l, s->db);
		sb_add(&l, ")");
		text_wrap_line(sb, l.buf, 4, 0);
		sb_release(&path);
		sb_release(&l);
	}
}

static void put_ids(struct json_writer *jw, const char *key, const struct smoke *s,
		    bool tolerated)
{
	jw_kv_array(jw, key);
	for (size_t i = 0; i < s->cr.n; i++) {
		const struct result *r = &s->cr.results[i];
		if (!s->cr.shown[i] || !r->ran)
			continue;
		if (tolerated ? result_tolerated(r) : result_fails_run(r))
			jw_str(jw, r->def->id);
	}
	jw_end(jw);
}

/* The "smoke" member smoke adds to the check report (wslgpu/check/2). */
static void smoke_json(struct json_writer *jw, const void *ctx)
{
	const struct smoke *s = ctx;
	int rc = final_status(s);
	jw_kv_object(jw, "smoke");
	jw_kv_str(jw, "verdict", s->cr.interrupted ? "interrupted" : rc ? "fail" : "pass");
	jw_kv_int(jw, "exit_status", rc);
	jw_kv_fixed(jw, "elapsed_ms", 1, now_ms() - s->t0);
	jw_kv_int(jw, "budget_ms", s->budget_ms);
	jw_kv_bool(jw, "budget_spent", s->sum.cut_short || s->sum.not_started || s->over_budget);
	jw_kv_uint(jw, "cut_short", s->sum.cut_short);
	jw_kv_uint(jw, "not_started", s->sum.not_started);
	jw_kv_str(jw, "policy", s->have_policy ? s->policy_path : NULL);
	put_ids(jw, "failed", s, false);
	put_ids(jw, "tolerated", s, true);
	jw_kv_array(jw, "outputs");
	for (size_t i = 0; i < s->ndeliveries; i++) {
		const struct delivery *d = &s->deliveries[i];
		jw_object_begin(jw);
		jw_kv_str(jw, "option", d->option);
		jw_kv_str(jw, "target", d->target);
		jw_kv_bool(jw, "ok", d->ok);
		jw_kv_str(jw, "error", d->error);
		jw_end(jw);
	}
	jw_end(jw);
	jw_end(jw);
}

/* ---- options ---- */

static char *expand_home(const char *p)
{
	const char *home = getenv("HOME");
	if (p[0] == '~' && (p[1] == '/' || !p[1]) && home && *home)
		return xasprintf("%s%s", home, p + 1);
	return xstrdup(p);
}

static int smoke_opt_budget(struct parse_state *ps, const struct cli_option *o,
			    const char *arg, void *value)
{
	(void)o;
	int ms = policy_parse_duration(arg);
	if (ms < 1000)
		return parse_error(ps, "--budget: '%s' is not a number of seconds between 1 and "
				   "3600", arg);
	*(int *)value = ms;
	return 0;
}

/* What the options mean together: --db records; --push-delete runs
 * nothing, so it takes only the options of a delete. */
static int smoke_check(struct parse_state *ps, void *base)
{
	static const char *const delete_takes[] = { "push-delete", "job", "instance", "timeout",
						    "root", "help", NULL };
	struct smoke *s = base;
	for (size_t i = 0; i < ps->nseen; i++)
		s->timeout_given |= ps->seen[i]->long_name && !strcmp(ps->seen[i]->long_name, "timeout");
	if (s->db)
		s->record = true;
	if (!s->push_delete)
		return 0;
	for (size_t i = 0; i < ps->nseen; i++) {
		const char *l = ps->seen[i]->long_name;
		size_t k = 0;
		while (delete_takes[k] && strcmp(delete_takes[k], l))
			k++;
		if (!delete_takes[k])
			return parse_error(ps, "--push-delete runs no checks, it only deletes a group "
					   "from the Pushgateway: it takes --job and --instance, not "
					   "--%s", l);
	}
	return 0;
}

#define ARGS struct smoke
static const struct cli_option smoke_options[] = {
	OPT_FILE(0, "policy", ARGS, policy_path, "FILE", "the fleet policy (INI; see the README)"),
	OPT_CALLBACK(0, "budget", ARGS, budget_opt, "SEC",
		     "time for the whole run (default: the policy's, else 60)", smoke_opt_budget),
	OPT_BOOL(0, "strict", ARGS, strict, "warnings fail the run too"),
	OPT_BOOL('v', "verbose", ARGS, verbose, "show the evidence behind each decision and its time"),
	OPT_FORMATS(ARGS, format),
	{ .type = OPTION_STRING, .long_name = "push", .offset = offsetof(ARGS, push), .argh = "URL",
	  .help = "also push the metrics to a Pushgateway", .flags = OPT_NONEMPTY,
	  .complete = COMPLETE_URL },
	OPT_STRING(0, "job", ARGS, job, "NAME", "Pushgateway job (default wslgpu)"),
	OPT_STRING(0, "instance", ARGS, instance, "NAME",
		   "Pushgateway instance (default: this host's name; under --root, the described "
		   "machine's /etc/hostname)"),
	{ .type = OPTION_STRING, .long_name = "push-delete", .offset = offsetof(ARGS, push_delete),
	  .argh = "URL", .flags = OPT_NONEMPTY, .complete = COMPLETE_URL,
	  .help = "run nothing: delete the group of --job and --instance (a retired machine's "
		  "metrics) from a Pushgateway" },
	OPT_BOOL(0, "record", ARGS, record, "record the run in the history database"),
	OPT_OUTPUT_FILE(0, "db", ARGS, db, "PATH", "the history database (implies --record)"),
	OPT_RUN_OPTIONS(ARGS, cr),
	OPT_END(),
};
#undef ARGS

static const char *const smoke_usage[] = { "wslgpu smoke [--policy FILE] [OPTIONS]", NULL };

const struct cli_command smoke_command = {
	.name = "smoke",
	.run = cmd_smoke,
	.summary = "scheduled smoke test: checks + policy, history, JUnit/Prometheus",
	.root = ROOT_USED,
	.usage = smoke_usage,
	.about = "The scheduled smoke test: runs the GPU checks (with a real kernel launch) in\n"
		 "bounded time, compares the machine with a policy file, and exits 0 or 1.\n",
	.options = smoke_options,
	.epilog = "Exit status: 0 passed (warnings allowed), 1 a check failed or the budget ran\n"
		  "out, or a result could not be written, 2 usage or policy error, 3 internal or\n"
		  "its output could not be written, 130/143 interrupted by SIGINT/SIGTERM\n"
		  "(reported; nothing delivered).\n",
	.check = smoke_check,
};

/* Parses the options into s; returns -1 to go on, else the exit status. */
static int smoke_parse(struct smoke *s, int argc, char **argv)
{
	int n = parse_options(&smoke_command, argc, argv, s);
	if (n < 0)
		return parse_exit(n);
	if (n > 0) {
		cli_usage_error("smoke", "unexpected argument '%s'", argv[0]);
		return EXIT_USAGE;
	}
	return -1;
}

/* Loads --policy, all its errors at once; returns -1 to go on, else the
 * exit status. */
static int smoke_load_policy(struct smoke *s)
{
	if (!s->policy_path)
		return -1;
	s->have_policy = true;
	policy_load(s->policy_path, &s->pol);
	check_policy_names(&s->pol);
	if (s->pol.nerrors || s->pol.more_errors) {
		policy_print_errors(&s->pol, stderr);
		errorf("the policy file has errors; nothing was run");
		return EXIT_USAGE;
	}
	s->cr.opts.policy = &s->pol;
	if (s->pol.min_wsl.set)
		s->cr.opts.windows = true; /* the WSL version comes from wsl.exe */
	for (size_t i = 0; i < s->pol.data_paths.n; i++) {
		s->owned = xrealloc(s->owned, (s->nowned + 1) * sizeof *s->owned);
		s->owned[s->nowned] = expand_home(s->pol.data_paths.v[i].text);
		checkrun_opt_data(NULL, NULL, s->owned[s->nowned], &s->cr);
		s->nowned++;
	}
	return -1;
}

/* The budget and time limits: the options beat the policy, the push gets
 * its share of the budget and the checks the rest. */
static void smoke_plan_time(struct smoke *s)
{
	s->budget_ms = s->budget_opt ? s->budget_opt
		     : s->have_policy && s->pol.budget_ms ? s->pol.budget_ms
							 : SMOKE_DEFAULT_BUDGET_MS;
	if (!s->timeout_given && s->have_policy && s->pol.timeout_ms)
		s->push_cap_ms = s->pol.timeout_ms < PUSH_MAX_MS ? s->pol.timeout_ms : PUSH_MAX_MS;
	int reserve = s->push ? s->budget_ms / 4 : 0;
	if (reserve > s->push_cap_ms)
		reserve = s->push_cap_ms;
	s->cr.opts.budget_end_ms = s->t0 + s->budget_ms - reserve;
}

/* Runs the checks, prints the report, delivers it; the exit status. */
static int smoke_run(struct smoke *s)
{
	checkrun_execute(&s->cr);
	apply_tolerance(s);
	judge(s);

	struct report rep;
	checkrun_report(&s->cr, &rep, s->verbose, 1);
	/* The report for people first, then the deliveries; JSON, which
	 * lists the deliveries, last. */
	const struct format *out = s->format.out;
	struct format_input in = { .rep = &rep, .members = smoke_json, .members_ctx = s };
	struct strbuf sb = STRBUF_INIT;
	if (!out) {
		format_write("smoke", NULL, &sb, &in);
		fputs(sb.buf, stdout);
		fflush(stdout);
		sb_reset(&sb);
	}
	/* An interrupted run is no result to record, push or publish. */
	if (!s->cr.interrupted)
		deliver(s);
	if (out) {
		out->write(&sb, &in);
		fputs(sb.buf, stdout);
	} else {
		struct strbuf line = STRBUF_INIT;
		verdict_line(s, &line);
		fputs(line.buf, stdout);
		sb_release(&line);
	}
	sb_release(&sb);
	fflush(stdout);
	int rc = final_status(s);
	if (s->cr.interrupted)
		checkrun_interrupt_note(s->cr.interrupted, s->cr.results, s->cr.n);
	return rc;
}

static int smoke_main(struct smoke *s, int argc, char **argv)
{
	int rc = smoke_parse(s, argc, argv);
	if (rc >= 0)
		return rc;
	s->push_cap_ms = PUSH_MAX_MS;
	if (s->timeout_given && s->cr.opts.timeout_ms > 0 && s->cr.opts.timeout_ms < PUSH_MAX_MS)
		s->push_cap_ms = s->cr.opts.timeout_ms;
	if (!s->instance && (s->push || s->push_delete))
		default_instance(s);
	if (s->push_delete)
		return delete_group(s);
	if ((rc = smoke_load_policy(s)) >= 0)
		return rc;
	/* The policy's time limit applies to the checks selected below. */
	if (!s->timeout_given && s->have_policy && s->pol.timeout_ms)
		s->cr.opts.timeout_ms = s->pol.timeout_ms;
	if (select_checks(s) < 0)
		return EXIT_USAGE;
	smoke_plan_time(s);
	return smoke_run(s);
}

int cmd_smoke(int argc, char **argv)
{
	struct smoke s;
	memset(&s, 0, sizeof s);
	s.t0 = now_ms();
	s.when = time(NULL);
	s.job = "wslgpu";
	checkrun_init(&s.cr, "smoke");
	int rc = smoke_main(&s, argc, argv);
	for (size_t i = 0; i < s.ndeliveries; i++)
		free(s.deliveries[i].error);
	for (size_t i = 0; i < s.nowned; i++)
		free(s.owned[i]);
	free(s.owned);
	free(s.push_shown);
	if (s.have_policy)
		policy_free(&s.pol);
	checkrun_release(&s.cr);
	return rc;
}
