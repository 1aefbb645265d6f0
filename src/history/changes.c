/*
 * changes.c: what changed between consecutive recorded runs of one
 * machine -- the facts (driver 551.23 -> 531.79) and the checks whose
 * status flipped (pass -> fail, and the ones that were fixed). Each change
 * names the KB entry that explains it: for facts the history.* entries
 * (src/kb/history.kb), for checks the entry the check itself named.
 *
 * Transitions into or out of "skip" are left out unless the other side is
 * a failure: a check skipped because an earlier one broke follows from
 * that break, which is listed, and repeating it for every later check
 * would bury it. "unknown" (the check could not find out) is news only
 * next to a problem: a failure or warning that can no longer be verified
 * ("unverified": not "fixed"), or one that appears where the check could
 * not tell before.
 */
#include "history.h"

#include <stdlib.h>
#include <string.h>

#include "../kb/kb.h"
#include "../parse/version.h"
#include "kb_ids.h"

/* Facts compared as versions (a smaller number is a downgrade) and the KB
 * entry for each kind of change; facts not listed are compared as text. */
static const struct fact_rule {
	const char *key;
	bool version;
	const char *kb_down; /* a downgrade */
	const char *kb_up;   /* an upgrade */
	const char *kb_any;  /* any other change (text, added, removed) */
} rules[] = {
	{ "driver.version", true, KB_HISTORY_DRIVER_DOWNGRADE, KB_HISTORY_DRIVER_UPGRADE, NULL },
	{ "driver.cuda", true, NULL, NULL, NULL },
	{ "kernel", true, KB_HISTORY_KERNEL_CHANGED, KB_HISTORY_KERNEL_CHANGED, KB_HISTORY_KERNEL_CHANGED },
	{ "wsl.version", true, NULL, NULL, NULL },
	{ "windows.version", true, NULL, NULL, NULL },
	{ "libcuda", false, NULL, NULL, KB_HISTORY_LIBCUDA_CHANGED },
	{ "nvcc", true, NULL, NULL, NULL },
	{ "python", true, KB_HISTORY_FRAMEWORK_CHANGED, KB_HISTORY_FRAMEWORK_CHANGED, KB_HISTORY_FRAMEWORK_CHANGED },
	{ "torch", true, KB_HISTORY_FRAMEWORK_CHANGED, KB_HISTORY_FRAMEWORK_CHANGED, KB_HISTORY_FRAMEWORK_CHANGED },
	{ "torch.cuda", true, KB_HISTORY_FRAMEWORK_CHANGED, KB_HISTORY_FRAMEWORK_CHANGED, KB_HISTORY_FRAMEWORK_CHANGED },
	{ "tensorflow", true, KB_HISTORY_FRAMEWORK_CHANGED, KB_HISTORY_FRAMEWORK_CHANGED, KB_HISTORY_FRAMEWORK_CHANGED },
	{ "tensorflow.cuda", true, KB_HISTORY_FRAMEWORK_CHANGED, KB_HISTORY_FRAMEWORK_CHANGED, KB_HISTORY_FRAMEWORK_CHANGED },
	{ "jax", true, KB_HISTORY_FRAMEWORK_CHANGED, KB_HISTORY_FRAMEWORK_CHANGED, KB_HISTORY_FRAMEWORK_CHANGED },
	{ "jax.cuda", true, KB_HISTORY_FRAMEWORK_CHANGED, KB_HISTORY_FRAMEWORK_CHANGED, KB_HISTORY_FRAMEWORK_CHANGED },
	{ "cupy", true, KB_HISTORY_FRAMEWORK_CHANGED, KB_HISTORY_FRAMEWORK_CHANGED, KB_HISTORY_FRAMEWORK_CHANGED },
	{ "cupy.cuda", true, KB_HISTORY_FRAMEWORK_CHANGED, KB_HISTORY_FRAMEWORK_CHANGED, KB_HISTORY_FRAMEWORK_CHANGED },
	{ "docker", true, NULL, NULL, NULL },
};

static const struct fact_rule *rule_of(const char *key)
{
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
		if (!strcmp(rules[i].key, key))
			return &rules[i];
	return NULL;
}

static void add(struct history_transition *t, size_t *alloc, const struct history_change *c)
{
	if (t->n == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 8;
		t->v = xrealloc(t->v, *alloc * sizeof *t->v);
	}
	t->v[t->n++] = *c;
}

/* A driver downgrade on WSL is the Windows driver's (Windows Update's OEM
 * package, the usual cause); elsewhere the distribution's or NVIDIA's
 * installer put it in. platform: the newer run's platform kind, or NULL. */
static const char *downgrade_kb(const struct fact_rule *rule, const char *platform)
{
	if (rule->kb_down && !strcmp(rule->kb_down, KB_HISTORY_DRIVER_DOWNGRADE) &&
	    !kb_kind_is_wsl(platform))
		return KB_HISTORY_DRIVER_DOWNGRADE_NATIVE;
	return rule->kb_down;
}

static void fact_change(struct history_transition *t, size_t *alloc, const char *key,
			const char *old, const char *new, const char *platform)
{
	if (old && new && !strcmp(old, new))
		return;
	const struct fact_rule *rule = rule_of(key);
	struct history_change c = { false, key, old, new, "changed", rule ? rule->kb_any : NULL, NULL };
	if (!old)
		c.how = "added";
	else if (!new)
		c.how = "removed";
	else if (rule && rule->version) {
		struct version a, b;
		if (version_parse(old, &a) == 0 && version_parse(new, &b) == 0) {
			int cmp = version_cmp(&a, &b);
			if (cmp > 0) {
				c.how = "downgrade";
				c.kb = downgrade_kb(rule, platform);
			} else if (cmp < 0) {
				c.how = "upgrade";
				c.kb = rule->kb_up;
			}
		}
	}
	add(t, alloc, &c);
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* How a check's status moved, or NULL when it is no news. */
static const char *check_how(const struct history_check *o, const struct history_check *n)
{
	bool of = status_name_is_failure(o->status), nf = status_name_is_failure(n->status);
	bool oskip = !strcmp(o->status, "skip"), nskip = !strcmp(n->status, "skip");
	bool ounknown = !strcmp(o->status, "unknown"), nunknown = !strcmp(n->status, "unknown");
	if (nf && !of)
		return "broke";
	if (of && nskip)
		return "skipped";
	/* A problem the check can no longer see is not fixed; a pass that
	 * became unknown, or the reverse, is no news (no problem either way). */
	if ((of || !strcmp(o->status, "warn")) && nunknown)
		return "unverified";
	if (ounknown && !nf && strcmp(n->status, "warn"))
		return NULL;
	if (of && !nf)
		return "fixed";
	if (of && nf)
		return strcmp(o->status, n->status) ? "changed" : same(o->kb, n->kb) ? NULL : "cause";
	if (oskip || nskip)
		return NULL;
	if (!strcmp(n->status, "warn"))
		return strcmp(o->status, "warn") ? "warns" : same(o->kb, n->kb) ? NULL : "cause";
	if (!strcmp(o->status, "warn"))
		return "fixed";
	return NULL;
}

static void compare(const struct history_run *from, const struct history_run *to,
		    struct history_transition *t)
{
	size_t alloc = 0;
	t->from = from;
	t->to = to;
	t->v = NULL;
	t->n = 0;
	const char *platform = history_run_fact(to, "platform");
	for (size_t i = 0; i < to->nfacts; i++)
		fact_change(t, &alloc, to->facts[i].key, history_run_fact(from, to->facts[i].key),
			    to->facts[i].val, platform);
	for (size_t i = 0; i < from->nfacts; i++)
		if (!history_run_fact(to, from->facts[i].key))
			fact_change(t, &alloc, from->facts[i].key, from->facts[i].val, NULL, platform);
	/* Checks present in only one of the runs (another --only, a newer
	 * wslgpu with more checks) say nothing about the machine. */
	for (size_t i = 0; i < to->nchecks; i++) {
		const struct history_check *n = &to->checks[i];
		const struct history_check *o = history_run_check(from, n->id);
		if (!o)
			continue;
		const char *how = check_how(o, n);
		if (!how)
			continue;
		bool use_old = !strcmp(how, "fixed") || !strcmp(how, "skipped") ||
			       !strcmp(how, "unverified");
		struct history_change c = { true, n->id, o->status, n->status, how,
					    use_old ? o->kb : n->kb, n->detail };
		add(t, &alloc, &c);
	}
}

/* What a reader must see first: what got worse, then what got better,
 * then the rest (upgrades, other changes). */
static int importance(const struct history_change *c)
{
	static const char *const worse[] = { "downgrade", "broke", "warns", "cause" };
	for (size_t i = 0; i < sizeof worse / sizeof worse[0]; i++)
		if (!strcmp(c->how, worse[i]))
			return 0;
	return !strcmp(c->how, "fixed") ? 1 : 2;
}

/* Stable, so that facts stay in table order and checks in chain order. */
static void order_changes(struct history_transition *t)
{
	for (size_t i = 1; i < t->n; i++) {
		struct history_change c = t->v[i];
		size_t j = i;
		while (j > 0 && importance(&t->v[j - 1]) > importance(&c)) {
			t->v[j] = t->v[j - 1];
			j--;
		}
		t->v[j] = c;
	}
}

void history_changes(const struct history_runs *runs, struct history_changes *out)
{
	memset(out, 0, sizeof *out);
	/* The latest run seen of each machine, as runs go by oldest first. */
	const struct history_run **last = xcalloc(runs->n ? runs->n : 1, sizeof *last);
	size_t alloc = 0;
	for (size_t i = 0; i < runs->n; i++) {
		const struct history_run *r = &runs->v[i];
		size_t m = 0;
		while (m < out->machines && strcmp(last[m]->machine, r->machine) != 0)
			m++;
		if (m == out->machines) {
			last[out->machines++] = r;
			continue;
		}
		struct history_transition t;
		compare(last[m], r, &t);
		order_changes(&t);
		last[m] = r;
		if (!t.n) {
			free(t.v);
			continue;
		}
		if (out->n == alloc) {
			alloc = alloc ? 2 * alloc : 8;
			out->v = xrealloc(out->v, alloc * sizeof *out->v);
		}
		out->v[out->n++] = t;
	}
	free(last);
}

bool history_track(struct history_tracker *tr, const struct history_run *run,
		   struct history_transition *t)
{
	memset(t, 0, sizeof *t);
	history_run_release(&tr->retired);
	size_t m = 0;
	while (m < tr->n && strcmp(tr->last[m].machine, run->machine) != 0)
		m++;
	if (m == tr->n) {
		tr->last = xrealloc(tr->last, (tr->n + 1) * sizeof *tr->last);
		history_run_copy(&tr->last[tr->n++], run);
		return false;
	}
	/* The machine's previous run stays alive, as retired, until the next
	 * feed: t->from points at it. */
	tr->retired = tr->last[m];
	history_run_copy(&tr->last[m], run);
	compare(&tr->retired, run, t);
	order_changes(t);
	return true;
}

void history_tracker_release(struct history_tracker *tr)
{
	for (size_t i = 0; i < tr->n; i++)
		history_run_release(&tr->last[i]);
	free(tr->last);
	history_run_release(&tr->retired);
	memset(tr, 0, sizeof *tr);
}

void history_changes_release(struct history_changes *ch)
{
	for (size_t i = 0; i < ch->n; i++)
		free(ch->v[i].v);
	free(ch->v);
	memset(ch, 0, sizeof *ch);
}
