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

int ac_build_dense(struct ac *ac, const char *const *keys, const size_t *lens, size_t n,
		   const unsigned char *mark, int32_t max_dense)
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
	/* Renumber: the first max_dense states in breadth-first order (the
	 * shallow ones, where every line's bytes pass) keep complete rows; the
	 * rest keep only their trie edges, in insertion order (a key's tail
	 * is one run of states, so a walk along it reads adjacent entries).
	 * A complete table for every state would be states x classes x 4
	 * bytes: 20 MB for a few thousand keys, a cache miss per byte. */
	int32_t nd = max_dense < 1 ? 1 : (max_dense < nst ? max_dense : nst);
	if ((uint64_t)nst > AC_EDGE_TO) {
		fprintf(stderr, "wslgpu: too many signature keys for the automaton\n");
		abort();
	}
	int32_t *renum = xmalloc((size_t)nst * sizeof *renum);
	for (int32_t i = 0; i < nst; i++)
		renum[i] = -1;
	renum[0] = 0;
	for (int32_t i = 1; i < nd; i++)
		renum[queue[i - 1]] = i;
	free(queue);
	int32_t sparse = nd;
	for (int32_t i = 0; i < nst; i++)
		if (renum[i] < 0)
			renum[i] = sparse++;
	int32_t *old = xmalloc((size_t)nst * sizeof *old);
	for (int32_t i = 0; i < nst; i++)
		old[renum[i]] = i;

	uint32_t *next = xmalloc((size_t)nd * (size_t)ncls * sizeof *next);
	for (int32_t i = 0; i < nd; i++)
		for (int c = 0; c < ncls; c++) {
			int32_t t = delta[(size_t)old[i] * (size_t)ncls + (size_t)c];
			next[(size_t)i * (size_t)ncls + (size_t)c] =
				(uint32_t)renum[t] | (out[t] ? AC_OUT : 0);
		}
	/* A trie edge goes one deeper; a completed one never does (it leads
	 * where the failure link's edge leads, no deeper than the state). */
	uint32_t *edge_at = xmalloc(((size_t)(nst - nd) + 1) * sizeof *edge_at);
	uint32_t *edge = xmalloc((size_t)nst * sizeof *edge);
	uint32_t ne = 0;
	for (int32_t i = nd; i < nst; i++) {
		edge_at[i - nd] = ne;
		int32_t o = old[i];
		for (int c = 0; c < ncls; c++) {
			int32_t t = delta[(size_t)o * (size_t)ncls + (size_t)c];
			if (depth[t] == depth[o] + 1)
				edge[ne++] = (uint32_t)renum[t] | (uint32_t)c << AC_EDGE_SHIFT |
					     (out[t] ? AC_OUT : 0);
		}
	}
	edge_at[nst - nd] = ne;
	free(delta);
	free(out);

	int32_t *tmp = xmalloc((size_t)nst * sizeof *tmp);
	int32_t *const by_state[] = { own, owner, depth };
	for (size_t a = 0; a < sizeof by_state / sizeof by_state[0]; a++) {
		for (int32_t i = 0; i < nst; i++)
			tmp[i] = by_state[a][old[i]];
		memcpy(by_state[a], tmp, (size_t)nst * sizeof *tmp);
	}
	int32_t *const to_state[] = { dict, fail };
	for (size_t a = 0; a < sizeof to_state / sizeof to_state[0]; a++) {
		for (int32_t i = 0; i < nst; i++) {
			int32_t v = to_state[a][old[i]];
			tmp[i] = v < 0 ? v : renum[v];
		}
		memcpy(to_state[a], tmp, (size_t)nst * sizeof *tmp);
	}
	free(tmp);
	free(old);
	free(renum);

	ac->nstates = nst;
	ac->ndense = nd;
	ac->next = next;
	ac->edge_at = edge_at;
	ac->edge = edge;
	ac->nedges = ne;
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

int ac_build(struct ac *ac, const char *const *keys, const size_t *lens, size_t n,
	     const unsigned char *mark)
{
	return ac_build_dense(ac, keys, lens, n, mark, AC_DENSE_STATES);
}

void ac_free(struct ac *ac)
{
	/* Only what ac_build allocated comes here, never generated tables. */
	free((void *)ac->next);
	free((void *)ac->edge_at);
	free((void *)ac->edge);
	free((void *)ac->own);
	free((void *)ac->dict);
	free((void *)ac->outs);
	free((void *)ac->keylen);
	free((void *)ac->fail);
	free((void *)ac->depth);
	free((void *)ac->owner);
	memset(ac, 0, sizeof *ac);
}
