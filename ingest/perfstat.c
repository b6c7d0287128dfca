/* perfstat.c - placeholder while the parser is being written (replaced next). */
#include "parsers.h"

static size_t perfstat_claim(const struct ingest_line *lines, size_t n, int *score)
{
	(void)lines; (void)n; *score = 0;
	return 0;
}

static int perfstat_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines,
		      size_t n, struct rec_batch *out, struct kb_err *err)
{
	(void)ctx; (void)lines; (void)n; (void)out;
	return kb_err_set(err, NULL, 0, "perfstat parser not written yet");
}

const struct ingest_parser perfstat_parser = {
	"perf-stat", "perf stat output", perfstat_claim, perfstat_parse,
};
