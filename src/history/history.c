/* history.c: the run history database (being written). */
#include "history.h"

void history_default_path(struct strbuf *out)
{
	sb_add(out, "history.db");
}

int history_record(const char *db_path, const struct report *rep,
		   const struct history_meta *meta, struct strbuf *err)
{
	(void)rep;
	(void)meta;
	sb_addf(err, "%s: recording is not implemented yet", db_path);
	return -1;
}
