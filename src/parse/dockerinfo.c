/* dockerinfo.c: docker info JSON and nvidia-container-cli info. See dockerinfo.h. */
#include "dockerinfo.h"

#include <string.h>

#include "../core/strbuf.h"
#include "../core/text.h"
#include "jsonscan.h"

/* Copies a decoded string member into out (size n), control bytes dropped. */
static void get_str(const struct js_val *obj, const char *key, char *out, size_t n)
{
	struct js_val v;
	out[0] = '\0';
	if (js_object_get(obj, key, &v) < 0 || v.type != JS_STRING)
		return;
	struct strbuf sb = STRBUF_INIT;
	if (js_string(&v, &sb) == 0) {
		size_t k = 0;
		for (size_t i = 0; i < sb.len && k + 1 < n; i++)
			if ((unsigned char)sb.buf[i] >= 0x20)
				out[k++] = sb.buf[i];
		out[k] = '\0';
	}
	sb_release(&sb);
}

static void copy_clean(const struct js_val *v, char *out, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	out[0] = '\0';
	if (js_string(v, &sb) == 0) {
		size_t k = 0;
		for (size_t i = 0; i < sb.len && k + 1 < n; i++)
			out[k++] = (unsigned char)sb.buf[i] < 0x20 ? ' ' : sb.buf[i];
		out[k] = '\0';
	}
	sb_release(&sb);
}

int dockerinfo_parse(const char *buf, size_t len, struct dockerinfo *info)
{
	memset(info, 0, sizeof *info);
	/* Some wrappers quote the output ('{...}'); find the object. */
	const char *b = buf ? memchr(buf, '{', len) : NULL;
	if (!b)
		return -1;
	struct js_val obj;
	if (js_parse(b, len - (size_t)(b - buf), &obj, NULL) < 0 || obj.type != JS_OBJECT)
		return -1;
	info->json = true;
	get_str(&obj, "ServerVersion", info->server_version, sizeof info->server_version);
	get_str(&obj, "OperatingSystem", info->os, sizeof info->os);
	get_str(&obj, "Name", info->name, sizeof info->name);
	get_str(&obj, "KernelVersion", info->kernel, sizeof info->kernel);
	get_str(&obj, "DefaultRuntime", info->default_runtime, sizeof info->default_runtime);
	struct js_val v, k, e;
	size_t pos;
	if (js_object_get(&obj, "ClientInfo", &v) == 0 && v.type == JS_OBJECT)
		get_str(&v, "Context", info->context, sizeof info->context);
	if (js_object_get(&obj, "Runtimes", &v) == 0 && v.type == JS_OBJECT) {
		pos = 0;
		while (info->nruntimes < DOCKERINFO_MAX_RUNTIMES && js_object_next(&v, &pos, &k, &e) == 1) {
			size_t i = info->nruntimes;
			copy_clean(&k, info->runtimes[i], sizeof info->runtimes[i]);
			if (e.type == JS_OBJECT)
				get_str(&e, "path", info->runtime_paths[i], sizeof info->runtime_paths[i]);
			if (info->runtimes[i][0])
				info->nruntimes++;
		}
	}
	if (js_object_get(&obj, "CDISpecDirs", &v) == 0 && v.type == JS_ARRAY) {
		pos = 0;
		while (info->ncdi_dirs < DOCKERINFO_MAX_LIST && js_array_next(&v, &pos, &e) == 1)
			if (e.type == JS_STRING)
				copy_clean(&e, info->cdi_dirs[info->ncdi_dirs++], sizeof info->cdi_dirs[0]);
	}
	if (js_object_get(&obj, "ServerErrors", &v) == 0 && v.type == JS_ARRAY) {
		pos = 0;
		while (info->nerrors < DOCKERINFO_MAX_LIST && js_array_next(&v, &pos, &e) == 1)
			if (e.type == JS_STRING)
				copy_clean(&e, info->errors[info->nerrors++], sizeof info->errors[0]);
	}
	if (js_object_get(&obj, "SecurityOptions", &v) == 0 && v.type == JS_ARRAY) {
		pos = 0;
		while (js_array_next(&v, &pos, &e) == 1)
			if (js_string_is(&e, "name=rootless"))
				info->rootless = true;
	}
	/* Docker Desktop names itself in OperatingSystem; its engine is also
	 * called docker-desktop (research/wsl-facts.md §7). */
	info->desktop = !strcmp(info->os, "Docker Desktop") || !strcmp(info->name, "docker-desktop");
	return 0;
}

/* Copies [s, e) into out (size n), trimmed, control bytes as spaces. */
static void copy_span(char *out, size_t n, const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	size_t k = 0;
	for (; s < e && k + 1 < n; s++)
		out[k++] = (unsigned char)*s < 0x20 ? ' ' : *s;
	out[k] = '\0';
}

static void add_error(struct dockerinfo *info, const char *s, const char *e)
{
	if (info->nerrors < DOCKERINFO_MAX_LIST)
		copy_span(info->errors[info->nerrors++], sizeof info->errors[0], s, e);
}

/* The list a text key opened: its items are the deeper lines below it. */
enum text_list { TL_NONE, TL_CDI, TL_SECURITY };

int dockerinfo_parse_text(const char *buf, size_t len, struct dockerinfo *info)
{
	memset(info, 0, sizeof *info);
	bool found = false;
	enum text_list list = TL_NONE;
	size_t list_indent = 0;
	size_t pos = 0;
	const char *l;
	size_t ln;
	while (text_next_line(buf, len, &pos, &l, &ln)) {
		const char *end = l + ln;
		size_t indent = 0;
		while (l + indent < end && l[indent] == ' ')
			indent++;
		const char *t = l + indent;
		if (t == end || (end - t == 1 && *t == '\r'))
			continue;
		size_t n = (size_t)(end - t);
		if (n >= 7 && !memcmp(t, "ERROR: ", 7)) {
			add_error(info, t + 7, end);
			found = true;
			continue;
		}
		if (memmem(t, n, "Cannot connect to the Docker daemon", 35)) {
			add_error(info, t, end);
			found = true;
			continue;
		}
		if (list != TL_NONE && indent > list_indent) {
			char item[128];
			copy_span(item, sizeof item, t, end);
			if (list == TL_CDI && info->ncdi_dirs < DOCKERINFO_MAX_LIST && item[0] == '/')
				memcpy(info->cdi_dirs[info->ncdi_dirs++], item, sizeof item);
			else if (list == TL_SECURITY && !strcmp(item, "rootless"))
				info->rootless = true;
			continue;
		}
		list = TL_NONE;
		/* Top-level keys sit in column 0 (before 19.03) or one space in. */
		if (indent > 1)
			continue;
		const char *colon = memchr(t, ':', n);
		if (!colon)
			continue;
		size_t kn = (size_t)(colon - t);
		const char *v = colon + 1;
#define KEY(s) (kn == sizeof(s) - 1 && !memcmp(t, s, kn))
		if (KEY("Server Version")) {
			copy_span(info->server_version, sizeof info->server_version, v, end);
		} else if (KEY("Operating System")) {
			copy_span(info->os, sizeof info->os, v, end);
		} else if (KEY("Name")) {
			copy_span(info->name, sizeof info->name, v, end);
		} else if (KEY("Kernel Version")) {
			copy_span(info->kernel, sizeof info->kernel, v, end);
		} else if (KEY("Default Runtime")) {
			copy_span(info->default_runtime, sizeof info->default_runtime, v, end);
		} else if (KEY("Context")) {
			copy_span(info->context, sizeof info->context, v, end);
		} else if (KEY("Runtimes")) {
			const char *p = v;
			while (p < end) {
				while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
					p++;
				const char *w = p;
				while (p < end && *p != ' ' && *p != '\t' && *p != '\r')
					p++;
				if (p > w && info->nruntimes < DOCKERINFO_MAX_RUNTIMES) {
					size_t i = info->nruntimes++;
					copy_span(info->runtimes[i], sizeof info->runtimes[i], w, p);
				}
			}
		} else if (KEY("CDI spec directories")) {
			list = TL_CDI;
			list_indent = indent;
		} else if (KEY("Security Options")) {
			list = TL_SECURITY;
			list_indent = indent;
		} else {
			continue;
		}
#undef KEY
		found = true;
	}
	if (!found) {
		memset(info, 0, sizeof *info);
		return -1;
	}
	info->desktop = !strcmp(info->os, "Docker Desktop") || !strcmp(info->name, "docker-desktop");
	return 0;
}

bool dockerinfo_has_runtime(const struct dockerinfo *info, const char *name)
{
	for (size_t i = 0; i < info->nruntimes; i++)
		if (!strcmp(info->runtimes[i], name))
			return true;
	return false;
}

/* The value after "Key:" on a line, trimmed, into out. */
static bool line_value(const char *l, size_t n, const char *key, char *out, size_t on)
{
	size_t k = strlen(key);
	if (n <= k || memcmp(l, key, k) != 0 || l[k] != ':')
		return false;
	size_t i = k + 1;
	while (i < n && (l[i] == ' ' || l[i] == '\t'))
		i++;
	size_t e = n;
	while (e > i && (l[e - 1] == ' ' || l[e - 1] == '\t' || l[e - 1] == '\r'))
		e--;
	size_t c = 0;
	for (; i < e && c + 1 < on; i++)
		out[c++] = (unsigned char)l[i] < 0x20 ? ' ' : l[i];
	out[c] = '\0';
	return true;
}

void nvcli_info_parse(const char *buf, size_t len, struct nvcli_info *info)
{
	memset(info, 0, sizeof *info);
	size_t pos = 0;
	const char *l;
	size_t n;
	while (text_next_line(buf, len, &pos, &l, &n)) {
		char tmp[8];
		if (line_value(l, n, "NVRM version", info->nvrm, sizeof info->nvrm) ||
		    line_value(l, n, "CUDA version", info->cuda, sizeof info->cuda))
			continue;
		if (line_value(l, n, "Device Index", tmp, sizeof tmp)) {
			info->devices++;
			continue;
		}
		if (info->devices == 1 && !info->model[0] &&
		    line_value(l, n, "Model", info->model, sizeof info->model))
			continue;
		if (info->devices == 1 && !info->arch[0] &&
		    line_value(l, n, "Architecture", info->arch, sizeof info->arch))
			continue;
		static const char pfx[] = "nvidia-container-cli: ";
		if (!info->error[0] && n >= sizeof pfx - 1) {
			const char *m = memmem(l, n, pfx, sizeof pfx - 1);
			if (m) {
				size_t rest = n - (size_t)(m - l), c = 0;
				for (size_t i = 0; i < rest && c + 1 < sizeof info->error; i++)
					info->error[c++] = (unsigned char)m[i] < 0x20 ? ' ' : m[i];
				while (c && info->error[c - 1] == ' ')
					c--;
				info->error[c] = '\0';
			}
		}
	}
}
