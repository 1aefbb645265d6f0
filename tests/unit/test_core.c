/* test_core.c: strbuf, version numbers, os-release, INI, JSON escaping,
 * the result wire format, the KB parser and root-prefixed path resolution. */
#include "testutil.h"

#include <math.h>
#include <signal.h>

#include "core/json.h"
#include "core/result.h"
#include "core/rootfs.h"
#include "core/strbuf.h"
#include "core/text.h"
#include "kb/kb.h"
#include "parse/inifile.h"
#include "parse/osrelease.h"
#include "parse/version.h"
#include "report/finding.h"
#include "kb_ids.h"

static void test_strbuf(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	assert_string_equal(sb_str(&sb), "");
	sb_addf(&sb, "%d-%s", 42, "x");
	sb_add(&sb, "  \r\n");
	sb_rtrim(&sb);
	assert_string_equal(sb.buf, "42-x");
	for (int i = 0; i < 10000; i++)
		sb_addc(&sb, 'a');
	assert_int_equal(sb.len, 10004);
	char *s = sb_detach(&sb);
	assert_null(sb.buf);
	free(s);
}

static void test_version(void **state)
{
	(void)state;
	struct version a, b;
	assert_int_equal(version_parse("5.15.167.4-microsoft-standard-WSL2", &a), 0);
	assert_int_equal(a.n, 4);
	assert_int_equal(a.part[2], 167);
	assert_int_equal(version_parse("5.10.16.3", &b), 0);
	assert_true(version_cmp(&a, &b) > 0);
	version_parse("4.19.121", &b);
	version_parse("4.19.128-microsoft-standard", &a);
	assert_true(version_cmp(&a, &b) > 0);
	version_parse("551.23", &a);
	version_parse("551.23.0", &b);
	assert_int_equal(version_cmp(&a, &b), 0);
	assert_int_equal(version_parse("microsoft", &a), -1);
	assert_int_equal(version_parse("", &a), -1);
	/* Absurd numbers saturate instead of overflowing. */
	assert_int_equal(version_parse("99999999999999999999999.1", &a), 0);
}

static void test_osrelease(void **state)
{
	(void)state;
	const char *t = "NAME=\"Ubuntu\"\nVERSION_ID='22.04'\nID=ubuntu\n"
			"PRETTY_NAME=\"Ubuntu \\\"quoted\\\" 22.04\"\r\n";
	struct strbuf v = STRBUF_INIT;
	assert_int_equal(osrelease_get(t, strlen(t), "ID", &v), 0);
	assert_string_equal(v.buf, "ubuntu");
	assert_int_equal(osrelease_get(t, strlen(t), "VERSION_ID", &v), 0);
	assert_string_equal(v.buf, "22.04");
	assert_int_equal(osrelease_get(t, strlen(t), "PRETTY_NAME", &v), 0);
	assert_string_equal(v.buf, "Ubuntu \"quoted\" 22.04");
	assert_int_equal(osrelease_get(t, strlen(t), "NAM", &v), -1);
	/* Binary garbage and an unterminated quote do not crash. */
	const char bin[] = "ID=\"abc\0\xff\xfe\nX=1";
	assert_int_equal(osrelease_get(bin, sizeof bin - 1, "X", &v), 0);
	assert_string_equal(v.buf, "1");
	sb_release(&v);
}

static void test_inifile(void **state)
{
	(void)state;
	struct inifile ini;
	const char *t = "[wsl2]\r\nmemory=8GB\r\nswap = 0\r\n[gpu]\r\nenabled=false\r\nbroken line\r\n";
	inifile_parse(t, strlen(t), &ini);
	assert_true(ini.crlf);
	assert_false(ini.utf16);
	const struct inifile_item *m = inifile_find(&ini, "WSL2", "Memory");
	assert_non_null(m);
	assert_string_equal(m->value, "8GB");
	assert_int_equal(m->line, 2);
	assert_int_equal(inifile_size(m->value), 8LL << 30);
	assert_string_equal(inifile_find(&ini, "wsl2", "swap")->value, "0");
	assert_int_equal(inifile_bool(inifile_find(&ini, "gpu", "enabled")->value), 0);
	assert_int_equal(ini.error_line, 6);
	inifile_free(&ini);

	/* UTF-16LE with BOM: WSL ignores such a file (microsoft/WSL#7851). */
	const char u16[] = "\xff\xfe[\0w\0s\0l\0" "2\0]\0";
	inifile_parse(u16, sizeof u16 - 1, &ini);
	assert_true(ini.utf16);
	assert_int_equal(ini.n, 0);
	inifile_free(&ini);

	assert_int_equal(inifile_size("512MB"), 512LL << 20);
	assert_int_equal(inifile_size("lots"), -1);
	assert_int_equal(inifile_size("8XB"), -1);
	assert_int_equal(inifile_bool("maybe"), -1);
}

static void test_json(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	json_quote(&sb, "a\"b\\c\n\x01\xff\xc3\xa9");
	assert_string_equal(sb.buf, "\"a\\\"b\\\\c\\n\\u0001\\ufffd\xc3\xa9\"");
	sb_reset(&sb);
	text_sanitize(&sb, "ok\033[31mred\xc2\x9b\xe2\x9c\x93");
	assert_string_equal(sb.buf, "ok[31mred?\xe2\x9c\x93");
	sb_release(&sb);
}

static void test_wire(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	struct result a, b;
	result_init(&a, NULL);
	res_set(&a, ST_WARN, "x.y", "detail %d", 7);
	res_ev(&a, "k", "v1");
	res_ev(&a, "k", "v2");
	wire_put(p[1], 'T', "step one", 8);
	wire_put_result(p[1], &a);
	close(p[1]);
	char buf[4096];
	ssize_t n = read(p[0], buf, sizeof buf);
	close(p[0]);
	assert_true(n > 0);
	result_init(&b, NULL);
	/* Fed byte by byte, records apply only when complete. */
	size_t used = 0;
	for (ssize_t end = 1; end <= n; end++)
		used += wire_apply(&b, buf + used, (size_t)end - used);
	assert_int_equal(used, (size_t)n);
	assert_true(b.ran);
	assert_int_equal(b.status, ST_WARN);
	assert_string_equal(b.kb, "x.y");
	assert_string_equal(b.detail, "detail 7");
	assert_string_equal(b.step, "step one");
	assert_string_equal(res_get_nth(&b, "k", 1), "v2");
	/* A hostile length field is dropped, not trusted. */
	struct result c;
	result_init(&c, NULL);
	const char evil[] = "S\xff\xff\xff\x7f";
	assert_int_equal(wire_apply(&c, evil, 5), 5);
	assert_false(c.ran);
	result_release(&a);
	result_release(&b);
	result_release(&c);
}

/* Records gathered in a buffer (wire_add, wire_add_result) are the bytes
 * wire_put and wire_put_result write one record at a time, and one
 * wire_write sends them all. */
static void test_wire_batch(void **state)
{
	(void)state;
	struct result a;
	result_init(&a, NULL);
	res_set(&a, ST_FAIL, "a.b", "gone");
	res_ev(&a, "file", "/etc/os-release");
	res_ev(&a, "empty", "%s", "");
	int p[2];
	assert_int_equal(pipe(p), 0);
	int32_t idx = 3;
	wire_put(p[1], 'I', &idx, sizeof idx);
	wire_put_result(p[1], &a);
	close(p[1]);
	char one[4096];
	ssize_t n1 = read(p[0], one, sizeof one);
	close(p[0]);
	assert_true(n1 > 0);

	struct strbuf sb = STRBUF_INIT;
	wire_add(&sb, 'I', &idx, sizeof idx);
	wire_add_result(&sb, &a);
	assert_int_equal(sb.len, (size_t)n1);
	assert_memory_equal(sb.buf, one, (size_t)n1);
	assert_int_equal(pipe(p), 0);
	assert_int_equal(wire_write(p[1], &sb), 0);
	assert_int_equal(sb.len, 0); /* emptied for the next batch */
	close(p[1]);
	char two[4096];
	ssize_t n2 = read(p[0], two, sizeof two);
	close(p[0]);
	assert_int_equal(n2, n1);
	assert_memory_equal(two, one, (size_t)n1);

	/* A reader gone: an error, and the batch is dropped, not kept. */
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	wire_add_result(&sb, &a);
	assert_int_equal(wire_write(p[1], &sb), -EPIPE);
	assert_int_equal(sb.len, 0);
	close(p[1]);
	sb_release(&sb);
	result_release(&a);
}

/* ST_UNKNOWN: the check could not find out. Its name and mark, the
 * names read back (history stores them), and where it sits: above a pass
 * and a note, below a warning, never a failure. */
static void test_status_unknown(void **state)
{
	(void)state;
	assert_string_equal(status_name(ST_UNKNOWN), "unknown");
	for (int st = 0; st < ST__COUNT; st++)
		assert_int_equal(status_parse(status_name((enum status)st)), st);
	assert_int_equal(status_parse("passed"), -1);
	assert_int_equal(status_parse(""), -1);
	assert_int_equal(status_parse(NULL), -1);
	assert_string_equal(status_name((enum status)ST__COUNT), "invalid");
	text_set_terminal(80, true);
	assert_string_equal(status_mark(ST_UNKNOWN), "?");
	text_set_terminal(80, false);
	assert_string_equal(status_mark(ST_UNKNOWN), "?");
	text_set_terminal(80, true);
	assert_false(status_is_failure(ST_UNKNOWN));
	assert_true(status_name_is_failure("timeout"));
	assert_false(status_name_is_failure("unknown"));
	assert_false(status_name_is_failure("what"));
	assert_true(status_severity(ST_UNKNOWN, false) > status_severity(ST_PASS, true));
	assert_true(status_severity(ST_UNKNOWN, false) < status_severity(ST_WARN, false));
	assert_int_equal(status_severity(ST_UNKNOWN, true), status_severity(ST_UNKNOWN, false));

	/* A check one of whose findings could not be found out is unknown as
	 * a whole; a warning still decides over it. */
	struct result r;
	result_init(&r, NULL);
	struct findings f = FINDINGS_INIT;
	findings_add(&f, ST_PASS, "x.note", "noted");
	findings_add(&f, ST_UNKNOWN, NULL, "cannot tell");
	findings_add(&f, ST_PASS, NULL, "fine");
	findings_settle(&r, &f);
	assert_int_equal(r.status, ST_UNKNOWN);
	assert_string_equal(r.detail, "cannot tell");
	assert_false(result_fails_run(&r));
	/* never tolerated: nothing to tolerate */
	r.tolerated_by = xstrdup("p.ini:3: [tolerate] x");
	assert_false(result_tolerated(&r));
	assert_int_equal(result_shown_status(&r), ST_UNKNOWN);
	result_release(&r);
	result_init(&r, NULL);
	findings_add(&f, ST_UNKNOWN, NULL, "cannot tell");
	findings_add(&f, ST_WARN, "x.warn", "warned");
	findings_settle(&r, &f);
	assert_int_equal(r.status, ST_WARN);
	result_release(&r);

	/* It crosses the wire from a probe's child like any other status. */
	int p[2];
	assert_int_equal(pipe(p), 0);
	struct result a, b;
	result_init(&a, NULL);
	res_set(&a, ST_UNKNOWN, NULL, "unknown here");
	wire_put_result(p[1], &a);
	close(p[1]);
	char buf[512];
	ssize_t n = read(p[0], buf, sizeof buf);
	close(p[0]);
	assert_true(n > 0);
	result_init(&b, NULL);
	assert_int_equal(wire_apply(&b, buf, (size_t)n), (size_t)n);
	assert_true(b.ran);
	assert_int_equal(b.status, ST_UNKNOWN);
	result_release(&a);
	result_release(&b);
}

static void test_kb_parse(void **state)
{
	(void)state;
	struct kb kb;
	struct strbuf err = STRBUF_INIT;
	const char *t = "@file t.kb\n# c\n[a.b]\nlayer: libs\ntitle: T\ncause: one\n  two\n"
			"fix: do {pkg}\nfix: again\nsource: https://x\n";
	assert_int_equal(kb_parse(t, strlen(t), &kb, &err), 0);
	assert_int_equal(kb.n, 1);
	assert_string_equal(kb.e[0].cause, "one two");
	assert_int_equal(kb.e[0].fix.n, 2);
	assert_string_equal(kb.e[0].kind, "finding");
	struct result r;
	result_init(&r, NULL);
	res_ev(&r, "pkg", "libnvidia-compute-535");
	struct strbuf out = STRBUF_INIT;
	kb_expand(kb.e[0].fix.v[0], &r.ev, NULL, &out);
	assert_string_equal(out.buf, "do libnvidia-compute-535");
	sb_reset(&out);
	/* A sentence the evidence cannot fill is left out of prose; a fix
	 * keeps the slot in capitals and says it is a template. */
	kb_expand("x {missing} {", &r.ev, NULL, &out);
	assert_string_equal(out.buf, "");
	sb_reset(&out);
	kb_expand("Known {pkg}. Not known {missing}. General.", &r.ev, NULL, &out);
	assert_string_equal(out.buf, "Known libnvidia-compute-535. General.");
	sb_reset(&out);
	kb_expand_fix("dpkg -S {missing}", &r.ev, NULL, &out);
	assert_string_equal(out.buf, "dpkg -S MISSING   (a template: put in MISSING)");
	sb_reset(&out);
	kb_expand_fix("{ldpath_fix}   (for this shell)", &r.ev, NULL, &out);
	assert_string_equal(out.buf, ""); /* a whole command nobody computed */
	assert_int_equal(kb_unfilled("a {pkg} {missing} {?x:{y}} {missing}", &r.ev, NULL, &out), 1);
	assert_string_equal(out.buf, "MISSING");
	/* Fix commands: a path the shell would split is quoted, once. */
	res_ev(&r, "file", "/mnt/c/Users/Jane O'Neil/.wslconfig");
	res_ev(&r, "plain", "/usr/lib/wsl/lib");
	res_ev(&r, "list", "libnvidia-compute-535 cuda-drivers");
	sb_reset(&out);
	kb_expand_fix("notepad.exe {file} && ls {plain} && apt remove {list}", &r.ev, NULL, &out);
	assert_string_equal(out.buf, "notepad.exe '/mnt/c/Users/Jane O'\\''Neil/.wslconfig' && "
				     "ls /usr/lib/wsl/lib && apt remove libnvidia-compute-535 cuda-drivers");
	sb_reset(&out);
	kb_expand_fix("cat \"{file}\"", &r.ev, NULL, &out);
	assert_string_equal(out.buf, "cat \"/mnt/c/Users/Jane O'Neil/.wslconfig\"");
	sb_reset(&out);
	res_ev(&r, "arch_fix", "/usr/bin/python3 -m pip install torch");
	kb_expand_fix("{arch_fix}", &r.ev, NULL, &out); /* a whole command stays one */
	assert_string_equal(out.buf, "/usr/bin/python3 -m pip install torch");
	sb_reset(&out);
	/* A value is data wherever it comes from: a slot for the user to edit
	 * is quoted too (unquoted, "<your data>" would be a redirection); the
	 * plan marks such a line as a template by its <...>. */
	res_ev(&r, "copy_from", "/mnt/c/<your data>");
	kb_expand_fix("cp -a {copy_from} ~/", &r.ev, NULL, &out);
	assert_string_equal(out.buf, "cp -a '/mnt/c/<your data>' ~/");
	/* Substitutions from the machine never run when pasted: in a list, in
	 * the template's double quotes, in its single quotes. */
	res_ev(&r, "evil", "/opt/my libs:/opt/$(touch /tmp/x)");
	res_ev(&r, "pkgs", "good-pkg $(id) `id` a;b");
	res_ev(&r, "q", "it's $HOME");
	sb_reset(&out);
	kb_expand_fix("export X={evil}; apt remove {pkgs}", &r.ev, NULL, &out);
	assert_string_equal(out.buf, "export X='/opt/my libs:/opt/$(touch /tmp/x)'; apt remove "
				     "good-pkg '$(id)' '`id`' 'a;b'");
	sb_reset(&out);
	kb_expand_fix("export X=\"{evil}\" Y=\"{plain}\"", &r.ev, NULL, &out);
	assert_string_equal(out.buf, "export X=\"\"'/opt/my libs:/opt/$(touch /tmp/x)'\"\" "
				     "Y=\"/usr/lib/wsl/lib\"");
	sb_reset(&out);
	kb_expand_fix("echo '{q}'", &r.ev, NULL, &out);
	assert_string_equal(out.buf, "echo 'it'\\''s $HOME'");
	/* Braces that name no evidence are text: a docker template, JSON. */
	sb_reset(&out);
	kb_expand_fix("docker info --format '{{.Name}}'; add {\"cdi\": true}", &r.ev, NULL, &out);
	assert_string_equal(out.buf, "docker info --format '{{.Name}}'; add {\"cdi\": true}");
	/* The one shell quoting. */
	sb_reset(&out);
	text_shell_quote(&out, "");
	text_shell_quote(&out, "/usr/lib/wsl/lib");
	text_shell_quote(&out, "J\xc3\xbcrgen");
	text_shell_quote(&out, "a\nb");
	assert_string_equal(out.buf, "''/usr/lib/wsl/lib'J\xc3\xbcrgen''a\nb'");
	sb_reset(&out);
	kb_expand("see {file}", &r.ev, NULL, &out); /* prose is never quoted */
	assert_string_equal(out.buf, "see /mnt/c/Users/Jane O'Neil/.wslconfig");
	sb_release(&out);
	result_release(&r);
	kb_free(&kb);

	const char *bad[] = { "[x]\nbogus: 1\n", "[x]\nlayer: a\n", "key: v\n", "[Bad Id]\n",
			      "[x]\nlayer: a\ntitle: t\n[x]\nlayer: a\ntitle: t\n",
			      "[x]\nlayer: a\nlayer: b\n",
			      /* a layer no view files it under */
			      "[x]\nlayer: apps\ntitle: t\n" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		sb_reset(&err);
		assert_int_equal(kb_parse(bad[i], strlen(bad[i]), &kb, &err), -1);
		assert_true(err.len > 0);
	}
	sb_release(&err);
}

/* The built-in KB parses, and every finding has a source to cite. */
static void test_kb_builtin(void **state)
{
	(void)state;
	const struct kb *kb = kb_builtin();
	assert_true(kb->n > 0);
	for (size_t i = 0; i < kb->n; i++) {
		if (kb->e[i].source.n == 0)
			fail_msg("%s:%d: [%s] has no source", kb->e[i].file, kb->e[i].line,
				 kb->e[i].id);
	}
	assert_non_null(kb_find(KB_CORE_PROBE_CRASH));
	assert_null(kb_find("no.such.entry"));
}

static void test_rootfs(void **state)
{
	(void)state;
	char *d = tu_mkdtemp();
	assert_non_null(d);
	tu_write_str(d, "usr/lib/x86_64-linux-gnu/libcuda.so.535", "real");
	/* An absolute symlink must resolve inside the root, not on the host. */
	tu_symlink(d, "usr/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.535");
	tu_symlink(d, "lib", "usr/lib");
	tu_symlink(d, "loop/a", "/loop/b");
	tu_symlink(d, "loop/b", "/loop/a");
	tu_symlink(d, "escape", "../../../../../../etc/passwd");
	tu_write_str(d, "usr/bin/nvidia-smi", "#!/bin/sh\n");
	char p[4096];
	snprintf(p, sizeof p, "%s/usr/bin/nvidia-smi", d);
	chmod(p, 0755);

	assert_int_equal(rootfs_set(d), 0);
	assert_false(rootfs_is_real());
	struct strbuf sb = STRBUF_INIT, g = STRBUF_INIT;
	assert_int_equal(rootfs_read("/lib/x86_64-linux-gnu/libcuda.so.1", 0, &sb, NULL), 0);
	assert_string_equal(sb.buf, "real");
	assert_int_equal(rootfs_readlink("/usr/lib/x86_64-linux-gnu/libcuda.so.1", &sb), 0);
	assert_string_equal(sb.buf, "/usr/lib/x86_64-linux-gnu/libcuda.so.535");
	assert_int_equal(rootfs_read("/loop/a", 0, &sb, NULL), -ELOOP);
	/* ".." never climbs above the root. */
	assert_int_equal(rootfs_read("/escape", 0, &sb, NULL), -ENOENT);
	assert_int_equal(rootfs_read("/no/such/file", 0, &sb, NULL), -ENOENT);
	bool trunc;
	assert_int_equal(rootfs_read("/lib/x86_64-linux-gnu/libcuda.so.1", 2, &sb, &trunc), 0);
	assert_true(trunc);
	assert_string_equal(sb.buf, "re");
	assert_int_equal(rootfs_read("/usr", 0, &sb, NULL), -EISDIR);

	setenv("PATH", "/nowhere:/usr/bin", 1);
	bool on_path;
	assert_int_equal(rootfs_which("nvidia-smi", &g, &sb, &on_path), 0);
	assert_string_equal(g.buf, "/usr/bin/nvidia-smi");
	assert_true(on_path);
	assert_int_equal(rootfs_which("nope", &g, &sb, &on_path), -ENOENT);
	assert_int_equal(rootfs_which("../x", &g, &sb, &on_path), -EINVAL);
	sb_release(&sb);
	sb_release(&g);
	rootfs_set("/");
	tu_rmtree(d);
	free(d);
}

static void test_json_writer(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	struct json_writer jw;
	jw_init(&jw, &sb);
	jw_object_begin(&jw);
	jw_kv_str(&jw, "s", "a\"b");
	jw_kv_str(&jw, "n", NULL);
	jw_kv_int(&jw, "i", -3);
	jw_kv_fixed(&jw, "f", 1, 2.25);
	jw_kv_num(&jw, "nan", NAN);
	jw_kv_bool(&jw, "t", true);
	jw_kv_array(&jw, "a");
	jw_str(&jw, "x");
	jw_object_begin(&jw);
	jw_end(&jw);
	jw_array_begin(&jw);
	jw_end(&jw);
	jw_end(&jw);
	jw_kv_array_lines(&jw, "lines");
	jw_uint(&jw, 1);
	jw_uint(&jw, 2);
	jw_end(&jw);
	jw_kv_array_lines(&jw, "empty");
	jw_end(&jw);
	assert_false(jw_complete(&jw));
	jw_end(&jw);
	assert_true(jw_complete(&jw));
	assert_string_equal(sb.buf, "{\"s\":\"a\\\"b\",\"n\":null,\"i\":-3,\"f\":2.2,\"nan\":null,"
				    "\"t\":true,\"a\":[\"x\",{},[]],\"lines\":[\n1,\n2\n],\"empty\":[]}");
	sb_release(&sb);
}

static void test_kb_conditions(void **state)
{
	(void)state;
	struct evidence ev = EVIDENCE_INIT;
	ev_add(&ev, "version", "2.3.1+cpu");
	ev_add(&ev, "source", "pip");
	struct strbuf out = STRBUF_INIT;
	kb_expand("A{?version: (version {version})}.{?missing: never {missing}}", &ev, NULL, &out);
	assert_string_equal(out.buf, "A (version 2.3.1+cpu).");
	sb_reset(&out);
	kb_expand("{?source=pip:a pip install}{?source=apt:a package}{?!missing:, nothing {x}}", &ev,
		  NULL, &out);
	assert_string_equal(out.buf, ""); /* {x} unknown: the sentence is left out */
	sb_reset(&out);
	kb_expand_fix("{?source=pip:a pip install}{?source=apt:a package}{?!missing:, nothing {x}}",
		      &ev, NULL, &out);
	assert_string_equal(out.buf, "a pip install, nothing X   (a template: put in X)");
	sb_reset(&out);
	/* Without machine evidence only the general text stays. */
	kb_expand("General.{?version: This one is {version}.}", NULL, NULL, &out);
	assert_string_equal(out.buf, "General.");
	sb_reset(&out);
	/* Unbalanced: kept as text, nothing read past the end. */
	kb_expand("x {?version: open", &ev, NULL, &out);
	assert_string_equal(out.buf, "x {?version: open");
	sb_reset(&out);
	kb_expand("check {id}", NULL, "libs.env", &out);
	assert_string_equal(out.buf, "check libs.env");
	sb_release(&out);
	ev_release(&ev);
}

static void test_findings_order(void **state)
{
	(void)state;
	/* skip < pass < note < warn < fail: the worst decides, the rest are "also". */
	struct result r;
	result_init(&r, NULL);
	struct findings f = FINDINGS_INIT;
	findings_add(&f, ST_SKIP, NULL, "not installed");
	findings_add(&f, ST_PASS, NULL, "fine");
	assert_int_equal(findings_status(&f), ST_PASS);
	findings_add(&f, ST_PASS, "x.note", "noted");
	findings_add(&f, ST_WARN, "x.warn", "warned");
	findings_add(&f, ST_WARN, "x.second", "second warning");
	findings_settle(&r, &f);
	assert_int_equal(r.status, ST_WARN);
	assert_string_equal(r.kb, "x.warn");
	assert_string_equal(r.detail, "warned");
	assert_int_equal(ev_count(&r.ev, "also"), 4);
	result_release(&r);

	/* Everything passed: one detail naming each; a note's entry is kept. */
	result_init(&r, NULL);
	findings_add(&f, ST_PASS, NULL, "a");
	findings_add(&f, ST_PASS, "x.note", "b");
	findings_settle(&r, &f);
	assert_int_equal(r.status, ST_PASS);
	assert_string_equal(r.kb, "x.note");
	assert_string_equal(r.detail, "a; b");
	result_release(&r);

	/* Priority among equals; labels name the others in the detail. */
	result_init(&r, NULL);
	findings_add_prio(&f, ST_WARN, 4, "x.swap", "swap in use", "swapping");
	findings_add_prio(&f, ST_WARN, 1, "x.small", "small memory", "2 GiB");
	findings_add(&f, ST_FAIL, "x.fail", "broken");
	findings_settle(&r, &f);
	assert_string_equal(r.detail, "broken; also swap in use, small memory");
	result_release(&r);

	/* No finding leaves the result alone. */
	result_init(&r, NULL);
	findings_settle(&r, &f);
	assert_int_equal(r.status, ST_PASS);
	assert_null(r.detail);
	result_release(&r);

	/* Tolerance is a typed fact: a tolerated failure reads as a warning. */
	result_init(&r, NULL);
	res_set(&r, ST_FAIL, NULL, "x");
	assert_true(result_fails_run(&r));
	r.tolerated_by = xstrdup("p.ini:3: [tolerate] x");
	assert_true(result_tolerated(&r));
	assert_false(result_fails_run(&r));
	assert_int_equal(result_shown_status(&r), ST_WARN);
	result_release(&r);
}

/* The "did you mean" distance: case-blind, capped for long strings. */
/* Columns, not bytes: ✓ ✗ ☠ T and · are one column, ⌛ and CJK two,
 * combining marks and colour sequences none. */
static void test_text_width(void **state)
{
	(void)state;
	assert_int_equal(text_width("abc"), 3);
	assert_int_equal(text_width("✓ ok"), 4);
	assert_int_equal(text_width("✗☠T·!-"), 6);
	assert_int_equal(text_width("⌛"), 2);
	assert_int_equal(text_width("日本"), 4);
	assert_int_equal(text_width("e\xcc\x81"), 1); /* e + combining acute */
	assert_int_equal(text_width("\033[1;31m✗\033[0m x"), 3);
	assert_int_equal(text_width("\xff"), 1); /* an invalid byte shows as one */
	assert_int_equal(text_width_n("✓✓", 3), 1);
	/* every status mark is one column, in both alphabets */
	for (int st = 0; st < ST__COUNT; st++) {
		text_set_terminal(80, true);
		assert_int_equal(text_width(status_mark(st)), 1);
		text_set_terminal(80, false);
		assert_int_equal(text_width(status_mark(st)), 1);
		assert_true((unsigned char)status_mark(st)[0] < 0x80);
	}
	text_set_terminal(80, true);
	assert_string_equal(status_mark(ST_TIMEOUT), "T");
}

/* A command's remark as a comment: beside it when it fits, wrapped onto
 * "# " lines when a good part fits, else all below; the command whole. */
static void test_text_wrap_remark(void **state)
{
	(void)state;
	text_set_terminal(40, true);
	struct strbuf sb = STRBUF_INIT;
	sb_add(&sb, "unset X");
	text_wrap_remark(&sb, 7, "for this shell", 0);
	assert_string_equal(sb.buf, "unset X   # for this shell");
	sb_reset(&sb);
	sb_add(&sb, "mv /a/b /a/b.off");
	text_wrap_remark(&sb, 16, "the environment must not bring its own driver", 0);
	assert_string_equal(sb.buf, "mv /a/b /a/b.off   # the environment\n"
				    "# must not bring its own driver");
	sb_reset(&sb);
	/* a command that leaves no room: the remark below, at the indent */
	const char *cmd = "sudo apt-get install -y nvidia-container-toolkit";
	sb_add(&sb, cmd);
	text_wrap_remark(&sb, (int)strlen(cmd), "from the repository above", 4);
	assert_string_equal(sb.buf, "sudo apt-get install -y nvidia-container-toolkit\n"
				    "    # from the repository above");
	for (const char *l = strchr(sb.buf, '\n') + 1; l; l = strchr(l, '\n'))
		assert_true(text_width_n(l, strcspn(l, "\n")) <= 40), l++;
	sb_release(&sb);
	text_set_terminal(80, true);
}

static void test_text_wrap(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	/* A hanging indent; the run of spaces at a break is dropped. */
	struct text_wrap w = { 20, 4, 4, 0, NULL };
	text_wrap(&sb, "one two three four five six", &w);
	assert_string_equal(sb.buf, "one two three\n    four five six");
	sb_reset(&sb);
	/* Widths in columns: eight ✓ are 8 columns, not 24 bytes. */
	w = (struct text_wrap){ 10, 0, 2, 0, NULL };
	text_wrap(&sb, "✓✓✓✓ ✓✓✓✓ ✓✓", &w);
	assert_string_equal(sb.buf, "✓✓✓✓ ✓✓✓✓\n  ✓✓");
	sb_reset(&sb);
	/* A word wider than the line stays whole. */
	w = (struct text_wrap){ 10, 0, 2, 0, NULL };
	text_wrap(&sb, "a /a/very/long/path b", &w);
	assert_string_equal(sb.buf, "a\n  /a/very/long/path\n  b");
	sb_reset(&sb);
	/* The kept part (a command) is never broken; what follows wraps. */
	const char *cmd = "sudo apt-get remove --purge nvidia-driver-535   (then reboot it)";
	w = (struct text_wrap){ 30, 0, 4, strlen("sudo apt-get remove --purge nvidia-driver-535"),
				NULL };
	text_wrap(&sb, cmd, &w);
	assert_string_equal(sb.buf, "sudo apt-get remove --purge nvidia-driver-535\n    (then reboot it)");
	sb_reset(&sb);
	/* Newlines start indented lines; leading spaces there are kept. */
	w = (struct text_wrap){ 40, 0, 3, 0, NULL };
	text_wrap(&sb, "a\n  b", &w);
	assert_string_equal(sb.buf, "a\n     b");
	sb_release(&sb);
	/* The width of where output goes: COLUMNS first, 80 on a pipe, at
	 * least 40. */
	setenv("COLUMNS", "120", 1);
	assert_int_equal(text_terminal_columns(-1), 120);
	setenv("COLUMNS", "12", 1);
	assert_int_equal(text_terminal_columns(-1), 40);
	setenv("COLUMNS", "wide", 1);
	assert_int_equal(text_terminal_columns(-1), 80);
	unsetenv("COLUMNS");
	assert_int_equal(text_terminal_columns(-1), 80);
	/* The locale: the first of LC_ALL, LC_CTYPE, LANG that is set. */
	setenv("LC_ALL", "C", 1);
	setenv("LANG", "en_US.UTF-8", 1);
	assert_false(text_utf8_locale());
	unsetenv("LC_ALL");
	assert_true(text_utf8_locale());
	unsetenv("LANG");
	unsetenv("LC_CTYPE");
	assert_false(text_utf8_locale());
}

/* Lines of a buffer: a last line without '\n' counts, an empty buffer has
 * none, a '\r' stays for the parser to judge. */
static void test_next_line(void **state)
{
	(void)state;
	const char *l;
	size_t n, pos = 0;
	const char *buf = "one\n\ntwo\r\nlast";
	size_t len = strlen(buf);
	assert_true(text_next_line(buf, len, &pos, &l, &n));
	assert_int_equal(n, 3);
	assert_memory_equal(l, "one", 3);
	assert_true(text_next_line(buf, len, &pos, &l, &n));
	assert_int_equal(n, 0);
	assert_true(text_next_line(buf, len, &pos, &l, &n));
	assert_int_equal(n, 4);
	assert_memory_equal(l, "two\r", 4);
	assert_true(text_next_line(buf, len, &pos, &l, &n));
	assert_int_equal(n, 4);
	assert_memory_equal(l, "last", 4);
	assert_false(text_next_line(buf, len, &pos, &l, &n));
	pos = 0;
	assert_true(text_next_line("x\n", 2, &pos, &l, &n));
	assert_false(text_next_line("x\n", 2, &pos, &l, &n));
	pos = 0;
	assert_false(text_next_line("", 0, &pos, &l, &n));
	assert_false(text_next_line(NULL, 5, &pos, &l, &n));
}

/* The finding layout at 80 columns: words wrap at column 13, a command
 * stays whole, its note and words for a person wrap around it. */
static void test_finding_lines(void **state)
{
	(void)state;
	text_set_terminal(80, true);
	struct strbuf sb = STRBUF_INIT;
	const char *cmd = "grep -n LD_LIBRARY_PATH ~/.bashrc ~/.profile ~/.zshrc /etc/environment /etc/x";
	finding_command_line(&sb, 6, "fix", cmd);
	assert_string_equal(sb.buf, "      fix    grep -n LD_LIBRARY_PATH ~/.bashrc ~/.profile ~/.zshrc "
				    "/etc/environment /etc/x\n");
	sb_reset(&sb);
	finding_command_line(&sb, 6, "", "nvidia-smi -g 0 -dm 0   (in an administrator PowerShell, "
					 "for a TCC card that supports WDDM; then restart Windows)");
	/* The note is a shell comment, on every line it wraps onto. */
	assert_string_equal(sb.buf, "             nvidia-smi -g 0 -dm 0   # in an administrator "
				    "PowerShell, for a TCC\n             # card that supports WDDM; then "
				    "restart Windows\n");
	sb_reset(&sb);
	/* A note whose first word does not fit starts a line of its own. */
	finding_command_line(&sb, 6, "fix", "grep -n LD_LIBRARY_PATH ~/.bashrc ~/.profile ~/.zshrc "
					    "/etc/environment   (remove it for good)");
	assert_string_equal(sb.buf, "      fix    grep -n LD_LIBRARY_PATH ~/.bashrc ~/.profile ~/.zshrc "
				    "/etc/environment\n             # remove it for good\n");
	sb_reset(&sb);
	/* Words for a person are a comment on every line they wrap onto, so
	 * that pasting them runs nothing (issue 29), the command among them
	 * included: a fix that is a command is its own line. */
	finding_command_line(&sb, 6, "fix", "install a newer toolkit from NVIDIA's WSL-Ubuntu "
					    "repository, then: sudo apt-get install cuda-toolkit-12-8");
	assert_string_equal(sb.buf, "      fix    # install a newer toolkit from NVIDIA's WSL-Ubuntu "
				    "repository,\n             # then: sudo apt-get install "
				    "cuda-toolkit-12-8\n");
	sb_reset(&sb);
	finding_text_line(&sb, 6, "cause", "The loader searches LD_LIBRARY_PATH before "
					   "ld.so.cache, so it takes that file instead of WSL's copy "
					   "in /usr/lib/wsl/lib.");
	assert_string_equal(sb.buf, "      cause  The loader searches LD_LIBRARY_PATH before "
				    "ld.so.cache, so it takes\n             that file instead of WSL's "
				    "copy in /usr/lib/wsl/lib.\n");
	sb_release(&sb);
}

static void test_text_distance(void **state)
{
	(void)state;
	assert_int_equal(text_distance("memroy", "memory"), 2);
	assert_int_equal(text_distance("SWAP", "swap"), 0);
	assert_int_equal(text_distance("", "wsl2"), 4);
	assert_int_equal(text_distance("wsl2", ""), 4);
	assert_int_equal(text_distance("processors", "processor"), 1);
	assert_int_equal(text_distance("kernelCommandLine", "kernelCommandline"), 0);
	char longer[64];
	memset(longer, 'a', sizeof longer - 1);
	longer[sizeof longer - 1] = '\0';
	assert_int_equal(text_distance(longer, "a"), 99);
	longer[40] = '\0';
	assert_int_equal(text_distance(longer, longer), 0);
}

/* text_casestr answers as strcasestr does, on the cases fix-line
 * classification meets: any case, a word at the start or end, a needle
 * longer than the line, a first letter that recurs before the match. */
static void test_text_casestr(void **state)
{
	(void)state;
	static const struct { const char *hay, *needle; } cases[] = {
		{ "Run NVIDIA-SMI.EXE in PowerShell", "nvidia-smi.exe" },
		{ "sudo apt install x", "SUDO " },
		{ "export LD_LIBRARY_PATH=", "ld_library_path" },
		{ "wsl --shutdown", "wsl --" },
		{ "ww wsl.exe", "wsl.exe" },
		{ "short", "much longer needle" },
		{ "", "x" },
		{ "abc", "" },
		{ "/usr/lib/wsl/lib", "/USR/LIB/WSL" },
		{ "no match here", "dpkg" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_ptr_equal(text_casestr(cases[i].hay, cases[i].needle),
				 strcasestr(cases[i].hay, cases[i].needle));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strbuf),   cmocka_unit_test(test_version),
		cmocka_unit_test(test_osrelease), cmocka_unit_test(test_inifile),
		cmocka_unit_test(test_json),     cmocka_unit_test(test_wire),
		cmocka_unit_test(test_wire_batch),
		cmocka_unit_test(test_status_unknown),
		cmocka_unit_test(test_kb_parse), cmocka_unit_test(test_kb_builtin),
		cmocka_unit_test(test_rootfs), cmocka_unit_test(test_json_writer),
		cmocka_unit_test(test_kb_conditions), cmocka_unit_test(test_findings_order),
		cmocka_unit_test(test_text_distance), cmocka_unit_test(test_text_casestr),
		cmocka_unit_test(test_text_width),
		cmocka_unit_test(test_text_wrap), cmocka_unit_test(test_text_wrap_remark),
		cmocka_unit_test(test_finding_lines), cmocka_unit_test(test_next_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
