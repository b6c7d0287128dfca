/* autonuma.c - placeholder while the parser is being written (replaced next). */
#include "parsers.h"

static size_t autonuma_claim(const struct ingest_line *lines, size_t n, int *score)
{
	(void)lines; (void)n; *score = 0;
	return 0;
}

static int autonuma_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines,
		      size_t n, struct rec_batch *out, struct kb_err *err)
{
	(void)ctx; (void)lines; (void)n; (void)out;
	return kb_err_set(err, NULL, 0, "autonuma parser not written yet");
}

const struct ingest_parser autonuma_parser = {
	"autonuma", "autonuma output", autonuma_claim, autonuma_parse,
};
