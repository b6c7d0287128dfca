/*
 * cmd_copy.c - `kbench copy`: every source of one store into another
 * (SQLite or PostgreSQL, either way), skipping those the target has.
 *
 *   kbench copy --from STORE --to STORE [--quiet]
 */
#include "cli.h"
#include "../db/db.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void plural(const char *sep, size_t n, const char *one, const char *many)
{
	printf("%s%zu %s", sep, n, n == 1 ? one : many);
}

static void each(void *ctx, const struct db_copy_source *s)
{
	const int *quiet = ctx;

	if (*quiet)
		return;
	if (s->skipped)
		printf("skipped %s (already there)\n", s->path);
	else
		printf("copied  %s (%lld run%s, %lld summar%s)\n", s->path, s->runs,
		       s->runs == 1 ? "" : "s", s->summaries, s->summaries == 1 ? "y" : "ies");
}

static void total(const struct db_copy_result *r)
{
	plural("copied ", r->copied, "source", "sources");
	plural(" (", r->runs, "run", "runs");
	plural(", ", r->samples, "sample", "samples");
	plural(", ", r->jobs, "job", "jobs");
	plural(", ", r->summaries, "summary", "summaries");
	plural(", ", r->segments, "segment", "segments");
	plural("), skipped ", r->skipped, "source already there", "sources already there");
	plural("; ", r->variants, "variant", "variants");
	plural(", ", r->machines, "machine", "machines");
	plural(", ", r->metrics, "new metric", "new metrics");
	plural(", ", r->relabels, "relabel record", "relabel records");
	printf("\n");
}

/* Do from and to name the same SQLite file (or the same URI)? */
static int same_store(const char *from, const char *to)
{
	char a[PATH_MAX], b[PATH_MAX];

	if (strcmp(from, to) == 0)
		return 1;
	if (db_is_server(from) || db_is_server(to))
		return 0;
	return realpath(from, a) && realpath(to, b) && strcmp(a, b) == 0;
}

int cmd_copy(int argc, char **argv)
{
	const char *from = NULL, *to = NULL;
	int quiet = 0;
	const struct opt opts[] = {
		OPT_STRING("from", "STORE", &from, "the store to read: a SQLite file or a postgresql:// URI"),
		OPT_STRING("to", "STORE", &to,
			   "the store to copy into (created when new): a SQLite file or a postgresql:// URI"),
		OPT_FLAG("quiet", &quiet, "print only errors and the total"),
		OPT_END,
	};
	const struct cmd_usage u = { "copy", "--from STORE --to STORE [--quiet]",
		"Copies every source of one store into another, with its runs, samples,\n"
		"summaries, variants, machines and import time, and the relabel records;\n"
		"a source the target has (the same SHA-256) is skipped.  Each source is\n"
		"copied whole or not at all.", opts };
	const char **args = NULL;
	size_t nargs = 0;
	struct db *src = NULL, *dst = NULL;
	struct db_copy_result res;
	struct kb_err err;
	int rc = opt_parse(&u, argc, argv, &args, &nargs), status = EXIT_USAGE;

	free(args);
	if (rc)
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	if (nargs || !from || !to || !*from || !*to) {
		fprintf(stderr, "kbench copy: %s\n", nargs ? "takes no arguments"
			: "say which stores: --from STORE --to STORE");
		opt_usage(&u, stderr);
		return EXIT_USAGE;
	}
	if (same_store(from, to)) {
		fprintf(stderr, "kbench copy: --from and --to are the same store\n");
		return EXIT_USAGE;
	}
	kb_err_clear(&err);
	if (db_open_existing(&src, from, &err) < 0 || db_open(&dst, to, &err) < 0) {
		cli_report("copy", &err);
		goto done;
	}
	if (db_copy(src, dst, each, &quiet, &res, &err) < 0) {
		cli_report("copy", &err);
		fprintf(stderr, "kbench copy: %zu source%s copied and %zu skipped before the error;"
			" the rest not: run the copy again to complete it\n",
			res.copied, res.copied == 1 ? "" : "s", res.skipped);
		goto done;
	}
	total(&res);
	status = EXIT_OK;
done:
	db_close(src);
	db_close(dst);
	return status;
}
