/* report.c: `wslgpu report` (being written). */
#include <stdio.h>

#include "cli.h"

int cmd_report(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "wslgpu report: not implemented yet\n");
	return EXIT_INTERNAL;
}
