/* fuzz_windows.c: what Windows programs hand back through interop — every
 * parser of src/parse/win*.h and the batched query's reading of its
 * sections (facts/windows.h) — on any bytes: UTF-16 or not, CR LF, NULs,
 * markers cut or forged. The first byte picks the parser, the rest is its
 * input; every input also goes through winfacts_from_sections whole. A
 * parser must never crash, hang or leak, and must leave its strings
 * NUL-terminated within their arrays. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "facts/windows.h"
#include "parse/winbatch.h"
#include "parse/wincounter.h"
#include "parse/windriver.h"
#include "parse/winevent.h"
#include "parse/winreg.h"
#include "parse/winsmi.h"
#include "parse/wintext.h"
#include "parse/winver.h"
#include "parse/winwslver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void terminated(const char *s, size_t cap)
{
	if (!memchr(s, '\0', cap))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	const char *in = (const char *)data + 1;
	size_t n = size - 1;
	switch (data[0] % 10) {
	case 0: {
		struct strbuf out = STRBUF_INIT;
		struct wintext w;
		wintext_decode(in, n, &out, &w);
		if (memchr(out.buf ? out.buf : "", '\r', out.len) || memchr(out.buf ? out.buf : "", '\0', out.len))
			abort(); /* CRs and NULs never survive */
		sb_release(&out);
		break;
	}
	case 1: {
		struct winwslver v;
		winwslver_parse(in, n, &v);
		terminated(v.wsl, sizeof v.wsl);
		terminated(v.dxcore, sizeof v.dxcore);
		break;
	}
	case 2: {
		struct winsmi_csv *c = malloc(sizeof *c);
		struct winsmi_q *q = malloc(sizeof *q);
		winsmi_csv_parse(in, n, c);
		winsmi_q_parse(in, n, q);
		if (c->nrows > WINSMI_MAX_ROWS || c->ncols > WINSMI_MAX_COLS || q->ngpus > WINSMI_MAX_GPUS)
			abort();
		winsmi_mib(q->loose.mem_total);
		free(c);
		free(q);
		break;
	}
	case 3: {
		struct wincounters c;
		wincounter_parse(in, n, &c);
		for (size_t i = 0; i < c.n; i++) {
			struct wingpu_instance g;
			wincounter_gpu_instance(c.v[i].instance, &g);
			terminated(g.luid, sizeof g.luid);
		}
		wincounter_free(&c);
		/* watch's sample: figures within their bounds, a terminated luid. */
		struct winload l;
		winload_parse(in, n, &l);
		terminated(l.luid, sizeof l.luid);
		if ((l.util_ok && !(l.util >= 0 && l.util <= 100)) ||
		    (l.vm_util_ok && !(l.vm_util >= 0 && l.vm_util <= 100)))
			abort();
		break;
	}
	case 4: {
		struct winevents *ev = malloc(sizeof *ev);
		winevent_parse(in, n, ev);
		if (ev->n > WINEVENT_MAX)
			abort();
		free(ev);
		break;
	}
	case 5: {
		struct winreg *r = malloc(sizeof *r);
		winreg_parse(in, n, r);
		winreg_get(r, "TdrDelay");
		free(r);
		break;
	}
	case 6: {
		struct windriver *d = malloc(sizeof *d);
		struct winpnp *p = malloc(sizeof *p);
		windriver_parse(in, n, d);
		winpnp_parse(in, n, p);
		free(d);
		free(p);
		break;
	}
	case 7: {
		struct winver v;
		winver_parse(in, n, &v);
		terminated(v.version, sizeof v.version);
		break;
	}
	case 8: {
		struct winbatch b;
		winbatch_parse(in, n, &b);
		for (size_t i = 0; i < b.n; i++) {
			size_t l;
			const char *s = winbatch_body(&b, &b.s[i], &l);
			if (s < b.text.buf || s + l > b.text.buf + b.text.len)
				abort(); /* a body outside the text */
		}
		winbatch_free(&b);
		break;
	}
	default:
		break;
	}
	struct winfacts *f = calloc(1, sizeof *f);
	winfacts_from_sections((const char *)data, size, 1796119200, f);
	if (f->nparts > WINFACTS_MAX_PARTS || f->nprocs > WINFACTS_MAX_PROCS)
		abort();
	free(f);
	return 0;
}
