/* test_fwadvice.c: which PyTorch wheel index a driver and GPU get, how a
 * framework's install kind is read from the probe's facts, and the fix
 * each kind gets (src/probes/fwadvice.h), as tables. */
#include "testutil.h"

#include "parse/pyprobe.h"
#include "probes/fwadvice.h"

/* ---- the wheel index: compute capability and driver together ---- */

static void test_torch_tag(void **state)
{
	(void)state;
	static const struct {
		int dmaj, dmin, ccmaj, ccmin;
		const char *tag;
	} t[] = {
		/* Unknown GPU: the newest wheel of PyTorch 2.14 the driver runs
		 * (cu128 is gone from 2.12 on). */
		{ 13, 2, 0, 0, "cu132" },  { 13, 0, 0, 0, "cu130" },  { 13, 1, 0, 0, "cu130" },
		{ 12, 9, 0, 0, "cu126" },  { 12, 8, 0, 0, "cu126" },
		{ 12, 6, 0, 0, "cu126" },  { 12, 4, 0, 0, "cu126" },  { 12, 0, 0, 0, "cu126" },
		{ 11, 8, 0, 0, "cu118" },  { 11, 4, 0, 0, "cu118" },  { 0, 0, 0, 0, "cu126" },
		/* Maxwell, Pascal, Volta: cu126 whatever the driver (CUDA 13
		 * wheels need sm_75; cu128 lacked sm_50/60, from 2.11 sm_70). */
		{ 13, 0, 6, 1, "cu126" },  { 13, 1, 5, 2, "cu126" },  { 12, 8, 6, 0, "cu126" },
		{ 12, 9, 7, 0, "cu126" },  { 13, 0, 7, 2, "cu126" },  { 12, 4, 6, 1, "cu126" },
		{ 11, 8, 6, 1, "cu118" },  { 0, 0, 6, 1, "cu126" },   { 13, 5, 6, 1, "cu126" },
		/* Turing to Hopper: by the driver. */
		{ 13, 0, 7, 5, "cu130" },  { 12, 8, 8, 6, "cu126" },  { 12, 4, 8, 9, "cu126" },
		{ 13, 0, 9, 0, "cu130" },  { 11, 8, 8, 6, "cu118" },  { 13, 2, 8, 6, "cu132" },
		/* A driver newer than the tables: the newest wheel they know. */
		{ 14, 0, 8, 6, "cu132" },
		/* Blackwell: CUDA 13 wheels on an R580+ driver; on a CUDA 12
		 * driver cu128 (PyTorch 2.11 at most), even on 12.4 (minor-
		 * version compatibility). */
		{ 12, 4, 12, 0, "cu128" }, { 12, 8, 10, 0, "cu128" }, { 13, 0, 12, 0, "cu130" },
		{ 0, 0, 12, 0, "cu130" },  { 13, 2, 12, 1, "cu132" }, { 12, 9, 12, 0, "cu128" },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		const char *got = fw_torch_tag(t[i].dmaj, t[i].dmin, t[i].ccmaj, t[i].ccmin);
		if (strcmp(got, t[i].tag) != 0)
			fail_msg("driver %d.%d, sm_%d%d: %s, want %s", t[i].dmaj, t[i].dmin,
				 t[i].ccmaj, t[i].ccmin, got, t[i].tag);
	}
}

/* Which PyTorch the advice yields, and why, in the user's words. */
static void test_torch_words(void **state)
{
	(void)state;
	static const struct {
		int dmaj, dmin, ccmaj, ccmin;
		const char *const want[4];
	} t[] = {
		{ 13, 0, 6, 1,
		  { "cu126 gets PyTorch 2.14, the last release with cu126 wheels (for compute capability 6.1)",
		    "PyTorch announced that 2.15 brings none for this GPU",
		    "a plain pip install torch (CUDA 13.2 from PyPI, PyTorch 2.14) has no kernels for this GPU",
		    "R580 is NVIDIA's last driver branch for this GPU" } },
		{ 12, 8, 8, 6,
		  { "cu126 gets PyTorch 2.14, the last release with cu126 wheels",
		    "a plain pip install torch (CUDA 13.2 from PyPI, PyTorch 2.14) needs a driver for CUDA 13.2 (R580 or newer)",
		    NULL } },
		{ 13, 2, 8, 9, { "cu132 gets PyTorch 2.14", "it is also what pip install torch gets from PyPI", NULL } },
		{ 12, 8, 12, 0,
		  { "cu128 gets PyTorch 2.11, the last release with cu128 wheels",
		    "PyTorch 2.14 needs a driver for CUDA 13.0 (R580 or newer)", NULL } },
		{ 11, 8, 7, 5,
		  { "cu118 gets PyTorch 2.7, the last release with cu118 wheels",
		    "PyTorch 2.14 needs a driver for CUDA 12.6 (R525 or newer)", NULL } },
		{ 14, 0, 8, 6,
		  { "cu132 gets PyTorch 2.14",
		    "the driver's CUDA 14.0 is newer than this tool's knowledge of 2026-12 (its table ends at CUDA 13.5 GA)",
		    NULL } },
		{ 12, 4, 8, 6, { "it runs on this driver by minor-version compatibility", NULL } },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct torch_pick p;
		struct strbuf w = STRBUF_INIT;
		fw_torch_pick(t[i].dmaj, t[i].dmin, t[i].ccmaj, t[i].ccmin, &p);
		fw_torch_words(&p, &w);
		for (size_t k = 0; k < 4 && t[i].want[k]; k++)
			if (!strstr(w.buf, t[i].want[k]))
				fail_msg("driver %d.%d, sm_%d%d: \"%s\" lacks \"%s\"", t[i].dmaj, t[i].dmin,
					 t[i].ccmaj, t[i].ccmin, w.buf, t[i].want[k]);
		sb_release(&w);
	}
}

/* JAX and CuPy: a CUDA 13 build only on a 13.x driver and a GPU CUDA 13
 * still builds for (Turing, 7.5, or newer). */
static void test_jax_cupy_builds(void **state)
{
	(void)state;
	assert_string_equal(fw_jax_extra(13, 86), "cuda13");
	assert_string_equal(fw_jax_extra(13, 0), "cuda13");
	assert_string_equal(fw_jax_extra(13, 61), "cuda12"); /* Pascal on R580 */
	assert_string_equal(fw_jax_extra(12, 86), "cuda12");
	assert_string_equal(fw_jax_extra(14, 120), "cuda13");
	assert_string_equal(fw_jax_extra(0, 0), "cuda12");
	assert_int_equal(fw_cupy_cuda(13, 89), 13);
	assert_int_equal(fw_cupy_cuda(13, 70), 12); /* Volta on R580 */
	assert_int_equal(fw_cupy_cuda(12, 89), 12);
	assert_int_equal(fw_cupy_cuda(11, 0), 11);
	assert_int_equal(fw_cupy_cuda(14, 0), 13);
	assert_int_equal(fw_cupy_cuda(0, 0), 12);
}

/* ---- install kinds and their fixes ---- */

/* A snapshot from a JSON object's members (the probe's last line). */
static void snap(const char *members, struct pyprobe *p)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "@@wslgpu-pyprobe@@ {\"probe\": \"wslgpu-pyprobe/1\", \"stage\": \"done\"%s%s}\n",
		*members ? ", " : "", members);
	assert_int_equal(pyprobe_parse(sb.buf, sb.len, p), 0);
	sb_release(&sb);
}

#define SYS "\"prefix\": \"/usr\", \"base_prefix\": \"/usr\", \"has_pip\": true, \"has_ensurepip\": true, "
#define EM "\"externally_managed\": \"/usr/lib/python3.12/EXTERNALLY-MANAGED\", "
#define VENV "\"prefix\": \"/home/u/venv\", \"base_prefix\": \"/usr\", "

static void test_install_kinds(void **state)
{
	(void)state;
	static const char IDX[] = "--index-url https://download.pytorch.org/whl/cu126";
	static const struct {
		const char *facts;
		const char *dpkg; /* dpkg's owner of the module file */
		const char *kind;
		bool em;
		const char *fix;  /* torch's install_fix; %s is IDX */
	} t[] = {
		/* An older probe: no facts; plain pip as before. */
		{ "", NULL, "unknown", false,
		  "/usr/bin/python3 -m pip install --upgrade --force-reinstall torch %s" },
		/* Debian's python3-torch on an externally managed python3. */
		{ SYS EM "\"module_file\": \"/usr/lib/python3/dist-packages/torch/__init__.py\", "
		      "\"site_dir\": \"/usr/lib/python3/dist-packages\"",
		  "python3-torch", "distro", true,
		  "/usr/bin/python3 -m venv ~/venvs/torch && ~/venvs/torch/bin/python -m pip install torch %s" },
		/* The same without the marker (Ubuntu 22.04): still not pip over apt. */
		{ SYS "\"module_file\": \"/usr/lib/python3/dist-packages/torch/__init__.py\", "
		      "\"site_dir\": \"/usr/lib/python3/dist-packages\"",
		  "python3-torch", "distro", false,
		  "/usr/bin/python3 -m venv ~/venvs/torch && ~/venvs/torch/bin/python -m pip install torch %s" },
		/* Fedora's RPM writes INSTALLER rpm. */
		{ SYS "\"module_file\": \"/usr/lib64/python3.12/site-packages/torch/__init__.py\", "
		      "\"installer\": \"rpm\"",
		  NULL, "distro", false,
		  "/usr/bin/python3 -m venv ~/venvs/torch && ~/venvs/torch/bin/python -m pip install torch %s" },
		/* pip in a venv; a venv ignores the base's marker. */
		{ VENV EM "\"has_pip\": true, \"installer\": \"pip\", "
		      "\"module_file\": \"/home/u/venv/lib/python3.12/site-packages/torch/__init__.py\"",
		  NULL, "venv", false,
		  "/usr/bin/python3 -m pip install --upgrade --force-reinstall torch %s" },
		/* A venv whose pip was left out. */
		{ VENV "\"has_pip\": false, \"installer\": \"pip\", "
		      "\"module_file\": \"/home/u/venv/lib/python3.12/site-packages/torch/__init__.py\"",
		  NULL, "venv", false,
		  "/usr/bin/python3 -m ensurepip && /usr/bin/python3 -m pip install --upgrade --force-reinstall torch %s" },
		/* uv's venv (pyvenv.cfg says uv = ...), no pip. */
		{ VENV "\"venv.uv\": \"0.5.11\", \"installer\": \"uv\", "
		      "\"module_file\": \"/home/u/venv/lib/python3.12/site-packages/torch/__init__.py\"",
		  NULL, "uv", false, "uv pip install --python /usr/bin/python3 --reinstall torch %s" },
		/* pipx's application venv. */
		{ "\"prefix\": \"/home/u/.local/share/pipx/venvs/whisperx\", \"base_prefix\": \"/usr\", "
		  "\"has_pip\": true, \"installer\": \"pip\", \"module_file\": \"/home/u/.local/share/"
		  "pipx/venvs/whisperx/lib/python3.12/site-packages/torch/__init__.py\"",
		  NULL, "pipx", false, "pipx runpip whisperx install --upgrade --force-reinstall torch %s" },
		/* conda's own package: conda-forge's CUDA build. */
		{ "\"prefix\": \"/opt/conda/envs/ml\", \"base_prefix\": \"/opt/conda/envs/ml\", "
		  "\"conda_meta\": \"/opt/conda/envs/ml/conda-meta\", \"conda_package\": "
		  "\"pytorch-2.5.1-py3.12_cpu_0\", \"installer\": \"conda\", \"module_file\": "
		  "\"/opt/conda/envs/ml/lib/python3.12/site-packages/torch/__init__.py\"",
		  NULL, "conda", false, "conda install -p /opt/conda/envs/ml -c conda-forge 'pytorch=*=*cuda*'" },
		/* pip's torch in a conda environment: pip inside it. */
		{ "\"prefix\": \"/opt/conda\", \"base_prefix\": \"/opt/conda\", \"has_pip\": true, "
		  "\"conda_meta\": \"/opt/conda/conda-meta\", \"installer\": \"pip\", \"module_file\": "
		  "\"/opt/conda/lib/python3.12/site-packages/torch/__init__.py\"",
		  NULL, "conda-pip", false, "/usr/bin/python3 -m pip install --upgrade --force-reinstall torch %s" },
		/* pip --user: --user on a plain system, a venv where PEP 668 refuses --user too. */
		{ SYS "\"installer\": \"pip\", \"user_site\": \"/home/u/.local/lib/python3.10/site-packages\", "
		      "\"module_file\": \"/home/u/.local/lib/python3.10/site-packages/torch/__init__.py\"",
		  NULL, "user", false, "/usr/bin/python3 -m pip install --user --upgrade --force-reinstall torch %s" },
		{ SYS EM "\"installer\": \"pip\", \"user_site\": \"/home/u/.local/lib/python3.12/site-packages\", "
		      "\"module_file\": \"/home/u/.local/lib/python3.12/site-packages/torch/__init__.py\"",
		  NULL, "user", true,
		  "/usr/bin/python3 -m venv ~/venvs/torch && ~/venvs/torch/bin/python -m pip install torch %s" },
		/* pip as root into a container's own Python: pip there. */
		{ SYS "\"installer\": \"pip\", \"site_writable\": true, \"module_file\": "
		      "\"/usr/local/lib/python3.12/site-packages/torch/__init__.py\"",
		  NULL, "system", false, "/usr/bin/python3 -m pip install --upgrade --force-reinstall torch %s" },
		/* ...but not as a user who cannot write there. */
		{ SYS "\"installer\": \"pip\", \"site_writable\": false, \"module_file\": "
		      "\"/usr/local/lib/python3.10/dist-packages/torch/__init__.py\"",
		  NULL, "system", false,
		  "/usr/bin/python3 -m venv ~/venvs/torch && ~/venvs/torch/bin/python -m pip install torch %s" },
		/* --break-system-packages into /usr/local under PEP 668. */
		{ SYS EM "\"installer\": \"pip\", \"site_writable\": true, \"module_file\": "
		      "\"/usr/local/lib/python3.12/dist-packages/torch/__init__.py\"",
		  NULL, "system", true,
		  "/usr/bin/python3 -m venv ~/venvs/torch && ~/venvs/torch/bin/python -m pip install torch %s" },
		/* A Windows python.exe through interop: Windows' pip. */
		{ "\"platform\": \"win32\", \"executable\": \"C:\\\\Python312\\\\python.exe\", "
		  "\"module_file\": \"C:\\\\Python312\\\\Lib\\\\site-packages\\\\torch\\\\__init__.py\"",
		  NULL, "windows", false, "/usr/bin/python3 -m pip install --upgrade --force-reinstall torch %s" },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct pyprobe p;
		snap(t[i].facts, &p);
		struct fw_origin o;
		fw_origin_judge(&p, t[i].dpkg, &o);
		if (strcmp(fw_install_name(o.kind), t[i].kind) != 0)
			fail_msg("case %zu: kind %s, want %s", i, fw_install_name(o.kind), t[i].kind);
		if (o.externally_managed != t[i].em)
			fail_msg("case %zu: externally_managed %d", i, o.externally_managed);
		struct fw_want w = { "torch", "/usr/bin/python3", "torch", IDX, true,
				     "'pytorch=*=*cuda*'", false };
		struct strbuf cmd = STRBUF_INIT, want = STRBUF_INIT;
		fw_install_cmd(&o, &w, &cmd);
		sb_addf(&want, t[i].fix, IDX);
		if (strcmp(cmd.buf, want.buf) != 0)
			fail_msg("case %zu (%s):\n got  %s\n want %s", i, t[i].kind, cmd.buf, want.buf);
		/* Never a plain pip into an externally managed interpreter. */
		if (o.externally_managed)
			assert_null(strstr(cmd.buf, "/usr/bin/python3 -m pip install"));
		sb_release(&cmd);
		sb_release(&want);
		pyprobe_free(&p);
	}
}

static void test_repair_and_quoting(void **state)
{
	(void)state;
	struct pyprobe p;
	struct fw_origin o;
	struct strbuf cmd = STRBUF_INIT;
	struct fw_want w = { "torch", "/mnt/c/Program Files/Python312/python.exe", "torch", NULL,
			     true, "'pytorch=*=*cuda*'", true };
	/* A path with a space stays one word. */
	snap("\"platform\": \"win32\", \"module_file\": \"C:/x/torch/__init__.py\"", &p);
	fw_origin_judge(&p, NULL, &o);
	fw_install_cmd(&o, &w, &cmd);
	assert_string_equal(cmd.buf, "'/mnt/c/Program Files/Python312/python.exe' -m pip install "
				     "--upgrade --force-reinstall torch");
	pyprobe_free(&p);

	/* dpkg's package: apt reinstalls it, dpkg verifies it. */
	w.python = "/usr/bin/python3";
	snap(SYS EM "\"module_file\": \"/usr/lib/python3/dist-packages/torch/__init__.py\", "
		    "\"has_ensurepip\": false, \"dist\": \"torch\"", &p);
	fw_origin_judge(&p, "python3-torch", &o);
	sb_reset(&cmd);
	fw_repair_cmd(&o, &w, &cmd);
	assert_string_equal(cmd.buf, "sudo apt-get install --reinstall python3-torch");
	sb_reset(&cmd);
	fw_check_cmd(&o, &w, &cmd);
	assert_string_equal(cmd.buf, "dpkg --verify python3-torch   (no output: its files are intact)");
	/* No ensurepip on a dpkg system: python3-venv first. */
	sb_reset(&cmd);
	fw_install_cmd(&o, &w, &cmd);
	assert_string_equal(cmd.buf, "sudo apt-get install python3-venv && /usr/bin/python3 -m venv "
				     "~/venvs/torch && ~/venvs/torch/bin/python -m pip install torch");
	pyprobe_free(&p);

	/* conda's package: conda reinstalls it by name. */
	snap("\"prefix\": \"/opt/conda\", \"base_prefix\": \"/opt/conda\", \"conda_meta\": "
	     "\"/opt/conda/conda-meta\", \"conda_package\": \"pytorch-2.5.1-py3.12_cuda12.4_0\", "
	     "\"module_file\": \"/opt/conda/lib/python3.12/site-packages/torch/__init__.py\"", &p);
	fw_origin_judge(&p, NULL, &o);
	sb_reset(&cmd);
	fw_repair_cmd(&o, &w, &cmd);
	assert_string_equal(cmd.buf, "conda install -p /opt/conda --force-reinstall pytorch");
	pyprobe_free(&p);

	/* pip in a venv: pip check, and pip reinstalls the installed dist. */
	snap(VENV "\"has_pip\": true, \"installer\": \"pip\", \"dist\": \"cupy-cuda12x\", "
	     "\"module_file\": \"/home/u/venv/lib/python3.12/site-packages/cupy/__init__.py\"", &p);
	fw_origin_judge(&p, NULL, &o);
	struct fw_want c = { "cupy", "/home/u/venv/bin/python", "cupy-cuda13x", NULL, false, "cupy", false };
	sb_reset(&cmd);
	fw_repair_cmd(&o, &c, &cmd);
	assert_string_equal(cmd.buf, "/home/u/venv/bin/python -m pip install --upgrade --force-reinstall cupy-cuda12x");
	sb_reset(&cmd);
	fw_check_cmd(&o, &c, &cmd);
	assert_string_equal(cmd.buf, "/home/u/venv/bin/python -m pip check");
	pyprobe_free(&p);

	/* A distribution's copy hides the user's: stop importing it. */
	snap(SYS "\"module_file\": \"/usr/lib/python3/dist-packages/torch/__init__.py\"", &p);
	fw_origin_judge(&p, "python3-torch", &o);
	static const struct {
		const char *pythonpath, *want;
	} sh[] = {
		{ "/usr/lib/python3/dist-packages", "unset PYTHONPATH   (also where it is set, such as "
		  "~/.bashrc: it puts /usr/lib/python3/dist-packages, the distribution's copy, first)" },
		{ "/opt/ros/lib:/usr/lib/python3/dist-packages:", "export PYTHONPATH=/opt/ros/lib   (also "
		  "where it is set, such as ~/.bashrc: it puts /usr/lib/python3/dist-packages, the "
		  "distribution's copy, first)" },
		{ NULL, "sudo apt-get remove python3-torch" },
		{ "/opt/ros/lib", "sudo apt-get remove python3-torch" },
	};
	for (size_t i = 0; i < sizeof sh / sizeof sh[0]; i++) {
		sb_reset(&cmd);
		assert_true(fw_shadow_cmd(&o, "/usr/lib/python3/dist-packages", sh[i].pythonpath, &cmd));
		assert_string_equal(cmd.buf, sh[i].want);
	}
	pyprobe_free(&p);
	/* Not a distribution's copy: nothing to stop. */
	snap(VENV "\"module_file\": \"/home/u/venv/lib/python3.12/site-packages/torch/__init__.py\"", &p);
	fw_origin_judge(&p, NULL, &o);
	sb_reset(&cmd);
	assert_false(fw_shadow_cmd(&o, "/home/u/venv/lib/python3.12/site-packages", NULL, &cmd));
	pyprobe_free(&p);

	sb_reset(&cmd);
	fw_shell_word(&cmd, "it's");
	assert_string_equal(cmd.buf, "'it'\\''s'");
	sb_release(&cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_torch_tag),
		cmocka_unit_test(test_torch_words),
		cmocka_unit_test(test_jax_cupy_builds),
		cmocka_unit_test(test_install_kinds),
		cmocka_unit_test(test_repair_and_quoting),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
