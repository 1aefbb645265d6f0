/* fix.c: `wslgpu fix` (being written). */
#include <stdio.h>

#include "cli.h"

int cmd_fix(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "wslgpu fix: not implemented yet\n");
	return EXIT_INTERNAL;
}
