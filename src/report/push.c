/* push.c: Pushgateway client (being written). */
#include "outputs.h"

int prom_push(const char *url, const char *job, const char *instance, const char *body,
	      int timeout_ms, struct strbuf *err)
{
	(void)job;
	(void)instance;
	(void)body;
	(void)timeout_ms;
	sb_addf(err, "pushing to %s is not implemented yet", url);
	return -1;
}
