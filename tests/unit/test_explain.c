/*
 * test_explain.c: `wslgpu explain`'s engine — the line normaliser, the
 * regex prefilter keys, the Aho-Corasick automaton, the matcher (wrapped
 * lines, tracebacks, grouping, refinement, clipping, binary input), cause
 * ranking against check results, the integrity of the signature KB, and the
 * corpus of real-looking logs in tests/explain/ (one case per
 * signature at least); the DFA engine against regexec, literal sets, error
 * codes and `match:` classes, hard wraps, cut pastes, the unrecognised
 * GPU-looking lines, and explain_best (what the probes ask).
 */
#include "testutil.h"

#include <dirent.h>

#include "explain/ac.h"
#include "explain/codes.h"
#include "explain/confirm.h"
#include "explain/literal.h"
#include "explain/matcher.h"
#include "explain/normalize.h"
#include "explain/paste.h"
#include "explain/pattern.h"
#include "explain/report.h"
#include "explain/rx.h"
#include "explain/textplat.h"
#include "kb/kb.h"
#include "probes/registry.h"
#include "kb_ids.h"

/* ---- helpers ---- */

static void scan_text(struct explain_scan *s, const char *text)
{
	explain_scan_init(s, explain_db_builtin());
	explain_scan_feed(s, text, strlen(text));
	explain_scan_finish(s);
}

static bool found(const struct explain_scan *s, const char *id)
{
	return explain_scan_get(s, id) != NULL;
}

static const char *msg_of(const char *line, char *buf)
{
	struct norm_line nl;
	norm_line(line, strlen(line), buf, &nl);
	return nl.text + nl.msg;
}

/* ---- normalize ---- */

static void test_norm_ansi_crlf(void **state)
{
	(void)state;
	char buf[512];
	struct norm_line nl;
	const char *in = "\033[1;31mError:\033[0m  CUDA\033]0;title\007 out   of memory\r";
	norm_line(in, strlen(in), buf, &nl);
	assert_string_equal(nl.text, "Error: CUDA out of memory");
	/* The ESC was lost in the copy: "[31m" remains of the colour code. */
	in = "[1;31mAssertionError[0m: Torch";
	norm_line(in, strlen(in), buf, &nl);
	assert_string_equal(nl.text, "AssertionError: Torch");
	/* Not an SGR sequence: kept. */
	in = "[rank0] x[0] [m]";
	norm_line(in, strlen(in), buf, &nl);
	assert_string_equal(nl.text + nl.msg, "x[0] [m]");
	/* Tabs, NULs and C1 controls are blanks; NULs are counted. */
	char bin[] = { 'a', '\t', '\0', 'b', (char)0xc2, (char)0x9b, 'c', 0x1b };
	norm_line(bin, sizeof bin, buf, &nl);
	assert_string_equal(nl.text, "a b c");
	assert_int_equal(nl.nul_bytes, 1);
	/* Invalid UTF-8 is kept and counted; valid UTF-8 untouched. */
	const char *u = "caf\xc3\xa9 \xff\xfe ok";
	norm_line(u, strlen(u), buf, &nl);
	assert_int_equal(nl.bad_utf8, 2);
	assert_memory_equal(nl.text, "caf\xc3\xa9 \xff\xfe ok", strlen(u));
}

static void test_norm_prefixes(void **state)
{
	(void)state;
	char buf[1024];
	static const struct { const char *in, *msg; } cases[] = {
		{ "2024-05-01 12:00:00.123 W tensorflow/core/x.cc:12] failed call", "failed call" },
		{ "2024-05-01 12:00:00.123456: E external/local_xla/xla/cuda_driver.cc:282] failed",
		  "failed" },
		{ "E0501 12:00:00.123456  1234 cuda_driver.cc:282] failed", "failed" },
		{ "W0000 00:00:1753232013.685876   24341 gpu_device.cc:2431] TensorFlow was",
		  "TensorFlow was" },
		{ "[rank0]: RuntimeError: x", "RuntimeError: x" },
		{ "[    1.203210] misc dxg: dxgk: y", "misc dxg: dxgk: y" },
		{ "May  1 12:00:00 DESKTOP kernel: misc dxg: z", "misc dxg: z" },
		{ "2024-05-01T12:00:00.000Z Killed", "Killed" },
		{ "E some glog-style error", "some glog-style error" },
		{ "WARNING:absl:No GPU/TPU found", "No GPU/TPU found" },
		{ "ERROR: could not", "could not" },
		{ "webui-docker-hlky-1  | nvidia-container-cli: x", "nvidia-container-cli: x" },
		{ "(pid=1234) 2025-10-30 02:25:47.476347: I tensorflow/core/util/port.cc:113] oneDNN",
		  "oneDNN" },
		{ "2021-10-21 14:32:41,099 INFO Checkpoint", "Checkpoint" },
		{ "#8 [4/6] COPY /usr/lib/wsl/lib /x", "COPY /usr/lib/wsl/lib /x" },
		{ "Step 5/9 : COPY libcuda.so.1 /usr/lib/", "COPY libcuda.so.1 /usr/lib/" },
		{ "user@host:~/src$ nvidia-smi", "nvidia-smi" },
		{ ">>> torch.cuda.is_available()", "torch.cuda.is_available()" },
		{ "/usr/lib/python3/torch/cuda/__init__.py:52: UserWarning: CUDA", "UserWarning: CUDA" },
		{ "src/x.c:240: note", "note" },
		/* a provisioner's step (Packer, with its -timestamp-ui; Vagrant) */
		{ "2025-07-27T16:40:59+02:00: ==> amazon-ebs.jammy:  nvidia-dkms-575-open",
		  "nvidia-dkms-575-open" },
		{ "==> default: Setting up nvidia-dkms-535 (535.183.01-0ubuntu1) ...",
		  "Setting up nvidia-dkms-535 (535.183.01-0ubuntu1) ..." },
		/* an arrow before words that are no name and colon: left alone */
		{ "==> dkms install --no-depmod nvidia/510.54 -k 5.16.9",
		  "==> dkms install --no-depmod nvidia/510.54 -k 5.16.9" },
		/* Not prefixes: sentences and plain words are left alone, and a C
		 * compiler's FILE.c:LINE:COL: names what was being built. */
		{ "nvidia/nv-pci.c:240:9: error: x", "nvidia/nv-pci.c:240:9: error: x" },
		{ "[ 1.0] common/inc/nv-linux.h:564:17: error: y", "common/inc/nv-linux.h:564:17: error: y" },
		{ "Error response from daemon: x", "Error response from daemon: x" },
		/* a message in brackets (PaddlePaddle's hint), not a log prefix */
		{ "  [Hint: cudnn_dso_handle should not be null.] (at /p/cudnn.cc:64)",
		  "[Hint: cudnn_dso_handle should not be null.] (at /p/cudnn.cc:64)" },
		{ "Killed", "Killed" },
		{ "100 files copied", "100 files copied" },
		{ "", "" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *m = msg_of(cases[i].in, buf);
		if (strcmp(m, cases[i].msg))
			fail_msg("prefix of \"%s\": got \"%s\", want \"%s\"", cases[i].in, m,
				 cases[i].msg);
	}
}

static void test_norm_indent(void **state)
{
	(void)state;
	char buf[256];
	struct norm_line nl;
	const char *in = "[rank0]:     raise RuntimeError(\"x\")";
	norm_line(in, strlen(in), buf, &nl);
	assert_int_equal(nl.indent, 5);
	assert_string_equal(nl.text + nl.msg, "raise RuntimeError(\"x\")");
	in = "    raise x";
	norm_line(in, strlen(in), buf, &nl);
	assert_int_equal(nl.indent, 4);
	/* Prefix with no blank after it: the text is kept as it was. */
	in = "[rank0]:File";
	norm_line(in, strlen(in), buf, &nl);
	assert_string_equal(nl.text, "[rank0]:File");
	assert_string_equal(nl.text + nl.msg, "File");
}

static void test_norm_garbage(void **state)
{
	(void)state;
	/* Every byte value, every length: no crash, the output never grows. */
	char in[600], out[601];
	unsigned seed = 12345;
	for (int round = 0; round < 2000; round++) {
		size_t len = (size_t)(round % 600);
		for (size_t i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			in[i] = (char)(seed >> 16);
		}
		struct norm_line nl;
		norm_line(in, len, out, &nl);
		assert_true(nl.len <= len);
		assert_true(nl.msg <= nl.len);
		assert_int_equal(strlen(nl.text), nl.len);
		norm_prefix_len(in, len);
	}
}

/* ---- literal keys ---- */

static void expect_keys(const char *re, const char *const *want, size_t n)
{
	struct litset ls;
	int rc = ere_required(re, &ls);
	if (n == 0) {
		if (rc == 0)
			fail_msg("\"%s\" gave keys (first \"%s\"), expected none", re, ls.v[0]);
		return;
	}
	if (rc < 0)
		fail_msg("\"%s\" gave no keys", re);
	assert_int_equal(ls.n, n);
	for (size_t i = 0; i < n; i++) {
		bool hit = false;
		for (size_t j = 0; j < ls.n; j++)
			hit |= !strcmp(ls.v[j], want[i]);
		if (!hit)
			fail_msg("\"%s\": key \"%s\" missing", re, want[i]);
	}
	litset_free(&ls);
}

static void test_literal_keys(void **state)
{
	(void)state;
	expect_keys("no kernel image is available", (const char *[]){ "no kernel image is available" }, 1);
	expect_keys("CUDA_ERROR_NO_DEVICE|cudaErrorNoDevice",
		    (const char *[]){ "cuda_error_no_device", "cudaerrornodevice" }, 2);
	expect_keys("code=35([^0-9]|$)", (const char *[]){ "code=35" }, 1);
	/* Optional atoms contribute nothing; a+ keeps one a. */
	expect_keys("abcx?defg", (const char *[]){ "defg" }, 1);
	expect_keys("colou?r printer+s", (const char *[]){ "r printer" }, 1);
	expect_keys("(setting up|unpacking) (nvidia-driver|libnvidia-compute)-[0-9]+",
		    (const char *[]){ "nvidia-driver", "libnvidia-compute" }, 2);
	expect_keys("libcuda\\.so\\.1: cannot open", (const char *[]){ "libcuda.so.1: cannot open" }, 1);
	expect_keys("[abc]{2,3}xyz(opt)?", (const char *[]){ "xyz" }, 1);
	expect_keys("ab{0,3}cde", (const char *[]){ "cde" }, 1);
	/* A selective single key beats a short alternation. */
	expect_keys("(nvidia|tesla|quadro) [^|]* tcc *\\|", (const char *[]){ " tcc" }, 1);
	/* Words of failure count a quarter: the key is what failed, not that
	 * it did (" failed: " is in most lines of an error log). */
	expect_keys("ibv_reg_[a-z_]* failed: [a-z ]+", (const char *[]){ "ibv_reg_" }, 1);
	expect_keys("undefined symbol:? nccl[a-z]+", (const char *[]){ " nccl" }, 1);
	/* No requirement can be derived. */
	expect_keys("[0-9]+", NULL, 0);
	expect_keys("ab|cdefg", NULL, 0);
	expect_keys("(abcdef)*", NULL, 0);
	expect_keys("", NULL, 0);
	expect_keys("\\bword\\b", (const char *[]){ "word" }, 1);
	/* Hostile input: unbalanced, truncated. */
	expect_keys("((((abc", (const char *[]){ "abc" }, 1); /* regcomp rejects it anyway */
	expect_keys("abcd)))", (const char *[]){ "abcd)))" }, 1);
	struct litset ls;
	ere_required("[[:alpha:]]]]abcd\\", &ls);
	litset_free(&ls);
}

/* ---- Aho-Corasick ---- */

struct hits {
	size_t key[32];
	long end[32];
	size_t n;
};

static void on_hit(void *ctx, size_t key, long end)
{
	struct hits *h = ctx;
	if (h->n < 32) {
		h->key[h->n] = key;
		h->end[h->n++] = end;
	}
}

static void test_ac(void **state)
{
	(void)state;
	const char *keys[] = { "he", "she", "his", "hers", "HERS" };
	size_t lens[] = { 2, 3, 3, 4, 4 };
	struct ac ac;
	ac_build(&ac, keys, lens, 5, NULL);
	struct hits h = { { 0 }, { 0 }, 0 };
	ac_feed(&ac, 0, "uSHErS", 6, 0, on_hit, &h);
	/* she@3, he@3, hers@5 (both "hers" and "HERS", folded) */
	assert_int_equal(h.n, 4);
	bool she = false, he = false, hers = 0;
	int nhers = 0;
	for (size_t i = 0; i < h.n; i++) {
		she |= h.key[i] == 1 && h.end[i] == 3;
		he |= h.key[i] == 0 && h.end[i] == 3;
		if ((h.key[i] == 3 || h.key[i] == 4) && h.end[i] == 5)
			nhers++;
	}
	hers = nhers == 2;
	assert_true(she && he && hers);
	/* The state carries over calls: a key split between two feeds. */
	h.n = 0;
	int32_t st = ac_feed(&ac, 0, "xs", 2, 0, on_hit, &h);
	ac_feed(&ac, st, "he", 2, 2, on_hit, &h);
	assert_int_equal(h.n, 2);
	ac_free(&ac);
	/* No keys at all. */
	ac_build(&ac, NULL, NULL, 0, NULL);
	h.n = 0;
	ac_feed(&ac, 0, "anything", 8, 0, on_hit, &h);
	assert_int_equal(h.n, 0);
	ac_free(&ac);
}

/* The states with complete rows are a speed choice only: with one (the
 * root alone), a few or all, the automaton finds the same keys at the
 * same places and ends in a state that answers alike (depth, failure
 * chain), on keys that share prefixes and suffixes. */
struct hit_log {
	unsigned long sum, n;
};

static void log_hit(void *ctx, size_t key, long end)
{
	struct hit_log *h = ctx;
	h->sum = h->sum * 1000003u + key * 7919u + (unsigned long)end;
	h->n++;
}

static void test_ac_dense_rows(void **state)
{
	(void)state;
	enum { NK = 300 };
	static char text[NK][12];
	const char *keys[NK];
	size_t lens[NK];
	unsigned long r = 12345;
	for (size_t k = 0; k < NK; k++) {
		size_t n = 1 + k % 9;
		for (size_t i = 0; i < n; i++) {
			r = r * 6364136223846793005u + 1442695040888963407u;
			text[k][i] = "abcAB-: "[(r >> 33) % 8];
		}
		keys[k] = text[k];
		lens[k] = n;
	}
	static char hay[20000];
	for (size_t i = 0; i < sizeof hay; i++) {
		r = r * 6364136223846793005u + 1442695040888963407u;
		hay[i] = "abcdABC-: x"[(r >> 33) % 11];
	}
	struct ac all;
	ac_build_dense(&all, keys, lens, NK, NULL, INT32_MAX);
	assert_int_equal(all.ndense, all.nstates);
	assert_int_equal(all.nedges, 0);
	struct hit_log want = { 0, 0 };
	int32_t end_all = ac_feed(&all, 0, hay, sizeof hay, 0, log_hit, &want);
	assert_true(want.n > 1000);
	const int32_t dense[] = { 1, 2, 7, 64, 500 };
	for (size_t d = 0; d < sizeof dense / sizeof dense[0]; d++) {
		struct ac few;
		ac_build_dense(&few, keys, lens, NK, NULL, dense[d]);
		assert_int_equal(few.ndense, dense[d] < all.nstates ? dense[d] : all.nstates);
		assert_int_equal(few.nstates, all.nstates);
		struct hit_log got = { 0, 0 };
		/* fed in pieces: the state carries over */
		int32_t st = 0;
		for (size_t at = 0; at < sizeof hay; at += 997) {
			size_t n = sizeof hay - at < 997 ? sizeof hay - at : 997;
			st = ac_feed(&few, st, hay + at, n, (long)at, log_hit, &got);
		}
		assert_int_equal(got.n, want.n);
		assert_true(got.sum == want.sum);
		assert_int_equal(few.depth[st], all.depth[end_all]);
		int32_t a = st, b = end_all;
		while (a > 0 && b > 0) {
			assert_int_equal(few.depth[a], all.depth[b]);
			a = few.fail[a];
			b = all.fail[b];
		}
		assert_int_equal(a, 0);
		assert_int_equal(b, 0);
		ac_free(&few);
	}
	ac_free(&all);
}

/* ---- matcher ---- */

static void test_match_basic(void **state)
{
	(void)state;
	struct explain_scan s;
	scan_text(&s, "CUDA driver initialization failed, you might not have a CUDA gpu");
	assert_int_equal(s.nfound, 1);
	assert_string_equal(s.db->sig[s.found[0]->sig].e->id, KB_EXPLAIN_SIG_TORCH_DRIVER_INIT_FAILED);
	assert_int_equal(s.found[0]->first_line, 1);
	assert_int_equal(s.st.lines, 1);
	explain_scan_release(&s);
	/* Nothing known. */
	scan_text(&s, "hello world\nall is well\n");
	assert_int_equal(s.nfound, 0);
	assert_int_equal(s.st.lines, 2);
	explain_scan_release(&s);
	/* Empty input. */
	scan_text(&s, "");
	assert_int_equal(s.st.lines, 0);
	assert_int_equal(s.nfound, 0);
	explain_scan_release(&s);
}

static void test_match_grouping_order(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	sb_add(&sb, "noise\nnoise\n");
	for (int i = 0; i < 41; i++)
		sb_addf(&sb, "step %d\nfailed call to cuInit: CUDA_ERROR_NO_DEVICE\n", i);
	sb_add(&sb, "ldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link\n");
	struct explain_scan s;
	scan_text(&s, sb.buf);
	assert_int_equal(s.nfound, 2);
	const struct explain_match *m = s.found[0];
	assert_string_equal(s.db->sig[m->sig].e->id, KB_EXPLAIN_SIG_CUDA_NO_DEVICE);
	assert_int_equal(m->count, 41);
	assert_int_equal(m->first_line, 4);
	assert_int_equal(m->last_line, 84);
	assert_int_equal(m->nocc, EXPLAIN_SAMPLES);
	assert_int_equal(m->occ[1].line, 6);
	assert_string_equal(s.db->sig[s.found[1]->sig].e->id, KB_EXPLAIN_SIG_LDCONFIG_SYMLINK);
	struct explain_tally t;
	explain_tally(&s, NULL, &t);
	assert_int_equal(t.findings, 1);
	assert_int_equal(t.noise, 1);
	assert_string_equal(t.status, "problem");
	explain_scan_release(&s);
	sb_release(&sb);
}

static void test_match_wrapped(void **state)
{
	(void)state;
	struct explain_scan s;
	/* A literal split by the wrap. */
	scan_text(&s, "x\nRuntimeError: CUDA driver initialization failed, you\n   might not have a CUDA gpu.\ny\n");
	const struct explain_match *m = explain_scan_get(&s, KB_EXPLAIN_SIG_TORCH_DRIVER_INIT_FAILED);
	assert_non_null(m);
	assert_int_equal(m->count, 1);
	assert_int_equal(m->first_line, 2);
	assert_int_equal(m->last_line, 3);
	assert_true(m->occ[0].wrapped);
	assert_non_null(strstr(m->occ[0].text, "you might not"));
	explain_scan_release(&s);
	/* A regex whose key is on the first line and the rest on the second. */
	scan_text(&s, "Error! Your kernel headers for kernel 5.15.90.1-microsoft-standard-WSL2\ncannot be found.\n");
	assert_true(found(&s, KB_EXPLAIN_SIG_KERNEL_HEADERS_MICROSOFT));
	explain_scan_release(&s);
	/* Matched on the line alone: not counted again for the pair. */
	scan_text(&s, "Torch not compiled with CUDA enabled\nTorch not compiled with CUDA enabled\n");
	m = explain_scan_get(&s, KB_EXPLAIN_SIG_TORCH_NOT_COMPILED);
	assert_int_equal(m->count, 2);
	assert_false(m->occ[0].wrapped);
	explain_scan_release(&s);
	/* No pair across an empty line. */
	scan_text(&s, "CUDA driver initialization failed, you\n\nmight not have a CUDA gpu\n");
	assert_false(found(&s, KB_EXPLAIN_SIG_TORCH_DRIVER_INIT_FAILED));
	explain_scan_release(&s);
}

static void test_match_traceback(void **state)
{
	(void)state;
	struct explain_scan s;
	scan_text(&s, "Traceback (most recent call last):\n"
		      "  File \"/x/torch/cuda/__init__.py\", line 289, in _lazy_init\n"
		      "    raise AssertionError(\"Torch not compiled with CUDA enabled\")\n"
		      "AssertionError: Torch not compiled with CUDA enabled\n");
	const struct explain_match *m = explain_scan_get(&s, KB_EXPLAIN_SIG_TORCH_NOT_COMPILED);
	assert_non_null(m);
	assert_int_equal(m->count, 1); /* the echoed source line is skipped */
	assert_int_equal(m->first_line, 4);
	explain_scan_release(&s);
	/* Cut after the raise: the raise's text is the message, on its line. */
	scan_text(&s, "  File \"/x/torch/cuda/__init__.py\", line 289, in _lazy_init\n"
		      "    raise AssertionError(\"Torch not compiled with CUDA enabled\")\n");
	m = explain_scan_get(&s, KB_EXPLAIN_SIG_TORCH_NOT_COMPILED);
	assert_non_null(m);
	assert_int_equal(m->count, 1);
	assert_int_equal(m->first_line, 2);
	explain_scan_release(&s);
	/* ...also where an empty line or another traceback follows it. */
	scan_text(&s, "  File \"/x/torch/cuda/__init__.py\", line 289, in _lazy_init\n"
		      "    raise AssertionError(\"Torch not compiled with CUDA enabled\")\n"
		      "\n"
		      "next\n");
	m = explain_scan_get(&s, KB_EXPLAIN_SIG_TORCH_NOT_COMPILED);
	assert_non_null(m);
	assert_int_equal(m->first_line, 2);
	explain_scan_release(&s);
	/* A source line that is not a raise stays an echo. */
	scan_text(&s, "  File \"/x/app.py\", line 3, in main\n"
		      "    print(\"Torch not compiled with CUDA enabled\")\n");
	assert_false(found(&s, KB_EXPLAIN_SIG_TORCH_NOT_COMPILED));
	explain_scan_release(&s);
	/* A frame without source (python -c): the exception line still counts. */
	scan_text(&s, "  File \"<string>\", line 1, in <module>\n"
		      "AssertionError: Torch not compiled with CUDA enabled\n");
	assert_true(found(&s, KB_EXPLAIN_SIG_TORCH_NOT_COMPILED));
	explain_scan_release(&s);
}

static void test_match_refine(void **state)
{
	(void)state;
	struct explain_scan s;
	/* The pinned-memory reading wins over the generic CUDA OOM on its line. */
	scan_text(&s, "E tensorflow/stream_executor/cuda/cuda_driver.cc:1075] failed to alloc 374391296 bytes on host: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n");
	assert_true(found(&s, KB_EXPLAIN_SIG_PINNED_HOST));
	assert_false(found(&s, KB_EXPLAIN_SIG_CUDA_OOM));
	explain_scan_release(&s);
	/* ...but not on another line. */
	scan_text(&s, "failed to alloc 374391296 bytes on host\nRuntimeError: CUDA error: out of memory\n");
	assert_true(found(&s, KB_EXPLAIN_SIG_PINNED_HOST));
	assert_true(found(&s, KB_EXPLAIN_SIG_CUDA_OOM));
	explain_scan_release(&s);
	/* A check finding that carries the same message is folded in. */
	scan_text(&s, "RuntimeError: Found no NVIDIA driver on your system.\n");
	assert_int_equal(s.nfound, 1);
	assert_true(found(&s, KB_EXPLAIN_SIG_FOUND_NO_DRIVER));
	explain_scan_release(&s);
}

static void test_match_chunks(void **state)
{
	(void)state;
	const char *text = "a\r\nfailed call to cuInit: CUDA_ERROR_NO_DEVICE\r\nb\r\n"
			   "Torch not compiled with CUDA enabled";
	struct explain_scan whole, bytes;
	scan_text(&whole, text);
	explain_scan_init(&bytes, explain_db_builtin());
	for (size_t i = 0; text[i]; i++)
		explain_scan_feed(&bytes, text + i, 1);
	explain_scan_finish(&bytes);
	assert_int_equal(whole.nfound, 2);
	assert_int_equal(bytes.nfound, whole.nfound);
	for (size_t i = 0; i < whole.nfound; i++) {
		assert_int_equal(whole.found[i]->sig, bytes.found[i]->sig);
		assert_int_equal(whole.found[i]->first_line, bytes.found[i]->first_line);
	}
	assert_int_equal(bytes.st.lines, 4);
	assert_int_equal(bytes.st.bytes, strlen(text));
	explain_scan_release(&whole);
	explain_scan_release(&bytes);
}

/* A log that cycles through many messages is read back from the memo from
 * the third round on, whatever its cycle: with a cycle of a multiple of 4
 * lines, the notes of messages seen once evicted each other every round
 * for a quarter of them (each message met the same slot): 77 % were read
 * back; 93 % with that mended, 98 % with four ways a memo bucket, which a
 * change of the KB (its automaton's states are in the hash) could drop to
 * 94 %; 99 % with eight ways, for the memo and the notes alike. */
static void test_match_memo_cycle(void **state)
{
	(void)state;
	enum { MESSAGES = 928, ROUNDS = 8 };
	struct explain_scan s;
	explain_scan_init(&s, explain_db_builtin());
	char line[160];
	for (int r = 0; r < ROUNDS; r++)
		for (int m = 0; m < MESSAGES; m++) {
			int n = snprintf(line, sizeof line,
					 "2024-05-01 12:00:%02d: RuntimeError: CUDA error: out of memory "
					 "in worker %d of pool %d\n", r, m, m * 7);
			explain_scan_feed(&s, line, (size_t)n);
		}
	explain_scan_finish(&s);
	assert_int_equal(s.st.lines, MESSAGES * ROUNDS);
	unsigned long later = MESSAGES * (ROUNDS - 2);
	assert_true(s.st.replayed >= later - later / 25); /* a bucket may hold more than its ways */
	assert_true(found(&s, "explain.sig.cuda_oom"));
	explain_scan_release(&s);
}

static void test_match_long_and_binary(void **state)
{
	(void)state;
	/* A 10 MB line: matched on its first 64 KiB, counted as clipped. */
	size_t big = 10u << 20;
	char *buf = malloc(big + 64);
	memset(buf, 'x', big);
	const char *sig = " Torch not compiled with CUDA enabled ";
	memcpy(buf + 100, sig, strlen(sig));
	memcpy(buf + EXPLAIN_LINE_MAX + 100, " CUDA_ERROR_NO_DEVICE ", 22);
	buf[big] = '\n';
	memcpy(buf + big + 1, "last", 4);
	struct explain_scan s;
	explain_scan_init(&s, explain_db_builtin());
	explain_scan_feed(&s, buf, big + 5);
	explain_scan_finish(&s);
	assert_int_equal(s.st.clipped, 1);
	assert_int_equal(s.st.lines, 2);
	assert_true(found(&s, KB_EXPLAIN_SIG_TORCH_NOT_COMPILED));
	assert_false(found(&s, KB_EXPLAIN_SIG_CUDA_NO_DEVICE)); /* beyond the clip */
	assert_true(strlen(s.found[0]->occ[0].text) <= EXPLAIN_SAMPLE_TEXT + 3);
	explain_scan_release(&s);
	/* A progress bar redrawn with CR past 64 KiB, then the error on the
	 * same line: the cut is still counted, and the error found, whole
	 * where the cut splits it, and fed in any chunks. */
	struct strbuf bar = STRBUF_INIT;
	for (int i = 0; bar.len < EXPLAIN_LINE_MAX - 20; i++)
		sb_addf(&bar, "\r %3d%%|%.*s| %d/1000", i % 100, i % 30, "##############################", i);
	const char *oom = "RuntimeError: CUDA error: out of memory";
	size_t at_cut = bar.len; /* the message straddles EXPLAIN_LINE_MAX */
	sb_addf(&bar, "\r%s", oom);
	for (int i = 0; bar.len < 3 * EXPLAIN_LINE_MAX; i++)
		sb_addf(&bar, "\r %3d%%|#| %d/1000", i % 100, i);
	sb_addf(&bar, "\r%s\nnext line\n", "Torch not compiled with CUDA enabled");
	assert_true(at_cut < EXPLAIN_LINE_MAX && at_cut + strlen(oom) > EXPLAIN_LINE_MAX);
	for (size_t chunk = 1; chunk <= bar.len; chunk = chunk * 7 + 3) {
		explain_scan_init(&s, explain_db_builtin());
		for (size_t at = 0; at < bar.len; at += chunk)
			explain_scan_feed(&s, bar.buf + at, bar.len - at < chunk ? bar.len - at : chunk);
		explain_scan_finish(&s);
		assert_int_equal(s.st.clipped, 1);
		assert_int_equal(s.st.lines, 2); /* the pieces are the first line's */
		const struct explain_match *m = explain_scan_get(&s, "explain.sig.cuda_oom");
		assert_non_null(m);
		assert_int_equal(m->first_line, 1);
		assert_non_null(strstr(m->occ[0].text, "out of memory"));
		assert_true(found(&s, "explain.sig.torch_not_compiled"));
		explain_scan_release(&s);
	}
	sb_release(&bar);
	/* Random binary: no crash; NULs counted. */
	unsigned seed = 7;
	for (size_t i = 0; i < big; i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (char)(seed >> 16);
	}
	explain_scan_init(&s, explain_db_builtin());
	explain_scan_feed(&s, buf, big);
	explain_scan_finish(&s);
	assert_true(s.st.nul_bytes > 0);
	assert_true(s.st.lines > 0);
	explain_scan_release(&s);
	free(buf);
}

/* ---- pasted listings ---- */

static void test_paste(void **state)
{
	(void)state;
	struct paste p;
	struct strbuf out = STRBUF_INIT;
	/* a Linux driver's libcuda.so.1 first in the cache, WSL's after it */
	const char *shadow = "> \tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1\n"
			     "> \tlibcuda.so.1 (libc6,x86-64) => /usr/lib/wsl/lib/libcuda.so.1\n"
			     "\tlibcuda.so.1 (libc6) => /usr/lib/i386-linux-gnu/libcuda.so.1\n";
	paste_read(shadow, strlen(shadow), &p);
	assert_true(paste_any(&p));
	assert_string_equal(p.lib[0].taken, "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
	assert_int_equal(p.lib[0].nother, 2);
	paste_text(&out, &p);
	assert_non_null(strstr(out.buf, "a Linux driver's copy comes before WSL's"));
	paste_free(&p);
	/* a whole listing without it: said; a grep without it: nothing */
	const char *full = "2 libs found in cache `/etc/ld.so.cache'\n"
			   "\tlibz.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libz.so.1\n"
			   "\tlibm.so.6 (libc6,x86-64) => /lib/x86_64-linux-gnu/libm.so.6\n";
	paste_read(full, strlen(full), &p);
	sb_reset(&out);
	paste_text(&out, &p);
	assert_non_null(strstr(out.buf, "no libcuda.so.1 for this ABI in the cache"));
	paste_free(&p);
	paste_read(full + 42, strlen(full + 42), &p);
	assert_false(paste_any(&p));
	paste_free(&p);
	/* prose, a log, nothing: no listing */
	const char *log = "RuntimeError: CUDA error: out of memory\nTried to allocate 2.00 GiB\n";
	paste_read(log, strlen(log), &p);
	assert_false(paste_any(&p));
	paste_free(&p);
	paste_read("", 0, &p);
	assert_false(paste_any(&p));
	paste_free(&p);
	/* pip freeze: torch and a mix of CUDA majors; more wheels than kept */
	struct strbuf pip = STRBUF_INIT;
	sb_add(&pip, "torch==2.1.0+cu121\nnvidia-cudnn-cu11==8.5.0.96\n");
	for (int i = 0; i < 20; i++)
		sb_addf(&pip, "nvidia-lib%d-cu12==12.1.%d\n", i, i);
	paste_read(pip.buf, pip.len, &p);
	assert_string_equal(p.torch, "2.1.0+cu121");
	assert_string_equal(p.torch_cuda, "12.1");
	assert_true(p.mixed_cuda);
	assert_int_equal(p.nwheel, PASTE_WHEELS);
	assert_int_equal(p.more_wheels, 21 - PASTE_WHEELS);
	sb_reset(&out);
	paste_text(&out, &p);
	for (char *l = out.buf, *e; *l; l = e + 1) {
		e = strchr(l, '\n');
		assert_non_null(e);
		assert_true(e - l <= 80);
	}
	paste_free(&p);
	sb_release(&pip);
	sb_release(&out);
}

/* ---- rx: the DFA engine, against regexec ---- */

/* rx and regexec agree on re over text; rx may decline (-1) only where
 * rx_compile said so. */
static void rx_agrees(const char *re, const char *text)
{
	regex_t r;
	if (regcomp(&r, re, REG_EXTENDED | REG_ICASE | REG_NOSUB))
		return;
	struct rx x;
	if (rx_compile(&x, re) == 0) {
		int want = regexec(&r, text, 0, NULL, 0) == 0;
		int got = rx_search(&x, text, strlen(text));
		if (got != want)
			fail_msg("/%s/ on \"%s\": rx %d, regexec %d", re, text, got, want);
		rx_free(&x);
	}
	regfree(&r);
}

static void test_rx_semantics(void **state)
{
	(void)state;
	static const char *const texts[] = {
		"", "a", "abc", "ABC", "xabcx", "code=35", "code=350", "code=35(", "CUDA error 100: no",
		"/dev/dxg: No such file or directory", "| 0  N/A  N/A  1234  C  python  N/A |",
		"x a b", "aaa", "ab ab ab", "line\\with\\backslash", "[[gpu]]", "tab\there",
	};
	static const char *const res[] = {
		"abc", "^abc", "abc$", "^abc$", "^$", "a|b|", "(a|)b", "()", "a*", "a+b?c{0,2}",
		"code=35([^0-9]|$)", "^\\| *[0-9]+ +n/a +n/a +[0-9]+ +[cg+]+ +.* n/a *\\|$",
		"[[:digit:]]+", "[^a-c ]", "[]a]", "[^]a]", "(ab){2,3}", "x{0}y?", "a{2}", "a{2,}",
		"\\[\\[gpu\\]\\]", "[\\]", "(a|b)*c", "((a*)*)*b", ".", "^.*$", "(x|$)", "(^|x)a",
		"/dev/dxg[^ ]*:? (no such file or directory|not found)",
	};
	for (size_t i = 0; i < sizeof res / sizeof res[0]; i++)
		for (size_t j = 0; j < sizeof texts / sizeof texts[0]; j++)
			rx_agrees(res[i], texts[j]);
	/* What rx leaves to regexec. */
	static const char *const declined[] = { "\\bword", "a\\w", "*a", "(^a)+", "[A-Z]x",
						"[[:upper:]]", "a{300}", "ab)", "[[.ab.]]" };
	for (size_t i = 0; i < sizeof declined / sizeof declined[0]; i++) {
		struct rx x;
		if (rx_compile(&x, declined[i]) == 0)
			fail_msg("rx accepted /%s/", declined[i]);
		assert_int_equal(rx_search(&x, "a", 1), -1);
	}
	/* Every pattern of the built-in KB, on every corpus line and mutations of it. */
	const struct kb *kb = kb_builtin();
	FILE *f = fopen("tests/explain/cuda.log", "r");
	assert_non_null(f);
	char line[2048];
	unsigned seed = 1;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		for (int v = 0; v < 3; v++) {
			size_t n = strlen(line);
			if (v && n) {
				seed = seed * 1103515245u + 12345u;
				line[(seed >> 8) % n] = "aZ0 .-_/:()"[(seed >> 20) % 11];
			}
			for (size_t i = 0; i < kb->n; i++)
				for (size_t j = 0; j < kb->e[i].regex.n; j++)
					rx_agrees(kb->e[i].regex.v[j], line);
		}
	}
	fclose(f);
}

/* Random patterns of the ERE subset, against regexec. */
static void rx_gen(char *o, size_t cap, unsigned *seed, int depth)
{
	int n = 1 + (int)((*seed = *seed * 1103515245u + 12345u) >> 16) % 4;
	for (int i = 0; i < n && strlen(o) + 40 < cap; i++) {
		unsigned k = (*seed = *seed * 1103515245u + 12345u) >> 16;
		switch (k % 12) {
		case 0: strcat(o, "[a-c]"); break;
		case 1: strcat(o, "[^b ]"); break;
		case 2: strcat(o, k & 64 ? "^" : "$"); break;
		case 3:
			if (depth < 3) {
				strcat(o, "(");
				rx_gen(o, cap, seed, depth + 1);
				strcat(o, "|");
				rx_gen(o, cap, seed, depth + 1);
				strcat(o, ")");
			}
			break;
		case 4: strcat(o, "\\."); break;
		default: {
			char c[2] = { "abcAB x.-"[k % 9], '\0' };
			strcat(o, c);
		}
		}
		size_t l = strlen(o);
		unsigned q = (k >> 8) % 8;
		if (l && o[l - 1] != '^' && o[l - 1] != '$' && o[l - 1] != '(')
			strcat(o, q == 0 ? "*" : q == 1 ? "+" : q == 2 ? "?" : q == 3 ? "{1,2}" : "");
	}
}

static void test_rx_random(void **state)
{
	(void)state;
	unsigned seed = 42;
	for (int it = 0; it < 3000; it++) {
		char re[512] = "";
		rx_gen(re, sizeof re, &seed, 0);
		for (int j = 0; j < 12; j++) {
			char t[16];
			int len = (int)((seed = seed * 1103515245u + 12345u) >> 16) % 12;
			for (int i = 0; i < len; i++)
				t[i] = "abcABx 0.-"[((seed = seed * 1103515245u + 12345u) >> 16) % 10];
			t[len] = '\0';
			rx_agrees(re, t);
		}
	}
}

static void test_rx_pieces(void **state)
{
	(void)state;
	struct rx x;
	assert_int_equal(rx_compile(&x, "kernel headers for kernel [^ ]*microsoft[^ ]* cannot"), 0);
	/* Fed in pieces: the same answer as the whole. */
	int32_t st = RX_START;
	assert_int_equal(rx_feed(&x, &st, "Your kernel headers for kernel 5.15-microsoft", 45), 0);
	assert_false(rx_idle(&x, st)); /* a match is under way */
	assert_int_equal(rx_feed(&x, &st, " cannot be found", 16), 1);
	/* Nothing under way: idle, so the next piece matches only on its own. */
	st = RX_START;
	assert_int_equal(rx_feed(&x, &st, "all is well.", 12), 0);
	assert_true(rx_idle(&x, st));
	rx_free(&x);
	/* ^ holds at RX_START only, $ at the end only. */
	assert_int_equal(rx_compile(&x, "^killed$"), 0);
	st = RX_MID;
	assert_int_equal(rx_feed(&x, &st, "killed", 6), 0);
	assert_false(rx_at_end(&x, st));
	st = RX_START;
	assert_int_equal(rx_feed(&x, &st, "Killed", 6), 0);
	assert_true(rx_at_end(&x, st));
	rx_free(&x);
	/* A pattern that needs more DFA states than kept: -1, then regexec. */
	assert_int_equal(rx_compile(&x, "(a|b)*a(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)c"), 0);
	char t[4096];
	unsigned seed = 3;
	for (size_t i = 0; i < sizeof t; i++)
		t[i] = (seed = seed * 1103515245u + 12345u) >> 16 & 1 ? 'a' : 'b';
	assert_int_equal(rx_search(&x, t, sizeof t), -1);
	rx_free(&x);
	/* Deferred: compiled on first use. */
	rx_defer(&x, "no cuda-capable device");
	assert_null(x.nfa);
	assert_int_equal(rx_search(&x, "CUDA error: no CUDA-capable device is detected", 46), 1);
	rx_free(&x);
}

/* ---- literal sets: exact sets, a second requirement, edges ---- */

static void test_literal_exact(void **state)
{
	(void)state;
	struct litset ls;
	assert_int_equal(ere_literal_set("cuda_error_no_device|cudaErrorNoDevice", &ls), 0);
	assert_int_equal(ls.n, 2);
	assert_string_equal(ls.v[1], "cudaerrornodevice");
	litset_free(&ls);
	assert_int_equal(ere_literal_set("to the docker (daemon socket|api)", &ls), 0);
	assert_int_equal(ls.n, 2);
	assert_string_equal(ls.v[0], "to the docker daemon socket");
	litset_free(&ls);
	assert_int_equal(ere_literal_set("libnvidia-ml\\.so(\\.1)?: cannot open", &ls), 0);
	assert_int_equal(ls.n, 2);
	litset_free(&ls);
	/* Not just literals, too many, too short. */
	assert_int_equal(ere_literal_set("code=35([^0-9]|$)", &ls), -1);
	assert_int_equal(ere_literal_set("^killed", &ls), -1);
	assert_int_equal(ere_literal_set("ab|cdef", &ls), -1);
	assert_int_equal(ere_literal_set("(a|b|c|d|e)(f|g|h|i|j)(k|l|m|n|o)x", &ls), -1);

	struct litset a, b;
	unsigned edge;
	assert_int_equal(ere_required2("(copy|add) +[^ ]*(libcuda|libnvidia-ml)[^ ]*", &a, &b, &edge), 0);
	assert_int_equal(a.n, 2); /* libcuda, libnvidia-ml */
	assert_int_equal(b.n, 2); /* copy, add */
	assert_int_equal(edge, 0);
	litset_free(&a);
	litset_free(&b);
	assert_int_equal(ere_required2("nvcc fatal *:", &a, &b, &edge), 0);
	assert_true(edge & LIT_LEAD);
	litset_free(&a);
	litset_free(&b);
	assert_int_equal(ere_required2("[0-9]+ is not a symbolic link", &a, &b, &edge), 0);
	assert_int_equal(edge, LIT_TRAIL);
	assert_int_equal(b.n, 0);
	litset_free(&a);
	/* Top-level alternatives: no second set, no edge. */
	assert_int_equal(ere_required2("abcd [0-9] efgh|ijkl", &a, &b, &edge), 0);
	assert_int_equal(b.n, 0);
	assert_int_equal(edge, 0);
	litset_free(&a);
}

/* ---- error codes and pattern classes ---- */

static void test_codes(void **state)
{
	(void)state;
	size_t n;
	const struct err_code *t = codes_table(&n);
	int c = codes_lookup(CF_CUDA, "CUDA_ERROR_NO_DEVICE", 20);
	assert_true(c >= 0);
	assert_int_equal(t[c].value, 100);
	assert_int_equal(codes_lookup(CF_CUDA, "cudaErrorNoDevice", 17), c);
	assert_int_equal(codes_lookup(CF_CUDA, "100", 3), c);
	assert_int_equal(codes_lookup(CF_CUDA, "cudaerrornodevicex", 18), -1);
	assert_int_equal(t[codes_lookup(CF_CUDA, "35", 2)].value, 35); /* runtime only */
	/* Every row's names are packed (the readers stop at the first NULL):
	 * a runtime-only code's one name comes first. */
	for (size_t i = 0; i < n; i++) {
		assert_non_null(t[i].name[0]);
		for (int k = 1; k < CODE_NAMES; k++)
			assert_true(t[i].name[k] == NULL || t[i].name[k - 1] != NULL);
	}
	/* A runtime-only code is found by its runtime name, and its ERE
	 * holds that name. */
	int pitch = codes_lookup(CF_CUDA, "cudaErrorInvalidPitchValue", 26);
	assert_true(pitch >= 0);
	assert_int_equal(t[pitch].value, 12);
	struct strbuf pe = STRBUF_INIT;
	codes_ere(pitch, &pe);
	assert_non_null(strstr(pe.buf, "cudaerrorinvalidpitchvalue"));
	sb_release(&pe);
	int nv = codes_lookup(CF_NVML, "NVMLError_DriverNotLoaded", 25); /* pynvml's name */
	assert_true(nv >= 0);
	assert_int_equal(t[nv].value, 9);
	int hr = codes_lookup(CF_HRESULT, "0x80370102", 10);
	assert_true(hr >= 0);
	assert_string_equal(t[hr].name[0], "HCS_E_HYPERV_NOT_INSTALLED");
	assert_int_equal(codes_lookup(CF_HRESULT, "-2143878910", 11), hr);
	assert_int_equal(codes_family("nccl", 4), CF_NCCL);
	assert_int_equal(codes_family("rocm", 4), -1);
	/* The ERE of a code matches its names and its number, as whole words. */
	struct strbuf sb = STRBUF_INIT;
	codes_ere(c, &sb);
	rx_agrees(sb.buf, "code=100(cudaErrorNoDevice)");
	regex_t r;
	assert_int_equal(regcomp(&r, sb.buf, REG_EXTENDED | REG_ICASE | REG_NOSUB), 0);
	assert_int_equal(regexec(&r, "failed: cudaErrorNoDevice", 0, NULL, 0), 0);
	assert_int_equal(regexec(&r, "returned 100.", 0, NULL, 0), 0);
	assert_int_not_equal(regexec(&r, "returned 1000", 0, NULL, 0), 0);
	regfree(&r);
	sb_release(&sb);
}

static int got_codes[16], ngot;
static void collect(void *ctx, int code)
{
	(void)ctx;
	if (ngot < 16)
		got_codes[ngot++] = code;
}

static int numbers(const char *s, unsigned mask)
{
	ngot = 0;
	codes_numbers(s, strlen(s), mask, collect, NULL);
	return ngot == 1 ? got_codes[0] : ngot ? -2 : -1;
}

static void test_codes_numbers(void **state)
{
	(void)state;
	int c = codes_lookup(CF_CUDA, "100", 3);
	unsigned cuda = 1u << CF_CUDA, hres = 1u << CF_HRESULT;
	assert_int_equal(numbers("CUDA error 100", cuda), c);
	assert_int_equal(numbers("cudaGetDeviceCount returned 100", cuda), c);
	assert_int_equal(numbers("CUDA call failed: code=100", cuda), c);
	assert_int_equal(numbers("cuInit: error code: 100", cuda), c);
	assert_int_equal(numbers("status = 100 (cuda)", cuda), c);
	/* Not codes: a percentage, a decimal, a time, part of a word, no error word. */
	assert_int_equal(numbers("CUDA error 100%", cuda), -1);
	assert_int_equal(numbers("cuda error 100.5", cuda), -1);
	assert_int_equal(numbers("cuda error 10:05", cuda), -1);
	assert_int_equal(numbers("cuda errors100", cuda), -1);
	assert_int_equal(numbers("cuda 100 epochs", cuda), -1);
	/* The API named just before the error word owns the number: NCCL's 2
	 * is not CUDA's out of memory, whatever else the line names; an API
	 * with codes of its own (cuSOLVER, nvJPEG, NVENC) gives none here. */
	unsigned cn = cuda | 1u << CF_NCCL;
	int nccl2 = codes_lookup(CF_NCCL, "2", 1);
	assert_int_equal(numbers("cudaErrorLaunchFailure: nccl error 2", cn), nccl2);
	assert_int_equal(numbers("ncclAllReduce failed: error 2 (cuda)", cn), nccl2);
	assert_int_equal(numbers("cuda_solver.cc: cusolverDnCreate failed with error 7", cuda), -1);
	assert_int_equal(numbers("nvjpeg error 6 in cuda decode", cuda), -1);
	assert_int_equal(numbers("NvEncoder: nvEncOpenEncodeSessionEx failed with error 10 (cuda)", cuda), -1);
	assert_int_equal(numbers("cuMemAlloc_v2 returned 2 (nccl init)", cn), codes_lookup(CF_CUDA, "2", 1));
	assert_int_equal(numbers("TensorRT: CUDA error 2 in engine", cuda), codes_lookup(CF_CUDA, "2", 1));
	/* "CUDA" further back is a qualifier: NVENC's 2 (selkies' log) */
	assert_int_equal(numbers("NVENC_INIT_ERROR: nvEncOpenEncodeSessionEx (CUDA Path) FAILED: 2", cuda), -1);
	assert_int_equal(numbers("CUDA call failed: code=100", cuda), c);
	/* a library's small number after "returned"/"result" is a count or a
	 * value, after a word of failure a code; "3 of 10" is a count */
	unsigned nvml = 1u << CF_NVML, dnn = 1u << CF_CUDNN;
	assert_int_equal(numbers("INFO: nvmlDeviceGetCount returned 2", nvml), -1);
	assert_int_equal(numbers("torch.backends.cudnn.enabled returned 1", dnn), -1);
	assert_int_equal(numbers("NCCL INFO Using network Socket, returned 1 interfaces", 1u << CF_NCCL), -1);
	assert_int_equal(numbers("Test cudnn_test failed: 3 of 10", dnn), -1);
	assert_int_equal(numbers("nvmlInit returned error 9", nvml), codes_lookup(CF_NVML, "9", 1));
	assert_int_equal(numbers("ncclCommInitRank failed: 2", cn), nccl2);
	assert_int_equal(numbers("cudaGetDeviceCount returned 100", cuda), c);
	int hr = codes_lookup(CF_HRESULT, "0x80370102", 10);
	assert_int_equal(numbers("Error: 0x80370102 The virtual machine could not be started", hres), hr);
	assert_int_equal(numbers("Fehlercode: 0X80370102", hres), hr);
	assert_int_equal(numbers("HResult -2143878910", hres), hr);
	assert_int_equal(numbers("at 0x803701021", hres), -1);
	assert_int_equal(numbers("addr 0x7f370102", hres), -1);
}

static void test_pattern_parse(void **state)
{
	(void)state;
	struct mpat p;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(mpat_parse("  Driver/library   version mismatch ", &p, &err), 0);
	assert_int_equal(p.kind, MP_LITERAL);
	assert_string_equal(p.text, "driver/library version mismatch");
	mpat_free(&p);
	assert_int_equal(mpat_parse("a {{literal}} brace", &p, &err), 0);
	assert_int_equal(p.kind, MP_LITERAL);
	assert_string_equal(p.text, "a {literal}} brace");
	mpat_free(&p);
	assert_int_equal(mpat_parse("found version {n}. (x)", &p, &err), 0);
	assert_int_equal(p.kind, MP_ERE);
	assert_string_equal(p.text, "found version [0-9]+\\. \\(x\\)");
	mpat_free(&p);
	assert_int_equal(mpat_parse(" {cuda:cudaErrorNoDevice} ", &p, &err), 0);
	assert_int_equal(p.kind, MP_CODE);
	mpat_free(&p);
	assert_int_equal(mpat_parse("cuInit: {cuda:100}", &p, &err), 0);
	assert_int_equal(p.kind, MP_ERE);
	mpat_free(&p);
	assert_int_equal(mpat_parse("x {version} y", &p, &err), -1);
	assert_non_null(strstr(err.buf, "unknown class {version}"));
	sb_reset(&err);
	assert_int_equal(mpat_parse("{cuda:12345}", &p, &err), -1);
	assert_non_null(strstr(err.buf, "unknown error code"));
	sb_reset(&err);
	assert_int_equal(mpat_parse("open {", &p, &err), -1);
	sb_release(&err);
}

/* A matcher over kb text alone (entries of kind finding: their own cause). */
struct test_db {
	struct kb kb;
	struct explain_db db;
};

static void test_db_build(struct test_db *t, const char *text)
{
	struct strbuf err = STRBUF_INIT;
	if (kb_parse(text, strlen(text), &t->kb, &err) < 0)
		fail_msg("kb: %s", err.buf);
	const struct kb *kbs[] = { &t->kb };
	if (explain_db_build(&t->db, kbs, 1, &err) < 0)
		fail_msg("db: %s", err.buf);
	sb_release(&err);
}

static void test_db_free(struct test_db *t)
{
	explain_db_free(&t->db);
	kb_free(&t->kb);
}

static bool db_finds(const struct explain_db *db, const char *text, const char *id)
{
	struct explain_scan s;
	explain_scan_init(&s, db);
	explain_scan_feed(&s, text, strlen(text));
	explain_scan_finish(&s);
	bool hit = explain_scan_get(&s, id) != NULL;
	explain_scan_release(&s);
	return hit;
}

static const char test_kb[] =
	"[t.nodev]\nlayer: cuda\ntitle: t\nsource: https://example.invalid/\n"
	"match: {cuda:CUDA_ERROR_NO_DEVICE}\n"
	"[t.hcs]\nlayer: platform\ntitle: t\nsource: https://example.invalid/\n"
	"match: {hresult:HCS_E_HYPERV_NOT_INSTALLED}\n"
	"[t.nvml]\nlayer: nvml\ntitle: t\nsource: https://example.invalid/\n"
	"match: {nvml:9}\n"
	"[t.ver]\nlayer: frameworks\ntitle: t\nsource: https://example.invalid/\n"
	"match: the driver {ver} is older than {ver} needed by {path}\n"
	"[t.size]\nlayer: cuda\ntitle: t\nsource: https://example.invalid/\n"
	"match: tried to allocate {size} (gpu {n}; {size} total capacity\n"
	"[t.gpu]\nlayer: host\ntitle: t\nsource: https://example.invalid/\n"
	"match: device {n}: {gpu} is not supported\n"
	"[t.init]\nlayer: cuda\ntitle: t\nsource: https://example.invalid/\n"
	"match: failed call to cuInit: {cuda:100}\n"
	"[t.long]\nlayer: cuda\ntitle: t\nsource: https://example.invalid/\n"
	"match: the quick brown fox jumps over the lazy dog while the cuda driver refuses to "
	"start because nothing at all is where it should be\n";

/* A family reading gives way to a specific signature on the lines both
 * read, also where it names that signature in see: as one of its causes
 * (a refinement both ways dropped both, and the line read as nothing). */
static void test_family_gives_way_to_specific(void **state)
{
	(void)state;
	static const char spec[] = "[t.spec]\nlayer: cuda\ntitle: t\nsource: https://example.invalid/\n"
				   "match: libfoo.so.3: cannot open\n";
	static const char fam[] = "[t.fam]\nlayer: libs\ntitle: t\nsource: https://example.invalid/\n"
				  "family: libload\nregex: lib[a-z]+\\.so\\.[0-9]+: cannot open\n";
	for (int see = 0; see < 2; see++) {
		char text[512];
		snprintf(text, sizeof text, "%s%s%s", spec, fam, see ? "see: t.spec\n" : "");
		struct test_db t;
		test_db_build(&t, text);
		assert_true(db_finds(&t.db, "libfoo.so.3: cannot open shared object file", "t.spec"));
		assert_false(db_finds(&t.db, "libfoo.so.3: cannot open shared object file", "t.fam"));
		assert_true(db_finds(&t.db, "libbar.so.2: cannot open shared object file", "t.fam"));
		test_db_free(&t);
	}
}

static void test_match_classes_codes(void **state)
{
	(void)state;
	struct test_db t;
	test_db_build(&t, test_kb);
	const struct explain_db *db = &t.db;
	/* One signature, every spelling. */
	static const char *const nodev[] = {
		"CUDA_ERROR_NO_DEVICE", "cudaErrorNoDevice", "CUDA error 100", "cuda error: 100",
		"cudaGetDeviceCount returned 100", "CUDA init failed with code=100",
		"cuInit returned error 100", "RuntimeError: CUDA_ERROR_NO_DEVICE: no CUDA-capable",
	};
	for (size_t i = 0; i < sizeof nodev / sizeof nodev[0]; i++)
		if (!db_finds(db, nodev[i], "t.nodev"))
			fail_msg("\"%s\" does not reach {cuda:CUDA_ERROR_NO_DEVICE}", nodev[i]);
	/* A number needs an error word and a line that names CUDA; a name is a whole word. */
	assert_false(db_finds(db, "error 100", "t.nodev"));
	assert_false(db_finds(db, "HTTP error 100 continue", "t.nodev"));
	assert_false(db_finds(db, "CUDA_ERROR_NO_DEVICES", "t.nodev"));
	assert_false(db_finds(db, "cuda epoch 100 done", "t.nodev"));
	/* HRESULTs in any language, by number or name; NVML by pynvml's name. */
	assert_true(db_finds(db, "Fehler: 0x80370102 Der virtuelle Computer konnte nicht", "t.hcs"));
	assert_true(db_finds(db, "Error code: Wsl/Service/CreateInstance/CreateVm/HCS/"
				 "HCS_E_HYPERV_NOT_INSTALLED", "t.hcs"));
	assert_true(db_finds(db, "pynvml.NVMLError_DriverNotLoaded: Driver Not Loaded", "t.nvml"));
	assert_true(db_finds(db, "nvmlInit failed: error 9", "t.nvml"));
	/* Classes: versions, paths, sizes, GPU names vary; the signature does not. */
	assert_true(db_finds(db, "the driver 535.104.05 is older than 12.4 needed by "
				 "/usr/lib/x86_64-linux-gnu/libcudart.so.12", "t.ver"));
	assert_true(db_finds(db, "The driver 470.57.02 is older than 11.8 needed by C:\\x\\y.dll",
			     "t.ver"));
	assert_false(db_finds(db, "the driver is older than 12.4 needed by me", "t.ver"));
	assert_true(db_finds(db, "Tried to allocate 2.00 GiB (GPU 0; 11.76 GiB total capacity", "t.size"));
	assert_true(db_finds(db, "Tried to allocate 20 MiB (GPU 1; 24 GB total capacity", "t.size"));
	assert_true(db_finds(db, "Device 0: NVIDIA GeForce RTX 3060 Laptop GPU is not supported",
			     "t.gpu"));
	assert_true(db_finds(db, "failed call to cuInit: CUDA_ERROR_NO_DEVICE: no device", "t.init"));
	assert_true(db_finds(db, "failed call to cuInit: 100", "t.init"));
	assert_false(db_finds(db, "failed call to cuInit: 1000", "t.init"));
	test_db_free(&t);
}

static const struct explain_match *scan_get(struct explain_scan *s, const struct explain_db *db,
					     const char *text, const char *id)
{
	explain_scan_init(s, db);
	explain_scan_feed(s, text, strlen(text));
	explain_scan_finish(s);
	return explain_scan_get(s, id);
}

static void test_match_hard_wrap(void **state)
{
	(void)state;
	struct test_db t;
	test_db_build(&t, test_kb);
	const char *msg = "E0501 the quick brown fox jumps over the lazy dog while the cuda driver "
			  "refuses to start because nothing at all is where it should be. Bye.";
	/* Cut by a terminal every 40 columns, words broken: three lines and more. */
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < strlen(msg); i += 40) {
		sb_addn(&sb, msg + i, strlen(msg + i) < 40 ? strlen(msg + i) : 40);
		sb_addc(&sb, '\n');
	}
	struct explain_scan s;
	const struct explain_match *m = scan_get(&s, &t.db, sb.buf, "t.long");
	assert_non_null(m);
	assert_int_equal(m->first_line, 1);
	assert_int_equal(m->occ[0].lines, 4);
	assert_true(m->occ[0].wrapped);
	assert_int_equal(s.st.recognised, 4);
	explain_scan_release(&s);
	/* Wrapped at blanks by a mail client (no width): joined with a blank. */
	m = scan_get(&s, &t.db, "x\nthe quick brown fox jumps over the lazy dog while\n"
				"the cuda driver refuses to start because\n"
				"nothing at all is where it should be\n", "t.long");
	assert_non_null(m);
	assert_int_equal(m->first_line, 2);
	assert_int_equal(m->last_line, 4);
	explain_scan_release(&s);
	/* More lines than a window holds: not a match. */
	m = scan_get(&s, &t.db, "the quick brown fox\njumps over the lazy dog\nwhile the cuda driver\n"
				"refuses to start because\nnothing at all is\nwhere it should be\n",
		     "t.long");
	assert_null(m);
	explain_scan_release(&s);
	/* A regex wrapped over two lines, keys on both, with the builtin KB. */
	scan_text(&s, "ldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a\nsymbolic link\n");
	assert_true(found(&s, KB_EXPLAIN_SIG_LDCONFIG_SYMLINK));
	explain_scan_release(&s);
	sb_release(&sb);
	test_db_free(&t);
}

static void test_match_cut(void **state)
{
	(void)state;
	struct explain_scan s;
	/* The paste ends inside the message. */
	scan_text(&s, "log\nRuntimeError: CUDA driver initialization failed, you might not ha");
	const struct explain_match *m = explain_scan_get(&s, KB_EXPLAIN_SIG_TORCH_DRIVER_INIT_FAILED);
	assert_non_null(m);
	assert_true(m->occ[0].cut);
	assert_int_equal(m->first_line, 2);
	explain_scan_release(&s);
	/* ...or the tool that printed it cut it with an ellipsis. */
	scan_text(&s, "nvidia-container-cli: initialization error: WSL environment detected but no adap...\nnext\n");
	assert_true(found(&s, KB_EXPLAIN_SIG_NO_ADAPTERS));
	explain_scan_release(&s);
	/* Too little of the message: nothing. */
	scan_text(&s, "RuntimeError: CUDA driver");
	assert_int_equal(s.nfound, 0);
	explain_scan_release(&s);
	/* A message that goes on after a blank line is not cut. */
	scan_text(&s, "CUDA driver initialization failed, you\n\nwhatever\n");
	assert_false(found(&s, KB_EXPLAIN_SIG_TORCH_DRIVER_INIT_FAILED));
	explain_scan_release(&s);
}

static void test_match_cut_code(void **state)
{
	(void)state;
	struct explain_scan s;
	/* A status code's name cut at the end of the paste (CuPy's error, as
	 * https://github.com/cupy/cupy/issues/8152 was pasted) is read whole,
	 * by the signature that names it in a regex... */
	scan_text(&s, "  File \"cupy_backends/cuda/api/runtime.pyx\", line 146, in check_status\n"
		      "cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorNoDevic");
	const struct explain_match *m = explain_scan_get(&s, KB_EXPLAIN_SIG_CUDA_NO_DEVICE);
	assert_non_null(m);
	assert_true(m->occ[0].cut);
	explain_scan_release(&s);
	/* ...or by a code class, any library's */
	scan_text(&s, "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIA");
	assert_true(found(&s, KB_EXPLAIN_SIG_CUDNN_STATUS));
	explain_scan_release(&s);
	/* Too little of it, the start of two codes' names, or a cut line that
	 * goes on: nothing. */
	scan_text(&s, "error: cudaErrorNo");
	assert_int_equal(s.nfound, 0);
	explain_scan_release(&s);
	scan_text(&s, "error: CUDA_ERROR_INVALID_");
	assert_int_equal(s.nfound, 0);
	explain_scan_release(&s);
	scan_text(&s, "error: cudaErrorNoDevic\n\nnext\n");
	assert_int_equal(s.nfound, 0);
	explain_scan_release(&s);
}

static void test_unknown_lines(void **state)
{
	(void)state;
	struct explain_scan s;
	/* Made-up messages, so that no signature the KB gains covers them. */
	scan_text(&s, "epoch 1 done\n"
		      "FluxError: CUDA flux capacitor failed to warm up\n"
		      "Torch not compiled with CUDA enabled\n"
		      "step 2: the weather is fine, no error here\n"
		      "FluxError: CUDA flux capacitor failed to warm up\n"
		      "libcudnn_foo.so: cannot map segment: nonsense\n");
	assert_true(found(&s, KB_EXPLAIN_SIG_TORCH_NOT_COMPILED));
	/* Two GPU-looking lines, three occurrences; the known line and the
	 * lines without a GPU word are not among them. */
	assert_int_equal(s.st.unknown, 3);
	assert_int_equal(s.nunk, 2);
	assert_int_equal(s.unk[0].line, 2);
	assert_int_equal(s.unk[0].count, 2);
	assert_non_null(strstr(s.unk[1].text, "libcudnn_foo"));
	assert_int_equal(s.st.recognised, 1);
	explain_scan_release(&s);
	/* Text that is not about the GPU chain: nothing to show. */
	scan_text(&s, "error: could not open file foo.txt\nfailed to connect to the database\n");
	assert_int_equal(s.st.unknown, 0);
	explain_scan_release(&s);
	/* A line that belongs to a recognised wrapped message is not unknown. */
	scan_text(&s, "RuntimeError: CUDA driver initialization failed, you\n"
		      "    might not have a CUDA gpu.\n");
	assert_int_equal(s.st.unknown, 0);
	assert_int_equal(s.st.recognised, 2);
	explain_scan_release(&s);
	/* Bounded: distinct lines kept up to EXPLAIN_UNKNOWN_KEEP, all counted. */
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < 3 * EXPLAIN_UNKNOWN_KEEP; i++)
		sb_addf(&sb, "cuda failure number %d\n", i);
	scan_text(&s, sb.buf);
	assert_int_equal(s.nunk, EXPLAIN_UNKNOWN_KEEP);
	assert_int_equal(s.st.unknown, 3 * EXPLAIN_UNKNOWN_KEEP);
	explain_scan_release(&s);
	sb_release(&sb);
}

/* ---- explain_best: what the probes ask ---- */

static void test_best(void **state)
{
	(void)state;
	const struct explain_db *db = explain_db_builtin();
	/* KB order among the prefix's entries; other prefixes are not asked. */
	const char *t = "Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open "
			"shared object file: No such file or directory";
	const struct kb_entry *e = explain_best(db, "frameworks.", t, strlen(t));
	assert_non_null(e);
	assert_string_equal(e->id, KB_FRAMEWORKS_CUDNN_LIBCUDA);
	e = explain_best(db, "libs.", t, strlen(t));
	assert_non_null(e);
	assert_string_equal(e->id, KB_LIBS_LOADER_UNVERSIONED_MISSING);
	assert_null(explain_best(db, "containers.", t, strlen(t)));
	/* A signature that refines an entry does not hide it from its prefix. */
	t = "RuntimeError: Found no NVIDIA driver on your system.";
	e = explain_best(db, "frameworks.", t, strlen(t));
	assert_non_null(e);
	assert_string_equal(e->id, KB_FRAMEWORKS_TORCH_NO_DRIVER);
	/* Spread over lines, ANSI colour and NULs included. */
	const char multi[] = "\033[31mTraceback\033[0m\n\0\0junk\nnvidia-container-cli: initialization "
			     "error: WSL environment detected but no adapters were found: unknown\n";
	e = explain_best(db, "containers.", multi, sizeof multi - 1);
	assert_non_null(e);
	assert_string_equal(e->id, KB_CONTAINERS_NVCLI_NO_ADAPTERS);
	assert_null(explain_best(db, "frameworks.", "", 0));
	/* Specific before general: every literal of a probe entry, fed alone,
	 * is classified as that entry, so no earlier entry shadows it. */
	const char *const prefixes[] = { "frameworks.", "containers.", "containers.docker." };
	const struct kb *kb = kb_builtin();
	for (size_t p = 0; p < 3; p++)
		for (size_t i = 0; i < kb->n; i++) {
			const struct kb_entry *k = &kb->e[i];
			if (strncmp(k->id, prefixes[p], strlen(prefixes[p])))
				continue;
			for (size_t j = 0; j < k->match.n; j++) {
				e = explain_best(db, prefixes[p], k->match.v[j], strlen(k->match.v[j]));
				if (e != k)
					fail_msg("%s: \"%s\" is classified as %s", k->id, k->match.v[j],
						 e ? e->id : "nothing");
			}
		}
}

static void test_norm_fused(void **state)
{
	(void)state;
	char buf[512];
	struct norm_line nl;
	/* Blanks collapse in the same pass; the indent is the blanks as pasted. */
	const char *in = "[rank0]:      raise   RuntimeError(\"x\")   ";
	norm_line(in, strlen(in), buf, &nl);
	assert_string_equal(nl.text, "[rank0]: raise RuntimeError(\"x\")");
	assert_int_equal(nl.indent, 6);
	assert_int_equal(nl.cols, strlen(in));
	/* Columns count characters, not bytes, nor escape sequences. */
	in = "\033[31mcafé\033[0m";
	norm_line(in, strlen(in), buf, &nl);
	assert_int_equal(nl.cols, 4);
	/* Translated levels are prefixes too. */
	assert_string_equal(msg_of("Fehler: 0x80370102 Der virtuelle Computer", buf),
			    "0x80370102 Der virtuelle Computer");
	assert_string_equal(msg_of("ERREUR : impossible", buf), "impossible");
	/* Long runs of text are copied eight bytes at a time; the result is the same. */
	in = "abcdefgh ijklmnop  qrstuvwx\tyz012345 [rank]  !\"#$%&'()*+,-./:;<=>?@\\]^_`{|}~ end";
	norm_line(in, strlen(in), buf, &nl);
	assert_string_equal(nl.text, "abcdefgh ijklmnop qrstuvwx yz012345 [rank] "
				     "!\"#$%&'()*+,-./:;<=>?@\\]^_`{|}~ end");
}

/* ---- ranking ---- */

static void test_confirm_checks(void **state)
{
	(void)state;
	size_t n;
	const struct check_def *defs = registry_checks(&n);
	size_t idx[64];
	size_t k = confirm_checks("wslgpu check --only platform.kind,bridge.dxg", defs, n, idx, 64);
	assert_int_equal(k, 2);
	assert_string_equal(defs[idx[0]].id, "platform.kind");
	assert_string_equal(defs[idx[1]].id, "bridge.dxg");
	/* A layer names all its checks; duplicates are dropped. */
	k = confirm_checks("wslgpu check --windows --only platform,platform.kind", defs, n, idx, 64);
	size_t platform = 0;
	for (size_t i = 0; i < n; i++)
		platform += !strcmp(defs[i].layer, "platform");
	assert_int_equal(k, platform);
	assert_int_equal(confirm_checks("wslgpu check", defs, n, idx, 64), 0);
	assert_int_equal(confirm_checks(NULL, defs, n, idx, 64), 0);
	assert_int_equal(confirm_checks("wslgpu check --only nosuch.check", defs, n, idx, 64), 0);
}

static void test_rank(void **state)
{
	(void)state;
	static const struct check_def defs[] = {
		{ "platform.kind", "platform", "t", "s", { NULL }, NULL, 0 },
		{ "host.driver_store", "host", "t", "s", { NULL }, NULL, 0 },
		{ "libs.env", "libs", "t", "s", { NULL }, NULL, 0 },
		{ "cuda.init", "cuda", "t", "s", { NULL }, NULL, 0 },
	};
	struct kb_entry a = { .id = "x.no_adapter", .layer = "host", .kind = "finding",
			      .title = "A", .confirm = "wslgpu check --only host.driver_store" };
	struct kb_entry b = { .id = KB_PLATFORM_KIND_WSL1, .layer = "platform", .kind = "finding",
			      .title = "B", .confirm = "wslgpu check --only platform.kind" };
	struct kb_entry c = { .id = "x.env", .layer = "libs", .kind = "finding",
			      .title = "C", .confirm = "wslgpu check --only libs.env" };
	struct kb_entry d = { .id = "x.windows", .layer = "host", .kind = "finding", .title = "D" };
	/* cuda.init's finding names E as related (see:): its failure makes E
	 * likely; a failure with an unrelated entry would not (test_rank_other). */
	static const char *e_see[] = { "cuda.init.other" };
	struct kb_entry e = { .id = "x.cuda", .layer = "cuda", .kind = "finding",
			      .title = "E", .confirm = "wslgpu check --only cuda.init",
			      .see = { e_see, 1 } };
	const struct kb_entry *causes[] = { &a, &b, &c, &d, &e };
	struct explain_sig sig = { .e = &a, .kind = "finding", .cause = causes, .ncause = 5 };
	struct result res[4];
	for (int i = 0; i < 4; i++)
		result_init(&res[i], &defs[i]);
	res_set(&res[0], ST_FAIL, KB_PLATFORM_KIND_WSL1, "runs under WSL1");
	res[0].ran = true;
	res_set(&res[1], ST_SKIP, NULL, "skipped: platform.kind failed, fix that first");
	res[1].ran = true;
	res_set(&res[2], ST_PASS, NULL, "ok");
	res[2].ran = true;
	res_set(&res[3], ST_FAIL, "cuda.init.other", "cuInit failed");
	res[3].ran = true;
	struct cause_rank r[5];
	rank_causes(&sig, defs, res, 4, NULL, r);
	assert_ptr_equal(r[0].e, &b);
	assert_int_equal(r[0].v, V_CONFIRMED);
	assert_ptr_equal(r[0].by, &res[0]);
	assert_ptr_equal(r[1].e, &e);
	assert_int_equal(r[1].v, V_LIKELY);
	assert_ptr_equal(r[2].e, &a);
	assert_int_equal(r[2].v, V_OPEN);
	assert_int_equal(r[2].why, R_SKIPPED);
	assert_ptr_equal(r[3].e, &d);
	assert_int_equal(r[3].why, R_NO_CHECK);
	assert_ptr_equal(r[4].e, &c);
	assert_int_equal(r[4].v, V_RULED_OUT);
	struct strbuf sb = STRBUF_INIT;
	cause_evidence(&r[0], &sb);
	assert_string_equal(sb.buf, "platform.kind: runs under WSL1");
	sb_reset(&sb);
	cause_evidence(&r[2], &sb);
	assert_string_equal(sb.buf, "host.driver_store was skipped: platform.kind failed, fix that first");
	sb_reset(&sb);
	cause_evidence(&r[4], &sb);
	assert_string_equal(sb.buf, "libs.env passes on this machine");
	sb_release(&sb);
	assert_string_equal(verdict_name(V_RULED_OUT), "ruled_out");
	/* Without --check the KB order stays. */
	rank_causes(&sig, defs, NULL, 4, NULL, r);
	for (int i = 0; i < 5; i++) {
		assert_ptr_equal(r[i].e, causes[i]);
		assert_int_equal(r[i].v, V_UNCHECKED);
	}
	for (int i = 0; i < 4; i++)
		result_release(&res[i]);
}

/* A check that failed for another reason (its KB entry neither the cause
 * nor related to it) does not make the cause likely: libs.env failing for
 * LD_LIBRARY_PATH says nothing of CUDA_VISIBLE_DEVICES (issue 29). */
static void test_rank_other(void **state)
{
	(void)state;
	static const struct check_def defs[] = {
		{ "libs.env", "libs", "t", "s", { NULL }, NULL, 0 },
	};
	struct kb_entry cvd = { .id = "x.cvd_hides", .layer = "libs", .kind = "finding",
				.title = "CVD", .confirm = "wslgpu check --only libs.env" };
	const struct kb_entry *causes[] = { &cvd };
	struct explain_sig sig = { .e = &cvd, .kind = "finding", .cause = causes, .ncause = 1 };
	struct result res[1];
	result_init(&res[0], &defs[0]);
	res_set(&res[0], ST_FAIL, "libs.env.llp_shadows", "LD_LIBRARY_PATH shadows WSL's libcuda");
	res[0].ran = true;
	struct cause_rank r[1];
	rank_causes(&sig, defs, res, 1, NULL, r);
	assert_int_equal(r[0].v, V_OPEN);
	assert_int_equal(r[0].why, R_OTHER);
	result_release(&res[0]);
}

/* This machine's platform.kind result as the only word on the platform. */
static struct rank_platform machine_pf(const struct result *res)
{
	struct rank_platform pf;
	rank_platform_pick(&pf, NULL, NULL, NULL, res);
	return pf;
}

/* A cause for another platform goes last, with and without --check, and a
 * myth that holds only on WSL is no myth on native Linux. */
/* In a container whose platform only this machine says (a prior), a cause
 * bound to native Linux is its host's (the kernel module the container's
 * GPU comes from): bound, not ruled out. The text or --platform saying
 * "container" keeps it out, and a WSL cause stays out either way. */
static void test_rank_host_cause(void **state)
{
	(void)state;
	static const struct check_def defs[] = {
		{ "platform.kind", "platform", "t", "s", { NULL }, NULL, 0 },
	};
	struct kb_entry host = { .id = "x.host_module", .layer = "bridge", .kind = "finding",
				 .title = "H", .platform = "native" };
	struct kb_entry wsl = { .id = "x.wsl", .layer = "libs", .kind = "finding", .title = "W",
				.platform = "wsl" };
	const struct kb_entry *causes[] = { &wsl, &host };
	struct kb_entry sig_e = { .id = "x.sig", .layer = "nvml", .kind = "signature", .title = "S" };
	struct explain_sig sig = { .e = &sig_e, .kind = "finding", .cause = causes, .ncause = 2 };
	struct result res;
	result_init(&res, &defs[0]);
	res_ev(&res, "kind", "container");
	res_set(&res, ST_PASS, NULL, "a container on native Linux");
	res.ran = true;
	struct cause_rank r[2];
	struct rank_platform pf = machine_pf(&res);
	rank_causes(&sig, defs, NULL, 1, &pf, r);
	assert_ptr_equal(r[0].e, &host);
	assert_int_equal(r[0].v, V_BOUND);
	assert_ptr_equal(r[1].e, &wsl);
	assert_int_equal(r[1].v, V_NOT_HERE);
	struct rank_platform ptext;
	rank_platform_pick(&ptext, "container", NULL, NULL, &res);
	rank_causes(&sig, defs, NULL, 1, &ptext, r);
	assert_int_equal(r[0].v, V_NOT_HERE);
	assert_int_equal(r[1].v, V_NOT_HERE);
	result_release(&res);
}

static void test_rank_platform(void **state)
{
	(void)state;
	static const struct check_def defs[] = {
		{ "platform.kind", "platform", "t", "s", { NULL }, NULL, 0 },
		{ "bridge.dxg", "bridge", "t", "s", { NULL }, NULL, 0 },
		{ "host.driver_store", "host", "t", "s", { NULL }, NULL, 0 },
	};
	struct kb_entry myth = { .id = "x.myth", .layer = "bridge", .kind = "myth", .title = "M",
				 .platform = "wsl", .confirm = "wslgpu check --only bridge.dxg" };
	struct kb_entry build = { .id = "x.windows_build", .layer = "bridge", .kind = "finding",
				  .title = "W", .platform = "wsl",
				  .confirm = "wslgpu check --only host.driver_store" };
	struct kb_entry ctr = { .id = "x.container", .layer = "bridge", .kind = "finding",
				.title = "C", .platform = "container" };
	struct kb_entry any = { .id = "x.any", .layer = "bridge", .kind = "finding", .title = "A" };
	const struct kb_entry *causes[] = { &myth, &build, &ctr, &any };
	struct explain_sig sig = { .e = &myth, .kind = "myth", .cause = causes, .ncause = 4 };
	struct result res[3];
	for (int i = 0; i < 3; i++)
		result_init(&res[i], &defs[i]);
	res_ev(&res[0], "kind", "container");
	res_set(&res[0], ST_PASS, NULL, "a container on native Linux");
	res[0].ran = true;
	res_set(&res[1], ST_SKIP, NULL, "skipped: not WSL");
	res[1].ran = true;
	res_set(&res[2], ST_FAIL, KB_HOST_DRIVER_STORE_NO_KERNEL_DRIVER, "no driver");
	res[2].ran = true;
	struct cause_rank r[4];
	/* Without --check, this machine's platform only (a prior): a cause
	 * for another platform goes last, and one bound to this platform
	 * after the one that holds everywhere. */
	struct rank_platform pf = machine_pf(&res[0]);
	rank_causes(&sig, defs, NULL, 3, &pf, r);
	assert_ptr_equal(r[0].e, &any);
	assert_int_equal(r[0].v, V_UNCHECKED);
	assert_ptr_equal(r[1].e, &ctr);
	assert_int_equal(r[1].v, V_BOUND);
	assert_string_equal(verdict_name(V_BOUND), "platform_bound");
	assert_ptr_equal(r[2].e, &myth);
	assert_int_equal(r[2].v, V_NOT_HERE);
	assert_ptr_equal(r[3].e, &build);
	assert_int_equal(r[3].v, V_NOT_HERE);
	assert_string_equal(explain_effective_kind(&sig, r), "finding");
	struct strbuf sb = STRBUF_INIT;
	cause_evidence(&r[2], &sb);
	assert_string_equal(sb.buf, "applies only on WSL; platform.kind: a container on native Linux");
	sb_release(&sb);
	assert_string_equal(verdict_name(V_NOT_HERE), "not_applicable");
	/* The text shows a container: the container's cause leads. */
	struct rank_platform ptext;
	rank_platform_pick(&ptext, NULL, "container", "nvidia-container-cli", &res[0]);
	assert_true(ptext.established);
	rank_causes(&sig, defs, NULL, 3, &ptext, r);
	assert_ptr_equal(r[0].e, &ctr);
	assert_int_equal(r[0].v, V_UNCHECKED);
	assert_ptr_equal(r[1].e, &any);
	assert_ptr_equal(r[2].e, &myth);
	assert_int_equal(r[2].v, V_NOT_HERE);
	assert_int_equal(r[2].why, R_TEXT);
	/* A native kernel's lines pasted on this container: the text wins (the
	 * host's log or another machine's), not this machine's kind. */
	struct rank_platform pnative;
	rank_platform_pick(&pnative, NULL, "native", "nvrm:", &res[0]);
	assert_string_equal(pnative.kind, "native");
	assert_string_equal(pnative.from, "text");
	assert_true(pnative.established);
	/* With --check: the Windows-build cause's check fails here, yet it is
	 * not "likely": it cannot apply off WSL. */
	rank_causes(&sig, defs, res, 3, &pf, r);
	assert_ptr_equal(r[3].e, &build);
	assert_int_equal(r[3].v, V_NOT_HERE);
	/* On WSL (the text or --platform says so) the myth stays first and
	 * the signature a myth; --platform wins over the text. */
	struct rank_platform pwsl;
	rank_platform_pick(&pwsl, "wsl2", "native", "nvrm:", &res[0]);
	assert_string_equal(pwsl.from, "option");
	/* --platform container on a text that shows WSL (Docker Desktop's
	 * "WSL environment detected"): the container in WSL2, from the
	 * option; a native text does not refine it, nor WSL a stated wsl2. */
	struct rank_platform pcw;
	rank_platform_pick(&pcw, "container", "container-in-wsl2", "wsl environment detected", NULL);
	assert_string_equal(pcw.kind, "container-in-wsl2");
	assert_string_equal(pcw.from, "option");
	assert_true(pcw.established);
	rank_platform_pick(&pcw, "container", "wsl2", "/usr/lib/wsl", NULL);
	assert_string_equal(pcw.kind, "container-in-wsl2");
	rank_platform_pick(&pcw, "container", "native", "nvrm:", NULL);
	assert_string_equal(pcw.kind, "container");
	rank_platform_pick(&pcw, "wsl2", "container-in-wsl2", "nvidia-container-cli", NULL);
	assert_string_equal(pcw.kind, "wsl2");
	rank_causes(&sig, defs, NULL, 3, &pwsl, r);
	assert_ptr_equal(r[0].e, &myth);
	assert_ptr_equal(r[3].e, &ctr);
	assert_int_equal(r[3].v, V_NOT_HERE);
	assert_string_equal(explain_effective_kind(&sig, r), "myth");
	/* On a WSL machine with a log that does not say where it ran, the
	 * cause that holds everywhere comes first; the signature is still a
	 * myth there. */
	result_release(&res[0]);
	result_init(&res[0], &defs[0]);
	res_ev(&res[0], "kind", "wsl2");
	res_set(&res[0], ST_PASS, NULL, "WSL2");
	res[0].ran = true;
	pf = machine_pf(&res[0]);
	rank_causes(&sig, defs, NULL, 3, &pf, r);
	assert_ptr_equal(r[0].e, &any);
	assert_ptr_equal(r[1].e, &myth);
	assert_int_equal(r[1].v, V_BOUND);
	assert_ptr_equal(r[3].e, &ctr);
	assert_int_equal(r[3].v, V_NOT_HERE);
	assert_string_equal(explain_effective_kind(&sig, r), "myth");
	/* Platform unknown: what holds everywhere first, the bound ones after. */
	rank_causes(&sig, defs, NULL, 3, NULL, r);
	assert_ptr_equal(r[0].e, &any);
	for (int i = 1; i < 4; i++) {
		assert_ptr_equal(r[i].e, causes[i - 1]);
		assert_int_equal(r[i].v, V_BOUND);
	}
	assert_false(kb_applies(&myth, "windows"));
	assert_false(kb_applies(&ctr, "windows"));
	for (int i = 0; i < 3; i++)
		result_release(&res[i]);
	assert_true(kb_applies(&ctr, "container"));
	assert_false(kb_applies(&ctr, "container-in-wsl2"));
	assert_true(kb_applies(&myth, "container-in-wsl2"));
	assert_false(kb_applies(&myth, "native"));
	assert_true(kb_applies(&myth, "unknown"));
	assert_true(kb_platform_valid("wsl not-wsl native"));
	/* a program run on Windows itself (its DLLs, PowerShell) */
	assert_true(kb_platform_valid("windows"));
	assert_false(kb_platform_valid("wsl windoze"));
	struct kb kb;
	struct strbuf err = STRBUF_INIT;
	const char bad[] = "[x.y]\nlayer: bridge\ntitle: t\nplatform: linux\n";
	assert_int_equal(kb_parse(bad, sizeof bad - 1, &kb, &err), -1);
	assert_non_null(strstr(err.buf, "platform"));
	sb_release(&err);
}


/* A log that shows Windows (C:\ paths, DLLs): the cause written for Windows
 * leads, a general cause whose every step is a Linux command goes after
 * one with a step Windows can run and shows no Linux line, a WSL cause
 * stays (a Windows user may run the program in WSL), says why, and its
 * lines say "in WSL:"; a Linux-only cause is not here. */
static void test_rank_windows(void **state)
{
	(void)state;
	const char *linux_fix[] = { "sudo ldconfig", "dpkg -S /usr/lib/x86_64-linux-gnu/libcuda.so.1" };
	const char *any_fix[] = { "wsl.exe --shutdown   (in PowerShell)", "nvidia-smi   (does the driver answer?)",
				  "sudo ldconfig" };
	const char *win_fix[] = { "where.exe cublas64_12.dll   (in PowerShell)" };
	const char *wsl_fix[] = { "ls -l /usr/lib/wsl/lib   (the Windows driver's libraries)" };
	struct kb_entry lin = { .id = "x.linux_steps", .layer = "libs", .kind = "finding", .title = "L",
				.fix = { linux_fix, 2 } };
	struct kb_entry any = { .id = "x.any_steps", .layer = "libs", .kind = "finding", .title = "A",
				.fix = { any_fix, 3 } };
	struct kb_entry win = { .id = "x.windows", .layer = "libs", .kind = "finding", .title = "W",
				.platform = "windows", .fix = { win_fix, 1 } };
	struct kb_entry wsl = { .id = "x.wsl", .layer = "bridge", .kind = "finding", .title = "S",
				.platform = "wsl", .fix = { wsl_fix, 1 } };
	struct kb_entry nat = { .id = "x.native", .layer = "host", .kind = "finding", .title = "N",
				.platform = "native" };
	const struct kb_entry *causes[] = { &lin, &wsl, &any, &nat, &win };
	struct explain_sig sig = { .e = &lin, .kind = "finding", .cause = causes, .ncause = 5 };
	struct rank_platform pf;
	rank_platform_pick(&pf, NULL, "windows", "c:\\", NULL);
	struct cause_rank r[5];
	rank_causes(&sig, NULL, NULL, 0, &pf, r);
	const struct kb_entry *want[] = { &win, &any, &lin, &wsl, &nat };
	for (int i = 0; i < 5; i++)
		assert_ptr_equal(r[i].e, want[i]);
	assert_true(r[2].linux_fixes);
	assert_false(r[1].linux_fixes);
	assert_int_equal(r[3].v, V_BOUND);
	assert_int_equal(r[4].v, V_NOT_HERE);
	struct strbuf sb = STRBUF_INIT;
	cause_evidence(&r[3], &sb);
	assert_string_equal(sb.buf, "applies only on WSL; the log is from Windows (its text shows \"c:\\\"): "
				    "it holds only where the program runs in WSL on that machine");
	sb_release(&sb);
	/* the fix lines as shown: no Linux command leads */
	struct finding_view fv;
	finding_expand(&fv, &lin, NULL, NULL);
	order_fixes(&fv, &r[2], &pf);
	assert_int_equal(fv.nfix, 0);
	finding_view_release(&fv);
	finding_expand(&fv, &any, NULL, NULL);
	order_fixes(&fv, &r[1], &pf);
	assert_int_equal(fv.nfix, 2);
	assert_string_equal(fv.fix[0], "nvidia-smi   (does the driver answer?)");
	assert_string_equal(fv.fix[1], "wsl.exe --shutdown   (in PowerShell)");
	finding_view_release(&fv);
	finding_expand(&fv, &wsl, NULL, NULL);
	order_fixes(&fv, &r[3], &pf);
	assert_int_equal(fv.nfix, 1);
	assert_string_equal(fv.fix[0], "in WSL: ls -l /usr/lib/wsl/lib   (the Windows driver's libraries)");
	finding_view_release(&fv);
	/* elsewhere the Windows cause is not here, the Linux one keeps its
	 * place and its steps */
	struct rank_platform pn;
	rank_platform_pick(&pn, NULL, "native", "nvrm:", NULL);
	rank_causes(&sig, NULL, NULL, 0, &pn, r);
	assert_ptr_equal(r[0].e, &nat);
	assert_ptr_equal(r[1].e, &lin);
	assert_false(r[1].linux_fixes);
	assert_int_equal(r[4].v, V_NOT_HERE);
	assert_true(kb_applies(&win, "windows"));
	assert_false(kb_applies(&win, "wsl2"));
	assert_false(kb_applies(&win, "native"));
	/* which lines only a Linux shell runs */
	assert_true(fix_is_linux_only("sudo apt-get install nvidia-cuda-toolkit"));
	assert_true(fix_is_linux_only("python -m pip list 2>/dev/null | grep -i nvidia"));
	assert_true(fix_is_linux_only("venv/bin/python -c \"import torch\""));
	assert_true(fix_is_linux_only("export LD_LIBRARY_PATH=/opt/lib"));
	assert_false(fix_is_linux_only("nvidia-smi"));
	assert_false(fix_is_linux_only("python -m pip install nvidia-cublas-cu12"));
	assert_false(fix_is_linux_only("where.exe cudnn64_8.dll   (in PowerShell)"));
	assert_false(fix_is_linux_only("update the NVIDIA driver, then adapt the batch size"));
	assert_false(fix_is_linux_only("in WSL: sudo ldconfig"));
	/* a word inside another is none: "apt " in "adapt ", "ls -" in "tools -U" */
	assert_false(fix_is_linux_only("python -m pip install tools -U"));
	/* a message any program prints, every cause WSL's or native's: on a
	 * Windows log none leads, each is not the log's; a message WSL's
	 * side prints (platform: wsl windows) keeps its WSL reading, bound */
	const struct kb_entry *wsl_only[] = { &wsl, &nat };
	struct explain_sig any_prog = { .e = &lin, .kind = "finding", .cause = wsl_only, .ncause = 2 };
	rank_causes(&any_prog, NULL, NULL, 0, &pf, r);
	assert_int_equal(r[0].v, V_NOT_HERE);
	assert_int_equal(r[1].v, V_NOT_HERE);
	struct kb_entry wsl_msg = { .id = "x.wsl_msg", .layer = "platform", .kind = "signature",
				    .title = "M", .platform = "wsl windows" };
	struct explain_sig wsl_side = { .e = &wsl_msg, .kind = "finding", .cause = wsl_only, .ncause = 2 };
	rank_causes(&wsl_side, NULL, NULL, 0, &pf, r);
	assert_ptr_equal(r[0].e, &wsl);
	assert_int_equal(r[0].v, V_BOUND);
}

/* Every signature's causes, ranked for a log from each platform (the
 * text shows it) and for one that shows none: no cause bound to WSL
 * comes before one that holds everywhere, a log from another platform
 * gets no WSL-only fix line from a general cause, a Windows log no Linux
 * command but a WSL cause's (which says "in WSL:"), and no cause leads
 * with a destructive fix on a guess. */
/*
 * A message that can be printed on any platform (its signature has no
 * platform: line) needs a cause that holds on each: on native Linux and
 * in a container, a signature whose every cause is WSL's shows only
 * "[not on the log's platform]" and leaves the user with nothing to do.
 * A myth is exempt: what it warns against is the right step elsewhere.
 * general_pending lists the signatures not yet given one, with the
 * platforms they lack; the list may only shrink.
 */
static const char *const general_pending[] = {
	NULL,
};

static bool general_is_pending(const char *id, const char *kind)
{
	char want[256];
	snprintf(want, sizeof want, "%s %s", id, kind);
	for (size_t i = 0; general_pending[i]; i++)
		if (!strcmp(general_pending[i], want))
			return true;
	return false;
}

static void test_general_message_has_a_cause_everywhere(void **state)
{
	(void)state;
	const struct explain_db *db = explain_db_builtin();
	const char *kinds[] = { "native", "container", "wsl2" };
	struct strbuf errs = STRBUF_INIT, seen = STRBUF_INIT;
	size_t checked = 0;
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		struct rank_platform pf;
		rank_platform_pick(&pf, NULL, kinds[k], "marker", NULL);
		for (size_t i = 0; i < db->n; i++) {
			const struct explain_sig *sig = &db->sig[i];
			if (!sig->ncause || (sig->e->platform && !kb_applies(sig->e, kinds[k])))
				continue;
			struct cause_rank r[64];
			size_t nc = sig->ncause < 64 ? sig->ncause : 64;
			rank_causes(sig, NULL, NULL, 0, &pf, r);
			bool here = false, myth = false;
			for (size_t j = 0; j < nc; j++) {
				here = here || r[j].v != V_NOT_HERE;
				myth = myth || (r[j].e->kind && !strcmp(r[j].e->kind, "myth"));
			}
			checked++;
			if (here || myth)
				continue;
			bool pending = general_is_pending(sig->e->id, kinds[k]);
			sb_addf(pending ? &seen : &errs, "%s %s\n", sig->e->id, kinds[k]);
		}
	}
	if (seen.len)
		fprintf(stderr, "# pending (no cause for that platform yet):\n%s", seen.buf);
	for (size_t i = 0; general_pending[i]; i++) {
		char line[300];
		snprintf(line, sizeof line, "%s\n", general_pending[i]);
		if (!strstr(seen.buf ? seen.buf : "", line))
			sb_addf(&errs, "%s has a cause there now: remove it from general_pending\n",
				general_pending[i]);
	}
	if (errs.len) {
		fputs(errs.buf, stderr);
		fail_msg("general messages without a cause on a platform (above)");
	}
	sb_release(&errs);
	sb_release(&seen);
	assert_true(checked > 600);
}

static void test_rank_every_platform(void **state)
{
	(void)state;
	const struct explain_db *db = explain_db_builtin();
	const char *kinds[] = { "native", "container", "windows", "wsl2", NULL };
	size_t checked = 0;
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		struct rank_platform pf;
		rank_platform_pick(&pf, NULL, kinds[k], "marker", NULL);
		bool wsl = kinds[k] && !strcmp(kinds[k], "wsl2");
		bool windows = kinds[k] && !strcmp(kinds[k], "windows");
		for (size_t i = 0; i < db->n; i++) {
			const struct explain_sig *sig = &db->sig[i];
			struct cause_rank r[64];
			size_t nc = sig->ncause < 64 ? sig->ncause : 64;
			rank_causes(sig, NULL, NULL, 0, kinds[k] ? &pf : NULL, r);
			bool general_seen = false, bound_seen = false;
			for (size_t j = 0; j < nc; j++) {
				if (r[j].v == V_NOT_HERE)
					continue;
				const struct kb_entry *e = r[j].e;
				bool wsl_bound = e->platform && kb_applies(e, "wsl2") &&
						 !kb_applies(e, "native") && !kb_applies(e, "container");
				/* on a Windows log a cause of Linux holds in WSL only:
				 * its Linux lines say "in WSL:" */
				bool in_wsl = e->platform && kb_applies(e, "wsl2") &&
					      !kb_applies(e, "windows");
				if (windows && j > 0 && r[j - 1].v == r[j].v && r[j - 1].linux_fixes &&
				    !r[j].linux_fixes)
					fail_msg("%s on windows: %s, all of whose steps are Linux "
						 "commands, before %s", sig->e->id, r[j - 1].e->id, e->id);
				if (!wsl && wsl_bound)
					bound_seen = true;
				if (!e->platform) {
					if (bound_seen)
						fail_msg("%s on %s: WSL-bound cause before %s", sig->e->id,
							 kinds[k] ? kinds[k] : "unknown", e->id);
					general_seen = true;
				}
				struct finding_view fv;
				finding_expand(&fv, e, NULL, NULL);
				order_fixes(&fv, &r[j], kinds[k] ? &pf : NULL);
				if (fv.nfix && fix_is_destructive(fv.fix[0]))
					fail_msg("%s on %s: %s leads with a destructive fix: %s", sig->e->id,
						 kinds[k] ? kinds[k] : "unknown", e->id, fv.fix[0]);
				/* a general cause's line about WSL is never first
				 * on a Windows log while a line for Windows itself
				 * is there */
				if (windows && !in_wsl && fv.nfix &&
				    fix_names_wsl(fv.fix[0]) && !fix_names_wsl(fv.fix[fv.nfix - 1]))
					fail_msg("%s on windows: %s leads with a WSL line: %s", sig->e->id,
						 e->id, fv.fix[0]);
				for (size_t f = 0; windows && f < fv.nfix; f++)
					if (fix_is_linux_only(fv.fix[f]) ||
					    (!in_wsl && !strncmp(fv.fix[f], "in WSL:", 7)))
						fail_msg("%s on windows: %s shows a Linux command: %s",
							 sig->e->id, e->id, fv.fix[f]);
				if (kinds[k] && !wsl && !wsl_bound && !windows)
					for (size_t f = 0; f < fv.nfix; f++)
						if (fix_is_wsl_only(fv.fix[f]))
							fail_msg("%s on %s: %s shows a WSL-only fix: %s",
								 sig->e->id, kinds[k], e->id, fv.fix[f]);
				finding_view_release(&fv);
				checked++;
			}
			(void)general_seen;
		}
	}
	assert_true(checked > 500);
}

/*
 * No cause leads with a step that changes the system (fix_changes_system:
 * installs, removals, configuration, restarts) on a guess. A cause is a
 * guess unless the messages that lead to it name it -- its KB entry's
 * established: says what establishes it, and its first step is then its
 * documented remedy. Any other cause first shows a step that only looks
 * and tells its readings apart, the change after it (order_fixes). Ranked
 * for every platform as test_rank_every_platform does, unconfirmed.
 */

/*
 * Judged guesses not yet mended: a general message, several readings, a
 * system-changing first step. Shown, not failed, until each gets a
 * read-only first step; an entry not here or established that leads with
 * a change fails.
 */
static const char *const guess_pending[] = {
	NULL,
};

static bool guess_is_pending(const char *id)
{
	for (size_t i = 0; guess_pending[i]; i++)
		if (!strcmp(guess_pending[i], id))
			return true;
	return false;
}

static void test_no_system_change_on_a_guess(void **state)
{
	(void)state;
	/* the definition, by its words */
	assert_true(fix_changes_system("sudo apt-get install nvidia-container-toolkit"));
	assert_true(fix_changes_system("python -m pip install --force-reinstall bitsandbytes"));
	assert_true(fix_changes_system("sudo systemctl restart docker"));
	assert_true(fix_changes_system("wsl.exe --shutdown   (in PowerShell)"));
	assert_true(fix_changes_system("sudo nvidia-ctk runtime configure --runtime=docker"));
	assert_true(fix_changes_system("reinstall the current NVIDIA driver for your GPU"));
	assert_true(fix_changes_system("sudo apt-get remove --purge nvidia-utils-535"));
	assert_false(fix_changes_system("nvidia-smi"));
	assert_false(fix_changes_system("ldconfig -p | grep libcuda.so.1"));
	assert_false(fix_changes_system("wsl.exe --version   (in PowerShell)"));
	assert_false(fix_changes_system("export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:False"));
	assert_false(fix_changes_system("docker info --format '{{.Runtimes}}'"));
	/* a remark's words are no step: "(pip install X fixes it)" */
	assert_false(fix_changes_system("pip list | grep -i nccl   (pip install nvidia-nccl-cu12 updates it)"));
	/* what may lead instead: a command that only looks, at the machine as
	 * it is (not the check after a change), a template of one too */
	assert_true(fix_only_looks("nvidia-smi"));
	assert_true(fix_only_looks("docker context ls   (which daemon the client talks to)"));
	assert_true(fix_only_looks("ldd PROGRAM | grep -i cuda   (a template: put in PROGRAM, the program)"));
	assert_true(fix_only_looks("in WSL: ls -l /usr/lib/wsl/lib"));
	assert_false(fix_only_looks("free -h   (after the restart: total and swap show the new limits)"));
	assert_false(fix_only_looks("wsl.exe -l -v   (in PowerShell, afterwards: VERSION 2)"));
	assert_false(fix_only_looks("export CUDA_HOME=/usr/local/cuda"));
	assert_false(fix_only_looks("update the NVIDIA driver"));
	assert_false(fix_only_looks("sudo apt-get install -y nvidia-container-toolkit"));
	/* Windows' looks: where.exe, the event log's queries, pnputil's and
	 * PowerShell's listings of devices; their forms that change the
	 * system (a driver deleted, a device disabled, a log cleared) do not */
	assert_true(fix_only_looks("where.exe nvidia-smi   (in PowerShell)"));
	assert_true(fix_only_looks("wevtutil.exe qe System /q:\"*[System[Provider[@Name='nvlddmkm']]]\" /c:5 /rd:true /f:text   (in PowerShell)"));
	assert_true(fix_only_looks("wevtutil qe System /c:20 /rd:true /f:text   (in cmd)"));
	assert_true(fix_only_looks("pnputil /enum-devices /class Display   (in PowerShell)"));
	assert_true(fix_only_looks("pnputil.exe /enum-drivers   (in PowerShell)"));
	assert_true(fix_only_looks("Get-PnpDevice -Class Display   (in PowerShell: Status OK, Error or Unknown)"));
	assert_true(fix_only_looks("Get-WinEvent -ProviderName nvlddmkm -MaxEvents 5   (in PowerShell)"));
	assert_true(fix_only_looks("Get-CimInstance Win32_VideoController | Select-Object Name,Status   (in PowerShell)"));
	assert_false(fix_only_looks("pnputil /delete-driver oem42.inf /uninstall /force   (in an administrator PowerShell)"));
	assert_false(fix_only_looks("pnputil /enum-drivers && pnputil /delete-driver oem42.inf   (in PowerShell)"));
	assert_false(fix_only_looks("pnputil /remove-device PCI\\VEN_10DE   (in PowerShell)"));
	assert_false(fix_only_looks("pnputil /add-driver nv.inf /install   (in PowerShell)"));
	assert_false(fix_only_looks("pnputil /disable-device ID   (in PowerShell)"));
	assert_false(fix_only_looks("pnputil /restart-device ID   (in PowerShell)"));
	assert_false(fix_only_looks("wevtutil cl System   (in PowerShell)"));
	assert_false(fix_only_looks("Get-PnpDevice -Class Display | Disable-PnpDevice -Confirm:$false   (in PowerShell)"));
	assert_false(fix_only_looks("Enable-PnpDevice -InstanceId ID   (in PowerShell)"));
	assert_false(fix_only_looks("where nvidia-smi   (PowerShell's where is Where-Object)"));
	assert_true(fix_is_destructive("pnputil /delete-driver oem42.inf /uninstall"));
	assert_true(fix_is_destructive("wevtutil.exe cl Application"));
	assert_false(fix_is_destructive("pnputil /enum-drivers /class Display"));
	assert_true(fix_changes_system("Get-PnpDevice -FriendlyName '*NVIDIA*' | Enable-PnpDevice"));
	assert_false(fix_changes_system("Get-PnpDevice -Class Display"));

	/* the rule, on a cause of its own: a change on a guess waits for the
	 * cause's first look; established by its message or confirmed here,
	 * the remedy leads; with no look, the cause's check comes first */
	static const char *lines[] = { "sudo systemctl restart docker", "export DOCKER_HOST=",
				       "docker info --format '{{.Runtimes}}'" };
	struct kb_entry c = { .id = "x.c", .layer = "containers", .kind = "finding", .title = "C",
			      .fix = { lines, 3 }, .confirm = "wslgpu check --only containers" };
	struct rank_platform native = { .kind = "native", .established = true, .from = "text" };
	struct rank_platform win = { .kind = "windows", .established = true, .from = "text" };
	struct cause_rank cr = { .e = &c, .v = V_UNCHECKED };
	struct finding_view v;
	finding_expand(&v, &c, NULL, NULL);
	order_fixes(&v, &cr, &native);
	assert_string_equal(v.fix[0], "docker info --format '{{.Runtimes}}'");
	assert_string_equal(v.fix[1], "sudo systemctl restart docker");
	finding_view_release(&v);
	cr.v = V_CONFIRMED;
	finding_expand(&v, &c, NULL, NULL);
	order_fixes(&v, &cr, &native);
	assert_string_equal(v.fix[0], "sudo systemctl restart docker");
	finding_view_release(&v);
	cr.v = V_UNCHECKED;
	c.established = "the message names it";
	finding_expand(&v, &c, NULL, NULL);
	order_fixes(&v, &cr, &native);
	assert_string_equal(v.fix[0], "sudo systemctl restart docker");
	finding_view_release(&v);
	c.established = NULL;
	c.fix.n = 1;
	finding_expand(&v, &c, NULL, NULL);
	order_fixes(&v, &cr, &native);
	assert_int_equal(v.nfix, 2);
	assert_non_null(strstr(v.fix[0], "wslgpu check --only containers"));
	assert_false(fix_changes_system(v.fix[0]));
	finding_view_release(&v);
	/* a Windows log: a cause of Linux (WSL's or native Linux's too) holds
	 * there in WSL: its check runs "in WSL:" */
	c.platform = "wsl2 native";
	finding_expand(&v, &c, NULL, NULL);
	order_fixes(&v, &cr, &win);
	assert_non_null(v.fix[0]);
	assert_int_equal(strncmp(v.fix[0], "in WSL: wslgpu check --only containers", 38), 0);
	finding_view_release(&v);

	const struct explain_db *db = explain_db_builtin();
	const char *kinds[] = { "native", "container", "windows", "wsl2", NULL };
	struct strbuf errs = STRBUF_INIT, pending = STRBUF_INIT;
	size_t checked = 0;
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		struct rank_platform pf;
		rank_platform_pick(&pf, NULL, kinds[k], "marker", NULL);
		for (size_t i = 0; i < db->n; i++) {
			const struct explain_sig *sig = &db->sig[i];
			struct cause_rank r[64];
			size_t nc = sig->ncause < 64 ? sig->ncause : 64;
			rank_causes(sig, NULL, NULL, 0, kinds[k] ? &pf : NULL, r);
			for (size_t j = 0; j < nc; j++) {
				const struct kb_entry *e = r[j].e;
				if (r[j].v == V_NOT_HERE || strcmp(e->kind, "finding"))
					continue;
				if (e->established) {
					/* what establishes it, said */
					if (!e->established[0])
						fail_msg("%s: established: says nothing", e->id);
					continue;
				}
				struct finding_view fv;
				finding_expand(&fv, e, NULL, NULL);
				order_fixes(&fv, &r[j], kinds[k] ? &pf : NULL);
				struct strbuf *to = guess_is_pending(e->id) ? &pending : &errs;
				if (fv.nfix && fix_changes_system(fv.fix[0]) &&
				    !strstr(to->buf ? to->buf : "", e->id))
					sb_addf(to, "%s (via %s, %s): leads with a system change on a "
						"guess: %s\n", e->id, sig->e->id,
						kinds[k] ? kinds[k] : "unknown", fv.fix[0]);
				finding_view_release(&fv);
				checked++;
			}
		}
	}
	if (pending.len)
		fprintf(stderr, "# pending (judged guesses, not yet mended):\n%s", pending.buf);
	/* a pending entry mended since: take it off the list */
	for (size_t i = 0; guess_pending[i]; i++)
		if (!strstr(pending.buf ? pending.buf : "", guess_pending[i]))
			sb_addf(&errs, "%s no longer leads with a system change: remove it from "
				"guess_pending\n", guess_pending[i]);
	if (errs.len) {
		fputs(errs.buf, stderr);
		fail_msg("causes lead with a system change on a guess (above)");
	}
	sb_release(&errs);
	sb_release(&pending);
	assert_true(checked > 500);
}

/* The platform a paste comes from, by its markers. */
static void test_text_platform(void **state)
{
	(void)state;
	static const struct {
		const char *text, *kind;
	} cases[] = {
		{ "ls: cannot access '/usr/lib/wsl/lib/libcuda.so.1'", "wsl2" },
		/* WSL's dxcore library named in a loader's error, the only marker
		 * such a paste may carry; the toolkit's probe for it
		 * on native Linux is none (nvidia-container-toolkit#154) */
		{ "failed to load libdxcore.so: cannot open shared object file: No such file or directory",
		  "wsl2" },
		{ "W0312 nvml.go:44] dlopen /usr/lib/x86_64-linux-gnu/libdxcore.so failed", "wsl2" },
		{ "I1202 15:15:34.407426 26518 nvc.c:393] attempting to load dxcore to see if we are "
		  "running under Windows Subsystem for Linux (WSL)\n"
		  "I1202 15:15:34.408137 26518 nvc.c:395] dxcore initialization failed, continuing "
		  "assuming a non-WSL environment",
		  NULL },
		{ "I1010 18:04:36.529504 8259 dxcore.c:228] Creating a new WDDM Adapter", "wsl2" },
		{ "MESA: error: Failed to create DXCore adapter factory", "wsl2" },
		{ "Linux box 5.15.153.1-microsoft-standard-WSL2 #1 SMP", "wsl2" },
		/* dxgkrnl's VMBus file and functions, in a kernel WARN */
		{ "field-spanning write in dxgvmb_send_wait_sync_object_gpu (dxgvmbus.c:3095)", "wsl2" },
		/* Windows' event log names the driver's kernel part; nvcc names
		 * the host compiler (open-shell/Open-Shell-Menu#2025, CERN/TIGRE#414) */
		{ "The description for Event ID 153 from source nvlddmkm cannot be found.", "windows" },
		{ "nvcc fatal   : nvcc cannot find a supported version of Microsoft Visual Studio.",
		  "windows" },
		{ "LINK : fatal error LNK1181: cannot open input file 'cuda.lib'", "windows" },
		/* Python's own words on Windows, MSBuild's project file, a user's
		 * folder with forward slashes (k2-fsa/k2#1342, rahul-goel/fused-ssim#3) */
		{ "ImportError: DLL load failed while importing _C: The specified procedure could not be found.",
		  "windows" },
		{ "error C2872: 'std': ambiguous symbol [G:\\build\\k2\\csrc\\context.vcxproj]", "windows" },
		{ "C:/Users/sunny/anaconda3/envs/gsplat/lib/site-packages/torch/include", "windows" },
		{ "'nvcc' is not recognized as an internal or external command,", "windows" },
		{ "NVIDIA Installer cannot continue", "windows" },
		/* environment dumps: Python's platform string, torch's collect_env,
		 * a wheel's tag, a package path with Windows' separators */
		{ "- Platform: Windows-10-10.0.22631-SP0\n- Python version: 3.11.9", "windows" },
		{ "OS: Microsoft Windows 11 Pro (10.0.22631 64-bit)", "windows" },
		{ "Processing ./torch-2.5.1+cu124-cp311-cp311-win_amd64.whl", "windows" },
		{ "File \"venv\\Lib\\site-packages\\torch\\cuda\\__init__.py\", line 310", "windows" },
		{ "OS: Windows Server 2022 Datacenter", "windows" },
		{ ".\\run_gpu.ps1 : cannot load", "windows" },
		/* the same words on WSL or Linux: theirs win */
		{ "- Platform: Linux-5.15.153.1-microsoft-standard-WSL2-x86_64-with-glibc2.35", "wsl2" },
		{ "OS: Microsoft Windows 11 Pro\nls /usr/lib/wsl/lib", "wsl2" },
		/* an NGC image's banner (ai-dynamo/nixl's CUDA 12.8.1 image) and
		 * Singularity's --nv (apptainer/singularity#6356) */
		{ "== CUDA ==\nCUDA Version 12.8.1.012\nContainer image Copyright (c) 2025, NVIDIA "
		  "CORPORATION & AFFILIATES. All rights reserved.", "container" },
		{ "$ singularity exec --nv alpine_latest.sif bash", "container" },
		/* a pod's state, HAMi's interposer, nerdctl, a GitHub Actions job
		 * container (Project-HAMi/volcano-vgpu-device-plugin#89,
		 * Project-HAMi/HAMi#1202, NVIDIA/cuda-python#2724) */
		{ "test-gpu-0   0/1   CrashLoopBackOff   5   3m", "container" },
		{ "[HAMI-core ERROR (pid:1834 thread=1 libvgpu.c:874)]: cuInit failed:100", "container" },
		{ "$ nerdctl run --gpus 0 --rm -it IMAGE", "container" },
		{ "/__w/_temp/e57682ae.sh: line 1: nvidia-smi: command not found", "container" },
		/* a pod spec's runtime class, the GPU resource, the GPU Operator
		 * (gpustack/gpustack#5122) */
		{ "- `runtimeClassName: nvidia`\n- `ImportError: libcuda.so.1: cannot open shared object file`", "container" },
		{ "resources:\n  limits:\n    nvidia.com/gpu: 1", "container" },
		/* Windows' GetProcAddress in Rust's libloading error, a user folder
		 * that lost its "\\" after the drive (koharu-rs/koharu#168) */
		{ "Expected symbol in library: GetProcAddress { source: Os { code: 127 } }", "windows" },
		{ "panicked at\nC:Users\\runneradmin\\.cargo\\registry\\src", "windows" },
		{ "Disable CDI in GPU Operator and ensure `RuntimeClass nvidia` exists.", "container" },
		/* gVisor, Kata, Slurm's pyxis/enroot (ray-project/ray#66161,
		 * kata-containers/kata-containers#12549, SlinkyProject/containers#2) */
		{ "SandboxCreationError: gVisor container failed to start", "container" },
		{ "sudo runsc nvproxy list-supported-drivers", "container" },
		{ "kata-runtime check", "container" },
		/* Docker Desktop is WSL's on Windows, not on Linux (its socket
		 * in the user's home: github.com/docker/docs/issues/23308) */
		{ "Docker Desktop 4.37.1\ndocker: Error response from daemon: could not select device driver",
		  "container-in-wsl2" },
		{ "Docker Desktop 4.37.1 on Ubuntu 24.04\nCannot connect to the Docker daemon at "
		  "unix:///home/ana/.docker/desktop/docker.sock. Is the docker daemon running?",
		  "container" },
		{ "I use Docker Desktop for Linux; nvidia-smi: command not found", "container" },
		{ "error: pyxis: couldn't start container", "container" },
		{ "[ERROR] /etc/enroot/hooks.d/98-nvidia.sh exited with return code 1", "container" },
		/* a Hyper-V GPU-PV guest: dxgkrnl built out of tree is not WSL
		 * (oneclick-gpu-pv#8; staralt/dxgkrnl-dkms), nor native Linux */
		{ "[    2.404359] dxgkrnl: loading out-of-tree module taints kernel.\n"
		  "[    2.410266] hv_vmbus: registering driver dxgkrnl\nThe dkms module compiles fine",
		  NULL },
		{ "sudo apt install ./dxgkrnl-dkms_2.0.3_all.deb\nls /dev/dxg", NULL },
		{ "[    2.410266] hv_vmbus: registering driver dxgkrnl", "wsl2" },
		/* DKMS building dxgkrnl for a GPU-PV guest: neither WSL nor native */
		{ "Consult /var/lib/dkms/dxgkrnl/f6f9c9ab2/build/make.log for more information.\n"
		  "modprobe: FATAL: Module dxgkrnl not found in directory /lib/modules/6.11.0-1012-azure",
		  NULL },
		/* an ioctl handler of dxgkrnl quoted bare, and the WSL kernel
		 * named, outrank the Windows version in the same report
		 * (github.com/syv-ai/qwen38-27b-rtx3090/issues/2) */
		{ "The WSL kernel simultaneously recorded:\n"
		  "dxgkio_make_resident: Ioctl failed: -12\n"
		  "Environment: Windows 10, WSL kernel `6.18.33.2`, NVIDIA driver `610.62`",
		  "wsl2" },
		{ "Environment: Windows 11, WSL kernel 6.6.87.2, driver 581.57", "wsl2" },
		{ "[ 1.2] dxgkio_query_adapter_info: Ioctl failed: -22", "wsl2" },
		{ "[  12.0] NVRM: API mismatch: the client has the version 570.153.02", "native" },
		{ "NVRM: Xid (PCI:0000:0b:00): 13, pid=1", "native" },
		/* /proc/driver/nvidia/version's content: a loaded Linux module
		 * (github.com/zzzhouuu/truenas-nvidia-drivers/issues/19,
		 * github.com/NVIDIA/open-gpu-kernel-modules/issues/171); its
		 * path alone is no marker (WSL users look for it) */
		{ "Failed to initialize NVML: Driver/library version mismatch\n"
		  "NVML library version: 580.178\n"
		  "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.173.02  Tue Jun 23 08:38:17 UTC 2026",
		  "native" },
		{ "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  515.43.04  Release Build", "native" },
		{ "cat: /proc/driver/nvidia/version: No such file or directory", NULL },
		{ "Error! Bad return status for module build\nConsult /var/lib/dkms/nvidia/545/build/make.log",
		  "native" },
		/* akmods (Fedora) names itself with an s */
		{ "2026/02/11 18:46:34 akmods: Building rpms failed; see /var/cache/akmods/nvidia/x.failed.log",
		  "native" },
		/* the display modules, an initramfs builder, a virtual console */
		{ "[drm:nv_drm_gem_alloc_nvkms_memory_ioctl [nvidia_drm]] *ERROR* Failed to allocate",
		  "native" },
		{ "INFO: task nvidia-modeset/:883 blocked for more than 122 seconds.", "native" },
		/* a kernel stack frame in the driver's modules, an Oops cut to
		 * two lines */
		{ "RIP: nvidia_vma_access+0x2f/0x2f0 [nvidia]\nBUG: kernel NULL pointer dereference", "native" },
		{ "[ 9.1]  uvm_va_block_make_resident+0x52/0x190 [nvidia_uvm]", "native" },
		/* not a pip extra's brackets in prose, nor a Markdown link's text
		 * in a pasted issue template */
		{ "pip install somepkg[nvidia-cuda] works", NULL },
		{ "GPU: [NVIDIA](https://www.nvidia.com) RTX 4090, CUDA error: out of memory", NULL },
		{ "==> ERROR: module not found: 'nvidia'\n(5/6) Updating linux initcpios... mkinitcpio -P",
		  "native" },
		{ "when attempting to run nvidia-smi in another tty it just says Nvidia NVML Driver/library "
		  "version mismatch",
		  "native" },
		{ "update-initramfs: Generating /boot/initrd.img-5.15.90.1-microsoft-standard-WSL2", "wsl2" },
		{ "docker: Error response from daemon: could not select device driver", "container" },
		{ "nvidia-container-cli: initialization error: WSL environment detected but no adapters",
		  "container-in-wsl2" },
		{ "Could not locate cudnn_ops64_9.dll. Please make sure it is in your library path!",
		  "windows" },
		{ "PS C:\\Users\\me> python train.py", "windows" },
		/* what programs print on Windows: Go's exit status of an
		 * NTSTATUS, a batch launcher's pause, a data drive, an HRESULT
		 * by its full number (a marker ending in a digit is a prefix) */
		{ "Error: llama runner process has terminated: exit status 0xc0000409", "windows" },
		{ "Press any key to continue . . .", "windows" },
		{ "  File \"E:\\ComfyUI\\main.py\", line 3", "windows" },
		{ "failed with error 0x80070005", "windows" },
		{ "Default install with install.bat", "windows" },
		/* ".bat" ends its word */
		{ "the battery.battery level", NULL },
		{ "RuntimeError: CUDA error: no kernel image is available for execution", NULL },
		/* a word inside another is no marker */
		{ "the proxide was fixed; rerunc", NULL },
		/* Docker Compose's prefix of a container's line, v2 and v1, as
		 * pasted (tests/explain/tolerance.log, libs.log), with its
		 * colours and an indent; with a WSL marker, in WSL */
		{ "ollama-ollama-1    | ggml_init_cublas: found 1 CUDA devices:", "container" },
		{ "ml_api_1  |  CUDA Error: PTX JIT compiler library not found", "container" },
		{ "some text\n  \033[36mvllm-1  \033[0m| ERROR engine.py:366] ValueError", "container" },
		{ "vllm-1 |\nvllm-1 | INFO", "container" },
		{ "app-1  | cannot open /usr/lib/wsl/lib/libcuda.so.1", "container-in-wsl2" },
		/* as compose attaches to its services (github.com/ollama/ollama/issues/6961) */
		{ "Attaching to app-1, ollama-1\n"
		  "ollama-1  | 2024/09/25 17:46:47 routes.go:1125: INFO server config env=\"map[CUDA_VISIBLE_DEVICES:\n"
		  "ollama-1  | time=2024-09-25T17:46:47.254Z level=INFO source=images.go:753 msg=\"total blobs: 28\"",
		  "container" },
		/* an ordinary table's row is no container: a further cell, a
		 * leading bar, no padding, no replica number, a bare number */
		{ "gpu_1 | 45C | ok", NULL },
		{ "| gpu_1 | 45C |", NULL },
		{ "row_2  | value |", NULL },
		{ "gpu_1| 45C", NULL },
		/* a service with container_name: set has no replica number
		 * (github.com/rjmalagon/ollama-linux-amd-apu/issues/11): its
		 * bare name is a table's first cell too */
		{ "ollama  | time=2025-07-09T22:25:44.936Z level=DEBUG source=amd_linux.go:177", NULL },
		{ "1_2  | x", NULL },
		{ "|   0  NVIDIA GeForce RTX 3090    Off |   00000000:01:00.0  On |   N/A |", NULL },
		{ "model-v1.5 | 7.1 GB", NULL },
		/* Ollama's discovery lists the globs it searches on every host
		 * (WSL's among them): no marker; the library it found there is */
		{ "level=DEBUG source=gpu.go:491 msg=\"gpu library search\" globs=\"[/usr/local/lib/"
		  "ollama/libcuda.so* /usr/lib/wsl/lib/libcuda.so* /usr/lib/wsl/drivers/*/libcuda.so* "
		  "/opt/cuda/lib*/libcuda.so*]\"\ncuInit err: 999",
		  NULL },
		/* the command that printed a container's output */
		{ "~$ docker logs -f ollama\ntime=2024-04-19T10:00:00Z level=INFO", "container" },
		{ " docker container logs ab3d7ca114c0\ntime=2024-05-06T23:50:07.155Z", "container" },
		{ "docker log xinference_gpu\nOSError: libcuda.so.1: cannot open shared object file",
		  "container" },
		/* not a word inside another: a logger, a login */
		{ "docker logger started; docker login succeeded", NULL },
		{ "msg=\"gpu library search\" globs=\"[/usr/lib/wsl/lib/libcuda.so*]\"\n"
		  "msg=\"discovered GPU libraries\" paths=[/usr/lib/wsl/lib/libcuda.so.1]",
		  "wsl2" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct text_platform tp;
		text_platform_read(cases[i].text, strlen(cases[i].text), &tp);
		if (cases[i].kind == NULL) {
			if (tp.kind)
				fail_msg("%s: read as %s (%s)", cases[i].text, tp.kind, tp.marker);
		} else if (!tp.kind || strcmp(tp.kind, cases[i].kind)) {
			fail_msg("%s: read as %s, want %s", cases[i].text, tp.kind ? tp.kind : "unknown",
				 cases[i].kind);
		}
	}
	/* A marker split by the reading window is still found. */
	size_t n = 8192 + 100;
	char *big = xmalloc(n + 1);
	memset(big, 'x', n);
	memcpy(big + 8192 - 5, " NVRM: x", 8);
	big[n] = 0;
	struct text_platform tp;
	text_platform_read(big, n, &tp);
	assert_non_null(tp.kind);
	assert_string_equal(tp.kind, "native");
	free(big);
	assert_true(text_platform_valid("wsl2"));
	assert_false(text_platform_valid("linux"));
}

/* Words of the paste move causes within their verdict, and are recorded. */
static void test_rank_words(void **state)
{
	(void)state;
	static const char *sup[] = { "cudaGetDeviceCount(&count) != cudaSuccess" };
	static const char *exc[] = { "cudaGetDeviceCount(&count) != cudaSuccess" };
	static const char *oom[] = { "out of memory" };
	struct kb_entry mem = { .id = "x.mem", .layer = "cuda", .kind = "finding", .title = "M",
				.support = { oom, 1 }, .exclude = { exc, 1 } };
	struct kb_entry drv = { .id = "x.drv", .layer = "cuda", .kind = "finding", .title = "D",
				.support = { sup, 1 } };
	struct kb_entry other = { .id = "x.other", .layer = "cuda", .kind = "finding", .title = "O" };
	const struct kb_entry *causes[] = { &mem, &other, &drv };
	struct explain_sig sig = { .e = &mem, .kind = "finding", .cause = causes, .ncause = 3 };
	const char paste[] = "cudnnCreate failed: CUDNN_STATUS_NOT_INITIALIZED\n"
			     "CUDAGETDEVICECOUNT(&count) != cudaSuccess\n";
	struct paste_words w = { .text = paste, .len = sizeof paste - 1 };
	struct rank_platform pf = { .words = &w };
	struct cause_rank r[3];
	rank_causes(&sig, NULL, NULL, 0, &pf, r);
	assert_ptr_equal(r[0].e, &drv);
	assert_int_equal(r[0].nsupport, 1);
	assert_string_equal(r[0].support[0], sup[0]);
	assert_ptr_equal(r[1].e, &other);
	assert_ptr_equal(r[2].e, &mem);
	assert_int_equal(r[2].nexclude, 1);
	paste_words_release(&w);
	/* An out-of-memory paste puts memory first; no paste, the KB order. */
	const char paste2[] = "CUBLAS_STATUS_NOT_INITIALIZED\nCUDA out of memory. Tried to allocate";
	struct paste_words w2 = { .text = paste2, .len = sizeof paste2 - 1 };
	pf.words = &w2;
	rank_causes(&sig, NULL, NULL, 0, &pf, r);
	assert_ptr_equal(r[0].e, &mem);
	paste_words_release(&w2);
	rank_causes(&sig, NULL, NULL, 0, NULL, r);
	for (int i = 0; i < 3; i++)
		assert_ptr_equal(r[i].e, causes[i]);
	/* The diagnostic comes before a destructive fix on a guess. */
	struct kb_entry rm = { .id = "x.rm", .layer = "libs", .kind = "finding", .title = "R",
			       .confirm = "wslgpu check --only libs" };
	struct finding_view fv = { .e = &rm };
	fv.fix = xcalloc(2, sizeof *fv.fix);
	fv.fix[0] = xstrdup("sudo apt-get remove --purge libnvidia-compute-535");
	fv.fix[1] = xstrdup("sudo ldconfig");
	fv.nfix = 2;
	struct cause_rank cr = { .e = &rm, .v = V_UNCHECKED };
	order_fixes(&fv, &cr, NULL);
	assert_int_equal(fv.nfix, 3);
	assert_true(strncmp(fv.fix[0], "wslgpu check --only libs", 24) == 0);
	finding_view_release(&fv);
}

/* The words of the message itself tell none of its causes apart: a
 * support word the signature's own literal or regex holds is shown by
 * every paste it matches, so it moves nothing (the KB order stands). */
static void test_rank_own_words(void **state)
{
	(void)state;
	static const char *oom[] = { "out of memory" };
	static const char *pat[] = { "CUDA out of memory" };
	struct kb_entry sige = { .id = "x.sig", .layer = "cuda", .kind = "signature", .title = "S",
				 .match = { pat, 1 } };
	struct kb_entry first = { .id = "x.first", .layer = "cuda", .kind = "finding", .title = "F" };
	struct kb_entry mem = { .id = "x.mem", .layer = "cuda", .kind = "finding", .title = "M",
				.support = { oom, 1 } };
	const struct kb_entry *causes[] = { &first, &mem };
	struct explain_sig sig = { .e = &sige, .kind = "finding", .cause = causes, .ncause = 2 };
	const char paste[] = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n";
	struct paste_words w = { .text = paste, .len = sizeof paste - 1 };
	struct rank_platform pf = { .words = &w };
	struct cause_rank r[2];
	rank_causes(&sig, NULL, NULL, 0, &pf, r);
	assert_ptr_equal(r[0].e, &first);
	assert_ptr_equal(r[1].e, &mem);
	assert_int_equal(r[1].nsupport, 0);
	/* ...while the same word where another message is read counts */
	static const char *other_pat[] = { "CUDNN_STATUS_NOT_INITIALIZED" };
	sige.match = (struct kb_list){ other_pat, 1 };
	const char paste2[] = "CUDNN_STATUS_NOT_INITIALIZED\nRuntimeError: CUDA out of memory.\n";
	struct paste_words w2 = { .text = paste2, .len = sizeof paste2 - 1 };
	pf.words = &w2;
	rank_causes(&sig, NULL, NULL, 0, &pf, r);
	assert_ptr_equal(r[0].e, &mem);
	assert_int_equal(r[0].nsupport, 1);
	paste_words_release(&w);
	paste_words_release(&w2);
}

/* Evidence beats the platform prior: with the log's platform unknown, a
 * native Linux cause whose words the paste shows ranks with the causes
 * that hold everywhere; a WSL cause never does (its advice does not lead
 * where the platform is unknown), whatever the paste says. */
static void test_rank_evidence_lifts(void **state)
{
	(void)state;
	static const char *sus[] = { "suspend" };
	struct kb_entry any = { .id = "x.any", .layer = "cuda", .kind = "finding", .title = "A" };
	struct kb_entry native = { .id = "x.native", .layer = "host", .kind = "finding", .title = "N",
				   .platform = "not-wsl", .support = { sus, 1 } };
	struct kb_entry wsl = { .id = "x.wsl", .layer = "host", .kind = "finding", .title = "W",
				.platform = "wsl", .support = { sus, 1 } };
	const struct kb_entry *causes[] = { &any, &wsl, &native };
	struct explain_sig sig = { .e = &any, .kind = "finding", .cause = causes, .ncause = 3 };
	const char paste[] = "RuntimeError: CUDA error: unspecified launch failure\n"
			     "after I suspend the laptop\n";
	struct paste_words w = { .text = paste, .len = sizeof paste - 1 };
	struct rank_platform pf = { .words = &w };
	struct cause_rank r[3];
	rank_causes(&sig, NULL, NULL, 0, &pf, r);
	assert_ptr_equal(r[0].e, &native);
	assert_int_equal(r[0].v, V_UNCHECKED);
	assert_ptr_equal(r[1].e, &any);
	assert_ptr_equal(r[2].e, &wsl);
	assert_int_equal(r[2].v, V_BOUND);
	/* without the word, the general cause first and both bound */
	const char plain[] = "RuntimeError: CUDA error: unspecified launch failure\n";
	struct paste_words w2 = { .text = plain, .len = sizeof plain - 1 };
	pf.words = &w2;
	rank_causes(&sig, NULL, NULL, 0, &pf, r);
	assert_ptr_equal(r[0].e, &any);
	assert_int_equal(r[1].v, V_BOUND);
	assert_int_equal(r[2].v, V_BOUND);
	/* a log established as WSL's: the native cause does not apply */
	pf.words = &w;
	pf.kind = "wsl2";
	pf.established = true;
	pf.from = "text";
	rank_causes(&sig, NULL, NULL, 0, &pf, r);
	assert_ptr_equal(r[0].e, &wsl);
	assert_ptr_equal(r[2].e, &native);
	assert_int_equal(r[2].v, V_NOT_HERE);
	paste_words_release(&w);
	paste_words_release(&w2);
}

/* The first cause explain gives for a real paste: the causes of its match of
 * signature sig_id (NULL: its first match) ranked for a log of platform kind
 * (NULL: unknown) with the paste's words. */
static const char *first_cause_in(const char *paste, const char *kind, const char *sig_id)
{
	struct explain_scan s;
	scan_text(&s, paste);
	size_t k = 0;
	while (sig_id && k < s.nfound && strcmp(s.db->sig[s.found[k]->sig].e->id, sig_id) != 0)
		k++;
	assert_true(k < s.nfound);
	const struct explain_sig *sig = &s.db->sig[s.found[k]->sig];
	struct paste_words w = { .text = paste, .len = strlen(paste) };
	struct rank_platform pf = { .kind = kind, .established = kind != NULL,
				    .from = kind ? "text" : NULL, .words = &w };
	struct cause_rank r[64];
	assert_true(sig->ncause > 0 && sig->ncause <= 64);
	rank_causes(sig, NULL, NULL, 0, &pf, r);
	const char *id = r[0].e->id; /* the built-in KB's: outlives the scan */
	paste_words_release(&w);
	explain_scan_release(&s);
	return id;
}

/* ...of its first match */
static const char *first_cause_of(const char *paste, const char *kind)
{
	return first_cause_in(paste, kind, NULL);
}

/* RDMA registration refused: ENOMEM is the pinned-memory limit's, the card's
 * refusals of GPU memory (EFAULT, EINVAL) are GPUDirect's (NVIDIA/nccl#778;
 * the memlock reading where NCCL says "Cannot allocate memory"). */
static void test_rank_rdma_reg_mr(void **state)
{
	(void)state;
	assert_string_equal(first_cause_of("misc/ibvwrap.cc:278 NCCL WARN Call to ibv_reg_mr_iova2 failed "
					   "with error Cannot allocate memory\n",
					   "native"),
			    "explain.ndrv.rdma_memlock_limit");
	assert_string_equal(first_cause_of("misc/ibvwrap.cc:278 NCCL WARN Call to ibv_reg_mr_iova2 failed "
					   "with error Bad address\n",
					   "native"),
			    "explain.ndrv.rdma_gpu_memory_unregistrable");
}

/* dnf cannot install an NVIDIA driver package: where dnf says a provider is
 * "filtered out by modular filtering", the module stream is the reason, not
 * mixed sources (rocky-linux/rockylinux.org#201); without it, mixed sources
 * lead. */
static void test_rank_rpm_modular_filtering(void **state)
{
	(void)state;
	const char *modular =
		" Problem: package nvidia-open-3:580.65.06-1.el10.noarch from cuda-rhel10-x86_64 requires "
		"nvidia-settings = 3:580.65.06, but none of the providers can be installed\n"
		"  - conflicting requests\n"
		"  - package nvidia-settings-3:580.65.06-1.el10.x86_64 from cuda-rhel10-x86_64 is filtered out "
		"by modular filtering\n";
	const char *mixed =
		" Problem: package nvidia-open-3:580.65.06-1.el10.noarch from cuda-rhel10-x86_64 requires "
		"nvidia-settings = 3:580.65.06, but none of the providers can be installed\n"
		"  - conflicting requests\n";
	assert_string_equal(first_cause_of(modular, "native"), "explain.host.rhel_modular_filtering");
	assert_string_equal(first_cause_of(mixed, "native"), "explain.host.rpm_driver_deps");
}

/* A long paste looks its words up in one pass (paste_scan_words), a short
 * one with memmem: both give the same ranking, a word found anywhere in it,
 * at either end of 300 KiB of a training log's lines. */
static void test_rank_words_long_paste(void **state)
{
	(void)state;
	static const struct {
		const char *paste, *platform;
	} cases[] = {
		{ "RuntimeError: CUDA error: unspecified launch failure\n"
		  "the error happen if i suspend my device and try to run the script\n", NULL },
		{ "RuntimeError: CUDA error: unspecified launch failure\n", NULL },
		{ "RuntimeError: CUDA error: out of memory (in pin_memory thread for device 0)\n", "wsl2" },
		{ "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n", "wsl2" },
	};
	struct strbuf pad = STRBUF_INIT;
	for (int i = 0; pad.len < (300u << 10); i++)
		sb_addf(&pad, "step %d: train_loss=0.%04d lr=3.0e-04 tokens/s=%d\n", i, i % 9973, i * 7);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *alone = first_cause_of(cases[i].paste, cases[i].platform);
		struct strbuf before = STRBUF_INIT, after = STRBUF_INIT;
		sb_addf(&before, "%s%s", cases[i].paste, pad.buf);
		sb_addf(&after, "%s%s", pad.buf, cases[i].paste);
		assert_string_equal(first_cause_of(before.buf, cases[i].platform), alone);
		assert_string_equal(first_cause_of(after.buf, cases[i].platform), alone);
		sb_release(&before);
		sb_release(&after);
	}
	/* the two readings differ on these pastes, so the words were read */
	assert_string_not_equal(first_cause_of(cases[0].paste, NULL), first_cause_of(cases[1].paste, NULL));
	assert_string_not_equal(first_cause_of(cases[2].paste, "wsl2"), first_cause_of(cases[3].paste, "wsl2"));
	sb_release(&pad);
}

/* Triton's "libcuda.so cannot found!": where its message lists the
 * libcuda.so.1 it found ("Possible files are located at", unsloth#679) the
 * link it asks for leads; the bare assertion (colabtools#4300) is a loader
 * cache without the driver's directory, WSL's own reading only on WSL. */
static void test_rank_triton_libcuda(void **state)
{
	(void)state;
	const char *listed = "AssertionError: libcuda.so cannot found!\n"
			     "Possible files are located at ['/lib/x86_64-linux-gnu/libcuda.so.1'].Please create "
			     "a symlink of libcuda.so to any of the file.\n";
	const char *bare = "AssertionError: libcuda.so cannot found!\n";
	assert_string_equal(first_cause_of(listed, NULL), "explain.libs.triton_libcuda_unversioned");
	assert_string_equal(first_cause_of(listed, "container"), "explain.libs.triton_libcuda_unversioned");
	assert_string_equal(first_cause_of(bare, NULL), "explain.libs.triton_libcuda");
	assert_string_equal(first_cause_of(bare, "native"), "explain.libs.triton_libcuda");
	assert_string_equal(first_cause_of(bare, "wsl2"), "explain.libs.triton_libcuda_wsl");
}

/* A program's own refusal of the compute capability: FlashInfer's
 * "requires sm75+" reads the architectures it compiles for
 * (TORCH_CUDA_ARCH_LIST), not the GPU (flashinfer#371): that reading leads
 * where the paste names FlashInfer; another program's words keep the
 * general one. LLVM's "Cannot select: intrinsic %llvm.nvvm.shfl.sync" is
 * Triton on a GPU older than Volta (llvm-project#90421). */
static void test_rank_cc_minimum_arch_list(void **state)
{
	(void)state;
	const char *fi = "RuntimeError: FlashInfer requires sm75+\n";
	const char *app = "RuntimeError: this model requires sm_80 or newer\n";
	const char *tr = "LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.shfl.sync.bfly.i32\n";
	assert_string_equal(first_cause_of(fi, NULL), "explain.wide.cc_check_reads_arch_list");
	assert_string_equal(first_cause_of(fi, "container"), "explain.wide.cc_check_reads_arch_list");
	assert_string_equal(first_cause_of(app, NULL), "explain.wide.cc_below_program_minimum");
	assert_string_equal(first_cause_of(tr, "native"), "explain.wide.triton_nvptx_pre_volta");
}

/* vLLM's "No platform detected" in a container: a paste whose docker run
 * line asks for no GPU (llama-cpp-python#564: "--gpus all" is what the
 * driver needs in the container) reads first as a container started
 * without GPU access; one started with --gpus keeps vLLM's own reading. */
static void test_rank_container_started_without_gpu(void **state)
{
	(void)state;
	const char *bare = "# docker run -p 8000:8000 vllm/vllm-openai:latest --model /models/m\n"
			   "INFO 08-02 02:39:50 [__init__.py:248] No platform detected, vLLM is running on "
			   "UnspecifiedPlatform\n";
	const char *gpus = "# docker run --gpus all -p 8000:8000 vllm/vllm-openai:latest --model /models/m\n"
			   "INFO 08-02 02:39:50 [__init__.py:248] No platform detected, vLLM is running on "
			   "UnspecifiedPlatform\n";
	assert_string_equal(first_cause_of(bare, "container"), "explain.containers.no_gpu_driver");
	assert_string_equal(first_cause_of(gpus, "container"), "explain.apps.vllm_platform");
}

/* cuBLAS's ALLOC_FAILED is memory first, not the missing driver that
 * cuBLAS's other statuses lead with (Qwen3#873: solved on a card with
 * memory to spare); ggml's "the resource allocation failed" with no layers
 * on the GPU (-ngl 0) is the llama.cpp build (llama.cpp#25304). */
static void test_rank_cublas_alloc_failed(void **state)
{
	(void)state;
	const char *torch = "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`\n";
	const char *ggml = "llama-server -m model.gguf -ngl 0\n"
			   "CUDA error: the resource allocation failed\n"
			   "  current device: 0, in function cublas_handle at ggml/src/ggml-cuda/common.cuh:1500\n";
	assert_string_equal(first_cause_of(torch, NULL), "explain.cuda.cublas_alloc_memory");
	assert_string_equal(first_cause_of(torch, "wsl2"), "explain.cuda.cublas_alloc_memory");
	assert_string_equal(first_cause_of(ggml, "native"), "explain.apps.ggml_cublas_handle_alloc");
}

/* libcuda.so.1 missing in a container whose GPU request names utility
 * without compute (a compose device request's capabilities: [gpu, utility]):
 * that reading leads there, and only where the paste shows the capabilities;
 * Vulkan's ERROR_INCOMPATIBLE_DRIVER leads with the driver too old only where
 * the program says the driver needs an update (Omniverse Kit's words). */
static void test_rank_capabilities_and_vulkan_driver(void **state)
{
	(void)state;
	const char *lib = "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n";
	const char *caps = "              capabilities: [gpu, utility]\n"
			   "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n";
	assert_string_equal(first_cause_of(caps, "container"), "explain.containers.capabilities_no_compute");
	assert_string_equal(first_cause_of(caps, "container-in-wsl2"), "explain.containers.capabilities_no_compute");
	assert_string_not_equal(first_cause_of(lib, "container"), "explain.containers.capabilities_no_compute");
	const char *kit = "VkResult: ERROR_INCOMPATIBLE_DRIVER\n"
			  "vkCreateInstance failed. Vulkan 1.1 is not supported, or your driver requires an update.\n";
	const char *icd = "ERROR: [Loader Message] Code 0 : vkCreateInstance: Found no drivers!\n";
	assert_string_equal(first_cause_of(kit, NULL), "explain.host.vulkan_driver_too_old");
	assert_string_not_equal(first_cause_of(icd, NULL), "explain.host.vulkan_driver_too_old");
}

/* CTranslate2's "cuBLAS failed with status CUBLAS_STATUS_NOT_SUPPORTED",
 * also inside an application that names neither CTranslate2 nor
 * faster-whisper (pyvideotrans#865): its int8 reading on RTX 50 cards leads;
 * PyTorch's words keep the general reading. */
static void test_rank_ctranslate2_not_supported(void **state)
{
	(void)state;
	const char *ct2 = "Exception: err[msg]=_process:cuBLAS failed with status CUBLAS_STATUS_NOT_SUPPORTED\n";
	const char *torch = "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling "
			    "`cublasGemmEx( handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16BF, lda)`\n";
	assert_string_equal(first_cause_of(ct2, "windows"), "explain.apps.ctranslate2_int8_blackwell");
	assert_string_equal(first_cause_of(ct2, NULL), "explain.apps.ctranslate2_int8_blackwell");
	assert_string_equal(first_cause_of(torch, NULL), "explain.frameworks.gemm_not_supported");
	/* PyTorch's strided-batched call names its argument compute_type, a
	 * support word of the CTranslate2 reading (DeepSpeed#6723) */
	const char *batched = "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling "
			      "`cublasGemmStridedBatchedEx(handle, opa, opb, (int)m, (int)n, (int)k, (void*)&falpha, "
			      "a, CUDA_R_16BF, (int)lda, stridea, b, CUDA_R_16BF, (int)ldb, strideb, (void*)&fbeta, c, "
			      "CUDA_R_16BF, (int)ldc, stridec, (int)num_batches, compute_type, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`\n";
	assert_string_equal(first_cause_of(batched, NULL), "explain.frameworks.gemm_not_supported");
	assert_string_equal(first_cause_of(batched, "windows"), "explain.frameworks.gemm_not_supported");
}

/* HCS_E_HYPERV_NOT_INSTALLED: the features off is the usual reading; a paste
 * that shows the boot setting or HypervisorPresent looked at the hypervisor
 * itself (Raphire/Win11Debloat#463), whose check leads. */
static void test_rank_hyperv_not_installed(void **state)
{
	(void)state;
	const char *bare = "Wsl/Service/CreateInstance/CreateVm/HCS/HCS_E_HYPERV_NOT_INSTALLED\n";
	const char *looked = "Wsl/InstallDistro/Service/RegisterDistro/CreateVm/HCS/HCS_E_HYPERV_NOT_INSTALLED\n"
			     "- Boot loader is configured with `hypervisorlaunchtype Auto`.\n"
			     "`(Get-CimInstance Win32_ComputerSystem).HypervisorPresent` returns `False`.\n";
	assert_string_equal(first_cause_of(bare, "wsl2"), "explain.platform.vm_platform_off");
	assert_string_equal(first_cause_of(looked, "wsl2"), "explain.wslstart.hypervisor_launch");
}

/* torch.cuda's initialisation frames above "Unexpected error from
 * cudaGetDeviceCount()" cut before its "Error N:" (cosmos-transfer2.5#36):
 * the error line leads, not the frames' CPU-only reading (a CPU-only build
 * never asks the runtime). */
static void test_rank_torch_device_count_cut(void **state)
{
	(void)state;
	const char *cut = "  File \"/venv/lib/python3.10/site-packages/torch/cuda/__init__.py\", line 412, in _lazy_init\n"
			  "    torch._C._cuda_init()\n"
			  "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before "
			  "calling NumCudaDevices() that might have already set an error[...]\n";
	assert_string_equal(first_cause_of(cut, NULL), "explain.frameworks.torch_device_count_cut");
	assert_string_equal(first_cause_of(cut, "native"), "explain.frameworks.torch_device_count_cut");
}

/* Ollama's "model failed to load, this may be due to resource
 * limitations or an internal error": a load request whose KV size is a long
 * context times parallel requests (ollama#14491) reads as memory for that
 * context; a Hugging Face GGUF that fails on the CPU too (Bonsai-demo#31) as
 * a model the release cannot load. */
static void test_rank_ollama_load_failed(void **state)
{
	(void)state;
	const char *msg = "Error: 500 Internal Server Error: model failed to load, this may be due to "
			  "resource limitations or an internal error, check ollama server logs for details\n";
	char kv[512], hf[512];
	snprintf(kv, sizeof kv, "%smsg=load request=\"{Operation:fit Parallel:4 BatchSize:512 KvSize:811008\"\n", msg);
	snprintf(hf, sizeof hf, "ollama run hf.co/prism-ml/Bonsai-8B-gguf\n%sTried: CPU mode (OLLAMA_NO_GPU=1)\n", msg);
	assert_string_equal(first_cause_of(kv, NULL), "explain.apps.ollama_load_ctx_memory");
	assert_string_equal(first_cause_of(kv, "container"), "explain.apps.ollama_load_ctx_memory");
	assert_string_equal(first_cause_of(hf, "windows"), "explain.apps.ollama_model_unsupported");
	assert_string_equal(first_cause_of(hf, NULL), "explain.apps.ollama_model_unsupported");
}

/* nvidia-smi's "couldn't communicate with the NVIDIA driver" alone says
 * nothing of where it ran (ollama#8716: a machine with only an AMD GPU and
 * NVIDIA's packages installed): the reading for every platform leads, which
 * asks where and whether there is an NVIDIA GPU; a stated platform puts its
 * own reading first. */
static void test_rank_smi_no_driver_platform(void **state)
{
	(void)state;
	const char *smi = "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
			  "Make sure that the latest NVIDIA driver is installed and running.\n";
	assert_string_equal(first_cause_of(smi, NULL), "explain.nvml.no_driver_running_any");
	assert_string_equal(first_cause_of(smi, "native"), "nvml.smi.native_no_driver");
	assert_string_equal(first_cause_of(smi, "container"), "bridge.nvidia_dev.container");
	assert_string_equal(first_cause_of(smi, "wsl2"), "nvml.smi.linux_shadow");
}

/* ggml's "has no device code compatible with CUDA arch" before the
 * stream's "unspecified launch failure" (nextcloud/llm2#52): the launch
 * failed because the kernel had no code for the GPU, on every platform; a
 * launch failure alone keeps its own readings. */
static void test_rank_launch_failed_after_arch(void **state)
{
	(void)state;
	const char *both = "ggml/src/ggml-cuda/mmv.cu:53: ERROR: CUDA kernel mul_mat_vec has no device code "
			   "compatible with CUDA arch 520. ggml-cuda.cu was compiled for: 520\n"
			   "CUDA error: unspecified launch failure\n";
	const char *alone = "CUDA error: unspecified launch failure\n";
	const char *kinds[] = { NULL, "native", "container", "wsl2", "windows" };
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		assert_string_equal(first_cause_in(both, kinds[i], "explain.sig.launch_failed"),
				    "explain.wide.arch_not_built");
	assert_string_not_equal(first_cause_of(alone, NULL), "explain.wide.arch_not_built");
	assert_string_not_equal(first_cause_of(alone, "native"), "explain.wide.arch_not_built");
}

/* The container toolkit's hook finds no libnvidia-ml.so.1 where the
 * engine runs (nvidia-docker#1711): the engine's machine leads; Docker
 * Desktop for Linux's VM where the paste shows its context
 * (stable-diffusion-webui-docker#406), Docker Desktop's WSL 2 GPU support
 * on a Windows log (#129). */
static void test_rank_ctk_hook_no_nvml(void **state)
{
	(void)state;
	const char *hook = "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: "
			   "cannot open shared object file: no such file or directory: unknown\n";
	char desktop[512];
	snprintf(desktop, sizeof desktop, "%s$ docker context ls\ndesktop-linux *\n", hook);
	assert_string_equal(first_cause_of(hook, NULL), "explain.containers.ctk_host_no_nvml");
	assert_string_equal(first_cause_of(hook, "native"), "explain.containers.ctk_host_no_nvml");
	assert_string_equal(first_cause_of(desktop, "native"), "explain.containers.desktop_linux_no_gpu");
	assert_string_equal(first_cause_of(hook, "windows"), "explain.containers.desktop_windows_gpu");
}

/* NCCL's result strings in wrappers' words lead with what the paste shows:
 * CUDA-graph capture next to "invalid usage" is an NCCL built with an old
 * CUDA runtime (vllm#3069, #6201), TensorFlow imported next to JAX's
 * "invalid argument" the two frameworks in one process (jax#34918), a
 * quoted socket WARN next to "unhandled system error" the interface; bare,
 * the general readings. Windows error 127 on a CUDA DLL is a DLL of another
 * release (Paddle#72026), 126 one that is not found (on a Windows log: the
 * paste's "C:\\" establishes it; unknown, the general reading leads). */
static void test_rank_wrapper_nccl_and_dll127(void **state)
{
	(void)state;
	const char *usage = "RuntimeError: NCCL error: invalid usage (run with NCCL_DEBUG=WARN for details)\n";
	char capture[512];
	snprintf(capture, sizeof capture, "INFO model_runner.py:980] Capturing the model for CUDA graphs.\n%s", usage);
	assert_string_equal(first_cause_of(capture, NULL), "explain.nccl.graph_capture_build");
	assert_string_equal(first_cause_of(usage, NULL), "explain.nccl.ranks_same_gpu");
	const char *arg = "jax.errors.JaxRuntimeError: INTERNAL: NCCL operation ncclAllReduce(send, recv) failed: "
			  "invalid argument (run with NCCL_DEBUG=WARN for details).\n";
	char tf[512];
	snprintf(tf, sizeof tf, "    import tensorflow\n%s", arg);
	assert_string_equal(first_cause_of(tf, NULL), "explain.nccl.tf_jax_same_process");
	assert_string_equal(first_cause_of(arg, NULL), "explain.nccl.first_warn");
	/* a summary code quoting NCCL's socket WARN leads with the interface
	 * NCCL picked (nccl#697, rccl#328); bare, the WARN it asks for */
	const char *sys = "INTERNAL: NCCL operation ncclCommInitRank(&comm, nranks, id, rank) failed: unhandled system "
			  "error (run with NCCL_DEBUG=INFO for details).";
	char sock[512];
	snprintf(sock, sizeof sock, "%s Last NCCL warning(error) log entry (may be unrelated) 'socketStartConnect: "
		 "Connect to 10.0.0.2<45763> failed : Software caused connection abort'.\n", sys);
	assert_string_equal(first_cause_of(sock, NULL), "explain.nccl.socket_iface");
	assert_string_equal(first_cause_of(sys, NULL), "explain.nccl.first_warn");
	const char *dll127 = "OSError: [WinError 127] The specified procedure could not be found. Error loading "
			     "\"C:\\venv\\lib\\site-packages\\paddle\\libs\\cudnn_cnn_train64_8.dll\" or one of its "
			     "dependencies.\n";
	const char *dll126 = "OSError: [WinError 126] The specified module could not be found. Error loading "
			     "\"C:\\venv\\lib\\site-packages\\torch\\lib\\cudnn_cnn_infer64_8.dll\" or one of its "
			     "dependencies.\n";
	assert_string_equal(first_cause_of(dll127, "windows"), "explain.wide.cuda_dll_wrong_release");
	assert_string_equal(first_cause_of(dll126, "windows"), "explain.wide.cuda_dll_not_found");
}

/* LLM applications' own words: LM Studio's "GPU survey unsuccessful" next
 * to a V100 is its engine's dropped architecture (lmstudio-bug-tracker#1867),
 * alone the engine's survey (#1131); llama-cpp-python's libllama.so without
 * libcudart is its CUDA build's runtime (llama-cpp-python#1460), not a
 * framework's pip packages. */
static void test_rank_llm_apps(void **state)
{
	(void)state;
	assert_string_equal(first_cause_of("Nvidia v100 not visible driver 572.61, CUDA 12.8, GPU survey unsuccessful "
					   "Non Compatible Latest version\n", NULL),
			    "explain.apps.prebuilt_runtime_arch");
	assert_string_equal(first_cause_of("CUDA 12 llama.cpp (Windows) v1.53.1 - GPU survey unsuccessful\n", NULL),
			    "explain.apps.lmstudio_gpu_survey");
	assert_string_equal(first_cause_of("RuntimeError: Failed to load shared library '.../libllama.so': "
					   "libcudart.so.12: cannot open shared object file: No such file or directory\n",
					   NULL),
			    "explain.apps.llama_cpp_cuda_runtime");
	assert_string_equal(first_cause_of("msg=\"skipping CUDA device \xe2\x80\x94 compute capability not in compiled "
					   "architectures\"\n", NULL),
			    "explain.apps.ollama_gpu_arch_not_built");
	/* CTranslate2's int8 on RTX 50-series leads under faster-whisper's
	 * frames (CTranslate2#1865), and with CTranslate2's own words alone
	 * ("cuBLAS failed with status", test_rank_ctranslate2_not_supported);
	 * a bare cuBLAS status in other words keeps the GEMM reading */
	assert_string_equal(first_cause_of("File \"faster_whisper\\transcribe.py\", line 1719, in encode\n"
					   "RuntimeError: cuBLAS failed with status CUBLAS_STATUS_NOT_SUPPORTED\n", NULL),
			    "explain.apps.ctranslate2_int8_blackwell");
	assert_string_equal(first_cause_of("cuBLAS error: CUBLAS_STATUS_NOT_SUPPORTED\n", NULL),
			    "explain.frameworks.gemm_not_supported");
	/* bitsandbytes' CPU library: its own binary search, unless the paste
	 * shows PyTorch itself is a CPU-only build (bitsandbytes#1635) */
	assert_string_equal(first_cause_of("The installed version of bitsandbytes was compiled without GPU support. "
					   "8-bit optimizers, 8-bit multiplication, and GPU quantization are unavailable.\n",
					   NULL),
			    "explain.apps.bnb_cpu_binary");
	assert_string_equal(first_cause_of("The installed version of bitsandbytes was compiled without GPU support. "
					   "8-bit optimizers, 8-bit multiplication, and GPU quantization are unavailable.\n"
					   "Torch says CUDA is not available. Possible reasons:\n",
					   NULL),
			    "explain.apps.bnb_cpu_torch");
	/* Ollama's runner without ggml's CUDA library, and a package written
	 * for another Triton (ollama#7294, LlamaFactory#2050) */
	assert_string_equal(first_cause_of("/tmp/ollama1623163346/runners/cuda_v12/ollama_llama_server: error while "
					   "loading shared libraries: libggml_cuda_v12.so: cannot open shared object "
					   "file: No such file or directory\n",
					   NULL),
			    "explain.apps.ollama_runners_missing");
	assert_string_equal(first_cause_of("ModuleNotFoundError: No module named 'triton.common'\n", NULL),
			    "explain.apps.triton_module_moved");
	/* the same line from torch.compile's own import: the torch/Triton pair */
	assert_string_equal(first_cause_of("File \"/v/site-packages/torch/_inductor/codegen/triton.py\", line 3\n"
					   "ModuleNotFoundError: No module named 'triton.common'\n", NULL),
			    "explain.frameworks.torch_triton_mismatch");
	/* the web UI's GPU test on Windows: a CUDA build in the paste points at
	 * the driver (stable-diffusion-webui#15614, #15827); without one the
	 * test's general reading leads */
	assert_string_equal(first_cause_of("PyTorch version: 2.1.2+cu121\n"
					   "File \"C:\\sd\\modules\\launch_utils.py\", line 386, in prepare_environment\n"
					   "RuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to "
					   "COMMANDLINE_ARGS variable to disable this check\n",
					   "windows"),
			    "explain.apps.sd_cuda_test_driver_windows");
	assert_string_equal(first_cause_of("File \"C:\\sd\\modules\\launch_utils.py\", line 386, in prepare_environment\n"
					   "RuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to "
					   "COMMANDLINE_ARGS variable to disable this check\n",
					   "windows"),
			    "explain.apps.sd_cuda_test_windows");
}

/* The long tail's runtime compilers: Numba's PTX newer than the driver
 * leads with nvJitLink where the paste is Numba's words (numba-cuda#120),
 * and stays the driver's reading without them (gpu-burn#112; monodle#23 in
 * test_rank_real_pastes, where the driver's JIT log outweighs them);
 * CuPy's "invalid value for --gpu-architecture" is NVRTC's architecture
 * range (cupy#9475), PyTorch's stays its NVRTC build's (pytorch#47658). */
static void test_rank_runtime_compilers(void **state)
{
	(void)state;
	assert_string_equal(first_cause_of("ERROR:numba.cuda.cudadrv.driver:Call to cuLinkAddData results in "
					   "CUDA_ERROR_UNSUPPORTED_PTX_VERSION\n"
					   "CudaAPIError                              Traceback (most recent call last)\n",
					   NULL),
			    "explain.apps.numba_ptx_newer_than_driver");
	assert_string_not_equal(first_cause_of("CUDA_ERROR_UNSUPPORTED_PTX_VERSION: the provided PTX was "
					       "compiled with an unsupported toolchain\n",
					       NULL),
				"explain.apps.numba_ptx_newer_than_driver");
	assert_string_equal(first_cause_of("cupy_backends.cuda.libs.nvrtc.NVRTCError: NVRTC_ERROR_INVALID_OPTION (5)\n"
					   "nvrtc: error: invalid value for --gpu-architecture (-arch)\n",
					   NULL),
			    "explain.wide.nvrtc_arch_range");
	assert_string_equal(first_cause_of("  File \"/usr/lib/python3/site-packages/torch/jit/_script.py\", line 3\n"
					   "RuntimeError: nvrtc: error: invalid value for --gpu-architecture (-arch)\n",
					   NULL),
			    "explain.frameworks.nvrtc_old");
	/* PyTorch's fuser printing its source prelude after the error, no
	 * "torch" in the lines (RFDesign#58), and a Rust JIT's panic with
	 * the same NVRTC text, which is the general reading (burn's cubecl) */
	assert_string_equal(first_cause_of("RuntimeError: nvrtc: error: invalid value for --gpu-architecture (-arch)\n"
					   "\n"
					   "nvrtc compilation failed:\n"
					   "\n"
					   "#define NAN __int_as_float(0x7fffffff)\n"
					   "#define POS_INFINITY __int_as_float(0x7f800000)\n"
					   "#define NEG_INFINITY __int_as_float(0xff800000)\n",
					   NULL),
			    "explain.frameworks.nvrtc_old");
	assert_string_equal(first_cause_of("thread 'main' panicked at /home/u/.cargo/git/checkouts/cubecl-0dff475/"
					   "crates/cubecl-cuda/src/compute/server.rs:328:17:\n"
					   "[Compilation Error]\n"
					   "    nvrtc: error: invalid value for --gpu-architecture (-arch)\n",
					   NULL),
			    "explain.wide.nvrtc_arch_range");
}

/* FFmpeg's "No capable devices found": an encoder option this GPU's NVENC
 * lacks leads where FFmpeg's capability check named it the line before
 * (FFmpeg-Builds#245, video2x#1437), a GPU without NVENC where the line
 * stands alone (HandBrake#1998). */
static void test_rank_nvenc_capability(void **state)
{
	(void)state;
	assert_string_equal(first_cause_of("[hevc_nvenc @ 000001debf9a0840] B frames as references are not supported\n"
					   "[hevc_nvenc @ 000001debf9a0840] No capable devices found\n",
					   NULL),
			    "explain.apps.nvenc_setting_unsupported");
	assert_string_equal(first_cause_of("[h264_nvenc @ 0x55d0] No capable devices found\n", NULL),
			    "explain.apps.nvenc_no_engine");
}

/* A package's own check of the driver's CUDA version: a driver for CUDA 13
 * under a release made for CUDA 12 is the package's release to update
 * (numba-cuda#369's cuda-bindings); "11.x or higher" with an older driver is
 * the driver (CUDA.jl's wording for a driver below its minimum). */
static void test_rank_pkg_driver_range(void **state)
{
	(void)state;
	assert_string_equal(first_cause_of("cuda.bindings._internal.utils.NotSupportedError: "
					   "CUDA driver version 13000 is not supported\n",
					   NULL),
			    "explain.apps.pkg_driver_newer_than_release");
	assert_string_equal(first_cause_of("Error: This version of CUDA.jl only supports NVIDIA drivers for CUDA "
					   "11.x or higher (yours is for CUDA 10.2.0)\n",
					   NULL),
			    "explain.apps.pkg_driver_older_than_release");
}

/* k-Wave's GPU binary: the loader's own line names the missing library
 * (k-wave-python#536: libsz.so.2); the command and exit status alone lead
 * with a GPU simulation where no GPU works, its maintainers' first reading
 * (k-wave-python#386, #262). */
static void test_rank_kwave(void **state)
{
	(void)state;
	assert_string_equal(first_cause_of("/opt/conda/lib/python3.13/site-packages/kwave/bin/linux/kspaceFirstOrder-CUDA: "
					   "error while loading shared libraries: libsz.so.2: cannot open shared "
					   "object file: No such file or directory\n",
					   NULL),
			    "explain.apps.kwave_binary_deps");
	assert_string_equal(first_cause_of("Command 'OMP_PLACES=cores OMP_PROC_BIND=SPREAD /mnt/kwave/bin/linux/"
					   "kspaceFirstOrder-CUDA -i /tmp/in.h5 -o /tmp/out.h5 --p_raw -s 1' returned "
					   "non-zero exit status 1.\n",
					   NULL),
			    "explain.apps.kwave_gpu_no_device");
}

/* Blender's "Found no Cycles device of the specified type": no GPU where
 * Blender runs leads (blender-colab#20, blenderGoogleGPU#5: a Colab CPU
 * runtime), also where a script's OptiX fallback precedes it. */
static void test_rank_cycles_no_device(void **state)
{
	(void)state;
	assert_string_equal(first_cause_of("Failed to enable OPTIX, falling back to CUDA\n"
					   "Error: Found no Cycles device of the specified type\n",
					   NULL),
			    "explain.apps.cycles_no_gpu_here");
	assert_string_equal(first_cause_of("Read blend: \"/nix/store/x/scene.blend\"\n"
					   "Error: Found no Cycles device of the specified type\n",
					   NULL),
			    "explain.apps.cycles_build_no_gpu");
}

/* Slurm's "Invalid generic resource (gres) specification": a request the
 * cluster does not declare leads (NeMo-Framework-Launcher#72), a step
 * created from inside another job's allocation where the paste shows it
 * (recOrder#482, waveorder#201). */
static void test_rank_slurm_gres(void **state)
{
	(void)state;
	assert_string_equal(first_cause_of("OSError: sbatch: error: Batch job submission failed: "
					   "Invalid generic resource (gres) specification\n",
					   NULL),
			    "explain.containers.slurm_gres_not_configured");
	assert_string_equal(first_cause_of("srun: error: Unable to create step for job 16413634: "
					   "Invalid generic resource (gres) specification\n",
					   NULL),
			    "explain.containers.slurm_gres_inherited");
}

/* A Vulkan device lost in any program's words: on a Windows log Windows'
 * reset of the GPU (TDR) leads, elsewhere the general reading (a driver's
 * regression or a timeout; the kernel log's Xid natively). */
static void test_rank_vk_device_lost(void **state)
{
	(void)state;
	const char *vk = "Failed to acquire fence: vkQueueSubmit VK_ERROR_DEVICE_LOST\n";
	assert_string_equal(first_cause_of(vk, "windows"), "explain.cuda.tdr_windows");
	assert_string_equal(first_cause_of(vk, "native"), "explain.apps.vk_device_lost");
	assert_string_equal(first_cause_of(vk, "container"), "explain.apps.vk_device_lost");
	assert_string_equal(first_cause_of(vk, NULL), "explain.apps.vk_device_lost");
}

/* NVENC refusing its encoder: the presets drivers from 590 on dropped lead;
 * a feature the GPU's encoder lacks, named next to it, leads instead. */
static void test_rank_nvenc_init(void **state)
{
	(void)state;
	assert_string_equal(first_cause_of("[Wayland] Failed to init NVENC: Failed to initialize encoder.\n",
					   NULL),
			    "explain.apps.nvenc_legacy_preset");
	assert_string_equal(first_cause_of("[hevc_nvenc @ 0x55] InitializeEncoder failed: invalid param (8)\n"
					   "10 bit encode not supported\n",
					   "native"),
			    "explain.apps.nvenc_setting_unsupported");
}

/* CUDA's "a PTX JIT compilation failed" next to ptxas's "requires .target
 * sm_NN or higher": the code needs a newer GPU than this one, not a newer
 * driver (hashcat on a Kepler sm_30 GPU). */
static void test_rank_ptx_needs_target(void **state)
{
	(void)state;
	assert_string_equal(first_cause_of("cuLinkAddData(): a PTX JIT compilation failed\n"
					   "ptxas application ptx input, line 412; error   : Instruction 'shf.l' "
					   "requires .target sm_32 or higher\n",
					   NULL),
			    "explain.cuda.ptx_target_too_new");
}

/* A kernel launch that fails after the machine slept: the nvidia_uvm
 * module first, from pastes of several programs (CuPy: cupy#7774,
 * Ultralytics/PyTorch: ultralytics#7716); the same message with no word of
 * a suspend stays a program's kernel fault (pytorch#74235). */
static void test_rank_suspend(void **state)
{
	(void)state;
	assert_string_equal(first_cause_of(">>> cupy.sin(30)\n"
					   "cupy_backends.cuda.api.runtime.CUDARuntimeError: "
					   "cudaErrorLaunchFailure: unspecified launch failure\n"
					   "I get cupy error after my laptop goes to sleep or hibernation.\n",
					   NULL),
			    "explain.host.uvm_bad_state");
	assert_string_equal(first_cause_of("RuntimeError: CUDA error: unspecified launch failure\n\n"
					   "the error happen if i suspend my device and try to run "
					   "the script , but if i repoot my device the error solved !\n",
					   NULL),
			    "explain.host.uvm_bad_state");
	assert_string_equal(first_cause_of("RuntimeError: CUDA error: unspecified launch failure\n"
					   "CUDA kernel errors might be asynchronously reported at some "
					   "other API call, so the stacktrace below might be incorrect.\n",
					   NULL),
			    "explain.cuda.kernel_fault");
	/* on WSL there is no nvidia_uvm module to reload */
	assert_string_not_equal(first_cause_of("RuntimeError: CUDA error: unspecified launch failure\n"
					       "after I suspend the laptop\n", "wsl2"),
				"explain.host.uvm_bad_state");
}

/* CUDA's initialization error (3): the driver's own reading first; a fork
 * leads where the paste shows workers (PyTorch's DataLoader), the open
 * kernel modules' nvidia_uvm HMM failure on a native log that names the
 * open modules (open-gpu-kernel-modules#947, #901). */
static void test_rank_init_error(void **state)
{
	(void)state;
	assert_string_equal(first_cause_of("ERROR: CUDA error: initialization error, line 299\n", NULL),
			    "cuda.init.not_initialized");
	assert_string_equal(first_cause_of("RuntimeError: CUDA error: initialization error\n"
					   "  File \"torch/utils/data/_utils/worker.py\", line 308, "
					   "in _worker_loop\n", NULL),
			    "explain.cuda.fork");
	const char open[] = "Calls to cuInit() fail with error 3 (CUDA_ERROR_NOT_INITIALIZED) "
			    "with the open kernel modules; the proprietary driver works.\n";
	assert_string_equal(first_cause_of(open, "native"), "explain.kmod.uvm_hmm_open");
	/* rare: on a native log without those words, the general reading */
	assert_string_equal(first_cause_of("cu->cuInit(0) failed -> CUDA_ERROR_NOT_INITIALIZED\n",
					   "native"),
			    "cuda.init.not_initialized");
	/* and never on WSL's */
	assert_string_not_equal(first_cause_of(open, "wsl2"), "explain.kmod.uvm_hmm_open");
}

/* modprobe's "Module nvidia not found": natively no module for the running
 * kernel (a kernel update the module was not built for); on WSL the myth. */
static void test_rank_module_not_found(void **state)
{
	(void)state;
	assert_string_equal(first_cause_of("Startup `modprobe: FATAL: Module nvidia not found in "
					   "directory /lib/modules/6.8.0-1015-aws`\n", "native"),
			    "explain.kmod.no_module_for_kernel");
	assert_string_equal(first_cause_of("modprobe: FATAL: Module nvidia not found in directory "
					   "/lib/modules/5.15.79.1-microsoft-standard-WSL2\n", "wsl2"),
			    "explain.myth.modprobe_nvidia");
}

/* A GPU reset refused while a client holds the GPU; CUDA's peer-mapping
 * limit in NCCL's words; NCCL's cuMem-backed SHM transport named by its
 * source file (transport/shm.cc) before NCCL_P2P_DISABLE. */
static void test_rank_native_gpu_ops(void **state)
{
	(void)state;
	assert_string_equal(first_cause_of("The following GPUs could not be reset:\n"
					   "  GPU 00000000:1A:00.0: In use by another client\n",
					   "native"),
			    "explain.nvml.reset_gpu_in_use");
	assert_string_equal(first_cause_of("ubuntu:33207:33207 [0] allocator.cc:79 NCCL WARN Cuda "
					   "failure 711 'peer mapping resources exhausted'\n",
					   NULL),
			    "explain.cuda.too_many_peers");
	assert_string_equal(first_cause_of("h:774:854 [0] transport/shm.cc:590 NCCL WARN Cuda failure "
					   "217 'peer access is not supported between these two "
					   "devices'\n", NULL),
			    "explain.nccl.cumem_host_peer");
	assert_string_equal(first_cause_of("torch.distributed.DistBackendError: NCCL error: "
					   "peer access is not supported between these two "
					   "devices\n", NULL),
			    "explain.nccl.p2p");
}

/* Mesa's lavapipe warning: Vulkan lists its CPU device. On a WSL log,
 * Mesa's missing dzn driver leads (WSL#7790, Fedora-Remix-for-WSL#188);
 * elsewhere, or with the platform unknown, the general reading (Godot#66359:
 * no GPU Vulkan driver) and no WSL cause. */
static void test_rank_lavapipe(void **state)
{
	(void)state;
	const char paste[] = "vulkaninfo --summary\n"
			     "WARNING: lavapipe is not a conformant vulkan implementation, "
			     "testing use only.\n";
	assert_string_equal(first_cause_of(paste, "wsl2"), "explain.libs.wsl_vulkan_no_dzn");
	assert_string_equal(first_cause_of(paste, "native"), "explain.libs.lavapipe_listed");
	assert_string_equal(first_cause_of(paste, NULL), "explain.libs.lavapipe_listed");
}

/* cv2 failing to import on Windows where the paste shows a CUDA build of
 * OpenCV: the CUDA/cuDNN DLLs Python 3.8+ does not look for on PATH lead
 * (opencv#16500, opencv#25689), ahead of the Visual C++ runtime reading,
 * with the Windows platform read from the paste or unknown. */
static void test_rank_opencv_cuda_dll(void **state)
{
	(void)state;
	const char path[] = "Can't load cv2 even when C:\\Program Files\\NVIDIA GPU Computing "
			    "Toolkit\\CUDA\\v10.2\\bin is in PATH\n"
			    "ImportError: DLL load failed while importing cv2: The specified "
			    "module could not be found.\n";
	const char init[] = "Building OpenCV for Python with Cuda 12.5 and cuDNN 9.1.1\n"
			    "ImportError: DLL load failed while importing cv2: A dynamic link "
			    "library (DLL) initialization routine failed.\n";
	assert_string_equal(first_cause_of(path, "windows"), "explain.frameworks.opencv_cuda_dll_windows");
	assert_string_equal(first_cause_of(path, NULL), "explain.frameworks.opencv_cuda_dll_windows");
	assert_string_equal(first_cause_of(init, "windows"), "explain.frameworks.opencv_cuda_dll_windows");
}

/* A kernel that ran too long: on a log that shows the GPU drives the
 * display, the Linux driver's run-time limit (numba#9381; picongpu#2704),
 * on WSL Windows' TDR; natively it is the only reading that applies. */
static void test_rank_display_watchdog(void **state)
{
	(void)state;
	const char numba[] = "Unexpected \"CUDA error: the launch timed out and was terminated\" or "
			     "`CUDA_ERROR_LAUNCH_TIMEOUT`\n\nYes, this is just my main graphics card "
			     "(NVIDIA GeForce GTX 980). I also noticed that when running with "
			     "`CUDA_LAUNCH_BLOCKING=1` my display doesn't really update any more\n";
	assert_string_equal(first_cause_of(numba, NULL), "explain.host.display_watchdog");
	assert_string_equal(first_cause_of(numba, "wsl2"), "explain.cuda.tdr");
	const char picon[] = "alpaka/include/alpaka/event/EventCudaRt.hpp(195)\n'ret = cudaEventQuery( "
			     "event.m_spEventImpl->m_CudaEvent)' returned error  : "
			     "'cudaErrorLaunchTimeout': 'the launch timed out and was terminated'!\n";
	assert_string_equal(first_cause_of(picon, "native"), "explain.host.display_watchdog");
	/* the message alone, platform unknown: no platform's advice is lifted */
	assert_string_not_equal(first_cause_of(picon, NULL), "explain.host.display_watchdog");
}

/* Host RAM that ran out while a model loaded: where the paste shows it
 * (PyTorch's DefaultCPUAllocator, Ollama's "requires more system memory"),
 * the GPU's memory does not lead (ollama#5958: a 40 GB model, 8 GB of RAM);
 * llama.cpp's buffer message alone keeps the GPU's reading first. */
static void test_rank_host_ram_model_load(void **state)
{
	(void)state;
	const char ggml[] = "Error: llama runner process has terminated: error loading model: "
			    "unable to allocate backend buffer\n";
	assert_string_equal(first_cause_of(ggml, NULL), "explain.cuda.vram_oom");
	const char ram[] = "Error: llama runner process has terminated: error loading model: "
			   "unable to allocate backend buffer\n"
			   "time=2024-08-01T10:00:00.000Z level=WARN source=server.go:136 "
			   "msg=\"model requires more system memory (39.2 GiB) than is available (7.1 GiB)\"\n";
	assert_string_equal(first_cause_of(ram, NULL), "explain.memory.host_ram");
	const char cpu[] = "RuntimeError: [enforce fail at alloc_cpu.cpp:117] data. DefaultCPUAllocator: "
			   "not enough memory: you tried to allocate 52428800 bytes.\n";
	assert_string_equal(first_cause_of(cpu, NULL), "explain.memory.host_ram");
	assert_string_equal(first_cause_of(cpu, "wsl2"), "explain.memory.host_ram");
}

/* An application's own "no GPU, running on the CPU" line: the read-only look
 * whether the driver sees a GPU leads (nvidia-smi; on a Windows log
 * Windows' own reading); ComfyUI portable's launcher hint, printed only on
 * Windows, reads first as a driver older than its CUDA (ComfyUI#10518,
 * ComfyUI-Easy-Install#88). */
static void test_rank_app_no_gpu_cpu_fallback(void **state)
{
	(void)state;
	/* the wording several programs print (their sources' strings) */
	const char kobold[] = "Warning: CUDA was not detected, falling back to CPU\n";
	assert_string_equal(first_cause_of(kobold, NULL), "explain.cuda.no_device_any");
	assert_string_equal(first_cause_of(kobold, "native"), "explain.cuda.no_device_any");
	assert_string_equal(first_cause_of(kobold, "windows"), "explain.host.no_gpu_windows");
	const char comfy[] = "If you see this and ComfyUI did not start, try updating your Nvidia drivers.\n";
	assert_string_equal(first_cause_of(comfy, NULL), "explain.host.windows_driver_too_old");
	assert_string_equal(first_cause_of(comfy, "windows"), "explain.host.windows_driver_too_old");
}

/* nvidia-smi's "Unable to determine the device handle for GPU ...: Unknown
 * Error": natively (and in a container there) the GPU stopped answering (fell off the bus,
 * open-gpu-kernel-modules#387, #507), on WSL the Windows driver's
 * readings; with the platform unknown no WSL step leads, and the kernel's
 * Xid line in the paste lifts the native reading. Its first step only looks. */
static void test_rank_smi_device_handle(void **state)
{
	(void)state;
	const char plain[] = "Unable to determine the device handle for GPU 0000:0B:00.0: Unknown Error\n";
	const char xid[] = "$ nvidia-smi\n"
			   "Unable to determine the device handle for GPU 0000:0B:00.0: Unknown Error\n"
			   "[ 5107.644336] NVRM: Xid (PCI:0000:0b:00): 79, GPU has fallen off the bus.\n";
	assert_string_equal(first_cause_of(plain, "native"), "explain.host.gpu_off_bus");
	assert_string_equal(first_cause_of(xid, NULL), "explain.host.gpu_off_bus");
	const char *on_wsl = first_cause_of(plain, "wsl2");
	assert_true(!strcmp(on_wsl, "host.driver.tcc") || !strcmp(on_wsl, "host.driver.too_old_wsl"));
	/* platform unknown: no WSL cause first */
	const char *unknown = first_cause_of(plain, NULL);
	const struct kb_entry *u = kb_find(unknown);
	assert_non_null(u);
	assert_false(u->platform && kb_applies(u, "wsl2") && !kb_applies(u, "native"));

	/* natively its first step reads the kernel log, the reboot comes last */
	const struct kb_entry *e = kb_find("explain.host.gpu_off_bus");
	assert_non_null(e);
	assert_true(kb_applies(e, "native") && kb_applies(e, "container"));
	struct rank_platform pf = { .kind = "native", .established = true, .from = "text" };
	struct cause_rank r = { .e = e, .v = V_UNCHECKED };
	struct finding_view fv;
	finding_expand(&fv, e, NULL, NULL);
	order_fixes(&fv, &r, &pf);
	assert_true(fv.nfix >= 2);
	assert_true(fix_only_looks(fv.fix[0]));
	assert_non_null(strstr(fv.fix[0], "dmesg"));
	assert_true(fix_changes_system(fv.fix[fv.nfix - 1]));
	finding_view_release(&fv);
	/* on WSL and on a Windows log it does not apply */
	assert_false(kb_applies(e, "wsl2"));
	assert_false(kb_applies(e, "windows"));
}

/* A Hyper-V guest given the GPU by paravirtualisation, with dxgkrnl built
 * by DKMS (oneclick-gpu-pv#8): its dxg lines do not make it WSL, so no WSL or
 * Windows driver-model step leads; the guest's own reading (its copied
 * driver files, its dxgkrnl: a look at dmesg first) leads where the paste
 * shows the out-of-tree module, the question of the platform without it. */
static void test_rank_gpupv_guest(void **state)
{
	(void)state;
	const char guest[] = "The dkms module compiles fine, `dmesg | grep dx` shows\n"
			     "[    2.404359] dxgkrnl: loading out-of-tree module taints kernel.\n"
			     "[    2.404372] dxgkrnl: module verification failed: signature and/or "
			     "required key missing - tainting kernel\n"
			     "[    2.410266] hv_vmbus: registering driver dxgkrnl\n"
			     "and `nvidia-smi` shows\n"
			     "Failed to initialize NVML: GPU access blocked by the operating system\n"
			     "Failed to properly shut down NVML: GPU access blocked by the operating "
			     "system\n";
	struct text_platform tp;
	text_platform_read(guest, sizeof guest - 1, &tp);
	assert_null(tp.kind);
	assert_string_equal(first_cause_of(guest, tp.kind), "explain.nvml.gpupv_guest");
	const char bare[] = "Failed to initialize NVML: GPU access blocked by the operating system\n";
	assert_string_equal(first_cause_of(bare, NULL), "explain.nvml.os_blocked_any");
	assert_string_equal(first_cause_of(bare, "native"), "nvml.smi.native_os_blocked");
	/* the same lines from WSL itself (no out-of-tree module) stay WSL's */
	const char wsl[] = "[    2.410266] hv_vmbus: registering driver dxgkrnl\n"
			   "Failed to initialize NVML: GPU access blocked by the operating system\n";
	text_platform_read(wsl, sizeof wsl - 1, &tp);
	assert_string_equal(tp.kind, "wsl2");
}

/* Ollama's runner ended: the signal its exit status names picks the reading.
 * SIGILL is the CPU refusing an instruction of the build (no AVX/AVX2/
 * AVX-512; ollama#10977), not the GPU; "signal: killed" the kernel's OOM
 * killer after RAM ran out; CUDA's own "an illegal instruction was
 * encountered" is a GPU fault and no CPU reading; a bare exit status keeps
 * the general reading (read the lines before it). */
static void test_rank_ollama_runner_signal(void **state)
{
	(void)state;
	assert_string_equal(first_cause_of("SIGILL: illegal instruction\n"
					   "Error=\"llama runner process has terminated: exit status 2\"\n",
					   "native"),
			    "explain.apps.cpu_instruction_missing");
	assert_string_equal(first_cause_of("llama runner process no longer running\" sys=132 "
					   "string=\"signal: illegal instruction (core dumped)\n",
					   NULL),
			    "explain.apps.cpu_instruction_missing");
	assert_string_equal(first_cause_of("Error: llama runner process has terminated: signal: killed\n",
					   "native"),
			    "explain.perf.host_oom");
	assert_string_equal(first_cause_of("CUDA error: an illegal instruction was encountered\n"
					   "Error: llama runner process has terminated: exit status 2\n",
					   "native"),
			    "explain.cuda.kernel_illegal_instruction");
	assert_string_equal(first_cause_of("Error: llama runner process has terminated: exit status 2\n",
					   "container"),
			    "explain.apps.ollama_runner");
}

/* TensorRT reports cuInit's code by number ("CUDA initialization failure
 * with error: N", its 35 and 100 in explain-runtime.kb's threads): a code
 * with a reading of its own is read by it, whatever program printed it */
static void test_trt_init_code_by_number(void **state)
{
	(void)state;
	static const struct {
		const char *code, *sig;
	} c[] = {
		{"500", "explain.sig.named_symbol_500"},
		{"999", "explain.sig.cuda_unknown"},
		{"802", "explain.sig.system_not_ready"},
		{"35", "explain.sig.rt_trt_init_35"},
		{"100", "explain.sig.rt_trt_init_100"},
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		char text[256];
		snprintf(text, sizeof text,
			 "[TRT] [E] 6: CUDA initialization failure with error: %s. Please check your "
			 "CUDA installation\n",
			 c[i].code);
		struct explain_scan s;
		scan_text(&s, text);
		assert_true(found(&s, c[i].sig));
		explain_scan_release(&s);
	}
	/* another number is no such code: 5000 is not 500 */
	struct explain_scan s;
	scan_text(&s, "CUDA initialization failure with error: 5000\n");
	assert_false(found(&s, "explain.sig.named_symbol_500"));
	explain_scan_release(&s);
}

/* readlink() on WSL's driver libraries, which are plain copies: EINVAL in
 * Python's and Go's words reads as the program's assumption, not a missing
 * library; the same error on another path is no GPU reading */
static void test_wsl_lib_readlink(void **state)
{
	(void)state;
	assert_string_equal(first_cause_of("    real_lib = os.readlink(loc)\n"
					   "OSError: [Errno 22] Invalid argument: "
					   "'/usr/lib/wsl/lib/libcuda.so.1'\n",
					   NULL),
			    "explain.libs.wsl_lib_readlink");
	struct explain_scan s;
	scan_text(&s, "readlink /usr/lib/wsl/lib/libnvidia-ml.so.1: invalid argument\n");
	assert_true(found(&s, "explain.sig.wsl_lib_readlink"));
	explain_scan_release(&s);
	scan_text(&s, "OSError: [Errno 22] Invalid argument: '/usr/lib/x86_64-linux-gnu/libz.so.1'\n"
		      "readlink /etc/alternatives/java: invalid argument\n");
	assert_int_equal(s.nfound, 0);
	explain_scan_release(&s);
}

/* The NVIDIA module that cannot load because another driver holds the GPU:
 * the kernel's "already bound to NovaCore" puts that first (Olares#3963,
 * the runfile on Ubuntu 26.04); the installer's own boilerplate, which
 * names nouveau among the possible reasons, is no such evidence
 * (Bumblebee#932: the general reading, read the log). */
static void test_rank_other_driver(void **state)
{
	(void)state;
	assert_string_equal(first_cause_of("ERROR: Unable to load the kernel module 'nvidia.ko'.\n"
					   "-> Kernel module load error: No such device\n"
					   "[  201.910514] NVRM: GPU 0000:01:00.0 is already bound to NovaCore.\n"
					   "[  201.913648] NVRM: No NVIDIA devices probed.\n", NULL),
			    "explain.host.other_driver_bound");
	assert_string_equal(first_cause_of("ERROR: Unable to load the kernel module 'nvidia.ko'.  This "
					   "happens most frequently when this kernel module was built "
					   "against the wrong or improperly configured kernel sources, with "
					   "a version of gcc that differs from the one used to build the "
					   "target kernel, or if a driver such as rivafb, nvidiafb, or "
					   "nouveau is present and prevents the NVIDIA kernel module from "
					   "obtaining ownership of the NVIDIA graphics device(s)\n"
					   "-> Kernel module load error: No such device\n", NULL),
			    "explain.wide.module_build");
}

/* Docker's "could not select device driver" where the paste says the
 * toolkit is installed: the daemon that does not use it first, from the
 * user's words (gzdev#97, rootless docker) or dpkg's listing
 * (nvidia-container-toolkit#854); the message alone stays "install it". */
static void test_rank_docker_installed(void **state)
{
	(void)state;
	assert_string_equal(first_cause_of("docker: Error response from daemon: could not select device "
					   "driver \"\" with capabilities: [[gpu]]\n\n"
					   "Run 'docker run --help' for more information\n"
					   "Extra info:\nI have already installed `nvidia-container-toolkit` "
					   "on this machine!\n", NULL),
			    "explain.containers.docker_unconfigured");
	assert_string_equal(first_cause_of("$ dpkg -l | grep nvidia-container-toolkit\n"
					   "ii  nvidia-container-toolkit                      1.17.3-1"
					   "                                 amd64        NVIDIA Container "
					   "toolkit\n$ docker run --rm --gpus all nvidia/cuda nvidia-smi\n"
					   "docker: Error response from daemon: could not select device "
					   "driver \"\" with capabilities: [[gpu]].\n", NULL),
			    "explain.containers.docker_unconfigured");
	/* the runtime's own --version output shows it installed
	 * (nvidia-container-toolkit#814: Docker Desktop's context was current) */
	assert_string_equal(first_cause_of("docker: Error response from daemon: could not select device "
					   "driver \"\" with capabilities: [[gpu]].\n\n"
					   "docker --version\nDocker version 27.3.1, build ce12230\n\n"
					   "nvidia-container-runtime --version\n"
					   "NVIDIA Container Runtime version 1.17.2\n"
					   "commit: fa66e4cd562804509055e44a88f666673e6d27c0\n", NULL),
			    "explain.containers.docker_unconfigured");
	assert_string_equal(first_cause_of("docker: Error response from daemon: could not select device "
					   "driver \"\" with capabilities: [[gpu]].\n", NULL),
			    "containers.docker.no_toolkit");
}

/* The device plugin failing where the paste says an earlier release works
 * on the same node (k8s-device-plugin#1469): the release first, not a
 * runtime reconfiguration on a guess; the message alone keeps the runtime. */
static void test_rank_k8s_plugin_release(void **state)
{
	(void)state;
	assert_string_equal(first_cause_of("The failed log states `error starting plugins: error getting "
					   "plugins: unable to create plugins: failed to construct resource "
					   "managers: invalid device discovery strategy` but both the "
					   "working and failed versions have `\"deviceDiscoveryStrategy\": "
					   "\"auto\"`.\n", NULL),
			    "explain.containers.k8s_plugin_release");
	assert_string_equal(first_cause_of("I0523 main.go:256] No devices found. Waiting indefinitely.\n",
					   NULL),
			    "explain.containers.k8s_runtime");
}

/* A GPU out of memory in a program built on llama.cpp: the program's layer
 * offload (Ollama's estimate, llama.cpp's -ngl) first, from pastes of
 * several programs: Ollama on Windows (ollama#3460), Ollama in Docker
 * (ollama#8447), Jan's llama.cpp backend (jan#8181); PyTorch's own OOM
 * stays the full GPU (the program's batch or model). */
static void test_rank_offload_oom(void **state)
{
	(void)state;
	const char ollama_win[] = "CUDA error: out of memory current device: 0, in function alloc at "
				  "C:\\a\\ollama\\ollama\\llm\\llama.cpp\\ggml-cuda.cu:445 "
				  "cudaMalloc((void **) &ptr, look_ahead_size) GGML_ASSERT: "
				  "C:\\a\\ollama\\ollama\\llm\\llama.cpp\\ggml-cuda.cu:193: "
				  "!\"CUDA error\"\n";
	assert_string_equal(first_cause_of(ollama_win, NULL), "explain.apps.ggml_offload_oom");
	assert_string_equal(first_cause_of(ollama_win, "windows"), "explain.apps.ggml_offload_oom");
	assert_string_equal(first_cause_of("ollama  | ggml_backend_cuda_buffer_type_alloc_buffer: allocating "
					   "35533.34 MiB on device 0: cudaMalloc failed: out of memory\n"
					   "ollama  | llama_model_load: error loading model: unable to "
					   "allocate CUDA0 buffer\n",
					   NULL),
			    "explain.apps.ggml_offload_oom");
	assert_string_equal(first_cause_of("bug: GGML backend encountered an error [52509] "
					   "0.02.396.005 E CUDA error: out of memory\n",
					   NULL),
			    "explain.apps.ggml_offload_oom");
	assert_string_equal(first_cause_of("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
					   "1.02 GiB. GPU 0 has a total capacity of 23.52 GiB of which "
					   "115.69 MiB is free.\n",
					   NULL),
			    "explain.cuda.vram_oom");
}

/* Error 804 from a CUDA newer than the driver on a GPU without forward
 * compatibility: the driver's age first, the compat directory after it,
 * from pastes of several programs in container images (AI Horde's worker,
 * horde-worker-reGen#349; vLLM, vllm#4940; text-generation-inference,
 * text-generation-inference#2001), on any platform. */
static void test_rank_compat_804(void **state)
{
	(void)state;
	const char *pastes[] = {
		"Error 804: forward compatibility was attempted on non supported HW\n",
		"I use the command above to test and occur \"RuntimeError: Unexpected error from "
		"cudaGetDeviceCount(). Did you run some cuda functions before calling "
		"NumCudaDevices() that might have already set an error? Error 804: forward "
		"compatibility was attempted on non supported HW\"\n",
		"/opt/conda/lib/python3.10/site-packages/torch/cuda/__init__.py:138: UserWarning: CUDA "
		"initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda "
		"functions before calling NumCudaDevices() that might have already set an error? "
		"Error 804: forward compatibility was attempted on non supported HW\n",
	};
	const char *kinds[] = { NULL, "container", "native", "wsl2" };
	for (size_t i = 0; i < sizeof pastes / sizeof pastes[0]; i++)
		for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
			assert_string_equal(first_cause_of(pastes[i], kinds[k]),
					    "explain.cuda.compat_driver_too_old");
}

/* CUDA's unknown error in a container: the container's view of the host
 * driver first (a CDI spec or container older than a driver update), from
 * pastes of several programs (llama.cpp's ggml in Ollama, ollama#15400;
 * PyTorch in a Stable Diffusion image after an apt upgrade,
 * stable-diffusion-webui-docker#388); the same text from native Linux keeps
 * the kernel module's reading. */
static void test_rank_container_unknown(void **state)
{
	(void)state;
	const char ggml[] = "I have encountered the same issue `ggml_cuda_init: failed to initialize "
			    "CUDA: unknown error`\n\nDriver Version: 590.48.01\nCUDA Version: 13.1\n"
			    "nvidia-container-toolkit 1.19.0-1\n";
	struct text_platform tp;
	text_platform_read(ggml, strlen(ggml), &tp);
	assert_non_null(tp.kind);
	assert_string_equal(tp.kind, "container");
	assert_string_equal(first_cause_of(ggml, tp.kind), "explain.containers.driver_changed_under");
	const char torch[] = "webui-docker-auto-1  | RuntimeError: CUDA unknown error - this may be due "
			     "to an incorrectly set up environment, e.g. changing env variable "
			     "CUDA_VISIBLE_DEVICES after program start. Setting the available devices "
			     "to be zero.\n";
	assert_string_equal(first_cause_of(torch, "container"), "explain.containers.driver_changed_under");
	assert_string_not_equal(first_cause_of(torch, "native"), "explain.containers.driver_changed_under");
	assert_string_not_equal(first_cause_of(torch, NULL), "explain.containers.driver_changed_under");
}

/* An image's unmet CUDA requirement: on a Jetson (its words in the paste) the
 * board's L4T driver reading leads, else the general "update the driver" one
 * (apollo#15128, jetson-containers#1459). */
static void test_rank_require_cuda_jetson(void **state)
{
	(void)state;
	const char jetson[] = "How to pull the docker images on jetson orin?\n"
			      "Error: Error response from daemon:failed to create task for container: "
			      "failed to create shim task:OCI runtime create failed: failed to create "
			      "NVIDIA Container Runtime:failed to construct OCI spec modifier:requirements "
			      "not met:unsatisfied condition:cuda>=11.4(cuda=10.2): unknown.\n";
	assert_string_equal(first_cause_of(jetson, "container"), "explain.containers.require_cuda_jetson");
	assert_string_equal(first_cause_of(jetson, NULL), "explain.containers.require_cuda_jetson");
	const char pc[] = "docker: Error response from daemon: failed to create task for container: "
			  "failed to create shim task: OCI runtime create failed: failed to create NVIDIA "
			  "Container Runtime: failed to construct OCI spec modifier: requirements not met: "
			  "unsatisfied condition: cuda>=12.9 (cuda=12.6): unknown\n";
	assert_string_equal(first_cause_of(pc, "container"), "explain.containers.require_cuda");
	assert_string_equal(first_cause_of(pc, NULL), "explain.containers.require_cuda");
}

/* NVML's "Insufficient Permissions": a container's device files lead on a
 * container's log (podman, nvidia-container-cli); elsewhere the general
 * reading (a change of a GPU setting needs root, or this user may not open
 * the GPU) leads, not a container's cause (NVML-GPU-Control#12,
 * nvidia-docker#495). */
static void test_rank_nvml_no_permission(void **state)
{
	(void)state;
	const char podman[] = "$ podman run --rm --device nvidia.com/gpu=all ubuntu nvidia-smi -L\n"
			      "Failed to initialize NVML: Insufficient Permissions\n";
	struct text_platform tp;
	text_platform_read(podman, strlen(podman), &tp);
	assert_non_null(tp.kind);
	assert_string_equal(tp.kind, "container");
	assert_string_equal(first_cause_of(podman, tp.kind), "explain.containers.nvml_permissions");
	assert_string_equal(first_cause_of(podman, NULL), "explain.nvml.user_refused");
	const char py[] = "NVMLError_NoPermission                    Traceback (most recent call last)\n"
			  "File ~/venv/lib/python3.11/site-packages/distributed/deploy/spec.py:330\n";
	assert_string_equal(first_cause_of(py, NULL), "explain.nvml.user_refused");
	assert_string_equal(first_cause_of(py, "native"), "explain.nvml.user_refused");
	const char smi[] = "$ nvidia-smi -i 0 -pl 120\n"
			   "Failed to set power management limit for GPU 00000000:01:00.0: Insufficient Permissions\n";
	assert_string_equal(first_cause_of(smi, NULL), "explain.nvml.user_refused");
	assert_string_equal(first_cause_of(smi, "container"), "explain.nvml.user_refused");
}

/* CUDA's unknown error from a Flatpak application: the host's missing
 * nvidia_uvm leads where the paste names the sandbox (obs-studio#11381,
 * flathub Blender#147); without it, the general reading does. */
static void test_rank_unknown_flatpak(void **state)
{
	(void)state;
	const char flatpak[] = "1. Install OBS Studio 30.2.3 from official Flatpak Repo\n"
			       "init_cuda_ctx: CUDA call \"cu->cuInit(0)\" failed with CUDA_ERROR_UNKNOWN "
			       "(999): unknown error\n";
	assert_string_equal(first_cause_of(flatpak, NULL), "explain.bridge.uvm_node_sandbox");
	assert_string_equal(first_cause_of(flatpak, "native"), "explain.bridge.uvm_node_sandbox");
	const char plain[] = "init_cuda_ctx: CUDA call \"cu->cuInit(0)\" failed with CUDA_ERROR_UNKNOWN "
			     "(999): unknown error\n";
	assert_string_not_equal(first_cause_of(plain, NULL), "explain.bridge.uvm_node_sandbox");
	assert_string_not_equal(first_cause_of(plain, "native"), "explain.bridge.uvm_node_sandbox");
	assert_string_not_equal(first_cause_of(flatpak, "wsl2"), "explain.bridge.uvm_node_sandbox");
}

/* NCCL's "unhandled system error" is a summary: the WARN line before it
 * leads where the paste has it (nccl-tests on WSL: the pci_bus path, NCCL's
 * own issues nccl#442; a VM's, nccl#573); alone (PyTorch's summary, as tests/explain/
 * frameworks.log has it), NCCL's own advice to read that line comes first
 * off WSL, WSL's old-NCCL reading on WSL. */
static void test_rank_nccl_summary(void **state)
{
	(void)state;
	/* the pci_bus line leads; its WSL reading (NCCL too old for WSL2)
	 * on a WSL log, the general one (a VM or container's /sys, nccl#573)
	 * where the text does not say where it ran */
	const char pci[] = "DESKTOP:36629:36629 [0] NCCL INFO NCCL version 2.8.3+cuda11.1\n"
			   "DESKTOP:36629:36635 [0] graph/xml.cc:332 NCCL WARN Could not "
			   "find real path of /sys/class/pci_bus/0000:21/../../0000:21:00.0\n"
			   "DESKTOP:36629:36635 [0] NCCL INFO graph/xml.cc:469 -> 2\n"
			   "DESKTOP: Test NCCL failure common.cu:777 'unhandled system error'\n";
	assert_string_equal(first_cause_of(pci, "wsl2"), "explain.frameworks.nccl_old_wsl");
	assert_string_equal(first_cause_of(pci, NULL), "explain.nccl.pci_path_missing");
	assert_string_equal(first_cause_of(pci, "native"), "explain.nccl.pci_path_missing");
	const char torch[] = "RuntimeError: NCCL error in: ../torch/lib/c10d/ProcessGroupNCCL.cpp:911, "
			     "unhandled system error, NCCL version 2.7.8\n"
			     "ncclSystemError: System call (socket, malloc, munmap, etc) failed.\n";
	assert_string_equal(first_cause_of(torch, NULL), "explain.nccl.first_warn");
	assert_string_equal(first_cause_of(torch, "native"), "explain.nccl.first_warn");
	assert_string_equal(first_cause_of(torch, "wsl2"), "explain.frameworks.nccl_old_wsl");
}

/* The proprietary kernel module on a GPU that only the open modules drive:
 * the kernel's own sentence names the cause (open-gpu-kernel-modules#1332),
 * not the general RmInitAdapter reading. */
static void test_rank_closed_module(void **state)
{
	(void)state;
	assert_string_equal(first_cause_of("NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:2d58)\n"
					   "NVRM: installed in this system requires use of the NVIDIA "
					   "open kernel modules.\n"
					   "NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x22:0x56:1050)\n",
					   "native"),
			    "explain.kmod.closed_module_refuses_gpu");
}

/* One message, two readings told apart by the words around it (KB support:
 * and exclude:), each from a real paste. */
static void test_rank_real_pastes(void **state)
{
	(void)state;
	/* A toolkit's ptxas older than the PTX (triton#5929, tinygrad#7729)... */
	assert_string_equal(first_cause_of("ptxas C:\\Users\\JJ\\AppData\\Local\\Temp\\tmpafhfmeeh.ptx, "
					   "line 5; fatal   : Unsupported .version 8.6; current "
					   "version is '8.5'\nptxas fatal   : Ptx assembly aborted due "
					   "to errors\n", NULL),
			    "explain.toolkit.ptxas_too_old");
	/* ...and the driver's JIT linker refusing newer PTX (monodle#23) */
	assert_string_equal(first_cause_of("numba.cuda.cudadrv.driver.Linker Error: [222] Call to "
					   "cuLinkAddData results in UNKNOWN_CUDA_ERROR ptxas "
					   "application ptx input, line 9; fatal : Unsupported .version "
					   "7.3; current version is '7.1'\n", NULL),
			    "frameworks.ptx_toolchain");
	/* FlashAttention's architecture check (CMT#95) against PyTorch 2.0's
	 * is_sm80 check of its flash backward pass (pytorch#94883) */
	assert_string_equal(first_cause_of("RuntimeError: Expected is_sm8x || is_sm75 to be true, "
					   "but got false.\n", NULL),
			    "explain.frameworks.flash_attn_is_sm");
	assert_string_equal(first_cause_of("RuntimeError: Expected is_sm80 to be true, but got "
					   "false.\n", NULL),
			    "explain.frameworks.sdpa_is_sm80");
	/* CuPy's NVRTC without the runtime headers (cupy#8466), not a build
	 * that misses its include directory */
	assert_string_equal(first_cause_of("cupy\\_cuda\\cuda-12.4\\cuda_fp16.h(129): catastrophic "
					   "error: cannot open source file \"vector_types.h\"\n", NULL),
			    "explain.toolkit.nvrtc_headers");
	/* Triton's own ptxas newer than an old driver (pytorch#119054), not a
	 * program built without the GPU's architecture */
	assert_string_equal(first_cause_of("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' "
					   "raised:\nRuntimeError: Triton Error [CUDA]: device kernel "
					   "image is invalid\n", NULL),
			    "explain.toolkit.triton_ptxas_newer_than_driver");
	/* CUDA's initialization error as a package built here by pip starts
	 * (pywhispercpp#95: its wheel repair took in the CUDA libraries) */
	assert_string_equal(first_cause_of("CUDA error: initialization error\n  current device: 0, "
					   "in function ggml_cuda_init at /tmp/pip-req-build-wqj_dne6/"
					   "whisper.cpp/ggml/src/ggml-cuda.cu:187\n", NULL),
			    "explain.libs.wheel_bundled_libcuda");
	/* cuDNN 8 opening the unversioned libcuda.so: off WSL the missing
	 * link (3DINO#2), on WSL its own reading (WSL#8587) */
	const char cudnn_so[] = "Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: "
				"cannot open shared object file: No such file or directory\n";
	assert_string_equal(first_cause_of(cudnn_so, "native"), "explain.libs.unversioned_libcuda_absent");
	assert_string_equal(first_cause_of(cudnn_so, NULL), "explain.libs.unversioned_libcuda_absent");
	assert_string_equal(first_cause_of(cudnn_so, "wsl2"), "frameworks.cudnn_libcuda");
	/* 35 in a container: the image's CUDA newer than the host's driver, as
	 * usual; the container without the driver's libraries where the paste
	 * names its NVIDIA variables or UnRAID's template (docker-immich#349) */
	assert_string_equal(first_cause_of("docker run --gpus all img\nCUDA failure 35: CUDA driver "
					   "version is insufficient for CUDA runtime version\n", "container"),
			    "explain.host.driver_too_old");
	assert_string_equal(first_cause_of("CUDA failure 35: CUDA driver version is insufficient for "
					   "CUDA runtime version\nOS: UnRAID 6.12.10, NVIDIA_VISIBLE_DEVICES "
					   "in the template\n", "container"),
			    "explain.containers.no_driver_libs_35");
	/* no CUDA device in a container: it was started without the GPU
	 * (WSL#8182: --gpus=all; the Podman AI Lab's missing CDI device,
	 * podman-desktop-extension-ai-lab#3895); with no platform, the
	 * general reading first */
	const char ctr_nodev[] = "ggml_cuda_init: failed to initialize CUDA: no CUDA-capable device is detected\n";
	assert_string_equal(first_cause_of(ctr_nodev, "container"), "explain.containers.no_gpu_device");
	assert_string_equal(first_cause_of(ctr_nodev, "container-in-wsl2"), "explain.containers.no_gpu_device");
	assert_string_not_equal(first_cause_of(ctr_nodev, NULL), "explain.containers.no_gpu_device");
	assert_string_not_equal(first_cause_of(ctr_nodev, "native"), "explain.containers.no_gpu_device");
	assert_string_not_equal(first_cause_of(ctr_nodev, "wsl2"), "explain.containers.no_gpu_device");
	/* the paste's own docker run (a container's log, its platform read
	 * from the text): with no GPU asked for, that container reading leads
	 * any program's "no GPU" (llama-cpp-python#1882); with --gpus in the
	 * paste it was asked for, and the general reading leads */
	assert_string_equal(first_cause_of("$ docker run --rm app --list-gpus\nNo GPUs detected\n", "container"),
			    "explain.containers.no_gpu_device");
	assert_string_equal(first_cause_of("$ docker run --rm --gpus all app --list-gpus\nNo GPUs detected\n",
					   "container"),
			    "explain.cuda.no_device_any");
	assert_string_equal(first_cause_of("docker run -it app python x.py\nRuntimeError: No CUDA GPUs are available\n",
					   "container"),
			    "explain.containers.no_gpu_device");
	assert_string_not_equal(first_cause_of("docker run --gpus=all -it app python x.py\n"
					       "RuntimeError: No CUDA GPUs are available\n", "container"),
				"explain.containers.no_gpu_device");
	/* no CUDA device where the paste names an AMD or Intel GPU (a ROCm
	 * install, legacy-rocm-build#1910; TensorFlow's "name: Vega 20"): that
	 * vendor's reading first, on any platform; an NVIDIA name in the paste
	 * keeps it back */
	const char amd_nodev[] = "sudo amdgpu-install --usecase=rocm,hip\n"
				 "E cuda_driver.cc:266] failed call to cuInit: CUDA_ERROR_NO_DEVICE: "
				 "no CUDA-capable device is detected\n";
	assert_string_equal(first_cause_of(amd_nodev, NULL), "explain.cuda.gpu_not_nvidia");
	assert_string_equal(first_cause_of(amd_nodev, "native"), "explain.cuda.gpu_not_nvidia");
	assert_string_not_equal(first_cause_of(ctr_nodev, NULL), "explain.cuda.gpu_not_nvidia");
	assert_string_not_equal(first_cause_of("GPU 0: NVIDIA GeForce RTX 3060, driver for Radeon removed\n"
					       "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n", NULL),
				"explain.cuda.gpu_not_nvidia");
	/* Docker Desktop's "WSL environment detected" under --platform
	 * container reads as the container in WSL2 (test_rank_platform):
	 * there WSL sees no GPU (a Tesla in TCC mode), not WSL1 */
	const char no_adapters[] = "nvidia-container-cli: initialization error: WSL environment detected "
				   "but no adapters were found: unknown\n";
	assert_string_equal(first_cause_of(no_adapters, "container-in-wsl2"), "explain.host.no_nvidia_adapter");
	/* OptiX's library not found: in a container, the graphics capability
	 * (nvidia-docker#1545); elsewhere the driver's library itself */
	const char optix_lib[] = "rtx_functions.h:47 Optix Error: 'Library not found'\n";
	assert_string_equal(first_cause_of(optix_lib, "container"), "explain.containers.optix_graphics_cap");
	assert_string_equal(first_cause_of(optix_lib, "native"), "explain.host.optix_library_missing");
	/* the same failure in WSL (Helios#37, mitsuba3#1221): WSL's libraries
	 * carry no OptiX runtime; elsewhere the driver's library comes first */
	const char helios[] = "OptiX Error: Failed to load OptiX library\n"
			      "(/home/uqrarya1/Helios/plugins/radiation/src/RadiationModel.cpp:1114)\n";
	assert_string_equal(first_cause_of(helios, "wsl2"), "explain.libs.optix_wsl_missing");
	assert_string_equal(first_cause_of(helios, NULL), "explain.host.optix_library_missing");
	assert_string_equal(first_cause_of(helios, "container"), "explain.containers.optix_graphics_cap");
	/* an OptiX 6 program on a driver that dropped it (Accelerad#11) */
	assert_string_equal(first_cause_of("accelerad_rpict: internal - Error reading OptiX "
					   "library. Update your graphics driver.\n", NULL),
			    "explain.host.optix6_dropped");

	/* Fabric Manager's start that finds no NVSwitch (gpu-operator#610) is not
	 * its configuration (siderolabs/extensions#511) */
	assert_string_equal(first_cause_of("nv-fabricmanager[4177]: request to query NVSwitch device "
					   "information from NVSwitch driver failed with error:WARNING "
					   "Nothing to do [NV_WARN_NOTHING_TO_DO]\n", "native"),
			    "explain.host.fabricmanager_no_nvswitch");
	assert_string_equal(first_cause_of("<node ip>: fabric manager config file item: "
					   "FABRIC_NODE_CONFIG_FILE has an invalid value\n", "native"),
			    "explain.host.fabricmanager_config");
	/* The driver's JIT log quoted after CUDA_ERROR_UNSUPPORTED_PTX_VERSION
	 * (pynari#6, colabtools#5667): the driver's JIT and a PTX newer than it, not a ptxas */
	assert_string_equal(first_cause_of("unknown CUDA error when building module for bounds "
					   "program kernel CUDA_ERROR_UNSUPPORTED_PTX_VERSION log: ptxas "
					   "application ptx input, line 9; fatal   : Unsupported .version "
					   "8.5; current version is '8.4'\n", NULL),
			    "frameworks.ptx_toolchain");
	/* "No CUDA-capable device" from a paste with no platform marker: first
	 * the question that tells its causes apart (does the driver see a
	 * GPU? is CUDA_VISIBLE_DEVICES hiding it?), not one platform's advice
	 * (jax#28376); from a log of a known platform, its own causes lead
	 * (cuml#5624 on WSL; natively the kernel module and /dev/nvidia*) */
	const char nodev[] = "2025-04-29 09:53:32.455092: E external/xla/xla/stream_executor/cuda/"
			     "cuda_platform.cc:51] failed call to cuInit: INTERNAL: CUDA error: "
			     "Failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device "
			     "is detected\n";
	assert_string_equal(first_cause_of(nodev, NULL), "explain.cuda.no_device_any");
	assert_string_equal(first_cause_of(nodev, "native"), "cuda.init.no_device_native");
	assert_string_equal(first_cause_of(nodev, "wsl2"), "libs.loader.distro_package");
	/* The OOM killer is host RAM on any machine; WSL's memory cap leads
	 * only on WSL (ert#7797, WSL#8984) */
	const char killed[] = "[havb@be-lx139213:~]$ perl -wE 'my @xs; for (1..2**20) { push @xs, "
			      "q{a} x 2**20 }; say scalar @xs;'\nKilled\n";
	assert_string_equal(first_cause_of(killed, NULL), "explain.perf.host_oom");
	assert_string_equal(first_cause_of(killed, "native"), "explain.perf.host_oom");
	assert_string_equal(first_cause_of(killed, "wsl2"), "explain.perf.oom_killer");
	/* CUDA's unknown error on native Linux: nvidia_uvm first; on WSL it
	 * does not apply (pytorch#159954) */
	const char uvm[] = "/home/krish/miniconda3/envs/ass-test/lib/python3.10/site-packages/torch/"
			   "cuda/__init__.py:174: UserWarning: CUDA initialization: CUDA unknown "
			   "error - this may be due to an incorrectly set up environment, e.g. "
			   "changing env variable CUDA_VISIBLE_DEVICES after program start. Setting "
			   "the available devices to be zero.\n"
			   "Another fix is to `reload the kernel modules`, specifically the "
			   "`nvidia_uvm` on Linux\n";
	assert_string_equal(first_cause_of(uvm, "native"), "explain.host.uvm_bad_state");
	assert_string_not_equal(first_cause_of(uvm, "wsl2"), "explain.host.uvm_bad_state");
	/* ...and with no platform shown, the general reading (does the driver
	 * answer?) leads, not WSL's restart (pycuda#276) nor native's module
	 * reload (pytorch#88639) */
	const char unk[] = "RuntimeError: CUDA error: unknown error\n";
	assert_string_equal(first_cause_of(unk, NULL), "explain.cuda.unknown_any");
	assert_string_equal(first_cause_of(unk, "wsl2"), "cuda.init.unknown");
	assert_string_equal(first_cause_of(unk, "native"), "explain.host.uvm_bad_state");
	/* nvidia-smi's "blocked by the operating system": WSL's readings lead
	 * only on WSL (WSL#9938); natively the device nodes (gvisor#11069);
	 * with no platform shown, the reading that names both */
	const char blocked[] = "Failed to initialize NVML: GPU access blocked by the operating "
			       "system\n";
	assert_string_equal(first_cause_of(blocked, NULL), "explain.nvml.os_blocked_any");
	assert_string_equal(first_cause_of(blocked, "native"), "nvml.smi.native_os_blocked");
	assert_string_equal(first_cause_of(blocked, "container"), "nvml.smi.native_os_blocked");
	assert_string_equal(first_cause_of(blocked, "wsl2"), "host.driver.tcc");
	/* cuBLAS NOT_SUPPORTED by its code class: the call, not the setup
	 * (ComfyUI_ACE-Step#10) */
	assert_string_equal(first_cause_of("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when "
					   "calling `cublasGemmStridedBatchedEx(handle, opa, opb, "
					   "(int)m, (int)n, (int)k, (void*)&falpha, a, CUDA_R_16BF, "
					   "(int)lda, stridea, b, CUDA_R_16BF)`\n", NULL),
			    "explain.frameworks.gemm_not_supported");
	/* Mesa's D3D12 device failure in WSL: with WSL's libraries already on
	 * the loader path and a non-Debian dri path, Intel's WSL driver
	 * (IGCIT#1048); on Alpine without them, the loader path (WSL#12653) */
	assert_string_equal(first_cause_of("# LD_LIBRARY_PATH=/usr/lib/wsl/lib vainfo --display drm\n"
					   "D3D12: D3D12CreateDevice failed\n"
					   "libva error: /usr/lib/dri/d3d12_drv_video.so init failed\n", "wsl2"),
			    "explain.libs.wsl_d3d12_intel_umd");
	assert_string_equal(first_cause_of("alpine:~# vainfo --display drm\n"
					   "D3D12: failed to create device\n", "wsl2"),
			    "explain.libs.wsl_d3d12_no_device");
	/* Docker Desktop's WSL update on the in-Windows WSL (docker/for-win#14022) */
	assert_string_equal(first_cause_of("wsl update failed: a manual wsl update is required\n", NULL),
			    "explain.wslstart.inbox_wsl_old");
	/* ggml's "failed to initialize CUDA: <CUDA's reason>" is read by the
	 * reason (llama.cpp#13059) */
	struct explain_scan s;
	scan_text(&s, "ggml_cuda_init: failed to initialize CUDA: system not yet initialized\n"
		      "warning: no usable GPU found, --gpu-layers option will be ignored\n");
	assert_true(s.nfound > 0);
	assert_string_equal(s.db->sig[s.found[0]->sig].e->id, "explain.sig.system_not_ready");
	assert_false(found(&s, "explain.sig.ggml_no_devices"));
	explain_scan_release(&s);
}

/* A signature with context: words counts only where the paste shows one:
 * docker's socket error alone is an ordinary docker error (vscode-docker#4570),
 * next to the GPU runtime a GPU finding (nvidia-docker#834). */
static void test_context_words(void **state)
{
	(void)state;
	const char *line = "Got permission denied while trying to connect to the Docker daemon "
			   "socket at unix:///var/run/docker.sock: Get http://%2Fvar%2Frun%2F"
			   "docker.sock/v1.38/info: dial unix /var/run/docker.sock: connect: "
			   "permission denied\n";
	struct explain_scan s;
	scan_text(&s, line);
	assert_false(found(&s, "containers.docker.permission"));
	assert_int_equal(s.nfound, 0);
	explain_scan_release(&s);
	char both[1024];
	snprintf(both, sizeof both, "%sIt looks like nvidia-docker >= 2.0 is not installed.\n", line);
	scan_text(&s, both);
	assert_true(found(&s, "containers.docker.permission"));
	explain_scan_release(&s);
	/* the word may come before the line too, and in any case */
	snprintf(both, sizeof both, "$ docker run --GPUS all nvidia/cuda nvidia-smi\n%s", line);
	scan_text(&s, both);
	assert_true(found(&s, "containers.docker.permission"));
	explain_scan_release(&s);
}

/* ---- the knowledge base ---- */

static bool from_explain(const struct kb_entry *e)
{
	return e->file && strstr(e->file, "explain-");
}

static void test_kb_integrity(void **state)
{
	(void)state;
	const struct kb *kb = kb_builtin();
	const struct explain_db *db = explain_db_builtin();
	size_t n;
	const struct check_def *defs = registry_checks(&n);
	size_t sigs = 0;
	/* A regex with no literal to wait for makes its signature run on
	 * every line of every log: the built-in KB has none. */
	for (size_t i = 0; i < db->nalways; i++)
		fail_msg("%s: a regex with no literal key runs on every line", db->sig[db->always[i]].e->id);
	for (size_t i = 0; i < kb->n; i++) {
		const struct kb_entry *e = &kb->e[i];
		if (e->match.n || e->regex.n)
			if (e->source.n == 0)
				fail_msg("signature %s has no source", e->id);
		if (!from_explain(e))
			continue;
		if (e->source.n == 0)
			fail_msg("%s has no source", e->id);
		for (size_t j = 0; j < e->source.n; j++)
			if (strncmp(e->source.v[j], "https://", 8))
				fail_msg("%s: source is not a URL: %s", e->id, e->source.v[j]);
		for (size_t j = 0; j < e->see.n; j++)
			if (!kb_find(e->see.v[j]))
				fail_msg("%s: see: %s does not exist", e->id, e->see.v[j]);
		if (!strcmp(e->kind, "signature")) {
			sigs++;
			if (!e->match.n && !e->regex.n)
				fail_msg("signature %s has no match: or regex:", e->id);
			int si = explain_db_find(db, e->id);
			assert_true(si >= 0);
			if (db->sig[si].ncause == 0)
				fail_msg("signature %s names no cause", e->id);
			if (db->sig[si].always)
				fail_msg("signature %s has a regex without a prefilter key", e->id);
		}
		/* Portable ERE only: no GNU \b \w \d \s \< \> */
		for (size_t j = 0; j < e->regex.n; j++)
			for (const char *p = e->regex.v[j]; *p; p++)
				if (*p == '\\' && p[1] && ((p[1] >= 'a' && p[1] <= 'z') ||
							   (p[1] >= 'A' && p[1] <= 'Z') || p[1] == '<' ||
							   p[1] == '>' || (p[1] >= '0' && p[1] <= '9')))
					fail_msg("%s: non-portable escape in regex %s", e->id, e->regex.v[j]);
		/* Every check a confirm: names exists. */
		if (e->confirm) {
			const char *only = strstr(e->confirm, "--only ");
			if (only) {
				char list[256];
				snprintf(list, sizeof list, "%s", only + 7);
				list[strcspn(list, " ")] = '\0';
				char *save = NULL;
				for (char *tok = strtok_r(list, ",", &save); tok;
				     tok = strtok_r(NULL, ",", &save)) {
					size_t idx[64];
					char one[300];
					snprintf(one, sizeof one, "--only %s", tok);
					if (confirm_checks(one, defs, n, idx, 64) == 0)
						fail_msg("%s: confirm names unknown check %s", e->id, tok);
				}
			} else if (strcmp(e->confirm, "wslgpu check")) {
				fail_msg("%s: confirm is not a wslgpu check command: %s", e->id, e->confirm);
			}
		}
		if (!strcmp(e->layer, "signature") || !e->title || !*e->title)
			fail_msg("%s: bad layer or title", e->id);
	}
	if (sigs < 80)
		fail_msg("only %zu explain signatures, want at least 80", sigs);
}

/* ---- the corpus ---- */

struct corpus_case {
	char file[600];
	int line;
	char header[8200];
	struct strbuf text;
};

static bool in_list(const char *list, const char *id)
{
	size_t n = strlen(id);
	for (const char *p = list; (p = strstr(p, id)); p += n)
		if ((p == list || p[-1] == ',' || p[-1] == ' ' || p[-1] == '=') &&
		    (p[n] == '\0' || p[n] == ',' || p[n] == ' '))
			return true;
	return false;
}

static struct strbuf expected_ids = STRBUF_INIT;

static void run_case(const struct corpus_case *c, int *failures)
{
	struct explain_scan s;
	scan_text(&s, sb_str(&c->text));
	char hdr[8200];
	snprintf(hdr, sizeof hdr, "%s", c->header);
	const char *also = "";
	char *a = strstr(hdr, "also=");
	if (a) {
		also = a + 5;
		*a = '\0';
	}
	bool none = false;
	char *save = NULL;
	for (char *tok = strtok_r(hdr, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (!strcmp(tok, "none")) {
			none = true;
		} else if (tok[0] == '!') {
			if (found(&s, tok + 1)) {
				printf("%s:%d: %s matched, must not\n", c->file, c->line, tok + 1);
				(*failures)++;
			}
		} else {
			sb_addf(&expected_ids, " %s ", tok);
			if (!found(&s, tok)) {
				printf("%s:%d: %s not recognised\n", c->file, c->line, tok);
				(*failures)++;
			}
		}
	}
	for (size_t i = 0; i < s.nfound; i++) {
		const char *id = s.db->sig[s.found[i]->sig].e->id;
		if (none || (!in_list(c->header, id) && !in_list(also, id))) {
			printf("%s:%d: %s recognised but not expected (line %lu)\n", c->file, c->line,
			       id, s.found[i]->first_line);
			(*failures)++;
		}
	}
	explain_scan_release(&s);
}

/* Calls run(c, failures) for each "=== " block of each file of dir whose
 * name ends in ext; returns the number of blocks. */
static int each_block(const char *dir, const char *ext,
		      void (*run)(const struct corpus_case *c, int *failures), int *failures)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	int cases = 0;
	size_t el = strlen(ext);
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t nl = strlen(de->d_name);
		if (nl <= el || strcmp(de->d_name + nl - el, ext))
			continue;
		char path[512];
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		FILE *f = fopen(path, "rb");
		assert_non_null(f);
		char line[8192];
		struct corpus_case c = { .text = STRBUF_INIT };
		bool open_case = false;
		int lineno = 0;
		while (fgets(line, sizeof line, f)) {
			lineno++;
			if (!strncmp(line, "##", 2))
				continue;
			if (!strncmp(line, "=== ", 4)) {
				if (open_case) {
					run(&c, failures);
					cases++;
				}
				sb_reset(&c.text);
				snprintf(c.file, sizeof c.file, "%s", path);
				c.line = lineno;
				snprintf(c.header, sizeof c.header, "%s", line + 4);
				c.header[strcspn(c.header, "\r\n")] = '\0';
				open_case = true;
				continue;
			}
			if (open_case)
				sb_add(&c.text, line);
		}
		if (open_case) {
			run(&c, failures);
			cases++;
		}
		sb_release(&c.text);
		fclose(f);
	}
	closedir(d);
	return cases;
}

static void test_norm_typographic(void **state)
{
	(void)state;
	struct explain_scan s;
	scan_text(&s, "NVIDIA-SMI has failed because it couldn\xe2\x80\x98t communicate with the NVIDIA driver.\n"
		      "fatal error: cuda_runtime.h\xef\xbc\x9aNo such file or directory\n");
	assert_true(found(&s, KB_EXPLAIN_SIG_SMI_CANNOT_COMMUNICATE));
	assert_true(s.nfound >= 2);
	explain_scan_release(&s);
}

static void test_corpus(void **state)
{
	(void)state;
	int failures = 0;
	int cases = each_block("tests/explain", ".log", run_case, &failures);
	if (failures)
		fail_msg("%d corpus failure(s) in %d cases", failures, cases);
	assert_true(cases >= 100);

	/* Every explain signature has at least one case. */
	const struct kb *kb = kb_builtin();
	int missing = 0;
	for (size_t i = 0; i < kb->n; i++) {
		const struct kb_entry *e = &kb->e[i];
		if (!from_explain(e) || strcmp(e->kind, "signature"))
			continue;
		char key[256];
		snprintf(key, sizeof key, " %s ", e->id);
		if (!strstr(sb_str(&expected_ids), key)) {
			printf("no corpus case expects %s\n", e->id);
			missing++;
		}
	}
	sb_release(&expected_ids);
	assert_int_equal(missing, 0);
}

/* ---- the message memo (matcher.h: struct explain_memo_line) ---- */

/* text scanned in chunks of step bytes, with the memo or without, as
 * explain_scan_dump writes the result. */
static char *scan_dump_counted(const char *text, size_t len, size_t step, bool memo, bool *used,
				unsigned long *replayed)
{
	struct explain_scan s;
	explain_scan_init(&s, explain_db_builtin());
	s.no_memo = !memo;
	for (size_t off = 0; off < len; off += step)
		explain_scan_feed(&s, text + off, len - off < step ? len - off : step);
	explain_scan_finish(&s);
	struct strbuf out = STRBUF_INIT;
	explain_scan_dump(&s, &out);
	if (used)
		*used = s.lmemo != NULL;
	if (replayed)
		*replayed = s.st.replayed;
	explain_scan_release(&s);
	return sb_detach(&out);
}

static char *scan_dump(const char *text, size_t len, size_t step, bool memo, bool *used)
{
	return scan_dump_counted(text, len, step, memo, used, NULL);
}

/* Replaying a repeated message finds what matching it again finds: the
 * corpus's cases (wrapped, cut, traceback and unrecognised lines among
 * them) each line with a timestamp, several times over, in chunks that
 * split lines, with and without the memo. */
static void test_match_memo(void **state)
{
	(void)state;
	struct strbuf all = STRBUF_INIT;
	DIR *d = opendir("tests/explain");
	assert_non_null(d);
	struct dirent *de;
	struct strbuf one = STRBUF_INIT;
	while ((de = readdir(d))) {
		size_t nl = strlen(de->d_name);
		if (nl <= 4 || strcmp(de->d_name + nl - 4, ".log"))
			continue;
		char path[512];
		snprintf(path, sizeof path, "tests/explain/%s", de->d_name);
		FILE *f = fopen(path, "rb");
		assert_non_null(f);
		char buf[4096];
		size_t n;
		while ((n = fread(buf, 1, sizeof buf, f)) > 0)
			sb_addn(&one, buf, n);
		fclose(f);
	}
	closedir(d);
	for (int round = 0; round < 3; round++) {
		const char *p = one.buf;
		for (int k = 0; *p; k++) {
			const char *e = strchr(p, '\n');
			size_t n = e ? (size_t)(e - p) : strlen(p);
			/* a timestamp on every other line: the same messages,
			 * different raw lines */
			if (k % 2)
				sb_addf(&all, "2024-05-01 12:%02d:%02d.%06d: ", k % 60, round, k);
			sb_addn(&all, p, n);
			sb_addc(&all, '\n');
			p += n + (e != NULL);
		}
	}
	sb_release(&one);
	assert_true(all.len > 100000);
	size_t steps[] = { all.len, 4096, 97 };
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		bool used = false;
		char *with = scan_dump(all.buf, all.len, steps[i], true, &used);
		char *without = scan_dump(all.buf, all.len, steps[i], false, NULL);
		assert_true(used);
		assert_string_equal(with, without);
		free(with);
		free(without);
	}
	sb_release(&all);
}

/* Two messages that recur in turn are both replayed, and a message seen
 * a thousand times is counted a thousand times. */
static void test_match_memo_repeats(void **state)
{
	(void)state;
	struct strbuf t = STRBUF_INIT;
	for (int i = 0; i < 1000; i++) {
		sb_addf(&t, "2024-05-01 12:00:%02d.%06d: RuntimeError: CUDA error: no kernel image is "
			    "available for execution on the device\n",
			i % 60, i);
		sb_addf(&t, "[%d] ldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link\n", i);
		sb_addf(&t, "step %d loss 0.%04d\n", i, i * 7 % 10000);
	}
	bool used = false;
	char *with = scan_dump(t.buf, t.len, t.len, true, &used);
	char *without = scan_dump(t.buf, t.len, t.len, false, NULL);
	assert_true(used);
	assert_string_equal(with, without);
	assert_non_null(strstr(with, "count 1000 lines 1-2998"));
	assert_non_null(strstr(with, "count 1000 lines 2-2999"));
	free(with);
	free(without);
	sb_release(&t);
}

/* A line with no key in it, repeated (a program's output flood): it is
 * memoised too, with no event to replay, and reads as without the memo. */
static void test_match_memo_keyless(void **state)
{
	(void)state;
	struct strbuf t = STRBUF_INIT;
	for (int i = 0; i < 500; i++)
		sb_add(&t, "flood flood flood flood flood flood flood flood\n");
	sb_add(&t, "RuntimeError: CUDA error: no kernel image is available for execution on the device\n");
	bool used = false;
	char *with = scan_dump(t.buf, t.len, t.len, true, &used);
	char *without = scan_dump(t.buf, t.len, t.len, false, NULL);
	assert_true(used);
	assert_string_equal(with, without);
	assert_non_null(strstr(with, "lines 501-501"));
	free(with);
	free(without);
	sb_release(&t);
}

/* A busy line, the same common words as often as the memo's longest
 * message holds (a key's later hits in a line change nothing its first
 * did, and are not kept), is replayed like any other, and reads as
 * without the memo. */
static void test_match_memo_busy_line(void **state)
{
	(void)state;
	enum { ROUNDS = 300 };
	struct strbuf t = STRBUF_INIT;
	for (int i = 0; i < ROUNDS; i++) {
		sb_addf(&t, "2024-05-01 12:00:%02d.%06d:", i % 60, i);
		for (int k = 0; k < (EXPLAIN_MEMO_TEXT - 80) / 15; k++) /* 15 bytes each */
			sb_add(&t, " cuda error gpu");
		sb_add(&t, " RuntimeError: CUDA error: out of memory\n");
	}
	bool used = false;
	unsigned long replayed = 0;
	char *with = scan_dump_counted(t.buf, t.len, t.len, true, &used, &replayed);
	char *without = scan_dump(t.buf, t.len, t.len, false, NULL);
	assert_true(used);
	assert_string_equal(with, without);
	/* read afresh until the memo starts and the line is seen twice */
	assert_true(replayed >= ROUNDS - EXPLAIN_MEMO_AFTER - 2);
	assert_non_null(strstr(with, "count 300"));
	free(with);
	free(without);
	sb_release(&t);
}

/* ---- the field corpus (tests/explain/field/README.md) ---- */

/* A field block must be recognised, and its first recognised message must
 * be of the layer its thread confirmed. */
static void run_field_block(const struct corpus_case *c, int *failures)
{
	char want[64] = "";
	sscanf(c->header, "%63s", want);
	struct explain_scan s;
	scan_text(&s, sb_str(&c->text));
	if (!s.nfound) {
		printf("%s:%d: not recognised\n", c->file, c->line);
		(*failures)++;
	} else {
		const char *layer = s.db->sig[s.found[0]->sig].e->layer;
		if (strcmp(layer, want)) {
			printf("%s:%d: first message is of layer %s, the thread says %s\n", c->file,
			       c->line, layer, want);
			(*failures)++;
		}
	}
	explain_scan_release(&s);
}

static void test_field_corpus(void **state)
{
	(void)state;
	int failures = 0;
	int blocks = each_block("tests/explain/field", ".txt", run_field_block, &failures);
	if (failures)
		fail_msg("%d field block(s) of %d not recognised or of the wrong layer", failures,
			 blocks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_norm_ansi_crlf),
		cmocka_unit_test(test_norm_prefixes),
		cmocka_unit_test(test_norm_indent),
		cmocka_unit_test(test_norm_garbage),
		cmocka_unit_test(test_norm_typographic),
		cmocka_unit_test(test_literal_keys),
		cmocka_unit_test(test_ac),
		cmocka_unit_test(test_ac_dense_rows),
		cmocka_unit_test(test_match_basic),
		cmocka_unit_test(test_match_grouping_order),
		cmocka_unit_test(test_match_wrapped),
		cmocka_unit_test(test_match_traceback),
		cmocka_unit_test(test_match_refine),
		cmocka_unit_test(test_match_chunks),
		cmocka_unit_test(test_family_gives_way_to_specific),
		cmocka_unit_test(test_match_memo_cycle),
		cmocka_unit_test(test_match_memo_busy_line),
		cmocka_unit_test(test_match_long_and_binary),
		cmocka_unit_test(test_match_memo),
		cmocka_unit_test(test_match_memo_repeats),
		cmocka_unit_test(test_match_memo_keyless),
		cmocka_unit_test(test_paste),
		cmocka_unit_test(test_rx_semantics),
		cmocka_unit_test(test_rx_random),
		cmocka_unit_test(test_rx_pieces),
		cmocka_unit_test(test_literal_exact),
		cmocka_unit_test(test_codes),
		cmocka_unit_test(test_codes_numbers),
		cmocka_unit_test(test_pattern_parse),
		cmocka_unit_test(test_match_classes_codes),
		cmocka_unit_test(test_match_hard_wrap),
		cmocka_unit_test(test_match_cut),
		cmocka_unit_test(test_match_cut_code),
		cmocka_unit_test(test_unknown_lines),
		cmocka_unit_test(test_best),
		cmocka_unit_test(test_norm_fused),
		cmocka_unit_test(test_confirm_checks),
		cmocka_unit_test(test_rank),
		cmocka_unit_test(test_rank_other),
		cmocka_unit_test(test_rank_platform),
		cmocka_unit_test(test_rank_host_cause),
		cmocka_unit_test(test_rank_windows),
		cmocka_unit_test(test_rank_every_platform),
		cmocka_unit_test(test_general_message_has_a_cause_everywhere),
		cmocka_unit_test(test_no_system_change_on_a_guess),
		cmocka_unit_test(test_text_platform),
		cmocka_unit_test(test_rank_real_pastes),
		cmocka_unit_test(test_context_words),
		cmocka_unit_test(test_rank_words),
		cmocka_unit_test(test_rank_own_words),
		cmocka_unit_test(test_rank_evidence_lifts),
		cmocka_unit_test(test_rank_runtime_compilers),
		cmocka_unit_test(test_rank_nvenc_capability),
		cmocka_unit_test(test_rank_pkg_driver_range),
		cmocka_unit_test(test_rank_kwave),
		cmocka_unit_test(test_rank_cycles_no_device),
		cmocka_unit_test(test_rank_slurm_gres),
		cmocka_unit_test(test_rank_ptx_needs_target),
		cmocka_unit_test(test_rank_vk_device_lost),
		cmocka_unit_test(test_rank_nvenc_init),
		cmocka_unit_test(test_rank_suspend),
		cmocka_unit_test(test_rank_init_error),
		cmocka_unit_test(test_rank_module_not_found),
		cmocka_unit_test(test_rank_native_gpu_ops),
		cmocka_unit_test(test_rank_words_long_paste),
		cmocka_unit_test(test_rank_docker_installed),
		cmocka_unit_test(test_rank_display_watchdog),
		cmocka_unit_test(test_rank_app_no_gpu_cpu_fallback),
		cmocka_unit_test(test_rank_host_ram_model_load),
		cmocka_unit_test(test_rank_lavapipe),
		cmocka_unit_test(test_rank_opencv_cuda_dll),
		cmocka_unit_test(test_rank_other_driver),
		cmocka_unit_test(test_rank_smi_device_handle),
		cmocka_unit_test(test_rank_gpupv_guest),
		cmocka_unit_test(test_rank_k8s_plugin_release),
		cmocka_unit_test(test_rank_offload_oom),
		cmocka_unit_test(test_rank_closed_module),
		cmocka_unit_test(test_rank_compat_804),
		cmocka_unit_test(test_rank_container_unknown),
		cmocka_unit_test(test_rank_require_cuda_jetson),
		cmocka_unit_test(test_rank_nvml_no_permission),
		cmocka_unit_test(test_rank_unknown_flatpak),
		cmocka_unit_test(test_rank_nccl_summary),
		cmocka_unit_test(test_rank_ollama_runner_signal),
		cmocka_unit_test(test_trt_init_code_by_number),
		cmocka_unit_test(test_wsl_lib_readlink),
		cmocka_unit_test(test_rank_triton_libcuda),
		cmocka_unit_test(test_rank_cc_minimum_arch_list),
		cmocka_unit_test(test_rank_container_started_without_gpu),
		cmocka_unit_test(test_rank_cublas_alloc_failed),
		cmocka_unit_test(test_rank_ctranslate2_not_supported),
		cmocka_unit_test(test_rank_torch_device_count_cut),
		cmocka_unit_test(test_rank_hyperv_not_installed),
		cmocka_unit_test(test_rank_capabilities_and_vulkan_driver),
		cmocka_unit_test(test_rank_ollama_load_failed),
		cmocka_unit_test(test_rank_smi_no_driver_platform),
		cmocka_unit_test(test_rank_launch_failed_after_arch),
		cmocka_unit_test(test_rank_ctk_hook_no_nvml),
		cmocka_unit_test(test_rank_llm_apps),
		cmocka_unit_test(test_rank_wrapper_nccl_and_dll127),
		cmocka_unit_test(test_rank_rdma_reg_mr),
		cmocka_unit_test(test_rank_rpm_modular_filtering),
		cmocka_unit_test(test_kb_integrity),
		cmocka_unit_test(test_corpus),
		cmocka_unit_test(test_field_corpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
