/* matcher.c: build the signature matcher and scan text with it. See matcher.h. */
#include "matcher.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codes.h"
#include "literal.h"
#include "pattern.h"

#define W EXPLAIN_WRAP

enum {
	F_WLIT = 1, /* a literal key lies within the line */
	F_WRE = 2,  /* a regex's key lies within the line */
	F_SLIT = 4, /* a literal key spans the break from an earlier line */
	F_SRE = 8,  /* a regex's key spans the break */
};

/* Slot bits: one per code family named on the line, then these. */
enum {
	LB_ERR = 1u << CF_COUNT,
	LB_GPU = 1u << (CF_COUNT + 1),
	LB_OTHER = 1u << (CF_COUNT + 2), /* another vendor's GPU stack names the line */
	LB_NV = 1u << (CF_COUNT + 3),    /* ...and NVIDIA's own, as a CUDA error does */
};

/* What makes an unrecognised line worth showing: an error word and a word
 * of the GPU chain (lower case; found anywhere, so "fail" covers "failed"). */
static const char *const err_words[] = {
	"error", "fail", "cannot", "can't", "unable", "not found", "fatal", "exception", "abort",
	"denied", "invalid", "segmentation fault", "core dumped", "panic", "mismatch",
	"unsupported", "not supported", "no such file", "out of memory", "timed out", "could not",
	"couldn't", "undefined symbol", NULL,
};
static const char *const gpu_words[] = {
	"cuda", "cudnn", "cublas", "cufft", "curand", "cusolver", "cusparse", "cupy", "nccl", "nvml",
	"nvidia", "nvcc", "nvrtc", "nvjitlink", "ptx", "dxg", "dxcore", "d3d12", "libcu", "libnv",
	"wsl", "gpu", "tensorrt", "cuinit", "hcs_e", "optix", "nvenc", "nvjpeg", "cutensor", NULL,
};

/* Words only another vendor's GPU stack prints: AMD's ROCm/HIP (PyTorch's
 * ROCm build says "HIP error: invalid device function", "HIP out of memory",
 * TORCH_USE_HIP_DSA; hipErrorNoDevice ... are HIP's hipError_t names,
 * https://rocm.docs.amd.com/projects/HIP/en/latest/reference/error_codes.html),
 * Intel's XPU/oneAPI (Level Zero's ZE_RESULT_*, the unified runtime's
 * UR_RESULT_*, "XPU out of memory"), Apple's MPS ("MPS backend out of
 * memory") and DirectML. Their messages share CUDA's wording (HIP's
 * hipGetErrorString texts are CUDA's), so a line with one of these and none
 * of NVIDIA's own words below is not read as an NVIDIA fault: a CUDA error
 * on the next line still is. */
static const char *const other_vendor_words[] = {
	"hip error", "hiperror", "rocm error", "hip out of memory", "no hip gpus", "torch_use_hip_dsa",
	"amd_serialize_kernel", "rocblas", "hipblas", "miopen", "hsa_status",
	"ze_result_", "ur_result_", "level_zero", "xpu out of memory", "torch.xpu",
	"mps backend", "mpsgraph", "directml", "dmlexecutionprovider", NULL,
};
/* NVIDIA's own words, which keep such a line an NVIDIA one (not cuBLAS's
 * names: ggml's ROCm build says "ROCm error: CUBLAS_STATUS_INTERNAL_ERROR"). */
static const char *const nvidia_words[] = {
	"cuda error", "cuda_error", "cudaerror", "cuda out of memory", "cuda driver", "nvidia",
	"nvml", "libcuda", "nvcuda", "cudart", "cuinit", NULL,
};

/* ---- building ---- */

static const struct kb_entry *find_in(const struct kb *const *kbs, size_t nkb, const char *id)
{
	for (size_t k = 0; k < nkb; k++) {
		const struct kb_entry *e = kb_find_in(kbs[k], id);
		if (e)
			return e;
	}
	return NULL;
}

static bool has_patterns(const struct kb_entry *e)
{
	return e->match.n || e->regex.n;
}

static bool is_signature(const struct kb_entry *e)
{
	return !strcmp(e->kind, "signature");
}

static void add_key(struct explain_db *db, int kind, size_t arg, char *text)
{
	if (!*text) {
		free(text);
		return;
	}
	db->key = xrealloc(db->key, (db->nkeys + 1) * sizeof *db->key);
	db->key[db->nkeys] = (struct explain_key){ (unsigned char)kind, arg, text, db->nkeys };
	db->nkeys++;
}

static char *lower_dup(const char *s)
{
	char *d = xstrdup(s);
	for (char *p = d; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p + 32);
	return d;
}

/* A regex of signature k: an exact literal set becomes literal keys; any
 * other pattern is compiled (regcomp always, rx where it can) and keyed by
 * its required literals. what names it in errors ("regex 2", "match 1"). */
static int add_regex(struct explain_db *db, size_t k, const char *re, const char *what,
		     struct strbuf *err)
{
	struct explain_sig *s = &db->sig[k];
	struct explain_re *r = &s->re[s->nre];
	int rc = regcomp(&r->re, re, REG_EXTENDED | REG_ICASE | REG_NOSUB);
	if (rc) {
		char msg[256];
		regerror(rc, &r->re, msg, sizeof msg);
		sb_addf(err, "%s:%d: %s: %s: %s", s->e->file, s->e->line, s->e->id, what, msg);
		return -1;
	}
	struct litset ls;
	if (ere_literal_set(re, &ls) == 0) {
		for (size_t m = 0; m < ls.n; m++)
			add_key(db, EK_LIT, k, xstrdup(ls.v[m]));
		litset_free(&ls);
		regfree(&r->re);
		return 0;
	}
	s->nre++;
	r->id = db->nre++;
	r->compiled = true;
	r->src = xstrdup(re);
	rx_defer(&r->rx, r->src); /* declined on first use: regexec does it */
	struct litset ls2;
	unsigned edge;
	if (ere_required2(re, &ls, &ls2, &edge) < 0) {
		s->always = true;
		s->edge = 0;
		return 0;
	}
	s->edge = s->nre == 1 ? (unsigned char)edge : (unsigned char)(s->edge & edge);
	r->edge = (unsigned char)edge;
	for (size_t m = 0; m < ls.n; m++) {
		add_key(db, EK_RE, k, xstrdup(ls.v[m]));
		if (strlen(ls.v[m]) > s->keymax)
			s->keymax = strlen(ls.v[m]);
	}
	/* Both sets, when every regex of the signature has two: then a
	 * line needs a key of each before any of them runs. */
	bool both = ls2.n && (s->nre == 1 || s->and);
	s->and = both;
	for (size_t m = 0; m < ls2.n && both; m++)
		add_key(db, EK_RE2, k, xstrdup(ls2.v[m]));
	litset_free(&ls);
	litset_free(&ls2);
	return 0;
}

static const struct explain_key *sorted_keys; /* for by_text: qsort has no context */

static int by_text(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(sorted_keys[x].text, sorted_keys[y].text);
	return c ? c : (x < y ? -1 : x > y);
}

static const struct explain_sig *sorted_sigs; /* for by_id */

static int by_id(const void *a, const void *b)
{
	return strcmp(sorted_sigs[*(const size_t *)a].e->id, sorted_sigs[*(const size_t *)b].e->id);
}

static int by_code(const void *a, const void *b)
{
	const struct explain_codesig *x = a, *y = b;
	if (x->code != y->code)
		return x->code < y->code ? -1 : 1;
	return x->sig < y->sig ? -1 : x->sig > y->sig;
}

static int add_entry(struct explain_db *db, const struct kb *const *kbs, size_t nkb,
		     const struct kb_entry *e, unsigned char *keyed, struct strbuf *err)
{
	size_t k = db->n++;
	struct explain_sig *s = &db->sig[k];
	s->e = e;
	s->cause = xcalloc(e->see.n + 1, sizeof *s->cause);
	if (!is_signature(e))
		s->cause[s->ncause++] = e;
	for (size_t j = 0; j < e->see.n; j++) {
		const struct kb_entry *t = find_in(kbs, nkb, e->see.v[j]);
		if (t && !is_signature(t))
			s->cause[s->ncause++] = t;
	}
	s->kind = s->ncause ? s->cause[0]->kind : "finding";
	if (strcmp(s->kind, "noise") && strcmp(s->kind, "myth"))
		s->kind = "finding";
	s->re = xcalloc(e->regex.n + e->match.n + 1, sizeof *s->re);
	char what[32];
	for (size_t j = 0; j < e->regex.n; j++) {
		snprintf(what, sizeof what, "regex %zu", j + 1);
		if (add_regex(db, k, e->regex.v[j], what, err) < 0)
			return -1;
	}
	for (size_t j = 0; j < e->match.n; j++) {
		struct mpat mp;
		struct strbuf msg = STRBUF_INIT;
		snprintf(what, sizeof what, "match %zu", j + 1);
		if (mpat_parse(e->match.v[j], &mp, &msg) < 0) {
			sb_addf(err, "%s:%d: %s: %s: %s", e->file, e->line, e->id, what, msg.buf);
			sb_release(&msg);
			return -1;
		}
		sb_release(&msg);
		int rc = 0;
		if (mp.kind == MP_LITERAL) {
			add_key(db, EK_LIT, k, mp.text);
			mp.text = NULL;
		} else if (mp.kind == MP_ERE) {
			rc = add_regex(db, k, mp.text, what, err);
		} else {
			size_t nc;
			const struct err_code *c = &codes_table(&nc)[mp.code];
			db->codesig = xrealloc(db->codesig, (db->ncodesig + 1) * sizeof *db->codesig);
			db->codesig[db->ncodesig++] = (struct explain_codesig){ mp.code, k };
			db->code_families |= 1u << c->family;
			if (!keyed[mp.code]) {
				keyed[mp.code] = 1;
				for (int m = 0; m < CODE_NAMES && c->name[m]; m++)
					add_key(db, EK_CODE, (size_t)mp.code, lower_dup(c->name[m]));
			}
		}
		mpat_free(&mp);
		if (rc < 0)
			return -1;
	}
	/* context: words, found anywhere in the input, lower case like every key */
	for (size_t j = 0; j < e->context.n; j++)
		add_key(db, EK_WORD, k, lower_dup(e->context.v[j]));
	s->context = e->context.n > 0;
	if (s->always) {
		db->always = xrealloc(db->always, (db->nalways + 1) * sizeof *db->always);
		db->always[db->nalways++] = k;
	}
	return 0;
}

int explain_db_build(struct explain_db *db, const struct kb *const *kbs, size_t nkb,
		     struct strbuf *err)
{
	memset(db, 0, sizeof *db);
	size_t total = 0;
	for (size_t a = 0; a < nkb; a++)
		for (size_t i = 0; i < kbs[a]->n; i++) {
			const struct kb_entry *e = &kbs[a]->e[i];
			if (a > 0 && find_in(kbs, a, e->id)) {
				sb_addf(err, "%s:%d: %s: the entry id is already taken", e->file, e->line,
					e->id);
				return -1;
			}
			total += has_patterns(e);
		}
	db->sig = xcalloc(total ? total : 1, sizeof *db->sig);
	size_t ncodes;
	codes_table(&ncodes);
	unsigned char *keyed = xcalloc(ncodes, 1);
	int rc = 0;
	for (size_t a = 0; a < nkb && !rc; a++)
		for (size_t i = 0; i < kbs[a]->n && !rc; i++)
			if (has_patterns(&kbs[a]->e[i]))
				rc = add_entry(db, kbs, nkb, &kbs[a]->e[i], keyed, err);
	free(keyed);
	if (rc) {
		explain_db_free(db);
		return -1;
	}
	if (db->ncodesig)
		qsort(db->codesig, db->ncodesig, sizeof *db->codesig, by_code);
	db->byid = xcalloc(db->n ? db->n : 1, sizeof *db->byid);
	for (size_t i = 0; i < db->n; i++)
		db->byid[i] = i;
	sorted_sigs = db->sig;
	qsort(db->byid, db->n, sizeof *db->byid, by_id);
	/* Refinements, now that every signature has an index. */
	for (size_t i = 0; i < db->n; i++) {
		struct explain_sig *s = &db->sig[i];
		for (size_t j = 0; j < s->e->see.n; j++) {
			int t = explain_db_find(db, s->e->see.v[j]);
			if (t < 0 || (size_t)t == i)
				continue;
			/* A family names a more specific signature in see: as one
			 * of its causes: it gives way to that signature (below), and
			 * refining it too, each would drop the other on a line both
			 * read, which would read as nothing. */
			if (explain_sig_tier(s) > explain_sig_tier(&db->sig[t]))
				continue;
			s->refines = xrealloc(s->refines, (s->nrefines + 1) * sizeof *s->refines);
			s->refines[s->nrefines++] = (size_t)t;
			struct explain_sig *o = &db->sig[t];
			o->refined_by = xrealloc(o->refined_by, (o->nrefined_by + 1) * sizeof *o->refined_by);
			o->refined_by[o->nrefined_by++] = i;
		}
	}
	/* A family signature (a general reading) gives way to every other
	 * signature on the lines both read; a generic wrapper (family
	 * "wrapper": "runner process has terminated") to families too. */
	for (size_t t = 0; t < db->n; t++) {
		struct explain_sig *o = &db->sig[t];
		if (!o->e->family)
			continue;
		int ot = explain_sig_tier(o);
		for (size_t i = 0; i < db->n; i++) {
			struct explain_sig *s = &db->sig[i];
			if (explain_sig_tier(s) >= ot)
				continue;
			s->refines = xrealloc(s->refines, (s->nrefines + 1) * sizeof *s->refines);
			s->refines[s->nrefines++] = t;
			o->refined_by = xrealloc(o->refined_by, (o->nrefined_by + 1) * sizeof *o->refined_by);
			o->refined_by[o->nrefined_by++] = i;
		}
	}
	for (int f = 0; f < CF_COUNT; f++)
		if (db->code_families & (1u << f))
			for (const char *const *w = codes_context_words(f); *w; w++)
				add_key(db, EK_CTX, (size_t)f, xstrdup(*w));
	for (const char *const *w = err_words; *w; w++)
		add_key(db, EK_ERR, 0, xstrdup(*w));
	for (const char *const *w = gpu_words; *w; w++)
		add_key(db, EK_GPU, 0, xstrdup(*w));
	for (const char *const *w = other_vendor_words; *w; w++)
		add_key(db, EK_VENDOR, 0, xstrdup(*w));
	for (const char *const *w = nvidia_words; *w; w++)
		add_key(db, EK_VENDOR, 1, xstrdup(*w));

	/* Literal keys with the same text (two signatures quoting one message)
	 * in rings, for the cut-off check, which finds one key of a text. */
	size_t *order = xcalloc(db->nkeys ? db->nkeys : 1, sizeof *order);
	size_t nl = 0;
	for (size_t i = 0; i < db->nkeys; i++)
		if (db->key[i].kind == EK_LIT)
			order[nl++] = i;
	sorted_keys = db->key;
	qsort(order, nl, sizeof *order, by_text);
	for (size_t i = 0, j; i < nl; i = j) {
		for (j = i + 1; j < nl && !strcmp(db->key[order[i]].text, db->key[order[j]].text); j++)
			db->key[order[j - 1]].same = order[j];
		db->key[order[j - 1]].same = order[i];
	}
	free(order);

	size_t nk = db->nkeys ? db->nkeys : 1;
	const char **texts = xcalloc(nk, sizeof *texts);
	size_t *lens = xcalloc(nk, sizeof *lens);
	unsigned char *mark = xcalloc(nk, 1);
	for (size_t i = 0; i < db->nkeys; i++) {
		texts[i] = db->key[i].text;
		lens[i] = strlen(texts[i]);
		mark[i] = db->key[i].kind == EK_LIT;
	}
	ac_build(&db->ac, texts, lens, db->nkeys, mark);
	free(texts);
	free(lens);
	free(mark);
	return 0;
}

void explain_db_free(struct explain_db *db)
{
	for (size_t i = 0; i < db->n; i++) {
		for (size_t j = 0; j < db->sig[i].nre; j++) {
			struct explain_re *r = &db->sig[i].re[j];
			if (r->compiled)
				regfree(&r->re);
			rx_free(&r->rx);
			free((char *)r->src);
		}
		free(db->sig[i].re);
		free(db->sig[i].cause);
		free(db->sig[i].refines);
		free(db->sig[i].refined_by);
	}
	free(db->sig);
	free(db->byid);
	for (size_t i = 0; i < db->nkeys; i++)
		free(db->key[i].text);
	free(db->key);
	free(db->always);
	free(db->codesig);
	ac_free(&db->ac);
	memset(db, 0, sizeof *db);
}

int explain_db_find(const struct explain_db *db, const char *id)
{
	size_t lo = 0, hi = db->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(db->sig[db->byid[mid]].e->id, id);
		if (!c)
			return (int)db->byid[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* ---- the wrap window ---- */

/* The slot k lines before the last one. */
static int back(const struct explain_scan *s, int k)
{
	return ((s->cur - k) % W + W) % W;
}

/* The slot holding line l of the window, or -1. */
static int slot_of(const struct explain_scan *s, unsigned long l)
{
	unsigned long last = s->slot[s->cur].line;
	if (!s->chain || l > last || last - l >= (unsigned long)s->chain)
		return -1;
	return back(s, (int)(last - l));
}

static size_t msg_len(const struct explain_slot *sl)
{
	return sl->nl.len - sl->nl.msg;
}

/* The line where a key that starts at offset start (< 0: before the last
 * line's message) begins, counting the blanks that joined the lines; 0 if
 * it starts before the window. */
static unsigned long span_line(const struct explain_scan *s, long start)
{
	long off = 0;
	for (int k = 1; k < s->chain; k++) {
		const struct explain_slot *next = &s->slot[back(s, k - 1)], *sl = &s->slot[back(s, k)];
		off -= (long)msg_len(sl) + (next->space ? 1 : 0);
		if (start >= off)
			return sl->line;
	}
	return 0;
}

/* Copies the full text of lines first..last of the window, joined as they
 * were matched, clipped at a UTF-8 boundary to EXPLAIN_SAMPLE_TEXT with "…". */
static char *sample_lines(const struct explain_scan *s, unsigned long first, unsigned long last)
{
	struct strbuf sb = STRBUF_INIT;
	for (unsigned long l = first; l <= last && sb.len <= EXPLAIN_SAMPLE_TEXT; l++) {
		int k = slot_of(s, l);
		if (k < 0)
			continue;
		const struct explain_slot *sl = &s->slot[k];
		if (l > first && sl->space)
			sb_addc(&sb, ' ');
		sb_addn(&sb, sl->nl.text, sl->nl.len);
	}
	if (sb.len > EXPLAIN_SAMPLE_TEXT) {
		size_t cut = EXPLAIN_SAMPLE_TEXT;
		while (cut > 0 && ((unsigned char)sb.buf[cut] & 0xc0) == 0x80)
			cut--;
		sb.len = cut;
		sb.buf[cut] = '\0';
		sb_add(&sb, "…");
	}
	return sb_detach(&sb);
}

/* A line leaves the window: its verdict is final. */
static void commit(struct explain_scan *s, struct explain_slot *sl)
{
	s->st.recognised += sl->hit;
	sl->hit = false;
	if (!sl->suspect)
		return;
	sl->suspect = false;
	s->st.unknown++;
	const char *msg = sl->nl.text + sl->nl.msg;
	size_t ml = msg_len(sl);
	if (ml > EXPLAIN_SAMPLE_TEXT)
		ml = EXPLAIN_SAMPLE_TEXT;
	for (size_t i = 0; i < s->nunk; i++)
		if (strlen(s->unk[i].msg) == ml && !memcmp(s->unk[i].msg, msg, ml)) {
			s->unk[i].count++;
			return;
		}
	if (s->nunk == EXPLAIN_UNKNOWN_KEEP)
		return;
	struct explain_unknown *u = &s->unk[s->nunk++];
	u->line = sl->line;
	u->count = 1;
	u->msg = xstrndup(msg, ml);
	u->text = sample_lines(s, sl->line, sl->line);
}

/* Whether slot bits name another vendor's GPU stack and not NVIDIA's
 * (other_vendor_words): what such a line says is not an NVIDIA fault. */
static bool other_vendor_only(unsigned bits)
{
	return (bits & LB_OTHER) && !(bits & LB_NV);
}

/* ...of lines first..last together; a message known to be harmless may
 * still be called so. */
static bool other_vendor(const struct explain_scan *s, unsigned long first, unsigned long last)
{
	unsigned bits = 0;
	for (unsigned long l = first; l <= last; l++) {
		int k = slot_of(s, l);
		if (k >= 0)
			bits |= s->slot[k].bits;
	}
	return other_vendor_only(bits);
}

/* A signature with context: words counts only where the input shows one
 * (explain_scan_finish); until one has been read it refines nothing, or a
 * line it would drop at the end would lose the reading it refined too. */
static bool refines_now(const struct explain_scan *s, size_t sig)
{
	return !s->db->sig[sig].context || s->ctxseen[sig] || s->in_context;
}

/* s->last[sig] = last, keeping refined_last of what sig refines (asked for
 * every window tried, where the refinements' own lasts were a long list to
 * read). A traceback's held `raise` line, read late, can move last back. */
static void set_last(struct explain_scan *s, size_t sig, unsigned long last)
{
	bool back = last < s->last[sig];
	s->last[sig] = last;
	if (!refines_now(s, sig))
		return;
	const struct explain_sig *g = &s->db->sig[sig];
	for (size_t i = 0; i < g->nrefines; i++) {
		size_t r = g->refines[i];
		if (!back) {
			if (last > s->refined_last[r])
				s->refined_last[r] = last;
			continue;
		}
		const struct explain_sig *gr = &s->db->sig[r];
		unsigned long most = 0;
		for (size_t j = 0; j < gr->nrefined_by; j++)
			if (s->last[gr->refined_by[j]] > most)
				most = s->last[gr->refined_by[j]];
		s->refined_last[r] = most;
	}
}

static void record(struct explain_scan *s, size_t sig, unsigned long first, unsigned long last,
		   bool cut)
{
	if (other_vendor(s, first, last) && strcmp(s->db->sig[sig].kind, "noise"))
		return;
	struct explain_match *m = &s->m[sig];
	if (m->count == 0) {
		m->sig = sig;
		m->first_line = first;
		m->order = s->norder++;
	}
	m->count++;
	m->last_line = last;
	set_last(s, sig, last);
	for (unsigned long l = first; l <= last; l++) {
		int k = slot_of(s, l);
		if (k >= 0) {
			s->slot[k].suspect = false;
			s->slot[k].hit = true;
		}
	}
	if (m->nocc == EXPLAIN_SAMPLES)
		return;
	struct explain_occ *o = &m->occ[m->nocc++];
	o->line = first;
	o->lines = (unsigned)(last - first + 1);
	o->wrapped = last > first;
	o->cut = cut;
	o->text = sample_lines(s, first, last);
}

static size_t refine(const struct explain_scan *s, size_t *hits, size_t *from, size_t n);

static bool word_char(char c);

static bool sig_regex(const struct explain_sig *sig, const char *text, size_t len);

/* A paste cut off inside a status code's name: the last word of the
 * window's last line begins one code's names (codes_by_prefix). The line
 * is read as if the name were whole: by the signatures that name the
 * code (a class, a literal or a regex). Runs once, at the end. */
static bool cut_code(struct explain_scan *s)
{
	size_t e = s->cfeed, b = e;
	while (b > 0 && word_char(s->cmsg[b - 1]))
		b--;
	int code = codes_by_prefix(s->cmsg + b, e - b, EXPLAIN_CUT_CODE);
	if (code < 0)
		return false;
	const struct err_code *c = &codes_table(&(size_t){ 0 })[code];
	const struct explain_db *db = s->db;
	unsigned long line = s->slot[s->cur].line;
	size_t nh = 0;
	for (int k = 0; k < CODE_NAMES; k++) {
		const char *name = c->name[k];
		if (!name || strncasecmp(name, s->cmsg + b, e - b))
			continue;
		struct strbuf t = STRBUF_INIT;
		sb_addf(&t, "%.*s%s", (int)b, s->cmsg, name);
		for (size_t i = 0; i < db->n; i++) {
			if ((s->only && !s->only[i]) || s->last[i] >= line)
				continue;
			bool hit = sig_regex(&db->sig[i], t.buf, t.len);
			for (size_t j = 0; !hit && j < db->ncodesig; j++)
				hit = db->codesig[j].code == code && db->codesig[j].sig == i;
			for (size_t j = 0; !hit && j < db->nkeys; j++)
				hit = db->key[j].kind == EK_LIT && db->key[j].arg == i &&
				      strcasestr(t.buf, db->key[j].text);
			bool dup = false;
			for (size_t j = 0; j < nh; j++)
				dup |= s->hits[j] == i;
			if (hit && !dup)
				s->hits[nh++] = i;
		}
		sb_release(&t);
	}
	nh = refine(s, s->hits, NULL, nh);
	for (size_t i = 0; i < nh; i++)
		record(s, s->hits[i], line, line, true);
	return nh > 0;
}

/* A paste cut off inside a message: the automaton's state at the end of
 * the window is deep inside a literal key. */
static void cut_check(struct explain_scan *s)
{
	const struct ac *ac = &s->db->ac;
	if (cut_code(s))
		return;
	for (int32_t t = s->state; t > 0; t = ac->fail[t]) {
		int32_t d = ac->depth[t];
		if (d < EXPLAIN_CUT_MIN)
			return;
		int32_t o = ac->owner[t];
		if (o < 0)
			continue;
		size_t kl = ac->keylen[o];
		if ((size_t)d >= kl || (size_t)d * 2 < kl)
			continue;
		unsigned long last = s->slot[s->cur].line;
		long start = (long)s->cfeed - d;
		unsigned long from = start >= 0 ? last : span_line(s, start);
		if (!from)
			return;
		size_t nh = 0;
		size_t k = (size_t)o;
		do {
			size_t sig = s->db->key[k].arg;
			bool dup = false;
			for (size_t i = 0; i < nh; i++)
				dup |= s->hits[i] == sig;
			if ((!s->only || s->only[sig]) && s->last[sig] < from && !dup)
				s->hits[nh++] = sig;
			k = s->db->key[k].same;
		} while (k != (size_t)o);
		nh = refine(s, s->hits, NULL, nh);
		for (size_t i = 0; i < nh; i++)
			record(s, s->hits[i], from, last, true);
		return;
	}
}

/* The window ends (an empty line, a traceback's source line, the end of
 * the input): its suspects leave it; where the text visibly ends (the end
 * of the input, a trailing ellipsis) a message cut off there is matched. */
static void chain_break(struct explain_scan *s, bool end)
{
	if (!s->chain)
		return;
	if (end)
		cut_check(s);
	for (int k = s->chain - 1; k >= 0; k--)
		commit(s, &s->slot[back(s, k)]);
	s->chain = 0;
}

/* ---- scanning ---- */

/* Carves the next zeroed array of n elements of size sz out of the scan's
 * one zeroed block (at == NULL: only counts the bytes). */
static void *carve(char *at, size_t *off, size_t n, size_t sz)
{
	const size_t align = _Alignof(max_align_t);
	void *p = at ? at + *off : NULL;
	*off += (n * sz + align - 1) / align * align;
	return p;
}

/* Lays out the per-signature and per-regex arrays in one block: one
 * calloc, not 22 -- a block this size comes zeroed from the kernel,
 * where 22 smaller ones were each cleared by hand (a sixth of what a
 * one-line paste cost). */
static size_t scan_layout(struct explain_scan *s, char *at, size_t n, size_t nre)
{
	size_t off = 0;
	s->m = carve(at, &off, n, sizeof *s->m);
	s->last = carve(at, &off, n, sizeof *s->last);
	s->refined_last = carve(at, &off, n, sizeof *s->refined_last);
	s->stamp = carve(at, &off, n, sizeof *s->stamp);
	s->ctxseen = carve(at, &off, n, sizeof *s->ctxseen);
	s->stamp2 = carve(at, &off, n, sizeof *s->stamp2);
	s->span = carve(at, &off, n, sizeof *s->span);
	s->kpos = carve(at, &off, n, sizeof *s->kpos);
	s->re2 = carve(at, &off, n, sizeof *s->re2);
	s->hits = carve(at, &off, n, sizeof *s->hits);
	s->from = carve(at, &off, n, sizeof *s->from);
	s->alone = carve(at, &off, nre, sizeof *s->alone);
	s->win = carve(at, &off, nre, sizeof *s->win);
	for (int i = 0; i < W; i++) {
		s->slot[i].flags = carve(at, &off, n, 1);
		s->slot[i].cand = carve(at, &off, n, sizeof *s->slot[i].cand);
		s->slot[i].wcand = carve(at, &off, n, sizeof *s->slot[i].wcand);
	}
	return off;
}

void explain_scan_init(struct explain_scan *s, const struct explain_db *db)
{
	memset(s, 0, sizeof *s);
	s->db = db;
	size_t n = db->n ? db->n : 1, nre = db->nre ? db->nre : 1;
	s->block = xcalloc(scan_layout(s, NULL, n, nre), 1);
	scan_layout(s, s->block, n, nre);
	for (int i = 0; i < W; i++)
		s->slot[i].buf = xmalloc(EXPLAIN_LINE_MAX + 1);
	s->raw = xmalloc(EXPLAIN_LINE_MAX);
	s->joined = xmalloc((size_t)W * (EXPLAIN_LINE_MAX + 1) + 1);
}

static void mark(struct explain_scan *s, size_t sig, unsigned char bit)
{
	struct explain_slot *sl = &s->slot[s->cur];
	if (s->only && !s->only[sig])
		return;
	unsigned char f = sl->flags[sig];
	if (!f)
		sl->cand[sl->ncand++] = sig;
	/* A window needs a regex's first key or a spanning literal; the
	 * second set's words alone (often common ones) start nothing. */
	const unsigned char w = F_WRE | F_SRE | F_SLIT;
	if (!(f & w) && (bit & w))
		sl->wcand[sl->nwcand++] = sig;
	sl->flags[sig] = f | bit;
}

static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static void add_code(void *ctx, int code)
{
	struct explain_scan *s = ctx;
	for (size_t i = 0; i < s->ncodes; i++)
		if (s->codes[i] == code)
			return;
	if (s->ncodes < sizeof s->codes / sizeof s->codes[0])
		s->codes[s->ncodes++] = code;
}

/* Where the hit of key that ends at end begins in the message (< 0: on a
 * line before it, the window's). */
static long key_start(const struct explain_scan *s, size_t key, long end)
{
	return end - (long)s->db->ac.keylen[key] + 1;
}

/* The line bits a key of a word kind sets (0 for the other kinds). */
static unsigned key_bits(const struct explain_key *k)
{
	switch (k->kind) {
	case EK_CTX: return 1u << k->arg;
	case EK_ERR: return LB_ERR;
	case EK_GPU: return LB_GPU;
	case EK_VENDOR: return k->arg ? LB_NV : LB_OTHER;
	default: return 0;
	}
}

static void on_hit(void *ctx, size_t key, long end)
{
	struct explain_scan *s = ctx;
	const struct explain_key *k = &s->db->key[key];
	long start = key_start(s, key, end);
	if (start >= 0) {
		struct explain_slot *sl = &s->slot[s->cur];
		switch (k->kind) {
		case EK_LIT: mark(s, k->arg, F_WLIT); break;
		case EK_RE:
			if (!(s->slot[s->cur].flags[k->arg] & F_WRE) || (size_t)start < s->kpos[k->arg])
				s->kpos[k->arg] = (size_t)start;
			mark(s, k->arg, F_WRE);
			break;
		case EK_RE2: /* often a common word: no candidate, just when */
			if (!s->only || s->only[k->arg])
				s->re2[k->arg] = s->slot[s->cur].line;
			break;
		case EK_CTX:
		case EK_ERR:
		case EK_GPU:
		case EK_VENDOR: sl->bits |= key_bits(k); break;
		case EK_WORD: s->ctxseen[k->arg] = 1; break;
		default: /* EK_CODE: a name, as a whole word */
			if ((start == 0 || !word_char(s->cmsg[start - 1])) &&
			    ((size_t)end + 1 >= s->cmlen || !word_char(s->cmsg[end + 1])))
				add_code(s, (int)k->arg);
			break;
		}
		return;
	}
	if (k->kind != EK_LIT && k->kind != EK_RE && k->kind != EK_RE2)
		return;
	unsigned long from = span_line(s, start);
	if (!from)
		return;
	if (k->kind == EK_RE2) {
		if (!s->only || s->only[k->arg])
			s->re2[k->arg] = s->slot[s->cur].line;
		return;
	}
	mark(s, k->arg, k->kind == EK_LIT ? F_SLIT : F_SRE);
	if (k->kind == EK_LIT && from > s->span[k->arg])
		s->span[k->arg] = from;
}

/* ---- the message memo (matcher.h: struct explain_memo_line) ---- */

/* A hash of the message and the automaton state it is read from, eight
 * bytes a step: it runs on every line of a long input. */
static uint64_t memo_hash(const char *p, size_t n, int32_t from)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint32_t)from ^ ((uint64_t)n << 32);
	for (; n >= 8; p += 8, n -= 8) {
		uint64_t x;
		memcpy(&x, p, 8);
		h = (h ^ x) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	uint64_t x = 0;
	memcpy(&x, p, n);
	h = (h ^ x) * 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 29);
}

static void memo_clear(struct explain_memo_line *m)
{
	free(m->msg);
	free(m->ev);
	free(m->sets);
	free(m->re);
	free(m->codes);
	memset(m, 0, sizeof *m);
}

/* The MEMO_WAYS slots a message may be in: messages a log repeats in turn
 * must not keep evicting each other, and a cycle through more messages
 * than a bucket holds misses every time (with four ways, the buckets that
 * got five or six of 928 cycling messages: 2-6 % of such a log; with
 * eight, those that got nine or more of the bench's 1,760: 4.7 % of its
 * error-dense log missed, 1.4 % with sixteen). */
enum { MEMO_WAYS = 16 };
static struct explain_memo_line *memo_slot(const struct explain_scan *s, uint64_t h)
{
	return &s->lmemo[h % EXPLAIN_MEMO_SLOTS / MEMO_WAYS * MEMO_WAYS];
}

/* The entry of msg[0..len) read from automaton state from, or NULL. */
static struct explain_memo_line *memo_find(struct explain_scan *s, uint64_t h, int32_t from,
					   const char *msg, size_t len)
{
	if (!s->lmemo)
		return NULL;
	struct explain_memo_line *m = memo_slot(s, h);
	/* the hashes first: a line that is not there reads MEMO_WAYS of them */
	const uint64_t *hs = &s->lhash[m - s->lmemo];
	for (int i = 0; i < MEMO_WAYS; i++, m++)
		if (hs[i] == h && m->msg && m->from == from && m->len == len &&
		    !memcmp(m->msg, msg, len)) {
			m->used = s->st.lines;
			m->re_next = 0;
			return m;
		}
	return NULL;
}

/* Keeps the message with the automaton hits just recorded (s->rec) and
 * the state after it, in place of what its slot held. */
static struct explain_memo_line *memo_add(struct explain_scan *s, uint64_t h, int32_t from,
					  const char *msg, size_t len)
{
	if (!s->lmemo) {
		s->lmemo = xcalloc(EXPLAIN_MEMO_SLOTS, sizeof *s->lmemo);
		s->lhash = xcalloc(EXPLAIN_MEMO_SLOTS, sizeof *s->lhash);
	}
	struct explain_memo_line *b = memo_slot(s, h), *m = b;
	for (int i = 1; i < MEMO_WAYS; i++) /* the one used longest ago goes */
		if (b[i].used < m->used)
			m = &b[i];
	memo_clear(m);
	s->lhash[m - s->lmemo] = h;
	m->used = s->st.lines;
	m->gen = ++s->memo_gen;
	m->from = from;
	m->to = s->state;
	m->len = len;
	m->msg = xmalloc(len + 1);
	memcpy(m->msg, msg, len);
	/* A hit inside the message that only adds to a set (a second key, a
	 * context word, a bit) is kept as the member: replayed without looking
	 * its key up, where common words made most of a line's hits. */
	size_t nev = 0, nre2 = 0, nword = 0;
	for (size_t i = 0; i < s->nrec; i++) { /* in place: rec keeps the ordered ones */
		const struct explain_memo_ev *e = &s->rec[i];
		const struct explain_key *k = &s->db->key[e->key];
		if (key_start(s, e->key, e->end) < 0) {
			s->rec[nev++] = *e;
			continue;
		}
		switch (k->kind) {
		case EK_RE2: s->rec_set[nre2++] = (uint32_t)k->arg; break;
		case EK_WORD: s->rec_set[EXPLAIN_MEMO_EVENTS + nword++] = (uint32_t)k->arg; break;
		case EK_CTX:
		case EK_ERR:
		case EK_GPU:
		case EK_VENDOR: m->bits |= key_bits(k); break;
		default: s->rec[nev++] = *e; break;
		}
	}
	m->nev = nev;
	m->ev = xmalloc((nev ? nev : 1) * sizeof *m->ev);
	m->nre2 = nre2;
	m->nword = nword;
	m->sets = xmalloc((nre2 + nword ? nre2 + nword : 1) * sizeof *m->sets);
	if (s->nrec) { /* a message with no key in it has no record at all (rec NULL) */
		memcpy(m->ev, s->rec, nev * sizeof *m->ev);
		memcpy(m->sets, s->rec_set, nre2 * sizeof *m->sets);
		memcpy(m->sets + nre2, s->rec_set + EXPLAIN_MEMO_EVENTS, nword * sizeof *m->sets);
	}
	return m;
}

/* Whether a message with hash h was seen before; notes that it was.
 * MEMO_WAYS hashes a bucket, the newest first and the oldest dropped (a
 * slot picked by the line number made two messages of a bucket in a log
 * cycling through a multiple of 4 evict each other every round). */
static bool memo_seen(struct explain_scan *s, uint64_t h)
{
	if (!s->lseen)
		s->lseen = xcalloc(EXPLAIN_MEMO_SLOTS, sizeof *s->lseen);
	uint64_t *b = &s->lseen[(h >> 32) % (EXPLAIN_MEMO_SLOTS / MEMO_WAYS) * MEMO_WAYS];
	for (int i = 0; i < MEMO_WAYS; i++)
		if (b[i] == h)
			return true;
	memmove(b + 1, b, (MEMO_WAYS - 1) * sizeof *b);
	b[0] = h;
	return false;
}

static bool memo_re_is(const struct explain_memo_re *r, size_t id, uint32_t at, bool window)
{
	return r->id == id && r->at == at && r->window == window;
}

static const struct explain_memo_re *memo_regex(struct explain_memo_line *m, size_t id,
						uint32_t at, bool window)
{
	if (m->re_next < m->nre && memo_re_is(&m->re[m->re_next], id, at, window))
		return &m->re[m->re_next++];
	for (size_t i = 0; i < m->nre; i++)
		if (memo_re_is(&m->re[i], id, at, window)) {
			m->re_next = i + 1;
			return &m->re[i];
		}
	return NULL;
}

static void memo_regex_add(struct explain_memo_line *m, size_t id, uint32_t at, bool window,
			   bool hit, bool memo, int32_t state)
{
	if (m->nre == EXPLAIN_MEMO_RESULTS) /* run again next time */
		return;
	if (m->nre == m->are) {
		m->are = m->are ? 2 * m->are : 4;
		m->re = xrealloc(m->re, m->are * sizeof *m->re);
	}
	m->re[m->nre++] = (struct explain_memo_re){ (uint32_t)id, at, state, hit, memo, window };
}

/* on_hit, recording the hit for the memo. */
static void on_hit_kept(void *ctx, size_t key, long end)
{
	struct explain_scan *s = ctx;
	if (!s->rec) {
		s->rec = xmalloc(EXPLAIN_MEMO_EVENTS * sizeof *s->rec);
		s->rec_set = xmalloc(2 * EXPLAIN_MEMO_EVENTS * sizeof *s->rec_set);
		s->rec_walk = xcalloc(s->db->nkeys ? s->db->nkeys : 1, sizeof *s->rec_walk);
	}
	/* A key's later hits inside the line change nothing its first did
	 * (candidates, flags and bits are sets, a regex key keeps its earliest
	 * start): only the first is kept, so that a line full of common words
	 * fits the memo. A code's hit depends on its position; one that begins
	 * on a line before depends on where. */
	const struct explain_key *k = &s->db->key[key];
	if (k->kind != EK_CODE && key_start(s, key, end) >= 0) {
		if (s->rec_walk[key] == s->walk) {
			on_hit(ctx, key, end);
			return;
		}
		s->rec_walk[key] = s->walk;
	}
	if (s->nrec < EXPLAIN_MEMO_EVENTS)
		s->rec[s->nrec++] = (struct explain_memo_ev){ (uint32_t)key, (int32_t)end };
	else
		s->rec_over = true;
	on_hit(ctx, key, end);
}

/* add_code, keeping the code in the line's memo entry. */
static void add_code_kept(void *ctx, int code)
{
	struct explain_scan *s = ctx;
	struct explain_memo_line *m = s->lcur;
	if (!m->codes)
		m->codes = xmalloc(EXPLAIN_MEMO_CODES * sizeof *m->codes);
	if (m->ncodes < EXPLAIN_MEMO_CODES)
		m->codes[m->ncodes++] = code;
	else
		m->code_mask = 0; /* too many to keep: read again next time */
	add_code(ctx, code);
}

/* regexec, for what rx declines: regcomp runs on first use, as the
 * built-in matcher's tables carry only the pattern (like rx's DFA, a cache
 * that is not part of the matcher's meaning, so the const matcher may
 * fill it). The build compiled every pattern once, so this succeeds. */
static bool re_exec(const struct explain_re *r, const char *text)
{
	struct explain_re *w = (struct explain_re *)r;
	if (!w->compiled) {
		if (regcomp(&w->re, w->src, REG_EXTENDED | REG_ICASE | REG_NOSUB))
			return false;
		w->compiled = true;
	}
	return regexec(&w->re, text, 0, NULL, 0) == 0;
}

static bool sig_regex(const struct explain_sig *sig, const char *text, size_t len)
{
	for (size_t i = 0; i < sig->nre; i++) {
		/* rx's DFA is a cache that grows as it runs: not part of the
		 * database's meaning, so the const matcher may extend it. */
		int r = rx_search((struct rx *)&sig->re[i].rx, text, len);
		if (r < 0)
			r = re_exec(&sig->re[i], text);
		if (r)
			return true;
	}
	return false;
}

/* Regex r on one line alone: 1 if it matches. A failed run leaves its
 * DFA's end state in the memo, where the next line's window goes on from.
 * A regex whose matches begin with a key is run from at, where the first
 * key begins (or a key wrapped into the next line could). */
static bool alone_regex(struct explain_scan *s, const struct explain_re *r, const char *msg,
			size_t mlen, unsigned long line, size_t at)
{
	struct rx *rx = (struct rx *)&r->rx; /* see sig_regex */
	int32_t st = RX_START;
	if (!(r->edge & LIT_LEAD))
		at = 0;
	struct explain_memo_line *lm = s->lcur;
	const struct explain_memo_re *mr = lm ? memo_regex(lm, r->id, (uint32_t)at, false) : NULL;
	if (mr) {
		if (mr->memo)
			s->alone[r->id] = (struct explain_memo){ line, line, mr->state };
		return mr->hit;
	}
	if (at)
		st = RX_MID;
	int rc = rx_feed(rx, &st, msg + at, mlen - at);
	bool hit = true, memo = false;
	if (rc == 0 && !rx_at_end(rx, st)) {
		s->alone[r->id] = (struct explain_memo){ line, line, st };
		hit = false;
		memo = true;
	} else if (rc < 0) {
		hit = re_exec(r, msg);
	}
	if (lm)
		memo_regex_add(lm, r->id, (uint32_t)at, false, hit, memo, st);
	return hit;
}

/* Drops, from the signatures matched together, those that another one
 * there refines (from, if given, is kept parallel to hits). */
static size_t refine(const struct explain_scan *s, size_t *hits, size_t *from, size_t n)
{
	if (n < 2) /* nothing else matched there to refine it */
		return n;
	const struct explain_db *db = s->db;
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		bool drop = false;
		const struct explain_sig *g = &db->sig[hits[i]];
		for (size_t j = 0; j < g->nrefined_by && !drop; j++)
			for (size_t q = 0; q < n && !drop; q++)
				drop = hits[q] == g->refined_by[j] && refines_now(s, hits[q]);
		if (!drop) {
			if (from)
				from[w] = from[i];
			hits[w++] = hits[i];
		}
	}
	return w;
}

/* True if a signature that refines sig matched on a line from `from` on:
 * then those lines are its message, not sig's. */
static bool refined_nearby(const struct explain_scan *s, size_t sig, unsigned long from)
{
	return s->refined_last[sig] >= from;
}

static void add_hit(struct explain_scan *s, size_t sig, unsigned long line, size_t *nh)
{
	if (s->stamp[sig] == line || (s->only && !s->only[sig]))
		return;
	s->stamp[sig] = line;
	s->hits[(*nh)++] = sig;
}

/* The last line alone. */
static void match_line(struct explain_scan *s, unsigned long line, const char *msg, size_t mlen)
{
	const struct explain_db *db = s->db;
	struct explain_slot *sl = &s->slot[s->cur];
	size_t nh = 0;
	for (size_t i = 0; i < sl->ncand; i++) {
		size_t sig = sl->cand[i];
		unsigned char f = sl->flags[sig];
		const struct explain_sig *g = &db->sig[sig];
		bool hit = f & F_WLIT;
		bool run = (f & F_WRE) && (!g->and || s->re2[sig] == line);
		size_t at = s->kpos[sig];
		if (g->keymax && mlen + 1 >= g->keymax && at > mlen + 1 - g->keymax)
			at = mlen + 1 - g->keymax;
		for (size_t j = 0; j < g->nre && !hit && run; j++)
			hit = alone_regex(s, &g->re[j], msg, mlen, line, at);
		if (hit)
			add_hit(s, sig, line, &nh);
	}
	for (size_t i = 0; i < db->nalways; i++) {
		size_t sig = db->always[i];
		if (s->only && !s->only[sig])
			continue;
		if (!(sl->flags[sig] & F_WLIT) && sig_regex(&db->sig[sig], msg, mlen))
			add_hit(s, sig, line, &nh);
	}
	unsigned ctx = sl->bits & db->code_families;
	struct explain_memo_line *lm = s->lcur;
	if (ctx && lm && lm->codes_known && lm->code_mask == ctx) {
		for (size_t i = 0; i < lm->ncodes; i++)
			add_code(s, lm->codes[i]);
	} else if (ctx && lm) {
		lm->ncodes = 0;
		lm->code_mask = ctx;
		codes_numbers(msg, mlen, ctx, add_code_kept, s);
		lm->codes_known = lm->code_mask != 0;
	} else if (ctx) {
		codes_numbers(msg, mlen, ctx, add_code, s);
	}
	for (size_t i = 0; i < s->ncodes; i++) {
		size_t lo = 0, hi = db->ncodesig;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (db->codesig[mid].code < s->codes[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < db->ncodesig && db->codesig[lo].code == s->codes[i]; lo++)
			add_hit(s, db->codesig[lo].sig, line, &nh);
	}
	nh = refine(s, s->hits, NULL, nh);
	for (size_t i = 0; i < nh; i++)
		record(s, s->hits[i], line, line, false);
}

/* The window's lines joined, as the automaton saw them; joff[k] is where
 * line first + k starts. */
static void build_joined(struct explain_scan *s)
{
	size_t w = 0;
	for (int k = s->chain - 1; k >= 0; k--) {
		const struct explain_slot *sl = &s->slot[back(s, k)];
		if (k < s->chain - 1 && sl->space)
			s->joined[w++] = ' ';
		s->joff[s->chain - 1 - k] = w;
		memcpy(s->joined + w, sl->nl.text + sl->nl.msg, msg_len(sl));
		w += msg_len(sl);
	}
	s->joff[s->chain] = w;
	s->joined[w] = '\0';
}

static bool joined_from(struct explain_scan *s, const struct explain_sig *g, unsigned long first,
			unsigned long l)
{
	size_t off = s->joff[l - first];
	return sig_regex(g, s->joined + off, s->joff[s->chain] - off);
}

/* Regex r on lines from..line joined, going on from where its DFA stood at
 * the end of the line before (the memos), so that a line is read once per
 * regex; when nothing was under way there, the lines together can match
 * only as the last line alone did, and it is not read at all. 1: match,
 * 0: none, -1: r needs regexec. */
static int window_regex(struct explain_scan *s, const struct explain_re *r, unsigned long from,
			unsigned long line)
{
	struct rx *rx = (struct rx *)&r->rx; /* see sig_regex */
	const struct explain_memo *a = &s->alone[r->id], *w = &s->win[r->id];
	int32_t st = RX_START;
	unsigned long at = from - 1;
	if (from == line - 1 && a->from == from && a->upto == from)
		st = a->state, at = from;
	else if (w->from == from && w->upto == line - 1)
		st = w->state, at = line - 1;
	for (unsigned long l = at + 1; l <= line; l++) {
		const struct explain_slot *sl = &s->slot[slot_of(s, l)];
		int rc;
		if (l > from && sl->space && (rc = rx_feed(rx, &st, " ", 1)) != 0)
			return rc;
		if (l == line && rx_idle(rx, st))
			return 0;
		/* a message read on from a DFA state ends the same way each
		 * time: kept in its memo entry while that is still the line's */
		struct explain_memo_line *lm = sl->lm && sl->lm->gen == sl->lm_gen ? sl->lm : NULL;
		const struct explain_memo_re *mr = lm ? memo_regex(lm, r->id, (uint32_t)st, true) : NULL;
		if (mr && mr->hit)
			return 1;
		if (mr) {
			st = mr->state;
			continue;
		}
		int32_t in = st;
		if ((rc = rx_feed(rx, &st, sl->nl.text + sl->nl.msg, msg_len(sl))) < 0)
			return rc;
		if (lm)
			memo_regex_add(lm, r->id, (uint32_t)in, true, rc > 0, false, st);
		if (rc)
			return rc;
	}
	if (rx_at_end(rx, st))
		return 1;
	s->win[r->id] = (struct explain_memo){ from, line, st };
	return 0;
}

static void try_window(struct explain_scan *s, size_t sig, unsigned long line, unsigned long first,
		       unsigned long first_re, bool *built, size_t *nh)
{
	if (s->stamp2[sig] == line || s->stamp[sig] == line || (s->only && !s->only[sig]))
		return;
	s->stamp2[sig] = line;
	unsigned long from = s->last[sig] + 1 > first ? s->last[sig] + 1 : first;
	if (from >= line)
		return;
	/* (whether a refinement took those lines is asked last: a long list
	 * to look through, for a window that mostly has nothing to match) */
	const unsigned long from_all = from;
	const struct explain_sig *g = &s->db->sig[sig];
	const struct explain_slot *cur = &s->slot[s->cur];
	unsigned long at = 0;
	if ((cur->flags[sig] & F_SLIT) && s->span[sig] >= from) {
		if (refined_nearby(s, sig, from_all))
			return;
		at = s->span[sig];
	} else if (g->nre) {
		if (from < first_re)
			from = first_re;
		if (from >= line)
			return;
		unsigned char f = 0, before = 0, now = cur->flags[sig];
		for (unsigned long l = from; l < line; l++)
			before |= s->slot[slot_of(s, l)].flags[sig];
		f = before | now;
		bool keyed = (f & (F_WRE | F_SRE)) && (!g->and || s->re2[sig] >= from);
		/* A match that starts with its key, wrapped, has the key before
		 * the break; one that ends with it, after. */
		if ((g->edge & LIT_LEAD) && !(before & F_WRE) && !(now & F_SRE))
			keyed = false;
		if ((g->edge & LIT_TRAIL) && !(now & (F_WRE | F_SRE)))
			keyed = false;
		if ((!keyed && !g->always) || refined_nearby(s, sig, from_all))
			return;
		bool hit = false;
		for (size_t j = 0; j < g->nre && !hit; j++) {
			int rc = window_regex(s, &g->re[j], from, line);
			if (rc < 0) {
				if (!*built) {
					build_joined(s);
					*built = true;
				}
				size_t off = s->joff[from - first];
				rc = re_exec(&g->re[j], s->joined + off);
			}
			hit = rc > 0;
		}
		if (hit) { /* the message starts on the last line that still matches */
			if (!*built) {
				build_joined(s);
				*built = true;
			}
			at = from;
			for (unsigned long l = line - 1; l > from; l--)
				if (joined_from(s, g, first, l)) {
					at = l;
					break;
				}
		}
	}
	if (at) {
		s->hits[*nh] = sig;
		s->from[*nh] = at;
		(*nh)++;
	}
}

/* The last line joined to the ones before it in the window. */
static void match_window(struct explain_scan *s, unsigned long line)
{
	const struct explain_db *db = s->db;
	unsigned long first = line - (unsigned long)(s->chain - 1);
	/* Regexes look two lines back, further only across terminal cuts:
	 * literals are found across every break for free, a regex is not. */
	unsigned long first_re = line - 1;
	while (first_re > first && !s->slot[slot_of(s, first_re)].space)
		first_re--;
	bool built = false;
	size_t nh = 0;
	/* Spanning literals are flagged on the last line; regex keys count
	 * from first_re on. */
	for (unsigned long l = line; l >= first_re; l--) {
		const struct explain_slot *sl = &s->slot[slot_of(s, l)];
		for (size_t i = 0; i < sl->nwcand; i++)
			try_window(s, sl->wcand[i], line, first, first_re, &built, &nh);
	}
	for (size_t i = 0; i < db->nalways; i++)
		try_window(s, db->always[i], line, first, first_re, &built, &nh);
	nh = refine(s, s->hits, s->from, nh);
	for (size_t i = 0; i < nh; i++)
		record(s, s->hits[i], s->from[i], line, false);
}

/* Was the line before cut by the terminal in the middle of a word? It is
 * as wide as a terminal (80 or 120 columns, or the width two equally long
 * lines showed), and neither side of the break is a blank or a table rule. */
static bool terminal_cut(const struct explain_scan *s, const struct explain_slot *p,
			 const struct explain_slot *c)
{
	if (p->trail_blank || c->lead_blank || !p->nl.len || !c->nl.len)
		return false;
	if (strchr("|+-=", p->nl.text[p->nl.len - 1]) || strchr("|+-=", c->nl.text[0]))
		return false;
	size_t w = p->cols;
	return w >= 40 && (w == 80 || w == 120 || w == s->width || w == c->cols);
}

/* Length of msg without a trailing "..." or "…" (a cut the paste shows). */
static size_t strip_ellipsis(const char *msg, size_t len)
{
	if (len >= 3 && !memcmp(msg + len - 3, "...", 3))
		len -= 3;
	else if (len >= 3 && !memcmp(msg + len - 3, "\xe2\x80\xa6", 3))
		len -= 3;
	while (len && msg[len - 1] == ' ')
		len--;
	return len;
}

/* A traceback source line that raises an exception with its text:
 * `raise RuntimeError("UVA is not available")`. */
static bool raises_text(const char *msg, size_t mlen)
{
	return mlen > 6 && !memcmp(msg, "raise ", 6) &&
	       (memchr(msg, '"', mlen) || memchr(msg, '\'', mlen));
}

static void process_line(struct explain_scan *s, const char *raw, size_t len, bool clipped);

/* The held `raise` line, read on its own line number: the traceback was cut
 * after it (the input ends, or an empty line or another frame follows). */
static void replay_raise(struct explain_scan *s)
{
	unsigned long lines = s->st.lines;
	size_t n = s->raiselen;
	s->raiselen = 0;
	chain_break(s, false);
	s->st.lines = s->raise_line - 1;
	s->replay = true;
	process_line(s, s->raise, n, false);
	s->replay = false;
	chain_break(s, false);
	s->st.lines = lines;
}

/* Whether raw is empty, blanks only, or a traceback frame: what may follow
 * a cut traceback's `raise` line where its exception line would be. */
static bool ends_traceback(const char *raw, size_t len)
{
	size_t i = 0;
	while (i < len && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\r'))
		i++;
	return i == len || (len - i > 6 && !memcmp(raw + i, "File \"", 6));
}

static void process_line(struct explain_scan *s, const char *raw, size_t len, bool clipped)
{
	const struct explain_db *db = s->db;
	if (s->raiselen && !s->replay) {
		if (ends_traceback(raw, len))
			replay_raise(s);
		s->raiselen = 0;
	}
	s->st.lines++;
	if (clipped)
		s->st.clipped++;
	unsigned long line = s->st.lines;
	int c = (s->cur + 1) % W;
	struct explain_slot *sl = &s->slot[c];
	if (s->chain == W) { /* the oldest line leaves the window */
		commit(s, sl);
		s->chain--;
	}
	norm_line(raw, len, sl->buf, &sl->nl);
	s->st.nul_bytes += sl->nl.nul_bytes;
	s->st.bad_utf8 += sl->nl.bad_utf8;
	for (size_t i = 0; i < sl->ncand; i++)
		sl->flags[sl->cand[i]] = 0;
	sl->ncand = 0;
	sl->nwcand = 0;
	sl->bits = 0;
	sl->suspect = false;
	sl->hit = false;
	sl->lm = NULL;
	sl->line = line;
	size_t rl = len;
	while (rl && raw[rl - 1] == '\r')
		rl--;
	sl->cols = sl->nl.cols - (len - rl);
	sl->lead_blank = rl && (raw[0] == ' ' || raw[0] == '\t');
	sl->trail_blank = rl && (raw[rl - 1] == ' ' || raw[rl - 1] == '\t');

	const char *msg = sl->nl.text + sl->nl.msg;
	size_t mlen = msg_len(sl);
	bool frame = mlen > 6 && !memcmp(msg, "File \"", 6) && memmem(msg, mlen, "\", line ", 8);
	/* The source line a traceback prints under a frame is indented deeper;
	 * it repeats what the exception line says, so it is not matched. */
	bool echo = !s->replay && s->chain && s->prev_frame &&
		    sl->nl.indent > s->slot[s->cur].nl.indent;
	if (echo && !clipped && raises_text(msg, mlen)) {
		if (!s->raise)
			s->raise = xmalloc(EXPLAIN_LINE_MAX);
		memcpy(s->raise, raw, len);
		s->raiselen = len;
		s->raise_line = line;
	}
	if (echo || mlen == 0) {
		chain_break(s, false);
		s->prev_frame = false;
		return;
	}
	if (clipped)
		chain_break(s, false);
	sl->space = true;
	if (s->chain) {
		const struct explain_slot *p = &s->slot[s->cur];
		sl->space = !terminal_cut(s, p, sl);
		if (p->cols == sl->cols && sl->cols >= 40)
			s->width = sl->cols;
	}
	size_t feed = strip_ellipsis(msg, mlen);
	bool dots = feed < mlen && mlen - feed <= 4 && mlen - feed >= 3;

	s->cur = c;
	s->chain++;
	s->cmsg = msg;
	s->cmlen = mlen;
	s->cfeed = feed;
	s->ncodes = 0;
	int32_t st = 0;
	if (s->chain > 1) {
		st = s->state;
		if (sl->space)
			st = ac_feed(&db->ac, st, " ", 1, -1, on_hit, s);
	}
	s->lcur = NULL;
	if (s->no_memo || clipped || line <= EXPLAIN_MEMO_AFTER || mlen > EXPLAIN_MEMO_TEXT) {
		s->state = ac_feed(&db->ac, st, msg, feed, 0, on_hit, s);
	} else {
		uint64_t h = memo_hash(msg, mlen, st);
		struct explain_memo_line *lm = memo_find(s, h, st, msg, mlen);
		if (lm) {
			for (size_t i = 0; i < lm->nev; i++)
				on_hit(s, lm->ev[i].key, lm->ev[i].end);
			sl->bits |= lm->bits;
			for (size_t i = 0; i < lm->nre2; i++)
				if (!s->only || s->only[lm->sets[i]])
					s->re2[lm->sets[i]] = line;
			for (size_t i = 0; i < lm->nword; i++)
				s->ctxseen[lm->sets[lm->nre2 + i]] = 1;
			s->state = lm->to;
			s->lcur = lm;
			s->st.replayed++;
		} else {
			s->nrec = 0;
			s->walk++;
			s->rec_over = false;
			s->state = ac_feed(&db->ac, st, msg, feed, 0, on_hit_kept, s);
			/* kept from the second time it is seen (most lines
			 * are unique): a line with nothing to match costs its
			 * automaton walk each time too, and a log repeats its
			 * progress and status lines as often as its errors */
			if (!s->rec_over && memo_seen(s, h))
				s->lcur = memo_add(s, h, st, msg, mlen);
		}
	}
	sl->lm = s->lcur;
	sl->lm_gen = s->lcur ? s->lcur->gen : 0;
	sl->suspect = (sl->bits & LB_ERR) && (sl->bits & LB_GPU) && !other_vendor_only(sl->bits);

	match_line(s, line, msg, mlen);
	if (s->chain > 1)
		match_window(s, line);
	for (size_t i = 0; i < sl->ncand; i++)
		s->span[sl->cand[i]] = 0;
	s->prev_frame = frame;
	if (dots || clipped)
		chain_break(s, dots);
}

/* One CR-separated piece of a clipped line, matched as a line of its own
 * (on the same line number: a terminal redrew that line). */
static void end_segment(struct explain_scan *s)
{
	if (s->taillen) {
		chain_break(s, false);
		s->st.lines--;
		process_line(s, s->tail, s->taillen, false);
		chain_break(s, false);
	}
	s->taillen = 0;
}

/* The bytes of a clipped line past its first EXPLAIN_LINE_MAX, split at
 * each CR; a piece is matched on its first EXPLAIN_LINE_MAX bytes, as a
 * line is (a piece's bytes past that wait for the next CR, dropped). */
static void overflow(struct explain_scan *s, const char *p, size_t n)
{
	while (n) {
		const char *cr = memchr(p, '\r', n);
		size_t k = cr ? (size_t)(cr - p) : n;
		size_t c = s->piece_cut ? 0 : EXPLAIN_LINE_MAX - s->taillen;
		memcpy(s->tail + s->taillen, p, c < k ? c : k);
		s->taillen += c < k ? c : k;
		if (!cr)
			break;
		end_segment(s);
		s->piece_cut = false;
		p = cr + 1;
		n -= k + 1;
	}
}

static void end_line(struct explain_scan *s)
{
	if (s->clipped)
		end_segment(s); /* the head was matched at the cut */
	else
		process_line(s, s->raw, s->rawlen, false);
	s->rawlen = s->taillen = 0;
	s->clipped = s->piece_cut = false;
	s->partial = false;
}

void explain_scan_feed(struct explain_scan *s, const char *buf, size_t len)
{
	s->st.bytes += len;
	while (len) {
		const char *nl = memchr(buf, '\n', len);
		size_t take = nl ? (size_t)(nl - buf) : len;
		if (nl && !s->partial && take <= EXPLAIN_LINE_MAX) {
			/* a whole line in the chunk: read where it is, not copied */
			process_line(s, buf, take, false);
			buf += take + 1;
			len -= take + 1;
			continue;
		}
		size_t room = EXPLAIN_LINE_MAX - s->rawlen;
		if (take > room) {
			memcpy(s->raw + s->rawlen, buf, room);
			s->rawlen += room;
			if (!s->clipped) {
				/* the head, as before (its cut is reported); then what
				 * follows its last CR goes on into the first piece, so
				 * that a message the cut splits is whole there */
				s->clipped = true;
				process_line(s, s->raw, s->rawlen, true);
				if (!s->tail)
					s->tail = xmalloc(EXPLAIN_LINE_MAX);
				const char *cr = memrchr(s->raw, '\r', s->rawlen);
				if (cr) {
					s->taillen = (size_t)(s->raw + s->rawlen - cr - 1);
					memcpy(s->tail, cr + 1, s->taillen);
				} else {
					/* the head is one piece, matched on its first
					 * EXPLAIN_LINE_MAX: the rest of it is dropped */
					s->piece_cut = true;
				}
			}
			overflow(s, buf + room, take - room);
		} else {
			memcpy(s->raw + s->rawlen, buf, take);
			s->rawlen += take;
		}
		s->partial = true;
		if (!nl)
			break;
		end_line(s);
		buf += take + 1;
		len -= take + 1;
	}
}

int explain_sig_tier(const struct explain_sig *sig)
{
	if (!sig->e->family)
		return 0;
	return strcmp(sig->e->family, "wrapper") ? 1 : 2;
}

/* The most specific reading first (a specific signature, then a family,
 * then a generic wrapper), each in order of appearance: an application's
 * "runner terminated" early in a paste does not hide the error it wraps. */
static int by_order(const void *a, const void *b)
{
	const struct explain_match *x = *(struct explain_match *const *)a;
	const struct explain_match *y = *(struct explain_match *const *)b;
	if (x->tier != y->tier)
		return x->tier < y->tier ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

void explain_scan_finish(struct explain_scan *s)
{
	if (s->finished)
		return;
	if (s->partial)
		end_line(s);
	if (s->raiselen)
		replay_raise(s);
	chain_break(s, true);
	s->partial = false;
	s->finished = true;
	s->found = xcalloc(s->db->n ? s->db->n : 1, sizeof *s->found);
	for (size_t i = 0; i < s->db->n; i++) {
		/* A signature with context: words reads its message as the GPU
		 * chain's only where the input shows one of them: "permission
		 * denied ... docker.sock" alone is an ordinary docker error. */
		if (s->m[i].count && s->db->sig[i].context && !s->ctxseen[i] && !s->in_context)
			s->m[i].count = 0;
		if (s->m[i].count) {
			s->m[i].tier = (unsigned char)explain_sig_tier(&s->db->sig[i]);
			s->found[s->nfound++] = &s->m[i];
		}
	}
	qsort(s->found, s->nfound, sizeof *s->found, by_order);
}

void explain_scan_dump(const struct explain_scan *s, struct strbuf *out)
{
	const struct explain_stats *st = &s->st;
	sb_addf(out, "bytes %llu lines %lu clipped %lu nul %llu bad %llu unknown %lu recognised %lu\n",
		st->bytes, st->lines, st->clipped, st->nul_bytes, st->bad_utf8, st->unknown,
		st->recognised);
	for (size_t i = 0; i < s->nfound; i++) {
		const struct explain_match *m = s->found[i];
		sb_addf(out, "match %s count %lu lines %lu-%lu\n", s->db->sig[m->sig].e->id, m->count,
			m->first_line, m->last_line);
		for (size_t j = 0; j < m->nocc; j++) {
			const struct explain_occ *o = &m->occ[j];
			sb_addf(out, "  at %lu+%u%s%s %s\n", o->line, o->lines,
				o->wrapped ? " wrapped" : "", o->cut ? " cut" : "", o->text);
		}
	}
	for (size_t i = 0; i < s->nunk; i++)
		sb_addf(out, "unknown %lu x%lu %s\n", s->unk[i].line, s->unk[i].count, s->unk[i].text);
}

const struct explain_match *explain_scan_get(const struct explain_scan *s, const char *id)
{
	int i = explain_db_find(s->db, id);
	return i >= 0 && s->m[i].count ? &s->m[i] : NULL;
}

void explain_scan_release(struct explain_scan *s)
{
	if (s->m)
		for (size_t i = 0; i < s->db->n; i++)
			for (size_t j = 0; j < s->m[i].nocc; j++)
				free(s->m[i].occ[j].text);
	for (size_t i = 0; i < s->nunk; i++) {
		free(s->unk[i].text);
		free(s->unk[i].msg);
	}
	free(s->block);
	free(s->raise);
	for (int i = 0; i < W; i++)
		free(s->slot[i].buf);
	if (s->lmemo)
		for (size_t i = 0; i < EXPLAIN_MEMO_SLOTS; i++)
			memo_clear(&s->lmemo[i]);
	free(s->lmemo);
	free(s->lhash);
	free(s->lseen);
	free(s->rec);
	free(s->rec_walk);
	free(s->rec_set);
	free(s->raw);
	free(s->tail);
	free(s->joined);
	free(s->found);
	memset(s, 0, sizeof *s);
}

const struct kb_entry *explain_best(const struct explain_db *db, const char *prefix,
				    const char *text, size_t len)
{
	if (!text || !len)
		return NULL;
	size_t pl = strlen(prefix), best = (size_t)-1;
	unsigned char *only = xcalloc(db->n ? db->n : 1, 1);
	for (size_t i = 0; i < db->n; i++)
		only[i] = !strncmp(db->sig[i].e->id, prefix, pl);
	struct explain_scan s;
	explain_scan_init(&s, db);
	s.only = only; /* the others are not asked about, nor refine these */
	/* a probe asks about the output of its own GPU check (docker info
	 * for containers.docker): that is the context the words stand for */
	s.in_context = true;
	explain_scan_feed(&s, text, len);
	explain_scan_finish(&s);
	for (size_t i = 0; i < s.nfound; i++) {
		size_t sig = s.found[i]->sig;
		bool refined = false;
		for (size_t j = 0; j < db->sig[sig].nrefined_by && !refined; j++)
			refined = s.m[db->sig[sig].refined_by[j]].count != 0;
		if (!refined && sig < best)
			best = sig;
	}
	explain_scan_release(&s);
	free(only);
	return best == (size_t)-1 ? NULL : db->sig[best].e;
}
