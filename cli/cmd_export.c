/*
 * cmd_export.c - `kbench export`: stored samples, published summaries or
 * a comparison as CSV or JSON for other tools.  Shares its option parsing
 * and the comparison with `kbench compare` (cmd_compare.c).
 */
#include "cli.h"

int cmd_export(int argc, char **argv)
{
	return cli_compare("export", argc, argv, "samples");
}
