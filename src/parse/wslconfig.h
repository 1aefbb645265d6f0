/*
 * wslconfig: checks a %UserProfile%\.wslconfig the way WSL itself reads it,
 * and pulls out memory=, swap= and processors=.
 *
 * WSL's parser (microsoft/WSL src/shared/configfile/configfile.cpp, used by
 * src/windows/common/WslCoreConfig.cpp) matches "section.key" names case-
 * insensitively against a fixed table, warns about and skips unknown keys
 * and bad values, takes the FIRST of duplicated keys, ends a value at an
 * unquoted '#', and reads sizes with wsl::shared::string::ParseMemorySize:
 * a whole decimal number with an optional unit B, K, KB, M, MB, G, GB, T or
 * TB, in capitals ("8GB"; "8gb", "8 GB" and "1.5GB" are rejected). Booleans
 * are true/false/1/0. Every one of these mistakes leaves the default in
 * force, which is why a .wslconfig can look right and do nothing.
 *
 * Encoding: WSL opens the file with _wfopen(..., "rt,ccs=UTF-8"), where the
 * C runtime honours a byte-order mark: UTF-8 and UTF-16LE files with a BOM
 * are read, UTF-16 without one is read as UTF-8 (garbage). Older WSL
 * releases ignored UTF-16 files altogether (microsoft/WSL#7851, field case
 * M03). The text is decoded here so that its settings can still be shown.
 *
 * Structure follows WSL's own line grammar (configfile.cpp), not a generic
 * INI reader's: only '#' starts a comment (a ';' line is an invalid line to
 * WSL, and " ; ..." after a value is part of the value), section and key
 * names are a letter then letters and digits, an invalid "[...]" leaves the
 * previous section in force, and an escape other than \\ \" \b \n \t (the
 * \U of a single-backslash "C:\Users") makes WSL skip the whole line.
 * Pure functions over a buffer.
 */
#ifndef WSLGPU_WSLCONFIG_H
#define WSLGPU_WSLCONFIG_H

#include <stdbool.h>
#include <stddef.h>

enum wslconfig_problem {
	WC_UTF16,          /* UTF-16 text (see utf16_bom, utf16_be) */
	WC_BINARY,         /* NUL bytes that are not UTF-16 */
	WC_SYNTAX,         /* a line that is not [section], key=value or a comment */
	WC_NO_SECTION,     /* key=value before any [section] */
	WC_UNKNOWN_SECTION,
	WC_UNKNOWN_KEY,
	WC_BAD_SIZE,
	WC_BAD_NUMBER,
	WC_BAD_BOOL,
	WC_DUPLICATE,      /* a repeated key: WSL keeps the first */
};

struct wslconfig_issue {
	enum wslconfig_problem kind;
	int line;  /* 0: the whole file */
	char *msg; /* one line, without the file name */
};

/* One setting WSL will use, as written. */
struct wslconfig_setting {
	bool set;               /* present and valid */
	unsigned long long val; /* bytes for sizes, the count for processors */
	char *text;             /* the value as written (NULL when not present) */
	int line;
};

struct wslconfig {
	bool utf16, utf16_bom, utf16_be; /* utf16_bom: a BOM was there */
	bool utf8_bom, crlf, binary;
	struct wslconfig_setting memory, swap, processors, gpu_support, kernel;
	/* safeMode=true: WSL then forces GPU support off too (WslCoreConfig.cpp:
	 * VALIDATE_CONFIG_OPTION(EnableSafeMode, EnableGpuSupport, false)). */
	struct wslconfig_setting safe_mode;
	struct wslconfig_issue *issues; /* in line order */
	size_t nissues;
	size_t more_issues; /* not recorded: past WSLCONFIG_MAX_ISSUES */
};

/* Bounds on the work done for one file (a real one has a few dozen lines). */
#define WSLCONFIG_MAX_ISSUES 50
#define WSLCONFIG_MAX_ITEMS 1000
#define WSLCONFIG_MAX_BYTES (64 << 10)

/* Checks len bytes of a .wslconfig. Never fails: problems are issues. */
void wslconfig_check(const char *buf, size_t len, struct wslconfig *wc);
void wslconfig_free(struct wslconfig *wc);

/* WSL's ParseMemorySize. Returns 0, or -1 if WSL would reject the value. */
int wslconfig_size(const char *v, unsigned long long *bytes);
/* WSL's ParseBool: 1 for true/1, 0 for false/0 (case-insensitive), -1 else. */
int wslconfig_bool(const char *v);

#endif
