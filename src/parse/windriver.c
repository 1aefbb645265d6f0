/* windriver.c: display drivers from WMI listings and pnputil. See windriver.h. */
#include "windriver.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/strbuf.h"
#include "wintext.h"

static bool digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n > 0;
}

int windriver_date(const char *s, char *out, size_t cap)
{
	size_t n = strlen(s);
	out[0] = '\0';
	if (n >= 8 && digits(s, 8)) { /* CIM: yyyymmddHHMMSS.mmmmmm+UUU */
		snprintf(out, cap, "%.4s-%.2s-%.2s", s, s + 4, s + 6);
		return 0;
	}
	if (n >= 10 && digits(s, 4) && s[4] == '-' && digits(s + 5, 2) && s[7] == '-' &&
	    digits(s + 8, 2)) {
		snprintf(out, cap, "%.10s", s);
		return 0;
	}
	int mo, d, y;
	char tail;
	if (sscanf(s, "%2d/%2d/%4d%c", &mo, &d, &y, &tail) >= 3 && mo >= 1 && mo <= 12 && d >= 1 &&
	    d <= 31 && y >= 1980 && y < 10000) {
		snprintf(out, cap, "%04d-%02d-%02d", y, mo, d);
		return 0;
	}
	return -1;
}

struct record {
	char name[96], caption[96], devname[96];
	char compat[64], provider[64], version[32], date[48], inf[64], pnp[160], devclass[24];
	bool any;
};

static void put(struct record *r, const char *k, size_t kl, const char *v, size_t vl)
{
	static const struct {
		const char *key;
		size_t off, cap;
	} map[] = {
#define F(key, field) { key, offsetof(struct record, field), sizeof(((struct record *)0)->field) }
		F("Name", name), F("Caption", caption), F("DeviceName", devname),
		F("AdapterCompatibility", compat), F("DriverProviderName", provider),
		F("DriverVersion", version), F("DriverDate", date), F("InfFilename", inf),
		F("InfName", inf), F("PNPDeviceID", pnp), F("DeviceID", pnp),
		F("DeviceClass", devclass),
#undef F
	};
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strlen(map[i].key) == kl && !strncmp(map[i].key, k, kl)) {
			char *dst = (char *)r + map[i].off;
			/* DeviceID is Win32_VideoController's "VideoController1";
			 * keep the PNP one when both are there. */
			if (dst[0] && !strcmp(map[i].key, "DeviceID"))
				return;
			snprintf(dst, map[i].cap, "%.*s", (int)vl, v);
			r->any = true;
			return;
		}
}

static void flush(struct windriver *d, struct record *r)
{
	const char *name = r->name[0] ? r->name : r->caption[0] ? r->caption : r->devname;
	if (r->any && name[0] && d->n < WINDRIVER_MAX) {
		struct windriver_adapter *a = &d->a[d->n++];
		memset(a, 0, sizeof *a);
		snprintf(a->name, sizeof a->name, "%s", name);
		snprintf(a->provider, sizeof a->provider, "%s", r->provider[0] ? r->provider : r->compat);
		snprintf(a->version, sizeof a->version, "%s", r->version);
		windriver_date(r->date, a->date, sizeof a->date);
		snprintf(a->inf, sizeof a->inf, "%s", r->inf);
		snprintf(a->devclass, sizeof a->devclass, "%s", r->devclass);
		const char *ven = strcasestr(r->pnp, "VEN_");
		if (ven && strlen(ven) >= 8) {
			for (int i = 0; i < 4; i++)
				a->vendor[i] = (char)tolower((unsigned char)ven[4 + i]);
			a->vendor[4] = '\0';
		}
		a->nvidia = !strcmp(a->vendor, "10de") || strcasestr(a->provider, "NVIDIA") ||
			    (!a->vendor[0] && strcasestr(a->name, "NVIDIA"));
	}
	memset(r, 0, sizeof *r);
}

size_t windriver_parse(const char *buf, size_t len, struct windriver *d)
{
	memset(d, 0, sizeof *d);
	struct strbuf t = STRBUF_INIT;
	wintext_decode(buf, len > (4u << 20) ? 4u << 20 : len, &t, NULL);
	const char *p = sb_str(&t), *end = p + t.len;
	struct record r;
	memset(&r, 0, sizeof r);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		size_t n;
		const char *s = wintext_trim(p, e, &n);
		if (!n) {
			flush(d, &r);
		} else {
			/* "Key : Value" (Format-List) or "Key=Value" (wmic). */
			const char *k = s, *ke = s;
			while (ke < s + n && (isalnum((unsigned char)*ke) || *ke == '_'))
				ke++;
			const char *q = ke;
			while (q < s + n && *q == ' ')
				q++;
			if (ke > k && q < s + n && (*q == ':' || *q == '=')) {
				size_t vl;
				const char *v = wintext_trim(q + 1, s + n, &vl);
				put(&r, k, (size_t)(ke - k), v, vl);
			}
		}
		p = nl ? nl + 1 : end;
	}
	flush(d, &r);
	sb_release(&t);
	return d->n;
}

/* ---- pnputil ---- */

static bool is_inf(const char *v, size_t n)
{
	return n > 4 && !strncasecmp(v + n - 4, ".inf", 4) && !memchr(v, ' ', n);
}

/* "05/19/2016 9.17.10.4459" */
static bool date_version(const char *v, size_t n, struct winpnp_driver *dr)
{
	char tmp[64];
	if (n >= sizeof tmp)
		return false;
	memcpy(tmp, v, n);
	tmp[n] = '\0';
	char *sp = strchr(tmp, ' ');
	if (!sp)
		return false;
	*sp = '\0';
	char date[16];
	if (windriver_date(tmp, date, sizeof date) < 0 || !strchr(tmp, '/'))
		return false;
	const char *ver = sp + 1;
	while (*ver == ' ')
		ver++;
	if (!isdigit((unsigned char)*ver) || !strchr(ver, '.'))
		return false;
	snprintf(dr->date, sizeof dr->date, "%s", date);
	snprintf(dr->version, sizeof dr->version, "%s", ver);
	return true;
}

size_t winpnp_parse(const char *buf, size_t len, struct winpnp *pp)
{
	memset(pp, 0, sizeof *pp);
	struct strbuf t = STRBUF_INIT;
	wintext_decode(buf, len > (4u << 20) ? 4u << 20 : len, &t, NULL);
	const char *p = sb_str(&t), *end = p + t.len;
	struct winpnp_driver *cur = NULL;
	int plain = 0; /* plain values seen since the .inf lines: provider, then class */
	bool dated = false;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		size_t n;
		const char *s = wintext_trim(p, e, &n);
		/* The value: after the label's colon (ASCII or full-width). */
		const char *colon = memchr(s, ':', n);
		const char *fw = NULL;
		for (const char *q = s; q + 2 < s + n; q++)
			if ((unsigned char)q[0] == 0xef && (unsigned char)q[1] == 0xbc &&
			    (unsigned char)q[2] == 0x9a) {
				fw = q;
				break;
			}
		const char *vs = NULL;
		if (colon && (!fw || colon < fw))
			vs = colon + 1;
		else if (fw)
			vs = fw + 3;
		if (!n || !vs) {
			p = nl ? nl + 1 : end;
			continue;
		}
		size_t vl;
		const char *v = wintext_trim(vs, s + n, &vl);
		bool oem = vl > 7 && !strncasecmp(v, "oem", 3) && is_inf(v, vl) && isdigit((unsigned char)v[3]);
		if (oem) {
			if (pp->n == WINPNP_MAX) {
				pp->more++;
				cur = NULL;
			} else {
				cur = &pp->v[pp->n++];
				memset(cur, 0, sizeof *cur);
				snprintf(cur->published, sizeof cur->published, "%.*s", (int)vl, v);
			}
			plain = 0;
			dated = false;
		} else if (cur && is_inf(v, vl) && !plain) {
			snprintf(cur->original, sizeof cur->original, "%.*s", (int)vl, v);
		} else if (cur && vl > 2 && v[0] == '{' && v[vl - 1] == '}') {
			snprintf(cur->class_guid, sizeof cur->class_guid, "%.*s", (int)vl, v);
		} else if (cur && !dated && date_version(v, vl, cur)) {
			dated = true;
		} else if (cur && !dated && plain < 2) {
			if (plain++ == 0)
				snprintf(cur->provider, sizeof cur->provider, "%.*s", (int)vl, v);
			else
				snprintf(cur->devclass, sizeof cur->devclass, "%.*s", (int)vl, v);
		}
		p = nl ? nl + 1 : end;
	}
	sb_release(&t);
	return pp->n;
}
