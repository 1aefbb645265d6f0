/*
 * rcscan: where a variable such as LD_LIBRARY_PATH or CUDA_VISIBLE_DEVICES
 * is set for good. The probes see only the value in the environment; a fix
 * needs the line that put it there, so this reads the shell startup files
 * of the described machine (through rootfs) and finds the assignments.
 *
 * It reads shell text, it does not run it: an assignment is found where a
 * line (not a comment) has VAR= or VAR+= as a word of its own, with or
 * without export/declare -x in front, and in /etc/environment's KEY=value
 * lines. Values assembled by other means (eval, a sourced file elsewhere)
 * are not seen; the plan says so.
 */
#ifndef WSLGPU_RCSCAN_H
#define WSLGPU_RCSCAN_H

#include <stdbool.h>
#include <stddef.h>

struct rc_hit {
	char *file;     /* guest path (/home/user/.bashrc) */
	int line;       /* 1-based */
	char *text;     /* the whole line, without its line end */
	char *value;    /* the assigned word as written (quotes kept) */
	bool user_file; /* under $HOME: the user's own file */
};

struct rc_hits {
	struct rc_hit *v;
	size_t n;
	/* Startup files that exist but were not read, each "FILE: why" (a
	 * FIFO or device in place of the file, a read that did not finish in
	 * RC_READ_TIMEOUT_MS, a file cut at its size cap): an assignment in
	 * one of them is not seen, and the plan says so. */
	char **unread;
	size_t nunread;
};

/* Each startup file is read in a child process with this time limit
 * (rootfs_read_bounded): fix runs in the main process, where a hung 9p
 * mount under $HOME would otherwise hang it. */
#define RC_READ_TIMEOUT_MS 5000

/*
 * Appends every assignment of var in the startup files: home's ~/.bashrc,
 * ~/.bash_profile, ~/.bash_login, ~/.profile, ~/.zshenv, ~/.zprofile,
 * ~/.zshrc, ~/.zlogin (home may be NULL: none of these), then
 * /etc/environment, /etc/profile, /etc/bash.bashrc, /etc/zsh/{zshenv,
 * zprofile,zshrc} and /etc/profile.d/ *.sh in name order. Only regular
 * files are read; what could not be read is listed in hits->unread.
 */
void rc_scan(const char *var, const char *home, struct rc_hits *hits);
void rc_hits_release(struct rc_hits *hits);

/* Scans one line; on an assignment of var returns true and sets the value
 * span [*vs, *ve) inside line. */
bool rc_line_assigns(const char *line, const char *var, size_t *vs, size_t *ve);

/* True when value (shell text, quotes allowed) has dir ("dir" or "dir/")
 * as one of its ':'-separated entries. */
bool rc_value_has_dir(const char *value, const char *dir);

/*
 * The line with every entry dir removed from var's value (with one ':'
 * next to it), or NULL when what remains sets nothing but var's old value
 * (export X=$X) or nothing at all: then the whole line is to go.
 */
char *rc_line_without_dir(const char *line, const char *var, const char *dir);

#endif
