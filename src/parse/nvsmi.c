/* nvsmi.c: nvidia-smi output as facts. See nvsmi.h. */
#include "nvsmi.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Lines longer than this are looked at only in their first part: every
 * line we care about is short. */
#define LINE_MAX_LOOK 512

/* Copies at most n-1 printable ASCII bytes of [s, e) into out, trimmed. */
static void copy_trimmed(char *out, size_t n, const char *s, const char *e)
{
	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	size_t k = 0;
	for (; s < e && k + 1 < n; s++)
		out[k++] = isprint((unsigned char)*s) ? *s : '?';
	out[k] = '\0';
}

/* The token after "label", optional spaces, ':' and spaces; "" if none. */
static void value_after(const char *line, const char *label, char *out, size_t n)
{
	out[0] = '\0';
	const char *p = strstr(line, label);
	if (!p)
		return;
	p += strlen(label);
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != ':')
		return;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	const char *e = p;
	while (*e && !isspace((unsigned char)*e) && *e != '|')
		e++;
	copy_trimmed(out, n, p, e);
}

/* "| NVIDIA-SMI 550.54.10   Driver Version: ..." : the version after the name. */
static void smi_version(const char *line, char *out, size_t n)
{
	const char *p = strstr(line, "NVIDIA-SMI ");
	out[0] = '\0';
	if (!p)
		return;
	p += 11;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return;
	const char *e = p;
	while (isdigit((unsigned char)*e) || *e == '.')
		e++;
	copy_trimmed(out, n, p, e);
}

static bool is_model_word(const char *w)
{
	return !strcmp(w, "WDDM") || !strcmp(w, "TCC") || !strcmp(w, "MCDM");
}

/*
 * A GPU row of the table: "|   0  NVIDIA GeForce RTX 3080   On  |   00000000:01:00.0  On |".
 * The second cell holds the PCI bus id, which tells the row from the
 * process table's rows.
 */
static void gpu_row(const char *line, struct nvsmi_info *info)
{
	/* A table pasted into an issue or a mail is often indented. */
	while (*line == ' ' || *line == '\t')
		line++;
	if (info->ngpus >= NVSMI_MAX_GPUS || line[0] != '|')
		return;
	const char *p = line + 1;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return;
	int index = 0;
	while (isdigit((unsigned char)*p) && index < 10000)
		index = index * 10 + (*p++ - '0');
	if (*p != ' ')
		return;
	const char *cell_end = strchr(p, '|');
	if (!cell_end)
		return;
	const char *next = strchr(cell_end + 1, '|');
	if (!next)
		return;
	/* The bus id "00000000:01:00.0" has a ':' and a '.'. */
	const char *colon = memchr(cell_end, ':', (size_t)(next - cell_end));
	if (!colon || !memchr(colon, '.', (size_t)(next - colon)))
		return;
	struct nvsmi_gpu *g = &info->gpu[info->ngpus];
	memset(g, 0, sizeof *g);
	g->index = index;
	char cell[128];
	copy_trimmed(cell, sizeof cell, p, cell_end);
	/* The cell's last word is the persistence mode or the driver model. */
	char *last = strrchr(cell, ' ');
	if (last && is_model_word(last + 1)) {
		copy_trimmed(g->model, sizeof g->model, last + 1, last + 1 + strlen(last + 1));
		*last = '\0';
	} else if (last && (!strcmp(last + 1, "On") || !strcmp(last + 1, "Off") ||
			    !strcmp(last + 1, "N/A"))) {
		*last = '\0';
	}
	copy_trimmed(g->name, sizeof g->name, cell, cell + strlen(cell));
	info->ngpus++;
}

/* "GPU 0: NVIDIA GeForce RTX 3080 (UUID: GPU-...)" from nvidia-smi -L. */
static void list_line(const char *line, struct nvsmi_info *info)
{
	if (info->ngpus >= NVSMI_MAX_GPUS || strncmp(line, "GPU ", 4) != 0)
		return;
	const char *p = line + 4;
	if (!isdigit((unsigned char)*p))
		return;
	int index = 0;
	while (isdigit((unsigned char)*p) && index < 10000)
		index = index * 10 + (*p++ - '0');
	if (p[0] != ':' || p[1] != ' ')
		return;
	p += 2;
	const char *e = strstr(p, " (UUID:");
	if (!e)
		e = p + strlen(p);
	struct nvsmi_gpu *g = &info->gpu[info->ngpus++];
	memset(g, 0, sizeof *g);
	g->index = index;
	copy_trimmed(g->name, sizeof g->name, p, e);
}

/*
 * `nvidia-smi -q` names each GPU in a block that starts with its bus id
 * alone on a line ("GPU 00000000:01:00.0"), then "    Product Name : ..."
 * and, on Windows and WSL, "    Driver Model" followed by
 * "        Current : WDDM". The state says which block we are in.
 */
struct q_state {
	bool in_gpu;       /* inside a "GPU <bus id>" block */
	bool driver_model; /* the previous line was "Driver Model" */
};

/* "GPU 00000000:01:00.0" (domain:bus:device.function, hex). */
static bool q_gpu_header(const char *line)
{
	if (strncmp(line, "GPU ", 4) != 0)
		return false;
	const char *p = line + 4;
	size_t n = 0;
	while (isxdigit((unsigned char)p[n]))
		n++;
	if (n < 4 || n > 8 || p[n] != ':')
		return false;
	p += n + 1;
	if (!isxdigit((unsigned char)p[0]) || !isxdigit((unsigned char)p[1]) || p[2] != ':')
		return false;
	p += 3;
	if (!isxdigit((unsigned char)p[0]) || !isxdigit((unsigned char)p[1]) || p[2] != '.' ||
	    !isdigit((unsigned char)p[3]))
		return false;
	p += 4;
	while (*p == ' ' || *p == '\t')
		p++;
	return *p == '\0';
}

/* For "    Key   : value" lines: true if the key is exactly key; *value
 * then points at the value (trimmed on the left). */
static bool q_field(const char *line, const char *key, const char **value)
{
	const char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	size_t k = strlen(key);
	if (strncmp(p, key, k) != 0)
		return false;
	p += k;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != ':')
		return false;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	*value = p;
	return true;
}

static void q_line(const char *line, struct nvsmi_info *info, struct q_state *st)
{
	const char *v;
	bool was_driver_model = st->driver_model;
	st->driver_model = false;
	if (q_gpu_header(line)) {
		st->in_gpu = false;
		if (info->ngpus >= NVSMI_MAX_GPUS)
			return;
		struct nvsmi_gpu *g = &info->gpu[info->ngpus];
		memset(g, 0, sizeof *g);
		g->index = (int)info->ngpus;
		info->ngpus++;
		st->in_gpu = true;
		return;
	}
	if (!st->in_gpu || line[0] != ' ')
		return;
	struct nvsmi_gpu *g = &info->gpu[info->ngpus - 1];
	if (q_field(line, "Product Name", &v)) {
		copy_trimmed(g->name, sizeof g->name, v, v + strlen(v));
		return;
	}
	const char *t = line;
	while (*t == ' ')
		t++;
	if (!strcmp(t, "Driver Model")) {
		st->driver_model = true;
		return;
	}
	if (was_driver_model && q_field(line, "Current", &v)) {
		char w[8];
		copy_trimmed(w, sizeof w, v, v + strlen(v));
		if (is_model_word(w))
			memcpy(g->model, w, sizeof g->model);
	}
}

static void set_failure(struct nvsmi_info *info, enum nvsmi_failure f, const char *line)
{
	/* The most specific message wins: the enum is ordered by it. */
	if (info->failure != NVSMI_FAIL_NONE && info->failure <= f)
		return;
	info->failure = f;
	copy_trimmed(info->reason, sizeof info->reason, line, line + strlen(line));
}

static void look_at(const char *line, struct nvsmi_info *info, struct q_state *st)
{
	char v[32];
	if (strstr(line, "NVIDIA-SMI ") && !strstr(line, "NVIDIA-SMI has failed") &&
	    !strstr(line, "NVIDIA-SMI couldn't")) {
		smi_version(line, v, sizeof v);
		if (*v) {
			memcpy(info->smi_version, v, sizeof info->smi_version);
			info->have_header = true;
		}
	}
	if (strstr(line, "Driver Version")) {
		value_after(line, "Driver Version", v, sizeof v);
		if (*v && isdigit((unsigned char)*v)) {
			memcpy(info->driver_version, v, sizeof info->driver_version);
			info->have_header = true;
		}
	}
	if (strstr(line, "CUDA Version")) {
		char c[sizeof info->cuda_version];
		value_after(line, "CUDA Version", c, sizeof c);
		if (*c) {
			memcpy(info->cuda_version, c, sizeof c);
			info->cuda_err = strncmp(c, "ERR", 3) == 0;
		}
	}
	if (strcasestr(line, "blocked by the operating system"))
		set_failure(info, NVSMI_FAIL_OS_BLOCKED, line);
	else if (strstr(line, "couldn't find libnvidia-ml.so"))
		set_failure(info, NVSMI_FAIL_NO_LIBNVML, line);
	else if (strstr(line, "couldn't communicate with the NVIDIA driver"))
		set_failure(info, NVSMI_FAIL_NO_DRIVER, line);
	else if (strstr(line, "No devices were found"))
		set_failure(info, NVSMI_FAIL_NO_DEVICES, line);
	else if (strncmp(line, "Failed to initialize NVML:", 26) == 0)
		set_failure(info, NVSMI_FAIL_NVML_INIT, line);
	if (strstr(line, "Unable to determine the device handle"))
		info->handle_errors++;
	gpu_row(line, info);
	list_line(line, info);
	q_line(line, info, st);
}

void nvsmi_parse(const char *buf, size_t len, struct nvsmi_info *info)
{
	memset(info, 0, sizeof *info);
	char line[LINE_MAX_LOOK + 1];
	struct q_state st = { false, false };
	size_t i = 0;
	while (i < len) {
		size_t k = 0;
		/* One line; NULs (UTF-16 output, binary junk) are dropped, other
		 * control bytes kept for isprint to replace. */
		while (i < len && buf[i] != '\n') {
			if (buf[i] != '\0' && buf[i] != '\r' && k < LINE_MAX_LOOK)
				line[k++] = buf[i];
			i++;
		}
		i++; /* the newline */
		line[k] = '\0';
		look_at(line, info, &st);
	}
}

const char *nvsmi_failure_name(enum nvsmi_failure f)
{
	switch (f) {
	case NVSMI_FAIL_NONE: return "none";
	case NVSMI_FAIL_OS_BLOCKED: return "os_blocked";
	case NVSMI_FAIL_NO_LIBNVML: return "no_libnvml";
	case NVSMI_FAIL_NO_DRIVER: return "no_driver";
	case NVSMI_FAIL_NO_DEVICES: return "no_devices";
	case NVSMI_FAIL_NVML_INIT: return "nvml_init";
	}
	return "unknown";
}
