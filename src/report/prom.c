/* prom.c: Prometheus text exposition (being written). */
#include "outputs.h"

void report_prom(struct strbuf *out, const struct report *rep, const struct output_meta *meta)
{
	(void)rep;
	(void)meta;
	(void)out;
}
