/* history.c: `wslgpu history` (being written). */
#include <stdio.h>

#include "cli.h"

int cmd_history(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "wslgpu history: not implemented yet\n");
	return EXIT_INTERNAL;
}
