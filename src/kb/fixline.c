/*
 * fixline.c: classifying a fix line (see fixline.h). The first matching
 * row of the table wins; rows that change nothing come last.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fixline.h"

#include "../core/strbuf.h"
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
	{ "notepad", true, RISK_LOW, "you edit the file yourself" },
	{ "mkdir ", true, RISK_LOW, "creates a directory" },
	{ "docker run", true, RISK_LOW, "runs a throw-away container" },
};

/* Commands that only look. */
static const char *const readers[] = {
	"ls", "grep", "cat", "echo", "dpkg -S", "dpkg -l", "dpkg-query", "nvidia-smi",
	"nvidia-smi.exe", "wslgpu", "free", "df", "findmnt", "uname", "lsmod", "dkms status",
	"file", "id", "namei", "docker info", "docker version", "cmd /c ver", "winver",
	"wsl.exe -l", "wsl.exe --list", "wsl.exe --version", "wsl.exe --status", "nvcc",
	"python", "python3", "pip list", "pip show", "mokutil", "env", "dmesg", "lspci",
	"vmstat", "apt-cache", "py-spy", "nproc", "ulimit", "iconv", "find", "stat", "readlink",
	"nvidia-container-cli", "LD_DEBUG=", "explorer.exe", "lsof", "top", "ps", NULL,
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

static bool is_instruction(const char *s)
{
	size_t wl = strcspn(s, " ");
	if (wl == 0)
		return true;
	if (isupper((unsigned char)s[0]) && strncmp(s, "LD_", 3) != 0)
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
	size_t wl = strcspn(t, " ");
	if (strstr(note, "PowerShell") || strstr(t, "$env:") ||
	    (wl > 4 && strncmp(t + wl - 4, ".exe", 4) == 0))
		c->where = FIX_POWERSHELL;
	else if (!strncmp(note, "in Windows", 10))
		c->where = FIX_WINDOWS;
	/* A template (a slot this run could not fill, kb_expand_fix) is for
	 * the user to complete, never to run. */
	c->instruction = is_instruction(t) || strstr(note, "a template: put in") != NULL;
	c->needs_root = starts_word(t, "sudo") || starts_word(t, "sudoedit") ||
			strstr(note, "administrator") || strstr(note, "elevated");
	if (c->instruction) {
		c->risk = RISK_NONE;
		c->risk_reason = "for you to do";
		return;
	}
	const char *cmd = starts_word(t, "sudo") ? t + 5 : t;
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
		const char *hit = strstr(cmd, rules[i].pattern);
		if (hit && (!rules[i].prefix || hit == cmd)) {
			c->risk = rules[i].risk;
			c->risk_reason = rules[i].reason;
			return;
		}
	}
	for (size_t i = 0; readers[i]; i++)
		if (starts_word(cmd, readers[i]) || (readers[i][0] == '{' && cmd[0] == '{')) {
			c->risk = RISK_NONE;
			c->risk_reason = "only looks";
			return;
		}
	if (cmd[0] == '{' || cmd[0] == '/') { /* {python} -m ..., /usr/lib/wsl/lib/nvidia-smi */
		c->risk = RISK_NONE;
		c->risk_reason = "only looks";
		return;
	}
	c->risk = c->needs_root ? RISK_MEDIUM : RISK_LOW;
	c->risk_reason = c->needs_root ? "changes the system: read it before you run it"
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

/* A line for the machine the container runs on, not this one. */
#define HOST_PREFIX "on the host: "

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
