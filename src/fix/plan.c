/* plan.c: the remediation plan from check results (see plan.h). */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "../core/check.h"
#include "../core/json.h"
#include "../core/text.h"
#include "../kb/kb.h"
#include "../kb/finding.h"
#include "edit.h"
#include "rcscan.h"

/* "why" is one line: the cause's first sentences, while they are short
 * (a first sentence that only defines a term needs the next one). */
#define WHY_ENOUGH 120

static char *first_sentence(const char *s)
{
	size_t len = strlen(s);
	int sentences = 0;
	bool quoted = false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '"')
			quoted = !quoted;
		if (s[i] != '.' && s[i] != '?' && s[i] != '!')
			continue;
		/* A full stop inside a quotation ends nothing, unless the
		 * quotation ends with it: 'NVIDIA: "Do not ... in WSL." Then'. */
		size_t end = i + 1;
		if (quoted) {
			if (s[end] != '"')
				continue;
			end++;
		}
		/* "e.g. ", "i.e. " -- only a full stop before a capital ends a sentence */
		if (s[end] != ' ' || !(s[end + 1] >= 'A' && s[end + 1] <= 'Z'))
			continue;
		if (i >= WHY_ENOUGH || ++sentences == 3)
			return xstrndup(s, end);
	}
	return xstrdup(s);
}

/* The pass of fix_plan_build a problem of this status belongs to: 0
 * failures, 1 warnings; -1 none of these. */
static int rank_of_status(enum status st)
{
	return status_is_failure(st) ? 0 : st == ST_WARN ? 1 : -1;
}

/* The order of the plan: failures, then warnings, then a check that could
 * not find out, when its entry says how to (its fix lines are the
 * commands that tell: Docker Desktop's GPU support by starting a
 * container); -1: no step. */
static int rank(const struct result *r)
{
	int by_status = rank_of_status(r->status);
	if (by_status >= 0)
		return by_status;
	const struct kb_entry *e = r->status == ST_UNKNOWN && r->kb ? kb_find(r->kb) : NULL;
	return e && e->fix.n ? 2 : -1;
}

static struct fix_edit *add_edit(struct fix_step *s)
{
	s->edit = xrealloc(s->edit, (s->nedit + 1) * sizeof *s->edit);
	struct fix_edit *e = &s->edit[s->nedit++];
	memset(e, 0, sizeof *e);
	return e;
}

/* An edit of the same line in an earlier step. */
static int earlier_edit(const struct fix_plan *plan, const char *file, int line)
{
	for (size_t i = 0; i < plan->n; i++)
		for (size_t j = 0; j < plan->steps[i].nedit; j++) {
			const struct fix_edit *e = &plan->steps[i].edit[j];
			if (e->line == line && !strcmp(e->file, file) && !e->same_as)
				return plan->steps[i].n;
		}
	return 0;
}

/* Whether the user's own file may be edited; the reason if not. */
static void judge(struct fix_edit *e, const struct rc_hit *h)
{
	struct strbuf host = STRBUF_INIT, why = STRBUF_INIT;
	if (!h->user_file) {
		struct strbuf q = STRBUF_INIT;
		text_shell_quote(&q, h->file);
		e->refused = xasprintf("a system file: edit it yourself with root (sudoedit %s)",
				       q.buf);
		sb_release(&q);
	} else if (fix_edit_check(h->file, &host, &why) < 0) {
		e->refused = xstrdup(why.buf);
	} else {
		e->automatic = true;
	}
	sb_release(&host);
	sb_release(&why);
}

/* The directories a probe's ldpath_fix drops from the current value:
 * those not in ldpath_kept (the value it leaves; absent: it unsets). */
static size_t dropped_dirs(const char *now, const char *kept, char ***out)
{
	const char *keep = kept ? kept : "";
	size_t n = 0;
	char **v = NULL;
	char *copy = xstrdup(now);
	for (char *tok = copy, *next; tok; tok = next) {
		next = strchr(tok, ':');
		if (next)
			*next++ = '\0';
		if (!*tok)
			continue;
		bool stays = false;
		size_t tl = strlen(tok);
		for (const char *k = keep; *k;) {
			size_t kl = strcspn(k, ":");
			if (kl == tl && !strncmp(k, tok, tl))
				stays = true;
			k += kl + (k[kl] == ':');
		}
		if (!stays) {
			v = xrealloc(v, (n + 1) * sizeof *v);
			v[n++] = xstrdup(tok);
		}
	}
	free(copy);
	*out = v;
	return n;
}

/* Startup files rc_scan could not read: an assignment there is not seen. */
static void unread_files(struct fix_step *s, const struct rc_hits *hits)
{
	if (!hits->nunread)
		return;
	struct strbuf sb = STRBUF_INIT;
	if (s->note)
		sb_addf(&sb, "%s; ", s->note);
	sb_add(&sb, "not read, so not searched: ");
	for (size_t i = 0; i < hits->nunread; i++)
		sb_addf(&sb, "%s%s", i ? "; " : "", hits->unread[i]);
	free(s->note);
	s->note = sb_detach(&sb);
}

static void no_startup_line(struct fix_step *s, const char *var)
{
	if (s->note)
		return;
	s->note = xasprintf("no startup file wslgpu reads (~/.bashrc, ~/.profile, ~/.zshrc, "
			    "/etc/environment, /etc/profile.d/*.sh and the like) sets %s: it "
			    "comes from this shell, the script or service that started it, or a "
			    "file sourced from elsewhere", var);
}

static void ldpath_edits(struct fix_plan *plan, struct fix_step *s, const char *home)
{
	const char *now = res_get(s->r, "LD_LIBRARY_PATH");
	const char *fix = res_get(s->r, "ldpath_fix");
	const char *kept = res_get(s->r, "ldpath_kept");
	if (!now || !fix)
		return;
	char **dirs;
	size_t nd = dropped_dirs(now, kept, &dirs);
	struct rc_hits hits = { 0 };
	rc_scan("LD_LIBRARY_PATH", home, &hits);
	for (size_t i = 0; i < hits.n; i++) {
		const struct rc_hit *h = &hits.v[i];
		bool names = false;
		char *after = xstrdup(h->text);
		for (size_t d = 0; d < nd; d++)
			if (rc_value_has_dir(h->value, dirs[d])) {
				names = true;
				char *next = after ? rc_line_without_dir(after, "LD_LIBRARY_PATH", dirs[d])
						   : NULL;
				free(after);
				after = next;
			}
		struct fix_edit *e = add_edit(s);
		e->file = xstrdup(h->file);
		e->line = h->line;
		e->before = xstrdup(h->text);
		e->after = names ? after : NULL;
		if (!names)
			free(after);
		e->var = "LD_LIBRARY_PATH";
		e->same_as = earlier_edit(plan, h->file, h->line);
		if (kept)
			e->env_after = xstrdup(kept);
		if (names)
			judge(e, h);
		else
			e->refused = xstrdup("it sets LD_LIBRARY_PATH without naming the culprit "
					     "directory literally: look at it yourself");
	}
	if (hits.n == 0)
		no_startup_line(s, "LD_LIBRARY_PATH");
	unread_files(s, &hits);
	rc_hits_release(&hits);
	for (size_t d = 0; d < nd; d++)
		free(dirs[d]);
	free(dirs);
}

static bool literal_value_is(const char *value, const char *want)
{
	if (strpbrk(value, "$`\\"))
		return false;
	struct strbuf v = STRBUF_INIT;
	for (const char *p = value; *p; p++)
		if (*p != '"' && *p != '\'')
			sb_addc(&v, *p);
	bool same = strcmp(sb_str(&v), want) == 0;
	sb_release(&v);
	return same;
}

static void cvd_edits(struct fix_plan *plan, struct fix_step *s, const char *seen,
		      const char *home)
{
	struct rc_hits hits = { 0 };
	rc_scan("CUDA_VISIBLE_DEVICES", home, &hits);
	for (size_t i = 0; i < hits.n; i++) {
		const struct rc_hit *h = &hits.v[i];
		struct fix_edit *e = add_edit(s);
		e->file = xstrdup(h->file);
		e->line = h->line;
		e->before = xstrdup(h->text);
		e->var = "CUDA_VISIBLE_DEVICES";
		e->same_as = earlier_edit(plan, h->file, h->line);
		if (seen && literal_value_is(h->value, seen))
			judge(e, h);
		else
			e->refused = xasprintf("it does not set CUDA_VISIBLE_DEVICES to the value "
					       "seen (\"%s\") literally: look at it yourself",
					       seen ? seen : "?");
	}
	if (hits.n == 0)
		no_startup_line(s, "CUDA_VISIBLE_DEVICES");
	unread_files(s, &hits);
	rc_hits_release(&hits);
}

/* Earlier step with the same command text, or 0. */
static int earlier_command(const struct fix_plan *plan, const char *text)
{
	for (size_t i = 0; i < plan->n; i++)
		for (size_t j = 0; j < plan->steps[i].ncmd; j++)
			if (!strcmp(plan->steps[i].cmd[j].text, text) && !plan->steps[i].cmd[j].same_as)
				return plan->steps[i].n;
	return 0;
}

/* A step for the result's own finding (e NULL: its KB entry), or for one of
 * its other findings (e and found: the "also" that has an entry). */
static void build_step(struct fix_plan *plan, struct fix_step *s, const char *cvd,
		       const char *home, const struct kb_entry *other, const char *found)
{
	const struct result *r = s->r;
	const struct kb_entry *e = other ? other : r->kb ? kb_find(r->kb) : NULL;
	s->check = r->def ? r->def->id : "?";
	s->kb = e ? e->id : NULL;
	s->title = xstrdup(e && e->title ? e->title : r->def ? r->def->title : s->check);
	s->found = xstrdup(found ? found : r->detail ? r->detail : status_name(r->status));
	struct finding_view fv;
	finding_expand(&fv, e, &r->ev, s->check);
	finding_for_platform(&fv, r->platform);
	if (fv.cause)
		s->why = first_sentence(fv.cause);
	s->risk_reason = "nothing to run";
	bool unset_cvd = false;
	for (size_t i = 0; i < fv.nfix; i++) {
		s->cmd = xrealloc(s->cmd, (s->ncmd + 1) * sizeof *s->cmd);
		struct fix_command *c = &s->cmd[s->ncmd++];
		fix_classify(fv.fix[i], c);
		c->template = !c->instruction && kb_fix_is_template(c->text);
		c->same_as = earlier_command(plan, c->text);
		if (!strncmp(c->text, "unset CUDA_VISIBLE_DEVICES", 26))
			unset_cvd = true;
	}
	finding_view_release(&fv);
	/* the edits belong to the finding that blames the variable */
	if (!other && res_get(r, "ldpath_fix"))
		ldpath_edits(plan, s, home);
	if (unset_cvd)
		cvd_edits(plan, s, cvd, home);
	for (size_t i = 0; i < s->ncmd; i++) {
		const struct fix_command *c = &s->cmd[i];
		if (c->needs_root)
			s->needs_root = true;
		if (c->where != FIX_LINUX)
			s->windows = true;
		if (i == 0 || c->risk > s->risk) {
			s->risk = c->risk;
			s->risk_reason = c->risk_reason;
		}
	}
	for (size_t i = 0; i < s->nedit; i++)
		if (s->edit[i].automatic && s->risk < RISK_LOW) {
			s->risk = RISK_LOW;
			s->risk_reason = "comments out a line of your own file; a backup is kept";
		}
}

/* The next step, for r; counted once built (plan->n++), so that its
 * commands and edits are not compared with its own. */
static struct fix_step *new_step(struct fix_plan *plan, const struct result *r)
{
	plan->steps = xrealloc(plan->steps, (plan->n + 1) * sizeof *plan->steps);
	struct fix_step *s = &plan->steps[plan->n];
	memset(s, 0, sizeof *s);
	s->n = (int)plan->n + 1;
	s->r = r;
	return s;
}

/* A check's other problems ("also" with a KB entry and a fix: CUDA_HOME
 * wrong beside LD_LIBRARY_PATH) each get a step of their own, right after
 * its first; want: the pass of fix_plan_build (0 failures, 1 warnings). */
static void other_steps(struct fix_plan *plan, const struct result *r, int want,
			const char *cvd, const char *home)
{
	for (size_t k = 0;; k++) {
		const char *found = res_get_nth(r, "also", k);
		const char *tag = res_get_nth(r, "also_kb", k);
		if (!found || !tag)
			break;
		const char *id = strchr(tag, ' ');
		char *st_name = id ? xstrndup(tag, (size_t)(id - tag)) : NULL;
		int st = st_name ? status_parse(st_name) : -1;
		free(st_name);
		const struct kb_entry *e = id && strcmp(id + 1, "-") ? kb_find(id + 1) : NULL;
		if (!e || !e->fix.n || st < 0 || rank_of_status((enum status)st) != want)
			continue;
		struct fix_step *s = new_step(plan, r);
		build_step(plan, s, cvd, home, e, found);
		plan->n++;
	}
}

void fix_plan_build(struct fix_plan *plan, const struct result *results, const bool *shown,
		    size_t n, const char *home)
{
	memset(plan, 0, sizeof *plan);
	/* The value CUDA_VISIBLE_DEVICES had, as libs.env saw it. */
	const char *cvd = NULL;
	for (size_t i = 0; i < n; i++)
		if (results[i].def && !strcmp(results[i].def->id, "libs.env"))
			cvd = res_get(&results[i], "cvd");
	for (int want = 0; want <= 2; want++)
		for (size_t i = 0; i < n; i++) {
			const struct result *r = &results[i];
			/* what follows from an earlier finding is fixed by its fix
			 * (consequence.h): no step of its own */
			if ((shown && !shown[i]) || !r->ran || r->consequence_of)
				continue;
			if (rank(r) == want) {
				struct fix_step *s = new_step(plan, r);
				build_step(plan, s, cvd, home, NULL, NULL);
				struct strbuf also = STRBUF_INIT;
				for (size_t j = 0; j < n; j++)
					if ((!shown || shown[j]) && results[j].ran &&
					    results[j].consequence_of && r->def &&
					    !strcmp(results[j].consequence_of, r->def->id))
						sb_addf(&also, "%s%s", also.len ? ", " : "",
							results[j].def->id);
				s->also = also.len ? sb_detach(&also) : NULL;
				sb_release(&also);
				plan->n++;
			}
			/* after it (new_step may move plan->steps: s is not used after) */
			other_steps(plan, r, want, cvd, home);
		}
}

size_t fix_plan_problems(const struct fix_plan *plan)
{
	size_t k = 0;
	for (size_t i = 0; i < plan->n; i++)
		k += plan->steps[i].r->status != ST_UNKNOWN;
	return k;
}

size_t fix_plan_automatic(const struct fix_plan *plan)
{
	size_t k = 0;
	for (size_t i = 0; i < plan->n; i++)
		for (size_t j = 0; j < plan->steps[i].nedit; j++)
			k += plan->steps[i].edit[j].automatic && !plan->steps[i].edit[j].same_as;
	return k;
}

void fix_plan_release(struct fix_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++) {
		struct fix_step *s = &plan->steps[i];
		free(s->title);
		free(s->found);
		free(s->why);
		free(s->note);
		free(s->also);
		for (size_t j = 0; j < s->ncmd; j++) {
			free(s->cmd[j].text);
			free(s->cmd[j].note);
		}
		free(s->cmd);
		for (size_t j = 0; j < s->nedit; j++) {
			free(s->edit[j].file);
			free(s->edit[j].before);
			free(s->edit[j].after);
			free(s->edit[j].refused);
			free(s->edit[j].env_after);
		}
		free(s->edit);
	}
	free(plan->steps);
	memset(plan, 0, sizeof *plan);
}

/* ---- the script ---- */

/* One line of text, after "# " or as a command: a line break in a value
 * (a --root, a file name) must not end the comment and start a live line. */
static void comment_text(struct strbuf *out, const char *s)
{
	text_sanitize_line(out, s ? s : "");
}

static void script_command(struct strbuf *out, const struct fix_command *c)
{
	if (c->same_as) {
		sb_add(out, "#   (as in step ");
		sb_addf(out, "%d) ", c->same_as);
		comment_text(out, c->text);
		sb_addc(out, '\n');
		return;
	}
	if (c->where == FIX_POWERSHELL)
		sb_add(out, "# PS> ");
	else if (c->where == FIX_WINDOWS)
		sb_add(out, "# Windows: ");
	else if (c->instruction)
		sb_add(out, "# do: ");
	else if (c->template) /* not a command yet: a line to edit first */
		sb_add(out, "# fill in each <...>, then type: ");
	size_t start = out->len;
	comment_text(out, c->text);
	if (c->note) {
		bool live = c->where == FIX_LINUX && !c->instruction && !c->template;
		if (live) {
			/* the command whole; its remark a comment, wrapped */
			struct strbuf note = STRBUF_INIT;
			comment_text(&note, c->note);
			text_wrap_remark(out, text_width(out->buf + start), sb_str(&note), 0);
			sb_release(&note);
		} else {
			sb_add(out, "   (");
			comment_text(out, c->note);
			sb_addc(out, ')');
		}
	}
	sb_addc(out, '\n');
}

void fix_edit_note(struct strbuf *out, const char *date)
{
	sb_addf(out, "disabled by wslgpu fix on %.10s", date);
}

void fix_edit_lines(struct strbuf *out, const struct fix_edit *e, const char *date,
		    const char *first, const char *next)
{
	sb_addf(out, "%s# ", first);
	fix_edit_note(out, date);
	sb_add(out, ": ");
	comment_text(out, e->before);
	sb_addc(out, '\n');
	if (e->after) {
		sb_add(out, next);
		comment_text(out, e->after);
		sb_addc(out, '\n');
	}
}

static void script_edit(struct strbuf *out, const struct fix_edit *e, const char *date)
{
	if (e->same_as) {
		sb_addf(out, "#   (as in step %d) ", e->same_as);
		comment_text(out, e->file);
		sb_addf(out, ":%d\n", e->line);
		return;
	}
	sb_addf(out, "# %s ", e->automatic ? "--apply edits" : "edit by hand:");
	comment_text(out, e->file);
	sb_addf(out, " line %d:\n", e->line);
	sb_add(out, "#     was: ");
	comment_text(out, e->before);
	sb_addc(out, '\n');
	if (e->automatic || e->after)
		fix_edit_lines(out, e, date, "#     now: ", "#          ");
	if (!e->automatic && e->refused) {
		sb_add(out, "#     not automatic: ");
		comment_text(out, e->refused);
		sb_addc(out, '\n');
	}
}

/* The script's words for a person wrap to the terminal as comments under
 * their label ("# why:   ..." continues "#        ..."); commands, and
 * commands commented out (PS>, "as in step"), stay whole on their line. */
static void wrap_comments(struct strbuf *script)
{
	static const char *const labels[] = {
		"# found: ", "# why:   ", "# risk:  ", "# note:  ", "# more:  ", "# do: ",
		"# Windows: ", "#     not automatic: ",
	};
	/* Lines that show a command or a file's line as it is. */
	static const char *const verbatim[] = {
		"# PS> ", "#   (as in step ", "#     was: ", "#     now: ", "#          ",
	};
	struct strbuf out = STRBUF_INIT;
	for (const char *p = sb_str(script); *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, len);
		int indent = line[0] == '#' && line[1] == ' ' ? 2 : -1;
		for (size_t i = 0; i < sizeof verbatim / sizeof verbatim[0] && indent >= 0; i++)
			if (!strncmp(line, verbatim[i], strlen(verbatim[i])))
				indent = -1;
		for (size_t i = 0; i < sizeof labels / sizeof labels[0] && indent >= 0; i++)
			if (!strncmp(line, labels[i], strlen(labels[i])))
				indent = (int)strlen(labels[i]);
		if (indent < 0 || text_width(line) <= text_columns()) {
			sb_add(&out, line);
		} else {
			/* Continuation lines come indented; the first space of
			 * each becomes the comment's #. */
			size_t at = out.len;
			struct text_wrap tw = { text_columns(), 0, indent, 0, NULL };
			text_wrap(&out, line, &tw);
			for (size_t i = at; i < out.len; i++)
				if (out.buf[i] == '\n')
					out.buf[i + 1] = '#';
		}
		free(line);
		if (nl)
			sb_addc(&out, '\n');
		p += len + (nl != NULL);
	}
	sb_reset(script);
	sb_add(script, sb_str(&out));
	sb_release(&out);
}

static void script_text(const struct fix_plan *plan, const struct fix_meta *m, struct strbuf *out)
{
	sb_add(out, "#!/bin/sh\n");
	sb_add(out, "# wslgpu fix: the remediation plan for the machine at ");
	comment_text(out, m->root);
	sb_addf(out, "\n# made by wslgpu %s (commit %s) on %s. It changes nothing.\n", m->version,
		m->commit, m->date);
	if (plan->n == 0) {
		sb_add(out, "# nothing to fix: every check passed\n");
		return;
	}
	size_t root = 0, win = 0, autos = fix_plan_automatic(plan);
	for (size_t i = 0; i < plan->n; i++) {
		root += plan->steps[i].needs_root;
		win += plan->steps[i].windows;
	}
	/* Windows is named only where a step has a command for it: off WSL
	 * no step does (finding_for_platform) */
	sb_addf(out, "# %zu step%s, the first failure first; %zu need%s root",
		plan->n, plan->n == 1 ? "" : "s", root, root == 1 ? "s" : "");
	if (win)
		sb_addf(out, ", %zu %s Windows-side commands", win, win == 1 ? "has" : "have");
	sb_addf(out, "; --apply can make %zu edit%s.\n", autos, autos == 1 ? "" : "s");
	sb_add(out, "#\n"
		    "# Read each step, then type the commands you agree with in your own shell:\n"
		    "# \"for this shell\" commands work only there.");
	if (win)
		sb_add(out, " Windows-side commands are\n"
			    "# commented out (PS>: run them in PowerShell on Windows). Run as a script,\n"
			    "# this file stops here:\n");
	else
		sb_add(out, "\n# Run as a script, this file stops here:\n");
	sb_add(out, "echo 'wslgpu fix: this is a plan to read; run its steps yourself' >&2\n"
		    "exit 1\n");
	for (size_t i = 0; i < plan->n; i++) {
		const struct fix_step *s = &plan->steps[i];
		sb_addf(out, "\n# [%d] %s (%s): ", s->n, s->check, status_name(s->r->status));
		comment_text(out, s->title);
		sb_add(out, "\n# found: ");
		comment_text(out, s->found);
		sb_addc(out, '\n');
		if (s->why) {
			sb_add(out, "# why:   ");
			comment_text(out, s->why);
			sb_addc(out, '\n');
		}
		if (s->also) {
			sb_add(out, "# also:  ");
			comment_text(out, s->also);
			sb_add(out, " (the same cause: fixed with it)\n");
		}
		sb_addf(out, "# risk:  %s: ", fix_risk_name(s->risk));
		comment_text(out, s->risk_reason);
		sb_addc(out, '\n');
		if (s->needs_root) {
			bool sudo = false, admin = false;
			for (size_t j = 0; j < s->ncmd; j++)
				if (s->cmd[j].needs_root && !s->cmd[j].same_as) {
					sudo |= s->cmd[j].where == FIX_LINUX;
					admin |= s->cmd[j].where != FIX_LINUX;
				}
			if (!sudo && !admin)
				sb_add(out, "# needs root: as in the earlier step\n");
			else
				sb_addf(out, "# needs root:%s%s%s\n",
					sudo ? " the sudo lines (wslgpu never runs sudo itself)" : "",
					sudo && admin ? ";" : "",
					admin ? " an administrator PowerShell for the lines that say so"
					      : "");
		}
		if (!s->kb)
			sb_add(out, "# no knowledge-base entry: see wslgpu check -v\n");
		else
			sb_addf(out, "# more:  wslgpu kb %s\n", s->kb);
		if (s->note) {
			sb_add(out, "# note:  ");
			comment_text(out, s->note);
			sb_addc(out, '\n');
		}
		for (size_t j = 0; j < s->nedit; j++)
			script_edit(out, &s->edit[j], m->date);
		for (size_t j = 0; j < s->ncmd; j++)
			script_command(out, &s->cmd[j]);
	}
	sb_add(out, "\n# afterwards, in a new shell: wslgpu check\n");
}

void fix_plan_script(const struct fix_plan *plan, const struct fix_meta *m, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	script_text(plan, m, &sb);
	wrap_comments(&sb);
	sb_add(out, sb_str(&sb));
	sb_release(&sb);
}

/* ---- JSON ---- */

static void kv_step(struct json_writer *jw, const char *key, int step)
{
	if (step)
		jw_kv_int(jw, key, step);
	else
		jw_kv_null(jw, key);
}

void fix_plan_json(const struct fix_plan *plan, const struct fix_meta *m, struct strbuf *out)
{
	struct json_writer jw;
	jw_init(&jw, out);
	jw_object_begin(&jw);
	jw_kv_str(&jw, "schema", "wslgpu/fix/1");
	jw_kv_object(&jw, "tool");
	jw_kv_str(&jw, "name", "wslgpu");
	jw_kv_str(&jw, "version", m->version);
	jw_kv_str(&jw, "commit", m->commit);
	jw_end(&jw);
	jw_kv_str(&jw, "root", m->root);
	jw_kv_str(&jw, "generated", m->date);
	jw_kv_uint(&jw, "automatic", fix_plan_automatic(plan));
	jw_kv_array_lines(&jw, "steps");
	for (size_t i = 0; i < plan->n; i++) {
		const struct fix_step *s = &plan->steps[i];
		jw_object_begin(&jw);
		jw_kv_int(&jw, "n", s->n);
		jw_kv_str(&jw, "check", s->check);
		jw_kv_str(&jw, "status", status_name(s->r->status));
		jw_kv_str(&jw, "kb", s->kb);
		jw_kv_str(&jw, "title", s->title);
		jw_kv_str(&jw, "found", s->found);
		jw_kv_str(&jw, "why", s->why);
		jw_kv_str(&jw, "note", s->note);
		if (s->also)
			jw_kv_str(&jw, "consequences", s->also);
		jw_kv_str(&jw, "risk", fix_risk_name(s->risk));
		jw_kv_str(&jw, "risk_reason", s->risk_reason);
		jw_kv_bool(&jw, "needs_root", s->needs_root);
		jw_kv_bool(&jw, "windows", s->windows);
		jw_kv_array(&jw, "commands");
		for (size_t j = 0; j < s->ncmd; j++) {
			const struct fix_command *c = &s->cmd[j];
			jw_object_begin(&jw);
			jw_kv_str(&jw, "command", c->text);
			jw_kv_str(&jw, "note", c->note);
			/* the script's line for it: runs as printed, or a comment */
			struct strbuf line = STRBUF_INIT;
			script_command(&line, c);
			sb_rtrim(&line);
			jw_kv_str(&jw, "line", line.buf);
			sb_release(&line);
			jw_kv_str(&jw, "where", fix_where_name(c->where));
			jw_kv_str(&jw, "kind", c->instruction ? "instruction"
					       : c->template ? "template" : "command");
			jw_kv_str(&jw, "risk", fix_risk_name(c->risk));
			jw_kv_str(&jw, "risk_reason", c->risk_reason);
			jw_kv_bool(&jw, "needs_root", c->needs_root);
			kv_step(&jw, "same_as_step", c->same_as);
			jw_end(&jw);
		}
		jw_end(&jw);
		jw_kv_array(&jw, "edits");
		for (size_t j = 0; j < s->nedit; j++) {
			const struct fix_edit *e = &s->edit[j];
			jw_object_begin(&jw);
			jw_kv_str(&jw, "file", e->file);
			jw_kv_int(&jw, "line", e->line);
			jw_kv_str(&jw, "variable", e->var);
			jw_kv_str(&jw, "before", e->before);
			jw_kv_str(&jw, "after", e->after);
			jw_kv_bool(&jw, "automatic", e->automatic);
			jw_kv_str(&jw, "refused", e->refused);
			kv_step(&jw, "same_as_step", e->same_as);
			jw_end(&jw);
		}
		jw_end(&jw);
		jw_end(&jw);
	}
	jw_end(&jw);
	jw_end(&jw);
	sb_addc(out, '\n');
}
