/*
 * redact: makes a support bundle safe to share. A redactor is built from
 * the described machine (user names, host name, machine ids, the Windows
 * profile folders) and the environment (secret-looking variables), learns
 * more from the texts it is shown (home paths, C:\Users\NAME, NAME=VALUE
 * assignments whose name looks secret, "Serial Number : X", the host of a
 * proxy's or a package index's URL), and finds by their shape IPv4/IPv6 and
 * MAC addresses, UUIDs, and secrets: URL credentials, private key blocks,
 * tokens with a known prefix (ghp_, github_pat_, glpat-, xoxb-, AKIA, hf_,
 * sk-... the table of redact.c, each with where its format is
 * documented), JWTs, webhook URLs, Azure SAS signatures, PuTTY and PEM
 * keys (on one line too), conda channel tokens, random words beside
 * secret-like names. A JSON value stays JSON.
 *
 * Every value gets one placeholder for the whole redactor ("<user-1>",
 * "<host-1>", "<ip-2>", ...), numbered in order of first appearance, so the
 * same value reads the same in every member of a bundle. Placeholders are
 * never redacted again, so redacting twice changes nothing.
 *
 * Names match case-insensitively and only as whole words; values shorter
 * than 3 bytes (4 for secrets and serials), and generic names such as
 * "user" or "ubuntu", are replaced only where their context says what they
 * are (/home/NAME, Users\NAME, USER=NAME, TOKEN=VALUE), because replacing
 * "a" or "user" everywhere would destroy the text. Versions that look like
 * IPv4 addresses (5.15.167.4-microsoft..., "Kernel version: 5.15.167.4",
 * octets with leading zeros as in 94.02.42.00) are kept.
 *
 * Input is any bytes (binary, invalid UTF-8, NULs, lines of any length).
 */
#ifndef WSLGPU_REDACT_H
#define WSLGPU_REDACT_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/result.h"
#include "../core/strbuf.h"

enum redact_cat {
	REDACT_USER,       /* Linux and Windows user names (and home folders) */
	REDACT_HOST,       /* the host name; a company's own servers */
	REDACT_IP,         /* IPv4 and IPv6 addresses */
	REDACT_MAC,        /* MAC addresses */
	REDACT_MACHINE_ID, /* /etc/machine-id, /var/lib/dbus/machine-id */
	REDACT_UUID,       /* GPU UUIDs (GPU-...) and other UUIDs */
	REDACT_SERIAL,     /* serial numbers (nvidia-smi -q) */
	REDACT_SECRET,     /* values of TOKEN/KEY/SECRET/PASSWORD/... variables */
	REDACT__COUNT
};

struct redactor;

struct redactor *redactor_new(void);
void redactor_free(struct redactor *r);

/* Learns the values of the described machine (through rootfs) and of
 * envp (NAME=VALUE strings, NULL-terminated; NULL for none). */
void redact_learn_machine(struct redactor *r, char *const *envp);
/* Registers one value; context-only when it is too short or generic. */
void redact_add(struct redactor *r, enum redact_cat cat, const char *value);
/* Learns the values a text's context names, without changing it, so that a
 * value first seen in a later member is also replaced in earlier ones. */
void redact_learn(struct redactor *r, const char *text, size_t len);
/* Appends the redacted text to out. key, when not NULL, is the name the
 * text is the value of (an evidence key, an environment variable): it is
 * read as if "key=" came before the text. */
void redact_text(struct redactor *r, const char *key, const char *text, size_t len,
		 struct strbuf *out);
/* A redacted copy of s (NULL for NULL); the caller frees it. */
char *redact_dup(struct redactor *r, const char *key, const char *s);

/* Learns from, and makes redacted copies of, n results (every string:
 * detail, evidence, probe output). out[] is released with result_release. */
void redact_learn_results(struct redactor *r, const struct result *in, size_t n);
void redact_results(struct redactor *r, const struct result *in, size_t n,
		    struct result *out);

/*
 * Replaces, in place, every secret the results hold (a token of a known
 * shape, a URL's password, a private key, the value of a TOKEN/KEY/...
 * assignment) by "<secret>", and nothing else: user and host names, paths
 * and addresses stay, for the user's own outputs (check, its --json, smoke's
 * JUnit, Prometheus and JSON files and pushes, fix, explain --check), which
 * are pasted into issues and kept by CI systems. Run on every run of checks
 * (checkrun_execute), so no output shows a secret; the bundle then redacts
 * the rest. "<secret>" is a placeholder to the redactor: never redacted again.
 */
void redact_scrub_results(struct result *res, size_t n);
/*
 * The same scrub with its learning done as a run's results arrive, beside
 * the probes still running rather than after the last one (check's serial
 * tail): secret_scrub_learn(s, i, r) as result i completes, then
 * secret_scrub_finish, which learns what it was not shown or what changed
 * since (the probe's output, attached at the run's end), scrubs all n
 * results as redact_scrub_results does, and frees s.
 */
struct secret_scrub;
struct secret_scrub *secret_scrub_new(size_t n);
void secret_scrub_learn(struct secret_scrub *s, size_t i, const struct result *r);
void secret_scrub_finish(struct secret_scrub *s, struct result *res, size_t n);

/* The secret shapes the redactor knows (its table of prefixes, its rules,
 * and the secrets its assignments name), for the tests and the
 * documentation: what each is, where its format is documented, a made-up
 * example (in example) and the part of it that must not survive (secret). */
struct redact_shape {
	const char *what, *source;
};
size_t redact_shape_count(void);
void redact_shape(size_t k, struct redact_shape *out, struct strbuf *example, struct strbuf *secret);

/* What was redacted: distinct values replaced at least once, and the
 * number of replacements, per category. */
void redact_stats(const struct redactor *r, enum redact_cat cat, size_t *values,
		  size_t *replacements);
/* "user names (Linux and Windows)", "host names", ... */
const char *redact_cat_title(enum redact_cat cat);
/* "user", "host", "ip", ...: the word in the category's placeholders. */
const char *redact_cat_tag(enum redact_cat cat);

/* True when an environment variable's name looks like it holds a secret
 * (TOKEN, KEY, SECRET, PASSWORD, PASSWD, AUTH, CREDENTIAL, COOKIE, SESSION,
 * in any case). */
bool redact_secret_name(const char *name, size_t len);

#endif
