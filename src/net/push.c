/*
 * push.c: PUT the text exposition to a Prometheus Pushgateway, for machines
 * Prometheus cannot scrape (laptops behind NAT, workstations that sleep).
 *
 * URL form (Pushgateway README, "URL"):
 *   URL/metrics/job/JOB/instance/INSTANCE
 * PUT replaces every metric of that group, so a check that disappeared
 * does not linger; DELETE of the same URL (prom_push_delete) removes the
 * group of a retired machine, which the Pushgateway would otherwise keep
 * serving, stale, for ever. A value is percent-encoded; one containing '/' (or an
 * empty one) uses the "@base64" form, base64url (RFC 4648 section 5),
 * the only encoding the Pushgateway accepts for those
 * (https://github.com/prometheus/pushgateway#url).
 *
 * Only http and https, no redirects, the whole exchange within timeout_ms,
 * no signals (CURLOPT_NOSIGNAL: the resolver's alarm would hit the probe
 * runner's own handlers). Proxies: libcurl honours http_proxy, https_proxy
 * and no_proxy from the environment, as curl(1) does; a fleet behind a
 * corporate proxy needs exactly that, and no_proxy=HOST bypasses it.
 */
#include "push.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/dynlib.h"
#include "../version.h"

char *prom_url_shown(const char *url)
{
	const char *scheme = strstr(url, "://");
	const char *auth = scheme ? scheme + 3 : url;
	size_t authlen = strcspn(auth, "/?#");
	const char *at = NULL;
	for (const char *p = auth; p < auth + authlen; p++)
		if (*p == '@')
			at = p;
	struct strbuf sb = STRBUF_INIT;
	if (at) {
		sb_addn(&sb, url, (size_t)(auth - url));
		sb_add(&sb, "<credentials>");
		sb_addn(&sb, at, strcspn(at, "?#"));
	} else {
		sb_addn(&sb, url, strcspn(url, "?#"));
	}
	/* A query or fragment may be anywhere after the host part too. */
	const char *rest = url + strcspn(url, "?#");
	if (*rest == '?')
		sb_add(&sb, "?<query>");
	else if (*rest == '#')
		sb_add(&sb, "#<fragment>");
	return sb_detach(&sb);
}

#ifdef WSLGPU_NO_CURL

int prom_push(const char *url, const char *job, const char *instance, const char *body,
	      int timeout_ms, struct strbuf *err)
{
	(void)url;
	(void)job;
	(void)instance;
	(void)body;
	(void)timeout_ms;
	sb_add(err, "this wslgpu was built without libcurl (static build): --push is not "
		    "available; use --prom FILE and node_exporter, or the dynamic build");
	return -1;
}

int prom_push_delete(const char *url, const char *job, const char *instance, int timeout_ms,
		     struct strbuf *err)
{
	(void)url;
	(void)job;
	(void)instance;
	(void)timeout_ms;
	sb_add(err, "this wslgpu was built without libcurl (static build): --push-delete is not "
		    "available; use curl -X DELETE URL/metrics/job/JOB/instance/INSTANCE");
	return -1;
}

#else

/*
 * libcurl, opened at the first push (src/core/dynlib.h) with our own
 * declarations: the few entry points, option numbers and codes used here,
 * from curl.h and urlapi.h of libcurl 7.88 (option numbers are ABI: curl
 * never renumbers them). tests/e2e/outputs.sh pushes to a real
 * Pushgateway-like server through them.
 */
typedef struct curl_handle CURL;
typedef struct curl_url_handle CURLU;
typedef int CURLcode;
typedef int CURLUcode;
typedef long long curl_off_t;
struct curl_slist;
/* The first members of curl_version_info_data, which never change. */
struct curl_version_head {
	int age;
	const char *version;
	unsigned int version_num;
};

enum {
	CURLE_OK = 0,
	CURLE_COULDNT_RESOLVE_PROXY = 5,
	CURLE_COULDNT_RESOLVE_HOST = 6,
	CURLE_COULDNT_CONNECT = 7,
	CURLE_OPERATION_TIMEDOUT = 28,
	CURLUE_OK = 0,
	CURLUPART_URL = 0,
	CURLUPART_USER = 2,
	CURLUPART_PASSWORD = 3,
	CURLUPART_HOST = 5,
	CURL_GLOBAL_DEFAULT = 3,
	CURL_ERROR_SIZE = 256,
	CURLPROTO_HTTP = 1,
	CURLPROTO_HTTPS = 2,
	/* CURLOPTTYPE_LONG 0, OBJECTPOINT 10000, FUNCTIONPOINT 20000, OFF_T 30000 */
	CURLOPT_WRITEDATA = 10001,
	CURLOPT_URL = 10002,
	CURLOPT_ERRORBUFFER = 10010,
	CURLOPT_WRITEFUNCTION = 20011,
	CURLOPT_POSTFIELDS = 10015,
	CURLOPT_USERAGENT = 10018,
	CURLOPT_HTTPHEADER = 10023,
	CURLOPT_CUSTOMREQUEST = 10036,
	CURLOPT_FOLLOWLOCATION = 52,
	CURLOPT_NOSIGNAL = 99,
	CURLOPT_POSTFIELDSIZE_LARGE = 30120,
	CURLOPT_TIMEOUT_MS = 155,
	CURLOPT_CONNECTTIMEOUT_MS = 156,
	CURLOPT_PROTOCOLS = 181,
	CURLOPT_PROTOCOLS_STR = 10318,
	/* CURLINFO_LONG 0x200000 */
	CURLINFO_RESPONSE_CODE = 0x200000 + 2,
	CURLINFO_OS_ERRNO = 0x200000 + 25,
};

static struct {
	CURLcode (*global_init)(long);
	void (*global_cleanup)(void);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *, int, ...);
	CURLcode (*easy_perform)(CURL *);
	CURLcode (*easy_getinfo)(CURL *, int, ...);
	void (*easy_cleanup)(CURL *);
	const char *(*easy_strerror)(CURLcode);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void (*slist_free_all)(struct curl_slist *);
	CURLU *(*url)(void);
	void (*url_cleanup)(CURLU *);
	CURLUcode (*url_set)(CURLU *, int, const char *, unsigned int);
	CURLUcode (*url_get)(const CURLU *, int, char **, unsigned int);
	const char *(*url_strerror)(CURLUcode);
	void (*free)(void *);
	struct curl_version_head *(*version_info)(int);
} cu;

static int load_curl(struct strbuf *err)
{
#define S(field, name) { name, (void **)&cu.field }
	static const struct dynlib_sym syms[] = {
		S(global_init, "curl_global_init"), S(global_cleanup, "curl_global_cleanup"),
		S(easy_init, "curl_easy_init"), S(easy_setopt, "curl_easy_setopt"),
		S(easy_perform, "curl_easy_perform"), S(easy_getinfo, "curl_easy_getinfo"),
		S(easy_cleanup, "curl_easy_cleanup"), S(easy_strerror, "curl_easy_strerror"),
		S(slist_append, "curl_slist_append"), S(slist_free_all, "curl_slist_free_all"),
		S(url, "curl_url"), S(url_cleanup, "curl_url_cleanup"), S(url_set, "curl_url_set"),
		S(url_get, "curl_url_get"), S(url_strerror, "curl_url_strerror"),
		S(free, "curl_free"), S(version_info, "curl_version_info"), { NULL, NULL },
	};
#undef S
	return dynlib_open("libcurl.so.4", "libcurl4", syms, err);
}

#define BODY_KEEP 4096 /* of the gateway's answer, for the error message */

/* Appends one path segment pair "/NAME/VALUE" (see the comment at the top). */
static void add_group_label(struct strbuf *path, const char *name, const char *val)
{
	/* "." and ".." too: a URL parser would fold them away as dot segments. */
	if (!*val || strchr(val, '/') || strcmp(val, ".") == 0 || strcmp(val, "..") == 0) {
		size_t n = strlen(val);
		sb_addf(path, "/%s@base64/", name);
		if (!n)
			sb_addc(path, '='); /* the README: "a single = is required" */
		sb_add_base64(path, val, n, true);
		return;
	}
	sb_addf(path, "/%s/", name);
	for (const unsigned char *p = (const unsigned char *)val; *p; p++) {
		if (isalnum(*p) || strchr("-._~", *p))
			sb_addc(path, (char)*p);
		else
			sb_addf(path, "%%%02X", *p);
	}
}

/* Checks the URL without the network: http(s)://HOST[:PORT][/PATH], no
 * query, fragment, spaces or control characters. The caller names the
 * option and the URL; the message says only what is wrong with it. */
static int check_url(const char *url, struct strbuf *err)
{
	const char *rest = NULL;
	int rc = -1;
	if (strncasecmp(url, "http://", 7) == 0)
		rest = url + 7;
	else if (strncasecmp(url, "https://", 8) == 0)
		rest = url + 8;
	size_t hostlen = rest ? strcspn(rest, "/") : 0;
	const char *at = rest ? memchr(rest, '@', hostlen) : NULL;
	const unsigned char *bad = (const unsigned char *)url;
	while (*bad && *bad > ' ' && *bad != 0x7f && *bad != '?' && *bad != '#')
		bad++;
	if (!rest) {
		const char *colon = strstr(url, "://");
		if (colon)
			sb_addf(err, "only http:// and https:// URLs are accepted, not %.*s://",
				(int)(colon - url), url);
		else
			sb_add(err, "not a URL; expected http://HOST:PORT (the Pushgateway "
				    "listens on 9091 by default)");
	} else if (hostlen == 0 || (at && at == rest + hostlen - 1)) {
		sb_add(err, "the URL names no host");
	} else if (*bad) {
		sb_addf(err, "the URL may not contain %s",
			*bad == '?' ? "a query (?)" : *bad == '#' ? "a fragment (#)"
			: "spaces or control characters");
	} else {
		rc = 0;
	}
	return rc;
}

struct answer {
	struct strbuf text;
};

static size_t keep_answer(char *data, size_t size, size_t n, void *user)
{
	struct answer *a = user;
	size_t len = size * n;
	if (a->text.len < BODY_KEEP)
		sb_addn(&a->text, data, len < BODY_KEEP - a->text.len ? len : BODY_KEEP - a->text.len);
	return len;
}

/* The push URL for messages, without any user:password in it. */
static char *shown_url(CURLU *u, const char *fallback)
{
	char *s = NULL;
	cu.url_set(u, CURLUPART_USER, NULL, 0);
	cu.url_set(u, CURLUPART_PASSWORD, NULL, 0);
	if (cu.url_get(u, CURLUPART_URL, &s, 0) != CURLUE_OK || !s)
		return prom_url_shown(fallback);
	char *r = xstrdup(s);
	cu.free(s);
	return r;
}

static void timeout_text(struct strbuf *sb, int ms)
{
	if (ms % 1000 == 0)
		sb_addf(sb, "%d s", ms / 1000);
	else
		sb_addf(sb, "%.1f s", ms / 1000.0);
}

static void describe_curl_error(struct strbuf *err, CURL *h, CURLcode rc, const char *verb,
				const char *shown, const char *host, int timeout_ms,
				const char *errbuf)
{
	long oserr = 0;
	cu.easy_getinfo(h, CURLINFO_OS_ERRNO, &oserr);
	switch (rc) {
	case CURLE_OPERATION_TIMEDOUT:
		sb_addf(err, "the Pushgateway at %s did not answer within ", shown);
		timeout_text(err, timeout_ms);
		break;
	case CURLE_COULDNT_RESOLVE_HOST:
		sb_addf(err, "cannot %s %s: host %s not found (DNS)", verb, shown, host);
		break;
	case CURLE_COULDNT_RESOLVE_PROXY:
		sb_addf(err, "cannot %s %s: the proxy's host is not found (check "
			     "http_proxy/https_proxy, or set no_proxy=%s)", verb, shown, host);
		break;
	case CURLE_COULDNT_CONNECT:
		sb_addf(err, "cannot %s %s: %s (is the Pushgateway running there?)", verb, shown,
			oserr ? strerror((int)oserr) : (*errbuf ? errbuf : cu.easy_strerror(rc)));
		break;
	default:
		sb_addf(err, "cannot %s %s: %s", verb, shown,
			*errbuf ? errbuf : cu.easy_strerror(rc));
		break;
	}
}

/* PUT body to the group's URL, or DELETE the group when body is NULL. */
static int gateway_request(const char *url, const char *job, const char *instance,
			   const char *body, int timeout_ms, struct strbuf *err)
{
	const char *verb = body ? "push to" : "delete";
	if (check_url(url, err) < 0)
		return -1;
	if (!job || !*job) {
		sb_add(err, "the Pushgateway needs a job name");
		return -1;
	}
	if (timeout_ms <= 0)
		timeout_ms = 10000;

	struct strbuf full = STRBUF_INIT;
	sb_add(&full, url);
	while (full.len && full.buf[full.len - 1] == '/')
		full.buf[--full.len] = '\0';
	sb_add(&full, "/metrics");
	add_group_label(&full, "job", job);
	if (instance)
		add_group_label(&full, "instance", instance);

	int ret = -1;
	char *shown = NULL, *host = NULL;
	struct answer ans = { STRBUF_INIT };
	struct curl_slist *headers = NULL;
	CURL *h = NULL;
	char errbuf[CURL_ERROR_SIZE] = "";
	struct strbuf why = STRBUF_INIT;
	if (load_curl(&why) < 0) {
		sb_addf(err, "cannot %s: %s", body ? "push" : "delete", why.buf);
		sb_release(&why);
		sb_release(&full);
		return -1;
	}
	if (cu.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		sb_addf(err, "cannot %s: libcurl could not be initialised", body ? "push" : "delete");
		sb_release(&full);
		return -1;
	}
	CURLU *u = cu.url();
	if (!u)
		goto out_nomem;
	CURLUcode uc = cu.url_set(u, CURLUPART_URL, full.buf, 0);
	if (uc != CURLUE_OK) {
		sb_addf(err, "not a valid URL (%s)", cu.url_strerror(uc));
		goto out;
	}
	if (cu.url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK)
		host = NULL;
	shown = shown_url(u, url);

	h = cu.easy_init();
	if (!h)
		goto out_nomem;
	if (body)
		headers = cu.slist_append(headers, "Content-Type: text/plain; version=0.0.4");
	/* No "Expect: 100-continue" round trip (a second's wait on some servers). */
	headers = cu.slist_append(headers, "Expect:");
	if (!headers)
		goto out_nomem;
	cu.easy_setopt(h, CURLOPT_URL, full.buf);
	cu.easy_setopt(h, CURLOPT_CUSTOMREQUEST, body ? "PUT" : "DELETE");
	if (body) {
		cu.easy_setopt(h, CURLOPT_POSTFIELDS, body);
		cu.easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(body));
	}
	cu.easy_setopt(h, CURLOPT_HTTPHEADER, headers);
	cu.easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)timeout_ms);
	cu.easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)timeout_ms);
	cu.easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	cu.easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	/* 7.85 made CURLOPT_PROTOCOLS_STR the way; older ones know only the bits. */
	const struct curl_version_head *cv = cu.version_info(0);
	if (cv && cv->version_num >= 0x075500)
		cu.easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	else
		cu.easy_setopt(h, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
	cu.easy_setopt(h, CURLOPT_USERAGENT, "wslgpu/" WSLGPU_VERSION);
	cu.easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	cu.easy_setopt(h, CURLOPT_WRITEFUNCTION, keep_answer);
	cu.easy_setopt(h, CURLOPT_WRITEDATA, &ans);

	CURLcode rc = cu.easy_perform(h);
	if (rc != CURLE_OK) {
		describe_curl_error(err, h, rc, verb, shown, host ? host : "?", timeout_ms, errbuf);
		goto out;
	}
	long code = 0;
	cu.easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	if (code < 200 || code > 299) {
		const char *a = sb_str(&ans.text);
		size_t n = strcspn(a, "\r\n");
		sb_addf(err, "the Pushgateway at %s answered HTTP %ld", shown, code);
		if (n)
			sb_addf(err, ": %.*s", (int)(n > 300 ? 300 : n), a);
		else if (code >= 300 && code < 400)
			sb_add(err, " (a redirect; wslgpu does not follow redirects: give the "
				    "final URL)");
		goto out;
	}
	ret = 0;
	goto out;
out_nomem:
	sb_addf(err, "cannot %s: out of memory in libcurl", body ? "push" : "delete");
out:
	cu.slist_free_all(headers);
	if (h)
		cu.easy_cleanup(h);
	if (host)
		cu.free(host);
	cu.url_cleanup(u);
	cu.global_cleanup();
	free(shown);
	sb_release(&ans.text);
	sb_release(&full);
	return ret;
}

int prom_push(const char *url, const char *job, const char *instance, const char *body,
	      int timeout_ms, struct strbuf *err)
{
	return gateway_request(url, job, instance, body ? body : "", timeout_ms, err);
}

int prom_push_delete(const char *url, const char *job, const char *instance, int timeout_ms,
		     struct strbuf *err)
{
	return gateway_request(url, job, instance, NULL, timeout_ms, err);
}

#endif
