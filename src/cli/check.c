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
#include "../core/layers.h"
#include "../core/proc.h"
#include "../core/runner.h"
#include "../core/text.h"
#include "../probes/registry.h"
#include "../report/report.h"
#include "checkrun.h"
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
	      "      --list           list every check id with a one-line description\n"
	      "      --strict         exit 1 on warnings too\n"
	      CHECKRUN_HELP
	      "  -h, --help           show this help\n"
	      "\n"
	      "Exit status: 0 no failures, 1 a check failed, crashed or timed out,\n"
	      "2 usage error, 3 the tool itself could not run, 130/143 interrupted by\n"
	      "SIGINT/SIGTERM (what finished is reported).\n",
	      f);
}

static void list_checks(bool json)
{
	size_t nl, n;
	const struct layer *layers = layers_in_order(&nl);
	const struct check_def *defs = registry_checks(&n);
	struct strbuf sb = STRBUF_INIT;
	struct json_writer jw;
	jw_init(&jw, &sb);
	if (json) {
		jw_object_begin(&jw);
		jw_kv_str(&jw, "schema", "wslgpu/checks/1");
		jw_kv_array_lines(&jw, "checks");
	}
	for (size_t l = 0; l < nl; l++) {
		if (!json)
			sb_addf(&sb, "%-10s %s\n", layers[l].name, layers[l].title);
		for (size_t i = 0; i < n; i++) {
			if (strcmp(defs[i].layer, layers[l].name) != 0)
				continue;
			if (json) {
				jw_object_begin(&jw);
				jw_kv_str(&jw, "id", defs[i].id);
				jw_kv_str(&jw, "layer", defs[i].layer);
				jw_kv_str(&jw, "title", defs[i].title);
				jw_kv_str(&jw, "summary", defs[i].summary);
				jw_kv_array(&jw, "deps");
				for (int d = 0; d < CHECK_MAX_DEPS && defs[i].deps[d]; d++)
					jw_str(&jw, defs[i].deps[d]);
				jw_end(&jw);
				/* Every check is built; the field stays for readers of
				 * the --list --json format (doc/json.md). */
				jw_kv_bool(&jw, "implemented", true);
				jw_end(&jw);
			} else {
				/* The id first (completions read it), the summary
				 * wrapped under itself. */
				sb_addf(&sb, "  %-22s ", defs[i].id);
				struct text_wrap w = { text_columns(), 25, 25, 0, NULL };
				text_wrap(&sb, defs[i].summary, &w);
				sb_addc(&sb, '\n');
			}
		}
	}
	if (json) {
		jw_end(&jw);
		jw_end(&jw);
		sb_addc(&sb, '\n');
	}
	fputs(sb_str(&sb), stdout);
	sb_release(&sb);
}

int cmd_check(int argc, char **argv)
{
	enum { OPT_JSON = 256, OPT_LIST, OPT_STRICT };
	static const struct option longopts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "help", no_argument, NULL, 'h' },
		CHECKRUN_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct checkrun cr;
	checkrun_init(&cr, "check");
	bool verbose = false, json = false, list = false, strict = false;
	int rc = EXIT_OK;

	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'v': verbose = true; break;
		case OPT_JSON: json = true; break;
		case OPT_LIST: list = true; break;
		case OPT_STRICT: strict = true; break;
		case 'h':
			check_help(stdout);
			goto out;
		default:
			if ((rc = checkrun_other_option(&cr, c, optarg, argv)))
				goto out;
			break;
		}
	}
	if ((rc = checkrun_no_operands(&cr, argc, argv)))
		goto out;
	if (list) {
		list_checks(json);
		goto out;
	}
	for (size_t i = 0; i < cr.n; i++)
		if (cr.want[i] && !strcmp(registry_checks(&cr.n)[i].layer, "policy")) {
			cli_usage_error("check", "--only: the policy checks compare the machine with a "
				       "policy file: run 'wslgpu smoke --policy FILE --only %s'",
				       registry_checks(&cr.n)[i].id);
			rc = EXIT_USAGE;
			goto out;
		}
	checkrun_execute(&cr);
	struct report rep;
	checkrun_report(&cr, &rep, verbose, 1);
	rep.strict = strict;
	struct strbuf out = STRBUF_INIT;
	if (json) {
		report_json(&out, &rep);
	} else {
		report_text(&out, &rep);
		if (verbose)
			checkrun_critical_path(&cr, &out);
	}
	fwrite(out.buf, 1, out.len, stdout);
	sb_release(&out);
	fflush(stdout);
	checkrun_interrupt_note(cr.interrupted, cr.results, cr.n);
	rc = checkrun_exit_status(&cr, strict);
out:
	checkrun_release(&cr);
	return rc;
}
