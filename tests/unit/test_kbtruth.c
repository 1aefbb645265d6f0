/*
 * test_kbtruth.c: advice that is true for the machine it is shown on.
 *
 * Every knowledge-base entry is rendered the ways a user reads it:
 *  - without evidence (wslgpu kb, explain without --check): a cause must
 *    read as general advice, so no slot may stay unfilled; a fix may be a
 *    template, marked as one, and never holds a raw "<word>" that a shell
 *    would take for a redirection;
 *  - with the evidence of a real run on every fixture machine, when
 *    KBTRUTH_DIR names a directory of `check --json` outputs
 *    (tests/e2e/kbtruth.sh writes them): the check's own entry must fill
 *    every slot, every other entry of its layer must still read without
 *    unfilled slots in its cause, and no rendered text may state what the
 *    evidence contradicts (the rules table below);
 *  - a removal command (apt-get remove, dpkg -P ...) names its packages,
 *    never a pattern: in every fix line, and in every fixture's `wslgpu
 *    fix` plan (kbtruth.sh writes them beside the runs).
 *  - platform-true: an entry without a platform: line holds on every
 *    platform, so its first step is no one platform's command and its cause
 *    is not one platform's in every sentence; on every fixture machine, the
 *    entry a check picked applies to its platform and, off WSL, its first
 *    step is no WSL command.
 * And no user text names internal ids (field-case numbers, fixture names).
 */
#include "testutil.h"

#include <ctype.h>
#include <dirent.h>
#include <regex.h>

#include "core/result.h"
#include "kb/fixline.h"
#include "kb/kb.h"
#include "parse/jsonscan.h"
#include "report/finding.h"

/* Files whose entries still assume evidence, owned by other work; they
 * are reported, not failed, until their owners make them conditional. */
static const char *const pending_files[] = { "frameworks.kb", "policy.kb", "watch.kb", NULL };

static bool pending(const struct kb_entry *e)
{
	const char *base = strrchr(e->file ? e->file : "", '/');
	base = base ? base + 1 : e->file ? e->file : "";
	for (size_t i = 0; pending_files[i]; i++)
		if (!strcmp(base, pending_files[i]))
			return true;
	return false;
}

/* cmocka cuts long messages: print every line, then fail. */
static void fail_with(struct strbuf *errs)
{
	if (!errs->len)
		return;
	size_t n = 0;
	for (const char *p = errs->buf, *nl; *p; p = nl ? nl + 1 : p + strlen(p), n++) {
		nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);
		fprintf(stderr, "%.*s\n", len, p);
	}
	fail_msg("%zu problem(s) above", n);
}

/* ---- claim -> evidence rules ---- */

struct facts {
	const char *platform; /* platform.kind's "kind", or "" */
	const char *distro;
	const struct evidence *ev;
	const char *text; /* the text a rule is applied to */
};

static bool wslish(const struct facts *f)
{
	return !*f->platform || strstr(f->platform, "wsl") != NULL;
}

static bool native_host(const struct facts *f)
{
	return !strcmp(f->platform, "native");
}

static bool ev_value_has(const struct facts *f, const char *needle)
{
	for (size_t i = 0; f->ev && i < f->ev->n; i++)
		if (strstr(f->ev->v[i].val, needle))
			return true;
	return false;
}

static bool always_false(const struct facts *f)
{
	(void)f;
	return false;
}

static bool has_cpu_build(const struct facts *f)
{
	return ev_value_has(f, "+cpu");
}

static bool ubuntu_native(const struct facts *f)
{
	return native_host(f) && strstr(f->distro, "Ubuntu") != NULL;
}

static bool not_wsl(const struct facts *f)
{
	return !wslish(f) || !*f->platform;
}

/* Kernel-module commands: for native Linux, and in a container on native
 * Linux only as advice for the host ("on the host: sudo modprobe nvidia"). */
static bool kmod_where(const struct facts *f)
{
	return native_host(f) ||
	       (!strcmp(f->platform, "container") && f->text && !strncmp(f->text, "on the host", 11));
}

struct rule {
	const char *claim;   /* ERE on the rendered text */
	bool fixes_only;     /* only in fix lines (commands) */
	bool (*holds)(const struct facts *f);
	const char *why;
};

static const struct rule rules[] = {
	{ "\\+cpu", false, has_cpu_build, "names a +cpu build the evidence does not show" },
	{ "modprobe nvidia|dkms status", true, kmod_where, "NVIDIA kernel-module commands off native Linux (in a container: not said to be for the host)" },
	{ "ubuntu-drivers", true, ubuntu_native, "ubuntu-drivers off native Ubuntu" },
	{ "Docker Desktop", true, wslish, "Docker Desktop off WSL" },
	{ "\\(in (an administrator )?PowerShell", true, wslish, "a Windows command off WSL" },
	{ "lspci", true, not_wsl, "lspci on WSL (it shows only Microsoft's virtual device)" },
	{ "ulimit -l", true, always_false, "ulimit -l does not limit pinned memory under GPU-PV" },
	{ "nvidia-smi(\\.exe)? -g", false, always_false, "nvidia-smi selects a GPU with -i" },
	{ "cuda-toolkit-12-7|CUDA 12\\.7", false, always_false, "there is no CUDA 12.7" },
};

static void apply_rules(const char *what, const char *text, bool is_fix, const struct facts *fa,
			struct strbuf *errs)
{
	struct facts fl = *fa;
	fl.text = text;
	const struct facts *f = &fl;
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
		if (rules[i].fixes_only && !is_fix)
			continue;
		regex_t re;
		assert_int_equal(regcomp(&re, rules[i].claim, REG_EXTENDED | REG_NOSUB), 0);
		bool hit = regexec(&re, text, 0, NULL, 0) == 0;
		regfree(&re);
		if (hit && !rules[i].holds(f))
			sb_addf(errs, "%s: %s (platform %s): %s\n", what, rules[i].why,
				*f->platform ? f->platform : "unknown", text);
	}
}

/* A raw <word> placeholder in a command: a redirection when pasted. */
static bool raw_placeholder(const char *s)
{
	regex_t re;
	assert_int_equal(regcomp(&re, "<[a-zA-Z][a-zA-Z _'-]*>", REG_EXTENDED | REG_NOSUB), 0);
	bool hit = regexec(&re, s, 0, NULL, 0) == 0;
	regfree(&re);
	return hit;
}

/* ---- removal commands name their packages ---- */

/* `apt-get remove 'libnvidia-*'` also removes libnvidia-container1 and
 * libnvidia-container-tools, the NVIDIA Container Toolkit (its release
 * notes list them as its packages): a removal names each package. Checked
 * on every fix line as written and rendered without evidence
 * (test_general_advice), with
 * every fixture's evidence and in every fixture's `wslgpu fix` plan
 * (test_fixture_runs). */

static bool word_is(const char *w, size_t n, const char *s)
{
	return strlen(s) == n && !strncmp(w, s, n);
}

/*
 * Whether one shell command (no separators) removes packages named by a
 * pattern: apt-get/apt/aptitude remove|purge|autoremove, dpkg -r|-P|
 * --remove|--purge, yum/dnf remove|erase, with an argument holding * ? [
 * ^ or $ (apt-get reads a name with * or ? as a pattern or a regex).
 */
static bool segment_removes_by_pattern(const char *s, size_t len)
{
	const char *w[32];
	size_t wl[32], n = 0;
	for (size_t i = 0; i < len && n < 32;) {
		while (i < len && isspace((unsigned char)s[i]))
			i++;
		if (i >= len)
			break;
		size_t st = i;
		char q = 0;
		while (i < len && (q || !isspace((unsigned char)s[i]))) {
			if (q && s[i] == q)
				q = 0;
			else if (!q && (s[i] == '\'' || s[i] == '"'))
				q = s[i];
			i++;
		}
		w[n] = s + st;
		wl[n++] = i - st;
	}
	size_t k = 0;
	while (k < n && (word_is(w[k], wl[k], "sudo") || memchr(w[k], '=', wl[k])))
		k++;
	if (k >= n)
		return false;
	bool apt = word_is(w[k], wl[k], "apt-get") || word_is(w[k], wl[k], "apt") ||
		   word_is(w[k], wl[k], "aptitude") || word_is(w[k], wl[k], "yum") ||
		   word_is(w[k], wl[k], "dnf");
	bool dpkg = word_is(w[k], wl[k], "dpkg");
	if (!apt && !dpkg)
		return false;
	bool removing = false;
	for (size_t j = k + 1; j < n; j++) {
		if (apt && (word_is(w[j], wl[j], "remove") || word_is(w[j], wl[j], "purge") ||
			    word_is(w[j], wl[j], "autoremove") || word_is(w[j], wl[j], "erase"))) {
			removing = true;
			continue;
		}
		if (dpkg && (word_is(w[j], wl[j], "-r") || word_is(w[j], wl[j], "-P") ||
			     word_is(w[j], wl[j], "--remove") || word_is(w[j], wl[j], "--purge"))) {
			removing = true;
			continue;
		}
		if (!removing || w[j][0] == '-')
			continue;
		for (size_t c = 0; c < wl[j]; c++)
			if (strchr("*?[^$", w[j][c]))
				return true;
	}
	return false;
}

/* The command part of a fix line or a plan line: before the KB's
 * "   (remark)" and a shell comment. */
static size_t command_length(const char *line)
{
	const char *rem = strstr(line, "   (");
	size_t n = rem ? (size_t)(rem - line) : strlen(line);
	for (size_t i = 0; i < n; i++)
		if (line[i] == '#' && (i == 0 || isspace((unsigned char)line[i - 1])))
			return i;
	return n;
}

/* Whether a line holds a removal command with a pattern, in any of its
 * commands (split at && || ; and |). */
static bool removes_by_pattern(const char *line)
{
	size_t n = command_length(line);
	size_t st = 0;
	char q = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && q) {
			q = line[i] == q ? 0 : q;
			continue;
		}
		if (i < n && (line[i] == '\'' || line[i] == '"')) {
			q = line[i];
			continue;
		}
		if (i == n || line[i] == ';' || line[i] == '|' || line[i] == '&') {
			if (segment_removes_by_pattern(line + st, i - st))
				return true;
			while (i + 1 < n && (line[i + 1] == '|' || line[i + 1] == '&'))
				i++;
			st = i + 1;
		}
	}
	return false;
}

static void test_removal_pattern_detector(void **state)
{
	(void)state;
	assert_true(removes_by_pattern("sudo apt-get remove --purge 'nvidia-driver-*' 'libnvidia-*'"));
	assert_true(removes_by_pattern("sudo apt purge nvidia-*"));
	assert_true(removes_by_pattern("sudo dpkg -P $(dpkg -l | awk '{print $2}') libnvidia-[a-z]*"));
	assert_true(removes_by_pattern("apt list --installed && sudo apt-get -y remove '^libnvidia'"));
	assert_true(removes_by_pattern("sudo DEBIAN_FRONTEND=noninteractive apt-get autoremove 'cuda-*'"));
	assert_false(removes_by_pattern("sudo apt-get remove --purge libnvidia-compute-535 nvidia-utils-535"));
	assert_false(removes_by_pattern("sudo apt-get remove --purge PACKAGES   (never libnvidia-*)"));
	assert_false(removes_by_pattern("sudo apt-get remove --purge cuda-drivers   # not libnvidia-*"));
	assert_false(removes_by_pattern("dpkg -l | grep -E '^ii +(nvidia-driver|libnvidia-compute)'"));
	assert_false(removes_by_pattern("sudo apt-get install 'cuda-toolkit-12-*'"));
	assert_false(removes_by_pattern("ls /usr/lib/wsl/lib/libnvidia-*"));
}

static void check_fix(const char *what, const char *line, struct strbuf *errs)
{
	if (line && removes_by_pattern(line))
		sb_addf(errs, "%s: removes packages by a pattern (name each package): %s\n", what,
			line);
}

/* ---- platform-true: no one platform's advice in an entry for all ---- */

/* Words that tie a line to WSL (or Windows) and to Linux outside WSL. */
static const char *const wsl_words[] = {
	"wsl.exe", "powershell", ".wslconfig", "/usr/lib/wsl", "nvidia-smi.exe", "windows driver",
	"wsl --", "/dev/dxg", "$env:", NULL,
};
static const char *const native_words[] = {
	"modprobe", "rmmod", "dkms", "nouveau", "secure boot", "mokutil", "/dev/nvidia", NULL,
};
/* A sentence with one of these speaks of WSL (or Windows), or of Linux
 * outside it; a cause that names the other side is not one platform's. */
static const char *const wsl_scope[] = { "wsl", "windows", "/dev/dxg", NULL };
static const char *const other_scope[] = {
	"native", "outside wsl", "elsewhere", "container", "bare metal", "any linux", "on linux",
	NULL,
};

static const char *word_in(const char *text, const char *const *words)
{
	for (size_t i = 0; text && words[i]; i++)
		if (strcasestr(text, words[i]))
			return words[i];
	return NULL;
}

/*
 * Entries without a platform: line that still name one platform's devices,
 * files or commands, read and judged general: a reason each. An entry whose
 * advice holds on one platform only gets a platform: line instead, and one
 * whose check must say something else elsewhere is split (cuda.init.unknown
 * and cuda.init.unknown_native).
 */
static const struct {
	const char *id, *why;
} platform_general[] = {
	{ "libs.kernel_modules.unreadable",
	  "a read-only listing of /sys/module that answers on any Linux; nouveau is only a "
	  "module name looked for, not a step" },
	{ "nvml.init.no_permission",
	  "its first step lists both platforms' device files (/dev/dxg on WSL, /dev/nvidia* "
	  "natively), as its cause says" },
	{ "watch.cpu_bound",
	  "the cause's general part needs the run's evidence; WSL2's processors= is one "
	  "item, marked as WSL2's, in a list of general causes" },
	{ "watch.cpu_or_gpu_bound",
	  "shown only where NVML reports no GPU utilisation (on WSL, as watch says); the "
	  "step is marked as WSL's, and the general ones need the job's evidence" },
	{ "watch.gpu_util_unavailable",
	  "a note shown only where NVML reports no utilisation, which its cause explains "
	  "as WSL's limit; the step is marked as WSL's" },
	{ NULL, NULL },
};

static const char *platform_general_why(const char *id)
{
	for (size_t i = 0; platform_general[i].id; i++)
		if (!strcmp(platform_general[i].id, id))
			return platform_general[i].why;
	return NULL;
}

/* Whether every sentence of text names one of words (a cause whose every
 * sentence is one platform's says nothing for the others). */
static bool every_sentence_has(const char *text, const char *const *words)
{
	struct strbuf s = STRBUF_INIT;
	bool all = true, any = false;
	for (const char *p = text; *p && all;) {
		const char *end = strstr(p, ". ");
		size_t n = end ? (size_t)(end - p) + 1 : strlen(p);
		sb_reset(&s);
		sb_addn(&s, p, n);
		all = word_in(s.buf, words) != NULL;
		any = true;
		p += n;
		p += strspn(p, " ");
	}
	sb_release(&s);
	return any && all;
}

/* Why an entry with no platform: line reads as one platform's, or NULL.
 * Read as `wslgpu kb` and explain show it: without evidence (a sentence or a
 * fix that needs evidence of the platform is left out there). A fix's
 * command is read, not its remark, which may say where it applies. */
static const char *one_platform(const struct finding_view *v, struct strbuf *why)
{
	sb_reset(why);
	if (v->nfix) {
		struct strbuf note = STRBUF_INIT, cmd = STRBUF_INIT;
		const char *rem = kb_fix_remark(v->fix[0], &note);
		sb_addn(&cmd, v->fix[0], rem ? (size_t)(rem - v->fix[0]) : strlen(v->fix[0]));
		const char *w = word_in(cmd.buf, wsl_words);
		const char *n = word_in(cmd.buf, native_words);
		if (w || n)
			sb_addf(why, "its first fix is %s's (%s): %s", w ? "WSL" : "native Linux",
				w ? w : n, v->fix[0]);
		sb_release(&note);
		sb_release(&cmd);
		if (w || n)
			return why->buf;
	}
	if (!v->cause)
		return NULL;
	const char *cw = word_in(v->cause, wsl_words), *cn = word_in(v->cause, native_words);
	if (cw && !word_in(v->cause, other_scope) && every_sentence_has(v->cause, wsl_scope)) {
		sb_addf(why, "every sentence of its cause is WSL's (%s)", cw);
		return why->buf;
	}
	if (cn && !word_in(v->cause, wsl_scope) && every_sentence_has(v->cause, native_words)) {
		sb_addf(why, "every sentence of its cause is native Linux's (%s)", cn);
		return why->buf;
	}
	return NULL;
}

/* The detector itself, on entries as they were and as they are meant to be. */
static void test_platform_detector(void **state)
{
	(void)state;
	static const char text[] =
		"[t.wsl_first]\nlayer: cuda\ntitle: t\ncause: The driver gives no more detail.\n"
		"fix: wsl.exe --shutdown   (in PowerShell)\nfix: nvidia-smi\n"
		"source: https://example.invalid/\n\n"
		"[t.general_first]\nlayer: cuda\ntitle: t\ncause: The driver gives no more detail.\n"
		"fix: nvidia-smi\nfix: wsl.exe --shutdown   (on WSL, in PowerShell)\n"
		"source: https://example.invalid/\n\n"
		"[t.wsl_cause]\nlayer: cuda\ntitle: t\ncause: On WSL the file is in /usr/lib/wsl/lib.\n"
		"fix: ldconfig -p\nsource: https://example.invalid/\n\n"
		"[t.both]\nlayer: cuda\ntitle: t\ncause: NVML comes with the driver. On WSL it is in\n"
		"  /usr/lib/wsl/lib.\nfix: ldconfig -p\nsource: https://example.invalid/\n\n"
		"[t.native_fix]\nlayer: cuda\ntitle: t\ncause: The module is in a bad state.\n"
		"fix: sudo rmmod nvidia_uvm   (with no CUDA program running)\n"
		"source: https://example.invalid/\n";
	struct kb kb;
	struct strbuf err = STRBUF_INIT, why = STRBUF_INIT;
	assert_int_equal(kb_parse(text, strlen(text), &kb, &err), 0);
	static const struct {
		const char *id;
		bool hit;
	} want[] = { { "t.wsl_first", true },  { "t.general_first", false }, { "t.wsl_cause", true },
		     { "t.both", false },      { "t.native_fix", true } };
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		struct finding_view v;
		finding_expand(&v, kb_find_in(&kb, want[i].id), NULL, NULL);
		if ((one_platform(&v, &why) != NULL) != want[i].hit)
			fail_msg("%s: expected %s", want[i].id, want[i].hit ? "a hit" : "none");
		finding_view_release(&v);
	}
	kb_free(&kb);
	sb_release(&err);
	sb_release(&why);
}

static void test_platform_true(void **state)
{
	(void)state;
	const struct kb *kb = kb_builtin();
	struct strbuf errs = STRBUF_INIT, why = STRBUF_INIT;
	for (size_t i = 0; i < kb->n; i++) {
		const struct kb_entry *e = &kb->e[i];
		if (e->platform || !strcmp(e->kind, "signature"))
			continue;
		struct finding_view v;
		finding_expand(&v, e, NULL, NULL);
		const char *hit = one_platform(&v, &why);
		if (hit && !platform_general_why(e->id))
			sb_addf(&errs,
				"%s:%d: [%s] has no platform: line, but %s (give it one, put a "
				"diagnostic that holds everywhere first and say which platform each "
				"part is for, or list it in platform_general with a reason)\n",
				e->file, e->line, e->id, hit);
		else if (!hit && platform_general_why(e->id))
			sb_addf(&errs, "[%s] is listed in platform_general but reads as general: "
				"drop it from the list\n", e->id);
		finding_view_release(&v);
	}
	for (size_t i = 0; platform_general[i].id; i++)
		if (!kb_find(platform_general[i].id))
			sb_addf(&errs, "platform_general names [%s], which is no entry\n",
				platform_general[i].id);
	fail_with(&errs);
	sb_release(&errs);
	sb_release(&why);
}

/*
 * Every fix line, not only the first, as check, fix and report show it on a
 * platform (finding_for_platform): off WSL no line (command or remark) of an
 * entry that can apply there names WSL or Windows, on WSL none names the
 * native kernel module's tools, and an entry that has fixes keeps one.
 * A line naming both device files (/dev/dxg and /dev/nvidia*) answers on
 * either side.
 */
static const char *other_side_word(const char *line, const char *const *words)
{
	bool both = strstr(line, "/dev/dxg") && strstr(line, "/dev/nvidia");
	const char *w = word_in(line, words);
	if (w && both && (!strcmp(w, "/dev/dxg") || !strcmp(w, "/dev/nvidia")))
		return NULL;
	return w;
}

static void audit_platform(const struct kb_entry *e, const char *kind, const char *const *words,
			   struct strbuf *errs)
{
	struct finding_view v;
	finding_expand(&v, e, NULL, NULL);
	size_t had = v.nfix;
	finding_for_platform(&v, kind);
	for (size_t j = 0; j < v.nfix; j++) {
		const char *w = other_side_word(v.fix[j], words);
		if (w)
			sb_addf(errs, "%s:%d: [%s] on %s shows fix %zu for another platform (%s): %s\n",
				e->file, e->line, e->id, kind, j + 1, w, v.fix[j]);
	}
	/* platform_general's entries are shown where one side's evidence
	 * picks them, their steps marked as that side's */
	if (had && !v.nfix && !platform_general_why(e->id))
		sb_addf(errs, "%s:%d: [%s] on %s shows none of its %zu fixes (add one that holds "
			"there)\n", e->file, e->line, e->id, kind, had);
	finding_view_release(&v);
}

/* The mirror's words: the kernel module's tools as commands (nouveau is
 * looked for on WSL too, and nvidia-dkms is a package a grep may name). */
static const char *const kmod_words[] = {
	"modprobe ", "rmmod ", "dkms ", "mokutil ", "secure boot", "/dev/nvidia", NULL,
};

static void test_every_fix_platform_true(void **state)
{
	(void)state;
	const struct kb *kb = kb_builtin();
	struct strbuf errs = STRBUF_INIT;
	static const char *const off_wsl[] = { "native", "container", NULL };
	static const char *const on_wsl[] = { "wsl2", "container-in-wsl2", NULL };
	for (size_t i = 0; i < kb->n; i++) {
		const struct kb_entry *e = &kb->e[i];
		/* one side's entry: its platform: line says where it holds */
		bool both = kb_applies(e, "native") && kb_applies(e, "wsl2");
		if (!strcmp(e->kind, "signature") || !both)
			continue;
		/* platform unknown: one side's lines come last and say whose */
		struct finding_view v;
		finding_expand(&v, e, NULL, NULL);
		finding_for_platform(&v, NULL);
		bool later = false;
		for (size_t j = 0; j < v.nfix; j++) {
			enum fix_platform p = fix_platform_of(v.fix[j]);
			if (p == FIX_ANY_PLATFORM && later)
				sb_addf(&errs, "[%s] with the platform unknown: fix %zu holds "
					"everywhere but comes after one side's: %s\n", e->id, j + 1,
					v.fix[j]);
			later = later || p != FIX_ANY_PLATFORM;
			bool says = p == FIX_WSL_ONLY ? strcasestr(v.fix[j], "wsl") ||
							      strcasestr(v.fix[j], "powershell") ||
							      strcasestr(v.fix[j], "windows")
				  : p == FIX_NATIVE_ONLY ? strcasestr(v.fix[j], "native") != NULL
							 : true;
			if (!says)
				sb_addf(&errs, "%s:%d: [%s] fix %zu is one platform's but does not "
					"say which (on WSL / in PowerShell / native Linux): %s\n",
					e->file, e->line, e->id, j + 1, v.fix[j]);
		}
		finding_view_release(&v);
		for (size_t k = 0; off_wsl[k]; k++)
			if (kb_applies(e, off_wsl[k]))
				audit_platform(e, off_wsl[k], wsl_words, &errs);
		for (size_t k = 0; on_wsl[k]; k++)
			if (kb_applies(e, on_wsl[k]))
				audit_platform(e, on_wsl[k], kmod_words, &errs);
	}
	fail_with(&errs);
	sb_release(&errs);
}

/* ---- without evidence ---- */

static void test_general_advice(void **state)
{
	(void)state;
	const struct kb *kb = kb_builtin();
	struct strbuf errs = STRBUF_INIT, keys = STRBUF_INIT;
	size_t reported = 0;
	for (size_t i = 0; i < kb->n; i++) {
		const struct kb_entry *e = &kb->e[i];
		bool p = pending(e);
		struct finding_view g;
		finding_expand(&g, e, NULL, NULL);
		if (e->cause && (!g.cause || !*g.cause)) {
			if (p)
				reported++;
			else
				sb_addf(&errs, "%s:%d: [%s] without evidence no sentence of its cause is "
					"left (every one assumes a machine)\n", e->file, e->line, e->id);
		}
		finding_view_release(&g);
		for (size_t j = 0; j < e->fix.n; j++) {
			check_fix(e->id, e->fix.v[j], &errs);
			if (raw_placeholder(e->fix.v[j]))
				sb_addf(&errs, "%s:%d: [%s] fix holds a raw <placeholder>: %s\n", e->file,
					e->line, e->id, e->fix.v[j]);
		}
		struct finding_view v;
		finding_expand(&v, e, NULL, NULL);
		struct facts none = { "", "", NULL, NULL };
		for (size_t j = 0; j < v.nfix; j++) {
			struct strbuf what = STRBUF_INIT;
			sb_addf(&what, "[%s] fix without evidence", e->id);
			check_fix(what.buf, v.fix[j], &errs);
			/* General advice may name any platform; only the never-true
			 * claims are checked here. */
			for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++)
				if (rules[r].holds == always_false) {
					regex_t re;
					regcomp(&re, rules[r].claim, REG_EXTENDED | REG_NOSUB);
					if (regexec(&re, v.fix[j], 0, NULL, 0) == 0)
						sb_addf(&errs, "%s: %s: %s\n", what.buf, rules[r].why,
							v.fix[j]);
					regfree(&re);
				}
			(void)none;
			sb_release(&what);
		}
		finding_view_release(&v);
	}
	if (reported)
		print_message("note: %zu entries of %s/%s/%s have no general sentence\n", reported,
			      pending_files[0], pending_files[1], pending_files[2]);
	fail_with(&errs);
	sb_release(&errs);
	sb_release(&keys);
}

/* ---- no internal ids ---- */

static void check_ids(const char *what, const char *text, regex_t *ids, char **fixtures,
		      size_t nfix, struct strbuf *errs)
{
	if (!text)
		return;
	if (regexec(ids, text, 0, NULL, 0) == 0)
		sb_addf(errs, "%s names an internal case id: %s\n", what, text);
	for (size_t i = 0; i < nfix; i++)
		if (strstr(text, fixtures[i]))
			sb_addf(errs, "%s names the fixture %s: %s\n", what, fixtures[i], text);
}

static void test_no_internal_ids(void **state)
{
	(void)state;
	regex_t ids;
	assert_int_equal(regcomp(&ids, "case [A-Z][0-9]|field case|tracker row|cases?/field",
				 REG_EXTENDED | REG_NOSUB),
			 0);
	/* Fixture names with a dash are ours alone ("distro-libcuda"). */
	char *fixtures[128];
	size_t nfix = 0;
	DIR *d = opendir("tests/fixtures");
	assert_non_null(d);
	struct dirent *de;
	while ((de = readdir(d)) && nfix < 128)
		if (strchr(de->d_name, '-'))
			fixtures[nfix++] = strdup(de->d_name);
	closedir(d);
	const struct kb *kb = kb_builtin();
	struct strbuf errs = STRBUF_INIT, what = STRBUF_INIT;
	for (size_t i = 0; i < kb->n; i++) {
		const struct kb_entry *e = &kb->e[i];
		sb_reset(&what);
		sb_addf(&what, "%s:%d: [%s]", e->file, e->line, e->id);
		check_ids(what.buf, e->title, &ids, fixtures, nfix, &errs);
		check_ids(what.buf, e->cause, &ids, fixtures, nfix, &errs);
		check_ids(what.buf, e->confirm, &ids, fixtures, nfix, &errs);
		for (size_t j = 0; j < e->fix.n; j++)
			check_ids(what.buf, e->fix.v[j], &ids, fixtures, nfix, &errs);
		for (size_t j = 0; j < e->source.n; j++) {
			check_ids(what.buf, e->source.v[j], &ids, fixtures, nfix, &errs);
			if (strncmp(e->source.v[j], "https://", 8) && strncmp(e->source.v[j], "http://", 7))
				sb_addf(&errs, "%s: a source that is no address: %s\n", what.buf,
					e->source.v[j]);
		}
	}
	for (size_t i = 0; i < nfix; i++)
		free(fixtures[i]);
	regfree(&ids);
	fail_with(&errs);
	sb_release(&errs);
	sb_release(&what);
}

/* ---- with the evidence of every fixture ---- */

static void json_evidence(const struct js_val *obj, struct evidence *ev)
{
	size_t pos = 0;
	struct js_val k, v, el;
	struct strbuf key = STRBUF_INIT, val = STRBUF_INIT;
	while (js_object_next(obj, &pos, &k, &v) == 1) {
		js_string(&k, &key);
		if (v.type == JS_ARRAY) {
			size_t p2 = 0;
			while (js_array_next(&v, &p2, &el) == 1) {
				js_string(&el, &val);
				ev_add(ev, key.buf, "%s", sb_str(&val));
			}
		} else {
			js_string(&v, &val);
			ev_add(ev, key.buf, "%s", sb_str(&val));
		}
	}
	sb_release(&key);
	sb_release(&val);
}

static void str_member(const struct js_val *obj, const char *name, struct strbuf *out)
{
	struct js_val v;
	sb_reset(out);
	if (js_object_get(obj, name, &v) == 0 && v.type == JS_STRING)
		js_string(&v, out);
}

/* The fix lines a run printed for one check: chosen for the machine's
 * platform (fixes_for), and, where its entry holds on both sides, none of
 * them the other side's (every line, not only the first). */
static void check_printed_fixes(const char *file, const char *id, const struct kb_entry *own,
				const struct js_val *c, const char *kind, struct strbuf *errs)
{
	struct strbuf ff = STRBUF_INIT, line = STRBUF_INIT;
	str_member(c, "fixes_for", &ff);
	if (*kind && strcmp(sb_str(&ff), kind))
		sb_addf(errs, "%s: %s: fixes chosen for %s on a %s machine\n", file, id,
			ff.len ? ff.buf : "(none)", kind);
	bool both = kb_applies(own, "native") && kb_applies(own, "wsl2");
	const char *const *other = !*kind ? NULL : strstr(kind, "wsl") ? kmod_words : wsl_words;
	struct js_val fixes, el;
	if (both && other && js_object_get(c, "fix", &fixes) == 0 && fixes.type == JS_ARRAY) {
		size_t pos = 0;
		for (size_t j = 1; js_array_next(&fixes, &pos, &el) == 1; j++) {
			js_string(&el, &line);
			const char *w = other_side_word(sb_str(&line), other);
			if (w)
				sb_addf(errs, "%s: %s [%s] printed fix %zu for another platform than "
					"%s (%s): %s\n", file, id, own->id, j, kind, w, line.buf);
		}
	}
	sb_release(&ff);
	sb_release(&line);
}

static void check_run(const char *file, const char *buf, size_t len, struct strbuf *errs)
{
	struct js_val top, checks, platform, c, evo;
	if (js_parse(buf, len, &top, NULL) < 0 || top.type != JS_OBJECT) {
		sb_addf(errs, "%s: not JSON\n", file);
		return;
	}
	struct strbuf kind = STRBUF_INIT, distro = STRBUF_INIT, id = STRBUF_INIT, kbid = STRBUF_INIT,
		      keys = STRBUF_INIT, what = STRBUF_INIT;
	if (js_object_get(&top, "platform", &platform) == 0 && platform.type == JS_OBJECT) {
		str_member(&platform, "kind", &kind);
		str_member(&platform, "distro", &distro);
	}
	if (js_object_get(&top, "checks", &checks) < 0 || checks.type != JS_ARRAY) {
		sb_addf(errs, "%s: no checks\n", file);
		goto out;
	}
	size_t pos = 0;
	while (js_array_next(&checks, &pos, &c) == 1) {
		str_member(&c, "id", &id);
		str_member(&c, "kb", &kbid);
		if (!kbid.len)
			continue;
		const struct kb_entry *own = kb_find(kbid.buf);
		if (!own)
			continue;
		struct evidence ev = EVIDENCE_INIT;
		if (js_object_get(&c, "evidence", &evo) == 0 && evo.type == JS_OBJECT)
			json_evidence(&evo, &ev);
		check_printed_fixes(file, id.buf, own, &c, sb_str(&kind), errs);
		struct facts f = { sb_str(&kind), sb_str(&distro), &ev, NULL };
		const struct kb *kb = kb_builtin();
		for (size_t i = 0; i < kb->n; i++) {
			const struct kb_entry *e = &kb->e[i];
			bool self = e == own;
			if (!self && (strcmp(e->layer, own->layer) || pending(e) ||
				      !strcmp(e->kind, "signature")))
				continue;
			sb_reset(&what);
			sb_addf(&what, "%s: %s with [%s]%s", file, id.buf, e->id,
				self ? "" : " (another entry of the layer)");
			/* The own entry shows every sentence; another entry, read
			 * with this evidence, leaves out what it cannot fill and
			 * must still say something. */
			if (self && e->cause && kb_unfilled(e->cause, &ev, id.buf, &keys))
				sb_addf(errs, "%s: cause leaves %s unfilled\n", what.buf, keys.buf);
			if (!self) {
				struct finding_view o;
				finding_expand(&o, e, &ev, id.buf);
				if (e->cause && (!o.cause || !*o.cause))
					sb_addf(errs, "%s: no sentence of the cause is left\n", what.buf);
				finding_view_release(&o);
				continue;
			}
			/* The entry a check picked holds on this machine's platform,
			 * and off WSL its first step is no WSL command. */
			if (kind.len && !kb_applies(e, kind.buf))
				sb_addf(errs, "%s: the entry is for %s, this machine is %s\n", what.buf,
					e->platform, kind.buf);
			for (size_t j = 0; j < e->fix.n; j++)
				if (kb_unfilled(e->fix.v[j], &ev, id.buf, &keys) && !pending(e))
					sb_addf(errs, "%s: fix leaves %s unfilled: %s\n", what.buf, keys.buf,
						e->fix.v[j]);
			struct finding_view v;
			finding_expand(&v, e, &ev, id.buf);
			if (v.cause)
				apply_rules(what.buf, v.cause, false, &f, errs);
			if (kind.len && !strstr(kind.buf, "wsl") && v.nfix &&
			    word_in(v.fix[0], wsl_words))
				sb_addf(errs, "%s: off WSL its first fix is WSL's: %s\n", what.buf,
					v.fix[0]);
			for (size_t j = 0; j < v.nfix; j++) {
				apply_rules(what.buf, v.fix[j], true, &f, errs);
				check_fix(what.buf, v.fix[j], errs);
			}
			finding_view_release(&v);
		}
		ev_release(&ev);
	}
out:
	sb_release(&kind);
	sb_release(&distro);
	sb_release(&id);
	sb_release(&kbid);
	sb_release(&keys);
	sb_release(&what);
}

/* Every line of a fixture's `wslgpu fix` plan. */
static void check_plan(const char *file, const char *text, struct strbuf *errs)
{
	struct strbuf what = STRBUF_INIT;
	size_t lineno = 0;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = strndup(p, n);
		lineno++;
		sb_reset(&what);
		sb_addf(&what, "%s:%zu", file, lineno);
		check_fix(what.buf, line, errs);
		free(line);
		p += n + (nl != NULL);
	}
	sb_release(&what);
}

static void test_fixture_runs(void **state)
{
	(void)state;
	const char *dir = getenv("KBTRUTH_DIR");
	if (!dir) {
		print_message("skip: KBTRUTH_DIR unset (tests/e2e/kbtruth.sh sets it)\n");
		return;
	}
	DIR *d = opendir(dir);
	assert_non_null(d);
	struct strbuf errs = STRBUF_INIT, path = STRBUF_INIT, text = STRBUF_INIT;
	struct dirent *de;
	size_t runs = 0;
	size_t plans = 0;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);
		bool json = n > 5 && !strcmp(de->d_name + n - 5, ".json");
		bool plan = n > 5 && !strcmp(de->d_name + n - 5, ".plan");
		if (!json && !plan)
			continue;
		sb_reset(&path);
		sb_addf(&path, "%s/%s", dir, de->d_name);
		int fd = open(path.buf, O_RDONLY);
		assert_true(fd >= 0);
		sb_reset(&text);
		assert_int_equal(sb_read_fd(&text, fd, 64u << 20, NULL), 0);
		close(fd);
		if (json) {
			check_run(de->d_name, sb_str(&text), text.len, &errs);
			runs++;
		} else {
			check_plan(de->d_name, sb_str(&text), &errs);
			plans++;
		}
	}
	closedir(d);
	assert_true(runs > 0);
	assert_true(plans > 0);
	fail_with(&errs);
	sb_release(&errs);
	sb_release(&path);
	sb_release(&text);
}

/* The rules themselves: a claim is caught where the evidence denies it. */
static void test_rules(void **state)
{
	(void)state;
	struct evidence ev = EVIDENCE_INIT;
	ev_add(&ev, "version", "2.3.1+cu121");
	struct facts wsl = { "wsl2", "Ubuntu 22.04.4 LTS", &ev, NULL },
		     nat = { "native", "Debian GNU/Linux 12", &ev, NULL },
		     ctr = { "container", "Ubuntu 22.04.4 LTS", &ev, NULL };
	struct strbuf errs = STRBUF_INIT;
	apply_rules("t", "torch 2.3.1+cpu is a CPU-only build", false, &wsl, &errs);
	assert_non_null(strstr(sb_str(&errs), "+cpu"));
	sb_reset(&errs);
	apply_rules("t", "sudo modprobe nvidia", true, &wsl, &errs);
	assert_true(errs.len > 0);
	sb_reset(&errs);
	apply_rules("t", "sudo modprobe nvidia", true, &ctr, &errs);
	assert_true(errs.len > 0); /* in the container */
	sb_reset(&errs);
	apply_rules("t", "on the host: sudo modprobe nvidia", true, &ctr, &errs);
	assert_int_equal(errs.len, 0);
	apply_rules("t", "sudo ubuntu-drivers install", true, &ctr, &errs);
	assert_true(errs.len > 0); /* the container's distribution is not the host's */
	sb_reset(&errs);
	apply_rules("t", "sudo ubuntu-drivers install", true, &nat, &errs);
	assert_true(errs.len > 0); /* Debian */
	sb_reset(&errs);
	apply_rules("t", "start Docker Desktop on Windows", true, &nat, &errs);
	assert_true(errs.len > 0);
	sb_reset(&errs);
	apply_rules("t", "wsl --update   (in PowerShell)", true, &wsl, &errs);
	assert_int_equal(errs.len, 0);
	ev_release(&ev);
	sb_release(&errs);
	assert_true(raw_placeholder("dpkg -S <loaded>"));
	assert_false(raw_placeholder("dpkg -S LOADED   (a template: put in LOADED)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_removal_pattern_detector),
		cmocka_unit_test(test_general_advice),
		cmocka_unit_test(test_platform_detector),
		cmocka_unit_test(test_platform_true),
		cmocka_unit_test(test_every_fix_platform_true),
		cmocka_unit_test(test_no_internal_ids),
		cmocka_unit_test(test_fixture_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
