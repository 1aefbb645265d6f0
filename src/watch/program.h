/*
 * program: what kind of program the watched job is, so that its advice
 * fits it -- PyTorch's DataLoader for a PyTorch job, tf.data for a
 * TensorFlow one, and for anything else (dd, a shell script, a plain
 * Python reader) general advice about where the data lives and how it is
 * read, never a framework's.
 *
 * Evidence, cheapest first: a process's command line (torchrun, python -c
 * "import torch", python -m torch.distributed.run) and its name (python3),
 * read once per process; then, for Python processes while no framework is
 * known, the libraries it has mapped (/proc/PID/maps): libtorch*.so or
 * libc10.so is PyTorch, libtensorflow_framework.so or
 * _pywrap_tensorflow_internal.so TensorFlow, jaxlib's xla_extension.so
 * JAX. A framework is imported after the interpreter starts, so the maps
 * are looked at again until one shows. When several show, PyTorch wins
 * over TensorFlow over JAX (a job that imports two is usually trained by
 * the first). Everything is read through rootfs; the classifiers are pure
 * and unit-tested on recorded text.
 */
#ifndef WSLGPU_WATCH_PROGRAM_H
#define WSLGPU_WATCH_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>

/* In order of strength: a later kind found in any process of the job
 * replaces an earlier one. */
enum watch_program {
	WP_UNKNOWN,    /* nothing read yet */
	WP_OTHER,      /* a program that is not Python */
	WP_PYTHON,     /* Python without a framework we know */
	WP_JAX,
	WP_TENSORFLOW,
	WP_PYTORCH,
};

#define PROGRAM_MAX_PIDS 1024

struct program_seen {
	enum watch_program kind;
	char what[192];     /* how it was found, for people: "libtorch_cpu.so mapped by python3" */
	/* Processes whose command line was read, with their name then: a
	 * process that execs (the job's first, right after fork) is read
	 * again under its new name. */
	struct {
		int pid;
		char comm[32];
	} seen[PROGRAM_MAX_PIDS];
	size_t npids;
	int python[64];     /* Python processes whose maps are still worth reading */
	size_t npython;
};

/* "pytorch", "tensorflow", "jax", "python", "other", "unknown". */
const char *program_name(enum watch_program k);
/* "PyTorch", "TensorFlow", "JAX", "Python", "a program that is not Python", "unknown". */
const char *program_title(enum watch_program k);
/* Whether it is one of the frameworks. */
bool program_is_framework(enum watch_program k);
/* Whether it runs in Python (a framework or not). */
bool program_is_python(enum watch_program k);

/* From a command line as /proc/PID/cmdline holds it (arguments each ended
 * by a NUL) and the process's name (comm): a framework the command names,
 * else WP_PYTHON for an interpreter, else WP_OTHER. */
enum watch_program program_from_cmdline(const char *buf, size_t len, const char *comm);
/* From /proc/PID/maps text: the strongest framework whose library is
 * mapped, or WP_UNKNOWN; *lib gets the library's file name (a pointer
 * into buf, *liblen bytes). */
enum watch_program program_from_maps(const char *buf, size_t len, const char **lib,
				     size_t *liblen);

/* Looks at one process of the job: its command line the first time, its
 * maps (when maps and it is Python and no framework is known yet). */
void program_scan(struct program_seen *p, int pid, const char *comm, bool maps);

#endif
