/*
 * junit.c: the smoke run as JUnit XML, the dialect Jenkins, GitLab, Azure
 * DevOps and GitHub test reporters read (validated in the tests against
 * Jenkins' junit-10.xsd, tests/schemas/).
 *
 * Mapping (README, "Outputs: JUnit, Prometheus, Pushgateway"):
 *   one <testsuite name="wslgpu.LAYER"> per layer, in chain order;
 *   one <testcase classname="wslgpu.LAYER" name="CHECK-ID"> per check;
 *   fail/crash/timeout -> <failure type="fail|crash|timeout"> with the
 *   detail as message and cause, fixes and evidence as text;
 *   skip -> <skipped>; warn -> a pass whose <system-out> holds the warning
 *   (a CI that failed on warnings would turn every old kernel red; --strict
 *   and the exit status are the way to make warnings fatal);
 *   a failure the policy tolerates -> a pass whose <system-out> says so.
 * Machine facts (kind, kernel, driver) are <properties> of every suite, so
 * a tool that splits suites still sees them.
 *
 * Everything comes from the machine, so everything is escaped for XML 1.0:
 * &, < and > as entities (and " in attribute values, which are written in
 * double quotes); control characters XML 1.0 forbids, U+FFFE/U+FFFF and
 * invalid UTF-8 as U+FFFD. The output is always well-formed.
 */
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

#include "../core/check.h"
#include "../core/json.h"
#include "../core/utf8.h"
#include "../kb/fixline.h"
#include "../kb/kb.h"
#include "../version.h"
#include "finding.h"
#include "outfacts.h"
#include "outputs.h"

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */
/* A message attribute is one line in a CI's table; the full text is in
 * the element's body. */
#define MESSAGE_MAX 1024

/* One character of XML 1.0 character data (ctx: whether inside an
 * attribute value, where tab, newline and CR are written as references so
 * that attribute-value normalisation does not turn them into spaces). */
static void xml_put(struct strbuf *sb, const unsigned char *p, int n, const void *ctx)
{
	bool attr = *(const bool *)ctx;
	if (n == 0) {
		sb_add(sb, REPLACEMENT);
		return;
	}
	if (n > 1) {
		if (n == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe)
			sb_add(sb, REPLACEMENT); /* U+FFFE, U+FFFF: not XML characters */
		else
			sb_addn(sb, p, (size_t)n);
		return;
	}
	switch (p[0]) {
	case '&': sb_add(sb, "&amp;"); break;
	case '<': sb_add(sb, "&lt;"); break;
	case '>': sb_add(sb, "&gt;"); break; /* also keeps "]]>" out */
	case '"': sb_add(sb, attr ? "&quot;" : "\""); break; /* values are in "" */
	case '\r': sb_add(sb, "&#13;"); break; /* parsers turn a raw CR into LF */
	case '\n': sb_add(sb, attr ? "&#10;" : "\n"); break;
	case '\t': sb_add(sb, attr ? "&#9;" : "\t"); break;
	default:
		if (p[0] < 0x20)
			sb_add(sb, REPLACEMENT); /* forbidden in XML 1.0 */
		else
			sb_addc(sb, (char)p[0]); /* DEL is allowed */
	}
}

/* Appends s escaped as XML 1.0 character data (attr: as an attribute
 * value). */
static void xml_esc(struct strbuf *sb, const char *s, bool attr)
{
	struct utf8_escape e = { "&<>\"", xml_put, &attr, 0 };
	utf8_escape(sb, s, strlen(s), &e);
}

static void attr(struct strbuf *sb, const char *name, const char *val)
{
	sb_addf(sb, " %s=\"", name);
	xml_esc(sb, val ? val : "", true);
	sb_addc(sb, '"');
}

/* The message attribute: the first line of detail, clipped at a UTF-8
 * character boundary. */
static void message_attr(struct strbuf *sb, const char *detail)
{
	size_t n = strcspn(detail, "\n");
	bool clipped = n > MESSAGE_MAX;
	if (clipped) {
		n = MESSAGE_MAX;
		while (n > 0 && ((unsigned char)detail[n] & 0xc0) == 0x80)
			n--;
	}
	char *line = xstrndup(detail, n);
	sb_add(sb, " message=\"");
	xml_esc(sb, line, true);
	if (clipped)
		sb_add(sb, " [...]");
	sb_addc(sb, '"');
	free(line);
}

/* Appends "label: text", continuation lines indented under the text. */
static void put_labelled(struct strbuf *body, const char *label, const char *text)
{
	sb_addf(body, "%-9s", label);
	for (const char *nl; (nl = strchr(text, '\n')); text = nl + 1) {
		sb_addn(body, text, (size_t)(nl - text + 1));
		sb_add(body, "         ");
	}
	sb_add(body, text);
	sb_addc(body, '\n');
}

/* The plain text of a finding: detail, cause, fixes, evidence, source. */
static void junit_finding(struct strbuf *body, const struct result *r)
{
	struct finding_view v;
	finding_of_result(&v, r);
	put_labelled(body, "detail", r->detail && *r->detail ? r->detail : r->def->title);
	if (v.cause)
		put_labelled(body, "cause", v.cause);
	for (size_t i = 0; i < v.nfix; i++) {
		struct fix_shell fs; /* a line that pastes */
		fix_shell_of(v.fix[i], &fs);
		put_labelled(body, i ? "" : "fix", fs.line);
		fix_shell_release(&fs);
	}
	struct strbuf t = STRBUF_INIT;
	for (size_t i = 0; i < r->ev.n; i++) {
		sb_reset(&t);
		sb_addf(&t, "%s: %s", r->ev.v[i].key, r->ev.v[i].val);
		put_labelled(body, i ? "" : "evidence", t.buf);
	}
	sb_release(&t);
	for (size_t i = 0; i < v.nsource; i++)
		put_labelled(body, i ? "" : "source", v.source[i]);
	if (r->kb)
		put_labelled(body, "kb", r->kb);
	finding_view_release(&v);
}

static void put_testcase(struct strbuf *sb, const struct result *r)
{
	sb_add(sb, "    <testcase");
	struct strbuf cls = STRBUF_INIT;
	sb_addf(&cls, "wslgpu.%s", r->def->layer);
	attr(sb, "classname", cls.buf);
	attr(sb, "name", r->def->id);
	sb_addf(sb, " time=\"%.3f\"", r->ms > 0 ? r->ms / 1000.0 : 0.0);
	sb_release(&cls);

	if (r->status == ST_PASS) {
		sb_add(sb, "/>\n");
		return;
	}
	const char *detail = r->detail && *r->detail ? r->detail : r->def->title;
	struct strbuf body = STRBUF_INIT;
	sb_add(sb, ">\n");
	if (r->status == ST_SKIP) {
		sb_add(sb, "      <skipped");
		message_attr(sb, detail);
		sb_add(sb, "/>\n");
	} else if (r->status == ST_UNKNOWN) {
		/* Could not find out: not a pass, and no failure either. CI
		 * tools show a skipped test with its message (GitLab, Jenkins,
		 * GitHub's test reporters), which is what this is: a test that
		 * could not be carried out. The finding follows as output. */
		struct strbuf m = STRBUF_INIT;
		sb_addf(&m, "unknown: %s", detail);
		sb_add(sb, "      <skipped");
		message_attr(sb, m.buf);
		sb_add(sb, "/>\n");
		sb_release(&m);
		sb_add(&body, "could not be verified (does not fail the run)\n");
		sb_addf(&body, "%-9s%s\n", "status", status_name(r->status));
		junit_finding(&body, r);
		sb_add(sb, "      <system-out>");
		xml_esc(sb, body.buf, false);
		sb_add(sb, "</system-out>\n");
	} else if (result_fails_run(r)) {
		sb_add(sb, "      <failure");
		attr(sb, "type", status_name(r->status));
		message_attr(sb, detail);
		sb_addc(sb, '>');
		junit_finding(&body, r);
		xml_esc(sb, body.buf, false);
		sb_add(sb, "</failure>\n");
	} else {
		/* warn, or a failure the policy tolerates: a pass that says why. */
		sb_addf(&body, "%s\n", r->status == ST_WARN ? "warning (does not fail the run)"
				: "tolerated by policy (does not fail the run)");
		sb_addf(&body, "%-9s%s\n", "status", status_name(r->status));
		junit_finding(&body, r);
		sb_add(sb, "      <system-out>");
		xml_esc(sb, body.buf, false);
		sb_add(sb, "</system-out>\n");
	}
	if (status_is_failure(r->status) && r->output && *r->output) {
		sb_add(sb, "      <system-err>");
		xml_esc(sb, r->output, false);
		if (r->output_truncated)
			sb_add(sb, "\n[truncated]");
		sb_add(sb, "</system-err>\n");
	}
	sb_add(sb, "    </testcase>\n");
	sb_release(&body);
}

static void property(struct strbuf *sb, const char *name, const char *val)
{
	if (!val || !*val)
		return;
	sb_add(sb, "      <property");
	attr(sb, "name", name);
	attr(sb, "value", val);
	sb_add(sb, "/>\n");
}

static void put_properties(struct strbuf *sb, const struct report *rep,
			   const struct output_meta *meta)
{
	struct out_facts f;
	out_facts(rep, &f);
	sb_add(sb, "    <properties>\n");
	property(sb, "wslgpu.version", WSLGPU_VERSION);
	property(sb, "platform.kind", f.kind);
	property(sb, "platform.kernel", f.kernel);
	property(sb, "platform.distro", f.distro);
	property(sb, "driver.version", f.driver);
	property(sb, "driver.cuda", f.driver_cuda);
	if (meta && meta->policy_path)
		property(sb, "smoke.policy", meta->policy_path);
	if (meta) {
		char code[16];
		snprintf(code, sizeof code, "%d", meta->exit_status);
		property(sb, "smoke.exit_status", code);
	}
	sb_add(sb, "    </properties>\n");
}

static bool in_junit(const struct report *rep, size_t i)
{
	return rep->shown[i] && rep->results[i].ran && rep->results[i].def;
}

/* True if an earlier shown result already opened this layer's suite. */
static bool layer_seen(const struct report *rep, size_t upto, const char *layer)
{
	for (size_t j = 0; j < upto; j++)
		if (in_junit(rep, j) && strcmp(rep->results[j].def->layer, layer) == 0)
			return true;
	return false;
}

void report_junit(struct strbuf *out, const struct report *rep, const struct output_meta *meta)
{
	char stamp[32] = "";
	if (meta && meta->when) {
		struct tm tm;
		if (gmtime_r(&meta->when, &tm))
			strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
	}

	int tests = 0, failures = 0;
	double secs = 0, probes = 0;
	for (size_t i = 0; i < rep->n; i++)
		if (in_junit(rep, i)) {
			tests++;
			failures += result_fails_run(&rep->results[i]);
			probes += rep->results[i].ms / 1000.0;
		}
	secs = probes;
	if (meta && meta->duration_ms > 0)
		secs = meta->duration_ms / 1000.0;
	/* Probes run in parallel, so their times can add up to more than the
	 * run took: each suite then gets its share of the run's time, so that
	 * the suites add up to at most the total (rounded down, to the ms). A
	 * testcase keeps its probe's own time. */
	double share = probes > secs && probes > 0 ? secs / probes : 1.0;

	sb_add(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
	attr(out, "name", meta && meta->suite ? meta->suite : "wslgpu");
	sb_addf(out, " tests=\"%d\" failures=\"%d\" errors=\"0\" time=\"%.3f\">\n", tests,
		failures, secs);

	int suite_id = 0;
	for (size_t i = 0; i < rep->n; i++) {
		if (!in_junit(rep, i))
			continue;
		const char *layer = rep->results[i].def->layer;
		if (layer_seen(rep, i, layer))
			continue;
		int n = 0, fails = 0, skips = 0;
		double lsecs = 0;
		for (size_t j = i; j < rep->n; j++) {
			const struct result *r = &rep->results[j];
			if (!in_junit(rep, j) || strcmp(r->def->layer, layer) != 0)
				continue;
			n++;
			fails += result_fails_run(r);
			skips += r->status == ST_SKIP || r->status == ST_UNKNOWN;
			lsecs += r->ms / 1000.0;
		}
		struct strbuf name = STRBUF_INIT;
		sb_addf(&name, "wslgpu.%s", layer);
		sb_add(out, "  <testsuite");
		attr(out, "name", name.buf);
		sb_addf(out, " tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\""
			" time=\"%.3f\" id=\"%d\"", n, fails, skips, floor(lsecs * share * 1000) / 1000,
			suite_id++);
		if (*stamp)
			attr(out, "timestamp", stamp);
		sb_add(out, ">\n");
		sb_release(&name);
		put_properties(out, rep, meta);
		for (size_t j = i; j < rep->n; j++)
			if (in_junit(rep, j) && strcmp(rep->results[j].def->layer, layer) == 0)
				put_testcase(out, &rep->results[j]);
		sb_add(out, "  </testsuite>\n");
	}
	sb_add(out, "</testsuites>\n");
}
