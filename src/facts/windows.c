/* windows.c: the Windows side's facts through interop. See windows.h. */
#include "windows.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "../core/proc.h"
#include "../core/rootfs.h"
#include "../core/strbuf.h"
#include "../core/sha256.h"
#include "../parse/winbatch.h"
#include "../parse/wincounter.h"
#include "../parse/windriver.h"
#include "../parse/winevent.h"
#include "../parse/winreg.h"
#include "../parse/winsmi.h"
#include "../parse/wintext.h"
#include "wslhost.h"

/*
 * The batched query. Every fact is printed as its program prints it, so the
 * parsers tested on real outputs read it; what PowerShell makes (driver
 * list, counters) is printed in the layout of Format-List and Get-Counter,
 * with WMI property and class names, which are never translated. Output is
 * UTF-8 without a byte-order mark (the console's code page otherwise), and
 * WSL_UTF8=1 makes wsl.exe answer in UTF-8 too. -ErrorAction
 * SilentlyContinue on Get-WinEvent: "no events" is an error there.
 */
const char winfacts_script[] =
	"$ErrorActionPreference = 'Continue'\n"
	"$ProgressPreference = 'SilentlyContinue'\n"
	"try { [Console]::OutputEncoding = New-Object System.Text.UTF8Encoding $false } catch {}\n"
	"$h = $env:COMPUTERNAME\n"
	"function S([string]$n, [scriptblock]$b) {\n"
	"  '" WINBATCH_BEGIN "' + $n\n"
	"  $st = 'ok'\n"
	"  try {\n"
	"    $global:LASTEXITCODE = 0\n"
	"    foreach ($l in @(& $b 2>&1)) {\n"
	"      if ($l -is [System.Management.Automation.ErrorRecord]) { $st = 'error' }\n"
	"      \"$l\"\n"
	"    }\n"
	"    if ($st -eq 'ok' -and $global:LASTEXITCODE -ne 0) { $st = 'error' }\n"
	"  } catch { $st = 'error'; \"$($_.Exception.Message)\" }\n"
	"  '" WINBATCH_END "' + $n + ' ' + $st\n"
	"}\n"
	"function A([string]$n) { '" WINBATCH_BEGIN "' + $n; '" WINBATCH_END "' + $n + ' absent' }\n"
	"$smi = (Get-Command nvidia-smi.exe -ErrorAction SilentlyContinue | Select-Object -First 1).Source\n"
	"if (-not $smi) { $p = \"$env:ProgramFiles\\NVIDIA Corporation\\NVSMI\\nvidia-smi.exe\"; "
	"if (Test-Path $p) { $smi = $p } }\n"
	"if ($smi) { S 'smi-q' { & $smi -q } } else { A 'smi-q' }\n"
	"$env:WSL_UTF8 = '1'\n"
	"S 'wsl-version' { & wsl.exe --version }\n"
	"S 'ver' { & cmd.exe /d /c ver }\n"
	"S 'reg-version' { & reg.exe query 'HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion' }\n"
	"S 'reg-graphics' { & reg.exe query 'HKLM\\SYSTEM\\CurrentControlSet\\Control\\GraphicsDrivers' }\n"
	"S 'reg-machine' { & reg.exe query 'HKLM\\SOFTWARE\\Microsoft\\Cryptography' /v MachineGuid }\n"
	"S 'video-controller' { Get-CimInstance Win32_VideoController | ForEach-Object {\n"
	"  ''; 'Name : ' + $_.Name; 'AdapterCompatibility : ' + $_.AdapterCompatibility\n"
	"  'DriverVersion : ' + $_.DriverVersion\n"
	"  'DriverDate : ' + $(if ($_.DriverDate) { $_.DriverDate.ToString('yyyy-MM-dd') })\n"
	"  'InfFilename : ' + $_.InfFilename; 'PNPDeviceID : ' + $_.PNPDeviceID } }\n"
	"S 'events-tdr' { Get-WinEvent -LogName System -MaxEvents 100 -ErrorAction SilentlyContinue "
	"-FilterXPath \"*[System[(Provider[@Name='Display'] and EventID=4101) or "
	"Provider[@Name='nvlddmkm']] and System[TimeCreated[timediff(@SystemTime) <= 604800000]]]\" | "
	"ForEach-Object { $_.ToXml() } }\n"
	"S 'events-wu' { Get-WinEvent -LogName System -MaxEvents 200 -ErrorAction SilentlyContinue "
	"-FilterXPath \"*[System[Provider[@Name='Microsoft-Windows-WindowsUpdateClient'] and "
	"EventID=19] and System[TimeCreated[timediff(@SystemTime) <= 2592000000]]]\" | "
	"ForEach-Object { $_.ToXml() } }\n"
	"S 'gpu-memory' {\n"
	"  Get-CimInstance Win32_PerfFormattedData_GPUPerformanceCounters_GPUAdapterMemory | "
	"ForEach-Object { \"\\\\$h\\gpu adapter memory($($_.Name))\\dedicated usage :\"; "
	"[string]$_.DedicatedUsage; '' }\n"
	"  $pm = @(Get-CimInstance Win32_PerfFormattedData_GPUPerformanceCounters_GPUProcessMemory)\n"
	"  $pm | ForEach-Object { \"\\\\$h\\gpu process memory($($_.Name))\\local usage :\"; "
	"[string]$_.LocalUsage; '' }\n"
	"  $ids = @($pm | ForEach-Object { if ($_.Name -match '^pid_(\\d+)_') { [int]$Matches[1] } } | "
	"Sort-Object -Unique)\n"
	"  if ($ids.Count) { Get-Process -Id $ids -ErrorAction SilentlyContinue | ForEach-Object { "
	"\"\\\\$h\\process($($_.ProcessName))\\id process :\"; [string]$_.Id; '' } }\n"
	"}\n";

const char *winfacts_via_name(enum winfacts_via v)
{
	switch (v) {
	case WINFACTS_VIA_POWERSHELL: return "powershell";
	case WINFACTS_VIA_PROGRAMS: return "programs";
	default: return "none";
	}
}

/* ---- reading the sections ---- */

static struct winfacts_part *part(struct winfacts *f, const char *name)
{
	for (size_t i = 0; i < f->nparts; i++)
		if (!strcmp(f->part[i].name, name))
			return &f->part[i];
	if (f->nparts == WINFACTS_MAX_PARTS)
		return &f->part[WINFACTS_MAX_PARTS - 1];
	struct winfacts_part *p = &f->part[f->nparts++];
	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "%s", name);
	return p;
}

static void set_part(struct winfacts *f, const char *name, const char *state, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void set_part(struct winfacts *f, const char *name, const char *state, const char *fmt, ...)
{
	struct winfacts_part *p = part(f, name);
	snprintf(p->state, sizeof p->state, "%s", state);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->note, sizeof p->note, fmt, ap);
	va_end(ap);
}

/* The first line of a body, for a part's note. */
static void first_line(const char *s, size_t n, char *out, size_t cap)
{
	while (n && (*s == '\n' || *s == ' '))
		s++, n--;
	size_t l = 0;
	while (l < n && s[l] != '\n' && l + 1 < cap)
		l++;
	snprintf(out, cap, "%.*s", (int)l, s);
	for (char *q = out; *q; q++)
		if ((unsigned char)*q < 0x20)
			*q = '?';
}

static void read_smi(struct winfacts *f, const char *s, size_t n)
{
	struct winsmi_q *q = xcalloc(1, sizeof *q);
	nvsmi_parse(s, n, &f->smi);
	winsmi_q_parse(s, n, q);
	f->have_smi = f->smi.have_header || f->smi.ngpus > 0;
	f->ngpus = 0;
	for (size_t i = 0; i < f->smi.ngpus && f->ngpus < WINFACTS_MAX_GPUS; i++) {
		struct winfacts_gpu *g = &f->gpu[f->ngpus++];
		memset(g, 0, sizeof *g);
		snprintf(g->name, sizeof g->name, "%s", f->smi.gpu[i].name);
		snprintf(g->model, sizeof g->model, "%s", f->smi.gpu[i].model);
		g->mem_total = g->mem_used = -1;
		if (i < q->ngpus) {
			const struct winsmi_gpu *d = &q->gpu[i];
			snprintf(g->pstate, sizeof g->pstate, "%s", d->pstate);
			snprintf(g->power_draw, sizeof g->power_draw, "%s", d->power_draw);
			snprintf(g->power_limit, sizeof g->power_limit, "%s", d->power_limit);
			g->mem_total = winsmi_mib(d->mem_total);
			g->mem_used = winsmi_mib(d->mem_used);
		}
	}
	free(q);
}

static void read_reg_version(struct winfacts *f, const char *s, size_t n)
{
	struct winreg *r = xcalloc(1, sizeof *r);
	winreg_parse(s, n, r);
	const struct winreg_value *b = winreg_get(r, "CurrentBuild");
	if (!b)
		b = winreg_get(r, "CurrentBuildNumber");
	const struct winreg_value *u = winreg_get(r, "UBR");
	const struct winreg_value *dv = winreg_get(r, "DisplayVersion");
	if (dv)
		snprintf(f->display_version, sizeof f->display_version, "%.15s", dv->data);
	if (b && !f->have_ver) {
		long build = strtol(b->data, NULL, 10);
		long ubr = u && u->is_number ? (long)u->number : -1;
		f->have_ver = winver_from_build(build, ubr, &f->ver) == 0;
	}
	free(r);
}

static void read_reg_graphics(struct winfacts *f, const char *s, size_t n)
{
	struct winreg *r = xcalloc(1, sizeof *r);
	winreg_parse(s, n, r);
	f->have_tdr_reg = r->key[0] != '\0';
	const struct winreg_value *v;
	f->tdr_delay = (v = winreg_get(r, "TdrDelay")) && v->is_number ? (long)v->number : -1;
	f->tdr_level = (v = winreg_get(r, "TdrLevel")) && v->is_number ? (long)v->number : -1;
	f->tdr_ddi_delay = (v = winreg_get(r, "TdrDdiDelay")) && v->is_number ? (long)v->number : -1;
	free(r);
}

static void read_machine(struct winfacts *f, const char *s, size_t n)
{
	struct winreg *r = xcalloc(1, sizeof *r);
	winreg_parse(s, n, r);
	const struct winreg_value *g = winreg_get(r, "MachineGuid");
	if (g && g->data[0]) {
		struct strbuf in = STRBUF_INIT;
		sb_add(&in, "wslgpu-host:");
		for (const char *c = g->data; *c; c++)
			sb_addf(&in, "%c", *c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
		char hex[65];
		sha256_hex(in.buf, in.len, hex);
		snprintf(f->host_key, sizeof f->host_key, "%.16s", hex);
		sb_release(&in);
	}
	free(r);
}

static void read_driver(struct winfacts *f, const char *s, size_t n)
{
	struct windriver *d = xcalloc(1, sizeof *d);
	windriver_parse(s, n, d);
	for (size_t i = 0; i < d->n && !f->have_driver; i++) {
		const struct windriver_adapter *a = &d->a[i];
		if (!a->nvidia)
			continue;
		f->have_driver = true;
		snprintf(f->drv_name, sizeof f->drv_name, "%s", a->name);
		snprintf(f->drv_provider, sizeof f->drv_provider, "%s", a->provider);
		snprintf(f->drv_version, sizeof f->drv_version, "%s", a->version);
		snprintf(f->drv_date, sizeof f->drv_date, "%s", a->date);
		snprintf(f->drv_inf, sizeof f->drv_inf, "%s", a->inf);
	}
	free(d);
}

#define DAY 86400

static void read_tdr(struct winfacts *f, const char *s, size_t n, time_t now)
{
	struct winevents *ev = xcalloc(1, sizeof *ev);
	winevent_parse(s, n, ev);
	f->have_events = true;
	f->resets = f->nv_errors = 0;
	time_t newest = 0;
	for (size_t i = 0; i < ev->n; i++) {
		const struct winevent *e = &ev->v[i];
		/* The query asked for 7 days; a record with a time says so again. */
		if (e->when && (e->when < now - 7 * DAY || e->when > now + DAY))
			continue;
		if (winevent_is_reset(e)) {
			f->resets++;
			if (e->when >= newest) {
				newest = e->when;
				snprintf(f->last_reset, sizeof f->last_reset, "%s", e->time);
				snprintf(f->reset_driver, sizeof f->reset_driver, "%s", e->driver);
			}
		} else if (winevent_is_nvidia(e)) {
			f->nv_errors++;
		}
	}
	free(ev);
}

static void read_wu(struct winfacts *f, const char *s, size_t n, time_t now)
{
	struct winevents *ev = xcalloc(1, sizeof *ev);
	winevent_parse(s, n, ev);
	f->have_wu = true;
	f->wu_nvidia = 0;
	time_t newest = 0;
	for (size_t i = 0; i < ev->n; i++) {
		const struct winevent *e = &ev->v[i];
		if (e->when && (e->when < now - 30 * DAY || e->when > now + DAY))
			continue;
		/* Driver updates are titled "MANUFACTURER - CLASS - VERSION". */
		if (!strcasestr(e->title, "NVIDIA"))
			continue;
		f->wu_nvidia++;
		if (e->when >= newest) {
			newest = e->when;
			snprintf(f->wu_title, sizeof f->wu_title, "%s", e->title);
			snprintf(f->wu_time, sizeof f->wu_time, "%s", e->time);
		}
	}
	free(ev);
}

static bool is_vm(const char *name)
{
	/* vmmemWSL runs WSL's VM on Windows 11; vmmem any Hyper-V VM
	 * (microsoft/WSL#6881). */
	return !strcasecmp(name, "vmmem") || !strcasecmp(name, "vmmemWSL");
}

static void read_memory(struct winfacts *f, const char *s, size_t n)
{
	struct wincounters c;
	wincounter_parse(s, n, &c);
	/* The adapter with the most dedicated memory in use: the discrete GPU
	 * (an integrated one has no dedicated memory to speak of). */
	long long best = -1;
	for (size_t i = 0; i < c.n; i++) {
		const struct wincounter_sample *x = &c.v[i];
		struct wingpu_instance gi;
		if (strcasecmp(x->object, "gpu adapter memory") || strcasecmp(x->counter, "dedicated usage") ||
		    !x->have_value || wincounter_gpu_instance(x->instance, &gi) < 0)
			continue;
		if ((long long)x->value > best) {
			best = (long long)x->value;
			snprintf(f->mem_luid, sizeof f->mem_luid, "%s", gi.luid);
		}
	}
	if (best < 0) {
		wincounter_free(&c);
		return;
	}
	f->have_mem = true;
	f->mem_adapter = best;
	f->mem_windows = f->mem_vm = 0;
	f->nprocs = 0;
	struct winfacts_proc all[64];
	size_t nall = 0;
	for (size_t i = 0; i < c.n; i++) {
		const struct wincounter_sample *x = &c.v[i];
		struct wingpu_instance gi;
		if (strcasecmp(x->object, "gpu process memory") || strcasecmp(x->counter, "local usage") ||
		    !x->have_value || wincounter_gpu_instance(x->instance, &gi) < 0 || gi.pid < 0 ||
		    strcmp(gi.luid, f->mem_luid) || x->value <= 0)
			continue;
		size_t k = 0;
		while (k < nall && all[k].pid != gi.pid)
			k++;
		if (k == nall) {
			if (nall == sizeof all / sizeof all[0])
				continue;
			memset(&all[nall], 0, sizeof all[nall]);
			all[nall].pid = gi.pid;
			nall++;
		}
		all[k].bytes += (long long)x->value;
	}
	for (size_t i = 0; i < c.n; i++) {
		const struct wincounter_sample *x = &c.v[i];
		if (strcasecmp(x->object, "process") || strcasecmp(x->counter, "id process") || !x->have_value)
			continue;
		for (size_t k = 0; k < nall; k++)
			if (all[k].pid == (long)x->value) {
				snprintf(all[k].name, sizeof all[k].name, "%.63s", x->instance);
				all[k].vm = is_vm(x->instance);
			}
	}
	/* Biggest first. */
	for (size_t i = 1; i < nall; i++)
		for (size_t j = i; j > 0 && all[j].bytes > all[j - 1].bytes; j--) {
			struct winfacts_proc t = all[j];
			all[j] = all[j - 1];
			all[j - 1] = t;
		}
	for (size_t k = 0; k < nall; k++) {
		if (all[k].vm)
			f->mem_vm += all[k].bytes;
		else
			f->mem_windows += all[k].bytes;
		if (f->nprocs < WINFACTS_MAX_PROCS)
			f->proc[f->nprocs++] = all[k];
	}
	wincounter_free(&c);
}

/* Reads one section's body into f and records how the part went. */
static void read_section(struct winfacts *f, const char *name, enum winbatch_status st,
			 const char *s, size_t n, time_t now)
{
	char line[96];
	first_line(s, n, line, sizeof line);
	if (st == WINBATCH_ABSENT) {
		set_part(f, name, "absent", "not on this machine");
		return;
	}
	if (st == WINBATCH_CUT) {
		set_part(f, name, "cut", "its output ended early%s%s", line[0] ? ": " : "", line);
		/* What came may still be read. */
	}
	bool read = false;
	if (!strcmp(name, "smi-q")) {
		read_smi(f, s, n);
		read = f->have_smi;
	} else if (!strcmp(name, "wsl-version")) {
		f->have_wsl = winwslver_parse(s, n, &f->wsl) > 0;
		read = f->have_wsl;
	} else if (!strcmp(name, "ver")) {
		struct winver v;
		if (winver_parse(s, n, &v) == 0) {
			f->ver = v;
			f->have_ver = read = true;
		}
	} else if (!strcmp(name, "reg-version")) {
		read_reg_version(f, s, n);
		read = f->have_ver;
	} else if (!strcmp(name, "reg-graphics")) {
		read_reg_graphics(f, s, n);
		read = f->have_tdr_reg;
	} else if (!strcmp(name, "reg-machine")) {
		read_machine(f, s, n);
		read = f->host_key[0] != '\0';
	} else if (!strcmp(name, "video-controller")) {
		read_driver(f, s, n);
		read = f->have_driver;
	} else if (!strcmp(name, "events-tdr")) {
		if (st == WINBATCH_OK || st == WINBATCH_CUT)
			read_tdr(f, s, n, now);
		read = f->have_events;
	} else if (!strcmp(name, "events-wu")) {
		if (st == WINBATCH_OK || st == WINBATCH_CUT)
			read_wu(f, s, n, now);
		read = f->have_wu;
	} else if (!strcmp(name, "gpu-memory")) {
		read_memory(f, s, n);
		read = f->have_mem;
	} else {
		return;
	}
	if (read)
		f->reached = true;
	if (st == WINBATCH_CUT)
		return;
	if (st == WINBATCH_ERROR)
		set_part(f, name, read ? "ok" : "error", "%s", line[0] ? line : "failed without a message");
	else if (read)
		set_part(f, name, "ok", "%s", "");
	else if (n && line[0])
		set_part(f, name, "unreadable", "%s", line);
	else
		set_part(f, name, "empty", "no output");
}

void winfacts_from_sections(const char *buf, size_t len, time_t now, struct winfacts *f)
{
	struct winbatch *b = xcalloc(1, sizeof *b);
	winbatch_parse(buf, len, b);
	if (!now)
		now = time(NULL);
	for (size_t i = 0; i < b->n; i++) {
		size_t n;
		const char *s = winbatch_body(b, &b->s[i], &n);
		read_section(f, b->s[i].name, b->s[i].status, s, n, now);
	}
	winbatch_free(b);
	free(b);
}

/* ---- running the programs ---- */

/* Finds a Windows program: PATH (WSL appends Windows' PATH), else its usual
 * place under the automount root ("c/Windows/System32/..."). */
static int find_program(const char *name, const char *const *under_c, struct strbuf *guest,
			struct strbuf *host)
{
	bool on_path;
	if (rootfs_which(name, guest, host, &on_path) == 0)
		return 0;
	struct strbuf root = STRBUF_INIT, p = STRBUF_INIT;
	wslhost_automount_root(&root);
	int rc = -1;
	for (size_t i = 0; under_c[i] && rc; i++) {
		struct stat st;
		sb_reset(&p);
		sb_addf(&p, "%sc/%s", root.buf, under_c[i]);
		sb_reset(guest);
		sb_reset(host);
		if (rootfs_stat(p.buf, &st) == 0 && S_ISREG(st.st_mode) &&
		    rootfs_host_path(p.buf, true, host) == 0) {
			sb_add(guest, p.buf);
			rc = 0;
		}
	}
	sb_release(&root);
	sb_release(&p);
	return rc;
}

static const char *const at_powershell[] = {
	"Windows/System32/WindowsPowerShell/v1.0/powershell.exe", NULL };

/* A script as -EncodedCommand wants it: base64 of its UTF-16LE (ASCII). */
static void encoded_script(const char *script, size_t n, struct strbuf *out)
{
	unsigned char *u = xmalloc(2 * n + 1);
	for (size_t i = 0; i < n; i++) {
		u[2 * i] = (unsigned char)script[i];
		u[2 * i + 1] = 0;
	}
	sb_add_base64(out, u, 2 * n, false); /* -EncodedCommand: standard base64 */
	free(u);
}

static int remaining(double deadline)
{
	double left = deadline - now_ms();
	return left < 1 ? 1 : (int)left;
}

/* Runs one program; its stdout (stderr when stdout is empty) is the body
 * and *st the section status it amounts to. Returns -EAGAIN when o->run
 * deferred it, else 0. */
static int run_one(const struct winfacts_opts *o, const char *const *argv, const char *const *env,
		   int limit_ms, struct strbuf *body, struct strbuf *why, enum winbatch_status *st)
{
	struct proc_opts po = { .timeout_ms = limit_ms, .env_set = env };
	struct proc_result pr;
	proc_result_init(&pr);
	*st = WINBATCH_OK;
	int rc = o && o->run ? o->run(o->run_arg, argv, &po, &pr) : proc_run(argv, &po, &pr);
	if (rc == -EAGAIN) {
		proc_result_release(&pr);
		return rc;
	}
	if (rc < 0) {
		sb_add(why, "could not be started");
		proc_result_release(&pr);
		*st = WINBATCH_ERROR;
		return 0;
	}
	sb_addn(body, pr.out.buf ? pr.out.buf : "", pr.out.len);
	if (!pr.out.len)
		sb_addn(body, pr.err.buf ? pr.err.buf : "", pr.err.len);
	if (pr.end == PROC_TIMEOUT) {
		*st = WINBATCH_CUT;
		sb_addf(why, "no answer within %.1f s", limit_ms / 1000.0);
	} else if (pr.end != PROC_EXITED || pr.code != 0) {
		*st = WINBATCH_ERROR;
		proc_describe_end(&pr, why);
	}
	proc_result_release(&pr);
	return 0;
}

/* The PowerShell way. Returns 0 when it printed sections, 1 when it used
 * the time up, -EAGAIN when deferred, -1 otherwise. */
static int via_powershell(const struct winfacts_opts *o, struct winfacts *f, double deadline,
			  time_t now)
{
	struct strbuf guest = STRBUF_INIT, host = STRBUF_INIT, cmd = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
	int rc = -1;
	if (find_program("powershell.exe", at_powershell, &guest, &host) < 0)
		goto done;
	encoded_script(winfacts_script, strlen(winfacts_script), &cmd);
	const char *argv[] = { host.buf, "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass",
			       "-EncodedCommand", cmd.buf, NULL };
	f->asked = true;
	enum winbatch_status st;
	if (run_one(o, argv, NULL, remaining(deadline), &out, &why, &st) == -EAGAIN) {
		rc = -EAGAIN;
		goto done;
	}
	struct winbatch *b = xcalloc(1, sizeof *b);
	winbatch_parse(out.buf ? out.buf : "", out.len, b);
	if (b->n) {
		f->via = WINFACTS_VIA_POWERSHELL;
		winfacts_from_sections(out.buf, out.len, now, f);
		if (st == WINBATCH_CUT)
			snprintf(f->why, sizeof f->why, "PowerShell (%s) gave %zu of its parts: %s",
				 guest.buf, b->n, why.buf);
		rc = 0;
	} else {
		char line[96];
		first_line(b->text.buf ? b->text.buf : "", b->text.len, line, sizeof line);
		snprintf(f->why, sizeof f->why, "PowerShell (%s) %s%s%s", guest.buf,
			 why.len ? why.buf : "printed none of the query's parts",
			 line[0] ? ": " : "", line);
		/* A time-out used the time up: the programs get none. */
		if (st == WINBATCH_CUT)
			rc = 1;
	}
	winbatch_free(b);
	free(b);
done:
	sb_release(&guest);
	sb_release(&host);
	sb_release(&cmd);
	sb_release(&out);
	sb_release(&why);
	return rc;
}

/* The programs one by one, when there is no PowerShell. Returns -EAGAIN
 * when deferred, else 0. */
static int via_programs(const struct winfacts_opts *o, struct winfacts *f, double deadline,
			int total_ms, time_t now)
{
	static const char *const at_smi[] = { "Windows/System32/nvidia-smi.exe",
					      "Program Files/NVIDIA Corporation/NVSMI/nvidia-smi.exe",
					      NULL };
	static const char *const at_wsl[] = { "Windows/System32/wsl.exe", NULL };
	static const char *const at_cmd[] = { "Windows/System32/cmd.exe", NULL };
	static const char *const at_reg[] = { "Windows/System32/reg.exe", NULL };
	static const char *const at_wev[] = { "Windows/System32/wevtutil.exe", NULL };
	static const char *const at_tp[] = { "Windows/System32/typeperf.exe", NULL };
	static const char xp_tdr[] = "/q:*[System[(Provider[@Name='Display'] and EventID=4101) or "
				     "Provider[@Name='nvlddmkm']] and "
				     "System[TimeCreated[timediff(@SystemTime) <= 604800000]]]";
	static const char xp_wu[] = "/q:*[System[Provider[@Name='Microsoft-Windows-WindowsUpdateClient'] "
				    "and EventID=19] and "
				    "System[TimeCreated[timediff(@SystemTime) <= 2592000000]]]";
	struct strbuf wslenv = STRBUF_INIT;
	const char *old = getenv("WSLENV");
	sb_addf(&wslenv, "WSLENV=%s%sWSL_UTF8", old && *old ? old : "", old && *old ? ":" : "");
	const char *wsl_env[] = { "WSL_UTF8=1", wslenv.buf, NULL };
	const struct {
		const char *section, *program;
		const char *const *at;
		const char *args[8];
		const char *const *env;
	} steps[] = {
		{ "smi-q", "nvidia-smi.exe", at_smi, { "-q" }, NULL },
		{ "wsl-version", "wsl.exe", at_wsl, { "--version" }, wsl_env },
		{ "ver", "cmd.exe", at_cmd, { "/d", "/c", "ver" }, NULL },
		{ "reg-version", "reg.exe", at_reg,
		  { "query", "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion" }, NULL },
		{ "reg-graphics", "reg.exe", at_reg,
		  { "query", "HKLM\\SYSTEM\\CurrentControlSet\\Control\\GraphicsDrivers" }, NULL },
		{ "reg-machine", "reg.exe", at_reg,
		  { "query", "HKLM\\SOFTWARE\\Microsoft\\Cryptography", "/v", "MachineGuid" }, NULL },
		{ "events-tdr", "wevtutil.exe", at_wev,
		  { "qe", "System", xp_tdr, "/f:xml", "/c:100", "/rd:true" }, NULL },
		{ "events-wu", "wevtutil.exe", at_wev,
		  { "qe", "System", xp_wu, "/f:xml", "/c:200", "/rd:true" }, NULL },
		{ "gpu-memory", "typeperf.exe", at_tp,
		  { "\\GPU Adapter Memory(*)\\Dedicated Usage", "\\GPU Process Memory(*)\\Local Usage",
		    "\\Process(*)\\ID Process", "-sc", "1" }, NULL },
	};
	f->via = WINFACTS_VIA_PROGRAMS;
	struct strbuf guest = STRBUF_INIT, host = STRBUF_INIT, body = STRBUF_INIT, why = STRBUF_INIT;
	size_t found = 0;
	int rc = 0;
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		if (find_program(steps[i].program, steps[i].at, &guest, &host) < 0) {
			set_part(f, steps[i].section, "absent", "%s not found", steps[i].program);
			continue;
		}
		found++;
		if (deadline - now_ms() < 50) {
			set_part(f, steps[i].section, "timeout", "no time left for %s", steps[i].program);
			continue;
		}
		const char *argv[10] = { host.buf };
		size_t k = 1;
		for (size_t a = 0; a < 8 && steps[i].args[a]; a++)
			argv[k++] = steps[i].args[a];
		argv[k] = NULL;
		/* Each program gets at most a third of the whole limit, so that
		 * one that hangs leaves time for the others. */
		int limit = remaining(deadline);
		if (limit > total_ms / 3 + 1)
			limit = total_ms / 3 + 1;
		sb_reset(&body);
		sb_reset(&why);
		f->asked = true;
		enum winbatch_status st;
		if (run_one(o, argv, steps[i].env, limit, &body, &why, &st) == -EAGAIN) {
			rc = -EAGAIN;
			break;
		}
		read_section(f, steps[i].section, st, body.buf ? body.buf : "", body.len, now);
		if (st != WINBATCH_OK) {
			struct winfacts_part *p = part(f, steps[i].section);
			if (st == WINBATCH_CUT)
				snprintf(p->state, sizeof p->state, "timeout");
			snprintf(p->note, sizeof p->note, "%s %s", steps[i].program, why.buf);
		}
	}
	if (!found && !rc)
		snprintf(f->why, sizeof f->why,
			 "neither powershell.exe nor any of the programs it would run was found on PATH "
			 "or under C:\\Windows\\System32");
	sb_release(&guest);
	sb_release(&host);
	sb_release(&body);
	sb_release(&why);
	sb_release(&wslenv);
	return rc;
}

int winfacts_collect(const struct winfacts_opts *o, struct winfacts *f)
{
	memset(f, 0, sizeof *f);
	f->tdr_delay = f->tdr_level = f->tdr_ddi_delay = -1;
	int total = o && o->timeout_ms > 0 ? o->timeout_ms : 6000;
	double t0 = now_ms(), deadline = t0 + total;
	time_t now = time(NULL);
	int rc = o && o->no_powershell ? -1 : via_powershell(o, f, deadline, now);
	if (rc == -1)
		rc = via_programs(o, f, deadline, total, now);
	if (rc == -EAGAIN)
		return rc;
	f->ms = now_ms() - t0;
	if (!f->reached && !f->why[0]) {
		/* Every part failed: the first failure says why. */
		for (size_t i = 0; i < f->nparts && !f->why[0]; i++)
			if (strcmp(f->part[i].state, "absent"))
				snprintf(f->why, sizeof f->why, "%s: %s", f->part[i].name, f->part[i].note);
		if (!f->why[0])
			snprintf(f->why, sizeof f->why, "no part of the query answered");
	}
	return f->reached ? 0 : -1;
}

const struct winfacts *winfacts_get(const struct winfacts_opts *o)
{
	static struct winfacts cached;
	static bool have;
	if (!have) {
		if (winfacts_collect(o, &cached) == -EAGAIN)
			return NULL; /* asked again where the commands may run */
		have = true;
	}
	return &cached;
}

/* ---- the GPU's load, for watch ---- */

/*
 * Sent as one write per sample, so that a reader never sees half a block;
 * a write that fails (watch ended and the pipe is gone) ends the loop, so
 * that PowerShell does not outlive watch on Windows. The sleep is what is
 * left of the interval after the queries.
 */
const char winload_script[] =
	"$ErrorActionPreference = 'SilentlyContinue'\n"
	"$ProgressPreference = 'SilentlyContinue'\n"
	"# wslgpu-sampler\n"
	"$h = $env:COMPUTERNAME\n"
	"$o = [Console]::OpenStandardOutput()\n"
	"$enc = New-Object System.Text.UTF8Encoding $false\n"
	"function C($cls, $obj, $prop, $ctr) { Get-CimInstance $cls | ForEach-Object { "
	"\"\\\\$h\\$obj($($_.Name))\\$ctr :\"; [string]$_.$prop; '' } }\n"
	"$p = 'Win32_PerfFormattedData_GPUPerformanceCounters_'\n"
	"while ($true) {\n"
	"  $sw = [Diagnostics.Stopwatch]::StartNew()\n"
	"  $t = @('##wslgpu-begin sample')\n"
	"  $t += @(C ($p + 'GPUEngine') 'gpu engine' UtilizationPercentage 'utilization percentage')\n"
	"  $t += @(C ($p + 'GPUAdapterMemory') 'gpu adapter memory' DedicatedUsage 'dedicated usage')\n"
	"  $t += @(C ($p + 'GPUProcessMemory') 'gpu process memory' LocalUsage 'local usage')\n"
	"  $t += @(Get-Process -Name vmmemWSL,vmmem | ForEach-Object { "
	"\"\\\\$h\\process($($_.ProcessName))\\id process :\"; [string]$_.Id; '' })\n"
	"  $t += @('" WINLOAD_END " ok', '')\n"
	"  $b = $enc.GetBytes(($t -join \"`n\"))\n"
	"  try { $o.Write($b, 0, $b.Length); $o.Flush() } catch { exit }\n"
	"  $left = SLEEP_MS - $sw.ElapsedMilliseconds\n"
	"  if ($left -gt 0) { Start-Sleep -Milliseconds $left }\n"
	"}\n";

struct engine_sum {
	char luid[24];
	long phys, eng;
	double all, vm;
	bool vm_named;
};

int winload_parse(const char *buf, size_t len, struct winload *l)
{
	memset(l, 0, sizeof *l);
	struct wincounters c;
	wincounter_parse(buf, len, &c);
	long vm_pid[16];
	size_t nvm = 0;
	for (size_t i = 0; i < c.n; i++) {
		const struct wincounter_sample *x = &c.v[i];
		if (!strcasecmp(x->object, "process") && !strcasecmp(x->counter, "id process") &&
		    x->have_value && is_vm(x->instance) && nvm < sizeof vm_pid / sizeof vm_pid[0])
			vm_pid[nvm++] = (long)x->value;
	}
	/* The adapter: the most dedicated memory in use, as read_memory. */
	double best = -1;
	for (size_t i = 0; i < c.n; i++) {
		const struct wincounter_sample *x = &c.v[i];
		struct wingpu_instance gi;
		if (strcasecmp(x->object, "gpu adapter memory") || strcasecmp(x->counter, "dedicated usage") ||
		    !x->have_value || wincounter_gpu_instance(x->instance, &gi) < 0 || x->value <= best)
			continue;
		best = x->value;
		snprintf(l->luid, sizeof l->luid, "%s", gi.luid);
	}
	if (best >= 0) {
		l->mem_ok = true;
		l->mem = best;
	}
	struct engine_sum *es = xcalloc(256, sizeof *es);
	size_t nes = 0;
	for (size_t i = 0; i < c.n; i++) {
		const struct wincounter_sample *x = &c.v[i];
		struct wingpu_instance gi;
		if (strcasecmp(x->object, "gpu engine") || strcasecmp(x->counter, "utilization percentage") ||
		    !x->have_value || wincounter_gpu_instance(x->instance, &gi) < 0 ||
		    (l->luid[0] && strcmp(gi.luid, l->luid)) || !(x->value >= 0 && x->value <= 100))
			continue;
		size_t k = 0;
		while (k < nes && (strcmp(es[k].luid, gi.luid) || es[k].phys != gi.phys || es[k].eng != gi.eng))
			k++;
		if (k == nes) {
			if (nes == 256)
				continue;
			snprintf(es[nes].luid, sizeof es[nes].luid, "%s", gi.luid);
			es[nes].phys = gi.phys;
			es[nes].eng = gi.eng;
			nes++;
		}
		es[k].all += x->value;
		for (size_t v = 0; v < nvm; v++)
			if (gi.pid == vm_pid[v]) {
				es[k].vm += x->value;
				es[k].vm_named = true;
			}
	}
	/* Without memory counters: the adapter of the busiest engine. */
	if (!l->luid[0]) {
		double top = -1;
		for (size_t k = 0; k < nes; k++)
			if (es[k].all > top) {
				top = es[k].all;
				snprintf(l->luid, sizeof l->luid, "%s", es[k].luid);
			}
	}
	for (size_t k = 0; k < nes; k++) {
		if (strcmp(es[k].luid, l->luid))
			continue;
		double all = es[k].all > 100 ? 100 : es[k].all, vm = es[k].vm > 100 ? 100 : es[k].vm;
		if (!l->util_ok || all > l->util)
			l->util = all;
		l->util_ok = true;
		if (es[k].vm_named) {
			if (!l->vm_util_ok || vm > l->vm_util)
				l->vm_util = vm;
			l->vm_util_ok = true;
		}
	}
	for (size_t i = 0; i < c.n && l->mem_ok; i++) {
		const struct wincounter_sample *x = &c.v[i];
		struct wingpu_instance gi;
		if (strcasecmp(x->object, "gpu process memory") || strcasecmp(x->counter, "local usage") ||
		    !x->have_value || wincounter_gpu_instance(x->instance, &gi) < 0 ||
		    strcmp(gi.luid, l->luid))
			continue;
		for (size_t v = 0; v < nvm; v++)
			if (gi.pid == vm_pid[v]) {
				l->vm_mem += x->value;
				l->vm_mem_ok = true;
			}
	}
	free(es);
	wincounter_free(&c);
	return l->util_ok || l->mem_ok ? 0 : -1;
}

int winload_command(double interval_ms, struct strbuf *host, struct strbuf *encoded,
		    const char *argv[8], struct strbuf *why)
{
	struct strbuf guest = STRBUF_INIT, script = STRBUF_INIT;
	int rc = find_program("powershell.exe", at_powershell, &guest, host);
	sb_release(&guest);
	if (rc < 0) {
		sb_add(why, "powershell.exe was found neither on PATH nor under C:\\Windows\\System32");
		return -1;
	}
	const char *s = winload_script, *at = strstr(s, "SLEEP_MS");
	sb_addn(&script, s, (size_t)(at - s));
	sb_addf(&script, "%.0f", interval_ms);
	sb_add(&script, at + strlen("SLEEP_MS"));
	encoded_script(script.buf, script.len, encoded);
	sb_release(&script);
	const char *a[] = { host->buf, "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass",
			    "-EncodedCommand", encoded->buf, NULL };
	memcpy(argv, a, sizeof a);
	return 0;
}
