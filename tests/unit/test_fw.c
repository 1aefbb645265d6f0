/* test_fw.c: the toolkit, frameworks and containers layers' pure parts —
 * the JSON scanner, the framework probe's output parser (hostile inputs),
 * the arch-list coverage rule, dpkg's status file and GPU package classes,
 * apt sources, docker info and nvidia-container-cli info, nvcc --version,
 * KB signatures, and the embedded probe script against its source. */
#include "testutil.h"

#include "kb/kb.h"
#include "parse/aptsources.h"
#include "parse/cudaarch.h"
#include "parse/dockerinfo.h"
#include "parse/dpkgstatus.h"
#include "parse/jsonscan.h"
#include "parse/nvccver.h"
#include "parse/pyprobe.h"
#include "probes/pyprobe_script.h"
#include "explain/matcher.h"
#include "kb_ids.h"

/* ---- jsonscan ---- */

static void test_jsonscan(void **state)
{
	(void)state;
	struct js_val v, k, e;
	struct strbuf sb = STRBUF_INIT;
	const char *t = " {\"a\": [1, -2.5e3, true, null], \"b\\u00e9\": \"x\\ny\\\"\", \"c\": {}} ";
	assert_int_equal(js_parse_all(t, strlen(t), &v), 0);
	assert_int_equal(v.type, JS_OBJECT);
	assert_int_equal(js_object_get(&v, "a", &e), 0);
	assert_int_equal(e.type, JS_ARRAY);
	size_t pos = 0;
	int n = 0;
	while (js_array_next(&e, &pos, &k) == 1)
		n++;
	assert_int_equal(n, 4);
	assert_int_equal(js_object_get(&v, "b\xc3\xa9", &e), 0);
	assert_int_equal(js_string(&e, &sb), 0);
	assert_string_equal(sb.buf, "x\ny\"");
	assert_int_equal(js_object_get(&v, "missing", &e), -1);
	/* Surrogate pairs decode to one character; lone ones and \u0000 to U+FFFD. */
	const char *s = "\"\\ud83d\\ude00|\\ud800|\\u0000\"";
	assert_int_equal(js_parse_all(s, strlen(s), &v), 0);
	assert_int_equal(js_string(&v, &sb), 0);
	assert_string_equal(sb.buf, "\xf0\x9f\x98\x80|\xef\xbf\xbd|\xef\xbf\xbd");

	/* Invalid: truncated, trailing junk, bad escapes, raw control bytes,
	 * leading zeros, bare words, too deep. */
	static const char *const bad[] = { "{", "{\"a\":}", "[1,]", "{\"a\" 1}", "\"\\x\"",
					   "\"a\nb\"", "01", "tru", "nul", "-", "1.", "1e",
					   "{\"a\":1,}", "\"\\u12g4\"", "[1 2]", "" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(js_parse_all(bad[i], strlen(bad[i]), &v), -1);
	assert_int_equal(js_parse_all("[1] x", 5, &v), -1);
	char deep[200];
	memset(deep, '[', 100);
	memset(deep + 100, ']', 100);
	assert_int_equal(js_parse_all(deep, 200, &v), -1);
	memset(deep, '[', 60);
	memset(deep + 60, ']', 60);
	assert_int_equal(js_parse_all(deep, 120, &v), 0);
	/* Bounded by len: a valid prefix followed by what len cuts off. */
	assert_int_equal(js_parse_all("{\"a\":1}", 6, &v), -1);
	/* js_string on non-strings gives the JSON text. */
	assert_int_equal(js_parse_all("12.5", 4, &v), 0);
	js_string(&v, &sb);
	assert_string_equal(sb.buf, "12.5");
	sb_release(&sb);
}

/* ---- pyprobe ---- */

static void test_pyprobe_normal(void **state)
{
	(void)state;
	const char *out =
		"@@wslgpu-pyprobe@@ {\"probe\": \"wslgpu-pyprobe/1\", \"stage\": \"start\"}\n"
		"@@wslgpu-pyprobe@@ {\"probe\": \"wslgpu-pyprobe/1\", \"stage\": \"import\"}\n"
		"@@wslgpu-pyprobe@@ {\"arch_list\": [\"sm_50\", \"sm_86\", \"compute_90\"], "
		"\"available\": true, \"cpu_only\": false, \"cuda_build\": \"12.4\", "
		"\"device.0.cc\": \"8.6\", \"nothing\": null, \"nested\": {\"x\": 1}, "
		"\"Bad-Key\": \"x\", \"stage\": \"done\", \"n\": 3}\n";
	struct pyprobe p;
	assert_int_equal(pyprobe_parse(out, strlen(out), &p), 0);
	assert_int_equal(p.snapshots, 3);
	assert_string_equal(pyprobe_get(&p, "stage"), "done");
	assert_string_equal(pyprobe_get(&p, "arch_list"), "sm_50 sm_86 compute_90");
	assert_true(pyprobe_true(&p, "available"));
	assert_false(pyprobe_true(&p, "cpu_only"));
	assert_string_equal(pyprobe_get(&p, "device.0.cc"), "8.6");
	assert_string_equal(pyprobe_get(&p, "n"), "3");
	assert_null(pyprobe_get(&p, "nothing"));
	assert_null(pyprobe_get(&p, "nested"));
	assert_null(pyprobe_get(&p, "Bad-Key"));
	assert_null(pyprobe_get(&p, "probe")); /* not in the last snapshot */
	pyprobe_free(&p);
}

static void test_pyprobe_hostile(void **state)
{
	(void)state;
	struct pyprobe p;
	/* Nothing, garbage, "not python". */
	assert_int_equal(pyprobe_parse(NULL, 0, &p), -ENOENT);
	pyprobe_free(&p);
	assert_int_equal(pyprobe_parse("", 0, &p), -ENOENT);
	pyprobe_free(&p);
	const char junk[] = "not python\n\x01\x02\xff\xfe\0\0garbage {\"stage\": \"done\"}\n";
	assert_int_equal(pyprobe_parse(junk, sizeof junk - 1, &p), -ENOENT);
	pyprobe_free(&p);
	/* A marker whose JSON is cut off (the process was killed mid-line). */
	const char *cut = "@@wslgpu-pyprobe@@ {\"stage\": \"imp";
	assert_int_equal(pyprobe_parse(cut, strlen(cut), &p), -EINVAL);
	assert_int_equal(p.bad_lines, 1);
	pyprobe_free(&p);
	/* The last valid snapshot wins over a later broken one. */
	const char *two = "@@wslgpu-pyprobe@@ {\"stage\": \"import\"}\n"
			  "@@wslgpu-pyprobe@@ {\"stage\": \"cuda\", \"x\": [1,\n";
	assert_int_equal(pyprobe_parse(two, strlen(two), &p), 0);
	assert_string_equal(pyprobe_get(&p, "stage"), "import");
	pyprobe_free(&p);
	/* Junk before the marker on the same line (a library that printed
	 * without a newline), CRLF, and a NUL inside the line. */
	const char glued[] = "W0000 loading\x00...@@wslgpu-pyprobe@@ {\"stage\": \"done\"}\r\n";
	assert_int_equal(pyprobe_parse(glued, sizeof glued - 1, &p), 0);
	assert_string_equal(pyprobe_get(&p, "stage"), "done");
	pyprobe_free(&p);
	/* A marker followed by a non-object. */
	assert_int_equal(pyprobe_parse("@@wslgpu-pyprobe@@ [1,2]", 24, &p), -EINVAL);
	pyprobe_free(&p);
	/* A huge value is clipped; too many keys are capped. */
	struct strbuf big = STRBUF_INIT;
	sb_add(&big, "@@wslgpu-pyprobe@@ {\"v\": \"");
	for (int i = 0; i < 100000; i++)
		sb_addc(&big, 'x');
	sb_add(&big, "\"");
	for (int i = 0; i < 1000; i++)
		sb_addf(&big, ", \"k%d\": %d", i, i);
	sb_add(&big, "}\n");
	assert_int_equal(pyprobe_parse(big.buf, big.len, &p), 0);
	assert_int_equal(strlen(pyprobe_get(&p, "v")), PYPROBE_MAX_VALUE);
	assert_int_equal(p.n, PYPROBE_MAX_KEYS);
	pyprobe_free(&p);
	/* A megabyte of 'y' lines (what `yes` prints) and no marker. */
	sb_reset(&big);
	for (int i = 0; i < 500000; i++)
		sb_add(&big, "y\n");
	assert_int_equal(pyprobe_parse(big.buf, big.len, &p), -ENOENT);
	pyprobe_free(&p);
	sb_release(&big);
	/* Every prefix of a valid output parses or fails cleanly. */
	const char *ok = "@@wslgpu-pyprobe@@ {\"a\": \"\\u00e9\", \"b\": [\"sm_80\", 1, true]}\n";
	for (size_t l = 0; l <= strlen(ok); l++) {
		int rc = pyprobe_parse(ok, l, &p);
		assert_true(rc == 0 || rc == -EINVAL || rc == -ENOENT);
		pyprobe_free(&p);
	}
}

/* ---- arch coverage ---- */

static enum cudaarch_cover cover(const char *list, int maj, int min, char *entry)
{
	struct cudaarch_verdict v;
	cudaarch_check(list, strlen(list), maj, min, &v);
	if (entry)
		strcpy(entry, v.entry);
	return v.cover;
}

static void test_cudaarch(void **state)
{
	(void)state;
	char e[32];
	/* SASS runs on the same major version with an equal or higher minor
	 * (CUDA C++ Programming Guide, "Binary Compatibility"): sm_80 code runs
	 * on an sm_86 GPU; sm_86 on 8.9; never across majors. */
	assert_int_equal(cover("sm_80", 8, 6, e), CUDAARCH_NATIVE);
	assert_string_equal(e, "sm_80");
	assert_int_equal(cover("sm_80 sm_86", 8, 9, e), CUDAARCH_NATIVE);
	assert_string_equal(e, "sm_86"); /* the closest one */
	assert_int_equal(cover("sm_86", 8, 0, NULL), CUDAARCH_NONE);
	assert_int_equal(cover("sm_86", 9, 0, NULL), CUDAARCH_NONE);
	/* Case F01: an sm_120 GPU and a wheel up to sm_90. */
	const char *f01 = "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90";
	assert_int_equal(cover(f01, 12, 0, NULL), CUDAARCH_NONE);
	struct cudaarch_verdict v;
	cudaarch_check(f01, strlen(f01), 12, 0, &v);
	assert_string_equal(v.newest, "sm_90");
	assert_int_equal(v.entries, 7);
	/* PTX JITs forward, across majors. */
	assert_int_equal(cover("sm_80 sm_90 compute_90", 12, 0, e), CUDAARCH_PTX);
	assert_string_equal(e, "compute_90");
	assert_int_equal(cover("compute_90", 8, 6, NULL), CUDAARCH_NONE); /* never backwards */
	assert_int_equal(cover("sm_120 compute_120", 12, 0, e), CUDAARCH_NATIVE);
	assert_string_equal(e, "sm_120");
	assert_int_equal(cover("sm_100 sm_120", 10, 3, NULL), CUDAARCH_NATIVE);
	/* Architecture-specific (a) runs on exactly that CC; family (f)
	 * within the major. */
	assert_int_equal(cover("sm_90a", 9, 0, NULL), CUDAARCH_NATIVE);
	assert_int_equal(cover("compute_90a", 10, 0, NULL), CUDAARCH_NONE);
	assert_int_equal(cover("sm_100f", 10, 3, NULL), CUDAARCH_NATIVE);
	assert_int_equal(cover("compute_100f", 12, 0, NULL), CUDAARCH_NONE);
	/* Other spellings: Python list text, TORCH_CUDA_ARCH_LIST style. */
	assert_int_equal(cover("['sm_75', 'sm_86']", 8, 6, NULL), CUDAARCH_NATIVE);
	assert_int_equal(cover("7.5 8.0 9.0+PTX", 12, 0, e), CUDAARCH_PTX);
	assert_string_equal(e, "compute_90");
	assert_int_equal(cover("", 8, 6, NULL), CUDAARCH_UNKNOWN);
	assert_int_equal(cover("garbage sm_ sm_x compute_ 99999", 8, 6, NULL), CUDAARCH_UNKNOWN);
	struct cudaarch_verdict w;
	cudaarch_check(NULL, 10, 8, 6, &w);
	assert_int_equal(w.cover, CUDAARCH_UNKNOWN);

	int maj, min;
	assert_int_equal(cudaarch_parse_cc("8.6", &maj, &min), 0);
	assert_int_equal(maj * 10 + min, 86);
	assert_int_equal(cudaarch_parse_cc("12.0", &maj, &min), 0);
	assert_int_equal(maj, 12);
	assert_int_equal(cudaarch_parse_cc("8", &maj, &min), -1);
	assert_int_equal(cudaarch_parse_cc("8.x", &maj, &min), -1);
	assert_int_equal(cudaarch_parse_cc(NULL, &maj, &min), -1);
}

/* ---- dpkg status ---- */

struct seen {
	char names[16][64];
	int n;
	int present;
};

static int collect(const struct dpkg_pkg *p, void *arg)
{
	struct seen *s = arg;
	if (s->n < 16) {
		snprintf(s->names[s->n], 64, "%.*s", (int)p->name.n, p->name.p);
		s->n++;
	}
	if (dpkgstatus_present(p))
		s->present++;
	return 0;
}

static void test_dpkgstatus(void **state)
{
	(void)state;
	const char *t =
		"Package: libnvidia-compute-535\r\n"
		"Status: install ok installed\r\n"
		"Provides: libcuda-5.0-1, libcuda.so.1 (= 535.183.01),\r\n"
		" libcuda1 (= 535.183.01)\r\n"
		"Version: 535.183.01-0ubuntu0.22.04.1\r\n"
		"\r\n"
		"Package: nvidia-utils-535\n"
		"Status: deinstall ok config-files\n"
		"\n\n\n"
		"Description: a stanza without a package\n"
		"\n"
		"package: cuda-12-4\n"
		"status: install ok half-configured\n"
		"Version: 12.4.1-1"; /* no trailing newline */
	struct seen s;
	memset(&s, 0, sizeof s);
	assert_int_equal(dpkgstatus_each(t, strlen(t), collect, &s), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.names[0], "libnvidia-compute-535");
	assert_string_equal(s.names[1], "nvidia-utils-535");
	assert_string_equal(s.names[2], "cuda-12-4");
	assert_int_equal(s.present, 2); /* config-files is not installed */

	struct dpkg_pkg p;
	memset(&p, 0, sizeof p);
	const char *prov = "libcuda-5.0-1, libcuda.so.1 (= 535.183.01),\n libcuda1:any";
	p.provides.p = prov;
	p.provides.n = strlen(prov);
	assert_true(dpkgstatus_provides(&p, "libcuda.so.1"));
	assert_true(dpkgstatus_provides(&p, "libcuda1"));
	assert_false(dpkgstatus_provides(&p, "libcuda"));

	/* Binary junk, NULs, and a gigantic line do not crash. */
	const char junk[] = "Package\0: x\nPackage: \xff\xfe\n\n:\n \n\tPackage: y";
	memset(&s, 0, sizeof s);
	dpkgstatus_each(junk, sizeof junk - 1, collect, &s);
	assert_int_equal(dpkgstatus_each(NULL, 0, collect, &s), 0);

	/* Classes (NVIDIA's CUDA on WSL guide; CUDA Installation Guide's
	 * meta-package table). */
	assert_int_equal(gpupkg_classify("nvidia-driver-535", NULL, 0), GPUPKG_DRIVER);
	assert_int_equal(gpupkg_classify("nvidia-dkms-550-open", NULL, 0), GPUPKG_DRIVER);
	assert_int_equal(gpupkg_classify("nvidia-kernel-common-535", NULL, 0), GPUPKG_DRIVER);
	assert_int_equal(gpupkg_classify("linux-modules-nvidia-535-generic", NULL, 0), GPUPKG_DRIVER);
	assert_int_equal(gpupkg_classify("nvidia-utils-510", NULL, 0), GPUPKG_UTILS);
	assert_int_equal(gpupkg_classify("libnvidia-compute-510", NULL, 0), GPUPKG_LIBCUDA);
	/* Debian's driver packages (Source: nvidia-graphics-drivers*). */
	assert_int_equal(gpupkg_classify("nvidia-tesla-470-smi", NULL, 0), GPUPKG_UTILS);
	assert_int_equal(gpupkg_classify("libnvidia-tesla-470-ptxjitcompiler1", NULL, 0),
			 GPUPKG_LIBCUDA);
	assert_int_equal(gpupkg_classify("libnvidia-ptxjitcompiler1", NULL, 0), GPUPKG_LIBCUDA);
	assert_int_equal(gpupkg_classify("nvidia-tesla-470-alternative", NULL, 0), GPUPKG_OTHER);
	assert_int_equal(gpupkg_classify("cuda", NULL, 0), GPUPKG_META);
	assert_int_equal(gpupkg_classify("cuda-12-4", NULL, 0), GPUPKG_META);
	assert_int_equal(gpupkg_classify("cuda-runtime-12-4", NULL, 0), GPUPKG_META);
	assert_int_equal(gpupkg_classify("cuda-drivers", NULL, 0), GPUPKG_META);
	assert_int_equal(gpupkg_classify("cuda-drivers-550", NULL, 0), GPUPKG_META);
	assert_int_equal(gpupkg_classify("cuda-toolkit-12-4", NULL, 0), GPUPKG_TOOLKIT);
	assert_int_equal(gpupkg_classify("cuda-nvcc-12-4", NULL, 0), GPUPKG_OTHER);
	assert_int_equal(gpupkg_classify("cuda-12-4-extra", NULL, 0), GPUPKG_OTHER);
	assert_int_equal(gpupkg_classify("cuda-keyring", NULL, 0), GPUPKG_OTHER);
	assert_int_equal(gpupkg_classify("nvidia-container-toolkit", NULL, 0), GPUPKG_OTHER);
	const char *pv = "libcuda.so.1 (= 1)";
	assert_int_equal(gpupkg_classify("some-vendor-libs", pv, strlen(pv)), GPUPKG_LIBCUDA);
	assert_int_equal(gpupkg_classify(NULL, NULL, 0), GPUPKG_OTHER);
}

/* ---- apt sources ---- */

struct repos {
	char uri[8][160];
	enum aptrepo_kind kind[8];
	char flavour[8][32];
	bool enabled[8];
	int line[8];
	int n;
};

static int on_repo(const struct aptrepo *r, void *arg)
{
	struct repos *s = arg;
	if (s->n < 8) {
		snprintf(s->uri[s->n], 160, "%s", r->uri);
		s->kind[s->n] = r->kind;
		snprintf(s->flavour[s->n], 32, "%s", r->flavour);
		s->enabled[s->n] = r->enabled;
		s->line[s->n] = r->line;
		s->n++;
	}
	return 0;
}

static void test_aptsources(void **state)
{
	(void)state;
	const char *list =
		"# deb https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2004/x86_64/ /\n"
		"deb [signed-by=/usr/share/keyrings/cuda-archive-keyring.gpg] "
		"https://developer.download.nvidia.com/compute/cuda/repos/wsl-ubuntu/x86_64/ /\n"
		"deb http://archive.ubuntu.com/ubuntu jammy main # comment\n"
		"deb-src https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2204/x86_64/ /\n"
		"deb [arch=amd64] file:///var/cuda-repo-ubuntu2204-12-4-local /\n"
		"debian-junk line\n";
	struct repos s;
	memset(&s, 0, sizeof s);
	aptsources_each(list, strlen(list), false, on_repo, &s);
	assert_int_equal(s.n, 4);
	assert_int_equal(s.kind[0], APTREPO_CUDA_WSL);
	assert_string_equal(s.flavour[0], "wsl-ubuntu");
	assert_int_equal(s.line[0], 2);
	assert_int_equal(s.kind[1], APTREPO_OTHER);
	assert_int_equal(s.kind[2], APTREPO_CUDA_LINUX);
	assert_string_equal(s.flavour[2], "ubuntu2204");
	assert_int_equal(s.kind[3], APTREPO_CUDA_LINUX);
	assert_string_equal(s.flavour[3], "ubuntu2204");

	const char *d822 =
		"Types: deb\n"
		"URIs: https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2404/x86_64/\n"
		"Suites: /\n"
		"Enabled: no\n"
		"\n"
		"# a comment\n"
		"Types: deb deb-src\n"
		"URIs: http://archive.ubuntu.com/ubuntu\n"
		"  https://nvidia.github.io/libnvidia-container/stable/deb/$(ARCH)\n"
		"Suites: noble\n";
	memset(&s, 0, sizeof s);
	aptsources_each(d822, strlen(d822), true, on_repo, &s);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.kind[0], APTREPO_CUDA_LINUX);
	assert_false(s.enabled[0]);
	assert_string_equal(s.flavour[0], "ubuntu2404");
	assert_int_equal(s.kind[2], APTREPO_CONTAINER);
	assert_true(s.enabled[2]);

	char fl[16];
	assert_int_equal(aptrepo_classify("file:/var/cuda-repo-wsl-ubuntu-12-8-local", fl, sizeof fl),
			 APTREPO_CUDA_WSL);
	assert_int_equal(aptrepo_classify("https://example.com/compute/cuda/repos/x/", fl, sizeof fl),
			 APTREPO_OTHER);
	/* Hostile: binary, no newline, an unterminated [ option. */
	const char junk[] = "deb [arch=amd64 \xff\0 http://x\ndeb\tx\n\xfe";
	memset(&s, 0, sizeof s);
	aptsources_each(junk, sizeof junk - 1, false, on_repo, &s);
	aptsources_each(junk, sizeof junk - 1, true, on_repo, &s);
	aptsources_each(NULL, 0, true, on_repo, &s);
}

/* ---- docker info, nvidia-container-cli info ---- */

static void test_dockerinfo(void **state)
{
	(void)state;
	const char *desktop =
		"{\"ID\":\"x\",\"Runtimes\":{\"io.containerd.runc.v2\":{\"path\":\"runc\"},"
		"\"nvidia\":{\"path\":\"nvidia-container-runtime\"},\"runc\":{\"path\":\"runc\"}},"
		"\"DefaultRuntime\":\"runc\",\"KernelVersion\":\"5.15.153.1-microsoft-standard-WSL2\","
		"\"OperatingSystem\":\"Docker Desktop\",\"OSType\":\"linux\",\"Name\":\"docker-desktop\","
		"\"ServerVersion\":\"27.2.0\",\"CDISpecDirs\":[\"/etc/cdi\",\"/var/run/cdi\"],"
		"\"SecurityOptions\":[\"name=seccomp,profile=unconfined\"],"
		"\"ClientInfo\":{\"Context\":\"default\"}}\n";
	struct dockerinfo di;
	assert_int_equal(dockerinfo_parse(desktop, strlen(desktop), &di), 0);
	assert_true(di.desktop);
	assert_string_equal(di.server_version, "27.2.0");
	assert_int_equal(di.nruntimes, 3);
	assert_true(dockerinfo_has_runtime(&di, "nvidia"));
	assert_string_equal(di.runtime_paths[1], "nvidia-container-runtime");
	assert_int_equal(di.ncdi_dirs, 2);
	assert_string_equal(di.context, "default");
	assert_false(di.rootless);

	/* Daemon down, newer CLI: JSON with ServerErrors; some wrappers quote it. */
	const char *down = "'{\"ServerVersion\":\"\",\"ServerErrors\":[\"Cannot connect to the "
			   "Docker daemon at unix:///var/run/docker.sock. Is the docker daemon "
			   "running?\"]}'";
	assert_int_equal(dockerinfo_parse(down, strlen(down), &di), 0);
	assert_int_equal(di.nerrors, 1);
	assert_string_equal(di.server_version, "");
	assert_false(di.desktop);

	const char *engine = "{\"OperatingSystem\":\"Ubuntu 22.04.4 LTS\",\"ServerVersion\":\"26.1.3\","
			     "\"Runtimes\":{\"runc\":{\"path\":\"runc\"}},"
			     "\"SecurityOptions\":[\"name=rootless\"]}";
	assert_int_equal(dockerinfo_parse(engine, strlen(engine), &di), 0);
	assert_false(di.desktop);
	assert_false(dockerinfo_has_runtime(&di, "nvidia"));
	assert_true(di.rootless);

	/* Older CLI: only text. Garbage and truncation. */
	const char *txt = "Cannot connect to the Docker daemon at unix:///var/run/docker.sock.";
	assert_int_equal(dockerinfo_parse(txt, strlen(txt), &di), -1);
	assert_int_equal(dockerinfo_parse(desktop, 40, &di), -1);
	assert_int_equal(dockerinfo_parse(NULL, 0, &di), -1);
	const char bin[] = "{\"Runtimes\":{\"\xff\":{\"path\":1}},\"ServerErrors\":[1,\"\\u0000\"]}";
	assert_int_equal(dockerinfo_parse(bin, sizeof bin - 1, &di), 0);

	const char *ncli = "NVRM version:   531.18\nCUDA version:   12.1\n\nDevice Index:   0\n"
			   "Device Minor:   0\nModel:          NVIDIA GeForce RTX 3060 Laptop GPU\n"
			   "Brand:          GeForce\nArchitecture:   8.6\n";
	struct nvcli_info ni;
	nvcli_info_parse(ncli, strlen(ncli), &ni);
	assert_string_equal(ni.nvrm, "531.18");
	assert_string_equal(ni.cuda, "12.1");
	assert_int_equal(ni.devices, 1);
	assert_string_equal(ni.model, "NVIDIA GeForce RTX 3060 Laptop GPU");
	assert_string_equal(ni.arch, "8.6");
	const char *err = "nvidia-container-cli: initialization error: WSL environment detected "
			  "but no adapters were found\n";
	nvcli_info_parse(err, strlen(err), &ni);
	assert_int_equal(ni.devices, 0);
	assert_non_null(strstr(ni.error, "no adapters were found"));
	nvcli_info_parse(NULL, 0, &ni);
}

/* ---- nvcc --version ---- */

static void test_nvccver(void **state)
{
	(void)state;
	char v[32];
	const char *out = "nvcc: NVIDIA (R) Cuda compiler driver\n"
			  "Copyright (c) 2005-2024 NVIDIA Corporation\n"
			  "Cuda compilation tools, release 12.4, V12.4.131\n"
			  "Build cuda_12.4.r12.4/compiler.34097967_0\n";
	assert_int_equal(nvccver_parse(out, strlen(out), v, sizeof v), 0);
	assert_string_equal(v, "12.4.131");
	const char *old = "Cuda compilation tools, release 9.1, V9.1.85";
	assert_int_equal(nvccver_parse(old, strlen(old), v, sizeof v), 0);
	assert_string_equal(v, "9.1.85");
	const char *mismatch = "Cuda compilation tools, release 11.8, V12.0.1";
	assert_int_equal(nvccver_parse(mismatch, strlen(mismatch), v, sizeof v), 0);
	assert_string_equal(v, "11.8");
	assert_int_equal(nvccver_parse("nvcc: command not found", 23, v, sizeof v), -1);
	assert_int_equal(nvccver_parse("Cuda compilation tools, release ", 32, v, sizeof v), -1);
	assert_int_equal(nvccver_parse(out, strlen(out), v, 4), -1);
}

/* ---- KB: signatures and the ids the probes name ---- */

static const char *sig(const char *prefix, const char *text)
{
	const struct kb_entry *e = explain_best(explain_db_builtin(), prefix, text, strlen(text));
	return e ? e->id : "(none)";
}

static void test_signatures(void **state)
{
	(void)state;
	/* Field cases, verbatim where the cases file quotes them. */
	assert_string_equal(sig("frameworks.", "RuntimeError: Found no NVIDIA driver on your system. "
				"Please check that you have an NVIDIA GPU and installed a driver"),
			    KB_FRAMEWORKS_TORCH_NO_DRIVER);
	assert_string_equal(sig("frameworks.", "UserWarning: CUDA initialization: Unexpected error "
				"from cudaGetDeviceCount(). Did you run some cuda functions before "
				"calling NumCudaDevices() that might have already set an error? "
				"Error 2: out of memory"),
			    KB_FRAMEWORKS_TORCH_INIT_OOM);
	assert_string_equal(sig("frameworks.", "The NVIDIA driver on your system is too old "
				"(found version 12080). Please update your GPU driver"),
			    KB_FRAMEWORKS_TORCH_DRIVER_TOO_OLD);
	assert_string_equal(sig("frameworks.", "Could not load library libcudnn_cnn_infer.so.8. "
				"Error: libcuda.so: cannot open shared object file: No such file or "
				"directory\nPlease make sure libcudnn_cnn_infer.so.8 is in your library "
				"path!"),
			    KB_FRAMEWORKS_CUDNN_LIBCUDA);
	assert_string_equal(sig("frameworks.", "RuntimeError: CUDA error: no kernel image is "
				"available for execution on the device"),
			    KB_FRAMEWORKS_ARCH_MISSING);
	assert_string_equal(sig("frameworks.", "ImportError: libcudart.so.12: cannot open shared "
				"object file: No such file or directory"),
			    KB_FRAMEWORKS_IMPORT_LIBS_MISSING);
	assert_string_equal(sig("frameworks.", "W0000 gpu_device.cc:2341] Cannot dlopen some GPU "
				"libraries. Please make sure the missing libraries"),
			    KB_FRAMEWORKS_TENSORFLOW_LIBS_MISSING);
	assert_string_equal(sig("frameworks.", "An NVIDIA GPU may be present on this machine, but a "
				"CUDA-enabled jaxlib is not installed. Falling back to cpu."),
			    KB_FRAMEWORKS_JAX_CPU_ONLY);
	assert_string_equal(sig("frameworks.", "everything is fine"), "(none)");
	assert_string_equal(sig("containers.", "docker: Error response from daemon: could not select "
				"device driver \"\" with capabilities: [[gpu]]."),
			    KB_CONTAINERS_DOCKER_NO_TOOLKIT);
	assert_string_equal(sig("containers.", "nvidia-container-cli: initialization error: WSL "
				"environment detected but no adapters were found: unknown"),
			    KB_CONTAINERS_NVCLI_NO_ADAPTERS);
	assert_string_equal(sig("containers.", "stderr: nvidia-container-cli: initialization error: "
				"driver error: failed to process request: unknown."),
			    KB_CONTAINERS_NVCLI_FAILED_REQUEST);
	assert_string_equal(sig("containers.", "nvidia-container-cli: mount error: file creation "
				"failed: /var/lib/docker/overlay2/x/merged/usr/lib/x86_64-linux-gnu/"
				"libnvidia-ml.so.1: file exists: unknown"),
			    KB_CONTAINERS_IMAGE_DRIVER_LIBS);
	assert_string_equal(sig("containers.docker.", "Got permission denied while trying to connect "
				"to the Docker daemon socket at unix:///var/run/docker.sock: Get "
				"\"http://%2Fvar%2Frun%2Fdocker.sock/v1.24/info\": dial unix "
				"/var/run/docker.sock: connect: permission denied"),
			    KB_CONTAINERS_DOCKER_PERMISSION);
	assert_string_equal(sig("containers.docker.", "permission denied while trying to connect to "
				"the docker API at unix:///var/run/docker.sock"),
			    KB_CONTAINERS_DOCKER_PERMISSION);
	assert_string_equal(sig("containers.docker.", "Cannot connect to the Docker daemon at "
				"unix:///var/run/docker.sock. Is the docker daemon running?"),
			    KB_CONTAINERS_DOCKER_DAEMON_DOWN);
	/* NULs in captured output do not hide what follows them. */
	const char nul[] = "junk\0Cannot dlopen some GPU libraries";
	const struct kb_entry *e = explain_best(explain_db_builtin(), "frameworks.", nul, sizeof nul - 1);
	assert_non_null(e);
	assert_string_equal(e->id, KB_FRAMEWORKS_TENSORFLOW_LIBS_MISSING);
	assert_null(explain_best(explain_db_builtin(), "frameworks.", NULL, 0));
}

/* The embedded script is exactly src/probes/pyprobe.py, byte for byte
 * (the build generates it: tools/text2c.awk). */
static void test_script_in_sync(void **state)
{
	(void)state;
	FILE *fp = fopen("src/probes/pyprobe.py", "rb");
	assert_non_null(fp);
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
		sb_addn(&sb, buf, n);
	fclose(fp);
	if (strcmp(sb.buf, pyprobe_script) != 0)
		fail_msg("the embedded probe script differs from src/probes/pyprobe.py");
	/* The marker the parser looks for is the one the script prints. */
	assert_non_null(strstr(pyprobe_script, "MARK = '" PYPROBE_MARK "'"));
	assert_non_null(strstr(pyprobe_script, "'" PYPROBE_SCHEMA "'"));
	sb_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jsonscan),     cmocka_unit_test(test_pyprobe_normal),
		cmocka_unit_test(test_pyprobe_hostile), cmocka_unit_test(test_cudaarch),
		cmocka_unit_test(test_dpkgstatus),   cmocka_unit_test(test_aptsources),
		cmocka_unit_test(test_dockerinfo),   cmocka_unit_test(test_nvccver),
		cmocka_unit_test(test_signatures),   
		cmocka_unit_test(test_script_in_sync),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
