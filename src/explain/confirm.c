/* confirm.c: rank a signature's causes by what the checks found. See confirm.h. */
#include "confirm.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/error.h"
#include "../core/text.h"
#include "../kb/fixline.h"
#include "../kb/kb.h"

#include "ac.h"
#include "report.h"

size_t confirm_checks(const char *confirm, const struct check_def *defs, size_t ndefs,
		      size_t *idx, size_t max)
{
	size_t k = 0;
	if (!confirm)
		return 0;
	const char *p = strstr(confirm, "--only");
	if (!p)
		return 0;
	p += 6;
	if (*p == '=')
		p++;
	while (*p == ' ')
		p++;
	while (*p && *p != ' ' && k < max) {
		const char *e = p;
		while (*e && *e != ',' && *e != ' ')
			e++;
		size_t len = (size_t)(e - p);
		for (size_t i = 0; i < ndefs && k < max; i++) {
			bool id = strlen(defs[i].id) == len && !memcmp(defs[i].id, p, len);
			bool layer = strlen(defs[i].layer) == len && !memcmp(defs[i].layer, p, len);
			if (!id && !layer)
				continue;
			bool dup = false;
			for (size_t j = 0; j < k; j++)
				dup |= idx[j] == i;
			if (!dup)
				idx[k++] = i;
		}
		p = *e == ',' ? e + 1 : e;
	}
	return k;
}

static bool problem(enum status s)
{
	return s == ST_FAIL || s == ST_WARN || s == ST_CRASH || s == ST_TIMEOUT;
}

static bool lists(const struct kb_list *l, const char *id)
{
	for (size_t i = 0; id && i < l->n; i++)
		if (!strcmp(l->v[i], id))
			return true;
	return false;
}

/* Whether a check's finding speaks of cause e: its entry is e's, or one
 * of the two names the other as related (see:). A check that fails for
 * another reason (libs.env blaming LD_LIBRARY_PATH) says nothing about
 * this one (CUDA_VISIBLE_DEVICES hiding every GPU): a check reports its
 * worst finding, not each cause it can tell apart. */
static bool same_cause(const struct kb_entry *e, const struct result *res)
{
	if (!res->kb)
		return false;
	if (!strcmp(res->kb, e->id) || lists(&e->see, res->kb))
		return true;
	const struct kb_entry *found = kb_find(res->kb);
	return found && lists(&found->see, e->id);
}

static void judge(const struct kb_entry *e, const struct check_def *defs,
		  const struct result *results, size_t n, struct cause_rank *r)
{
	r->e = e;
	r->v = V_OPEN;
	r->why = R_NO_CHECK;
	r->by = NULL;
	for (size_t i = 0; i < n; i++)
		if (results[i].ran && problem(results[i].status) && results[i].kb &&
		    !strcmp(results[i].kb, e->id)) {
			r->v = V_CONFIRMED;
			r->by = &results[i];
			return;
		}
	size_t idx[64];
	size_t k = confirm_checks(e->confirm, defs, n, idx, 64);
	if (k == 0)
		return;
	const struct result *bad = NULL, *other = NULL, *open = NULL;
	enum open_reason why = R_NONE;
	size_t passed = 0;
	for (size_t j = 0; j < k; j++) {
		const struct result *res = &results[idx[j]];
		if (!res->ran) {
			if (why == R_NONE) {
				why = R_NOT_RUN;
				open = res;
			}
		} else if (problem(res->status)) {
			if (!same_cause(e, res)) {
				if (!other)
					other = res;
			} else if (!bad) {
				bad = res;
			}
		} else if (res->status == ST_SKIP || res->status == ST_UNKNOWN) {
			if (why == R_NONE) {
				why = res->status == ST_SKIP ? R_SKIPPED : R_UNKNOWN;
				open = res;
			}
		} else {
			passed++;
		}
	}
	if (bad) {
		r->v = V_LIKELY;
		r->by = bad;
		r->why = R_NONE;
	} else if (other) {
		r->why = R_OTHER;
		r->by = other;
	} else if (passed == k) {
		r->v = V_RULED_OUT;
		r->by = &results[idx[0]];
		r->why = R_NONE;
	} else {
		r->why = why;
		r->by = open;
	}
}

void rank_platform_pick(struct rank_platform *pf, const char *option,
			const char *text_kind, const char *text_marker,
			const struct result *machine)
{
	*pf = (struct rank_platform){ .machine = machine };
	if (option) {
		/* "A container" is stated; a text that shows WSL too (Docker
		 * Desktop's "WSL environment detected", /usr/lib/wsl) says which
		 * host serves it: the container in WSL2 refines it. */
		bool wsl_text = text_kind && (!strcmp(text_kind, "wsl2") ||
					      !strcmp(text_kind, "container-in-wsl2"));
		pf->kind = !strcmp(option, "container") && wsl_text ? "container-in-wsl2" : option;
		pf->established = true;
		pf->from = "option";
		if (pf->kind != option)
			pf->marker = text_marker;
	} else if (text_kind) {
		/* The text wins over this machine: a native kernel's lines pasted
		 * in a container are most often the host's or another machine's
		 * (a colleague's, a server's), and the driver they show serves a
		 * container on that kernel too, so native causes hold for both. */
		pf->kind = text_kind;
		pf->established = true;
		pf->from = "text";
		pf->marker = text_marker;
	} else if (machine && machine->ran) {
		pf->kind = res_get(machine, "kind");
		pf->from = pf->kind ? "machine" : NULL;
	}
}

void paste_words_release(struct paste_words *w)
{
	free(w->lower);
	free(w->seen);
	free(w->found);
	w->lower = NULL;
	w->seen = NULL;
	w->found = NULL;
	w->nseen = w->aseen = 0;
	w->scanned = false;
}

/* From this length on, the KB's words are looked up in one pass over the
 * paste (an automaton over all of them) rather than one memmem a word: some
 * 256 words over an error-dense log's 4 MiB were a seventh of its time. */
#define PASTE_ONE_PASS (256u << 10)
/* A word this long or longer is never found (no support: word is). */
#define PASTE_WORD_MAX 128

static void remember(struct paste_words *w, const char *word, bool found)
{
	if (w->nseen == w->aseen) {
		w->aseen = w->aseen ? 2 * w->aseen : 256;
		w->seen = xrealloc(w->seen, w->aseen * sizeof *w->seen);
		w->found = xrealloc(w->found, w->aseen * sizeof *w->found);
	}
	w->seen[w->nseen] = word;
	w->found[w->nseen++] = found;
}

static void word_hit(void *ctx, size_t key, long end)
{
	(void)end;
	((bool *)ctx)[key] = true;
}

/* Remembers, from one pass over the paste, which support: and exclude:
 * words of the built-in KB it holds (ASCII case folded, as paste_has's
 * lower-cased memmem). */
static void paste_scan_words(struct paste_words *w)
{
	const struct kb *kb = kb_builtin();
	const char **keys = NULL;
	size_t *lens = NULL, *key_of = NULL, nk = 0, cap = 0, first = w->nseen;
	for (size_t i = 0; i < kb->n; i++) {
		const struct kb_list *lists[2] = { &kb->e[i].support, &kb->e[i].exclude };
		for (int l = 0; l < 2; l++)
			for (size_t j = 0; j < lists[l]->n; j++) {
				const char *word = lists[l]->v[j];
				size_t n = strlen(word);
				if (!n || n >= PASTE_WORD_MAX)
					continue;
				size_t k = 0; /* the same text (at any address): one key */
				while (k < nk && !(lens[k] == n && !strncasecmp(keys[k], word, n)))
					k++;
				if (w->nseen - first == cap) {
					cap = cap ? 2 * cap : 256;
					keys = xrealloc(keys, cap * sizeof *keys);
					lens = xrealloc(lens, cap * sizeof *lens);
					key_of = xrealloc(key_of, cap * sizeof *key_of);
				}
				if (k == nk) {
					keys[nk] = word;
					lens[nk++] = n;
				}
				key_of[w->nseen - first] = k;
				remember(w, word, false);
			}
	}
	if (nk) {
		bool *hit = xcalloc(nk, sizeof *hit);
		struct ac ac;
		ac_build(&ac, keys, lens, nk, NULL);
		ac_feed(&ac, 0, w->text, w->len, 0, word_hit, hit);
		ac_free(&ac);
		for (size_t i = first; i < w->nseen; i++)
			w->found[i] = hit[key_of[i - first]];
		free(hit);
	}
	free(keys);
	free(lens);
	free(key_of);
	w->scanned = true;
}

static bool paste_has(struct paste_words *w, const char *word)
{
	if (!w || !w->len)
		return false;
	if (w->len >= PASTE_ONE_PASS && !w->scanned)
		paste_scan_words(w);
	for (size_t i = 0; i < w->nseen; i++)
		if (w->seen[i] == word)
			return w->found[i];
	/* a short paste, or a word of another KB (--kb) */
	char lw[PASTE_WORD_MAX];
	size_t n = strlen(word);
	if (!n || n >= sizeof lw)
		return false;
	if (!w->lower) {
		w->lower = xmalloc(w->len + 1);
		for (size_t i = 0; i < w->len; i++)
			w->lower[i] = (char)tolower((unsigned char)w->text[i]);
		w->lower[w->len] = 0;
	}
	for (size_t i = 0; i < n; i++)
		lw[i] = (char)tolower((unsigned char)word[i]);
	bool found = memmem(w->lower, w->len, lw, n) != NULL;
	remember(w, word, found);
	return found;
}

/* Whether word is part of the message sig reads (a literal or regex of
 * its own): every paste it matches shows that word, so it tells none of
 * its causes apart ("out of memory" supports the full GPU where another
 * message names it, not where it is the message). */
static bool sig_says(const struct kb_entry *sig, const char *word)
{
	for (size_t i = 0; i < sig->match.n; i++)
		if (text_casestr(sig->match.v[i], word))
			return true;
	for (size_t i = 0; i < sig->regex.n; i++)
		if (text_casestr(sig->regex.v[i], word))
			return true;
	return false;
}

/* The support: and exclude: words of r's cause that the paste shows,
 * beyond the words of the message itself (sig, or NULL). */
static void weigh(struct cause_rank *r, const struct kb_entry *sig, struct paste_words *w)
{
	const struct kb_entry *e = r->e;
	r->score = 0;
	r->nsupport = r->nexclude = 0;
	for (size_t i = 0; i < e->support.n; i++)
		if (!(sig && sig_says(sig, e->support.v[i])) && paste_has(w, e->support.v[i])) {
			r->score += 1;
			if (r->nsupport < RANK_WORDS)
				r->support[r->nsupport++] = e->support.v[i];
		}
	for (size_t i = 0; i < e->exclude.n; i++)
		if (paste_has(w, e->exclude.v[i])) {
			r->score -= 2;
			if (r->nexclude < RANK_WORDS)
				r->exclude[r->nexclude++] = e->exclude.v[i];
		}
}

static bool kind_is_windows(const char *k)
{
	return k && !strcmp(k, "windows");
}

bool log_is_windows(const struct rank_platform *pf)
{
	return pf && pf->established && kind_is_windows(pf->kind);
}

/* A cause of WSL's own (the platform: line names WSL and no Linux outside
 * it, nor Windows itself). */
static bool is_wsl_cause(const struct kb_entry *e)
{
	return e->platform && (kb_applies(e, "wsl2") || kb_applies(e, "wsl1")) &&
	       !kb_applies(e, "native") && !kb_applies(e, "container");
}

/* On a Windows log: a cause of Linux that holds there only in WSL on that
 * machine (WSL's own, or one native Linux shares; not one of Windows'). */
static bool wsl_side_of_windows(const struct kb_entry *e)
{
	return e->platform && kb_applies(e, "wsl2") && !kb_applies(e, "windows");
}

/* Only this machine's kind (a prior) says where the log ran, and this
 * machine is a container: a cause bound to its host's platform (a native
 * kernel module, WSL's own) still holds for the GPU the container gets --
 * the host's driver serves it -- so it is bound, not excluded. */
static bool host_cause(const struct kb_entry *e, const struct rank_platform *pf)
{
	if (!pf || pf->established || !pf->kind)
		return false;
	if (!strcmp(pf->kind, "container"))
		return kb_applies(e, "native");
	if (!strcmp(pf->kind, "container-in-wsl2"))
		return kb_applies(e, "wsl2");
	return false;
}

/* Whether every fix line of e is a Linux command (and it has one). */
static bool all_fixes_linux(const struct kb_entry *e)
{
	for (size_t i = 0; i < e->fix.n; i++)
		if (!fix_is_linux_only(e->fix.v[i]))
			return false;
	return e->fix.n > 0;
}

/* Whether a goes after b within a verdict: a general cause with only Linux
 * steps after one with a step Windows can run (a Windows log), then by score. */
static bool ranks_after(const struct cause_rank *a, const struct cause_rank *b)
{
	if (a->linux_fixes != b->linux_fixes)
		return a->linux_fixes;
	return a->score < b->score;
}

void rank_causes(const struct explain_sig *sig, const struct check_def *defs,
		 const struct result *results, size_t n, const struct rank_platform *pf,
		 struct cause_rank *out)
{
	struct cause_rank tmp[64], unbound[64];
	size_t nc = sig->ncause < 64 ? sig->ncause : 64;
	const char *kind = pf ? pf->kind : NULL;
	const struct result *platform = pf && !strcmp(pf->from ? pf->from : "", "machine") ? pf->machine : NULL;
	for (size_t i = 0; i < nc; i++) {
		if (results)
			judge(sig->cause[i], defs, results, n, &tmp[i]);
		else
			tmp[i] = (struct cause_rank){ .e = sig->cause[i], .v = V_UNCHECKED, .why = R_NONE };
		/* A check that names this very cause, or passes every check it
		 * names, says more than its platform line. */
		/* A Windows log: a WSL cause may still be the Windows side's
		 * (wsl.exe, the Windows driver), so it is bound, not excluded. */
		bool win_wsl = kind_is_windows(kind) && wsl_side_of_windows(sig->cause[i]);
		tmp[i].linux_fixes = false;
		tmp[i].marker = NULL;
		if (tmp[i].v != V_CONFIRMED && tmp[i].v != V_RULED_OUT && !win_wsl &&
		    !kb_applies(sig->cause[i], kind) && !host_cause(sig->cause[i], pf)) {
			tmp[i].v = V_NOT_HERE;
			tmp[i].why = pf && pf->established ? R_TEXT : R_NONE;
			tmp[i].by = platform;
		} else if ((tmp[i].v == V_UNCHECKED || tmp[i].v == V_OPEN) && sig->cause[i]->platform &&
			   (!(pf && pf->established) || win_wsl)) {
			/* Nothing says where the log ran: what holds everywhere
			 * first (this machine's kind is only a prior). */
			unbound[i] = tmp[i];
			tmp[i].v = V_BOUND;
			tmp[i].why = win_wsl ? R_TEXT : R_NONE;
			tmp[i].by = NULL;
			tmp[i].marker = win_wsl && pf ? pf->marker : NULL;
		}
		/* A Windows log: a general cause whose every step is a Linux
		 * command (libcuda.so, LD_LIBRARY_PATH) says less there than one
		 * with a step Windows can run (KB data decides, no list here). */
		if (log_is_windows(pf) && !sig->cause[i]->platform &&
		    (tmp[i].v == V_UNCHECKED || tmp[i].v == V_OPEN))
			tmp[i].linux_fixes = all_fixes_linux(sig->cause[i]);
	}
	/* A Windows log of a message any program prints (no platform: line
	 * naming WSL) whose causes are all WSL's or another platform's: the
	 * program ran on Windows itself (Ollama's "nvml vram init failure"
	 * loading System32's nvml.dll), so no WSL reading may lead it; they
	 * are not this log's. Where a cause holds on Windows or everywhere,
	 * the WSL readings stay after it, bound. */
	bool win_none = kind_is_windows(kind) && pf && pf->established && nc &&
			!(sig->e->platform && kb_applies(sig->e, "wsl2"));
	for (size_t i = 0; win_none && i < nc; i++)
		win_none = tmp[i].v == V_NOT_HERE || (tmp[i].v == V_BOUND && tmp[i].why == R_TEXT);
	for (size_t i = 0; win_none && i < nc; i++)
		if (tmp[i].v == V_BOUND) {
			tmp[i].v = V_NOT_HERE;
			tmp[i].marker = NULL;
			tmp[i].by = platform;
		}
	/* Only this machine's kind (a prior) put every cause of the message
	 * on another platform, and the KB says the message itself is printed
	 * only there (the signature's platform: line; vLLM's "UVA is not
	 * available" on WSL): the message is then the evidence of where it
	 * ran, so its causes are bound, shown as such, not all "not on this
	 * platform". A message printed everywhere whose known causes are one
	 * platform's (nvidia-smi's "Unable to determine the device handle")
	 * keeps the prior: no other platform's step leads. Not for a myth:
	 * one that is a myth only elsewhere is harmless here
	 * (explain_effective_kind). */
	bool prior_only = !results && nc && !(pf && pf->established) && sig->e->platform &&
			  strcmp(sig->kind, "myth") && strcmp(sig->cause[0]->kind, "myth");
	for (size_t i = 0; prior_only && i < nc; i++)
		prior_only = tmp[i].v == V_NOT_HERE && tmp[i].why == R_NONE;
	for (size_t i = 0; prior_only && i < nc; i++) {
		unbound[i] = tmp[i];
		unbound[i].v = V_UNCHECKED;
		tmp[i].v = V_BOUND;
		tmp[i].by = NULL;
	}
	for (size_t i = 0; i < nc; i++) {
		weigh(&tmp[i], sig->e, pf ? pf->words : NULL);
		/* Evidence beats the platform prior: a cause bound to Linux
		 * outside WSL (native) whose own words the paste shows ranks
		 * with those that hold everywhere, by its score (nvidia_uvm
		 * after "suspend"). Never a cause of WSL's or Windows' own:
		 * their advice does not lead where the platform is unknown. */
		if (tmp[i].v == V_BOUND && tmp[i].why == R_NONE && tmp[i].nsupport > 0 && tmp[i].score > 0 &&
		    kb_applies(sig->cause[i], "native") && !is_wsl_cause(sig->cause[i])) {
			tmp[i].v = unbound[i].v;
			tmp[i].why = unbound[i].why;
			tmp[i].by = unbound[i].by;
		}
		/* The log shows where it ran: a cause of that platform's own
		 * (a shadowing libcuda in WSL, a kernel module natively) is
		 * likelier there than one that holds everywhere (what a check
		 * found about this machine says more). Not a rarer condition of
		 * that platform (rare: in the KB: WSL's pinned memory limit, a
		 * Windows build too old for WSL's GPU) without one of its
		 * support: words in the paste. */
		if (pf && pf->established && (tmp[i].v == V_UNCHECKED || tmp[i].v == V_OPEN) &&
		    sig->cause[i]->platform && kb_applies(sig->cause[i], kind) &&
		    (!sig->cause[i]->rare || tmp[i].nsupport > 0))
			tmp[i].score += 1;
	}
	size_t w = 0;
	for (enum verdict v = V_UNCHECKED; v <= V_NOT_HERE; v++) {
		size_t from = w;
		for (size_t i = 0; i < nc; i++)
			if (tmp[i].v == v)
				out[w++] = tmp[i];
		/* stable: by score, highest first (an insertion sort: few causes) */
		for (size_t i = from + 1; i < w; i++) {
			struct cause_rank x = out[i];
			size_t j = i;
			for (; j > from && ranks_after(&out[j - 1], &x); j--)
				out[j] = out[j - 1];
			out[j] = x;
		}
	}
}

/* The remark of the check put before a change on a guess. */
#define WHICH_CAUSE_FIRST "   (first: which cause this is, before changing anything)"

static void fix_insert_first(struct finding_view *fv, char *line)
{
	fv->fix = xrealloc(fv->fix, (fv->nfix + 1) * sizeof *fv->fix);
	memmove(fv->fix + 1, fv->fix, fv->nfix * sizeof *fv->fix);
	fv->fix[0] = line;
	fv->nfix++;
}

/* Moves fv's line i to the front, the others keeping their order. */
static void fix_to_front(struct finding_view *fv, size_t i)
{
	char *x = fv->fix[i];
	memmove(fv->fix + 1, fv->fix, i * sizeof *fv->fix);
	fv->fix[0] = x;
}

/* Whether fv's first line may not lead for r: a removal or a reinstall
 * never leads unless this machine's checks confirm the cause; any other
 * change of the system (fix_changes_system) not unless the message
 * establishes the cause either (the KB's established:). */
static bool first_waits(const struct finding_view *fv, const struct cause_rank *r)
{
	if (!fv->nfix || r->v == V_CONFIRMED)
		return false;
	return fix_is_destructive(fv->fix[0]) ||
	       (!r->e->established && fix_changes_system(fv->fix[0]));
}

/* A look before the change: the cause's own first line that only looks
 * (fix_only_looks: it reads the machine and tells the causes apart)
 * moves to the front; without one, the cause's check (confirm) comes
 * first, as prefix says it runs here ("in WSL: " on a Windows log); with
 * no check to run there (prefix NULL), a line that removes nothing. */
static void look_first(struct finding_view *fv, const struct cause_rank *r, const char *prefix)
{
	for (size_t i = 1; i < fv->nfix; i++)
		if (fix_only_looks(fv->fix[i])) {
			fix_to_front(fv, i);
			return;
		}
	if (!prefix) {
		/* nothing that looks runs there: at least no removal leads */
		for (size_t i = 1; i < fv->nfix && fix_is_destructive(fv->fix[0]); i++)
			if (!fix_is_destructive(fv->fix[i]))
				fix_to_front(fv, i);
		return;
	}
	const char *only = r->e->confirm && strstr(r->e->confirm, "--only") ? r->e->confirm : NULL;
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s%s" WHICH_CAUSE_FIRST, prefix, only ? only : "wslgpu check");
	fix_insert_first(fv, sb_detach(&sb));
}

/* order_fixes for a log established as Windows'. No Linux command leads
 * there: a general cause's Linux lines are another platform's (dropped,
 * as a WSL line is on native Linux's log), and a WSL cause's lines are for
 * WSL on that machine, which they say. */
static void order_fixes_windows(struct finding_view *fv, const struct cause_rank *r, bool in_wsl)
{
	size_t k = 0;
	for (size_t i = 0; i < fv->nfix; i++) {
		if (!fix_is_linux_only(fv->fix[i])) {
			fv->fix[k++] = fv->fix[i];
		} else if (in_wsl) {
			struct strbuf sb = STRBUF_INIT;
			sb_addf(&sb, "in WSL: %s", fv->fix[i]);
			free(fv->fix[i]);
			fv->fix[k++] = sb_detach(&sb);
		} else {
			free(fv->fix[i]);
		}
	}
	fv->nfix = k;
	/* a line for WSL (wsl.exe, .wslconfig) is the Windows side's too,
	 * but this log's program runs on Windows itself: it goes last */
	if (!in_wsl) {
		char **keep = xcalloc(k ? k : 1, sizeof *keep);
		size_t w = 0;
		for (int pass = 0; pass < 2; pass++)
			for (size_t i = 0; i < k; i++)
				if (fix_names_wsl(fv->fix[i]) == (pass == 1))
					keep[w++] = fv->fix[i];
		free(fv->fix);
		fv->fix = keep;
	}
	/* wslgpu runs in WSL only: a check for Windows itself is no line */
	if (first_waits(fv, r))
		look_first(fv, r, in_wsl && r->e->confirm ? "in WSL: " : NULL);
}

void order_fixes(struct finding_view *fv, const struct cause_rank *r,
		 const struct rank_platform *pf)
{
	const struct kb_entry *e = r->e;
	bool established = pf && pf->established && pf->kind;
	bool wsl_log = established && kb_kind_is_wsl(pf->kind);
	if (log_is_windows(pf)) {
		finding_cause_for_platform(fv, "windows");
		/* its lines run in WSL on that machine (rank_causes binds it so) */
		order_fixes_windows(fv, r, wsl_side_of_windows(e));
		return;
	}
	/* A cause of WSL's own (or Windows') keeps its order: it is marked as such. */
	bool wsl_cause = e->platform && !kb_applies(e, "native") && !kb_applies(e, "container");
	/* the lines for another platform: as check shows them (finding.h) */
	finding_for_platform(fv, established ? pf->kind : NULL);
	bool wsl_first = !wsl_cause && !wsl_log && fv->nfix &&
			 fix_platform_of(fv->fix[0]) == FIX_WSL_ONLY;
	bool dropped_all = !wsl_cause && established && !wsl_log && !fv->nfix;
	if ((wsl_first || dropped_all) && e->confirm && strstr(e->confirm, "--only")) {
		/* Every fix is WSL's: off WSL, the check that tells the causes
		 * apart comes first. */
		fix_insert_first(fv, xstrdup(e->confirm));
	}
	if (first_waits(fv, r))
		look_first(fv, r, "");
}

static bool shown_kind(const char *k)
{
	return !strcmp(k, "noise") || !strcmp(k, "myth");
}

const char *explain_effective_kind(const struct explain_sig *sig, const struct cause_rank *ranks)
{
	if (!ranks || !sig->ncause)
		return sig->kind;
	bool first_here = true;
	for (size_t i = 0; i < sig->ncause; i++)
		if (ranks[i].e == sig->cause[0])
			first_here = ranks[i].v != V_NOT_HERE;
	if (first_here)
		return sig->kind;
	/* No cause holds on this platform: what the line shows is harmless
	 * here (apt installing a Linux driver is the right step on native
	 * Linux, a myth only in WSL). */
	if (ranks[0].v == V_NOT_HERE)
		/* A message only another platform's program prints (vLLM's
		 * WSL notice) still shows the problem: only a myth there is
		 * harmless here. */
		return strcmp(sig->kind, "myth") && strcmp(sig->cause[0]->kind, "myth") ? sig->kind
											 : "noise";
	return shown_kind(ranks[0].e->kind) ? ranks[0].e->kind : "finding";
}

const char *verdict_name(enum verdict v)
{
	switch (v) {
	case V_CONFIRMED: return "confirmed";
	case V_LIKELY: return "likely";
	case V_OPEN: return "open";
	case V_RULED_OUT: return "ruled_out";
	case V_BOUND: return "platform_bound";
	case V_NOT_HERE: return "not_applicable";
	default: return NULL;
	}
}

void cause_evidence(const struct cause_rank *r, struct strbuf *out)
{
	const struct result *by = r->by;
	const char *id = by && by->def ? by->def->id : "?";
	const char *detail = by && by->detail && *by->detail ? by->detail : "";
	switch (r->v) {
	case V_CONFIRMED:
		sb_addf(out, "%s: %s", id, detail);
		break;
	case V_LIKELY:
		sb_addf(out, "%s reports a problem: %s", id, detail);
		break;
	case V_RULED_OUT: {
		/* the ids after --only, as the user would type them */
		const char *only = r->e->confirm ? strstr(r->e->confirm, "--only") : NULL;
		if (only) {
			only += 6;
			while (*only == ' ' || *only == '=')
				only++;
			size_t len = strcspn(only, " ");
			sb_addf(out, "%.*s passes on this machine", (int)len, only);
		} else {
			sb_addf(out, "%s passes on this machine", id);
		}
		break;
	}
	case V_BOUND:
	case V_NOT_HERE: {
		static const char *const names[][2] = {
			{ "wsl", "WSL" }, { "not-wsl", "Linux outside WSL" }, { "wsl1", "WSL1" },
			{ "wsl2", "WSL2" }, { "native", "native Linux" },
			{ "container", "a container on native Linux" },
			{ "container-in-wsl2", "a container inside WSL2" }, { "windows", "Windows" },
		};
		const char *where = r->e->platform ? r->e->platform : "";
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
			if (!strcmp(where, names[i][0]))
				where = names[i][1];
		if (r->v == V_BOUND && r->why == R_TEXT) {
			/* a Windows log: WSL is a program run on that machine too */
			sb_addf(out, "applies only on %s; the log is from Windows (", where);
			if (r->marker)
				sb_addf(out, "its text shows \"%s\"", r->marker);
			else
				sb_add(out, "--platform");
			sb_add(out, "): it holds only where the program runs in WSL on that machine");
			break;
		}
		if (r->v == V_BOUND) {
			sb_addf(out, "applies only on %s; the text does not show where it ran "
				     "(--platform says)", where);
			break;
		}
		if (r->why == R_TEXT) {
			sb_addf(out, "applies only on %s; the log is from another platform (its text, or --platform)", where);
			break;
		}
		const char *kind = by ? res_get(by, "kind") : NULL;
		sb_addf(out, "applies only on %s; platform.kind: %s", where,
			by && by->detail && *by->detail ? by->detail : kind ? kind : "another platform");
		break;
	}
	case V_OPEN:
		if (r->why == R_NO_CHECK)
			sb_add(out, "no check tells this cause apart; see the fix");
		else if (r->why == R_OTHER)
			sb_addf(out, "%s reports another problem: %s", id, detail);
		else if (r->why == R_SKIPPED)
			sb_addf(out, "%s was %s", id, *detail ? detail : "skipped");
		else if (r->why == R_UNKNOWN)
			sb_addf(out, "%s could not tell: %s", id, *detail ? detail : "unknown");
		else
			sb_addf(out, "%s did not run", id);
		break;
	default:
		break;
	}
}

/* ---- the answer (report.h) ---- */

const char *explain_match_kind(const struct explain_scan *s, struct cause_rank *const *ranks,
			       size_t i)
{
	const struct explain_sig *sig = &s->db->sig[s->found[i]->sig];
	return explain_effective_kind(sig, ranks ? ranks[i] : NULL);
}

void explain_tally(const struct explain_scan *s, struct cause_rank *const *ranks,
		   struct explain_tally *t)
{
	memset(t, 0, sizeof *t);
	for (size_t i = 0; i < s->nfound; i++) {
		const char *k = explain_match_kind(s, ranks, i);
		if (!strcmp(k, "noise"))
			t->noise++;
		else if (!strcmp(k, "myth"))
			t->myths++;
		else
			t->findings++;
	}
	/* Lines that look like GPU errors and are not known leave it open. */
	t->status = t->findings + t->myths ? "problem" : t->noise && !s->st.unknown ? "ok" : "unknown";
}
