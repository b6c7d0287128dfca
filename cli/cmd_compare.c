/*
 * cmd_compare.c - `kbench compare`: variants side by side with
 * descriptive statistics, changes against a baseline and verdicts.
 * `kbench export` goes through cli_compare() too: the same selection
 * (cli/select.h), then samples, summaries or the comparison as CSV/JSON.
 */
#include "cli.h"
#include "../analyze/compare.h"
#include "../analyze/qload.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../db/query.h"
#include "../render/table.h"
#include "select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What compare and export read beyond the selection. */
struct compare_args {
	const char *rows, *cols, *format, *what, *color;
};

/* Export's --what and --format into *what and ro.  -1 after a message. */
static int export_view(struct compare_args *a, struct render_table_opts *ro)
{
	if (!a->what)
		a->what = "samples";
	if (strcmp(a->what, "summaries") == 0)
		a->what = "summary";
	if (strcmp(a->what, "samples") && strcmp(a->what, "summary") && strcmp(a->what, "compare")) {
		fprintf(stderr, "kbench export: --what must be samples, summary or compare\n");
		return -1;
	}
	ro->fmt = RENDER_CSV;
	if (a->format && render_fmt_parse(a->format, &ro->fmt) < 0) {
		fprintf(stderr, "kbench export: unknown format '%s' (text, md, csv, json)\n", a->format);
		return -1;
	}
	if (ro->fmt != RENDER_CSV && ro->fmt != RENDER_JSON) {
		fprintf(stderr, "kbench export: --format must be csv or json\n");
		return -1;
	}
	return 0;
}

/* Compare's --format, --rows and --cols into ro.  -1 after a
 * message. */
static int compare_view(const struct compare_args *a, struct render_table_opts *ro)
{
	if (a->format && render_fmt_parse(a->format, &ro->fmt) < 0) {
		fprintf(stderr, "kbench compare: unknown format '%s' (text, md, csv, json)\n", a->format);
		return -1;
	}
	if ((a->rows && render_dim_parse(a->rows, &ro->rows) < 0) ||
	    (a->cols && render_dim_parse(a->cols, &ro->cols) < 0)) {
		fprintf(stderr, "kbench compare: --rows/--cols take config, metric or variant\n");
		return -1;
	}
	/* Naming only one side of the pivot implies the other. */
	if (a->rows && !a->cols && ro->rows == RENDER_DIM_VARIANT)
		ro->cols = RENDER_DIM_CONFIG;
	if (a->cols && !a->rows && ro->cols != RENDER_DIM_VARIANT)
		ro->rows = RENDER_DIM_VARIANT;
	if (a->rows && !a->cols && ro->rows == RENDER_DIM_METRIC)
		ro->cols = RENDER_DIM_VARIANT;
	if ((ro->rows == RENDER_DIM_VARIANT) == (ro->cols == RENDER_DIM_VARIANT) ||
	    ro->rows == ro->cols) {
		fprintf(stderr, "kbench compare: one of --rows/--cols must be 'variant', the other config or metric\n");
		return -1;
	}
	return 0;
}

/* export --what samples|summary: the stored rows of the selection. */
static int export_rows(struct db *db, struct cli_select *sel, const struct an_query *q,
		       int samples, enum render_fmt fmt, struct kb_err *err)
{
	struct db_qdata d;
	int rc;

	if (an_query_load_exact(db, q, &d, err) < 0)
		return -1;
	/* A selection that matches nothing is an error, as in compare;
	 * a store with nothing of the kind exports the header alone. */
	if (!(samples ? d.nsamples : d.nsummaries) &&
	    (sel->bench || q->nmetrics || q->nconfig || q->nvariants || q->nmachines)) {
		db_qdata_release(&d);
		return cli_select_empty(err, sel);
	}
	rc = samples ? render_samples(stdout, &d, fmt, err) : render_summaries(stdout, &d, fmt, err);
	db_qdata_release(&d);
	if (rc < 0 || fflush(stdout) != 0)
		return -1;
	return 0;
}

/* The comparison table of q, rendered to stdout. */
static int compare_table(struct db *db, struct cli_select *sel, const struct an_query *q,
			 const struct render_table_opts *ro, struct kb_err *err)
{
	struct an_table t;
	int rc;

	if (an_compare_build(db, q, &t, err) < 0)
		return -1;
	if (!t.nrows) {
		an_table_release(&t);
		return cli_select_empty(err, sel);
	}
	rc = render_table(stdout, &t, ro, err);
	an_table_release(&t);
	if (rc < 0 || fflush(stdout) != 0) {
		if (rc >= 0)
			kb_err_set(err, "", 0, "write error");
		return -1;
	}
	return 0;
}

int cli_compare(const char *verb, int argc, char **argv, const char *fixed_what)
{
	struct compare_args a = { 0 };
	int is_export = fixed_what != NULL;
	struct cli_select sel;
	const struct opt compare_opts[] = {
		CLI_SELECT_OPTS(&sel),
		OPT_STRING("rows", "DIM", &a.rows, "text/md rows: config (default), metric or variant"),
		OPT_STRING("cols", "DIM", &a.cols, "text/md columns: variant (default), config or metric"),
		CLI_OPT_USE_FLAGGED(&sel),
		OPT_STRING("format", "text|md|csv|json", &a.format, "text (default), md, csv or json"),
		OPT_STRING("color", "auto|always|never", &a.color,
			   "text: verdict marks in colour on a terminal (auto, default; off with $NO_COLOR or TERM=dumb)"),
		OPT_END,
	};
	const struct opt export_opts[] = {
		OPT_STRING("what", "W", &a.what, "samples, summary or compare (default samples)"),
		CLI_SELECT_OPTS(&sel),
		OPT_STRING("format", "csv|json", &a.format, "csv (default) or json"),
		OPT_END,
	};
	const struct cmd_usage u_compare = { "compare",
		"[--bench B] [--metric M,...] [--config K=V,...] [--variants V,...] [--baseline V]\n"
		"       [--change raw|speed|better] [--test welch|mwu] [--threshold P] [--alpha A]\n"
		"       [--better M=DIR] [--rows DIM] [--cols DIM] [--format text|md|csv|json]",
		"Compares variants per (benchmark, config, metric) against a baseline, with\n"
		"mean(sd), change, 95% interval, BH q-value and a verdict (see docs/compare.md).",
		compare_opts };
	const struct cmd_usage u_export = { "export",
		"[--what samples|summary|compare] [--bench B] [--format csv|json] [compare options]",
		"Writes stored samples, published summaries or a comparison as CSV or JSON.",
		export_opts };
	const char **args = NULL;
	size_t nargs = 0;
	struct an_query q;
	struct render_table_opts ro;
	struct kb_err err;
	struct db *db = NULL;
	int rc, status = EXIT_USAGE;

	cli_select_init(&sel);
	rc = opt_parse(is_export ? &u_export : &u_compare, argc, argv, &args, &nargs);
	if (rc) {
		status = rc > 0 ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	if (nargs) {
		fprintf(stderr, "kbench %s: unexpected argument '%s'\n", verb, args[0]);
		goto out;
	}
	kb_err_clear(&err);
	an_query_init(&q);
	render_table_opts_init(&ro);
	if ((is_export ? export_view(&a, &ro) : compare_view(&a, &ro)) < 0 ||
	    cli_color(verb, a.color, stdout, &ro.color) < 0)
		goto out;
	/* Unlike chart and report, an empty --bench or --baseline is kept. */
	if (cli_select_to_query(&sel, NULL, CLI_SELECT_KEEP_EMPTY, &q, &err) < 0 ||
	    cli_select_open(&sel, &q, &db, &err) < 0)
		goto fail;
	if (is_export && strcmp(a.what, "compare") != 0)
		rc = export_rows(db, &sel, &q, strcmp(a.what, "samples") == 0, ro.fmt, &err);
	else
		rc = compare_table(db, &sel, &q, &ro, &err);
	if (rc < 0)
		goto fail;
	status = EXIT_OK;
	goto out;
fail:
	cli_report(verb, &err);
out:
	if (db)
		db_close(db);
	cli_select_release(&sel);
	free(args);
	return status;
}

int cmd_compare(int argc, char **argv)
{
	return cli_compare("compare", argc, argv, NULL);
}
