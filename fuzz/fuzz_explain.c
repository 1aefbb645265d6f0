/* fuzz_explain.c: `wslgpu explain`'s engine on arbitrary bytes — the line
 * normaliser, the matcher fed in chunks of varying size (lines spanning
 * chunks, clipped lines, wrapped pairs), the text and JSON reports of what
 * it found (every byte of the input that reaches them must be sanitised),
 * and the prefilter-key derivation on the input read as a regex. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/confirm.h"
#include "explain/literal.h"
#include "explain/matcher.h"
#include "explain/normalize.h"
#include "explain/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data;

	char *out = malloc(size + 1);
	struct norm_line nl;
	norm_line(p, size, out, &nl);
	if (nl.len > size || nl.msg > nl.len || strlen(nl.text) != nl.len)
		abort();
	free(out);

	/* Chunk sizes come from the first byte, so lines straddle chunks. */
	size_t step = size ? (size_t)data[0] % 97 + 1 : 1;
	struct explain_scan s;
	explain_scan_init(&s, explain_db_builtin());
	for (size_t off = 0; off < size; off += step)
		explain_scan_feed(&s, p + off, size - off < step ? size - off : step);
	explain_scan_finish(&s);

	struct cause_rank **ranks = calloc(s.nfound ? s.nfound : 1, sizeof *ranks);
	for (size_t i = 0; i < s.nfound; i++) {
		const struct explain_sig *sig = &s.db->sig[s.found[i]->sig];
		ranks[i] = calloc(sig->ncause ? sig->ncause : 1, sizeof **ranks);
		rank_causes(sig, NULL, NULL, 0, ranks[i]);
	}
	struct explain_view v = { &s, "fuzz", false, ranks, true, true };
	FILE *null = fopen("/dev/null", "w");
	if (null) {
		explain_report_text(null, &v);
		explain_report_json(null, &v);
		fclose(null);
	}
	for (size_t i = 0; i < s.nfound; i++)
		free(ranks[i]);
	free(ranks);
	explain_scan_release(&s);

	char *re = malloc(size + 1);
	memcpy(re, p, size);
	re[size] = '\0';
	struct litset ls;
	if (ere_required(re, &ls) == 0)
		litset_free(&ls);
	free(re);
	return 0;
}
