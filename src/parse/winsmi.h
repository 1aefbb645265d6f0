/*
 * winsmi: the parts of nvidia-smi.exe's output the table does not show:
 *
 *  - `--query-gpu=FIELD,... --format=csv`: a header naming each field with
 *    its unit in brackets ("power.draw [W]"), then one row a GPU, values
 *    separated by ", " (nvidia-smi's CSV has no quoting). Fields are found
 *    by their query name, never by position, so any order works;
 *  - `-q`: each GPU's block ("GPU 00000000:01:00.0") with Product Name,
 *    Driver Model / Current, Performance State, the power readings (Power
 *    Draw; Enforced, Current or plain Power Limit, by what the driver
 *    prints) and FB Memory Usage / Total and Used. Lines before the first
 *    block (a paste that starts inside one) go to `loose`.
 * nvidia-smi is not translated; its output is the same on Windows and Linux
 * (one program, NVIDIA's nvidia-smi manual). The table itself and the
 * driver version are nvsmi.h's. Pure, bounded.
 */
#ifndef WSLGPU_WINSMI_H
#define WSLGPU_WINSMI_H

#include <stdbool.h>
#include <stddef.h>

#define WINSMI_MAX_COLS 32
#define WINSMI_MAX_ROWS 16
#define WINSMI_MAX_GPUS 16

struct winsmi_csv {
	size_t ncols, nrows;
	char col[WINSMI_MAX_COLS][48];                     /* "power.draw" (unit dropped) */
	char val[WINSMI_MAX_ROWS][WINSMI_MAX_COLS][96];   /* "83.92 W" as printed */
};

/* Parses --format=csv output with its header. Returns the number of rows,
 * or -1 when there is no header line naming a query field. */
int winsmi_csv_parse(const char *buf, size_t len, struct winsmi_csv *c);
/* The value of field in row, "" when either is absent. */
const char *winsmi_csv_get(const struct winsmi_csv *c, size_t row, const char *field);

struct winsmi_gpu {
	char name[96];
	char model[8];        /* Driver Model / Current: WDDM, TCC, MCDM */
	char pstate[8];       /* "P8" */
	char power_draw[24];  /* "65.79 W" */
	char power_limit[24]; /* "250.00 W" */
	char mem_total[24];   /* "8192 MiB" */
	char mem_used[24];
};

struct winsmi_q {
	size_t ngpus;
	struct winsmi_gpu gpu[WINSMI_MAX_GPUS];
	struct winsmi_gpu loose; /* lines before any GPU block */
};

void winsmi_q_parse(const char *buf, size_t len, struct winsmi_q *q);

/* "8192 MiB" / "8192" -> bytes; -1 when not a size. */
long long winsmi_mib(const char *s);

#endif
