/*
 * fixline.c: classifying a fix line (see fixline.h). The first matching
 * row of the table wins; rows that change nothing come last.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "fixline.h"

#include "../core/rootfs.h"
#include "../core/strbuf.h"
#include "../core/text.h"
#include "../core/utf8.h"
#include "kb.h"

struct risk_rule {
	const char *pattern; /* a substring of the command (after "sudo ") */
	bool prefix;         /* match at the start only */
	enum fix_risk risk;
	const char *reason;
};

static const struct risk_rule rules[] = {
	{ "apt-get remove", false, RISK_HIGH, "removes packages: read the list apt shows before you answer yes" },
	{ "apt remove", false, RISK_HIGH, "removes packages: read the list apt shows before you answer yes" },
	{ "apt-get purge", false, RISK_HIGH, "removes packages: read the list apt shows before you answer yes" },
	{ "apt-get autoremove", false, RISK_HIGH, "removes packages: read the list apt shows before you answer yes" },
	{ "dpkg -r", false, RISK_HIGH, "removes packages" },
	{ "dpkg --purge", false, RISK_HIGH, "removes packages" },
	/* pnputil's listings only read; its other forms change drivers and
	 * devices (anywhere in the line: "pnputil /enum-drivers && ...") */
	{ "/delete-driver", false, RISK_HIGH, "removes a driver package from Windows" },
	{ "/remove-device", false, RISK_HIGH, "removes a device from Windows" },
	{ "/add-driver", false, RISK_MEDIUM, "adds a driver package to Windows" },
	{ "/disable-device", false, RISK_MEDIUM, "disables a device" },
	{ "/enable-device", false, RISK_MEDIUM, "enables a device" },
	{ "/restart-device", false, RISK_MEDIUM, "restarts a device" },
	{ "wevtutil cl", false, RISK_HIGH, "clears a Windows event log" },
	{ "wevtutil.exe cl", false, RISK_HIGH, "clears a Windows event log" },
	{ "pnputil /enum-", true, RISK_NONE, "only looks" },
	{ "pnputil.exe /enum-", true, RISK_NONE, "only looks" },
	{ "pnputil", true, RISK_HIGH, "removes a driver package from Windows" },
	{ "rm ", true, RISK_HIGH, "deletes files" },
	{ " -dm ", false, RISK_HIGH, "changes the GPU's driver model; Windows must restart" },
	{ "dism", true, RISK_HIGH, "changes Windows components" },
	{ "wsl.exe --unregister", false, RISK_HIGH, "deletes a distribution and its files" },
	{ "wsl.exe --shutdown", false, RISK_MEDIUM, "stops every running WSL distribution: save your work first" },
	{ "wsl.exe --set-version", false, RISK_MEDIUM, "converts the whole distribution (minutes for a big one); wsl.exe --export makes a backup first" },
	{ "wsl.exe --update", false, RISK_LOW, "updates WSL itself" },
	{ "reboot", false, RISK_MEDIUM, "restarts the machine" },
	{ "mv ", true, RISK_MEDIUM, "moves a system file (move it back to undo)" },
	{ "apt-get install", false, RISK_MEDIUM, "installs packages" },
	{ "apt install", false, RISK_MEDIUM, "installs packages" },
	{ "pip install", false, RISK_MEDIUM, "changes this Python environment" },
	{ "pip uninstall", false, RISK_MEDIUM, "changes this Python environment" },
	{ "modprobe", false, RISK_MEDIUM, "loads or unloads a kernel module" },
	{ "usermod", false, RISK_MEDIUM, "changes group membership (log in again afterwards)" },
	{ "nvidia-ctk runtime", false, RISK_MEDIUM, "rewrites the container runtime's configuration" },
	{ "service ", true, RISK_MEDIUM, "restarts a service" },
	{ "systemctl ", true, RISK_MEDIUM, "restarts a service" },
	{ "ldconfig -p", true, RISK_NONE, "only looks" },
	{ "ldconfig", true, RISK_LOW, "rebuilds the loader cache from the configured directories" },
	{ "unset ", true, RISK_LOW, "changes only this shell" },
	{ "export ", true, RISK_LOW, "changes only this shell" },
	{ "hash -r", true, RISK_LOW, "changes only this shell" },
	{ "sudoedit", true, RISK_LOW, "you edit the file yourself" },
	{ "${EDITOR:-vi} ", true, RISK_LOW, "you edit the file yourself" },
	{ "notepad", true, RISK_LOW, "you edit the file yourself" },
	{ "mkdir ", true, RISK_LOW, "creates a directory" },
	{ "docker run", true, RISK_LOW, "runs a throw-away container" },
	{ "podman run", true, RISK_LOW, "runs a throw-away container" },
};

/* Commands that only look. */
static const char *const readers[] = {
	"ls", "grep", "cat", "echo", "dpkg -S", "dpkg -l", "dpkg-query", "nvidia-smi",
	"nvidia-smi.exe", "wslgpu", "free", "df", "findmnt", "uname", "lsmod", "dkms status",
	"file", "id", "namei", "docker info", "docker version", "cmd /c ver", "winver",
	"wsl.exe -l", "wsl.exe --list", "wsl.exe --version", "wsl.exe --status", "nvcc",
	"python", "python3", "pip list", "pip show", "mokutil", "env", "dmesg", "lspci",
	"vmstat", "apt-cache", "py-spy", "nproc", "ulimit", "iconv", "find", "stat", "readlink",
	"nvidia-container-cli", "LD_DEBUG=", "explorer.exe", "lsof", "top", "ps", "ldd",
	"docker context ls", "docker history", "systeminfo",
	/* Windows' own: where.exe (not "where", PowerShell's Where-Object),
	 * the event log's queries (qe: events, el: logs, gl: a log's
	 * settings), the driver list, and PowerShell's Get- cmdlets of
	 * devices, events and the registry (pnputil's listings: rules) */
	"where.exe", "wevtutil qe", "wevtutil.exe qe", "wevtutil el", "wevtutil.exe el",
	"wevtutil gl", "wevtutil.exe gl", "driverquery", "driverquery.exe", "Get-PnpDevice",
	"Get-PnpDeviceProperty", "Get-WinEvent", "Get-CimInstance", "Get-ItemProperty",
	"Get-Command", "Get-ChildItem", "Get-Item", NULL,
};

/* First words of a fix line that is a sentence for a person. */
static const char *const verbs[] = {
	"update", "install", "use", "or", "keep", "reinstall", "if", "for", "restart", "enable",
	"add", "switch", "run", "reset", "replace", "remove", "rebuild", "raise", "pack", "one",
	"nothing", "lower", "generate", "fewer", "do", "delete", "copy", "check", "cap", "batch",
	"apply", "open", "move", "set", "put", "ask", "close", "start", "as", "collect",
	"comment", "download", "drop", "exclude", "follow", "in", "load", "look", "managed",
	"on", "otherwise", "pass", "read", "scroll", "stop", "to", "wait", NULL,
};

static bool starts_word(const char *s, const char *w)
{
	size_t l = strlen(w);
	return strncmp(s, w, l) == 0 && (s[l] == '\0' || s[l] == ' ' || w[l - 1] == '=');
}

/* The risk of command t by the table, or by its first word when that is
 * a command that only looks; false when neither knows it. */
static bool command_risk(const char *t, enum fix_risk *risk, const char **reason)
{
	const char *cmd = starts_word(t, "sudo") ? t + 5 : t;
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
		const char *hit = strstr(cmd, rules[i].pattern);
		if (hit && (!rules[i].prefix || hit == cmd)) {
			*risk = rules[i].risk;
			*reason = rules[i].reason;
			return true;
		}
	}
	for (size_t i = 0; readers[i]; i++)
		if (starts_word(cmd, readers[i]) || (readers[i][0] == '{' && cmd[0] == '{')) {
			*risk = RISK_NONE;
			*reason = "only looks";
			return true;
		}
	if (cmd[0] == '{' || cmd[0] == '/') { /* {python} -m ..., /usr/lib/wsl/lib/nvidia-smi */
		*risk = RISK_NONE;
		*reason = "only looks";
		return true;
	}
	return false;
}

/* A PowerShell cmdlet's name, Verb-Noun ("Get-PnpDevice"; not "NVIDIA-SMI"). */
static bool is_cmdlet(const char *s, size_t wl)
{
	const char *dash = memchr(s, '-', wl);
	if (!dash || dash < s + 2 || dash + 1 >= s + wl || !isupper((unsigned char)dash[1]))
		return false;
	for (const char *p = s + 1; p < dash; p++)
		if (!islower((unsigned char)*p))
			return false;
	for (const char *p = dash + 1; p < s + wl; p++)
		if (!isalnum((unsigned char)*p))
			return false;
	return true;
}

/* Whether s begins "NAME=" (upper-case letters, digits, underscores): a
 * POSIX shell's assignment, the environment of the command after it
 * (LD_DEBUG=libs, OLLAMA_DEBUG=1); PowerShell sets $env:NAME instead. */
static bool starts_with_assignment(const char *s)
{
	size_t name = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
	return name > 0 && s[name] == '=';
}

static bool is_instruction(const char *s)
{
	size_t wl = strcspn(s, " ");
	if (wl == 0)
		return true;
	/* "NAME=value cmd" is a POSIX shell's command, not words */
	if (isupper((unsigned char)s[0]) && !starts_with_assignment(s) && !is_cmdlet(s, wl))
		return true; /* "PyTorch: ...", "Docker Desktop ..." */
	if (s[wl - 1] == ':' || memchr(s, '(', wl))
		return true; /* "or:", "DataLoader(...," -- code for a script, not a shell */
	/* "or, with toolkit 1.18 ...: sudo systemctl ..." is words too */
	size_t vl = wl;
	while (vl > 1 && (s[vl - 1] == ',' || s[vl - 1] == ';'))
		vl--;
	for (size_t i = 0; verbs[i]; i++)
		if (strlen(verbs[i]) == vl && strncmp(s, verbs[i], vl) == 0) {
			/* "start https://..." opens a page from PowerShell; "set -x" is a command */
			if (!strcmp(verbs[i], "start") && strstr(s, "://"))
				return false;
			if (!strcmp(verbs[i], "set") && s[wl] == ' ' && s[wl + 1] == '-')
				return false;
			return true;
		}
	return false;
}

/* Where a line runs, from its command and its remark. */
static enum fix_where where_of(const char *cmd, const char *note)
{
	size_t wl = strcspn(cmd, " ");
	if (strstr(note, "PowerShell") || strstr(cmd, "$env:") ||
	    (wl > 4 && strncmp(cmd + wl - 4, ".exe", 4) == 0))
		return FIX_POWERSHELL;
	if (!strncmp(note, "in Windows", 10))
		return FIX_WINDOWS;
	return FIX_LINUX;
}

void fix_classify(const char *line, struct fix_command *c)
{
	memset(c, 0, sizeof *c);
	/* "command   (remark)": the KB's convention for a remark. */
	struct strbuf remark = STRBUF_INIT;
	const char *rem = kb_fix_remark(line, &remark);
	if (rem) {
		c->text = xstrndup(line, (size_t)(rem - line));
		c->note = sb_detach(&remark);
	} else {
		c->text = xstrdup(line);
	}
	const char *note = c->note ? c->note : "";
	const char *t = c->text;
	c->where = where_of(t, note);
	/* A template (a slot this run could not fill, kb_expand_fix) is for
	 * the user to complete, never to run. */
	c->instruction = is_instruction(t) || strstr(note, "a template: put in") != NULL;
	c->needs_root = starts_word(t, "sudo") || starts_word(t, "sudoedit") ||
			strstr(note, "administrator") || strstr(note, "elevated") ||
			strstr(note, FIX_AS_ROOT_REMARK);
	if (c->instruction) {
		c->risk = RISK_NONE;
		c->risk_reason = "for you to do";
		return;
	}
	if (command_risk(t, &c->risk, &c->risk_reason))
		return;
	/* root, its sudo dropped (fix_for_user), changes the system too */
	bool system = c->needs_root || (c->where == FIX_LINUX && fix_user_get() == FIX_USER_ROOT);
	c->risk = system ? RISK_MEDIUM : RISK_LOW;
	c->risk_reason = system ? "changes the system: read it before you run it"
				: "changes your own session or files";
}

const char *fix_risk_name(enum fix_risk r)
{
	static const char *const names[] = { "none", "low", "medium", "high" };
	return names[r];
}

const char *fix_where_name(enum fix_where w)
{
	static const char *const names[] = { "linux", "powershell", "windows" };
	return names[w];
}

/* ---- who types the line: its sudo ---- */

static enum fix_user the_user = FIX_USER_KEEP;

void fix_user_set(enum fix_user u)
{
	the_user = u;
}

enum fix_user fix_user_detect(void)
{
	uid_t euid = geteuid();
	const char *t = getenv("WSLGPU_TEST_EUID");
	if (t && *t) {
		char *end;
		errno = 0;
		unsigned long v = strtoul(t, &end, 10);
		if (!errno && !*end)
			euid = (uid_t)v;
	}
	if (euid == 0)
		return FIX_USER_ROOT;
	return rootfs_which("sudo", NULL, NULL, NULL) == 0 ? FIX_USER_SUDO : FIX_USER_NO_SUDO;
}

enum fix_user fix_user_get(void)
{
	if (the_user == FIX_USER_DETECT)
		the_user = fix_user_detect();
	return the_user;
}

/* Whether p, inside s, is where a command begins (see fix_for_user); in
 * words (a remark) only after ": " or "then ". */
static bool command_place(const char *s, const char *p, bool words)
{
	static const char *const before[] = { ": ", "then ", "| ", "&& ", "; ", "$(", "(", NULL };
	if (p == s)
		return !words;
	for (size_t i = 0; before[i] && (!words || i < 2); i++) {
		size_t n = strlen(before[i]);
		if ((size_t)(p - s) >= n && !strncmp(p - n, before[i], n))
			return true;
	}
	return false;
}

/* Rewrites s[0..n) into out; returns how many sudo it dropped. */
static int drop_sudo(const char *s, size_t n, bool words, struct strbuf *out)
{
	int dropped = 0;
	size_t i = 0;
	while (i < n) {
		const char *p = s + i;
		size_t left = n - i;
		if (command_place(s, p, words) && left > 9 && !strncmp(p, "sudoedit ", 9)) {
			sb_add(out, "${EDITOR:-vi} ");
			i += 9;
			dropped++;
			continue;
		}
		if (command_place(s, p, words) && left > 5 && !strncmp(p, "sudo ", 5)) {
			size_t skip = 5;
			if (left > 8 && !strncmp(p + 5, "-E ", 3))
				skip = 8; /* keeps the environment: root has its own */
			if (p[skip] != '-') { /* other options (-u USER) mean more than root */
				i += skip;
				dropped++;
				continue;
			}
		}
		sb_addc(out, *p);
		i++;
	}
	return dropped;
}

bool fix_for_user(const char *line, enum fix_user u, struct strbuf *out)
{
	sb_reset(out);
	if (u == FIX_USER_KEEP || u == FIX_USER_DETECT || u == FIX_USER_SUDO || !strstr(line, "sudo")) {
		sb_add(out, line);
		return false;
	}
	struct strbuf note = STRBUF_INIT;
	const char *rem = kb_fix_remark(line, &note);
	size_t cmd_len = rem ? (size_t)(rem - line) : strlen(line);
	bool other_machine = strstr(line, "on the host") != NULL;
	if (!other_machine) {
		struct strbuf cmd = STRBUF_INIT;
		sb_addn(&cmd, line, cmd_len);
		other_machine = where_of(cmd.buf, sb_str(&note)) != FIX_LINUX;
		sb_release(&cmd);
	}
	sb_release(&note);
	if (other_machine) {
		sb_add(out, line);
		return false;
	}
	int in_cmd = drop_sudo(line, cmd_len, false, out);
	int in_rem = rem ? drop_sudo(rem, strlen(rem), true, out) : 0;
	if (in_cmd + in_rem > 0 && u == FIX_USER_NO_SUDO)
		sb_add(out, "   (" FIX_AS_ROOT_REMARK ")");
	return in_cmd + in_rem > 0;
}

/* A line for the machine the container runs on, not this one. */
#define HOST_PREFIX "on the host: "

/* Whether t can be a line of POSIX shell at all: quotes closed, no "(" in
 * an argument's place (bash -n rejects "cmd (remark)"), no remark in the
 * middle ("cmd   (in PowerShell), then ..."), not a PowerShell call
 * ("& 'C:\...'") or a lone option. A line that cannot is words. */
static bool shell_plausible(const char *t)
{
	if (t[0] == '-' || t[0] == '&' || strstr(t, "   ("))
		return false;
	char quote = 0;
	bool command_place = true; /* where "(" opens a subshell */
	for (const char *p = t; *p; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
			else if (*p == '\\' && quote == '"' && p[1])
				p++;
			continue;
		}
		switch (*p) {
		case '\'': case '"': quote = *p; command_place = false; break;
		case '\\': if (p[1]) p++; command_place = false; break;
		case '(':
			if (!command_place && !(p > t && strchr("$<>=", p[-1])))
				return false;
			break;
		case ';': case '|': case '&': command_place = true; break;
		case ' ': case '\t': break;
		default: command_place = false; break;
		}
	}
	return quote == 0;
}

void fix_shell_of(const char *line, struct fix_shell *s)
{
	memset(s, 0, sizeof *s);
	struct fix_command c;
	fix_classify(line, &c);
	size_t hl = strlen(HOST_PREFIX);
	bool host = !strncmp(c.text, HOST_PREFIX, hl);
	const char *cmd = host ? c.text + hl : c.text;
	bool tmpl = kb_fix_is_template(c.text) || (c.note && strstr(c.note, "a template: put in"));
	/* "on the host:" reads as words (its first word), the command after
	 * it as what it is */
	bool words = host ? is_instruction(cmd) : c.instruction && !tmpl;
	if (!words && !tmpl && !shell_plausible(cmd))
		words = true;
	s->kind = tmpl ? "template" : words ? "instruction" : "command";
	s->where = host ? "host" : fix_where_name(c.where);
	struct strbuf t = STRBUF_INIT;
	if (!words) {
		text_sanitize_line(&t, cmd);
		s->command = sb_detach(&t);
	}
	if (c.note) {
		text_sanitize_line(&t, c.note);
		s->remark = sb_detach(&t);
	}
	/* only a command for this shell is live */
	if (tmpl || words || host)
		sb_add(&t, "# ");
	text_sanitize_line(&t, c.text);
	if (s->remark)
		sb_addf(&t, "   # %s", s->remark);
	s->line = sb_detach(&t);
	free(c.text);
	free(c.note);
}

void fix_shell_release(struct fix_shell *s)
{
	free(s->line);
	free(s->command);
	free(s->remark);
	memset(s, 0, sizeof *s);
}

/* A fix line's command without its remark, allocated; the remark's text
 * goes to note when it is not NULL. */
static char *command_of(const char *line, struct strbuf *note)
{
	const char *rem = kb_fix_remark(line, note);
	return xstrndup(line, rem ? (size_t)(rem - line) : strlen(line));
}

static bool has_any(const char *line, const char *const *words)
{
	for (size_t i = 0; words[i]; i++)
		if (text_casestr(line, words[i]))
			return true;
	return false;
}

bool fix_is_wsl_only(const char *line)
{
	static const char *const words[] = {
		"wsl.exe", "powershell", "/usr/lib/wsl", ".wslconfig", "nvidia-smi.exe",
		"on windows", "in windows", "windows driver", "wsl --", "--windows", NULL,
	};
	return has_any(line, words);
}

bool fix_names_wsl(const char *line)
{
	static const char *const words[] = {
		"wsl.exe", "wsl --", ".wslconfig", "/usr/lib/wsl", "wsl.conf", NULL,
	};
	return has_any(line, words);
}

/* Whether line holds word where a word may start (an alphanumeric word
 * not inside a longer one: "apt " is not in "adapt "). */
static bool has_word(const char *line, const char *word)
{
	bool alpha = isalnum((unsigned char)word[0]);
	for (const char *p = line; (p = text_casestr(p, word)); p++)
		if (!alpha || p == line || !isalnum((unsigned char)p[-1]))
			return true;
	return false;
}

bool fix_is_linux_only(const char *line)
{
	static const char *const words[] = {
		"sudo ", "apt ", "apt-get ", "dpkg", "ldconfig", "modprobe", "export ", "unset ",
		"/usr/", "/etc/", "/opt/", "/proc/", "/sys/", "/var/", "/dev/", "~/", "bin/python",
		"bin/pip", "bin/activate", "| grep", "|grep", "LD_LIBRARY_PATH", "LD_PRELOAD",
		"LD_DEBUG", "systemctl", "dmesg", "lsmod", "lspci", "uname ", "dkms", "mokutil",
		".so.", ".so ", ".so'", "$(", "python3 ", "wslgpu ", "nvidia-ctk", "echo $", "ls -",
		"ls /", "cat /", "chmod ", "usermod ", "source ", NULL,
	};
	/* a line for WSL on a Windows machine says so (order_fixes) */
	if (!strncmp(line, "in WSL:", 7))
		return false;
	struct fix_command c;
	fix_classify(line, &c);
	bool linux = false;
	/* "NAME=value cmd": a POSIX shell's */
	if (c.where == FIX_LINUX)
		linux = starts_with_assignment(c.text) && strchr(c.text, ' ');
	if (c.where == FIX_LINUX)
		for (size_t i = 0; words[i] && !linux; i++)
			linux = has_word(c.text, words[i]);
	free(c.text);
	free(c.note);
	return linux;
}

bool fix_is_destructive(const char *line)
{
	static const char *const words[] = {
		"apt-get remove", "apt remove", "apt-get purge", "apt purge", "apt-get autoremove",
		"--purge", "dnf remove", "yum remove", "zypper remove", "dpkg -r", "dpkg --remove",
		"rm -rf", "rm -f ", "sudo rm ", "dkms remove", "nvidia-uninstall", "--uninstall",
		"reinstall the nvidia", "reinstall the current nvidia", "mokutil --disable",
		"install nvidia-driver", "install cuda-drivers", "install -y nvidia-driver",
		"nvidia-linux-", ".run ", "update-alternatives", "sudoedit /etc",
		/* Windows: a driver package or a device removed, an event log cleared */
		"/delete-driver", "/remove-device", "pnputil -d ", "pnputil.exe -d ", "wevtutil cl",
		"wevtutil.exe cl", "clear-eventlog", "remove-pnpdevice", NULL,
	};
	return has_any(line, words);
}

bool fix_changes_system(const char *line)
{
	static const char *const words[] = {
		/* installs, in a package manager or a Python environment */
		"apt-get install", "apt install", "dnf install", "yum install", "zypper in",
		"pacman -S", "snap install", "pip install", "pip3 install", "pip uninstall",
		"conda install", "conda remove", "mamba install", "uv pip install", "reinstall",
		"install the", "install a ", "install an ", "install nvidia", "install cuda",
		"update the nvidia", "update the driver", "update the windows", "upgrade the",
		"rebuild", "dpkg -i", "rpm-ostree",
		/* services, WSL's VM, the machine */
		"systemctl restart", "systemctl stop", "systemctl start", "systemctl enable",
		"systemctl disable", "systemctl daemon-reload", "service docker", "reboot",
		"restart windows", "restart the computer", "wsl.exe --shutdown", "wsl --shutdown",
		"wsl.exe --terminate", "wsl.exe -t ", "wsl.exe --update", "wsl --update",
		"wsl.exe --install", "wsl --install", "wsl.exe --set-version", "wsl.exe --unregister",
		/* configuration of the system, the runtime, WSL, the GPU */
		"nvidia-ctk runtime configure", "nvidia-ctk cdi generate", "tee /etc", "tee -a /etc",
		"> /etc", "sed -i", "sudoedit", "usermod", "modprobe", "rmmod", "insmod",
		"nvidia-smi -pm", "nvidia-smi.exe -pm", " -dm ", "nvidia-smi -r", "dism", "bcdedit /set",
		"enable-feature", "setx ", "update-initramfs", "update-grub",
		/* Windows' drivers and devices (pnputil's forms that are not
		 * /enum-: add, install, disable, enable, restart, rescan), an
		 * event log's settings, a PowerShell pipe into a verb that acts */
		"/add-driver", "/disable-device", "/enable-device", "/restart-device",
		"/scan-devices", "pnputil -a ", "pnputil -i ", "pnputil.exe -a ", "pnputil.exe -i ",
		"wevtutil sl", "wevtutil.exe sl", "disable-pnpdevice", "enable-pnpdevice", "| set-",
		"| remove-", "| stop-", "| restart-", "| disable-", "| enable-", "| uninstall-",
		"| clear-", NULL,
	};
	if (fix_is_destructive(line))
		return true;
	/* the command, not its remark ("(...; pip install ... fixes it)") */
	char *cmd = command_of(line, NULL);
	bool changes = has_any(cmd, words);
	free(cmd);
	return changes;
}

bool fix_only_looks(const char *line)
{
	if (fix_changes_system(line))
		return false;
	struct strbuf note = STRBUF_INIT;
	char *cmd = command_of(line, &note);
	/* "in WSL: CMD" on a Windows log (order_fixes) is CMD */
	const char *t = !strncmp(cmd, "in WSL: ", 8) ? cmd + 8 : cmd;
	enum fix_risk risk = RISK_HIGH;
	const char *why;
	/* a template is a command to complete ("ldd PROGRAM | grep ..."); a
	 * step that reads the result of a change ("(afterwards: ...)") tells
	 * nothing apart before it */
	bool looks = (!is_instruction(t) || kb_fix_is_template(line)) &&
		     command_risk(t, &risk, &why) && risk == RISK_NONE &&
		     !strcasestr(sb_str(&note), "afterwards") &&
		     strncasecmp(sb_str(&note), "after ", 6) && !strstr(sb_str(&note), ", after ");
	free(cmd);
	sb_release(&note);
	return looks;
}

/* The remark's first words that put the line on one platform: each part
 * of its first clause (up to "; ", split at ", "), with no colon after it
 * ("on WSL, in PowerShell; then reopen the distribution"). */
static const char *const wsl_binding[] = {
	"on WSL", "on WSL 2", "on WSL2", "in WSL", "under WSL", "inside WSL", "inside WSL only",
	"WSL only", "in PowerShell", "in an administrator PowerShell", "in Windows", "on Windows",
	NULL,
};
static const char *const native_binding[] = {
	"native Linux", "native Linux only", "on native Linux", "natively", "outside WSL", NULL,
};
/* A clause of a remark that speaks for one platform ("on WSL: the Windows
 * driver, then wsl.exe --shutdown"): its first words. */
static const char *const wsl_clause[] = {
	"on WSL", "on WSL2", "in WSL", "under WSL", "inside WSL", "on Windows", "in Windows",
	"in PowerShell",
	NULL,
};
static const char *const native_clause[] = {
	"natively", "on native Linux", "native Linux", "outside WSL", NULL,
};

static bool is_one_of(const char *s, size_t n, const char *const *words)
{
	for (size_t i = 0; words[i]; i++)
		if (strlen(words[i]) == n && !strncmp(s, words[i], n))
			return true;
	return false;
}

static bool starts_with_one_of(const char *s, const char *const *words)
{
	for (size_t i = 0; words[i]; i++) {
		size_t n = strlen(words[i]);
		if (!strncmp(s, words[i], n) && !isalnum((unsigned char)s[n]))
			return true;
	}
	return false;
}

/* Whether the remark's first clause binds the line (words, a list). */
static bool remark_binds(const char *note, const char *const *words)
{
	size_t end = strcspn(note, ";");
	for (const char *p = note; p < note + end;) {
		p += strspn(p, " ");
		size_t n = strcspn(p, ",;");
		if (p + n > note + end)
			n = (size_t)(note + end - p);
		while (n && p[n - 1] == ' ')
			n--;
		if (!memchr(p, ':', n) && is_one_of(p, n, words))
			return true;
		p += strcspn(p, ",;");
		if (*p == ',')
			p++;
		else
			break;
	}
	return false;
}

enum fix_platform source_platform_of(const char *url)
{
	return text_casestr(url, "wsl") || text_casestr(url, "learn.microsoft.com/en-us/windows/")
		       ? FIX_WSL_ONLY
		       : FIX_ANY_PLATFORM;
}

enum fix_platform fix_platform_of(const char *line)
{
	static const char *const native_words[] = {
		/* as commands: "nvidia-dkms" in a grep of packages is no step */
		"modprobe ", "rmmod ", "dkms ", "mokutil ", "lsmod", "lspci", "ubuntu-drivers",
		"/proc/driver/nvidia", "install nvidia-driver", "install -y nvidia-driver",
		"install cuda-drivers", "nvidia-linux-", NULL,
	};
	struct strbuf note = STRBUF_INIT;
	char *cmd = command_of(line, &note);
	size_t wl = strcspn(cmd, " ");
	/* both device files ("ls -l /dev/dxg /dev/nvidia*") answer anywhere */
	bool dxg = strstr(cmd, "/dev/dxg") != NULL, nvdev = strstr(cmd, "/dev/nvidia") != NULL;
	enum fix_platform p = FIX_ANY_PLATFORM;
	if (fix_is_wsl_only(cmd) || strstr(cmd, "$env:") ||
	    (wl > 4 && !strncmp(cmd + wl - 4, ".exe", 4)) || (dxg && !nvdev) ||
	    remark_binds(sb_str(&note), wsl_binding))
		p = FIX_WSL_ONLY;
	else if (has_any(cmd, native_words) || (nvdev && !dxg) ||
		 remark_binds(sb_str(&note), native_binding))
		p = FIX_NATIVE_ONLY;
	free(cmd);
	sb_release(&note);
	return p;
}

/* Whether a clause of a remark is for platform other. */
static bool clause_is_for(const char *c, size_t n, enum fix_platform other)
{
	char *s = xstrndup(c, n);
	bool is = other == FIX_WSL_ONLY
			  ? starts_with_one_of(s, wsl_clause) || fix_is_wsl_only(s) || fix_names_wsl(s)
			  : starts_with_one_of(s, native_clause);
	free(s);
	return is;
}

/* A sentence ends at ". " before a capital ("e.g. the" goes on). */
static size_t sentence_len(const char *s)
{
	for (const char *p = s; (p = strstr(p, ". ")); p += 2)
		if (isupper((unsigned char)p[2]))
			return (size_t)(p - s) + 1;
	return strlen(s);
}

bool cause_text_for(const char *text, enum fix_platform other, bool windows_log,
		    struct strbuf *out)
{
	static const char *const windows_words[] = { "on Windows", "in Windows", "in PowerShell",
						     NULL };
	sb_reset(out);
	bool changed = false;
	for (const char *s = text; *s;) {
		size_t n = sentence_len(s);
		char *low = xstrndup(s, n);
		low[0] = (char)tolower((unsigned char)low[0]);
		bool wsl = starts_with_one_of(low, wsl_clause), native = starts_with_one_of(low, native_clause);
		bool drop = windows_log ? (wsl && !starts_with_one_of(low, windows_words)) || native
			    : other == FIX_WSL_ONLY ? wsl
			    : other == FIX_NATIVE_ONLY && native;
		free(low);
		if (drop)
			changed = true;
		else
			sb_addf(out, "%s%.*s", out->len ? " " : "", (int)n, s);
		s += n;
		s += strspn(s, " ");
	}
	if (!changed || !out->len) { /* nothing of it left: as it was */
		sb_reset(out);
		sb_add(out, text);
		return false;
	}
	return true;
}

bool fix_remark_for(const char *line, enum fix_platform other, struct strbuf *out)
{
	sb_reset(out);
	const char *rem = kb_fix_remark(line, NULL);
	if (!rem || other == FIX_ANY_PLATFORM) {
		sb_add(out, line);
		return false;
	}
	sb_addn(out, line, (size_t)(rem - line));
	bool changed = false;
	/* each "   (...)" group, its clauses split at "; " */
	for (const char *g = rem; !strncmp(g, "   (", 4);) {
		const char *in = g + 4;
		const char *close = strstr(in, ")   (");
		const char *end = close ? close : in + strlen(in) - 1;
		struct strbuf kept = STRBUF_INIT;
		for (const char *c = in; c < end;) {
			const char *semi = strstr(c, "; ");
			size_t n = semi && semi < end ? (size_t)(semi - c) : (size_t)(end - c);
			if (clause_is_for(c, n, other))
				changed = true;
			else
				sb_addf(&kept, "%s%.*s", kept.len ? "; " : "", (int)n, c);
			c += n;
			if (c < end)
				c += 2;
		}
		if (kept.len)
			sb_addf(out, "   (%s)", kept.buf);
		sb_release(&kept);
		g = end + 1;
	}
	if (!changed) {
		sb_reset(out);
		sb_add(out, line);
	}
	return changed;
}
