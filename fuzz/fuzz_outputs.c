/* fuzz_outputs.c: what `smoke` and `report` read and write — the fleet
 * policy file (any bytes), the JUnit and Prometheus writers fed results
 * whose ids, details, KB ids, evidence and output are hostile strings, and
 * the support bundle's redactor. The writers' output must stay well-formed
 * whatever went in: JUnit without the control characters XML 1.0 forbids,
 * Prometheus with every label value's quotes balanced on its own line. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bundle/redact.h"
#include "core/check.h"
#include "core/result.h"
#include "parse/jsonscan.h"
#include "parse/policy.h"
#include "report/outputs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NFIELD 16

/* Splits a copy of the input at NUL bytes into up to NFIELD strings. */
static size_t split(char *buf, size_t size, char **f)
{
	size_t n = 0, start = 0;
	for (size_t i = 0; i <= size && n < NFIELD; i++)
		if (i == size || buf[i] == '\0') {
			buf[i] = '\0';
			f[n++] = buf + start;
			start = i + 1;
		}
	return n;
}

static void junit_well_formed(const struct strbuf *sb)
{
	for (size_t i = 0; i < sb->len; i++) {
		unsigned char c = (unsigned char)sb->buf[i];
		if (c < 0x20 && c != '\n' && c != '\t' && c != '\r')
			abort(); /* not a character XML 1.0 allows */
	}
}

static void prom_well_formed(const struct strbuf *sb)
{
	bool in_quotes = false;
	for (size_t i = 0; i < sb->len; i++) {
		char c = sb->buf[i];
		if (c == '\0')
			abort();
		if (in_quotes && c == '\\') {
			i++; /* an escape: \\, \", \n */
			continue;
		}
		if (c == '"')
			in_quotes = !in_quotes;
		if (c == '\n' && in_quotes)
			abort(); /* a label value ran into the next line */
	}
	if (in_quotes)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data;
	struct policy pol;
	policy_parse(p, size, "fuzz.ini", &pol);
	policy_free(&pol);

	char *buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	char *f[NFIELD];
	size_t nf = split(buf, size, f);
	for (size_t i = nf; i < NFIELD; i++)
		f[i] = "";

	/* String helpers of the policy on the fields. */
	struct version v;
	unsigned long long bytes;
	policy_parse_version(f[0], &v);
	policy_parse_size(f[0], &bytes);
	policy_parse_duration(f[0]);
	policy_glob_match(f[0], f[1]);
	policy_path_forbidden(f[0], f[1][0] == '/' ? f[1] : "/mnt/c/data");
	policy_pin_match(f[0], f[1]);

	/* Three checks whose every string comes from the input. */
	struct check_def defs[3] = {
		{ "platform.kind", "platform", f[2], f[3], { NULL }, NULL, 0 },
		{ f[4][0] ? f[4] : "x.y", f[5], f[6], f[7], { NULL }, NULL, 0 },
		{ "nvml.smi", f[8], f[9], "", { NULL }, NULL, 0 },
	};
	struct result res[3];
	bool shown[3] = { true, true, size & 1 };
	for (size_t i = 0; i < 3; i++) {
		result_init(&res[i], &defs[i]);
		res[i].ran = true;
		res[i].status = (enum status)((size ? data[i % size] : 0) % ST__COUNT);
		res[i].detail = strdup(f[10 + i]);
		res[i].kb = i == 1 ? NULL : strdup(f[13]);
		res[i].output = i == 2 ? strdup(f[14]) : NULL;
		res[i].ms = (double)(size % 1000);
	}
	res_ev(&res[0], "kind", "%s", f[1]);
	res_ev(&res[0], "distro", "%s", f[15]);
	res_ev(&res[0], "kernel", "%s", f[0]);
	res_ev(&res[1], f[15][0] ? f[15] : "k", "%s", f[14]);
	res_ev(&res[2], "driver_version", "%s", f[0]);
	res_ev(&res[2], "cuda_version", "%s", f[1]);

	struct report rep = { .results = res, .shown = shown, .n = 3, .verbose = true };
	struct output_meta meta = { f[6], 1700000000, 1234.5, 1, size & 2 ? f[7] : NULL,
				    (int)(size % 100000), (size & 4) != 0 };
	struct strbuf out = STRBUF_INIT;
	report_junit(&out, &rep, &meta);
	junit_well_formed(&out);
	sb_reset(&out);
	report_prom(&out, &rep, &meta);
	prom_well_formed(&out);

	/* The redactor learns from the input and the results, then rewrites
	 * both. */
	struct redactor *rd = redactor_new();
	redact_add(rd, REDACT_USER, f[1]);
	redact_add(rd, REDACT_HOST, f[2]);
	redact_learn(rd, p, size);
	redact_learn_results(rd, res, 3);
	sb_reset(&out);
	redact_text(rd, f[3], p, size, &out);
	/* JSON in, JSON out (a Docker auth config, a collected .json file). */
	struct js_val jin;
	if (js_parse_all(p, size, &jin) == 0) {
		sb_reset(&out);
		redact_text(rd, NULL, p, size, &out);
		struct js_val jout;
		if (js_parse_all(out.buf ? out.buf : "", out.len, &jout) < 0)
			__builtin_trap();
	}
	free(redact_dup(rd, "output", f[4]));
	struct result red[3];
	redact_results(rd, res, 3, red);
	for (size_t i = 0; i < 3; i++)
		result_release(&red[i]);
	for (int c = 0; c < REDACT__COUNT; c++) {
		size_t nv, nr;
		redact_stats(rd, (enum redact_cat)c, &nv, &nr);
	}
	redact_secret_name(f[5], strlen(f[5]));
	redactor_free(rd);

	for (size_t i = 0; i < 3; i++)
		result_release(&res[i]);
	sb_release(&out);
	free(buf);
	return 0;
}
