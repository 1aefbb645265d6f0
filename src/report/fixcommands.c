/*
 * fixcommands.c: `wslgpu fix --commands`, the plan's commands that run in
 * this shell, in the plan's order, as a script: each step's command lines
 * (their remark a comment), and nothing else -- no Windows-side command,
 * no step in words for a person, no template with slots to fill, no
 * command an earlier step already gave. For copying into a terminal or a
 * provisioning script once `wslgpu fix` has been read; every line passes
 * `bash -n`.
 */
#include "../core/json.h"
#include "../fix/plan.h"
#include "format.h"

static bool runnable(const struct fix_command *c)
{
	return c->where == FIX_LINUX && !c->instruction && !c->template && !c->same_as;
}

void fix_commands(struct strbuf *out, const struct format_input *in)
{
	const struct fix_plan *plan = in->plan;
	const struct fix_meta *m = in->fix_meta;
	struct strbuf t = STRBUF_INIT;
	sb_add(out, "#!/bin/sh\n# wslgpu fix --commands: the plan's commands for this shell, in order, for\n"
		    "# the machine at ");
	text_sanitize_line(out, m->root);
	sb_addf(out, "\n# made by wslgpu %s (commit %s) on %s.\n"
		     "# 'wslgpu fix' says what each does and why; Windows-side steps and steps\n"
		     "# for a person are not here.\n",
		m->version, m->commit, m->date);
	size_t shown = 0, left = 0;
	for (size_t i = 0; i < plan->n; i++) {
		const struct fix_step *s = &plan->steps[i];
		size_t k = 0;
		for (size_t j = 0; j < s->ncmd; j++)
			k += runnable(&s->cmd[j]);
		left += s->ncmd - k;
		if (!k)
			continue;
		sb_addf(out, "\n# [%d] %s\n", s->n, s->check);
		for (size_t j = 0; j < s->ncmd; j++) {
			const struct fix_command *c = &s->cmd[j];
			if (!runnable(c))
				continue;
			sb_reset(&t);
			text_sanitize_line(&t, c->text);
			sb_add(out, t.buf);
			if (c->note) {
				sb_reset(&t);
				text_sanitize_line(&t, c->note);
				sb_addf(out, "   # %s", t.buf);
			}
			sb_addc(out, '\n');
			shown++;
		}
	}
	if (!shown)
		sb_addf(out, "\n# nothing to run here%s\n",
			plan->n ? ": see 'wslgpu fix' for what to do" : ": nothing to fix");
	else if (left)
		sb_addf(out, "\n# %zu more line%s of the plan (Windows-side, for a person, or repeated):"
			     " see 'wslgpu fix'\n", left, left == 1 ? "" : "s");
	sb_release(&t);
}
