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
	int32_t *own = xmalloc(maxst * sizeof *own);
	int32_t *dict = xmalloc(maxst * sizeof *dict);
	unsigned char *out = xcalloc(maxst, 1);
	int32_t *depth = xcalloc(maxst, sizeof *depth);
	int32_t *owner = xmalloc(maxst * sizeof *owner);
	for (size_t i = 0; i < maxst; i++)
		own[i] = dict[i] = owner[i] = -1;
	struct ac_out *outs = xmalloc((n ? n : 1) * sizeof *outs);
	size_t *keylen = xmalloc((n ? n : 1) * sizeof *keylen);
	int32_t nst = 1;

	/* The trie. */
	for (size_t k = 0; k < n; k++) {
		keylen[k] = lens[k];
		if (lens[k] == 0)
			continue;
		int32_t s = 0;
		for (size_t i = 0; i < lens[k]; i++) {
			int c = ac->cls[fold((unsigned char)keys[k][i])];
			int32_t *e = &delta[(size_t)s * (size_t)ncls + (size_t)c];
			if (*e < 0) {
				depth[nst] = (int32_t)i + 1;
				*e = nst++;
			}
			s = *e;
			if (owner[s] < 0 && (!mark || mark[k]))
				owner[s] = (int32_t)k;
		}
		outs[k].key = (int32_t)k;
		outs[k].next = own[s];
		own[s] = (int32_t)k;
		out[s] = 1;
	}
	delta = xrealloc(delta, (size_t)nst * (size_t)ncls * sizeof *delta);

	/* Failure links, breadth first, completing the table as we go: a
	 * missing edge of state r leads where the edge of fail(r) leads. */
	int32_t *fail = xcalloc((size_t)nst, sizeof *fail);
	depth = xrealloc(depth, (size_t)nst * sizeof *depth);
	owner = xrealloc(owner, (size_t)nst * sizeof *owner);
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
			dict[u] = own[via] >= 0 ? via : dict[via];
			if (dict[u] >= 0)
				out[u] = 1;
			queue[qt++] = u;
		}
	}
	free(queue);
	/* Row offsets with the output bit (see ac.h); a KB would need millions
	 * of key bytes to overflow 31 bits. */
	if ((uint64_t)nst * (uint64_t)ncls >= AC_OUT) {
		fprintf(stderr, "wslgpu: too many signature keys for the automaton\n");
		abort();
	}
	uint32_t *next = (uint32_t *)delta;
	for (size_t i = 0; i < (size_t)nst * (size_t)ncls; i++) {
		int32_t t = delta[i];
		next[i] = (uint32_t)t * (uint32_t)ncls | (out[t] ? AC_OUT : 0);
	}
	free(out);
	ac->nstates = nst;
	ac->next = next;
	ac->own = own;
	ac->dict = dict;
	ac->outs = outs;
	ac->keylen = keylen;
	ac->nkeys = n;
	ac->fail = fail;
	ac->depth = depth;
	ac->owner = owner;
	return 0;
}

void ac_free(struct ac *ac)
{
	/* Only what ac_build allocated comes here, never generated tables. */
	free((void *)ac->next);
	free((void *)ac->own);
	free((void *)ac->dict);
	free((void *)ac->outs);
	free((void *)ac->keylen);
	free((void *)ac->fail);
	free((void *)ac->depth);
	free((void *)ac->owner);
	memset(ac, 0, sizeof *ac);
}
