/* ac.c: build the Aho-Corasick automaton. See ac.h. */
#include "ac.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/strbuf.h"

static unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

int ac_build(struct ac *ac, const char *const *keys, const size_t *lens, size_t n,
	     const unsigned char *mark)
{
	memset(ac, 0, sizeof *ac);
	/* Byte classes: one per distinct (folded) byte used by a key. */
	int ncls = 1;
	size_t total = 0;
	for (size_t k = 0; k < n; k++) {
		total += lens[k];
		for (size_t i = 0; i < lens[k]; i++) {
			unsigned char c = fold((unsigned char)keys[k][i]);
			if (!ac->cls[c]) {
				ac->cls[c] = (unsigned char)ncls++;
				if (c >= 'a' && c <= 'z')
					ac->cls[c - 32] = ac->cls[c];
			}
		}
	}
	ac->ncls = ncls;
	size_t maxst = total + 1;
	int32_t *delta = xmalloc(maxst * (size_t)ncls * sizeof *delta);
	for (size_t i = 0; i < maxst * (size_t)ncls; i++)
		delta[i] = -1;
	ac->own = xmalloc(maxst * sizeof *ac->own);
	ac->dict = xmalloc(maxst * sizeof *ac->dict);
	unsigned char *out = xcalloc(maxst, 1);
	ac->depth = xcalloc(maxst, sizeof *ac->depth);
	ac->owner = xmalloc(maxst * sizeof *ac->owner);
	for (size_t i = 0; i < maxst; i++)
		ac->own[i] = ac->dict[i] = ac->owner[i] = -1;
	ac->outs = xmalloc((n ? n : 1) * sizeof *ac->outs);
	ac->keylen = xmalloc((n ? n : 1) * sizeof *ac->keylen);
	ac->nkeys = n;
	int32_t nst = 1;

	/* The trie. */
	for (size_t k = 0; k < n; k++) {
		ac->keylen[k] = lens[k];
		if (lens[k] == 0)
			continue;
		int32_t s = 0;
		for (size_t i = 0; i < lens[k]; i++) {
			int c = ac->cls[fold((unsigned char)keys[k][i])];
			int32_t *e = &delta[(size_t)s * (size_t)ncls + (size_t)c];
			if (*e < 0) {
				ac->depth[nst] = (int32_t)i + 1;
				*e = nst++;
			}
			s = *e;
			if (ac->owner[s] < 0 && (!mark || mark[k]))
				ac->owner[s] = (int32_t)k;
		}
		ac->outs[k].key = (int32_t)k;
		ac->outs[k].next = ac->own[s];
		ac->own[s] = (int32_t)k;
		out[s] = 1;
	}
	ac->nstates = nst;
	delta = xrealloc(delta, (size_t)nst * (size_t)ncls * sizeof *delta);

	/* Failure links, breadth first, completing the table as we go: a
	 * missing edge of state r leads where the edge of fail(r) leads. */
	int32_t *fail = xcalloc((size_t)nst, sizeof *fail);
	ac->depth = xrealloc(ac->depth, (size_t)nst * sizeof *ac->depth);
	ac->owner = xrealloc(ac->owner, (size_t)nst * sizeof *ac->owner);
	int32_t *queue = xmalloc((size_t)nst * sizeof *queue);
	size_t qh = 0, qt = 0;
	for (int c = 0; c < ncls; c++) {
		int32_t *e = &delta[(size_t)c];
		if (*e < 0) {
			*e = 0;
		} else {
			fail[*e] = 0;
			queue[qt++] = *e;
		}
	}
	while (qh < qt) {
		int32_t r = queue[qh++];
		for (int c = 0; c < ncls; c++) {
			int32_t *e = &delta[(size_t)r * (size_t)ncls + (size_t)c];
			int32_t via = delta[(size_t)fail[r] * (size_t)ncls + (size_t)c];
			if (*e < 0) {
				*e = via;
				continue;
			}
			int32_t u = *e;
			fail[u] = via;
			ac->dict[u] = ac->own[via] >= 0 ? via : ac->dict[via];
			if (ac->dict[u] >= 0)
				out[u] = 1;
			queue[qt++] = u;
		}
	}
	ac->fail = fail;
	free(queue);
	/* Row offsets with the output bit (see ac.h); a KB would need millions
	 * of key bytes to overflow 31 bits. */
	if ((uint64_t)nst * (uint64_t)ncls >= AC_OUT) {
		fprintf(stderr, "wslgpu: too many signature keys for the automaton\n");
		abort();
	}
	ac->next = (uint32_t *)delta;
	for (size_t i = 0; i < (size_t)nst * (size_t)ncls; i++) {
		int32_t t = delta[i];
		ac->next[i] = (uint32_t)t * (uint32_t)ncls | (out[t] ? AC_OUT : 0);
	}
	free(out);
	return 0;
}

void ac_free(struct ac *ac)
{
	free(ac->next);
	free(ac->own);
	free(ac->dict);
	free(ac->outs);
	free(ac->keylen);
	free(ac->fail);
	free(ac->depth);
	free(ac->owner);
	memset(ac, 0, sizeof *ac);
}
