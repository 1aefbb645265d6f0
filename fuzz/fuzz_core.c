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
		sb_reset(&sb);
		json_str(&sb, s);
		sb_reset(&sb);
		text_sanitize(&sb, s);
		struct result r;
		result_init(&r, NULL);
		kb_expand(s, &r, &sb);
		result_release(&r);
		free(s);
	}

	struct result r;
	result_init(&r, NULL);
	wire_apply(&r, p, size);
	result_release(&r);
	sb_release(&sb);
	return 0;
}
