/* test_redact.c: the support bundle's redactor — every category, the same
 * placeholder for the same value, versions left alone, hostile input. */
#include "testutil.h"

#include "bundle/redact.h"
#include "core/check.h"
#include "core/rootfs.h"
#include "core/strbuf.h"

static char *red(struct redactor *r, const char *s)
{
	return redact_dup(r, NULL, s);
}

/* Redacts s and compares with want. */
static void expect(struct redactor *r, const char *s, const char *want)
{
	char *got = red(r, s);
	if (strcmp(got, want) != 0)
		fail_msg("redact(\"%s\")\n  got  \"%s\"\n  want \"%s\"", s, got, want);
	free(got);
}

static void test_users_and_homes(void **state)
{
	(void)state;
	struct redactor *r = redactor_new();
	redact_add(r, REDACT_USER, "marguerite");
	expect(r, "cd /home/marguerite/project", "cd /home/<user-1>/project");
	expect(r, "Marguerite ran it; MARGUERITE too", "<user-1> ran it; <user-1> too");
	/* whole words only */
	expect(r, "marguerites and xmarguerite", "marguerites and xmarguerite");
	/* an unknown home folder is learned from its context */
	expect(r, "LD_LIBRARY_PATH=/home/bob/lib:/home/bob/x", "LD_LIBRARY_PATH=/home/<user-2>/lib:/home/<user-2>/x");
	expect(r, "bob said", "<user-2> said");
	/* a one-letter user: only in context, never blindly */
	expect(r, "/home/a/x is a path", "/home/<user-3>/x is a path");
	expect(r, "USER=a and a cat", "USER=<user-3> and a cat");
	/* generic names too */
	expect(r, "USER=user: the user and /home/user", "USER=<user-4>: the user and /home/<user-4>");
	/* root names no one */
	expect(r, "USER=root /root /home/root", "USER=root /root /home/root");
	redactor_free(r);
}

static void test_windows_users(void **state)
{
	(void)state;
	struct redactor *r = redactor_new();
	expect(r, "/mnt/c/Users/Marguerite.Dupont/.wslconfig",
	       "/mnt/c/Users/<user-1>/.wslconfig");
	expect(r, "C:\\Users\\marguerite.dupont\\.wslconfig", "C:\\Users\\<user-1>\\.wslconfig");
	/* JSON-escaped backslashes */
	expect(r, "\"C:\\\\Users\\\\MARGUERITE.DUPONT\\\\x\"", "\"C:\\\\Users\\\\<user-1>\\\\x\"");
	expect(r, "USERPROFILE=C:\\Users\\Zoe", "USERPROFILE=C:\\Users\\<user-2>");
	/* system folders are nobody's */
	expect(r, "/mnt/c/Users/Public/x C:\\Users\\Default\\y", "/mnt/c/Users/Public/x C:\\Users\\Default\\y");
	/* a known name with a space wins over the word before it */
	redact_add(r, REDACT_USER, "Jean Luc");
	expect(r, "/mnt/c/Users/Jean Luc/.wslconfig", "/mnt/c/Users/<user-3>/.wslconfig");
	redactor_free(r);
}

static void test_hosts(void **state)
{
	(void)state;
	struct redactor *r = redactor_new();
	redact_add(r, REDACT_HOST, "LAPTOP-7QX3Z9K");
	redact_add(r, REDACT_USER, "alice");
	redact_add(r, REDACT_HOST, "alice-pc");
	expect(r, "Name: laptop-7qx3z9k.localdomain", "Name: <host-1>.localdomain");
	expect(r, "alice-pc alice", "<host-2> <user-1>");
	expect(r, "hostname = MYBOX", "hostname = <host-3>");
	expect(r, "mybox", "<host-3>");
	redactor_free(r);
}

static void test_ips(void **state)
{
	(void)state;
	struct redactor *r = redactor_new();
	expect(r, "nameserver 172.28.160.1", "nameserver <ip-1>");
	expect(r, "DISPLAY=172.28.160.1:0", "DISPLAY=<ip-1>:0");
	expect(r, "addr=192.168.50.7,vers=3.0 //192.168.50.7/share", "addr=<ip-2>,vers=3.0 //<ip-2>/share");
	expect(r, "10.0.0.0/8 via 10.1.2.3", "<ip-3>/8 via <ip-4>");
	/* kept: loopback, any, masks */
	expect(r, "127.0.0.1 0.0.0.0 255.255.255.0 ::1", "127.0.0.1 0.0.0.0 255.255.255.0 ::1");
	/* IPv6 */
	expect(r, "inet6 fe80::215:5dff:fe12:3456/64", "inet6 <ip-5>/64");
	expect(r, "[2001:db8:85a3:0:0:8a2e:370:7334]:443", "[<ip-6>]:443");
	expect(r, "FE80::215:5DFF:FE12:3456", "<ip-5>");
	expect(r, "::ffff:192.0.2.128", "<ip-7>");
	redactor_free(r);
}

/* Version numbers that look like addresses must survive. */
static void test_versions_survive(void **state)
{
	(void)state;
	struct redactor *r = redactor_new();
	static const char *const keep[] = {
		"Linux version 5.15.167.4-microsoft-standard-WSL2 (root@x) #1 SMP",
		"kernel 5.15.167.4",
		"Kernel version: 5.15.167.4",
		"WSL version: 2.3.26.0",
		"Driver Version: 551.23   CUDA Version: 12.4",
		"libnvidia-compute-535 535.104.05-0ubuntu1",
		"DriverVer = 01/19/2024, 31.0.15.5123",
		"VBIOS Version : 94.02.42.00.A9",
		"libcudnn8 8.9.7.29-1+cuda12.2",
		"Windows 10.0.22631.4460",
		"torch 2.6.0+cu124 cuda 12.4 cc 8.6",
		"PCI 00000000:01:00.0 0000:01:00.0",
		"12:34:56.789 std::vector a::b c10::Error",
		"docker 24.0.7 containerd 1.6.28",
		"v1.2.3.4 and cuda-11.8.0.1",
		"libcuda.so.1.1 libfoo.so.1.2.3.4",
		"nv_dispi.inf_amd64_7e5fd280efaa5445",
		NULL,
	};
	for (const char *const *k = keep; *k; k++)
		expect(r, *k, *k);
	/* the evidence key counts as context */
	char *v = redact_dup(r, "wsl_version", "2.3.26.0");
	assert_string_equal(v, "2.3.26.0");
	free(v);
	redactor_free(r);
}

static void test_macs_uuids_serials(void **state)
{
	(void)state;
	struct redactor *r = redactor_new();
	expect(r, "link/ether 00:15:5d:a1:b2:c3 brd ff:ff:ff:ff:ff:ff", "link/ether <mac-1> brd ff:ff:ff:ff:ff:ff");
	expect(r, "Physical Address. . : 00-15-5D-A1-B2-C3", "Physical Address. . : <mac-1>");
	expect(r, "GPU 0: RTX (UUID: GPU-6b4c5e1a-1111-2222-3333-444455556666)",
	       "GPU 0: RTX (UUID: GPU-<uuid-1>)");
	expect(r, "    GPU UUID                              : GPU-6B4C5E1A-1111-2222-3333-444455556666",
	       "    GPU UUID                              : GPU-<uuid-1>");
	expect(r, "    Serial Number                         : 1324020012345",
	       "    Serial Number                         : <serial-1>");
	expect(r, "board 1324020012345", "board <serial-1>");
	expect(r, "    Serial Number                         : N/A",
	       "    Serial Number                         : N/A");
	redact_add(r, REDACT_MACHINE_ID, "4f1d2c3b4a5968778695a4b3c2d1e0f9\n");
	expect(r, "id=4f1d2c3b4a5968778695a4b3c2d1e0f9.", "id=<machine-id-1>.");
	redactor_free(r);
}

static void test_secrets(void **state)
{
	(void)state;
	struct redactor *r = redactor_new();
	char *env[] = { "GITHUB_TOKEN=ghp_Zx81aQ2", "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG",
			"HF_TOKEN=hf_abcdefSECRET", "XDG_SESSION_TYPE=wayland", "SOME_AUTH=1", NULL };
	redact_learn_machine(r, env);
	expect(r, "the token ghp_Zx81aQ2 leaked", "the token <secret-1> leaked");
	expect(r, "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG", "AWS_SECRET_ACCESS_KEY=<secret-2>");
	expect(r, "export HF_TOKEN='hf_abcdefSECRET'", "export HF_TOKEN='<secret-3>'");
	expect(r, "wayland 1", "wayland 1");
	/* assignments inside files, in any spelling */
	expect(r, "db_password = hunter22", "db_password = <secret-4>");
	expect(r, "{\"api_key\": \"k-998877\"}", "{\"api_key\": \"<secret-5>\"}");
	expect(r, "Authorization: Bearer abc.def.ghi", "Authorization: Bearer <secret-6>");
	expect(r, "MY_TOKEN=xy", "MY_TOKEN=<secret-7>");
	expect(r, "xy stays", "xy stays");
	expect(r, "SECRET_ENABLED=true", "SECRET_ENABLED=true");
	/* URL credentials */
	expect(r, "HTTP Proxy: http://proxyuser:Sup3rS3cretPw@10.20.30.40:3128",
	       "HTTP Proxy: http://<user-1>:<secret-8>@<ip-1>:3128");
	/* the evidence key is context */
	char *v = redact_dup(r, "HF_TOKEN", "hf_new_value_1");
	assert_string_equal(v, "<secret-9>");
	free(v);
	assert_true(redact_secret_name("github_token", 12));
	assert_true(redact_secret_name("PASSWD", 6));
	assert_false(redact_secret_name("LD_LIBRARY_PATH", 15));
	redactor_free(r);
}

/* Learning first, then redacting: a value seen late is replaced early. */
/* Secrets and company host names found by their shape, wherever they are. */
static void test_shapes_of_secrets(void **state)
{
	(void)state;
	struct redactor *r = redactor_new();
	/* a token as a URL's user part, in any variable; "git@" names no one */
	expect(r, "REMOTE=https://ghp_Abcdefghij0123456789KLMNOPQRSTuvwxyz@github.com/o/r",
	       "REMOTE=https://<secret-1>@github.com/o/r");
	expect(r, "ssh://git@github.com/o/r", "ssh://git@github.com/o/r");
	expect(r, "https://alice@github.com/x", "https://<user-1>@github.com/x");
	/* known prefixes inside paths and lists; a word that only starts alike stays */
	expect(r, "CUDA_HOME=/opt/ghp_Abcdefghij0123456789KLMNOPQRSTuvwxyz/cuda", "CUDA_HOME=/opt/<secret-1>/cuda");
	expect(r, "x=glpat-GlAbCdEfGh0123456789xy,AKIAIOSFODNN7EXAMPL3;hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123",
	       "x=<secret-2>,<secret-3>;<secret-4>");
	expect(r, "xoxb-123456789012-0987654321098-AbCdEfGhIjKl", "<secret-5>");
	expect(r, "ghp_short hf_x AKIAlowercase0000000 skip-this", "ghp_short hf_x AKIAlowercase0000000 skip-this");
	/* a conda channel token */
	expect(r, "https://conda.anaconda.org/t/ab12cd34ef56/corp", "https://conda.anaconda.org/t/<secret-6>/corp");
	expect(r, "/usr/t/include/", "/usr/t/include/");
	/* a private key block: the markers stay */
	expect(r, "a\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBk\nxyz\n-----END EC PRIVATE KEY-----\nb",
	       "a\n-----BEGIN EC PRIVATE KEY-----\n<secret-7>\n-----END EC PRIVATE KEY-----\nb");
	expect(r, "-----BEGIN CERTIFICATE-----\nMIIB\n", "-----BEGIN CERTIFICATE-----\nMIIB\n");
	/* in comments, and a random word beside a secret-like one */
	expect(r, "# proxy password: Hunter2Hunter2 (ask)", "# proxy password: <secret-8> (ask)");
	expect(r, "; api token Qx7Zr2Lm9Kp4Wv8N", "; api token <secret-9>");
	expect(r, "the token is valid", "the token is valid");
	/* a company's hosts: a proxy, an index, a private TLD; public ones stay */
	expect(r, "HTTPS_PROXY=http://proxy.acme.example:3128", "HTTPS_PROXY=http://<host-1>:3128");
	expect(r, "index-url = https://pypi.mirror.acme.com/simple", "index-url = https://<host-2>/simple");
	expect(r, "see http://wiki.corp/x and https://pytorch.org/get-started",
	       "see http://<host-3>/x and https://pytorch.org/get-started");
	expect(r, "PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cu124",
	       "PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cu124");
	expect(r, "https://example.org/docs", "https://example.org/docs");
	/* the organisation's domain is learned with its host */
	expect(r, "git.acme.example and build.acme.example", "git.<host-4> and build.<host-4>");
	expect(r, "no_proxy=localhost,127.0.0.1,.acme.example,10.1.2.3,db.lan",
	       "no_proxy=localhost,127.0.0.1,.<host-4>,<ip-1>,<host-5>");
	/* a JSON value stays JSON: its keys say what is secret */
	expect(r, "DOCKER_AUTH_CONFIG={\"auths\":{\"reg.acme.internal\":{\"auth\":\"dXNlcjpwYXNzd29yZA==\"}}}",
	       "DOCKER_AUTH_CONFIG={\"auths\":{\"<host-6>\":{\"auth\":\"<secret-10>\"}}}");
	/* redacting twice changes nothing */
	char *once = red(r, "u=https://ghp_Abcdefghij0123456789KLMNOPQRSTuvwxyz@git.acme.example/x /t/ab12cd34ef56/");
	char *twice = red(r, once);
	assert_string_equal(once, twice);
	free(once);
	free(twice);
	redactor_free(r);
}

/* Every shape the redactor lists, alone, in a path, in a sentence, in
 * JSON, after a key that says nothing, and (scrubbing) in a result: the
 * secret part is gone; and the same text twice reads the same. */
static void test_every_shape(void **state)
{
	(void)state;
	struct strbuf ex = STRBUF_INIT, secret = STRBUF_INIT, text = STRBUF_INIT;
	size_t n = redact_shape_count(), cases = 0;
	assert_true(n >= 60);
	for (size_t k = 0; k < n; k++) {
		struct redact_shape sh;
		redact_shape(k, &sh, &ex, &secret);
		assert_non_null(sh.what);
		if (strncmp(sh.source, "https://", 8) != 0)
			fail_msg("shape %s: no source URL", sh.what);
		static const char *const frames[] = { "%s", "see %s for it", "/opt/%s/bin",
						      "{\"note\": \"%s\"}", "NOTE=%s\n", "x,%s,y" };
		for (size_t f = 0; f < sizeof frames / sizeof frames[0]; f++) {
			/* a multi-line example (PuTTY) only alone, a quoted one not in
			 * JSON, one with a slash or a blank not as a path component */
			if (f && (strchr(ex.buf, '\n') || (f == 3 && strchr(ex.buf, '"')) ||
				  (f == 2 && strpbrk(ex.buf, "/ \""))))
				continue;
			cases++;
			sb_reset(&text);
			sb_addf(&text, frames[f], ex.buf);
			struct redactor *r = redactor_new();
			char *got = red(r, text.buf);
			if (strstr(got, secret.buf))
				fail_msg("shape %s in \"%s\": not redacted: \"%s\"", sh.what, text.buf, got);
			if (f == 3 && !strstr(got, "<secret-"))
				fail_msg("shape %s in JSON: no placeholder: %s", sh.what, got);
			char *again = red(r, got); /* idempotent */
			assert_string_equal(again, got);
			free(again);
			free(got);
			redactor_free(r);
		}
		/* scrubbing (check's and smoke's outputs): the secret as "<secret>" */
		struct check_def def = { .id = "x.y", .layer = "x" };
		struct result res;
		result_init(&res, &def);
		res.ran = true;
		res.detail = xstrdup(ex.buf);
		ev_add(&res.ev, "output", "%s", ex.buf);
		redact_scrub_results(&res, 1);
		if (strstr(res.detail, secret.buf) || !strstr(res.detail, "<secret>"))
			fail_msg("shape %s: scrubbed detail \"%s\"", sh.what, res.detail);
		if (strstr(res.ev.v[0].val, secret.buf))
			fail_msg("shape %s: scrubbed evidence \"%s\"", sh.what, res.ev.v[0].val);
		result_release(&res);
		cases++;
	}
	print_message("%zu shapes, %zu hostile cases (each in its contexts, and scrubbed)\n", n, cases);
	sb_release(&ex);
	sb_release(&secret);
	sb_release(&text);
}

/* What the report needs is not a secret: versions, hashes of libraries and
 * images, build ids, PCI ids, GPU UUIDs (a placeholder in the bundle,
 * kept by scrubbing), words that merely look like token prefixes. */
static void test_not_secrets(void **state)
{
	(void)state;
	static const char *const kept[] = {
		"Driver Version: 551.23  CUDA Version: 12.4",
		"sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		"libcuda.so.1 sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		"BuildID[sha1]=0a1b2c3d4e5f60718293a4b5c6d7e8f901234567",
		"git commit 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567",
		"md5 0a1b2c3d4e5f60718293a4b5c6d7e8f9",
		"Bus-Id 00000000:01:00.0 VBIOS 94.02.42.00.A9",
		"torch 2.6.0+cu124 nvidia-cudnn-cu12 9.1.0.70 nvidia-cublas-cu12==12.4.5.8",
		"sk-learn is not a key; the task-manager-sk-helper neither",
		"risk-assessment-report-2026-final-version-copy",
		"/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1",
		"SKU 0x2206 SKIP 0123456789abcdef0123456789abcdef",
		"Private-Lines are a PuTTY thing, and so is the MAC",
		"see eyJ for JSON, and SG. for Singapore",
		"12345678:not-a-telegram-token-at-all",
		"KEY_ID=none TOKEN=unset",
		"https://hooks.slack.com/services/",
		"ldconfig -p | grep libcuda",
	};
	for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
		struct redactor *r = redactor_new();
		char *got = red(r, kept[i]);
		if (strcmp(got, kept[i]))
			fail_msg("falsely redacted: \"%s\" -> \"%s\"", kept[i], got);
		free(got);
		redactor_free(r);
	}
	/* a GPU UUID: one placeholder in the bundle, kept by scrubbing */
	struct redactor *r = redactor_new();
	expect(r, "GPU-3f2a9c41-7b6d-4e21-9a8c-0d1e2f3a4b5c", "GPU-<uuid-1>");
	redactor_free(r);
	struct check_def def = { .id = "x.y", .layer = "x" };
	struct result res;
	result_init(&res, &def);
	res.ran = true;
	res.detail = xstrdup("GPU-3f2a9c41-7b6d-4e21-9a8c-0d1e2f3a4b5c on /home/marguerite, 10.0.0.7, user=bob");
	redact_scrub_results(&res, 1);
	assert_string_equal(res.detail, "GPU-3f2a9c41-7b6d-4e21-9a8c-0d1e2f3a4b5c on /home/marguerite, 10.0.0.7, user=bob");
	result_release(&res);
}

/* A scrub of results with no secret in them leaves every text as it is;
 * one in a check's step alone is scrubbed there and wherever it shows. */
static void test_scrub_step(void **state)
{
	(void)state;
	struct check_def def = { .id = "x.y", .layer = "x" };
	struct result res[2];
	for (size_t i = 0; i < 2; i++) {
		result_init(&res[i], &def);
		res[i].ran = true;
	}
	res[0].step = xstrdup("running nvcc --version");
	res[0].detail = xstrdup("nvcc 12.4, in /usr/local/cuda");
	ev_add(&res[1].ev, "path", "%s", "/usr/local/cuda/bin/nvcc");
	redact_scrub_results(res, 2);
	assert_string_equal(res[0].step, "running nvcc --version");
	assert_string_equal(res[0].detail, "nvcc 12.4, in /usr/local/cuda");
	assert_string_equal(res[1].ev.v[0].val, "/usr/local/cuda/bin/nvcc");
	const char *token = "ghp_" "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9xR2cF4hL6";
	free(res[0].step);
	res[0].step = xasprintf("logging in with %s", token);
	free(res[1].detail);
	res[1].detail = xasprintf("%s expired", token);
	redact_scrub_results(res, 2);
	assert_string_equal(res[0].step, "logging in with <secret>");
	assert_string_equal(res[1].detail, "<secret> expired");
	for (size_t i = 0; i < 2; i++)
		result_release(&res[i]);
}

/* Learning as results arrive (check's runner) scrubs what a scrub of the
 * finished run would: a secret only in an output attached after its
 * result was learnt (the probe's stdout, at the run's end), or only in a
 * result never shown (one the runner settled itself), is found at the
 * finish and scrubbed in every result, those learnt earlier too. */
static void test_scrub_as_results_arrive(void **state)
{
	(void)state;
	const char *token = "ghp_" "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9xR2cF4hL6";
	const char *other = "glpat-" "xY7wV5uT3sR1qP9oN7mL";
	struct check_def def = { .id = "x.y", .layer = "x" };
	struct result res[3];
	for (size_t i = 0; i < 3; i++) {
		result_init(&res[i], &def);
		res[i].ran = true;
	}
	res[0].detail = xasprintf("seen %s and %s", token, other);
	res[1].detail = xstrdup("nvcc 12.4");
	struct secret_scrub *s = secret_scrub_new(3);
	secret_scrub_learn(s, 0, &res[0]);
	/* shown before its output came; res[2] is never shown */
	secret_scrub_learn(s, 1, &res[1]);
	res[1].output = xasprintf("token %s", token);
	res[2].detail = xasprintf("login %s", other);
	secret_scrub_finish(s, res, 3);
	assert_string_equal(res[0].detail, "seen <secret> and <secret>");
	assert_string_equal(res[1].detail, "nvcc 12.4");
	assert_string_equal(res[1].output, "token <secret>");
	assert_string_equal(res[2].detail, "login <secret>");
	for (size_t i = 0; i < 3; i++)
		result_release(&res[i]);
	/* with no secret anywhere, nothing changes */
	result_init(&res[0], &def);
	res[0].ran = true;
	res[0].detail = xstrdup("libcuda.so.1 from /usr/lib/wsl/lib");
	s = secret_scrub_new(1);
	secret_scrub_learn(s, 0, &res[0]);
	secret_scrub_finish(s, res, 1);
	assert_string_equal(res[0].detail, "libcuda.so.1 from /usr/lib/wsl/lib");
	result_release(&res[0]);
}

static void test_consistency(void **state)
{
	(void)state;
	struct redactor *r = redactor_new();
	const char *a = "first member mentions zorglub";
	const char *b = "second: LD_LIBRARY_PATH=/home/zorglub/lib";
	redact_learn(r, a, strlen(a));
	redact_learn(r, b, strlen(b));
	expect(r, a, "first member mentions <user-1>");
	expect(r, b, "second: LD_LIBRARY_PATH=/home/<user-1>/lib");
	/* idempotent: placeholders are never redacted again */
	expect(r, "<user-1> /home/<user-1> USER=<user-1>", "<user-1> /home/<user-1> USER=<user-1>");
	size_t values, hits;
	redact_stats(r, REDACT_USER, &values, &hits);
	assert_int_equal(values, 1);
	assert_int_equal(hits, 2);
	redact_stats(r, REDACT_IP, &values, &hits);
	assert_int_equal(values, 0);
	/* a user named like a placeholder word */
	struct redactor *r2 = redactor_new();
	redact_add(r2, REDACT_USER, "ip");
	redact_add(r2, REDACT_USER, "secret");
	expect(r2, "/home/secret and secret <ip-1>", "/home/<user-1> and <user-1> <ip-1>");
	expect(r2, "<user-1>", "<user-1>");
	redactor_free(r2);
	redactor_free(r);
}

/* Results: every string redacted, the key as context. */
static void test_results(void **state)
{
	(void)state;
	struct redactor *r = redactor_new();
	struct result in, out;
	result_init(&in, NULL);
	in.ran = true;
	res_set(&in, ST_FAIL, "x.y", "libcuda under /home/zed/lib");
	res_ev(&in, "GITHUB_TOKEN", "%s", "ghp_evidenceonly");
	res_ev(&in, "path", "%s", "/home/zed/lib/libcuda.so.1");
	in.output = xstrdup("python: zed@172.16.5.4");
	redact_learn_results(r, &in, 1);
	redact_results(r, &in, 1, &out);
	assert_string_equal(out.detail, "libcuda under /home/<user-1>/lib");
	assert_string_equal(res_get(&out, "GITHUB_TOKEN"), "<secret-1>");
	assert_string_equal(res_get(&out, "path"), "/home/<user-1>/lib/libcuda.so.1");
	assert_string_equal(out.output, "python: <user-1>@<ip-1>");
	assert_int_equal(out.status, ST_FAIL);
	assert_string_equal(out.kb, "x.y");
	result_release(&in);
	result_release(&out);
	redactor_free(r);
}

/* The machine: /etc/passwd, /home, C:\Users, hostname, machine-id, wsl.conf. */
static void test_machine(void **state)
{
	(void)state;
	char *dir = tu_mkdtemp();
	tu_write_str(dir, "etc/hostname", "LAPTOP-7QX3Z9K\n");
	tu_write_str(dir, "etc/machine-id", "0123456789abcdef0123456789abcdef\n");
	tu_write_str(dir, "etc/passwd", "root:x:0:0:root:/root:/bin/bash\n"
					"marguerite:x:1000:1000:Marguerite Dupont,,,:/home/marguerite:/bin/bash\n"
					"nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
					"broken line\n");
	tu_write_str(dir, "home/kit/.keep", "");
	tu_write_str(dir, "mnt/c/Users/M.Dupont/.wslconfig", "[wsl2]\n");
	tu_write_str(dir, "mnt/c/Users/Public/.keep", "");
	tu_write_str(dir, "etc/wsl.conf", "[user]\ndefault=quentin\n[network]\nhostname=otherbox\n");
	assert_int_equal(rootfs_set(dir), 0);
	struct redactor *r = redactor_new();
	redact_learn_machine(r, NULL);
	expect(r, "laptop-7qx3z9k marguerite Marguerite Dupont kit m.dupont quentin otherbox",
	       "<host-1> <user-1> <user-2> <user-3> <user-4> <user-5> <host-2>");
	expect(r, "0123456789ABCDEF0123456789ABCDEF", "<machine-id-1>");
	expect(r, "nobody root Public", "nobody root Public");
	redactor_free(r);
	assert_int_equal(rootfs_set("/"), 0);
	tu_rmtree(dir);
	free(dir);
}

/* Hostile input: long lines, binary, invalid UTF-8, NULs, truncated shapes. */
static void test_hostile(void **state)
{
	(void)state;
	struct redactor *r = redactor_new();
	redact_add(r, REDACT_USER, "marguerite");
	size_t n = 3u << 20;
	char *big = xmalloc(n);
	for (size_t i = 0; i < n; i++)
		big[i] = (char)(i * 2654435761u >> 13);
	memcpy(big + 1000, " marguerite ", 12);
	memcpy(big + n - 9, "/home/mar", 9);
	struct strbuf out = STRBUF_INIT;
	redact_text(r, NULL, big, n, &out);
	assert_null(memmem(out.buf, out.len, "marguerite", 10));
	assert_true(out.len > n / 2);
	/* one very long line without a newline, made of address-like pieces */
	sb_reset(&out);
	struct strbuf line = STRBUF_INIT;
	for (int i = 0; i < 50000; i++)
		sb_addf(&line, "10.%d.%d.%d fe80::%x /home/u%d USER=%d ", i % 250, (i / 250) % 250, i % 7,
			i, i, i);
	redact_text(r, NULL, line.buf, line.len, &out);
	assert_null(strstr(out.buf, "10.1.0.1 "));
	assert_null(strstr(out.buf, "/home/u1 "));
	/* truncated shapes at the very end of the input */
	static const char *const ends[] = { "192.168.1.", "fe80::", "00:15:5d:a1:b2:", "GPU-6b4c5e1a-1111",
					    "/home/", "C:\\Users\\", "TOKEN=", "http://u:", "<user-", "Serial Number :" };
	for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
		sb_reset(&out);
		redact_text(r, NULL, ends[i], strlen(ends[i]), &out);
		assert_true(out.len > 0);
	}
	/* a runaway secret value is replaced whole, however long */
	sb_reset(&out);
	struct strbuf longsecret = STRBUF_INIT;
	sb_add(&longsecret, "API_TOKEN=");
	for (int i = 0; i < 10000; i++)
		sb_addc(&longsecret, (char)('a' + i % 26));
	sb_add(&longsecret, " end");
	redact_text(r, NULL, longsecret.buf, longsecret.len, &out);
	assert_string_equal(out.buf, "API_TOKEN=<secret-1> end");
	sb_release(&longsecret);
	/* invalid UTF-8 and NULs pass through byte for byte */
	const char bin[] = "\xff\xfe\x00marguerite\x00\xc3";
	sb_reset(&out);
	redact_text(r, NULL, bin, sizeof bin - 1, &out);
	assert_int_equal(out.len, 3 + 8 + 2);
	assert_memory_equal(out.buf, "\xff\xfe\x00<user-1>\x00\xc3", 13);
	sb_release(&out);
	sb_release(&line);
	free(big);
	redactor_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_users_and_homes), cmocka_unit_test(test_windows_users),
		cmocka_unit_test(test_hosts),           cmocka_unit_test(test_ips),
		cmocka_unit_test(test_versions_survive), cmocka_unit_test(test_macs_uuids_serials),
		cmocka_unit_test(test_secrets),         cmocka_unit_test(test_consistency),
		cmocka_unit_test(test_results),         cmocka_unit_test(test_machine),
		cmocka_unit_test(test_hostile),         cmocka_unit_test(test_shapes_of_secrets),
		cmocka_unit_test(test_every_shape),     cmocka_unit_test(test_not_secrets),
		cmocka_unit_test(test_scrub_step),
		cmocka_unit_test(test_scrub_as_results_arrive),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
