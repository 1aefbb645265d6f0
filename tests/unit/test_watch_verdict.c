/*
 * test_watch_verdict.c: the rules of `wslgpu watch` (src/watch/verdict.c)
 * on hand-made summaries — one case per rule and per tie between rules —
 * and the KB entries they name: each exists, cites a source, and has every
 * placeholder filled by the verdict's evidence.
 */
#include <math.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#include "kb/fixline.h"
#include "kb/kb.h"
#include "watch/program.h"
#include "watch/verdict.h"
#include "kb_ids.h"

/* A 30-second run on an 8-CPU machine that nothing limited. */
static struct watch_summary base(void)
{
	struct watch_summary s;
	memset(&s, 0, sizeof s);
	s.npoints = 30;
	s.duration_s = 30;
	s.ncpu = 8;
	s.gpu_present = true;
	s.gpu_util_known = true;
	s.gpu_util_mean = 20;
	s.gpu_util_max = 40;
	s.gpu_mem_known = true;
	s.gpu_mem_min = 1000;
	s.gpu_mem_max = 3000;
	s.gpu_mem_total = 10240;
	s.gpu_mem_bracketed = true;
	s.cpu_iowait_mean = 0.5;
	s.cpu_busy_mean = 20;
	s.job_cpu_mean = 0.5;
	s.job_cpu_max = 1;
	s.job_top_mean = 0.4;
	s.top_comm = "python";
	s.job_runnable_mean = 0.2;
	s.job_blocked_mean = 0;
	s.job_rchar_mean = 0.5;
	s.job_read_mean = 0;
	s.disk_read_mean = 0;
	s.swap_known = true;
	s.mem_known = true;
	s.mem_avail_min = 8000;
	s.mem_total = 16000;
	return s;
}

/* Judges s; checks the id, and that the KB entry explains it fully. */
static void expect(const struct watch_summary *s, enum watch_verdict_id id, const char *kb,
		   struct watch_verdict *v)
{
	watch_judge(s, v);
	if (v->id != id)
		fail_msg("verdict %s (%s), expected %s", v->name, v->headline.buf,
			 watch_verdict_name(id));
	assert_string_equal(v->kb, kb);
	assert_true(v->headline.len > 0);
	const struct kb_entry *e = kb_find(kb);
	if (!e)
		fail_msg("no KB entry %s", kb);
	assert_true(e->source.n > 0);
	struct strbuf out = STRBUF_INIT;
	kb_expand(e->cause, &v->ev, NULL, &out);
	if (strchr(out.buf, '<'))
		fail_msg("%s: unfilled placeholder in: %s", kb, out.buf);
	for (size_t i = 0; i < e->fix.n; i++) {
		sb_reset(&out);
		kb_expand(e->fix.v[i], &v->ev, NULL, &out);
		if (strchr(out.buf, '<'))
			fail_msg("%s: unfilled placeholder in fix: %s", kb, out.buf);
	}
	sb_release(&out);
}

static bool has_also(const struct watch_verdict *v, enum watch_verdict_id id)
{
	for (size_t i = 0; i < v->nalso; i++)
		if (v->also[i] == id)
			return true;
	return false;
}

static void test_too_short(void **state)
{
	(void)state;
	struct watch_summary s = base();
	s.npoints = 2;
	s.gpu_util_mean = 99; /* would be GPU-bound, but two points prove nothing */
	struct watch_verdict v;
	expect(&s, WV_TOO_SHORT, KB_WATCH_TOO_SHORT, &v);
	assert_int_equal(v.status, ST_SKIP);
	assert_int_equal(v.nalso, 0);
	watch_verdict_release(&v);
}

static void test_gpu_bound(void **state)
{
	(void)state;
	struct watch_summary s = base();
	s.gpu_util_mean = 91;
	s.gpu_util_max = 99;
	struct watch_verdict v;
	expect(&s, WV_GPU_BOUND, KB_WATCH_GPU_BOUND, &v);
	assert_int_equal(v.status, ST_PASS);
	assert_false(v.cpu_io_only);
	assert_non_null(strstr(v.headline.buf, "91%"));
	watch_verdict_release(&v);

	/* Busy GPU and swapping: GPU-bound, with the swapping as "also". */
	s.swap_in_mean = 4;
	expect(&s, WV_GPU_BOUND, KB_WATCH_GPU_BOUND, &v);
	assert_true(has_also(&v, WV_MEMORY));
	watch_verdict_release(&v);
}

static void test_gpu_idle(void **state)
{
	(void)state;
	struct watch_summary s = base();
	s.gpu_util_mean = 0;
	s.gpu_util_max = 1;
	s.gpu_mem_max = 1010; /* 10 MiB: no CUDA context */
	struct watch_verdict v;
	expect(&s, WV_GPU_IDLE, KB_WATCH_GPU_IDLE, &v);
	watch_verdict_release(&v);

	/* A CPU-only build training on the CPU: the idle GPU is the finding,
	 * not the busy CPUs. */
	s.job_cpu_mean = 7.6;
	expect(&s, WV_GPU_IDLE, KB_WATCH_GPU_IDLE, &v);
	assert_non_null(strstr(v.headline.buf, "ran on the CPU"));
	assert_false(has_also(&v, WV_CPU));
	watch_verdict_release(&v);

	/* Utilisation unknown (WSL): memory that never rose between before the
	 * start and after the end says the same... */
	s = base();
	s.gpu_util_known = false;
	s.gpu_util_mean = s.gpu_util_max = NAN;
	s.gpu_mem_max = 1000;
	expect(&s, WV_GPU_IDLE, KB_WATCH_GPU_IDLE, &v);
	assert_true(v.cpu_io_only);
	assert_string_equal(ev_get(&v.ev, "gpu_util_max"), "n/a");
	watch_verdict_release(&v);
	/* ...but not when watch attached to a running job (no baseline)... */
	s.attached = true;
	watch_judge(&s, &v);
	assert_int_not_equal(v.id, WV_GPU_IDLE);
	watch_verdict_release(&v);
	/* ...nor without the readings before and after. */
	s.attached = false;
	s.gpu_mem_bracketed = false;
	watch_judge(&s, &v);
	assert_int_not_equal(v.id, WV_GPU_IDLE);
	watch_verdict_release(&v);

	/* No GPU at all: never "GPU idle". */
	s = base();
	s.gpu_present = s.gpu_util_known = s.gpu_mem_known = false;
	s.gpu_util_mean = s.gpu_util_max = s.gpu_mem_min = s.gpu_mem_max = NAN;
	s.gpu_note = "libnvidia-ml.so.1 could not be loaded";
	expect(&s, WV_WAITING, KB_WATCH_WAITING, &v);
	assert_true(v.cpu_io_only);
	assert_string_equal(ev_get(&v.ev, "gpu_note"), "libnvidia-ml.so.1 could not be loaded");
	watch_verdict_release(&v);
}

static void test_memory(void **state)
{
	(void)state;
	struct watch_summary s = base();
	s.swap_in_mean = 0.7;
	s.swap_out_mean = 0.6;
	struct watch_verdict v;
	expect(&s, WV_MEMORY, KB_WATCH_MEMORY_PRESSURE, &v);
	assert_non_null(strstr(v.headline.buf, "swapped 1.3 MB/s"));
	watch_verdict_release(&v);

	s = base();
	s.mem_avail_min = 300; /* of 16000: under 5 % */
	expect(&s, WV_MEMORY, KB_WATCH_MEMORY_PRESSURE, &v);
	assert_non_null(strstr(v.headline.buf, "300 MiB"));
	watch_verdict_release(&v);

	/* Little swap traffic and enough memory: no pressure. */
	s = base();
	s.swap_in_mean = 0.2;
	s.mem_avail_min = 2000;
	expect(&s, WV_WAITING, KB_WATCH_WAITING, &v);
	watch_verdict_release(&v);
}

static void test_input(void **state)
{
	(void)state;
	struct watch_summary s = base();
	s.job_blocked_mean = 0.9;
	struct watch_verdict v;
	expect(&s, WV_INPUT, KB_WATCH_INPUT_BOUND, &v);
	assert_non_null(strstr(v.headline.buf, "0.90 processes blocked"));
	watch_verdict_release(&v);

	/* Reading from /mnt/c: the Windows-drive entry, with the place. */
	s.data_mount = "/mnt/c";
	s.data_what = "9p, aname=drvfs";
	s.data_kind = "windows-drive";
	s.data_example = "/mnt/c/Users/alice/data/000001.jpg";
	s.data_files = 12;
	expect(&s, WV_INPUT, KB_WATCH_INPUT_BOUND_WINDOWS_DRIVE, &v);
	assert_non_null(strstr(v.headline.buf, "reads from /mnt/c (9p, aname=drvfs)"));
	assert_string_equal(ev_get(&v.ev, "data_example"), "/mnt/c/Users/alice/data/000001.jpg");
	watch_verdict_release(&v);

	/* Machine-wide iowait counts when the job itself reads... */
	s = base();
	s.cpu_iowait_mean = 5; /* 0.4 of 8 CPUs */
	s.job_rchar_mean = 30;
	expect(&s, WV_INPUT, KB_WATCH_INPUT_BOUND, &v);
	watch_verdict_release(&v);
	/* ...not when another program causes it. */
	s.job_rchar_mean = 0;
	expect(&s, WV_WAITING, KB_WATCH_WAITING, &v);
	watch_verdict_release(&v);

	/* A reader that gets its data fast (dd at 1.6 GB/s): no iowait, no
	 * state D, yet reading is what it does, not waiting. */
	s = base();
	s.job_rchar_mean = 1600;
	s.job_read_mean = 1600;
	expect(&s, WV_INPUT, KB_WATCH_INPUT_BOUND, &v);
	watch_verdict_release(&v);
	/* a trickle of reads is still waiting */
	s.job_rchar_mean = 2;
	s.job_read_mean = 2;
	expect(&s, WV_WAITING, KB_WATCH_WAITING, &v);
	watch_verdict_release(&v);

	/* Saturated CPUs win over waiting for I/O. */
	s = base();
	s.job_blocked_mean = 0.5;
	s.job_cpu_mean = 7.5;
	expect(&s, WV_CPU, KB_WATCH_CPU_BOUND, &v);
	watch_verdict_release(&v);
}

static void test_cpu(void **state)
{
	(void)state;
	struct watch_summary s = base();
	s.job_cpu_mean = 7.2; /* of 8 */
	struct watch_verdict v;
	expect(&s, WV_CPU, KB_WATCH_CPU_BOUND, &v);
	assert_non_null(strstr(v.headline.buf, "7.2 of 8 CPUs"));
	watch_verdict_release(&v);

	/* One process at a full core, the rest idle: single-threaded step. */
	s = base();
	s.job_cpu_mean = 1.05;
	s.job_top_mean = 0.98;
	s.top_comm = "python3";
	expect(&s, WV_CPU, KB_WATCH_CPU_BOUND, &v);
	assert_non_null(strstr(v.headline.buf, "(python3) used 0.98 of one core"));
	watch_verdict_release(&v);

	/* Always ready to run but starved by other work on the CPUs. */
	s = base();
	s.job_cpu_mean = 0.35;
	s.job_top_mean = 0.35;
	s.job_runnable_mean = 0.95;
	s.cpu_busy_mean = 99;
	expect(&s, WV_CPU, KB_WATCH_CPU_BOUND, &v);
	assert_non_null(strstr(v.headline.buf, "shared with other work"));
	watch_verdict_release(&v);

	/* No GPU library at all: the CPU verdict, from CPU/IO evidence. */
	s = base();
	s.gpu_present = s.gpu_util_known = s.gpu_mem_known = false;
	s.job_top_mean = 0.99;
	expect(&s, WV_CPU, KB_WATCH_CPU_BOUND, &v);
	assert_true(v.cpu_io_only);
	watch_verdict_release(&v);
}

static void test_without_utilisation(void **state)
{
	(void)state;
	/* WSL: utilisation unknown, the job holds 2 GiB more GPU memory, one
	 * process spins a core: CUDA's wait or a CPU bottleneck? */
	struct watch_summary s = base();
	s.gpu_util_known = false;
	s.gpu_util_mean = s.gpu_util_max = NAN;
	s.job_cpu_mean = 1.1;
	s.job_top_mean = 1.0;
	struct watch_verdict v;
	expect(&s, WV_CPU_OR_GPU, KB_WATCH_CPU_OR_GPU_BOUND, &v);
	assert_true(v.cpu_io_only);
	assert_int_equal(v.status, ST_WARN);
	watch_verdict_release(&v);

	/* Many busy workers besides the main process: that is CPU work. */
	s.job_cpu_mean = 4.0;
	expect(&s, WV_CPU, KB_WATCH_CPU_BOUND, &v);
	watch_verdict_release(&v);

	/* Nothing else limited it: probably the GPU. */
	s = base();
	s.gpu_util_known = false;
	s.gpu_util_mean = s.gpu_util_max = NAN;
	expect(&s, WV_PROBABLY_GPU, KB_WATCH_PROBABLY_GPU_BOUND, &v);
	assert_int_equal(v.status, ST_PASS);
	assert_string_equal(ev_get(&v.ev, "gpu_mem_growth"), "2000 MiB");
	watch_verdict_release(&v);
}

static void test_waiting(void **state)
{
	(void)state;
	/* A sleeper. */
	struct watch_summary s = base();
	s.job_cpu_mean = 0;
	s.job_top_mean = 0;
	s.job_runnable_mean = 0;
	s.job_rchar_mean = 0;
	struct watch_verdict v;
	expect(&s, WV_WAITING, KB_WATCH_WAITING, &v);
	assert_non_null(strstr(v.headline.buf, "20% busy"));
	watch_verdict_release(&v);

	/* Every figure unknown: still a verdict, with "n/a" evidence. */
	struct watch_summary empty;
	memset(&empty, 0, sizeof empty);
	empty.npoints = 5;
	empty.cpu_iowait_mean = empty.job_cpu_mean = empty.job_top_mean = NAN;
	empty.job_blocked_mean = empty.job_runnable_mean = empty.job_rchar_mean = NAN;
	empty.job_read_mean = empty.cpu_busy_mean = empty.mem_avail_min = NAN;
	expect(&empty, WV_WAITING, KB_WATCH_WAITING, &v);
	assert_string_equal(ev_get(&v.ev, "job_cpu"), "n/a");
	watch_verdict_release(&v);
}

/* py-spy's --pid is the busiest process's while it still runs (issue 29:
 * no PID placeholder where watch knows it); once it has ended, a template. */
static void test_pid(void **state)
{
	(void)state;
	struct watch_summary s = base();
	s.job_cpu_mean = s.job_top_mean = s.job_runnable_mean = s.job_rchar_mean = 0;
	s.program = WP_PYTHON; /* py-spy is offered for a Python job only */
	s.top_pid = (int)getpid();
	struct watch_verdict v;
	expect(&s, WV_WAITING, KB_WATCH_WAITING, &v);
	struct strbuf want = STRBUF_INIT, out = STRBUF_INIT;
	sb_addf(&want, "%d", (int)getpid());
	assert_string_equal(ev_get(&v.ev, "pid"), want.buf);
	const struct kb_entry *e = kb_find(KB_WATCH_WAITING);
	kb_expand_fix(e->fix.v[0], &v.ev, NULL, &out);
	sb_reset(&want);
	sb_addf(&want, "py-spy dump --pid %d   (where it waits;", (int)getpid());
	assert_true(!strncmp(out.buf, want.buf, want.len));
	watch_verdict_release(&v);

	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0)
		_exit(0);
	assert_int_equal(waitpid(child, NULL, 0), child);
	s.top_pid = (int)child;
	expect(&s, WV_WAITING, KB_WATCH_WAITING, &v);
	assert_null(ev_get(&v.ev, "pid"));
	sb_reset(&out);
	kb_expand_fix(e->fix.v[0], &v.ev, NULL, &out);
	assert_non_null(strstr(out.buf, "py-spy dump --pid PID   ("));
	assert_true(kb_fix_is_template(out.buf));
	watch_verdict_release(&v);
	sb_release(&want);
	sb_release(&out);
}

static void test_kb_entries(void **state)
{
	(void)state;
	for (int id = 0; id < WV__COUNT; id++) {
		const char *kb = watch_verdict_kb((enum watch_verdict_id)id);
		const struct kb_entry *e = kb_find(kb);
		if (!e)
			fail_msg("verdict %s names missing KB entry %s",
				 watch_verdict_name((enum watch_verdict_id)id), kb);
		assert_string_equal(e->layer, "perf");
		assert_true(e->source.n > 0);
		for (size_t i = 0; i < e->see.n; i++)
			if (!kb_find(e->see.v[i]))
				fail_msg("%s: see %s does not exist", kb, e->see.v[i]);
	}
	const char *extra[] = { KB_WATCH_INPUT_BOUND_WINDOWS_DRIVE, KB_WATCH_GPU_UTIL_UNAVAILABLE };
	for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
		assert_non_null(kb_find(extra[i]));
}

/*
 * The advice fits the program: each verdict's cause and fixes, expanded
 * with the evidence of a job of each kind. A framework's words appear only
 * for that framework; a plain program (dd, a shell script) gets general
 * advice and no Python tool; code for a script is words for a person
 * ("in your training script: ..."), shown as a comment, never a command.
 */
static void test_advice(void **state)
{
	(void)state;
	static const enum watch_program kinds[] = { WP_UNKNOWN, WP_OTHER, WP_PYTHON, WP_JAX,
						    WP_TENSORFLOW, WP_PYTORCH };
	/* a summary for each verdict that has advice to fit */
	struct watch_summary sums[7];
	for (size_t i = 0; i < 7; i++)
		sums[i] = base();
	sums[0].job_blocked_mean = 0.9;                      /* input-bound */
	sums[1].job_cpu_mean = 7.5;                          /* cpu-bound */
	sums[2].swap_in_mean = 5;                            /* memory pressure */
	sums[3].gpu_util_mean = 95;                          /* gpu-bound */
	sums[4].gpu_util_max = 1, sums[4].gpu_mem_max = 1000; /* gpu idle */
	sums[5].job_rchar_mean = 0;                          /* waiting */
	sums[6].gpu_util_known = false, sums[6].job_top_mean = 0.95,
	sums[6].job_cpu_mean = 1.0;                          /* cpu- or gpu-bound */
	static const enum watch_verdict_id ids[] = { WV_INPUT, WV_CPU, WV_MEMORY, WV_GPU_BOUND,
						     WV_GPU_IDLE, WV_WAITING, WV_CPU_OR_GPU };
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		enum watch_program kind = kinds[k];
		bool torch = kind == WP_PYTORCH, tf = kind == WP_TENSORFLOW;
		bool py = program_is_python(kind);
		for (size_t i = 0; i < 7; i++) {
			sums[i].program = kind;
			struct watch_verdict v;
			watch_judge(&sums[i], &v);
			if (v.id != ids[i])
				fail_msg("summary %zu: verdict %s, expected %s", i, v.name,
					 watch_verdict_name(ids[i]));
			assert_string_equal(ev_get(&v.ev, "program"), program_name(kind));
			const struct kb_entry *e = kb_find(v.kb);
			struct strbuf all = STRBUF_INIT, line = STRBUF_INIT;
			kb_expand(e->cause, &v.ev, NULL, &all);
			size_t fixes = 0;
			for (size_t f = 0; f < e->fix.n; f++) {
				sb_reset(&line);
				kb_expand_fix(e->fix.v[f], &v.ev, NULL, &line);
				if (!line.len)
					continue;
				fixes++;
				sb_addf(&all, "\n%s", line.buf);
				/* code for a script is never offered as a command */
				struct fix_command c;
				fix_classify(line.buf, &c);
				bool code = strstr(line.buf, "DataLoader(") || strstr(line.buf, "dataset.") ||
					    strstr(line.buf, "set_sync_debug_mode");
				if (code && (!c.instruction ||
					     strncmp(line.buf, "in your training script: ", 25)))
					fail_msg("%s for %s: code offered as a command: %s", v.kb,
						 program_name(kind), line.buf);
				free(c.text);
				free(c.note);
			}
			if (!fixes)
				fail_msg("%s for %s: no advice at all", v.kb, program_name(kind));
			const char *t = all.buf;
			if (!torch && (strstr(t, "DataLoader") || strstr(t, "torch")))
				fail_msg("%s for %s: PyTorch advice: %s", v.kb, program_name(kind), t);
			if (!tf && (strstr(t, "tf.data") || strstr(t, "tf.keras") ||
				    strstr(t, "import tensorflow")))
				fail_msg("%s for %s: TensorFlow advice: %s", v.kb, program_name(kind), t);
			if (!py && (strstr(t, "py-spy") || strstr(t, "python -c") ||
				    strstr(t, "--only frameworks")))
				fail_msg("%s for %s: Python advice: %s", v.kb, program_name(kind), t);
			/* where its framework has advice, it gets it */
			if (torch && (ids[i] == WV_INPUT || ids[i] == WV_CPU || ids[i] == WV_MEMORY))
				assert_non_null(strstr(t, "DataLoader("));
			if (tf && (ids[i] == WV_INPUT || ids[i] == WV_CPU))
				assert_non_null(strstr(t, "tf.data.AUTOTUNE"));
			/* and a job that reads gets told where data should live */
			if (ids[i] == WV_INPUT)
				assert_non_null(strstr(t, "local ext4 path"));
			if (ids[i] == WV_INPUT && !program_is_framework(kind))
				assert_non_null(strstr(t, "several processes at once"));
			sb_release(&all);
			sb_release(&line);
			watch_verdict_release(&v);
		}
	}
}

/* What kind of program a process is, from its command line and maps. */
static void test_program(void **state)
{
	(void)state;
#define CMD(s) s, sizeof s - 1
	assert_int_equal(program_from_cmdline(CMD("dd\0if=/x\0of=/dev/null\0"), "dd"), WP_OTHER);
	assert_int_equal(program_from_cmdline(CMD("sh\0-c\0dd if=/x of=/dev/null\0"), "sh"),
			 WP_OTHER);
	assert_int_equal(program_from_cmdline(CMD("/usr/bin/python3\0train.py\0"), "python3"),
			 WP_PYTHON);
	assert_int_equal(program_from_cmdline(CMD("python3\0-c\0import torch; torch.zeros(1)\0"),
					      "python3"), WP_PYTORCH);
	assert_int_equal(program_from_cmdline(CMD("python\0-m\0torch.distributed.run\0t.py\0"),
					      "python"), WP_PYTORCH);
	assert_int_equal(program_from_cmdline(CMD("/opt/venv/bin/torchrun\0--nproc-per-node=2\0"),
					      "torchrun"), WP_PYTORCH);
	assert_int_equal(program_from_cmdline(CMD("python3\0-c\0import tensorflow as tf\0"),
					      "python3"), WP_TENSORFLOW);
	assert_int_equal(program_from_cmdline(CMD("python3\0-c\0from jax import numpy\0"),
					      "python3"), WP_JAX);
	/* torchvision alone is not torch; a script named after it is no import */
	assert_int_equal(program_from_cmdline(CMD("python3\0-c\0import torchvision\0"),
					      "python3"), WP_PYTHON);
	assert_int_equal(program_from_cmdline(CMD("python3\0torch_train.py\0"), "python3"),
			 WP_PYTHON);
	/* a kernel thread or a process gone: its name only */
	assert_int_equal(program_from_cmdline("", 0, "python3.12"), WP_PYTHON);
	assert_int_equal(program_from_cmdline("", 0, "dd"), WP_OTHER);
	assert_int_equal(program_from_cmdline("", 0, ""), WP_UNKNOWN);

	const char *lib = NULL;
	size_t n = 0;
	static const char torch_maps[] =
		"7f00-7f10 r-xp 00000000 08:01 12 /usr/lib/x86_64-linux-gnu/libc.so.6\n"
		"7f20-7f30 r-xp 00000000 08:01 13 /home/u/venv/lib/python3.12/site-packages/torch/lib/"
		"libtorch_cpu.so\n"
		"7f40-7f50 r--p 00000000 08:01 14 /home/u/venv/lib/python3.12/site-packages/torch/lib/"
		"libc10.so\n";
	assert_int_equal(program_from_maps(CMD(torch_maps), &lib, &n), WP_PYTORCH);
	assert_int_equal(n, strlen("libtorch_cpu.so"));
	assert_memory_equal(lib, "libtorch_cpu.so", n);
	static const char tf_maps[] =
		"7f00-7f10 r-xp 00000000 08:01 13 /v/site-packages/tensorflow/"
		"libtensorflow_framework.so.2\n";
	assert_int_equal(program_from_maps(CMD(tf_maps), &lib, &n), WP_TENSORFLOW);
	static const char jax_maps[] =
		"7f00-7f10 r-xp 00000000 08:01 13 /v/site-packages/jaxlib/xla_extension.so (deleted)\n";
	assert_int_equal(program_from_maps(CMD(jax_maps), &lib, &n), WP_JAX);
	assert_memory_equal(lib, "xla_extension.so", n);
	static const char plain[] =
		"7f00-7f10 r-xp 00000000 08:01 12 /usr/bin/python3.12\n"
		"7f20-7f30 rw-p 00000000 00:00 0 [heap]\n"
		"7f40-7f50 r--p 00000000 08:01 14 /usr/lib/python3.12/lib-dynload/_torchless.so\n";
	assert_int_equal(program_from_maps(CMD(plain), &lib, &n), WP_UNKNOWN);
	/* both: PyTorch wins */
	static const char both[] =
		"1-2 r-xp 0 0:0 1 /v/tensorflow/libtensorflow_cc.so.2\n"
		"3-4 r-xp 0 0:0 1 /v/torch/lib/libtorch.so\n";
	assert_int_equal(program_from_maps(CMD(both), NULL, NULL), WP_PYTORCH);
#undef CMD
	assert_string_equal(program_name(WP_PYTORCH), "pytorch");
	assert_true(program_is_python(WP_JAX) && !program_is_python(WP_OTHER));
	assert_true(!program_is_framework(WP_PYTHON) && program_is_framework(WP_TENSORFLOW));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_too_short), cmocka_unit_test(test_gpu_bound),
		cmocka_unit_test(test_gpu_idle),  cmocka_unit_test(test_memory),
		cmocka_unit_test(test_input),     cmocka_unit_test(test_cpu),
		cmocka_unit_test(test_without_utilisation), cmocka_unit_test(test_waiting),
		cmocka_unit_test(test_pid),
		cmocka_unit_test(test_kb_entries), cmocka_unit_test(test_advice),
		cmocka_unit_test(test_program),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
