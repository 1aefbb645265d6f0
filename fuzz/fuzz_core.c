/* fuzz_core.c: the core's parsers of untrusted bytes — os-release, INI
 * (wsl.conf), .wslconfig read as WSL reads it (UTF-16, BOMs, WSL's own
 * size and boolean rules), the knowledge-base text format, version strings,
 * and the probe wire format (a probe child may be killed mid-record or have
 * its memory scribbled on by a vendor library). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/result.h"
#include "core/text.h"
#include "kb/kb.h"
#include "parse/inifile.h"
#include "parse/jsonscan.h"
#include "parse/osrelease.h"
#include "parse/version.h"
#include "parse/wslconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data;
	struct strbuf sb = STRBUF_INIT;
	osrelease_get(p, size, "PRETTY_NAME", &sb);
	osrelease_get(p, size, "ID", &sb);

	struct inifile ini;
	inifile_parse(p, size, &ini);
	inifile_find(&ini, "wsl2", "memory");
	for (size_t i = 0; i < ini.n; i++) {
		inifile_size(ini.items[i].value);
		inifile_bool(ini.items[i].value);
	}
	inifile_free(&ini);

	struct wslconfig wc;
	wslconfig_check(p, size, &wc);
	for (size_t i = 0; i < wc.nissues; i++)
		if (!wc.issues[i].msg)
			abort();
	wslconfig_free(&wc);

	struct kb kb;
	struct strbuf err = STRBUF_INIT;
	if (kb_parse(p, size, &kb, &err) == 0)
		kb_free(&kb);
	sb_release(&err);

	char *s = strndup(p, size);
	if (s) {
		struct version v;
		version_parse(s, &v);
		unsigned long long bytes;
		wslconfig_size(s, &bytes);
		wslconfig_bool(s);
		if (size < 256)
			text_distance(s, "memory");
		/* The JSON writer's output is valid JSON whatever the strings,
		 * and round-trips through our reader. */
		sb_reset(&sb);
		struct json_writer jw;
		jw_init(&jw, &sb);
		jw_object_begin(&jw);
		jw_kv_str(&jw, s, s);
		jw_kv_array(&jw, "a");
		jw_str(&jw, s);
		jw_num(&jw, (double)size / 3.0);
		jw_end(&jw);
		jw_end(&jw);
		struct js_val jv;
		if (js_parse_all(sb.buf, sb.len, &jv) < 0)
			__builtin_trap();
		sb_reset(&sb);
		text_sanitize(&sb, s);
		/* A one-line field never starts a line, nor holds ESC or CR. */
		sb_reset(&sb);
		text_sanitize_line(&sb, s);
		if (memchr(sb.buf ? sb.buf : "", '\n', sb.len) || memchr(sb.buf ? sb.buf : "", '\033', sb.len) ||
		    memchr(sb.buf ? sb.buf : "", '\r', sb.len))
			__builtin_trap();
		/* A shell-quoted value is one word: as it is (safe), or in single
		 * quotes whose only ' are the '\'' escapes. */
		sb_reset(&sb);
		text_shell_quote(&sb, s);
		if (!text_shell_safe(s)) {
			if (sb.len < 2 || sb.buf[0] != '\'')
				__builtin_trap();
			for (size_t k = 1;;) {
				const char *q = memchr(sb.buf + k, '\'', sb.len - k);
				if (!q)
					__builtin_trap();
				size_t at = (size_t)(q - sb.buf);
				if (at + 1 == sb.len)
					break; /* the closing quote */
				if (at + 3 >= sb.len || strncmp(q, "'\\''", 4) != 0)
					__builtin_trap();
				k = at + 4;
			}
		}
		kb_fix_is_template(s);
		/* Templates with placeholders and conditions over evidence. */
		struct evidence ev = EVIDENCE_INIT;
		ev_add(&ev, "a", "%s", "/mnt/c/Users/Jane Doe");
		ev_add(&ev, "b", "%s", s);
		sb_reset(&sb);
		kb_expand(s, &ev, "x.y", &sb);
		sb_reset(&sb);
		kb_expand_fix(s, &ev, "x.y", &sb);
		ev_release(&ev);
		free(s);
	}

	struct result r;
	result_init(&r, NULL);
	wire_apply(&r, p, size);
	result_release(&r);
	sb_release(&sb);
	return 0;
}
