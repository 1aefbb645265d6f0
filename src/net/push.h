/*
 * push: the only code that talks to the network. smoke --push PUTs the
 * Prometheus text exposition (src/report/outputs.h: report_prom) to a
 * Pushgateway, smoke --push-delete removes a machine's group, with
 * libcurl, opened at the first push (src/core/dynlib.h).
 */
#ifndef WSLGPU_PUSH_H
#define WSLGPU_PUSH_H

#include "../core/strbuf.h"

/*
 * PUTs body (text exposition) to URL/metrics/job/JOB/instance/INSTANCE
 * (Pushgateway API), within timeout_ms. Returns 0, or -1 with a one-line
 * message in err ("cannot reach http://...: Connection refused").
 * Built without libcurl (make static), it always fails and says so.
 */
int prom_push(const char *url, const char *job, const char *instance, const char *body,
	      int timeout_ms, struct strbuf *err);
/* DELETEs that group (a retired machine's metrics); the same URL checks,
 * time limit and messages as prom_push. */
int prom_push_delete(const char *url, const char *job, const char *instance, int timeout_ms,
		     struct strbuf *err);
/* The URL as messages and JSON may show it: "http://user:secret@gw/" and
 * "http://gw/?token=..." would put a secret into cron mail and CI logs, so
 * user:password becomes "<credentials>" and a query or fragment "?<query>"
 * or "#<fragment>". The caller frees it. */
char *prom_url_shown(const char *url);

#endif
