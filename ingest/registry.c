/*
 * registry.c - the parser table.  One row per format; the segmenter asks
 * each, in this order, to claim lines (ties in score go to the longer
 * claim, then to the earlier row).
 */
#include "ingest.h"
#include "parsers.h"

#include <string.h>

static const struct ingest_parser *const parsers[] = {
	&numatest_parser,
	&hackbench_parser,
	&kernbench_parser,
	&perfstat_parser,
	&gnutime_parser,
	&autonuma_parser,
	&lkprobot_parser,
	&schbench_parser,
	&perfbench_parser,
	&sumtable_parser,
	&inlinemean_parser,
	&sidebyside_parser,
	&mmtestscmp_parser,
	&vartable_parser,
	&numastat_parser,
	&vmstat_parser,
	&lkpmon_parser,
	&numactl_parser,
};

const struct ingest_parser *const *ingest_parsers(size_t *n)
{
	*n = sizeof(parsers) / sizeof(parsers[0]);
	return parsers;
}

const struct ingest_parser *ingest_parser_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(parsers) / sizeof(parsers[0]); i++)
		if (strcmp(parsers[i]->name, name) == 0)
			return parsers[i];
	return NULL;
}
