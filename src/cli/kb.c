/*
 * kb.c: `wslgpu kb [ID...]` — list the knowledge base, or show entries.
 * The same entries explain check findings; this makes them readable alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/strbuf.h"
#include "../kb/kb.h"
#include "../report/finding.h"
#include "cli.h"

static void show_list(const char *label, const struct kb_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		printf("  %-8s %s\n", i ? "" : label, l->v[i]);
}

/* "no entry" with the closest ids, or those the word begins. */
static void no_entry(const struct kb *kb, const char *id)
{
	const char **ids = xcalloc(kb->n, sizeof *ids), *near[4];
	for (size_t i = 0; i < kb->n; i++)
		ids[i] = kb->e[i].id;
	size_t k = cli_similar(id, ids, kb->n, near, 4);
	fprintf(stderr, "wslgpu kb: no entry '%s'", id);
	for (size_t i = 0; i < k; i++)
		fprintf(stderr, "%s%s", i ? ", " : k == 1 ? "; did you mean " : "; did you mean one of: ",
			near[i]);
	fprintf(stderr, "%s (list them all: wslgpu kb)\n", k ? "?" : "");
	free(ids);
}

int cmd_kb(int argc, char **argv)
{
	const struct kb *kb = kb_builtin();
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		puts("usage: wslgpu kb [ID...]\n\nWithout ids, lists every knowledge-base entry; "
		     "with ids, shows them in full.");
		return EXIT_OK;
	}
	if (argc <= 1) {
		for (size_t i = 0; i < kb->n; i++)
			printf("%-40s %-10s %s\n", kb->e[i].id, kb->e[i].layer, kb->e[i].title);
		return EXIT_OK;
	}
	int rc = EXIT_OK;
	for (int a = 1; a < argc; a++) {
		const struct kb_entry *e = kb_find(argv[a]);
		if (!e) {
			no_entry(kb, argv[a]);
			rc = EXIT_USAGE;
			continue;
		}
		printf("[%s] %s\n  layer    %s (%s)\n", e->id, e->title, e->layer, e->kind);
		/* Read without a machine's evidence, the way explain shows it:
		 * general advice, a slot no run filled in capitals (VERSION). */
		struct finding_view fv;
		finding_expand(&fv, e, NULL, NULL);
		if (fv.cause)
			printf("  cause    %s\n", fv.cause);
		struct kb_list fixes = { (const char **)fv.fix, fv.nfix };
		show_list("fix", &fixes);
		finding_view_release(&fv);
		if (e->confirm)
			printf("  confirm  %s\n", e->confirm);
		show_list("source", &e->source);
		show_list("match", &e->match);
		show_list("regex", &e->regex);
		show_list("see", &e->see);
	}
	return rc;
}
