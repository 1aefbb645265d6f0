/*
 * check.c: `wslgpu check` — run the chain of checks and report.
 */
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
#include "../report/format.h"
#include "../report/report.h"
#include "checkrun.h"
#include "cli.h"

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

struct check_args {
	bool verbose, list, strict;
	struct format_choice format;
	struct checkrun cr;
};

#define ARGS struct check_args
static const struct cli_option check_options[] = {
	OPT_BOOL('v', "verbose", ARGS, verbose, "show the evidence behind each decision and its time"),
	OPT_FORMATS(ARGS, format),
	OPT_BOOL(0, "list", ARGS, list, "list every check id with a one-line description"),
	OPT_BOOL(0, "strict", ARGS, strict, "exit 1 on warnings too"),
	OPT_RUN_OPTIONS(ARGS, cr),
	OPT_END(),
};
#undef ARGS

static const char *const check_usage[] = { "wslgpu check [OPTIONS]", NULL };

const struct cli_command check_command = {
	.name = "check",
	.run = cmd_check,
	.summary = "prove the GPU compute chain, layer by layer (default)",
	.root = ROOT_USED,
	.usage = check_usage,
	.about = "Proves the GPU compute chain in order (platform, bridge, host, libs, cuda,\n"
		 "nvml, toolkit, frameworks, containers, perf) and says which layer is broken,\n"
		 "why, and what to type to fix it.\n",
	.options = check_options,
	.epilog = "Exit status: 0 no failures, 1 a check failed, crashed or timed out,\n"
		  "2 usage error, 3 the tool itself could not run or could not write its\n"
		  "output, 130/143 interrupted by SIGINT/SIGTERM (what finished is reported).\n",
};

int cmd_check(int argc, char **argv)
{
	struct check_args a = { 0 };
	checkrun_init(&a.cr, "check");
	struct checkrun *cr = &a.cr;
	int rc = parse_options(&check_command, argc, argv, &a);
	if (rc < 0) {
		rc = parse_exit(rc);
		goto out;
	}
	if (rc > 0) {
		cli_usage_error("check", "unexpected argument '%s'", argv[0]);
		rc = EXIT_USAGE;
		goto out;
	}
	bool json = a.format.out && !strcmp(a.format.out->name, "json");
	if (a.list) {
		list_checks(json);
		goto out;
	}
	for (size_t i = 0; i < cr->n; i++)
		if (cr->want[i] && !strcmp(registry_checks(&cr->n)[i].layer, "policy")) {
			cli_usage_error("check", "--only: the policy checks compare the machine with a "
				       "policy file: run 'wslgpu smoke --policy FILE --only %s'",
				       registry_checks(&cr->n)[i].id);
			rc = EXIT_USAGE;
			goto out;
		}
	checkrun_execute(cr);
	struct report rep;
	checkrun_report(cr, &rep, a.verbose, 1);
	rep.strict = a.strict;
	struct strbuf out = STRBUF_INIT;
	struct format_input in = { .rep = &rep };
	format_write("check", a.format.out ? a.format.out->name : NULL, &out, &in);
	if (!a.format.out && a.verbose)
		checkrun_critical_path(cr, &out);
	/* -v is for reading: evidence of every check, longer than a screen */
	if (!a.format.out && a.verbose)
		pager_start();
	fwrite(out.buf, 1, out.len, stdout);
	sb_release(&out);
	fflush(stdout);
	checkrun_interrupt_note(cr->interrupted, cr->results, cr->n);
	rc = checkrun_exit_status(cr, a.strict);
out:
	checkrun_release(cr);
	return rc;
}
