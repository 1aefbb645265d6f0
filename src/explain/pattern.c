/* pattern.c: `match:` text and classes to a literal key or an ERE. See pattern.h. */
#include "pattern.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "codes.h"

static const struct {
	const char *name, *ere;
} classes[] = {
	{ "n", "[0-9]+" },
	{ "ver", "v?[0-9][0-9a-z.+~_-]*" },
	{ "hex", "(0x)?[0-9a-f]+" },
	{ "size", "[0-9]+(\\.[0-9]+)? ?([kmgtp]i?b|bytes?|b)" },
	{ "path", "[^ \"']*[/\\][^ \"']*" },
	{ "word", "[^ ]+" },
	{ "gpu", "[a-z0-9][a-z0-9 ._/-]*" },
	{ "any", ".*" },
};

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c; }

/* Appends c to both renderings: the literal key and the escaped ERE. A run
 * of blanks becomes one space, dropped at either end. */
struct out {
	struct strbuf lit, ere;
	bool pending; /* blanks seen since the last character */
};

static void put(struct out *o, char c)
{
	if (c == ' ' || c == '\t') {
		o->pending = true;
		return;
	}
	if (o->pending && o->ere.len) {
		sb_addc(&o->lit, ' ');
		sb_addc(&o->ere, ' ');
	}
	o->pending = false;
	sb_addc(&o->lit, lower(c));
	if (strchr("\\.[]()*+?{}|^$", c))
		sb_addc(&o->ere, '\\');
	sb_addc(&o->ere, lower(c));
}

static void put_ere(struct out *o, const char *ere)
{
	if (o->pending && o->ere.len)
		sb_addc(&o->ere, ' ');
	o->pending = false;
	sb_add(&o->ere, ere);
}

int mpat_parse(const char *match, struct mpat *out, struct strbuf *err)
{
	memset(out, 0, sizeof *out);
	struct out o = { STRBUF_INIT, STRBUF_INIT, false };
	int nclass = 0, code = -1;
	bool only_code = true;
	for (const char *p = match; *p; p++) {
		if (*p != '{') {
			if (*p != ' ' && *p != '\t')
				only_code = false;
			put(&o, *p);
			continue;
		}
		if (p[1] == '{') {
			put(&o, '{');
			only_code = false;
			p++;
			continue;
		}
		const char *e = strchr(p, '}');
		if (!e) {
			sb_addf(err, "'{' without '}' (a literal '{' is written '{{')");
			goto fail;
		}
		const char *name = p + 1, *colon = memchr(name, ':', (size_t)(e - name));
		nclass++;
		if (colon) {
			int f = codes_family(name, (size_t)(colon - name));
			int c = f < 0 ? -1 : codes_lookup(f, colon + 1, (size_t)(e - colon - 1));
			if (c < 0) {
				sb_addf(err, "unknown error code {%.*s}", (int)(e - name), name);
				goto fail;
			}
			code = c;
			struct strbuf x = STRBUF_INIT;
			codes_ere(c, &x);
			put_ere(&o, x.buf);
			sb_release(&x);
		} else {
			size_t i, n = sizeof classes / sizeof classes[0];
			for (i = 0; i < n; i++)
				if (strlen(classes[i].name) == (size_t)(e - name) &&
				    !memcmp(classes[i].name, name, (size_t)(e - name)))
					break;
			if (i == n) {
				sb_addf(err, "unknown class {%.*s} (a literal '{' is written '{{')",
					(int)(e - name), name);
				goto fail;
			}
			only_code = false;
			put_ere(&o, classes[i].ere);
		}
		p = e;
	}
	if (nclass == 1 && only_code && code >= 0) {
		out->kind = MP_CODE;
		out->code = code;
		sb_release(&o.lit);
		sb_release(&o.ere);
	} else if (nclass == 0) {
		out->kind = MP_LITERAL;
		out->text = sb_detach(&o.lit);
		sb_release(&o.ere);
	} else {
		out->kind = MP_ERE;
		out->text = sb_detach(&o.ere);
		sb_release(&o.lit);
	}
	return 0;
fail:
	sb_release(&o.lit);
	sb_release(&o.ere);
	return -1;
}

void mpat_free(struct mpat *p)
{
	free(p->text);
	memset(p, 0, sizeof *p);
}
