/*
 * fix.c: `wslgpu fix` -- the remediation plan for the current findings, as
 * a commented shell script (src/fix/plan.h builds it), and `--apply`, which
 * makes only the plan's automatic edits: commenting out (with a backup) the
 * startup-file line that sets a variable the findings blame. Everything
 * else -- packages, ldconfig, anything on Windows -- is printed, never run,
 * and wslgpu never calls sudo.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/error.h"
#include "../core/buildinfo.h"
#include "../core/json.h"
#include "../core/rootfs.h"
#include "../core/text.h"
#include "../fix/edit.h"
#include "../fix/plan.h"
#include "../fix/rcscan.h"
#include "../report/format.h"
#include "../report/report.h"
#include "../version.h"
#include "checkrun.h"
#include "cli.h"

/* "2026-12-02 16:04 UTC"; SOURCE_DATE_EPOCH, when set, for reproducible output. */
static void now_text(char *buf, size_t len, char *stamp, size_t slen)
{
	time_t t = time(NULL);
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	if (sde && *sde) {
		char *end;
		long long v = strtoll(sde, &end, 10);
		if (!*end && v >= 0)
			t = (time_t)v;
	}
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm);
	/* Backups carry the local time the user sees on their clock. */
	time_t real = time(NULL);
	localtime_r(&real, &tm);
	strftime(stamp, slen, "%Y%m%d-%H%M%S", &tm);
}

/* Asks on the terminal; false on anything but y/yes. */
static bool ask(FILE *tty, const char *question)
{
	fprintf(tty, "%s [y/N] ", question);
	fflush(tty);
	char line[64];
	if (!fgets(line, sizeof line, tty))
		return false;
	return !strcmp(line, "y\n") || !strcmp(line, "Y\n") || !strcmp(line, "yes\n");
}

/* A file name or a line of a startup file, as one line of the terminal. */
static const char *line_of(struct strbuf *sb, const char *s)
{
	sb_reset(sb);
	text_sanitize_line(sb, s ? s : "");
	return sb_str(sb);
}

/* The edit as it will be written: the plan's rendering (fix_edit_lines). */
static void show_edit(FILE *f, const struct fix_step *s, const struct fix_edit *e,
		      const char *date)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, sb = STRBUF_INIT;
	fprintf(f, "step %d (%s): %s line %d sets %s\n", s->n, s->check, line_of(&a, e->file),
		e->line, e->var);
	fprintf(f, "    was: %s\n", line_of(&b, e->before));
	fix_edit_lines(&sb, e, date, "    now: ", "         ");
	fputs(sb.buf, f);
	sb_release(&a);
	sb_release(&b);
	sb_release(&sb);
}

/* Whether a comma-separated list holds id. */
static bool list_has(const char *list, const char *id)
{
	size_t l = strlen(id);
	for (const char *p = list; p && *p;) {
		size_t n = strcspn(p, ",");
		if (n == l && !strncmp(p, id, l))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

struct applied {
	const struct fix_step *step;
	const struct fix_edit *edit;
	int wrote;  /* the line its corrected line is on now, or 0 */
};

/* Where a planned line is now: each corrected line written above it in
 * the same file moved it down by one. */
static int line_now(const struct applied *ok, size_t nok, const struct fix_edit *e)
{
	int line = e->line;
	for (size_t k = 0; k < nok; k++)
		line += ok[k].wrote && ok[k].edit->line < e->line && !strcmp(ok[k].edit->file, e->file);
	return line;
}

/* Whether file:line is a corrected line --apply just wrote. */
static bool wrote_line(const struct applied *ok, size_t nok, const char *file, int line)
{
	for (size_t k = 0; k < nok; k++)
		if (ok[k].wrote == line && !strcmp(ok[k].edit->file, file))
			return true;
	return false;
}

static int apply(struct checkrun *cr, const struct fix_plan *plan, bool yes, const char *home)
{
	size_t nauto = fix_plan_automatic(plan);
	if (nauto == 0) {
		printf("wslgpu fix --apply: nothing to apply automatically.\n");
		if (plan->n)
			printf("The plan's %zu step%s need%s you: see 'wslgpu fix'.\n", plan->n,
			       plan->n == 1 ? "" : "s", plan->n == 1 ? "s" : "");
		for (size_t i = 0; i < plan->n; i++)
			for (size_t j = 0; j < plan->steps[i].nedit; j++) {
				const struct fix_edit *e = &plan->steps[i].edit[j];
				if (e->same_as)
					continue;
				struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
				printf("  %s line %d sets %s: %s\n", line_of(&a, e->file), e->line, e->var,
				       line_of(&b, e->refused ? e->refused : "not automatic"));
				sb_release(&a);
				sb_release(&b);
			}
		return fix_plan_problems(plan) ? EXIT_FAILED : EXIT_OK;
	}
	FILE *tty = NULL;
	if (!yes) {
		int fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
		if (fd >= 0)
			tty = fdopen(fd, "r+");
		if (!tty) {
			if (fd >= 0)
				close(fd);
			errorf("--apply asks before each edit, and there is no terminal to ask "
			       "on; nothing was changed. Run 'wslgpu fix' to see the plan, and "
			       "add --yes to apply it without asking.");
			return EXIT_USAGE;
		}
	}
	char date[64], stamp[32];
	now_text(date, sizeof date, stamp, sizeof stamp);
	printf("wslgpu fix --apply: %zu edit%s of your startup files (each backed up first).\n",
	       nauto, nauto == 1 ? "" : "s");
	struct applied *ok = xcalloc(nauto, sizeof *ok);
	size_t nok = 0;
	int rc = EXIT_OK;
	/* Each accepted edit is made on its own, so that a refusal or a
	 * failure of one leaves the others as they were. */
	for (size_t i = 0; i < plan->n; i++)
		for (size_t j = 0; j < plan->steps[i].nedit; j++) {
			const struct fix_step *s = &plan->steps[i];
			const struct fix_edit *e = &s->edit[j];
			if (!e->automatic || e->same_as)
				continue;
			show_edit(stdout, s, e, date);
			fflush(stdout);
			if (tty) {
				if (!isatty(STDOUT_FILENO)) /* else it is on the terminal already */
					show_edit(tty, s, e, date);
				if (!ask(tty, "Apply?")) {
					printf("    skipped\n");
					continue;
				}
			}
			struct line_edit le = { line_now(ok, nok, e), e->before, e->after };
			struct strbuf backup = STRBUF_INIT, err = STRBUF_INIT, shown = STRBUF_INIT;
			struct strbuf note = STRBUF_INIT;
			fix_edit_note(&note, date);
			int erc = fix_edit_file(e->file, &le, 1, stamp, note.buf, &backup, &err);
			sb_release(&note);
			if (erc < 0) {
				printf("    not changed: %s\n", err.buf);
				rc = EXIT_FAILED;
			} else {
				rootfs_guest_path(backup.buf, &shown);
				struct strbuf a = STRBUF_INIT;
				printf("    edited; the original is in %s\n", line_of(&a, shown.buf));
				sb_release(&a);
				/* lines below this one moved down by its corrected line */
				for (size_t k = 0; k < nok && e->after; k++)
					if (ok[k].wrote > le.line && !strcmp(ok[k].edit->file, e->file))
						ok[k].wrote++;
				ok[nok].step = s;
				ok[nok].wrote = e->after ? le.line + 1 : 0;
				ok[nok++].edit = e;
			}
			sb_release(&shown);
			sb_release(&backup);
			sb_release(&err);
		}
	if (tty)
		fclose(tty);
	if (nok == 0) {
		free(ok);
		return rc == EXIT_OK ? EXIT_FAILED : rc;
	}
	/* The checks read this process's environment, which no edit of a
	 * startup file changes: re-check with the variables as a new shell
	 * will have them, and say so. */
	struct strbuf only = STRBUF_INIT;
	printf("\nThis shell (and wslgpu) still has the old values; open a new shell, or type:\n");
	for (size_t i = 0; i < nok; i++) {
		const struct fix_edit *e = ok[i].edit;
		bool seen = false;
		for (size_t k = 0; k < i; k++)
			seen |= !strcmp(ok[k].edit->var, e->var);
		if (!seen) {
			if (e->env_after) {
				/* the machine's value, quoted: it is a line to paste */
				struct strbuf v = STRBUF_INIT, shown = STRBUF_INIT;
				text_shell_quote(&v, e->env_after);
				printf("  export %s=%s\n", e->var, line_of(&shown, v.buf));
				sb_release(&v);
				sb_release(&shown);
				setenv(e->var, e->env_after, 1);
			} else {
				printf("  unset %s\n", e->var);
				unsetenv(e->var);
			}
			struct rc_hits left = { 0 };
			rc_scan(e->var, home, &left);
			for (size_t k = 0; k < left.n; k++) {
				/* not the corrected line this run wrote */
				if (wrote_line(ok, nok, left.v[k].file, left.v[k].line))
					continue;
				struct strbuf a = STRBUF_INIT;
				printf("  (a new shell may still get %s from %s line %d)\n", e->var,
				       line_of(&a, left.v[k].file), left.v[k].line);
				sb_release(&a);
			}
			rc_hits_release(&left);
		}
	}
	/* Every step that blamed an edited line: its check is affected. */
	for (size_t i = 0; i < plan->n; i++)
		for (size_t j = 0; j < plan->steps[i].nedit; j++) {
			const struct fix_edit *e = &plan->steps[i].edit[j];
			bool edited = false;
			for (size_t k = 0; k < nok; k++)
				edited |= e->line == ok[k].edit->line && !strcmp(e->file, ok[k].edit->file);
			if (!edited)
				continue;
			/* the step's check and those that follow from it (also) */
			struct strbuf ids = STRBUF_INIT;
			sb_add(&ids, plan->steps[i].check);
			if (plan->steps[i].also)
				sb_addf(&ids, ", %s", plan->steps[i].also);
			for (char *id = strtok(ids.buf, ", "); id; id = strtok(NULL, ", "))
				if (!list_has(only.buf, id)) {
					if (only.len)
						sb_addc(&only, ',');
					sb_add(&only, id);
				}
			sb_release(&ids);
		}
	free(ok);
	printf("\nThe affected checks again, as a new shell will see them:\n");
	fflush(stdout);
	struct checkrun again;
	checkrun_init(&again, "fix");
	again.opts.timeout_ms = cr->opts.timeout_ms;
	again.opts.no_fork = cr->opts.no_fork;
	if (checkrun_select(&again, only.buf) < 0) {
		sb_release(&only);
		checkrun_release(&again);
		return EXIT_INTERNAL;
	}
	sb_release(&only);
	checkrun_execute(&again);
	struct report rep;
	checkrun_report(&again, &rep, false, 1);
	struct strbuf text = STRBUF_INIT;
	report_text(&text, &rep);
	fputs(sb_str(&text), stdout);
	sb_release(&text);
	fflush(stdout);
	checkrun_interrupt_note(again.interrupted, again.results, again.n);
	int status = checkrun_exit_status(&again, false);
	bool again_interrupted = again.interrupted != 0;
	checkrun_release(&again);
	return again_interrupted ? status : rc != EXIT_OK ? rc : status;
}

struct fix_args {
	bool apply, yes;
	struct format_choice format;
	struct checkrun cr;
};

/* --yes goes with --apply, and --apply prints no plan to format. */
static int fix_check(struct parse_state *ps, void *base)
{
	const struct fix_args *a = base;
	if (a->yes && !a->apply)
		return parse_error(ps, "--yes goes with --apply");
	if (a->format.out && a->apply)
		return parse_error(ps, "--%s prints the plan; it does not go with --apply",
				   a->format.out->name);
	return 0;
}

#define ARGS struct fix_args
static const struct cli_option fix_options[] = {
	OPT_FORMATS(ARGS, format),
	OPT_BOOL(0, "apply", ARGS, apply,
		 "make the plan's automatic edits: comment out (with a backup) the line of your "
		 "own startup file that sets a variable the findings blame; asks first, on the "
		 "terminal"),
	OPT_BOOL(0, "yes", ARGS, yes, "with --apply: do not ask (needed without a terminal)"),
	OPT_RUN_OPTIONS(ARGS, cr),
	OPT_END(),
};
#undef ARGS

static const char *const fix_usage[] = { "wslgpu fix [OPTIONS]", NULL };

const struct cli_command fix_command = {
	.name = "fix",
	.run = cmd_fix,
	.summary = "the remediation plan for the findings (--apply makes its safe edits)",
	.root = ROOT_USED,
	.usage = fix_usage,
	.about = "Runs the checks and prints the remediation plan for what they found, as a\n"
		 "commented shell script: per step what, why, the risk, whether it needs root,\n"
		 "and the commands (Windows-side ones marked PS>, to run in PowerShell). It\n"
		 "changes nothing.\n",
	.options = fix_options,
	.epilog = "Exit status: 0 nothing to fix, 1 the plan has steps (with --apply: findings\n"
		  "remain, or an edit failed), 2 usage error or --apply without a terminal and\n"
		  "without --yes, 3 the tool itself could not run or could not write its output,\n"
		  "130/143 the checks were interrupted by SIGINT/SIGTERM (the plan covers what\n"
		  "finished; nothing is applied).\n",
	.check = fix_check,
};

int cmd_fix(int argc, char **argv)
{
	struct fix_args a = { 0 };
	checkrun_init(&a.cr, "fix");
	struct checkrun *cr = &a.cr;
	bool do_apply;
	int rc = parse_options(&fix_command, argc, argv, &a);
	if (rc < 0) {
		rc = parse_exit(rc);
		goto out;
	}
	if (rc > 0) {
		cli_usage_error("fix", "unexpected argument '%s'", argv[0]);
		rc = EXIT_USAGE;
		goto out;
	}
	do_apply = a.apply;
	checkrun_execute(cr);
	const char *home = getenv("HOME");
	struct fix_plan plan;
	fix_plan_build(&plan, cr->results, cr->shown, cr->n, home);
	if (do_apply && cr->interrupted) {
		/* Never edit files on half the findings: show the plan instead. */
		errorf("nothing was applied");
		do_apply = false;
	}
	if (do_apply) {
		rc = apply(cr, &plan, a.yes, home);
	} else {
		char date[64], stamp[32];
		now_text(date, sizeof date, stamp, sizeof stamp);
		struct fix_meta meta = { WSLGPU_VERSION, buildinfo_commit(), date, rootfs_root() };
		struct strbuf sb = STRBUF_INIT;
		struct format_input in = { .plan = &plan, .fix_meta = &meta };
		format_write("fix", a.format.out ? a.format.out->name : NULL, &sb, &in);
		fputs(sb.buf, stdout);
		fflush(stdout);
		sb_release(&sb);
		rc = fix_plan_problems(&plan) ? EXIT_FAILED : EXIT_OK;
	}
	if (cr->interrupted)
		rc = checkrun_interrupt_note(cr->interrupted, cr->results, cr->n);
	fix_plan_release(&plan);
out:
	checkrun_release(cr);
	return rc;
}
