/*
 * kb: the knowledge base of causes and fixes, as data.
 *
 * Entries live in src/kb/<layer>.kb (format described in src/kb/README.md).
 * The build parses and checks them with this file's parser (tools/kbgen.c,
 * run by make) and compiles them into the binary as C tables, so no run
 * parses them and a broken entry fails `make` with "file:line: message".
 * Code refers to entries by id only: a check result names its entry,
 * explain matches its patterns, fix reads its commands. The build also
 * writes one constant per id into the generated header kb_ids.h
 * (KB_LIBS_LIBCUDA_DISTRO_COPY for [libs.libcuda.distro_copy]), so that
 * code naming an entry that does not exist does not compile.
 */
#ifndef WSLGPU_KB_H
#define WSLGPU_KB_H

#include <stddef.h>

#include "../core/result.h"
#include "../core/strbuf.h"

struct kb_list {
	const char **v;
	size_t n;
};

struct kb_entry {
	const char *id;
	const char *layer;
	const char *kind;    /* finding, noise, myth, signature */
	const char *title;
	const char *cause;
	const char *confirm; /* the wslgpu command that proves it here */
	struct kb_list fix;
	struct kb_list source;
	struct kb_list match; /* literal, case-insensitive */
	struct kb_list regex; /* POSIX ERE, case-insensitive */
	struct kb_list see;   /* related entries, most likely cause first */
	struct kb_list support; /* words in a pasted log that make this cause likelier */
	struct kb_list exclude; /* ...and that make it unlikely (explain ranks by them) */
	struct kb_list context; /* a signature counts only in a paste that shows one of
				 * these words (a docker error is the GPU chain's only
				 * next to the GPU runtime) */
	const char *family;   /* a signature that reads a family of messages in any
			       * wording (libload, oom, arch...): it gives way on a
			       * line another signature reads */
	const char *established; /* (a cause) what in the messages that lead to it
				  * establishes it, so that its documented remedy
				  * leads even when it changes the system; NULL: a
				  * reading among others, whose first step only looks
				  * (explain's order_fixes) */
	const char *rare;     /* (a cause bound to a platform) "yes": a rarer condition
			       * there, which leads on that platform only where the
			       * paste shows one of its support: words; NULL: the
			       * platform's usual reading (it leads there on the
			       * platform alone) */
	const char *platform; /* where the cause can apply: platform kinds
			       * (wsl1 wsl2 container-in-wsl2 native container
			       * windows) or wsl / not-wsl, blank-separated;
			       * NULL: anywhere */
	const char *file;
	int line;
};

struct kb {
	struct kb_entry *e;
	size_t n;
	size_t *byid; /* entry indices in strcmp order of their ids (kb_find_in) */
	char *text;   /* the entries' strings point into this copy... */
	char **owned; /* ...or, for values joined from continuation lines, here */
	size_t nowned;
};

/* Parses KB text. Returns 0, or -1 with "file:line: message" in err. A
 * line "@file NAME" names the file that the next lines come from. */
int kb_parse(const char *text, size_t len, struct kb *kb, struct strbuf *err);
void kb_free(struct kb *kb);

/* The knowledge base compiled into the binary (defined in the tables the
 * build generates: tools/kbgen.c). The tables hold offsets, not pointers
 * (no relocations: they stay in .rodata); these structs are filled from
 * them at first use: all of them by kb_builtin, one by kb_builtin_entry
 * (entry i of kb_builtin's e, at the same address) and kb_find. */
const struct kb *kb_builtin(void);
const struct kb_entry *kb_builtin_entry(size_t i);
/* kb_find's binary search of the built-in KB (id not NULL). */
const struct kb_entry *kb_builtin_find(const char *id);
/* The entry with this id in kb (a binary search), or NULL. */
const struct kb_entry *kb_find_in(const struct kb *kb, const char *id);
/* The same in the built-in KB. */
const struct kb_entry *kb_find(const char *id);
/* Whether e can apply on a machine of platform kind (platform.kind's
 * "kind"): true where e names no platform or kind is unknown (NULL, "",
 * "unknown"). "wsl" stands for wsl1, wsl2 and container-in-wsl2, "not-wsl"
 * for native and container; "windows" is a program run on Windows itself
 * (a log with C:\ paths and DLLs, not WSL's). */
bool kb_applies(const struct kb_entry *e, const char *kind);
/* Whether platform kind is WSL's ("wsl" in a platform: line): wsl1, wsl2 or
 * container-in-wsl2; false for NULL. */
bool kb_kind_is_wsl(const char *kind);
/* The platform kind kind names (a static string: wsl1, wsl2,
 * container-in-wsl2, native, container, windows), or NULL for NULL,
 * "unknown" and any other text. */
const char *kb_platform_kind(const char *kind);
/* Whether every word of a platform: value is one kb_applies knows. */
bool kb_platform_valid(const char *value);

/*
 * Fills a template from evidence: {key} becomes the first value of key
 * ({id} is self_id, the check's own id, unless the evidence has one); a
 * key the evidence lacks shows as KEY in capitals, so that a fix never
 * silently loses its argument (and a pasted one is no shell redirection). {?key:text} keeps text only when the evidence has
 * key, {?key=value:text} only when its first value is value, {?!key:text}
 * only when it lacks key: a sentence about this machine appears only when
 * this run's evidence shows it. A sentence whose slots the evidence cannot
 * fill is left out for the same reason (so that without evidence a cause
 * reads as general advice). ev may be NULL (no machine evidence).
 */
void kb_expand(const char *tmpl, const struct evidence *ev, const char *self_id,
	       struct strbuf *out);
/* The same for a fix command: every value is quoted for the shell
 * (text_shell_quote) as its place in the template needs: a path as one
 * word ("/mnt/c/Users/Jane Doe/.wslconfig" single-quoted), a list word by
 * word, inside the template's own quotes escaped for them. Whole commands
 * (evidence named *_fix or *_cmd) are inserted as they are: their probes
 * build them from quoted parts. */
void kb_expand_fix(const char *tmpl, const struct evidence *ev, const char *self_id,
		   struct strbuf *out);
/* How many distinct slots of the whole template this evidence leaves
 * unfilled (conditions applied, no sentence left out): 0 means every
 * sentence of the check's own entry is shown; their names, in capitals and comma-separated, into
 * keys when given. A fix expanded with unfilled slots ends in
 * "   (a template: put in KEY, ...)". */
size_t kb_unfilled(const char *tmpl, const struct evidence *ev, const char *self_id,
		   struct strbuf *keys);
/* Whether an expanded fix line is a template for the user to fill in, not
 * a command to paste: kb_expand_fix marked it (a slot of evidence this run
 * lacks, shown as its KEY in capitals), or the KB text itself has a <slot>
 * ("<the package dpkg names>", "<distro>"). `wslgpu fix` never puts one on
 * a live line of its plan, and check output marks it. */
bool kb_fix_is_template(const char *line);
/* Where the remark of a fix line "command   (remark)" begins (at its
 * three blanks), or NULL when the line has none: the KB's convention for
 * a note about a command. text, when given, gets the remark's words
 * without its parentheses; a second remark (a template's mark) is joined
 * to the first with "; ". */
const char *kb_fix_remark(const char *line, struct strbuf *text);
/* Where a fix line's command (before its remark) holds a bare "..." (or
 * "\u2026"): a word of its own ("docker run --gpus all ...", "torchrun ...")
 * that stands for what the user must supply and cannot be typed as shown;
 * NULL when none does. "DataLoader(..., x)" and ".../compat" are not bare.
 * The KB names what goes there in capitals with a template remark instead
 * (IMAGE, PROGRAM: src/kb/README.md); tools/kbgen refuses the rest. */
const char *kb_fix_bare_ellipsis(const char *line);
/* How kb_expand_fix ends a line with unfilled slots: "   (a template: put in KEY)". */
#define KB_TEMPLATE_MARK "(a template: "

#endif
