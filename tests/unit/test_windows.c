/*
 * test_windows.c: the Windows side's parsers on what real outputs do not
 * cover (tests/fixtures/real/windows/ covers those, test_real.c walks them),
 * and the batched query's facts from its sections. Every input here is
 * synthetic, made to pin one behaviour; the labels of `wsl --version` are
 * WSL's own translations (microsoft/WSL localization/strings/<lang>/
 * Resources.resw, MessagePackageVersions).
 */
#include "testutil.h"

#include "core/rootfs.h"
#include "core/strbuf.h"
#include "facts/windows.h"
#include "parse/winbatch.h"
#include "parse/wincounter.h"
#include "parse/windriver.h"
#include "parse/winevent.h"
#include "parse/winreg.h"
#include "parse/winsmi.h"
#include "parse/wintext.h"
#include "parse/winver.h"
#include "parse/winwslver.h"

/* ---- wintext ---- */

static void utf16le(const char *ascii, bool bom, struct strbuf *out)
{
	if (bom)
		sb_addn(out, "\xff\xfe", 2);
	for (const char *p = ascii; *p; p++) {
		char u[2] = { *p, 0 };
		sb_addn(out, u, 2);
	}
}

/* Where UTF-16 starts: past a mark; one byte in, little-endian, for the
 * big-endian pattern with no mark; at once with no mark; never in ASCII. */
static void test_wintext_utf16_start(void **state)
{
	(void)state;
	bool bom, be;
	const unsigned char le_mark[] = { 0xff, 0xfe, 'a', 0, 'b', 0 };
	const unsigned char be_mark[] = { 0xfe, 0xff, 0, 'a', 0, 'b' };
	const unsigned char le[] = { 'a', 0, 'b', 0, 'c', 0 };
	const unsigned char be_bare[] = { 0, 'a', 0, 'b', 0, 'c' };
	assert_int_equal(wintext_utf16_start(le_mark, sizeof le_mark, &bom, &be), 2);
	assert_true(bom);
	assert_false(be);
	assert_int_equal(wintext_utf16_start(be_mark, sizeof be_mark, &bom, &be), 2);
	assert_true(be);
	assert_int_equal(wintext_utf16_start(le, sizeof le, &bom, &be), 0);
	assert_false(bom);
	assert_false(be);
	assert_int_equal(wintext_utf16_start(be_bare, sizeof be_bare, &bom, &be), 1);
	assert_false(bom);
	assert_false(be);
	assert_int_equal(wintext_utf16_start((const unsigned char *)"plain", 5, &bom, &be), -1);
}

static void test_wintext_decode(void **state)
{
	(void)state;
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	struct wintext w;

	/* wsl.exe: UTF-16LE, no BOM, CR LF. */
	utf16le("WSL version: 2.3.26.0\r\nKernel version: 5.15\r\n", false, &in);
	wintext_decode(in.buf, in.len, &out, &w);
	assert_string_equal(out.buf, "WSL version: 2.3.26.0\nKernel version: 5.15\n");
	assert_int_equal(w.enc, WINTEXT_UTF16LE);
	assert_false(w.bom);
	assert_true(w.crlf);

	/* One byte lost in front: the NULs sit in the even bytes. */
	sb_reset(&in);
	sb_reset(&out);
	sb_addc(&in, 'x');
	utf16le("abcdefghijk\r\n", false, &in);
	wintext_decode(in.buf, in.len, &out, &w);
	assert_true(w.shifted);
	assert_string_equal(out.buf, "abcdefghijk\n");

	/* wsl.exe --help's CR CR LF is one line end; a lone CR is one too. */
	sb_reset(&out);
	wintext_decode("a\r\r\nb\rc", 8, &out, &w);
	assert_string_equal(out.buf, "a\nb\nc");

	/* UTF-16 read as bytes by PowerShell: NULs in 8-bit text dropped. */
	sb_reset(&out);
	static const char nul[] = "W\0S\0L\0 \0v\0\r\0\n\0";
	wintext_decode(nul, sizeof nul - 1, &out, &w);
	assert_string_equal(out.buf, "WSL v\n");

	/* A UTF-8 BOM is dropped; non-ASCII survives the UTF-16 round trip. */
	sb_reset(&out);
	wintext_decode("\xef\xbb\xbfok", 5, &out, &w);
	assert_string_equal(out.buf, "ok");
	assert_true(w.bom);
	sb_reset(&in);
	sb_reset(&out);
	sb_addn(&in, "\xff\xfe\x48\x72\x2c\x67", 6); /* 版本 */
	wintext_decode(in.buf, in.len, &out, &w);
	assert_string_equal(out.buf, "\xe7\x89\x88\xe6\x9c\xac");

	/* A lone surrogate is '?', counted. */
	sb_reset(&in);
	sb_reset(&out);
	sb_addn(&in, "\xff\xfe\x00\xd8\x41\x00", 6);
	wintext_decode(in.buf, in.len, &out, &w);
	assert_string_equal(out.buf, "?A");
	assert_int_equal(w.bad, 1);
	sb_release(&in);
	sb_release(&out);
}

/* ---- wsl --version ---- */

/* Each translation WSL ships (its 22 Resources.resw, en-GB's the same as
 * en-US's): WSL's, the kernel's (no product name) and Windows' labels. */
static void test_wslver_every_language(void **state)
{
	(void)state;
	static const char *const labels[][3] = {
		{ "Verze WSL: ", "Verze jádra: ", "Verze systému Windows: " },
		{ "WSL-version: ", "Kerneversion: ", "Windows-version: " },
		{ "WSL-Version: ", "Kernelversion: ", "Windows-Version: " },
		{ "WSL version: ", "Kernel version: ", "Windows version: " },
		{ "Versión de WSL: ", "Versión de kernel: ", "Versión de Windows: " },
		{ "WSL-versio: ", "Ytimen versio: ", "Windows-versio: " },
		{ "Version WSL : ", "Version du noyau : ", "Version de Windows : " },
		{ "WSL-verzió: ", "Kernelverzió: ", "Windows-verzió: " },
		{ "Versione WSL: ", "Versione kernel: ", "Versione di Windows: " },
		{ "WSL バージョン: ", "カーネル バージョン: ", "Windows バージョン: " },
		{ "WSL 버전: ", "커널 버전: ", "Windows 버전: " },
		{ "WSL-versjon: ", "Kernelversjon: ", "Windows-versjon: " },
		{ "WSL-versie: ", "Kernelversie: ", "Windows-versie: " },
		{ "Wersja podsystemu WSL: ", "Wersja jądra: ", "Wersja systemu Windows: " },
		{ "Versão do WSL: ", "Versão do kernel: ", "Versão do Windows: " },
		{ "Versão WSL: ", "Versão do kernel: ", "Versão do Windows: " },
		{ "WSL-version: ", "Kernelversion: ", "Windows-version: " },
		{ "Версия WSL: ", "Версия ядра: ", "Версия Windows: " },
		{ "WSL sürümü: ", "Çekirdek sürümü: ", "Windows sürümü: " },
		{ "WSL 版本: ", "内核版本: ", "Windows 版本: " },
		{ "WSL 版本： ", "核心版本： ", "Windows 版本： " },
	};
	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
		struct strbuf t = STRBUF_INIT;
		sb_addf(&t, "%s2.7.3.0\r\n%s6.6.87.2-1\r\nWSLg x: 1.0.66\r\n%s10.0.26100.1\r\n",
			labels[i][0], labels[i][1], labels[i][2]);
		struct winwslver v;
		winwslver_parse(t.buf, t.len, &v);
		assert_string_equal(v.wsl, "2.7.3.0");
		assert_string_equal(v.kernel, "6.6.87.2-1");
		assert_string_equal(v.wslg, "1.0.66");
		assert_string_equal(v.windows, "10.0.26100.1");
		sb_release(&t);
	}
	/* Nothing that reads as a version: nothing found. */
	struct winwslver v;
	assert_int_equal(winwslver_parse("usage: wsl.exe [Argument]\n", 26, &v), 0);
	assert_int_equal(winwslver_parse("Invalid command line option: --version\r\n", 40, &v), 0);
}

/* ---- the batch's sections ---- */

static void test_winbatch_sections(void **state)
{
	(void)state;
	static const char out[] = "Loading profile...\r\n"
				  "##wslgpu-begin a\r\none\r\n##wslgpu-end a ok\r\n"
				  "##wslgpu-begin b\r\n##wslgpu-end b absent\r\n"
				  "##wslgpu-begin c\r\nAccess is denied.\r\n##wslgpu-end c error\r\n"
				  "##wslgpu-begin d\r\npartial\r\n"
				  "##wslgpu-begin e\r\n##wslgpu-end x ok\r\nlast";
	struct winbatch b;
	assert_int_equal(winbatch_parse(out, sizeof out - 1, &b), 5);
	size_t n;
	const char *s = winbatch_body(&b, winbatch_get(&b, "a"), &n);
	assert_int_equal(n, 4);
	assert_memory_equal(s, "one\n", 4);
	assert_int_equal(winbatch_get(&b, "b")->status, WINBATCH_ABSENT);
	assert_int_equal(winbatch_get(&b, "c")->status, WINBATCH_ERROR);
	/* d: cut by the next begin; its body ends there. */
	assert_int_equal(winbatch_get(&b, "d")->status, WINBATCH_CUT);
	s = winbatch_body(&b, winbatch_get(&b, "d"), &n);
	assert_int_equal(n, 8);
	assert_memory_equal(s, "partial\n", 8);
	/* e: an end naming another section is body, and e is cut at the end. */
	assert_int_equal(winbatch_get(&b, "e")->status, WINBATCH_CUT);
	s = winbatch_body(&b, winbatch_get(&b, "e"), &n);
	assert_memory_equal(s, "##wslgpu-end x ok\nlast", n);
	assert_null(winbatch_get(&b, "f"));
	assert_int_equal(b.outside, strlen("Loading profile...\n"));
	winbatch_free(&b);
	/* Names outside [a-z0-9.-] start nothing. */
	assert_int_equal(winbatch_parse("##wslgpu-begin A B\n", 19, &b), 0);
	winbatch_free(&b);
}

/* ---- events ---- */

static void test_winevent_xml(void **state)
{
	(void)state;
	static const char xml[] =
		"<Events><Event xmlns='http://schemas.microsoft.com/win/2004/08/events/event'><System>"
		"<Provider Name='Display'/><EventID Qualifiers='0'>4101</EventID><Level>3</Level>"
		"<TimeCreated SystemTime='2026-12-01T10:00:00.1234567Z'/></System>"
		"<EventData><Data>nvlddmkm</Data><Data></Data></EventData></Event>"
		"<Event><System><Provider Name=\"Microsoft-Windows-WindowsUpdateClient\" Guid=\"{x}\"/>"
		"<EventID>19</EventID><TimeCreated SystemTime=\"1970-01-02T00:00:00Z\"/></System>"
		"<EventData><Data Name=\"updateTitle\">NVIDIA - Display - 31.0.15.3623</Data></EventData>"
		"</Event></Events>";
	struct winevents ev;
	assert_int_equal(winevent_parse(xml, sizeof xml - 1, &ev), 2);
	assert_true(winevent_is_reset(&ev.v[0]));
	assert_string_equal(ev.v[0].driver, "nvlddmkm");
	assert_string_equal(ev.v[0].time, "2026-12-01T10:00:00Z");
	assert_int_equal(ev.v[0].level, 3);
	assert_int_equal(ev.v[1].id, 19);
	assert_int_equal(ev.v[1].when, 86400);
	assert_string_equal(ev.v[1].title, "NVIDIA - Display - 31.0.15.3623");
	/* 2026-12-01T10:00:00Z as seconds (date -u -d ... +%s). */
	assert_int_equal(ev.v[0].when, 1796119200);
	/* A table row whose date could be day/month or month/day stays as printed. */
	static const char row[] = "Warning | 3/4/2024 10:00 | Display | 4101 | None | x\n";
	assert_int_equal(winevent_parse(row, sizeof row - 1, &ev), 1);
	assert_string_equal(ev.v[0].time, "3/4/2024 10:00");
	/* Found by fuzz_windows: an event number cut at the line end is no
	 * number (strtol read on into the next line). */
	static const char cut[] = "The description for Event ID \n1 from source Display.\n";
	assert_int_equal(winevent_parse(cut, sizeof cut - 1, &ev), 0);
	static const char whole[] = "The description for Event ID 14 from source nvlddmkm cannot be found.\n";
	assert_int_equal(winevent_parse(whole, sizeof whole - 1, &ev), 1);
	assert_int_equal(ev.v[0].id, 14);
	assert_string_equal(ev.v[0].provider, "nvlddmkm");
}

/* ---- registry, counters, nvidia-smi, drivers, ver ---- */

static void test_winreg_forms(void **state)
{
	(void)state;
	static const char q[] = "\r\nHKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\r\n"
				"    (Default)    REG_SZ    \r\n"
				"    CurrentBuild    REG_SZ    26100\r\n"
				"    UBR    REG_DWORD    0xb4e\r\n"
				"    Some Name    REG_QWORD    0x10\r\n";
	struct winreg r;
	assert_int_equal(winreg_parse(q, sizeof q - 1, &r), 4);
	assert_string_equal(r.key, "HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion");
	assert_int_equal(winreg_get(&r, "UBR")->number, 2894);
	assert_int_equal(winreg_get(&r, "some name")->number, 16);
	assert_string_equal(winreg_get(&r, "(Default)")->data, "");
	static const char e[] = "Windows Registry Editor Version 5.00\r\n\r\n[HKEY_CURRENT_USER\\X]\r\n"
				"@=\"default\"\r\n\"Q\\\"uoted\"=\"v\"\r\n\"B\"=hex:01,02\r\n";
	assert_int_equal(winreg_parse(e, sizeof e - 1, &r), 3);
	assert_string_equal(r.v[0].name, "");
	assert_string_equal(r.v[0].data, "default");
	assert_string_equal(r.v[1].name, "Q\\\"uoted");
	assert_string_equal(r.v[2].type, "hex");
	assert_string_equal(r.v[2].data, "01,02");
}

static void test_wincounter_forms(void **state)
{
	(void)state;
	struct wingpu_instance g;
	assert_int_equal(wincounter_gpu_instance("pid_1234_luid_0x00000000_0x0000D2B1_phys_0_eng_3_engtype_Video Codec", &g), 0);
	assert_int_equal(g.pid, 1234);
	assert_string_equal(g.luid, "0x00000000_0x0000d2b1");
	assert_int_equal(g.phys, 0);
	assert_int_equal(g.eng, 3);
	assert_string_equal(g.engtype, "Video Codec");
	assert_int_equal(wincounter_gpu_instance("_total", &g), -1);
	/* A decimal comma (a German Get-Counter) and a path with parentheses
	 * in the instance. */
	static const char gc[] = "\\\\pc\\gpu engine(pid_1_luid_0x0_0x1_phys_0_eng_0_engtype_3d)\\auslastung :\n"
				 "  12,5\n\n\\\\pc\\process(a (b))\\id process :\n 7\n";
	struct wincounters c;
	assert_int_equal(wincounter_parse(gc, sizeof gc - 1, &c), 2);
	assert_true(c.v[0].value > 12.49 && c.v[0].value < 12.51);
	assert_string_equal(c.v[1].instance, "a (b)");
	wincounter_free(&c);
	/* typeperf: the last row wins; an empty first sample has no value. */
	static const char tp[] = "\"(PDH-CSV 4.0)\",\"\\\\H\\A(x)\\B\"\r\n\"01/01/2026 00:00:00.000\",\" \"\r\n"
				 "\"01/01/2026 00:00:01.000\",\"3.5\"\r\n";
	assert_int_equal(wincounter_parse(tp, sizeof tp - 1, &c), 1);
	assert_true(c.v[0].have_value);
	assert_true(c.v[0].value == 3.5);
	wincounter_free(&c);
}

static void test_winsmi_forms(void **state)
{
	(void)state;
	struct winsmi_csv *csv = calloc(1, sizeof *csv);
	/* noheader: numbers alone are no header. */
	assert_int_equal(winsmi_csv_parse("0, 56, 26\n", 10, csv), -1);
	assert_int_equal(winsmi_csv_parse("name, memory.total [MiB]\nA, 8192 MiB\n", 37, csv), 1);
	assert_string_equal(winsmi_csv_get(csv, 0, "memory.total"), "8192 MiB");
	assert_string_equal(winsmi_csv_get(csv, 0, "nope"), "");
	free(csv);
	/* -q: Enforced beats Current beats plain Power Limit, whatever the order. */
	static const char q[] = "GPU 00000000:01:00.0\n    Product Name : X\n    Power Readings\n"
				"        Enforced Power Limit : 200.00 W\n        Power Limit : 250.00 W\n"
				"    Performance State : P2\n    FB Memory Usage\n        Total : 8192 MiB\n"
				"        Used : 512 MiB\n";
	struct winsmi_q *sq = calloc(1, sizeof *sq);
	winsmi_q_parse(q, sizeof q - 1, sq);
	assert_int_equal(sq->ngpus, 1);
	assert_string_equal(sq->gpu[0].power_limit, "200.00 W");
	assert_string_equal(sq->gpu[0].pstate, "P2");
	assert_int_equal(winsmi_mib(sq->gpu[0].mem_total), 8192LL << 20);
	assert_int_equal(winsmi_mib("N/A"), -1);
	free(sq);
}

static void test_windriver_and_ver(void **state)
{
	(void)state;
	char d[16];
	assert_int_equal(windriver_date("20240222000000.000000-000", d, sizeof d), 0);
	assert_string_equal(d, "2024-02-22");
	assert_int_equal(windriver_date("2024-02-22T00:00:00", d, sizeof d), 0);
	assert_string_equal(d, "2024-02-22");
	assert_int_equal(windriver_date("02/22/2024", d, sizeof d), 0);
	assert_string_equal(d, "2024-02-22");
	assert_int_equal(windriver_date("22.02.2024 00:00:00", d, sizeof d), -1);
	/* Win32_PnPSignedDriver's names; its DeviceID is the PNP one. */
	static const char pnp[] = "DeviceName : NVIDIA RTX A2000\nDriverProviderName : NVIDIA\n"
				  "DriverVersion : 32.0.15.6094\nInfName : oem9.inf\n"
				  "DeviceID : PCI\\VEN_10DE&DEV_2531\nDeviceClass : DISPLAY\n";
	struct windriver w;
	assert_int_equal(windriver_parse(pnp, sizeof pnp - 1, &w), 1);
	assert_true(w.a[0].nvidia);
	assert_string_equal(w.a[0].vendor, "10de");
	assert_string_equal(w.a[0].devclass, "DISPLAY");
	struct winver v;
	assert_int_equal(winver_parse("Microsoft Windows [版本 10.0.19045.3086]", 43, &v), 0);
	assert_int_equal(v.build, 19045);
	assert_int_equal(winver_parse("Microsoft Windows [Version 10.0.17763]", 38, &v), 0);
	assert_int_equal(v.revision, -1);
	assert_int_equal(winver_parse("no version here 10.0.1.2", 24, &v), -1);
	assert_int_equal(winver_parse("", 0, &v), -1); /* fuzz_windows: empty input */
	assert_int_equal(winver_from_build(26100, -1, &v), 0);
	assert_string_equal(v.version, "10.0.26100");
}

/* ---- the facts from a batch ---- */

static void test_winfacts_from_sections(void **state)
{
	(void)state;
	const time_t now = 1796119200 + 3600; /* an hour after the reset below */
	struct strbuf b = STRBUF_INIT;
	sb_add(&b, "##wslgpu-begin events-tdr\n"
		   "<Event><System><Provider Name='Display'/><EventID>4101</EventID>"
		   "<TimeCreated SystemTime='2026-12-01T10:00:00Z'/></System>"
		   "<EventData><Data>nvlddmkm</Data></EventData></Event>"
		   "<Event><System><Provider Name='Display'/><EventID>4101</EventID>"
		   "<TimeCreated SystemTime='2026-11-01T10:00:00Z'/></System></Event>"
		   "<Event><System><Provider Name='nvlddmkm'/><EventID>153</EventID>"
		   "<TimeCreated SystemTime='2026-12-01T09:59:59Z'/></System></Event>\n"
		   "##wslgpu-end events-tdr ok\n"
		   "##wslgpu-begin gpu-memory\n"
		   "\\\\h\\gpu adapter memory(luid_0x00000000_0x0000AAAA_phys_0)\\dedicated usage :\n0\n"
		   "\\\\h\\gpu adapter memory(luid_0x00000000_0x0000BBBB_phys_0)\\dedicated usage :\n3145728\n"
		   "\\\\h\\gpu process memory(pid_8_luid_0x00000000_0x0000BBBB_phys_0)\\local usage :\n2097152\n"
		   "\\\\h\\gpu process memory(pid_9_luid_0x00000000_0x0000BBBB_phys_0)\\local usage :\n1048576\n"
		   "\\\\h\\gpu process memory(pid_7_luid_0x00000000_0x0000AAAA_phys_0)\\local usage :\n9999999\n"
		   "\\\\h\\process(chrome)\\id process :\n8\n"
		   "\\\\h\\process(vmmemWSL)\\id process :\n9\n"
		   "##wslgpu-end gpu-memory ok\n"
		   "##wslgpu-begin wsl-version\nWSL version: 2.1.0.0\n"
		   "##wslgpu-end wsl-version ok\n"
		   "##wslgpu-begin reg-graphics\nERROR: The system was unable to find the specified registry key or value.\n"
		   "##wslgpu-end reg-graphics error\n"
		   "##wslgpu-begin smi-q\n##wslgpu-end smi-q absent\n");
	struct winfacts *f = calloc(1, sizeof *f);
	f->tdr_delay = f->tdr_level = -1;
	winfacts_from_sections(b.buf, b.len, now, f);
	assert_true(f->reached);
	/* The month-old reset is outside the 7 days. */
	assert_int_equal(f->resets, 1);
	assert_int_equal(f->nv_errors, 1);
	assert_string_equal(f->last_reset, "2026-12-01T10:00:00Z");
	assert_string_equal(f->reset_driver, "nvlddmkm");
	/* The adapter with memory in use; the other adapter's process ignored. */
	assert_true(f->have_mem);
	assert_string_equal(f->mem_luid, "0x00000000_0x0000bbbb");
	assert_int_equal(f->mem_windows, 2097152);
	assert_int_equal(f->mem_vm, 1048576);
	assert_int_equal(f->nprocs, 2);
	assert_string_equal(f->proc[0].name, "chrome");
	assert_true(f->proc[1].vm);
	assert_true(f->have_wsl);
	assert_string_equal(f->wsl.wsl, "2.1.0.0");
	assert_false(f->have_tdr_reg);
	size_t states = 0;
	for (size_t i = 0; i < f->nparts; i++) {
		if (!strcmp(f->part[i].name, "reg-graphics")) {
			assert_string_equal(f->part[i].state, "error");
			assert_non_null(strstr(f->part[i].note, "unable to find"));
			states++;
		}
		if (!strcmp(f->part[i].name, "smi-q")) {
			assert_string_equal(f->part[i].state, "absent");
			states++;
		}
	}
	assert_int_equal(states, 2);
	free(f);
	sb_release(&b);
	/* The script the query runs names every section read here. */
	static const char *const names[] = { "smi-q", "wsl-version", "ver", "reg-version", "reg-graphics",
					     "video-controller", "events-tdr", "events-wu", "gpu-memory" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char q[48];
		snprintf(q, sizeof q, "'%s'", names[i]);
		assert_non_null(strstr(winfacts_script, q));
	}
}

/* ---- the query's commands through a probe's runner ---- */

static int ran;
static char ran_argv0[256];
static bool ran_encoded;

static int run_deferred(void *arg, const char *const *argv, const struct proc_opts *po,
			struct proc_result *pr)
{
	(void)arg, (void)argv, (void)po, (void)pr;
	ran++;
	return -EAGAIN;
}

static int run_batch(void *arg, const char *const *argv, const struct proc_opts *po,
		     struct proc_result *pr)
{
	(void)po;
	ran++;
	snprintf(ran_argv0, sizeof ran_argv0, "%s", argv[0]);
	for (size_t i = 1; argv[i]; i++)
		if (!strcmp(argv[i], "-EncodedCommand") && argv[i + 1] && argv[i + 1][0])
			ran_encoded = true;
	sb_add(&pr->out, (const char *)arg);
	pr->end = PROC_EXITED;
	pr->code = 0;
	return 0;
}

static void test_winfacts_runner(void **state)
{
	(void)state;
	char *d = tu_mkdtemp();
	tu_write_str(d, "usr/bin/powershell.exe", "#!/bin/sh\n");
	char p[4096];
	snprintf(p, sizeof p, "%s/usr/bin/powershell.exe", d);
	chmod(p, 0755);
	assert_int_equal(rootfs_set(d), 0);
	/* A runner that hands the probe over first: nothing run, nothing kept. */
	struct winfacts_opts o = { .timeout_ms = 5000, .run = run_deferred };
	struct winfacts *f = calloc(1, sizeof *f);
	assert_int_equal(winfacts_collect(&o, f), -EAGAIN);
	assert_int_equal(ran, 1);
	assert_null(winfacts_get(&o));
	assert_int_equal(ran, 2);
	/* Then where it may run commands: one PowerShell run, its sections read. */
	static const char batch[] = "##wslgpu-begin ver\r\nMicrosoft Windows [Version 10.0.22631.4460]\r\n"
				    "##wslgpu-end ver ok\r\n";
	o.run = run_batch;
	o.run_arg = (void *)batch;
	const struct winfacts *g = winfacts_get(&o);
	assert_non_null(g);
	assert_int_equal(ran, 3);
	assert_true(strstr(ran_argv0, "/usr/bin/powershell.exe") != NULL);
	assert_true(ran_encoded);
	assert_true(g->reached);
	assert_int_equal(g->via, WINFACTS_VIA_POWERSHELL);
	assert_int_equal(g->ver.build, 22631);
	/* Cached: asked once per run. */
	assert_ptr_equal(winfacts_get(&o), g);
	assert_int_equal(ran, 3);
	free(f);
	rootfs_set("/");
	tu_rmtree(d);
	free(d);
}

/* watch's Windows sample: engines summed over processes, the busiest
 * engine is the adapter's; the VM's processes read apart. */
static void test_winload(void **state)
{
	(void)state;
	static const char sample[] =
		"##wslgpu-begin sample\r\n"
		"\\\\H\\gpu engine(pid_10_luid_0x00000000_0x0000D2B1_phys_0_eng_0_engtype_3D)\\utilization percentage :\r\n60\r\n\r\n"
		"\\\\H\\gpu engine(pid_20_luid_0x00000000_0x0000D2B1_phys_0_eng_0_engtype_3D)\\utilization percentage :\r\n30,5\r\n\r\n"
		"\\\\H\\gpu engine(pid_20_luid_0x00000000_0x0000D2B1_phys_0_eng_3_engtype_Compute)\\utilization percentage :\r\n45\r\n\r\n"
		"\\\\H\\gpu engine(pid_20_luid_0x00000000_0x00010C55_phys_0_eng_0_engtype_3D)\\utilization percentage :\r\n99\r\n\r\n"
		"\\\\H\\gpu adapter memory(luid_0x00000000_0x0000D2B1_phys_0)\\dedicated usage :\r\n1048576000\r\n\r\n"
		"\\\\H\\gpu adapter memory(luid_0x00000000_0x00010C55_phys_0)\\dedicated usage :\r\n0\r\n\r\n"
		"\\\\H\\gpu process memory(pid_10_luid_0x00000000_0x0000D2B1_phys_0)\\local usage :\r\n524288000\r\n\r\n"
		"\\\\H\\process(vmmemWSL)\\id process :\r\n10\r\n\r\n"
		"##wslgpu-end sample ok\r\n";
	struct winload l;
	assert_int_equal(winload_parse(sample, sizeof sample - 1, &l), 0);
	assert_string_equal(l.luid, "0x00000000_0x0000d2b1");
	assert_true(l.util_ok);
	assert_true(l.util > 90.4 && l.util < 90.6); /* 60 + 30.5 on one engine; not the iGPU's 99 */
	assert_true(l.vm_util_ok);
	assert_true(l.vm_util > 59.9 && l.vm_util < 60.1);
	assert_true(l.mem_ok && l.mem == 1048576000.0);
	assert_true(l.vm_mem_ok && l.vm_mem == 524288000.0);
	/* Nothing readable: -1, nothing claimed. */
	assert_int_equal(winload_parse("Get-CimInstance : Invalid class\r\n", 33, &l), -1);
	assert_false(l.util_ok || l.mem_ok || l.vm_util_ok);
	/* The script's interval is filled in; its command is found or not. */
	assert_non_null(strstr(winload_script, "SLEEP_MS"));
	assert_non_null(strstr(winload_script, WINLOAD_END));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wintext_utf16_start),
		cmocka_unit_test(test_wintext_decode),
		cmocka_unit_test(test_wslver_every_language),
		cmocka_unit_test(test_winbatch_sections),
		cmocka_unit_test(test_winevent_xml),
		cmocka_unit_test(test_winreg_forms),
		cmocka_unit_test(test_wincounter_forms),
		cmocka_unit_test(test_winsmi_forms),
		cmocka_unit_test(test_windriver_and_ver),
		cmocka_unit_test(test_winfacts_from_sections),
		cmocka_unit_test(test_winfacts_runner),
		cmocka_unit_test(test_winload),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
