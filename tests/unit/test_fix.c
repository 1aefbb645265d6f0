/*
 * test_fix.c: wslgpu fix -- the startup-file scanner, the classification
 * of fix lines, the plan built from hand-made results, and the edit with
 * its backup (only ever inside a scratch root).
 */
#include "testutil.h"

#include <sys/stat.h>

#include "core/buildinfo.h"
#include "core/result.h"
#include "core/rootfs.h"
#include "core/text.h"
#include "core/utf8.h"
#include "fix/consequence.h"
#include "fix/edit.h"
#include "fix/plan.h"
#include "fix/rcscan.h"
#include "kb/finding.h"
#include "kb/fixline.h"
#include "kb/versions.h"
#include "probes/registry.h"
#include "kb_ids.h"

static char *slurp(const char *dir, const char *rel)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		sb_addn(&sb, buf, n);
	fclose(f);
	return sb_detach(&sb);
}

static void test_line_assigns(void **state)
{
	(void)state;
	size_t vs, ve;
	const char *l = "export LD_LIBRARY_PATH=\"/a b:$LD_LIBRARY_PATH\" # cuda";
	assert_true(rc_line_assigns(l, "LD_LIBRARY_PATH", &vs, &ve));
	assert_int_equal(vs, strlen("export LD_LIBRARY_PATH="));
	assert_int_equal(ve - vs, strlen("\"/a b:$LD_LIBRARY_PATH\""));
	assert_true(rc_line_assigns("LD_LIBRARY_PATH=/x", "LD_LIBRARY_PATH", &vs, &ve));
	assert_true(rc_line_assigns("  LD_LIBRARY_PATH+=:/x", "LD_LIBRARY_PATH", &vs, &ve));
	assert_true(rc_line_assigns("[ -d /x ] && export LD_LIBRARY_PATH=/x", "LD_LIBRARY_PATH",
				    &vs, &ve));
	assert_true(rc_line_assigns("declare -x CUDA_VISIBLE_DEVICES=", "CUDA_VISIBLE_DEVICES",
				    &vs, &ve));
	assert_int_equal(vs, ve); /* the empty value */
	/* Not assignments: a comment, a mention, another variable, a use. */
	assert_false(rc_line_assigns("# export LD_LIBRARY_PATH=/x", "LD_LIBRARY_PATH", &vs, &ve));
	assert_false(rc_line_assigns("echo \"LD_LIBRARY_PATH=/x\"", "LD_LIBRARY_PATH", &vs, &ve));
	assert_false(rc_line_assigns("export MY_LD_LIBRARY_PATH=/x", "LD_LIBRARY_PATH", &vs, &ve));
	assert_false(rc_line_assigns("echo $LD_LIBRARY_PATH", "LD_LIBRARY_PATH", &vs, &ve));
	assert_false(rc_line_assigns("export LD_LIBRARY_PATH", "LD_LIBRARY_PATH", &vs, &ve));
	assert_false(rc_line_assigns("ls # LD_LIBRARY_PATH=/x", "LD_LIBRARY_PATH", &vs, &ve));
}

static void test_value_dirs(void **state)
{
	(void)state;
	assert_true(rc_value_has_dir("/usr/local/cuda/lib64/stubs:/usr/local/cuda/lib64",
				     "/usr/local/cuda/lib64/stubs"));
	assert_true(rc_value_has_dir("\"$LD_LIBRARY_PATH:/usr/lib/x86_64-linux-gnu/\"",
				     "/usr/lib/x86_64-linux-gnu"));
	assert_false(rc_value_has_dir("/usr/local/cuda/lib64", "/usr/local/cuda/lib64/stubs"));
	assert_false(rc_value_has_dir("/usr/lib/x86_64-linux-gnu2", "/usr/lib/x86_64-linux-gnu"));

	char *s = rc_line_without_dir("export LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs:/usr/local/cuda/lib64",
				      "LD_LIBRARY_PATH", "/usr/local/cuda/lib64/stubs");
	assert_string_equal(s, "export LD_LIBRARY_PATH=/usr/local/cuda/lib64");
	free(s);
	s = rc_line_without_dir("export LD_LIBRARY_PATH=\"/opt/x:/usr/lib/x86_64-linux-gnu\"  # mine",
				"LD_LIBRARY_PATH", "/usr/lib/x86_64-linux-gnu");
	assert_string_equal(s, "export LD_LIBRARY_PATH=\"/opt/x\"  # mine");
	free(s);
	/* Only the old value would remain: the whole line goes. */
	assert_null(rc_line_without_dir("export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/lib/x86_64-linux-gnu",
					"LD_LIBRARY_PATH", "/usr/lib/x86_64-linux-gnu"));
	assert_null(rc_line_without_dir("export LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}",
					"LD_LIBRARY_PATH", "/usr/local/cuda/lib64/stubs"));
	assert_null(rc_line_without_dir("LD_LIBRARY_PATH=/x", "LD_LIBRARY_PATH", "/x"));
	assert_true(rc_value_has_dir("/s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}", "/s"));
	assert_false(rc_value_has_dir("", "/s"));
	assert_false(rc_value_has_dir("\"\"", "/s"));
	assert_null(rc_line_without_dir("export LD_LIBRARY_PATH=", "LD_LIBRARY_PATH", "/s"));
	assert_null(rc_line_without_dir("export LD_LIBRARY_PATH=''", "LD_LIBRARY_PATH", "/s"));
	s = rc_line_without_dir("export LD_LIBRARY_PATH=${LD_LIBRARY_PATH}:/bad:/good", "LD_LIBRARY_PATH", "/bad");
	assert_string_equal(s, "export LD_LIBRARY_PATH=${LD_LIBRARY_PATH}:/good");
	free(s);
}

static void test_scan(void **state)
{
	(void)state;
	char *d = tu_mkdtemp();
	tu_write_str(d, "home/u/.bashrc",
		     "# export LD_LIBRARY_PATH=/old\n"
		     "alias ll='ls -l'\r\n"
		     "export LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs:$LD_LIBRARY_PATH\r\n");
	tu_write_str(d, "home/u/.zshrc", "LD_LIBRARY_PATH+=:/z\n");
	tu_write_str(d, "etc/profile.d/zz-cuda.sh", "export LD_LIBRARY_PATH=/usr/local/cuda/lib64\n");
	tu_write_str(d, "etc/profile.d/aa.sh", "export LD_LIBRARY_PATH=/aa\n");
	tu_write_str(d, "etc/profile.d/skip.csh", "setenv LD_LIBRARY_PATH=/no\n");
	tu_write_str(d, "etc/environment", "PATH=/usr/bin\nLD_LIBRARY_PATH=\"/env\"\n");
	assert_int_equal(rootfs_set(d), 0);
	struct rc_hits h = { 0 };
	rc_scan("LD_LIBRARY_PATH", "/home/u", &h);
	assert_int_equal(h.n, 5);
	assert_string_equal(h.v[0].file, "/home/u/.bashrc");
	assert_int_equal(h.v[0].line, 3);
	assert_string_equal(h.v[0].text,
			    "export LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs:$LD_LIBRARY_PATH");
	assert_true(h.v[0].user_file);
	assert_string_equal(h.v[1].file, "/home/u/.zshrc");
	assert_string_equal(h.v[2].file, "/etc/environment");
	assert_string_equal(h.v[2].value, "\"/env\"");
	assert_false(h.v[2].user_file);
	assert_string_equal(h.v[3].file, "/etc/profile.d/aa.sh"); /* name order */
	assert_string_equal(h.v[4].file, "/etc/profile.d/zz-cuda.sh");
	rc_hits_release(&h);
	/* No home: only the system files. */
	rc_scan("LD_LIBRARY_PATH", NULL, &h);
	assert_int_equal(h.n, 3);
	rc_hits_release(&h);
	rc_scan("CUDA_VISIBLE_DEVICES", "/home/u", &h);
	assert_int_equal(h.n, 0);
	rc_hits_release(&h);
	rootfs_set("/");
	tu_rmtree(d);
	free(d);
}

/* The risk fix_classify gives line. */
static void expect_risk(const char *line, enum fix_risk risk)
{
	struct fix_command c;
	fix_classify(line, &c);
	if (c.risk != risk)
		fail_msg("%s: risk %d, want %d", line, (int)c.risk, (int)risk);
	free(c.text);
	free(c.note);
}

static void test_classify(void **state)
{
	(void)state;
	struct fix_command c;
	fix_classify("sudo apt-get remove --purge libnvidia-compute-535", &c);
	assert_int_equal(c.where, FIX_LINUX);
	assert_true(c.needs_root);
	assert_false(c.instruction);
	assert_int_equal(c.risk, RISK_HIGH);
	assert_null(c.note);
	free(c.text);

	fix_classify("wsl.exe --set-version DISTRO 2   (in PowerShell)", &c);
	assert_string_equal(c.text, "wsl.exe --set-version DISTRO 2");
	assert_string_equal(c.note, "in PowerShell");
	assert_int_equal(c.where, FIX_POWERSHELL);
	assert_int_equal(c.risk, RISK_MEDIUM);
	assert_false(c.needs_root);
	free(c.text);
	free(c.note);

	fix_classify("wsl.exe --update   (in PowerShell)", &c);
	assert_int_equal(c.risk, RISK_LOW);
	free(c.text);
	free(c.note);

	fix_classify("nvidia-smi -g 0 -dm 0   (in an administrator PowerShell, for a TCC card)", &c);
	assert_int_equal(c.where, FIX_POWERSHELL);
	assert_true(c.needs_root);
	assert_int_equal(c.risk, RISK_HIGH);
	free(c.text);
	free(c.note);

	fix_classify("update the NVIDIA driver on Windows   (in Windows: NVIDIA app or nvidia.com/drivers)", &c);
	assert_int_equal(c.where, FIX_WINDOWS);
	assert_true(c.instruction);
	free(c.text);
	free(c.note);

	fix_classify("unset LD_LIBRARY_PATH   (for this shell)", &c);
	assert_int_equal(c.risk, RISK_LOW);
	assert_string_equal(c.note, "for this shell");
	free(c.text);
	free(c.note);

	/* "NAME=value cmd" is a POSIX shell's command (its environment set
	 * for it), whatever the name; a capitalised word is prose */
	fix_classify("OLLAMA_DEBUG=1 ollama serve   (the discovery steps)", &c);
	assert_false(c.instruction);
	assert_int_equal(c.where, FIX_LINUX);
	free(c.text);
	free(c.note);
	fix_classify("LD_DEBUG=libs python3 -c 'import torch'", &c);
	assert_false(c.instruction);
	free(c.text);
	free(c.note);
	fix_classify("PyTorch: reinstall the cu121 wheel", &c);
	assert_true(c.instruction);
	free(c.text);
	free(c.note);

	/* A template's mark after a remark: one note, the mark still seen. */
	fix_classify("dpkg -S DIR   (for a .run install: check it)   (a template: put in DIR)", &c);
	assert_string_equal(c.text, "dpkg -S DIR");
	assert_string_equal(c.note, "for a .run install: check it; a template: put in DIR");
	assert_true(c.instruction);
	free(c.text);
	free(c.note);

	fix_classify("ls -l /dev/dxg", &c);
	assert_int_equal(c.risk, RISK_NONE);
	free(c.text);
	fix_classify("sudo ldconfig", &c);
	assert_int_equal(c.risk, RISK_LOW);
	assert_true(c.needs_root);
	free(c.text);
	fix_classify("ldconfig -p | grep libcuda", &c);
	assert_int_equal(c.risk, RISK_NONE);
	free(c.text);
	fix_classify("use a smaller batch, a smaller model or lower precision", &c);
	assert_true(c.instruction);
	free(c.text);
	/* Windows: pnputil lists, or removes; wevtutil queries, or clears */
	expect_risk("pnputil /enum-devices /class Display   (in PowerShell)", RISK_NONE);
	expect_risk("pnputil /delete-driver oem42.inf /uninstall   (in PowerShell)", RISK_HIGH);
	expect_risk("pnputil /enum-drivers && pnputil /delete-driver oem42.inf", RISK_HIGH);
	expect_risk("wevtutil qe System /c:5 /rd:true /f:text", RISK_NONE);
	expect_risk("wevtutil cl System", RISK_HIGH);
	expect_risk("where.exe cudart64_12.dll", RISK_NONE);
	expect_risk("Get-PnpDevice -Class Display   (in PowerShell)", RISK_NONE);
	fix_classify("Get-PnpDevice -Class Display   (in PowerShell)", &c);
	assert_false(c.instruction);
	free(c.text);
	free(c.note);
	fix_classify("sudo frobnicate --all", &c); /* unknown: cautious */
	assert_int_equal(c.risk, RISK_MEDIUM);
	free(c.text);
}

/* Results as the runner would leave them, indexed like the registry. */
struct fake_run {
	size_t n;
	struct result *r;
	bool *shown;
};

static struct result *fake_result(struct fake_run *fr, const char *id, enum status st,
				  const char *kb, const char *detail)
{
	int i = registry_find(id);
	assert_true(i >= 0);
	struct result *r = &fr->r[i];
	res_set(r, st, kb, "%s", detail);
	r->ran = true;
	return r;
}

static void fake_run_init(struct fake_run *fr)
{
	const struct check_def *defs = registry_checks(&fr->n);
	fr->r = xcalloc(fr->n, sizeof *fr->r);
	fr->shown = xcalloc(fr->n, sizeof *fr->shown);
	for (size_t i = 0; i < fr->n; i++) {
		result_init(&fr->r[i], &defs[i]);
		fr->shown[i] = true;
	}
}

static void fake_run_release(struct fake_run *fr)
{
	for (size_t i = 0; i < fr->n; i++)
		result_release(&fr->r[i]);
	free(fr->r);
	free(fr->shown);
}

static const struct fix_meta meta = { "0.1.0", "abc1234", "2026-12-02 16:00 UTC", "/fixture" };

static void test_plan(void **state)
{
	(void)state;
	char *d = tu_mkdtemp();
	tu_write_str(d, "home/user/.bashrc",
		     "alias ll='ls -l'\n"
		     "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/lib/x86_64-linux-gnu\n");
	tu_write_str(d, "etc/profile.d/gpu.sh",
		     "export LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu:/opt/x\n");
	assert_int_equal(rootfs_set(d), 0);

	struct fake_run fr;
	fake_run_init(&fr);
	fake_result(&fr, "platform.kind", ST_PASS, NULL, "WSL2");
	/* A warning comes before a failure in chain order, after it in the plan. */
	struct result *env = fake_result(&fr, "libs.env", ST_WARN, KB_LIBS_ENV_SYSTEM_DIR_FIRST,
					 "LD_LIBRARY_PATH puts /usr/lib/x86_64-linux-gnu first");
	res_ev(env, "LD_LIBRARY_PATH", ":/usr/lib/x86_64-linux-gnu");
	res_ev(env, "system_dir", "/usr/lib/x86_64-linux-gnu");
	res_ev(env, "ldpath_fix", "unset LD_LIBRARY_PATH");
	struct result *lc = fake_result(&fr, "libs.libcuda", ST_FAIL, KB_LIBS_LOADER_LDPATH_PACKAGE,
					"the loader picks the distro's libcuda");
	res_ev(lc, "LD_LIBRARY_PATH", ":/usr/lib/x86_64-linux-gnu");
	res_ev(lc, "resolved", "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
	res_ev(lc, "dir", "/usr/lib/x86_64-linux-gnu");
	res_ev(lc, "package", "libnvidia-compute-535");
	res_ev(lc, "soname", "libcuda.so.1");
	res_ev(lc, "ldpath_fix", "unset LD_LIBRARY_PATH");
	fake_result(&fr, "cuda.init", ST_SKIP, NULL, "skipped: libs.libcuda failed");
	/* Not shown (--only): no step. */
	int hidden = registry_find("perf.memory");
	fake_result(&fr, "perf.memory", ST_WARN, NULL, "little memory");
	fr.shown[hidden] = false;

	struct fix_plan plan;
	fix_plan_build(&plan, fr.r, fr.shown, fr.n, "/home/user");
	assert_int_equal(plan.n, 2);
	const struct fix_step *s1 = &plan.steps[0], *s2 = &plan.steps[1];
	assert_string_equal(s1->check, "libs.libcuda");
	assert_string_equal(s2->check, "libs.env");
	assert_int_equal(s1->risk, RISK_HIGH);
	assert_true(s1->needs_root);
	assert_non_null(s1->why);
	assert_null(strstr(s1->why, ". ")); /* one sentence */
	/* The user's .bashrc line is automatic; the system file is not. */
	assert_int_equal(s1->nedit, 2);
	assert_string_equal(s1->edit[0].file, "/home/user/.bashrc");
	assert_int_equal(s1->edit[0].line, 2);
	assert_true(s1->edit[0].automatic);
	assert_null(s1->edit[0].after);
	assert_null(s1->edit[0].env_after);
	assert_string_equal(s1->edit[1].file, "/etc/profile.d/gpu.sh");
	assert_false(s1->edit[1].automatic);
	assert_non_null(strstr(s1->edit[1].refused, "sudoedit /etc/profile.d/gpu.sh"));
	assert_string_equal(s1->edit[1].after, "export LD_LIBRARY_PATH=/opt/x");
	/* The warning repeats the same lines: referred to, not repeated. */
	assert_int_equal(s2->edit[0].same_as, 1);
	assert_int_equal(fix_plan_automatic(&plan), 1);
	bool repeated = false;
	for (size_t i = 0; i < s2->ncmd; i++)
		if (!strcmp(s2->cmd[i].text, "unset LD_LIBRARY_PATH"))
			repeated = s2->cmd[i].same_as == 1;
	assert_true(repeated);

	struct strbuf sb = STRBUF_INIT;
	text_set_terminal(1000, true); /* lines whole, to be found below */
	fix_plan_script(&plan, &meta, &sb);
	text_set_terminal(80, true);
	assert_non_null(strstr(sb.buf, "#!/bin/sh\n"));
	assert_non_null(strstr(sb.buf, "made by wslgpu 0.1.0 (commit abc1234) on 2026-12-02 16:00 UTC. It changes nothing."));
	assert_non_null(strstr(sb.buf, "\nexit 1\n"));
	assert_non_null(strstr(sb.buf, "\n# [1] libs.libcuda (fail): "));
	assert_non_null(strstr(sb.buf, "\n# [2] libs.env (warn): "));
	assert_non_null(strstr(sb.buf, "\nsudo apt-get remove --purge libnvidia-compute-535\n"));
	assert_non_null(strstr(sb.buf, "\n# risk:  high: removes packages"));
	assert_non_null(strstr(sb.buf, "\n# --apply edits /home/user/.bashrc line 2:\n"));
	assert_non_null(strstr(sb.buf, "\n# edit by hand: /etc/profile.d/gpu.sh line 1:\n"));
	assert_non_null(strstr(sb.buf, "\n#   (as in step 1) unset LD_LIBRARY_PATH\n"));
	/* Nothing but the guard runs: every other line is a comment or a
	 * command the user types; the guard comes before the first step. */
	assert_true(strstr(sb.buf, "exit 1") < strstr(sb.buf, "# [1]"));
	/* At 80 columns the words wrap as comments under their label; the
	 * commands, and the lines of files, stay whole. */
	sb_reset(&sb);
	fix_plan_script(&plan, &meta, &sb);
	assert_non_null(strstr(sb.buf, "\n# made by wslgpu 0.1.0 (commit abc1234) on 2026-12-02 16:00 UTC. It changes\n# nothing.\n"));
	assert_non_null(strstr(sb.buf, "\nsudo apt-get remove --purge libnvidia-compute-535\n"));
	assert_non_null(strstr(sb.buf, "\n# more:  wslgpu kb libs.loader."));
	for (const char *l = sb.buf; *l;) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);
		if (l[0] == '#' && n > 80 && strncmp(l, "#     was: ", 11) && strncmp(l, "#     now: ", 11) &&
		    strncmp(l, "#          ", 11) && strncmp(l, "#   (as in step", 15))
			fail_msg("a comment wider than 80 columns: %.*s", (int)n, l);
		if (l[0] == '#' && l[1] != ' ' && l[1] != '!' && n > 1)
			fail_msg("a continuation that is not a comment: %.*s", (int)n, l);
		l += n + (nl != NULL);
	}
	sb_reset(&sb);
	fix_plan_json(&plan, &meta, &sb);
	assert_non_null(strstr(sb.buf, "{\"schema\":\"wslgpu/fix/1\""));
	assert_non_null(strstr(sb.buf, "\"automatic\":1,"));
	assert_non_null(strstr(sb.buf, "\"check\":\"libs.libcuda\",\"status\":\"fail\""));
	sb_release(&sb);
	fix_plan_release(&plan);
	fake_run_release(&fr);

	/* Nothing failing: nothing to fix. */
	fake_run_init(&fr);
	fake_result(&fr, "platform.kind", ST_PASS, NULL, "WSL2");
	fix_plan_build(&plan, fr.r, fr.shown, fr.n, "/home/user");
	assert_int_equal(plan.n, 0);
	fix_plan_script(&plan, &meta, &sb);
	assert_non_null(strstr(sb.buf, "# nothing to fix: every check passed\n"));
	assert_null(strstr(sb.buf, "exit 1"));
	sb_release(&sb);
	fix_plan_release(&plan);
	fake_run_release(&fr);
	rootfs_set("/");
	tu_rmtree(d);
	free(d);
}

/* A check that could not find out gets a step only when its entry says
 * how to find out; the step changes no exit status (issue 29). */
static void test_plan_unknown(void **state)
{
	(void)state;
	struct fake_run fr;
	fake_run_init(&fr);
	struct result *dd = fake_result(&fr, "containers.docker", ST_UNKNOWN,
					KB_CONTAINERS_DOCKER_DESKTOP_UNVERIFIED,
					"Docker Desktop: it cannot be confirmed without starting a container");
	(void)dd;
	fake_result(&fr, "toolkit.packages", ST_UNKNOWN, NULL, "dpkg's status file cannot be read");
	struct fix_plan plan;
	fix_plan_build(&plan, fr.r, fr.shown, fr.n, "/home/user");
	assert_int_equal(plan.n, 1);
	assert_string_equal(plan.steps[0].check, "containers.docker");
	assert_int_equal(fix_plan_problems(&plan), 0);
	fix_plan_release(&plan);
	/* after a failure, which alone counts */
	fake_result(&fr, "libs.env", ST_FAIL, KB_LIBS_ENV_CVD_HIDDEN, "hidden");
	fix_plan_build(&plan, fr.r, fr.shown, fr.n, "/home/user");
	assert_int_equal(plan.n, 2);
	assert_string_equal(plan.steps[0].check, "libs.env");
	assert_string_equal(plan.steps[1].check, "containers.docker");
	assert_int_equal(fix_plan_problems(&plan), 1);
	fix_plan_release(&plan);
	fake_run_release(&fr);
}

/* Which platform a fix line is for, and its remark for the other one. */
static void test_platform_of_line(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		enum fix_platform p;
	} want[] = {
		{ "wsl.exe --shutdown   (in PowerShell, then reopen the distribution)", FIX_WSL_ONLY },
		{ "nvidia-smi.exe   (in PowerShell)", FIX_WSL_ONLY },
		{ "wslgpu check --windows --only host.driver   (on WSL)", FIX_WSL_ONLY },
		{ "start https://www.nvidia.com/Download/index.aspx   (on WSL, in PowerShell: "
		  "install the current Windows driver)", FIX_WSL_ONLY },
		{ "ls -l /usr/lib/wsl/lib/libcuda.so.1", FIX_WSL_ONLY },
		{ "ls -l /dev/dxg", FIX_WSL_ONLY },
		/* an aside for WSL ("on WSL: ...") to a step for everyone */
		{ "update the NVIDIA driver   (on WSL: the Windows driver, then wsl.exe --shutdown; "
		  "Maxwell, Pascal and Volta GPUs: R580 is their last driver branch)", FIX_ANY_PLATFORM },
		{ "nvidia-smi   (the memory in use; on WSL the processes using it show only in "
		  "nvidia-smi.exe, in PowerShell)", FIX_ANY_PLATFORM },
		{ "ls -l /dev/dxg /dev/nvidia*   (WSL 2 has /dev/dxg, native Linux /dev/nvidia*)",
		  FIX_ANY_PLATFORM },
		{ "dpkg -l | grep -E 'nvidia-dkms|cuda-drivers'", FIX_ANY_PLATFORM },
		{ "ls -l /dev/nvidia-uvm", FIX_NATIVE_ONLY },
		{ "sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm", FIX_NATIVE_ONLY },
		{ "apt-cache policy 'nvidia-utils-*'   (Debian/Ubuntu, native Linux only)",
		  FIX_NATIVE_ONLY },
		{ "sudo reboot   (natively, after a driver update)", FIX_NATIVE_ONLY },
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		if (fix_platform_of(want[i].line) != want[i].p)
			fail_msg("fix_platform_of(%s) is %d, not %d", want[i].line,
				 (int)fix_platform_of(want[i].line), (int)want[i].p);
	static const struct {
		const char *line;
		enum fix_platform other;
		const char *out; /* NULL: unchanged */
	} rem[] = {
		{ "update the NVIDIA driver   (on WSL: the Windows driver, then wsl.exe --shutdown; "
		  "Maxwell, Pascal and Volta GPUs: R580 is their last driver branch)", FIX_WSL_ONLY,
		  "update the NVIDIA driver   (Maxwell, Pascal and Volta GPUs: R580 is their last "
		  "driver branch)" },
		{ "ldconfig -p | grep libcuda   (on WSL the first entry should be /usr/lib/wsl/lib)",
		  FIX_WSL_ONLY, "ldconfig -p | grep libcuda" },
		{ "newgrp docker   (or close and reopen the terminal; in WSL, wsl.exe --shutdown also "
		  "works)", FIX_WSL_ONLY, "newgrp docker   (or close and reopen the terminal)" },
		{ "install NVIDIA driver 550 or newer   (on WSL: on Windows, your IT's package; "
		  "natively: the distribution's driver package)", FIX_NATIVE_ONLY,
		  "install NVIDIA driver 550 or newer   (on WSL: on Windows, your IT's package)" },
		/* a template's mark is a remark of its own, and stays one */
		{ "dpkg -S LOADED   (if a package owns it, reinstall it; if it is under /usr/lib/wsl, "
		  "run wsl.exe --shutdown)   (a template: put in LOADED)", FIX_WSL_ONLY,
		  "dpkg -S LOADED   (if a package owns it, reinstall it)   (a template: put in "
		  "LOADED)" },
		{ "nvidia-smi   (the driver version)", FIX_WSL_ONLY, NULL },
		{ "update the NVIDIA driver   (on WSL: the Windows driver)", FIX_ANY_PLATFORM, NULL },
	};
	struct strbuf out = STRBUF_INIT;
	for (size_t i = 0; i < sizeof rem / sizeof *rem; i++) {
		bool changed = fix_remark_for(rem[i].line, rem[i].other, &out);
		assert_int_equal(changed, rem[i].out != NULL);
		assert_string_equal(out.buf, rem[i].out ? rem[i].out : rem[i].line);
		assert_true(kb_fix_is_template(out.buf) == kb_fix_is_template(rem[i].line));
	}
	sb_release(&out);
}

/* A cause's sentences for another platform go where the platform is known
 * (cause_text_for): "On WSL ..." off WSL, "Natively ..." on WSL, both but
 * Windows' own on a log from Windows; an abbreviation does not end one. */
static void test_cause_text_for(void **state)
{
	(void)state;
	static const char oom[] =
		"The allocation did not fit. On WSL the Windows desktop shares the GPU's memory, "
		"e.g. a browser. Natively, Xorg holds some too. On Windows the desktop does.";
	static const struct {
		enum fix_platform other;
		bool windows;
		const char *out; /* NULL: unchanged */
	} want[] = {
		{ FIX_WSL_ONLY, false, "The allocation did not fit. Natively, Xorg holds some too." },
		{ FIX_NATIVE_ONLY, false,
		  "The allocation did not fit. On WSL the Windows desktop shares the GPU's memory, "
		  "e.g. a browser. On Windows the desktop does." },
		{ FIX_WSL_ONLY, true, "The allocation did not fit. On Windows the desktop does." },
		{ FIX_ANY_PLATFORM, false, NULL },
	};
	struct strbuf out = STRBUF_INIT;
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		bool changed = cause_text_for(oom, want[i].other, want[i].windows, &out);
		assert_int_equal(changed, want[i].out != NULL);
		assert_string_equal(out.buf, want[i].out ? want[i].out : oom);
	}
	/* nothing else left: the text stays whole */
	assert_false(cause_text_for("On WSL it is the Windows driver.", FIX_WSL_ONLY, false, &out));
	assert_string_equal(out.buf, "On WSL it is the Windows driver.");
	/* a sentence that only names WSL later is everyone's */
	assert_false(cause_text_for("The driver (on WSL, the Windows one) is old.", FIX_WSL_ONLY,
				    false, &out));
	sb_release(&out);
}

/* GOT[0..ngot) is WANT (up to max entries, NULL-ended when fewer): id's
 * WHAT on platform kind. */
static void expect_list(const char *id, const char *kind, const char *what,
			const char *const *got, size_t ngot, const char *const *want, size_t max)
{
	size_t n = 0;
	while (n < max && want[n])
		n++;
	if (ngot != n)
		fail_msg("%s on %s: %zu %s, not %zu", id, kind ? kind : "NULL", ngot, what, n);
	for (size_t j = 0; j < n; j++)
		assert_string_equal(got[j], want[j]);
}

/* An entry's fix lines on each platform (finding_for_platform). */
static void test_finding_for_platform(void **state)
{
	(void)state;
	static const char text[] =
		"[t.general]\nlayer: cuda\ntitle: t\ncause: The driver gives no more detail.\n"
		"fix: wsl.exe --shutdown   (on WSL, in PowerShell; then reopen the distribution)\n"
		"fix: nvidia-smi   (the driver version; on WSL the Windows driver's)\n"
		"fix: sudo modprobe nvidia   (natively)\n"
		"source: https://example.invalid/\n\n"
		"[t.wsl]\nlayer: bridge\nplatform: wsl\ntitle: t\ncause: Nodes made by hand.\n"
		"fix: ls -l /dev/nvidia*\nfix: wsl.exe --shutdown   (in PowerShell)\n"
		"source: https://example.invalid/\n";
	struct kb kb;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(kb_parse(text, strlen(text), &kb, &err), 0);
	static const struct {
		const char *id, *kind;
		const char *fix[3];
	} want[] = {
		{ "t.general", "native", { "nvidia-smi   (the driver version)",
					   "sudo modprobe nvidia   (natively)", NULL } },
		{ "t.general", "container", { "nvidia-smi   (the driver version)",
					      "sudo modprobe nvidia   (natively)", NULL } },
		{ "t.general", "wsl2",
		  { "wsl.exe --shutdown   (on WSL, in PowerShell; then reopen the distribution)",
		    "nvidia-smi   (the driver version; on WSL the Windows driver's)", NULL } },
		{ "t.general", "container-in-wsl2",
		  { "wsl.exe --shutdown   (on WSL, in PowerShell; then reopen the distribution)",
		    "nvidia-smi   (the driver version; on WSL the Windows driver's)", NULL } },
		/* unknown: what holds everywhere first, each side's after it */
		{ "t.general", NULL,
		  { "nvidia-smi   (the driver version; on WSL the Windows driver's)",
		    "wsl.exe --shutdown   (on WSL, in PowerShell; then reopen the distribution)",
		    "sudo modprobe nvidia   (natively)" } },
		{ "t.general", "unknown",
		  { "nvidia-smi   (the driver version; on WSL the Windows driver's)",
		    "wsl.exe --shutdown   (on WSL, in PowerShell; then reopen the distribution)",
		    "sudo modprobe nvidia   (natively)" } },
		/* an entry bound to WSL says what is right there */
		{ "t.wsl", "wsl2", { "ls -l /dev/nvidia*", "wsl.exe --shutdown   (in PowerShell)", NULL } },
		{ "t.wsl", "native", { "ls -l /dev/nvidia*", "wsl.exe --shutdown   (in PowerShell)", NULL } },
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		struct finding_view v;
		finding_expand(&v, kb_find_in(&kb, want[i].id), NULL, NULL);
		finding_for_platform(&v, want[i].kind);
		expect_list(want[i].id, want[i].kind, "lines", (const char *const *)v.fix, v.nfix,
			    want[i].fix, 3);
		finding_view_release(&v);
	}
	kb_free(&kb);
	sb_release(&err);
}

/* An entry's sources on each platform: off WSL, WSL's and Windows' pages
 * go while another is left (kept when they are all there is); with the
 * platform unknown they follow; on WSL the entry's order stays. */
static void test_sources_for_platform(void **state)
{
	(void)state;
	static const char text[] =
		"[t.mixed]\nlayer: libs\ntitle: t\ncause: c.\nfix: true\n"
		"source: https://docs.nvidia.com/cuda/wsl-user-guide/index.html\n"
		"source: https://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html\n"
		"source: https://github.com/microsoft/WSL/issues/9099\n"
		"source: https://pytorch.org/get-started/locally/\n\n"
		"[t.only_wsl]\nlayer: cuda\ntitle: t\ncause: c.\n"
		"source: https://learn.microsoft.com/en-us/windows/wsl/wsl-config\n";
	struct kb kb;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(kb_parse(text, strlen(text), &kb, &err), 0);
	static const char wsl_guide[] = "https://docs.nvidia.com/cuda/wsl-user-guide/index.html",
			  linux_guide[] = "https://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html",
			  wsl_issue[] = "https://github.com/microsoft/WSL/issues/9099",
			  torch[] = "https://pytorch.org/get-started/locally/",
			  wslconfig[] = "https://learn.microsoft.com/en-us/windows/wsl/wsl-config";
	static const struct {
		const char *id, *kind;
		const char *src[4];
	} want[] = {
		{ "t.mixed", "native", { linux_guide, torch } },
		{ "t.mixed", "container", { linux_guide, torch } },
		{ "t.mixed", "wsl2", { wsl_guide, linux_guide, wsl_issue, torch } },
		{ "t.mixed", NULL, { linux_guide, torch, wsl_guide, wsl_issue } },
		{ "t.mixed", "unknown", { linux_guide, torch, wsl_guide, wsl_issue } },
		{ "t.only_wsl", "native", { wslconfig } },
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		struct finding_view v;
		finding_expand(&v, kb_find_in(&kb, want[i].id), NULL, NULL);
		finding_for_platform(&v, want[i].kind);
		expect_list(want[i].id, want[i].kind, "sources", v.source, v.nsource, want[i].src, 4);
		finding_view_release(&v);
	}
	assert_int_equal(source_platform_of(wsl_guide), FIX_WSL_ONLY);
	assert_int_equal(source_platform_of("https://github.com/nix-community/NixOS-WSL/issues/246"),
			 FIX_WSL_ONLY);
	assert_int_equal(source_platform_of(linux_guide), FIX_ANY_PLATFORM);
	kb_free(&kb);
	sb_release(&err);
}

/* Each result carries the platform its fixes are chosen for, and the plan
 * reads it: no wsl.exe step on native Linux, the same finding's on WSL. */
static void test_plan_platform(void **state)
{
	(void)state;
	static const struct {
		const char *kind;
		bool wsl_step;
	} runs[] = { { "native", false }, { "container", false }, { "wsl2", true }, { NULL, true } };
	for (size_t k = 0; k < sizeof runs / sizeof *runs; k++) {
		struct fake_run fr;
		fake_run_init(&fr);
		if (runs[k].kind)
			res_ev(fake_result(&fr, "platform.kind", ST_PASS, NULL, "here"), "kind", "%s",
			       runs[k].kind);
		struct result *r = fake_result(&fr, "cuda.init", ST_FAIL,
					       KB_CUDA_INIT_NOT_INITIALIZED, "cuInit 3");
		finding_mark_platform(fr.r, fr.n);
		if (runs[k].kind)
			assert_string_equal(r->platform, runs[k].kind);
		else
			assert_null(r->platform);
		struct fix_plan plan;
		fix_plan_build(&plan, fr.r, fr.shown, fr.n, "/home/user");
		assert_int_equal(plan.n, 1);
		bool wsl = false;
		for (size_t j = 0; j < plan.steps[0].ncmd; j++)
			wsl = wsl || strstr(plan.steps[0].cmd[j].text, "wsl.exe") != NULL;
		if (wsl != runs[k].wsl_step)
			fail_msg("on %s: a wsl.exe step %s", runs[k].kind ? runs[k].kind : "unknown",
				 wsl ? "is there" : "is missing");
		/* never first where the platform is unknown */
		assert_true(plan.steps[0].ncmd > 0 && !strstr(plan.steps[0].cmd[0].text, "wsl.exe"));
		fix_plan_release(&plan);
		fake_run_release(&fr);
	}
}

/* A fix line as a line of shell for JSON and Markdown, and its parts. */
static void test_fix_shell(void **state)
{
	(void)state;
	static const struct {
		const char *in, *line, *command, *remark, *where, *kind;
	} rows[] = {
		{ "unset LD_LIBRARY_PATH   (for this shell)", "unset LD_LIBRARY_PATH   # for this shell",
		  "unset LD_LIBRARY_PATH", "for this shell", "linux", "command" },
		{ "sudo ldconfig", "sudo ldconfig", "sudo ldconfig", NULL, "linux", "command" },
		{ "wsl.exe --update   (in PowerShell)", "wsl.exe --update   # in PowerShell",
		  "wsl.exe --update", "in PowerShell", "powershell", "command" },
		{ "update the NVIDIA driver on Windows   (in Windows: NVIDIA app)",
		  "# update the NVIDIA driver on Windows   # in Windows: NVIDIA app", NULL,
		  "in Windows: NVIDIA app", "windows", "instruction" },
		/* a command for another machine: a comment here, its command named */
		{ "on the host: sudo modprobe nvidia   (its error message says why)",
		  "# on the host: sudo modprobe nvidia   # its error message says why",
		  "sudo modprobe nvidia", "its error message says why", "host", "command" },
		{ "on the host: dkms status", "# on the host: dkms status", "dkms status", NULL, "host",
		  "command" },
		{ "dpkg -S DIR   (a template: put in DIR)", "# dpkg -S DIR   # a template: put in DIR",
		  "dpkg -S DIR", "a template: put in DIR", "linux", "template" },
		{ "or, with toolkit 1.18.0 or newer: sudo systemctl restart x.service",
		  "# or, with toolkit 1.18.0 or newer: sudo systemctl restart x.service", NULL, NULL,
		  "linux", "instruction" },
		/* what bash cannot read is words: a remark in the middle, a
		 * parenthesis in an argument's place, an open quote, PowerShell's
		 * call operator */
		{ "wsl.exe --update   (in PowerShell), then wsl.exe --shutdown",
		  "# wsl.exe --update   (in PowerShell), then wsl.exe --shutdown", NULL, NULL,
		  "powershell", "instruction" },
		{ "find the feature in the program's options (IPC, GL interop)",
		  "# find the feature in the program's options (IPC, GL interop)", NULL, NULL, "linux",
		  "instruction" },
		{ "--max-model-len with a smaller value (--tensor-parallel-size)",
		  "# --max-model-len with a smaller value (--tensor-parallel-size)", NULL, NULL, "linux",
		  "instruction" },
		{ "& 'C:\\Docker\\DockerCli.exe' -SwitchLinuxEngine   (in PowerShell)",
		  "# & 'C:\\Docker\\DockerCli.exe' -SwitchLinuxEngine   # in PowerShell", NULL,
		  "in PowerShell", "powershell", "instruction" },
		/* ...and what it can stays a command */
		{ "python3 -c \"import torch; print(torch.cuda.is_available())\"",
		  "python3 -c \"import torch; print(torch.cuda.is_available())\"",
		  "python3 -c \"import torch; print(torch.cuda.is_available())\"", NULL, "linux", "command" },
		{ "echo $(nproc) && (cd /tmp && ls)", "echo $(nproc) && (cd /tmp && ls)",
		  "echo $(nproc) && (cd /tmp && ls)", NULL, "linux", "command" },
		/* a line break in a value never starts a live line */
		{ "cp -a /x ~/   (then read it\nrm -rf /)", "cp -a /x ~/   # then read it" TEXT_LINE_BREAK "rm -rf /",
		  "cp -a /x ~/", "then read it" TEXT_LINE_BREAK "rm -rf /", "linux", "command" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct fix_shell s;
		fix_shell_of(rows[i].in, &s);
		assert_string_equal(s.line, rows[i].line);
		if (rows[i].command)
			assert_string_equal(s.command, rows[i].command);
		else
			assert_null(s.command);
		if (rows[i].remark)
			assert_string_equal(s.remark, rows[i].remark);
		else
			assert_null(s.remark);
		assert_string_equal(s.where, rows[i].where);
		assert_string_equal(s.kind, rows[i].kind);
		fix_shell_release(&s);
	}
}

static void test_plan_cvd(void **state)
{
	(void)state;
	char *d = tu_mkdtemp();
	tu_write_str(d, "home/user/.profile",
		     "export CUDA_VISIBLE_DEVICES=\"\"\n"
		     "export CUDA_VISIBLE_DEVICES=$GPUS\n");
	assert_int_equal(rootfs_set(d), 0);
	struct fake_run fr;
	fake_run_init(&fr);
	struct result *env = fake_result(&fr, "libs.env", ST_FAIL, KB_LIBS_ENV_CVD_HIDDEN,
					 "CUDA_VISIBLE_DEVICES is set to the empty string");
	res_ev(env, "cvd", "%s", "");
	struct fix_plan plan;
	fix_plan_build(&plan, fr.r, fr.shown, fr.n, "/home/user");
	assert_int_equal(plan.n, 1);
	assert_int_equal(plan.steps[0].nedit, 2);
	assert_true(plan.steps[0].edit[0].automatic);
	assert_string_equal(plan.steps[0].edit[0].var, "CUDA_VISIBLE_DEVICES");
	assert_false(plan.steps[0].edit[1].automatic); /* $GPUS: not literal */
	assert_non_null(strstr(plan.steps[0].edit[1].refused, "literally"));
	fix_plan_release(&plan);
	fake_run_release(&fr);
	rootfs_set("/");
	tu_rmtree(d);
	free(d);
}

static void test_edit(void **state)
{
	(void)state;
	char *d = tu_mkdtemp();
	const char *orig = "a\r\nexport LD_LIBRARY_PATH=/s:/k\r\nc";
	tu_write_str(d, "home/u/.bashrc", orig);
	char path[4200];
	snprintf(path, sizeof path, "%s/home/u/.bashrc", d);
	assert_int_equal(chmod(path, 0640), 0);
	assert_int_equal(rootfs_set(d), 0);

	struct line_edit e = { 2, "export LD_LIBRARY_PATH=/s:/k", "export LD_LIBRARY_PATH=/k" };
	struct strbuf backup = STRBUF_INIT, err = STRBUF_INIT;
	assert_int_equal(fix_edit_file("/home/u/.bashrc", &e, 1, "20261202-160000", "by test",
				       &backup, &err), 0);
	char *now = slurp(d, "home/u/.bashrc");
	/* CRLF kept, the line commented out, the corrected line after it. */
	assert_string_equal(now, "a\r\n# by test: export LD_LIBRARY_PATH=/s:/k\r\n"
				 "export LD_LIBRARY_PATH=/k\r\nc");
	free(now);
	char *bak = slurp(d, "home/u/.bashrc.wslgpu-backup-20261202-160000");
	assert_string_equal(bak, orig);
	free(bak);
	assert_non_null(strstr(backup.buf, ".bashrc.wslgpu-backup-20261202-160000"));
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(stat(backup.buf, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);

	/* The file changed since the plan: refused, nothing written. */
	struct line_edit stale = { 2, "export LD_LIBRARY_PATH=/s:/k", NULL };
	assert_int_equal(fix_edit_file("/home/u/.bashrc", &stale, 1, "20261202-160000", "by test",
				       &backup, &err), -1);
	assert_non_null(strstr(err.buf, "not what the plan saw"));
	struct line_edit gone = { 9, "x", NULL };
	assert_int_equal(fix_edit_file("/home/u/.bashrc", &gone, 1, "20261202-160000", "t",
				       &backup, &err), -1);

	/* Same second, another edit: a second backup, the first kept. */
	struct line_edit first = { 1, "a", NULL };
	assert_int_equal(fix_edit_file("/home/u/.bashrc", &first, 1, "20261202-160000", "t",
				       &backup, &err), 0);
	assert_non_null(strstr(backup.buf, ".bashrc.wslgpu-backup-20261202-160000-2"));
	bak = slurp(d, "home/u/.bashrc.wslgpu-backup-20261202-160000");
	assert_string_equal(bak, orig);
	free(bak);

	/* A symlink that points out of the root resolves inside it (rootfs):
	 * the file outside is never touched. */
	char *outside = tu_mkdtemp();
	tu_write_str(outside, "victim", "a\n");
	char target[4200];
	snprintf(target, sizeof target, "%s/victim", outside);
	tu_symlink(d, "home/u/.profile", target);
	struct strbuf host = STRBUF_INIT, why = STRBUF_INIT;
	assert_int_equal(fix_edit_check("/home/u/.profile", &host, &why), -1);
	struct line_edit v = { 1, "a", NULL };
	assert_int_equal(fix_edit_file("/home/u/.profile", &v, 1, "20261202-160000", "t", &backup,
				       &err), -1);
	char *still = slurp(outside, "victim");
	assert_string_equal(still, "a\n");
	free(still);
	/* A symlink inside the root is followed: the target is edited and
	 * stays a file, the link stays a link. */
	tu_write_str(d, "home/u/dotfiles/zshrc", "a\n");
	tu_symlink(d, "home/u/.zshrc", "/home/u/dotfiles/zshrc");
	assert_int_equal(fix_edit_file("/home/u/.zshrc", &v, 1, "20261202-160000", "t", &backup,
				       &err), 0);
	char zpath[4200];
	snprintf(zpath, sizeof zpath, "%s/home/u/.zshrc", d);
	assert_int_equal(lstat(zpath, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	char *z = slurp(d, "home/u/dotfiles/zshrc");
	assert_string_equal(z, "# t: a\n");
	free(z);
	/* Not a regular file. */
	tu_write_str(d, "home/u/.bash_profile/x", "");
	assert_int_equal(fix_edit_check("/home/u/.bash_profile", &host, &why), -1);
	assert_non_null(strstr(why.buf, "not a regular file"));
	/* Someone else's file (root can hand one away to test it). */
	if (geteuid() == 0) {
		tu_write_str(d, "home/u/.zprofile", "a\n");
		char zp[4200];
		snprintf(zp, sizeof zp, "%s/home/u/.zprofile", d);
		assert_int_equal(chown(zp, 4242, 4242), 0);
		assert_int_equal(fix_edit_check("/home/u/.zprofile", &host, &why), -1);
		assert_non_null(strstr(why.buf, "belongs to uid 4242"));
	}
	sb_release(&host);
	sb_release(&why);
	sb_release(&backup);
	sb_release(&err);
	rootfs_set("/");
	tu_rmtree(outside);
	free(outside);
	tu_rmtree(d);
	free(d);
}

/* --version: five lines; the knowledge date of the version tables; a
 * dynamic build loads vendor libraries and skips nothing, and names the
 * libraries it opens at use without linking them. */
static void test_buildinfo(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	buildinfo_describe(&sb);
	size_t lines = 0;
	for (const char *p = sb.buf; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 5);
	assert_non_null(strstr(sb.buf, "\nknowledge: version tables of " KNOWLEDGE_DATE
					", last checked " KNOWLEDGE_CHECKED "\n"));
	assert_non_null(strstr(sb.buf, "\nbuilt with: inih, sqlite 3."));
	assert_non_null(strstr(sb.buf, "(commit "));
	assert_false(buildinfo_is_static());
	assert_non_null(strstr(sb.buf, "\ndlopen at run time: libcuda.so.1, libnvidia-ml.so.1\n"));
	assert_non_null(strstr(sb.buf, "\ndlopen at use: libcurl.so.4 (smoke --push): "));
	assert_non_null(strstr(sb.buf, "; libarchive.so.13 (report): "));
	assert_null(buildinfo_no_vendor_libs());
	assert_null(buildinfo_static_skip("cuda.init"));
	assert_null(buildinfo_static_skip(NULL));
	sb_release(&sb);
}

static const char *follows(struct fake_run *fr, const char *id)
{
	return fr->r[registry_find(id)].consequence_of;
}

/* One root cause, one problem: the three ways a finding follows from
 * another, and that a failure never folds into a warning. */
static void test_consequences(void **state)
{
	(void)state;
	struct fake_run fr;
	/* a container without the GPU: cuda.load still runs (after:
	 * libs.libcuda, held back by libs.wsl_dir, held back by the bridge) */
	fake_run_init(&fr);
	fake_result(&fr, "platform.kind", ST_PASS, NULL, "container");
	fake_result(&fr, "bridge.nvidia_dev", ST_FAIL, KB_BRIDGE_NVIDIA_DEV_CONTAINER, "no nodes");
	res_ev(fake_result(&fr, "libs.wsl_dir", ST_SKIP, NULL, "skipped"), "blocked_by",
	       "bridge.nvidia_dev");
	res_ev(fake_result(&fr, "libs.libcuda", ST_SKIP, NULL, "skipped"), "blocked_by",
	       "libs.wsl_dir");
	fake_result(&fr, "cuda.load", ST_FAIL, KB_CUDA_LOAD_DLOPEN_FAILED, "no libcuda");
	fake_result(&fr, "host.driver_store", ST_FAIL, KB_HOST_DRIVER_STORE_NO_KERNEL_DRIVER,
		    "no kernel driver");
	consequences_mark(fr.r, fr.n);
	assert_null(follows(&fr, "bridge.nvidia_dev"));
	assert_string_equal(follows(&fr, "cuda.load"), "bridge.nvidia_dev");
	assert_string_equal(follows(&fr, "host.driver_store"), "bridge.nvidia_dev");
	assert_true(result_is_root_problem(&fr.r[registry_find("bridge.nvidia_dev")]));
	assert_false(result_is_root_problem(&fr.r[registry_find("cuda.load")]));
	fake_run_release(&fr);

	/* a toolkit too new for a fine driver: the toolkit is the root,
	 * though host.driver comes first */
	fake_run_init(&fr);
	fake_result(&fr, "host.driver", ST_FAIL, KB_HOST_DRIVER_TOOLKIT_TOO_NEW, "13.0.1");
	fake_result(&fr, "toolkit.nvcc", ST_FAIL, KB_TOOLKIT_NVCC_DRIVER_TOO_OLD, "13.0.88");
	consequences_mark(fr.r, fr.n);
	assert_string_equal(follows(&fr, "host.driver"), "toolkit.nvcc");
	assert_null(follows(&fr, "toolkit.nvcc"));
	fake_run_release(&fr);

	/* the same first fix: libs.env's stubs warning under libs.libcuda's
	 * stub failure; a cuda.load that loaded fine stands between nothing */
	fake_run_init(&fr);
	struct result *lc = fake_result(&fr, "libs.libcuda", ST_FAIL, KB_LIBS_LOADER_STUB, "stub");
	res_ev(lc, "resolved", "/usr/local/cuda/lib64/stubs/libcuda.so.1");
	res_ev(lc, "dir", "/usr/local/cuda/lib64/stubs");
	res_ev(lc, "ldpath_fix", "export LD_LIBRARY_PATH=/usr/local/cuda/lib64");
	struct result *env = fake_result(&fr, "libs.env", ST_WARN, KB_LIBS_ENV_STUBS_ON_PATH, "stubs");
	res_ev(env, "stubs", "/usr/local/cuda/lib64/stubs");
	res_ev(env, "ldpath_fix", "export LD_LIBRARY_PATH=/usr/local/cuda/lib64");
	consequences_mark(fr.r, fr.n);
	assert_string_equal(follows(&fr, "libs.env"), "libs.libcuda");
	fake_run_release(&fr);

	/* a failure is never folded into a warning: the run stays failed */
	fake_run_init(&fr);
	const char *ids[] = { "libs.libcuda", "libs.libnvml" };
	for (int k = 0; k < 2; k++) {
		struct result *x = fake_result(&fr, ids[k], k ? ST_FAIL : ST_WARN, KB_LIBS_LOADER_STUB,
					       "stub");
		res_ev(x, "resolved", "/usr/local/cuda/lib64/stubs/libcuda.so.1");
		res_ev(x, "dir", "/usr/local/cuda/lib64/stubs");
		res_ev(x, "ldpath_fix", "export LD_LIBRARY_PATH=/usr/local/cuda/lib64");
	}
	consequences_mark(fr.r, fr.n);
	assert_null(follows(&fr, "libs.libnvml"));
	/* the other way round it folds */
	fr.r[registry_find("libs.libcuda")].status = ST_FAIL;
	consequences_mark(fr.r, fr.n);
	assert_string_equal(follows(&fr, "libs.libnvml"), "libs.libcuda");
	fake_run_release(&fr);
}


/* A fix line as its user can type it: root drops sudo, a user without
 * sudo gets the command and the remark to run it as root (issue 29). */
static void test_for_user(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		enum fix_user u;
		const char *want;
	} rows[] = {
		{ "sudo apt-get install cuda-toolkit-12-4", FIX_USER_SUDO,
		  "sudo apt-get install cuda-toolkit-12-4" },
		{ "sudo apt-get install cuda-toolkit-12-4", FIX_USER_KEEP,
		  "sudo apt-get install cuda-toolkit-12-4" },
		{ "sudo apt-get install cuda-toolkit-12-4", FIX_USER_ROOT,
		  "apt-get install cuda-toolkit-12-4" },
		{ "sudo apt-get install cuda-toolkit-12-4", FIX_USER_NO_SUDO,
		  "apt-get install cuda-toolkit-12-4   (" FIX_AS_ROOT_REMARK ")" },
		/* every command of a line, and inside $( ) */
		{ "echo /usr/lib/wsl/lib | sudo tee /etc/ld.so.conf.d/ld.wsl.conf && sudo ldconfig   "
		  "(to restore it at once)", FIX_USER_ROOT,
		  "echo /usr/lib/wsl/lib | tee /etc/ld.so.conf.d/ld.wsl.conf && ldconfig   "
		  "(to restore it at once)" },
		{ "sudo rm /dev/nvidia0; sudo nvidia-modprobe -c=0 -u", FIX_USER_ROOT,
		  "rm /dev/nvidia0; nvidia-modprobe -c=0 -u" },
		{ "x=$(sudo cat /etc/shadow)", FIX_USER_ROOT, "x=$(cat /etc/shadow)" },
		{ "sudo -E env | grep CUDA", FIX_USER_ROOT, "env | grep CUDA" },
		{ "sudo sh -c 'command -v nvidia-smi'", FIX_USER_ROOT, "sh -c 'command -v nvidia-smi'" },
		/* other options than -E mean more than root: as written */
		{ "sudo -u postgres psql", FIX_USER_ROOT, "sudo -u postgres psql" },
		{ "sudoedit /etc/wsl.conf   (under [gpu] set enabled=true)", FIX_USER_ROOT,
		  "${EDITOR:-vi} /etc/wsl.conf   (under [gpu] set enabled=true)" },
		{ "sudoedit /etc/wsl.conf   (under [gpu] set enabled=true)", FIX_USER_NO_SUDO,
		  "${EDITOR:-vi} /etc/wsl.conf   (under [gpu] set enabled=true)   (" FIX_AS_ROOT_REMARK
		  ")" },
		/* a command inside the remark, and inside words */
		{ "grep -rn stubs /etc/ld.so.conf.d/   (remove a line naming it, then: sudo ldconfig)",
		  FIX_USER_ROOT, "grep -rn stubs /etc/ld.so.conf.d/   (remove a line naming it, then: ldconfig)" },
		{ "add \"cdi\" to /etc/docker/daemon.json, then sudo systemctl restart docker",
		  FIX_USER_ROOT, "add \"cdi\" to /etc/docker/daemon.json, then systemctl restart docker" },
		/* words about sudo are no command */
		{ "sudo /usr/lib/wsl/lib/nvidia-smi   (sudo resets PATH)", FIX_USER_ROOT,
		  "/usr/lib/wsl/lib/nvidia-smi   (sudo resets PATH)" },
		{ "dpkg -S /x   (which package installed it; remove it with sudo apt-get remove --purge)",
		  FIX_USER_ROOT,
		  "dpkg -S /x   (which package installed it; remove it with sudo apt-get remove --purge)" },
		{ "pseudo sudoku", FIX_USER_ROOT, "pseudo sudoku" },
		/* another machine keeps its own sudo */
		{ "on the host: sudo modprobe nvidia   (its error message says why)", FIX_USER_ROOT,
		  "on the host: sudo modprobe nvidia   (its error message says why)" },
		{ "podman run --device nvidia.com/gpu=all IMAGE   (CDI; after sudo nvidia-ctk cdi "
		  "generate on the host)", FIX_USER_NO_SUDO,
		  "podman run --device nvidia.com/gpu=all IMAGE   (CDI; after sudo nvidia-ctk cdi "
		  "generate on the host)" },
		{ "wsl.exe -u root -e sudo ldconfig   (in PowerShell)", FIX_USER_ROOT,
		  "wsl.exe -u root -e sudo ldconfig   (in PowerShell)" },
	};
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		bool changed = fix_for_user(rows[i].line, rows[i].u, &sb);
		if (strcmp(sb.buf, rows[i].want))
			fail_msg("row %zu: %s\n got: %s\nwant: %s", i, rows[i].line, sb.buf, rows[i].want);
		assert_int_equal(changed, strcmp(rows[i].line, rows[i].want) != 0);
	}
	/* the remark keeps the line's need for root */
	struct fix_command c;
	fix_for_user("sudo ldconfig", FIX_USER_NO_SUDO, &sb);
	fix_classify(sb.buf, &c);
	assert_true(c.needs_root);
	assert_string_equal(c.text, "ldconfig");
	free(c.text);
	free(c.note);
	sb_release(&sb);

	/* Who: the effective uid (WSLGPU_TEST_EUID stands for it), then sudo
	 * on the described machine's PATH. */
	char *d = tu_mkdtemp();
	tu_write_str(d, "etc/hostname", "m\n");
	assert_int_equal(rootfs_set(d), 0);
	char *path = getenv("PATH") ? xstrdup(getenv("PATH")) : NULL;
	setenv("PATH", "/usr/sbin:/usr/bin", 1);
	setenv("WSLGPU_TEST_EUID", "0", 1);
	assert_int_equal(fix_user_detect(), FIX_USER_ROOT);
	setenv("WSLGPU_TEST_EUID", "1000", 1);
	assert_int_equal(fix_user_detect(), FIX_USER_NO_SUDO);
	tu_write_str(d, "usr/bin/sudo", "#!/bin/sh\n");
	struct strbuf p = STRBUF_INIT;
	sb_addf(&p, "%s/usr/bin/sudo", d);
	assert_int_equal(chmod(p.buf, 0755), 0);
	sb_release(&p);
	assert_int_equal(fix_user_detect(), FIX_USER_SUDO);
	/* decided once, at first use */
	fix_user_set(FIX_USER_DETECT);
	assert_int_equal(fix_user_get(), FIX_USER_SUDO);
	setenv("WSLGPU_TEST_EUID", "0", 1);
	assert_int_equal(fix_user_get(), FIX_USER_SUDO);

	/* Every view reads a fix through finding_expand: with a machine's
	 * evidence the line is the user's, without it the KB's. */
	fix_user_set(FIX_USER_ROOT);
	struct evidence ev = { 0 };
	ev_add(&ev, "package", "libnvidia-compute-535");
	struct finding_view v;
	finding_expand(&v, kb_find(KB_LIBS_LOADER_DISTRO_PACKAGE), &ev, "libs.libcuda");
	assert_true(v.nfix > 0);
	for (size_t i = 0; i < v.nfix; i++)
		assert_null(strstr(v.fix[i], "sudo "));
	finding_view_release(&v);
	finding_expand(&v, kb_find(KB_LIBS_LOADER_DISTRO_PACKAGE), NULL, NULL);
	assert_non_null(strstr(v.fix[0], "sudo "));
	finding_view_release(&v);
	ev_release(&ev);
	fix_user_set(FIX_USER_KEEP);

	unsetenv("WSLGPU_TEST_EUID");
	if (path) {
		setenv("PATH", path, 1);
		free(path);
	}
	rootfs_set("/");
	tu_rmtree(d);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_assigns),
		cmocka_unit_test(test_value_dirs),
		cmocka_unit_test(test_scan),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_platform_of_line),
		cmocka_unit_test(test_finding_for_platform),
		cmocka_unit_test(test_cause_text_for),
		cmocka_unit_test(test_sources_for_platform),
		cmocka_unit_test(test_plan_platform),
		cmocka_unit_test(test_for_user),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_plan_cvd),
		cmocka_unit_test(test_plan_unknown),
		cmocka_unit_test(test_fix_shell),
		cmocka_unit_test(test_consequences),
		cmocka_unit_test(test_edit),
		cmocka_unit_test(test_buildinfo),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
